/*
 * bot_strength.c: does a higher bot level beat level 1? For each game,
 * 50 seeded games of level HIGH against level 1, colours alternating;
 * prints wins, draws and losses of the higher level, its score, and the
 * seconds taken.
 *
 *   bot_strength [HIGH] [GAMES]     (defaults 3 and 50)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine.h"
#include "core.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    int high = argc > 1 ? atoi(argv[1]) : 3;
    int games = argc > 2 ? atoi(argv[2]) : 50;

    printf("%-12s %5s %4s %4s %4s %7s %8s\n", "game", "level", "won", "drew",
           "lost", "score", "seconds");
    for (size_t gi = 0; gi < core_game_count(); gi++) {
        const Core_Game *g = core_game_at(gi);
        int won = 0, drew = 0, lost = 0;
        double t0 = now();
        for (int n = 0; n < games; n++) {
            int high_side = n % 2; /* White in even games */
            Core_Position *pos = NULL;
            if (core_position_new(&pos, g, NULL) != 0)
                return 1;
            while (core_status(pos).outcome == CORE_ONGOING) {
                int side = core_side_to_move(pos);
                Core_Move mv;
                int level = side == high_side ? high : 1;
                if (bot_choose(pos, level, (uint64_t)n * 1000 + core_ply(pos),
                               &mv, NULL) != 0 ||
                    core_play(pos, &mv) != 0) {
                    fprintf(stderr, "%s: bot failed\n", core_game_name(g));
                    return 1;
                }
            }
            Core_Outcome o = core_status(pos).outcome;
            if (o == CORE_DRAW || o == CORE_ABORTED)
                drew++;
            else if ((o == CORE_WIN_WHITE) == (high_side == CORE_WHITE))
                won++;
            else
                lost++;
            core_position_free(pos);
        }
        printf("%-12s %2d v 1 %4d %4d %4d %6.1f%% %8.1f\n", core_game_name(g),
               high, won, drew, lost, 100.0 * (won + 0.5 * drew) / games,
               now() - t0);
        fflush(stdout);
    }
    return 0;
}
