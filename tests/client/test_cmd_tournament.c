/*
 * test_cmd_tournament.c: `tabula tournament` as scripts see it: the
 * pairings' lines for 6 players typed from FIDE's Berger table (C.05
 * Annex 1), the bye of an odd count, a TRF file's crosstable and a
 * refused file's line and column. Runs the real binary.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "cli_run.h"

static Run r;

/* tabula ARGS exits with status and prints out exactly (out NULL: any). */
static void expect(const char *args, int status, const char *out)
{
    run_into(&r, NULL, args);
    cr_assert_eq(r.status, status, "%s: %s", args, r.err);
    if (out != NULL)
        cr_assert_str_eq(r.out, out, "%s", args);
}

Test(cmd_tournament, pairings_are_the_berger_table)
{
    expect("tournament pairings --players 6", 0,
           "round 1: 1-6 2-5 3-4\nround 2: 6-4 5-3 1-2\n"
           "round 3: 2-6 3-1 4-5\nround 4: 6-5 1-4 2-3\n"
           "round 5: 3-6 4-2 5-1\n");
    /* 3 players: the 4-player table, 4 the bye; then reversed */
    expect("tournament pairings --players 3 --double", 0,
           "round 1: 1-bye 2-3\nround 2: bye-3 1-2\nround 3: 2-bye 3-1\n"
           "round 4: bye-1 3-2\nround 5: 3-bye 2-1\nround 6: bye-2 1-3\n");
    expect("tournament pairings --players 17", 2, NULL);
    expect("tournament pairings", 2, NULL);
}

Test(cmd_tournament, trf_crosstable_and_refusal)
{
    char path[] = "/tmp/tabula-trf-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    /* 2 beat 1 with Black (columns: rank 5-8, name 15-47, round 92-99) */
    fprintf(f,
            "012 Two\n"
            "001    1      %-33s%33s 0.0    2  0002 w 0\n"
            "001    2      %-33s%33s 1.0    1  0001 b 1\n",
            "Ann & <Bo>", "", "Cyd", "");
    fclose(f);
    char args[256];
    snprintf(args, sizeof args, "tournament trf %s", path);
    run_into(&r, NULL, args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(
        r.out,
        "Two\n\n"
        "  # Name                     1 2   Pts     BH  BH-C1      SB\n"
        "  1 Cyd                      x 1     1      0      0    0.00\n"
        "  2 Ann & <Bo>               0 x     0      1      0    0.00\n");
    snprintf(args, sizeof args, "tournament trf %s --html", path);
    run_into(&r, NULL, args);
    cr_assert_not_null(strstr(r.out, "<td>Ann &amp; &lt;Bo&gt;</td>"), "%s",
                       r.out);
    f = fopen(path, "w");
    fputs("001    1      A\n001    1      B\n", f);
    fclose(f);
    snprintf(args, sizeof args, "tournament trf %s", path);
    run_into(&r, NULL, args);
    remove(path);
    cr_assert_eq(r.status, 1);
    char want[256];
    snprintf(want, sizeof want,
             "tabula tournament: %s:2:5: a starting rank given twice\n", path);
    cr_assert_str_eq(r.err, want);
}
