/*
 * tourney.c: a tournament's players and rounds: the Berger tables of a
 * round robin, the table points of each result, recording results and
 * withdrawals (club/tourney.h). No I/O, no floating point.
 */
#include <stdlib.h>
#include <string.h>

#include "tb_error.h"
#include "tourney.h"
#include "tourney_internal.h"

const Club_Points club_points_chess = {
    .win = 2,
    .win_tiebreak = 2,
    .draw = 1,
    .loss_tiebreak = 0,
    .loss = 0,
    .forfeit_win = 2,
    .forfeit_loss = 0,
    .bye_full = 2,
    .bye_half = 1,
    .bye_pairing = 2,
    .absent = 0,
};

/* The seed's table: 3 for 2-0, 2 for 2-1, 1 to the 2-1 loser (half
 * points of the table, so doubled): the game's own table points
 * (core_table_points, G-VB-10) by result; test_standings.c holds the two
 * to one policy. */
const Club_Points club_points_volleyball = {
    .win = 6,
    .win_tiebreak = 4,
    .draw = 3,
    .loss_tiebreak = 2,
    .loss = 0,
    .forfeit_win = 6,
    .forfeit_loss = 0,
    .bye_full = 6,
    .bye_half = 3,
    .bye_pairing = 6,
    .absent = 0,
};

int club_result_points(const Club_Points *p, Club_Result r)
{
    switch (r) {
    case CLUB_RES_WIN:
        return p->win;
    case CLUB_RES_WIN_TIEBREAK:
        return p->win_tiebreak;
    case CLUB_RES_DRAW:
        return p->draw;
    case CLUB_RES_LOSS_TIEBREAK:
        return p->loss_tiebreak;
    case CLUB_RES_LOSS:
        return p->loss;
    case CLUB_RES_FORFEIT_WIN:
        return p->forfeit_win;
    case CLUB_RES_FORFEIT_LOSS:
        return p->forfeit_loss;
    case CLUB_RES_BYE_FULL:
        return p->bye_full;
    case CLUB_RES_BYE_HALF:
        return p->bye_half;
    case CLUB_RES_BYE_PAIRING:
        return p->bye_pairing;
    case CLUB_RES_ABSENT:
        return p->absent;
    case CLUB_RES_PENDING:
        return 0;
    }
    return 0;
}

int club_berger_rounds(int nplayers, int double_rr)
{
    if (nplayers < CLUB_BERGER_MIN || nplayers > CLUB_BERGER_MAX)
        return TB_E_ARG;
    int even = nplayers + (nplayers & 1);
    return (even - 1) * (double_rr ? 2 : 1);
}

/*
 * The tables by rotation: the N-1 movable numbers stand in a row, the
 * highest number N (or the dummy) fixed at the end; board b pairs the
 * row's b-th place with its (N-1-b)-th, board 1 with N. From one round
 * to the next every movable number advances by N/2 (mod N-1), which is
 * how FIDE's tables step (round 2 of 6 players: 6-4 5-3 1-2). N has
 * Black in odd rounds and White in even ones; on the other boards the
 * left of the row has White.
 */
int club_berger_round(int nplayers, int double_rr, int round, Club_Pairing *out,
                      int *count)
{
    int rounds = club_berger_rounds(nplayers, double_rr);
    if (rounds < 0 || out == NULL || count == NULL || round < 1 ||
        round > rounds)
        return TB_E_ARG;
    int n = nplayers + (nplayers & 1);
    int cycle = n - 1;
    int swap = round > cycle;
    int r = swap ? round - cycle : round;
    int row[CLUB_BERGER_MAX];
    for (int k = 0; k < cycle; k++)
        row[k] = (k + (r - 1) * (n / 2)) % cycle + 1;
    row[cycle] = n;
    for (int b = 0; b < n / 2; b++) {
        int a = row[b], c = row[cycle - b];
        if (b == 0 && r % 2 == 0) {
            int tmp = a;
            a = c;
            c = tmp;
        }
        if (swap) {
            int tmp = a;
            a = c;
            c = tmp;
        }
        out[b].white = a > nplayers ? 0 : a;
        out[b].black = c > nplayers ? 0 : c;
    }
    *count = n / 2;
    return 0;
}

Club_Tourney *club_tourney_new(void)
{
    return calloc(1, sizeof(Club_Tourney));
}

void club_tourney_free(Club_Tourney *t)
{
    free(t);
}

size_t club__text_bad(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned c = u[i];
        if (c < 0x20 || c == 0x7f)
            return i;
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned min;
        if (c >= 0xc2 && c <= 0xdf) {
            need = 1;
            min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            need = 2;
            min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            need = 3;
            min = 0x10000;
        } else {
            return i;
        }
        if (len - i <= need)
            return i;
        unsigned cp = c & (0x3fu >> need);
        for (size_t k = 1; k <= need; k++) {
            if ((u[i + k] & 0xc0) != 0x80)
                return i;
            cp = cp << 6 | (u[i + k] & 0x3fu);
        }
        /* (and the invisible and bidi controls: a name must not turn the
         * rest of its row around on a terminal, the trial of 2026-12-07;
         * signed display names refuse them too, proto/name.c) */
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
            (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c ||
            (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
            (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff)
            return i;
        i += need + 1;
    }
    return len;
}

int club_tourney_add_player(Club_Tourney *t, const char *name, int rating)
{
    if (t == NULL || name == NULL || rating < 0 || rating > 9999)
        return TB_E_ARG;
    size_t len = strlen(name);
    if (len == 0 || len > CLUB_NAME_MAX || club__text_bad(name, len) != len)
        return TB_E_ARG;
    if (t->nplayers >= CLUB_TOURNEY_MAX_PLAYERS)
        return TB_E_LIMIT;
    Club_Player *pl = &t->players[t->nplayers];
    memset(pl, 0, sizeof *pl);
    memcpy(pl->name, name, len + 1);
    pl->rating = rating;
    return ++t->nplayers;
}

int club_tourney_round_robin(Club_Tourney *t, int double_rr)
{
    if (t == NULL)
        return TB_E_ARG;
    int rounds = club_berger_rounds(t->nplayers, double_rr);
    if (rounds < 0)
        return rounds;
    for (int i = 0; i < t->nplayers; i++)
        memset(t->players[i].games, 0, sizeof t->players[i].games);
    for (int r = 1; r <= rounds; r++) {
        Club_Pairing b[CLUB_BERGER_MAX / 2];
        int nb = 0;
        club_berger_round(t->nplayers, double_rr, r, b, &nb);
        for (int k = 0; k < nb; k++) {
            int w = b[k].white, bl = b[k].black;
            if (w == 0 || bl == 0) {
                Club_Game *g = &t->players[(w ? w : bl) - 1].games[r - 1];
                g->opponent = 0;
                g->colour = CLUB_COLOUR_NONE;
                g->result = CLUB_RES_BYE_PAIRING;
                continue;
            }
            Club_Game *gw = &t->players[w - 1].games[r - 1];
            Club_Game *gb = &t->players[bl - 1].games[r - 1];
            gw->opponent = (uint16_t)bl;
            gw->colour = CLUB_COLOUR_WHITE;
            gw->result = CLUB_RES_PENDING;
            gb->opponent = (uint16_t)w;
            gb->colour = CLUB_COLOUR_BLACK;
            gb->result = CLUB_RES_PENDING;
        }
    }
    t->nrounds = rounds;
    return 0;
}

int club__played(int r)
{
    return r == CLUB_RES_WIN || r == CLUB_RES_WIN_TIEBREAK ||
           r == CLUB_RES_DRAW || r == CLUB_RES_LOSS_TIEBREAK ||
           r == CLUB_RES_LOSS;
}

int club__mirror(int r)
{
    switch (r) {
    case CLUB_RES_WIN:
        return CLUB_RES_LOSS;
    case CLUB_RES_LOSS:
        return CLUB_RES_WIN;
    case CLUB_RES_WIN_TIEBREAK:
        return CLUB_RES_LOSS_TIEBREAK;
    case CLUB_RES_LOSS_TIEBREAK:
        return CLUB_RES_WIN_TIEBREAK;
    case CLUB_RES_DRAW:
        return CLUB_RES_DRAW;
    case CLUB_RES_FORFEIT_WIN:
        return CLUB_RES_FORFEIT_LOSS;
    case CLUB_RES_FORFEIT_LOSS:
        return CLUB_RES_FORFEIT_WIN;
    case CLUB_RES_PENDING:
        return CLUB_RES_PENDING;
    }
    return 0;
}

int club_tourney_set_result(Club_Tourney *t, int round, int player,
                            Club_Result r)
{
    if (t == NULL || round < 1 || round > t->nrounds || player < 1 ||
        player > t->nplayers || r == CLUB_RES_PENDING || club__mirror(r) == 0)
        return TB_E_ARG;
    Club_Game *g = &t->players[player - 1].games[round - 1];
    if (g->opponent == 0)
        return TB_E_STATE;
    Club_Game *o = &t->players[g->opponent - 1].games[round - 1];
    g->result = (uint8_t)r;
    o->result = (uint8_t)club__mirror(r);
    return 0;
}

int club_tourney_withdraw(Club_Tourney *t, int player, int from)
{
    if (t == NULL || player < 1 || player > t->nplayers || from < 1 ||
        from > t->nrounds)
        return TB_E_ARG;
    for (int r = from; r <= t->nrounds; r++) {
        Club_Game *g = &t->players[player - 1].games[r - 1];
        if (g->opponent == 0) {
            if (g->result == CLUB_RES_BYE_PAIRING)
                g->result = CLUB_RES_ABSENT;
            continue;
        }
        if (g->result == CLUB_RES_PENDING)
            club_tourney_set_result(t, r, player, CLUB_RES_FORFEIT_LOSS);
    }
    return 0;
}
