/*
 * test_net_tui.c: the full-screen screen of `tabula host` and `tabula
 * spectate` through a real terminal. tmux runs the host (window 0) and a
 * spectator (window 1); a `tabula join --bot=1` process plays black
 * against them on 127.0.0.1 through the host's embedded lobby. send-keys
 * types, capture-pane reads the screens, the joiner's plain lines are read
 * from a file. Laska: after 1. c3-d4 Black's only legal move is the
 * capture e5xc3 (capture is compulsory), whatever the bot's level.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client/tmux_util.h"

static char host_pane[80], spec_pane[80];
static char invite[32], watch[32], lobby[64];
static char join_out[128];
static pid_t joiner = -1;

static void start(void)
{
    char args[1024];
    snprintf(tmux_session, sizeof tmux_session, "tabula-nettui-%d",
             (int)getpid());
    snprintf(host_pane, sizeof host_pane, "%s:0", tmux_session);
    snprintf(spec_pane, sizeof spec_pane, "%s:1", tmux_session);
    snprintf(join_out, sizeof join_out, "/tmp/%s-join.out", tmux_session);
    snprintf(args, sizeof args,
             "'TERM=xterm-256color %s host laska; echo host-exit $?; "
             "sleep 60'",
             TABULA_BINARY);
    tmux_new_session(args, 100, 32);
    const char *scr = wait_for_in(host_pane, "waiting for an opponent");
    word_after(scr, "invite:", invite, sizeof invite);
    word_after(scr, "watch:", watch, sizeof watch);
    word_after(scr, "lobby:", lobby, sizeof lobby);
}

static void stop(void)
{
    if (joiner > 0) {
        kill(joiner, SIGKILL);
        waitpid(joiner, NULL, 0);
        joiner = -1;
    }
    tmux_stop();
    remove(join_out);
}

TestSuite(net_tui, .init = start, .fini = stop, .timeout = 60);

static void start_spectator(void)
{
    char args[1024];
    snprintf(args, sizeof args,
             "new-window -t %s 'TERM=xterm-256color %s spectate %s --lobby "
             "%s; echo spectate-exit $?; sleep 60'",
             tmux_session, TABULA_BINARY, watch, lobby);
    tmux(args);
    wait_for_in(spec_pane, "You: spectator");
}

/* `tabula CMD ARG [--lobby ADDR] --bot=1 --seed 1` in plain line mode
 * (its output goes to join_out), as a child we can kill. */
static void start_bot(const char *cmd, const char *arg, const char *addr)
{
    joiner = fork();
    cr_assert(joiner >= 0);
    if (joiner == 0) {
        int out = open(join_out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0 || in < 0)
            _exit(126);
        dup2(in, 0);
        dup2(out, 1);
        dup2(out, 2);
        if (addr != NULL)
            execl(TABULA_BINARY, "tabula", cmd, arg, "--lobby", addr,
                  "--bot=1", "--seed", "1", (char *)NULL);
        else
            execl(TABULA_BINARY, "tabula", cmd, arg, "--bot=1", "--seed", "1",
                  (char *)NULL);
        _exit(127);
    }
}

/* `tabula join CODE --lobby ADDR --bot=1`: black against the screen. */
static void start_joiner(void)
{
    start_bot("join", invite, lobby);
}

/* Wait up to 10 s for text in the bot's output; returns the output. */
static const char *wait_joiner(const char *text)
{
    static char buf[16384];
    for (int i = 0; i < 200; i++) {
        FILE *f = fopen(join_out, "r");
        size_t n = 0;
        if (f != NULL) {
            n = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
        }
        buf[n] = '\0';
        if (strstr(buf, text) != NULL)
            return buf;
        usleep(50000);
    }
    cr_assert_fail("'%s' never appeared in the bot's output:\n%s", text,
                   buf);
    return buf;
}

/* Wait up to 10 s until text is gone from pane target. */
static void wait_gone(const char *target, const char *text)
{
    char buf[16384];
    for (int i = 0; i < 200; i++) {
        screen_of(target, buf, sizeof buf, 0);
        if (strstr(buf, text) == NULL)
            return;
        usleep(50000);
    }
    cr_assert_fail("'%s' stayed on %s:\n%s", text, target, buf);
}

/* The position after 1. c3-d4 e5xc3: a column of two (Black on White) on
 * c3, e5 emptied. */
static void check_after_capture(const char *target)
{
    const char *scr = wait_for_in(target, "1. c3-d4            e5xc3");
    char line[256];
    row(scr, " 3 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "w       bw      w       w"),
                       "%s rank 3: '%s'", target, line);
    row(scr, " 5 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "b       b               b"),
                       "%s rank 5: '%s'", target, line);
}

Test(net_tui, codes_shown_until_the_opponent_joins)
{
    char scr[16384];
    screen_of(host_pane, scr, sizeof scr, 0);
    cr_assert_eq(strlen(invite), 19, "invite '%s'", invite);
    cr_assert_eq(strlen(watch), 19, "watch '%s'", watch);
    cr_assert_not_null(strstr(lobby, "127.0.0.1:"), "lobby '%s'", lobby);
    cr_assert_null(strstr(scr, "Moves"), "no board before the match");
    start_joiner();
    wait_for_in(host_pane, "Connection: connected");
    const char *board = wait_for_in(host_pane, "White to move (you)");
    cr_assert_null(strstr(board, invite), "the invite code stays:\n%s",
                   board);
    cr_assert_not_null(strstr(board, watch), "the watch code goes:\n%s",
                       board);
    cr_assert_not_null(strstr(board, "White: you   Black: opponent"));
}

/* A move typed before the opponent joins cannot be sent: the waiting
 * screen says so, and so does the board when it comes up (a new-user
 * trial typed one there, and the board came up with no move and no
 * word); the same move typed on the board is sent. */
Test(net_tui, a_move_typed_before_the_start_is_refused_with_a_note)
{
    start_spectator();
    keys_to(host_pane, "c3-d4 Enter");
    const char *scr =
        wait_for_in(host_pane, "the game has not started yet (waiting for the "
                               "opponent); q leaves");
    cr_assert_null(strstr(scr, "Moves"), "no board before the match");
    keys_to(spec_pane, "x");
    wait_for_in(spec_pane, "you are watching: no moves here; q leaves");
    start_joiner();
    wait_for_in(host_pane, "White to move (you)");
    /* and the board, when it comes up, says so again */
    scr = wait_for_in(host_pane, "the game has started: what you typed "
                                 "before it was not sent");
    cr_assert_null(strstr(scr, "1. c3-d4"), "nothing was sent:\n%s", scr);
    keys_to(host_pane, "c3-d4 Enter");
    check_after_capture(host_pane);
    wait_joiner("   1. white c3-d4");
}

Test(net_tui, key_move_reaches_both_boards_and_the_bot_replies)
{
    start_spectator();
    wait_for_in(spec_pane, "waiting for the match to start");
    start_joiner();
    wait_for_in(host_pane, "White to move (you)");
    wait_for_in(spec_pane, "White to move");

    /* Refused selections, each with its message. */
    keys_to(host_pane, "Enter"); /* the cursor starts on a1 */
    wait_for_in(host_pane, "no legal move from a1");
    keys_to(spec_pane, "Enter");
    wait_for_in(spec_pane, "you are watching: no moves here");
    keys_to(host_pane, "a1-b2 Enter");
    wait_for_in(host_pane, "'a1-b2': ");

    /* c3 then d4 selected with the cursor. */
    keys_to(host_pane, "Up Up Right Right Enter");
    wait_for_in(host_pane, "select the next square");
    keys_to(host_pane, "Up Right Enter");
    check_after_capture(host_pane);
    wait_for_in(host_pane, "opponent played e5xc3");
    check_after_capture(spec_pane);
    wait_for_in(spec_pane, "black played e5xc3");
    wait_joiner("   1. white c3-d4");
    wait_joiner("   2. black e5xc3");
}

Test(net_tui, typed_resign_ends_the_game_with_the_result_shown)
{
    start_spectator();
    start_joiner();
    wait_for_in(host_pane, "White to move (you)");
    keys_to(host_pane, "c3-d4 Enter");
    check_after_capture(host_pane);
    wait_for_in(host_pane, "White to move (you)");
    keys_to(host_pane, "resign Enter");
    /* The screens say the reason in words (a trial found the result
     * line's token, "resign", where a person reads); the terminal's
     * result: line keeps the token. */
    const char *over = wait_for_in(host_pane, "Game over: 0-1 (resignation)");
    cr_assert_null(strstr(over, "(resign)"), "%s", over);
    wait_for_in(host_pane, "Game over: 0-1 (resignation); q quits");
    wait_for_in(host_pane, "Connection: game over");
    over = wait_for_in(spec_pane, "Game over: 0-1 (resignation)");
    cr_assert_null(strstr(over, "(resign)"), "%s", over);
    wait_joiner("result: 0-1 (resign)");
    /* Where the game's log is, for tabula replay, before the screen goes
     * (docs/usage.md: "the last line says log: PATH, on the full screen
     * too"; a trial found it only after q). */
    wait_for_in(host_pane, "log: ");
    /* q leaves a finished game at once; the terminal keeps the result. */
    keys_to(spec_pane, "q");
    wait_for_in(spec_pane, "spectate-exit 0");
    keys_to(host_pane, "q");
    const char *scr = wait_for_in(host_pane, "host-exit 0");
    cr_assert_not_null(strstr(scr, "result: 0-1 (resign)"), "%s", scr);
    cr_assert_not_null(strstr(scr, "final-hash: "), "%s", scr);
}

Test(net_tui, opponent_gone_is_shown_as_reconnecting)
{
    start_joiner();
    wait_for_in(host_pane, "Connection: connected");
    kill(joiner, SIGKILL);
    waitpid(joiner, NULL, 0);
    joiner = -1;
    wait_for_in(host_pane, "opponent reconnecting");
}

/* A join the lobby refuses (no game has the code) never began a game:
 * its screen says so, not "game over" (a first-hour finding). */
Test(net_tui, a_refused_join_is_stopped_before_the_game_began)
{
    char args[1024];
    snprintf(args, sizeof args,
             "new-window -t %s 'TERM=xterm-256color %s join "
             "ABCD-EFGH-JKLM-NPQR --lobby %s; echo join-exit $?; sleep 60'",
             tmux_session, TABULA_BINARY, lobby);
    tmux(args);
    const char *scr =
        wait_for_in(spec_pane, "Connection: stopped before the game began");
    cr_assert_null(strstr(scr, "game over"), "%s", scr);
}

Test(net_tui, resize_redraws_for_the_new_width)
{
    char args[256];
    start_joiner();
    wait_for_in(host_pane, "Moves");
    /* Too narrow for the move list beside the board: it is left out. */
    snprintf(args, sizeof args, "resize-window -t %s -x 60 -y 30",
             tmux_session);
    tmux(args);
    wait_gone(host_pane, "Moves");
    wait_for_in(host_pane, "White to move (you)");
    snprintf(args, sizeof args, "resize-window -t %s -x 100 -y 32",
             tmux_session);
    tmux(args);
    wait_for_in(host_pane, "Moves");
}

/* On the "make the window larger" screen of a running game the first q
 * asks, as on the board, and the question shows there: it was kept for
 * the board the window could not hold, so "q quits" seemed to do
 * nothing. The second q leaves. */
Test(net_tui, the_small_window_screen_shows_the_leave_question)
{
    char args[256];
    start_joiner();
    wait_for_in(host_pane, "White to move (you)");
    snprintf(args, sizeof args, "resize-window -t %s -x 40 -y 12",
             tmux_session);
    tmux(args);
    wait_for_in(host_pane, "make the window larger");
    keys_to(host_pane, "c");
    keys_to(host_pane, "q");
    wait_for_in(host_pane, "q again leaves");
    keys_to(host_pane, "q");
    wait_for_in(host_pane, "host-exit");
}

Test(net_tui, quitting_a_running_game_asks_twice)
{
    start_joiner();
    wait_for_in(host_pane, "White to move (you)");
    keys_to(host_pane, "q");
    wait_for_in(host_pane, "q again leaves");
    keys_to(host_pane, "Escape");
    keys_to(host_pane, "q");
    wait_for_in(host_pane, "q again leaves");
    keys_to(host_pane, "q");
    /* Left unfinished: the command fails, as a line-mode seat would. */
    wait_for_in(host_pane, "host-exit 1");
}

/* The session's one grammar (match_conduct_line) tells a command from a
 * move, as in line mode and on the page: a word that is no conduct
 * command is read as a move and refused at once with how moves look (the
 * screen once guessed by its shape that it was a command and sent it);
 * a malformed command goes to the seat, which answers with its reason. */
Test(net_tui, typed_words_are_commands_or_moves_by_the_one_grammar)
{
    start_joiner();
    wait_for_in(host_pane, "White to move (you)");
    keys_to(host_pane, "hello Enter");
    wait_for_in(host_pane, "'hello': malformed move notation; moves look like");
    keys_to(host_pane, "'takeback x' Enter");
    /* netgame's own answer, shown above the board */
    const char *scr = wait_for_in(
        host_pane, "refused: 'takeback x': a takeback is of 1 to 255 plies");
    /* the answer takes the message line too: "sent" does not stay */
    cr_assert_null(strstr(scr, "sent 'takeback x' to the seat"), "%s", scr);
    /* and a move still goes through afterwards */
    keys_to(host_pane, "c3-d4 Enter");
    check_after_capture(host_pane);
}

/* The guest's screen: a `tabula host --bot=1` process plays white (line
 * mode, its codes read from its output), `tabula join` runs in tmux. */
/* A bot hosts GAME (its lines into join_out); the screen in tmux joins
 * as the guest. name: the tmux session's name part. */
static void start_guest_of(const char *game, const char *name)
{
    char args[1024];
    snprintf(tmux_session, sizeof tmux_session, "tabula-%s-%d", name,
             (int)getpid());
    snprintf(host_pane, sizeof host_pane, "%s:0", tmux_session);
    snprintf(join_out, sizeof join_out, "/tmp/%s-host.out", tmux_session);
    start_bot("host", game, NULL);
    const char *out = wait_joiner("lobby: ");
    word_after(out, "invite:", invite, sizeof invite);
    word_after(out, "lobby:", lobby, sizeof lobby);
    snprintf(args, sizeof args,
             "'TERM=xterm-256color %s join %s --lobby %s; echo join-exit $?; "
             "sleep 60'",
             TABULA_BINARY, invite, lobby);
    tmux_new_session(args, 100, 32);
}

static void start_as_guest(void)
{
    start_guest_of("laska", "netguest");
}

TestSuite(net_tui_guest, .init = start_as_guest, .fini = stop, .timeout = 60);

Test(net_tui_guest, black_moves_only_after_white_and_resigns)
{
    /* White (the bot) moves first; the guest's screen shows it. */
    const char *scr = wait_for_in(host_pane, "Black to move (you)");
    cr_assert_not_null(strstr(scr, "White: opponent   Black: you"), "%s",
                       scr);
    cr_assert_not_null(strstr(scr, "You: guest, black"), "%s", scr);
    cr_assert_not_null(strstr(scr, "opponent played "), "%s", scr);
    cr_assert_not_null(strstr(scr, "  1. "), "no move list line:\n%s", scr);
    wait_joiner("   1. white ");
    keys_to(host_pane, "resign Enter");
    wait_for_in(host_pane, "Game over: 1-0 (resignation)");
    wait_joiner("result: 1-0 (resign)");
    keys_to(host_pane, "q");
    wait_for_in(host_pane, "join-exit 0");
}

/* A clocked match (issue 9): the screen shows both clocks ticking and a
 * standing draw offer. */
/* The host's lobby goes with its process: the guest's screen says it is
 * reconnecting, with the attempt and the wait the seat layer gives a
 * guest after a lost connection (seat.h: 1 s first). */
Test(net_tui_guest, a_lost_lobby_is_retried_with_the_attempt_shown)
{
    wait_for_in(host_pane, "Connection: connected");
    kill(joiner, SIGKILL);
    waitpid(joiner, NULL, 0);
    joiner = -1;
    wait_for_in(host_pane,
                "connection lost: reconnecting (attempt 1, next in 1.0 s)");
}

static void start_clocked(void)
{
    char args[1024];
    snprintf(tmux_session, sizeof tmux_session, "tabula-netclock-%d",
             (int)getpid());
    snprintf(host_pane, sizeof host_pane, "%s:0", tmux_session);
    snprintf(spec_pane, sizeof spec_pane, "%s:1", tmux_session);
    snprintf(join_out, sizeof join_out, "/tmp/%s-join.out", tmux_session);
    snprintf(args, sizeof args,
             "'TERM=xterm-256color %s host laska --clock 10+5; "
             "echo host-exit $?; sleep 60'",
             TABULA_BINARY);
    tmux_new_session(args, 100, 34);
    const char *scr = wait_for_in(host_pane, "waiting for an opponent");
    word_after(scr, "invite:", invite, sizeof invite);
    word_after(scr, "lobby:", lobby, sizeof lobby);
}

TestSuite(net_tui_clock, .init = start_clocked, .fini = stop, .timeout = 60);

Test(net_tui_clock, clocks_tick_and_a_draw_offer_is_shown)
{
    start_joiner();
    /* Black's clock stands at the base while White thinks; White's runs
     * down from 10:00. */
    wait_for_in(host_pane, "Clock  White 9:5");
    const char *scr = wait_for_in(host_pane, "Black 10:00");
    cr_assert_not_null(strstr(scr, "White to move (you)"), "%s", scr);
    keys_to(host_pane, "draw Enter");
    wait_for_in(host_pane, "you offered a draw");
}

/* Chess volleyball (a side acts several times running): the guest's
 * screen takes its second action of a possession too. The bot hosts and
 * serves; the guest answers with a touch that keeps the ball on its own
 * half (ranks 5-8 of the 8x8 board), so Black acts again. */
static void start_volleyball_guest(void)
{
    start_guest_of("volleyball", "netvb");
}

/* The first legal move after the moves given (one shell word each) that
 * starts with prefix and, when rank_min > 0, lands ('>') on a rank of at
 * least rank_min; into out. */
static void legal_move(const char *moves, const char *prefix, int rank_min,
                       char *out, size_t cap)
{
    char cmd[512], line[64];
    snprintf(cmd, sizeof cmd, "%s moves volleyball %s", TABULA_BINARY, moves);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    out[0] = '\0';
    while (out[0] == '\0' && fgets(line, sizeof line, p) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        const char *land = strrchr(line, '>');
        if (strncmp(line, prefix, strlen(prefix)) == 0 &&
            (rank_min == 0 || (land != NULL && land[2] - '0' >= rank_min)))
            snprintf(out, cap, "%.63s", line);
    }
    pclose(p);
    cr_assert(out[0] != '\0', "no move '%s...' after %s", prefix, moves);
}

TestSuite(net_tui_vb, .init = start_volleyball_guest, .fini = stop,
          .timeout = 60);

Test(net_tui_vb, a_side_acting_twice_running_takes_both_actions)
{
    wait_for_in(host_pane, "Black to move (you)");
    const char *out = wait_joiner("   1. white S ");
    char serve[64], first[64], second[64], moves[160], k[80];
    const char *s = strstr(out, "   1. white ") + strlen("   1. white ");
    const char *gap = strstr(s, "  "); /* then the state hash */
    cr_assert_not_null(gap, "%s", out);
    snprintf(serve, sizeof serve, "%.*s", (int)(gap - s), s);
    snprintf(moves, sizeof moves, "'%s'", serve);
    legal_move(moves, "T ", 5, first, sizeof first);
    snprintf(k, sizeof k, "'%s' Enter", first);
    keys_to(host_pane, k);
    wait_joiner("   2. black ");
    /* Still Black's possession: the screen is the guest's to move. */
    wait_for_in(host_pane, "Black to move (you)");
    snprintf(moves, sizeof moves, "'%s' '%s'", serve, first);
    legal_move(moves, "", 0, second, sizeof second);
    snprintf(k, sizeof k, "'%s' Enter", second);
    keys_to(host_pane, k);
    wait_joiner("   3. black ");
}
