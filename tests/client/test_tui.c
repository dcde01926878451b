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

/* A stray q does not end a game under way (issue 39's new user: a
 * single q ended it at once, unkept): it asks, any other key plays on,
 * and only a second q in a row quits. */
Test(tui, q_asks_before_it_ends_a_game_under_way)
{
    keys("c3-d4 Enter");
    wait_for("1. c3-d4            e5xc3");
    keys("q");
    wait_for("q again quits (this game is not kept); any other key plays on");
    keys("Escape");
    keys("q");
    const char *scr = wait_for("q again quits");
    cr_assert_null(strstr(scr, "result:"), "%s", scr);
    keys("q");
    scr = wait_for("result: * (unfinished)");
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

/* ---- the layout at each window size (finding 11) ---------------------- */

/* `tabula ARGS` (C locale: letters) in a cols x rows window. */
static void start_sized(const char *args, int cols, int rows)
{
    char cmd[1024];
    snprintf(tmux_session, sizeof tmux_session, "tabula-lay-%d",
             (int)getpid());
    snprintf(cmd, sizeof cmd,
             "'env LC_ALL=C TERM=xterm-256color %s %s; sleep 60'",
             TABULA_BINARY, args);
    tmux_new_session(cmd, cols, rows);
}

TestSuite(tui_layout, .fini = stop, .timeout = 90);

/* The legal moves `tabula moves GAME` prints, one a line, into moves
 * (each at most 31 bytes); returns how many. */
static size_t moves_of(const char *game, char moves[][32], size_t cap)
{
    char cmd[512], line[256];
    size_t n = 0;
    snprintf(cmd, sizeof cmd, "%s moves %s", TABULA_BINARY, game);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    while (fgets(line, sizeof line, p) != NULL && n < cap) {
        size_t len = strcspn(line, "\n");
        line[len] = '\0';
        cr_assert(len < 32, "%s", line);
        memcpy(moves[n++], line, len + 1);
    }
    cr_assert_eq(pclose(p), 0);
    return n;
}

/* The items of the list after "moves fit:" on scr, parted by " | " and
 * line ends, into items; returns how many. An item "... and N more"
 * ends the list: *more becomes N (else 0). */
static size_t listed(const char *scr, char items[][32], size_t cap,
                     unsigned *more)
{
    const char *p = strstr(scr, "moves fit:");
    size_t n = 0;
    *more = 0;
    cr_assert_not_null(p, "%s", scr);
    p += strlen("moves fit:");
    while (*p != '\0' && n < cap) {
        while (*p == ' ' || *p == '\n' || *p == '|')
            p++;
        if (*p == '\0')
            break;
        if (sscanf(p, "... and %u more", more) == 1)
            break;
        size_t len = 0;
        while (p[len] != '\0' && p[len] != '\n' &&
               strncmp(p + len, " | ", 3) != 0 &&
               strncmp(p + len, " ... and ", 9) != 0)
            len++;
        while (len > 0 && p[len - 1] == ' ')
            len--;
        cr_assert(len < 32, "an item of %zu bytes: %.40s", len, p);
        memcpy(items[n], p, len);
        items[n++][len] = '\0';
        p += len;
    }
    return n;
}

/* Football chess's start has many moves (75 by `tabula moves`): at
 * 120x40, Tab lists every one of them, over as many lines as it takes. */
Test(tui_layout, move_list_shows_every_move_where_there_is_room)
{
    static char want[400][32], got[400][32];
    size_t n = moves_of("football", want, 400);
    cr_assert_gt(n, 40, "%zu moves", n);
    start_sized("play football --bot=1", 120, 40);
    wait_for("White to move (you)");
    keys("Tab");
    char head[64];
    snprintf(head, sizeof head, "%zu moves fit:", n);
    const char *scr = wait_for(head);
    unsigned more;
    size_t shown = listed(scr, got, 400, &more);
    cr_assert_eq(more, 0, "%s", scr);
    cr_assert_eq(shown, n, "%zu of %zu shown:\n%s", shown, n, scr);
    for (size_t i = 0; i < n; i++)
        cr_assert_str_eq(got[i], want[i], "move %zu:\n%s", i + 1, scr);
}

/* At 80x24 the same list does not fit: the moves shown are the first
 * ones, and the last line counts the others. */
Test(tui_layout, move_list_counts_the_moves_it_leaves_out)
{
    static char want[400][32], got[400][32];
    size_t n = moves_of("football", want, 400);
    start_sized("play football --bot=1", 80, 24);
    wait_for("White to move (you)");
    keys("Tab");
    const char *scr = wait_for("more");
    unsigned more;
    size_t shown = listed(scr, got, 400, &more);
    cr_assert_gt(shown, 8, "%s", scr);
    cr_assert_eq(shown + more, n, "%zu shown + %u more:\n%s", shown, more,
                 scr);
    for (size_t i = 0; i < shown; i++)
        cr_assert_str_eq(got[i], want[i], "move %zu:\n%s", i + 1, scr);
}

/* The widest line of scr, in bytes (the C locale: one a column). */
static size_t widest(const char *scr)
{
    size_t w = 0;
    for (const char *p = scr; *p != '\0';) {
        size_t len = strcspn(p, "\n");
        while (len > 0 && p[len - 1] == ' ')
            len--;
        if (len > w)
            w = len;
        p += strcspn(p, "\n");
        if (*p == '\n')
            p++;
    }
    return w;
}

/* Append the words of scr (blanks and line ends parted) to words. */
static void add_words(char *words, size_t cap, const char *scr)
{
    size_t n = strlen(words);
    for (const char *p = scr; *p != '\0' && n + 2 < cap; p++) {
        int blank = *p == ' ' || *p == '\n';
        if (blank && (n == 0 || words[n - 1] == ' '))
            continue;
        words[n++] = blank ? ' ' : *p;
    }
    words[n] = '\0';
}

/* Chess volleyball's help (docs/rules/volleyball.md; the page ends "Any
 * key: the keys of this screen.") is longer than 24 rows and has lines
 * wider than 50 columns: it is wrapped at words, never cut, and scrolls
 * to its last line. */
Test(tui_layout, help_wraps_and_scrolls_to_its_end)
{
    start_sized("play volleyball --bot=1", 80, 24);
    wait_for("White to move (you)");
    keys("?");
    const char *scr = wait_for("Moves");
    cr_assert_null(strstr(scr, "Any key: the keys of this screen."), "%s",
                   scr);
    cr_assert_leq(widest(scr), 80, "%s", scr);
    keys("NPage");
    scr = wait_for("Any key: the keys of this screen.");
    keys("Up");
    usleep(300000);
    char again[16384];
    screen_as(again, sizeof again, 0);
    cr_assert_null(strstr(again, "Any key: the keys of this screen."), "%s",
                   again);
    tmux_stop();

    /* 50 columns: every word of the serve's line, the widest, in
     * order, over the rows it is wrapped into. */
    static char words[65536];
    words[0] = '\0';
    start_sized("play volleyball --bot=1", 50, 24);
    wait_for("White to move (you)");
    keys("?");
    scr = wait_for("Moves");
    cr_assert_leq(widest(scr), 50, "%s", scr);
    add_words(words, sizeof words, scr);
    for (int page = 0; page < 4; page++) {
        keys("NPage");
        usleep(300000);
        screen_as(again, sizeof again, 0);
        cr_assert_leq(widest(again), 50, "%s", again);
        add_words(words, sizeof words, again);
    }
    cr_assert_not_null(strstr(words, "S Bc3-d2>a5 S serve: the server steps "
                                     "onto the ball and throws"),
                       "%s", words);
    cr_assert_not_null(strstr(words, "and who serves or touches next."), "%s",
                       words);
    cr_assert_not_null(strstr(words, "Any key: the keys of this screen."),
                       "%s", words);
}

/* The line under Chess volleyball's board at the start, "set 1 min 0/12
 * points 0:0 sets 0:0 | White serves 1/2" (docs/rules/volleyball.md:
 * set, minute, points, sets, who serves), is 54 columns: at 50 columns
 * it goes on on the next row; at the smallest window (44x18: no row to
 * spare) it is cut, and ends in "..." that shows it. */
Test(tui_layout, long_status_line_wraps_or_shows_its_cut)
{
    start_sized("play volleyball --bot=1", 50, 24);
    const char *scr = wait_for("White to move (you)");
    char line[256];
    row(scr, " set 1 min 0/12", line, sizeof line);
    cr_assert_str_eq(line, " set 1 min 0/12 points 0:0 sets 0:0 | White",
                     "%s", scr);
    const char *at = strstr(scr, line);
    cr_assert_not_null(strstr(at, "\n serves 1/2\n"), "%s", scr);
    tmux_stop();

    start_sized("play volleyball --bot=1", 44, 18);
    scr = wait_for("White to move (you)");
    row(scr, " set 1 min 0/12", line, sizeof line);
    size_t len = strlen(line);
    while (len > 0 && line[len - 1] == ' ')
        line[--len] = '\0';
    cr_assert(len > 3 && strcmp(line + len - 3, "...") == 0, "'%s'\n%s",
              line, scr);
    cr_assert(strncmp(" set 1 min 0/12 points 0:0 sets 0:0 | White serves",
                      line, len - 3) == 0,
              "'%s'", line);
}

/* Where label (" 3 ", a rank's) starts a line of scr: its row, or -1. */
static int row_of(const char *scr, const char *label)
{
    int y = 0;
    for (const char *p = scr; *p != '\0'; y++) {
        const char *q = p;
        while (*q == ' ')
            q++;
        if (strncmp(q, label, strlen(label)) == 0 &&
            (q[strlen(label)] == ' ' || q[strlen(label)] == '\n'))
            return y;
        p += strcspn(p, "\n");
        if (*p == '\n')
            p++;
    }
    return -1;
}

/* Laska's board (7 ranks, files a to g): the rows from rank 7's label to
 * rank 1's, and the columns from file a's label to file g's. */
static void board_extent(const char *scr, int *height, int *width)
{
    char labels[1024];
    int top = row_of(scr, "7"), bottom = row_of(scr, "1");
    cr_assert(top >= 0 && bottom > top, "%s", scr);
    *height = bottom - top;
    /* the file labels: the first line below rank 1's that has them */
    for (int y = bottom + 1;; y++) {
        line_of(scr, y, labels, sizeof labels);
        char *a = strstr(labels, " a "), *g = strstr(labels, " g");
        if (a != NULL && g != NULL) {
            *width = (int)(g - a);
            return;
        }
        cr_assert(y < bottom + 4, "no file labels:\n%s", scr);
    }
}

/* At 80x24 Laska's cells are 4 columns and one row: 6 cells from a to g
 * and from rank 7 to rank 1; at 160x50 they are larger. */
Test(tui_layout, board_grows_with_the_window)
{
    int h_small, w_small, h_large, w_large;
    start_sized("play laska --bot=1", 80, 24);
    board_extent(wait_for("White to move (you)"), &h_small, &w_small);
    cr_assert_eq(h_small, 6);
    cr_assert_eq(w_small, 6 * 4);
    tmux_stop();
    start_sized("play laska --bot=1", 160, 50);
    board_extent(wait_for("White to move (you)"), &h_large, &w_large);
    cr_assert_gt(w_large, w_small);
    cr_assert_gt(h_large, h_small);
    /* the cells are as tall and as wide everywhere */
    cr_assert_eq(h_large % 6, 0, "%d", h_large);
    cr_assert_eq(w_large % 6, 0, "%d", w_large);
}

/* A click anywhere in a larger cell selects it: on c3 (White's soldier
 * there can move), in the row under its rank's label and right of its
 * file's label, where the board of 4x1 cells has c4 (no square). */
Test(tui_layout, click_on_a_large_board_selects_the_square)
{
    start_sized("play laska --bot=1", 160, 50);
    const char *scr = wait_for("White to move (you)");
    int h, w;
    board_extent(scr, &h, &w);
    int cell_h = h / 6, cell_w = w / 6;
    cr_assert_gt(cell_h, 1, "%s", scr);
    int y = row_of(scr, "3");
    char labels[1024];
    line_of(scr, row_of(scr, "1") + 1, labels, sizeof labels);
    if (strstr(labels, " c ") == NULL) /* (a blank row, then the labels) */
        line_of(scr, row_of(scr, "1") + 2, labels, sizeof labels);
    char *c = strstr(labels, " c ");
    cr_assert_not_null(c, "%s", scr);
    int x = (int)(c + 1 - labels) + cell_w / 2 - 1;
    /* xterm's SGR mouse report (1-based): button 1 pressed, released */
    char click[64];
    snprintf(click, sizeof click, "-l '\033[<0;%d;%dM\033[<0;%d;%dm'", x + 1,
             y + 2, x + 1, y + 2);
    keys(click);
    scr = wait_for("select the next square");
    cr_assert_not_null(strstr(scr, " c3: w"), "%s", scr);
}

/* Chessball's view has blanks between its fields (docs/rules/
 * chessball.md: 32 fields in rows a..h, the poles a and h alone in
 * theirs): the cursor starts on a field and the arrows never leave it on
 * a blank, where the line under the status would be empty and Enter said
 * "not a square of the board" (a trial). After each key the cursor's
 * line names a field: a pole (a, h) or a row letter and a digit 1..5. */
Test(tui_figurines, chessball_cursor_moves_from_field_to_field)
{
    start_figurines("C.UTF-8", "play chessball");
    static const char *const steps[] = {"Up", "Left", "Left", "Left", "Up",
                                        "Right", "Right", "Right", "Right",
                                        "Right", "Right", "Down", "Down",
                                        "Down", "Down", "Left", "Up"};
    const char *scr = wait_for("White to move (you)");
    for (size_t i = 0; i <= sizeof steps / sizeof steps[0]; i++) {
        if (i > 0) {
            keys(steps[i - 1]);
            usleep(300000); /* (the screen said so before the key too) */
            scr = wait_for("White to move (you)");
        }
        int named = 0;
        for (const char *l = scr; l != NULL && *l != '\0';) {
            const char *nl = strchr(l, '\n');
            if (l[0] == ' ' && l[1] >= 'a' && l[1] <= 'h' &&
                ((l[2] == ':' && (l[1] == 'a' || l[1] == 'h')) ||
                 (l[2] >= '1' && l[2] <= '5' && l[3] == ':')))
                named = 1;
            l = nl != NULL ? nl + 1 : NULL;
        }
        cr_assert(named, "after %zu keys no field under the cursor:\n%s", i,
                  scr);
    }
}
