/*
 * cmd_director.c: `tabula tournament create|register|withdraw|pair|
 * collect|standings|export|verify DIR`, a tournament director's tools
 * (issue 38) over the club layer's signed documents (club/director.h):
 * the folder DIR holds tournament.txt, round-N.pairings, round-N.results
 * and the collected logs (logs/round-N-board-B.log). Lines a script
 * reads (`round N: ...`, `verified: ...`) stay English; help and
 * refusals are translated. docs/tournaments.md is the walk-through.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "club.h"
#include "director.h"
#include "director_cli.h"
#include "fetch.h"
#include "i18n.h"
#include "lobby_wire.h"
#include "proto.h"
#include "tb_error.h"

static const char director_help[] = N_(
    "usage: tabula tournament create DIR --game GAME --system rr|drr|swiss\n"
    "                                [--rounds N] [--clock C] [--name NAME]\n"
    "                                [--lobby HOST:PORT] [--relay KEY]\n"
    "       tabula tournament register DIR KEY [--name NAME] [--bye-half]\n"
    "       tabula tournament withdraw DIR KEY\n"
    "       tabula tournament pair DIR [--lobby HOST:PORT]\n"
    "       tabula tournament collect DIR LOG... | --from SOURCE\n"
    "       tabula tournament forfeit DIR ROUND BOARD --winner W\n"
    "       tabula tournament standings DIR [--html]\n"
    "       tabula tournament export DIR\n"
    "       tabula tournament verify DIR\n"
    "       tabula tournament play SOURCE [--me | --key FILE] [--bot LEVEL]\n"
    "                                [--lobby HOST:PORT] [--log-dir DIR]\n"
    "\n"
    "A tournament is the folder DIR of documents signed by the director's\n"
    "key (tabula identity's, or --key FILE): create makes it (--lobby: where\n"
    "its games are played, --relay: the only relay whose logs count),\n"
    "register adds a player by the public key 'tabula identity' prints (in\n"
    "a Swiss after round 1: from the next round, the rounds missed scoring\n"
    "0, or 1/2 with --bye-half), withdraw takes one out from the next\n"
    "round, pair pairs the next round and prints 'round N: WHITE - BLACK'\n"
    "(fingerprints) with the commands the two players run, collect takes\n"
    "results from verified match logs only (--from: a relay's archive,\n"
    "folder or URL), forfeit declares a game nobody played (W: white,\n"
    "black or none), standings prints the crosstable, export writes FIDE\n"
    "TRF-16, and verify recomputes every pairing and standing from the\n"
    "rules and the logs.\n"
    "play (a player's) waits for each of your games in the tournament at\n"
    "SOURCE (its folder or URL), says 'your game in round N is ready' and\n"
    "plays it on the tournament's lobby as host or join would.\n"
    "  --key FILE    the director's (play: the player's) identity file\n"
    "docs/tournaments.md has a walk-through.\n");

enum {
    DIR_GAME,
    DIR_SYSTEM,
    DIR_ROUNDS,
    DIR_CLOCK,
    DIR_NAME,
    DIR_KEY,
    DIR_LOBBY,
    DIR_HTML,
    DIR_ENTRY,
    DIR_RELAY,
    DIR_FROM,
    DIR_WINNER,
    DIR_BYE_HALF,
    DIR_ME,
    DIR_LOG_DIR
};

static const Cli_Flag director_flags[] = {
    {"--game", CLI_NONEMPTY, DIR_GAME},
    {"--system", CLI_NONEMPTY, DIR_SYSTEM},
    {"--rounds", CLI_NONEMPTY, DIR_ROUNDS},
    {"--clock", CLI_NONEMPTY, DIR_CLOCK},
    {"--name", CLI_NONEMPTY, DIR_NAME},
    {"--key", CLI_NONEMPTY, DIR_KEY},
    {"--lobby", CLI_NONEMPTY, DIR_LOBBY},
    {"--html", CLI_SWITCH, DIR_HTML},
    {"--entry", CLI_NONEMPTY, DIR_ENTRY},
    {"--relay", CLI_NONEMPTY, DIR_RELAY},
    {"--from", CLI_NONEMPTY, DIR_FROM},
    {"--winner", CLI_NONEMPTY, DIR_WINNER},
    {"--bye-half", CLI_SWITCH, DIR_BYE_HALF},
    {"--me", CLI_SWITCH, DIR_ME},
    {"--log-dir", CLI_NONEMPTY, DIR_LOG_DIR},
    {NULL, CLI_SWITCH, 0}};

/* The crosstable's column titles (as cmd_tournament.c's). */
static const char *const headers[6] = {N_("#"),  N_("Name"),  N_("Pts"),
                                       N_("BH"), N_("BH-C1"), N_("SB")};

typedef struct Args {
    const char *sub, *dir, *game, *system, *clock, *name, *key, *lobby;
    const char *relay, *from, *winner, *log_dir;
    const char *words[64];
    int nwords;
    uint64_t rounds;
    int html, bye_half, me, bot;
} Args;

void cli__dir_say(const char *fmt, const char *a, const char *b)
{
    char pa[512], pb[512];
    fputs("tabula tournament: ", stderr);
    fprintf(stderr, fmt, a != NULL ? cli_printable(a, pa, sizeof pa) : "",
            b != NULL ? cli_printable(b, pb, sizeof pb) : "");
    fputc('\n', stderr);
}

static int path_of(char *out, size_t cap, const char *dir, const char *what,
                   int round, int board)
{
    int n;
    if (board > 0)
        n = snprintf(out, cap, "%s/logs/round-%d-board-%d.log", dir, round,
                     board);
    else if (round > 0)
        n = snprintf(out, cap, "%s/round-%d.%s", dir, round, what);
    else
        n = snprintf(out, cap, "%s/%s", dir, what);
    return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
}

/* Write bytes to path through a temporary file renamed over it. */
static int write_file(const char *path, const void *buf, size_t len)
{
    char tmp[1100];
    FILE *f;
    int ok;
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return TB_E_SPACE;
    if ((f = fopen(tmp, "wb")) == NULL)
        return TB_E_IO;
    ok = fwrite(buf, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return TB_E_IO;
    }
    return 0;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int cli__dir_load(const char *source, Club_Dir *d, int quiet)
{
    for (int r = 0; r <= CLUB_TOURNEY_MAX_ROUNDS; r++) {
        for (int kind = r == 0 ? CLUB_DOC_TOURNAMENT : CLUB_DOC_PAIRINGS;
             kind <= (r == 0 ? CLUB_DOC_TOURNAMENT : CLUB_DOC_RESULTS);
             kind++) {
            uint8_t *buf = NULL;
            size_t len = 0;
            char name[64], why[1200] = "";
            Club_Dir_Error e = {0, ""};
            if (r == 0)
                snprintf(name, sizeof name, "tournament.txt");
            else
                snprintf(name, sizeof name, "round-%d.%s", r,
                         kind == CLUB_DOC_PAIRINGS ? "pairings" : "results");
            int rc = fetch_get(source, name, CLUB_DIR_DOC_MAX + 1, &buf, &len,
                               why, sizeof why);
            if (r > 0 && rc == TB_E_NOFILE) {
                if (kind == CLUB_DOC_PAIRINGS)
                    return 0;
                continue;
            }
            if (rc != 0) {
                if (!quiet)
                    cli__dir_say("%s", why[0] != '\0' ? why : tb_strerror(rc),
                                 NULL);
                return rc;
            }
            rc = club_dir_read(d, kind, buf, len, &e);
            free(buf);
            if (rc != 0) {
                char where[1200];
                snprintf(where, sizeof where, "%s%s%s:%d", source,
                         source[0] != '\0' && source[strlen(source) - 1] == '/'
                             ? ""
                             : "/",
                         name, e.line);
                if (!quiet)
                    cli__dir_say(_("%s: %s"), where,
                                 e.why[0] != '\0' ? _(e.why)
                                                  : _(tb_strerror(rc)));
                return rc;
            }
        }
    }
    return 0;
}

static int load_key(const char *file, Proto_Identity *id)
{
    int rc = proto_identity_load(id, file, NULL);
    if (rc != 0)
        cli__dir_say(_("cannot use the director's key %s: %s"),
                     file != NULL ? file : _("(your identity)"),
                     _(tb_strerror(rc)));
    return rc;
}

/* Sign and write document kind (of round, with its standings) into dir. */
static int save(const char *dir, const Club_Dir *d, int kind, int round,
                const Club_Standing *st, const Proto_Identity *id)
{
    char path[1024];
    char *out = malloc(CLUB_DIR_DOC_MAX);
    int n, rc;
    if (out == NULL)
        return TB_E_NOMEM;
    n = club_dir_write(d, kind, round, st, id, out, CLUB_DIR_DOC_MAX);
    rc = n < 0 ? n
                : path_of(path, sizeof path, dir,
                          kind == CLUB_DOC_TOURNAMENT ? "tournament.txt"
                          : kind == CLUB_DOC_PAIRINGS ? "pairings"
                                                      : "results",
                          kind == CLUB_DOC_TOURNAMENT ? 0 : round, 0);
    if (rc == 0)
        rc = write_file(path, out, (size_t)n);
    free(out);
    if (rc != 0)
        cli__dir_say(_("cannot write a document into %s: %s"), dir,
                     _(tb_strerror(rc)));
    return rc;
}

/* The standings after `rounds` rounds into st (d->nplayers of them). */
static int standings_of(const Club_Dir *d, int rounds, Club_Tourney *t,
                        Club_Standing *st)
{
    int rc = club_dir_tourney(d, rounds, t);
    if (rc == 0)
        rc = club_standings(t, rounds, club_dir_points(d), NULL, 0, st);
    return rc;
}

static int create(const Args *a)
{
    Club_Dir *d = club_dir_new();
    Proto_Identity id;
    Proto_Clock clk;
    int status = CLI_EXIT_FAIL, sys;
    if (d == NULL)
        return CLI_EXIT_FAIL;
    if (a->game == NULL || a->system == NULL) {
        cli__dir_say(_("create needs --game GAME and --system rr|drr|swiss"),
                     NULL, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (cli_game("tournament", a->game) == NULL) {
        status = CLI_EXIT_USAGE;
        goto done;
    }
    snprintf(d->game, sizeof d->game, "%s", core_game_name(cli_game("tournament", a->game)));
    if ((sys = club_system_parse(a->system)) < 0) {
        cli__dir_say(_("unknown system '%s' (rr, drr or swiss)"), a->system,
                     NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    d->system = sys;
    d->rounds = (int)a->rounds;
    if (sys == CLUB_SYSTEM_SWISS && d->rounds == 0) {
        cli__dir_say(_("a Swiss tournament needs --rounds N"), NULL, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (a->clock != NULL &&
        (proto_clock_parse(a->clock, 1, &clk, NULL) != 0 ||
         proto_clock_format(&clk, d->clock, sizeof d->clock) != 0)) {
        cli__dir_say(_("bad clock '%s'"), a->clock, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (proto_name_check(a->name != NULL ? a->name : "Tournament",
                         strlen(a->name != NULL ? a->name : "Tournament"),
                         d->name, sizeof d->name) != 0) {
        cli__dir_say(_("bad tournament name '%s'"), a->name, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (a->lobby != NULL) {
        if (!club_dir_lobby_ok(a->lobby, strlen(a->lobby))) {
            cli__dir_say(_("bad lobby address '%s': HOST:PORT, e.g. "
                           "club.example:7470"),
                         a->lobby, NULL);
            status = CLI_EXIT_USAGE;
            goto done;
        }
        snprintf(d->lobby, sizeof d->lobby, "%s", a->lobby);
    }
    if (a->relay != NULL && club_relay_word(a->relay, d->relay) != 0) {
        cli__dir_say(_("bad relay '%s': its fingerprint (XXXX-XXXX-XXXX-XXXX, "
                       "as tabula lobby prints it after 'relay key:') or its "
                       "key in hex"),
                     a->relay, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (mkdir(a->dir, 0755) != 0 && errno != EEXIST) {
        cli__dir_say(_("cannot make the folder %s"), a->dir, NULL);
        goto done;
    }
    char path[1024];
    path_of(path, sizeof path, a->dir, "tournament.txt", 0, 0);
    if (file_exists(path)) {
        cli__dir_say(_("%s holds a tournament already"), a->dir, NULL);
        goto done;
    }
    if (load_key(a->key, &id) != 0)
        goto done;
    memcpy(d->director, id.pk, PROTO_KEY_BYTES);
    if (lobby_random(d->id, sizeof d->id) == 0 &&
        save(a->dir, d, CLUB_DOC_TOURNAMENT, 0, NULL, &id) == 0) {
        char fp[PROTO_FINGERPRINT_MAX];
        proto_fingerprint(id.pk, fp);
        printf("created: %s %s %s director %s\n", a->dir, d->game,
               club_system_name(d->system), fp);
        status = CLI_EXIT_OK;
    }
    proto_identity_wipe(&id);
done:
    club_dir_free(d);
    return status;
}

/* A player named by a public key in hex or by its fingerprint: the
 * starting rank, 0 when none. */
static int player_of(const Club_Dir *d, const char *word)
{
    uint8_t pk[PROTO_KEY_BYTES];
    if (proto_unhex(word, strlen(word), pk, sizeof pk) == 0)
        return club_dir_find(d, pk);
    for (int i = 0; i < d->nplayers; i++) {
        char fp[PROTO_FINGERPRINT_MAX];
        proto_fingerprint(d->players[i].key, fp);
        if (strcmp(fp, word) == 0)
            return i + 1;
    }
    return 0;
}

static int republish(const char *dir, Club_Dir *d, const int *touched,
                     const Proto_Identity *id);

static int register_player(const Args *a, Club_Dir *d, const Proto_Identity *id)
{
    Club_Dir_Player *pl;
    if (a->nwords != 1) {
        cli__dir_say(
            _("register needs the player's public key (tabula identity "
              "prints it)"),
            NULL, NULL);
        return CLI_EXIT_USAGE;
    }
    if (d->npaired > 0 && d->system != CLUB_SYSTEM_SWISS) {
        cli__dir_say(_("round 1 is paired: registration is closed (a late "
                       "entry is for a Swiss tournament only)"),
                     NULL, NULL);
        return CLI_EXIT_FAIL;
    }
    if (d->npaired > 0 && d->npaired >= club_dir_total_rounds(d)) {
        cli__dir_say(_("every round is paired"), NULL, NULL);
        return CLI_EXIT_FAIL;
    }
    if (d->npaired == 0 && a->bye_half) {
        cli__dir_say(_("--bye-half is for a late entry, after round 1 is "
                       "paired"),
                     NULL, NULL);
        return CLI_EXIT_USAGE;
    }
    if (d->nplayers == CLUB_DIR_MAX_PLAYERS) {
        cli__dir_say(_("the tournament is full"), NULL, NULL);
        return CLI_EXIT_FAIL;
    }
    pl = &d->players[d->nplayers];
    memset(pl, 0, sizeof *pl);
    if (proto_unhex(a->words[0], strlen(a->words[0]), pl->key,
                    PROTO_KEY_BYTES) != 0) {
        cli__dir_say(
            _("'%s' is not a public key: 64 lowercase hex digits, as tabula "
              "identity prints after public-key:"),
            a->words[0], NULL);
        return CLI_EXIT_USAGE;
    }
    if (club_dir_find(d, pl->key) != 0) {
        cli__dir_say(_("%s is registered already"), a->words[0], NULL);
        return CLI_EXIT_FAIL;
    }
    if (a->name != NULL && proto_name_check(a->name, strlen(a->name), pl->name,
                                            sizeof pl->name) != 0) {
        cli__dir_say(_("bad player name '%s'"), a->name, NULL);
        return CLI_EXIT_USAGE;
    }
    if (d->npaired > 0) { /* a late entry: from the next round paired */
        pl->entered = d->npaired + 1;
        pl->bye_half = a->bye_half;
    }
    d->nplayers++;
    if (save(a->dir, d, CLUB_DOC_TOURNAMENT, 0, NULL, id) != 0)
        return CLI_EXIT_FAIL;
    /* the results published so far again, with a standing for the new
     * player too (every results document has one for every player) */
    int touched[CLUB_TOURNEY_MAX_ROUNDS + 1] = {0};
    for (int r = 1; r <= d->npaired; r++)
        touched[r] = d->round[r - 1].has_results;
    if (republish(a->dir, d, touched, id) != 0)
        return CLI_EXIT_FAIL;
    char fp[PROTO_FINGERPRINT_MAX];
    proto_fingerprint(pl->key, fp);
    if (pl->entered > 1)
        printf("registered: %d %s from round %d%s\n", d->nplayers, fp,
               pl->entered, pl->bye_half ? " half" : "");
    else
        printf("registered: %d %s\n", d->nplayers, fp);
    return CLI_EXIT_OK;
}

static int withdraw(const Args *a, Club_Dir *d, const Proto_Identity *id)
{
    int p = a->nwords == 1 ? player_of(d, a->words[0]) : 0;
    if (p == 0) {
        cli__dir_say(_("no such player: '%s'"),
                     a->nwords == 1 ? a->words[0] : "", NULL);
        return CLI_EXIT_USAGE;
    }
    if (d->players[p - 1].withdrawn == 0)
        d->players[p - 1].withdrawn = d->npaired + 1;
    if (save(a->dir, d, CLUB_DOC_TOURNAMENT, 0, NULL, id) != 0)
        return CLI_EXIT_FAIL;
    printf("withdrawn: %d from round %d\n", p, d->players[p - 1].withdrawn);
    return CLI_EXIT_OK;
}

/* Whether board x of round r has no game left to play: a result, a bye,
 * or a player withdrawn by then (a forfeit). */
static int board_over(const Club_Dir *d, int r, const Club_Dir_Board *x)
{
    int ww = d->players[x->white - 1].withdrawn;
    int bw = x->black > 0 ? d->players[x->black - 1].withdrawn : 0;
    return x->done || x->black == 0 || (ww > 0 && ww <= r) ||
           (bw > 0 && bw <= r);
}

int cli__dir_game_code(const Club_Dir *d, int r, int b, Lobby_Code *code)
{
    uint8_t in[22 + PROTO_HASH_BYTES + 2], h[PROTO_HASH_BYTES];
    memcpy(in, "tabula tournament game", 22);
    memcpy(in + 22, d->id, PROTO_HASH_BYTES);
    in[22 + PROTO_HASH_BYTES] = (uint8_t)r;
    in[23 + PROTO_HASH_BYTES] = (uint8_t)b;
    int rc = proto_digest(in, sizeof in, NULL, 0, h);
    if (rc == 0)
        rc = lobby_code_make(h, d->players[d->round[r - 1].boards[b - 1].white - 1].key,
                             code);
    return rc;
}

static int pair(const Args *a, Club_Dir *d, const Proto_Identity *id)
{
    int total = club_dir_total_rounds(d), r = d->npaired + 1, n = 0, rc;
    char clock[PROTO_CLOCK_TEXT_MAX] = "";
    Proto_Clock clk;
    /* --lobby wins over the tournament's own */
    const char *lobby = a->lobby != NULL      ? a->lobby
                        : d->lobby[0] != '\0' ? d->lobby
                                              : "HOST:PORT";
    if (total < 0) {
        cli__dir_say(_("a round robin takes 3 to 16 players"), NULL, NULL);
        return CLI_EXIT_FAIL;
    }
    if (r > total) {
        cli__dir_say(_("every round is paired"), NULL, NULL);
        return CLI_EXIT_FAIL;
    }
    for (int b = 0; r > 1 && b < d->round[r - 2].nboards; b++)
        if (!board_over(d, r - 1, &d->round[r - 2].boards[b])) {
            char num[16];
            snprintf(num, sizeof num, "%d", r - 1);
            cli__dir_say(
                _("round %s has games without a result: collect their logs "
                  "first"),
                num, NULL);
            return CLI_EXIT_FAIL;
        }
    rc = club_dir_pair(d, r, d->round[r - 1].boards, &n);
    if (rc == TB_E_STATE) { /* (the rounds before are in: see above) */
        char num[16];
        snprintf(num, sizeof num, "%d", r);
        cli__dir_say(_("no pairing of round %s keeps FIDE's absolute criteria "
                       "(C1-C3): the arbiter decides it"),
                     num, NULL);
        return CLI_EXIT_FAIL;
    }
    if (rc != 0) {
        cli__dir_say(_("cannot pair: %s"), _(tb_strerror(rc)), NULL);
        return CLI_EXIT_FAIL;
    }
    d->round[r - 1].nboards = n;
    d->npaired = r;
    if (save(a->dir, d, CLUB_DOC_PAIRINGS, r, NULL, id) != 0)
        return CLI_EXIT_FAIL;
    if (d->clock[0] != '\0' && proto_clock_parse(d->clock, 0, &clk, NULL) == 0)
        proto_clock_typed(&clk, clock, sizeof clock);
    for (int b = 1; b <= n; b++) {
        const Club_Dir_Board *x = &d->round[r - 1].boards[b - 1];
        char wf[PROTO_FINGERPRINT_MAX], bf[PROTO_FINGERPRINT_MAX];
        char bhex[2 * PROTO_KEY_BYTES + 1];
        Lobby_Code code;
        proto_fingerprint(d->players[x->white - 1].key, wf);
        if (x->black == 0) {
            printf("round %d: %s bye\n", r, wf);
            continue;
        }
        proto_fingerprint(d->players[x->black - 1].key, bf);
        if (board_over(d, r, x)) {
            printf("round %d: %s - %s forfeit\n", r, wf, bf);
            continue;
        }
        printf("round %d: %s - %s\n", r, wf, bf);
        if (cli__dir_game_code(d, r, b, &code) != 0)
            return CLI_EXIT_FAIL;
        proto_hex(d->players[x->black - 1].key, PROTO_KEY_BYTES, bhex);
        printf("  white: tabula host %s%s%s --lobby %s --me --guest %s "
               "--code %s\n",
               d->game, clock[0] ? " --clock " : "", clock, lobby, bhex,
               code.text);
        printf("  black: tabula join %s --lobby %s --me\n", code.text, lobby);
    }
    return CLI_EXIT_OK;
}

/* Rewrite round r's results document, with the standings after it. */
static int publish(const char *dir, Club_Dir *d, int r, const Proto_Identity *id)
{
    Club_Tourney *t = club_tourney_new();
    Club_Standing *st = calloc((size_t)d->nplayers + 1, sizeof *st);
    int rc = t == NULL || st == NULL ? TB_E_NOMEM : standings_of(d, r, t, st);
    if (rc == 0)
        rc = save(dir, d, CLUB_DOC_RESULTS, r, st, id);
    if (rc == 0)
        d->round[r - 1].has_results = 1;
    free(st);
    club_tourney_free(t);
    return rc;
}

/* Take the result of the match log buf[0..len) (named file in what is
 * said) for the open pairing it is: the same checks for a log handed in
 * and one from a relay's archive. 0 collected (or the same log again),
 * 1 refused (said), -1 a document could not be written (said). */
static int collect_one(const Args *a, Club_Dir *d, const char *file,
                       const uint8_t *buf, size_t len, int *touched)
{
    char why[256] = "", path[1024];
    const char *rwhy = "";
    Club_Dir_Log lg;
    int found = 0, rc = club_dir_log_game(buf, len, &lg, why, sizeof why);
    if (rc != 0) {
        cli__dir_say(_("%s refused: it does not verify: %s"), file,
                     why[0] != '\0' ? _(why) : _(tb_strerror(rc)));
        return 1;
    }
    if (strcmp(lg.game, d->game) != 0 || strcmp(lg.clock, d->clock) != 0) {
        cli__dir_say(
            _("%s refused: it is not the tournament's game and clock (%s)"),
            file, lg.game);
        return 1;
    }
    if (!club_dir_log_relay_ok(d, &lg, &rwhy)) {
        cli__dir_say(_("%s refused: %s"), file, _(rwhy));
        return 1;
    }
    int w = club_dir_find(d, lg.white), bl = club_dir_find(d, lg.black);
    for (int r = 1; r <= d->npaired && !found; r++)
        for (int b = 1; b <= d->round[r - 1].nboards && !found; b++) {
            Club_Dir_Board *x = &d->round[r - 1].boards[b - 1];
            if (w == 0 || x->white != w || x->black != bl)
                continue;
            if (x->done && x->forfeit == CLUB_FORFEIT_NONE &&
                memcmp(x->log, lg.hash, PROTO_HASH_BYTES) == 0) {
                found = -1; /* the same log again */
                printf("collected: round %d board %d already\n", r, b);
                continue;
            }
            if (x->done) /* (a rematch's log: the next round's) */
                continue;
            path_of(path, sizeof path, a->dir, NULL, r, b);
            if (write_file(path, buf, len) != 0) {
                cli__dir_say(_("cannot write a document into %s: %s"), a->dir,
                             _(tb_strerror(TB_E_IO)));
                return -1;
            }
            x->done = 1;
            x->half[0] = lg.half[0];
            x->half[1] = lg.half[1];
            memcpy(x->log, lg.hash, PROTO_HASH_BYTES);
            touched[r] = 1;
            found = 1;
            printf("collected: round %d board %d %u:%u\n", r, b, lg.half[0],
                   lg.half[1]);
        }
    if (found == 0) {
        cli__dir_say(_("%s refused: its players are no pairing of the "
                       "tournament with these colours still without a "
                       "result"),
                     file, NULL);
        return 1;
    }
    return 0;
}

/* Sign again every results document from the first round touched on:
 * later standings count the earlier results. */
static int republish(const char *dir, Club_Dir *d, const int *touched,
                     const Proto_Identity *id)
{
    int from = 0;
    for (int r = 1; r <= d->npaired && from == 0; r++)
        if (touched[r])
            from = r;
    for (int r = from; from > 0 && r <= d->npaired; r++)
        if (r == from || touched[r] || d->round[r - 1].has_results)
            if (publish(dir, d, r, id) != 0)
                return -1;
    return 0;
}

/* Largest archive index and log collect --from reads (bytes). */
#define ARCHIVE_INDEX_MAX (16u << 20)

/* collect --from SOURCE: the logs a relay's archive lists whose players
 * are an open pairing's White and Black, each fetched and collected as a
 * handed-in log (*got of them; *refused refused, each said). Bad index
 * lines are skipped, each named. 0, or -1 (the index or a log could not
 * be read, a document not written: said). */
static int collect_from(const Args *a, Club_Dir *d, int *touched, int *got,
                        int *refused)
{
    uint8_t *idx = NULL;
    size_t len = 0;
    char why[1200] = "", where[1200];
    int rc = fetch_get(a->from, "logs/index.txt", ARCHIVE_INDEX_MAX, &idx, &len,
                       why, sizeof why),
        status = 0, line = 0;
    if (rc != 0) {
        cli__dir_say("%s", why[0] != '\0' ? why : _(tb_strerror(rc)), NULL);
        return -1;
    }
    for (size_t pos = 0; pos < len && status == 0;) {
        const char *p = (const char *)idx + pos, *bad;
        const uint8_t *nl = memchr(idx + pos, '\n', len - pos);
        size_t n = nl != NULL ? (size_t)(nl - (idx + pos)) : len - pos;
        Club_Index_Line x;
        pos += n + 1;
        line++;
        snprintf(where, sizeof where, "%s%slogs/index.txt:%d", a->from,
                 a->from[strlen(a->from) - 1] == '/' ? "" : "/", line);
        if (nl == NULL)
            bad = N_("the last line has no newline");
        else
            bad = club_index_line(p, n, CLUB_INDEX_LOG_MAX, &x);
        if (bad != NULL) {
            cli__dir_say(_("%s: skipped: %s"), where, _(bad));
            continue;
        }
        /* only a log an open pairing's players played, in its game */
        int w = club_dir_find(d, x.white), bl = club_dir_find(d, x.black),
            open = 0;
        if (strcmp(x.game, d->game) != 0)
            continue;
        for (int r = 1; r <= d->npaired && w != 0 && bl != 0 && !open; r++)
            for (int b = 0; b < d->round[r - 1].nboards && !open; b++) {
                const Club_Dir_Board *y = &d->round[r - 1].boards[b];
                open = y->white == w && y->black == bl && !y->done;
            }
        if (!open)
            continue;
        uint8_t *log = NULL;
        size_t loglen = 0;
        char name[16 + PROTO_HASH_HEX];
        snprintf(name, sizeof name, "logs/%s.log", x.match);
        snprintf(where, sizeof where, "%s%s%s", a->from,
                 a->from[strlen(a->from) - 1] == '/' ? "" : "/", name);
        rc = fetch_get(a->from, name, x.bytes, &log, &loglen, why, sizeof why);
        if (rc == 0 && loglen != x.bytes) {
            char num[32];
            snprintf(num, sizeof num, "%zu", x.bytes);
            cli__dir_say(_("%s skipped: it is not the %s bytes the index says"),
                         where, num);
        } else if (rc != 0) {
            cli__dir_say("%s", why[0] != '\0' ? why : _(tb_strerror(rc)), NULL);
            if (rc != TB_E_NOFILE && rc != TB_E_LIMIT)
                status = -1;
        } else {
            int one = collect_one(a, d, where, log, loglen, touched);
            if (one < 0)
                status = -1;
            else if (one == 0)
                (*got)++;
            else
                (*refused)++;
        }
        free(log);
    }
    free(idx);
    return status;
}

static int collect(const Args *a, Club_Dir *d, const Proto_Identity *id)
{
    int refused = 0, got = 0, touched[CLUB_TOURNEY_MAX_ROUNDS + 1] = {0};
    char path[1024];
    if ((a->nwords == 0) == (a->from == NULL)) {
        cli__dir_say(_("collect needs match logs, or --from SOURCE (a relay's "
                       "archive), not both"),
                     NULL, NULL);
        return CLI_EXIT_USAGE;
    }
    path_of(path, sizeof path, a->dir, "logs", 0, 0);
    mkdir(path, 0755);
    for (int i = 0; i < a->nwords; i++) {
        uint8_t *buf = NULL;
        size_t len = 0;
        int rc = proto_read_file(a->words[i], &buf, &len);
        if (rc != 0) {
            cli__dir_say(_("%s refused: it does not verify: %s"), a->words[i],
                         _(tb_strerror(rc)));
            refused++;
            continue;
        }
        rc = collect_one(a, d, a->words[i], buf, len, touched);
        free(buf);
        if (rc < 0)
            return CLI_EXIT_FAIL;
        refused += rc;
    }
    if (a->from != NULL) {
        int rc = collect_from(a, d, touched, &got, &refused);
        if (rc == 0 && got == 0 && refused == 0)
            cli__dir_say(_("no log in %s is a game still without a result"),
                         a->from, NULL);
        if (rc != 0)
            refused++;
    }
    if (republish(a->dir, d, touched, id) != 0)
        return CLI_EXIT_FAIL;
    return refused > 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* forfeit DIR ROUND BOARD --winner white|black|none: the director's
 * word for a game nobody played, signed in the round's results. */
static int forfeit(const Args *a, Club_Dir *d, const Proto_Identity *id)
{
    static const char *const winners[] = {NULL, "white", "black", "none"};
    uint64_t r = 0, b = 0;
    int w = 0, touched[CLUB_TOURNEY_MAX_ROUNDS + 1] = {0};
    for (int k = 1; a->winner != NULL && k <= 3; k++)
        if (strcmp(a->winner, winners[k]) == 0)
            w = k;
    if (a->nwords != 2 || w == 0) {
        cli__dir_say(_("forfeit needs ROUND BOARD --winner white|black|none"),
                     NULL, NULL);
        return CLI_EXIT_USAGE;
    }
    if (d->npaired == 0 ||
        cli_uint(a->words[0], 1, (uint64_t)d->npaired, &r) != 0 ||
        cli_uint(a->words[1], 1, (uint64_t)d->round[r - 1].nboards, &b) != 0) {
        cli__dir_say(_("no board %s of round %s is paired"), a->words[1],
                     a->words[0]);
        return CLI_EXIT_USAGE;
    }
    Club_Dir_Board *x = &d->round[r - 1].boards[b - 1];
    if (x->black == 0) {
        cli__dir_say(_("board %s of round %s is a bye"), a->words[1],
                     a->words[0]);
        return CLI_EXIT_FAIL;
    }
    if (x->done) {
        cli__dir_say(_("board %s of round %s has its result already"),
                     a->words[1], a->words[0]);
        return CLI_EXIT_FAIL;
    }
    memset(x->half, 0, sizeof x->half);
    memset(x->log, 0, sizeof x->log);
    x->done = 1;
    x->forfeit = w;
    touched[r] = 1;
    if (republish(a->dir, d, touched, id) != 0)
        return CLI_EXIT_FAIL;
    printf("forfeit: round %d board %d %s\n", (int)r, (int)b, winners[w]);
    return CLI_EXIT_OK;
}

static int standings(const Args *a, const Club_Dir *d, int trf)
{
    Club_Tourney *t = club_tourney_new();
    Club_Standing *st = calloc((size_t)d->nplayers + 1, sizeof *st);
    char *out = NULL;
    const char *h[6];
    int rc = t == NULL || st == NULL ? TB_E_NOMEM
                                     : standings_of(d, d->npaired, t, st);
    for (int k = 0; k < 6; k++)
        h[k] = _(headers[k]);
    for (size_t size = 1 << 16; rc == 0; size *= 2) {
        free(out);
        if ((out = malloc(size)) == NULL) {
            rc = TB_E_NOMEM;
            break;
        }
        rc = trf      ? club_trf_write(t, st, out, size)
             : a->html ? club_crosstable_html(t, club_dir_points(d), st, h, out,
                                              size)
                      : club_crosstable_text(t, club_dir_points(d), st, h, out,
                                             size);
        if (rc != TB_E_SPACE)
            break;
        rc = 0;
    }
    if (rc >= 0) {
        if (!trf && !a->html)
            printf("%s\n\n", d->name);
        fputs(out, stdout);
    } else {
        cli__dir_say(_("cannot compute the standings: %s"), _(tb_strerror(rc)),
                     NULL);
    }
    free(out);
    free(st);
    club_tourney_free(t);
    return rc >= 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

/* verify: every pairing against the rules, every result against its
 * kept log, every published standing against the recomputed one. */
static int verify(const Args *a, Club_Dir *d)
{
    char doc[1100], path[1024], num[64];
    int games = 0;
    Club_Tourney *t = club_tourney_new();
    Club_Standing *st = calloc((size_t)d->nplayers + 1, sizeof *st);
    int status = CLI_EXIT_FAIL;
    if (t == NULL || st == NULL)
        goto done;
    for (int r = 1; r <= d->npaired; r++) {
        Club_Dir_Board want[CLUB_DIR_MAX_BOARDS];
        const Club_Dir_Round *rr = &d->round[r - 1];
        int n = 0, rc = club_dir_pair(d, r, want, &n);
        path_of(doc, sizeof doc, a->dir, "pairings", r, 0);
        if (rc != 0) {
            cli__dir_say(_("%s: the rules give no pairing for this round"), doc,
                         NULL);
            goto done;
        }
        for (int b = 0; b < n || b < rr->nboards; b++)
            if (b >= n || b >= rr->nboards ||
                want[b].white != rr->boards[b].white ||
                want[b].black != rr->boards[b].black) {
                snprintf(num, sizeof num, "%d", b + 1);
                cli__dir_say(
                    _("%s: board %s differs from the pairing the rules give"),
                    doc, num);
                goto done;
            }
        if (!rr->has_results)
            continue;
        path_of(doc, sizeof doc, a->dir, "results", r, 0);
        for (int b = 1; b <= rr->nboards; b++) {
            const Club_Dir_Board *x = &rr->boards[b - 1];
            uint8_t *buf = NULL;
            size_t len = 0;
            char why[256] = "";
            Club_Dir_Log lg;
            if (!x->done)
                continue;
            if (x->forfeit != CLUB_FORFEIT_NONE) {
                static const char *const w[] = {NULL, "white", "black", "none"};
                printf("forfeit: round %d board %d %s: the director's signed "
                       "word, no log\n",
                       r, b, w[x->forfeit]);
                continue;
            }
            snprintf(num, sizeof num, "%d", b);
            /* (the folder's or the URL's: anyone verifies a published
             * tournament) */
            char name[64];
            path_of(path, sizeof path, a->dir, NULL, r, b);
            snprintf(name, sizeof name, "logs/round-%d-board-%d.log", r, b);
            rc = fetch_get(a->dir, name, CLUB_INDEX_LOG_MAX, &buf, &len, why,
                           sizeof why);
            if (rc == 0)
                rc = club_dir_log_game(buf, len, &lg, why, sizeof why);
            free(buf);
            if (rc != 0) {
                cli__dir_say(_("%s does not verify: %s"), path,
                             why[0] != '\0' ? _(why) : _(tb_strerror(rc)));
                cli__dir_say(
                    _("%s: board %s rests on a log that does not verify"), doc,
                    num);
                goto done;
            }
            if (memcmp(lg.hash, x->log, PROTO_HASH_BYTES) != 0) {
                cli__dir_say(
                    _("%s: board %s names another log than the one kept"), doc,
                    num);
                cli__dir_say(_("(the kept log is %s)"), path, NULL);
                goto done;
            }
            if (club_dir_find(d, lg.white) != x->white ||
                club_dir_find(d, lg.black) != x->black) {
                cli__dir_say(
                    _("%s: board %s: the log is not between the paired "
                      "players"),
                    doc, num);
                cli__dir_say(_("(the kept log is %s)"), path, NULL);
                goto done;
            }
            if (strcmp(lg.game, d->game) != 0 || strcmp(lg.clock, d->clock) != 0) {
                cli__dir_say(
                    _("%s: board %s: the log's game or clock is not the "
                      "tournament's"),
                    doc, num);
                goto done;
            }
            const char *rwhy = "";
            if (!club_dir_log_relay_ok(d, &lg, &rwhy)) {
                cli__dir_say(_("%s: board %s: the log is not the tournament's "
                               "relay's"),
                             doc, num);
                cli__dir_say(_("%s refused: %s"), path, _(rwhy));
                goto done;
            }
            if (lg.half[0] != x->half[0] || lg.half[1] != x->half[1]) {
                cli__dir_say(
                    _("%s: board %s: the result differs from its log's"), doc,
                    num);
                goto done;
            }
            games++;
        }
        if (standings_of(d, r, t, st) != 0) {
            cli__dir_say(_("%s: the standings cannot be computed"), doc, NULL);
            goto done;
        }
        for (int i = 0; i < d->nplayers; i++) {
            const Club_Standing *p = &rr->standings[i], *q = &st[i];
            if (p->rank != q->rank || p->player != q->player ||
                p->points != q->points || p->buchholz != q->buchholz ||
                p->buchholz_cut1 != q->buchholz_cut1 ||
                p->sonneborn != q->sonneborn || p->direct != q->direct) {
                snprintf(num, sizeof num, "%d", i + 1);
                cli__dir_say(
                    _("%s: standing line %s differs from the one the logs "
                      "give"),
                    doc, num);
                goto done;
            }
        }
    }
    char fp[PROTO_FINGERPRINT_MAX];
    proto_fingerprint(d->director, fp);
    printf("verified: %d rounds, %d games, director %s\n", d->npaired, games,
           fp);
    status = CLI_EXIT_OK;
done:
    free(st);
    club_tourney_free(t);
    return status;
}

static const char *const subs[] = {"create",  "register", "withdraw",  "pair",
                                   "collect", "forfeit",  "standings", "export",
                                   "verify",  "play",     NULL};

int cli_director_sub(const char *word)
{
    for (int i = 0; word != NULL && subs[i] != NULL; i++)
        if (strcmp(word, subs[i]) == 0)
            return 1;
    return 0;
}

int cli_director(int argc, char **argv)
{
    Args a;
    memset(&a, 0, sizeof a);
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        int bot;
        if (cli_is_help(argv[i])) {
            fputs(_(director_help), stdout);
            return CLI_EXIT_OK;
        }
        if ((bot = cli_bot_arg("tournament", argc, argv, &i, 3, &a.bot)) != 0) {
            if (bot < 0)
                return CLI_EXIT_USAGE;
            continue;
        }
        int f = cli_arg("tournament", director_flags, argc, argv, &i,
                        _(director_help), &v);
        switch (f) {
        case CLI_ARG_WORD:
            if (a.sub == NULL)
                a.sub = v;
            else if (a.dir == NULL)
                a.dir = v;
            else if (a.nwords < (int)(sizeof a.words / sizeof a.words[0]))
                a.words[a.nwords++] = v;
            else
                return cli_unexpected("tournament", v, _(director_help));
            break;
        case DIR_GAME: a.game = v; break;
        case DIR_SYSTEM: a.system = v; break;
        case DIR_CLOCK: a.clock = v; break;
        case DIR_NAME: a.name = v; break;
        case DIR_KEY: a.key = v; break;
        case DIR_LOBBY: a.lobby = v; break;
        case DIR_HTML: a.html = 1; break;
        case DIR_RELAY:
            a.relay = v;
            break;
        case DIR_FROM:
            a.from = v;
            break;
        case DIR_WINNER:
            a.winner = v;
            break;
        case DIR_BYE_HALF:
            a.bye_half = 1;
            break;
        case DIR_ME:
            a.me = 1;
            break;
        case DIR_LOG_DIR:
            a.log_dir = v;
            break;
        case DIR_ENTRY:
            cli__dir_say(
                _("entry codes are not supported: register the player's "
                  "public key"),
                NULL, NULL);
            return CLI_EXIT_USAGE;
        case DIR_ROUNDS:
            if (cli_uint(v, 1, CLUB_TOURNEY_MAX_ROUNDS, &a.rounds) != 0) {
                cli__dir_say(_("bad round count '%s'"), v, NULL);
                return CLI_EXIT_USAGE;
            }
            break;
        default:
            return CLI_EXIT_USAGE;
        }
    }
    if (a.dir == NULL) {
        fputs(_(director_help), stderr);
        return CLI_EXIT_USAGE;
    }
    if (proto_init() != 0)
        return CLI_EXIT_FAIL;
    if (strcmp(a.sub, "create") == 0)
        return create(&a);
    if (strcmp(a.sub, "play") == 0)
        return cli__dir_play(a.dir, a.key, a.me, a.bot, a.lobby, a.log_dir);
    Club_Dir *d = club_dir_new();
    Proto_Identity id;
    int status = CLI_EXIT_FAIL, signs = 0;
    memset(&id, 0, sizeof id);
    if (d == NULL || cli__dir_load(a.dir, d, 0) != 0)
        goto done;
    signs = strcmp(a.sub, "register") == 0 || strcmp(a.sub, "withdraw") == 0 ||
            strcmp(a.sub, "pair") == 0 || strcmp(a.sub, "collect") == 0 ||
            strcmp(a.sub, "forfeit") == 0;
    if (signs) {
        if (load_key(a.key, &id) != 0)
            goto done;
        if (memcmp(id.pk, d->director, PROTO_KEY_BYTES) != 0) {
            cli__dir_say(
                _("this key is not the tournament's director's (--key FILE)"),
                NULL, NULL);
            goto done;
        }
    }
    if (strcmp(a.sub, "register") == 0)
        status = register_player(&a, d, &id);
    else if (strcmp(a.sub, "withdraw") == 0)
        status = withdraw(&a, d, &id);
    else if (strcmp(a.sub, "pair") == 0)
        status = pair(&a, d, &id);
    else if (strcmp(a.sub, "collect") == 0)
        status = collect(&a, d, &id);
    else if (strcmp(a.sub, "forfeit") == 0)
        status = forfeit(&a, d, &id);
    else if (strcmp(a.sub, "standings") == 0)
        status = standings(&a, d, 0);
    else if (strcmp(a.sub, "export") == 0)
        status = standings(&a, d, 1);
    else
        status = verify(&a, d);
done:
    proto_identity_wipe(&id);
    club_dir_free(d);
    return status;
}
