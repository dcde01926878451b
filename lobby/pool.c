/*
 * pool.c: the pool's pairing (pool.h, docs/pool.md). The offers waiting
 * for a game, of one clock kind, are a treap ordered by their low end's
 * estimate (then arrival and id), each subtree knowing the largest high
 * end in it and its longest-waiting offer. A coming offer asks each of
 * its games' trees of its kind for the longest-waiting offer whose range
 * meets its own: a subtree whose high ends all fall short, or whose
 * oldest offer came after the best found so far, is passed over, and the
 * child with the older offer is walked first, so the walk goes straight
 * down to the answer when the ranges meet and along two edges of the
 * tree when they do not (the offers waiting for one game of one kind
 * meet no other, else they would have paired: disjoint ranges, in order).
 * Each operation costs O(games x log n) expected; the tree's shape comes
 * from a hash of the caller's ids, not from the players. Keys, addresses
 * and ids are found through open-addressing tables sized at creation;
 * nothing is allocated after pool_new.
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

/* Clock kinds an offer may have (Proto_Clock_Kind, NONE..DAYS). */
#define POOL_KINDS (PROTO_CLOCK_DAYS + 1)

/* An offer the pool holds: waiting while live. */
typedef struct Slot {
    Pool_Offer o;
    uint64_t lo_ms, hi_ms; /* its ends' estimates */
    uint32_t next_free;
    uint8_t live;
    uint8_t in_trees; /* in its games' trees (pool_pair_all takes each
                         offer out while it replays) */
} Slot;

/* A waiting offer in one game's tree (nodes are numbered as slots). */
typedef struct Node {
    uint64_t lo_ms, hi_ms;   /* the offer's ends' estimates */
    uint64_t arrival_ms, id; /* its rank: the smaller the older */
    uint64_t prio;           /* heap order: a hash of its id */
    uint64_t max_hi;         /* the largest hi_ms in its subtree */
    uint32_t left, right;    /* children, NO_SLOT for none */
    uint32_t oldest;         /* its subtree's longest-waiting node */
} Node;

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
    Node *nodes[POOL_GAMES_MAX]; /* a game's nodes, capacity of them */
    uint32_t root[POOL_GAMES_MAX][POOL_KINDS];
    Table ids, keys, addrs;
    Rank *ranks;
};

/* ---- tables --------------------------------------------------------- */

/* A table's hash of n bytes (a multiple of 8: ids, keys, addresses),
 * eight at a time. */
static uint64_t hash_bytes(const uint8_t *k, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w;
        memcpy(&w, k + i, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 29);
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

/* The lowest game both masks hold (they share one). */
static unsigned first_game(uint16_t games)
{
    unsigned g = 0;
    while (!(games >> g & 1u))
        g++;
    return g;
}

/* o's player's rating in game g, class k. */
static unsigned rating_of(const Pool_Offer *o, unsigned g, unsigned k)
{
    return o->rating[g][k] != 0 ? o->rating[g][k] : POOL_RATING_NEWCOMER;
}

/* 1 when o's rating range holds rating r (any, with no range). */
static int wants(const Pool_Offer *o, unsigned r)
{
    return (o->want_lo == 0 && o->want_hi == 0) ||
           (o->want_lo <= r && r <= o->want_hi);
}

/* Each one's rating range holds the other's rating in the game and class
 * they would play (they are compatible otherwise). */
static int ratings_fit(const Pool_Offer *a, const Pool_Offer *b)
{
    if (a->want_lo == 0 && a->want_hi == 0 && b->want_lo == 0 &&
        b->want_hi == 0)
        return 1;
    unsigned g = first_game(a->games & b->games);
    /* (either order gives a clock of one estimate: one class) */
    Proto_Clock c = pool_pair_clock(a, b);
    unsigned k = (unsigned)proto_clock_class(&c);
    return wants(a, rating_of(b, g, k)) && wants(b, rating_of(a, g, k));
}

int pool_compatible(const Pool_Offer *a, const Pool_Offer *b)
{
    return memcmp(a->key, b->key, LOBBY_KEY_BYTES) != 0 &&
           (a->games & b->games) != 0 &&
           strncmp(a->options, b->options, sizeof a->options) == 0 &&
           a->lo.kind == b->lo.kind &&
           a->lo.kind == a->hi.kind && b->lo.kind == b->hi.kind &&
           proto_clock_estimate_ms(&a->lo) <= proto_clock_estimate_ms(&b->hi) &&
           proto_clock_estimate_ms(&b->lo) <= proto_clock_estimate_ms(&a->hi) &&
           ratings_fit(a, b);
}

Proto_Clock pool_pair_clock(const Pool_Offer *older, const Pool_Offer *newer)
{
    return proto_clock_estimate_ms(&older->lo) >=
                   proto_clock_estimate_ms(&newer->lo)
               ? older->lo
               : newer->lo;
}

/* ---- trees ---------------------------------------------------------- */

/* A node's heap priority: a bijective mix of its id (splitmix64's
 * finaliser), so no two nodes tie. */
static uint64_t prio_of(uint64_t id)
{
    id = (id ^ (id >> 30)) * 0xbf58476d1ce4e5b9ull;
    id = (id ^ (id >> 27)) * 0x94d049bb133111ebull;
    return id ^ (id >> 31);
}

static int older_node(const Node *t, uint32_t a, uint32_t b)
{
    return earlier(t[a].arrival_ms, t[a].id, t[b].arrival_ms, t[b].id);
}

/* 1 when node a comes before node b in the tree's order. */
static int key_before(const Node *t, uint32_t a, uint32_t b)
{
    return t[a].lo_ms < t[b].lo_ms ||
           (t[a].lo_ms == t[b].lo_ms && older_node(t, a, b));
}

/* Node n's subtree facts from its own and its children's. */
static void pull(Node *t, uint32_t n)
{
    Node *x = &t[n];
    uint32_t kids[2] = {x->left, x->right};
    x->max_hi = x->hi_ms;
    x->oldest = n;
    for (int i = 0; i < 2; i++) {
        uint32_t c = kids[i];
        if (c == NO_SLOT)
            continue;
        if (t[c].max_hi > x->max_hi)
            x->max_hi = t[c].max_hi;
        if (older_node(t, t[c].oldest, x->oldest))
            x->oldest = t[c].oldest;
    }
}

/* The tree n with its left (right: right) child raised in its place:
 * the new top, whose facts the caller brings up to date. */
static uint32_t rotate(Node *t, uint32_t n, int right)
{
    uint32_t c;
    if (right) {
        c = t[n].right;
        t[n].right = t[c].left;
        t[c].left = n;
    } else {
        c = t[n].left;
        t[n].left = t[c].right;
        t[c].right = n;
    }
    pull(t, n);
    return c;
}

/* Node s into the tree n: the new root (a leaf raised while its
 * priority is the higher). */
static uint32_t insert_at(Node *t, uint32_t n, uint32_t s)
{
    if (n == NO_SLOT)
        return s;
    if (key_before(t, s, n)) {
        t[n].left = insert_at(t, t[n].left, s);
        if (t[t[n].left].prio > t[n].prio)
            n = rotate(t, n, 0);
    } else {
        t[n].right = insert_at(t, t[n].right, s);
        if (t[t[n].right].prio > t[n].prio)
            n = rotate(t, n, 1);
    }
    pull(t, n);
    return n;
}

/* Trees a and b joined, every node of a before every node of b. */
static uint32_t merge(Node *t, uint32_t a, uint32_t b)
{
    if (a == NO_SLOT)
        return b;
    if (b == NO_SLOT)
        return a;
    if (t[a].prio > t[b].prio) {
        t[a].right = merge(t, t[a].right, b);
        pull(t, a);
        return a;
    }
    t[b].left = merge(t, a, t[b].left);
    pull(t, b);
    return b;
}

/* Slot s's offer into game g's tree of its kind. */
static void tree_insert(Pool *p, unsigned g, uint32_t s)
{
    Node *t = p->nodes[g];
    const Slot *sl = &p->slots[s];
    uint32_t *root = &p->root[g][sl->o.lo.kind];
    t[s].lo_ms = sl->lo_ms;
    t[s].hi_ms = sl->hi_ms;
    t[s].arrival_ms = sl->o.arrival_ms;
    t[s].id = sl->o.id;
    t[s].prio = prio_of(sl->o.id);
    t[s].left = t[s].right = NO_SLOT;
    pull(t, s);
    *root = insert_at(t, *root, s);
}

/* Node n out of the tree root (which holds it): the new root. */
static uint32_t tree_erase(Node *t, uint32_t root, uint32_t n)
{
    if (root == n)
        return merge(t, t[n].left, t[n].right);
    if (key_before(t, n, root))
        t[root].left = tree_erase(t, t[root].left, n);
    else
        t[root].right = tree_erase(t, t[root].right, n);
    pull(t, root);
    return root;
}

/* A search for the longest-waiting offer compatible with o (its ends'
 * estimates lo_ms, hi_ms); best so far (NO_SLOT: none). */
typedef struct Query {
    const Slot *slots;
    const Pool_Offer *o;
    uint64_t lo_ms, hi_ms;
    uint32_t best;
    uint64_t best_at, best_id;
} Query;

static void tree_search(Query *q, const Node *t, uint32_t n)
{
    const Node *x;
    uint32_t a, b;
    if (n == NO_SLOT)
        return;
    x = &t[n];
    if (x->max_hi < q->lo_ms)
        return; /* every range here ends below ours */
    if (q->best != NO_SLOT && !earlier(t[x->oldest].arrival_ms, t[x->oldest].id,
                                       q->best_at, q->best_id))
        return; /* nothing here waited longer than the best */
    /* the tree's bounds first, then the one test of compatibility */
    if (x->lo_ms <= q->hi_ms && x->hi_ms >= q->lo_ms &&
        (q->best == NO_SLOT ||
         earlier(x->arrival_ms, x->id, q->best_at, q->best_id)) &&
        pool_compatible(&q->slots[n].o, q->o)) {
        q->best = n;
        q->best_at = x->arrival_ms;
        q->best_id = x->id;
    }
    a = x->left; /* the right subtree starts at x's low end or above */
    b = x->lo_ms <= q->hi_ms ? x->right : NO_SLOT;
    if (a != NO_SLOT && b != NO_SLOT &&
        older_node(t, t[b].oldest, t[a].oldest)) {
        a = b;
        b = x->left;
    }
    tree_search(q, t, a);
    tree_search(q, t, b);
}

/*
 * The longest-waiting offer in the trees compatible with o (its ends'
 * estimates lo_ms, hi_ms): its slot, or NO_SLOT.
 */
static uint32_t find_match(const Pool *p, const Pool_Offer *o, uint64_t lo_ms,
                           uint64_t hi_ms)
{
    Query q = {p->slots, o, lo_ms, hi_ms, NO_SLOT, 0, 0};
    for (unsigned g = 0; g < p->ngames; g++)
        if (o->games >> g & 1u)
            tree_search(&q, p->nodes[g], p->root[g][o->lo.kind]);
    return q.best;
}

/* ---- offers --------------------------------------------------------- */

static void count_share(Table *t, const uint8_t *k, int delta)
{
    uint32_t v = table_get(t, k);
    table_set(t, k, delta > 0 ? v + 1 : v - 1);
}

/* Slot s leaves: out of its trees, its shares and counts go down, the
 * slot is free again. */
static void slot_leave(Pool *p, uint32_t s)
{
    Slot *sl = &p->slots[s];
    uint8_t idb[8];
    id_bytes(sl->o.id, idb);
    table_set(&p->ids, idb, EMPTY);
    count_share(&p->keys, sl->o.key, -1);
    count_share(&p->addrs, sl->o.addr, -1);
    for (unsigned g = 0; g < p->ngames; g++) {
        uint32_t *root = &p->root[g][sl->o.lo.kind];
        if (!(sl->o.games >> g & 1u))
            continue;
        p->counts[g]--;
        if (sl->in_trees)
            *root = tree_erase(p->nodes[g], *root, s);
    }
    sl->live = 0;
    sl->in_trees = 0;
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
        (unsigned)o->lo.kind >= POOL_KINDS || o->lo.kind != o->hi.kind ||
        proto_clock_estimate_ms(&o->lo) > proto_clock_estimate_ms(&o->hi) ||
        o->want_lo > o->want_hi)
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

/* o (admitted) waits in a slot, counted and in its games' trees. */
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
    sl->in_trees = 1;
    id_bytes(o->id, idb);
    table_set(&p->ids, idb, s + 1);
    count_share(&p->keys, o->key, 1);
    count_share(&p->addrs, o->addr, 1);
    for (unsigned g = 0; g < p->ngames; g++) {
        if (!(o->games >> g & 1u))
            continue;
        p->counts[g]++;
        tree_insert(p, g, s);
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
    if (p->lim.capacity >= NO_SLOT) {
        free(p);
        return TB_E_ARG;
    }
    p->ngames = ngames;
    for (unsigned g = 0; g < POOL_GAMES_MAX; g++)
        for (unsigned k = 0; k < POOL_KINDS; k++)
            p->root[g][k] = NO_SLOT;
    p->slots = calloc(p->lim.capacity, sizeof *p->slots);
    p->ranks = calloc(p->lim.capacity, sizeof *p->ranks);
    if (p->slots == NULL || p->ranks == NULL)
        goto fail;
    for (uint32_t i = 0; i < p->lim.capacity; i++)
        p->slots[i].next_free = i + 1 < p->lim.capacity ? i + 1 : NO_SLOT;
    for (unsigned g = 0; g < ngames; g++) {
        p->nodes[g] = calloc(p->lim.capacity, sizeof *p->nodes[g]);
        if (p->nodes[g] == NULL)
            goto fail;
    }
    if (table_init(&p->ids, p->lim.capacity, 8) != 0 ||
        table_init(&p->keys, p->lim.capacity, LOBBY_KEY_BYTES) != 0 ||
        table_init(&p->addrs, p->lim.capacity, POOL_ADDR_BYTES) != 0)
        goto fail;
    *out = p;
    return 0;
fail:
    pool_free(p);
    return TB_E_NOMEM;
}

void pool_free(Pool *p)
{
    if (p == NULL)
        return;
    for (unsigned g = 0; g < POOL_GAMES_MAX; g++)
        free(p->nodes[g]);
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
    m = find_match(p, o, proto_clock_estimate_ms(&o->lo),
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
    /* Replay from an empty pool: every tree empty, each offer in turn
     * pairs with the oldest before it still waiting, or joins its games'
     * trees. */
    for (unsigned g = 0; g < p->ngames; g++)
        for (unsigned k = 0; k < POOL_KINDS; k++)
            p->root[g][k] = NO_SLOT;
    for (size_t i = 0; i < nr; i++)
        p->slots[p->ranks[i].slot].in_trees = 0;
    for (size_t i = 0; i < nr; i++) {
        uint32_t s = p->ranks[i].slot, m;
        Slot *sl = &p->slots[s];
        m = find_match(p, &sl->o, sl->lo_ms, sl->hi_ms);
        if (m == NO_SLOT) {
            for (unsigned g = 0; g < p->ngames; g++)
                if (sl->o.games >> g & 1u)
                    tree_insert(p, g, s);
            sl->in_trees = 1;
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
