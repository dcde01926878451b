/*
 * cmd_pool.c: `tabula pool GAMES --clock RANGE`, an offer to the lobby's
 * pool (issue 37; docs/pool.md, docs/protocol-lobby.md "Pool"): several
 * games and a range of clocks at once. It prints how many wait for each
 * game offered as that changes ("pool: waiting (laska 2, chessball 1)"),
 * then who hosts which game at which clock once the lobby pairs the
 * offer ("pool: paired: host laska 5+3"), then plays that game exactly
 * as tabula host or join does: the older offer hosts its room with the
 * invite code its card carried, seating only the guest's key; the guest
 * joins with that code (cmd_net.c's cli_net_play runs both).
 */
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "netgame.h"
#include "netstore.h"
#include "seat.h"
#include "tb_error.h"

#define POOL_DEFAULT_LOBBY "127.0.0.1:7470"
#define POOL_DEFAULT_LEVEL 3

static const char pool_help[] = N_(
    "usage: tabula pool GAMES [--clock RANGE] [--lobby HOST:PORT]\n"
    "                         [--bot [LEVEL]] [--log FILE] [--options OPTS]\n"
    "                         [--delay MS] [--me] [--key FILE]\n"
    "                         [--rating LO..HI]\n"
    "\n"
    "Offers to play any of GAMES (names separated by commas, e.g.\n"
    "laska,chessball) at any clock of RANGE (the shortest and the longest\n"
    "you will play, e.g. 3+2..10+5, or one clock, 5+0; none: without a\n"
    "clock) in the lobby's pool (default 127.0.0.1:7470, or --lobby). The\n"
    "lobby pairs your offer with the one that has waited longest among\n"
    "those that share a game and a clock with it, and shows how many wait\n"
    "for each game: 'pool: waiting (laska 2, chessball 1)', your own offer\n"
    "counted. Then 'pool: paired: host GAME CLOCK' (or guest): the older\n"
    "offer hosts, in the first game of the catalogue both offered, at the\n"
    "longer of the two ranges' low ends; the game is then played as\n"
    "'tabula host' and 'tabula join' play it (their lines). --options OPTS\n"
    "are the match options of every game offered (no clock in them).\n"
    "--log FILE keeps the game's log (and FILE.seat): run the same command\n"
    "again after a crash to come back to that game instead of offering.\n"
    "--delay MS makes the bot wait before each move.\n"
    "--me plays the game under your identity's key (--key FILE: another\n"
    "identity file), so it is rated under it; --rating LO..HI (e.g.\n"
    "1400..1800, with --me) pairs you only with players the lobby's\n"
    "published list rates LO to HI in the game and class you would play,\n"
    "and only if their own --rating holds yours (a player not in the list\n"
    "counts as 1500; docs/pool.md).\n"
    "Ctrl-C withdraws the offer. If the connection is lost after the lobby\n"
    "took the offer, the same offer is made again until the lobby is back:\n"
    "'pool: connection lost (...); offering again'.\n");

enum {
    POOL_FLAG_LOBBY,
    POOL_FLAG_CLOCK,
    POOL_FLAG_LOG,
    POOL_FLAG_OPTIONS,
    POOL_FLAG_DELAY,
    POOL_FLAG_ME,
    POOL_FLAG_KEY,
    POOL_FLAG_RATING
};
const Cli_Flag cli_flags_pool[] = {{"--lobby", CLI_VALUE, POOL_FLAG_LOBBY},
                                   {"--clock", CLI_VALUE, POOL_FLAG_CLOCK},
                                   {"--log", CLI_NONEMPTY, POOL_FLAG_LOG},
                                   {"--options", CLI_VALUE, POOL_FLAG_OPTIONS},
                                   {"--delay", CLI_NONEMPTY, POOL_FLAG_DELAY},
                                   {"--me", CLI_SWITCH, POOL_FLAG_ME},
                                   {"--key", CLI_NONEMPTY, POOL_FLAG_KEY},
                                   {"--rating", CLI_NONEMPTY, POOL_FLAG_RATING},
                                   {NULL, CLI_SWITCH, 0}};

typedef struct Pool_Run {
    uv_loop_t loop;
    uv_signal_t sig;
    uv_timer_t again; /* the wait before the offer is made again */
    Lobby_Pool_Conn *offer;
    Seat_Pool_Offer *made; /* the offer (its hello, and its losses) */
    const struct sockaddr *addr;
    const Core_Game *games[LOBBY_POOL_GAMES]; /* as typed */
    size_t ngames;
    uint32_t shown[LOBBY_POOL_GAMES]; /* the counts last printed */
    int printed;
    int status; /* 1: no answer yet */
    Lobby_Paired paired;
} Pool_Run;

/* The offered games' counts, as "laska 2, chessball 1". */
static void on_wait(void *user, const uint32_t *counts)
{
    Pool_Run *r = user;
    char line[512];
    size_t n = 0;
    int same = r->printed;

    for (size_t i = 0; i < r->ngames; i++) {
        unsigned b = seat_pool_bit(r->games[i]);
        same = same && r->shown[b] == counts[b];
        r->shown[b] = counts[b];
        int k = snprintf(line + n, sizeof line - n, "%s%s %u", i ? ", " : "",
                         core_game_name(r->games[i]), (unsigned)counts[b]);
        if (k > 0 && (size_t)k < sizeof line - n)
            n += (size_t)k;
    }
    seat_pool_taken(r->made);
    if (same) /* (another game's count moved: nothing new for this player) */
        return;
    r->printed = 1;
    /* (a line scripts read, as 'seek: listed' and 'invite:': English) */
    printf("pool: waiting (%s)\n", line);
}

static void on_done(void *user, int status, const Lobby_Paired *paired);

/* The wait is over: the same offer on a new connection. */
static void offer_again(uv_timer_t *t)
{
    Pool_Run *r = t->data;
    int rc = lobby_pool_offer(&r->loop, r->addr, r->made->msg, r->made->len,
                              on_wait, on_done, r, &r->offer);
    if (rc != 0)
        on_done(r, rc, NULL);
}

static void on_done(void *user, int status, const Lobby_Paired *paired)
{
    Pool_Run *r = user;
    r->offer = NULL;
    if (status != 0 && status != UV_ECANCELED) {
        /* taken once, then lost: offered again (seat_pool_lost) */
        uint32_t wait = seat_pool_lost(r->made, status, uv_now(&r->loop));
        if (wait > 0) {
            if (r->made->again == 1)
                /* (a line scripts read, as the game's "lobby: connection
                 * lost": English) */
                printf("pool: connection lost (%s); offering again\n",
                       net_strerror(status));
            r->printed = 0; /* (its counts are said again when taken) */
            uv_timer_start(&r->again, offer_again, wait, 0);
            return;
        }
    }
    r->status = status;
    if (status == 0)
        r->paired = *paired;
    uv_close((uv_handle_t *)&r->sig, NULL);
    uv_close((uv_handle_t *)&r->again, NULL);
}

static void on_signal(uv_signal_t *h, int signum)
{
    Pool_Run *r = h->data;
    (void)signum;
    if (r->offer != NULL) {
        lobby_pool_cancel(r->offer);
        return;
    }
    /* (between two connections: withdrawn here) */
    uv_timer_stop(&r->again);
    on_done(r, UV_ECANCELED, NULL);
}

/* Start cfg (its pool fields, game and code aside) as pool's seat at
 * lobby, with bot_level, its delay (ms) and log_path. */
static void seat_config(Netgame_Config *cfg, const char *lobby, int bot_level,
                        unsigned delay_ms, const char *log_path)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->lobby = lobby;
    cfg->bot_level = bot_level;
    cfg->bot_delay_ms = delay_ms;
    cfg->seed = 1;
    cfg->out = stdout;
    cfg->log_path = log_path;
    cfg->label = "";
    cfg->options = "";
}

/* With --log FILE whose seat file (FILE.seat) exists: the game the pool
 * paired before, taken back as host or join take theirs back; else -1
 * (offer). Returns the exit status. */
static int pool_resume(const char *log_path, const char *lobby, int bot_level,
                       unsigned delay_ms)
{
    Netstore_Seat st;
    Netgame_Config cfg;
    char why[256];
    int rc;

    memset(&st, 0, sizeof st);
    rc = netstore_seat_load(log_path, &st, why, sizeof why);
    proto_identity_wipe(&st.id);
    if (rc == 0)
        return -1;
    if (rc < 0 || (st.role == LOBBY_ROLE_HOST && st.game == NULL)) {
        fprintf(stderr, "tabula pool: %s\n",
                rc < 0 && why[0] != '\0'
                    ? why
                    : _(tb_strerror(rc < 0 ? rc : TB_E_FORMAT)));
        return CLI_EXIT_FAIL;
    }
    seat_config(&cfg, lobby, bot_level, delay_ms, log_path);
    cfg.role = st.role;
    if (st.role == LOBBY_ROLE_HOST) {
        cfg.game = st.game;
        cfg.options = st.options;
    } else {
        cfg.code = st.invite.text;
    }
    return cli_net_play(&cfg, "pool", NULL, 0);
}

/* Read GAMES ("laska,chessball") into r and *mask: 0, or -1 after saying
 * which name is no game (or is given twice). */
static int read_games(const char *text, Pool_Run *r, uint16_t *mask)
{
    char buf[256];
    size_t n = strlen(text);

    if (n == 0 || n >= sizeof buf) {
        fprintf(stderr, _("tabula pool: bad games '%s': expected game names "
                          "separated by commas, e.g. laska,chessball\n"),
                cli_token(text));
        return -1;
    }
    memcpy(buf, text, n + 1);
    *mask = 0;
    for (char *p = buf, *end; p != NULL; p = end) {
        const Core_Game *g;
        if ((end = strchr(p, ',')) != NULL)
            *end++ = '\0';
        if ((g = cli_game("pool", p)) == NULL)
            return -1;
        unsigned b = seat_pool_bit(g);
        if (b >= LOBBY_POOL_GAMES || (*mask & (1u << b)) != 0) {
            fprintf(stderr, _("tabula pool: '%s' is named twice in '%s'\n"),
                    cli_token(p), cli_token(text));
            return -1;
        }
        *mask = (uint16_t)(*mask | 1u << b);
        r->games[r->ngames++] = g;
    }
    return 0;
}

int cli_pool(int argc, char **argv)
{
    Seat_Pool_Rated rated = {0, 0, 0};
    const char *key_file = NULL;
    const char *lobby = POOL_DEFAULT_LOBBY, *range = NULL, *games = NULL;
    const char *options = "", *log_path = NULL, *v;
    int bot_level = 0;
    unsigned delay_ms = 0;
    uint16_t mask = 0;
    Proto_Clock lo, hi;
    Pool_Run r;

    memset(&r, 0, sizeof r);
    memset(&lo, 0, sizeof lo);
    memset(&hi, 0, sizeof hi);
    for (int i = 0; i < argc; i++) {
        int bot;
        if (cli_is_help(argv[i])) {
            fputs(_(pool_help), stdout);
            return CLI_EXIT_OK;
        }
        if ((bot = cli_bot_arg("pool", argc, argv, &i, POOL_DEFAULT_LEVEL,
                               &bot_level)) != 0) {
            if (bot < 0)
                return CLI_EXIT_USAGE;
            continue;
        }
        switch (cli_arg("pool", cli_flags_pool, argc, argv, &i, _(pool_help),
                        &v)) {
        case POOL_FLAG_LOBBY:
            lobby = v;
            break;
        case POOL_FLAG_CLOCK:
            range = v;
            break;
        case POOL_FLAG_LOG:
            log_path = v;
            break;
        case POOL_FLAG_OPTIONS:
            options = v;
            break;
        case POOL_FLAG_ME:
            rated.me = 1;
            break;
        case POOL_FLAG_KEY:
            key_file = v;
            rated.me = 1;
            break;
        case POOL_FLAG_RATING:
            rated.me = 1; /* (a rated game is the player's: under its key) */
            if (seat_rating_range(v, &rated.want_lo, &rated.want_hi) != 0 ||
                rated.want_hi == 0) {
                fputs("tabula pool: ", stderr);
                fprintf(stderr, _(seat_rating_range_bad()), cli_token(v));
                fputc('\n', stderr);
                return CLI_EXIT_USAGE;
            }
            break;
        case POOL_FLAG_DELAY: {
            uint64_t ms = 0;
            if (cli_uint(v, 0, 60000, &ms) != 0) {
                fprintf(stderr, _("tabula %s: bad delay '%s' (0..60000 ms)\n"),
                        "pool", cli_token(v));
                return CLI_EXIT_USAGE;
            }
            delay_ms = (unsigned)ms;
            break;
        }
        case CLI_ARG_WORD:
            if (games != NULL)
                return cli_unexpected("pool", argv[i], _(pool_help));
            games = argv[i];
            break;
        default:
            return CLI_EXIT_USAGE;
        }
    }
    if (games == NULL) {
        fputs(_(pool_help), stderr);
        return CLI_EXIT_USAGE;
    }
    if (read_games(games, &r, &mask) != 0)
        return CLI_EXIT_USAGE;
    if (range != NULL && proto_clock_range_parse(range, 1, &lo, &hi, NULL) != 0) {
        fputs("tabula pool: ", stderr);
        fprintf(stderr, _(seat_clock_range_bad(range)), cli_token(range));
        fputc('\n', stderr);
        return CLI_EXIT_USAGE;
    }
    if (strstr(options, "clock=") != NULL) {
        fprintf(stderr, "tabula pool: %s\n", _(seat_clock_twice()));
        return CLI_EXIT_USAGE;
    }
    for (size_t i = 0; i < r.ngames; i++)
        if (cli_options_check("pool", r.games[i], options, options) != 0)
            return CLI_EXIT_USAGE;
    struct sockaddr_storage addr;
    int arc = cli_lobby_addr("pool", lobby, &addr);
    if (arc != 0)
        return arc;
    if (proto_init() != 0)
        return CLI_EXIT_FAIL;
    if (log_path != NULL) {
        int resumed = pool_resume(log_path, lobby, bot_level, delay_ms);
        if (resumed >= 0)
            return resumed;
    }

    /* The offer is the player's (its identity, tabula identity: one
     * offer of it waits at a time, and two never pair); its card holds
     * this game's seat key and an invite code bound to it, which the
     * relay checks and hands the other player (the host's code to its
     * guest, the guest's key to its host): seat_pool_offer. */
    Proto_Identity me;
    Seat_Pool_Offer offer;
    int idrc = proto_identity_load(&me, key_file, NULL);
    if (idrc != 0 && rated.me) {
        fprintf(stderr, _("tabula pool: cannot read your identity (%s): --me "
                          "plays under it\n"),
                _(tb_strerror(idrc)));
        return CLI_EXIT_FAIL;
    }
    if (idrc != 0)
        fprintf(stderr, _("tabula pool: cannot read your identity (%s): the "
                          "offer goes under this game's key alone\n"),
                _(tb_strerror(idrc)));
    int made = seat_pool_offer(&offer, idrc == 0 ? &me : NULL, mask, &lo, &hi,
                               options, &rated);
    proto_identity_wipe(&me);
    if (made != 0) {
        fprintf(stderr, _("tabula pool: cannot make the offer\n"));
        return CLI_EXIT_FAIL;
    }
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (uv_loop_init(&r.loop) != 0) {
        seat_pool_offer_wipe(&offer);
        return CLI_EXIT_FAIL;
    }
    r.status = 1;
    r.made = &offer;
    r.addr = (const struct sockaddr *)&addr;
    int rc = lobby_pool_offer(&r.loop, r.addr, offer.msg, offer.len, on_wait,
                              on_done, &r, &r.offer);
    if (rc == 0) {
        uv_signal_init(&r.loop, &r.sig);
        r.sig.data = &r;
        uv_signal_start(&r.sig, on_signal, SIGINT);
        uv_timer_init(&r.loop, &r.again);
        r.again.data = &r;
        uv_run(&r.loop, UV_RUN_DEFAULT);
        rc = r.status;
    }
    uv_loop_close(&r.loop);
    if (rc == UV_ECANCELED) {
        seat_pool_offer_wipe(&offer);
        fprintf(stderr, _("tabula pool: you withdrew your offer\n"));
        return CLI_EXIT_FAIL;
    }
    if (rc != 0) {
        seat_pool_offer_wipe(&offer);
        fprintf(stderr, rc == TB_E_SEEKS
                            ? _("tabula pool: the lobby at %s holds an offer "
                                "of yours already (one waits at a time)\n")
                            : _("tabula pool: the lobby at %s did not take "
                                "the offer: %s\n"),
                cli_token(lobby), _(net_strerror(rc)));
        return CLI_EXIT_FAIL;
    }

    /* Paired: a game and clock both offered, the older offer hosting;
     * the match's options are the host's (its card's, as PAIRED says
     * them) and the clock paired; the guest holds the host's start to
     * them (seat_pool_paired). */
    const Lobby_Paired *pd = &r.paired;
    Seat_Pool_Game pg;
    if (seat_pool_paired(pd, mask, &pg) != 0) {
        seat_pool_offer_wipe(&offer);
        fprintf(stderr, _("tabula pool: the lobby paired the offer for a "
                          "game it did not offer\n"));
        return CLI_EXIT_FAIL;
    }
    /* (as --clock takes it: 5+0, not the option's 300+0) */
    printf(pd->role == LOBBY_ROLE_HOST ? "pool: paired: host %s %s\n"
                                       : "pool: paired: guest %s %s\n",
           core_game_name(pg.game), pg.clock[0] != '\0' ? pg.clock : "-");
    Netgame_Config cfg;
    seat_config(&cfg, lobby, bot_level, delay_ms, log_path);
    cfg.role = pd->role;
    cfg.pool_id = &offer.seat;
    cfg.pool_guest = pd->guest_pk;
    cfg.pool_invite = &pd->invite;
    if (pd->role == LOBBY_ROLE_HOST) {
        cfg.game = pg.game;
        cfg.options = pg.options;
    } else {
        cfg.code = pd->invite.text;
        cfg.expect_game = pg.game;
        cfg.expect_options = pg.options;
    }
    rc = cli_net_play(&cfg, "pool", NULL, 0);
    seat_pool_offer_wipe(&offer);
    return rc;
}
