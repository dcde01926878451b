/*
 * rating.c: Glicko-2 in integer fixed point (club.h, "ratings";
 * docs/ratings.md): the Q32.32 arithmetic with its own exp, ln and square
 * root, the paper's steps 2 to 8, and the list of a club's players that
 * rates games in one documented order. libc only, no floating point, so
 * the cross-build check (tests/crossbuild.sh) compiles it with core/ alone
 * and every build must print the same digits.
 */
#include <stdlib.h>
#include <string.h>

#include "club.h"

/* ---- 128-bit helpers (portable: no __int128 on 32-bit targets) ------ */

typedef struct U128 {
    uint64_t hi, lo;
} U128;

static U128 mul64(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
    uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    U128 r;
    r.lo = (mid << 32) | (p00 & 0xffffffffu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}

static U128 shl128(U128 x, int s) /* 0 <= s < 64 */
{
    U128 r;
    if (s == 0)
        return x;
    r.hi = (x.hi << s) | (x.lo >> (64 - s));
    r.lo = x.lo << s;
    return r;
}

static uint64_t magnitude(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* sign * m, saturating at CLUB_FIX_MAX / CLUB_FIX_MIN. */
static int64_t signed_sat(int negative, uint64_t m)
{
    if (m > (uint64_t)INT64_MAX)
        return negative ? CLUB_FIX_MIN : CLUB_FIX_MAX;
    return negative ? -(int64_t)m : (int64_t)m;
}

/* a * b / 2^s (0 < s < 64), rounded to nearest, halves away from zero. */
static int64_t mulq(int64_t a, int64_t b, int s)
{
    int neg = (a < 0) != (b < 0);
    U128 p = mul64(magnitude(a), magnitude(b));
    uint64_t half = (uint64_t)1 << (s - 1);
    uint64_t lo = p.lo + half;
    uint64_t hi = p.hi + (lo < p.lo);
    if ((hi >> s) != 0)
        return neg ? CLUB_FIX_MIN : CLUB_FIX_MAX;
    return signed_sat(neg, (hi << (64 - s)) | (lo >> s));
}

/* a * 2^s / b (0 <= s < 64), rounded to nearest, halves away from zero. */
static int64_t divq(int64_t a, int64_t b, int s)
{
    int neg = (a < 0) != (b < 0);
    uint64_t d = magnitude(b), q = 0, rem;
    U128 n = {0, magnitude(a)};

    if (d == 0)
        return a == 0 ? 0 : a < 0 ? CLUB_FIX_MIN : CLUB_FIX_MAX;
    n = shl128(n, s);
    if (n.hi >= d) /* a quotient of 2^64 or more */
        return neg ? CLUB_FIX_MIN : CLUB_FIX_MAX;
    rem = n.hi;
    for (int i = 63; i >= 0; i--) {
        uint64_t carry = rem >> 63;
        rem = (rem << 1) | ((n.lo >> i) & 1u);
        q <<= 1;
        if (carry || rem >= d) {
            rem -= d;
            q |= 1u;
        }
    }
    if (rem >= d - rem) { /* 2 rem >= d: round half away from zero */
        if (q == UINT64_MAX)
            return neg ? CLUB_FIX_MIN : CLUB_FIX_MAX;
        q++;
    }
    return signed_sat(neg, q);
}

/* v / 2^s (0 < s < 63) rounded to nearest, halves away from zero. */
static int64_t rshift_round(int64_t v, int s)
{
    uint64_t m = magnitude(v);
    m = (m >> s) + ((m >> (s - 1)) & 1u);
    return v < 0 ? -(int64_t)m : (int64_t)m;
}

/* floor(sqrt(n)), n < 2^126. */
static uint64_t isqrt128(U128 n)
{
    uint64_t res = 0;
    U128 rem = {0, 0};
    for (int i = 63; i >= 0; i--) {
        /* bring down bits 2i+1 and 2i */
        uint64_t two = i >= 32 ? (n.hi >> (2 * i - 64)) & 3u
                               : (n.lo >> (2 * i)) & 3u;
        U128 trial;
        rem = shl128(rem, 2);
        rem.lo |= two;
        trial = shl128((U128){0, res}, 2);
        trial.lo |= 1u;
        res <<= 1;
        if (rem.hi > trial.hi || (rem.hi == trial.hi && rem.lo >= trial.lo)) {
            uint64_t borrow = rem.lo < trial.lo;
            rem.lo -= trial.lo;
            rem.hi -= trial.hi + borrow;
            res |= 1u;
        }
    }
    return res;
}

/* ---- Q32.32 ----------------------------------------------------------- */

/* ln 2 in Q6.58 and in Q32.32, sqrt 2 in Q3.60, 3 / pi^2 in Q32.32: each
 * the exact value rounded to nearest, computed with bc -l at scale 60. */
#define LN2_Q58 INT64_C(199786072581291495)
#define SQRT2_Q60 INT64_C(1630477228166597777)
#define THREE_OVER_PI2 INT64_C(1305513510)

Club_Fix club_fix_mul(Club_Fix a, Club_Fix b)
{
    return mulq(a, b, 32);
}

Club_Fix club_fix_div(Club_Fix a, Club_Fix b)
{
    return divq(a, b, 32);
}

Club_Fix club_fix_ratio(int64_t num, int64_t den)
{
    return divq(num, den, 32);
}

/* a + b, saturating (no signed overflow, whatever the inputs). */
static Club_Fix sat_add(Club_Fix a, Club_Fix b)
{
    if (b > 0 && a > CLUB_FIX_MAX - b)
        return CLUB_FIX_MAX;
    if (b < 0 && a < CLUB_FIX_MIN - b)
        return CLUB_FIX_MIN;
    return a + b;
}

/* floor(x) as a whole number. */
static int64_t fix_floor(Club_Fix x)
{
    if (x >= 0)
        return x >> 32;
    return -(int64_t)((magnitude(x) + (uint64_t)CLUB_FIX_ONE - 1) >> 32);
}

Club_Fix club_fix_exp(Club_Fix x)
{
    int64_t k, r60, term, sum;
    if (x > 22 * CLUB_FIX_ONE)
        return CLUB_FIX_MAX;
    if (x < -23 * CLUB_FIX_ONE)
        return 0;
    /* x = k ln 2 + r, |r| <= ln 2 / 2 (a hair more by rounding) */
    k = fix_floor(divq(x, LN2_Q58, 58) + CLUB_FIX_ONE / 2);
    /* r in Q6.58: x (Q32.32, |x| <= 23) << 26, less k ln 2; then Q3.60 */
    r60 = (x * ((int64_t)1 << 26) - k * LN2_Q58) * 4;
    /* e^r by its Taylor series in Q3.60 (terms fall below 2^-60 by 20) */
    term = (int64_t)1 << 60;
    sum = term;
    for (int n = 1; n < 24 && term != 0; n++) {
        term = mulq(term, r60, 60) / n;
        sum += term;
    }
    /* e^x = sum 2^k: Q3.60 to Q32.32 is 28 bits to the right */
    if (k >= 31)
        return CLUB_FIX_MAX;
    if (k > 28) {
        uint64_t m = (uint64_t)sum << (k - 28);
        return m > (uint64_t)INT64_MAX ? CLUB_FIX_MAX : (int64_t)m;
    }
    if (28 - k >= 63)
        return 0;
    return 28 - k == 0 ? sum : rshift_round(sum, (int)(28 - k));
}

Club_Fix club_fix_ln(Club_Fix x)
{
    int p = 62, e;
    int64_t y60, z, z2, term, sum, ln58;
    if (x <= 0)
        return CLUB_FIX_MIN;
    while (((uint64_t)x >> p) == 0)
        p--;
    /* x = y 2^e with y in [1, 2) in Q3.60 */
    e = p - 32;
    y60 = p <= 60 ? x * ((int64_t)1 << (60 - p)) : rshift_round(x, p - 60);
    if (y60 > SQRT2_Q60) { /* y in [1/sqrt 2, sqrt 2]: z small */
        y60 = rshift_round(y60, 1);
        e++;
    }
    /* ln y = 2 atanh z = 2 (z + z^3/3 + z^5/5 + ...), z = (y-1)/(y+1),
     * |z| <= 0.1716 */
    z = divq(y60 - ((int64_t)1 << 60), y60 + ((int64_t)1 << 60), 60);
    z2 = mulq(z, z, 60);
    term = z;
    sum = 0;
    for (int n = 1; n < 60 && term != 0; n += 2) {
        sum += term / n;
        term = mulq(term, z2, 60);
    }
    ln58 = rshift_round(sum, 1) + (int64_t)e * LN2_Q58; /* 2 sum in Q.58 */
    return rshift_round(ln58, 26);
}

Club_Fix club_fix_sqrt(Club_Fix x)
{
    if (x <= 0)
        return 0;
    return (Club_Fix)isqrt128(shl128((U128){0, (uint64_t)x}, 32));
}

static const int64_t pow10_tab[10] = {1,      10,      100,      1000,
                                      10000,  100000,  1000000,  10000000,
                                      100000000, 1000000000};

int64_t club_fix_scaled(Club_Fix x, int decimals)
{
    if (decimals < 0)
        decimals = 0;
    if (decimals > 9)
        decimals = 9;
    return mulq(x, pow10_tab[decimals], 32);
}

int club_fix_format(Club_Fix x, int decimals, char *out, size_t cap)
{
    char buf[40];
    size_t n = 0;
    uint64_t m, whole, frac;
    int64_t v;

    if (decimals < 0 || decimals > 9 || out == NULL)
        return TB_E_ARG;
    v = club_fix_scaled(x, decimals);
    m = magnitude(v);
    whole = m / (uint64_t)pow10_tab[decimals];
    frac = m % (uint64_t)pow10_tab[decimals];
    /* digits written backwards, then reversed */
    for (int i = 0; i < decimals; i++) {
        buf[n++] = (char)('0' + frac % 10);
        frac /= 10;
    }
    if (decimals > 0)
        buf[n++] = '.';
    do {
        buf[n++] = (char)('0' + whole % 10);
        whole /= 10;
    } while (whole != 0);
    if (v < 0)
        buf[n++] = '-';
    if (n + 1 > cap)
        return TB_E_SPACE;
    for (size_t i = 0; i < n; i++)
        out[i] = buf[n - 1 - i];
    out[n] = '\0';
    return 0;
}

/* ---- Glicko-2 (the paper's steps) ----------------------------------- */

/* 173.7178, the paper's scale between the Glicko and Glicko-2 scales. */
static Club_Fix glicko_scale(void)
{
    return club_fix_ratio(1737178, 10000);
}

void club_glicko_start(Club_Glicko *g)
{
    g->rating = CLUB_START_RATING;
    g->rd = CLUB_START_RD;
    g->vol = club_fix_ratio(CLUB_START_VOL_PPM, 1000000);
}

/* Step 5's f(x), written so that no square of a large value is taken:
 * e^x (D2 - D) / (2 D^2) = e^x ((delta/D)^2 - 1/D) / 2 with
 * D = phi^2 + v + e^x, less (x - a) / tau^2. */
typedef struct Vol_F {
    Club_Fix delta, phi2, v, a, tau2;
} Vol_F;

static Club_Fix vol_f(const Vol_F *f, Club_Fix x)
{
    Club_Fix ex = club_fix_exp(x);
    Club_Fix d = sat_add(f->phi2 + f->v, ex);
    Club_Fix dd = club_fix_div(f->delta, d);
    Club_Fix left = club_fix_mul(ex, club_fix_mul(dd, dd) -
                                         club_fix_div(CLUB_FIX_ONE, d));
    return sat_add(rshift_round(left, 1),
                   -club_fix_div(sat_add(x, -f->a), f->tau2));
}

static int opposite_or_zero(Club_Fix p, Club_Fix q) /* p q <= 0 */
{
    return p == 0 || q == 0 || ((p < 0) != (q < 0));
}

/* Step 5: the new volatility by the Illinois algorithm. */
static Club_Fix new_volatility(Club_Fix sigma, Club_Fix phi2, Club_Fix v,
                               Club_Fix delta, Club_Fix tau)
{
    Vol_F f;
    Club_Fix A, B, fA, fB, eps = club_fix_ratio(CLUB_EPSILON_PPM, 1000000);
    Club_Fix adelta = delta < 0 ? -delta : delta;
    Club_Fix root = club_fix_sqrt(phi2 + v);

    f.delta = delta;
    f.phi2 = phi2;
    f.v = v;
    f.a = club_fix_ln(club_fix_mul(sigma, sigma));
    f.tau2 = club_fix_mul(tau, tau);
    A = f.a;
    if (adelta > root) {
        /* ln(delta^2 - phi^2 - v) as ln(|d| - r) + ln(|d| + r) */
        B = club_fix_ln(adelta - root) + club_fix_ln(adelta + root);
    } else {
        int k = 1;
        while (k < CLUB_ILLINOIS_MAX && vol_f(&f, f.a - k * tau) < 0)
            k++;
        B = f.a - k * tau;
    }
    fA = vol_f(&f, A);
    fB = vol_f(&f, B);
    for (int i = 0; i < CLUB_ILLINOIS_MAX; i++) {
        Club_Fix gap = B - A, C, fC;
        if ((gap < 0 ? -gap : gap) <= eps || fB == fA)
            break;
        C = sat_add(A, club_fix_mul(A - B, club_fix_div(fA, sat_add(fB, -fA))));
        fC = vol_f(&f, C);
        if (opposite_or_zero(fC, fB)) {
            A = B;
            fA = fB;
        } else {
            fA = rshift_round(fA, 1);
        }
        B = C;
        fB = fC;
    }
    return club_fix_exp(rshift_round(A, 1));
}

int club_glicko_update(const Club_Glicko *p, const Club_Rated_Result *games,
                       size_t n, Club_Fix tau, Club_Glicko *out)
{
    Club_Fix scale = glicko_scale();
    Club_Fix mu, phi, phi2, vinv = 0, sum = 0, v, sigma, phi_star2, p2;
    Club_Glicko r;

    if (p == NULL || out == NULL || (n > 0 && games == NULL) || n > CLUB_PERIOD_MAX ||
        p->rd <= 0 || p->rd > CLUB_RD_MAX || p->vol <= 0 ||
        p->vol > CLUB_FIX_ONE || tau < CLUB_FIX_ONE / 100 ||
        tau > 10 * CLUB_FIX_ONE)
        return TB_E_ARG;
    for (size_t j = 0; j < n; j++)
        if (games[j].rd <= 0 || games[j].rd > CLUB_RD_MAX ||
            games[j].score < 0 ||
            games[j].score > CLUB_FIX_ONE)
            return TB_E_ARG;
    /* step 2 */
    mu = club_fix_div(p->rating - CLUB_START_RATING, scale);
    phi = club_fix_div(p->rd, scale);
    phi2 = club_fix_mul(phi, phi);
    sigma = p->vol;
    if (n == 0) { /* step 6 alone: phi' = sqrt(phi^2 + sigma^2) */
        r.rating = p->rating;
        r.vol = sigma;
        r.rd = club_fix_mul(
            scale, club_fix_sqrt(phi2 + club_fix_mul(sigma, sigma)));
        goto done;
    }
    /* steps 3 and 4 */
    for (size_t j = 0; j < n; j++) {
        Club_Fix mu_j = club_fix_div(games[j].rating - CLUB_START_RATING, scale);
        Club_Fix phi_j = club_fix_div(games[j].rd, scale);
        Club_Fix g = club_fix_div(
            CLUB_FIX_ONE,
            club_fix_sqrt(CLUB_FIX_ONE +
                          club_fix_mul(THREE_OVER_PI2,
                                       club_fix_mul(phi_j, phi_j))));
        Club_Fix x = club_fix_mul(g, mu - mu_j), e;
        if (x > 21 * CLUB_FIX_ONE)
            x = 21 * CLUB_FIX_ONE;
        if (x < -21 * CLUB_FIX_ONE)
            x = -21 * CLUB_FIX_ONE;
        e = club_fix_div(CLUB_FIX_ONE, CLUB_FIX_ONE + club_fix_exp(-x));
        vinv += club_fix_mul(club_fix_mul(g, g),
                             club_fix_mul(e, CLUB_FIX_ONE - e));
        sum += club_fix_mul(g, games[j].score - e);
    }
    if (vinv < (CLUB_FIX_ONE >> 24))
        vinv = CLUB_FIX_ONE >> 24; /* v at most 2^24 */
    v = club_fix_div(CLUB_FIX_ONE, vinv);
    /* step 5 */
    sigma = new_volatility(sigma, phi2, v, club_fix_mul(v, sum), tau);
    /* steps 6 and 7 */
    phi_star2 = phi2 + club_fix_mul(sigma, sigma);
    p2 = club_fix_div(CLUB_FIX_ONE, club_fix_div(CLUB_FIX_ONE, phi_star2) +
                                        club_fix_div(CLUB_FIX_ONE, v));
    mu += club_fix_mul(p2, sum);
    /* step 8 */
    r.rating = club_fix_mul(scale, mu) + CLUB_START_RATING;
    r.rd = club_fix_mul(scale, club_fix_sqrt(p2));
    r.vol = sigma;
done:
    if (r.rd > CLUB_RD_MAX)
        r.rd = CLUB_RD_MAX;
    *out = r;
    return 0;
}

/* ---- the list of players ------------------------------------------- */

const char *club_class_name(int klass)
{
    static const char *const names[CLUB_CLASS_COUNT_] = {
        "untimed", "bullet", "blitz", "rapid", "classical", "correspondence"};
    return klass >= 0 && klass < CLUB_CLASS_COUNT_ ? names[klass] : "?";
}

struct Club_Ratings {
    Club_Rated_Game *games;
    size_t ngames, games_cap;
    Club_Rated_Player *players;
    size_t nplayers, players_cap;
    uint32_t *slots; /* open addressing: player index + 1, 0 empty */
    size_t nslots;   /* a power of two, at least twice nplayers */
    size_t rated, conflicts;
    int ran;
};

int club_ratings_new(Club_Ratings **out)
{
    Club_Ratings *r = calloc(1, sizeof *r);
    if (r == NULL)
        return TB_E_NOMEM;
    *out = r;
    return 0;
}

void club_ratings_free(Club_Ratings *r)
{
    if (r == NULL)
        return;
    free(r->games);
    free(r->players);
    free(r->slots);
    free(r);
}

/* Room for one more of an array *items of *cap (n in use) items of size
 * bytes each: doubled when full. Errors: TB_E_NOMEM. */
static int room_for_one(void **items, size_t *cap, size_t n, size_t size)
{
    size_t more;
    void *grown;
    if (n < *cap)
        return 0;
    more = *cap ? *cap * 2 : 64;
    if ((grown = realloc(*items, more * size)) == NULL)
        return TB_E_NOMEM;
    *items = grown;
    *cap = more;
    return 0;
}

int club_ratings_add(Club_Ratings *r, const Club_Rated_Game *g)
{
    void *items;
    if (r == NULL || g == NULL || g->score > 2 || g->klass >= CLUB_CLASS_COUNT_)
        return TB_E_ARG;
    if (r->ran)
        return TB_E_STATE;
    items = r->games;
    if (room_for_one(&items, &r->games_cap, r->ngames, sizeof *r->games) != 0)
        return TB_E_NOMEM;
    r->games = items;
    r->games[r->ngames] = *g;
    r->games[r->ngames].game[PROTO_NAME_MAX] = '\0';
    r->ngames++;
    return 0;
}

/* The documented order: start time, id, then (for a total order among
 * copies of one match) score and source. */
static int game_order(const void *pa, const void *pb)
{
    const Club_Rated_Game *a = pa, *b = pb;
    int c;
    if (a->started != b->started)
        return a->started < b->started ? -1 : 1;
    if ((c = memcmp(a->id, b->id, sizeof a->id)) != 0)
        return c;
    if (a->score != b->score)
        return a->score < b->score ? -1 : 1;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    return 0;
}

static uint64_t player_hash(const char *game, int klass, const uint8_t *key)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a */
    for (const char *c = game; *c != '\0'; c++)
        h = (h ^ (uint8_t)*c) * UINT64_C(0x100000001b3);
    h = (h ^ (uint8_t)klass) * UINT64_C(0x100000001b3);
    for (int i = 0; i < PROTO_KEY_BYTES; i++)
        h = (h ^ key[i]) * UINT64_C(0x100000001b3);
    return h;
}

static int grow_slots(Club_Ratings *r)
{
    size_t n = r->nslots ? r->nslots * 2 : 256;
    uint32_t *s = calloc(n, sizeof *s);
    if (s == NULL)
        return TB_E_NOMEM;
    for (size_t i = 0; i < r->nplayers; i++) {
        const Club_Rated_Player *p = &r->players[i];
        size_t at = (size_t)player_hash(p->game, p->klass, p->key) & (n - 1);
        while (s[at] != 0)
            at = (at + 1) & (n - 1);
        s[at] = (uint32_t)(i + 1);
    }
    free(r->slots);
    r->slots = s;
    r->nslots = n;
    return 0;
}

/* The player of key in game g's pool, made a newcomer when new. */
static Club_Rated_Player *player_of(Club_Ratings *r, const Club_Rated_Game *g,
                              const uint8_t *key)
{
    size_t at;
    void *items;
    if ((r->nplayers + 1) * 2 > r->nslots && grow_slots(r) != 0)
        return NULL;
    at = (size_t)player_hash(g->game, g->klass, key) & (r->nslots - 1);
    while (r->slots[at] != 0) {
        Club_Rated_Player *p = &r->players[r->slots[at] - 1];
        if (p->klass == g->klass && memcmp(p->key, key, PROTO_KEY_BYTES) == 0 &&
            strcmp(p->game, g->game) == 0)
            return p;
        at = (at + 1) & (r->nslots - 1);
    }
    items = r->players;
    if (room_for_one(&items, &r->players_cap, r->nplayers,
                     sizeof *r->players) != 0)
        return NULL;
    r->players = items;
    Club_Rated_Player *p = &r->players[r->nplayers];
    memset(p, 0, sizeof *p);
    memcpy(p->game, g->game, sizeof p->game);
    p->klass = g->klass;
    memcpy(p->key, key, PROTO_KEY_BYTES);
    club_glicko_start(&p->g);
    r->slots[at] = (uint32_t)(++r->nplayers);
    return p;
}

static int rate_game(Club_Ratings *r, const Club_Rated_Game *g, Club_Fix tau)
{
    Club_Rated_Player *w = player_of(r, g, g->white), *b;
    Club_Rated_Result rw, rb;
    Club_Glicko nw, nb;
    size_t wi;

    if (w == NULL)
        return TB_E_NOMEM;
    wi = (size_t)(w - r->players);
    if ((b = player_of(r, g, g->black)) == NULL)
        return TB_E_NOMEM;
    w = &r->players[wi]; /* (the array may have moved) */
    rw.rating = b->g.rating;
    rw.rd = b->g.rd;
    rw.score = (Club_Fix)g->score * (CLUB_FIX_ONE / 2);
    rb.rating = w->g.rating;
    rb.rd = w->g.rd;
    rb.score = CLUB_FIX_ONE - rw.score;
    if (club_glicko_update(&w->g, &rw, 1, tau, &nw) != 0 ||
        club_glicko_update(&b->g, &rb, 1, tau, &nb) != 0)
        return TB_E_ARG;
    w->g = nw;
    b->g = nb;
    w->games++;
    b->games++;
    r->rated++;
    return 0;
}

static int player_order(const void *pa, const void *pb)
{
    const Club_Rated_Player *a = pa, *b = pb;
    int c = strcmp(a->game, b->game);
    if (c != 0)
        return c;
    if (a->klass != b->klass)
        return a->klass < b->klass ? -1 : 1;
    if (a->g.rating != b->g.rating)
        return a->g.rating > b->g.rating ? -1 : 1;
    return memcmp(a->key, b->key, PROTO_KEY_BYTES);
}

int club_ratings_run(Club_Ratings *r, Club_Fix tau, Club_Conflict_Visit conflict,
                     void *ctx)
{
    if (r == NULL || tau <= 0)
        return TB_E_ARG;
    if (r->ran)
        return TB_E_STATE;
    r->ran = 1;
    if (r->ngames > 1)
        qsort(r->games, r->ngames, sizeof *r->games, game_order);
    for (size_t i = 0; i < r->ngames;) {
        size_t j = i + 1;
        int differ = 0;
        /* copies of one match are neighbours: same start, same id */
        while (j < r->ngames && r->games[j].started == r->games[i].started &&
               memcmp(r->games[j].id, r->games[i].id, PROTO_HASH_BYTES) == 0) {
            if (r->games[j].score != r->games[i].score && !differ) {
                differ = 1;
                if (conflict != NULL)
                    conflict(ctx, r->games[i].source < r->games[j].source
                                      ? r->games[i].source
                                      : r->games[j].source,
                             r->games[i].source < r->games[j].source
                                 ? r->games[j].source
                                 : r->games[i].source);
            }
            j++;
        }
        if (differ) {
            r->conflicts++;
        } else if (memcmp(r->games[i].white, r->games[i].black,
                          PROTO_KEY_BYTES) != 0) {
            int rc = rate_game(r, &r->games[i], tau);
            if (rc != 0)
                return rc;
        }
        i = j;
    }
    if (r->nplayers > 1)
        qsort(r->players, r->nplayers, sizeof *r->players, player_order);
    return 0;
}

size_t club_ratings_rated(const Club_Ratings *r)
{
    return r->rated;
}

size_t club_ratings_conflicts(const Club_Ratings *r)
{
    return r->conflicts;
}

size_t club_ratings_count(const Club_Ratings *r)
{
    return r->ran ? r->nplayers : 0;
}

const Club_Rated_Player *club_ratings_at(const Club_Ratings *r, size_t i)
{
    return r->ran && i < r->nplayers ? &r->players[i] : NULL;
}
