/*
 * elo.c: Elo difference, its interval and the SPRT log-likelihood ratio
 * of engine matches (engine.h gives the formulas).
 */
#include <math.h>

#include "engine.h"

static double elo_of(double score)
{
    if (score <= 0.0)
        return -INFINITY;
    if (score >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

int elo_estimate(long wins, long draws, long losses, Elo_Result *out)
{
    double n = (double)wins + (double)draws + (double)losses;
    if (n <= 0.0)
        return -1;
    double w = wins / n, d = draws / n, l = losses / n;
    double m = w + d / 2.0;
    double var = w * (1.0 - m) * (1.0 - m) + d * (0.5 - m) * (0.5 - m) +
                 l * m * m;
    double half = 1.959963984540054 * sqrt(var / n);
    out->score = m;
    out->elo = elo_of(m);
    out->lo = elo_of(m - half);
    out->hi = elo_of(m + half);
    return 0;
}

double elo_llr(long wins, long draws, long losses, double elo0,
               double elo1)
{
    double n = (double)wins + (double)draws + (double)losses;
    if (n <= 0.0)
        return 0.0;
    double w = wins / n, d = draws / n, l = losses / n;
    double m = w + d / 2.0;
    double var = w * (1.0 - m) * (1.0 - m) + d * (0.5 - m) * (0.5 - m) +
                 l * m * m;
    if (var <= 0.0)
        return 0.0;
    double s0 = 1.0 / (1.0 + pow(10.0, -elo0 / 400.0));
    double s1 = 1.0 / (1.0 + pow(10.0, -elo1 / 400.0));
    return n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var);
}

void elo_sprt_bounds(double alpha, double beta, double *lower,
                     double *upper)
{
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}
