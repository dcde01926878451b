/*
 * texel_data.c: self-play positions labelled with the game's result, the
 * data of the evaluation tuning in docs/engines.md (Texel's method: fit
 * the evaluation's weights so that a logistic of the score predicts the
 * results). Plays GAMES games of the bot at LEVEL against itself from
 * seeded random openings of PLIES plies and writes one line per quiet
 * position (no move core_move_forcing calls forcing) after the opening:
 *
 *   RESULT MOVES POSITION
 *
 * RESULT is White's score (1, 0.5, 0), MOVES the number of legal moves
 * of the side to move (Chessball's mobility term), POSITION the position
 * string. A game whose evaluation lists its terms (core_evaluate_terms:
 * Chess volleyball) gets them before the position, as t=T1,T2,...; its
 * positions are all kept, since nearly every Chess volleyball position
 * has a crossing of the net and the filter would keep only first
 * touches and penalties. Deterministic for its arguments.
 *
 * Usage: texel_data GAME GAMES LEVEL SEED [PLIES]   (PLIES default 8)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "core.h"

#define PLY_CAP 600 /* games running longer are dropped */
#define TERMS_MAX 32
#define TERMS_TEXT 400

static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static long number(const char *s, long lo, long hi)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "texel_data: bad number '%s'\n", s);
        exit(2);
    }
    return v;
}

/* "t=T1,T2,... " for a game that lists its evaluation's terms, else "". */
static void terms_text(const Core_Position *pos, char *buf, size_t cap)
{
    int32_t t[TERMS_MAX];
    size_t n = 0, used = 0;
    buf[0] = '\0';
    if (core_evaluate_terms(pos, t, TERMS_MAX, &n) != 0)
        return;
    for (size_t i = 0; i < n && used < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%ld",
                         i ? "," : "t=", (long)t[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (used + 1 < cap) {
        buf[used] = ' ';
        buf[used + 1] = '\0';
    }
}

/* Is any move of pos forcing (a capture, goal or shot)? */
static int has_forcing(const Core_Position *pos, const Core_Move *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (core_move_forcing(pos, &m[i]) > 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: texel_data GAME GAMES LEVEL SEED [PLIES]\n");
        return 2;
    }
    const Core_Game *g = core_game_find(argv[1]);
    long games = number(argv[2], 1, 1000000);
    int level = (int)number(argv[3], BOT_LEVEL_MIN, BOT_LEVEL_MAX);
    uint64_t rng = (uint64_t)number(argv[4], 0, 1L << 30);
    int plies = argc > 5 ? (int)number(argv[5], 0, 100) : 8;
    if (g == NULL) {
        fprintf(stderr, "texel_data: unknown game '%s'\n", argv[1]);
        return 2;
    }
    size_t max = core_game_max_moves(g);
    Core_Move *buf = malloc(max * sizeof *buf);
    char(*text)[CORE_POSITION_TEXT_MAX] = malloc(PLY_CAP * sizeof *text);
    char(*terms)[TERMS_TEXT] = malloc(PLY_CAP * sizeof *terms);
    int *nmoves = malloc(PLY_CAP * sizeof *nmoves);
    if (buf == NULL || text == NULL || terms == NULL || nmoves == NULL)
        return 1;
    for (long gi = 0; gi < games; gi++) {
        Core_Position *pos = NULL;
        int kept = 0;
        if (core_position_new(&pos, g, NULL) != 0)
            return 1;
        while (core_status(pos).outcome == CORE_ONGOING &&
               core_ply(pos) < PLY_CAP) {
            size_t n = 0;
            Core_Move mv;
            if (core_moves(pos, buf, max, &n) != 0 || n == 0)
                break;
            if ((int)core_ply(pos) < plies) {
                core_make(pos, &buf[next_random(&rng) % n]);
                continue;
            }
            terms_text(pos, terms[kept < PLY_CAP ? kept : 0], TERMS_TEXT);
            int all = terms[kept < PLY_CAP ? kept : 0][0] != '\0';
            if ((all || !has_forcing(pos, buf, n)) && kept < PLY_CAP &&
                core_position_format(pos, text[kept], sizeof text[0]) == 0)
                nmoves[kept++] = (int)n;
            if (bot_choose(pos, level, next_random(&rng), &mv, NULL) != 0)
                break;
            core_make(pos, &mv);
        }
        Core_Outcome o = core_status(pos).outcome;
        const char *res = o == CORE_WIN_WHITE   ? "1"
                          : o == CORE_WIN_BLACK ? "0"
                          : o == CORE_DRAW      ? "0.5"
                                                : NULL;
        for (int i = 0; res != NULL && i < kept; i++)
            printf("%s %d %s%s\n", res, nmoves[i], terms[i], text[i]);
        core_position_free(pos);
        fprintf(stderr, "\rgame %ld/%ld", gi + 1, games);
    }
    fprintf(stderr, "\n");
    free(buf);
    free(text);
    free(terms);
    free(nmoves);
    return 0;
}
