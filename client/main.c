/*
 * main.c: the tabula program's entry: dispatches to a command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"

typedef struct Cli_Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} Cli_Command;

static const Cli_Command commands[] = {
    {"demo", cli_demo, N_("bots play each game through a local lobby")},
    {"host", cli_host, N_("create a network game and wait for a player")},
    {"join", cli_join, N_("join a network game by invite code")},
    {"spectate", cli_spectate, N_("watch a network game by watch code")},
    {"play", cli_play, N_("play a local game against a bot")},
    {"rules", cli_rules, N_("how to enter a game's moves, what its board shows")},
    {"perft", cli_perft, N_("count move sequences to a depth")},
    {"moves", cli_moves, N_("list the legal moves of a position")},
    {"lobby", cli_lobby, N_("run a lobby relay for network play")},
    {"synctest", cli_synctest, N_("check determinism on seeded random games")},
    {"simtest", cli_simtest, N_("simulate whole network matches under faults")},
    {"replay", cli_replay, N_("verify a match log or game record, print it")},
    {"identity", cli_identity, N_("show (first create) your player key")},
    {"match", cli_match, N_("play bot against bot, report Elo and SPRT")},
    {"analyse", cli_analyse, N_("search a position, print UCI-style info")},
    {"render", cli_render, N_("draw a Chessball position on the ball (SVG)")},
};

static void usage(FILE *out)
{
    fputs(_("usage: tabula COMMAND [ARGS]\n\ncommands:\n"), out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, _(commands[i].summary));
    fprintf(out, "\n%s", _("games:"));
    for (size_t i = 0; i < core_game_count(); i++)
        fprintf(out, " %s", core_game_name(core_game_at(i)));
    fprintf(out, "\n\n%s\n",
            _("'tabula COMMAND --help' (or 'tabula help COMMAND') describes "
              "a command."));
}

/* Flags that take no value, with the command that has each (NULL:
 * every command): `play --line=1` is refused, not read as `--line 1`;
 * in a command without the switch the whole word stays an unknown
 * flag. */
static const struct {
    const char *flag, *cmd;
} switches[] = {{"--help", NULL},      {"--line", "play"},
                {"--quiet", "demo"},   {"--quiet", "replay"},
                {"--trace", "simtest"}};

/* 1 when FLAG (the part before '=') is a switch of CMD, -1 when it is a
 * switch of another command only, 0 when no switch. */
static int switch_of(const char *flag, const char *cmd)
{
    int other = 0;
    for (size_t k = 0; k < sizeof switches / sizeof switches[0]; k++)
        if (strcmp(flag, switches[k].flag) == 0) {
            if (switches[k].cmd == NULL || strcmp(switches[k].cmd, cmd) == 0)
                return 1;
            other = -1;
        }
    return other;
}

/* A command's arguments with every `--flag=VALUE` before a bare `--`
 * split into `--flag` and `VALUE`, as getopt_long reads them, so each
 * command's parser sees one spelling. `--bot=` stays whole: cli_bot_arg
 * reads it itself (`--bot` alone takes no value, so `--bot=CODE` must
 * stay an error, not become a join's code). Writes into the arguments'
 * own text (C lets a program change them); the array returned holds at
 * most 2 * argc + 1 pointers and is the caller's to free. NULL when out
 * of memory (*bad NULL) or when a switch was given a value (*bad names
 * it). */
static char **split_equals(const char *cmd, int argc, char **argv,
                           int *out_argc, const char **bad)
{
    char **out = malloc(((size_t)argc * 2 + 1) * sizeof *out);
    int n = 0, split = 1;
    *bad = NULL;
    if (out == NULL)
        return NULL;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i], *eq = strchr(a, '=');
        if (strcmp(a, "--") == 0)
            split = 0;
        if (split && a[0] == '-' && a[1] == '-' && eq != NULL && eq > a + 2 &&
            strncmp(a, "--bot=", 6) != 0) {
            *eq = '\0';
            int sw = switch_of(a, cmd);
            if (sw > 0) {
                *bad = a;
                free(out);
                return NULL;
            }
            if (sw < 0) { /* left whole: the command names it unknown */
                *eq = '=';
                out[n++] = a;
                continue;
            }
            out[n++] = a;
            out[n++] = eq + 1;
        } else {
            out[n++] = a;
        }
    }
    out[n] = NULL;
    *out_argc = n;
    return out;
}

int main(int argc, char **argv)
{
    cli_program_set(argc > 0 ? argv[0] : NULL);
    cli_i18n_init();
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "help") == 0 && argc > 2) {
        /* `tabula help play` is `tabula play --help` */
        static char help_flag[] = "--help";
        char *args[] = {help_flag, NULL};
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(argv[2], commands[i].name) == 0)
                return commands[i].run(1, args);
        fprintf(stderr, _("tabula: unknown command '%s'\n"),
                cli_token(argv[2]));
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            int n = 0;
            const char *bad = NULL;
            char **args = split_equals(commands[i].name, argc - 2, argv + 2, &n,
                                       &bad);
            if (args == NULL && bad != NULL) {
                fprintf(stderr, _("tabula %s: %s takes no value\n"),
                        commands[i].name, bad);
                return CLI_EXIT_USAGE;
            }
            if (args == NULL) {
                fprintf(stderr, "tabula: %s\n", _("out of memory"));
                return 1;
            }
            int rc = commands[i].run(n, args);
            free(args);
            return rc;
        }
    fprintf(stderr, _("tabula: unknown command '%s'\n"), cli_token(argv[1]));
    usage(stderr);
    return CLI_EXIT_USAGE;
}
