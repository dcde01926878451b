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
 * line_cmd_is_conduct: 1 when line is one of a network seat's conduct
 * commands (resign, draw, accept, decline, abort, takeback [N], claim
 * win|draw: docs/usage.md), which the seat takes at any time and sends
 * when they may be; 0 otherwise (a move, or something else).
 */
int line_cmd_is_conduct(const char *line);

/*
 * line_cmd_move: the canonical text of the legal move typed means
 * (core_move_parse, else entry_find) into canon (cap bytes); 0 then.
 * Otherwise the error (TB_E_NOTATION, TB_E_ILLEGAL, TB_E_AMBIGUOUS,
 * TB_E_OVER, TB_E_NOMEM) and in why (why_cap bytes) a sentence without
 * the typed text: the reason, how moves look in this game and one legal
 * move, or for several loose fits the first of them.
 */
int line_cmd_move(const Core_Position *pos, const char *typed, char *canon,
                  size_t cap, char *why, size_t why_cap);

/*
 * line_cmd_legal: the legal moves of pos into *moves and their canonical
 * texts into *texts (both malloc'ed; the caller frees both, also after
 * an error), *n of them. Errors: TB_E_NOMEM, those of core_moves and
 * core_move_format.
 */
int line_cmd_legal(const Core_Position *pos, Core_Move **moves,
                   char (**texts)[CORE_NOTATION_MAX], size_t *n);

#endif /* TABULA_LINE_CMD_H */
