/*
 * tui_net.h: the full-screen terminal screen of `tabula host`, `join` and
 * `spectate` (tui_net.c), used when standard input and output are a
 * terminal ncurses can drive (tui_terminal_ok); otherwise those commands
 * keep their plain lines.
 */
#ifndef TABULA_TUI_NET_H
#define TABULA_TUI_NET_H

#include "netgame.h"

/*
 * The network screen (tui_net.c): one seat or spectator of a netgame on a
 * libuv loop. The command creates it, attaches the seat and forwards the
 * netgame's hooks to the tui_net_* calls below (each accepts a NULL
 * screen and then does nothing). Keys are read on the loop; moves of the
 * local side go out through netgame_submit.
 */
typedef struct Tui_Net Tui_Net;

/*
 * tui_net_new: start the screen (ncurses) for a seat of role (bot: the
 * seat is played by a bot, so nothing is entered); then tui_net_attach
 * the seat once netgame_new made it. on_quit(user) runs when the user
 * leaves before the game ended (the command then stops the seat); the
 * screen closes its own handles on leaving, so the loop can end.
 * Errors: TB_E_NOMEM, TB_E_IO (no terminal).
 */
int tui_net_new(uv_loop_t *loop, Lobby_Role role, int bot,
                void (*on_quit)(void *user), void *user, Tui_Net **out);

/* tui_net_game: the game the host is about to play, named on the waiting
 * screen (the others learn it from the match start). */
void tui_net_game(Tui_Net *u, const Core_Game *game);

/* tui_net_banner: a line shown under the players during the game (a
 * series' score; copied; NULL or "": none). */
void tui_net_banner(Tui_Net *u, const char *line);

/* tui_net_series_next: the game's end screen says q goes on to the next
 * game of its series (not that it quits); u NULL: nothing. */
void tui_net_series_next(Tui_Net *u);

/* tui_net_attach: the seat the screen shows and sends moves to. */
void tui_net_attach(Tui_Net *u, Netgame *g);

/* Forwarded netgame hooks (see netgame.h). */
void tui_net_room(Tui_Net *u, const char *invite, const char *watch,
                  const char *lobby);
void tui_net_ply(Tui_Net *u, int side, const char *move);
void tui_net_note(Tui_Net *u, int warning, const char *text,
                  const Match_Note *note);
/* tui_net_retry: our connection is lost and is tried again: attempt (1..)
 * and wait_ms until the next, for the status line. */
void tui_net_retry(Tui_Net *u, unsigned attempt, uint32_t wait_ms);

void tui_net_presence(Tui_Net *u, Lobby_Role seat, int present);
/* The game is over: the result stays on screen until the user quits. */
void tui_net_done(Tui_Net *u);

/* tui_net_stop: leave the screen now (endwin, handles closed); the seat
 * must not be used by it afterwards. */
void tui_net_stop(Tui_Net *u);

/* tui_net_warning: the last warning the screen showed ("" when none),
 * for the terminal once the screen is gone. */
const char *tui_net_warning(const Tui_Net *u);

/* tui_net_free: stop the screen if needed and free it, once the loop has
 * run the closes of tui_net_stop. */
void tui_net_free(Tui_Net *u);

#endif /* TABULA_TUI_NET_H */
