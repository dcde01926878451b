/*
 * demo.c: `tabula demo`, the main job. For each compiled-in game (or the
 * one named), on one libuv loop: an embedded lobby on a free 127.0.0.1
 * port, a host bot, a guest bot joining by the invite code and a
 * spectator watching by the watch code play a complete match through the
 * lobby, exactly as three `tabula host/join/spectate` processes would
 * (signed envelopes, state hashes compared at every ply by all three).
 * Each ply is shown as the spectator sees it. The three match logs are
 * written (into --dir, or a new temporary directory), then each is read
 * back and verified (proto_log_verify), and the demo ends with a table:
 * game, plies, result, final hash, verified.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "engine.h"
#include "cli.h"
#include "netgame.h"
#include "tb_error.h"

#define DEMO_SEATS 3

static const char demo_help[] =
    N_("usage: tabula demo [GAME] [--level N] [--seed S] [--dir DIR] [--quiet]\n"
    "\n"
    "Plays a full game of each game (or GAME) over the network on this\n"
    "machine: an embedded lobby on 127.0.0.1, a host bot, a joining bot\n"
    "and a spectator. Prints every ply with its state hash, writes the\n"
    "three match logs (into DIR, default a new directory under $TMPDIR or\n"
    "/tmp), verifies each, and ends with a table: game, plies, result,\n"
    "final hash, verified. --level sets the bots' strength (1..8, default\n"
    "3), --seed the tie-breaking seed (default 1), --quiet prints only\n"
    "the table.\n");

static const char *const seat_names[DEMO_SEATS] = {"host", "guest",
                                                   "spectator"};

typedef struct Demo_Row {
    const char *game;
    uint32_t plies;
    Core_Status status;
    char hash[PROTO_HASH_HEX];
    int verified;
} Demo_Row;

typedef struct Demo_Run {
    uv_loop_t loop;
    Lobby *lobby;
    char lobby_addr[64];
    Netgame *seat[DEMO_SEATS];
    char log[DEMO_SEATS][640];
    int level;
    uint64_t seed;
    int quiet;
    int ndone;
    int failed;
} Demo_Run;

static void on_done(Netgame *g)
{
    Demo_Run *r = netgame_user(g);
    if (++r->ndone == DEMO_SEATS && r->lobby != NULL) {
        lobby_close(r->lobby, NULL, NULL);
        r->lobby = NULL;
    }
}

static int demo_seat(Demo_Run *r, int i, const Core_Game *game,
                    const char *code)
{
    static const Netgame_Hooks hooks_other = {.on_done = on_done};
    Netgame_Config cfg;
    char why[256];
    memset(&cfg, 0, sizeof cfg);
    cfg.role = (Lobby_Role)i;
    cfg.game = game;
    cfg.options = "";
    cfg.code = code;
    cfg.lobby = r->lobby_addr;
    cfg.bot_level = i == LOBBY_ROLE_SPECTATOR ? 0 : r->level;
    cfg.seed = r->seed;
    cfg.log_path = r->log[i];
    cfg.out = i == LOBBY_ROLE_SPECTATOR && !r->quiet ? stdout : NULL;
    cfg.label = "";
    int rc = netgame_new(&r->loop, &cfg, &hooks_other, r, &r->seat[i], why,
                         sizeof why);
    if (rc != 0) {
        fprintf(stderr, _("tabula demo: %s: %s\n"), seat_names[i], why);
        r->failed = 1;
        r->ndone++;
    }
    return rc;
}

/* The host's room exists: the guest joins and the spectator watches. */
static void on_room(Netgame *g, const char *invite, const char *watch,
                    const char *lobby)
{
    Demo_Run *r = netgame_user(g);
    (void)lobby;
    if (!r->quiet)
        printf("invite: %s\nwatch: %s\n", invite, watch);
    demo_seat(r, LOBBY_ROLE_GUEST, NULL, invite);
    demo_seat(r, LOBBY_ROLE_SPECTATOR, NULL, watch);
}

/* Verify one log; 1 when it verifies, ends, and its final state hash is
 * hash_hex. */
static int verify_log(const char *path, const char *hash_hex,
                      uint8_t **bytes, size_t *nbytes)
{
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    uint8_t hash[PROTO_HASH_BYTES];
    char hex[PROTO_HASH_HEX];
    int ok = 0;

    if (proto_read_file(path, bytes, nbytes) != 0)
        return 0;
    if (proto_log_verify(*bytes, *nbytes, NULL, NULL, NULL, &t, &rep) == 0 &&
        rep.ended && t != NULL &&
        proto_state_hash(proto_transcript_position(t), hash) == 0) {
        proto_hex(hash, sizeof hash, hex);
        ok = strcmp(hex, hash_hex) == 0;
    }
    if (!ok)
        fprintf(stderr, _("tabula demo: %s does not verify: %s\n"), path,
                rep.why);
    proto_transcript_free(t);
    return ok;
}

static int play_one(const Core_Game *game, const char *dir, int level,
                    uint64_t seed, int quiet, Demo_Row *row)
{
    Demo_Run r;
    struct sockaddr_storage sa;
    uint8_t *bytes[DEMO_SEATS] = {NULL, NULL, NULL};
    size_t nbytes[DEMO_SEATS] = {0, 0, 0};
    int rc;

    memset(&r, 0, sizeof r);
    r.level = level;
    r.seed = seed;
    r.quiet = quiet;
    for (int i = 0; i < DEMO_SEATS; i++) {
        char seat[700];
        snprintf(r.log[i], sizeof r.log[i], "%s/%s-%s.log", dir,
                 core_game_name(game), seat_names[i]);
        snprintf(seat, sizeof seat, "%s.seat", r.log[i]);
        unlink(r.log[i]); /* a fresh game, never a resume */
        unlink(seat);
    }
    if (uv_loop_init(&r.loop) != 0)
        return TB_E_NOMEM;
    net_addr_parse("127.0.0.1:0", &sa);
    rc = lobby_new(&r.loop, (const struct sockaddr *)&sa, NULL, &r.lobby);
    if (rc == 0)
        rc = lobby_address(r.lobby, r.lobby_addr, sizeof r.lobby_addr);
    if (rc != 0) {
        fprintf(stderr, _("tabula demo: cannot start a lobby: %s\n"),
                net_strerror(rc));
        lobby_close(r.lobby, NULL, NULL);
        uv_run(&r.loop, UV_RUN_DEFAULT);
        uv_loop_close(&r.loop);
        return rc;
    }
    if (!quiet)
        printf(_("== %s: level %d bots, seed %llu, lobby %s\n"),
               _(core_game_title(game)), level, (unsigned long long)seed,
               r.lobby_addr);
    static const Netgame_Hooks host_hooks = {.on_room = on_room,
                                             .on_done = on_done};
    {
        Netgame_Config cfg;
        char why[256];
        memset(&cfg, 0, sizeof cfg);
        cfg.role = LOBBY_ROLE_HOST;
        cfg.game = game;
        cfg.options = "";
        cfg.lobby = r.lobby_addr;
        cfg.bot_level = level;
        cfg.seed = seed;
        cfg.log_path = r.log[0];
        cfg.label = "";
        rc = netgame_new(&r.loop, &cfg, &host_hooks, &r, &r.seat[0], why,
                         sizeof why);
        if (rc != 0) {
            fprintf(stderr, _("tabula demo: host: %s\n"), why);
            lobby_close(r.lobby, NULL, NULL);
            r.failed = 1;
        }
    }
    uv_run(&r.loop, UV_RUN_DEFAULT);

    row->game = core_game_name(game);
    row->verified = !r.failed;
    for (int i = 0; i < DEMO_SEATS; i++) {
        const Netgame_Result *res =
            r.seat[i] ? netgame_result(r.seat[i]) : NULL;
        if (res == NULL || !res->finished || res->desync) {
            row->verified = 0;
            continue;
        }
        if (i == 0) {
            row->plies = res->plies;
            row->status = res->status;
            memcpy(row->hash, res->final_hash, sizeof row->hash);
        } else if (strcmp(res->final_hash, row->hash) != 0) {
            fprintf(stderr, _("tabula demo: %s: %s ends on another hash\n"),
                    row->game, seat_names[i]);
            row->verified = 0;
        }
    }
    for (int i = 0; i < DEMO_SEATS; i++) {
        if (!verify_log(r.log[i], row->hash, &bytes[i], &nbytes[i]))
            row->verified = 0;
        else if (i > 0 && (nbytes[i] != nbytes[0] ||
                           memcmp(bytes[i], bytes[0], nbytes[0]) != 0)) {
            fprintf(stderr, _("tabula demo: %s and %s differ\n"), r.log[0],
                    r.log[i]);
            row->verified = 0;
        }
    }
    for (int i = 0; i < DEMO_SEATS; i++) {
        free(bytes[i]);
        netgame_free(r.seat[i]);
    }
    uv_run(&r.loop, UV_RUN_DEFAULT);
    uv_loop_close(&r.loop);
    if (!quiet)
        printf("verified: %s (the host's, guest's and spectator's logs %s)\n\n",
               row->verified ? "yes" : "NO",
               row->verified ? "verify and are identical" : "disagree");
    return 0;
}

/* demo's flags. */
enum { DEMO_FLAG_QUIET, DEMO_FLAG_LEVEL, DEMO_FLAG_SEED, DEMO_FLAG_DIR };
const Cli_Flag cli_flags_demo[] = {{"--quiet", CLI_SWITCH, DEMO_FLAG_QUIET},
                                   {"--level", CLI_VALUE, DEMO_FLAG_LEVEL},
                                   {"--seed", CLI_VALUE, DEMO_FLAG_SEED},
                                   {"--dir", CLI_NONEMPTY, DEMO_FLAG_DIR},
                                   {NULL, CLI_SWITCH, 0}};

int cli_demo(int argc, char **argv)
{
    const Core_Game *only = NULL;
    const char *dir = NULL;
    int level = 3, quiet = 0, all_ok = 1;
    uint64_t seed = 1;
    Demo_Row rows[16];
    size_t nrows = 0;
    char tmpdir[400];

    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(_(demo_help), stdout);
            return CLI_EXIT_OK;
        }
        const char *v;
        switch (cli_arg("demo", cli_flags_demo, argc, argv, &i, _(demo_help),
                        &v)) {
        case DEMO_FLAG_QUIET:
            quiet = 1;
            break;
        case DEMO_FLAG_LEVEL: {
            uint64_t lv = 0;
            if (cli_uint(v, BOT_LEVEL_MIN, BOT_LEVEL_MAX, &lv) != 0) {
                fprintf(stderr, _("tabula demo: bad level '%s'; expected 1..8\n"),
                        cli_token(v));
                return CLI_EXIT_USAGE;
            }
            level = (int)lv;
            break;
        }
        case DEMO_FLAG_SEED:
            if (cli_seed("demo", v, &seed) != 0)
                return CLI_EXIT_USAGE;
            break;
        case DEMO_FLAG_DIR:
            dir = v;
            break;
        case CLI_ARG_WORD:
            if (only == NULL) {
                if ((only = cli_game("demo", v)) == NULL)
                    return CLI_EXIT_USAGE;
                break;
            }
            return cli_unexpected("demo", v, _(demo_help));
        default:
            return CLI_EXIT_USAGE;
        }
    }
    if (proto_init() != 0) {
        fprintf(stderr, _("tabula demo: cannot initialise libsodium\n"));
        return CLI_EXIT_FAIL;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (dir == NULL) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/tabula-demo-XXXXXX",
                 base != NULL && base[0] == '/' ? base : "/tmp");
        if (mkdtemp(tmpdir) == NULL) {
            fprintf(stderr, _("tabula demo: cannot create %s\n"), tmpdir);
            return CLI_EXIT_FAIL;
        }
        dir = tmpdir;
    } else if (mkdir(dir, 0700) != 0 && access(dir, W_OK) != 0) {
        fprintf(stderr, _("tabula demo: cannot write into %s\n"),
                cli_token(dir));
        return CLI_EXIT_FAIL;
    }
    for (size_t i = 0; i < core_game_count() && nrows < 16; i++) {
        const Core_Game *g = core_game_at(i);
        if (only != NULL && g != only)
            continue;
        memset(&rows[nrows], 0, sizeof rows[nrows]);
        int rc = play_one(g, dir, level, seed, quiet, &rows[nrows]);
        if (rc != 0) {
            fprintf(stderr, _("tabula demo: %s: %s\n"), core_game_name(g),
                    net_strerror(rc));
            return CLI_EXIT_FAIL;
        }
        all_ok &= rows[nrows].verified;
        nrows++;
    }
    printf("%-12s %6s  %-8s %-12s %-8s %s\n", "game", "plies", "result",
           "reason", "verified", "final hash");
    for (size_t i = 0; i < nrows; i++)
        printf("%-12s %6u  %-8s %-12s %-8s %s\n", rows[i].game, rows[i].plies,
               core_outcome_name(rows[i].status.outcome),
               rows[i].status.outcome == CORE_ONGOING
                   ? "ply-limit"
                   : core_reason_name(rows[i].status.reason),
               rows[i].verified ? "yes" : "no", rows[i].hash);
    printf("logs: %s\n", dir);
    return all_ok ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}
