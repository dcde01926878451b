/*
 * game_help.h: what a player needs to read a game's screen and enter its
 * moves, in the game's own terms: how each kind of move is written, with
 * examples taken from the legal moves of the position at hand, and what
 * the letters and symbols on the board mean. Shown by `tabula rules
 * GAME`, by ? on the board screens and by `help` in line mode; the keys
 * of each screen are added by the screen itself.
 */
#ifndef TABULA_GAME_HELP_H
#define TABULA_GAME_HELP_H

#include <stddef.h>

#include "core.h"

/*
 * game_help_text: the help of game g into out (cap bytes, NUL-terminated,
 * lines ended by '\n'): a "Moves" part (each kind of move: how it is
 * written and the first legal move of that kind among legal[0..nlegal),
 * or "none now"), then a "Board" part (the symbols). legal may be NULL
 * when nlegal is 0. Text that does not fit is cut at a line's end.
 * Returns the length written. The terminal's text (game_help_text_for
 * with GAME_HELP_TERMINAL).
 */
size_t game_help_text(const Core_Game *g,
                      const char (*legal)[CORE_NOTATION_MAX], size_t nlegal,
                      char *out, size_t cap);

/* Where a help text is shown: the terminal (its board screen and line
 * mode, `tabula rules`), or the browser page, which has a move box that
 * offers the legal moves instead of Tab completion, and a square's
 * description instead of the board screen's cell line. */
typedef enum Game_Help_Where {
    GAME_HELP_TERMINAL,           /* a board of letters */
    GAME_HELP_PAGE,               /* the page (its board: figurines) */
    GAME_HELP_TERMINAL_FIGURINES /* a board of chess figurines */
} Game_Help_Where;

/*
 * game_help_text_for: game_help_text's text as shown at where: for
 * GAME_HELP_PAGE, the sentences naming what only the terminal has are
 * replaced by the page's (Chess volleyball's Tab completion by the move
 * box's offer; Laska's cell line by a square's description); for
 * GAME_HELP_PAGE and GAME_HELP_TERMINAL_FIGURINES the board's chess
 * pieces are explained as the figurines they are drawn as (which glyph
 * is which piece, and its letter in the moves) instead of as letters
 * (Laska's soldiers and officers are letters everywhere). The same
 * arguments, result and limits as game_help_text.
 */
size_t game_help_text_for(const Core_Game *g,
                          const char (*legal)[CORE_NOTATION_MAX],
                          size_t nlegal, Game_Help_Where where, char *out,
                          size_t cap);

/*
 * game_help_one_line: a one-line reminder of how moves are written in g
 * with one example from legal (the first legal move), for refusals:
 * e.g. "moves look like c3-d4, captures b2xd4; a legal move now: a3-b4".
 * When every legal move of a game with compulsory captures (Laska) is a
 * capture, it says so first and names up to four of them: "capturing is
 * compulsory, the capture now: e5xc3; moves look like ...". Into out
 * (cap bytes).
 */
void game_help_one_line(const Core_Game *g,
                        const char (*legal)[CORE_NOTATION_MAX], size_t nlegal,
                        char *out, size_t cap);

/*
 * game_help_board_note: a short note on what v, a board of g, does not
 * show, or "": in Chess volleyball before a serve the ball is in the
 * server's hand and on no square ("ball: in the server's hand").
 */
const char *game_help_board_note(const Core_Game *g, const Core_View *v);

/* game_help_repeats: 1 when a side of g often acts several times running
 * (Chess volleyball), so a move list must say who acted on each ply. */
int game_help_repeats(const Core_Game *g);

#endif /* TABULA_GAME_HELP_H */
