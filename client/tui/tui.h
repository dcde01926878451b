/*
 * tui.h: the full-screen terminal screens (ncurses), used when standard
 * input and output are terminals: the board of `tabula play`, the replay
 * viewer of `tabula replay` (the network screen of host, join and
 * spectate is in tui_net.h).
 */
#ifndef TABULA_TUI_H
#define TABULA_TUI_H

#include "session.h"

/*
 * tui_terminal_ok: 1 when standard input and output are terminals that
 * ncurses can drive (TERM known, with cursor addressing), else 0: then
 * the commands keep to plain lines.
 */
int tui_terminal_ok(void);

/*
 * tui_letters: letters 1 (the --letters flag of play, host, join,
 * spectate, replay and rules) keeps every board's pieces drawn as
 * letters, capitals White; 0, the default, lets chess pieces be drawn
 * as figurines where tui_figurines allows. For the whole process.
 */
void tui_letters(int letters);

/*
 * tui_figurines: 1 when chess pieces are shown as figurines (the board
 * screens, and the legend of ? and `tabula rules`): not tui_letters(1),
 * and the character set of LC_CTYPE (nl_langinfo(CODESET), after
 * cli_i18n_init) is UTF-8; else 0. A board screen also needs colours
 * (tui_board.h). Line mode's board keeps the letters.
 */
int tui_figurines(void);

/*
 * tui_play: run the board for session s until the user quits (q or
 * Ctrl-C); bots move in turn. The names label the players.
 * Errors: TB_E_NOMEM, TB_E_IO (no terminal).
 */
int tui_play(Session *s, const char *white_name, const char *black_name);

/* A verified game for the replay viewer. */
typedef struct Tui_Replay {
    const Core_Game *game;
    const Core_Position *start; /* the position before the first move */
    const Core_Move *moves;     /* the plies, in order, each legal */
    size_t nmoves;
    size_t start_ply;           /* shown first (clamped to nmoves) */
    const char *file;           /* labels: the file shown, */
    const char *white;          /* the players, */
    const char *black;
    const char *result;         /* and the result in the user's words */
} Tui_Replay;

/*
 * tui_replay: step through r until the user quits (q): left/right one
 * ply, Home/End, PgUp/PgDn ten plies, g then a number and Enter to jump.
 * Errors: TB_E_NOMEM, TB_E_IO (no terminal).
 */
int tui_replay(const Tui_Replay *r);

#endif /* TABULA_TUI_H */
