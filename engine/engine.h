/*
 * engine.h: the engine library (engine/), the one header of the bots,
 * their search, time management and the Elo maths, used by the terminal,
 * the page's worker, `tabula match` and `tabula analyse`; evaluation
 * stays with each game in core/.
 *
 * The game-neutral bot over the rules core. Two searches: the
 * current one (iterative deepening principal-variation search with a
 * transposition table keyed by core_key, move ordering, quiescence on
 * forcing moves) and the original plain alpha-beta, kept reachable as
 * the "old" option so the two can be measured against each other
 * (docs/engines.md). Both are deterministic for a seed and a node budget;
 * neither uses threads, floating point or a clock of its own.
 */
#ifndef TABULA_ENGINE_H
#define TABULA_ENGINE_H

#include <stdint.h>

#include "core.h"

#define BOT_LEVEL_MIN 1
#define BOT_LEVEL_MAX 8
/* The level `tabula play` plays by default and the page offers first. */
#define BOT_LEVEL_PLAY 2

/* Scores at or beyond BOT_MATE_MIN (in absolute value) are forced game
 * ends: BOT_WIN - plies for a win found plies away. */
#define BOT_WIN 100000000
#define BOT_MATE_MIN (BOT_WIN - 1000)

/* The longest principal variation reported. */
#define BOT_PV_MAX 32

/* The levels' work budget at most: about 2 s of search for the widest
 * game on a slow core; narrow games reach their full depth long before. */
#define BOT_WORK_MAX (UINT64_C(1) << 23)
/* The largest depth cap (plies) and work budget Bot_Limits may ask. */
#define BOT_DEPTH_MAX 60
#define BOT_NODES_MAX (UINT64_C(1) << 40)

typedef struct Bot_Stats {
    uint64_t nodes;   /* work: positions searched plus moves listed */
    int depth;        /* plies of the deepest finished iteration */
    int32_t score;    /* of the chosen move, side to move's view */
} Bot_Stats;

/* A transposition table kept from one search to the next of one game
 * (bot_table_new); opaque. */
typedef struct Bot_Table Bot_Table;

/* One finished iteration, handed to Bot_Limits.info. */
typedef struct Bot_Info {
    int depth;              /* nominal plies of this iteration */
    int32_t score;          /* side to move's view, hundredths of a pawn */
    uint64_t nodes;         /* work so far in this call */
    int pv_len;             /* moves in pv, 1..BOT_PV_MAX */
    Core_Move pv[BOT_PV_MAX];
} Bot_Info;

typedef struct Bot_Limits {
    int level;          /* 1..8: the depth cap and the default budget */
    int old;            /* nonzero: the original plain alpha-beta */
    /* nonzero (with old): that search on core_evaluate_classic, the bot
     * as issue 17 found it, for measuring against (docs/engines.md) */
    int classic;
    int depth;          /* depth cap in plies; 0: the level's */
    uint64_t nodes;     /* work budget; 0: the level's */
    /* wall-clock limit per move; 0: none. Needs clock. With it the
     * current search also scores a position met again since its root a
     * draw (docs/engines.md, "Repetition inside the search"). */
    uint32_t time_ms;
    /* Milliseconds from any fixed origin; only read when time_ms > 0, so
     * searches without a time limit stay deterministic. */
    uint64_t (*clock_ms)(void *ctx);
    void *clock_ctx;
    /* Called after each finished iteration; may be NULL. The old search
     * keeps no principal variation: its lines hold the root move only. */
    void (*info)(void *ctx, const Bot_Info *info);
    void *info_ctx;
    /* NULL: a fresh table each search, so a move never depends on an
     * earlier one (play, demo, network games, the level rows). Else the
     * current search keeps its transposition table here between the
     * searches of one game, as a chess engine keeps its hash between
     * moves (tabula match with a time limit); a table serves one game
     * and one side. With time_ms, a search with a kept table also
     * starts iterations until the time is up, where a fresh one stops
     * at half of it (an unfinished iteration's entries serve the next
     * move). An empty kept table without time_ms plays as a fresh one. */
    Bot_Table *table;
} Bot_Limits;

/*
 * bot_limits_level: limits for a level with the current search: depth cap
 * `level` plies (quiescence goes beyond), work budget 20000 * 4^level (at
 * most 2^23), no clock.
 */
Bot_Limits bot_limits_level(int level);

/*
 * bot_search: pick a legal move of pos into *out within lim. seed breaks
 * ties among equal moves, the same seed (and limits without time) always
 * giving the same move. stats may be NULL. With the old search the depth
 * cap is the level (or lim->depth) and each info line's pv is the root
 * move alone.
 * Errors: TB_E_ARG (bad level or limits), TB_E_OVER (no legal move),
 * TB_E_NOMEM.
 */
int bot_search(const Core_Position *pos, const Bot_Limits *lim,
               uint64_t seed, Core_Move *out, Bot_Stats *stats);

/*
 * bot_table_new: an empty table for Bot_Limits.table; its entries are
 * allocated by the first search that uses it. NULL when out of memory.
 * bot_table_free: frees it (NULL is fine).
 */
Bot_Table *bot_table_new(void);
void bot_table_free(Bot_Table *t);

/*
 * bot_choose: bot_search with bot_limits_level(level): the bot of play,
 * demo and network games.
 * Errors: TB_E_ARG (bad level), TB_E_OVER (no legal move), TB_E_NOMEM.
 */
int bot_choose(const Core_Position *pos, int level, uint64_t seed,
               Core_Move *out, Bot_Stats *stats);

/*
 * bot_time_for_move: milliseconds to spend on a move with remaining_ms on
 * the clock and increment_ms added per move: a 30th of the remainder
 * plus three quarters of the increment, never more than half the
 * remainder, at least 1.
 */
uint32_t bot_time_for_move(uint64_t remaining_ms, uint64_t increment_ms);

/*
 * bot_time_for_moves: bot_time_for_move for a clock that gives time
 * back after moves_to_go more moves (a period of moves, a correspondence
 * move), as UCI's movestogo: the remainder divided by moves_to_go + 1
 * instead of 30, plus three quarters of increment_ms (per move, or a
 * delay), never more than half the remainder, at least 1. moves_to_go
 * 0 is sudden death: bot_time_for_move.
 */
uint32_t bot_time_for_moves(uint64_t remaining_ms, uint64_t increment_ms,
                            uint32_t moves_to_go);

/* ---- Elo ------------------------------------------------------------ */

/*
 * Elo: the statistics of engine matches (tabula match): the Elo
 * difference of a score with its 95% interval, and the log-likelihood
 * ratio of a sequential probability ratio test (SPRT) between two Elo
 * hypotheses, both on the logistic Elo scale from the trinomial
 * win/draw/loss counts. Floating point is fine here: it only reports
 * games already played and never steers a search.
 */

typedef struct Elo_Result {
    double score;   /* (wins + draws / 2) / games, 0..1 */
    double elo;     /* -400 log10(1 / score - 1); +-inf at 1 and 0 */
    double lo, hi;  /* 95% interval of elo, by the normal approximation
                       of the mean score (cutechess-cli's method) */
} Elo_Result;

/*
 * elo_estimate: the Elo difference of the side that won `wins`, drew
 * `draws` and lost `losses`. Errors: -1 when there are no games.
 */
int elo_estimate(long wins, long draws, long losses, Elo_Result *out);

/*
 * elo_llr: the log-likelihood ratio of H1 (elo1) against H0 (elo0) after
 * these games, by the normal approximation of the generalised SPRT used
 * by fishtest: LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v), m the mean
 * score, v its per-game variance, sK = 1 / (1 + 10^(-eloK / 400)).
 * 0 when there are no games or the variance is 0 (every game the same
 * result), so such a run goes on (cutechess-cli's SPRT waits longer,
 * until it has seen a win, a draw and a loss).
 */
double elo_llr(long wins, long draws, long losses, double elo0,
               double elo1);

/*
 * elo_sprt_bounds: the stopping bounds for error rates alpha (false H1)
 * and beta (false H0): *lower = ln(beta / (1 - alpha)), *upper =
 * ln((1 - beta) / alpha); LLR <= lower accepts H0, >= upper accepts H1.
 */
void elo_sprt_bounds(double alpha, double beta, double *lower,
                     double *upper);

#endif /* TABULA_ENGINE_H */
