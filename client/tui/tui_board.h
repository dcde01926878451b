/*
 * tui_board.h: drawing a core_view board with ncurses, shared by the
 * play screen (tui.c) and the replay viewer (tui_replay.c): cells four
 * columns wide and one row high, or two or three times that in a large
 * window, row labels on the left, column labels below, colours with a
 * monochrome fallback, and marks for selected squares, legal targets and
 * the cursor; and the text drawing the screens share (cut with an
 * ellipsis, wrapped at words). Call after initscr().
 */
#ifndef TABULA_TUI_BOARD_H
#define TABULA_TUI_BOARD_H

#include "core.h"

#define TUI_CELL_W 4
/* The largest scale of a board: cells TUI_CELL_W * scale columns wide
 * and scale rows high. */
#define TUI_MAX_SCALE 3

/* What a cell shows beyond the view. */
typedef enum Tui_Mark {
    TUI_MARK_NONE = 0,
    TUI_MARK_PATH,  /* selected, or a square of the last move (yellow) */
    TUI_MARK_TARGET /* a square that can come next (green) */
} Tui_Mark;

/*
 * tui_view_turn: turn v half round, as the other side sees it: rows and
 * columns reversed with their labels, so Black's pieces come to the
 * bottom. Cell names stay the notation's, so moves are entered alike.
 */
void tui_view_turn(Core_View *v);

/*
 * tui_view_names_in_cells: 1 when the names of v's cells cannot be read
 * off its row and column labels (Chessball's fields sit at longitudes,
 * so "b3" is no column's name): then each cell shows its name after
 * its glyph ("Kb3") and the column labels are left out; 0 otherwise.
 */
int tui_view_names_in_cells(const Core_View *v);

/*
 * tui_cell_text: the TUI_CELL_W characters (and a NUL) a cell shows in
 * plain text: the glyph (" ." on an empty dark square), or with names
 * the glyph's first letter (or a space) and the name.
 */
void tui_cell_text(const Core_Cell *cell, int names, char out[TUI_CELL_W + 1]);

/* What a cell's colours say, in pair order (tui_board_pair). */
typedef enum Tui_Square {
    TUI_SQ_LIGHT,
    TUI_SQ_DARK,
    TUI_SQ_GOAL,
    TUI_SQ_NET,
    TUI_SQ_TARGET,
    TUI_SQ_PATH,
    TUI_SQ_CURSOR,
    TUI_SQ_WHITE_PIECE, /* a figurine's patch (tui_board_figurines) */
    TUI_SQ_BLACK_PIECE,
    TUI_SQ_COUNT
} Tui_Square;

/*
 * tui_board_pair: the foreground and background colour numbers (0..7,
 * the curses COLOR_* of the 8-colour palette every colour terminal has)
 * and the extra attribute (A_REVERSE for the cursor) every cell of
 * square kind sq is drawn with, a piece's letter of either side or none.
 * Every letter is drawn black on a light background, its case telling
 * its side (capitals White, as FEN writes them; Laska's w and b), and
 * black on white, cyan, green and yellow reads in the xterm, VTE and
 * Linux console palettes (issue 39: bold white on light grey did not;
 * tests/client/test_tui_colours.c checks each pair's contrast). A
 * figurine has no case: White's is drawn white on a black patch
 * (TUI_SQ_WHITE_PIECE), Black's black on a white one (TUI_SQ_BLACK_PIECE),
 * on any square.
 */
void tui_board_pair(Tui_Square sq, short *fg, short *bg, unsigned *extra);

/* Set up the colour pairs; returns 1 when the terminal has colours. */
int tui_board_colours(void);

/*
 * tui_board_figurines: 1 when boards are drawn with chess figurines:
 * tui_figurines() (UTF-8, no --letters) and colours (as
 * tui_board_colours returned: without them the two sides' figurines
 * would look alike); else 0, letters.
 */
int tui_board_figurines(int colours);

/*
 * tui_figurine: the UTF-8 text (one terminal column) a cell's piece is
 * drawn as with figurines: cli_piece_figurine of the piece
 * cli_cell_piece tells (the side told by the colours, tui_board_pair);
 * NULL for an empty cell and for the pieces chess has no figurine for
 * (Chess volleyball's vizier, moor, jack and cat; Laska's columns),
 * which keep their letters.
 */
const char *tui_figurine(const Core_Cell *cell);

/*
 * tui_board_size: the columns and rows v's board takes when drawn at
 * scale (1 to TUI_MAX_SCALE) by tui_board_draw: from its row labels
 * (three columns left of the cells) to its last cell's right edge, and
 * from its top cell row to its column labels' row.
 */
void tui_board_size(const Core_View *v, int scale, int *cols, int *rows);

/*
 * tui_board_scale: the largest scale (1 to TUI_MAX_SCALE) at which v's
 * board (tui_board_size) fits in cols columns and rows rows; 1 when none
 * does (the screens keep their size checks).
 */
int tui_board_scale(const Core_View *v, int cols, int rows);

/*
 * tui_board_draw: draw v with its top-left cell at screen row y, column x
 * at scale (1 to TUI_MAX_SCALE: each cell TUI_CELL_W * scale columns
 * wide and scale rows high, its piece in the middle); row labels go
 * three columns left of x on each rank's piece row, column labels on the
 * row below the board. mark[r][c] is a Tui_Mark for each cell; (cur_r,
 * cur_c) is the cursor cell, or -1 for none; colours as
 * tui_board_colours returned; figurines as tui_board_figurines returned
 * (ignored without colours). Cell names are drawn in the cells when
 * tui_view_names_in_cells says so. The cell under screen row sy, column
 * sx is row (sy - y) / scale, column (sx - x) / (TUI_CELL_W * scale).
 */
void tui_board_draw(
    const Core_View *v, int y, int x, int scale,
    const unsigned char mark[CORE_VIEW_MAX_ROWS][CORE_VIEW_MAX_COLS], int cur_r,
    int cur_c, int colours, int figurines);

/*
 * tui_put: draw the UTF-8 text s at screen row y, column x, in at most
 * cols terminal columns (widths measured, so a Czech or Russian line is
 * neither cut in a letter nor counted by its bytes); a text wider than
 * that is cut and ends in "..." so that the cut shows. Nothing when cols
 * <= 0.
 */
void tui_put(int y, int x, const char *s, int cols);

/* tui_put_line: as tui_put, the first n bytes of s only (a line of a
 * longer text). */
void tui_put_line(int y, int x, const char *s, size_t n, int cols);

/*
 * tui_put_wrapped: draw s from row y, column x, wrapped at blanks (at a
 * run of two or more when the line has one in its second half) into
 * lines of at most cols terminal columns (a word longer than a line is
 * cut), on at most max_lines rows; when s needs more, the last row ends
 * in "..." (tui_put). Returns the rows used (0 for an empty s or
 * max_lines <= 0).
 */
int tui_put_wrapped(int y, int x, const char *s, int cols, int max_lines);

/*
 * tui_wrapped_rows: the rows tui_put_wrapped would use for s in cols
 * columns, without a limit.
 */
int tui_wrapped_rows(const char *s, int cols);

/*
 * tui_put_text: a page of text (lines parted by '\n') wrapped at blanks
 * into cols columns, as a pager shows it: the rows after a line's first
 * keep its indentation, and those of a list line ("  Enter   select the
 * square") start under its words, where that is in the left half; a line
 * too wide for cols is set anew with the lines after it that go on with
 * its words (as indented as its rows after the first). Of the
 * page's rows, the first skip are left out and the next max_lines drawn
 * from row y, column x (max_lines 0: none, to count them). Returns the
 * page's rows in all.
 */
int tui_put_text(int y, int x, const char *text, int cols, int skip,
                 int max_lines);

#endif /* TABULA_TUI_BOARD_H */
