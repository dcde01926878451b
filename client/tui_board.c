/*
 * tui_board.c: a core_view board drawn with ncurses (see tui_board.h),
 * one drawing for the play screen and the replay viewer; and the check
 * that the terminal can show them (tui.h).
 */
#define _POSIX_C_SOURCE 200809L /* isatty */

#include <curses.h>
#include <string.h>
#include <term.h>
#include <unistd.h>

#include "tui.h"
#include "tui_board.h"

int tui_terminal_ok(void)
{
    int err = 0;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return 0;
    /* initscr() would end the program on a terminal it cannot drive
     * (TERM unset, unknown, or without cursor addressing). */
    if (setupterm(NULL, STDOUT_FILENO, &err) != OK)
        return 0;
    int usable = tigetstr("cup") != NULL && tigetstr("cup") != (char *)-1;
    del_curterm(cur_term);
    return usable;
}

/* Cell backgrounds, in colour pair order. */
enum {
    BG_LIGHT,
    BG_DARK,
    BG_GOAL,
    BG_NET,
    BG_TARGET,
    BG_PATH,
    BG_CURSOR,
    BG_COUNT
};

static short pair_for(int owner, int bg)
{
    return (short)(1 + (owner + 1) * BG_COUNT + bg);
}

int tui_board_colours(void)
{
    static const short bgs[BG_COUNT] = {COLOR_WHITE,  COLOR_CYAN,  COLOR_RED,
                                        COLOR_WHITE,  COLOR_GREEN, COLOR_YELLOW,
                                        COLOR_MAGENTA};
    static const short fgs[3] = {COLOR_MAGENTA, COLOR_WHITE, COLOR_BLACK};
    if (!has_colors())
        return 0;
    start_color();
    for (int o = -1; o <= 1; o++)
        for (int b = 0; b < BG_COUNT; b++)
            init_pair(pair_for(o, b), fgs[o + 1], bgs[b]);
    return 1;
}

static void draw_cell(const Core_Cell *cell, int y, int x, int mark, int cursor,
                      int colours)
{
    int bg;
    attr_t attr = A_NORMAL;
    char text[TUI_CELL_W + 1];

    if (cell->kind == CORE_CELL_BLANK && !cursor) {
        mvaddstr(y, x, "    ");
        return;
    }
    switch (cell->kind) {
    case CORE_CELL_DARK:
        bg = BG_DARK;
        break;
    case CORE_CELL_GOAL:
        bg = BG_GOAL;
        break;
    case CORE_CELL_NET:
        bg = BG_NET;
        break;
    default:
        bg = BG_LIGHT;
        break;
    }
    if (mark == TUI_MARK_TARGET)
        bg = BG_TARGET;
    else if (mark == TUI_MARK_PATH)
        bg = BG_PATH;
    if (cursor)
        bg = BG_CURSOR;
    memset(text, ' ', TUI_CELL_W);
    text[TUI_CELL_W] = '\0';
    size_t g = strlen(cell->glyph);
    if (g > 3)
        g = 3;
    memcpy(text + 1, cell->glyph, g);
    if (g == 0 && mark == TUI_MARK_TARGET)
        text[1] = '.';
    if (colours) {
        attr = COLOR_PAIR(pair_for(cell->owner, bg));
        if (cell->owner == CORE_WHITE)
            attr |= A_BOLD;
    } else {
        if (cursor)
            attr |= A_REVERSE;
        if (mark == TUI_MARK_PATH)
            attr |= A_BOLD;
        if (mark == TUI_MARK_TARGET)
            attr |= A_UNDERLINE;
        if (!cursor && mark == TUI_MARK_NONE && cell->kind == CORE_CELL_DARK)
            text[0] = ':', text[TUI_CELL_W - 1] = ':';
    }
    attrset(attr);
    mvaddstr(y, x, text);
    attrset(A_NORMAL);
}

void tui_board_draw(
    const Core_View *v, int y, int x,
    const unsigned char mark[CORE_VIEW_MAX_ROWS][CORE_VIEW_MAX_COLS], int cur_r,
    int cur_c, int colours)
{
    for (int r = 0; r < v->rows; r++) {
        mvaddstr(y + r, 1, v->row_label[r]);
        for (int c = 0; c < v->cols; c++)
            draw_cell(&v->cell[r][c], y + r, x + c * TUI_CELL_W, mark[r][c],
                      r == cur_r && c == cur_c, colours);
    }
    for (int c = 0; c < v->cols; c++)
        mvaddstr(y + v->rows, x + c * TUI_CELL_W + 1, v->col_label[c]);
}
