/*
 * bench_seek.c: public seeks' figures for docs/benchmarks.md (issue 37),
 * on loopback, against `tabula lobby` processes:
 *   1. the list: SEEKS hosts each put a seek up (CREATE, SEEK, SEEKED),
 *      then a new client asks for the list 5 times: connect to the last
 *      LIST, the whole list (about 2.5 MB for 10,000) received; beside
 *      it, the anchor, the same for an empty list (a connection, a hello
 *      and one answer); and the processor time the reader spends checking
 *      every card (lobby_seek_card_read: signatures and codes);
 *   2. with BENCH_REDIS=redis://HOST:PORT, the same list on a node of a
 *      lobby on that Redis, the seeks made through the other node;
 *   3. with BENCH_REDIS, seek to game start across the two nodes, ROUNDS
 *      times: once the host's seek is listed on node A, a stranger on
 *      node B reads the list until it holds the seek (25 ms after, then
 *      each 30 ms), joins with its code, and the host, told the guest
 *      came, sends its first frame, which reaches the guest: p50 and
 *      p99 from the start of the read that found the seek; beside it,
 *      the anchor, the same game start with the code passed by hand (no
 *      list, no seek).
 * Usage: bench_seek TABULA_BINARY [SEEKS [ROUNDS]] (defaults 10000, 50).
 * Every client comes from 127.0.0.1, which the lobbies trust and give
 * shares as large as the run needs.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lobby.h"
#include "spawn_lobby.h"
#include "tb_error.h"

static uv_loop_t loop;

static uint64_t now_ns(void) { return uv_hrtime(); }

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct_ms(uint64_t *v, size_t n, double p)
{
    if (n == 0)
        return -1;
    qsort(v, n, sizeof *v, cmp_u64);
    return (double)v[(size_t)(p * (double)(n - 1) + 0.5)] / 1e6;
}

static struct sockaddr_storage lo(int port)
{
    struct sockaddr_storage a;
    uv_ip4_addr("127.0.0.1", port, (struct sockaddr_in *)&a);
    return a;
}

/* `tabula lobby` on a free port with shares for n seeks from 127.0.0.1
 * (redis: NULL, or its url); its port in *port. */
static pid_t spawn_lobby(const char *bin, unsigned n, const char *redis,
                         int *port)
{
    char rooms[16], conns[16];
    snprintf(rooms, sizeof rooms, "%u", n + 100);
    snprintf(conns, sizeof conns, "%u", n + 2000);
    char *args[] = {"--max-rooms", rooms, "--max-conns", conns,
                    "--max-rooms-per-address", rooms,
                    "--max-conns-per-address", conns, "--max-seeks", rooms,
                    "--max-seeks-per-address", rooms, "--trust", "127.0.0.1",
                    redis != NULL ? "--redis" : NULL, (char *)redis, NULL};
    return bench_spawn_lobby(bin, args, port);
}

/* ---- a host with a seek, a guest ---- */

typedef struct Player {
    Lobby_Client *c;
    Lobby_Client_Config cfg;
    uint8_t card[LOBBY_SEEK_CARD_MAX];
    size_t card_len;
    int welcomed, seeked, guest_came, started, gone;
    uint64_t seeked_ns, started_ns;
} Player;

static unsigned n_seeked, n_refused;

static void p_welcome(Lobby_Client *c, const Lobby_Welcome *w)
{
    Player *p = lobby_client_user(c);
    (void)w;
    p->welcomed = 1;
    if (p->card_len > 0 &&
        lobby_client_seek(c, p->card, p->card_len) != 0)
        n_refused++;
}

static void p_seeked(Lobby_Client *c, int reason)
{
    Player *p = lobby_client_user(c);
    p->seeked = 1;
    p->seeked_ns = now_ns();
    if (reason == 0)
        n_seeked++;
    else
        n_refused++;
}

static void p_presence(Lobby_Client *c, Lobby_Role seat, int present)
{
    Player *p = lobby_client_user(c);
    static const uint8_t start[] = "start";
    if (seat == LOBBY_ROLE_GUEST && present && !p->guest_came) {
        p->guest_came = 1;
        (void)lobby_client_send(c, start, sizeof start);
    }
}

static void p_frame(Lobby_Client *c, uint64_t seq, Lobby_Role from,
                    const uint8_t *d, size_t n)
{
    Player *p = lobby_client_user(c);
    (void)seq;
    (void)d;
    (void)n;
    if (from == LOBBY_ROLE_HOST && !p->started) {
        p->started = 1;
        p->started_ns = now_ns();
    }
}

static void p_gone(Lobby_Client *c, int reason)
{
    Player *p = lobby_client_user(c);
    (void)reason;
    p->gone = 1;
}

static const Lobby_Client_Callbacks p_cb = {
    p_welcome, p_frame, NULL, p_presence, p_gone, NULL, p_seeked};

static int host_new(Player *p, int port, int seek)
{
    struct sockaddr_storage a = lo(port);
    memset(p, 0, sizeof *p);
    proto_identity_generate(&p->cfg.id);
    memcpy(p->cfg.host_pk, p->cfg.id.pk, LOBBY_KEY_BYTES);
    p->cfg.role = LOBBY_ROLE_HOST;
    lobby_code_new(p->cfg.host_pk, &p->cfg.invite);
    lobby_code_new(p->cfg.host_pk, &p->cfg.watch);
    lobby_random(p->cfg.seat_secret, sizeof p->cfg.seat_secret);
    if (seek && lobby_seek_card(&p->cfg.id, &p->cfg.invite, "laska",
                                "clock=300+3", NULL, 0, NULL, p->card,
                                &p->card_len) != 0)
        return -1;
    return lobby_client_new(&loop, (struct sockaddr *)&a, &p->cfg, &p_cb, p,
                            0, &p->c);
}

static int guest_new(Player *p, int port, const Lobby_Code *code)
{
    struct sockaddr_storage a = lo(port);
    memset(p, 0, sizeof *p);
    p->cfg.role = LOBBY_ROLE_GUEST;
    p->cfg.invite = *code;
    lobby_random(p->cfg.seat_secret, sizeof p->cfg.seat_secret);
    proto_identity_generate(&p->cfg.id);
    return lobby_client_new(&loop, (struct sockaddr *)&a, &p->cfg, &p_cb, p,
                            0, &p->c);
}

/* ---- the list ---- */

typedef struct Fetch {
    int done, status;
    unsigned count;
    size_t bytes;
    const uint8_t (*want)[LOBBY_LOOKUP_BYTES]; /* stop at this seek */
    Lobby_Code found;
    int has;
} Fetch;

static uint8_t (*cards)[LOBBY_SEEK_CARD_MAX]; /* the last list's, kept */
static size_t *card_lens, ncards, cards_cap;

static int f_each(void *user, uint64_t since, const uint8_t *card, size_t len)
{
    Fetch *f = user;
    (void)since;
    f->count++;
    f->bytes += len;
    if (f->want != NULL) {
        Lobby_Seek s;
        if (lobby_seek_card_read(card, len, &s) == 0 &&
            memcmp(s.invite.lookup, *f->want, LOBBY_LOOKUP_BYTES) == 0) {
            f->found = s.invite;
            f->has = 1;
        }
        return 0;
    }
    if (ncards < cards_cap) {
        memcpy(cards[ncards], card, len);
        card_lens[ncards++] = len;
    }
    return 0;
}

static void f_done(void *user, int status)
{
    Fetch *f = user;
    f->status = status;
    f->done = 1;
}

/* The list from port, timed (ns; 0: failed). */
static uint64_t fetch(int port, Fetch *f)
{
    struct sockaddr_storage a = lo(port);
    uint64_t t0 = now_ns();
    f->done = 0;
    f->count = 0;
    f->bytes = 0;
    ncards = 0;
    if (lobby_seeks_fetch(&loop, (struct sockaddr *)&a, NULL, f_each, f_done,
                          f) != 0)
        return 0;
    while (!f->done)
        uv_run(&loop, UV_RUN_ONCE);
    return f->status == 0 ? now_ns() - t0 : 0;
}

static void run_ms(uint64_t ms)
{
    uint64_t end = uv_now(&loop) + ms;
    while (uv_now(&loop) < end)
        uv_run(&loop, UV_RUN_NOWAIT);
}

/* n hosts with seeks on port; the list from list_port, 5 times, beside
 * the empty list's (before the seeks: the anchor). */
static void bench_list(const char *label, int port, int list_port, unsigned n)
{
    Player *h = calloc(n, sizeof *h);
    Fetch f = {0};
    uint64_t anchor[5], full[5];
    unsigned k = 0;

    for (int r = 0; r < 5; r++)
        anchor[r] = fetch(list_port, &f);
    n_seeked = n_refused = 0;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < n; i++) {
        if (host_new(&h[i], port, 1) != 0)
            break;
        if (i % 200 == 199) /* (a few hundred connecting at a time) */
            while (n_seeked + n_refused + 100 < i)
                uv_run(&loop, UV_RUN_ONCE);
    }
    while (n_seeked + n_refused < n && now_ns() - t0 < 120000000000ull)
        uv_run(&loop, UV_RUN_ONCE);
    printf("%s: %u seeks up in %.1f s (%u refused)\n", label, n_seeked,
           (now_ns() - t0) / 1e9, n_refused);
    run_ms(300); /* (with Redis: every node's list holds them) */
    cards_cap = n;
    cards = calloc(n, sizeof *cards);
    card_lens = calloc(n, sizeof *card_lens);
    for (int r = 0; r < 5; r++) {
        full[r] = fetch(list_port, &f);
        k = f.count;
    }
    double c0 = cpu_ms();
    unsigned ok = 0;
    for (size_t i = 0; i < ncards; i++) {
        Lobby_Seek s;
        ok += lobby_seek_card_read(cards[i], card_lens[i], &s) == 0;
    }
    double check = cpu_ms() - c0;
    printf("%s: list of %u seeks (%zu bytes of cards): %.1f / %.1f / %.1f "
           "ms (min/median/max of 5); empty list (anchor) %.2f / %.2f / "
           "%.2f ms\n",
           label, k, f.bytes, pct_ms(full, 5, 0) , pct_ms(full, 5, 0.5),
           pct_ms(full, 5, 1), pct_ms(anchor, 5, 0), pct_ms(anchor, 5, 0.5),
           pct_ms(anchor, 5, 1));
    printf("%s: checking the %zu cards (%u good): %.0f ms of processor "
           "time\n",
           label, ncards, ok, check);
    for (unsigned i = 0; i < n; i++)
        lobby_client_free(h[i].c);
    run_ms(500);
    free(h);
    free(cards);
    free(card_lens);
}

/* ---- seek to game start ---- */

static void bench_start(int port_a, int port_b, unsigned rounds)
{
    uint64_t *seek = calloc(rounds, sizeof *seek),
             *anchor = calloc(rounds, sizeof *anchor);
    size_t ns = 0, na = 0;

    for (unsigned r = 0; r < rounds; r++) {
        for (int with_seek = 0; with_seek < 2; with_seek++) {
            Player h, g;
            Fetch f = {0};
            uint64_t t0;
            if (host_new(&h, port_a, with_seek) != 0)
                continue;
            while (!h.gone && (with_seek ? !h.seeked : !h.welcomed))
                uv_run(&loop, UV_RUN_ONCE);
            t0 = with_seek ? h.seeked_ns : now_ns();
            Lobby_Code code = h.cfg.invite;
            if (with_seek) {
                /* The stranger reads the list until the seek is there (a
                 * node serves SEEKS from its copy of Redis's list, fresh
                 * for max(20 ms, 4 x its last read)), then takes it: the
                 * time runs from the start of the read that finds it. */
                f.want = &h.cfg.invite.lookup;
                run_ms(25);
                for (int tries = 0; tries < 100 && !f.has; tries++) {
                    t0 = now_ns();
                    if (fetch(port_b, &f) == 0 || !f.has)
                        run_ms(f.status == TB_E_RATE ? 150 : 30);
                }
                if (!f.has) {
                    lobby_client_free(h.c);
                    continue;
                }
                code = f.found;
            }
            if (guest_new(&g, port_b, &code) == 0) {
                uint64_t end = now_ns() + 5000000000ull;
                while (!g.started && !g.gone && now_ns() < end)
                    uv_run(&loop, UV_RUN_ONCE);
                if (g.started) {
                    if (with_seek)
                        seek[ns++] = g.started_ns - t0;
                    else
                        anchor[na++] = g.started_ns - t0;
                }
                lobby_client_free(g.c);
            }
            lobby_client_free(h.c);
            run_ms(5);
        }
    }
    printf("seek to game start, host on one node, stranger on the other: "
           "p50 %.2f ms, p99 %.2f ms (%zu rounds); code by hand (anchor): "
           "p50 %.2f ms, p99 %.2f ms (%zu)\n",
           pct_ms(seek, ns, 0.5), pct_ms(seek, ns, 0.99), ns,
           pct_ms(anchor, na, 0.5), pct_ms(anchor, na, 0.99), na);
    free(seek);
    free(anchor);
}

int main(int argc, char **argv)
{
    const char *bin = argc > 1 ? argv[1] : NULL, *redis = getenv("BENCH_REDIS");
    unsigned n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 10000;
    unsigned rounds = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 50;
    int port, port_b;
    pid_t a, b;

    if (bin == NULL || n == 0) {
        fprintf(stderr, "usage: bench_seek TABULA_BINARY [SEEKS [ROUNDS]]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    if (proto_init() != 0 || uv_loop_init(&loop) != 0)
        return 1;
    if ((a = spawn_lobby(bin, n, NULL, &port)) < 0)
        return 1;
    bench_list("memory", port, port, n);
    bench_stop_lobby(a);
    if (redis != NULL) {
        if ((a = spawn_lobby(bin, n, redis, &port)) < 0 ||
            (b = spawn_lobby(bin, n, redis, &port_b)) < 0)
            return 1;
        bench_list("redis", port, port_b, n);
        run_ms(1000); /* (the hosts' leaves reach Redis) */
        bench_start(port, port_b, rounds);
        bench_stop_lobby(a);
        bench_stop_lobby(b);
    }
    uv_loop_close(&loop);
    return 0;
}
