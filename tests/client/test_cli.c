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
#include <unistd.h>

#include "cli.h"
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

Test(cli, compulsory_capture_is_named)
{
    /* After c3-d4 Black's e5 soldier must take d4 and land on c3 (c5's
     * landing e3 is occupied): Lasker's rules make the capture
     * compulsory, and it is the only one. */
    Run *r = run("moves laska c3-d4 e5-f4");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "move 2 'e5-f4': illegal move; capturing "
                                      "is compulsory, the capture now: e5xc3; "
                                      "moves look like c3-d4, captures "
                                      "b2xd4\n"),
                       "%s", r->err);
}

Test(cli, moves_read_as_players_type_them)
{
    /* The action letter and piece letter may be left out, as on the
     * boards (client/entry.c): the loose and the canonical spelling of the
     * first serve give the same list. */
    Run *canon = run("moves volleyball 'S Bc3-d2>a5'");
    cr_assert_eq(canon->status, 0, "%s", canon->err);
    char *want = strdup(canon->out);
    Run *loose = run("moves volleyball c3-d2\\>a5");
    cr_assert_eq(loose->status, 0, "%s", loose->err);
    cr_assert_str_eq(loose->out, want);
    cr_assert(strlen(want) > 0);
    free(want);
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

/* host and join say the bot's levels and the default their own way (3,
 * where play's is 2), on --help and on a usage error alike. */
Test(cli, host_and_join_help_name_the_bot_level)
{
    static const char want[] = "--bot [LEVEL] lets the bot play this seat, "
                               "level 1 (weakest) to 8,\n3 by default";
    static const char *const cmds[] = {"host --help", "join --help"};
    for (size_t i = 0; i < 2; i++) {
        Run *r = run(cmds[i]);
        cr_assert_eq(r->status, 0, "%s", cmds[i]);
        cr_assert_not_null(strstr(r->out, want), "%s: %s", cmds[i], r->out);
    }
    Run *r = run("join");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, want), "%s", r->err);
}

/* A spectator has no seat: spectate's help offers no bot (a trial found
 * the host and join paragraph there, and --bot refused). */
Test(cli, spectate_help_offers_no_bot)
{
    Run *r = run("spectate --help");
    cr_assert_eq(r->status, 0);
    cr_assert_not_null(strstr(r->out, "usage: tabula spectate"), "%s", r->out);
    cr_assert_null(strstr(r->out, "--bot"), "%s", r->out);
    r = run("spectate");
    cr_assert_eq(r->status, 2);
    cr_assert_null(strstr(r->err, "--bot"), "%s", r->err);
}

/* A finished game has no move: analyse says `bestmove (none)`, as UCI
 * engines do, so a reader waiting for bestmove gets one. White has no
 * piece left on this Laska board, so White has lost (no moves). */
Test(cli, analyse_of_a_finished_game_says_bestmove_none)
{
    Run *r = run("analyse laska --position 'w c3b'");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_str_eq(r->out, "bestmove (none)\n");
    cr_assert_not_null(strstr(r->err, "0-1"), "%s", r->err);
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
    /* Lines were refused: status 1, so a script can tell. */
    cr_assert_eq(r->status, 1, "%s", r->err);
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
    /* Tabs at a line's ends are cut as spaces are (a trial's
     * "c3-d4<TAB>" was a malformed move). */
    r = run_input("\\tc3-d4\\t\\nresign \\t\\n", "play laska --bot=1");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert(strncmp(r->out, "ply 1 white c3-d4\nply 2 black e5xc3\n"
                              "result: 0-1 (resign)\n", 56) == 0,
              "got:\n%s", r->out);
}

/* `takeback N` takes back exactly N plies (1..255), as on the network;
 * a count that is none is refused as one (a trial's `takeback -1` was
 * refused as a malformed move). Against the level-1 bot, c3-d4 e5xc3
 * (Black's only reply), then `takeback 2` is the plain word's 2 plies
 * and `takeback 3` is more than was played. */
Test(cli, play_takes_back_a_count_of_plies)
{
    Run *r = run_input("c3-d4\\ntakeback -1\\ntakeback 256\\ntakeback 3\\n"
                       "takeback 2\\nquit\\n",
                       "play laska --bot=1");
    cr_assert_eq(r->status, 1, "%s", r->err);
    static const char want[] = "ply 1 white c3-d4\n"
                               "ply 2 black e5xc3\n"
                               "takeback 2\n"
                               "result: * (unfinished)\n";
    cr_assert(strncmp(r->out, want, strlen(want)) == 0, "got:\n%s", r->out);
    cr_assert_not_null(
        strstr(r->err, "'takeback -1': a takeback is of 1 to 255 plies"), "%s",
        r->err);
    cr_assert_not_null(
        strstr(r->err, "'takeback 256': a takeback is of 1 to 255 plies"),
        "%s", r->err);
    cr_assert_not_null(strstr(r->err, "nothing to take back"), "%s", r->err);
    cr_assert_null(strstr(r->err, "malformed"), "%s", r->err);
}

/* Against a bot the plain `takeback` undoes the player's own last ply
 * and every ply after it, however many the bot made in a row: in Chess
 * volleyball the bot answers a serve with several touches (a trial saw
 * `takeback 2` leave the player's serve standing and the bot replay its
 * last two touches). The expected count is the plies printed before the
 * takeback line, the player's being the first; nothing is played after
 * it. A tab between the word and a count is a space (another trial). */
Test(cli, play_takeback_undoes_through_the_players_own_ply)
{
    Run *r = run_input("S Bc3-d4>b6\\ntakeback\\nquit\\n",
                       "play volleyball --bot=1");
    cr_assert_eq(r->status, 0, "%s", r->err);
    static const char serve[] = "ply 1 white S Bc3-d4>b6\n";
    cr_assert(strncmp(r->out, serve, strlen(serve)) == 0, "%s", r->out);
    int plies = 0;
    const char *p = r->out;
    while (strncmp(p, "ply ", 4) == 0) {
        plies++;
        p = strchr(p, '\n') + 1;
    }
    cr_assert_gt(plies, 2, "the bot made one ply only: %s", r->out);
    char want[64];
    snprintf(want, sizeof want, "takeback %d\nresult: * (unfinished)\n", plies);
    cr_assert(strncmp(p, want, strlen(want)) == 0, "want %s got:\n%s", want,
              r->out);
    r = run_input("c3-d4\\ntakeback\t2\\nquit\\n", "play laska --bot=1");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_not_null(strstr(r->out, "ply 2 black e5xc3\ntakeback 2\n"), "%s",
                       r->out);
}

/* A trial typed `--bot 5` and `--level 5` and was refused; both are read
 * as --bot=5 now. Two bots at level 1 play the same game whichever way
 * the level is written, and level 3 plays another game (Laska's level 1
 * sees one ply, level 3 more: the games part within the first moves). */
Test(cli, play_reads_the_bot_level_in_every_spelling)
{
    Run *r = run("play laska --as none --bot=1 --seed 3");
    cr_assert_eq(r->status, 0, "%s", r->err);
    char *want = strdup(r->out);
    static const char *const same[] = {
        "play laska --as none --bot 1 --seed 3",
        "play laska --as none --level 1 --seed 3",
        "play laska --as none --level=1 --seed 3"};
    for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
        r = run(same[k]);
        cr_assert_eq(r->status, 0, "%s: %s", same[k], r->err);
        cr_assert_str_eq(r->out, want, "%s", same[k]);
    }
    /* A second trial: a bare --bot after --level 5 played level 3. */
    r = run("play laska --as none --level 1 --bot --seed 3");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_str_eq(r->out, want);
    r = run("play laska --as none --bot 3 --seed 3");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_str_neq(r->out, want);
    free(want);
    /* ... and `join --bot CODE` read a code beginning with a digit as a
     * bad level: only a word of digits is a level. No lobby listens on
     * port 1, so the join fails there, past the arguments. */
    r = run("join --bot 66FM-U3LY-DLDC-T4UC --lobby 127.0.0.1:1");
    cr_assert_neq(r->status, 0);
    cr_assert_null(strstr(r->err, "bad bot level"), "%s", r->err);
    cr_assert_null(strstr(r->err, "usage:"), "%s", r->err);
    r = run("play laska --bot 9");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "bad bot level '9'; expected 1..8"), "%s",
                       r->err);
    r = run("play laska --level");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "--level needs a value"), "%s", r->err);
}

/* A trial's `moves laska --position=POS` was an unknown flag while
 * `--bot=5` worked: every flag takes `--flag=VALUE` as getopt_long
 * does. The moves are those of moves_accepts_a_position, by hand. */
Test(cli, every_flag_takes_its_value_after_an_equals_sign)
{
    Run *r = run("moves laska '--position=w c1W b2b b4b d4b d2b g7b'");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_str_eq(r->out, "c1xa3xc5xe3xc1\nc1xe3xc5xa3xc1\n");
    r = run("play laska --as=none --bot=1 --seed=3");
    cr_assert_eq(r->status, 0, "%s", r->err);
    char *want = strdup(r->out);
    r = run("play laska --as none --bot 1 --seed 3");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_str_eq(r->out, want);
    free(want);
    /* The value may hold '=' (only the first one splits) or be empty. */
    r = run("moves football --options=goals=3");
    cr_assert_eq(r->status, 0, "%s", r->err);
    r = run("moves football --options=goals=99");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "bad options 'goals=99'"), "%s", r->err);
    r = run("perft laska --position= 1");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "bad position ''"), "%s", r->err);
    r = run("moves laska --bogus=3");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "unknown flag '--bogus'"), "%s", r->err);
    /* Flags that take no value say so; --level= is split like the rest
     * (analyse reads --level itself). */
    r = run("play --line=1 laska");
    cr_assert_eq(r->status, 2);
    cr_assert_str_eq(r->err, "tabula play: --line takes no value\n");
    r = run("analyse laska --level=3 --depth=1");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_not_null(strstr(r->out, "bestmove "), "%s", r->out);
    /* After a bare `--` an argument is a move, never a flag. */
    r = run("moves laska -- --position=w");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "--position=w"), "%s", r->err);
}

/* A trial's `play football --options goals=99` said only "bad match
 * option"; it names the options and the game, as host does (Football
 * chess plays to 1..20 goals, docs/rules/football.md). */
/* A trial typed `tabula help play` and got the command list; host
 * --lobby with nothing after it was an "unexpected argument". */
Test(cli, help_of_a_command_and_flags_missing_their_values)
{
    Run *r = run("help play");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert(strncmp(r->out, "usage: tabula play GAME", 23) == 0, "%s",
              r->out);
    r = run("host laska --lobby");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "tabula host: --lobby needs a value"),
                       "%s", r->err);
    r = run("play laska --level --line");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "tabula play: --level needs a value"),
                       "%s", r->err);
}

/* The trial after the flags change: `join CODE --options goals=3` was
 * told "--options needs a value" and `synctest laska --bogus` "--bogus
 * needs a value"; a flag the command does not take is unexpected, and
 * an empty value is none. */
Test(cli, a_flag_the_command_does_not_take_is_unexpected_even_with_a_value)
{
    /* Each refused with status 2; the message starts with its text (an
     * unexpected argument is followed by the usage). */
    static const struct {
        const char *args, *err;
    } cases[] = {
        {"join ABCD-EFGH --lobby 127.0.0.1:1 --options goals=3",
         "tabula join: unexpected argument '--options'\n"},
        {"join ABCD-EFGH --lobby", "tabula join: --lobby needs a value\n"},
        /* An empty value (a script's unset `--log "$LOG"`) would have
         * played with no log at all. */
        {"host laska --log '' --lobby 127.0.0.1:1",
         "tabula host: --log needs a value\n"},
        {"identity --file=", "tabula identity: --file needs a value\n"},
        /* A switch of another command is an unknown word here, not
         * "takes no value"; a spectator takes no --delay, a joiner no
         * --options. */
        {"analyse laska --quiet=1",
         "tabula analyse: unexpected argument '--quiet=1'\n"},
        {"spectate AAAA-AAAA-AAAA-AAAA --delay",
         "tabula spectate: unexpected argument '--delay'\n"},
        {"join AAAA-AAAA-AAAA-AAAA --options",
         "tabula join: unexpected argument '--options'\n"},
        /* --bot=LEVEL is digits only, as --bot LEVEL is. */
        {"play laska --bot=+1", "tabula play: bad bot level '+1'; expected 1..8\n"},
        {"synctest laska --bogus",
         "tabula synctest: unexpected argument '--bogus'\n"},
        {"synctest laska --games", "tabula synctest: --games needs a value\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run *r = run(cases[i].args);
        cr_assert_eq(r->status, 2, "%s: %s", cases[i].args, r->err);
        cr_assert(strncmp(r->err, cases[i].err, strlen(cases[i].err)) == 0,
                  "%s: %s", cases[i].args, r->err);
    }
}

Test(cli, play_names_bad_options)
{
    Run *r = run("play football --options goals=99");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "tabula play: bad options 'goals=99' for "
                                      "football: bad match option (see "
                                      "docs/rules/football.md)"),
                       "%s", r->err);
}

/* A trial's script went on after its resignation: the lines after the
 * end are said and make the status 1; a blank one is no line. */
Test(cli, play_counts_lines_left_after_the_end)
{
    Run *r = run_input("resign\\nzz\\n\\na3-b4\\n", "play laska --bot=1");
    cr_assert_eq(r->status, 1, "%s", r->err);
    cr_assert_not_null(strstr(r->out, "result: 0-1 (resign)\n"), "%s", r->out);
    cr_assert_not_null(strstr(r->err, "tabula play: the game is over; 2 more "
                                      "lines were not played"),
                       "%s", r->err);
    r = run_input("resign\\n\\n", "play laska --bot=1");
    cr_assert_eq(r->status, 0, "%s", r->err);
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

/* Issue 18, finding 8: --clock in chess terms. The minute form's base is
 * checked against 1..1440 minutes (86400 s), the seconds form against
 * 1..86400 s; the accepted forms are played in test_conduct.c (2s+0) and
 * test_net_tui.c (10+5 shows 10:00). A clock out of its form says the
 * forms; one in a form says which part is out of range (G-MC-10: the
 * fair-play issue's time controls). */
Test(cli, clock_is_minutes_plus_seconds_and_bad_ones_say_the_form)
{
    static const char form[] = "expected MINUTES+SECONDS as in chess (5+3: "
                               "five minutes each";
    static const char range[] = "the time is 1..1440 minutes";
    static const struct {
        const char *clock, *says;
    } bad[] = {
        {"0+5", range}, {"1441+0", range}, {"86401s+0", range}, {"5", form},
        {"5+", form},   {"+3", form},     {"5m+3", form},     {"-1+0", form},
        {"5+3600x", form}, {"5x3", form}, {"40/0", range},
        {"15days", "a correspondence game has 1..14 days a move"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[80];
        snprintf(args, sizeof args, "host laska --clock '%s'", bad[i].clock);
        Run *r = run(args);
        cr_assert_eq(r->status, 2, "%s: %s%s", bad[i].clock, r->out, r->err);
        cr_assert_null(strstr(r->out, "invite:"), "%s", r->out);
        cr_assert_not_null(strstr(r->err, bad[i].says), "%s: %s",
                           bad[i].clock, r->err);
    }
}

/* Finding 10: a lobby address without a port says that one is expected. */
Test(cli, lobby_address_without_a_port_says_so)
{
    Run *r = run("join ABCD-EFGH --lobby 127.0.0.1");
    cr_assert_eq(r->status, 2, "%s", r->err);
    cr_assert_str_eq(r->err, "tabula join: bad lobby address '127.0.0.1': "
                             "expected HOST:PORT with the port, e.g. "
                             "127.0.0.1:7470 (the host's screen shows it), "
                             "or up to 8 nodes of one lobby separated by "
                             "commas\n");
}

/* A trial found: --lobby given a URL (the lobby's web page, its
 * WebSocket, or HOST:PORT with a slash) said only "bad lobby address";
 * host, join and spectate now name it the web address and say what to
 * give instead, as a join refused by the web port's HTTP answer does
 * (client/advice.c), before any connection, with exit status 2. */
Test(cli, lobby_given_a_url_says_it_is_the_web_address)
{
    static const char *const urls[] = {
        "http://127.0.0.1:8080/", "https://lobby.example.org/",
        "ws://127.0.0.1:8080/ws", "http://127.0.0.1:8080",
        "127.0.0.1:8080/"};
    static const char *const cmds[] = {"host laska", "join ABCD-EFGH",
                                       "spectate ABCD-EFGH"};
    static const char *const tails[] = {
        "(the 'listening:' line of `tabula lobby`): tabula host GAME "
        "--lobby HOST:PORT\n",
        "(the host's 'lobby:' line, or the 'listening:' line of `tabula "
        "lobby`): tabula join ABCD-EFGH --lobby HOST:PORT\n",
        "(the host's 'lobby:' line, or the 'listening:' line of `tabula "
        "lobby`): tabula spectate ABCD-EFGH --lobby HOST:PORT\n"};
    for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++)
        for (size_t k = 0; k < 3; k++) {
            char args[160], want[600];
            snprintf(args, sizeof args, "%s --lobby '%s'", cmds[k], urls[i]);
            Run *r = run(args);
            cr_assert_eq(r->status, 2, "%s: %s%s", args, r->out, r->err);
            snprintf(want, sizeof want,
                     "tabula %.*s: %s is the lobby's web address; give its "
                     "--listen address %s",
                     (int)strcspn(cmds[k], " "), cmds[k], urls[i], tails[k]);
            cr_assert_str_eq(r->err, want, "%s", args);
            cr_assert_str_eq(r->out, "", "%s", args);
        }
}

/* Finding 10: game names are not case-sensitive. */
Test(cli, game_names_ignore_case)
{
    static char lower[sizeof ((Run *)0)->out];
    Run *r = run("moves laska");
    cr_assert_eq(r->status, 0);
    memcpy(lower, r->out, sizeof lower);
    r = run("moves LaSkA");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_str_eq(r->out, lower);
    r = run("moves Chess");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "unknown game 'Chess'"), "%s", r->err);
}

/* Finding 3: `tabula rules GAME` explains the notation with examples
 * legal at the start (Football chess: White's rook a1 can step to a2,
 * and 'pass' is always a turn) and names the rules page. */
Test(cli, rules_explains_each_game)
{
    Run *r = run("rules Football");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_not_null(strstr(r->out, "kicker*landing"), "%s", r->out);
    cr_assert_not_null(strstr(r->out, "  a1-a2 "), "%s", r->out);
    cr_assert_not_null(strstr(r->out, "  pass "), "%s", r->out);
    cr_assert_not_null(strstr(r->out, "docs/rules/football.md"), "%s",
                       r->out);
    r = run("rules volleyball10");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_not_null(strstr(r->out, "docs/rules/volleyball.md"), "%s",
                       r->out);
    r = run("rules chess");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "unknown game 'chess'"), "%s", r->err);
}

/* Finding 7 (local half): line mode's board is drawn for the player's
 * side, moves are taken without the action letter and a refusal names a
 * legal move. Laska as Black: White's bot moves first; rank 1 is on top. */
Test(cli, play_line_mode_board_help_and_loose_moves)
{
    Run *r = run_input("board\\nhelp\\nzz\\nquit\\n",
                       "play laska --line --as black --bot=1");
    cr_assert_eq(r->status, 1, "%s", r->err); /* 'zz' was refused */
    cr_assert_not_null(strstr(r->out, "  1 w "), "%s", r->out);
    cr_assert_not_null(strstr(r->out, "Lines: a move, or board, moves, help "
                                      "(or ?), takeback [N], resign, quit."),
                       "%s", r->out);
    /* The bot's first move may leave Black a compulsory capture. */
    cr_assert(strstr(r->err, "'zz': malformed move notation; moves look like "
                             "c3-d4, captures b2xd4; a legal move now: ") ||
                  strstr(r->err, "'zz': malformed move notation; capturing "
                                 "is compulsory, the capture"),
              "%s", r->err);
    r = run_input("S Bc3-d4>b6\\nd8-b6>a5\\nquit\\n",
                  "play volleyball --line --as both");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert_not_null(strstr(r->out, "ply 2 black T Qd8-b6>a5\n"), "%s",
                       r->out);
}

/* A network game's command typed in a game on this device (draw, claim
 * now) is told which commands there are, not explained as a bad move:
 * the one grammar (match_conduct_line) tells commands from moves. */
Test(cli, play_line_mode_names_its_commands_for_a_network_word)
{
    Run *r = run_input("draw\\nclaim now\\nquit\\n",
                       "play laska --line --as white --bot=1");
    cr_assert_eq(r->status, 1, "%s", r->err);
    cr_assert_str_eq(r->err,
                     "tabula play: 'draw': not a command of a game on this "
                     "device (these are resign and takeback [N])\n"
                     "tabula play: 'claim now': not a command of a game on "
                     "this device (these are resign and takeback [N])\n");
}

/* A folder given to --log is refused before a game is played without a
 * log (found by a new user: the game used to run, the log was lost). */
Test(cli, log_into_a_folder_is_refused_at_start)
{
    Run *r = run("host laska --bot --log /tmp");
    cr_assert_eq(r->status, 2, "%s", r->err);
    cr_assert_not_null(strstr(r->err, "--log '/tmp' is a folder"), "%s",
                       r->err);
}

/* A seat file of a Laska match given to `host chessball --log` would
 * resume the Laska match under the other name: refused, naming both. */
Test(cli, log_of_another_game_is_refused_at_start)
{
    char dir[] = "/tmp/tabula-cli-seatXXXXXX", path[128], args[256];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/h.log.seat", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "role 0\nkey %064d\nseat %032d\ninvite -\nwatch -\n"
               "game laska\noptions -\nlobby -\n", 7, 9);
    fclose(f);
    snprintf(args, sizeof args, "host chessball --bot --log %s/h.log", dir);
    Run *r = run(args);
    cr_assert_eq(r->status, 1, "%s", r->err);
    cr_assert_not_null(strstr(r->err, "h.log holds a laska match, not "
                                      "chessball: give another --log file, "
                                      "or host laska to resume it"),
                       "%s", r->err);
    remove(path);
    rmdir(dir);
}

/* A log given to --log without its seat file is never written over: a
 * new match there would lose the old one (a new user's trial). */
Test(cli, existing_log_without_seat_is_kept)
{
    char dir[] = "/tmp/tabula-cli-keepXXXXXX", path[128], args[256];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/old.log", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("an old match\n", f);
    fclose(f);
    snprintf(args, sizeof args, "host chessball --bot --log %s", path);
    Run *r = run(args);
    cr_assert_eq(r->status, 1, "%s", r->err);
    cr_assert_not_null(strstr(r->err, "old.log exists already, without "),
                       "%s", r->err);
    char buf[64] = "";
    f = fopen(path, "r");
    cr_assert_not_null(f);
    cr_assert_not_null(fgets(buf, sizeof buf, f));
    fclose(f);
    cr_assert_str_eq(buf, "an old match\n");
    remove(path);
    rmdir(dir);
}

/* host and join read seeds as play and synctest do. */
Test(cli, network_seeds_are_checked_like_the_others)
{
    Run *r = run("host laska --bot --seed -1");
    cr_assert_eq(r->status, 2, "%s", r->err);
    cr_assert_not_null(strstr(r->err, "bad seed"), "%s", r->err);
    r = run("host laska --bot --seed 99999999999999999999999");
    cr_assert_eq(r->status, 2, "%s", r->err);
}

/* cli_arg, the one reader of every command's flags: ids from the table,
 * values taken from the next word (a non-empty one for CLI_NONEMPTY),
 * words and unknown flags told apart; worked out by hand. */
Test(cli, one_flag_reader_for_every_command)
{
    enum { F_LINE = 7, F_AS, F_LOG };
    static const Cli_Flag flags[] = {{"--line", CLI_SWITCH, F_LINE},
                                     {"--as", CLI_VALUE, F_AS},
                                     {"--log", CLI_NONEMPTY, F_LOG},
                                     {NULL, CLI_SWITCH, 0}};
    char *argv[] = {"laska", "--line", "--as", "", "--log", "x.log",
                    "--log", "", "--bogus", "--as"};
    int argc = (int)(sizeof argv / sizeof argv[0]), i = 0;
    const char *v = NULL;
    cr_expect_eq(cli_arg("t", flags, argc, argv, &i, NULL, &v), CLI_ARG_WORD);
    cr_expect_str_eq(v, "laska");
    i = 1;
    cr_expect_eq(cli_arg("t", flags, argc, argv, &i, NULL, &v), F_LINE);
    cr_expect_eq(i, 1);
    i = 2; /* --as takes the next word, empty or not */
    cr_expect_eq(cli_arg("t", flags, argc, argv, &i, NULL, &v), F_AS);
    cr_expect_eq(i, 3);
    cr_expect_str_eq(v, "");
    i = 4;
    cr_expect_eq(cli_arg("t", flags, argc, argv, &i, NULL, &v), F_LOG);
    cr_expect_eq(i, 5);
    cr_expect_str_eq(v, "x.log");
    i = 6; /* --log "": needs a value */
    cr_expect_eq(cli_arg("t", flags, argc, argv, &i, NULL, &v), CLI_ARG_BAD);
    i = 8; /* unknown: the caller's to word, or said with help */
    cr_expect_eq(cli_arg("t", flags, argc, argv, &i, NULL, &v),
                 CLI_ARG_UNKNOWN);
    cr_expect_eq(cli_arg("t", flags, argc, argv, &i, "help\n", &v),
                 CLI_ARG_BAD);
    i = 9; /* --as last: needs a value */
    cr_expect_eq(cli_arg("t", flags, argc, argv, &i, NULL, &v), CLI_ARG_BAD);
    cr_expect_eq(cli_flag_value(flags, "--line"), CLI_SWITCH);
    cr_expect_eq(cli_flag_value(flags, "--log"), CLI_NONEMPTY);
    cr_expect_eq(cli_flag_value(flags, "--nope"), -1);
    cr_expect_eq(cli_flag_value(NULL, "--line"), -1);
}

/* A mistyped command is answered with the one it most likely meant (two
 * edits at most, a swap of neighbours one), and nothing is guessed for a
 * word far from every command. */
Test(cli, a_mistyped_command_is_answered_with_the_likely_one)
{
    static Run r;
    run_into(&r, NULL, "plya");
    cr_expect_eq(r.status, 2);
    cr_expect_not_null(strstr(r.err, "tabula: unknown command 'plya'\n"
                                     "did you mean 'tabula play'?\n"),
                       "%s", r.err);
    run_into(&r, NULL, "simtets");
    cr_expect_not_null(strstr(r.err, "did you mean 'tabula simtest'?"), "%s",
                       r.err);
    run_into(&r, NULL, "xyz");
    cr_expect_eq(r.status, 2);
    cr_expect_null(strstr(r.err, "did you mean"), "%s", r.err);
}

/* A code pasted with en dashes (U+2013) and one symbol short is refused
 * with the code as typed, its dashes kept, not each of their bytes as
 * '?' ("'ABCD???EFGH???JKMN???PQR'", a usability finding); a control
 * byte still shows as '?'. The same code whole is read (the lobby at
 * port 1 then cannot be reached). */
Test(cli, a_refused_code_is_echoed_with_its_typeset_dashes)
{
    Run *r = run("join 'ABCD\xe2\x80\x93" "EFGH\xe2\x80\x93JKMN\xe2\x80\x93PQR' "
                 "--lobby 127.0.0.1:1");
    cr_assert_eq(r->status, 2, "%s", r->err);
    cr_assert_not_null(strstr(r->err, "tabula join: 'ABCD\xe2\x80\x93"
                                      "EFGH\xe2\x80\x93JKMN\xe2\x80\x93PQR' "
                                      "is not a code"),
                       "%s", r->err);
    cr_assert_null(strstr(r->err, "???"), "%s", r->err);
    r = run("join \"$(printf 'ABCD\\033EFGH')\" --lobby 127.0.0.1:1");
    cr_assert_not_null(strstr(r->err, "'ABCD?EFGH' is not a code"), "%s",
                       r->err);
    r = run("join 'ABCD\xe2\x80\x93" "EFGH\xe2\x80\x93JKMN\xe2\x80\x93PQRS' "
            "--lobby 127.0.0.1:1");
    cr_assert_null(strstr(r->err, "is not a code"), "%s", r->err);
    cr_assert_not_null(strstr(r->err, "cannot reach the lobby at 127.0.0.1:1"),
                       "%s", r->err);
}
