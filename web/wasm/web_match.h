/*
 * web_match.h: the exports of the page's module that play a network game
 * (issue 14): a seat or a spectator of a match in a lobby room, as
 * `tabula host`, `join` and `spectate` play one, driven from JavaScript
 * over the lobby's WebSocket (subprotocol tabula-lobby, one lobby message
 * per binary message, docs/protocol-lobby.md). The module holds one seat
 * of the seat layer (seat/seat.h), as the terminal does: the lobby codec
 * (host key checked against the code, sequence numbers), the match
 * session (signatures, hash chain, legality, state hashes, clocks,
 * offers, takebacks, the bot's turns, the match log) and the
 * connection's policy (when to connect, retry, give up). The page only:
 *   - opens a WebSocket to its lobby on CONNECT, sends web_net_hello's
 *     bytes when it opens, and every SEND output's bytes; closes it on
 *     CLOSE;
 *   - hands each binary message it receives to web_net_input (a negative
 *     answer: close the socket), and calls web_net_closed when the socket
 *     closes;
 *   - passes the time as ms on one steady clock (performance.now()) and
 *     calls web_net_tick at web_net_deadline;
 *   - calls web_net_poll after each of these until it answers 0, and
 *     carries out or draws each output.
 * Outputs of web_net_poll (the numbers by name from web_codes, "net"
 * lines; text in web_out):
 *   SEND     bytes (web_out, web_out_len): a whole DATA message, or a
 *            seeking host's SEEK (web_net_seek)
 *   PLY      "PLY\tSIDE\tMOVE\tHASH"
 *   NOTE     a line as the terminal prints it ("result: ...",
 *            "final-hash: HEX", offers, ...), in English (web_text
 *            WEB_TEXT_NOTE gives it in the page's language)
 *   WARN     a warning line, likewise
 *   THINK    "TOKEN": a bot seat's turn; choose a move for the position
 *            of web_net_game and answer with web_net_bot_move
 *   DESYNC   "desync: the game stopped at ply N"
 *   DONE     "FINAL-HASH": the session wants nothing more
 *   CONNECT  open the WebSocket (the first time, and to try again)
 *   CLOSE    close it (frames were lost: the next hello asks for them)
 *   UP       "FIRST\tHOST\tGUEST": let into the room (FIRST 1 the first
 *            time; HOST, GUEST 1 when present)
 *   LOST     "ATTEMPT\tWAIT_MS\tFIRST\tREASON\tBEFORE_ROOM": the
 *            connection is lost (BEFORE_ROOM 1: never let in, and the room
 *            is not there yet: a guest come before its host, a wait);
 *            the seat asks again (CONNECT) after WAIT_MS
 *   FAILED   "FAILURE\tREASON\tREFUSED": the seat stopped, the game not
 *            over (seat.h's Seat_Failure: 1 never let in, 2 refused for
 *            good after it was, 3 gave up; REASON a TB_E_* refusal or 0;
 *            REFUSED 1 when the lobby answered)
 *   SEEKED   "REASON": the relay's answer to a seeking host's SEEK (0: the
 *            room is on the lobby's public list; else the TB_E_* refusal,
 *            TB_E_SEEKS: too many open seeks); web_seeked_text words it
 * Times are doubles holding whole ms (JavaScript numbers); handles are
 * addresses in the module's memory. Errors are TB_E_* codes; the failing
 * call leaves a line in web_last_why.
 */
#ifndef TABULA_WEB_MATCH_H
#define TABULA_WEB_MATCH_H

#include <stddef.h>
#include <stdint.h>

typedef struct Web_Net Web_Net; /* opaque, heap */

/* web_net_poll's number for a seat event: this plus its Seat_Out_Kind
 * (above the session's Match_Out_Kind numbers). */
#define WEB_NET_SEAT_KIND 32

/* web_key_new: a fresh Ed25519 key pair (libsodium) as the hex of its
 * 64-byte secret key (which holds the public key), for the page to keep
 * in localStorage; NULL on TB_E_CRYPTO. */
const char *web_key_new(void);

/* web_key_public: the public key (64 hex digits) of a key from
 * web_key_new; NULL (TB_E_FORMAT) when key is not one. */
const char *web_key_public(const char *key);

/*
 * web_net_new: a seat of role 0 (host: makes the room and its codes, plays
 * white), 1 (guest: joins with the invite code, plays black) or 2
 * (spectator: watches with the watch or invite code). game and options:
 * the host's game name and match options ("clock=300+3,..."; checked as
 * `tabula host` checks them), ignored otherwise. key: from web_key_new
 * (the seat signs with it; a spectator's is unused). bot nonzero: the
 * seat's moves come from THINK outputs, and it answers offers itself.
 * started: the host's match start, Unix seconds. NULL on error (TB_E_ARG
 * no such game, TB_E_CODE not a code, TB_E_FORMAT bad options or key,
 * TB_E_NOMEM, TB_E_CRYPTO).
 */
Web_Net *web_net_new(int role, const char *game, const char *options,
                     const char *code, const char *key, int bot,
                     uint32_t started);

/*
 * web_net_seek: a host's seat (web_net_new's role 0, with game, options,
 * key, bot and started as there) whose room goes on the lobby's public
 * list (issue 37, as `tabula seek`): each time the relay lets the host
 * in while no guest ever came, the seat sends a SEEK (a SEND output)
 * with the card lobby_seek_card makes of the seat's key, its invite
 * code, the game and options, and the player's display name signed by
 * the player's own identity key id_key (hex, as web_key_new gives it:
 * the page keeps one; a name record of proto_name_sign at wall, Unix
 * ms). name "" (or NULL): the seek goes without a name, and id_key is
 * not read. NULL on error: those of web_net_new, TB_E_FORMAT (a damaged
 * id_key, a character a card may not carry), the name's refusals of
 * proto_name_check (web_name_check says them in words), TB_E_LIMIT
 * (options over LOBBY_SEEK_OPTIONS_MAX bytes).
 */
Web_Net *web_net_seek(const char *game, const char *options, const char *key,
                      int bot, uint32_t started, const char *id_key,
                      const char *name, double wall);

/*
 * web_net_take: a guest's seat (web_net_new's role 1, with code, key, bot
 * and started as there) that takes a public seek whose card promised
 * game and options (web_seeks_list's GAME and CARD): a match start of
 * another game or other options is refused (TB_E_SIGNATURE, the
 * session's warning says "it is not the game the seek promised"), as
 * `tabula join` holds a seek's host to it. NULL on error: those of
 * web_net_new, TB_E_ARG (a game not compiled in).
 */
Web_Net *web_net_take(const char *code, const char *key, int bot,
                      uint32_t started, const char *game, const char *options);

/*
 * web_net_resume: take back the seat of a reloaded page, as a terminal
 * seat resumes from its --log file and seat file (client/netgame.c): role
 * 0 (host) or 1 (guest), game, options, key, bot and started as for
 * web_net_new; seat the text web_net_seat gave; log[0..len) the match log
 * web_net_log gave (len 0: the match had not started); id_key, name and
 * wall: a host's seek as web_net_seek takes them (id_key NULL or "": no
 * seek). The seat rejoins
 * its room with the same seat secret, and the session asks the lobby for
 * every frame after the stored resume point (match_resume). NULL on
 * error: TB_E_ARG (a spectator, no such game), TB_E_FORMAT (the seat text
 * or key is damaged, or the seat is not of this key), those of
 * match_resume (a log that does not verify; web_last_why names it).
 */
Web_Net *web_net_resume(int role, const char *game, const char *options,
                        const char *key, int bot, uint32_t started,
                        const char *seat, const uint8_t *log, size_t len,
                        const char *id_key, const char *name, double wall);

/*
 * web_net_resume_turn: right after web_net_resume: the turn in progress
 * began at wall time turn_at (Unix ms, what seatstore.js kept for the
 * seat's last move; 0 unknown) and the page came back at now (Date.now());
 * the side to move's clock goes on from there (match_turn_away: a time in
 * the future counts as 0, more than a day as a day; match_resume_turn,
 * G-MC-6), also through the wait for the lobby after clock_now (the
 * page's steady ms, performance.now()). NaN and negatives count as 0.
 */
void web_net_resume_turn(Web_Net *n, double turn_at, double now,
                         double clock_now);

/* web_turn_away: match_turn_away(turn_at, now) (Unix ms, NaN and
 * negatives as 0): the ms a kept turn had run when the page came back. */
double web_turn_away(double turn_at, double now);

/* web_net_turn: ms the turn in progress has run at now
 * (match_turn_elapsed): what the page keeps, as Date.now() less it, for
 * web_net_resume_turn after a reload; -1 without a clock, before the
 * start or after the end. */
double web_net_turn(const Web_Net *n, double now);

/* web_net_seat: what a reload needs besides the key and the log:
 * "SECRET\tINVITE\tWATCH\tSEQ\tNUMBERED", the seat secret (32 hex
 * digits), the codes ("-" where unknown) and the resume point (the
 * highest lobby sequence number handled and logged, the envelopes the
 * room has numbered; 0 0 before any). Secret: keep it as the key. */
const char *web_net_seat(Web_Net *n);

/* web_net_free: release n; 0 is fine. */
void web_net_free(Web_Net *n);

/* web_net_codes: "INVITE\tWATCH": a host's two codes; a guest's has its
 * invite code and a spectator's its watch code, the other empty. */
const char *web_net_codes(Web_Net *n);

/* web_net_hello: the first message of a new connection that opened at
 * now (bytes in web_out, web_out_len), asking for every frame after the
 * last one handled. */
const uint8_t *web_net_hello(Web_Net *n, double now);

/* web_net_input: one binary message of len bytes from the lobby at time
 * now. 0, or the reason to close the connection: a refusal of the lobby
 * (TB_E_CODE, TB_E_SEAT, TB_E_WATCH_CODE, ...), TB_E_FORMAT,
 * TB_E_SIGNATURE (the room's host key does not match the code: its last
 * group is mistyped); FAILED or LOST follows web_net_closed. */
int web_net_input(Web_Net *n, double now, const uint8_t *msg, size_t len);

/* web_net_closed: the connection is gone (frames to send wait); the
 * seat says what next (CONNECT, LOST, FAILED). */
void web_net_closed(Web_Net *n, double now);

/* web_net_move: a move typed or clicked by the player, read as the
 * terminal reads it (action and piece letters may be left out when one
 * legal move fits) and queued (sent on the player's turn). Errors:
 * TB_E_STATE (no match yet, spectator, bot seat), those of the reading. */
int web_net_move(Web_Net *n, double now, const char *text);

/* web_net_command: resign, draw, accept, decline, abort, takeback [N],
 * claim win, claim draw (netgame_submit's commands). Errors: TB_E_STATE,
 * TB_E_LIMIT (queue full). */
int web_net_command(Web_Net *n, double now, const char *line);

/* web_net_bot_move: the move (notation) the bot chose after THINK token;
 * 0 also when it is stale (ignored: the game moved on, a newer THINK
 * follows). Errors: the reading's, the move's checks. */
int web_net_bot_move(Web_Net *n, double now, double token, const char *text);

/* web_net_tick: time passed (call at web_net_deadline, or any time). */
void web_net_tick(Web_Net *n, double now);

/* web_net_deadline: when web_net_tick is next due (ms), or -1. */
double web_net_deadline(const Web_Net *n);

/* web_net_poll: the next output's kind (above; its text or bytes in
 * web_out), or 0 when there is none. */
int web_net_poll(Web_Net *n);

/* web_net_answer: 1 when the output web_net_poll gave last is a NOTE or
 * WARN that answers one of the seat's own lines (web_net_command,
 * web_net_move; Match_Note.answer): the page shows it on its message
 * line; else 0. */
int web_net_answer(const Web_Net *n);

/*
 * web_net_advice: why n stopped, in the page's words and language
 * (client/advice.c's advice_page_stopped, as the terminal's seat says
 * advice_seat_stopped), from its FAILED output's failure, reason and
 * refused, lobby the lobby's address as the page shows it. Valid until
 * the next call of the module.
 */
const char *web_net_advice(Web_Net *n, int failure, int reason, int refused,
                           const char *lobby);

/*
 * web_net_state: the seat's view at now, as lines "KEY\tVALUE...":
 *   side S         our side (0 white, 1 black, -1 spectator / no match)
 *   to_move S      the side to move (-1 before the match start)
 *   clock W B      ms left to each side (-1: no clock)
 *   draw S         the side whose draw offer stands, or -1
 *   takeback S N   the side whose takeback request of N plies waits, -1
 *   absence MS     ms until an absence claim is allowed (-1: none)
 *   started 0|1    the match start has been received
 *   finished F D   the game is over (F), stopped by a desync (D)
 *   outcome O R    core_outcome_name ("*" going on), core_reason_name
 *   final HEX      the final state hash once over
 *   moves N        moves on the board
 */
const char *web_net_state(Web_Net *n, double now);

/* web_net_position: the match's position as a read-only handle for
 * web_view, web_move_squares, web_state_hash, web_status ... (never
 * web_play or web_position_free); NULL before the match start. Valid
 * until the next web_net_* call that feeds the session. */
const void *web_net_position(Web_Net *n);

/* web_net_game: the game so far as web_log_verify gives it ("game\tNAME
 * \tOPTIONS", one "move\tNOTATION" per move on the board), for the bot's
 * Web Worker to replay; NULL before the match start. */
const char *web_net_game(Web_Net *n);

/* web_net_glance: the game of n's session at a glance for the player of
 * side (0 white, 1 black: a spectator watching a kept seat's game passes
 * that seat's side) at now (Unix ms, Date.now()): web_glance_log's line,
 * CAUGHT 1 once the seat is in its room and holds every frame the room
 * held when it was let in (seat_caught_up: what the page watched is
 * news only then). NULL on TB_E_NOMEM. */
const char *web_net_glance(Web_Net *n, int side, double now);

/* web_net_log: the signed match log so far (bytes in web_out,
 * web_out_len): what `tabula host --log` writes, with its end record once
 * the game is over; `tabula replay` verifies it. NULL (TB_E_STATE) before
 * the match start. */
const uint8_t *web_net_log(Web_Net *n);

#endif /* TABULA_WEB_MATCH_H */
