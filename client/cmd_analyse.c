/*
 * cmd_analyse.c: `tabula analyse`, the search's view of a position in the
 * shape chess GUIs read from UCI engines: one `info` line per finished
 * depth, then `bestmove`. Mate scores count moves the UCI way from the
 * plies to the forced end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "engine.h"
#include "cli.h"

static const char analyse_help[] = N_(
    "usage: tabula analyse GAME [--position POS] [--options OPTS] [MOVE ...]\n"
    "         [--depth D | --time MS] [--nodes N] [--level SPEC] [--seed S]\n"
    "\n"
    "Searches the position after the moves with iterative deepening and\n"
    "prints one line per finished depth, then the move it would play:\n"
    "  info depth D score cp X nodes N nps N time MS pv MOVE ...\n"
    "  info depth D score mate M nodes N nps N time MS pv MOVE ...\n"
    "  bestmove MOVE\n"
    "The last info line's pv begins with that move (a depth cut short by\n"
    "the budget or the time has a line of its own once it found a better\n"
    "move). A finished game has no move: 'bestmove (none)', as UCI engines\n"
    "write it, and the result on standard error.\n"
    "Scores are the side to move's, in hundredths of a pawn (or soldier);\n"
    "'mate M' is a forced game end in M moves, negative when lost. Moves\n"
    "are written as tabula moves lists them and a board takes them; in the\n"
    "pv a move with spaces (Football chess turns, Chess volleyball actions)\n"
    "is put in double quotes, so the pv can be pasted after the game's name.\n"
    "  --depth D     plies, 1..60 (default 60 within the node budget)\n"
    "  --time MS     stop after MS milliseconds (not reproducible); today's\n"
    "                search then also scores a position met again since\n"
    "                its root a draw (docs/engines.md)\n"
    "  --nodes N     work budget (default 4000000)\n"
    "  --level SPEC  the bot to ask, LEVEL[:OPTS] as in tabula match\n"
    "                (default 8); given, it searches to its own depth and\n"
    "                budget unless --depth, --nodes or --time says otherwise\n"
    "  --seed S      tie-break seed (default 1)\n");

typedef struct Analysis {
    const Core_Position *pos;
    double t0;
    int failed;
} Analysis;

static uint64_t analyse_clock_ms(void *ctx)
{
    (void)ctx;
    return (uint64_t)(cli_now() * 1000.0);
}

/* A pv move as one shell word: its notation, in double quotes when it
 * has spaces (no game's notation has a quote, a backslash or a '$'). */
static void print_pv_move(const char *text)
{
    if (strchr(text, ' ') != NULL)
        printf(" \"%s\"", text);
    else
        printf(" %s", text);
}

static void print_info(void *ctx, const Bot_Info *info)
{
    Analysis *a = ctx;
    double secs = cli_now() - a->t0;
    uint64_t ms = (uint64_t)(secs * 1000.0);
    Core_Position *walk = core_position_clone(a->pos);
    if (walk == NULL) {
        a->failed = 1;
        return;
    }
    printf("info depth %d score ", info->depth);
    if (info->score >= BOT_MATE_MIN)
        printf("mate %d", (BOT_WIN - info->score + 1) / 2);
    else if (info->score <= -BOT_MATE_MIN)
        printf("mate -%d", (BOT_WIN + info->score) / 2);
    else
        printf("cp %d", info->score);
    printf(" nodes %llu nps %.0f time %llu pv", (unsigned long long)info->nodes,
           secs > 0 ? (double)info->nodes / secs : 0.0,
           (unsigned long long)ms);
    for (int i = 0; i < info->pv_len; i++) {
        char text[CORE_NOTATION_MAX];
        /* Formatting needs a legal move: check it on a scratch copy. */
        Core_Position *next = core_position_clone(walk);
        int ok = next != NULL && core_play(next, &info->pv[i]) == 0 &&
                 core_move_format(walk, &info->pv[i], text, sizeof text) == 0;
        core_position_free(walk);
        walk = next;
        if (!ok)
            break;
        print_pv_move(text);
    }
    printf("\n");
    fflush(stdout);
    core_position_free(walk);
}

static int read_u64(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
    return cli_uint(text, lo, hi, out);
}

/* analyse's flags: every one takes a value. */
enum {
    ANALYSE_FLAG_POSITION,
    ANALYSE_FLAG_OPTIONS,
    ANALYSE_FLAG_LEVEL,
    ANALYSE_FLAG_DEPTH,
    ANALYSE_FLAG_TIME,
    ANALYSE_FLAG_NODES,
    ANALYSE_FLAG_SEED
};
const Cli_Flag cli_flags_analyse[] = {
    {"--position", CLI_VALUE, ANALYSE_FLAG_POSITION},
    {"--options", CLI_VALUE, ANALYSE_FLAG_OPTIONS},
    {"--level", CLI_VALUE, ANALYSE_FLAG_LEVEL},
    {"--depth", CLI_VALUE, ANALYSE_FLAG_DEPTH},
    {"--time", CLI_VALUE, ANALYSE_FLAG_TIME},
    {"--nodes", CLI_VALUE, ANALYSE_FLAG_NODES},
    {"--seed", CLI_VALUE, ANALYSE_FLAG_SEED},
    {NULL, CLI_SWITCH, 0}};

int cli_analyse(int argc, char **argv)
{
    const char *position = NULL, *options = NULL, *level = NULL;
    uint64_t depth = 0, time_ms = 0, nodes = 0, seed = 1;
    char **moves = calloc((size_t)argc + 1, sizeof *moves);
    int nmoves = 0, rc = CLI_EXIT_USAGE;
    const char *game = NULL;
    Core_Position *pos = NULL;

    if (moves == NULL)
        return CLI_EXIT_FAIL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val;
        if (cli_is_help(a)) {
            fputs(_(analyse_help), stdout);
            rc = CLI_EXIT_OK;
            goto done;
        }
        if (a[0] != '-' || a[1] != '-') {
            if (game == NULL)
                game = a;
            else
                moves[nmoves++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            while (++i < argc)
                moves[nmoves++] = argv[i];
            break;
        }
        int bad = 0;
        uint64_t lo = 1, hi = 0; /* a number flag's range, for its message */
        switch (cli_arg("analyse", cli_flags_analyse, argc, argv, &i,
                        _(analyse_help), &val)) {
        case ANALYSE_FLAG_POSITION:
            position = val;
            break;
        case ANALYSE_FLAG_OPTIONS:
            options = val;
            break;
        case ANALYSE_FLAG_LEVEL:
            level = val;
            break;
        case ANALYSE_FLAG_DEPTH:
            hi = 60;
            bad = read_u64(val, lo, hi, &depth);
            break;
        case ANALYSE_FLAG_TIME:
            hi = 3600000;
            bad = read_u64(val, lo, hi, &time_ms);
            break;
        case ANALYSE_FLAG_NODES:
            hi = UINT64_C(1) << 40;
            bad = read_u64(val, lo, hi, &nodes);
            break;
        case ANALYSE_FLAG_SEED:
            if (cli_seed("analyse", val, &seed) != 0)
                goto done;
            break;
        default:
            goto done; /* said why (rc is the usage status) */
        }
        if (bad) {
            fprintf(stderr,
                    _("tabula analyse: bad %s '%s'; expected a whole number "
                      "%llu..%llu\n"),
                    a, cli_token(val), (unsigned long long)lo,
                    (unsigned long long)hi);
            goto done;
        }
    }
    if (game == NULL) {
        fprintf(stderr, _("tabula analyse: missing %s\n"), _("GAME"));
        fputs(_(analyse_help), stderr);
        goto done;
    }
    if (depth > 0 && time_ms > 0) {
        fprintf(stderr, _("tabula analyse: --depth and --time exclude each "
                        "other\n"));
        goto done;
    }
    const Core_Game *g = cli_game("analyse", game);
    if (g == NULL)
        goto done;
    Bot_Limits lim;
    char why[128];
    if (cli_bot_spec(level != NULL ? level : "8", &lim, why, sizeof why) !=
        0) {
        fprintf(stderr, _("tabula analyse: bad --level '%s': %s\n"),
                cli_token(level), why);
        goto done;
    }
    pos = cli_setup_position("analyse", g, options, position, moves, nmoves);
    if (pos == NULL)
        goto done;
    if (cli_report_over(pos)) {
        /* UCI's answer when there is no move, so a reader waiting for
         * bestmove is not left waiting. */
        printf("bestmove (none)\n");
        rc = CLI_EXIT_OK;
        goto done;
    }
    Analysis an = {pos, cli_now(), 0};
    /* Without --level: depth 60 within 4000000 units (or the time).
     * With it: the level's own depth cap and budget (or its spec's
     * depth= and nodes=), each unless a flag gives it. */
    if (depth > 0)
        lim.depth = (int)depth;
    else if (level == NULL)
        lim.depth = 60;
    if (nodes > 0)
        lim.nodes = nodes;
    else if (time_ms > 0)
        lim.nodes = UINT64_C(1) << 40;
    else if (level == NULL)
        lim.nodes = 4000000;
    if (time_ms > 0) {
        lim.time_ms = (uint32_t)time_ms;
        lim.clock_ms = analyse_clock_ms;
    }
    lim.info = print_info;
    lim.info_ctx = &an;
    Core_Move best;
    int err = bot_search(pos, &lim, seed, &best, NULL);
    char text[CORE_NOTATION_MAX];
    if (err != 0 || an.failed ||
        core_move_format(pos, &best, text, sizeof text) != 0) {
        fprintf(stderr, _("tabula analyse: %s\n"),
                _(tb_strerror(err != 0 ? err : TB_E_NOMEM)));
        rc = CLI_EXIT_FAIL;
        goto done;
    }
    printf("bestmove %s\n", text);
    rc = CLI_EXIT_OK;
done:
    core_position_free(pos);
    free(moves);
    return rc;
}
