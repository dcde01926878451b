/*
 * client.c: the client side of a lobby connection. A Lobby_Client keeps
 * who it is in the room (role, codes, seat secret) across connections, so
 * after a drop the owner calls lobby_client_resume with the last sequence
 * number it holds and the lobby sends what it missed. Joiners and
 * spectators check the host key the lobby reports against the code's
 * fingerprint before they admit anything from the room.
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
    Lobby_Client_Config cfg;
    Lobby_Client_Callbacks cb;
    void *user;
    Net_Conn *conn;
    uint64_t from_seq; /* asked for on the current connection */
    uint64_t last_seq;
    int admitted;
    int refusal; /* TB_E_* from the lobby's ERROR, reported on close */
    int freeing;
};

static int error_code(int wire)
{
    switch (wire) {
    case LOBBY_ERR_VERSION:
        return TB_E_VERSION;
    case LOBBY_ERR_CODE:
        return TB_E_CODE;
    case LOBBY_ERR_RATE:
        return TB_E_RATE;
    case LOBBY_ERR_FULL:
    case LOBBY_ERR_ADDRESS:
        return TB_E_FULL;
    case LOBBY_ERR_SEAT:
    case LOBBY_ERR_REPLACED:
        return TB_E_SEAT;
    case LOBBY_ERR_TOO_BIG:
    case LOBBY_ERR_FLOOD:
        return TB_E_LIMIT;
    case LOBBY_ERR_NOT_ALLOWED:
        return TB_E_STATE;
    case LOBBY_ERR_TIMEOUT:
        return UV_ETIMEDOUT;
    default:
        return TB_E_FORMAT;
    }
}

static int zero(const uint8_t *p, size_t n)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++)
        d |= p[i];
    return d == 0;
}

/* The code this client enters the room with. */
static const Lobby_Code *entry_code(const Lobby_Client *c)
{
    if (c->cfg.role == LOBBY_ROLE_SPECTATOR &&
        zero(c->cfg.invite.lookup, LOBBY_LOOKUP_BYTES))
        return &c->cfg.watch;
    return &c->cfg.invite;
}

static void send_hello(Lobby_Client *c)
{
    uint8_t m[LOBBY_LEN_CREATE];
    size_t len;

    m[1] = LOBBY_WIRE_VERSION;
    if (c->cfg.role == LOBBY_ROLE_HOST) {
        uint8_t *p = m + 2;
        m[0] = LOBBY_MSG_CREATE;
        memcpy(p, c->cfg.invite.lookup, LOBBY_LOOKUP_BYTES);
        memcpy(p += LOBBY_LOOKUP_BYTES, c->cfg.watch.lookup,
               LOBBY_LOOKUP_BYTES);
        memcpy(p += LOBBY_LOOKUP_BYTES, c->cfg.host_pk, LOBBY_KEY_BYTES);
        memcpy(p += LOBBY_KEY_BYTES, c->cfg.seat_secret,
               LOBBY_SEAT_SECRET_BYTES);
        lobby__put64(p + LOBBY_SEAT_SECRET_BYTES, c->from_seq);
        len = LOBBY_LEN_CREATE;
    } else if (c->cfg.role == LOBBY_ROLE_GUEST) {
        m[0] = LOBBY_MSG_JOIN;
        memcpy(m + 2, c->cfg.invite.lookup, LOBBY_LOOKUP_BYTES);
        memcpy(m + 2 + LOBBY_LOOKUP_BYTES, c->cfg.seat_secret,
               LOBBY_SEAT_SECRET_BYTES);
        lobby__put64(m + 2 + LOBBY_LOOKUP_BYTES + LOBBY_SEAT_SECRET_BYTES,
                     c->from_seq);
        len = LOBBY_LEN_JOIN;
    } else {
        m[0] = LOBBY_MSG_WATCH;
        memcpy(m + 2, entry_code(c)->lookup, LOBBY_LOOKUP_BYTES);
        lobby__put64(m + 2 + LOBBY_LOOKUP_BYTES, c->from_seq);
        len = LOBBY_LEN_WATCH;
    }
    (void)net_send(c->conn, m, len);
}

static void on_welcome(Lobby_Client *c, const uint8_t *p)
{
    Lobby_Welcome w;

    memset(&w, 0, sizeof w);
    if (p[1] > LOBBY_ROLE_SPECTATOR) {
        net_close(c->conn, TB_E_FORMAT);
        return;
    }
    w.role = (Lobby_Role)p[1];
    memcpy(w.host_pk, p + 2, LOBBY_KEY_BYTES);
    w.first_seq = lobby__get64(p + 2 + LOBBY_KEY_BYTES);
    w.next_seq = lobby__get64(p + 10 + LOBBY_KEY_BYTES);
    w.host_present = p[18 + LOBBY_KEY_BYTES] & 1;
    w.guest_present = (p[18 + LOBBY_KEY_BYTES] >> 1) & 1;
    /* The host knows its own key; everyone else checks it against the
     * code, so a lobby cannot send a joiner to another host. */
    if (c->cfg.role == LOBBY_ROLE_HOST
            ? !lobby__equal(w.host_pk, c->cfg.host_pk, LOBBY_KEY_BYTES)
            : lobby_code_check_host(entry_code(c), w.host_pk) != 0) {
        net_close(c->conn, TB_E_SIGNATURE);
        return;
    }
    if ((c->cfg.role == LOBBY_ROLE_SPECTATOR) !=
        (w.role == LOBBY_ROLE_SPECTATOR)) {
        net_close(c->conn, TB_E_FORMAT);
        return;
    }
    c->admitted = 1;
    /* A lobby that numbers below what we hold lost the room (a restart)
     * and it was re-registered: follow its numbering from here on. */
    if (w.next_seq <= c->last_seq)
        c->last_seq = w.next_seq - 1;
    if (c->cb.on_welcome != NULL)
        c->cb.on_welcome(c, &w);
}

static void client_frame(Net_Conn *conn, const uint8_t *p, size_t len)
{
    Lobby_Client *c = net_conn_user(conn);
    uint64_t seq;

    if (c->freeing)
        return;
    if (!c->admitted && p[0] != LOBBY_MSG_WELCOME && p[0] != LOBBY_MSG_ERROR) {
        net_close(conn, TB_E_FORMAT);
        return;
    }
    switch (p[0]) {
    case LOBBY_MSG_WELCOME:
        if (len != LOBBY_LEN_WELCOME || c->admitted)
            break;
        on_welcome(c, p);
        return;
    case LOBBY_MSG_FRAME:
        if (len <= LOBBY_FRAME_HEADER || p[9] > LOBBY_ROLE_GUEST)
            break;
        seq = lobby__get64(p + 1);
        if (seq <= c->last_seq)
            return; /* already have it */
        c->last_seq = seq;
        if (c->cb.on_frame != NULL)
            c->cb.on_frame(c, seq, (Lobby_Role)p[9], p + LOBBY_FRAME_HEADER,
                           len - LOBBY_FRAME_HEADER);
        return;
    case LOBBY_MSG_ACK:
        if (len != LOBBY_LEN_ACK)
            break;
        seq = lobby__get64(p + 1);
        if (seq > c->last_seq)
            c->last_seq = seq;
        if (c->cb.on_ack != NULL)
            c->cb.on_ack(c, seq);
        return;
    case LOBBY_MSG_PRESENCE:
        if (len != LOBBY_LEN_PRESENCE || p[1] > LOBBY_ROLE_GUEST || p[2] > 1)
            break;
        if (c->cb.on_presence != NULL)
            c->cb.on_presence(c, (Lobby_Role)p[1], p[2]);
        return;
    case LOBBY_MSG_ERROR:
        if (len != LOBBY_LEN_ERROR)
            break;
        /* Before admission, a joiner is refused "not allowed" only for
         * a watch code (lobby/server.c on_join): say so. */
        c->refusal = !c->admitted && c->cfg.role == LOBBY_ROLE_GUEST &&
                             p[1] == LOBBY_ERR_NOT_ALLOWED
                         ? TB_E_WATCH_CODE
                         : error_code(p[1]);
        net_close(conn, c->refusal);
        return;
    default:
        break;
    }
    net_close(conn, TB_E_FORMAT);
}

static void client_connected(Net_Conn *conn, int status)
{
    Lobby_Client *c = net_conn_user(conn);
    if (status == 0 && !c->freeing)
        send_hello(c);
}

static void client_closed(Net_Conn *conn, int reason)
{
    Lobby_Client *c = net_conn_user(conn);
    c->conn = NULL;
    c->admitted = 0;
    if (c->freeing) {
        free(c);
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
    Net_Limits lim = c->cfg.limits;

    c->from_seq = from_seq;
    c->refusal = 0;
    c->admitted = 0;
    if (lim.max_frame == 0)
        lim.max_frame = 98304 + LOBBY_FRAME_HEADER;
    return net_connect(c->loop, (const struct sockaddr *)&c->addr, &lim, &ncb,
                       c, &c->conn);
}

int lobby_client_new(uv_loop_t *loop, const struct sockaddr *addr,
                     const Lobby_Client_Config *cfg,
                     const Lobby_Client_Callbacks *cb, void *user,
                     uint64_t from_seq, Lobby_Client **out)
{
    Lobby_Client *c;
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
    c->cfg = *cfg;
    if (cb != NULL)
        c->cb = *cb;
    c->user = user;
    c->last_seq = from_seq;
    rc = client_connect(c, from_seq);
    if (rc != 0) {
        free(c);
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
    char one[128];
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
        if (net_addr_parse(one, &out[*n]) != 0)
            return TB_E_FORMAT;
        (*n)++;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

int lobby_client_resume(Lobby_Client *c, uint64_t from_seq)
{
    if (c == NULL || c->freeing)
        return TB_E_ARG;
    if (c->conn != NULL)
        return TB_E_STATE;
    c->last_seq = from_seq;
    return client_connect(c, from_seq);
}

int lobby_client_send(Lobby_Client *c, const void *data, size_t len)
{
    uv_buf_t parts[2];
    uint8_t type = LOBBY_MSG_DATA;

    if (c == NULL || data == NULL || len == 0)
        return TB_E_ARG;
    if (c->conn == NULL || !c->admitted || c->cfg.role == LOBBY_ROLE_SPECTATOR)
        return TB_E_STATE;
    if (len > NET_FRAME_CAP_MAX - LOBBY_FRAME_HEADER)
        return TB_E_LIMIT;
    parts[0] = uv_buf_init((char *)&type, 1);
    parts[1] = uv_buf_init((char *)(uintptr_t)data, (unsigned)len);
    return net_sendv(c->conn, parts, 2);
}

uint64_t lobby_client_last_seq(const Lobby_Client *c)
{
    return c->last_seq;
}

void *lobby_client_user(const Lobby_Client *c)
{
    return c->user;
}

int lobby_client_connected(const Lobby_Client *c)
{
    return c->conn != NULL && c->admitted;
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
        free(c);
}
