/*
 * test_numbers.c: core's one number reader (core_read_uint) and the
 * games that read numbers with it: one spelling per number (no leading
 * zero), the bounds exact. Expected values worked out by hand.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "core.h"
#include "core_internal.h"

Test(numbers, one_reader_one_spelling_bounds_exact)
{
    static const struct {
        const char *text;
        uint64_t max;
        int rc;
        uint64_t value;
        size_t used;
    } rows[] = {
        {"0", 9, 0, 0, 1},
        {"7", 9, 0, 7, 1},
        {"07", 9, -1, 0, 0},
        {"00", 9, -1, 0, 0},
        {"0x", 9, 0, 0, 1}, /* a zero, then something else */
        {"25-13", 25, 0, 25, 2},
        {"26", 25, -1, 0, 0},
        {"", 9, -1, 0, 0},
        {"-1", 9, -1, 0, 0},
        {"+1", 9, -1, 0, 0},
        {"18446744073709551615", UINT64_MAX, 0, UINT64_MAX, 20},
        {"18446744073709551616", UINT64_MAX, -1, 0, 0},
        {"99999999999999999999", UINT64_MAX, -1, 0, 0},
        {"9999999999", 9999999999u, 0, 9999999999u, 10},
        {"10000000000", 9999999999u, -1, 0, 0},
        {"5", 0, -1, 0, 0},
        {"0", 0, 0, 0, 1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *p = rows[i].text;
        uint64_t v = 12345;
        int rc = core_read_uint(&p, rows[i].max, &v);
        cr_expect_eq(rc, rows[i].rc, "'%s'", rows[i].text);
        cr_expect_eq((size_t)(p - rows[i].text), rows[i].used, "'%s'",
                     rows[i].text);
        if (rc == 0)
            cr_expect_eq(v, rows[i].value, "'%s'", rows[i].text);
    }
    uint64_t v;
    cr_expect_eq(core_read_uint_all("12", 2, 99, &v), 0);
    cr_expect_eq(v, 12);
    cr_expect_eq(core_read_uint_all("12a", 3, 99, &v), -1);
    cr_expect_eq(core_read_uint_all("12 ", 2, 99, &v), 0); /* the first 2 */
    cr_expect_eq(core_read_uint_all("", 0, 99, &v), -1);
}

/* text parsed as a position of game (options "") or as its options:
 * rc is 0 or the error. */
static int position(const char *game, const char *text)
{
    Core_Position *pos = NULL;
    cr_assert_eq(core_position_new(&pos, core_game_find(game), ""), 0);
    int rc = core_position_parse(pos, text, NULL, 0);
    core_position_free(pos);
    return rc;
}

static int options(const char *game, const char *opts)
{
    Core_Position *pos = NULL;
    int rc = core_position_new(&pos, core_game_find(game), opts);
    core_position_free(pos);
    return rc;
}

Test(numbers, every_game_refuses_a_leading_zero)
{
    /* Laska: the counters of a position (docs/rules/laska.md) */
    cr_expect_eq(position("laska", "w a1w 5 9"), 0);
    cr_expect_eq(position("laska", "w a1w 05 9"), TB_E_POSITION);
    cr_expect_eq(position("laska", "w a1w 5 09"), TB_E_POSITION);
    /* Football chess: goals=N (D-FC-7) */
    cr_expect_eq(options("football", "goals=3"), 0);
    cr_expect_eq(options("football", "goals=03"), TB_E_OPTION);
    cr_expect_eq(options("football", "goals=0"), TB_E_OPTION);
    /* Chess volleyball: a set's length, setN=M */
    cr_expect_eq(options("volleyball", "set1=5"), 0);
    cr_expect_eq(options("volleyball", "set1=05"), TB_E_OPTION);
}
