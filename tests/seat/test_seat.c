/*
 * test_seat.c: the seat layer's policies (seat/seat.h), each value
 * worked out by hand from the rule as seat.h states it: the first wait
 * (6000 after TB_E_RATE, 100 for the host, 2000 for the others after
 * TB_E_CODE, 1000 otherwise), doubled each failed attempt up to 8000; and
 * clocks as chess players write them.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "match.h"
#include "seat.h"
#include "tb_error.h"

Test(seat, retry_waits_double_from_the_role_and_reason_up_to_eight_seconds)
{
    static const struct {
        int role, reason;
        unsigned attempt;
        uint32_t ms;
    } rows[] = {
        {MATCH_ROLE_HOST, 0, 0, 100},      {MATCH_ROLE_HOST, 0, 1, 200},
        {MATCH_ROLE_HOST, 0, 2, 400},      {MATCH_ROLE_HOST, 0, 3, 800},
        {MATCH_ROLE_HOST, 0, 4, 1600},     {MATCH_ROLE_HOST, 0, 5, 3200},
        {MATCH_ROLE_HOST, 0, 6, 6400},     {MATCH_ROLE_HOST, 0, 7, 8000},
        {MATCH_ROLE_HOST, 0, 40, 8000},    {MATCH_ROLE_HOST, 0, 4000000000u, 8000},
        /* a host refused for a code it made (no room yet) comes back first */
        {MATCH_ROLE_HOST, TB_E_CODE, 0, 100},
        {MATCH_ROLE_GUEST, 0, 0, 1000},    {MATCH_ROLE_GUEST, 0, 1, 2000},
        {MATCH_ROLE_GUEST, 0, 2, 4000},    {MATCH_ROLE_GUEST, 0, 3, 8000},
        {MATCH_ROLE_GUEST, 0, 9, 8000},
        {MATCH_ROLE_GUEST, TB_E_CODE, 0, 2000},
        {MATCH_ROLE_GUEST, TB_E_CODE, 1, 4000},
        {MATCH_ROLE_GUEST, TB_E_CODE, 2, 8000},
        {MATCH_ROLE_SPECTATOR, 0, 0, 1000},
        {MATCH_ROLE_SPECTATOR, TB_E_CODE, 0, 2000},
        {MATCH_ROLE_SPECTATOR, TB_E_RATE, 0, 6000},
        {MATCH_ROLE_SPECTATOR, TB_E_RATE, 1, 8000},
        {MATCH_ROLE_HOST, TB_E_RATE, 0, 6000},
        {MATCH_ROLE_GUEST, TB_E_SEAT, 0, 1000},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        cr_expect_eq(seat_retry_ms(rows[k].role, rows[k].reason, rows[k].attempt),
                     rows[k].ms, "row %zu: role %d reason %d attempt %u", k,
                     rows[k].role, rows[k].reason, rows[k].attempt);
    cr_expect_eq(SEAT_GIVE_UP_MS, 60000u);
}

Test(seat, clocks_as_chess_players_write_them)
{
    static const struct {
        const char *options, *clock, *want;
    } rows[] = {
        {"", "5+3", "clock=300+3"},
        {"", "5+3s", "clock=300+3"},
        {"", "30s+1", "clock=30+1"},
        {"", "30s+1s", "clock=30+1"},
        {"", "1440+0", "clock=86400+0"},
        {"", "1+3600", "clock=60+3600"},
        {"", "007+02", "clock=420+2"},
        {"goals=3", "5+3", "goals=3,clock=300+3"},
        {"goals=3", NULL, "goals=3"},
        {"", NULL, ""},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        char out[300];
        cr_assert_eq(seat_clock_options(rows[k].options, rows[k].clock, out,
                                        sizeof out),
                     0, "row %zu (%s)", k, rows[k].clock);
        cr_expect_str_eq(out, rows[k].want, "row %zu", k);
    }
}

Test(seat, clocks_refused)
{
    static const char *const bad[] = {
        "",       "5",      "+3",     "5+",    "-5+3",   "5+-3",  " 5+3",
        "5+3 ",   "5+3x",   "5s",     "0+3",   "0s+0",   "1441+0", "86401s+0",
        "5+3601", "5++3",   "5ss+3",  "5+3ss", "5m+3",   "1e3+0",
        "99999999999+0",
    };
    char out[300];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        cr_expect_eq(seat_clock_options("", bad[k], out, sizeof out),
                     TB_E_OPTION, "'%s'", bad[k]);
    /* one clock only: the options may not hold one already */
    cr_expect_eq(seat_clock_options("clock=60+0", "5+3", out, sizeof out),
                 TB_E_ARG);
    cr_expect_eq(seat_clock_options("goals=3,clock=60+0", "5+3x", out,
                                    sizeof out),
                 TB_E_ARG);
    cr_expect_eq(seat_clock_options("", "5+3", out, 11), TB_E_SPACE);
    cr_expect_eq(seat_clock_options("", "5+3", out, 12), 0);
    cr_expect_str_eq(out, "clock=300+3");
    cr_expect_neq(strstr(seat_clock_bad(), "bad clock '%s'"), NULL);
}

Test(seat, refusals_that_end_a_seat_let_in)
{
    /* pass: the relay may let the seat in again */
    cr_expect_eq(seat_refusal_ends(0), 0);
    cr_expect_eq(seat_refusal_ends(TB_E_CODE), 0);
    cr_expect_eq(seat_refusal_ends(TB_E_RATE), 0);
    cr_expect_eq(seat_refusal_ends(TB_E_FULL), 0);
    /* a connection with another secret holds the seat: it may leave */
    cr_expect_eq(seat_refusal_ends(TB_E_SEAT), 0);
    /* end: a connection with the seat's own key took it, or the relay
     * never will let it in */
    cr_expect_eq(seat_refusal_ends(TB_E_REPLACED), 1);
    cr_expect_eq(seat_refusal_ends(TB_E_VERSION), 1);
    cr_expect_eq(seat_refusal_ends(TB_E_SIGNATURE), 1);
    cr_expect_eq(seat_refusal_ends(TB_E_WATCH_CODE), 1);
    cr_expect_eq(seat_refusal_ends(TB_E_LIMIT), 1);
    cr_expect_eq(seat_refusal_ends(TB_E_STATE), 1);
    cr_expect_eq(seat_refusal_ends(TB_E_FORMAT), 1);
}
