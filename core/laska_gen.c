/*
 * laska_gen.c: Laska's board geometry and its one move generator, which
 * lists moves for play, the bot and the protocol (core_moves), counts them
 * (status, perft's last ply) and counts the moves of every child without
 * making the moves (perft's last two plies). All three run the same code:
 * quiet moves as shifts of the commander bit sets, captures as a
 * depth-first search over those sets (D-LA-3..6); only what is done with
 * a finished move differs.
 *
 * Canonical order: when captures exist only captures are legal (D-LA-4);
 * moves are sorted by start square, then by their landing squares, all in
 * Lasker numbers, which is the order the generator visits them (board bits
 * ascend with Lasker numbers, and directions are tried towards ascending
 * square numbers).
 */
#include <string.h>

#include "laska_internal.h"

Laska_Tables core__la;
static int la_ready;

void core__laska_tables(void)
{
    Laska_Tables *t = &core__la;
    int n = 0;
    uint64_t seed = UINT64_C(0x4C61736B61313931); /* "Laska191" */

    if (la_ready)
        return;
    memset(t, 0, sizeof *t);
    memset(t->at, -1, sizeof t->at);
    memset(t->sq, -1, sizeof t->sq);
    memset(t->between, -1, sizeof t->between);
    for (int r = 0; r < 7; r++)
        for (int f = 0; f < 7; f++)
            if ((f + r) % 2 == 0) {
                t->at[f][r] = (int8_t)n;
                t->file[n] = (uint8_t)f;
                t->rank[n] = (uint8_t)r;
                t->bit[n] = (uint8_t)(r * 8 + f);
                t->sq[r * 8 + f] = (int8_t)n;
                t->board |= UINT64_C(1) << (r * 8 + f);
                if (r == 6)
                    t->last_rank[CORE_WHITE] |= UINT64_C(1) << (r * 8 + f);
                if (r == 0)
                    t->last_rank[CORE_BLACK] |= UINT64_C(1) << (r * 8 + f);
                n++;
            }
    for (int s = 0; s < LA_SQUARES; s++) {
        static const int df[4] = {-1, 1, -1, 1}, dr[4] = {-1, -1, 1, 1};
        for (int d = 0; d < 4; d++) {
            int f = t->file[s] + df[d], r = t->rank[s] + dr[d];
            t->nb[s][d] = (f < 0 || f > 6 || r < 0 || r > 6) ? (int8_t)-1
                                                             : t->at[f][r];
        }
    }
    for (int s = 0; s < LA_SQUARES; s++)
        for (int d = 0; d < 4; d++) {
            int mid = t->nb[s][d], land = mid < 0 ? -1 : t->nb[mid][d];
            if (land < 0)
                continue;
            int b = t->bit[s];
            t->between[s][land] = (int8_t)mid;
            t->jump_mid[b][d] = UINT64_C(1) << t->bit[mid];
            t->jump_land[b][d] = UINT64_C(1) << t->bit[land];
            t->jump_mid_at[b][d] = t->bit[mid];
            t->jump_to[b][d] = t->bit[land];
        }
    for (int s = 0; s < LA_SQUARES; s++)
        for (int d = 0; d < 24; d++)
            for (int p = 0; p < 4; p++)
                t->z[s][d][p] = core__splitmix64(&seed);
    t->z_side = core__splitmix64(&seed);
    la_ready = 1;
}

/*
 * Population counts without compiler builtins or a CPU instruction (the
 * portable build calls a library routine for __builtin_popcountll).
 * bytes_count gives the count of every byte in that byte.
 */
static inline uint64_t bytes_count(uint64_t x)
{
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) +
        ((x >> 2) & UINT64_C(0x3333333333333333));
    return (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
}

/* The sum of the bytes of x, each under 256. */
static inline unsigned bytes_sum(uint64_t x)
{
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/*
 * Two sets of board squares in one word: a square's bit is rank * 8 +
 * file with file + rank even, so within a byte (a rank) the squares sit on
 * every other bit and one bit to the left is always free and in the same
 * byte. pair(a, b) holds a's squares and b's moved one bit left; its count
 * is the sum of both counts.
 */
static inline uint64_t pair(uint64_t a, uint64_t b)
{
    return a | (b << 1);
}

/* A board bit moved one step in direction d (SW, SE down; NW, NE up). */
static inline uint64_t step(uint64_t b, int d)
{
    static const int amount[4] = {9, 7, 7, 9};
    return d < LA_NW ? b >> amount[d] : b << amount[d];
}

/* Soldiers move and jump forward only, officers every way (D-LA-3). */
static inline void movers(uint64_t own, uint64_t officers, int side,
                          uint64_t m[4])
{
    uint64_t offs = own & officers, soldiers = own & ~officers;
    m[LA_SW] = m[LA_SE] = offs | (side == CORE_BLACK ? soldiers : 0);
    m[LA_NW] = m[LA_NE] = offs | (side == CORE_WHITE ? soldiers : 0);
}

/* One travelling column: what its jumps depend on. */
typedef struct Jumper {
    uint64_t enemy; /* enemy commanders */
    uint64_t empty; /* empty squares, its start square included (D-LA-5) */
    uint64_t promo; /* where a soldier is promoted; 0 for an officer */
    int lo, hi;     /* the directions it may jump */
    int from;       /* its start, a board bit */
} Jumper;

/* A board from the side to move's view: its commanders and, where a
 * column has two pieces or more, the second piece from the top. */
typedef struct Board {
    uint64_t own, enemy, officers;
    uint64_t own_under, enemy_under, officers_under;
    int side;
} Board;

/* What is done with each move found: listed into a buffer (core_moves),
 * or the moves of the position it gives counted (perft at 2 plies), or
 * those of the positions after each reply (perft at 3 plies). */
enum { SINK_LIST, SINK_CHILDREN, SINK_GRANDCHILDREN };

typedef struct Sink {
    Board b;
    int mode;
    const Laska_State *st; /* grandchildren: the columns */
    int officer;           /* the capturing column's commander */
    uint64_t first_mid;    /* the first square it jumped */
    Core_Move *buf;        /* list */
    size_t cap;
    size_t n;
    int overflow;
    uint64_t total;        /* children, grandchildren: moves counted */
    uint8_t path[LA_SQUARES + 1]; /* Lasker squares, start first */
} Sink;

static inline uint64_t count_board(uint64_t own, uint64_t enemy,
                                   uint64_t officers, int side);
static uint64_t count_children(const Board *b);

static void list_move(Sink *k, const uint8_t *path, int len, int capture)
{
    if (k->n >= k->cap) {
        k->overflow = 1;
        return;
    }
    Core_Move *m = &k->buf[k->n++];
    memset(m, 0, sizeof *m);
    m->len = (uint8_t)len;
    m->flags = (uint8_t)capture;
    memcpy(m->b, path, (size_t)len);
}

/*
 * The second pieces of the position after a capture, from the mover's
 * view (c->enemy_under its own): the start square is empty; the column
 * on to is the mover's, whose second piece is its old one or, for a lone
 * piece, the first prisoner (the commander of first_mid); each jumped
 * column's second piece is its old third (D-LA-3).
 */
static void unders_after_capture(const Sink *k, uint64_t fb, uint64_t tb,
                                 uint64_t jumped, Board *c)
{
    const Board *b = &k->b;
    const Laska_State *st = k->st;
    uint64_t gone = ~(fb | jumped);
    uint64_t ou = b->own_under & gone, eu = b->enemy_under & gone;
    uint64_t uo = b->officers_under & gone;

    if ((b->own_under | b->enemy_under) & fb) {
        if (b->own_under & fb)
            ou |= tb;
        else
            eu |= tb;
        if (b->officers_under & fb)
            uo |= tb;
    } else {
        eu |= tb;
        if (b->officers & k->first_mid)
            uo |= tb;
    }
    for (uint64_t r = jumped & (b->own_under | b->enemy_under); r != 0;
         r &= r - 1) {
        int s = core__la.sq[__builtin_ctzll(r)];
        uint64_t mb = r & (~r + 1);
        if (st->height[s] < 3)
            continue;
        if (((st->colour[s] >> 2) & 1) == (uint32_t)b->side)
            ou |= mb;
        else
            eu |= mb;
        if ((st->officer[s] >> 2) & 1)
            uo |= mb;
    }
    c->own_under = eu;
    c->enemy_under = ou;
    c->officers_under = uo;
}

/*
 * A capture by j ended on board bit to, having jumped the bits in jumped:
 * list it, or count what follows it. Each jumped column is commanded by
 * its next piece, or left empty (D-LA-3).
 */
static void capture_end(Sink *k, const Jumper *j, int to, uint64_t jumped,
                        int len, int promoted)
{
    if (k->mode == SINK_LIST) {
        list_move(k, k->path, len, 1);
        return;
    }
    const Board *b = &k->b;
    uint64_t fb = UINT64_C(1) << j->from, tb = UINT64_C(1) << to;
    Board c;
    c.side = b->side ^ 1;
    c.enemy = (b->own & ~fb) | tb | (jumped & b->own_under);
    c.own = (b->enemy & ~jumped) | (jumped & b->enemy_under);
    c.officers = (b->officers & ~(fb | jumped)) |
                 (jumped & b->officers_under) |
                 (k->officer || promoted ? tb : 0);
    if (k->mode == SINK_CHILDREN) {
        k->total += count_board(c.own, c.enemy, c.officers, c.side);
        return;
    }
    unders_after_capture(k, fb, tb, jumped, &c);
    k->total += count_children(&c);
}

/*
 * Depth-first search of capture continuations (D-LA-4, D-LA-5, D-LA-6)
 * from board bit cur, len squares on the path so far; k NULL to count
 * only. Returns the number of complete captures. Jumped squares are never
 * landing squares (they lie on the other diagonal lattice), so a column
 * emptied by a jump needs no special case.
 */
static uint64_t capture_dfs(const Jumper *j, Sink *k, int cur,
                            uint64_t jumped, int len)
{
    const Laska_Tables *t = &core__la;
    uint64_t found = 0;

    for (int d = j->lo; d <= j->hi; d++) {
        uint64_t mb = t->jump_mid[cur][d], lb = t->jump_land[cur][d];
        if (!(j->enemy & mb & ~jumped) || !(j->empty & lb))
            continue;
        int land = t->jump_to[cur][d];
        if (k != NULL) {
            k->path[len] = (uint8_t)t->sq[land];
            if (len == 1)
                k->first_mid = mb;
        }
        /* Promotion ends the move (D-LA-6). */
        if (j->promo & lb) {
            found++;
            if (k != NULL)
                capture_end(k, j, land, jumped | mb, len + 1, 1);
        } else {
            found += capture_dfs(j, k, land, jumped | mb, len + 1);
        }
    }
    if (found == 0) { /* no further jump: the capture ends here */
        if (k != NULL)
            capture_end(k, j, cur, jumped, len, 0);
        return 1;
    }
    return found;
}

/* The jumper for a column starting on board bit from. */
static inline void jumper_at(Jumper *j, int from, int officer, int side,
                             uint64_t empty)
{
    j->from = from;
    j->promo = officer ? 0 : core__la.last_rank[side];
    j->lo = officer || side == CORE_BLACK ? LA_SW : LA_NW;
    j->hi = officer || side == CORE_WHITE ? LA_NE : LA_SE;
    j->empty = empty | (UINT64_C(1) << from);
}

/* List the captures of every start column, by start square in canonical
 * order; captures are compulsory (D-LA-4), so only columns with a first
 * jump are searched. */
static void captures(Sink *k, uint64_t starts, uint64_t empty)
{
    Jumper j;

    j.enemy = k->b.enemy;
    for (uint64_t b = starts; b != 0; b &= b - 1) {
        int from = __builtin_ctzll(b);
        k->officer = (int)((k->b.officers >> from) & 1);
        jumper_at(&j, from, k->officer, k->b.side, empty);
        k->path[0] = (uint8_t)core__la.sq[from];
        capture_dfs(&j, k, from, 0, 1);
    }
}

/* Squares from which a column could jump in each direction. */
static inline void jump_sets(uint64_t enemy, uint64_t empty, uint64_t a[4])
{
    a[LA_SW] = (enemy << 9) & (empty << 18);
    a[LA_SE] = (enemy << 7) & (empty << 14);
    a[LA_NW] = (enemy >> 7) & (empty >> 14);
    a[LA_NE] = (enemy >> 9) & (empty >> 18);
}

/*
 * The captures of a board, the moves captures() lists, with the first
 * jump of every column taken at once: a jump ends the move unless a
 * further jump exists from its landing square (for a soldier forwards
 * and not on its last rank; for an officer any way but back over the
 * square just jumped). The start square, empty now, could only be reached
 * by jumping back, so the jump sets a[] of the board serve. Only columns
 * that jump on are searched square by square. Counts them (k NULL), or
 * hands each to k (in no particular order).
 */
static inline uint64_t first_jumps(const uint64_t m[4], const uint64_t a[4],
                                   uint64_t enemy, uint64_t empty,
                                   uint64_t officers, int side, Sink *k)
{
    static const int amount[4] = {9, 7, 7, 9};
    uint64_t promo = core__la.last_rank[side], bytes = 0, found = 0;
    uint64_t forward = side == CORE_WHITE ? a[LA_NW] | a[LA_NE]
                                          : a[LA_SW] | a[LA_SE];
    Jumper j;

    j.enemy = enemy;
    for (int d = 0; d < 4; d++) {
        uint64_t first = m[d] & a[d];
        if (first == 0)
            continue;
        uint64_t on = a[d] | a[d ^ 1] | a[d ^ 2]; /* not back: d ^ 3 */
        uint64_t soldiers = step(step(first & ~officers, d), d);
        uint64_t chiefs = step(step(first & officers, d), d);
        uint64_t more = (soldiers & ~promo & forward) | (chiefs & on);
        uint64_t done = (soldiers | chiefs) & ~more;
        if (k == NULL)
            bytes += bytes_count(done);
        for (uint64_t b = k == NULL ? more : soldiers | chiefs; b != 0;
             b &= b - 1) {
            int land = __builtin_ctzll(b);
            int from = d < LA_NW ? land + 2 * amount[d] : land - 2 * amount[d];
            int officer = (int)((officers >> from) & 1);
            uint64_t mid = core__la.jump_mid[from][d];
            jumper_at(&j, from, officer, side, empty);
            if (k != NULL) {
                k->officer = officer;
                k->first_mid = mid;
            }
            if ((done >> land) & 1)
                capture_end(k, &j, land, mid, 2,
                            (int)((soldiers & promo) >> land) & 1);
            else
                found += capture_dfs(&j, k, land, mid, 2);
        }
    }
    return found + bytes_sum(bytes);
}

/* Bits x seen from the squares n bits behind them, for side: the
 * squares from which a step of n bits forward (up for White, down for
 * Black) reaches x. */
static inline uint64_t behind(uint64_t x, int n, int side)
{
    return side == CORE_WHITE ? x >> n : x << n;
}

static inline uint64_t ahead(uint64_t x, int n, int side)
{
    return side == CORE_WHITE ? x << n : x >> n;
}

/* The captures of soldiers that jump on from their first landing squares
 * l7, l9 (see count_soldiers), searched square by square. */
static uint64_t soldier_chains(uint64_t l7, uint64_t l9, uint64_t enemy,
                               uint64_t empty, int side)
{
    uint64_t found = 0;
    Jumper j;

    j.enemy = enemy;
    for (int i = 0; i < 2; i++) {
        int d = side == CORE_WHITE ? (i == 0 ? LA_NW : LA_NE)
                                   : (i == 0 ? LA_SE : LA_SW);
        int back = i == 0 ? 14 : 18;
        for (uint64_t b = i == 0 ? l7 : l9; b != 0; b &= b - 1) {
            int land = __builtin_ctzll(b);
            int from = side == CORE_WHITE ? land - back : land + back;
            jumper_at(&j, from, 0, side, empty);
            found += capture_dfs(&j, NULL, land, core__la.jump_mid[from][d],
                                 2);
        }
    }
    return found;
}

/*
 * count_board for a side without officers, the common case: first_jumps
 * with the two forward directions written out (White's NW and NE are
 * steps of 7 and 9 bits up, Black's SE and SW of 7 and 9 down).
 */
static inline uint64_t count_soldiers(uint64_t own, uint64_t enemy,
                                      uint64_t empty, int side)
{
    uint64_t a7 = behind(enemy, 7, side) & behind(empty, 14, side);
    uint64_t a9 = behind(enemy, 9, side) & behind(empty, 18, side);
    uint64_t j7 = own & a7, j9 = own & a9;
    uint64_t l7 = ahead(j7, 14, side), l9 = ahead(j9, 18, side);
    uint64_t on = (a7 | a9) & ~core__la.last_rank[side];
    uint64_t found = 0;

    /* Whether captures exist is a coin toss in Laska: the squares of
     * both counts are gathered and one word is chosen without a branch. */
    uint64_t quiet = pair(own & behind(empty, 7, side),
                          own & behind(empty, 9, side));
    uint64_t taken = pair(l7 & ~on, l9 & ~on);
    uint64_t word = (j7 | j9) != 0 ? taken : quiet;
    if (((l7 | l9) & on) != 0)
        found = soldier_chains(l7 & on, l9 & on, enemy, empty, side);
    return found + bytes_sum(bytes_count(word));
}

/* count_board when the side has officers. */
static uint64_t count_general(uint64_t own, uint64_t enemy, uint64_t empty,
                              uint64_t officers, int side)
{
    uint64_t m[4], a[4];

    movers(own, officers, side, m);
    jump_sets(enemy, empty, a);
    if ((m[0] & a[0]) | (m[1] & a[1]) | (m[2] & a[2]) | (m[3] & a[3]))
        return first_jumps(m, a, enemy, empty, officers, side, NULL);
    return bytes_sum(
        bytes_count(pair(m[LA_SW] & (empty << 9), m[LA_SE] & (empty << 7))) +
        bytes_count(pair(m[LA_NW] & (empty >> 7), m[LA_NE] & (empty >> 9))));
}

/* The number of legal moves of a board given by its commanders alone. */
static inline uint64_t count_board(uint64_t own, uint64_t enemy,
                                   uint64_t officers, int side)
{
    uint64_t empty = core__la.board & ~(own | enemy);

    if ((own & officers) == 0)
        return count_soldiers(own, enemy, empty, side);
    return count_general(own, enemy, empty, officers, side);
}

/* The quiet moves of k's board, which has no capture: one step to an
 * empty square. */
static void quiet_moves(Sink *k, const uint64_t can[4])
{
    const Board *b = &k->b;

    if (k->mode == SINK_LIST) {
        uint8_t path[2];
        uint64_t all = can[0] | can[1] | can[2] | can[3];
        for (uint64_t r = all; r != 0; r &= r - 1) {
            int from = __builtin_ctzll(r);
            for (int d = 0; d < 4; d++) {
                if (!((can[d] >> from) & 1))
                    continue;
                path[0] = (uint8_t)core__la.sq[from];
                path[1] = (uint8_t)core__la.sq[__builtin_ctzll(
                    step(UINT64_C(1) << from, d))];
                list_move(k, path, 2, 0);
            }
        }
        return;
    }
    uint64_t promo = core__la.last_rank[b->side];
    for (int d = 0; d < 4; d++)
        for (uint64_t r = can[d]; r != 0; r &= r - 1) {
            uint64_t fb = r & (~r + 1), tb = step(fb, d), both = fb | tb;
            uint64_t off = b->officers;
            if (off & fb)
                off ^= both;
            else
                off |= promo & tb; /* D-LA-6 */
            if (k->mode == SINK_CHILDREN) {
                k->total +=
                    count_board(b->enemy, b->own ^ both, off, b->side ^ 1);
                continue;
            }
            /* The column travels whole: its second piece with it. */
            Board c;
            c.side = b->side ^ 1;
            c.own = b->enemy;
            c.enemy = b->own ^ both;
            c.officers = off;
            c.own_under = b->enemy_under;
            c.enemy_under = b->own_under;
            c.officers_under = b->officers_under;
            if (c.own_under & fb)
                c.own_under ^= both;
            if (c.enemy_under & fb)
                c.enemy_under ^= both;
            if (c.officers_under & fb)
                c.officers_under ^= both;
            k->total += count_children(&c);
        }
}

static void run(Sink *k)
{
    const Board *b = &k->b;
    uint64_t empty = core__la.board & ~(b->own | b->enemy), m[4], a[4];
    uint64_t can[4];

    movers(b->own, b->officers, b->side, m);
    jump_sets(b->enemy, empty, a);
    uint64_t starts = (m[0] & a[0]) | (m[1] & a[1]) | (m[2] & a[2]) |
                      (m[3] & a[3]);
    if (starts != 0 && k->mode != SINK_LIST) {
        first_jumps(m, a, b->enemy, empty, b->officers, b->side, k);
        return;
    }
    if (starts != 0) {
        captures(k, starts, empty);
        return;
    }
    can[LA_SW] = m[LA_SW] & (empty << 9);
    can[LA_SE] = m[LA_SE] & (empty << 7);
    can[LA_NW] = m[LA_NW] & (empty >> 7);
    can[LA_NE] = m[LA_NE] & (empty >> 9);
    quiet_moves(k, can);
}

static void sink_init(Sink *k, const Laska_State *st, int mode)
{
    int white = st->side == CORE_WHITE;

    k->b.side = st->side;
    k->b.own = white ? st->white : st->black;
    k->b.enemy = white ? st->black : st->white;
    k->b.officers = st->officers;
    k->b.own_under = white ? st->under_white : st->under_black;
    k->b.enemy_under = white ? st->under_black : st->under_white;
    k->b.officers_under = st->under_officers;
    k->mode = mode;
    k->st = st;
    k->buf = NULL;
    k->cap = 0;
    k->n = 0;
    k->overflow = 0;
    k->total = 0;
}

/* The moves of every child of board b, counted. */
static uint64_t count_children(const Board *b)
{
    Sink k;

    k.b = *b;
    k.mode = SINK_CHILDREN;
    k.st = NULL;
    k.total = 0;
    run(&k);
    return k.total;
}

size_t core__laska_generate(const Laska_State *st, Core_Move *buf,
                            size_t cap, int *overflow)
{
    Sink k;

    sink_init(&k, st, SINK_LIST);
    k.buf = buf;
    k.cap = cap;
    run(&k);
    *overflow = k.overflow;
    return k.n;
}

size_t core__laska_count(const Laska_State *st)
{
    int side = st->side;
    return (size_t)count_board(side == CORE_WHITE ? st->white : st->black,
                               side == CORE_WHITE ? st->black : st->white,
                               st->officers, side);
}

uint64_t core__laska_count_children(const Laska_State *st)
{
    Sink k;

    sink_init(&k, st, SINK_CHILDREN);
    run(&k);
    return k.total;
}

uint64_t core__laska_count_grandchildren(const Laska_State *st)
{
    Sink k;

    sink_init(&k, st, SINK_GRANDCHILDREN);
    run(&k);
    return k.total;
}

int core__laska_plain(const Laska_State *st, unsigned plies)
{
    /* An irreversible move restarts the history and the quiet count
     * (core__laska_do); an officer's quiet move extends both. */
    return st->nhist + plies < LA_REPEAT_MIN &&
           st->quiet + plies < LA_MOVE_RULE && st->ply + plies < LA_PLY_CAP;
}
