/*
 * play.c: `tabula play GAME`, a local game against a bot (or two bots, or
 * two people at one keyboard) with no network. On a terminal it opens the
 * full-screen board; otherwise it is line mode: moves are read from
 * standard input one per line, and every ply is printed, so the command
 * can be scripted.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "cli.h"
#include "i18n.h"
#include "line_cmd.h"
#include "match.h"
#include "proto.h"
#include "session.h"
#include "tui.h"

static const char play_help_head[] = N_(
    "usage: tabula play GAME [--bot [LEVEL]] [--as white|black|both|none]\n"
    "                   [--seed S] [--position POS] [--options OPTS]\n"
    "                   [--line]\n"
    "\n"
    "Plays GAME locally. By default you play White against a level 2 bot.\n"
    "  --bot [LEVEL]   the bot's level, 1 (weakest) to 8 (also --bot=LEVEL,\n"
    "                  --level LEVEL). Measured Elo over level 1\n"
    "                  (docs/engines.md; '-': not measured yet):\n"
    "                    level            2     3     4     5     6     7     "
    "8\n");

_Static_assert(BOT_LEVEL_PLAY == 2, "play_help_head names the default level");
_Static_assert(BOT_LEVEL_MIN == 1 && BOT_LEVEL_MAX == 8,
               "play_help_head names the levels");

static const char play_help_tail[] =
    N_("  --as SIDE       the side(s) you play; 'none' lets two bots play\n"
       "  --seed S        the bots' tie-breaking seed (same seed, same game)\n"
       "  --position POS  start from this position string (docs/rules/)\n"
       "  --options OPTS  match options, e.g. goals=3\n"
       "  --line          line mode even on a terminal\n"
       "On a terminal: select squares with the arrows and Enter (or the\n"
       "mouse), or type a move; ? shows the keys. In line mode each line of\n"
       "standard input is a move or a command (resign, takeback, board,\n"
       "moves, quit); each ply is printed as 'ply N SIDE MOVE', and the end\n"
       "as 'result: R (REASON)' and 'final-hash: HEX'. Line mode exits 1\n"
       "when a line was refused or left unplayed at the end, 0 otherwise.\n");

/* Elo of each level over level 1, the sums along docs/engines.md's
 * "Levels" chain (400 games a row, each level against the one below at
 * the levels' own budgets); 0: not measured. Rows under the head's
 * column line, the same in every language (game names are arguments). */
static const struct {
    const char *game;
    int elo[BOT_LEVEL_MAX - 1]; /* levels 2..BOT_LEVEL_MAX */
} level_elo[] = {
    {"laska", {276, 712, 1026, 1218, 1385, 1577, 1777}},
    {"chessball", {182, 264, 357, 424, 495, 547, 586}},
    {"football", {116, 165, 217, 262, 269, 266, 263}},
    {"volleyball", {494, 685, 787, 938, 1055, 1196, 1304}},
    {"volleyball10", {413, 595, 779, 922, 1069, 1177, 1318}},
};

/* The whole help: head, the table of levels, tail. */
static void play_help(FILE *f)
{
    fputs(_(play_help_head), f);
    for (size_t g = 0; g < sizeof level_elo / sizeof level_elo[0]; g++) {
        fprintf(f, "                    %-12s", level_elo[g].game);
        for (int l = 2; l <= BOT_LEVEL_MAX; l++) {
            int e = level_elo[g].elo[l - 2];
            if (e != 0)
                fprintf(f, " %+5d", e);
            else
                fprintf(f, " %5s", "-");
        }
        fputc('\n', f);
    }
    fputs(_(play_help_tail), f);
    fputs(_(cli_letters_help), f);
}

static const char *side_name(int side)
{
    return side == CORE_WHITE ? "white" : "black";
}

static void print_end(const Session *s)
{
    uint8_t hash[PROTO_HASH_BYTES];
    char hex[PROTO_HASH_HEX];
    Core_Status st = session_status(s);
    printf("result: %s (%s)\n", core_outcome_name(st.outcome),
           st.outcome == CORE_ONGOING ? "unfinished"
                                      : core_reason_name(st.reason));
    if (proto_state_hash(s->pos, hash) == 0) {
        proto_hex(hash, sizeof hash, hex);
        printf("final-hash: %s\n", hex);
    }
}

/* The non-empty lines a script's input still holds once the game is
 * over, read and counted, not played. It never waits: the input is read
 * without blocking, so a program that keeps the pipe open is not waited
 * for (and a terminal is not read at all). */
static size_t lines_left(void)
{
    char line[CORE_INPUT_MAX + 2];
    size_t n = 0;
    int fl = isatty(0) ? -1 : fcntl(0, F_GETFL);
    if (fl < 0 || fcntl(0, F_SETFL, fl | O_NONBLOCK) < 0)
        return 0;
    while (fgets(line, sizeof line, stdin) != NULL)
        n += line[strspn(line, " \t\r\n")] != '\0';
    clearerr(stdin);
    fcntl(0, F_SETFL, fl);
    return n;
}

/* Returns CLI_EXIT_FAIL when a line was refused or left unread after the
 * end (a script learns that not every move it sent was played),
 * CLI_EXIT_OK otherwise. */
static int line_mode(Session *s)
{
    char line[CORE_INPUT_MAX + 2];
    int refused = 0;
    unsigned count = 0; /* of a takeback */
    int takeback;

    for (;;) {
        fflush(stdout);
        if (session_status(s).outcome != CORE_ONGOING) {
            size_t left = lines_left();
            if (left > 0) {
                fprintf(stderr,
                        ngettext("tabula play: the game is over; %zu more "
                                 "line was not played\n",
                                 "tabula play: the game is over; %zu more "
                                 "lines were not played\n",
                                 (unsigned long)left),
                        left);
                refused = 1;
            }
            break;
        }
        int side = core_side_to_move(s->pos);
        if (s->player[side] == SESSION_BOT) {
            char text[CORE_NOTATION_MAX];
            int rc = session_bot_move(s, text, sizeof text);
            if (rc != 0) {
                fprintf(stderr, _("tabula play: bot: %s\n"), _(tb_strerror(rc)));
                return CLI_EXIT_FAIL;
            }
            printf("ply %zu %s %s\n", s->nplayed, side_name(side), text);
            continue;
        }
        if (fgets(line, sizeof line, stdin) == NULL)
            break;
        size_t n = strlen(line);
        if (n > 0 && line[n - 1] != '\n' && !feof(stdin)) {
            int c;
            while ((c = getchar()) != '\n' && c != EOF)
                ;
            fprintf(stderr, _("tabula play: line too long; ignored\n"));
            refused = 1;
            continue;
        }
        char *in = cli_trim(line); /* as a seat's lines are */
        if (*in == '\0')
            continue;
        if (strcmp(in, "quit") == 0)
            break;
        /* The board is drawn for the one side a person plays (the
         * side to move when both are). */
        int view = s->player[CORE_WHITE] == s->player[CORE_BLACK]
                       ? side
                   : s->player[CORE_BLACK] == SESSION_HUMAN ? CORE_BLACK
                                                            : CORE_WHITE;
        if (line_cmd_local(stdout, s->pos, view, in,
                           "takeback [N], resign, quit")) {
        } else if (strcmp(in, "resign") == 0) {
            session_resign(s, side);
        } else if ((takeback = match_parse_takeback(in, &count)) != 0) {
            size_t plies = count > 0 ? count : session_takeback_plies(s);
            if (takeback < 0) {
                fprintf(stderr, "tabula play: '%s': %s\n", cli_token(in),
                        _("a takeback is of 1 to 255 plies"));
                refused = 1;
            } else if (plies == 0 || session_takeback(s, plies) != 0) {
                fprintf(stderr, _("tabula play: nothing to take back\n"));
                refused = 1;
            } else {
                printf("takeback %zu\n", plies);
            }
        } else if (match_conduct_line(in)) { /* draw, claim win, ... */
            fprintf(stderr, "tabula play: '%s': %s\n", cli_token(in),
                    _("not a command of a game on this device (these are "
                      "resign and takeback [N])"));
            refused = 1;
        } else {
            char canon[CORE_NOTATION_MAX], why[CORE_NOTATION_MAX + 160];
            int rc = line_cmd_move(s->pos, in, canon, sizeof canon, why,
                                   sizeof why);
            if (rc == 0)
                rc = session_play_text(s, canon);
            else
                fprintf(stderr, "tabula play: '%s': %s\n", cli_token(in),
                        why);
            if (rc != 0) {
                refused = 1;
                continue;
            }
            printf("ply %zu %s %s\n", s->nplayed, side_name(side),
                   s->last_text);
        }
    }
    print_end(s);
    return refused ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* play's flags (--bot and --level: cli_bot_arg). */
enum {
    PLAY_FLAG_LINE,
    PLAY_FLAG_LETTERS,
    PLAY_FLAG_AS,
    PLAY_FLAG_SEED,
    PLAY_FLAG_POSITION,
    PLAY_FLAG_OPTIONS
};
const Cli_Flag cli_flags_play[] = {{"--line", CLI_SWITCH, PLAY_FLAG_LINE},
                                   {"--letters", CLI_SWITCH, PLAY_FLAG_LETTERS},
                                   {"--as", CLI_VALUE, PLAY_FLAG_AS},
                                   {"--seed", CLI_VALUE, PLAY_FLAG_SEED},
                                   {"--position", CLI_VALUE, PLAY_FLAG_POSITION},
                                   {"--options", CLI_VALUE, PLAY_FLAG_OPTIONS},
                                   {NULL, CLI_SWITCH, 0}};

int cli_play(int argc, char **argv)
{
    const Core_Game *g = NULL;
    const char *as = "white", *options = NULL, *position = NULL;
    int level = BOT_LEVEL_PLAY, force_line = 0;
    uint64_t seed = 1;

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int bot;
        if (cli_is_help(a)) {
            play_help(stdout);
            return CLI_EXIT_OK;
        } else if ((bot = cli_bot_arg("play", argc, argv, &i, 2, &level)) !=
                   0) {
            if (bot < 0)
                return CLI_EXIT_USAGE;
            continue;
        }
        const char *v;
        switch (cli_arg("play", cli_flags_play, argc, argv, &i, NULL, &v)) {
        case PLAY_FLAG_LINE:
            force_line = 1;
            break;
        case PLAY_FLAG_LETTERS:
            tui_letters(1);
            break;
        case PLAY_FLAG_AS:
            as = v;
            break;
        case PLAY_FLAG_SEED:
            if (cli_seed("play", v, &seed) != 0)
                return CLI_EXIT_USAGE;
            break;
        case PLAY_FLAG_POSITION:
            position = v;
            break;
        case PLAY_FLAG_OPTIONS:
            options = v;
            break;
        case CLI_ARG_WORD:
            if (g == NULL) {
                if ((g = cli_game("play", a)) == NULL)
                    return CLI_EXIT_USAGE;
                break;
            }
            /* fall through */
        case CLI_ARG_UNKNOWN:
            cli_unexpected("play", a, "");
            play_help(stderr);
            return CLI_EXIT_USAGE;
        default: /* "needs a value", without the help, as elsewhere */
            return CLI_EXIT_USAGE;
        }
    }
    if (g == NULL) {
        play_help(stderr);
        return CLI_EXIT_USAGE;
    }
    int human[2];
    if (strcmp(as, "white") == 0)
        human[0] = 1, human[1] = 0;
    else if (strcmp(as, "black") == 0)
        human[0] = 0, human[1] = 1;
    else if (strcmp(as, "both") == 0)
        human[0] = 1, human[1] = 1;
    else if (strcmp(as, "none") == 0)
        human[0] = 0, human[1] = 0;
    else {
        fprintf(stderr, _("tabula play: bad side '%s'; expected white, black, "
                        "both or none\n"), cli_token(as));
        return CLI_EXIT_USAGE;
    }
    if (options != NULL && cli_options_check("play", g, options, options) != 0)
        return CLI_EXIT_USAGE;
    if (proto_init() != 0) {
        fprintf(stderr, _("tabula play: cannot initialise libsodium\n"));
        return CLI_EXIT_FAIL;
    }
    Session s;
    char why[256] = "";
    int rc = session_init(&s, g, options, position, why, sizeof why);
    if (rc != 0) {
        fprintf(stderr, "tabula play: %s%s%s\n", _(tb_strerror(rc)),
                why[0] ? ": " : "", why);
        return CLI_EXIT_USAGE;
    }
    for (int side = 0; side < 2; side++) {
        s.player[side] = human[side] ? SESSION_HUMAN : SESSION_BOT;
        s.bot_level[side] = level;
    }
    s.seed = seed;
    if (!force_line && tui_terminal_ok()) {
        char names[2][32];
        for (int side = 0; side < 2; side++) {
            if (human[side])
                snprintf(names[side], sizeof names[side], _("you"));
            else
                snprintf(names[side], sizeof names[side], _("bot (level %d)"),
                         level);
        }
        rc = tui_play(&s, names[0], names[1]);
        if (rc == 0)
            print_end(&s);
        else
            fprintf(stderr, "tabula play: %s\n", _(tb_strerror(rc)));
        session_free(&s);
        return rc == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    }
    rc = line_mode(&s);
    session_free(&s);
    return rc;
}
