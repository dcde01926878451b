/*
 * volleyball_eval.c: the static evaluation of Chess volleyball
 * (core_evaluate for volleyball and volleyball10): the score (points 100,
 * sets 1000) plus what a position holds between two points, each term
 * counted White minus Black and weighted by vb_weights (fitted to the
 * project's self-play, docs/engines.md): the squares of a side's half
 * that none of its pieces could approach (a ball landing there cannot be
 * played: a point lost), split into the near and far lines, squares two
 * pieces cover, pieces on the board, who serves, who holds the ball in a
 * rally, how many untouched pieces can take it, the touches left and a
 * first touch that must be a pass. The chess stage is scored by the score
 * alone. Integers only, and a function of the state: bots stay deterministic.
 */
#include "volleyball_internal.h"

/* Term indices of core__vb_terms (the order texel_tune.py names them). */
enum {
    T_POINT = 0, /* points in the set */
    T_SET,       /* sets won */
    T_HOLE_NEAR, /* near-line squares no own piece can approach */
    T_HOLE_FAR,  /* far-line squares likewise */
    T_COVER2,    /* own-half squares two or more pieces can approach */
    T_PIECES,    /* pieces on the board */
    T_SERVE,     /* the server, in SERVE and DEFPEN: 1 */
    T_RALLY,     /* the side holding a live ball: 1 */
    T_REACH,     /* its untouched pieces that can approach the ball */
    T_TOUCHES,   /* its touches left before a shot must go (2 - touches) */
    T_MUST_PASS  /* its first touch must be a pass: 1 */
};

/* Weights per term, in hundredths of a point's 100. */
static const int32_t vb_weights[VB_TERMS] = {100, 1000, -10, -10, 3, 20,
                                             0,   0,    5,   5,   0};

/* Is sq on one of the two ranks next to the net (spec 2.1, P-01)? */
static int near_net(const Vb_State *s, int sq)
{
    int h = vb_nf(s) / 2, r = vb_rank(s, sq);
    return r == h - 1 || r == h - 2 || r == h || r == h + 1;
}

/* Holes (near, far) and doubly covered squares of side c's half. */
static void half_terms(const Vb_State *s, int c, int32_t out[3])
{
    uint8_t cnt[VB_SQ_MAX] = {0};
    int half = vb_nsq(s) / 2, lo = c ? half : 0;
    core__vb_cover(s, c, cnt);
    out[0] = out[1] = out[2] = 0;
    for (int sq = lo; sq < lo + half; sq++) {
        if (s->board[sq] != VB_NONE)
            continue;
        if (cnt[sq] == 0)
            out[near_net(s, sq) ? 0 : 1]++;
        else if (cnt[sq] >= 2)
            out[2]++;
    }
}

void core__vb_terms(const Vb_State *s, int32_t t[VB_TERMS])
{
    for (int i = 0; i < VB_TERMS; i++)
        t[i] = 0;
    t[T_POINT] = s->points[0] - s->points[1];
    t[T_SET] = s->sets[0] - s->sets[1];
    if (s->phase == VB_OVER || s->phase == VB_CHESS)
        return;
    int32_t w[3], b[3];
    half_terms(s, 0, w);
    half_terms(s, 1, b);
    t[T_HOLE_NEAR] = w[0] - b[0];
    t[T_HOLE_FAR] = w[1] - b[1];
    t[T_COVER2] = w[2] - b[2];
    for (int id = 0; id < VB_IDS; id++)
        if (s->type[id] != VB_NONE && s->where[id] != VB_NONE)
            t[T_PIECES] += vb_colour(id) ? -1 : 1;
    if (s->phase == VB_SERVE || s->phase == VB_DEFPEN)
        t[T_SERVE] = s->server ? -1 : 1;
    if (s->phase == VB_RALLY) {
        int sign = s->to_act ? -1 : 1;
        t[T_RALLY] = sign;
        t[T_REACH] = sign * core__vb_ball_reach(s);
        t[T_TOUCHES] = sign * (2 - s->touches);
        t[T_MUST_PASS] = s->touches == 0 && s->must_pass ? sign : 0;
    }
}

int32_t core__vb_evaluate(const Vb_State *s)
{
    int32_t t[VB_TERMS], v = 0;
    core__vb_terms(s, t);
    for (int i = 0; i < VB_TERMS; i++)
        v += vb_weights[i] * t[i];
    return core__vb_side(s) == CORE_WHITE ? v : -v;
}

/* The score alone (points 100, sets 1000): the evaluation before the
 * terms between points, core_evaluate_classic's. */
int32_t core__vb_evaluate_classic(const Vb_State *s)
{
    int32_t v =
        100 * (s->points[0] - s->points[1]) + 1000 * (s->sets[0] - s->sets[1]);
    return core__vb_side(s) == CORE_WHITE ? v : -v;
}
