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

static const Core_Game *game(void)
{
    const Core_Game *g = core_game_find("volleyball10");
    cr_assert_not_null(g);
    return g;
}

static Core_Position *setup(const char *text)
{
    Core_Position *pos = NULL;
    char why[200] = "";
    cr_assert_eq(core_position_new(&pos, game(), NULL), 0);
    if (text != NULL)
        cr_assert_eq(core_position_parse(pos, text, why, sizeof why), 0,
                     "position '%s': %s", text, why);
    return pos;
}

static void expect_list(const Core_Position *pos, const char *want)
{
    static char got[200000];
    size_t n = 0, max = core_game_max_moves(game());
    Core_Move *buf = malloc(max * sizeof *buf);
    cr_assert_not_null(buf);
    cr_assert_eq(core_moves(pos, buf, max, &n), 0);
    got[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char t[CORE_NOTATION_MAX];
        cr_assert_eq(core_move_format(pos, &buf[i], t, sizeof t), 0);
        if (i)
            strcat(got, ", ");
        strcat(got, t);
    }
    free(buf);
    cr_assert_str_eq(got, want);
}

static void play(Core_Position *pos, const char *text)
{
    Core_Move mv;
    int rc = core_move_parse(pos, text, &mv);
    cr_assert_eq(rc, 0, "parse '%s': %s", text, tb_strerror(rc));
    cr_assert_eq(core_play(pos, &mv), 0);
}

static void expect_field(const Core_Position *pos, const char *key,
                         const char *want)
{
    char text[CORE_POSITION_TEXT_MAX], pat[32] = " ", got[256] = "";
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    strcat(pat, key);
    strcat(pat, "=");
    const char *p = strstr(text, pat);
    if (p != NULL) {
        p += strlen(pat);
        size_t n = strcspn(p, " ");
        memcpy(got, p, n);
        got[n] = '\0';
    }
    cr_assert_str_eq(got, want, "field %s", key);
}

/* Knight e3 onto c2 with N12 throws N12 only; a1 is a corner and
 * takes no ball (P-05). Knight f2 onto c2 uses the extra (3,0) leap
 * (P-02) and throws with it; c5 is still White's half (P-01). */
Test(volleyball10, corner_and_knight_extra_leap)
{
    Core_Position *pos =
        setup("Ne3/Qe10 ball=c2 phase=rally toact=w touches=1");
    expect_list(pos, "T Ne3-c2>e1, T Ne3-c2>a3, T Ne3-c2>e3, T Ne3-c2>b4, "
                     "T Ne3-c2>d4");
    core_position_free(pos);
    pos = setup("Nf2/Qe10 ball=c2 phase=rally toact=w touches=1");
    expect_list(pos, "T Nf2-c2>f2, T Nf2-c2>c5");
    core_position_free(pos);
}

/* P-06: clean serves from the e-file. */
Test(volleyball10, clean_serve_uses_the_e_file)
{
    Core_Position *pos = setup("Qd1/Qe10 phase=serve");
    expect_list(pos, "S Qd1-e1>e6, S Qd1-e1>e7, S Qd1-e1>e8, S Qd1-e1>e9, "
                     "S Qd1-e2>a6, S Qd1-e2>i6, S Qd1-e2>j7");
    core_position_free(pos);
}

/* P-07: a knight and a vizier on e6/e7 hook a rook shot; the ball
 * rebounds along the knight's leaps (the taller piece) onto White's half;
 * e3 (where the rook now stands) is not free. */
Test(volleyball10, hooking_block_rebounds_from_the_taller_piece)
{
    Core_Position *pos = setup(
        "Re1,Bg3/Ne6,Ve7,Qj10 ball=e3 phase=rally toact=w touches=2");
    expect_list(pos, "T Re1-e3>d4^Ne6, T Re1-e3>f4^Ne6, T Re1-e3>c5^Ne6, "
                     "T Re1-e3>g5^Ne6");
    play(pos, "T Re1-e3>f4^Ne6");
    expect_field(pos, "clock", "1");
    expect_field(pos, "lastb", "b0");
    expect_field(pos, "phase", "rally");
    expect_field(pos, "toact", "w");
    expect_field(pos, "touches", "0");
    expect_field(pos, "mustpass", "1");
    expect_field(pos, "touched", "w0");
    core_position_free(pos);
    /* the same two pieces of one type are thrown over as on 8x8 */
    pos = setup("Re1/Ne6,Ne7,Qj10 ball=e3 phase=rally toact=w touches=2");
    expect_list(pos, "T Re1-e3>e8, T Re1-e3>e9, T Re1-e3>e10");
    core_position_free(pos);
}

/* P-08: the vizier steps aside so the rook can reach the ball. */
Test(volleyball10, mid_rally_retreat)
{
    Core_Position *pos =
        setup("Rb1,Vb2/Qj10 ball=b4 phase=rally toact=w touches=1");
    expect_list(pos, "R Vb2-e2, R Vb2-f2, R Vb2-e4, R Vb2-b5, R Vb2-d5");
    play(pos, "R Vb2-b5");
    expect_field(pos, "touched", "w1");
    expect_field(pos, "retreat", "1");
    expect_field(pos, "enabled", "w0");
    expect_field(pos, "touches", "1");
    expect_list(pos, "T Rb1-b4>b1, T Rb1-b4>b2, T Rb1-b4>b3, T Rb1-b4>a4, "
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
    expect_field(pos, "ball", "-");
    char text[CORE_POSITION_TEXT_MAX];
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    cr_assert(strstr(text, "Jf1/") != NULL, "%s", text);
    core_position_free(pos);
    cr_assert_eq(core_position_new(&pos, core_game_find("volleyball"),
                                   "cat=off"), TB_E_OPTION);
    uint8_t enc[1024];
    size_t len;
    pos = setup(NULL);
    cr_assert_eq(core_encode(pos, enc, sizeof enc, &len), 0);
    cr_assert_eq(enc[0], 5);
    core_position_free(pos);
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

Test(volleyball10, random_matches_round_trip)
{
    size_t max = core_game_max_moves(game());
    Core_Move *buf = malloc(max * sizeof *buf);
    uint8_t enc[1024], enc2[1024];
    uint64_t seed = 3;
    int hooks = 0, retreats = 0;
    for (int m = 0; m < 20; m++) {
        Core_Position *pos = NULL, *copy = NULL;
        cr_assert_eq(core_position_new(&pos, game(),
                                       m % 2 ? "chess=on" : "cat=off"), 0);
        cr_assert_eq(core_position_new(&copy, game(), NULL), 0);
        for (int ply = 0;; ply++) {
            size_t n = 0, len, len2;
            char text[CORE_POSITION_TEXT_MAX], text2[CORE_POSITION_TEXT_MAX];
            char why[200] = "";
            cr_assert_eq(core_encode(pos, enc, sizeof enc, &len), 0);
            cr_assert_eq(core_decode(copy, enc, len), 0);
            cr_assert_eq(core_encode(copy, enc2, sizeof enc2, &len2), 0);
            cr_assert(len == len2 && memcmp(enc, enc2, len) == 0);
            cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
            cr_assert_eq(core_position_parse(copy, text, why, sizeof why), 0,
                         "%s: %s", text, why);
            cr_assert_eq(core_position_format(copy, text2, sizeof text2), 0);
            cr_assert_str_eq(text, text2);
            cr_assert_eq(core_moves(pos, buf, max, &n), 0);
            if (n == 0) {
                cr_assert_neq(core_status(pos).outcome, CORE_ONGOING);
                break;
            }
            for (size_t i = 0; i < n; i++) {
                char t[CORE_NOTATION_MAX];
                Core_Move back;
                cr_assert_eq(core_move_format(pos, &buf[i], t, sizeof t), 0);
                cr_assert_eq(core_move_parse(pos, t, &back), 0, "%s", t);
                cr_assert(core_move_equal(&back, &buf[i]));
                hooks += strchr(t, '^') != NULL;
                retreats += t[0] == 'R';
            }
            cr_assert_eq(core_play(pos, &buf[rng_next(&seed) % n]), 0);
            cr_assert_lt(ply, 20000);
        }
        core_position_free(pos);
        core_position_free(copy);
    }
    cr_assert_gt(hooks, 0);
    cr_assert_gt(retreats, 0);
    free(buf);
}
