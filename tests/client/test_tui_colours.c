/*
 * test_tui_colours.c: every colour pair the board screen draws a cell
 * with (tui_board_pair: a piece on each kind of square) reads in the
 * 8-colour palettes of xterm, VTE's Tango and GNOME schemes and the Linux
 * console: WCAG 2's contrast ratio of its foreground and background is at
 * least 3 (its minimum for large text and for what a user must make out
 * on a screen). Issue 39's finding: White's pieces were bold white on
 * light grey, 1.26 in xterm's colours, 1.46 in Tango's, 2.32 on the
 * console. The palettes are the terminals' documented defaults (xterm's
 * XTerm-col.ad, VTE's palettes in GNOME Terminal's profile editor, the
 * Linux console's vt.default_red/grn/blu), and the ratio is computed here
 * from the WCAG formula, not taken from the program.
 */
#include <criterion/criterion.h>
#include <curses.h>
#include <math.h>

#include "tui/tui_board.h"

typedef struct Palette {
    const char *name;
    unsigned char rgb[8][3]; /* COLOR_BLACK .. COLOR_WHITE */
} Palette;

static const Palette palettes[] = {
    {"xterm",
     {{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238},
      {205, 0, 205}, {0, 205, 205}, {229, 229, 229}}},
    {"VTE Tango",
     {{46, 52, 54}, {204, 0, 0}, {78, 154, 6}, {196, 160, 0}, {52, 101, 164},
      {117, 80, 123}, {6, 152, 154}, {211, 215, 207}}},
    {"VTE GNOME",
     {{23, 20, 33}, {192, 28, 40}, {38, 162, 105}, {162, 115, 76},
      {18, 72, 139}, {163, 71, 186}, {42, 161, 179}, {208, 207, 204}}},
    {"Linux console",
     {{0, 0, 0}, {170, 0, 0}, {0, 170, 0}, {170, 85, 0}, {0, 0, 170},
      {170, 0, 170}, {0, 170, 170}, {170, 170, 170}}},
};

/* WCAG 2 relative luminance of an sRGB colour. */
static double luminance(const unsigned char c[3])
{
    double l[3];
    for (int i = 0; i < 3; i++) {
        double v = c[i] / 255.0;
        l[i] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

static double contrast(const unsigned char a[3], const unsigned char b[3])
{
    double la = luminance(a), lb = luminance(b);
    return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* The formula against WCAG's own anchors: black on white is 21:1, and a
 * colour on itself 1:1. */
Test(tui_colours, the_formula_meets_its_anchors)
{
    const unsigned char black[3] = {0, 0, 0}, white[3] = {255, 255, 255};
    cr_assert_float_eq(contrast(black, white), 21.0, 1e-9);
    cr_assert_float_eq(contrast(white, white), 1.0, 1e-9);
    /* the old pair: bold (bright) white on xterm's light grey */
    cr_assert_lt(contrast(white, palettes[0].rgb[COLOR_WHITE]), 1.3);
}

Test(tui_colours, every_pair_reads_in_every_palette)
{
    static const char *const squares[TUI_SQ_COUNT] = {
        "light", "dark",   "goal",        "net",
        "target", "path", "cursor",      "white figurine's patch",
        "black figurine's patch"};
    for (size_t p = 0; p < sizeof palettes / sizeof palettes[0]; p++)
        for (int sq = 0; sq < TUI_SQ_COUNT; sq++) {
            short fg, bg;
            unsigned extra;
            tui_board_pair((Tui_Square)sq, &fg, &bg, &extra);
            cr_assert(fg >= 0 && fg < 8 && bg >= 0 && bg < 8);
            double r = contrast(palettes[p].rgb[fg], palettes[p].rgb[bg]);
            cr_expect_geq(r, 3.0,
                          "%s: a piece on %s squares: %.2f:1 (colours %d on "
                          "%d)",
                          palettes[p].name, squares[sq], r, fg, bg);
        }
}

/* A figurine has no case (both sides' are the solid forms): the sides'
 * patches are told apart by their colours, each of the other's, and the
 * two read apart from each other as well as the figurine on its patch
 * (the same 3:1 in every palette). */
Test(tui_colours, the_figurines_sides_differ)
{
    short wfg, wbg, bfg, bbg;
    unsigned wx, bx;
    tui_board_pair(TUI_SQ_WHITE_PIECE, &wfg, &wbg, &wx);
    tui_board_pair(TUI_SQ_BLACK_PIECE, &bfg, &bbg, &bx);
    cr_assert_eq(wfg, COLOR_WHITE);
    cr_assert_eq(bfg, COLOR_BLACK);
    cr_assert_eq(wbg, bfg);
    cr_assert_eq(bbg, wfg);
    cr_assert_eq(wx, 0u);
    cr_assert_eq(bx, 0u);
    for (size_t p = 0; p < sizeof palettes / sizeof palettes[0]; p++)
        cr_expect_geq(contrast(palettes[p].rgb[wbg], palettes[p].rgb[bbg]),
                      3.0, "%s", palettes[p].name);
}
