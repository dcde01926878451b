/*
 * laska.c: Laska (Emanuel Lasker, 1911; seed 003, decisions D-LA-*), the
 * 7x7 draughts game in which jumped pieces are not removed but put under
 * the jumping column as prisoners.
 *
 * The 25 playable squares are numbered 0..24 in Lasker's order (his numbers
 * minus one: a1=0, c1=1, e1=2, g1=3, b2=4, ..., g7=24). A column is three
 * words: its height and two bit sets over its pieces, bit 0 the top
 * (commander): colour (1 = black) and rank (1 = officer). Bit sets of the
 * commanders (white, black, officer) drive move generation; they use an
 * 8x8 layout (bit rank * 8 + file, file 7 always empty) so a diagonal step
 * is a shift by 7 or 9 that cannot wrap onto the board. The column words
 * are touched only when a move is made.
 *
 * Moves: b[0] is the start square, b[1..len-1] every landing square; flags
 * is 1 for a capture. Canonical order: when captures exist only captures
 * are legal (D-LA-4); moves are sorted by start square, then by their
 * landing squares, all in Lasker numbers, which is the order the generator
 * visits them (directions are tried towards ascending square numbers).
 */
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

#define LA_SQUARES 25
#define LA_PIECES 11    /* per side at the start (seed: 11 stones each) */
#define LA_HIST_MAX 104 /* D-LA-8 window of 100 plies, plus the start */
#define LA_MOVE_RULE 100
#define LA_PLY_CAP 1000 /* gap G-LA-2, docs/rules/laska.md */
/* Proven bound: captures and quiet moves never mix; at most 11 columns
 * (44 quiet moves), and the trails of jumps over distinct squares from the
 * best 11 start squares of an otherwise empty board number 489
 * (docs/rules/laska.md, "Move count bound"). */
#define LA_MAX_MOVES 512
#define LA_ENCODE_VERSION 1
#define LA_ID 1

/* Directions, in ascending order of the square reached. */
enum { LA_SW, LA_SE, LA_NW, LA_NE };

typedef struct Laska_State {
    uint32_t colour[LA_SQUARES];  /* bit i: i-th piece from the top is black */
    uint32_t officer[LA_SQUARES]; /* bit i: i-th piece is an officer */
    uint8_t height[LA_SQUARES];   /* 0 = empty square */
    uint8_t side;                 /* CORE_WHITE or CORE_BLACK to move */
    uint8_t drawn;                /* a Core_Reason when drawn by rule, or 0 */
    uint16_t quiet;  /* plies since the last capture or soldier move */
    uint32_t ply;    /* plies since the start */
    uint64_t white;    /* board bits (rank * 8 + file) commanded by White */
    uint64_t black;    /* ... by Black */
    uint64_t officers; /* ... by an officer */
    uint64_t key;      /* zobrist key of placement and side */
    uint16_t nhist;    /* keys in hist, the last one the current position */
    uint64_t hist[LA_HIST_MAX]; /* last member: copied only up to nhist */
} Laska_State;

/* Geometry, built once from coordinates. */
static int8_t la_nb[LA_SQUARES][4]; /* neighbour per direction, or -1 */
static uint8_t la_file[LA_SQUARES], la_rank[LA_SQUARES];
static int8_t la_at[7][7];           /* square at (file, rank), or -1 */
static uint8_t la_bit[LA_SQUARES];   /* board bit of a square */
static int8_t la_sq[64];             /* square of a board bit, or -1 */
static uint64_t la_board;            /* bits of the 25 squares */
static uint64_t la_jump_mid[LA_SQUARES][4]; /* bit jumped, 0 if none */
static uint64_t la_jump_land[LA_SQUARES][4]; /* bit landed on */
static int8_t la_jump_to[LA_SQUARES][4];     /* square landed on, or -1 */
static const int la_step[4] = {-9, -7, 7, 9}; /* SW, SE, NW, NE */
static uint64_t la_z[LA_SQUARES][24][4]; /* square, depth, piece code */
static uint64_t la_z_side;
static int la_ready;

static void la_init_tables(void)
{
    int n = 0;
    uint64_t seed = UINT64_C(0x4C61736B61313931); /* "Laska191" */

    if (la_ready)
        return;
    memset(la_at, -1, sizeof la_at);
    memset(la_sq, -1, sizeof la_sq);
    for (int r = 0; r < 7; r++)
        for (int f = 0; f < 7; f++)
            if ((f + r) % 2 == 0) {
                la_at[f][r] = (int8_t)n;
                la_file[n] = (uint8_t)f;
                la_rank[n] = (uint8_t)r;
                la_bit[n] = (uint8_t)(r * 8 + f);
                la_sq[r * 8 + f] = (int8_t)n;
                la_board |= UINT64_C(1) << (r * 8 + f);
                n++;
            }
    for (int s = 0; s < LA_SQUARES; s++) {
        static const int df[4] = {-1, 1, -1, 1}, dr[4] = {-1, -1, 1, 1};
        for (int d = 0; d < 4; d++) {
            int f = la_file[s] + df[d], r = la_rank[s] + dr[d];
            la_nb[s][d] = (f < 0 || f > 6 || r < 0 || r > 6)
                              ? (int8_t)-1
                              : la_at[f][r];
        }
    }
    for (int s = 0; s < LA_SQUARES; s++)
        for (int d = 0; d < 4; d++) {
            int mid = la_nb[s][d], land = mid < 0 ? -1 : la_nb[mid][d];
            la_jump_to[s][d] = (int8_t)land;
            if (land >= 0) {
                la_jump_mid[s][d] = UINT64_C(1) << la_bit[mid];
                la_jump_land[s][d] = UINT64_C(1) << la_bit[land];
            }
        }
    for (int s = 0; s < LA_SQUARES; s++)
        for (int d = 0; d < 24; d++)
            for (int p = 0; p < 4; p++)
                la_z[s][d][p] = core__splitmix64(&seed);
    la_z_side = core__splitmix64(&seed);
    la_ready = 1;
}

/* Piece code of the i-th piece of square s: colour * 2 + officer. */
static int piece_at(const Laska_State *st, int s, int i)
{
    return (int)(((st->colour[s] >> i) & 1) * 2 + ((st->officer[s] >> i) & 1));
}

static uint64_t column_key(const Laska_State *st, int s)
{
    uint64_t k = 0;
    for (int i = 0; i < st->height[s]; i++)
        k ^= la_z[s][i][piece_at(st, s, i)];
    return k;
}

static uint64_t full_key(const Laska_State *st)
{
    uint64_t k = st->side == CORE_BLACK ? la_z_side : 0;
    for (int s = 0; s < LA_SQUARES; s++)
        k ^= column_key(st, s);
    return k;
}

/* Rebuild the commander sets of square s from its column. */
static void set_commander(Laska_State *st, int s)
{
    uint64_t bit = UINT64_C(1) << la_bit[s];
    st->white &= ~bit;
    st->black &= ~bit;
    st->officers &= ~bit;
    if (st->height[s] == 0)
        return;
    if (st->colour[s] & 1)
        st->black |= bit;
    else
        st->white |= bit;
    if (st->officer[s] & 1)
        st->officers |= bit;
}

static int last_rank(int side)
{
    return side == CORE_WHITE ? 6 : 0;
}

/* D-LA-3: soldiers move forward only, officers both ways. */
static void directions(int side, int officer, int *lo, int *hi)
{
    if (officer) {
        *lo = LA_SW;
        *hi = LA_NE;
    } else if (side == CORE_WHITE) {
        *lo = LA_NW;
        *hi = LA_NE;
    } else {
        *lo = LA_SW;
        *hi = LA_SE;
    }
}

/* ---- move generation ------------------------------------------------ */

typedef struct Gen {
    Core_Move *buf;
    size_t cap;
    size_t n;
    int overflow;
} Gen;

static void emit(Gen *g, const uint8_t *path, int len, int capture)
{
    if (g->n >= g->cap) {
        g->overflow = 1;
        return;
    }
    Core_Move *m = &g->buf[g->n++];
    memset(m, 0, sizeof *m);
    m->len = (uint8_t)len;
    m->flags = (uint8_t)capture;
    memcpy(m->b, path, (size_t)len);
}

/*
 * Depth-first search of capture continuations (D-LA-4, D-LA-5, D-LA-6)
 * from path[len-1]. jumped: squares already jumped this move. Returns the
 * number of complete captures found (emitted when g->buf is set).
 */
static size_t capture_dfs(Gen *g, uint64_t empty, uint64_t enemy,
                          uint64_t jumped, int side, int officer,
                          uint8_t *path, int len)
{
    int lo, hi, cur = path[len - 1];
    size_t found = 0;

    directions(side, officer, &lo, &hi);
    for (int d = lo; d <= hi; d++) {
        uint64_t mbit = la_jump_mid[cur][d];
        if (!(enemy & mbit & ~jumped) || !(empty & la_jump_land[cur][d]))
            continue;
        int land = la_jump_to[cur][d];
        path[len] = (uint8_t)land;
        size_t more = 0;
        /* Promotion ends the move (D-LA-6). */
        if (officer || la_rank[land] != last_rank(side))
            more = capture_dfs(g, empty, enemy, jumped | mbit, side, officer,
                               path, len + 1);
        if (more == 0) {
            if (g != NULL)
                emit(g, path, len + 1, 1);
            found++;
        } else {
            found += more;
        }
    }
    return found;
}

/*
 * Generate (or, with g == NULL, count) the legal moves. Jumped squares are
 * never landing squares (they lie on the other diagonal lattice), so a
 * column emptied by a jump needs no special case; the start square is
 * empty while the column travels (D-LA-5).
 */
static uint64_t shift(uint64_t b, int step)
{
    return step > 0 ? b << step : b >> -step;
}

static size_t generate(const Laska_State *st, Gen *g)
{
    uint64_t own = st->side == CORE_WHITE ? st->white : st->black;
    uint64_t enemy = st->side == CORE_WHITE ? st->black : st->white;
    uint64_t empty = la_board & ~(st->white | st->black);
    uint64_t soldiers = own & ~st->officers, officers = own & st->officers;
    uint64_t movers[4], starts = 0;
    uint8_t path[LA_SQUARES + 1];
    size_t n = 0;

    /* D-LA-3: soldiers forward only, officers every way. */
    for (int d = 0; d < 4; d++) {
        int forward = (st->side == CORE_WHITE) == (d >= LA_NW);
        movers[d] = officers | (forward ? soldiers : 0);
        starts |= movers[d] & shift(enemy, -la_step[d]) &
                  shift(empty, -2 * la_step[d]);
    }
    /* Captures are compulsory (D-LA-4): only columns with a first jump
     * are searched. Board bits ascend with Lasker numbers, so the moves
     * come out in canonical order. */
    for (uint64_t b = starts; b != 0; b &= b - 1) {
        int s = la_sq[__builtin_ctzll(b)];
        path[0] = (uint8_t)s;
        n += capture_dfs(g, empty | (UINT64_C(1) << la_bit[s]), enemy, 0,
                         st->side, (int)((st->officers >> la_bit[s]) & 1),
                         path, 1);
    }
    if (n > 0)
        return n;
    if (g == NULL) {
        for (int d = 0; d < 4; d++)
            n += (size_t)__builtin_popcountll(movers[d] &
                                              shift(empty, -la_step[d]));
        return n;
    }
    for (int d = 0; d < 4; d++)
        movers[d] &= shift(empty, -la_step[d]); /* now: can step d */
    for (uint64_t b = own; b != 0; b &= b - 1) {
        int bit = __builtin_ctzll(b), s = la_sq[bit];
        for (int d = 0; d < 4; d++) {
            if (!((movers[d] >> bit) & 1))
                continue;
            path[0] = (uint8_t)s;
            path[1] = (uint8_t)la_sq[bit + la_step[d]];
            emit(g, path, 2, 0);
            n++;
        }
    }
    return n;
}

/* ---- making moves --------------------------------------------------- */

/* Threefold repetition (D-ALL-2), the 100-ply rule (D-LA-8) and the ply
 * cap (gap G-LA-2), checked after every move and on decode. */
static void update_drawn(Laska_State *st)
{
    int seen = 0;
    /* A third occurrence needs two earlier ones at least 4 plies apart
     * in the window (each side must move away and back). */
    if (st->nhist < 9 && st->quiet < LA_MOVE_RULE && st->ply < LA_PLY_CAP) {
        st->drawn = CORE_REASON_NONE;
        return;
    }
    for (int i = 0; i < st->nhist; i++)
        seen += st->hist[i] == st->key;
    if (seen >= 3)
        st->drawn = CORE_REASON_REPETITION;
    else if (st->quiet >= LA_MOVE_RULE || st->ply >= LA_PLY_CAP)
        st->drawn = CORE_REASON_MOVE_RULE;
    else
        st->drawn = CORE_REASON_NONE;
}

static void laska_make(void *vst, const Core_Move *mv)
{
    Laska_State *st = vst;
    int from = mv->b[0], to = mv->b[mv->len - 1];
    uint32_t colour = st->colour[from], officer = st->officer[from];
    int h = st->height[from];
    int was_soldier = !(officer & 1);
    uint64_t key = st->key ^ la_z_side ^ column_key(st, from);

    /* D-LA-3: each jumped column gives its commander to the bottom. */
    for (int i = 1; i < mv->len && mv->flags; i++) {
        int a = mv->b[i - 1], b = mv->b[i];
        int mid = la_at[(la_file[a] + la_file[b]) / 2]
                       [(la_rank[a] + la_rank[b]) / 2];
        key ^= column_key(st, mid);
        colour |= (st->colour[mid] & 1) << h;
        officer |= (st->officer[mid] & 1) << h;
        h++;
        st->colour[mid] >>= 1;
        st->officer[mid] >>= 1;
        st->height[mid]--;
        key ^= column_key(st, mid);
        set_commander(st, mid);
    }
    st->height[from] = 0;
    st->colour[from] = st->officer[from] = 0;
    set_commander(st, from);
    /* D-LA-6: a soldier commander reaching the last rank is promoted. */
    if (was_soldier && la_rank[to] == last_rank(st->side))
        officer |= 1;
    st->colour[to] = colour;
    st->officer[to] = officer;
    st->height[to] = (uint8_t)h;
    set_commander(st, to);
    key ^= column_key(st, to); /* to was empty, or is from itself */

    st->side ^= 1;
    st->ply++;
    st->key = key;
    if (mv->flags || was_soldier) {
        /* Irreversible for D-LA-8: the repetition window restarts too
         * (gap G-LA-1). */
        st->quiet = 0;
        st->nhist = 0;
    } else {
        st->quiet++;
    }
    if (st->nhist == LA_HIST_MAX) {
        memmove(st->hist, st->hist + 1,
                (LA_HIST_MAX - 1) * sizeof st->hist[0]);
        st->nhist--;
    }
    st->hist[st->nhist++] = st->key;
    update_drawn(st);
}

/* ---- the table's functions ------------------------------------------ */

static void set_start(Laska_State *st)
{
    memset(st, 0, sizeof *st);
    for (int s = 0; s < LA_SQUARES; s++) {
        if (la_rank[s] <= 2) {
            st->height[s] = 1;
        } else if (la_rank[s] >= 4) {
            st->height[s] = 1;
            st->colour[s] = 1;
        }
        set_commander(st, s);
    }
    st->side = CORE_WHITE; /* D-LA-1 */
    st->key = full_key(st);
    st->hist[0] = st->key;
    st->nhist = 1;
}

static int laska_init(void *vst, const char *options)
{
    la_init_tables();
    if (options[0] != '\0')
        return TB_E_OPTION; /* Laska has no match options. */
    set_start(vst);
    return 0;
}

static Core_Status laska_status(const void *vst)
{
    const Laska_State *st = vst;
    Core_Status s = {CORE_ONGOING, CORE_REASON_NONE};

    if (generate(st, NULL) == 0) { /* D-LA-7 */
        s.outcome = st->side == CORE_WHITE ? CORE_WIN_BLACK : CORE_WIN_WHITE;
        s.reason = CORE_REASON_NO_MOVES;
    } else if (st->drawn != CORE_REASON_NONE) {
        s.outcome = CORE_DRAW;
        s.reason = (Core_Reason)st->drawn;
    }
    return s;
}

static int laska_moves(const void *vst, Core_Move *buf, size_t cap,
                       size_t *n)
{
    const Laska_State *st = vst;
    Gen g = {buf, cap, 0, 0};

    *n = 0;
    if (st->drawn != CORE_REASON_NONE)
        return 0;
    generate(st, &g);
    if (g.overflow)
        return TB_E_TOOMANY;
    *n = g.n;
    return 0;
}

static int laska_side(const void *vst)
{
    return ((const Laska_State *)vst)->side;
}

static uint32_t laska_ply(const void *vst)
{
    return ((const Laska_State *)vst)->ply;
}

static uint64_t laska_key(const void *vst)
{
    return ((const Laska_State *)vst)->key;
}

/* Perft with bulk counting at the last ply; the history is copied only
 * as far as it is filled. */
static uint64_t perft_rec(const Laska_State *st, unsigned depth,
                          Core_Move *moves)
{
    if (st->drawn != CORE_REASON_NONE)
        return 0;
    if (depth == 1)
        return generate(st, NULL);
    Gen g = {moves, LA_MAX_MOVES, 0, 0};
    generate(st, &g);
    uint64_t total = 0;
    for (size_t i = 0; i < g.n; i++) {
        Laska_State child;
        memcpy(&child, st,
               offsetof(Laska_State, hist) + st->nhist * sizeof st->hist[0]);
        laska_make(&child, &moves[i]);
        total += perft_rec(&child, depth - 1, moves + LA_MAX_MOVES);
    }
    return total;
}

static int laska_perft(const void *vst, unsigned depth, uint64_t *nodes)
{
    *nodes = 1;
    if (depth == 0)
        return 0;
    Core_Move *moves = malloc((size_t)depth * LA_MAX_MOVES * sizeof *moves);
    if (moves == NULL)
        return TB_E_NOMEM;
    *nodes = perft_rec(vst, depth, moves);
    free(moves);
    return 0;
}

/* ---- canonical encoding --------------------------------------------- */

/* Bytes: id, version, side, ply (u32 LE), quiet (u16 LE); per square in
 * Lasker order its height then one piece code per piece, top first
 * (colour * 2 + officer); the history length (u16) and its keys (u64). */
static int laska_encode(const void *vst, uint8_t *buf, size_t cap,
                        size_t *len)
{
    const Laska_State *st = vst;
    size_t need = 9 + LA_SQUARES + 2 + (size_t)st->nhist * 8, n = 0;

    for (int s = 0; s < LA_SQUARES; s++)
        need += st->height[s];
    if (cap < need)
        return TB_E_SPACE;
    buf[n++] = LA_ID;
    buf[n++] = LA_ENCODE_VERSION;
    buf[n++] = st->side;
    core__put_u32(buf + n, st->ply);
    n += 4;
    core__put_u16(buf + n, st->quiet);
    n += 2;
    for (int s = 0; s < LA_SQUARES; s++) {
        buf[n++] = st->height[s];
        for (int i = 0; i < st->height[s]; i++)
            buf[n++] = (uint8_t)piece_at(st, s, i);
    }
    core__put_u16(buf + n, st->nhist);
    n += 2;
    for (int i = 0; i < st->nhist; i++, n += 8)
        core__put_u64(buf + n, st->hist[i]);
    *len = n;
    return 0;
}

/* Checks shared by decode and the position parser: at most 11 pieces a
 * side (seed), and no soldier commanding a column on its last rank (it
 * would have been promoted, D-LA-6). Fills the derived fields. */
static const char *finish_position(Laska_State *st)
{
    int count[2] = {0, 0};

    st->white = st->black = st->officers = 0;
    for (int s = 0; s < LA_SQUARES; s++) {
        for (int i = 0; i < st->height[s]; i++)
            count[(st->colour[s] >> i) & 1]++;
        set_commander(st, s);
        if (st->height[s] > 0 && !(st->officer[s] & 1) &&
            la_rank[s] == last_rank((int)(st->colour[s] & 1)))
            return "a soldier commands a column on its last rank";
    }
    if (count[0] > LA_PIECES || count[1] > LA_PIECES)
        return "more than 11 pieces of one colour";
    st->key = full_key(st);
    return NULL;
}

static int laska_decode(void *vst, const uint8_t *buf, size_t len)
{
    Laska_State *st = vst;
    size_t n = 9;
    int total = 0;

    la_init_tables();
    memset(st, 0, sizeof *st);
    if (len < n || buf[0] != LA_ID || buf[1] != LA_ENCODE_VERSION ||
        buf[2] > 1)
        return TB_E_ENCODING;
    st->side = buf[2];
    st->ply = core__get_u32(buf + 3);
    st->quiet = core__get_u16(buf + 7);
    if (st->ply > LA_PLY_CAP || st->quiet > LA_MOVE_RULE)
        return TB_E_ENCODING;
    for (int s = 0; s < LA_SQUARES; s++) {
        if (n >= len)
            return TB_E_ENCODING;
        int h = buf[n++];
        total += h;
        if (total > 2 * LA_PIECES || len - n < (size_t)h)
            return TB_E_ENCODING;
        for (int i = 0; i < h; i++) {
            uint8_t code = buf[n++];
            if (code > 3)
                return TB_E_ENCODING;
            st->colour[s] |= (uint32_t)(code >> 1) << i;
            st->officer[s] |= (uint32_t)(code & 1) << i;
        }
        st->height[s] = (uint8_t)h;
    }
    if (finish_position(st) != NULL || len - n < 2)
        return TB_E_ENCODING;
    st->nhist = core__get_u16(buf + n);
    n += 2;
    if (st->nhist < 1 || st->nhist > LA_HIST_MAX ||
        st->nhist > st->quiet + 1 || len - n != (size_t)st->nhist * 8)
        return TB_E_ENCODING;
    for (int i = 0; i < st->nhist; i++, n += 8)
        st->hist[i] = core__get_u64(buf + n);
    if (st->hist[st->nhist - 1] != st->key)
        return TB_E_ENCODING;
    update_drawn(st);
    return 0;
}

/* ---- notation (D-LA-9) ---------------------------------------------- */

static void put_square(Core_Text *t, int s)
{
    core__text_char(t, (char)('a' + la_file[s]));
    core__text_char(t, (char)('1' + la_rank[s]));
}

static int laska_move_format(const void *vst, const Core_Move *mv, char *buf,
                             size_t cap)
{
    Core_Text t;
    (void)vst;
    if (mv->len < 2 || mv->len > LA_SQUARES)
        return TB_E_ARG;
    core__text_init(&t, buf, cap);
    for (int i = 0; i < mv->len; i++) {
        if (mv->b[i] >= LA_SQUARES)
            return TB_E_ARG;
        if (i > 0)
            core__text_char(&t, mv->flags ? 'x' : '-');
        put_square(&t, mv->b[i]);
    }
    return core__text_end(&t);
}

static int adjacent(int a, int b)
{
    for (int d = 0; d < 4; d++)
        if (la_nb[a][d] == b)
            return 1;
    return 0;
}

/*
 * Read squares: algebraic ("c3", "b2xd4xf6") or Lasker's numbers
 * ("9-13", "17-13-9" with the jumped squares). Separators '-', 'x', ':'.
 * Fills path with the start and landing squares.
 */
static int read_path(const char *text, uint8_t *path, int *plen)
{
    int sq[LA_SQUARES + 2], n = 0, numeric = text[0] >= '0' && text[0] <= '9';
    const char *p = text;

    while (*p != '\0') {
        if (n == LA_SQUARES + 2)
            return TB_E_NOTATION;
        if (numeric) {
            int v = 0, digits = 0;
            while (*p >= '0' && *p <= '9' && digits < 3) {
                v = v * 10 + (*p++ - '0');
                digits++;
            }
            if (digits == 0 || v < 1 || v > LA_SQUARES)
                return TB_E_NOTATION;
            sq[n++] = v - 1;
        } else {
            if (p[0] < 'a' || p[0] > 'g' || p[1] < '1' || p[1] > '7')
                return TB_E_NOTATION;
            int s = la_at[p[0] - 'a'][p[1] - '1'];
            if (s < 0)
                return TB_E_NOTATION;
            sq[n++] = s;
            p += 2;
        }
        if (*p == '\0')
            break;
        if (*p != '-' && *p != 'x' && *p != 'X' && *p != ':')
            return TB_E_NOTATION;
        p++;
        if (*p == '\0')
            return TB_E_NOTATION;
    }
    if (n < 2)
        return TB_E_NOTATION;
    int all_adjacent = 1;
    for (int i = 1; i < n; i++)
        all_adjacent &= adjacent(sq[i - 1], sq[i]);
    *plen = 0;
    if (numeric && all_adjacent && n > 2) {
        /* Lasker 1911: every square passed, jumped ones included. */
        if (n % 2 == 0)
            return TB_E_NOTATION;
        for (int i = 0; i < n; i += 2) {
            if (i > 0) {
                int a = sq[i - 2], b = sq[i];
                int mf = la_file[a] + la_file[b], mr = la_rank[a] + la_rank[b];
                if (mf % 2 || mr % 2 || la_at[mf / 2][mr / 2] != sq[i - 1])
                    return TB_E_NOTATION;
            }
            path[(*plen)++] = (uint8_t)sq[i];
        }
        return 0;
    }
    for (int i = 0; i < n; i++)
        path[(*plen)++] = (uint8_t)sq[i];
    return 0;
}

static int laska_move_parse(const void *vst, const char *text, Core_Move *out)
{
    const Laska_State *st = vst;
    char copy[3 * (LA_SQUARES + 2) + 2];
    uint8_t path[LA_SQUARES + 2];
    Core_Move moves[LA_MAX_MOVES];
    Gen g = {moves, LA_MAX_MOVES, 0, 0};
    int plen = 0;
    size_t len = strlen(text), short_match = 0, which = 0;

    /* A trailing '*' marking promotion is ignored (D-LA-9). */
    if (len > 0 && text[len - 1] == '*')
        len--;
    if (len == 0 || len >= sizeof copy)
        return TB_E_NOTATION;
    memcpy(copy, text, len);
    copy[len] = '\0';
    int rc = read_path(copy, path, &plen);
    if (rc != 0)
        return rc;
    if (st->drawn != CORE_REASON_NONE)
        return TB_E_OVER;
    generate(st, &g);
    for (size_t i = 0; i < g.n; i++) {
        if (moves[i].len == plen && memcmp(moves[i].b, path, (size_t)plen) == 0) {
            *out = moves[i];
            return 0;
        }
        /* A capture given by its first and last squares only. */
        if (plen == 2 && moves[i].flags && moves[i].b[0] == path[0] &&
            moves[i].b[moves[i].len - 1] == path[1]) {
            short_match++;
            which = i;
        }
    }
    if (short_match == 1) {
        *out = moves[which];
        return 0;
    }
    return short_match > 1 ? TB_E_AMBIGUOUS : TB_E_ILLEGAL;
}

/* ---- position strings ----------------------------------------------- */

/* "SIDE COLUMN... QUIET PLY": side w or b; each column its square then
 * its pieces top first (W/B officers, w/b soldiers, D-LA-9), in Lasker
 * order; QUIET the plies since the last capture or soldier move; PLY the
 * plies since the start. */
static int laska_position_format(const void *vst, char *buf, size_t cap)
{
    const Laska_State *st = vst;
    static const char code[4] = {'w', 'W', 'b', 'B'};
    Core_Text t;

    core__text_init(&t, buf, cap);
    core__text_char(&t, st->side == CORE_WHITE ? 'w' : 'b');
    for (int s = 0; s < LA_SQUARES; s++) {
        if (st->height[s] == 0)
            continue;
        core__text_char(&t, ' ');
        put_square(&t, s);
        for (int i = 0; i < st->height[s]; i++)
            core__text_char(&t, code[piece_at(st, s, i)]);
    }
    core__text_char(&t, ' ');
    core__text_uint(&t, st->quiet);
    core__text_char(&t, ' ');
    core__text_uint(&t, st->ply);
    return core__text_end(&t);
}

/* Read a decimal number of at most 9 digits; -1 if not one. */
static long read_number(const char *p, size_t n)
{
    long v = 0;
    if (n == 0 || n > 9)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    return v;
}

static int laska_position_parse(void *vst, const char *text, char *why,
                                size_t why_cap)
{
    Laska_State *st = vst;
    const char *p = text;
    long numbers[2];
    int nnum = 0, total = 0;

    memset(st, 0, sizeof *st);
    while (*p == ' ')
        p++;
    if ((p[0] != 'w' && p[0] != 'b') || (p[1] != ' ' && p[1] != '\0'))
        return core__why(why, why_cap, TB_E_POSITION,
                         "expected 'w' or 'b' (side to move) first");
    st->side = p[0] == 'w' ? CORE_WHITE : CORE_BLACK;
    p++;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            break;
        size_t n = strcspn(p, " ");
        if (p[0] >= '0' && p[0] <= '9') {
            if (nnum == 2 || (numbers[nnum] = read_number(p, n)) < 0)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "expected two counters: QUIET PLY");
            nnum++;
        } else {
            if (nnum > 0)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "a column after the counters");
            if (n < 3 || p[0] < 'a' || p[0] > 'g' || p[1] < '1' ||
                p[1] > '7')
                return core__why(why, why_cap, TB_E_POSITION,
                                 "expected a column like d4WbbB");
            int s = la_at[p[0] - 'a'][p[1] - '1'];
            if (s < 0)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "a column on a square that is not played on");
            if (st->height[s] != 0)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "two columns on one square");
            total += (int)n - 2;
            if (total > 2 * LA_PIECES)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "more than 22 pieces");
            for (size_t i = 2; i < n; i++) {
                uint32_t bit = UINT32_C(1) << (i - 2);
                switch (p[i]) {
                case 'W': st->officer[s] |= bit; break;
                case 'w': break;
                case 'B': st->officer[s] |= bit; st->colour[s] |= bit; break;
                case 'b': st->colour[s] |= bit; break;
                default:
                    return core__why(why, why_cap, TB_E_POSITION,
                                     "pieces are W, B (officers), w, b");
                }
            }
            st->height[s] = (uint8_t)(n - 2);
        }
        p += n;
    }
    if (nnum == 1)
        return core__why(why, why_cap, TB_E_POSITION,
                         "expected two counters: QUIET PLY");
    if (nnum == 2) {
        if (numbers[0] > LA_MOVE_RULE || numbers[1] > LA_PLY_CAP ||
            numbers[0] > numbers[1])
            return core__why(why, why_cap, TB_E_POSITION,
                             "QUIET at most 100 and PLY, PLY at most 1000");
        st->quiet = (uint16_t)numbers[0];
        st->ply = (uint32_t)numbers[1];
    }
    const char *bad = finish_position(st);
    if (bad != NULL)
        return core__why(why, why_cap, TB_E_POSITION, bad);
    st->hist[0] = st->key;
    st->nhist = 1;
    update_drawn(st);
    return 0;
}

static int laska_options_format(const void *vst, char *buf, size_t cap)
{
    (void)vst;
    return core__copy_text(buf, cap, "");
}

/* ---- evaluation ----------------------------------------------------- */

/* The evaluation's weights, in hundredths of a soldier: a soldier
 * commanding a column, an officer commanding one, a rank of a commanding
 * soldier's advance, an own piece held under a commander (a reserve), an
 * enemy piece held under it (a prisoner), and the move. Fitted to 58912
 * self-play positions (Texel's method; the hand-set weights were 100,
 * 300, 6, 40, 25, 0; docs/engines.md). */
enum { LA_W_SOLDIER, LA_W_OFFICER, LA_W_ADVANCE, LA_W_RESERVE,
       LA_W_PRISONER, LA_W_TEMPO, LA_W_COUNT };
static const int32_t la_weight[LA_W_COUNT] = {100, 117, -11, 83, 135, -8};

/* Material as columns: a commander counts fully, own pieces under it are
 * reserves freed when the column is jumped, enemy prisoners are pieces the
 * opponent cannot use while the column stands; commanding soldiers are
 * weighted by their advance. */
static int32_t laska_evaluate(const void *vst)
{
    const Laska_State *st = vst;
    const int32_t *w = la_weight;
    int32_t score[2] = {0, 0};

    for (int s = 0; s < LA_SQUARES; s++) {
        int h = st->height[s];
        if (h == 0)
            continue;
        int owner = (int)(st->colour[s] & 1);
        int officer = (int)(st->officer[s] & 1);
        int32_t v = officer ? w[LA_W_OFFICER] : w[LA_W_SOLDIER];
        if (!officer)
            v += w[LA_W_ADVANCE] *
                 (owner == CORE_WHITE ? la_rank[s] : 6 - la_rank[s]);
        for (int i = 1; i < h; i++)
            v += (((st->colour[s] >> i) & 1) == (uint32_t)owner)
                     ? w[LA_W_RESERVE]
                     : w[LA_W_PRISONER];
        score[owner] += v;
    }
    return score[st->side] - score[st->side ^ 1] + w[LA_W_TEMPO];
}

/* core_move_forcing: 100 a jump, since every jump takes a prisoner (seed
 * 003); 0 for a quiet move. Reads only the move's capture flag and path
 * length (the move layout above), so it survives a new generator. */
static int32_t laska_forcing(const void *vst, const Core_Move *mv)
{
    (void)vst;
    if (!mv->flags || mv->len < 2 || mv->len > CORE_MOVE_BYTES)
        return 0;
    return 100 * (int32_t)(mv->len - 1);
}

/* ---- view ----------------------------------------------------------- */

/* 7x7, rank 7 on top; a column shows its commander and, when taller than
 * one piece, its height ("W3"); the detail lists it top first. */
static int laska_view(const void *vst, Core_View *v)
{
    const Laska_State *st = vst;
    static const char code[4] = {'w', 'W', 'b', 'B'};

    v->rows = 7;
    v->cols = 7;
    for (int r = 0; r < 7; r++) {
        v->row_label[r][0] = (char)('7' - r);
        v->col_label[r][0] = (char)('a' + r);
        for (int f = 0; f < 7; f++) {
            Core_Cell *c = &v->cell[r][f];
            int s = la_at[f][6 - r];
            c->owner = -1;
            if (s < 0) {
                c->kind = CORE_CELL_LIGHT;
                continue;
            }
            c->kind = CORE_CELL_DARK;
            c->name[0] = (char)('a' + f);
            c->name[1] = (char)('7' - r);
            int h = st->height[s];
            if (h == 0)
                continue;
            c->owner = (int8_t)(st->colour[s] & 1);
            c->glyph[0] = code[piece_at(st, s, 0)];
            if (h > 1) {
                c->glyph[1] = (char)(h >= 10 ? '0' + h / 10 : '0' + h);
                if (h >= 10)
                    c->glyph[2] = (char)('0' + h % 10);
            }
            for (int i = 0; i < h && i < (int)sizeof c->detail - 1; i++)
                c->detail[i] = code[piece_at(st, s, i)];
        }
    }
    return 0;
}

const Core_Game core__laska = {
    .name = "laska",
    .title = "Laska (Lasker 1911)",
    .move_hint = "a move like c3-d4, a capture like b2xd4xf6 (or b2xf6), "
                 "or Lasker's numbers like 9-13",
    .id = LA_ID,
    .state_size = sizeof(Laska_State),
    .max_moves = LA_MAX_MOVES,
    .encode_max = 9 + LA_SQUARES + 2 * LA_PIECES + 2 + LA_HIST_MAX * 8,
    .init = laska_init,
    .moves = laska_moves,
    .make = laska_make,
    .status = laska_status,
    .side = laska_side,
    .ply = laska_ply,
    .key = laska_key,
    .encode = laska_encode,
    .decode = laska_decode,
    .move_format = laska_move_format,
    .move_parse = laska_move_parse,
    .position_format = laska_position_format,
    .position_parse = laska_position_parse,
    .options_format = laska_options_format,
    .perft = laska_perft,
    .evaluate = laska_evaluate,
    .view = laska_view,
    .forcing = laska_forcing,
};
