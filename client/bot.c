/*
 * bot.c: the generic search. Copy-make on a stack of positions made once
 * per call. A work budget per level (positions visited plus moves
 * generated, capped at BOT_WORK_MAX) keeps games with thousands of moves
 * a turn (Football chess) from stalling: a node there costs its move list. Ties at the root are broken by a
 * seeded order, so a given seed always plays the same game.
 */
#include <stdlib.h>
#include <string.h>

#include "bot.h"

#define BOT_INF 1000000000
#define BOT_WIN 100000000
#define BOT_MAX_PLY 16
/* About 2 s of search for the widest game on a slow core; narrow games
 * reach their full depth long before. */
#define BOT_WORK_MAX (UINT64_C(1) << 23)

typedef struct Search {
    const Core_Game *game;
    Core_Move *moves[BOT_MAX_PLY + 1]; /* a move list per ply, grown */
    size_t cap[BOT_MAX_PLY + 1];
    Core_Position *stack[BOT_MAX_PLY + 1];
    uint64_t nodes;
    uint64_t budget;
    int stopped;
} Search;

/* The legal moves of pos into ply's list, growing it when a position has
 * more moves than it holds (Football chess lists can be very long, and
 * most positions are short: no list is sized for the worst case). */
static int list_moves(Search *s, int ply, const Core_Position *pos,
                      size_t *n)
{
    size_t max = core_game_max_moves(s->game);
    for (;;) {
        int rc = core_moves(pos, s->moves[ply], s->cap[ply], n);
        if (rc != TB_E_TOOMANY || s->cap[ply] >= max)
            return rc;
        size_t cap = s->cap[ply] * 4 < max ? s->cap[ply] * 4 : max;
        Core_Move *grown = realloc(s->moves[ply], cap * sizeof *grown);
        if (grown == NULL)
            return TB_E_NOMEM;
        s->moves[ply] = grown;
        s->cap[ply] = cap;
    }
}

static int32_t terminal_score(const Core_Position *pos, int ply)
{
    Core_Status st = core_status(pos);
    if (st.outcome == CORE_DRAW || st.outcome == CORE_ABORTED)
        return 0;
    int winner = st.outcome == CORE_WIN_WHITE ? CORE_WHITE : CORE_BLACK;
    /* Prefer quicker wins and slower losses. */
    return winner == core_side_to_move(pos) ? BOT_WIN - ply : -BOT_WIN + ply;
}

static int32_t negamax(Search *s, int ply, int depth, int32_t alpha,
                       int32_t beta)
{
    const Core_Position *pos = s->stack[ply];
    size_t n = 0;

    s->nodes++;
    if (core_status(pos).outcome != CORE_ONGOING)
        return terminal_score(pos, ply);
    if (depth == 0 || ply >= BOT_MAX_PLY)
        return core_evaluate(pos);
    if (s->nodes >= s->budget) {
        s->stopped = 1;
        return core_evaluate(pos);
    }
    if (list_moves(s, ply, pos, &n) != 0 || n == 0)
        return terminal_score(pos, ply);
    s->nodes += n; /* listing moves is work too */
    Core_Move *moves = s->moves[ply];
    int32_t best = -BOT_INF;
    for (size_t i = 0; i < n && !s->stopped; i++) {
        core_position_copy(s->stack[ply + 1], pos);
        core_make(s->stack[ply + 1], &moves[i]);
        /* A side may act several times running (Chess volleyball's
         * touches and serves): negate only when the side changes. */
        int32_t v =
            core_side_to_move(s->stack[ply + 1]) == core_side_to_move(pos)
                ? negamax(s, ply + 1, depth - 1, alpha, beta)
                : -negamax(s, ply + 1, depth - 1, -beta, -alpha);
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

typedef struct Root_Order {
    uint64_t key;
    size_t index;
} Root_Order;

/* Total order (key, then index), so qsort's instability cannot show. */
static int order_cmp(const void *a, const void *b)
{
    const Root_Order *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    return x ^ (x >> 33);
}

int bot_choose(const Core_Position *pos, int level, uint64_t seed,
               Core_Move *out, Bot_Stats *stats)
{
    Search s;
    size_t n = 0;
    int rc = TB_E_NOMEM;
    Root_Order *order = NULL;

    if (level < BOT_LEVEL_MIN || level > BOT_LEVEL_MAX || out == NULL)
        return TB_E_ARG;
    if (core_status(pos).outcome != CORE_ONGOING)
        return TB_E_OVER;
    memset(&s, 0, sizeof s);
    s.game = core_position_game(pos);
    s.budget = (uint64_t)20000 << (2 * level);
    if (s.budget > BOT_WORK_MAX)
        s.budget = BOT_WORK_MAX;
    for (int i = 0; i <= BOT_MAX_PLY; i++) {
        s.cap[i] = core_game_max_moves(s.game) < 256
                       ? core_game_max_moves(s.game)
                       : 256;
        if ((s.moves[i] = malloc(s.cap[i] * sizeof *s.moves[i])) == NULL)
            goto done;
    }
    for (int i = 0; i <= BOT_MAX_PLY; i++)
        if ((s.stack[i] = core_position_clone(pos)) == NULL)
            goto done;
    rc = list_moves(&s, 0, pos, &n);
    if (rc != 0)
        goto done;
    order = malloc(n * sizeof *order);
    if (order == NULL) {
        rc = TB_E_NOMEM;
        goto done;
    }
    Core_Move *root = s.moves[0];
    if (n == 0) {
        rc = TB_E_OVER;
        goto done;
    }
    /* Seeded root order: a stable shuffle by hashed (seed, index). */
    for (size_t i = 0; i < n; i++) {
        order[i].key = mix(seed ^ mix(core_key(pos)) ^ (i + 1));
        order[i].index = i;
    }
    qsort(order, n, sizeof *order, order_cmp);
    size_t best_i = order[0].index;
    int32_t best_v = -BOT_INF;
    int done_depth = 0;
    for (int depth = 1; depth <= level; depth++) {
        int32_t alpha = -BOT_INF, iter_v = -BOT_INF;
        size_t iter_i = best_i;
        /* Search the previous best first. */
        for (size_t k = 0; k <= n && !s.stopped; k++) {
            size_t i;
            if (k == 0)
                i = best_i;
            else if ((i = order[k - 1].index) == best_i)
                continue;
            core_position_copy(s.stack[1], pos);
            core_make(s.stack[1], &root[i]);
            int32_t v =
                core_side_to_move(s.stack[1]) == core_side_to_move(pos)
                    ? negamax(&s, 1, depth - 1, alpha, BOT_INF)
                    : -negamax(&s, 1, depth - 1, -BOT_INF, -alpha);
            if (v > iter_v) {
                iter_v = v;
                iter_i = i;
            }
            if (v > alpha)
                alpha = v;
        }
        if (s.stopped && depth > 1)
            break;
        best_i = iter_i;
        best_v = iter_v;
        done_depth = depth;
        if (s.stopped || best_v >= BOT_WIN - BOT_MAX_PLY)
            break;
    }
    *out = root[best_i];
    if (stats != NULL) {
        stats->nodes = s.nodes;
        stats->depth = done_depth;
        stats->score = best_v;
    }
    rc = 0;
done:
    for (int i = 0; i <= BOT_MAX_PLY; i++)
        core_position_free(s.stack[i]);
    for (int i = 0; i <= BOT_MAX_PLY; i++)
        free(s.moves[i]);
    free(order);
    return rc;
}
