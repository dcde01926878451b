/*
 * tui.h: the full-screen terminal board (ncurses), used when standard
 * input and output are terminals.
 */
#ifndef TABULA_TUI_H
#define TABULA_TUI_H

#include "session.h"

/*
 * tui_play: run the board for session s until the user quits (q or
 * Ctrl-C); bots move in turn. The names label the players.
 * Errors: TB_E_NOMEM, TB_E_IO (no terminal).
 */
int tui_play(Session *s, const char *white_name, const char *black_name);

#endif /* TABULA_TUI_H */
