/*
 * test_rating.c: the ratings' maths (club/rating.c) against values
 * derived without it: Glickman's worked example ("Example of the Glicko-2
 * system", 2013: 1500/200/0.06 against 1400/30, 1550/100, 1700/300 with
 * results 1, 0, 0 gives 1464.06, 151.52, 0.05999, from intermediates
 * rounded to four places; unrounded 1464.0507, 151.5165, 0.0599960 by bc),
 * single games and idle
 * periods worked with bc -l at 40 digits from the paper's formulas
 * (the script is in docs/ratings.md), and the fixed-point functions
 * against tables of constants. Then the list of players: order, one
 * match counted once, conflicts, self-play.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "club.h"

static Club_Fix fx(int64_t num, int64_t den)
{
    return club_fix_ratio(num, den);
}

static void expect(Club_Fix x, int decimals, const char *want)
{
    char got[40];
    cr_assert_eq(club_fix_format(x, decimals, got, sizeof got), 0);
    cr_assert_str_eq(got, want);
}

Test(rating, glickman_worked_example)
{
    Club_Glicko p = {1500 * CLUB_FIX_ONE, 200 * CLUB_FIX_ONE, fx(6, 100)}, out;
    Club_Rated_Result games[3] = {
        {1400 * CLUB_FIX_ONE, 30 * CLUB_FIX_ONE, CLUB_FIX_ONE},
        {1550 * CLUB_FIX_ONE, 100 * CLUB_FIX_ONE, 0},
        {1700 * CLUB_FIX_ONE, 300 * CLUB_FIX_ONE, 0},
    };
    cr_assert_eq(club_glicko_update(&p, games, 3, fx(1, 2), &out), 0);
    /* The paper's figures come from intermediates rounded to four
     * places (mu' = -0.2069 gives 1464.06): within that rounding. */
    int64_t r100 = club_fix_scaled(out.rating, 2);
    int64_t rd100 = club_fix_scaled(out.rd, 2);
    int64_t vol1e5 = club_fix_scaled(out.vol, 5);
    cr_assert(r100 >= 146405 && r100 <= 146407, "r' %lld", (long long)r100);
    cr_assert(rd100 >= 15151 && rd100 <= 15153, "RD' %lld", (long long)rd100);
    cr_assert(vol1e5 >= 5999 && vol1e5 <= 6000, "vol %lld", (long long)vol1e5);
    /* Unrounded (bc -l, 40 digits, the paper's formulas): 1464.0506705,
     * 151.5165241, 0.0599959843. */
    expect(out.rating, 4, "1464.0507");
    expect(out.rd, 4, "151.5165");
    expect(out.vol, 7, "0.0599960");
}

/* bc -l: newcomers, one game, tau 0.5: the winner 1662.3108939,
 * 290.3189637, 0.0599996754; the loser 1337.6891061, the same RD and
 * volatility. */
Test(rating, newcomers_one_game)
{
    Club_Glicko a, b, na, nb;
    club_glicko_start(&a);
    club_glicko_start(&b);
    Club_Rated_Result ra = {b.rating, b.rd, CLUB_FIX_ONE};
    Club_Rated_Result rb = {a.rating, a.rd, 0};
    cr_assert_eq(club_glicko_update(&a, &ra, 1, fx(1, 2), &na), 0);
    cr_assert_eq(club_glicko_update(&b, &rb, 1, fx(1, 2), &nb), 0);
    expect(na.rating, 3, "1662.311");
    expect(na.rd, 3, "290.319");
    expect(na.vol, 7, "0.0599997");
    expect(nb.rating, 3, "1337.689");
    expect(nb.rd, 3, "290.319");
    expect(nb.vol, 7, "0.0599997");
}

/* bc -l: 1700/80/0.06 loses to 1400/150: 1672.7369388, 79.6769213,
 * 0.0600056083 (an upset raises the volatility). */
Test(rating, upset_raises_volatility)
{
    Club_Glicko p = {1700 * CLUB_FIX_ONE, 80 * CLUB_FIX_ONE, fx(6, 100)}, out;
    Club_Rated_Result g = {1400 * CLUB_FIX_ONE, 150 * CLUB_FIX_ONE, 0};
    cr_assert_eq(club_glicko_update(&p, &g, 1, fx(1, 2), &out), 0);
    expect(out.rating, 3, "1672.737");
    expect(out.rd, 3, "79.677");
    expect(out.vol, 6, "0.060006");
}

/* Step 5's other bracket (Delta^2 > phi^2 + v): an upset 800 points
 * up. bc -l: 1500/350 beats 2300/50: 2162.5529372, 343.1777642,
 * 0.0600117712; 1500/60 beats 2300/50: 1520.8383410, 60.8611871,
 * 0.0600127324. */
Test(rating, big_upset_takes_the_log_bracket)
{
    Club_Glicko p = {1500 * CLUB_FIX_ONE, 350 * CLUB_FIX_ONE, fx(6, 100)}, out;
    Club_Rated_Result g = {2300 * CLUB_FIX_ONE, 50 * CLUB_FIX_ONE, CLUB_FIX_ONE};
    cr_assert_eq(club_glicko_update(&p, &g, 1, fx(1, 2), &out), 0);
    expect(out.rating, 3, "2162.553");
    expect(out.rd, 3, "343.178");
    expect(out.vol, 7, "0.0600118");
    p.rd = 60 * CLUB_FIX_ONE;
    cr_assert_eq(club_glicko_update(&p, &g, 1, fx(1, 2), &out), 0);
    expect(out.rating, 3, "1520.838");
    expect(out.rd, 3, "60.861");
    expect(out.vol, 7, "0.0600127");
}

/* Far outside play: 100 wins over 4000/30 by a 0/350 player of
 * volatility 1, and 100 losses; tau at its ends. Everything stays in range (and the sanitizer
 * build sees no overflow). */
Test(rating, extremes_stay_in_range)
{
    static Club_Rated_Result g[CLUB_PERIOD_MAX];
    Club_Glicko p = {0, 350 * CLUB_FIX_ONE, CLUB_FIX_ONE}, out;
    for (int score = 0; score <= 1; score++) {
        for (int i = 0; i < CLUB_PERIOD_MAX; i++)
            g[i] = (Club_Rated_Result){4000 * CLUB_FIX_ONE, 30 * CLUB_FIX_ONE,
                                 score * CLUB_FIX_ONE};
        for (int t = 0; t < 2; t++) {
            Club_Fix tau = t ? 10 * CLUB_FIX_ONE : CLUB_FIX_ONE / 100;
            cr_assert_eq(club_glicko_update(&p, g, CLUB_PERIOD_MAX, tau, &out),
                         0);
            /* (the paper's step 7 gives a win here about 87,000: it
             * bounds nothing; the point is no saturation) */
            cr_assert(out.rating > -1000000 * CLUB_FIX_ONE &&
                      out.rating < 1000000 * CLUB_FIX_ONE);
            cr_assert(out.rd > 0 && out.rd <= CLUB_RD_MAX);
            cr_assert(out.vol > 0 && out.vol < 10 * CLUB_FIX_ONE);
        }
    }
    cr_assert_eq(club_glicko_update(&p, g, CLUB_PERIOD_MAX + 1, fx(1, 2), &out),
                 TB_E_ARG);
    cr_assert_eq(club_glicko_update(&p, g, 1, CLUB_FIX_ONE / 100 - 1, &out),
                 TB_E_ARG);
}

/* A draw between equals: E is exactly 1/2, so the rating stays exactly
 * 1500 and only RD and volatility move. */
Test(rating, draw_between_equals_keeps_rating)
{
    Club_Glicko p, out;
    club_glicko_start(&p);
    Club_Rated_Result g = {p.rating, p.rd, CLUB_FIX_ONE / 2};
    cr_assert_eq(club_glicko_update(&p, &g, 1, fx(1, 2), &out), 0);
    cr_assert_eq(out.rating, 1500 * CLUB_FIX_ONE);
    cr_assert_lt(out.rd, p.rd);
}

/* Step 6 alone: RD' = 173.7178 sqrt((RD / 173.7178)^2 + sigma^2). bc -l:
 * 200, 0.06 -> 200.2714167; 50, 0.09 -> 52.3874105; 350, 0.06 ->
 * 350.1551661, held at the newcomer's 350. */
Test(rating, idle_period_grows_rd_only)
{
    Club_Glicko p = {1612 * CLUB_FIX_ONE, 200 * CLUB_FIX_ONE, fx(6, 100)}, out;
    cr_assert_eq(club_glicko_update(&p, NULL, 0, fx(1, 2), &out), 0);
    cr_assert_eq(out.rating, p.rating);
    cr_assert_eq(out.vol, p.vol);
    expect(out.rd, 4, "200.2714");
    p.rd = 50 * CLUB_FIX_ONE;
    p.vol = fx(9, 100);
    cr_assert_eq(club_glicko_update(&p, NULL, 0, fx(1, 2), &out), 0);
    expect(out.rd, 4, "52.3874");
    club_glicko_start(&p);
    cr_assert_eq(club_glicko_update(&p, NULL, 0, fx(1, 2), &out), 0);
    cr_assert_eq(out.rd, CLUB_RD_MAX);
}

Test(rating, bad_arguments)
{
    Club_Glicko p, out;
    club_glicko_start(&p);
    Club_Rated_Result g = {p.rating, p.rd, CLUB_FIX_ONE + 1};
    cr_assert_eq(club_glicko_update(&p, &g, 1, fx(1, 2), &out), TB_E_ARG);
    g.score = CLUB_FIX_ONE;
    g.rd = 0;
    cr_assert_eq(club_glicko_update(&p, &g, 1, fx(1, 2), &out), TB_E_ARG);
    g.rd = p.rd;
    cr_assert_eq(club_glicko_update(&p, &g, 1, 0, &out), TB_E_ARG);
    cr_assert_eq(club_glicko_update(&p, NULL, 1, fx(1, 2), &out), TB_E_ARG);
    p.vol = 0;
    cr_assert_eq(club_glicko_update(&p, &g, 1, fx(1, 2), &out), TB_E_ARG);
}

/* Constants from tables: e = 2.718281828459, 1/e = 0.367879441171,
 * e^10 = 22026.465794807, e^-20 = 2.061153622e-9, ln 2 =
 * 0.693147180560, ln 10 = 2.302585092994, ln 0.06^2 = -5.626821433520
 * (2 ln 0.06), sqrt 2 = 1.414213562373, sqrt 122500 = 350. */
Test(rating, fixed_point_functions)
{
    expect(club_fix_exp(CLUB_FIX_ONE), 8, "2.71828183");
    expect(club_fix_exp(-CLUB_FIX_ONE), 8, "0.36787944");
    expect(club_fix_exp(10 * CLUB_FIX_ONE), 4, "22026.4658");
    expect(club_fix_exp(0), 9, "1.000000000");
    cr_assert_lt(club_fix_exp(-20 * CLUB_FIX_ONE), 10); /* 8.85 steps */
    cr_assert_gt(club_fix_exp(-20 * CLUB_FIX_ONE), 7);
    cr_assert_eq(club_fix_exp(-30 * CLUB_FIX_ONE), 0);
    cr_assert_eq(club_fix_exp(30 * CLUB_FIX_ONE), CLUB_FIX_MAX);
    expect(club_fix_ln(2 * CLUB_FIX_ONE), 8, "0.69314718");
    expect(club_fix_ln(10 * CLUB_FIX_ONE), 8, "2.30258509");
    /* (0.0036 itself is 3e-8 off in Q32.32: 6 places) */
    expect(club_fix_ln(fx(36, 10000)), 6, "-5.626821");
    expect(club_fix_ln(CLUB_FIX_ONE), 9, "0.000000000");
    cr_assert_eq(club_fix_ln(0), CLUB_FIX_MIN);
    expect(club_fix_sqrt(2 * CLUB_FIX_ONE), 8, "1.41421356");
    cr_assert_eq(club_fix_sqrt(122500 * CLUB_FIX_ONE), 350 * CLUB_FIX_ONE);
    cr_assert_eq(club_fix_sqrt(-1), 0);
    /* rounding: halves away from zero */
    cr_assert_eq(club_fix_mul(3, CLUB_FIX_ONE / 2), 2); /* 1.5 steps */
    cr_assert_eq(club_fix_mul(-3, CLUB_FIX_ONE / 2), -2);
    cr_assert_eq(club_fix_div(CLUB_FIX_ONE, 0), CLUB_FIX_MAX);
    expect(fx(-1, 2), 1, "-0.5");
    expect(151 * CLUB_FIX_ONE + fx(49, 100), 0, "151");
    expect(fx(2, 3), 3, "0.667");
    char small[4];
    cr_assert_eq(club_fix_format(1500 * CLUB_FIX_ONE, 2, small, sizeof small),
                 TB_E_SPACE);
}

/* ---- the list ------------------------------------------------------- */

static Club_Rated_Game game(uint8_t w, uint8_t b, uint8_t score, uint64_t started,
                      uint8_t id, uint32_t source)
{
    Club_Rated_Game g;
    memset(&g, 0, sizeof g);
    strcpy(g.game, "laska");
    g.klass = CLUB_CLASS_BLITZ;
    memset(g.white, w, sizeof g.white);
    memset(g.black, b, sizeof g.black);
    g.score = score;
    g.started = started;
    memset(g.id, id, sizeof g.id);
    g.source = source;
    return g;
}

static uint32_t conflict_a, conflict_b;
static void on_conflict(void *ctx, uint32_t a, uint32_t b)
{
    (void)ctx;
    conflict_a = a;
    conflict_b = b;
}

Test(rating, list_rates_each_match_once_in_order)
{
    Club_Ratings *r;
    cr_assert_eq(club_ratings_new(&r), 0);
    /* added out of order: the later game (started 200) must be rated
     * after the earlier (started 100) */
    Club_Rated_Game later = game(2, 1, 2, 200, 9, 0);
    Club_Rated_Game first = game(1, 2, 2, 100, 5, 1);
    Club_Rated_Game copy = game(1, 2, 2, 100, 5, 2); /* the guest's log of it */
    Club_Rated_Game self = game(3, 3, 2, 50, 7, 3);
    cr_assert_eq(club_ratings_add(r, &later), 0);
    cr_assert_eq(club_ratings_add(r, &first), 0);
    cr_assert_eq(club_ratings_add(r, &copy), 0);
    cr_assert_eq(club_ratings_add(r, &self), 0);
    cr_assert_eq(club_ratings_run(r, fx(1, 2), on_conflict, NULL), 0);
    cr_assert_eq(club_ratings_run(r, fx(1, 2), NULL, NULL), TB_E_STATE);
    cr_assert_eq(club_ratings_add(r, &first), TB_E_STATE);
    cr_assert_eq(club_ratings_rated(r), 2);
    cr_assert_eq(club_ratings_conflicts(r), 0);
    cr_assert_eq(club_ratings_count(r), 2);
    /* by hand: game 1 as newcomers_one_game (key 1 wins), then key 2
     * (1337.69 / 290.32) beats key 1 (1662.31 / 290.32) */
    Club_Glicko k1, k2, n1, n2;
    club_glicko_start(&k1);
    club_glicko_start(&k2);
    Club_Rated_Result a = {k2.rating, k2.rd, CLUB_FIX_ONE}, b = {k1.rating, k1.rd, 0};
    club_glicko_update(&k1, &a, 1, fx(1, 2), &n1);
    club_glicko_update(&k2, &b, 1, fx(1, 2), &n2);
    Club_Rated_Result c = {n2.rating, n2.rd, 0}, d = {n1.rating, n1.rd, CLUB_FIX_ONE};
    club_glicko_update(&n1, &c, 1, fx(1, 2), &k1);
    club_glicko_update(&n2, &d, 1, fx(1, 2), &k2);
    const Club_Rated_Player *p0 = club_ratings_at(r, 0), *p1 = club_ratings_at(r, 1);
    cr_assert_not_null(p1);
    cr_assert_null(club_ratings_at(r, 2));
    /* highest first */
    cr_assert_geq(p0->g.rating, p1->g.rating);
    const Club_Rated_Player *one = p0->key[0] == 1 ? p0 : p1;
    const Club_Rated_Player *two = p0->key[0] == 1 ? p1 : p0;
    cr_assert_eq(one->games, 2);
    cr_assert_eq(two->games, 2);
    cr_assert_eq(one->g.rating, k1.rating);
    cr_assert_eq(one->g.rd, k1.rd);
    cr_assert_eq(two->g.rating, k2.rating);
    cr_assert_eq(two->g.vol, k2.vol);
    cr_assert_eq(strcmp(one->game, "laska"), 0);
    club_ratings_free(r);
}

Test(rating, list_conflicting_copies_are_not_rated)
{
    Club_Ratings *r;
    cr_assert_eq(club_ratings_new(&r), 0);
    Club_Rated_Game a = game(1, 2, 2, 100, 5, 4);
    Club_Rated_Game b = game(1, 2, 0, 100, 5, 9); /* the same start, another end */
    Club_Rated_Game c = game(1, 2, 1, 300, 6, 11);
    Club_Rated_Game bad = game(1, 2, 3, 300, 6, 12);
    cr_assert_eq(club_ratings_add(r, &a), 0);
    cr_assert_eq(club_ratings_add(r, &b), 0);
    cr_assert_eq(club_ratings_add(r, &c), 0);
    cr_assert_eq(club_ratings_add(r, &bad), TB_E_ARG);
    conflict_a = conflict_b = 0;
    cr_assert_eq(club_ratings_run(r, fx(1, 2), on_conflict, NULL), 0);
    cr_assert_eq(conflict_a, 4);
    cr_assert_eq(conflict_b, 9);
    cr_assert_eq(club_ratings_conflicts(r), 1);
    cr_assert_eq(club_ratings_rated(r), 1);
    /* the one rated game, a draw between newcomers: both 1500 */
    cr_assert_eq(club_ratings_at(r, 0)->g.rating, 1500 * CLUB_FIX_ONE);
    cr_assert_eq(club_ratings_at(r, 0)->key[0], 1); /* equal: by key */
    club_ratings_free(r);
}

Test(rating, list_keeps_games_and_classes_apart)
{
    Club_Ratings *r;
    cr_assert_eq(club_ratings_new(&r), 0);
    Club_Rated_Game a = game(1, 2, 2, 100, 5, 0);
    Club_Rated_Game b = game(1, 2, 2, 100, 6, 1);
    Club_Rated_Game c = game(1, 2, 2, 100, 7, 2);
    b.klass = CLUB_CLASS_RAPID;
    strcpy(c.game, "chessball");
    cr_assert_eq(club_ratings_add(r, &a), 0);
    cr_assert_eq(club_ratings_add(r, &b), 0);
    cr_assert_eq(club_ratings_add(r, &c), 0);
    cr_assert_eq(club_ratings_run(r, fx(1, 2), NULL, NULL), 0);
    cr_assert_eq(club_ratings_count(r), 6);
    /* chessball first, then laska blitz, then laska rapid; each a single
     * game between newcomers: the winner (key 1) first */
    cr_assert_str_eq(club_ratings_at(r, 0)->game, "chessball");
    cr_assert_eq(club_ratings_at(r, 0)->key[0], 1);
    cr_assert_eq(club_ratings_at(r, 2)->klass, CLUB_CLASS_BLITZ);
    cr_assert_eq(club_ratings_at(r, 4)->klass, CLUB_CLASS_RAPID);
    for (size_t i = 0; i < 6; i++)
        cr_assert_eq(club_ratings_at(r, i)->games, 1);
    expect(club_ratings_at(r, 5)->g.rating, 3, "1337.689");
    cr_assert_str_eq(club_class_name(CLUB_CLASS_CORRESPONDENCE),
                     "correspondence");
    cr_assert_str_eq(club_class_name(99), "?");
    club_ratings_free(r);
}
