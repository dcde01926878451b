/*
 * room.h: the relay's rooms without I/O: one node's rooms, their members
 * and the rules of admission, numbering, keeping and flooding, as a state
 * machine that is handed each message, each closed connection and the
 * time (ms, from the caller's monotonic clock), and reaches its members
 * only through the link operations its driver gives it. The libuv relay
 * (server.c, over framed TCP and WebSocket), its Redis backend (redis.c,
 * through Lobby_Store_Ops) and the simulator (sim/) all run this one
 * room. No libuv, no clock, no randomness of its own: the node's receipt
 * key and its wall clock come from the driver (lobby_rooms_use_witness).
 */
#ifndef TABULA_LOBBY_ROOM_H
#define TABULA_LOBBY_ROOM_H

#include <stddef.h>
#include <stdint.h>

#include "lobby_wire.h"

/* The largest lobby message a relay carries (bytes): net/'s frame cap
 * (server.c checks that net/ carries it). */
#define LOBBY_MESSAGE_MAX (16u * 1024u * 1024u)

/*
 * Lobby_Limits: the relay's limits. Zero in a field means the default in
 * brackets (lobby_limits_default fills them in).
 *   max_rooms            rooms at once [1000]
 *   max_conns            connections at once [4096]
 *   max_payload          bytes of one relayed frame's payload [98304]
 *   max_spectators       spectators of one room [64]
 *   transcript_frames    frames a room keeps; the oldest go first [4096]
 *   transcript_bytes     payload bytes a room keeps [4 MiB]
 *   max_write_queue      memory (bytes) one member's unwritten messages
 *                        may pin (each message's block and the
 *                        allocator's header, not its payload alone)
 *                        before it is dropped as a slow reader [1 MiB]
 *   write_queue_total    memory (bytes) all members' unwritten messages
 *                        together may pin, counted as max_write_queue
 *                        is [256 MiB; at least max_write_queue]; past
 *                        it the member that pins the most is dropped as
 *                        a slow reader (LOBBY_CLOSE_SLOW, dropped_slow),
 *                        then the next, until the total is met: a
 *                        member that keeps up pins next to nothing
 *                        (stalled spectators pin about half of
 *                        max_write_queue each: 10 GB at 20,000
 *                        connections without it)
 *   heartbeat_ms         net/ heartbeat interval [5000]
 *   idle_timeout_ms      net/ idle timeout [15000]
 *   hello_timeout_ms     a connection must create, join or watch within
 *                        this time [10000]
 *   empty_room_ms        a room with nobody in it is dropped after [600000]
 *   keep_room_ms         the longest a seat may ask (KEEP, lobby_wire.h) for
 *                        its room to be kept empty instead of
 *                        empty_room_ms: a correspondence game's
 *                        [2592000000, 30 days; at most empty_room_ms:
 *                        no room is kept longer]
 *   guess_burst          wrong codes a source address may send in a row
 *                        [5]
 *   guess_refill_ms      one more allowed wrong code per this interval
 *                        [6000], i.e. 10 a minute per address
 *   guess_global_per_s   wrong codes per second from all addresses
 *                        together [100]
 *   max_sources          source addresses tracked for the rate limit
 *                        [8192] (those holding a connection or a room are
 *                        always tracked)
 * Per source address (an IPv4 address or an IPv6 /64), each a share of a
 * lobby-wide resource:
 *   source_conns         connections at once [64]; a further one is
 *                        answered ADDRESS and closed
 *   source_rooms         rooms it created that the lobby holds [16]
 *   source_bytes         payload bytes kept in the rooms it created
 *                        [16 MiB]; past it the oldest frames of its
 *                        largest room go first
 *   kept_bytes           payload bytes kept in all rooms together
 *                        [256 MiB]; past it the oldest frames of the
 *                        largest room go first
 *   unjoined_room_ms     a room no guest ever joined is dropped this long
 *                        after its host left [30000]
 *   rate_delay_ms        a wrong code over the guess limit is answered
 *                        RATE only after this delay, holding the
 *                        connection [5000] (a right code is admitted at
 *                        once, never refused by the guess limit)
 *   (a trusted network's addresses, lobby_limits_trust: each of these
 *   three shares times LOBBY_TRUST_FACTOR)
 * Frames on their way to the store (Redis), not yet numbered by it:
 *   store_frames         of one member [16]; one more closes it FLOOD
 *   store_source_bytes   payload bytes of one address's members [4 MiB]
 *                        (times the trust factor); past it FLOOD
 *   store_bytes          payload bytes of the whole node [64 MiB]; past
 *                        it the frame is refused FULL (a seat tries
 *                        again), so a node never queues more for Redis
 *                        (the relay-limits issue: 3,000 frames of 97 KB
 *                        in 0.4 s took a node to 571 MiB and lost Redis)
 *   redis_deadline_ms    with Redis (lobby_use_redis): a health check
 *                        (a PING on each command connection and a
 *                        message to this node on its channel connection,
 *                        each second) unanswered for this long means
 *                        Redis hangs: it is lost, as if it had closed
 *                        its connections [3000]
 * Public seeks (issue 37; docs/protocol-lobby.md "Seeks"):
 *   max_seeks            open seeks on the node [10000]
 *   source_seeks         open seeks of the rooms one address created [8]
 *                        (times the trust factor)
 *   key_seeks            open seeks of one host key [4]
 *   (past any, SEEK is answered SEEKS or FULL and the room stays, not
 *   listed; an address may ask for the list LOBBY_LIST_BURST times at
 *   once and once more each LOBBY_LIST_REFILL_MS, times its trust
 *   factor: past it, RATE)
 * A seated player whose frame would make the room drop a frame the other
 * seat has not been sent (the other seat reads too slowly, or is away) is
 * closed with FLOOD instead of that seat being dropped as a slow reader.
 */
/* The most days keep_room_ms may be set to (it is ms in a uint32_t). */
#define LOBBY_KEEP_DAYS_MAX 49u
#define LOBBY_TRUST_MAX 16
#define LOBBY_TRUST_FACTOR 16

typedef struct Lobby_Limits {
    uint32_t max_rooms;
    uint32_t max_conns;
    uint32_t max_payload;
    uint32_t max_spectators;
    uint32_t transcript_frames;
    size_t transcript_bytes;
    size_t max_write_queue;
    size_t write_queue_total;
    uint32_t heartbeat_ms;
    uint32_t idle_timeout_ms;
    uint32_t hello_timeout_ms;
    uint32_t empty_room_ms;
    uint32_t guess_burst;
    uint32_t guess_refill_ms;
    uint32_t guess_global_per_s;
    uint32_t max_sources;
    uint32_t source_conns;
    uint32_t source_rooms;
    size_t source_bytes;
    size_t kept_bytes;
    uint32_t unjoined_room_ms;
    uint32_t rate_delay_ms;
    uint32_t redis_deadline_ms;
    uint32_t store_frames;
    size_t store_source_bytes;
    size_t store_bytes;
    uint32_t max_seeks;
    uint32_t source_seeks;
    uint32_t key_seeks;
    uint32_t keep_room_ms;
    /* Trusted networks (lobby_limits_trust): an address in one has
     * LOBBY_TRUST_FACTOR times each per-address share. */
    uint32_t ntrust;
    uint8_t trust_net[LOBBY_TRUST_MAX][17]; /* family (4, 6), address */
    uint8_t trust_bits[LOBBY_TRUST_MAX];    /* the prefix's length */
} Lobby_Limits;

/*
 * lobby_limits_trust: trust the network cidr ("A.B.C.D/N" or
 * "IPV6/N"; no "/N": that one address): its addresses (each a source as
 * above: an IPv4 address, or an IPv6 /64, so an IPv6 prefix longer than
 * 64 trusts its whole /64) get LOBBY_TRUST_FACTOR times each
 * per-address share (connections, rooms, kept bytes), e.g. a club
 * whose players share one address behind NAT. Errors: TB_E_ARG (not an
 * address, or N past 32 or 128), TB_E_LIMIT (LOBBY_TRUST_MAX networks
 * already).
 */
int lobby_limits_trust(Lobby_Limits *lim, const char *cidr);

/* lobby_limits_trust_text: trusted network i of lim as "ADDRESS/BITS",
 * the bits past its prefix cleared (e.g. "10.0.0.1/8" was read as
 * "10.0.0.0/8"), into out (cap bytes, NUL included). Errors: TB_E_ARG
 * (no network i), TB_E_LIMIT (cap too small). */
int lobby_limits_trust_text(const Lobby_Limits *lim, uint32_t i, char *out,
                            size_t cap);

/* Fill every zero field of lim with its default (see Lobby_Limits). */
void lobby_limits_default(Lobby_Limits *lim);

/* Refusals are counted by their ERROR code (docs/protocol-lobby.md,
 * 1..12); index 0 is never used. */
#define LOBBY_REFUSAL_CODES 13

/* Counters of a running lobby (the uint64_t ones only ever grow; the
 * size_t ones are counts now). */
typedef struct Lobby_Stats {
    size_t rooms;
    size_t conns;              /* every connection: the three below */
    size_t conns_tcp;          /* framed TCP, members or not yet (net/) */
    size_t conns_ws;           /* WebSocket members (lobby/http.c) */
    size_t conns_http;         /* the web port's other connections: pages
                                  and /metrics being fetched, upgrades */
    size_t members;            /* seated players and spectators */
    size_t transcript_bytes;   /* payload bytes kept, all rooms */
    uint64_t frames_relayed;   /* frames accepted from players */
    uint64_t bad_codes;        /* wrong codes answered */
    uint64_t rate_limited;     /* requests refused by the guess limit */
    uint64_t dropped_slow;     /* members dropped as slow readers */
    uint64_t protocol_errors;  /* connections closed for bad messages */
    uint64_t hello_timeouts;   /* connections closed for saying nothing */
    uint64_t idle_timeouts;    /* framed TCP connections closed when nothing
                                  came for the idle timeout (not even a
                                  heartbeat) */
    uint64_t refused_address;  /* connections and rooms over an address's
                                  share */
    uint64_t dropped_flood;    /* players closed for outrunning the other
                                  seat */
    uint64_t evicted_shared;   /* frames dropped for an address's or the
                                  lobby's byte cap */
    uint64_t unjoined_dropped; /* rooms dropped with no guest ever */
    uint64_t watches_delayed;  /* WATCHes that waited their address's
                                  turn (Redis) */
    uint64_t bytes_in;         /* lobby messages' bytes received, every
                                  transport (without its framing) */
    uint64_t bytes_out;        /* lobby messages' bytes queued to send */
    uint64_t refusals[LOBBY_REFUSAL_CODES]; /* ERRORs sent, by code */
    /* Open seeks (issue 37) whose host is on this node (with Redis the
     * lobby's list holds every node's); /metrics: tabula_lobby_seeks. */
    size_t seeks;
    /* With Redis (lobby_use_redis) only, else all 0: its health check's
     * round trips (a PING on each connection and a message through the
     * node's own channel, all answered), once a second. */
    int redis;                 /* 1: the rooms are kept in Redis */
    uint64_t redis_rtt_last_us; /* the last check's round trip (us) */
    uint64_t redis_rtt_sum_us; /* every check's round trip added (us) */
    uint64_t redis_rtt_count;  /* checks answered */
} Lobby_Stats;

/* ---- the rooms of one node ------------------------------------------ */

typedef struct Lobby_Rooms Lobby_Rooms;
typedef struct Lobby_Member Lobby_Member;

/* How the relay reaches a member: net/'s framed TCP (server.c), a
 * WebSocket (http.c) or a simulated connection (sim/). Each lobby
 * message is one frame or one binary WebSocket message. */
typedef struct Lobby_Link_Ops {
    /* Queue msg; nonzero when the link failed (it then closes itself). */
    int (*send)(void *link, const uint8_t *msg, size_t len);
    /* Bytes queued and not yet written. */
    size_t (*queued)(const void *link);
    /* Closing already: send nothing more. */
    int (*is_closing)(const void *link);
    /* Close; flush: after what is queued is written (an ERROR reaches
     * the peer); reason: a LOBBY_CLOSE_*. The rooms learn it later,
     * through lobby_rooms_closed (never from inside this call). */
    void (*close)(void *link, int flush, int reason);
    /* 1: the rooms count this transport's links against max_conns (net/
     * caps its own accepts; a WebSocket's are counted here). */
    int counted;
} Lobby_Link_Ops;

/* Why the rooms close a link (the reason given to close). */
enum {
    LOBBY_CLOSE_ANSWERED = 1, /* after an ERROR */
    LOBBY_CLOSE_SLOW,         /* dropped as a slow reader */
    LOBBY_CLOSE_GONE,         /* the store (Redis) is gone */
    LOBBY_CLOSE_SHUTDOWN,     /* the relay is closing */
    LOBBY_CLOSE_REFUSED       /* after an ERROR to a member in no room,
                               * within its shares: the transport may hold
                               * the link LOBBY_REFUSED_HOLD_MS first */
};

struct Pool_Offer; /* lobby/pool.h */

/* Where rooms live when several nodes share them (redis.c); NULL
 * operations: in memory, here. The rooms hand the store what it must
 * number or settle atomically; the store answers through the
 * lobby__replica_* and lobby__admit functions of room_internal.h. */
typedef struct Lobby_Store_Ops {
    /* A CREATE, JOIN or WATCH message p from m (checked for length and
     * version): looked up in the store, which admits or refuses m later. */
    void (*hello)(void *store, Lobby_Member *m, const uint8_t *p);
    /* A frame from m, of seat with claim number epoch in the room of
     * invite lookup inv: numbered by the store, then acknowledged. */
    void (*data)(void *store, Lobby_Member *m, const uint8_t *inv, int seat,
                 uint64_t epoch, const uint8_t *data, size_t n);
    /* The member of seat (claim number epoch) in the room of invite
     * lookup inv (watch lookup wat; made from the source of key maker,
     * NULL: not known) said DONE. */
    void (*done)(void *store, const uint8_t *inv, const uint8_t *wat,
                 const uint8_t *maker, int seat, uint64_t epoch);
    /* The member of seat (claim number epoch) left the room of inv. */
    void (*leave)(void *store, const uint8_t *inv, int seat, uint64_t epoch);
    /* The member of seat (claim epoch) was sent the frames up to seq. */
    void (*had)(void *store, const uint8_t *inv, int seat, uint64_t epoch,
                uint64_t seq);
    /* m is going: no answer about it may touch it. */
    void (*forget)(void *store, Lobby_Member *m);
    /* Start / stop following the room of invite lookup inv (its copy
     * here was made / is gone). */
    void (*watch)(void *store, const uint8_t *inv);
    void (*unwatch)(void *store, const uint8_t *inv);
    /* Public seeks (issue 37): the host m of the room of inv lists the
     * card[0..n) (checked) of game, within its player's (key owner's),
     * its address's and the lobby's shares; the store answers
     * lobby__seeked. */
    void (*seek)(void *store, Lobby_Member *m, const uint8_t *inv,
                 const uint8_t *card, size_t n, const char *game,
                 const uint8_t *owner, const char *rated);
    /* m asks for the open seeks of game ("": all); the store answers
     * lobby__listed. */
    void (*seeks)(void *store, Lobby_Member *m, const char *game);
    /* The pool (issue 37; NULL: the node pairs its own offers): m's
     * offer o (its id and arrival the store's to give; the seat's invite
     * code inv, seat key seat_pk and match options, its card's) joins
     * the lobby's pool;
     * the store answers lobby__pool_filed, then lobby__pool_paired,
     * lobby__pool_refused and lobby__pool_told as the lobby pairs and
     * counts. unpool: the offer id left (its member is gone). */
    void (*pool)(void *store, Lobby_Member *m, const struct Pool_Offer *o,
                 const Lobby_Code *inv, const uint8_t *seat_pk,
                 const char *options);
    void (*unpool)(void *store, uint64_t id);
    /* A seat's KEEP (lobby_wire.h): the room of invite lookup inv (watch
     * lookup wat, made from the source of key maker, NULL: not known) is
     * kept keep_ms (ms, within keep_room_ms) after its last member. */
    void (*keep)(void *store, const uint8_t *inv, const uint8_t *wat,
                 const uint8_t *maker, uint32_t keep_ms);
} Lobby_Store_Ops;

/*
 * lobby_rooms_new: an empty node with limits lim (lobby_limits_default
 * applied to a copy; NULL: defaults). Errors: TB_E_NOMEM.
 */
int lobby_rooms_new(const Lobby_Limits *lim, Lobby_Rooms **out);

/* lobby_rooms_use_store: keep rooms in store (ops for its operations)
 * instead of here; before the first member. */
void lobby_rooms_use_store(Lobby_Rooms *rs, const Lobby_Store_Ops *ops,
                           void *store);

/*
 * Ratings the pool pairs by (issue 38; docs/pool.md "Rated offers"): a
 * table of players by fingerprint (proto_fingerprint's text), each with a
 * rating (whole points, 1..65535) for a game (its index in the core
 * catalogue, as POOL's bits) and a time-control class (Proto_Clock_Class).
 * The driver reads the relay's published list into one
 * (lobby_ratings_add, Errors: TB_E_ARG for a field out of range,
 * TB_E_NOMEM) and hands it to the rooms (lobby_rooms_use_ratings takes
 * it, freeing the one before; NULL: none, everyone a newcomer). An offer
 * takes its player's ratings from the table when it comes.
 */
typedef struct Lobby_Ratings Lobby_Ratings;
int lobby_ratings_new(Lobby_Ratings **out);
int lobby_ratings_add(Lobby_Ratings *t, const char *fingerprint,
                      unsigned game, unsigned klass, unsigned rating);
/* lobby_ratings_game: game index game is named name (a rated seek's
 * card names its game; the pool's bits number them). Errors: TB_E_ARG. */
int lobby_ratings_game(Lobby_Ratings *t, unsigned game, const char *name);
void lobby_ratings_free(Lobby_Ratings *t); /* NULL is fine */
size_t lobby_ratings_count(Lobby_Ratings *t); /* players in t */
void lobby_rooms_use_ratings(Lobby_Rooms *rs, Lobby_Ratings *t);

/*
 * Lobby_Archive_Ops: a driver that keeps what the node relays as match
 * logs (tabula lobby --archive; lobby/archive.c). frame: frame seq of a
 * room, numbered and kept here, with the node's receipt rc and the
 * seat's payload data[n] (its envelope), called for every frame in order
 * from the first frame the room's copy here had; *h is the room's handle
 * for the driver, NULL at first (still NULL after 4 frames: nothing more
 * of that room is given). end: no more frames of h come; whole is
 * 0 when one was missed (the copy lost frames), 1 when the room's game
 * ended (both seats said DONE) or the room went.
 */
typedef struct Lobby_Archive_Ops {
    void (*frame)(void *arch, void **h,
                  const uint8_t host_pk[LOBBY_KEY_BYTES],
                  const struct Proto_Receipt *rc, const uint8_t *data,
                  size_t n);
    void (*end)(void *arch, void *h, int whole);
} Lobby_Archive_Ops;

/* lobby_rooms_use_archive: give every frame to ops (arch its first
 * argument); before the first member. */
void lobby_rooms_use_archive(Lobby_Rooms *rs, const Lobby_Archive_Ops *ops,
                             void *arch);

/*
 * lobby_rooms_use_witness: the node signs its receipts (proto.h, "relay
 * receipts": one for each frame it numbers or relays, one for each
 * presence change) with key (copied, wiped at lobby_rooms_free; its
 * public key is in every WELCOME) and reads its receipt clock from
 * wall_ms(user): ms since the Unix epoch (the driver's CLOCK_REALTIME,
 * or simulated time; NULL: 0). A room's receipt times never go down: a
 * receipt's time is the larger of that clock and the room's last one.
 * With a store (lobby_rooms_use_store) the times come from the store
 * instead (Redis's clock) and wall_ms is not asked. Before this call (or
 * with key NULL) the node has no key: its receipts carry a zero key and
 * signature, which verify as nothing. Call it before the first member.
 */
void lobby_rooms_use_witness(Lobby_Rooms *rs, const Proto_Identity *key,
                             uint64_t (*wall_ms)(void *user), void *user);

/* lobby_rooms_relay_key: the node's receipt key (the public half; zeros
 * before lobby_rooms_use_witness) into pk. */
void lobby_rooms_relay_key(const Lobby_Rooms *rs, uint8_t pk[LOBBY_KEY_BYTES]);

/* lobby_rooms_limits: the limits in force (defaults filled in). */
const Lobby_Limits *lobby_rooms_limits(const Lobby_Rooms *rs);

/*
 * lobby_rooms_member: a new connection on link (its operations ops) from
 * peer_host (a numeric IPv4 or IPv6 address; anything else counts as one
 * shared unknown address) at now (ms), counted against its address's and
 * the node's connection shares (answered ADDRESS or FULL and closed when
 * over). NULL: out of memory (close the link yourself).
 */
Lobby_Member *lobby_rooms_member(Lobby_Rooms *rs, const Lobby_Link_Ops *ops,
                                 void *link, const char *peer_host,
                                 uint64_t now);

/* The frames one address's seats may send: LOBBY_DATA_BURST at once and
 * one more each LOBBY_DATA_REFILL_US (us), times its trust factor; a
 * seat past that is closed FLOOD (the relay-limits issue's abuse
 * benchmark: 1 KB frames sent without pause from 16 rooms of one address
 * took a game's round trip from 0.1 ms to 320 ms). A game sends a few
 * frames a minute; bots at full speed, a few hundred a second.
 * The node's total and who is a heavy sender count units: a frame is one
 * unit and one more per whole LOBBY_DATA_UNIT_BYTES of its payload (a
 * move, a few hundred bytes, 1; a 96 KiB frame 97): 96 KiB frames from
 * 100 addresses, counted as frames, held a game's round trip at 221 ms. */
#define LOBBY_DATA_UNIT_BYTES 1024
#define LOBBY_DATA_BURST 1024
#define LOBBY_DATA_REFILL_US 2000

/* The units (as above) the whole node takes: LOBBY_DATA_NODE_BURST at
 * once and one more each LOBBY_DATA_NODE_REFILL_US (us), about what a
 * core relays with time to spare. Past it, a frame from an address that
 * has sent more than LOBBY_DATA_HEAVY units of late (its units metered
 * as its frames are: LOBBY_DATA_BURST at most, one more each
 * LOBBY_DATA_REFILL_US; a heavy sender) closes its
 * seat FLOOD; the others' frames still go (the node's budget is a soft
 * total). 100 addresses each at its own share (50,000 1 KB frames a
 * second) held a game's round trip at 42 ms on a 2-core machine. */
#define LOBBY_DATA_NODE_BURST 8192
#define LOBBY_DATA_NODE_REFILL_US 50
#define LOBBY_DATA_HEAVY 64

/* With Redis, a WATCH of a room that has no copy on the node brings its
 * transcript from Redis; an address may do so LOBBY_WATCH_BURST times at
 * once and once more each LOBBY_WATCH_REFILL_MS (ms), times its trust
 * factor; a WATCH past that waits its turn, within hello_timeout_ms. */
#define LOBBY_WATCH_BURST 8
#define LOBBY_WATCH_REFILL_MS 1000

/* A list of the open seeks (SEEKS) may be asked by an address
 * LOBBY_LIST_BURST times at once and once more each LOBBY_LIST_REFILL_MS
 * (ms), times its trust factor: a list of 10,000 seeks is about 2.5 MB
 * to send. */
#define LOBBY_LIST_BURST 4
/* A member whose offer waits in the pool (POOL) is told the offers
 * waiting for each game (POOL_WAIT) when it comes and as they change, at
 * most once each LOBBY_POOL_TELL_MS (ms). */
#define LOBBY_POOL_TELL_MS 1000
#define LOBBY_LIST_REFILL_MS 2000

/* Holds may go this far over an address's (and the node's) connection
 * share, so that a browser's WebSocket over it is upgraded and told why
 * (ADDRESS or FULL) instead of being cut at its HTTP request. The node's
 * slack comes out of the descriptors it keeps free (cmd_lobby.c). */
#define LOBBY_HOLD_SLACK_SOURCE 4
#define LOBBY_HOLD_SLACK_TOTAL 16

/* A member refused in no room and within its address's connection share
 * (a wrong code, a full room share, a bad hello) is answered at once and its
 * connection then held this long (ms), unread, before it is closed
 * (LOBBY_CLOSE_REFUSED): a peer that reconnects as fast as it is closed
 * and never reads the answer costs the relay one connection per this
 * time instead of one per turn of its loop (docs/reliability.md). It
 * stays in its address's share while held. */
#define LOBBY_REFUSED_HOLD_MS 2000
/* At most this many of an address's connections (times its trust
 * factor), and a quarter of the node's max_conns in all, are held so;
 * past it a refused connection is closed at once. */
#define LOBBY_REFUSED_HOLD_SOURCE 16

/*
 * lobby_rooms_hold: a connection from peer_host that is not a member (an
 * HTTP request, a WebSocket before its upgrade), counted against its
 * address's and the node's connection shares like a member (up to the
 * slack above), until lobby_rooms_unhold(rs, the same peer_host).
 * 0: held; LOBBY_ERR_ADDRESS (the address's share is full) or
 * LOBBY_ERR_FULL (the node's): not held, close it; TB_E_NOMEM.
 */
int lobby_rooms_hold(Lobby_Rooms *rs, const char *peer_host);

/* lobby_rooms_unhold: give back a hold of lobby_rooms_hold. */
void lobby_rooms_unhold(Lobby_Rooms *rs, const char *peer_host);

/* lobby_rooms_message: one whole lobby message from m (len >= 1 bytes) at
 * now (ms): a hello, a frame to relay, or anything else (refused). */
void lobby_rooms_message(Lobby_Member *m, const uint8_t *p, size_t len,
                         uint64_t now);

/* lobby_rooms_drained: m's link queue drained: send what it has not had. */
void lobby_rooms_drained(Lobby_Member *m);

/* lobby_rooms_timed_out: m's link is closing because nothing came on it
 * for the idle timeout (counted: idle_timeouts); lobby_rooms_closed
 * follows as for any close. */
void lobby_rooms_timed_out(Lobby_Member *m);

/* lobby_rooms_closed: m's link is closed at now (ms): the member is gone
 * and freed (NULL is fine). */
void lobby_rooms_closed(Lobby_Member *m, uint64_t now);

/* lobby_rooms_sweep: housekeeping at now (ms), due every 250 ms: late
 * answers, connections silent past hello_timeout_ms, rooms empty past
 * empty_room_ms or left by their host before a guest came. */
void lobby_rooms_sweep(Lobby_Rooms *rs, uint64_t now);

/* lobby_rooms_close_links: close every member whose transport is counted
 * here (ops->counted); the others' transport closes them itself. */
void lobby_rooms_close_links(Lobby_Rooms *rs);

/* lobby_rooms_links: members on counted transports, and holds, still
 * open. */
size_t lobby_rooms_links(const Lobby_Rooms *rs);

/* lobby_rooms_stats: the counters (conns: the counted links, conns_ws,
 * and the holds, conns_http; conns_tcp and the Redis fields 0: the
 * driver's, lobby_stats). */
void lobby_rooms_stats(const Lobby_Rooms *rs, Lobby_Stats *out);

/* lobby_rooms_next_seq: the number the room of invite lookup inv gives
 * its next frame (0: no such room here). */
uint64_t lobby_rooms_next_seq(const Lobby_Rooms *rs,
                              const uint8_t inv[LOBBY_LOOKUP_BYTES]);

/* lobby_rooms_free: drop every room; the members must be gone already
 * (lobby_rooms_closed for each). NULL is fine. */
void lobby_rooms_free(Lobby_Rooms *rs);

#endif /* TABULA_LOBBY_ROOM_H */
