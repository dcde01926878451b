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
uint64_t core__laska_batch_count_avx2(int side, const uint64_t *own,
                                      const uint64_t *enemy,
                                      const uint64_t *officers, unsigned n,
                                      uint8_t *slow, unsigned *nslow);
uint64_t core__laska_batch_count_avx512(int side, const uint64_t *own,
                                        const uint64_t *enemy,
                                        const uint64_t *officers, unsigned n,
                                        uint8_t *slow, unsigned *nslow);
#endif

size_t core__laska_batch_kernels(Laska_Batch_Fn out[2])
{
    size_t n = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    /* The processor's feature bits, read by libgcc at start-up. */
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512vpopcntdq"))
        out[n++] = core__laska_batch_count_avx512;
    if (__builtin_cpu_supports("avx2"))
        out[n++] = core__laska_batch_count_avx2;
#else
    (void)out;
#endif
    return n;
}

Laska_Batch_Fn core__laska_batch_kernel(void)
{
    Laska_Batch_Fn k[2];
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
    const uint64_t promo = side == CORE_WHITE ? LA_RANK_7 : LA_RANK_1;
    Vec acc = {0};

    for (unsigned i = 0; i < n; i += LA_BATCH_LANES) {
        Vec own = load(own_p + i), enemy = load(enemy_p + i);
        Vec officers = load(officers_p + i);
        Vec empty = LA_BOARD & ~(own | enemy);
        Vec offs = own & officers, sold = own & ~officers;
        /* Jump sets by direction (SW, SE, NW, NE): a column there could
         * jump an enemy commander, landing on an empty square. */
        Vec sw = (enemy << 9) & (empty << 18);
        Vec se = (enemy << 7) & (empty << 14);
        Vec nw = (enemy >> 7) & (empty >> 14);
        Vec ne = (enemy >> 9) & (empty >> 18);
        Vec a7 = side == CORE_WHITE ? nw : se;
        Vec a9 = side == CORE_WHITE ? ne : sw;
        Vec j7 = sold & a7, j9 = sold & a9;
        Vec jumpers = offs & (sw | se | nw | ne);
        /* Quiet moves: every commander forward, officers also back. */
        Vec quiet = bytes(pair(own & back(empty, 7, side),
                               own & back(empty, 9, side))) +
                    bytes(pair(offs & fwd(empty, 7, side),
                               offs & fwd(empty, 9, side)));
        /* Soldiers' captures: first landings that stop, then chains of
         * two or three jumps (soldier_chains in laska_count.c). */
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
        /* Captures are compulsory (D-LA-4): one count or the other. */
        Vec must = (Vec)((j7 | j9 | jumpers) != 0);
        acc += fold((caps & must) | (quiet & ~must));
        Vec more = m0 | m1 | m2 | m3;
        uint64_t any = 0;
        for (int k = 0; k < LA_BATCH_LANES; k++)
            any |= more[k];
        if (any != 0)
            for (int k = 0; k < LA_BATCH_LANES; k++)
                if (more[k] != 0)
                    slow[(*nslow)++] = (uint8_t)(i + (unsigned)k);
    }
    uint64_t total = 0;
    for (int k = 0; k < LA_BATCH_LANES; k++)
        total += acc[k];
    return total;
}

uint64_t LA_BATCH_NAME(core__laska_batch_count)(int side, const uint64_t *own,
                                               const uint64_t *enemy,
                                               const uint64_t *officers,
                                               unsigned n, uint8_t *slow,
                                               unsigned *nslow);

uint64_t LA_BATCH_NAME(core__laska_batch_count)(int side, const uint64_t *own,
                                               const uint64_t *enemy,
                                               const uint64_t *officers,
                                               unsigned n, uint8_t *slow,
                                               unsigned *nslow)
{
    return side == CORE_WHITE ? count_lanes(own, enemy, officers, n,
                                            CORE_WHITE, slow, nslow)
                              : count_lanes(own, enemy, officers, n,
                                            CORE_BLACK, slow, nslow);
}
#endif
