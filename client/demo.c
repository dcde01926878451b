/*
 * demo.c: `tabula demo`, the main job. Until network play exists it is a
 * full bot-vs-bot game of each compiled-in game (or the one named),
 * printed ply by ply with the state hash every peer would compare, ending
 * with a table of game, plies, result and final hash.
 */
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "cli.h"
#include "proto.h"

#define DEMO_MAX_PLIES 300

static const char demo_help[] =
    "usage: tabula demo [GAME] [--level N] [--seed S] [--quiet]\n"
    "\n"
    "Plays a full bot-vs-bot game of each game (or GAME), printing every\n"
    "ply with its state hash, then a table: game, plies, result, final\n"
    "hash. --level sets the bots' strength (1..8, default 3), --seed the\n"
    "tie-breaking seed (default 1), --quiet prints only the table.\n";

typedef struct Demo_Row {
    const char *game;
    uint32_t plies;
    Core_Status status;
    char hash[PROTO_HASH_HEX];
} Demo_Row;

static int play_one(const Core_Game *g, int level, uint64_t seed, int quiet,
                    Demo_Row *row)
{
    Core_Position *pos = NULL;
    uint8_t hash[PROTO_HASH_BYTES];
    int rc = core_position_new(&pos, g, NULL);

    if (rc != 0)
        return rc;
    if (!quiet)
        printf("== %s: level %d bots, seed %llu\n", core_game_title(g), level,
               (unsigned long long)seed);
    while (core_status(pos).outcome == CORE_ONGOING &&
           core_ply(pos) < DEMO_MAX_PLIES) {
        Core_Move mv;
        char text[CORE_NOTATION_MAX];
        int mover = core_side_to_move(pos); /* sides need not alternate */
        rc = bot_choose(pos, level, seed + core_ply(pos), &mv, NULL);
        if (rc == 0)
            rc = core_move_format(pos, &mv, text, sizeof text);
        if (rc == 0)
            rc = core_play(pos, &mv);
        if (rc == 0)
            rc = proto_state_hash(pos, hash);
        if (rc != 0)
            break;
        proto_hex(hash, sizeof hash, row->hash);
        if (!quiet)
            printf("%4u. %-5s %-24s %.16s\n", core_ply(pos),
                   mover == CORE_WHITE ? "white" : "black",
                   text, row->hash);
    }
    if (rc == 0)
        rc = proto_state_hash(pos, hash);
    if (rc == 0) {
        row->game = core_game_name(g);
        row->plies = core_ply(pos);
        row->status = core_status(pos);
        proto_hex(hash, sizeof hash, row->hash);
        if (!quiet)
            printf("result: %s (%s)\nfinal-hash: %s\n\n",
                   core_outcome_name(row->status.outcome),
                   row->status.outcome == CORE_ONGOING
                       ? "ply limit"
                       : core_reason_name(row->status.reason),
                   row->hash);
    }
    core_position_free(pos);
    return rc;
}

int cli_demo(int argc, char **argv)
{
    const Core_Game *only = NULL;
    int level = 3, quiet = 0;
    uint64_t seed = 1;
    Demo_Row rows[16];
    size_t nrows = 0;

    for (int i = 0; i < argc; i++) {
        char *end = NULL;
        if (cli_is_help(argv[i])) {
            fputs(demo_help, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(argv[i], "--level") == 0 && i + 1 < argc) {
            long v = strtol(argv[++i], &end, 10);
            if (*end != '\0' || v < BOT_LEVEL_MIN || v > BOT_LEVEL_MAX) {
                fprintf(stderr, "tabula demo: bad level '%s'; expected 1..8\n",
                        cli_token(argv[i]));
                return CLI_EXIT_USAGE;
            }
            level = (int)v;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], &end, 10);
            if (*end != '\0') {
                fprintf(stderr, "tabula demo: bad seed '%s'\n",
                        cli_token(argv[i]));
                return CLI_EXIT_USAGE;
            }
        } else if (argv[i][0] != '-' && only == NULL) {
            if ((only = cli_game("demo", argv[i])) == NULL)
                return CLI_EXIT_USAGE;
        } else {
            fprintf(stderr, "tabula demo: unexpected argument '%s'\n",
                    cli_token(argv[i]));
            fputs(demo_help, stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (proto_init() != 0) {
        fprintf(stderr, "tabula demo: cannot initialise libsodium\n");
        return CLI_EXIT_FAIL;
    }
    for (size_t i = 0; i < core_game_count() && nrows < 16; i++) {
        const Core_Game *g = core_game_at(i);
        if (only != NULL && g != only)
            continue;
        int rc = play_one(g, level, seed, quiet, &rows[nrows]);
        if (rc != 0) {
            fprintf(stderr, "tabula demo: %s: %s\n", core_game_name(g),
                    tb_strerror(rc));
            return CLI_EXIT_FAIL;
        }
        nrows++;
    }
    printf("%-12s %6s  %-8s %-12s %s\n", "game", "plies", "result", "reason",
           "final hash");
    for (size_t i = 0; i < nrows; i++)
        printf("%-12s %6u  %-8s %-12s %s\n", rows[i].game, rows[i].plies,
               core_outcome_name(rows[i].status.outcome),
               rows[i].status.outcome == CORE_ONGOING
                   ? "ply-limit"
                   : core_reason_name(rows[i].status.reason),
               rows[i].hash);
    return CLI_EXIT_OK;
}
