/*
 * entry.h: reading a move the way a player types it. The canonical text
 * (core_move_parse) is always accepted; besides it a typed move is
 * matched against the legal moves' texts with the action letter and the
 * piece letters left out ("d8-b6>a5" and "Qd8-b6>a5" both find Chess
 * volleyball's "T Qd8-b6>a5"), and taken when exactly one legal move
 * fits. Failing that, the same comparisons are made with letter case
 * folded, so "C3-D4" or "T QD8-B6>A5" is read as the one legal move it
 * names. Tab completion uses the same matching. Shared by the board
 * screens and line mode, local or networked.
 */
#ifndef TABULA_ENTRY_H
#define TABULA_ENTRY_H

#include <stddef.h>

#include "core.h"

/*
 * entry_loose: the loose form of a move's text into out (cap bytes): a
 * leading one-character action prefix and its space dropped ("T "), and
 * capital letters right before a small letter (piece letters) dropped.
 */
void entry_loose(const char *text, char *out, size_t cap);

/*
 * entry_find: the legal move (an index into legal[0..nlegal)) whose text
 * is typed, or, failing that, the only one whose loose form equals
 * typed's, or failing both the only one whose text, text without its
 * action, or loose form equals typed's loose form with letter case
 * folded (ASCII). Returns 0 and sets *index; TB_E_AMBIGUOUS when several fit
 * loosely (*index the first, *count how many); TB_E_ILLEGAL when none
 * does (*count 0). count may be NULL.
 */
int entry_find(const char (*legal)[CORE_NOTATION_MAX], size_t nlegal,
               const char *typed, size_t *index, size_t *count);

/*
 * entry_fits: 1 when legal move text could be what typed begins: its
 * text, or its loose form, starts with typed (loose forms compared; case
 * folded as a last resort). An
 * empty typed fits every move.
 */
int entry_fits(const char *text, const char *typed);

/*
 * entry_parse_error: the error to report for typed, a text that is no
 * legal move, given rc, core_move_parse's error for it in pos. A text
 * core reads as malformed only because of its letter case ("C3-D5",
 * "B2XD4", "T QD8-B6>A5") is a move written in capitals: when its small
 * letters form (all letters small, or only the squares' letters small)
 * parses, or is refused as illegal, that answer is returned (usually
 * TB_E_ILLEGAL: "not legal here"), so a capital illegal move is told the
 * same as the small one. Any other rc comes back unchanged.
 */
int entry_parse_error(const Core_Position *pos, const char *typed, int rc);

/*
 * entry_unquote: text (NUL-terminated, changed in place) without one
 * pair of double quotes around all of it, the way `tabula analyse` writes
 * a pv move that has spaces ("\"T Qd8-b6>a5\"" becomes "T Qd8-b6>a5"),
 * so a move copied from a pv is read at a board prompt too. Any other
 * text is left as it is. Returns text.
 */
char *entry_unquote(char *text);

/*
 * entry_legal: the legal moves of pos into *moves and their canonical
 * texts into *texts (both malloc'ed; the caller frees both, also after
 * an error), *n of them. Errors: TB_E_NOMEM, those of core_moves and
 * core_move_format.
 */
int entry_legal(const Core_Position *pos, Core_Move **moves,
                char (**texts)[CORE_NOTATION_MAX], size_t *n);

/*
 * entry_read: the one reader of a typed move, for every front end (the
 * terminal's line mode and board prompts, a network seat, the page):
 * typed is read as a move of pos (quotes of a pv move taken off; the
 * canonical text, else entry_find's loose fit) and its canonical text
 * goes into canon (cap bytes); 0 then. Otherwise the error (TB_E_NOTATION,
 * TB_E_ILLEGAL, TB_E_AMBIGUOUS, TB_E_OVER, TB_E_NOMEM) and in why
 * (why_cap bytes, in the language of _()) a sentence without the typed
 * text: the reason, how moves look in this game and one legal move, or
 * for several loose fits how many and the first of them.
 */
int entry_read(const Core_Position *pos, const char *typed, char *canon,
               size_t cap, char *why, size_t why_cap);

#endif /* TABULA_ENTRY_H */
