/*
 * test_volleyball_model.c: an independent second model of Chess
 * volleyball's first minutes (8x8), written from the spec alone, used to
 * check the engine's perft counts deeper than Appendix B. It is built
 * differently on purpose: pieces are letters on a char board, variants are
 * closed under the 8 symmetries from one base vector, and a throw is
 * decided per candidate landing square by walking the path from the ball
 * to it (the engine walks rays outward). It covers serves (match start,
 * d/e files, faults, serve from the ball), touches, rally loss, points,
 * the serve series, defensive and serving penalty manoeuvres, removals and
 * forfeits; it stops being valid once a set could end or a removed piece
 * return, which the tests stay clear of (asserted).
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

typedef struct Model {
    char pc[64]; /* 'Q','r',... or 0 */
    int id[64];  /* stable piece identity, -1 when empty */
    int ball;    /* -1 none */
    int phase;   /* 0 serve, 1 rally, 2 defensive penalty */
    int server, serve_idx, first_id;
    int to_act, touches, must_pass;
    uint64_t touched; /* bit per id (square of origin) */
    int start;        /* match's first serve still to come */
    int clock, removals;
    int removed_at; /* clock of the first removal */
} Model;

typedef struct Vec2 {
    int df, dr;
} Vec2;

typedef struct Var {
    int slider, n;
    Vec2 v[8];
} Var;

/* The 8 symmetric images of (a, b), without repeats. */
static Var closure(int a, int b, int slider)
{
    Var r = {slider, 0, {{0, 0}}};
    int cand[8][2] = {{a, b}, {-a, b}, {a, -b}, {-a, -b},
                      {b, a}, {-b, a}, {b, -a}, {-b, -a}};
    for (int i = 0; i < 8; i++) {
        int dup = 0;
        for (int k = 0; k < r.n; k++)
            dup |= r.v[k].df == cand[i][0] && r.v[k].dr == cand[i][1];
        if (!dup) {
            r.v[r.n].df = cand[i][0];
            r.v[r.n].dr = cand[i][1];
            r.n++;
        }
    }
    return r;
}

static int vars_of(char p, Var out[3])
{
    switch (toupper((unsigned char)p)) {
    case 'N':
        out[0] = closure(1, 2, 0);
        return 1;
    case 'B':
        out[0] = closure(1, 1, 1);
        return 1;
    case 'R':
        out[0] = closure(1, 0, 1);
        return 1;
    case 'Q':
        out[0] = closure(1, 0, 1);
        out[1] = closure(1, 1, 1);
        return 2;
    case 'V':
        out[0] = closure(3, 0, 0);
        out[1] = closure(4, 0, 0);
        out[2] = closure(2, 3, 0);
        return 3;
    case 'M':
        out[0] = closure(3, 0, 0);
        out[1] = closure(4, 0, 0);
        out[2] = closure(1, 1, 0);
        return 3;
    }
    return 0;
}

static int colour_of(char p)
{
    return islower((unsigned char)p) ? 1 : 0;
}
static int half_of(int sq)
{
    return sq >= 32;
}
static int light(char p)
{
    return strchr("NVMnvm", p) != NULL;
}
static int power(char p)
{
    switch (toupper((unsigned char)p)) {
    case 'Q':
        return 4;
    case 'R':
        return 3;
    case 'B':
        return 2;
    }
    return 1;
}

/* Direction index of (df, dr) within var for sliders: the unit step, k. */
static int along(const Var *v, int from, int to, Vec2 *dir, int *k)
{
    int df = to % 8 - from % 8, dr = to / 8 - from / 8;
    for (int i = 0; i < v->n; i++) {
        Vec2 d = v->v[i];
        for (int j = 1; j < 8; j++)
            if (d.df * j == df && d.dr * j == dr) {
                if (!v->slider && j > 1)
                    break;
                *dir = d;
                *k = j;
                return 1;
            }
    }
    return 0;
}

/* Can the piece on `from` move to `to` with variant v, staying on its own
 * half? ordinary: `to` must not be the ball and the ball blocks slides. */
static int reach(const Model *m, int from, int to, const Var *v, int ordinary)
{
    Vec2 d;
    int k, c = colour_of(m->pc[from]);
    if (to < 0 || to > 63 || m->pc[to] || half_of(to) != c)
        return 0;
    if (ordinary && to == m->ball)
        return 0;
    if (!along(v, from, to, &d, &k))
        return 0;
    for (int j = 1; j < k; j++) {
        int s = from + j * (d.df + 8 * d.dr);
        if (m->pc[s] || (ordinary && s == m->ball))
            return 0;
    }
    return 1;
}

static int approach_var(const Model *m, int from, int x, Var *out)
{
    Var vs[3];
    int n = vars_of(m->pc[from], vs);
    for (int i = 0; i < n; i++)
        if (reach(m, from, x, &vs[i], 0)) {
            *out = vs[i];
            return 1;
        }
    return 0;
}

/* Does a throw from x (thrower t already there) with variant v land on L?
 * Decided by walking from x to L. */
static int lands(const Model *m, int x, const Var *v, int l)
{
    Vec2 d;
    int k;
    char t = m->pc[x];
    int c = colour_of(t);
    if (m->pc[l] || !along(v, x, l, &d, &k))
        return 0;
    if (!v->slider)
        return 1;
    int step = d.df + 8 * d.dr;
    int j0 = 1; /* first path index on the far half (k+1 if none) */
    while (j0 <= k && half_of(x + j0 * step) == c)
        j0++;
    for (int j = 1; j < j0 && j < k; j++)
        if (m->pc[x + j * step])
            return 0; /* own pieces stop the ball */
    if (j0 >= k)
        return 1;        /* L is on the own half, or is s1 itself */
    int first_free = j0; /* from here to k-1 the path must be empty */
    if (m->pc[x + j0 * step]) {
        char b1 = m->pc[x + j0 * step];
        char b2 = m->pc[x + (j0 + 1) * step]; /* j0 + 1 <= k: on board */
        if (j0 + 1 == k || !b2) {
            if (power(t) <= power(b1))
                return 0; /* single block not cleared */
        } else if (!light(b1) || !light(b2)) {
            return 0; /* double block with a heavy piece */
        }
        first_free = j0 + 2;
    }
    for (int j = first_free; j < k; j++)
        if (m->pc[x + j * step])
            return 0;
    return 1;
}

static void move_piece(Model *m, int from, int to)
{
    m->pc[to] = m->pc[from];
    m->id[to] = m->id[from];
    m->pc[from] = 0;
    m->id[from] = -1;
}

/* ---- actions as successor states ------------------------------------ */

typedef struct Succ {
    Model *buf;
    int n, cap;
} Succ;

static void push(Succ *s, const Model *m)
{
    cr_assert_lt(s->n, s->cap);
    s->buf[s->n++] = *m;
}

static void normalise(Model *m);

static void point(Model *m, int winner, int fault)
{
    (void)winner;
    if (fault)
        m->clock++;
    /* a series advances after every point in this model's range */
    if (m->serve_idx == 1) {
        m->serve_idx = 2;
    } else {
        m->server = !m->server;
        m->serve_idx = 1;
        m->first_id = -1;
    }
    m->touches = 0;
    m->must_pass = 0;
    m->touched = 0;
    int loser = !winner;
    if (m->ball >= 0 && half_of(m->ball) == m->server) {
        m->phase = 0;
    } else {
        m->phase = 2;
        m->to_act = loser;
    }
}

static void cross(Model *m, int at, int l)
{
    char t = m->pc[at];
    int c = colour_of(t);
    int near = c == 0 ? (l / 8 == 4 || l / 8 == 5) : (l / 8 == 2 || l / 8 == 3);
    m->phase = 1;
    m->to_act = !c;
    m->touches = 0;
    m->touched = 0;
    m->must_pass = !(light(t) && near);
    m->clock++;
}

/* Options of eligible pieces at the squares xs: serve successors
 * (valid ones if any exist, else faults). Returns 2/1/0 as in 5.3. */
static int serve_succ(const Model *m, const int *xs, int nx, int only_dark_b,
                      Succ *out)
{
    int valid = 0, any = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < nx; i++)
            for (int from = 0; from < 64; from++) {
                char p = m->pc[from];
                Var v;
                if (!p || colour_of(p) != m->server)
                    continue;
                if (m->serve_idx == 2 && m->id[from] == m->first_id)
                    continue;
                if (only_dark_b && (p != 'B' || (from % 8 + from / 8) % 2))
                    continue;
                if (!approach_var(m, from, xs[i], &v))
                    continue;
                Model t = *m;
                t.ball = -1;
                move_piece(&t, from, xs[i]);
                for (int l = 0; l < 64; l++) {
                    if (!lands(&t, xs[i], &v, l))
                        continue;
                    int opp = half_of(l) != m->server;
                    if (pass == 0) {
                        any = 1;
                        valid |= opp;
                        continue;
                    }
                    if (out == NULL || opp != valid)
                        continue;
                    Model u = t;
                    u.ball = l;
                    u.start = 0;
                    if (u.serve_idx == 1)
                        u.first_id = u.id[xs[i]];
                    if (opp) {
                        cross(&u, xs[i], l);
                    } else {
                        point(&u, !u.server, 1);
                    }
                    normalise(&u);
                    push(out, &u);
                }
            }
        if (pass == 0 && (!any || out == NULL))
            break;
    }
    return valid ? 2 : any;
}

static int touch_succ(const Model *m, Succ *out)
{
    int count = 0, x = m->ball;
    for (int from = 0; from < 64; from++) {
        char p = m->pc[from];
        Var v;
        if (!p || colour_of(p) != m->to_act || (m->touched >> m->id[from] & 1))
            continue;
        if (!approach_var(m, from, x, &v))
            continue;
        Model t = *m;
        move_piece(&t, from, x);
        for (int l = 0; l < 64; l++) {
            if (!lands(&t, x, &v, l))
                continue;
            int opp = half_of(l) != m->to_act;
            if (!opp && m->touches == 2)
                continue;
            if (opp && m->touches == 0 && m->must_pass)
                continue;
            count++;
            if (out == NULL)
                continue;
            Model u = t;
            u.ball = l;
            if (opp) {
                cross(&u, x, l);
            } else {
                u.touches++;
                u.touched |= (uint64_t)1 << u.id[x];
            }
            normalise(&u);
            push(out, &u);
        }
    }
    return count;
}

/* All ordinary moves of side c; for each, keep it when ok(model) holds. */
static int manoeuvres(const Model *m, int c, int (*ok)(const Model *),
                      Succ *out, int to_serve)
{
    int count = 0;
    for (int from = 0; from < 64; from++) {
        char p = m->pc[from];
        Var vs[3];
        if (!p || colour_of(p) != c)
            continue;
        int nv = vars_of(p, vs);
        for (int to = 0; to < 64; to++) {
            int r = 0;
            for (int i = 0; i < nv; i++)
                r |= reach(m, from, to, &vs[i], 1);
            if (!r)
                continue;
            Model t = *m;
            move_piece(&t, from, to);
            if (!ok(&t))
                continue;
            count++;
            if (out == NULL)
                continue;
            if (to_serve)
                t.phase = 0;
            normalise(&t);
            push(out, &t);
        }
    }
    return count;
}

static int can_serve_here(const Model *m)
{
    return serve_succ(m, &m->ball, 1, 0, NULL) > 0;
}

static int loser_reaches(const Model *m)
{
    for (int from = 0; from < 64; from++) {
        Var v;
        if (m->pc[from] && colour_of(m->pc[from]) == m->to_act &&
            approach_var(m, from, m->ball, &v))
            return 1;
    }
    return 0;
}

static int serve_or_penalty(const Model *m)
{
    return can_serve_here(m) ||
           manoeuvres(m, m->server, can_serve_here, NULL, 0) > 0;
}

static int successors(const Model *m, Succ *out);

static void normalise(Model *m)
{
    cr_assert_lt(m->clock, 12, "model range exceeded");
    cr_assert(m->removals == 0 || m->clock < m->removed_at + 6,
              "a removed piece returns");
    for (;;) {
        if (m->phase == 1) {
            if (touch_succ(m, NULL) == 0) {
                point(m, !m->to_act, 0);
                continue;
            }
            return;
        }
        if (m->phase == 2) {
            if (loser_reaches(m) ||
                manoeuvres(m, m->to_act, loser_reaches, NULL, 1) == 0) {
                m->phase = 0;
                continue;
            }
            return;
        }
        if (m->ball >= 0 && half_of(m->ball) == m->server) {
            Succ none = {NULL, 0, 0};
            if (successors(m, &none) == 0) { /* forfeit */
                point(m, !m->server, 1);
                continue;
            }
        }
        return;
    }
}

/* The successor states of m (counted when out->buf is NULL). */
static int successors(const Model *m, Succ *out)
{
    Succ *o = out->buf ? out : NULL;
    if (m->phase == 1)
        return touch_succ(m, o);
    if (m->phase == 2)
        return manoeuvres(m, m->to_act, loser_reaches, o, 1);
    int c = m->server;
    if (m->ball >= 0 && half_of(m->ball) == c) {
        int before = o ? o->n : 0;
        if (can_serve_here(m))
            return serve_succ(m, &m->ball, 1, 0, o) ? (o ? o->n - before : 1)
                                                    : 0;
        int n = manoeuvres(m, c, can_serve_here, o, 0);
        if (n)
            return n;
        /* removals */
        for (int sq = 0; sq < 64; sq++) {
            if (!m->pc[sq] || colour_of(m->pc[sq]) != c)
                continue;
            Model t = *m;
            t.pc[sq] = 0;
            t.id[sq] = -1;
            if (!serve_or_penalty(&t))
                continue;
            n++;
            if (o) {
                if (t.removals++ == 0)
                    t.removed_at = t.clock;
                normalise(&t);
                push(o, &t);
            }
        }
        return n;
    }
    /* clean serve */
    int xs[8], nx;
    for (int file = 3; file <= 4; file++) {
        nx = 0;
        for (int r = c ? 4 : 0; r < (c ? 8 : 4); r++)
            if (!m->pc[r * 8 + file])
                xs[nx++] = r * 8 + file;
        if (file == 3 && m->start && c == 0 &&
            serve_succ(m, xs, nx, 1, NULL) > 0)
            return o ? (serve_succ(m, xs, nx, 1, o), o->n) : 3;
        if (serve_succ(m, xs, nx, 0, NULL) > 0) {
            int before = o ? o->n : 0;
            serve_succ(m, xs, nx, 0, o);
            if (o)
                return o->n - before;
            return 1;
        }
    }
    for (int file = 3; file <= 4; file++) {
        nx = 0;
        for (int r = c ? 4 : 0; r < (c ? 8 : 4); r++)
            if (!m->pc[r * 8 + file])
                xs[nx++] = r * 8 + file;
        if (nx) {
            for (int i = 0; o && i < nx; i++) {
                Model t = *m;
                t.ball = xs[i];
                normalise(&t);
                push(o, &t);
            }
            return nx;
        }
    }
    return 1; /* never reached from the positions used here */
}

static uint64_t model_perft(const Model *m, int depth)
{
    Model *buf = malloc(1200 * sizeof *buf);
    Succ s = {buf, 0, 1200};
    cr_assert_not_null(buf);
    successors(m, &s);
    uint64_t n = 0;
    if (depth == 1)
        n = (uint64_t)s.n;
    else
        for (int i = 0; i < s.n; i++)
            n += model_perft(&buf[i], depth - 1);
    free(buf);
    return n;
}

/* The start position of spec 2.4, written out as letters. */
static void model_start(Model *m)
{
    static const char *rows[8] = {
        "..VQ.M..", "V...B.N.", ".NB....R", "R.......",
        "..n.b...", "..b....r", "r.....nv", "..vq.m..",
    };
    memset(m, 0, sizeof *m);
    for (int sq = 0; sq < 64; sq++) {
        char ch = rows[sq / 8][sq % 8];
        m->pc[sq] = ch == '.' ? 0 : ch;
        m->id[sq] = ch == '.' ? -1 : sq;
    }
    m->ball = -1;
    m->serve_idx = 1;
    m->first_id = -1;
    m->start = 1;
}

static uint64_t engine_perft(const char *position, int depth)
{
    Core_Position *pos = NULL;
    char why[200] = "";
    uint64_t n = 0;
    cr_assert_eq(core_position_new(&pos, core_game_find("volleyball"), NULL),
                 0);
    if (position)
        cr_assert_eq(core_position_parse(pos, position, why, sizeof why), 0,
                     "%s", why);
    cr_assert_eq(core_perft(pos, (unsigned)depth, &n), 0);
    core_position_free(pos);
    return n;
}

Test(volleyball_model, model_reproduces_appendix_b)
{
    Model m;
    model_start(&m);
    cr_assert_eq(model_perft(&m, 1), 3);
    cr_assert_eq(model_perft(&m, 2), 15);
}

Test(volleyball_model, deeper_perft_matches_the_independent_model)
{
    Model m;
    model_start(&m);
    for (int d = 3; d <= 6; d++) {
        uint64_t want = model_perft(&m, d);
        cr_assert_eq(engine_perft(NULL, d), want, "depth %d", d);
    }
}

/* Hand-set positions: letters for the model, the position string for the
 * engine. Both describe the same state. */
static void model_from_rows(Model *m, const char *const rows[8])
{
    memset(m, 0, sizeof *m);
    for (int sq = 0; sq < 64; sq++) {
        char ch = rows[7 - sq / 8][sq % 8];
        m->pc[sq] = ch == '.' ? 0 : ch;
        m->id[sq] = ch == '.' ? -1 : sq;
    }
    m->ball = -1;
    m->serve_idx = 1;
    m->first_id = -1;
}

Test(volleyball_model, clean_serve_positions_match)
{
    /* T15's pieces (rank 8 first) and a crowded middle game. */
    static const char *const a[8] = {
        "q.......", "........", "........", "........",
        "...B....", "...N....", "...R....", "...Q...V",
    };
    Model m;
    model_from_rows(&m, a);
    const char *pa = "Qd1,Rd2,Nd3,Bd4,Vh1/Qa8 phase=serve";
    for (int d = 1; d <= 3; d++)
        cr_assert_eq(engine_perft(pa, d), model_perft(&m, d), "depth %d", d);
    static const char *const b[8] = {
        "..vq.m..", "r.b...nv", "..b..n.r", "........",
        "R..N....", ".V.B...R", "....B.N.", "..VQ.M..",
    };
    model_from_rows(&m, b);
    m.server = 1;
    const char *pb = "Nd4,Ng2,Bd3,Be2,Ra4,Rh3,Qd1,Vc1,Vb3,Mf1/"
                     "Nf6,Ng7,Bc7,Bc6,Ra7,Rh6,Qd8,Vc8,Vh7,Mf8 "
                     "phase=serve server=b";
    for (int d = 1; d <= 3; d++)
        cr_assert_eq(engine_perft(pb, d), model_perft(&m, d), "depth %d", d);
}

/* ---- states reached by play, converted from the position string ------ */

static const char *key_value(const char *text, const char *key, char *out,
                             size_t cap)
{
    char pat[32] = " ";
    strcat(pat, key);
    strcat(pat, "=");
    const char *p = strstr(text, pat);
    cr_assert_not_null(p, "no %s in %s", key, text);
    p += strlen(pat);
    size_t n = strcspn(p, " ");
    cr_assert_lt(n, cap);
    memcpy(out, p, n);
    out[n] = '\0';
    return out;
}

static int sq_of(const char *t)
{
    return (t[1] - '1') * 8 + (t[0] - 'a');
}

/* Engine piece reference "w3"/"b0" to the model id (the same number). */
static int ref_id(const char *t)
{
    return (t[0] == 'b') * 12 + atoi(t + 1);
}

/* Build the model's state from the engine's position string; returns 0
 * when the state is outside the model's range. */
static int model_from_engine(const Core_Position *pos, Model *m)
{
    char text[CORE_POSITION_TEXT_MAX], v[512];
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    if (strcmp(key_value(text, "out", v, sizeof v), "-") != 0 ||
        strcmp(key_value(text, "pending", v, sizeof v), "-") != 0 ||
        strcmp(key_value(text, "counts", v, sizeof v), "1") != 0 ||
        atoi(key_value(text, "clock", v, sizeof v)) > 5 ||
        strcmp(key_value(text, "set", v, sizeof v), "1") != 0)
        return 0;
    memset(m, 0, sizeof *m);
    for (int i = 0; i < 64; i++)
        m->id[i] = -1;
    const char *p = text;
    for (int side = 0; side < 2; side++) {
        for (int i = 0; *p != '/' && *p != ' '; i++) {
            char letter = *p++;
            int sq = sq_of(p);
            p += 2;
            m->pc[sq] = side ? (char)tolower((unsigned char)letter) : letter;
            m->id[sq] = side * 12 + i;
            if (*p == ',')
                p++;
        }
        p++;
    }
    key_value(text, "ball", v, sizeof v);
    m->ball = v[0] == '-' ? -1 : sq_of(v);
    key_value(text, "phase", v, sizeof v);
    m->phase = strcmp(v, "serve") == 0 ? 0 : strcmp(v, "rally") == 0 ? 1 : 2;
    m->server = key_value(text, "server", v, sizeof v)[0] == 'b';
    m->serve_idx = atoi(key_value(text, "serve", v, sizeof v));
    key_value(text, "first", v, sizeof v);
    m->first_id = v[0] == '-' ? -1 : ref_id(v);
    m->to_act = key_value(text, "toact", v, sizeof v)[0] == 'b';
    m->touches = atoi(key_value(text, "touches", v, sizeof v));
    m->must_pass = atoi(key_value(text, "mustpass", v, sizeof v));
    key_value(text, "touched", v, sizeof v);
    for (char *q = v; *q && *q != '-';) {
        m->touched |= (uint64_t)1 << ref_id(q);
        q = strchr(q, ',');
        if (q == NULL)
            break;
        q++;
    }
    m->start = atoi(key_value(text, "start", v, sizeof v));
    m->clock = atoi(key_value(text, "clock", v, sizeof v));
    return 1;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Along random games: every state within the model's range (first five
 * minutes, nothing out) has the same perft(2) under both models, and
 * every fourth one the same perft(3). */
Test(volleyball_model, states_along_random_games_match)
{
    const Core_Game *g = core_game_find("volleyball");
    size_t cap = core_game_max_moves(g);
    Core_Move *buf = malloc(cap * sizeof *buf);
    uint64_t seed = 2024;
    int compared = 0, served_from_ball = 0, defpen = 0;
    cr_assert_not_null(buf);
    for (int game = 0; game < 60; game++) {
        Core_Position *pos = NULL;
        cr_assert_eq(core_position_new(&pos, g, NULL), 0);
        for (int ply = 0; ply < 40; ply++) {
            Model m;
            if (model_from_engine(pos, &m)) {
                uint64_t n = 0;
                int depth = compared % 4 == 0 ? 3 : 2;
                cr_assert_eq(core_perft(pos, (unsigned)depth, &n), 0);
                char text[CORE_POSITION_TEXT_MAX];
                core_position_format(pos, text, sizeof text);
                cr_assert_eq(n, model_perft(&m, depth), "depth %d at %s", depth,
                             text);
                compared++;
                served_from_ball +=
                    m.phase == 0 && m.ball >= 0 && half_of(m.ball) == m.server;
                defpen += m.phase == 2;
            }
            size_t k = 0;
            cr_assert_eq(core_moves(pos, buf, cap, &k), 0);
            if (k == 0)
                break;
            core_make(pos, &buf[splitmix(&seed) % k]);
        }
        core_position_free(pos);
    }
    free(buf);
    cr_assert_gt(compared, 500);
    cr_assert_gt(served_from_ball, 10);
    cr_assert_gt(defpen, 0);
}
