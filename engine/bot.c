/*
 * bot.c: the bot's front door: levels and their budgets, the clock share
 * per move, and the pieces both searches use (move lists, the seeded
 * mixer, terminal scores). The searches themselves live in search.c
 * (current) and bot_classic.c (old). A bot as the commands spell it
 * ("LEVEL:OPTS") is read by client/cli_util.c's cli_bot_spec.
 */
#include <stdlib.h>
#include <string.h>

#include "bot_internal.h"


int bot__list_init(Bot_List *l, const Core_Game *g)
{
    size_t max = core_game_max_moves(g);
    l->cap = max < 256 ? max : 256;
    l->m = malloc(l->cap * sizeof *l->m);
    return l->m == NULL ? TB_E_NOMEM : 0;
}

void bot__list_free(Bot_List *l)
{
    free(l->m);
    l->m = NULL;
    l->cap = 0;
}

typedef int (*List_Fn)(const Core_Position *pos, Core_Move *buf, size_t cap,
                       size_t *count);

static int list_grown(Bot_List *l, const Core_Position *pos, size_t *n,
                      List_Fn list)
{
    size_t max = core_game_max_moves(core_position_game(pos));
    for (;;) {
        int rc = list(pos, l->m, l->cap, n);
        if (rc != TB_E_TOOMANY || l->cap >= max)
            return rc;
        size_t cap = l->cap * 4 < max ? l->cap * 4 : max;
        Core_Move *grown = realloc(l->m, cap * sizeof *grown);
        if (grown == NULL)
            return TB_E_NOMEM;
        l->m = grown;
        l->cap = cap;
    }
}

int bot__list_moves(Bot_List *l, const Core_Position *pos, size_t *n)
{
    return list_grown(l, pos, n, core_moves);
}

int bot__list_distinct(Bot_List *l, const Core_Position *pos, size_t *n)
{
    return list_grown(l, pos, n, core_moves_distinct);
}

void bot__work_start(Bot_Work *w, const Bot_Limits *lim, uint64_t budget)
{
    memset(w, 0, sizeof *w);
    w->budget = budget;
    w->lim = lim;
    if (lim->time_ms > 0)
        w->t0 = lim->clock_ms(lim->clock_ctx);
}

int bot__out_of_work(Bot_Work *w)
{
    if (w->spent)
        ;
    else if (w->nodes >= w->budget)
        w->spent = 1;
    else if (w->lim->time_ms > 0 && w->nodes >= w->next_clock) {
        w->next_clock = w->nodes + 1024;
        if (w->lim->clock_ms(w->lim->clock_ctx) - w->t0 >= w->lim->time_ms)
            w->spent = 1;
    }
    if (!w->hold)
        w->stopped = w->spent;
    return w->stopped;
}

uint64_t bot__mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    return x ^ (x >> 33);
}

int32_t bot__terminal_score(const Core_Position *pos, int ply)
{
    Core_Status st = core_status(pos);
    if (st.outcome == CORE_DRAW || st.outcome == CORE_ABORTED)
        return 0;
    int winner = st.outcome == CORE_WIN_WHITE ? CORE_WHITE : CORE_BLACK;
    return winner == core_side_to_move(pos) ? BOT_WIN - ply : -BOT_WIN + ply;
}

static uint64_t level_budget(int level)
{
    uint64_t budget = (uint64_t)20000 << (2 * level);
    return budget > BOT_WORK_MAX ? BOT_WORK_MAX : budget;
}

Bot_Limits bot_limits_level(int level)
{
    Bot_Limits lim;
    memset(&lim, 0, sizeof lim);
    lim.level = level;
    return lim;
}

int bot_search(const Core_Position *pos, const Bot_Limits *lim,
               uint64_t seed, Core_Move *out, Bot_Stats *stats)
{
    if (pos == NULL || lim == NULL || out == NULL ||
        lim->level < BOT_LEVEL_MIN || lim->level > BOT_LEVEL_MAX ||
        lim->depth < 0 || lim->depth > BOT_DEPTH_MAX ||
        (lim->time_ms > 0 && lim->clock_ms == NULL))
        return TB_E_ARG;
    if (core_status(pos).outcome != CORE_ONGOING)
        return TB_E_OVER;
    uint64_t budget = lim->nodes > 0 ? lim->nodes : level_budget(lim->level);
    if (lim->old) {
        int depth = lim->depth > 0 ? lim->depth : lim->level;
        return bot__classic(pos, lim, depth, budget, seed, out, stats);
    }
    int depth = lim->depth > 0 ? lim->depth : lim->level;
    return bot__pvs(pos, lim, depth, budget, seed, out, stats);
}

int bot_choose(const Core_Position *pos, int level, uint64_t seed,
               Core_Move *out, Bot_Stats *stats)
{
    Bot_Limits lim = bot_limits_level(level);
    return bot_search(pos, &lim, seed, out, stats);
}

uint32_t bot_time_for_move(uint64_t remaining_ms, uint64_t increment_ms)
{
    return bot_time_for_moves(remaining_ms, increment_ms, 0);
}

uint32_t bot_time_for_moves(uint64_t remaining_ms, uint64_t increment_ms,
                            uint32_t moves_to_go)
{
    /* sudden death: a 30th; else an even share of the moves to go with
     * one more kept in reserve */
    uint64_t share = moves_to_go > 0 ? (uint64_t)moves_to_go + 1 : 30;
    uint64_t t = remaining_ms / share + increment_ms * 3 / 4;
    if (t > remaining_ms / 2)
        t = remaining_ms / 2;
    if (t < 1)
        t = 1;
    return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}
