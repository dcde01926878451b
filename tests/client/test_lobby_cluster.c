/*
 * test_lobby_cluster.c: lobby nodes on a Redis Cluster of three masters
 * on 127.0.0.1 (redis-server --cluster-enabled yes three times, each in
 * a folder of the test's temporary directory, joined by redis-cli
 * --cluster create, no replicas, saving nothing): the slot of a key
 * agrees with the cluster's own CLUSTER KEYSLOT and with the CRC16
 * check value of the cluster specification; two bot games with the host
 * on node A and the guest and a spectator on node B, each node seeded
 * with a different master, end on one final hash with three identical
 * verified logs; the keys are spread over more than one master; and
 * after every slot of one master moved to another mid-test (the nodes'
 * maps stale: MOVED), the second game is played through the new map;
 * then that master, node B's seed, is killed for good and B comes back
 * through another master its map named, for a third game. Skipped with a message when redis-cli (Debian's redis-tools,
 * which redis-server depends on) is missing.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "core.h"
#include "lobby_internal.h"
#include "proto.h"

#define PROC_DIR_NAME "cluster"
#include "proc_util.h"
#include "redis_util.h"

#define MASTERS 3

static pid_t servers[MASTERS + 2];
static pid_t master_pid[MASTERS]; /* as started */

static void keep(pid_t pid)
{
    for (int i = 0; i < MASTERS + 2; i++)
        if (servers[i] == 0) {
            servers[i] = pid;
            return;
        }
}

static void let_go(pid_t pid)
{
    for (int i = 0; i < MASTERS + 2; i++)
        if (servers[i] == pid)
            servers[i] = 0;
}

static void kill_servers(void)
{
    for (int i = 0; i < MASTERS + 2; i++)
        if (servers[i] != 0) {
            int st;
            kill(servers[i], SIGKILL);
            waitpid(servers[i], &st, 0);
            servers[i] = 0;
        }
}

TestSuite(lobby_cluster, .fini = kill_servers);

static int have_redis_cli(void)
{
    return system("command -v redis-cli >/dev/null 2>&1") == 0;
}

/* A sync connection to a master (asserted). */
static redisContext *master(int port)
{
    struct timeval tv = {1, 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", port, tv);
    cr_assert(c != NULL && c->err == 0, "no Redis on %d", port);
    return c;
}

static int cluster_ok(int port)
{
    redisContext *c = master(port);
    redisReply *r = redisCommand(c, "CLUSTER INFO");
    int ok = r != NULL && r->type == REDIS_REPLY_STRING &&
             strstr(r->str, "cluster_state:ok") != NULL;
    freeReplyObject(r);
    redisFree(c);
    return ok;
}

/* Every master says cluster_state:ok (within about 10 s). */
static void await_cluster(const int port[MASTERS])
{
    for (int t = 0; t < 200; t++) {
        int ok = 1;
        for (int i = 0; i < MASTERS; i++)
            ok &= cluster_ok(port[i]);
        if (ok)
            return;
        pause_ms(50);
    }
    cr_assert_fail("the cluster never reached cluster_state:ok");
}

/* Start master i on a free port with a free bus port, in a folder of its
 * own: its pid, or 0 when it did not come up as itself (see
 * redis_util.h), stopped. */
static pid_t start_master(int i, int attempt, int *port)
{
    char folder[300], portv[16], busv[16], log[320];
    int bus;
    pid_t pid;
    *port = free_port();
    do /* The bus port is named: port + 10000 may be out of range. */
        bus = free_port();
    while (bus == *port);
    snprintf(folder, sizeof folder, "%s/r%d.%d", dir, i, attempt);
    cr_assert_eq(mkdir(folder, 0700), 0);
    snprintf(log, sizeof log, "%s/redis.out", folder);
    snprintf(portv, sizeof portv, "%d", *port);
    snprintf(busv, sizeof busv, "%d", bus);
    pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fo = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fo < 0 || chdir(folder) != 0)
            _exit(127);
        dup2(fo, 1);
        dup2(fo, 2);
        execlp("redis-server", "redis-server", "--port", portv,
               "--cluster-port", busv, "--bind", "127.0.0.1", "--dir", folder,
               "--save", "", "--appendonly", "no", "--cluster-enabled", "yes",
               "--cluster-config-file", "nodes.conf", (char *)NULL);
        _exit(127);
    }
    switch (redis_await_own(*port, pid)) {
    case 1:
        return pid;
    case 0:
        redis_kill(pid);
        return 0;
    default:
        return 0;
    }
}

/* Three masters on free ports, every slot served. */
static void start_cluster(int port[MASTERS])
{
    char cmd[512];
    int n = 0;

    for (int i = 0; i < MASTERS; i++) {
        pid_t pid = 0;
        for (int attempt = 0; pid == 0; attempt++) {
            cr_assert_lt(attempt, 5, "redis-server %d never came up as itself",
                         i);
            pid = start_master(i, attempt, &port[i]);
        }
        keep(pid);
        master_pid[i] = pid;
    }
    n = snprintf(cmd, sizeof cmd, "redis-cli --cluster create");
    for (int i = 0; i < MASTERS; i++)
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " 127.0.0.1:%d",
                      port[i]);
    snprintf(cmd + n, sizeof cmd - (size_t)n,
             " --cluster-replicas 0 --cluster-yes > '%s/create.out' 2>&1",
             dir);
    cr_assert_eq(system(cmd), 0, "redis-cli --cluster create failed");
    await_cluster(port);
}

static long long keys_on(int port)
{
    redisContext *c = master(port);
    redisReply *r = redisCommand(c, "DBSIZE");
    long long n;
    cr_assert(r != NULL && r->type == REDIS_REPLY_INTEGER);
    n = r->integer;
    freeReplyObject(r);
    redisFree(c);
    return n;
}

/* The id of a master. */
static void node_id(int port, char *out, size_t cap)
{
    redisContext *c = master(port);
    redisReply *r = redisCommand(c, "CLUSTER MYID");
    cr_assert(r != NULL && r->type == REDIS_REPLY_STRING);
    snprintf(out, cap, "%s", r->str);
    freeReplyObject(r);
    redisFree(c);
}

/* Move n slots from master i to master j (redis-cli --cluster reshard). */
static void move_slots(const int port[MASTERS], int i, int j, int n)
{
    char from[64], to[64], cmd[700];
    node_id(port[i], from, sizeof from);
    node_id(port[j], to, sizeof to);
    snprintf(cmd, sizeof cmd,
             "redis-cli --cluster reshard 127.0.0.1:%d --cluster-from %s "
             "--cluster-to %s --cluster-slots %d --cluster-yes "
             ">> '%s/reshard.out' 2>&1",
             port[0], from, to, n, dir);
    cr_assert_eq(system(cmd), 0, "redis-cli --cluster reshard failed");
    await_cluster(port);
}

static void start_node(Proc *p, const char *name, int redis_port, char *addr,
                       size_t cap)
{
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", redis_port);
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", "--redis", url, NULL};
    start(p, name, NULL, la);
    keep(p->pid);
    await_line(p, "listening: ", addr, cap);
}

static void play(const char *game, const char *host_addr, const char *other)
{
    Proc host, guest, spec;
    char invite[40], watch[40];
    /* A new match each time: the last game's logs and seat files would
     * be refused (another game) or resumed (the same game). Its outputs
     * go too: start() appends, and await_line() takes the first match,
     * so the host's "invite: " and "watch: " would be the last game's. */
    static const char *const files[] = {"h.log", "h.log.seat", "h.log.seq",
                                        "g.log", "g.log.seat", "g.log.seq",
                                        "s.log", "host.out", "host.err",
                                        "guest.out", "guest.err", "spec.out",
                                        "spec.err"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[600];
        path_of(path, sizeof path, files[i]);
        remove(path);
    }
    char *ha[] = {"host",   (char *)game, "--bot=2", "--log", "h.log",
                  "--lobby", (char *)host_addr, NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "watch: ", watch, sizeof watch);
    char *sa[] = {"spectate", watch, "--lobby", (char *)other, "--log",
                  "s.log", NULL};
    start(&spec, "spec", NULL, sa);
    await_line(&spec, "lobby: connected", NULL, 0); /* in before the guest */
    char *ga[] = {"join", invite, "--lobby", (char *)other, "--bot=1",
                  "--log", "g.log", NULL};
    start(&guest, "guest", NULL, ga);
    check_three_logs(&host, &guest, &spec);
}

/* The cluster specification's check value: CRC16("123456789") = 0x31C3. */
Test(lobby_cluster, key_slots_agree_with_the_cluster)
{
    int port[MASTERS];
    static const char *keys[] = {
        "tb:{00112233445566778899aabbccddeeff}:m",
        "tb:{00112233445566778899aabbccddeeff}:f", "tb:rooms", "tb:g",
        "tb:a:047f00000100000000", "{}x", "a{b}c{d}", "no-tag"};
    redisContext *c;

    cr_assert_eq(lobby__rc_slot("123456789", 9), 0x31C3 % 16384);
    cr_assert_eq(lobby__rc_slot("x{123456789}y", 13), 0x31C3 % 16384);
    if (!have_redis_cli())
        cr_skip_test("redis-cli missing (install redis-tools)");
    make_dir();
    start_cluster(port);
    c = master(port[0]);
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        redisReply *r = redisCommand(c, "CLUSTER KEYSLOT %s", keys[i]);
        cr_assert(r != NULL && r->type == REDIS_REPLY_INTEGER);
        cr_assert_eq(lobby__rc_slot(keys[i], strlen(keys[i])),
                     (unsigned)r->integer, "%s", keys[i]);
        freeReplyObject(r);
    }
    redisFree(c);
    kill_servers();
    remove_dir();
}

Test(lobby_cluster, two_games_across_two_nodes_on_three_masters)
{
    int port[MASTERS], used = 0;
    Proc a, b;
    char addr_a[64], addr_b[64];

    if (!have_redis_cli())
        cr_skip_test("redis-cli missing (install redis-tools)");
    make_dir();
    start_cluster(port);
    start_node(&a, "node-a", port[0], addr_a, sizeof addr_a);
    start_node(&b, "node-b", port[1], addr_b, sizeof addr_b);
    play("laska", addr_a, addr_b);
    /* The room cap tb:rooms (slot 5623, by CRC16 of the key) is on the
     * second master and 127.0.0.1's share tb:a:047f00000100000000 (slot
     * 11383) on the third, whatever slots the room drew. */
    for (int i = 0; i < MASTERS; i++)
        used += keys_on(port[i]) > 0;
    cr_assert_geq(used, 2, "every key on one master: not routed by slot?");
    /* Every slot of the second master moves to the third, keys and all:
     * the nodes' maps are stale, and the next CREATE's room cap answers
     * MOVED; the game goes on through the new map. */
    move_slots(port, 1, 2, 10922 - 5461 + 1);
    cr_assert_eq(keys_on(port[1]), 0);
    play("chessball", addr_a, addr_b);
    cr_assert_eq(keys_on(port[1]), 0);
    /* Node B's seed, the second master, now serves no slot; killed for
     * good, the cluster still serves every slot, and B (which lost its
     * connections to it) comes back through a master its map named. */
    let_go(master_pid[1]);
    kill(master_pid[1], SIGKILL);
    waitpid(master_pid[1], NULL, 0);
    await_err(&b, "lobby: lost Redis at ", WAIT_MS);
    await_err(&b, " is back (through 127.0.0.1:", WAIT_MS);
    play("football", addr_a, addr_b);
    let_go(a.pid);
    let_go(b.pid);
    kill(a.pid, SIGTERM);
    kill(b.pid, SIGTERM);
    cr_assert_eq(finish(&a), 0, "%s", slurp(a.err));
    cr_assert_eq(finish(&b), 0, "%s", slurp(b.err));
    kill_servers();
    remove_dir();
}
