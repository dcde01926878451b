/*
 * cli_position.c: the position a command starts from (cli_setup_position):
 * a game's start or a given position, then the moves on the command line,
 * each read the way a player types it (line_cmd_move), so `tabula moves`,
 * `perft`, `analyse`, `render` and `rules` accept what the boards accept
 * and refuse a move with the same sentence.
 */
#include <stdio.h>

#include "i18n.h"
#include "cli.h"
#include "line_cmd.h"
#include "tb_error.h"

Core_Position *cli_setup_position(const char *cmd, const Core_Game *g,
                                  const char *options, const char *position,
                                  char **moves, int nmoves)
{
    Core_Position *pos = NULL;
    char why[256] = "";
    int rc = core_position_new(&pos, g, options);

    if (rc != 0) {
        fprintf(stderr, _("tabula %s: bad options '%s': %s\n"), cmd,
                cli_token(options ? options : ""), _(tb_strerror(rc)));
        return NULL;
    }
    if (position != NULL) {
        rc = core_position_parse(pos, position, why, sizeof why);
        if (rc != 0) {
            fprintf(stderr, _("tabula %s: bad position '%s': %s%s%s\n"), cmd,
                    cli_token(position), _(tb_strerror(rc)),
                    why[0] ? ": " : "", why);
            core_position_free(pos);
            return NULL;
        }
    }
    for (int i = 0; i < nmoves; i++) {
        char canon[CORE_NOTATION_MAX], hint[CORE_NOTATION_MAX + 320];
        Core_Move mv;
        /* Read as a player types it (line_cmd_move: canonical, or loose
         * with the action and piece letters left out). */
        rc = line_cmd_move(pos, moves[i], canon, sizeof canon, hint,
                           sizeof hint);
        if (rc == 0)
            rc = core_move_parse(pos, canon, &mv);
        if (rc == 0)
            rc = core_play(pos, &mv);
        if (rc != 0) {
            fprintf(stderr, _("tabula %s: move %d '%s': "), cmd, i + 1,
                    cli_token(moves[i]));
            if (rc == TB_E_OVER)
                fprintf(stderr, _("%s (%s: %s)"), _(tb_strerror(rc)),
                        core_outcome_name(core_status(pos).outcome),
                        cli_reason_words(
                            core_reason_name(core_status(pos).reason)));
            else if (hint[0] != '\0')
                fputs(hint, stderr);
            else
                fputs(_(tb_strerror(rc)), stderr);
            fprintf(stderr, "\n");
            core_position_free(pos);
            return NULL;
        }
    }
    return pos;
}
