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
 * A population count without compiler builtins or a CPU instruction (the
 * portable build calls a library routine for __builtin_popcountll): the
 * four words are summed byte-wise, at most 4 * 8 per byte.
 */
static inline uint64_t bytes_count(uint64_t x)
{
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) +
        ((x >> 2) & UINT64_C(0x3333333333333333));
    return (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
}

static inline unsigned popcount4(uint64_t a, uint64_t b, uint64_t c,
                                 uint64_t d)
{
    uint64_t sum = bytes_count(a) + bytes_count(b) + bytes_count(c) +
                   bytes_count(d);
    return (unsigned)((sum * UINT64_C(0x0101010101010101)) >> 56);
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

/* What is done with finished moves besides counting them: listed into a
 * buffer (core_moves), or each child's moves counted (perft). */
typedef struct Sink {
    const Laska_State *st;
    uint64_t own, enemy, officers;
    int side;
    int children;          /* count children instead of listing */
    int officer;           /* the capturing column's commander */
    Core_Move *buf;
    size_t cap;
    size_t n;              /* moves listed or counted */
    int overflow;
    uint64_t total;        /* children: their moves */
    uint8_t path[LA_SQUARES + 1]; /* Lasker squares, start first */
} Sink;

static uint64_t count_board(uint64_t own, uint64_t enemy, uint64_t officers,
                            int side);

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
 * A capture by j ended on board bit to, having jumped the bits in jumped:
 * list it, or count the moves of the position it gives. Each jumped
 * column is commanded by its next piece, or left empty (D-LA-3).
 */
static void capture_end(Sink *k, const Jumper *j, int to, uint64_t jumped,
                        int len, int promoted)
{
    if (!k->children) {
        list_move(k, k->path, len, 1);
        return;
    }
    const Laska_State *st = k->st;
    uint64_t fb = UINT64_C(1) << j->from, tb = UINT64_C(1) << to;
    uint64_t own = (k->own & ~fb) | tb, enemy = k->enemy & ~jumped;
    uint64_t off = (k->officers & ~(fb | jumped)) |
                   (k->officer || promoted ? tb : 0);
    for (uint64_t b = jumped; b != 0; b &= b - 1) {
        int s = core__la.sq[__builtin_ctzll(b)];
        uint64_t mb = b & (~b + 1);
        if (st->height[s] < 2)
            continue;
        if (((st->colour[s] >> 1) & 1) == (uint32_t)k->side)
            own |= mb;
        else
            enemy |= mb;
        if ((st->officer[s] >> 1) & 1)
            off |= mb;
    }
    k->total += count_board(enemy, own, off, k->side ^ 1);
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
        if (k != NULL)
            k->path[len] = (uint8_t)t->sq[land];
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

/* Search the captures of every start column; captures are compulsory
 * (D-LA-4), so only columns with a first jump are searched. */
static uint64_t captures(uint64_t starts, uint64_t enemy, uint64_t empty,
                         uint64_t officers, int side, Sink *k)
{
    Jumper j;
    uint64_t found = 0;

    j.enemy = enemy;
    for (uint64_t b = starts; b != 0; b &= b - 1) {
        int from = __builtin_ctzll(b), officer = (int)((officers >> from) & 1);
        j.from = from;
        j.promo = officer ? 0 : core__la.last_rank[side];
        j.lo = officer || side == CORE_BLACK ? LA_SW : LA_NW;
        j.hi = officer || side == CORE_WHITE ? LA_NE : LA_SE;
        j.empty = empty | (UINT64_C(1) << from);
        if (k != NULL) {
            k->officer = officer;
            k->path[0] = (uint8_t)core__la.sq[from];
        }
        found += capture_dfs(&j, k, from, 0, 1);
    }
    return found;
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
 * The captures of a board, the moves captures() visits, with the first
 * jump of every column taken at once: a jump ends the move unless a
 * further jump exists from its landing square (for a soldier forwards
 * and not on its last rank; for an officer any way but back over the
 * square just jumped). The start square, empty now, could only be reached
 * by jumping back, so the jump sets a[] of the board serve. Only columns
 * that jump on are searched square by square. Counts them (k NULL), or
 * counts their children's moves into k (in no particular order).
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
            j.from = from;
            j.promo = officer ? 0 : promo;
            j.lo = officer || side == CORE_BLACK ? LA_SW : LA_NW;
            j.hi = officer || side == CORE_WHITE ? LA_NE : LA_SE;
            j.empty = empty | (UINT64_C(1) << from);
            if (k != NULL)
                k->officer = officer;
            if ((done >> land) & 1)
                capture_end(k, &j, land, core__la.jump_mid[from][d], 2,
                            (int)((soldiers & promo) >> land) & 1);
            else
                found += capture_dfs(&j, k, land, core__la.jump_mid[from][d],
                                     2);
        }
    }
    return found + ((bytes * UINT64_C(0x0101010101010101)) >> 56);
}

/* The number of legal moves of a board given by its commanders alone. */
static uint64_t count_board(uint64_t own, uint64_t enemy, uint64_t officers,
                            int side)
{
    uint64_t empty = core__la.board & ~(own | enemy), m[4], a[4];

    movers(own, officers, side, m);
    jump_sets(enemy, empty, a);
    if ((m[0] & a[0]) | (m[1] & a[1]) | (m[2] & a[2]) | (m[3] & a[3]))
        return first_jumps(m, a, enemy, empty, officers, side, NULL);
    return popcount4(m[LA_SW] & (empty << 9), m[LA_SE] & (empty << 7),
                     m[LA_NW] & (empty >> 7), m[LA_NE] & (empty >> 9));
}

static void sink_init(Sink *k, const Laska_State *st, int children)
{
    k->st = st;
    k->side = st->side;
    k->own = st->side == CORE_WHITE ? st->white : st->black;
    k->enemy = st->side == CORE_WHITE ? st->black : st->white;
    k->officers = st->officers;
    k->children = children;
    k->buf = NULL;
    k->cap = 0;
    k->n = 0;
    k->overflow = 0;
    k->total = 0;
}

/* The quiet moves, once no capture exists: one step to an empty square. */
static void quiet_moves(Sink *k, const uint64_t can[4])
{
    if (!k->children) {
        uint8_t path[2];
        uint64_t all = can[0] | can[1] | can[2] | can[3];
        for (uint64_t b = all; b != 0; b &= b - 1) {
            int from = __builtin_ctzll(b);
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
    uint64_t promo = core__la.last_rank[k->side];
    for (int d = 0; d < 4; d++)
        for (uint64_t b = can[d]; b != 0; b &= b - 1) {
            uint64_t fb = b & (~b + 1), tb = step(fb, d);
            uint64_t own = k->own ^ fb ^ tb, off = k->officers;
            if (off & fb)
                off ^= fb | tb;
            else
                off |= promo & tb; /* D-LA-6 */
            k->total += count_board(k->enemy, own, off, k->side ^ 1);
        }
}

static void run(Sink *k)
{
    uint64_t empty = core__la.board & ~(k->own | k->enemy), m[4], a[4];
    uint64_t can[4];

    movers(k->own, k->officers, k->side, m);
    jump_sets(k->enemy, empty, a);
    uint64_t starts = (m[0] & a[0]) | (m[1] & a[1]) | (m[2] & a[2]) |
                      (m[3] & a[3]);
    if (starts != 0 && k->children) {
        first_jumps(m, a, k->enemy, empty, k->officers, k->side, k);
        return;
    }
    if (starts != 0) { /* listed by start square, in canonical order */
        captures(starts, k->enemy, empty, k->officers, k->side, k);
        return;
    }
    can[LA_SW] = m[LA_SW] & (empty << 9);
    can[LA_SE] = m[LA_SE] & (empty << 7);
    can[LA_NW] = m[LA_NW] & (empty >> 7);
    can[LA_NE] = m[LA_NE] & (empty >> 9);
    quiet_moves(k, can);
}

size_t core__laska_generate(const Laska_State *st, Core_Move *buf,
                            size_t cap, int *overflow)
{
    Sink k;

    sink_init(&k, st, 0);
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

    sink_init(&k, st, 1);
    run(&k);
    return k.total;
}

int core__laska_children_plain(const Laska_State *st)
{
    /* An irreversible child restarts the history and the quiet count
     * (core__laska_do); an officer's quiet move extends both. */
    return st->nhist + 1 < LA_REPEAT_MIN && st->quiet + 1 < LA_MOVE_RULE &&
           st->ply + 1 < LA_PLY_CAP;
}
