/*
 * fuzz_trf.c: libFuzzer target for FIDE's Tournament Report File as an
 * imported file meets it (issue 38, club_trf_read): the input whole as a
 * TRF.
 * Properties: no crash or undefined behaviour; a refusal says why and
 * where (a line and column within the input); a tournament taken has
 * 1..CLUB_TOURNEY_MAX_PLAYERS players and at most CLUB_TOURNEY_MAX_ROUNDS
 * rounds, names without control bytes, every game seen the same way from
 * both sides (checked here from the format's rules, not by the reader's
 * code); its standings compute, its crosstable writes, and written back
 * as TRF it reads again to the same players and games.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tourney.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_taken(const Club_Tourney *t)
{
    if (t->nplayers < 1 || t->nplayers > CLUB_TOURNEY_MAX_PLAYERS ||
        t->nrounds < 0 || t->nrounds > CLUB_TOURNEY_MAX_ROUNDS)
        __builtin_trap();
    for (int i = 0; i < t->nplayers; i++) {
        const Club_Player *pl = &t->players[i];
        size_t n = strlen(pl->name);
        if (n == 0 || n > CLUB_NAME_MAX)
            __builtin_trap();
        for (size_t k = 0; k < n; k++)
            if ((unsigned char)pl->name[k] < 0x20 || pl->name[k] == 0x7f)
                __builtin_trap();
        for (int r = 0; r < t->nrounds; r++) {
            const Club_Game *g = &pl->games[r];
            if (g->opponent == 0) {
                if (g->colour != CLUB_COLOUR_NONE)
                    __builtin_trap();
                continue;
            }
            if (g->opponent > t->nplayers || g->opponent == i + 1)
                __builtin_trap();
            const Club_Game *o = &t->players[g->opponent - 1].games[r];
            int a = g->result, b = o->result;
            int wins = (a == CLUB_RES_WIN) + (b == CLUB_RES_WIN);
            int losses = (a == CLUB_RES_LOSS) + (b == CLUB_RES_LOSS);
            int ff = (a == CLUB_RES_FORFEIT_WIN) + (b == CLUB_RES_FORFEIT_WIN);
            int fl =
                (a == CLUB_RES_FORFEIT_LOSS) + (b == CLUB_RES_FORFEIT_LOSS);
            if (o->opponent != i + 1 || o->colour == g->colour ||
                wins != losses || ff != fl ||
                (a == CLUB_RES_DRAW) != (b == CLUB_RES_DRAW) ||
                (a == CLUB_RES_PENDING) != (b == CLUB_RES_PENDING))
                __builtin_trap();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Club_Tourney *t, *u;
    static Club_Standing s[CLUB_TOURNEY_MAX_PLAYERS];
    static char out[1 << 20];
    Club_Trf_Error e = {-1, -1, NULL};

    if (t == NULL) {
        t = club_tourney_new();
        u = club_tourney_new();
        if (t == NULL || u == NULL)
            __builtin_trap();
    }
    int rc = club_trf_read(t, (const char *)data, size, &e);
    if (rc != 0) {
        if (e.why == NULL || e.why[0] == '\0' || e.line < 0 ||
            (size_t)e.line > size + 1 || e.column < 0 || e.column > 1025)
            __builtin_trap();
        return 0;
    }
    check_taken(t);
    if (club_standings(t, 0, NULL, NULL, 0, s) != 0)
        __builtin_trap();
    if (t->nplayers <= 64 &&
        (club_crosstable_text(t, NULL, s, NULL, out, sizeof out) < 0 ||
         club_crosstable_html(t, NULL, s, NULL, out, sizeof out) < 0))
        __builtin_trap();
    int n = club_trf_write(t, s, out, sizeof out);
    if (n < 0 || club_trf_read(u, out, (size_t)n, &e) != 0 ||
        u->nplayers != t->nplayers || u->nrounds != t->nrounds)
        __builtin_trap();
    for (int i = 0; i < t->nplayers; i++)
        if (strcmp(u->players[i].name, t->players[i].name) != 0 ||
            u->players[i].rating != t->players[i].rating ||
            memcmp(u->players[i].games, t->players[i].games,
                   sizeof t->players[i].games) != 0)
            __builtin_trap();
    return 0;
}
