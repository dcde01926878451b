/*
 * tourney_standings.c: points and FIDE's tie-breaks (club/tourney.h
 * club_standings): Buchholz, Buchholz cut 1, Sonneborn-Berger and the
 * direct encounter, unplayed games counted by FIDE's "virtual opponent"
 * rule (docs/tournaments.md), all in integers of half points.
 */
#include <stdio.h>
#include <string.h>

#include "tb_error.h"
#include "tourney.h"
#include "tourney_internal.h"

const Club_Tiebreak club_tb_default[CLUB_TB_DEFAULT_COUNT] = {
    CLUB_TB_DIRECT, CLUB_TB_BUCHHOLZ_CUT1, CLUB_TB_BUCHHOLZ, CLUB_TB_SONNEBORN};

/* The player's actual score over rounds 1..n (half points). */
static int score(const Club_Tourney *t, const Club_Points *p, int player, int n)
{
    int s = 0;
    for (int r = 0; r < n; r++)
        s += club_result_points(p, t->players[player - 1].games[r].result);
    return s;
}

/* The opponent's score as the tie-breaks see it: each unplayed game
 * (forfeits, byes, absences) counted as drawn (FIDE C.02 13.16.5, "all
 * unplayed games in which players are indirectly involved ... are
 * considered to have been drawn"); pending games count nothing. */
static int adjusted(const Club_Tourney *t, const Club_Points *p, int player,
                    int n)
{
    int s = 0;
    for (int r = 0; r < n; r++) {
        int res = t->players[player - 1].games[r].result;
        if (club__played(res))
            s += club_result_points(p, res);
        else if (res != CLUB_RES_PENDING)
            s += p->draw;
    }
    return s;
}

/* Buchholz, its cut 1 and Sonneborn-Berger of one player after n rounds.
 * A round the player did not play is a game against a virtual opponent
 * who had the player's score before that round, the other result in it,
 * and draws every later round: Svon = SPR + (1 - SfPR) + 0.5 (n - R),
 * in half points win - SfPR and draw for 1 and 0.5. */
static void buchholz(const Club_Tourney *t, const Club_Points *p, int player,
                     int n, Club_Standing *st)
{
    int bh = 0, low = 0, counted = 0, sb = 0, before = 0;
    for (int r = 1; r <= n; r++) {
        const Club_Game *g = &t->players[player - 1].games[r - 1];
        int mine = club_result_points(p, (Club_Result)g->result);
        int value;
        if (g->result == CLUB_RES_PENDING) {
            continue;
        } else if (club__played(g->result)) {
            value = adjusted(t, p, g->opponent, n);
        } else {
            value = before + (p->win - mine) + p->draw * (n - r);
        }
        before += mine;
        bh += value;
        sb += mine * value;
        if (counted == 0 || value < low)
            low = value;
        counted++;
    }
    st->buchholz = bh;
    st->buchholz_cut1 = counted > 0 ? bh - low : 0;
    st->sonneborn = sb;
}

/* Direct encounter among the players idx[a..b]: the points each scored
 * against the others, when every pair of them met (a game played or
 * forfeited in rounds 1..n); else 0 for all, which separates nobody. */
static void direct(const Club_Tourney *t, const Club_Points *p, int n,
                   const int *idx, int a, int b, int *value)
{
    for (int i = a; i <= b; i++)
        value[i] = 0;
    for (int i = a; i <= b; i++) {
        for (int j = a; j <= b; j++) {
            if (i == j)
                continue;
            int met = 0, pts = 0;
            for (int r = 0; r < n; r++) {
                const Club_Game *g = &t->players[idx[i] - 1].games[r];
                if (g->opponent != idx[j] || g->result == CLUB_RES_PENDING)
                    continue;
                met = 1;
                pts += club_result_points(p, (Club_Result)g->result);
            }
            if (!met) {
                for (int k = a; k <= b; k++)
                    value[k] = 0;
                return;
            }
            value[i] += pts;
        }
    }
}

int club_standings(const Club_Tourney *t, int rounds, const Club_Points *p,
                   const Club_Tiebreak *order, int norder, Club_Standing *out)
{
    if (t == NULL || out == NULL || rounds < 0 || rounds > t->nrounds ||
        norder < 0)
        return TB_E_ARG;
    if (p == NULL)
        p = &club_points_chess;
    if (order == NULL) {
        order = club_tb_default;
        norder = CLUB_TB_DEFAULT_COUNT;
    }
    for (int k = 0; k < norder; k++)
        if (order[k] < CLUB_TB_DIRECT || order[k] > CLUB_TB_SONNEBORN)
            return TB_E_ARG;
    int n = rounds == 0 ? t->nrounds : rounds;
    int np = t->nplayers;
    int idx[CLUB_TOURNEY_MAX_PLAYERS], value[CLUB_TOURNEY_MAX_PLAYERS];
    unsigned char tied[CLUB_TOURNEY_MAX_PLAYERS]; /* with the next place */

    for (int i = 0; i < np; i++) {
        Club_Standing *st = &out[i];
        memset(st, 0, sizeof *st);
        st->player = i + 1;
        st->points = score(t, p, i + 1, n);
        buchholz(t, p, i + 1, n, st);
    }
    /* Points first; insertion sort keeps the starting rank among equals. */
    for (int i = 0; i < np; i++) {
        int j = i;
        while (j > 0 && out[j - 1].points < out[i].points)
            j--;
        Club_Standing keep = out[i];
        memmove(&out[j + 1], &out[j], (size_t)(i - j) * sizeof *out);
        out[j] = keep;
    }
    for (int i = 0; i + 1 < np; i++)
        tied[i] = out[i].points == out[i + 1].points;
    for (int k = 0; k < norder; k++) {
        for (int a = 0; a < np;) {
            int b = a;
            while (b + 1 < np && tied[b])
                b++;
            if (b > a) {
                for (int i = a; i <= b; i++)
                    idx[i] = out[i].player;
                if (order[k] == CLUB_TB_DIRECT) {
                    direct(t, p, n, idx, a, b, value);
                    for (int i = a; i <= b; i++)
                        out[i].direct = value[i];
                }
                for (int i = a; i <= b; i++) {
                    switch (order[k]) {
                    case CLUB_TB_DIRECT:
                        value[i] = out[i].direct;
                        break;
                    case CLUB_TB_BUCHHOLZ:
                        value[i] = out[i].buchholz;
                        break;
                    case CLUB_TB_BUCHHOLZ_CUT1:
                        value[i] = out[i].buchholz_cut1;
                        break;
                    case CLUB_TB_SONNEBORN:
                        value[i] = out[i].sonneborn;
                        break;
                    }
                }
                /* stable insertion sort of the run, best value first */
                for (int i = a + 1; i <= b; i++) {
                    Club_Standing keep = out[i];
                    int v = value[i];
                    int j = i;
                    while (j > a && value[j - 1] < v) {
                        out[j] = out[j - 1];
                        value[j] = value[j - 1];
                        j--;
                    }
                    out[j] = keep;
                    value[j] = v;
                }
                for (int i = a; i < b; i++)
                    tied[i] = value[i] == value[i + 1];
            }
            a = b + 1;
        }
    }
    for (int i = 0; i < np; i++)
        out[i].rank = i > 0 && tied[i - 1] ? out[i - 1].rank : i + 1;
    return 0;
}

int club_format_points(int h, char *buf, size_t size)
{
    unsigned m = h < 0 ? 0u - (unsigned)h : (unsigned)h;
    int len = snprintf(buf, size, "%s%u%s", h < 0 ? "-" : "", m / 2,
                       m % 2 ? ".5" : "");
    if (len < 0 || (size_t)len >= size)
        return TB_E_SPACE;
    return len;
}
