/*
 * line_cmd.c: the commands line mode answers by itself and the reading
 * of typed moves (see line_cmd.h). The legal moves are listed afresh
 * from the position for each command: line mode is read by a person or
 * a script a line at a time, so the cost does not matter and no caller
 * has to keep a list in step with its position.
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "entry.h"
#include "game_help.h"
#include "line_cmd.h"
#include "tb_error.h"
#include "tui_board.h"

void line_cmd_board(FILE *out, const Core_Position *pos, int side)
{
    Core_View v;
    char cell[TUI_CELL_W + 1];
    if (core_view(pos, &v) != 0) {
        char text[CORE_POSITION_TEXT_MAX];
        if (core_position_format(pos, text, sizeof text) == 0)
            fprintf(out, "%s\n", text);
        return;
    }
    if (side == CORE_BLACK)
        tui_view_turn(&v);
    int names = tui_view_names_in_cells(&v);
    for (int r = 0; r < v.rows; r++) {
        fprintf(out, "%3s", v.row_label[r]);
        for (int c = 0; c < v.cols; c++) {
            tui_cell_text(&v.cell[r][c], names, cell);
            fprintf(out, "%s", cell);
        }
        fprintf(out, "\n");
    }
    if (!names) {
        fprintf(out, "   ");
        for (int c = 0; c < v.cols; c++)
            fprintf(out, " %-3s", v.col_label[c]);
        fprintf(out, "\n");
    }
    const char *note = game_help_board_note(core_position_game(pos), &v);
    char status[sizeof v.status * 3];
    cli_core_said(v.status, v.said, v.nsaid, status, sizeof status);
    if (status[0] != '\0' || note[0] != '\0')
        fprintf(out, "%s%s%s\n", status, status[0] && note[0] ? " | " : "",
                note);
}

int line_cmd_local(FILE *out, const Core_Position *pos, int side,
                   const char *line, const char *commands)
{
    int board = strcmp(line, "board") == 0, moves = strcmp(line, "moves") == 0;
    if (!board && !moves && strcmp(line, "help") != 0 &&
        strcmp(line, "?") != 0)
        return 0;
    if (board) {
        line_cmd_board(out, pos, side);
        return 1;
    }
    Core_Move *mv = NULL;
    char(*texts)[CORE_NOTATION_MAX] = NULL;
    size_t n = 0;
    int rc = entry_legal(pos, &mv, &texts, &n);
    if (rc != 0) {
        fprintf(out, _("cannot list the moves: %s\n"), _(tb_strerror(rc)));
    } else if (moves) {
        for (size_t i = 0; i < n; i++)
            fprintf(out, "%s\n", texts[i]);
        if (n == 0)
            fprintf(out, _("no legal move: the game is over\n"));
    } else {
        char page[4096];
        game_help_text(core_position_game(pos),
                       (const char (*)[CORE_NOTATION_MAX])texts, n, page,
                       sizeof page);
        fprintf(out, _("%s\nLines: a move, or board, moves, help (or ?), "
                     "%s.\n"), page, commands);
    }
    free(mv);
    free(texts);
    return 1;
}

int line_cmd_move(const Core_Position *pos, const char *typed, char *canon,
                  size_t cap, char *why, size_t why_cap)
{
    int rc = entry_read(pos, typed, canon, cap, why, why_cap);
    if (rc == TB_E_AMBIGUOUS) {
        size_t at = strlen(why);
        snprintf(why + at, why_cap - at, "%s", _(" ('moves' lists them)"));
    }
    return rc;
}
