/*
 * web_internal.h: what the files of web/wasm/ share beyond the exports:
 * web_api.c's one output buffer (the page copies each answer out of it at
 * once), its error record and two readers that web_match.c uses too. Not
 * exported to the page.
 */
#ifndef TABULA_WEB_INTERNAL_H
#define TABULA_WEB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "game_glance.h"
#include "lobby_wire.h"
#include "proto.h"

/* Copy n bytes into the output buffer (web_out, web_out_len give them to
 * the page); NULL when out of memory. */
const uint8_t *web__out_bytes(const uint8_t *p, size_t n);

/* Copy a text into the output buffer. 0, or TB_E_NOMEM. */
int web__out_text(const char *text);

/* Record code and the line what for web_last_error / web_last_why;
 * returns code. */
int web__fail(int code, const char *what);

/* The game of transcript t into the output buffer: "game\tNAME\tOPTIONS",
 * then one "move\tNOTATION" per move on the board. 0 or an error. */
int web__transcript_text(const Proto_Transcript *t);

/* Read text as a move of pos as the terminal reads a typed one
 * (entry_read: the action and piece letters may be left out when one
 * legal move fits): *mv and its canonical notation canon. 0, or the
 * error, recorded with entry_read's reason in the page's language
 * (TB_E_NOTATION, TB_E_ILLEGAL, TB_E_AMBIGUOUS, ...). */
int web__read_move(const Core_Position *pos, const char *text, Core_Move *mv,
                   char canon[CORE_NOTATION_MAX]);

/* The line of web_glance_log (web_seat.h) for g, with caught as its
 * CAUGHT field, into the output buffer (web_glance_log and
 * web_net_glance answer alike); NULL on TB_E_NOMEM. */
const char *web__glance_text(const Cli_Glance *g, int caught);

/* The key pair of key, the hex of its secret key as web_key_new gives
 * it (the public half derived again, so a damaged stored key is
 * refused): 0, or TB_E_FORMAT. */
int web__key_read(const char *hex, Proto_Identity *id);

/* What a pool's pairing gives a seat (web_pool.c): a host's room code
 * (its card's, which PAIRED handed its guest) and the only guest key it
 * seats; a guest's host's code. */
typedef struct Web_Paired {
    const Lobby_Code *invite;
    const uint8_t *guest_pk;
} Web_Paired;

struct Web_Net;
struct Web_Seek_Ask;

/* What a guest holds its host to (web_net_take: the game and options a
 * seek's card promised; a series' next game: the series' options). */
typedef struct Web_Expect {
    const char *game;
    const char *options;
} Web_Expect;

/* web_net_resume's seat taken back, also holding a guest to expect and
 * seating only paired's guest key (a host's; NULL: none), and refusing a
 * stored seat whose invite code is not paired->invite (TB_E_FORMAT):
 * a series' game (web_series.c). ask: a seeking host's (NULL: none). */
struct Web_Net *web__net_resume(int role, const char *game,
                                const char *options, const char *key, int bot,
                                uint32_t started, const char *seat,
                                const uint8_t *log, size_t len,
                                const struct Web_Seek_Ask *ask,
                                const Web_Expect *expect,
                                const Web_Paired *paired);

/* A seat as a pool's PAIRED says (web_pool.c's web_pool_seat): role 0
 * host of game with options (the paired clock in them), its room's code
 * paired->invite, seating paired->guest_pk only; role 1 guest joining
 * paired->invite, holding its host to game and options, a wrong code
 * passing while the host's room is not there yet. key, bot, started as
 * web_net_new takes them. NULL with web_last_why on error. */
struct Web_Net *web__net_paired(int role, const char *game,
                                const char *options, const char *key, int bot,
                                uint32_t started, const Web_Paired *paired);

/* The session of seat n (never NULL for a seat web_net_new made), for
 * what the seat layer reads of it (web_series.c: seat_game_end). */
const struct Match *web__net_session(const struct Web_Net *n);

#endif /* TABULA_WEB_INTERNAL_H */
