/*
 * worst_football.c: searches for Football chess positions with very many
 * legal turns, to check core_game_max_moves against the worst positions
 * we can construct (docs/rules/football.md, "How many turns a position
 * has"). White's full set and the ball are placed at random and improved
 * by hill-climbing (moves that do not lower the count are kept), with
 * restarts; Black has no pieces, since they only block. Deterministic for
 * a given seed.
 *
 *   build/worst_football [SEED] [RESTARTS] [STEPS] [kicks]
 *
 * With `kicks` it maximises the turns without a piece move (the kick tree
 * alone) instead of all turns. Prints each improvement: count, position.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* White K Q R R B B N N, then the ball: their squares 0..80. */
#define ITEMS 9
static const char letters[ITEMS] = {'K', 'Q', 'R', 'R', 'B',
                                    'B', 'N', 'N', '*'};

static int to_position(const int *sq, char *out, size_t cap)
{
    char board[81] = {0};
    size_t k = 0;
    for (int i = 0; i < ITEMS; i++) {
        if (sq[i] == 4 || sq[i] == 76 || board[sq[i]] != 0)
            return -1;
        board[sq[i]] = letters[i];
    }
    for (int r = 8; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 9; f++) {
            char c = board[r * 9 + f];
            if (c == 0) {
                empty++;
                continue;
            }
            if (empty > 0)
                out[k++] = (char)('0' + empty);
            empty = 0;
            out[k++] = c;
        }
        if (empty > 0)
            out[k++] = (char)('0' + empty);
        if (r > 0)
            out[k++] = '/';
    }
    const char *tail = " w 0-0 0 0";
    if (k + strlen(tail) + 1 > cap)
        return -1;
    memcpy(out + k, tail, strlen(tail) + 1);
    return 0;
}

static long count_turns(Core_Position *pos, const int *sq, int kicks_only,
                        Core_Move *buf, size_t cap)
{
    char text[128];
    uint64_t n = 0;
    if (to_position(sq, text, sizeof text) != 0 ||
        core_position_parse(pos, text, NULL, 0) != 0)
        return -1;
    if (!kicks_only) {
        if (core_perft(pos, 1, &n) != 0)
            return -1;
        return (long)n;
    }
    size_t m = 0;
    int rc = core_moves(pos, buf, cap, &m);
    if (rc == TB_E_TOOMANY) {
        printf("over core_game_max_moves: %s\n", text);
        return 1L << 40;
    }
    if (rc != 0)
        return -1;
    for (size_t i = 0; i < m; i++)
        n += buf[i].flags == 0; /* no piece move */
    return (long)n;
}

int main(int argc, char **argv)
{
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
    long restarts = argc > 2 ? strtol(argv[2], NULL, 10) : 10;
    long steps = argc > 3 ? strtol(argv[3], NULL, 10) : 3000;
    int kicks_only = argc > 4 && strcmp(argv[4], "kicks") == 0;
    const Core_Game *g = core_game_find("football");
    Core_Position *pos = NULL;
    size_t cap = g != NULL ? core_game_max_moves(g) : 0;
    Core_Move *buf = malloc(cap * sizeof *buf);
    long best = -1;

    if (g == NULL || buf == NULL || core_position_new(&pos, g, NULL) != 0) {
        fprintf(stderr, "worst_football: cannot set up\n");
        free(buf);
        return 1;
    }
    rng_state = 0x9E3779B97F4A7C15ull ^ seed;
    for (long r = 0; r < restarts; r++) {
        int sq[ITEMS];
        long cur;
        do {
            for (int i = 0; i < ITEMS; i++)
                sq[i] = (int)(rng() % 81);
        } while ((cur = count_turns(pos, sq, kicks_only, buf, cap)) < 0);
        for (long s = 0; s < steps; s++) {
            int next[ITEMS];
            memcpy(next, sq, sizeof next);
            int i = (int)(rng() % ITEMS);
            if (rng() % 3 == 0) {
                next[i] = (int)(rng() % 81);
            } else {
                int f = next[i] % 9 + (int)(rng() % 5) - 2;
                int rk = next[i] / 9 + (int)(rng() % 5) - 2;
                if (f < 0 || f > 8 || rk < 0 || rk > 8)
                    continue;
                next[i] = rk * 9 + f;
            }
            long v = count_turns(pos, next, kicks_only, buf, cap);
            if (v >= cur) {
                cur = v;
                memcpy(sq, next, sizeof sq);
            }
        }
        if (cur > best) {
            char text[128];
            best = cur;
            to_position(sq, text, sizeof text);
            printf("%ld %s\n", best, text);
            fflush(stdout);
        }
    }
    core_position_free(pos);
    free(buf);
    return 0;
}
