/*
 * tui_board.c: a core_view board drawn with ncurses (see tui_board.h),
 * one drawing for the play screen and the replay viewer; and the check
 * that the terminal can show them (tui.h).
 */
#define _POSIX_C_SOURCE 200809L /* isatty, nl_langinfo */

#include <curses.h>
#include <langinfo.h>
#include <stdio.h>
#include <string.h>
#include <term.h>
#include <unistd.h>

#include "tui.h"
#include "i18n.h"
#include "tui_board.h"

int tui_terminal_ok(void)
{
    int err = 0;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return 0;
    /* initscr() would end the program on a terminal it cannot drive
     * (TERM unset, unknown, or without cursor addressing). */
    /* (a screen already made, a series' earlier game's, keeps its own
     * terminal: deleting it under the screen crashed the next initscr) */
    TERMINAL *was = cur_term;
    if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
        set_curterm(was);
        return 0;
    }
    int usable = tigetstr("cup") != NULL && tigetstr("cup") != (char *)-1;
    TERMINAL *probe = set_curterm(was);
    if (probe != was)
        del_curterm(probe);
    return usable;
}

void tui_view_turn(Core_View *v)
{
    for (int r = 0; r < v->rows; r++)
        for (int c = 0; c < v->cols; c++) {
            int r2 = v->rows - 1 - r, c2 = v->cols - 1 - c;
            if (r * v->cols + c >= r2 * v->cols + c2)
                continue; /* each pair once (the middle cell stays) */
            Core_Cell tmp = v->cell[r][c];
            v->cell[r][c] = v->cell[r2][c2];
            v->cell[r2][c2] = tmp;
        }
    for (int r = 0; r < v->rows / 2; r++) {
        char tmp[sizeof v->row_label[0]];
        memcpy(tmp, v->row_label[r], sizeof tmp);
        memcpy(v->row_label[r], v->row_label[v->rows - 1 - r], sizeof tmp);
        memcpy(v->row_label[v->rows - 1 - r], tmp, sizeof tmp);
    }
    for (int c = 0; c < v->cols / 2; c++) {
        char tmp[sizeof v->col_label[0]];
        memcpy(tmp, v->col_label[c], sizeof tmp);
        memcpy(v->col_label[c], v->col_label[v->cols - 1 - c], sizeof tmp);
        memcpy(v->col_label[v->cols - 1 - c], tmp, sizeof tmp);
    }
}

/* Is name the column label followed by the row label ("c3"), or the
 * other way round? */
static int labels_name(const Core_View *v, int r, int c, const char *name)
{
    char a[16], b[16];
    snprintf(a, sizeof a, "%s%s", v->col_label[c], v->row_label[r]);
    snprintf(b, sizeof b, "%s%s", v->row_label[r], v->col_label[c]);
    return strcmp(name, a) == 0 || strcmp(name, b) == 0;
}

int tui_view_names_in_cells(const Core_View *v)
{
    for (int r = 0; r < v->rows; r++)
        for (int c = 0; c < v->cols; c++) {
            const char *name = v->cell[r][c].name;
            if (name[0] != '\0' && !labels_name(v, r, c, name))
                return 1;
        }
    return 0;
}

void tui_cell_text(const Core_Cell *cell, int names, char out[TUI_CELL_W + 1])
{
    memset(out, ' ', TUI_CELL_W);
    out[TUI_CELL_W] = '\0';
    if (names && cell->name[0] != '\0') {
        size_t n = strlen(cell->name);
        out[0] = cell->glyph[0] != '\0' ? cell->glyph[0] : ' ';
        memcpy(out + 1, cell->name, n < TUI_CELL_W - 1 ? n : TUI_CELL_W - 1);
        return;
    }
    size_t g = strlen(cell->glyph);
    if (g > 3)
        g = 3;
    memcpy(out + 1, cell->glyph, g);
    if (g == 0 && cell->kind == CORE_CELL_DARK)
        out[1] = '.';
}

/* --letters (tui_letters). */
static int letters_only;

void tui_letters(int letters)
{
    letters_only = letters != 0;
}

int tui_figurines(void)
{
    /* (the codeset of the LC_CTYPE cli_i18n_init chose: glibc says
     * "UTF-8", some libcs "utf8") */
    const char *set = nl_langinfo(CODESET);
    return !letters_only && set != NULL &&
           (strcmp(set, "UTF-8") == 0 || strcmp(set, "utf8") == 0);
}

int tui_board_figurines(int colours)
{
    return colours && tui_figurines();
}

const char *tui_figurine(const Core_Cell *cell)
{
    return cli_piece_figurine(cli_cell_piece(cell));
}

void tui_board_pair(Tui_Square sq, short *fg, short *bg, unsigned *extra)
{
    static const short bgs[TUI_SQ_COUNT] = {
        [TUI_SQ_LIGHT] = COLOR_WHITE,  [TUI_SQ_DARK] = COLOR_CYAN,
        [TUI_SQ_GOAL] = COLOR_YELLOW,  [TUI_SQ_NET] = COLOR_WHITE,
        [TUI_SQ_TARGET] = COLOR_GREEN, [TUI_SQ_PATH] = COLOR_YELLOW,
        [TUI_SQ_CURSOR] = COLOR_WHITE, [TUI_SQ_WHITE_PIECE] = COLOR_BLACK,
        [TUI_SQ_BLACK_PIECE] = COLOR_WHITE};
    /* A letter is black whoever owns it (the case tells the side); a
     * figurine is drawn in its side's colour on a patch of the other. */
    *fg = sq == TUI_SQ_WHITE_PIECE ? COLOR_WHITE : COLOR_BLACK;
    *bg = bgs[sq];
    *extra = sq == TUI_SQ_CURSOR ? (unsigned)A_REVERSE : 0u;
}

static short pair_for(Tui_Square sq)
{
    return (short)(1 + sq);
}

int tui_board_colours(void)
{
    if (!has_colors())
        return 0;
    start_color();
    for (int b = 0; b < TUI_SQ_COUNT; b++) {
        short fg, bg;
        unsigned extra;
        tui_board_pair((Tui_Square)b, &fg, &bg, &extra);
        init_pair(pair_for((Tui_Square)b), fg, bg);
    }
    return 1;
}

/* Cell (y, x) of w columns and h rows: its colours and marks on every
 * row, its text (tui_cell_text) in the middle row, centred. */
static void draw_cell(const Core_Cell *cell, int y, int x, int w, int h,
                      int mark, int cursor, int colours, int figurines,
                      int names)
{
    const char *figurine = figurines ? tui_figurine(cell) : NULL;
    int bg, edges = 0;
    attr_t attr = A_NORMAL;
    char text[TUI_CELL_W + 1];
    int ty = y + (h - 1) / 2, tx = x + (w - TUI_CELL_W) / 2;

    if (cell->kind == CORE_CELL_BLANK && !cursor) {
        for (int r = 0; r < h; r++)
            mvprintw(y + r, x, "%*s", w, "");
        return;
    }
    switch (cell->kind) {
    case CORE_CELL_DARK:
        bg = TUI_SQ_DARK;
        break;
    case CORE_CELL_GOAL:
        bg = TUI_SQ_GOAL;
        break;
    case CORE_CELL_NET:
        bg = TUI_SQ_NET;
        break;
    default:
        bg = TUI_SQ_LIGHT;
        break;
    }
    if (mark == TUI_MARK_TARGET)
        bg = TUI_SQ_TARGET;
    else if (mark == TUI_MARK_PATH)
        bg = TUI_SQ_PATH;
    if (cursor)
        bg = TUI_SQ_CURSOR;
    tui_cell_text(cell, names, text);
    if (!names && cell->kind == CORE_CELL_DARK && cell->glyph[0] == '\0')
        text[1] = ' '; /* the colour shows a dark square */
    if (!names && cell->glyph[0] == '\0' && mark == TUI_MARK_TARGET)
        text[1] = '.';
    if (colours) {
        short fg, b;
        unsigned extra;
        tui_board_pair((Tui_Square)bg, &fg, &b, &extra);
        attr = COLOR_PAIR(pair_for((Tui_Square)bg)) | (attr_t)extra;
    } else {
        if (cursor)
            attr |= A_REVERSE;
        if (mark == TUI_MARK_PATH)
            attr |= A_BOLD;
        if (mark == TUI_MARK_TARGET)
            attr |= A_UNDERLINE;
        if (!names && !cursor && mark == TUI_MARK_NONE &&
            cell->kind == CORE_CELL_DARK) {
            /* (the closing mark only where the glyph leaves room: a
             * Laska column of three fills the cell to its last column;
             * a larger cell has its marks at its edges, on every row) */
            edges = w > TUI_CELL_W;
            text[0] = edges ? ' ' : ':';
            if (text[TUI_CELL_W - 1] == ' ' && !edges)
                text[TUI_CELL_W - 1] = ':';
        }
    }
    attrset(attr);
    for (int r = 0; r < h && w > TUI_CELL_W; r++) {
        mvprintw(y + r, x, "%*s", w, "");
        if (edges) {
            mvaddch(y + r, x, ':');
            mvaddch(y + r, x + w - 1, ':');
        }
    }
    mvaddstr(ty, tx, text);
    if (figurine != NULL) {
        /* Over the letter: a piece on its side's patch (with names, the
         * glyph's column only; else it and the column after, where a
         * font that draws the figurine wide has room), the ball on the
         * square. */
        int at = names ? 0 : 1;
        if (cell->owner >= 0)
            attrset(COLOR_PAIR(pair_for(cell->owner == CORE_WHITE
                                            ? TUI_SQ_WHITE_PIECE
                                            : TUI_SQ_BLACK_PIECE)));
        mvaddstr(ty, tx + at, figurine);
        if (cell->owner >= 0 && !names)
            addch(' ');
    }
    attrset(A_NORMAL);
}

void tui_board_size(const Core_View *v, int scale, int *cols, int *rows)
{
    *cols = 3 + v->cols * TUI_CELL_W * scale;
    *rows = v->rows * scale + 1;
}

int tui_board_scale(const Core_View *v, int cols, int rows)
{
    for (int scale = TUI_MAX_SCALE; scale > 1; scale--) {
        int w, h;
        tui_board_size(v, scale, &w, &h);
        if (w <= cols && h <= rows)
            return scale;
    }
    return 1;
}

void tui_board_draw(
    const Core_View *v, int y, int x, int scale,
    const unsigned char mark[CORE_VIEW_MAX_ROWS][CORE_VIEW_MAX_COLS], int cur_r,
    int cur_c, int colours, int figurines)
{
    int names = tui_view_names_in_cells(v);
    int w = TUI_CELL_W * scale, h = scale;
    for (int r = 0; r < v->rows; r++) {
        mvaddstr(y + r * h + (h - 1) / 2, x - 3, v->row_label[r]);
        for (int c = 0; c < v->cols; c++)
            draw_cell(&v->cell[r][c], y + r * h, x + c * w, w, h, mark[r][c],
                      r == cur_r && c == cur_c, colours,
                      colours && figurines, names);
    }
    for (int c = 0; c < v->cols && !names; c++)
        mvaddstr(y + v->rows * h, x + c * w + (w - TUI_CELL_W) / 2 + 1,
                 v->col_label[c]);
}

/* "...", where a text is cut. */
#define CUT_MARK "..."
#define CUT_MARK_W 3

void tui_put(int y, int x, const char *s, int cols)
{
    if (cols <= 0)
        return;
    if (cli_width(s, (size_t)-1) <= cols) {
        mvaddstr(y, x, s);
        return;
    }
    if (cols <= CUT_MARK_W) {
        mvaddnstr(y, x, CUT_MARK, cols);
        return;
    }
    size_t n = cli_fit(s, cols - CUT_MARK_W);
    /* (the blanks before the cut are left out: "word ..." would read as
     * a word of its own) */
    while (n > 0 && s[n - 1] == ' ')
        n--;
    mvaddnstr(y, x, s, (int)n);
    addstr(CUT_MARK);
}

void tui_put_line(int y, int x, const char *s, size_t n, int cols)
{
    char line[1024];
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, s, n);
    line[n] = '\0';
    tui_put(y, x, line, cols);
}

/* The bytes of the first row of s[0..len) in cols columns: all when
 * they fit; else up to a blank, with gaps at a wider gap in the row's
 * second half if there is one (a list of keys keeps each key with its
 * words), else at the last blank that fits, so a code or a web address
 * is never split (a trial found a link cut inside its invite code); a
 * word wider than the row is cut, after one character at least. */
static size_t row_bytes(const char *s, size_t len, int cols, int gaps)
{
    if (cli_width(s, len) <= cols)
        return len;
    size_t fit = cli_fit(s, cols), n = fit;
    if (fit == 0) {
        for (n = 1; n < len && ((unsigned char)s[n] & 0xC0) == 0x80;)
            n++;
        return n;
    }
    while (gaps && n > fit / 2 && !(s[n] == ' ' && s[n - 1] == ' '))
        n--;
    if (gaps && n > fit / 2)
        return n;
    for (n = fit; n > 0 && s[n] != ' ';)
        n--;
    return n > 0 ? n : fit;
}

/* Draws s as tui_put_wrapped does when draw, else only counts. */
static int wrap(int y, int x, const char *s, int cols, int max_lines,
                int draw)
{
    int used = 0;
    if (cols < 1)
        cols = 1;
    while (*s != '\0' && used < max_lines) {
        size_t len = strlen(s), n = row_bytes(s, len, cols, 1);
        if (used + 1 == max_lines && n < len) {
            if (draw) /* the last row: as much as fits, and the cut shows */
                tui_put(y + used, x, s, cols);
            return used + 1;
        }
        if (draw)
            tui_put_line(y + used, x, s, n, cols);
        used++;
        s += n;
        while (*s == ' ')
            s++;
    }
    return used;
}

int tui_put_wrapped(int y, int x, const char *s, int cols, int max_lines)
{
    return wrap(y, x, s, cols, max_lines, 1);
}

int tui_wrapped_rows(const char *s, int cols)
{
    return wrap(0, 0, s, cols, 1 << 20, 0);
}

/* The bytes of line p[0..len) before its words, when it is a list line
 * (a term, then two blanks or more: "  Enter   select the square"), else
 * 0. */
static size_t list_words(const char *p, size_t len)
{
    size_t at = strspn(p, " ");
    while (at + 1 < len && !(p[at] == ' ' && p[at + 1] == ' '))
        at++;
    if (at + 1 >= len)
        return 0;
    while (at < len && p[at] == ' ')
        at++;
    return at < len ? at : 0;
}

/* The leading blanks of line p[0..len). */
static size_t lead_of(const char *p, size_t len)
{
    size_t lead = strspn(p, " ");
    return lead < len ? lead : len;
}

int tui_put_text(int y, int x, const char *text, int cols, int skip,
                 int max_lines)
{
    char buf[2048];
    int row = 0;
    if (cols < 2)
        cols = 2;
    while (*text != '\0') {
        const char *e = strchr(text, '\n');
        size_t len = e ? (size_t)(e - text) : strlen(text), off = 0;
        size_t lead = lead_of(text, len), words = list_words(text, len);
        /* The rows after the first start under a list line's words, or
         * at the line's indentation, in the left half of the rows. */
        int hang = words > 0 ? cli_width(text, words) : (int)lead;
        if (hang > cols / 2)
            hang = words > 0 && (int)lead <= cols / 2 ? (int)lead : cols / 2;
        const char *line = text;
        text += len + (e != NULL);
        /* A line too long for the window is one of a paragraph set in
         * lines of about 70 columns: the lines after it that go on with
         * its words (indented as its rows after the first, not list
         * lines, and of prose or of a list line's words) join it, so
         * the paragraph is set anew rather than in ragged pieces. */
        if (cli_width(line, len) > cols && (lead == 0 || words > 0) &&
            len < sizeof buf) {
            size_t under = words > 0 ? words : 0; /* (blanks: bytes) */
            memcpy(buf, line, len);
            while (e != NULL) {
                e = strchr(text, '\n');
                size_t next = e ? (size_t)(e - text) : strlen(text);
                size_t nlead = lead_of(text, next);
                if (next == nlead || nlead != under ||
                    list_words(text, next) > 0 ||
                    len + 1 + next - nlead >= sizeof buf)
                    break;
                buf[len++] = ' ';
                memcpy(buf + len, text + nlead, next - nlead);
                len += next - nlead;
                text += next + (e != NULL);
            }
            line = buf;
        }
        int indent = 0;
        do {
            const char *s2 = line + off;
            size_t n = row_bytes(s2, len - off, cols - indent, 0);
            if (row >= skip && row - skip < max_lines)
                tui_put_line(y + row - skip, x + indent, s2, n, cols - indent);
            row++;
            off += n;
            while (off < len && line[off] == ' ')
                off++;
            indent = hang;
        } while (off < len);
    }
    return row;
}
