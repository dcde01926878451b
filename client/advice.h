/*
 * advice.h: the sentences that tell a player of a network game what went
 * wrong in their terms and what to type next: why the lobby refused or
 * could not be reached, and what to do when the connection is gone for
 * good. Kept apart from the match session (netgame.c), which only calls
 * these to word its warnings.
 */
#ifndef TABULA_ADVICE_H
#define TABULA_ADVICE_H

#include <stddef.h>

#include "lobby_wire.h"

/*
 * advice_lobby_failure: into out (cap bytes, no newline), why a seat of
 * role never got into its room at lobby (address "HOST:PORT") and the
 * next command to try; reason is the lobby's refusal (TB_E_CODE,
 * TB_E_SEAT, TB_E_WATCH_CODE, TB_E_RATE, TB_E_FULL, TB_E_VERSION,
 * TB_E_SIGNATURE, ...), TB_E_HTTP (the address answered in HTTP: the
 * lobby's web port) or a libuv error from connecting; code is the
 * code typed (NULL for the host).
 */
void advice_lobby_failure(char *out, size_t cap, const char *lobby,
                          int reason, Lobby_Role role, const char *code);

/*
 * advice_gave_up_refused: into out (cap bytes, no newline), that the seat
 * stopped trying a lobby that was there but kept refusing it with reason
 * (a TB_E_* refusal that passes, seat_refusal_ends: TB_E_SEAT when
 * another player holds the seat, a full lobby, ...) for give_up_s
 * seconds, naming the refusal; that the game is not over; and whether
 * the same command takes the seat back (has_log).
 */
void advice_gave_up_refused(char *out, size_t cap, const char *lobby,
                            unsigned give_up_s, int reason, int has_log);

/*
 * advice_seat_refused: into out (cap bytes, no newline), that the lobby
 * at lobby refused a seat it had let in, for good (seat_refusal_ends:
 * reason TB_E_REPLACED, another connection with the seat's key took it; any
 * other reason named as tb_strerror words it), that this seat stops and
 * that the game is not over.
 */
void advice_seat_refused(char *out, size_t cap, const char *lobby, int reason);

/*
 * advice_seat_stopped: into out (cap bytes, no newline), why a seat of
 * role at lobby stopped without the game over, from what the seat said
 * (seat.h's SEAT_OUT_FAILED: failure SEAT_FAIL_ADMISSION, _ENDED or
 * _GAVE_UP, its reason, refused 1 when the relay answered): the words of
 * advice_lobby_failure (code: the code typed; a refusal it has no words
 * for is "the lobby at LOBBY refused this seat (REASON)"),
 * advice_seat_refused or advice_gave_up_refused (has_log: the seat keeps
 * a log, so the same command takes it back). A seat never gives up a
 * lobby that is away (seat.h).
 */
void advice_seat_stopped(char *out, size_t cap, const char *lobby,
                         Lobby_Role role, const char *code, int failure,
                         int reason, int refused, int has_log);

/*
 * advice_page_stopped: as advice_seat_stopped, in the browser page's
 * terms (its links and a reload instead of commands; the page keeps its
 * seat in the tab): the page's module (web_net_advice) says it. The
 * words both say (a rate limit, a code whose last group is mistyped, a
 * seat taken by another connection) are one msgid.
 */
void advice_page_stopped(char *out, size_t cap, const char *lobby,
                         const char *code, int failure, int reason,
                         int refused);

/*
 * advice_set_transport: words(reason) says a connection error (the
 * terminal's main sets net_strerror); until set, its TB_E_* text.
 */
void advice_set_transport(const char *(*words)(int reason));

#endif /* TABULA_ADVICE_H */
