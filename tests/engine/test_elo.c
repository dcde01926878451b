/*
 * test_elo.c: the match statistics against worked examples. Expected
 * figures come from a second implementation, not from elo.c: a python3
 * one-liner that lists each game's score (1, 1/2, 0), takes the mean m
 * and the population variance v of that list, and evaluates
 *   elo(x) = -400 log10(1/x - 1),  half = 1.959963984540054 sqrt(v / n),
 *   LLR = n (s1 - s0) (2m - s0 - s1) / (2v), sK = 1/(1 + 10^(-eloK/400)):
 *
 *   python3 -c "import math; s=[1]*60+[.5]*20+[0]*20; n=len(s);
 *     m=sum(s)/n; v=sum((x-m)**2 for x in s)/n; ..."
 *
 * First example by hand as well: 60 wins, 20 draws, 20 losses score
 * m = 0.7, elo = 400 log10(0.7 / 0.3) = 147.19; v = 0.6 (0.3)^2 +
 * 0.2 (0.2)^2 + 0.2 (0.7)^2 = 0.16, so half = 1.96 * 0.04 = 0.0784.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "engine.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6)

Test(elo, sixty_twenty_twenty)
{
    Elo_Result r;
    cr_assert_eq(elo_estimate(60, 20, 20, &r), 0);
    cr_assert(NEAR(r.score, 0.7));
    cr_assert(NEAR(r.elo, 147.190714), "elo %f", r.elo);
    cr_assert(NEAR(r.lo, 86.225015), "lo %f", r.lo);
    cr_assert(NEAR(r.hi, 218.251778), "hi %f", r.hi);
}

Test(elo, even_scores_are_symmetric_and_draws_narrow_the_interval)
{
    Elo_Result a, b;
    cr_assert_eq(elo_estimate(30, 40, 30, &a), 0);
    cr_assert(fabs(a.elo) < 1e-9);
    cr_assert(NEAR(a.lo, -53.157980) && NEAR(a.hi, 53.157980), "%f %f",
              a.lo, a.hi);
    cr_assert_eq(elo_estimate(10, 80, 10, &b), 0);
    cr_assert(NEAR(b.lo, -30.531864) && NEAR(b.hi, 30.531864), "%f %f",
              b.lo, b.hi);
}

Test(elo, a_losing_record)
{
    Elo_Result r;
    cr_assert_eq(elo_estimate(5, 3, 12, &r), 0);
    cr_assert(NEAR(r.elo, -126.968165), "%f", r.elo);
    cr_assert(NEAR(r.lo, -318.111747), "%f", r.lo);
    cr_assert(NEAR(r.hi, 8.273609), "%f", r.hi);
}

Test(elo, no_games_and_clean_sweeps)
{
    Elo_Result r;
    cr_assert_eq(elo_estimate(0, 0, 0, &r), -1);
    cr_assert_eq(elo_estimate(4, 0, 0, &r), 0);
    cr_assert(isinf(r.elo) && r.elo > 0);
    cr_assert_eq(elo_estimate(0, 0, 4, &r), 0);
    cr_assert(isinf(r.elo) && r.elo < 0);
}

Test(elo, llr_worked_examples)
{
    cr_assert(NEAR(elo_llr(60, 20, 20, 0, 10), 1.733713312));
    cr_assert(NEAR(elo_llr(60, 20, 20, 0, 5), 0.883207338));
    cr_assert(NEAR(elo_llr(60, 20, 20, -5, 5), 1.798770427));
    cr_assert(NEAR(elo_llr(30, 40, 30, 0, 10), -0.068997023));
    cr_assert(NEAR(elo_llr(10, 80, 10, 0, 10), -0.206991068));
    cr_assert(NEAR(elo_llr(5, 3, 12, -5, 5), -0.276924107));
    /* Symmetric hypotheses at an even score: no evidence either way. */
    cr_assert(fabs(elo_llr(30, 40, 30, -5, 5)) < 1e-12);
    cr_assert(elo_llr(0, 0, 0, 0, 10) == 0.0);
    cr_assert(elo_llr(0, 7, 0, 0, 10) == 0.0); /* no variance */
}

Test(elo, sprt_bounds)
{
    double lo = 0, hi = 0;
    elo_sprt_bounds(0.05, 0.05, &lo, &hi);
    /* ln(0.05 / 0.95) = -ln 19 = -2.944438979 */
    cr_assert(NEAR(lo, -2.944438979) && NEAR(hi, 2.944438979), "%f %f", lo,
              hi);
    elo_sprt_bounds(0.05, 0.10, &lo, &hi);
    /* ln(0.10 / 0.95) = -2.251291799, ln(0.90 / 0.05) = 2.890371758 */
    cr_assert(NEAR(lo, -2.251291799) && NEAR(hi, 2.890371758), "%f %f", lo,
              hi);
}
