/*
 * loop_util.h: helpers the net/ and lobby/ tests share: one libuv loop
 * per test with a ticker so a bounded wait can poll a condition, and a
 * raw TCP peer (plain libuv, no framing) that writes exact bytes, can
 * refuse to read (a slow reader), and records when the other side closes.
 * Only loopback addresses are used. Header-only, static functions.
 */
#ifndef TABULA_TEST_LOOP_UTIL_H
#define TABULA_TEST_LOOP_UTIL_H

#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "tb_error.h"

static uv_loop_t test_loop;
static uv_timer_t test_ticker;

static inline void test_tick(uv_timer_t *t)
{
    (void)t;
}

/* Start the test's loop; every test ends with loop_finish(). */
static inline void loop_start(void)
{
    signal(SIGPIPE, SIG_IGN);
    cr_assert_eq(uv_loop_init(&test_loop), 0);
    uv_timer_init(&test_loop, &test_ticker);
    uv_timer_start(&test_ticker, test_tick, 2, 2);
}

/* Run the loop until cond holds or ms pass; the result is cond. */
#define WAIT_FOR(cond, ms)                                                     \
    do {                                                                       \
        uint64_t wait_end_ = uv_now(&test_loop) + (ms);                        \
        while (!(cond) && uv_now(&test_loop) < wait_end_)                      \
            uv_run(&test_loop, UV_RUN_ONCE);                                   \
    } while (0)

/* Run the loop for ms regardless. */
static inline void loop_for(uint64_t ms)
{
    uint64_t end = uv_now(&test_loop) + ms;
    while (uv_now(&test_loop) < end)
        uv_run(&test_loop, UV_RUN_ONCE);
}

/* Close the ticker, run until nothing is left, and check that the loop
 * closes: every handle was closed and every request finished. */
static inline void loop_finish(void)
{
    uv_close((uv_handle_t *)&test_ticker, NULL);
    uv_run(&test_loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(&test_loop), 0, "a handle was left open");
}

static inline struct sockaddr_storage loopback(int port)
{
    struct sockaddr_storage a;
    cr_assert_eq(uv_ip4_addr("127.0.0.1", port, (struct sockaddr_in *)&a), 0);
    return a;
}

/* The port of a "HOST:PORT" string. */
static inline int port_of(const char *hostport)
{
    const char *c = strrchr(hostport, ':');
    int p = 0;
    cr_assert_not_null(c);
    for (c++; *c >= '0' && *c <= '9'; c++)
        p = p * 10 + (*c - '0');
    return p;
}

/* ---- a raw TCP peer ---- */

typedef struct Raw_Peer {
    uv_tcp_t tcp;
    uv_connect_t req;
    int connected; /* 1 ok, negative error */
    int reading;
    int eof;          /* the other side closed (EOF or error) */
    size_t received;  /* bytes read */
    uint8_t in[4096]; /* the first bytes read */
    int closed;
} Raw_Peer;

static inline void raw_alloc(uv_handle_t *h, size_t n, uv_buf_t *buf)
{
    static char b[65536];
    (void)h;
    (void)n;
    *buf = uv_buf_init(b, sizeof b);
}

static inline void raw_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    Raw_Peer *p = s->data;
    if (n < 0) {
        p->eof = 1;
        uv_read_stop(s);
        return;
    }
    for (ssize_t i = 0; i < n; i++) {
        if (p->received < sizeof p->in)
            p->in[p->received] = (uint8_t)buf->base[i];
        p->received++;
    }
}

static inline void raw_connected(uv_connect_t *req, int status)
{
    Raw_Peer *p = req->data;
    p->connected = status == 0 ? 1 : status;
    if (status == 0 && p->reading)
        uv_read_start((uv_stream_t *)&p->tcp, raw_alloc, raw_read);
}

/* Connect from source address from (NULL: the system's choice, else an
 * address of 127.0.0.0/8 such as "127.0.0.7", so one test can play
 * several source addresses); reading says whether the peer reads what it
 * is sent. Does not wait for the connection. */
static inline void raw_connect_from(Raw_Peer *p, int port, int reading,
                                    const char *from)
{
    struct sockaddr_storage a = loopback(port);
    memset(p, 0, sizeof *p);
    p->reading = reading;
    uv_tcp_init(&test_loop, &p->tcp);
    p->tcp.data = p;
    p->req.data = p;
    if (from != NULL) {
        struct sockaddr_in src;
        cr_assert_eq(uv_ip4_addr(from, 0, &src), 0);
        cr_assert_eq(uv_tcp_bind(&p->tcp, (struct sockaddr *)&src, 0), 0);
    }
    cr_assert_eq(
        uv_tcp_connect(&p->req, &p->tcp, (struct sockaddr *)&a, raw_connected),
        0);
}

/* Connect; reading says whether the peer reads what it is sent. */
static inline void raw_connect(Raw_Peer *p, int port, int reading)
{
    raw_connect_from(p, port, reading, NULL);
    WAIT_FOR(p->connected != 0, 2000);
    cr_assert_eq(p->connected, 1, "raw connect failed");
}

typedef struct Raw_Write {
    uv_write_t req;
    uint8_t bytes[];
} Raw_Write;

static inline void raw_written(uv_write_t *req, int status)
{
    (void)status;
    free(req);
}

static inline void raw_write(Raw_Peer *p, const void *data, size_t len)
{
    Raw_Write *w = malloc(sizeof *w + len);
    uv_buf_t b;
    cr_assert_not_null(w);
    memcpy(w->bytes, data, len);
    b = uv_buf_init((char *)w->bytes, (unsigned)len);
    if (uv_write(&w->req, (uv_stream_t *)&p->tcp, &b, 1, raw_written) != 0)
        free(w);
}

/* Write one frame with a correct length prefix. */
static inline void raw_frame(Raw_Peer *p, const void *data, size_t len)
{
    uint8_t *f = malloc(len + NET_HEADER_BYTES);
    cr_assert_not_null(f);
    net_frame_header(f, (uint32_t)len);
    memcpy(f + NET_HEADER_BYTES, data, len);
    raw_write(p, f, len + NET_HEADER_BYTES);
    free(f);
}

static inline void raw_closed(uv_handle_t *h)
{
    Raw_Peer *p = h->data;
    p->closed = 1;
}

static inline void raw_close(Raw_Peer *p)
{
    if (!uv_is_closing((uv_handle_t *)&p->tcp))
        uv_close((uv_handle_t *)&p->tcp, raw_closed);
}

#endif /* TABULA_TEST_LOOP_UTIL_H */
