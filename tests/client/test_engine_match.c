/*
 * test_engine_match.c: `tabula match` and `tabula analyse` as scripts see them:
 * a seed with a node budget gives the same games twice and with any
 * number of jobs, bad arguments exit 2 naming the token, an openings
 * file is checked line by line, and the output lines keep their shape.
 * Runs the real binary.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_run.h"

/* Run `tabula ARGS` (already shell-quoted) into *r. */
static void run(Run *r, const char *args)
{
    run_into(r, NULL, args);
}

static Run r1, r2;
static const char *const games[] = {"laska", "chessball", "football",
                                    "volleyball", "volleyball10"};
static void cut_movetime(Run *r);

Test(match, same_seed_same_games_with_any_jobs)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        char args[256];
        snprintf(args, sizeof args,
                 "match %s --a 2 --b 2:old --games 4 --nodes 3000 --seed 9",
                 games[i]);
        run(&r1, args);
        cr_assert_eq(r1.status, 0, "%s: %s", games[i], r1.err);
        cr_assert(strncmp(r1.out, "result games 4 wins ", 20) == 0, "%s",
                  r1.out);
        cr_assert_not_null(strstr(r1.out, "\nelo "), "%s", r1.out);
        cr_assert_not_null(strstr(r1.err, "game 4/4: "), "%s", r1.err);
        snprintf(args, sizeof args,
                 "match %s --a 2 --b 2:old --games 4 --nodes 3000 --seed 9 "
                 "--jobs 2",
                 games[i]);
        run(&r2, args);
        cr_assert_eq(r2.status, 0, "%s", r2.err);
        /* Everything but the processor time a move is the same. */
        cut_movetime(&r1);
        cut_movetime(&r2);
        cr_assert_str_eq(r1.out, r2.out, "%s", games[i]);
        cr_assert_str_eq(r1.err, r2.err, "%s", games[i]);
    }
}

/* Check the closing `movetime a MS b MS` line's shape and cut it off
 * r->out: it is a measurement, the one line a rerun may change. */
static void cut_movetime(Run *r)
{
    char *t = strstr(r->out, "\nmovetime a ");
    cr_assert_not_null(t, "%s", r->out);
    double a = -1, b = -1;
    char end = 0;
    cr_assert_eq(sscanf(t, "\nmovetime a %lf b %lf%c", &a, &b, &end), 3, "%s",
                 t);
    cr_assert(a >= 0 && b >= 0 && end == '\n', "%s", t);
    cr_assert_str_eq(strchr(t + 1, '\n'), "\n", "movetime is the last line");
    t[1] = '\0';
}

/* Runs `tabula ARGS` and reads its `moves a NA b NB` line. */
static void moves_made(const char *args, long *a, long *b)
{
    run(&r1, args);
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    const char *t = strstr(r1.out, "\nmoves a ");
    cr_assert_not_null(t, "%s", r1.out);
    cr_assert_eq(sscanf(t, "\nmoves a %ld b %ld", a, b), 2, "%s", t);
}

/* `moves a NA b NB`: in Laska every ply is one side's move and the
 * sides alternate, so over G games A and B made NA + NB plies with
 * |NA - NB| <= G (each game's White makes the same number of moves as
 * Black or one more, and the colours swap within each pair). */
Test(match, moves_count_each_side)
{
    long a = -1, b = -1;
    moves_made("match laska --a 2 --b 1 --games 4 --nodes 2000 --seed 5", &a,
               &b);
    /* Each side moves at least once a game: four random plies in, no
     * single move leaves the other side, still at ten pieces or more,
     * without a move. */
    cr_assert(a >= 4 && b >= 4 && labs(a - b) <= 4, "a %ld b %ld", a, b);
}

/* Seed 5's first four random plies in Football chess leave White a goal
 * in one (found by playing them out: each side then won the game it
 * began, one move each, "moves a 1 b 1"). Such a line is drawn again,
 * so neither game of the pair ends on its first move. */
Test(match, an_opening_with_a_win_in_one_is_drawn_again)
{
    long a = -1, b = -1;
    moves_made("match football --a 1 --b 1 --games 2 --nodes 20000 --seed 5",
               &a, &b);
    cr_assert(a >= 2 && b >= 2, "a %ld b %ld", a, b);
}

/* Lines of text that begin "game K/N:" (a match's progress lines). */
static long progress_lines(const char *text)
{
    long count = 0, k = 0, n = 0;
    for (const char *p = text; p != NULL && *p != '\0';
         p = strchr(p, '\n') != NULL ? strchr(p, '\n') + 1 : NULL)
        count += sscanf(p, "game %ld/%ld:", &k, &n) == 2;
    return count;
}

/* Chess volleyball's rallies end many a line of 78 plies: with seed 1 the
 * openings of the first eight pairs were drawn and the ninth's was not.
 * The match stops there, exit 1 naming the game, and still reports every
 * game played before it: as many as the progress lines on stderr. */
Test(match, a_match_that_runs_out_of_openings_reports_its_games)
{
    run(&r1, "match volleyball --a 1 --b 1 --games 20 --nodes 20000 --seed 1 "
             "--plies 78");
    cr_assert_eq(r1.status, 1, "%s", r1.err);
    long g = -1;
    cr_assert_eq(sscanf(r1.out, "result games %ld", &g), 1, "%s", r1.out);
    cr_assert(g > 0 && g < 20, "%ld games", g);
    cr_assert_eq(g, progress_lines(r1.err), "%s", r1.err);
    char stop[256];
    snprintf(stop, sizeof stop,
             "tabula match: game %ld: 100 lines of 78 random plies each "
             "ended the game or left a win in one; give fewer --plies\n",
             g + 1);
    cr_assert_not_null(strstr(r1.err, stop), "%s", r1.err);
    /* With four jobs the games before the failed pair are played out all
     * the same: the very report (a later pair's failure stopped it at a
     * game that depended on the jobs' timing). */
    run(&r2, "match volleyball --a 1 --b 1 --games 20 --nodes 20000 --seed 1 "
             "--plies 78 --jobs 4");
    cr_assert_eq(r2.status, 1, "%s", r2.err);
    cut_movetime(&r1);
    cut_movetime(&r2);
    cr_assert_str_eq(r2.out, r1.out);
    cr_assert_not_null(strstr(r2.err, stop), "%s", r2.err);
}

/* Ctrl-C (SIGINT) during a long match: it stops at the games' next
 * moves, exits 1 and prints the result of the games finished before the
 * first unfinished one, as many as its progress lines. */
Test(match, ctrl_c_reports_the_games_played)
{
    char out[] = "/tmp/tabula-match-outXXXXXX";
    char err[] = "/tmp/tabula-match-errXXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err);
    cr_assert(fo >= 0 && fe >= 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        execl(TABULA_BINARY, TABULA_BINARY, "match", "laska", "--a", "1", "--b",
              "1", "--games", "1000000", "--nodes", "2000", "--jobs", "2",
              (char *)NULL);
        _exit(127);
    }
    /* Wait (at most a minute) for the third game's progress line. */
    for (int i = 0; i < 6000; i++) {
        slurp(err, r1.err, sizeof r1.err);
        if (progress_lines(r1.err) >= 3)
            break;
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    cr_assert_geq(progress_lines(r1.err), 3, "%s", r1.err);
    kill(pid, SIGINT);
    int st = 0;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    slurp(out, r1.out, sizeof r1.out);
    slurp(err, r1.err, sizeof r1.err);
    remove(out);
    remove(err);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %d: %s", st,
              r1.err);
    cr_assert_not_null(strstr(r1.err, "tabula match: interrupted at game"),
                       "%s", r1.err);
    long g = -1;
    cr_assert_eq(sscanf(r1.out, "result games %ld", &g), 1, "%s", r1.out);
    cr_assert_eq(g, progress_lines(r1.err), "%s", r1.err);
    cr_assert_not_null(strstr(r1.out, "\nmoves a "), "%s", r1.out);
    /* The first game not reported is named, whatever the jobs. */
    char stop[96];
    snprintf(stop, sizeof stop, "tabula match: interrupted at game %ld;",
             g + 1);
    cr_assert_not_null(strstr(r1.err, stop), "%s", r1.err);
}

Test(match, counts_add_up_and_sprt_prints_its_bounds)
{
    run(&r1, "match laska --a 1 --b 1 --games 6 --nodes 2000 --seed 3 "
             "--sprt 0,10");
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    long g = -1, w = -1, d = -1, l = -1;
    cr_assert_eq(sscanf(r1.out, "result games %ld wins %ld draws %ld losses "
                                "%ld",
                        &g, &w, &d, &l),
                 4, "%s", r1.out);
    cr_assert_eq(w + d + l, g);
    /* alpha = beta = 0.05: bounds -+ln 19. */
    cr_assert_not_null(strstr(r1.out, "lower -2.944 upper 2.944"), "%s",
                       r1.out);
}

/* `tabula ARGS` must exit 2 (usage), saying msg when msg is not NULL. */
static void refused(const char *args, const char *msg)
{
    run(&r1, args);
    cr_assert_eq(r1.status, 2, "%s", args);
    if (msg != NULL)
        cr_assert_not_null(strstr(r1.err, msg), "%s: %s", args, r1.err);
}

Test(match, bad_arguments_exit_2)
{
    refused("match laska --a 1 --b 9", "bad --b '9'");
    refused("match laska --a 1:fast --b 1",
            "unknown option; expected old, classic, new");
    refused("match laska --a 1 --b 1 --games 3", "bad --games '3'");
    refused("match laska --a 1 --b 1 --nodes 10 --time 10", NULL);
    refused("match laska --a 1 --b 1 --sprt 5", "bad --sprt '5'");
    refused("match chess --a 1 --b 1", NULL);
    refused("match laska --a 1", "tabula match: missing --b");
    refused("match --a 1 --b 1", "tabula match: missing GAME");
    refused("analyse --depth 2", "tabula analyse: missing GAME");
    refused("match laska --a 1 --b 1 --sprt 50,0",
            "bad --sprt '50,0'; expected ELO0,ELO1 with ELO0 below ELO1");
    /* A directory opens but does not read. */
    refused("match laska --a 1 --b 1 --openings /tmp", "cannot read '/tmp'");
    refused("match laska --a 1 --b 1 --plies 201",
            "bad --plies '201'; expected a whole number 0..200");
    refused("match laska --a 1 --b 1 --time 0",
            "bad --time '0'; expected a whole number 1..3600000");
    /* A file's positions are played as they are. */
    refused("match laska --a 1 --b 1 --plies 3 --openings /dev/null",
            "--plies and --openings exclude each other");
    /* Football chess's 100-ply rule ends every line of 100 plies. */
    refused("match football --a 1 --b 1 --games 2 --plies 100",
            "100 lines of 100 random plies each ended the game or left a win "
            "in one; give fewer --plies");
    /* analyse names the range it takes (a number outside it, or none). */
    refused("analyse laska --depth 0",
            "bad --depth '0'; expected a whole number 1..60");
    refused("analyse laska --time 3600001",
            "bad --time '3600001'; expected a whole number 1..3600000");
}

/* --clock: malformed clocks are refused, and with a generous clock the
 * bots share their time out and finish every game. */
Test(match, clock_is_checked_and_shared_out)
{
    refused("match laska --a 1 --b 1 --clock 0", "bad --clock '0'");
    refused("match laska --a 1 --b 1 --clock 100+x", "bad --clock");
    refused("match laska --a 1 --b 1 --clock 100 --time 10", NULL);
    run(&r1, "match laska --a 1 --b 1:old --games 2 --clock 60000+100");
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    cr_assert(strncmp(r1.out, "result games 2 wins ", 20) == 0, "%s",
              r1.out);
    long w = -1, d = -1, l = -1;
    cr_assert_eq(sscanf(r1.out, "result games 2 wins %ld draws %ld losses %ld",
                        &w, &d, &l),
                 3, "%s", r1.out);
    cr_assert_eq(w + d + l, 2);
}

/* A trial's clocked match at --jobs 4 on 2 cores lost games on time:
 * the clocks are wall time, so more jobs than cores gets a note (64 is
 * --jobs's most, and more than this machine's cores); a match without a
 * time limit does not wait on the clock and gets none. */
Test(match, more_jobs_than_cores_is_noted_with_a_clock)
{
    run(&r1, "match laska --a 1 --b 1 --games 2 --time 1 --jobs 64");
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    cr_assert_not_null(strstr(r1.err, "tabula match: note: --jobs 64 is more "
                                      "than the "),
                       "%s", r1.err);
    run(&r1, "match laska --a 1 --b 1 --games 2 --nodes 1000 --jobs 64");
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    cr_assert_null(strstr(r1.err, "note:"), "%s", r1.err);
}

/* A trial could not tell from a clocked match's output that its games
 * were lost on time. On a 1 ms clock every game is (Laska is not decided
 * by the rules within the few moves such a clock lasts): the note
 * counts them, a's losses and b's, as the result line does. */
Test(match, games_lost_on_time_are_counted)
{
    run(&r1, "match laska --a 8 --b 8 --clock 1 --games 2");
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    long w = -1, d = -1, l = -1, ta = -1, tb = -1;
    cr_assert_eq(sscanf(r1.out, "result games 2 wins %ld draws %ld losses %ld",
                        &w, &d, &l),
                 3, "%s", r1.out);
    const char *note = strstr(r1.err, "tabula match: 2 games lost on time");
    cr_assert_not_null(note, "%s", r1.err);
    cr_assert_eq(sscanf(note,
                        "tabula match: 2 games lost on time (a %ld, b "
                        "%ld)",
                        &ta, &tb),
                 2, "%s", r1.err);
    cr_assert_eq(ta, l, "%s", r1.err);
    cr_assert_eq(tb, w, "%s", r1.err);
}

Test(match, openings_file_is_checked_and_used)
{
    char path[] = "/tmp/tabula-openingsXXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# two Laska positions\nw c1w e3w f2W d2b\n\nb a7b c5w\n", f);
    fclose(f);
    char args[256];
    snprintf(args, sizeof args,
             "match laska --a 1 --b 1:old --games 4 --nodes 1000 "
             "--openings %s",
             path);
    run(&r1, args);
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    cr_assert(strncmp(r1.out, "result games 4 ", 15) == 0, "%s", r1.out);
    /* A trial's file with a line of one space was refused whole: blank
     * lines, indented comments, tabs between fields and spaces, tabs
     * or a CR at a line's ends are the same file. */
    char *want = strdup(r1.out);
    f = fopen(path, "w");
    fputs("\t# two Laska positions\r\n \r\n  w\tc1w e3w f2W\td2b \t\r\n"
          "\t\nb a7b c5w\t\n",
          f);
    fclose(f);
    run(&r1, args);
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    /* the same games: every line but the processor times */
    cr_assert(strncmp(r1.out, want, strstr(want, "movetime") - want) == 0,
              "%s\nwant\n%s", r1.out, want);
    free(want);
    f = fopen(path, "w");
    fputs("w c1w e3w\nw d4q\n", f);
    fclose(f);
    run(&r1, args);
    cr_assert_eq(r1.status, 2);
    cr_assert_not_null(strstr(r1.err, "line 2"), "%s", r1.err);
    remove(path);
}

/* LLR of the test's own: the GSPRT normal approximation written out
 * again from docs/engines.md, not taken from elo.c. */
static double llr_again(long w, long d, long l, double e0, double e1)
{
    double n = (double)(w + d + l), m = (w + d / 2.0) / n;
    double v = (w * (1 - m) * (1 - m) + d * (0.5 - m) * (0.5 - m) +
                l * m * m) /
               n;
    double s0 = 1 / (1 + pow(10, -e0 / 400)), s1 = 1 / (1 + pow(10, -e1 / 400));
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
}

Test(match, sprt_stops_at_the_first_crossing_with_any_jobs)
{
    /* Level 3 against level 1 in Laska wins nearly every game: H1
     * (+50) is accepted long before 200 games. */
    run(&r1, "match laska --a 3 --b 1 --games 200 --sprt 0,50");
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    long g = 0, w = 0, d = 0, l = 0;
    double llr = 0;
    cr_assert_eq(sscanf(r1.out, "result games %ld wins %ld draws %ld losses "
                                "%ld",
                        &g, &w, &d, &l),
                 4, "%s", r1.out);
    const char *s = strstr(r1.out, "sprt elo0 0.0 elo1 50.0 llr ");
    cr_assert_not_null(s, "%s", r1.out);
    cr_assert_eq(sscanf(s, "sprt elo0 0.0 elo1 50.0 llr %lf", &llr), 1);
    cr_assert_lt(g, 200);
    cr_assert_eq(g % 2, 0, "stopped inside a pair: %s", r1.out);
    cr_assert_not_null(strstr(r1.out, " H1\n"), "%s", r1.out);
    cr_assert(fabs(llr - llr_again(w, d, l, 0, 50)) < 0.001, "%f", llr);
    cr_assert_geq(llr, log(0.95 / 0.05));
    run(&r2, "match laska --a 3 --b 1 --games 200 --sprt 0,50 --jobs 2");
    cut_movetime(&r1);
    cut_movetime(&r2);
    cr_assert_str_eq(r1.out, r2.out);
}

/* ':classic', the bot as issue 17 found it (the old search on
 * core_evaluate_classic, which test_evaluate checks), plays a match in
 * every game. */
Test(match, classic_bot_plays_every_game)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        char args[256];
        snprintf(args, sizeof args,
                 "match %s --a 2 --b 2:classic --games 2 --nodes 3000",
                 games[i]);
        run(&r1, args);
        cr_assert_eq(r1.status, 0, "%s: %s", games[i], r1.err);
        cr_assert(strncmp(r1.out, "result games 2 wins ", 20) == 0, "%s",
                  r1.out);
    }
}

/* Is text one of the lines `tabula moves GAME PLAYED` prints (the rules
 * core's own list of the legal moves, as a board takes them)? */
static int listed(const char *game, const char *played, const char *text)
{
    static Run m;
    char args[4096];
    snprintf(args, sizeof args, "moves %s%s", game, played);
    run(&m, args);
    cr_assert_eq(m.status, 0, "%s: %s", args, m.err);
    size_t n = strlen(text);
    for (const char *l = m.out; *l != '\0';) {
        const char *nl = strchr(l, '\n');
        size_t len = nl != NULL ? (size_t)(nl - l) : strlen(l);
        if (len == n && strncmp(l, text, n) == 0)
            return 1;
        l += len + (nl != NULL);
    }
    return 0;
}

/* The next pv move of *p into buf (a word, or a "quoted" move with
 * spaces); 0 at the line's end. */
static int next_pv_move(const char **p, char *buf, size_t cap)
{
    const char *s = *p;
    while (*s == ' ')
        s++;
    if (*s == '\n' || *s == '\0')
        return 0;
    const char *end = *s == '"' ? strchr(s + 1, '"') : strpbrk(s, " \n");
    if (*s == '"') {
        cr_assert_not_null(end, "unclosed quote in %s", s);
        s++;
    }
    if (end == NULL)
        end = s + strlen(s);
    cr_assert_lt((size_t)(end - s), cap);
    memcpy(buf, s, (size_t)(end - s));
    buf[end - s] = '\0';
    *p = end + (*end == '"');
    return 1;
}

/* --level picks the bot with its own depth cap (level L: L plies,
 * docs/engines.md) and budget: level 2 stops at depth 2, unless --depth
 * says otherwise (a trial found every level giving the same depth-16
 * answer: analyse's own defaults overrode the level's). */
Test(analyse, a_level_searches_to_its_own_depth)
{
    run(&r1, "analyse laska --level 2");
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    cr_assert_not_null(strstr(r1.out, "info depth 2 "), "%s", r1.out);
    cr_assert_null(strstr(r1.out, "info depth 3 "), "%s", r1.out);
    run(&r1, "analyse laska --level 2 --depth 3");
    cr_assert_eq(r1.status, 0, "%s", r1.err);
    cr_assert_not_null(strstr(r1.out, "info depth 3 "), "%s", r1.out);
    cr_assert_null(strstr(r1.out, "info depth 4 "), "%s", r1.out);
}

Test(analyse, bestmove_and_pv_are_moves_a_board_takes)
{
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        char args[256];
        snprintf(args, sizeof args, "analyse %s --depth 3 --seed 1", games[g]);
        run(&r1, args);
        cr_assert_eq(r1.status, 0, "%s: %s", args, r1.err);
        int infos = 0;
        for (const char *l = r1.out; l != NULL && *l != '\0';) {
            const char *pv = strstr(l, " pv ");
            const char *nl = strchr(l, '\n');
            char played[4096] = "", mv[128];
            if (strncmp(l, "info depth ", 11) == 0) {
                cr_assert(pv != NULL && (nl == NULL || pv < nl), "%s", l);
                infos++;
                for (const char *p = pv + 4; next_pv_move(&p, mv, sizeof mv);) {
                    cr_assert(listed(games[g], played, mv),
                              "%s: pv move '%s' after%s is not in tabula "
                              "moves' list",
                              games[g], mv, played);
                    size_t n = strlen(played);
                    snprintf(played + n, sizeof played - n, " '%s'", mv);
                }
            } else {
                cr_assert_eq(strncmp(l, "bestmove ", 9), 0, "%s", l);
                cr_assert_not_null(nl);
                snprintf(mv, sizeof mv, "%.*s", (int)(nl - l - 9), l + 9);
                cr_assert(listed(games[g], "", mv),
                          "%s: bestmove '%s' is not in tabula moves' list",
                          games[g], mv);
            }
            l = nl != NULL ? nl + 1 : NULL;
        }
        cr_assert_eq(infos, 3, "%s", r1.out);
    }
}
