/*
 * core.c: the game-neutral layer of the rules core. It owns position
 * allocation, checks arguments, validates moves by membership in the legal
 * move list, enforces the canonical-encoding round trip on decode, and
 * hands everything else to the game's table (core_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

struct Core_Position {
    const Core_Game *game;
    max_align_t state[]; /* game->state_size bytes */
};

static void *state_of(Core_Position *pos)
{
    return (void *)pos->state;
}

static const void *cstate_of(const Core_Position *pos)
{
    return (const void *)pos->state;
}

size_t core_game_count(void)
{
    return core__game_count;
}

const Core_Game *core_game_at(size_t i)
{
    return i < core__game_count ? core__games[i] : NULL;
}

const Core_Game *core_game_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < core__game_count; i++)
        if (strcmp(core__games[i]->name, name) == 0)
            return core__games[i];
    return NULL;
}

const char *core_game_name(const Core_Game *g)
{
    return g->name;
}

const char *core_game_title(const Core_Game *g)
{
    return g->title;
}

const char *core_game_move_hint(const Core_Game *g)
{
    return g->move_hint;
}

size_t core_game_max_moves(const Core_Game *g)
{
    return g->max_moves;
}

size_t core_game_encode_max(const Core_Game *g)
{
    return g->encode_max;
}

static Core_Position *position_alloc(const Core_Game *g)
{
    Core_Position *pos = calloc(1, sizeof *pos + g->state_size);
    if (pos != NULL)
        pos->game = g;
    return pos;
}

int core_position_new(Core_Position **out, const Core_Game *g,
                      const char *options)
{
    if (out == NULL || g == NULL)
        return TB_E_ARG;
    *out = NULL;
    if (options == NULL)
        options = "";
    if (strlen(options) > CORE_INPUT_MAX)
        return TB_E_TOOLONG;
    Core_Position *pos = position_alloc(g);
    if (pos == NULL)
        return TB_E_NOMEM;
    int rc = g->init(state_of(pos), options);
    if (rc != 0) {
        free(pos);
        return rc;
    }
    *out = pos;
    return 0;
}

void core_position_free(Core_Position *pos)
{
    free(pos);
}

Core_Position *core_position_clone(const Core_Position *pos)
{
    Core_Position *copy = position_alloc(pos->game);
    if (copy != NULL)
        memcpy(state_of(copy), cstate_of(pos), pos->game->state_size);
    return copy;
}

int core_position_copy(Core_Position *dst, const Core_Position *src)
{
    if (dst->game != src->game)
        return TB_E_MISMATCH;
    if (dst != src)
        memcpy(state_of(dst), cstate_of(src), src->game->state_size);
    return 0;
}

const Core_Game *core_position_game(const Core_Position *pos)
{
    return pos->game;
}

int core_side_to_move(const Core_Position *pos)
{
    return pos->game->side(cstate_of(pos));
}

uint32_t core_ply(const Core_Position *pos)
{
    return pos->game->ply(cstate_of(pos));
}

uint64_t core_key(const Core_Position *pos)
{
    return pos->game->key(cstate_of(pos));
}

Core_Status core_status(const Core_Position *pos)
{
    return pos->game->status(cstate_of(pos));
}

int core_table_points(const Core_Position *pos, Core_Status st,
                      unsigned out[2])
{
    if (pos == NULL || out == NULL)
        return TB_E_ARG;
    out[0] = out[1] = 0;
    if (st.outcome == CORE_ONGOING)
        return TB_E_STATE;
    if (st.outcome == CORE_ABORTED)
        return 0;
    if (pos->game->table_points != NULL) {
        pos->game->table_points(cstate_of(pos), st, out);
    } else if (st.outcome == CORE_DRAW) {
        out[0] = out[1] = 1;
    } else {
        out[st.outcome == CORE_WIN_WHITE ? 0 : 1] = 2;
    }
    return 0;
}

int core_moves(const Core_Position *pos, Core_Move *buf, size_t cap,
               size_t *count)
{
    if (pos == NULL || count == NULL || (buf == NULL && cap != 0))
        return TB_E_ARG;
    *count = 0;
    return pos->game->moves(cstate_of(pos), buf, cap, count);
}

int core_moves_distinct(const Core_Position *pos, Core_Move *buf, size_t cap,
                        size_t *count)
{
    if (pos == NULL || count == NULL || (buf == NULL && cap != 0))
        return TB_E_ARG;
    *count = 0;
    if (pos->game->moves_distinct == NULL)
        return pos->game->moves(cstate_of(pos), buf, cap, count);
    return pos->game->moves_distinct(cstate_of(pos), buf, cap, count);
}

int core_move_equal(const Core_Move *a, const Core_Move *b)
{
    return a->len == b->len && a->flags == b->flags &&
           memcmp(a->b, b->b, a->len) == 0;
}

int core_play(Core_Position *pos, const Core_Move *mv)
{
    const Core_Game *g = pos->game;
    size_t n = 0;
    int found = 0;

    if (mv == NULL)
        return TB_E_ARG;
    if (g->status(cstate_of(pos)).outcome != CORE_ONGOING)
        return TB_E_OVER;
    if (g->legal != NULL) {
        if (!g->legal(cstate_of(pos), mv))
            return TB_E_ILLEGAL;
        g->make(state_of(pos), mv);
        return 0;
    }
    Core_Move *buf = malloc(g->max_moves * sizeof *buf);
    if (buf == NULL)
        return TB_E_NOMEM;
    int rc = g->moves(cstate_of(pos), buf, g->max_moves, &n);
    for (size_t i = 0; rc == 0 && i < n && !found; i++)
        found = core_move_equal(&buf[i], mv);
    free(buf);
    if (rc != 0)
        return rc;
    if (!found)
        return TB_E_ILLEGAL;
    g->make(state_of(pos), mv);
    return 0;
}

void core_make(Core_Position *pos, const Core_Move *mv)
{
    pos->game->make(state_of(pos), mv);
}

int core_move_format(const Core_Position *pos, const Core_Move *mv,
                     char *buf, size_t cap)
{
    if (pos == NULL || mv == NULL || buf == NULL || cap == 0)
        return TB_E_ARG;
    return pos->game->move_format(cstate_of(pos), mv, buf, cap);
}

int core_move_parse(const Core_Position *pos, const char *text,
                    Core_Move *out)
{
    if (pos == NULL || text == NULL || out == NULL)
        return TB_E_ARG;
    if (strlen(text) > CORE_INPUT_MAX)
        return TB_E_TOOLONG;
    if (pos->game->status(cstate_of(pos)).outcome != CORE_ONGOING)
        return TB_E_OVER;
    return pos->game->move_parse(cstate_of(pos), text, out);
}

int core_position_format(const Core_Position *pos, char *buf, size_t cap)
{
    if (pos == NULL || buf == NULL || cap == 0)
        return TB_E_ARG;
    return pos->game->position_format(cstate_of(pos), buf, cap);
}

int core_position_parse(Core_Position *pos, const char *text, char *why,
                        size_t why_cap)
{
    if (pos == NULL || text == NULL)
        return core__why(why, why_cap, TB_E_ARG, "no position given");
    size_t len = strlen(text);
    if (len > CORE_INPUT_MAX)
        return core__why(why, why_cap, TB_E_TOOLONG,
                         "position string over 4096 bytes");
    /* Every game's fields are printable ASCII between spaces; a tab
     * separates as a space does (in every game alike), and a line end
     * or another byte would otherwise be read as part of a field and
     * named as the wrong fault. */
    for (size_t i = 0; i < len; i++)
        if (text[i] != '\t' &&
            ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] >= 0x7f))
            return core__why(why, why_cap, TB_E_POSITION,
                             "fields are printable ASCII separated by "
                             "spaces or tabs; a line end or other character "
                             "is not");
    char *spaced = malloc(len + 1);
    Core_Position *tmp = spaced != NULL ? core_position_clone(pos) : NULL;
    if (tmp == NULL) {
        free(spaced);
        return TB_E_NOMEM;
    }
    for (size_t i = 0; i <= len; i++)
        spaced[i] = text[i] == '\t' ? ' ' : text[i];
    int rc = pos->game->position_parse(state_of(tmp), spaced, why, why_cap);
    free(spaced);
    if (rc == 0)
        memcpy(state_of(pos), cstate_of(tmp), pos->game->state_size);
    free(tmp);
    return rc;
}

int core_options_format(const Core_Position *pos, char *buf, size_t cap)
{
    if (pos == NULL || buf == NULL || cap == 0)
        return TB_E_ARG;
    return pos->game->options_format(cstate_of(pos), buf, cap);
}

int core_encode(const Core_Position *pos, uint8_t *buf, size_t cap,
                size_t *len)
{
    if (pos == NULL || buf == NULL || len == NULL)
        return TB_E_ARG;
    *len = 0;
    return pos->game->encode(cstate_of(pos), buf, cap, len);
}

int core_decode(Core_Position *pos, const uint8_t *buf, size_t len)
{
    const Core_Game *g;
    Core_Position *tmp = NULL;
    uint8_t *again = NULL;
    size_t again_len = 0;
    int rc;

    if (pos == NULL || (buf == NULL && len != 0))
        return TB_E_ARG;
    g = pos->game;
    if (len == 0)
        return TB_E_ENCODING;
    if (buf[0] != g->id)
        return TB_E_MISMATCH;
    if (len > g->encode_max)
        return TB_E_ENCODING;
    tmp = position_alloc(g);
    again = malloc(g->encode_max);
    if (tmp == NULL || again == NULL) {
        rc = TB_E_NOMEM;
        goto done;
    }
    rc = g->decode(state_of(tmp), buf, len);
    if (rc != 0) {
        rc = TB_E_ENCODING;
        goto done;
    }
    /* Canonical form: the bytes must be exactly what we would write. */
    rc = g->encode(cstate_of(tmp), again, g->encode_max, &again_len);
    if (rc != 0 || again_len != len || memcmp(again, buf, len) != 0) {
        rc = TB_E_ENCODING;
        goto done;
    }
    memcpy(state_of(pos), cstate_of(tmp), g->state_size);
    rc = 0;
done:
    free(again);
    free(tmp);
    return rc;
}

int core_perft(const Core_Position *pos, unsigned depth, uint64_t *nodes)
{
    if (pos == NULL || nodes == NULL || depth > 64)
        return TB_E_ARG;
    return pos->game->perft(cstate_of(pos), depth, nodes);
}

int32_t core_evaluate(const Core_Position *pos)
{
    if (pos->game->evaluate == NULL)
        return 0;
    return pos->game->evaluate(cstate_of(pos));
}

int32_t core_evaluate_classic(const Core_Position *pos)
{
    if (pos->game->evaluate_classic != NULL)
        return pos->game->evaluate_classic(cstate_of(pos));
    return core_evaluate(pos);
}

int core_evaluate_terms(const Core_Position *pos, int32_t *out, size_t cap,
                        size_t *n)
{
    if (pos == NULL || out == NULL || n == NULL)
        return TB_E_ARG;
    if (pos->game->terms == NULL)
        return TB_E_STATE;
    return pos->game->terms(cstate_of(pos), out, cap, n);
}

int32_t core_move_forcing(const Core_Position *pos, const Core_Move *mv)
{
    if (pos->game->forcing == NULL)
        return 0;
    return pos->game->forcing(cstate_of(pos), mv);
}

int core_forcing_find(const Core_Position *pos, Core_Move *out,
                      int32_t *gain)
{
    if (pos == NULL || out == NULL || gain == NULL)
        return TB_E_ARG;
    if (pos->game->forcing_find == NULL)
        return TB_E_STATE;
    return pos->game->forcing_find(cstate_of(pos), out, gain);
}

int core_in_check(const Core_Position *pos)
{
    if (pos->game->in_check == NULL)
        return 0;
    return pos->game->in_check(cstate_of(pos));
}

int core_view(const Core_Position *pos, Core_View *v)
{
    if (pos == NULL || v == NULL)
        return TB_E_ARG;
    memset(v, 0, sizeof *v);
    if (pos->game->view == NULL)
        return TB_E_STATE;
    return pos->game->view(cstate_of(pos), v);
}

static int perft_rec(const Core_Game *g, const void *st, unsigned depth,
                     Core_Move *moves, unsigned char *states, uint64_t *nodes)
{
    size_t n = 0;
    int rc;
    if (depth == 1 && g->count != NULL) {
        rc = g->count(st, &n);
        *nodes += n;
        return rc;
    }
    rc = g->moves(st, moves, g->max_moves, &n);
    if (rc != 0)
        return rc;
    if (depth == 1) {
        *nodes += n;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        memcpy(states, st, g->state_size);
        g->make(states, &moves[i]);
        rc = perft_rec(g, states, depth - 1, moves + g->max_moves,
                       states + g->state_size, nodes);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int core__perft_generic(const Core_Game *g, const void *st, unsigned depth,
                        uint64_t *nodes)
{
    *nodes = 0;
    if (depth == 0) {
        *nodes = 1;
        return 0;
    }
    Core_Move *moves = malloc((size_t)depth * g->max_moves * sizeof *moves);
    unsigned char *states = malloc((size_t)depth * g->state_size);
    int rc = TB_E_NOMEM;
    if (moves != NULL && states != NULL)
        rc = perft_rec(g, st, depth, moves, states, nodes);
    free(moves);
    free(states);
    return rc;
}

static const char *const reason_names[CORE_REASON_COUNT_] = {
    [CORE_REASON_NONE] = "none",
    [CORE_REASON_CHECKMATE] = "checkmate",
    [CORE_REASON_STALEMATE] = "stalemate",
    [CORE_REASON_NO_MOVES] = "no-moves",
    [CORE_REASON_GOAL] = "goal",
    [CORE_REASON_RESIGN] = "resign",
    [CORE_REASON_AGREEMENT] = "agreement",
    [CORE_REASON_REPETITION] = "repetition",
    [CORE_REASON_MOVE_RULE] = "move-rule",
    [CORE_REASON_TIME] = "time",
    [CORE_REASON_DESYNC_ABORT] = "desync-abort",
    [CORE_REASON_POINTS] = "points",
    [CORE_REASON_FORFEIT] = "forfeit",
    [CORE_REASON_ABORT] = "abort",
    [CORE_REASON_ABANDON] = "abandon",
    [CORE_REASON_NOT_CAUGHT] = "not-caught",
    [CORE_REASON_DESYNC_FORFEIT] = "desync-forfeit",
};

const char *core_reason_name(Core_Reason r)
{
    if ((unsigned)r >= CORE_REASON_COUNT_)
        return "unknown";
    return reason_names[r];
}

const char *core_outcome_name(Core_Outcome o)
{
    switch (o) {
    case CORE_ONGOING:
        return "*";
    case CORE_WIN_WHITE:
        return "1-0";
    case CORE_WIN_BLACK:
        return "0-1";
    case CORE_DRAW:
        return "1/2-1/2";
    case CORE_ABORTED:
        return "aborted";
    }
    return "unknown";
}
