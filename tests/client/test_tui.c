/*
 * test_tui.c: the full-screen board through a real terminal: tmux runs
 * `tabula play`, send-keys types, capture-pane reads the screen.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/tmux_util.h"

static void start(void)
{
    char args[1024];
    snprintf(tmux_session, sizeof tmux_session, "tabula-test-%d",
             (int)getpid());
    snprintf(args, sizeof args,
             "'TERM=xterm-256color %s play laska --bot=1 --seed 1; sleep 60'",
             TABULA_BINARY);
    tmux_new_session(args, 100, 30);
    wait_for("White to move (you)");
}

static void stop(void)
{
    tmux_stop();
}

TestSuite(tui, .init = start, .fini = stop, .timeout = 60);

Test(tui, illegal_selection_is_refused_with_a_message)
{
    /* The cursor starts on a1, whose soldier has no move. */
    keys("Enter");
    wait_for("no legal move from a1");
    /* a4 is not played on in Laska. */
    keys("Up Up Up Enter");
    wait_for("not a square of the board");
    /* An empty square is no start either. */
    keys("Right Enter");
    wait_for("no legal move from b4");
}

Test(tui, typed_move_appears_on_board_and_in_move_list)
{
    keys("c3-d4 Enter");
    /* Black's only legal reply is the capture e5xc3, which leaves a
     * column of two (Black on White) on c3. */
    const char *scr = wait_for("1. c3-d4            e5xc3");
    char line[256];
    row(scr, " 3 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "w       bw      w       w"),
                       "rank 3: '%s'", line);
    row(scr, " 5 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "b       b               b"),
                       "rank 5: '%s'", line);
}

Test(tui, move_entered_by_selecting_squares)
{
    /* Cursor a1 -> c3 (up 2, right 2), select; then d4, select. */
    keys("Up Up Right Right Enter");
    wait_for("select the next square");
    keys("Up Right Enter");
    wait_for("1. c3-d4");
}

Test(tui, tab_completes_among_legal_moves)
{
    keys("g Tab");
    wait_for("move> g3-f4");
    keys("Enter");
    wait_for("1. g3-f4");
}

/* ---- chess figurines ------------------------------------------------- */

/* The solid chess figurines of the Unicode standard (Miscellaneous
 * Symbols: U+265A BLACK CHESS KING .. U+265F BLACK CHESS PAWN) and
 * U+25CF BLACK CIRCLE, the ball: written from the code charts, not taken
 * from the program. */
#define FIG_K "\u265A"
#define FIG_Q "\u265B"
#define FIG_R "\u265C"
#define FIG_B "\u265D"
#define FIG_N "\u265E"
#define FIG_BALL "\u25CF"

/* Football chess's rank 1 at the start (docs/rules/football.md: R a1,
 * N b1, B c1, Q d1, the goal e1 empty, K f1, B g1, N h1, R i1), each in a
 * cell four columns wide with the piece in its second column, after the
 * rank's label: as letters and as figurines. */
#define RANK1_LETTERS " 1   R   N   B   Q       K   B   N   R"
#define RANK1_FIGURINES                                                   \
    " 1   " FIG_R "   " FIG_N "   " FIG_B "   " FIG_Q "       " FIG_K "   " \
    FIG_B "   " FIG_N "   " FIG_R

/* `tabula ARGS` in the locale lc (LC_ALL), a new session of its own. */
static void start_figurines(const char *lc, const char *args)
{
    char cmd[1024];
    snprintf(tmux_session, sizeof tmux_session, "tabula-fig-%d",
             (int)getpid());
    snprintf(cmd, sizeof cmd,
             "'env LC_ALL=%s TERM=xterm-256color %s %s; sleep 60'", lc,
             TABULA_BINARY, args);
    tmux_new_session(cmd, 100, 30);
}

TestSuite(tui_figurines, .fini = stop, .timeout = 60);

/* The colours (SGR 30..37 and 40..47, -1 the default) the byte at of
 * line, a capture with its escapes, is drawn in. */
static void colours_at(const char *line, const char *at, int *fg, int *bg)
{
    *fg = *bg = -1;
    for (const char *p = line; p < at; p++) {
        if (p[0] != '\033' || p[1] != '[')
            continue;
        p += 2;
        while (*p != '\0' && *p != 'm') {
            int n = (int)strtol(p, (char **)&p, 10);
            if (n == 0)
                *fg = *bg = -1;
            else if (n >= 30 && n <= 37)
                *fg = n;
            else if (n == 39)
                *fg = -1;
            else if (n >= 40 && n <= 47)
                *bg = n;
            else if (n == 49)
                *bg = -1;
            if (*p == ';')
                p++;
        }
    }
}

/* The line of scr (captured with escapes) whose text starts with label,
 * its escapes kept. */
static void escaped_row(const char *scr, const char *label, char *out,
                        size_t cap)
{
    char plain[1024];
    for (const char *p = scr; p != NULL && *p != '\0';) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p), n = 0;
        for (size_t i = 0; i < len && n + 1 < sizeof plain; i++) {
            if (p[i] == '\033') {
                while (i < len && p[i] != 'm')
                    i++;
                continue;
            }
            plain[n++] = p[i];
        }
        plain[n] = '\0';
        if (strncmp(plain, label, strlen(label)) == 0) {
            snprintf(out, cap, "%.*s", (int)len, p);
            return;
        }
        p = e ? e + 1 : NULL;
    }
    cr_assert_fail("no line '%s' on the screen", label);
}

Test(tui_figurines, utf8_draws_figurines_in_the_sides_colours)
{
    start_figurines("C.UTF-8", "play football --bot=1");
    const char *scr = wait_for("White to move (you)");
    char line[1024], esc[16384];
    row(scr, " 1 ", line, sizeof line);
    cr_assert_str_eq(line, RANK1_FIGURINES, "%s", scr);
    row(scr, " 5 ", line, sizeof line);
    cr_assert_str_eq(line, " 5                   " FIG_BALL, "%s", scr);
    /* Both sides the solid forms: White's white (37) on black (40),
     * Black's black (30) on white (47). */
    screen_as(esc, sizeof esc, 1);
    int fg, bg;
    escaped_row(esc, " 1 ", line, sizeof line);
    colours_at(line, strstr(line, FIG_K), &fg, &bg);
    cr_assert(fg == 37 && bg == 40, "White's king: %d on %d", fg, bg);
    escaped_row(esc, " 9 ", line, sizeof line);
    colours_at(line, strstr(line, FIG_K), &fg, &bg);
    cr_assert(fg == 30 && bg == 47, "Black's king: %d on %d", fg, bg);
    /* The help names the figurines. */
    keys("?");
    scr = wait_for("Board");
    cr_assert_not_null(strstr(scr, FIG_K " king, " FIG_Q " queen"), "%s",
                       scr);
    cr_assert_null(strstr(scr, "Capitals White"), "%s", scr);
}

/* Start `tabula play football ...` in locale lc and check its rank 1 is
 * in letters; returns the screen. */
static const char *letters_board(const char *lc, const char *args)
{
    start_figurines(lc, args);
    const char *scr = wait_for("White to move (you)");
    char line[1024];
    row(scr, " 1 ", line, sizeof line);
    cr_assert_str_eq(line, RANK1_LETTERS, "%s", scr);
    return scr;
}

Test(tui_figurines, letters_flag_keeps_the_letters)
{
    const char *scr = letters_board("C.UTF-8", "play football --bot=1 --letters");
    char line[1024];
    row(scr, " 9 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "r   n   b   q       k   b   n   r"),
                       "%s", scr);
    keys("?");
    scr = wait_for("Board");
    cr_assert_not_null(strstr(scr, "Capitals White, small letters Black"),
                       "%s", scr);
    cr_assert_null(strstr(scr, FIG_K), "%s", scr);
}

Test(tui_figurines, a_locale_not_utf8_keeps_the_letters)
{
    letters_board("C", "play football --bot=1");
}

/* Chessball names each field in its cell: the figurine, then the name
 * (docs/rules/chessball.md's start: White's king b1, queen b2). */
Test(tui_figurines, chessball_cells_show_figurine_and_field)
{
    start_figurines("C.UTF-8", "play chessball");
    const char *scr = wait_for("White to move (you)");
    cr_assert_not_null(strstr(scr, FIG_K "b1"), "%s", scr);
    cr_assert_not_null(strstr(scr, FIG_Q "b2"), "%s", scr);
    cr_assert_not_null(strstr(scr, FIG_N "a"), "%s", scr);
}

/* Chess volleyball 10x10's jack and cat have no figurine: they keep
 * their letters beside the figurines (docs/rules/volleyball.md, P-09:
 * Qe1 Vd1 Jf1 Mg1 Ci1). */
Test(tui_figurines, pieces_without_a_figurine_keep_their_letters)
{
    start_figurines("C.UTF-8", "play volleyball10");
    const char *scr = wait_for("White to move (you)");
    char line[1024];
    row(scr, " 1 ", line, sizeof line);
    cr_assert_not_null(strstr(line, FIG_Q "   J   M       C"), "'%s'", line);
}
