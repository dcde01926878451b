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

/* A correspondence game hosted on the host's own lobby is told that the
 * lobby goes with the process (the game could not outlive it), and still
 * hosts; with --lobby nothing is said. */
Test(games, a_correspondence_host_on_its_own_lobby_is_warned)
{
    Proc host, lobby, host2;
    char lobby_at[64];
    make_dir();
    snprintf(env, sizeof env, "XDG_DATA_HOME=%s/data", dir);
    char *ha[] = {"host", "laska", "--clock", "3days", NULL};
    start(&host, "host", env, ha);
    await_line(&host, "invite: ", NULL, 0);
    await_err(&host, "own lobby goes with it", 10000);
    kill(host.pid, SIGTERM);
    finish(&host);

    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(&lobby, "lobby", NULL, la);
    await_line(&lobby, "listening: ", lobby_at, sizeof lobby_at);
    char *h2[] = {"host", "laska", "--clock", "3days", "--lobby", lobby_at,
                  NULL};
    start(&host2, "host2", env, h2);
    await_line(&host2, "invite: ", NULL, 0);
    kill(host2.pid, SIGTERM);
    finish(&host2);
    cr_assert_null(strstr(slurp(host2.err), "own lobby"), "%s",
                   slurp(host2.err));
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    remove_dir();
}

/* games --wait --notify CMD runs CMD with the game's line as its last
 * argument for a game that needs the player (here at once: the guest's
 * seat caught up with the host's first move) and keeps waiting. */
Test(games, notify_runs_the_command_with_the_games_line)
{
    Proc lobby, host, guest, waiter;
    char lobby_at[64], invite[40], path[400], want[128];
    char env_b[400];
    make_dir();
    snprintf(env, sizeof env, "XDG_DATA_HOME=%s/a", dir);
    snprintf(env_b, sizeof env_b, "XDG_DATA_HOME=%s/b", dir);
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(&lobby, "lobby", NULL, la);
    await_line(&lobby, "listening: ", lobby_at, sizeof lobby_at);
    write_file("a.in", "a3-b4\n");
    path_of(path, sizeof path, "a.in");
    int fd = open(path, O_RDONLY);
    cr_assert_geq(fd, 0);
    char *ha[] = {"host", "laska", "--clock", "3days", "--lobby", lobby_at,
                  NULL};
    start_in(&host, "host", env, ha, fd, -1);
    close(fd);
    await_line(&host, "invite: ", invite, sizeof invite);
    char *ja[] = {"join", invite, "--lobby", lobby_at, NULL};
    start(&guest, "guest", env_b, ja);
    finish(&host);
    finish(&guest);
    char *wa[] = {"games", "--wait", "--notify",
                  "printf '%s|\\n' >> notified.txt", NULL};
    start(&waiter, "waiter", env_b, wa);
    path_of(path, sizeof path, "notified.txt");
    snprintf(want, sizeof want, "game: %s laska black you ", invite);
    double until = now_ms() + 20000;
    const char *got = "";
    while (strstr(got, want) == NULL && now_ms() < until) {
        pause_ms(50);
        FILE *f = fopen(path, "r");
        if (f != NULL) {
            fclose(f);
            got = slurp(path);
        }
    }
    cr_assert(strstr(got, want) != NULL, "want '%s' in '%s'", want, got);
    cr_assert(strstr(got, " 1.a3-b4|\n") != NULL, "one argument: '%s'", got);
    cr_assert_eq(waitpid(waiter.pid, NULL, WNOHANG), 0, "it keeps waiting");
    kill(waiter.pid, SIGTERM);
    finish(&waiter);
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    remove_dir();
}
