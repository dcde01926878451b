/*
 * bench_lobby.c: network figures for docs/benchmarks.md, all on loopback
 * (127.0.0.1) and bounded in count and time. In one run:
 *   1. round-trip latency (p50/p99) of a 160-byte message: a raw libuv
 *      echo (the anchor), net/'s framed echo, and a move through the relay
 *      (host -> lobby -> guest -> lobby -> host); servers run on their own
 *      thread and loop, clients on the main loop;
 *   2. relay throughput: frames a second from host to guest with a window
 *      of unacknowledged frames;
 *   3. memory per room: a `tabula lobby` process, its resident memory
 *      before and after 1,000 rooms with host, guest and 10 frames each;
 *   4. the most concurrent connections the lobby process holds for 3 s,
 *      with the fd limit raised to the hard limit for both processes.
 * With BENCH_REDIS=redis://HOST:PORT the relay figures are also taken
 * through one node on that Redis and across two nodes (host on one,
 * guest on the other).
 * Usage: bench_lobby TABULA_BINARY [ROUNDS [CONNS]]; BENCH_LATENCY_ONLY=1
 * stops after the latency and throughput figures, BENCH_CONNS_ONLY=1 runs
 * only the connection count (CONNS, default 1000).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "lobby.h"
#include "spawn_lobby.h"
#include "tb_error.h"

#define MSG 160

static uv_loop_t loop;

static uint64_t now_ns(void)
{
    return uv_hrtime();
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct_us(uint64_t *v, size_t n, double p)
{
    if (n == 0)
        return -1; /* nothing measured: the run failed */
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    return (double)v[i] / 1000.0;
}

static void run_until(int *flag, uint64_t ms)
{
    uint64_t end = uv_now(&loop) + ms;
    while (!*flag && uv_now(&loop) < end)
        uv_run(&loop, UV_RUN_ONCE);
}

static struct sockaddr_storage lo(int port)
{
    struct sockaddr_storage a;
    uv_ip4_addr("127.0.0.1", port, (struct sockaddr_in *)&a);
    return a;
}

/* ---- server thread: raw echo, net echo, or the lobby ---- */

enum { SRV_RAW, SRV_NET, SRV_LOBBY };

typedef struct Srv {
    int kind;
    pthread_t th;
    uv_loop_t loop;
    uv_async_t stop;
    uv_tcp_t listener;
    Net_Server *net;
    Lobby *lobby;
    const char *redis; /* lobby: keep rooms there (NULL: in memory) */
    int port;
    volatile int ready;
} Srv;

typedef struct Raw_Wr {
    uv_write_t req;
    char bytes[];
} Raw_Wr;

static void free_wr(uv_write_t *w, int status)
{
    (void)status;
    free(w);
}

static void srv_alloc(uv_handle_t *h, size_t n, uv_buf_t *b)
{
    (void)h;
    *b = uv_buf_init(malloc(n), (unsigned)n);
}

static void srv_free_handle(uv_handle_t *h)
{
    free(h);
}

static void raw_echo_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    if (n > 0) {
        Raw_Wr *w = malloc(sizeof *w + (size_t)n);
        uv_buf_t out = uv_buf_init(w->bytes, (unsigned)n);
        memcpy(w->bytes, b->base, (size_t)n);
        uv_write(&w->req, s, &out, 1, free_wr);
    } else if (n < 0 && !uv_is_closing((uv_handle_t *)s)) {
        uv_close((uv_handle_t *)s, srv_free_handle);
    }
    free(b->base);
}

static void raw_echo_conn(uv_stream_t *l, int status)
{
    uv_tcp_t *c = malloc(sizeof *c);
    (void)status;
    uv_tcp_init(l->loop, c);
    c->data = c;
    if (uv_accept(l, (uv_stream_t *)c) == 0) {
        uv_tcp_nodelay(c, 1);
        uv_read_start((uv_stream_t *)c, srv_alloc, raw_echo_read);
    } else {
        uv_close((uv_handle_t *)c, srv_free_handle);
    }
}

static void net_echo_frame(Net_Conn *c, const uint8_t *d, size_t n)
{
    net_send(c, d, n);
}

static void net_echo_accept(Net_Server *s, Net_Conn *c)
{
    static const Net_Callbacks cb = {NULL, net_echo_frame, NULL, NULL};
    (void)s;
    net_conn_set_callbacks(c, &cb, NULL);
}

static void close_walk(uv_handle_t *h, void *arg)
{
    (void)arg;
    if (!uv_is_closing(h))
        uv_close(h, h->data == h ? srv_free_handle : NULL);
}

static void srv_stop(uv_async_t *a)
{
    Srv *s = a->data;
    if (s->kind == SRV_LOBBY)
        lobby_close(s->lobby, NULL, NULL);
    else if (s->kind == SRV_NET)
        net_server_close(s->net, NULL);
    else
        uv_walk(&s->loop, close_walk, NULL);
    if (!uv_is_closing((uv_handle_t *)a))
        uv_close((uv_handle_t *)a, NULL);
}

static void *srv_main(void *arg)
{
    Srv *s = arg;
    struct sockaddr_storage a = lo(0), b;
    int len = sizeof b;
    char where[64];

    uv_loop_init(&s->loop);
    uv_async_init(&s->loop, &s->stop, srv_stop);
    s->stop.data = s;
    if (s->kind == SRV_RAW) {
        uv_tcp_init(&s->loop, &s->listener);
        uv_tcp_bind(&s->listener, (struct sockaddr *)&a, 0);
        uv_listen((uv_stream_t *)&s->listener, 128, raw_echo_conn);
        uv_tcp_getsockname(&s->listener, (struct sockaddr *)&b, &len);
        s->port = ntohs(((struct sockaddr_in *)&b)->sin_port);
    } else if (s->kind == SRV_NET) {
        net_listen(&s->loop, (struct sockaddr *)&a, NULL, net_echo_accept, NULL,
                   &s->net);
        net_server_address(s->net, where, sizeof where);
        s->port = (int)strtol(strrchr(where, ':') + 1, NULL, 10);
    } else {
        Lobby_Limits lim = {.max_rooms = 2000, .max_conns = 8000};
        if (s->redis != NULL) { /* the rooms of earlier runs count in
                                   Redis for 10 minutes */
            lim.max_rooms = 100000;
            lim.source_rooms = 100000;
        }
        lobby_new(&s->loop, (struct sockaddr *)&a, &lim, &s->lobby);
        if (s->redis != NULL && lobby_use_redis(s->lobby, s->redis) != 0)
            fprintf(stderr, "bench: no Redis at %s\n", s->redis);
        lobby_address(s->lobby, where, sizeof where);
        s->port = (int)strtol(strrchr(where, ':') + 1, NULL, 10);
    }
    s->ready = 1;
    uv_run(&s->loop, UV_RUN_DEFAULT);
    if (uv_loop_close(&s->loop) != 0)
        fprintf(stderr, "bench: server loop did not close\n");
    return NULL;
}

static void srv_start_redis(Srv *s, int kind, const char *redis)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->redis = redis;
    pthread_create(&s->th, NULL, srv_main, s);
    while (!s->ready)
        usleep(1000);
}

static void srv_start(Srv *s, int kind)
{
    srv_start_redis(s, kind, NULL);
}

static void srv_join(Srv *s)
{
    uv_async_send(&s->stop);
    pthread_join(s->th, NULL);
}

/* ---- 1a. raw libuv ping-pong ---- */

typedef struct Ping {
    uint64_t *rtt;
    size_t n, want;
    uint64_t t0;
    size_t got;
    int done;
    uint64_t deadline;
} Ping;

static Ping ping;
static uv_tcp_t raw_client;
static uv_connect_t raw_req;
static char msg[MSG];

static void raw_send(void)
{
    Raw_Wr *w = malloc(sizeof *w + MSG);
    uv_buf_t b = uv_buf_init(w->bytes, MSG);
    memcpy(w->bytes, msg, MSG);
    ping.t0 = now_ns();
    uv_write(&w->req, (uv_stream_t *)&raw_client, &b, 1, free_wr);
}

static void raw_client_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    (void)s;
    free(b->base);
    if (n <= 0)
        return;
    ping.got += (size_t)n;
    if (ping.got < MSG)
        return;
    ping.got -= MSG;
    ping.rtt[ping.n++] = now_ns() - ping.t0;
    if (ping.n == ping.want || uv_now(&loop) > ping.deadline)
        ping.done = 1;
    else
        raw_send();
}

static void raw_client_conn(uv_connect_t *r, int status)
{
    (void)r;
    if (status != 0) {
        ping.done = 1;
        return;
    }
    uv_tcp_nodelay(&raw_client, 1);
    uv_read_start((uv_stream_t *)&raw_client, srv_alloc, raw_client_read);
    raw_send();
}

static size_t bench_raw(uint64_t *rtt, size_t want)
{
    Srv s;
    struct sockaddr_storage a;

    srv_start(&s, SRV_RAW);
    a = lo(s.port);
    memset(&ping, 0, sizeof ping);
    ping.rtt = rtt;
    ping.want = want;
    ping.deadline = uv_now(&loop) + 10000;
    uv_tcp_init(&loop, &raw_client);
    uv_tcp_connect(&raw_req, &raw_client, (struct sockaddr *)&a,
                   raw_client_conn);
    run_until(&ping.done, 15000);
    uv_close((uv_handle_t *)&raw_client, NULL);
    uv_run(&loop, UV_RUN_NOWAIT);
    srv_join(&s);
    return ping.n;
}

/* ---- 1b. net/ framed ping-pong ---- */

static void net_client_frame(Net_Conn *c, const uint8_t *d, size_t n)
{
    (void)d;
    (void)n;
    ping.rtt[ping.n++] = now_ns() - ping.t0;
    if (ping.n == ping.want || uv_now(&loop) > ping.deadline) {
        ping.done = 1;
        return;
    }
    ping.t0 = now_ns();
    net_send(c, msg, MSG);
}

static void net_client_connect(Net_Conn *c, int status)
{
    if (status != 0) {
        ping.done = 1;
        return;
    }
    ping.t0 = now_ns();
    net_send(c, msg, MSG);
}

static int net_client_closed_flag;

static void net_client_closed(Net_Conn *c, int reason)
{
    (void)c;
    (void)reason;
    net_client_closed_flag = 1;
}

static size_t bench_net(uint64_t *rtt, size_t want)
{
    static const Net_Callbacks cb = {net_client_connect, net_client_frame,
                                     net_client_closed, NULL};
    Srv s;
    struct sockaddr_storage a;
    Net_Conn *c;

    srv_start(&s, SRV_NET);
    a = lo(s.port);
    memset(&ping, 0, sizeof ping);
    ping.rtt = rtt;
    ping.want = want;
    ping.deadline = uv_now(&loop) + 10000;
    net_client_closed_flag = 0;
    net_connect(&loop, (struct sockaddr *)&a, NULL, &cb, NULL, &c);
    run_until(&ping.done, 15000);
    net_close(c, 0);
    run_until(&net_client_closed_flag, 2000);
    srv_join(&s);
    return ping.n;
}

/* ---- lobby clients ---- */

typedef struct Player {
    Lobby_Client *c;
    int welcomed, gone, reason;
    uint64_t frames, acks;
    int echo; /* the guest answers every frame */
} Player;

static Ping *cur_ping;
static int n_welcomed, n_gone; /* all players, for cheap progress checks */

static void pl_welcome(Lobby_Client *c, const Lobby_Welcome *w)
{
    Player *p = lobby_client_user(c);
    (void)w;
    p->welcomed = 1;
    n_welcomed++;
}

static void pl_frame(Lobby_Client *c, uint64_t seq, Lobby_Role from,
                     const uint8_t *d, size_t n)
{
    Player *p = lobby_client_user(c);
    (void)seq;
    (void)from;
    p->frames++;
    if (p->echo) {
        lobby_client_send(c, d, n);
    } else if (cur_ping != NULL) {
        Ping *pg = cur_ping;
        pg->rtt[pg->n++] = now_ns() - pg->t0;
        if (pg->n == pg->want || uv_now(&loop) > pg->deadline) {
            pg->done = 1;
            return;
        }
        pg->t0 = now_ns();
        lobby_client_send(c, msg, MSG);
    }
}

static void pl_ack(Lobby_Client *c, uint64_t seq)
{
    Player *p = lobby_client_user(c);
    (void)seq;
    p->acks++;
}

static void pl_gone(Lobby_Client *c, int reason)
{
    Player *p = lobby_client_user(c);
    p->gone = 1;
    p->reason = reason;
    n_gone++;
}

static const Lobby_Client_Callbacks pl_cb = {pl_welcome, pl_frame, pl_ack, NULL,
                                             pl_gone, NULL, NULL};

/* A fresh host: key, invite and watch codes, seat secret. */
static void host_config(Lobby_Client_Config *hc)
{
    memset(hc, 0, sizeof *hc);
    proto_identity_generate(&hc->id);
    memcpy(hc->host_pk, hc->id.pk, sizeof hc->host_pk);
    hc->role = LOBBY_ROLE_HOST;
    lobby_code_new(hc->host_pk, &hc->invite);
    lobby_code_new(hc->host_pk, &hc->watch);
    lobby_random(hc->seat_secret, sizeof hc->seat_secret);
}

/* Open a room's host, wait until the room exists, then connect its guest
 * (which echoes every frame until told otherwise). */
static void room_open2(int port, int guest_port, Player *host, Player *guest)
{
    struct sockaddr_storage a = lo(port), ga = lo(guest_port);
    Lobby_Client_Config hc, gc;
    uint64_t end;

    host_config(&hc);
    memset(&gc, 0, sizeof gc);
    gc.role = LOBBY_ROLE_GUEST;
    gc.invite = hc.invite;
    lobby_random(gc.seat_secret, sizeof gc.seat_secret);
    proto_identity_generate(&gc.id);
    memset(host, 0, sizeof *host);
    memset(guest, 0, sizeof *guest);
    guest->echo = 1;
    lobby_client_new(&loop, (struct sockaddr *)&a, &hc, &pl_cb, host, 0,
                     &host->c);
    end = uv_now(&loop) + 5000;
    while (!host->welcomed && !host->gone && uv_now(&loop) < end)
        uv_run(&loop, UV_RUN_ONCE);
    if (host->welcomed)
        lobby_client_new(&loop, (struct sockaddr *)&ga, &gc, &pl_cb, guest, 0,
                         &guest->c);
}

static void room_open(int port, Player *host, Player *guest)
{
    room_open2(port, port, host, guest);
}

static void free_player(Player *p)
{
    lobby_client_free(p->c);
    p->c = NULL;
}

/* ---- 1c. a move through the relay ---- */

/* One in-memory node (redis NULL), one node on Redis, or (two) the host
 * on one node and the guest on another, both on Redis. */
static size_t bench_relay(uint64_t *rtt, size_t want, double *fps,
                          const char *redis, int two)
{
    Srv s, s2;
    Player host, guest;
    int all = 0;

    srv_start_redis(&s, SRV_LOBBY, redis);
    if (two)
        srv_start_redis(&s2, SRV_LOBBY, redis);
    room_open2(s.port, two ? s2.port : s.port, &host, &guest);
    run_until(&guest.welcomed, 5000);
    memset(&ping, 0, sizeof ping);
    ping.rtt = rtt;
    ping.want = want;
    ping.deadline = uv_now(&loop) + 10000;
    cur_ping = &ping;
    ping.t0 = now_ns();
    lobby_client_send(host.c, msg, MSG);
    run_until(&ping.done, 15000);
    cur_ping = NULL;

    /* 2. throughput: host to guest, at most 256 frames unacknowledged,
     * for 2 s; the guest stops echoing. */
    guest.echo = 0;
    {
        uint64_t sent = 0, start_frames = guest.frames, acks0 = host.acks;
        uint64_t t0 = now_ns(), end = uv_now(&loop) + 2000;
        while (uv_now(&loop) < end) {
            while (sent - (host.acks - acks0) < 256) {
                lobby_client_send(host.c, msg, MSG);
                sent++;
            }
            uv_run(&loop, UV_RUN_NOWAIT);
        }
        *fps = (double)(guest.frames - start_frames) /
               ((double)(now_ns() - t0) / 1e9);
    }
    free_player(&host);
    free_player(&guest);
    run_until(&all, 200);
    srv_join(&s);
    if (two)
        srv_join(&s2);
    return ping.n;
}

/* ---- 3 and 4: a lobby process ---- */

static long rss_kib(pid_t pid)
{
    char path[64], line[256];
    long kib = -1;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    f = fopen(path, "r");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    fclose(f);
    return kib;
}

static pid_t spawn_lobby_redis(const char *bin, int *port, const char *redis)
{
    /* Every client of this bench comes from 127.0.0.1: one address is
     * given the whole lobby. */
    char *args[] = {"--max-rooms", "2000", "--max-conns", "100000",
                    "--max-rooms-per-address", "2000",
                    "--max-conns-per-address", "100000",
                    redis != NULL ? "--redis" : NULL, (char *)redis, NULL};
    return bench_spawn_lobby(bin, args, port);
}

static void stop_lobby(pid_t pid) { bench_stop_lobby(pid); }

static pid_t spawn_lobby(const char *bin, int *port)
{
    return spawn_lobby_redis(bin, port, NULL);
}

/* Redis's used_memory in bytes (-1: cannot ask); url redis://HOST:PORT. */
static long long redis_used(const char *url)
{
    char host[64];
    const char *h = url + 8, *c = strrchr(url, ':');
    long long used = -1;
    redisContext *rc;
    redisReply *r;

    if (c == NULL || c <= h || (size_t)(c - h) >= sizeof host)
        return -1;
    memcpy(host, h, (size_t)(c - h));
    host[c - h] = '\0';
    rc = redisConnect(host, (int)strtol(c + 1, NULL, 10));
    if (rc == NULL || rc->err != 0) {
        redisFree(rc);
        return -1;
    }
    r = redisCommand(rc, "INFO memory");
    if (r != NULL && r->type == REDIS_REPLY_STRING) {
        const char *u = strstr(r->str, "used_memory:");
        if (u != NULL)
            used = strtoll(u + 12, NULL, 10);
    }
    freeReplyObject(r);
    redisFree(rc);
    return used;
}

static void bench_rooms(const char *bin, int nrooms, const char *redis)
{
    int port, none = 0;
    pid_t pid = spawn_lobby_redis(bin, &port, redis);
    long long rbefore = redis ? redis_used(redis) : 0, rafter = 0;
    Player *h = calloc((size_t)nrooms, sizeof *h);
    Player *g = calloc((size_t)nrooms, sizeof *g);
    long before, after;
    int ready = 0;

    if (pid < 0 || h == NULL || g == NULL) {
        fprintf(stderr, "bench: cannot start the lobby\n");
        exit(1);
    }
    run_until(&none, 200);
    before = rss_kib(pid);
    for (int i = 0; i < nrooms; i++)
        room_open(port, &h[i], &g[i]);
    {
        uint64_t end = uv_now(&loop) + 10000;
        while (uv_now(&loop) < end) {
            ready = 0;
            for (int i = 0; i < nrooms; i++)
                ready += g[i].welcomed;
            if (ready == nrooms)
                break;
            uv_run(&loop, UV_RUN_ONCE);
        }
    }
    for (int i = 0; i < nrooms; i++) {
        g[i].echo = 0;
        for (int k = 0; k < 10; k++)
            if (g[i].c != NULL)
                lobby_client_send(h[i].c, msg, MSG);
    }
    {
        uint64_t end = uv_now(&loop) + 10000;
        uint64_t got = 0;
        while (uv_now(&loop) < end) {
            got = 0;
            for (int i = 0; i < nrooms; i++)
                got += g[i].frames;
            if (got == (uint64_t)nrooms * 10)
                break;
            uv_run(&loop, UV_RUN_ONCE);
        }
        run_until(&none, 300);
        after = rss_kib(pid);
        printf("rooms%s %d ready %d frames %llu rss_before_kib %ld "
               "rss_after_kib %ld per_room_bytes %.0f\n",
               redis ? "-redis" : "", nrooms, ready, (unsigned long long)got,
               before, after, (double)(after - before) * 1024.0 / nrooms);
        if (redis != NULL) {
            rafter = redis_used(redis);
            printf("rooms-redis redis_used_before %lld redis_used_after %lld "
                   "per_room_bytes %.0f\n",
                   rbefore, rafter, (double)(rafter - rbefore) / nrooms);
        }
    }
    for (int i = 0; i < nrooms; i++) {
        free_player(&h[i]);
        free_player(&g[i]);
    }
    run_until(&none, 300);
    stop_lobby(pid);
    free(h);
    free(g);
}

/* The most connections held: rooms of one host and 49 spectators, every
 * connection a member that only exchanges heartbeats, held past the idle
 * timeout (15 s) so the heartbeats are what keeps them. */
static int bench_conns(const char *bin, int want)
{
    int port, none = 0, nrooms = (want + 49) / 50, made = 0;
    (void)made;
    pid_t pid = spawn_lobby(bin, &port);
    struct sockaddr_storage a = lo(port);
    Player *pl = calloc((size_t)want + (size_t)nrooms, sizeof *pl);
    Lobby_Code *watch = calloc((size_t)nrooms, sizeof *watch);
    long before, after;
    uint64_t t0;
    double secs;
    int welcomed = 0, gone = 0, total = 0, base;

    if (pid < 0 || pl == NULL || watch == NULL)
        exit(1);
    run_until(&none, 200);
    before = rss_kib(pid);
    t0 = uv_now(&loop);
    base = n_welcomed + n_gone;
    /* Member i is in room i / 50; member 50r is room r's host. */
    total = want;
    for (int r = 0; r < nrooms; r++) {
        Lobby_Client_Config hc;
        Player *h = &pl[r * 50];
        host_config(&hc);
        watch[r] = hc.watch;
        lobby_client_new(&loop, (struct sockaddr *)&a, &hc, &pl_cb, h, 0,
                         &h->c);
        made++;
    }
    /* Hosts first, then their spectators in batches. */
    {
        uint64_t end = uv_now(&loop) + 20000;
        while (n_welcomed + n_gone < base + nrooms && uv_now(&loop) < end)
            uv_run(&loop, UV_RUN_ONCE);
    }
    for (int i = 0; i < total; i++) {
        Lobby_Client_Config sc;
        if (i % 50 == 0)
            continue;
        memset(&sc, 0, sizeof sc);
        sc.role = LOBBY_ROLE_SPECTATOR;
        sc.watch = watch[i / 50];
        if (lobby_client_new(&loop, (struct sockaddr *)&a, &sc, &pl_cb, &pl[i],
                             0, &pl[i].c) != 0)
            break;
        if (i % 500 == 0) {
            uint64_t end = uv_now(&loop) + 5000;
            while (n_welcomed + n_gone < base + i + 1 && uv_now(&loop) < end)
                uv_run(&loop, UV_RUN_ONCE);
        }
    }
    {
        uint64_t end = uv_now(&loop) + 20000;
        while (n_welcomed + n_gone < base + total && uv_now(&loop) < end)
            uv_run(&loop, UV_RUN_ONCE);
    }
    secs = (double)(uv_now(&loop) - t0) / 1000.0;
    {
        uint64_t end = uv_now(&loop) + 16000;
        while (uv_now(&loop) < end)
            uv_run(&loop, UV_RUN_ONCE);
    }
    after = rss_kib(pid);
    welcomed = gone = 0;
    for (int i = 0; i < total; i++) {
        welcomed += pl[i].welcomed && !pl[i].gone;
        gone += pl[i].gone;
        if (pl[i].gone && gone < 5)
            fprintf(stderr, "bench: member %d dropped: %s (welcomed %d)\n", i,
                    net_strerror(pl[i].reason), pl[i].welcomed);
    }
    printf(
        "conns asked %d members %d rooms %d setup_s %.1f dropped_during_hold "
        "%d held_after_16s %d rss_before_kib %ld rss_after_kib %ld "
        "per_conn_bytes %.0f\n",
        want, total, nrooms, secs, gone, welcomed, before, after,
        welcomed ? (double)(after - before) * 1024.0 / welcomed : 0.0);
    for (int i = 0; i < total; i++)
        lobby_client_free(pl[i].c);
    run_until(&none, 1000);
    stop_lobby(pid);
    free(pl);
    free(watch);
    return gone;
}

int main(int argc, char **argv)
{
    size_t rounds = 5000;
    uint64_t *r1, *r2, *r3;
    size_t n1, n2, n3;
    double fps = 0;
    struct rlimit rl;
    int maxconns;

    if (argc < 2) {
        fprintf(stderr, "usage: bench_lobby TABULA_BINARY [ROUNDS]\n");
        return 2;
    }
    if (argc > 2)
        rounds = (size_t)strtoul(argv[2], NULL, 10);
    if (rounds < 100 || rounds > 100000)
        rounds = 5000;
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* The fd limit up to the hard limit, inherited by the lobby. */
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    maxconns = rl.rlim_cur > 60000 ? 30000 : (int)rl.rlim_cur - 200;

    memset(msg, 'm', sizeof msg);
    uv_loop_init(&loop);
    r1 = calloc(rounds, sizeof *r1);
    r2 = calloc(rounds, sizeof *r2);
    r3 = calloc(rounds, sizeof *r3);
    if (getenv("BENCH_CONNS_ONLY") != NULL) {
        bench_conns(argv[1], argc > 3 ? (int)strtol(argv[3], NULL, 10) : 1000);
        uv_run(&loop, UV_RUN_DEFAULT);
        uv_loop_close(&loop);
        return 0;
    }
    n1 = bench_raw(r1, rounds);
    n2 = bench_net(r2, rounds);
    n3 = bench_relay(r3, rounds, &fps, NULL, 0);
    qsort(r1, n1, sizeof *r1, cmp_u64);
    qsort(r2, n2, sizeof *r2, cmp_u64);
    qsort(r3, n3, sizeof *r3, cmp_u64);
    printf("rtt raw-libuv rounds %zu p50_us %.1f p99_us %.1f\n", n1,
           pct_us(r1, n1, 0.5), pct_us(r1, n1, 0.99));
    printf("rtt net-framed rounds %zu p50_us %.1f p99_us %.1f\n", n2,
           pct_us(r2, n2, 0.5), pct_us(r2, n2, 0.99));
    printf("rtt relay rounds %zu p50_us %.1f p99_us %.1f\n", n3,
           pct_us(r3, n3, 0.5), pct_us(r3, n3, 0.99));
    printf("relay frames_per_s %.0f (%d-byte payload, window 256)\n", fps, MSG);
    fflush(stdout);
    if (getenv("BENCH_REDIS") != NULL) { /* redis://HOST:PORT of a Redis */
        static const char *names[2] = {"relay-redis", "relay-2nodes"};
        for (int two = 0; two < 2; two++) {
            size_t n = bench_relay(r3, rounds, &fps, getenv("BENCH_REDIS"),
                                   two);
            qsort(r3, n, sizeof *r3, cmp_u64);
            printf("rtt %s rounds %zu p50_us %.1f p99_us %.1f\n", names[two],
                   n, pct_us(r3, n, 0.5), pct_us(r3, n, 0.99));
            printf("%s frames_per_s %.0f (%d-byte payload, window 256)\n",
                   names[two], fps, MSG);
        }
        fflush(stdout);
    }
    if (getenv("BENCH_LATENCY_ONLY") != NULL)
        goto done;
    bench_rooms(argv[1], 1000, NULL);
    if (getenv("BENCH_REDIS") != NULL)
        bench_rooms(argv[1], 1000, getenv("BENCH_REDIS"));
    fflush(stdout);
    if (argc > 3) { /* a smaller connection count, for a quick run */
        int n = (int)strtol(argv[3], NULL, 10);
        if (n > 0 && n < maxconns)
            maxconns = n;
    }
    /* From the fd limit down until a run holds every connection. */
    {
        static const int steps[] = {16000, 12000, 8000, 4000};
        if (bench_conns(argv[1], maxconns) != 0)
            for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
                if (steps[i] < maxconns && bench_conns(argv[1], steps[i]) == 0)
                    break;
    }
done:
    uv_run(&loop, UV_RUN_NOWAIT);
    uv_run(&loop, UV_RUN_DEFAULT);
    if (uv_loop_close(&loop) != 0)
        fprintf(stderr, "bench: main loop did not close\n");
    free(r1);
    free(r2);
    free(r3);
    return 0;
}
