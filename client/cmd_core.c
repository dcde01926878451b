/*
 * cmd_core.c: the rules commands: `tabula perft` and `tabula moves`.
 * Both set a position up from the start (or a position string) and print
 * plain lines that scripts can read.
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "cli.h"

static const char perft_help[] =
    N_("usage: tabula perft GAME DEPTH [--position POS] [--options OPTS]\n"
    "\n"
    "Counts the move sequences of exactly D moves for D = 1..DEPTH (at most\n"
    "30) and prints 'perft D N' for each, then 'total nodes N seconds S nps R'.\n"
    "A sequence ends where the game ends, draws by rule included (repetition,\n"
    "the move rule, the ply cap: docs/rules/), as in play.\n"
    "  --position POS   start from this position string (docs/rules/)\n"
    "  --options OPTS   match options, e.g. goals=3\n");

static const char moves_help[] =
    N_("usage: tabula moves GAME [--position POS] [--options OPTS] [MOVE ...]\n"
    "\n"
    "Applies the moves from the start (or POS) and prints every legal move,\n"
    "one per line, in the game's canonical order. A finished game prints\n"
    "no moves and gives 'result: R (REASON)' on standard error.\n"
    "A bad move or position exits with status 2.\n");

/* Parse the shared flags; the rest stay in pos_args. Returns 0 or an exit
 * status. */
typedef struct Core_Args {
    const char *options;
    const char *position;
    int npos;
    char **pos_args;
} Core_Args;

/* The flags of perft and moves. */
enum { CORE_FLAG_POSITION, CORE_FLAG_OPTIONS };
static const Cli_Flag core_flags[] = {
    {"--position", CLI_VALUE, CORE_FLAG_POSITION},
    {"--options", CLI_VALUE, CORE_FLAG_OPTIONS},
    {NULL, CLI_SWITCH, 0}};

static int parse_args(const char *cmd, const char *help, int argc,
                      char **argv, Core_Args *a)
{
    a->options = NULL;
    a->position = NULL;
    a->npos = 0;
    a->pos_args = calloc((size_t)argc + 1, sizeof *a->pos_args);
    if (a->pos_args == NULL)
        return CLI_EXIT_FAIL;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(help, stdout);
            return -1;
        } else if (strcmp(argv[i], "--") == 0) {
            while (++i < argc)
                a->pos_args[a->npos++] = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            const char *v;
            switch (cli_arg(cmd, core_flags, argc, argv, &i, NULL, &v)) {
            case CORE_FLAG_POSITION:
                a->position = v;
                break;
            case CORE_FLAG_OPTIONS:
                a->options = v;
                break;
            case CLI_ARG_UNKNOWN:
                fprintf(stderr, _("tabula %s: unknown flag '%s'\n"), cmd,
                        cli_token(argv[i]));
                fputs(help, stderr);
                return CLI_EXIT_USAGE;
            default: /* needs a value */
                return CLI_EXIT_USAGE;
            }
        } else {
            a->pos_args[a->npos++] = argv[i];
        }
    }
    return 0;
}

int cli_perft(int argc, char **argv)
{
    Core_Args a;
    int rc = parse_args("perft", _(perft_help), argc, argv, &a);
    Core_Position *pos = NULL;
    uint64_t total = 0;
    unsigned long depth;

    if (rc != 0)
        goto done;
    rc = CLI_EXIT_USAGE;
    if (a.npos > 2) {
        fprintf(stderr, _("tabula perft: unexpected argument '%s'\n"),
                cli_token(a.pos_args[2]));
        goto done;
    }
    if (a.npos != 2) {
        fputs(_(perft_help), stderr);
        goto done;
    }
    const Core_Game *g = cli_game("perft", a.pos_args[0]);
    if (g == NULL)
        goto done;
    uint64_t d64 = 0;
    if (cli_uint(a.pos_args[1], 1, 30, &d64) != 0) {
        fprintf(stderr, _("tabula perft: bad depth '%s'; expected 1..30\n"),
                cli_token(a.pos_args[1]));
        goto done;
    }
    depth = (unsigned long)d64;
    pos = cli_setup_position("perft", g, a.options, a.position, NULL, 0);
    if (pos == NULL)
        goto done;
    double t0 = cli_now();
    for (unsigned d = 1; d <= depth; d++) {
        uint64_t n = 0;
        int err = core_perft(pos, d, &n);
        if (err != 0) {
            fprintf(stderr, _("tabula perft: %s\n"), _(tb_strerror(err)));
            rc = CLI_EXIT_FAIL;
            goto done;
        }
        total += n;
        printf("perft %u %llu\n", d, (unsigned long long)n);
        fflush(stdout);
    }
    double secs = cli_now() - t0;
    printf("total nodes %llu seconds %.3f nps %.0f\n",
           (unsigned long long)total, secs,
           secs > 0 ? (double)total / secs : 0.0);
    rc = CLI_EXIT_OK;
done:
    core_position_free(pos);
    free(a.pos_args);
    return rc < 0 ? CLI_EXIT_OK : rc;
}

int cli_moves(int argc, char **argv)
{
    Core_Args a;
    int rc = parse_args("moves", _(moves_help), argc, argv, &a);
    Core_Position *pos = NULL;
    Core_Move *buf = NULL;

    if (rc != 0)
        goto done;
    rc = CLI_EXIT_USAGE;
    if (a.npos < 1) {
        fputs(_(moves_help), stderr);
        goto done;
    }
    const Core_Game *g = cli_game("moves", a.pos_args[0]);
    if (g == NULL)
        goto done;
    pos = cli_setup_position("moves", g, a.options, a.position,
                             a.pos_args + 1, a.npos - 1);
    if (pos == NULL)
        goto done;
    if (cli_report_over(pos)) {
        rc = CLI_EXIT_OK;
        goto done;
    }
    size_t cap = core_game_max_moves(g), n = 0;
    buf = malloc(cap * sizeof *buf);
    if (buf == NULL || core_moves(pos, buf, cap, &n) != 0) {
        fprintf(stderr, _("tabula moves: cannot list moves\n"));
        rc = CLI_EXIT_FAIL;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        char text[CORE_NOTATION_MAX];
        if (core_move_format(pos, &buf[i], text, sizeof text) != 0) {
            fprintf(stderr, _("tabula moves: cannot format a move\n"));
            rc = CLI_EXIT_FAIL;
            goto done;
        }
        puts(text);
    }
    if (n == 0)
        cli_report_over(pos);
    rc = CLI_EXIT_OK;
done:
    free(buf);
    core_position_free(pos);
    free(a.pos_args);
    return rc < 0 ? CLI_EXIT_OK : rc;
}
