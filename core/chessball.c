/*
 * chessball.c: the rules of Chessball (seed 000, decisions D-CB-1..10 and
 * D-ALL-1..5) and its Core_Game table. The board is bitboards over the 32
 * fields of chessball_internal.h; sliders read the reach tables that
 * chessball_board.c derives from the lines and rings. Legal moves are
 * pseudo-legal moves filtered as in chess (D-CB-7): only king moves, moves of
 * pinned pieces and moves out of check are tried on a scratch board. Perft
 * counts the last ply in bulk. The full rules as implemented are in
 * docs/rules/chessball.md.
 */
#include <string.h>

#include "chessball_internal.h"

#define CB_ID 2
/* Bound on legal moves of any position: at most the start set per side
 * (no promotion), times each kind's largest reach over the fields: king 6,
 * queen 15 (on a hexagon 9 ring + 9 line fields, 3 of them shared; on a
 * pentagon 15 line fields), rook 9, bishop 15, knight 5, pawn 6
 * (test_chessball measures these reaches from the tables):
 * 6 + 15 + 2*9 + 2*15 + 2*5 + 8*6 = 127. */
#define CB_MAX_MOVES 127
#define CB_ENCODE_MAX (40 + 8 * CB_HIST_MAX)
#define CB_PLY_MAX 0x7FFFFFFFu

/* Mailbox codes: 0 empty, 1 + kind + 6 * side. */
#define CB_CODE(side, kind) (1 + (kind) + 6 * (side))

static const char piece_letters[] = "PNBRQKpnbrqk";

static const uint8_t start_count[CB_KINDS] = {8, 2, 2, 2, 1, 1};

static inline int lowest(uint32_t m)
{
    return __builtin_ctz(m);
}

/* SWAR popcount: portable builds have no popcnt instruction and the
 * library call is slower. */
static inline int popcount(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0F0F0F0Fu;
    return (int)((m * 0x01010101u) >> 24);
}

/* ---- board ---------------------------------------------------------- */

static int code_at(const Cb_Board *b, int s)
{
    uint32_t bit = 1u << s;
    for (int side = 0; side < 2; side++)
        if (b->side_bb[side] & bit)
            for (int k = 0; k < CB_KINDS; k++)
                if (b->kind_bb[k] & bit)
                    return CB_CODE(side, k);
    return 0;
}

static int kind_at(const Cb_Board *b, uint32_t bit)
{
    int k = 0;
    while (!(b->kind_bb[k] & bit))
        k++;
    return k;
}

/* Put a piece (mailbox code) on empty field s; the key is left to
 * board_key. */
static void board_put(Cb_Board *b, int s, int code)
{
    b->side_bb[(code - 1) / 6] |= 1u << s;
    b->kind_bb[(code - 1) % 6] |= 1u << s;
}

static uint64_t board_key(const Cb_Tables *t, const Cb_Board *b)
{
    uint64_t key = b->side == CORE_BLACK ? t->zobrist_black : 0;
    for (int s = 0; s < CB_FIELDS; s++) {
        int c = code_at(b, s);
        if (c != 0)
            key ^= t->zobrist[(c - 1) / 6][(c - 1) % 6][s];
    }
    return key;
}

/* ---- attacks -------------------------------------------------------- */

/* The reach stored for occupancy occ in a field's slider table. */
static inline uint32_t magic_reach(const Cb_Tables *t, const Cb_Magic *m,
                                   uint32_t occ)
{
    uint64_t h = (uint64_t)(occ & m->mask) * m->magic;
    return t->attack[m->off + (uint32_t)(h >> m->shift)];
}

/* D-CB-2: fields a bishop on s reaches over occ (captures included). */
static inline uint32_t bishop_reach(const Cb_Tables *t, int s, uint32_t occ)
{
    return magic_reach(t, &t->bishop_magic[s], occ);
}

/* D-CB-3: fields a rook on s reaches round its rings (0 on pentagons). */
static inline uint32_t rook_reach(const Cb_Tables *t, int s, uint32_t occ)
{
    return magic_reach(t, &t->rook_magic[s], occ);
}

/* D-CB-6: the fields from which a pawn captures on s (adjacent, other
 * colour). */
static inline uint32_t pawn_sources(const Cb_Tables *t, int s)
{
    return t->adj[s] & ((CB_PENT_MASK >> s) & 1u ? CB_HEX_MASK : CB_PENT_MASK);
}

/* The pieces of set `them` (a subset of one side) that attack field s
 * with occupancy occ. Every move relation is symmetric (lines, rings,
 * adjacency, knight), so attackers are found by moving from s. */
static uint32_t attackers(const Cb_Tables *t, const Cb_Board *b, int s,
                          uint32_t occ, uint32_t them)
{
    const uint32_t *k = b->kind_bb;
    uint32_t a = (t->adj[s] & k[CB_KING]) | (pawn_sources(t, s) & k[CB_PAWN]) |
                 (t->knight[s] & k[CB_KNIGHT]);
    uint32_t diag = (k[CB_BISHOP] | k[CB_QUEEN]) & them;
    uint32_t ring = (k[CB_ROOK] | k[CB_QUEEN]) & them;
    if (diag)
        a |= bishop_reach(t, s, occ) & diag;
    if (ring && ((CB_HEX_MASK >> s) & 1u))
        a |= rook_reach(t, s, occ) & ring;
    return a & them;
}

static inline int attacked(const Cb_Tables *t, const Cb_Board *b, int s,
                           uint32_t occ, uint32_t them)
{
    return attackers(t, b, s, occ, them) != 0;
}

/* The legal moves of the side to move, as target sets by from field. */
typedef struct Cb_Gen {
    uint32_t tg[CB_FIELDS]; /* valid on the mover's fields only */
    uint32_t count;         /* number of legal moves */
    int in_check;
} Cb_Gen;

/* Drop the targets of a non-king piece on s that would leave the king on
 * ksq attacked (D-CB-7); only called for pinned pieces or in check. */
static uint32_t keep_king_safe(const Cb_Tables *t, const Cb_Board *b, int ksq,
                               uint32_t bit, uint32_t targ, uint32_t occ,
                               uint32_t opp)
{
    for (uint32_t d = targ; d; d &= d - 1) {
        uint32_t tb = d & (0u - d);
        if (attacked(t, b, ksq, (occ ^ bit) | tb, opp & ~tb))
            targ &= ~tb;
    }
    return targ;
}

/* Forced inline only when optimising (as in laska_count.c: at -O0 V8
 * refuses functions with too many locals). */
#if defined(__OPTIMIZE__)
#define CB_INLINE static inline __attribute__((always_inline))
#else
#define CB_INLINE static inline
#endif

/* The number of legal moves of the side to move (D-CB-7) and, when g is
 * not NULL, the moves themselves in g. Forced inline so that each caller
 * gets its own copy with g constant: perft's last ply counts without a
 * store per piece and without a call per position. */
CB_INLINE uint32_t gen_body(const Cb_Tables *t, const Cb_Board *b, Cb_Gen *g)
{
    int us = b->side;
    uint32_t own = b->side_bb[us], opp = b->side_bb[us ^ 1];
    uint32_t occ = own | opp, pinned = 0, count = 0, slow;
    uint32_t kbit = b->kind_bb[CB_KING] & own;
    int ksq = lowest(kbit);
    uint32_t checkers = attackers(t, b, ksq, occ, opp);

    if (checkers == 0) {
        /* A piece is pinned when lifting it lets an enemy slider reach
         * the king; only own pieces a slider from the king sees can be,
         * and only if lifting all of them at once reveals a slider. */
        uint32_t diag = (b->kind_bb[CB_BISHOP] | b->kind_bb[CB_QUEEN]) & opp;
        uint32_t ring = (b->kind_bb[CB_ROOK] | b->kind_bb[CB_QUEEN]) & opp;
        if (diag) {
            uint32_t cand = bishop_reach(t, ksq, occ) & own;
            if (cand && (bishop_reach(t, ksq, occ ^ cand) & diag))
                for (; cand; cand &= cand - 1) {
                    uint32_t x = cand & (0u - cand);
                    if (bishop_reach(t, ksq, occ ^ x) & diag)
                        pinned |= x;
                }
        }
        if (ring) {
            uint32_t cand = rook_reach(t, ksq, occ) & own;
            if (cand && (rook_reach(t, ksq, occ ^ cand) & ring))
                for (; cand; cand &= cand - 1) {
                    uint32_t x = cand & (0u - cand);
                    if (rook_reach(t, ksq, occ ^ x) & ring)
                        pinned |= x;
                }
        }
    }
    if (g != NULL)
        g->in_check = checkers != 0;
    /* Pieces whose moves need the king-safety test one by one. */
    slow = checkers != 0 ? own : pinned;

#define CB_EACH(kind, expr)                                                    \
    for (uint32_t m = b->kind_bb[kind] & own; m; m &= m - 1) {                 \
        int s = lowest(m);                                                     \
        uint32_t bit = 1u << s, targ = (expr);                                 \
        if (slow & bit)                                                        \
            targ = keep_king_safe(t, b, ksq, bit, targ, occ, opp);             \
        if (g != NULL)                                                         \
            g->tg[s] = targ;                                                   \
        count += (uint32_t)popcount(targ);                                     \
    }
    /* One loop per kind (seed 6.1-6.5), so no look-ups. D-CB-6: a pawn
     * steps hexagon -> empty hexagon and captures across colours only;
     * on a pentagon it only captures. D-CB-4 knight, D-CB-2 bishop lines,
     * D-CB-3 rook rings, D-CB-5 queen = both. */
    CB_EACH(CB_PAWN, (CB_HEX_MASK >> s) & 1u
                         ? (t->adj[s] & CB_HEX_MASK & ~occ) |
                               (t->adj[s] & CB_PENT_MASK & opp)
                         : t->adj[s] & opp)
    CB_EACH(CB_KNIGHT, t->knight[s] & ~own)
    CB_EACH(CB_BISHOP, bishop_reach(t, s, occ) & ~own)
    CB_EACH(CB_ROOK, rook_reach(t, s, occ) & ~own)
    CB_EACH(CB_QUEEN, (bishop_reach(t, s, occ) | rook_reach(t, s, occ)) & ~own)
#undef CB_EACH
    /* seed 6.6: the king never steps onto an attacked field; lift it so
     * it cannot hide behind itself on a line or ring. */
    uint32_t targ = t->adj[ksq] & ~own;
    for (uint32_t d = targ; d; d &= d - 1) {
        int to = lowest(d);
        if (attacked(t, b, to, occ ^ kbit, opp & ~(1u << to)))
            targ &= ~(1u << to);
    }
    count += (uint32_t)popcount(targ);
    if (g != NULL) {
        g->tg[ksq] = targ;
        g->count = count;
    }
    return count;
}

/* Fill g with every legal move of the side to move (D-CB-7). */
static void gen_moves(const Cb_Tables *t, const Cb_Board *b, Cb_Gen *g)
{
    gen_body(t, b, g);
}

/* Play from -> to on the board (a move gen_moves listed). Returns 1 for
 * a capture. */
static int board_make_kind(const Cb_Tables *t, Cb_Board *b, int kind, int from,
                           int to)
{
    int us = b->side, them = us ^ 1, cap = 0;
    uint32_t fb = 1u << from, tb = 1u << to;
    uint64_t key = b->key;

    if (b->side_bb[them] & tb) {
        int ck = kind_at(b, tb);
        b->kind_bb[ck] ^= tb;
        b->side_bb[them] ^= tb;
        key ^= t->zobrist[them][ck][to];
        b->quiet = 0;
        cap = 1;
    } else if (b->quiet < 255) {
        b->quiet++;
    }
    b->kind_bb[kind] ^= fb | tb;
    b->side_bb[us] ^= fb | tb;
    key ^= t->zobrist[us][kind][from] ^ t->zobrist[us][kind][to] ^
           t->zobrist_black;
    b->key = key;
    b->side = (uint8_t)them;
    return cap;
}

static int board_make(const Cb_Tables *t, Cb_Board *b, int from, int to)
{
    return board_make_kind(t, b, kind_at(b, 1u << from), from, to);
}

/* D-ALL-2: the position with key has occurred twice before among
 * hist[start..n) (earlier positions since the last capture, oldest first;
 * only every second one has the same side to move). */
static int repeated(const uint64_t *hist, int start, int n, uint64_t key)
{
    int seen = 0;
    for (int i = n - 2; i >= start; i -= 2)
        if (hist[i] == key && ++seen == 2)
            return 1;
    return 0;
}

/* ---- state ---------------------------------------------------------- */

static const Cb_State *cstate(const void *st)
{
    return (const Cb_State *)st;
}

static int state_over_by_count(const Cb_State *s, Core_Reason *why)
{
    if (repeated(s->hist, 0, s->nhist, s->b.key)) {
        *why = CORE_REASON_REPETITION;
        return 1;
    }
    if (s->b.quiet >= CB_QUIET_LIMIT) {
        *why = CORE_REASON_MOVE_RULE;
        return 1;
    }
    return 0;
}

static Core_Status cb_status(const void *st)
{
    const Cb_State *s = cstate(st);
    const Cb_Tables *t = cb_tables();
    Core_Status r = {CORE_ONGOING, CORE_REASON_NONE};
    Cb_Gen g;
    Core_Reason why;

    gen_moves(t, &s->b, &g);
    if (g.count == 0) {
        /* D-CB-7, seed 8.3 and 9.3.2 (ahead of the counting draws, as in
         * chess: a mate on the 100th quiet ply stands). */
        if (g.in_check) {
            r.outcome =
                s->b.side == CORE_WHITE ? CORE_WIN_BLACK : CORE_WIN_WHITE;
            r.reason = CORE_REASON_CHECKMATE;
        } else {
            r.outcome = CORE_DRAW;
            r.reason = CORE_REASON_STALEMATE;
        }
    } else if (state_over_by_count(s, &why)) {
        r.outcome = CORE_DRAW;
        r.reason = why;
    }
    return r;
}

/* The start position (seed 3.1, D-CB-8), built from the construction. */
static void start_board(const Cb_Tables *t, Cb_Board *b)
{
    int code[CB_FIELDS] = {0};
    /* King and queen on two adjacent hexagons: b1 and b2. */
    int king = cb_field_parse("b1", 2), queen = cb_field_parse("b2", 2);
    uint32_t kq_pents = t->adj[king] & t->adj[queen] & CB_PENT_MASK;
    uint32_t body;

    code[king] = CB_CODE(CORE_WHITE, CB_KING);
    code[queen] = CB_CODE(CORE_WHITE, CB_QUEEN);
    /* Knights on the two pentagons touching both. */
    for (uint32_t m = kq_pents; m; m &= m - 1)
        code[lowest(m)] = CB_CODE(CORE_WHITE, CB_KNIGHT);
    /* Bishops on the remaining pentagon of each: the king's bishop next
     * to the king, the queen's next to the queen. */
    int kb = lowest(t->adj[king] & CB_PENT_MASK & ~kq_pents);
    int qb = lowest(t->adj[queen] & CB_PENT_MASK & ~kq_pents);
    code[kb] = code[qb] = CB_CODE(CORE_WHITE, CB_BISHOP);
    /* Rooks on the king's other hexagon neighbours. */
    for (uint32_t m = t->adj[king] & CB_HEX_MASK & ~(1u << queen); m;
         m &= m - 1)
        code[lowest(m)] = CB_CODE(CORE_WHITE, CB_ROOK);
    /* Pawns round every piece but the queen's bishop. */
    body = 0;
    for (int s = 0; s < CB_FIELDS; s++)
        if (code[s] != 0 && s != qb)
            body |= t->adj[s];
    for (uint32_t m = body; m; m &= m - 1)
        if (code[lowest(m)] == 0)
            code[lowest(m)] = CB_CODE(CORE_WHITE, CB_PAWN);
    /* Black on the antipodes (seed 3.1, central symmetry). */
    for (int s = 0; s < CB_FIELDS; s++)
        if (code[s] != 0 && code[s] <= 6)
            code[t->antipode[s]] = code[s] + 6;

    memset(b, 0, sizeof *b);
    for (int s = 0; s < CB_FIELDS; s++)
        if (code[s] != 0)
            board_put(b, s, code[s]);
    b->side = CORE_WHITE;
    b->key = board_key(t, b);
}

static int no_option(void *ctx, const char *key, const char *val)
{
    (void)ctx;
    (void)key;
    (void)val;
    return TB_E_OPTION;
}

static int cb_init(void *st, const char *options)
{
    Cb_State *s = st;
    int rc = core__options_each(options, no_option, NULL);
    if (rc != 0)
        return rc;
    memset(s, 0, sizeof *s);
    start_board(cb_tables(), &s->b);
    return 0;
}

static int cb_moves(const void *st, Core_Move *buf, size_t cap, size_t *n)
{
    const Cb_State *s = cstate(st);
    const Cb_Tables *t = cb_tables();
    uint32_t opp = s->b.side_bb[s->b.side ^ 1];
    Cb_Gen g;
    Core_Reason why;
    size_t k = 0;

    *n = 0;
    if (state_over_by_count(s, &why))
        return 0;
    gen_moves(t, &s->b, &g);
    /* Canonical order: from field, then to field, both in index order. */
    for (uint32_t m = s->b.side_bb[s->b.side]; m; m &= m - 1) {
        int from = lowest(m);
        for (uint32_t d = g.tg[from]; d; d &= d - 1) {
            int to = lowest(d);
            if (k >= cap)
                return TB_E_TOOMANY;
            memset(&buf[k], 0, sizeof buf[k]);
            buf[k].len = 2;
            buf[k].flags = (opp >> to) & 1u;
            buf[k].b[0] = (uint8_t)from;
            buf[k].b[1] = (uint8_t)to;
            k++;
        }
    }
    *n = k;
    return 0;
}

static void cb_make(void *st, const Core_Move *mv)
{
    Cb_State *s = st;
    uint64_t before = s->b.key;
    if (board_make(cb_tables(), &s->b, mv->b[0], mv->b[1])) {
        s->nhist = 0;
    } else if (s->nhist < CB_HIST_MAX) {
        s->hist[s->nhist++] = before;
    }
    if (s->ply < CB_PLY_MAX)
        s->ply++;
}

static int cb_side(const void *st)
{
    return cstate(st)->b.side;
}

static uint32_t cb_ply(const void *st)
{
    return cstate(st)->ply;
}

static uint64_t cb_key(const void *st)
{
    return cstate(st)->b.key;
}

/* ---- validation shared by decode and position_parse ------------------ */

/* Check a placement given as mailbox codes and a side to move; build the
 * board. Returns NULL or the reason it is impossible. */
static const char *board_from_codes(const Cb_Tables *t, Cb_Board *b,
                                    const uint8_t code[CB_FIELDS], int side)
{
    int count[2][CB_KINDS] = {{0}};

    memset(b, 0, sizeof *b);
    for (int s = 0; s < CB_FIELDS; s++) {
        if (code[s] > 12)
            return "bad piece code";
        if (code[s] == 0)
            continue;
        int kind = (code[s] - 1) % 6;
        count[(code[s] - 1) / 6][kind]++;
        if (kind == CB_KNIGHT && !((CB_PENT_MASK >> s) & 1u))
            return "a knight stands on a hexagon (D-CB-4)";
        if (kind == CB_ROOK && !((CB_HEX_MASK >> s) & 1u))
            return "a rook stands on a pentagon (D-CB-3)";
        board_put(b, s, code[s]);
    }
    for (int c = 0; c < 2; c++) {
        if (count[c][CB_KING] != 1)
            return "each side needs exactly one king";
        for (int k = 0; k < CB_KINDS; k++)
            if (count[c][k] > start_count[k])
                return "more pieces of a kind than the start set";
    }
    if (side != CORE_WHITE && side != CORE_BLACK)
        return "bad side to move";
    b->side = (uint8_t)side;
    b->key = board_key(t, b);
    /* The side that just moved may not be in check (D-CB-7). */
    int other = side ^ 1;
    int ksq = lowest(b->kind_bb[CB_KING] & b->side_bb[other]);
    if (attacked(t, b, ksq, b->side_bb[0] | b->side_bb[1], b->side_bb[side]))
        return "the side not to move is in check";
    return NULL;
}

/* ---- encoding ------------------------------------------------------- */

/* Layout: id, 32 mailbox codes (a..h), side, quiet, ply (u32 LE), nhist,
 * nhist zobrist keys (u64 LE, oldest first). */
static int cb_encode(const void *st, uint8_t *buf, size_t cap, size_t *len)
{
    const Cb_State *s = cstate(st);
    size_t need = 40 + 8 * (size_t)s->nhist;
    if (cap < need)
        return TB_E_SPACE;
    buf[0] = CB_ID;
    for (int i = 0; i < CB_FIELDS; i++)
        buf[1 + i] = (uint8_t)code_at(&s->b, i);
    buf[33] = s->b.side;
    buf[34] = s->b.quiet;
    core__put_u32(buf + 35, s->ply);
    buf[39] = s->nhist;
    for (int i = 0; i < s->nhist; i++)
        core__put_u64(buf + 40 + 8 * i, s->hist[i]);
    *len = need;
    return 0;
}

static int cb_decode(void *st, const uint8_t *buf, size_t len)
{
    Cb_State *s = st;
    const Cb_Tables *t = cb_tables();
    if (len < 40 || buf[0] != CB_ID)
        return TB_E_ENCODING;
    memset(s, 0, sizeof *s);
    if (board_from_codes(t, &s->b, buf + 1, buf[33]) != NULL)
        return TB_E_ENCODING;
    s->b.quiet = buf[34];
    s->ply = core__get_u32(buf + 35);
    s->nhist = buf[39];
    if (s->b.quiet > CB_QUIET_LIMIT || s->ply > CB_PLY_MAX ||
        s->b.quiet > s->ply || s->nhist > s->b.quiet)
        return TB_E_ENCODING;
    if (len != 40 + 8 * (size_t)s->nhist)
        return TB_E_ENCODING;
    for (int i = 0; i < s->nhist; i++)
        s->hist[i] = core__get_u64(buf + 40 + 8 * i);
    return 0;
}

/* ---- notation (D-CB-10) ------------------------------------------- */

static int cb_move_format(const void *st, const Core_Move *mv, char *buf,
                          size_t cap)
{
    const Cb_Tables *t = cb_tables();
    Core_Text txt;
    (void)st;
    if (mv->len != 2 || mv->b[0] >= CB_FIELDS || mv->b[1] >= CB_FIELDS)
        return TB_E_ARG;
    core__text_init(&txt, buf, cap);
    core__text_str(&txt, t->name[mv->b[0]]);
    core__text_char(&txt, (mv->flags & 1) ? 'x' : '-');
    core__text_str(&txt, t->name[mv->b[1]]);
    return core__text_end(&txt);
}

/* Read one field name at *p, advancing; -1 if none. */
static int read_field(const char **p)
{
    const char *s = *p;
    int f;
    if (s[0] != '\0' && s[1] >= '0' && s[1] <= '9') {
        f = cb_field_parse(s, 2);
        if (f >= 0)
            *p = s + 2;
        return f;
    }
    f = cb_field_parse(s, 1);
    if (f >= 0)
        *p = s + 1;
    return f;
}

static int cb_move_parse(const void *st, const char *text, Core_Move *out)
{
    const char *p = text;
    Core_Move buf[CB_MAX_MOVES];
    size_t n = 0;
    int from = read_field(&p), to;
    char sep;

    if (from < 0 || (*p != '-' && *p != 'x'))
        return TB_E_NOTATION;
    sep = *p++;
    to = read_field(&p);
    if (to < 0 || *p != '\0')
        return TB_E_NOTATION;
    int rc = cb_moves(st, buf, CB_MAX_MOVES, &n);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if (buf[i].b[0] == from && buf[i].b[1] == to) {
            /* The separator must say what the move does (D-CB-10). */
            if ((sep == 'x') != (buf[i].flags & 1))
                return TB_E_ILLEGAL;
            *out = buf[i];
            return 0;
        }
    }
    return TB_E_ILLEGAL;
}

/* ---- position string ------------------------------------------------ */

/* Groups of the placement: a / b1..b5 / ... / h. */
static const int group_first[8] = {0, 1, 6, 11, 16, 21, 26, 31};
static const int group_len[8] = {1, 5, 5, 5, 5, 5, 5, 1};

static int cb_position_format(const void *st, char *buf, size_t cap)
{
    const Cb_State *s = cstate(st);
    Core_Text txt;
    core__text_init(&txt, buf, cap);
    for (int g = 0; g < 8; g++) {
        int empty = 0;
        if (g > 0)
            core__text_char(&txt, '/');
        for (int i = 0; i < group_len[g]; i++) {
            int c = code_at(&s->b, group_first[g] + i);
            if (c == 0) {
                empty++;
                continue;
            }
            if (empty > 0)
                core__text_char(&txt, (char)('0' + empty));
            empty = 0;
            core__text_char(&txt, piece_letters[c - 1]);
        }
        if (empty > 0)
            core__text_char(&txt, (char)('0' + empty));
    }
    core__text_char(&txt, ' ');
    core__text_char(&txt, s->b.side == CORE_WHITE ? 'w' : 'b');
    core__text_char(&txt, ' ');
    core__text_uint(&txt, s->b.quiet);
    core__text_char(&txt, ' ');
    core__text_uint(&txt, s->ply);
    return core__text_end(&txt);
}

/* A decimal of at most 10 digits at *p up to a space or the end. */
/* A counter of a position text: at most ten digits (core_read_uint). */
static int read_uint(const char **p, uint64_t *v)
{
    return core_read_uint(p, 9999999999u, v);
}

static int cb_position_parse(void *st, const char *text, char *why,
                             size_t why_cap)
{
    Cb_State *s = st;
    const Cb_Tables *t = cb_tables();
    uint8_t code[CB_FIELDS] = {0};
    const char *p = text;
    uint64_t quiet = 0, ply = 0;
    int side;

    for (int g = 0; g < 8; g++) {
        int filled = 0, prev_digit = 0;
        if (g > 0 && *p++ != '/')
            return core__why(why, why_cap, TB_E_POSITION,
                             "expected 8 layers a/b/c/d/e/f/g/h split by /");
        while (*p != '/' && *p != ' ' && *p != '\0') {
            if (*p >= '1' && *p <= '5') {
                if (prev_digit)
                    return core__why(why, why_cap, TB_E_POSITION,
                                     "two digits in a row");
                filled += *p - '0';
                prev_digit = 1;
            } else {
                const char *l = strchr(piece_letters, *p);
                if (l == NULL)
                    return core__why(why, why_cap, TB_E_POSITION,
                                     "unknown piece letter");
                if (filled < group_len[g])
                    code[group_first[g] + filled] =
                        (uint8_t)(1 + (l - piece_letters));
                filled++;
                prev_digit = 0;
            }
            if (filled > group_len[g])
                return core__why(why, why_cap, TB_E_POSITION,
                                 "too many fields in a layer");
            p++;
        }
        if (filled != group_len[g])
            return core__why(why, why_cap, TB_E_POSITION,
                             "too few fields in a layer");
    }
    if (*p++ != ' ' || (*p != 'w' && *p != 'b'))
        return core__why(why, why_cap, TB_E_POSITION,
                         "expected side to move w or b");
    side = *p++ == 'w' ? CORE_WHITE : CORE_BLACK;
    if (*p != '\0') {
        if (*p++ != ' ' || read_uint(&p, &quiet) != 0 || *p++ != ' ' ||
            read_uint(&p, &ply) != 0 || *p != '\0')
            return core__why(why, why_cap, TB_E_POSITION,
                             "expected: placement side quiet-plies ply");
        if (quiet > CB_QUIET_LIMIT || ply > CB_PLY_MAX || quiet > ply)
            return core__why(why, why_cap, TB_E_POSITION,
                             "counters out of range (quiet <= 100, "
                             "quiet <= ply)");
    }
    memset(s, 0, sizeof *s);
    const char *bad = board_from_codes(t, &s->b, code, side);
    if (bad != NULL)
        return core__why(why, why_cap, TB_E_POSITION, bad);
    s->b.quiet = (uint8_t)quiet;
    s->ply = (uint32_t)ply;
    return 0;
}

static int cb_options_format(const void *st, char *buf, size_t cap)
{
    (void)st;
    return core__copy_text(buf, cap, "");
}

/* ---- perft ---------------------------------------------------------- */

/* Perft's last ply: the number of legal moves of b, none when the game
 * is over (D-ALL-5). Inlined into perft_rec's loop over the moves one ply
 * above: no call and no move list per position counted. */
CB_INLINE uint64_t leaf_count(const Cb_Tables *t, const Cb_Board *b,
                              const uint64_t *hist, int start, int n)
{
    if (b->quiet >= CB_QUIET_LIMIT || repeated(hist, start, n, b->key))
        return 0;
    return gen_body(t, b, NULL);
}

static uint64_t perft_rec(const Cb_Tables *t, const Cb_Board *b, unsigned depth,
                          uint64_t *hist, int start, int n)
{
    Cb_Gen g;
    uint64_t nodes = 0;

    /* A finished game has no moves (D-ALL-5). */
    if (b->quiet >= CB_QUIET_LIMIT || repeated(hist, start, n, b->key))
        return 0;
    gen_moves(t, b, &g);
    if (depth == 1)
        return g.count;
    hist[n] = b->key;
    for (int kind = CB_PAWN; kind < CB_KINDS; kind++) {
        uint32_t own = b->kind_bb[kind] & b->side_bb[b->side];
        for (uint32_t m = own; m; m &= m - 1) {
            int from = lowest(m);
            for (uint32_t d = g.tg[from]; d; d &= d - 1) {
                Cb_Board c = *b;
                int cap = board_make_kind(t, &c, kind, from, lowest(d));
                int cstart = cap ? n + 1 : start;
                nodes += depth == 2
                             ? leaf_count(t, &c, hist, cstart, n + 1)
                             : perft_rec(t, &c, depth - 1, hist, cstart, n + 1);
            }
        }
    }
    return nodes;
}

static int cb_perft(const void *st, unsigned depth, uint64_t *nodes)
{
    const Cb_State *s = cstate(st);
    uint64_t hist[CB_HIST_MAX + 66];
    if (depth == 0) {
        *nodes = 1;
        return 0;
    }
    if (depth > 64)
        return TB_E_ARG;
    memcpy(hist, s->hist, sizeof s->hist[0] * s->nhist);
    *nodes = perft_rec(cb_tables(), &s->b, depth, hist, 0, s->nhist);
    return 0;
}

/* ---- evaluation ----------------------------------------------------- */

/* Material values in hundredths of a pawn, by kind (the king is never
 * taken), then the weight of a legal move of the side to move and the
 * bonus of the move. Fitted to self-play results (Texel's method;
 * docs/engines.md). */
static const int32_t cb_value[CB_KINDS] = {100, 300, 325, 450, 850, 0};
#define CB_W_MOBILITY 2
#define CB_W_TEMPO 0

/* core_move_forcing: the value of the piece a capture takes, read from
 * the target field (the move's capture flag, set by cb_moves, says the
 * same); 0 for a quiet move. Masks keep any bytes in range. */
static int32_t cb_forcing(const void *st, const Core_Move *mv)
{
    const Cb_State *s = cstate(st);
    uint32_t tb = 1u << (mv->b[1] & (CB_FIELDS - 1));
    if (!(s->b.side_bb[s->b.side ^ 1] & tb))
        return 0;
    return cb_value[kind_at(&s->b, tb)];
}

/* core_in_check: the side to move's king attacked (D-CB-7). */
static int cb_in_check(const void *st)
{
    const Cb_State *s = cstate(st);
    const Cb_Board *b = &s->b;
    uint32_t king = b->kind_bb[CB_KING] & b->side_bb[b->side];
    if (king == 0)
        return 0;
    return attacked(cb_tables(), b, lowest(king),
                    b->side_bb[0] | b->side_bb[1], b->side_bb[b->side ^ 1]);
}

/* Material in hundredths of a pawn, plus a little mobility. */
static int32_t cb_evaluate(const void *st)
{
    const int32_t *value = cb_value;
    const Cb_State *s = cstate(st);
    const Cb_Tables *t = cb_tables();
    int32_t score = 0;
    Cb_Gen g;
    for (int k = 0; k < CB_KINDS; k++)
        score += value[k] *
                 (popcount(s->b.kind_bb[k] & s->b.side_bb[s->b.side]) -
                  popcount(s->b.kind_bb[k] & s->b.side_bb[s->b.side ^ 1]));
    gen_moves(t, &s->b, &g);
    return score + CB_W_MOBILITY * (int32_t)g.count + CB_W_TEMPO;
}

/* ---- view ---------------------------------------------------------- */

/* The map of docs/rules/chessball.md: layers a..h as rows, longitude in
 * 36-degree steps as columns (c1 at 0); the poles sit mid-row. */
static void field_cell(int s, int *row, int *col)
{
    if (s == 0 || s == 31) {
        *row = s == 0 ? 0 : 7;
        *col = 5;
        return;
    }
    int layer = (s - 1) / 5, k = (s - 1) % 5 + 1; /* layer 0 = b */
    *row = 1 + layer;
    switch (layer) {
    case 1: /* c */
        *col = 2 * (k - 1);
        break;
    case 3: /* e */
    case 5: /* g */
        *col = (2 * k) % 10;
        break;
    default: /* b, d, f */
        *col = 2 * k - 1;
        break;
    }
}

static int cb_view(const void *st, Core_View *v)
{
    const Cb_State *s = cstate(st);
    const Cb_Tables *t = cb_tables();
    Core_Text txt;

    v->rows = 8;
    v->cols = 10;
    for (int r = 0; r < 8; r++) {
        v->row_label[r][0] = (char)('a' + r);
        for (int c = 0; c < 10; c++)
            v->cell[r][c].owner = -1;
    }
    /* The column labels stay "" (core_view cleared them): a column is a
     * longitude, no part of a field's name, and each cell names its
     * field (players say b3, not "b at 72 degrees"). */
    for (int f = 0; f < CB_FIELDS; f++) {
        int r, c, code = code_at(&s->b, f);
        field_cell(f, &r, &c);
        Core_Cell *cell = &v->cell[r][c];
        cell->kind =
            (CB_PENT_MASK >> f) & 1u ? CORE_CELL_DARK : CORE_CELL_LIGHT;
        core__copy_text(cell->name, sizeof cell->name, t->name[f]);
        core__text_init(&txt, cell->detail, sizeof cell->detail);
        core__text_said(&txt, cell->said, &cell->nsaid, CORE_CELL_SAID);
        if (code != 0) {
            cell->owner = (int8_t)((code - 1) / 6);
            cell->glyph[0] = piece_letters[code - 1];
            /* white pawn .. black king, in code order */
            core__text_phrase(&txt, CORE_PHRASE_CB_PIECE + code - 1, 0, 0, 0);
            core__text_str(&txt, ", ");
        }
        core__text_phrase(&txt, CORE_PHRASE_NEXT_TO, 0, 0, 0);
        for (uint32_t m = t->adj[f]; m; m &= m - 1) {
            core__text_char(&txt, ' ');
            core__text_str(&txt, t->name[lowest(m)]);
        }
    }
    /* The side to move in check (seed 8, D-CB-7), for the status line. */
    int check = cb_in_check(st);
    core__text_init(&txt, v->status, sizeof v->status);
    core__text_said(&txt, v->said, &v->nsaid, CORE_VIEW_SAID);
    if (check)
        core__text_phrase(&txt,
                          s->b.side == CORE_WHITE ? CORE_PHRASE_WHITE_IN_CHECK
                                                  : CORE_PHRASE_BLACK_IN_CHECK,
                          0, 0, 0);
    if (s->b.quiet > 0) {
        if (check)
            core__text_str(&txt, "; ");
        core__text_phrase(&txt, CORE_PHRASE_NO_CAPTURE, s->b.quiet, 0, 0);
    }
    return 0;
}

const Core_Game core__chessball = {
    .name = "chessball",
    .title = "Chessball (chess on a football, 1998)",
    .move_hint = "from-to or fromxto with fields a, b1..g5, h (b3xc4)",
    .id = CB_ID,
    .state_size = sizeof(Cb_State),
    .max_moves = CB_MAX_MOVES,
    .encode_max = CB_ENCODE_MAX,
    .init = cb_init,
    .moves = cb_moves,
    .make = cb_make,
    .status = cb_status,
    .side = cb_side,
    .ply = cb_ply,
    .key = cb_key,
    .encode = cb_encode,
    .decode = cb_decode,
    .move_format = cb_move_format,
    .move_parse = cb_move_parse,
    .position_format = cb_position_format,
    .position_parse = cb_position_parse,
    .options_format = cb_options_format,
    .perft = cb_perft,
    .evaluate = cb_evaluate,
    .view = cb_view,
    .forcing = cb_forcing,
    .in_check = cb_in_check,
};
