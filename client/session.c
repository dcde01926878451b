/*
 * session.c: the state of a game in the client (see session.h). Moves are
 * kept as played so a takeback is a replay from the start, which cannot
 * disagree with what a peer computes.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "match.h"
#include "session.h"

/* List the legal moves of pos, growing the arrays when a position has
 * more moves than they hold (Football chess lists can be long). */
static int refresh(Session *s)
{
    size_t max = core_game_max_moves(s->game);
    int rc;

    for (;;) {
        rc = core_moves(s->pos, s->legal, s->legal_cap, &s->nlegal);
        if (rc != TB_E_TOOMANY || s->legal_cap >= max)
            break;
        size_t cap = s->legal_cap * 4 < max ? s->legal_cap * 4 : max;
        Core_Move *legal = realloc(s->legal, cap * sizeof *legal);
        if (legal == NULL)
            return TB_E_NOMEM;
        s->legal = legal;
        char(*text)[CORE_NOTATION_MAX] =
            realloc(s->legal_text, cap * sizeof *text);
        if (text == NULL)
            return TB_E_NOMEM;
        s->legal_text = text;
        s->legal_cap = cap;
    }
    for (size_t i = 0; rc == 0 && i < s->nlegal; i++)
        rc = core_move_format(s->pos, &s->legal[i], s->legal_text[i],
                              CORE_NOTATION_MAX);
    if (rc != 0)
        s->nlegal = 0;
    return rc;
}

int session_init(Session *s, const Core_Game *g, const char *options,
                 const char *position, char *why, size_t why_cap)
{
    size_t cap = core_game_max_moves(g);
    int rc;

    if (cap > 1024)
        cap = 1024;
    memset(s, 0, sizeof *s);
    s->game = g;
    s->bot_level[0] = s->bot_level[1] = 2;
    rc = core_position_new(&s->start, g, options);
    if (rc != 0)
        goto fail;
    if (position != NULL) {
        rc = core_position_parse(s->start, position, why, why_cap);
        if (rc != 0)
            goto fail;
    }
    s->pos = core_position_clone(s->start);
    s->played = malloc(SESSION_MAX_PLIES * sizeof *s->played);
    s->legal = malloc(cap * sizeof *s->legal);
    s->legal_text = malloc(cap * sizeof *s->legal_text);
    s->legal_cap = cap;
    if (s->pos == NULL || s->played == NULL || s->legal == NULL ||
        s->legal_text == NULL) {
        rc = TB_E_NOMEM;
        goto fail;
    }
    rc = refresh(s);
    if (rc != 0)
        goto fail;
    return 0;
fail:
    session_free(s);
    return rc;
}

void session_free(Session *s)
{
    core_position_free(s->start);
    core_position_free(s->pos);
    free(s->played);
    free(s->legal);
    free(s->legal_text);
    memset(s, 0, sizeof *s);
}

Core_Status session_status(const Session *s)
{
    if (s->ended.outcome != CORE_ONGOING)
        return s->ended;
    return core_status(s->pos);
}

static int play_move(Session *s, const Core_Move *mv)
{
    if (session_status(s).outcome != CORE_ONGOING)
        return TB_E_OVER;
    if (s->nplayed >= SESSION_MAX_PLIES)
        return TB_E_LIMIT;
    int rc = core_move_format(s->pos, mv, s->last_text, sizeof s->last_text);
    if (rc == 0)
        rc = core_play(s->pos, mv);
    if (rc != 0)
        return rc;
    s->played[s->nplayed++] = *mv;
    return refresh(s);
}

int session_play_text(Session *s, const char *text)
{
    Core_Move mv;
    if (session_status(s).outcome != CORE_ONGOING)
        return TB_E_OVER;
    int rc = core_move_parse(s->pos, text, &mv);
    return rc != 0 ? rc : play_move(s, &mv);
}

int session_play_index(Session *s, size_t i)
{
    if (i >= s->nlegal)
        return TB_E_ARG;
    Core_Move mv = s->legal[i];
    return play_move(s, &mv);
}

int session_bot_move(Session *s, char *text, size_t cap)
{
    Core_Move mv;
    int side = core_side_to_move(s->pos);
    int rc = bot_choose(s->pos, s->bot_level[side], s->seed + s->nplayed,
                        &mv, NULL);
    if (rc == 0 && text != NULL)
        rc = core_move_format(s->pos, &mv, text, cap);
    return rc != 0 ? rc : play_move(s, &mv);
}

int session_takeback(Session *s, size_t plies)
{
    if (plies == 0 || plies > s->nplayed)
        return TB_E_STATE;
    s->nplayed -= plies;
    int rc = core_position_copy(s->pos, s->start);
    for (size_t i = 0; rc == 0 && i < s->nplayed; i++)
        rc = core_play(s->pos, &s->played[i]);
    s->ended.outcome = CORE_ONGOING;
    s->ended.reason = CORE_REASON_NONE;
    return rc != 0 ? rc : refresh(s);
}

size_t session_takeback_plies(const Session *s)
{
    unsigned human = (s->player[CORE_WHITE] == SESSION_HUMAN ? 1u : 0u) |
                     (s->player[CORE_BLACK] == SESSION_HUMAN ? 2u : 0u);
    return match_takeback_plies(s->start, s->played, s->nplayed, human);
}

void session_resign(Session *s, int side)
{
    s->ended.outcome = side == CORE_WHITE ? CORE_WIN_BLACK : CORE_WIN_WHITE;
    s->ended.reason = CORE_REASON_RESIGN;
}

/* Letters and digits join a square name to its neighbours, except 'x',
 * the capture sign between two names ("b3xc4", "b2xd4xf6"); no game has
 * an x file. */
static int word_char(char c)
{
    return (c >= 'a' && c <= 'z' && c != 'x') || (c >= '0' && c <= '9');
}

size_t session_tokens(const char *notation, const char (*names)[8],
                      size_t nnames, int *tokens, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; notation[i] != '\0' && n < max; i++) {
        if (i > 0 && word_char(notation[i - 1]))
            continue;
        int best = -1;
        size_t best_len = 0;
        for (size_t k = 0; k < nnames; k++) {
            size_t len = strlen(names[k]);
            if (len > best_len && strncmp(notation + i, names[k], len) == 0 &&
                !word_char(notation[i + len])) {
                best = (int)k;
                best_len = len;
            }
        }
        if (best >= 0) {
            /* A square named twice running is one selection: in Football
             * chess "d1-d6 d6*h2" the moved piece kicks from d6. */
            if (n == 0 || tokens[n - 1] != best)
                tokens[n++] = best;
            i += best_len - 1;
        }
    }
    return n;
}
