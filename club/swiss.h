/*
 * swiss.h: Swiss pairing by FIDE's Dutch system (FIDE Handbook C.04.3,
 * the 2017 text, "effective till 31 January 2026") for a tournament of
 * club/tourney.h, without I/O, without floating point and deterministic:
 * the same tournament and the same absences give the same boards on every
 * build. docs/tournaments.md ("Swiss: the Dutch system") says which rules
 * are applied, how, and where the result may differ from a program that
 * searches every candidate (bbpPairings, JaVaFo).
 *
 * Scores for pairing are chess points in half points whatever the game's
 * table (a win, a forfeit win, a full-point or pairing-allocated bye 2, a
 * draw or a half-point bye 1), as FIDE's rules count them.
 *
 * Errors are the negative TB_E_* codes of tb_error.h.
 */
#ifndef TABULA_CLUB_SWISS_H
#define TABULA_CLUB_SWISS_H

#include "tourney.h"

/* Boards of one round: every pair, then at most one pairing-allocated bye. */
typedef struct Club_Swiss_Pairing {
    int nboards;                                      /* pairs in boards */
    Club_Pairing boards[CLUB_TOURNEY_MAX_PLAYERS / 2]; /* White, Black */
    int bye; /* starting rank of the pairing-allocated bye, 0 for none */
} Club_Swiss_Pairing;

/*
 * club_swiss_pair: pairs round `round` (1-based, 1..t->nrounds, and at
 * most CLUB_TOURNEY_MAX_ROUNDS) of t by the Dutch system from the
 * results of rounds 1..round-1; entries of t from round `round` on are
 * not read, but for round 1's when initial_colour asks for it.
 *
 * absent: NULL, or t->nplayers bytes, absent[i] nonzero when the player
 * of starting rank i+1 is not to be paired this round (absent with or
 * without a bye the director gives, withdrawn, or not yet entered); a
 * late entry is a player whose earlier rounds are absences or byes.
 *
 * initial_colour: CLUB_COLOUR_WHITE or CLUB_COLOUR_BLACK, FIDE's
 * "initial-colour" drawn before round 1 (the colour of rank 1, or of the
 * higher ranked player of a pair in general, when that rank is odd);
 * CLUB_COLOUR_NONE reads it from round 1 (the higher ranked player of
 * its first played game, by starting rank) and takes White when round 1
 * has no played game.
 *
 * out gets the boards, ordered as FIDE's boards are: by the higher score
 * of the pair, then by the lower, then by the better ranked player; and
 * the bye. The players absent and the bye are not on a board.
 *
 * Returns 0; TB_E_ARG (NULL t or out, a round outside 1..t->nrounds, an
 * initial_colour not a CLUB_COLOUR_*); TB_E_STATE when no pairing exists
 * that keeps FIDE's absolute criteria (C1: nobody meets the same opponent
 * twice; C2: nobody who had a bye or a forfeit win gets the bye; C3: two
 * non-topscorers with the same absolute colour preference do not meet):
 * the rules leave that case to the arbiter; TB_E_NOMEM when memory is
 * short.
 */
int club_swiss_pair(const Club_Tourney *t, int round,
                    const unsigned char *absent, int initial_colour,
                    Club_Swiss_Pairing *out);

#endif /* TABULA_CLUB_SWISS_H */
