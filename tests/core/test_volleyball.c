/*
 * test_volleyball.c: Chess volleyball (8x8) against the binding spec
 * (shared/design/chess-volleyball.md): the start position and Appendix B,
 * every test position of section 10 (T01..T24, C1..C4) with its exact
 * action list or outcome as printed in the spec, the position string and
 * encoding round trips, and hostile input. Deeper perft counts are checked
 * against the independent model in test_volleyball_model.c.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "core/volleyball_test_util.h"

static const Core_Game *game(void)
{
    return core_game_find("volleyball");
}

static Core_Position *setup(const char *text)
{
    return vbt_setup(game(), text);
}

/* ---- 10.2 and Appendix B ------------------------------------------- */

Test(volleyball, t01_initial_serves)
{
    Core_Position *pos = setup(NULL);
    vbt_expect_list(pos, "S Bc3-d2>a5, S Bc3-d2>g5, S Bc3-d4>b6");
    cr_assert_eq(core_side_to_move(pos), CORE_WHITE);
    core_position_free(pos);
}

Test(volleyball, appendix_b_perft_and_divide)
{
    Core_Position *pos = setup(NULL);
    uint64_t n = 0;
    cr_assert_eq(core_perft(pos, 1, &n), 0);
    cr_assert_eq(n, 3);
    cr_assert_eq(core_perft(pos, 2, &n), 0);
    cr_assert_eq(n, 15);
    static const struct {
        const char *first, *list;
        uint64_t n;
    } d[] = {
        {"S Bc3-d2>a5",
         "T Ra7-a5>b5, T Ra7-a5>a6, T Ra7-a5>a7, T Ra7-a5>a8, "
         "T Vc8-a5>d7, T Vc8-a5>c8, T Qd8-a5>b6, T Qd8-a5>c7, "
         "T Qd8-a5>d8",
         9},
        {"S Bc3-d2>g5", "T Qd8-g5>f6, T Qd8-g5>e7, T Qd8-g5>d8", 3},
        {"S Bc3-d4>b6", "T Qd8-b6>a5, T Qd8-b6>c7, T Qd8-b6>d8", 3},
    };
    for (size_t i = 0; i < 3; i++) {
        Core_Position *p = setup(NULL);
        vbt_play(p, d[i].first);
        vbt_expect_list(p, d[i].list);
        cr_assert_eq(core_perft(p, 1, &n), 0);
        cr_assert_eq(n, d[i].n);
        core_position_free(p);
    }
    core_position_free(pos);
}

/* ---- 10.3 movement and throw variants ------------------------------- */

Test(volleyball, t02a_vizier_and_moor_keep_their_variant)
{
    Core_Position *pos =
        setup("Va1,Mh1/Qd8 ball=d1 phase=rally toact=w touches=1");
    vbt_expect_list(pos, "T Va1-d1>a1, T Va1-d1>g1, T Va1-d1>d4, "
                         "T Mh1-d1>h1, T Mh1-d1>d5");
    core_position_free(pos);
}

Test(volleyball, t02b_vizier_two_three)
{
    Core_Position *pos = setup("Va1/Qd8 ball=c4 phase=rally toact=w touches=1");
    vbt_expect_list(pos, "T Va1-c4>a1, T Va1-c4>e1, T Va1-c4>f2, "
                         "T Va1-c4>f6, T Va1-c4>a7, T Va1-c4>e7");
    core_position_free(pos);
}

Test(volleyball, t02c_moor_one_one)
{
    Core_Position *pos = setup("Mc3/Qd8 ball=d4 phase=rally toact=w touches=1");
    vbt_expect_list(pos, "T Mc3-d4>c3, T Mc3-d4>e3, T Mc3-d4>c5, T Mc3-d4>e5");
    core_position_free(pos);
}

/* ---- 10.4 blocks ---------------------------------------------------- */

Test(volleyball, t03_single_block_against_a_rook)
{
    const char *light[] = {"N", "B"}, *heavy[] = {"R", "Q"};
    char text[200];
    for (int i = 0; i < 2; i++) {
        strcpy(text, "Rd1/");
        strcat(text, light[i]);
        strcat(text, "d5 ball=d3 phase=rally toact=w touches=2");
        Core_Position *pos = setup(text);
        vbt_expect_list(pos, "T Rd1-d3>d6, T Rd1-d3>d7, T Rd1-d3>d8");
        core_position_free(pos);
    }
    for (int i = 0; i < 2; i++) {
        strcpy(text, "Rd1/");
        strcat(text, heavy[i]);
        strcat(text, "d5 ball=d3 phase=rally toact=w touches=2");
        Core_Position *pos = setup(text);
        vbt_expect_field(pos, "points", "0:1"); /* rally lost automatically */
        core_position_free(pos);
    }
}

Test(volleyball, t04_bishop_against_a_single_block)
{
    Core_Position *pos = setup("Bc1/Ng5 ball=e3 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Bc1-e3>c5, T Bc1-e3>b6, T Bc1-e3>h6, T Bc1-e3>a7");
    core_position_free(pos);
    pos = setup("Bc1/Bg5 ball=e3 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Bc1-e3>c5, T Bc1-e3>b6, T Bc1-e3>a7");
    core_position_free(pos);
}

Test(volleyball, t05_double_blocks)
{
    Core_Position *pos =
        setup("Qd1/Nd5,Vd6 ball=d3 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Qd1-d3>d7, T Qd1-d3>d8");
    core_position_free(pos);
    pos = setup("Qd1/Nd5,Bd6,Qa8 ball=d3 phase=rally toact=w touches=2");
    vbt_expect_field(pos, "points", "0:1");
    core_position_free(pos);
}

Test(volleyball, t06_rank_six_piece_closes_the_line)
{
    Core_Position *pos = setup("Rd1/Nd6 ball=d3 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Rd1-d3>d5");
    core_position_free(pos);
}

Test(volleyball, t07_leapers_ignore_blocks)
{
    Core_Position *pos =
        setup("Nb3/Nc5,Nd5,Be5,Bc6,Rd6 ball=d4 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Nb3-d4>b5, T Nb3-d4>f5, T Nb3-d4>e6");
    core_position_free(pos);
}

/* ---- 10.5 touch rules ----------------------------------------------- */

#define T08_PASSES                                                             \
    "T Bb1-d3>b1, T Bb1-d3>f1, T Bb1-d3>c2, T Bb1-d3>e2, T Bb1-d3>c4, "        \
    "T Bb1-d3>e4"

Test(volleyball, t08_must_pass_glider_and_exclusion)
{
    Core_Position *pos =
        setup("Rd1,Bb1/Qa8 ball=d3 phase=rally toact=w touches=0 mustpass=1");
    vbt_expect_list(pos, T08_PASSES ", T Rd1-d3>d1, T Rd1-d3>d2, T Rd1-d3>a3, "
                                    "T Rd1-d3>b3, T Rd1-d3>c3, T Rd1-d3>e3, "
                                    "T Rd1-d3>f3, T Rd1-d3>g3, T Rd1-d3>h3, "
                                    "T Rd1-d3>d4");
    core_position_free(pos);
    pos = setup("Rd1,Bb1/Qa8 ball=d3 phase=rally toact=w touches=0 mustpass=0");
    vbt_expect_list(pos, T08_PASSES ", T Bb1-d3>b5, T Bb1-d3>f5, T Bb1-d3>a6, "
                                    "T Bb1-d3>g6, T Bb1-d3>h7, "
                                    "T Rd1-d3>d1, T Rd1-d3>d2, T Rd1-d3>a3, "
                                    "T Rd1-d3>b3, T Rd1-d3>c3, T Rd1-d3>e3, "
                                    "T Rd1-d3>f3, T Rd1-d3>g3, T Rd1-d3>h3, "
                                    "T Rd1-d3>d4, T Rd1-d3>d5, T Rd1-d3>d6, "
                                    "T Rd1-d3>d7, T Rd1-d3>d8");
    core_position_free(pos);
    pos = setup("Rd1,Bb1/Qa8 ball=d3 phase=rally toact=w touches=1 "
                "touched=w0");
    vbt_expect_list(pos, T08_PASSES ", T Bb1-d3>b5, T Bb1-d3>f5, "
                                    "T Bb1-d3>a6, T Bb1-d3>g6, T Bb1-d3>h7");
    core_position_free(pos);
}

Test(volleyball, t09_queen_keeps_its_line_type)
{
    Core_Position *pos = setup("Qd1/Qa8 ball=b3 phase=rally toact=w touches=1");
    vbt_expect_list(pos, "T Qd1-b3>d1, T Qd1-b3>a2, T Qd1-b3>c2, T Qd1-b3>a4, "
                         "T Qd1-b3>c4, T Qd1-b3>d5, T Qd1-b3>e6, T Qd1-b3>f7, "
                         "T Qd1-b3>g8");
    core_position_free(pos);
}

Test(volleyball, t10_blocked_approach_loses_the_rally)
{
    Core_Position *pos =
        setup("Rd1,Nd2/Qa8 ball=d4 phase=rally toact=w touches=1");
    vbt_expect_field(pos, "points", "0:1");
    vbt_expect_field(pos, "server", "w");
    vbt_expect_field(pos, "serve", "2");
    vbt_expect_field(pos, "phase", "serve");
    vbt_expect_list(pos, "P Nd2-b1, P Nd2-f1, P Nd2-b3, P Nd2-f3, P Nd2-c4, "
                         "P Nd2-e4");
    core_position_free(pos);
}

/* ---- 10.6 penalties, removal, faults, forfeit ------------------------ */

Test(volleyball, t11_penalty_approach)
{
    Core_Position *pos = setup("Ne3/Qd8 ball=a3 phase=serve");
    vbt_expect_list(pos, "P Ne3-c2, P Ne3-c4");
    vbt_play(pos, "P Ne3-c4");
    vbt_expect_list(pos, "S Nc4-a3>b5");
    core_position_free(pos);
}

Test(volleyball, t12_penalty_retreat)
{
    Core_Position *pos = setup("Ra1,Na2/Qd8 ball=a3 phase=serve");
    vbt_expect_list(pos, "P Na2-c1, P Na2-c3, P Na2-b4");
    vbt_play(pos, "P Na2-c3");
    vbt_expect_list(pos, "S Ra1-a3>a5, S Ra1-a3>a6, S Ra1-a3>a7, S Ra1-a3>a8");
    core_position_free(pos);
}

Test(volleyball, t13_removal)
{
    Core_Position *pos = setup("Ra1,Ba2,Bb1,Bb3/Qd8 ball=a3 phase=serve");
    vbt_expect_list(pos, "X Bb1, X Ba2, X Bb3");
    vbt_play(pos, "X Bb1");
    vbt_expect_list(pos, "P Ba2-b1");
    vbt_expect_field(pos, "out", "w2@6");
    vbt_play(pos, "P Ba2-b1");
    char got[4096];
    vbt_list(pos, got, sizeof got);
    cr_assert(strncmp(got, "S Ra1-a3>", 9) == 0, "%s", got);
    core_position_free(pos);
}

Test(volleyball, t14_faults_only_then_forfeit)
{
    Core_Position *pos = setup("Nb1/Qd8 phase=serve");
    vbt_expect_list(pos, "S Nb1-d2>b1/F, S Nb1-d2>f1/F, S Nb1-d2>b3/F, "
                         "S Nb1-d2>f3/F, S Nb1-d2>c4/F, S Nb1-d2>e4/F");
    vbt_play(pos, "S Nb1-d2>c4/F");
    vbt_expect_field(pos, "points", "0:2");
    vbt_expect_field(pos, "clock", "2");
    vbt_expect_field(pos, "goals", "b-,b-");
    vbt_expect_field(pos, "server", "b");
    vbt_expect_field(pos, "phase", "serve");
    vbt_expect_list(pos, "S Qd8-d5>d3, S Qd8-d5>d4, S Qd8-d6>d3, S Qd8-d6>d4, "
                         "S Qd8-d7>d3, S Qd8-d7>d4");
    core_position_free(pos);
}

Test(volleyball, t15_full_d_file_serves_from_e)
{
    Core_Position *pos = setup("Qd1,Rd2,Nd3,Bd4,Vh1/Qa8 phase=serve");
    vbt_expect_list(pos, "S Qd1-e1>e5, S Qd1-e1>e6, S Qd1-e1>e7, S Qd1-e1>e8, "
                         "S Qd1-e2>h5, S Vh1-e3>b5, S Vh1-e3>h5, S Vh1-e3>c6, "
                         "S Vh1-e3>g6, S Rd2-e2>e5, S Rd2-e2>e6, S Rd2-e2>e7, "
                         "S Rd2-e2>e8, S Bd4-e3>c5, S Bd4-e3>g5, S Bd4-e3>b6, "
                         "S Bd4-e3>h6, S Bd4-e3>a7");
    core_position_free(pos);
}

Test(volleyball, t22_d_file_obligation_beats_valid_e_serve)
{
    Core_Position *pos = setup("Nb1,Ng3/Qa8 phase=serve");
    vbt_expect_list(pos, "S Nb1-d2>b1/F, S Nb1-d2>f1/F, S Nb1-d2>b3/F, "
                         "S Nb1-d2>f3/F, S Nb1-d2>c4/F, S Nb1-d2>e4/F");
    core_position_free(pos);
}

/* ---- 10.7 time, sets, returns ---------------------------------------- */

#define T16_PENALTIES                                                          \
    "P Qa8-d5, P Qa8-a6, P Qa8-c6, P Qa8-b8, P Qa8-d8, P Qa8-f8"

Test(volleyball, t16_time_out_with_decisive_score_carries_the_rally)
{
    Core_Position *pos = setup("Rd1/Qa8 ball=d3 phase=rally toact=w "
                               "touches=2 clock=11 minute=11 points=3:2");
    vbt_expect_list(pos, "T Rd1-d3>d5, T Rd1-d3>d6, T Rd1-d3>d7, T Rd1-d3>d8");
    vbt_play(pos, "T Rd1-d3>d6");
    vbt_expect_field(pos, "history", "w3:2");
    vbt_expect_field(pos, "sets", "1:0");
    vbt_expect_field(pos, "set", "2");
    vbt_expect_field(pos, "points", "1:0");
    vbt_expect_field(pos, "server", "b");
    vbt_expect_field(pos, "serve", "1");
    vbt_expect_field(pos, "ball", "d6");
    vbt_expect_list(pos, T16_PENALTIES);
    core_position_free(pos);
}

Test(volleyball, t17_time_out_with_tied_score_goes_to_overtime)
{
    Core_Position *pos = setup("Rd1/Qa8 ball=d3 phase=rally toact=w "
                               "touches=2 clock=11 minute=11 points=3:3");
    vbt_play(pos, "T Rd1-d3>d6");
    vbt_expect_field(pos, "history", "w4:3");
    vbt_expect_field(pos, "set", "2");
    vbt_expect_field(pos, "points", "0:0");
    vbt_expect_field(pos, "server", "b");
    vbt_expect_field(pos, "serve", "1");
    vbt_expect_list(pos, T16_PENALTIES);
    core_position_free(pos);
}

Test(volleyball, t18_return_after_six_minutes)
{
    Core_Position *pos = setup("Rd1/Qa8,N* ball=d3 phase=rally toact=w "
                               "touches=2 clock=5 out=b1@6");
    vbt_play(pos, "T Rd1-d3>d5");
    vbt_expect_field(pos, "clock", "6");
    vbt_expect_field(pos, "pending", "b1");
    char want[2048] = "";
    for (int sq = 32; sq < 64; sq++) {
        if (sq == 35 || sq == 56) /* d5 (the ball), a8 (the queen) */
            continue;
        char t[8] = "+ N";
        t[3] = (char)('a' + sq % 8);
        t[4] = (char)('1' + sq / 8);
        t[5] = '\0';
        if (want[0])
            strcat(want, ", ");
        strcat(want, t);
    }
    vbt_expect_list(pos, want);
    core_position_free(pos);
}

/* Qh8 alone cannot reach e6 or d5, so the rally would be lost at once
 * and the touch state cleared; a Black Re8 / Ra5 (which changes none of
 * White's lists) keeps the rally live so must_pass can be read. */
Test(volleyball, t19_shot_classification)
{
    Core_Position *pos =
        setup("Nb3/Qh8,Re8 ball=d4 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Nb3-d4>b5, T Nb3-d4>f5, T Nb3-d4>c6, T Nb3-d4>e6");
    vbt_play(pos, "T Nb3-d4>e6");
    vbt_expect_field(pos, "mustpass", "0"); /* a glider */
    core_position_free(pos);
    pos = setup("Vh4/Qh8 ball=d4 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Vh4-d4>d8");
    vbt_play(pos, "T Vh4-d4>d8");
    vbt_expect_field(pos, "mustpass", "1"); /* a candle */
    core_position_free(pos);
    pos = setup("Rd1/Qh8,Ra5 ball=d3 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Rd1-d3>d5, T Rd1-d3>d6, T Rd1-d3>d7, T Rd1-d3>d8");
    vbt_play(pos, "T Rd1-d3>d5");
    vbt_expect_field(pos, "mustpass", "1"); /* simple dense */
    core_position_free(pos);
}

/* ---- 10.8 points, serves, goal credit -------------------------------- */

Test(volleyball, t20_defensive_penalty)
{
    Core_Position *pos = setup("Nd4/Qa8 ball=a1 phase=rally toact=w "
                               "touches=0 mustpass=1 server=b");
    vbt_expect_field(pos, "points", "0:1");
    vbt_expect_field(pos, "serve", "2");
    vbt_expect_field(pos, "phase", "defpen");
    cr_assert_eq(core_side_to_move(pos), CORE_WHITE);
    vbt_expect_list(pos, "P Nd4-c2, P Nd4-b3");
    vbt_play(pos, "P Nd4-b3");
    vbt_expect_field(pos, "phase", "serve");
    cr_assert_eq(core_side_to_move(pos), CORE_BLACK);
    char got[4096];
    vbt_list(pos, got, sizeof got);
    cr_assert(strncmp(got, "S Qa8-d", 7) == 0, "%s", got);
    core_position_free(pos);
}

Test(volleyball, t21_second_serve_needs_another_piece)
{
    Core_Position *pos =
        setup("Rd1,Qf1/Qa8 ball=d3 phase=serve serve=2 first=w0");
    vbt_expect_list(pos, "S Qf1-d3>b5, S Qf1-d3>f5, S Qf1-d3>a6, S Qf1-d3>g6, "
                         "S Qf1-d3>h7");
    core_position_free(pos);
}

Test(volleyball, t23_ace_and_goal_credit)
{
    Core_Position *pos = setup("Rd1/Qa8 phase=serve");
    vbt_play(pos, "S Rd1-d3>d6");
    vbt_expect_field(pos, "points", "1:0");
    vbt_expect_field(pos, "goals", "w0");
    vbt_expect_field(pos, "clock", "1");
    vbt_expect_field(pos, "serve", "2");
    vbt_expect_field(pos, "phase", "defpen");
    vbt_expect_list(pos, T16_PENALTIES);
    vbt_play(pos, "P Qa8-d8");
    vbt_expect_list(pos, "@ d1, @ d2, @ d4");
    vbt_play(pos, "@ d1");
    /* no serve, manoeuvre or removal: W forfeits (5.7) */
    vbt_expect_field(pos, "points", "1:1");
    vbt_expect_field(pos, "goals", "w0,b-");
    vbt_expect_field(pos, "clock", "2");
    vbt_expect_field(pos, "server", "b");
    core_position_free(pos);
}

Test(volleyball, t24_ball_obstructs_ordinary_moves)
{
    Core_Position *pos =
        setup("Rc2,Qc1/Qh8 ball=c3 phase=serve serve=2 first=w0");
    vbt_expect_list(pos, "P Qc1-a1, P Qc1-e1, P Qc1-b2, P Qc1-d2, P Qc1-a3, "
                         "P Qc1-e3, P Rc2-a2, P Rc2-b2, P Rc2-d2, P Rc2-e2, "
                         "P Rc2-f2, P Rc2-g2, P Rc2-h2");
    Core_Move mv;
    cr_assert_eq(core_move_parse(pos, "P Rc2-c4", &mv), TB_E_ILLEGAL);
    core_position_free(pos);
}

/* ---- 10.9 chess stage ------------------------------------------------ */

#define CHESS_OVER "phase=chess set=2 sets=2:0 history=w1:0,w1:0 chess=on "

Test(volleyball, c1_mate_in_one)
{
    Core_Position *pos = setup("Rb1,Ng7/Vg8,Mh8 " CHESS_OVER
                               "attackers=w0 king=b1 cfirst=w tomove=w");
    vbt_expect_list(pos, "C Rb1-a1, C Rb1-c1, C Rb1-d1, C Rb1-e1, C Rb1-f1, "
                         "C Rb1-g1, C Rb1-h1, C Rb1-b2, C Rb1-b3, C Rb1-b4, "
                         "C Rb1-b5, C Rb1-b6, C Rb1-b7, C Rb1-b8");
    vbt_play(pos, "C Rb1-h1");
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_WIN_WHITE);
    cr_assert_eq(st.reason, CORE_REASON_CHECKMATE);
    core_position_free(pos);
}

Test(volleyball, c2_static_piece_shields_the_king)
{
    Core_Position *pos = setup("Rb1,Ng7,Bh4/Vg8,Mh8 " CHESS_OVER
                               "attackers=w0 king=b1 cfirst=w tomove=w");
    vbt_play(pos, "C Rb1-h1");
    cr_assert_eq(core_status(pos).outcome, CORE_ONGOING);
    vbt_expect_list(pos, "C Kh8-h7");
    core_position_free(pos);
}

Test(volleyball, c3_king_in_check_moves_first)
{
    /* The King is placed (A-43), then A-40 decides who moves. */
    Core_Position *pos =
        setup("Ra8/M* " CHESS_OVER "attackers=w0 king=b0 cfirst=w pending=b0");
    vbt_play(pos, "+ Kh8");
    cr_assert_eq(core_side_to_move(pos), CORE_BLACK);
    vbt_expect_list(pos, "C Kh8-g7, C Kh8-h7");
    core_position_free(pos);
}

Test(volleyball, c4_king_captures_an_unprotected_attacker)
{
    Core_Position *pos =
        setup("Rg7/M* " CHESS_OVER "attackers=w0 king=b0 cfirst=b pending=b0");
    vbt_play(pos, "+ Kh8");
    vbt_expect_list(pos, "C Kh8-g7");
    vbt_play(pos, "C Kh8-g7");
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_NOT_CAUGHT);
    core_position_free(pos);
}

/* The view's status line says when the King is in check: the rook a8
 * attacks h8 along the empty rank; the rook g7 does not (7.2). */
Test(volleyball, view_status_names_a_check)
{
    Core_View v;
    Core_Position *pos =
        setup("Ra8/M* " CHESS_OVER "attackers=w0 king=b0 cfirst=w pending=b0");
    vbt_play(pos, "+ Kh8");
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_not_null(strstr(v.status, "King in check"), "%s", v.status);
    core_position_free(pos);
    pos = setup("Rg7/M* " CHESS_OVER "attackers=w0 king=b0 cfirst=b pending=b0");
    vbt_play(pos, "+ Kh8");
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_null(strstr(v.status, "check"), "%s", v.status);
    core_position_free(pos);
}

/* ---- formats, round trips, hostile input ----------------------------- */

Test(volleyball, random_matches_round_trip)
{
    vbt_random_matches("volleyball", NULL, 25, 42, NULL);
}

Test(volleyball, random_matches_with_chess_stage_round_trip)
{
    vbt_random_matches("volleyball", "chess=on,set1=4,set2=3,set3=2", 40, 7,
                       NULL);
}

Test(volleyball, options_are_checked_and_canonical)
{
    Core_Position *pos = NULL;
    char buf[128];
    cr_assert_eq(core_position_new(&pos, game(), "set1=0"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, game(), "set4=3"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, game(), "chess=maybe"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, game(), "set2=61"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, game(), ""), 0);
    cr_assert_eq(core_options_format(pos, buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "");
    core_position_free(pos);
    cr_assert_eq(core_position_new(&pos, game(), "set3=5,chess=on"), 0);
    cr_assert_eq(core_options_format(pos, buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "chess=on,set3=5");
    core_position_free(pos);
}

Test(volleyball, options_change_the_encoding)
{
    Core_Position *a = setup(NULL), *b = NULL;
    uint8_t ea[1024], eb[1024];
    size_t la, lb;
    cr_assert_eq(core_position_new(&b, game(), "chess=on"), 0);
    cr_assert_eq(core_encode(a, ea, sizeof ea, &la), 0);
    cr_assert_eq(core_encode(b, eb, sizeof eb, &lb), 0);
    cr_assert_eq(ea[0], 4);
    cr_assert(la != lb || memcmp(ea, eb, la) != 0);
    cr_assert_neq(core_key(a), core_key(b));
    core_position_free(a);
    core_position_free(b);
}

Test(volleyball, bad_notation_is_refused_cleanly)
{
    Core_Position *pos = setup(NULL);
    Core_Move mv;
    static const char *bad[] = {"",
                                "S",
                                "S Bc3-d2>a9",
                                "S Bc3d2>a5",
                                "Z Bc3",
                                "T Qd8-g5",
                                "X",
                                "@ d9",
                                "+ Zf6",
                                "S Bc3-d2>a5/G",
                                "C pas",
                                "S  Bc3-d2>a5",
                                "S Bc3-d2>a5 junk",
                                "P Ne3-c44"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(core_move_parse(pos, bad[i], &mv), TB_E_NOTATION, "'%s'",
                     bad[i]);
    cr_assert_eq(core_move_parse(pos, "S Bc3-d2>b6", &mv), TB_E_ILLEGAL);
    cr_assert_eq(core_move_parse(pos, "S Bc3-d2>a5/F", &mv), TB_E_ILLEGAL);
    cr_assert_eq(core_move_parse(pos, "T Qd8-g5>f6", &mv), TB_E_ILLEGAL);
    cr_assert_eq(core_move_parse(pos, "  S Bc3-d2>a5\n", &mv), 0);
    char longer[5000];
    memset(longer, 'S', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    cr_assert_eq(core_move_parse(pos, longer, &mv), TB_E_TOOLONG);
    memset(&mv, 0, sizeof mv);
    mv.len = 3;
    mv.b[0] = 9;
    cr_assert_eq(core_play(pos, &mv), TB_E_ILLEGAL);
    core_position_free(pos);
}

Test(volleyball, bad_positions_are_refused_with_a_reason)
{
    static const char *bad[] = {
        "",
        "ball=d3",
        "Qd1",
        "Qd1/Qa8 ball=d9",
        "Qd5/Qa8",                             /* wrong half */
        "Qd1,Rd1/Qa8",                         /* two on a square */
        "Qd1/Qa8 ball=d1",                     /* ball on a piece */
        "Qd1/Qa8 phase=rally ball=d6 toact=w", /* ball on the other half */
        "Qd1/Qa8 phase=dance",
        "Qd1/Qa8 touches=3",
        "Qd1/Qa8 set=2",     /* no set history */
        "Qd1/Qa8 minute=12", /* time already out */
        "Qd1/Qa8 out=w0@6",  /* an on-board piece out */
        "Q*/Qa8",            /* off board, not out */
        "Q*/Qa8 out=w0@9",   /* returns too late */
        "Jd1/Qa8",           /* a 10x10 piece */
        "N,N/Qa8",
        "Qd1/Qa8 first=w0", /* first server on serve 1 */
        "Qd1/Qa8 serve=2 first=b0",
        "Qd1/Qa8 touched=w0",
        "Qd1/Qa8 goals=w5",
        "Qd1/Qa8 sets=1:0",
        "Qd1/Qa8 king=b0",
        "Qd1/Qa8 bogus=1",
        "Qd1/Qa8 ball",
        "Na1,Na2,Na3,Na4,Nb1,Nb2,Nb3,Nb4,Nc1,Nc2,Nc3/Qa8",
        "Qd1/Qa8 phase=chess",
        "Qd1/Qa8 points=3:0",                  /* 3 points in minute 0 */
        "Qd1/Qa8 points=1:0 minute=1 goals=-", /* goal log too short */
        "Qd1/Qa8 goals=w-",                    /* goal log too long */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Core_Position *pos = setup(NULL);
        char before[CORE_POSITION_TEXT_MAX], after[CORE_POSITION_TEXT_MAX];
        char why[200] = "";
        cr_assert_eq(core_position_format(pos, before, sizeof before), 0);
        cr_assert_eq(core_position_parse(pos, bad[i], why, sizeof why),
                     TB_E_POSITION, "'%s'", bad[i]);
        cr_assert_neq(why[0], '\0');
        cr_assert_eq(core_position_format(pos, after, sizeof after), 0);
        cr_assert_str_eq(before, after);
        core_position_free(pos);
    }
}

Test(volleyball, random_bytes_never_decode_to_garbage)
{
    Core_Position *pos = setup(NULL);
    uint8_t enc[1024], junk[1024];
    size_t len = 0;
    uint64_t seed = 99;
    cr_assert_eq(core_encode(pos, enc, sizeof enc, &len), 0);
    for (int i = 0; i < 20000; i++) {
        size_t n = (size_t)(vbt_rng_next(&seed) % (len + 8));
        memcpy(junk, enc, len);
        /* flip a few bytes of a valid encoding, or take pure noise */
        if (i % 4 == 0) {
            for (size_t k = 0; k < n; k++)
                junk[k] = (uint8_t)vbt_rng_next(&seed);
        } else {
            n = len;
            for (int k = 0; k < 1 + i % 3; k++)
                junk[vbt_rng_next(&seed) % len] = (uint8_t)vbt_rng_next(&seed);
        }
        if (n > 0 && i % 2)
            junk[0] = 4;
        int rc = core_decode(pos, junk, n);
        cr_assert(rc == 0 || rc == TB_E_ENCODING || rc == TB_E_MISMATCH);
        if (rc == 0) { /* whatever decoded must be playable */
            Core_Move buf[1024];
            size_t m = 0;
            cr_assert_eq(core_moves(pos, buf, 1024, &m), 0);
        }
    }
    cr_assert_eq(core_decode(pos, enc, len - 1), TB_E_ENCODING);
    enc[0] = 5;
    cr_assert_eq(core_decode(pos, enc, len), TB_E_MISMATCH);
    core_position_free(pos);
}

/* ---- sets, overtime and match end (6.1-6.4, A-20) -------------------- */

Test(volleyball, fault_in_overtime_ends_the_set)
{
    Core_Position *pos =
        setup("Nb1/Qd8 phase=serve minute=12 ot=1 points=3:3 clock=12");
    vbt_play(pos, "S Nb1-d2>c4/F");
    vbt_expect_field(pos, "history", "b3:4");
    vbt_expect_field(pos, "sets", "0:1");
    vbt_expect_field(pos, "set", "2");
    vbt_expect_field(pos, "points", "0:0");
    vbt_expect_field(pos, "ot", "0");
    vbt_expect_field(pos, "server", "b");
    core_position_free(pos);
}

Test(volleyball, overtime_cap_gives_the_set_to_the_capping_side)
{
    Core_Position *pos = setup("Rd1/Qa8 ball=d3 phase=rally toact=w "
                               "touches=2 minute=23 ot=1 points=3:3 clock=23");
    vbt_play(pos, "T Rd1-d3>d6");
    /* minute 24 = 12 + 12: White's crossing caps the set; the rally is
     * carried and Black cannot reach d6, so White also scores in set 2 */
    vbt_expect_field(pos, "history", "w3:3");
    vbt_expect_field(pos, "points", "1:0");
    vbt_expect_field(pos, "counts", "1");
    vbt_expect_field(pos, "server", "b");
    vbt_expect_field(pos, "serve", "1");
    core_position_free(pos);
}

Test(volleyball, second_set_won_ends_the_match)
{
    Core_Position *pos = setup("Rd1/Qa8 ball=d3 phase=rally toact=w "
                               "touches=2 set=2 sets=1:0 history=w1:0 "
                               "minute=11 clock=23 points=1:0");
    vbt_play(pos, "T Rd1-d3>d6");
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_WIN_WHITE);
    cr_assert_eq(st.reason, CORE_REASON_POINTS);
    vbt_expect_field(pos, "phase", "over");
    vbt_expect_field(pos, "history", "w1:0,w1:0");
    vbt_expect_list(pos, "");
    Core_Move mv;
    cr_assert_eq(core_move_parse(pos, "T Qa8-d6>d5", &mv), TB_E_OVER);
    core_position_free(pos);
}

/* A-36, A-40: attackers are the distinct scorers of the winner's last
 * three credited goals (w0, w1, w1 here, skipping the uncredited one);
 * the ball ends on Black's half, so Black moves first. */
Test(volleyball, chess_stage_takes_the_last_three_scorers)
{
    Core_Position *pos =
        setup("Rd1,Nb1,Bc1/Qa8,Mh8 ball=d3 phase=rally toact=w touches=2 set=3 "
              "sets=1:1 history=w1:0,b0:1 minute=7 clock=31 points=3:0 "
              "goals=w1,b-,w1,w-,w0 chess=on");
    vbt_play(pos, "T Rd1-d3>d6");
    vbt_expect_field(pos, "phase", "chess");
    vbt_expect_field(pos, "attackers", "w0,w1");
    vbt_expect_field(pos, "king", "b1");
    vbt_expect_field(pos, "cfirst", "b");
    vbt_expect_field(pos, "tomove", "b");
    vbt_expect_field(pos, "ball", "-");
    vbt_expect_list(pos, "C Kh8-g7, C Kh8-h7, C Kh8-g8");
    vbt_play(pos, "C Kh8-g7");
    /* the attackers' moves: the rook d3 and the knight b1, not Bc1 */
    char got[8192];
    vbt_list(pos, got, sizeof got);
    cr_assert(strncmp(got, "C Nb1-d2, C Nb1-a3, C Nb1-c3, C Rd3-d1", 38) == 0,
              "%s", got);
    cr_assert_null(strstr(got, "Bc1"));
    core_position_free(pos);
}

/* A-31: pieces returning in the same minute are placed in removal order,
 * each by its owner, before the rally goes on. */
Test(volleyball, returning_pieces_are_placed_fifo)
{
    Core_Position *pos = setup("Rd1/Qa8,N*,B* ball=d3 phase=rally toact=w "
                               "touches=2 clock=5 out=b2@6,b1@6");
    vbt_play(pos, "T Rd1-d3>d5");
    vbt_expect_field(pos, "pending", "b2,b1");
    vbt_expect_field(pos, "out", "-");
    cr_assert_eq(core_side_to_move(pos), CORE_BLACK);
    char got[8192];
    vbt_list(pos, got, sizeof got);
    cr_assert(strncmp(got, "+ Ba5, + Bb5, + Bc5, + Be5", 26) == 0, "%s", got);
    vbt_play(pos, "+ Bc6");
    vbt_expect_field(pos, "pending", "b1");
    vbt_list(pos, got, sizeof got);
    cr_assert(strncmp(got, "+ Na5, + Nb5, + Nc5, + Ne5", 26) == 0, "%s", got);
    cr_assert_null(strstr(got, "Nc6"));
    vbt_play(pos, "+ Nc7");
    vbt_expect_field(pos, "pending", "-");
    /* the placed knight may touch at once (5.6) */
    vbt_list(pos, got, sizeof got);
    cr_assert_not_null(strstr(got, "T Nc7-d5>"), "%s", got);
    core_position_free(pos);
}

Test(volleyball, view_shows_the_net_pieces_ball_and_score)
{
    Core_Position *pos = setup(NULL);
    vbt_play(pos, "S Bc3-d2>a5");
    Core_View v;
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_eq(v.rows, 9);
    cr_assert_eq(v.cols, 8);
    cr_assert_eq(v.cell[4][3].kind, CORE_CELL_NET);
    cr_assert_str_eq(v.row_label[0], "8");
    cr_assert_str_eq(v.row_label[5], "4");
    cr_assert_str_eq(v.cell[0][3].name, "d8"); /* Black's queen */
    cr_assert_str_eq(v.cell[0][3].glyph, "q");
    cr_assert_eq(v.cell[0][3].owner, CORE_BLACK);
    cr_assert_str_eq(v.cell[3][0].name, "a5"); /* the ball */
    cr_assert_str_eq(v.cell[3][0].glyph, "o");
    cr_assert_eq(v.cell[3][0].owner, -1);
    cr_assert_str_eq(v.cell[7][3].glyph, "B");       /* the server on d2 */
    cr_assert_eq(v.cell[8][0].kind, CORE_CELL_DARK); /* a1 */
    cr_assert_str_eq(v.status, "set 1 min 1/12 points 0:0 sets 0:0 | "
                               "Black touch 1, must pass");
    core_position_free(pos);
}

Test(volleyball, a_small_move_buffer_is_refused)
{
    Core_Position *pos = setup(NULL);
    Core_Move buf[2];
    size_t n = 99;
    cr_assert_eq(core_moves(pos, NULL, 0, &n), TB_E_TOOMANY);
    cr_assert_eq(n, 0);
    cr_assert_eq(core_moves(pos, buf, 2, &n), TB_E_TOOMANY);
    cr_assert_eq(n, 0);
    vbt_play(pos, "S Bc3-d2>g5");
    cr_assert_eq(core_moves(pos, buf, 2, &n), TB_E_TOOMANY);
    core_position_free(pos);
    pos = setup("Rd1/Qa8 ball=d3 phase=rally toact=w touches=2 set=2 "
                "sets=1:0 history=w1:0 minute=11 clock=23 points=1:0");
    vbt_play(pos, "T Rd1-d3>d6"); /* the match ends */
    cr_assert_eq(core_moves(pos, NULL, 0, &n), 0);
    cr_assert_eq(n, 0);
    core_position_free(pos);
}

/* ---- table points (§6.4, A-45, G-VB-10), in half points ------------- */

static void table_is(Core_Position *pos, Core_Status st, unsigned w,
                     unsigned b)
{
    unsigned out[2] = {99, 99};
    cr_assert_eq(core_table_points(pos, st, out), 0);
    cr_assert_eq(out[0], w, "White %u, want %u", out[0], w);
    cr_assert_eq(out[1], b, "Black %u, want %u", out[1], b);
}

/* The seed: «За победу на тай-брейке ... два очка. Проигравшему - одно.
 * За победу в основное время - при счёте по сетам 2-0 - даются три
 * очка»: Black's 2-0 is 0 : 3 (0 : 6 half points), Black's 2-1 is 1 : 2;
 * a mate in the chess stage after 2-0 keeps 3 : 0 (A-45); the chess
 * stage's not caught is 2 : 1 to the volleyball winner (A-45). Off the
 * board (G-VB-10): a resignation 3 : 0 whatever the sets, an agreed draw
 * 3/2 : 3/2; an aborted game 0 : 0; an ongoing one has none. */
Test(volleyball, table_points_follow_the_sets)
{
    Core_Position *pos = setup("Qd1/Qa8 phase=over set=2 sets=0:2 "
                               "history=b0:1,b0:1");
    table_is(pos, core_status(pos), 0, 6);
    core_position_free(pos);
    pos = setup("Qd1/Qa8 phase=over set=3 sets=1:2 history=w1:0,b0:1,b0:1");
    table_is(pos, core_status(pos), 2, 4);
    core_position_free(pos);

    pos = setup("Rb1,Ng7/Vg8,Mh8 " CHESS_OVER
                "attackers=w0 king=b1 cfirst=w tomove=w");
    vbt_play(pos, "C Rb1-h1");
    table_is(pos, core_status(pos), 6, 0);
    Core_Status not_caught = {CORE_DRAW, CORE_REASON_NOT_CAUGHT};
    table_is(pos, not_caught, 4, 2);
    core_position_free(pos);

    pos = setup("Qd1/Qa8 sets=1:0 history=w1:0 set=2");
    Core_Status resign = {CORE_WIN_BLACK, CORE_REASON_RESIGN};
    Core_Status agreed = {CORE_DRAW, CORE_REASON_AGREEMENT};
    Core_Status aborted = {CORE_ABORTED, CORE_REASON_ABORT};
    unsigned out[2];
    table_is(pos, resign, 0, 6);
    table_is(pos, agreed, 3, 3);
    table_is(pos, aborted, 0, 0);
    cr_assert_eq(core_table_points(pos, core_status(pos), out), TB_E_STATE);
    core_position_free(pos);
}
