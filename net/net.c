/*
 * net.c: the framed TCP transport of net.h. One Net_Conn holds a TCP
 * handle and one deadline in its loop's timer wheel (clock.c); the
 * deadline does double duty as the next heartbeat or idle timeout while
 * the connection lives, and as the deferred teardown (a deadline of now)
 * once it is marked closing, so a failing peer is always torn down from
 * the loop and never inside its own callback. Sending and receiving only
 * note the time; the deadline is moved when it falls due, so a busy
 * connection costs the wheel one visit per heartbeat interval. Memory is
 * freed in the handle's close callback; libuv runs cancelled write
 * callbacks before it.
 */
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "net_internal.h"
#include "tb_error.h"

#define NET_READ_BUF 65536
#define NET_NEVER UINT32_MAX

enum { NET_CONNECTING, NET_OPEN };

struct Net_Conn {
    uv_tcp_t tcp;
    Net_Clock *clock;
    Net_Wheel_Entry due; /* heartbeat, idle timeout or teardown */
    uv_connect_t connect_req;
    uv_shutdown_t shutdown_req;
    uv_loop_t *loop;
    Net_Limits lim;
    Net_Callbacks cb;
    void *user;
    Net_Server *server;
    Net_Conn *prev, *next; /* in the server's list */
    int state;
    int closing; /* marked: no more frames in or out */
    int torn;    /* uv_close called on the handle */
    int reason;
    uint64_t last_recv, last_send;
    uint8_t hdr[NET_HEADER_BYTES];
    size_t hdr_have;
    uint8_t *body; /* a frame split across reads */
    uint32_t body_len, body_have, body_cap;
    char peer[64];
    char peer_host[64];
    size_t queued; /* memory the writes not yet done pin (NET_WRITE_COST) */
    uint32_t linger; /* ms held after a flushing close's shutdown */
    /* A server's connection: bytes read in the server's turn turn_no;
     * paused: not read again before the next turn (in the server's
     * paused list) */
    size_t turn_read;
    unsigned turn_no;
    int paused;
    Net_Conn *pprev, *pnext;
};

/* Connections a server accepts in one turn of the loop: past it the
 * kernel keeps the rest for the next turn, so a flood of connections
 * (refused or not) is spread over turns and the members' frames are
 * read between them (the relay-limits issue's abuse benchmark). */
#define NET_TURN_ACCEPTS 16

/* Bytes a server's connections read in one turn of the loop, in all
 * (NET_TURN_READ_BYTES) and each (NET_TURN_READ_CONN): past either, a
 * connection's next read waits for the next turn. libuv reads a ready
 * stream up to 32 times 64 KiB in a row, so a hundred senders of big
 * frames made a turn of tens of ms, and a game's small frame waited
 * behind it (the relay-limits issue: abuse.py flood from 100 addresses
 * held a game's p99 at 13.7 ms against 0.2 ms beside it). */
#define NET_TURN_READ_BYTES (1u << 20)
#define NET_TURN_READ_CONN (128u << 10)

struct Net_Server {
    uv_tcp_t tcp;
    uv_check_t turn;   /* once per turn of the loop, after its I/O */
    int turn_closed;
    unsigned accepted; /* this turn */
    unsigned turn_no;  /* turns so far */
    size_t turn_read;  /* bytes its connections read this turn */
    Net_Conn *paused;  /* connections waiting for the next turn to read */
    int deferred;      /* a connection waits in the kernel for uv_accept */
    uv_loop_t *loop;
    Net_Limits lim;
    void (*on_accept)(Net_Server *s, Net_Conn *c);
    void *user;
    Net_Conn *conns;
    size_t nconns;
    int closing;
    int listener_closed;
    void (*done)(void *user);
};

/* A queued write: the request and the framed bytes in one block, freed in
 * the write callback. */
typedef struct Net_Write {
    uv_write_t req;
    size_t cost; /* what it counts in its connection's queue */
    uint8_t bytes[];
} Net_Write;

/* What a queued write of len framed bytes pins until it is done: its
 * block (the request and the bytes) and the allocator's own header. A
 * queue counted in payload bytes alone let a reader that never reads pin
 * twenty times its limit in small messages (the relay-limits issue,
 * finding 2). */
#define NET_MALLOC_OVERHEAD 16
#define NET_WRITE_COST(len) (sizeof(Net_Write) + (len) + NET_MALLOC_OVERHEAD)

/* One read buffer per thread: libuv hands it to read_cb right after
 * alloc_cb, and read_cb copies out whatever it keeps. */
static _Thread_local char net_read_buf[NET_READ_BUF];

void net_limits_default(Net_Limits *lim)
{
    if (lim->max_frame == 0)
        lim->max_frame = 65536;
    if (lim->max_frame > NET_FRAME_CAP_MAX)
        lim->max_frame = NET_FRAME_CAP_MAX;
    if (lim->max_write_queue == 0)
        lim->max_write_queue = 1u << 20;
    /* A single frame must always fit an empty queue. */
    if (lim->max_write_queue <
        NET_WRITE_COST((size_t)lim->max_frame + NET_HEADER_BYTES))
        lim->max_write_queue =
            NET_WRITE_COST((size_t)lim->max_frame + NET_HEADER_BYTES);
    if (lim->heartbeat_ms == 0)
        lim->heartbeat_ms = 5000;
    if (lim->idle_timeout_ms == 0)
        lim->idle_timeout_ms = 15000;
    if (lim->max_conns == 0)
        lim->max_conns = 1024;
}

void net_frame_header(uint8_t out[NET_HEADER_BYTES], uint32_t len)
{
    out[0] = (uint8_t)(len >> 24);
    out[1] = (uint8_t)(len >> 16);
    out[2] = (uint8_t)(len >> 8);
    out[3] = (uint8_t)len;
}

const char *net_strerror(int err)
{
    if (err == 0 || strcmp(tb_errname(err), "TB_E_UNKNOWN") != 0)
        return tb_strerror(err);
    return uv_strerror(err);
}

/* ---- addresses ---- */

static int parse_port(const char *s, int *port)
{
    long v = 0;
    if (*s == '\0')
        return TB_E_ARG;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return TB_E_ARG;
        v = v * 10 + (*s - '0');
        if (v > 65535)
            return TB_E_ARG;
    }
    *port = (int)v;
    return 0;
}

/* A DNS name (RFC 1123 letters, digits, hyphens and dots, with at least
 * one letter so that a bad IPv4 literal such as 999.0.0.1 is never sent
 * to a resolver). */
static int host_name(const char *host)
{
    int letter = 0;
    if (host[0] == '-' || host[0] == '.')
        return 0;
    for (const char *c = host; *c; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))
            letter = 1;
        else if (!(*c >= '0' && *c <= '9') && *c != '-' && *c != '.')
            return 0;
    }
    return letter;
}

/* The first address getaddrinfo gives for name (IPv4 or IPv6), with port. */
static int resolve(const char *name, int port, struct sockaddr_storage *out)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(name, NULL, &hints, &res) != 0 || res == NULL)
        return TB_E_NOTFOUND;
    int rc = TB_E_NOTFOUND;
    for (const struct addrinfo *a = res; a != NULL; a = a->ai_next) {
        if (a->ai_family == AF_INET && a->ai_addrlen <= sizeof *out) {
            memcpy(out, a->ai_addr, a->ai_addrlen);
            ((struct sockaddr_in *)out)->sin_port = htons((uint16_t)port);
            rc = 0;
            break;
        }
        if (a->ai_family == AF_INET6 && a->ai_addrlen <= sizeof *out) {
            memcpy(out, a->ai_addr, a->ai_addrlen);
            ((struct sockaddr_in6 *)out)->sin6_port = htons((uint16_t)port);
            rc = 0;
            break;
        }
    }
    freeaddrinfo(res);
    return rc;
}

int net_addr_parse(const char *hostport, struct sockaddr_storage *out)
{
    char host[NET_ADDR_TEXT_MAX];
    const char *colon;
    size_t hlen;
    int port;

    if (hostport == NULL || out == NULL)
        return TB_E_ARG;
    memset(out, 0, sizeof *out);
    if (hostport[0] == '[') {
        const char *end = strchr(hostport, ']');
        if (end == NULL || end[1] != ':')
            return TB_E_ARG;
        hlen = (size_t)(end - hostport - 1);
        if (hlen == 0 || hlen >= sizeof host)
            return TB_E_ARG;
        memcpy(host, hostport + 1, hlen);
        host[hlen] = '\0';
        if (parse_port(end + 2, &port) != 0)
            return TB_E_ARG;
        if (uv_ip6_addr(host, port, (struct sockaddr_in6 *)out) != 0)
            return TB_E_ARG;
        return 0;
    }
    colon = strrchr(hostport, ':');
    if (colon == NULL)
        return TB_E_ARG;
    hlen = (size_t)(colon - hostport);
    if (hlen == 0 || hlen >= sizeof host)
        return TB_E_ARG;
    memcpy(host, hostport, hlen);
    host[hlen] = '\0';
    if (parse_port(colon + 1, &port) != 0)
        return TB_E_ARG;
    if (strcmp(host, "localhost") == 0)
        memcpy(host, "127.0.0.1", 10);
    if (uv_ip4_addr(host, port, (struct sockaddr_in *)out) == 0)
        return 0;
    return host_name(host) ? resolve(host, port, out) : TB_E_ARG;
}

static int addr_host(const struct sockaddr *addr, char *out, size_t cap,
                     int *port)
{
    if (addr->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)addr;
        *port = ntohs(a->sin_port);
        return uv_ip4_name(a, out, cap) == 0 ? 0 : TB_E_SPACE;
    }
    if (addr->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)addr;
        *port = ntohs(a->sin6_port);
        return uv_ip6_name(a, out, cap) == 0 ? 0 : TB_E_SPACE;
    }
    return TB_E_ARG;
}

int net_addr_format(const struct sockaddr *addr, char *out, size_t cap)
{
    char host[64];
    int port = 0, rc, n;

    if (addr == NULL || out == NULL)
        return TB_E_ARG;
    rc = addr_host(addr, host, sizeof host, &port);
    if (rc != 0)
        return rc;
    if (addr->sa_family == AF_INET6)
        n = snprintf(out, cap, "[%s]:%d", host, port);
    else
        n = snprintf(out, cap, "%s:%d", host, port);
    return (n < 0 || (size_t)n >= cap) ? TB_E_SPACE : 0;
}

/* ---- teardown ---- */

static void server_maybe_free(Net_Server *s)
{
    if (s->closing && s->listener_closed && s->turn_closed &&
        s->nconns == 0) {
        void (*done)(void *) = s->done;
        void *user = s->user;
        free(s);
        if (done != NULL)
            done(user);
    }
}

/* Take c out of its server's paused list (if in it). */
static void conn_unpause(Net_Conn *c)
{
    if (!c->paused)
        return;
    if (c->pprev != NULL)
        c->pprev->pnext = c->pnext;
    else
        c->server->paused = c->pnext;
    if (c->pnext != NULL)
        c->pnext->pprev = c->pprev;
    c->pprev = c->pnext = NULL;
    c->paused = 0;
}

static void conn_handle_closed(uv_handle_t *h)
{
    Net_Conn *c = h->data;
    Net_Server *s = c->server;

    conn_unpause(c);
    if (s != NULL) {
        if (c->prev != NULL)
            c->prev->next = c->next;
        else
            s->conns = c->next;
        if (c->next != NULL)
            c->next->prev = c->prev;
        s->nconns--;
    }
    if (c->cb.on_close != NULL)
        c->cb.on_close(c, c->reason);
    free(c->body);
    net__clock_put(c->clock);
    free(c);
    if (s != NULL)
        server_maybe_free(s);
}

/* The deferred teardown: runs from the loop's timer phase. */
static void conn_reap(Net_Conn *c)
{
    if (c->torn)
        return;
    c->torn = 1;
    net__clock_cancel(c->clock, &c->due);
    uv_close((uv_handle_t *)&c->tcp, conn_handle_closed);
}

static void conn_due(Net_Wheel_Entry *e);

/* Tear c down from the loop at when (ms, loop time). */
static void conn_reap_at(Net_Conn *c, uint64_t when)
{
    net__clock_at(c->clock, &c->due, when, conn_due);
}

static void conn_mark(Net_Conn *c, int reason)
{
    if (c->closing)
        return;
    c->closing = 1;
    c->reason = reason;
    uv_read_stop((uv_stream_t *)&c->tcp);
    conn_unpause(c);
}

void net_close(Net_Conn *c, int reason)
{
    if (c == NULL || c->torn)
        return;
    conn_mark(c, reason);
    conn_reap_at(c, uv_now(c->loop));
}

static void conn_shutdown_done(uv_shutdown_t *req, int status)
{
    Net_Conn *c = req->data;
    (void)status;
    if (!c->torn)
        conn_reap_at(c, uv_now(c->loop) + c->linger);
}

void net_close_linger(Net_Conn *c, int reason, uint32_t linger_ms)
{
    if (c == NULL || c->closing)
        return;
    /* Spread over [linger_ms, 2 linger_ms] by the connection's address:
     * refusals that came in one burst would otherwise all be closed in
     * one turn of the loop linger_ms later (a close with unread bytes
     * sends a reset: tens of us each), and come back together. */
    c->linger = linger_ms +
                (uint32_t)(((uintptr_t)c / sizeof *c) % ((uint64_t)linger_ms + 1));
    net_close_flush(c, reason);
}

void net_close_flush(Net_Conn *c, int reason)
{
    uint32_t wait;
    if (c == NULL || c->closing)
        return;
    conn_mark(c, reason);
    if (c->state != NET_OPEN ||
        uv_shutdown(&c->shutdown_req, (uv_stream_t *)&c->tcp,
                    conn_shutdown_done) != 0) {
        conn_reap_at(c, uv_now(c->loop));
        return;
    }
    wait = c->lim.idle_timeout_ms == NET_NEVER ? 2000 : c->lim.idle_timeout_ms;
    conn_reap_at(c, uv_now(c->loop) + wait);
}

int net_is_closing(const Net_Conn *c)
{
    return c->closing;
}

/* ---- writing ---- */

static void conn_write_done(uv_write_t *req, int status)
{
    Net_Conn *c = req->handle->data;
    c->queued -= ((Net_Write *)(void *)req)->cost;
    free(req);
    if (status < 0 && status != UV_ECANCELED)
        net_close(c, status);
    else if (!c->closing && c->cb.on_drain != NULL && c->queued == 0)
        c->cb.on_drain(c);
}

static int conn_write(Net_Conn *c, const uv_buf_t *parts, unsigned n,
                      size_t total)
{
    Net_Write *w;
    uv_buf_t buf;
    size_t off = NET_HEADER_BYTES;
    int rc;

    size_t cost = NET_WRITE_COST(NET_HEADER_BYTES + total);
    if (c->queued + cost > c->lim.max_write_queue) {
        net_close(c, UV_ENOBUFS);
        return UV_ENOBUFS;
    }
    w = malloc(sizeof *w + NET_HEADER_BYTES + total);
    if (w == NULL)
        return TB_E_NOMEM;
    w->cost = cost;
    net_frame_header(w->bytes, (uint32_t)total);
    for (unsigned i = 0; i < n; i++) {
        if (parts[i].len > 0)
            memcpy(w->bytes + off, parts[i].base, parts[i].len);
        off += parts[i].len;
    }
    buf = uv_buf_init((char *)w->bytes, (unsigned)(NET_HEADER_BYTES + total));
    rc = uv_write(&w->req, (uv_stream_t *)&c->tcp, &buf, 1, conn_write_done);
    if (rc != 0) {
        free(w);
        net_close(c, rc);
        return rc;
    }
    c->queued += cost;
    c->last_send = uv_now(c->loop);
    return 0;
}

int net_sendv(Net_Conn *c, const uv_buf_t *parts, unsigned n)
{
    size_t total = 0;

    if (c == NULL || (parts == NULL && n > 0))
        return TB_E_ARG;
    for (unsigned i = 0; i < n; i++) {
        total += parts[i].len;
        if (total > c->lim.max_frame)
            return TB_E_LIMIT;
    }
    if (total == 0)
        return TB_E_ARG;
    if (c->closing || c->state != NET_OPEN)
        return TB_E_STATE;
    return conn_write(c, parts, n, total);
}

int net_send(Net_Conn *c, const void *data, size_t len)
{
    uv_buf_t b;
    if (data == NULL)
        return TB_E_ARG;
    if (len > NET_FRAME_CAP_MAX)
        return TB_E_LIMIT;
    b = uv_buf_init((char *)(uintptr_t)data, (unsigned)len);
    return net_sendv(c, &b, 1);
}

size_t net_write_queue(const Net_Conn *c) { return c->queued; }

/* ---- reading ---- */

/* A server's connection c has read its share of this turn, or the
 * server has read all it reads in one (NET_TURN_READ_BYTES). */
static int turn_spent(Net_Conn *c)
{
    Net_Server *s = c->server;
    if (s == NULL)
        return 0;
    if (c->turn_no != s->turn_no) {
        c->turn_no = s->turn_no;
        c->turn_read = 0;
    }
    return s->turn_read >= NET_TURN_READ_BYTES ||
           c->turn_read >= NET_TURN_READ_CONN;
}

static void conn_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    (void)suggested;
    /* (no buffer: libuv says UV_ENOBUFS, and conn_read pauses c) */
    *buf = turn_spent(h->data) ? uv_buf_init(NULL, 0)
                               : uv_buf_init(net_read_buf, sizeof net_read_buf);
}

/* c reads no more this turn: the server's next turn reads it again. */
static void conn_pause(Net_Conn *c)
{
    Net_Server *s = c->server;
    if (c->paused || c->closing || s == NULL)
        return;
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->paused = 1;
    c->pprev = NULL;
    c->pnext = s->paused;
    if (s->paused != NULL)
        s->paused->pprev = c;
    s->paused = c;
}

static void conn_deliver(Net_Conn *c, const uint8_t *data, size_t len)
{
    if (c->cb.on_frame != NULL)
        c->cb.on_frame(c, data, len);
}

static void conn_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    Net_Conn *c = stream->data;
    const uint8_t *p = (const uint8_t *)buf->base;
    size_t n;

    if (nread == UV_ENOBUFS) { /* its share of this turn is read */
        conn_pause(c);
        return;
    }
    if (nread < 0) {
        net_close(c, (int)nread);
        return;
    }
    if (nread == 0 || c->closing)
        return;
    n = (size_t)nread;
    if (c->server != NULL) {
        c->server->turn_read += n;
        c->turn_read += n;
    }
    c->last_recv = uv_now(c->loop);
    while (n > 0 && !c->closing) {
        if (c->body == NULL) {
            size_t take = NET_HEADER_BYTES - c->hdr_have;
            uint32_t len;
            if (take > n)
                take = n;
            memcpy(c->hdr + c->hdr_have, p, take);
            c->hdr_have += take;
            p += take;
            n -= take;
            if (c->hdr_have < NET_HEADER_BYTES)
                break;
            c->hdr_have = 0;
            len = (uint32_t)c->hdr[0] << 24 | (uint32_t)c->hdr[1] << 16 |
                  (uint32_t)c->hdr[2] << 8 | (uint32_t)c->hdr[3];
            if (len == 0)
                continue; /* heartbeat */
            /* The cap is checked before anything is allocated. A web
             * server given our frame answers "HTTP/1.1 400 ...", whose
             * first four bytes read as a length of 1.2 GB: named as
             * such, so a client given a web address can say so. */
            if (len > c->lim.max_frame) {
                net_close(c, memcmp(c->hdr, "HTTP", 4) == 0 ? TB_E_HTTP
                                                            : TB_E_LIMIT);
                return;
            }
            if (n >= len) { /* whole frame in this read: no copy */
                const uint8_t *frame = p;
                p += len;
                n -= len;
                conn_deliver(c, frame, len);
                continue;
            }
            /* Memory follows the bytes that really arrive, not the
             * length a peer announces: a peer that sends only headers
             * costs 4 KiB, not max_frame. */
            c->body_cap = len < 4096 ? len : 4096;
            c->body = malloc(c->body_cap);
            if (c->body == NULL) {
                net_close(c, TB_E_NOMEM);
                return;
            }
            c->body_len = len;
            c->body_have = 0;
        } else {
            size_t take = c->body_len - c->body_have;
            if (take > n)
                take = n;
            if (c->body_have + take > c->body_cap) {
                size_t cap = (size_t)c->body_cap * 2;
                uint8_t *grown;
                if (cap < c->body_have + take)
                    cap = c->body_have + take;
                if (cap > c->body_len)
                    cap = c->body_len;
                grown = realloc(c->body, cap);
                if (grown == NULL) {
                    net_close(c, TB_E_NOMEM);
                    return;
                }
                c->body = grown;
                c->body_cap = (uint32_t)cap;
            }
            memcpy(c->body + c->body_have, p, take);
            c->body_have += (uint32_t)take;
            p += take;
            n -= take;
            if (c->body_have == c->body_len) {
                uint8_t *frame = c->body;
                c->body = NULL;
                conn_deliver(c, frame, c->body_len);
                free(frame);
            }
        }
    }
}

/* ---- liveness ---- */

/* The next heartbeat or idle timeout, whichever is first (ms), or
 * NET_WHEEL_NEVER when the connection has neither. */
static uint64_t conn_next_due(const Net_Conn *c)
{
    uint64_t due = NET_WHEEL_NEVER;
    if (c->lim.idle_timeout_ms != NET_NEVER)
        due = c->last_recv + c->lim.idle_timeout_ms;
    if (c->lim.heartbeat_ms != NET_NEVER &&
        c->last_send + c->lim.heartbeat_ms < due)
        due = c->last_send + c->lim.heartbeat_ms;
    return due;
}

static void conn_tick(Net_Conn *c)
{
    uint64_t now = uv_now(c->loop), due;

    if (c->state != NET_OPEN)
        return;
    if (c->lim.idle_timeout_ms != NET_NEVER &&
        now - c->last_recv >= c->lim.idle_timeout_ms) {
        net_close(c, UV_ETIMEDOUT);
        return;
    }
    if (c->lim.heartbeat_ms != NET_NEVER &&
        now - c->last_send >= c->lim.heartbeat_ms) {
        (void)conn_write(c, NULL, 0, 0);
        if (c->closing)
            return; /* the write failed and queued the teardown */
    }
    due = conn_next_due(c);
    if (due != NET_WHEEL_NEVER)
        net__clock_at(c->clock, &c->due, due, conn_due);
}

/* The connection's one deadline: its teardown once it is closing, else
 * its heartbeat or idle timeout (which may have moved since it was set:
 * then it is only set again). */
static void conn_due(Net_Wheel_Entry *e)
{
    Net_Conn *c = (Net_Conn *)(void *)((char *)e - offsetof(Net_Conn, due));
    if (c->closing)
        conn_reap(c);
    else
        conn_tick(c);
}

static void conn_start(Net_Conn *c)
{
    uint64_t due;
    int rc;

    c->state = NET_OPEN;
    c->last_recv = c->last_send = uv_now(c->loop);
    uv_tcp_nodelay(&c->tcp, 1);
    rc = uv_read_start((uv_stream_t *)&c->tcp, conn_alloc, conn_read);
    if (rc != 0) {
        net_close(c, rc);
        return;
    }
    due = conn_next_due(c);
    if (due != NET_WHEEL_NEVER)
        net__clock_at(c->clock, &c->due, due, conn_due);
}

/* family AF_UNSPEC: the socket is made later (by accept or connect);
 * else now, so options can be set before a bind. */
static Net_Conn *conn_new(uv_loop_t *loop, const Net_Limits *lim,
                          unsigned family)
{
    Net_Conn *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->clock = net__clock_get(loop);
    if (c->clock == NULL) {
        free(c);
        return NULL;
    }
    if (uv_tcp_init_ex(loop, &c->tcp, family) != 0) {
        net__clock_put(c->clock);
        free(c);
        return NULL;
    }
    c->loop = loop;
    c->tcp.data = c;
    c->connect_req.data = c;
    c->shutdown_req.data = c;
    c->lim = *lim;
    c->state = NET_CONNECTING;
    return c;
}

static void conn_set_peer(Net_Conn *c, const struct sockaddr *addr)
{
    int port;
    if (net_addr_format(addr, c->peer, sizeof c->peer) != 0)
        memcpy(c->peer, "?", 2);
    if (addr_host(addr, c->peer_host, sizeof c->peer_host, &port) != 0)
        memcpy(c->peer_host, "?", 2);
}

/* ---- outgoing ---- */

/* Bind the local end to source before connecting. A bind to port 0
 * picks a port that is free for every destination, by a search that
 * slows down as the address's ports fill up (over a millisecond a bind
 * with 12,000 taken); with IP_BIND_ADDRESS_NO_PORT (Linux) the port is
 * picked at connect time, per destination, as without a bind. */
static int conn_bind(Net_Conn *c, const struct sockaddr *source)
{
#ifdef IP_BIND_ADDRESS_NO_PORT
    uv_os_fd_t fd;
    int one = 1;
    if (source->sa_family == AF_INET &&
        uv_fileno((uv_handle_t *)&c->tcp, &fd) == 0)
        (void)setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one,
                         sizeof one);
#endif
    return uv_tcp_bind(&c->tcp, source, 0);
}

static void conn_connected(uv_connect_t *req, int status)
{
    Net_Conn *c = req->data;
    if (c->closing)
        return;
    if (status < 0) {
        if (c->cb.on_connect != NULL)
            c->cb.on_connect(c, status);
        net_close(c, status);
        return;
    }
    conn_start(c);
    if (c->cb.on_connect != NULL && !c->closing)
        c->cb.on_connect(c, 0);
}

int net_connect(uv_loop_t *loop, const struct sockaddr *addr,
                const Net_Limits *lim, const Net_Callbacks *cb, void *user,
                Net_Conn **out)
{
    return net_connect_from(loop, addr, NULL, lim, cb, user, out);
}

int net_connect_from(uv_loop_t *loop, const struct sockaddr *addr,
                     const struct sockaddr *source, const Net_Limits *lim,
                     const Net_Callbacks *cb, void *user, Net_Conn **out)
{
    Net_Limits l = {0};
    Net_Conn *c;
    int rc;

    if (loop == NULL || addr == NULL || out == NULL)
        return TB_E_ARG;
    *out = NULL;
    if (lim != NULL)
        l = *lim;
    net_limits_default(&l);
    c = conn_new(loop, &l, source != NULL ? source->sa_family : AF_UNSPEC);
    if (c == NULL)
        return TB_E_NOMEM;
    if (cb != NULL)
        c->cb = *cb;
    c->user = user;
    conn_set_peer(c, addr);
    rc = source != NULL ? conn_bind(c, source) : 0;
    if (rc == 0)
        rc = uv_tcp_connect(&c->connect_req, &c->tcp, addr, conn_connected);
    if (rc != 0) {
        /* No callback may run: detach them before the teardown. */
        memset(&c->cb, 0, sizeof c->cb);
        net_close(c, rc);
        return rc;
    }
    *out = c;
    return 0;
}

void net_conn_set_callbacks(Net_Conn *c, const Net_Callbacks *cb, void *user)
{
    if (cb != NULL)
        c->cb = *cb;
    else
        memset(&c->cb, 0, sizeof c->cb);
    c->user = user;
}

void *net_conn_user(const Net_Conn *c)
{
    return c->user;
}

Net_Server *net_conn_server(const Net_Conn *c)
{
    return c->server;
}

const char *net_conn_peer(const Net_Conn *c)
{
    return c->peer;
}

const char *net_conn_peer_host(const Net_Conn *c)
{
    return c->peer_host;
}

/* ---- servers ---- */

static void server_accept(uv_stream_t *listener, int status)
{
    Net_Server *s = listener->data;
    struct sockaddr_storage peer;
    int namelen = sizeof peer;
    Net_Conn *c;

    if (status < 0 || s->closing)
        return;
    if (s->accepted >= NET_TURN_ACCEPTS) {
        /* not taken now: libuv stops watching the listener until the
         * next uv_accept (server_turn, after this turn's I/O) */
        s->deferred = 1;
        return;
    }
    s->accepted++;
    c = conn_new(s->loop, &s->lim, AF_UNSPEC);
    if (c == NULL)
        return; /* the pending connection waits for the next round */
    c->server = s;
    c->next = s->conns;
    if (s->conns != NULL)
        s->conns->prev = c;
    s->conns = c;
    s->nconns++;
    if (uv_accept(listener, (uv_stream_t *)&c->tcp) != 0) {
        net_close(c, TB_E_IO);
        return;
    }
    if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&peer, &namelen) == 0)
        conn_set_peer(c, (struct sockaddr *)&peer);
    else
        conn_set_peer(c, (const struct sockaddr *)&(struct sockaddr){0});
    if (s->nconns > s->lim.max_conns) {
        if (s->lim.full_len > 0) { /* said, then closed once written */
            conn_start(c);
            if (net_send(c, s->lim.full_frame, s->lim.full_len) == 0) {
                net_close_flush(c, TB_E_LIMIT);
                return;
            }
        }
        net_close(c, TB_E_LIMIT);
        return;
    }
    conn_start(c);
    if (!c->closing && s->on_accept != NULL)
        s->on_accept(s, c);
}

static void server_turn(uv_check_t *h)
{
    Net_Server *s = h->data;
    s->accepted = 0;
    s->turn_no++;
    s->turn_read = 0;
    while (s->paused != NULL) { /* their next reads: the next turn's */
        Net_Conn *c = s->paused;
        conn_unpause(c);
        if (!c->closing &&
            uv_read_start((uv_stream_t *)&c->tcp, conn_alloc, conn_read) != 0)
            net_close(c, TB_E_IO);
    }
    if (s->deferred && !s->closing) {
        s->deferred = 0;
        server_accept((uv_stream_t *)&s->tcp, 0);
    }
}

static void server_turn_closed(uv_handle_t *h)
{
    Net_Server *s = h->data;
    s->turn_closed = 1;
    server_maybe_free(s);
}

int net_listen(uv_loop_t *loop, const struct sockaddr *addr,
               const Net_Limits *lim,
               void (*on_accept)(Net_Server *s, Net_Conn *c), void *user,
               Net_Server **out)
{
    Net_Server *s;
    int rc;

    if (loop == NULL || addr == NULL || out == NULL)
        return TB_E_ARG;
    *out = NULL;
    s = calloc(1, sizeof *s);
    if (s == NULL)
        return TB_E_NOMEM;
    if (lim != NULL)
        s->lim = *lim;
    net_limits_default(&s->lim);
    s->loop = loop;
    s->on_accept = on_accept;
    s->user = user;
    rc = uv_tcp_init(loop, &s->tcp);
    if (rc != 0) {
        free(s);
        return rc;
    }
    s->tcp.data = s;
    uv_check_init(loop, &s->turn);
    s->turn.data = s;
    uv_check_start(&s->turn, server_turn);
    uv_unref((uv_handle_t *)&s->turn);
    rc = uv_tcp_bind(&s->tcp, addr, 0);
    if (rc == 0)
        rc = uv_listen((uv_stream_t *)&s->tcp, 511, server_accept);
    if (rc != 0) {
        /* Freed in the close callback like every handle's owner. */
        s->on_accept = NULL;
        net_server_close(s, NULL);
        return rc;
    }
    *out = s;
    return 0;
}

int net_server_address(const Net_Server *s, char *out, size_t cap)
{
    struct sockaddr_storage a;
    int len = sizeof a;
    int rc = uv_tcp_getsockname(&s->tcp, (struct sockaddr *)&a, &len);
    if (rc != 0)
        return rc;
    return net_addr_format((struct sockaddr *)&a, out, cap);
}

void *net_server_user(const Net_Server *s)
{
    return s->user;
}

size_t net_server_conns(const Net_Server *s)
{
    return s->nconns;
}

static void server_listener_closed(uv_handle_t *h)
{
    Net_Server *s = h->data;
    s->listener_closed = 1;
    server_maybe_free(s);
}

void net_server_close(Net_Server *s, void (*done)(void *user))
{
    if (s == NULL || s->closing)
        return;
    s->closing = 1;
    s->done = done;
    for (Net_Conn *c = s->conns; c != NULL; c = c->next)
        net_close(c, 0);
    uv_close((uv_handle_t *)&s->turn, server_turn_closed);
    uv_close((uv_handle_t *)&s->tcp, server_listener_closed);
}
