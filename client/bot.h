/*
 * bot.h: a game-neutral bot over the rules core: iterative deepening
 * negamax with alpha-beta on core_evaluate, deterministic for a seed.
 */
#ifndef TABULA_BOT_H
#define TABULA_BOT_H

#include <stdint.h>

#include "core.h"

#define BOT_LEVEL_MIN 1
#define BOT_LEVEL_MAX 8

typedef struct Bot_Stats {
    uint64_t nodes;   /* positions searched plus moves listed */
    int depth;        /* plies of the deepest finished iteration */
    int32_t score;    /* of the chosen move, side to move's view */
} Bot_Stats;

/*
 * bot_choose: pick a legal move of pos into *out. level 1..8 sets the
 * search depth in plies and a work budget (20000 * 4^level positions and
 * listed moves, at most 2^23), so wide games stay quick;
 * seed breaks ties among equal moves, the same seed always giving the same
 * move. stats may be NULL.
 * Errors: TB_E_ARG (bad level), TB_E_OVER (no legal move), TB_E_NOMEM.
 */
int bot_choose(const Core_Position *pos, int level, uint64_t seed,
               Core_Move *out, Bot_Stats *stats);

#endif /* TABULA_BOT_H */
