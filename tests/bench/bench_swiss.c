/*
 * bench_swiss.c: Swiss pairing by the Dutch system (club/swiss.h, issue
 * 38; never run as a test, the figures go to docs/benchmarks.md).
 * Target: a 9-round Swiss of 1,000 players paired in 1 s a round or less.
 *   bench_swiss [PLAYERS [ROUNDS [SEED]]]   [1000 [9 [1]]]
 * Players rated 2700 down by 1 point a rank; each round is paired by
 * club_swiss_pair, then its games get results drawn from the seed (the
 * higher rated more likely to win, a fifth of the games drawn) and, one
 * game in fifty, a forfeit. Per round, in processor time of the process
 * (CLOCK_PROCESS_CPUTIME_ID):
 *   pair       club_swiss_pair of the round
 *   standings  the anchor: club_standings of the same tournament (a sort
 *              and the tie-breaks over every player and round)
 * Every pairing is checked: each active player on one board or the bye,
 * nobody meeting a played opponent twice.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "swiss.h"
#include "tourney.h"

static int met_before(const Club_Tourney *t, int r, int a, int b)
{
    for (int k = 0; k < r - 1; k++) {
        const Club_Game *g = &t->players[a - 1].games[k];
        if (g->opponent == b && g->result != CLUB_RES_FORFEIT_WIN &&
            g->result != CLUB_RES_FORFEIT_LOSS)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int rounds = argc > 2 ? atoi(argv[2]) : 9;
    uint64_t rng = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    if (n < 2 || n > CLUB_TOURNEY_MAX_PLAYERS || rounds < 1 ||
        rounds > CLUB_TOURNEY_MAX_ROUNDS) {
        fprintf(stderr, "usage: bench_swiss [PLAYERS [ROUNDS [SEED]]]\n");
        return 2;
    }
    Club_Tourney *t = club_tourney_new();
    Club_Swiss_Pairing *p = malloc(sizeof(*p));
    Club_Standing *st = malloc(sizeof(Club_Standing) * (size_t)n);
    if (t == NULL || p == NULL || st == NULL)
        return 1;
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof(name), "P%d", i + 1);
        club_tourney_add_player(t, name, 2700 - i);
    }
    t->nrounds = rounds;
    printf("| round | standings ms | **pair ms** | boards | bye |\n");
    printf("|---|---|---|---|---|\n");
    double worst = 0;
    for (int r = 1; r <= rounds; r++) {
        uint64_t t0 = cpu_ns();
        int rc = club_swiss_pair(t, r, NULL, CLUB_COLOUR_WHITE, p);
        uint64_t t1 = cpu_ns();
        if (rc != 0) {
            fprintf(stderr, "round %d: club_swiss_pair %d\n", r, rc);
            return 1;
        }
        /* check: everyone once, no repeat */
        unsigned char *seen = calloc((size_t)n + 1, 1);
        if (seen == NULL)
            return 1;
        for (int b = 0; b < p->nboards; b++) {
            int w = p->boards[b].white, k = p->boards[b].black;
            if (seen[w]++ || seen[k]++ || met_before(t, r, w, k)) {
                fprintf(stderr, "round %d: bad board %d-%d\n", r, w, k);
                return 1;
            }
        }
        if (p->bye != 0 && seen[p->bye]++) {
            fprintf(stderr, "round %d: bad bye\n", r);
            return 1;
        }
        for (int i = 1; i <= n; i++)
            if (!seen[i]) {
                fprintf(stderr, "round %d: %d not paired\n", r, i);
                return 1;
            }
        free(seen);
        /* results */
        for (int b = 0; b < p->nboards; b++) {
            int w = p->boards[b].white, k = p->boards[b].black;
            int edge = 400 + (t->players[w - 1].rating -
                              t->players[k - 1].rating) / 2;
            int x = (int)(splitmix(&rng) % 1000);
            Club_Result rw, rb;
            if (splitmix(&rng) % 50 == 0)
                rw = CLUB_RES_FORFEIT_WIN, rb = CLUB_RES_FORFEIT_LOSS;
            else if (x < edge)
                rw = CLUB_RES_WIN, rb = CLUB_RES_LOSS;
            else if (x < edge + 200)
                rw = rb = CLUB_RES_DRAW;
            else
                rw = CLUB_RES_LOSS, rb = CLUB_RES_WIN;
            t->players[w - 1].games[r - 1] =
                (Club_Game){(uint16_t)k, CLUB_COLOUR_WHITE, (uint8_t)rw};
            t->players[k - 1].games[r - 1] =
                (Club_Game){(uint16_t)w, CLUB_COLOUR_BLACK, (uint8_t)rb};
        }
        if (p->bye != 0)
            t->players[p->bye - 1].games[r - 1] =
                (Club_Game){0, CLUB_COLOUR_NONE, CLUB_RES_BYE_PAIRING};
        uint64_t t2 = cpu_ns();
        club_standings(t, r, NULL, NULL, 0, st);
        uint64_t t3 = cpu_ns();
        double pair_ms = (double)(t1 - t0) / 1e6;
        if (pair_ms > worst)
            worst = pair_ms;
        printf("| %d | %.1f | **%.1f** | %d | %d |\n", r,
               (double)(t3 - t2) / 1e6, pair_ms, p->nboards, p->bye);
    }
    printf("worst round: %.1f ms (%d players, %d rounds)\n", worst, n,
           rounds);
    free(st);
    free(p);
    club_tourney_free(t);
    return 0;
}
