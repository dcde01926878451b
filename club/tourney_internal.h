/*
 * tourney_internal.h: what the club layer's tournament files share and
 * nobody else includes: the text check of names and the mirror of a
 * result.
 */
#ifndef TABULA_CLUB_TOURNEY_INTERNAL_H
#define TABULA_CLUB_TOURNEY_INTERNAL_H

#include <stddef.h>

/* 1 when s (len bytes) is well-formed UTF-8 without control characters
 * (C0, DEL, C1): a name the text and HTML tables may print. */
int club__text_ok(const char *s, size_t len);

/* The result the opponent has when the player has r (a Club_Result);
 * 0 when r is not a game's result (a bye, an absence). */
int club__mirror(int r);

/* 1 when r is the result of a game played over the board. */
int club__played(int r);

#endif /* TABULA_CLUB_TOURNEY_INTERNAL_H */
