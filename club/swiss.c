/*
 * swiss.c: one round of a Swiss tournament paired by FIDE's Dutch system
 * (club/swiss.h club_swiss_pair; FIDE Handbook C.04.3, the 2017 text).
 * The rule each step applies is quoted or named where it is applied;
 * docs/tournaments.md ("Swiss: the Dutch system") sums them up with the
 * places where this search is narrower than the rules.
 *
 * The shape: players ordered by A.2 (score, then pairing number) fall
 * into scoregroups (A.3); each bracket (its residents and the players
 * moved down from the bracket above, MDPs) is paired by the sequential
 * generation of section D: S1 against S2, S2's transpositions in
 * lexicographic order (D.1), then exchanges between S1 and S2 (D.2). A
 * candidate is first required to be "perfect" (B.4: no quality
 * criterion C.7-C.19 broken); when none is found, the best by the
 * criteria in their priority, the earlier one on a tie (B.8). The number
 * of pairs (C.5) and of paired MDPs (C.6) is tried from the largest
 * down. Every candidate must leave the rest of the round pairable (the
 * absolute criteria C.1-C.3 and C.4 completion, A.9), which a maximum
 * matching over the players still to pair decides (Edmonds' blossom
 * algorithm). Each bracket's search is bounded by a node budget: a
 * bracket of a few dozen players is searched in full; a larger one may
 * keep the best candidate found within the budget.
 *
 * No floating point, no randomness, no dependence on memory addresses.
 */
#include <stdlib.h>
#include <string.h>

#include "swiss.h"
#include "tb_error.h"
#include "tourney_internal.h"

enum { W = CLUB_COLOUR_WHITE, B = CLUB_COLOUR_BLACK };
/* Colour preference strength (A.6). */
enum { PREF_NONE = 0, PREF_MILD, PREF_STRONG, PREF_ABSOLUTE };
/* Floats (A.4). */
enum { FLOAT_NONE = 0, FLOAT_DOWN, FLOAT_UP };
/* The quality criteria a candidate is measured by, in priority order
 * (C.5 and C.6 are the settings tried in order). */
enum {
    Q7, /* players left unpaired in the following bracket (C.7) */
    Q8, /* topscorers (or opponents) with a colour difference over 2 */
    Q9, /* topscorers (or opponents) with a colour three times running */
    Q10, /* players who do not get their colour preference */
    Q11, /* players who do not get a strong (or absolute) preference */
    Q12, /* the same downfloat as the previous round */
    Q13, /* the same upfloat as the previous round */
    Q14, /* the same downfloat as two rounds before */
    Q15, /* the same upfloat as two rounds before */
    Q16, /* score differences of Q12's players */
    Q17, /* of Q13's */
    Q18, /* of Q14's */
    Q19, /* of Q15's */
    NQ
};

/* Nodes of the candidate search a bracket may spend in each of its two
 * passes (perfect candidates first, then the best): a bracket of up to
 * about 20 players is searched in full well within it. */
#define SEARCH_BUDGET 150000L

typedef struct Sw {
    const Club_Tourney *t;
    int n;       /* t->nplayers */
    int rounds;  /* rounds played before this one (round - 1) */
    int final;   /* pairing the last round: topscorers exist (A.7) */
    int initial; /* initial-colour (E.5) */
    int *score;  /* half points before this round */
    int *cd;     /* colour difference, played games (A.6) */
    unsigned char *pref, *strength, *top, *bye_ok, *f1, *f2;
    unsigned char *hist; /* played colours, oldest first: rounds a player */
    int *nhist;
    unsigned char *met; /* a bit per pair of players who played (C.1) */
    /* the round's players in A.2 order */
    int *order;
    int nactive;
    /* blossom scratch, nactive + 1 vertices; the first bm_nmdp are MDPs
     * of a bracket, which B.2 never pairs with each other */
    int *bm_id, *bm_match, *bm_p, *bm_base, *bm_q, bm_nmdp;
    unsigned char *bm_used, *bm_blossom;
} Sw;

static int met(const Sw *s, int a, int b)
{
    size_t bit = (size_t)a * (size_t)s->n + (size_t)b;
    return (s->met[bit >> 3] >> (bit & 7)) & 1;
}

static void set_met(Sw *s, int a, int b)
{
    size_t bit = (size_t)a * (size_t)s->n + (size_t)b;
    s->met[bit >> 3] |= (unsigned char)(1u << (bit & 7));
}

/* The absolute criteria between two players: C.1 (not met before in a
 * played game: a forfeit is no game, as bbpPairings and JaVaFo read it)
 * and C.3 ("non-topscorers with the same absolute colour preference
 * shall not meet"). */
static int compat(const Sw *s, int a, int b)
{
    if (a == b || met(s, a, b))
        return 0;
    if (s->strength[a] == PREF_ABSOLUTE && s->strength[b] == PREF_ABSOLUTE &&
        s->pref[a] == s->pref[b] && !s->top[a] && !s->top[b])
        return 0;
    return 1;
}

/* A.2: higher score, then lower pairing number. */
static int ranks_above(const Sw *s, int a, int b)
{
    return s->score[a] != s->score[b] ? s->score[a] > s->score[b] : a < b;
}

/* Section E: which of a and b gets White. */
static int white_of(const Sw *s, int a, int b)
{
    int pa = s->pref[a], pb = s->pref[b];
    /* E.1 grant both preferences (A.6.d: a player without one takes
     * what the opponent prefers) */
    if (pa != pb) {
        if (pa == W || pb == B)
            return a;
        if (pb == W || pa == B)
            return b;
    }
    if (pa != 0 && pa == pb) {
        /* E.2 the stronger preference; both absolute: the wider colour
         * difference */
        int sa = s->strength[a], sb = s->strength[b];
        if (sa == PREF_ABSOLUTE && sb == PREF_ABSOLUTE) {
            int da = abs(s->cd[a]), db = abs(s->cd[b]);
            if (da != db)
                return (da > db) == (pa == W) ? a : b;
        } else if (sa != sb) {
            return (sa > sb) == (pa == W) ? a : b;
        }
    }
    /* E.3 alternate to the most recent round in which one had White and
     * the other Black (played games, latest first) */
    for (int i = s->nhist[a] - 1, j = s->nhist[b] - 1; i >= 0 && j >= 0;
         i--, j--) {
        int ca = s->hist[a * s->rounds + i], cb = s->hist[b * s->rounds + j];
        if (ca != cb)
            return ca == B ? a : b;
    }
    /* E.4 the higher ranked player's preference */
    int h = ranks_above(s, a, b) ? a : b, o = h == a ? b : a;
    if (s->pref[h] != 0)
        return s->pref[h] == W ? h : o;
    /* E.5 the higher ranked player with an odd pairing number gets the
     * initial-colour (pairing numbers are 1-based: index h is h + 1) */
    int odd = (h + 1) % 2 == 1;
    return (odd == (s->initial == W)) ? h : o;
}

/* Adds (sign 1) or removes (-1) what pairing a with b costs. */
static void pair_q(const Sw *s, int a, int b, int *q, int sign)
{
    int w = white_of(s, a, b);
    for (int k = 0; k < 2; k++) {
        int x = k == 0 ? a : b;
        int col = x == w ? W : B;
        if (s->pref[x] != 0 && s->pref[x] != col) {
            q[Q10] += sign;
            if (s->strength[x] >= PREF_STRONG)
                q[Q11] += sign;
        }
        if (s->final && (s->top[a] || s->top[b])) {
            int d = s->cd[x] + (col == W ? 1 : -1);
            if (d > 2 || d < -2)
                q[Q8] += sign;
            int nh = s->nhist[x];
            if (nh >= 2 && s->hist[x * s->rounds + nh - 1] == col &&
                s->hist[x * s->rounds + nh - 2] == col)
                q[Q9] += sign;
        }
    }
    if (s->score[a] != s->score[b]) {
        int hi = s->score[a] > s->score[b] ? a : b, lo = hi == a ? b : a;
        int sd = s->score[hi] - s->score[lo];
        if (s->f1[hi] == FLOAT_DOWN)
            q[Q12] += sign, q[Q16] += sign * sd;
        if (s->f1[lo] == FLOAT_UP)
            q[Q13] += sign, q[Q17] += sign * sd;
        if (s->f2[hi] == FLOAT_DOWN)
            q[Q14] += sign, q[Q18] += sign * sd;
        if (s->f2[lo] == FLOAT_UP)
            q[Q15] += sign, q[Q19] += sign * sd;
    }
}

static int qcmp(const int *x, const int *y)
{
    for (int i = 0; i < NQ; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* ---- completion: can these players all be paired (one bye allowed)?
 * A maximum matching by Edmonds' blossom algorithm over compat(). */

static int bm_lca(Sw *s, int m, int a, int b)
{
    unsigned char *seen = s->bm_blossom; /* borrowed, cleared after */
    memset(seen, 0, (size_t)m);
    for (;;) {
        a = s->bm_base[a];
        seen[a] = 1;
        if (s->bm_match[a] < 0)
            break;
        a = s->bm_p[s->bm_match[a]];
    }
    for (;;) {
        b = s->bm_base[b];
        if (seen[b])
            break;
        b = s->bm_p[s->bm_match[b]];
    }
    memset(seen, 0, (size_t)m);
    return b;
}

static void bm_mark(Sw *s, int v, int b, int child)
{
    while (s->bm_base[v] != b) {
        s->bm_blossom[s->bm_base[v]] = 1;
        s->bm_blossom[s->bm_base[s->bm_match[v]]] = 1;
        s->bm_p[v] = child;
        child = s->bm_match[v];
        v = s->bm_p[s->bm_match[v]];
    }
}

/* Vertex m-1 is the bye's dummy when dummy is set. */
static int bm_adj(const Sw *s, int m, int dummy, int u, int v)
{
    if (dummy && (u == m - 1 || v == m - 1)) {
        int x = u == m - 1 ? v : u;
        return x != m - 1 && s->bye_ok[s->bm_id[x]];
    }
    if (u < s->bm_nmdp && v < s->bm_nmdp)
        return 0;
    return compat(s, s->bm_id[u], s->bm_id[v]);
}

static int bm_augment(Sw *s, int m, int dummy, int root)
{
    memset(s->bm_used, 0, (size_t)m);
    for (int i = 0; i < m; i++)
        s->bm_p[i] = -1, s->bm_base[i] = i;
    s->bm_used[root] = 1;
    int qh = 0, qt = 0;
    s->bm_q[qt++] = root;
    while (qh < qt) {
        int v = s->bm_q[qh++];
        for (int to = 0; to < m; to++) {
            if (s->bm_base[v] == s->bm_base[to] || s->bm_match[v] == to ||
                !bm_adj(s, m, dummy, v, to))
                continue;
            if (to == root ||
                (s->bm_match[to] >= 0 && s->bm_p[s->bm_match[to]] >= 0)) {
                int cur = bm_lca(s, m, v, to);
                memset(s->bm_blossom, 0, (size_t)m);
                bm_mark(s, v, cur, to);
                bm_mark(s, to, cur, v);
                for (int i = 0; i < m; i++) {
                    if (s->bm_blossom[s->bm_base[i]]) {
                        s->bm_base[i] = cur;
                        if (!s->bm_used[i]) {
                            s->bm_used[i] = 1;
                            s->bm_q[qt++] = i;
                        }
                    }
                }
            } else if (s->bm_p[to] < 0) {
                s->bm_p[to] = v;
                if (s->bm_match[to] < 0) {
                    /* augment along the path */
                    int u = to;
                    while (u >= 0) {
                        int pv = s->bm_p[u], ppv = s->bm_match[pv];
                        s->bm_match[u] = pv;
                        s->bm_match[pv] = u;
                        u = ppv;
                    }
                    return 1;
                }
                s->bm_used[s->bm_match[to]] = 1;
                s->bm_q[qt++] = s->bm_match[to];
            }
        }
    }
    return 0;
}

/* 1 when ids[0..k) can all be paired, one of them left with the bye when
 * k is odd (C.2: one who may have it). */
/* A greedy matching of the m vertices in order, the start of both uses
 * of the blossom algorithm below. */
static void bm_greedy(Sw *s, int m, int dummy)
{
    for (int i = 0; i < m; i++)
        s->bm_match[i] = -1;
    for (int u = 0; u < m; u++) {
        if (s->bm_match[u] >= 0)
            continue;
        for (int v = u + 1; v < m; v++) {
            if (s->bm_match[v] < 0 && bm_adj(s, m, dummy, u, v)) {
                s->bm_match[u] = v;
                s->bm_match[v] = u;
                break;
            }
        }
    }
}

static int pairable(Sw *s, const int *ids, int k)
{
    if (k == 0)
        return 1;
    if (k == 1)
        return s->bye_ok[ids[0]];
    int dummy = k % 2, m = k + dummy;
    memcpy(s->bm_id, ids, sizeof(int) * (size_t)k);
    s->bm_nmdp = 0;
    bm_greedy(s, m, dummy);
    for (int u = 0; u < m; u++)
        if (s->bm_match[u] < 0 && !bm_augment(s, m, dummy, u))
            return 0;
    return 1;
}

/* The players a bracket of MDPs mdp[0..nm) and residents res[0..nr)
 * must leave unpaired at best: a maximum matching where MDPs meet
 * residents and residents each other. */
static int unpaired(Sw *s, const int *mdp, int nm, const int *res, int nr)
{
    int m = nm + nr, matched = 0;
    memcpy(s->bm_id, mdp, sizeof(int) * (size_t)nm);
    memcpy(s->bm_id + nm, res, sizeof(int) * (size_t)nr);
    s->bm_nmdp = nm;
    bm_greedy(s, m, 0);
    for (int u = 0; u < m; u++)
        if (s->bm_match[u] < 0)
            bm_augment(s, m, 0, u);
    for (int u = 0; u < m; u++)
        matched += s->bm_match[u] >= 0;
    s->bm_nmdp = 0;
    return m - matched;
}

/* ---- one bracket */

typedef struct Br {
    Sw *s;
    const int *mdp; /* MDPs, A.2 order */
    int *s1, *limbo; /* the MDPs of S1 and of the Limbo (B.2) */
    int nlimbo;
    int m0;
    const int *res; /* residents, A.2 order */
    int nres;
    int m1;      /* MDPs in S1 (the rest are in the Limbo) */
    int k;       /* pairs of the remainder */
    int rest_from; /* order[rest_from..] are the lower scoregroups */
    int next_end;  /* order[rest_from..next_end) the next one */
    unsigned char *used; /* residents taken by the MDP-pairing */
    int *rem, nrem;      /* the remainder, A.2 order */
    int *s1r, *s2r, n1r, n2r;
    unsigned char *used2;
    int *pa, *pb, np; /* pairs so far */
    int q[NQ], bound[NQ];
    int have, best_np, best_nfl;
    int *best_a, *best_b, *best_fl;
    int *fl, *tmp; /* downfloaters of a leaf; scratch for pairable */
    long nodes, budget;
    int stop;
    /* the completion of the last downfloater set asked, cached */
    int *cache, ncache, cache_ok, cache_valid;
    int *c7, nc7, c7_value, c7_valid; /* the same for C.7 */
} Br;

static int same_set(const int *a, int na, const int *b, int nb)
{
    return na == nb && memcmp(a, b, sizeof(int) * (size_t)na) == 0;
}

/* C.4 / A.9: the downfloaters with every lower player can complete the
 * round; below the last scoregroup no downfloater but a bye may stay. */
static int completes(Br *br, const int *fl, int nfl)
{
    Sw *s = br->s;
    if (br->cache_valid && same_set(fl, nfl, br->cache, br->ncache))
        return br->cache_ok;
    int ok;
    if (br->rest_from >= s->nactive && nfl > 1) {
        ok = 0;
    } else {
        int k = 0;
        for (int i = 0; i < nfl; i++)
            br->tmp[k++] = fl[i];
        for (int i = br->rest_from; i < s->nactive; i++)
            br->tmp[k++] = s->order[i];
        ok = pairable(s, br->tmp, k);
    }
    memcpy(br->cache, fl, sizeof(int) * (size_t)nfl);
    br->ncache = nfl;
    br->cache_ok = ok;
    br->cache_valid = 1;
    return ok;
}

static void leaf(Br *br)
{
    Sw *s = br->s;
    int nfl = 0;
    for (int i = 0; i < br->nlimbo; i++) /* bound to float (B.2) */
        br->fl[nfl++] = br->limbo[i];
    for (int j = 0; j < br->n2r; j++)
        if (!br->used2[j])
            br->fl[nfl++] = br->s2r[j];
    int q[NQ];
    memcpy(q, br->q, sizeof(q));
    for (int i = 0; i < nfl; i++) {
        int d = br->fl[i];
        if (s->f1[d] == FLOAT_DOWN)
            q[Q12]++;
        if (s->f2[d] == FLOAT_DOWN)
            q[Q14]++;
    }
    if (qcmp(q, br->bound) >= 0)
        return;
    for (int i = 1; i < nfl; i++)
        for (int j = i; j > 0 && ranks_above(s, br->fl[j], br->fl[j - 1]);
             j--) {
            int x = br->fl[j];
            br->fl[j] = br->fl[j - 1];
            br->fl[j - 1] = x;
        }
    /* C.7: "if the current bracket is neither the PPB nor the CLB:
     * choose the set of downfloaters in order first to maximize the
     * number of pairs [...] in the following bracket" */
    if (nfl > 0 && br->next_end > br->rest_from) {
        if (!(br->c7_valid && same_set(br->fl, nfl, br->c7, br->nc7))) {
            int nnext = br->next_end - br->rest_from;
            /* less the one an odd count leaves anyway */
            br->c7_value = unpaired(s, br->fl, nfl, s->order + br->rest_from,
                                    nnext) -
                           (nfl + nnext) % 2;
            memcpy(br->c7, br->fl, sizeof(int) * (size_t)nfl);
            br->nc7 = nfl;
            br->c7_valid = 1;
        }
        q[Q7] = br->c7_value;
        if (qcmp(q, br->bound) >= 0)
            return;
    }
    if (!completes(br, br->fl, nfl))
        return;
    br->have = 1;
    memcpy(br->bound, q, sizeof(q));
    br->best_np = br->np;
    memcpy(br->best_a, br->pa, sizeof(int) * (size_t)br->np);
    memcpy(br->best_b, br->pb, sizeof(int) * (size_t)br->np);
    br->best_nfl = nfl;
    memcpy(br->best_fl, br->fl, sizeof(int) * (size_t)nfl);
    static const int zero[NQ];
    if (qcmp(q, zero) == 0)
        br->stop = 1; /* perfect: B.4 accepts it at once */
}

/* Partial sums only grow, so a partial candidate already no better than
 * the bound cannot become better. */
static int over(const Br *br)
{
    return qcmp(br->q, br->bound) >= 0;
}

static int spend(Br *br)
{
    if (br->stop)
        return 1;
    if (++br->nodes > br->budget) {
        br->stop = 1;
        return 1;
    }
    return 0;
}

/* a tries each of s2[0..n) not yet used, in order (the transpositions'
 * lexicographic order), and the search goes on at level next. */
static void try_partners(Br *br, int a, const int *s2, unsigned char *used,
                         int n, void (*level)(Br *, int), int next)
{
    for (int j = 0; j < n && !br->stop; j++) {
        int b = s2[j];
        if (used[j] || !compat(br->s, a, b))
            continue;
        if (spend(br))
            return;
        pair_q(br->s, a, b, br->q, 1);
        if (!over(br)) {
            used[j] = 1;
            br->pa[br->np] = a;
            br->pb[br->np] = b;
            br->np++;
            level(br, next);
            br->np--;
            used[j] = 0;
        }
        pair_q(br->s, a, b, br->q, -1);
    }
}

/* D.1: S1R[i] takes the S2R players in order: the candidates come in
 * the lexicographic order of S2R's first n1r BSNs. */
static void rem_dfs(Br *br, int i)
{
    if (i == br->n1r) {
        leaf(br);
        return;
    }
    try_partners(br, br->s1r[i], br->s2r, br->used2, br->n2r, rem_dfs, i + 1);
}

/* A resident-exchange (D.2): which BSNs (0-based) leave S1 and S2. */
typedef struct Exch {
    int n;        /* 1 or 2 */
    int out1[2];  /* from S1, descending */
    int out2[2];  /* from S2, ascending */
    int diff;
} Exch;

static int exch_cmp(const void *x, const void *y)
{
    const Exch *a = x, *b = y;
    if (a->n != b->n) /* D.2.a fewer BSNs exchanged */
        return a->n - b->n;
    if (a->diff != b->diff) /* D.2.b smaller difference of the sums */
        return a->diff - b->diff;
    for (int i = 0; i < a->n; i++) /* D.2.c higher BSN from S1 */
        if (a->out1[i] != b->out1[i])
            return b->out1[i] - a->out1[i];
    for (int i = 0; i < a->n; i++) /* D.2.d lower BSN from S2 */
        if (a->out2[i] != b->out2[i])
            return a->out2[i] - b->out2[i];
    return 0;
}

/* Builds S1R and S2R from the remainder with exchange e (NULL: the
 * original subgroups), both in A.2 (BSN) order. */
static void split(Br *br, const Exch *e)
{
    br->n1r = br->n2r = 0;
    for (int i = 0; i < br->nrem; i++) {
        int in1 = i < br->k;
        if (e != NULL)
            for (int x = 0; x < e->n; x++)
                if (i == e->out1[x] || i == e->out2[x])
                    in1 = !in1;
        if (in1)
            br->s1r[br->n1r++] = br->rem[i];
        else
            br->s2r[br->n2r++] = br->rem[i];
    }
    memset(br->used2, 0, (size_t)br->n2r);
}

/* B.6: the remainder (or a homogeneous bracket): transpositions of the
 * original S2, then each exchange in D.2's order with its own
 * transpositions. */
static void pair_remainder(Br *br)
{
    split(br, NULL);
    rem_dfs(br, 0);
    int k = br->k, r = br->nrem;
    if (br->stop || k == 0 || k == r)
        return;
    size_t n1 = (size_t)k * (size_t)(r - k);
    size_t n2 = (k >= 2 && r - k >= 2 && n1 <= 64)
                    ? (size_t)(k * (k - 1) / 2) * (size_t)((r - k) * (r - k - 1) / 2)
                    : 0;
    Exch *ex = malloc(sizeof(Exch) * (n1 + n2));
    if (ex == NULL) {
        br->stop = 1;
        return;
    }
    size_t ne = 0;
    for (int i = 0; i < k; i++)
        for (int j = k; j < r; j++)
            ex[ne++] = (Exch){1, {i, 0}, {j, 0}, j - i};
    if (n2 > 0)
        for (int i1 = 0; i1 < k; i1++)
            for (int i2 = i1 + 1; i2 < k; i2++)
                for (int j1 = k; j1 < r; j1++)
                    for (int j2 = j1 + 1; j2 < r; j2++)
                        ex[ne++] = (Exch){2, {i2, i1}, {j1, j2},
                                          j1 + j2 - i1 - i2};
    qsort(ex, ne, sizeof(Exch), exch_cmp);
    for (size_t x = 0; x < ne && !br->stop; x++) {
        split(br, &ex[x]);
        rem_dfs(br, 0);
    }
    free(ex);
}

/* B.7: the MDP-pairing, S1's MDPs with S2's residents in order, each
 * followed by its remainder. */
static void mdp_dfs(Br *br, int i)
{
    if (i == br->m1) {
        br->nrem = 0;
        for (int j = 0; j < br->nres; j++)
            if (!br->used[j])
                br->rem[br->nrem++] = br->res[j];
        if (br->k > br->nrem / 2)
            return;
        pair_remainder(br);
        return;
    }
    try_partners(br, br->s1[i], br->res, br->used, br->nres, mdp_dfs, i + 1);
}

/* An S1 of MDPs (D.3): which of the bracket's MDPs (by index), and
 * their scores. Exchanges with the Limbo are tried only while the MDPs
 * are few. */
#define D3_MAX_MDPS 16
#define D3_MAX_S1 4096
typedef struct Combo {
    int m;
    int idx[D3_MAX_MDPS];
    int score[D3_MAX_MDPS];
} Combo;

/* D.3.a the highest different score in S1, then D.3.b the lowest
 * lexicographic value of the BSNs. */
static int combo_cmp(const void *x, const void *y)
{
    const Combo *a = x, *b = y;
    for (int i = 0; i < a->m; i++)
        if (a->score[i] != b->score[i])
            return b->score[i] - a->score[i];
    for (int i = 0; i < a->m; i++)
        if (a->idx[i] != b->idx[i])
            return a->idx[i] - b->idx[i];
    return 0;
}

static int same_scores(const Combo *a, const Combo *b)
{
    return memcmp(a->score, b->score, sizeof(int) * (size_t)a->m) == 0;
}

/* The S1s of m1 MDPs in D.3's order into c (room for D3_MAX_S1); only
 * the original S1 (the first m1) when the MDPs are many. */
static int combos(const Br *br, Combo *c)
{
    int m0 = br->m0, m1 = br->m1, n = 0, idx[D3_MAX_MDPS];
    for (int i = 0; i < m1 && i < D3_MAX_MDPS; i++)
        idx[i] = i;
    do {
        Combo *x = &c[n++];
        x->m = m1;
        for (int i = 0; i < m1; i++) {
            x->idx[i] = idx[i];
            x->score[i] = br->s->score[br->mdp[idx[i]]];
        }
        if (m0 > D3_MAX_MDPS || n == D3_MAX_S1)
            break;
        /* the next combination in lexicographic order */
        int i = m1 - 1;
        while (i >= 0 && idx[i] == m0 - m1 + i)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (int j = i + 1; j < m1; j++)
            idx[j] = idx[j - 1] + 1;
    } while (1);
    qsort(c, (size_t)n, sizeof(Combo), combo_cmp);
    return n;
}

/* Sets S1 and the Limbo from combo x (NULL: the first m1 MDPs). */
static void use_combo(Br *br, const Combo *x)
{
    int k = 0, l = 0;
    for (int i = 0; i < br->m0; i++) {
        int in = 0;
        for (int j = 0; j < br->m1; j++)
            in |= x->idx[j] == i;
        if (in)
            br->s1[k++] = br->mdp[i];
        else
            br->limbo[l++] = br->mdp[i];
    }
    br->nlimbo = l;
}

/* One search of the setting (m1, k): the first perfect candidate, else
 * the best (B.4, B.8), over the transpositions, the remainder's
 * exchanges and the MDP-exchanges (B.7). S1s of the same scores give the
 * same PSD (C.6); a lower PSD is tried first and wins when it has any
 * candidate. Returns 1 when a candidate was found. */
static int search(Br *br)
{
    static const int perfect_bound[NQ] = {[NQ - 1] = 1};
    Combo *c = malloc(sizeof(Combo) * D3_MAX_S1);
    if (c == NULL)
        return 0;
    int nc = combos(br, c);
    for (int g = 0; g < nc && !br->have;) {
        int end = g + 1;
        while (end < nc && same_scores(&c[g], &c[end]))
            end++;
        for (int pass = 0; pass < 2 && !br->have; pass++) {
            if (pass == 0) {
                memcpy(br->bound, perfect_bound, sizeof(br->bound));
            } else {
                for (int i = 0; i < NQ; i++)
                    br->bound[i] = 1 << 30;
            }
            br->nodes = 0;
            br->budget = SEARCH_BUDGET;
            br->stop = 0;
            for (int x = g; x < end && !br->stop; x++) {
                memset(br->q, 0, sizeof(br->q));
                br->np = 0;
                memset(br->used, 0, (size_t)br->nres);
                use_combo(br, &c[x]);
                mdp_dfs(br, 0);
            }
        }
        g = end;
    }
    free(c);
    return br->have;
}

/* Pairs one bracket; appends its pairs to out and returns its
 * downfloaters in fl (A.2 order), their count through *nfl. */
static int pair_bracket(Sw *s, const int *mdp, int m0, const int *res,
                        int nres, int rest_from, Club_Swiss_Pairing *out,
                        int *fl, int *nfl)
{
    int size = m0 + nres, rc = 0;
    Br br = {0};
    br.s = s;
    br.mdp = mdp;
    br.m0 = m0;
    br.res = res;
    br.nres = nres;
    br.rest_from = rest_from;
    br.next_end = rest_from;
    while (br.next_end < s->nactive &&
           s->score[s->order[br.next_end]] == s->score[s->order[rest_from]])
        br.next_end++;
    br.used = calloc((size_t)nres + 1, 1);
    br.s1 = malloc(sizeof(int) * ((size_t)m0 + 1));
    br.limbo = malloc(sizeof(int) * ((size_t)m0 + 1));
    br.used2 = calloc((size_t)size + 1, 1);
    br.rem = malloc(sizeof(int) * ((size_t)size + 1));
    br.s1r = malloc(sizeof(int) * ((size_t)size + 1));
    br.s2r = malloc(sizeof(int) * ((size_t)size + 1));
    br.pa = malloc(sizeof(int) * ((size_t)size + 1));
    br.pb = malloc(sizeof(int) * ((size_t)size + 1));
    br.best_a = malloc(sizeof(int) * ((size_t)size + 1));
    br.best_b = malloc(sizeof(int) * ((size_t)size + 1));
    br.best_fl = malloc(sizeof(int) * ((size_t)size + 1));
    br.fl = malloc(sizeof(int) * ((size_t)size + 1));
    br.cache = malloc(sizeof(int) * ((size_t)size + 1));
    br.c7 = malloc(sizeof(int) * ((size_t)size + 1));
    br.tmp = malloc(sizeof(int) * ((size_t)s->nactive + 1));
    if (br.used == NULL || br.s1 == NULL || br.limbo == NULL ||
        br.used2 == NULL || br.rem == NULL ||
        br.s1r == NULL || br.s2r == NULL || br.pa == NULL || br.pb == NULL ||
        br.best_a == NULL || br.best_b == NULL || br.best_fl == NULL ||
        br.fl == NULL || br.cache == NULL || br.c7 == NULL ||
        br.tmp == NULL) {
        rc = TB_E_NOMEM;
        goto done;
    }
    /* B.1: MaxPairs and M1; C.5 (more pairs) before C.6 (more MDPs
     * paired, the highest first: the PSD) */
    int maxpairs = size / 2;
    if (m0 > nres && maxpairs > nres)
        maxpairs = nres;
    for (int pairs = maxpairs; pairs >= 0 && !br.have; pairs--) {
        int m1max = m0 < nres ? m0 : nres;
        if (m1max > pairs)
            m1max = pairs;
        for (int m1 = m1max; m1 >= 0 && !br.have; m1--) {
            br.m1 = m1;
            br.k = pairs - m1;
            if (br.k > (nres - m1) / 2)
                continue;
            search(&br);
        }
    }
    if (!br.have) {
        rc = TB_E_STATE; /* cannot happen: no pairs at all completes */
        goto done;
    }
    for (int i = 0; i < br.best_np; i++) {
        int a = br.best_a[i], b = br.best_b[i];
        int w = white_of(s, a, b);
        Club_Pairing *p = &out->boards[out->nboards++];
        p->white = w + 1;
        p->black = (w == a ? b : a) + 1;
    }
    memcpy(fl, br.best_fl, sizeof(int) * (size_t)br.best_nfl);
    *nfl = br.best_nfl;
done:
    free(br.used);
    free(br.s1);
    free(br.limbo);
    free(br.used2);
    free(br.rem);
    free(br.s1r);
    free(br.s2r);
    free(br.pa);
    free(br.pb);
    free(br.best_a);
    free(br.best_b);
    free(br.best_fl);
    free(br.fl);
    free(br.cache);
    free(br.c7);
    free(br.tmp);
    return rc;
}

/* ---- the players' state before the round */

static int pairing_points(int r)
{
    return club_result_points(&club_points_chess, r);
}

static int load(Sw *s, const Club_Tourney *t, int round,
                const unsigned char *absent)
{
    int n = t->nplayers, rounds = round - 1;
    s->rounds = rounds > 0 ? rounds : 1;
    int *before = malloc(sizeof(int) * (size_t)n * (size_t)(rounds + 1));
    if (before == NULL)
        return TB_E_NOMEM;
    for (int p = 0; p < n; p++) {
        int sc = 0;
        for (int r = 0; r < rounds; r++) {
            before[p * (rounds + 1) + r] = sc;
            sc += pairing_points(t->players[p].games[r].result);
        }
        before[p * (rounds + 1) + rounds] = sc;
        s->score[p] = sc;
    }
    /* A.7 topscorers: over half the maximum score, in the last round */
    s->final = round == t->nrounds && rounds > 0;
    for (int p = 0; p < n; p++) {
        const Club_Game *g = t->players[p].games;
        int white = 0, black = 0, run = 0, last = 0;
        s->bye_ok[p] = 1;
        s->nhist[p] = 0;
        for (int r = 0; r < rounds; r++) {
            int res = g[r].result;
            /* C.2: a pairing-allocated bye or a forfeit win before */
            if (res == CLUB_RES_BYE_PAIRING || res == CLUB_RES_FORFEIT_WIN)
                s->bye_ok[p] = 0;
            if (!club__played(res) || g[r].opponent == 0 ||
                g[r].opponent > n)
                continue;
            int c = g[r].colour == CLUB_COLOUR_WHITE ? W : B;
            set_met(s, p, g[r].opponent - 1);
            set_met(s, g[r].opponent - 1, p);
            s->hist[p * s->rounds + s->nhist[p]++] = (unsigned char)c;
            if (c == W)
                white++;
            else
                black++;
            run = c == last ? run + 1 : 1;
            last = c;
        }
        /* A.6 colour difference and preference */
        int d = white - black;
        s->cd[p] = d;
        int other = last == W ? B : W;
        if (d > 1 || d < -1 || run >= 2) {
            s->strength[p] = PREF_ABSOLUTE;
            s->pref[p] = (unsigned char)(d > 1 ? B : d < -1 ? W : other);
        } else if (d == 1 || d == -1) {
            s->strength[p] = PREF_STRONG;
            s->pref[p] = (unsigned char)(d == 1 ? B : W);
        } else if (last != 0) {
            s->strength[p] = PREF_MILD;
            s->pref[p] = (unsigned char)other;
        } else {
            s->strength[p] = PREF_NONE;
            s->pref[p] = 0;
        }
        s->top[p] = s->final && s->score[p] > rounds; /* > 50% of 2R */
        /* A.4 floats of the last two rounds: a played game against a
         * lower (higher) score is a downfloat (upfloat); a round not
         * played that scored something is a downfloat (bbpPairings'
         * reading; a zero-point absence floats nowhere) */
        for (int back = 1; back <= 2; back++) {
            int r = rounds - back, f = FLOAT_NONE;
            if (r >= 0) {
                int res = g[r].result, o = g[r].opponent;
                if (club__played(res) && o >= 1 && o <= n) {
                    int mine = before[p * (rounds + 1) + r];
                    int theirs = before[(o - 1) * (rounds + 1) + r];
                    f = mine > theirs   ? FLOAT_DOWN
                        : mine < theirs ? FLOAT_UP
                                        : FLOAT_NONE;
                } else if (pairing_points(res) > 0) {
                    f = FLOAT_DOWN;
                }
            }
            (back == 1 ? s->f1 : s->f2)[p] = (unsigned char)f;
        }
    }
    free(before);
    /* the round's players, A.2 order */
    s->nactive = 0;
    for (int p = 0; p < n; p++)
        if (absent == NULL || !absent[p])
            s->order[s->nactive++] = p;
    for (int i = 1; i < s->nactive; i++)
        for (int j = i;
             j > 0 && ranks_above(s, s->order[j], s->order[j - 1]); j--) {
            int x = s->order[j];
            s->order[j] = s->order[j - 1];
            s->order[j - 1] = x;
        }
    return 0;
}

/* E.5's initial-colour read from round 1: the higher ranked player (by
 * pairing number, all on zero) of its first played game had it if odd. */
static int initial_from_round1(const Club_Tourney *t)
{
    for (int p = 0; p < t->nplayers; p++) {
        const Club_Game *g = &t->players[p].games[0];
        if (club__played(g->result) && g->opponent > p + 1 &&
            (g->colour == CLUB_COLOUR_WHITE || g->colour == CLUB_COLOUR_BLACK)) {
            int c = g->colour;
            if ((p + 1) % 2 == 0)
                c = c == CLUB_COLOUR_WHITE ? CLUB_COLOUR_BLACK
                                           : CLUB_COLOUR_WHITE;
            return c;
        }
    }
    return CLUB_COLOUR_WHITE;
}

static void sw_free(Sw *s)
{
    free(s->score);
    free(s->cd);
    free(s->pref);
    free(s->strength);
    free(s->top);
    free(s->bye_ok);
    free(s->f1);
    free(s->f2);
    free(s->hist);
    free(s->nhist);
    free(s->met);
    free(s->order);
    free(s->bm_id);
    free(s->bm_match);
    free(s->bm_p);
    free(s->bm_base);
    free(s->bm_q);
    free(s->bm_used);
    free(s->bm_blossom);
}

/* Board order: the higher score of the pair, the lower score, then the
 * better ranked player (C.04.2 general handling rules): each board's
 * keys, compared by board_cmp. */
typedef struct Board {
    int hi_score, lo_score, hi_pos;
    Club_Pairing p;
} Board;

static int board_cmp(const void *x, const void *y)
{
    const Board *a = x, *b = y;
    if (a->hi_score != b->hi_score)
        return b->hi_score - a->hi_score;
    if (a->lo_score != b->lo_score)
        return b->lo_score - a->lo_score;
    return a->hi_pos - b->hi_pos;
}

static int sort_boards(const Sw *s, Club_Swiss_Pairing *out)
{
    Board *b = malloc(sizeof(Board) * ((size_t)out->nboards + 1));
    int *pos = malloc(sizeof(int) * ((size_t)s->n + 1));
    if (b == NULL || pos == NULL) {
        free(b);
        free(pos);
        return TB_E_NOMEM;
    }
    for (int i = 0; i < s->nactive; i++)
        pos[s->order[i]] = i;
    for (int i = 0; i < out->nboards; i++) {
        int w = out->boards[i].white - 1, k = out->boards[i].black - 1;
        int hi = pos[w] < pos[k] ? w : k, lo = hi == w ? k : w;
        b[i] = (Board){s->score[hi], s->score[lo], pos[hi], out->boards[i]};
    }
    qsort(b, (size_t)out->nboards, sizeof(Board), board_cmp);
    for (int i = 0; i < out->nboards; i++)
        out->boards[i] = b[i].p;
    free(b);
    free(pos);
    return 0;
}

int club_swiss_pair(const Club_Tourney *t, int round,
                    const unsigned char *absent, int initial_colour,
                    Club_Swiss_Pairing *out)
{
    if (t == NULL || out == NULL || round < 1 || round > t->nrounds ||
        round > CLUB_TOURNEY_MAX_ROUNDS || t->nplayers < 0 ||
        t->nplayers > CLUB_TOURNEY_MAX_PLAYERS ||
        (initial_colour != CLUB_COLOUR_NONE &&
         initial_colour != CLUB_COLOUR_WHITE &&
         initial_colour != CLUB_COLOUR_BLACK))
        return TB_E_ARG;
    out->nboards = 0;
    out->bye = 0;
    int n = t->nplayers, rc = 0;
    size_t nn = (size_t)(n > 0 ? n : 1);
    size_t rounds = (size_t)(round > 1 ? round - 1 : 1);
    Sw s = {0};
    s.t = t;
    s.n = n;
    s.initial = initial_colour != CLUB_COLOUR_NONE ? initial_colour
                                                   : initial_from_round1(t);
    s.score = malloc(sizeof(int) * nn);
    s.cd = malloc(sizeof(int) * nn);
    s.pref = malloc(nn);
    s.strength = malloc(nn);
    s.top = malloc(nn);
    s.bye_ok = malloc(nn);
    s.f1 = malloc(nn);
    s.f2 = malloc(nn);
    s.hist = malloc(nn * rounds);
    s.nhist = malloc(sizeof(int) * nn);
    s.met = calloc((nn * nn + 7) / 8, 1);
    s.order = malloc(sizeof(int) * nn);
    s.bm_id = malloc(sizeof(int) * (nn + 1));
    s.bm_match = malloc(sizeof(int) * (nn + 1));
    s.bm_p = malloc(sizeof(int) * (nn + 1));
    s.bm_base = malloc(sizeof(int) * (nn + 1));
    s.bm_q = malloc(sizeof(int) * (nn + 1) * 2);
    s.bm_used = malloc(nn + 1);
    s.bm_blossom = malloc(nn + 1);
    int *fl = malloc(sizeof(int) * nn), *mdp = malloc(sizeof(int) * nn);
    if (s.score == NULL || s.cd == NULL || s.pref == NULL ||
        s.strength == NULL || s.top == NULL || s.bye_ok == NULL ||
        s.f1 == NULL || s.f2 == NULL || s.hist == NULL || s.nhist == NULL ||
        s.met == NULL || s.order == NULL || s.bm_id == NULL ||
        s.bm_match == NULL || s.bm_p == NULL || s.bm_base == NULL ||
        s.bm_q == NULL || s.bm_used == NULL || s.bm_blossom == NULL ||
        fl == NULL || mdp == NULL) {
        rc = TB_E_NOMEM;
        goto done;
    }
    rc = load(&s, t, round, absent);
    if (rc < 0)
        goto done;
    /* A.9: if the round cannot be completed at all, the arbiter decides */
    if (!pairable(&s, s.order, s.nactive)) {
        rc = TB_E_STATE;
        goto done;
    }
    int m0 = 0, i = 0;
    while (i < s.nactive || m0 > 1) {
        /* the next scoregroup (A.3): its residents order[i..j) */
        int j = i;
        while (j < s.nactive && s.score[s.order[j]] == s.score[s.order[i]])
            j++;
        int nfl = 0;
        rc = pair_bracket(&s, mdp, m0, s.order + i, j - i, j, out, fl, &nfl);
        if (rc == TB_E_STATE) {
            /* MDPs paired only with residents (B.2) left no candidate:
             * the bracket is collapsed into one homogeneous group (A.9's
             * collapsed scoregroup), where MDPs may meet each other */
            int k = 0;
            for (int x = 0; x < m0; x++)
                fl[k++] = mdp[x];
            for (int x = i; x < j; x++)
                fl[k++] = s.order[x];
            memcpy(mdp, fl, sizeof(int) * (size_t)k);
            rc = pair_bracket(&s, NULL, 0, mdp, k, j, out, fl, &nfl);
        }
        if (rc < 0)
            goto done;
        memcpy(mdp, fl, sizeof(int) * (size_t)nfl);
        m0 = nfl;
        i = j;
    }
    if (m0 == 1)
        out->bye = mdp[0] + 1;
    rc = sort_boards(&s, out);
done:
    sw_free(&s);
    free(fl);
    free(mdp);
    return rc;
}
