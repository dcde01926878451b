/*
 * test_trf.c: FIDE's TRF-16 (club_trf_read, club_trf_write): a file
 * typed by hand column by column from the format's table (C.04 Annex 2:
 * 001 lines, rank in 5-8, name 15-47, rating 49-52, points 81-84, rank
 * 86-89, round blocks from 92), a round trip of a whole double round
 * robin, and hostile files refused with the line and column at fault.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tb_error.h"
#include "tourney.h"

/*
 * Four players, three rounds (Berger 1-4 2-3 / 4-3 1-2 / 2-4 3-1):
 * R1 1-4 1-0, 2-3 1/2; R2 4-3 won by 4 by forfeit, 1-2 0-1; R3 2-4 1/2,
 * 3-1 0-1. Points: 1 2, 2 2, 3 0.5, 4 1.5. Opponents written right
 * aligned with blanks, a name in UTF-8 (33 bytes with its padding), a
 * comment, CRLF line ends.
 */
static const char hand[] =
    "012 Club championship\r\n"
    "### a comment: anything ### here\r\n"
    "XXR 3\r\n"
    "001    1 m    Novak, Jan                        2100 CZE    12345678 "
    "1990/01/01  2.0    1     4 w 1     2 w 0     3 b 1\r\n"
    "001    2 m    Svoboda, Petr                     1950 CZE            "
    "             2.0    2     3 w =     1 b 1     4 w =\r\n"
    "001    3 m    Dvo\xc5\x99\xc3\xa1k, Karel                        CZE  "
    "                       0.5    4     2 b =     4 b -     1 w 0\r\n"
    "001    4 wWFM Ivanova, Olga                     1800 CZE            "
    "             1.5    3     1 b 0     3 w +     2 b =\r\n";

Test(trf, reads_a_hand_written_file)
{
    Club_Tourney *t = club_tourney_new();
    Club_Trf_Error e;
    cr_assert_eq(club_trf_read(t, hand, strlen(hand), &e), 0, "%d:%d %s",
                 e.line, e.column, e.why);
    cr_assert_str_eq(t->name, "Club championship");
    cr_assert_eq(t->nplayers, 4);
    cr_assert_eq(t->nrounds, 3);
    cr_assert_str_eq(t->players[0].name, "Novak, Jan");
    cr_assert_str_eq(t->players[2].name, "Dvo\xc5\x99\xc3\xa1k, Karel");
    cr_assert_eq(t->players[0].rating, 2100);
    cr_assert_eq(t->players[2].rating, 0);
    const Club_Game *g = &t->players[3].games[1];
    cr_assert_eq(g->opponent, 3);
    cr_assert_eq(g->colour, CLUB_COLOUR_WHITE);
    cr_assert_eq(g->result, CLUB_RES_FORFEIT_WIN);
    cr_assert_eq(t->players[2].games[1].result, CLUB_RES_FORFEIT_LOSS);
    cr_assert_eq(t->players[1].games[0].result, CLUB_RES_DRAW);
    cr_assert_eq(t->players[0].games[2].colour, CLUB_COLOUR_BLACK);
    Club_Standing s[4];
    cr_assert_eq(club_standings(t, 0, NULL, NULL, 0, s), 0);
    /* 1 and 2 on 2 points: 2 beat 1 in round 2 (direct encounter) */
    int want_player[4] = {2, 1, 4, 3}, want_points[4] = {4, 4, 3, 1};
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(s[i].player, want_player[i]);
        cr_assert_eq(s[i].points, want_points[i]);
    }
    club_tourney_free(t);
}

/* A double round robin of seven (a bye each round), results by a fixed
 * pattern, one withdrawal: written, read, written again. */
Test(trf, round_trip)
{
    Club_Tourney *t = club_tourney_new(), *u = club_tourney_new();
    static const char *const names[] = {
        "Anna",  "Boris", "\xd0\x92\xd0\xb0\xd0\xbd\xd1\x8f", "Dana", "Emil",
        "Filip", "Gita"};
    static const Club_Result pattern[] = {CLUB_RES_WIN, CLUB_RES_DRAW,
                                          CLUB_RES_LOSS};
    snprintf(t->name, sizeof t->name, "Round trip");
    for (int i = 0; i < 7; i++)
        cr_assert_eq(club_tourney_add_player(t, names[i], 1500 + 10 * i),
                     i + 1);
    cr_assert_eq(club_tourney_round_robin(t, 1), 0);
    cr_assert_eq(t->nrounds, 14);
    for (int r = 1; r <= 10; r++)
        for (int p = 1; p <= 7; p++)
            if (t->players[p - 1].games[r - 1].colour == CLUB_COLOUR_WHITE)
                cr_assert_eq(
                    club_tourney_set_result(t, r, p, pattern[(r + p) % 3]), 0);
    cr_assert_eq(club_tourney_withdraw(t, 6, 11), 0);
    Club_Standing s[7];
    cr_assert_eq(club_standings(t, 0, NULL, NULL, 0, s), 0);
    static char a[8192], b[8192];
    int la = club_trf_write(t, s, a, sizeof a);
    cr_assert_gt(la, 0);
    Club_Trf_Error e;
    cr_assert_eq(club_trf_read(u, a, (size_t)la, &e), 0, "%d:%d %s", e.line,
                 e.column, e.why);
    cr_assert_str_eq(u->name, t->name);
    cr_assert_eq(u->nplayers, 7);
    cr_assert_eq(u->nrounds, 14);
    for (int i = 0; i < 7; i++) {
        cr_assert_str_eq(u->players[i].name, t->players[i].name);
        cr_assert_eq(u->players[i].rating, t->players[i].rating);
        cr_assert_eq(memcmp(u->players[i].games, t->players[i].games,
                            sizeof t->players[i].games),
                     0, "player %d", i + 1);
    }
    Club_Standing s2[7];
    cr_assert_eq(club_standings(u, 0, NULL, NULL, 0, s2), 0);
    cr_assert_eq(memcmp(s, s2, sizeof s), 0);
    int lb = club_trf_write(u, s2, b, sizeof b);
    cr_assert_eq(la, lb);
    cr_assert_eq(memcmp(a, b, (size_t)la), 0);
    /* the layout: player 1's line, its first round block at column 92 */
    const char *l1 = strstr(a, "\r\n001    1 ");
    cr_assert_not_null(l1);
    l1 += 2;
    cr_assert_eq(memcmp(l1 + 14, "Anna ", 5), 0);
    cr_assert_eq(memcmp(l1 + 48, "1500", 4), 0);
    cr_assert_eq(memcmp(l1 + 89, "  0000 - U", 10), 0); /* round 1: bye */
    cr_assert_eq(club_trf_write(t, s, a, 100), TB_E_SPACE);
    club_tourney_free(t);
    club_tourney_free(u);
}

struct bad {
    const char *what; /* the file's change */
    const char *text;
    int rc, line, column;
};

/* A 001 line to column 57 (name A or B, federation in 54-56), then its
 * blank FIDE number and birth date, points 0.0 in 81-84, rank 1 in 89. */
#define P1 "001    1 m    A                                      CZE "
#define P2 "001    2 m    B                                      CZE "
#define PAD "                        0.0    1"

Test(trf, refuses_hostile_files_where_they_fail)
{
    static const struct bad bad[] = {
        {"fine", P1 PAD "     2 w 1\n" P2 PAD "     1 b 0\n", 0, 0, 0},
        {"blanks at the end",
         P1 PAD "     2 w 1    \n" P2 PAD "     1 b 0           \n", 0, 0, 0},
        {"colour twice", P1 PAD "     2 w 1\n" P2 PAD "     1 w 0\n",
         TB_E_FORMAT, 1, 97},
        {"results disagree", P1 PAD "     2 w 1\n" P2 PAD "     1 b 1\n",
         TB_E_FORMAT, 1, 99},
        {"unknown code", P1 PAD "     2 w Q\n" P2 PAD "     1 b 0\n",
         TB_E_FORMAT, 1, 99},
        {"opponent names another", P1 PAD "     2 w 1\n" P2 PAD "  0000 - U\n",
         TB_E_FORMAT, 1, 92},
        {"no such opponent", P1 PAD "     3 w 1\n" P2 PAD "  0000 - U\n",
         TB_E_FORMAT, 1, 92},
        {"self", P1 PAD "     1 w 1\n", TB_E_FORMAT, 1, 92},
        {"rank twice", "\n" P1 PAD "\n" P1 PAD "\n", TB_E_FORMAT, 3, 5},
        {"rank gap", P2 PAD "\n", TB_E_FORMAT, 0, 0},
        {"control byte", P1 "\x1b[2J" PAD "\n", TB_E_FORMAT, 1, 58},
        {"bad UTF-8", "001    1 m    \xc3\x28" PAD "\n", TB_E_FORMAT, 1, 15},
        {"result, no opponent", P1 PAD "  0000 - 1\n", TB_E_FORMAT, 1, 99},
        {"letters in the rank", "001   1x m    A\n", TB_E_FORMAT, 1, 8},
        {"no name", "001    1 m   \n", TB_E_FORMAT, 1, 15},
        {"points", P1 "                        2.3    1\n", TB_E_FORMAT, 1, 84},
        {"XXR", "XXR 41\n" P1 PAD "\n", TB_E_FORMAT, 1, 6},
        {"past XXR", "XXR 1\n" P1 PAD "  0000 - U  0000 - H\n", TB_E_FORMAT, 2,
         102},
        {"no players", "012 Empty\r\n", TB_E_FORMAT, 0, 0},
        {"two byes", P1 PAD "  0000 - U\n" P2 PAD "  0000 - U\n", TB_E_FORMAT,
         2, 99},
        {"012 without its blank", "012\xd9\x95jjj\n" P1 PAD "\n", TB_E_FORMAT,
         1, 4},
        {"block not blank", P1 PAD "x    2 w 1\n", TB_E_FORMAT, 1, 90},
    };
    Club_Tourney *t = club_tourney_new();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Club_Trf_Error e = {-1, -1, NULL};
        int rc = club_trf_read(t, bad[i].text, strlen(bad[i].text), &e);
        cr_assert_eq(rc, bad[i].rc, "%s: %d (%d:%d %s)", bad[i].what, rc,
                     e.line, e.column, e.why);
        if (rc != 0) {
            cr_assert_eq(e.line, bad[i].line, "%s: line %d", bad[i].what,
                         e.line);
            cr_assert_eq(e.column, bad[i].column, "%s: column %d (%s)",
                         bad[i].what, e.column, e.why);
            cr_assert_not_null(e.why);
        }
    }
    /* a line over 1024 bytes */
    static char big[2048];
    memset(big, ' ', sizeof big - 1);
    memcpy(big, "###", 3);
    Club_Trf_Error e;
    cr_assert_eq(club_trf_read(t, big, strlen(big), &e), TB_E_LIMIT);
    cr_assert_eq(e.line, 1);
    cr_assert_eq(e.column, 1025);
    club_tourney_free(t);
}

/* Blanks after a line's last round add no round; a paired game without
 * its result (a blank after the colour) stays pending. */
Test(trf, trailing_blanks_and_pending_games)
{
    static const char text[] = P1 PAD "     2 w 1  0002 b  \n" P2 PAD
                                      "     1 b 0  0001 w            \n";
    Club_Tourney *t = club_tourney_new();
    Club_Trf_Error e;
    cr_assert_eq(club_trf_read(t, text, strlen(text), &e), 0, "%d:%d %s",
                 e.line, e.column, e.why);
    cr_assert_eq(t->nrounds, 2);
    cr_assert_eq(t->players[0].games[1].result, CLUB_RES_PENDING);
    cr_assert_eq(t->players[1].games[1].result, CLUB_RES_PENDING);
    cr_assert_eq(t->players[1].games[1].colour, CLUB_COLOUR_WHITE);
    club_tourney_free(t);
}

/* A name with a bidi or invisible control is refused (the trial of
 * 2026-12-07: U+202E turned the rest of a crosstable row around), as a
 * control character is; the character's own bytes by hand. */
Test(trf, a_name_with_a_bidi_control_is_refused)
{
    Club_Tourney *t = club_tourney_new();
    cr_assert_not_null(t);
    cr_assert_eq(club_tourney_add_player(t, "Ann \xe2\x80\xae" "nnA", 0),
                 TB_E_ARG);
    cr_assert_eq(club_tourney_add_player(t, "Ann\xe2\x81\xa6", 0), TB_E_ARG);
    cr_assert_eq(club_tourney_add_player(t, "Ann\xe2\x80\x8b", 0), TB_E_ARG);
    cr_assert_eq(club_tourney_add_player(t, "Anna \xc5\xa0", 0), 1);
    club_tourney_free(t);
}
