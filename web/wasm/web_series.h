/*
 * web_series.h: a series on the page (issue 38; `tabula host GAME
 * --series N` on a terminal): the seat layer's series policy (seat/seat.h
 * "a series": which game follows, who hosts it, its code and options,
 * the score in table points, when it stops), which the terminal drives
 * too (client/series.c). The page only asks, after each game of a seat
 * ends (the seat's DONE), and starts the seat this gives.
 */
#ifndef TABULA_WEB_SERIES_H
#define TABULA_WEB_SERIES_H

#include <stdint.h>

#include "web_match.h"

typedef struct Web_Series Web_Series; /* opaque, heap */

/*
 * web_series_options: a host's match options (as web_net_new takes them)
 * with a series of games games added ("series=1/N": seat_series_options);
 * games 0 or 1: options as they are. NULL with web_last_why in the page's
 * language on TB_E_ARG (games outside 2..PROTO_SERIES_MAX), TB_E_SPACE.
 */
const char *web_series_options(const char *options, unsigned games);

/*
 * web_series_after: the game of seat n ended (its DONE): with s NULL,
 * the series whose first game it was, as the seat whose key is key (hex,
 * web_key_new's: the series' key for every game) plays it, with the game
 * counted; NULL and web_last_error 0 when it is no series' first game of
 * this seat. With s, the game is counted into s and s returned.
 * web_series_state then says what follows. NULL on error: TB_E_FORMAT (a
 * damaged key), TB_E_NOMEM.
 */
Web_Series *web_series_after(Web_Series *s, Web_Net *n, const char *key);

/*
 * web_series_state: "GAMES\tPLAYED\tYOU\tOPPONENT\tSTOP\tHOST\tOPTIONS":
 * the series' games, those counted, the score as a player reads it
 * ("1.5"), the stop (0 while it goes on, else seat.h's SEAT_SERIES_OVER
 * 2, _ABORTED 3, _UNFINISHED 4), 1 when this seat hosts (plays White in)
 * the next game, and that game's match options (its host's, which its
 * guest holds the host to; "" once the series stopped).
 */
const char *web_series_state(Web_Series *s);

/* web_series_line: the line every screen of a series' game shows
 * ("Series: game K of N; score: you P - opponent Q") for seat n's game
 * (its number from its start), with s's score so far (NULL: 0 - 0), in
 * the page's language; before n's start, the game after s's last one
 * (while s goes on); "" when n's game is no series' (or has not started
 * and s is NULL or stopped). */
const char *web_series_line(Web_Net *n, Web_Series *s);

/* web_series_stop_text: why the series stopped, or that it is over, in
 * the page's language. */
const char *web_series_stop_text(Web_Series *s);

/*
 * web_series_next: the seat of the series' next game (a Web_Net as
 * web_net_new makes one): host of the room under the code both players
 * compute, seating only the opponent's key, or its guest holding the
 * host to the game and options; bot, started as web_net_new takes them.
 * NULL with web_last_why on error: TB_E_STATE (the series stopped),
 * those of web_net_new.
 */
Web_Net *web_series_next(Web_Series *s, int bot, uint32_t started);

/*
 * web_series_resume: the seat of the series' next game taken back after a
 * reload, as web_net_resume takes one (seat, log, len: the stored seat's
 * text and log; bot, started as there), held to the series as
 * web_series_next's seat is: a guest to the game and options, a host
 * seating only the opponent's key (a trial: a reloaded guest played its
 * host's game at any clock). NULL with web_last_why: TB_E_FORMAT (role
 * is not the seat's in that game, or the stored seat's code is not the
 * game's), those of web_net_resume.
 */
Web_Net *web_series_resume(Web_Series *s, int role, int bot, uint32_t started,
                           const char *seat, const uint8_t *log, size_t len);

/* web_series_text: the series as one line for the page's storage
 * (seat_series_text); web_series_read: that line back, with the key
 * (hex) it was played under; NULL on TB_E_FORMAT (a damaged line or a
 * key that is not its). */
const char *web_series_text(Web_Series *s);
Web_Series *web_series_read(const char *text, const char *key);

/* web_series_free: release s; NULL is fine. */
void web_series_free(Web_Series *s);

#endif /* TABULA_WEB_SERIES_H */
