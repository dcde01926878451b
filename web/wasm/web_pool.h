/*
 * web_pool.h: the exports of the page's module for the pool (issue 37,
 * docs/pool.md): an offer of several games at a range of clocks, as
 * `tabula pool GAMES --clock A..B` makes one (seat/seat.h's
 * seat_pool_offer: a fresh seat key, an invite code bound to it, its
 * card and the POOL hello proved by the page's identity key), the
 * relay's POOL_WAIT and PAIRED read (lobby/pool_wire.c) and what a
 * pairing means (seat_pool_paired), then the paired game's seat. The
 * page's JavaScript (web/pool.js) only opens the WebSocket, sends the
 * hello, hands each message in and draws the answers.
 */
#ifndef TABULA_WEB_POOL_H
#define TABULA_WEB_POOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct Web_Pool Web_Pool; /* opaque, heap */
struct Web_Net;

/*
 * web_pool_new: an offer of games (names separated by commas, each once:
 * "laska,chessball") at any clock of range (as players type it,
 * proto_clock_range_parse: "3+2..10+5", one clock "5+0", or "" for no
 * clock) with match options (no clock in them; "" the defaults), proved
 * by the player's identity key id_key (hex, as web_key_new gives it; ""
 * the offer's own seat key), paired only with players rated rating
 * ("LO..HI" as `tabula pool --rating` takes it, seat_rating_range; "" any;
 * a rated offer needs id_key and plays under it). NULL with
 * web_last_error and web_last_why in the page's language: TB_E_ARG (no
 * game, a game unknown or named twice: the name), TB_E_OPTION (the range
 * or the rating range refused: the part named, as `tabula pool` says
 * it), TB_E_FORMAT (bad
 * options for a game offered, a clock in them, a damaged id_key),
 * TB_E_NOMEM, TB_E_CRYPTO.
 */
Web_Pool *web_pool_new(const char *games, const char *range,
                       const char *options, const char *id_key,
                       const char *rating);

/* web_pool_hello: the POOL hello to send when the WebSocket opens (bytes
 * in web_out, web_out_len). */
const uint8_t *web_pool_hello(Web_Pool *p);

/*
 * web_pool_input: one message msg[0..len) the lobby sent on the pool's
 * connection:
 *   POOL_WAIT  "wait\tGAME\tN\tGAME\tN...": the offers waiting for each
 *              game this offer holds (its own counted), in the
 *              catalogue's order
 *   PAIRED     "paired\tROLE\tGAME\tCLOCK\tOPTIONS": ROLE 0 host, 1
 *              guest; GAME one offered; CLOCK as --clock takes it ("5+0",
 *              "" none); OPTIONS the match's, the clock in them; then
 *              web_pool_seat makes the game's seat
 * NULL with web_last_error: the lobby's refusal (an ERROR: TB_E_SEEKS an
 * offer of this player waits already, TB_E_ADDRESS, TB_E_FULL, ...; its
 * words in web_last_why), TB_E_FORMAT (no message of the pool's, or a
 * pairing in a game not offered).
 */
const char *web_pool_input(Web_Pool *p, const uint8_t *msg, size_t len);

/*
 * web_pool_lost: the offer's connection ended without a pairing, status
 * its ending (the lobby's refusal as web_pool_input gave it in
 * web_last_error, or TB_E_TRUNCATED: the WebSocket closed unanswered),
 * now_s the page's clock (s). The ms to wait before the same hello goes
 * out again on a new WebSocket, or 0 when the offer ends: seat.h's
 * seat_pool_lost (an offer the lobby took, then lost, is offered again;
 * one never taken, or refused for good, is not).
 */
uint32_t web_pool_lost(Web_Pool *p, int status, uint32_t now_s);

/* web_pool_key: the offer's seat key (hex of its secret key, as
 * web_key_new gives one): the key the paired game's seat signs with, for
 * the page to keep with the seat. Keep it secret. */
const char *web_pool_key(Web_Pool *p);

/* web_pool_seat: after PAIRED, the game's seat as web_net_new makes one
 * (bot, started as there): the host's room under the offer's code,
 * seating the paired guest's key only; the guest joining the host's
 * code, holding its host to the paired game and options. NULL with
 * web_last_why on error (TB_E_STATE: not paired yet). */
struct Web_Net *web_pool_seat(Web_Pool *p, int bot, uint32_t started);

/* web_pool_free: release p (its seat key wiped); 0 is fine. */
void web_pool_free(Web_Pool *p);

#endif /* TABULA_WEB_POOL_H */
