/*
 * fuzz_director.c: libFuzzer target for a tournament director's
 * documents as `tabula tournament` reads them from a folder (issue 38,
 * club_dir_read), built with TABULA_FUZZ_UNSIGNED so mutated documents
 * reach the fields' rules past the signature. The first byte picks the
 * document: a tournament; round 1's pairings of a fixed 6-player round
 * robin; or round 1's results after its fixed pairings.
 * Properties: no crash or undefined behaviour; a refusal names a line
 * within the input and a phrase; a document taken holds what the format
 * bounds (players 1..CLUB_DIR_MAX_PLAYERS with distinct keys and
 * withdrawals in range, late entries from round 2 on in a Swiss alone, a
 * lobby and a relay in their forms; each player at most once a round; a
 * declared forfeit on a played board only; a standing for every player),
 * and its standings compute.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "director.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char head[] =
    "tabula-pairings 1\ntournament "
    "abababababababababababababababababababababababababababababababab\n"
    "round 1\nboard 1 1 6\nboard 2 2 5\nboard 3 3 4\nsignature ";

static void fixed(Club_Dir *d)
{
    memset(d, 0, sizeof *d);
    memset(d->id, 0xab, sizeof d->id);
    strcpy(d->name, "Club");
    strcpy(d->game, "laska");
    d->system = CLUB_SYSTEM_RR;
    d->nplayers = 6;
    for (int i = 0; i < 6; i++)
        memset(d->players[i].key, 0x10 + i, PROTO_KEY_BYTES);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Club_Dir d;
    static Club_Tourney t;
    Club_Dir_Error err;
    int kind, rc;
    if (size < 1)
        return 0;
    kind = CLUB_DOC_TOURNAMENT + data[0] % 3;
    fixed(&d);
    if (kind == CLUB_DOC_RESULTS) {
        char p[sizeof head + 130];
        memcpy(p, head, sizeof head - 1);
        memset(p + sizeof head - 1, '0', 128);
        p[sizeof head - 1 + 128] = '\n';
        if (club_dir_read(&d, CLUB_DOC_PAIRINGS, (const uint8_t *)p,
                          sizeof head + 128, NULL) != 0)
            __builtin_trap();
    }
    rc = club_dir_read(&d, kind, data + 1, size - 1, &err);
    if (rc != 0) {
        if (err.why == NULL || err.line < 0 || (size_t)err.line > size)
            __builtin_trap();
        return 0;
    }
    if (d.nplayers < 0 || d.nplayers > CLUB_DIR_MAX_PLAYERS)
        __builtin_trap();
    for (int i = 0; i < d.nplayers; i++) {
        if (club_dir_find(&d, d.players[i].key) != i + 1 ||
            d.players[i].withdrawn < 0 ||
            d.players[i].withdrawn > CLUB_TOURNEY_MAX_ROUNDS ||
            d.players[i].entered == 1 || d.players[i].entered < 0 ||
            d.players[i].entered > CLUB_TOURNEY_MAX_ROUNDS ||
            (d.players[i].entered > 0 && d.system != CLUB_SYSTEM_SWISS) ||
            (d.players[i].bye_half && d.players[i].entered == 0))
            __builtin_trap();
    }
    if (!club_dir_lobby_ok(d.lobby, strlen(d.lobby)) && d.lobby[0] != '\0')
        __builtin_trap();
    if (!club_dir_relay_ok(d.relay, strlen(d.relay)) && d.relay[0] != '\0')
        __builtin_trap();
    for (int r = 0; r < d.npaired; r++) {
        int seen[CLUB_DIR_MAX_PLAYERS + 1] = {0};
        for (int b = 0; b < d.round[r].nboards; b++) {
            const Club_Dir_Board *x = &d.round[r].boards[b];
            if (x->white < 1 || x->white > d.nplayers || x->black < 0 ||
                x->black > d.nplayers || seen[x->white]++ ||
                (x->black > 0 && seen[x->black]++) || x->forfeit < 0 ||
                x->forfeit > CLUB_FORFEIT_NEITHER ||
                (x->forfeit != CLUB_FORFEIT_NONE &&
                 (!x->done || x->black == 0)))
                __builtin_trap();
        }
        if (d.round[r].has_results && d.round[r].nstandings != d.nplayers)
            __builtin_trap();
    }
    if (d.npaired > 0 && club_dir_tourney(&d, d.npaired, &t) == 0) {
        Club_Standing st[CLUB_DIR_MAX_PLAYERS];
        if (club_standings(&t, d.npaired, club_dir_points(&d), NULL, 0, st) !=
            0)
            __builtin_trap();
    }
    return 0;
}
