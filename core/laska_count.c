/*
 * laska_count.c: Laska's move counts without listing the moves: the
 * number of legal moves of a position (status, perft's last ply) and, for
 * perft's last two and three plies, the sum of the move counts of every
 * child or grandchild, from bit sets and without making a move. The moves
 * counted are those laska_gen.c lists (D-LA-3..6, captures compulsory);
 * tests/core/test_laska.c compares the two and a second generator.
 *
 * Speed is this file's reason to exist (docs/benchmarks.md, "Laska
 * perft"). The side to move is a constant in each copy of the hot
 * functions (they are forced inline into one caller per side); a side
 * whose commanders are all soldiers, the common case, takes a path of
 * two directions; and the moves of one kind are walked in a single loop
 * over one word that holds two direction sets (pair), so that a loop's
 * end is mispredicted once per position rather than once per direction.
 * Capture chains and sides with officers take general, slower code.
 * Where the processor has laska_batch.c's vector code, perft's last
 * plies are not counted where their positions are found: those one, two
 * and three plies from the end are put in the caller's Laska_Batch
 * (batch_push, node_push, grand_push) and counted many at a time there;
 * what the vectors leave (officers' captures) comes back here through
 * the sink (sink_leaf, sink_node, sink_grand).
 */
#include "laska_internal.h"

/*
 * On x86-64 built for the baseline processor (no -mpopcnt), this file is
 * compiled twice: as itself, with the counting below done in portable
 * instructions (names ending _portable), and included by
 * laska_count_popcnt.c with the popcnt instruction enabled for its
 * functions (names ending _popcnt). The public functions at the end of
 * this file pick one per call from the processor's feature bits
 * (__builtin_cpu_supports). Both copies give the same counts; the
 * instruction gave about a tenth more nodes a second in perft
 * (docs/benchmarks.md). Elsewhere (another processor, -mpopcnt,
 * WebAssembly) there is one copy and LA_COUNT leaves the names alone.
 */
#if !defined(LA_COUNT)
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__)
#define LA_COUNT_DISPATCH 1
#define LA_COUNT(name) name##_portable
#else
#define LA_COUNT(name) name
#endif
#define LA_COUNT_PRIMARY 1
#endif
size_t LA_COUNT(core__laska_count)(const Laska_State *st);
uint64_t LA_COUNT(core__laska_count_children)(const Laska_State *st,
                                             Laska_Batch *q);
uint64_t LA_COUNT(core__laska_count_grandchildren)(const Laska_State *st,
                                                  Laska_Batch *q);
uint64_t LA_COUNT(core__laska_count_great_grandchildren)(const Laska_State *st,
                                                        Laska_Batch *q);
uint64_t LA_COUNT(core__laska_count_five)(const Laska_State *st,
                                          Laska_Batch *q);

/* Forced inline only when optimising: at -O0 a function with every
 * callee forced into it has more locals than WebAssembly engines compile
 * (V8 refused grandchildren_of: "local count too large" in the wasm32 -O0
 * cross-build). The counts are the same either way. */
#if defined(__OPTIMIZE__)
#define LA_INLINE static inline __attribute__((always_inline))
#else
#define LA_INLINE static inline
#endif

/* Kept out of line: a rarer path whose locals would crowd its caller's
 * registers. */
#if defined(__GNUC__)
#define LA_NOINLINE __attribute__((noinline))
#else
#define LA_NOINLINE
#endif

/* A board from the side to move's view: its commanders and, where a
 * column has two pieces or more, the second piece from the top, where it
 * has three or more, the third, and four or more, the fourth (by colour:
 * own_under holds the second pieces of the side's colour, on any
 * column). */
typedef struct Lean {
    uint64_t own, enemy, officers;
    uint64_t own_under, enemy_under, officers_under;
    uint64_t own_third, enemy_third, officers_third;
    /* the fourth and fifth pieces: read by perft 4 and 5 alone, set by
     * lean_init */
    uint64_t own_fourth, enemy_fourth, officers_fourth;
    uint64_t own_fifth, enemy_fifth, officers_fifth;
    Laska_Batch *q; /* where perft 2 puts the positions it counts */
} Lean;

/* x moved n bits forward for side (up for White, down for Black), or
 * back. */
LA_INLINE uint64_t fwd(uint64_t x, int n, int side)
{
    return side == CORE_WHITE ? x << n : x >> n;
}

LA_INLINE uint64_t back(uint64_t x, int n, int side)
{
    return side == CORE_WHITE ? x >> n : x << n;
}

/* The rank where side's soldiers are promoted (D-LA-6). */
LA_INLINE uint64_t last_rank(int side)
{
    return side == CORE_WHITE ? LA_RANK_7 : LA_RANK_1;
}

/*
 * Population counts without compiler builtins or a CPU instruction (the
 * portable build calls a library routine for __builtin_popcountll).
 * bytes_count gives the count of every byte in that byte; such words are
 * added, and bytes_sum gives the total. WebAssembly has the instruction
 * (i64.popcnt, in its 1.0 core; V8 emits the processor's popcnt where
 * it has one), as has x86-64 from about 2008 on (popcnt; this file's
 * second copy, above): there a "bytes" word is the count itself and
 * bytes_sum returns it, the same totals with fewer instructions.
 */
#if defined(__wasm__) || defined(__POPCNT__) || defined(LA_COUNT_HW)
static inline uint64_t bytes_count(uint64_t x)
{
    return (uint64_t)__builtin_popcountll(x);
}

static inline uint64_t bytes_count2(uint64_t a, uint64_t b)
{
    return (uint64_t)(__builtin_popcountll(a) + __builtin_popcountll(b));
}

static inline unsigned bytes_sum(uint64_t x)
{
    return (unsigned)x;
}
#else
static inline uint64_t bytes_count(uint64_t x)
{
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) +
        ((x >> 2) & UINT64_C(0x3333333333333333));
    return (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
}

/* bytes_count(a) + bytes_count(b), the two words added as 4-bit counts
 * (each at most 4, so 8 fits) and folded into bytes once. */
static inline uint64_t bytes_count2(uint64_t a, uint64_t b)
{
    const uint64_t m2 = UINT64_C(0x3333333333333333);

    a -= (a >> 1) & UINT64_C(0x5555555555555555);
    b -= (b >> 1) & UINT64_C(0x5555555555555555);
    a = (a & m2) + ((a >> 2) & m2) + (b & m2) + ((b >> 2) & m2);
    return (a + (a >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
}

/* The sum of the bytes of x, each under 256. */
static inline unsigned bytes_sum(uint64_t x)
{
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}
#endif

/*
 * Two sets of board squares in one word: a square's bit is rank * 8 +
 * file with file + rank even, so within a byte (a rank) the squares sit on
 * every other bit and one bit to the left is always free and in the same
 * byte. pair(a, b) holds a's squares and b's moved one bit left; its count
 * is the sum of both counts, and half() tells which set a bit of it came
 * from (1 for b's), its square then being x - half(x).
 */
static inline uint64_t pair(uint64_t a, uint64_t b)
{
    return a | (b << 1);
}

static inline int half(int x)
{
    return ((x >> 3) ^ x) & 1;
}

/* ---- capture chains ---------------------------------------------------- */

/* What is done with each capture a chain search finds. */
enum { WALK_CHILDREN, WALK_GRANDCHILDREN, WALK_GREAT, WALK_FIVE };

/* A search of the capture chains of one board's travelling column: what
 * its jumps depend on, and where the counts go. */
typedef struct Walk {
    const Lean *b;
    int side;
    int mode;
    uint64_t enemy;        /* enemy commanders */
    uint64_t empty;        /* empty squares, the start included (D-LA-5) */
    uint64_t promo;        /* where a soldier is promoted; 0 for an officer */
    int lo, hi;            /* the directions the column may jump */
    int from;              /* its start, a board bit */
    uint64_t first;        /* the first square it jumped */
    uint64_t second;       /* the second, on the path being searched */
    uint64_t third;        /* and the third */
    uint64_t total;        /* moves counted */
} Walk;

static void walk_end(Walk *w, uint64_t tb, uint64_t jumped, int officer);

/* The travelling column starting on board bit from. */
static inline void jumper_at(Walk *w, int from, int officer)
{
    w->from = from;
    w->promo = officer ? 0 : last_rank(w->side);
    w->lo = officer || w->side == CORE_BLACK ? LA_SW : LA_NW;
    w->hi = officer || w->side == CORE_WHITE ? LA_NE : LA_SE;
    w->empty = LA_BOARD & ~(w->b->own | w->b->enemy);
    w->empty |= UINT64_C(1) << from;
}

/*
 * Depth-first search of capture continuations (D-LA-4, D-LA-5, D-LA-6)
 * from board bit cur, having jumped the bits in jumped. Returns the number
 * of complete captures and hands each to walk_end (officer_count counts
 * them alone).
 * Jumped squares are never landing squares (they lie on the other
 * diagonal lattice), so a column emptied by a jump needs no special case.
 */
static uint64_t chain(Walk *w, int cur, uint64_t jumped, int officer)
{
    const Laska_Tables *t = &core__la;
    uint64_t found = 0;

    for (int d = w->lo; d <= w->hi; d++) {
        uint64_t mb = t->jump_mid[cur][d], lb = t->jump_land[cur][d];
        if (!(w->enemy & mb & ~jumped) || !(w->empty & lb))
            continue;
        if (jumped == w->first)
            w->second = mb;
        else if (jumped == (w->first | w->second))
            w->third = mb;
        /* Promotion ends the move (D-LA-6). */
        if (w->promo & lb) {
            found++;
            walk_end(w, lb, jumped | mb, 1);
        } else {
            found += chain(w, t->jump_to[cur][d], jumped | mb, officer);
        }
    }
    if (found == 0) { /* no further jump: the capture ends here */
        walk_end(w, UINT64_C(1) << cur, jumped, officer);
        return 1;
    }
    return found;
}

/* The captures of the column that jumped from board bit from over mid to
 * land and may jump on. */
static uint64_t chain_from(Walk *w, int from, uint64_t mid, int land,
                           int officer)
{
    jumper_at(w, from, officer);
    w->first = mid;
    return chain(w, land, mid, officer);
}

/* ---- counting the moves of one board ------------------------------------ */

/* The captures of soldiers that go on from their first landing squares
 * p7, p9 (see count_soldiers), as per-byte counts. */
LA_INLINE uint64_t soldier_chains(uint64_t p7, uint64_t p9, uint64_t a7,
                                  uint64_t a9, uint64_t on, int side)
{
    uint64_t x12 = pair(fwd(p7 & a7, 14, side), fwd(p7 & a9, 18, side));
    uint64_t x34 = pair(fwd(p9 & a7, 14, side), fwd(p9 & a9, 18, side));
    /* A second landing counts once where it stops and once for each
     * third jump where it goes on; on lies within a7 | a9, so the landings
     * that stop and those that jump on by 7 bits are disjoint sets and
     * one word counts both. */
    uint64_t stop7 = ~pair(on & ~a7, on & ~a7);
    uint64_t on9 = pair(a9 & on, a9 & on);

    return bytes_count2(x12 & stop7, x12 & on9) +
           bytes_count2(x34 & stop7, x34 & on9);
}

/*
 * The moves of a side whose commanders are all soldiers: White's
 * forward steps are 7 and 9 bits up, Black's 7 and 9 down. Whether
 * captures exist is a coin toss in Laska, so the squares of both counts
 * are gathered and one word is chosen (gcc makes the choice a branch,
 * mispredicted on a third of the calls; a mask instead cost 4 % more
 * instructions and measured no faster).
 *
 * A soldier's capture goes forward only, two ranks a jump, so it has at
 * most three jumps (ranks 0, 2, 4, 6) and the third ends on the last
 * rank; it can never come back to a square or a column it passed, so
 * whether it goes on from a landing square depends on that square
 * alone: on the jump sets a7, a9 of the board (on: from a square not on
 * the last rank; a7 and a9 also hold squares off the board, beside its
 * edge, which pair() must not see). The captures are then counted as sets: the
 * first landings that stop, the second landings reached each way (x12 from
 * first jumps of 7 bits, x34 of 9), of which those that stop count one
 * and those that go on count their third jumps.
 */
LA_INLINE uint64_t count_soldiers(uint64_t own, uint64_t enemy, uint64_t empty,
                                  int side)
{
    uint64_t a7 = back(enemy, 7, side) & back(empty, 14, side);
    uint64_t a9 = back(enemy, 9, side) & back(empty, 18, side);
    uint64_t j7 = own & a7, j9 = own & a9;
    uint64_t l7 = fwd(j7, 14, side), l9 = fwd(j9, 18, side);
    uint64_t on = (a7 | a9) & LA_BOARD & ~last_rank(side);
    uint64_t quiet =
        pair(own & back(empty, 7, side), own & back(empty, 9, side));
    uint64_t taken = pair(l7 & ~on, l9 & ~on);
    uint64_t word = (j7 | j9) != 0 ? taken : quiet;
    uint64_t bytes = bytes_count(word);

    if (((l7 | l9) & on) != 0)
        bytes += soldier_chains(l7 & on, l9 & on, a7, a9, on, side);
    return bytes_sum(bytes);
}

/* The complete captures of an officer on board bit cur that has jumped
 * the bits in jumped: chain's count (D-LA-4, D-LA-5) without its walk's
 * bookkeeping, for an officer (which no rank promotes) on a board of
 * enemy commanders and empty squares (its start among them). */
static uint64_t officer_count(int cur, uint64_t jumped, uint64_t enemy,
                              uint64_t empty)
{
    const Laska_Tables *t = &core__la;
    uint64_t found = 0;

    for (int d = 0; d < 4; d++)
        if ((enemy & t->jump_mid[cur][d] & ~jumped) &&
            (empty & t->jump_land[cur][d]))
            found += officer_count(t->jump_to[cur][d],
                                   jumped | t->jump_mid[cur][d], enemy, empty);
    return found != 0 ? found : 1;
}

/* The captures of officers that go on from the landing squares more[d]
 * of their first jump in direction d, searched. */
static uint64_t officer_chains(uint64_t own, uint64_t enemy, uint64_t officers,
                               int side, const uint64_t more[4])
{
    uint64_t found = 0, empty = LA_BOARD & ~(own | enemy);

    (void)officers;
    (void)side;
    for (int d = 0; d < 4; d++)
        for (uint64_t r = more[d]; r != 0; r &= r - 1) {
            uint64_t lb = r & (~r + 1);
            int from = __builtin_ctzll(
                core__laska_step(core__laska_step(lb, d ^ 3), d ^ 3));
            found += officer_count(__builtin_ctzll(lb),
                                   core__la.jump_mid[from][d], enemy,
                                   empty | (UINT64_C(1) << from));
        }
    return found;
}

/*
 * The captures of the officers of own, given the jump sets by direction
 * of the board: their first jumps in each direction taken at once, those
 * that cannot go on (any way but back over the square just jumped: the
 * start square, empty now, could only be reached so) counted as a set and
 * the others searched.
 */
static LA_NOINLINE uint64_t officer_captures(uint64_t own, uint64_t enemy,
                                             uint64_t officers, int side,
                                             uint64_t sw, uint64_t se,
                                             uint64_t nw, uint64_t ne)
{
    uint64_t offs = own & officers, found = 0;
    /* First landings by direction; one goes on any way but back (d ^ 3).
     * Two directions share a word (pair). */
    uint64_t lsw = (offs & sw) >> 18, lse = (offs & se) >> 14;
    uint64_t lnw = (offs & nw) << 14, lne = (offs & ne) << 18;
    uint64_t more[4] = {lsw & (sw | se | nw), lse & (sw | se | ne),
                        lnw & (sw | nw | ne), lne & (se | nw | ne)};
    uint64_t bytes = bytes_count2(pair(lsw & ~more[LA_SW], lse & ~more[LA_SE]),
                                  pair(lnw & ~more[LA_NW], lne & ~more[LA_NE]));

    if ((more[0] | more[1] | more[2] | more[3]) != 0)
        found = officer_chains(own, enemy, officers, side, more);
    return found + bytes_sum(bytes);
}

/*
 * The moves of a side with officers: its soldiers as in count_soldiers;
 * its officers' first jumps in each direction taken at once, those that
 * cannot go on (any way but back over the square just jumped: the start
 * square, empty now, could only be reached so) counted as a set and the
 * others searched.
 */
LA_INLINE uint64_t count_general(uint64_t own, uint64_t enemy, uint64_t empty,
                                 uint64_t officers, int side)
{
    uint64_t offs = own & officers, sold = own & ~officers;
    /* Jump sets by direction (SW, SE, NW, NE); scalars, not an array,
     * which the compiler would move through memory. */
    uint64_t sw = (enemy << 9) & (empty << 18);
    uint64_t se = (enemy << 7) & (empty << 14);
    uint64_t nw = (enemy >> 7) & (empty >> 14);
    uint64_t ne = (enemy >> 9) & (empty >> 18);
    uint64_t a7 = side == CORE_WHITE ? nw : se;
    uint64_t a9 = side == CORE_WHITE ? ne : sw;
    uint64_t j7 = sold & a7, j9 = sold & a9;
    uint64_t jumpers = offs & (sw | se | nw | ne);
    if (((j7 | j9) | jumpers) == 0)
        /* Every commander steps forward, officers also back. */
        return bytes_sum(bytes_count2(
            pair(own & back(empty, 7, side), own & back(empty, 9, side)),
            pair(offs & fwd(empty, 7, side), offs & fwd(empty, 9, side))));
    uint64_t on = (a7 | a9) & LA_BOARD & ~last_rank(side);
    uint64_t l7 = fwd(j7, 14, side), l9 = fwd(j9, 18, side);
    uint64_t bytes = bytes_count(pair(l7 & ~on, l9 & ~on));
    if (((l7 | l9) & on) != 0)
        bytes += soldier_chains(l7 & on, l9 & on, a7, a9, on, side);
    /* Most often (three captures in five) only soldiers can capture;
     * the officers' part is a call of its own, so that this path keeps
     * its words in registers. */
    if (jumpers == 0)
        return bytes_sum(bytes);
    return bytes_sum(bytes) +
           officer_captures(own, enemy, officers, side, sw, se, nw, ne);
}

static uint64_t count_general_white(uint64_t own, uint64_t enemy,
                                    uint64_t empty, uint64_t officers)
{
    return count_general(own, enemy, empty, officers, CORE_WHITE);
}

static uint64_t count_general_black(uint64_t own, uint64_t enemy,
                                    uint64_t empty, uint64_t officers)
{
    return count_general(own, enemy, empty, officers, CORE_BLACK);
}

/* The number of legal moves of a board given by its commanders alone. */
LA_INLINE uint64_t count_side(uint64_t own, uint64_t enemy, uint64_t officers,
                              int side)
{
    uint64_t empty = LA_BOARD & ~(own | enemy);

    if ((own & officers) == 0)
        return count_soldiers(own, enemy, empty, side);
    return side == CORE_WHITE
               ? count_general_white(own, enemy, empty, officers)
               : count_general_black(own, enemy, empty, officers);
}

static uint64_t count_of(uint64_t own, uint64_t enemy, uint64_t officers,
                         int side)
{
    return side == CORE_WHITE ? count_side(own, enemy, officers, CORE_WHITE)
                              : count_side(own, enemy, officers, CORE_BLACK);
}

/* ---- counting positions in batches ------------------------------------- */

/* The captures of side's officers that go on past their first jump, in
 * the position own, enemy, officers (the part of officer_captures that
 * laska_batch.c leaves out). */
static uint64_t officer_chains_of(uint64_t own, uint64_t enemy,
                                  uint64_t officers, int side)
{
    uint64_t offs = own & officers, empty = LA_BOARD & ~(own | enemy);
    uint64_t sw = (enemy << 9) & (empty << 18);
    uint64_t se = (enemy << 7) & (empty << 14);
    uint64_t nw = (enemy >> 7) & (empty >> 14);
    uint64_t ne = (enemy >> 9) & (empty >> 18);
    uint64_t more[4] = {((offs & sw) >> 18) & (sw | se | nw),
                        ((offs & se) >> 14) & (sw | se | ne),
                        ((offs & nw) << 14) & (sw | nw | ne),
                        ((offs & ne) << 18) & (se | nw | ne)};
    return officer_chains(own, enemy, officers, side, more);
}

static LA_NOINLINE void leaf_flush(Laska_Batch *q, int side);
static LA_NOINLINE void node_flush(Laska_Batch *q, int side);
static LA_NOINLINE void grand_flush(Laska_Batch *q, int side);
static LA_NOINLINE void great_flush(Laska_Batch *q, int side);

/* Put a position of side to move in q, to be counted with the others
 * (count_side's arguments), or count it now where there is no vector
 * count (laska_batch.c). */
LA_INLINE void batch_push(Laska_Batch *q, uint64_t own, uint64_t enemy,
                          uint64_t officers, int side)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (q->kernel != NULL) {
        unsigned i = q->leaves[side];
        q->leaf[side][0][i] = own;
        q->leaf[side][1][i] = enemy;
        q->leaf[side][2][i] = officers;
        if (++q->leaves[side] == LA_BATCH)
            leaf_flush(q, side);
        return;
    }
    q->total += count_of(own, enemy, officers, side);
#else
    q->total += count_side(own, enemy, officers, side);
#endif
}

/* ---- the children of one board ------------------------------------------ */

/*
 * The moves of the position after a capture of the board b's side from
 * fb to tb over the bits in jumped, from the other side's view (own its
 * commanders): each jumped column is commanded by its next piece or left
 * empty (D-LA-3). Officers are right on own's squares only, all a count
 * of that position looks at.
 */
LA_INLINE uint64_t count_after_capture(const Lean *b, uint64_t fb, uint64_t tb,
                                       uint64_t jumped, int side)
{
    batch_push(b->q, (b->enemy & ~jumped) | (jumped & b->enemy_under),
               (b->own & ~fb) | tb | (jumped & b->own_under),
               (b->officers & ~jumped) | (jumped & b->officers_under),
               side ^ 1);
    return 0;
}

/* Perft 2 over the moves of b's soldiers when they must capture (j7, j9:
 * those with a first jump of 7 or 9 bits; a7, a9, the jump sets; see
 * count_soldiers). */
LA_INLINE uint64_t soldier_capture_children(const Lean *b, uint64_t j7,
                                            uint64_t j9, uint64_t a7,
                                            uint64_t a9, int side)
{
    uint64_t on = (a7 | a9) & LA_BOARD & ~last_rank(side);
    uint64_t l7 = fwd(j7, 14, side), l9 = fwd(j9, 18, side), total = 0;

    for (uint64_t r = pair(l7 & ~on, l9 & ~on); r != 0; r &= r - 1) {
        int x = __builtin_ctzll(r), odd = half(x);
        uint64_t tb = UINT64_C(1) << (x - odd);
        total += count_after_capture(b, back(tb, 14 + 4 * odd, side), tb,
                                     back(tb, 7 + 2 * odd, side), side);
    }
    /* Captures that go on: their second and third jumps, each a move. */
    for (uint64_t r = pair(l7 & on, l9 & on); r != 0; r &= r - 1) {
        int x = __builtin_ctzll(r), odd = half(x);
        uint64_t tb = UINT64_C(1) << (x - odd);
        uint64_t fb = back(tb, 14 + 4 * odd, side);
        uint64_t jumped = back(tb, 7 + 2 * odd, side);
        for (int i = 0; i < 2; i++) {
            int n = 7 + 2 * i;
            if (!(tb & (i ? a9 : a7)))
                continue;
            uint64_t t2 = fwd(tb, 2 * n, side);
            uint64_t j2 = jumped | fwd(tb, n, side);
            if (!(t2 & on)) {
                total += count_after_capture(b, fb, t2, j2, side);
                continue;
            }
            if (t2 & a7)
                total += count_after_capture(b, fb, fwd(t2, 14, side),
                                             j2 | fwd(t2, 7, side), side);
            if (t2 & a9)
                total += count_after_capture(b, fb, fwd(t2, 18, side),
                                             j2 | fwd(t2, 9, side), side);
        }
    }
    return total;
}

/* Perft 2 over the captures of b's officers whose first jump is in
 * direction d from the squares first; on: where one can jump on. */
LA_INLINE uint64_t officer_capture_children(const Lean *b, int side, int d,
                                            uint64_t first, uint64_t on)
{
    uint64_t land = core__laska_step(core__laska_step(first, d), d);
    uint64_t more = land & on, total = 0;

    for (uint64_t r = land & ~more; r != 0; r &= r - 1) {
        uint64_t tb = r & (~r + 1), mid = core__laska_step(tb, d ^ 3);
        total +=
            count_after_capture(b, core__laska_step(mid, d ^ 3), tb, mid, side);
    }
    if (more == 0)
        return total;
    Walk w = {.b = b, .side = side, .mode = WALK_CHILDREN, .enemy = b->enemy};
    for (; more != 0; more &= more - 1) {
        uint64_t lb = more & (~more + 1);
        int from = __builtin_ctzll(
            core__laska_step(core__laska_step(lb, d ^ 3), d ^ 3));
        chain_from(&w, from, core__la.jump_mid[from][d], __builtin_ctzll(lb),
                   1);
    }
    return total + w.total;
}

/* Perft 2 of a board whose side has officers (see children_side). */
LA_INLINE uint64_t children_general(const Lean *b, int side)
{
    uint64_t own = b->own, enemy = b->enemy, officers = b->officers;
    uint64_t empty = LA_BOARD & ~(own | enemy), total = 0;
    uint64_t offs = own & officers, sold = own & ~officers;
    uint64_t sw = (enemy << 9) & (empty << 18);
    uint64_t se = (enemy << 7) & (empty << 14);
    uint64_t nw = (enemy >> 7) & (empty >> 14);
    uint64_t ne = (enemy >> 9) & (empty >> 18);
    uint64_t a7 = side == CORE_WHITE ? nw : se;
    uint64_t a9 = side == CORE_WHITE ? ne : sw;
    uint64_t j7 = sold & a7, j9 = sold & a9;

    if (((j7 | j9) | (offs & (sw | se | nw | ne))) == 0) {
        /* Soldiers step up for White, down for Black; officers both. */
        uint64_t up = side == CORE_WHITE ? own : offs;
        uint64_t down = side == CORE_WHITE ? offs : own;
        for (uint64_t r = pair(up & (empty >> 7), up & (empty >> 9)); r != 0;
             r &= r - 1) {
            int x = __builtin_ctzll(r), odd = half(x);
            uint64_t fb = UINT64_C(1) << (x - odd);
            uint64_t both = fb | (fb << (7 + 2 * odd));
            batch_push(b->q, enemy, own ^ both, officers, side ^ 1);
        }
        for (uint64_t r = pair(down & (empty << 9), down & (empty << 7));
             r != 0; r &= r - 1) {
            int x = __builtin_ctzll(r), odd = half(x);
            uint64_t fb = UINT64_C(1) << (x - odd);
            uint64_t both = fb | (fb >> (9 - 2 * odd));
            batch_push(b->q, enemy, own ^ both, officers, side ^ 1);
        }
        return total;
    }
    if ((j7 | j9) != 0)
        total += soldier_capture_children(b, j7, j9, a7, a9, side);
    if ((offs & (sw | se | nw | ne)) == 0)
        return total; /* only soldiers capture (see count_general) */
    /* An officer goes on any way but back (d ^ 3). */
    total += officer_capture_children(b, side, LA_SW, offs & sw, sw | se | nw);
    total += officer_capture_children(b, side, LA_SE, offs & se, sw | se | ne);
    total += officer_capture_children(b, side, LA_NW, offs & nw, sw | nw | ne);
    total += officer_capture_children(b, side, LA_NE, offs & ne, se | nw | ne);
    return total;
}

static uint64_t children_general_white(const Lean *b)
{
    return children_general(b, CORE_WHITE);
}

static uint64_t children_general_black(const Lean *b)
{
    return children_general(b, CORE_BLACK);
}

/*
 * Perft 2 of board b: the sum over b's moves of the move counts of the
 * positions they give, side a constant (see the file's comment).
 */
LA_INLINE uint64_t children_side(const Lean *b, int side)
{
    uint64_t own = b->own, enemy = b->enemy, officers = b->officers;
    uint64_t empty = LA_BOARD & ~(own | enemy), total = 0;

    if ((own & officers) != 0)
        return side == CORE_WHITE ? children_general_white(b)
                                  : children_general_black(b);
    uint64_t a7 = back(enemy, 7, side) & back(empty, 14, side);
    uint64_t a9 = back(enemy, 9, side) & back(empty, 18, side);
    uint64_t j7 = own & a7, j9 = own & a9;
    if ((j7 | j9) != 0)
        return soldier_capture_children(b, j7, j9, a7, a9, side);
    /* A quiet move changes only the mover's set; the other side's count
     * looks at its own officers alone. */
    uint64_t r = pair(own & back(empty, 7, side), own & back(empty, 9, side));
    if ((enemy & officers) != 0) {
        for (; r != 0; r &= r - 1) {
            int x = __builtin_ctzll(r), odd = half(x);
            uint64_t fb = UINT64_C(1) << (x - odd);
            uint64_t both = fb | fwd(fb, 7 + 2 * odd, side);
            batch_push(b->q, enemy, own ^ both, officers, side ^ 1);
        }
        return total;
    }
    /* The other side has soldiers only (the common case): the loop is
     * taken out of count_side's test, and the empty squares follow the
     * move. */
    for (; r != 0; r &= r - 1) {
        int x = __builtin_ctzll(r), odd = half(x);
        uint64_t fb = UINT64_C(1) << (x - odd);
        uint64_t both = fb | fwd(fb, 7 + 2 * odd, side);
        batch_push(b->q, enemy, own ^ both, 0, side ^ 1);
    }
    return total;
}

static uint64_t children_of(const Lean *b, int side)
{
    return side == CORE_WHITE ? children_side(b, CORE_WHITE)
                              : children_side(b, CORE_BLACK);
}

/* Perft 2 of board b, side to move: put in q's node batch, to be
 * counted with others, where there is a vector count (laska_batch.c);
 * else counted now. Returns what it counted now. */
LA_INLINE uint64_t node_push(const Lean *b, int side)
{
#if defined(__x86_64__) && defined(__GNUC__)
    Laska_Batch *q = b->q;
    if (q->kernel != NULL && q->kernel->nodes != NULL) {
        unsigned i = q->nodes[side];
        q->node[side][0][i] = b->own;
        q->node[side][1][i] = b->enemy;
        q->node[side][2][i] = b->officers;
        q->node[side][3][i] = b->own_under;
        q->node[side][4][i] = b->enemy_under;
        q->node[side][5][i] = b->officers_under;
        if (++q->nodes[side] == LA_BATCH)
            node_flush(q, side);
        return 0;
    }
    return children_of(b, side);
#else
    return children_side(b, side);
#endif
}

/* ---- the grandchildren of one board ------------------------------------- */

/*
 * The commanders and second pieces of the position after a move of board
 * b's side from fb to tb over the bits in jumped (0 for a quiet move;
 * first, the first of them), officer when its commander is or becomes an
 * officer, from the other side's view (c->enemy_under the mover's): the
 * start square is empty; the mover's column keeps its second piece or,
 * for a lone piece that captured, takes the first prisoner (the commander
 * of first); each jumped column's second piece is its old third (D-LA-3).
 */
LA_INLINE void lean_after(const Lean *b, uint64_t fb, uint64_t tb,
                              uint64_t jumped, uint64_t first, int officer,
                              Lean *c)
{
    uint64_t gone = ~(fb | jumped);
    /* By colour: s the mover's, e the other's; o officers. */
    uint64_t su = (b->own_under & gone) | (b->own_third & jumped);
    uint64_t eu = (b->enemy_under & gone) | (b->enemy_third & jumped);
    uint64_t ou = (b->officers_under & gone) | (b->officers_third & jumped);

    su |= (b->own_under & fb) ? tb : 0;
    eu |= (b->enemy_under & fb) ? tb : 0;
    ou |= (b->officers_under & fb) ? tb : 0;
    if (jumped && !((b->own_under | b->enemy_under) & fb)) {
        eu |= tb;
        ou |= (b->officers & first) ? tb : 0;
    }
    c->own = (b->enemy & ~jumped) | (jumped & b->enemy_under);
    c->enemy = (b->own & ~fb) | tb | (jumped & b->own_under);
    c->officers = (b->officers & ~(fb | jumped)) |
                  (jumped & b->officers_under) | (officer ? tb : 0);
    c->own_under = eu;
    c->enemy_under = su;
    c->officers_under = ou;
    c->q = b->q;
}

/*
 * Perft 2 of the position after a move of board b's side (see
 * lean_after).
 */
LA_INLINE uint64_t after_move(const Lean *b, int side, uint64_t fb, uint64_t tb,
                           uint64_t jumped, uint64_t first, int officer)
{
    Lean c;

    lean_after(b, fb, tb, jumped, first, officer, &c);
    return side == CORE_WHITE ? node_push(&c, CORE_BLACK)
                              : node_push(&c, CORE_WHITE);
}

LA_INLINE uint64_t great_move(const Lean *b, int side, uint64_t fb,
                              uint64_t tb, uint64_t jumped, uint64_t first,
                              uint64_t second, int officer);
LA_INLINE uint64_t five_move(const Lean *b, int side, uint64_t fb, uint64_t tb,
                             uint64_t jumped, uint64_t first, uint64_t second,
                             uint64_t third, int officer);

/*
 * One capture of w's board found, from w->from's column (officer: its
 * commander is or becomes an officer) to tb over the bits in jumped:
 * count what follows it.
 */
static void walk_end(Walk *w, uint64_t tb, uint64_t jumped, int officer)
{
    const Lean *b = w->b;
    uint64_t fb = UINT64_C(1) << w->from;

    if (w->mode == WALK_CHILDREN) {
        batch_push(b->q, (b->enemy & ~jumped) | (jumped & b->enemy_under),
                   (b->own & ~fb) | tb | (jumped & b->own_under),
                   (b->officers & ~jumped) | (jumped & b->officers_under),
                   w->side ^ 1);
        return;
    }
    if (w->mode == WALK_GRANDCHILDREN) {
        w->total += after_move(b, w->side, fb, tb, jumped, w->first, officer);
        return;
    }
    if (w->mode == WALK_GREAT) {
        w->total += great_move(b, w->side, fb, tb, jumped, w->first,
                               w->second, officer);
        return;
    }
    w->total += five_move(b, w->side, fb, tb, jumped, w->first, w->second,
                          w->third, officer);
}

/* ---- the interface ------------------------------------------------------- */

static void lean_init(Lean *b, const Laska_State *st)
{
    int white = st->side == CORE_WHITE;

    b->own = white ? st->white : st->black;
    b->enemy = white ? st->black : st->white;
    b->officers = st->officers;
    b->own_under = white ? st->under_white : st->under_black;
    b->enemy_under = white ? st->under_black : st->under_white;
    b->officers_under = st->under_officers;
    b->own_third = b->enemy_third = b->officers_third = 0;
    b->own_fourth = b->enemy_fourth = b->officers_fourth = 0;
    b->own_fifth = b->enemy_fifth = b->officers_fifth = 0;
    b->q = NULL;
    for (uint64_t r = st->under_white | st->under_black; r != 0; r &= r - 1) {
        int s = core__la.sq[__builtin_ctzll(r)];
        uint64_t mb = r & (~r + 1);
        if (st->height[s] < 3)
            continue;
        if (((st->colour[s] >> 2) & 1) == st->side)
            b->own_third |= mb;
        else
            b->enemy_third |= mb;
        if ((st->officer[s] >> 2) & 1)
            b->officers_third |= mb;
        if (st->height[s] < 4)
            continue;
        if (((st->colour[s] >> 3) & 1) == st->side)
            b->own_fourth |= mb;
        else
            b->enemy_fourth |= mb;
        if ((st->officer[s] >> 3) & 1)
            b->officers_fourth |= mb;
        if (st->height[s] < 5)
            continue;
        if (((st->colour[s] >> 4) & 1) == st->side)
            b->own_fifth |= mb;
        else
            b->enemy_fifth |= mb;
        if ((st->officer[s] >> 4) & 1)
            b->officers_fifth |= mb;
    }
}

size_t LA_COUNT(core__laska_count)(const Laska_State *st)
{
    Lean b;

    lean_init(&b, st);
    return (size_t)count_of(b.own, b.enemy, b.officers, st->side);
}

uint64_t LA_COUNT(core__laska_count_children)(const Laska_State *st,
                                             Laska_Batch *q)
{
    Lean b;

    lean_init(&b, st);
    b.q = q;
    return st->side == CORE_WHITE ? node_push(&b, CORE_WHITE)
                                  : node_push(&b, CORE_BLACK);
}

/* What follows one move (see soldier_moves): perft 2 of its position, or
 * with great perft 3. */
LA_INLINE uint64_t move_end(const Lean *b, int side, int great, uint64_t fb,
                            uint64_t tb, uint64_t jumped, uint64_t first,
                            uint64_t second, uint64_t third, int officer)
{
    if (great == 2)
        return five_move(b, side, fb, tb, jumped, first, second, third,
                         officer);
    if (great)
        return great_move(b, side, fb, tb, jumped, first, second, officer);
    return after_move(b, side, fb, tb, jumped, first, officer);
}

/*
 * Perft 3 (great: 4, st b's columns) over the captures of b's soldiers
 * (j7, j9: those with a first jump of 7 or 9 bits; a7, a9, the jump sets;
 * see count_soldiers), what follows each counted by move_end.
 */
LA_INLINE uint64_t soldier_capture_moves(const Lean *b,
                                         int side, int great, uint64_t j7,
                                         uint64_t j9, uint64_t a7, uint64_t a9)
{
    uint64_t promo = last_rank(side), total = 0;
    uint64_t on = (a7 | a9) & LA_BOARD & ~promo;
    uint64_t l7 = fwd(j7, 14, side), l9 = fwd(j9, 18, side);
    for (uint64_t r = pair(l7, l9); r != 0; r &= r - 1) {
        int x = __builtin_ctzll(r), odd = half(x);
        uint64_t tb = UINT64_C(1) << (x - odd);
        uint64_t fb = back(tb, 14 + 4 * odd, side);
        uint64_t first = back(tb, 7 + 2 * odd, side);
        if (!(tb & on)) {
            total += move_end(b, side, great, fb, tb, first, first, 0, 0,
                              (promo & tb) != 0);
            continue;
        }
        /* It goes on (see count_soldiers). */
        for (int i = 0; i < 2; i++) {
            int n = 7 + 2 * i;
            if (!(tb & (i ? a9 : a7)))
                continue;
            uint64_t t2 = fwd(tb, 2 * n, side), second = fwd(tb, n, side);
            uint64_t j2 = first | second;
            if (!(t2 & on)) {
                total += move_end(b, side, great, fb, t2, j2, first, second,
                                  0, (promo & t2) != 0);
                continue;
            }
            if (t2 & a7)
                total += move_end(b, side, great, fb, fwd(t2, 14, side),
                                  j2 | fwd(t2, 7, side), first, second,
                                  fwd(t2, 7, side), 1);
            if (t2 & a9)
                total += move_end(b, side, great, fb, fwd(t2, 18, side),
                                  j2 | fwd(t2, 9, side), first, second,
                                  fwd(t2, 9, side), 1);
        }
    }
    return total;
}

/*
 * Perft 3 (great: 4, st b's columns) of a board whose side has soldiers
 * only: children_side's walk over its moves, what follows each counted by
 * move_end.
 */
LA_INLINE uint64_t soldier_moves(const Lean *b, int side,
                                 int great)
{
    uint64_t own = b->own, enemy = b->enemy;
    uint64_t empty = LA_BOARD & ~(own | enemy), total = 0;
    uint64_t promo = last_rank(side);
    uint64_t a7 = back(enemy, 7, side) & back(empty, 14, side);
    uint64_t a9 = back(enemy, 9, side) & back(empty, 18, side);
    uint64_t j7 = own & a7, j9 = own & a9;

    if ((j7 | j9) == 0) {
        uint64_t r =
            pair(own & back(empty, 7, side), own & back(empty, 9, side));
        for (; r != 0; r &= r - 1) {
            int x = __builtin_ctzll(r), odd = half(x);
            uint64_t fb = UINT64_C(1) << (x - odd);
            uint64_t tb = fwd(fb, 7 + 2 * odd, side);
            total += move_end(b, side, great, fb, tb, 0, 0, 0, 0,
                              (promo & tb) != 0); /* D-LA-6 */
        }
        return total;
    }
    return soldier_capture_moves(b, side, great, j7, j9, a7, a9);
}

/*
 * Perft 3 (great: 4) over the captures of b's officers whose first jump
 * is in direction d from the squares first (on: where one can jump on;
 * see officer_capture_children): those that end there counted by
 * move_end, the others searched by w.
 */
LA_INLINE uint64_t officer_capture_moves(const Lean *b,
                                         int side, int great, int d,
                                         uint64_t first, uint64_t on, Walk *w)
{
    uint64_t land = core__laska_step(core__laska_step(first, d), d);
    uint64_t more = land & on, total = 0;

    for (uint64_t r = land & ~more; r != 0; r &= r - 1) {
        uint64_t tb = r & (~r + 1), mid = core__laska_step(tb, d ^ 3);
        total += move_end(b, side, great, core__laska_step(mid, d ^ 3), tb,
                          mid, mid, 0, 0, 1);
    }
    for (; more != 0; more &= more - 1) {
        uint64_t lb = more & (~more + 1);
        int from = __builtin_ctzll(
            core__laska_step(core__laska_step(lb, d ^ 3), d ^ 3));
        chain_from(w, from, core__la.jump_mid[from][d], __builtin_ctzll(lb), 1);
    }
    return total;
}

/*
 * Perft 3 (great: 4, st b's columns) of a board whose side has officers:
 * its quiet moves walked as children_general walks them, its captures as
 * soldier_capture_moves and officer_capture_moves take them, what follows
 * each counted by move_end.
 */
LA_INLINE uint64_t officer_moves(const Lean *b,
                                 int side, int great)
{
    uint64_t own = b->own, enemy = b->enemy, officers = b->officers;
    uint64_t empty = LA_BOARD & ~(own | enemy), total = 0;
    uint64_t offs = own & officers, promo = last_rank(side);
    uint64_t a7 = back(enemy, 7, side) & back(empty, 14, side);
    uint64_t a9 = back(enemy, 9, side) & back(empty, 18, side);
    uint64_t b7 = fwd(enemy, 7, side) & fwd(empty, 14, side);
    uint64_t b9 = fwd(enemy, 9, side) & fwd(empty, 18, side);

    if (((own & (a7 | a9)) | (offs & (b7 | b9))) != 0) {
        /* Jump sets by direction (SW, SE, NW, NE). */
        uint64_t sw = side == CORE_WHITE ? b9 : a9;
        uint64_t se = side == CORE_WHITE ? b7 : a7;
        uint64_t nw = side == CORE_WHITE ? a7 : b7;
        uint64_t ne = side == CORE_WHITE ? a9 : b9;
        uint64_t sold = own & ~officers;
        Walk w = {.b = b,
                  .side = side,
                  .mode = great == 2 ? WALK_FIVE
                          : great   ? WALK_GREAT
                                    : WALK_GRANDCHILDREN,
                  .enemy = enemy};
        total = soldier_capture_moves(b, side, great, sold & a7, sold & a9,
                                      a7, a9);
        if ((offs & (sw | se | nw | ne)) == 0)
            return total;
        /* An officer goes on any way but back (d ^ 3). */
        total += officer_capture_moves(b, side, great, LA_SW, offs & sw,
                                       sw | se | nw, &w);
        total += officer_capture_moves(b, side, great, LA_SE, offs & se,
                                       sw | se | ne, &w);
        total += officer_capture_moves(b, side, great, LA_NW, offs & nw,
                                       sw | nw | ne, &w);
        total += officer_capture_moves(b, side, great, LA_NE, offs & ne,
                                       se | nw | ne, &w);
        return total + w.total;
    }
    /* Soldiers step up for White, down for Black; officers both. */
    uint64_t up = side == CORE_WHITE ? own : offs;
    uint64_t down = side == CORE_WHITE ? offs : own;
    for (uint64_t r = pair(up & (empty >> 7), up & (empty >> 9)); r != 0;
         r &= r - 1) {
        int x = __builtin_ctzll(r), odd = half(x);
        uint64_t fb = UINT64_C(1) << (x - odd), tb = fb << (7 + 2 * odd);
        total += move_end(b, side, great, fb, tb, 0, 0, 0, 0,
                          ((officers & fb) | (promo & tb)) != 0); /* D-LA-6 */
    }
    for (uint64_t r = pair(down & (empty << 9), down & (empty << 7)); r != 0;
         r &= r - 1) {
        int x = __builtin_ctzll(r), odd = half(x);
        uint64_t fb = UINT64_C(1) << (x - odd), tb = fb >> (9 - 2 * odd);
        total += move_end(b, side, great, fb, tb, 0, 0, 0, 0,
                          ((officers & fb) | (promo & tb)) != 0);
    }
    return total;
}

/* Perft 3 of board b. */
LA_INLINE uint64_t grandchildren_side(const Lean *b, int side)
{
    if ((b->own & b->officers) != 0)
        return officer_moves(b, side, 0);
    return soldier_moves(b, side, 0);
}

static uint64_t grandchildren_of(const Lean *b, int side)
{
    return side == CORE_WHITE ? grandchildren_side(b, CORE_WHITE)
                              : grandchildren_side(b, CORE_BLACK);
}

/* Perft 3 of board b (its nine words), side to move: put in q's batch,
 * to be counted with others, where there is a vector count
 * (laska_batch.c); else counted now. Returns what it counted now. */
LA_INLINE uint64_t grand_push(const Lean *b, int side)
{
#if defined(__x86_64__) && defined(__GNUC__)
    Laska_Batch *q = b->q;
    if (q->kernel != NULL && q->kernel->grand != NULL) {
        unsigned i = q->grands[side];
        q->grand[side][0][i] = b->own;
        q->grand[side][1][i] = b->enemy;
        q->grand[side][2][i] = b->officers;
        q->grand[side][3][i] = b->own_under;
        q->grand[side][4][i] = b->enemy_under;
        q->grand[side][5][i] = b->officers_under;
        q->grand[side][6][i] = b->own_third;
        q->grand[side][7][i] = b->enemy_third;
        q->grand[side][8][i] = b->officers_third;
        if (++q->grands[side] == LA_BATCH)
            grand_flush(q, side);
        return 0;
    }
#endif
    return grandchildren_of(b, side);
}

/* ---- the batches' counts ------------------------------------------------- */

/* The Laska_Sink's functions (ctx: the batch). */
static void sink_leaf(void *ctx, int side, uint64_t own, uint64_t enemy,
                      uint64_t officers)
{
    Laska_Batch *q = ctx;
    q->total += officer_chains_of(own, enemy, officers, side);
}

static void sink_node(void *ctx, int side, const uint64_t w[6])
{
    Laska_Batch *q = ctx;
    Lean b = {.own = w[0],
              .enemy = w[1],
              .officers = w[2],
              .own_under = w[3],
              .enemy_under = w[4],
              .officers_under = w[5],
              .q = q};
    q->total += children_of(&b, side);
}

static void sink_grand(void *ctx, int side, const uint64_t w[9])
{
    Laska_Batch *q = ctx;
    Lean b = {.own = w[0],
              .enemy = w[1],
              .officers = w[2],
              .own_under = w[3],
              .enemy_under = w[4],
              .officers_under = w[5],
              .own_third = w[6],
              .enemy_third = w[7],
              .officers_third = w[8],
              .q = q};
    q->total += grandchildren_of(&b, side);
}

static uint64_t great_walk(const Lean *b, int side);

static void sink_great(void *ctx, int side, const uint64_t w[12])
{
    Laska_Batch *q = ctx;
    Lean b = {.own = w[0],
              .enemy = w[1],
              .officers = w[2],
              .own_under = w[3],
              .enemy_under = w[4],
              .officers_under = w[5],
              .own_third = w[6],
              .enemy_third = w[7],
              .officers_third = w[8],
              .own_fourth = w[9],
              .enemy_fourth = w[10],
              .officers_fourth = w[11],
              .q = q};
    q->total += great_walk(&b, side);
}

/* Count side's positions in one of q's batches (words of them, n at
 * *count) with fn, and empty it; what fn cannot count is counted here
 * (the sink). */
static void batch_run(Laska_Batch *q, int side, uint64_t (*w)[LA_BATCH],
                      int words, unsigned *count,
                      uint64_t (*fn)(int, const uint64_t *const *, unsigned,
                                     const Laska_Sink *))
{
    const Laska_Sink sink = {q, sink_leaf, sink_node, sink_grand, sink_great};
    const uint64_t *p[12];
    unsigned n = *count;

    for (; n % 8 != 0; n++)
        for (int j = 0; j < words; j++)
            w[j][n] = 0;
    for (int j = 0; j < words; j++)
        p[j] = w[j];
    *count = 0;
    q->total += fn(side, p, n, &sink);
}

static LA_NOINLINE void leaf_flush(Laska_Batch *q, int side)
{
    batch_run(q, side, q->leaf[side], 3, &q->leaves[side], q->kernel->count);
}

static LA_NOINLINE void node_flush(Laska_Batch *q, int side)
{
    batch_run(q, side, q->node[side], 6, &q->nodes[side], q->kernel->nodes);
}

static LA_NOINLINE void grand_flush(Laska_Batch *q, int side)
{
    batch_run(q, side, q->grand[side], 9, &q->grands[side], q->kernel->grand);
}

static LA_NOINLINE void great_flush(Laska_Batch *q, int side)
{
    batch_run(q, side, q->great[side], 12, &q->greats[side], q->kernel->great);
}

uint64_t LA_COUNT(core__laska_count_grandchildren)(const Laska_State *st,
                                                  Laska_Batch *q)
{
    Lean b;

    lean_init(&b, st);
    b.q = q;
    return st->side == CORE_WHITE ? grand_push(&b, CORE_WHITE)
                                  : grand_push(&b, CORE_BLACK);
}

/* ---- the great-grandchildren of one board ------------------------------ */

/*
 * Perft 3 of the position after a move of board b's side from fb to tb
 * over the bits in jumped (0 for a quiet move; first and second, the
 * first two of them in order), officer when its commander is or becomes
 * an officer; st holds b's columns. Besides the commanders, the position
 * needs the second and third pieces of every column (D-LA-3): a jumped
 * column loses its top, so its new third is its old fourth, read from st;
 * the mover's column takes its prisoners at the bottom, in the order
 * jumped, so its second and third pieces are its own while it has them
 * and the first and second prisoners after.
 */
LA_INLINE void great_board(const Lean *b, int side, uint64_t fb, uint64_t tb,
                            uint64_t jumped, uint64_t first, uint64_t second,
                            int officer, Lean *cp)
{
    uint64_t gone = ~(fb | jumped);
    /* Third pieces by colour: s the mover's, e the other's; o officers.
     * A jumped column's new third is its old fourth. */
    uint64_t s3 = (b->own_third & gone) | (b->own_fourth & jumped);
    uint64_t e3 = (b->enemy_third & gone) | (b->enemy_fourth & jumped);
    uint64_t o3 = (b->officers_third & gone) | (b->officers_fourth & jumped);
    /* The mover's column's height, 3 standing for three or more. */
    int h = !((b->own_under | b->enemy_under) & fb)   ? 1
            : !((b->own_third | b->enemy_third) & fb) ? 2
                                                      : 3;
    Lean c;

    (void)side;
    lean_after(b, fb, tb, jumped, first, officer, &c);
    /* The mover's own third piece goes with it to tb; below a short
     * column, a prisoner: the commander it jumped first or second, of the
     * other colour. */
    s3 |= (b->own_third & fb) ? tb : 0;
    e3 |= (b->enemy_third & fb) ? tb : 0;
    o3 |= (b->officers_third & fb) ? tb : 0;
    if (jumped && h == 1) {
        e3 |= second ? tb : 0;
        o3 |= (b->officers & second) ? tb : 0;
    } else if (jumped && h == 2) {
        e3 |= tb;
        o3 |= (b->officers & first) ? tb : 0;
    }
    c.own_third = e3;
    c.enemy_third = s3;
    c.officers_third = o3;
    *cp = c;
}

LA_INLINE uint64_t great_move(const Lean *b, int side, uint64_t fb,
                              uint64_t tb, uint64_t jumped, uint64_t first,
                              uint64_t second, int officer)
{
    Lean c;

    great_board(b, side, fb, tb, jumped, first, second, officer, &c);
    return grand_push(&c, side ^ 1);
}

static uint64_t great_push(const Lean *b, int side);

/*
 * Perft 4 of the position after a move of board b's side (see
 * great_move; third, the third column jumped), b with five layers: the
 * child's fourth pieces too. A jumped column's new fourth is its old
 * fifth; the mover's column keeps its fourth or, shorter, takes a
 * prisoner there: for a column of three the first commander jumped, of
 * two the second, of one the third.
 */
LA_INLINE uint64_t five_move(const Lean *b, int side, uint64_t fb, uint64_t tb,
                             uint64_t jumped, uint64_t first, uint64_t second,
                             uint64_t third, int officer)
{
    uint64_t gone = ~(fb | jumped);
    uint64_t s4 = (b->own_fourth & gone) | (b->own_fifth & jumped);
    uint64_t e4 = (b->enemy_fourth & gone) | (b->enemy_fifth & jumped);
    uint64_t o4 = (b->officers_fourth & gone) | (b->officers_fifth & jumped);
    int h = !((b->own_under | b->enemy_under) & fb)     ? 1
            : !((b->own_third | b->enemy_third) & fb)   ? 2
            : !((b->own_fourth | b->enemy_fourth) & fb) ? 3
                                                        : 4;
    uint64_t prisoner = h == 3 ? first : h == 2 ? second : h == 1 ? third : 0;
    Lean c;

    great_board(b, side, fb, tb, jumped, first, second, officer, &c);
    s4 |= (b->own_fourth & fb) ? tb : 0;
    e4 |= (b->enemy_fourth & fb) ? tb : 0;
    o4 |= (b->officers_fourth & fb) ? tb : 0;
    if (jumped && prisoner) {
        e4 |= tb;
        o4 |= (b->officers & prisoner) ? tb : 0;
    }
    c.own_fourth = e4;
    c.enemy_fourth = s4;
    c.officers_fourth = o4;
    return great_push(&c, side ^ 1);
}

uint64_t LA_COUNT(core__laska_count_great_grandchildren)(const Laska_State *st,
                                                        Laska_Batch *q)
{
    Lean b;

    lean_init(&b, st);
    b.q = q;
    return great_push(&b, st->side);
}

uint64_t LA_COUNT(core__laska_count_five)(const Laska_State *st,
                                          Laska_Batch *q)
{
    Lean b;

    lean_init(&b, st);
    b.q = q;
    if ((b.own & b.officers) == 0)
        return st->side == CORE_WHITE ? soldier_moves(&b, CORE_WHITE, 2)
                                      : soldier_moves(&b, CORE_BLACK, 2);
    return st->side == CORE_WHITE ? officer_moves(&b, CORE_WHITE, 2)
                                  : officer_moves(&b, CORE_BLACK, 2);
}

/* Perft 4 of board b (its twelve words), side to move: put in q's
 * batch where there is a vector count (laska_batch.c), else walked now.
 * Returns what it counted now. */
static uint64_t great_push(const Lean *b, int side)
{
#if defined(__x86_64__) && defined(__GNUC__)
    Laska_Batch *q = b->q;
    if (q->kernel != NULL && q->kernel->great != NULL) {
        const uint64_t x[12] = {
            b->own,           b->enemy,       b->officers,   b->own_under,
            b->enemy_under,   b->officers_under, b->own_third, b->enemy_third,
            b->officers_third, b->own_fourth, b->enemy_fourth,
            b->officers_fourth};
        unsigned i = q->greats[side];
        for (int j = 0; j < 12; j++)
            q->great[side][j][i] = x[j];
        if (++q->greats[side] == LA_BATCH)
            great_flush(q, side);
        return 0;
    }
#endif
    return great_walk(b, side);
}

/* Perft 4 of board b (its twelve words), side to move, walked here. */
static uint64_t great_walk(const Lean *b, int side)
{
    if ((b->own & b->officers) == 0)
        return side == CORE_WHITE ? soldier_moves(b, CORE_WHITE, 1)
                                  : soldier_moves(b, CORE_BLACK, 1);
    return side == CORE_WHITE ? officer_moves(b, CORE_WHITE, 1)
                              : officer_moves(b, CORE_BLACK, 1);
}

#if defined(LA_COUNT_PRIMARY)
uint64_t core__laska_batch_total(Laska_Batch *q)
{
    /* Perft 4, then 3, then 2, then the move counts: each ply's
     * positions that its vectors leave out put positions in the next
     * ply's batches. */
    for (int side = 0; side < 2; side++)
        if (q->greats[side] != 0)
            great_flush(q, side);
    for (int side = 0; side < 2; side++)
        if (q->grands[side] != 0)
            grand_flush(q, side);
    for (int side = 0; side < 2; side++)
        if (q->nodes[side] != 0)
            node_flush(q, side);
    for (int side = 0; side < 2; side++)
        if (q->leaves[side] != 0)
            leaf_flush(q, side);
    return q->total;
}

int core__laska_plain(const Laska_State *st, unsigned plies)
{
    /* An irreversible move restarts the history and the quiet count
     * (core__laska_do); an officer's quiet move extends both. */
    return st->nhist + plies < LA_REPEAT_MIN &&
           st->quiet + plies < LA_MOVE_RULE && st->ply + plies < LA_PLY_CAP;
}

#if defined(LA_COUNT_DISPATCH)
size_t core__laska_count_popcnt(const Laska_State *st);
uint64_t core__laska_count_children_popcnt(const Laska_State *st,
                                           Laska_Batch *q);
uint64_t core__laska_count_grandchildren_popcnt(const Laska_State *st,
                                                Laska_Batch *q);
uint64_t core__laska_count_great_grandchildren_popcnt(const Laska_State *st,
                                                      Laska_Batch *q);
uint64_t core__laska_count_five_popcnt(const Laska_State *st, Laska_Batch *q);

/* The processor's feature bits, read by libgcc at start-up: one load. */
#define LA_HW() __builtin_cpu_supports("popcnt")

size_t core__laska_count(const Laska_State *st)
{
    return LA_HW() ? core__laska_count_popcnt(st)
                   : core__laska_count_portable(st);
}

uint64_t core__laska_count_children(const Laska_State *st, Laska_Batch *q)
{
    return LA_HW() ? core__laska_count_children_popcnt(st, q)
                   : core__laska_count_children_portable(st, q);
}

uint64_t core__laska_count_grandchildren(const Laska_State *st, Laska_Batch *q)
{
    return LA_HW() ? core__laska_count_grandchildren_popcnt(st, q)
                   : core__laska_count_grandchildren_portable(st, q);
}

uint64_t core__laska_count_great_grandchildren(const Laska_State *st,
                                               Laska_Batch *q)
{
    return LA_HW() ? core__laska_count_great_grandchildren_popcnt(st, q)
                   : core__laska_count_great_grandchildren_portable(st, q);
}

uint64_t core__laska_count_five(const Laska_State *st, Laska_Batch *q)
{
    return LA_HW() ? core__laska_count_five_popcnt(st, q)
                   : core__laska_count_five_portable(st, q);
}
#endif
#endif
