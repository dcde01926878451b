/*
 * cmd_tournament.c: `tabula tournament`, a director's tools over the
 * club layer's tournament core (club/tourney.h): `pairings` prints a
 * round robin's rounds from FIDE's Berger tables, `trf` reads a FIDE
 * TRF-16 file and prints its crosstable (text or HTML), `swiss-pair`
 * pairs a round of a TRF's Swiss by the Dutch system (club/swiss.h). The
 * round lines
 * are a script's and stay English; help and refusals are translated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "proto.h"
#include "swiss.h"
#include "tb_error.h"
#include "tourney.h"

static const char tournament_help[] =
    N_("usage: tabula tournament pairings --players N [--double]\n"
       "       tabula tournament trf FILE [--html]\n"
       "       tabula tournament create|register|withdraw|pair|collect|\n"
       "                         forfeit|standings|export|verify DIR ...\n"
       "       tabula tournament play SOURCE ...\n"
       "       tabula tournament swiss-pair FILE [--round N]\n"
       "\n"
       "pairings prints every round of a round robin of N players (3..16)\n"
       "from FIDE's Berger tables, one line a round: 'round 1: 1-6 2-5 3-4',\n"
       "White first, 'bye' for the player without a game when N is odd.\n"
       "--double adds the second cycle with the colours reversed.\n"
       "\n"
       "trf reads a FIDE tournament report file (TRF-16) and prints its\n"
       "crosstable with Buchholz, Buchholz cut 1 and Sonneborn-Berger, in\n"
       "fixed-width text or with --html as an HTML table.\n"
       "\n"
       "swiss-pair pairs the next round of a TRF-16 file's Swiss by FIDE's\n"
       "Dutch system, or round N again from the rounds before it (its\n"
       "players without an opponent are left out): 'round 4: 1-6 5-2 7-bye'.\n"
       "create ... verify run a tournament from signed documents in the\n"
       "folder DIR, play plays a player's games in one as they are paired:\n"
       "'tabula tournament create --help' says more.\n"
       "docs/tournaments.md has the rules.\n");

enum {
    FLAG_PLAYERS,
    FLAG_DOUBLE,
    FLAG_HTML,
    FLAG_DIRECTOR,
    FLAG_DIRECTOR_SWITCH,
    FLAG_ROUND
};

const Cli_Flag cli_flags_tournament[] = {
    {"--players", CLI_NONEMPTY, FLAG_PLAYERS},
    {"--double", CLI_SWITCH, FLAG_DOUBLE},
    {"--html", CLI_SWITCH, FLAG_HTML},
    /* (the director's subcommands' flags, for main.c's --flag=VALUE
     * split: cmd_director.c reads them) */
    {"--game", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--system", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--rounds", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--clock", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--name", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--key", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--lobby", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--entry", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--relay", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--from", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--winner", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--log-dir", CLI_NONEMPTY, FLAG_DIRECTOR},
    {"--bye-half", CLI_SWITCH, FLAG_DIRECTOR_SWITCH},
    {"--me", CLI_SWITCH, FLAG_DIRECTOR_SWITCH},
    {"--round", CLI_NONEMPTY, FLAG_ROUND},
    {NULL, CLI_SWITCH, 0}};

/* The crosstable's column titles. */
static const char *const headers[6] = {
    /* TRANSLATORS: the crosstable's columns: place, name, points,
     * Buchholz, Buchholz cut 1, Sonneborn-Berger */
    N_("#"), N_("Name"), N_("Pts"), N_("BH"), N_("BH-C1"), N_("SB")};

static int pairings(int players, int dbl)
{
    int rounds = club_berger_rounds(players, dbl);
    if (rounds < 0) {
        fprintf(stderr,
                _("tabula tournament: a round robin by Berger tables takes "
                  "%d to %d players\n"),
                CLUB_BERGER_MIN, CLUB_BERGER_MAX);
        return CLI_EXIT_USAGE;
    }
    for (int r = 1; r <= rounds; r++) {
        Club_Pairing b[CLUB_BERGER_MAX / 2];
        int nb = 0;
        club_berger_round(players, dbl, r, b, &nb);
        printf("round %d:", r);
        for (int k = 0; k < nb; k++) {
            if (b[k].white == 0)
                printf(" bye-%d", b[k].black);
            else if (b[k].black == 0)
                printf(" %d-bye", b[k].white);
            else
                printf(" %d-%d", b[k].white, b[k].black);
        }
        printf("\n");
    }
    return CLI_EXIT_OK;
}

/* Reads a TRF file into a new tournament; NULL after saying why. */
static Club_Tourney *read_trf(const char *file)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc = proto_read_file(file, &buf, &len);
    if (rc != 0) {
        fprintf(stderr, _("tabula tournament: cannot read %s: %s\n"), file,
                _(tb_strerror(rc)));
        return NULL;
    }
    Club_Tourney *t = club_tourney_new();
    Club_Trf_Error e;
    if (t == NULL) {
        fprintf(stderr, "tabula tournament: %s\n",
                _(tb_strerror(TB_E_NOMEM)));
    } else if (club_trf_read(t, (const char *)buf, len, &e) != 0) {
        /* TRANSLATORS: FILE:LINE:COLUMN: why the file was refused */
        fprintf(stderr, _("tabula tournament: %s:%d:%d: %s\n"), file, e.line,
                e.column, _(e.why));
        club_tourney_free(t);
        t = NULL;
    }
    free(buf);
    return t;
}

static int crosstable(const char *file, int html)
{
    Club_Tourney *t = read_trf(file);
    Club_Standing *s = NULL;
    char *out = NULL;
    const char *h[6];
    int status = CLI_EXIT_FAIL, rc = 0;
    if (t == NULL)
        return CLI_EXIT_FAIL;
    rc = TB_E_NOMEM;
    s = calloc((size_t)t->nplayers, sizeof *s);
    if (s == NULL)
        goto fail;
    club_standings(t, 0, NULL, NULL, 0, s);
    for (int k = 0; k < 6; k++)
        h[k] = _(headers[k]);
    for (size_t size = 1 << 16;; size *= 2) {
        free(out);
        rc = TB_E_NOMEM;
        if ((out = malloc(size)) == NULL)
            goto fail;
        rc = html ? club_crosstable_html(t, NULL, s, h, out, size)
                  : club_crosstable_text(t, NULL, s, h, out, size);
        if (rc != TB_E_SPACE)
            break;
    }
    if (rc >= 0) {
        if (t->name[0] != '\0' && !html)
            printf("%s\n\n", t->name);
        fputs(out, stdout);
        status = CLI_EXIT_OK;
    }
fail:
    if (rc == TB_E_NOMEM)
        fprintf(stderr, "tabula tournament: %s\n", _(tb_strerror(rc)));
    free(out);
    free(s);
    club_tourney_free(t);
    return status;
}

/* The Dutch system's pairing of round (0: the one after the last with a
 * game) of the TRF file. A round the file has is paired again from the
 * rounds before it, its players without an opponent or a pairing bye
 * left out; a round after the file's pairs everyone. */
static int swiss_pair(const char *file, int round)
{
    Club_Tourney *t = read_trf(file);
    Club_Swiss_Pairing *p = malloc(sizeof *p);
    unsigned char *absent = calloc(CLUB_TOURNEY_MAX_PLAYERS, 1);
    int status = CLI_EXIT_FAIL, last = 0;
    if (t == NULL || p == NULL || absent == NULL)
        goto done;
    for (int i = 0; i < t->nplayers; i++)
        for (int r = 1; r <= t->nrounds; r++)
            if (t->players[i].games[r - 1].opponent != 0 ||
                t->players[i].games[r - 1].result == CLUB_RES_BYE_PAIRING)
                last = r > last ? r : last;
    if (round == 0)
        round = last + 1;
    if (round > CLUB_TOURNEY_MAX_ROUNDS || round > last + 1) {
        fprintf(stderr, _("tabula tournament: %s: the last round paired "
                          "is %d; round %d cannot be paired yet\n"),
                file, last, round);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (t->nrounds < round)
        t->nrounds = round;
    for (int i = 0; round <= last && i < t->nplayers; i++) {
        const Club_Game *g = &t->players[i].games[round - 1];
        absent[i] = g->opponent == 0 && g->result != CLUB_RES_BYE_PAIRING;
    }
    int rc = club_swiss_pair(t, round, absent, CLUB_COLOUR_NONE, p);
    if (rc == TB_E_STATE) {
        fprintf(stderr, _("tabula tournament: no pairing of round %d keeps "
                          "FIDE's absolute criteria (C1-C3); the arbiter "
                          "decides\n"),
                round);
        goto done;
    }
    if (rc != 0) {
        fprintf(stderr, "tabula tournament: %s\n", _(tb_strerror(rc)));
        goto done;
    }
    printf("round %d:", round);
    for (int k = 0; k < p->nboards; k++)
        printf(" %d-%d", p->boards[k].white, p->boards[k].black);
    if (p->bye != 0)
        printf(" %d-bye", p->bye);
    printf("\n");
    status = CLI_EXIT_OK;
done:
    free(absent);
    free(p);
    club_tourney_free(t);
    return status;
}

int cli_tournament(int argc, char **argv)
{
    const char *sub = NULL, *file = NULL;
    uint64_t players = 0, round = 0;
    int dbl = 0, html = 0;
    /* The director's subcommands (cmd_director.c). */
    for (int i = 0; i < argc; i++)
        if (argv[i][0] != '-') {
            if (cli_director_sub(argv[i]))
                return cli_director(argc, argv);
            break;
        }
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(_(tournament_help), stdout);
            return CLI_EXIT_OK;
        }
        const char *v = NULL;
        int f = cli_arg("tournament", cli_flags_tournament, argc, argv, &i,
                        _(tournament_help), &v);
        if (f == CLI_ARG_BAD)
            return CLI_EXIT_USAGE;
        if (f == FLAG_DIRECTOR || f == FLAG_DIRECTOR_SWITCH)
            return cli_unexpected("tournament",
                                  argv[f == FLAG_DIRECTOR ? i - 1 : i],
                                  _(tournament_help));
        if (f == FLAG_PLAYERS) {
            if (cli_uint(v, 1, 99, &players) != 0) {
                fprintf(stderr, _("tabula tournament: bad player count '%s'\n"),
                        v);
                return CLI_EXIT_USAGE;
            }
        } else if (f == FLAG_ROUND) {
            if (cli_uint(v, 1, CLUB_TOURNEY_MAX_ROUNDS, &round) != 0) {
                fprintf(stderr, _("tabula tournament: bad round '%s'\n"), v);
                return CLI_EXIT_USAGE;
            }
        } else if (f == FLAG_DOUBLE) {
            dbl = 1;
        } else if (f == FLAG_HTML) {
            html = 1;
        } else if (sub == NULL) {
            sub = v;
        } else if ((strcmp(sub, "trf") == 0 ||
                    strcmp(sub, "swiss-pair") == 0) &&
                   file == NULL) {
            file = v;
        } else {
            return cli_unexpected("tournament", v, _(tournament_help));
        }
    }
    if (sub != NULL && strcmp(sub, "pairings") == 0 && players > 0 &&
        file == NULL && !html && round == 0)
        return pairings((int)players, dbl);
    if (sub != NULL && strcmp(sub, "trf") == 0 && file != NULL &&
        players == 0 && !dbl && round == 0)
        return crosstable(file, html);
    if (sub != NULL && strcmp(sub, "swiss-pair") == 0 && file != NULL &&
        players == 0 && !dbl && !html)
        return swiss_pair(file, (int)round);
    fputs(_(tournament_help), stderr);
    return CLI_EXIT_USAGE;
}
