/*
 * elo.h: the statistics of engine matches (tabula match): the Elo
 * difference of a score with its 95% interval, and the log-likelihood
 * ratio of a sequential probability ratio test (SPRT) between two Elo
 * hypotheses, both on the logistic Elo scale from the trinomial
 * win/draw/loss counts. Floating point is fine here: it only reports
 * games already played and never steers a search.
 */
#ifndef TABULA_ELO_H
#define TABULA_ELO_H

typedef struct Elo_Result {
    double score;   /* (wins + draws / 2) / games, 0..1 */
    double elo;     /* -400 log10(1 / score - 1); +-inf at 1 and 0 */
    double lo, hi;  /* 95% interval of elo, by the normal approximation
                       of the mean score (cutechess-cli's method) */
} Elo_Result;

/*
 * elo_estimate: the Elo difference of the side that won `wins`, drew
 * `draws` and lost `losses`. Errors: -1 when there are no games.
 */
int elo_estimate(long wins, long draws, long losses, Elo_Result *out);

/*
 * elo_llr: the log-likelihood ratio of H1 (elo1) against H0 (elo0) after
 * these games, by the normal approximation of the generalised SPRT used
 * by fishtest: LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v), m the mean
 * score, v its per-game variance, sK = 1 / (1 + 10^(-eloK / 400)).
 * 0 when there are no games or the variance is 0 (every game the same
 * result), so such a run goes on (cutechess-cli's SPRT waits longer,
 * until it has seen a win, a draw and a loss).
 */
double elo_llr(long wins, long draws, long losses, double elo0,
               double elo1);

/*
 * elo_sprt_bounds: the stopping bounds for error rates alpha (false H1)
 * and beta (false H0): *lower = ln(beta / (1 - alpha)), *upper =
 * ln((1 - beta) / alpha); LLR <= lower accepts H0, >= upper accepts H1.
 */
void elo_sprt_bounds(double alpha, double beta, double *lower,
                     double *upper);

#endif /* TABULA_ELO_H */
