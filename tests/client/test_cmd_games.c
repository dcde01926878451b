/*
 * test_cmd_games.c: `tabula games` (issue 37) with real processes: a bot
 * game between a host and a guest whose seats keep their files in the
 * test's own seats' folder (no --log), listed while it runs and after it
 * ended.
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

#include "core.h"
#include "proto.h"

#define PROC_DIR_NAME "games"
#include "proc_util.h"

static char env[400];

/* `tabula games ARGS` in the test's seats' folder: its output, its exit
 * status in *status. */
static const char *games(const char *arg, int *status)
{
    Proc p;
    char *ga[] = {"games", (char *)arg, NULL};
    start(&p, "games", env, ga);
    *status = finish(&p);
    return slurp(p.out);
}

/* While a game of two bots runs, each seat is listed: the host's as
 * white, the guest's as black, with the host's invite code, each with
 * the command that opens it again (the guest's with its lobby, the
 * host's, whose lobby was its own, without); once it ended, `tabula
 * games` says none runs and `--all` lists both with the result and their
 * logs. */
Test(games, a_game_is_listed_while_it_runs_and_with_its_result)
{
    Proc host, guest;
    char invite[40], lobby[64], want[160];
    int status;
    make_dir();
    snprintf(env, sizeof env, "XDG_DATA_HOME=%s/data", dir);
    char *ha[] = {"host", "laska", "--bot=1", "--delay", "300", NULL};
    start(&host, "host", env, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "lobby: ", lobby, sizeof lobby);
    char *ja[] = {"join", invite, "--lobby", lobby, "--bot=1", "--delay",
                  "300", NULL};
    start(&guest, "guest", env, ja);
    await_line(&guest, "1. ", NULL, 0); /* (the game is on) */

    const char *out = games(NULL, &status);
    cr_assert_eq(status, 0, "%s", out);
    snprintf(want, sizeof want, "game: %s laska white ", invite);
    cr_assert(strstr(out, want) != NULL, "want '%s' in:\n%s", want, out);
    snprintf(want, sizeof want, "game: %s laska black ", invite);
    cr_assert(strstr(out, want) != NULL, "want '%s' in:\n%s", want, out);
    snprintf(want, sizeof want, "  open: tabula join %s --log ", invite);
    cr_assert(strstr(out, want) != NULL, "want '%s' in:\n%s", want, out);
    /* the host ran its own lobby: its command binds it again, without
     * --lobby; the guest's reaches it */
    const char *host_open = strstr(out, "  open: tabula host laska --log ");
    cr_assert_not_null(host_open, "%s", out);
    cr_assert_null(strstr(host_open, " --lobby ") != NULL &&
                           strstr(host_open, " --lobby ") <
                               strchr(host_open, '\n')
                       ? host_open
                       : NULL,
                   "%s", out);
    snprintf(want, sizeof want, ".log --lobby %s\n", lobby);
    cr_assert(strstr(out, want) != NULL, "want '%s' in:\n%s", want, out);

    cr_assert_eq(finish(&guest), 0, "%s", slurp(guest.err));
    cr_assert_eq(finish(&host), 0, "%s", slurp(host.err));
    char result[32];
    await_line(&host, "result: ", result, sizeof result);
    result[strcspn(result, " ")] = '\0'; /* "1-0 (no-moves)": "1-0" */
    out = games(NULL, &status);
    cr_assert(strstr(out, "games: none running on this machine") != NULL, "%s",
              out);
    out = games("--all", &status);
    cr_assert_eq(status, 0, "%s", out);
    snprintf(want, sizeof want, "game: %s laska white %s - ", invite, result);
    cr_assert(strstr(out, want) != NULL, "want '%s' in:\n%s", want, out);
    snprintf(want, sizeof want, "game: %s laska black %s - ", invite, result);
    cr_assert(strstr(out, want) != NULL, "want '%s' in:\n%s", want, out);
    cr_assert(strstr(out, ".done.log") != NULL, "%s", out);
    remove_dir();
}
