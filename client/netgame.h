/*
 * netgame.h: one seat (or a spectator) of a network game on a libuv loop:
 * the libuv driver of a match/ session (which checks every envelope,
 * signatures, chain, legality, the state hash carried by every move, and
 * holds the conduct rules and clocks): the lobby connection and
 * reconnection, the match log, seat files, bot searches, desync reports.
 * `tabula host`, `join`, `spectate` run one on their own loop; `tabula
 * demo` runs a host, a guest and a spectator on one loop beside an
 * embedded lobby. A front end (a later TUI) drives it through the event
 * hooks below and netgame_submit, never by reading stdin itself.
 */
#ifndef TABULA_NETGAME_H
#define TABULA_NETGAME_H

#include <stdint.h>
#include <stdio.h>

#include "lobby.h"
#include "match.h"
#include "proto.h"
#include "seat.h"

typedef struct Netgame Netgame;

/* What a front end hears about (every pointer may be NULL). */
typedef struct Netgame_Hooks {
    /* The room exists: the host's codes and the lobby's address. */
    void (*on_room)(Netgame *g, const char *invite, const char *watch,
                    const char *lobby);
    /* A ply was accepted: its number, mover side, notation, state hash. */
    void (*on_ply)(Netgame *g, uint32_t ply, int side, const char *move,
                   const char *hash_hex);
    /* The game is over (or stopped by a desync) and every frame is out. */
    void (*on_done)(Netgame *g);
    /* A line the seat prints to cfg.out (also when out is NULL), without
     * its label and newline; or, with warning 1, a warning, which then is
     * not written to stderr (a full-screen front end owns the terminal).
     * note: what the session's note says (its code and arguments, for
     * the screen's words: cli_match_note), NULL for the driver's own. */
    void (*on_note)(Netgame *g, int warning, const char *text,
                    const Match_Note *note);
    /* Presence: seat is LOBBY_ROLE_HOST or _GUEST. Our own connection to
     * the lobby (seat = our role; spectators: LOBBY_ROLE_SPECTATOR) came up
     * (1) or was lost (0); the other seats' players as the lobby reports
     * them when we are admitted and when they come and go. */
    void (*on_presence)(Netgame *g, Lobby_Role seat, int present);
    /* Our connection is lost and is tried again: attempt (failed
     * attempts so far, 1..) and wait_ms until the next (seat.h). */
    void (*on_retry)(Netgame *g, unsigned attempt, uint32_t wait_ms);
} Netgame_Hooks;

/*
 * Netgame_Config: who this seat is.
 *   role       LOBBY_ROLE_HOST, _GUEST or _SPECTATOR
 *   game       host: the game to play (NULL otherwise)
 *   options    host: match options ("" for defaults)
 *   code       guest/spectator: the invite or watch code as typed
 *   lobby      "HOST:PORT" of the lobby
 *   bot_level  0: moves from netgame_submit (line mode); 1..8 a bot
 *   bot_delay_ms  the bot waits this long before each move (0: none)
 *   seed       the bot's tie-breaking seed
 *   log_path   match log (NULL: none); "PATH.seat" keeps the key, seat
 *              secret and codes so a restarted process resumes
 *   store_dir  with no log_path, a host's or guest's files go into this
 *              folder (netstore_dir) as host-INVITE.log or
 *              join-INVITE.log, so the same join command comes back; a
 *              seat another process runs there is not taken (the player
 *              joins anew). NULL: no files
 *   out        where plies and results are printed (NULL: nothing)
 *   label      prefix of printed lines ("" or e.g. "host")
 */
typedef struct Netgame_Config {
    Lobby_Role role;
    const Core_Game *game;
    const char *options;
    const char *code;
    const char *lobby;
    /* lobby already read by lobby_addr_list_parse (its host names looked
     * up once), or nnodes 0: netgame_new reads lobby itself */
    const struct sockaddr_storage *nodes;
    size_t nnodes;
    int bot_level;
    unsigned bot_delay_ms;
    uint64_t seed;
    const char *log_path;
    const char *store_dir;
    FILE *out;
    const char *label;
    /* A line the full screen shows under the players while the game is
     * played (NULL: none): a series' running score (series.c). */
    const char *banner;
    /* A series' game after its first: the series so far (series.c;
     * NULL: none, or the series' first game), so the full screen's line
     * shows the score with the game just ended once it ends. */
    const Seat_Series *series;
    /* A host's: put the room on the lobby's public list (tabula seek),
     * with the player's name record name[0..name_len) (proto_name_sign;
     * name_len 0: none). */
    int own_lobby; /* lobby is this process's own (embedded) */
    int seek;
    const uint8_t *name;
    size_t name_len;
    const Proto_Identity *player; /* the record's key pair: binds the name
                                     to this seek (lobby_seek_card) */
    /* A guest's: the game and options of the seek it takes (NULL: any;
     * Match_Config.expect_game) */
    const Core_Game *expect_game;
    const char *expect_options;
    /* A seat the pool paired (tabula pool, issue 37; NULL otherwise):
     * pool_id is the seat's key and, a host's, pool_invite its invite
     * code, both as the offer's card carried them (a resumed seat keeps
     * its file's); a host's room seats only the guest key pool_guest
     * (LOBBY_KEY_BYTES); a guest keeps trying while the host's room is
     * not there yet (its expect_game and expect_options hold the host
     * to the game and clock paired). */
    const Proto_Identity *pool_id;
    const Lobby_Code *pool_invite;
    const uint8_t *pool_guest;
} Netgame_Config;

/* How a seat's game ended, for what follows it (a series' next game:
 * cli_series): the seat layer's account of it (seat_game_end), its log
 * and the seat's key. */
struct Cli_Game_End {
    Seat_Game_End g;
    char log[1024];    /* its log ("" for none) */
    Proto_Identity me; /* this seat's key pair: wiped by the caller */
};

/* The outcome, valid once on_done ran. */
typedef struct Netgame_Result {
    int finished;   /* the game reached its end (or a desync) */
    int desync;     /* stopped by a state hash mismatch */
    uint32_t desync_ply;
    char report[640]; /* desync report file ("" if none) */
    uint32_t plies;
    Core_Status status;
    char final_hash[PROTO_HASH_HEX];
    uint32_t refused; /* envelopes refused (hostile or broken) */
} Netgame_Result;

/*
 * netgame_new: set up a seat on loop and connect to the lobby. With a
 * log_path whose seat file exists, the seat is resumed: the log is
 * verified and replayed into the transcript and the same key and seat
 * secret rejoin the room. why gets a reason on failure.
 * Errors: TB_E_ARG, TB_E_CODE (bad code), TB_E_IO, TB_E_NOMEM, those of
 * proto_log_verify, libuv errors.
 */
int netgame_new(uv_loop_t *loop, const Netgame_Config *cfg,
                const Netgame_Hooks *hooks, void *user, Netgame **out,
                char *why, size_t why_cap);

/* netgame_user: the user pointer given to netgame_new. */
void *netgame_user(const Netgame *g);

/*
 * netgame_submit: a line typed by the local player: a move in the game's
 * notation, or a command: "resign", "draw" (offer), "abort" (before both
 * sides moved), "takeback" or "takeback N" (ask to undo plies), "accept"
 * and "decline" (answer the opponent's draw offer or takeback request),
 * "claim win" and "claim draw" (after the absence countdown).
 * Lines are queued and sent in order when the player is to move (gap
 * G-MC-1 in docs/protocol.md); accept and decline jump the queue.
 * Errors: TB_E_STATE (a spectator or a bot seat), TB_E_LIMIT (queue full).
 */
int netgame_submit(Netgame *g, const char *line);

/*
 * netgame_feed: handle one relayed frame as if the lobby had sent it
 * (tests of hostile input). Returns 0 when accepted, else the refusal.
 */
int netgame_feed(Netgame *g, Lobby_Role from, const uint8_t *data,
                 size_t len);

/* netgame_result: the outcome so far. */
const Netgame_Result *netgame_result(const Netgame *g);

/* netgame_keeps_log: 1 when the seat keeps a match log (and its seat
 * file), so the same command can take the seat back; else 0. */
int netgame_keeps_log(const Netgame *g);

/* netgame_log_path: the match log the seat keeps ("" when none): the
 * --log FILE, or its file in netstore_dir (host-INVITE.log,
 * join-INVITE.log; once the game is over, its .done.log). */
const char *netgame_log_path(const Netgame *g);

/* netgame_transcript: the match transcript (never NULL). */
const Proto_Transcript *netgame_transcript(const Netgame *g);

/* netgame_session: the seat's match session (never NULL), for what the
 * seat layer reads of it (seat_game_end). */
const Match *netgame_session(const Netgame *g);

/*
 * State for a front end (the TUI). netgame_clock_left: ms left to side
 * (CORE_WHITE or CORE_BLACK) as this seat sees it, ticking for the side
 * to move; -1 in a match without a clock. netgame_draw_offer: the side
 * whose draw offer stands, or -1. netgame_takeback: the side whose
 * takeback request waits for an answer (or -1), *plies (may be NULL) the
 * plies asked. netgame_absence_left: ms until the present player may
 * claim against an absent opponent (0: it may now; -1: the opponent is
 * present, or a spectator).
 */
int64_t netgame_clock_left(const Netgame *g, int side);
int netgame_draw_offer(const Netgame *g);
int netgame_takeback(const Netgame *g, uint32_t *plies);
/* Lines given to netgame_submit and not yet used (they wait for the
 * seat's turn). */
size_t netgame_lines_waiting(const Netgame *g);
/* 1 when the seat is connected and has handled every frame the room held
 * when the lobby let it in (a resumed seat has caught up). */
int netgame_caught_up(const Netgame *g);
/* netgame_unacked: this seat's envelopes the relay has not numbered yet
 * (match_unacked). */
size_t netgame_unacked(const Netgame *g);
/* netgame_seat_key: this seat's key pair (its start names the public
 * half) into *out, which the caller wipes (proto_identity_wipe): the
 * key a series keeps for its next games (cli_series). */
void netgame_seat_key(const Netgame *g, Proto_Identity *out);
int64_t netgame_absence_left(const Netgame *g);

/* netgame_free: close the connection and free (run the loop after). */
void netgame_free(Netgame *g);

#endif /* TABULA_NETGAME_H */
