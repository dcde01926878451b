/*
 * netgame_new.c: making a network seat and freeing it (netgame.h): its
 * identity and codes (netstore_seat_take), its files, the match session's
 * configuration (with the test switches), the session resumed from its
 * log; netgame.c drives it.
 *
 * Test switches (read here): TABULA_TEST_DESYNC_PLY=N makes a player's own
 * state diverge at its first move at ply N or later; TABULA_TEST_CLOCK_LIE=1
 * reports no time used on each move; TABULA_TEST_ABSENCE_MS=N sets the
 * absence countdown; TABULA_TEST_CHEAT=flag|desync-true|desync-false|claim
 * makes a player's session send that forgery (match.h, Match_Forge).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "netgame_internal.h"
#include "tb_error.h"

/* ---- making a seat --------------------------------------------------- */

/* TABULA_TEST_CHEAT's names of the cheats (match.h, Match_Forge). */
static Match_Forge forge_named(const char *name)
{
    static const char *const names[] = {
        [MATCH_FORGE_FLAG] = "flag",
        [MATCH_FORGE_DESYNC_TRUE] = "desync-true",
        [MATCH_FORGE_DESYNC_FALSE] = "desync-false",
        [MATCH_FORGE_CLAIM] = "claim",
    };
    for (size_t i = 1; name != NULL && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return (Match_Forge)i;
    return MATCH_FORGE_NONE;
}

/* The seat (its session resumed from its log when there is one). */
static int seat_make(Netgame *g, int resumed, char *why, size_t why_cap)
{
    Seat_Config sc;
    Match_Config *mc = &sc.match;
    const char *env;
    uint64_t from_seq = 0;
    uint32_t numbered = 0;
    int rc;

    memset(&sc, 0, sizeof sc);
    mc->role = (Match_Role)g->cfg.role;
    mc->game = g->seat.game;
    mc->options = g->seat.options;
    mc->id = g->seat.id;
    mc->expect_game = g->cfg.expect_game;
    mc->expect_options = g->cfg.expect_options;
    sc.invite = g->seat.invite;
    sc.watch = g->seat.watch;
    memcpy(sc.seat_secret, g->seat.seat_secret, sizeof sc.seat_secret);
    sc.nodes = (unsigned)g->nnodes;
    /* (a pool's guest may come before its host's room: a wrong code
     * then is a refusal that passes) */
    sc.admitted = resumed || (g->cfg.pool_id != NULL &&
                              g->cfg.role == LOBBY_ROLE_GUEST);
    if (g->cfg.pool_guest != NULL && g->cfg.role == LOBBY_ROLE_HOST)
        memcpy(sc.guest_pk, g->cfg.pool_guest, sizeof sc.guest_pk);

    rc = g->cfg.role != LOBBY_ROLE_SPECTATOR
             ? lobby_code_seat_key(&g->seat.invite, mc->seat_key)
             : 0;
    if (rc == 0)
        rc = lobby_random(mc->match_id, sizeof mc->match_id);
    mc->started = (uint64_t)time(NULL);
    mc->bot = g->cfg.bot_level > 0;
    mc->bot_delay_ms = g->cfg.bot_delay_ms;
    if ((env = getenv("TABULA_TEST_DESYNC_PLY")) != NULL &&
        g->cfg.role != LOBBY_ROLE_SPECTATOR)
        mc->perturb_ply = (uint32_t)strtoul(env, NULL, 10);
    if ((env = getenv("TABULA_TEST_CLOCK_LIE")) != NULL &&
        strcmp(env, "1") == 0 && g->cfg.role != LOBBY_ROLE_SPECTATOR)
        mc->clock_lie = 1;
    if (g->cfg.role != LOBBY_ROLE_SPECTATOR)
        mc->forge = forge_named(getenv("TABULA_TEST_CHEAT"));
    if ((env = getenv("TABULA_TEST_ABSENCE_MS")) != NULL)
        mc->absence_ms = (uint32_t)strtoul(env, NULL, 10);
    if (rc == 0 && g->cfg.seek && g->cfg.role == LOBBY_ROLE_HOST)
        rc = lobby_seek_card(&g->seat.id, &g->seat.invite,
                             core_game_name(g->seat.game), g->seat.options,
                             g->cfg.name, g->cfg.name_len, g->cfg.player,
                             sc.seek, &sc.seek_len);
    if (rc == 0)
        rc = seat_new(&sc, &g->st);
    proto_wipe(&sc, sizeof sc);
    if (rc != 0)
        return rc;
    g->m = seat_match(g->st);
    g->seq.fd = -1;
    if (g->log_path[0] != '\0' && g->cfg.role != LOBBY_ROLE_SPECTATOR)
        netstore_seq_open(&g->seq, g->log_path, &from_seq, &numbered);
    if (resumed &&
        (rc = netstore_resume(g->m, g->log_path, from_seq, numbered,
                              g->seq.turn_at, netgame__wall_ms(),
                              netgame__now_ms(), why, why_cap)) != 0)
        return rc;
    netgame__dispatch(g);
    if (resumed) {
        /* (in moves, as the page says it: "envelopes" meant nothing to
         * a player, a trial) */
        unsigned n =
            (unsigned)proto_transcript_moves(match_transcript(g->m));
        netgame__say(g,
                     ngettext("resumed: %u move from %s",
                              "resumed: %u moves from %s", n),
                     n, g->log_path);
    }
    if (!resumed || match_last_seq(g->m) == 0) {
        /* a new seat, or one that never saw the start */
        if (g->seq.fd >= 0 && ftruncate(g->seq.fd, 0) != 0)
            netgame__warn(g, _("cannot reset %s.seq"), g->log_path);
        g->seq.saved = 0;
        g->seq.turn_at = 0;
    } else {
        netgame__say(g, _("catching up on what you missed (the lobby's "
                          "frames after %llu)"),
                     (unsigned long long)match_last_seq(g->m));
    }
    return 0;
}

int netgame_new(uv_loop_t *loop, const Netgame_Config *cfg,
                const Netgame_Hooks *hooks, void *user, Netgame **out,
                char *why, size_t why_cap)
{
    Netgame *g;
    int rc, resumed;

    *out = NULL;
    why[0] = '\0';
    if (cfg->lobby == NULL || strlen(cfg->lobby) >= sizeof g->lobby ||
        (cfg->role == LOBBY_ROLE_HOST && cfg->game == NULL) ||
        (cfg->role != LOBBY_ROLE_HOST && cfg->code == NULL)) {
        snprintf(why, why_cap, _("missing game, code or lobby"));
        return TB_E_ARG;
    }
    if ((g = calloc(1, sizeof *g)) == NULL)
        return TB_E_NOMEM;
    g->seq.fd = -1;
    g->lock_fd = -1;
    g->loop = loop;
    g->cfg = *cfg;
    if (hooks != NULL)
        g->hooks = *hooks;
    g->user = user;
    g->seat.game = cfg->game;
    snprintf(g->lobby, sizeof g->lobby, "%s", cfg->lobby);
    snprintf(g->label, sizeof g->label, "%s", cfg->label ? cfg->label : "");
    snprintf(g->log_path, sizeof g->log_path, "%s",
             cfg->log_path ? cfg->log_path : "");
    snprintf(g->seat.options, sizeof g->seat.options, "%s",
             cfg->options ? cfg->options : "");
    g->cfg.log_path = g->log_path;
    rc = 0;
    /* One lobby, or several nodes of one (--lobby A,B: nodes sharing a
     * Redis, docs/lobby-nodes.md): the seat says which to use. */
    if (cfg->nnodes > 0 && cfg->nnodes <= SEAT_NODES_MAX) {
        g->nnodes = cfg->nnodes;
        memcpy(g->nodes, cfg->nodes, g->nnodes * sizeof g->nodes[0]);
    } else if (lobby_addr_list_parse(g->lobby, g->nodes, SEAT_NODES_MAX,
                                     &g->nnodes) != 0) {
        snprintf(why, why_cap, _("bad lobby address '%s'"),
                 cli_token(g->lobby));
        rc = TB_E_ARG;
        goto fail;
    }
    /* A guest kept in the store: its file is named by the code, so the
     * same command finds it again. */
    Lobby_Code asked;
    if (g->log_path[0] == '\0' && cfg->store_dir != NULL &&
        cfg->role == LOBBY_ROLE_GUEST &&
        lobby_code_parse(cfg->code, &asked) == 0) {
        int n = snprintf(g->log_path, sizeof g->log_path, "%s/join-%s.log",
                         cfg->store_dir, asked.text);
        g->stored = n > 0 && (size_t)n < sizeof g->log_path;
        if (!g->stored)
            g->log_path[0] = '\0';
    }
    if (g->log_path[0] != '\0' && cfg->role != LOBBY_ROLE_SPECTATOR &&
        (rc = netstore_lock(g->log_path, &g->lock_fd)) != 0) {
        if (!g->stored) {
            snprintf(why, why_cap,
                     _("%s is in use: another tabula runs that seat"),
                     g->log_path);
            goto fail;
        }
        /* that seat runs in another process here: this one is new */
        g->stored = 0;
        g->log_path[0] = '\0';
    }
    int had_path = g->log_path[0] != '\0';
    if (cfg->pool_id != NULL) { /* (a new seat keeps its offer's card's) */
        if (cfg->role == LOBBY_ROLE_HOST && cfg->pool_invite == NULL) {
            rc = TB_E_ARG;
            goto fail;
        }
        g->seat.given = 1;
        g->seat.id = *cfg->pool_id;
        if (cfg->role == LOBBY_ROLE_HOST)
            g->seat.invite = *cfg->pool_invite;
    }
    g->seat.own_lobby = cfg->own_lobby;
    resumed = netstore_seat_take(
        g->log_path, sizeof g->log_path,
        cfg->role == LOBBY_ROLE_HOST ? cfg->store_dir : NULL, cfg->role,
        cfg->game, cfg->code, g->lobby, &g->seat, why, why_cap);
    if (resumed < 0) {
        rc = resumed;
        goto fail;
    }
    /* (a --log in the store: a host brought back by the command it was
     * told is one of its seats, retired at the end as well) */
    size_t sn = cfg->store_dir != NULL ? strlen(cfg->store_dir) : 0;
    if (had_path && sn > 0 && strncmp(g->log_path, cfg->store_dir, sn) == 0 &&
        g->log_path[sn] == '/' && strchr(g->log_path + sn + 1, '/') == NULL)
        g->stored = 1;
    if (!had_path && g->log_path[0] != '\0') { /* a host in the store */
        g->stored = 1;
        if (netstore_lock(g->log_path, &g->lock_fd) != 0)
            g->lock_fd = -1; /* a new random code: no one else has it */
    }
    uv_timer_init(loop, &g->tick_timer);
    g->tick_timer.data = g;
    g->timers_open = 1;
    g->resumed = resumed;
    if ((rc = seat_make(g, resumed, why, why_cap)) != 0)
        goto fail;
    *out = g;
    netgame__dispatch(
        g); /* the resumed log's lines, then the first connection */
    return 0;
fail:
    if (why[0] == '\0')
        snprintf(why, why_cap, "%s", _(tb_strerror(rc)));
    netgame_free(g);
    return rc;
}

static void handle_closed(uv_handle_t *h)
{
    Netgame *g = h->data;
    if (--g->closing == 0)
        free(g);
}

void netgame_free(Netgame *g)
{
    if (g == NULL)
        return;
    g->done = 1;
    g->freed = 1;
    netgame__conn_close(g); /* its close callback counts down */
    proto_log_close(g->log);
    netstore_seq_close(&g->seq);
    if (g->lock_fd >= 0)
        close(g->lock_fd); /* (the lock goes with it) */
    g->lock_fd = -1;
    netbot_free(g->bot);
    seat_free(g->st);
    g->st = NULL;
    g->m = NULL;
    proto_identity_wipe(&g->seat.id);
    if (g->timers_open) {
        /* The timer lives inside g: it goes with the last close. */
        g->timers_open = 0;
        g->closing++;
        uv_close((uv_handle_t *)&g->tick_timer, handle_closed);
    }
    if (g->closing == 0)
        free(g);
}
