/*
 * bench_netplay.c: move round-trip latency between two seats of a real
 * network game (client/netgame.c) through an embedded lobby on 127.0.0.1:
 * the host sends a move (sealed, signed, state hash computed), the lobby
 * relays it, the guest verifies it (signature, chain, legality, its own
 * state hash), answers at once with its own move, and the host verifies
 * that. Both seats are "human" seats fed instantly from the ply hook with
 * the first legal move in canonical order, so no bot search is timed.
 * Everything runs on one libuv loop (lobby and both seats), as in `tabula
 * demo`. Usage: bench_netplay [ROUNDS] (default 2000). Prints p50, p90,
 * p99 and max in microseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "netgame.h"

typedef struct Bench {
    uv_loop_t loop;
    Lobby *lobby;
    char addr[64];
    Netgame *host, *guest;
    double sent_at;
    double *samples;
    size_t n, want;
    int ndone;
} Bench;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int first_move(const Core_Position *pos, char *text, size_t cap)
{
    Core_Move buf[256];
    size_t n = 0;
    if (core_moves(pos, buf, 256, &n) != 0 || n == 0)
        return -1;
    return core_move_format(pos, &buf[0], text, cap);
}

static void on_ply(Netgame *g, uint32_t ply, int side, const char *move,
                   const char *hash)
{
    Bench *b = netgame_user(g);
    const Proto_Transcript *t = netgame_transcript(g);
    const Core_Position *pos = proto_transcript_position(t);
    char text[CORE_NOTATION_MAX];
    int mine = (g == b->host) == (side == CORE_WHITE);
    (void)ply;
    (void)move;
    (void)hash;
    if (mine) {
        if (g == b->host)
            b->sent_at = now_us();
        return;
    }
    if (g == b->host && b->n < b->want)
        b->samples[b->n++] = now_us() - b->sent_at;
    if (core_status(pos).outcome != CORE_ONGOING)
        return;
    if (first_move(pos, text, sizeof text) == 0)
        netgame_submit(g, text);
}

static void on_done(Netgame *g)
{
    Bench *b = netgame_user(g);
    if (++b->ndone == 2) {
        lobby_close(b->lobby, NULL, NULL);
        b->lobby = NULL;
    }
}

static void on_room(Netgame *g, const char *invite, const char *watch,
                    const char *lobby)
{
    Bench *b = netgame_user(g);
    static const Netgame_Hooks hooks = {.on_ply = on_ply, .on_done = on_done};
    Netgame_Config cfg;
    char why[200];
    (void)watch;
    memset(&cfg, 0, sizeof cfg);
    cfg.role = LOBBY_ROLE_GUEST;
    cfg.code = invite;
    cfg.lobby = lobby;
    if (netgame_new(&b->loop, &cfg, &hooks, b, &b->guest, why, sizeof why))
        fprintf(stderr, "guest: %s\n", why);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    Bench b;
    size_t want = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000;
    const Core_Game *game = core_game_find("laska");
    double *samples = calloc(want, sizeof *samples);
    size_t n = 0;
    int games = 0;

    proto_init();
    while (n < want) {
        struct sockaddr_storage sa;
        Netgame_Config cfg;
        Core_Position *start = NULL;
        char why[200], first[CORE_NOTATION_MAX];
        static const Netgame_Hooks hooks = {
            .on_room = on_room, .on_ply = on_ply, .on_done = on_done};

        memset(&b, 0, sizeof b);
        b.samples = samples + n;
        b.want = want - n;
        uv_loop_init(&b.loop);
        net_addr_parse("127.0.0.1:0", &sa);
        if (lobby_new(&b.loop, (const struct sockaddr *)&sa, NULL, &b.lobby))
            return 1;
        lobby_address(b.lobby, b.addr, sizeof b.addr);
        memset(&cfg, 0, sizeof cfg);
        cfg.role = LOBBY_ROLE_HOST;
        cfg.game = game;
        cfg.options = "";
        cfg.lobby = b.addr;
        if (netgame_new(&b.loop, &cfg, &hooks, &b, &b.host, why, sizeof why)) {
            fprintf(stderr, "host: %s\n", why);
            return 1;
        }
        core_position_new(&start, game, NULL);
        first_move(start, first, sizeof first);
        core_position_free(start);
        netgame_submit(b.host, first);
        uv_run(&b.loop, UV_RUN_DEFAULT);
        netgame_free(b.host);
        netgame_free(b.guest);
        uv_run(&b.loop, UV_RUN_DEFAULT);
        uv_loop_close(&b.loop);
        n += b.n;
        games++;
        if (b.n == 0)
            return 1;
    }
    qsort(samples, n, sizeof *samples, cmp);
    printf("move round trip through the relay, %zu rounds in %d laska games:\n"
           "p50 %.1f us  p90 %.1f us  p99 %.1f us  max %.1f us\n",
           n, games, samples[n / 2], samples[n * 9 / 10], samples[n * 99 / 100],
           samples[n - 1]);
    free(samples);
    return 0;
}
