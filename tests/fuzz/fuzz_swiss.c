/*
 * fuzz_swiss.c: libFuzzer target for Swiss pairing (club_swiss_pair) of a
 * tournament read from an untrusted TRF file, as `tabula tournament
 * swiss-pair` meets one: the input whole as a TRF; every round the file
 * has is paired again (its players without an opponent left out), and the
 * round after its last.
 * Properties: no crash or undefined behaviour; a pairing is refused only
 * as TB_E_STATE (no pairing keeps C1-C3); a pairing given puts every
 * player to pair on exactly one board or the bye, never two players who
 * played each other in an earlier round (C.1), and the bye never to one
 * who had a pairing-allocated bye or a forfeit win before (C.2). Each
 * property is checked here from the rules, not by the pairer's code.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "swiss.h"
#include "tb_error.h"
#include "tourney.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int played(int r)
{
    return r == CLUB_RES_WIN || r == CLUB_RES_WIN_TIEBREAK ||
           r == CLUB_RES_DRAW || r == CLUB_RES_LOSS_TIEBREAK ||
           r == CLUB_RES_LOSS;
}

static void check(const Club_Tourney *t, int round,
                  const unsigned char *absent, const Club_Swiss_Pairing *p)
{
    static unsigned char seen[CLUB_TOURNEY_MAX_PLAYERS + 1];
    memset(seen, 0, sizeof seen);
    for (int b = 0; b < p->nboards; b++) {
        int w = p->boards[b].white, k = p->boards[b].black;
        if (w < 1 || w > t->nplayers || k < 1 || k > t->nplayers ||
            seen[w]++ || seen[k]++)
            __builtin_trap();
        for (int r = 0; r < round - 1; r++) {
            const Club_Game *g = &t->players[w - 1].games[r];
            if (g->opponent == k && played(g->result))
                __builtin_trap();
        }
    }
    if (p->bye != 0) {
        if (p->bye < 1 || p->bye > t->nplayers || seen[p->bye]++)
            __builtin_trap();
        for (int r = 0; r < round - 1; r++) {
            int res = t->players[p->bye - 1].games[r].result;
            if (res == CLUB_RES_BYE_PAIRING || res == CLUB_RES_FORFEIT_WIN)
                __builtin_trap();
        }
    }
    for (int i = 0; i < t->nplayers; i++)
        if (seen[i + 1] != !absent[i])
            __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Club_Tourney *t;
    static Club_Swiss_Pairing p;
    static unsigned char absent[CLUB_TOURNEY_MAX_PLAYERS];
    Club_Trf_Error e;

    if (t == NULL && (t = club_tourney_new()) == NULL)
        __builtin_trap();
    if (club_trf_read(t, (const char *)data, size, &e) != 0)
        return 0;
    int rounds = t->nrounds < CLUB_TOURNEY_MAX_ROUNDS ? t->nrounds + 1
                                                      : t->nrounds;
    t->nrounds = rounds;
    for (int round = 1; round <= rounds; round++) {
        for (int i = 0; i < t->nplayers; i++) {
            const Club_Game *g = &t->players[i].games[round - 1];
            absent[i] = g->opponent == 0 &&
                        g->result != CLUB_RES_BYE_PAIRING &&
                        round < rounds;
        }
        int rc = club_swiss_pair(t, round, absent, CLUB_COLOUR_NONE, &p);
        if (rc == TB_E_STATE)
            continue;
        if (rc != 0)
            __builtin_trap();
        check(t, round, absent, &p);
    }
    return 0;
}
