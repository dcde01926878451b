/*
 * web_seat.h: the exports of the page's module that hand the page the
 * seat layer's policies (seat/seat.h) and the numbers C defines, so the
 * page's JavaScript keeps no copy of either (issue 36): how long to wait
 * before reconnecting, a clock typed as chess players write it, the
 * TB_E_* codes by name, the kinds web_net_poll answers by name.
 */
#ifndef TABULA_WEB_SEAT_H
#define TABULA_WEB_SEAT_H

#include <stdint.h>

/* web_clock_options: seat_clock_options(options, clock): the host's
 * match options with the clock typed in the page (NULL or "" for none)
 * added. The options text, or NULL: web_last_error TB_E_OPTION (or
 * TB_E_ARG: the options hold a clock already) and web_last_why the
 * refusal in the page's language ("bad clock '5x': expected
 * MINUTES+SECONDS ..."), or TB_E_SPACE. */
const char *web_clock_options(const char *options, const char *clock);

/* web_conduct_line: match_conduct_line(line): 1 when the line typed in
 * the move box is a conduct command for the session (resign, draw,
 * accept, decline, abort, takeback [N], claim win|draw, or a malformed
 * one the session refuses with its reason), 0 when it is a move. */
int web_conduct_line(const char *line);

/* web_takeback_plies: match_takeback_plies for the page's local game:
 * how many of its last plies a Take back undoes for the human sides
 * (bit 0 White, bit 1 Black), the game of name and options having been
 * played with moves (canonical texts, one a line). 0: nothing to take
 * back (or a move that does not read, web_last_why says which). */
uint32_t web_takeback_plies(const char *name, const char *options,
                            const char *moves, unsigned sides);

/* web_codes: the numbers the page needs from C, one "GROUP\tNAME\tVALUE"
 * line each: GROUP "error" for every TB_E_* code of core/tb_error.h
 * (NAME "TB_E_CODE", ...), "net" for every Match_Out kind that
 * web_net_poll answers (NAME "SEND", "PLY", ...). NULL on TB_E_NOMEM. */
const char *web_codes(void);

/*
 * web_glance_log: a kept seat's match log buf[0..len) (what web_net_log
 * gave) at a glance for the player of side (0 the host, white; 1 the
 * guest), at now (Unix ms, Date.now()), as `tabula games` reads a
 * seat's log (client/game_glance.h, the same verification): one line
 * "TURN\tGAME\tOUTCOME\tREASON\tLEFT_MS\tLEFT\tLAST_PLY\tLAST\t
 * ENVELOPES\tCAUGHT": TURN "waiting", "you", "opponent" or "over";
 * OUTCOME "*" or the result ("1-0"), REASON core_reason_name once over;
 * LEFT_MS the running clock's time left (-1: none) and LEFT the same in
 * the page's language ("2d23h"; "-" for none); LAST_PLY 0 or the last
 * move's ply and LAST its notation; CAUGHT 1 (a log holds what it
 * holds). NULL when the log does not verify (web_last_error says why).
 */
const char *web_glance_log(const uint8_t *buf, size_t len, int side,
                           double now);

#endif /* TABULA_WEB_SEAT_H */
