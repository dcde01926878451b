/*
 * laska_internal.h: what the Laska files of core/ share (laska.c, the
 * game's table and text; laska_gen.c, geometry and move generation;
 * laska_count.c, counting moves without listing them; laska_make.c,
 * making and unmaking moves; laska_perft.c, perft).
 * Included only by core/laska*.c.
 *
 * Squares are numbered 0..24 in Lasker's order (his numbers minus one:
 * a1=0, c1=1, e1=2, g1=3, b2=4, ..., g7=24). A column is three words: its
 * height and two bit sets over its pieces, bit 0 the top (commander):
 * colour (1 = black) and rank (1 = officer). Bit sets of the commanders
 * (white, black, officer) drive move generation; they use an 8x8 layout
 * (board bit rank * 8 + file, file 7 always empty) so a diagonal step is
 * a shift by 7 or 9 that cannot wrap onto the board. Board bits ascend
 * with Lasker numbers.
 */
#ifndef TABULA_LASKA_INTERNAL_H
#define TABULA_LASKA_INTERNAL_H

#include <stdint.h>

#include "core_internal.h"

#define LA_SQUARES 25
#define LA_PIECES 11    /* per side at the start (seed: 11 stones each) */
#define LA_HIST_MAX 104 /* D-LA-8 window of 100 plies, plus the start */
#define LA_MOVE_RULE 100
#define LA_PLY_CAP 1000 /* gap G-LA-2, docs/rules/laska.md */
/* A third occurrence needs two earlier ones at least 4 plies apart in the
 * repetition window (each side must move away and back): no repetition
 * can be seen with fewer keys than this. */
#define LA_REPEAT_MIN 9
/* Proven bound: captures and quiet moves never mix; at most 11 columns
 * (44 quiet moves), and the trails of jumps over distinct squares from the
 * best 11 start squares of an otherwise empty board number 489
 * (docs/rules/laska.md, "Move count bound"). */
#define LA_MAX_MOVES 512

/* The board bits of the 25 squares (files 0..6 of ranks 0..6 with file +
 * rank even) and of the first and last ranks, as constants for the
 * counting code (core__la.board and core__la.last_rank hold the same). */
#define LA_BOARD UINT64_C(0x00552A552A552A55)
#define LA_RANK_1 UINT64_C(0x0000000000000055)
#define LA_RANK_7 UINT64_C(0x0055000000000000)

/* Directions, in ascending order of the square reached. */
enum { LA_SW, LA_SE, LA_NW, LA_NE };

typedef struct Laska_State {
    uint32_t colour[LA_SQUARES];  /* bit i: i-th piece from the top is black */
    uint32_t officer[LA_SQUARES]; /* bit i: i-th piece is an officer */
    uint8_t height[LA_SQUARES];   /* 0 = empty square */
    uint8_t side;                 /* CORE_WHITE or CORE_BLACK to move */
    uint8_t drawn;                /* a Core_Reason when drawn by rule, or 0 */
    uint16_t quiet;    /* plies since the last capture or soldier move */
    uint32_t ply;      /* plies since the start */
    uint64_t white;    /* board bits commanded by White */
    uint64_t black;    /* ... by Black */
    uint64_t officers; /* ... by an officer */
    /* Second pieces from the top, where a column has one: White's,
     * Black's, officers. They say who commands a column once it is
     * jumped, so perft can count two plies ahead from bit sets alone. */
    uint64_t under_white, under_black, under_officers;
    uint64_t key;   /* zobrist key of placement and side */
    uint16_t nhist; /* keys in hist, the last one the current position */
    uint64_t hist[LA_HIST_MAX]; /* last member: copied only up to nhist */
} Laska_State;

/* Geometry and zobrist keys, built once by core__laska_tables. */
typedef struct Laska_Tables {
    int8_t nb[LA_SQUARES][4]; /* neighbour per direction, or -1 */
    uint8_t file[LA_SQUARES], rank[LA_SQUARES];
    int8_t at[7][7];                        /* square at (file, rank), or -1 */
    uint8_t bit[LA_SQUARES];                /* board bit of a square */
    int8_t sq[64];                          /* square of a board bit, or -1 */
    int8_t between[LA_SQUARES][LA_SQUARES]; /* square jumped, or -1 */
    uint64_t board;                         /* board bits of the 25 squares */
    uint64_t last_rank[2];                  /* promotion rank of each side */
    /* Jumps by board bit and direction: the bit jumped (0 if none), the
     * bit landed on and its index. */
    uint64_t jump_mid[64][4];
    uint64_t jump_land[64][4];
    uint8_t jump_mid_at[64][4];
    uint8_t jump_to[64][4];
    uint64_t z[LA_SQUARES][24][4]; /* square, depth, piece code */
    uint64_t z_side;
} Laska_Tables;

extern Laska_Tables core__la;

/* Build core__la once (idempotent). */
void core__laska_tables(void);

/* ---- move generation (laska_gen.c) ----------------------------------- */

/* A board bit moved one step in direction d (SW, SE down; NW, NE up). */
static inline uint64_t core__laska_step(uint64_t b, int d)
{
    static const int amount[4] = {9, 7, 7, 9};
    return d < LA_NW ? b >> amount[d] : b << amount[d];
}

/* The commanders of own that may move in each direction: soldiers
 * forward only, officers every way (D-LA-3). */
static inline void core__laska_movers(uint64_t own, uint64_t officers, int side,
                                      uint64_t m[4])
{
    uint64_t offs = own & officers, soldiers = own & ~officers;
    m[LA_SW] = m[LA_SE] = offs | (side == CORE_BLACK ? soldiers : 0);
    m[LA_NW] = m[LA_NE] = offs | (side == CORE_WHITE ? soldiers : 0);
}

/* Squares from which a column could jump an enemy commander in each
 * direction, landing on an empty square. */
static inline void core__laska_jump_sets(uint64_t enemy, uint64_t empty,
                                         uint64_t a[4])
{
    a[LA_SW] = (enemy << 9) & (empty << 18);
    a[LA_SE] = (enemy << 7) & (empty << 14);
    a[LA_NW] = (enemy >> 7) & (empty >> 14);
    a[LA_NE] = (enemy >> 9) & (empty >> 18);
}

/*
 * The legal moves of st, ignoring st->drawn, in canonical order into
 * buf[0..cap): b[0] the start square, b[1..len-1] every landing square,
 * flags 1 for a capture. Returns how many there are; *overflow is set
 * when more than cap.
 */
size_t core__laska_generate(const Laska_State *st, Core_Move *buf, size_t cap,
                            int *overflow);

/* ---- counting moves (laska_count.c) ------------------------------------ */

/* How many legal moves st has, ignoring st->drawn. */
size_t core__laska_count(const Laska_State *st);

/* 1 when no position within plies moves of st can be drawn by
 * repetition, the 100-ply rule or the ply cap, else 0. */
int core__laska_plain(const Laska_State *st, unsigned plies);

/* ---- counting many positions at once (laska_batch.c) ------------------- */

/* Positions a batch holds per side before it is counted: a count's
 * set-up and its last, partly filled vectors are paid once a batch
 * (perft laska 18: 203 million nodes a second at 64, 217 million at 256,
 * no more at 512 or 1024). */
#define LA_BATCH 256

/*
 * What a vector count hands back (laska_count.c's functions, ctx its
 * batch): leaf, a position (side to move, commanders own and enemy,
 * officers) whose officers' captures that go on past the first jump it
 * left out; node, a position (Lean's first six words) whose perft 2 it
 * left out; grand, one (Lean's first nine words) whose perft 3 it left
 * out; great, one (Lean's twelve) whose perft 4 it left out. Each adds
 * what it counts to the batch's total.
 */
typedef struct Laska_Sink {
    void *ctx;
    void (*leaf)(void *ctx, int side, uint64_t own, uint64_t enemy,
                 uint64_t officers);
    void (*node)(void *ctx, int side, const uint64_t w[6]);
    void (*grand)(void *ctx, int side, const uint64_t w[9]);
    void (*great)(void *ctx, int side, const uint64_t w[12]);
} Laska_Sink;

/*
 * A processor's vector counts (laska_batch.c), each over n positions of
 * side to move (CORE_WHITE or CORE_BLACK), n a multiple of 8 up to
 * LA_BATCH; a position with no commanders counts 0, so pad with zeros.
 * Each returns its count; what it cannot count goes to the sink.
 *
 * count: the sum of the legal move counts (ignoring drawn status),
 * w[0][i] and w[1][i] the commanders of the side to move and of the
 * other, w[2][i] the officers (only those on w[0][i] are read).
 *
 * nodes: perft 2, the sum over each position's moves of the move counts
 * of the positions they give; w[0..5][i] as Lean's first six words in
 * laska_count.c (commanders, officers, second pieces by colour and
 * officers). grand: perft 3, w[0..8][i] as Lean's first nine (also the
 * third pieces). great: perft 4, w[0..11][i] as Lean's twelve (also the
 * fourth pieces). A position where an officer's first jump can go on
 * goes to the sink whole (a search). The three are NULL where the
 * processor has no vector compress (AVX2).
 */
typedef struct Laska_Kernel {
    uint64_t (*count)(int side, const uint64_t *const w[3], unsigned n,
                      const Laska_Sink *sink);
    uint64_t (*nodes)(int side, const uint64_t *const w[6], unsigned n,
                      const Laska_Sink *sink);
    uint64_t (*grand)(int side, const uint64_t *const w[9], unsigned n,
                      const Laska_Sink *sink);
    uint64_t (*great)(int side, const uint64_t *const w[12], unsigned n,
                      const Laska_Sink *sink);
} Laska_Kernel;

/* The vector counts this processor can run, fastest first, into out
 * (AVX-512's, AVX2's; none but on x86-64): how many, 0 to 2. */
size_t core__laska_batch_kernels(const Laska_Kernel *out[2]);

/* The first of them, or NULL: then positions are counted one at a
 * time, where they are found. */
const Laska_Kernel *core__laska_batch_kernel(void);

/* Positions gathered for counting, by side to move: those one ply from
 * the end of perft (leaf), two plies (node), three (grand) and four
 * (great), as Laska_Kernel takes them; total, the counts of the
 * positions counted so far. Start it zeroed, with kernel from
 * core__laska_batch_kernel. */
typedef struct Laska_Batch {
    uint64_t leaf[2][3][LA_BATCH];
    uint64_t node[2][6][LA_BATCH];
    uint64_t grand[2][9][LA_BATCH];
    uint64_t great[2][12][LA_BATCH];
    unsigned leaves[2], nodes[2], grands[2], greats[2];
    uint64_t total;
    const Laska_Kernel *kernel;
} Laska_Batch;

/*
 * Perft 2, 3 and 4 from st by bulk counting: the sum over st's moves of
 * the children's move counts, of the grandchildren's, or of the
 * great-grandchildren's. Part of the sum is returned, the rest is left
 * in q as positions one ply from the end of the count, to be counted
 * with others by core__laska_batch_total. Only valid when no position
 * that many plies ahead, the last excepted, can be drawn by rule, which
 * core__laska_plain tells.
 */
uint64_t core__laska_count_children(const Laska_State *st, Laska_Batch *q);
uint64_t core__laska_count_grandchildren(const Laska_State *st, Laska_Batch *q);
uint64_t core__laska_count_great_grandchildren(const Laska_State *st,
                                               Laska_Batch *q);
/* The same for perft 5, under the same condition. */
uint64_t core__laska_count_five(const Laska_State *st, Laska_Batch *q);

/* The counts of every position put in q: what the three functions
 * above left in it, the last batches counted now. */
uint64_t core__laska_batch_total(Laska_Batch *q);

/* ---- making moves (laska_make.c) -------------------------------------- */

/* What core__laska_undo needs to take a move back. */
typedef struct Laska_Undo {
    uint64_t white, black, officers, key, hist0;
    uint64_t under_white, under_black, under_officers;
    uint32_t ply;
    uint32_t colour, officer; /* the start square's column */
    uint16_t quiet, nhist;
    uint8_t height, side, drawn;
} Laska_Undo;

/* Zobrist key of everything repetition compares (placement, side). */
uint64_t core__laska_full_key(const Laska_State *st);

/* Rebuild the commander and second-piece bit sets at square s from its
 * column. */
void core__laska_set_commander(Laska_State *st, int s);

/* Threefold repetition (D-ALL-2), the 100-ply rule (D-LA-8) and the ply
 * cap (gap G-LA-2): set st->drawn. */
void core__laska_update_drawn(Laska_State *st);

/* How core__laska_do keeps the zobrist key: updated from st's, computed
 * afresh (st's is stale), or not at all, leaving st->key and the newest
 * history key stale: only for perft, when no position of the repetition
 * window it explores can be compared (fewer than LA_REPEAT_MIN keys). */
enum { LA_KEYS_UPDATE, LA_KEYS_FULL, LA_KEYS_NONE };

/* Apply a move that core__laska_generate listed for st; u (not NULL) gets
 * what undoing it needs. */
void core__laska_do(Laska_State *st, const Core_Move *mv, Laska_Undo *u,
                    int keys);

/* Take back the last core__laska_do(st, mv, u). Exact whenever the
 * history window was not full before the move, which holds for every
 * position with moves (nhist <= quiet + 1 <= LA_MOVE_RULE). */
void core__laska_undo(Laska_State *st, const Core_Move *mv,
                      const Laska_Undo *u);

/* The columns, bit sets and side of core__laska_do alone, for perft below
 * a node where core__laska_plain holds for every ply it explores: the
 * key, history, counters and drawn status are left as they are (and
 * stale until core__laska_undo_columns takes the move back). */
void core__laska_do_columns(Laska_State *st, const Core_Move *mv,
                            Laska_Undo *u);

/* Take back the last core__laska_do_columns(st, mv, u). */
void core__laska_undo_columns(Laska_State *st, const Core_Move *mv,
                              const Laska_Undo *u);

/* ---- counting (laska_perft.c) ----------------------------------------- */

int core__laska_perft(const void *st, unsigned depth, uint64_t *nodes);

/* core__laska_perft with the last ply counted by kernel (NULL: one
 * position at a time), not the processor's fastest: the tests hold
 * every kernel the processor can run to the same counts. Errors:
 * TB_E_NOMEM. */
int core__laska_perft_with(const void *st, unsigned depth,
                           const Laska_Kernel *kernel, uint64_t *nodes);

#endif /* TABULA_LASKA_INTERNAL_H */
