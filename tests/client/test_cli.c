/*
 * test_cli.c: the tabula program as scripts see it: exact output lines,
 * exit statuses, and error messages that name the bad token. Runs the
 * real binary.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"

/* Run `printf INPUT | tabula ARGS` (both already shell-quoted). */
static Run *run_input(const char *input, const char *args)
{
    static Run r;
    run_into(&r, input, args);
    return &r;
}

/* Run `tabula ARGS` (ARGS already shell-quoted). */
static Run *run(const char *args)
{
    return run_input(NULL, args);
}

Test(cli, perft_prints_one_line_per_depth_then_total)
{
    Run *r = run("perft laska 3");
    cr_assert_eq(r->status, 0);
    cr_assert(strncmp(r->out, "perft 1 6\nperft 2 6\nperft 3 18\ntotal nodes 30 "
                              "seconds ", 47) == 0, "got:\n%s", r->out);
    cr_assert_not_null(strstr(r->out, " nps "));
}

Test(cli, moves_lists_in_canonical_order)
{
    Run *r = run("moves laska c3-d4 e5-c3");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_str_eq(r->out, "b2xd4\nd2xb4\n");
}

Test(cli, moves_accepts_a_position)
{
    Run *r = run("moves laska --position 'w c1W b2b b4b d4b d2b g7b'");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_str_eq(r->out, "c1xa3xc5xe3xc1\nc1xe3xc5xa3xc1\n");
}

Test(cli, finished_game_prints_result_on_stderr)
{
    Run *r = run("moves laska --position 'w a1w b2b c3b'");
    cr_assert_eq(r->status, 0);
    cr_assert_str_eq(r->out, "");
    cr_assert_str_eq(r->err, "result: 0-1 (no-moves)\n");
}

Test(cli, bad_move_names_the_token_and_exits_2)
{
    Run *r = run("moves laska c3-d4 zz9");
    cr_assert_eq(r->status, 2);
    cr_assert_str_eq(r->out, "");
    cr_assert_not_null(strstr(r->err, "move 2 'zz9'"), "%s", r->err);
    cr_assert_not_null(strstr(r->err, "malformed move notation"), "%s", r->err);
    cr_assert_not_null(strstr(r->err, "c3-d4"), "no example given: %s", r->err);

    r = run("moves laska c3-c5");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "move 1 'c3-c5': illegal move"), "%s",
                       r->err);
}

Test(cli, bad_position_names_what_is_wrong)
{
    Run *r = run("moves laska --position 'w d4q'");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "bad position 'w d4q'"), "%s", r->err);
    cr_assert_not_null(strstr(r->err, "pieces are"), "%s", r->err);
}

Test(cli, bad_game_depth_and_flags_exit_2)
{
    cr_assert_eq(run("perft chess 2")->status, 2);
    cr_assert_eq(run("perft laska 0")->status, 2);
    cr_assert_eq(run("perft laska 2x")->status, 2);
    cr_assert_eq(run("perft laska")->status, 2);
    cr_assert_eq(run("moves laska --frobnicate")->status, 2);
    cr_assert_eq(run("moves laska --position")->status, 2);
    cr_assert_eq(run("nosuchcommand")->status, 2);
    cr_assert_eq(run("")->status, 2);
}

Test(cli, help_everywhere)
{
    static const char *const cmds[] = {"--help", "perft --help",
                                       "moves --help", "demo --help"};
    for (size_t i = 0; i < 4; i++) {
        Run *r = run(cmds[i]);
        cr_assert_eq(r->status, 0, "%s", cmds[i]);
        cr_assert_not_null(strstr(r->out, "usage: tabula"), "%s", cmds[i]);
    }
}

Test(cli, overlong_input_is_refused)
{
    char args[6000] = "moves laska ";
    size_t n = strlen(args);
    memset(args + n, 'a', 4500);
    args[n + 4500] = '\0';
    Run *r = run(args);
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "input too long"), "%s", r->err);
    /* The message quotes an excerpt, not the whole input. */
    cr_assert_lt(strlen(r->err), 300, "%s", r->err);
}

Test(cli, demo_plays_to_the_end_with_hashes)
{
    Run *r = run("demo laska --quiet");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert(strncmp(r->out, "game ", 5) == 0, "%s", r->out);
    cr_assert_not_null(strstr(r->out, "\nlaska "), "%s", r->out);
}

Test(cli, play_line_mode_reads_moves_and_prints_plies)
{
    /* Black's only reply to c3-d4 is e5xc3; a bad line is refused and
     * play goes on; takeback undoes the whole move against a bot. */
    Run *r = run_input("c3-d4\\nzz9\\nc3-d4\\ntakeback\\n9-13\\nresign\\n",
                       "play laska --bot=1");
    cr_assert_eq(r->status, 0, "%s", r->err);
    static const char want[] = "ply 1 white c3-d4\n"
                               "ply 2 black e5xc3\n"
                               "takeback 2\n"
                               "ply 1 white c3-d4\n"
                               "ply 2 black e5xc3\n"
                               "result: 0-1 (resign)\n"
                               "final-hash: ";
    cr_assert(strncmp(r->out, want, strlen(want)) == 0, "got:\n%s", r->out);
    cr_assert_eq(strlen(r->out), strlen(want) + 64 + 1, "%s", r->out);
    cr_assert_not_null(strstr(r->err, "'zz9': malformed move notation"),
                       "%s", r->err);
    cr_assert_not_null(strstr(r->err, "'c3-d4': illegal move"), "%s", r->err);
}

Test(cli, play_with_two_bots_finishes)
{
    Run *r = run("play laska --as none --bot=1 --seed 7");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_not_null(strstr(r->out, "\nresult: "), "%s", r->out);
    cr_assert_null(strstr(r->out, "(unfinished)"), "%s", r->out);
}

Test(cli, host_refuses_bad_match_options_before_opening_a_room)
{
    Run *r = run("host football --options goals=0");
    cr_assert_eq(r->status, 2, "%s%s", r->out, r->err);
    cr_assert_null(strstr(r->out, "invite:"), "%s", r->out);
    cr_assert_not_null(strstr(r->err, "bad options 'goals=0' for football"),
                       "%s", r->err);
    r = run("host laska --options foo=bar");
    cr_assert_eq(r->status, 2, "%s%s", r->out, r->err);
}
