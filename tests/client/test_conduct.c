/*
 * test_conduct.c: match conduct over real processes on 127.0.0.1 (the
 * binary TABULA_BINARY): a claim against an opponent whose process was
 * killed, typed as line-mode commands into a host and a guest watched by
 * a spectator, the guest coming back from its log. It checks that both
 * seats and the spectator print the same events, the same result and the
 * same final hash, that the hash equals one recomputed here from the
 * log's moves on a fresh core position, and that `tabula replay` of each
 * log shows the result (typed_match.h). Every wait is bounded and waits
 * for a printed line, never a fixed time. Each conduct rule itself
 * (resign, draws and their limit, abort, takebacks, a bot's answers,
 * flag fall, a lying clock, absence) is tested on the match/ session
 * directly in tests/match/test_match.c, and under faults by tests/client/
 * test_simtest.c, without processes or waiting on real time; the
 * fair-play issue's exploits, sent by a cheating client through a real
 * lobby, in test_exploits.c.
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
#include "typed_match.h"

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
    start_lobby(&lobby, NULL, addr, sizeof addr);
    /* (1+0: the shortest countdown, 10 s; witnessed, a shorter one
     * than the rules' would only make void claims) */
    open_at(&m, 0, "1+0", NULL, NULL, addr);
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
    stop_lobby(&lobby);
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
