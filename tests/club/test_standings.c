/*
 * test_standings.c: points and tie-breaks (club_standings) on small
 * tournaments whose every figure is worked out by hand in the comments,
 * in half points (a win 2, a draw 1), from the rules of docs/tournaments.md:
 * FIDE's "virtual opponent" for a player's own unplayed rounds, Svon =
 * SPR + (1 - SfPR) + 0.5 (n - R), and the opponents' unplayed rounds
 * counted as draws.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tb_error.h"
#include "core.h"
#include "tourney.h"

/*
 * Five players, single round robin (Berger, 6 with the dummy):
 *   R1: 1 bye, 2-5 1-0, 3-4 1/2     R2: 4 bye, 5-3 0-1, 1-2 1/2
 *   R3: 2 bye, 3-1 0-1, 4-5 1-0     R4: 5 bye, 1-4 0-1, 2-3 1-0
 *   R5: 3 bye, 4-2 1/2, 5-1 0-1
 * Each bye is a pairing-allocated bye worth 1 (the default).
 * Scores: 1 (A) 2.5+1 = 7 half points, 2 (B) 3+1 = 8, 3 (C) 1.5+1 = 5,
 *         4 (D) 8, 5 (E) 0+1 = 2.
 * The opponents' adjusted scores (the bye counted as a draw, 1 not 2):
 *         A 6, B 7, C 4, D 7, E 1.
 */
/* Each {round, player, result} of rows[0..n) recorded. */
static void set_results(Club_Tourney *t, const int (*rows)[3], size_t n)
{
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(club_tourney_set_result(t, rows[i][0], rows[i][1],
                                             (Club_Result)rows[i][2]),
                     0, "row %zu", i);
}

static Club_Tourney *five(void)
{
    Club_Tourney *t = club_tourney_new();
    cr_assert_not_null(t);
    const char *names[] = {"Anna", "Boris", "Cyril", "Dana", "Emil"};
    for (int i = 0; i < 5; i++)
        cr_assert_eq(club_tourney_add_player(t, names[i], 0), i + 1);
    cr_assert_eq(club_tourney_round_robin(t, 0), 0);
    cr_assert_eq(t->nrounds, 5);
    /* the schedule is the table's */
    cr_assert_eq(t->players[0].games[0].result, CLUB_RES_BYE_PAIRING);
    cr_assert_eq(t->players[1].games[0].opponent, 5);
    cr_assert_eq(t->players[1].games[0].colour, CLUB_COLOUR_WHITE);
    static const int games[][3] = {
        {1, 2, CLUB_RES_WIN},  {1, 3, CLUB_RES_DRAW}, {2, 5, CLUB_RES_LOSS},
        {2, 1, CLUB_RES_DRAW}, {3, 3, CLUB_RES_LOSS}, {3, 4, CLUB_RES_WIN},
        {4, 1, CLUB_RES_LOSS}, {4, 2, CLUB_RES_WIN},  {5, 4, CLUB_RES_DRAW},
        {5, 1, CLUB_RES_WIN}, /* (given from Black's side: 1 won) */
    };
    set_results(t, games, sizeof games / sizeof games[0]);
    return t;
}

Test(standings, five_player_round_robin_by_hand)
{
    Club_Tourney *t = five();
    Club_Standing s[5];
    cr_assert_eq(club_standings(t, 0, NULL, NULL, 0, s), 0);
    /*
     * B: R1 E 1, R2 A 6, R3 bye: SPR 3 (2+1), SfPR 2: 3+0+1*(5-3) = 5,
     *    R4 C 4, R5 D 7. BH 23, cut 1 22 (less E's 1),
     *    SB 2*1 + 1*6 + 2*5 + 2*4 + 1*7 = 33.
     * D: R1 C 4, R2 bye: SPR 1, SfPR 2: 1+0+1*(5-2) = 4, R3 E 1, R4 A 6,
     *    R5 B 7. BH 22, cut 1 21, SB 1*4 + 2*4 + 2*1 + 2*6 + 1*7 = 33.
     * B and D drew: direct encounter 1 each, no split; Buchholz cut 1
     * 22 > 21 puts B first.
     * A: R1 bye: 0+0+1*4 = 4, R2 B 7, R3 C 4, R4 D 7, R5 E 1: BH 23,
     *    cut 1 22, SB 2*4 + 1*7 + 2*4 + 0 + 2*1 = 25.
     * C: R1 D 7, R2 E 1, R3 A 6, R4 B 7, R5 bye: SPR 3, 3+0+0 = 3:
     *    BH 24, cut 1 23, SB 1*7 + 2*1 + 2*3 = 15.
     * E: R1 B 7, R2 C 4, R3 D 7, R4 bye: 0+0+1*1 = 1, R5 A 6: BH 25,
     *    cut 1 24, SB 2*1 = 2.
     */
    static const Club_Standing want[5] = {
        {.player = 2,
         .rank = 1,
         .points = 8,
         .buchholz = 23,
         .buchholz_cut1 = 22,
         .sonneborn = 33,
         .direct = 1},
        {.player = 4,
         .rank = 2,
         .points = 8,
         .buchholz = 22,
         .buchholz_cut1 = 21,
         .sonneborn = 33,
         .direct = 1},
        {.player = 1,
         .rank = 3,
         .points = 7,
         .buchholz = 23,
         .buchholz_cut1 = 22,
         .sonneborn = 25},
        {.player = 3,
         .rank = 4,
         .points = 5,
         .buchholz = 24,
         .buchholz_cut1 = 23,
         .sonneborn = 15},
        {.player = 5,
         .rank = 5,
         .points = 2,
         .buchholz = 25,
         .buchholz_cut1 = 24,
         .sonneborn = 2},
    };
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(s[i].player, want[i].player, "place %d", i + 1);
        cr_assert_eq(s[i].rank, want[i].rank, "place %d", i + 1);
        cr_assert_eq(s[i].points, want[i].points, "place %d", i + 1);
        cr_assert_eq(s[i].buchholz, want[i].buchholz, "place %d", i + 1);
        cr_assert_eq(s[i].buchholz_cut1, want[i].buchholz_cut1, "place %d",
                     i + 1);
        cr_assert_eq(s[i].sonneborn, want[i].sonneborn, "place %d", i + 1);
        cr_assert_eq(s[i].direct, want[i].direct, "place %d", i + 1);
    }
    /* Sonneborn-Berger alone: B and D 33 each, they share first place
     * and stay in starting-rank order; A is third. */
    Club_Tiebreak sb = CLUB_TB_SONNEBORN;
    cr_assert_eq(club_standings(t, 0, NULL, &sb, 1, s), 0);
    cr_assert_eq(s[0].player, 2);
    cr_assert_eq(s[0].rank, 1);
    cr_assert_eq(s[1].player, 4);
    cr_assert_eq(s[1].rank, 1);
    cr_assert_eq(s[2].rank, 3);
    /* After two rounds: B 1+... R1 win 2, R2 draw 1 = 3; C 1+2 = 3;
     * A bye 2 + draw 1 = 3; D draw 1 + bye 2 = 3; E 0. No tie-break
     * order (norder 0): all four share place 1 in starting-rank order. */
    cr_assert_eq(club_standings(t, 2, NULL, &sb, 0, s), 0);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(s[i].points, 3);
        cr_assert_eq(s[i].rank, 1);
        cr_assert_eq(s[i].player, i + 1);
    }
    cr_assert_eq(s[4].rank, 5);
    club_tourney_free(t);
}

Test(standings, withdrawal_makes_forfeits_and_virtual_opponents)
{
    Club_Tourney *t = five();
    /* E leaves before round 4: the R4 bye becomes an absence (0), R5's
     * game against A a forfeit: A +, E -. */
    for (int r = 4; r <= 5; r++) /* take back the two last results */
        for (int p = 0; p < 5; p++)
            if (t->players[p].games[r - 1].opponent != 0)
                t->players[p].games[r - 1].result = CLUB_RES_PENDING;
    cr_assert_eq(club_tourney_withdraw(t, 5, 4), 0);
    cr_assert_eq(t->players[4].games[3].result, CLUB_RES_ABSENT);
    cr_assert_eq(t->players[4].games[4].result, CLUB_RES_FORFEIT_LOSS);
    cr_assert_eq(t->players[0].games[4].result, CLUB_RES_FORFEIT_WIN);
    static const int again[][3] = {
        {4, 1, CLUB_RES_LOSS}, {4, 2, CLUB_RES_WIN}, {5, 4, CLUB_RES_DRAW}};
    set_results(t, again, 3);
    Club_Standing s[5];
    cr_assert_eq(club_standings(t, 0, NULL, NULL, 0, s), 0);
    /*
     * Scores: A 7 (the forfeit is worth a win), B 8, C 5, D 8, E 0.
     * Adjusted: A plays B 1, C 2, D 0, unplayed R1 and R5 count 1 each:
     * 5; E 0+0+0 played, R4 and R5 unplayed 1 each: 2; B 7, C 4, D 7.
     * A: R1 bye 4, R2 B 7, R3 C 4, R4 D 7, R5 forfeit: SPR 5 (2+1+2+0),
     *    SfPR 2: 5+0+0 = 5. BH 27, cut 1 23, SB 2*4+1*7+2*4+0+2*5 = 33.
     * B: R1 E 2, R2 A 5, R3 bye 5, R4 C 4, R5 D 7: BH 23, cut 1 21.
     * C: R1 D 7, R2 E 2, R3 A 5, R4 B 7, R5 bye 3: BH 24, cut 1 22.
     * D: R1 C 4, R2 bye 4, R3 E 2, R4 A 5, R5 B 7: BH 22, cut 1 20.
     * E: R1 B 7, R2 C 4, R3 D 7, R4 absent: SPR 0, SfPR 0: 0+2+1*1 = 3,
     *    R5 forfeit lost: 0+2+0 = 2. BH 23, cut 1 21, SB 0.
     */
    int want_player[5] = {2, 4, 1, 3, 5};
    int want_points[5] = {8, 8, 7, 5, 0};
    int want_bh[5] = {23, 22, 27, 24, 23};
    int want_c1[5] = {21, 20, 23, 22, 21};
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(s[i].player, want_player[i], "place %d", i + 1);
        cr_assert_eq(s[i].points, want_points[i], "place %d", i + 1);
        cr_assert_eq(s[i].buchholz, want_bh[i], "place %d", i + 1);
        cr_assert_eq(s[i].buchholz_cut1, want_c1[i], "place %d", i + 1);
    }
    cr_assert_eq(s[2].sonneborn, 33);
    cr_assert_eq(s[4].sonneborn, 0);
    club_tourney_free(t);
}

/*
 * Chess volleyball's table (the seed: 3 for 2-0, 2 and 1 after a
 * tie-break set), four players, Berger 1-4 2-3 / 4-3 1-2 / 2-4 3-1:
 *   R1: 1 beats 4 2-0, 2 beats 3 2-1;  R2: 4 beats 3 2-1, 2 beats 1 2-1;
 *   R3: 2 beats 4 2-0, 1 beats 3 2-0.
 * Table points: 1: 3+1+3 = 7, 2: 2+2+3 = 7, 3: 1+1+0 = 2, 4: 0+2+0 = 2.
 * Direct encounter: 2 beat 1 (2 against 1), 4 beat 3 (2 against 1).
 */
Test(standings, volleyball_table_points)
{
    Club_Tourney *t = club_tourney_new();
    for (int i = 0; i < 4; i++)
        cr_assert_gt(club_tourney_add_player(t, "P", 0), 0);
    cr_assert_eq(club_tourney_round_robin(t, 0), 0);
    static const int games[][3] = {
        {1, 1, CLUB_RES_WIN},           {1, 2, CLUB_RES_WIN_TIEBREAK},
        {2, 3, CLUB_RES_LOSS_TIEBREAK}, {2, 2, CLUB_RES_WIN_TIEBREAK},
        {3, 2, CLUB_RES_WIN},           {3, 3, CLUB_RES_LOSS},
    };
    set_results(t, games, sizeof games / sizeof games[0]);
    Club_Standing s[4];
    cr_assert_eq(club_standings(t, 0, &club_points_volleyball, NULL, 0, s), 0);
    int want_player[4] = {2, 1, 4, 3};
    int want_points[4] = {14, 14, 4, 4}; /* half table points */
    int want_direct[4] = {4, 2, 4, 2};
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(s[i].player, want_player[i], "place %d", i + 1);
        cr_assert_eq(s[i].points, want_points[i], "place %d", i + 1);
        cr_assert_eq(s[i].direct, want_direct[i], "place %d", i + 1);
        cr_assert_eq(s[i].rank, i + 1);
    }
    club_tourney_free(t);
}

Test(standings, points_as_text_and_refusals)
{
    char buf[16];
    cr_assert_eq(club_format_points(5, buf, sizeof buf), 3);
    cr_assert_str_eq(buf, "2.5");
    cr_assert_eq(club_format_points(14, buf, sizeof buf), 1);
    cr_assert_str_eq(buf, "7");
    cr_assert_eq(club_format_points(-1, buf, sizeof buf), 4);
    cr_assert_str_eq(buf, "-0.5");
    cr_assert_eq(club_format_points(5, buf, 3), TB_E_SPACE);

    Club_Tourney *t = club_tourney_new();
    Club_Standing s[3];
    Club_Tiebreak bad = (Club_Tiebreak)9;
    cr_assert_eq(club_tourney_add_player(t, "", 0), TB_E_ARG);
    cr_assert_eq(club_tourney_add_player(t, "a\nb", 0), TB_E_ARG);
    cr_assert_eq(club_tourney_add_player(t, "\xc3(", 0), TB_E_ARG);
    cr_assert_eq(club_tourney_add_player(t, "\xc2\x85", 0), TB_E_ARG);
    cr_assert_eq(club_tourney_add_player(t, "Ji\xc5\x99\xc3\xad", 0), 1);
    cr_assert_eq(club_tourney_add_player(t, "x", 10000), TB_E_ARG);
    cr_assert_eq(club_tourney_round_robin(t, 0), TB_E_ARG); /* 1 player */
    cr_assert_eq(club_tourney_add_player(t, "b", 0), 2);
    cr_assert_eq(club_tourney_add_player(t, "c", 0), 3);
    cr_assert_eq(club_tourney_round_robin(t, 0), 0);
    cr_assert_eq(club_standings(t, 4, NULL, NULL, 0, s), TB_E_ARG);
    cr_assert_eq(club_standings(t, 0, NULL, &bad, 1, s), TB_E_ARG);
    /* round 1 of 3 players: 1 has the bye */
    cr_assert_eq(club_tourney_set_result(t, 1, 1, CLUB_RES_WIN), TB_E_STATE);
    cr_assert_eq(club_tourney_set_result(t, 1, 2, CLUB_RES_BYE_FULL), TB_E_ARG);
    cr_assert_eq(club_tourney_set_result(t, 4, 2, CLUB_RES_WIN), TB_E_ARG);
    club_tourney_free(t);
}

/* The crosstable of the five-player tournament, typed from the figures
 * worked out above: columns in the standings' order (B D A C E), BH and
 * BH-C1 in points, SB = sonneborn / 4 (B 33/4 = 8.25). */
Test(standings, crosstable_text_and_html)
{
    static const char want[] =
        "  # Name                     1 2 3 4 5   Pts     BH  BH-C1      SB\n"
        "  1 Boris                    x = = 1 1     4   11.5     11    8.25\n"
        "  2 Dana                     = x 1 = 1     4     11   10.5    8.25\n"
        "  3 Anna                     = 0 x 1 1   3.5   11.5     11    6.25\n"
        "  4 Cyril                    0 = 0 x 1   2.5     12   11.5    3.75\n"
        "  5 Emil                     0 0 0 0 x     1   12.5     12    0.50\n";
    Club_Tourney *t = five();
    Club_Standing s[5];
    static char out[4096], again[4096];
    cr_assert_eq(club_standings(t, 0, NULL, NULL, 0, s), 0);
    int n = club_crosstable_text(t, NULL, s, NULL, out, sizeof out);
    cr_assert_eq(n, (int)strlen(want));
    cr_assert_str_eq(out, want);
    cr_assert_eq(club_crosstable_text(t, NULL, s, NULL, out, 100), TB_E_SPACE);
    cr_assert_eq(strlen(out), 99); /* a NUL-terminated prefix */

    /* HTML: every name escaped; the same bytes twice */
    snprintf(t->players[0].name, sizeof t->players[0].name,
             "Tom & <Jerry> \"'");
    n = club_crosstable_html(t, NULL, s, NULL, out, sizeof out);
    cr_assert_gt(n, 0);
    cr_assert_not_null(strstr(out,
                              "<tr><td>3</td><td>Tom &amp; &lt;Jerry&gt; "
                              "&quot;&#39;</td><td>=</td><td>0</td><td>x</td>"
                              "<td>1</td><td>1</td><td>3.5</td><td>11.5</td>"
                              "<td>11</td><td>6.25</td></tr>\n"),
                       "%s", out);
    cr_assert_null(strstr(out, "<Jerry>"));
    cr_assert_eq(club_crosstable_html(t, NULL, s, NULL, again, sizeof again),
                 n);
    cr_assert_str_eq(out, again);
    /* headers in another language, cut and padded by characters */
    static const char *const cs[6] = {"#",  "Jm\xc3\xa9no", "Body",
                                      "BH", "BH-C1",        "SB"};
    cr_assert_gt(club_crosstable_text(t, NULL, s, cs, out, sizeof out), 0);
    cr_assert_eq(strncmp(out,
                         "  # Jm\xc3\xa9no"
                         "                    1",
                         31),
                 0, "%s", out);
    club_tourney_free(t);
}

/* Round r of t: w (White) against b with w's result rw (b gets the
 * mirror), written into the struct as a Swiss would pair it. */
static void game(Club_Tourney *t, int r, int w, int b, Club_Result rw)
{
    static const Club_Result mirror[] = {
        [CLUB_RES_WIN] = CLUB_RES_LOSS,
        [CLUB_RES_DRAW] = CLUB_RES_DRAW,
        [CLUB_RES_LOSS] = CLUB_RES_WIN,
        [CLUB_RES_FORFEIT_WIN] = CLUB_RES_FORFEIT_LOSS,
        [CLUB_RES_FORFEIT_LOSS] = CLUB_RES_FORFEIT_WIN};
    Club_Game *gw = &t->players[w - 1].games[r - 1];
    Club_Game *gb = &t->players[b - 1].games[r - 1];
    *gw = (Club_Game){(uint16_t)b, CLUB_COLOUR_WHITE, (uint8_t)rw};
    *gb = (Club_Game){(uint16_t)w, CLUB_COLOUR_BLACK, (uint8_t)mirror[rw]};
}

/* Buchholz of player 1 after n rounds. */
static int bh1(const Club_Tourney *t, int n)
{
    Club_Standing s[2];
    cr_assert_eq(club_standings(t, n, NULL, NULL, 0, s), 0);
    return s[0].player == 1 ? s[0].buchholz : s[1].buchholz;
}

/*
 * The two worked examples of the rule's own text (FIDE tie-break
 * regulations, "virtual opponent"), played by P (1) against Q (2) in
 * every round of nine:
 * Example 1: P has 1.5 after two rounds (won, drew) and does not show up
 * in round 3: Svon = 1.5 + (1 - 0) + 0.5 (3 - 3) = 2.5 after round 3,
 * 5.5 after round 9. Q's adjusted score: lost, drew, the forfeit counted
 * as a draw: 1 point (2 half) after 3; with draws in rounds 4-9, 4.
 * BH(P) after 3: 2 + 2 + 5 = 9 half points; after 9: 8 games * 8 + 11.
 * Example 2: P has 3.5 after five rounds (W W W D L) and Q does not show
 * up in round 6: Svon = 3.5 + (1 - 1) + 0.5 (n - 6): 3.5 after round 6,
 * 5.0 after 9. Q's adjusted score after 6: 0+0+0+1+2 and the forfeit as
 * a draw = 4 half points; after 9 with three draws more, 7.
 * BH(P) after 6: 5 * 4 + 7 = 27; after 9: 8 * 7 + 10 = 66.
 */
Test(standings, fide_virtual_opponent_examples)
{
    Club_Tourney *t = club_tourney_new();
    cr_assert_eq(club_tourney_add_player(t, "P", 0), 1);
    cr_assert_eq(club_tourney_add_player(t, "Q", 0), 2);
    t->nrounds = 9;
    game(t, 1, 1, 2, CLUB_RES_WIN);
    game(t, 2, 1, 2, CLUB_RES_DRAW);
    game(t, 3, 1, 2, CLUB_RES_FORFEIT_LOSS);
    for (int r = 4; r <= 9; r++)
        game(t, r, 1, 2, CLUB_RES_DRAW);
    cr_assert_eq(bh1(t, 3), 9);
    cr_assert_eq(bh1(t, 9), 8 * 8 + 11);

    Club_Result first[5] = {CLUB_RES_WIN, CLUB_RES_WIN, CLUB_RES_WIN,
                            CLUB_RES_DRAW, CLUB_RES_LOSS};
    for (int r = 1; r <= 5; r++)
        game(t, r, 1, 2, first[r - 1]);
    game(t, 6, 1, 2, CLUB_RES_FORFEIT_WIN);
    for (int r = 7; r <= 9; r++)
        game(t, r, 1, 2, CLUB_RES_DRAW);
    cr_assert_eq(bh1(t, 6), 27);
    cr_assert_eq(bh1(t, 9), 66);
    club_tourney_free(t);
}

/* pos set to the finished position text, and its table points. */
static void table_at(Core_Position *pos, const char *text, unsigned out[2])
{
    char why[128];
    cr_assert_eq(core_position_parse(pos, text, why, sizeof why), 0, "%s",
                 why);
    cr_assert_eq(core_table_points(pos, core_status(pos), out), 0);
}

/* The table's volleyball policy and the game's own table points
 * (core_table_points, G-VB-10) are one policy: a 2-0 win, a 2-1 win and
 * loss, an agreed draw and a resignation give the same half points. */
Test(standings, the_volleyball_table_is_the_games_own)
{
    const Club_Points *p = &club_points_volleyball;
    Core_Position *pos = NULL;
    unsigned out[2];
    const Core_Game *g = core_game_find("volleyball");
    cr_assert_eq(core_position_new(&pos, g, ""), 0);
    table_at(pos, "Qd1/Qa8 phase=over set=2 sets=0:2 history=b0:1,b0:1",
             out);
    cr_assert_eq((int)out[1], p->win);
    cr_assert_eq((int)out[0], p->loss);
    table_at(pos, "Qd1/Qa8 phase=over set=3 sets=1:2 "
                  "history=w1:0,b0:1,b0:1",
             out);
    cr_assert_eq((int)out[1], p->win_tiebreak);
    cr_assert_eq((int)out[0], p->loss_tiebreak);
    Core_Status agreed = {CORE_DRAW, CORE_REASON_AGREEMENT},
                resigned = {CORE_WIN_WHITE, CORE_REASON_RESIGN};
    cr_assert_eq(core_table_points(pos, agreed, out), 0);
    cr_assert_eq((int)out[0], p->draw);
    cr_assert_eq(core_table_points(pos, resigned, out), 0);
    cr_assert_eq((int)out[0], p->forfeit_win);
    core_position_free(pos);
}
