/*
 * main.c: the tabula program's entry: dispatches to a command.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct Cli_Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} Cli_Command;

static const Cli_Command commands[] = {
    {"demo", cli_demo, "bots play each game through a local lobby"},
    {"host", cli_host, "create a network game and wait for a player"},
    {"join", cli_join, "join a network game by invite code"},
    {"spectate", cli_spectate, "watch a network game by watch code"},
    {"play", cli_play, "play a local game against a bot"},
    {"rules", cli_rules, "how to enter a game's moves, what its board shows"},
    {"perft", cli_perft, "count move sequences to a depth"},
    {"moves", cli_moves, "list the legal moves of a position"},
    {"lobby", cli_lobby, "run a lobby relay for network play"},
    {"synctest", cli_synctest, "check determinism on seeded random games"},
    {"simtest", cli_simtest, "simulate whole network matches under faults"},
    {"replay", cli_replay, "verify a match log or game record, print it"},
    {"identity", cli_identity, "show (first create) your player key"},
    {"match", cli_match, "play bot against bot, report Elo and SPRT"},
    {"analyse", cli_analyse, "search a position, print UCI-style info"},
    {"render", cli_render, "draw a Chessball position on the ball (SVG)"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: tabula COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\ngames:");
    for (size_t i = 0; i < core_game_count(); i++)
        fprintf(out, " %s", core_game_name(core_game_at(i)));
    fprintf(out, "\n\n'tabula COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    cli_program_set(argc > 0 ? argv[0] : NULL);
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 2, argv + 2);
    fprintf(stderr, "tabula: unknown command '%s'\n", cli_token(argv[1]));
    usage(stderr);
    return CLI_EXIT_USAGE;
}
