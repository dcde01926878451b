/*
 * web_api.h: what the browser page calls in Tabula's WebAssembly module
 * (issue 14). The page's JavaScript draws, takes input and talks to the
 * lobby; every rule, encoding, state hash and signature check is done
 * here, by the same core/ and proto/ as the terminal client. The module is
 * a wasm32-wasi reactor (no main): web/tabula.js instantiates it with a
 * WASI shim and calls these exports by their names.
 *
 * Strings go in as NUL-terminated UTF-8 in memory the page obtained from
 * web_alloc; strings and byte blocks come out as pointers into one output
 * buffer owned by the module, valid until the next call that returns one
 * (the page copies them out at once). Positions are opaque handles
 * (addresses in the module's memory), 0 meaning none.
 *
 * Errors are the negative TB_E_* codes of core/tb_error.h; web_error names
 * one.
 */
#ifndef TABULA_WEB_API_H
#define TABULA_WEB_API_H

#include <stddef.h>
#include <stdint.h>

/* web_init: set up libsodium (proto_init). 0, or TB_E_CRYPTO. Call once
 * before anything else. */
int web_init(void);

/* web_alloc / web_free: bytes of the module's memory for the page to fill
 * (NULL/0 when out of memory); web_free accepts 0. */
void *web_alloc(size_t bytes);
void web_free(void *p);

/* web_error: the message of a TB_E_* code (static). */
const char *web_error(int code);

/* web_games: the compiled-in games, one line each: "name\ttitle\thint". */
const char *web_games(void);

/* web_position_new: the start position of the game called name with the
 * match options text options (may be empty: the game's defaults), or the
 * position text position when not empty (core_position_parse). Returns a
 * handle, or 0 (web_last_error says why). */
void *web_position_new(const char *name, const char *options,
                       const char *position);
void web_position_free(void *pos);

/*
 * web_catalogue: the page's language for the texts the module makes for
 * people (web_help, web_view's status line and cells' descriptions,
 * web_text, network notes): buf[0..len) in the layout of client/i18n.h
 * (CLI_CATALOGUE_PLURALS bytes of plural rule, then msgid, forms, empty
 * string, each NUL-terminated), copied; len 0: English. 0, or the error
 * of cli_catalogue_set (the language in use then stays).
 */
int web_catalogue(const uint8_t *buf, size_t len);

/* web_text: a text the module gave, in the page's language: kind
 * WEB_TEXT_NOTE a network note as web_net_poll typed it (its code,
 * arguments and English line), WEB_TEXT_REASON a game-end reason token
 * of web_status in words, as the terminal's screens say it ("resign" ->
 * "resignation", English too). (A board's status line and cells come in
 * the language already: web_view.) Unknown texts come back unchanged.
 * NULL on TB_E_ARG (kind) or TB_E_NOMEM. */
#define WEB_TEXT_NOTE 1
#define WEB_TEXT_REASON 2
const char *web_text(int kind, const char *text);

/* web_last_error: the last failing call's TB_E_* code and one line on it
 * (position text errors name the field). */
int web_last_error(void);
const char *web_last_why(void);

/* web_moves: the legal moves of pos in canonical order, their notations
 * separated by '\n' (empty when the game is over); NULL on TB_E_NOMEM. */
const char *web_moves(void *pos);

/* web_play: read text as a move of pos the way the terminal reads a
 * typed move (core_move_parse, else client/entry.h: the action and piece
 * letters may be left out when one legal move fits) and play it. 0 with
 * web_out holding the canonical text of the move played, or the error
 * (TB_E_NOTATION, TB_E_ILLEGAL, TB_E_AMBIGUOUS naming one that fits,
 * ...); pos is unchanged on error. */
int web_play(void *pos, const char *text);

/* web_help: how moves of pos's game are written, with examples legal in
 * pos, and what the board's symbols mean: the text `tabula rules` shows,
 * in its page form (game_help_text_for GAME_HELP_PAGE: the move box, not
 * the terminal's Tab completion or cell line), for the page's `?`. NULL
 * on error. */
const char *web_help(void *pos);

/* web_state_hash: the protocol state hash of pos (proto_state_hash,
 * BLAKE2b-256) as 64 lowercase hex digits; NULL on error. */
const char *web_state_hash(void *pos);

/* web_status: "SIDE PLY OUTCOME REASON", SIDE the side to move (0 white,
 * 1 black), PLY the ply count, OUTCOME core_outcome_name ("*" while
 * the game goes on), REASON core_reason_name. */
const char *web_status(void *pos);

/* web_position_text: the position string of pos (core_position_format). */
const char *web_position_text(void *pos);

/* web_perft: leaf nodes of the move tree of pos to depth plies
 * (core_perft) into *nodes. 0, TB_E_ARG (depth over the core's limit). */
int web_perft(void *pos, unsigned depth, uint64_t *nodes);

/* web_view: the drawable board of pos (core_view) as lines of text:
 *   "ROWS COLS"
 *   "status\tTEXT"
 *   "rows\tLABEL\t..."  (ROWS labels, top row first, as White sees it)
 *   "cols\tLABEL\t..."  (COLS labels, left first)
 * then ROWS*COLS lines, row by row:
 * "KIND\tOWNER\tNAME\tGLYPH\tDETAIL\tPIECE" with KIND the Core_Cell_Kind
 * number, OWNER 0, 1 or -1, PIECE what stands there as cli_piece_token
 * says it ("king", "ball"; "" for none and for Laska's columns), the
 * piece the page draws a figurine for. Tabs and line ends inside texts
 * become spaces. NULL on error (TB_E_STATE: no view). */
const char *web_view(void *pos);

/* web_move_squares: for each legal move of pos, in canonical order, one
 * line "NOTATION\tSQ SQ ...": the names of the board's cells its notation
 * passes through, in order (session_tokens), so the page can match clicks
 * on cells to moves. NULL on TB_E_NOMEM. */
const char *web_move_squares(void *pos);

/* web_bot_move: the bot's choice for the side to move of pos at level
 * (BOT_LEVEL_MIN..BOT_LEVEL_MAX) with seed (the same seed and position
 * give the same move), as notation. NULL on error (TB_E_ARG bad level,
 * TB_E_OVER no legal move, TB_E_NOMEM). */
const char *web_bot_move(void *pos, int level, uint32_t seed);

/* web_bot_levels: the bot's levels as "MIN MAX PLAY": BOT_LEVEL_MIN and
 * BOT_LEVEL_MAX (the terminal's `--bot LEVEL` range), which the page
 * offers and accepts in its links, and BOT_LEVEL_PLAY, the level `tabula
 * play` plays by default, which the page offers first. */
const char *web_bot_levels(void);

/* web_ball: the Chessball field as a solid for drawing (client/ball.h):
 * one line per field in the core's field order, "NAME PENTAGON NVERT"
 * then NVERT corners "X Y Z" (counter-clockwise seen from outside; z to
 * the north pole a, x to longitude 0; edge 2/3), all space-separated. */
const char *web_ball(void);

/* web_log_verify: verify a signed match log held in buf[0..len) exactly
 * as `tabula replay` does (proto_log_verify). Returns the error code (0
 * for a whole, verified log); web_last_why then holds the report line:
 * "ok ENVELOPES PLIES FINAL-HASH" or "failed FRAME PLY WHY" or
 * "torn ENVELOPES PLIES FINAL-HASH". When a transcript could be read,
 * web_out then holds its game: "game\tNAME\tOPTIONS" and one
 * "move\tNOTATION" line per move on the board, then "result\tOUTCOME\t
 * REASON" as `tabula replay`'s result line ("1-0\tresignation"; REASON
 * "unfinished" while the match goes on) (empty otherwise). */
int web_log_verify(const uint8_t *buf, size_t len);

/* web_out: the output buffer as the last call left it. */
const char *web_out(void);

/* web_out_len: the length of the bytes the last call that returned bytes
 * (web_net_hello, a SEND of web_net_poll, web_net_log) left in web_out. */
size_t web_out_len(void);

#endif /* TABULA_WEB_API_H */
