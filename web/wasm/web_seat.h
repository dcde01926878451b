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

#endif /* TABULA_WEB_SEAT_H */
