/*
 * laska.c: Laska (Emanuel Lasker, 1911; seed 003, decisions D-LA-*), the
 * 7x7 draughts game in which jumped pieces are not removed but put under
 * the jumping column as prisoners. This file holds the game's table for
 * the core interface, its start position, status, canonical encoding,
 * notation, position strings, evaluation and view; the state and geometry
 * are described in laska_internal.h, move generation lives in
 * laska_gen.c, making moves in laska_make.c and perft in laska_perft.c.
 *
 * Moves: b[0] is the start square, b[1..len-1] every landing square; flags
 * is 1 for a capture.
 */
#include <stdlib.h>
#include <string.h>

#include "laska_internal.h"

#define LA_ENCODE_VERSION 1
#define LA_ID 1

/* Piece code of the i-th piece of square s: colour * 2 + officer. */
static int piece_at(const Laska_State *st, int s, int i)
{
    return (int)(((st->colour[s] >> i) & 1) * 2 + ((st->officer[s] >> i) & 1));
}

static int last_rank(int side)
{
    return side == CORE_WHITE ? 6 : 0;
}

static void laska_make(void *vst, const Core_Move *mv)
{
    Laska_Undo u;
    core__laska_do(vst, mv, &u, LA_KEYS_UPDATE);
}

/* ---- the table's functions ------------------------------------------ */

static void set_start(Laska_State *st)
{
    memset(st, 0, sizeof *st);
    for (int s = 0; s < LA_SQUARES; s++) {
        if (core__la.rank[s] <= 2) {
            st->height[s] = 1;
        } else if (core__la.rank[s] >= 4) {
            st->height[s] = 1;
            st->colour[s] = 1;
        }
        core__laska_set_commander(st, s);
    }
    st->side = CORE_WHITE; /* D-LA-1 */
    st->key = core__laska_full_key(st);
    st->hist[0] = st->key;
    st->nhist = 1;
}

static int laska_init(void *vst, const char *options)
{
    core__laska_tables();
    if (options[0] != '\0')
        return TB_E_OPTION; /* Laska has no match options. */
    set_start(vst);
    return 0;
}

static Core_Status laska_status(const void *vst)
{
    const Laska_State *st = vst;
    Core_Status s = {CORE_ONGOING, CORE_REASON_NONE};

    if (core__laska_count(st) == 0) { /* D-LA-7 */
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
    int overflow = 0;

    *n = 0;
    if (st->drawn != CORE_REASON_NONE)
        return 0;
    size_t found = core__laska_generate(st, buf, cap, &overflow);
    if (overflow)
        return TB_E_TOOMANY;
    *n = found;
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
        core__laska_set_commander(st, s);
        if (st->height[s] > 0 && !(st->officer[s] & 1) &&
            core__la.rank[s] == last_rank((int)(st->colour[s] & 1)))
            return "a soldier commands a column on its last rank";
    }
    if (count[0] > LA_PIECES || count[1] > LA_PIECES)
        return "more than 11 pieces of one colour";
    st->key = core__laska_full_key(st);
    return NULL;
}

static int laska_decode(void *vst, const uint8_t *buf, size_t len)
{
    Laska_State *st = vst;
    size_t n = 9;
    int total = 0;

    core__laska_tables();
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
    core__laska_update_drawn(st);
    return 0;
}

/* ---- notation (D-LA-9) ---------------------------------------------- */

static void put_square(Core_Text *t, int s)
{
    core__text_char(t, (char)('a' + core__la.file[s]));
    core__text_char(t, (char)('1' + core__la.rank[s]));
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
        if (core__la.nb[a][d] == b)
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
            uint64_t v;
            if (core_read_uint(&p, LA_SQUARES, &v) != 0 || v < 1)
                return TB_E_NOTATION;
            sq[n++] = (int)v - 1;
        } else {
            /* a letter and a digit name a square: one off the 25 dark
             * squares (e4, h1, a8) is no square of the board, not bad
             * notation (a new user typed e4-d3 and was told the latter) */
            if (p[0] >= 'a' && p[0] <= 'z' && p[1] >= '0' && p[1] <= '9' &&
                (p[0] > 'g' || p[1] < '1' || p[1] > '7' ||
                 core__la.at[p[0] - 'a'][p[1] - '1'] < 0) &&
                (p[2] == '\0' || p[2] == '-' || p[2] == 'x' || p[2] == 'X' ||
                 p[2] == ':' || p[2] == '*'))
                return TB_E_SQUARE;
            if (p[0] < 'a' || p[0] > 'g' || p[1] < '1' || p[1] > '7')
                return TB_E_NOTATION;
            int s = core__la.at[p[0] - 'a'][p[1] - '1'];
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
                int mf = core__la.file[a] + core__la.file[b], mr = core__la.rank[a] + core__la.rank[b];
                if (mf % 2 || mr % 2 || core__la.at[mf / 2][mr / 2] != sq[i - 1])
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
    int plen = 0, overflow = 0;
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
    size_t n = core__laska_generate(st, moves, LA_MAX_MOVES, &overflow);
    for (size_t i = 0; i < n; i++) {
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

/* Read a decimal number of any number of digits, held at 1000000000
 * past nine digits (every counter's bound is far below, and a long
 * may be 32 bits); -1 if not one. */
/* A counter of a position text, the whole of p[0..n); -1 when it is
 * none (core_read_uint); a large one reads as 1000000000, which the
 * caller refuses as out of range. */
static long read_number(const char *p, size_t n)
{
    uint64_t v;
    if (core_read_uint_all(p, n, UINT64_MAX, &v) != 0)
        return -1;
    return v > 1000000000u ? 1000000000 : (long)v;
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
        int sign = p[0] == '-' || p[0] == '+';
        if ((p[0] >= '0' && p[0] <= '9') ||
            (sign && p[1] >= '0' && p[1] <= '9')) {
            if (nnum == 2)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "more than two counters: QUIET PLY");
            if (sign || (numbers[nnum] = read_number(p, n)) < 0)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "a counter is a whole number, no sign, no "
                                 "leading zero: QUIET 0..100, "
                                 "PLY 0..1000");
            nnum++;
        } else {
            int column = n >= 3 && p[0] >= 'a' && p[0] <= 'g' &&
                         p[1] >= '1' && p[1] <= '7';
            if (nnum > 0 && column)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "a column after the counters");
            if (nnum == 1)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "expected two counters: QUIET PLY");
            if (nnum == 2)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "nothing may follow the counters QUIET PLY");
            if (!column)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "expected a column like d4WbbB");
            int s = core__la.at[p[0] - 'a'][p[1] - '1'];
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
    core__laska_update_drawn(st);
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
/* The hand-set weights, core_evaluate_classic's. */
static const int32_t la_weight_classic[LA_W_COUNT] = {100, 300, 6, 40, 25, 0};

/* Material as columns: a commander counts fully, own pieces under it are
 * reserves freed when the column is jumped, enemy prisoners are pieces the
 * opponent cannot use while the column stands; commanding soldiers are
 * weighted by their advance. */
static int32_t la_evaluate_with(const Laska_State *st, const int32_t *w)
{
    int32_t score[2] = {0, 0};

    for (int s = 0; s < LA_SQUARES; s++) {
        int h = st->height[s];
        if (h == 0)
            continue;
        int owner = (int)(st->colour[s] & 1);
        int officer = (int)(st->officer[s] & 1);
        int32_t v = officer ? w[LA_W_OFFICER] : w[LA_W_SOLDIER];
        if (!officer)
            v += w[LA_W_ADVANCE] * (owner == CORE_WHITE ? core__la.rank[s]
                                                        : 6 - core__la.rank[s]);
        for (int i = 1; i < h; i++)
            v += (((st->colour[s] >> i) & 1) == (uint32_t)owner)
                     ? w[LA_W_RESERVE]
                     : w[LA_W_PRISONER];
        score[owner] += v;
    }
    return score[st->side] - score[st->side ^ 1] + w[LA_W_TEMPO];
}

static int32_t laska_evaluate(const void *vst)
{
    return la_evaluate_with(vst, la_weight);
}

static int32_t laska_evaluate_classic(const void *vst)
{
    return la_evaluate_with(vst, la_weight_classic);
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

/* 7x7, rank 7 on top. A cell's glyph is its column top first, letters
 * only ("bw": a Black soldier on a White one), so it never reads as a
 * square's name as a height did ("b2" on a3); a column taller than
 * LA_GLYPH_PIECES shows its top pieces and '+' ("bw+"), in the three
 * columns a terminal's cell has for it. The detail lists it whole. */
#define LA_GLYPH_PIECES 3
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
            int s = core__la.at[f][6 - r];
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
            int shown = h <= LA_GLYPH_PIECES ? h : LA_GLYPH_PIECES - 1;
            for (int i = 0; i < shown; i++)
                c->glyph[i] = code[piece_at(st, s, i)];
            if (shown < h)
                c->glyph[shown] = '+';
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
    .perft = core__laska_perft,
    .evaluate = laska_evaluate,
    .evaluate_classic = laska_evaluate_classic,
    .view = laska_view,
    .forcing = laska_forcing,
};
