/*
 * volleyball_rules.c: the rules of Chess volleyball (seed 002, binding spec
 * shared/design/chess-volleyball.md): piece variants and throw geometry
 * (spec 2.2-2.5), legal actions in canonical order (4.1, 4.3, 5, 7), the
 * effects of actions and the automatic transitions between them (4.2,
 * 4.5, 6). Generation tries candidate approaches, manoeuvres and removals
 * in place and undoes each, so it works on a scratch copy of a caller's
 * const state (move list, count) or, for the "is there an action?" test
 * of normalisation, on the state itself.
 */
#include <string.h>

#include "volleyball_internal.h"

/* ---- geometry -------------------------------------------------------- */

/* core__vb_fr (volleyball_internal.h), written out by the preprocessor. */
#define FR(b, q)                                                               \
    (uint8_t)((b) ? (q) % 10 | ((q) / 10 & 15) << 4                            \
                  : ((q)&7) | ((q) >> 3 & 15) << 4)
#define FR4(b, q) FR(b, q), FR(b, q + 1), FR(b, q + 2), FR(b, q + 3)
#define FR16(b, q) FR4(b, q), FR4(b, q + 4), FR4(b, q + 8), FR4(b, q + 12)
#define FR64(b, q) FR16(b, q), FR16(b, q + 16), FR16(b, q + 32), FR16(b, q + 48)
const uint8_t core__vb_fr[2][256] = {
    {FR64(0, 0), FR64(0, 64), FR64(0, 128), FR64(0, 192)},
    {FR64(1, 0), FR64(1, 64), FR64(1, 128), FR64(1, 192)},
};

typedef struct Vb_Vec {
    int8_t df, dr;
} Vb_Vec;

typedef struct Vb_Variant {
    uint8_t slider;
    uint8_t n;
    Vb_Vec v[8];
} Vb_Variant;

/* Variants (spec 2.2 A-01..A-05, P-02..P-04); the King step is for the
 * chess stage only. */
enum {
    VA_N12,
    VA_30,
    VA_40,
    VA_23,
    VA_11,
    VA_ORTH,
    VA_DIAG,
    VA_C20,
    VA_C22,
    VA_KING
};

static const Vb_Variant variants[] = {
    [VA_N12] = {0,
                8,
                {{1, 2},
                 {2, 1},
                 {-1, 2},
                 {-2, 1},
                 {1, -2},
                 {2, -1},
                 {-1, -2},
                 {-2, -1}}},
    [VA_30] = {0, 4, {{3, 0}, {-3, 0}, {0, 3}, {0, -3}}},
    [VA_40] = {0, 4, {{4, 0}, {-4, 0}, {0, 4}, {0, -4}}},
    [VA_23] = {0,
               8,
               {{2, 3},
                {3, 2},
                {-2, 3},
                {-3, 2},
                {2, -3},
                {3, -2},
                {-2, -3},
                {-3, -2}}},
    [VA_11] = {0, 4, {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}},
    [VA_ORTH] = {1, 4, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}},
    [VA_DIAG] = {1, 4, {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}},
    [VA_C20] = {0, 4, {{2, 0}, {-2, 0}, {0, 2}, {0, -2}}},
    [VA_C22] = {0, 4, {{2, 2}, {-2, 2}, {2, -2}, {-2, -2}}},
    [VA_KING] = {0,
                 8,
                 {{1, 0},
                  {-1, 0},
                  {0, 1},
                  {0, -1},
                  {1, 1},
                  {-1, 1},
                  {1, -1},
                  {-1, -1}}},
};

/* The variants of a piece type; returns how many (at most 3). */
static int type_variants(const Vb_State *s, int type, uint8_t out[3])
{
    switch (type) {
    case VB_N:
        out[0] = VA_N12;
        out[1] = VA_30; /* P-02, 10x10 only */
        return s->board10 ? 2 : 1;
    case VB_B:
        out[0] = VA_DIAG;
        return 1;
    case VB_R:
        out[0] = VA_ORTH;
        return 1;
    case VB_Q:
        out[0] = VA_ORTH;
        out[1] = VA_DIAG;
        return 2;
    case VB_V:
        out[0] = VA_30;
        out[1] = VA_40;
        out[2] = VA_23;
        return 3;
    case VB_M:
        out[0] = VA_30;
        out[1] = VA_40;
        out[2] = VA_11;
        return 3;
    case VB_J: /* P-03: rook slide and knight leap */
        out[0] = VA_ORTH;
        out[1] = VA_N12;
        return 2;
    case VB_C: /* P-04 */
        out[0] = VA_C20;
        out[1] = VA_C22;
        return 2;
    }
    return 0;
}

/* Block strength (2.2, A-08, P-03), doubled so the Jack's 3.5 is whole. */
static int strength(int type)
{
    switch (type) {
    case VB_Q:
        return 8;
    case VB_J:
        return 7;
    case VB_R:
        return 6;
    case VB_B:
        return 4;
    }
    return 2;
}

static int is_light(int type)
{
    return type == VB_N || type == VB_V || type == VB_M || type == VB_C;
}

/* Height for the 10x10 hooking block (P-07): M > N > V > C. */
static int height(int type)
{
    switch (type) {
    case VB_M:
        return 4;
    case VB_N:
        return 3;
    case VB_V:
        return 2;
    }
    return 1;
}

/* The square v away from file f, rank r of an nf board, or -1 off it. */
static inline int step_fr(int nf, int f, int r, Vb_Vec v)
{
    f += v.df;
    r += v.dr;
    if (f < 0 || f >= nf || r < 0 || r >= nf)
        return -1;
    return r * nf + f;
}

/* sq + v, or -1 off the board. */
static int step(const Vb_State *s, int sq, Vb_Vec v)
{
    return step_fr(vb_nf(s), vb_file(s, sq), vb_rank(s, sq), v);
}

/* How many unit steps d (a slider's direction, each part -1, 0 or 1)
 * stay on an nf board from file f, rank r: the ray from there is the
 * squares sq + k * (d.dr * nf + d.df) for k = 1..that many. */
static int ray_len(int nf, int f, int r, Vb_Vec d)
{
    int n = nf;
    if (d.df != 0)
        n = d.df > 0 ? nf - 1 - f : f;
    if (d.dr != 0) {
        int m = d.dr > 0 ? nf - 1 - r : r;
        n = m < n ? m : n;
    }
    return n;
}

/* P-05: the corners of the 10x10 board take no ball. */
static int corner(int board10, int sq)
{
    return board10 && (sq == 0 || sq == 9 || sq == 90 || sq == 99);
}

/* Near lines of a side (2.1, P-01): the two ranks next to the net. */
static int near_line(const Vb_State *s, int sq, int side)
{
    int nf = vb_nf(s), r = vb_rank(s, sq), h = nf / 2;
    return side == CORE_WHITE ? (r == h - 1 || r == h - 2)
                              : (r == h || r == h + 1);
}

static void put(Vb_State *s, int id, int sq)
{
    if (s->where[id] != VB_NONE)
        s->board[s->where[id]] = VB_NONE;
    s->where[id] = (uint8_t)sq;
    if (sq != VB_NONE)
        s->board[sq] = (uint8_t)id;
}

static uint32_t bit(int id)
{
    return (uint32_t)1 << id;
}

static int on_board(const Vb_State *s, int id)
{
    return s->type[id] != VB_NONE && s->where[id] != VB_NONE;
}

/* ---- movement (2.3) -------------------------------------------------- */

/*
 * geom[board10][type][df + 9][dr + 9]: the variant of a piece type whose
 * geometry joins two squares df files and dr ranks apart, or VA_NONE.
 * Every variant is symmetric under changes of sign, and no two variants
 * of one type share a displacement, so at most one matches: the one the
 * type's variants (type_variants) would find. A slider's variant still
 * needs the squares between clear. The table is written out by the
 * preprocessor from the definitions below, so it is constant data.
 */
#define VA_NONE 0xFF
#define G_LEAP(a, r, p, q)                                                     \
    (((a) == (p) && (r) == (q)) || ((a) == (q) && (r) == (p)))
#define G_ORTH(a, r) (((a) == 0) != ((r) == 0))
#define G_DIAG(a, r) ((a) == (r) && (a) != 0)
#define G_N(b, a, r)                                                           \
    (G_LEAP(a, r, 1, 2) ? VA_N12 : (b) && G_LEAP(a, r, 0, 3) ? VA_30 : VA_NONE)
#define G_VM(a, r, third, tp, tq)                                              \
    (G_LEAP(a, r, 0, 3)     ? VA_30                                            \
     : G_LEAP(a, r, 0, 4)   ? VA_40                                            \
     : G_LEAP(a, r, tp, tq) ? (third)                                          \
                            : VA_NONE)
#define G(b, t, a, r)                                                          \
    ((t) == VB_N          ? G_N(b, a, r)                                       \
     : (t) == VB_B        ? (G_DIAG(a, r) ? VA_DIAG : VA_NONE)                 \
     : (t) == VB_R        ? (G_ORTH(a, r) ? VA_ORTH : VA_NONE)                 \
     : (t) == VB_Q        ? (G_ORTH(a, r)   ? VA_ORTH                          \
                             : G_DIAG(a, r) ? VA_DIAG                          \
                                            : VA_NONE)                         \
     : (t) == VB_V        ? G_VM(a, r, VA_23, 2, 3)                            \
     : (t) == VB_M        ? G_VM(a, r, VA_11, 1, 1)                            \
     : (t) == VB_J        ? (G_ORTH(a, r)         ? VA_ORTH                    \
                             : G_LEAP(a, r, 1, 2) ? VA_N12                     \
                                                  : VA_NONE)                   \
     : G_LEAP(a, r, 0, 2) ? VA_C20                                             \
     : G_LEAP(a, r, 2, 2) ? VA_C22                                             \
                          : VA_NONE)
/* Rows and columns run over displacements -9..9; the entry depends on the
 * absolute values only, which the macros below are handed. */
#define G_ROW(b, t, a)                                                         \
    {                                                                          \
        G(b, t, a, 9), G(b, t, a, 8), G(b, t, a, 7), G(b, t, a, 6),            \
            G(b, t, a, 5), G(b, t, a, 4), G(b, t, a, 3), G(b, t, a, 2),        \
            G(b, t, a, 1), G(b, t, a, 0), G(b, t, a, 1), G(b, t, a, 2),        \
            G(b, t, a, 3), G(b, t, a, 4), G(b, t, a, 5), G(b, t, a, 6),        \
            G(b, t, a, 7), G(b, t, a, 8), G(b, t, a, 9)                        \
    }
#define G_TYPE(b, t)                                                           \
    {                                                                          \
        G_ROW(b, t, 9), G_ROW(b, t, 8), G_ROW(b, t, 7), G_ROW(b, t, 6),        \
            G_ROW(b, t, 5), G_ROW(b, t, 4), G_ROW(b, t, 3), G_ROW(b, t, 2),    \
            G_ROW(b, t, 1), G_ROW(b, t, 0), G_ROW(b, t, 1), G_ROW(b, t, 2),    \
            G_ROW(b, t, 3), G_ROW(b, t, 4), G_ROW(b, t, 5), G_ROW(b, t, 6),    \
            G_ROW(b, t, 7), G_ROW(b, t, 8), G_ROW(b, t, 9)                     \
    }
#define G_BOARD(b)                                                             \
    {                                                                          \
        G_TYPE(b, VB_N), G_TYPE(b, VB_B), G_TYPE(b, VB_R), G_TYPE(b, VB_Q),    \
            G_TYPE(b, VB_V), G_TYPE(b, VB_M), G_TYPE(b, VB_J), G_TYPE(b, VB_C) \
    }
static const uint8_t geom[2][VB_TYPES][19][19] = {G_BOARD(0), G_BOARD(1)};

/* The variant whose geometry joins piece id (on the board) to the square
 * of file xf, rank xr, or VA_NONE; *df, *dr get the displacement. */
static inline int line_variant(const Vb_State *s, int id, int xf, int xr,
                               int *df, int *dr)
{
    int o = s->where[id];
    *df = xf - vb_file(s, o);
    *dr = xr - vb_rank(s, o);
    return geom[s->board10][s->type[id]][*df + 9][*dr + 9];
}

/*
 * The pieces on the squares strictly between o and the square df files
 * and dr ranks away along a line (a slider's path), counted up to limit;
 * *first gets the first one met from o.
 */
static inline int line_blockers(const Vb_State *s, int o, int df, int dr,
                                int limit, int *first)
{
    int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
    int n = adf > adr ? adf : adr, found = 0;
    int stepsq = ((dr > 0) - (dr < 0)) * vb_nf(s) + ((df > 0) - (df < 0));
    for (int j = 1; j < n && found < limit; j++) {
        int b = s->board[o + j * stepsq];
        if (b != VB_NONE && found++ == 0)
            *first = b;
    }
    return found;
}

/*
 * The variant with which piece id can approach the square of file xf and
 * rank xr, which is free and on the piece's half (the caller checked).
 * Returns the variant, or -1. Sliders need the squares between clear of
 * pieces (both ends are on the owner's half, so the squares between are
 * too).
 */
static inline int approach_at(const Vb_State *s, int id, int xf, int xr)
{
    int o = s->where[id], first, df, dr;
    if (o == VB_NONE)
        return -1;
    int va = line_variant(s, id, xf, xr, &df, &dr);
    if (va == VA_NONE)
        return -1;
    if (!variants[va].slider)
        return va;
    return line_blockers(s, o, df, dr, 1, &first) ? -1 : va;
}

/* Can a piece of side c approach x at all: x on the board, on c's half
 * and free? */
static inline int approachable(const Vb_State *s, int c, int x)
{
    return x >= 0 && x != VB_NONE && vb_half(s, x) == c &&
           s->board[x] == VB_NONE;
}

/*
 * Ordinary moves of piece id (penalty manoeuvres 5.5, 5.8; chess stage):
 * empty targets that are not the ball; sliders stop at pieces and at the
 * ball. whole: the chess stage's whole board; otherwise the
 * owner's half. Returns the count written to to[] (at most 64).
 */
static int piece_moves(const Vb_State *s, int id, int whole, uint8_t *to)
{
    uint8_t va[3];
    int n = 0, o = s->where[id], c = vb_colour(id);
    int nv;
    if (o == VB_NONE)
        return 0;
    if (whole && s->type[id] == VB_M) { /* a king-mover */
        va[0] = VA_KING;
        nv = 1;
    } else {
        nv = type_variants(s, s->type[id], va);
    }
    int nf = vb_nf(s), of = vb_file(s, o), orr = vb_rank(s, o);
    for (int i = 0; i < nv; i++) {
        const Vb_Variant *v = &variants[va[i]];
        for (int k = 0; k < v->n; k++) {
            Vb_Vec d = v->v[k];
            int delta = d.dr * nf + d.df;
            int len = v->slider ? ray_len(nf, of, orr, d)
                                : step_fr(nf, of, orr, d) >= 0;
            for (int j = 1, t = o + delta; j <= len; j++, t += delta) {
                if ((!whole && vb_half(s, t) != c) || s->board[t] != VB_NONE ||
                    t == s->ball)
                    break;
                to[n++] = (uint8_t)t;
            }
        }
    }
    return n;
}

/*
 * For the evaluation (volleyball_eval.c): cnt[sq] += 1 for every piece
 * of side c on the board that could approach sq, a square of c's half
 * with no piece on it (the ball's square included), by its own geometry:
 * leaps, and slides stopped by pieces but not by the ball (an approach
 * ends on the ball). The possession's touched set is not looked at here
 * (core__vb_ball_reach does, for the ball's square).
 */
void core__vb_cover(const Vb_State *s, int c, uint8_t *cnt)
{
    int nf = vb_nf(s);
    for (int id = c * VB_STRIDE; id < (c + 1) * VB_STRIDE; id++) {
        uint8_t va[3];
        if (!on_board(s, id))
            continue;
        int o = s->where[id], of = vb_file(s, o), orr = vb_rank(s, o);
        int nv = type_variants(s, s->type[id], va);
        for (int i = 0; i < nv; i++) {
            const Vb_Variant *v = &variants[va[i]];
            for (int k = 0; k < v->n; k++) {
                Vb_Vec d = v->v[k];
                int delta = d.dr * nf + d.df;
                int len = v->slider ? ray_len(nf, of, orr, d)
                                    : step_fr(nf, of, orr, d) >= 0;
                for (int j = 1, t = o + delta; j <= len; j++, t += delta) {
                    if (vb_half(s, t) != c || s->board[t] != VB_NONE)
                        break;
                    cnt[t]++;
                }
            }
        }
    }
}

/* Could no piece of side c approach x (a square of c's half)? A ball
 * landing there after a crossing is a point for the thrower. */
int core__vb_unreachable(const Vb_State *s, int c, int x)
{
    if (!approachable(s, c, x))
        return 0;
    int xf = vb_file(s, x), xr = vb_rank(s, x);
    for (int id = c * VB_STRIDE; id < (c + 1) * VB_STRIDE; id++)
        if (on_board(s, id) && approach_at(s, id, xf, xr) >= 0)
            return 0;
    return 1;
}

/* The pieces of the side to act, not yet in the possession's touched
 * set, that can approach the ball (RALLY; 0 in other phases). */
int core__vb_ball_reach(const Vb_State *s)
{
    int c = s->to_act, x = s->ball, n = 0;
    if (s->phase != VB_RALLY || !approachable(s, c, x))
        return 0;
    int xf = vb_file(s, x), xr = vb_rank(s, x);
    for (int id = c * VB_STRIDE; id < (c + 1) * VB_STRIDE; id++)
        if (on_board(s, id) && !(s->touched & bit(id)) &&
            approach_at(s, id, xf, xr) >= 0)
            n++;
    return n;
}

/* ---- throw geometry (2.5) -------------------------------------------- */

typedef struct Vb_Land {
    int nown, nopp, nhook;
    uint8_t own[64], opp[64];
    uint8_t hook_l[64], hook_t[64]; /* P-07: rebound square, hooker square */
} Vb_Land;

/* The board's shape as plain values: the landing lists are bytes, which
 * may alias the state as far as the compiler knows, so reading the shape
 * off the state after each store would reload it. */
typedef struct Vb_Shape {
    int nf;   /* files (= ranks) */
    int half; /* first square of Black's half */
    int board10;
} Vb_Shape;

static Vb_Shape shape_of(const Vb_State *s)
{
    Vb_Shape g = {vb_nf(s), vb_nsq(s) / 2, s->board10};
    return g;
}

static inline void land_add(Vb_Shape g, Vb_Land *l, int sq, int side)
{
    if (corner(g.board10, sq))
        return;
    if ((sq >= g.half) == side)
        l->own[l->nown++] = (uint8_t)sq;
    else
        l->opp[l->nopp++] = (uint8_t)sq;
}

/* P-07 hooking block: the ball rebounds from the taller block piece tall
 * onto the thrower's half, along any leap of tall's variants. */
static void hook(const Vb_State *s, int id, int tall, Vb_Land *l)
{
    uint8_t va[3];
    int c = vb_colour(id), at = s->where[tall];
    int nv = type_variants(s, s->type[tall], va);
    for (int i = 0; i < nv; i++) {
        const Vb_Variant *v = &variants[va[i]];
        for (int k = 0; k < v->n; k++) {
            int r = step(s, at, v->v[k]);
            if (r < 0 || vb_half(s, r) != c || s->board[r] != VB_NONE ||
                corner(s->board10, r))
                continue;
            int dup = 0;
            for (int j = 0; j < l->nhook; j++)
                dup |= l->hook_l[j] == r && l->hook_t[j] == at;
            if (!dup) {
                l->hook_l[l->nhook] = (uint8_t)r;
                l->hook_t[l->nhook++] = (uint8_t)at;
            }
        }
    }
}

/* One slider ray from X in direction d for thrower id (spec 2.5). */
static void ray(const Vb_State *s, Vb_Shape g, int id, int x, int xf, int xr,
                Vb_Vec d, Vb_Land *l)
{
    int c = vb_colour(id), nf = g.nf;
    int n = ray_len(nf, xf, xr, d), delta = d.dr * nf + d.df;
    int k = 1, t = x + delta; /* t is the k-th square, on the board while
                                 k <= n */
    for (; k <= n && (t >= g.half) == c; k++, t += delta) {
        if (s->board[t] != VB_NONE)
            return; /* own pieces stop the ball */
        land_add(g, l, t, c);
    }
    if (k > n)
        return;
    if (s->board[t] != VB_NONE) { /* a block on s1 */
        if (k + 1 > n)
            return;
        int s2 = t + delta;
        int b1 = s->board[t];
        if (s->board[s2] == VB_NONE) { /* single block */
            if (strength(s->type[id]) > strength(s->type[b1])) {
                t = s2;
                k++;
            } else {
                return;
            }
        } else { /* double block */
            int b2 = s->board[s2];
            if (!is_light(s->type[b1]) || !is_light(s->type[b2]))
                return;
            if (s->board10 && s->type[b1] != s->type[b2]) {
                int tall = height(s->type[b1]) > height(s->type[b2]) ? b1 : b2;
                hook(s, id, tall, l);
                return;
            }
            t = s2 + delta;
            k += 2;
        }
    }
    for (; k <= n && s->board[t] == VB_NONE; k++, t += delta)
        land_add(g, l, t, c);
}

/*
 * Landings of a throw by piece id standing on X (already moved there, its
 * origin empty: A-34) with variant va. Own-half landings go to own[],
 * opponent-half ones to opp[]. Corners never take the ball (P-05).
 */
static void throw_land(const Vb_State *s, int id, int x, int va, Vb_Land *l)
{
    const Vb_Variant *v = &variants[va];
    Vb_Shape g = shape_of(s);
    int c = vb_colour(id), n = v->n;
    int xf = vb_file(s, x), xr = vb_rank(s, x);
    l->nown = l->nopp = l->nhook = 0;
    if (v->slider) {
        for (int k = 0; k < n; k++)
            ray(s, g, id, x, xf, xr, v->v[k], l);
        return;
    }
    for (int k = 0; k < n; k++) {
        int t = step_fr(g.nf, xf, xr, v->v[k]);
        if (t >= 0 && s->board[t] == VB_NONE)
            land_add(g, l, t, c);
    }
}

/* The landings of a throw with variant va by piece id after approaching
 * X (approach_at gave va), into l (the piece stands on X meanwhile, its
 * origin empty: A-34). Returns the piece's origin. */
static int throw_from(Vb_State *s, int id, int x, int va, Vb_Land *l)
{
    int from = s->where[id];
    put(s, id, x);
    throw_land(s, id, x, va, l);
    put(s, id, from);
    return from;
}

/* ---- action output --------------------------------------------------- */

typedef struct Vb_Out {
    Core_Move *buf; /* NULL: only count */
    size_t cap, n;
    int err;
    int stop; /* only whether there is an action: stop at the first */
} Vb_Out;

static void emit6(Vb_Out *o, int len, int a, int b, int c, int d, int e, int f)
{
    if (o->buf != NULL) {
        if (o->n >= o->cap) {
            o->err = TB_E_TOOMANY;
            return;
        }
        Core_Move *m = &o->buf[o->n];
        memset(m, 0, sizeof *m);
        m->len = (uint8_t)len;
        m->b[0] = (uint8_t)a;
        m->b[1] = (uint8_t)b;
        m->b[2] = (uint8_t)c;
        m->b[3] = (uint8_t)d;
        m->b[4] = (uint8_t)e;
        m->b[5] = (uint8_t)f;
    }
    o->n++;
}

static void emit(Vb_Out *o, int len, int a, int b, int c, int d, int e)
{
    emit6(o, len, a, b, c, d, e, 0);
}

/* Canonical order (4.1): bytes compare as kind, origin, ball, landing
 * (then the hooking piece of a 10x10 rebound): the first six bytes as one
 * big-endian number. */
static uint64_t move_key(const Core_Move *m)
{
    const uint8_t *b = m->b;
    return (uint64_t)b[0] << 40 | (uint64_t)b[1] << 32 | (uint64_t)b[2] << 24 |
           (uint64_t)b[3] << 16 | (uint64_t)b[4] << 8 | b[5];
}

/* Insertion sort: the lists come out of generation in few runs. last is
 * the key of m[i - 1], the largest so far. */
static void sort_moves(Core_Move *m, size_t n)
{
    uint64_t last = n > 0 ? move_key(&m[0]) : 0;
    for (size_t i = 1; i < n; i++) {
        uint64_t k = move_key(&m[i]);
        if (k >= last) {
            last = k;
            continue;
        }
        Core_Move key = m[i];
        size_t j = i;
        while (j > 0 && k < move_key(&m[j - 1])) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = key;
    }
}

/* ---- serving (5.3) --------------------------------------------------- */

/* Eligible servers (5.1, A-21): the server's pieces on the board, less the
 * first server of the series when serving the second time. */
static uint32_t eligible(const Vb_State *s)
{
    uint32_t m = 0;
    for (int i = 0; i < VB_STRIDE; i++) {
        int id = s->server * VB_STRIDE + i;
        if (on_board(s, id))
            m |= bit(id);
    }
    if (s->serve_index == 2 && s->first_serve_piece != VB_NONE)
        m &= ~bit(s->first_serve_piece);
    return m;
}

/*
 * Finalize (5.3) over the options of the pieces in elig at the squares
 * xs[0..nx). Returns 2 when a valid serve exists, 1 when only faults
 * exist, 0 when there is no option. With o, emits Finalize's actions in
 * one pass over the options (the valid serves, or, only when there is
 * none, the faults in a second pass); a counting o stops at the first.
 * elig holds pieces of the server only.
 */
static int serve_options(Vb_State *s, const uint8_t *xs, int nx, uint32_t elig,
                         Vb_Out *o)
{
    int best = 0;
    Vb_Land l;
    /* Pass 0 emits the valid serves and notes whether faults exist; pass
     * 1, only when no serve is valid, emits the faults (own landings). */
    for (int faults = 0; faults < 2; faults++) {
        for (int i = 0; i < nx; i++) {
            int x = xs[i], xf = vb_file(s, x), xr = vb_rank(s, x);
            if (!approachable(s, s->server, x))
                continue;
            /* The set bits of elig only, lowest first (ids ascending):
             * half the ids at most, and a loop with fewer rounds costs
             * the WebAssembly build more than the native one. */
            for (uint32_t m = elig; m != 0; m &= m - 1) {
                int id = __builtin_ctz(m);
                int va = approach_at(s, id, xf, xr);
                if (va < 0)
                    continue;
                int from = throw_from(s, id, x, va, &l);
                if (faults) {
                    for (int k = 0; k < l.nown; k++)
                        emit(o, 5, VB_K_SERVE, from, x, l.own[k], 1);
                } else if (l.nopp > 0 || l.nhook > 0) {
                    best = 2;
                    if (o == NULL)
                        return 2;
                    for (int k = 0; k < l.nopp; k++)
                        emit(o, 5, VB_K_SERVE, from, x, l.opp[k], 0);
                    for (int k = 0; k < l.nhook; k++)
                        emit6(o, 6, VB_K_SERVE, from, x, l.hook_l[k], 0,
                              l.hook_t[k] | VB_HOOK);
                    if (o->stop)
                        return 2;
                } else if (l.nown > 0 && best == 0) {
                    best = 1;
                }
            }
        }
        if (best != 1 || o == NULL)
            return best;
    }
    return best;
}

/* Serving penalty manoeuvres (5.5) at the ball; counts or emits. */
static void serve_penalties(Vb_State *s, Vb_Out *o)
{
    uint8_t to[64];
    uint8_t x = s->ball;
    for (int i = 0; i < VB_STRIDE; i++) {
        int id = s->server * VB_STRIDE + i;
        if (!on_board(s, id))
            continue;
        int from = s->where[id];
        int n = piece_moves(s, id, 0, to);
        for (int k = 0; k < n; k++) {
            put(s, id, to[k]);
            int ok = serve_options(s, &x, 1, eligible(s), NULL) > 0;
            put(s, id, from);
            if (ok) {
                emit(o, 3, VB_K_PENALTY, from, to[k], 0, 0);
                if (o->stop)
                    return; /* existence is enough */
            }
        }
    }
}

/* Removals (5.6, A-29); counts or emits. */
static void serve_removals(Vb_State *s, Vb_Out *o)
{
    uint8_t x = s->ball;
    for (int i = 0; i < VB_STRIDE; i++) {
        int id = s->server * VB_STRIDE + i;
        if (!on_board(s, id))
            continue;
        int from = s->where[id];
        put(s, id, VB_NONE);
        int ok = serve_options(s, &x, 1, eligible(s), NULL) > 0;
        if (!ok) {
            Vb_Out c = {NULL, 0, 0, 0, 1};
            serve_penalties(s, &c);
            ok = c.n > 0;
        }
        put(s, id, from);
        if (ok) {
            emit(o, 2, VB_K_REMOVE, from, 0, 0, 0);
            if (o->stop)
                return;
        }
    }
}

/* Free squares of file f on side c's half, ascending. */
static int file_squares(const Vb_State *s, int f, int c, uint8_t *xs)
{
    int nf = vb_nf(s), n = 0;
    for (int r = c ? nf / 2 : 0; r < (c ? nf : nf / 2); r++)
        if (s->board[r * nf + f] == VB_NONE)
            xs[n++] = (uint8_t)(r * nf + f);
    return n;
}

/* Clean serve for the server (5.3 steps 1-4), the old ball ignored. */
static void clean_serves(Vb_State *s, Vb_Out *o)
{
    uint8_t xs[VB_SQ_MAX];
    int c = s->server, nf = vb_nf(s);
    int file0 = s->board10 ? 4 : 3; /* d, or e on 10x10 (P-06) */
    uint32_t elig = eligible(s);
    s->ball = VB_NONE;
    if (s->match_first_serve && c == CORE_WHITE && !s->board10) { /* */
        uint32_t dark = 0;
        for (int id = 0; id < VB_STRIDE; id++)
            if ((elig & bit(id)) && s->type[id] == VB_B &&
                (s->where[id] % nf + s->where[id] / nf) % 2 == 0)
                dark |= bit(id);
        int nx = file_squares(s, file0, c, xs);
        if (serve_options(s, xs, nx, dark, o) > 0)
            return;
    }
    for (int f = file0; f <= file0 + 1; f++) {
        int nx = file_squares(s, f, c, xs);
        if (serve_options(s, xs, nx, elig, o) > 0)
            return;
    }
    for (int f = file0; f <= file0 + 1; f++) { /* A-22 fallback */
        int nx = file_squares(s, f, c, xs);
        if (nx > 0) {
            for (int i = 0; i < nx; i++)
                emit(o, 2, VB_K_BALL, xs[i], 0, 0, 0);
            return;
        }
    }
    for (int sq = 0; sq < vb_nsq(s); sq++)
        if (vb_half(s, sq) == c && s->board[sq] == VB_NONE)
            emit(o, 2, VB_K_BALL, sq, 0, 0, 0);
}

/* ---- rally (4.3) and defensive penalty (5.8) ------------------------- */

/* Untouched own R, B, Q, J of side c that can approach the ball. */
static uint32_t heavy_reach(const Vb_State *s, int c)
{
    uint32_t m = 0;
    int x = s->ball, xf = vb_file(s, x), xr = vb_rank(s, x);
    if (!approachable(s, c, x))
        return 0;
    for (int i = 0; i < VB_STRIDE; i++) {
        int id = c * VB_STRIDE + i;
        if (on_board(s, id) && !(s->touched & bit(id)) &&
            !is_light(s->type[id]) && approach_at(s, id, xf, xr) >= 0)
            m |= bit(id);
    }
    return m;
}

/* A slider line from an untouched R, B, Q or J to the ball with exactly
 * one piece on it, the blocker: the squares o + j * stepsq, 0 < j < n. */
typedef struct Vb_Blocked {
    int blocker, o, stepsq, n;
} Vb_Blocked;

/* The lines (at most VB_STRIDE, into bl) on which one piece alone stands
 * between an untouched R, B, Q or J of side c and the ball; *cand gets
 * their blockers. A manoeuvre empties one square, so only such a piece
 * can enable another by stepping aside (a J's leap, the other way to
 * reach, never depends on other pieces). The pieces of these lines cannot
 * approach the ball now (heavy_reach would not give them): no two
 * variants of a type share a displacement, and this one is blocked. */
static int sole_blockers(const Vb_State *s, int c, Vb_Blocked *bl,
                         uint32_t *cand)
{
    int nb = 0, x = s->ball, xf = vb_file(s, x), xr = vb_rank(s, x);
    *cand = 0;
    if (!approachable(s, c, x))
        return 0;
    for (int i = 0; i < VB_STRIDE; i++) {
        int id = c * VB_STRIDE + i, first = 0, df, dr;
        if (!on_board(s, id) || (s->touched & bit(id)) || is_light(s->type[id]))
            continue;
        int va = line_variant(s, id, xf, xr, &df, &dr);
        if (va == VA_NONE || !variants[va].slider ||
            line_blockers(s, s->where[id], df, dr, 2, &first) != 1)
            continue;
        int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
        bl[nb].blocker = first;
        bl[nb].o = s->where[id];
        bl[nb].stepsq =
            ((dr > 0) - (dr < 0)) * vb_nf(s) + ((df > 0) - (df < 0));
        bl[nb++].n = adf > adr ? adf : adr;
        *cand |= bit(first);
    }
    return nb;
}

/* Does blocker id, moved to t, enable a piece of one of the lines bl:
 * one it blocks alone and whose line t is not on? The ball stays where
 * it is and no other piece moves, so such a piece can then approach the
 * ball, and no other piece that could not before can: this is whether
 * heavy_reach after the move, less heavy_reach before it and id, is not
 * empty, as core__vb_make's retreat computes. */
static int enables(const Vb_Blocked *bl, int nb, int id, int t)
{
    for (int b = 0; b < nb; b++) {
        if (bl[b].blocker != id)
            continue;
        int on = 0;
        for (int j = 1, q = bl[b].o + bl[b].stepsq; j < bl[b].n;
             j++, q += bl[b].stepsq)
            on |= q == t;
        if (!on)
            return 1;
    }
    return 0;
}

/* P-08 (10x10): a V, M or J steps aside so that an untouched heavy piece
 * can approach the ball that could not before. Only sole blockers are
 * tried (sole_blockers); each of their manoeuvres is then checked
 * against the lines they block (enables). */
static void retreats(Vb_State *s, Vb_Out *o)
{
    uint8_t to[64];
    Vb_Blocked bl[VB_STRIDE];
    int c = s->to_act;
    uint32_t cand;
    int nb = sole_blockers(s, c, bl, &cand);
    for (int i = 0; i < VB_STRIDE && cand; i++) {
        int id = c * VB_STRIDE + i, t = s->type[id];
        if (!(cand & bit(id)) || !on_board(s, id) || (s->touched & bit(id)) ||
            (t != VB_V && t != VB_M && t != VB_J))
            continue;
        int from = s->where[id];
        int n = piece_moves(s, id, 0, to);
        for (int k = 0; k < n; k++) {
            if (enables(bl, nb, id, to[k])) {
                emit(o, 3, VB_K_RETREAT, from, to[k], 0, 0);
                if (o->stop)
                    return;
            }
        }
    }
}

static void touches(Vb_State *s, Vb_Out *o)
{
    Vb_Land l;
    int x = s->ball, c = s->to_act, xf = vb_file(s, x), xr = vb_rank(s, x);
    int may_own = s->touches < 2;
    int may_opp = s->touches >= 1 || !s->must_pass;
    int reachable = approachable(s, c, x); /* trials below leave x empty */
    for (int i = 0; i < VB_STRIDE && reachable; i++) {
        int id = c * VB_STRIDE + i;
        if (!on_board(s, id) || (s->touched & bit(id)))
            continue;
        if (s->enabled && !(s->enabled & bit(id)))
            continue; /* P-08: after a retreat only the enabled may touch */
        int va = approach_at(s, id, xf, xr);
        if (va < 0)
            continue;
        int from = throw_from(s, id, x, va, &l);
        if (may_own)
            for (int k = 0; k < l.nown; k++)
                emit(o, 3, VB_K_TOUCH, from, l.own[k], 0, 0);
        if (may_opp) {
            for (int k = 0; k < l.nopp; k++)
                emit(o, 3, VB_K_TOUCH, from, l.opp[k], 0, 0);
            for (int k = 0; k < l.nhook; k++)
                emit(o, 4, VB_K_TOUCH, from, l.hook_l[k], l.hook_t[k] | VB_HOOK,
                     0);
        }
        if (o->stop && o->n > 0)
            return;
    }
    if (s->board10 && !s->retreat && !s->enabled)
        retreats(s, o);
}

/* Can any piece of side c approach the ball (pure reachability)? */
static int side_reaches(const Vb_State *s, int c)
{
    int x = s->ball, xf = vb_file(s, x), xr = vb_rank(s, x);
    if (!approachable(s, c, x))
        return 0;
    for (int i = 0; i < VB_STRIDE; i++) {
        int id = c * VB_STRIDE + i;
        if (on_board(s, id) && approach_at(s, id, xf, xr) >= 0)
            return 1;
    }
    return 0;
}

static void defpens(Vb_State *s, Vb_Out *o)
{
    uint8_t to[64];
    int c = s->to_act;
    for (int i = 0; i < VB_STRIDE; i++) {
        int id = c * VB_STRIDE + i;
        if (!on_board(s, id))
            continue;
        int from = s->where[id];
        int n = piece_moves(s, id, 0, to);
        for (int k = 0; k < n; k++) {
            put(s, id, to[k]);
            int ok = side_reaches(s, c);
            put(s, id, from);
            if (ok) {
                emit(o, 3, VB_K_PENALTY, from, to[k], 0, 0);
                if (o->stop)
                    return;
            }
        }
    }
}

/* ---- chess stage (7) ------------------------------------------------- */

/* Does an attacker attack sq (7.2)? Sliders are blocked by any piece. */
static int attacked(const Vb_State *s, int sq)
{
    for (int id = 0; id < VB_IDS; id++) {
        if (!(s->attackers & bit(id)) || !on_board(s, id))
            continue;
        uint8_t va[3];
        int nv;
        if (s->type[id] == VB_M) {
            va[0] = VA_KING;
            nv = 1;
        } else {
            nv = type_variants(s, s->type[id], va);
        }
        for (int i = 0; i < nv; i++) {
            const Vb_Variant *v = &variants[va[i]];
            for (int k = 0; k < v->n; k++) {
                int t = step(s, s->where[id], v->v[k]);
                while (t >= 0) {
                    if (t == sq)
                        return 1;
                    if (!v->slider || s->board[t] != VB_NONE)
                        break;
                    t = step(s, t, v->v[k]);
                }
            }
        }
    }
    return 0;
}

static int king_in_check(const Vb_State *s)
{
    return s->where[s->king] != VB_NONE && attacked(s, s->where[s->king]);
}

int core__vb_king_in_check(const Vb_State *s)
{
    return s->phase == VB_CHESS && s->king != VB_NONE && king_in_check(s);
}

static void king_moves(Vb_State *s, Vb_Out *o)
{
    int k = s->king, from = s->where[k];
    if (from == VB_NONE)
        return;
    for (int i = 0; i < 8; i++) {
        int t = step(s, from, variants[VA_KING].v[i]);
        if (t < 0)
            continue;
        int cap = s->board[t];
        if (cap != VB_NONE && !(s->attackers & bit(cap)))
            continue; /* static pieces are never captured */
        if (cap != VB_NONE)
            put(s, cap, VB_NONE);
        put(s, k, t);
        int ok = !attacked(s, t);
        put(s, k, from);
        if (cap != VB_NONE)
            put(s, cap, t);
        if (ok) {
            emit(o, 3, VB_K_CHESS, from, t, 0, 0);
            if (o->stop)
                return;
        }
    }
}

static void chess_moves(Vb_State *s, Vb_Out *o)
{
    uint8_t to[64];
    int a = vb_attacker(s);
    if (s->to_move != a) {
        king_moves(s, o);
        return;
    }
    size_t before = o->n;
    for (int id = 0; id < VB_IDS; id++) {
        if (!(s->attackers & bit(id)) || !on_board(s, id))
            continue;
        int n = piece_moves(s, id, 1, to);
        for (int k = 0; k < n; k++)
            emit(o, 3, VB_K_CHESS, s->where[id], to[k], 0, 0);
    }
    if (o->n == before)
        emit(o, 3, VB_K_CHESS, 255, 255, 0, 0); /* pass */
}

/* ---- generation entry ------------------------------------------------ */

int core__vb_over(const Vb_State *s)
{
    return s->phase == VB_OVER ||
           (s->phase == VB_CHESS && s->outcome != VB_CO_NONE);
}

int core__vb_side(const Vb_State *s)
{
    if (s->pend_n > 0)
        return vb_colour(s->pend[0]);
    switch (s->phase) {
    case VB_RALLY:
    case VB_DEFPEN:
        return s->to_act;
    case VB_CHESS:
        return s->to_move == VB_NONE ? vb_attacker(s) : s->to_move;
    }
    return s->server;
}

static void generate(Vb_State *s, Vb_Out *o)
{
    if (core__vb_over(s))
        return;
    if (s->pend_n > 0) { /* 5.6 placements first */
        int id = s->pend[0], c = vb_colour(id);
        for (int sq = 0; sq < vb_nsq(s); sq++)
            if (vb_half(s, sq) == c && s->board[sq] == VB_NONE && sq != s->ball)
                emit(o, 3, VB_K_PLACE, id, sq, 0, 0);
        return;
    }
    switch (s->phase) {
    case VB_RALLY:
        touches(s, o);
        return;
    case VB_DEFPEN:
        defpens(s, o);
        return;
    case VB_CHESS:
        chess_moves(s, o);
        return;
    }
    /* SERVE */
    if (s->ball != VB_NONE && vb_half(s, s->ball) == s->server) {
        uint8_t x = s->ball;
        if (serve_options(s, &x, 1, eligible(s), o) > 0)
            return;
        size_t before = o->n;
        serve_penalties(s, o);
        if (o->n == before)
            serve_removals(s, o);
        return;
    }
    clean_serves(s, o);
}

static int has_action(Vb_State *s);

int core__vb_moves(const Vb_State *st, Core_Move *buf, size_t cap, size_t *n)
{
    Vb_State s = *st;
    Vb_Out o = {buf, cap, 0, 0, 0};
    *n = 0;
    if (buf == NULL) /* no room at all: only say whether that is enough */
        return has_action(&s) ? TB_E_TOOMANY : 0;
    generate(&s, &o);
    *n = o.err ? 0 : o.n;
    if (o.err)
        return o.err;
    sort_moves(buf, o.n);
    return 0;
}

/* Does the state have at least one action? Generation tries candidates
 * in place and undoes each; only a clean serve clears the ball, which is
 * put back. */
static int has_action(Vb_State *s)
{
    uint8_t ball = s->ball;
    Vb_Out o = {NULL, 0, 0, 0, 1};
    generate(s, &o);
    s->ball = ball;
    return o.n > 0;
}

size_t core__vb_count_here(Vb_State *s)
{
    uint8_t ball = s->ball;
    Vb_Out o = {NULL, 0, 0, 0, 0};
    generate(s, &o);
    s->ball = ball;
    return o.n;
}

size_t core__vb_count(const Vb_State *st)
{
    Vb_State s = *st;
    return core__vb_count_here(&s);
}

/* ---- points, time, sets (4.5, 6) ------------------------------------- */

static void tick(Vb_State *s)
{
    s->clock++;
    s->set_minute++;
    int k = 0;
    for (int i = 0; i < s->out_n; i++) {
        if (s->out_at[i] == s->clock) {
            s->pend[s->pend_n++] = s->out_id[i];
        } else {
            s->out_id[k] = s->out_id[i];
            s->out_at[k] = s->out_at[i];
            k++;
        }
    }
    for (int i = k; i < s->out_n; i++) {
        s->out_id[i] = 0;
        s->out_at[i] = 0;
    }
    s->out_n = (uint8_t)k;
}

static void clear_rally(Vb_State *s)
{
    s->touches = 0;
    s->must_pass = 0;
    s->touched = 0;
    s->retreat = 0;
    s->enabled = 0;
}

static void match_over(Vb_State *s, int winner)
{
    clear_rally(s);
    if (!s->opt_chess) {
        s->phase = VB_OVER;
        s->to_act = (uint8_t)winner;
        return;
    }
    /* 7.1 setup */
    s->phase = VB_CHESS;
    s->to_act = 0;
    s->first = (uint8_t)(s->ball != VB_NONE ? vb_half(s, s->ball) : winner);
    s->ball = VB_NONE;
    for (int i = 0; i < s->out_n; i++) { /* */
        s->pend[s->pend_n++] = s->out_id[i];
        s->out_id[i] = 0;
        s->out_at[i] = 0;
    }
    s->out_n = 0;
    s->attackers = 0;
    int found = 0;
    for (int i = s->goal_n - 1; i >= 0 && found < 3; i--) { /* */
        int c = s->goal[i] >> 7, sc = s->goal[i] & 0x7F;
        if (c == winner && sc != VB_GOAL_NONE) {
            s->attackers |= bit(sc);
            found++;
        }
    }
    s->king = VB_NONE;
    for (int i = 0; i < VB_STRIDE && s->king == VB_NONE; i++)
        if (s->type[(!winner) * VB_STRIDE + i] == VB_M)
            s->king = (uint8_t)((!winner) * VB_STRIDE + i);
    s->to_move = VB_NONE;
    s->att_moves = 0;
    s->outcome = VB_CO_NONE;
    if (s->attackers == 0 || s->king == VB_NONE) {
        s->outcome = VB_CO_NOT_CAUGHT;
        if (s->king == VB_NONE) /* only from hand-built positions */
            s->king = (uint8_t)((!winner) * VB_STRIDE);
    }
}

static int match_done(const Vb_State *s)
{
    return s->phase == VB_OVER || s->phase == VB_CHESS;
}

/* end_set (6.3). */
static void end_set(Vb_State *s, int winner, int carry)
{
    s->sets[winner]++;
    s->hist[s->hist_n][0] = (uint8_t)winner;
    s->hist[s->hist_n][1] = s->points[0];
    s->hist[s->hist_n][2] = s->points[1];
    s->hist_n++;
    if (s->sets[winner] == 2) {
        match_over(s, winner);
        return;
    }
    s->set_no++;
    s->set_len = s->opt_set_len[s->set_no - 1];
    s->set_minute = 0;
    s->overtime = 0;
    s->points[0] = s->points[1] = 0;
    s->server = (s->set_no % 2 == 1) ? CORE_WHITE : CORE_BLACK; /* */
    s->serve_index = 1;
    s->first_serve_piece = VB_NONE;
    s->rally_counts = !carry;
}

/* crossing (4.5) of piece id, the ball landing on L. */
static void crossing(Vb_State *s, int id, int l)
{
    int c = vb_colour(id);
    s->phase = VB_RALLY;
    s->to_act = (uint8_t)!c;
    clear_rally(s);
    s->must_pass = !(is_light(s->type[id]) && near_line(s, l, !c)); /* 4.4 */
    s->last_shooter[c] = (uint8_t)id;
    tick(s);
    if (!s->overtime && s->set_minute == s->set_len) {
        if (s->points[0] != s->points[1])
            end_set(s, s->points[1] > s->points[0], 1);
        else
            s->overtime = 1;
    } else if (s->overtime && s->set_minute == s->set_len + VB_OT_CAP) {
        end_set(s, c, 1); /* A-20 safety cap */
    }
}

/* P-07: a hooked throw by thrower rebounds from hooker onto the
 * thrower's half at l: a crossing by the hooker, the thrower's side
 * receives (must pass) and the thrower may not touch again. */
static void hooked(Vb_State *s, int thrower, int hooker, int l)
{
    crossing(s, hooker, l);
    if (s->phase == VB_RALLY) {
        s->must_pass = 1;
        s->touched = bit(thrower);
    }
}

static void advance_series(Vb_State *s)
{
    if (s->serve_index == 1) {
        s->serve_index = 2;
    } else {
        s->server = (uint8_t)!s->server;
        s->serve_index = 1;
        s->first_serve_piece = VB_NONE;
    }
}

static void next_after_point(Vb_State *s, int loser)
{
    clear_rally(s);
    if (s->ball != VB_NONE && vb_half(s, s->ball) == s->server) {
        s->phase = VB_SERVE;
        s->to_act = s->server;
    } else {
        s->phase = VB_DEFPEN;
        s->to_act = (uint8_t)loser;
    }
}

static void log_goal(Vb_State *s, int winner, int scorer)
{
    if (s->goal_n < VB_GOALS_MAX)
        s->goal[s->goal_n++] =
            (uint8_t)(winner << 7 |
                      (scorer == VB_NONE ? VB_GOAL_NONE : scorer));
}

static void rally_lost(Vb_State *s) /* 6.1 */
{
    int loser = s->to_act, w = !loser;
    s->points[w]++;
    log_goal(s, w, s->last_shooter[w]);
    if (s->overtime) {
        end_set(s, w, 0);
        if (match_done(s))
            return;
    } else {
        if (s->rally_counts)
            advance_series(s);
        s->rally_counts = 1;
    }
    next_after_point(s, loser);
}

static void fault_point(Vb_State *s, int srv) /* 6.1, A-16, A-32 */
{
    int w = !srv, was_ot = s->overtime;
    s->points[w]++;
    log_goal(s, w, VB_NONE);
    tick(s);
    if (was_ot) {
        end_set(s, w, 0);
        if (match_done(s))
            return;
    } else if (s->set_minute == s->set_len) {
        if (s->points[0] != s->points[1]) {
            end_set(s, s->points[1] > s->points[0], 0);
            if (match_done(s))
                return;
        } else {
            s->overtime = 1;
            advance_series(s);
            s->rally_counts = 1;
        }
    } else {
        advance_series(s);
        s->rally_counts = 1;
    }
    next_after_point(s, srv);
}

/* ---- normalisation (4.2) --------------------------------------------- */

void core__vb_normalise(Vb_State *s)
{
    for (;;) {
        if (core__vb_over(s) || s->pend_n > 0)
            return;
        switch (s->phase) {
        case VB_RALLY:
            if (!has_action(s)) {
                rally_lost(s);
                continue;
            }
            return;
        case VB_DEFPEN:
            if (s->ball == VB_NONE || side_reaches(s, s->to_act) ||
                !has_action(s)) {
                s->phase = VB_SERVE;
                s->to_act = s->server;
                continue;
            }
            return;
        case VB_SERVE:
            if (s->ball != VB_NONE && vb_half(s, s->ball) == s->server &&
                !has_action(s)) {
                fault_point(s, s->server); /* 5.7 forfeit */
                continue;
            }
            return;
        case VB_CHESS: {
            int d = vb_colour(s->king);
            int check = king_in_check(s);
            if (s->to_move == VB_NONE) /* */
                s->to_move = (uint8_t)(check ? d : s->first);
            int any = 0;
            for (int id = 0; id < VB_IDS; id++)
                if ((s->attackers & bit(id)) && on_board(s, id))
                    any = 1;
            if (!any || s->where[s->king] == VB_NONE) {
                s->outcome = VB_CO_NOT_CAUGHT;
                return;
            }
            if (s->to_move == d) {
                int moves = has_action(s);
                if (!moves && check)
                    s->outcome = VB_CO_MATE;
                else if (s->att_moves >= VB_CHESS_LIMIT)
                    s->outcome = VB_CO_NOT_CAUGHT; /* */
                else if (!moves)
                    s->outcome = VB_CO_STALEMATE; /* */
            }
            return;
        }
        default:
            return;
        }
    }
}

/* ---- make ------------------------------------------------------------ */

void core__vb_make(Vb_State *s, const Core_Move *mv)
{
    const uint8_t *b = mv->b;
    int id;
    switch (b[0]) {
    case VB_K_SERVE:
        id = s->board[b[1]];
        put(s, id, b[2]);
        s->ball = b[3];
        s->match_first_serve = 0;
        if (s->serve_index == 1)
            s->first_serve_piece = (uint8_t)id;
        if (b[4] == 0) {
            s->rally_counts = 1;
            if (b[5] & VB_HOOK)
                hooked(s, id, s->board[b[5] & 0x7F], b[3]);
            else
                crossing(s, id, b[3]);
        } else {
            fault_point(s, s->server);
        }
        break;
    case VB_K_TOUCH:
        id = s->board[b[1]];
        put(s, id, s->ball);
        s->ball = b[2];
        s->enabled = 0;
        if (b[3] & VB_HOOK) {
            hooked(s, id, s->board[b[3] & 0x7F], b[2]);
        } else if (vb_half(s, b[2]) == vb_colour(id)) {
            s->touches++;
            s->touched |= bit(id);
        } else {
            crossing(s, id, b[2]);
        }
        break;
    case VB_K_PENALTY:
        put(s, s->board[b[1]], b[2]);
        if (s->phase == VB_DEFPEN) {
            s->phase = VB_SERVE;
            s->to_act = s->server;
        }
        break;
    case VB_K_RETREAT: /* P-08 */
        id = s->board[b[1]];
        {
            uint32_t before = heavy_reach(s, s->to_act);
            put(s, id, b[2]);
            s->enabled = heavy_reach(s, s->to_act) & ~before & ~bit(id);
        }
        s->touched |= bit(id);
        s->retreat = 1;
        break;
    case VB_K_REMOVE:
        id = s->board[b[1]];
        put(s, id, VB_NONE);
        s->out_id[s->out_n] = (uint8_t)id;
        s->out_at[s->out_n] = (uint16_t)(s->clock + VB_OUT_MINUTES);
        s->out_n++;
        break;
    case VB_K_PLACE:
        put(s, b[1], b[2]);
        memmove(s->pend, s->pend + 1, (size_t)(s->pend_n - 1));
        s->pend[--s->pend_n] = 0;
        break;
    case VB_K_BALL:
        s->ball = b[1];
        break;
    case VB_K_CHESS:
        if (b[1] != 255) {
            id = s->board[b[1]];
            int cap = s->board[b[2]];
            if (cap != VB_NONE)
                put(s, cap, VB_NONE);
            put(s, id, b[2]);
        }
        if (s->to_move == vb_attacker(s))
            s->att_moves++;
        s->to_move = (uint8_t)!s->to_move;
        break;
    }
    s->ply++;
    core__vb_normalise(s);
}

/* ---- start position (2.4, P-09) -------------------------------------- */

static const char setup8[2][10][3] = {
    {"b3", "g2", "c3", "e2", "a4", "h3", "d1", "c1", "a2", "f1"},
    {"c5", "g7", "c6", "e5", "a7", "h6", "d8", "c8", "h7", "f8"},
};
static const uint8_t types8[10] = {VB_N, VB_N, VB_B, VB_B, VB_R,
                                   VB_R, VB_Q, VB_V, VB_V, VB_M};
static const char setup10[2][12][4] = {
    {"c3", "h2", "d3", "f2", "b4", "i3", "e1", "d1", "b2", "g1", "f1", "i1"},
    {"d7", "h9", "d8", "f7", "b9", "i8", "e10", "d10", "i9", "g10", "f10",
     "i10"},
};
static const uint8_t types10[12] = {VB_N, VB_N, VB_B, VB_B, VB_R, VB_R,
                                    VB_Q, VB_V, VB_V, VB_M, VB_J, VB_C};

static int square_of(const char *t, int nf)
{
    int f = t[0] - 'a', r = t[1] - '0';
    if (t[2] != '\0')
        r = r * 10 + (t[2] - '0');
    return (r - 1) * nf + f;
}

void core__vb_setup(Vb_State *s, int board10)
{
    uint8_t opt_chess = s->opt_chess, opt_cat = s->opt_cat;
    uint8_t len[3];
    memcpy(len, s->opt_set_len, 3);
    memset(s, 0, sizeof *s);
    s->board10 = (uint8_t)board10;
    s->opt_chess = opt_chess;
    s->opt_cat = opt_cat;
    memcpy(s->opt_set_len, len, 3);
    memset(s->type, VB_NONE, sizeof s->type);
    memset(s->where, VB_NONE, sizeof s->where);
    memset(s->board, VB_NONE, sizeof s->board);
    int n = board10 ? (opt_cat ? 12 : 11) : 10, nf = board10 ? 10 : 8;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < n; i++) {
            int id = c * VB_STRIDE + i;
            s->type[id] = board10 ? types10[i] : types8[i];
            put(s, id, square_of(board10 ? setup10[c][i] : setup8[c][i], nf));
        }
    s->ball = VB_NONE;
    s->set_no = 1;
    s->set_len = s->opt_set_len[0];
    s->first_serve_piece = VB_NONE;
    s->rally_counts = 1;
    s->match_first_serve = 1;
    s->phase = VB_SERVE;
    s->server = CORE_WHITE;
    s->serve_index = 1;
    s->last_shooter[0] = s->last_shooter[1] = VB_NONE;
    s->king = VB_NONE;
    s->first = 0;
    s->to_move = VB_NONE;
}
