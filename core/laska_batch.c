/*
 * laska_batch.c: the move counts of many Laska positions at once, for
 * perft's last ply (laska_count.c gathers the positions two plies from
 * the end into a Laska_Batch instead of counting each where it finds
 * it). One position's count is a few dozen operations on bit sets, with
 * a branch on whether the side must capture that a processor guesses
 * wrong about a third of the time (docs/benchmarks.md, "Laska perft");
 * here every position takes the same operations, captures and quiet
 * moves both counted and one kept by a mask, four or eight positions a
 * vector (GCC's and clang's vector extensions), with no branch but the
 * loop's.
 *
 * The counts are those of count_general in laska_count.c (D-LA-3..6,
 * captures compulsory), written over vectors: the same formulas, term by
 * term, which the perft golden tests and tests/core/test_laska.c check.
 * What the sets cannot count, the captures of an officer that go on
 * past their first jump (a search), is left to the caller: such
 * positions are named in slow[].
 *
 * Only x86-64 has a vector copy: laska_batch_avx2.c (4 lanes) and
 * laska_batch_avx512.c (8 lanes, with AVX-512's population count)
 * include this file as their template; core__laska_batch_kernel picks
 * one from the processor's feature bits. Without either, and on other
 * processors and in WebAssembly, laska_count.c counts each position
 * where it finds it, as before: one word at a time, computing both
 * counts and selecting by a mask was slower than the branch (baseline
 * x86-64 with popcnt: 100-130 million nodes a second against 148
 * million).
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

/* Per-byte population counts of x (each byte's count in that byte), or
 * with the popcount instruction for vectors the whole count. Added for
 * at most eight words before fold(). */
#if defined(LA_BATCH_VPOPCNT)
#include <immintrin.h>
static inline Vec bytes(Vec x)
{
    return (Vec)_mm512_popcnt_epi64((__m512i)x);
}

static inline Vec fold(Vec x)
{
    return x;
}
#else
static inline Vec bytes(Vec x)
{
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) +
        ((x >> 2) & UINT64_C(0x3333333333333333));
    return (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
}

/* The sum of x's bytes, each under 256: added as pairs into 16-bit
 * fields first, where no sum can carry into its neighbour. */
static inline Vec fold(Vec x)
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
static inline Vec pair(Vec a, Vec b)
{
    return a | (b << 1);
}

static inline Vec fwd(Vec x, int n, int side)
{
    return side == CORE_WHITE ? x << n : x >> n;
}

static inline Vec back(Vec x, int n, int side)
{
    return side == CORE_WHITE ? x >> n : x << n;
}

static inline Vec load(const uint64_t *p)
{
    Vec v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Whether any lane of v is not 0. */
static inline int any(Vec v)
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
static inline Vec nonzero(Vec v)
{
    return (Vec)(v != 0);
}

/*
 * The move counts of the positions in the lanes, side to move: its
 * commanders own, the other side's enemy, officers (only those on own
 * are read). *more gets, by lane, where the side's officers land on a
 * first jump they can go on from: those captures are not counted.
 */
static inline __attribute__((always_inline)) Vec
count_vec(Vec own, Vec enemy, Vec officers, int side, Vec *more)
{
    const uint64_t promo = side == CORE_WHITE ? LA_RANK_7 : LA_RANK_1;
    Vec empty = LA_BOARD & ~(own | enemy);
    Vec offs = own & officers, sold = own & ~officers;
    /* Jump sets by direction (SW, SE, NW, NE): a column there could jump
     * an enemy commander, landing on an empty square. */
    Vec sw = (enemy << 9) & (empty << 18);
    Vec se = (enemy << 7) & (empty << 14);
    Vec nw = (enemy >> 7) & (empty >> 14);
    Vec ne = (enemy >> 9) & (empty >> 18);
    Vec a7 = side == CORE_WHITE ? nw : se;
    Vec a9 = side == CORE_WHITE ? ne : sw;
    Vec j7 = sold & a7, j9 = sold & a9;
    Vec jumpers = offs & (sw | se | nw | ne);
    /* Quiet moves: every commander forward, officers also back. */
    Vec quiet =
        bytes(pair(own & back(empty, 7, side), own & back(empty, 9, side))) +
        bytes(pair(offs & fwd(empty, 7, side), offs & fwd(empty, 9, side)));
    /* Soldiers' captures: first landings that stop, then chains of two or
     * three jumps (soldier_chains in laska_count.c). */
    Vec on = (a7 | a9) & (LA_BOARD & ~promo);
    Vec l7 = fwd(j7, 14, side), l9 = fwd(j9, 18, side);
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
    caps += bytes(pair(lsw & ~m0, lse & ~m1)) +
            bytes(pair(lnw & ~m2, lne & ~m3));
    *more = m0 | m1 | m2 | m3;
    /* Captures are compulsory (D-LA-4): one count or the other. */
    Vec must = nonzero(j7 | j9 | jumpers);
    return fold((caps & must) | (quiet & ~must));
}

/*
 * The sum of the move counts of n positions (n a multiple of the lanes)
 * of side to move: commanders own[i] and enemy[i], officers[i] (only its
 * bits on own[i] are read). Positions whose officers have a capture that
 * goes on past its first jump are counted without those captures and
 * their indices appended to slow (*nslow of them).
 */
static inline __attribute__((always_inline)) uint64_t
count_lanes(const uint64_t *own_p, const uint64_t *enemy_p,
            const uint64_t *officers_p, unsigned n, int side, uint8_t *slow,
            unsigned *nslow)
{
    Vec acc = {0};

    for (unsigned i = 0; i < n; i += LA_BATCH_LANES) {
        Vec more;
        acc += count_vec(load(own_p + i), load(enemy_p + i),
                         load(officers_p + i), side, &more);
        if (any(more))
            for (int k = 0; k < LA_BATCH_LANES; k++)
                if (more[k] != 0)
                    slow[(*nslow)++] = (uint8_t)(i + (unsigned)k);
    }
    uint64_t total = 0;
    for (int k = 0; k < LA_BATCH_LANES; k++)
        total += acc[k];
    return total;
}

#if defined(LA_BATCH_VPOPCNT)
/* The board bits a pair() word holds its second set on: rank + file
 * odd. */
#define LA_ODD UINT64_C(0x00AA55AA55AA55AA)

/*
 * Perft 2 of n positions (n a multiple of the lanes) of side to move,
 * w[0..5] by position: commanders of the side (own) and of the other
 * (enemy), officers, and the second pieces of columns by colour (own's,
 * enemy's) and officers (as Lean in laska_count.c). Each lane walks its
 * position's moves, one a round: a quiet move changes the mover's set
 * alone; a soldier's single capture also takes the jumped column's
 * commander, which its second piece replaces (D-LA-3). The positions the
 * moves give are packed into c (AVX-512's compress) and counted by
 * count_vec in full vectors, so lanes whose moves have run out cost
 * nothing there. A position is left to the caller, its index appended
 * to hard (*nhard of them), when its side can capture with an officer
 * or on past a first jump (searches); a position its moves give whose
 * officers have captures that go on is copied to slow.
 */
/* The children gathered by nodes_lanes, counted in full vectors. */
typedef struct Leaves {
    uint64_t own[LA_BATCH + 8], enemy[LA_BATCH + 8], officers[LA_BATCH + 8];
    unsigned n;
    Vec acc;
} Leaves;

/* Count the first m (a multiple of the lanes) of c's positions, side to
 * move, and move the rest to the front; those with officers' captures
 * that go on are also copied to slow (as Laska_Kernel's nodes says). */
static inline __attribute__((always_inline)) void
leaves_count(Leaves *c, unsigned m, int side, uint64_t *const slow[3],
             unsigned *nslow)
{
    for (unsigned i = 0; i < m; i += LA_BATCH_LANES) {
        Vec own = load(c->own + i), enemy = load(c->enemy + i);
        Vec officers = load(c->officers + i), more;
        c->acc += count_vec(own, enemy, officers, side, &more);
        if (any(more))
            for (int k = 0; k < LA_BATCH_LANES; k++)
                if (more[k] != 0) {
                    slow[0][*nslow] = own[k];
                    slow[1][*nslow] = enemy[k];
                    slow[2][(*nslow)++] = officers[k];
                }
    }
    c->n -= m;
    memmove(c->own, c->own + m, c->n * sizeof c->own[0]);
    memmove(c->enemy, c->enemy + m, c->n * sizeof c->enemy[0]);
    memmove(c->officers, c->officers + m, c->n * sizeof c->officers[0]);
}

static inline __attribute__((always_inline)) uint64_t
nodes_lanes(const uint64_t *const w[6], unsigned n, int side, uint8_t *hard,
            unsigned *nhard, uint64_t *const slow[3], unsigned *nslow)
{
    const uint64_t promo = side == CORE_WHITE ? LA_RANK_7 : LA_RANK_1;
    uint64_t total = 0;
    Leaves c;
    c.n = 0;
    c.acc = (Vec){0};

    for (unsigned i = 0; i < n; i += LA_BATCH_LANES) {
        Vec own = load(w[0] + i), enemy = load(w[1] + i);
        Vec officers = load(w[2] + i), own_under = load(w[3] + i);
        Vec enemy_under = load(w[4] + i), officers_under = load(w[5] + i);
        Vec empty = LA_BOARD & ~(own | enemy);
        Vec offs = own & officers, sold = own & ~officers;
        Vec sw = (enemy << 9) & (empty << 18);
        Vec se = (enemy << 7) & (empty << 14);
        Vec nw = (enemy >> 7) & (empty >> 14);
        Vec ne = (enemy >> 9) & (empty >> 18);
        Vec a7 = side == CORE_WHITE ? nw : se;
        Vec a9 = side == CORE_WHITE ? ne : sw;
        Vec j7 = sold & a7, j9 = sold & a9;
        Vec jumpers = offs & (sw | se | nw | ne);
        Vec on = (a7 | a9) & (LA_BOARD & ~promo);
        Vec l7 = fwd(j7, 14, side), l9 = fwd(j9, 18, side);
        Vec must = nonzero(j7 | j9 | jumpers);
        Vec bad = nonzero(jumpers | ((l7 | l9) & on));
        /* The moves as landing squares: captures, or steps forward (w1);
         * officers' steps back (w2). */
        Vec w1 = (pair(l7, l9) & must) |
                 (pair(empty & fwd(own, 7, side), empty & fwd(own, 9, side)) &
                  ~must);
        Vec w2 = pair(empty & back(offs, 7, side), empty & back(offs, 9, side)) &
                 ~must;
        w1 &= ~bad;
        w2 &= ~bad;
        while (any(w1 | w2)) {
            Vec first = nonzero(w1);
            Vec src = (w1 & first) | (w2 & ~first);
            Vec lb = src & (0 - src);
            w1 ^= lb & first;
            w2 ^= lb & ~first;
            Vec odd = nonzero(lb & LA_ODD);
            Vec tb = ((lb >> 1) & odd) | (lb & ~odd);
            /* One step back from the landing (over the jumped column for
             * a capture), and from there the start. */
            Vec mid = (back(tb, 9, side) & odd) | (back(tb, 7, side) & ~odd);
            Vec jump = (back(mid, 9, side) & odd) | (back(mid, 7, side) & ~odd);
            Vec up = (fwd(tb, 9, side) & odd) | (fwd(tb, 7, side) & ~odd);
            Vec fb = (((jump & must) | (mid & ~must)) & first) | (up & ~first);
            Vec jumped = mid & must;
            Vec c_own = (enemy & ~jumped) | (jumped & enemy_under);
            Vec c_enemy = (own & ~fb) | tb | (jumped & own_under);
            Vec c_officers = (officers & ~jumped) | (jumped & officers_under);
            /* The lanes with a move give their positions to c, packed. */
            __mmask8 live = _mm512_test_epi64_mask((__m512i)lb, (__m512i)lb);
            /* (Packed in a register, then stored whole: AMD's Zen 4 and
             * 5 take the compress to memory slowly.) */
            _mm512_storeu_si512(c.own + c.n, _mm512_maskz_compress_epi64(
                                                 live, (__m512i)c_own));
            _mm512_storeu_si512(c.enemy + c.n, _mm512_maskz_compress_epi64(
                                                   live, (__m512i)c_enemy));
            _mm512_storeu_si512(
                c.officers + c.n,
                _mm512_maskz_compress_epi64(live, (__m512i)c_officers));
            c.n += (unsigned)__builtin_popcount(live);
            if (c.n >= LA_BATCH)
                leaves_count(&c, LA_BATCH, side ^ 1, slow, nslow);
        }
        if (any(bad))
            for (int k = 0; k < LA_BATCH_LANES; k++)
                if (bad[k] != 0)
                    hard[(*nhard)++] = (uint8_t)(i + (unsigned)k);
    }
    for (; c.n % LA_BATCH_LANES != 0; c.n++)
        c.own[c.n] = c.enemy[c.n] = c.officers[c.n] = 0;
    leaves_count(&c, c.n, side ^ 1, slow, nslow);
    for (int k = 0; k < LA_BATCH_LANES; k++)
        total += c.acc[k];
    return total;
}

static uint64_t batch_nodes(int side, const uint64_t *const w[6], unsigned n,
                            uint8_t *hard, unsigned *nhard,
                            uint64_t *const slow[3], unsigned *nslow)
{
    return side == CORE_WHITE
               ? nodes_lanes(w, n, CORE_WHITE, hard, nhard, slow, nslow)
               : nodes_lanes(w, n, CORE_BLACK, hard, nhard, slow, nslow);
}
#else
/* Without a vector compress, perft 2 walks its moves in laska_count.c:
 * lanes in lockstep, each counting its next child, ran at 109 million
 * nodes a second in AVX2 against 142 million for that walk. */
#define batch_nodes NULL
#endif

static uint64_t batch_count(int side, const uint64_t *own,
                            const uint64_t *enemy, const uint64_t *officers,
                            unsigned n, uint8_t *slow, unsigned *nslow)
{
    return side == CORE_WHITE ? count_lanes(own, enemy, officers, n,
                                            CORE_WHITE, slow, nslow)
                              : count_lanes(own, enemy, officers, n,
                                            CORE_BLACK, slow, nslow);
}
extern const Laska_Kernel LA_BATCH_NAME(core__laska_kernel);
const Laska_Kernel LA_BATCH_NAME(core__laska_kernel) = {batch_count,
                                                        batch_nodes};
#endif
