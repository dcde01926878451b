/*
 * session.h: a game being played in the client, whatever carries it: the
 * position, the moves so far (as played, so a takeback replays from the
 * start), who controls each side, and the helpers a front end needs to
 * match clicks on squares to legal moves.
 */
#ifndef TABULA_SESSION_H
#define TABULA_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

#define SESSION_MAX_PLIES 4096
#define SESSION_MAX_TOKENS 16

/* Who moves a side. */
typedef enum Session_Player {
    SESSION_HUMAN = 0,
    SESSION_BOT
} Session_Player;

typedef struct Session {
    const Core_Game *game;
    Core_Position *start;  /* where the game began */
    Core_Position *pos;    /* now */
    Core_Move *played;     /* SESSION_MAX_PLIES moves */
    size_t nplayed;
    Session_Player player[2]; /* by side */
    int bot_level[2];
    uint64_t seed;
    Core_Status ended;     /* a result from outside the board (resign) */
    char last_text[CORE_NOTATION_MAX]; /* notation of the last ply */
    /* Legal moves of pos and their notation, refreshed after each ply. */
    Core_Move *legal;
    char (*legal_text)[CORE_NOTATION_MAX];
    size_t nlegal;
    size_t legal_cap;      /* entries allocated; grows on demand */
} Session;

/*
 * session_init: start a game of g (options and position as for
 * core_position_new / core_position_parse; NULL for defaults).
 * why (may be NULL) gets a reason on failure.
 * Errors: those of core_position_new and core_position_parse, TB_E_NOMEM.
 */
int session_init(Session *s, const Core_Game *g, const char *options,
                 const char *position, char *why, size_t why_cap);
void session_free(Session *s);

/* The result: the board's, unless the session ended otherwise. */
Core_Status session_status(const Session *s);

/*
 * session_play_text: parse text as a move of the side to move and play it.
 * Errors: those of core_move_parse, TB_E_OVER, TB_E_LIMIT (ply limit).
 */
int session_play_text(Session *s, const char *text);

/* Play legal move number i of s->legal. Errors: TB_E_ARG, TB_E_LIMIT. */
int session_play_index(Session *s, size_t i);

/*
 * session_bot_move: let the bot of the side to move choose and play.
 * text (may be NULL) gets the notation. Errors: those of bot_choose.
 */
int session_bot_move(Session *s, char *text, size_t cap);

/*
 * session_takeback: undo the last plies plies by replaying the rest from
 * the start. Errors: TB_E_STATE when fewer plies were played.
 */
int session_takeback(Session *s, size_t plies);

/*
 * session_takeback_plies: the plies a plain `takeback` undoes, by the
 * one rule (match_takeback_plies, the human sides'). Against a
 * bot (one side human), the human side's last ply and everything after
 * it, so that side is to move again, however many plies the bot made in
 * a row (Chess volleyball's touches) and after the game's end too, as a
 * network seat's request does (G-MC-4); otherwise the last ply. 0 when
 * there is nothing to take back (no ply, or none of the human side's).
 */
size_t session_takeback_plies(const Session *s);

/* session_resign: side resigns; the other wins (D-ALL-3). */
void session_resign(Session *s, int side);

/*
 * session_tokens: the square names inside a move's notation, in order,
 * matched against the names of the view's cells (a name counts only when
 * no letter or digit touches it; a square named twice running counts
 * once). Returns the count (at most max); each token is an index into
 * names.
 */
size_t session_tokens(const char *notation, const char (*names)[8],
                      size_t nnames, int *tokens, size_t max);

#endif /* TABULA_SESSION_H */
