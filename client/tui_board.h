/*
 * tui_board.h: drawing a core_view board with ncurses, shared by the
 * play screen (tui.c) and the replay viewer (tui_replay.c): cells four
 * columns wide, row labels on the left, column labels below, colours
 * with a monochrome fallback, and marks for selected squares, legal
 * targets and the cursor. Call after initscr().
 */
#ifndef TABULA_TUI_BOARD_H
#define TABULA_TUI_BOARD_H

#include "core.h"

#define TUI_CELL_W 4

/* What a cell shows beyond the view. */
typedef enum Tui_Mark {
    TUI_MARK_NONE = 0,
    TUI_MARK_PATH,  /* selected, or a square of the last move (yellow) */
    TUI_MARK_TARGET /* a square that can come next (green) */
} Tui_Mark;

/* Set up the colour pairs; returns 1 when the terminal has colours. */
int tui_board_colours(void);

/*
 * tui_board_draw: draw v with its top-left cell at screen row y, column x
 * (row labels go at column 1, column labels on the row below the board).
 * mark[r][c] is a Tui_Mark for each cell; (cur_r, cur_c) is the cursor
 * cell, or -1 for none; colours as tui_board_colours returned.
 */
void tui_board_draw(
    const Core_View *v, int y, int x,
    const unsigned char mark[CORE_VIEW_MAX_ROWS][CORE_VIEW_MAX_COLS], int cur_r,
    int cur_c, int colours);

#endif /* TABULA_TUI_BOARD_H */
