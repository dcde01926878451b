/*
 * seat.h: the seat layer (issue 36): what one seat of a network game does
 * between the match session (match/match.h) and the program that drives
 * it, without I/O, so the terminal (client/netgame.c), the page (its
 * WebAssembly module, web/wasm/) and the simulator (client/simworld.c)
 * ask one implementation and none keeps a copy. Time comes in as a
 * number; nothing here reads a clock, a socket, a file or a random
 * source.
 *
 * This first part holds the policies the three drivers had each written
 * themselves: how long a seat waits before it tries the relay again,
 * which refusals end a seat, and how a clock typed as chess players write
 * it ("5+3") becomes the match option. Texts for people are English msgids
 * marked N_(): the driver translates them (_() in the terminal, the page's
 * catalogue in the module).
 */
#ifndef TABULA_SEAT_H
#define TABULA_SEAT_H

#include <stddef.h>
#include <stdint.h>

/* ---- reconnecting -------------------------------------------------- */

/* How long a seat that had been let into its room keeps trying to reach
 * the relay after it lost it before it stops (ms). */
#define SEAT_GIVE_UP_MS 60000u

/* The longest wait between two attempts (ms). */
#define SEAT_RETRY_MAX_MS 8000u

/*
 * seat_retry_ms: how long (ms) a seat of role (MATCH_ROLE_HOST, _GUEST or
 * _SPECTATOR) waits before attempt number attempt + 1 to reach its room
 * again, attempt being the failed attempts since the connection was lost
 * (0 for the first retry) and reason the last failure (a TB_E_* refusal
 * of the relay, a transport error, or 0).
 *
 * The first wait: 6000 after TB_E_RATE (the relay refuses the address for
 * a while after too many wrong codes); 100 for the host, which comes back
 * first, because after a relay restart its CREATE makes the room again
 * and until then the others' JOIN and WATCH find no room and count as
 * wrong codes; 2000 for the others after TB_E_CODE (no room yet), 1000
 * otherwise. Each further failed attempt waits twice as long as the one
 * before, up to SEAT_RETRY_MAX_MS. Never fails.
 */
uint32_t seat_retry_ms(int role, int reason, unsigned attempt);

/*
 * seat_refusal_ends: 1 when the relay's refusal reason (the TB_E_* code
 * of lobby_client_refusal) ends a seat that had been let into its room:
 * TB_E_REPLACED (another connection with the seat's own key and secret
 * took it: the same command run again elsewhere, a reloaded page;
 * retrying would take it back and the two would push each other out in
 * turn), TB_E_VERSION, TB_E_SIGNATURE, TB_E_WATCH_CODE, TB_E_LIMIT,
 * TB_E_STATE, TB_E_FORMAT and any other refusal. 0 for the refusals that
 * pass, after which the seat keeps trying (seat_retry_ms, until
 * SEAT_GIVE_UP_MS): TB_E_CODE (after a relay restart the room is made
 * again when its host comes back), TB_E_RATE (too many wrong codes from
 * the address, for a while), TB_E_FULL (the relay is full for now) and
 * TB_E_SEAT (a connection with another secret holds the seat, as one
 * that joined first after a relay restart may: it may leave); and 0 for
 * reason 0 (no refusal: the network).
 */
int seat_refusal_ends(int reason);

/* ---- clocks -------------------------------------------------------- */

/*
 * seat_clock_options: the host's match options options (may be "") with
 * the clock text clock added as the option "clock=BASE+INC" (seconds;
 * proto_clock_split's form), into out (cap bytes). clock is written as
 * chess players write it: "M+I" is M minutes each and I seconds added
 * after each move ("5+3"); "Ns+I" gives the base in seconds ("30s+1"); I
 * may end in 's' too ("5+3s" is "5+3"). Only decimal digits, no sign, no
 * spaces; 1..1440 minutes (1..86400 s), 0..3600 s a move. clock NULL:
 * options unchanged.
 * Errors: TB_E_OPTION (the clock is not so written or out of range: say
 * seat_clock_bad with the text typed), TB_E_ARG (options hold a clock
 * already: say seat_clock_twice), TB_E_SPACE (cap too small).
 */
int seat_clock_options(const char *options, const char *clock, char *out,
                       size_t cap);

/*
 * seat_clock_bad: the English printf format (one %s: the clock text as
 * typed) that tells a player a clock was refused and how to write one,
 * "bad clock '%s': expected MINUTES+SECONDS as in chess (...)"; marked
 * N_() for the catalogues (po/), so a driver prints _(seat_clock_bad()).
 */
const char *seat_clock_bad(void);

/* seat_clock_twice: the English text (no format) that tells a player the
 * match options hold a clock already besides the one typed, N_() marked. */
const char *seat_clock_twice(void);

#endif /* TABULA_SEAT_H */
