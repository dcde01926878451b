/*
 * search.c: the current bot search, game-neutral over core.h: iterative
 * deepening principal-variation search with a transposition table keyed
 * by core_key, move ordering (table move, forcing moves by what they win,
 * killers, history, then a seeded order), late-move reductions for quiet
 * moves growing with depth and move number, aspiration windows at the
 * root, extensions for checks and for nodes with a single legal move,
 * reverse futility and futility pruning near the leaves, and a
 * quiescence search on forcing moves (delta-pruned; every evasion in
 * check). Which moves are forcing
 * (captures, goals, shots over the net) and what they win, the core says
 * without making them (core_move_forcing), so ordering and quiescence
 * make only the moves they search (docs/engines.md). Work (positions
 * searched, moves listed, children evaluated for ordering) is counted
 * against the budget, and the search stops there or at the wall-clock
 * limit; everything else is a function of the position, the limits and
 * the seed. Integer arithmetic only.
 */
#include <stdlib.h>
#include <string.h>

#include "bot_internal.h"

#define MAX_PLY 64
#define QS_MAX 6           /* quiescence plies beyond the nominal depth */
#define HIST_SIZE 4096
/* Quiescence lists every move of a node to find the forcing ones; in
 * games whose turns run to thousands of moves (Football chess) that
 * costs more than it finds, so those games quiesce on the one forcing
 * move the core finds without listing (threat_search). */
#define QS_GAME_MAX_MOVES 4096
/* Quiescence's delta pruning: a capture is skipped when what it wins
 * plus this margin cannot lift the static score to alpha. */
#define DELTA_MARGIN 200
#define TT_MIN_BITS 10
#define TT_MAX_BITS 18

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

/* The best move is kept as its index in the position's move list: the
 * list is in the core's canonical order, so the index names the same
 * move whenever the same position is listed again, and an entry stays
 * 24 bytes (the table's cache misses are much of a node's cost). */
#define TT_NO_MOVE UINT32_MAX

typedef struct Tt_Entry {
    uint64_t key;
    int32_t score;
    uint32_t move;     /* index in the move list, or TT_NO_MOVE */
    int16_t depth;
    uint8_t bound;     /* 0: empty */
    uint8_t gen;       /* the search that stored it (Bot_Table.gen) */
} Tt_Entry;

/* A table kept between the searches of a game (engine.h); each search is
 * one generation, and an entry of an earlier one gives way to any new
 * one, whatever its depth. */
struct Bot_Table {
    Tt_Entry *tt;
    size_t mask;
    uint8_t gen;
};

typedef struct Ord {
    int32_t score;
    uint32_t index;
    /* the order as two words, compared in turn (ord_set). */
    uint64_t hi, lo;
} Ord;

typedef struct Pvs {
    const Bot_Limits *lim;
    size_t forcing[MAX_PLY + 1]; /* forcing moves listed at each ply */
    Bot_Work w;
    uint64_t seed;
    int have_best;       /* a root move finished */
    int quiesce;         /* the game is narrow enough for quiescence */
    /* The root's best move so far (line[0]), its score and the line it
     * was found with: a copy, since a fail high's re-search at the root
     * clears the root's pv until a move raises alpha again. */
    Core_Move line[BOT_PV_MAX];
    int line_len;
    int32_t best_score;
    Core_Position *stack[MAX_PLY + 2];
    Bot_List lists[MAX_PLY + 1];
    Ord *ord[MAX_PLY + 1];
    size_t ord_cap[MAX_PLY + 1];
    Core_Move killer[MAX_PLY + 1][2];
    uint32_t history[2][HIST_SIZE];
    Tt_Entry *tt;
    size_t tt_mask;
    uint8_t gen; /* of this search's entries; 0 with a fresh table */
    Core_Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    int reported;            /* lim->info was called */
    Core_Move last_reported; /* the first move of its last pv */
    /* The keys of the positions from the root to the node at each ply,
     * and whether a position met again on that path is a draw
     * (repetition): only with a time limit (see pvs). */
    uint64_t path[MAX_PLY + 1];
    int path_draws;
} Pvs;

static uint32_t move_hash(const Core_Move *m)
{
    uint64_t h = UINT64_C(1469598103934665603) ^ m->len ^
                 ((uint64_t)m->flags << 8);
    for (int i = 0; i < m->len; i++)
        h = (h ^ m->b[i]) * UINT64_C(1099511628211);
    return (uint32_t)(bot__mix(h) & (HIST_SIZE - 1));
}

/* Mate scores are stored relative to the node, read back relative to the
 * root. */
static int32_t to_tt(int32_t v, int ply)
{
    return v >= BOT_MATE_MIN ? v + ply : v <= -BOT_MATE_MIN ? v - ply : v;
}

static int32_t from_tt(int32_t v, int ply)
{
    return v >= BOT_MATE_MIN ? v - ply : v <= -BOT_MATE_MIN ? v + ply : v;
}

static Tt_Entry *tt_slot(Pvs *s, uint64_t key)
{
    return &s->tt[bot__mix(key) & s->tt_mask];
}

static void tt_store(Pvs *s, uint64_t key, int depth, int32_t v, int bound,
                     uint32_t move, int ply)
{
    Tt_Entry *e = tt_slot(s, key);
    /* Depth-preferred, but a new search of the same position always
     * replaces (its bound is fresher), and so does any entry of this
     * search over one of an earlier search (a kept table). */
    if (e->bound != 0 && e->key != key && e->depth > depth && e->gen == s->gen)
        return;
    e->gen = s->gen;
    e->key = key;
    e->depth = (int16_t)depth;
    e->score = to_tt(v, ply);
    e->bound = (uint8_t)bound;
    e->move = move;
}

static int grow_ord(Pvs *s, int ply, size_t n)
{
    if (s->ord_cap[ply] >= n)
        return 0;
    Ord *o = realloc(s->ord[ply], n * sizeof *o);
    if (o == NULL)
        return TB_E_NOMEM;
    s->ord[ply] = o;
    s->ord_cap[ply] = n;
    return 0;
}

/* Score the move of list index i, with the seeded tie key tie. The
 * order is higher score first, then the lower tie key, then the lower
 * index: a total order, so qsort's instability cannot show. It is kept
 * as two words compared in turn: hi, the score (from the highest) and
 * the tie key's high half; lo, its low half and the index. Scores lie
 * well inside 32 bits either way of 0, so INT32_MAX - score fits in 32
 * unsigned bits. */
static void ord_set(Ord *o, int32_t score, uint32_t i, uint64_t tie)
{
    o->score = score;
    o->index = i;
    o->hi = ((uint64_t)((int64_t)INT32_MAX - score) << 32) | (tie >> 32);
    o->lo = (tie << 32) | i;
}

static inline int ord_before(const Ord *x, const Ord *y)
{
    return x->hi != y->hi ? x->hi < y->hi : x->lo < y->lo;
}

/* core_move_equal, its call skipped for the many moves whose first
 * byte already differs (every listed move is compared with two killers). */
static inline int same_move(const Core_Move *a, const Core_Move *b)
{
    return a->len == b->len && (a->len == 0 || a->b[0] == b->b[0]) &&
           core_move_equal(a, b);
}

/* Sort o[0..n) into ord_before's order, in place: a quicksort on the
 * middle element, insertion sort for short runs, the shorter side first
 * (libc's qsort, a merge sort into a buffer it allocates, took 3% of a
 * Football chess search). The order is total, so any sort gives it. */
static void ord_sort(Ord *o, size_t n)
{
    while (n > 16) {
        Ord p = o[n / 2], t;
        size_t i = 0, j = n - 1;
        for (;;) {
            while (ord_before(&o[i], &p))
                i++;
            while (ord_before(&p, &o[j]))
                j--;
            if (i >= j)
                break;
            t = o[i];
            o[i] = o[j];
            o[j] = t;
            i++;
            j--;
        }
        /* o[0..j] <= p <= o[j+1..n) */
        if (j + 1 < n - j - 1) {
            ord_sort(o, j + 1);
            o += j + 1;
            n -= j + 1;
        } else {
            ord_sort(o + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    for (size_t i = 1; i < n; i++) {
        Ord t = o[i];
        size_t j = i;
        for (; j > 0 && ord_before(&t, &o[j - 1]); j--)
            o[j] = o[j - 1];
        o[j] = t;
    }
}

/* The child's static gain for the mover over stand, left in
 * stack[ply + 1]: the ordering of games without quiescence (Football
 * chess), where the core's forcing query names only goals and the
 * evaluation also sees the ball advance. */
static int32_t child_gain(Pvs *s, int ply, const Core_Move *mv,
                          int32_t stand)
{
    const Core_Position *pos = s->stack[ply];
    Core_Position *c = s->stack[ply + 1];
    core_position_copy(c, pos);
    core_make(c, mv);
    s->w.nodes++;
    int same = core_side_to_move(c) == core_side_to_move(pos);
    if (core_status(c).outcome != CORE_ONGOING) {
        int32_t v = bot__terminal_score(c, ply + 1);
        v = same ? v : -v;
        return v > 0 ? 1000000 : v < 0 ? -1000000 : 0;
    }
    int32_t v = core_evaluate(c);
    v = (same ? v : -v) - stand;
    return v > 1000000 ? 1000000 : v < -1000000 ? -1000000 : v;
}

/* Moves picked one by one before the rest is sorted: most null-window
 * nodes cut off within the first few moves, and sorting a Football chess
 * node's thousands of turns in full was a third of its search (perf). */
#define ORD_PICK 8

/* Put the k-th move of ord_set's order into o[k], given o[0..k) already
 * in place: o[k..n) is scanned for its first while k < ORD_PICK, and
 * sorted whole at k == ORD_PICK. The order is total, so the moves come
 * out exactly as a full sort would put them. */
static void ord_next(Ord *o, size_t n, size_t k)
{
    if (k == ORD_PICK && n - k > 1) {
        ord_sort(o + k, n - k);
        return;
    }
    if (k > ORD_PICK)
        return;
    size_t b = k;
    for (size_t i = k + 1; i < n; i++)
        if (ord_before(&o[i], &o[b]))
            b = i;
    if (b != k) {
        Ord t = o[k];
        o[k] = o[b];
        o[b] = t;
    }
}

/* List the moves of stack[ply] (*n gets the count, 0 when the list
 * failed, which the caller treats as no moves) and score them into
 * ord[ply] for ord_next, which puts them in order: the table move,
 * forcing moves by what core_move_forcing says they win, killers,
 * history, then ties by the seed and key. With
 * only_forcing (quiescence) just the forcing moves are kept, and *n is
 * their number. With gains the quiet moves are also ordered by their
 * children's static gains. */
static int order_moves(Pvs *s, int ply, uint64_t key, uint32_t tt_move,
                       int only_forcing, int gains, size_t *n)
{
    const Core_Position *pos = s->stack[ply];
    int side = core_side_to_move(pos);
    size_t listed = 0, k = 0, nf = 0;
    if (bot__list_distinct(&s->lists[ply], pos, &listed) != 0 ||
        grow_ord(s, ply, listed) != 0) {
        *n = 0;
        return TB_E_NOMEM;
    }
    s->w.nodes += listed;
    const Core_Move *m = s->lists[ply].m;
    Ord *o = s->ord[ply];
    uint64_t salt = bot__mix(s->seed ^ key);
    int32_t stand = gains ? core_evaluate(pos) : 0;
    for (size_t i = 0; i < listed; i++) {
        int32_t f = core_move_forcing(pos, &m[i]);
        int32_t sc;
        if (only_forcing && f <= 0)
            continue;
        if (i == tt_move)
            sc = 1 << 30;
        else if (f > 0)
            sc = (1 << 28) + f;
        else if (same_move(&s->killer[ply][0], &m[i]))
            sc = (1 << 27) + 1;
        else if (same_move(&s->killer[ply][1], &m[i]))
            sc = 1 << 27;
        else
            sc = (int32_t)(s->history[side][move_hash(&m[i])] >> 4) +
                 (gains ? child_gain(s, ply, &m[i], stand) * 16 : 0);
        if (f > 0)
            nf++;
        ord_set(&o[k++], sc, (uint32_t)i, bot__mix(salt ^ (i + 1)));
    }
    *n = k;
    s->forcing[ply] = nf;
    return 0;
}

static int32_t qsearch(Pvs *s, int ply, int qdepth, int32_t alpha,
                       int32_t beta);
static int32_t pvs(Pvs *s, int ply, int depth, int32_t alpha, int32_t beta);

/* The child in stack[ply + 1] searched with the window (alpha, beta) of
 * the node at ply, negated only when the side to move changes (Chess
 * volleyball's sides act several times running). */
static int32_t child(Pvs *s, int ply, int depth, int32_t alpha,
                     int32_t beta, int quiesce)
{
    int same = core_side_to_move(s->stack[ply + 1]) ==
               core_side_to_move(s->stack[ply]);
    if (quiesce)
        return same ? qsearch(s, ply + 1, depth, alpha, beta)
                    : -qsearch(s, ply + 1, depth, -beta, -alpha);
    return same ? pvs(s, ply + 1, depth, alpha, beta)
                : -pvs(s, ply + 1, depth, -beta, -alpha);
}

/* Quiescence of a game too wide to list at the leaves (Football chess):
 * the core finds one forcing move without listing (core_forcing_find, a
 * goal), and only that move is searched against standing pat, so a leaf
 * whose side to move can score is scored as the goal, not as the ball's
 * place (docs/engines.md). Counted as one unit of work a query. */
static int32_t threat_search(Pvs *s, int ply, int qdepth, int32_t alpha,
                             int32_t beta, int32_t stand)
{
    Core_Move mv;
    int32_t gain = 0;
    s->w.nodes++;
    if (core_forcing_find(s->stack[ply], &mv, &gain) != 1)
        return stand;
    core_position_copy(s->stack[ply + 1], s->stack[ply]);
    core_make(s->stack[ply + 1], &mv);
    int32_t v = child(s, ply, qdepth + 1, alpha > stand ? alpha : stand,
                      beta, 1);
    return v > stand ? v : stand;
}

static int32_t qsearch(Pvs *s, int ply, int qdepth, int32_t alpha,
                       int32_t beta)
{
    const Core_Position *pos = s->stack[ply];
    size_t n = 0;

    s->pv_len[ply] = 0;
    s->w.nodes++;
    if (core_status(pos).outcome != CORE_ONGOING)
        return bot__terminal_score(pos, ply);
    /* In check (reached by a capture that checks): no standing pat,
     * every evasion is searched. */
    int evade = s->quiesce && qdepth < QS_MAX &&
                ply < MAX_PLY && core_in_check(pos);
    int32_t stand = evade ? -BOT_INF : core_evaluate(pos);
    /* Spent while the first root move holds the stop (bot__pvs): that
     * move's line ends here, so it costs about the budget (a Chessball
     * start, all captures, quiesced 9,743 units for a budget of 100). */
    if (!evade && (stand >= beta || qdepth >= QS_MAX || ply >= MAX_PLY ||
                   bot__out_of_work(&s->w) || s->w.spent))
        return stand;
    if (!s->quiesce)
        return threat_search(s, ply, qdepth, alpha, beta, stand);
    if (stand > alpha)
        alpha = stand;
    int32_t best = stand;
    /* Ties among forcing moves are broken by the seed and the ply: a key
     * costs a whole encoding in some games (Chess volleyball). */
    if (order_moves(s, ply, (uint64_t)ply, TT_NO_MOVE, !evade, 0, &n) != 0)
        return evade ? core_evaluate(pos) : best;
    const Core_Move *m = s->lists[ply].m;
    const Ord *o = s->ord[ply];
    for (size_t k = 0; k < n; k++) {
        ord_next(s->ord[ply], n, k);
        /* Delta pruning: a capture that cannot lift the score to alpha
         * even with a margin is not searched, nor are the ones after it
         * (they win no more). */
        if (!evade &&
            stand + (o[k].score - (1 << 28)) + DELTA_MARGIN <= alpha)
            break;
        core_position_copy(s->stack[ply + 1], pos);
        core_make(s->stack[ply + 1], &m[o[k].index]);
        int32_t v = child(s, ply, qdepth + 1, alpha, beta, 1);
        if (s->w.stopped)
            return best > -BOT_INF ? best : 0;
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

static void note_quiet_cutoff(Pvs *s, int ply, int depth,
                              const Core_Move *mv)
{
    int side = core_side_to_move(s->stack[ply]);
    uint32_t *h = &s->history[side][move_hash(mv)];
    if (!core_move_equal(&s->killer[ply][0], mv)) {
        s->killer[ply][1] = s->killer[ply][0];
        s->killer[ply][0] = *mv;
    }
    *h += (uint32_t)(depth * depth);
    if (*h > (UINT32_C(1) << 20))
        for (int i = 0; i < HIST_SIZE; i++)
            s->history[side][i] >>= 1;
}

/* Pruning near the leaves of null-window nodes without forcing moves
 * and not in check, in hundredths of a pawn or soldier: a node whose
 * static score beats beta by RFP_MARGIN a ply is cut (reverse futility),
 * and a late quiet move whose node's score plus FUT_MARGIN a ply stays
 * at or below alpha is skipped (futility). */
#define PRUNE_DEPTH 3
#define RFP_MARGIN 120
#define FUT_MARGIN 150

/* Plies a late quiet move is searched shallower: one from the fourth
 * move on at depth 3 and more, growing with depth and move number
 * (integer steps standing in for chess engines' log(depth) * log(move)
 * table), one less at a principal-variation node, always leaving at
 * least one ply. */
static int reduction(int depth, size_t k, int pv_node)
{
    if (depth < 3 || k < 3)
        return 0;
    int r = 1;
    if (depth >= 5 && k >= 8)
        r++;
    if (depth >= 8 && k >= 16)
        r++;
    if (pv_node && r > 1)
        r--;
    if (r > depth - 2)
        r = depth - 2;
    return r;
}

/* mv, searched to score v, is the root's best so far, with the root's
 * pv as its line when it raised alpha (else alone); the first one found
 * lets the budget and the time stop the search (bot__pvs). */
static void root_best(Pvs *s, const Core_Move *mv, int32_t v)
{
    int len = s->pv_len[0] < BOT_PV_MAX ? s->pv_len[0] : BOT_PV_MAX;
    memcpy(s->line, s->pv[0], (size_t)len * sizeof s->line[0]);
    s->line[0] = *mv;
    s->line_len = len > 0 ? len : 1;
    s->best_score = v;
    s->have_best = 1;
    s->w.hold = 0;
}

static int32_t pvs(Pvs *s, int ply, int depth, int32_t alpha, int32_t beta)
{
    const Core_Position *pos = s->stack[ply];
    size_t n = 0;
    int32_t alpha0 = alpha;

    s->pv_len[ply] = 0;
    if (ply > 0) {
        s->w.nodes++;
        if (core_status(pos).outcome != CORE_ONGOING)
            return bot__terminal_score(pos, ply);
        if (bot__out_of_work(&s->w))
            return 0;
    }
    /* In check (games with check): a ply deeper, so a check is never a
     * leaf and its evasions are all searched. */
    int in_check = ply > 0 && ply < MAX_PLY / 2 && core_in_check(pos);
    if (in_check)
        depth++;
    if (depth <= 0 || ply >= MAX_PLY)
        return qsearch(s, ply, 0, alpha, beta);
    uint64_t key = core_key(pos);
    /* A position met again since the root is scored a draw, as chess
     * engines score a repetition inside the search: a side that is
     * better then looks for another way on, instead of finding the
     * draw only at the third occurrence, usually past its horizon.
     * (Football chess at 20 ms a move: +206 [+194, +218] against the
     * classic bot over 1600 games, against +188 [+176, +200] on the same
     * openings without it; docs/engines.md.) Only with a time limit: the
     * level bots' games, and so their measured tables, stay those of the
     * search they were measured on. */
    s->path[ply] = key;
    if (s->path_draws && ply > 0)
        for (int i = ply - 1; i >= 0; i--)
            if (s->path[i] == key)
                return 0;
    Tt_Entry *e = tt_slot(s, key);
    uint32_t tt_move = TT_NO_MOVE;
    if (e->bound != 0 && e->key == key) {
        tt_move = e->move;
        int32_t v = from_tt(e->score, ply);
        if (ply > 0 && e->depth >= depth && beta - alpha == 1 &&
            ((e->bound == BOUND_EXACT) ||
             (e->bound == BOUND_LOWER && v >= beta) ||
             (e->bound == BOUND_UPPER && v <= alpha)))
            return v;
    }
    /* Without quiescence (Football chess) quiet moves are ordered by
     * their children's static gains, away from the leaves, where that
     * costs an evaluation each (docs/engines.md). */
    int gains = !s->quiesce && depth >= 2;
    if (order_moves(s, ply, key, tt_move, 0, gains, &n) != 0)
        return core_evaluate(pos);
    if (n == 0)
        return bot__terminal_score(pos, ply);
    int pv_node = beta - alpha > 1;
    int quiet_node = s->quiesce && s->forcing[ply] == 0 && n > 1 &&
                     !in_check &&
                     beta < BOT_MATE_MIN && alpha > -BOT_MATE_MIN;
    int32_t stand = 0;
    if (quiet_node && !pv_node && ply > 0 && depth <= PRUNE_DEPTH) {
        stand = core_evaluate(pos);
        if (stand - RFP_MARGIN * depth >= beta)
            return stand;
    }
    /* A node with one legal move (a forced capture, an only escape)
     * costs one child: searching it a ply deeper is nearly free. */
    int ext = n == 1 && ply > 0 && !in_check ? 1 : 0;
    const Core_Move *m = s->lists[ply].m;
    const Ord *o = s->ord[ply];
    int32_t best = -BOT_INF;
    size_t best_k = 0;
    for (size_t k = 0; k < n; k++) {
        ord_next(s->ord[ply], n, k);
        const Core_Move *mv = &m[o[k].index];
        int quiet = o[k].score < (1 << 27);
        int32_t v;
        if (k > 0 && quiet && quiet_node && !pv_node &&
            ply > 0 && depth <= PRUNE_DEPTH &&
            stand + FUT_MARGIN * depth <= alpha)
            continue;
        core_position_copy(s->stack[ply + 1], pos);
        core_make(s->stack[ply + 1], mv);
        if (k == 0) {
            v = child(s, ply, depth - 1 + ext, alpha, beta, 0);
        } else {
            int r = quiet && !in_check ? reduction(depth, k, pv_node)
                                       : 0;
            v = child(s, ply, depth - 1 - r + ext, alpha, alpha + 1, 0);
            if (!s->w.stopped && r > 0 && v > alpha)
                v = child(s, ply, depth - 1 + ext, alpha, alpha + 1, 0);
            if (!s->w.stopped && v > alpha && v < beta)
                v = child(s, ply, depth - 1 + ext, alpha, beta, 0);
        }
        if (s->w.stopped)
            return best > -BOT_INF ? best : 0;
        if (v > best) {
            best = v;
            best_k = k;
        }
        if (v > alpha) {
            alpha = v;
            s->pv[ply][0] = *mv;
            int len = s->pv_len[ply + 1];
            if (len > MAX_PLY - ply - 1)
                len = MAX_PLY - ply - 1;
            memcpy(&s->pv[ply][1], s->pv[ply + 1],
                   (size_t)len * sizeof s->pv[ply][0]);
            s->pv_len[ply] = len + 1;
            if (ply == 0)
                root_best(s, mv, v);
        }
        if (ply == 0 && k == 0 && !s->have_best) {
            /* The first root move finished without raising alpha (a
             * window can do that): it is still a searched move. */
            root_best(s, mv, v);
        }
        if (alpha >= beta) {
            if (quiet)
                note_quiet_cutoff(s, ply, depth, mv);
            break;
        }
    }
    int bound = best >= beta ? BOUND_LOWER
                : best > alpha0 ? BOUND_EXACT
                                : BOUND_UPPER;
    tt_store(s, key, depth, best, bound, o[best_k].index, ply);
    return best;
}

/* lim->info for depth d, score v and the best root move's line. */
static void report(Pvs *s, int d, int32_t v)
{
    Bot_Info info;
    info.depth = d;
    info.score = v;
    info.nodes = s->w.nodes;
    info.pv_len = s->line_len;
    memcpy(info.pv, s->line, (size_t)info.pv_len * sizeof info.pv[0]);
    s->last_reported = s->line[0];
    s->reported = 1;
    s->lim->info(s->lim->info_ctx, &info);
}

#define ASP_WINDOW 40

/* One iteration at the root: from depth 4 on, within a window of
 * ASP_WINDOW around the last iteration's score, widened fourfold on the
 * side that failed until the score falls inside (then the full window). */
static int32_t root_search(Pvs *s, int d, int last_depth, int32_t last)
{
    if (last_depth < 3 || last >= BOT_MATE_MIN || last <= -BOT_MATE_MIN)
        return pvs(s, 0, d, -BOT_INF, BOT_INF);
    int32_t delta = ASP_WINDOW;
    int32_t lo = last - delta, hi = last + delta;
    for (;;) {
        int32_t v = pvs(s, 0, d, lo, hi);
        if (s->w.stopped || (v > lo && v < hi))
            return v;
        delta *= 4;
        if (delta > 4 * 4 * ASP_WINDOW) {
            lo = -BOT_INF;
            hi = BOT_INF;
        } else if (v <= lo) {
            lo = last - delta;
        } else {
            hi = last + delta;
        }
    }
}

/* Work units a millisecond of search does at most, generously (about
 * 4000 measured on the project's machine): with a time limit the table
 * is sized for the work that fits the time, since a table much larger
 * than the search costs a page fault per touched page and a cache miss
 * per probe. */
#define WORK_PER_MS 8192

static int setup(Pvs *s, const Core_Position *pos, uint64_t budget)
{
    const Core_Game *g = core_position_game(pos);
    int bits = TT_MIN_BITS;
    if (s->lim->time_ms > 0 && (uint64_t)s->lim->time_ms * WORK_PER_MS < budget)
        budget = (uint64_t)s->lim->time_ms * WORK_PER_MS;
    while (bits < TT_MAX_BITS && (UINT64_C(1) << bits) < budget / 8)
        bits++;
    size_t size = (size_t)1 << bits;
    Bot_Table *kept = s->lim->table;
    if (kept == NULL) {
        s->tt = calloc(size, sizeof *s->tt);
        if (s->tt == NULL)
            return TB_E_NOMEM;
        s->tt_mask = size - 1;
    } else {
        if (kept->tt == NULL || kept->mask + 1 < size) {
            /* A first table, or a larger one. */
            Tt_Entry *tt = calloc(size, sizeof *tt);
            if (tt == NULL)
                return TB_E_NOMEM;
            free(kept->tt);
            kept->tt = tt;
            kept->mask = size - 1;
            kept->gen = 0;
        }
        /* The generation after the last; 0 is left to fresh tables. */
        kept->gen = kept->gen == UINT8_MAX ? 1 : (uint8_t)(kept->gen + 1);
        s->tt = kept->tt;
        s->tt_mask = kept->mask;
        s->gen = kept->gen;
    }
    for (int i = 0; i <= MAX_PLY; i++)
        if (bot__list_init(&s->lists[i], g) != 0)
            return TB_E_NOMEM;
    for (int i = 0; i <= MAX_PLY + 1; i++)
        if ((s->stack[i] = core_position_clone(pos)) == NULL)
            return TB_E_NOMEM;
    return 0;
}

static void teardown(Pvs *s)
{
    if (s->lim->table == NULL)
        free(s->tt);
    for (int i = 0; i <= MAX_PLY; i++) {
        bot__list_free(&s->lists[i]);
        free(s->ord[i]);
    }
    for (int i = 0; i <= MAX_PLY + 1; i++)
        core_position_free(s->stack[i]);
}

Bot_Table *bot_table_new(void)
{
    return calloc(1, sizeof(Bot_Table));
}

void bot_table_free(Bot_Table *t)
{
    if (t != NULL)
        free(t->tt);
    free(t);
}

int bot__pvs(const Core_Position *pos, const Bot_Limits *lim, int depth,
             uint64_t budget, uint64_t seed, Core_Move *out,
             Bot_Stats *stats)
{
    Pvs *s = calloc(1, sizeof *s);
    int rc = TB_E_NOMEM;
    int done_depth = 0;
    int32_t done_score = 0;

    if (s == NULL)
        return TB_E_NOMEM;
    s->lim = lim;
    s->path_draws = lim->time_ms > 0;
    bot__work_start(&s->w, lim, budget);
    /* The work budget and the time limit wait for the first root move to
     * be searched to its end (root_best), so the move played is always
     * one the search saw, with its info line (a budget or a time too
     * small for that stopped it before: the move was the ordering's
     * first, with no line). That is one move at depth 1, a few
     * milliseconds at most. */
    s->w.hold = 1;
    s->seed = seed;
    s->quiesce = core_game_max_moves(core_position_game(pos)) <=
                 QS_GAME_MAX_MOVES;
    if (depth > MAX_PLY - QS_MAX)
        depth = MAX_PLY - QS_MAX;
    rc = setup(s, pos, budget);
    if (rc != 0)
        goto done;
    for (int d = 1; d <= depth && !s->w.stopped; d++) {
        int32_t v = root_search(s, d, done_depth, done_score);
        if (s->w.stopped)
            break;
        done_depth = d;
        done_score = v;
        if (lim->info != NULL && s->have_best)
            report(s, d, v);
        /* A forced end found: deeper searches cannot change it. */
        if (v >= BOT_MATE_MIN || v <= -BOT_MATE_MIN)
            break;
        if (s->w.nodes >= budget)
            break;
        /* The next iteration costs several times this one: with a fresh
         * table, do not start what cannot finish. A kept table keeps
         * what an unfinished iteration stored for the next move, so
         * the search goes on until the clock stops it (docs/engines.md,
         * "A kept table"). */
        if (lim->time_ms > 0 && lim->table == NULL &&
            (lim->clock_ms(lim->clock_ctx) - s->w.t0) * 2 >= lim->time_ms)
            break;
    }
    /* Stopped inside a depth after it found a move better than the last
     * depth's: that move is played, so its line is reported too (UCI's
     * way: the last pv begins with bestmove). So it is when the stop
     * came inside the re-search of a fail high at the root, the move's
     * line the one it failed high with. */
    if (lim->info != NULL && s->have_best &&
        (!s->reported || !core_move_equal(&s->last_reported, &s->line[0])))
        report(s, done_depth + 1, s->best_score);
    if (!s->have_best) {
        /* The budget ran out inside the first root move: play the move
         * the ordering put first. */
        size_t n = 0;
        rc = bot__list_distinct(&s->lists[0], pos, &n);
        if (rc != 0 || n == 0) {
            rc = rc != 0 ? rc : TB_E_OVER;
            goto done;
        }
        s->line[0] = s->lists[0].m[s->ord[0] != NULL ? s->ord[0][0].index : 0];
    }
    *out = s->line[0];
    if (stats != NULL) {
        stats->nodes = s->w.nodes;
        stats->depth = done_depth;
        stats->score = done_depth > 0 ? done_score : s->best_score;
    }
    rc = 0;
done:
    teardown(s);
    free(s);
    return rc;
}
