/*
 * test_cmd_swiss.c: `tabula tournament swiss-pair` as scripts see it:
 * the next round of a published Swiss (tests/club/trf/dsc_forfeit.trf,
 * whose source published round 2 as 1-3 4-5 6-2), a round of a file
 * re-paired (round 1 worked out by hand, and as a file published it),
 * and the refusals. Runs the real
 * binary.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "cli_run.h"

static Run r;

static void expect(const char *file, const char *extra, int status,
                   const char *out)
{
    char args[512];
    snprintf(args, sizeof args, "tournament swiss-pair %s/tests/club/trf/%s%s",
             TABULA_SOURCE_DIR, file, extra);
    run_into(&r, NULL, args);
    cr_assert_eq(r.status, status, "%s: %s", args, r.err);
    if (out != NULL)
        cr_assert_str_eq(r.out, out, "%s", args);
}

Test(cmd_swiss, next_round_and_a_round_again)
{
    /* the file has round 1; round 2 is the next (boards by score) */
    expect("dsc_forfeit.trf", "", 0, "round 2: 1-3 4-5 6-2\n");
    expect("dsc_forfeit.trf", " --round 2", 0, "round 2: 1-3 4-5 6-2\n");
    /* round 1 by the rules (the file's own round 1, 1-2 3-4 5-6, is not
     * a Dutch pairing): S1 {1, 2, 3} against S2 {4, 5, 6}, White the
     * initial-colour (1 had it), so 1 and 3 (odd) White, 2 Black (E.5) */
    expect("dsc_forfeit.trf", " --round 1", 0, "round 1: 1-4 5-2 3-6\n");
    /* the C9 file's round 1 as published: 5 had no opponent and is left
     * out; 1-3, 2-4 with 1 White */
    expect("bbp_dutch_2025_C9.trf", " --round 1", 0, "round 1: 1-3 4-2\n");
}

Test(cmd_swiss, refusals)
{
    expect("dsc_forfeit.trf", " --round 3", 2, "");
    cr_assert(strstr(r.err, "round 3 cannot be paired yet") != NULL, "%s",
              r.err);
    expect("dsc_forfeit.trf", " --round 0", 2, "");
    expect("dsc_forfeit.trf", " --html", 2, NULL);
    expect("missing.trf", "", 1, "");
}
