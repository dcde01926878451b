/*
 * client.c: the client side of a lobby connection. A Lobby_Client keeps
 * who it is in the room (role, codes, seat secret) across connections, so
 * after a drop the owner calls lobby_client_resume with the last sequence
 * number it holds and the lobby sends what it missed. Joiners and
 * spectators check the host key the lobby reports against the code's
 * fingerprint before they admit anything from the room. The messages
 * themselves are built and read by the codec of lobby_wire.h (wire.c);
 * this file is their libuv driver: connection, alternative nodes,
 * refusals.
 */
#include <stdlib.h>
#include <string.h>

#include "lobby_internal.h"
#include "tb_error.h"

struct Lobby_Client {
    uv_loop_t *loop;
    struct sockaddr_storage addr; /* the lobby connected to (or tried) */
    struct sockaddr_storage alt[LOBBY_CLIENT_ADDRS]; /* all, addr first */
    size_t nalt, at; /* alternatives known, the one in use */
    Net_Limits limits;
    struct sockaddr_storage source; /* family 0: any */
    Lobby_Client_Callbacks cb;
    void *user;
    Lobby_Wire *wire; /* the messages, sequence numbers, admission */
    Net_Conn *conn;
    uint8_t hello[LOBBY_WIRE_HELLO_MAX]; /* sent once connected */
    size_t hello_len;
    int refusal; /* TB_E_* from the lobby's ERROR, reported on close */
    int freeing;
};

static void client_free(Lobby_Client *c)
{
    lobby_wire_free(c->wire);
    free(c);
}

static void client_frame(Net_Conn *conn, const uint8_t *p, size_t len)
{
    Lobby_Client *c = net_conn_user(conn);
    Lobby_Wire_Event ev;
    int rc;

    if (c->freeing)
        return;
    rc = lobby_wire_read(c->wire, p, len, &ev);
    if (rc != 0) {
        net_close(conn, rc);
        return;
    }
    if (c->cb.on_receipt != NULL &&
        (ev.kind == LOBBY_WIRE_FRAME || ev.kind == LOBBY_WIRE_ACK ||
         ev.kind == LOBBY_WIRE_PRESENCE))
        c->cb.on_receipt(c, &ev);
    switch (ev.kind) {
    case LOBBY_WIRE_WELCOME:
        if (c->cb.on_welcome != NULL)
            c->cb.on_welcome(c, &ev.welcome);
        break;
    case LOBBY_WIRE_FRAME:
        if (c->cb.on_frame != NULL)
            c->cb.on_frame(c, ev.seq, ev.from, ev.data, ev.len);
        break;
    case LOBBY_WIRE_ACK:
        if (c->cb.on_ack != NULL)
            c->cb.on_ack(c, ev.seq);
        break;
    case LOBBY_WIRE_PRESENCE:
        if (c->cb.on_presence != NULL)
            c->cb.on_presence(c, ev.seat, ev.present);
        break;
    case LOBBY_WIRE_REFUSED:
        c->refusal = ev.reason;
        net_close(conn, c->refusal);
        break;
    case LOBBY_WIRE_SEEKED:
        if (c->cb.on_seeked != NULL)
            c->cb.on_seeked(c, ev.reason);
        break;
    case LOBBY_WIRE_NONE:
        break;
    }
}

static void client_connected(Net_Conn *conn, int status)
{
    Lobby_Client *c = net_conn_user(conn);
    if (status == 0 && !c->freeing)
        (void)net_send(c->conn, c->hello, c->hello_len);
}

static void client_closed(Net_Conn *conn, int reason)
{
    Lobby_Client *c = net_conn_user(conn);
    c->conn = NULL;
    lobby_wire_closed(c->wire);
    if (c->freeing) {
        client_free(c);
        return;
    }
    if (c->refusal != 0)
        reason = c->refusal;
    else if (c->nalt > 1) {
        /* The node went (or was never reached): the next resume tries
         * the next one; every node serves every room. */
        c->at = (c->at + 1) % c->nalt;
        c->addr = c->alt[c->at];
    }
    if (c->cb.on_disconnect != NULL)
        c->cb.on_disconnect(c, reason);
}

static int client_connect(Lobby_Client *c, uint64_t from_seq)
{
    static const Net_Callbacks ncb = {client_connected, client_frame,
                                      client_closed, NULL};
    Net_Limits lim = c->limits;

    c->hello_len = lobby_wire_hello(c->wire, from_seq, c->hello);
    c->refusal = 0;
    if (lim.max_frame == 0)
        lim.max_frame = LOBBY_WIRE_MESSAGE_MAX;
    return net_connect_from(
        c->loop, (const struct sockaddr *)&c->addr,
        c->source.ss_family != 0 ? (const struct sockaddr *)&c->source : NULL,
        &lim, &ncb, c, &c->conn);
}

int lobby_client_new(uv_loop_t *loop, const struct sockaddr *addr,
                     const Lobby_Client_Config *cfg,
                     const Lobby_Client_Callbacks *cb, void *user,
                     uint64_t from_seq, Lobby_Client **out)
{
    Lobby_Client *c;
    Lobby_Wire_Config wc;
    size_t alen;
    int rc;

    if (loop == NULL || addr == NULL || cfg == NULL || out == NULL ||
        (unsigned)cfg->role > LOBBY_ROLE_SPECTATOR)
        return TB_E_ARG;
    *out = NULL;
    alen = addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                       : sizeof(struct sockaddr_in);
    c = calloc(1, sizeof *c);
    if (c == NULL)
        return TB_E_NOMEM;
    c->loop = loop;
    memcpy(&c->addr, addr, alen);
    c->limits = cfg->limits;
    c->source = cfg->source;
    if (cb != NULL)
        c->cb = *cb;
    c->user = user;
    memset(&wc, 0, sizeof wc);
    wc.role = cfg->role;
    wc.id = cfg->id;
    wc.invite = cfg->invite;
    wc.watch = cfg->watch;
    memcpy(wc.host_pk, cfg->host_pk, sizeof wc.host_pk);
    memcpy(wc.seat_secret, cfg->seat_secret, sizeof wc.seat_secret);
    rc = lobby_wire_new(&wc, from_seq, &c->wire);
    memset(&wc, 0, sizeof wc);
    if (rc == 0)
        rc = client_connect(c, from_seq);
    if (rc != 0) {
        client_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

int lobby_client_add_lobby(Lobby_Client *c, const struct sockaddr *addr)
{
    size_t alen;
    if (c == NULL || addr == NULL)
        return TB_E_ARG;
    alen = addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                       : sizeof(struct sockaddr_in);
    if (c->nalt == 0)
        c->alt[c->nalt++] = c->addr;
    if (c->nalt >= LOBBY_CLIENT_ADDRS)
        return TB_E_LIMIT;
    memset(&c->alt[c->nalt], 0, sizeof c->alt[0]);
    memcpy(&c->alt[c->nalt], addr, alen);
    c->nalt++;
    return 0;
}

int lobby_addr_list_parse(const char *text, struct sockaddr_storage *out,
                          size_t cap, size_t *n)
{
    char one[NET_ADDR_TEXT_MAX];
    const char *p = text;

    if (text == NULL || out == NULL || n == NULL || cap == 0)
        return TB_E_ARG;
    *n = 0;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof one || *n >= cap)
            return len == 0 || len >= sizeof one ? TB_E_FORMAT : TB_E_LIMIT;
        memcpy(one, p, len);
        one[len] = '\0';
        int rc = net_addr_parse(one, &out[*n]);
        if (rc != 0)
            return rc == TB_E_NOTFOUND ? rc : TB_E_FORMAT;
        (*n)++;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

int lobby_client_refusal(const Lobby_Client *c)
{
    return c->refusal;
}

int lobby_client_resume(Lobby_Client *c, uint64_t from_seq)
{
    if (c == NULL || c->freeing)
        return TB_E_ARG;
    if (c->conn != NULL)
        return TB_E_STATE;
    return client_connect(c, from_seq);
}

int lobby_client_send(Lobby_Client *c, const void *data, size_t len)
{
    uv_buf_t parts[2];
    uint8_t type = LOBBY_MSG_DATA;
    int rc;

    if (c == NULL || data == NULL || len == 0)
        return TB_E_ARG;
    if (c->conn == NULL)
        return TB_E_STATE;
    rc = lobby_wire_data_check(c->wire, len,
                               NET_FRAME_CAP_MAX - LOBBY_FRAME_HEADER);
    if (rc != 0)
        return rc;
    parts[0] = uv_buf_init((char *)&type, 1);
    parts[1] = uv_buf_init((char *)(uintptr_t)data, (unsigned)len);
    return net_sendv(c->conn, parts, 2);
}

int lobby_client_done(Lobby_Client *c)
{
    static const uint8_t done[LOBBY_LEN_DONE] = {LOBBY_MSG_DONE};
    if (c == NULL)
        return TB_E_ARG;
    if (c->conn == NULL || !lobby_wire_admitted(c->wire) ||
        lobby_wire_config(c->wire)->role == LOBBY_ROLE_SPECTATOR)
        return TB_E_STATE;
    return net_send(c->conn, done, sizeof done);
}

int lobby_client_seek(Lobby_Client *c, const uint8_t *card, size_t len)
{
    uint8_t msg[LOBBY_WIRE_SEEK_MAX];
    size_t n;
    if (c == NULL || (n = lobby_wire_seek(msg, card, len)) == 0)
        return TB_E_ARG;
    if (c->conn == NULL || !lobby_wire_admitted(c->wire) ||
        lobby_wire_config(c->wire)->role != LOBBY_ROLE_HOST)
        return TB_E_STATE;
    return net_send(c->conn, msg, n);
}

uint64_t lobby_client_last_seq(const Lobby_Client *c)
{
    return lobby_wire_last_seq(c->wire);
}

void *lobby_client_user(const Lobby_Client *c)
{
    return c->user;
}

int lobby_client_connected(const Lobby_Client *c)
{
    return c->conn != NULL && lobby_wire_admitted(c->wire);
}

void lobby_client_close(Lobby_Client *c)
{
    if (c != NULL && c->conn != NULL)
        net_close(c->conn, 0);
}

void lobby_client_free(Lobby_Client *c)
{
    if (c == NULL)
        return;
    c->freeing = 1;
    if (c->conn != NULL)
        net_close(c->conn, 0);
    else
        client_free(c);
}

/* ---- the list of open seeks ---- */

typedef struct Seeks_Fetch {
    int (*each)(void *user, uint64_t since, const uint8_t *card,
                size_t card_len);
    void (*done)(void *user, int status);
    void *user;
    uint8_t hello[LOBBY_WIRE_SEEKS_LEN];
    int status; /* 1: no answer yet */
} Seeks_Fetch;

static void fetch_connected(Net_Conn *conn, int status)
{
    Seeks_Fetch *f = net_conn_user(conn);
    if (status == 0)
        (void)net_send(conn, f->hello, sizeof f->hello);
}

static void fetch_frame(Net_Conn *conn, const uint8_t *p, size_t len)
{
    Seeks_Fetch *f = net_conn_user(conn);
    int last = 0, rc;

    if (f->status != 1)
        return;
    if (len >= 1 && p[0] == LOBBY_WIRE_LIST_TYPE) {
        rc = lobby_wire_list_read(p, len, f->each, f->user, &last);
        if (rc == 0 && !last)
            return;
    } else {
        rc = lobby_wire_error_read(p, len);
    }
    f->status = rc;
    net_close(conn, rc);
}

/* What a one-answer connection (the list, an offer to the pool) ended
 * with: its answer's status when one came (status not 1), else the
 * transport's reason, else TB_E_TRUNCATED. */
static int answer_status(int status, int reason)
{
    return status != 1 ? status : reason != 0 ? reason : TB_E_TRUNCATED;
}

static void fetch_closed(Net_Conn *conn, int reason)
{
    Seeks_Fetch *f = net_conn_user(conn);
    f->done(f->user, answer_status(f->status, reason));
    free(f);
}

int lobby_seeks_fetch(uv_loop_t *loop, const struct sockaddr *addr,
                      const char *game,
                      int (*each)(void *user, uint64_t since,
                                  const uint8_t *card, size_t card_len),
                      void (*done)(void *user, int status), void *user)
{
    static const Net_Callbacks ncb = {fetch_connected, fetch_frame,
                                      fetch_closed, NULL};
    Net_Limits lim = {0};
    Net_Conn *conn;
    Seeks_Fetch *f;
    int rc;

    if (loop == NULL || addr == NULL || done == NULL)
        return TB_E_ARG;
    if ((f = calloc(1, sizeof *f)) == NULL)
        return TB_E_NOMEM;
    f->each = each;
    f->done = done;
    f->user = user;
    f->status = 1;
    if (lobby_wire_seeks(f->hello, game) == 0) {
        free(f);
        return TB_E_LIMIT;
    }
    net_limits_default(&lim);
    lim.max_frame = LOBBY_WIRE_LIST_MAX;
    rc = net_connect(loop, addr, &lim, &ncb, f, &conn);
    if (rc != 0)
        free(f);
    return rc;
}

/* ---- an offer to the pool ---- */

struct Lobby_Pool_Conn {
    void (*wait)(void *user, const uint32_t *counts);
    void (*done)(void *user, int status, const Lobby_Paired *paired);
    void *user;
    Net_Conn *conn;
    Lobby_Paired paired;
    int status; /* 1: no answer yet */
    size_t len;
    uint8_t hello[LOBBY_WIRE_POOL_MAX];
};

static void pool_connected(Net_Conn *conn, int status)
{
    Lobby_Pool_Conn *c = net_conn_user(conn);
    if (status == 0)
        (void)net_send(conn, c->hello, c->len);
}

static void pool_frame(Net_Conn *conn, const uint8_t *p, size_t len)
{
    Lobby_Pool_Conn *c = net_conn_user(conn);
    uint32_t counts[LOBBY_POOL_GAMES];
    int rc;

    if (c->status != 1 || (len == LOBBY_LEN_BEAT && p[0] == LOBBY_MSG_BEAT))
        return;
    if (len >= 1 && p[0] == LOBBY_WIRE_POOL_WAIT_TYPE) {
        rc = lobby_wire_pool_wait_read(p, len, counts);
        if (rc == 0) {
            if (c->wait != NULL)
                c->wait(c->user, counts);
            return;
        }
    } else if (len >= 1 && p[0] == LOBBY_WIRE_PAIRED_TYPE) {
        rc = lobby_wire_paired_read(p, len, &c->paired);
    } else {
        rc = lobby_wire_error_read(p, len); /* (never 0) */
    }
    c->status = rc;
    net_close(conn, rc);
}

static void pool_closed(Net_Conn *conn, int reason)
{
    Lobby_Pool_Conn *c = net_conn_user(conn);
    int status = answer_status(c->status, reason);
    c->done(c->user, status, status == 0 ? &c->paired : NULL);
    free(c);
}

int lobby_pool_offer(uv_loop_t *loop, const struct sockaddr *addr,
                     const uint8_t *msg, size_t len,
                     void (*wait)(void *user, const uint32_t *counts),
                     void (*done)(void *user, int status,
                                  const Lobby_Paired *paired),
                     void *user, Lobby_Pool_Conn **out)
{
    static const Net_Callbacks ncb = {pool_connected, pool_frame,
                                      pool_closed, NULL};
    Net_Limits lim = {0};
    Lobby_Pool_Conn *c;
    int rc;

    if (out != NULL)
        *out = NULL;
    if (loop == NULL || addr == NULL || done == NULL || msg == NULL ||
        len == 0 || len > LOBBY_WIRE_POOL_MAX)
        return TB_E_ARG;
    if ((c = calloc(1, sizeof *c)) == NULL)
        return TB_E_NOMEM;
    c->wait = wait;
    c->done = done;
    c->user = user;
    c->status = 1;
    c->len = len;
    memcpy(c->hello, msg, len);
    net_limits_default(&lim);
    /* (net/ sends no frame over its own cap either: POOL is the
     * longest message either way) */
    _Static_assert(LOBBY_WIRE_POOL_MAX >= LOBBY_WIRE_PAIRED_MAX &&
                       LOBBY_WIRE_POOL_MAX >= LOBBY_WIRE_POOL_WAIT_LEN,
                   "the cap holds every message of the pool");
    lim.max_frame = LOBBY_WIRE_POOL_MAX;
    rc = net_connect(loop, addr, &lim, &ncb, c, &c->conn);
    if (rc != 0) {
        free(c);
        return rc;
    }
    if (out != NULL)
        *out = c;
    return 0;
}

void lobby_pool_cancel(Lobby_Pool_Conn *c)
{
    if (c != NULL && c->status == 1) {
        c->status = UV_ECANCELED;
        net_close(c->conn, UV_ECANCELED);
    }
}
