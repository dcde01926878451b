/*
 * lobby_load.c: one process of the load generator for the lobby's scale
 * benchmark (tests/bench/lobby_scale.sh): it opens ROOMS rooms through
 * lobby nodes, each a host (CREATE) on one node and its guest (JOIN) on
 * the next node of the list, so every room spans two nodes, then holds
 * every connection idle (heartbeats only) for HOLD seconds, past the
 * lobby's idle timeout, and counts what it still holds. One process may
 * hold at most 20,000 descriptors on the benchmark machine, so the
 * script runs several. At most WINDOW hosts' hellos are in flight at
 * once; its side of each connection sends a heartbeat every 10 s (the
 * node's idle timeout is 15 s) so that the generators' heartbeats cost
 * the shared cores half of what the nodes' do. With SOURCES (IPv4
 * addresses of this machine, e.g. 127.0.1.1,127.0.1.2) the connections
 * are made from them in turn: one source address has only ~28,000
 * ephemeral ports, and Linux's search for a free one towards a
 * destination slows down as they fill (a millisecond a connect with
 * 13,000 taken), so the script gives each generator several addresses,
 * a few thousand connections each.
 * Usage: lobby_load HOST:PORT[,HOST:PORT...] ROOMS HOLD_S [FIRST_NODE
 *        [SOURCE[,SOURCE...]]]
 * Prints "ready rooms R members M welcomed W gone G setup_s S" once every
 * member is welcomed or gone, then "held members M alive A gone G".
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "lobby.h"
#include "tb_error.h"

#define NODES_MAX 16
#define WINDOW 128
/* The generator's own side of each connection beats less often than the
 * node's (5 s, idle 15 s): the node is what is measured. */
#define BEAT_MS 10000
#define IDLE_MS 60000

typedef struct Member {
    Lobby_Client *c;
    int welcomed, gone;
    int room; /* its index; hosts are even members, guests odd */
} Member;

static uv_loop_t loop;
static struct sockaddr_storage node[NODES_MAX];
static size_t nnodes;
static int first_node;
#define SOURCES_MAX 64
static struct sockaddr_storage source[SOURCES_MAX];
static size_t nsources; /* 0: the system's choice */
static size_t next_source;

/* The next source address in turn, or a zeroed one (any). */
static struct sockaddr_storage pick_source(void)
{
    struct sockaddr_storage none = {0};
    if (nsources == 0)
        return none;
    return source[next_source++ % nsources];
}
static Member *mem;
static Lobby_Client_Config *cfg; /* each room's host config */
static int rooms, opened, answered, welcomed, gone;

static void open_guest(int r);

static void on_welcome(Lobby_Client *c, const Lobby_Welcome *w)
{
    Member *m = lobby_client_user(c);
    (void)w;
    m->welcomed = 1;
    welcomed++;
    answered++;
    if (m == &mem[2 * m->room])
        open_guest(m->room);
}

static void on_gone(Lobby_Client *c, int reason)
{
    Member *m = lobby_client_user(c);
    if (gone < 5)
        fprintf(stderr, "lobby_load: member %d gone: %s (welcomed %d)\n",
                (int)(m - mem), net_strerror(reason), m->welcomed);
    if (!m->welcomed)
        answered++;
    m->gone = 1;
    gone++;
}

static const Lobby_Client_Callbacks cb = {on_welcome, NULL, NULL, NULL,
                                          on_gone, NULL, NULL};

static const struct sockaddr *node_of(int r, int guest)
{
    return (const struct sockaddr
                *)&node[(size_t)(first_node + r + guest) % nnodes];
}

static void open_host(int r)
{
    Lobby_Client_Config *hc = &cfg[r];
    Member *m = &mem[2 * r];
    memset(hc, 0, sizeof *hc);
    proto_identity_generate(&hc->id);
    memcpy(hc->host_pk, hc->id.pk, sizeof hc->host_pk);
    hc->role = LOBBY_ROLE_HOST;
    lobby_code_new(hc->host_pk, &hc->invite);
    lobby_code_new(hc->host_pk, &hc->watch);
    lobby_random(hc->seat_secret, sizeof hc->seat_secret);
    hc->limits.heartbeat_ms = BEAT_MS;
    hc->limits.idle_timeout_ms = IDLE_MS;
    hc->source = pick_source();
    m->room = r;
    opened++;
    if (lobby_client_new(&loop, node_of(r, 0), hc, &cb, m, 0, &m->c) != 0) {
        m->gone = 1;
        gone++;
        answered++;
    }
}

static void open_guest(int r)
{
    Lobby_Client_Config gc;
    Member *m = &mem[2 * r + 1];
    memset(&gc, 0, sizeof gc);
    gc.role = LOBBY_ROLE_GUEST;
    gc.invite = cfg[r].invite;
    lobby_random(gc.seat_secret, sizeof gc.seat_secret);
    proto_identity_generate(&gc.id);
    gc.limits.heartbeat_ms = BEAT_MS;
    gc.limits.idle_timeout_ms = IDLE_MS;
    gc.source = pick_source();
    m->room = r;
    opened++;
    if (lobby_client_new(&loop, node_of(r, 1), &gc, &cb, m, 0, &m->c) != 0) {
        m->gone = 1;
        gone++;
        answered++;
    }
}

int main(int argc, char **argv)
{
    struct rlimit rl;
    int hold_s, next = 0;
    uint64_t t0, end;

    if (argc < 4 ||
        lobby_addr_list_parse(argv[1], node, NODES_MAX, &nnodes) != 0) {
        fprintf(stderr, "usage: lobby_load HOST:PORT[,HOST:PORT...] ROOMS "
                        "HOLD_S [FIRST_NODE [SOURCE]]\n");
        return 2;
    }
    rooms = (int)strtol(argv[2], NULL, 10);
    hold_s = (int)strtol(argv[3], NULL, 10);
    first_node = argc > 4 ? (int)strtol(argv[4], NULL, 10) : 0;
    for (const char *p = argc > 5 ? argv[5] : ""; *p != '\0';) {
        size_t n = strcspn(p, ",");
        char where[80];
        if (nsources == SOURCES_MAX || n > 60 ||
            snprintf(where, sizeof where, "%.*s:0", (int)n, p) < 0 ||
            net_addr_parse(where, &source[nsources++]) != 0) {
            fprintf(stderr, "lobby_load: bad source addresses %s\n", argv[5]);
            return 2;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    if (rooms < 1 || rooms > 100000 || hold_s < 0 || first_node < 0)
        return 2;
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    if (rl.rlim_cur < (rlim_t)(2 * rooms + 50)) {
        fprintf(stderr,
                "lobby_load: %d members need more than the %llu "
                "descriptors allowed\n",
                2 * rooms, (unsigned long long)rl.rlim_cur);
        return 2;
    }
    mem = calloc(2 * (size_t)rooms, sizeof *mem);
    cfg = calloc((size_t)rooms, sizeof *cfg);
    if (mem == NULL || cfg == NULL)
        return 1;
    uv_loop_init(&loop);
    t0 = uv_now(&loop);
    /* Hosts in a window of WINDOW hellos; a welcomed host opens its guest. */
    /* A guest is opened in its host's welcome, so once every host is
     * open and every member opened is answered, nothing more comes. */
    while (next < rooms || answered < opened) {
        while (next < rooms && opened - answered < WINDOW)
            open_host(next++);
        if (uv_now(&loop) - t0 > 600000)
            break;
        uv_run(&loop, UV_RUN_ONCE);
        uv_update_time(&loop);
    }
    printf("ready rooms %d members %d welcomed %d gone %d setup_s %.1f\n",
           rooms, opened, welcomed, gone,
           (double)(uv_now(&loop) - t0) / 1000.0);
    end = uv_now(&loop) + (uint64_t)hold_s * 1000;
    while (uv_now(&loop) < end) {
        uv_run(&loop, UV_RUN_ONCE);
        uv_update_time(&loop);
    }
    {
        int alive = 0;
        for (int i = 0; i < opened; i++)
            alive += mem[i].welcomed && !mem[i].gone;
        printf("held members %d alive %d gone %d\n", opened, alive, gone);
    }
    for (int i = 0; i < 2 * rooms; i++)
        lobby_client_free(mem[i].c);
    uv_run(&loop, UV_RUN_NOWAIT);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
    free(mem);
    free(cfg);
    return 0;
}
