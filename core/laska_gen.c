/*
 * laska_gen.c: Laska's board geometry and its move generator, which lists
 * moves for play, the bot, perft and the protocol (core_moves): quiet
 * moves as shifts of the commander bit sets, captures as a depth-first
 * search over those sets (D-LA-3..6). laska_count.c counts the same moves
 * without listing them.
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
            t->nb[s][d] =
                (f < 0 || f > 6 || r < 0 || r > 6) ? (int8_t)-1 : t->at[f][r];
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

/* One travelling column: what its jumps depend on. */
typedef struct Jumper {
    uint64_t enemy; /* enemy commanders */
    uint64_t empty; /* empty squares, its start square included (D-LA-5) */
    uint64_t promo; /* where a soldier is promoted; 0 for an officer */
    int lo, hi;     /* the directions it may jump */
} Jumper;

/* The moves listed so far into a caller's buffer. */
typedef struct Sink {
    Core_Move *buf;
    size_t cap;
    size_t n;
    int overflow;
    uint8_t path[LA_SQUARES + 1]; /* Lasker squares, start first */
} Sink;

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
 * Depth-first search of capture continuations (D-LA-4, D-LA-5, D-LA-6)
 * from board bit cur, len squares on the path so far, listing each
 * complete capture. Returns how many it found. Jumped squares are never
 * landing squares (they lie on the other diagonal lattice), so a column
 * emptied by a jump needs no special case.
 */
static uint64_t capture_dfs(const Jumper *j, Sink *k, int cur, uint64_t jumped,
                            int len)
{
    const Laska_Tables *t = &core__la;
    uint64_t found = 0;

    for (int d = j->lo; d <= j->hi; d++) {
        uint64_t mb = t->jump_mid[cur][d], lb = t->jump_land[cur][d];
        if (!(j->enemy & mb & ~jumped) || !(j->empty & lb))
            continue;
        k->path[len] = (uint8_t)t->sq[t->jump_to[cur][d]];
        /* Promotion ends the move (D-LA-6). */
        if (j->promo & lb) {
            found++;
            list_move(k, k->path, len + 1, 1);
        } else {
            found +=
                capture_dfs(j, k, t->jump_to[cur][d], jumped | mb, len + 1);
        }
    }
    if (found == 0) { /* no further jump: the capture ends here */
        list_move(k, k->path, len, 1);
        return 1;
    }
    return found;
}

/* List the captures of every start column, by start square in canonical
 * order; captures are compulsory (D-LA-4), so only columns with a first
 * jump are searched. */
static void captures(Sink *k, uint64_t starts, uint64_t enemy, uint64_t empty,
                     uint64_t officers, int side)
{
    Jumper j;

    j.enemy = enemy;
    for (uint64_t b = starts; b != 0; b &= b - 1) {
        int from = __builtin_ctzll(b);
        int officer = (int)((officers >> from) & 1);
        j.promo = officer ? 0 : core__la.last_rank[side];
        j.lo = officer || side == CORE_BLACK ? LA_SW : LA_NW;
        j.hi = officer || side == CORE_WHITE ? LA_NE : LA_SE;
        j.empty = empty | (UINT64_C(1) << from);
        k->path[0] = (uint8_t)core__la.sq[from];
        capture_dfs(&j, k, from, 0, 1);
    }
}

/* List the quiet moves (one step to an empty square) of the columns can[d]
 * in each direction d, by start square and then direction. */
static void quiet_moves(Sink *k, const uint64_t can[4])
{
    uint8_t path[2];
    uint64_t all = can[0] | can[1] | can[2] | can[3];

    for (uint64_t r = all; r != 0; r &= r - 1) {
        int from = __builtin_ctzll(r);
        for (int d = 0; d < 4; d++) {
            if (!((can[d] >> from) & 1))
                continue;
            path[0] = (uint8_t)core__la.sq[from];
            path[1] = (uint8_t)core__la.sq[__builtin_ctzll(
                core__laska_step(UINT64_C(1) << from, d))];
            list_move(k, path, 2, 0);
        }
    }
}

size_t core__laska_generate(const Laska_State *st, Core_Move *buf, size_t cap,
                            int *overflow)
{
    int side = st->side;
    uint64_t own = side == CORE_WHITE ? st->white : st->black;
    uint64_t enemy = side == CORE_WHITE ? st->black : st->white;
    uint64_t empty = core__la.board & ~(own | enemy), m[4], a[4], can[4];
    Sink k;

    k.buf = buf;
    k.cap = cap;
    k.n = 0;
    k.overflow = 0;
    core__laska_movers(own, st->officers, side, m);
    core__laska_jump_sets(enemy, empty, a);
    uint64_t starts =
        (m[0] & a[0]) | (m[1] & a[1]) | (m[2] & a[2]) | (m[3] & a[3]);
    if (starts != 0) {
        captures(&k, starts, enemy, empty, st->officers, side);
    } else {
        for (int d = 0; d < 4; d++)
            can[d] = m[d] & core__laska_step(empty, d ^ 3);
        quiet_moves(&k, can);
    }
    *overflow = k.overflow;
    return k.n;
}
