/*
 * line_cmd.h: line mode's own commands, the same in `tabula play` and
 * in host/join line mode: board, moves, help and ?, answered on the spot
 * from the position at hand; and reading a typed move the way entry.h
 * does, with a refusal that says what moves look like in the game and
 * names a legal one.
 */
#ifndef TABULA_LINE_CMD_H
#define TABULA_LINE_CMD_H

#include <stdio.h>

#include "core.h"

/*
 * line_cmd_board: print pos's board to out as side sees it (Black's
 * turned half round), each field's name in its cell where the labels do
 * not give it (Chessball), then the game's status line.
 */
void line_cmd_board(FILE *out, const Core_Position *pos, int side);

/*
 * line_cmd_local: when line is board, moves, help or ?, answer it on out
 * and return 1; else 0. board: as side sees it; moves: the legal moves
 * one per line, as `tabula moves` prints them; help: game_help_text,
 * then the line commands, the others named by commands (e.g. "resign,
 * takeback, quit").
 * Errors are told on out (none expected but TB_E_NOMEM).
 */
int line_cmd_local(FILE *out, const Core_Position *pos, int side,
                   const char *line, const char *commands);

/*
 * line_cmd_move: entry_read (the one reader of a typed move) for a
 * line-mode prompt: the same answers, and for several loose fits why
 * also says that 'moves' lists them.
 */
int line_cmd_move(const Core_Position *pos, const char *typed, char *canon,
                  size_t cap, char *why, size_t why_cap);

#endif /* TABULA_LINE_CMD_H */
