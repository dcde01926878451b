/*
 * bench_ratings.c: the ratings (club/club.h, issue 38; never run as a
 * test, the figures go to docs/benchmarks.md). Target: ratings
 * recomputed at 100,000 games a minute or more.
 *   bench_ratings [ROUNDS [N [LOGS]]]   N games [100000], LOGS logs [100],
 *                                        ROUNDS rounds [3]
 * Each round, in processor time (CLOCK_PROCESS_CPUTIME_ID) of this
 * process:
 *   maths   N pre-parsed games (Club_Rated_Game, as club_game_from_log gives
 *           them) among 2,000 keys of hidden strengths, two games and
 *           two classes, one in seven with a second copy (the guest's
 *           log), added and rated by club_ratings_run
 *   qsort   the anchor: qsort of the same N games by start and id (what
 *           the run does first)
 *   logs    LOGS signed Laska logs of random games (written once, into a
 *           temporary folder, by cli_match_log), each read and turned
 *           into its game by club_game_from_log: the cost of verifying
 *   verify  the anchor: the same logs through proto_log_verify alone
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "cli.h"
#include "club.h"
#include "proto.h"

enum { KEYS = 2000 };

/* n games (plus copies) into g; returns how many. */
static size_t make_games(Club_Rated_Game *g, size_t n, uint64_t seed)
{
    static int strength[KEYS];
    uint64_t rng = seed;
    size_t k = 0;
    for (int i = 0; i < KEYS; i++)
        strength[i] = (int)(splitmix(&rng) % 800);
    for (size_t i = 0; i < n; i++) {
        Club_Rated_Game *x = &g[k++];
        unsigned w = (unsigned)(splitmix(&rng) % KEYS);
        unsigned b = (unsigned)(splitmix(&rng) % KEYS);
        int edge = 500 + strength[w] - strength[b];
        int roll = (int)(splitmix(&rng) % 1000);
        memset(x, 0, sizeof *x);
        strcpy(x->game, i % 4 == 3 ? "chessball" : "laska");
        x->klass = (uint8_t)(i % 3 == 0 ? CLUB_CLASS_BLITZ : CLUB_CLASS_RAPID);
        memcpy(x->white, &w, sizeof w);
        memcpy(x->black, &b, sizeof b);
        x->score = (uint8_t)(roll < edge - 100 ? 2 : roll < edge + 100 ? 1 : 0);
        x->started = 1800000000u + i / 2;
        for (int j = 0; j < PROTO_HASH_BYTES; j++)
            x->id[j] = (uint8_t)splitmix(&rng);
        x->source = (uint32_t)i;
        if (i % 7 == 0) {
            g[k] = *x;
            g[k++].source = (uint32_t)(n + i);
        }
    }
    return k;
}

static int by_start(const void *pa, const void *pb)
{
    const Club_Rated_Game *a = pa, *b = pb;
    if (a->started != b->started)
        return a->started < b->started ? -1 : 1;
    return memcmp(a->id, b->id, sizeof a->id);
}

/* LOGS random Laska games' logs into dir; their total plies. */
static size_t write_logs(const char *dir, int logs)
{
    Proto_Identity w, b;
    const Core_Game *laska = core_game_find("laska");
    size_t cap = core_game_max_moves(laska), plies = 0;
    Core_Move *buf = malloc(cap * sizeof *buf), line[300];
    uint64_t rng = 7;
    if (buf == NULL || cli_match_bot_identity("bench white", &w) != 0 ||
        cli_match_bot_identity("bench black", &b) != 0)
        exit(1);
    for (int i = 0; i < logs; i++) {
        Core_Position *pos;
        size_t n = 0, moves;
        uint8_t id[PROTO_MATCH_ID_BYTES];
        char path[512];
        if (core_position_new(&pos, laska, "") != 0)
            exit(1);
        while (n < 300 && core_status(pos).outcome == CORE_ONGOING &&
               core_moves(pos, buf, cap, &moves) == 0 && moves > 0) {
            line[n] = buf[splitmix(&rng) % moves];
            core_play(pos, &line[n++]);
        }
        core_position_free(pos);
        for (size_t j = 0; j < sizeof id; j++)
            id[j] = (uint8_t)splitmix(&rng);
        snprintf(path, sizeof path, "%s/bench-%03d.log", dir, i);
        if (cli_match_log(path, laska, "", i % 2 ? &w : &b, i % 2 ? &b : &w,
                          1800000000u + (uint64_t)i, id, line, n,
                          CLI_MATCH_END_WHITE_RESIGNS) != 0)
            exit(1);
        plies += n;
    }
    free(buf);
    return plies;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    size_t n = argc > 2 ? (size_t)atol(argv[2]) : 100000;
    int logs = argc > 3 ? atoi(argv[3]) : 100;
    char dir[] = "/tmp/bench-ratingsXXXXXX";
    Club_Rated_Game *games = malloc((n + n / 7 + 1) * sizeof *games);
    Club_Rated_Game *copy = malloc((n + n / 7 + 1) * sizeof *copy);
    uint8_t **bytes = calloc((size_t)logs, sizeof *bytes);
    size_t *lens = calloc((size_t)logs, sizeof *lens), plies;

    if (games == NULL || copy == NULL || bytes == NULL || lens == NULL ||
        mkdtemp(dir) == NULL || proto_init() != 0)
        return 1;
    plies = write_logs(dir, logs);
    for (int i = 0; i < logs; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/bench-%03d.log", dir, i);
        if (proto_read_file(path, &bytes[i], &lens[i]) != 0)
            return 1;
        unlink(path);
    }
    rmdir(dir);
    printf("| round | qsort ms | maths ms | games/min (maths) | players | "
           "verify ms | logs ms | logs/min | plies/s |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (int r = 1; r <= rounds; r++) {
        size_t k = make_games(games, n, (uint64_t)r);
        Club_Ratings *list;
        uint64_t t0, t_sort, t_math, t_verify, t_logs;

        memcpy(copy, games, k * sizeof *copy);
        t0 = cpu_ns();
        qsort(copy, k, sizeof *copy, by_start);
        t_sort = cpu_ns() - t0;

        t0 = cpu_ns();
        if (club_ratings_new(&list) != 0)
            return 1;
        for (size_t i = 0; i < k; i++)
            if (club_ratings_add(list, &games[i]) != 0)
                return 1;
        if (club_ratings_run(list, club_fix_ratio(1, 2), NULL, NULL) != 0)
            return 1;
        t_math = cpu_ns() - t0;
        size_t players = club_ratings_count(list);
        club_ratings_free(list);

        t0 = cpu_ns();
        for (int i = 0; i < logs; i++) {
            Proto_Log_Report rep;
            if (proto_log_verify(bytes[i], lens[i], NULL, NULL, NULL, NULL,
                                 &rep) != 0)
                return 1;
        }
        t_verify = cpu_ns() - t0;

        t0 = cpu_ns();
        for (int i = 0; i < logs; i++) {
            Club_Rated_Game g;
            Club_Verdict v;
            if (club_game_from_log(bytes[i], lens[i], (uint32_t)i, &g, &v, NULL,
                                   0) != 0 ||
                v != CLUB_RATED)
                return 1;
        }
        t_logs = cpu_ns() - t0;

        printf("| %d | %.1f | %.1f | %.0f | %zu | %.1f | %.1f | %.0f | %.0f |\n",
               r, t_sort / 1e6, t_math / 1e6, n / (t_math / 1e9) * 60, players,
               t_verify / 1e6, t_logs / 1e6, logs / (t_logs / 1e9) * 60,
               plies / (t_logs / 1e9));
    }
    printf("(%zu games a round; %d logs of %zu plies in all)\n", n, logs,
           plies);
    for (int i = 0; i < logs; i++)
        free(bytes[i]);
    free(bytes);
    free(lens);
    free(games);
    free(copy);
    return 0;
}
