/*
 * bot_classic.c: the original search, kept as the "old" level option so
 * the current search can be measured against it (docs/engines.md), and
 * with "classic" on core_evaluate_classic, the evaluations of its time:
 * iterative deepening negamax with alpha-beta on core_evaluate, no
 * table, no ordering beyond the previous best root move, no principal
 * variation (each finished depth is reported with its root move alone,
 * so tabula analyse prints its info lines too). Copy-make on a
 * stack of positions made once per call. A work budget (positions
 * visited plus moves listed) keeps games with thousands of moves a turn
 * (Football chess) from stalling: a node there costs its move list. Ties
 * at the root are broken by a seeded order, so a given seed always plays
 * the same game.
 */
#include <stdlib.h>
#include <string.h>

#include "bot_internal.h"

#define CLASSIC_MAX_PLY 16

typedef struct Search {
    Bot_List moves[CLASSIC_MAX_PLY + 1];
    Core_Position *stack[CLASSIC_MAX_PLY + 1];
    Bot_Work w;
    int32_t (*evaluate)(const Core_Position *pos);
} Search;

static int32_t negamax(Search *s, int ply, int depth, int32_t alpha,
                       int32_t beta)
{
    const Core_Position *pos = s->stack[ply];
    size_t n = 0;

    s->w.nodes++;
    if (core_status(pos).outcome != CORE_ONGOING)
        return bot__terminal_score(pos, ply);
    if (depth == 0 || ply >= CLASSIC_MAX_PLY)
        return s->evaluate(pos);
    if (bot__out_of_work(&s->w))
        return s->evaluate(pos);
    if (bot__list_moves(&s->moves[ply], pos, &n) != 0 || n == 0)
        return bot__terminal_score(pos, ply);
    s->w.nodes += n; /* listing moves is work too */
    Core_Move *moves = s->moves[ply].m;
    int32_t best = -BOT_INF;
    for (size_t i = 0; i < n && !s->w.stopped; i++) {
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

int bot__classic(const Core_Position *pos, const Bot_Limits *lim,
                 int max_depth, uint64_t budget, uint64_t seed,
                 Core_Move *out, Bot_Stats *stats)
{
    Search s;
    size_t n = 0;
    int rc = TB_E_NOMEM;
    Root_Order *order = NULL;
    const Core_Game *g = core_position_game(pos);

    memset(&s, 0, sizeof s);
    s.evaluate = lim->classic ? core_evaluate_classic : core_evaluate;
    bot__work_start(&s.w, lim, budget);
    if (max_depth > CLASSIC_MAX_PLY)
        max_depth = CLASSIC_MAX_PLY;
    for (int i = 0; i <= CLASSIC_MAX_PLY; i++)
        if (bot__list_init(&s.moves[i], g) != 0)
            goto done;
    for (int i = 0; i <= CLASSIC_MAX_PLY; i++)
        if ((s.stack[i] = core_position_clone(pos)) == NULL)
            goto done;
    rc = bot__list_moves(&s.moves[0], pos, &n);
    if (rc != 0)
        goto done;
    if (n == 0) {
        rc = TB_E_OVER;
        goto done;
    }
    order = malloc(n * sizeof *order);
    if (order == NULL) {
        rc = TB_E_NOMEM;
        goto done;
    }
    Core_Move *root = s.moves[0].m;
    /* Seeded root order: a stable shuffle by hashed (seed, index). */
    for (size_t i = 0; i < n; i++) {
        order[i].key = bot__mix(seed ^ bot__mix(core_key(pos)) ^ (i + 1));
        order[i].index = i;
    }
    qsort(order, n, sizeof *order, order_cmp);
    size_t best_i = order[0].index;
    int32_t best_v = -BOT_INF;
    int done_depth = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        int32_t alpha = -BOT_INF, iter_v = -BOT_INF;
        size_t iter_i = best_i;
        /* Search the previous best first. */
        for (size_t k = 0; k <= n && !s.w.stopped; k++) {
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
        if (s.w.stopped && depth > 1)
            break;
        best_i = iter_i;
        best_v = iter_v;
        done_depth = depth;
        if (lim->info != NULL) {
            Bot_Info info;
            memset(&info, 0, sizeof info);
            info.depth = depth;
            info.score = best_v;
            info.nodes = s.w.nodes;
            info.pv_len = 1;
            info.pv[0] = root[best_i];
            lim->info(lim->info_ctx, &info);
        }
        if (s.w.stopped || best_v >= BOT_WIN - CLASSIC_MAX_PLY)
            break;
    }
    *out = root[best_i];
    if (stats != NULL) {
        stats->nodes = s.w.nodes;
        stats->depth = done_depth;
        stats->score = best_v;
    }
    rc = 0;
done:
    for (int i = 0; i <= CLASSIC_MAX_PLY; i++)
        core_position_free(s.stack[i]);
    for (int i = 0; i <= CLASSIC_MAX_PLY; i++)
        bot__list_free(&s.moves[i]);
    free(order);
    return rc;
}
