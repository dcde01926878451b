/*
 * football.c: Football chess (Joseph Boyer, 1951; seed 001) as the core
 * game `football`. A 9x9 board without captures, a ball owned by nobody,
 * goals on e1 and e9. One core move is one whole turn (D-ALL-5, D-FC-8): an
 * optional piece move, then a chain of kicks by distinct pieces (D-FC-1,
 * D-FC-6), or `pass`. The generator walks every complete turn depth-first
 * and hands each one to a sink, the move list or the next perft ply, or
 * at perft's last ply only counts them (bulk perft), so nothing is
 * allocated while generating. The full
 * rules, notation, position string and the gaps filled (G-FC-*) are in
 * docs/rules/football.md.
 */
#include <string.h>

#include "core_internal.h"

/* ---- board geometry -------------------------------------------------- */

#define FC_FILES 9
#define FC_SQUARES 81
#define FC_E1 4  /* White's goal (rules-decisions, Football chess) */
#define FC_E9 76 /* Black's goal */
#define FC_E5 40 /* the ball's start square */

/* Pieces: 0 empty, 1..5 White K Q R B N, 6..10 Black K Q R B N. */
enum { FC_KING, FC_QUEEN, FC_ROOK, FC_BISHOP, FC_KNIGHT, FC_TYPES };
#define FC_PIECE(side, type) ((uint8_t)(1 + 5 * (side) + (type)))
#define FC_SIDE_OF(pc) (((pc)-1) / 5)
#define FC_TYPE_OF(pc) (((pc)-1) % 5)
#define FC_PIECE_MAX 10

static const char fc_letters[] = "KQRBNkqrbn";
/* Pieces per type a side may have (seed: the chess set without pawns). */
static const uint8_t fc_type_max[FC_TYPES] = {1, 1, 2, 2, 2};

/* G-FC-1: a draw after this many plies without a goal. */
#define FC_QUIET_MAX 100
/* Keys kept for D-ALL-2: every position since the last goal. */
#define FC_HISTORY (FC_QUIET_MAX + 1)
#define FC_GOALS_MAX 20 /* largest goals=N option */
/* A turn: piece move (2 bytes) + up to 8 kicks (2 bytes each). */
#define FC_KICKS_MAX 8
/* Bound on the turns of one position: the worst measured (111 044) with a
 * margin, not a proof; core_play does not depend on it (fc_legal). See
 * docs/rules/football.md, "How many turns a position has". */
#define FC_MAX_MOVES (1u << 20)
#define FC_ENCODE_HEAD 93
#define FC_ENCODE_MAX (FC_ENCODE_HEAD + 8 * FC_HISTORY)
/* Core_Move.flags: the turn starts with a piece move. */
#define FC_FLAG_PIECE_MOVE 1u

typedef struct Fc_State {
    uint8_t board[FC_SQUARES];
    uint8_t ball;     /* square of the ball */
    uint8_t side;     /* CORE_WHITE / CORE_BLACK to move */
    uint8_t goals;    /* goals to win the match (option, D-FC-7) */
    uint8_t score[2]; /* goals scored by White, Black */
    uint8_t quiet;    /* plies since the last goal (G-FC-1) */
    uint8_t outcome;  /* derived: Core_Outcome */
    uint8_t reason;   /* derived: Core_Reason */
    uint8_t nhist;    /* keys in hist, the last is the current key */
    uint32_t ply;     /* plies since the game's start */
    uint64_t key;     /* zobrist key of the current position */
    uint64_t hist[FC_HISTORY];
} Fc_State;

static int fc_file(int sq)
{
    return sq % FC_FILES;
}

static int fc_rank(int sq)
{
    return sq / FC_FILES;
}

static int fc_on_board(int f, int r)
{
    return f >= 0 && f < FC_FILES && r >= 0 && r < FC_FILES;
}

static int fc_is_goal(int sq)
{
    return sq == FC_E1 || sq == FC_E9;
}

/* D-FC-5: a ball on rank 1 or 9 may not be kicked into or across a goal. */
static int fc_goal_rank(int sq)
{
    return fc_rank(sq) == 0 || fc_rank(sq) == FC_FILES - 1;
}

static int fc_adjacent(int a, int b)
{
    int df = fc_file(a) - fc_file(b), dr = fc_rank(a) - fc_rank(b);
    return a != b && df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
}

static const int8_t fc_king_df[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static const int8_t fc_king_dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
/* Knight leaps in ascending order of the square they reach. */
static const int8_t fc_knight_df[8] = {-1, 1, -2, 2, -2, 2, -1, 1};
static const int8_t fc_knight_dr[8] = {-2, -2, -1, -1, 1, 1, 2, 2};

/* The squares a king step and a knight's leap from each square, as two
 * words of square bits (bit sq & 63 of word sq >> 6, as fc_mark sets
 * them), built by the preprocessor (FC_NB_ON is fc_on_board as a constant
 * expression): no table is filled at run time. */
#define FC_NB_ON(f, r)                                                         \
    ((f) >= 0 && (f) < FC_FILES && (r) >= 0 && (r) < FC_FILES)
#define FC_NB_BIT(f, r, w)                                                     \
    (FC_NB_ON(f, r) && ((r)*FC_FILES + (f)) / 64 == (w)                        \
         ? UINT64_C(1) << ((unsigned)((r)*FC_FILES + (f) + 128) & 63u)         \
         : 0)
#define FC_NB_F(s) ((s) % FC_FILES)
#define FC_NB_R(s) ((s) / FC_FILES)
#define FC_NB_K(s, w)                                                          \
    (FC_NB_BIT(FC_NB_F(s) - 1, FC_NB_R(s) - 1, w) |                            \
     FC_NB_BIT(FC_NB_F(s), FC_NB_R(s) - 1, w) |                                \
     FC_NB_BIT(FC_NB_F(s) + 1, FC_NB_R(s) - 1, w) |                            \
     FC_NB_BIT(FC_NB_F(s) - 1, FC_NB_R(s), w) |                                \
     FC_NB_BIT(FC_NB_F(s) + 1, FC_NB_R(s), w) |                                \
     FC_NB_BIT(FC_NB_F(s) - 1, FC_NB_R(s) + 1, w) |                            \
     FC_NB_BIT(FC_NB_F(s), FC_NB_R(s) + 1, w) |                                \
     FC_NB_BIT(FC_NB_F(s) + 1, FC_NB_R(s) + 1, w))
#define FC_NB_N(s, w)                                                          \
    (FC_NB_BIT(FC_NB_F(s) - 1, FC_NB_R(s) - 2, w) |                            \
     FC_NB_BIT(FC_NB_F(s) + 1, FC_NB_R(s) - 2, w) |                            \
     FC_NB_BIT(FC_NB_F(s) - 2, FC_NB_R(s) - 1, w) |                            \
     FC_NB_BIT(FC_NB_F(s) + 2, FC_NB_R(s) - 1, w) |                            \
     FC_NB_BIT(FC_NB_F(s) - 2, FC_NB_R(s) + 1, w) |                            \
     FC_NB_BIT(FC_NB_F(s) + 2, FC_NB_R(s) + 1, w) |                            \
     FC_NB_BIT(FC_NB_F(s) - 1, FC_NB_R(s) + 2, w) |                            \
     FC_NB_BIT(FC_NB_F(s) + 1, FC_NB_R(s) + 2, w))
#define FC_NB(s)                                                               \
    {                                                                          \
        {FC_NB_K(s, 0), FC_NB_K(s, 1)},                                        \
        {                                                                      \
            FC_NB_N(s, 0), FC_NB_N(s, 1)                                       \
        }                                                                      \
    }
#define FC_NB_ROW(r)                                                           \
    FC_NB(FC_FILES *(r)), FC_NB(FC_FILES *(r) + 1), FC_NB(FC_FILES *(r) + 2),  \
        FC_NB(FC_FILES *(r) + 3), FC_NB(FC_FILES *(r) + 4),                    \
        FC_NB(FC_FILES *(r) + 5), FC_NB(FC_FILES *(r) + 6),                    \
        FC_NB(FC_FILES *(r) + 7), FC_NB(FC_FILES *(r) + 8)

static const struct {
    uint64_t king[2], knight[2];
} fc_nb[FC_SQUARES] = {FC_NB_ROW(0), FC_NB_ROW(1), FC_NB_ROW(2),
                       FC_NB_ROW(3), FC_NB_ROW(4), FC_NB_ROW(5),
                       FC_NB_ROW(6), FC_NB_ROW(7), FC_NB_ROW(8)};

/* D-FC-3: may a piece of this type kick (or slide) along (df, dr)? */
static int fc_type_moves_along(int type, int df, int dr)
{
    int diagonal = df != 0 && dr != 0;
    if (type == FC_ROOK)
        return !diagonal;
    if (type == FC_BISHOP)
        return diagonal;
    return 1;
}

/* ---- zobrist keys ---------------------------------------------------- */

/* Keys come from splitmix64 with a fixed seed, one per index, so no table
 * and no initialisation order are needed. Indices: piece p on square s at
 * p * 81 + s (p = 1..10), the ball at 11 * 81 + s, then Black to move,
 * then the score. */
static uint64_t fc_zobrist(uint32_t index)
{
    uint64_t s = UINT64_C(0x466F6F7462616C6C) +
                 (uint64_t)index * UINT64_C(0x9E3779B97F4A7C15);
    return core__splitmix64(&s);
}

static uint64_t fc_compute_key(const Fc_State *st)
{
    uint64_t k = 0;
    for (int sq = 0; sq < FC_SQUARES; sq++)
        if (st->board[sq] != 0)
            k ^=
                fc_zobrist((uint32_t)st->board[sq] * FC_SQUARES + (uint32_t)sq);
    k ^= fc_zobrist(11u * FC_SQUARES + st->ball);
    if (st->side == CORE_BLACK)
        k ^= fc_zobrist(12u * FC_SQUARES);
    k ^= fc_zobrist(12u * FC_SQUARES + 1u + st->score[0] * 32u + st->score[1]);
    return k;
}

/* ---- status (D-FC-5, D-FC-7, D-ALL-2, G-FC-1) ------------------------ */

static void fc_update_status(Fc_State *st)
{
    int reps = 0;
    st->outcome = CORE_ONGOING;
    st->reason = CORE_REASON_NONE;
    if (st->score[CORE_WHITE] >= st->goals) {
        st->outcome = CORE_WIN_WHITE;
        st->reason = CORE_REASON_GOAL;
        return;
    }
    if (st->score[CORE_BLACK] >= st->goals) {
        st->outcome = CORE_WIN_BLACK;
        st->reason = CORE_REASON_GOAL;
        return;
    }
    for (int i = 0; i < st->nhist; i++)
        reps += st->hist[i] == st->key;
    if (reps >= 3) {
        st->outcome = CORE_DRAW;
        st->reason = CORE_REASON_REPETITION;
    } else if (st->quiet >= FC_QUIET_MAX) {
        st->outcome = CORE_DRAW;
        st->reason = CORE_REASON_MOVE_RULE;
    }
}

/* The start placement (seed; D-FC board): pieces and ball only. */
static void fc_set_start_placement(Fc_State *st)
{
    static const uint8_t back[FC_FILES] = {FC_ROOK,   FC_KNIGHT, FC_BISHOP,
                                           FC_QUEEN,  FC_TYPES,  FC_KING,
                                           FC_BISHOP, FC_KNIGHT, FC_ROOK};
    memset(st->board, 0, sizeof st->board);
    for (int f = 0; f < FC_FILES; f++) {
        if (back[f] == FC_TYPES)
            continue; /* e1 and e9 are the goals */
        st->board[f] = FC_PIECE(CORE_WHITE, back[f]);
        st->board[8 * FC_FILES + f] = FC_PIECE(CORE_BLACK, back[f]);
    }
    st->ball = FC_E5;
}

/* Start a fresh stretch of play: history holds only the current key. */
static void fc_restart_history(Fc_State *st)
{
    st->key = fc_compute_key(st);
    st->nhist = 1;
    st->hist[0] = st->key;
    fc_update_status(st);
}

/* ---- options (D-FC-7) ------------------------------------------------ */

static int fc_option(void *ctx, const char *key, const char *val)
{
    Fc_State *st = ctx;
    uint64_t v = 0;
    if (strcmp(key, "goals") != 0)
        return TB_E_OPTION;
    if (core_read_uint_all(val, strlen(val), FC_GOALS_MAX, &v) != 0 || v < 1)
        return TB_E_OPTION;
    st->goals = (uint8_t)v;
    return 0;
}

static int fc_init(void *vst, const char *options)
{
    Fc_State *st = vst;
    memset(st, 0, sizeof *st);
    st->goals = 1;
    int rc = core__options_each(options, fc_option, st);
    if (rc != 0)
        return rc;
    fc_set_start_placement(st);
    st->side = CORE_WHITE; /* D-ALL-4 */
    fc_restart_history(st);
    return 0;
}

static int fc_options_format(const void *vst, char *buf, size_t cap)
{
    const Fc_State *st = vst;
    Core_Text t;
    core__text_init(&t, buf, cap);
    if (st->goals != 1) {
        core__text_str(&t, "goals=");
        core__text_uint(&t, st->goals);
    }
    return core__text_end(&t);
}

/* ---- turn generation ------------------------------------------------- */

/*
 * The generator builds one turn in g->cur and calls the sink at every
 * point where the player may stop (D-FC-8). board is the placement after
 * the piece move; the ball's square is tracked separately. A sink returns
 * 0 to go on or an error to stop.
 */
typedef struct Fc_Gen Fc_Gen;
typedef int (*Fc_Sink)(Fc_Gen *g, int ball);

struct Fc_Gen {
    const Fc_State *st;
    uint8_t board[FC_SQUARES];
    Core_Move cur;
    Fc_Sink sink;
    int side; /* the side whose turns: st's, or the other's (threats) */
    /* Sink contexts. */
    Core_Move *buf;
    size_t cap;
    size_t n;
    uint64_t nodes;
    unsigned depth;
    /* The walk for a search (fc_moves_distinct, fc_forcing_find): with
     * memo set, a kick chain does not go on from the ball on a square
     * from which the walk already went on, to the end, under the same
     * piece move with a subset of the pieces kicked now (fc_dominated):
     * all it could reach was reached then. bit[sq]: the mover's piece on
     * sq as one bit of mask (a side has at most 8 pieces); visited[sq]:
     * the masks walked to the end with the ball on sq, its rows listed
     * in dirty[] and cleared at the next piece move. seen[sq] == stamp:
     * a turn of this piece move with its ball ending on sq is listed. */
    int memo;
    uint8_t mask;
    uint8_t ndirty;
    uint16_t stamp;
    uint8_t bit[FC_SQUARES];
    uint8_t dirty[FC_SQUARES];
    uint16_t seen[FC_SQUARES];
    uint32_t visited[FC_SQUARES][8];
    /* After the turns without a piece move (memo): reads[], the squares
     * whose contents their walk may have read, and buf[pass0..pass1),
     * the turns it listed. A piece move touching neither of its squares
     * leaves that walk as it was, so its turns are those same chains
     * (listed again with the piece move in front when relist is set). */
    int relist;
    uint64_t reads[2];
    size_t pass0, pass1;
    /* The pieces that may kick now (the mover's, not kicked this turn,
     * D-FC-6) as bits, bit f + 1 of row r + 1 for
     * the piece on (f, r). Rows 0 and 10 and bits 0 and 10 stay clear, so
     * a ball's neighbours are read with no board-edge test. */
    uint16_t kick_rows[FC_FILES + 2];
};

/* Landing squares of a kick by the piece on `from` of a ball on `ball`
 * (D-FC-4, D-FC-5), in ascending square order; returns how many (<= 8). */
static int fc_kick_landings(const uint8_t *board, int from, int ball,
                            uint8_t out[8])
{
    int type = FC_TYPE_OF(board[from]);
    int df = fc_file(ball) - fc_file(from), dr = fc_rank(ball) - fc_rank(from);
    int bf = fc_file(ball), br = fc_rank(ball);
    int goal_rank = fc_goal_rank(ball);
    int n = 0;

    if (!fc_type_moves_along(type, df, dr))
        return 0; /* D-FC-3 */
    if (type == FC_KNIGHT) {
        /* The leaps from the ball not next to the knight, in ascending
         * square order (bit order, the low word first). */
        for (int w = 0; w < 2; w++)
            for (uint64_t x = fc_nb[ball].knight[w] & ~fc_nb[from].king[w];
                 x != 0; x &= x - 1) {
                int sq = 64 * w + __builtin_ctzll(x);
                if (board[sq] != 0 || (goal_rank && fc_is_goal(sq)))
                    continue;
                out[n++] = (uint8_t)sq;
            }
        return n;
    }
    /* The squares onward on the board, a king's one at most, and never
     * more than FC_FILES - 1 (the most a line on the board holds past
     * its first square, which also bounds out[] for the compiler). */
    int steps = type == FC_KING ? 1 : FC_FILES - 1;
    int fx = df > 0 ? FC_FILES - 1 - bf : df < 0 ? bf : FC_FILES - 1;
    int rx = dr > 0 ? FC_FILES - 1 - br : dr < 0 ? br : FC_FILES - 1;
    steps = steps < fx ? steps : fx;
    steps = steps < rx ? steps : rx;
    for (int step = 0, sq = ball; step < steps; step++) {
        sq += df + FC_FILES * dr;
        if (board[sq] != 0 || (goal_rank && fc_is_goal(sq)))
            break;
        out[n++] = (uint8_t)sq;
        if (fc_is_goal(sq))
            break; /* a goal ends the flight and the turn */
    }
    if (n > 1 && df + dr * FC_FILES < 0) {
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            uint8_t t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
    }
    return n;
}

/* Square steps to the 3x3 neighbours of a square, in the bit order of
 * fc_kickers_near (the middle one, the ball's own square, never set). */
static const int8_t fc_near_step[9] = {-10, -9, -8, -1, 0, 1, 8, 9, 10};

/* The pieces that may kick the ball on `ball` now, from
 * g->kick_rows, as 9 bits (bit 3 * (dr + 1) + df + 1 for the neighbour
 * at (df, dr)). */
static unsigned fc_kickers_near(const Fc_Gen *g, int ball)
{
    int bf = fc_file(ball), br = fc_rank(ball);
    unsigned lo = (unsigned)(g->kick_rows[br] >> bf) & 7u;
    unsigned mid = (unsigned)(g->kick_rows[br + 1] >> bf) & 7u;
    unsigned hi = (unsigned)(g->kick_rows[br + 2] >> bf) & 7u;
    return lo | mid << 3 | hi << 6;
}

/* The piece on `sq` joins or leaves g->kick_rows. */
static void fc_kick_rows_flip(Fc_Gen *g, int sq)
{
    g->kick_rows[fc_rank(sq) + 1] ^= (uint16_t)(1u << (fc_file(sq) + 1));
}

/* Counting only (perft's last ply): how many turns continue from the ball
 * on `ball` by kicks, each chain and each of its stops one turn, as
 * fc_gen_kicks would hand them to a sink. No turn is built and no sink is
 * called: in WebAssembly the indirect call per turn made the page's count
 * about 15% slower (docs/benchmarks.md, the browser section). The kickers
 * come from g->kick_rows, and a landing with none next to it is not
 * called for: most are, and in WebAssembly a call costs V8 a spill and
 * reload of every live value (docs/benchmarks.md). */
static uint64_t fc_count_kicks(Fc_Gen *g, int ball)
{
    uint64_t total = 0;
    for (unsigned near = fc_kickers_near(g, ball); near != 0;
         near &= near - 1) {
        int from = ball + fc_near_step[__builtin_ctz(near)];
        uint8_t land[8];
        int n = fc_kick_landings(g->board, from, ball, land);
        total += (uint64_t)n;
        fc_kick_rows_flip(g, from);
        for (int j = 0; j < n; j++)
            if (!fc_is_goal(land[j]) && fc_kickers_near(g, land[j]) != 0)
                total += fc_count_kicks(g, land[j]);
        fc_kick_rows_flip(g, from);
    }
    return total;
}

/* With memo: 1 when the walk has gone on from the ball on `ball` under
 * the current piece move with a subset of g->mask kicked, to its end
 * (fc_walked): every turn that goes on from here reaches a square that
 * one of those reached first, in canonical order, since the pieces that
 * may still kick now could kick then. Without memo 0. */
static int fc_dominated(const Fc_Gen *g, int ball)
{
    if (!g->memo)
        return 0;
    const uint32_t *row = g->visited[ball];
    unsigned mask = g->mask;
    for (unsigned sub = mask;; sub = (sub - 1) & mask) {
        if ((row[sub >> 5] >> (sub & 31)) & 1u)
            return 1;
        if (sub == 0)
            return 0;
    }
}

/* With memo: the walk has gone on from the ball on `ball` with g->mask
 * kicked to its end. */
static void fc_walked(Fc_Gen *g, int ball)
{
    if (!g->memo)
        return;
    uint32_t *row = g->visited[ball];
    int clean = 1;
    for (int i = 0; i < 8; i++)
        clean &= row[i] == 0;
    if (clean)
        g->dirty[g->ndirty++] = (uint8_t)ball;
    row[g->mask >> 5] |= UINT32_C(1) << (g->mask & 31);
}

/* Every kick chain continuing from the ball on `ball` (D-FC-6). */
static int fc_gen_kicks(Fc_Gen *g, int ball)
{
    for (unsigned near = fc_kickers_near(g, ball); near != 0;
         near &= near - 1) {
        int from = ball + fc_near_step[__builtin_ctz(near)];
        uint8_t land[8];
        int n = fc_kick_landings(g->board, from, ball, land);
        if (n == 0)
            continue;
        uint8_t len = g->cur.len;
        fc_kick_rows_flip(g, from);
        g->mask = (uint8_t)(g->mask | g->bit[from]);
        g->cur.b[len] = (uint8_t)from;
        g->cur.len = (uint8_t)(len + 2);
        for (int j = 0; j < n; j++) {
            g->cur.b[len + 1] = land[j];
            int rc = g->sink(g, land[j]);
            if (rc == 0 && !fc_is_goal(land[j]) && !fc_dominated(g, land[j])) {
                rc = fc_gen_kicks(g, land[j]);
                fc_walked(g, land[j]);
            }
            if (rc != 0)
                return rc;
        }
        g->cur.b[len] = 0;
        g->cur.b[len + 1] = 0;
        g->cur.len = len;
        fc_kick_rows_flip(g, from);
        g->mask = (uint8_t)(g->mask & ~g->bit[from]);
    }
    return 0;
}

/* The turns after the current placement: stop at once, or kick. Without
 * a sink they are only counted, into g->nodes. */
static int fc_gen_after_piece_move(Fc_Gen *g)
{
    if (g->sink == NULL) {
        g->nodes += 1;
        if (fc_kickers_near(g, g->st->ball) != 0)
            g->nodes += fc_count_kicks(g, g->st->ball);
        return 0;
    }
    if (g->memo) {
        /* A fresh piece move: forget the chains and squares of the last. */
        for (int i = 0; i < g->ndirty; i++)
            memset(g->visited[g->dirty[i]], 0, sizeof g->visited[0]);
        g->ndirty = 0;
        g->stamp++;
    }
    int rc = g->sink(g, g->st->ball);
    if (rc == 0)
        rc = fc_gen_kicks(g, g->st->ball);
    return rc;
}

/* Destinations of the piece on `from` (D-FC-2) in ascending order;
 * returns how many (<= 32). */
static int fc_piece_targets(const Fc_State *st, int from, uint8_t out[32])
{
    int type = FC_TYPE_OF(st->board[from]);
    int ff = fc_file(from), fr = fc_rank(from);
    int n = 0;

    if (type == FC_KING || type == FC_KNIGHT) {
        const int8_t *df = type == FC_KING ? fc_king_df : fc_knight_df;
        const int8_t *dr = type == FC_KING ? fc_king_dr : fc_knight_dr;
        for (int i = 0; i < 8; i++) {
            int f = ff + df[i], r = fr + dr[i];
            if (!fc_on_board(f, r))
                continue;
            int sq = r * FC_FILES + f;
            if (st->board[sq] == 0 && sq != st->ball && !fc_is_goal(sq))
                out[n++] = (uint8_t)sq;
        }
        return n;
    }
    /* Sliders: walk the 8 directions (ascending df + 9 dr), then sort
     * the short list by insertion. Goals are crossed, never stopped on. */
    for (int i = 0; i < 8; i++) {
        int df = fc_king_df[i], dr = fc_king_dr[i];
        if (!fc_type_moves_along(type, df, dr))
            continue;
        for (int f = ff + df, r = fr + dr; fc_on_board(f, r);
             f += df, r += dr) {
            int sq = r * FC_FILES + f;
            if (st->board[sq] != 0 || sq == st->ball)
                break;
            if (fc_is_goal(sq))
                continue;
            int k = n++;
            while (k > 0 && out[k - 1] > sq) {
                out[k] = out[k - 1];
                k--;
            }
            out[k] = (uint8_t)sq;
        }
    }
    return n;
}

static void fc_mark(uint64_t reads[2], int f, int r)
{
    if (fc_on_board(f, r)) {
        int sq = r * FC_FILES + f;
        reads[sq >> 6] |= UINT64_C(1) << (sq & 63);
    }
}

static int fc_marked(const uint64_t reads[2], int sq)
{
    return (int)((reads[sq >> 6] >> (sq & 63)) & 1u);
}

/* Into reads: the squares a walk going on from the ball on sq reads, its
 * 8 neighbours (kickers, and each flight's first square) and the knight's
 * leaps from it (a knight's landings). */
static void fc_reads_around(uint64_t reads[2], int sq)
{
    reads[0] |= fc_nb[sq].king[0] | fc_nb[sq].knight[0];
    reads[1] |= fc_nb[sq].king[1] | fc_nb[sq].knight[1];
}

/* The squares a memo walk may have read (struct Fc_Gen): the walk went on
 * from the ball on each square of dirty[], reading the 8 neighbours (for
 * kickers, and as the next square of each flight, since every landing
 * is such a square) and the knight's leaps (a knight's landings). */
static void fc_walk_reads(Fc_Gen *g)
{
    g->reads[0] = g->reads[1] = 0;
    for (int i = 0; i <= g->ndirty; i++)
        fc_reads_around(g->reads, i < g->ndirty ? g->dirty[i] : g->st->ball);
}

/* The turns of a piece move (already in g->cur's first two bytes) that
 * the walk without a piece move read nothing of: that walk's turns again,
 * the piece move in front, or none when not relisting. */
static int fc_relist_pass(Fc_Gen *g)
{
    if (!g->relist)
        return 0;
    for (size_t i = g->pass0; i < g->pass1; i++) {
        const Core_Move *m = &g->buf[i];
        if (g->n >= g->cap)
            return TB_E_TOOMANY;
        Core_Move *o = &g->buf[g->n++];
        *o = g->cur;
        memcpy(o->b + 2, m->b, m->len);
        o->len = (uint8_t)(m->len + 2);
    }
    return 0;
}

/* Every complete turn of st, in canonical order, through the sink (NULL:
 * only counted, into g->nodes); with memo, only the turns the memo does
 * not skip (struct Fc_Gen). */
static int fc_generate_walk(Fc_Gen *g, const Fc_State *st, Fc_Sink sink,
                            int memo, int side)
{
    g->st = st;
    g->side = side;
    g->sink = sink;
    g->memo = memo;
    memcpy(g->board, st->board, sizeof g->board);
    memset(&g->cur, 0, sizeof g->cur);
    memset(g->kick_rows, 0, sizeof g->kick_rows);
    if (memo) {
        g->mask = 0;
        g->ndirty = 0;
        g->stamp = 0;
        memset(g->bit, 0, sizeof g->bit);
        memset(g->seen, 0, sizeof g->seen);
        memset(g->visited, 0, sizeof g->visited);
    }
    for (int sq = 0, nbit = 0; sq < FC_SQUARES; sq++)
        if (st->board[sq] != 0 && FC_SIDE_OF(st->board[sq]) == side) {
            fc_kick_rows_flip(g, sq);
            if (memo && nbit < 8)
                g->bit[sq] = (uint8_t)(1u << nbit++);
        }
    if (st->outcome != CORE_ONGOING)
        return 0;
    g->pass0 = g->n;
    int rc = fc_gen_after_piece_move(g); /* `pass` and kicks at once */
    g->pass1 = g->n;
    if (memo)
        fc_walk_reads(g);
    for (int from = 0; rc == 0 && from < FC_SQUARES; from++) {
        uint8_t pc = st->board[from];
        if (pc == 0 || FC_SIDE_OF(pc) != side)
            continue;
        uint8_t to[32];
        int n = fc_piece_targets(st, from, to);
        uint8_t bit = g->bit[from];
        g->bit[from] = 0;
        for (int i = 0; rc == 0 && i < n; i++) {
            g->board[from] = 0;
            g->board[to[i]] = pc;
            g->bit[to[i]] = bit;
            fc_kick_rows_flip(g, from);
            fc_kick_rows_flip(g, to[i]);
            memset(&g->cur, 0, sizeof g->cur);
            g->cur.flags = FC_FLAG_PIECE_MOVE;
            g->cur.len = 2;
            g->cur.b[0] = (uint8_t)from;
            g->cur.b[1] = to[i];
            if (memo && !fc_marked(g->reads, from) &&
                !fc_marked(g->reads, to[i]))
                rc = fc_relist_pass(g);
            else
                rc = fc_gen_after_piece_move(g);
            g->board[to[i]] = 0;
            g->board[from] = pc;
            g->bit[to[i]] = 0;
            fc_kick_rows_flip(g, from);
            fc_kick_rows_flip(g, to[i]);
        }
        g->bit[from] = bit;
    }
    return rc;
}

static int fc_generate(Fc_Gen *g, const Fc_State *st, Fc_Sink sink)
{
    g->n = 0;
    return fc_generate_walk(g, st, sink, 0, st->side);
}

static int fc_sink_list(Fc_Gen *g, int ball)
{
    (void)ball;
    if (g->n >= g->cap)
        return TB_E_TOOMANY;
    g->buf[g->n++] = g->cur;
    return 0;
}

static int fc_moves(const void *vst, Core_Move *buf, size_t cap, size_t *n)
{
    Fc_Gen g;
    g.buf = buf;
    g.cap = cap;
    g.n = 0;
    int rc = fc_generate(&g, vst, fc_sink_list);
    *n = g.n;
    return rc;
}

/* The sink of fc_moves_distinct: list a turn unless one of the same piece
 * move whose ball ends on the same square is listed already. */
static int fc_sink_distinct(Fc_Gen *g, int ball)
{
    if (g->seen[ball] == g->stamp)
        return 0;
    g->seen[ball] = g->stamp;
    return fc_sink_list(g, ball);
}

/* core_moves_distinct: of the turns that reach the same position (the
 * same piece move, the ball ending on the same square: D-FC-8's turns
 * differ in their kicks), only the first in canonical order. The memo
 * skips only chains whose landing squares are listed already, so the
 * list is the full list filtered, at the cost of far fewer chains. */
static int fc_moves_distinct(const void *vst, Core_Move *buf, size_t cap,
                             size_t *n)
{
    const Fc_State *st = vst;
    Fc_Gen g;
    g.buf = buf;
    g.cap = cap;
    g.n = 0;
    g.relist = 1;
    int rc = fc_generate_walk(&g, vst, fc_sink_distinct, 1, st->side);
    *n = g.n;
    return rc;
}

/* ---- making a turn ----------------------------------------------------- */

/* Finish a turn whose placement (board, ball) is already in st: goals and
 * resets (D-FC-5, D-FC-7), side, counters, history (D-ALL-2). With
 * known set, delta is the key's change by the placement (the key is then
 * updated, not computed afresh: the same key, cheaper). */
static void fc_finish_turn_delta(Fc_State *st, int known, uint64_t delta)
{
    st->ply++;
    if (fc_is_goal(st->ball)) {
        int scorer = st->ball == FC_E9 ? CORE_WHITE : CORE_BLACK;
        st->score[scorer]++;
        st->quiet = 0;
        if (st->score[scorer] >= st->goals) {
            /* The match is won: the final placement stays on show. */
            st->side = (uint8_t)(1 - st->side);
            fc_restart_history(st);
            return;
        }
        fc_set_start_placement(st);
        st->side = (uint8_t)(1 - scorer); /* the side that conceded */
        fc_restart_history(st);
        return;
    }
    st->side = (uint8_t)(1 - st->side);
    st->quiet++;
    if (known)
        st->key ^= delta ^ fc_zobrist(12u * FC_SQUARES);
    else
        st->key = fc_compute_key(st);
    if (st->nhist < FC_HISTORY)
        st->hist[st->nhist++] = st->key;
    fc_update_status(st);
}

static void fc_finish_turn(Fc_State *st)
{
    fc_finish_turn_delta(st, 0, 0);
}

static void fc_make(void *vst, const Core_Move *mv)
{
    Fc_State *st = vst;
    int i = 0;
    uint64_t delta = fc_zobrist(11u * FC_SQUARES + st->ball);
    if (mv->flags & FC_FLAG_PIECE_MOVE) {
        uint32_t pc = st->board[mv->b[0]];
        delta ^= fc_zobrist(pc * FC_SQUARES + mv->b[0]) ^
                 fc_zobrist(pc * FC_SQUARES + mv->b[1]);
        st->board[mv->b[1]] = st->board[mv->b[0]];
        st->board[mv->b[0]] = 0;
        i = 2;
    }
    if (mv->len > i)
        st->ball = mv->b[mv->len - 1];
    delta ^= fc_zobrist(11u * FC_SQUARES + st->ball);
    fc_finish_turn_delta(st, 1, delta);
}

/* ---- perft -------------------------------------------------------------- */

static int fc_perft_rec(const Fc_State *st, unsigned depth, uint64_t *nodes);

static int fc_sink_recurse(Fc_Gen *g, int ball)
{
    Fc_State child;
    uint64_t n = 0;
    memcpy(&child, g->st, sizeof child);
    memcpy(child.board, g->board, sizeof child.board);
    child.ball = (uint8_t)ball;
    fc_finish_turn(&child);
    int rc = fc_perft_rec(&child, g->depth - 1, &n);
    g->nodes += n;
    return rc;
}

static int fc_perft_rec(const Fc_State *st, unsigned depth, uint64_t *nodes)
{
    Fc_Gen g;
    g.nodes = 0;
    g.depth = depth;
    int rc = fc_generate(&g, st, depth <= 1 ? NULL : fc_sink_recurse);
    *nodes = g.nodes;
    return rc;
}

static int fc_perft(const void *vst, unsigned depth, uint64_t *nodes)
{
    *nodes = 1;
    if (depth == 0)
        return 0;
    return fc_perft_rec(vst, depth, nodes);
}

/* ---- notation (D-FC-8) ------------------------------------------------ */

static void fc_text_square(Core_Text *t, int sq)
{
    core__text_char(t, (char)('a' + fc_file(sq)));
    core__text_char(t, (char)('1' + fc_rank(sq)));
}

static int fc_move_format(const void *vst, const Core_Move *mv, char *buf,
                          size_t cap)
{
    Core_Text t;
    int i = 0;
    (void)vst;
    core__text_init(&t, buf, cap);
    if (mv->len > CORE_MOVE_BYTES || (mv->len & 1u) != 0)
        return TB_E_ARG;
    if (mv->len == 0) {
        core__text_str(&t, "pass");
        return core__text_end(&t);
    }
    for (; i + 1 < mv->len; i += 2) {
        if (mv->b[i] >= FC_SQUARES || mv->b[i + 1] >= FC_SQUARES)
            return TB_E_ARG;
        if (i > 0)
            core__text_char(&t, ' ');
        fc_text_square(&t, mv->b[i]);
        core__text_char(&t,
                        i == 0 && (mv->flags & FC_FLAG_PIECE_MOVE) ? '-' : '*');
        fc_text_square(&t, mv->b[i + 1]);
    }
    return core__text_end(&t);
}

/* A square name "a1".."i9" at p; returns the square or -1. */
static int fc_parse_square(const char *p)
{
    if (p[0] < 'a' || p[0] > 'i' || p[1] < '1' || p[1] > '9')
        return -1;
    return (p[1] - '1') * FC_FILES + (p[0] - 'a');
}

/* Is the move with these bytes (any bytes: they may come from a peer) a
 * legal turn of st, equal (core_move_equal) to one the generator lists?
 * Checks the shape, then each part in order with the generator's rules. */
static int fc_turn_legal(const Fc_State *st, const Core_Move *mv)
{
    uint8_t board[FC_SQUARES], kicked[FC_SQUARES] = {0};
    int ball = st->ball, i = 0;

    if (st->outcome != CORE_ONGOING)
        return 0;
    if (mv->flags > FC_FLAG_PIECE_MOVE || (mv->len & 1u) != 0 ||
        mv->len > 2 * (1 + FC_KICKS_MAX) ||
        (mv->flags == 0 && mv->len > 2 * FC_KICKS_MAX) ||
        (mv->flags != 0 && mv->len < 2))
        return 0;
    /* Bytes past len are ignored, as core_move_equal ignores them. */
    for (int k = 0; k < mv->len; k++)
        if (mv->b[k] >= FC_SQUARES)
            return 0;
    memcpy(board, st->board, sizeof board);
    if (mv->flags & FC_FLAG_PIECE_MOVE) {
        int from = mv->b[0], to = mv->b[1], n, ok = 0;
        uint8_t targets[32];
        if (board[from] == 0 || FC_SIDE_OF(board[from]) != st->side)
            return 0;
        n = fc_piece_targets(st, from, targets);
        for (int k = 0; k < n; k++)
            ok |= targets[k] == to;
        if (!ok)
            return 0;
        board[to] = board[from];
        board[from] = 0;
        i = 2;
    }
    for (; i + 1 < mv->len; i += 2) {
        int from = mv->b[i], to = mv->b[i + 1], n, ok = 0;
        uint8_t land[8];
        if (fc_is_goal(ball))
            return 0; /* a goal ended the turn */
        if (board[from] == 0 || FC_SIDE_OF(board[from]) != st->side ||
            kicked[from] || !fc_adjacent(from, ball))
            return 0;
        n = fc_kick_landings(board, from, ball, land);
        for (int k = 0; k < n; k++)
            ok |= land[k] == to;
        if (!ok)
            return 0;
        kicked[from] = 1;
        ball = to;
    }
    return 1;
}

static int fc_legal(const void *vst, const Core_Move *mv)
{
    return fc_turn_legal(vst, mv);
}

static int fc_move_parse(const void *vst, const char *text, Core_Move *out)
{
    const Fc_State *st = vst;
    Core_Move mv;
    const char *p = text;
    int tokens = 0;

    memset(&mv, 0, sizeof mv);
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            break;
        size_t n = strcspn(p, " ");
        if (n == 4 && memcmp(p, "pass", 4) == 0) {
            if (tokens != 0)
                return TB_E_NOTATION;
            tokens++;
            p += n;
            while (*p == ' ')
                p++;
            if (*p != '\0')
                return TB_E_NOTATION;
            break;
        }
        if (n != 5)
            return TB_E_NOTATION;
        int a = fc_parse_square(p), b = fc_parse_square(p + 3);
        if (a < 0 || b < 0 || (p[2] != '-' && p[2] != '*'))
            return TB_E_NOTATION;
        if (p[2] == '-') {
            if (tokens != 0)
                return TB_E_NOTATION; /* the piece move comes first */
            mv.flags = FC_FLAG_PIECE_MOVE;
        }
        if (mv.len + 2 > CORE_MOVE_BYTES)
            return TB_E_ILLEGAL; /* more kicks than pieces */
        mv.b[mv.len] = (uint8_t)a;
        mv.b[mv.len + 1] = (uint8_t)b;
        mv.len = (uint8_t)(mv.len + 2);
        tokens++;
        p += n;
    }
    if (tokens == 0)
        return TB_E_NOTATION;
    if (!fc_turn_legal(st, &mv))
        return TB_E_ILLEGAL;
    *out = mv;
    return 0;
}

/* ---- position string ---------------------------------------------------- */

static int fc_position_format(const void *vst, char *buf, size_t cap)
{
    const Fc_State *st = vst;
    Core_Text t;
    core__text_init(&t, buf, cap);
    for (int r = FC_FILES - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < FC_FILES; f++) {
            int sq = r * FC_FILES + f;
            char c = 0;
            if (sq == st->ball)
                c = '*';
            else if (st->board[sq] != 0)
                c = fc_letters[st->board[sq] - 1];
            if (c == 0) {
                empty++;
                continue;
            }
            if (empty > 0)
                core__text_char(&t, (char)('0' + empty));
            empty = 0;
            core__text_char(&t, c);
        }
        if (empty > 0)
            core__text_char(&t, (char)('0' + empty));
        if (r > 0)
            core__text_char(&t, '/');
    }
    core__text_str(&t, st->side == CORE_WHITE ? " w " : " b ");
    core__text_uint(&t, st->score[0]);
    core__text_char(&t, '-');
    core__text_uint(&t, st->score[1]);
    core__text_char(&t, ' ');
    core__text_uint(&t, st->quiet);
    core__text_char(&t, ' ');
    core__text_uint(&t, st->ply);
    return core__text_end(&t);
}

/*
 * Checks shared by position_parse and decode: piece counts, goals empty,
 * ball placement, scores. Returns NULL when fine, else the reason.
 */
static const char *fc_check_state(const Fc_State *st)
{
    uint8_t count[FC_PIECE_MAX + 1] = {0};
    for (int sq = 0; sq < FC_SQUARES; sq++) {
        if (st->board[sq] > FC_PIECE_MAX)
            return "unknown piece code";
        count[st->board[sq]]++;
        if (st->board[sq] != 0 && fc_is_goal(sq))
            return "a piece stands on a goal (e1, e9)";
    }
    for (int pc = 1; pc <= FC_PIECE_MAX; pc++)
        if (count[pc] > fc_type_max[FC_TYPE_OF(pc)])
            return "more pieces of a kind than the set has";
    if (st->ball >= FC_SQUARES)
        return "ball off the board";
    if (st->board[st->ball] != 0)
        return "ball on an occupied square";
    if (st->side > 1)
        return "bad side to move";
    if (st->score[0] > st->goals || st->score[1] > st->goals)
        return "score above the goals=N target";
    if (st->score[0] == st->goals && st->score[1] == st->goals)
        return "both sides reached the target";
    if (st->ball == FC_E9 && st->score[0] != st->goals)
        return "ball in e9 only after White's winning goal";
    if (st->ball == FC_E1 && st->score[1] != st->goals)
        return "ball in e1 only after Black's winning goal";
    if (st->quiet > FC_QUIET_MAX)
        return "more quiet plies than the move rule allows";
    if ((uint64_t)st->quiet + st->score[0] + st->score[1] > st->ply)
        return "ply count below quiet plies plus goals";
    return NULL;
}

/* Reads an unsigned decimal at *p (at most max); -1 on error. */
static long fc_parse_uint(const char **p, long max)
{
    uint64_t v;
    return core_read_uint(p, (uint64_t)max, &v) != 0 ? -1 : (long)v;
}

static int fc_position_parse(void *vst, const char *text, char *why,
                             size_t why_cap)
{
    Fc_State *st = vst;
    const char *p = text;
    int balls = 0;
    long v;

    memset(st->board, 0, sizeof st->board);
    for (int r = FC_FILES - 1; r >= 0; r--) {
        int f = 0;
        while (f < FC_FILES) {
            char c = *p++;
            if (c >= '1' && c <= '9') {
                f += c - '0';
                continue;
            }
            if (c == '*') {
                st->ball = (uint8_t)(r * FC_FILES + f);
                balls++;
                f++;
                continue;
            }
            const char *l = c != '\0' ? strchr(fc_letters, c) : NULL;
            if (l == NULL)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "placement: expected KQRBN kqrbn * or 1-9");
            st->board[r * FC_FILES + f] = (uint8_t)(1 + (l - fc_letters));
            f++;
        }
        if (f != FC_FILES)
            return core__why(why, why_cap, TB_E_POSITION,
                             "placement: a rank is not 9 squares");
        if (r > 0 && *p++ != '/')
            return core__why(why, why_cap, TB_E_POSITION,
                             "placement: expected 9 ranks split by '/'");
    }
    if (balls != 1)
        return core__why(why, why_cap, TB_E_POSITION,
                         "placement: exactly one ball '*' expected");
    if (p[0] != ' ' || (p[1] != 'w' && p[1] != 'b') || p[2] != ' ')
        return core__why(why, why_cap, TB_E_POSITION,
                         "side to move: expected ' w ' or ' b '");
    st->side = p[1] == 'w' ? CORE_WHITE : CORE_BLACK;
    p += 3;
    v = fc_parse_uint(&p, FC_GOALS_MAX);
    if (v < 0 || *p++ != '-')
        return core__why(why, why_cap, TB_E_POSITION,
                         "score: expected WHITE-BLACK, e.g. 0-0");
    st->score[0] = (uint8_t)v;
    v = fc_parse_uint(&p, FC_GOALS_MAX);
    if (v < 0 || *p++ != ' ')
        return core__why(why, why_cap, TB_E_POSITION,
                         "score: expected WHITE-BLACK, e.g. 0-0");
    st->score[1] = (uint8_t)v;
    v = fc_parse_uint(&p, FC_QUIET_MAX);
    if (v < 0 || *p++ != ' ')
        return core__why(why, why_cap, TB_E_POSITION,
                         "quiet plies: expected 0..100");
    st->quiet = (uint8_t)v;
    v = fc_parse_uint(&p, 1000000000L);
    if (v < 0 || *p != '\0')
        return core__why(why, why_cap, TB_E_POSITION,
                         "ply: expected a number and the end of the string");
    st->ply = (uint32_t)v;
    const char *bad = fc_check_state(st);
    if (bad != NULL)
        return core__why(why, why_cap, TB_E_POSITION, bad);
    fc_restart_history(st);
    return 0;
}

/* ---- canonical encoding ------------------------------------------------ */

/*
 * Layout: id, goals, board[81], ball, side, score W, score B, quiet,
 * ply (u32 LE), nhist, then nhist keys (u64 LE), oldest first. The key,
 * outcome and reason are derived on decode.
 */
static int fc_encode(const void *vst, uint8_t *buf, size_t cap, size_t *len)
{
    const Fc_State *st = vst;
    size_t need = FC_ENCODE_HEAD + 8u * st->nhist;
    if (cap < need)
        return TB_E_SPACE;
    buf[0] = 3;
    buf[1] = st->goals;
    memcpy(buf + 2, st->board, FC_SQUARES);
    buf[83] = st->ball;
    buf[84] = st->side;
    buf[85] = st->score[0];
    buf[86] = st->score[1];
    buf[87] = st->quiet;
    core__put_u32(buf + 88, st->ply);
    buf[92] = st->nhist;
    for (int i = 0; i < st->nhist; i++)
        core__put_u64(buf + FC_ENCODE_HEAD + 8 * i, st->hist[i]);
    *len = need;
    return 0;
}

static int fc_decode(void *vst, const uint8_t *buf, size_t len)
{
    Fc_State *st = vst;
    memset(st, 0, sizeof *st);
    if (len < FC_ENCODE_HEAD || buf[0] != 3)
        return TB_E_ENCODING;
    st->goals = buf[1];
    if (st->goals < 1 || st->goals > FC_GOALS_MAX)
        return TB_E_ENCODING;
    memcpy(st->board, buf + 2, FC_SQUARES);
    st->ball = buf[83];
    st->side = buf[84];
    st->score[0] = buf[85];
    st->score[1] = buf[86];
    st->quiet = buf[87];
    st->ply = core__get_u32(buf + 88);
    st->nhist = buf[92];
    if (fc_check_state(st) != NULL)
        return TB_E_ENCODING;
    if (st->nhist < 1 || st->nhist > st->quiet + 1 ||
        len != FC_ENCODE_HEAD + 8u * st->nhist)
        return TB_E_ENCODING;
    for (int i = 0; i < st->nhist; i++)
        st->hist[i] = core__get_u64(buf + FC_ENCODE_HEAD + 8 * i);
    st->key = fc_compute_key(st);
    if (st->hist[st->nhist - 1] != st->key)
        return TB_E_ENCODING;
    fc_update_status(st);
    return 0;
}

/* ---- view ------------------------------------------------------------- */

/* 9x9, rank 9 on top; dark corners (seed: *¶board*), the goals e1 and e9
 * as goal cells; the status line gives the score and the match target. */
static int fc_view(const void *vst, Core_View *v)
{
    const Fc_State *st = vst;
    Core_Text t;

    v->rows = FC_FILES;
    v->cols = FC_FILES;
    for (int row = 0; row < FC_FILES; row++) {
        int r = FC_FILES - 1 - row;
        v->row_label[row][0] = (char)('1' + r);
        v->col_label[row][0] = (char)('a' + row);
        for (int f = 0; f < FC_FILES; f++) {
            Core_Cell *c = &v->cell[row][f];
            int sq = r * FC_FILES + f;
            uint8_t pc = st->board[sq];
            c->kind = fc_is_goal(sq)     ? CORE_CELL_GOAL
                      : (r + f) % 2 == 0 ? CORE_CELL_DARK
                                         : CORE_CELL_LIGHT;
            c->owner = -1;
            c->name[0] = (char)('a' + f);
            c->name[1] = (char)('1' + r);
            core__text_init(&t, c->detail, sizeof c->detail);
            core__text_said(&t, c->said, &c->nsaid, CORE_CELL_SAID);
            if (sq == st->ball) {
                c->glyph[0] = '*';
                core__text_phrase(&t, CORE_PHRASE_BALL, 0, 0, 0);
            } else if (pc != 0) {
                c->owner = (int8_t)FC_SIDE_OF(pc);
                c->glyph[0] = fc_letters[pc - 1];
                /* the types king .. knight are CORE_PIECE_KING .. KNIGHT */
                core__text_phrase(&t,
                                  CORE_PHRASE_PIECE + 9 * FC_SIDE_OF(pc) +
                                      FC_TYPE_OF(pc),
                                  0, 0, 0);
            } else if (fc_is_goal(sq)) {
                core__text_phrase(&t,
                                  sq == FC_E1 ? CORE_PHRASE_WHITE_GOAL
                                              : CORE_PHRASE_BLACK_GOAL,
                                  0, 0, 0);
            }
        }
    }
    core__text_init(&t, v->status, sizeof v->status);
    core__text_said(&t, v->said, &v->nsaid, CORE_VIEW_SAID);
    core__text_phrase(&t, CORE_PHRASE_GOALS, st->score[CORE_WHITE],
                      st->score[CORE_BLACK], st->goals);
    core__text_phrase(&t, CORE_PHRASE_SINCE_GOAL, st->quiet, 0, 0);
    return core__text_end(&t);
}

/* ---- the rest of the table ---------------------------------------------- */

static Core_Status fc_status(const void *vst)
{
    const Fc_State *st = vst;
    Core_Status s = {(Core_Outcome)st->outcome, (Core_Reason)st->reason};
    return s;
}

static int fc_side(const void *vst)
{
    return ((const Fc_State *)vst)->side;
}

static uint32_t fc_ply(const void *vst)
{
    return ((const Fc_State *)vst)->ply;
}

static uint64_t fc_key(const void *vst)
{
    return ((const Fc_State *)vst)->key;
}

/* The sink of fc_forcing_find: stop (1) at the first turn whose ball
 * is in the goal g->side attacks. */
static int fc_sink_goal(Fc_Gen *g, int ball)
{
    return ball == (g->side == CORE_WHITE ? FC_E9 : FC_E1);
}

/* One kick of fc_reach: the piece on `from` kicks the ball on `at`; 1
 * when it can land on goal, else each landing not yet in done[] is added
 * to it and to queue[*tail...]. */
static int fc_reach_kick(const uint8_t *board, int from, int at, int goal,
                         uint64_t done[2], uint8_t queue[FC_SQUARES], int *tail)
{
    uint8_t land[8];
    int n = fc_kick_landings(board, from, at, land);
    for (int j = 0; j < n; j++) {
        if (land[j] == goal)
            return 1;
        if (fc_is_goal(land[j]) || fc_marked(done, land[j]))
            continue;
        fc_mark(done, fc_file(land[j]), fc_rank(land[j]));
        queue[(*tail)++] = land[j];
    }
    return 0;
}

/* The breadth-first part of fc_reach: go on from queue[head..tail) by
 * kicks of side's pieces on board, any piece kicking any number of times
 * (so more than D-FC-6 allows: 0 here means no turn scores); done[]
 * holds the squares reached (each is gone on from once). 1 when a kick
 * lands on goal. With reads, the squares whose contents it read are
 * added (as fc_walk_reads counts them), and to adj the neighbours of
 * the squares it went on from (where a piece would kick). */
static int fc_reach_queue(const uint8_t *board, int side, int goal,
                          uint64_t done[2], uint8_t queue[FC_SQUARES], int head,
                          int tail, uint64_t reads[2], uint64_t adj[2])
{
    while (head < tail) {
        int at = queue[head++], bf = fc_file(at), br = fc_rank(at);
        if (reads != NULL) {
            fc_reads_around(reads, at);
            adj[0] |= fc_nb[at].king[0];
            adj[1] |= fc_nb[at].king[1];
        }
        for (int i = 0; i < 8; i++) {
            int f = bf + fc_king_df[i], r = br + fc_king_dr[i];
            if (!fc_on_board(f, r))
                continue;
            int from = r * FC_FILES + f;
            if (board[from] == 0 || FC_SIDE_OF(board[from]) != side)
                continue;
            if (fc_reach_kick(board, from, at, goal, done, queue, &tail))
                return 1;
        }
    }
    return 0;
}

/* Can the ball on `ball` reach `goal` by kicks of side's pieces on board
 * (fc_reach_queue)? done[] gets the squares reached. */
static int fc_reach(const uint8_t *board, int side, int ball, int goal,
                    uint64_t done[2], uint64_t reads[2], uint64_t adj[2])
{
    uint8_t queue[FC_SQUARES];
    done[0] = done[1] = 0;
    queue[0] = (uint8_t)ball;
    fc_mark(done, fc_file(ball), fc_rank(ball));
    return fc_reach_queue(board, side, goal, done, queue, 0, 1, reads, adj);
}

/* fc_reach on board, which is the board `reached` was found on with one
 * more piece, on `by`: the others' kicks are those of then or fewer (the
 * piece may block them), so only the kicks of the piece on `by` from the
 * squares reached, and what follows, are new. */
static int fc_reach_more(const uint8_t *board, int side, int goal,
                         const uint64_t reached[2], int by)
{
    uint64_t done[2] = {reached[0], reached[1]};
    uint8_t queue[FC_SQUARES];
    int tail = 0, bf = fc_file(by), br = fc_rank(by);
    for (int i = 0; i < 8; i++) {
        int f = bf + fc_king_df[i], r = br + fc_king_dr[i];
        if (!fc_on_board(f, r) || !fc_marked(reached, r * FC_FILES + f))
            continue;
        if (fc_reach_kick(board, by, r * FC_FILES + f, goal, done, queue,
                          &tail))
            return 1;
    }
    return fc_reach_queue(board, side, goal, done, queue, 0, tail, NULL, NULL);
}

/* 0 when no turn of `side` in st can score, else 1: a cheap test before
 * the walk, which must then find the goal. fc_reach without a piece
 * move; a piece that leaves a square it read is taken off and the ball's
 * reach found afresh, once for all its moves. Then a piece stopping next
 * to a square reached is a new kicker (fc_reach_more); stopping anywhere
 * else it only blocks. */
static int fc_may_score(const Fc_State *st, int side)
{
    int goal = side == CORE_WHITE ? FC_E9 : FC_E1;
    uint64_t reads[2] = {0, 0}, adj[2] = {0, 0}, reached[2];
    uint8_t board[FC_SQUARES];
    if (st->outcome != CORE_ONGOING)
        return 0;
    memcpy(board, st->board, sizeof board);
    if (fc_reach(board, side, st->ball, goal, reached, reads, adj))
        return 1;
    for (int from = 0; from < FC_SQUARES; from++) {
        uint8_t pc = st->board[from];
        if (pc == 0 || FC_SIDE_OF(pc) != side)
            continue;
        uint64_t off_reads[2] = {0, 0}, off_adj[2] = {0, 0}, off[2];
        const uint64_t *base = reached, *near = adj;
        if (fc_marked(reads, from)) {
            board[from] = 0;
            int r =
                fc_reach(board, side, st->ball, goal, off, off_reads, off_adj);
            board[from] = pc;
            if (r)
                return 1;
            base = off;
            near = off_adj;
        }
        uint8_t to[32];
        int n = fc_piece_targets(st, from, to);
        for (int i = 0; i < n; i++) {
            if (!fc_marked(near, to[i]))
                continue;
            board[from] = 0;
            board[to[i]] = pc;
            int r = fc_reach_more(board, side, goal, base, to[i]);
            board[to[i]] = 0;
            board[from] = pc;
            if (r)
                return 1;
        }
    }
    return 0;
}

/* Could `side` score a goal with a turn now, were it its turn (a threat
 * the other side must parry)? fc_may_score, then the walk of
 * fc_forcing_find for that side. */
static int fc_can_score(const Fc_State *st, int side)
{
    Fc_Gen g;
    if (!fc_may_score(st, side))
        return 0;
    g.n = 0;
    g.relist = 0;
    return fc_generate_walk(&g, st, fc_sink_goal, 1, side) == 1;
}

/*
 * Static evaluation for bots, in hundredths of a pawn for the side to
 * move: goals first (10000 each), then terms read around the ball and
 * the goals, each counted White minus Black and weighted by fc_weights
 * (docs/engines.md: their meaning and how they were fitted to self-play
 * results; the threat is hand-set, and off). The ball's rank is the old
 * distance term (the distances to the two goals differ by the rank
 * alone). The threat costs a goal walk for the side not to move
 * (fc_can_score), most of an evaluation's time, and is computed only at
 * a weight other than 0; it lets a shallow search see the opponent's
 * next goal.
 */
enum {
    FC_T_RANK,     /* 2 * rank - 8: the ball's advance toward Black's goal */
    FC_T_ADJACENT, /* pieces next to the ball */
    FC_T_KICKER,   /* ... that may kick it (D-FC-3) */
    FC_T_FORWARD,  /* ... whose kick flies toward the opponent's goal */
    FC_T_NEAR,     /* pieces within two king steps of the ball */
    FC_T_GUARD,    /* pieces next to their own goal */
    FC_T_CENTRAL,  /* (4 - file distance from e) * (rank - 4) of the ball */
    FC_T_TEMPO,    /* +1 White to move, -1 Black */
    FC_T_THREAT,   /* the side not to move could score now: it threatens */
    FC_TERMS
};
/* The threat's weight is 0, which skips its test: at 20 ms a move
 * against the bot as issue 17 found it (`--b 8:classic`), weight 300
 * scored +148 [+124, +174] and 0 +186 [+159, +215] over 400 games each
 * (docs/engines.md): the goal walk costs more depth than the term wins
 * back. A cheaper walk may bring it back. */
static const int32_t fc_weights[FC_TERMS] = {15, 47, -6, -5, 9,
                                             10, -6, -2, 0};
/* The hand-set evaluation, core_evaluate_classic's: the ball's distance
 * to the two goals (their difference is the rank term) and pieces next to
 * it; no threat, whose test is the dearest part of the evaluation and is
 * skipped at weight 0. */
static const int32_t fc_weights_classic[FC_TERMS] = {15, 8, 0, 0, 0,
                                                     0,  0, 0, 0};

static int32_t fc_evaluate_with(const Fc_State *st, const int32_t *weights)
{
    int us = st->side;
    int32_t x[FC_TERMS] = {0};
    int bf = fc_file(st->ball), br = fc_rank(st->ball);
    x[FC_T_RANK] = 2 * br - 8;
    for (int r = br - 2; r <= br + 2; r++)
        for (int f = bf - 2; f <= bf + 2; f++) {
            if (!fc_on_board(f, r))
                continue;
            uint8_t pc = st->board[r * FC_FILES + f];
            if (pc == 0)
                continue;
            int sign = FC_SIDE_OF(pc) == CORE_WHITE ? 1 : -1;
            int df = bf - f, dr = br - r;
            x[FC_T_NEAR] += sign;
            if (df < -1 || df > 1 || dr < -1 || dr > 1)
                continue;
            x[FC_T_ADJACENT] += sign;
            if (!fc_type_moves_along(FC_TYPE_OF(pc), df, dr))
                continue;
            x[FC_T_KICKER] += sign;
            if (dr * sign > 0)
                x[FC_T_FORWARD] += sign;
        }
    for (int i = 0; i < 8; i++) {
        for (int g = 0; g < 2; g++) {
            int f = fc_file(FC_E1) + fc_king_df[i];
            int r = (g == 0 ? 0 : FC_FILES - 1) + fc_king_dr[i];
            if (!fc_on_board(f, r))
                continue;
            uint8_t pc = st->board[r * FC_FILES + f];
            if (pc != 0 && FC_SIDE_OF(pc) == g)
                x[FC_T_GUARD] += g == CORE_WHITE ? 1 : -1;
        }
    }
    x[FC_T_CENTRAL] = (4 - (bf > 4 ? bf - 4 : 4 - bf)) * (br - 4);
    x[FC_T_TEMPO] = us == CORE_WHITE ? 1 : -1;
    if (weights[FC_T_THREAT] != 0 && st->outcome == CORE_ONGOING &&
        fc_can_score(st, 1 - us))
        x[FC_T_THREAT] = us == CORE_WHITE ? -1 : 1;
    int32_t v = 0;
    for (int t = 0; t < FC_TERMS; t++)
        v += weights[t] * x[t];
    return 10000 * (st->score[us] - st->score[1 - us]) +
           (us == CORE_WHITE ? v : -v);
}

static int32_t fc_evaluate(const void *vst)
{
    return fc_evaluate_with(vst, fc_weights);
}

static int32_t fc_evaluate_classic(const void *vst)
{
    return fc_evaluate_with(vst, fc_weights_classic);
}

/* core_move_forcing: CORE_FORCING_GOAL when the turn's last kick puts
 * the ball in the goal the mover attacks (fc_finish_turn scores it),
 * else 0. Only the move's bytes are read; the length is bounded. */
static int32_t fc_forcing(const void *vst, const Core_Move *mv)
{
    const Fc_State *st = vst;
    int first = (mv->flags & FC_FLAG_PIECE_MOVE) ? 2 : 0;
    if (mv->len <= first || mv->len > CORE_MOVE_BYTES)
        return 0;
    int target = st->side == CORE_WHITE ? FC_E9 : FC_E1;
    return mv->b[mv->len - 1] == target ? CORE_FORCING_GOAL : 0;
}

/* core_forcing_find: the first scoring turn in canonical order, found by
 * walking the turns without listing them; the memo skips only chains
 * that went on from a state already walked, which scored nothing. */
static int fc_forcing_find(const void *vst, Core_Move *out, int32_t *gain)
{
    const Fc_State *st = vst;
    Fc_Gen g;
    if (!fc_may_score(st, st->side))
        return 0;
    g.n = 0;
    g.relist = 0;
    if (fc_generate_walk(&g, st, fc_sink_goal, 1, st->side) != 1)
        return 0;
    *out = g.cur;
    *gain = CORE_FORCING_GOAL;
    return 1;
}

const Core_Game core__football = {
    .name = "football",
    .title = "Football chess (Boyer 1951)",
    .move_hint = "'b1-c3 d4*d7 e8*c6' (piece move, kicks) or 'pass'",
    .id = 3,
    .state_size = sizeof(Fc_State),
    .max_moves = FC_MAX_MOVES,
    .encode_max = FC_ENCODE_MAX,
    .init = fc_init,
    .moves = fc_moves,
    .moves_distinct = fc_moves_distinct,
    .make = fc_make,
    .status = fc_status,
    .side = fc_side,
    .ply = fc_ply,
    .key = fc_key,
    .encode = fc_encode,
    .decode = fc_decode,
    .move_format = fc_move_format,
    .move_parse = fc_move_parse,
    .position_format = fc_position_format,
    .position_parse = fc_position_parse,
    .options_format = fc_options_format,
    .perft = fc_perft,
    .evaluate = fc_evaluate,
    .evaluate_classic = fc_evaluate_classic,
    .view = fc_view,
    .legal = fc_legal,
    .forcing = fc_forcing,
    .forcing_find = fc_forcing_find,
};
