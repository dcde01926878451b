/*
 * volleyball.c: Chess volleyball (Kriushenkov, seed 002) as two core games:
 * `volleyball` (8x8, id 4) and `volleyball10` (10x10 placeholder variant of
 * spec section 8, id 5). This file holds the interface side: match options,
 * notation, the position string, the canonical encoding and its hostile
 * decoding, status and evaluation. The rules live in volleyball_rules.c;
 * docs/rules/volleyball.md documents every format used here.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "volleyball_internal.h"

static const char type_letters[] = "NBRQVMJC";
static const char *const phase_names[] = {"serve", "rally", "defpen", "over",
                                          "chess"};
static const char *const outcome_names[] = {"none", "mate", "stalemate",
                                            "notcaught"};

#define VB_ENCODE_MAX 800
#define VB_MAX_MOVES8 1024
#define VB_MAX_MOVES10 4096
#define VB_CLOCK_MAX 1000
#define VB_POINTS_MAX 145 /* 2 x (60 + 12) + 1 */

static int pieces_per_side(const Vb_State *s)
{
    return s->board10 ? 12 : 10;
}

/* ---- options (A-46, 6.3) --------------------------------------------- */

/* The whole of t as a number up to max (core_read_uint). */
static int parse_uint(const char *t, unsigned max, unsigned *out)
{
    uint64_t v;
    if (core_read_uint_all(t, strlen(t), max, &v) != 0)
        return -1;
    *out = (unsigned)v;
    return 0;
}

static int option_fn(void *ctx, const char *key, const char *val)
{
    Vb_State *s = ctx;
    unsigned v;
    if (strcmp(key, "chess") == 0) {
        if (strcmp(val, "on") == 0)
            s->opt_chess = 1;
        else if (strcmp(val, "off") == 0)
            s->opt_chess = 0;
        else
            return TB_E_OPTION;
        return 0;
    }
    if (strcmp(key, "cat") == 0 && s->board10) { /* P-04 */
        if (strcmp(val, "on") == 0)
            s->opt_cat = 1;
        else if (strcmp(val, "off") == 0)
            s->opt_cat = 0;
        else
            return TB_E_OPTION;
        return 0;
    }
    if (strlen(key) == 4 && strncmp(key, "set", 3) == 0 && key[3] >= '1' &&
        key[3] <= '3') {
        if (parse_uint(val, VB_SET_LEN_MAX, &v) != 0 || v < 1)
            return TB_E_OPTION;
        s->opt_set_len[key[3] - '1'] = (uint8_t)v;
        return 0;
    }
    return TB_E_OPTION;
}

static int vb_init(void *st, const char *options, int board10)
{
    Vb_State *s = st;
    memset(s, 0, sizeof *s);
    s->board10 = (uint8_t)board10;
    s->opt_cat = (uint8_t)board10;
    s->opt_set_len[0] = 12;
    s->opt_set_len[1] = 12;
    s->opt_set_len[2] = 8;
    int rc = core__options_each(options, option_fn, s);
    if (rc != 0)
        return rc;
    core__vb_setup(s, board10);
    core__vb_normalise(s);
    return 0;
}

static int vb8_init(void *st, const char *options)
{
    return vb_init(st, options, 0);
}

static int vb10_init(void *st, const char *options)
{
    return vb_init(st, options, 1);
}

static void options_text(const Vb_State *s, Core_Text *t, char sep)
{
    static const uint8_t def[3] = {12, 12, 8};
    int first = 1;
    if (s->board10 && !s->opt_cat) {
        core__text_str(t, "cat=off");
        first = 0;
    }
    if (s->opt_chess) {
        if (!first)
            core__text_char(t, sep);
        core__text_str(t, "chess=on");
        first = 0;
    }
    for (int i = 0; i < 3; i++) {
        if (s->opt_set_len[i] == def[i])
            continue;
        if (!first)
            core__text_char(t, sep);
        core__text_str(t, "set");
        core__text_char(t, (char)('1' + i));
        core__text_char(t, '=');
        core__text_uint(t, s->opt_set_len[i]);
        first = 0;
    }
}

static int vb_options_format(const void *st, char *buf, size_t cap)
{
    Core_Text t;
    core__text_init(&t, buf, cap);
    options_text(st, &t, ',');
    return core__text_end(&t);
}

/* ---- squares, letters, notation (4.1) -------------------------------- */

static void square_text(const Vb_State *s, Core_Text *t, int sq)
{
    int nf = vb_nf(s);
    core__text_char(t, (char)('a' + sq % nf));
    core__text_uint(t, (uint64_t)(sq / nf + 1));
}

/* Read a square at *p ("a1".."h8" or "a1".."j10"); -1 if none. */
static int square_read(const Vb_State *s, const char **p)
{
    const char *q = *p;
    int nf = vb_nf(s);
    if (q[0] < 'a' || q[0] >= 'a' + nf || q[1] < '1' || q[1] > '9')
        return -1;
    int f = q[0] - 'a', r = q[1] - '0', len = 2;
    if (q[2] >= '0' && q[2] <= '9') {
        r = r * 10 + (q[2] - '0');
        len = 3;
    }
    if (r > nf)
        return -1;
    *p = q + len;
    return (r - 1) * nf + f;
}

static char piece_letter(const Vb_State *s, int id)
{
    if (id == VB_NONE || id >= VB_IDS || s->type[id] >= VB_TYPES)
        return '?';
    if (s->phase == VB_CHESS && id == s->king)
        return 'K'; /* 7.2 */
    return type_letters[s->type[id]];
}

/* P-07 rebound suffix: "^" and the hooking piece ("^Nd7"). */
static void hook_text(const Vb_State *s, Core_Text *t, int sq)
{
    core__text_char(t, '^');
    if (sq >= vb_nsq(s)) {
        t->err = TB_E_ARG;
        return;
    }
    core__text_char(t, piece_letter(s, s->board[sq]));
    square_text(s, t, sq);
}

static int vb_move_format(const void *st, const Core_Move *mv, char *buf,
                          size_t cap)
{
    const Vb_State *s = st;
    const uint8_t *b = mv->b;
    int nsq = vb_nsq(s);
    Core_Text t;
    core__text_init(&t, buf, cap);
    switch (b[0]) {
    case VB_K_SERVE:
        if (b[1] >= nsq || b[2] >= nsq || b[3] >= nsq)
            return TB_E_ARG;
        core__text_str(&t, "S ");
        core__text_char(&t, piece_letter(s, s->board[b[1]]));
        square_text(s, &t, b[1]);
        core__text_char(&t, '-');
        square_text(s, &t, b[2]);
        core__text_char(&t, '>');
        square_text(s, &t, b[3]);
        if (b[4])
            core__text_str(&t, "/F");
        if (b[5] & VB_HOOK)
            hook_text(s, &t, b[5] & 0x7F);
        break;
    case VB_K_TOUCH:
        if (b[1] >= nsq || b[2] >= nsq || s->ball >= nsq)
            return TB_E_ARG;
        core__text_str(&t, "T ");
        core__text_char(&t, piece_letter(s, s->board[b[1]]));
        square_text(s, &t, b[1]);
        core__text_char(&t, '-');
        square_text(s, &t, s->ball);
        core__text_char(&t, '>');
        square_text(s, &t, b[2]);
        if (b[3] & VB_HOOK)
            hook_text(s, &t, b[3] & 0x7F);
        break;
    case VB_K_PENALTY:
    case VB_K_CHESS:
    case VB_K_RETREAT:
        core__text_str(&t, b[0] == VB_K_PENALTY ? "P "
                           : b[0] == VB_K_CHESS ? "C "
                                                : "R ");
        if (b[0] == VB_K_CHESS && b[1] == 255) {
            core__text_str(&t, "pass");
            break;
        }
        if (b[1] >= nsq || b[2] >= nsq)
            return TB_E_ARG;
        core__text_char(&t, piece_letter(s, s->board[b[1]]));
        square_text(s, &t, b[1]);
        core__text_char(&t, '-');
        square_text(s, &t, b[2]);
        break;
    case VB_K_REMOVE:
        if (b[1] >= nsq)
            return TB_E_ARG;
        core__text_str(&t, "X ");
        core__text_char(&t, piece_letter(s, s->board[b[1]]));
        square_text(s, &t, b[1]);
        break;
    case VB_K_PLACE:
        if (b[1] >= VB_IDS || b[2] >= nsq)
            return TB_E_ARG;
        core__text_str(&t, "+ ");
        core__text_char(&t, piece_letter(s, b[1]));
        square_text(s, &t, b[2]);
        break;
    case VB_K_BALL:
        if (b[1] >= nsq)
            return TB_E_ARG;
        core__text_str(&t, "@ ");
        square_text(s, &t, b[1]);
        break;
    default:
        return TB_E_ARG;
    }
    return core__text_end(&t);
}

/* Shape of a notation (4.1): piece letter + square. */
static int shape_piece_square(const Vb_State *s, const char **p)
{
    if (**p == '\0' || strchr("NBRQVMJCK", **p) == NULL)
        return -1;
    (*p)++;
    return square_read(s, p) < 0 ? -1 : 0;
}

static int shape_ok(const Vb_State *s, const char *t)
{
    char k = t[0];
    if (k == '\0' || t[1] != ' ')
        return 0;
    const char *p = t + 2;
    switch (k) {
    case 'S':
    case 'T':
        if (shape_piece_square(s, &p) || *p++ != '-' ||
            square_read(s, &p) < 0 || *p++ != '>' || square_read(s, &p) < 0)
            return 0;
        if (k == 'S' && strcmp(p, "/F") == 0)
            return 1;
        if (*p == '^') {
            p++;
            return shape_piece_square(s, &p) == 0 && *p == '\0';
        }
        return *p == '\0';
    case 'P':
    case 'C':
    case 'R':
        if (k == 'C' && strcmp(p, "pass") == 0)
            return 1;
        if (shape_piece_square(s, &p) || *p++ != '-' || square_read(s, &p) < 0)
            return 0;
        return *p == '\0';
    case 'X':
    case '+':
        return shape_piece_square(s, &p) == 0 && *p == '\0';
    case '@':
        return square_read(s, &p) >= 0 && *p == '\0';
    }
    return 0;
}

static int vb_move_parse(const void *st, const char *text, Core_Move *out)
{
    const Vb_State *s = st;
    char t[48];
    size_t a = 0, z = strlen(text);
    while (a < z && (text[a] == ' ' || text[a] == '\t'))
        a++;
    while (z > a && (text[z - 1] == ' ' || text[z - 1] == '\t' ||
                     text[z - 1] == '\n' || text[z - 1] == '\r'))
        z--;
    if (z - a >= sizeof t)
        return TB_E_NOTATION;
    memcpy(t, text + a, z - a);
    t[z - a] = '\0';
    if (!shape_ok(s, t))
        return TB_E_NOTATION;
    size_t cap = s->board10 ? VB_MAX_MOVES10 : VB_MAX_MOVES8, n = 0;
    Core_Move *buf = malloc(cap * sizeof *buf);
    int rc = TB_E_ILLEGAL;
    if (buf == NULL)
        return TB_E_NOMEM;
    if (core__vb_moves(s, buf, cap, &n) != 0)
        n = 0;
    for (size_t i = 0; i < n; i++) {
        char f[CORE_NOTATION_MAX];
        if (vb_move_format(s, &buf[i], f, sizeof f) == 0 && strcmp(f, t) == 0) {
            *out = buf[i];
            rc = 0;
            break;
        }
    }
    free(buf);
    return rc;
}

/* ---- validation shared by decode and position parsing ---------------- */

static int valid_id(const Vb_State *s, int id)
{
    return id >= 0 && id < VB_IDS && s->type[id] != VB_NONE;
}

/* Check every field of a state whose type[], where[] and scalars are set
 * (board[] is rebuilt here). Returns NULL or a one-line reason. */
static const char *validate(Vb_State *s)
{
    int nsq = vb_nsq(s), per = pieces_per_side(s);
    uint8_t seen[VB_IDS] = {0};

    if (s->opt_chess > 1 || s->opt_cat > 1 || (!s->board10 && s->opt_cat))
        return "bad chess or cat option";
    if (s->retreat > 1 || (!s->board10 && (s->retreat || s->enabled)))
        return "retreat fields exist only on 10x10";
    for (int i = 0; i < 3; i++)
        if (s->opt_set_len[i] < 1 || s->opt_set_len[i] > VB_SET_LEN_MAX)
            return "set length out of 1..60";
    memset(s->board, VB_NONE, sizeof s->board);
    for (int id = 0; id < VB_IDS; id++) {
        int i = id % VB_STRIDE;
        if (s->type[id] == VB_NONE) {
            if (s->where[id] != VB_NONE)
                return "square given for a missing piece";
            continue;
        }
        if (s->type[id] >= VB_TYPES || i >= per)
            return "bad piece type or too many pieces";
        if (i > 0 && s->type[id - 1] == VB_NONE)
            return "piece ids must be dense";
        if (!s->board10 && (s->type[id] == VB_J || s->type[id] == VB_C))
            return "jack and cat exist only on 10x10";
        int w = s->where[id];
        if (w == VB_NONE)
            continue;
        if (w >= nsq)
            return "square off the board";
        if (s->board[w] != VB_NONE)
            return "two pieces on one square";
        if (s->phase != VB_CHESS && vb_half(s, w) != vb_colour(id))
            return "piece on the wrong half (2.1)";
        s->board[w] = (uint8_t)id;
    }
    if (s->ball != VB_NONE && (s->ball >= nsq || s->board[s->ball] != VB_NONE))
        return "ball off the board or on a piece";
    if (s->clock > VB_CLOCK_MAX)
        return "clock too large";
    if (s->out_n > VB_IDS || s->pend_n > VB_IDS)
        return "out or pending list too long";
    for (int i = 0; i < s->out_n; i++) {
        int id = s->out_id[i];
        if (!valid_id(s, id) || s->where[id] != VB_NONE || seen[id]++)
            return "bad out entry";
        if (s->out_at[i] <= s->clock ||
            s->out_at[i] > s->clock + VB_OUT_MINUTES)
            return "return minute out of range";
    }
    for (int i = s->out_n; i < VB_IDS; i++)
        if (s->out_id[i] != 0 || s->out_at[i] != 0)
            return "junk after the out list";
    for (int i = 0; i < s->pend_n; i++) {
        int id = s->pend[i];
        if (!valid_id(s, id) || s->where[id] != VB_NONE || seen[id]++)
            return "bad pending entry";
    }
    for (int i = s->pend_n; i < VB_IDS; i++)
        if (s->pend[i] != 0)
            return "junk after the pending list";
    if (s->phase > VB_CHESS)
        return "bad phase";
    for (int id = 0; id < VB_IDS; id++)
        if (valid_id(s, id) && s->where[id] == VB_NONE && !seen[id] &&
            !(s->phase == VB_CHESS && (s->attackers >> id & 1)))
            return "a piece off the board is neither out nor pending";
    if (s->set_no < 1 || s->set_no > 3 ||
        s->set_len != s->opt_set_len[s->set_no - 1])
        return "bad set number or set length";
    int over = s->phase == VB_OVER || s->phase == VB_CHESS;
    if (s->overtime > 1 || s->set_minute > s->set_len + VB_OT_CAP ||
        (!over && !s->overtime && s->set_minute >= s->set_len) ||
        (!over && s->overtime &&
         (s->set_minute < s->set_len ||
          s->set_minute >= s->set_len + VB_OT_CAP)))
        return "set minute out of range";
    if (s->points[0] > VB_POINTS_MAX || s->points[1] > VB_POINTS_MAX)
        return "points too large";
    if (s->hist_n > 3 || s->sets[0] > 2 || s->sets[1] > 2 ||
        s->sets[0] + s->sets[1] != s->hist_n)
        return "sets and set history disagree";
    if (over ? (s->sets[0] != 2) == (s->sets[1] != 2)
             : (s->sets[0] > 1 || s->sets[1] > 1))
        return "sets do not fit the phase";
    if (s->set_no != s->hist_n + (over ? 0 : 1))
        return "set number does not follow the history";
    int won[2] = {0, 0};
    for (int i = 0; i < 3; i++) {
        if (i >= s->hist_n) {
            if (s->hist[i][0] || s->hist[i][1] || s->hist[i][2])
                return "junk after the set history";
            continue;
        }
        if (s->hist[i][0] > 1 || s->hist[i][1] > VB_POINTS_MAX ||
            s->hist[i][2] > VB_POINTS_MAX)
            return "bad set history entry";
        won[s->hist[i][0]]++;
    }
    if (won[0] != s->sets[0] || won[1] != s->sets[1])
        return "set history does not match sets won";
    /* Every point is a fault/forfeit (one minute each) or a lost rally
     * (after a crossing of the set, or the one carried rally), and the goal
     * log holds one entry per point. */
    unsigned logged = 0;
    for (int i = 0; i < s->hist_n; i++) {
        if (s->hist[i][1] + s->hist[i][2] >
            2u * (s->opt_set_len[i] + VB_OT_CAP) + 1)
            return "too many points for a set";
        logged += s->hist[i][1] + s->hist[i][2];
    }
    if (!over) {
        if (s->points[0] + s->points[1] > 2u * s->set_minute + 1)
            return "more points than the set's minutes allow";
        logged += s->points[0] + s->points[1];
    }
    if (s->goal_n != logged)
        return "goal log does not match the points";
    if (s->goal_n > VB_GOALS_MAX)
        return "goal log too long";
    for (int i = 0; i < VB_GOALS_MAX; i++) {
        if (i >= s->goal_n) {
            if (s->goal[i])
                return "junk after the goal log";
            continue;
        }
        int c = s->goal[i] >> 7, sc = s->goal[i] & 0x7F;
        if (sc != VB_GOAL_NONE && (!valid_id(s, sc) || vb_colour(sc) != c))
            return "bad goal scorer";
    }
    if (s->server > 1 || s->serve_index < 1 || s->serve_index > 2 ||
        s->rally_counts > 1 || s->match_first_serve > 1 || s->to_act > 1 ||
        s->touches > 2 || s->must_pass > 1)
        return "bad serve or rally field";
    if (s->first_serve_piece != VB_NONE &&
        (!valid_id(s, s->first_serve_piece) ||
         vb_colour(s->first_serve_piece) != s->server))
        return "bad first server";
    if ((s->phase == VB_SERVE || s->phase == VB_DEFPEN) &&
        s->serve_index == 1 && s->first_serve_piece != VB_NONE)
        return "first server set before serve 2";
    if (s->touched >> VB_IDS)
        return "bad touched set";
    for (int id = 0; id < VB_IDS; id++)
        if ((s->touched >> id & 1) &&
            (!valid_id(s, id) || vb_colour(id) != s->to_act ||
             s->where[id] == VB_NONE))
            return "touched piece not of the side to act";
    for (int c = 0; c < 2; c++)
        if (s->last_shooter[c] != VB_NONE &&
            (!valid_id(s, s->last_shooter[c]) ||
             vb_colour(s->last_shooter[c]) != c))
            return "bad last shooter";
    if (s->enabled >> VB_IDS)
        return "bad enabled set";
    for (int id = 0; id < VB_IDS; id++)
        if ((s->enabled >> id & 1) &&
            (!valid_id(s, id) || vb_colour(id) != s->to_act ||
             s->where[id] == VB_NONE || (s->touched >> id & 1)))
            return "enabled piece not an untouched piece of the side to act";
    if (s->enabled && !s->retreat)
        return "enabled pieces without a retreat";
    if (s->phase == VB_RALLY || s->phase == VB_DEFPEN) {
        if (s->ball == VB_NONE || vb_half(s, s->ball) != s->to_act)
            return "ball not on the acting side's half";
        if (s->phase == VB_DEFPEN &&
            (s->touches || s->must_pass || s->touched || s->retreat))
            return "rally fields outside a rally";
    } else if (s->touches || s->must_pass || s->touched || s->retreat) {
        return "rally fields outside a rally";
    }
    if (s->phase == VB_SERVE && s->to_act != s->server)
        return "serve phase: to_act must be the server";
    if (s->phase == VB_DEFPEN && s->to_act == s->server)
        return "defensive penalty by the server";
    if (s->attackers >> VB_IDS)
        return "bad attacker set";
    if (s->phase != VB_CHESS) {
        if (s->attackers || s->king != VB_NONE || s->first ||
            s->to_move != VB_NONE || s->att_moves || s->outcome)
            return "chess fields outside the chess stage";
        if (s->phase == VB_OVER && s->to_act != (s->sets[1] == 2))
            return "over: to_act must be the winner";
        return NULL;
    }
    if (!valid_id(s, s->king) || s->first > 1 || s->att_moves > 12 ||
        s->outcome > VB_CO_NOT_CAUGHT || s->ball != VB_NONE || s->to_act)
        return "bad chess field";
    int a = !vb_colour(s->king);
    if (s->sets[a] != 2)
        return "chess attacker is not the match winner";
    if ((s->type[s->king] != VB_M && s->outcome == VB_CO_NONE) ||
        (s->to_move != VB_NONE && s->to_move > 1))
        return "bad chess king or side";
    if (s->to_move == VB_NONE && s->pend_n == 0 && s->outcome == VB_CO_NONE)
        return "chess side to move undecided";
    for (int id = 0; id < VB_IDS; id++)
        if ((s->attackers >> id & 1) &&
            (!valid_id(s, id) || vb_colour(id) != a))
            return "attacker of the wrong side";
    if (s->out_n)
        return "out list in the chess stage";
    return NULL;
}

/* ---- encoding -------------------------------------------------------- */

typedef struct Vb_Writer {
    uint8_t *p;
    size_t cap, len;
} Vb_Writer;

static void w8(Vb_Writer *w, unsigned v)
{
    if (w->len < w->cap)
        w->p[w->len] = (uint8_t)v;
    w->len++;
}

static void w16(Vb_Writer *w, unsigned v)
{
    w8(w, v & 0xFF);
    w8(w, v >> 8);
}

static void w32(Vb_Writer *w, uint32_t v)
{
    w16(w, v & 0xFFFF);
    w16(w, v >> 16);
}

static size_t encode_to(const Vb_State *s, uint8_t *buf, size_t cap)
{
    Vb_Writer w = {buf, cap, 0};
    w8(&w, s->board10 ? 5 : 4);
    w8(&w, s->opt_chess);
    w8(&w, s->opt_cat);
    for (int i = 0; i < 3; i++)
        w8(&w, s->opt_set_len[i]);
    for (int i = 0; i < VB_IDS; i++)
        w8(&w, s->type[i]);
    for (int i = 0; i < VB_IDS; i++)
        w8(&w, s->where[i]);
    w8(&w, s->ball);
    w8(&w, s->out_n);
    for (int i = 0; i < s->out_n; i++) {
        w8(&w, s->out_id[i]);
        w16(&w, s->out_at[i]);
    }
    w8(&w, s->pend_n);
    for (int i = 0; i < s->pend_n; i++)
        w8(&w, s->pend[i]);
    w16(&w, s->clock);
    w8(&w, s->set_no);
    w8(&w, s->set_len);
    w8(&w, s->set_minute);
    w8(&w, s->overtime);
    w8(&w, s->points[0]);
    w8(&w, s->points[1]);
    w8(&w, s->sets[0]);
    w8(&w, s->sets[1]);
    w8(&w, s->hist_n);
    for (int i = 0; i < s->hist_n; i++)
        for (int k = 0; k < 3; k++)
            w8(&w, s->hist[i][k]);
    w16(&w, s->goal_n);
    for (int i = 0; i < s->goal_n; i++)
        w8(&w, s->goal[i]);
    w8(&w, s->server);
    w8(&w, s->serve_index);
    w8(&w, s->first_serve_piece);
    w8(&w, s->rally_counts);
    w8(&w, s->match_first_serve);
    w8(&w, s->phase);
    w8(&w, s->to_act);
    w8(&w, s->touches);
    w8(&w, s->must_pass);
    w32(&w, s->touched);
    w8(&w, s->retreat);
    w32(&w, s->enabled);
    w8(&w, s->last_shooter[0]);
    w8(&w, s->last_shooter[1]);
    w32(&w, s->attackers);
    w8(&w, s->king);
    w8(&w, s->first);
    w8(&w, s->to_move);
    w8(&w, s->att_moves);
    w8(&w, s->outcome);
    w32(&w, s->ply);
    return w.len;
}

static int vb_encode(const void *st, uint8_t *buf, size_t cap, size_t *len)
{
    size_t n = encode_to(st, buf, cap);
    if (n > cap)
        return TB_E_SPACE;
    *len = n;
    return 0;
}

typedef struct Vb_Reader {
    const uint8_t *p;
    size_t len, at;
    int bad;
} Vb_Reader;

static unsigned r8(Vb_Reader *r)
{
    if (r->at >= r->len) {
        r->bad = 1;
        return 0;
    }
    return r->p[r->at++];
}

static unsigned r16(Vb_Reader *r)
{
    unsigned lo = r8(r);
    return lo | r8(r) << 8;
}

static uint32_t r32(Vb_Reader *r)
{
    uint32_t lo = r16(r);
    return lo | (uint32_t)r16(r) << 16;
}

static int vb_decode_any(void *st, const uint8_t *buf, size_t len, int board10)
{
    Vb_State *s = st;
    Vb_Reader r = {buf, len, 0, 0};
    memset(s, 0, sizeof *s);
    if (r8(&r) != (board10 ? 5u : 4u))
        return TB_E_ENCODING;
    s->board10 = (uint8_t)board10;
    s->opt_chess = (uint8_t)r8(&r);
    s->opt_cat = (uint8_t)r8(&r);
    for (int i = 0; i < 3; i++)
        s->opt_set_len[i] = (uint8_t)r8(&r);
    for (int i = 0; i < VB_IDS; i++)
        s->type[i] = (uint8_t)r8(&r);
    for (int i = 0; i < VB_IDS; i++)
        s->where[i] = (uint8_t)r8(&r);
    s->ball = (uint8_t)r8(&r);
    s->out_n = (uint8_t)r8(&r);
    if (s->out_n > VB_IDS)
        return TB_E_ENCODING;
    for (int i = 0; i < s->out_n; i++) {
        s->out_id[i] = (uint8_t)r8(&r);
        s->out_at[i] = (uint16_t)r16(&r);
    }
    s->pend_n = (uint8_t)r8(&r);
    if (s->pend_n > VB_IDS)
        return TB_E_ENCODING;
    for (int i = 0; i < s->pend_n; i++)
        s->pend[i] = (uint8_t)r8(&r);
    s->clock = (uint16_t)r16(&r);
    s->set_no = (uint8_t)r8(&r);
    s->set_len = (uint8_t)r8(&r);
    s->set_minute = (uint8_t)r8(&r);
    s->overtime = (uint8_t)r8(&r);
    s->points[0] = (uint8_t)r8(&r);
    s->points[1] = (uint8_t)r8(&r);
    s->sets[0] = (uint8_t)r8(&r);
    s->sets[1] = (uint8_t)r8(&r);
    s->hist_n = (uint8_t)r8(&r);
    if (s->hist_n > 3)
        return TB_E_ENCODING;
    for (int i = 0; i < s->hist_n; i++)
        for (int k = 0; k < 3; k++)
            s->hist[i][k] = (uint8_t)r8(&r);
    s->goal_n = (uint16_t)r16(&r);
    if (s->goal_n > VB_GOALS_MAX)
        return TB_E_ENCODING;
    for (int i = 0; i < s->goal_n; i++)
        s->goal[i] = (uint8_t)r8(&r);
    s->server = (uint8_t)r8(&r);
    s->serve_index = (uint8_t)r8(&r);
    s->first_serve_piece = (uint8_t)r8(&r);
    s->rally_counts = (uint8_t)r8(&r);
    s->match_first_serve = (uint8_t)r8(&r);
    s->phase = (uint8_t)r8(&r);
    s->to_act = (uint8_t)r8(&r);
    s->touches = (uint8_t)r8(&r);
    s->must_pass = (uint8_t)r8(&r);
    s->touched = r32(&r);
    s->retreat = (uint8_t)r8(&r);
    s->enabled = r32(&r);
    s->last_shooter[0] = (uint8_t)r8(&r);
    s->last_shooter[1] = (uint8_t)r8(&r);
    s->attackers = r32(&r);
    s->king = (uint8_t)r8(&r);
    s->first = (uint8_t)r8(&r);
    s->to_move = (uint8_t)r8(&r);
    s->att_moves = (uint8_t)r8(&r);
    s->outcome = (uint8_t)r8(&r);
    s->ply = r32(&r);
    if (r.bad || r.at != len)
        return TB_E_ENCODING;
    if (validate(s) != NULL)
        return TB_E_ENCODING;
    /* Only decision points are canonical: a state that normalisation
     * would change re-encodes differently and is refused by core.c. */
    core__vb_normalise(s);
    return 0;
}

static int vb8_decode(void *st, const uint8_t *buf, size_t len)
{
    return vb_decode_any(st, buf, len, 0);
}

static int vb10_decode(void *st, const uint8_t *buf, size_t len)
{
    return vb_decode_any(st, buf, len, 1);
}

/* ---- key, status, side, ply, evaluation ------------------------------ */

/* A 64-bit key of the whole canonical encoding: FNV-1a over the bytes,
 * finished with the splitmix64 mixer. The clock makes every main-stage
 * position distinct, and the chess stage is capped at 12 attacker moves,
 * so repetition (D-ALL-2) cannot occur; the key serves hashing only. */
static uint64_t vb_key(const void *st)
{
    uint8_t buf[VB_ENCODE_MAX];
    size_t n = encode_to(st, buf, sizeof buf);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n && i < sizeof buf; i++)
        h = (h ^ buf[i]) * 0x100000001b3ULL;
    return core__splitmix64(&h);
}

static Core_Status vb_status(const void *st)
{
    const Vb_State *s = st;
    Core_Status r = {CORE_ONGOING, CORE_REASON_NONE};
    if (s->phase == VB_OVER) {
        r.outcome = s->sets[0] == 2 ? CORE_WIN_WHITE : CORE_WIN_BLACK;
        r.reason = CORE_REASON_POINTS;
    } else if (s->phase == VB_CHESS && s->outcome != VB_CO_NONE) {
        if (s->outcome == VB_CO_MATE) {
            r.outcome =
                vb_attacker(s) == CORE_WHITE ? CORE_WIN_WHITE : CORE_WIN_BLACK;
            r.reason = CORE_REASON_CHECKMATE;
        } else {
            r.outcome = CORE_DRAW; /* a series draw, table 2:1 */
            r.reason = s->outcome == VB_CO_STALEMATE ? CORE_REASON_STALEMATE
                                                     : CORE_REASON_NOT_CAUGHT;
        }
    }
    return r;
}

/* §6.4, A-45, G-VB-10: in half points. A board's end: by the sets, 3:0
 * for 2-0, 2:1 for 2-1 (a mate in the chess stage keeps the sets'
 * table); the chess stage's draws 2:1 to the volleyball winner. Off the
 * board: a win 3:0, a draw by agreement 3/2:3/2 (a match is worth 3). */
static void vb_table_points(const void *st, Core_Status r, unsigned out[2])
{
    const Vb_State *s = st;
    int board = r.reason == CORE_REASON_POINTS ||
                r.reason == CORE_REASON_CHECKMATE ||
                r.reason == CORE_REASON_NOT_CAUGHT ||
                (r.reason == CORE_REASON_STALEMATE && s->phase == VB_CHESS);
    int vw = s->sets[0] == 2 ? 0 : s->sets[1] == 2 ? 1 : -1;
    if (board && vw >= 0) {
        int tie_break = s->sets[1 - vw] > 0;
        out[vw] = tie_break || r.outcome == CORE_DRAW ? 4 : 6;
        out[1 - vw] = tie_break || r.outcome == CORE_DRAW ? 2 : 0;
    } else if (r.outcome == CORE_DRAW) {
        out[0] = out[1] = 3;
    } else {
        out[r.outcome == CORE_WIN_WHITE ? 0 : 1] = 6;
    }
}

static int vb_side(const void *st)
{
    return core__vb_side(st);
}

static uint32_t vb_ply(const void *st)
{
    return ((const Vb_State *)st)->ply;
}

/* The score and the terms between points (volleyball_eval.c). */
static int32_t vb_evaluate(const void *st)
{
    return core__vb_evaluate(st);
}

/* The score alone, as before the terms (core_evaluate_classic). */
static int32_t vb_evaluate_classic(const void *st)
{
    return core__vb_evaluate_classic(st);
}

static int vb_terms(const void *st, int32_t *out, size_t cap, size_t *n)
{
    int32_t t[VB_TERMS];
    if (cap < VB_TERMS)
        return TB_E_SPACE;
    core__vb_terms(st, t);
    for (int i = 0; i < VB_TERMS; i++)
        out[i] = t[i];
    *n = VB_TERMS;
    return 0;
}

/* core_move_forcing. 8x8: 100 (a point) for an ace, a valid serve (spec
 * 5.3) or shot (4.3) landing on a square no piece of the receiver could
 * approach, so the receiver loses the rally at once (6.1), unless a
 * piece is out (its return may come first, 5.6) or the crossing's
 * minute ends the set (4.5: the match may end instead); 0 for every
 * other action: quiescence follows aces only, since following every
 * crossing cost more than it found (docs/engines.md). 10x10: 1 for every
 * crossing (a valid serve, a shot or a hooked shot), whose retreats
 * (P-08) could still answer an unreachable ball. */
static int32_t vb_forcing(const void *st, const Core_Move *mv)
{
    const Vb_State *s = st;
    int l;
    if (s->board10) {
        if (mv->b[0] == VB_K_SERVE)
            return mv->b[4] == 0;
        if (mv->b[0] == VB_K_TOUCH)
            return (mv->b[3] & VB_HOOK) || vb_half(s, mv->b[2]) != s->to_act;
        return 0;
    }
    /* 8x8 has no hooks (P-07 is 10x10's). */
    if (mv->b[0] == VB_K_SERVE && mv->b[4] == 0)
        l = mv->b[3];
    else if (mv->b[0] == VB_K_TOUCH && vb_half(s, mv->b[2]) != s->to_act)
        l = mv->b[2];
    else
        return 0;
    int c = mv->b[0] == VB_K_SERVE ? s->server : s->to_act;
    int minute = s->set_minute + 1;
    int time_up =
        s->overtime ? minute == s->set_len + VB_OT_CAP : minute == s->set_len;
    return s->out_n == 0 && !time_up && core__vb_unreachable(s, !c, l) ? 100
                                                                       : 0;
}

static int vb_moves(const void *st, Core_Move *buf, size_t cap, size_t *n)
{
    return core__vb_moves(st, buf, cap, n);
}

static int vb_count(const void *st, size_t *n)
{
    *n = core__vb_count(st);
    return 0;
}

static void vb_make(void *st, const Core_Move *mv)
{
    core__vb_make(st, mv);
}

static int vb_perft(const void *st, unsigned depth, uint64_t *nodes);

/* ---- position string ------------------------------------------------- */

static void ref_text(Core_Text *t, int id)
{
    if (id == VB_NONE || id >= VB_IDS) {
        core__text_char(t, '-');
        return;
    }
    core__text_char(t, vb_colour(id) ? 'b' : 'w');
    core__text_uint(t, (uint64_t)(id % VB_STRIDE));
}

static void mask_text(Core_Text *t, uint32_t m)
{
    int any = 0;
    for (int id = 0; id < VB_IDS; id++)
        if (m >> id & 1) {
            if (any)
                core__text_char(t, ',');
            ref_text(t, id);
            any = 1;
        }
    if (!any)
        core__text_char(t, '-');
}

static void key_text(Core_Text *t, const char *k)
{
    core__text_char(t, ' ');
    core__text_str(t, k);
    core__text_char(t, '=');
}

static void pair_text(Core_Text *t, unsigned a, unsigned b)
{
    core__text_uint(t, a);
    core__text_char(t, ':');
    core__text_uint(t, b);
}

static int vb_position_format(const void *st, char *buf, size_t cap)
{
    const Vb_State *s = st;
    Core_Text t;
    core__text_init(&t, buf, cap);
    for (int c = 0; c < 2; c++) {
        if (c)
            core__text_char(&t, '/');
        int any = 0;
        for (int i = 0; i < VB_STRIDE; i++) {
            int id = c * VB_STRIDE + i;
            if (s->type[id] == VB_NONE)
                break;
            if (any)
                core__text_char(&t, ',');
            core__text_char(&t, type_letters[s->type[id]]);
            if (s->where[id] == VB_NONE)
                core__text_char(&t, '*');
            else
                square_text(s, &t, s->where[id]);
            any = 1;
        }
        if (!any)
            core__text_char(&t, '-');
    }
    key_text(&t, "ball");
    if (s->ball == VB_NONE)
        core__text_char(&t, '-');
    else
        square_text(s, &t, s->ball);
    key_text(&t, "phase");
    core__text_str(&t, phase_names[s->phase]);
    key_text(&t, "server");
    core__text_char(&t, s->server ? 'b' : 'w');
    key_text(&t, "serve");
    core__text_uint(&t, s->serve_index);
    key_text(&t, "first");
    ref_text(&t, s->first_serve_piece);
    key_text(&t, "toact");
    core__text_char(&t, s->to_act ? 'b' : 'w');
    key_text(&t, "touches");
    core__text_uint(&t, s->touches);
    key_text(&t, "mustpass");
    core__text_uint(&t, s->must_pass);
    key_text(&t, "touched");
    mask_text(&t, s->touched);
    if (s->board10) {
        key_text(&t, "retreat");
        core__text_uint(&t, s->retreat);
        key_text(&t, "enabled");
        mask_text(&t, s->enabled);
    }
    key_text(&t, "clock");
    core__text_uint(&t, s->clock);
    key_text(&t, "set");
    core__text_uint(&t, s->set_no);
    key_text(&t, "minute");
    core__text_uint(&t, s->set_minute);
    key_text(&t, "ot");
    core__text_uint(&t, s->overtime);
    key_text(&t, "points");
    pair_text(&t, s->points[0], s->points[1]);
    key_text(&t, "sets");
    pair_text(&t, s->sets[0], s->sets[1]);
    key_text(&t, "counts");
    core__text_uint(&t, s->rally_counts);
    key_text(&t, "start");
    core__text_uint(&t, s->match_first_serve);
    key_text(&t, "lastw");
    ref_text(&t, s->last_shooter[0]);
    key_text(&t, "lastb");
    ref_text(&t, s->last_shooter[1]);
    key_text(&t, "out");
    for (int i = 0; i < s->out_n; i++) {
        if (i)
            core__text_char(&t, ',');
        ref_text(&t, s->out_id[i]);
        core__text_char(&t, '@');
        core__text_uint(&t, s->out_at[i]);
    }
    if (s->out_n == 0)
        core__text_char(&t, '-');
    key_text(&t, "pending");
    for (int i = 0; i < s->pend_n; i++) {
        if (i)
            core__text_char(&t, ',');
        ref_text(&t, s->pend[i]);
    }
    if (s->pend_n == 0)
        core__text_char(&t, '-');
    key_text(&t, "history");
    for (int i = 0; i < s->hist_n; i++) {
        if (i)
            core__text_char(&t, ',');
        core__text_char(&t, s->hist[i][0] ? 'b' : 'w');
        pair_text(&t, s->hist[i][1], s->hist[i][2]);
    }
    if (s->hist_n == 0)
        core__text_char(&t, '-');
    key_text(&t, "goals");
    for (int i = 0; i < s->goal_n; i++) {
        int c = s->goal[i] >> 7, sc = s->goal[i] & 0x7F;
        if (i)
            core__text_char(&t, ',');
        core__text_char(&t, c ? 'b' : 'w');
        if (sc == VB_GOAL_NONE)
            core__text_char(&t, '-');
        else
            core__text_uint(&t, (uint64_t)(sc % VB_STRIDE));
    }
    if (s->goal_n == 0)
        core__text_char(&t, '-');
    if (s->phase == VB_CHESS) {
        key_text(&t, "attackers");
        mask_text(&t, s->attackers);
        key_text(&t, "king");
        ref_text(&t, s->king);
        key_text(&t, "cfirst");
        core__text_char(&t, s->first ? 'b' : 'w');
        key_text(&t, "tomove");
        if (s->to_move == VB_NONE)
            core__text_char(&t, '-');
        else
            core__text_char(&t, s->to_move ? 'b' : 'w');
        key_text(&t, "attmoves");
        core__text_uint(&t, s->att_moves);
        key_text(&t, "outcome");
        core__text_str(&t, outcome_names[s->outcome]);
    }
    key_text(&t, "ply");
    core__text_uint(&t, s->ply);
    if (s->board10)
        core__text_str(&t, s->opt_cat ? " cat=on" : " cat=off");
    core__text_str(&t, " chess=");
    core__text_str(&t, s->opt_chess ? "on" : "off");
    for (int i = 0; i < 3; i++) {
        core__text_str(&t, " set");
        core__text_char(&t, (char)('1' + i));
        core__text_char(&t, '=');
        core__text_uint(&t, s->opt_set_len[i]);
    }
    return core__text_end(&t);
}

/* Parsing helpers: each returns 0 or -1. */
static int read_side(const char *v, uint8_t *out)
{
    if (strcmp(v, "w") == 0)
        *out = 0;
    else if (strcmp(v, "b") == 0)
        *out = 1;
    else
        return -1;
    return 0;
}

/* A piece reference "w3" / "b0" at *p; "-" gives VB_NONE. */
static int read_ref(const char **p, uint8_t *out)
{
    const char *q = *p;
    if (*q == '-') {
        *out = VB_NONE;
        *p = q + 1;
        return 0;
    }
    uint64_t n;
    const char *r = q + 1;
    if ((*q != 'w' && *q != 'b') ||
        core_read_uint(&r, VB_STRIDE - 1, &n) != 0)
        return -1;
    *out = (uint8_t)((*q == 'b') * VB_STRIDE + n);
    *p = r;
    return 0;
}

/* A number up to max at *p (core_read_uint). */
static int read_num(const char **p, unsigned max, unsigned *out)
{
    uint64_t v;
    if (core_read_uint(p, max, &v) != 0)
        return -1;
    *out = (unsigned)v;
    return 0;
}

static int read_pair(const char *v, unsigned max, uint8_t out[2])
{
    unsigned a, b;
    if (read_num(&v, max, &a) || *v++ != ':' || read_num(&v, max, &b) ||
        *v != '\0')
        return -1;
    out[0] = (uint8_t)a;
    out[1] = (uint8_t)b;
    return 0;
}

/* "w0,w3" or "-" into a bit mask. */
static int read_mask(const char *v, uint32_t *out)
{
    uint8_t id;
    *out = 0;
    if (strcmp(v, "-") == 0 || *v == '\0')
        return 0;
    for (;;) {
        if (read_ref(&v, &id) || id == VB_NONE)
            return -1;
        *out |= (uint32_t)1 << id;
        if (*v == '\0')
            return 0;
        if (*v++ != ',')
            return -1;
    }
}

static int read_pieces(Vb_State *s, const char *v, int c)
{
    int i = 0;
    if (strcmp(v, "-") == 0 || *v == '\0')
        return 0;
    for (;;) {
        const char *l = strchr(type_letters, *v);
        if (*v == '\0' || l == NULL || i >= pieces_per_side(s))
            return -1;
        int id = c * VB_STRIDE + i++;
        s->type[id] = (uint8_t)(l - type_letters);
        v++;
        if (*v == '*') {
            s->where[id] = VB_NONE;
            v++;
        } else {
            int sq = square_read(s, &v);
            if (sq < 0)
                return -1;
            s->where[id] = (uint8_t)sq;
        }
        if (*v == '\0')
            return 0;
        if (*v++ != ',')
            return -1;
    }
}

static const char *parse_field(Vb_State *s, const char *k, const char *v)
{
    unsigned n;
    uint8_t b;
    if (strcmp(k, "ball") == 0) {
        if (strcmp(v, "-") == 0) {
            s->ball = VB_NONE;
            return NULL;
        }
        const char *p = v;
        int sq = square_read(s, &p);
        if (sq < 0 || *p)
            return "bad ball square";
        s->ball = (uint8_t)sq;
    } else if (strcmp(k, "phase") == 0) {
        for (n = 0; n < 5; n++)
            if (strcmp(v, phase_names[n]) == 0)
                break;
        if (n == 5)
            return "bad phase";
        s->phase = (uint8_t)n;
    } else if (strcmp(k, "server") == 0) {
        if (read_side(v, &s->server))
            return "bad server";
    } else if (strcmp(k, "serve") == 0) {
        if (parse_uint(v, 2, &n) || n < 1)
            return "bad serve number";
        s->serve_index = (uint8_t)n;
    } else if (strcmp(k, "first") == 0 || strcmp(k, "lastw") == 0 ||
               strcmp(k, "lastb") == 0 || strcmp(k, "king") == 0) {
        const char *p = v;
        if (read_ref(&p, &b) || *p)
            return "bad piece reference";
        if (k[0] == 'f')
            s->first_serve_piece = b;
        else if (k[0] == 'k')
            s->king = b;
        else
            s->last_shooter[k[4] == 'b'] = b;
    } else if (strcmp(k, "toact") == 0) {
        if (read_side(v, &s->to_act))
            return "bad toact";
    } else if (strcmp(k, "touches") == 0) {
        if (parse_uint(v, 2, &n))
            return "bad touches";
        s->touches = (uint8_t)n;
    } else if (strcmp(k, "mustpass") == 0 || strcmp(k, "ot") == 0 ||
               strcmp(k, "counts") == 0 || strcmp(k, "start") == 0) {
        if (parse_uint(v, 1, &n))
            return "bad flag";
        if (k[0] == 'm')
            s->must_pass = (uint8_t)n;
        else if (k[0] == 'o')
            s->overtime = (uint8_t)n;
        else if (k[0] == 'c')
            s->rally_counts = (uint8_t)n;
        else
            s->match_first_serve = (uint8_t)n;
    } else if (strcmp(k, "touched") == 0 || strcmp(k, "attackers") == 0 ||
               strcmp(k, "enabled") == 0) {
        if (read_mask(v, k[0] == 't'   ? &s->touched
                         : k[0] == 'a' ? &s->attackers
                                       : &s->enabled))
            return "bad piece list";
    } else if (strcmp(k, "retreat") == 0) {
        if (parse_uint(v, 1, &n))
            return "bad retreat flag";
        s->retreat = (uint8_t)n;
    } else if (strcmp(k, "clock") == 0) {
        if (parse_uint(v, VB_CLOCK_MAX, &n))
            return "bad clock";
        s->clock = (uint16_t)n;
    } else if (strcmp(k, "set") == 0) {
        if (parse_uint(v, 3, &n) || n < 1)
            return "bad set number";
        s->set_no = (uint8_t)n;
    } else if (strcmp(k, "minute") == 0) {
        if (parse_uint(v, 255, &n))
            return "bad minute";
        s->set_minute = (uint8_t)n;
    } else if (strcmp(k, "points") == 0) {
        if (read_pair(v, VB_POINTS_MAX, s->points))
            return "bad points";
    } else if (strcmp(k, "sets") == 0) {
        if (read_pair(v, 2, s->sets))
            return "bad sets";
    } else if (strcmp(k, "out") == 0) {
        s->out_n = 0;
        if (strcmp(v, "-") == 0)
            return NULL;
        for (;;) {
            if (s->out_n >= VB_IDS || read_ref(&v, &b) || b == VB_NONE ||
                *v++ != '@' || read_num(&v, VB_CLOCK_MAX + 6, &n))
                return "bad out list";
            s->out_id[s->out_n] = b;
            s->out_at[s->out_n++] = (uint16_t)n;
            if (*v == '\0')
                return NULL;
            if (*v++ != ',')
                return "bad out list";
        }
    } else if (strcmp(k, "pending") == 0) {
        s->pend_n = 0;
        if (strcmp(v, "-") == 0)
            return NULL;
        for (;;) {
            if (s->pend_n >= VB_IDS || read_ref(&v, &b) || b == VB_NONE)
                return "bad pending list";
            s->pend[s->pend_n++] = b;
            if (*v == '\0')
                return NULL;
            if (*v++ != ',')
                return "bad pending list";
        }
    } else if (strcmp(k, "history") == 0) {
        s->hist_n = 0;
        memset(s->hist, 0, sizeof s->hist);
        if (strcmp(v, "-") == 0)
            return NULL;
        for (;;) {
            unsigned a, c;
            if (s->hist_n >= 3 || (*v != 'w' && *v != 'b'))
                return "bad history";
            s->hist[s->hist_n][0] = *v++ == 'b';
            if (read_num(&v, VB_POINTS_MAX, &a) || *v++ != ':' ||
                read_num(&v, VB_POINTS_MAX, &c))
                return "bad history";
            s->hist[s->hist_n][1] = (uint8_t)a;
            s->hist[s->hist_n][2] = (uint8_t)c;
            s->hist_n++;
            if (*v == '\0')
                return NULL;
            if (*v++ != ',')
                return "bad history";
        }
    } else if (strcmp(k, "goals") == 0) {
        s->goal_n = 0;
        memset(s->goal, 0, sizeof s->goal);
        if (strcmp(v, "-") == 0)
            return NULL;
        for (;;) {
            if (s->goal_n >= VB_GOALS_MAX || (*v != 'w' && *v != 'b'))
                return "bad goal log";
            int c = *v++ == 'b';
            unsigned sc = VB_GOAL_NONE;
            if (*v == '-') {
                v++;
            } else if (read_num(&v, VB_STRIDE - 1, &n) == 0) {
                sc = (unsigned)c * VB_STRIDE + n;
            } else {
                return "bad goal log";
            }
            s->goal[s->goal_n++] = (uint8_t)(c << 7 | sc);
            if (*v == '\0')
                return NULL;
            if (*v++ != ',')
                return "bad goal log";
        }
    } else if (strcmp(k, "cfirst") == 0) {
        if (read_side(v, &s->first))
            return "bad cfirst";
    } else if (strcmp(k, "tomove") == 0) {
        if (strcmp(v, "-") == 0)
            s->to_move = VB_NONE;
        else if (read_side(v, &s->to_move))
            return "bad tomove";
    } else if (strcmp(k, "attmoves") == 0) {
        if (parse_uint(v, VB_CHESS_LIMIT, &n))
            return "bad attmoves";
        s->att_moves = (uint8_t)n;
    } else if (strcmp(k, "outcome") == 0) {
        for (n = 0; n < 4; n++)
            if (strcmp(v, outcome_names[n]) == 0)
                break;
        if (n == 4)
            return "bad outcome";
        s->outcome = (uint8_t)n;
    } else if (strcmp(k, "ply") == 0) {
        if (parse_uint(v, 1000000000u, &n))
            return "bad ply";
        s->ply = n;
    } else if (strcmp(k, "chess") == 0 || strcmp(k, "cat") == 0 ||
               strncmp(k, "set", 3) == 0) {
        if (option_fn(s, k, v) != 0)
            return "bad option";
    } else {
        return "unknown key";
    }
    return NULL;
}

static void goals_add(Vb_State *s, int side, unsigned n)
{
    for (unsigned i = 0; i < n && s->goal_n < VB_GOALS_MAX; i++)
        s->goal[s->goal_n++] = (uint8_t)(side << 7 | VB_GOAL_NONE);
}

static void default_goals(Vb_State *s)
{
    s->goal_n = 0;
    for (int i = 0; i < s->hist_n; i++) {
        goals_add(s, 0, s->hist[i][1]);
        goals_add(s, 1, s->hist[i][2]);
    }
    if (s->phase != VB_OVER && s->phase != VB_CHESS) {
        goals_add(s, 0, s->points[0]);
        goals_add(s, 1, s->points[1]);
    }
}

static int vb_position_parse(void *st, const char *text, char *why,
                             size_t why_cap)
{
    Vb_State *s = st;
    char tok[CORE_INPUT_MAX + 1];
    const char *p = text;
    int board10 = s->board10;
    uint8_t chess = s->opt_chess, cat = s->opt_cat, lens[3];
    memcpy(lens, s->opt_set_len, 3);

    memset(s, 0, sizeof *s);
    s->board10 = (uint8_t)board10;
    s->opt_chess = chess;
    s->opt_cat = cat;
    memcpy(s->opt_set_len, lens, 3);
    memset(s->type, VB_NONE, sizeof s->type);
    memset(s->where, VB_NONE, sizeof s->where);
    s->ball = VB_NONE;
    s->set_no = 1;
    s->serve_index = 1;
    s->first_serve_piece = VB_NONE;
    s->rally_counts = 1;
    s->last_shooter[0] = s->last_shooter[1] = VB_NONE;
    s->king = VB_NONE;
    s->to_move = VB_NONE;
    int have_pieces = 0, have_toact = 0, have_goals = 0;

    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        size_t n = 0;
        while (p[n] && p[n] != ' ' && p[n] != '\t')
            n++;
        memcpy(tok, p, n);
        tok[n] = '\0';
        p += n;
        char *eq = strchr(tok, '=');
        if (!have_pieces) {
            char *slash = strchr(tok, '/');
            if (eq != NULL || slash == NULL)
                return core__why(why, why_cap, TB_E_POSITION,
                                 "expected WHITE/BLACK piece lists first");
            *slash = '\0';
            if (read_pieces(s, tok, 0) || read_pieces(s, slash + 1, 1))
                return core__why(why, why_cap, TB_E_POSITION,
                                 "bad piece list (e.g. Nb3,Qd1/Qd8)");
            have_pieces = 1;
            continue;
        }
        if (eq == NULL)
            return core__why(why, why_cap, TB_E_POSITION, "expected key=value");
        *eq = '\0';
        if (strcmp(tok, "toact") == 0)
            have_toact = 1;
        if (strcmp(tok, "goals") == 0)
            have_goals = 1;
        const char *err = parse_field(s, tok, eq + 1);
        if (err != NULL)
            return core__why(why, why_cap, TB_E_POSITION, err);
    }
    if (!have_pieces)
        return core__why(why, why_cap, TB_E_POSITION, "no piece lists");
    s->set_len = s->opt_set_len[s->set_no - 1];
    if (s->phase == VB_SERVE && !have_toact)
        s->to_act = s->server;
    if (s->phase == VB_OVER && !have_toact)
        s->to_act = s->sets[1] == 2;
    if (!have_goals) /* one uncredited goal per point, set by set */
        default_goals(s);
    const char *err = validate(s);
    if (err != NULL)
        return core__why(why, why_cap, TB_E_POSITION, err);
    core__vb_normalise(s);
    return 0;
}

/* ---- view ----------------------------------------------------------- */

/* The phrase pieces of each type (core.h's CORE_PIECE_*, in the
 * order of the types: knight, bishop, rook, queen, vizier, moor, jack,
 * cat). */
static const uint8_t type_piece[] = {
    CORE_PIECE_KNIGHT, CORE_PIECE_BISHOP, CORE_PIECE_ROOK, CORE_PIECE_QUEEN,
    CORE_PIECE_VIZIER, CORE_PIECE_MOOR,   CORE_PIECE_JACK, CORE_PIECE_CAT};

/* The board as White sees it, with a net row between the halves; White's
 * pieces in capitals, Black's in small letters, the ball as "o". The
 * status line gives set, minute, score, serve and the rally's touches. */
static int vb_view(const void *st, Core_View *v)
{
    const Vb_State *s = st;
    int nf = vb_nf(s);
    Core_Text t;

    v->rows = nf + 1;
    v->cols = nf;
    for (int f = 0; f < nf; f++)
        v->col_label[f][0] = (char)('a' + f);
    for (int row = 0; row <= nf; row++) {
        if (row == nf / 2) { /* the net (2.1) */
            for (int f = 0; f < nf; f++) {
                v->cell[row][f].kind = CORE_CELL_NET;
                v->cell[row][f].owner = -1;
            }
            continue;
        }
        int r = nf - 1 - (row < nf / 2 ? row : row - 1);
        core__text_init(&t, v->row_label[row], sizeof v->row_label[row]);
        core__text_uint(&t, (uint64_t)(r + 1));
        core__text_end(&t);
        for (int f = 0; f < nf; f++) {
            Core_Cell *c = &v->cell[row][f];
            int sq = r * nf + f, id = s->board[sq];
            c->kind = (f + r) % 2 == 0 ? CORE_CELL_DARK : CORE_CELL_LIGHT;
            c->owner = -1;
            core__text_init(&t, c->name, sizeof c->name);
            square_text(s, &t, sq);
            core__text_end(&t);
            core__text_init(&t, c->detail, sizeof c->detail);
            core__text_said(&t, c->said, &c->nsaid, CORE_CELL_SAID);
            if (id != VB_NONE) {
                int white = !vb_colour(id);
                char letter = piece_letter(s, id);
                c->owner = (int8_t)vb_colour(id);
                c->glyph[0] = white ? letter : (char)(letter - 'A' + 'a');
                core__text_phrase(&t,
                                  CORE_PHRASE_PIECE + (white ? 0 : 9) +
                                      (letter == 'K'
                                           ? CORE_PIECE_KING
                                           : type_piece[s->type[id]]),
                                  0, 0, 0);
                if (s->touched >> id & 1)
                    core__text_phrase(&t, CORE_PHRASE_TOUCHED, 0, 0, 0);
                if (s->phase == VB_CHESS && (s->attackers >> id & 1))
                    core__text_phrase(&t, CORE_PHRASE_ATTACKER, 0, 0, 0);
            } else if (sq == s->ball) {
                c->glyph[0] = 'o';
                core__text_phrase(&t, CORE_PHRASE_BALL, 0, 0, 0);
            }
            core__text_end(&t);
        }
    }
    core__text_init(&t, v->status, sizeof v->status);
    core__text_said(&t, v->said, &v->nsaid, CORE_VIEW_SAID);
    if (s->phase == VB_CHESS) {
        core__text_phrase(&t, CORE_PHRASE_CHESS_STAGE, s->att_moves, 0, 0);
        if (core__vb_king_in_check(s))
            core__text_phrase(&t, CORE_PHRASE_KING_IN_CHECK, 0, 0, 0);
    } else {
        core__text_phrase(&t, CORE_PHRASE_SET, s->set_no, s->set_minute,
                          s->set_len);
        if (s->overtime)
            core__text_phrase(&t, CORE_PHRASE_OVERTIME, 0, 0, 0);
        core__text_phrase(&t, CORE_PHRASE_POINTS, s->points[0], s->points[1],
                          0);
    }
    core__text_phrase(&t, CORE_PHRASE_SETS, s->sets[0], s->sets[1], 0);
    if (s->phase == VB_SERVE || s->phase == VB_DEFPEN) {
        core__text_phrase(&t,
                          s->server ? CORE_PHRASE_BLACK_SERVES
                                    : CORE_PHRASE_WHITE_SERVES,
                          s->serve_index, 0, 0);
    } else if (s->phase == VB_RALLY) {
        core__text_phrase(&t,
                          s->to_act ? CORE_PHRASE_BLACK_TOUCH
                                    : CORE_PHRASE_WHITE_TOUCH,
                          s->touches + 1u, 0, 0);
        if (s->touches == 0 && s->must_pass)
            core__text_phrase(&t, CORE_PHRASE_MUST_PASS, 0, 0, 0);
        if (s->touches == 2)
            core__text_phrase(&t, CORE_PHRASE_MUST_SHOOT, 0, 0, 0);
    }
    core__text_end(&t); /* a too-long status is cut, never an error */
    return 0;
}

/* ---- perft and the game tables --------------------------------------- */

/* dst = src up to the goal log's last entry: the rest of the log is
 * never read (the state's fields end with it: volleyball_internal.h). */
static void vb_copy(Vb_State *dst, const Vb_State *src)
{
    memcpy(dst, src, offsetof(Vb_State, goal) + src->goal_n);
}

/*
 * Perft as core__perft_generic counts, on its own states: each child is
 * a copy of the used part of its parent (vb_copy, a third of the state
 * at the start), and the last ply is counted on the state itself
 * (core__vb_count_here), not on one more copy; direct calls, not the
 * game table's. moves holds depth lists of cap moves, next depth - 1
 * states.
 */
static int vb_perft_rec(Vb_State *s, unsigned depth, Core_Move *moves,
                        size_t cap, Vb_State *next, uint64_t *nodes)
{
    size_t n = 0;
    if (depth == 1) {
        *nodes += core__vb_count_here(s);
        return 0;
    }
    int rc = core__vb_moves(s, moves, cap, &n);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        vb_copy(next, s);
        core__vb_make(next, &moves[i]);
        rc = vb_perft_rec(next, depth - 1, moves + cap, cap, next + 1, nodes);
        if (rc != 0)
            return rc;
    }
    return 0;
}

static int vb_perft(const void *st, unsigned depth, uint64_t *nodes)
{
    const Vb_State *s = st;
    size_t cap = s->board10 ? VB_MAX_MOVES10 : VB_MAX_MOVES8;
    *nodes = 0;
    if (depth == 0) {
        *nodes = 1;
        return 0;
    }
    Core_Move *moves = malloc((size_t)depth * cap * sizeof *moves);
    Vb_State *states = malloc((size_t)depth * sizeof *states);
    int rc = TB_E_NOMEM;
    if (moves != NULL && states != NULL) {
        vb_copy(&states[0], s);
        rc = vb_perft_rec(&states[0], depth, moves, cap, &states[1], nodes);
    }
    free(moves);
    free(states);
    return rc;
}

/*
 * max_moves: a serve list has at most (serve squares) x (pieces) x
 * (landings of one throw) = 4 x 10 x 14 = 560 actions on 8x8 and
 * 5 x 12 x 50 = 3000 on 10x10 (18 own-half landings, two rays reaching
 * the net with at most 16 rebounds each); every other kind is smaller.
 * See docs/rules/volleyball.md.
 */
/* The members both boards share. */
#define VB_COMMON_MEMBERS                                                      \
    .state_size = sizeof(Vb_State), .encode_max = VB_ENCODE_MAX,               \
    .moves = vb_moves, .make = vb_make, .status = vb_status, .side = vb_side,  \
    .ply = vb_ply, .key = vb_key, .encode = vb_encode,                         \
    .move_format = vb_move_format, .move_parse = vb_move_parse,                \
    .position_format = vb_position_format,                                     \
    .position_parse = vb_position_parse, .options_format = vb_options_format,  \
    .evaluate = vb_evaluate, .view = vb_view, .count = vb_count,               \
    .forcing = vb_forcing, .terms = vb_terms,                                  \
    .evaluate_classic = vb_evaluate_classic, .table_points = vb_table_points

const Core_Game core__volleyball = {
    .name = "volleyball",
    .title = "Chess volleyball (Kriushenkov), 8x8",
    .move_hint = "S Bc3-d2>g5, T Qd8-g5>f6, P Ne3-c4, X Ba2, + Nf6, @ d3",
    .id = 4,
    .max_moves = VB_MAX_MOVES8,
    .init = vb8_init,
    .decode = vb8_decode,
    .perft = vb_perft,
    VB_COMMON_MEMBERS,
};

const Core_Game core__volleyball10 = {
    .name = "volleyball10",
    .title = "Chess volleyball 10x10 (provisional rules, P-01..P-10)",
    .move_hint = "S Qe1-e2>e7, T Qe10-h6>g7, P Nf3-d4, R Vb2-e4, @ e3",
    .id = 5,
    .max_moves = VB_MAX_MOVES10,
    .init = vb10_init,
    .decode = vb10_decode,
    .perft = vb_perft,
    VB_COMMON_MEMBERS,
};
