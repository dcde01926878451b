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
#include "director.h"
#include "i18n.h"
#include "lobby_wire.h"
#include "proto.h"
#include "tb_error.h"

static const char director_help[] = N_(
    "usage: tabula tournament create DIR --game GAME --system rr|drr|swiss\n"
    "                                [--rounds N] [--clock C] [--name NAME]\n"
    "       tabula tournament register DIR KEY [--name NAME]\n"
    "       tabula tournament withdraw DIR KEY\n"
    "       tabula tournament pair DIR [--lobby HOST:PORT]\n"
    "       tabula tournament collect DIR LOG...\n"
    "       tabula tournament standings DIR [--html]\n"
    "       tabula tournament export DIR\n"
    "       tabula tournament verify DIR\n"
    "\n"
    "A tournament is the folder DIR of documents signed by the director's\n"
    "key (tabula identity's, or --key FILE): create makes it, register adds\n"
    "a player by the public key 'tabula identity' prints, withdraw takes\n"
    "one out from the next round, pair pairs the next round and prints\n"
    "'round N: WHITE - BLACK' (fingerprints) with the commands the two\n"
    "players run, collect takes results from verified match logs only,\n"
    "standings prints the crosstable, export writes FIDE TRF-16, and verify\n"
    "recomputes every pairing and standing from the rules and the logs.\n"
    "  --key FILE    the director's identity file\n"
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
    DIR_ENTRY
};

static const Cli_Flag director_flags[] = {
    {"--game", CLI_NONEMPTY, DIR_GAME},     {"--system", CLI_NONEMPTY, DIR_SYSTEM},
    {"--rounds", CLI_NONEMPTY, DIR_ROUNDS}, {"--clock", CLI_NONEMPTY, DIR_CLOCK},
    {"--name", CLI_NONEMPTY, DIR_NAME},     {"--key", CLI_NONEMPTY, DIR_KEY},
    {"--lobby", CLI_NONEMPTY, DIR_LOBBY},   {"--html", CLI_SWITCH, DIR_HTML},
    {"--entry", CLI_NONEMPTY, DIR_ENTRY},   {NULL, CLI_SWITCH, 0}};

/* The crosstable's column titles (as cmd_tournament.c's). */
static const char *const headers[6] = {N_("#"),  N_("Name"),  N_("Pts"),
                                       N_("BH"), N_("BH-C1"), N_("SB")};

typedef struct Args {
    const char *sub, *dir, *game, *system, *clock, *name, *key, *lobby;
    const char *words[64];
    int nwords;
    uint64_t rounds;
    int html;
} Args;

static void say(const char *fmt, const char *a, const char *b)
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

/* Read every document of dir into d: the tournament, then each round's
 * pairings and results while they exist. A refusal is said naming the
 * file, its line and why. */
static int load(const char *dir, Club_Dir *d)
{
    char path[1024];
    for (int r = 0; r <= CLUB_TOURNEY_MAX_ROUNDS; r++) {
        for (int kind = r == 0 ? CLUB_DOC_TOURNAMENT : CLUB_DOC_PAIRINGS;
             kind <= (r == 0 ? CLUB_DOC_TOURNAMENT : CLUB_DOC_RESULTS);
             kind++) {
            uint8_t *buf = NULL;
            size_t len = 0;
            Club_Dir_Error e = {0, ""};
            path_of(path, sizeof path, dir,
                    r == 0                        ? "tournament.txt"
                    : kind == CLUB_DOC_PAIRINGS   ? "pairings"
                                                  : "results",
                    r, 0);
            if (r > 0 && !file_exists(path)) {
                if (kind == CLUB_DOC_PAIRINGS)
                    return 0;
                continue;
            }
            int rc = proto_read_file(path, &buf, &len);
            if (rc != 0) {
                say(_("cannot read %s: %s"), path, _(tb_strerror(rc)));
                return rc;
            }
            rc = club_dir_read(d, kind, buf, len, &e);
            free(buf);
            if (rc != 0) {
                char where[1100];
                snprintf(where, sizeof where, "%s:%d", path, e.line);
                say(_("%s: %s"), where,
                    e.why[0] != '\0' ? _(e.why) : _(tb_strerror(rc)));
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
        say(_("cannot use the director's key %s: %s"),
            file != NULL ? file : _("(your identity)"), _(tb_strerror(rc)));
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
        say(_("cannot write a document into %s: %s"), dir, _(tb_strerror(rc)));
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
        say(_("create needs --game GAME and --system rr|drr|swiss"), NULL, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (cli_game("tournament", a->game) == NULL) {
        status = CLI_EXIT_USAGE;
        goto done;
    }
    snprintf(d->game, sizeof d->game, "%s", core_game_name(cli_game("tournament", a->game)));
    if ((sys = club_system_parse(a->system)) < 0) {
        say(_("unknown system '%s' (rr, drr or swiss)"), a->system, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    d->system = sys;
    d->rounds = (int)a->rounds;
    if (sys == CLUB_SYSTEM_SWISS && d->rounds == 0) {
        say(_("a Swiss tournament needs --rounds N"), NULL, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (a->clock != NULL &&
        (proto_clock_parse(a->clock, 1, &clk, NULL) != 0 ||
         proto_clock_format(&clk, d->clock, sizeof d->clock) != 0)) {
        say(_("bad clock '%s'"), a->clock, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (proto_name_check(a->name != NULL ? a->name : "Tournament",
                         strlen(a->name != NULL ? a->name : "Tournament"),
                         d->name, sizeof d->name) != 0) {
        say(_("bad tournament name '%s'"), a->name, NULL);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (mkdir(a->dir, 0755) != 0 && errno != EEXIST) {
        say(_("cannot make the folder %s"), a->dir, NULL);
        goto done;
    }
    char path[1024];
    path_of(path, sizeof path, a->dir, "tournament.txt", 0, 0);
    if (file_exists(path)) {
        say(_("%s holds a tournament already"), a->dir, NULL);
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

static int register_player(const Args *a, Club_Dir *d, const Proto_Identity *id)
{
    Club_Dir_Player *pl;
    if (a->nwords != 1) {
        say(_("register needs the player's public key (tabula identity "
              "prints it)"),
            NULL, NULL);
        return CLI_EXIT_USAGE;
    }
    if (d->npaired > 0) {
        say(_("round 1 is paired: registration is closed"), NULL, NULL);
        return CLI_EXIT_FAIL;
    }
    if (d->nplayers == CLUB_DIR_MAX_PLAYERS) {
        say(_("the tournament is full"), NULL, NULL);
        return CLI_EXIT_FAIL;
    }
    pl = &d->players[d->nplayers];
    memset(pl, 0, sizeof *pl);
    if (proto_unhex(a->words[0], strlen(a->words[0]), pl->key,
                    PROTO_KEY_BYTES) != 0) {
        say(_("'%s' is not a public key: 64 lowercase hex digits, as tabula "
              "identity prints after public-key:"),
            a->words[0], NULL);
        return CLI_EXIT_USAGE;
    }
    if (club_dir_find(d, pl->key) != 0) {
        say(_("%s is registered already"), a->words[0], NULL);
        return CLI_EXIT_FAIL;
    }
    if (a->name != NULL && proto_name_check(a->name, strlen(a->name), pl->name,
                                            sizeof pl->name) != 0) {
        say(_("bad player name '%s'"), a->name, NULL);
        return CLI_EXIT_USAGE;
    }
    d->nplayers++;
    if (save(a->dir, d, CLUB_DOC_TOURNAMENT, 0, NULL, id) != 0)
        return CLI_EXIT_FAIL;
    char fp[PROTO_FINGERPRINT_MAX];
    proto_fingerprint(pl->key, fp);
    printf("registered: %d %s\n", d->nplayers, fp);
    return CLI_EXIT_OK;
}

static int withdraw(const Args *a, Club_Dir *d, const Proto_Identity *id)
{
    int p = a->nwords == 1 ? player_of(d, a->words[0]) : 0;
    if (p == 0) {
        say(_("no such player: '%s'"), a->nwords == 1 ? a->words[0] : "",
            NULL);
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

/* The invite code both players of round r's board b compute alike,
 * bound to White's key (the host's): docs/tournaments.md. */
static int game_code(const Club_Dir *d, int r, int b, Lobby_Code *code)
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
    if (total < 0) {
        say(_("a round robin takes 3 to 16 players"), NULL, NULL);
        return CLI_EXIT_FAIL;
    }
    if (r > total) {
        say(_("every round is paired"), NULL, NULL);
        return CLI_EXIT_FAIL;
    }
    for (int b = 0; r > 1 && b < d->round[r - 2].nboards; b++)
        if (!board_over(d, r - 1, &d->round[r - 2].boards[b])) {
            char num[16];
            snprintf(num, sizeof num, "%d", r - 1);
            say(_("round %s has games without a result: collect their logs "
                  "first"),
                num, NULL);
            return CLI_EXIT_FAIL;
        }
    rc = club_dir_pair(d, r, d->round[r - 1].boards, &n);
    if (rc == TB_E_STATE) { /* (the rounds before are in: see above) */
        char num[16];
        snprintf(num, sizeof num, "%d", r);
        say(_("no pairing of round %s keeps FIDE's absolute criteria "
              "(C1-C3): the arbiter decides it"),
            num, NULL);
        return CLI_EXIT_FAIL;
    }
    if (rc != 0) {
        say(_("cannot pair: %s"), _(tb_strerror(rc)), NULL);
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
        if (game_code(d, r, b, &code) != 0)
            return CLI_EXIT_FAIL;
        proto_hex(d->players[x->black - 1].key, PROTO_KEY_BYTES, bhex);
        printf("  white: tabula host %s%s%s --lobby %s --me --guest %s "
               "--code %s\n",
               d->game, clock[0] ? " --clock " : "", clock,
               a->lobby != NULL ? a->lobby : "HOST:PORT", bhex, code.text);
        printf("  black: tabula join %s --lobby %s --me\n", code.text,
               a->lobby != NULL ? a->lobby : "HOST:PORT");
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

static int collect(const Args *a, Club_Dir *d, const Proto_Identity *id)
{
    int refused = 0, touched[CLUB_TOURNEY_MAX_ROUNDS + 1] = {0};
    char path[1024];
    if (a->nwords == 0) {
        say(_("collect needs match logs"), NULL, NULL);
        return CLI_EXIT_USAGE;
    }
    path_of(path, sizeof path, a->dir, "logs", 0, 0);
    mkdir(path, 0755);
    for (int i = 0; i < a->nwords; i++) {
        const char *file = a->words[i];
        uint8_t *buf = NULL;
        size_t len = 0;
        char why[256] = "";
        Club_Dir_Log lg;
        int rc = proto_read_file(file, &buf, &len), found = 0;
        if (rc == 0)
            rc = club_dir_log_game(buf, len, &lg, why, sizeof why);
        if (rc != 0) {
            say(_("%s refused: it does not verify: %s"), file,
                why[0] != '\0' ? _(why) : _(tb_strerror(rc)));
            refused++;
            free(buf);
            continue;
        }
        if (strcmp(lg.game, d->game) != 0 || strcmp(lg.clock, d->clock) != 0) {
            say(_("%s refused: it is not the tournament's game and clock (%s)"),
                file, lg.game);
            refused++;
            free(buf);
            continue;
        }
        int w = club_dir_find(d, lg.white), bl = club_dir_find(d, lg.black);
        for (int r = 1; r <= d->npaired && !found; r++)
            for (int b = 1; b <= d->round[r - 1].nboards && !found; b++) {
                Club_Dir_Board *x = &d->round[r - 1].boards[b - 1];
                if (w == 0 || x->white != w || x->black != bl ||
                    (x->done && memcmp(x->log, lg.hash, PROTO_HASH_BYTES) ==
                                    0)) {
                    if (w != 0 && x->white == w && x->black == bl &&
                        x->done && found == 0) {
                        found = -1; /* the same log again */
                        printf("collected: round %d board %d already\n", r,
                               b);
                    }
                    continue;
                }
                if (x->done) /* (a rematch's log: the next round's) */
                    continue;
                path_of(path, sizeof path, a->dir, NULL, r, b);
                if (write_file(path, buf, len) != 0) {
                    say(_("cannot write a document into %s: %s"), a->dir,
                        _(tb_strerror(TB_E_IO)));
                    free(buf);
                    return CLI_EXIT_FAIL;
                }
                x->done = 1;
                x->half[0] = lg.half[0];
                x->half[1] = lg.half[1];
                memcpy(x->log, lg.hash, PROTO_HASH_BYTES);
                touched[r] = 1;
                found = 1;
                printf("collected: round %d board %d %u:%u\n", r, b,
                       lg.half[0], lg.half[1]);
            }
        free(buf);
        if (found == 0) {
            say(_("%s refused: its players are no pairing of the tournament "
                  "with these colours still without a result"),
                file, NULL);
            refused++;
        }
    }
    /* every results document from the first round touched on: later
     * standings count the earlier results */
    int from = 0;
    for (int r = 1; r <= d->npaired && from == 0; r++)
        if (touched[r])
            from = r;
    for (int r = from; from > 0 && r <= d->npaired; r++)
        if (r == from || touched[r] || d->round[r - 1].has_results)
            if (publish(a->dir, d, r, id) != 0)
                return CLI_EXIT_FAIL;
    return refused > 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
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
        say(_("cannot compute the standings: %s"), _(tb_strerror(rc)), NULL);
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
            say(_("%s: the rules give no pairing for this round"), doc, NULL);
            goto done;
        }
        for (int b = 0; b < n || b < rr->nboards; b++)
            if (b >= n || b >= rr->nboards ||
                want[b].white != rr->boards[b].white ||
                want[b].black != rr->boards[b].black) {
                snprintf(num, sizeof num, "%d", b + 1);
                say(_("%s: board %s differs from the pairing the rules give"),
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
            snprintf(num, sizeof num, "%d", b);
            path_of(path, sizeof path, a->dir, NULL, r, b);
            rc = proto_read_file(path, &buf, &len);
            if (rc == 0)
                rc = club_dir_log_game(buf, len, &lg, why, sizeof why);
            free(buf);
            if (rc != 0) {
                say(_("%s does not verify: %s"), path,
                    why[0] != '\0' ? _(why) : _(tb_strerror(rc)));
                say(_("%s: board %s rests on a log that does not verify"), doc,
                    num);
                goto done;
            }
            if (memcmp(lg.hash, x->log, PROTO_HASH_BYTES) != 0) {
                say(_("%s: board %s names another log than the one kept"), doc, num);
                say(_("(the kept log is %s)"), path, NULL);
                goto done;
            }
            if (club_dir_find(d, lg.white) != x->white ||
                club_dir_find(d, lg.black) != x->black) {
                say(_("%s: board %s: the log is not between the paired "
                      "players"),
                    doc, num);
                say(_("(the kept log is %s)"), path, NULL);
                goto done;
            }
            if (strcmp(lg.game, d->game) != 0 || strcmp(lg.clock, d->clock) != 0) {
                say(_("%s: board %s: the log's game or clock is not the "
                      "tournament's"),
                    doc, num);
                goto done;
            }
            if (lg.half[0] != x->half[0] || lg.half[1] != x->half[1]) {
                say(_("%s: board %s: the result differs from its log's"), doc,
                    num);
                goto done;
            }
            games++;
        }
        if (standings_of(d, r, t, st) != 0) {
            say(_("%s: the standings cannot be computed"), doc, NULL);
            goto done;
        }
        for (int i = 0; i < d->nplayers; i++) {
            const Club_Standing *p = &rr->standings[i], *q = &st[i];
            if (p->rank != q->rank || p->player != q->player ||
                p->points != q->points || p->buchholz != q->buchholz ||
                p->buchholz_cut1 != q->buchholz_cut1 ||
                p->sonneborn != q->sonneborn || p->direct != q->direct) {
                snprintf(num, sizeof num, "%d", i + 1);
                say(_("%s: standing line %s differs from the one the logs "
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

static const char *const subs[] = {"create",    "register", "withdraw",
                                   "pair",      "collect",  "standings",
                                   "export",    "verify",   NULL};

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
        if (cli_is_help(argv[i])) {
            fputs(_(director_help), stdout);
            return CLI_EXIT_OK;
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
        case DIR_ENTRY:
            say(_("entry codes are not supported: register the player's "
                  "public key"),
                NULL, NULL);
            return CLI_EXIT_USAGE;
        case DIR_ROUNDS:
            if (cli_uint(v, 1, CLUB_TOURNEY_MAX_ROUNDS, &a.rounds) != 0) {
                say(_("bad round count '%s'"), v, NULL);
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
    Club_Dir *d = club_dir_new();
    Proto_Identity id;
    int status = CLI_EXIT_FAIL, signs = 0;
    memset(&id, 0, sizeof id);
    if (d == NULL || load(a.dir, d) != 0)
        goto done;
    signs = strcmp(a.sub, "register") == 0 || strcmp(a.sub, "withdraw") == 0 ||
            strcmp(a.sub, "pair") == 0 || strcmp(a.sub, "collect") == 0;
    if (signs) {
        if (load_key(a.key, &id) != 0)
            goto done;
        if (memcmp(id.pk, d->director, PROTO_KEY_BYTES) != 0) {
            say(_("this key is not the tournament's director's (--key FILE)"),
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
