/*
 * test_conduct.c: match conduct over real processes on 127.0.0.1 (the
 * binary TABULA_BINARY): a claim against an opponent whose process was
 * killed, typed as line-mode commands into a host and a guest watched by
 * a spectator, the guest coming back from its log. It checks that both
 * seats and the spectator print the same events, the same result and the
 * same final hash, that the hash equals one recomputed here from the
 * log's moves on a fresh core position, and that `tabula replay` of the
 * log shows the result. Every wait is bounded and waits for a printed
 * line, never a fixed time. Each conduct rule itself (resign, draws and
 * their limit, abort, takebacks, a bot's answers, flag fall, a lying
 * clock, absence) is tested on the match/ session directly in
 * tests/match/test_match.c, and under faults by tests/client/
 * test_simtest.c, without processes or waiting on real time.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "netgame.h"
#include "proto.h"
#include "tb_error.h"

#define PROC_DIR_NAME "conduct"
#include "proc_util.h"

/* Start TABULA_BINARY with args whose standard input is a pipe; *wfd
 * gets the pipe's writing end. */
static void start_piped(Proc *p, const char *name, const char *env,
                        char *const *args, int *wfd)
{
    int in[2];
    cr_assert_eq(pipe(in), 0);
    start_in(p, name, env, args, in[0], in[1]);
    close(in[0]);
    *wfd = in[1];
}

/* Type one line into a player's standard input. */
static void type(int fd, const char *line)
{
    size_t n = strlen(line);
    cr_assert_eq(write(fd, line, n), (ssize_t)n);
    cr_assert_eq(write(fd, "\n", 1), 1);
}

typedef struct Match {
    Proc host, guest, spec;
    int hin, gin; /* -1 for a bot guest */
} Match;

/* A Laska match: the host types (line mode), the guest types or is a
 * level-1 bot, a spectator watches; all three keep logs. clock (may be
 * NULL) is the host's --clock; the environment entries (may be NULL) are
 * the host's and the guest's test switches. */
static void open_at(Match *m, int guest_bot, const char *clock,
                    const char *host_env, const char *guest_env,
                    const char *lobby)
{
    char invite[40], watch[40], addr[64];
    char *ha[] = {"host", "laska", "--log", "h.log", NULL, NULL, NULL, NULL,
                  NULL};
    int n = 4;
    if (clock != NULL) {
        ha[n++] = "--clock";
        ha[n++] = (char *)clock;
    }
    if (lobby != NULL) {
        ha[n++] = "--lobby";
        ha[n++] = (char *)lobby;
    }
    start_piped(&m->host, "host", host_env, ha, &m->hin);
    await_line(&m->host, "invite: ", invite, sizeof invite);
    await_line(&m->host, "watch: ", watch, sizeof watch);
    await_line(&m->host, "lobby: ", addr, sizeof addr);
    char *sa[] = {"spectate", watch, "--lobby", addr, "--log", "s.log", NULL};
    start(&m->spec, "spec", NULL, sa);
    m->gin = -1;
    if (guest_bot) {
        char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                      "g.log", NULL};
        start(&m->guest, "guest", guest_env, ga);
    } else {
        char *ga[] = {"join", invite, "--lobby", addr, "--log", "g.log",
                      NULL};
        start_piped(&m->guest, "guest", guest_env, ga, &m->gin);
    }
    await_line(&m->host, "match: laska", NULL, 0);
    await_line(&m->spec, "match: laska", NULL, 0);
}

/* The match ended with result (as printed: "1/2-1/2 (agreement)") on
 * all three, one final hash equal to the log's recomputed one, identical
 * logs, and `tabula replay` of the host's log shows both. */
static void close_match(Match *m, const char *result)
{
    char h[80], g[80], s[80], want[PROTO_HASH_HEX], line[120], cmd[900];
    cr_assert_eq(finish(&m->guest), 0, "%s", slurp(m->guest.err));
    cr_assert_eq(finish(&m->spec), 0, "%s", slurp(m->spec.err));
    cr_assert_eq(finish(&m->host), 0, "%s", slurp(m->host.err));
    close(m->hin);
    if (m->gin >= 0)
        close(m->gin);
    snprintf(line, sizeof line, "result: %s\n", result);
    cr_assert_not_null(strstr(slurp(m->host.out), line), "%s",
                       slurp(m->host.out));
    cr_assert_not_null(strstr(slurp(m->guest.out), line), "%s",
                       slurp(m->guest.out));
    cr_assert_not_null(strstr(slurp(m->spec.out), line), "%s",
                       slurp(m->spec.out));
    await_line(&m->host, "final-hash: ", h, sizeof h);
    await_line(&m->guest, "final-hash: ", g, sizeof g);
    await_line(&m->spec, "final-hash: ", s, sizeof s);
    log_final_hash("h.log", want);
    cr_assert_str_eq(h, want);
    cr_assert_str_eq(g, want);
    cr_assert_str_eq(s, want);
    same_files("h.log", "g.log");
    same_files("h.log", "s.log");
    snprintf(cmd, sizeof cmd, "'%s' replay '%s/h.log' > '%s/replay.out' 2>&1",
             TABULA_BINARY, dir, dir);
    cr_assert_eq(system(cmd), 0);
    char rp[600];
    path_of(rp, sizeof rp, "replay.out");
    char *out = slurp(rp);
    cr_assert_not_null(strstr(out, line), "%s", out);
    snprintf(line, sizeof line, "final-hash: %s\n", want);
    cr_assert_not_null(strstr(out, line), "%s", out);
    remove_dir();
}

/* In Laska every first move allows one capture: c3-d4 e5xc3, then
 * White recaptures b2xd4 (`tabula moves laska c3-d4 e5xc3`). */

Test(conduct, claim_after_the_opponent_left_ends_alike_on_its_return)
{
    Match m;
    Proc lobby;
    char invite[40], addr[64];
    /* A lobby of its own: the host's embedded one would close with the
     * host's game, before the absent guest returns. */
    make_dir();
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(&lobby, "lobby", NULL, la);
    await_line(&lobby, "listening: ", addr, sizeof addr);
    open_at(&m, 0, NULL, "TABULA_TEST_ABSENCE_MS=300", NULL, addr);
    type(m.hin, "c3-d4");
    await_line(&m.guest, "1. white c3-d4", NULL, 0);
    type(m.gin, "e5xc3");
    await_line(&m.host, "2. black e5xc3", NULL, 0);
    /* A claim before any absence is refused. */
    type(m.hin, "claim win");
    await_line(&m.host, "refused: 'claim win'", NULL, 0);
    kill(m.guest.pid, SIGKILL);
    finish(&m.guest);
    close(m.gin);
    await_line(&m.host, "absent: the opponent left; you may claim", NULL, 0);
    await_line(&m.host, "absent: the opponent has been gone", NULL, 0);
    type(m.hin, "claim win");
    await_line(&m.host, "white claims the win: the opponent is absent", NULL,
               0);
    await_line(&m.spec, "white claims the win", NULL, 0);
    /* Black comes back from its log and learns the result. */
    await_line(&m.host, "invite: ", invite, sizeof invite);
    char *ga[] = {"join", invite, "--lobby", addr, "--log", "g.log", NULL};
    start_piped(&m.guest, "guest", NULL, ga, &m.gin);
    await_line(&m.guest, "white claims the win", NULL, 0);
    cr_assert_eq(finish(&m.guest), 0, "%s", slurp(m.guest.err));
    cr_assert_eq(finish(&m.spec), 0, "%s", slurp(m.spec.err));
    cr_assert_eq(finish(&m.host), 0, "%s", slurp(m.host.err));
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    close_match(&m, "1-0 (abandon)");
}

/* Issue 18: --clock is written the chess way (2s+0 here: two seconds, no
 * increment) and the host's match line names the clock it plays with, in
 * seconds as the match options store it (G-MC-6). */
Test(conduct, the_hosts_match_line_names_its_clock)
{
    Match m;
    make_dir();
    open_at(&m, 0, "2s+0", NULL, NULL, NULL);
    await_line(&m.host, "match: laska clock=2+0, you are white", NULL, 0);
    type(m.hin, "resign");
    close_match(&m, "0-1 (resign)");
}
