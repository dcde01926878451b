/*
 * test_lobby_redis.c: lobby nodes sharing rooms through Redis (tabula
 * lobby --redis), with real processes on 127.0.0.1: each test starts its
 * own redis-server (the Debian package) on a free loopback port in a
 * temporary folder, with no persistence, and stops it. A bot game of
 * every game with the host on node A and the guest and a spectator on
 * node B; a node killed mid-game and started again on its address, the
 * game going on from what Redis kept; Redis with its append-only file
 * killed mid-game, alone or with every node; Redis stopped (hung)
 * mid-game and started again, and a node stopping while Redis hangs;
 * Redis unreachable or misnamed at start (exit status 2). The expected
 * final hash is recomputed here from the host's log on a fresh core
 * position, independently of the lobby.
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

#include "core.h"
#include "proto.h"

#define PROC_DIR_NAME "redis"
#include "proc_util.h"
#include "redis_util.h"
#include "pool_steps.h"

/* Redis and the nodes a test started and has not stopped: killed when
 * it ends (so a failed test leaves no server behind). */
static pid_t servers[8];

static void keep(pid_t pid)
{
    for (int i = 0; i < 8; i++)
        if (servers[i] == 0) {
            servers[i] = pid;
            return;
        }
}

static void let_go(pid_t pid)
{
    for (int i = 0; i < 8; i++)
        if (servers[i] == pid)
            servers[i] = 0;
}

static void kill_servers(void)
{
    for (int i = 0; i < 8; i++)
        if (servers[i] != 0) {
            int st;
            kill(servers[i], SIGKILL);
            waitpid(servers[i], &st, 0);
        }
}

TestSuite(lobby_redis, .fini = kill_servers);

/* redis-server on port, its files in the test's folder; with aof every
 * write is in its append-only file before it is answered. Returns 1 once
 * it says it is ready, 0 when it exited first (the port was taken by
 * another test after free_port() chose it: see redis_util.h). */
static const char *const *redis_more; /* the next start's more arguments */

static int try_redis_aof(Proc *p, int port, int aof)
{
    static int starts; /* each start its own file: its own Ready line */
    double until = now_ms() + WAIT_MS;
    memset(p, 0, sizeof *p);
    snprintf(p->out, sizeof p->out, "%s/redis%d.out", dir, ++starts);
    snprintf(p->err, sizeof p->err, "%s", p->out);
    p->pid = redis_spawn_more(port, dir, p->out, aof, redis_more);
    keep(p->pid);
    while (strstr(slurp(p->out), "Ready to accept connections") == NULL) {
        int st;
        if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
            let_go(p->pid);
            return 0;
        }
        cr_assert_lt(now_ms(), until, "redis-server on %d is not ready:\n%s",
                     port, slurp(p->out));
        pause_ms(5);
    }
    return 1;
}

/* redis-server again on the port it had (asserted). */
static void start_redis_aof(Proc *p, int port, int aof)
{
    cr_assert(try_redis_aof(p, port, aof), "redis-server on %d exited:\n%s",
              port, slurp(p->out));
}

/* redis-server on a port of its own, chosen afresh when another took
 * the free port first; the port in *port, its address in url. */
static void start_redis_fresh(Proc *p, int aof, int *port, char *url,
                              size_t cap)
{
    for (int attempt = 0;; attempt++) {
        cr_assert_lt(attempt, 5, "redis-server never came up on a free port");
        *port = free_port();
        if (try_redis_aof(p, *port, aof))
            break;
    }
    snprintf(url, cap, "redis://127.0.0.1:%d", *port);
}

static void start_node(Proc *p, const char *name, const char *listen,
                       const char *url, char *addr, size_t cap)
{
    char *la[] = {"lobby", "--listen", (char *)listen, "--redis", (char *)url,
                  NULL};
    start(p, name, NULL, la);
    keep(p->pid);
    await_line(p, "listening: ", addr, cap);
}

static void stop(Proc *p)
{
    let_go(p->pid);
    kill(p->pid, SIGTERM);
    cr_assert_eq(finish(p), 0, "%s", slurp(p->err));
}

static void kill_hard(Proc *p)
{
    int st;
    let_go(p->pid);
    kill(p->pid, SIGKILL);
    waitpid(p->pid, &st, 0);
    p->exited = 1;
}

/* Redis and two nodes on it: A's and B's addresses. */
static void start_lobby(Proc *redis, Proc *a, Proc *b, char *url,
                        size_t url_cap, char *addr_a, char *addr_b, size_t cap)
{
    int port;
    start_redis_fresh(redis, 0, &port, url, url_cap);
    start_node(a, "node-a", "127.0.0.1:0", url, addr_a, cap);
    start_node(b, "node-b", "127.0.0.1:0", url, addr_b, cap);
}

/* Host on host_addr, spectator on spec_addr, guest on guest_addr (each
 * an address or a list A,B of nodes). */
static void start_game_at(Proc *host, Proc *guest, Proc *spec,
                          const char *game, const char *host_addr,
                          const char *spec_addr, const char *guest_addr,
                          const char *delay)
{
    char invite[40], watch[40];
    char *ha[] = {"host",  (char *)game,      "--bot=2", "--log",
                  "h.log", "--lobby",         (char *)host_addr,
                  "--delay", (char *)delay,   NULL};
    start(host, "host", NULL, ha);
    await_line(host, "invite: ", invite, sizeof invite);
    await_line(host, "watch: ", watch, sizeof watch);
    char *sa[] = {"spectate", watch, "--lobby", (char *)spec_addr, "--log",
                  "s.log", NULL};
    start(spec, "spec", NULL, sa);
    await_line(spec, "lobby: connected", NULL, 0); /* in before the guest */
    char *ga[] = {"join", invite,  "--lobby", (char *)guest_addr, "--bot=1",
                  "--log", "g.log", "--delay", (char *)delay, NULL};
    start(guest, "guest", NULL, ga);
}

/* Host on host_addr, spectator and guest on other. */
static void start_game(Proc *host, Proc *guest, Proc *spec, const char *game,
                       const char *host_addr, const char *other,
                       const char *delay)
{
    start_game_at(host, guest, spec, game, host_addr, other, other, delay);
}

/* The game ends with three identical verified logs (check_three_logs);
 * the nodes and Redis then stop cleanly (none crashed meanwhile). */
static void game_ends_and_all_stop(Proc *redis, Proc *a, Proc *b, Proc *host,
                                   Proc *guest, Proc *spec)
{
    check_three_logs(host, guest, spec);
    stop(a);
    stop(b);
    stop(redis);
    remove_dir();
}

static void two_nodes(const char *game)
{
    Proc redis, a, b, host, guest, spec;
    char url[64], addr_a[64], addr_b[64];
    make_dir();
    start_lobby(&redis, &a, &b, url, sizeof url, addr_a, addr_b,
                sizeof addr_a);
    start_game(&host, &guest, &spec, game, addr_a, addr_b, "0");
    game_ends_and_all_stop(&redis, &a, &b, &host, &guest, &spec);
}

Test(lobby_redis, two_nodes_laska) { two_nodes("laska"); }
Test(lobby_redis, two_nodes_chessball) { two_nodes("chessball"); }
Test(lobby_redis, two_nodes_football) { two_nodes("football"); }
Test(lobby_redis, two_nodes_volleyball) { two_nodes("volleyball"); }
Test(lobby_redis, two_nodes_volleyball10) { two_nodes("volleyball10"); }

/* Both players on node A, the spectator on B; A is killed mid-game and
 * started again on its address with nothing in its memory: the players
 * come back to it and the game goes on from the room Redis kept. */
Test(lobby_redis, node_killed_mid_game_comes_back_from_redis)
{
    Proc redis, a, b, host, guest, spec;
    char url[64], addr_a[64], addr_b[64];
    make_dir();
    start_lobby(&redis, &a, &b, url, sizeof url, addr_a, addr_b,
                sizeof addr_a);
    char invite[40], watch[40];
    char *ha[] = {"host",    "chessball", "--bot=2", "--log", "h.log",
                  "--lobby", addr_a,      "--delay", "15",    NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "watch: ", watch, sizeof watch);
    char *sa[] = {"spectate", watch, "--lobby", addr_b, "--log", "s.log",
                  NULL};
    start(&spec, "spec", NULL, sa);
    char *ga[] = {"join", invite,  "--lobby", addr_a, "--bot=1",
                  "--log", "g.log", "--delay", "15",   NULL};
    start(&guest, "guest", NULL, ga);
    await_line(&spec, "\n   6. ", NULL, 0);
    kill_hard(&a);
    start_node(&a, "node-a2", addr_a, url, NULL, 0);
    await_line(&host, "lobby: reconnected", NULL, 0);
    game_ends_and_all_stop(&redis, &a, &b, &host, &guest, &spec);
}

/* Redis, nodes A and B, and a Laska game of bots: the host on A,B
 * (host_on_b: on B alone), the spectator on B, the guest on A,B; A is
 * killed for good at ply 6 and the players on it move to B. */
static void node_a_dies_mid_game(Proc *redis, Proc *b, Proc *host,
                                 Proc *guest, Proc *spec, int host_on_b)
{
    Proc a;
    char url[64], addr_a[64], addr_b[64], both[140];
    make_dir();
    start_lobby(redis, &a, b, url, sizeof url, addr_a, addr_b, sizeof addr_a);
    snprintf(both, sizeof both, "%s,%s", addr_a, addr_b);
    start_game_at(host, guest, spec, "laska", host_on_b ? addr_b : both,
                  addr_b, both, "15");
    await_line(spec, "\n   6. ", NULL, 0);
    kill_hard(&a);
    if (!host_on_b)
        await_line(host, "lobby: reconnected", NULL, 0);
    await_line(guest, "lobby: reconnected", NULL, 0);
}

/* Both players on node A, told of B as well (--lobby A,B); A is killed
 * mid-game and stays dead: they move to B, resume from their last
 * sequence numbers and finish with nothing lost or applied twice (the
 * three logs identical and verified, one final hash). */
Test(lobby_redis, node_killed_for_good_the_players_go_on_through_another)
{
    Proc redis, b, host, guest, spec;
    node_a_dies_mid_game(&redis, &b, &host, &guest, &spec, 0);
    check_three_logs(&host, &guest, &spec);
    stop(&b);
    stop(&redis);
    remove_dir();
}

/* The relay-limits issue, finding 5: a hung node (SIGSTOP: its
 * connections stay open, it answers nothing) was noticed by its players
 * only after 15.7 s. A node now sends a quiet member a BEAT each second
 * and a seat leaves a relay silent for 3 s: both players on A (told of
 * B) say the connection is lost within 3 s of the hang, plus a margin
 * for a loaded machine, move to B, and the game ends with three
 * identical verified logs. */
Test(lobby_redis, a_hung_node_is_left_within_three_seconds)
{
    Proc redis, a, b, host, guest, spec;
    char url[64], addr_a[64], addr_b[64], both[140];
    make_dir();
    start_lobby(&redis, &a, &b, url, sizeof url, addr_a, addr_b,
                sizeof addr_a);
    snprintf(both, sizeof both, "%s,%s", addr_a, addr_b);
    start_game_at(&host, &guest, &spec, "laska", both, addr_b, both, "15");
    await_line(&spec, "\n   6. ", NULL, 0);
    cr_assert_eq(kill(a.pid, SIGSTOP), 0);
    double t0 = now_ms();
    await_line(&host, "lobby: connection lost", NULL, 0);
    double t_host = now_ms() - t0;
    await_line(&guest, "lobby: connection lost", NULL, 0);
    double t_guest = now_ms() - t0;
    cr_log_info("hung node left after %.0f ms (host), %.0f ms (guest)",
                t_host, t_guest);
    cr_assert_lt(t_host, 5000, "the host took %.0f ms", t_host);
    cr_assert_lt(t_guest, 5000, "the guest took %.0f ms", t_guest);
    await_line(&host, "lobby: reconnected", NULL, 0);
    await_line(&guest, "lobby: reconnected", NULL, 0);
    check_three_logs(&host, &guest, &spec);
    cr_assert_eq(kill(a.pid, SIGCONT), 0);
    stop(&a);
    stop(&b);
    stop(&redis);
    remove_dir();
}

/* Issue 20, finding 5: the host and the spectator on node B, the guest
 * on A told of B; A is killed for good and the guest moves to B. B never
 * heard the guest leave A (A died without a word), so it announces the
 * guest again: the host said "lobby: guest present" twice. Once now, and
 * the game still ends with three identical logs. */
Test(lobby_redis, guest_moving_node_is_announced_once)
{
    Proc redis, b, host, guest, spec;
    node_a_dies_mid_game(&redis, &b, &host, &guest, &spec, 1);
    check_three_logs(&host, &guest, &spec);
    /* "present" twice running, with no "gone" between, is the news
     * said again (a "gone" then "present", had B heard it, would be
     * fine). */
    const char *out = slurp(host.out);
    int last_present = 0, presents = 0;
    for (const char *p = strstr(out, "lobby: guest "); p != NULL;
         p = strstr(p + 1, "lobby: guest ")) {
        int present = strncmp(p + 13, "present", 7) == 0;
        cr_assert(!(present && last_present), "said twice:\n%s", out);
        last_present = present;
        presents += present;
    }
    cr_assert_gt(presents, 0, "%s", out);
    stop(&b);
    stop(&redis);
    remove_dir();
}

/* Redis (append-only file on) killed mid-game and started again: the
 * nodes find it again, the players come back and lose nothing. */
Test(lobby_redis, redis_killed_mid_game_with_aof_loses_nothing)
{
    Proc redis, a, b, host, guest, spec;
    char url[64], addr_a[64], addr_b[64];
    int port;
    make_dir();
    start_redis_fresh(&redis, 1, &port, url, sizeof url);
    start_node(&a, "node-a", "127.0.0.1:0", url, addr_a, sizeof addr_a);
    start_node(&b, "node-b", "127.0.0.1:0", url, addr_b, sizeof addr_b);
    start_game(&host, &guest, &spec, "chessball", addr_a, addr_b, "15");
    await_line(&spec, "\n   6. ", NULL, 0);
    kill_hard(&redis);
    start_redis_aof(&redis, port, 1);
    await_line(&host, "lobby: reconnected", NULL, 0);
    check_three_logs(&host, &guest, &spec);
    cr_assert_not_null(strstr(slurp(a.err), "lobby: Redis at "), "%s",
                       slurp(a.err));
    stop(&a);
    stop(&b);
    stop(&redis);
    remove_dir();
}

/* Redis stopped mid-game (SIGSTOP: its connections stay open, it answers
 * nothing) is found by the nodes' health check: a PING and a message to
 * the node's own channel each second, unanswered for 3 s. Each node says
 * it lost Redis within 3 s + 1 s (the check's period) + 0.25 s (the
 * sweep's) and a margin for a loaded machine, closes its members (who
 * keep reconnecting and are refused) and neither crashes; once Redis
 * runs again (SIGCONT) the nodes find it, the players come back and the
 * game ends with three identical verified logs. */
Test(lobby_redis, redis_hung_mid_game_is_detected_and_the_game_goes_on)
{
    Proc redis, a, b, host, guest, spec;
    char url[64], addr_a[64], addr_b[64];
    double t_a, t_b, t0;
    make_dir();
    start_lobby(&redis, &a, &b, url, sizeof url, addr_a, addr_b,
                sizeof addr_a);
    start_game(&host, &guest, &spec, "laska", addr_a, addr_b, "15");
    await_line(&spec, "\n   6. ", NULL, 0);
    cr_assert_eq(kill(redis.pid, SIGSTOP), 0);
    t0 = now_ms();
    t_a = await_err(&a, "lobby: lost Redis at ", 8000);
    await_err(&b, "lobby: lost Redis at ", 8000 - t_a);
    t_b = now_ms() - t0;
    cr_log_info("hung Redis found after %.0f ms (node A), %.0f ms (node B)",
                t_a, t_b);
    await_line(&host, "lobby: connection lost", NULL, 0);
    await_line(&guest, "lobby: connection lost", NULL, 0);
    for (int i = 0; i < 3; i++) /* pause_ms takes less than 1 s */
        pause_ms(500); /* the clients retry, the nodes refuse them */
    cr_assert_eq(kill(redis.pid, SIGCONT), 0);
    await_err(&a, "lobby: Redis at ", 10000);
    await_line(&host, "lobby: reconnected", NULL, 0);
    game_ends_and_all_stop(&redis, &a, &b, &host, &guest, &spec);
}

/* A node asked to stop while Redis hangs, with a health check awaiting
 * its answer and before the check's deadline found the hang, stops
 * anyway (its clean disconnect would wait for that answer forever):
 * within the deadline (3 s) and a margin for a loaded machine. */
Test(lobby_redis, node_stops_while_redis_hangs)
{
    Proc redis, a;
    char url[64], addr_a[64];
    double t0;
    int port;
    make_dir();
    start_redis_fresh(&redis, 0, &port, url, sizeof url);
    start_node(&a, "node-a", "127.0.0.1:0", url, addr_a, sizeof addr_a);
    cr_assert_eq(kill(redis.pid, SIGSTOP), 0);
    for (int i = 0; i < 4; i++) /* pause_ms takes less than 1 s */
        pause_ms(500); /* a check (one a second) is awaited, not late */
    t0 = now_ms();
    stop(&a);
    cr_log_info("stopped in %.0f ms", now_ms() - t0);
    cr_assert_lt(now_ms() - t0, 6000);
    cr_assert_eq(kill(redis.pid, SIGCONT), 0);
    stop(&redis);
    remove_dir();
}

/* Every node and Redis (append-only file on) killed at once mid-game
 * and started again on their addresses: nothing is lost. */
Test(lobby_redis, everything_killed_at_once_with_aof_loses_nothing)
{
    Proc redis, a, b, host, guest, spec;
    char url[64], addr_a[64], addr_b[64];
    int port;
    make_dir();
    start_redis_fresh(&redis, 1, &port, url, sizeof url);
    start_node(&a, "node-a", "127.0.0.1:0", url, addr_a, sizeof addr_a);
    start_node(&b, "node-b", "127.0.0.1:0", url, addr_b, sizeof addr_b);
    start_game(&host, &guest, &spec, "football", addr_a, addr_b, "15");
    await_line(&spec, "\n   6. ", NULL, 0);
    kill_hard(&a);
    kill_hard(&b);
    kill_hard(&redis);
    start_redis_aof(&redis, port, 1);
    start_node(&a, "node-a2", addr_a, url, NULL, 0);
    start_node(&b, "node-b2", addr_b, url, NULL, 0);
    await_line(&host, "lobby: reconnected", NULL, 0);
    game_ends_and_all_stop(&redis, &a, &b, &host, &guest, &spec);
}

/* Nothing listens on the port: a clear message and exit status 2. */
Test(lobby_redis, unreachable_redis_at_start_exits_2)
{
    Proc node;
    char url[64];
    make_dir();
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", free_port());
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", "--redis", url, NULL};
    start(&node, "node", NULL, la);
    cr_assert_eq(finish(&node), 2);
    cr_assert_not_null(strstr(slurp(node.err), "cannot reach Redis at"),
                       "%s", slurp(node.err));
    cr_assert_null(strstr(slurp(node.out), "listening: "));
    remove_dir();
}

Test(lobby_redis, misnamed_redis_exits_2)
{
    Proc node;
    make_dir();
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", "--redis",
                  "http://127.0.0.1:6379", NULL};
    start(&node, "node", NULL, la);
    cr_assert_eq(finish(&node), 2);
    cr_assert_not_null(strstr(slurp(node.err), "bad Redis address"), "%s",
                       slurp(node.err));
    remove_dir();
}

/* The relay-limits issue: a node could not use a Redis that asks for a
 * password (it said "cannot reach Redis", as if none ran there), and
 * took a Redis that evicts keys when full (a running game's room could
 * vanish). Now a password in the address is sent first (AUTH), a missing
 * or wrong one is named as such, never echoed; and an evicting
 * maxmemory-policy is refused at start. */
Test(lobby_redis, a_redis_with_a_password)
{
    static const char *const more[] = {"--requirepass", "s3cret-pw", NULL};
    Proc redis, node, a, b, host, guest, spec;
    int port;
    char url[128], bad[128], right[128], addr_a[64], addr_b[64];
    make_dir();
    redis_more = more;
    start_redis_fresh(&redis, 0, &port, url, sizeof url);
    redis_more = NULL;
    snprintf(bad, sizeof bad, "redis://:wrong-pw@127.0.0.1:%d", port);
    snprintf(right, sizeof right, "redis://:s3cret-pw@127.0.0.1:%d", port);
    for (int k = 0; k < 2; k++) {
        char *la[] = {"lobby", "--listen", "127.0.0.1:0", "--redis",
                      k == 0 ? url : bad, NULL};
        start(&node, "node", NULL, la);
        cr_assert_eq(finish(&node), 2);
        cr_assert_not_null(strstr(slurp(node.err), "refused the password, "
                                                   "or needs one"),
                           "%s", slurp(node.err));
        cr_assert_null(strstr(slurp(node.err), "wrong-pw"),
                       "the password was echoed: %s", slurp(node.err));
    }
    /* with the password: two nodes, one game across them */
    start_node(&a, "node-a", "127.0.0.1:0", right, addr_a, sizeof addr_a);
    start_node(&b, "node-b", "127.0.0.1:0", right, addr_b, sizeof addr_b);
    start_game(&host, &guest, &spec, "laska", addr_a, addr_b, "0");
    game_ends_and_all_stop(&redis, &a, &b, &host, &guest, &spec);
}

Test(lobby_redis, a_redis_that_evicts_keys_is_refused)
{
    static const char *const more[] = {"--maxmemory", "64mb",
                                       "--maxmemory-policy", "allkeys-lru",
                                       NULL};
    Proc redis, node;
    int port;
    char url[128];
    make_dir();
    redis_more = more;
    start_redis_fresh(&redis, 0, &port, url, sizeof url);
    redis_more = NULL;
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", "--redis", url, NULL};
    start(&node, "node", NULL, la);
    cr_assert_eq(finish(&node), 2);
    cr_assert_not_null(strstr(slurp(node.err), "evicts keys"), "%s",
                       slurp(node.err));
    kill_hard(&redis);
    remove_dir();
}

/* ---- public seeks (issue 37) ---- */

/* `tabula seeks --lobby ADDR` run to its end: its output. */
static const char *seeks_on(const char *addr, const char *name)
{
    Proc p;
    char *sa[] = {"seeks", "--lobby", (char *)addr, NULL};
    start(&p, name, NULL, sa);
    cr_assert_eq(finish(&p), 0, "%s", slurp(p.err));
    return slurp(p.out);
}

/* A seek made on node A is listed on node B with its code, game and
 * clock as typed ("seek: CODE laska 5+3 - "); the guest takes it with
 * `tabula join CODE`, a spectator watches on B, the game ends with three
 * identical verified logs, and the seek is gone from both nodes' lists
 * (the first "done when", in the terminal). */
Test(lobby_redis, a_seek_on_one_node_is_taken_from_the_other)
{
    Proc redis, a, b, host, guest, spec;
    char url[64], addr_a[64], addr_b[64], invite[40], watch[40], want[96];
    make_dir();
    start_lobby(&redis, &a, &b, url, sizeof url, addr_a, addr_b,
                sizeof addr_a);
    char *ha[] = {"seek", "laska", "--clock", "5+3", "--bot=2", "--log",
                  "h.log", "--lobby", addr_a, NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "watch: ", watch, sizeof watch);
    await_line(&host, "seek: listed", NULL, 0);
    snprintf(want, sizeof want, "seek: %s laska 5+3 - ", invite);
    const char *list = seeks_on(addr_b, "seeks1");
    cr_assert(strstr(list, want) != NULL, "want '%s' in:\n%s", want, list);
    cr_assert(strstr(list, "seeks: 1 open") != NULL, "%s", list);
    char *sa[] = {"spectate", watch, "--lobby", addr_b, "--log", "s.log",
                  NULL};
    start(&spec, "spec", NULL, sa);
    await_line(&spec, "lobby: connected", NULL, 0);
    char *ga[] = {"join", invite, "--lobby", addr_b, "--bot=1", "--log",
                  "g.log", NULL};
    start(&guest, "guest", NULL, ga);
    check_three_logs(&host, &guest, &spec);
    cr_assert(strstr(seeks_on(addr_a, "seeks2"), "seeks: none open") != NULL);
    cr_assert(strstr(seeks_on(addr_b, "seeks3"), "seeks: none open") != NULL);
    stop(&a);
    stop(&b);
    stop(&redis);
    remove_dir();
}

/* An address holds 8 open seeks (source_seeks): the ninth seeker from
 * 127.0.0.1 is told "seek: not listed" with the limit's words, on
 * either node (Redis counts for the lobby), and stops (exit 1: an
 * unlisted room nobody can find); once one seeker leaves, its seek is
 * gone from the list. */
Test(lobby_redis, seeks_from_one_address_are_limited)
{
    Proc redis, a, b, host[9];
    char url[64], addr_a[64], addr_b[64], name[16];
    make_dir();
    start_lobby(&redis, &a, &b, url, sizeof url, addr_a, addr_b,
                sizeof addr_a);
    for (int i = 0; i < 9; i++) {
        char *ha[] = {"seek", "chessball", "--bot=1", "--lobby",
                      i % 2 ? addr_b : addr_a, NULL};
        snprintf(name, sizeof name, "host%d", i);
        start(&host[i], name, NULL, ha);
        await_line(&host[i], "invite: ", NULL, 0);
        if (i < 8)
            await_line(&host[i], "seek: listed", NULL, 0);
    }
    await_err(&host[8],
              "seek: not listed: too many open seeks from this player or "
              "address",
              WAIT_MS);
    cr_assert_eq(finish(&host[8]), 1);
    cr_assert(strstr(seeks_on(addr_a, "seeks1"), "seeks: 8 open") != NULL);
    kill(host[0].pid, SIGTERM);
    finish(&host[0]);
    cr_assert(strstr(seeks_on(addr_b, "seeks2"), "seeks: 7 open") != NULL);
    for (int i = 1; i < 9; i++) {
        kill(host[i].pid, SIGTERM);
        finish(&host[i]);
    }
    stop(&a);
    stop(&b);
    stop(&redis);
    remove_dir();
}

/* ---- the pool (issue 37) ---- */

/* Redis and two nodes A and B; steps(A's address, B's); all stopped. */
static void on_two_nodes(void (*steps)(const char *a, const char *b))
{
    Proc redis, na, nb;
    char url[64], addr_a[64], addr_b[64];
    make_dir();
    start_lobby(&redis, &na, &nb, url, sizeof url, addr_a, addr_b,
                sizeof addr_a);
    steps(addr_a, addr_b);
    stop(&na);
    stop(&nb);
    stop(&redis);
    remove_dir();
}

/* A on node A, C and B on node B. */
static void worked_example_steps(const char *a, const char *b)
{
    pool_worked_example(a, b, b);
}

/* docs/pool.md's worked example (pool_steps.h) across two nodes of one
 * lobby: C's offer on node B reaches A's counts on node A, and B pairs
 * with A across the nodes. */
Test(lobby_redis, pool_offers_pair_across_two_nodes)
{
    on_two_nodes(worked_example_steps);
}

/* One player, one offer across nodes (pool_steps.h): its second offer,
 * on node B while the first waits on node A, is refused. */
Test(lobby_redis, a_players_second_offer_on_another_node_is_refused)
{
    on_two_nodes(pool_second_offer_refused);
}

/* Rated offers across nodes (issue 38; docs/pool.md "Rated offers"):
 * node A pairs by a list that rates X 1700 in laska blitz (5+0: 300 s),
 * node B by none. X offers on A; Y on B wants 1800..2000 and waits; Z on
 * B wants 1650..1750 and pairs with X: X's rating went to Redis with its
 * offer, from the node that read it, and the pairing read it there. */
Test(lobby_redis, rated_offers_pair_by_the_offering_nodes_list)
{
    Proc redis, na, nb, idp, x, y, z;
    char url[64], addr_a[64], addr_b[64], fp[64], list[600], env[3][400];
    const char *who[3] = {"x", "y", "z"};
    int port;
    make_dir();
    for (int i = 0; i < 3; i++) {
        char *ia[] = {"identity", NULL};
        snprintf(env[i], sizeof env[i], "XDG_CONFIG_HOME=%s/%s-config", dir,
                 who[i]);
        start(&idp, who[i], env[i], ia);
        cr_assert_eq(finish(&idp), 0);
        if (i == 0)
            await_line(&idp, "fingerprint: ", fp, sizeof fp);
    }
    snprintf(list, sizeof list,
             "rating: laska blitz %s 1700 80.0 0.060000 9\n"
             "ratings: games 9 logs 9 skipped 0\n",
             fp);
    write_file("list.txt", list);
    path_of(list, sizeof list, "list.txt");
    start_redis_fresh(&redis, 0, &port, url, sizeof url);
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", "--redis", url,
                  "--ratings", list, NULL};
    start(&na, "node-a", NULL, la);
    keep(na.pid);
    await_line(&na, "listening: ", addr_a, sizeof addr_a);
    start_node(&nb, "node-b", "127.0.0.1:0", url, addr_b, sizeof addr_b);

    char *xa[] = {"pool", "laska", "--clock", "5+0", "--me", "--bot=1",
                  "--lobby", addr_a, NULL};
    start(&x, "px", env[0], xa);
    await_line(&x, "pool: waiting (laska 1)", NULL, 0);
    char *ya[] = {"pool",    "laska",  "--clock",    "5+0", "--rating",
                  "1800..2000", "--bot=1", "--lobby", addr_b, NULL};
    start(&y, "py", env[1], ya);
    await_line(&y, "pool: waiting (laska 2)", NULL, 0);
    char *za[] = {"pool",    "laska",  "--clock",    "5+0", "--rating",
                  "1650..1750", "--bot=1", "--lobby", addr_b, NULL};
    start(&z, "pz", env[2], za);
    await_line(&z, "pool: paired: guest laska", NULL, 0);
    await_line(&x, "pool: paired: host laska", NULL, 0);
    cr_assert_null(strstr(slurp(y.out), "paired"), "%s", slurp(y.out));
    kill_hard(&x);
    kill_hard(&y);
    kill_hard(&z);
    stop(&na);
    stop(&nb);
    stop(&redis);
    remove_dir();
}

/* A rated seek across nodes (issue 38; docs/pool.md "Rated seeks"): the
 * seek (rating=1400..1600, no clock: untimed) is on node A; node B's
 * list rates X 1700 in laska untimed. X's JOIN on node B is refused with
 * the rating's words (admit.lua read the range the seek's node put in
 * the room, and X's rating node B sent with the JOIN); Y, whom no list
 * holds (a newcomer, 1500), takes the seat through node B. */
Test(lobby_redis, a_rated_seek_is_held_to_its_range_on_every_node)
{
    Proc redis, na, nb, idp, host, x, y;
    char url[64], addr_a[64], addr_b[64], fp[64], list[600], data[2][400],
        invite[40];
    const char *who[2] = {"x", "y"};
    int port;
    make_dir();
    for (int i = 0; i < 2; i++) {
        char file[16];
        snprintf(file, sizeof file, "%s.id", who[i]);
        char *ia[] = {"identity", "--file", file, NULL};
        start(&idp, who[i], NULL, ia);
        cr_assert_eq(finish(&idp), 0);
        if (i == 0)
            await_line(&idp, "fingerprint: ", fp, sizeof fp);
        /* (each its own seats' folder) */
        snprintf(data[i], sizeof data[i], "XDG_DATA_HOME=%s/%s-data", dir,
                 who[i]);
    }
    snprintf(list, sizeof list, "rating: laska untimed %s 1700 80.0 0.06 9\n",
             fp);
    write_file("list.txt", list);
    path_of(list, sizeof list, "list.txt");
    start_redis_fresh(&redis, 0, &port, url, sizeof url);
    start_node(&na, "node-a", "127.0.0.1:0", url, addr_a, sizeof addr_a);
    char *lb[] = {"lobby", "--listen", "127.0.0.1:0", "--redis", url,
                  "--ratings", list, NULL};
    start(&nb, "node-b", NULL, lb);
    keep(nb.pid);
    await_line(&nb, "listening: ", addr_b, sizeof addr_b);

    char *ha[] = {"seek",  "laska",   "--options", "rating=1400..1600",
                  "--bot=1", "--lobby", addr_a,      NULL};
    start(&host, "seek", NULL, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "seek: listed", NULL, 0);
    char *xa[] = {"join",  invite,  "--key", "x.id", "--bot=1", "--lobby",
                  addr_b, NULL};
    start(&x, "jx", data[0], xa);
    cr_assert_eq(finish(&x), 1, "%s", slurp(x.out));
    cr_assert_not_null(strstr(slurp(x.err), "did not seat you: your rating "
                                            "is outside the seek's rating "
                                            "range"),
                       "%s", slurp(x.err));
    /* never seated: no seat left behind to resume under X's key */
    char seats[500];
    snprintf(seats, sizeof seats,
             "ls %s/x-data/tabula/seats 2>/dev/null | grep -q .", dir);
    cr_assert_neq(system(seats), 0, "seat files left after the refusal");
    char *ya[] = {"join",  invite,  "--key", "y.id", "--bot=1", "--lobby",
                  addr_b, NULL};
    start(&y, "jy", data[1], ya);
    await_line(&y, "match: laska", NULL, 0);
    kill_hard(&y);
    kill_hard(&host);
    stop(&na);
    stop(&nb);
    stop(&redis);
    remove_dir();
}

/* ---- correspondence (issue 37) ---- */

/* The first legal move after moves (`tabula moves GAME MOVES...`, at most
 * 8 of them) into out: core's own canonical order, no rules of the
 * test's own. */
static void first_move(const char *game, char moves[][32], int n, char *out,
                       size_t cap)
{
    Proc p;
    char *ma[12] = {"moves", (char *)game};
    cr_assert_leq(n, 8);
    for (int i = 0; i < n; i++)
        ma[2 + i] = moves[i];
    ma[2 + n] = NULL;
    start(&p, "moves", NULL, ma);
    cr_assert_eq(finish(&p), 0, "%s", slurp(p.err));
    const char *all = slurp(p.out);
    const char *last = all, *nl;
    while ((nl = strchr(last, '\n')) != NULL && nl[1] != '\0')
        last = nl + 1; /* (the file is appended to: the last run's line) */
    snprintf(out, cap, "%.*s", (int)strcspn(last, "\n"), last);
}

/* A player's seats' folder: the environment its processes get. */
typedef struct Player {
    char env[400];
    char name[8];
    const char *side; /* "white" or "black" */
} Player;

/* The line of out that begins with text (into val, cut at its newline;
 * asserted). */
static void line_of(const char *out, const char *text, char *val, size_t cap)
{
    const char *at = strstr(out, text);
    cr_assert_not_null(at, "no '%s' in:\n%s", text, out);
    snprintf(val, cap, "%.*s", (int)strcspn(at, "\n"), at);
}

/* The player opens its seat with the `open:` command (the line after
 * "  open: tabula ") and types line into it, then standard input ends:
 * the seat leaves once its move is with the relay (or the game ended). */
static void open_and_type(const Player *pl, const char *cmd, const char *line,
                          int ply)
{
    char name[32], in[64], words[2048], *args[16];
    int n = 0;
    snprintf(in, sizeof in, "%s-%d.in", pl->name, ply);
    write_file(in, line);
    snprintf(words, sizeof words, "%s", cmd);
    for (char *w = strtok(words, " "); w != NULL && n < 15; w = strtok(NULL, " "))
        args[n++] = w;
    args[n] = NULL;
    char path[400];
    path_of(path, sizeof path, in);
    int fd = open(path, O_RDONLY);
    cr_assert_geq(fd, 0);
    Proc p;
    snprintf(name, sizeof name, "%s-%d", pl->name, ply);
    start_in(&p, name, pl->env, args, fd, -1);
    close(fd);
    finish(&p); /* (1: it left the game, not resigned) */
    cr_assert(strstr(slurp(p.err), "is with the relay") != NULL ||
                  strstr(slurp(p.out), "result: ") != NULL,
              "ply %d: %s", ply, slurp(p.err));
}

/* The redis-cli answer to args (a command's words) on port, trimmed. */
static void redis_ask(int port, const char *args, char *out, size_t cap)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "redis-cli -p %d %s 2>&1", port, args);
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    pclose(f);
    out[strcspn(out, "\n")] = '\0';
}

/* A correspondence game (3 days a move) between two players on two nodes
 * of a lobby on Redis, neither seat running between moves: the host on
 * node A types its first move and leaves; the guest on node B leaves.
 * The room is kept in Redis for two moves' time (field k of its hash:
 * 2 x 3 x 86,400,000 = 518,400,000 ms, and its time to live above the
 * 10 minutes an empty room otherwise has). Then each ply: the player not
 * to move runs `tabula games --wait`, which is still waiting when the
 * mover opens its seat with the `open:` line of its own `tabula games
 * --wait` and moves; the waiter then wakes with "you" and that move.
 * Node A restarts after ply 3 with nobody in the game. At ply 6 the
 * mover resigns: the other's wait wakes with the result, and both seats'
 * logs verify with one final hash. */
Test(lobby_redis, a_correspondence_game_lives_on_the_relay_with_nobody_online)
{
    Proc redis, a, b, host, guest;
    char url[64], addr_a[64], addr_b[64], invite[40], moves[8][32], ans[256],
        want[128], opener[1024];
    Player pl[2];
    int port;
    make_dir();
    start_lobby(&redis, &a, &b, url, sizeof url, addr_a, addr_b,
                sizeof addr_a);
    port = atoi(strrchr(url, ':') + 1);
    for (int i = 0; i < 2; i++) {
        snprintf(pl[i].env, sizeof pl[i].env, "XDG_DATA_HOME=%s/%c", dir,
                 i ? 'B' : 'A');
        snprintf(pl[i].name, sizeof pl[i].name, "%s", i ? "B" : "A");
        pl[i].side = i ? "black" : "white";
    }

    first_move("laska", moves, 0, moves[0], sizeof moves[0]);
    snprintf(ans, sizeof ans, "%s\n", moves[0]);
    write_file("A-1.in", ans);
    char in[400];
    path_of(in, sizeof in, "A-1.in");
    int fd = open(in, O_RDONLY);
    char *ha[] = {"host", "laska", "--clock", "3days", "--lobby", addr_a, NULL};
    start_in(&host, "host", pl[0].env, ha, fd, -1);
    close(fd);
    await_line(&host, "invite: ", invite, sizeof invite);
    char *ja[] = {"join", invite, "--lobby", addr_b, NULL};
    start(&guest, "guest", pl[1].env, ja);
    finish(&host);
    finish(&guest);
    cr_assert(strstr(slurp(host.err), "is with the relay") != NULL, "%s",
              slurp(host.err));

    /* the room's keep, in Redis */
    char key[128], hash_key[160];
    redis_ask(port, "--scan --pattern 'tb:{*}:m'", key, sizeof key);
    cr_assert(key[0] == 't', "no room in Redis: '%s'", key);
    snprintf(hash_key, sizeof hash_key, "HGET '%s' k", key);
    redis_ask(port, hash_key, ans, sizeof ans);
    cr_assert_str_eq(ans, "518400000");
    snprintf(hash_key, sizeof hash_key, "PTTL '%s'", key);
    redis_ask(port, hash_key, ans, sizeof ans);
    cr_assert_gt(atoll(ans), 600000, "time to live %s ms", ans);
    /* the lobby's count of rooms keeps counting it as long (a room of 10
     * minutes made since must not cut the set's life short: the trial
     * of 2026-12-07) */
    redis_ask(port, "PTTL tb:rooms", ans, sizeof ans);
    cr_assert_gt(atoll(ans), 600000, "tb:rooms lives %s ms", ans);

    for (int ply = 2; ply <= 6; ply++) {
        const Player *mover = &pl[(ply - 1) % 2], *other = &pl[ply % 2];
        Proc wait_mover, waiter;
        char name[32];
        /* the mover's wait says its move at once, with the open: line */
        char *wa[] = {"games", "--wait", NULL};
        snprintf(name, sizeof name, "wait-%s-%d", mover->name, ply);
        start(&wait_mover, name, mover->env, wa);
        cr_assert_eq(finish(&wait_mover), 0, "%s", slurp(wait_mover.err));
        snprintf(want, sizeof want, "game: %s laska %s you ", invite,
                 mover->side);
        cr_assert(strstr(slurp(wait_mover.out), want) != NULL,
                  "ply %d: want '%s' in:\n%s", ply, want,
                  slurp(wait_mover.out));
        line_of(slurp(wait_mover.out), "  open: tabula ", opener, sizeof opener);
        /* the other's wait blocks until the move is made */
        snprintf(name, sizeof name, "wait-%s-%d", other->name, ply);
        start(&waiter, name, other->env, wa);
        pause_ms(300);
        cr_assert_str_eq(slurp(waiter.out), "", "woke before the move");
        if (ply < 6) {
            first_move("laska", moves, ply - 1, moves[ply - 1],
                       sizeof moves[0]);
            snprintf(ans, sizeof ans, "%s\n", moves[ply - 1]);
        } else {
            snprintf(ans, sizeof ans, "resign\n");
        }
        open_and_type(mover, opener + strlen("  open: tabula "), ans, ply);
        cr_assert_eq(finish(&waiter), 0, "%s", slurp(waiter.err));
        if (ply < 6) {
            snprintf(want, sizeof want, "game: %s laska %s you ", invite,
                     other->side);
            cr_assert(strstr(slurp(waiter.out), want) != NULL,
                      "ply %d: want '%s' in:\n%s", ply, want,
                      slurp(waiter.out));
            /* (the time left, 3d0h or a second less, in between) */
            snprintf(want, sizeof want, " %d.%s\n", ply, moves[ply - 1]);
        } else /* (black, to move at ply 6, resigned: white wins) */
            snprintf(want, sizeof want, "game: %s laska %s 1-0 ", invite,
                     other->side);
        cr_assert(strstr(slurp(waiter.out), want) != NULL,
                  "ply %d: want '%s' in:\n%s", ply, want, slurp(waiter.out));
        if (ply == 6) /* the winner opens its seat: the end is in its log */
            line_of(slurp(waiter.out), "  open: tabula ", opener,
                    sizeof opener);
        if (ply == 6)
            open_and_type(other, opener + strlen("  open: tabula "), "", 7);
        if (ply == 3) { /* the relay restarts, nobody in the game */
            stop(&a);
            start_node(&a, "node-a2", addr_a, url, addr_a, sizeof addr_a);
        }
    }
    /* both logs verify, with one final hash */
    char hx[2][PROTO_HASH_HEX];
    for (int i = 0; i < 2; i++) {
        Proc all;
        char *ga[] = {"games", "--all", NULL};
        char name[32], log[600];
        snprintf(name, sizeof name, "all-%s", pl[i].name);
        start(&all, name, pl[i].env, ga);
        cr_assert_eq(finish(&all), 0, "%s", slurp(all.err));
        line_of(slurp(all.out), "  log: ", log, sizeof log);
        cr_assert(strncmp(log + 7, dir, strlen(dir)) == 0, "%s", log);
        log_final_hash(log + 7 + strlen(dir) + 1, hx[i]);
    }
    cr_assert_str_eq(hx[0], hx[1]);
    stop(&a);
    stop(&b);
    stop(&redis);
    remove_dir();
}
