/*
 * test_director.c: a director's signed documents (club/director.h):
 * written and read back, a byte changed anywhere refused, hostile forms
 * refused with the line and why, the round robin's pairing through the
 * one pairing hook against FIDE's Berger table (typed from the Handbook
 * in docs/tournaments.md), Swiss refused until it lands, and results
 * mapped to standings worked out by hand.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "director.h"
#include "tb_error.h"

static Proto_Identity director, other;

/* A 6-player Laska round robin, 5+0, director's key from seed 1. */
static Club_Dir *six(void)
{
    uint8_t seed[PROTO_KEY_BYTES];
    Club_Dir *d = club_dir_new();
    cr_assert_not_null(d);
    cr_assert_eq(proto_init(), 0);
    memset(seed, 1, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&director, seed), 0);
    memset(seed, 2, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&other, seed), 0);
    memset(d->id, 0xab, sizeof d->id);
    strcpy(d->name, "Club Open");
    strcpy(d->game, "laska");
    strcpy(d->clock, "300+0");
    d->system = CLUB_SYSTEM_RR;
    memcpy(d->director, director.pk, PROTO_KEY_BYTES);
    d->nplayers = 6;
    for (int i = 0; i < 6; i++) {
        memset(d->players[i].key, 0x10 + i, PROTO_KEY_BYTES);
        if (i < 2)
            snprintf(d->players[i].name, sizeof d->players[i].name,
                     "Player %d", i + 1);
    }
    return d;
}

static char doc[CLUB_DIR_DOC_MAX];

static int write_doc(const Club_Dir *d, int kind, int round,
                     const Club_Standing *st)
{
    int n = club_dir_write(d, kind, round, st, &director, doc, sizeof doc);
    cr_assert_gt(n, 0, "%d", n);
    return n;
}

Test(director, the_tournament_document_reads_back)
{
    Club_Dir *d = six(), *e = club_dir_new();
    Club_Dir_Error err;
    int n = write_doc(d, CLUB_DOC_TOURNAMENT, 0, NULL);
    cr_assert(strncmp(doc, "tabula-tournament 1\nid abab", 27) == 0, "%s", doc);
    cr_assert_not_null(strstr(doc, "\nclock 300+0\nsystem rr\nrounds 0\n"));
    cr_assert_not_null(strstr(doc, "\nplayer 1010101010101010101010101010101"
                                   "010101010101010101010101010101010 Player 1\n"));
    cr_assert_eq(club_dir_read(e, CLUB_DOC_TOURNAMENT, (uint8_t *)doc,
                               (size_t)n, &err),
                 0, "%d: %s", err.line, err.why);
    cr_assert_eq(e->nplayers, 6);
    cr_assert_str_eq(e->players[0].name, "Player 1");
    cr_assert_str_eq(e->players[5].name, "");
    cr_assert_eq(memcmp(e->players[5].key, d->players[5].key, 32), 0);
    cr_assert_eq(club_dir_total_rounds(e), 5);
    club_dir_free(d);
    club_dir_free(e);
}

Test(director, every_changed_byte_is_refused)
{
    Club_Dir *d = six(), *e = club_dir_new();
    int n = write_doc(d, CLUB_DOC_TOURNAMENT, 0, NULL);
    for (int i = 0; i < n; i++) {
        char saved = doc[i];
        doc[i] = (char)(doc[i] == 'a' ? 'b' : doc[i] == '\n' ? ' ' : 'a');
        cr_assert_neq(club_dir_read(e, CLUB_DOC_TOURNAMENT, (uint8_t *)doc,
                                    (size_t)n, NULL),
                      0, "byte %d", i);
        doc[i] = saved;
    }
    /* a document signed by another key than the one it names */
    memcpy(d->director, other.pk, 32);
    cr_assert_eq(club_dir_write(d, CLUB_DOC_TOURNAMENT, 0, NULL, &director,
                                doc, sizeof doc),
                 TB_E_ARG);
    club_dir_free(d);
    club_dir_free(e);
}

/* Hostile documents: each refused at its line with its phrase. */
Test(director, hostile_forms_name_the_line)
{
    static const struct {
        const char *text;
        int rc, line;
        const char *why;
    } cases[] = {
        {"", TB_E_FORMAT, 1, "the document ends too soon"},
        {"tabula-tournament 1", TB_E_FORMAT, 1, "the last line has no newline"},
        {"tabula-pairings 1\n", TB_E_FORMAT, 1, "not this kind of document"},
        {"tabula-tournament 1\r\n", TB_E_FORMAT, 1, "a control character"},
        {"tabula-tournament 1\nid AB\n", TB_E_FORMAT, 2,
         "lowercase hex of the right length expected"},
        {"tabula-tournament 1\n\n", TB_E_FORMAT, 2, "an empty line"},
        {"tabula-tournament 1\nname x\n", TB_E_FORMAT, 2,
         "a line out of order or unknown"},
        {"tabula-tournament 1\nid  ab\n", TB_E_FORMAT, 2,
         "a blank out of place"},
    };
    Club_Dir *e = club_dir_new();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Club_Dir_Error err;
        int rc = club_dir_read(e, CLUB_DOC_TOURNAMENT,
                               (const uint8_t *)cases[i].text,
                               strlen(cases[i].text), &err);
        cr_assert_eq(rc, cases[i].rc, "case %zu: %d", i, rc);
        cr_assert_eq(err.line, cases[i].line, "case %zu: %d", i, err.line);
        cr_assert_str_eq(err.why, cases[i].why, "case %zu", i);
    }
    club_dir_free(e);
}

/* The fields of a signed document: made by replacing text in a good one
 * and signing it again, so only the form is wrong. */
static int resigned(const char *from, const char *to, Club_Dir_Error *err)
{
    Club_Dir *d = six(), *e = club_dir_new();
    int n = write_doc(d, CLUB_DOC_TOURNAMENT, 0, NULL);
    char body[CLUB_DIR_DOC_MAX], hex[2 * PROTO_SIG_BYTES + 1];
    uint8_t sig[PROTO_SIG_BYTES];
    char *s = strstr(doc, "signature "), *at;
    (void)n;
    *s = '\0';
    at = strstr(doc, from);
    cr_assert_not_null(at, "%s", from);
    snprintf(body, sizeof body, "%.*s%s%s", (int)(at - doc), doc, to,
             at + strlen(from));
    cr_assert_eq(proto_sign_document(&director, "tournament",
                                     (uint8_t *)body, strlen(body), sig),
                 0);
    proto_hex(sig, sizeof sig, hex);
    strcat(body, "signature ");
    strcat(body, hex);
    strcat(body, "\n");
    int rc = club_dir_read(e, CLUB_DOC_TOURNAMENT, (uint8_t *)body,
                           strlen(body), err);
    club_dir_free(d);
    club_dir_free(e);
    return rc;
}

#define P6 "1515151515151515151515151515151515151515151515151515151515151515"
Test(director, signed_but_malformed_fields_are_refused)
{
    Club_Dir_Error err;
    cr_assert_eq(resigned("rounds 0", "rounds 00", &err), TB_E_FORMAT);
    cr_assert_str_eq(err.why, "a number expected");
    cr_assert_eq(resigned("rounds 0", "rounds 41", &err), TB_E_FORMAT);
    cr_assert_str_eq(err.why, "a number out of range");
    cr_assert_eq(resigned("game laska", "game chess", &err), TB_E_FORMAT);
    cr_assert_str_eq(err.why, "not a game's name");
    cr_assert_eq(resigned("clock 300+0", "clock 0300+0", &err), TB_E_FORMAT);
    cr_assert_str_eq(err.why, "not a canonical clock");
    cr_assert_eq(resigned("system rr", "system swiss", &err), TB_E_FORMAT);
    cr_assert_str_eq(err.why, "a Swiss tournament needs its rounds");
    cr_assert_eq(resigned("name Club Open", "name Club  Open", &err),
                 TB_E_FORMAT);
    cr_assert_eq(resigned("1111111111111111111111111111111111111111111111111111"
                          "111111111111",
                          "1010101010101010101010101010101010101010101010101010"
                          "101010101010",
                          &err),
                 TB_E_FORMAT);
    cr_assert_str_eq(err.why, "a player registered twice");
    cr_assert_eq(resigned("Player 2\n", "Player 2\nwithdrawn 7 1\n", &err),
                 TB_E_FORMAT);
    cr_assert_eq(resigned("Player 2\n", "Player 2\nbogus 1\n", &err),
                 TB_E_FORMAT);
    cr_assert_eq(resigned(P6 "\n", P6 "\nwithdrawn 2 3\n", &err), 0, "%s",
                 err.why);
}

/* FIDE's table for 6 (docs/tournaments.md): Rd 2: 6-4, 5-3, 1-2. */
Test(director, a_round_robin_is_paired_by_berger_and_a_swiss_by_dutch)
{
    Club_Dir *d = six();
    Club_Dir_Board b[CLUB_DIR_MAX_BOARDS];
    int n = 0;
    cr_assert_eq(club_dir_pair(d, 2, b, &n), 0);
    cr_assert_eq(n, 3);
    cr_assert(b[0].white == 6 && b[0].black == 4);
    cr_assert(b[1].white == 5 && b[1].black == 3);
    cr_assert(b[2].white == 1 && b[2].black == 2);
    cr_assert_eq(club_dir_pair(d, 6, b, &n), TB_E_ARG);
    d->nplayers = 5; /* Rd 1 of 5: 1-bye 2-5 3-4 */
    cr_assert_eq(club_dir_pair(d, 1, b, &n), 0);
    cr_assert(b[0].white == 1 && b[0].black == 0);
    /* A Swiss of the five (FIDE's Dutch system, C.04.3): round 1 pairs the
     * top half {1, 2} with the bottom half {3, 4}, the lowest (5) has the
     * bye; rank 1 White (the director's initial colour), board 2's higher
     * ranked the other colour: 1-3, 4-2, 5 bye. Round 2 waits for round
     * 1's results. */
    d->system = CLUB_SYSTEM_SWISS;
    d->rounds = 3;
    cr_assert_eq(club_dir_pair(d, 1, b, &n), 0);
    cr_assert_eq(n, 3);
    cr_assert(b[0].white == 1 && b[0].black == 3, "%d-%d", b[0].white,
              b[0].black);
    cr_assert(b[1].white == 4 && b[1].black == 2, "%d-%d", b[1].white,
              b[1].black);
    cr_assert(b[2].white == 5 && b[2].black == 0);
    cr_assert_eq(club_dir_pair(d, 2, b, &n), TB_E_STATE);
    club_dir_free(d);
}

/* The standings after round 1 of d into t and st: each player's half
 * points are want[player]. */
static void round1_points(const Club_Dir *d, Club_Tourney *t, Club_Standing *st,
                          const int want[7])
{
    cr_assert_eq(club_dir_tourney(d, 1, t), 0);
    cr_assert_eq(club_standings(t, 1, club_dir_points(d), NULL, 0, st), 0);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(st[i].points, want[st[i].player], "player %d",
                     st[i].player);
}

/* Round 1 paired and played: 1-6 won by White, 2-5 drawn, 3-4 won by
 * Black. By hand: 1, 4 have 1 point (2 half points), 2, 5 1/2 (1), 3, 6
 * 0. The results document publishes them and reads back. */
Test(director, results_give_the_standings_worked_by_hand)
{
    Club_Dir *d = six(), *e = club_dir_new();
    Club_Tourney *t = club_tourney_new();
    Club_Standing st[6];
    int n = 0;
    cr_assert_eq(club_dir_pair(d, 1, d->round[0].boards, &n), 0);
    d->round[0].nboards = n;
    d->npaired = 1;
    unsigned half[3][2] = {{2, 0}, {1, 1}, {0, 2}};
    for (int b = 0; b < 3; b++) {
        d->round[0].boards[b].done = 1;
        d->round[0].boards[b].half[0] = half[b][0];
        d->round[0].boards[b].half[1] = half[b][1];
    }
    const int want[7] = {0, 2, 1, 0, 2, 1, 0};
    round1_points(d, t, st, want);
    cr_assert_eq(t->players[0].games[0].result, CLUB_RES_WIN);
    cr_assert_eq(t->players[3].games[0].result, CLUB_RES_WIN);
    cr_assert_eq(t->players[1].games[0].result, CLUB_RES_DRAW);

    /* documents: tournament, pairings, results, read in order */
    int len = write_doc(d, CLUB_DOC_TOURNAMENT, 0, NULL);
    cr_assert_eq(club_dir_read(e, CLUB_DOC_TOURNAMENT, (uint8_t *)doc,
                               (size_t)len, NULL),
                 0);
    len = write_doc(d, CLUB_DOC_PAIRINGS, 1, NULL);
    cr_assert_not_null(strstr(doc, "\nround 1\nboard 1 1 6\nboard 2 2 5\n"
                                   "board 3 3 4\nsignature "));
    /* results before the round is paired: another round */
    Club_Dir_Error err;
    cr_assert_eq(club_dir_read(e, CLUB_DOC_PAIRINGS, (uint8_t *)doc,
                               (size_t)len, &err),
                 0, "%d %s", err.line, err.why);
    /* the same pairings again: round 2's place, refused */
    cr_assert_eq(club_dir_read(e, CLUB_DOC_PAIRINGS, (uint8_t *)doc,
                               (size_t)len, &err),
                 TB_E_STATE);
    len = write_doc(d, CLUB_DOC_RESULTS, 1, st);
    cr_assert_not_null(strstr(doc, "\ngame 2 1 1 "));
    cr_assert_eq(club_dir_read(e, CLUB_DOC_RESULTS, (uint8_t *)doc,
                               (size_t)len, &err),
                 0, "%d %s", err.line, err.why);
    cr_assert_eq(e->round[0].nstandings, 6);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(e->round[0].standings[i].points, st[i].points);
    cr_assert_eq(e->round[0].boards[2].half[1], 2);
    /* a result no game gives (3 half points to one side in chess) */
    e->round[0].boards[0].half[0] = 3;
    cr_assert_eq(club_dir_tourney(e, 1, t), TB_E_FORMAT);
    club_tourney_free(t);
    club_dir_free(d);
    club_dir_free(e);
}

/* The optional lines (issue 38): the lobby and relay the tournament
 * names, late entries; each read back, and their hostile forms refused
 * (signed, so only the form is wrong). */
Test(director, lobby_relay_and_late_entries_read_back)
{
    Club_Dir *d = six(), *e = club_dir_new();
    Club_Dir_Error err;
    d->system = CLUB_SYSTEM_SWISS;
    d->rounds = 5;
    strcpy(d->lobby, "club.example:7470,[::1]:7471");
    strcpy(d->relay, "ABCD-EFGH-JKMN-PQRS");
    d->players[4].entered = 2;
    d->players[5].entered = 3;
    d->players[5].bye_half = 1;
    int n = write_doc(d, CLUB_DOC_TOURNAMENT, 0, NULL);
    cr_assert_not_null(strstr(doc, "\nlobby club.example:7470,[::1]:7471\n"
                                   "relay ABCD-EFGH-JKMN-PQRS\nplayer "));
    cr_assert_not_null(strstr(doc, "\nentered 5 2\nentered 6 3 half\n"
                                   "signature "));
    cr_assert_eq(
        club_dir_read(e, CLUB_DOC_TOURNAMENT, (uint8_t *)doc, (size_t)n, &err),
        0, "%d: %s", err.line, err.why);
    cr_assert_str_eq(e->lobby, d->lobby);
    cr_assert_str_eq(e->relay, d->relay);
    cr_assert(e->players[4].entered == 2 && !e->players[4].bye_half);
    cr_assert(e->players[5].entered == 3 && e->players[5].bye_half);
    cr_assert_eq(e->players[3].entered, 0);
    /* a late entrant is not paired before the entry round */
    Club_Dir_Board b[CLUB_DIR_MAX_BOARDS];
    cr_assert_eq(club_dir_pair(e, 1, b, &n), 0);
    cr_assert_eq(n, 2); /* four players: 1-3, 4-2 */
    for (int k = 0; k < n; k++)
        cr_assert(b[k].white <= 4 && b[k].black <= 4);
    club_dir_free(d);
    club_dir_free(e);

    /* hostile forms, each signed */
    cr_assert_eq(resigned("Player 2\n", "Player 2\nentered 6 2\n", &err),
                 TB_E_FORMAT); /* (out of order: players come first) */
    cr_assert_eq(resigned(P6 "\n", P6 "\nentered 6 2\n", &err), TB_E_FORMAT);
    cr_assert_str_eq(err.why, "a late entry in a round robin");
    cr_assert_eq(resigned(P6 "\n", P6 "\nentered 6 1\n", &err), TB_E_FORMAT);
    cr_assert_str_eq(err.why, "a number out of range");
    cr_assert_eq(resigned(P6 "\n", P6 "\nentered 6 2 full\n", &err),
                 TB_E_FORMAT);
    cr_assert_eq(resigned(P6 "\n", P6 "\nentered 7 2\n", &err), TB_E_FORMAT);
    cr_assert_eq(resigned(P6 "\n", P6 "\nwithdrawn 2 3\nentered 5 2\n", &err),
                 TB_E_FORMAT); /* (round robin) */
    static const char *const bad_lobby[] = {
        "lobby club.example", "lobby :7470", "lobby h:0",  "lobby h:65536",
        "lobby h:07470",      "lobby h:1,",  "lobby h/x:1"};
    char to[512];
    for (size_t k = 0; k < sizeof bad_lobby / sizeof bad_lobby[0]; k++) {
        snprintf(to, sizeof to, "%s\nplayer 1010", bad_lobby[k]);
        cr_assert_eq(resigned("player 1010", to, &err), TB_E_FORMAT, "%s",
                     bad_lobby[k]);
        cr_assert_str_eq(err.why, "not a lobby's HOST:PORT", "%s",
                         bad_lobby[k]);
    }
    cr_assert_eq(resigned("player 1010", "lobby h:1\nplayer 1010", &err), 0,
                 "%s", err.why);
    static const char *const bad_relay[] = {
        "relay abcd-efgh-jkmn-pqrs", "relay ABCD-EFGH-JKMN-PQRU",
        "relay ABCDEFGH-JKMN-PQRS-", "relay 00", "relay " P6 "0"};
    for (size_t k = 0; k < sizeof bad_relay / sizeof bad_relay[0]; k++) {
        snprintf(to, sizeof to, "%s\nplayer 1010", bad_relay[k]);
        cr_assert_eq(resigned("player 1010", to, &err), TB_E_FORMAT, "%s",
                     bad_relay[k]);
    }
    cr_assert_eq(resigned("player 1010", "relay " P6 "\nplayer 1010", &err), 0,
                 "%s", err.why);
    /* the relay before the lobby: out of order */
    cr_assert_eq(
        resigned("player 1010", "relay " P6 "\nlobby h:1\nplayer 1010", &err),
        TB_E_FORMAT);
}

/* Declared forfeits (FIDE: the one who came wins by forfeit, a win's
 * points; neither came: both lose, 0). Round 1 of six: 1-6 White wins
 * by forfeit, 2-5 neither came, 3-4 Black wins by forfeit. By hand: 1
 * and 4 have 2 half points, the others 0; TRF codes +, -, -, +, -, -. */
Test(director, declared_forfeits_give_the_standings_worked_by_hand)
{
    Club_Dir *d = six(), *e = club_dir_new();
    Club_Tourney *t = club_tourney_new();
    Club_Standing st[6];
    Club_Dir_Error err;
    int n = 0;
    cr_assert_eq(club_dir_pair(d, 1, d->round[0].boards, &n), 0);
    d->round[0].nboards = n;
    d->npaired = 1;
    int w[3] = {CLUB_FORFEIT_WHITE, CLUB_FORFEIT_NEITHER, CLUB_FORFEIT_BLACK};
    for (int b = 0; b < 3; b++) {
        d->round[0].boards[b].done = 1;
        d->round[0].boards[b].forfeit = w[b];
    }
    const int want[7] = {0, 2, 0, 0, 2, 0, 0};
    round1_points(d, t, st, want);
    int res[7] = {0,
                  CLUB_RES_FORFEIT_WIN,
                  CLUB_RES_FORFEIT_LOSS,
                  CLUB_RES_FORFEIT_LOSS,
                  CLUB_RES_FORFEIT_WIN,
                  CLUB_RES_FORFEIT_LOSS,
                  CLUB_RES_FORFEIT_LOSS};
    for (int p = 1; p <= 6; p++)
        cr_assert_eq(t->players[p - 1].games[0].result, res[p], "player %d", p);
    int len = write_doc(d, CLUB_DOC_TOURNAMENT, 0, NULL);
    cr_assert_eq(club_dir_read(e, CLUB_DOC_TOURNAMENT, (uint8_t *)doc,
                               (size_t)len, NULL),
                 0);
    len = write_doc(d, CLUB_DOC_PAIRINGS, 1, NULL);
    cr_assert_eq(
        club_dir_read(e, CLUB_DOC_PAIRINGS, (uint8_t *)doc, (size_t)len, NULL),
        0);
    len = write_doc(d, CLUB_DOC_RESULTS, 1, st);
    cr_assert_not_null(strstr(doc, "\nround 1\nforfeit 1 white\nforfeit 2 "
                                   "none\nforfeit 3 black\nstanding "));
    cr_assert_eq(
        club_dir_read(e, CLUB_DOC_RESULTS, (uint8_t *)doc, (size_t)len, &err),
        0, "%d %s", err.line, err.why);
    for (int b = 0; b < 3; b++)
        cr_assert(e->round[0].boards[b].done &&
                  e->round[0].boards[b].forfeit == w[b]);
    /* a winner no forfeit has, a forfeit twice on one board */
    char *at = strstr(doc, "forfeit 2 none");
    memcpy(at, "forfeit 2 both", 14);
    cr_assert_eq(
        club_dir_read(e, CLUB_DOC_RESULTS, (uint8_t *)doc, (size_t)len, &err),
        TB_E_FORMAT);
    cr_assert_eq(err.line, 5);
    memcpy(at, "forfeit 1 none", 14);
    cr_assert_eq(
        club_dir_read(e, CLUB_DOC_RESULTS, (uint8_t *)doc, (size_t)len, &err),
        TB_E_FORMAT);
    cr_assert_str_eq(err.why, "boards out of order");
    club_tourney_free(t);
    club_dir_free(d);
    club_dir_free(e);
}

/* The named relay: a log counts when every receipt is by it (named by
 * key or fingerprint), not when none or another relay's is there. */
Test(director, a_named_relay_takes_its_own_logs_only)
{
    Club_Dir *d = six();
    Club_Dir_Log lg;
    const char *why = NULL;
    memset(&lg, 0, sizeof lg);
    cr_assert(club_dir_log_relay_ok(d, &lg, &why)); /* (none named) */
    proto_hex(other.pk, PROTO_KEY_BYTES, d->relay);
    cr_assert(!club_dir_log_relay_ok(d, &lg, &why));
    cr_assert_str_eq(why, "no relay witnessed it");
    lg.nrelays = 1;
    memcpy(lg.relay[0], other.pk, PROTO_KEY_BYTES);
    cr_assert(club_dir_log_relay_ok(d, &lg, &why));
    proto_fingerprint(other.pk, d->relay);
    cr_assert(club_dir_log_relay_ok(d, &lg, &why));
    lg.nrelays = 2;
    memcpy(lg.relay[1], director.pk, PROTO_KEY_BYTES);
    cr_assert(!club_dir_log_relay_ok(d, &lg, &why));
    cr_assert_str_eq(why, "a receipt is by another relay than the "
                          "tournament's");
    club_dir_free(d);
}
