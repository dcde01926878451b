/*
 * test_match.c: `tabula match` and `tabula analyse` as scripts see them:
 * a seed with a node budget gives the same games twice and with any
 * number of jobs, bad arguments exit 2 naming the token, an openings
 * file is checked line by line, and the output lines keep their shape.
 * Runs the real binary.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"

/* Run `tabula ARGS` (already shell-quoted) into *r. */
static void run(Run *r, const char *args)
{
    run_into(r, NULL, args);
}

static Run r1, r2;

Test(match, same_seed_same_games_with_any_jobs)
{
    static const char *const games[] = {"laska", "chessball", "football",
                                        "volleyball", "volleyball10"};
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
        cr_assert_str_eq(r1.out, r2.out, "%s", games[i]);
        cr_assert_str_eq(r1.err, r2.err, "%s", games[i]);
    }
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

Test(match, bad_arguments_exit_2)
{
    run(&r1, "match laska --a 1 --b 9");
    cr_assert_eq(r1.status, 2);
    cr_assert_not_null(strstr(r1.err, "bad --b '9'"), "%s", r1.err);
    run(&r1, "match laska --a 1:fast --b 1");
    cr_assert_eq(r1.status, 2);
    cr_assert_not_null(strstr(r1.err, "unknown option"), "%s", r1.err);
    run(&r1, "match laska --a 1 --b 1 --games 3");
    cr_assert_eq(r1.status, 2);
    cr_assert_not_null(strstr(r1.err, "bad --games '3'"), "%s", r1.err);
    run(&r1, "match laska --a 1 --b 1 --nodes 10 --time 10");
    cr_assert_eq(r1.status, 2);
    run(&r1, "match laska --a 1 --b 1 --sprt 5");
    cr_assert_eq(r1.status, 2);
    cr_assert_not_null(strstr(r1.err, "bad --sprt '5'"), "%s", r1.err);
    run(&r1, "match chess --a 1 --b 1");
    cr_assert_eq(r1.status, 2);
    run(&r1, "match laska --a 1");
    cr_assert_eq(r1.status, 2);
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
    f = fopen(path, "w");
    fputs("w c1w e3w\nw d4q\n", f);
    fclose(f);
    run(&r1, args);
    cr_assert_eq(r1.status, 2);
    cr_assert_not_null(strstr(r1.err, "line 2"), "%s", r1.err);
    remove(path);
}
