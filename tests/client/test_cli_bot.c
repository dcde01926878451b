/*
 * test_cli_bot.c: a bot as the commands take it (`tabula match --a`,
 * `tabula analyse --level`): cli_bot_spec reads "LEVEL[:OPTS]" and names
 * what was wrong.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "cli.h"
#include "engine.h"
#include "tb_error.h"

Test(cli_bot, spec_reads_levels_and_options)
{
    Bot_Limits lim;
    char why[128];
    cr_assert_eq(cli_bot_spec("3", &lim, why, sizeof why), 0);
    cr_assert_eq(lim.level, 3);
    cr_assert_eq(lim.old, 0);
    cr_assert_eq(lim.depth, 0);
    cr_assert_eq(lim.nodes, 0);
    cr_assert_eq(cli_bot_spec("8:old:depth=16:nodes=5000", &lim, why,
                                sizeof why),
                 0);
    cr_assert_eq(lim.level, 8);
    cr_assert_eq(lim.old, 1);
    cr_assert_eq(lim.depth, 16);
    cr_assert_eq(lim.nodes, 5000);
    static const char *const bad[] = {"",        "0",         "9",
                                      "3:",      "3:fast",    "3:depth=0",
                                      "3:depth=61", "3:nodes=", "3:nodes=x",
                                      "x",       "3x",        "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(cli_bot_spec(bad[i], &lim, why, sizeof why), TB_E_ARG,
                     "'%s'", bad[i]);
    /* The reason names what was wrong: a known option's value, or a
     * second choice of search (which one would win is not obvious). */
    static const char *const why_of[][2] = {
        {"3:depth=x", "depth must be 1..60"},
        {"3:depth=61", "depth must be 1..60"},
        {"3:nodes=1099511627777", "nodes must be 1..2^40"},
        {"3:classic:old", "one search only: old, classic or new"},
        {"3:new:new", "one search only: old, classic or new"},
        {"3:fast", "unknown option; expected old, classic, new, depth=1..60 "
                   "or nodes=N"},
    };
    for (size_t i = 0; i < sizeof why_of / sizeof why_of[0]; i++) {
        cr_assert_eq(cli_bot_spec(why_of[i][0], &lim, why, sizeof why),
                     TB_E_ARG, "'%s'", why_of[i][0]);
        cr_assert_str_eq(why, why_of[i][1], "'%s'", why_of[i][0]);
    }
    cr_assert_eq(cli_bot_spec("3:nodes=1099511627776", &lim, why, sizeof why),
                 0);
    cr_assert_eq(lim.nodes, UINT64_C(1) << 40);
}

