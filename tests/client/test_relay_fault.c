/*
 * test_relay_fault.c: a relay-side fault decides nothing (the fair-play
 * issue, 34: "a relay-side fault (store full, node killed, Redis out of
 * memory) never ends a game"). A Laska game of the real programs through
 * a `tabula lobby` that keeps its rooms in a redis-server of the test's
 * own (the Debian package, on a free loopback port, its files in the
 * test's folder, evicting nothing); mid-game Redis is pushed past its
 * memory limit, so that it answers every write with OOM, and the host
 * moves. The fault outlasts the absence countdown, after which the
 * guest, a bot, would claim the win by itself (G-MC-9). Then the limit
 * goes up again. Every wait is bounded; all but the fault's own length
 * wait for a printed line.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
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

#include "proto.h"

#define PROC_DIR_NAME "relay-fault"
#include "proc_util.h"
#include "redis_util.h"
#include "typed_match.h"

/* The test's match, lobby and Redis (criterion runs each test in a
 * process of its own). */
static Match game;
static Proc relay;
static pid_t redis_pid;

/* A failed test's processes go with it (a passed one has ended them). */
static void kill_left(void)
{
    kill_match(&game, &relay);
    if (redis_pid > 0)
        redis_kill(redis_pid);
}

TestSuite(relay_fault, .fini = kill_left);

/* redis-server of the test's own, keeping nothing on disk and evicting
 * nothing when full (the lobby refuses a Redis that evicts); its port. */
static int redis_start(void)
{
    static const char *const more[] = {"--maxmemory-policy", "noeviction",
                                       NULL};
    for (int attempt = 0; attempt < 5; attempt++) {
        char out[300];
        int port = free_port(), rc;
        snprintf(out, sizeof out, "%s/redis.out", dir);
        redis_pid = redis_spawn_more(port, dir, out, 0, more);
        rc = redis_await_own(port, redis_pid);
        if (rc == 1)
            return port;
        if (rc == 0)
            redis_kill(redis_pid);
        redis_pid = 0;
    }
    cr_assert_fail("redis-server never came up on a free port");
    return 0;
}

/* Redis's memory limit set to bytes (0: none). */
static void redis_limit(redisContext *c, unsigned long long bytes)
{
    redisReply *r = redisCommand(c, "CONFIG SET maxmemory %llu", bytes);
    cr_assert(r != NULL && r->type == REDIS_REPLY_STATUS, "CONFIG SET refused");
    freeReplyObject(r);
}

/* Whether Redis takes a write now: 1, or 0 when it answers OOM. */
static int redis_writes(redisContext *c)
{
    redisReply *r = redisCommand(c, "SET tb-test-probe x");
    cr_assert_not_null(r);
    int ok = r->type == REDIS_REPLY_STATUS;
    cr_assert(
        ok || (r->type == REDIS_REPLY_ERROR && strncmp(r->str, "OOM ", 4) == 0),
        "%s", r->type == REDIS_REPLY_ERROR ? r->str : "?");
    freeReplyObject(r);
    if (ok)
        freeReplyObject(redisCommand(c, "DEL tb-test-probe"));
    return ok;
}

/* Neither p's stdout nor its stderr says text. */
static void never_says(Proc *p, const char *text)
{
    cr_assert_null(strstr(slurp(p->out), text), "%s", slurp(p->out));
    cr_assert_null(strstr(slurp(p->err), text), "%s", slurp(p->err));
}

/*
 * Redis at its memory limit mid-game. The host (White, typing) plays
 * c3-d4, the guest (a level-1 bot) its only answer e5xc3; Redis's limit
 * goes below what it uses (every write: OOM) and the host recaptures
 * b2xd4. The relay cannot store the move: it refuses it (FULL) and
 * closes the host's connection, and lets it back in only once Redis has
 * room again; the host keeps the move, shows it, and tries again. The
 * relay, storing nothing, witnesses no going of the host: the guest
 * hears of none, and no countdown runs. The clock is 2+0, so G-MC-9's
 * countdown would be a tenth of (120 s + 40 x 0) = 12 s, and a bot
 * claims the win itself when it runs out; the fault lasts 14 s past the
 * host's loss of its connection, then the limit goes (maxmemory 0). The
 * move kept is relayed, play goes on, White resigns at its next turn:
 * 0-1 (resign) on all three, the same final hash recomputed from the
 * log, three identical logs, each replaying to that result; no claim,
 * no abandon, no flag anywhere.
 */
Test(relay_fault, redis_out_of_memory_mid_game_decides_nothing)
{
    char url[64], addr[64];
    make_dir();
    int port = redis_start();
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", port);
    struct timeval tv = {5, 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", port, tv);
    cr_assert(c != NULL && c->err == 0);
    start_lobby(&relay, url, addr, sizeof addr);
    open_at(&game, 1, "2+0", NULL, NULL, addr);
    type(game.hin, "c3-d4");
    await_line(&game.host, "   2. black e5xc3", NULL, 0);
    await_line(&game.spec, "   2. black e5xc3", NULL, 0);

    /* the fault */
    redis_limit(c, 1);
    cr_assert_eq(redis_writes(c), 0, "Redis still writes past its limit");
    type(game.hin, "b2xd4");
    await_line(&game.host, "   3. white b2xd4", NULL, 0);
    await_line(&game.host,
               "lobby: connection lost (room or lobby is full); reconnecting",
               NULL, 0);
    pause_ms(14000);
    cr_assert_eq(redis_writes(c), 0);
    Proc *others[] = {&game.guest, &game.spec};
    for (size_t i = 0; i < 2; i++) {
        never_says(others[i], "   3. white"); /* not relayed */
        never_says(others[i], "host gone");
        never_says(others[i], "absent:");
        never_says(others[i], "claims");
    }
    never_says(&game.host, "lobby: reconnected");

    /* the relay recovers */
    redis_limit(c, 0);
    cr_assert_eq(redis_writes(c), 1);
    await_line(&game.host, "lobby: reconnected", NULL, 0);
    await_line(&game.guest, "   3. white b2xd4", NULL, 0);
    await_line(&game.spec, "   3. white b2xd4", NULL, 0);
    await_line(&game.host, "   4. black ", NULL, 0);
    type(game.hin, "resign");
    end_match(&game, "0-1 (resign)", 0, 0, 0);
    Proc *all[] = {&game.host, &game.guest, &game.spec};
    for (size_t i = 0; i < 3; i++) {
        never_says(all[i], "claim");
        never_says(all[i], "abandon");
        never_says(all[i], "time is up");
        never_says(all[i], "(time)");
    }
    stop_lobby(&relay);
    redisFree(c);
    redis_kill(redis_pid);
    redis_pid = 0;
    remove_dir();
}
