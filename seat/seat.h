/*
 * seat.h: the seat layer (issue 36): what one seat of a network game does
 * between the match session (match/match.h) and the program that drives
 * it, without I/O, so the terminal (client/netgame.c), the page (its
 * WebAssembly module, web/wasm/) and the simulator (sim/)
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

#include "lobby_wire.h"
#include "match.h"

/* ---- reconnecting -------------------------------------------------- */

/* How long a seat that had been let into its room keeps trying while the
 * relay is there but refuses it (a refusal that passes: the room not
 * back yet, too many wrong codes, ...) before it stops (ms). A relay
 * that is away (cannot be reached, or drops the connection) or full
 * (TB_E_FULL: its store out of memory, its rooms at their cap, a
 * relay-side fault) is tried for as long as the player lets it: a game
 * is never given up for the network's or the relay's sake (the
 * relay-limits issue: every client gave up after 60 s of outage; the
 * fair-play issue: a relay fault never ends a game). */
#define SEAT_GIVE_UP_MS 60000u

/* The longest wait between two attempts (ms). */
#define SEAT_RETRY_MAX_MS 8000u

/* How long a seat waits for the relay's WELCOME after its hello before it
 * takes the connection as failed (ms): a relay that answers nothing, or
 * only its heartbeats, must not hold a seat for ever. */
#define SEAT_WELCOME_MS 15000u

/* How long a connection the relay let the seat in on must last before
 * its loss starts a new run of attempts (ms), unless the game went on on
 * it (a frame or ACK the seat had not had): a relay that lets the seat
 * in and drops it at once (or loses frames again and again) does not
 * reset the waits and the give-up, so it cannot make a seat spin. */
#define SEAT_STABLE_MS 10000u

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
 * of its ERROR message) ends a seat that had been let into its room:
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
 * the clock text clock added as the option "clock=VALUE" in its
 * canonical form (seconds; proto_clock_format), into out (cap bytes).
 * clock is written as a player types it (proto_clock_parse, typed; the
 * one grammar of docs/usage.md "Writing a clock"): "5+3" five minutes
 * each and three seconds added after each move, "30s+1" a base in
 * seconds, "5d3" five minutes with a delay of three seconds a move,
 * "40/90+30" 40 moves in 90 minutes (then again) plus 30 s a move,
 * "3days" three days a move. clock NULL: options unchanged.
 * Errors: TB_E_OPTION (the clock is not so written or out of range: say
 * seat_clock_bad(clock) with the text typed), TB_E_ARG (options hold a
 * clock already: say seat_clock_twice), TB_E_SPACE (cap too small).
 */
int seat_clock_options(const char *options, const char *clock, char *out,
                       size_t cap);

/*
 * seat_clock_bad: the English printf format (one %s: the clock text as
 * typed) that tells a player why clock was refused, naming the part that
 * is wrong (the form, the time, the increment, the delay, the moves, the
 * days) and its range; "bad clock '%s': ..."; marked N_() for the
 * catalogues (po/), so a driver prints _(seat_clock_bad(clock)). Never
 * NULL (clock NULL or accepted: the message on the form).
 */
const char *seat_clock_bad(const char *clock);

/*
 * seat_clock_range_bad: as seat_clock_bad, for a range of clocks as a
 * player offers one to the pool (`tabula pool --clock 3+2..10+5`,
 * proto_clock_range_parse): the words on the part that is wrong (an
 * end's own, as seat_clock_bad says them; ends of two kinds; a first
 * end longer than the second; no end or a third ".."), one %s for the
 * text typed, N_() marked. Never NULL.
 */
const char *seat_clock_range_bad(const char *range);

/*
 * seat_rating_range: a rating range as a player types it for the pool
 * (`tabula pool --rating`, the page's pool): "LO..HI", whole ratings
 * 1..65535, LO at most HI, into *lo, *hi; "" for none (0, 0). 0, or
 * TB_E_OPTION; seat_rating_range_bad is then the words (one %s for the
 * text typed, N_() marked).
 */
int seat_rating_range(const char *text, uint16_t *lo, uint16_t *hi);
const char *seat_rating_range_bad(void);

/* seat_clock_twice: the English text (no format) that tells a player the
 * match options hold a clock already besides the one typed, N_() marked. */
const char *seat_clock_twice(void);

/* ---- the pool's offer (issue 37) ----------------------------------- */

/*
 * What a player's client does with the pool (docs/pool.md,
 * docs/protocol-lobby.md "Pool") that is policy, not I/O: the terminal
 * (client/cmd_pool.c) and the page (web/wasm/web_pool.c) both make their
 * offer and read their pairing here.
 */

/* seat_pool_bit: game g's bit in POOL's games (its index in the core
 * catalogue, core_game_at); LOBBY_POOL_GAMES when g is not in it. */
unsigned seat_pool_bit(const Core_Game *g);

/* An offer made (seat_pool_offer): the game's seat key, the invite code
 * bound to it (the room's code when this player hosts), the games
 * offered and the POOL hello to send. Wipe with seat_pool_offer_wipe. */
typedef struct Seat_Pool_Offer {
    Proto_Identity seat;
    Lobby_Code invite;
    uint16_t games;
    uint8_t msg[LOBBY_WIRE_POOL_MAX];
    size_t len;
    /* (seat_pool_taken and seat_pool_lost's: the lobby took the offer,
     * the offers made again in this run of losses, when the run began
     * and when its last loss came, ms on the driver's clock) */
    int taken;
    unsigned again;
    uint64_t lost_at, last_lost;
} Seat_Pool_Offer;

/*
 * seat_pool_offer: the offer of games (a mask of seat_pool_bit bits, at
 * least one) at any clock of lo..hi (proto_clock_range_parse's; NULL or
 * both PROTO_CLOCK_NONE: no clock) with match options (no clock in
 * them), by player (its identity, which proves the offer; NULL: the
 * fresh seat key proves it, a player without an identity): a fresh seat
 * key, an invite code bound to it, its seek card (the first game
 * offered) and the POOL hello into *out; with rated (below) the
 * player's key as the seat key and a rating range. Errors: TB_E_ARG (no
 * game, a clock in options, rated->me without a player), TB_E_FORMAT
 * (options a card may not carry, a range or rating range out of order),
 * TB_E_CRYPTO.
 */
/* What a rated offer asks (issue 38; NULL: neither). me: play the game
 * under the player's own key (the card's key is the identity's, so the
 * game is rated under it: docs/ratings.md "Whose rating"); want_lo,
 * want_hi: pair only with players the relay's list rates that much
 * (whole points, both included; 0 and 0: any). */
typedef struct Seat_Pool_Rated {
    int me;
    uint16_t want_lo, want_hi;
} Seat_Pool_Rated;

int seat_pool_offer(Seat_Pool_Offer *out, const Proto_Identity *player,
                    uint16_t games, const Proto_Clock *lo,
                    const Proto_Clock *hi, const char *options,
                    const Seat_Pool_Rated *rated);

/* seat_pool_offer_wipe: forget the seat key of *o. */
void seat_pool_offer_wipe(Seat_Pool_Offer *o);

/*
 * An offer whose connection ends without a pairing once the lobby had
 * taken it is offered again (the same hello, so the same seat key and
 * invite code), as a lichess seek comes back when its socket does: a
 * player waiting in the pool must not be dropped from it by a relay
 * restart, a lost connection or a relay that timed the connection out
 * (a CI trial: a terminal that had waited a minute was dropped with "end
 * of file" and never paired). An offer the lobby never took is not made
 * again: a wrong address or a refusal is said at once.
 *
 * seat_pool_taken: the lobby took offer o (its POOL_WAIT came): a later
 * loss is offered again.
 */
void seat_pool_taken(Seat_Pool_Offer *o);

/*
 * seat_pool_lost: o's connection ended without a pairing, status its
 * ending: a TB_E_* code (the lobby's refusal in an ERROR, or a message no
 * lobby sends: TB_E_FORMAT) or any other nonzero code (a transport
 * error: the lobby away, the connection reset, timed out or closed; and
 * TB_E_TRUNCATED: the connection ended without an answer), now_ms the
 * driver's clock (ms). Returns how long (ms) to wait before offering o
 * again on a new connection, or 0 when the offer ends (the driver says
 * why: status). An offer the lobby had taken is made again after a loss
 * or TB_E_FULL (the lobby full for now) for as long as the player waits,
 * and after TB_E_SEEKS or TB_E_ADDRESS (the lost connection's offer
 * still counted: the lobby has not yet seen it go, which its idle
 * timeout ends) for SEAT_GIVE_UP_MS from the run's first loss; each
 * wait is seat_retry_ms's for a guest (1000 ms, doubling to
 * SEAT_RETRY_MAX_MS). A run of losses goes on, its waits doubling, while
 * each loss comes within SEAT_STABLE_MS + SEAT_RETRY_MAX_MS of the one
 * before, taken in between or not: a lobby that takes the offer and
 * drops it at once (a crash loop, a hostile relay) is not asked again
 * every second. An offer never taken and any other refusal end it: 0.
 * (A withdrawal, the player's own, is no loss: the driver does not ask.)
 */
uint32_t seat_pool_lost(Seat_Pool_Offer *o, int status, uint64_t now_ms);

/* The game a pairing means (seat_pool_paired). */
typedef struct Seat_Pool_Game {
    const Core_Game *game;
    /* the match's options: the host's (PAIRED's) and the clock paired */
    char options[PROTO_OPTIONS_MAX + 1];
    char clock[PROTO_CLOCK_TEXT_MAX]; /* as --clock takes it ("5+0"); ""
                                         none */
} Seat_Pool_Game;

/*
 * seat_pool_paired: what PAIRED p means for an offer of games (its
 * mask): the game (one of those offered), the match options a host
 * starts with and a guest holds its host to (the host's and
 * "clock=" the paired clock), and the clock as a player types it.
 * Errors: TB_E_FORMAT (a game not offered, or not compiled in),
 * TB_E_SPACE (options and clock too long together).
 */
int seat_pool_paired(const Lobby_Paired *p, uint16_t games,
                     Seat_Pool_Game *out);

/* ---- a series (issue 38) ------------------------------------------- */

/*
 * A series is N games between two players with alternating sides
 * (`tabula host GAME --series N`, the page's host form; docs/usage.md
 * "Series"). Its first game's start carries "series=1/N" (Proto_Series);
 * each next game is hosted by the player who was Black, so colours
 * alternate; its room's invite code is one both players compute
 * (proto_series_code), its host seats only the other player's key, its
 * guest holds the host to the game and options, and every seat keeps its
 * first game's key. The score is the games' table points
 * (core_table_points: Chess volleyball's 3/2/1 of the seed, 1/0.5/0
 * otherwise). The terminal (client/series.c) and the page
 * (web/wasm/web_series.c) drive a series by the functions below.
 */

/*
 * seat_series_options: a series' first game's match options: options
 * (may be "") with "series=1/games" added, into out (cap bytes).
 * Errors: TB_E_ARG (games outside 2..PROTO_SERIES_MAX), TB_E_SPACE.
 */
int seat_series_options(const char *options, unsigned games, char *out,
                        size_t cap);

/* How a seat's game ended, as a series reads it (seat_game_end). */
typedef struct Seat_Game_End {
    int started;  /* its match started (the fields below are its start's) */
    int finished; /* it reached its end (no desync) */
    Core_Status status;
    unsigned table[2]; /* core_table_points (half points): White, Black */
    char game[PROTO_NAME_MAX + 1];
    char options[PROTO_OPTIONS_MAX + 1];
    uint8_t white[PROTO_KEY_BYTES], black[PROTO_KEY_BYTES];
    uint8_t match_id[PROTO_MATCH_ID_BYTES];
} Seat_Game_End;

/* seat_game_end: how the session m's game ended (or stands) into *out;
 * started 0 when its match has not started (m NULL too). */
void seat_game_end(const Match *m, Seat_Game_End *out);

/* What seat_series_add says (and a series' stop). */
enum {
    SEAT_SERIES_NEXT = 1,  /* the game is counted; the next one follows */
    SEAT_SERIES_OVER,      /* the game is counted; it was the last */
    SEAT_SERIES_ABORTED,   /* the game is counted, aborted: the series
                              stops (an abort would otherwise use a game
                              of N up for nothing, so a player ahead could
                              abort the rest) */
    SEAT_SERIES_UNFINISHED /* the game did not end (a desync, a seat that
                              stopped), or it is not the series' next game
                              (another number, game, series, pair of keys
                              or options than the first game's, colours
                              not alternated): not counted,
                              and the series stops */
};

/* A series as one seat plays it. score[0] is this seat's, score[1] the
 * opponent's, in half table points; played the games counted; stop 0
 * while it goes on, else SEAT_SERIES_OVER, _ABORTED or _UNFINISHED. */
typedef struct Seat_Series {
    unsigned games, played;
    unsigned score[2];
    int stop;
    int white1; /* this seat was White in game 1 */
    const Core_Game *game;
    char options[PROTO_OPTIONS_MAX + 1]; /* game 1's, without the series
                                            token */
    uint8_t id[PROTO_MATCH_ID_BYTES];    /* game 1's match id */
    uint8_t me[PROTO_KEY_BYTES], opponent[PROTO_KEY_BYTES];
} Seat_Series;

/*
 * seat_series_begin: *s from the end of a series' first game first,
 * played by the seat whose key is me: 1 (then count the game with
 * seat_series_add), 0 when first is not a series' first game (no
 * "series=1/N" in its start) or not this seat's (me neither White nor
 * Black), *s zeroed. TB_E_ARG: a NULL argument.
 */
int seat_series_begin(Seat_Series *s, const uint8_t me[PROTO_KEY_BYTES],
                      const Seat_Game_End *first);

/*
 * seat_series_add: game played + 1 of the series ended as e: counted
 * into the score, and what follows (SEAT_SERIES_NEXT, _OVER, _ABORTED,
 * _UNFINISHED above; after a stop every call answers the stop).
 * TB_E_ARG: a NULL argument, or s not begun.
 */
int seat_series_add(Seat_Series *s, const Seat_Game_End *e);

/* The next game of a series (seat_series_next). */
typedef struct Seat_Series_Game {
    unsigned number;     /* 2..games */
    int host;            /* 1: this seat hosts it and plays White */
    const Core_Game *game;
    Lobby_Code invite;   /* its room's code (bound to the host's key) */
    uint8_t opponent[PROTO_KEY_BYTES]; /* a host's only guest */
    char options[PROTO_OPTIONS_MAX + 1]; /* a host's options, which its
                                            guest holds the host to */
} Seat_Series_Game;

/*
 * seat_series_next: the game after the last one counted, for the seat
 * whose key pair is me (the series' key: its first game's), into *out.
 * Errors: TB_E_ARG (a NULL argument, s not begun, me not the series'
 * key), TB_E_STATE (the series stopped, or no game counted yet),
 * TB_E_CRYPTO (proto_series_code), TB_E_SPACE (the options too long with
 * the series token).
 */
int seat_series_next(const Seat_Series *s, const Proto_Identity *me,
                     Seat_Series_Game *out);

/* Bytes of a score's text (seat_series_points). */
#define SEAT_POINTS_TEXT 16

/* seat_series_points: half points as a player reads them ("3", "1.5"). */
void seat_series_points(unsigned half, char out[SEAT_POINTS_TEXT]);

/* seat_series_banner: the English printf format (N_() marked; %u game,
 * %u games, %s your points, %s the opponent's: seat_series_points) of a
 * series' line on every screen of its games:
 * "Series: game K of N; score: you P - opponent Q". */
const char *seat_series_banner(void);

/* seat_series_line: that line into out (cap bytes) for game game of
 * games with score[0] (this seat's) and score[1] (the opponent's) in half
 * table points, by format (seat_series_banner's, translated by the
 * driver). */
void seat_series_line(char *out, size_t cap, const char *format,
                      unsigned game, unsigned games, const unsigned score[2]);

/* seat_series_stop_words: the English printf format (N_() marked, one %u:
 * the game, seat_series_stop_game) of why a series stopped
 * (SEAT_SERIES_ABORTED, _UNFINISHED) or that it is over (anything
 * else). */
const char *seat_series_stop_words(int stop);

/* seat_series_stop_game: the game a stopped series' words name: the one
 * that did not end (SEAT_SERIES_UNFINISHED: it was not counted), else
 * the last counted. */
unsigned seat_series_stop_game(const Seat_Series *s);

/* Bytes of a series as text (seat_series_text), with its NUL. */
#define SEAT_SERIES_TEXT_MAX (320 + PROTO_OPTIONS_MAX)

/*
 * seat_series_text: *s as one line of text (no newline) for a driver
 * that keeps it (the page's storage, to go on after a reload); read back
 * by seat_series_read. Errors: TB_E_ARG, TB_E_SPACE (cap too small;
 * SEAT_SERIES_TEXT_MAX always suffices).
 */
int seat_series_text(const Seat_Series *s, char *out, size_t cap);

/* seat_series_read: text (seat_series_text's, hostile: a page's storage)
 * back into *s. Errors: TB_E_ARG, TB_E_FORMAT (any other text; *s
 * zeroed). */
int seat_series_read(const char *text, Seat_Series *s);

/* ---- the seat ------------------------------------------------------ */

/*
 * A Seat is one seat (or spectator) of a network game as a state machine
 * without I/O: the match session (match.h), the lobby's messages
 * (lobby_wire.h: the hello, the DATA framing, the host key checked
 * against the code) and the connection's policy: when to connect, to
 * which relay node, when to try again (seat_retry_ms), which refusals end
 * it (seat_refusal_ends), when to stop trying a relay that refuses
 * (SEAT_GIVE_UP_MS; one that is away is tried for ever). A driver
 * owns the socket and the timer: it opens a connection when told
 * (SEAT_OUT_CONNECT) and sends seat_hello's bytes once it is up, hands
 * each message to seat_input, calls seat_closed when the connection goes,
 * seat_tick at seat_deadline, and after each call polls seat_poll until
 * it answers 0, carrying out each output in order. The terminal
 * (client/netgame.c) and the page (web/wasm/web_match.c) drive one each.
 * Times are ms on the driver's one steady clock.
 */
typedef struct Seat Seat; /* opaque, heap */

/*
 * Seat_Config: who the seat is.
 *   match        the session's configuration (match.role is the seat's
 *                role; match.id its key: the wire's host key for a host)
 *   invite       host and guest: the invite code; a spectator may watch
 *                with it (watch then all zero)
 *   watch        host: the watch code; spectator: the code it watches with
 *   seat_secret  shown to the relay to take the seat back
 *   nodes        relay nodes the driver can reach (1..SEAT_NODES_MAX),
 *                tried in turn when one cannot be reached
 *   admitted     1: the relay let this seat in before (taken back from a
 *                seat file or a page's storage): a relay out of reach, or
 *                a refusal that passes, is retried as after a lost
 *                connection, not taken as a wrong code
 *   seek, seek_len  a host's seek card (lobby_seek_card; seek_len 0:
 *                none): each time the relay lets the host in while its
 *                guest seat holds no key, and each time a guest gives
 *                the seat back before it spoke, the seat puts its room
 *                on the lobby's public list with it (SEAT_OUT_SEND), and
 *                says the relay's answer (SEAT_OUT_SEEKED)
 *   guest_pk     a host's: the only guest key its room seats (the pool's
 *                PAIRED named it, issue 37); zero: the first guest
 */
typedef struct Seat_Config {
    Match_Config match;
    Lobby_Code invite, watch;
    uint8_t seat_secret[LOBBY_SEAT_SECRET_BYTES];
    unsigned nodes;
    int admitted;
    uint8_t seek[LOBBY_SEEK_CARD_MAX];
    size_t seek_len;
    uint8_t guest_pk[LOBBY_KEY_BYTES];
} Seat_Config;

/* The most relay nodes a seat tries in turn. */
#define SEAT_NODES_MAX 8

typedef enum Seat_Out_Kind {
    SEAT_OUT_MATCH = 1, /* m: one of the session's outputs; a SEND's
                           data/len is a whole DATA message for the relay */
    SEAT_OUT_CONNECT,   /* node: open a connection to relay node `node`
                           (0..nodes-1) and send seat_hello's bytes on it */
    SEAT_OUT_CLOSE,     /* close the connection (frames were lost: the
                           next hello asks for them again) */
    SEAT_OUT_UP,        /* admitted to the room: first (1 the first time
                           for this seat), host_present, guest_present */
    SEAT_OUT_PRESENCE,  /* who (LOBBY_ROLE_HOST or _GUEST, never the seat
                           itself) came (present 1) or went (0) */
    SEAT_OUT_LOST,      /* the connection is lost and will be tried again:
                           reason, attempt (failed attempts so far, 1..),
                           wait_ms until the next, first (1 when the loss
                           is news: the first of a run of attempts, or a
                           connection the relay had let the seat in on),
                           before_room (1: this seat was never let in and
                           the relay knows no room by its code yet, a
                           paired or series guest come before its host:
                           a wait, not a loss) */
    SEAT_OUT_FAILED,    /* the seat stops, the game not over: failure,
                           reason, refused (1: the relay answered, with a
                           refusal or a message the seat refused) */
    SEAT_OUT_SEND,      /* data/len: a lobby message to send as it is on
                           the connection (a host's SEEK) */
    SEAT_OUT_SEEKED     /* the relay's answer to the SEEK: reason 0 (the
                           room is on the public list) or why not
                           (LOBBY_WIRE_SEEKED's reasons) */
} Seat_Out_Kind;

/* Why a seat stopped (SEAT_OUT_FAILED). */
typedef enum Seat_Failure {
    SEAT_FAIL_ADMISSION = 1, /* never let in: a wrong code, a full relay,
                                no relay at the address, ... (reason) */
    SEAT_FAIL_ENDED,         /* let in, then refused for good
                                (seat_refusal_ends) */
    SEAT_FAIL_GAVE_UP        /* SEAT_GIVE_UP_MS of refusals that pass,
                                without getting back in (refused 1) */
} Seat_Failure;

typedef struct Seat_Out {
    Seat_Out_Kind kind;
    Match_Out m;          /* MATCH */
    unsigned node;        /* CONNECT */
    int first;            /* UP, LOST */
    int host_present;     /* UP */
    int guest_present;    /* UP */
    int who, present;     /* PRESENCE */
    int reason;           /* LOST, FAILED: TB_E_* or a transport error */
    unsigned attempt;     /* LOST */
    int before_room;      /* LOST */
    uint32_t wait_ms;     /* LOST */
    Seat_Failure failure; /* FAILED */
    int refused;          /* FAILED */
    const uint8_t *data;  /* SEND: valid until the next call on the seat */
    size_t len;           /* SEND */
} Seat_Out;

/*
 * seat_new: a seat as cfg says (copied; the key is wiped from the copy
 * when the seat is freed). Its first output asks for a connection to node
 * 0. Errors: TB_E_ARG (no cfg, a role out of range, nodes 0 or above
 * SEAT_NODES_MAX), those of match_new and lobby_wire_new.
 */
int seat_new(const Seat_Config *cfg, Seat **out);

/* seat_free: release s; NULL is fine. */
void seat_free(Seat *s);

/* seat_match: the seat's session, for what a front end reads (transcript,
 * clocks, offers) and for match_resume before the first connection. */
Match *seat_match(Seat *s);

/*
 * seat_hello: the connection asked for is up at now: its first message
 * into out (lobby_wire_hello: CREATE, JOIN or WATCH asking for every
 * frame after the session's last). Without a WELCOME by now +
 * SEAT_WELCOME_MS the seat asks to close it (SEAT_OUT_CLOSE) and takes
 * it as failed. Returns its length in bytes.
 */
size_t seat_hello(Seat *s, uint64_t now, uint8_t out[LOBBY_WIRE_HELLO_MAX]);

/*
 * seat_input: one whole message of len bytes from the relay. 0, or the
 * reason to close the connection (TB_E_FORMAT, TB_E_SIGNATURE: the room's
 * host key is not the code's; a refusal's TB_E_* code): the driver closes
 * it and calls seat_closed.
 */
int seat_input(Seat *s, uint64_t now, const uint8_t *msg, size_t len);

/*
 * seat_closed: the connection is gone (or could not be made); reason the
 * transport's (a libuv error, TB_E_HTTP, 0 for the driver's own close;
 * -ETIMEDOUT after no WELCOME in time), the relay's refusal or
 * seat_input's error taking its place. The seat asks for the next
 * connection (at once, or after seat_retry_ms) or stops
 * (SEAT_OUT_FAILED). A node that cannot be reached, or sends a message
 * the seat refuses (TB_E_FORMAT, TB_E_SIGNATURE: it answers as no relay
 * does), is left for the next node; a refusal (the relay's ERROR) is
 * every node's word. Before the seat was ever let in, it stops once each
 * node failed or at a refusal; after, a refusal that seat_refusal_ends
 * ends it, a run of refusals that pass ends it after SEAT_GIVE_UP_MS (a
 * connection that lasted under SEAT_STABLE_MS, on which the game did not
 * go on, does not end the run), and a relay that is away is tried again
 * for ever, every SEAT_RETRY_MAX_MS at most. A refetch (frames lost) reconnects at once, unless the last
 * one gained nothing: then it counts as a failed attempt.
 */
void seat_closed(Seat *s, uint64_t now, int reason);

/* seat_tick: the time came (seat_deadline). */
void seat_tick(Seat *s, uint64_t now);

/* seat_deadline: when seat_tick is next due (ms), UINT64_MAX: never. */
uint64_t seat_deadline(const Seat *s);

/*
 * seat_keep_seconds: how long (seconds) a seat asks the relay to keep its
 * room while both players are offline (KEEP, lobby_wire.h): for a
 * correspondence clock (PROTO_CLOCK_DAYS, G-MC-10) two moves' time, so a
 * player who lets a move's time run out is still there to be claimed
 * against for another move's time; 0 for any other clock or none (the
 * relay's own 10 minutes). Each seat sends it on every connection once
 * it knows the clock, through seat_poll.
 */
uint32_t seat_keep_seconds(const Proto_Clock *c);

/* seat_poll: the next output into *out: 1, or 0 when there is none. */
int seat_poll(Seat *s, Seat_Out *out);

/* seat_caught_up: 1 when the seat is in its room and holds every frame
 * the room held when it was let in. */
int seat_caught_up(const Seat *s);

/* seat_stopped: 1 after SEAT_OUT_FAILED or the session's DONE. */
int seat_stopped(const Seat *s);

#endif /* TABULA_SEAT_H */
