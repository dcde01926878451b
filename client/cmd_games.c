/*
 * cmd_games.c: `tabula games`, the player's network games kept on this
 * machine (issue 37, correspondence): every seat a host or join left in
 * the seats' folder (netstore_dir), its log verified as `tabula replay`
 * verifies it, with whose move it is, the time left on the running
 * clock (the relay's witnessed turn start against this machine's
 * clock), the last move, and the command that opens it again.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uv.h>

#include "cli.h"
#include "game_glance.h"
#include "i18n.h"
#include "netgame.h"
#include "netstore.h"
#include "proto.h"
#include "tb_error.h"

static const char games_help[] = N_(
    "usage: tabula games [--all] [--wait [--notify CMD]]\n"
    "\n"
    "Lists your network games kept on this machine (the seats of tabula\n"
    "host, seek, pool and join without --log, in the seats' folder), the\n"
    "ones where it is your move first, two lines each:\n"
    "  game: CODE GAME SIDE TURN LEFT LAST\n"
    "  open: the command that takes the seat back\n"
    "SIDE is white or black (yours); TURN is 'you' (your move), 'opponent',\n"
    "'waiting' (no opponent yet) or the result once the game is over;\n"
    "LEFT is the time left on the running clock (2d23h, 4m10s; '-' without\n"
    "one); LAST is the last move with its number ('-' before one). Each\n"
    "game's log is verified first; one that does not verify is named on\n"
    "standard error. --all also lists finished games.\n"
    "  --wait        blocks until one of your running games needs you (your\n"
    "                move, or the game ended), watching each on its lobby\n"
    "                as a spectator, prints its two lines and exits 0\n"
    "  --notify CMD  with --wait: runs CMD with the game's line as its last\n"
    "                argument (e.g. --notify notify-send) for each game\n"
    "                that needs you, once a move, and keeps waiting\n");

enum { GAMES_ALL = 1, GAMES_WAIT, GAMES_NOTIFY };

const Cli_Flag cli_flags_games[] = {{"--all", CLI_SWITCH, GAMES_ALL},
                                    {"--wait", CLI_SWITCH, GAMES_WAIT},
                                    {"--notify", CLI_NONEMPTY, GAMES_NOTIFY},
                                    {NULL, CLI_SWITCH, 0}};

typedef struct Game_Row {
    char line[512], open[4096];
    int yours;          /* your move: listed first */
    int needs;          /* your move, or the game is over */
    uint32_t envelopes; /* in its transcript */
} Game_Row;

static void fill_row(Game_Row *row, const char *path,
                     const Netstore_Seat *saved, int done,
                     const Cli_Glance *g);

/* The row of the seat whose log is path: 0, or 1 when it is left out
 * (finished and not all), or an error said on stderr. */
static int game_row(const char *path, int done, int all, uint64_t now_ms,
                    Game_Row *row)
{
    Netstore_Seat seat;
    char why[256];
    uint8_t *buf = NULL;
    size_t len = 0;
    Cli_Glance g;
    int rc;

    memset(&seat, 0, sizeof seat);
    memset(row, 0, sizeof *row);
    if (done && !all)
        return 1;
    if (!done && netstore_seat_load(path, &seat, why, sizeof why) != 1)
        return 1; /* (a log with no seat: not a seat of this machine's) */
    /* (a finished game's seat file is gone: its role is in its log's
     * name, ROLE-CODE.done.log) */
    const char *name = strrchr(path, '/');
    name = name != NULL ? name + 1 : path;
    if (done)
        seat.role = strncmp(name, "join-", 5) == 0 ? LOBBY_ROLE_GUEST
                                                   : LOBBY_ROLE_HOST;
    int side = seat.role == LOBBY_ROLE_GUEST ? CORE_BLACK : CORE_WHITE;
    if ((rc = proto_read_file(path, &buf, &len)) == 0)
        rc = cli_glance_log(buf, len, side, now_ms, &g);
    free(buf);
    if (rc != 0) {
        fprintf(stderr, _("tabula games: %s does not verify: %s\n"), path,
                _(tb_strerror(rc)));
        proto_identity_wipe(&seat.id);
        return rc;
    }
    fill_row(row, path, &seat, done, &g);
    proto_identity_wipe(&seat.id);
    return 0;
}

/* row's two lines for the seat of the log at path (finished: done),
 * whose game at a glance is g. */
static void fill_row(Game_Row *row, const char *path,
                     const Netstore_Seat *saved, int done,
                     const Cli_Glance *g)
{
    Netstore_Seat seat = *saved;
    const char *name = strrchr(path, '/');
    name = name != NULL ? name + 1 : path;
    const char *game = g->game[0] != '\0'  ? g->game
                       : seat.game != NULL ? core_game_name(seat.game)
                                           : "?";
    int side = seat.role == LOBBY_ROLE_GUEST ? CORE_BLACK : CORE_WHITE;
    char turn[64] = "waiting", left[32] = "-", lastm[CORE_NOTATION_MAX + 24] = "-";
    row->envelopes = g->envelopes;
    row->yours = g->turn == CLI_TURN_YOU;
    row->needs = g->turn == CLI_TURN_YOU || g->turn == CLI_TURN_OVER;
    if (g->turn == CLI_TURN_OVER)
        snprintf(turn, sizeof turn, "%s", g->outcome);
    else if (g->turn != CLI_TURN_WAITING)
        snprintf(turn, sizeof turn, "%s", row->yours ? "you" : "opponent");
    if (g->left_ms >= 0)
        cli_left_text(g->left_ms, 0, left, sizeof left);
    if (g->last_ply > 0)
        snprintf(lastm, sizeof lastm, "%u.%s", g->last_ply, g->last);
    /* a finished game's seat file is gone: its code is in the log's
     * name (ROLE-CODE.done.log, netstore_retire) */
    char code[LOBBY_CODE_TEXT] = "-";
    const char *dash = strchr(name, '-');
    Lobby_Code named;
    if (seat.invite.text[0] != '\0')
        snprintf(code, sizeof code, "%s", seat.invite.text);
    else if (dash != NULL && strlen(dash + 1) >= LOBBY_CODE_TEXT - 1) {
        char text[LOBBY_CODE_TEXT];
        snprintf(text, sizeof text, "%.*s", LOBBY_CODE_TEXT - 1, dash + 1);
        if (lobby_code_parse(text, &named) == 0) /* (a file's name is no
                                                     code until it parses) */
            snprintf(code, sizeof code, "%s", named.text);
    }
    snprintf(row->line, sizeof row->line, "game: %s %s %s %s %s %s\n", code,
             game,
             side == CORE_WHITE ? "white" : "black", turn, left, lastm);
    /* (a host that ran its own lobby binds it again without --lobby;
     * any other seat reaches its lobby, and a path with a space is
     * quoted so the line can be pasted) */
    int lob = seat.lobby[0] != '\0' && !seat.own_lobby;
    int quote = strchr(path, ' ') != NULL;
    if (!done)
        snprintf(row->open, sizeof row->open,
                 "  open: tabula %s %s --log %s%s%s%s%s\n",
                 seat.role == LOBBY_ROLE_GUEST ? "join" : "host",
                 seat.role == LOBBY_ROLE_GUEST ? code : game,
                 quote ? "'" : "", path, quote ? "'" : "",
                 lob ? " --lobby " : "", lob ? seat.lobby : "");
    else
        snprintf(row->open, sizeof row->open, "  log: %s\n", path);
    proto_identity_wipe(&seat.id);
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* 1 when a seat file's name holds only what a seat's name may (ROLE-
 * CODE.log, CODE's symbols and dashes, ".done-N"): a name with a
 * control byte would be printed into the terminal as it is. */
static int plain_name(const char *s)
{
    for (; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' ||
              *s == '_'))
            return 0;
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- --wait: each running game watched on its lobby ---- */

typedef struct Watch {
    Netgame *g;
    char path[1024];
    Netstore_Seat seat;
    uint32_t told; /* its envelopes when last told (0: never) */
    int stopped;   /* its watch stopped (the relay refused or lost the
                      room): watched again at retry_at (time(), s) */
    time_t retry_at;
} Watch;

/* A watch that stopped is tried again after this (s): an in-memory relay
 * that restarted has the room again once its host's seat comes back. (A
 * WATCH of a room the relay lacks counts as a wrong code, 10 a minute
 * an address: a watch a game every 5 minutes leaves that budget to
 * typing.) */
#define WATCH_RETRY_S 300

typedef struct Wait_Run {
    uv_loop_t loop;
    uv_timer_t timer;
    Watch *w;
    size_t n;
    const char *notify; /* NULL: the first game that needs you ends it */
    int woke;
} Wait_Run;

static void spawned(uv_process_t *p, int64_t status, int signal)
{
    (void)status;
    (void)signal;
    uv_close((uv_handle_t *)p, (uv_close_cb)free);
}

/* The game of row needs the player: its lines, and --notify's command
 * with the game's line (its newline cut) as the last argument. The line
 * is an argument, never shell text: a move or a code cannot run code. */
static void tell(Wait_Run *r, const Game_Row *row)
{
    char line[512], cmd[4200];
    fputs(row->line, stdout);
    fputs(row->open, stdout);
    fflush(stdout);
    r->woke = 1;
    if (r->notify == NULL)
        return;
    snprintf(line, sizeof line, "%s", row->line);
    line[strcspn(line, "\n")] = '\0';
    snprintf(cmd, sizeof cmd, "%s \"$1\"", r->notify);
    char *args[] = {"sh", "-c", cmd, "sh", line, NULL};
    uv_process_options_t o;
    memset(&o, 0, sizeof o);
    o.file = "/bin/sh";
    o.args = args;
    o.exit_cb = spawned;
    uv_process_t *p = calloc(1, sizeof *p);
    if (p == NULL || uv_spawn(&r->loop, p, &o) != 0) {
        fprintf(stderr, _("tabula games: cannot run --notify's command\n"));
        free(p);
    }
}

static void watch_note(Netgame *g, int warning, const char *text,
                       const Match_Note *note)
{
    Watch *w = netgame_user(g);
    (void)note;
    if (warning && !w->stopped)
        fprintf(stderr, "tabula games: %s: %s\n", w->seat.invite.text, text);
}

static void watch_done(Netgame *g)
{
    Watch *w = netgame_user(g);
    w->stopped = 1; /* (wait_tick frees it) */
}

static const Netgame_Hooks watch_hooks = {NULL, NULL, watch_done, watch_note,
                                          NULL, NULL};

/* w's spectator on its lobby: 0, or -1 (said why). */
static int watch_start(uv_loop_t *loop, Watch *w)
{
    Netgame_Config cfg;
    char why[256];
    memset(&cfg, 0, sizeof cfg);
    cfg.role = LOBBY_ROLE_SPECTATOR;
    cfg.code = w->seat.invite.text;
    cfg.lobby = w->seat.lobby;
    cfg.label = "";
    if (netgame_new(loop, &cfg, &watch_hooks, w, &w->g, why, sizeof why) !=
        0) {
        fprintf(stderr, _("tabula games: %s: cannot watch: %s\n"),
                w->seat.invite.text, why);
        w->g = NULL;
        w->stopped = 1;
        w->retry_at = time(NULL) + WATCH_RETRY_S;
        return -1;
    }
    return 0;
}

static void wait_stop(Wait_Run *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->w[i].g != NULL) {
            netgame_free(r->w[i].g);
            r->w[i].g = NULL;
        }
    uv_timer_stop(&r->timer);
    uv_close((uv_handle_t *)&r->timer, NULL);
}

static void wait_tick(uv_timer_t *h)
{
    Wait_Run *r = h->data;
    size_t live = 0;
    for (size_t i = 0; i < r->n; i++) {
        Watch *w = &r->w[i];
        if (w->stopped && w->g != NULL &&
            !netgame_result(w->g)->finished) {
            netgame_free(w->g); /* (watched again later) */
            w->g = NULL;
            w->retry_at = time(NULL) + WATCH_RETRY_S;
        }
        if (w->g == NULL && w->stopped) { /* waits to be watched again */
            live++;
            if (time(NULL) >= w->retry_at) {
                w->stopped = 0;
                (void)watch_start(&r->loop, w);
            }
            continue;
        }
        if (w->g == NULL)
            continue;
        live++;
        const Proto_Transcript *t = netgame_transcript(w->g);
        int over = netgame_result(w->g)->finished;
        if ((!netgame_caught_up(w->g) && !over) ||
            proto_transcript_start(t) == NULL)
            continue;
        Game_Row row;
        Cli_Glance g;
        memset(&row, 0, sizeof row);
        cli_glance(t, w->seat.role == LOBBY_ROLE_GUEST ? CORE_BLACK
                                                       : CORE_WHITE,
                   (uint64_t)time(NULL) * 1000u, &g);
        fill_row(&row, w->path, &w->seat, 0, &g);
        if (row.needs && row.envelopes != w->told) {
            w->told = row.envelopes;
            tell(r, &row);
        }
        if (proto_transcript_status(t).outcome != CORE_ONGOING) {
            netgame_free(w->g); /* (over: nothing more to wait for) */
            w->g = NULL;
        }
    }
    if ((r->woke && r->notify == NULL) || live == 0)
        wait_stop(r);
}

/* Waits on the running games of rows[0..n) (paths[i] their logs): those
 * that need the player now are told at once; the others are watched. */
static int games_wait(char **paths, const Game_Row *rows, size_t n,
                      const char *notify)
{
    Wait_Run r;
    char why[256];
    memset(&r, 0, sizeof r);
    r.notify = notify;
    if (uv_loop_init(&r.loop) != 0)
        return CLI_EXIT_FAIL;
    r.w = calloc(n > 0 ? n : 1, sizeof *r.w);
    if (r.w == NULL)
        return CLI_EXIT_FAIL;
    for (size_t i = 0; i < n; i++)
        if (rows[i].needs)
            tell(&r, &rows[i]);
    if (r.woke && notify == NULL) {
        uv_run(&r.loop, UV_RUN_DEFAULT);
        uv_loop_close(&r.loop);
        free(r.w);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < n; i++) {
        Watch *w = &r.w[r.n];
        snprintf(w->path, sizeof w->path, "%s", paths[i]);
        if (netstore_seat_load(w->path, &w->seat, why, sizeof why) != 1)
            continue;
        proto_identity_wipe(&w->seat.id); /* (a spectator needs no key) */
        w->told = rows[i].needs ? rows[i].envelopes : 0;
        if (w->seat.lobby[0] == '\0' || w->seat.own_lobby) {
            fprintf(stderr,
                    _("tabula games: %s: its lobby was its host's own, "
                      "there only while the host runs; not watched\n"),
                    w->seat.invite.text);
            continue;
        }
        if (watch_start(&r.loop, w) == 0) /* (else: said why, not kept) */
            r.n++;
    }
    if (r.n == 0 && !r.woke) {
        fprintf(stderr, _("tabula games: no running game to wait for\n"));
        uv_loop_close(&r.loop);
        free(r.w);
        return CLI_EXIT_FAIL;
    }
    uv_timer_init(&r.loop, &r.timer);
    r.timer.data = &r;
    uv_timer_start(&r.timer, wait_tick, 50, 250);
    uv_run(&r.loop, UV_RUN_DEFAULT);
    uv_loop_close(&r.loop);
    free(r.w);
    return r.woke ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

int cli_games(int argc, char **argv)
{
    char dir[512], path[1024];
    char **names = NULL;
    size_t n = 0, cap = 0;
    int all = 0, bad = 0, finished = 0, wait = 0;
    const char *notify = NULL;
    DIR *d;
    struct dirent *e;

    for (int i = 0; i < argc; i++) {
        const char *v;
        if (cli_is_help(argv[i])) {
            fputs(_(games_help), stdout);
            return CLI_EXIT_OK;
        }
        int f = cli_arg("games", cli_flags_games, argc, argv, &i,
                        _(games_help), &v);
        if (f == CLI_ARG_WORD)
            return cli_unexpected("games", argv[i], _(games_help));
        if (f < 0)
            return CLI_EXIT_USAGE;
        if (f == GAMES_ALL)
            all = 1;
        else if (f == GAMES_WAIT)
            wait = 1;
        else
            notify = v;
    }
    if (notify != NULL && !wait) {
        fprintf(stderr, _("tabula games: --notify needs --wait\n"));
        return CLI_EXIT_USAGE;
    }
    if (netstore_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, _("tabula games: no seats' folder (set XDG_DATA_HOME "
                          "or HOME)\n"));
        return CLI_EXIT_FAIL;
    }
    if (proto_init() != 0 || (d = opendir(dir)) == NULL)
        return CLI_EXIT_FAIL;
    while ((e = readdir(d)) != NULL) {
        if (!ends_with(e->d_name, ".log"))
            continue;
        if (!plain_name(e->d_name)) { /* (never printed as it is) */
            fprintf(stderr,
                    _("tabula games: %s in the seats' folder is not a "
                      "seat's name; left out\n"),
                    cli_token(e->d_name));
            continue;
        }
        if (n == cap) {
            char **more = realloc(names, (cap = cap ? 2 * cap : 16) *
                                             sizeof *names);
            if (more == NULL)
                break;
            names = more;
        }
        if ((names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, by_name);
    Game_Row *rows = calloc(n > 0 ? n : 1, sizeof *rows);
    char **paths = calloc(n > 0 ? n : 1, sizeof *paths);
    size_t shown = 0;
    uint64_t now = (uint64_t)time(NULL) * 1000u;
    for (size_t i = 0; rows != NULL && i < n; i++) {
        int done = strstr(names[i], ".done") != NULL;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        int rc = game_row(path, done, all || wait, now, &rows[shown]);
        if (rc == 0 && wait && done) /* (what --wait watches: the running) */
            rc = 1;
        if (rc == 0 && paths != NULL)
            paths[shown] = strdup(path);
        if (rc == 0)
            shown++;
        else if (rc < 0)
            bad++;
        finished += done;
    }
    int rc = bad > 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    if (wait) /* (a log that does not verify was named; the others are
               * waited on all the same) */
        rc = paths != NULL ? games_wait(paths, rows, shown, notify)
                           : CLI_EXIT_FAIL;
    /* your moves first, each group in the folder's order */
    for (int pass = 1; !wait && pass >= 0; pass--)
        for (size_t i = 0; i < shown; i++)
            if (rows[i].yours == pass) {
                fputs(rows[i].line, stdout);
                fputs(rows[i].open, stdout);
            }
    if (wait)
        ;
    else if (shown == 0 && finished > 0 && bad == 0)
        printf(_("games: none running on this machine; tabula games --all "
                 "lists the finished ones too\n"));
    else if (shown == 0 && bad == 0)
        printf(_("games: none kept on this machine; start one with tabula "
                 "host, seek, pool or join\n"));
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    for (size_t i = 0; paths != NULL && i < shown; i++)
        free(paths[i]);
    free(names);
    free(paths);
    free(rows);
    return rc;
}
