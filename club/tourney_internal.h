/*
 * tourney_internal.h: what the club layer's tournament files share and
 * nobody else includes: the text check of names, the mirror of a
 * result and the writer of texts into caller memory.
 */
#ifndef TABULA_CLUB_TOURNEY_INTERNAL_H
#define TABULA_CLUB_TOURNEY_INTERNAL_H

#include <stddef.h>

/* The offset of the first byte of s (len bytes) that is not well-formed
 * UTF-8 or starts a control character (C0, DEL, C1), or len when there
 * is none: a text the tables may print. */
size_t club__text_bad(const char *s, size_t len);

/* A text being written into caller memory: out[0..size), len bytes so
 * far (NUL-terminated while it fits); full once anything did not fit. */
typedef struct Club_Out {
    char *out;
    size_t size, len;
    int full;
} Club_Out;

/* Appends printf-style text; on overflow keeps a NUL-terminated prefix
 * and sets full. */
void club__put(Club_Out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends n bytes of s. */
void club__putn(Club_Out *o, const char *s, size_t n);

/* The writer's result: the length, or TB_E_SPACE when it was full. */
int club__out_end(const Club_Out *o);

/* The result the opponent has when the player has r (a Club_Result);
 * 0 when r is not a game's result (a bye, an absence). */
int club__mirror(int r);

/* 1 when r is the result of a game played over the board. */
int club__played(int r);

#endif /* TABULA_CLUB_TOURNEY_INTERNAL_H */
