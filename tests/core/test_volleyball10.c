/*
 * test_volleyball10.c: the 10x10 Chess volleyball variant (spec section 8,
 * placeholder rules P-01..P-10), game `volleyball10`: hand-checked
 * positions for the corners (P-05), the knight's extra leap (P-02), the
 * e-file clean serve (P-06), the hooking block (P-07) and the mid-rally
 * retreat (P-08), the Cat option, and random-play round trips.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "core/volleyball_test_util.h"

static const Core_Game *game(void)
{
    return core_game_find("volleyball10");
}

static Core_Position *setup(const char *text)
{
    return vbt_setup(game(), text);
}

/* Knight e3 onto c2 with N12 throws N12 only; a1 is a corner and
 * takes no ball (P-05). Knight f2 onto c2 uses the extra (3,0) leap
 * (P-02) and throws with it; c5 is still White's half (P-01). */
Test(volleyball10, corner_and_knight_extra_leap)
{
    Core_Position *pos =
        setup("Ne3/Qe10 ball=c2 phase=rally toact=w touches=1");
    vbt_expect_list(pos, "T Ne3-c2>e1, T Ne3-c2>a3, T Ne3-c2>e3, T Ne3-c2>b4, "
                         "T Ne3-c2>d4");
    core_position_free(pos);
    pos = setup("Nf2/Qe10 ball=c2 phase=rally toact=w touches=1");
    vbt_expect_list(pos, "T Nf2-c2>f2, T Nf2-c2>c5");
    core_position_free(pos);
}

/* P-06: clean serves from the e-file. */
Test(volleyball10, clean_serve_uses_the_e_file)
{
    Core_Position *pos = setup("Qd1/Qe10 phase=serve");
    vbt_expect_list(pos, "S Qd1-e1>e6, S Qd1-e1>e7, S Qd1-e1>e8, S Qd1-e1>e9, "
                         "S Qd1-e2>a6, S Qd1-e2>i6, S Qd1-e2>j7");
    core_position_free(pos);
}

/* P-07: a knight and a vizier on e6/e7 hook a rook shot; the ball
 * rebounds along the knight's leaps (the taller piece) onto White's half;
 * e3 (where the rook now stands) is not free. */
Test(volleyball10, hooking_block_rebounds_from_the_taller_piece)
{
    Core_Position *pos =
        setup("Re1,Bg3/Ne6,Ve7,Qj10 ball=e3 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Re1-e3>d4^Ne6, T Re1-e3>f4^Ne6, T Re1-e3>c5^Ne6, "
                         "T Re1-e3>g5^Ne6");
    vbt_play(pos, "T Re1-e3>f4^Ne6");
    vbt_expect_field(pos, "clock", "1");
    vbt_expect_field(pos, "lastb", "b0");
    vbt_expect_field(pos, "phase", "rally");
    vbt_expect_field(pos, "toact", "w");
    vbt_expect_field(pos, "touches", "0");
    vbt_expect_field(pos, "mustpass", "1");
    vbt_expect_field(pos, "touched", "w0");
    core_position_free(pos);
    /* the same two pieces of one type are thrown over as on 8x8 */
    pos = setup("Re1/Ne6,Ne7,Qj10 ball=e3 phase=rally toact=w touches=2");
    vbt_expect_list(pos, "T Re1-e3>e8, T Re1-e3>e9, T Re1-e3>e10");
    core_position_free(pos);
}

/* P-08: the vizier steps aside so the rook can reach the ball. */
Test(volleyball10, mid_rally_retreat)
{
    Core_Position *pos =
        setup("Rb1,Vb2/Qj10 ball=b4 phase=rally toact=w touches=1");
    vbt_expect_list(pos, "R Vb2-e2, R Vb2-f2, R Vb2-e4, R Vb2-b5, R Vb2-d5");
    vbt_play(pos, "R Vb2-b5");
    vbt_expect_field(pos, "touched", "w1");
    vbt_expect_field(pos, "retreat", "1");
    vbt_expect_field(pos, "enabled", "w0");
    vbt_expect_field(pos, "touches", "1");
    vbt_expect_list(pos, "T Rb1-b4>b1, T Rb1-b4>b2, T Rb1-b4>b3, T Rb1-b4>a4, "
                         "T Rb1-b4>c4, T Rb1-b4>d4, T Rb1-b4>e4, T Rb1-b4>f4, "
                         "T Rb1-b4>g4, T Rb1-b4>h4, T Rb1-b4>i4, T Rb1-b4>j4");
    core_position_free(pos);
}

Test(volleyball10, cat_option)
{
    Core_Position *pos = NULL;
    char buf[64];
    cr_assert_eq(core_position_new(&pos, game(), "cat=off"), 0);
    cr_assert_eq(core_options_format(pos, buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "cat=off");
    vbt_expect_field(pos, "ball", "-");
    char text[CORE_POSITION_TEXT_MAX];
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    cr_assert(strstr(text, "Jf1/") != NULL, "%s", text);
    core_position_free(pos);
    cr_assert_eq(
        core_position_new(&pos, core_game_find("volleyball"), "cat=off"),
        TB_E_OPTION);
    uint8_t enc[1024];
    size_t len;
    pos = setup(NULL);
    cr_assert_eq(core_encode(pos, enc, sizeof enc, &len), 0);
    cr_assert_eq(enc[0], 5);
    core_position_free(pos);
}

Test(volleyball10, random_matches_round_trip)
{
    long seen[128] = {0};
    vbt_random_matches("volleyball10", "cat=off", 10, 3, seen);
    vbt_random_matches("volleyball10", "chess=on", 10, 4, seen);
    cr_assert_gt(seen['^'], 0); /* hooked throws were listed */
    cr_assert_gt(seen['R'], 0); /* and retreats */
}

/* The move hint the page shows at a game's start (core_game_move_hint)
 * begins with a serve that is legal then, on both boards (issue 39: the
 * 10x10 hint's S Qd1-e1>e6 was not: the queen stands on e1, P-09). */
Test(volleyball10, the_hints_first_serve_is_legal_at_the_start)
{
    const char *names[] = {"volleyball", "volleyball10"};
    for (int i = 0; i < 2; i++) {
        const Core_Game *g = core_game_find(names[i]);
        Core_Position *pos = NULL;
        cr_assert_eq(core_position_new(&pos, g, ""), 0);
        char first[64];
        const char *hint = core_game_move_hint(g);
        size_t n = strcspn(hint, ",");
        cr_assert_lt(n, sizeof first);
        memcpy(first, hint, n);
        first[n] = '\0';
        Core_Move mv;
        cr_assert_eq(core_move_parse(pos, first, &mv), 0, "%s: %s",
                     names[i], first);
        core_position_free(pos);
    }
}
