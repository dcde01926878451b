/*
 * bot.c: the bot's front door: levels and their budgets, the "LEVEL:OPTS"
 * spec of match and analyse, the clock share per move, and the pieces
 * both searches use (move lists, the seeded mixer, terminal scores). The
 * searches themselves live in search.c (current) and bot_classic.c (old).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "bot_internal.h"

/* About 2 s of search for the widest game on a slow core; narrow games
 * reach their full depth long before. */
#define BOT_WORK_MAX (UINT64_C(1) << 23)
#define BOT_DEPTH_MAX 60
#define BOT_NODES_MAX (UINT64_C(1) << 40)

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
    if (w->hold)
        return w->stopped;
    if (w->nodes >= w->budget)
        w->stopped = 1;
    else if (w->lim->time_ms > 0 && w->nodes >= w->next_clock) {
        w->next_clock = w->nodes + 1024;
        if (w->lim->clock_ms(w->lim->clock_ctx) - w->t0 >= w->lim->time_ms)
            w->stopped = 1;
    }
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

/* A whole decimal number in [lo, hi], nothing else. */
static int read_number(const char *s, uint64_t lo, uint64_t hi,
                       uint64_t *out)
{
    uint64_t v = 0;
    if (*s == '\0')
        return -1;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9' || v > hi)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int bot_parse_spec(const char *text, Bot_Limits *lim, char *why,
                   size_t why_cap)
{
    char buf[128];
    uint64_t v = 0;
    size_t len = text == NULL ? 0 : strlen(text);

    if (why != NULL && why_cap > 0)
        why[0] = '\0';
    if (len == 0 || len >= sizeof buf) {
        if (why != NULL)
            snprintf(why, why_cap, _("expected LEVEL[:OPTS]"));
        return TB_E_ARG;
    }
    memcpy(buf, text, len + 1);
    char *opt = strchr(buf, ':');
    if (opt != NULL)
        *opt++ = '\0';
    if (read_number(buf, BOT_LEVEL_MIN, BOT_LEVEL_MAX, &v) != 0) {
        if (why != NULL)
            snprintf(why, why_cap, _("level must be %d..%d"), BOT_LEVEL_MIN,
                     BOT_LEVEL_MAX);
        return TB_E_ARG;
    }
    *lim = bot_limits_level((int)v);
    int searches = 0; /* old, classic and new name the search: one only */
    while (opt != NULL) {
        char *next = strchr(opt, ':');
        if (next != NULL)
            *next++ = '\0';
        int search = strcmp(opt, "old") == 0 || strcmp(opt, "classic") == 0 ||
                     strcmp(opt, "new") == 0;
        if (search && searches++ > 0) {
            if (why != NULL)
                snprintf(why, why_cap,
                         _("one search only: old, classic or new"));
            return TB_E_ARG;
        }
        if (strcmp(opt, "old") == 0) {
            lim->old = 1;
            lim->classic = 0;
        } else if (strcmp(opt, "classic") == 0) {
            lim->old = 1;
            lim->classic = 1;
        } else if (strcmp(opt, "new") == 0) {
            lim->old = 0;
            lim->classic = 0;
        } else if (strncmp(opt, "depth=", 6) == 0) {
            if (read_number(opt + 6, 1, BOT_DEPTH_MAX, &v) != 0) {
                if (why != NULL)
                    snprintf(why, why_cap, _("depth must be 1..%d"),
                             BOT_DEPTH_MAX);
                return TB_E_ARG;
            }
            lim->depth = (int)v;
        } else if (strncmp(opt, "nodes=", 6) == 0) {
            if (read_number(opt + 6, 1, BOT_NODES_MAX, &v) != 0) {
                if (why != NULL)
                    snprintf(why, why_cap, _("nodes must be 1..2^40"));
                return TB_E_ARG;
            }
            lim->nodes = v;
        } else {
            if (why != NULL)
                snprintf(why, why_cap,
                         _("unknown option; expected old, classic, new, "
                           "depth=1..%d or nodes=N"),
                         BOT_DEPTH_MAX);
            return TB_E_ARG;
        }
        opt = next;
    }
    return 0;
}

uint32_t bot_time_for_move(uint64_t remaining_ms, uint64_t increment_ms)
{
    uint64_t t = remaining_ms / 30 + increment_ms * 3 / 4;
    if (t > remaining_ms / 2)
        t = remaining_ms / 2;
    if (t < 1)
        t = 1;
    return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}
