/*
 * cmd_net.c: `tabula host`, `tabula join` and `tabula spectate`: one seat
 * of a network game (netgame.h) on its own libuv loop, in line mode: each
 * ply printed, moves of a human seat read from standard input one per
 * line, `result:` and `final-hash:` at the end. Without --lobby, host
 * starts an embedded lobby on a free 127.0.0.1 port in the same loop and
 * prints its address as `lobby: HOST:PORT`; join and spectate then need
 * --lobby with that address (the code itself does not carry it), and the
 * host keeps the lobby running after its game until the other members
 * have left (at most NR_LINGER_MS). A host restarted with the same --log
 * binds its embedded lobby to the same address again. When standard
 * input and output are a terminal ncurses can drive, the seat is shown
 * full-screen instead (tui_net.h) and nothing is printed until it ends.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "i18n.h"
#include "advice.h"
#include "engine.h"
#include "cli.h"
#include "line_cmd.h"
#include "netgame.h"
#include "netstore.h"
#include "seat.h"
#include "tb_error.h"
#include "tui.h"
#include "tui_net.h"

#ifndef TABULA_SITE_DIR
#define TABULA_SITE_DIR "build-wasm/site"
#endif

#define NR_LINGER_MS 10000
#define NR_DEFAULT_LOBBY "127.0.0.1:7470"
#define NR_DEFAULT_LEVEL 3
_Static_assert(NR_DEFAULT_LEVEL == 3, "bot_help names the default level");
#define NR_LINE_MAX 512    /* bytes of one input line, its NUL included */
#define NR_SCRIPT_MAX (1u << 20) /* a script's lines waiting for their turn */
#define NR_SCRIPT_POLL_MS 20

static const char host_help[] = N_(
    "usage: tabula host GAME [--lobby HOST:PORT] [--bot [LEVEL]] [--log FILE]\n"
    "                        [--options OPTS] [--clock CLOCK] [--seed S]\n"
    "                        [--delay MS] [--http HOST:PORT [--web DIR]]\n"
    "                        [--series N]\n"
    "                        [--me | --key FILE] [--guest KEY --code CODE]\n"
    "\n"
    "Creates a room and plays white. Prints 'invite: CODE' (for the\n"
    "opponent), 'watch: CODE' (for spectators) and 'lobby: HOST:PORT' as\n"
    "soon as the room exists, then each ply, and at the end 'result: ...'\n"
    "and 'final-hash: HEX'. Without --lobby an embedded lobby listens on a\n"
    "free port of 127.0.0.1. Without --bot, moves are read from standard\n"
    "input, one per line, with the commands resign, draw, accept, decline,\n"
    "abort, takeback [N], claim win, claim draw (docs/usage.md).\n"
    "--clock CLOCK plays with a clock as chess players write it: 5+3 is\n"
    "five minutes each and three seconds added after each move (30s+1: a\n"
    "base in seconds), 5d3 a delay of three seconds a move, 40/90+30 forty\n"
    "moves in 90 minutes (then again) and 30 s a move, 3days three days a\n"
    "move (docs/usage.md, \"Writing a clock\"). --log FILE writes the\n"
    "log (and FILE.seat, the seat's key): run the same command again after\n"
    "a crash to resume the game. --delay MS makes the bot wait before each\n"
    "move, so people can follow the game. When standard input and output\n"
    "are a terminal, a full-screen board shows all this instead: select\n"
    "squares or type moves on your turn, 'resign', ? for the keys.\n"
    "--lobby A,B,... names several nodes of one lobby (nodes sharing a\n"
    "Redis, docs/lobby-nodes.md): when the node in use goes away the game\n"
    "goes on through the next.\n"
    "--http HOST:PORT (with the embedded lobby, so without --lobby) also\n"
    "serves the browser page there, as 'tabula lobby --http' does, and\n"
    "prints 'http: http://HOST:PORT/', then 'join-link: URL#join=CODE' for\n"
    "an opponent in a browser and 'watch-link: URL#watch=CODE' for\n"
    "spectators; --web DIR names the page's folder (default\n"
    "the one scripts/build-wasm.sh builds).\n"
    "--series N (with --lobby) plays a series of N games against the same\n"
    "opponent, colours alternating: each next game is hosted by the one\n"
    "who was black, and both seats find it with no code typed; after each\n"
    "game 'series: game K of N: RESULT; you P - opponent Q' gives the score\n"
    "in the game's table points (Chess volleyball: 3 for 2-0 in sets, 2 and\n"
    "1 for 2-1; 1, 1/2, 0 otherwise), and series-ID.txt in the seats'\n"
    "folder keeps the games and their logs.\n"
    "--me plays with your 'tabula identity' key (--key FILE: that identity\n"
    "file's) instead of a key made for this game; --guest KEY seats only\n"
    "that public key, and --code CODE (bound to your key) is the invite, as\n"
    "a tournament's 'tabula tournament pair' prints them.\n");

static const char seek_help[] = N_(
    "usage: tabula seek GAME [--lobby HOST:PORT] [--clock CLOCK]\n"
    "                        [--options OPTS] [--bot [LEVEL]] [--log FILE]\n"
    "                        [--rating LO..HI] [--me | --key FILE]\n"
    "\n"
    "Puts a public seek on the lobby (default 127.0.0.1:7470, or --lobby):\n"
    "a room as 'tabula host' makes, listed by 'tabula seeks' with your\n"
    "name, the game, clock and options, until a stranger takes the guest\n"
    "seat with its code ('tabula join CODE') or you leave. Prints 'seek:\n"
    "listed' once the lobby lists it, then plays white as 'tabula host'\n"
    "does (its flags and output). --rating LO..HI (e.g. 1400..1800) makes\n"
    "it a rated seek: the lobby seats only a player its published list\n"
    "rates LO to HI in the game and class (one it does not know counts as\n"
    "1500; join with --me to be rated as yourself).\n");

static const char join_help[] = N_(
    "usage: tabula join CODE [--lobby HOST:PORT] [--bot [LEVEL]] [--log FILE]\n"
    "                        [--seed S] [--delay MS] [--me | --key FILE]\n"
    "\n"
    "Takes the second seat (black) of the room of invite CODE at the lobby\n"
    "(default 127.0.0.1:7470, or the host's 'lobby:' line; several\n"
    "nodes of one lobby as A,B,...). Moves and output as for tabula host.\n"
    "--me plays with your 'tabula identity' key (--key FILE: that identity\n"
    "file's), as a tournament's pairing asks, and waits for the host's\n"
    "room when it is not there yet.\n");

/* After host's and join's help: the bot's level, as play's help says it. */
static const char bot_help[] =
    N_("--bot [LEVEL] lets the bot play this seat, level 1 (weakest) to 8,\n"
       "3 by default (also --bot=LEVEL, --level LEVEL); 'tabula play --help'\n"
       "gives each level's measured Elo.\n");

static const char spectate_help[] =
    N_("usage: tabula spectate CODE [--lobby HOST:PORT] [--log FILE]\n"
    "\n"
    "Watches the room of watch (or invite) CODE from its first move,\n"
    "checking every ply's state hash like the players do. On a terminal\n"
    "the game is shown on a full-screen board. --lobby A,B,... as for\n"
    "tabula join.\n");

typedef struct Net_Run {
    uv_loop_t loop;
    Lobby *lobby; /* embedded, or NULL */
    Lobby_Http *http;  /* the page on --http, or NULL */
    char http_url[96]; /* "http://HOST:PORT/" */
    Netgame *g;
    union {
        uv_tty_t tty;
        uv_pipe_t pipe;
    } in;
    int in_open;
    int in_tty; /* lines are typed by a person, not read from a script */
    char line[NR_LINE_MAX];
    size_t line_len;
    uv_timer_t linger;
    int linger_open;
    double linger_start;
    uv_signal_t sig;
    Tui_Net *ui; /* the full-screen screen, or NULL in line mode */
    const Seat_Series *series; /* the game's Netgame_Config's */
    int series_seen; /* series_line_at_start looked at the started match */
    Lobby_Role role;
    int user_left;   /* the user left the screen before the end */
    int was_started; /* ... after the match had started */
    char kept[512];  /* the seat's log when it left (netgame_log_path) */
    uv_timer_t ended; /* standard input ended: polls for the seat's turn */
    int ended_open;
    /* A script's lines (standard input not a terminal), in order, each
     * given to the seat when it can be read against the position it was
     * written for (script_ready) */
    char **script; /* a ring of script_cap (a power of 2) */
    size_t script_cap, script_head, script_count;
    uv_timer_t script_timer; /* polls while lines wait */
    int script_open, script_stopped;
} Net_Run;

static void close_cb(uv_handle_t *h) { (void)h; }

static void stop_input(Net_Run *r)
{
    if (r->in_open) {
        r->in_open = 0;
        uv_close((uv_handle_t *)&r->in, close_cb);
    }
}

static void stop_ended(Net_Run *r)
{
    if (r->ended_open) {
        r->ended_open = 0;
        uv_close((uv_handle_t *)&r->ended, close_cb);
    }
}

static void stop_script(Net_Run *r)
{
    r->script_stopped = 1; /* the game is over or the run stops */
    if (r->script_open) {
        r->script_open = 0;
        uv_close((uv_handle_t *)&r->script_timer, close_cb);
    }
}

static void shutdown_run(Net_Run *r)
{
    stop_input(r);
    stop_ended(r);
    stop_script(r);
    if (r->linger_open) {
        r->linger_open = 0;
        uv_close((uv_handle_t *)&r->linger, close_cb);
    }
    if (!uv_is_closing((uv_handle_t *)&r->sig))
        uv_close((uv_handle_t *)&r->sig, close_cb);
    lobby_http_close(r->http);
    if (r->lobby != NULL) {
        lobby_close(r->lobby, NULL, NULL);
        r->lobby = NULL;
    }
}

static void on_linger(uv_timer_t *h)
{
    Net_Run *r = h->data;
    Lobby_Stats st;
    lobby_stats(r->lobby, &st);
    if (st.members == 0 || (cli_now() - r->linger_start) * 1000 > NR_LINGER_MS)
        shutdown_run(r);
}

/* A series' game ended on the full screen: its line shows the score with
 * this game counted (seat_series_add on a copy), not the score before
 * it, while the finished game stays on the screen. */
static void series_line_at_end(Net_Run *r, Netgame *g)
{
    Seat_Series s;
    Seat_Game_End e;
    Proto_Identity me;
    char line[160];
    if (r->ui == NULL)
        return;
    seat_game_end(netgame_session(g), &e);
    netgame_seat_key(g, &me);
    int begun = r->series != NULL ? (s = *r->series, 1)
                                  : seat_series_begin(&s, me.pk, &e);
    proto_identity_wipe(&me);
    if (begun != 1)
        return;
    int what = seat_series_add(&s, &e);
    if (what != SEAT_SERIES_NEXT && what != SEAT_SERIES_OVER &&
        what != SEAT_SERIES_ABORTED)
        return;
    cli_series_banner(line, sizeof line, s.played, s.games, s.score);
    tui_net_banner(r->ui, line);
    if (what == SEAT_SERIES_NEXT)
        tui_net_series_next(r->ui);
}

static void on_done(Netgame *g)
{
    Net_Run *r = netgame_user(g);
    series_line_at_end(r, g);
    tui_net_done(r->ui);
    stop_input(r);
    stop_ended(r);
    stop_script(r);
    if (r->lobby != NULL) {
        uv_timer_init(&r->loop, &r->linger);
        r->linger.data = r;
        r->linger_open = 1;
        r->linger_start = cli_now();
        uv_timer_start(&r->linger, on_linger, 20, 20);
        return;
    }
    shutdown_run(r);
}

/* The seat goes. */
static void drop_seat(Net_Run *r)
{
    shutdown_run(r);
    netgame_free(r->g);
    r->g = NULL;
}

/* The user leaves the seat (q q, Ctrl-C, input ended): what the words
 * after need (say_left) is kept, then the seat goes. */
static void leave(Net_Run *r)
{
    r->user_left = 1;
    r->was_started =
        r->g != NULL &&
        proto_transcript_start(netgame_transcript(r->g)) != NULL;
    if (r->g != NULL)
        snprintf(r->kept, sizeof r->kept, "%s", netgame_log_path(r->g));
    drop_seat(r);
}

static void on_signal(uv_signal_t *h, int signum)
{
    Net_Run *r = h->data;
    (void)signum;
    tui_net_stop(r->ui);
    fprintf(stderr, _("tabula: interrupted\n"));
    if (r->g != NULL && !netgame_result(r->g)->finished)
        leave(r); /* (the words on how to come back follow) */
    else
        drop_seat(r);
}

/* The screen's hooks, forwarded (tui_net_* ignore a NULL screen). With
 * --http the browser links follow the room's lines (or go on the
 * screen's notes). */
static void on_room(Netgame *g, const char *invite, const char *watch,
                    const char *lobby)
{
    Net_Run *r = netgame_user(g);
    char line[3][200];
    tui_net_room(r->ui, invite, watch, lobby);
    if (r->http == NULL)
        return;
    snprintf(line[0], sizeof line[0], "http: %s", r->http_url);
    snprintf(line[1], sizeof line[1], "join-link: %s#join=%s", r->http_url,
             invite);
    snprintf(line[2], sizeof line[2], "watch-link: %s#watch=%s", r->http_url,
             watch);
    if (r->ui != NULL) {
        /* The screen keeps one note: the links in one sentence. */
        char note[640];
        snprintf(note, sizeof note, _("In a browser: the opponent opens "
                 "%s#join=%s, spectators %s#watch=%s"), r->http_url, invite,
                 r->http_url, watch);
        tui_net_note(r->ui, 0, note, NULL);
        return;
    }
    for (int i = 0; i < 3; i++)
        printf("%s\n", line[i]);
    fflush(stdout);
}

/* Once the match started: a series' first game, which a guest joined by
 * its code (the host's has its line already), shows the series' line on
 * the full screen from its start, as the host's does. */
static void series_line_at_start(Net_Run *r, Netgame *g)
{
    Seat_Game_End e;
    Proto_Series t;
    char line[160];
    static const unsigned none[2] = {0, 0};
    if (r->ui == NULL || r->series_seen)
        return;
    seat_game_end(netgame_session(g), &e);
    if (!e.started)
        return;
    r->series_seen = 1;
    if (r->series == NULL && proto_options_series(e.options, &t) == 1 &&
        t.game == 1) {
        cli_series_banner(line, sizeof line, 1, t.games, none);
        tui_net_banner(r->ui, line);
    }
}

static void on_ply(Netgame *g, uint32_t ply, int side, const char *move,
                   const char *hash_hex)
{
    (void)ply;
    (void)hash_hex;
    series_line_at_start(netgame_user(g), g);
    tui_net_ply(((Net_Run *)netgame_user(g))->ui, side, move);
}

static void on_note(Netgame *g, int warning, const char *text,
                    const Match_Note *note)
{
    Net_Run *r = netgame_user(g);
    series_line_at_start(r, g);
    if (r->ui != NULL)
        tui_net_note(r->ui, warning, text, note);
    else if (warning) /* the screen has gone: the warning goes to stderr */
        fprintf(stderr, "tabula: %s\n", text);
}

static void on_retry(Netgame *g, unsigned attempt, uint32_t wait_ms)
{
    tui_net_retry(((Net_Run *)netgame_user(g))->ui, attempt, wait_ms);
}

static void on_presence(Netgame *g, Lobby_Role seat, int present)
{
    tui_net_presence(((Net_Run *)netgame_user(g))->ui, seat, present);
}

/* The user left the screen before the game ended: stop the seat (the
 * game is not resigned; with --log the same command comes back). */
static void on_ui_quit(void *user)
{
    leave(user);
}

static void alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
    static char space[4096];
    (void)h;
    (void)hint;
    *buf = uv_buf_init(space, sizeof space);
}

static int is_local(const char *line)
{
    return strcmp(line, "board") == 0 || strcmp(line, "moves") == 0 ||
           strcmp(line, "help") == 0 || strcmp(line, "?") == 0;
}

/* An answer to the opponent's draw offer or takeback request. */
static int is_reply(const char *line)
{
    return strcmp(line, "accept") == 0 || strcmp(line, "decline") == 0;
}

/* A claim against an absent opponent. */
static int is_claim(const char *line)
{
    return strncmp(line, "claim ", 6) == 0;
}

/* A line that answers something of the opponent's: a reply or a claim. */
static int is_answer(const char *line)
{
    return is_reply(line) || is_claim(line);
}

/* The script's line k places after the first waiting one. */
static char **script_at(Net_Run *r, size_t k)
{
    return &r->script[(r->script_head + k) & (r->script_cap - 1)];
}

/*
 * One line of line mode: board, moves, help and ? are answered here (as
 * in `tabula play`); a move typed at a terminal out of turn is refused
 * with a word rather than kept for later (a script's lines, from a pipe
 * or a file, come here only on their turn: pump_script); everything
 * else goes to the seat.
 */
static int on_line(Net_Run *r, const char *line)
{
    const Proto_Transcript *t = netgame_transcript(r->g);
    const char *cmds = "resign, draw, accept, decline, abort, takeback [N], "
                       "claim win, claim draw";
    int side = r->role == LOBBY_ROLE_HOST ? CORE_WHITE : CORE_BLACK;
    int local = is_local(line);
    if (proto_transcript_start(t) == NULL) {
        if (local || (r->in_tty && !match_conduct_line(line))) {
            /* refused: and the line stay as scripts read them; the
             * reason is for the person typing */
            printf("refused: '%s': %s\n", cli_token(line),
                   _("the game has not started yet (waiting for the "
                     "opponent)"));
            return 0;
        }
    } else {
        const Core_Position *pos = proto_transcript_position(t);
        if (line_cmd_local(stdout, pos, side, line, cmds))
            return 0;
        int waiting = proto_transcript_status(t).outcome == CORE_ONGOING &&
                      core_side_to_move(pos) != side;
        if (r->in_tty && waiting && !match_conduct_line(line)) {
            printf("refused: '%s': %s\n", cli_token(line),
                   _("it is not your turn; type your move when the "
                     "opponent has moved"));
            return 0;
        }
        if (r->in_tty && waiting && !is_answer(line))
            printf(_("'%s' is sent when your turn comes\n"), cli_token(line));
    }
    int rc = netgame_submit(r->g, line);
    if (rc == TB_E_LIMIT)
        fprintf(stderr, _("tabula: too many lines typed ahead\n"));
    return rc;
}

/* Something of the opponent's stands that line can answer now: a draw
 * offer or takeback request for accept and decline, an absence past its
 * countdown for a claim. */
static int answer_due(Net_Run *r, const char *line, int side)
{
    if (is_claim(line))
        return netgame_absence_left(r->g) == 0;
    return netgame_takeback(r->g, NULL) == 1 - side ||
           netgame_draw_offer(r->g) == 1 - side;
}

/*
 * Whether a script's line can be given to the seat now (head: it is the
 * first line waiting). Only once the game has started; then, in order
 * (head, every line before it used, so board, moves and help show the
 * position the script has reached): a move on the seat's turn, so that
 * it is read against the position it was written for, as a typed one is
 * (the loose forms, the refusal that names a legal move), and not while
 * the seat's own takeback request waits for its answer; a command at
 * once. Once the game is over no line is taken: the end's lines
 * (result:, final-hash:, log:) stay the last a script reads. An answer
 * (accept, decline, claim ...) is taken when there is something to
 * answer, past the lines before it, as the seat's queue lets answers go
 * first; with nothing to answer it waits for the seat's turn, when an
 * offer made on the opponent's turn has come, and is then refused.
 */
static int script_ready(Net_Run *r, const char *line, int head)
{
    const Proto_Transcript *t = netgame_transcript(r->g);
    if (proto_transcript_start(t) == NULL ||
        proto_transcript_status(t).outcome != CORE_ONGOING)
        return 0; /* over: nothing is printed after the end's lines */
    int side = r->role == LOBBY_ROLE_HOST ? CORE_WHITE : CORE_BLACK;
    int my_turn = core_side_to_move(proto_transcript_position(t)) == side &&
                  netgame_caught_up(r->g);
    if (is_answer(line) && answer_due(r, line, side))
        return 1;
    if (!head || netgame_lines_waiting(r->g) > 0)
        return 0;
    if (is_local(line))
        return 1;
    if (match_conduct_line(line))
        return !is_answer(line) || my_turn;
    /* a move: on the seat's turn, and not while its own takeback request
     * waits (the answer decides which position the move is for) */
    return my_turn && netgame_takeback(r->g, NULL) != side;
}

/* Gives the seat the script's lines that can be read now: first an
 * answer with something to answer, wherever it waits (an offer lapses
 * when the seat moves, so the answer goes before the move), then lines
 * in order. */
static void pump_script(Net_Run *r)
{
    while (r->script_count > 0 && r->g != NULL && !r->script_stopped) {
        size_t k;
        for (k = 0; k < r->script_count; k++)
            if (is_answer(*script_at(r, k)) &&
                script_ready(r, *script_at(r, k), 0))
                break;
        if (k == r->script_count) {
            if (!script_ready(r, *script_at(r, 0), 1))
                break;
            k = 0;
        }
        char *taken = *script_at(r, k);
        for (size_t j = k; j > 0; j--) /* close the gap from the front */
            *script_at(r, j) = *script_at(r, j - 1);
        r->script_head = (r->script_head + 1) & (r->script_cap - 1);
        r->script_count--;
        on_line(r, taken);
        free(taken);
    }
    if (r->script_count == 0 && r->script_open)
        uv_timer_stop(&r->script_timer);
}

static void on_script_timer(uv_timer_t *h)
{
    pump_script(h->data);
}

/* A script's line kept for its turn (the ring grows by doubling);
 * TB_E_LIMIT when NR_SCRIPT_MAX wait, TB_E_NOMEM. */
static int script_push(Net_Run *r, const char *line)
{
    if (r->script_stopped)
        return 0; /* nothing reads it any more */
    if (r->script_count == r->script_cap) {
        size_t cap = r->script_cap ? 2 * r->script_cap : 64;
        if (cap > NR_SCRIPT_MAX)
            return TB_E_LIMIT;
        char **grown = malloc(cap * sizeof *grown);
        if (grown == NULL)
            return TB_E_NOMEM;
        for (size_t i = 0; i < r->script_count; i++)
            grown[i] = *script_at(r, i);
        free(r->script);
        r->script = grown;
        r->script_cap = cap;
        r->script_head = 0;
    }
    char *copy = strdup(line);
    if (copy == NULL)
        return TB_E_NOMEM;
    *script_at(r, r->script_count) = copy;
    r->script_count++;
    if (!r->script_open) {
        uv_timer_init(&r->loop, &r->script_timer);
        r->script_timer.data = r;
        r->script_open = 1;
    }
    if (!uv_is_active((uv_handle_t *)&r->script_timer))
        uv_timer_start(&r->script_timer, on_script_timer, NR_SCRIPT_POLL_MS,
                       NR_SCRIPT_POLL_MS);
    return 0;
}

/* A line as read (its end of line gone; a NUL ends it, as C reads it),
 * cut at both ends by cli_trim; an empty one is skipped. A person's line goes to the seat at
 * once; a script's (a pipe or a file given with <, read alike) waits in
 * order for its turn (script_ready). Returns 0, or TB_E_LIMIT when too
 * many wait (said on standard error). */
static int take_line(Net_Run *r, char *line)
{
    line = cli_trim(line);
    if (*line == '\0' || r->g == NULL)
        return 0;
    if (r->in_tty)
        return on_line(r, line) == TB_E_LIMIT ? TB_E_LIMIT : 0;
    int rc = script_push(r, line);
    if (rc != 0) {
        fprintf(stderr, _("tabula: too many lines typed ahead\n"));
        return TB_E_LIMIT;
    }
    pump_script(r);
    return 0;
}

/* Whether a line of the script's waiting ones is of the kind. */
static int script_has(Net_Run *r, int (*kind)(const char *))
{
    for (size_t i = 0; i < r->script_count; i++)
        if (kind(*script_at(r, i)))
            return 1;
    return 0;
}

/* The seat's standard input has ended, in a running game it has caught
 * up with (a resumed seat may learn that the game ended meanwhile).
 * Nothing can come from it, so it leaves (not resigning, as q q on the
 * screen; with --log the same command comes back) rather than keep the
 * game waiting for good: when the opponent's takeback request waits for
 * an answer no waiting line gives, when the opponent has been gone past
 * its countdown and no waiting line claims, or when no line waits and
 * it is the seat's turn. */
static void on_input_ended(uv_timer_t *h)
{
    Net_Run *r = h->data;
    if (r->g == NULL || !netgame_caught_up(r->g))
        return;
    const Proto_Transcript *t = netgame_transcript(r->g);
    if (proto_transcript_start(t) == NULL ||
        proto_transcript_status(t).outcome != CORE_ONGOING)
        return;
    int side = r->role == LOBBY_ROLE_HOST ? CORE_WHITE : CORE_BLACK;
    int waiting = netgame_lines_waiting(r->g) > 0 || r->script_count > 0;
    uint32_t plies = 0;
    if (netgame_takeback(r->g, &plies) == 1 - side && !script_has(r, is_reply))
        fprintf(stderr, _("tabula: standard input ended and the opponent "
                          "waits for this seat's answer: none can come\n"));
    else if (netgame_absence_left(r->g) == 0 && !script_has(r, is_claim))
        fprintf(stderr, _("tabula: standard input ended and the opponent "
                          "is gone: no line can end the game\n"));
    else if (waiting)
        return;
    else if (core_side_to_move(proto_transcript_position(t)) == side)
        fprintf(stderr, _("tabula: standard input ended and it is this "
                          "seat's turn: no move can come\n"));
    else if (seat_keep_seconds(proto_transcript_clock(t)) > 0 &&
             netgame_unacked(r->g) == 0)
        /* a correspondence game: the relay has the move and keeps the
         * room; the opponent may take days */
        fprintf(stderr, _("tabula: the move is with the relay; the "
                          "opponent has days to answer: this seat leaves "
                          "(tabula games --wait tells when it is your "
                          "move)\n"));
    else
        return;
    leave(r);
}

static void input_ended(Net_Run *r)
{
    if (r->ended_open || r->role == LOBBY_ROLE_SPECTATOR)
        return;
    uv_timer_init(&r->loop, &r->ended);
    r->ended.data = r;
    r->ended_open = 1;
    uv_timer_start(&r->ended, on_input_ended, 0, 100);
}

/* Bytes of standard input: lines end at LF or CR (CR LF gives an empty
 * line, skipped); a line longer than r->line is cut there. Returns
 * TB_E_LIMIT when too many lines wait, else 0. */
static int feed_bytes(Net_Run *r, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = buf[i];
        if (c == '\n' || c == '\r') {
            r->line[r->line_len] = '\0';
            r->line_len = 0;
            if (take_line(r, r->line) == TB_E_LIMIT)
                return TB_E_LIMIT;
        } else if (r->line_len + 1 < sizeof r->line) {
            r->line[r->line_len++] = c;
        }
    }
    return 0;
}

/* The end of standard input: a last line with no end of line is a line
 * all the same. */
static void feed_end(Net_Run *r)
{
    if (r->line_len > 0)
        feed_bytes(r, "\n", 1);
}

static void on_input(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    Net_Run *r = s->data;
    if (n < 0) {
        feed_end(r);
        stop_input(r);
        input_ended(r);
        return;
    }
    if (feed_bytes(r, buf->base, (size_t)n) == TB_E_LIMIT) {
        stop_input(r); /* what follows would have holes: none of it */
        input_ended(r);
    }
}

static void start_input(Net_Run *r)
{
    uv_handle_type t = uv_guess_handle(0);
    int rc = -1;
    if (t == UV_FILE) {
        /* A regular file or a device such as /dev/null: epoll cannot
         * watch it, so its lines are read now and queued. */
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
            if (feed_bytes(r, buf, n) == TB_E_LIMIT)
                break;
        feed_end(r);
        input_ended(r);
        return;
    }
    if (t == UV_TTY) {
        rc = uv_tty_init(&r->loop, &r->in.tty, 0, 1);
        r->in_tty = 1;
    }
    else if (t == UV_NAMED_PIPE) {
        rc = uv_pipe_init(&r->loop, &r->in.pipe, 0);
        if (rc == 0 && (rc = uv_pipe_open(&r->in.pipe, 0)) != 0)
            uv_close((uv_handle_t *)&r->in.pipe, close_cb);
    }
    if (rc != 0) {
        fprintf(stderr, _("tabula: cannot read moves from standard input; "
                        "use --bot\n"));
        return;
    }
    r->in_open = 1;
    r->in.pipe.data = r;
    uv_read_start((uv_stream_t *)&r->in, alloc_cb, on_input);
}

/* The lobby address a seat file (FILE.seat, written by netgame.c) names,
 * into out; 0 when found. A restarted host binds its embedded lobby there
 * again, so the others' reconnect attempts find it. */
static int seat_lobby(const char *log_path, char *out, size_t cap)
{
    char path[600], line[256];
    FILE *f;
    int found = -1;
    if (log_path == NULL)
        return -1;
    snprintf(path, sizeof path, "%s.seat", log_path);
    if ((f = fopen(path, "r")) == NULL)
        return -1;
    while (found != 0 && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "lobby ", 6) == 0) {
            size_t n = strcspn(line + 6, "\n");
            if (n > 0 && n < cap) {
                memcpy(out, line + 6, n);
                out[n] = '\0';
                found = 0;
            }
        }
    }
    fclose(f);
    return found;
}

/* The word after the user left the screen with q q: what happened to
 * the game and how to come back to it. */
static void say_left(const char *cmd, Lobby_Role role,
                     const Netgame_Config *cfg, int started,
                     const char *kept, int external)
{
    if (!started)
        fprintf(stderr, _("tabula %s: you left before the game started\n"),
                cmd);
    else if (role == LOBBY_ROLE_SPECTATOR)
        fprintf(stderr, _("tabula %s: you stopped watching; the same command "
                        "watches again from the first move\n"), cmd);
    else if (cfg->log_path == NULL && role == LOBBY_ROLE_HOST &&
             kept[0] != '\0' && external)
        /* (the lobby named too: without it the host would start a lobby
         * of its own, one the guest is not in; a new user stranded so) */
        fprintf(stderr, _("tabula %s: you left the game; it is not resigned: "
                        "tabula host %s --lobby %s --log %s comes back to "
                        "it\n"),
                cmd, core_game_name(cfg->game), cfg->lobby, kept);
    else if (cfg->log_path == NULL && role == LOBBY_ROLE_HOST &&
             kept[0] != '\0')
        /* (a new host command would make a new game: the kept file is
         * named) */
        fprintf(stderr, _("tabula %s: you left the game; it is not resigned: "
                        "tabula host %s --log %s comes back to it\n"),
                cmd, core_game_name(cfg->game), kept);
    else if (cfg->log_path != NULL || kept[0] != '\0')
        fprintf(stderr, _("tabula %s: you left the game; it is not resigned: "
                        "run the same command again to come back to it\n"),
                cmd);
    else
        fprintf(stderr, _("tabula %s: you left the game; it is not resigned, "
                        "but without --log FILE this seat cannot come back "
                        "to it\n"), cmd);
}

/* The flags of host, join and spectate (a spectator has no seat; only a
 * host sets the match). --bot and --level: cli_bot_arg. */
enum {
    SEAT_FLAG_LOBBY,
    SEAT_FLAG_LETTERS,
    SEAT_FLAG_LOG,
    SEAT_FLAG_SEED,
    SEAT_FLAG_DELAY,
    SEAT_FLAG_OPTIONS,
    SEAT_FLAG_CLOCK,
    SEAT_FLAG_HTTP,
    SEAT_FLAG_WEB,
    SEAT_FLAG_SERIES,
    SEAT_FLAG_ME,
    SEAT_FLAG_KEY,
    SEAT_FLAG_GUEST,
    SEAT_FLAG_CODE,
    SEAT_FLAG_RATING
};
#define SEAT_FLAGS_PLAYER                                                      \
    {"--lobby", CLI_VALUE, SEAT_FLAG_LOBBY},                                   \
        {"--letters", CLI_SWITCH, SEAT_FLAG_LETTERS},                          \
        {"--log", CLI_NONEMPTY, SEAT_FLAG_LOG},                                \
        {"--seed", CLI_VALUE, SEAT_FLAG_SEED},                                 \
        {"--delay", CLI_NONEMPTY, SEAT_FLAG_DELAY},                            \
        {"--me", CLI_SWITCH, SEAT_FLAG_ME},                                    \
        {"--key", CLI_NONEMPTY, SEAT_FLAG_KEY}
const Cli_Flag cli_flags_host[] = {SEAT_FLAGS_PLAYER,
                                   {"--options", CLI_VALUE, SEAT_FLAG_OPTIONS},
                                   {"--clock", CLI_VALUE, SEAT_FLAG_CLOCK},
                                   {"--http", CLI_VALUE, SEAT_FLAG_HTTP},
                                   {"--web", CLI_VALUE, SEAT_FLAG_WEB},
                                   {"--series", CLI_VALUE, SEAT_FLAG_SERIES},
                                   {"--guest", CLI_NONEMPTY, SEAT_FLAG_GUEST},
                                   {"--code", CLI_NONEMPTY, SEAT_FLAG_CODE},
                                   {"--rating", CLI_NONEMPTY, SEAT_FLAG_RATING},
                                   {NULL, CLI_SWITCH, 0}};
const Cli_Flag cli_flags_join[] = {SEAT_FLAGS_PLAYER, {NULL, CLI_SWITCH, 0}};
const Cli_Flag cli_flags_spectate[] = {{"--lobby", CLI_VALUE, SEAT_FLAG_LOBBY},
                                       {"--letters", CLI_SWITCH,
                                        SEAT_FLAG_LETTERS},
                                       {"--log", CLI_NONEMPTY, SEAT_FLAG_LOG},
                                       {NULL, CLI_SWITCH, 0}};

/* The player's name record (its display name signed by its identity me,
 * read into *me, which binds the record to the seek) into rec, *len its
 * length: 0, or nonzero when no name is set or the identity cannot be
 * read (the seek then goes without a name). */
static int seek_name(uint8_t rec[PROTO_NAME_RECORD_MAX], size_t *len,
                     Proto_Identity *me)
{
    char path[1024], name[PROTO_DISPLAY_NAME_MAX + 1];
    struct timespec ts;
    int rc;

    *len = 0;
    if (proto_identity_path(path, sizeof path) != 0)
        return TB_E_STATE;
    if ((rc = proto_name_load(path, name, sizeof name)) != 0) {
        /* (a name file there that cannot be taken: said, not skipped) */
        fprintf(stderr,
                _("tabula seek: your display name cannot be read (%s); the "
                  "seek goes without one: set it again with tabula "
                  "identity --name NAME\n"),
                _(tb_strerror(rc)));
        return rc;
    }
    if (name[0] == '\0' || proto_identity_load(me, path, NULL) != 0)
        return TB_E_STATE;
    clock_gettime(CLOCK_REALTIME, &ts);
    return proto_name_sign(me, name,
                           (uint64_t)ts.tv_sec * 1000u +
                               (uint64_t)ts.tv_nsec / 1000000u,
                           rec, PROTO_NAME_RECORD_MAX, len);
}

/* A --lobby host name with no address: said, and the exit status. */
static int no_address(const char *cmd, const char *lobby)
{
    fprintf(stderr,
            _("tabula %s: no address found for the host name in '%s': "
              "check its spelling, or give the lobby's IP address, e.g. "
              "192.0.2.7:7470\n"),
            cmd, cli_token(lobby));
    return CLI_EXIT_FAIL;
}

static int net_play(const char *cmd, Netgame_Config *cfgp, const char *lobby,
                    const char *http,
                    const struct sockaddr_storage *http_addr, const char *web,
                    const struct sockaddr_storage *nodes, size_t nnodes,
                    Cli_Game_End *end);

static int run_seat(const char *cmd, Lobby_Role role, int argc, char **argv,
                    const char *help)
{
    Netgame_Config cfg;
    const char *lobby = NULL;

    const char *clock = NULL, *http = NULL, *web = TABULA_SITE_DIR;
    char opts[PROTO_OPTIONS_MAX + 1], series_opts[PROTO_OPTIONS_MAX + 1];
    char series_banner[160], rated_opts[PROTO_OPTIONS_MAX + 1];
    const char *rating = NULL; /* --rating LO..HI: a rated seek */
    unsigned series = 0; /* --series N: the games of a series */
    /* --me, --key FILE: play with a kept identity (a tournament's
     * player); a host's --guest KEY and --code CODE (docs/tournaments.md) */
    const char *key_file = NULL, *given_code = NULL;
    int as_me = 0;
    uint8_t guest_pk[PROTO_KEY_BYTES];
    Proto_Identity player_id;
    Lobby_Code player_invite;
    struct sockaddr_storage http_addr;

    memset(&cfg, 0, sizeof cfg);
    cfg.role = role;
    cfg.seek = strcmp(cmd, "seek") == 0;
    cfg.seed = 1;
    cfg.out = stdout;
    cfg.options = "";
    const Cli_Flag *flags = role == LOBBY_ROLE_HOST    ? cli_flags_host
                            : role == LOBBY_ROLE_GUEST ? cli_flags_join
                                                       : cli_flags_spectate;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        int bot;
        if (cli_is_help(a)) {
            fputs(help, stdout);
            if (role != LOBBY_ROLE_SPECTATOR) /* a spectator has no seat */
                fputs(_(bot_help), stdout);
            fputs(_(cli_letters_help), stdout);
            return CLI_EXIT_OK;
        }
        if (role != LOBBY_ROLE_SPECTATOR &&
            (bot = cli_bot_arg(cmd, argc, argv, &i, NR_DEFAULT_LEVEL,
                               &cfg.bot_level)) != 0) {
            if (bot < 0)
                return CLI_EXIT_USAGE;
            continue;
        }
        switch (cli_arg(cmd, flags, argc, argv, &i, help, &v)) {
        case SEAT_FLAG_LOBBY:
            lobby = v;
            break;
        case SEAT_FLAG_LETTERS:
            tui_letters(1);
            break;
        case SEAT_FLAG_LOG: {
            struct stat st;
            cfg.log_path = v;
            /* A folder is no log: refused before a game is played
             * without one (and before FOLDER.seat is made beside it). */
            if (stat(cfg.log_path, &st) == 0 && S_ISDIR(st.st_mode)) {
                fprintf(stderr, _("tabula %s: --log '%s' is a folder; give a "
                                "file name, e.g. %s/%s.log\n"),
                        cmd, cli_token(cfg.log_path), cli_token(cfg.log_path),
                        cmd);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        case SEAT_FLAG_SEED: {
            uint64_t seed = 0;
            if (cli_seed(cmd, v, &seed) != 0)
                return CLI_EXIT_USAGE;
            cfg.seed = seed;
            break;
        }
        case SEAT_FLAG_DELAY: {
            uint64_t ms = 0;
            if (cli_uint(v, 0, 60000, &ms) != 0) {
                fprintf(stderr, _("tabula %s: bad delay '%s' (0..60000 ms)\n"),
                        cmd, cli_token(v));
                return CLI_EXIT_USAGE;
            }
            cfg.bot_delay_ms = (unsigned)ms;
            break;
        }
        case SEAT_FLAG_OPTIONS:
            cfg.options = v;
            break;
        case SEAT_FLAG_CLOCK:
            clock = v;
            break;
        case SEAT_FLAG_HTTP:
            http = v;
            break;
        case SEAT_FLAG_WEB:
            web = v;
            break;
        case SEAT_FLAG_SERIES: {
            uint64_t n = 0;
            if (cli_uint(v, 2, PROTO_SERIES_MAX, &n) != 0) {
                fprintf(stderr,
                        _("tabula %s: bad --series '%s': the games of the "
                          "series, 2..%d\n"),
                        cmd, cli_token(v), PROTO_SERIES_MAX);
                return CLI_EXIT_USAGE;
            }
            series = (unsigned)n;
            break;
        }
        case SEAT_FLAG_ME:
            as_me = 1;
            break;
        case SEAT_FLAG_KEY:
            key_file = v;
            break;
        case SEAT_FLAG_GUEST:
            if (proto_unhex(v, strlen(v), guest_pk, sizeof guest_pk) != 0) {
                fprintf(stderr, _("tabula %s: --guest takes the guest's "
                                  "public key: 64 lowercase hex digits\n"),
                        cmd);
                return CLI_EXIT_USAGE;
            }
            cfg.pool_guest = guest_pk;
            break;
        case SEAT_FLAG_RATING:
            rating = v;
            break;
        case SEAT_FLAG_CODE:
            given_code = v;
            break;
        case CLI_ARG_WORD:
            if (role == LOBBY_ROLE_HOST && cfg.game == NULL) {
                if ((cfg.game = cli_game(cmd, a)) == NULL)
                    return CLI_EXIT_USAGE;
            } else if (role != LOBBY_ROLE_HOST && cfg.code == NULL) {
                cfg.code = a;
            } else {
                return cli_unexpected(cmd, a, help);
            }
            break;
        default:
            return CLI_EXIT_USAGE;
        }
    }
    if (rating != NULL) { /* a rated seek's token among the options */
        uint16_t lo, hi;
        if (!cfg.seek) {
            fprintf(stderr, _("tabula %s: --rating is a seek's (tabula "
                              "seek GAME --rating LO..HI)\n"),
                    cmd);
            return CLI_EXIT_USAGE;
        }
        if (seat_rating_range(rating, &lo, &hi) != 0 || hi == 0) {
            fprintf(stderr, "tabula %s: ", cmd);
            fprintf(stderr, _(seat_rating_range_bad()), cli_token(rating));
            fputc('\n', stderr);
            return CLI_EXIT_USAGE;
        }
        int n = snprintf(rated_opts, sizeof rated_opts,
                         "%s%s" PROTO_OPTION_RATING "%u..%u", cfg.options,
                         cfg.options[0] != '\0' ? "," : "", (unsigned)lo,
                         (unsigned)hi);
        if (n < 0 || (size_t)n >= sizeof rated_opts) {
            fprintf(stderr, _("tabula %s: the options are too long\n"), cmd);
            return CLI_EXIT_USAGE;
        }
        cfg.options = rated_opts;
    }
    if (clock != NULL) {
        int crc = seat_clock_options(cfg.options, clock, opts, sizeof opts);
        if (crc != 0) {
            fprintf(stderr, "tabula %s: ", cmd);
            if (crc == TB_E_ARG)
                fputs(_(seat_clock_twice()), stderr);
            else
                fprintf(stderr, _(seat_clock_bad(clock)), cli_token(clock));
            fputc('\n', stderr);
            return CLI_EXIT_USAGE;
        }
        cfg.options = opts;
    }
    if ((role == LOBBY_ROLE_HOST && cfg.game == NULL) ||
        (role != LOBBY_ROLE_HOST && cfg.code == NULL)) {
        fputs(help, stderr);
        if (role != LOBBY_ROLE_SPECTATOR)
            fputs(_(bot_help), stderr);
        return CLI_EXIT_USAGE;
    }
    if (role == LOBBY_ROLE_HOST) {
        /* Refuse bad match options here, before a room exists: the
         * joiner would otherwise wait for a match that never starts. */
        Proto_Clock clk;
        char game_opts[PROTO_OPTIONS_MAX + 1];
        int err = proto_clock_split(cfg.options, &clk, game_opts,
                                    sizeof game_opts);
        if (err != 0) {
            fprintf(stderr, _("tabula %s: bad options '%s' for %s: %s (see "
                            "docs/rules/%s.md)\n"),
                    cmd, cli_token(cfg.options), core_game_name(cfg.game),
                    _(tb_strerror(err)), core_game_name(cfg.game));
            return CLI_EXIT_USAGE;
        }
        if (cli_options_check(cmd, cfg.game, game_opts, cfg.options) != 0)
            return CLI_EXIT_USAGE;
        if (seat_keep_seconds(&clk) > 0 && lobby == NULL)
            fprintf(stderr,
                    _("tabula %s: a correspondence game (days a move) lives "
                      "on its lobby while you are away, and this process's "
                      "own lobby goes with it: run tabula lobby where it "
                      "can keep running and give it --lobby\n"),
                    cmd);
    }
    /* A series (issue 38): its guest hosts the next game, so the lobby
     * must outlive this process's game; the options name the series
     * (signed in each start, the session's like the clock). */
    Proto_Identity series_key;
    Lobby_Code series_invite;
    memset(&series_key, 0, sizeof series_key);
    if (series > 0 && (given_code != NULL || cfg.pool_guest != NULL)) {
        fprintf(stderr,
                _("tabula %s: --series makes each game's code itself: it "
                  "goes without --guest and --code\n"),
                cmd);
        return CLI_EXIT_USAGE;
    }
    if (series > 0) {
        if (http != NULL) { /* (--lobby given or not: a trial) */
            fprintf(stderr,
                    _("tabula %s: --series goes without --http: the page "
                      "is served by a lobby that stays when this game ends "
                      "(tabula lobby --http; then host with --lobby)\n"),
                    cmd);
            return CLI_EXIT_USAGE;
        }
        if (lobby == NULL) {
            fprintf(stderr,
                    _("tabula %s: a series needs --lobby: its next game is "
                      "hosted by your opponent, on a lobby that stays when "
                      "this game ends (run tabula lobby)\n"),
                    cmd);
            return CLI_EXIT_USAGE;
        }
        /* its key, the series' for every game: with --me or --key the
         * player's own (below), so the series is rated under it
         * (docs/ratings.md "Whose rating"); else one made for it */
        int own = as_me || key_file != NULL;
        if (seat_series_options(cfg.options, series, series_opts,
                                sizeof series_opts) != 0 ||
            (!own && (proto_identity_generate(&series_key) != 0 ||
                      lobby_code_new(series_key.pk, &series_invite) != 0))) {
            fprintf(stderr, _("tabula %s: cannot set up the series\n"), cmd);
            return CLI_EXIT_FAIL;
        }
        cfg.options = series_opts;
        static const unsigned none[2] = {0, 0};
        cli_series_banner(series_banner, sizeof series_banner, 1, series, none);
        cfg.banner = series_banner;
        if (!own) {
            cfg.pool_id = &series_key;
            cfg.pool_invite = &series_invite;
        }
    }
    if (http != NULL && (lobby != NULL || net_addr_parse(http, &http_addr) != 0)) {
        fprintf(stderr, lobby != NULL
                            ? _("tabula %s: --http serves the page beside the "
                                "embedded lobby: leave out --lobby (or run "
                                "'tabula lobby --http' there)\n")
                            : _("tabula %s: bad address '%s' for --http; "
                                "expected HOST:PORT, e.g. 127.0.0.1:8080\n"),
                cmd, cli_token(http));
        return CLI_EXIT_USAGE;
    }
    if (lobby != NULL && strchr(lobby, '/') != NULL) {
        /* A URL (http://, https://, ws://, a trailing slash): the
         * lobby's web address, the page's, which a new user sees first;
         * HOST:PORT never holds a slash. Said as a join refused by that
         * address's HTTP answer says it. */
        char text[640];
        advice_lobby_failure(text, sizeof text, cli_token(lobby), TB_E_HTTP,
                             role, cfg.code ? cli_token(cfg.code) : NULL);
        fprintf(stderr, "tabula %s: %s\n", cmd, text);
        return CLI_EXIT_USAGE;
    }
    struct sockaddr_storage nodes[LOBBY_CLIENT_ADDRS];
    size_t nnodes = 0;
    if (lobby != NULL) {
        int prc =
            lobby_addr_list_parse(lobby, nodes, LOBBY_CLIENT_ADDRS, &nnodes);
        if (prc == TB_E_NOTFOUND)
            return no_address(cmd, lobby);
        if (prc != 0) {
            fprintf(stderr, _("tabula %s: bad lobby address '%s': expected "
                            "HOST:PORT with the port, e.g. 127.0.0.1:7470 "
                            "(the host's screen shows it), or up to %d "
                            "nodes of one lobby separated by commas\n"),
                    cmd, cli_token(lobby), LOBBY_CLIENT_ADDRS);
            return CLI_EXIT_USAGE;
        }
    }
    if (proto_init() != 0) {
        fprintf(stderr, _("tabula %s: cannot initialise libsodium\n"), cmd);
        return CLI_EXIT_FAIL;
    }
    memset(&player_id, 0, sizeof player_id);
    if (key_file != NULL || as_me) {
        int krc = proto_identity_load(&player_id, key_file, NULL);
        if (krc != 0) {
            fprintf(stderr, _("tabula %s: cannot use the identity %s: %s\n"),
                    cmd, key_file != NULL ? cli_token(key_file) : "--me",
                    _(tb_strerror(krc)));
            return CLI_EXIT_FAIL;
        }
        cfg.pool_id = &player_id;
        if (role == LOBBY_ROLE_HOST && given_code != NULL) {
            /* the code must be bound to this key: the guest checks it */
            uint8_t bytes[LOBBY_CODE_SECRET_SYMBOLS];
            Lobby_Code mine;
            int crc = lobby_code_parse(given_code, &player_invite);
            for (size_t k = 0; crc == 0 && k < sizeof bytes; k++)
                bytes[k] = (uint8_t)(strchr(LOBBY_CODE_ALPHABET,
                                            player_invite.secret[k]) -
                                     LOBBY_CODE_ALPHABET);
            if (crc == 0)
                crc = lobby_code_make(bytes, player_id.pk, &mine);
            if (crc != 0 || strcmp(mine.text, player_invite.text) != 0) {
                fprintf(stderr, _("tabula %s: the code %s is not one of "
                                  "your key's (the director's pairing names "
                                  "the other player as host?)\n"),
                        cmd, cli_token(given_code));
                proto_identity_wipe(&player_id);
                return CLI_EXIT_USAGE;
            }
        } else if (role == LOBBY_ROLE_HOST &&
                   lobby_code_new(player_id.pk, &player_invite) != 0) {
            proto_identity_wipe(&player_id);
            return CLI_EXIT_FAIL;
        }
        if (role == LOBBY_ROLE_HOST)
            cfg.pool_invite = &player_invite;
    } else if (given_code != NULL || cfg.pool_guest != NULL) {
        fprintf(stderr, _("tabula %s: --guest and --code go with --me or "
                          "--key FILE\n"),
                cmd);
        return CLI_EXIT_USAGE;
    }
    /* A code a seek lists holds its host to the game it promised there
     * (a host that lied in its seek gets its start refused). */
    Lobby_Seek taken;
    if (role == LOBBY_ROLE_GUEST) {
        struct sockaddr_storage first;
        int frc = TB_E_ARG;
        if (nnodes > 0)
            first = nodes[0];
        if (nnodes > 0 ||
            net_addr_parse(lobby != NULL ? lobby : NR_DEFAULT_LOBBY,
                           &first) == 0)
            frc = cli_seek_find((const struct sockaddr *)&first, cfg.code,
                                &taken);
        if (frc == 0 &&
            (cfg.expect_game = core_game_find(taken.game)) != NULL) {
            cfg.expect_options = taken.options;
            printf("seek: %s %s\n", taken.game,
                   taken.options[0] != '\0' ? taken.options : "-");
        } else if (frc != TB_E_CODE && frc != TB_E_ARG) {
            /* (said: the check a seek's taker counts on is not made) */
            fprintf(stderr,
                    _("tabula join: cannot read the lobby's seeks (%s): if "
                      "the code came from a seek, the game is not checked "
                      "against it\n"),
                    frc == TB_E_RATE
                        ? _("the list was asked for too often from this "
                            "address")
                        : _(net_strerror(frc)));
        }
    }
    /* A seek carries the player's display name, signed by the player's
     * own key (tabula identity --name), where one is set. */
    uint8_t name_rec[PROTO_NAME_RECORD_MAX];
    Proto_Identity me;
    memset(&me, 0, sizeof me);
    if (cfg.seek && seek_name(name_rec, &cfg.name_len, &me) == 0) {
        cfg.name = name_rec;
        cfg.player = &me;
    }
    Cli_Game_End end;
    memset(&end, 0, sizeof end);
    int status = net_play(cmd, &cfg, lobby, http, &http_addr, web, nodes,
                          nnodes, &end);
    proto_identity_wipe(&me); /* (the seek's card was made) */
    proto_identity_wipe(&series_key);
    /* a game of a series (the host's --series, or a guest's game whose
     * start says so): its other games follow */
    if (role != LOBBY_ROLE_SPECTATOR && lobby != NULL)
        status = cli_series(cmd, &cfg, &end, status, lobby, nodes, nnodes);
    proto_identity_wipe(&end.me);
    proto_identity_wipe(&player_id);
    return status;
}

/* Play the seat cfg describes (cfg.role, its game or code) through
 * lobby (NULL: a host's embedded lobby, serving the page on http when
 * not NULL, from the folder web), the nodes of --lobby read already
 * (nnodes 0: none): the lines or the screen of host, join and spectate
 * until the game ends. Returns the command's exit status. */
/* How the game of g ended into *end (NULL: nothing). */
static void game_end(const Netgame *g, Cli_Game_End *end)
{
    if (end == NULL)
        return;
    memset(end, 0, sizeof *end);
    snprintf(end->log, sizeof end->log, "%s", netgame_log_path(g));
    netgame_seat_key(g, &end->me);
    seat_game_end(netgame_session(g), &end->g);
}

static int net_play(const char *cmd, Netgame_Config *cfgp, const char *lobby,
                    const char *http,
                    const struct sockaddr_storage *http_addr, const char *web,
                    const struct sockaddr_storage *nodes, size_t nnodes,
                    Cli_Game_End *end)
{
    Netgame_Config cfg = *cfgp;
    Lobby_Role role = cfg.role;
    Net_Run r;
    char why[256], addr[64];
    int rc;

    memset(&r, 0, sizeof r);
    r.role = role;
    int screen = tui_terminal_ok();
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (uv_loop_init(&r.loop) != 0)
        return CLI_EXIT_FAIL;
    if (lobby == NULL && cfg.seek)
        lobby = NR_DEFAULT_LOBBY; /* (strangers see no embedded lobby) */
    if (lobby == NULL && role == LOBBY_ROLE_HOST) {
        struct sockaddr_storage sa;
        char again[64];
        rc = -1;
        if (seat_lobby(cfg.log_path, again, sizeof again) == 0 &&
            net_addr_parse(again, &sa) == 0) {
            rc = lobby_new(&r.loop, (const struct sockaddr *)&sa, NULL,
                           &r.lobby);
            if (rc != 0)
                fprintf(stderr, _("tabula %s: cannot listen on %s again (%s); "
                                "the others need the new lobby: line\n"),
                        cmd, again, net_strerror(rc));
        }
        if (rc != 0) {
            net_addr_parse("127.0.0.1:0", &sa);
            rc = lobby_new(&r.loop, (const struct sockaddr *)&sa, NULL,
                           &r.lobby);
        }
        if (rc != 0 || lobby_address(r.lobby, addr, sizeof addr) != 0) {
            fprintf(stderr, _("tabula %s: cannot start a lobby: %s\n"), cmd,
                    net_strerror(rc));
            uv_run(&r.loop, UV_RUN_DEFAULT);
            uv_loop_close(&r.loop);
            return CLI_EXIT_FAIL;
        }
        if (http != NULL &&
            cli_lobby_http(&r.loop, http_addr, web, r.lobby, &r.http,
                           r.http_url, sizeof r.http_url) != 0) {
            lobby_close(r.lobby, NULL, NULL);
            uv_run(&r.loop, UV_RUN_DEFAULT);
            uv_loop_close(&r.loop);
            return CLI_EXIT_FAIL;
        }
        lobby = addr;
    } else if (lobby == NULL) {
        lobby = NR_DEFAULT_LOBBY;
    }
    /* Without --log a player's seat keeps its files in the data folder,
     * so it can come back (netstore_dir); a spectator keeps none. */
    char store[512];
    if (role != LOBBY_ROLE_SPECTATOR && netstore_dir(store, sizeof store) == 0)
        cfg.store_dir = store; /* (a --log there is one of its seats) */
    cfg.lobby = lobby;
    int external_lobby = r.lobby == NULL; /* (not this process's own) */
    cfg.own_lobby = !external_lobby;
    cfg.nodes = nodes; /* --lobby's, read above; 0 of them otherwise */
    cfg.nnodes = nnodes;
    uv_signal_init(&r.loop, &r.sig);
    r.sig.data = &r;
    uv_signal_start(&r.sig, on_signal, SIGINT);
    if (screen && tui_net_new(&r.loop, role, cfg.bot_level > 0, on_ui_quit,
                              &r, &r.ui) != 0)
        screen = 0; /* plain lines, as without a terminal */
    if (screen)
        tui_net_banner(r.ui, cfg.banner);
    r.series = cfg.series;
    if (screen)
        cfg.out = NULL; /* the screen shows what the lines would say */
    static const Netgame_Hooks line_hooks = {.on_room = on_room,
                                             .on_done = on_done};
    static const Netgame_Hooks screen_hooks = {
        .on_room = on_room, .on_ply = on_ply, .on_done = on_done,
        .on_note = on_note, .on_presence = on_presence,
        .on_retry = on_retry};
    rc = netgame_new(&r.loop, &cfg, screen ? &screen_hooks : &line_hooks, &r,
                     &r.g, why, sizeof why);
    if (rc != 0) {
        tui_net_stop(r.ui);
        fprintf(stderr, "tabula %s: %s\n", cmd, why);
        shutdown_run(&r);
        uv_run(&r.loop, UV_RUN_DEFAULT);
        tui_net_free(r.ui);
        lobby_http_free(r.http);
        uv_loop_close(&r.loop);
        return rc == TB_E_CODE || rc == TB_E_ARG ? CLI_EXIT_USAGE
                                                 : CLI_EXIT_FAIL;
    }
    tui_net_game(r.ui, cfg.game);
    tui_net_attach(r.ui, r.g);
    if (r.ui == NULL && role != LOBBY_ROLE_SPECTATOR && cfg.bot_level == 0)
        start_input(&r);
    uv_run(&r.loop, UV_RUN_DEFAULT);
    /* A game that ended in a warning (a refusal): the screen is gone,
     * the terminal keeps the reason and what to type. */
    if (r.ui != NULL && r.g != NULL && !netgame_result(r.g)->finished &&
        tui_net_warning(r.ui)[0] != '\0')
        fprintf(stderr, "tabula %s: %s\n", cmd, tui_net_warning(r.ui));
    tui_net_free(r.ui);
    r.ui = NULL;
    int status = CLI_EXIT_FAIL;
    if (r.g != NULL) {
        const Netgame_Result *res = netgame_result(r.g);
        snprintf(r.kept, sizeof r.kept, "%s", netgame_log_path(r.g));
        status = res->desync || !res->finished ? CLI_EXIT_FAIL : CLI_EXIT_OK;
        if (screen && res->finished) {
            /* What the screen showed, kept in the terminal. */
            printf("result: %s (%s)\n", core_outcome_name(res->status.outcome),
                   core_reason_name(res->status.reason));
            printf("final-hash: %s\n", res->final_hash);
            if (r.kept[0] != '\0')
                printf("log: %s\n", r.kept);
        }
        game_end(r.g, end);
        netgame_free(r.g);
        uv_run(&r.loop, UV_RUN_DEFAULT);
    }
    lobby_http_free(r.http);
    uv_loop_close(&r.loop);
    for (size_t i = 0; i < r.script_count; i++)
        free(*script_at(&r, i));
    free(r.script);
    if (r.user_left)
        say_left(cmd, role, &cfg, r.was_started, r.kept, external_lobby);
    if (r.user_left && !r.was_started && cfg.log_path == NULL &&
        r.kept[0] != '\0')
        netstore_discard(r.kept); /* no game: nothing to come back to */
    return status;
}

int cli_net_play(Netgame_Config *cfg, const char *cmd,
                 const struct sockaddr_storage *nodes, size_t nnodes)
{
    return net_play(cmd, cfg, cfg->lobby, NULL, NULL, NULL, nodes, nnodes,
                    NULL);
}

int cli_net_play_end(Netgame_Config *cfg, const char *cmd, const char *lobby,
                     const struct sockaddr_storage *nodes, size_t nnodes,
                     Cli_Game_End *end)
{
    return net_play(cmd, cfg, lobby, NULL, NULL, NULL, nodes, nnodes, end);
}

int cli_host(int argc, char **argv)
{
    return run_seat("host", LOBBY_ROLE_HOST, argc, argv, _(host_help));
}

int cli_seek(int argc, char **argv)
{
    return run_seat("seek", LOBBY_ROLE_HOST, argc, argv, _(seek_help));
}

int cli_join(int argc, char **argv)
{
    return run_seat("join", LOBBY_ROLE_GUEST, argc, argv, _(join_help));
}

int cli_spectate(int argc, char **argv)
{
    return run_seat("spectate", LOBBY_ROLE_SPECTATOR, argc, argv,
                    _(spectate_help));
}

int cli_lobby_addr(const char *cmd, const char *lobby,
                   struct sockaddr_storage *out)
{
    int rc = net_addr_parse(lobby, out);
    if (rc == TB_E_NOTFOUND)
        return no_address(cmd, lobby);
    if (rc != 0) {
        fprintf(stderr,
                _("tabula %s: bad lobby address '%s': expected HOST:PORT "
                  "with the port, e.g. 127.0.0.1:7470\n"),
                cmd, cli_token(lobby));
        return CLI_EXIT_USAGE;
    }
    return 0;
}
