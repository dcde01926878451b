/*
 * test_cmd_ratings.c: `tabula ratings DIR...` on logs `tabula match
 * --logs` writes (issue 38): the list parses, a second run prints the
 * same bytes, one game between newcomers gives the figures worked by
 * hand with bc (docs/ratings.md), copies of one match count once, a log
 * with one byte changed is named and not counted, and bad arguments
 * exit 2.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/cli_run.h"

static Run run;

/* A fresh folder under /tmp, its path in dir (64 bytes). */
static void fresh_dir(char *dir)
{
    strcpy(dir, "/tmp/tabula-ratingsXXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void sh(const char *fmt, const char *a, const char *b)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* 20 games of level 2 against level 1 into dir, with the match's line
 * "result games 20 wins W draws D losses L" read into wdl. */
static void match_logs(const char *dir, int wdl[3])
{
    char args[512];
    snprintf(args, sizeof args,
             "match laska --a 2 --b 1 --games 20 --nodes 200 --jobs 2 "
             "--logs %s",
             dir);
    run_into(&run, NULL, args);
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    const char *res = strstr(run.out, "result games 20 wins ");
    cr_assert_not_null(res, "%s", run.out);
    cr_assert_eq(sscanf(res, "result games 20 wins %d draws %d losses %d",
                        &wdl[0], &wdl[1], &wdl[2]),
                 3);
}

/* A match's logs in a fresh folder dir, and a second fresh folder
 * copies for some of them. */
static void match_and_copies(char *dir, char *copies, int wdl[3])
{
    fresh_dir(dir);
    fresh_dir(copies);
    match_logs(dir, wdl);
}

typedef struct Row {
    char game[32], klass[32], fp[32], rd[16], vol[16];
    int rating, games;
} Row;

/* The rating: lines of out into rows (at most cap); returns how many.
 * Every line of out must be a rating: line or the one ratings: line
 * last. */
static int parse(const char *out, Row *rows, int cap, int *games, int *logs,
                 int *skipped)
{
    int n = 0;
    const char *line = out;
    *games = *logs = *skipped = -1;
    while (*line != '\0') {
        const char *nl = strchr(line, '\n');
        cr_assert_not_null(nl, "an unended line in %s", out);
        char buf[256];
        size_t len = (size_t)(nl - line);
        cr_assert_lt(len, sizeof buf);
        memcpy(buf, line, len);
        buf[len] = '\0';
        if (strncmp(buf, "rating: ", 8) == 0) {
            cr_assert_lt(n, cap);
            Row *r = &rows[n++];
            char tail;
            cr_assert_eq(sscanf(buf, "rating: %31s %31s %31s %d %15s %15s %d%c",
                                r->game, r->klass, r->fp, &r->rating, r->rd,
                                r->vol, &r->games, &tail),
                         7, "'%s'", buf);
            cr_assert_eq(strlen(r->fp), 19, "'%s'", buf);
            cr_assert(strchr(r->rd, '.') != NULL &&
                          strlen(strchr(r->rd, '.')) == 2,
                      "'%s'", buf);
            cr_assert(strncmp(r->vol, "0.", 2) == 0 && strlen(r->vol) == 8,
                      "'%s'", buf);
        } else if (strncmp(buf, "relay: ", 7) == 0) {
            /* the relays that witnessed the games: bots' logs have none */
            char who[32];
            int count = 0;
            cr_assert_eq(sscanf(buf, "relay: %31s %d", who, &count), 2, "'%s'",
                         buf);
            cr_assert(strcmp(who, "none") == 0 || strlen(who) == 19, "'%s'",
                      buf);
        } else {
            cr_assert_eq(sscanf(buf, "ratings: games %d logs %d skipped %d",
                                games, logs, skipped),
                         3, "'%s'", buf);
            cr_assert_eq(nl[1], '\0', "the summary is the last line");
        }
        line = nl + 1;
    }
    return n;
}

Test(cmd_ratings, match_logs_rate_the_same_twice, .timeout = 300)
{
    char dir[64], args[128], first[65536];
    int wdl[3], games, logs, skipped;
    Row rows[8];
    fresh_dir(dir);
    match_logs(dir, wdl);
    snprintf(args, sizeof args, "ratings %s", dir);
    run_into(&run, NULL, args);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.err, "");
    strcpy(first, run.out);
    run_into(&run, NULL, args);
    cr_assert_str_eq(run.out, first, "a second run printed other bytes");
    int n = parse(first, rows, 8, &games, &logs, &skipped);
    /* two bots, two keys; every game finished and both moved */
    cr_assert_eq(n, 2, "%s", first);
    cr_assert_eq(games, 20);
    cr_assert_eq(logs, 20);
    cr_assert_eq(skipped, 0);
    for (int i = 0; i < 2; i++) {
        cr_assert_str_eq(rows[i].game, "laska");
        cr_assert_str_eq(rows[i].klass, "untimed");
        cr_assert_eq(rows[i].games, 20);
    }
    cr_assert_str_neq(rows[0].fp, rows[1].fp);
    cr_assert_geq(rows[0].rating, rows[1].rating, "best first");
    /* Two newcomers who only meet each other move by equal and opposite
     * steps (to the rounding of the last digit), with one RD. */
    cr_assert_leq(abs(rows[0].rating + rows[1].rating - 3000), 1, "%s", first);
    cr_assert_str_eq(rows[0].rd, rows[1].rd);
    if (wdl[0] != wdl[2])
        cr_assert_gt(rows[0].rating, 1500, "%s", first);
    /* RD fell from 350 with 20 games */
    cr_assert_lt(atof(rows[0].rd), 150.0);
    /* --game filters; another game's list is empty */
    snprintf(args, sizeof args, "ratings %s --game laska", dir);
    run_into(&run, NULL, args);
    cr_assert_str_eq(run.out, first);
    snprintf(args, sizeof args, "ratings --game chessball %s", dir);
    run_into(&run, NULL, args);
    cr_assert_eq(run.status, 0);
    cr_assert_str_eq(run.out, "ratings: games 0 logs 20 skipped 0\n");
    sh("rm -rf %s%s", dir, "");
}

/* One game between newcomers, by bc from the paper's formulas (tau 0.5):
 * the winner 1662.311, the loser 1337.689, both RD 290.319 and volatility
 * 0.0599997; a draw leaves both at 1500 with RD 290.319 and volatility
 * 0.0599990. Two copies of the log count as one match. */
Test(cmd_ratings, one_game_by_hand, .timeout = 300)
{
    char dir[64], one[64], args[160];
    int wdl[3], games, logs, skipped;
    Row rows[4];
    match_and_copies(dir, one, wdl);
    sh("cp %s/match-000001.log %s/a.log", dir, one);
    sh("cp %s/match-000001.log %s/b.log", dir, one);
    snprintf(args, sizeof args, "replay %s/a.log", one);
    run_into(&run, NULL, args);
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    int drawn = strstr(run.out, "result: 1/2-1/2") != NULL;
    cr_assert(drawn || strstr(run.out, "result: 1-0") != NULL ||
                  strstr(run.out, "result: 0-1") != NULL,
              "%s", run.out);
    snprintf(args, sizeof args, "ratings %s", one);
    run_into(&run, NULL, args);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_eq(parse(run.out, rows, 4, &games, &logs, &skipped), 2);
    cr_assert_eq(games, 1);
    cr_assert_eq(logs, 2);
    cr_assert_eq(skipped, 0);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(rows[i].games, 1);
        cr_assert_str_eq(rows[i].rd, "290.3");
        cr_assert_str_eq(rows[i].vol, drawn ? "0.059999" : "0.060000");
        cr_assert_eq(rows[i].rating, drawn ? 1500 : i == 0 ? 1662 : 1338);
    }
    cr_assert_not_null(strstr(run.out, "\nrelay: none 2\n"), "%s", run.out);
    /* --relay: a list trusts the relays it names; a bot's log has none,
     * so none of it is rated (a relay a player runs could have witnessed
     * a false absence: the trial of 2026-12-07) */
    snprintf(args, sizeof args, "ratings %s --relay 0RC6-7M6R-TJYP-BCC8",
             one);
    run_into(&run, NULL, args);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_eq(parse(run.out, rows, 4, &games, &logs, &skipped), 0);
    cr_assert_eq(games, 0);
    cr_assert_eq(skipped, 2);
    cr_assert_not_null(strstr(run.err, "a relay not named by --relay"), "%s",
                       run.err);
    sh("rm -rf %s %s", dir, one);
}

Test(cmd_ratings, tampered_log_is_named_and_not_counted, .timeout = 300)
{
    char dir[64], three[64], args[160], path[160];
    int wdl[3], games, logs, skipped;
    Row rows[4];
    match_and_copies(dir, three, wdl);
    sh("cp %s/match-000001.log %s/", dir, three);
    sh("cp %s/match-000002.log %s/", dir, three);
    sh("cp %s/match-000003.log %s/tampered.log", dir, three);
    /* one byte changed in the middle of the file */
    snprintf(path, sizeof path, "%s/tampered.log", three);
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, len / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, len / 2, SEEK_SET);
    fputc(c ^ 0x01, f);
    fclose(f);
    snprintf(args, sizeof args, "ratings %s", three);
    run_into(&run, NULL, args);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.err, path) != NULL, "%s", run.err);
    cr_assert(strstr(run.err, "does not verify") != NULL, "%s", run.err);
    cr_assert(strstr(run.err, "match-000001") == NULL, "%s", run.err);
    parse(run.out, rows, 4, &games, &logs, &skipped);
    cr_assert_eq(games, 2);
    cr_assert_eq(logs, 3);
    cr_assert_eq(skipped, 1);
    sh("rm -rf %s %s", dir, three);
}

Test(cmd_ratings, bad_arguments_exit_2)
{
    run_into(&run, NULL, "ratings");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "name a folder of match logs") != NULL, "%s",
              run.err);
    run_into(&run, NULL, "ratings /nonexistent-tabula-folder");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "cannot read the folder") != NULL, "%s", run.err);
    run_into(&run, NULL, "ratings --game nosuchgame /tmp");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "nosuchgame") != NULL, "%s", run.err);
    run_into(&run, NULL, "ratings /tmp --game");
    cr_assert_eq(run.status, 2);
    run_into(&run, NULL, "ratings /tmp --bogus");
    cr_assert_eq(run.status, 2);
    run_into(&run, NULL, "ratings --help");
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "usage: tabula ratings DIR...") != NULL);
    run_into(&run, NULL, "match laska --a 2 --b 1 --logs /nonexistent-x");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "--logs") != NULL, "%s", run.err);
}
