/*
 * test_berger.c: the round robin's pairings (club_berger_round) against
 * FIDE's Berger tables (Handbook C.05 Annex 1), two ways that share
 * nothing with the library's rotation:
 *  - tables typed by hand from the published text (4, 6, 8 and 10
 *    players whole; 12 and 14 players' rounds 1-3 and last), as printed
 *    e.g. at c.w.fox.tripod.com/chess/berger.html and in the FIDE
 *    Annex: "Rd 1: 1-6, 2-5, 3-4. Rd 2: 6-4, 5-3, 1-2. ...";
 *  - for every count 3..16, the tables' arithmetic: with N even (an odd
 *    count adds the dummy N) and m = N-1, players i, j < N meet in round
 *    r when i + j = r + 1 (mod m), N meets the i with 2i = r + 1 (mod m);
 *    of i, j < N White is the lower number when i + j is odd and the
 *    higher when it is even; N has Black in odd rounds, White in even.
 * A double round robin repeats the cycle with the colours reversed.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tb_error.h"
#include "tourney.h"

/* "1-6 2-5 3-4" for round `round`, the dummy written as N. */
static void round_text(int n, int dbl, int round, char *buf, size_t size)
{
    Club_Pairing b[CLUB_BERGER_MAX / 2];
    int nb = 0, even = n + (n & 1);
    size_t len = 0;
    cr_assert_eq(club_berger_round(n, dbl, round, b, &nb), 0);
    cr_assert_eq(nb, even / 2);
    buf[0] = '\0';
    for (int k = 0; k < nb; k++) {
        int w = b[k].white ? b[k].white : even;
        int bl = b[k].black ? b[k].black : even;
        len += (size_t)snprintf(buf + len, size - len, "%s%d-%d", k ? " " : "",
                                w, bl);
    }
}

struct typed {
    int n, round;
    const char *pairs;
};

/* Typed from the published tables. */
static const struct typed tables[] = {
    {4, 1, "1-4 2-3"},
    {4, 2, "4-3 1-2"},
    {4, 3, "2-4 3-1"},
    {6, 1, "1-6 2-5 3-4"},
    {6, 2, "6-4 5-3 1-2"},
    {6, 3, "2-6 3-1 4-5"},
    {6, 4, "6-5 1-4 2-3"},
    {6, 5, "3-6 4-2 5-1"},
    {8, 1, "1-8 2-7 3-6 4-5"},
    {8, 2, "8-5 6-4 7-3 1-2"},
    {8, 3, "2-8 3-1 4-7 5-6"},
    {8, 4, "8-6 7-5 1-4 2-3"},
    {8, 5, "3-8 4-2 5-1 6-7"},
    {8, 6, "8-7 1-6 2-5 3-4"},
    {8, 7, "4-8 5-3 6-2 7-1"},
    {10, 1, "1-10 2-9 3-8 4-7 5-6"},
    {10, 2, "10-6 7-5 8-4 9-3 1-2"},
    {10, 3, "2-10 3-1 4-9 5-8 6-7"},
    {10, 4, "10-7 8-6 9-5 1-4 2-3"},
    {10, 5, "3-10 4-2 5-1 6-9 7-8"},
    {10, 6, "10-8 9-7 1-6 2-5 3-4"},
    {10, 7, "4-10 5-3 6-2 7-1 8-9"},
    {10, 8, "10-9 1-8 2-7 3-6 4-5"},
    {10, 9, "5-10 6-4 7-3 8-2 9-1"},
    {12, 1, "1-12 2-11 3-10 4-9 5-8 6-7"},
    {12, 2, "12-7 8-6 9-5 10-4 11-3 1-2"},
    {12, 3, "2-12 3-1 4-11 5-10 6-9 7-8"},
    {12, 11, "6-12 7-5 8-4 9-3 10-2 11-1"},
    {14, 1, "1-14 2-13 3-12 4-11 5-10 6-9 7-8"},
    {14, 2, "14-8 9-7 10-6 11-5 12-4 13-3 1-2"},
    {14, 3, "2-14 3-1 4-13 5-12 6-11 7-10 8-9"},
    {14, 13, "7-14 8-6 9-5 10-4 11-3 12-2 13-1"},
};

Test(berger, equals_the_typed_tables)
{
    char buf[128];
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        round_text(tables[i].n, 0, tables[i].round, buf, sizeof buf);
        cr_assert_str_eq(buf, tables[i].pairs, "%d players, round %d",
                         tables[i].n, tables[i].round);
        /* the odd count below plays the same table, N the dummy */
        round_text(tables[i].n - 1, 0, tables[i].round, buf, sizeof buf);
        cr_assert_str_eq(buf, tables[i].pairs, "%d players, round %d",
                         tables[i].n - 1, tables[i].round);
    }
}

/* residue of x in 1..m */
static int mod1(int x, int m)
{
    return ((x - 1) % m + m) % m + 1;
}

Test(berger, every_count_follows_the_tables_arithmetic)
{
    for (int n = CLUB_BERGER_MIN; n <= CLUB_BERGER_MAX; n++) {
        int even = n + (n & 1), m = even - 1;
        cr_assert_eq(club_berger_rounds(n, 0), m);
        cr_assert_eq(club_berger_rounds(n, 1), 2 * m);
        int met[17][17] = {{0}};
        for (int r = 1; r <= m; r++) {
            Club_Pairing b[8];
            int nb = 0;
            cr_assert_eq(club_berger_round(n, 0, r, b, &nb), 0);
            cr_assert_eq(nb, even / 2);
            int seen[17] = {0};
            for (int k = 0; k < nb; k++) {
                int w = b[k].white ? b[k].white : even;
                int bl = b[k].black ? b[k].black : even;
                cr_assert(w != bl && w <= even && bl <= even && w > 0 &&
                          bl > 0);
                cr_assert(!seen[w] && !seen[bl], "%d: round %d twice", n, r);
                seen[w] = seen[bl] = 1;
                met[w][bl]++;
                met[bl][w]++;
                if (w == even || bl == even) {
                    int other = w == even ? bl : w;
                    cr_assert_eq(mod1(2 * other, m), mod1(r + 1, m),
                                 "%d players round %d: %d-%d", n, r, w, bl);
                    cr_assert_eq(w == even, r % 2 == 0,
                                 "%d players round %d: N's colour", n, r);
                } else {
                    cr_assert_eq(mod1(w + bl, m), mod1(r + 1, m),
                                 "%d players round %d: %d-%d", n, r, w, bl);
                    int lo = w < bl ? w : bl;
                    int white = (w + bl) % 2 ? lo : w + bl - lo;
                    cr_assert_eq(w, white, "%d players round %d: %d-%d", n, r,
                                 w, bl);
                }
                /* the dummy is written 0 */
                cr_assert_eq(b[k].white == 0 || b[k].black == 0,
                             n % 2 == 1 && (w == even || bl == even));
            }
        }
        for (int i = 1; i <= even; i++)
            for (int j = 1; j <= even; j++)
                cr_assert_eq(met[i][j], i != j, "%d players: %d met %d", n, i,
                             j);
    }
}

Test(berger, second_cycle_reverses_the_colours)
{
    for (int n = CLUB_BERGER_MIN; n <= CLUB_BERGER_MAX; n++) {
        int m = club_berger_rounds(n, 0);
        for (int r = 1; r <= m; r++) {
            Club_Pairing a[8], b[8];
            int na = 0, nb = 0;
            cr_assert_eq(club_berger_round(n, 1, r, a, &na), 0);
            cr_assert_eq(club_berger_round(n, 1, r + m, b, &nb), 0);
            cr_assert_eq(na, nb);
            for (int k = 0; k < na; k++) {
                cr_assert_eq(a[k].white, b[k].black);
                cr_assert_eq(a[k].black, b[k].white);
            }
        }
    }
    char buf[64];
    round_text(6, 1, 6, buf, sizeof buf); /* round 1 of 6, reversed */
    cr_assert_str_eq(buf, "6-1 5-2 4-3");
}

Test(berger, refuses_what_the_tables_lack)
{
    Club_Pairing b[8];
    int nb;
    cr_assert_eq(club_berger_rounds(2, 0), TB_E_ARG);
    cr_assert_eq(club_berger_rounds(17, 0), TB_E_ARG);
    cr_assert_eq(club_berger_round(6, 0, 0, b, &nb), TB_E_ARG);
    cr_assert_eq(club_berger_round(6, 0, 6, b, &nb), TB_E_ARG);
    cr_assert_eq(club_berger_round(6, 1, 11, b, &nb), TB_E_ARG);
    cr_assert_eq(club_berger_round(6, 0, 1, NULL, &nb), TB_E_ARG);
}
