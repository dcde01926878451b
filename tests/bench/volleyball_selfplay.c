/*
 * volleyball_selfplay.c: seeded random self-play of Chess volleyball
 * matches (uniformly random legal action at every decision point) to show
 * that every match terminates and to measure match lengths, points per
 * set, serve faults, forfeits, removals and chess-stage outcomes. Prints a
 * Markdown report for docs/benchmarks.md; exits 1 if a match exceeds the
 * action cap.
 *
 * Usage: volleyball_selfplay [GAME] [MATCHES] [SEED] [OPTIONS]
 *        (defaults: volleyball 1000 1 "")
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define ACTION_CAP 100000

static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The value of " key=" in a position string, into out. */
static void field(const char *text, const char *key, char *out, size_t cap)
{
    char pat[32];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(text, pat);
    out[0] = '\0';
    if (p == NULL)
        return;
    p += strlen(pat);
    size_t n = strcspn(p, " ");
    if (n >= cap)
        n = cap - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int pct(const int *v, int n, int p)
{
    return v[(size_t)((long)(n - 1) * p / 100)];
}

int main(int argc, char **argv)
{
    const char *gname = argc > 1 ? argv[1] : "volleyball";
    int matches = argc > 2 ? atoi(argv[2]) : 1000;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    const char *options = argc > 4 ? argv[4] : "";
    const Core_Game *g = core_game_find(gname);
    if (g == NULL || matches < 1) {
        fprintf(stderr, "usage: volleyball_selfplay [GAME] [MATCHES] [SEED] "
                        "[OPTIONS]\n");
        return 2;
    }
    size_t cap = core_game_max_moves(g);
    Core_Move *buf = malloc(cap * sizeof *buf);
    int *actions = malloc((size_t)matches * sizeof *actions);
    int *minutes = malloc((size_t)matches * sizeof *minutes);
    int *set_points = malloc((size_t)matches * 3 * sizeof *set_points);
    if (!buf || !actions || !minutes || !set_points)
        return 1;
    long points = 0, faults = 0, uncredited = 0, removals = 0, penalties = 0;
    long serves = 0, two_nil = 0, sets_n = 0, outcome_n[8] = {0};
    long white_wins = 0, chess_moves = 0;
    uint64_t rng = seed;

    for (int m = 0; m < matches; m++) {
        Core_Position *pos = NULL;
        if (core_position_new(&pos, g, options) != 0)
            return 1;
        int n_act = 0;
        for (;;) {
            size_t n = 0;
            if (core_moves(pos, buf, cap, &n) != 0)
                return 1;
            if (n == 0)
                break;
            Core_Move *mv = &buf[next_random(&rng) % n];
            if (mv->b[0] == 0) {
                serves++;
                faults += mv->b[4];
            }
            removals += mv->b[0] == 3;
            penalties += mv->b[0] == 2;
            chess_moves += mv->b[0] == 6;
            core_make(pos, mv);
            if (++n_act > ACTION_CAP) {
                fprintf(stderr, "match %d: no end after %d actions\n", m,
                        n_act);
                return 1;
            }
        }
        char text[CORE_POSITION_TEXT_MAX], v[CORE_POSITION_TEXT_MAX];
        core_position_format(pos, text, sizeof text);
        field(text, "clock", v, sizeof v);
        minutes[m] = atoi(v);
        actions[m] = n_act;
        field(text, "history", v, sizeof v);
        int k = 0;
        for (char *p = v; *p;) { /* w3:2,b4:5,... */
            int a = 0, b = 0;
            if (sscanf(p + 1, "%d:%d", &a, &b) == 2)
                set_points[sets_n++] = a + b, points += a + b, k++;
            char *c = strchr(p, ',');
            if (c == NULL)
                break;
            p = c + 1;
        }
        two_nil += k == 2;
        field(text, "goals", v, sizeof v);
        for (char *p = v; *p; p++)
            if (*p == '-' && (p[1] == ',' || p[1] == '\0'))
                uncredited++;
        Core_Status st = core_status(pos);
        outcome_n[st.reason < 8 ? st.reason : 0]++;
        if (st.reason == CORE_REASON_NOT_CAUGHT)
            outcome_n[7]++;
        field(text, "sets", v, sizeof v);
        white_wins += v[0] == '2'; /* the volleyball winner */
        core_position_free(pos);
    }
    qsort(actions, (size_t)matches, sizeof *actions, cmp_int);
    qsort(minutes, (size_t)matches, sizeof *minutes, cmp_int);
    qsort(set_points, (size_t)sets_n, sizeof *set_points, cmp_int);
    printf("game %s, %d matches, seed %llu, options '%s': all terminated\n\n",
           gname, matches, (unsigned long long)seed, options);
    printf("| measure | min | median | p90 | max | mean "
           "|\n|---|---|---|---|---|---|\n");
    long sa = 0, sm = 0, sp = 0;
    for (int i = 0; i < matches; i++)
        sa += actions[i], sm += minutes[i];
    for (long i = 0; i < sets_n; i++)
        sp += set_points[i];
    printf("| actions per match | %d | %d | %d | %d | %.1f |\n", actions[0],
           pct(actions, matches, 50), pct(actions, matches, 90),
           actions[matches - 1], (double)sa / matches);
    printf("| minutes per match | %d | %d | %d | %d | %.1f |\n", minutes[0],
           pct(minutes, matches, 50), pct(minutes, matches, 90),
           minutes[matches - 1], (double)sm / matches);
    printf("| points per set | %d | %d | %d | %d | %.2f |\n\n", set_points[0],
           pct(set_points, (int)sets_n, 50), pct(set_points, (int)sets_n, 90),
           set_points[sets_n - 1], (double)sp / (double)sets_n);
    printf("- sets played: %ld; matches won 2-0: %ld, 2-1: %ld; White won %ld "
           "(by sets)\n",
           sets_n, two_nil, matches - two_nil, white_wins);
    printf("- serves: %ld, of which faults %ld (%.1f %%)\n", serves, faults,
           100.0 * (double)faults / (double)serves);
    printf("- points: %ld; from serve faults %ld (%.1f %%), from forfeits %ld "
           "(%.1f %%)\n",
           points, faults, 100.0 * (double)faults / (double)points,
           uncredited - faults,
           100.0 * (double)(uncredited - faults) / (double)points);
    printf("- penalty manoeuvres %ld, removals %ld\n", penalties, removals);
    if (chess_moves)
        printf("- chess stage: %ld moves; mate %ld, stalemate %ld, not caught "
               "%ld\n",
               chess_moves, outcome_n[CORE_REASON_CHECKMATE],
               outcome_n[CORE_REASON_STALEMATE], outcome_n[7]);
    free(buf);
    free(actions);
    free(minutes);
    free(set_points);
    return 0;
}
