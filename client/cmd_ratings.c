/*
 * cmd_ratings.c: `tabula ratings DIR...` (issue 38), the Glicko-2 list
 * of the players in a folder of match logs: every *.log file verified
 * (club_game_from_log) in the order proto_paths_logs gives, the games
 * rated in the club layer's documented order (club/club.h,
 * docs/ratings.md), one line per player, game and time-control class.
 * The same logs give the same bytes on every build (tests/crossbuild.sh
 * compares them); a file that does not verify or gives no rated game is
 * named on standard error and counts for nothing.
 */
#include <stdlib.h>

#include "cli.h"
#include "club.h"
#include "director.h"
#include "i18n.h"
#include "proto.h"
#include "tb_error.h"

static const char ratings_help[] = N_(
    "usage: tabula ratings DIR... [--game GAME] [--relay KEY]...\n"
    "\n"
    "Reads every match log (*.log) in the folders, verifies each as tabula\n"
    "replay does, and rates the finished games with Glicko-2, each key on\n"
    "its own in each game and time-control class (bullet, blitz, rapid,\n"
    "classical, correspondence, untimed), in the order the matches started.\n"
    "One line a player, best first:\n"
    "  rating: GAME CLASS FINGERPRINT RATING RD VOLATILITY GAMES\n"
    "then 'ratings: games G logs L skipped S'. A log that does not verify,\n"
    "a game not over, aborted or where a side never moved is named on\n"
    "standard error and not rated; the host's, guest's and spectator's\n"
    "logs of one match count once. Anyone with the same logs gets the same\n"
    "digits (docs/ratings.md).\n"
    "  --game GAME        list only GAME's ratings\n"
    "  --relay KEY        rate only games every receipt of which is by the\n"
    "                     relay of KEY (its fingerprint as 'tabula lobby'\n"
    "                     prints it, or its key in hex); again for more\n"
    "                     relays. A relay a player runs can witness a false\n"
    "                     absence: 'relay: FINGERPRINT LOGS' lines say\n"
    "                     which relays witnessed the logs rated ('relay:\n"
    "                     none' for logs of before receipts).\n");

enum { RATINGS_GAME = 0, RATINGS_RELAY };

const Cli_Flag cli_flags_ratings[] = {{"--game", CLI_NONEMPTY, RATINGS_GAME},
                                      {"--relay", CLI_NONEMPTY, RATINGS_RELAY},
                                      {NULL, CLI_SWITCH, 0}};

/* Why a verified log gives no rated game, in the user's words. */
static const char *verdict_words(Club_Verdict v)
{
    switch (v) {
    case CLUB_UNFINISHED:
        return _("the game is not over");
    case CLUB_ABORTED:
        return _("the game was aborted");
    case CLUB_UNMOVED:
        return _("a side never moved");
    case CLUB_SELF:
        return _("one key played both sides");
    default:
        return "?";
    }
}

static void on_conflict(void *ctx, uint32_t a, uint32_t b)
{
    const Proto_Paths *p = ctx;
    char pa[512], pb[512];
    fprintf(stderr,
            _("tabula ratings: %s and %s hold one match with two results; "
              "it is not rated\n"),
            cli_printable(p->at[a], pa, sizeof pa),
            cli_printable(p->at[b], pb, sizeof pb));
}

int cli_ratings(int argc, char **argv)
{
    const char **dirs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *dirs);
    const char *text;
    size_t ndirs = 0;
    Proto_Paths paths = {NULL, 0, 0};
    Club_List *list = NULL;
    int status = CLI_EXIT_FAIL;

    if (dirs == NULL || club_list_new(&list) != 0) {
        free(dirs);
        return CLI_EXIT_FAIL;
    }
    for (int i = 0; i < argc; i++) {
        const char *v;
        int rc;
        if (cli_is_help(argv[i])) {
            fputs(_(ratings_help), stdout);
            status = CLI_EXIT_OK;
            goto done;
        }
        int f = cli_arg("ratings", cli_flags_ratings, argc, argv, &i,
                        _(ratings_help), &v);
        if (f == CLI_ARG_WORD) {
            dirs[ndirs++] = v;
        } else if (f == RATINGS_GAME) {
            if (cli_game("ratings", v) == NULL ||
                club_list_only(list, v) != 0) {
                status = CLI_EXIT_USAGE;
                goto done;
            }
        } else if (f == RATINGS_RELAY &&
                   (rc = club_list_trust(list, v)) != 0) {
            if (rc == TB_E_LIMIT)
                fprintf(stderr, _("tabula ratings: at most %d relays\n"),
                        CLUB_LIST_RELAYS_MAX);
            else
                fprintf(stderr,
                        _("tabula ratings: bad relay '%s': its fingerprint "
                          "(XXXX-XXXX-XXXX-XXXX, as tabula lobby prints it) "
                          "or its key in hex\n"),
                        cli_token(v));
            status = CLI_EXIT_USAGE;
            goto done;
        } else if (f != RATINGS_RELAY) {
            status = CLI_EXIT_USAGE;
            goto done;
        }
    }
    if (ndirs == 0) {
        fprintf(stderr, _("tabula ratings: name a folder of match logs\n"));
        fputs(_(ratings_help), stderr);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    for (size_t i = 0; i < ndirs; i++) {
        int rc = proto_paths_logs(&paths, dirs[i]);
        if (rc != 0) {
            char shown[512];
            fprintf(stderr, _("tabula ratings: cannot read the folder %s\n"),
                    cli_printable(dirs[i], shown, sizeof shown));
            status = rc == TB_E_IO ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
            goto done;
        }
    }
    if (proto_init() != 0)
        goto done;
    for (size_t i = 0; i < paths.n; i++) {
        uint8_t *buf = NULL;
        size_t len = 0;
        char why[256], shown[512], why_shown[256];
        Club_List_Outcome outcome = CLUB_LIST_FAILED;
        Club_Verdict verdict = CLUB_UNFINISHED;
        int rc = proto_read_file(paths.at[i], &buf, &len);
        if (rc == 0)
            rc = club_list_add(list, buf, len, &outcome, &verdict, why,
                               sizeof why);
        else {
            snprintf(why, sizeof why, "%s", _(tb_strerror(rc)));
            rc = club_list_unreadable(list);
        }
        free(buf);
        if (rc != 0)
            goto done;
        cli_printable(paths.at[i], shown, sizeof shown);
        if (outcome == CLUB_LIST_FAILED)
            fprintf(stderr,
                    _("tabula ratings: %s skipped: it does not verify: %s\n"),
                    shown, cli_printable(why, why_shown, sizeof why_shown));
        else if (outcome == CLUB_LIST_UNRATED)
            fprintf(stderr, _("tabula ratings: %s not rated: %s\n"), shown,
                    verdict_words(verdict));
        else if (outcome == CLUB_LIST_UNTRUSTED)
            fprintf(stderr,
                    _("tabula ratings: %s not rated: a relay not named by "
                      "--relay witnessed it\n"),
                    shown);
    }
    if (club_list_text(list, on_conflict, &paths, &text) != 0)
        goto done;
    fputs(text, stdout);
    if (club_list_skipped(list) > 0)
        fprintf(stderr,
                ngettext("tabula ratings: %zu log gave no rated game (named "
                         "above)\n",
                         "tabula ratings: %zu logs gave no rated game (named "
                         "above)\n",
                         club_list_skipped(list)),
                club_list_skipped(list));
    status = CLI_EXIT_OK;
done:
    club_list_free(list);
    proto_paths_free(&paths);
    free(dirs);
    return status;
}
