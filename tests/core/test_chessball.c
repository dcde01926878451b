/*
 * test_chessball.c: Chessball (seed 000, D-CB-1..10). Three kinds of
 * check: the shape of the derived board tables; a second, deliberately
 * simple move generator written here that walks the geometry directly
 * (fields as 3D points of a regular icosahedron, straight lines as great
 * circles, rings as walks round a pentagon, legality by "can the king be
 * taken") to which the program's move lists, make, and perft counts are
 * compared; and one hand-built position per decision D-CB-2..9 with
 * expectations worked out by hand from the decisions.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessball_internal.h"
#include "core.h"

/* ==== helpers over the public API ===================================== */

static Core_Position *start_pos(void)
{
    Core_Position *pos = NULL;
    cr_assert_eq(core_position_new(&pos, core_game_find("chessball"), NULL), 0);
    return pos;
}

static Core_Position *pos_from(const char *text)
{
    Core_Position *pos = start_pos();
    char why[128] = "";
    int rc = core_position_parse(pos, text, why, sizeof why);
    cr_assert_eq(rc, 0, "parse '%s': %s", text, why);
    return pos;
}

/* All legal moves as one space-separated string, in listing order. */
static void moves_text(const Core_Position *pos, char *out, size_t cap)
{
    Core_Move buf[256];
    size_t n = 0;
    cr_assert_eq(core_moves(pos, buf, 256, &n), 0);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char m[CORE_NOTATION_MAX];
        cr_assert_eq(core_move_format(pos, &buf[i], m, sizeof m), 0);
        if (i > 0)
            strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, m, cap - strlen(out) - 1);
    }
}

/* The legal moves from one field, space-separated. */
static void moves_from(const Core_Position *pos, const char *from, char *out,
                       size_t cap)
{
    char all[4096];
    moves_text(pos, all, sizeof all);
    out[0] = '\0';
    size_t fl = strlen(from);
    for (char *tok = all; *tok != '\0';) {
        char *end = strchr(tok, ' ');
        size_t len = end ? (size_t)(end - tok) : strlen(tok);
        if (len > fl && strncmp(tok, from, fl) == 0 &&
            (tok[fl] == '-' || tok[fl] == 'x')) {
            if (out[0] != '\0')
                strncat(out, " ", cap - strlen(out) - 1);
            strncat(out, tok,
                    len < cap - strlen(out) - 1 ? len : cap - strlen(out) - 1);
        }
        tok += len;
        if (*tok == ' ')
            tok++;
    }
}

/* The legal moves from field in the position are exactly want. */
static void expect_from(const char *position, const char *field,
                        const char *want)
{
    char out[1024];
    Core_Position *pos = pos_from(position);
    moves_from(pos, field, out, sizeof out);
    cr_assert_str_eq(out, want, "%s, moves from %s", position, field);
    core_position_free(pos);
}

static void play(Core_Position *pos, const char *text)
{
    Core_Move mv;
    int rc = core_move_parse(pos, text, &mv);
    cr_assert_eq(rc, 0, "parse move %s: %s", text, tb_errname(rc));
    cr_assert_eq(core_play(pos, &mv), 0);
}

/* ==== the second generator: geometry walked directly ================== */

typedef struct V3 {
    double x, y, z;
} V3;

static double root(double v) /* Newton's square root; no libm needed */
{
    double r = v > 1 ? v : 1;
    for (int i = 0; i < 60; i++)
        r = 0.5 * (r + v / r);
    return r;
}

static double dot(V3 a, V3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

static double det3(V3 a, V3 b, V3 c)
{
    return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) +
           a.z * (b.x * c.y - b.y * c.x);
}

static V3 unit(V3 a)
{
    double n = root(dot(a, a));
    V3 r = {a.x / n, a.y / n, a.z / n};
    return r;
}

static V3 centre[32];         /* unit vectors to field centres */
static int pent[32];          /* black field */
static int nbr[32][32];       /* share an edge */
static int nl[32][6], nn[32]; /* the same as lists */
static int kl[32][5], kn[32]; /* knight: nearest pentagons (63 degrees) */
static char gname[32][3];     /* names, given by position on the ball */
static int geo_ready;

static int name_index(char layer, int k)
{
    static const char layers[] = "abcdefgh";
    int l = (int)(strchr(layers, layer) - layers);
    if (l == 0)
        return 0;
    if (l == 7)
        return 31;
    return 1 + (l - 1) * 5 + (k - 1);
}

/* Build the ball: a regular icosahedron with a vertex at the north pole;
 * pentagons are its vertices, hexagons its faces. Names follow D-CB-1 by
 * position: layer by height, index by longitude (36-degree steps). */
static void geo_build(void)
{
    if (geo_ready)
        return;
    double s5 = root(5.0);
    double c36 = (1 + s5) / 4, s36 = root(1 - c36 * c36);
    double cs[10], sn[10];
    cs[0] = 1, sn[0] = 0;
    for (int j = 1; j < 10; j++) {
        cs[j] = cs[j - 1] * c36 - sn[j - 1] * s36;
        sn[j] = sn[j - 1] * c36 + cs[j - 1] * s36;
    }
    V3 vert[12];
    int vfield[12];
    double r = 2 / s5, zc = 1 / s5;
    vert[0] = (V3){0, 0, 1};
    vfield[0] = 0;
    for (int k = 1; k <= 5; k++) {
        vert[k] = (V3){r * cs[2 * (k - 1)], r * sn[2 * (k - 1)], zc};
        vfield[k] = name_index('c', k);
        vert[5 + k] =
            (V3){r * cs[2 * (k - 1) + 1], r * sn[2 * (k - 1) + 1], -zc};
        vfield[5 + k] = name_index('f', k);
    }
    vert[11] = (V3){0, 0, -1};
    vfield[11] = 31;
    memset(pent, 0, sizeof pent);
    for (int v = 0; v < 12; v++) {
        centre[vfield[v]] = vert[v];
        pent[vfield[v]] = 1;
    }
    /* Faces: vertex triples at edge distance from one another. */
    double edge2 = 2 - 2 / s5; /* squared edge of this icosahedron */
    int nface = 0;
    for (int a = 0; a < 12; a++)
        for (int b = a + 1; b < 12; b++)
            for (int c = b + 1; c < 12; c++) {
                V3 A = vert[a], B = vert[b], C = vert[c];
                double ab = 2 - 2 * dot(A, B), bc = 2 - 2 * dot(B, C),
                       ca = 2 - 2 * dot(C, A);
                if (ab > edge2 * 1.01 || bc > edge2 * 1.01 || ca > edge2 * 1.01)
                    continue;
                V3 m = {(A.x + B.x + C.x) / 3, (A.y + B.y + C.y) / 3,
                        (A.z + B.z + C.z) / 3};
                int best = 0;
                for (int j = 1; j < 10; j++)
                    if (m.x * cs[j] + m.y * sn[j] >
                        m.x * cs[best] + m.y * sn[best])
                        best = j;
                char layer = m.z > 0.5    ? 'b'
                             : m.z > 0    ? 'd'
                             : m.z > -0.5 ? 'e'
                                          : 'g';
                int k = (layer == 'b' || layer == 'd')
                            ? (best - 1) / 2 + 1
                            : (best == 0 ? 5 : best / 2);
                cr_assert((best % 2 == 1) == (layer == 'b' || layer == 'd'));
                int f = name_index(layer, k);
                centre[f] = unit(m);
                nface++;
            }
    cr_assert_eq(nface, 20);
    for (int i = 0; i < 32; i++) {
        if (i == 0 || i == 31) {
            gname[i][0] = i == 0 ? 'a' : 'h';
            gname[i][1] = '\0';
        } else {
            gname[i][0] = (char)('b' + (i - 1) / 5);
            gname[i][1] = (char)('1' + (i - 1) % 5);
            gname[i][2] = '\0';
        }
    }
    /* Neighbours: centres of fields sharing an edge are 37-42 degrees
     * apart; the nearest non-neighbours are over 60 (cos 50 = 0.643). */
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++)
            nbr[i][j] = i != j && dot(centre[i], centre[j]) > 0.643;
    for (int i = 0; i < 32; i++) {
        nn[i] = kn[i] = 0;
        for (int j = 0; j < 32; j++) {
            if (nbr[i][j]) {
                cr_assert_lt(nn[i], 6);
                nl[i][nn[i]++] = j;
            }
            if (pent[i] && pent[j] && i != j &&
                dot(centre[i], centre[j]) > 0.35) {
                cr_assert_lt(kn[i], 5);
                kl[i][kn[i]++] = j;
            }
        }
    }
    geo_ready = 1;
}

/* The field after cur on the great circle through prev and cur, or -1
 * when cur is a pentagon (every line ends there, D-CB-2). */
static int line_next_walk(int prev, int cur)
{
    int found = -1, count = 0;
    if (pent[cur])
        return -1;
    for (int n = 0; n < 32; n++) {
        if (n == prev || !nbr[cur][n])
            continue;
        double d = det3(centre[prev], centre[cur], centre[n]);
        if (d < 1e-9 && d > -1e-9) {
            found = n;
            count++;
        }
    }
    cr_assert_eq(count, 1, "line through %s %s", gname[prev], gname[cur]);
    return found;
}

static int line_cache[32][32]; /* 0 unknown, else next + 2 */

static int line_next(int prev, int cur)
{
    if (line_cache[prev][cur] == 0)
        line_cache[prev][cur] = line_next_walk(prev, cur) + 2;
    return line_cache[prev][cur] - 2;
}

/* Mailbox board: 0 empty, +1..+6 white P N B R Q K, negative black. */
typedef struct GBoard {
    int sq[32];
    int side; /* 0 white, 1 black */
} GBoard;

static int own_piece(const GBoard *g, int f, int side)
{
    return side == 0 ? g->sq[f] > 0 : g->sq[f] < 0;
}

static int enemy_piece(const GBoard *g, int f, int side)
{
    return own_piece(g, f, side ^ 1);
}

/* Pseudo-legal destinations of the piece on f (side of the piece). */
static void g_targets(const GBoard *g, int f, int side, int out[32])
{
    int kind = g->sq[f] < 0 ? -g->sq[f] : g->sq[f];
    memset(out, 0, 32 * sizeof out[0]);
    if (kind == 1) { /* pawn, seed 6.1 */
        for (int i = 0; i < nn[f]; i++) {
            int n = nl[f][i];
            if (pent[n] != pent[f] && enemy_piece(g, n, side))
                out[n] = 1;
            if (!pent[f] && !pent[n] && g->sq[n] == 0)
                out[n] = 1;
        }
    } else if (kind == 2) { /* knight */
        for (int i = 0; i < kn[f]; i++)
            if (!own_piece(g, kl[f][i], side))
                out[kl[f][i]] = 1;
    } else if (kind == 6) {
        for (int i = 0; i < nn[f]; i++)
            if (!own_piece(g, nl[f][i], side))
                out[nl[f][i]] = 1;
    }
    if (kind == 3 || kind == 5) { /* lines */
        for (int i = 0; i < nn[f]; i++) {
            int prev = f, cur = nl[f][i];
            while (cur >= 0) {
                if (!own_piece(g, cur, side))
                    out[cur] = 1;
                if (g->sq[cur] != 0)
                    break;
                int nx = line_next(prev, cur);
                prev = cur;
                cur = nx;
            }
        }
    }
    if ((kind == 4 || kind == 5) && !pent[f]) { /* rings */
        for (int i = 0; i < nn[f]; i++) {
            int p = nl[f][i];
            if (!pent[p])
                continue;
            for (int j = 0; j < nn[f]; j++) {
                int n = nl[f][j];
                if (!nbr[p][n])
                    continue; /* a ring neighbour of f round p */
                int prev = f, cur = n;
                for (;;) {
                    if (!own_piece(g, cur, side))
                        out[cur] = 1;
                    if (g->sq[cur] != 0)
                        break;
                    int nx = -1;
                    for (int m = 0; m < nn[cur]; m++)
                        if (nl[cur][m] != prev && nbr[p][nl[cur][m]])
                            nx = nl[cur][m];
                    if (nx == f)
                        break;
                    prev = cur;
                    cur = nx;
                }
            }
        }
    }
}

static int king_takeable(const GBoard *g, int side)
{
    int k = -1, t[32];
    for (int f = 0; f < 32; f++)
        if (g->sq[f] == (side == 0 ? 6 : -6))
            k = f;
    for (int f = 0; f < 32; f++) {
        if (!enemy_piece(g, f, side))
            continue;
        /* Pawns and kings only take next to them, knights pentagons. */
        int kind = g->sq[f] < 0 ? -g->sq[f] : g->sq[f];
        if ((kind == 1 || kind == 6) && !nbr[f][k])
            continue;
        if (kind == 2 && !pent[k])
            continue;
        g_targets(g, f, side ^ 1, t);
        if (t[k])
            return 1;
    }
    return 0;
}

/* Legal moves in canonical order (from, then to, by field index) as
 * pairs; returns the count. */
static int g_moves(const GBoard *g, int from[], int to[])
{
    int n = 0, t[32];
    for (int f = 0; f < 32; f++) {
        if (!own_piece(g, f, g->side))
            continue;
        g_targets(g, f, g->side, t);
        for (int d = 0; d < 32; d++) {
            if (!t[d])
                continue;
            GBoard c = *g;
            c.sq[d] = c.sq[f];
            c.sq[f] = 0;
            if (king_takeable(&c, g->side))
                continue;
            from[n] = f;
            to[n] = d;
            n++;
        }
    }
    return n;
}

static void g_make(GBoard *g, int f, int d)
{
    g->sq[d] = g->sq[f];
    g->sq[f] = 0;
    g->side ^= 1;
}

static uint64_t g_perft(const GBoard *g, int depth)
{
    int from[256], to[256];
    int n = g_moves(g, from, to);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        GBoard c = *g;
        g_make(&c, from[i], to[i]);
        sum += g_perft(&c, depth - 1);
    }
    return sum;
}

static void g_move_text(const GBoard *g, int f, int d, char *out)
{
    out[0] = '\0';
    strcat(out, gname[f]);
    strcat(out, g->sq[d] != 0 ? "x" : "-");
    strcat(out, gname[d]);
}

static void g_moves_text(const GBoard *g, char *out)
{
    int from[256], to[256];
    int n = g_moves(g, from, to);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        char m[16];
        g_move_text(g, from[i], to[i], m);
        if (i > 0)
            strcat(out, " ");
        strcat(out, m);
    }
}

/* The placement part of a position string (docs/rules/chessball.md),
 * written independently of the program. */
static void g_placement(const GBoard *g, char *out)
{
    static const char letters[] = "PNBRQK";
    static const int first[8] = {0, 1, 6, 11, 16, 21, 26, 31};
    static const int len[8] = {1, 5, 5, 5, 5, 5, 5, 1};
    char *p = out;
    for (int l = 0; l < 8; l++) {
        int empty = 0;
        if (l > 0)
            *p++ = '/';
        for (int i = 0; i < len[l]; i++) {
            int c = g->sq[first[l] + i];
            if (c == 0) {
                empty++;
                continue;
            }
            if (empty)
                *p++ = (char)('0' + empty);
            empty = 0;
            *p++ = c > 0 ? letters[c - 1] : (char)(letters[-c - 1] + 32);
        }
        if (empty)
            *p++ = (char)('0' + empty);
    }
    *p++ = ' ';
    *p++ = g->side == 0 ? 'w' : 'b';
    *p = '\0';
}

static int g_field(const char *name)
{
    for (int i = 0; i < 32; i++)
        if (strcmp(gname[i], name) == 0)
            return i;
    cr_assert_fail("no field %s", name);
    return -1;
}

/* The antipode: the field whose centre points the opposite way. */
static int g_antipode(int f)
{
    for (int i = 0; i < 32; i++)
        if (dot(centre[i], centre[f]) < -0.999)
            return i;
    cr_assert_fail("no antipode");
    return -1;
}

/* D-CB-8 read literally: the named white fields, Black on antipodes. */
static void g_start(GBoard *g)
{
    static const struct {
        const char *f;
        int piece;
    } white[] = {{"b1", 6}, {"b2", 5}, {"a", 2},  {"c2", 2},
                 {"c1", 3}, {"c3", 3}, {"b5", 4}, {"d1", 4},
                 {"b3", 1}, {"b4", 1}, {"d2", 1}, {"d5", 1},
                 {"e1", 1}, {"e5", 1}, {"c5", 1}, {"f1", 1}};
    geo_build();
    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < sizeof white / sizeof white[0]; i++) {
        int f = g_field(white[i].f);
        g->sq[f] = white[i].piece;
        g->sq[g_antipode(f)] = -white[i].piece;
    }
}

/* ==== table shape (D-CB-1..4) ========================================= */

Test(chessball, tables_have_the_solids_shape)
{
    const Cb_Tables *t = cb_tables();
    for (int i = 0; i < 32; i++) {
        int is_pent = (CB_PENT_MASK >> i) & 1u;
        int np = __builtin_popcount(t->adj[i] & CB_PENT_MASK);
        int nh = __builtin_popcount(t->adj[i] & CB_HEX_MASK);
        if (is_pent) {
            cr_assert_eq(np, 0, "%s touches a pentagon", t->name[i]);
            cr_assert_eq(nh, 5, "%s", t->name[i]);
            cr_assert_eq(__builtin_popcount(t->knight[i]), 5);
            cr_assert_eq(t->nbishop[i], 5);
            cr_assert_eq(t->nrook[i], 0);
        } else {
            cr_assert_eq(np, 3, "%s", t->name[i]);
            cr_assert_eq(nh, 3, "%s", t->name[i]);
            cr_assert_eq(t->knight[i], 0u);
            cr_assert_eq(t->nbishop[i], 6);
            cr_assert_eq(t->nrook[i], 6);
        }
        for (int j = 0; j < 32; j++)
            cr_assert_eq((t->adj[i] >> j) & 1u, (t->adj[j] >> i) & 1u);
        cr_assert_eq((t->adj[i] >> i) & 1u, 0u);
    }
    /* Every line P-H-H-P, consecutive fields adjacent, all distinct. */
    for (int l = 0; l < CB_LINES; l++) {
        const uint8_t *L = t->line[l];
        cr_assert((CB_PENT_MASK >> L[0]) & 1u);
        cr_assert((CB_HEX_MASK >> L[1]) & 1u);
        cr_assert((CB_HEX_MASK >> L[2]) & 1u);
        cr_assert((CB_PENT_MASK >> L[3]) & 1u);
        for (int i = 0; i < 3; i++)
            cr_assert((t->adj[L[i]] >> L[i + 1]) & 1u);
        /* Not a pentagon's neighbour: the line's ends are 2 apart. */
        cr_assert_eq((t->knight[L[0]] >> L[3]) & 1u, 0u);
        for (int m = 0; m < l; m++)
            cr_assert(memcmp(t->line[m], L, 4) != 0);
    }
    /* Every ring: 5 hexagons round the pentagon, each next to the next. */
    for (int p = 0; p < 32; p++) {
        if (!((CB_PENT_MASK >> p) & 1u))
            continue;
        uint32_t seen = 0;
        for (int k = 0; k < 5; k++) {
            int h = t->ring[p][k], nx = t->ring[p][(k + 1) % 5];
            cr_assert((t->adj[p] >> h) & 1u);
            cr_assert((t->adj[h] >> nx) & 1u);
            seen |= 1u << h;
        }
        cr_assert_eq(seen, t->adj[p]);
    }
    /* The antipode map: an involution without fixed points that keeps
     * colour and adjacency (an automorphism of the board). */
    for (int i = 0; i < 32; i++) {
        int a = t->antipode[i];
        cr_assert_neq(a, i);
        cr_assert_eq(t->antipode[a], i);
        cr_assert_eq((CB_PENT_MASK >> a) & 1u, (CB_PENT_MASK >> i) & 1u);
        for (int j = 0; j < 32; j++)
            cr_assert_eq((t->adj[i] >> j) & 1u,
                         (t->adj[a] >> t->antipode[j]) & 1u);
    }
}

static uint32_t walk_rays(const Cb_Ray *rays, int n, uint32_t occ)
{
    uint32_t a = 0;
    for (int r = 0; r < n; r++)
        for (int i = 0; i < rays[r].len; i++) {
            a |= 1u << rays[r].sq[i];
            if ((occ >> rays[r].sq[i]) & 1u)
                break;
        }
    return a;
}

static uint32_t lookup(const Cb_Tables *t, const Cb_Magic *m, uint32_t occ)
{
    return t
        ->attack[m->off + (uint32_t)(((uint64_t)(occ & m->mask) * m->magic) >>
                                     m->shift)];
}

/* The hashed slider tables give what walking the rays gives. */
Test(chessball, slider_lookups_match_ray_walks)
{
    const Cb_Tables *t = cb_tables();
    uint64_t x = 99;
    for (int s = 0; s < 32; s++)
        for (int i = 0; i < 4000; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t occ = (uint32_t)(x >> 32) & (uint32_t)(x >> 11);
            cr_assert_eq(lookup(t, &t->bishop_magic[s], occ),
                         walk_rays(t->bishop[s], t->nbishop[s], occ));
            cr_assert_eq(lookup(t, &t->rook_magic[s], occ),
                         walk_rays(t->rook[s], t->nrook[s], occ));
        }
}

Test(chessball, antipodes_are_as_d_cb_1_lists)
{
    const Cb_Tables *t = cb_tables();
    /* a<->h, ck<->f(k+2), bk<->g(k+2), dk<->e(k+2) */
    cr_assert_eq(t->antipode[0], 31);
    for (int k = 1; k <= 5; k++) {
        int k2 = (k + 1) % 5 + 1;
        char n1[3] = {'c', (char)('0' + k), 0},
             n2[3] = {'f', (char)('0' + k2), 0};
        cr_assert_eq(t->antipode[cb_field_parse(n1, 2)], cb_field_parse(n2, 2));
        n1[0] = 'b', n2[0] = 'g';
        cr_assert_eq(t->antipode[cb_field_parse(n1, 2)], cb_field_parse(n2, 2));
        n1[0] = 'd', n2[0] = 'e';
        cr_assert_eq(t->antipode[cb_field_parse(n1, 2)], cb_field_parse(n2, 2));
    }
}

Test(chessball, tables_match_the_geometry)
{
    const Cb_Tables *t = cb_tables();
    geo_build();
    for (int i = 0; i < 32; i++) {
        cr_assert_str_eq(t->name[i], gname[i]);
        cr_assert_eq(t->antipode[i], g_antipode(i));
        for (int j = 0; j < 32; j++)
            cr_assert_eq((int)((t->adj[i] >> j) & 1u), nbr[i][j], "%s %s",
                         gname[i], gname[j]);
    }
}

/* max_moves (130) bounds the sum of the largest reach of each kind, times
 * the start set: reaches measured on an empty board from the tables. */
Test(chessball, max_moves_bound_holds)
{
    const Cb_Tables *t = cb_tables();
    int reach[CB_KINDS] = {0};
    for (int s = 0; s < 32; s++) {
        uint32_t b = 0, r = 0;
        for (int i = 0; i < t->nbishop[s]; i++)
            for (int j = 0; j < t->bishop[s][i].len; j++)
                b |= t->bishop[s][i].bit[j];
        for (int i = 0; i < t->nrook[s]; i++)
            for (int j = 0; j < t->rook[s][i].len; j++)
                r |= t->rook[s][i].bit[j];
        int pawn = (CB_HEX_MASK >> s) & 1u ? __builtin_popcount(t->adj[s]) : 5;
        int v[CB_KINDS] = {pawn,
                           __builtin_popcount(t->knight[s]),
                           __builtin_popcount(b),
                           __builtin_popcount(r),
                           __builtin_popcount(b | r),
                           __builtin_popcount(t->adj[s])};
        for (int k = 0; k < CB_KINDS; k++)
            if (v[k] > reach[k])
                reach[k] = v[k];
    }
    int bound = 8 * reach[0] + 2 * reach[1] + 2 * reach[2] + 2 * reach[3] +
                reach[4] + reach[5];
    cr_assert_leq((size_t)bound,
                  core_game_max_moves(core_game_find("chessball")));
    cr_assert_eq(reach[CB_QUEEN], 15); /* hexagon: 9 ring + 9 line - 3 */
}

/* ==== the program against the second generator ======================= */

Test(chessball, perft_start_matches_seed_counts)
{
    Core_Position *pos = start_pos();
    uint64_t n = 0;
    cr_assert_eq(core_perft(pos, 1, &n), 0);
    cr_assert_eq(n, 14);
    cr_assert_eq(core_perft(pos, 2, &n), 0);
    cr_assert_eq(n, 216);
    cr_assert_eq(core_perft(pos, 0, &n), 0);
    cr_assert_eq(n, 1);
    core_position_free(pos);
}

Test(chessball, perft_matches_second_generator, .timeout = 120)
{
    GBoard g;
    g_start(&g);
    Core_Position *pos = start_pos();
    for (int d = 1; d <= 5; d++) {
        uint64_t n = 0;
        cr_assert_eq(core_perft(pos, (unsigned)d, &n), 0);
        cr_assert_eq(n, g_perft(&g, d), "depth %d", d);
    }
    core_position_free(pos);
}

/* D-CB-8: the start position as the decision lists it, built here from
 * names and geometric antipodes, equals the program's construction. */
Test(chessball, start_position_is_d_cb_8)
{
    GBoard g;
    char want[256], got[CORE_POSITION_TEXT_MAX];
    g_start(&g);
    for (int f = 0; f < 32; f++)
        cr_assert_neq(g.sq[f], 0, "%s empty", gname[f]);
    g_placement(&g, want);
    strcat(want, " 0 0");
    Core_Position *pos = start_pos();
    cr_assert_eq(core_position_format(pos, got, sizeof got), 0);
    cr_assert_str_eq(got, want);
    cr_assert_str_eq(got, "N/KQPPR/BNBpP/RPppP/PprpP/Ppbnb/prkqp/n w 0 0");
    core_position_free(pos);
}

static uint64_t rng_state = 12345;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* Random games: at every position the program's move list (and order),
 * make, and placement must equal the second generator's. Every few plies
 * a depth-2 perft from the position string is compared too. */
Test(chessball, random_games_match_second_generator, .timeout = 120)
{
    char want[8192], got[8192], ptxt[CORE_POSITION_TEXT_MAX], gp[256];
    int positions = 0, mates = 0, checks = 0;
    geo_build();
    for (int game = 0; game < 150; game++) {
        GBoard g;
        g_start(&g);
        Core_Position *pos = start_pos();
        for (int ply = 0; ply < 120; ply++) {
            Core_Status st = core_status(pos);
            if (st.reason == CORE_REASON_REPETITION ||
                st.reason == CORE_REASON_MOVE_RULE)
                break; /* the second generator has no counters */
            cr_assert_eq(core_position_format(pos, ptxt, sizeof ptxt), 0);
            g_placement(&g, gp);
            cr_assert_eq(strncmp(ptxt, gp, strlen(gp)), 0, "%s vs %s", ptxt,
                         gp);
            moves_text(pos, got, sizeof got);
            g_moves_text(&g, want);
            cr_assert_str_eq(got, want, "position %s", ptxt);
            positions++;
            if (king_takeable(&g, g.side))
                checks++;
            int from[256], to[256];
            int n = g_moves(&g, from, to);
            if (n == 0) {
                int chk = king_takeable(&g, g.side);
                cr_assert_eq(st.reason, chk ? CORE_REASON_CHECKMATE
                                            : CORE_REASON_STALEMATE);
                if (chk) {
                    mates++;
                    cr_assert_eq(st.outcome,
                                 g.side == 0 ? CORE_WIN_BLACK : CORE_WIN_WHITE);
                }
                break;
            }
            cr_assert_eq(st.outcome, CORE_ONGOING);
            if (ply % 17 == 5) {
                Core_Position *p2 = pos_from(ptxt);
                uint64_t nodes = 0;
                cr_assert_eq(core_perft(p2, 2, &nodes), 0);
                cr_assert_eq(nodes, g_perft(&g, 2), "perft 2 at %s", ptxt);
                core_position_free(p2);
            }
            int i = (int)(rng() % (uint32_t)n);
            char m[16];
            g_move_text(&g, from[i], to[i], m);
            play(pos, m);
            g_make(&g, from[i], to[i]);
        }
        core_position_free(pos);
    }
    cr_assert_gt(positions, 3000);
    cr_assert_gt(checks, 50);
    cr_log_info("%d positions, %d checks, %d mates", positions, checks, mates);
}

/* ==== one hand-built position per decision ============================ */

/* D-CB-2: bishop lines. From a hexagon: 3 one-field moves to its
 * pentagons and 3 rays of 2 fields ending on a pentagon. b1 = (a,c1,c2):
 * opposite a lies d1 then f1; opposite c1, b2 then c3; opposite c2, b5
 * then c5. Kings on g3 and d3 are off these lines. */
Test(chessball, d_cb_2_bishop_line_from_hexagon_ends_on_pentagon)
{
    /* canonical order is by field index: a, b2, b5, c1, c2, c3, c5, d1, f1 */
    expect_from("1/B4/5/2k2/5/5/2K2/1 w 0 0", "b1",
                "b1-a b1-b2 b1-b5 b1-c1 b1-c2 b1-c3 b1-c5 b1-d1 b1-f1");
    /* A black pawn on b2 stops the ray there (capture) and shields c3. */
    expect_from("1/Bp3/5/2k2/5/5/2K2/1 w 0 0", "b1",
                "b1-a b1xb2 b1-b5 b1-c1 b1-c2 b1-c5 b1-d1 b1-f1");
}

/* D-CB-2: from a pentagon, 5 rays hexagon-hexagon-pentagon: a bishop on a
 * reaches b1..b5, d1..d5 (the hexagons opposite a) and f1..f5, and no
 * further. */
Test(chessball, d_cb_2_bishop_from_pentagon_has_five_rays_of_three)
{
    expect_from("B/5/5/5/K4/5/2k2/1 w 0 0", "a",
                "a-b1 a-b2 a-b3 a-b4 a-b5 a-d1 a-d2 a-d3 a-d4 "
                "a-d5 a-f1 a-f2 a-f3 a-f4 a-f5");
}

/* D-CB-3: rook rings. Rook b1, black pawn b2, white pawn d1. Ring a:
 * b2 (capture, stop) one way, b5 b4 b3 b2 the other; ring c1 (b1 d1 e5
 * d5 b5): d1 own, the other way b5 d5 e5; ring c2 (b1 b2 d2 e1 d1): both
 * first fields blocked, so d2 and e1 are out of reach. b2 is reached by
 * two paths and listed once. */
Test(chessball, d_cb_3_rook_ring_stops_at_first_piece)
{
    expect_from("1/Rp3/5/P1k2/5/5/2K2/1 w 0 0", "b1",
                "b1xb2 b1-b3 b1-b4 b1-b5 b1-d5 b1-e5");
    /* Empty rings: the 9 other hexagons of the three rings. */
    expect_from("1/R4/5/2k2/5/5/2K2/1 w 0 0", "b1",
                "b1-b2 b1-b3 b1-b4 b1-b5 b1-d1 b1-d2 b1-d5 "
                "b1-e1 b1-e5");
}

/* D-CB-4: a knight on c1 jumps to its 5 icosahedron neighbours a c2 c5 f1
 * f5 even when every field around it is full; knights on hexagons are
 * impossible. */
Test(chessball, d_cb_4_knight_jumps_to_nearest_pentagons)
{
    char out[1024], why[128];
    /* c1 surrounded: b1 b5 d1 d5 e5 hold white pawns. */
    Core_Position *pos = pos_from("1/P3P/N4/P1k1P/4P/5/2K2/1 w 0 0");
    moves_from(pos, "c1", out, sizeof out);
    cr_assert_str_eq(out, "c1-a c1-c2 c1-c5 c1-f1 c1-f5");
    cr_assert_eq(
        core_position_parse(pos, "1/N4/5/2k2/5/5/2K2/1 w 0 0", why, sizeof why),
        TB_E_POSITION);
    core_position_free(pos);
}

/* D-CB-5: a queen on a hexagon has rook and bishop moves (b1: 9 + 9, with
 * b2 b5 d1 in both: 15); on a pentagon bishop moves only (a: 15). */
Test(chessball, d_cb_5_queen_is_rook_plus_bishop)
{
    expect_from("1/Q4/5/2k2/5/5/2K2/1 w 0 0", "b1",
                "b1-a b1-b2 b1-b3 b1-b4 b1-b5 b1-c1 b1-c2 b1-c3 "
                "b1-c5 b1-d1 b1-d2 b1-d5 b1-e1 b1-e5 b1-f1");
    expect_from("Q/5/5/5/K4/5/2k2/1 w 0 0", "a",
                "a-b1 a-b2 a-b3 a-b4 a-b5 a-d1 a-d2 a-d3 a-d4 "
                "a-d5 a-f1 a-f2 a-f3 a-f4 a-f5");
}

/* D-CB-6: pawns. A pawn on a pentagon with nothing to capture has no
 * move; a pawn on a hexagon steps to empty hexagons and captures only on
 * pentagons; it does not attack the hexagons round it. */
Test(chessball, d_cb_6_pawn_moves_and_captures)
{
    /* White pawn on c1 (pentagon), its hexagons empty or white: stuck. */
    expect_from("1/5/P4/5/2K2/5/5/k w 0 0", "c1", "");
    /* With a black pawn on d1 it can capture it (pentagon -> hexagon). */
    expect_from("1/5/P4/p4/2K2/5/5/k w 0 0", "c1", "c1xd1");
    /* Pawn b1 = (a,c1,c2), neighbours b2 b5 d1: black pawn on b2 cannot be
     * taken (same colour), black knight on a can; b5 empty, d1 black. */
    expect_from("n/Pp3/5/p4/2K2/5/5/k w 0 0", "b1", "b1xa b1-b5");
}

/* D-CB-6 + seed 6.1.1: the king may step next to an enemy pawn on a
 * hexagon (a pawn does not attack hexagons) but not onto a pentagon the
 * pawn captures on. Black pawn d2 = (c2,c3,f2) attacks c2, c3, f2.
 * White king b1: a, c1, b2, b5, d1 are fine; c2 is not. */
Test(chessball, d_cb_6_king_avoids_pawn_capture_fields)
{
    expect_from("1/K4/5/1p3/5/5/5/k w 0 0", "b1",
                "b1-a b1-b2 b1-b5 b1-c1 b1-d1");
}

/* D-CB-7: a pinned rook. Line a-b1-d1-f1: white king a, white rook b1,
 * black bishop f1. The rook may only move along the line to d1. */
Test(chessball, d_cb_7_pinned_piece_stays_on_the_line)
{
    expect_from("K/R4/5/5/5/b4/2k2/1 w 0 0", "b1", "b1-d1");
}

/* D-CB-7: in check from the bishop f1 along f1-d1-b1-a, the king on b1
 * may not step back to a (still on the line) nor onto d1. */
Test(chessball, d_cb_7_king_not_back_along_checking_line)
{
    char out[1024];
    Core_Position *pos = pos_from("1/K4/5/5/5/b4/5/k w 0 0");
    moves_from(pos, "b1", out, sizeof out);
    cr_assert_str_eq(out, "b1-b2 b1-b5 b1-c1 b1-c2");
    moves_text(pos, out, sizeof out);
    cr_assert_str_eq(out, "b1-b2 b1-b5 b1-c1 b1-c2");
    cr_assert_eq(core_status(pos).outcome, CORE_ONGOING);
    core_position_free(pos);
}

/* The view's status line names a check of the side to move: the bishop
 * f1 checks the king b1 along f1-d1-b1 (as above); not at the start. */
Test(chessball, view_status_names_a_check)
{
    Core_View v;
    Core_Position *pos = pos_from("1/K4/5/5/5/b4/5/k w 0 0");
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_str_eq(v.status, "White in check");
    core_position_free(pos);
    pos = pos_from("1/K4/5/5/5/b4/5/k w 7 7");
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_str_eq(v.status,
                     "White in check; 7 plies without a capture (draw at 100)");
    core_position_free(pos);
    pos = start_pos();
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_null(strstr(v.status, "check"), "%s", v.status);
    core_position_free(pos);
}

/* The map names fields as players do (docs/rules/chessball.md: the
 * poles a and h, rows b to g with fields 1 to 5): each of the 32 names
 * on one cell, the rows labelled a..h, and no column labels, since a
 * column is a longitude (it once read 0, 36, .. 324 degrees). */
Test(chessball, view_names_the_fields_not_longitudes)
{
    Core_View v;
    Core_Position *pos = start_pos();
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_eq(v.rows, 8);
    for (int c = 0; c < v.cols; c++)
        cr_assert_str_eq(v.col_label[c], "", "column %d", c);
    for (int r = 0; r < 8; r++) {
        char want[2] = {(char)('a' + r), '\0'};
        cr_assert_str_eq(v.row_label[r], want);
    }
    for (int f = 0; f < 32; f++) {
        char name[3] = {f == 0    ? 'a'
                        : f == 31 ? 'h'
                                  : (char)('b' + (f - 1) / 5),
                        f == 0 || f == 31 ? '\0' : (char)('1' + (f - 1) % 5),
                        '\0'};
        int found = 0;
        for (int r = 0; r < v.rows; r++)
            for (int c = 0; c < v.cols; c++)
                found += strcmp(v.cell[r][c].name, name) == 0;
        cr_assert_eq(found, 1, "field %s on %d cells", name, found);
    }
    core_position_free(pos);
}

/* D-CB-7, seed 8.3: black king a boxed in by its rooks b1 b5 and pawns
 * b2 b3 b4; white knight c1 gives check; nothing black reaches c1 (rooks
 * stand on hexagons, the pawns touch c2..c5 only): checkmate. */
Test(chessball, d_cb_7_checkmate_is_a_win)
{
    Core_Position *pos = pos_from("k/rpppr/N4/5/5/5/5/K b 0 0");
    Core_Status st = core_status(pos);
    size_t n = 1;
    Core_Move buf[256];
    cr_assert_eq(st.outcome, CORE_WIN_WHITE);
    cr_assert_eq(st.reason, CORE_REASON_CHECKMATE);
    cr_assert_eq(core_moves(pos, buf, 256, &n), 0);
    cr_assert_eq(n, 0);
    core_position_free(pos);
}

/* Seed 9.3.2: black king a alone, white pawns c1 c3 c4 attack b5 b1, b2
 * b3, b3 b4 but not a: stalemate, a draw. */
Test(chessball, d_cb_7_stalemate_is_a_draw)
{
    Core_Position *pos = pos_from("k/5/P1PP1/5/5/5/5/K b 0 0");
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_STALEMATE);
    core_position_free(pos);
}

/* D-CB-9: 100 plies without a capture draw; a capture resets. */
Test(chessball, d_cb_9_hundred_quiet_plies_draw)
{
    Core_Position *pos = pos_from("1/5/2k2/5/5/N4/2K2/n w 99 120");
    play(pos, "f1-f2");
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_MOVE_RULE);
    uint64_t n = 9;
    cr_assert_eq(core_perft(pos, 1, &n), 0);
    cr_assert_eq(n, 0);
    Core_Move mv;
    cr_assert_eq(core_move_parse(pos, "h-f5", &mv), TB_E_OVER);
    core_position_free(pos);
    /* The same with a capture on the 100th ply: play goes on. */
    pos = pos_from("1/5/2k2/5/5/Nn3/2K2/1 w 99 120");
    play(pos, "f1xf2");
    cr_assert_eq(core_status(pos).outcome, CORE_ONGOING);
    char text[CORE_POSITION_TEXT_MAX];
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    cr_assert_str_eq(text, "1/5/2k2/5/5/1N3/2K2/1 b 0 121");
    core_position_free(pos);
}

/* D-ALL-2 (with D-CB-9): knights shuffling f1-f2, c1-c2 and back; the
 * start position recurs after 4 and 8 plies, the third time is a draw. */
Test(chessball, d_all_2_threefold_repetition_draws)
{
    static const char *cycle[4] = {"f1-f2", "c1-c2", "f2-f1", "c2-c1"};
    Core_Position *pos = pos_from("1/2k2/n4/5/5/N4/2K2/1 w 0 0");
    for (int i = 0; i < 7; i++)
        play(pos, cycle[i % 4]);
    cr_assert_eq(core_status(pos).outcome, CORE_ONGOING);
    /* perft 2 here: every reply counts except after c2-c1, which ends the
     * game by repetition; checked against the move lists of the API. */
    Core_Move buf[256], buf2[256];
    size_t n = 0, n2 = 0;
    uint64_t want = 0, got = 0;
    cr_assert_eq(core_moves(pos, buf, 256, &n), 0);
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        Core_Position *c = core_position_clone(pos);
        cr_assert_eq(core_play(c, &buf[i]), 0);
        cr_assert_eq(core_moves(c, buf2, 256, &n2), 0);
        if (core_status(c).reason == CORE_REASON_REPETITION) {
            found++;
            cr_assert_eq(n2, 0);
        }
        want += n2;
        core_position_free(c);
    }
    cr_assert_eq(found, 1);
    cr_assert_eq(core_perft(pos, 2, &got), 0);
    cr_assert_eq(got, want);
    play(pos, cycle[3]);
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_REPETITION);
    core_position_free(pos);
}

/* ==== notation, strings, bytes (D-CB-10) ============================== */

Test(chessball, d_cb_10_notation)
{
    Core_Position *pos = start_pos();
    Core_Move mv;
    char text[CORE_NOTATION_MAX];
    cr_assert_eq(core_move_parse(pos, "axc4", &mv), 0);
    cr_assert_eq(core_move_format(pos, &mv, text, sizeof text), 0);
    cr_assert_str_eq(text, "axc4");
    cr_assert_eq(core_move_parse(pos, "b3xc4", &mv), 0);
    cr_assert_eq(core_move_parse(pos, "b3-c4", &mv), TB_E_ILLEGAL);
    cr_assert_eq(core_move_parse(pos, "b1-b2", &mv), TB_E_ILLEGAL);
    cr_assert_eq(core_move_parse(pos, "c3xh", &mv), TB_E_ILLEGAL);
    static const char *bad[] = {"",      "a",      "axc",    "a1xc4", "i1-a",
                                "b6-b1", "b3xc4 ", "b3xxc4", "B3xc4", "b3*c4",
                                "hxa-",  "b0-b1",  "a-a-a"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(core_move_parse(pos, bad[i], &mv), TB_E_NOTATION, "'%s'",
                     bad[i]);
    char *longtext = malloc(CORE_INPUT_MAX + 2);
    memset(longtext, 'a', CORE_INPUT_MAX + 1);
    longtext[CORE_INPUT_MAX + 1] = '\0';
    cr_assert_eq(core_move_parse(pos, longtext, &mv), TB_E_TOOLONG);
    cr_assert_eq(core_position_parse(pos, longtext, NULL, 0), TB_E_TOOLONG);
    free(longtext);
    core_position_free(pos);
}

Test(chessball, position_strings_round_trip_and_refuse_bad_input)
{
    static const char *good[] = {
        "N/KQPPR/BNBpP/RPppP/PprpP/Ppbnb/prkqp/n w 0 0",
        "k/rpppr/N4/5/5/5/5/K b 0 0",
        "1/5/2k2/5/5/N4/2K2/n w 99 120",
    };
    char why[128], text[CORE_POSITION_TEXT_MAX];
    Core_Position *pos = start_pos();
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cr_assert_eq(core_position_parse(pos, good[i], why, sizeof why), 0,
                     "%s: %s", good[i], why);
        cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
        cr_assert_str_eq(text, good[i]);
    }
    /* Counters may be left out (0 0). */
    cr_assert_eq(core_position_parse(pos, "k/5/5/5/5/5/5/K w", why, sizeof why),
                 0);
    static const char *bad[] = {
        "",
        "k/5/5/5/5/5/5/K",           /* no side */
        "k/5/5/5/5/5/5/K x 0 0",     /* bad side */
        "k/5/5/5/5/5/K w 0 0",       /* 7 layers */
        "k/6/5/5/5/5/5/K w 0 0",     /* digit over 5 */
        "k/51/5/5/5/5/5/K w 0 0",    /* too many fields */
        "k/4/5/5/5/5/5/K w 0 0",     /* too few */
        "k/23/5/5/5/5/5/K w 0 0",    /* two digits */
        "k/5/5/5/5/5/5/1 w 0 0",     /* no white king */
        "k/K4/5/5/5/5/5/K w 0 0",    /* two white kings */
        "k/5/5/5/5/5/5/K w 101 200", /* quiet > 100 */
        "k/5/5/5/5/5/5/K w 5 4",     /* quiet > ply */
        "k/5/5/5/5/5/5/K w 0",       /* one counter */
        "k/5/5/5/5/5/5/K w 00 0",    /* leading zero */
        "k/5/5/5/5/5/5/K w 0 99999999999",
        "r/5/5/5/5/5/5/K w 0 0",         /* rook on a pentagon, no black king */
        "k/5/N4/5/5/5/5/K w 0 0",        /* black, not to move, in check */
        "k/5/5/PPPPP/PPPP1/5/5/K w 0 0", /* nine pawns */
        "k/5/5/5/5/5/5/K w 0 0 ",
        "k/5/5/5/5/5/5/Z w 0 0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        cr_assert_eq(core_position_parse(pos, bad[i], why, sizeof why),
                     TB_E_POSITION, "'%s'", bad[i]);
        cr_assert_neq(why[0], '\0');
    }
    core_position_free(pos);
}

Test(chessball, encoding_round_trips_and_refuses_hostile_bytes)
{
    const Core_Game *g = core_game_find("chessball");
    Core_Position *pos = start_pos(), *copy = start_pos();
    uint8_t buf[2048], again[2048];
    size_t len = 0, len2 = 0;
    play(pos, "axc4");
    play(pos, "f4xc4");
    play(pos, "b3xc4");
    cr_assert_eq(core_encode(pos, buf, sizeof buf, &len), 0);
    cr_assert_eq(buf[0], 2);
    cr_assert_leq(len, core_game_encode_max(g));
    cr_assert_eq(core_decode(copy, buf, len), 0);
    cr_assert_eq(core_encode(copy, again, sizeof again, &len2), 0);
    cr_assert_eq(len2, len);
    cr_assert_eq(memcmp(buf, again, len), 0);
    cr_assert_eq(core_key(copy), core_key(pos));
    /* Every single-byte change is refused or re-encodes to itself. */
    for (size_t i = 0; i < len; i++) {
        for (int v = 0; v < 256; v += 7) {
            uint8_t m[2048];
            memcpy(m, buf, len);
            m[i] = (uint8_t)v;
            int rc = core_decode(copy, m, len);
            if (rc == 0) {
                cr_assert_eq(core_encode(copy, again, sizeof again, &len2), 0);
                cr_assert_eq(memcmp(m, again, len), 0);
            } else {
                cr_assert(rc == TB_E_ENCODING || rc == TB_E_MISMATCH);
            }
        }
    }
    /* Truncations and random bytes. */
    for (size_t l = 0; l < len; l++)
        cr_assert_neq(core_decode(copy, buf, l), 0);
    for (int i = 0; i < 2000; i++) {
        uint8_t m[900];
        size_t l = rng() % sizeof m;
        for (size_t j = 0; j < l; j++)
            m[j] = (uint8_t)rng();
        if (l > 0)
            m[0] = 2;
        int rc = core_decode(copy, m, l);
        cr_assert(rc == TB_E_ENCODING || rc == 0);
    }
    core_position_free(pos);
    core_position_free(copy);
}

Test(chessball, history_survives_encoding)
{
    Core_Position *pos = pos_from("1/2k2/n4/5/5/N4/2K2/1 w 0 0");
    Core_Position *copy = start_pos();
    uint8_t buf[2048];
    size_t len = 0;
    static const char *cycle[4] = {"f1-f2", "c1-c2", "f2-f1", "c2-c1"};
    for (int i = 0; i < 7; i++)
        play(pos, cycle[i % 4]);
    cr_assert_eq(core_encode(pos, buf, sizeof buf, &len), 0);
    cr_assert_eq(core_decode(copy, buf, len), 0);
    play(copy, "c2-c1");
    cr_assert_eq(core_status(copy).reason, CORE_REASON_REPETITION);
    cr_assert_eq(core_ply(copy), 8);
    core_position_free(pos);
    core_position_free(copy);
}

Test(chessball, options_and_small_buffers)
{
    Core_Position *pos = NULL;
    const Core_Game *g = core_game_find("chessball");
    cr_assert_eq(core_position_new(&pos, g, "goals=3"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, g, ""), 0);
    char text[8];
    cr_assert_eq(core_options_format(pos, text, sizeof text), 0);
    cr_assert_str_eq(text, "");
    cr_assert_eq(core_position_format(pos, text, sizeof text), TB_E_SPACE);
    Core_Move buf[4];
    size_t n = 0;
    cr_assert_eq(core_moves(pos, buf, 4, &n), TB_E_TOOMANY);
    cr_assert_eq(core_side_to_move(pos), CORE_WHITE);
    cr_assert_str_eq(core_game_name(g), "chessball");
    core_position_free(pos);
}

/* The fast perft (bulk counting, its own repetition stack) agrees with
 * the generic one over the move list, including where repetition ends
 * lines early (the knight shuffle of d_all_2 after 5 plies). */
Test(chessball, fast_perft_matches_generic_perft)
{
    static const char *cycle[4] = {"f1-f2", "c1-c2", "f2-f1", "c2-c1"};
    const Core_Game *g = core_game_find("chessball");
    Core_Position *pos = pos_from("1/2k2/n4/5/5/N4/2K2/1 w 0 0");
    uint8_t st[sizeof(Cb_State)];
    uint64_t fast = 0, slow = 0;
    for (int i = 0; i < 5; i++)
        play(pos, cycle[i % 4]);
    for (unsigned d = 1; d <= 5; d++) {
        uint8_t enc[2048];
        size_t len = 0;
        cr_assert_eq(core_perft(pos, d, &fast), 0);
        /* The generic walk needs the raw state: rebuild it by decoding. */
        cr_assert_eq(core_encode(pos, enc, sizeof enc, &len), 0);
        memset(st, 0, sizeof st);
        cr_assert_eq(g->decode(st, enc, len), 0);
        cr_assert_eq(core__perft_generic(g, st, d, &slow), 0);
        cr_assert_eq(fast, slow, "depth %u", d);
    }
    core_position_free(pos);
}

/* Garbage text never crashes the parsers and gets a clean error. */
Test(chessball, random_text_is_refused_cleanly)
{
    static const char alphabet[] = "abcdefgh12345678/ -xwPNBRQKpnbrqk0";
    Core_Position *pos = start_pos();
    char text[64], why[128];
    Core_Move mv;
    for (int i = 0; i < 20000; i++) {
        size_t len = rng() % (sizeof text - 1);
        for (size_t j = 0; j < len; j++)
            text[j] = alphabet[rng() % (sizeof alphabet - 1)];
        text[len] = '\0';
        int rc = core_move_parse(pos, text, &mv);
        cr_assert(rc == 0 || rc == TB_E_NOTATION || rc == TB_E_ILLEGAL,
                  "'%s' %s", text, tb_errname(rc));
        Core_Position *copy = core_position_clone(pos);
        rc = core_position_parse(copy, text, why, sizeof why);
        cr_assert(rc == 0 || rc == TB_E_POSITION, "'%s'", text);
        core_position_free(copy);
    }
    core_position_free(pos);
}

/* The drawable view is the map of docs/rules/chessball.md: every field
 * once, pentagons dark, the start pieces in place. */
Test(chessball, view_is_the_documented_map)
{
    Core_Position *pos = start_pos();
    Core_View v;
    int seen[32] = {0};
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_eq(v.rows, 8);
    cr_assert_eq(v.cols, 10);
    for (int r = 0; r < v.rows; r++)
        for (int c = 0; c < v.cols; c++) {
            const Core_Cell *cell = &v.cell[r][c];
            if (cell->name[0] == '\0') {
                cr_assert_eq(cell->kind, CORE_CELL_BLANK);
                continue;
            }
            int f = cb_field_parse(cell->name, (int)strlen(cell->name));
            cr_assert_geq(f, 0);
            seen[f]++;
            cr_assert_eq(cell->name[0], 'a' + r, "%s in row %d", cell->name, r);
            cr_assert_eq(cell->kind, ((CB_PENT_MASK >> f) & 1u)
                                         ? CORE_CELL_DARK
                                         : CORE_CELL_LIGHT);
            cr_assert_neq(cell->glyph[0], '\0'); /* the start is full */
        }
    for (int f = 0; f < 32; f++)
        cr_assert_eq(seen[f], 1);
    /* Documented columns: c1 at 0, b1 at 36, e1 at 72, e5 at 0. */
    cr_assert_str_eq(v.cell[2][0].name, "c1");
    cr_assert_str_eq(v.cell[1][1].name, "b1");
    cr_assert_str_eq(v.cell[4][2].name, "e1");
    cr_assert_str_eq(v.cell[4][0].name, "e5");
    cr_assert_str_eq(v.cell[1][1].glyph, "K");
    cr_assert_str_eq(v.cell[6][6].glyph, "k"); /* g3 */
    core_position_free(pos);
}

/* The golden file: positions with perft counts found by the second
 * generator; the program must give the same at every depth. */
Test(chessball, golden_perft_file)
{
    FILE *f = fopen(TABULA_SOURCE_DIR "/tests/golden/chessball_perft.txt", "r");
    char line[512];
    int positions = 0;
    cr_assert_not_null(f);
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *semi = strchr(line, ';');
        unsigned long long want[3];
        cr_assert_not_null(semi, "%s", line);
        cr_assert_eq(
            sscanf(semi + 1, "%llu %llu %llu", &want[0], &want[1], &want[2]), 3,
            "%s", line);
        while (semi > line && semi[-1] == ' ')
            semi--;
        *semi = '\0';
        Core_Position *pos = pos_from(line);
        for (unsigned d = 1; d <= 3; d++) {
            uint64_t n = 0;
            cr_assert_eq(core_perft(pos, d, &n), 0);
            cr_assert_eq(n, want[d - 1], "%s depth %u", line, d);
        }
        core_position_free(pos);
        positions++;
    }
    fclose(f);
    cr_assert_geq(positions, 17);
}
