/*
 * laska_batch.c: Laska perft's last plies counted many positions at a
 * time, in vectors. laska_count.c gathers positions into a Laska_Batch
 * instead of counting each where it finds it: those one ply from the end
 * (their move counts), two plies (perft 2) and three (perft 3). One
 * position's count is a few dozen operations on bit sets, with a branch
 * on whether the side must capture that a processor guesses wrong about
 * a third of the time, and each walk over a position's moves ends in a
 * branch it guesses wrong once (docs/benchmarks.md, "Laska perft"). Here
 * every position of a vector takes the same operations: captures and
 * quiet moves both counted and one kept by a mask; each lane walks its
 * own position's moves, one a round, and the positions they give are
 * packed into full vectors for the next ply (AVX-512's compress).
 *
 * The counts are those of laska_count.c (D-LA-3..6, captures
 * compulsory), written over vectors: the same formulas, term by term,
 * which the perft golden tests and tests/core/test_laska.c check. What
 * sets cannot do is handed back through the Laska_Sink: the captures of
 * an officer that go on past their first jump (a search), and positions
 * whose side can capture with an officer or on past a first jump.
 *
 * Only x86-64 has a vector copy: laska_batch_avx2.c (4 lanes; the move
 * counts only) and laska_batch_avx512.c (8 lanes, with AVX-512's
 * population count and compress: all three plies) include this file as
 * their template; core__laska_batch_kernel picks one from the
 * processor's feature bits. Without either, and on other processors and
 * in WebAssembly, laska_count.c counts each position where it finds it:
 * one word at a time, computing both counts and selecting by a mask was
 * slower than the branch (baseline x86-64 with popcnt: 100-130 million
 * nodes a second against 148 million), and so, in AVX2, were lanes in
 * lockstep walking their moves without a compress (109 million against
 * 142 million for the walk).
 */
#include <stddef.h>
#include <string.h>

#include "laska_internal.h"

#if !defined(LA_BATCH_NAME)
#if defined(__x86_64__) && defined(__GNUC__)
extern const Laska_Kernel core__laska_kernel_avx2, core__laska_kernel_avx512;
#endif

size_t core__laska_batch_kernels(const Laska_Kernel *out[2])
{
    size_t n = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    /* The processor's feature bits, read by libgcc at start-up. */
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512vpopcntdq"))
        out[n++] = &core__laska_kernel_avx512;
    if (__builtin_cpu_supports("avx2"))
        out[n++] = &core__laska_kernel_avx2;
#else
    (void)out;
#endif
    return n;
}

const Laska_Kernel *core__laska_batch_kernel(void)
{
    const Laska_Kernel *k[2];
    return core__laska_batch_kernels(k) > 0 ? k[0] : NULL;
}
#else
typedef uint64_t Vec __attribute__((vector_size(LA_BATCH_LANES * 8)));
#define LA_ALWAYS static inline __attribute__((always_inline))

/* Per-byte population counts of x (each byte's count in that byte), or
 * with the popcount instruction for vectors the whole count. Added for
 * at most eight words before fold(). */
#if defined(LA_BATCH_VPOPCNT)
#include <immintrin.h>
LA_ALWAYS Vec bytes(Vec x)
{
    return (Vec)_mm512_popcnt_epi64((__m512i)x);
}

LA_ALWAYS Vec fold(Vec x)
{
    return x;
}
#else
LA_ALWAYS Vec bytes(Vec x)
{
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) +
        ((x >> 2) & UINT64_C(0x3333333333333333));
    return (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
}

/* The sum of x's bytes, each under 256: added as pairs into 16-bit
 * fields first, where no sum can carry into its neighbour. */
LA_ALWAYS Vec fold(Vec x)
{
    x = (x & UINT64_C(0x00FF00FF00FF00FF)) +
        ((x >> 8) & UINT64_C(0x00FF00FF00FF00FF));
    x += x >> 16;
    x += x >> 32;
    return x & 0xFFFF;
}
#endif

/* Two sets in one word, as pair() in laska_count.c: a's squares and b's
 * moved one bit left, where a square's left neighbour bit is always
 * free. */
LA_ALWAYS Vec pair(Vec a, Vec b)
{
    return a | (b << 1);
}

LA_ALWAYS Vec fwd(Vec x, int n, int side)
{
    return side == CORE_WHITE ? x << n : x >> n;
}

LA_ALWAYS Vec back(Vec x, int n, int side)
{
    return side == CORE_WHITE ? x >> n : x << n;
}

LA_ALWAYS Vec load(const uint64_t *p)
{
    Vec v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Whether any lane of v is not 0. */
LA_ALWAYS int any(Vec v)
{
#if defined(LA_BATCH_VPOPCNT)
    return _mm512_test_epi64_mask((__m512i)v, (__m512i)v) != 0;
#else
    uint64_t x = 0;
    for (int k = 0; k < LA_BATCH_LANES; k++)
        x |= v[k];
    return x != 0;
#endif
}

/* Every bit of a lane where v's lane is not 0. */
LA_ALWAYS Vec nonzero(Vec v)
{
    return (Vec)(v != 0);
}

LA_ALWAYS uint64_t lanes_sum(Vec v)
{
    uint64_t total = 0;
    for (int k = 0; k < LA_BATCH_LANES; k++)
        total += v[k];
    return total;
}

/* What every walk over a vector of positions starts from: the empty
 * squares, the side's officers and soldiers, its jump sets by direction
 * (a column there could jump an enemy commander, landing on an empty
 * square), those of its forward directions (7 and 9 bits), its soldiers
 * that can jump each way, its officers that can jump, and where a
 * soldier's capture can go on. */
typedef struct Sets {
    Vec empty, offs, sold, sw, se, nw, ne, a7, a9, j7, j9, jumpers, on;
} Sets;

LA_ALWAYS Sets sets_of(Vec own, Vec enemy, Vec officers, int side)
{
    const uint64_t promo = side == CORE_WHITE ? LA_RANK_7 : LA_RANK_1;
    Sets x;
    x.empty = LA_BOARD & ~(own | enemy);
    x.offs = own & officers;
    x.sold = own & ~officers;
    x.sw = (enemy << 9) & (x.empty << 18);
    x.se = (enemy << 7) & (x.empty << 14);
    x.nw = (enemy >> 7) & (x.empty >> 14);
    x.ne = (enemy >> 9) & (x.empty >> 18);
    x.a7 = side == CORE_WHITE ? x.nw : x.se;
    x.a9 = side == CORE_WHITE ? x.ne : x.sw;
    x.j7 = x.sold & x.a7;
    x.j9 = x.sold & x.a9;
    x.jumpers = x.offs & (x.sw | x.se | x.nw | x.ne);
    x.on = (x.a7 | x.a9) & (LA_BOARD & ~promo);
    return x;
}

/*
 * The move counts of the positions in the lanes, side to move: its
 * commanders own, the other side's enemy, officers (only those on own
 * are read). *more gets, by lane, where the side's officers land on a
 * first jump they can go on from: those captures are not counted.
 */
LA_ALWAYS Vec count_vec(Vec own, Vec enemy, Vec officers, int side, Vec *more)
{
    Sets x = sets_of(own, enemy, officers, side);
    Vec empty = x.empty, offs = x.offs, a7 = x.a7, a9 = x.a9, on = x.on;
    Vec sw = x.sw, se = x.se, nw = x.nw, ne = x.ne;
    /* Quiet moves: every commander forward, officers also back. */
    Vec quiet =
        bytes(pair(own & back(empty, 7, side), own & back(empty, 9, side))) +
        bytes(pair(offs & fwd(empty, 7, side), offs & fwd(empty, 9, side)));
    /* Soldiers' captures: first landings that stop, then chains of two or
     * three jumps (soldier_chains in laska_count.c). */
    Vec l7 = fwd(x.j7, 14, side), l9 = fwd(x.j9, 18, side);
    Vec p7 = l7 & on, p9 = l9 & on;
    Vec x12 = pair(fwd(p7 & a7, 14, side), fwd(p7 & a9, 18, side));
    Vec x34 = pair(fwd(p9 & a7, 14, side), fwd(p9 & a9, 18, side));
    Vec stop7 = ~pair(on & ~a7, on & ~a7);
    Vec on9 = pair(a9 & on, a9 & on);
    Vec caps = bytes(pair(l7 & ~on, l9 & ~on)) + bytes(x12 & stop7) +
               bytes(x12 & on9) + bytes(x34 & stop7) + bytes(x34 & on9);
    /* Officers' captures: first jumps that cannot go on (any way but
     * back, d ^ 3), as officer_captures counts them. */
    Vec lsw = (offs & sw) >> 18, lse = (offs & se) >> 14;
    Vec lnw = (offs & nw) << 14, lne = (offs & ne) << 18;
    Vec m0 = lsw & (sw | se | nw), m1 = lse & (sw | se | ne);
    Vec m2 = lnw & (sw | nw | ne), m3 = lne & (se | nw | ne);
    caps +=
        bytes(pair(lsw & ~m0, lse & ~m1)) + bytes(pair(lnw & ~m2, lne & ~m3));
    *more = m0 | m1 | m2 | m3;
    /* Captures are compulsory (D-LA-4): one count or the other. */
    Vec must = nonzero(x.j7 | x.j9 | x.jumpers);
    return fold((caps & must) | (quiet & ~must));
}

/* The sum of the move counts of n positions (see Laska_Kernel). */
LA_ALWAYS uint64_t count_lanes(const uint64_t *const w[3], unsigned n, int side,
                               const Laska_Sink *sink)
{
    Vec acc = {0};

    for (unsigned i = 0; i < n; i += LA_BATCH_LANES) {
        Vec own = load(w[0] + i), enemy = load(w[1] + i);
        Vec officers = load(w[2] + i), more;
        acc += count_vec(own, enemy, officers, side, &more);
        if (any(more))
            for (int k = 0; k < LA_BATCH_LANES; k++)
                if (more[k] != 0)
                    sink->leaf(sink->ctx, side, own[k], enemy[k], officers[k]);
    }
    return lanes_sum(acc);
}

static uint64_t batch_count(int side, const uint64_t *const w[3], unsigned n,
                            const Laska_Sink *sink)
{
    return side == CORE_WHITE ? count_lanes(w, n, CORE_WHITE, sink)
                              : count_lanes(w, n, CORE_BLACK, sink);
}

#if defined(LA_BATCH_VPOPCNT)
/* The board bits a pair() word holds its second set on: rank + file
 * odd. */
#define LA_ODD UINT64_C(0x00AA55AA55AA55AA)

/* The moves of the positions in the lanes, as landing squares: first
 * jumps forward or steps forward (w1), officers' first jumps back or
 * steps back (w2); must, the lanes that capture; a7, a9 and on from
 * Sets, for soldiers' jumps after the first. */
typedef struct Moves {
    Vec w1, w2, must, a7, a9, on;
} Moves;

/* *bad gets the lanes where an officer's first jump can go on (any way
 * but back, as officer_captures in laska_count.c tells): their moves are
 * left out, a search (an officer may come back). In the other lanes
 * every officer's capture is one jump. */
LA_ALWAYS Moves moves_of(Vec own, Vec enemy, Vec officers, int side, Vec *bad)
{
    Sets x = sets_of(own, enemy, officers, side);
    /* Officers' first landings by direction. */
    Vec lsw = (x.offs & x.sw) >> 18, lse = (x.offs & x.se) >> 14;
    Vec lnw = (x.offs & x.nw) << 14, lne = (x.offs & x.ne) << 18;
    Vec more = (lsw & (x.sw | x.se | x.nw)) | (lse & (x.sw | x.se | x.ne)) |
               (lnw & (x.sw | x.nw | x.ne)) | (lne & (x.se | x.nw | x.ne));
    /* Forward first jumps of every commander; officers' back ones. */
    Vec f7 = fwd(own & x.a7, 14, side), f9 = fwd(own & x.a9, 18, side);
    Vec b7 = side == CORE_WHITE ? lse : lnw;
    Vec b9 = side == CORE_WHITE ? lsw : lne;
    Moves m;
    *bad = nonzero(more);
    m.must = nonzero(x.j7 | x.j9 | x.jumpers);
    m.a7 = x.a7;
    m.a9 = x.a9;
    m.on = x.on;
    m.w1 = (pair(f7, f9) & m.must) |
           (pair(x.empty & fwd(own, 7, side), x.empty & fwd(own, 9, side)) &
            ~m.must);
    m.w2 = (pair(b7, b9) & m.must) | (pair(x.empty & back(x.offs, 7, side),
                                           x.empty & back(x.offs, 9, side)) &
                                      ~m.must);
    m.w1 &= ~*bad;
    m.w2 &= ~*bad;
    return m;
}

/* Each lane's next move, taken off m: from fb to tb, jumping the column
 * jumped (0 for a quiet move). Returns the lanes that had one; *go, the
 * lanes whose capture goes on from tb (the move is then one of the
 * chains from there: see CHAINS). */
LA_ALWAYS __mmask8 moves_next(Moves *m, int side, Vec *fb, Vec *tb, Vec *jumped,
                              __mmask8 *go)
{
    Vec first = nonzero(m->w1);
    Vec src = (m->w1 & first) | (m->w2 & ~first);
    Vec lb = src & (0 - src);
    m->w1 ^= lb & first;
    m->w2 ^= lb & ~first;
    Vec odd = nonzero(lb & LA_ODD);
    /* The landing, and the step of the move's direction: 7 or 9 bits. */
    Vec t = lb >> (odd & 1), n = 7 + (odd & 2);
    /* A move forward: one step back from the landing (over the jumped
     * column for a capture), and from there the start; an officer's move
     * back: the same forward of its landing. (Shifts by each lane's own
     * count.) */
    Vec over, start;
    if (side == CORE_WHITE) {
        over = ((t >> n) & first) | ((t << n) & ~first);
        start = ((over >> n) & first) | ((over << n) & ~first);
    } else {
        over = ((t << n) & first) | ((t >> n) & ~first);
        start = ((over << n) & first) | ((over >> n) & ~first);
    }
    *tb = t;
    *fb = (start & m->must) | (over & ~m->must);
    *jumped = over & m->must;
    /* Only soldiers' jumps forward go on in a lane that is not bad. */
    *go =
        _mm512_test_epi64_mask((__m512i)(t & m->must & first), (__m512i)m->on);
    return _mm512_test_epi64_mask((__m512i)lb, (__m512i)lb);
}

/* The lanes of a mask vector. */
LA_ALWAYS __mmask8 lanes(Vec v)
{
    return _mm512_test_epi64_mask((__m512i)v, (__m512i)v);
}

/*
 * The captures of the soldiers in the lanes go whose first jump, from fb
 * over jumped, landed on tb, where one can jump on (m's on): a soldier
 * jumps forward only, two ranks a jump, so a chain has at most three
 * jumps and never comes back to a square or a column it passed; whether
 * it goes on from a landing depends on that square alone (count_soldiers
 * in laska_count.c). EMIT(mask, tb, jumped, second) is run for each
 * complete chain's lanes, last landing, squares jumped and the second
 * of them.
 */
#define CHAINS(m, side, go, fb, tb, jumped, EMIT)                              \
    do {                                                                       \
        Vec go_ = (Vec)_mm512_maskz_mov_epi64((go), _mm512_set1_epi64(-1));    \
        for (int d2_ = 0; d2_ < 2; d2_++) {                                    \
            int n2_ = 7 + 2 * d2_;                                             \
            Vec ok2_ = go_ & nonzero((tb) & (d2_ ? (m).a9 : (m).a7));          \
            Vec t2_ = fwd((tb), 2 * n2_, (side));                              \
            Vec j2_ = (jumped) | fwd((tb), n2_, (side));                       \
            Vec on2_ = nonzero(t2_ & (m).on);                                  \
            EMIT(lanes(ok2_ & ~on2_), t2_, j2_, fwd((tb), n2_, (side)));       \
            for (int d3_ = 0; d3_ < 2; d3_++) {                                \
                int n3_ = 7 + 2 * d3_;                                         \
                Vec ok3_ =                                                     \
                    ok2_ & on2_ & nonzero(t2_ & (d3_ ? (m).a9 : (m).a7));      \
                EMIT(lanes(ok3_), fwd(t2_, 2 * n3_, (side)),                   \
                     j2_ | fwd(t2_, n3_, (side)), fwd((tb), n2_, (side)));     \
            }                                                                  \
        }                                                                      \
    } while (0)

/* Store the lanes live of v packed at dst (8 words written). Packed in
 * a register, then stored whole: AMD's Zen 4 and 5 take the compress to
 * memory slowly. */
LA_ALWAYS void pack(uint64_t *dst, __mmask8 live, Vec v)
{
    _mm512_storeu_si512(dst, _mm512_maskz_compress_epi64(live, (__m512i)v));
}

/* Positions of one side to move waiting for a full vector: leaves to be
 * counted (3 words: commanders, officers) or nodes for perft 2 (6:
 * Lean's first six), n of them; acc, the counts so far. */
typedef struct Leaves {
    uint64_t w[3][LA_BATCH + 8];
    unsigned n;
    Vec acc;
} Leaves;

typedef struct Nodes {
    uint64_t w[6][LA_BATCH + 8];
    unsigned n;
} Nodes;

/* Count the first m (a multiple of the lanes) of c's *n positions and
 * move the rest to the front. (The callers keep the count in a local,
 * *n, while they fill c: the vector stores may alias anything, so a
 * count in c would be stored and loaded again between them.) */
LA_ALWAYS void leaves_count(Leaves *c, unsigned *n, unsigned m, int side,
                            const Laska_Sink *sink)
{
    const uint64_t *w[3] = {c->w[0], c->w[1], c->w[2]};
    c->acc += (Vec){count_lanes(w, m, side, sink)};
    *n -= m;
    for (int j = 0; j < 3; j++)
        memmove(c->w[j], c->w[j] + m, *n * sizeof c->w[j][0]);
}

LA_ALWAYS void leaves_put(Leaves *c, unsigned *n, __mmask8 live, Vec own,
                          Vec enemy, Vec officers, int side,
                          const Laska_Sink *sink)
{
    pack(c->w[0] + *n, live, own);
    pack(c->w[1] + *n, live, enemy);
    pack(c->w[2] + *n, live, officers);
    *n += (unsigned)__builtin_popcount(live);
    if (*n >= LA_BATCH)
        leaves_count(c, n, LA_BATCH, side, sink);
}

/* Count what c still holds; the total of every count. */
LA_ALWAYS uint64_t leaves_end(Leaves *c, int side, const Laska_Sink *sink)
{
    unsigned n = c->n;
    for (; n % LA_BATCH_LANES != 0; n++)
        for (int j = 0; j < 3; j++)
            c->w[j][n] = 0;
    leaves_count(c, &n, n, side, sink);
    c->n = n;
    return lanes_sum(c->acc);
}

/*
 * Perft 2 of n positions (n a multiple of the lanes), side to move,
 * w[0..5] as Laska_Kernel's nodes: each lane walks its position's
 * simple moves, one a round (a quiet move changes the mover's set alone;
 * a soldier's single capture also takes the jumped column's commander,
 * which its second piece replaces, D-LA-3), and the positions they give
 * go packed to c, to be counted in full vectors. The others go to the
 * sink.
 */
LA_ALWAYS void nodes_lanes(const uint64_t *const w[6], unsigned n, int side,
                           Leaves *c, const Laska_Sink *sink)
{
    unsigned cn = c->n;

    for (unsigned i = 0; i < n; i += LA_BATCH_LANES) {
        Vec own = load(w[0] + i), enemy = load(w[1] + i);
        Vec officers = load(w[2] + i), own_under = load(w[3] + i);
        Vec enemy_under = load(w[4] + i), officers_under = load(w[5] + i);
        Vec bad, fb, tb, jumped;
        Moves m = moves_of(own, enemy, officers, side, &bad);
        if (any(bad))
            for (int k = 0; k < LA_BATCH_LANES; k++)
                if (bad[k] != 0) {
                    uint64_t x[6];
                    for (int j = 0; j < 6; j++)
                        x[j] = w[j][i + (unsigned)k];
                    sink->node(sink->ctx, side, x);
                }
        while (any(m.w1 | m.w2)) {
            __mmask8 go, live = moves_next(&m, side, &fb, &tb, &jumped, &go);
#define NODE_CHILD(mask, t, j, second)                                         \
    leaves_put(c, &cn, (mask), (enemy & ~(j)) | ((j)&enemy_under),             \
               (own & ~fb) | (t) | ((j)&own_under),                            \
               (officers & ~(j)) | ((j)&officers_under), side ^ 1, sink)
            NODE_CHILD(live & ~go, tb, jumped, 0);
            if (go != 0)
                CHAINS(m, side, go, fb, tb, jumped, NODE_CHILD);
#undef NODE_CHILD
        }
    }
    c->n = cn;
}

/* nodes_lanes out of line, the side a constant in each copy. */
static __attribute__((noinline)) void nodes_white(const uint64_t *const w[6],
                                                  unsigned n, Leaves *c,
                                                  const Laska_Sink *sink)
{
    nodes_lanes(w, n, CORE_WHITE, c, sink);
}

static __attribute__((noinline)) void nodes_black(const uint64_t *const w[6],
                                                  unsigned n, Leaves *c,
                                                  const Laska_Sink *sink)
{
    nodes_lanes(w, n, CORE_BLACK, c, sink);
}

/* Perft 2 of the first m (a multiple of the lanes) of p's positions,
 * side to move, and move the rest to the front. */
static void nodes_run(Nodes *p, unsigned m, int side, Leaves *c,
                      const Laska_Sink *sink)
{
    const uint64_t *w[6];
    for (int j = 0; j < 6; j++)
        w[j] = p->w[j];
    if (side == CORE_WHITE)
        nodes_white(w, m, c, sink);
    else
        nodes_black(w, m, c, sink);
    p->n -= m;
    for (int j = 0; j < 6; j++)
        memmove(p->w[j], p->w[j] + m, p->n * sizeof p->w[j][0]);
}

static uint64_t batch_nodes(int side, const uint64_t *const w[6], unsigned n,
                            const Laska_Sink *sink)
{
    Leaves c;
    c.n = 0;
    c.acc = (Vec){0};
    if (side == CORE_WHITE)
        nodes_white(w, n, &c, sink);
    else
        nodes_black(w, n, &c, sink);
    return leaves_end(&c, side ^ 1, sink);
}

/*
 * The board the move of the lanes mask gives, from fb to tb over the
 * columns jumped (first: the first of them), built as lean_after in
 * laska_count.c builds it (its commanders and second pieces from the
 * other side's view), packed into p for perft 2: the start square is
 * empty; the mover keeps its second piece or, alone, takes its first
 * prisoner under it; a jumped column's second piece is its old third.
 */
LA_ALWAYS void grand_child(Nodes *p, unsigned *pn, __mmask8 mask, Vec fb,
                           Vec tb, Vec jumped, Vec first, Vec own, Vec enemy,
                           Vec officers, Vec own_under, Vec enemy_under,
                           Vec officers_under, Vec own_third, Vec enemy_third,
                           Vec officers_third, int side, Leaves *c,
                           const Laska_Sink *sink)
{
    const uint64_t promo = side == CORE_WHITE ? LA_RANK_7 : LA_RANK_1;
    Vec gone = ~(fb | jumped);
    Vec su = (own_under & gone) | (own_third & jumped);
    Vec eu = (enemy_under & gone) | (enemy_third & jumped);
    Vec ou = (officers_under & gone) | (officers_third & jumped);
    Vec lone = nonzero(jumped) & ~nonzero((own_under | enemy_under) & fb);
    Vec officer = nonzero((officers & fb) | (tb & promo));
    su |= nonzero(own_under & fb) & tb;
    eu |= (nonzero(enemy_under & fb) | lone) & tb;
    ou |= (nonzero(officers_under & fb) | (lone & nonzero(officers & first))) &
          tb;
    pack(p->w[0] + *pn, mask, (enemy & ~jumped) | (jumped & enemy_under));
    pack(p->w[1] + *pn, mask, (own & ~fb) | tb | (jumped & own_under));
    pack(p->w[2] + *pn, mask,
         (officers & ~(fb | jumped)) | (jumped & officers_under) |
             (officer & tb));
    pack(p->w[3] + *pn, mask, eu);
    pack(p->w[4] + *pn, mask, su);
    pack(p->w[5] + *pn, mask, ou);
    *pn += (unsigned)__builtin_popcount(mask);
    if (*pn >= LA_BATCH) {
        p->n = *pn;
        nodes_run(p, LA_BATCH, side ^ 1, c, sink);
        *pn = p->n;
    }
}

/*
 * Perft 3 of n positions (n a multiple of the lanes), side to move,
 * w[0..8] as Laska_Kernel's grand: each lane walks its position's simple
 * moves (see nodes_lanes) and builds the board each gives as lean_after
 * in laska_count.c does, its commanders and second pieces from the
 * other side's view, packed into p for perft 2 (c gets their children).
 * The others go to the sink.
 */
LA_ALWAYS void grand_lanes(const uint64_t *const w[9], unsigned n, int side,
                           Nodes *p, Leaves *c, const Laska_Sink *sink)
{
    unsigned pn = p->n;

    for (unsigned i = 0; i < n; i += LA_BATCH_LANES) {
        Vec own = load(w[0] + i), enemy = load(w[1] + i);
        Vec officers = load(w[2] + i), own_under = load(w[3] + i);
        Vec enemy_under = load(w[4] + i), officers_under = load(w[5] + i);
        Vec own_third = load(w[6] + i), enemy_third = load(w[7] + i);
        Vec officers_third = load(w[8] + i);
        Vec bad, fb, tb, jumped;
        Moves m = moves_of(own, enemy, officers, side, &bad);
        if (any(bad))
            for (int k = 0; k < LA_BATCH_LANES; k++)
                if (bad[k] != 0) {
                    uint64_t x[9];
                    for (int j = 0; j < 9; j++)
                        x[j] = w[j][i + (unsigned)k];
                    sink->grand(sink->ctx, side, x);
                }
        while (any(m.w1 | m.w2)) {
            __mmask8 go, live = moves_next(&m, side, &fb, &tb, &jumped, &go);
            Vec first = jumped;
#define GRAND_CHILD(mask, t, j, second)                                        \
    grand_child(p, &pn, (mask), fb, (t), (j), first, own, enemy, officers,     \
                own_under, enemy_under, officers_under, own_third,             \
                enemy_third, officers_third, side, c, sink)
            GRAND_CHILD(live & ~go, tb, jumped, 0);
            if (go != 0)
                CHAINS(m, side, go, fb, tb, jumped, GRAND_CHILD);
#undef GRAND_CHILD
        }
    }
    p->n = pn;
}

/* grand_lanes out of line, the side a constant in each copy. */
static __attribute__((noinline)) void grand_white(const uint64_t *const w[9],
                                                  unsigned n, Nodes *p,
                                                  Leaves *c,
                                                  const Laska_Sink *sink)
{
    grand_lanes(w, n, CORE_WHITE, p, c, sink);
}

static __attribute__((noinline)) void grand_black(const uint64_t *const w[9],
                                                  unsigned n, Nodes *p,
                                                  Leaves *c,
                                                  const Laska_Sink *sink)
{
    grand_lanes(w, n, CORE_BLACK, p, c, sink);
}

/* Perft 2 of what p still holds, padded to full vectors. */
static void nodes_end(Nodes *p, int side, Leaves *c, const Laska_Sink *sink)
{
    for (; p->n % LA_BATCH_LANES != 0; p->n++)
        for (int j = 0; j < 6; j++)
            p->w[j][p->n] = 0;
    nodes_run(p, p->n, side, c, sink);
}

static uint64_t batch_grand(int side, const uint64_t *const w[9], unsigned n,
                            const Laska_Sink *sink)
{
    Nodes p;
    Leaves c;
    p.n = 0;
    c.n = 0;
    c.acc = (Vec){0};
    if (side == CORE_WHITE)
        grand_white(w, n, &p, &c, sink);
    else
        grand_black(w, n, &p, &c, sink);
    nodes_end(&p, side ^ 1, &c, sink);
    return leaves_end(&c, side, sink);
}

/* Positions waiting for perft 3 (Lean's nine words), n of them. */
typedef struct Grands {
    uint64_t w[9][LA_BATCH + 8];
    unsigned n;
} Grands;

/* Perft 3 of the first m (a multiple of the lanes) of g's positions,
 * side to move, and move the rest to the front. */
static void grands_run(Grands *g, unsigned m, int side, Nodes *p, Leaves *c,
                       const Laska_Sink *sink)
{
    const uint64_t *w[9];
    for (int j = 0; j < 9; j++)
        w[j] = g->w[j];
    if (side == CORE_WHITE)
        grand_white(w, m, p, c, sink);
    else
        grand_black(w, m, p, c, sink);
    g->n -= m;
    for (int j = 0; j < 9; j++)
        memmove(g->w[j], g->w[j] + m, g->n * sizeof g->w[j][0]);
}

/*
 * The board the move of the lanes mask gives, as great_move in
 * laska_count.c builds it: lean_after's (see grand_child) and the third
 * pieces. A jumped column's new third is its old fourth; the mover's
 * column keeps its third or, shorter, takes a prisoner there: for a
 * column of one the second commander jumped, of two the first. Packed
 * into g for perft 3.
 */
LA_ALWAYS void great_child(Grands *g, unsigned *gn, __mmask8 mask, Vec fb,
                           Vec tb, Vec jumped, Vec first, Vec second,
                           const Vec b[12], int side, Nodes *p, Leaves *c,
                           const Laska_Sink *sink)
{
    const uint64_t promo = side == CORE_WHITE ? LA_RANK_7 : LA_RANK_1;
    Vec own = b[0], enemy = b[1], officers = b[2];
    Vec own_under = b[3], enemy_under = b[4], officers_under = b[5];
    Vec own_third = b[6], enemy_third = b[7], officers_third = b[8];
    Vec gone = ~(fb | jumped);
    Vec su = (own_under & gone) | (own_third & jumped);
    Vec eu = (enemy_under & gone) | (enemy_third & jumped);
    Vec ou = (officers_under & gone) | (officers_third & jumped);
    Vec s3 = (own_third & gone) | (b[9] & jumped);
    Vec e3 = (enemy_third & gone) | (b[10] & jumped);
    Vec o3 = (officers_third & gone) | (b[11] & jumped);
    Vec cap = nonzero(jumped);
    Vec alone = ~nonzero((own_under | enemy_under) & fb);
    Vec two = ~alone & ~nonzero((own_third | enemy_third) & fb);
    Vec lone = cap & alone;
    Vec officer = nonzero((officers & fb) | (tb & promo));
    su |= nonzero(own_under & fb) & tb;
    eu |= (nonzero(enemy_under & fb) | lone) & tb;
    ou |= (nonzero(officers_under & fb) | (lone & nonzero(officers & first))) &
          tb;
    s3 |= nonzero(own_third & fb) & tb;
    e3 |= (nonzero(enemy_third & fb) | (lone & nonzero(second)) | (cap & two)) &
          tb;
    o3 |= (nonzero(officers_third & fb) | (lone & nonzero(officers & second)) |
           (cap & two & nonzero(officers & first))) &
          tb;
    pack(g->w[0] + *gn, mask, (enemy & ~jumped) | (jumped & enemy_under));
    pack(g->w[1] + *gn, mask, (own & ~fb) | tb | (jumped & own_under));
    pack(g->w[2] + *gn, mask,
         (officers & ~(fb | jumped)) | (jumped & officers_under) |
             (officer & tb));
    pack(g->w[3] + *gn, mask, eu);
    pack(g->w[4] + *gn, mask, su);
    pack(g->w[5] + *gn, mask, ou);
    pack(g->w[6] + *gn, mask, e3);
    pack(g->w[7] + *gn, mask, s3);
    pack(g->w[8] + *gn, mask, o3);
    *gn += (unsigned)__builtin_popcount(mask);
    if (*gn >= LA_BATCH) {
        g->n = *gn;
        grands_run(g, LA_BATCH, side ^ 1, p, c, sink);
        *gn = g->n;
    }
}

/*
 * Perft 4 of n positions (n a multiple of the lanes), side to move,
 * w[0..11] as Laska_Kernel's great: each lane walks its position's
 * moves as nodes_lanes's do and builds the board each gives with
 * great_child, packed into g for perft 3 (p and c get what follows).
 * A position where an officer's first jump can go on goes to the sink.
 */
LA_ALWAYS void great_lanes(const uint64_t *const w[12], unsigned n, int side,
                           Grands *g, Nodes *p, Leaves *c,
                           const Laska_Sink *sink)
{
    unsigned gn = g->n;

    for (unsigned i = 0; i < n; i += LA_BATCH_LANES) {
        Vec b[12], bad, fb, tb, jumped;
        for (int j = 0; j < 12; j++)
            b[j] = load(w[j] + i);
        Moves m = moves_of(b[0], b[1], b[2], side, &bad);
        if (any(bad))
            for (int k = 0; k < LA_BATCH_LANES; k++)
                if (bad[k] != 0) {
                    uint64_t x[12];
                    for (int j = 0; j < 12; j++)
                        x[j] = w[j][i + (unsigned)k];
                    sink->great(sink->ctx, side, x);
                }
        while (any(m.w1 | m.w2)) {
            __mmask8 go, live = moves_next(&m, side, &fb, &tb, &jumped, &go);
            Vec first = jumped;
#define GREAT_CHILD(mask, t, j, second)                                        \
    great_child(g, &gn, (mask), fb, (t), (j), first, (second), b, side, p, c,  \
                sink)
            GREAT_CHILD(live & ~go, tb, jumped, (Vec){0});
            if (go != 0)
                CHAINS(m, side, go, fb, tb, jumped, GREAT_CHILD);
#undef GREAT_CHILD
        }
    }
    g->n = gn;
}

static uint64_t batch_great(int side, const uint64_t *const w[12], unsigned n,
                            const Laska_Sink *sink)
{
    Grands g;
    Nodes p;
    Leaves c;
    g.n = 0;
    p.n = 0;
    c.n = 0;
    c.acc = (Vec){0};
    if (side == CORE_WHITE)
        great_lanes(w, n, CORE_WHITE, &g, &p, &c, sink);
    else
        great_lanes(w, n, CORE_BLACK, &g, &p, &c, sink);
    for (; g.n % LA_BATCH_LANES != 0; g.n++)
        for (int j = 0; j < 9; j++)
            g.w[j][g.n] = 0;
    grands_run(&g, g.n, side ^ 1, &p, &c, sink);
    nodes_end(&p, side, &c, sink);
    return leaves_end(&c, side ^ 1, sink);
}
#else
#define batch_nodes NULL
#define batch_grand NULL
#define batch_great NULL
#endif

extern const Laska_Kernel LA_BATCH_NAME(core__laska_kernel);
const Laska_Kernel LA_BATCH_NAME(core__laska_kernel) = {
    batch_count, batch_nodes, batch_grand, batch_great};
#endif
