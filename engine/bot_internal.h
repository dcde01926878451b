/*
 * bot_internal.h: what the bot's files share and nothing outside engine/
 * bot*.c and search.c may use: growable move lists, the seeded mixer and
 * the two searches behind bot_search.
 */
#ifndef TABULA_BOT_INTERNAL_H
#define TABULA_BOT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define BOT_INF 1000000000

/* A move list that grows up to the game's maximum on demand: most
 * positions are short, so no list is sized for the worst case (Football
 * chess can list thousands of turns). */
typedef struct Bot_List {
    Core_Move *m;
    size_t cap;
} Bot_List;

/* An empty list with room for min(256, the game's maximum) moves.
 * Errors: TB_E_NOMEM. */
int bot__list_init(Bot_List *l, const Core_Game *g);
void bot__list_free(Bot_List *l);

/* The legal moves of pos into l, growing it as needed; *n the count.
 * Errors: TB_E_NOMEM, those of core_moves. */
int bot__list_moves(Bot_List *l, const Core_Position *pos, size_t *n);

/* As bot__list_moves, through core_moves_distinct: moves reaching one
 * position are listed once (the current search). */
int bot__list_distinct(Bot_List *l, const Core_Position *pos, size_t *n);

/* Work counted against a budget, and the optional wall clock. */
typedef struct Bot_Work {
    uint64_t nodes;       /* positions searched, moves listed, ... */
    uint64_t budget;
    const Bot_Limits *lim;
    uint64_t t0;          /* clock at the start, with a time limit */
    uint64_t next_clock;  /* work at which to read the clock again */
    int hold;             /* nonzero: neither budget nor time stops yet */
    int spent;            /* the budget or the time is spent, held or not */
    int stopped;
} Bot_Work;

/* Start counting for lim with budget (reads the clock once when lim has
 * a time limit). */
void bot__work_start(Bot_Work *w, const Bot_Limits *lim, uint64_t budget);

/* Nonzero (and stays so) once the budget or the time is spent and no
 * hold keeps the search going; w->spent says it is spent, held or not
 * (quiescence then stands pat, so a hold costs little). The clock is
 * read every 1024 units of work. */
int bot__out_of_work(Bot_Work *w);

/* A 64-bit finaliser (splitmix64's): seeds to well-spread keys. */
uint64_t bot__mix(uint64_t x);

/* The score of a finished game at ply plies from the root, side to
 * move's view: quicker wins and slower losses score higher. */
int32_t bot__terminal_score(const Core_Position *pos, int ply);

/* The original plain alpha-beta (bot_classic.c): depth cap in plies,
 * work budget, lim's wall-clock limit. Errors as bot_search. */
int bot__classic(const Core_Position *pos, const Bot_Limits *lim,
                 int depth, uint64_t budget, uint64_t seed, Core_Move *out,
                 Bot_Stats *stats);

/* The current search (search.c). lim is checked by the caller; depth and
 * budget are resolved. Errors as bot_search. */
int bot__pvs(const Core_Position *pos, const Bot_Limits *lim, int depth,
             uint64_t budget, uint64_t seed, Core_Move *out,
             Bot_Stats *stats);

#endif /* TABULA_BOT_INTERNAL_H */
