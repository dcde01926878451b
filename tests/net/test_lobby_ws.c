/*
 * test_lobby_ws.c: browsers as lobby members (issue 14): a WebSocket
 * connection with the subprotocol "tabula-lobby" to `--http`'s address is
 * one more member, with the same messages, limits and refusals as a
 * framed TCP one, and terminal and browser members mix in one room. The
 * browser side here is a libwebsockets client on the test's loop; the
 * terminal side is the lobby's own client over TCP.
 */
#include <libwebsockets.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lobby_internal.h"
#include "lobby_util.h"

/* ---- a browser: an lws client on the test loop ---- */

#define WS_MAX 32

typedef struct Ws {
    struct lws *wsi;
    int established, closed, failed;
    uint8_t out[WS_MAX][LWS_PRE + 4096];
    size_t out_len[WS_MAX];
    int out_text[WS_MAX];
    size_t nout, sent;
    uint8_t in[WS_MAX][256];
    size_t in_len[WS_MAX];
    size_t nin;
    uint8_t frag[1 << 17];
    size_t frag_len;
} Ws;

static int ws_cb(struct lws *wsi, enum lws_callback_reasons reason,
                 void *user, void *in, size_t len)
{
    Ws *w = lws_get_opaque_user_data(wsi);
    (void)user;
    if (w == NULL)
        return 0;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        w->established = 1;
        lws_callback_on_writable(wsi);
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (w->frag_len + len <= sizeof w->frag) {
            memcpy(w->frag + w->frag_len, in, len);
            w->frag_len += len;
        }
        if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
            if (w->nin < WS_MAX) {
                size_t n = w->frag_len < 256 ? w->frag_len : 256;
                memcpy(w->in[w->nin], w->frag, n);
                w->in_len[w->nin++] = w->frag_len;
            }
            w->frag_len = 0;
        }
        break;
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        if (w->sent < w->nout) {
            size_t k = w->sent++;
            lws_write(wsi, w->out[k] + LWS_PRE, w->out_len[k],
                      w->out_text[k] ? LWS_WRITE_TEXT : LWS_WRITE_BINARY);
            if (w->sent < w->nout)
                lws_callback_on_writable(wsi);
        }
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        w->failed = 1;
        w->closed = 1;
        w->wsi = NULL;
        break;
    case LWS_CALLBACK_CLIENT_CLOSED:
        w->closed = 1;
        w->wsi = NULL;
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols client_protocols[] = {
    {"tabula-lobby", ws_cb, 0, 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static struct lws_context *client_ctx;
static Lobby_Http *http;
static int http_port;
static char site[256];

static void start_limited(Lobby_Limits *lim)
{
    char index[300];
    loop_start();
    lobby_start(lim);
    snprintf(site, sizeof site, "/tmp/tabula-ws-XXXXXX");
    cr_assert_not_null(mkdtemp(site));
    snprintf(index, sizeof index, "%s/index.html", site);
    FILE *f = fopen(index, "w");
    cr_assert_not_null(f);
    fputs("page\n", f);
    fclose(f);
    cr_assert_eq(lobby_http_new(&test_loop, "127.0.0.1", 0, site, lobby, &http), 0);
    http_port = lobby_http_port(http);

    struct lws_context_creation_info info;
    void *loops[1] = {&test_loop};
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = client_protocols;
    info.options = LWS_SERVER_OPTION_LIBUV;
    info.foreign_loops = loops;
    client_ctx = lws_create_context(&info);
    cr_assert_not_null(client_ctx);
}

static void start_all(void) { start_limited(NULL); }

/* Close lws's contexts (twice: lws 4.1 on a foreign loop finishes the
 * second time, after the loop closed its handles) and the lobby. */
static void count_closing(uv_handle_t *h, void *arg)
{
    *(int *)arg += uv_is_closing(h) != 0;
}

/* Handles whose close libuv has not finished: lws stages its teardown
 * over several turns of a foreign loop, and destroying a context while
 * some of its handles still close has been seen to jump into freed
 * memory under load (libwebsockets issue 2974). */
static int closing_handles(void)
{
    int n = 0;
    uv_walk(&test_loop, count_closing, &n);
    return n;
}

static void close_lws(void)
{
    lws_context_destroy(client_ctx);
    lobby_http_close(http);
    loop_for(50);
    WAIT_FOR(closing_handles() == 0, 2000);
    lws_context_destroy(client_ctx);
    lobby_http_free(http);
}

static void stop_all(void)
{
    char index[300];
    close_lws();
    lobby_stop();
    loop_finish();
    snprintf(index, sizeof index, "%s/index.html", site);
    unlink(index);
    rmdir(site);
}

/* A WebSocket to the lobby's --http address with subprotocol protocol
 * (NULL: none) and Origin origin (NULL: none, as a non-browser client);
 * waits until it opens or fails. */
static void ws_try(Ws *w, const char *protocol, const char *origin)
{
    struct lws_client_connect_info ci;
    memset(w, 0, sizeof *w);
    memset(&ci, 0, sizeof ci);
    ci.context = client_ctx;
    ci.address = "127.0.0.1";
    ci.port = http_port;
    ci.path = "/";
    ci.host = "127.0.0.1";
    ci.origin = origin;
    ci.protocol = protocol;
    ci.opaque_user_data = w;
    ci.pwsi = &w->wsi;
    cr_assert_not_null(lws_client_connect_via_info(&ci));
    WAIT_FOR(w->established || w->closed || w->failed, 3000);
}

static void ws_open(Ws *w)
{
    struct lws_client_connect_info ci;
    memset(w, 0, sizeof *w);
    memset(&ci, 0, sizeof ci);
    ci.context = client_ctx;
    ci.address = "127.0.0.1";
    ci.port = http_port;
    ci.path = "/";
    ci.host = "127.0.0.1";
    ci.origin = "127.0.0.1";
    ci.protocol = "tabula-lobby";
    ci.opaque_user_data = w;
    ci.pwsi = &w->wsi;
    cr_assert_not_null(lws_client_connect_via_info(&ci));
    WAIT_FOR(w->established || w->closed, 3000);
    cr_assert(w->established, "the WebSocket did not open");
}

static void ws_put(Ws *w, const void *msg, size_t len, int text)
{
    cr_assert_lt(w->nout, WS_MAX);
    cr_assert_leq(len, 4096);
    memcpy(w->out[w->nout] + LWS_PRE, msg, len);
    w->out_len[w->nout] = len;
    w->out_text[w->nout++] = text;
    if (w->wsi != NULL)
        lws_callback_on_writable(w->wsi);
}

static void ws_watch(Ws *w, const Lobby_Code *code)
{
    uint8_t m[LOBBY_LEN_WATCH] = {LOBBY_MSG_WATCH, LOBBY_WIRE_VERSION};
    memcpy(m + 2, code->lookup, LOBBY_LOOKUP_BYTES);
    lobby__put64(m + 2 + LOBBY_LOOKUP_BYTES, 0);
    ws_put(w, m, sizeof m, 0);
}

static void ws_join(Ws *w, const Lobby_Code *code, const uint8_t *secret)
{
    uint8_t m[LOBBY_LEN_JOIN];
    ws_put(w, m, join_bytes(m, code->lookup, secret, 0), 0);
}

static void ws_data(Ws *w, const char *text)
{
    uint8_t m[256] = {LOBBY_MSG_DATA};
    size_t n = strlen(text);
    memcpy(m + 1, text, n);
    ws_put(w, m, 1 + n, 0);
}

/* The k-th message the browser got is an ERROR with code. */
static void expect_error(Ws *w, size_t k, int code)
{
    WAIT_FOR(w->nin > k, 2000);
    cr_assert_gt(w->nin, k, "no message %zu", k);
    cr_assert_eq(w->in_len[k], LOBBY_LEN_ERROR);
    cr_assert_eq(w->in[k][0], LOBBY_MSG_ERROR);
    cr_assert_eq(w->in[k][1], code, "error %d, not %d", w->in[k][1], code);
    WAIT_FOR(w->closed, 2000);
    cr_assert(w->closed, "the lobby did not close after its ERROR");
}

/* The k-th message the browser got is a FRAME from seat `from` holding
 * text. */
static void expect_frame(Ws *w, size_t k, int from, const char *text)
{
    WAIT_FOR(w->nin > k, 2000);
    cr_assert_gt(w->nin, k, "no message %zu", k);
    cr_assert_eq(w->in[k][0], LOBBY_MSG_FRAME);
    cr_assert_eq(w->in_len[k], LOBBY_FRAME_HEADER + strlen(text));
    cr_assert_eq(w->in[k][9], from);
    cr_assert_eq(memcmp(w->in[k] + LOBBY_FRAME_HEADER, text, strlen(text)), 0);
}

Test(lobby_ws, a_browser_watches_a_terminal_hosts_room)
{
    Room room;
    Peer host;
    Ws w;
    start_all();
    room_make(&room);
    peer_host(&host, &room, 0);
    cr_assert(host.welcomed);
    peer_say(&host, "e3-f4");
    ws_open(&w);
    ws_watch(&w, &room.watch);
    /* WELCOME: type, role, then the room's host key as the host gave it. */
    WAIT_FOR(w.nin >= 1, 2000);
    cr_assert_eq(w.in[0][0], LOBBY_MSG_WELCOME);
    cr_assert_eq(w.in_len[0], LOBBY_LEN_WELCOME);
    cr_assert_eq(w.in[0][1], LOBBY_ROLE_SPECTATOR);
    cr_assert_eq(memcmp(w.in[0] + 2, room.pk, LOBBY_KEY_BYTES), 0);
    /* The frame kept from before it came, then one sent after. */
    expect_frame(&w, 1, LOBBY_ROLE_HOST, "e3-f4");
    peer_say(&host, "c5-d4");
    expect_frame(&w, 2, LOBBY_ROLE_HOST, "c5-d4");
    /* A spectator may not send: the same refusal as over TCP. */
    ws_data(&w, "nope");
    expect_error(&w, 3, LOBBY_ERR_NOT_ALLOWED);
    peer_free(&host);
    stop_all();
}

Test(lobby_ws, terminal_and_browser_players_share_one_room)
{
    Room room;
    Peer host;
    Ws w;
    uint8_t secret[LOBBY_SEAT_SECRET_BYTES] = {7, 7, 7};
    start_all();
    room_make(&room);
    peer_host(&host, &room, 0);
    ws_open(&w);
    ws_join(&w, &room.invite, secret);
    WAIT_FOR(w.nin >= 1, 2000);
    cr_assert_eq(w.in[0][0], LOBBY_MSG_WELCOME);
    /* The host hears the guest come. */
    WAIT_FOR(host.present[LOBBY_ROLE_GUEST], 2000);
    cr_assert(host.present[LOBBY_ROLE_GUEST]);
    ws_data(&w, "from the browser");
    WAIT_FOR(host.total >= 1, 2000);
    cr_assert_eq(host.from[0], LOBBY_ROLE_GUEST);
    cr_assert_str_eq(host.text[0], "from the browser");
    /* The browser's own frame comes back numbered (an ACK). */
    WAIT_FOR(w.nin >= 2, 2000);
    cr_assert_eq(w.in[1][0], LOBBY_MSG_ACK);
    peer_say(&host, "from the terminal");
    expect_frame(&w, 2, LOBBY_ROLE_HOST, "from the terminal");
    peer_free(&host);
    stop_all();
}

Test(lobby_ws, a_wrong_code_and_a_text_message_are_refused)
{
    Room room;
    Ws a, b;
    start_all();
    room_make(&room); /* never created: its codes name no room */
    ws_open(&a);
    ws_watch(&a, &room.watch);
    expect_error(&a, 0, LOBBY_ERR_CODE);
    cr_assert_eq(stats().bad_codes, 1);
    ws_open(&b);
    ws_put(&b, "hello", 5, 1);
    expect_error(&b, 0, LOBBY_ERR_PROTOCOL);
    stop_all();
}

Test(lobby_ws, the_lobby_closes_browsers_when_it_stops)
{
    Room room;
    Peer host;
    Ws w;
    start_all();
    room_make(&room);
    peer_host(&host, &room, 0);
    ws_open(&w);
    ws_watch(&w, &room.watch);
    WAIT_FOR(w.nin >= 1, 2000);
    cr_assert_eq(stats().conns, 2); /* the host's TCP, the browser's */
    peer_free(&host);
    lobby_close(lobby, lobby_done, NULL);
    WAIT_FOR(lobby_gone && w.closed, 3000);
    cr_assert(w.closed, "the browser was not closed");
    cr_assert(lobby_gone, "the lobby waited for nothing and was not freed");
    close_lws();
    loop_finish();
}

Test(lobby_ws, a_browser_counts_against_its_address_share)
{
    Lobby_Limits lim;
    Room room;
    Peer host;
    Ws w;
    memset(&lim, 0, sizeof lim);
    lim.source_conns = 1; /* one connection per address */
    start_limited(&lim);
    room_make(&room);
    peer_host(&host, &room, 0);
    cr_assert(host.welcomed);
    ws_open(&w); /* the same 127.0.0.1 */
    expect_error(&w, 0, LOBBY_ERR_ADDRESS);
    cr_assert_eq(stats().refused_address, 1);
    peer_free(&host);
    stop_all();
}

/* A plain connection to the --http address that sent start (its request
 * so far); nonblocking. */
static int http_raw(const char *start)
{
    struct sockaddr_storage a = loopback(http_port);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert(fd >= 0);
    cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof(struct sockaddr_in)), 0);
    cr_assert_eq(send(fd, start, strlen(start), 0), (ssize_t)strlen(start));
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

/* What fd has been answered so far (NUL-ended, in buf of cap bytes). */
static const char *http_answer(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    ssize_t k;
    while (n + 1 < cap && (k = recv(fd, buf + n, cap - 1 - n, 0)) > 0)
        n += (size_t)k;
    buf[n] = '\0';
    return buf;
}

/* The relay-limits issue, finding 1 again: an HTTP request that never
 * became a member was counted nowhere, so one address could hold every
 * descriptor with half-sent requests (lws ends each after 10 s, but opens
 * are faster). Now each counts against its address's connection share
 * from its accept (a few over it, so a browser's WebSocket is upgraded
 * and told ADDRESS); past that it is answered 503 with the reason and
 * closed. A member gives its hold back: it is counted once. */
Test(lobby_ws, an_http_request_counts_against_its_address_share)
{
    Lobby_Limits lim;
    int fd[8 + LOBBY_HOLD_SLACK_SOURCE];
    char buf[512];
    Ws w;
    memset(&lim, 0, sizeof lim);
    lim.source_conns = 8;
    start_limited(&lim);
    for (int i = 0; i < 8 + LOBBY_HOLD_SLACK_SOURCE; i++)
        fd[i] = http_raw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    WAIT_FOR(stats().conns == 8 + LOBBY_HOLD_SLACK_SOURCE, 2000);
    cr_assert_eq(stats().conns, 8 + LOBBY_HOLD_SLACK_SOURCE);
    cr_assert_eq(stats().refused_address, 0);
    int over = http_raw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    WAIT_FOR(stats().refused_address == 1, 2000);
    loop_for(50);
    http_answer(over, buf, sizeof buf);
    cr_assert(strncmp(buf, "HTTP/1.1 503 ", 13) == 0, "answered: %s", buf);
    cr_assert(strstr(buf, "too many connections from your address") != NULL,
              "answered: %s", buf);
    close(over);
    /* Each held request given back as it ends. */
    for (int i = 0; i < 8 + LOBBY_HOLD_SLACK_SOURCE; i++)
        close(fd[i]);
    WAIT_FOR(stats().conns == 0, 3000);
    cr_assert_eq(stats().conns, 0, "%zu still counted", stats().conns);
    /* Seven requests held: a browser's WebSocket is the eighth, counted
     * once as a member; a ninth connection is a member over the share. */
    for (int i = 0; i < 7; i++)
        fd[i] = http_raw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    WAIT_FOR(stats().conns == 7, 2000);
    ws_open(&w);
    WAIT_FOR(stats().conns == 8, 2000);
    cr_assert_eq(stats().conns, 8);
    Ws w2;
    ws_open(&w2);
    expect_error(&w2, 0, LOBBY_ERR_ADDRESS);
    for (int i = 0; i < 7; i++)
        close(fd[i]);
    lws_set_timeout(w.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
    WAIT_FOR(w.closed && w2.closed && stats().conns == 0, 3000);
    cr_assert_eq(stats().conns, 0, "%zu still counted", stats().conns);
    stop_all();
}

/* The node's total counts connections of every transport: a node whose
 * cap is taken by requests answers the next 503 "full". */
Test(lobby_ws, http_requests_count_in_the_nodes_total)
{
    Lobby_Limits lim;
    int fd[2 + LOBBY_HOLD_SLACK_TOTAL];
    char buf[512];
    memset(&lim, 0, sizeof lim);
    lim.max_conns = 2;
    lim.source_conns = 64;
    start_limited(&lim);
    for (int i = 0; i < 2 + LOBBY_HOLD_SLACK_TOTAL; i++)
        fd[i] = http_raw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    WAIT_FOR(stats().conns == 2 + LOBBY_HOLD_SLACK_TOTAL, 2000);
    int over = http_raw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    loop_for(200);
    http_answer(over, buf, sizeof buf);
    cr_assert(strncmp(buf, "HTTP/1.1 503 ", 13) == 0, "answered: %s", buf);
    cr_assert(strstr(buf, "the lobby is full") != NULL, "answered: %s", buf);
    close(over);
    for (int i = 0; i < 2 + LOBBY_HOLD_SLACK_TOTAL; i++)
        close(fd[i]);
    WAIT_FOR(stats().conns == 0, 3000);
    stop_all();
}

/* ---- a browser on a narrow link: a WebSocket by hand, read slowly ---- */

/* A masked client frame of opcode op holding len bytes of p, on fd. */
static int raw_ws_send(int fd, int op, const uint8_t *p, size_t len)
{
    uint8_t f[16 + 256];
    static const uint8_t key[4] = {0x12, 0x34, 0x56, 0x78};
    size_t n = 0;
    cr_assert(len <= 256);
    f[n++] = (uint8_t)(0x80 | op);
    if (len < 126) {
        f[n++] = (uint8_t)(0x80 | len);
    } else {
        f[n++] = 0x80 | 126;
        f[n++] = (uint8_t)(len >> 8);
        f[n++] = (uint8_t)len;
    }
    memcpy(f + n, key, 4);
    n += 4;
    for (size_t i = 0; i < len; i++)
        f[n++] = p[i] ^ key[i % 4];
    int fl = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    ssize_t k = send(fd, f, n, MSG_NOSIGNAL);
    fcntl(fd, F_SETFL, fl);
    return k == (ssize_t)n;
}

/* A WebSocket by hand to the --http address, the socket's receive buffer
 * set to rcvbuf bytes first; the upgrade's answer is read. */
static int raw_ws_open(int rcvbuf)
{
    struct sockaddr_storage a = loopback(http_port);
    char req[512], got[1024];
    size_t n = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert(fd >= 0);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof(struct sockaddr_in)), 0);
    snprintf(req, sizeof req,
             "GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
             "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
             "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: tabula-lobby\r\n\r\n",
             http_port);
    cr_assert_eq(send(fd, req, strlen(req), 0), (ssize_t)strlen(req));
    fcntl(fd, F_SETFL, O_NONBLOCK);
    /* byte by byte up to the blank line: nothing of the frames after it */
    for (int t = 0; t < 200 && (n < 4 || memcmp(got + n - 4, "\r\n\r\n", 4) != 0);) {
        if (recv(fd, got + n, 1, 0) == 1) {
            n++;
            cr_assert(n < sizeof got);
        } else {
            loop_for(10);
            t++;
        }
    }
    got[n] = '\0';
    cr_assert(strncmp(got, "HTTP/1.1 101", 12) == 0, "upgrade answered: %s", got);
    return fd;
}

/* Read a frame stream in steps: whole server frames counted, pings
 * answered as a browser does. */
typedef struct Raw_Reader {
    uint8_t buf[1 << 18];
    size_t have;
    size_t binary;  /* binary messages read */
    size_t frames;  /* of them FRAMEs (0x82) */
    int closed;     /* the lobby closed the connection */
} Raw_Reader;

static void raw_ws_read(int fd, Raw_Reader *r, size_t most)
{
    ssize_t k = recv(fd, r->buf + r->have,
                     most < sizeof r->buf - r->have ? most : sizeof r->buf - r->have, 0);
    if (k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
        r->closed = 1;
        return;
    }
    if (k > 0)
        r->have += (size_t)k;
    for (;;) {
        if (r->have < 2)
            return;
        size_t len = r->buf[1] & 0x7f, hdr = 2;
        if (len == 126) {
            if (r->have < 4)
                return;
            len = (size_t)r->buf[2] << 8 | r->buf[3];
            hdr = 4;
        } else if (len == 127) {
            if (r->have < 10)
                return;
            len = 0;
            for (int i = 2; i < 10; i++)
                len = len << 8 | r->buf[i];
            hdr = 10;
        }
        cr_assert(hdr + len <= sizeof r->buf, "a frame of %zu bytes", len);
        if (r->have < hdr + len)
            return;
        int op = r->buf[0] & 0x0f;
        if (op == 2 || op == 0) {
            r->binary += (r->buf[0] & 0x80) != 0;
            r->frames += op == 2 && len > 0 && r->buf[hdr] == 0x82;
        }
        else if (op == 9 && !raw_ws_send(fd, 10, r->buf + hdr, len))
            r->closed = 1;
        else if (op == 8)
            r->closed = 1;
        memmove(r->buf, r->buf + hdr + len, r->have - hdr - len);
        r->have -= hdr + len;
    }
}

/* The relay-limits issue, finding 4: a WebSocket spectator catching up on
 * a narrow link was hung up on by lws's keep-alive (its ping waited
 * behind the backlog). Now a member the lobby's writes reach is alive: a
 * spectator on a link of 40 KB a second, 256 KB behind, with a 1 s
 * heartbeat and a 3 s idle timeout, gets every frame; one that stops
 * reading is still hung up on. */
Test(lobby_ws, a_spectator_catching_up_slowly_is_not_hung_up_on)
{
    Lobby_Limits lim;
    Room room;
    Peer host;
    enum { FRAMES = 8, BYTES = 32000 };
    static Raw_Reader rd;
    memset(&lim, 0, sizeof lim);
    lim.heartbeat_ms = 1000;
    lim.idle_timeout_ms = 3000;
    start_limited(&lim);
    room_make(&room);
    peer_host(&host, &room, 0);
    cr_assert(host.welcomed);
    char *big = malloc(BYTES + 1);
    cr_assert_not_null(big);
    memset(big, 'x', BYTES);
    big[BYTES] = '\0';
    for (int i = 0; i < FRAMES; i++)
        peer_say(&host, big);
    free(big);
    WAIT_FOR(stats().frames_relayed == FRAMES, 3000);
    cr_assert_eq(stats().frames_relayed, FRAMES);

    int fd = raw_ws_open(4096); /* a narrow link: a small window */
    uint8_t m[LOBBY_LEN_WATCH] = {LOBBY_MSG_WATCH, LOBBY_WIRE_VERSION};
    memcpy(m + 2, room.watch.lookup, LOBBY_LOOKUP_BYTES);
    lobby__put64(m + 2 + LOBBY_LOOKUP_BYTES, 0);
    cr_assert(raw_ws_send(fd, 2, m, sizeof m));
    memset(&rd, 0, sizeof rd);
    uint64_t t0 = uv_now(&test_loop);
    /* the welcome, the host's presence, then FRAMES frames at 40 KB/s */
    for (int t = 0; t < 3000 && !rd.closed && rd.frames < FRAMES; t++) {
        loop_for(25);
        raw_ws_read(fd, &rd, 1024);
    }
    cr_assert(!rd.closed, "hung up after %zu messages (%d ms)", rd.binary,
              (int)(uv_now(&test_loop) - t0));
    cr_assert_eq(rd.frames, FRAMES);
    cr_assert_gt(uv_now(&test_loop) - t0, 4000, "no narrow link: %d ms",
                 (int)(uv_now(&test_loop) - t0));
    /* A spectator that reads nothing more is hung up on. */
    for (int t = 0; t < 400 && !rd.closed; t++) {
        loop_for(25);
        if (t > 240) /* after 6 s: only now look */
            raw_ws_read(fd, &rd, sizeof rd.buf);
    }
    cr_assert(rd.closed, "a spectator that reads nothing was kept");
    close(fd);
    peer_free(&host);
    stop_all();
}

/* Finding 1 of the relay-limits issue: a WebSocket without the
 * "tabula-lobby" subprotocol was upgraded and held open outside every
 * count. Finding 4: one opened by a foreign page (its Origin) was
 * admitted. Now each is refused at the
 * upgrade; the lobby's own page (Origin http://HOST, HOST the address it
 * asked) and a client that is no browser (no Origin) are let in. */
Test(lobby_ws, only_the_lobbys_own_page_and_its_protocol_upgrade)
{
    Ws w;
    char own[64];
    start_all();
    ws_try(&w, NULL, NULL);
    cr_assert(!w.established, "a WebSocket without the subprotocol opened");
    /* (lws's client sends Origin as "http://" and what it is given) */
    ws_try(&w, "tabula-lobby", "evil.example");
    cr_assert(!w.established, "a foreign page's WebSocket opened");
    ws_try(&w, "tabula-lobby", "127.0.0.1.evil.example");
    cr_assert(!w.established, "a look-alike page's WebSocket opened");
    snprintf(own, sizeof own, "127.0.0.1");
    ws_try(&w, "tabula-lobby", own);
    cr_assert(w.established, "the lobby's own page was refused");
    lws_set_timeout(w.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
    WAIT_FOR(w.closed, 2000);
    ws_try(&w, "tabula-lobby", NULL);
    cr_assert(w.established, "a client without Origin was refused");
    lws_set_timeout(w.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
    WAIT_FOR(w.closed && stats().conns == 0, 2000);
    cr_assert_eq(stats().conns, 0, "%zu connections left", stats().conns);
    stop_all();
}
