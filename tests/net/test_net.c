/*
 * test_net.c: the framed transport on real libuv loops over loopback:
 * frames of every size arrive whole and in order, an oversized length is
 * refused before any allocation, a reader that stops reading is dropped
 * when its write queue is full, heartbeats keep a quiet link open while
 * silence times it out, a connection closed from inside its own callback
 * is torn down later from the loop, and addresses parse strictly. Every
 * test ends by checking that uv_loop_close() succeeds.
 */
#include "loop_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- an echo server and a recording client ---- */

typedef struct Echo {
    Net_Server *srv;
    int port;
    int accepted;
    int closes;
    int last_reason;
    size_t frames;
    int server_gone;
} Echo;

static Echo echo;

static void echo_frame(Net_Conn *c, const uint8_t *d, size_t n)
{
    echo.frames++;
    cr_assert_eq(net_send(c, d, n), 0);
}

static void echo_closed(Net_Conn *c, int reason)
{
    (void)c;
    echo.closes++;
    echo.last_reason = reason;
}

static void echo_accept(Net_Server *s, Net_Conn *c)
{
    static const Net_Callbacks cb = {NULL, echo_frame, echo_closed, NULL};
    (void)s;
    echo.accepted++;
    net_conn_set_callbacks(c, &cb, NULL);
}

static void echo_gone(void *user)
{
    (void)user;
    echo.server_gone = 1;
}

static void echo_start(const Net_Limits *lim)
{
    struct sockaddr_storage a = loopback(0);
    char where[64];
    memset(&echo, 0, sizeof echo);
    cr_assert_eq(net_listen(&test_loop, (struct sockaddr *)&a, lim, echo_accept,
                            NULL, &echo.srv),
                 0);
    cr_assert_eq(net_server_address(echo.srv, where, sizeof where), 0);
    cr_assert(strncmp(where, "127.0.0.1:", 10) == 0, "%s", where);
    echo.port = port_of(where);
    cr_assert_gt(echo.port, 0);
}

static void echo_stop(void)
{
    net_server_close(echo.srv, echo_gone);
    WAIT_FOR(echo.server_gone, 2000);
    cr_assert(echo.server_gone);
}

typedef struct Rec {
    Net_Conn *conn;
    int connected;
    int closed;
    int reason;
    size_t frames;
    uint8_t *buf; /* everything received, concatenated */
    size_t len, cap;
} Rec;

static void rec_connect(Net_Conn *c, int status)
{
    Rec *r = net_conn_user(c);
    r->connected = status == 0 ? 1 : status;
}

static void rec_frame(Net_Conn *c, const uint8_t *d, size_t n)
{
    Rec *r = net_conn_user(c);
    if (r->len + n > r->cap) {
        r->cap = (r->len + n) * 2;
        r->buf = realloc(r->buf, r->cap);
        cr_assert_not_null(r->buf);
    }
    memcpy(r->buf + r->len, d, n);
    r->len += n;
    r->frames++;
}

static void rec_closed(Net_Conn *c, int reason)
{
    Rec *r = net_conn_user(c);
    r->closed++;
    r->reason = reason;
    r->conn = NULL;
}

static const Net_Callbacks rec_cb = {rec_connect, rec_frame, rec_closed, NULL};

static void rec_open(Rec *r, int port, const Net_Limits *lim)
{
    struct sockaddr_storage a = loopback(port);
    memset(r, 0, sizeof *r);
    cr_assert_eq(net_connect(&test_loop, (struct sockaddr *)&a, lim, &rec_cb, r,
                             &r->conn),
                 0);
    WAIT_FOR(r->connected != 0, 2000);
    cr_assert_eq(r->connected, 1);
}

/* Deterministic bytes for frame i (xorshift; independent of net/). */
static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)x;
    }
}

Test(net, frames_round_trip_whole_and_in_order)
{
    Net_Limits lim = {.max_frame = 300000, .max_write_queue = 8u << 20};
    /* Sizes: one byte, small frames that share a read, frames that
     * straddle reads, and frames larger than the 64 KiB read buffer. */
    static const size_t sizes[] = {1,     2,      3,      4,      5,
                                   100,   4095,   4096,   65535,  65536,
                                   65537, 131072, 299999, 300000, 7};
    size_t nsizes = sizeof sizes / sizeof sizes[0], total = 0;
    uint8_t *expect, *p;
    Rec r;

    loop_start();
    echo_start(&lim);
    rec_open(&r, echo.port, &lim);
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < nsizes; i++)
            total += sizes[i];
    expect = malloc(total);
    cr_assert_not_null(expect);
    p = expect;
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < nsizes; i++) {
            fill(p, sizes[i], (uint32_t)(round * 100 + i));
            cr_assert_eq(net_send(r.conn, p, sizes[i]), 0);
            p += sizes[i];
        }
    WAIT_FOR(r.len == total, 10000);
    cr_assert_eq(r.frames, 3 * nsizes);
    cr_assert_eq(r.len, total);
    cr_assert(memcmp(r.buf, expect, total) == 0, "echoed bytes differ");
    cr_assert_eq(echo.frames, 3 * nsizes);
    /* Length 0 is not a frame to send. */
    cr_assert_eq(net_send(r.conn, expect, 0), TB_E_ARG);
    net_close(r.conn, 0);
    WAIT_FOR(r.closed && echo.closes == 1, 2000);
    cr_assert_eq(r.closed, 1);
    cr_assert_eq(r.reason, 0);
    cr_assert_eq(echo.last_reason, UV_EOF);
    free(expect);
    free(r.buf);
    echo_stop();
    loop_finish();
}

Test(net, oversize_frame_refused_before_allocation)
{
    Net_Limits lim = {.max_frame = 1024};
    uint8_t big[2048] = {0};
    uint8_t hdr[NET_HEADER_BYTES];
    Raw_Peer raw, raw2;
    Rec r;

    loop_start();
    echo_start(&lim);
    /* The sender refuses first. */
    rec_open(&r, echo.port, &lim);
    cr_assert_eq(net_send(r.conn, big, 1025), TB_E_LIMIT);
    cr_assert_eq(net_send(r.conn, big, 1024), 0);
    WAIT_FOR(r.frames == 1, 2000);
    cr_assert_eq(r.frames, 1);

    /* A raw peer announces 1025 bytes: dropped on the header alone. */
    raw_connect(&raw, echo.port, 1);
    net_frame_header(hdr, 1025);
    raw_write(&raw, hdr, sizeof hdr);
    WAIT_FOR(raw.eof, 2000);
    cr_assert(raw.eof);
    cr_assert_eq(echo.last_reason, TB_E_LIMIT);
    cr_assert_eq(raw.received, 0, "nothing may be echoed");

    /* A length of 4 GiB - 1: the same, no attempt to allocate it. */
    raw_connect(&raw2, echo.port, 1);
    memset(hdr, 0xff, sizeof hdr);
    raw_write(&raw2, hdr, sizeof hdr);
    WAIT_FOR(raw2.eof, 2000);
    cr_assert(raw2.eof);
    cr_assert_eq(echo.frames, 1);

    /* The well-behaved connection is untouched. */
    cr_assert_eq(net_send(r.conn, big, 10), 0);
    WAIT_FOR(r.frames == 2, 2000);
    cr_assert_eq(r.frames, 2);
    raw_close(&raw);
    raw_close(&raw2);
    net_close(r.conn, 0);
    WAIT_FOR(r.closed, 2000);
    free(r.buf);
    echo_stop();
    loop_finish();
}

/* ---- a server that pushes to whoever connects ---- */

static Net_Conn *pushed;
static int pushed_closed, pushed_reason;

static void push_closed(Net_Conn *c, int reason)
{
    (void)c;
    pushed_closed = 1;
    pushed_reason = reason;
    pushed = NULL;
}

static void push_accept(Net_Server *s, Net_Conn *c)
{
    static const Net_Callbacks cb = {NULL, NULL, push_closed, NULL};
    (void)s;
    net_conn_set_callbacks(c, &cb, NULL);
    pushed = c;
}

Test(net, slow_reader_dropped_at_write_queue_limit)
{
    Net_Limits lim = {.max_frame = 16384,
                      .max_write_queue = 65536,
                      .heartbeat_ms = UINT32_MAX,
                      .idle_timeout_ms = UINT32_MAX};
    struct sockaddr_storage a = loopback(0);
    static uint8_t chunk[16384];
    Net_Server *srv;
    char where[64];
    Raw_Peer raw;
    int rc = 0, sent = 0;
    size_t most = 0;

    loop_start();
    pushed = NULL;
    pushed_closed = 0;
    cr_assert_eq(net_listen(&test_loop, (struct sockaddr *)&a, &lim,
                            push_accept, NULL, &srv),
                 0);
    cr_assert_eq(net_server_address(srv, where, sizeof where), 0);
    raw_connect(&raw, port_of(where), 0); /* never reads */
    WAIT_FOR(pushed != NULL, 2000);
    cr_assert_not_null(pushed);
    /* Push until the kernel's buffers are full and the queue hits the cap
     * (bounded: 4096 frames of 16 KiB = 64 MiB at most). */
    for (int i = 0; i < 4096 && rc == 0; i++) {
        rc = net_send(pushed, chunk, sizeof chunk);
        if (rc == 0) {
            sent++;
            if (net_write_queue(pushed) > most)
                most = net_write_queue(pushed);
        }
        uv_run(&test_loop, UV_RUN_NOWAIT);
    }
    cr_assert_eq(rc, UV_ENOBUFS, "the slow reader was never dropped");
    cr_assert_leq(most, 65536, "queue grew past its limit: %zu", most);
    cr_assert_gt(sent, 0);
    WAIT_FOR(pushed_closed, 2000);
    cr_assert(pushed_closed);
    cr_assert_eq(pushed_reason, UV_ENOBUFS);
    raw_close(&raw);
    net_server_close(srv, NULL);
    loop_finish();
}

/* The relay-limits issue, finding 2: a queue counted in payload bytes
 * let many small messages pin far more than the limit (each its own
 * allocation of a write request and its bytes). Now a write counts what
 * it pins: in one turn of the loop (nothing completes), 9-byte messages
 * to a reader that never reads are refused once their blocks pass 8 KiB,
 * so at most 8192 / (4 + 9 + sizeof(uv_write_t)) go; before, all 500
 * went (libuv wrote them at once and reported an empty queue). */
Test(net, small_messages_count_what_they_pin)
{
    Net_Limits lim = {.max_frame = 64,
                      .max_write_queue = 8192,
                      .heartbeat_ms = UINT32_MAX,
                      .idle_timeout_ms = UINT32_MAX};
    struct sockaddr_storage a = loopback(0);
    static const uint8_t ack[9] = {0x83, 0, 0, 0, 0, 0, 0, 0, 1};
    Net_Server *srv;
    char where[64];
    Raw_Peer raw;
    int rc = 0, sent = 0;

    loop_start();
    pushed = NULL;
    pushed_closed = 0;
    cr_assert_eq(net_listen(&test_loop, (struct sockaddr *)&a, &lim,
                            push_accept, NULL, &srv),
                 0);
    cr_assert_eq(net_server_address(srv, where, sizeof where), 0);
    raw_connect(&raw, port_of(where), 0); /* never reads */
    WAIT_FOR(pushed != NULL, 2000);
    cr_assert_not_null(pushed);
    for (int i = 0; i < 500 && rc == 0; i++) {
        rc = net_send(pushed, ack, sizeof ack);
        sent += rc == 0;
    }
    cr_assert_eq(rc, UV_ENOBUFS, "500 small messages all queued");
    cr_assert_leq(sent, 8192 / (4 + 9 + sizeof(uv_write_t)), "%d went", sent);
    cr_assert_gt(sent, 8192 / (4 + 9 + sizeof(uv_write_t) + 64),
                 "only %d went", sent);
    WAIT_FOR(pushed_closed, 2000);
    cr_assert_eq(pushed_reason, UV_ENOBUFS);
    raw_close(&raw);
    net_server_close(srv, NULL);
    loop_finish();
}

Test(net, heartbeats_keep_quiet_link_and_silence_times_out)
{
    Net_Limits lim = {.heartbeat_ms = 20, .idle_timeout_ms = 400};
    Raw_Peer silent;
    Rec r;

    loop_start();
    echo_start(&lim);
    rec_open(&r, echo.port, &lim);
    /* Both ends send only heartbeats for well over the idle timeout. */
    loop_for(1200);
    cr_assert_eq(r.closed, 0, "heartbeats did not keep the link");
    cr_assert_eq(echo.closes, 0);
    cr_assert_eq(echo.frames, 0, "a heartbeat reached the user");

    /* A peer that never sends anything is timed out. */
    raw_connect(&silent, echo.port, 0);
    WAIT_FOR(echo.closes == 1, 2000);
    cr_assert_eq(echo.closes, 1);
    cr_assert_eq(echo.last_reason, UV_ETIMEDOUT);
    cr_assert_eq(r.closed, 0);
    raw_close(&silent);
    net_close(r.conn, 0);
    WAIT_FOR(r.closed, 2000);
    echo_stop();
    loop_finish();
}

/* ---- closing from inside callbacks ---- */

static Net_Conn *victim;
static int in_frame, closed_during_frame, killer_closes, victim_closes;

static void killer_frame(Net_Conn *c, const uint8_t *d, size_t n)
{
    (void)d;
    (void)n;
    in_frame = 1;
    net_close(c, TB_E_FORMAT); /* itself */
    net_close(c, 0);           /* twice: the first reason wins */
    net_close(victim, 0);      /* and another connection */
    cr_assert_eq(net_send(c, "x", 1), TB_E_STATE);
    in_frame = 0;
}

static void killer_closed(Net_Conn *c, int reason)
{
    (void)c;
    if (in_frame)
        closed_during_frame = 1;
    cr_assert_eq(reason, TB_E_FORMAT);
    killer_closes++;
}

static void victim_closed(Net_Conn *c, int reason)
{
    (void)c;
    if (in_frame)
        closed_during_frame = 1;
    cr_assert_eq(reason, 0);
    victim_closes++;
}

static Net_Conn *accepted[2];
static int naccepted;

static void kill_accept(Net_Server *s, Net_Conn *c)
{
    static const Net_Callbacks killer = {NULL, killer_frame, killer_closed,
                                         NULL};
    static const Net_Callbacks quiet = {NULL, NULL, victim_closed, NULL};
    (void)s;
    accepted[naccepted] = c;
    net_conn_set_callbacks(c, naccepted == 0 ? &killer : &quiet, NULL);
    if (naccepted == 1)
        victim = c;
    naccepted++;
}

Test(net, close_inside_callback_is_deferred_to_the_loop)
{
    struct sockaddr_storage a = loopback(0);
    Net_Server *srv;
    char where[64];
    Rec r1, r2;

    loop_start();
    naccepted = 0;
    cr_assert_eq(net_listen(&test_loop, (struct sockaddr *)&a, NULL,
                            kill_accept, NULL, &srv),
                 0);
    cr_assert_eq(net_server_address(srv, where, sizeof where), 0);
    rec_open(&r1, port_of(where), NULL);
    WAIT_FOR(naccepted == 1, 2000);
    rec_open(&r2, port_of(where), NULL);
    WAIT_FOR(naccepted == 2, 2000);
    cr_assert_eq(naccepted, 2);
    /* Several frames in one write: the first closes; the rest must not
     * reach the closed connection. */
    cr_assert_eq(net_send(r1.conn, "a", 1), 0);
    cr_assert_eq(net_send(r1.conn, "b", 1), 0);
    WAIT_FOR(killer_closes == 1 && victim_closes == 1 && r1.closed && r2.closed,
             2000);
    cr_assert_eq(killer_closes, 1);
    cr_assert_eq(victim_closes, 1);
    cr_assert_eq(closed_during_frame, 0, "torn down inside a callback");
    cr_assert(r1.reason == UV_EOF || r1.reason == UV_ECONNRESET, "%d",
              r1.reason);
    cr_assert_eq(net_server_conns(srv), 0);
    net_server_close(srv, NULL);
    loop_finish();
}

Test(net, refused_connect_reports_and_cleans_up)
{
    struct sockaddr_storage a = loopback(0);
    Net_Server *srv;
    char where[64];
    int port;
    Rec r;

    loop_start();
    /* Find a free port, then stop listening on it. */
    cr_assert_eq(
        net_listen(&test_loop, (struct sockaddr *)&a, NULL, NULL, NULL, &srv),
        0);
    cr_assert_eq(net_server_address(srv, where, sizeof where), 0);
    port = port_of(where);
    net_server_close(srv, NULL);
    uv_run(&test_loop, UV_RUN_NOWAIT);
    a = loopback(port);
    memset(&r, 0, sizeof r);
    cr_assert_eq(net_connect(&test_loop, (struct sockaddr *)&a, NULL, &rec_cb,
                             &r, &r.conn),
                 0);
    WAIT_FOR(r.closed, 2000);
    cr_assert_eq(r.connected, UV_ECONNREFUSED);
    cr_assert_eq(r.reason, UV_ECONNREFUSED);
    cr_assert_eq(r.closed, 1);
    /* Binding a port in use passes libuv's code through. */
    cr_assert_eq(
        net_listen(&test_loop, (struct sockaddr *)&a, NULL, NULL, NULL, &srv),
        0);
    {
        Net_Server *again = NULL;
        cr_assert_eq(net_listen(&test_loop, (struct sockaddr *)&a, NULL, NULL,
                                NULL, &again),
                     UV_EADDRINUSE);
        cr_assert_null(again);
    }
    net_server_close(srv, NULL);
    loop_finish();
}

Test(net, connection_limit_closes_the_extra_one)
{
    Net_Limits lim = {.max_conns = 2};
    Raw_Peer p[3];

    loop_start();
    echo_start(&lim);
    for (int i = 0; i < 3; i++)
        raw_connect(&p[i], echo.port, 1);
    WAIT_FOR(p[2].eof, 2000);
    cr_assert(p[2].eof, "the third connection was kept");
    cr_assert_eq(echo.accepted, 2);
    cr_assert_eq(p[0].eof + p[1].eof, 0);
    cr_assert_eq(net_server_conns(echo.srv), 2);
    for (int i = 0; i < 3; i++)
        raw_close(&p[i]);
    echo_stop();
    loop_finish();
}

/* Host names are looked up (getaddrinfo): each IPv4 name of /etc/hosts,
 * read here line by line, gives its address, and what is not a DNS name
 * is refused without a lookup. No DNS server is asked for anything. */
Test(net, host_names_are_looked_up)
{
    struct sockaddr_storage a;
    char out[64], line[256], want[80];
    int checked = 0;
    static const char *bad[] = {"bad_host:80", "-lead:80", ".dot:80",
                                "sp ace:80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(net_addr_parse(bad[i], &a), TB_E_ARG, "'%s'", bad[i]);
    FILE *f = fopen("/etc/hosts", "r");
    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f) != NULL && checked < 4) {
        char addr[64], name[64], hp[80];
        if (sscanf(line, "%63s %63s", addr, name) != 2 || addr[0] == '#' ||
            strchr(addr, ':') != NULL || strcmp(name, "localhost") == 0)
            continue;
        snprintf(hp, sizeof hp, "%s:7000", name);
        snprintf(want, sizeof want, "%s:7000", addr);
        cr_assert_eq(net_addr_parse(hp, &a), 0, "%s", hp);
        cr_assert_eq(a.ss_family, AF_INET, "%s", hp);
        cr_assert_eq(net_addr_format((struct sockaddr *)&a, out, sizeof out),
                     0);
        cr_assert_str_eq(out, want, "%s", hp);
        checked++;
    }
    fclose(f);
}

Test(net, addresses_parse_strictly)
{
    struct sockaddr_storage a;
    char out[64];
    static const char *bad[] = {"127.0.0.1",
                                "127.0.0.1:",
                                ":80",
                                "127.0.0.1:65536",
                                "127.0.0.1:-1",
                                "a:b",
                                "127.0.0.1:80x",
                                "[::1]80",
                                "[::1]:",
                                "999.0.0.1:80",
                                "",
                                "[]:1"};

    cr_assert_eq(net_addr_parse("127.0.0.1:0", &a), 0);
    cr_assert_eq(net_addr_format((struct sockaddr *)&a, out, sizeof out), 0);
    cr_assert_str_eq(out, "127.0.0.1:0");
    cr_assert_eq(net_addr_parse("localhost:7470", &a), 0);
    cr_assert_eq(net_addr_format((struct sockaddr *)&a, out, sizeof out), 0);
    cr_assert_str_eq(out, "127.0.0.1:7470");
    cr_assert_eq(net_addr_parse("[::1]:65535", &a), 0);
    cr_assert_eq(net_addr_format((struct sockaddr *)&a, out, sizeof out), 0);
    cr_assert_str_eq(out, "[::1]:65535");
    cr_assert_eq(net_addr_format((struct sockaddr *)&a, out, 5), TB_E_SPACE);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(net_addr_parse(bad[i], &a), TB_E_ARG, "'%s'", bad[i]);
    cr_assert_eq(net_addr_parse(NULL, &a), TB_E_ARG);
    cr_assert_str_eq(net_strerror(UV_ENOBUFS), uv_strerror(UV_ENOBUFS));
    cr_assert_str_eq(net_strerror(TB_E_LIMIT), tb_strerror(TB_E_LIMIT));
}

/* ---- one timer for every connection of a loop ---- */

static void count_timers(uv_handle_t *h, void *arg)
{
    if (h->type == UV_TIMER && !uv_is_closing(h))
        (*(int *)arg)++;
}

static char from_host[64];

static void from_accept(Net_Server *s, Net_Conn *c)
{
    echo_accept(s, c);
    memcpy(from_host, net_conn_peer_host(c), sizeof from_host);
}

Test(net, many_connections_share_one_timer_and_keep_their_deadlines)
{
    Net_Limits lim = {.heartbeat_ms = 20, .idle_timeout_ms = 400};
    enum { N = 40 };
    static Rec r[N];
    Raw_Peer silent;
    uint64_t t0, waited;
    int timers = 0;

    loop_start();
    echo_start(&lim);
    for (int i = 0; i < N; i++)
        rec_open(&r[i], echo.port, &lim);
    WAIT_FOR(echo.accepted == N, 2000);
    cr_assert_eq(echo.accepted, N);
    /* 2 N connections on this loop: the test's own ticker and net/'s
     * one clock are the only timers. */
    uv_walk(&test_loop, count_timers, &timers);
    cr_assert_eq(timers, 2, "%d timers for %d connections", timers, 2 * N);
    /* Heartbeats every 20 ms keep all of them past three idle timeouts. */
    loop_for(1200);
    for (int i = 0; i < N; i++)
        cr_assert_eq(r[i].closed, 0, "connection %d timed out", i);
    cr_assert_eq(echo.closes, 0);
    /* A silent peer among them is closed, and not before its 400 ms. */
    t0 = uv_now(&test_loop);
    raw_connect(&silent, echo.port, 0);
    WAIT_FOR(echo.closes == 1, 3000);
    waited = uv_now(&test_loop) - t0;
    cr_assert_eq(echo.closes, 1);
    cr_assert_eq(echo.last_reason, UV_ETIMEDOUT);
    cr_assert_geq(waited, 400, "timed out after %llu ms",
                  (unsigned long long)waited);
    raw_close(&silent);
    for (int i = 0; i < N; i++) {
        net_close(r[i].conn, 0);
        WAIT_FOR(r[i].closed, 2000);
        free(r[i].buf);
    }
    echo_stop();
    loop_finish();
}

Test(net, connect_from_a_chosen_source_address)
{
    struct sockaddr_storage a, src;
    Net_Conn *bad;
    Rec r;

    loop_start();
    memset(&echo, 0, sizeof echo);
    a = loopback(0);
    cr_assert_eq(net_listen(&test_loop, (struct sockaddr *)&a, NULL,
                            from_accept, NULL, &echo.srv),
                 0);
    {
        char where[64];
        cr_assert_eq(net_server_address(echo.srv, where, sizeof where), 0);
        echo.port = port_of(where);
    }
    a = loopback(echo.port);
    cr_assert_eq(net_addr_parse("127.0.0.9:0", &src), 0);
    memset(&r, 0, sizeof r);
    cr_assert_eq(net_connect_from(&test_loop, (struct sockaddr *)&a,
                                  (struct sockaddr *)&src, NULL, &rec_cb, &r,
                                  &r.conn),
                 0);
    WAIT_FOR(r.connected != 0 && echo.accepted == 1, 2000);
    cr_assert_eq(r.connected, 1);
    cr_assert_str_eq(from_host, "127.0.0.9");
    /* An address that is not this machine's is the bind's error. */
    cr_assert_eq(net_addr_parse("192.0.2.1:0", &src), 0);
    cr_assert_eq(net_connect_from(&test_loop, (struct sockaddr *)&a,
                                  (struct sockaddr *)&src, NULL, &rec_cb, &r,
                                  &bad),
                 UV_EADDRNOTAVAIL);
    cr_assert_null(bad);
    net_close(r.conn, 0);
    WAIT_FOR(r.closed, 2000);
    echo_stop();
    loop_finish();
}

/* ---- reading in turns ---- */

/* A sink server: frames (and their bytes) each of its first two
 * connections delivered, in the order they were accepted. */
static struct {
    Net_Conn *conn[2];
    int n;
    size_t frames[2];
} sink;

static void sink_frame(Net_Conn *c, const uint8_t *d, size_t n)
{
    (void)d;
    (void)n;
    for (int i = 0; i < sink.n; i++)
        if (sink.conn[i] == c)
            sink.frames[i]++;
}

static void sink_accept(Net_Server *s, Net_Conn *c)
{
    static const Net_Callbacks cb = {NULL, sink_frame, NULL, NULL};
    (void)s;
    if (sink.n < 2)
        sink.conn[sink.n++] = c;
    net_conn_set_callbacks(c, &cb, NULL);
}

/* A blocking TCP connection to 127.0.0.1:port, made while the loop
 * turns (its accept is the loop's). */
static int plain_connect(int port)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* A server reads its connections in turns: a sender of big frames whose
 * bytes wait in the kernel is read at most NET_TURN_READ_CONN (128 KiB)
 * a turn of the loop, not the 32 reads of 64 KiB libuv makes of a ready
 * stream in a row, so one turn stays short and a small frame from
 * another connection is read in it (the relay-limits issue: a flood from
 * 100 addresses held a game's p99 at 13.7 ms). By hand: frames of 65,540
 * bytes on the wire (64 KiB and the 4-byte length), 131,072 bytes read in
 * the first turn hold one whole frame (the second lacks 8 bytes); 16
 * frames (1,048,640 bytes) need at least 8 turns. */
Test(net, a_big_sender_is_read_in_turns)
{
    Net_Limits lim = {.max_frame = 70000, .max_write_queue = 1u << 20};
    enum { FRAMES = 16, BODY = 65536 };
    static uint8_t wire[FRAMES * (BODY + 4)];
    struct sockaddr_storage a = loopback(0);
    char where[64];
    Net_Server *srv;

    loop_start();
    memset(&sink, 0, sizeof sink);
    cr_assert_eq(net_listen(&test_loop, (struct sockaddr *)&a, &lim,
                            sink_accept, NULL, &srv),
                 0);
    cr_assert_eq(net_server_address(srv, where, sizeof where), 0);
    int port = port_of(where);
    int big = plain_connect(port);
    WAIT_FOR(sink.n == 1, 2000);
    int small = plain_connect(port);
    WAIT_FOR(sink.n == 2, 2000);
    for (int i = 0; i < FRAMES; i++) {
        uint8_t *f = wire + (size_t)i * (BODY + 4);
        f[0] = 0, f[1] = 1, f[2] = 0, f[3] = 0; /* 65,536 */
        memset(f + 4, i, BODY);
    }
    /* (the kernel takes it all: loopback buffers hold several MiB) */
    size_t sent = 0;
    while (sent < sizeof wire) {
        ssize_t k = send(big, wire + sent, sizeof wire - sent, 0);
        cr_assert_gt(k, 0);
        sent += (size_t)k;
    }
    static const uint8_t hello[9] = {0, 0, 0, 5, 'h', 'e', 'l', 'l', 'o'};
    cr_assert_eq(send(small, hello, sizeof hello, 0), (ssize_t)sizeof hello);
    usleep(50000); /* both are in the server's socket buffers */
    uv_run(&test_loop, UV_RUN_NOWAIT);
    cr_assert_leq(sink.frames[0], 1, "the big sender's first turn read %zu "
                                    "frames", sink.frames[0]);
    cr_assert_eq(sink.frames[1], 1, "the small frame waited");
    int turns = 1;
    while (sink.frames[0] < FRAMES && turns < 1000) {
        uv_run(&test_loop, UV_RUN_NOWAIT);
        turns++;
    }
    cr_assert_eq(sink.frames[0], FRAMES);
    cr_assert_geq(turns, 8);
    close(big);
    close(small);
    net_server_close(srv, NULL);
    loop_finish();
}
