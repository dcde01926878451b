/*
 * tui_net.c: the full-screen screen of a network seat or spectator (see
 * tui_net.h). Before the match starts it shows the room's codes and the
 * connection; then the board screen of `tabula play` (tui_screen.h) mirrors
 * the match transcript in a Session: every accepted ply, ours or the
 * opponent's, is played into it as the netgame reports it, and the moves
 * the local player selects or types go to netgame_submit instead of being
 * played here. Keys are read on the libuv loop (a poll on standard input,
 * ncurses getch without waiting); SIGWINCH resizes the screen.
 */
#include <curses.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "tb_error.h"
#include "tui.h"
#include "tui_board.h"
#include "tui_net.h"
#include "tui_screen.h"

struct Tui_Net {
    Netgame *g;
    Lobby_Role role;
    int bot;
    void (*on_quit)(void *user);
    void *user;
    Session s;
    Tui t;
    int have_screen;   /* the match started: s and t are set up */
    int colours;
    int curses;        /* ncurses runs */
    int stopped;
    uv_poll_t in;
    uv_signal_t winch;
    uv_timer_t tick;   /* redraws so clocks and countdowns tick */
    int handles_open;
    int stdin_flags;
    char invite[LOBBY_CODE_TEXT], watch[LOBBY_CODE_TEXT], lobby[64];
    int linked, ever_linked;
    unsigned attempt; /* failed attempts to reconnect (0: none now) */
    uint32_t wait_ms; /* until the next */
    int present[2];    /* by seat: the host's, the guest's player */
    int done;
    int resumable; /* done without a result or a desync */
    int quit_armed;
    int leave_on_done; /* q pressed after the end, before the last frames
                          were delivered */
    const Core_Game *game; /* the host's game, for the title; or NULL */
    char white_name[48], black_name[48];
    char note[400]; /* the last line the seat reported (a refusal is long) */
    char banner[160]; /* tui_net_banner's line ("" none) */
    int series_next;  /* q goes on to the series' next game */
    char warning[400]; /* the last warning, for the terminal afterwards */
    char message[400]; /* the message line before the board is up */
    int typed_early;   /* keys pressed then, which nothing could take */
};

static const char net_help[] =
    N_("Keys (network game)\n"
    "\n"
    "  arrows / mouse   move the cursor / select a square\n"
    "  Enter            select the square under the cursor, or send the\n"
    "                   typed move\n"
    "  type a move      as on the first page; Tab completes among the\n"
    "                   legal moves, Tab on an empty line lists them\n"
    "  1-9              choose when several moves fit the squares\n"
    "  Esc              clear the selection and the typed text\n"
    "  resign           typed and Enter (sent when it is your turn)\n"
    "  other words      passed to the seat (its commands), which\n"
    "                   answers on the line above the board\n"
    "  ?                this help\n"
    "  q                leave (pressed twice while the game runs; the\n"
    "                   game is not resigned: the line it leaves says\n"
    "                   how to come back)\n"
    "\n"
    "You enter moves for your side on your turn; the opponent's moves\n"
    "appear as they arrive. A spectator and a bot's seat only watch.\n"
    "\n"
    "Any key closes this help.");

static int seat_index(Lobby_Role seat)
{
    return seat == LOBBY_ROLE_HOST ? 0 : 1;
}

static int started(const Tui_Net *u)
{
    return u->g != NULL &&
           proto_transcript_start(netgame_transcript(u->g)) != NULL;
}

static const char *connection(const Tui_Net *u)
{
    if (u->done)
        return u->resumable   ? _("stopped: the game is not over")
               : !started(u) ? _("stopped before the game began")
                             : _("game over");
    if (!u->linked && u->attempt > 0) {
        /* as the page says it: the attempt and the wait (seat.h) */
        static char text[160];
        snprintf(text, sizeof text,
                 _("connection lost: reconnecting (attempt %u, next in %.1f s)"),
                 u->attempt, u->wait_ms / 1000.0);
        return text;
    }
    if (!u->linked)
        return u->ever_linked ? _("connection lost: reconnecting")
                              : _("connecting to the lobby");
    if (!started(u))
        return u->role != LOBBY_ROLE_HOST ? _("waiting for the match to start")
               : u->invite[0] != '\0'    ? _("waiting for an opponent")
                                          : _("creating the room");
    if (u->role == LOBBY_ROLE_SPECTATOR) {
        if (!u->present[0])
            return _("connected; white (host) reconnecting");
        if (!u->present[1])
            return _("connected; black (guest) reconnecting");
        return _("connected");
    }
    if (!u->present[u->role == LOBBY_ROLE_HOST ? 1 : 0])
        return _("connected; opponent reconnecting");
    return _("connected");
}

static const char *who(const Tui_Net *u)
{
    switch (u->role) {
    case LOBBY_ROLE_HOST:
        return u->bot ? _("host, white (bot)") : _("host, white");
    case LOBBY_ROLE_GUEST:
        return u->bot ? _("guest, black (bot)") : _("guest, black");
    default:
        return _("spectator");
    }
}

/* The screen before the match starts: the whole commands the others
 * type (code and lobby address), and the connection. */
/* One line at (y, x), cut at the window's edge rather than wrapped
 * onto the next. */
static void put_line(int y, int x, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put_line(int y, int x, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    int room = getmaxx(stdscr) - x - 1;
    tui_put(y, x, line, room);
}

/* The waiting screen's widest line, "   PROGRAM spectate CODE --lobby
 * 255.255.255.255:65535" (3 + 10 + 19 + 9 + 21 = 62 columns besides the
 * program's name, cli_program) and a margin, and its height with the
 * codes. */
#define TN_WAIT_COLS (64 + (int)strlen(cli_program()))
#define TN_WAIT_ROWS 16

static void draw_waiting(Tui_Net *u)
{
    int cols = getmaxx(stdscr), y = 3;
    erase();
    if (cols < TN_WAIT_COLS || getmaxy(stdscr) < TN_WAIT_ROWS) {
        put_line(0, 0, _("Tabula: make the window larger"));
        put_line(1, 0, _("(the codes need %dx%d,"), TN_WAIT_COLS, TN_WAIT_ROWS);
        put_line(2, 0, _(" the window is %dx%d)"), cols, getmaxy(stdscr));
        put_line(3, 0, _("q leaves"));
        refresh();
        return;
    }
    attrset(A_BOLD);
    put_line(0, 1, _("Tabula - %s"), u->game != NULL ? _(core_game_title(u->game))
                                  : u->role == LOBBY_ROLE_SPECTATOR
                                      ? _("watching a network game")
                                      : _("joining a network game"));
    attrset(A_NORMAL);
    put_line(1, 1, _("You: %s"), who(u));
    if (u->invite[0] != '\0') {
        put_line(y++, 1, "invite: %s   (%s)", u->invite,
                 _("your opponent's code"));
        put_line(y++, 1, "watch:  %s   (%s)", u->watch,
                 _("the spectators' code"));
        put_line(y++, 1, "lobby:  %s", u->lobby);
        y++;
        put_line(y++, 1, _("Your opponent types, on their terminal:"));
        put_line(y++, 3, "%s join %s --lobby %s", cli_program(), u->invite,
                 u->lobby);
        put_line(y++, 1, _("A spectator types:"));
        put_line(y++, 3, "%s spectate %s --lobby %s", cli_program(), u->watch,
                 u->lobby);
        y++;
    }
    put_line(y++, 1, _("Connection: %s"), connection(u));
    /* A refusal is a sentence ending in the command to type: wrapped at
     * blanks, not cut at the window's edge. */
    y += tui_put_wrapped(y, 1, u->note, cols - 2 > 20 ? cols - 2 : 20,
                         getmaxy(stdscr) - 2 - y);
    tui_put(y + 1, 1, u->message[0] ? u->message : _("q leaves"), cols - 2);
    refresh();
}

/* "m:ss" (or "h:mm:ss") of ms, rounded down to the second. */
static void clock_text(char *buf, size_t cap, int64_t ms)
{
    int64_t s = ms / 1000;
    if (s >= 3600)
        snprintf(buf, cap, "%d:%02d:%02d", (int)(s / 3600),
                 (int)(s / 60 % 60), (int)(s % 60));
    else
        snprintf(buf, cap, "%d:%02d", (int)(s / 60), (int)(s % 60));
}

static const char *side_word(int side)
{
    return side == CORE_WHITE ? _("white") : _("black");
}

/* The match line: clocks, a standing draw offer or takeback request
 * (and how to answer it), an absent opponent's countdown (issue 9). */
static void conduct_line(const Tui_Net *u, char *out, size_t cap)
{
    char w[16], b[16];
    int mine = u->role == LOBBY_ROLE_HOST    ? CORE_WHITE
               : u->role == LOBBY_ROLE_GUEST ? CORE_BLACK
                                             : -1;
    size_t n = 0;
    out[0] = '\0';
    if (u->g == NULL)
        return;
    int64_t wl = netgame_clock_left(u->g, CORE_WHITE);
    int64_t bl = netgame_clock_left(u->g, CORE_BLACK);
    if (wl >= 0 && bl >= 0) {
        clock_text(w, sizeof w, wl);
        clock_text(b, sizeof b, bl);
        n += (size_t)snprintf(out + n, cap - n, _("Clock  White %s  Black %s"),
                              w, b);
    }
    int offer = netgame_draw_offer(u->g);
    if (offer >= 0 && n < cap)
        n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? "   " : "",
                              offer == mine ? _("you offered a draw")
                              : mine < 0    ? _("a draw is offered")
                                            : _("draw offered: type accept or "
                                              "decline"));
    uint32_t plies = 0;
    int asker = netgame_takeback(u->g, &plies);
    if (asker >= 0 && n < cap)
        n += (size_t)snprintf(out + n, cap - n, ngettext("%s%s asks to take back %u "
                                       "ply%s",
                                       "%s%s asks to take back %u "
                                       "plies%s", plies), n ? "   " : "", side_word(asker),
                              (unsigned)plies,
                              asker != mine && mine >= 0
                                  ? _(": type accept or decline")
                                  : "");
    int64_t gone = netgame_absence_left(u->g);
    if (gone >= 0 && mine >= 0 && n < cap) {
        if (gone == 0)
            snprintf(out + n, cap - n, _("%sopponent gone: type claim win or "
                     "claim draw"), n ? "   " : "");
        else
            snprintf(out + n, cap - n, ngettext("%sopponent gone: a claim is "
                              "possible in %ds",
                              "%sopponent gone: a claim is "
                              "possible in %ds", (int)((gone + 999) / 1000)), n ? "   " : "",
                     (int)((gone + 999) / 1000));
    }
}

void tui_net_banner(Tui_Net *u, const char *line)
{
    snprintf(u->banner, sizeof u->banner, "%s", line != NULL ? line : "");
}

void tui_net_series_next(Tui_Net *u)
{
    if (u != NULL)
        u->series_next = 1;
}

static void render(Tui_Net *u)
{
    if (!u->curses)
        return;
    if (!u->have_screen) {
        draw_waiting(u);
        return;
    }
    Tui *t = &u->t;
    snprintf(t->extra[0], sizeof t->extra[0], _("You: %s   Connection: %s"),
             who(u), connection(u));
    if (u->banner[0] != '\0' && u->watch[0] != '\0')
        snprintf(t->extra[1], sizeof t->extra[1], "%s   watch: %s", u->banner,
                 u->watch);
    else if (u->banner[0] != '\0')
        snprintf(t->extra[1], sizeof t->extra[1], "%s", u->banner);
    else if (u->watch[0] != '\0')
        snprintf(t->extra[1], sizeof t->extra[1], "watch: %s   lobby: %s",
                 u->watch, u->lobby);
    /* One line under the names: the note as far as it fits. */
    size_t nn = strlen(u->note);
    if (nn >= sizeof t->extra[2])
        nn = sizeof t->extra[2] - 1;
    memcpy(t->extra[2], u->note, nn);
    t->extra[2][nn] = '\0';
    conduct_line(u, t->extra[3], sizeof t->extra[3]);
    tui_screen_draw(t);
}

/* Bring the session up to the transcript: the start, every ply, the
 * result (a resignation is known only to the transcript). */
static int send_line(Tui *t, const char *line);

static void mirror(Tui_Net *u)
{
    if (u->g == NULL)
        return;
    const Proto_Transcript *tr = netgame_transcript(u->g);
    const Proto_Message *st = proto_transcript_start(tr);
    int changed = 0;
    if (st == NULL)
        return;
    if (!u->have_screen) {
        char why[160];
        const Core_Game *game = core_game_find(st->body.start.game);
        if (game == NULL ||
            session_init(&u->s, game, proto_transcript_game_options(tr),
                         NULL, why, sizeof why) != 0) {
            snprintf(u->note, sizeof u->note, _("cannot show the game '%s'"),
                     st->body.start.game);
            return;
        }
        u->s.player[CORE_WHITE] = u->s.player[CORE_BLACK] = SESSION_BOT;
        if (u->role != LOBBY_ROLE_SPECTATOR && !u->bot)
            u->s.player[u->role == LOBBY_ROLE_HOST ? CORE_WHITE
                                                   : CORE_BLACK] =
                SESSION_HUMAN;
        if (tui_screen_init(&u->t, &u->s) != 0) {
            session_free(&u->s);
            snprintf(u->note, sizeof u->note, _("out of memory"));
            return;
        }
        u->have_screen = 1;
        u->t.from_side = u->role == LOBBY_ROLE_GUEST ? CORE_BLACK : CORE_WHITE;
        tui_screen_sync(&u->t);
        u->t.colours = u->colours;
        u->t.user = u;
        u->t.watching = u->role == LOBBY_ROLE_SPECTATOR || u->bot;
        u->t.help_text = net_help;
        u->t.white_name = u->white_name;
        u->t.black_name = u->black_name;
        u->t.send = send_line;
        if (u->t.watching)
            tui_say(&u->t, _("? for help; watching"), NULL, NULL);
        else if (u->typed_early) /* the waiting screen's word is gone */
            tui_say(&u->t,
                    _("the game has started: what you typed before it "
                      "was not sent"),
                    NULL, NULL);
    }
    size_t n = proto_transcript_moves(tr), same = 0;
    /* Plies the transcript no longer holds (a takeback) are undone. */
    while (same < n && same < u->s.nplayed &&
           core_move_equal(&u->s.played[same],
                           proto_transcript_move_at(tr, same)))
        same++;
    if (same < u->s.nplayed &&
        session_takeback(&u->s, u->s.nplayed - same) == 0)
        changed = 1;
    while (u->s.nplayed < n) {
        const Core_Move *mv = proto_transcript_move_at(tr, u->s.nplayed);
        size_t i = 0;
        while (i < u->s.nlegal && !core_move_equal(&u->s.legal[i], mv))
            i++;
        if (i == u->s.nlegal || session_play_index(&u->s, i) != 0) {
            snprintf(u->note, sizeof u->note,
                     _("cannot show ply %zu on this board"), u->s.nplayed + 1);
            break;
        }
        changed = 1;
    }
    Core_Status ts = proto_transcript_status(tr);
    if (ts.outcome != CORE_ONGOING &&
        session_status(&u->s).outcome == CORE_ONGOING) {
        u->s.ended = ts;
        changed = 1;
    }
    if (changed) {
        u->t.pending = 0;
        tui_screen_sync(&u->t);
    }
}

/* Plies, codes and results are on the screen already; other lines of
 * the seat (presence, refusals, resignations, warnings, the log's path
 * at the end: where to replay the game from) are noted. */
static int worth_noting(const Tui_Net *u, const char *text)
{
    static const char *const shown[] = {"invite:", "watch:", "final-hash:",
                                        "result:"};
    if (text[0] == ' ' || (text[0] >= '0' && text[0] <= '9'))
        return 0;
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
        if (strncmp(text, shown[i], strlen(shown[i])) == 0)
            return 0;
    /* "lobby: HOST:PORT" (the room's address), not "lobby: guest gone" */
    return !(strncmp(text, "lobby: ", 7) == 0 &&
             (strcmp(text + 7, u->lobby) == 0 ||
              (strchr(text + 7, ':') != NULL && !strchr(text + 7, ' '))));
}

static int send_line(Tui *t, const char *line)
{
    Tui_Net *u = t->user;
    if (u->g == NULL || u->done)
        return TB_E_STATE;
    return netgame_submit(u->g, line);
}

static void close_cb(uv_handle_t *h) { (void)h; }

void tui_net_stop(Tui_Net *u)
{
    if (u == NULL || u->stopped)
        return;
    u->stopped = 1;
    if (u->curses) {
        endwin();
        u->curses = 0;
    }
    if (u->handles_open) {
        u->handles_open = 0;
        uv_close((uv_handle_t *)&u->in, close_cb);
        uv_close((uv_handle_t *)&u->winch, close_cb);
        uv_close((uv_handle_t *)&u->tick, close_cb);
        if (u->stdin_flags >= 0)
            fcntl(STDIN_FILENO, F_SETFL, u->stdin_flags);
    }
    u->g = NULL;
}

static void leave(Tui_Net *u)
{
    int ended = u->done;
    tui_net_stop(u);
    if (!ended && u->on_quit != NULL)
        u->on_quit(u->user);
}

/* A key on the screen before the board (the match start) is up: nothing
 * can take it yet, so the message line says why rather than the key
 * being lost unseen (a new-user trial typed a move there, and the board
 * then came up with no move and no word). */
static void waiting_key(Tui_Net *u)
{
    u->typed_early = u->role != LOBBY_ROLE_SPECTATOR;
    snprintf(u->message, sizeof u->message, "%s; %s",
             u->role == LOBBY_ROLE_SPECTATOR
                 ? _("you are watching: no moves here")
                 : _("the game has not started yet (waiting for the "
                     "opponent)"),
             _("q leaves"));
}

static void on_key(Tui_Net *u, int ch)
{
    int quit = 0;
    if (ch == KEY_RESIZE)
        return;
    if (ch == 3) /* Ctrl-C in raw mode */
        quit = 1;
    else if (u->have_screen)
        quit = tui_screen_key(&u->t, ch);
    else if (ch == 'q')
        quit = 1;
    else if (ch != KEY_MOUSE && !u->done)
        waiting_key(u);
    if (!quit) {
        if (ch != KEY_MOUSE)
            u->quit_armed = 0;
        return;
    }
    if (u->done || u->quit_armed) {
        leave(u);
        return;
    }
    if (u->have_screen && session_status(&u->s).outcome != CORE_ONGOING) {
        /* Over, but our last frames may still be on their way. */
        u->leave_on_done = 1;
        tui_say(&u->t, _("leaving once the last moves are delivered..."), NULL,
                NULL);
        return;
    }
    if (!u->have_screen) {
        leave(u); /* no game yet: nothing to lose */
        return;
    }
    u->quit_armed = 1;
    static const char ask[] =
        N_("q again leaves (the game is not resigned); any other key stays");
    snprintf(u->message, sizeof u->message, "%s", _(ask));
    if (u->have_screen)
        tui_say(&u->t, _(ask), NULL, NULL);
}

static void on_input(uv_poll_t *h, int status, int events)
{
    Tui_Net *u = h->data;
    int ch;
    (void)events;
    if (status < 0) {
        leave(u);
        return;
    }
    while (!u->stopped && (ch = getch()) != ERR)
        on_key(u, ch);
    render(u);
}

static void on_tick(uv_timer_t *h)
{
    Tui_Net *u = h->data;
    if (u->curses && u->have_screen)
        render(u);
}

static void on_winch(uv_signal_t *h, int signum)
{
    Tui_Net *u = h->data;
    struct winsize ws;
    (void)signum;
    if (!u->curses)
        return;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
        ws.ws_col > 0)
        resizeterm(ws.ws_row, ws.ws_col);
    clear();
    render(u);
}

int tui_net_new(uv_loop_t *loop, Lobby_Role role, int bot,
                void (*on_quit)(void *user), void *user, Tui_Net **out)
{
    Tui_Net *u = calloc(1, sizeof *u);
    *out = NULL;
    if (u == NULL)
        return TB_E_NOMEM;
    u->role = role;
    u->bot = bot;
    u->on_quit = on_quit;
    u->user = user;
    snprintf(u->white_name, sizeof u->white_name, "%s",
             role == LOBBY_ROLE_HOST ? (bot ? _("bot (this seat)") : _("you"))
             : role == LOBBY_ROLE_GUEST ? _("opponent")
                                        : _("host"));
    snprintf(u->black_name, sizeof u->black_name, "%s",
             role == LOBBY_ROLE_GUEST ? (bot ? _("bot (this seat)") : _("you"))
             : role == LOBBY_ROLE_HOST ? _("opponent")
                                       : _("guest"));
    if (tui_screen_curses(&u->colours) != 0) {
        free(u);
        return TB_E_IO;
    }
    u->curses = 1;
    nodelay(stdscr, TRUE); /* keys are read when the loop sees them */
    u->stdin_flags = fcntl(STDIN_FILENO, F_GETFL);
    if (uv_poll_init(loop, &u->in, STDIN_FILENO) != 0) {
        endwin();
        free(u);
        return TB_E_IO;
    }
    uv_signal_init(loop, &u->winch);
    uv_timer_init(loop, &u->tick);
    u->in.data = u->winch.data = u->tick.data = u;
    u->handles_open = 1;
    uv_poll_start(&u->in, UV_READABLE, on_input);
    uv_signal_start(&u->winch, on_winch, SIGWINCH);
    uv_timer_start(&u->tick, on_tick, 250, 250);
    render(u);
    *out = u;
    return 0;
}

void tui_net_game(Tui_Net *u, const Core_Game *game)
{
    if (u != NULL)
        u->game = game;
}

void tui_net_attach(Tui_Net *u, Netgame *g)
{
    if (u == NULL || u->stopped)
        return;
    u->g = g;
    mirror(u); /* a resumed seat holds its plies already */
    render(u);
}

void tui_net_room(Tui_Net *u, const char *invite, const char *watch,
                  const char *lobby)
{
    if (u == NULL || u->stopped)
        return;
    snprintf(u->invite, sizeof u->invite, "%s", invite);
    snprintf(u->watch, sizeof u->watch, "%s", watch);
    snprintf(u->lobby, sizeof u->lobby, "%s", lobby);
    render(u);
}

void tui_net_ply(Tui_Net *u, int side, const char *move)
{
    if (u == NULL || u->stopped)
        return;
    mirror(u);
    if (!u->have_screen)
        return;
    int mine = u->role != LOBBY_ROLE_SPECTATOR &&
               side == (u->role == LOBBY_ROLE_HOST ? CORE_WHITE : CORE_BLACK);
    if (mine)
        tui_say(&u->t, u->bot ? _("bot played ") : _("you played "), move, NULL);
    else if (u->role == LOBBY_ROLE_SPECTATOR)
        tui_say(&u->t, side == CORE_WHITE ? _("white played ") : _("black played "),
                move, NULL);
    else
        tui_say(&u->t, _("opponent played "), move, NULL);
    render(u);
}

void tui_net_note(Tui_Net *u, int warning, const char *text,
                  const Match_Note *note)
{
    char said[sizeof u->note];
    if (u == NULL)
        return;
    if (u->stopped) { /* the screen is gone: warnings go to stderr again */
        if (warning)
            fprintf(stderr, "tabula: %s\n", text);
        return;
    }
    /* A warning is always noted: one may start with digits, as an
     * address does ("127.0.0.1:8080 is the lobby's web address ..."),
     * which worth_noting takes for a ply line. */
    /* the note in the screen's words: the session's by its code, the
     * driver's own as it is */
    if (note != NULL)
        cli_match_note(note, text, said, sizeof said);
    else
        snprintf(said, sizeof said, "%s", text);
    if (warning || worth_noting(u, text))
        snprintf(u->note, sizeof u->note, "%s%s", warning ? _("warning: ") : "",
                 said);
    if (warning)
        snprintf(u->warning, sizeof u->warning, "%s", text);
    if (note != NULL && match_note_is_refusal(note->code) && u->have_screen)
        u->t.pending = 0; /* our move came back refused */
    /* The seat's answer to a command takes the message line, where
     * "sent 'takeback x' to the seat" would stay beside its refusal. */
    if (u->t.asked && u->have_screen) {
        u->t.asked = 0;
        tui_say(&u->t, said, NULL, NULL);
    }
    mirror(u);
    render(u);
}

void tui_net_retry(Tui_Net *u, unsigned attempt, uint32_t wait_ms)
{
    if (u == NULL || u->stopped)
        return;
    u->attempt = attempt;
    u->wait_ms = wait_ms;
    render(u);
}

void tui_net_presence(Tui_Net *u, Lobby_Role seat, int present)
{
    if (u == NULL || u->stopped)
        return;
    if (seat == u->role) {
        u->linked = present;
        u->ever_linked |= present;
        if (present)
            u->attempt = 0;
    } else if (seat == LOBBY_ROLE_HOST || seat == LOBBY_ROLE_GUEST) {
        u->present[seat_index(seat)] = present;
    }
    render(u);
}

void tui_net_done(Tui_Net *u)
{
    if (u == NULL || u->stopped)
        return;
    mirror(u);
    u->done = 1;
    if (u->g != NULL) {
        const Netgame_Result *res = netgame_result(u->g);
        u->resumable = u->have_screen && !res->desync && !res->finished &&
                       session_status(&u->s).outcome == CORE_ONGOING;
        if (res->desync)
            snprintf(u->note, sizeof u->note,
                     _("desync at ply %u: the game stopped; report %.100s"),
                     res->desync_ply, res->report[0] ? res->report : "none");
        else if (!res->finished && strncmp(u->note, _("warning: "), strlen(_("warning: "))) != 0)
            snprintf(u->note, sizeof u->note, "%s",
                     _("the game did not finish (lobby unreachable?)"));
    }
    if (u->have_screen && u->resumable) {
        /* The seat stopped waiting (a lobby gone too long, a refusal):
         * no result; the same command resumes it only with a log. */
        tui_say(&u->t,
                u->g != NULL && !netgame_keeps_log(u->g)
                    ? _("The game is not over, but this seat kept no log "
                        "(--log FILE) to come back with: q quits")
                    : _("The game is not over: q quits; run the same command "
                        "again to resume it"),
                NULL, NULL);
    } else if (u->have_screen) {
        Core_Status st = session_status(&u->s);
        char line[200];
        /* Words for a person; the result: line with its tokens goes
         * to the terminal once the screen is gone. */
        snprintf(line, sizeof line,
                 u->series_next
                     ? _("Game over: %s (%s); q: the series' next game")
                     : _("Game over: %s (%s); q quits"),
                 core_outcome_name(st.outcome),
                 cli_reason_words(core_reason_name(st.reason)));
        tui_say(&u->t, line, NULL, NULL);
    } else {
        snprintf(u->message, sizeof u->message, "%s", _("q quits"));
    }
    render(u);
    if (u->leave_on_done)
        leave(u);
}

const char *tui_net_warning(const Tui_Net *u)
{
    return u != NULL ? u->warning : "";
}

void tui_net_free(Tui_Net *u)
{
    if (u == NULL)
        return;
    tui_net_stop(u);
    if (u->have_screen) {
        tui_screen_free(&u->t);
        session_free(&u->s);
    }
    free(u);
}
