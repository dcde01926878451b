/*
 * pool.c: the pool's pairing (pool.h, docs/pool.md). Each game has a
 * queue of the offers waiting for it in (arrival, id) order; a coming
 * offer walks the queues of its games from the oldest and takes the
 * first compatible offer of another key it meets in any of them, the
 * oldest over all. The waiting offers of one game are pairwise
 * incompatible (else they would have paired), so of one kind their
 * ranges are disjoint and the walk meets few before it stops. A
 * departed offer's entries stay in its queues, marked dead by its
 * slot's generation, until the walk passes them at the head or the
 * queue is full and compacted (lazy deletion): leaving costs O(games).
 * Keys, addresses and ids are found through open-addressing tables
 * sized at creation; nothing is allocated after pool_new.
 */
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "tb_error.h"

#define DEFAULT_CAPACITY 10000u
#define DEFAULT_PER_KEY 1u
#define DEFAULT_PER_ADDRESS 16u

/* A table's cell holding nothing (values are counts or slot + 1). */
#define EMPTY 0u
#define NO_SLOT UINT32_MAX

/* An offer the pool holds: waiting while live. */
typedef struct Slot {
    Pool_Offer o;
    uint64_t lo_ms, hi_ms; /* its ends' estimates */
    uint64_t gen;          /* bumped as it leaves: its queue entries die */
    uint32_t next_free;
    uint8_t live;
} Slot;

/* One offer's place in one game's queue, with what the walk compares. */
typedef struct Entry {
    uint64_t arrival_ms, id;
    uint64_t lo_ms, hi_ms;
    uint64_t gen;
    uint32_t slot;
    uint32_t kind;
} Entry;

/* A game's queue: entries [head, len) in (arrival, id) order, some of
 * them dead; those before head are all dead. */
typedef struct Queue {
    Entry *e;
    uint32_t head, len;
} Queue;

/* Open addressing with linear probing: klen-byte keys, nonzero values. */
typedef struct Table {
    uint8_t *keys;
    uint32_t *vals;
    size_t mask;
    size_t klen;
} Table;

/* pool_pair_all's order of the waiting offers. */
typedef struct Rank {
    uint64_t arrival_ms, id;
    uint32_t slot;
} Rank;

struct Pool {
    Pool_Limits lim;
    unsigned ngames;
    Slot *slots;
    uint32_t free_head;
    size_t waiting;
    uint32_t counts[POOL_GAMES_MAX];
    Queue q[POOL_GAMES_MAX];
    uint32_t qcap; /* entries a queue holds: 2 x capacity + 1 */
    Table ids, keys, addrs;
    Rank *ranks;
};

/* ---- tables --------------------------------------------------------- */

static uint64_t hash_bytes(const uint8_t *k, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, then a final mix */
    for (size_t i = 0; i < n; i++)
        h = (h ^ k[i]) * 0x100000001b3ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 32);
}

static int table_init(Table *t, size_t entries, size_t klen)
{
    size_t cells = 16;
    while (cells < 2 * entries)
        cells *= 2;
    t->keys = calloc(cells, klen);
    t->vals = calloc(cells, sizeof *t->vals);
    t->mask = cells - 1;
    t->klen = klen;
    return t->keys != NULL && t->vals != NULL ? 0 : TB_E_NOMEM;
}

static void table_free(Table *t)
{
    free(t->keys);
    free(t->vals);
}

/* The cell holding k, or the empty cell where k would go. */
static size_t table_find(const Table *t, const uint8_t *k)
{
    size_t i = (size_t)hash_bytes(k, t->klen) & t->mask;
    while (t->vals[i] != EMPTY && memcmp(t->keys + i * t->klen, k, t->klen))
        i = (i + 1) & t->mask;
    return i;
}

static uint32_t table_get(const Table *t, const uint8_t *k)
{
    return t->vals[table_find(t, k)];
}

/* Set k's value to v (EMPTY: remove k, shifting back the cells after it
 * that probed past it, so no lookup meets a hole). */
static void table_set(Table *t, const uint8_t *k, uint32_t v)
{
    size_t i = table_find(t, k), j = i;
    if (v != EMPTY || t->vals[i] == EMPTY) {
        memcpy(t->keys + i * t->klen, k, t->klen);
        t->vals[i] = v;
        return;
    }
    for (;;) {
        j = (j + 1) & t->mask;
        if (t->vals[j] == EMPTY)
            break;
        size_t home =
            (size_t)hash_bytes(t->keys + j * t->klen, t->klen) & t->mask;
        /* j stays when its home lies cyclically in (i, j] */
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            memcpy(t->keys + i * t->klen, t->keys + j * t->klen, t->klen);
            t->vals[i] = t->vals[j];
            i = j;
        }
    }
    t->vals[i] = EMPTY;
}

static void id_bytes(uint64_t id, uint8_t out[8])
{
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(id >> (8 * i));
}

/* ---- rules ---------------------------------------------------------- */

/* 1 when (a, ai) comes before (b, bi): the longer-waiting. */
static int earlier(uint64_t a, uint64_t ai, uint64_t b, uint64_t bi)
{
    return a < b || (a == b && ai < bi);
}

static int ranges_meet(uint32_t kind_a, uint64_t lo_a, uint64_t hi_a,
                       uint32_t kind_b, uint64_t lo_b, uint64_t hi_b)
{
    return kind_a == kind_b && lo_a <= hi_b && lo_b <= hi_a;
}

int pool_compatible(const Pool_Offer *a, const Pool_Offer *b)
{
    return memcmp(a->key, b->key, LOBBY_KEY_BYTES) != 0 &&
           (a->games & b->games) != 0 && a->lo.kind == a->hi.kind &&
           b->lo.kind == b->hi.kind &&
           ranges_meet((uint32_t)a->lo.kind, proto_clock_estimate_ms(&a->lo),
                       proto_clock_estimate_ms(&a->hi), (uint32_t)b->lo.kind,
                       proto_clock_estimate_ms(&b->lo),
                       proto_clock_estimate_ms(&b->hi));
}

Proto_Clock pool_pair_clock(const Pool_Offer *older, const Pool_Offer *newer)
{
    return proto_clock_estimate_ms(&older->lo) >=
                   proto_clock_estimate_ms(&newer->lo)
               ? older->lo
               : newer->lo;
}

/* The lowest game both masks hold (they share one). */
static unsigned first_game(uint16_t games)
{
    unsigned g = 0;
    while (!(games >> g & 1u))
        g++;
    return g;
}

/* ---- queues --------------------------------------------------------- */

/* Drop q's dead entries (when it is full). */
static void queue_compact(Pool *p, Queue *q)
{
    uint32_t n = 0;
    for (uint32_t i = q->head; i < q->len; i++)
        if (p->slots[q->e[i].slot].gen == q->e[i].gen)
            q->e[n++] = q->e[i];
    q->head = 0;
    q->len = n;
}

/* Put slot s's entry into game g's queue at its (arrival, id) place:
 * at the end when it came last, as offers mostly do. */
static void queue_insert(Pool *p, unsigned g, uint32_t s)
{
    Queue *q = &p->q[g];
    const Slot *sl = &p->slots[s];
    Entry e = {
        sl->o.arrival_ms,       sl->o.id, sl->lo_ms, sl->hi_ms, sl->gen, s,
        (uint32_t)sl->o.lo.kind};
    uint32_t lo, hi;
    if (q->len == p->qcap)
        queue_compact(p, q);
    lo = q->head;
    hi = q->len;
    if (hi > lo &&
        earlier(e.arrival_ms, e.id, q->e[hi - 1].arrival_ms, q->e[hi - 1].id)) {
        while (lo < hi) { /* the first entry after e */
            uint32_t mid = lo + (hi - lo) / 2;
            if (earlier(q->e[mid].arrival_ms, q->e[mid].id, e.arrival_ms, e.id))
                lo = mid + 1;
            else
                hi = mid;
        }
        memmove(&q->e[lo + 1], &q->e[lo], (q->len - lo) * sizeof e);
    } else {
        lo = q->len;
    }
    q->e[lo] = e;
    q->len++;
}

/*
 * The longest-waiting queued offer compatible with o (of kind kind, its
 * ends' estimates lo_ms, hi_ms): its slot, or NO_SLOT. Each of o's
 * games' queues is walked from its head to the first compatible entry,
 * or to the first no older than the best found in another game.
 */
static uint32_t find_match(Pool *p, const Pool_Offer *o, uint32_t kind,
                           uint64_t lo_ms, uint64_t hi_ms)
{
    uint32_t best = NO_SLOT;
    uint64_t best_at = 0, best_id = 0;
    for (unsigned g = 0; g < p->ngames; g++) {
        Queue *q = &p->q[g];
        if (!(o->games >> g & 1u))
            continue;
        while (q->head < q->len &&
               p->slots[q->e[q->head].slot].gen != q->e[q->head].gen)
            q->head++;
        for (uint32_t i = q->head; i < q->len; i++) {
            const Entry *e = &q->e[i];
            if (best != NO_SLOT &&
                !earlier(e->arrival_ms, e->id, best_at, best_id))
                break;
            if (!ranges_meet(e->kind, e->lo_ms, e->hi_ms, kind, lo_ms, hi_ms))
                continue;
            const Slot *s = &p->slots[e->slot];
            if (s->gen != e->gen ||
                memcmp(s->o.key, o->key, LOBBY_KEY_BYTES) == 0)
                continue;
            best = e->slot;
            best_at = e->arrival_ms;
            best_id = e->id;
            break;
        }
    }
    return best;
}

/* ---- offers --------------------------------------------------------- */

static void count_share(Table *t, const uint8_t *k, int delta)
{
    uint32_t v = table_get(t, k);
    table_set(t, k, delta > 0 ? v + 1 : v - 1);
}

/* Slot s leaves: its queue entries die, its shares and counts go down,
 * the slot is free again. */
static void slot_leave(Pool *p, uint32_t s)
{
    Slot *sl = &p->slots[s];
    uint8_t idb[8];
    id_bytes(sl->o.id, idb);
    table_set(&p->ids, idb, EMPTY);
    count_share(&p->keys, sl->o.key, -1);
    count_share(&p->addrs, sl->o.addr, -1);
    for (unsigned g = 0; g < p->ngames; g++)
        if (sl->o.games >> g & 1u)
            p->counts[g]--;
    sl->gen++;
    sl->live = 0;
    sl->next_free = p->free_head;
    p->free_head = s;
    p->waiting--;
}

/* Fill *pair for offers a and b (either order). */
static void make_pair(const Pool_Offer *a, const Pool_Offer *b, Pool_Pair *pair)
{
    const Pool_Offer *older = a, *newer = b;
    if (earlier(b->arrival_ms, b->id, a->arrival_ms, a->id)) {
        older = b;
        newer = a;
    }
    pair->older = older->id;
    pair->newer = newer->id;
    pair->game = first_game(a->games & b->games);
    pair->clock = pool_pair_clock(older, newer);
}

/* o's checks before it may enter (pool_add's errors). */
static int admit(const Pool *p, const Pool_Offer *o)
{
    uint8_t idb[8];
    if (o->games == 0 ||
        (p->ngames < POOL_GAMES_MAX && (o->games >> p->ngames) != 0) ||
        o->lo.kind != o->hi.kind ||
        proto_clock_estimate_ms(&o->lo) > proto_clock_estimate_ms(&o->hi))
        return TB_E_ARG;
    id_bytes(o->id, idb);
    if (table_get(&p->ids, idb) != EMPTY)
        return TB_E_STATE;
    if (table_get(&p->keys, o->key) >= p->lim.per_key)
        return TB_E_LIMIT;
    if (table_get(&p->addrs, o->addr) >= p->lim.per_address)
        return TB_E_ADDRESS;
    if (p->waiting >= p->lim.capacity)
        return TB_E_FULL;
    return 0;
}

/* o (admitted) waits in a slot, counted and queued in its games. */
static void slot_enter(Pool *p, const Pool_Offer *o)
{
    uint32_t s = p->free_head;
    Slot *sl = &p->slots[s];
    uint8_t idb[8];
    p->free_head = sl->next_free;
    sl->o = *o;
    sl->lo_ms = proto_clock_estimate_ms(&o->lo);
    sl->hi_ms = proto_clock_estimate_ms(&o->hi);
    sl->live = 1;
    id_bytes(o->id, idb);
    table_set(&p->ids, idb, s + 1);
    count_share(&p->keys, o->key, 1);
    count_share(&p->addrs, o->addr, 1);
    for (unsigned g = 0; g < p->ngames; g++) {
        if (!(o->games >> g & 1u))
            continue;
        p->counts[g]++;
        queue_insert(p, g, s);
    }
    p->waiting++;
}

int pool_new(unsigned ngames, const Pool_Limits *lim, Pool **out)
{
    Pool *p;
    *out = NULL;
    if (ngames < 1 || ngames > POOL_GAMES_MAX)
        return TB_E_ARG;
    p = calloc(1, sizeof *p);
    if (p == NULL)
        return TB_E_NOMEM;
    if (lim != NULL)
        p->lim = *lim;
    if (p->lim.capacity == 0)
        p->lim.capacity = DEFAULT_CAPACITY;
    if (p->lim.per_key == 0)
        p->lim.per_key = DEFAULT_PER_KEY;
    if (p->lim.per_address == 0)
        p->lim.per_address = DEFAULT_PER_ADDRESS;
    if (p->lim.capacity > (UINT32_MAX - 1) / 2)
        goto fail_arg;
    p->ngames = ngames;
    p->qcap = 2 * p->lim.capacity + 1;
    p->slots = calloc(p->lim.capacity, sizeof *p->slots);
    p->ranks = calloc(p->lim.capacity, sizeof *p->ranks);
    if (p->slots == NULL || p->ranks == NULL)
        goto fail;
    for (uint32_t i = 0; i < p->lim.capacity; i++)
        p->slots[i].next_free = i + 1 < p->lim.capacity ? i + 1 : NO_SLOT;
    for (unsigned g = 0; g < ngames; g++) {
        p->q[g].e = calloc(p->qcap, sizeof *p->q[g].e);
        if (p->q[g].e == NULL)
            goto fail;
    }
    if (table_init(&p->ids, p->lim.capacity, 8) != 0 ||
        table_init(&p->keys, p->lim.capacity, LOBBY_KEY_BYTES) != 0 ||
        table_init(&p->addrs, p->lim.capacity, POOL_ADDR_BYTES) != 0)
        goto fail;
    *out = p;
    return 0;
fail_arg:
    free(p);
    return TB_E_ARG;
fail:
    pool_free(p);
    return TB_E_NOMEM;
}

void pool_free(Pool *p)
{
    if (p == NULL)
        return;
    for (unsigned g = 0; g < POOL_GAMES_MAX; g++)
        free(p->q[g].e);
    table_free(&p->ids);
    table_free(&p->keys);
    table_free(&p->addrs);
    free(p->slots);
    free(p->ranks);
    free(p);
}

const Pool_Limits *pool_limits(const Pool *p)
{
    return &p->lim;
}

int pool_add(Pool *p, const Pool_Offer *o, Pool_Pair *pair)
{
    int err = admit(p, o);
    uint32_t m;
    if (err != 0)
        return err;
    m = find_match(p, o, (uint32_t)o->lo.kind, proto_clock_estimate_ms(&o->lo),
                   proto_clock_estimate_ms(&o->hi));
    if (m == NO_SLOT) {
        slot_enter(p, o);
        return 0;
    }
    make_pair(&p->slots[m].o, o, pair);
    slot_leave(p, m);
    return 1;
}

int pool_put(Pool *p, const Pool_Offer *o)
{
    int err = admit(p, o);
    if (err != 0)
        return err;
    slot_enter(p, o);
    return 0;
}

static int rank_cmp(const void *a, const void *b)
{
    const Rank *x = a, *y = b;
    if (earlier(x->arrival_ms, x->id, y->arrival_ms, y->id))
        return -1;
    return earlier(y->arrival_ms, y->id, x->arrival_ms, x->id);
}

int pool_pair_all(Pool *p, Pool_Pair *pairs, size_t cap, size_t *n)
{
    size_t nr = 0, made = 0;
    *n = 0;
    if (cap < p->waiting / 2)
        return TB_E_SPACE;
    for (uint32_t s = 0; s < p->lim.capacity; s++) {
        if (!p->slots[s].live)
            continue;
        p->ranks[nr].arrival_ms = p->slots[s].o.arrival_ms;
        p->ranks[nr].id = p->slots[s].o.id;
        p->ranks[nr].slot = s;
        nr++;
    }
    qsort(p->ranks, nr, sizeof *p->ranks, rank_cmp);
    /* Replay from an empty pool: every queue empty, each offer in turn
     * pairs with the oldest before it still waiting, or joins the ends
     * of its games' queues (it is the latest yet). */
    for (unsigned g = 0; g < p->ngames; g++) {
        p->q[g].head = 0;
        p->q[g].len = 0;
    }
    for (size_t i = 0; i < nr; i++) {
        uint32_t s = p->ranks[i].slot, m;
        Slot *sl = &p->slots[s];
        m = find_match(p, &sl->o, (uint32_t)sl->o.lo.kind, sl->lo_ms,
                       sl->hi_ms);
        if (m == NO_SLOT) {
            for (unsigned g = 0; g < p->ngames; g++)
                if (sl->o.games >> g & 1u)
                    queue_insert(p, g, s);
            continue;
        }
        make_pair(&p->slots[m].o, &sl->o, &pairs[made++]);
        slot_leave(p, m);
        slot_leave(p, s);
    }
    *n = made;
    return 0;
}

int pool_remove(Pool *p, uint64_t id)
{
    uint8_t idb[8];
    uint32_t v;
    id_bytes(id, idb);
    v = table_get(&p->ids, idb);
    if (v == EMPTY)
        return TB_E_ARG;
    slot_leave(p, v - 1);
    return 0;
}

void pool_counts(const Pool *p, uint32_t counts[POOL_GAMES_MAX])
{
    memcpy(counts, p->counts, sizeof p->counts);
}

size_t pool_waiting(const Pool *p)
{
    return p->waiting;
}
