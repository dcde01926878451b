/*
 * game_glance.h: one of the player's network games at a glance (issue
 * 37, correspondence): whose move it is, the time left on the running
 * clock and the last move on the board, read from the game's verified
 * transcript. `tabula games` (client/cmd_games.c: the seats' logs, and
 * the games --wait watches) and the page's list of kept games and its
 * "your move" notices (web/wasm/web_seat.c, web_match.c) read a game
 * with it, so both say alike whose move it is and how long is left.
 */
#ifndef TABULA_GAME_GLANCE_H
#define TABULA_GAME_GLANCE_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "proto.h"

typedef enum Cli_Turn {
    CLI_TURN_WAITING = 0, /* no match start yet: no opponent */
    CLI_TURN_YOU,         /* the player's move */
    CLI_TURN_OPPONENT,    /* the opponent's move */
    CLI_TURN_OVER         /* the game is over: outcome, reason */
} Cli_Turn;

typedef struct Cli_Glance {
    Cli_Turn turn;
    char game[PROTO_NAME_MAX + 1]; /* "" before the match start */
    const char *outcome;           /* core_outcome_name ("*" ongoing) */
    const char *reason;            /* core_reason_name, once over */
    int64_t left_ms;               /* the running clock's time left at
                                      now (0 when fallen); -1: none */
    uint32_t last_ply;             /* the last move's ply (1 the first);
                                      0: no move yet */
    char last[CORE_NOTATION_MAX];  /* its notation */
    uint32_t envelopes;            /* in the transcript (a new one: a
                                      move, an offer, the end) */
} Cli_Glance;

/*
 * cli_glance: the game of transcript t (a verified one, witnessed as a
 * seat's log is) for the player of side (CORE_WHITE, the host; or
 * CORE_BLACK) at now_ms (Unix ms, this machine's clock against the
 * relay's witnessed turn start) into *out. Never fails: a move the core
 * cannot format leaves last empty.
 */
void cli_glance(const Proto_Transcript *t, int side, uint64_t now_ms,
                Cli_Glance *out);

/*
 * cli_glance_log: a match log buf[0..len) verified as `tabula games`
 * verifies a seat's log (proto_log_verify_witnessed; a log cut inside
 * its last frame is read up to it), then cli_glance. 0, or the error of
 * the verification (TB_E_TRUNCATED: nothing whole to read), *out then
 * zero.
 */
int cli_glance_log(const uint8_t *buf, size_t len, int side, uint64_t now_ms,
                   Cli_Glance *out);

/*
 * cli_left_text: ms as a player reads the time left: "2d23h", "5h4m",
 * "4m10s", "9s" (negatives as 0) into out (cap bytes). words nonzero: in
 * the language of _() (the page's catalogue), else in the English a
 * script reads from `tabula games`.
 */
void cli_left_text(int64_t ms, int words, char *out, size_t cap);

#endif /* TABULA_GAME_GLANCE_H */
