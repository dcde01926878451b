/*
 * main.c: the tabula program's entry: dispatches to a command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice.h"
#include "cli.h"
#include "i18n.h"
#include "net.h"

typedef struct Cli_Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const Cli_Flag *flags; /* its table, for --flag=VALUE (NULL: none) */
} Cli_Command;

static const Cli_Command commands[] = {
    {"demo", cli_demo, N_("bots play each game through a local lobby"),
     cli_flags_demo},
    {"host", cli_host, N_("create a network game and wait for a player"),
     cli_flags_host},
    {"join", cli_join, N_("join a network game by invite code"),
     cli_flags_join},
    {"seek", cli_seek, N_("put a public seek on the lobby for a stranger"),
     cli_flags_host},
    {"seeks", cli_seeks, N_("list the lobby's open seeks"), cli_flags_seeks},
    {"pool", cli_pool, N_("offer games and clocks; the lobby finds an opponent"),
     cli_flags_pool},
    {"games", cli_games, N_("list your network games kept on this machine"),
     cli_flags_games},
    {"spectate", cli_spectate, N_("watch a network game by watch code"),
     cli_flags_spectate},
    {"play", cli_play, N_("play a local game against a bot"), cli_flags_play},
    {"rules", cli_rules, N_("how to enter a game's moves, what its board shows"),
     cli_flags_rules},
    {"perft", cli_perft, N_("count move sequences to a depth"), NULL},
    {"moves", cli_moves, N_("list the legal moves of a position"), NULL},
    {"lobby", cli_lobby, N_("run a lobby relay for network play"), NULL},
    {"synctest", cli_synctest, N_("check determinism on seeded random games"),
     cli_flags_synctest},
    {"simtest", cli_simtest, N_("simulate whole network matches under faults"),
     cli_flags_simtest},
    {"replay", cli_replay, N_("verify a match log or game record, print it"),
     cli_flags_replay},
    {"identity", cli_identity, N_("show (first create) your player key"), NULL},
    {"ratings", cli_ratings,
     N_("recompute Glicko-2 ratings from a folder of match logs"),
     cli_flags_ratings},
    {"match", cli_match, N_("play bot against bot, report Elo and SPRT"),
     cli_flags_match},
    {"analyse", cli_analyse, N_("search a position, print UCI-style info"),
     cli_flags_analyse},
    {"tournament", cli_tournament,
     N_("round robin pairings; a TRF file's crosstable"),
     cli_flags_tournament},
    {"render", cli_render, N_("draw a Chessball position on the ball (SVG)"),
     NULL},
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

/* 1 when flag takes no value in command cmd (--help: in every command;
 * else a switch of cmd's table): `play --line=1` is refused, not read as
 * `--line 1`; -1 when it is a switch of another command only (the whole
 * word stays, an unknown flag to cmd); 0 otherwise. */
static int switch_of(const char *flag, const char *cmd)
{
    int other = 0;
    if (strcmp(flag, "--help") == 0)
        return 1;
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (cli_flag_value(commands[k].flags, flag) == CLI_SWITCH) {
            if (strcmp(commands[k].name, cmd) == 0)
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

/* The edit distance (insertions, deletions, substitutions, and a swap of
 * two neighbours counted as one) between a and b, at most 9. */
static unsigned distance(const char *a, const char *b)
{
    unsigned d[16][16];
    size_t la = strlen(a), lb = strlen(b);
    if (la > 15 || lb > 15)
        return 9;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb] < 9 ? d[la][lb] : 9;
}

/* The command a mistyped name most likely meant (at most two edits
 * away, and fewer edits than its length), or NULL. */
static const char *nearest_command(const char *name)
{
    const char *best = NULL;
    unsigned best_d = 3;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        unsigned d = distance(name, commands[i].name);
        if (d < best_d && d < strlen(name)) {
            best = commands[i].name;
            best_d = d;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    cli_program_set(argc > 0 ? argv[0] : NULL);
    advice_set_transport(net_strerror);
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
        if (nearest_command(argv[2]) != NULL)
            fprintf(stderr, _("did you mean 'tabula %s'?\n"),
                    nearest_command(argv[2]));
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
    const char *near = nearest_command(argv[1]);
    if (near != NULL)
        fprintf(stderr, _("did you mean 'tabula %s'?\n"), near);
    usage(stderr);
    return CLI_EXIT_USAGE;
}
