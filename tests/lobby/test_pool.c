/*
 * test_pool.c: the pool's pairing (lobby/pool.h) and the clock range it
 * reads (proto_clock_range_parse), linked with the rooms' library alone.
 * The pairings of the small cases are worked out by hand from
 * docs/pool.md's rules with the estimates written out beside them; the
 * property tests hold the pool against a plain O(n^2) reference written
 * here from the same rules, over offers drawn by a seeded xorshift.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "pool_util.h"
#include "tb_error.h"

/* The caller's game list. */
enum { LASKA, CHESSBALL, FOOTBALL, VOLLEYBALL, VOLLEYBALL10, NGAMES };
#define G(x) ((uint16_t)(1u << (x)))

/* An offer of player `who` (its key and, unless addr says, its address
 * filled with that byte) of games with clock range text (typed). */
static Pool_Offer offer(uint64_t id, uint64_t at, uint8_t who, uint16_t games,
                        const char *range)
{
    Pool_Offer o;
    memset(&o, 0, sizeof o);
    o.id = id;
    o.arrival_ms = at;
    memset(o.key, who, sizeof o.key);
    memset(o.addr, who, sizeof o.addr);
    o.games = games;
    cr_assert_eq(proto_clock_range_parse(range, 1, &o.lo, &o.hi, NULL), 0,
                 "range %s", range);
    return o;
}

static Pool *pool_of(uint32_t capacity, uint32_t per_key, uint32_t per_addr)
{
    Pool *p = NULL;
    Pool_Limits lim = {capacity, per_key, per_addr};
    cr_assert_eq(pool_new(NGAMES, &lim, &p), 0);
    return p;
}

static int clock_is(const Proto_Clock *c, const char *typed)
{
    Proto_Clock want;
    cr_assert_eq(proto_clock_parse(typed, 1, &want, NULL), 0);
    return c->kind == want.kind && c->base_ms == want.base_ms &&
           c->inc_ms == want.inc_ms && c->delay_ms == want.delay_ms &&
           c->moves == want.moves;
}

/* ---- clock ranges ---------------------------------------------------- */

Test(pool_clock, ranges_read_and_refused_by_part)
{
    Proto_Clock lo, hi;
    Proto_Clock_Part bad = PROTO_CLOCK_PART_FORM;
    cr_assert_eq(proto_clock_range_parse("3+2..10+5", 1, &lo, &hi, &bad), 0);
    cr_assert(clock_is(&lo, "3+2") && clock_is(&hi, "10+5"));
    cr_assert_eq(proto_clock_range_parse("5+0", 1, &lo, &hi, &bad), 0);
    cr_assert(clock_is(&lo, "5+0") && clock_is(&hi, "5+0"));
    cr_assert_eq(proto_clock_range_parse("1day..3days", 1, &lo, &hi, NULL), 0);
    cr_assert_eq(proto_clock_range_parse("180+2..600+5", 0, &lo, &hi, NULL), 0);
    cr_assert(clock_is(&lo, "3+2") && clock_is(&hi, "10+5"));
    static const struct {
        const char *text;
        Proto_Clock_Part part;
    } refused[] = {
        {"10+5..3+2", PROTO_CLOCK_PART_ORDER},
        {"5+0..5d3", PROTO_CLOCK_PART_KIND},
        {"3days..5+0", PROTO_CLOCK_PART_KIND},
        {"..5+0", PROTO_CLOCK_PART_FORM},
        {"5+0..", PROTO_CLOCK_PART_FORM},
        {"1+0..2+0..3+0", PROTO_CLOCK_PART_FORM},
        {"5+0...6+0", PROTO_CLOCK_PART_FORM},
        {"5+0..40/0", PROTO_CLOCK_PART_TIME},
        {"15days..1day", PROTO_CLOCK_PART_DAYS},
        {"123456789012345678901234567..5+0", PROTO_CLOCK_PART_FORM},
        {"", PROTO_CLOCK_PART_FORM},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        bad = (Proto_Clock_Part)99;
        lo.kind = hi.kind = PROTO_CLOCK_FISCHER;
        cr_assert_eq(
            proto_clock_range_parse(refused[i].text, 1, &lo, &hi, &bad),
            TB_E_OPTION, "%s", refused[i].text);
        cr_assert_eq(bad, refused[i].part, "%s: part %d", refused[i].text,
                     (int)bad);
        cr_assert(lo.kind == PROTO_CLOCK_NONE && hi.kind == PROTO_CLOCK_NONE);
    }
}

/* The ladder the tests draw from: each clock with its estimate worked
 * out by hand (seconds): base + 40 x increment (or delay); a period
 * clock's base once per period 40 moves begin; days, the days. */
static const struct {
    const char *text;
    uint64_t est_s;
} ladder[] = {
    {"1+0", 60},        {"2+1", 160},      {"3+0", 180},    {"3+2", 260},
    {"5+0", 300},       {"5+3", 420},      {"10+0", 600},   {"10+5", 800},
    {"15+10", 1300},    {"30+0", 1800},    {"30+20", 2600}, {"90+30", 6600},
    {"5d3", 420},       {"5d5", 500},      {"10d2", 680},   {"40/90", 5400},
    {"40/90+30", 6600}, {"20/60", 7200},   {"30/60", 7200}, {"1day", 86400},
    {"3days", 259200},  {"7days", 604800},
};
#define NLADDER (sizeof ladder / sizeof ladder[0])

Test(pool_clock, estimates_as_worked_out_by_hand)
{
    for (size_t i = 0; i < NLADDER; i++) {
        Proto_Clock c;
        cr_assert_eq(proto_clock_parse(ladder[i].text, 1, &c, NULL), 0);
        cr_assert_eq(proto_clock_estimate_ms(&c), ladder[i].est_s * 1000, "%s",
                     ladder[i].text);
    }
}

/* ---- pairing by hand ------------------------------------------------- */

/*
 * A: laska, chessball 3+2..10+5   260..800 s
 * B: chessball 5+0                300 s
 * C: laska 15+10..30+0            1300..1800 s
 * A and B share chessball and 300 lies in 260..800: a pair, in
 * chessball; the clock is the larger low end, B's 5+0 (300 > 260). C
 * shares laska with A only and 1300..1800 misses 260..800: C waits.
 */
Test(pool, three_players_pair_as_worked_out)
{
    Pool *p = pool_of(0, 0, 0);
    Pool_Pair pr;
    uint32_t counts[POOL_GAMES_MAX];
    Pool_Offer a = offer(1, 100, 'A', G(LASKA) | G(CHESSBALL), "3+2..10+5");
    Pool_Offer b = offer(2, 200, 'B', G(CHESSBALL), "5+0");
    Pool_Offer c = offer(3, 300, 'C', G(LASKA), "15+10..30+0");

    cr_assert_eq(pool_add(p, &c, &pr), 0);
    cr_assert_eq(pool_add(p, &a, &pr), 0);
    pool_counts(p, counts);
    cr_assert(counts[LASKA] == 2 && counts[CHESSBALL] == 1 &&
              counts[FOOTBALL] == 0);
    cr_assert_eq(pool_add(p, &b, &pr), 1);
    cr_assert_eq(pr.older, 1);
    cr_assert_eq(pr.newer, 2);
    cr_assert_eq(pr.game, CHESSBALL);
    cr_assert(clock_is(&pr.clock, "5+0"));
    pool_counts(p, counts);
    cr_assert(counts[LASKA] == 1 && counts[CHESSBALL] == 0);
    cr_assert_eq(pool_waiting(p), 1);
    /* C is still there: a D of laska 20+0..30+0 (1200..1800) takes it at
     * C's low end 15+10 (1300 > 1200). */
    Pool_Offer d = offer(4, 400, 'D', G(LASKA) | G(VOLLEYBALL), "20+0..30+0");
    cr_assert_eq(pool_add(p, &d, &pr), 1);
    cr_assert(pr.older == 3 && pr.newer == 4 && pr.game == LASKA);
    cr_assert(clock_is(&pr.clock, "15+10"));
    cr_assert_eq(pool_waiting(p), 0);
    pool_free(p);
}

/* X (180 s) and Y (600 s) miss each other; Z (180..600) meets both and
 * takes whichever came first. */
Test(pool, the_longest_waiting_is_chosen)
{
    for (int x_first = 0; x_first <= 1; x_first++) {
        Pool *p = pool_of(0, 0, 0);
        Pool_Pair pr;
        Pool_Offer x = offer(10, x_first ? 5 : 50, 'X', G(LASKA), "3+0");
        Pool_Offer y = offer(11, x_first ? 50 : 5, 'Y', G(LASKA), "10+0");
        Pool_Offer z = offer(12, 90, 'Z', G(LASKA), "3+0..10+0");
        cr_assert_eq(pool_add(p, x_first ? &x : &y, &pr), 0);
        cr_assert_eq(pool_add(p, x_first ? &y : &x, &pr), 0);
        cr_assert_eq(pool_add(p, &z, &pr), 1);
        cr_assert_eq(pr.older, x_first ? 10u : 11u);
        cr_assert_eq(pr.newer, 12u);
        /* with X: a tie of low ends (180), the older's; with Y, Y's 600 */
        cr_assert(clock_is(&pr.clock, x_first ? "3+0" : "10+0"));
        pool_free(p);
    }
}

/* The oldest over all the games the newcomer offers, played in the
 * lowest game both offer. */
Test(pool, the_longest_waiting_across_games)
{
    Pool *p = pool_of(0, 0, 0);
    Pool_Pair pr;
    Pool_Offer x = offer(1, 10, 'X', G(VOLLEYBALL) | G(FOOTBALL), "5+0");
    Pool_Offer y = offer(2, 20, 'Y', G(LASKA), "5+0");
    Pool_Offer z =
        offer(3, 30, 'Z', G(LASKA) | G(FOOTBALL) | G(VOLLEYBALL), "5+0");
    cr_assert_eq(pool_add(p, &x, &pr), 0);
    cr_assert_eq(pool_add(p, &y, &pr), 0);
    cr_assert_eq(pool_add(p, &z, &pr), 1);
    cr_assert(pr.older == 1 && pr.newer == 3 && pr.game == FOOTBALL);
    pool_free(p);
}

Test(pool, a_players_two_offers_never_pair)
{
    Pool *p = pool_of(0, 2, 0);
    Pool_Pair pr;
    Pool_Offer k1 = offer(1, 1, 'K', G(LASKA), "5+0");
    Pool_Offer k2 = offer(2, 2, 'K', G(LASKA), "5+0");
    cr_assert_eq(pool_add(p, &k1, &pr), 0);
    cr_assert_eq(pool_add(p, &k2, &pr), 0);
    cr_assert_eq(pool_waiting(p), 2);
    /* the same after a merge */
    size_t n = 9;
    Pool_Pair pairs[2];
    cr_assert_eq(pool_pair_all(p, pairs, 2, &n), 0);
    cr_assert_eq(n, 0);
    /* another key from K's very address is another player */
    Pool_Offer m = offer(3, 3, 'M', G(LASKA), "5+0");
    memset(m.addr, 'K', sizeof m.addr);
    cr_assert_eq(pool_add(p, &m, &pr), 1);
    cr_assert(pr.older == 1 && pr.newer == 3);
    pool_free(p);
}

/* K's own offers, of the very clock the others' is, are passed over
 * wherever the others' stands among them (the pool's order puts equal
 * ranges by arrival: K's older ones first). */
Test(pool, own_offers_hide_no_equal_one)
{
    for (uint8_t mine = 1; mine <= 8; mine++) {
        Pool *p = pool_of(0, 9, 0);
        Pool_Pair pr;
        for (uint8_t i = 0; i < mine; i++) {
            Pool_Offer k = offer(i + 1u, i, 'K', G(LASKA), "5+0");
            cr_assert_eq(pool_put(p, &k), 0);
        }
        Pool_Offer m = offer(100, 50, 'M', G(LASKA), "5+0");
        cr_assert_eq(pool_put(p, &m), 0);
        Pool_Offer k = offer(101, 60, 'K', G(LASKA), "3+0..5+0");
        cr_assert_eq(pool_add(p, &k, &pr), 1, "%d of K's", mine);
        cr_assert(pr.older == 100 && pr.newer == 101);
        pool_free(p);
    }
}

Test(pool, removed_offers_never_pair)
{
    Pool *p = pool_of(0, 0, 0);
    Pool_Pair pr;
    uint32_t counts[POOL_GAMES_MAX];
    Pool_Offer x = offer(1, 1, 'X', G(LASKA), "5+0");
    Pool_Offer w = offer(2, 2, 'W', G(CHESSBALL), "5+0");
    Pool_Offer y = offer(3, 3, 'Y', G(LASKA) | G(CHESSBALL), "5+0");
    cr_assert_eq(pool_add(p, &x, &pr), 0);
    cr_assert_eq(pool_add(p, &w, &pr), 0);
    cr_assert_eq(pool_remove(p, 1), 0);
    cr_assert_eq(pool_remove(p, 1), TB_E_ARG);
    cr_assert_eq(pool_remove(p, 77), TB_E_ARG);
    pool_counts(p, counts);
    cr_assert(counts[LASKA] == 0 && counts[CHESSBALL] == 1);
    /* Y meets the removed X's entry first in laska's queue: passed over */
    cr_assert_eq(pool_add(p, &y, &pr), 1);
    cr_assert(pr.older == 2 && pr.newer == 3 && pr.game == CHESSBALL);
    cr_assert_eq(pool_remove(p, 2), TB_E_ARG); /* paired: gone */
    /* X's id may come again */
    cr_assert_eq(pool_add(p, &x, &pr), 0);
    pool_free(p);
}

Test(pool, counts_per_game)
{
    Pool *p = pool_of(0, 0, 0);
    Pool_Pair pr;
    uint32_t counts[POOL_GAMES_MAX];
    /* one clock kind each, so none pairs */
    Pool_Offer a = offer(1, 1, 'A', G(LASKA) | G(CHESSBALL), "5+0");
    Pool_Offer b = offer(2, 2, 'B', G(LASKA) | G(VOLLEYBALL10), "5d3");
    Pool_Offer c = offer(3, 3, 'C', G(LASKA), "40/90");
    Pool_Offer d = offer(4, 4, 'D', 0x1f, "1day..3days");
    pool_counts(p, counts);
    for (int g = 0; g < POOL_GAMES_MAX; g++)
        cr_assert_eq(counts[g], 0);
    cr_assert_eq(pool_add(p, &a, &pr), 0);
    cr_assert_eq(pool_add(p, &b, &pr), 0);
    cr_assert_eq(pool_add(p, &c, &pr), 0);
    cr_assert_eq(pool_add(p, &d, &pr), 0);
    pool_counts(p, counts);
    cr_assert_eq(counts[LASKA], 4);
    cr_assert_eq(counts[CHESSBALL], 2);
    cr_assert_eq(counts[FOOTBALL], 1);
    cr_assert_eq(counts[VOLLEYBALL], 1);
    cr_assert_eq(counts[VOLLEYBALL10], 2);
    cr_assert_eq(counts[NGAMES], 0);
    cr_assert_eq(pool_waiting(p), 4);
    pool_free(p);
}

Test(pool, each_share_and_the_total_refuse_with_their_own_code)
{
    Pool *p = pool_of(4, 1, 2);
    Pool_Pair pr;
    /* kinds that never meet, so all wait */
    Pool_Offer a = offer(1, 1, 'A', G(LASKA), "5+0");
    Pool_Offer b = offer(2, 2, 'B', G(LASKA), "5d3");
    Pool_Offer c = offer(3, 3, 'C', G(LASKA), "40/90");
    Pool_Offer d = offer(4, 4, 'D', G(LASKA), "1day");
    Pool_Offer e = offer(5, 5, 'E', G(LASKA), "3days");
    Pool_Offer bad;
    cr_assert_eq(pool_add(p, &a, &pr), 0);
    Pool_Offer a2 = offer(9, 9, 'A', G(CHESSBALL), "1+0");
    cr_assert_eq(pool_add(p, &a2, &pr), TB_E_LIMIT);
    memset(b.addr, 'A', sizeof b.addr);
    memset(c.addr, 'A', sizeof c.addr);
    cr_assert_eq(pool_add(p, &b, &pr), 0);
    cr_assert_eq(pool_add(p, &c, &pr), TB_E_ADDRESS);
    memset(c.addr, 'C', sizeof c.addr);
    cr_assert_eq(pool_put(p, &c), 0);
    cr_assert_eq(pool_add(p, &d, &pr), 0);
    cr_assert_eq(pool_add(p, &e, &pr), TB_E_FULL);
    /* full even for an offer that would pair at once */
    Pool_Offer f = offer(6, 6, 'F', G(LASKA), "5+0");
    cr_assert_eq(pool_add(p, &f, &pr), TB_E_FULL);
    cr_assert_eq(pool_remove(p, 4), 0);
    cr_assert_eq(pool_add(p, &f, &pr), 1);
    cr_assert(pr.older == 1 && pr.newer == 6);
    /* A's share is free again: its next offer is taken */
    cr_assert_eq(pool_add(p, &a2, &pr), 0);
    /* an id waiting already */
    Pool_Offer dup = offer(2, 7, 'G', G(FOOTBALL), "5+0");
    cr_assert_eq(pool_add(p, &dup, &pr), TB_E_STATE);
    /* malformed offers */
    bad = offer(8, 8, 'H', 0, "5+0");
    cr_assert_eq(pool_add(p, &bad, &pr), TB_E_ARG);
    bad.games = G(NGAMES);
    cr_assert_eq(pool_add(p, &bad, &pr), TB_E_ARG);
    bad = offer(8, 8, 'H', G(LASKA), "5+0");
    bad.hi.kind = PROTO_CLOCK_DELAY;
    bad.hi.delay_ms = 1000;
    cr_assert_eq(pool_add(p, &bad, &pr), TB_E_ARG);
    bad = offer(8, 8, 'H', G(LASKA), "5+0..10+0");
    Proto_Clock t = bad.lo;
    bad.lo = bad.hi;
    bad.hi = t;
    cr_assert_eq(pool_put(p, &bad), TB_E_ARG);
    cr_assert_eq(pool_waiting(p), 3); /* B, C and A's second */
    pool_free(p);
}

Test(pool, pair_all_needs_room_for_every_pair)
{
    Pool *p = pool_of(0, 0, 0);
    Pool_Pair pairs[2];
    size_t n = 5;
    for (uint8_t i = 0; i < 6; i++) {
        Pool_Offer o = offer(i + 1u, i, (uint8_t)('a' + i), G(LASKA), "5+0");
        cr_assert_eq(pool_put(p, &o), 0);
    }
    cr_assert_eq(pool_pair_all(p, pairs, 2, &n), TB_E_SPACE);
    cr_assert_eq(n, 0);
    cr_assert_eq(pool_waiting(p), 6);
    Pool_Pair more[3];
    cr_assert_eq(pool_pair_all(p, more, 3, &n), 0);
    cr_assert_eq(n, 3);
    cr_assert(more[0].older == 1 && more[0].newer == 2);
    cr_assert(more[2].older == 5 && more[2].newer == 6);
    pool_free(p);
}

Test(pool, bad_creation_is_refused)
{
    Pool *p = (Pool *)1;
    cr_assert_eq(pool_new(0, NULL, &p), TB_E_ARG);
    cr_assert_null(p);
    cr_assert_eq(pool_new(POOL_GAMES_MAX + 1, NULL, &p), TB_E_ARG);
    cr_assert_eq(pool_new(POOL_GAMES_MAX, NULL, &p), 0);
    cr_assert_eq(pool_limits(p)->capacity, 10000);
    cr_assert_eq(pool_limits(p)->per_key, 1);
    cr_assert_eq(pool_limits(p)->per_address, 16);
    pool_free(p);
    pool_free(NULL);
}

/* ---- properties over seeded offers ----------------------------------- */

/* An offer drawn from the ladder, with the estimates of its ends as the
 * ladder gives them, for the reference. */
typedef struct Drawn {
    Pool_Offer o;
    uint64_t lo_s, hi_s;
    int kind;
    int paired;
} Drawn;

static void draw(uint64_t *s, Drawn *d, uint64_t id, unsigned players,
                 unsigned clocks)
{
    size_t i, j;
    memset(d, 0, sizeof *d);
    do { /* two ladder clocks of one kind */
        i = below(s, clocks);
        j = below(s, clocks);
        Proto_Clock a, b;
        cr_assert_eq(proto_clock_parse(ladder[i].text, 1, &a, NULL), 0);
        cr_assert_eq(proto_clock_parse(ladder[j].text, 1, &b, NULL), 0);
        d->o.lo = a;
        d->o.hi = b;
    } while (d->o.lo.kind != d->o.hi.kind);
    if (ladder[i].est_s > ladder[j].est_s) {
        size_t t = i;
        Proto_Clock c = d->o.lo;
        i = j;
        j = t;
        d->o.lo = d->o.hi;
        d->o.hi = c;
    }
    d->lo_s = ladder[i].est_s;
    d->hi_s = ladder[j].est_s;
    d->kind = (int)d->o.lo.kind;
    d->o.id = id;
    d->o.arrival_ms = below(s, 8); /* ties, broken by id */
    uint8_t who = (uint8_t)below(s, players);
    memset(d->o.key, who, sizeof d->o.key);
    memset(d->o.addr, (uint8_t)(who / 2), sizeof d->o.addr);
    do
        d->o.games = (uint16_t)(below(s, 1u << NGAMES));
    while (d->o.games == 0);
}

/* The rules as docs/pool.md states them, plainly. */
static int ref_compatible(const Drawn *a, const Drawn *b)
{
    return a->o.key[0] != b->o.key[0] && (a->o.games & b->o.games) != 0 &&
           a->kind == b->kind && a->lo_s <= b->hi_s && b->lo_s <= a->hi_s;
}

static int ref_earlier(const Drawn *a, const Drawn *b)
{
    return a->o.arrival_ms < b->o.arrival_ms ||
           (a->o.arrival_ms == b->o.arrival_ms && a->o.id < b->o.id);
}

/* d's n offers in (arrival, id) order, none paired yet (an insertion
 * sort: malloc'd, the caller frees). */
static Drawn **in_arrival_order(Drawn *d, size_t n)
{
    Drawn **order = malloc(n * sizeof *order);
    cr_assert_not_null(order);
    for (size_t i = 0; i < n; i++) {
        order[i] = &d[i];
        d[i].paired = 0;
    }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && ref_earlier(order[j], order[j - 1]); j--) {
            Drawn *t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    return order;
}

/* Brute force: every offer in (arrival, id) order against every earlier
 * one still waiting; the earliest compatible is its partner. Pairs into
 * out as (older, newer, game); returns their count. */
static size_t reference(Drawn *d, size_t n, Pool_Pair *out)
{
    size_t made = 0;
    Drawn **order = in_arrival_order(d, n);
    for (size_t i = 0; i < n; i++) {
        Drawn *best = NULL;
        for (size_t j = 0; j < i; j++)
            if (!order[j]->paired && ref_compatible(order[j], order[i])) {
                best = order[j]; /* the first is the earliest */
                break;
            }
        if (best == NULL)
            continue;
        best->paired = order[i]->paired = 1;
        unsigned g = 0;
        while (!((best->o.games & order[i]->o.games) >> g & 1u))
            g++;
        out[made].older = best->o.id;
        out[made].newer = order[i]->o.id;
        out[made].game = g;
        out[made].clock =
            best->lo_s >= order[i]->lo_s ? best->o.lo : order[i]->o.lo;
        made++;
    }
    free(order);
    return made;
}

static const Drawn *by_id(const Drawn *d, size_t n, uint64_t id)
{
    for (size_t i = 0; i < n; i++)
        if (d[i].o.id == id)
            return &d[i];
    cr_assert_fail("no offer %llu", (unsigned long long)id);
    return NULL;
}

static void same_pairs(const Pool_Pair *a, size_t na, const Pool_Pair *b,
                       size_t nb, const char *what, uint64_t seed)
{
    cr_assert_eq(na, nb, "%s, seed %llu: %zu pairs against %zu", what,
                 (unsigned long long)seed, na, nb);
    for (size_t i = 0; i < na; i++) {
        cr_assert(a[i].older == b[i].older && a[i].newer == b[i].newer &&
                      a[i].game == b[i].game &&
                      memcmp(&a[i].clock, &b[i].clock, sizeof a[i].clock) == 0,
                  "%s, seed %llu, pair %zu: %llu-%llu in %u against "
                  "%llu-%llu in %u",
                  what, (unsigned long long)seed, i,
                  (unsigned long long)a[i].older,
                  (unsigned long long)a[i].newer, a[i].game,
                  (unsigned long long)b[i].older,
                  (unsigned long long)b[i].newer, b[i].game);
    }
}

/* Every pair compatible by the plain rules, its game the lowest shared,
 * its clock in both ranges, each offer in one pair at most. */
static void pairs_sound(const Drawn *d, size_t n, const Pool_Pair *pr,
                        size_t np)
{
    uint8_t *used = calloc(n + 1, 1);
    cr_assert_not_null(used);
    for (size_t i = 0; i < np; i++) {
        const Drawn *a = by_id(d, n, pr[i].older),
                    *b = by_id(d, n, pr[i].newer);
        cr_assert(ref_compatible(a, b));
        cr_assert(ref_earlier(a, b));
        cr_assert((a->o.games & b->o.games) >> pr[i].game & 1u);
        cr_assert_eq((a->o.games & b->o.games) & ((1u << pr[i].game) - 1), 0);
        uint64_t c = proto_clock_estimate_ms(&pr[i].clock) / 1000;
        cr_assert((int)pr[i].clock.kind == a->kind);
        cr_assert(c >= a->lo_s && c <= a->hi_s && c >= b->lo_s && c <= b->hi_s);
        cr_assert(!used[pr[i].older] && !used[pr[i].newer]);
        used[pr[i].older] = used[pr[i].newer] = 1;
    }
    free(used);
}

/* Adds in (arrival, id) order, one by one: the pairs as they come. */
static size_t one_by_one(Pool *p, Drawn *d, size_t n, Pool_Pair *out)
{
    size_t made = 0;
    Drawn **order = in_arrival_order(d, n);
    for (size_t i = 0; i < n; i++) {
        int r = pool_add(p, &order[i]->o, &out[made]);
        cr_assert(r == 0 || r == 1, "pool_add: %d", r);
        made += (size_t)r;
    }
    free(order);
    return made;
}

static void counts_match(const Pool *p, const Drawn *d, size_t n,
                         const Pool_Pair *pr, size_t np)
{
    uint32_t counts[POOL_GAMES_MAX], want[POOL_GAMES_MAX] = {0};
    size_t left = 0;
    for (size_t i = 0; i < n; i++) {
        int gone = 0;
        for (size_t k = 0; k < np; k++)
            gone |= pr[k].older == d[i].o.id || pr[k].newer == d[i].o.id;
        if (gone)
            continue;
        left++;
        for (unsigned g = 0; g < NGAMES; g++)
            want[g] += d[i].o.games >> g & 1u;
    }
    pool_counts(p, counts);
    cr_assert_eq(pool_waiting(p), left);
    for (unsigned g = 0; g < POOL_GAMES_MAX; g++)
        cr_assert_eq(counts[g], want[g], "game %u", g);
}

/* Over many seeded draws: pool_pair_all, one-by-one pool_add and the
 * brute force make the same pairs, each sound; the counts are what is
 * left. Few players (same-key offers are common), few arrival times
 * (ties), the whole ladder or its Fischer part alone (more pairs). */
Test(pool_property, pair_all_equals_one_by_one_equals_brute_force)
{
    enum { ROUNDS = 400, MAXN = 48 };
    Drawn d[MAXN];
    Pool_Pair all[MAXN], ones[MAXN], ref[MAXN];
    for (uint64_t round = 0; round < ROUNDS; round++) {
        uint64_t seed = 0x9e3779b97f4a7c15ull ^ (round * 0x2545f4914f6cdd1dull);
        uint64_t s = seed;
        size_t n = 1 + below(&s, MAXN);
        unsigned players = 2 + below(&s, 12);
        unsigned clocks = below(&s, 2) ? 12 : NLADDER;
        for (size_t i = 0; i < n; i++)
            draw(&s, &d[i], i + 1, players, clocks);

        Pool *bulk = pool_of(MAXN, MAXN, MAXN);
        Pool *one = pool_of(MAXN, MAXN, MAXN);
        size_t nall = 0, nref, nones;
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(pool_put(bulk, &d[i].o), 0);
        cr_assert_eq(pool_pair_all(bulk, all, MAXN, &nall), 0);
        nones = one_by_one(one, d, n, ones);
        nref = reference(d, n, ref);

        same_pairs(all, nall, ref, nref, "pair_all / brute force", seed);
        same_pairs(ones, nones, ref, nref, "one by one / brute force", seed);
        pairs_sound(d, n, all, nall);
        counts_match(bulk, d, n, all, nall);
        counts_match(one, d, n, ones, nones);
        /* what is left pairs no more */
        size_t again = 9;
        cr_assert_eq(pool_pair_all(one, all, MAXN, &again), 0);
        cr_assert_eq(again, 0);
        pool_free(bulk);
        pool_free(one);
    }
}

/* Adds and removals interleaved, in arrival order, against the brute
 * force kept as a list of the waiting: removals leave no trace, the
 * queues' compaction (a capacity small against the turnover) loses
 * nothing. */
Test(pool_property, adds_and_removals_against_brute_force)
{
    enum { ROUNDS = 200, N = 400, CAP = 12 };
    static Drawn d[N];
    for (uint64_t round = 0; round < ROUNDS; round++) {
        uint64_t seed = 0x1234567ull + round * 7919u, s = seed;
        Pool *p = pool_of(CAP, CAP + 1, CAP + 1);
        size_t waiting[CAP], nw = 0;
        for (size_t i = 0; i < N; i++) {
            draw(&s, &d[i], i + 1, 6, below(&s, 2) ? 12 : NLADDER);
            d[i].o.arrival_ms = i;             /* in order */
            if (nw > 0 && below(&s, 3) == 0) { /* someone leaves */
                size_t k = below(&s, (unsigned)nw);
                cr_assert_eq(pool_remove(p, d[waiting[k]].o.id), 0);
                memmove(&waiting[k], &waiting[k + 1],
                        (nw - k - 1) * sizeof waiting[0]);
                nw--;
            }
            size_t best = N;
            for (size_t k = 0; k < nw && best == N; k++)
                if (ref_compatible(&d[waiting[k]], &d[i]))
                    best = k;
            Pool_Pair pr;
            int r = pool_add(p, &d[i].o, &pr);
            if (nw == CAP) { /* full, even for a pair */
                cr_assert_eq(r, TB_E_FULL);
            } else if (best < N) {
                const Drawn *o = &d[waiting[best]];
                cr_assert_eq(r, 1, "seed %llu, offer %zu",
                             (unsigned long long)seed, i);
                cr_assert(pr.older == o->o.id && pr.newer == d[i].o.id);
                memmove(&waiting[best], &waiting[best + 1],
                        (nw - best - 1) * sizeof waiting[0]);
                nw--;
            } else {
                cr_assert_eq(r, 0, "seed %llu, offer %zu: %d",
                             (unsigned long long)seed, i, r);
                waiting[nw++] = i;
            }
            cr_assert_eq(pool_waiting(p), nw);
        }
        pool_free(p);
    }
}

/* The clock of a pairing lies in both ranges, for every pair of ranges
 * of the ladder that meet (pool_pair_clock alone, both orders). */
Test(pool_property, the_pairing_clock_lies_in_both_ranges)
{
    size_t checked = 0;
    for (size_t a = 0; a < NLADDER; a++)
        for (size_t b = 0; b < NLADDER; b++)
            for (size_t c = 0; c < NLADDER; c++)
                for (size_t e = 0; e < NLADDER; e++) {
                    char r1[64], r2[64];
                    if (ladder[a].est_s > ladder[b].est_s ||
                        ladder[c].est_s > ladder[e].est_s)
                        continue;
                    snprintf(r1, sizeof r1, "%s..%s", ladder[a].text,
                             ladder[b].text);
                    snprintf(r2, sizeof r2, "%s..%s", ladder[c].text,
                             ladder[e].text);
                    Pool_Offer x, y;
                    memset(&x, 0, sizeof x);
                    memset(&y, 0, sizeof y);
                    if (proto_clock_range_parse(r1, 1, &x.lo, &x.hi, NULL) ||
                        proto_clock_range_parse(r2, 1, &y.lo, &y.hi, NULL))
                        continue; /* two kinds */
                    x.key[0] = 1;
                    x.games = y.games = 1;
                    x.id = 1;
                    y.id = 2;
                    if (!pool_compatible(&x, &y)) {
                        cr_assert(x.lo.kind != y.lo.kind ||
                                  ladder[b].est_s < ladder[c].est_s ||
                                  ladder[e].est_s < ladder[a].est_s);
                        continue;
                    }
                    for (int flip = 0; flip <= 1; flip++) {
                        Proto_Clock k = flip ? pool_pair_clock(&y, &x)
                                             : pool_pair_clock(&x, &y);
                        uint64_t t = proto_clock_estimate_ms(&k) / 1000;
                        cr_assert(k.kind == x.lo.kind);
                        cr_assert(t >= ladder[a].est_s && t <= ladder[b].est_s);
                        cr_assert(t >= ladder[c].est_s && t <= ladder[e].est_s);
                        checked++;
                    }
                }
    cr_assert_gt(checked, 1000);
}

/* Offers pair only with the same options (docs/pool.md's known gap: the
 * guest had played whatever options its host offered): A's laska with
 * options "x=1" waits beside B's laska with none; C's laska
 * with none pairs with B, the older of the two with the same options. */
Test(pool, offers_pair_only_with_the_same_options)
{
    Pool *p = pool_of(0, 0, 0);
    Pool_Pair pr;
    Pool_Offer a = offer(1, 1, 'A', G(LASKA), "5+0");
    Pool_Offer b = offer(2, 2, 'B', G(LASKA), "5+0");
    Pool_Offer c = offer(3, 3, 'C', G(LASKA), "5+0");
    snprintf(a.options, sizeof a.options, "x=1");
    cr_assert_eq(pool_add(p, &a, &pr), 0);
    cr_assert_eq(pool_add(p, &b, &pr), 0, "A's options are not B's");
    cr_assert_eq(pool_add(p, &c, &pr), 1);
    cr_assert(pr.older == 2 && pr.newer == 3, "%llu %llu",
              (unsigned long long)pr.older, (unsigned long long)pr.newer);
    cr_assert_eq(pool_waiting(p), 1);
    cr_assert_eq(pool_compatible(&a, &b), 0);
    snprintf(b.options, sizeof b.options, "x=1");
    cr_assert_eq(pool_compatible(&a, &b), 1);
    pool_free(p);
}

/* Rated offers (issue 38; docs/pool.md "Rated offers"). Classes by
 * estimate (base + 40 x increment): 1+0 is 60 s, bullet (under 180 s);
 * 3+2 is 180 + 80 = 260 s and 5+0 is 300 s, blitz (under 480 s); 10+0
 * is 600 s, rapid (under 1500 s). */
enum { BULLET = PROTO_CLASS_BULLET, BLITZ = PROTO_CLASS_BLITZ };

Test(pool_rated, each_range_must_hold_the_others_rating)
{
    Pool_Offer a = offer(1, 1, 'A', G(LASKA), "3+2");
    Pool_Offer b = offer(2, 2, 'B', G(LASKA), "3+2");
    a.want_lo = 1400;
    a.want_hi = 1600;
    a.rating[LASKA][BLITZ] = 1550;
    b.rating[LASKA][BLITZ] = 1700; /* outside A's range */
    cr_assert_eq(pool_compatible(&a, &b), 0);
    cr_assert_eq(pool_compatible(&b, &a), 0);
    b.rating[LASKA][BLITZ] = 1600; /* its top, included */
    cr_assert_eq(pool_compatible(&a, &b), 1);
    b.rating[LASKA][BLITZ] = 0; /* unrated: a newcomer's 1500 */
    cr_assert_eq(pool_compatible(&a, &b), 1);
    b.want_lo = 1560; /* B wants 1560..1800: A's 1550 is not in it */
    b.want_hi = 1800;
    cr_assert_eq(pool_compatible(&a, &b), 0);
    a.rating[LASKA][BLITZ] = 1560;
    cr_assert_eq(pool_compatible(&a, &b), 1);
    /* a rating in another game or class does not count */
    b.want_lo = 1400;
    b.want_hi = 1450; /* A: 1560 in blitz, nothing else */
    a.rating[CHESSBALL][BLITZ] = 1420;
    a.rating[LASKA][BULLET] = 1420;
    cr_assert_eq(pool_compatible(&a, &b), 0);
}

Test(pool_rated, the_class_is_the_pairings_clock)
{
    /* A takes 1+0..10+0; B offers 5+0 alone: the pairing's clock is the
     * larger low end, 5+0, blitz; with B at 1+0 it is 1+0, bullet. */
    Pool_Offer a = offer(1, 1, 'A', G(LASKA), "1+0..10+0");
    Pool_Offer b = offer(2, 2, 'B', G(LASKA), "5+0");
    a.rating[LASKA][BULLET] = 1900;
    a.rating[LASKA][BLITZ] = 1450;
    b.want_lo = 1400;
    b.want_hi = 1500;
    cr_assert_eq(pool_compatible(&a, &b), 1);
    b = offer(2, 2, 'B', G(LASKA), "1+0");
    b.want_lo = 1400;
    b.want_hi = 1500;
    cr_assert_eq(pool_compatible(&a, &b), 0);
    /* the game is the lowest both offer: chessball's rating when laska is
     * not B's */
    a.games = G(LASKA) | G(CHESSBALL);
    a.rating[CHESSBALL][BULLET] = 1480;
    b.games = G(CHESSBALL) | G(FOOTBALL);
    cr_assert_eq(pool_compatible(&a, &b), 1);
}

Test(pool_rated, a_rated_offer_waits_for_one_that_fits)
{
    Pool *p = pool_of(0, 0, 0);
    Pool_Pair pr;
    Pool_Offer a = offer(1, 1, 'A', G(LASKA), "5+0");
    Pool_Offer b = offer(2, 2, 'B', G(LASKA), "5+0");
    Pool_Offer c = offer(3, 3, 'C', G(LASKA), "5+0");
    a.want_lo = 1700;
    a.want_hi = 2000;
    b.rating[LASKA][BLITZ] = 1650;
    c.rating[LASKA][BLITZ] = 1800;
    cr_assert_eq(pool_add(p, &a, &pr), 0);
    cr_assert_eq(pool_add(p, &b, &pr), 0, "B (1650) is below A's 1700");
    cr_assert_eq(pool_add(p, &c, &pr), 1);
    cr_assert(pr.older == 1 && pr.newer == 3, "%llu %llu",
              (unsigned long long)pr.older, (unsigned long long)pr.newer);
    cr_assert_eq(pool_waiting(p), 1);
    /* a range upside down is refused */
    Pool_Offer d = offer(4, 4, 'D', G(LASKA), "5+0");
    d.want_lo = 1600;
    d.want_hi = 1500;
    cr_assert_eq(pool_add(p, &d, &pr), TB_E_ARG);
    pool_free(p);
}
