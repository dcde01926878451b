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
#include "room_internal.h"

/* ---- members on any transport (server.c, http.c) ---- */

/* The rooms (room.h) of lb. */
Lobby_Rooms *lobby__rooms(Lobby *lb);

/* A new member on link, from peer_host (a numeric address), counted
 * against its source's and the lobby's connection shares (refused with
 * an ERROR when over). NULL when out of memory or the lobby is closing. */
Lobby_Member *lobby__member_new(Lobby *lb, const Lobby_Link_Ops *ops,
                                void *link, const char *peer_host);

/* One whole lobby message from the member m of lb (len >= 1). */
void lobby__member_frame(Lobby *lb, Lobby_Member *m, const uint8_t *p,
                         size_t len);

/* Its link is closed: the member is gone (NULL is fine). (A drained
 * queue goes straight to the rooms: lobby_rooms_drained.) */
void lobby__member_closed(Lobby *lb, Lobby_Member *m);

/* The lobby's limits (defaults filled in). */
const Lobby_Limits *lobby__limits(const Lobby *lb);

/* A connection that is not yet a member (HTTP, a WebSocket before its
 * upgrade) held against its address's share: lobby_rooms_hold and
 * lobby_rooms_unhold; a closing lobby is freed only once its holds are
 * given back. */
int lobby__hold(Lobby *lb, const char *peer_host);
void lobby__unhold(Lobby *lb, const char *peer_host);

/* ---- the archive (archive.c) ---- */

/* A relay's archive of the games it relays into dir/logs (which must be
 * there), at most cap bytes of logs in all (no new game is kept past
 * it), kept(user, path) told of each log made whole; *ops: what the
 * rooms call (lobby_rooms_use_archive). Errors: TB_E_ARG (dir over 1023
 * bytes), TB_E_IO (no folder dir/logs), TB_E_NOMEM. */
int lobby__archive_new(const char *dir, uint64_t cap,
                       void (*kept)(void *, const char *), void *user,
                       Lobby_Archive **out, const Lobby_Archive_Ops **ops);
void lobby__archive_free(Lobby_Archive *a); /* NULL is fine */

/* ---- where Redis commands go (redis_cluster.c), with --redis ---- */

/* One Redis, or the masters of a Redis Cluster with a map of its slots. */
typedef struct Lobby_Rc Lobby_Rc;

/* How a connection to Redis proves itself (AUTH): a password, with a
 * user (Redis 6 ACL) or without (requirepass); pass "" for none. */
typedef struct Lobby_Rc_Auth {
    char user[64];
    char pass[256];
} Lobby_Rc_Auth;
struct redisReply;
/* A command's answer; reply NULL: the connection went first. */
typedef void Lobby_Rc_Fn(void *priv, struct redisReply *reply);

/* Redis at host:port (database db), proving itself with auth, asked
 * with a blocking CLUSTER SLOTS (waiting at most wait_ms) whether it is
 * a cluster, and whether it evicts keys when full (its
 * maxmemory-policy); then connected on loop (a connection per master,
 * each with AUTH first). gone(user) is called whenever one of its
 * connections goes. Errors: TB_E_AUTH (a password refused, or one
 * needed), TB_E_STATE (Redis evicts keys when full: a running game's
 * room could vanish), TB_E_IO (unreachable, refusing, or a cluster whose slots are
 * not all served), TB_E_ARG (db not 0 on a cluster), TB_E_LIMIT (more
 * than 64 masters), TB_E_NOMEM. */
int lobby__rc_new(uv_loop_t *loop, const char *host, int port, int db,
                  const Lobby_Rc_Auth *auth, int wait_ms,
                  void (*gone)(void *user), void *user, Lobby_Rc **out);
/* The cluster slot (0..16383) of a key of n bytes: CRC16 of its hash tag
 * (the bytes between its first '{' and the next '}', if not empty), else
 * of the whole key. */
unsigned lobby__rc_slot(const char *key, size_t n);
/* Send argv (argc strings of argl bytes) to the master of the slot of
 * key; fn(priv, answer) once answered (after following MOVED and ASK).
 * Errors: TB_E_IO (not sent; fn is not called), TB_E_STATE (closing),
 * TB_E_NOMEM. */
int lobby__rc_command(Lobby_Rc *rc, const char *key, size_t keylen,
                      Lobby_Rc_Fn *fn, void *priv, int argc, const char **argv,
                      const size_t *argl);
/* cmd key [arg] (strings), its answer ignored. */
int lobby__rc_command1(Lobby_Rc *rc, const char *cmd, const char *key,
                       const char *arg);
/* An asynchronous hiredis connection to host:port on loop, its data
 * data, its first command AUTH when auth has a password (NULL: none),
 * connected(ac, status) once connected or not (a failed connect gets no
 * gone), gone(ac, status) once disconnected. Errors: TB_E_NOMEM,
 * TB_E_IO. */
struct redisAsyncContext;
typedef void Lobby_Rc_Status_Fn(const struct redisAsyncContext *ac, int status);
int lobby__rc_attach(uv_loop_t *loop, const char *host, int port,
                     const Lobby_Rc_Auth *auth, void *data,
                     Lobby_Rc_Status_Fn *connected, Lobby_Rc_Status_Fn *gone,
                     struct redisAsyncContext **out);
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
    int wait;           /* answers awaited: since at */
    int pongs;          /* PINGs not yet answered */
    int heard;          /* the own channel's message (or subscription) */
    uint64_t at;        /* loop time the awaited check was asked (ms) */
    uint64_t seq;       /* the number of the check, sent as the message */
    uint64_t last;      /* loop time the last check was asked */
    uint64_t last_tick; /* loop time of the last lobby__health_tick */
    uint64_t sent_ns;   /* uv_hrtime when the awaited check was asked (0:
                           the subscription after a reset, not timed) */
    uint64_t rtt_last_us, rtt_sum_us, rtt_count; /* Lobby_Stats's redis_rtt_ */
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

/* The round trips of st's health check into out's redis_rtt_ fields
 * (and out->redis = 1). */
void lobby__redis_stats(const Lobby_Redis *st, Lobby_Stats *out);

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
/* The seat (claim epoch) of the room of inv (watch lookup wat, made from
 * the source of key maker, NULL: unknown) said DONE: once both have, its
 * keys go unjoined_room_ms later, and it stops counting in its maker's
 * share and the lobby's count then (lua/done.lua, lua/finish.lua). */
void lobby__redis_done(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                       const uint8_t wat[LOBBY_LOOKUP_BYTES],
                       const uint8_t *maker, int seat, uint64_t epoch);
/* A seat's KEEP: the room of inv (watch lookup wat, made from the
 * source of key maker, NULL: unknown) is kept keep_ms after its last
 * member, on every node (lua/keep.lua: its field k). */
void lobby__redis_keep(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                       const uint8_t wat[LOBBY_LOOKUP_BYTES],
                       const uint8_t *maker, uint32_t keep_ms);
void lobby__redis_leave(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                        int seat, uint64_t epoch);
/* Public seeks (issue 37): the host m's seek card[0..n) of game for the
 * room of inv listed (lobby__seeked answers m); the seek of the room of
 * inv off the list; the open seeks of game ("": all) for m
 * (lobby__listed answers it). */
void lobby__redis_seek(Lobby_Redis *st, Lobby_Member *m,
                       const uint8_t inv[LOBBY_LOOKUP_BYTES],
                       const uint8_t *card, size_t n, const char *game,
                       const uint8_t owner[LOBBY_KEY_BYTES],
                       const char *rated);
void lobby__redis_unseek(Lobby_Redis *st,
                         const uint8_t inv[LOBBY_LOOKUP_BYTES]);
void lobby__redis_seeks(Lobby_Redis *st, Lobby_Member *m, const char *game);
/* The pool across nodes (issue 37; redis.c, "the pool"): m's offer o
 * (with its seat's invite code inv, seat key seat_pk and match options,
 * its card's) is numbered,
 * kept in Redis under a lease this node renews, and paired by pool.c on
 * the node that filed it under a short lock; the pairs and counts reach
 * every node on the pool's channel (lobby__pool_* of room_internal.h).
 * unpool: the offer id left. */
void lobby__redis_pool(Lobby_Redis *st, Lobby_Member *m,
                       const struct Pool_Offer *o, const Lobby_Code *inv,
                       const uint8_t *seat_pk, const char *options);
void lobby__redis_unpool(Lobby_Redis *st, uint64_t id);
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

#endif /* TABULA_LOBBY_INTERNAL_H */
