/*
 * room.c: the relay's rooms without I/O (room.h). Rooms are filed under two
 * lookups (invite and watch) in one chained hash table; each room keeps a ring
 * of the frames its players sent, already in their FRAME wire form, so catching
 * a member up is a series of sends. Sends to a member are paced: a
 * member is topped up only while its write queue is below half the limit
 * and again when it drains, so memory per member stays bounded; a member
 * that falls so far behind that the ring drops a frame it has not had is
 * dropped as a slow reader; but a seated player whose frame would drop
 * one the other seat has not had is closed instead (the flood costs the
 * flooder, never the reader). Every shared resource has a lobby-wide cap
 * and a per-address share (source.c): connections, rooms, kept bytes and
 * the wrong-code budget. A code that matches is never refused by the
 * guess limit; a wrong one over it is answered late, holding the
 * guesser's connection. Housekeeping runs four times a second but visits
 * only what may need it: members still before their hello or owed a
 * late answer, and rooms that are empty or have lost their host before a
 * guest came (two lists, each entry dropped from its list once it no
 * longer qualifies), so a lobby holding many idle members in running
 * rooms does no work per member or room while they are idle. The time
 * is always the caller's (ms); members are reached only through their
 * link's operations, so the libuv relay and the simulator run this one
 * room. The node is a signing witness (the fair-play issue): each frame
 * it numbers and each presence change gets a receipt (proto.h) signed
 * once with the node's key at the room's receipt clock (the driver's
 * wall clock, never run back; with a store, Redis's time), kept with the
 * frame and sent in its FRAME and ACK.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "room_internal.h"
#include "tb_error.h"

void lobby_limits_default(Lobby_Limits *lim)
{
#define DEF(f, v)                                                              \
    if (lim->f == 0)                                                           \
        lim->f = (v);
    DEF(max_rooms, 1000)
    DEF(max_conns, 4096)
    DEF(max_payload, 98304)
    DEF(max_spectators, 64)
    DEF(transcript_frames, 4096)
    DEF(transcript_bytes, 4u << 20)
    DEF(max_write_queue, 1u << 20)
    DEF(write_queue_total, 256u << 20)
    DEF(heartbeat_ms, 5000)
    DEF(idle_timeout_ms, 15000)
    DEF(hello_timeout_ms, 10000)
    DEF(empty_room_ms, 600000)
    DEF(guess_burst, 5)
    DEF(guess_refill_ms, 6000)
    DEF(guess_global_per_s, 100)
    DEF(max_sources, 8192)
    DEF(source_conns, 64)
    DEF(source_rooms, 16)
    DEF(source_bytes, 16u << 20)
    DEF(kept_bytes, 256u << 20)
    DEF(unjoined_room_ms, 30000)
    DEF(rate_delay_ms, 5000)
    DEF(redis_deadline_ms, 3000)
    DEF(store_frames, 16)
    DEF(store_source_bytes, 4u << 20)
    DEF(store_bytes, 64u << 20)
    DEF(max_seeks, 10000)
    DEF(source_seeks, 8)
    DEF(key_seeks, 4)
    DEF(keep_room_ms, 2592000000u)
#undef DEF
    if (lim->max_payload > LOBBY_MESSAGE_MAX - LOBBY_FRAME_HEADER)
        lim->max_payload = LOBBY_MESSAGE_MAX - LOBBY_FRAME_HEADER;
    /* Every byte cap holds at least one whole frame, so making room for
     * one always ends. */
    if (lim->transcript_bytes < lim->max_payload + LOBBY_FRAME_HEADER)
        lim->transcript_bytes = lim->max_payload + LOBBY_FRAME_HEADER;
    if (lim->source_bytes < lim->transcript_bytes)
        lim->source_bytes = lim->transcript_bytes;
    if (lim->kept_bytes < lim->source_bytes)
        lim->kept_bytes = lim->source_bytes;
    if (lim->write_queue_total < lim->max_write_queue)
        lim->write_queue_total = lim->max_write_queue;
}

#define ROLE_NONE (-1)

typedef struct Lobby_Room Lobby_Room;

/* A place on one of the sweep's lists, in a member or a room. */
typedef struct Lobby_Sweep_Link {
    struct Lobby_Sweep_Link *prev, *next;
    int on;
} Lobby_Sweep_Link;

/* A max-heap of objects by a size_t field of theirs (key_off), each
 * keeping its place in another (at_off): its key may change, and it may
 * leave, in O(log n) (heap_fix, heap_del). */
typedef struct Lobby_Heap {
    void **v;
    size_t n, cap;
    size_t key_off, at_off;
} Lobby_Heap;

/* A room's public seek: its card as the host signed it, in the node's
 * list of seeks (oldest first). */
typedef struct Lobby_Listed {
    struct Lobby_Listed *prev, *next;
    Lobby_Room *room;
    uint64_t no;    /* its place: the lists' cursor (rs->seek_no) */
    uint64_t since; /* the relay's clock when it was listed (ms since
                       the Unix epoch) */
    uint8_t owner[LOBBY_KEY_BYTES]; /* the player's key: its name's, else
                                       the room's host key */
    char game[LOBBY_SEEK_GAME_MAX + 1];
    size_t len;
    uint8_t card[];
} Lobby_Listed;

/* A kept frame: its FRAME message as sent to members. */
typedef struct Lobby_Entry {
    uint64_t seq;
    int from;
    size_t len; /* bytes of msg */
    uint8_t msg[];
} Lobby_Entry;

struct Lobby_Room {
    uint8_t lookup[2][LOBBY_LOOKUP_BYTES]; /* 0 invite, 1 watch */
    Lobby_Room *hnext[2];
    uint8_t host_pk[LOBBY_KEY_BYTES];
    /* The key the guest seat holds (lobby protocol 4; zero: none): the
     * first guest's proven key, or the one the host named (guest_named:
     * kept when a silent guest leaves). Receipts are signed for it. */
    uint8_t guest_pk[LOBBY_KEY_BYTES];
    int guest_named;
    uint8_t secret[2][LOBBY_SEAT_SECRET_BYTES];
    int claimed[2];
    int spoke[2]; /* the seat has sent a frame: its claim is kept */
    Lobby_Member *seat[2];
    Lobby_Member *spect;
    size_t nspect;
    Lobby_Entry **ring;
    uint32_t ring_cap, ring_head, ring_count;
    size_t ring_bytes;
    uint64_t next_seq;
    int empty;
    uint64_t empty_since;
    Lobby_Source *src;  /* the address that created it */
    int guest_joined;   /* a guest was ever admitted */
    int watch_filed;    /* found by its watch lookup too (on_create) */
    uint64_t host_left; /* when the host seat last emptied (ms) */
    uint64_t had[2];    /* the last frame sent to each seat's member
                           before it left: kept for it while away */
    uint64_t epoch[2];  /* with --redis: the seat's claim number our
                           member holds (redis.c) */
    int sending[2];     /* with --redis: the seat's frames in flight */
    uint8_t maker[LOBBY_SOURCE_KEY]; /* with --redis: the source that
                                        created it (redis.c) */
    uint64_t last_time; /* the room's last receipt time (ms since the
                           epoch): none goes below it */
    int gone[2];          /* in memory: the seat was seen to go ... */
    uint64_t gone_at[2];  /* ... at this receipt time, not back since */
    int has_maker;
    int finished[2];    /* the seat said DONE */
    int released;       /* both did: the room goes sooner, and first */
    int on_gone;        /* released and empty: on the rooms' gone list */
    uint32_t keep_ms;   /* a seat's KEEP (at most keep_room_ms): kept
                           empty this long once a guest came */
    Lobby_Room *gprev, *gnext; /* that list, in order of empty_since */
    Lobby_Sweep_Link due; /* in the list of rooms the sweep visits */
    /* Its public seek (issue 37; in memory: with a store, the store
     * lists it): the host's card, while the host is here and no guest
     * came. NULL: none. */
    struct Lobby_Listed *seek;
    /* The driver's archive of its frames (lobby_rooms_use_archive): its
     * handle (NULL: none yet, or no more), the frame it waits for, and
     * whether it is over for this room (ended, or a frame was missed). */
    /* A rated seek's range (issue 38: its card's rating token), kept
     * from its SEEK on: the ratings a new guest may have in want_game and
     * want_class (0, 0: any). */
    uint16_t want_lo, want_hi;
    char want_game[LOBBY_SEEK_GAME_MAX + 1];
    uint8_t want_class;
    void *arch;
    uint64_t arch_next;  /* the number of the frame it waits for (0:
                            none given yet) */
    unsigned arch_given; /* frames given while it had no handle */
    int arch_over;
    int seek_back; /* its seek went with a guest who gave the seat back
                      before it spoke: the host may put it up again */
    Lobby_Room *prev, *next;
    Lobby_Room *sprev, *snext; /* in its source's room_list */
    size_t heap_at;            /* its place in the rooms' heap */
};

struct Lobby_Member {
    Lobby_Rooms *rs;
    const Lobby_Link_Ops *ops; /* how frames reach it: net/ or WebSocket */
    void *link;                /* the Net_Conn, or http.c's link */
    Lobby_Room *room;
    int role;
    int done; /* answered with an error: ignore what follows */
    int refused_held; /* closed LOBBY_CLOSE_REFUSED: held by its transport */
    int sent; /* sent something since the last beat's turn */
    uint32_t storing_n;    /* its frames on their way to the store, */
    size_t storing;        /* their payload bytes */
    uint64_t since;
    Lobby_Source *src;
    uint64_t refuse_at;    /* a late RATE answer is due then (ms), 0: none */
    uint64_t retry_at;     /* its WATCH waits its address's turn until
                              then (ms), 0: none */
    uint8_t held[LOBBY_LEN_WATCH]; /* that WATCH */
    uint64_t sent_seq;     /* highest frame sent to this member */
    uint64_t acked;        /* highest of its own frames numbered (by
                              the room, or Redis): never sent back */
    uint64_t ack_sent;     /* highest ACK sent to it: an ACK goes out
                              where its frame stands among the others,
                              after every earlier frame, since the
                              client takes it as its place in the
                              room's sequence */
    Lobby_Sweep_Link wait; /* in the list the sweep visits */
    int sought;            /* a host: it sent its SEEK on this
                              connection (one each) */
    int listing;           /* it asked for the seeks (SEEKS): sent in
                              parts as its link drains */
    uint64_t list_after;   /* the seeks up to this number were sent */
    char list_game[LOBBY_SEEK_GAME_MAX + 1]; /* of this game ("": all) */
    uint8_t *snap;         /* with a store: the list's LIST messages as
                              the store gave it, each after its length
                              (u32), snap_at bytes of them sent */
    size_t snap_len, snap_at;
    size_t pinned;         /* what its link's queue pinned when the rooms
                              last looked (write_queue_total) */
    size_t pin_at;         /* its place in the members' heap */
    struct Lobby_Pooled *pooled; /* its offer waiting in the pool (POOL;
                                    NULL: none) */
    int unpinned;          /* dropped: its queue goes, counted no more */
    Lobby_Member *prev, *next;   /* all members */
    Lobby_Member *sprev, *snext; /* a room's spectators */
};

struct Lobby_Rooms {
    Lobby_Limits lim;
    const Lobby_Archive_Ops *arch_ops; /* lobby_rooms_use_archive; NULL */
    Lobby_Ratings *ratings; /* lobby_rooms_use_ratings; NULL: none */
    void *arch;
    Lobby_Room **buckets[2]; /* invite lookups, watch lookups */
    size_t nbuckets;
    Lobby_Room *rooms;
    size_t nrooms;
    Lobby_Member *members;
    size_t nmembers;
    Lobby_Sweep_Link *waiting; /* members before their hello, or owed a
                                  late answer */
    Lobby_Sweep_Link *due;     /* rooms empty, or without host and never
                                  joined */
    Lobby_Room *gone, *gone_tail; /* finished rooms now empty, the one that
                                     emptied first first (drop_finished) */
    size_t nlinks;             /* members on a counted transport (WebSocket) */
    size_t nconns;             /* members on every transport, and holds */
    size_t nholds;             /* connections held, not members */
    size_t nrefused_held;      /* members refused and held (room.h) */
    uint64_t beat_at;          /* the next turn of beats (ms) */
    size_t storing;            /* payload bytes on their way to the store */
    size_t transcript_bytes;
    Lobby_Heap by_bytes;       /* every room, by ring_bytes */
    Lobby_Heap by_pin;         /* every member, by pinned */
    size_t pinned;             /* the members' pinned, all together */
    Lobby_Sources sources;
    uint64_t global_tat;
    uint64_t data_tat;         /* the node's frame bucket (us) */
    Lobby_Stats stats;
    Lobby_Listed *seeks, *seeks_tail; /* the open seeks, oldest first */
    size_t nseeks;
    uint64_t seek_no; /* the last number a seek was given */
    Pool *pool;       /* the offers waiting (POOL; NULL: none came yet) */
    struct Lobby_Pooled *pooled; /* their members, oldest first */
    uint64_t pool_no; /* the last id an offer was given */
    uint32_t pool_heard[POOL_GAMES_MAX]; /* with a store: the lobby's
                                            counts, as last heard */
    const Lobby_Store_Ops *store_ops; /* NULL: rooms live here only */
    void *store;
    Proto_Identity key; /* the node's receipt key (lobby_rooms_use_witness) */
    int keyed;          /* 0: none yet; receipts carry zeros */
    uint64_t (*wall_ms)(void *user); /* the receipt clock (NULL: 0) */
    void *wall_user;
};

/* ---- rooms and lookups ---- */

static size_t bucket_of(const Lobby_Rooms *rs, const uint8_t *lookup)
{
    uint64_t h = 0;
    for (int i = 0; i < 8; i++)
        h = h << 8 | lookup[i];
    return (size_t)(h & (rs->nbuckets - 1));
}

/* The room filed under lookup, and which of its two keys matched (one
 * table per kind of key, each chained through hnext[kind]). */
static Lobby_Room *room_find(const Lobby_Rooms *rs, const uint8_t *lookup,
                             int *kind)
{
    size_t b = bucket_of(rs, lookup);
    for (int k = 0; k < 2; k++)
        for (Lobby_Room *r = rs->buckets[k][b]; r != NULL; r = r->hnext[k])
            if (lobby__equal(r->lookup[k], lookup, LOBBY_LOOKUP_BYTES)) {
                *kind = k;
                return r;
            }
    return NULL;
}

static void room_file(Lobby_Rooms *rs, Lobby_Room *r)
{
    for (int k = 0; k < 1 + r->watch_filed; k++) {
        size_t b = bucket_of(rs, r->lookup[k]);
        r->hnext[k] = rs->buckets[k][b];
        rs->buckets[k][b] = r;
    }
}

static void room_unfile(Lobby_Rooms *rs, Lobby_Room *r)
{
    for (int k = 0; k < 1 + r->watch_filed; k++) {
        Lobby_Room **pp = &rs->buckets[k][bucket_of(rs, r->lookup[k])];
        while (*pp != NULL && *pp != r)
            pp = &(*pp)->hnext[k];
        if (*pp == r)
            *pp = r->hnext[k];
    }
}

/* ---- the rooms by the bytes they keep ----
 * A max-heap of every room by ring_bytes, and each source's list of its
 * rooms: the room that gives up frames when the node or an address is at
 * its byte cap is found without a walk over every room (a walk per frame
 * cost the relay 65 % of its time under the abuse bench's `slow` attack
 * from 100 addresses: docs/benchmarks.md). The members by what their
 * write queues pin are such a heap too (member_put). */

static size_t heap_key(const Lobby_Heap *h, const void *o)
{
    return *(const size_t *)(const void *)((const char *)o + h->key_off);
}

static size_t *heap_place(const Lobby_Heap *h, void *o)
{
    return (size_t *)(void *)((char *)o + h->at_off);
}

static void heap_set(Lobby_Heap *h, size_t i, void *o)
{
    h->v[i] = o;
    *heap_place(h, o) = i;
}

static void heap_up(Lobby_Heap *h, size_t i)
{
    void *o = h->v[i];
    while (i > 0 && heap_key(h, h->v[(i - 1) / 2]) < heap_key(h, o)) {
        heap_set(h, i, h->v[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    heap_set(h, i, o);
}

static void heap_down(Lobby_Heap *h, size_t i)
{
    void *o = h->v[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && heap_key(h, h->v[c + 1]) > heap_key(h, h->v[c]))
            c++;
        if (heap_key(h, h->v[c]) <= heap_key(h, o))
            break;
        heap_set(h, i, h->v[c]);
        i = c;
    }
    heap_set(h, i, o);
}

/* o's key changed: back to its place. */
static void heap_fix(Lobby_Heap *h, void *o)
{
    heap_up(h, *heap_place(h, o));
    heap_down(h, *heap_place(h, o));
}

/* Room in h for one more. TB_E_NOMEM: none. */
static int heap_reserve(Lobby_Heap *h)
{
    if (h->n < h->cap)
        return 0;
    size_t cap = h->cap ? h->cap * 2 : 64;
    void **v = realloc(h->v, cap * sizeof *v);
    if (v == NULL)
        return TB_E_NOMEM;
    h->v = v;
    h->cap = cap;
    return 0;
}

/* o into h (heap_reserve done). */
static void heap_add(Lobby_Heap *h, void *o)
{
    heap_set(h, h->n++, o);
    heap_up(h, h->n - 1);
}

static void heap_del(Lobby_Heap *h, void *o)
{
    void *last = h->v[--h->n];
    if (last != o) {
        heap_set(h, *heap_place(h, o), last);
        heap_fix(h, last);
    }
}

/* The object with the largest key (NULL: none). */
static void *heap_top(const Lobby_Heap *h)
{
    return h->n > 0 ? h->v[0] : NULL;
}

/* r, new (heap_reserve done), in the heap and in its source's list. */
static void bytes_file(Lobby_Rooms *rs, Lobby_Room *r)
{
    heap_add(&rs->by_bytes, r);
    r->sprev = NULL;
    r->snext = r->src->room_list;
    if (r->snext != NULL)
        r->snext->sprev = r;
    r->src->room_list = r;
}

static void bytes_unfile(Lobby_Rooms *rs, Lobby_Room *r)
{
    heap_del(&rs->by_bytes, r);
    if (r->sprev != NULL)
        r->sprev->snext = r->snext;
    else
        r->src->room_list = r->snext;
    if (r->snext != NULL)
        r->snext->sprev = r->sprev;
}

static void seek_drop(Lobby_Rooms *rs, Lobby_Room *r);

static void archive_end(Lobby_Rooms *rs, Lobby_Room *r, int whole);

static void room_free(Lobby_Rooms *rs, Lobby_Room *r)
{
    archive_end(rs, r, 1);
    seek_drop(rs, r);
    bytes_unfile(rs, r);
    for (uint32_t i = 0; i < r->ring_count; i++)
        free(r->ring[(r->ring_head + i) % r->ring_cap]);
    rs->transcript_bytes -= r->ring_bytes;
    r->src->bytes -= r->ring_bytes;
    r->src->rooms--; /* (a finished room counts until it goes: its source
                        lives while it points at it) */
    free(r->ring);
    free(r);
}

/* ---- what the sweep visits ---- */

/* Into a sweep list (nothing if on it already). Every room that is empty,
 * or has no host and never had a guest, is on the rooms' list; every
 * member without a room that has not been answered, or owed a late
 * answer, is on the members' list. They may hold others for a while: the
 * sweep takes those off. */
static void sweep_add(Lobby_Sweep_Link **head, Lobby_Sweep_Link *l)
{
    if (l->on)
        return;
    l->on = 1;
    l->prev = NULL;
    l->next = *head;
    if (*head != NULL)
        (*head)->prev = l;
    *head = l;
}

static void sweep_del(Lobby_Sweep_Link **head, Lobby_Sweep_Link *l)
{
    if (!l->on)
        return;
    l->on = 0;
    if (l->prev != NULL)
        l->prev->next = l->next;
    else
        *head = l->next;
    if (l->next != NULL)
        l->next->prev = l->prev;
}

#define SWEEP_OWNER(l, type, field)                                            \
    ((type *)(void *)((char *)(l)-offsetof(type, field)))

static void room_due_add(Lobby_Rooms *rs, Lobby_Room *r)
{
    sweep_add(&rs->due, &r->due);
}

static void member_wait_add(Lobby_Rooms *rs, Lobby_Member *m)
{
    sweep_add(&rs->waiting, &m->wait);
}

/* Onto or off the gone list: a room is on it while it is released and
 * empty, in order of empty_since (a room joins as it empties or is
 * released, so it nearly always goes last). Its source counts it. */
static void gone_update(Lobby_Rooms *rs, Lobby_Room *r)
{
    int want = r->released && r->empty;
    if (want == r->on_gone)
        return;
    r->on_gone = want;
    if (want) {
        Lobby_Room *after = rs->gone_tail;
        while (after != NULL && after->empty_since > r->empty_since)
            after = after->gprev;
        r->gprev = after;
        r->gnext = after != NULL ? after->gnext : rs->gone;
        if (r->gnext != NULL)
            r->gnext->gprev = r;
        else
            rs->gone_tail = r;
        if (after != NULL)
            after->gnext = r;
        else
            rs->gone = r;
        r->src->gone++;
    } else {
        if (r->gprev != NULL)
            r->gprev->gnext = r->gnext;
        else
            rs->gone = r->gnext;
        if (r->gnext != NULL)
            r->gnext->gprev = r->gprev;
        else
            rs->gone_tail = r->gprev;
        r->gprev = r->gnext = NULL;
        r->src->gone--;
    }
}

static void room_drop(Lobby_Rooms *rs, Lobby_Room *r)
{
    r->released = 0;
    gone_update(rs, r);
    sweep_del(&rs->due, &r->due);
    if (rs->store_ops != NULL)
        rs->store_ops->unwatch(rs->store, r->lookup[0]);
    room_unfile(rs, r);
    if (r->prev != NULL)
        r->prev->next = r->next;
    else
        rs->rooms = r->next;
    if (r->next != NULL)
        r->next->prev = r->prev;
    rs->nrooms--;
    room_free(rs, r);
}

/* At an address's room share (src) or the node's room cap (src NULL):
 * the finished room (both seats said DONE) of src (of any) that emptied
 * first goes, so finished games hold no share a new game needs. 1 if one
 * went. */
static int drop_finished(Lobby_Rooms *rs, const Lobby_Source *src)
{
    if (src != NULL && src->gone == 0)
        return 0; /* (the common refusal costs no walk) */
    Lobby_Room *r = rs->gone;
    while (r != NULL && src != NULL && r->src != src)
        r = r->gnext;
    if (r == NULL)
        return 0;
    room_drop(rs, r);
    return 1;
}

static uint64_t room_first_seq(const Lobby_Room *r)
{
    return r->ring_count ? r->ring[r->ring_head]->seq : 0;
}

static void room_update_empty(Lobby_Rooms *rs, Lobby_Room *r, uint64_t now)
{
    int empty = r->seat[0] == NULL && r->seat[1] == NULL && r->spect == NULL;
    if (empty && !r->empty)
        r->empty_since = now;
    r->empty = empty;
    gone_update(rs, r);
    if (empty)
        room_due_add(rs, r);
}

/* ---- what the members' write queues pin ----
 * Each link bounds its own queue (max_write_queue); the node's total
 * (write_queue_total) is the sum of what each member's queue pinned when
 * the rooms last looked: after each send, and when it drained. A queue
 * only shrinks in between (its transport writes), so the sum is never
 * below what is really pinned; past the total the member at the top of
 * the heap is asked again (it may have been written in part since) and,
 * if it still pins the most, dropped as a slow reader. Each look that
 * lowers a member was paid for by a write since the last one, so the
 * work stays a few heap steps per message, never a walk over every
 * member (stalled spectators pin about half of max_write_queue each:
 * 10 GB at 20,000 connections without the total). */

static void pin_set(Lobby_Member *m, size_t v)
{
    Lobby_Rooms *rs = m->rs;
    if (v == m->pinned)
        return;
    rs->pinned = rs->pinned - m->pinned + v;
    m->pinned = v;
    heap_fix(&rs->by_pin, m);
}

/* m's queue goes (dropped, or its link is gone): counted no more. */
static void pin_gone(Lobby_Member *m)
{
    pin_set(m, 0);
    m->unpinned = 1;
}

/* Close m at once, what its link had queued dropped unwritten. */
static void member_drop(Lobby_Member *m, int reason)
{
    m->ops->close(m->link, 0, reason);
    pin_gone(m);
}

/* m reads too slowly: dropped (counted once, when it was not closing
 * already). */
static void member_slow(Lobby_Member *m)
{
    if (!m->ops->is_closing(m->link))
        m->rs->stats.dropped_slow++;
    member_drop(m, LOBBY_CLOSE_SLOW);
}

/* Over the node's total: drop the members that pin the most until it is
 * met (a member that keeps up pins next to nothing, so it never goes
 * before one that stalls). */
static void pin_check(Lobby_Rooms *rs)
{
    while (rs->pinned > rs->lim.write_queue_total) {
        Lobby_Member *m = heap_top(&rs->by_pin);
        size_t now = m->ops->queued(m->link);
        if (now != m->pinned)
            pin_set(m, now); /* written in part since: look again */
        else
            member_slow(m);
    }
}

/* Look at what m's queue pins now. */
static void pin_seen(Lobby_Member *m)
{
    if (m->unpinned)
        return;
    pin_set(m, m->ops->queued(m->link));
    if (m->rs->pinned > m->rs->lim.write_queue_total)
        pin_check(m->rs);
}

/* Queue msg to m's link and count what its queue pins then. Nonzero: not
 * sent (m is closing, or its link failed and closes itself). */
static int member_put(Lobby_Member *m, const uint8_t *msg, size_t len)
{
    if (m->ops->is_closing(m->link))
        return TB_E_STATE;
    int rc = m->ops->send(m->link, msg, len);
    if (rc == 0)
        m->rs->stats.bytes_out += len;
    pin_seen(m);
    return rc;
}

static void member_send(Lobby_Member *m, const uint8_t *msg, size_t len)
{
    if (m->done)
        return;
    m->sent = 1;
    (void)member_put(m, msg, len); /* a failure closes the member */
}

/* ---- receipts ---- */

/* The room's receipt clock now: the driver's wall clock, never below the
 * room's last reading (a clock set back must not run a seat's time
 * back). With a store the times are Redis's (its own room clock): never
 * asked here. */
static uint64_t room_clock(Lobby_Rooms *rs, Lobby_Room *r)
{
    uint64_t t = rs->wall_ms != NULL ? rs->wall_ms(rs->wall_user) : 0;
    if (t < r->last_time)
        t = r->last_time;
    r->last_time = t;
    return t;
}

/* Sign rc (kind, seq, time and, for PRESENCE, seat and present filled)
 * for room r with the node's key; hash: the payload's (FRAME). Unsigned
 * (zero key and signature, which verify as nothing) without a key. */
static void receipt_sign(const Lobby_Rooms *rs, const Lobby_Room *r,
                         Proto_Receipt *rc, const uint8_t *hash)
{
    memcpy(rc->guest, r->guest_pk, LOBBY_KEY_BYTES);
    if (!rs->keyed || proto_receipt_sign(rc, r->host_pk, hash, &rs->key) != 0) {
        memset(rc->relay, 0, sizeof rc->relay);
        memset(rc->sig, 0, sizeof rc->sig);
    }
}

/* In memory: how long each seat of r had been gone at receipt time t
 * (ms; 0 present, or seen and never gone; PROTO_ABSENT_NEVER: never
 * seated in r), what a frame's receipt attests (G-MC-9w, G-MC-7w).
 * Capped one below it. */
static void room_absences(const Lobby_Room *r, uint64_t t, uint32_t out[2])
{
    for (int s = 0; s < 2; s++) {
        uint64_t d = r->gone[s] && t > r->gone_at[s] ? t - r->gone_at[s] : 0;
        out[s] = d >= PROTO_ABSENT_NEVER ? PROTO_ABSENT_NEVER - 1 : (uint32_t)d;
    }
    /* (the host's seat is seated by its CREATE; a guest's by its JOIN) */
    if (!r->guest_joined)
        out[1] = PROTO_ABSENT_NEVER;
}

/* A kept frame of seat from numbered seq at time t (ms), with the seats'
 * absences then (ms), payload data[n], as its FRAME message with the
 * node's receipt: signed once here, sent to every member as is. NULL:
 * out of memory. */
static Lobby_Entry *entry_new(const Lobby_Rooms *rs, const Lobby_Room *r,
                              uint64_t seq, int from, uint64_t t,
                              const uint32_t absent[2], const uint8_t *data,
                              size_t n, Proto_Receipt *receipt)
{
    Lobby_Entry *e = malloc(sizeof *e + LOBBY_FRAME_HEADER + n);
    Proto_Receipt rc;
    uint8_t hash[PROTO_HASH_BYTES];

    if (e == NULL)
        return NULL;
    memset(&rc, 0, sizeof rc);
    rc.kind = PROTO_RECEIPT_FRAME;
    rc.seq = seq;
    rc.time_ms = t;
    rc.absent_ms[0] = absent[0];
    rc.absent_ms[1] = absent[1];
    if (proto_receipt_hash(data, n, hash) != 0)
        memset(hash, 0, sizeof hash); /* (the signature then verifies as
                                         nothing) */
    receipt_sign(rs, r, &rc, hash);
    e->seq = seq;
    e->from = from;
    e->len = LOBBY_FRAME_HEADER + n;
    lobby_wire_frame_header(e->msg, from, &rc);
    memcpy(e->msg + LOBBY_FRAME_HEADER, data, n);
    *receipt = rc;
    return e;
}

/* Frames of a room among which its match start must be, for the archive
 * to keep it. */
#define LOBBY_ARCHIVE_START_BY 4

/* No more of r's frames go to the archive (whole: 0 when one was
 * missed). */
static void archive_end(Lobby_Rooms *rs, Lobby_Room *r, int whole)
{
    if (r->arch != NULL)
        rs->arch_ops->end(rs->arch, r->arch, whole);
    r->arch = NULL;
    r->arch_over = 1;
}

/* Frame seq of r, numbered and kept, to the archive: every frame from
 * the room's first in order, until one is missed (a copy that joined late, or
 * lost frames, has no whole transcript to give). */
static void archive_frame(Lobby_Rooms *rs, Lobby_Room *r, uint64_t seq,
                          const Proto_Receipt *rc, const uint8_t *data,
                          size_t n)
{
    if (rs->arch_ops == NULL || r->arch_over)
        return;
    if (r->arch_next != 0 && seq != r->arch_next) { /* (numbers from 1) */
        archive_end(rs, r, 0);
        return;
    }
    rs->arch_ops->frame(rs->arch, &r->arch, r->host_pk, rc, data, n);
    r->arch_next = seq + 1;
    /* No match start among the first frames (a guest's HELLO may come
     * before it; a room made again after a restart goes on mid-game):
     * the archive keeps nothing of this room. */
    if (r->arch == NULL && ++r->arch_given >= LOBBY_ARCHIVE_START_BY)
        r->arch_over = 1;
}

/* Every LOBBY_WIRE_BEAT_MS, a BEAT to each member in a room that was sent
 * nothing since the last turn (and has nothing waiting to be written):
 * so a member hears from a live relay at least every two turns, and
 * takes LOBBY_WIRE_SILENT_MS of silence for a hung one. */
static void beat(Lobby_Rooms *rs, uint64_t now)
{
    static const uint8_t msg[LOBBY_LEN_BEAT] = {LOBBY_MSG_BEAT};
    if (now < rs->beat_at)
        return;
    rs->beat_at = now + LOBBY_WIRE_BEAT_MS;
    for (Lobby_Member *m = rs->members; m != NULL; m = m->next) {
        if (m->room != NULL && !m->sent && m->ops->queued(m->link) == 0)
            member_send(m, msg, sizeof msg);
        m->sent = 0;
    }
}

/* m is over its address's connection share or the node's total (or has
 * no address record): it must not be held once answered. */
static int member_over(const Lobby_Member *m)
{
    const Lobby_Rooms *rs = m->rs;
    return m->src == NULL ||
           m->src->conns > (uint64_t)rs->lim.source_conns * m->src->factor ||
           rs->nconns > rs->lim.max_conns;
}

_Static_assert(LOBBY_ERR_FLOOD + 1 == LOBBY_REFUSAL_CODES,
               "room.h's refusal counters hold every ERROR code");

static void member_error(Lobby_Member *m, int code)
{
    uint8_t msg[LOBBY_LEN_ERROR] = {LOBBY_MSG_ERROR, (uint8_t)code};
    if (m->done)
        return;
    member_send(m, msg, sizeof msg);
    m->done = 1;
    if (code > 0 && code < LOBBY_REFUSAL_CODES)
        m->rs->stats.refusals[code]++;
    if (code == LOBBY_ERR_PROTOCOL || code == LOBBY_ERR_VERSION ||
        code == LOBBY_ERR_TOO_BIG || code == LOBBY_ERR_NOT_ALLOWED)
        m->rs->stats.protocol_errors++;
    /* Held a while only when it is in no room (a seat's leaving is news
     * to the room at once), within its shares, and while the held are
     * few: LOBBY_REFUSED_HOLD_SOURCE of an address, a quarter of the
     * node's connections in all (a trial filled the node's total from a
     * few hundred addresses that closed their own ends at once). */
    m->refused_held =
        m->room == NULL && !member_over(m) &&
        m->src->refused_held < LOBBY_REFUSED_HOLD_SOURCE * m->src->factor &&
        m->rs->nrefused_held < m->rs->lim.max_conns / 4;
    if (m->refused_held) {
        m->src->refused_held++;
        m->rs->nrefused_held++;
    }
    m->ops->close(m->link, 1,
                  m->refused_held ? LOBBY_CLOSE_REFUSED : LOBBY_CLOSE_ANSWERED);
}

/* Acknowledge m's own frame with its receipt rc (the one its FRAME
 * carries to the others). */
static void member_ack(Lobby_Member *m, const Proto_Receipt *rc)
{
    uint8_t ack[LOBBY_WIRE_ACK_LEN];
    member_send(m, ack, lobby_wire_ack(ack, rc));
    m->ack_sent = rc->seq;
}

/* Acknowledge m's own kept frame e. */
static void member_ack_entry(Lobby_Member *m, const Lobby_Entry *e)
{
    Proto_Receipt rc;
    lobby_wire_frame_receipt(e->msg, &rc);
    member_ack(m, &rc);
}

/* Send m the frames it has not had yet while its queue has room; its own
 * frames are answered by an ACK in their place. With --redis the number
 * of a player's frame (lobby__acked) and the frame itself (from the room's
 * channel) come over different connections in either order: the ACK waits
 * until both are here and every earlier frame has gone (seen in a test:
 * an ACK sent ahead of the opponent's frame before it made the client
 * skip that frame). */
static void member_pump(Lobby_Member *m)
{
    Lobby_Room *r = m->room;
    size_t half = m->rs->lim.max_write_queue / 2;
    uint64_t first;
    int other = 0; /* the other seat's frames were sent */

    if (r == NULL || m->done || m->ops->is_closing(m->link) ||
        r->ring_count == 0)
        return;
    first = room_first_seq(r);
    if (m->sent_seq + 1 < first)
        m->sent_seq = first - 1;
    while (m->sent_seq + 1 < r->next_seq && m->ops->queued(m->link) < half) {
        Lobby_Entry *e =
            r->ring[(r->ring_head + (m->sent_seq + 1 - first)) % r->ring_cap];
        if (e->from != m->role) {
            if (member_put(m, e->msg, e->len) != 0)
                break;
            other = 1;
        } else if (e->seq <= m->acked) {
            if (e->seq > m->ack_sent)
                member_ack_entry(m, e);
        } else if (r->sending[m->role] > 0) {
            break; /* its own, numbered by Redis, the number not back yet */
        } else if (member_put(m, e->msg, e->len) != 0) {
            break; /* a frame of the seat's earlier connection */
        }
        m->sent_seq = e->seq;
    }
    /* With Redis the room's FLOOD rule needs what each seat has had. */
    if (other && m->rs->store_ops != NULL && m->role != LOBBY_ROLE_SPECTATOR)
        m->rs->store_ops->had(m->rs->store, r->lookup[0], m->role,
                              r->epoch[m->role], m->sent_seq);
}

/* Seat came (present 1) or went (0) after the room's frame seq, at time
 * t (ms): the other seat and the spectators are told, with the node's
 * receipt (signed once for them all). */
static void room_presence_at(Lobby_Rooms *rs, Lobby_Room *r, int seat,
                             int present, uint64_t seq, uint64_t t)
{
    uint8_t msg[LOBBY_WIRE_PRESENCE_LEN];
    Proto_Receipt rc;
    if (r->seat[1 - seat] == NULL && r->spect == NULL)
        return; /* nobody here to tell: nothing to sign */
    memset(&rc, 0, sizeof rc);
    rc.kind = PROTO_RECEIPT_PRESENCE;
    rc.seq = seq;
    rc.time_ms = t;
    rc.seat = (uint8_t)seat;
    rc.present = (uint8_t)(present != 0);
    receipt_sign(rs, r, &rc, NULL);
    lobby_wire_presence(msg, &rc);
    if (r->seat[1 - seat] != NULL)
        member_send(r->seat[1 - seat], msg, sizeof msg);
    for (Lobby_Member *s = r->spect; s != NULL; s = s->snext)
        member_send(s, msg, sizeof msg);
}

/* As room_presence_at, in memory: after the room's last number, now on
 * its receipt clock. */
static void room_presence(Lobby_Rooms *rs, Lobby_Room *r, int seat, int present)
{
    uint64_t t = room_clock(rs, r);
    room_presence_at(rs, r, seat, present,
                     r->next_seq > 0 ? r->next_seq - 1 : 0, t);
}

/* Remove m from its room (its connection is going, or was replaced). */
static void member_leave(Lobby_Member *m, uint64_t now)
{
    Lobby_Room *r = m->room;
    if (r == NULL)
        return;
    if (m->role == LOBBY_ROLE_SPECTATOR) {
        if (m->sprev != NULL)
            m->sprev->snext = m->snext;
        else
            r->spect = m->snext;
        if (m->snext != NULL)
            m->snext->sprev = m->sprev;
        r->nspect--;
    } else if (m->role >= 0 && r->seat[m->role] == m) {
        r->seat[m->role] = NULL;
        r->had[m->role] = m->sent_seq;
        if (m->role == LOBBY_ROLE_HOST) {
            r->host_left = now;
            seek_drop(m->rs, r); /* a seek goes with its owner */
        }
        /* A guest that leaves before sending anything gives the seat
         * back: a joiner whose code's host fingerprint did not match (a
         * typo in the last group) closes at once and must not keep the
         * seat from the right joiner. */
        if (m->role == LOBBY_ROLE_GUEST && !r->spoke[LOBBY_ROLE_GUEST]) {
            r->claimed[LOBBY_ROLE_GUEST] = 0;
            r->seek_back = 1;
            if (!r->guest_named) /* and its key: the next joiner's */
                memset(r->guest_pk, 0, LOBBY_KEY_BYTES);
        }
        if (m->rs->store_ops == NULL) { /* else it comes back from Redis */
            r->gone[m->role] = 1;
            r->gone_at[m->role] = room_clock(m->rs, r);
            room_presence(m->rs, r, m->role, 0);
        }
    }
    m->room = NULL;
    m->role = ROLE_NONE;
    m->rs->nmembers--;
    member_wait_add(m->rs, m);
    room_due_add(m->rs, r);
    room_update_empty(m->rs, r, now);
}

/* presence: WELCOME's presence bits and rtime its receipt clock (from
 * the store), or -1 for those of this room here (rtime unused: the
 * room's clock). */
static void admit(Lobby_Member *m, Lobby_Room *r, int role, uint64_t from_seq,
                  int presence, uint64_t rtime, uint64_t now)
{
    Lobby_Rooms *rs = m->rs;
    uint8_t w[LOBBY_LEN_WELCOME];

    if (role != LOBBY_ROLE_SPECTATOR && r->seat[role] != NULL) {
        /* The seat's secret came back on a new connection: the old one is
         * half-open or stale. */
        Lobby_Member *old = r->seat[role];
        member_leave(old, now);
        member_error(old, LOBBY_ERR_REPLACED);
        /* The seat goes to its secret's new connection: a guest that had
         * not spoken yet keeps its claim too (member_leave gives back the
         * claim of one that leaves; a stranger with the code took the
         * seat in between, in a trial). */
        r->claimed[role] = 1;
    }
    m->room = r;
    m->role = role;
    rs->nmembers++;
    if (role == LOBBY_ROLE_SPECTATOR) {
        m->snext = r->spect;
        m->sprev = NULL;
        if (r->spect != NULL)
            r->spect->sprev = m;
        r->spect = m;
        r->nspect++;
    } else {
        r->seat[role] = m;
        if (role == LOBBY_ROLE_GUEST) {
            r->guest_joined = 1;
            seek_drop(rs, r); /* taken */
        }
    }
    room_update_empty(rs, r, now);
    if (presence < 0)
        rtime = room_clock(rs, r);
    else if (rtime > r->last_time)
        r->last_time = rtime;
    lobby_wire_welcome(w, role, r->host_pk, room_first_seq(r), r->next_seq,
                       presence >= 0 ? (unsigned)presence
                                     : (unsigned)((r->seat[0] != NULL) |
                                                  (r->seat[1] != NULL) << 1),
                       rs->key.pk, rtime, r->guest_pk);
    member_send(m, w, sizeof w);
    m->sent_seq = from_seq < r->next_seq ? from_seq : r->next_seq - 1;
    member_pump(m);
    if (role != LOBBY_ROLE_SPECTATOR && presence < 0) {
        r->gone[role] = 0;
        room_presence(rs, r, role, 1);
    }
}

/* ---- the guess limit ---- */

/*
 * A lookup matched nothing: a wrong code. Under the limit it is counted
 * and answered CODE at once. Over it (this address's bucket or the whole
 * lobby's), it is answered RATE after rate_delay_ms: the guesser keeps a
 * connection of its address's share busy meanwhile, which bounds its
 * guesses to source_conns per delay (and the lobby's to max_conns per
 * delay), while a right code is always looked up and admitted.
 */
static void wrong_code(Lobby_Rooms *rs, Lobby_Member *m, uint64_t now_ms)
{
    uint64_t now = now_ms * 1000;
    int limited = lobby__guess_limited(m->src, rs->global_tat, &rs->lim, now);

    if (!limited)
        lobby__guess_count(m->src, &rs->global_tat, &rs->lim, now);
    lobby__guess_answer(m, limited, now_ms);
}

void lobby__guess_answer(Lobby_Member *m, int limited, uint64_t now)
{
    Lobby_Rooms *rs = m->rs;
    if (limited) {
        rs->stats.rate_limited++;
        m->refuse_at = now + rs->lim.rate_delay_ms;
        m->done = 1; /* nothing it says now is read */
        member_wait_add(rs, m);
        return;
    }
    rs->stats.bad_codes++;
    member_error(m, LOBBY_ERR_CODE);
}

/* ---- public seeks (issue 37) ---- */

/* The room's seek off the list (none: nothing). */
static void seek_drop(Lobby_Rooms *rs, Lobby_Room *r)
{
    Lobby_Listed *l = r->seek;
    if (l == NULL)
        return;
    if (l->prev != NULL)
        l->prev->next = l->next;
    else
        rs->seeks = l->next;
    if (l->next != NULL)
        l->next->prev = l->prev;
    else
        rs->seeks_tail = l->prev;
    rs->nseeks--;
    r->src->seeks--;
    r->seek = NULL;
    free(l);
}

/* Open seeks of the player of key pk (Lobby_Listed.owner). */
static uint32_t key_seeks(const Lobby_Rooms *rs, const uint8_t *pk)
{
    uint32_t n = 0;
    for (const Lobby_Listed *l = rs->seeks; l != NULL; l = l->next)
        n += memcmp(l->owner, pk, LOBBY_KEY_BYTES) == 0;
    return n;
}

/* The key a seek counts against: its player's (the name record's: the
 * same for every game of the player), else the game's host key. */
static const uint8_t *seek_owner(const Lobby_Seek *s)
{
    return s->named ? s->who.pk : s->host_pk;
}

/* List card[0..len) (read as s) as the seek of room r: 0, or the
 * LOBBY_ERR_* code of the SEEKED that refuses it. A room already listed
 * keeps its place and its since. */
static int seek_file(Lobby_Rooms *rs, Lobby_Room *r, const uint8_t *card,
                     size_t len, const Lobby_Seek *s)
{
    static const uint8_t none[LOBBY_KEY_BYTES];
    Lobby_Listed *l;

    /* (a guest that gave the seat back before it spoke holds it no more:
     * its key went with it, here and in Redis) */
    if (r->claimed[LOBBY_ROLE_GUEST] ||
        memcmp(r->guest_pk, none, LOBBY_KEY_BYTES) != 0)
        return LOBBY_ERR_SEAT;
    if (r->seek == NULL && rs->store_ops == NULL) { /* (else the store's) */
        if (rs->nseeks >= rs->lim.max_seeks)
            return LOBBY_ERR_FULL;
        if (r->src->seeks >= (uint64_t)rs->lim.source_seeks * r->src->factor ||
            key_seeks(rs, seek_owner(s)) >= rs->lim.key_seeks)
            return LOBBY_ERR_SEEKS;
    }
    if ((l = calloc(1, sizeof *l + len)) == NULL)
        return LOBBY_ERR_FULL;
    l->room = r;
    memcpy(l->owner, seek_owner(s), LOBBY_KEY_BYTES);
    memcpy(l->game, s->game, sizeof l->game);
    l->len = len;
    memcpy(l->card, card, len);
    if (r->seek != NULL) { /* (the same room's new card, in its place) */
        Lobby_Listed *o = r->seek;
        l->no = o->no;
        l->since = o->since;
        l->prev = o->prev;
        l->next = o->next;
        if (o->prev != NULL)
            o->prev->next = l;
        else
            rs->seeks = l;
        if (o->next != NULL)
            o->next->prev = l;
        else
            rs->seeks_tail = l;
        free(o);
        r->seek = l;
        return 0;
    }
    l->no = ++rs->seek_no;
    l->since = rs->wall_ms != NULL ? rs->wall_ms(rs->wall_user) : 0;
    l->prev = rs->seeks_tail;
    if (rs->seeks_tail != NULL)
        rs->seeks_tail->next = l;
    else
        rs->seeks = l;
    rs->seeks_tail = l;
    rs->nseeks++;
    r->src->seeks++;
    r->seek = l;
    return 0;
}

/* A turn of m's address's list budget (LOBBY_LIST_BURST, one more each
 * LOBBY_LIST_REFILL_MS): 0, or 1 when none is left. */
static int list_turn(Lobby_Member *m, uint64_t now)
{
    return lobby__bucket_take(&m->src->list_tat, now * 1000,
                              LOBBY_LIST_REFILL_MS * 1000ull,
                              (uint64_t)LOBBY_LIST_BURST * m->src->factor,
                              NULL);
}

/* A host's SEEK: its room on the list. A card that is not the room's
 * (another key, another code, a bad signature) is a forgery: PROTOCOL. */
/* A rated seek's range, game and class into r from its card s: 0, or
 * TB_E_OPTION for a rating or clock token written wrong. */
static int rated_seek(Lobby_Room *r, const Lobby_Seek *s)
{
    Proto_Clock clock;
    char rest[PROTO_OPTIONS_MAX + 1];
    uint16_t lo, hi;
    int rc = proto_options_rating(s->options, &lo, &hi);
    if (rc <= 0)
        return rc;
    if (proto_clock_split(s->options, &clock, rest, sizeof rest) != 0)
        return TB_E_OPTION;
    r->want_lo = lo;
    r->want_hi = hi;
    memcpy(r->want_game, s->game, sizeof r->want_game);
    r->want_game[sizeof r->want_game - 1] = '\0';
    r->want_class = (uint8_t)proto_clock_class(&clock);
    return 0;
}

/* 1 when a new guest of key may take r's seat by its seek's range. */
static int rating_fits(const Lobby_Rooms *rs, const Lobby_Room *r,
                       const uint8_t key[LOBBY_KEY_BYTES])
{
    unsigned rating;
    if (r->want_hi == 0)
        return 1;
    rating = lobby__rating_of(rs->ratings, key, r->want_game, r->want_class);
    return r->want_lo <= rating && rating <= r->want_hi;
}

static void on_seek(Lobby_Rooms *rs, Lobby_Member *m, const uint8_t *p,
                    size_t len)
{
    Lobby_Room *r = m->room;
    Lobby_Seek s;
    uint8_t ans[LOBBY_LEN_SEEKED] = {LOBBY_MSG_SEEKED, 0};

    /* (again on one connection only after a guest gave the seat back,
     * once each time: each costs three signatures' checks, and a joiner
     * who only looks cannot end a seek) */
    if (r == NULL || m->role != LOBBY_ROLE_HOST ||
        (m->sought && (r->seek != NULL || !r->seek_back))) {
        member_error(m, LOBBY_ERR_NOT_ALLOWED);
        return;
    }
    if (lobby_seek_card_read(p + 1, len - 1, &s) != 0 ||
        !lobby__equal(s.host_pk, r->host_pk, LOBBY_KEY_BYTES) ||
        !lobby__equal(s.invite.lookup, r->lookup[0], LOBBY_LOOKUP_BYTES)) {
        member_error(m, LOBBY_ERR_PROTOCOL);
        return;
    }
    if (rated_seek(r, &s) != 0) {
        member_error(m, LOBBY_ERR_PROTOCOL);
        return;
    }
    m->sought = 1;
    r->seek_back = 0;
    ans[1] = (uint8_t)seek_file(rs, r, p + 1, len - 1, &s);
    if (ans[1] == 0 && rs->store_ops != NULL) {
        /* kept here while the host is (the store's list is refreshed
         * from it: lobby__seeks_each), listed there */
        char rated[64] = "";
        if (r->want_hi != 0) /* (the room's, for a JOIN on any node) */
            snprintf(rated, sizeof rated, "%u %u %s %u",
                     (unsigned)r->want_lo, (unsigned)r->want_hi, r->want_game,
                     (unsigned)r->want_class);
        rs->store_ops->seek(rs->store, m, r->lookup[0], p + 1, len - 1,
                            s.game, seek_owner(&s), rated);
        return;
    }
    member_send(m, ans, sizeof ans);
}

void lobby__seeked(Lobby_Member *m, int code)
{
    uint8_t ans[LOBBY_LEN_SEEKED] = {LOBBY_MSG_SEEKED, (uint8_t)code};
    if (m->room == NULL || m->role != LOBBY_ROLE_HOST)
        return;
    if (code != 0)
        seek_drop(m->rs, m->room);
    member_send(m, ans, sizeof ans);
}

void lobby__seeks_each(Lobby_Rooms *rs,
                       void (*fn)(void *user, const uint8_t *inv,
                                  const uint8_t *card, size_t len,
                                  const char *game),
                       void *user)
{
    for (const Lobby_Listed *l = rs->seeks; l != NULL; l = l->next)
        fn(user, l->room->lookup[0], l->card, l->len, l->game);
}

/* A LIST part's header at h: type, last (1 on the list's last part),
 * count. */
static void list_header(uint8_t *h, int last, unsigned count)
{
    h[0] = LOBBY_MSG_LIST;
    h[1] = (uint8_t)last;
    h[2] = (uint8_t)(count >> 8);
    h[3] = (uint8_t)count;
}

/* The list's last part is on its way: m is answered, and goes once it
 * is written. */
static void list_end(Lobby_Member *m)
{
    m->done = 1;
    m->ops->close(m->link, 1, LOBBY_CLOSE_ANSWERED);
}

/* Send m (a SEEKS member) the next parts of the list while its link
 * takes them; after the last, close it. */
static void list_pump(Lobby_Member *m)
{
    Lobby_Rooms *rs = m->rs;
    size_t half = rs->lim.max_write_queue / 2;
    uint8_t *msg;

    if (!m->listing || m->done || m->ops->is_closing(m->link))
        return;
    if (rs->store_ops != NULL) { /* the store's list, as it gave it */
        while (m->snap != NULL && m->ops->queued(m->link) < half) {
            size_t n = lobby__get32(m->snap + m->snap_at);
            if (member_put(m, m->snap + m->snap_at + 4, n) != 0)
                return;
            m->snap_at += 4 + n;
            if (m->snap_at == m->snap_len) {
                free(m->snap);
                m->snap = NULL;
                list_end(m);
            }
        }
        return;
    }
    if ((msg = malloc(LOBBY_WIRE_LIST_MAX)) == NULL) {
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    while (m->ops->queued(m->link) < half) {
        const Lobby_Listed *l = rs->seeks;
        size_t n = LOBBY_LIST_HEADER;
        unsigned count = 0;
        while (l != NULL && l->no <= m->list_after)
            l = l->next;
        for (; l != NULL; l = l->next) {
            if (m->list_game[0] != '\0' && strcmp(l->game, m->list_game) != 0)
                continue;
            if (n + LOBBY_LIST_ENTRY_HEADER + l->len > LOBBY_WIRE_LIST_MAX ||
                count == 0xffff)
                break;
            lobby__put64(msg + n, l->since);
            msg[n + 8] = (uint8_t)(l->len >> 8);
            msg[n + 9] = (uint8_t)l->len;
            memcpy(msg + n + LOBBY_LIST_ENTRY_HEADER, l->card, l->len);
            n += LOBBY_LIST_ENTRY_HEADER + l->len;
            count++;
            m->list_after = l->no;
        }
        list_header(msg, l == NULL, count);
        if (member_put(m, msg, n) != 0)
            break;
        if (l == NULL) {
            list_end(m);
            break;
        }
    }
    free(msg);
}

/* SEEKS: the open seeks (of one game), within the address's list
 * budget. */
static void on_seeks(Lobby_Rooms *rs, Lobby_Member *m, const uint8_t *p,
                     uint64_t now)
{
    const uint8_t *game = p + 2;
    size_t k = 0;

    while (k < LOBBY_SEEK_GAME_MAX && game[k] != 0)
        k++;
    for (size_t i = k; i < LOBBY_SEEK_GAME_MAX; i++)
        if (game[i] != 0) { /* (NUL-padded) */
            member_error(m, LOBBY_ERR_PROTOCOL);
            return;
        }
    if (!lobby_seek_game_ok(game, k)) {
        member_error(m, LOBBY_ERR_PROTOCOL);
        return;
    }
    if (list_turn(m, now) != 0) {
        rs->stats.rate_limited++;
        member_error(m, LOBBY_ERR_RATE);
        return;
    }
    memcpy(m->list_game, game, k);
    m->list_game[k] = '\0';
    m->listing = 1;
    if (rs->store_ops != NULL)
        rs->store_ops->seeks(rs->store, m, m->list_game);
    else
        list_pump(m);
}

/* Close the LIST part whose length prefix is at h, its bytes ending at
 * end: its length, type, last flag and count. */
static void part_close(uint8_t *h, const uint8_t *end, int last,
                       unsigned count)
{
    lobby__put32(h, (uint32_t)(end - h - 4));
    list_header(h + 4, last, count);
}

int lobby__listed(Lobby_Member *m, size_t n, const uint64_t *since,
                  const uint8_t *const *card, const size_t *len)
{
    size_t cap = 4 + LOBBY_LIST_HEADER, at = 0, h = 0;
    unsigned count = 0;
    int open = 0;
    uint8_t *b;

    if (!m->listing || m->done || m->snap != NULL)
        return 0;
    for (size_t i = 0; i < n; i++) /* (at worst a part a seek) */
        cap += 4 + LOBBY_LIST_HEADER + LOBBY_LIST_ENTRY_HEADER + len[i];
    if ((b = malloc(cap)) == NULL) {
        member_error(m, LOBBY_ERR_FULL);
        return TB_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        size_t need = LOBBY_LIST_ENTRY_HEADER + len[i];
        if (!open || at - h - 4 + need > LOBBY_WIRE_LIST_MAX ||
            count == 0xffff) {
            if (open)
                part_close(b + h, b + at, 0, count);
            h = at;
            at += 4 + LOBBY_LIST_HEADER;
            count = 0;
            open = 1;
        }
        lobby__put64(b + at, since[i]);
        b[at + 8] = (uint8_t)(len[i] >> 8);
        b[at + 9] = (uint8_t)len[i];
        memcpy(b + at + LOBBY_LIST_ENTRY_HEADER, card[i], len[i]);
        at += need;
        count++;
    }
    if (!open) { /* an empty list: one empty part */
        h = at;
        at += 4 + LOBBY_LIST_HEADER;
    }
    part_close(b + h, b + at, 1, count);
    m->snap = b;
    m->snap_len = at;
    m->snap_at = 0;
    list_pump(m);
    return 0;
}

/* ---- the pool (issue 37) ---- */

_Static_assert(LOBBY_POOL_GAMES == POOL_GAMES_MAX,
               "POOL's games are the pool's (one mask, both sides)");

/* A member's offer waiting in the node's pool, and what it was told. */
typedef struct Lobby_Pooled {
    struct Lobby_Pooled *prev, *next;
    Lobby_Member *m;
    uint64_t id;                       /* the pool's (rs->pool_no) */
    uint8_t key[LOBBY_KEY_BYTES];      /* its card's: the seat key (the
                                          player's own is the pool's) */
    Lobby_Code invite;                 /* its card's code, bound to key */
    char options[LOBBY_SEEK_OPTIONS_MAX + 1]; /* its card's match options */
    uint32_t told[LOBBY_POOL_GAMES];   /* the counts last sent */
    int untold;                        /* none sent yet (with a store) */
    uint64_t told_at;                  /* when (ms) */
    int due;                           /* the counts changed since */
} Lobby_Pooled;

/* Tell q the counts now when they differ from what it was told and a
 * second has passed since it was told last (else it is due, for the
 * sweep); every at once with force (its first POOL_WAIT). */
static void pool_tell(Lobby_Pooled *q, const uint32_t *counts, uint64_t now,
                      int force)
{
    uint8_t msg[LOBBY_WIRE_POOL_WAIT_LEN];

    if (!force && memcmp(q->told, counts, sizeof q->told) == 0) {
        q->due = 0;
        return;
    }
    if (!force && now - q->told_at < LOBBY_POOL_TELL_MS) {
        q->due = 1;
        return;
    }
    memcpy(q->told, counts, sizeof q->told);
    q->told_at = now;
    q->due = 0;
    member_send(q->m, msg, lobby_wire_pool_wait(msg, counts));
}

/* The counts changed (changed 1): every waiting member is told, at most
 * once a LOBBY_POOL_TELL_MS; changed 0 (the sweep): those still due. */
static void pool_tell_all(Lobby_Rooms *rs, uint64_t now, int changed)
{
    uint32_t counts[POOL_GAMES_MAX];

    if (rs->store_ops != NULL && rs->store_ops->pool != NULL)
        memcpy(counts, rs->pool_heard, sizeof counts); /* (the lobby's) */
    else if (rs->pool != NULL)
        pool_counts(rs->pool, counts);
    else
        return;
    for (Lobby_Pooled *q = rs->pooled; q != NULL; q = q->next)
        if ((changed || q->due) && q->id != 0)
            pool_tell(q, counts, now, 0);
}

/* The waiting offer id here (NULL: none). */
static Lobby_Pooled *pool_find(Lobby_Rooms *rs, uint64_t id)
{
    Lobby_Pooled *q = rs->pooled;
    while (q != NULL && q->id != id)
        q = q->next;
    return q;
}

static void pool_link(Lobby_Rooms *rs, Lobby_Pooled *q)
{
    q->next = rs->pooled; /* (the order is no one's business) */
    if (rs->pooled != NULL)
        rs->pooled->prev = q;
    rs->pooled = q;
    q->m->pooled = q;
}

static void pool_unlink(Lobby_Rooms *rs, Lobby_Pooled *q)
{
    if (q->prev != NULL)
        q->prev->next = q->next;
    else
        rs->pooled = q->next;
    if (q->next != NULL)
        q->next->prev = q->prev;
    q->m->pooled = NULL;
}

/* PAIRED to m, then its connection closes (its offer is done). */
static void pool_paired(Lobby_Member *m, const Lobby_Paired *pd)
{
    uint8_t msg[LOBBY_WIRE_PAIRED_MAX];
    size_t n = lobby_wire_paired(msg, pd);

    if (n == 0) {
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    member_send(m, msg, n);
    m->done = 1;
    m->ops->close(m->link, 1, LOBBY_CLOSE_ANSWERED);
}

/* A member's offer (POOL, its hello): filed in the pool, or paired at
 * once with the longest-waiting compatible offer; the older of the two
 * hosts. Over a share: ERROR (13 the key's, ADDRESS the address's, FULL
 * the node's). */
static void on_pool(Lobby_Rooms *rs, Lobby_Member *m, const uint8_t *p,
                    size_t len, uint64_t now)
{
    Lobby_Pool_Ask ask;
    Pool_Offer o;
    Pool_Pair pair;
    Lobby_Pooled *q, *old;
    Lobby_Paired pd;
    int rc = lobby_wire_pool_read(p, len, &ask);

    if (rc != 0) {
        member_error(m, rc == TB_E_VERSION ? LOBBY_ERR_VERSION
                        : rc == TB_E_CRYPTO ? LOBBY_ERR_FULL
                                            : LOBBY_ERR_PROTOCOL);
        return;
    }
    if (rs->pool == NULL && (rs->store_ops == NULL || rs->store_ops->pool == NULL) &&
        pool_new(POOL_GAMES_MAX, NULL, &rs->pool) != 0) {
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    if ((q = calloc(1, sizeof *q)) == NULL) {
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    memset(&o, 0, sizeof o);
    o.id = ++rs->pool_no;
    o.arrival_ms = now;
    memcpy(o.key, ask.player_pk, LOBBY_KEY_BYTES); /* (the player's) */
    _Static_assert(LOBBY_SOURCE_KEY <= POOL_ADDR_BYTES,
                   "a source's key is an offer's address");
    memcpy(o.addr, m->src->key, LOBBY_SOURCE_KEY);
    o.games = ask.games;
    o.lo = ask.lo;
    o.hi = ask.hi;
    o.want_lo = ask.want_lo;
    o.want_hi = ask.want_hi;
    /* the ratings of the key that will play the game (its card's), the
     * one its result is rated under: not the offer's signer (a trial
     * paired as a fresh 1500 key and played, and was rated, as its 1662
     * one) */
    lobby__ratings_fill(rs->ratings, ask.card.host_pk, o.rating);
    _Static_assert(sizeof o.options == sizeof ask.card.options,
                   "an offer's options are its card's");
    memcpy(o.options, ask.card.options, sizeof o.options);
    q->m = m;
    q->id = o.id;
    memcpy(q->key, ask.card.host_pk, LOBBY_KEY_BYTES);
    q->invite = ask.card.invite;
    memcpy(q->options, ask.card.options, sizeof q->options);
    if (rs->store_ops != NULL && rs->store_ops->pool != NULL) {
        /* the lobby's pool: the store numbers, pairs and counts it */
        q->id = 0;
        q->untold = 1;
        pool_link(rs, q);
        rs->store_ops->pool(rs->store, m, &o, &q->invite, q->key, q->options);
        return;
    }
    rc = pool_add(rs->pool, &o, &pair);
    /* An older offer whose connection is already closing (timed out or
     * dropped, its close not yet run: the loop's next turn) cannot be
     * told PAIRED: it leaves the pool now, and the new offer is offered
     * again (paired with it, the new one would wait as a guest for a
     * room that never comes). */
    while (rc == 1 && (old = pool_find(rs, pair.older)) != NULL &&
           old->m->ops->is_closing(old->m->link)) {
        pool_unlink(rs, old);
        free(old);
        rc = pool_add(rs->pool, &o, &pair);
    }
    if (rc < 0) {
        free(q);
        member_error(m, rc == TB_E_LIMIT     ? LOBBY_ERR_SEEKS
                        : rc == TB_E_ADDRESS ? LOBBY_ERR_ADDRESS
                        : rc == TB_E_FULL    ? LOBBY_ERR_FULL
                                             : LOBBY_ERR_PROTOCOL);
        return;
    }
    if (rc == 0) { /* it waits: told the counts now, the others too */
        uint32_t counts[POOL_GAMES_MAX];
        pool_link(rs, q);
        pool_counts(rs->pool, counts);
        pool_tell(q, counts, now, 1);
        pool_tell_all(rs, now, 1);
        return;
    }
    if ((old = pool_find(rs, pair.older)) == NULL) { /* (never: every waiting offer has its member) */
        free(q);
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    pool_unlink(rs, old);
    memset(&pd, 0, sizeof pd);
    pd.game = pair.game;
    pd.clock = pair.clock;
    pd.invite = old->invite; /* the older offer hosts, with its options */
    memcpy(pd.options, old->options, sizeof pd.options);
    memcpy(pd.guest_pk, q->key, LOBBY_KEY_BYTES);
    pd.role = LOBBY_ROLE_HOST;
    pool_paired(old->m, &pd);
    pd.role = LOBBY_ROLE_GUEST;
    pool_paired(m, &pd);
    free(old);
    free(q);
    pool_tell_all(rs, now, 1);
}

/* m is gone: its offer leaves the pool. */
static void pool_leave(Lobby_Member *m, uint64_t now)
{
    Lobby_Pooled *q = m->pooled;
    Lobby_Rooms *rs = m->rs;

    if (q == NULL)
        return;
    if (rs->store_ops != NULL && rs->store_ops->pool != NULL) {
        if (q->id != 0) /* (else the store drops it as it files it) */
            rs->store_ops->unpool(rs->store, q->id);
        pool_unlink(rs, q);
        free(q);
        return;
    }
    (void)pool_remove(rs->pool, q->id);
    pool_unlink(rs, q);
    free(q);
    pool_tell_all(rs, now, 1);
}

void lobby__pool_filed(Lobby_Member *m, uint64_t id)
{
    if (m->pooled != NULL && m->pooled->id == 0)
        m->pooled->id = id;
}

/* The member of the waiting offer id here, its offer gone (NULL: no
 * such offer here). */
static Lobby_Member *pool_take(Lobby_Rooms *rs, uint64_t id)
{
    Lobby_Pooled *q = id != 0 ? pool_find(rs, id) : NULL;
    Lobby_Member *m = q != NULL ? q->m : NULL;
    if (q != NULL) {
        pool_unlink(rs, q);
        free(q);
    }
    return m;
}

void lobby__pool_paired(Lobby_Rooms *rs, uint64_t id, const Lobby_Paired *pd)
{
    Lobby_Member *m = pool_take(rs, id);
    if (m != NULL)
        pool_paired(m, pd);
}

void lobby__pool_refused(Lobby_Rooms *rs, uint64_t id, int code)
{
    Lobby_Member *m = pool_take(rs, id);
    if (m != NULL)
        member_error(m, code);
}

void lobby__pool_told(Lobby_Rooms *rs, const uint32_t *counts, uint64_t now)
{
    memcpy(rs->pool_heard, counts, sizeof rs->pool_heard);
    for (Lobby_Pooled *q = rs->pooled; q != NULL; q = q->next)
        if (q->id != 0) {
            pool_tell(q, rs->pool_heard, now, q->untold);
            q->untold = 0;
        }
}

int lobby__pool_waiting(const Lobby_Rooms *rs)
{
    return rs->pooled != NULL;
}

void lobby__pool_each(Lobby_Rooms *rs, void (*fn)(void *user, uint64_t id),
                      void *user)
{
    for (Lobby_Pooled *q = rs->pooled; q != NULL; q = q->next)
        if (q->id != 0)
            fn(user, q->id);
}

/* ---- messages from clients ---- */

/* A room of lookups inv and wat and host key pk, created by src, filed
 * and counted. NULL: out of memory. */
static Lobby_Room *room_new(Lobby_Rooms *rs, const uint8_t *inv,
                            const uint8_t *wat, const uint8_t *pk,
                            Lobby_Source *src, int file_watch)
{
    Lobby_Room *r =
        heap_reserve(&rs->by_bytes) == 0 ? calloc(1, sizeof *r) : NULL;
    if (r == NULL)
        return NULL;
    memcpy(r->lookup[0], inv, LOBBY_LOOKUP_BYTES);
    memcpy(r->lookup[1], wat, LOBBY_LOOKUP_BYTES);
    r->watch_filed = file_watch;
    memcpy(r->host_pk, pk, LOBBY_KEY_BYTES);
    r->src = src;
    r->src->rooms++;
    bytes_file(rs, r);
    room_file(rs, r);
    r->next = rs->rooms;
    if (rs->rooms != NULL)
        rs->rooms->prev = r;
    rs->rooms = r;
    rs->nrooms++;
    room_due_add(rs, r);
    return r;
}

static void on_create(Lobby_Rooms *rs, Lobby_Member *m, const uint8_t *p,
                      uint64_t now)
{
    const uint8_t *inv = p + 2, *wat = inv + LOBBY_LOOKUP_BYTES;
    const uint8_t *pk = wat + LOBBY_LOOKUP_BYTES;
    const uint8_t *secret = pk + LOBBY_KEY_BYTES;
    const uint8_t *named = secret + LOBBY_SEAT_SECRET_BYTES;
    uint64_t from = lobby__get64(p + LOBBY_LEN_CREATE - 8);
    static const uint8_t none[LOBBY_KEY_BYTES];
    Lobby_Room *r;
    int kind;

    if (lobby__equal(inv, wat, LOBBY_LOOKUP_BYTES) || from > LOBBY_SEQ_MAX ||
        lobby__equal(named, pk, LOBBY_KEY_BYTES)) {
        member_error(m, LOBBY_ERR_PROTOCOL);
        return;
    }
    if (rs->store_ops != NULL) {
        rs->store_ops->hello(rs->store, m, p);
        return;
    }
    r = room_find(rs, inv, &kind);
    if (r != NULL) {
        /* The host taking its seat back: everything must match. An
         * existing lookup with a wrong secret is a guess. */
        if (kind == 0 && r->claimed[0] &&
            lobby__equal(secret, r->secret[0], LOBBY_SEAT_SECRET_BYTES) &&
            lobby__equal(pk, r->host_pk, LOBBY_KEY_BYTES) &&
            lobby__equal(wat, r->lookup[1], LOBBY_LOOKUP_BYTES))
            admit(m, r, LOBBY_ROLE_HOST, from, -1, 0, now);
        else
            wrong_code(rs, m, now);
        return;
    }
    /* A watch lookup another room holds (spectators know watch codes:
     * after a restart one can register a room under it before the host
     * is back) does not keep the game from its room: the room is made
     * without it, and that code's spectators meet the other room, whose
     * host key their code does not fingerprint. */
    int watch_free = room_find(rs, wat, &kind) == NULL;
    if (m->src->rooms >= (uint64_t)rs->lim.source_rooms * m->src->factor &&
        !drop_finished(rs, m->src)) {
        rs->stats.refused_address++;
        member_error(m, LOBBY_ERR_ADDRESS);
        return;
    }
    if (rs->nrooms >= rs->lim.max_rooms && !drop_finished(rs, NULL)) {
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    r = room_new(rs, inv, wat, pk, m->src, watch_free);
    if (r == NULL) {
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    memcpy(r->secret[0], secret, LOBBY_SEAT_SECRET_BYTES);
    r->claimed[0] = 1;
    memcpy(r->guest_pk, named, LOBBY_KEY_BYTES);
    r->guest_named = !lobby__equal(named, none, LOBBY_KEY_BYTES);
    /* A host re-registering its room after a lobby restart goes on from
     * the last number it has, so every peer's numbering stays valid. */
    r->next_seq = from + 1;
    admit(m, r, LOBBY_ROLE_HOST, from, -1, 0, now);
}

static void on_join(Lobby_Rooms *rs, Lobby_Member *m, const uint8_t *p,
                    uint64_t now)
{
    const uint8_t *lookup = p + 2, *secret = lookup + LOBBY_LOOKUP_BYTES;
    const uint8_t *key = secret + LOBBY_SEAT_SECRET_BYTES; /* proven */
    uint64_t from = lobby__get64(p + LOBBY_LEN_JOIN - 8);
    Lobby_Room *r;
    int kind;

    if (rs->store_ops != NULL) {
        rs->store_ops->hello(rs->store, m, p);
        return;
    }
    r = room_find(rs, lookup, &kind);
    if (r == NULL) {
        wrong_code(rs, m, now);
        return;
    }
    if (kind == 1) { /* a watch code never takes a seat */
        member_error(m, LOBBY_ERR_NOT_ALLOWED);
        return;
    }
    for (int s = 0; s < 2; s++)
        if (r->claimed[s] &&
            lobby__equal(secret, r->secret[s], LOBBY_SEAT_SECRET_BYTES)) {
            /* (the seat's secret and its player's key both) */
            if (!lobby__equal(key, s == 0 ? r->host_pk : r->guest_pk,
                              LOBBY_KEY_BYTES)) {
                member_error(m, LOBBY_ERR_SEAT);
                return;
            }
            admit(m, r, s, from, -1, 0, now);
            return;
        }
    /* The guest seat holds one key: a stand-in's is refused it, where
     * the host named the guest or a guest that spoke holds it (the
     * relay witnesses the player, so another key's absence is no
     * absence of the guest's: the fair-play issue). */
    if (r->claimed[1] ||
        (r->guest_named && !lobby__equal(key, r->guest_pk, LOBBY_KEY_BYTES)) ||
        lobby__equal(key, r->host_pk, LOBBY_KEY_BYTES)) {
        member_error(m, LOBBY_ERR_SEAT);
        return;
    }
    if (!rating_fits(rs, r, key)) { /* (a rated seek: docs/pool.md) */
        member_error(m, LOBBY_ERR_RATING);
        return;
    }
    memcpy(r->secret[1], secret, LOBBY_SEAT_SECRET_BYTES);
    memcpy(r->guest_pk, key, LOBBY_KEY_BYTES);
    r->claimed[1] = 1;
    /* A new guest: the DONE of one that gave the seat back (it never
     * spoke) is not this one's, whose frames it would refuse (a trial
     * locked the real guest out so). */
    r->finished[1] = 0;
    r->released = 0;
    gone_update(rs, r);
    admit(m, r, LOBBY_ROLE_GUEST, from, -1, 0, now);
}

static void on_watch(Lobby_Rooms *rs, Lobby_Member *m, const uint8_t *p,
                     uint64_t now)
{
    uint64_t from = lobby__get64(p + 2 + LOBBY_LOOKUP_BYTES);
    Lobby_Room *r;
    int kind;

    if (rs->store_ops != NULL) {
        /* A room with no copy here comes from Redis with its transcript
         * (up to transcript_bytes for a 26-byte WATCH): the watcher's
         * address pays, LOBBY_WATCH_BURST such WATCHes at once and one
         * more each LOBBY_WATCH_REFILL_MS (times its trust factor); past
         * that a WATCH waits its turn (within the hello timeout). */
        uint64_t ready_us;
        if (room_find(rs, p + 2, &kind) == NULL &&
            lobby__bucket_take(&m->src->fetch_tat, now * 1000,
                               (uint64_t)LOBBY_WATCH_REFILL_MS * 1000 /
                                   m->src->factor,
                               (uint64_t)LOBBY_WATCH_BURST * m->src->factor,
                               &ready_us)) {
            rs->stats.watches_delayed += m->held[0] == 0;
            memcpy(m->held, p, LOBBY_LEN_WATCH);
            m->retry_at = (ready_us + 999) / 1000;
            member_wait_add(rs, m);
            return;
        }
        rs->store_ops->hello(rs->store, m, p);
        return;
    }
    r = room_find(rs, p + 2, &kind);
    if (r == NULL) {
        wrong_code(rs, m, now);
        return;
    }
    if (r->nspect >= rs->lim.max_spectators) {
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    admit(m, r, LOBBY_ROLE_SPECTATOR, from, -1, 0, now);
}

/* Drop the room's oldest frame; members that never got it are too slow. */
static void ring_evict(Lobby_Rooms *rs, Lobby_Room *r)
{
    Lobby_Entry *e = r->ring[r->ring_head];
    Lobby_Member *seat[2] = {r->seat[0], r->seat[1]};

    r->ring_head = (r->ring_head + 1) % r->ring_cap;
    r->ring_count--;
    r->ring_bytes -= e->len;
    heap_down(&rs->by_bytes, r->heap_at);
    r->src->bytes -= e->len;
    rs->transcript_bytes -= e->len;
    for (int s = 0; s < 2; s++)
        if (seat[s] != NULL && seat[s]->sent_seq < e->seq &&
            !seat[s]->ops->is_closing(seat[s]->link))
            member_slow(seat[s]);
    for (Lobby_Member *s = r->spect; s != NULL; s = s->snext)
        if (s->sent_seq < e->seq && !s->ops->is_closing(s->link))
            member_slow(s);
    free(e);
}

/* Has the seat's player been sent frame seq (or is there nobody to keep
 * it for: an unclaimed seat)? An absent player is owed what it had not
 * been sent when it left. */
static int seat_had(const Lobby_Room *r, int seat, uint64_t seq)
{
    if (!r->claimed[seat])
        return 1;
    if (r->seat[seat] != NULL)
        return r->seat[seat]->sent_seq >= seq;
    return r->had[seat] >= seq;
}

/* The room with the most kept bytes, of source src (NULL: of any). */
static Lobby_Room *largest_room(Lobby_Rooms *rs, const Lobby_Source *src)
{
    Lobby_Room *best = NULL;
    if (src == NULL)
        return heap_top(&rs->by_bytes);
    for (Lobby_Room *r = src->room_list; r != NULL; r = r->snext)
        if (best == NULL || r->ring_bytes > best->ring_bytes)
            best = r;
    return best;
}

/*
 * Make room in r for len more bytes sent by seat from: drop oldest frames
 * while r, its creator's address or the whole lobby would be over its
 * cap (from r, from that address's largest room, from the largest room).
 * Returns 0, or LOBBY_ERR_FLOOD when a frame of r itself would go that
 * r's other seat has not been sent: then nothing more is dropped and the
 * sender, not the reader, pays.
 */
static int make_room(Lobby_Rooms *rs, Lobby_Room *r, int from, size_t len)
{
    for (;;) {
        Lobby_Room *victim = NULL;
        if (r->ring_count > 0 &&
            (r->ring_count >= rs->lim.transcript_frames ||
             r->ring_bytes + len > rs->lim.transcript_bytes))
            victim = r;
        else if (r->src->bytes + len >
                 (uint64_t)rs->lim.source_bytes * r->src->factor)
            victim = largest_room(rs, r->src);
        else if (rs->transcript_bytes + len > rs->lim.kept_bytes)
            victim = largest_room(rs, NULL);
        if (victim == NULL || victim->ring_count == 0)
            return 0;
        if (victim == r && !seat_had(r, 1 - from, room_first_seq(r)))
            return LOBBY_ERR_FLOOD;
        if (victim != r)
            rs->stats.evicted_shared++;
        ring_evict(rs, victim);
    }
}

static int ring_push(Lobby_Rooms *rs, Lobby_Room *r, Lobby_Entry *e)
{
    if (r->ring_count == r->ring_cap) { /* grow (only ever when full) */
        uint32_t cap = r->ring_cap ? r->ring_cap * 2 : 16;
        Lobby_Entry **ring;
        if (cap > rs->lim.transcript_frames)
            cap = rs->lim.transcript_frames;
        ring = malloc(cap * sizeof *ring);
        if (ring == NULL)
            return TB_E_NOMEM;
        for (uint32_t i = 0; i < r->ring_count; i++)
            ring[i] = r->ring[(r->ring_head + i) % r->ring_cap];
        free(r->ring);
        r->ring = ring;
        r->ring_cap = cap;
        r->ring_head = 0;
    }
    r->ring[(r->ring_head + r->ring_count) % r->ring_cap] = e;
    r->ring_count++;
    r->ring_bytes += e->len;
    heap_up(&rs->by_bytes, r->heap_at);
    r->src->bytes += e->len;
    rs->transcript_bytes += e->len;
    return 0;
}

/* A seat's DONE: once both seats said it, the room goes unjoined_room_ms
 * after it empties, and it is the first of its creator's rooms to go when
 * that address (or the node) needs a room (lobby_wire.h). It counts in
 * every share until it goes. */
/* The room of a seat's message of len bytes that must be want long, or
 * NULL when the message is wrong (m is told so). */
static Lobby_Room *seat_room(Lobby_Member *m, size_t len, size_t want)
{
    if (len != want) {
        member_error(m, LOBBY_ERR_PROTOCOL);
        return NULL;
    }
    if (m->room == NULL || m->role == LOBBY_ROLE_SPECTATOR) {
        member_error(m, LOBBY_ERR_NOT_ALLOWED);
        return NULL;
    }
    return m->room;
}

static void on_done(Lobby_Rooms *rs, Lobby_Member *m, size_t len)
{
    Lobby_Room *r = seat_room(m, len, LOBBY_LEN_DONE);
    if (r == NULL)
        return;
    if (r->finished[m->role])
        return;
    r->finished[m->role] = 1;
    r->keep_ms = 0; /* (its game is over: no room is kept for it) */
    if (rs->store_ops != NULL)
        rs->store_ops->done(rs->store, r->lookup[0], r->lookup[1],
                            r->has_maker ? r->maker : NULL, m->role,
                            r->epoch[m->role]);
    if (r->finished[0] && r->finished[1]) {
        r->released = 1;
        gone_update(rs, r);
        archive_end(rs, r, 1); /* (its game is over) */
    }
}

/* Room r is a correspondence game's a seat asked to keep (KEEP), once
 * both seats have spoken (sent a frame: a host alone, or a stranger who
 * took a seek's seat and left without a word, keeps nothing: the trial of
 * 2026-12-07) and until a seat said DONE (its game is over). */
static int kept(const Lobby_Room *r)
{
    return r->keep_ms > 0 && !r->finished[0] && !r->finished[1] &&
           r->spoke[0] && r->spoke[1];
}

/* How long room r is kept with nobody in it (ms): a finished game's
 * goes sooner, a correspondence game's (kept) later. */
static uint64_t empty_for(const Lobby_Rooms *rs, const Lobby_Room *r)
{
    if (r->released)
        return rs->lim.unjoined_room_ms;
    if (kept(r) && r->keep_ms > rs->lim.empty_room_ms)
        return r->keep_ms;
    return rs->lim.empty_room_ms;
}

uint32_t lobby__room_keep_ms(const Lobby_Room *r) { return r->keep_ms; }

void lobby__replica_keep(Lobby_Room *r, uint32_t ms)
{
    if (ms > r->keep_ms)
        r->keep_ms = ms;
}

void lobby__replica_keep_set(Lobby_Room *r, uint32_t ms) { r->keep_ms = ms; }

/* A seat's KEEP (lobby_wire.h): its room kept empty up to the seconds it
 * asks, within keep_room_ms; never shortened by a later, smaller KEEP. */
static void on_keep(Lobby_Rooms *rs, Lobby_Member *m, const uint8_t *p,
                    size_t len)
{
    Lobby_Room *r = seat_room(m, len, LOBBY_LEN_KEEP);
    uint64_t ms;
    if (r == NULL)
        return;
    ms = (uint64_t)lobby__get32(p + 1) * 1000u;
    if (ms > rs->lim.keep_room_ms)
        ms = rs->lim.keep_room_ms;
    if (ms <= r->keep_ms || r->finished[0] || r->finished[1])
        return;
    if (rs->store_ops != NULL && rs->store_ops->keep != NULL) {
        /* the store checks both seats spoke and keeps it; its answer
         * sets this copy's keep (lobby__replica_keep) */
        rs->store_ops->keep(rs->store, r->lookup[0], r->lookup[1],
                            r->has_maker ? r->maker : NULL, (uint32_t)ms);
        return;
    }
    r->keep_ms = (uint32_t)ms; /* (kept() asks that both seats spoke) */
}

/* src has sent more than LOBBY_DATA_HEAVY units of late (room.h). */
static int heavy(const Lobby_Source *src, uint64_t now)
{
    return lobby__bucket_used(src->units_tat, now * 1000,
                              LOBBY_DATA_REFILL_US / src->factor) >
           (uint64_t)LOBBY_DATA_HEAVY * src->factor;
}

/* The node is over its frame total (its bucket empty at now, ms) and
 * src is a heavy sender. */
static int heavy_now(const Lobby_Rooms *rs, const Lobby_Source *src,
                     uint64_t now)
{
    return lobby__bucket_used(rs->data_tat, now * 1000,
                              LOBBY_DATA_NODE_REFILL_US) >=
               LOBBY_DATA_NODE_BURST &&
           heavy(src, now);
}

static void on_data(Lobby_Rooms *rs, Lobby_Member *m, const uint8_t *p,
                    size_t len, uint64_t now)
{
    Lobby_Room *r = m->room;
    size_t n = len - LOBBY_DATA_HEADER;
    Lobby_Entry *e;
    Proto_Receipt rc;

    if (r == NULL || m->role == LOBBY_ROLE_SPECTATOR) {
        member_error(m, LOBBY_ERR_NOT_ALLOWED);
        return;
    }
    if (r->finished[m->role]) { /* it said it sends nothing more */
        member_error(m, LOBBY_ERR_PROTOCOL);
        return;
    }
    uint64_t refill = LOBBY_DATA_REFILL_US / m->src->factor;
    uint64_t units = 1 + n / LOBBY_DATA_UNIT_BYTES;
    uint64_t burst = (uint64_t)LOBBY_DATA_BURST * m->src->factor;
    /* the address's units, metered (never refused: its frames are) */
    lobby__bucket_meter(&m->src->units_tat, now * 1000, refill, burst, units);
    if (lobby__bucket_take(&m->src->data_tat, now * 1000, refill, burst,
                           NULL) ||
        (lobby__bucket_take_n(&rs->data_tat, now * 1000,
                              LOBBY_DATA_NODE_REFILL_US, LOBBY_DATA_NODE_BURST,
                              units) &&
         heavy(m->src, now))) {
        rs->stats.dropped_flood++;
        member_error(m, LOBBY_ERR_FLOOD);
        return;
    }
    if (n == 0 || n > rs->lim.max_payload) {
        member_error(m, n == 0 ? LOBBY_ERR_PROTOCOL : LOBBY_ERR_TOO_BIG);
        return;
    }
    if (rs->store_ops != NULL) { /* numbered by Redis, fanned out there */
        if (m->storing_n >= rs->lim.store_frames ||
            m->src->storing + n >
                (uint64_t)rs->lim.store_source_bytes * m->src->factor) {
            rs->stats.dropped_flood++;
            member_error(m, LOBBY_ERR_FLOOD);
            return;
        }
        if (rs->storing + n > rs->lim.store_bytes) {
            member_error(m, LOBBY_ERR_FULL);
            return;
        }
        m->storing_n++;
        m->storing += n;
        m->src->storing += n;
        rs->storing += n;
        r->sending[m->role]++;
        rs->store_ops->data(rs->store, m, r->lookup[0], m->role,
                            r->epoch[m->role], p + LOBBY_DATA_HEADER, n);
        return;
    }
    if (make_room(rs, r, m->role, LOBBY_FRAME_HEADER + n) != 0) {
        rs->stats.dropped_flood++;
        member_error(m, LOBBY_ERR_FLOOD);
        return;
    }
    uint64_t t = room_clock(rs, r);
    uint32_t absent[2];
    room_absences(r, t, absent);
    e = entry_new(rs, r, r->next_seq, m->role, t, absent,
                  p + LOBBY_DATA_HEADER, n, &rc);
    if (e == NULL) {
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    r->spoke[m->role] = 1;
    if (ring_push(rs, r, e) != 0) {
        free(e);
        member_error(m, LOBBY_ERR_FULL);
        return;
    }
    archive_frame(rs, r, e->seq, &rc, p + LOBBY_DATA_HEADER, n);
    r->next_seq++;
    rs->stats.frames_relayed++;

    m->acked = e->seq; /* its ACK, in its place: member_pump */
    for (int s = 0; s < 2; s++)
        if (r->seat[s] != NULL)
            member_pump(r->seat[s]);
    for (Lobby_Member *s = r->spect; s != NULL; s = s->snext)
        member_pump(s);
}

/* One message from m, counted or not (a held WATCH taken up again was
 * counted as it came). */
static void message(Lobby_Member *m, const uint8_t *p, size_t len,
                    uint64_t now)
{
    Lobby_Rooms *rs = m->rs;
    int hello = m->room == NULL;

    if (m->done)
        return;
    if (m->retry_at != 0 || m->pooled != NULL) {
        /* a second hello while its WATCH waits, or anything from a
         * member whose offer waits in the pool (it only listens) */
        member_error(m, LOBBY_ERR_PROTOCOL);
        return;
    }
    switch (p[0]) {
    case LOBBY_MSG_CREATE:
    case LOBBY_MSG_JOIN:
    case LOBBY_MSG_WATCH: {
        size_t want = p[0] == LOBBY_MSG_CREATE ? LOBBY_LEN_CREATE
                      : p[0] == LOBBY_MSG_JOIN ? LOBBY_LEN_JOIN
                                               : LOBBY_LEN_WATCH;
        if (!hello || len != want) {
            member_error(m, LOBBY_ERR_PROTOCOL);
            return;
        }
        if (p[1] != LOBBY_WIRE_VERSION) {
            member_error(m, LOBBY_ERR_VERSION);
            return;
        }
        /* every hello ends with the number it asks after: no client
         * holds one above LOBBY_SEQ_MAX + 1 (both backends: Redis's Lua
         * is exact only so far) */
        if (lobby__get64(p + len - 8) > LOBBY_SEQ_MAX + 1) {
            member_error(m, LOBBY_ERR_PROTOCOL);
            return;
        }
        /* A seat proves its player key (protocol 4): a hello that does
         * not is a forgery, refused before anything is looked up. */
        Lobby_Wire_Hello hh;
        if (p[0] != LOBBY_MSG_WATCH && lobby_wire_hello_read(p, len, &hh) != 0) {
            member_error(m, LOBBY_ERR_PROTOCOL);
            return;
        }
        /* A heavy sender's new seat, while the node is over its frame
         * total, would carry more of the same: refused before its first
         * frame is read (abuse.py flood: each new connection's 96 KiB
         * frame was read whole before the refusal). */
        if (p[0] != LOBBY_MSG_WATCH && heavy_now(rs, m->src, now)) {
            rs->stats.dropped_flood++;
            member_error(m, LOBBY_ERR_FLOOD);
            return;
        }
        if (p[0] == LOBBY_MSG_CREATE)
            on_create(rs, m, p, now);
        else if (p[0] == LOBBY_MSG_JOIN)
            on_join(rs, m, p, now);
        else
            on_watch(rs, m, p, now);
        return;
    }
    case LOBBY_MSG_SEEKS:
        if (!hello || len != LOBBY_LEN_SEEKS) {
            member_error(m, LOBBY_ERR_PROTOCOL);
            return;
        }
        if (p[1] != LOBBY_WIRE_VERSION) {
            member_error(m, LOBBY_ERR_VERSION);
            return;
        }
        on_seeks(rs, m, p, now);
        return;
    case LOBBY_MSG_POOL:
        if (!hello) {
            member_error(m, LOBBY_ERR_PROTOCOL);
            return;
        }
        on_pool(rs, m, p, len, now);
        return;
    case LOBBY_MSG_SEEK:
        if (len < 1 + LOBBY_SEEK_CARD_MIN || len > LOBBY_WIRE_SEEK_MAX) {
            member_error(m, LOBBY_ERR_PROTOCOL);
            return;
        }
        on_seek(rs, m, p, len);
        return;
    case LOBBY_MSG_DATA:
        on_data(rs, m, p, len, now);
        return;
    case LOBBY_MSG_DONE:
        on_done(rs, m, len);
        return;
    case LOBBY_MSG_KEEP:
        on_keep(rs, m, p, len);
        return;
    default:
        member_error(m, LOBBY_ERR_PROTOCOL);
    }
}

void lobby_rooms_message(Lobby_Member *m, const uint8_t *p, size_t len,
                         uint64_t now)
{
    m->rs->stats.bytes_in += len;
    message(m, p, len, now);
}

void lobby_rooms_drained(Lobby_Member *m)
{
    if (m == NULL)
        return;
    pin_seen(m);
    member_pump(m);
    list_pump(m);
}

void lobby_rooms_timed_out(Lobby_Member *m)
{
    if (m != NULL)
        m->rs->stats.idle_timeouts++;
}

void lobby_rooms_closed(Lobby_Member *m, uint64_t now)
{
    Lobby_Rooms *rs;

    if (m == NULL)
        return;
    rs = m->rs;
    /* (its link is gone: it pins nothing, and the sends of its leaving
     * must never pick it to drop) */
    pin_gone(m);
    if (rs->store_ops != NULL) {
        rs->store_ops->forget(rs->store, m);
        if (m->room != NULL && m->role >= 0 &&
            m->role != LOBBY_ROLE_SPECTATOR && m->room->seat[m->role] == m)
            rs->store_ops->leave(rs->store, m->room->lookup[0], m->role,
                                 m->room->epoch[m->role]);
    }
    member_leave(m, now);
    pool_leave(m, now);
    sweep_del(&rs->waiting, &m->wait);
    /* (its frames still on their way are no longer its to count) */
    rs->storing -= m->storing;
    if (m->src != NULL) {
        m->src->storing -= m->storing;
        m->src->conns--;
        m->src->refused_held -= (uint32_t)m->refused_held;
    }
    rs->nrefused_held -= (size_t)m->refused_held;
    if (m->prev != NULL)
        m->prev->next = m->next;
    else
        rs->members = m->next;
    if (m->next != NULL)
        m->next->prev = m->prev;
    if (m->ops->counted)
        rs->nlinks--;
    rs->nconns--;
    heap_del(&rs->by_pin, m);
    free(m->snap);
    free(m);
}

Lobby_Member *lobby_rooms_member(Lobby_Rooms *rs, const Lobby_Link_Ops *ops,
                                 void *link, const char *peer_host,
                                 uint64_t now)
{
    Lobby_Member *m =
        heap_reserve(&rs->by_pin) == 0 ? calloc(1, sizeof *m) : NULL;
    if (m == NULL)
        return NULL;
    m->rs = rs;
    heap_add(&rs->by_pin, m);
    m->ops = ops;
    m->link = link;
    m->role = ROLE_NONE;
    m->since = now;
    m->next = rs->members;
    if (rs->members != NULL)
        rs->members->prev = m;
    rs->members = m;
    member_wait_add(rs, m);
    if (ops->counted)
        rs->nlinks++;
    rs->nconns++;
    m->src = lobby__source_get(&rs->sources, peer_host);
    if (m->src == NULL) {
        member_error(m, LOBBY_ERR_FULL);
        return m;
    }
    m->src->conns++;
    /* Every transport counts in one total: a TCP member is within net/'s
     * own cap, but TCP, WebSocket and HTTP together are held to this. */
    if (member_over(m)) {
        int address = m->src->conns >
                      (uint64_t)rs->lim.source_conns * m->src->factor;
        rs->stats.refused_address += address;
        member_error(m, address ? LOBBY_ERR_ADDRESS : LOBBY_ERR_FULL);
    }
    return m;
}

int lobby_rooms_hold(Lobby_Rooms *rs, const char *peer_host)
{
    Lobby_Source *s = lobby__source_get(&rs->sources, peer_host);
    if (s == NULL)
        return TB_E_NOMEM;
    /* A few over the share, so that a page's WebSocket over it comes far
     * enough to be told why (a member over it is answered ADDRESS). */
    if (s->conns >=
        (uint64_t)rs->lim.source_conns * s->factor + LOBBY_HOLD_SLACK_SOURCE) {
        rs->stats.refused_address++;
        return LOBBY_ERR_ADDRESS;
    }
    if (rs->nconns >= rs->lim.max_conns + LOBBY_HOLD_SLACK_TOTAL)
        return LOBBY_ERR_FULL;
    s->conns++;
    rs->nconns++;
    rs->nholds++;
    return 0;
}

void lobby_rooms_unhold(Lobby_Rooms *rs, const char *peer_host)
{
    /* A held source holds a connection: the sweep has kept it. */
    Lobby_Source *s = lobby__source_get(&rs->sources, peer_host);
    if (s == NULL || s->conns == 0 || rs->nholds == 0)
        return;
    s->conns--;
    rs->nconns--;
    rs->nholds--;
}

void lobby_rooms_sweep(Lobby_Rooms *rs, uint64_t now)
{
    Lobby_Sweep_Link *l = rs->waiting, *next;

    pool_tell_all(rs, now, 0);
    while (l != NULL) {
        Lobby_Member *m = SWEEP_OWNER(l, Lobby_Member, wait);
        next = l->next;
        if (m->refuse_at != 0 && now >= m->refuse_at) {
            m->refuse_at = 0;
            m->done = 0;
            member_error(m, LOBBY_ERR_RATE);
        } else if (m->retry_at != 0 && now >= m->retry_at) {
            m->retry_at = 0; /* its turn: the WATCH again */
            message(m, m->held, LOBBY_LEN_WATCH, now);
        } else if (m->room == NULL && !m->done && m->pooled == NULL &&
                   now - m->since >= rs->lim.hello_timeout_ms) {
            rs->stats.hello_timeouts++;
            member_error(m, LOBBY_ERR_TIMEOUT);
        }
        if (m->refuse_at == 0 && m->retry_at == 0 &&
            (m->room != NULL || m->done || m->pooled != NULL))
            sweep_del(&rs->waiting, l); /* nothing more is due for it */
        l = next;
    }
    for (l = rs->due; l != NULL; l = next) {
        Lobby_Room *r = SWEEP_OWNER(l, Lobby_Room, due);
        next = l->next;
        if (!r->empty &&
            (rs->store_ops != NULL || r->guest_joined || r->seat[0] != NULL)) {
            sweep_del(&rs->due, l); /* in use: nothing is due for it */
        } else if (rs->store_ops != NULL) {
            /* A copy of a Redis room: kept while members here use it. */
            if (r->empty)
                room_drop(rs, r);
        } else if (r->empty && now - r->empty_since >= empty_for(rs, r)) {
            /* (a finished game's room goes sooner) */
            room_drop(rs, r);
        } else if (!r->guest_joined && r->seat[0] == NULL && !kept(r) &&
                   now - r->host_left >= rs->lim.unjoined_room_ms) {
            /* No game began and its host is gone: the room only held a
             * share of the lobby. Its spectators are told it is over. */
            while (r->spect != NULL) {
                Lobby_Member *s = r->spect;
                member_leave(s, now);
                member_error(s, LOBBY_ERR_TIMEOUT);
            }
            rs->stats.unjoined_dropped++;
            room_drop(rs, r);
        }
    }
    lobby__sources_sweep(&rs->sources, now * 1000, rs->lim.max_sources);
    beat(rs, now);
}

const uint8_t *lobby__member_source(const Lobby_Member *m)
{
    static const uint8_t none[LOBBY_SOURCE_KEY] = {0xff};
    return m->src != NULL ? m->src->key : none;
}

uint32_t lobby__member_factor(const Lobby_Member *m)
{
    return m->src != NULL ? m->src->factor : 1;
}

void lobby__refuse(Lobby_Member *m, int code)
{
    if (code == LOBBY_ERR_FLOOD && !m->done) /* its frames in flight
                                                 are refused too */
        m->rs->stats.dropped_flood++;
    member_error(m, code);
}

void lobby__drop_members(Lobby_Rooms *rs)
{
    for (Lobby_Member *m = rs->members; m != NULL; m = m->next)
        if (!m->ops->is_closing(m->link))
            member_drop(m, LOBBY_CLOSE_GONE);
}

Lobby_Room *lobby__replica(Lobby_Rooms *rs,
                           const uint8_t inv[LOBBY_LOOKUP_BYTES],
                           const uint8_t wat[LOBBY_LOOKUP_BYTES],
                           const uint8_t pk[LOBBY_KEY_BYTES], Lobby_Member *m)
{
    int kind;
    Lobby_Room *r = room_find(rs, inv, &kind);

    if (r != NULL)
        return kind == 0 ? r : NULL;
    if (rs->nrooms >= rs->lim.max_rooms)
        return NULL;
    r = room_new(rs, inv, wat, pk, m->src, 1);
    if (r == NULL)
        return NULL;
    r->empty = 1;
    rs->store_ops->watch(rs->store, inv);
    return r;
}

Lobby_Room *lobby__replica_find(Lobby_Rooms *rs,
                                const uint8_t inv[LOBBY_LOOKUP_BYTES])
{
    int kind;
    Lobby_Room *r = room_find(rs, inv, &kind);
    return r != NULL && kind == 0 ? r : NULL;
}

void lobby__replica_each(Lobby_Rooms *rs,
                         void (*fn)(void *user, const uint8_t *inv,
                                    const uint8_t *wat, const uint8_t *maker),
                         void *user)
{
    for (Lobby_Room *r = rs->rooms; r != NULL; r = r->next)
        if (!r->empty)
            fn(user, r->lookup[0], r->lookup[1],
               r->has_maker ? r->maker : NULL);
}

void lobby__replica_maker(Lobby_Room *r, const uint8_t key[LOBBY_SOURCE_KEY])
{
    memcpy(r->maker, key, LOBBY_SOURCE_KEY);
    r->has_maker = 1;
}

uint64_t lobby__replica_next(const Lobby_Room *r)
{
    return r->next_seq;
}

int lobby__replica_frame(Lobby_Rooms *rs, Lobby_Room *r, uint64_t seq, int from,
                         uint64_t t, const uint32_t absent[2],
                         const uint8_t *data, size_t n, int stream)
{
    Lobby_Entry *e;
    Proto_Receipt rc;

    if (seq < r->next_seq)
        return 0; /* had it */
    /* next_seq is Redis's next number once a member was admitted here
     * (lobby__replica_seen), even before the copy holds a frame. */
    if (seq > r->next_seq && (r->ring_count > 0 || r->next_seq > 0)) {
        if (!stream)
            return TB_E_STATE; /* a gap: the caller fetches what is missing */
        /* The stream no longer has the missing frames: the copy starts
         * again at seq; members that had not had them are too slow. */
        while (r->ring_count > 0)
            ring_evict(rs, r);
    }
    while (make_room(rs, r, from, LOBBY_FRAME_HEADER + n) != 0)
        ring_evict(rs, r); /* Redis has it already: the copy must follow */
    /* Redis's time as given: every node signs the same one */
    e = entry_new(rs, r, seq, from, t, absent, data, n, &rc);
    if (e == NULL)
        return TB_E_NOMEM;
    if (ring_push(rs, r, e) != 0) {
        free(e);
        return TB_E_NOMEM;
    }
    archive_frame(rs, r, seq, &rc, data, n);
    r->next_seq = seq + 1;
    if (t > r->last_time)
        r->last_time = t;
    rs->stats.frames_relayed++;
    for (int s = 0; s < 2; s++)
        if (r->seat[s] != NULL)
            member_pump(r->seat[s]);
    for (Lobby_Member *s = r->spect; s != NULL; s = s->snext)
        member_pump(s);
    return 0;
}

void lobby__replica_seen(Lobby_Room *r, uint64_t next_seq)
{
    if (r->ring_count == 0 && r->next_seq < next_seq)
        r->next_seq = next_seq;
}

void lobby__replica_claimed(Lobby_Room *r, int seat, uint64_t epoch,
                            uint64_t now)
{
    Lobby_Member *old = r->seat[seat];
    if (old == NULL || r->epoch[seat] >= epoch)
        return;
    member_leave(old, now);
    member_error(old, LOBBY_ERR_REPLACED);
}

void lobby__replica_guest(Lobby_Rooms *rs, Lobby_Room *r,
                          const uint8_t pk[LOBBY_KEY_BYTES])
{
    static const uint8_t none[LOBBY_KEY_BYTES];
    if (memcmp(pk, none, LOBBY_KEY_BYTES) != 0)
        seek_drop(rs, r); /* a guest holds the seat: taken */
    else if (memcmp(r->guest_pk, none, LOBBY_KEY_BYTES) != 0)
        r->seek_back = 1; /* given back: the host may list it again */
    memcpy(r->guest_pk, pk, LOBBY_KEY_BYTES);
}

void lobby__replica_presence(Lobby_Rooms *rs, Lobby_Room *r, int seat,
                             int present, uint64_t seq, uint64_t t)
{
    if (t > r->last_time)
        r->last_time = t;
    room_presence_at(rs, r, seat, present, seq, t);
}

void lobby__admit(Lobby_Member *m, Lobby_Room *r, int role, uint64_t from,
                  uint64_t epoch, int presence, uint64_t rtime, uint64_t now)
{
    if (role != LOBBY_ROLE_SPECTATOR) {
        r->epoch[role] = epoch;
        r->sending[role] = 0;
    }
    if (r->next_seq == 0)
        r->next_seq = 1;
    admit(m, r, role, from, presence, rtime, now);
}

void lobby__stored(Lobby_Member *m, size_t n)
{
    if (m->storing_n == 0 || m->storing < n)
        return;
    m->storing_n--;
    m->storing -= n;
    m->rs->storing -= n;
    if (m->src != NULL)
        m->src->storing -= n;
}

void lobby__acked(Lobby_Member *m, uint64_t seq, uint64_t t,
                  const uint32_t absent[2],
                  const uint8_t hash[PROTO_HASH_BYTES])
{
    Lobby_Room *r = m->room;

    if (r == NULL || m->role < 0 || m->role > 1)
        return;
    if (r->sending[m->role] > 0)
        r->sending[m->role]--;
    if (seq > m->acked)
        m->acked = seq;
    /* Its place in the copy already passed (the copy was cut back to a
     * later start, so its frame is no longer kept here): nothing earlier
     * is still to come. Its receipt is made from Redis's answer (the
     * same bytes the copy's would have had). */
    if (seq <= m->sent_seq && seq > m->ack_sent) {
        Proto_Receipt rc;
        memset(&rc, 0, sizeof rc);
        rc.kind = PROTO_RECEIPT_FRAME;
        rc.seq = seq;
        rc.time_ms = t;
        rc.absent_ms[0] = absent[0];
        rc.absent_ms[1] = absent[1];
        receipt_sign(m->rs, r, &rc, hash);
        member_ack(m, &rc);
    }
    member_pump(m);
}

/* ---- the node ---- */

int lobby_rooms_new(const Lobby_Limits *lim, Lobby_Rooms **out)
{
    Lobby_Rooms *rs = calloc(1, sizeof *rs);
    size_t nb = 64;

    *out = NULL;
    if (rs == NULL)
        return TB_E_NOMEM;
    if (lim != NULL)
        rs->lim = *lim;
    lobby_limits_default(&rs->lim);
    rs->sources.lim = &rs->lim;
    rs->by_bytes.key_off = offsetof(Lobby_Room, ring_bytes);
    rs->by_bytes.at_off = offsetof(Lobby_Room, heap_at);
    rs->by_pin.key_off = offsetof(Lobby_Member, pinned);
    rs->by_pin.at_off = offsetof(Lobby_Member, pin_at);
    while (nb < 2 * (size_t)rs->lim.max_rooms && nb < ((size_t)1 << 24))
        nb *= 2;
    rs->buckets[0] = calloc(nb, sizeof *rs->buckets[0]);
    rs->buckets[1] = calloc(nb, sizeof *rs->buckets[1]);
    if (rs->buckets[0] == NULL || rs->buckets[1] == NULL) {
        free(rs->buckets[0]);
        free(rs->buckets[1]);
        free(rs);
        return TB_E_NOMEM;
    }
    rs->nbuckets = nb;
    *out = rs;
    return 0;
}

void lobby_rooms_use_store(Lobby_Rooms *rs, const Lobby_Store_Ops *ops,
                           void *store)
{
    rs->store_ops = ops;
    rs->store = store;
}

void lobby_rooms_use_witness(Lobby_Rooms *rs, const Proto_Identity *key,
                             uint64_t (*wall_ms)(void *user), void *user)
{
    proto_identity_wipe(&rs->key);
    memset(rs->key.pk, 0, sizeof rs->key.pk);
    rs->keyed = key != NULL;
    if (key != NULL)
        rs->key = *key;
    rs->wall_ms = wall_ms;
    rs->wall_user = user;
}

Lobby_Ratings *lobby__rooms_ratings(const Lobby_Rooms *rs)
{
    return rs->ratings;
}

void lobby_rooms_use_ratings(Lobby_Rooms *rs, Lobby_Ratings *t)
{
    lobby_ratings_free(rs->ratings);
    rs->ratings = t;
}

void lobby_rooms_use_archive(Lobby_Rooms *rs, const Lobby_Archive_Ops *ops,
                             void *arch)
{
    rs->arch_ops = ops;
    rs->arch = arch;
}

void lobby_rooms_relay_key(const Lobby_Rooms *rs, uint8_t pk[LOBBY_KEY_BYTES])
{
    memcpy(pk, rs->key.pk, LOBBY_KEY_BYTES);
}

const Lobby_Limits *lobby_rooms_limits(const Lobby_Rooms *rs)
{
    return &rs->lim;
}

void lobby_rooms_close_links(Lobby_Rooms *rs)
{
    for (Lobby_Member *m = rs->members; m != NULL; m = m->next)
        if (m->ops->counted && !m->ops->is_closing(m->link))
            member_drop(m, LOBBY_CLOSE_SHUTDOWN);
}

size_t lobby_rooms_links(const Lobby_Rooms *rs)
{
    return rs->nlinks + rs->nholds;
}

void lobby_rooms_stats(const Lobby_Rooms *rs, Lobby_Stats *out)
{
    *out = rs->stats;
    out->rooms = rs->nrooms;
    out->conns = rs->nlinks + rs->nholds;
    out->conns_ws = rs->nlinks;
    out->conns_http = rs->nholds;
    out->members = rs->nmembers;
    out->transcript_bytes = rs->transcript_bytes;
    out->seeks = rs->nseeks;
}

uint64_t lobby_rooms_next_seq(const Lobby_Rooms *rs,
                              const uint8_t inv[LOBBY_LOOKUP_BYTES])
{
    int kind;
    const Lobby_Room *r = room_find(rs, inv, &kind);
    return r != NULL && kind == 0 ? r->next_seq : 0;
}

void lobby_rooms_free(Lobby_Rooms *rs)
{
    if (rs == NULL)
        return;
    while (rs->rooms != NULL)
        room_drop(rs, rs->rooms);
    while (rs->pooled != NULL) { /* (their members are gone already) */
        struct Lobby_Pooled *q = rs->pooled;
        rs->pooled = q->next;
        free(q);
    }
    pool_free(rs->pool);
    lobby_ratings_free(rs->ratings);
    lobby__sources_free(&rs->sources);
    proto_identity_wipe(&rs->key);
    free(rs->by_bytes.v);
    free(rs->by_pin.v);
    free(rs->buckets[0]);
    free(rs->buckets[1]);
    free(rs);
}
