/*
 * lobby_internal.h: what the files of lobby/ share beyond the public
 * header: the control messages (wire_internal.h, also used without libuv
 * by the client codec wire.c), members on any transport, the relay's
 * per-source accounting (source.c) and rooms kept in Redis (redis.c).
 * Never included from another folder.
 */
#ifndef TABULA_LOBBY_INTERNAL_H
#define TABULA_LOBBY_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "lobby.h"
#include "wire_internal.h"

/* ---- members on any transport (server.c, http.c) ---- */

typedef struct Lobby_Member Lobby_Member; /* server.c */

/* How the relay reaches a member: net/'s framed TCP (server.c) or a
 * WebSocket (http.c). Each lobby message is one frame or one binary
 * WebSocket message. */
typedef struct Lobby_Link_Ops {
    /* Queue msg; nonzero when the link failed (it then closes itself). */
    int (*send)(void *link, const uint8_t *msg, size_t len);
    /* Bytes queued and not yet written. */
    size_t (*queued)(const void *link);
    /* Closing already: send nothing more. */
    int (*is_closing)(const void *link);
    /* Close; flush: after what is queued is written (an ERROR reaches
     * the peer). The member learns it through lobby__member_closed. */
    void (*close)(void *link, int flush, int reason);
} Lobby_Link_Ops;

/* A new member on link, from peer_host (a numeric address), counted
 * against its source's and the lobby's connection shares (refused with
 * an ERROR when over). NULL when out of memory or the lobby is closing. */
Lobby_Member *lobby__member_new(Lobby *lb, const Lobby_Link_Ops *ops,
                                void *link, const char *peer_host);

/* One whole lobby message from the member (len >= 1). */
void lobby__member_frame(Lobby_Member *m, const uint8_t *p, size_t len);

/* Its link's queue drained: send what it has not had. */
void lobby__member_drain(Lobby_Member *m);

/* Its link is closed: the member is gone (NULL is fine). */
void lobby__member_closed(Lobby_Member *m);

/* The lobby's limits (defaults filled in). */
const Lobby_Limits *lobby__limits(const Lobby *lb);

/* ---- per-source accounting (source.c) ---- */

/* A source's key: a family byte (4, 6, or 0xff for a peer net/ could not
 * name), then the IPv4 address or the IPv6 /64, zero-padded. */
#define LOBBY_SOURCE_KEY 9
#define LOBBY_SOURCE_BUCKETS 1024

typedef struct Lobby_Source {
    uint8_t key[LOBBY_SOURCE_KEY];
    uint64_t tat;   /* guess bucket: GCRA theoretical arrival time, us */
    uint32_t conns; /* connections open from it */
    uint32_t rooms; /* rooms it created that the lobby still holds */
    size_t bytes;   /* transcript bytes kept in those rooms */
    struct Lobby_Source *next;
} Lobby_Source;

typedef struct Lobby_Sources {
    Lobby_Source *buckets[LOBBY_SOURCE_BUCKETS];
    size_t n;
} Lobby_Sources;

/* The key of host (a numeric IPv4 or IPv6 address as net/ names a peer).
 * Errors: TB_E_ARG (not an address: the key is the shared "unknown"). */
int lobby__source_key(const char *host, uint8_t key[LOBBY_SOURCE_KEY]);

/* The source of host, made when missing (each is made for a connection,
 * so their number is bounded by connections, plus those that linger for
 * their guess budget: see lobby__sources_sweep). NULL: out of memory. */
Lobby_Source *lobby__source_get(Lobby_Sources *t, const char *host);

/* Forget sources that hold nothing and whose guess bucket is full (or,
 * while more than max_sources exist, that hold nothing). */
void lobby__sources_sweep(Lobby_Sources *t, uint64_t now_us,
                          size_t max_sources);

/* Free every source. */
void lobby__sources_free(Lobby_Sources *t);

/* Is a wrong code from s (may be NULL) over the limit now (its own
 * bucket, or the lobby-wide one whose state is global_tat)? */
int lobby__guess_limited(const Lobby_Source *s, uint64_t global_tat,
                         const Lobby_Limits *lim, uint64_t now_us);

/* Count one wrong code against s (may be NULL) and the whole lobby. */
void lobby__guess_count(Lobby_Source *s, uint64_t *global_tat,
                        const Lobby_Limits *lim, uint64_t now_us);

/* ---- where Redis commands go (redis_cluster.c), with --redis ---- */

/* One Redis, or the masters of a Redis Cluster with a map of its slots. */
typedef struct Lobby_Rc Lobby_Rc;
struct redisReply;
/* A command's answer; reply NULL: the connection went first. */
typedef void Lobby_Rc_Fn(void *priv, struct redisReply *reply);

/* Redis at host:port (database db), asked with a blocking CLUSTER SLOTS
 * (waiting at most wait_ms) whether it is a cluster; then connected on
 * loop (a connection per master). gone(user) is called whenever one of
 * its connections goes. Errors: TB_E_IO (unreachable, refusing, or a
 * cluster whose slots are not all served), TB_E_ARG (db not 0 on a
 * cluster), TB_E_LIMIT (more than 64 masters), TB_E_NOMEM. */
int lobby__rc_new(uv_loop_t *loop, const char *host, int port, int db,
                  int wait_ms, void (*gone)(void *user), void *user,
                  Lobby_Rc **out);
/* The cluster slot (0..16383) of a key of n bytes: CRC16 of its hash tag
 * (the bytes between its first '{' and the next '}', if not empty), else
 * of the whole key. */
unsigned lobby__rc_slot(const char *key, size_t n);
/* Send argv (argc strings of argl bytes) to the master of the slot of
 * key; fn(priv, answer) once answered (after following MOVED and ASK).
 * Errors: TB_E_IO (not sent; fn is not called), TB_E_STATE (closing),
 * TB_E_NOMEM. */
int lobby__rc_command(Lobby_Rc *rc, const char *key, size_t keylen,
                      Lobby_Rc_Fn *fn, void *priv, int argc,
                      const char **argv, const size_t *argl);
/* cmd key [arg] (strings), its answer ignored. */
int lobby__rc_command1(Lobby_Rc *rc, const char *cmd, const char *key,
                       const char *arg);
/* An asynchronous hiredis connection to host:port on loop, its data
 * data, connected(ac, status) once connected or not (a failed connect
 * gets no gone), gone(ac, status) once disconnected. Errors: TB_E_NOMEM,
 * TB_E_IO. */
struct redisAsyncContext;
typedef void Lobby_Rc_Status_Fn(const struct redisAsyncContext *ac,
                                int status);
int lobby__rc_attach(uv_loop_t *loop, const char *host, int port,
                     void *data, Lobby_Rc_Status_Fn *connected,
                     Lobby_Rc_Status_Fn *gone, struct redisAsyncContext **out);
/* 1 for a cluster. */
int lobby__rc_is_cluster(const Lobby_Rc *rc);
/* The masters known (those of the map, and any a MOVED or ASK named),
 * connected or not: how many, and the host (port in *port) of the i-th
 * (NULL when i is out of range). */
int lobby__rc_node_count(const Lobby_Rc *rc);
const char *lobby__rc_node_addr(const Lobby_Rc *rc, int i, int *port);
/* Connections not yet gone. */
int lobby__rc_open(const Lobby_Rc *rc);
/* Disconnect every connection (gone is called for each). */
void lobby__rc_disconnect(Lobby_Rc *rc);
/* A PING on every open connection; fn(priv, answer) for each answer
 * (answer NULL: the connection went first). Returns how many were sent.
 * A later call replaces fn and priv for answers still awaited. */
int lobby__rc_ping(Lobby_Rc *rc, Lobby_Rc_Fn *fn, void *priv);
/* Free every connection now, without waiting for answers (Redis hangs,
 * so a clean disconnect would wait forever): awaited answers are called
 * with NULL at once, gone is not called. Never from inside a hiredis
 * callback. */
void lobby__rc_abort(Lobby_Rc *rc);
/* Free (NULL is fine); after its connections are gone. */
void lobby__rc_free(Lobby_Rc *rc);

/* ---- whether Redis answers (redis_health.c), with --redis ---- */

#define LOBBY_HEALTH_OWN_LEN 21 /* "tb:n:" and 16 hex digits */

/* The health check of one node's Redis connections (redis.c owns it). */
typedef struct Lobby_Health {
    char own[LOBBY_HEALTH_OWN_LEN + 1]; /* the node's own channel */
    uint32_t deadline_ms;
    int wait;      /* answers awaited: since at */
    int pongs;     /* PINGs not yet answered */
    int heard;     /* the own channel's message (or subscription) */
    uint64_t at;   /* loop time the awaited check was asked (ms) */
    uint64_t seq;  /* the number of the check, sent as the message */
    uint64_t last; /* loop time the last check was asked */
    uint64_t last_tick; /* loop time of the last lobby__health_tick */
} Lobby_Health;

/* A check whose answers are due within deadline_ms, its own channel
 * named at random. Errors: TB_E_IO (no random bytes). */
int lobby__health_init(Lobby_Health *h, uint32_t deadline_ms);
/* (Re)connected at now (ms, loop time): the own channel's subscription
 * (sent by the caller on the channels' connection) is the first answer
 * awaited. */
void lobby__health_reset(Lobby_Health *h, uint64_t now);
/* From the sweep, now in ms (loop time), while rc is in use: asks the
 * next check when due. Returns 1 when an answer is missing past the
 * deadline: Redis hangs (never right after the loop itself was held for
 * over a second: what waits unread is read first). */
int lobby__health_tick(Lobby_Health *h, Lobby_Rc *rc, uint64_t now);
/* A reply on the channels' connection (an array of 3, its first two
 * strings): 1 when it was about the own channel (taken here), else 0. */
int lobby__health_sub(Lobby_Health *h, const struct redisReply *rep);

/* ---- rooms kept in Redis (redis.c), with --redis ---- */

/* Rooms, seat claims and frames live in Redis; each node keeps a copy
 * (a "replica", an ordinary Lobby_Room) of the rooms its own members are
 * in, fed from the room's stream, and relays to its members from it. */
typedef struct Lobby_Redis Lobby_Redis;
typedef struct Lobby_Member Lobby_Member;
typedef struct Lobby_Room Lobby_Room;

/* The store of lb on loop, Redis at url ("redis://HOST:PORT[/DB]").
 * Checks once, blocking up to 2 s, that Redis answers. Errors: TB_E_ARG
 * (a bad url), TB_E_IO (Redis unreachable or refusing), TB_E_NOMEM. */
int lobby__redis_new(uv_loop_t *loop, Lobby *lb, const Lobby_Limits *lim,
                     const char *url, Lobby_Redis **out);
/* A CREATE, JOIN or WATCH message p (checked for length and version) from
 * m: looked up in Redis; the answer admits or refuses m later. */
void lobby__redis_hello(Lobby_Redis *st, Lobby_Member *m, const uint8_t *p);
/* A frame from m, the member of seat with claim number epoch in the room
 * of invite lookup inv: numbered in Redis, then acknowledged. */
void lobby__redis_data(Lobby_Redis *st, Lobby_Member *m,
                       const uint8_t inv[LOBBY_LOOKUP_BYTES], int seat,
                       uint64_t epoch, const uint8_t *data, size_t n);
/* The member of seat with claim number epoch left the room of invite
 * lookup inv: the seat is absent (unless claimed again since), and a
 * guest that never sent a frame frees it. */
void lobby__redis_leave(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                        int seat, uint64_t epoch);
/* The member of seat with claim number epoch was sent the frames of the
 * room of invite lookup inv up to seq: a frame of the other seat that
 * would drop one it has not had is refused (FLOOD). */
void lobby__redis_had(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                      int seat, uint64_t epoch, uint64_t seq);
/* m is going: no answer about it may touch it. */
void lobby__redis_forget(Lobby_Redis *st, Lobby_Member *m);
/* Start / stop following the room of invite lookup inv. */
void lobby__redis_watch(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES]);
void lobby__redis_unwatch(Lobby_Redis *st,
                          const uint8_t inv[LOBBY_LOOKUP_BYTES]);
/* Housekeeping from the lobby's sweep timer (now in ms, loop time). */
void lobby__redis_tick(Lobby_Redis *st, uint64_t now);
/* Disconnect; done(user) once every connection is gone (those still
 * awaiting answers after redis_deadline_ms are freed: Redis hangs). */
void lobby__redis_close(Lobby_Redis *st, void (*done)(void *), void *user);
/* Free after close (NULL is fine). */
void lobby__redis_free(Lobby_Redis *st);

/* server.c's side, for redis.c. */
/* The key of m's source address (LOBBY_SOURCE_KEY bytes). */
const uint8_t *lobby__member_source(const Lobby_Member *m);
/* Answer m with LOBBY_ERR_* code (not CODE: redis.c asks its limit). */
void lobby__refuse(Lobby_Member *m, int code);
/* Close every member's connection (Redis is gone: go elsewhere). */
void lobby__drop_members(Lobby *lb);
/* The copy of the room of lookups inv, wat and host key pk, made (and
 * followed) if missing and m is not NULL. NULL: none, or no memory. */
Lobby_Room *lobby__replica(Lobby *lb, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                           const uint8_t wat[LOBBY_LOOKUP_BYTES],
                           const uint8_t pk[LOBBY_KEY_BYTES], Lobby_Member *m);
/* The copy of the room of invite lookup inv here, or NULL. */
Lobby_Room *lobby__replica_find(Lobby *lb,
                                const uint8_t inv[LOBBY_LOOKUP_BYTES]);
/* fn(user, invite lookup, watch lookup, maker) for each copy with
 * members; maker is the key of the source that created the room (NULL:
 * not known). */
void lobby__replica_each(Lobby *lb,
                         void (*fn)(void *user, const uint8_t *inv,
                                    const uint8_t *wat, const uint8_t *maker),
                         void *user);
/* The room's creator was the source of key (LOBBY_SOURCE_KEY bytes). */
void lobby__replica_maker(Lobby_Room *r, const uint8_t key[LOBBY_SOURCE_KEY]);
/* The number the copy's next frame has (0: none seen yet). */
uint64_t lobby__replica_next(const Lobby_Room *r);
/* A frame of the room from Redis (stream: read from the room's stream,
 * else from its channel): kept and sent to the members here. A gap
 * before a stream frame means Redis dropped those frames: the copy
 * starts again there (members that lacked them are dropped as slow).
 * Errors: TB_E_STATE (a channel frame after a gap: fetch the stream),
 * TB_E_NOMEM. */
int lobby__replica_frame(Lobby *lb, Lobby_Room *r, uint64_t seq, int from,
                         const uint8_t *data, size_t n, int stream);
/* Redis numbers the room's next frame next_seq (an empty copy starts so). */
void lobby__replica_seen(Lobby_Room *r, uint64_t next_seq);
/* Admit m to the copy r in role (its seat's claim number epoch); its
 * WELCOME says presence (bit 0 host, bit 1 guest seated, lobby-wide). */
void lobby__admit(Lobby_Member *m, Lobby_Room *r, int role, uint64_t from,
                  uint64_t epoch, int presence);
/* A seat's player arrived (1) or left (0) on some node: the room's other
 * seat and spectators here are told. */
void lobby__replica_presence(Lobby_Room *r, int seat, int present);
/* Redis's answer to m's wrong code: over the limit (limited) or counted. */
void lobby__guess_answer(Lobby_Member *m, int limited);
/* Redis numbered m's frame seq: its ACK goes out in its place, after
 * every earlier frame of the room (member_pump). */
void lobby__acked(Lobby_Member *m, uint64_t seq);

#endif /* TABULA_LOBBY_INTERNAL_H */
