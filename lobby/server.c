/*
 * server.c: the lobby relay on libuv. The rooms themselves (admission,
 * numbering, keeping, flooding, housekeeping) are room.c's, without I/O;
 * this file runs them: it accepts framed TCP connections (net/), hands
 * the rooms each message, each drained queue and each closed connection
 * with the loop's time, runs their sweep four times a second, and, with
 * --redis, plugs the Redis store (redis.c) in as the rooms' store. A
 * WebSocket member (http.c) enters the same rooms through
 * lobby__member_new. It gives the rooms the node's receipt key (a fresh
 * one, or lobby_use_key's) and the wall clock they sign times with.
 */
#include <stdlib.h>
#include <string.h>

#include "lobby_internal.h"
#include "tb_error.h"

_Static_assert(LOBBY_MESSAGE_MAX <= NET_FRAME_CAP_MAX,
               "net/ carries every lobby message");

struct Lobby {
    uv_loop_t *loop;
    Lobby_Rooms *rooms;
    Net_Server *server;
    uv_timer_t sweep;
    Lobby_Redis *redis; /* NULL: rooms live here only */
    Lobby_Archive *archive; /* lobby_use_archive; NULL: none */
    int closing, server_done, timer_closed, redis_done;
    void (*done)(void *user);
    void *done_user;
};

/* ---- members on net/'s framed TCP ---- */

static int tcp_send(void *link, const uint8_t *msg, size_t len)
{
    return net_send(link, msg, len);
}

static size_t tcp_queued(const void *link)
{
    return net_write_queue(link);
}

static int tcp_is_closing(const void *link)
{
    return net_is_closing(link);
}

/* The rooms' reasons, as net/ names a close. */
static int net_reason(int reason)
{
    switch (reason) {
    case LOBBY_CLOSE_SLOW:
        return UV_ENOBUFS;
    case LOBBY_CLOSE_GONE:
        return UV_ECONNRESET;
    default:
        return TB_E_STATE;
    }
}

static void tcp_close(void *link, int flush, int reason)
{
    if (flush && reason == LOBBY_CLOSE_REFUSED)
        net_close_linger(link, net_reason(reason), LOBBY_REFUSED_HOLD_MS);
    else if (flush)
        net_close_flush(link, net_reason(reason));
    else
        net_close(link, net_reason(reason));
}

/* net/ caps its own accepts (max_conns): not counted by the rooms. */
static const Lobby_Link_Ops tcp_ops = {tcp_send, tcp_queued, tcp_is_closing,
                                       tcp_close, 0};

static void lobby_maybe_free(Lobby *lb);

/* The receipt clock: the system's wall clock (CLOCK_REALTIME), ms since
 * the Unix epoch (the rooms never let a room's receipts run back when it
 * is set back). */
static uint64_t wall_ms(void *user)
{
    uv_timeval64_t tv;
    (void)user;
    if (uv_gettimeofday(&tv) != 0 || tv.tv_sec < 0)
        return 0;
    return (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
}

int lobby_use_key(Lobby *lb, const Proto_Identity *key)
{
    Lobby_Stats s;
    if (lb == NULL || key == NULL)
        return TB_E_ARG;
    lobby_rooms_stats(lb->rooms, &s);
    if (s.members > 0)
        return TB_E_ARG;
    lobby_rooms_use_witness(lb->rooms, key, wall_ms, NULL);
    return 0;
}

void lobby_relay_key(const Lobby *lb, uint8_t pk[LOBBY_KEY_BYTES])
{
    lobby_rooms_relay_key(lb->rooms, pk);
}

Lobby_Rooms *lobby__rooms(Lobby *lb)
{
    return lb->rooms;
}

const Lobby_Limits *lobby__limits(const Lobby *lb)
{
    return lobby_rooms_limits(lb->rooms);
}

Lobby_Member *lobby__member_new(Lobby *lb, const Lobby_Link_Ops *ops,
                                void *link, const char *peer_host)
{
    if (lb->closing)
        return NULL;
    return lobby_rooms_member(lb->rooms, ops, link, peer_host,
                              uv_now(lb->loop));
}

void lobby__member_frame(Lobby *lb, Lobby_Member *m, const uint8_t *p,
                         size_t len)
{
    lobby_rooms_message(m, p, len, uv_now(lb->loop));
}

int lobby__hold(Lobby *lb, const char *peer_host)
{
    return lb->closing ? LOBBY_ERR_FULL : lobby_rooms_hold(lb->rooms, peer_host);
}

void lobby__unhold(Lobby *lb, const char *peer_host)
{
    lobby_rooms_unhold(lb->rooms, peer_host);
    if (lb->closing)
        lobby_maybe_free(lb);
}

void lobby__member_closed(Lobby *lb, Lobby_Member *m)
{
    if (m == NULL)
        return;
    lobby_rooms_closed(m, uv_now(lb->loop));
    if (lb->closing)
        lobby_maybe_free(lb);
}

static Lobby *conn_lobby(const Net_Conn *c)
{
    return net_server_user(net_conn_server(c));
}

static void tcp_frame(Net_Conn *c, const uint8_t *p, size_t len)
{
    lobby__member_frame(conn_lobby(c), net_conn_user(c), p, len);
}

static void tcp_drain(Net_Conn *c)
{
    lobby_rooms_drained(net_conn_user(c));
}

static void tcp_closed(Net_Conn *c, int reason)
{
    if (reason == UV_ETIMEDOUT) /* (net/'s idle timeout) */
        lobby_rooms_timed_out(net_conn_user(c));
    lobby__member_closed(conn_lobby(c), net_conn_user(c));
}

static void on_accept(Net_Server *s, Net_Conn *c)
{
    static const Net_Callbacks cb = {NULL, tcp_frame, tcp_closed, tcp_drain};
    Lobby *lb = net_server_user(s);
    Lobby_Member *m = lobby__member_new(lb, &tcp_ops, c, net_conn_peer_host(c));

    if (m == NULL) {
        net_close(c, TB_E_NOMEM);
        return;
    }
    net_conn_set_callbacks(c, &cb, m);
}

/* ---- housekeeping ---- */

static void sweep(uv_timer_t *t)
{
    Lobby *lb = t->data;
    uint64_t now = uv_now(lb->loop);

    lobby_rooms_sweep(lb->rooms, now);
    if (lb->redis != NULL)
        lobby__redis_tick(lb->redis, now);
}

static void lobby_maybe_free(Lobby *lb)
{
    void (*done)(void *);
    void *user;

    if (!lb->server_done || !lb->timer_closed ||
        lobby_rooms_links(lb->rooms) > 0 ||
        (lb->redis != NULL && !lb->redis_done))
        return;
    lobby_rooms_free(lb->rooms); /* (its rooms end their logs) */
    lobby__archive_free(lb->archive);
    lobby__redis_free(lb->redis);
    done = lb->done;
    user = lb->done_user;
    free(lb);
    if (done != NULL)
        done(user);
}

static void server_done(void *user)
{
    Lobby *lb = user;
    lb->server_done = 1;
    lobby_maybe_free(lb);
}

static void redis_done(void *user)
{
    Lobby *lb = user;
    lb->redis_done = 1;
    lobby_maybe_free(lb);
}

static void timer_closed(uv_handle_t *h)
{
    Lobby *lb = h->data;
    lb->timer_closed = 1;
    lobby_maybe_free(lb);
}

int lobby_new(uv_loop_t *loop, const struct sockaddr *addr,
              const Lobby_Limits *lim, Lobby **out)
{
    Lobby *lb;
    Net_Limits nl = {0};
    const Lobby_Limits *l;
    Proto_Identity key;
    int rc;

    if (loop == NULL || addr == NULL || out == NULL)
        return TB_E_ARG;
    *out = NULL;
    lb = calloc(1, sizeof *lb);
    if (lb == NULL)
        return TB_E_NOMEM;
    rc = lobby_rooms_new(lim, &lb->rooms);
    if (rc == 0)
        rc = proto_init();
    if (rc == 0)
        rc = proto_identity_generate(&key); /* until lobby_use_key */
    if (rc != 0) {
        lobby_rooms_free(lb->rooms);
        free(lb);
        return rc;
    }
    lobby_rooms_use_witness(lb->rooms, &key, wall_ms, NULL);
    proto_identity_wipe(&key);
    l = lobby_rooms_limits(lb->rooms);
    lb->loop = loop;
    nl.max_frame = l->max_payload + LOBBY_FRAME_HEADER;
    nl.max_write_queue = l->max_write_queue;
    nl.heartbeat_ms = l->heartbeat_ms;
    nl.idle_timeout_ms = l->idle_timeout_ms;
    nl.max_conns = l->max_conns;
    /* past the cap a client is told the lobby is full (its words say
     * so and what to do), not left to think none runs there */
    static const uint8_t full[LOBBY_LEN_ERROR] = {LOBBY_MSG_ERROR,
                                                  LOBBY_ERR_FULL};
    nl.full_frame = full;
    nl.full_len = sizeof full;
    rc = net_listen(loop, addr, &nl, on_accept, lb, &lb->server);
    if (rc != 0) {
        lobby_rooms_free(lb->rooms);
        free(lb);
        return rc;
    }
    uv_timer_init(loop, &lb->sweep);
    lb->sweep.data = lb;
    uv_timer_start(&lb->sweep, sweep, 250, 250);
    *out = lb;
    return 0;
}

int lobby_use_archive(Lobby *lb, const char *dir, uint64_t cap_bytes,
                      void (*kept)(void *user, const char *log), void *user)
{
    const Lobby_Archive_Ops *ops;
    if (lb->archive != NULL || lb->rooms == NULL)
        return TB_E_STATE;
    int rc = lobby__archive_new(dir, cap_bytes ? cap_bytes : LOBBY_ARCHIVE_CAP,
                                kept, user, &lb->archive, &ops);
    if (rc == 0)
        lobby_rooms_use_archive(lb->rooms, ops, lb->archive);
    return rc;
}

void lobby_use_ratings(Lobby *lb, Lobby_Ratings *t)
{
    lobby_rooms_use_ratings(lb->rooms, t);
}

int lobby_address(const Lobby *lb, char *out, size_t cap)
{
    return net_server_address(lb->server, out, cap);
}

void lobby_stats(const Lobby *lb, Lobby_Stats *out)
{
    lobby_rooms_stats(lb->rooms, out);
    out->conns_tcp = net_server_conns(lb->server);
    out->conns += out->conns_tcp;
    if (lb->redis != NULL)
        lobby__redis_stats(lb->redis, out);
}

void lobby_close(Lobby *lb, void (*done)(void *user), void *user)
{
    if (lb == NULL || lb->closing)
        return;
    lb->closing = 1;
    lb->done = done;
    lb->done_user = user;
    /* net/ closes its own connections; the others are closed here and
     * the lobby is freed once the last of them is gone. */
    lobby_rooms_close_links(lb->rooms);
    uv_close((uv_handle_t *)&lb->sweep, timer_closed);
    if (lb->redis != NULL)
        lobby__redis_close(lb->redis, redis_done, lb);
    net_server_close(lb->server, server_done);
}

/* ---- the Redis store (redis.c) as the rooms' store ---- */

static void store_hello(void *st, Lobby_Member *m, const uint8_t *p)
{
    lobby__redis_hello(st, m, p);
}

static void store_data(void *st, Lobby_Member *m, const uint8_t *inv, int seat,
                       uint64_t epoch, const uint8_t *d, size_t n)
{
    lobby__redis_data(st, m, inv, seat, epoch, d, n);
}

static void store_done(void *st, const uint8_t *inv, const uint8_t *wat,
                       const uint8_t *maker, int seat, uint64_t epoch)
{
    lobby__redis_done(st, inv, wat, maker, seat, epoch);
}

static void store_leave(void *st, const uint8_t *inv, int seat, uint64_t epoch)
{
    lobby__redis_leave(st, inv, seat, epoch);
}

static void store_had(void *st, const uint8_t *inv, int seat, uint64_t epoch,
                      uint64_t seq)
{
    lobby__redis_had(st, inv, seat, epoch, seq);
}

static void store_forget(void *st, Lobby_Member *m)
{
    lobby__redis_forget(st, m);
}

static void store_watch(void *st, const uint8_t *inv)
{
    lobby__redis_watch(st, inv);
}

static void store_unwatch(void *st, const uint8_t *inv)
{
    lobby__redis_unwatch(st, inv);
}

static void store_seek(void *st, Lobby_Member *m, const uint8_t *inv,
                       const uint8_t *card, size_t n, const char *game,
                       const uint8_t *owner, const char *rated)
{
    lobby__redis_seek(st, m, inv, card, n, game, owner, rated);
}

static void store_seeks(void *st, Lobby_Member *m, const char *game)
{
    lobby__redis_seeks(st, m, game);
}

static void store_pool(void *st, Lobby_Member *m, const struct Pool_Offer *o,
                       const Lobby_Code *inv, const uint8_t *seat_pk,
                       const char *options)
{
    lobby__redis_pool(st, m, o, inv, seat_pk, options);
}

static void store_unpool(void *st, uint64_t id)
{
    lobby__redis_unpool(st, id);
}

static void store_keep(void *st, const uint8_t *inv, const uint8_t *wat,
                       const uint8_t *maker, uint32_t keep_ms)
{
    lobby__redis_keep(st, inv, wat, maker, keep_ms);
}

static const Lobby_Store_Ops redis_store = {
    store_hello,  store_data,   store_done,    store_leave, store_had,
    store_forget, store_watch,  store_unwatch, store_seek,  store_seeks,
    store_pool,   store_unpool, store_keep};

int lobby_use_redis(Lobby *lb, const char *url)
{
    Lobby_Stats s;
    int rc;
    if (lb == NULL || url == NULL || lb->redis != NULL)
        return TB_E_ARG;
    lobby_rooms_stats(lb->rooms, &s);
    if (s.members > 0)
        return TB_E_ARG;
    rc = lobby__redis_new(lb->loop, lb, lobby_rooms_limits(lb->rooms), url,
                          &lb->redis);
    if (rc == 0)
        lobby_rooms_use_store(lb->rooms, &redis_store, lb->redis);
    return rc;
}
