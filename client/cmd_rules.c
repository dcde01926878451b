/*
 * cmd_rules.c: `tabula rules GAME`: what a newcomer needs before the
 * first move of GAME: how each kind of move is typed, with examples that
 * are legal in the starting position, what the board's letters and
 * symbols mean, the keys of the board screen and where the full rules
 * are (game_help.h holds the texts).
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "cli.h"
#include "entry.h"
#include "game_help.h"
#include "line_cmd.h"
#include "tui.h"

static const char rules_help[] =
    N_("usage: tabula rules GAME [--letters]\n"
    "\n"
    "How to enter GAME's moves (examples from the starting position), what\n"
    "the letters and symbols on its board mean, the keys of the board\n"
    "screen, and where its full rules are. The same page is ? on the\n"
    "board screen and 'help' in line mode, there with examples from the\n"
    "position on the board.\n");

static const char keys_text[] =
    N_("\n"
    "Playing\n"
    "tabula play GAME plays a bot (tabula host GAME, join, spectate: a\n"
    "friend). On the board screen select squares with the arrows and\n"
    "Enter (or the mouse), or type a move; Tab completes it, Tab on an\n"
    "empty line lists the moves; ? shows this page and the keys; q quits.\n"
    "In line mode (--line, or no terminal) type a move per line, or\n"
    "board, moves, help.\n");

/* rules' one flag: the board's legend in letters (tui_figurines). */
const Cli_Flag cli_flags_rules[] = {{"--letters", CLI_SWITCH, 0},
                                    {NULL, CLI_SWITCH, 0}};

int cli_rules(int argc, char **argv)
{
    const Core_Game *g = NULL;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(_(rules_help), stdout);
            fputs(_(cli_letters_help), stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(argv[i], "--letters") == 0) {
            tui_letters(1);
            continue;
        }
        if (argv[i][0] == '-' || g != NULL)
            return cli_unexpected("rules", argv[i], _(rules_help));
        if ((g = cli_game("rules", argv[i])) == NULL)
            return CLI_EXIT_USAGE;
    }
    if (g == NULL) {
        fputs(_(rules_help), stderr);
        return CLI_EXIT_USAGE;
    }
    Core_Position *pos = cli_setup_position("rules", g, NULL, NULL, NULL, 0);
    Core_Move *moves = NULL;
    char(*texts)[CORE_NOTATION_MAX] = NULL;
    char page[16384];
    size_t n = 0;
    int rc = pos == NULL ? TB_E_NOMEM
                         : entry_legal(pos, &moves, &texts, &n);
    if (rc == 0) {
        /* docs/rules/ has one page per game family (volleyball10 is on
         * volleyball's). */
        char doc[32];
        const char *name = core_game_name(g);
        size_t k = strcspn(name, "0123456789");
        snprintf(doc, sizeof doc, "%.*s", (int)k, name);
        game_help_text_for(g, (const char (*)[CORE_NOTATION_MAX])texts, n,
                           tui_figurines() ? GAME_HELP_TERMINAL_FIGURINES
                                           : GAME_HELP_TERMINAL,
                           page, sizeof page);
        printf(_("%s%s\nThe full rules: docs/rules/%s.md\n"), page, _(keys_text),
               doc);
    } else if (pos != NULL) { /* else cli_setup_position said why */
        fprintf(stderr, "tabula rules: %s\n", _(tb_strerror(rc)));
    }
    free(moves);
    free(texts);
    core_position_free(pos);
    return rc == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}
