/*
 * test_replay_view.c: the replay viewer through a real terminal: tmux
 * runs `tabula replay FILE`, send-keys steps through the game,
 * capture-pane reads the screen. Checks the board after each step, the
 * move list's mark on the current ply and the last move's squares, the
 * jump to a ply, a long list following the ply, the end with the
 * result, the summary lines printed when the viewer closes, and the
 * unchanged line output without a terminal.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client/tmux_util.h"
#include "proto/match_util.h"

static char dir[64];

static void setup(void)
{
    char cmd[256];
    snprintf(dir, sizeof dir, "/tmp/tabula-replay-view-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir %s", dir, dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(tmux_session, sizeof tmux_session, "tabula-replay-%d",
             (int)getpid());
}

static void teardown(void)
{
    char cmd[256];
    tmux_stop();
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(replay_view, .init = setup, .fini = teardown, .timeout = 60);

/* Run `tabula replay ARGS` in a new tmux session; when it ends, the
 * pane stays with "viewer closed" under its output. TERM=screen: its
 * terminfo has the Home and End sequences tmux sends. */
static void start_at(const char *args, int cols, int rows)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'TERM=screen %s replay %s; echo viewer closed status $?; "
             "sleep 60'",
             TABULA_BINARY, args);
    tmux_new_session(cmd, cols, rows);
}

static void start(const char *args)
{
    start_at(args, 100, 30);
}

/* A Laska record: 1. c3-d4 e5xc3 (Black's only move, a capture leaving
 * a column of two on c3) 2. b2xd4. */
static void write_record(char *path, size_t cap)
{
    snprintf(path, cap, "%s/game.pgn", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("[Game \"laska\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n\n"
          "1. c3-d4 e5xc3 2. b2xd4 *\n",
          f);
    fclose(f);
}

Test(replay_view, steps_show_the_board_and_mark_the_ply)
{
    char path[128], line[1024];
    write_record(path, sizeof path);
    start(path);
    const char *scr = wait_for("Start position (ply 0 of 3)");
    cr_assert_not_null(strstr(scr, "White: Ann   Black: Bob"), "%s", scr);
    /* The start: rank 3 holds White's soldiers on a3 c3 e3 g3. */
    row(scr, " 3 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "w       w       w       w"), "'%s'", line);
    cr_assert_null(strstr(scr, "["), "no ply marked at the start");

    keys("Right");
    scr = wait_for("Ply 1 of 3: White played c3-d4");
    cr_assert_not_null(strstr(scr, "1. [c3-d4]"), "%s", scr);
    row(scr, " 3 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "w               w       w"), "'%s'", line);
    /* d4 is the fourth cell: 4 columns each from column 4, glyph 1 in. */
    row(scr, " 4 ", line, sizeof line);
    cr_assert(strlen(line) > 17 && line[17] == 'w' &&
                  strspn(line + 2, " ") == 15,
              "only d4 on rank 4: '%s'", line);

    keys("Right");
    scr = wait_for("Ply 2 of 3: Black played e5xc3");
    cr_assert_not_null(strstr(scr, "[e5xc3]"), "%s", scr);
    cr_assert_null(strstr(scr, "[c3-d4]"), "only the current ply marked");
    row(scr, " 3 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "w       bw      w       w"), "'%s'", line);
    row(scr, " 5 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "b       b               b"), "'%s'", line);
    /* The move's squares e5 and c3 have the yellow background (SGR 43)
     * and no other cell has. */
    static char esc[32768];
    screen_as(esc, sizeof esc, 1);
    row(esc, " 5 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "[43m    "), "e5 marked: '%s'", line);
    row(esc, " 3 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "[43m bw "), "c3 marked: '%s'", line);
    int yellow = 0;
    for (const char *q = strstr(esc, "[43m"); q; q = strstr(q + 1, "[43m"))
        yellow++;
    cr_assert_eq(yellow, 2, "two marked cells");

    keys("Left");
    scr = wait_for("Ply 1 of 3");
    cr_assert_not_null(strstr(scr, "[c3-d4]"), "%s", scr);

    keys("End");
    scr = wait_for("Ply 3 of 3: White played b2xd4");
    cr_assert_not_null(strstr(scr, "[b2xd4]"), "%s", scr);
    cr_assert_not_null(strstr(scr, "Result: * (unfinished)"), "%s", scr);

    keys("Home");
    wait_for("Start position (ply 0 of 3)");

    keys("q");
    scr = wait_for("viewer closed status 0");
    cr_assert_not_null(strstr(scr, "verified: 3 plies, every move legal"), "%s",
                       scr);
    cr_assert_null(strstr(scr, "   1. white c3-d4"),
                   "no ply lines after the viewer");
}

Test(replay_view, g_jumps_to_a_ply_and_refuses_one_past_the_end)
{
    char path[128];
    write_record(path, sizeof path);
    start(path);
    wait_for("Start position");
    keys("g 2 Enter");
    const char *scr = wait_for("Ply 2 of 3: Black played e5xc3");
    cr_assert_not_null(strstr(scr, "[e5xc3]"), "%s", scr);
    keys("g 9 9 Enter");
    wait_for("no ply 99: the game has 3 plies");
    wait_for("Ply 2 of 3"); /* still there */
    keys("g Escape");
    keys("Right");
    wait_for("Ply 3 of 3");
    keys("Right");
    wait_for("the last ply");
    keys("q");
    wait_for("viewer closed status 0");
}

/* Write a signed Laska log of at most max_plies plies chosen by seed
 * (match_util.h); the notation of every ply into text. Returns the
 * number of plies. */
static size_t write_log(const char *path, unsigned seed, unsigned max_plies,
                        char (*text)[CORE_NOTATION_MAX], char *white_fp)
{
    Proto_Identity w = ident(11), b = ident(12);
    Proto_Transcript *t = NULL;
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    Frames f = {0};
    Core_Position *pos = NULL;

    cr_assert_eq(proto_transcript_new(&t, NULL), 0);
    play_match(t, &f, &w, &b, "laska", "", seed, max_plies);
    proto_log_header_of(proto_transcript_start(t), &h);
    remove(path); /* the log is created afresh */
    cr_assert_eq(proto_log_create(&log, path, &h), 0);
    for (size_t i = 0; i < f.n; i++)
        cr_assert_eq(proto_log_append(log, f.buf[i], f.len[i]), 0);
    proto_log_close(log);
    size_t n = proto_transcript_moves(t);
    cr_assert_eq(core_position_new(&pos, core_game_find("laska"), NULL), 0);
    for (size_t i = 0; i < n; i++) {
        const Core_Move *mv = proto_transcript_move_at(t, i);
        cr_assert_eq(core_move_format(pos, mv, text[i], CORE_NOTATION_MAX), 0);
        cr_assert_eq(core_play(pos, mv), 0);
    }
    core_position_free(pos);
    proto_fingerprint(w.pk, white_fp);
    proto_transcript_free(t);
    frames_free(&f);
    return n;
}

Test(replay_view, long_game_list_follows_the_ply)
{
    static char text[80][CORE_NOTATION_MAX];
    char path[128], fp[PROTO_FINGERPRINT_MAX], want[256];
    snprintf(path, sizeof path, "%s/long.log", dir);
    size_t n = 0;
    for (unsigned seed = 1; seed < 40 && n <= 60; seed++)
        n = write_log(path, seed, 80, text, fp);
    cr_assert_gt(n, 60, "a game longer than the screen (%zu plies)", n);

    /* 30 rows hold about 25 lines of the list: the end is out of sight
     * at the start and in sight at the end. */
    char args[256];
    snprintf(args, sizeof args, "%s --ply 1", path);
    start(args);
    snprintf(want, sizeof want, "Ply 1 of %zu", n);
    const char *scr = wait_for(want);
    snprintf(want, sizeof want, "%3zu. ", (n + 1) / 2);
    cr_assert_null(strstr(scr, want), "last line not shown yet");
    snprintf(want, sizeof want, "[%s]", text[0]);
    cr_assert_not_null(strstr(scr, want), "%s", scr);
    keys("End");
    snprintf(want, sizeof want, "[%s]", text[n - 1]);
    scr = wait_for(want);
    snprintf(want, sizeof want, "%3zu. ", (n + 1) / 2);
    cr_assert_not_null(strstr(scr, want), "%s", scr);
    keys("PageUp");
    snprintf(want, sizeof want, "Ply %zu of %zu", n - 10, n);
    scr = wait_for(want);
    snprintf(want, sizeof want, "[%s]", text[n - 11]);
    cr_assert_not_null(strstr(scr, want), "%s", scr);
    keys("q");
    /* The log has no end record, but its game ended (no moves left):
     * status 0, a whole match (docs/usage.md "replay"). */
    wait_for("viewer closed status 0");
}

Test(replay_view, signed_log_opens_with_the_players)
{
    static char text[8][CORE_NOTATION_MAX];
    char path[128], fp[PROTO_FINGERPRINT_MAX], want[256];

    snprintf(path, sizeof path, "%s/m.log", dir);
    cr_assert_eq(write_log(path, 4, 6, text, fp), 6);
    start(path);
    const char *scr = wait_for("Start position (ply 0 of 6)");
    snprintf(want, sizeof want, "White: %s", fp);
    cr_assert_not_null(strstr(scr, want), "%s", scr);
    keys("Right");
    snprintf(want, sizeof want, "1. [%s]", text[0]);
    wait_for(want);
    keys("q");
    scr = wait_for("viewer closed status 3");
    cr_assert_not_null(strstr(scr, "verified: "), "%s", scr);
    cr_assert_not_null(strstr(scr, "(no end record"), "%s", scr);
}

Test(replay_view, without_a_terminal_the_lines_stay)
{
    char path[128], cmd[512], out[128], buf[4096];
    write_record(path, sizeof path);
    snprintf(out, sizeof out, "%s/out", dir);
    /* --ply is accepted and changes nothing in line mode. */
    snprintf(cmd, sizeof cmd, "%s replay %s --ply 2 >%s 2>&1 </dev/null",
             TABULA_BINARY, path, out);
    cr_assert_eq(system(cmd), 0);
    FILE *f = fopen(out, "r");
    cr_assert_not_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    cr_assert_not_null(strstr(buf, "   2. black e5xc3 "), "%s", buf);
    cr_assert_not_null(strstr(buf, "verified: 3 plies, every move legal"));
    /* A bad ply number is a usage error. */
    snprintf(cmd, sizeof cmd, "%s replay %s --ply -1 >/dev/null 2>&1",
             TABULA_BINARY, path);
    int st = system(cmd);
    cr_assert(WIFEXITED(st));
    cr_assert_eq(WEXITSTATUS(st), 2);
    snprintf(cmd, sizeof cmd, "%s replay %s --ply >/dev/null 2>&1",
             TABULA_BINARY, path);
    st = system(cmd);
    cr_assert(WIFEXITED(st));
    cr_assert_eq(WEXITSTATUS(st), 2);
}

Test(replay_view, terminal_ncurses_cannot_drive_keeps_the_lines)
{
    char path[128], cmd[512];
    write_record(path, sizeof path);
    snprintf(cmd, sizeof cmd,
             "'TERM=dumb %s replay %s; echo viewer closed status $?; "
             "sleep 60'",
             TABULA_BINARY, path);
    tmux_new_session(cmd, 100, 30);
    const char *scr = wait_for("viewer closed status 0");
    cr_assert_not_null(strstr(scr, "   2. black e5xc3 "), "%s", scr);
    cr_assert_null(strstr(scr, "Start position"), "%s", scr);
}

/* Does line hold a move list entry ("  1. ", " 31. ": digits, a dot, a
 * blank)? No status line has one: Laska's moves have no dots. */
static int has_list_number(const char *line)
{
    for (const char *p = line; *p != '\0'; p++)
        if (p[0] >= '0' && p[0] <= '9' && p[1] == '.' && p[2] == ' ')
            return 1;
    return 0;
}

/* The viewer of a game longer than the window at cols x rows: each
 * status line stands alone on its row, whole; the keys are all there;
 * the list shows the ply in brackets beside the board. */
static void status_apart_from_the_list(int cols, int rows)
{
    static char text[80][CORE_NOTATION_MAX];
    static char scr[16384];
    char path[128], fp[PROTO_FINGERPRINT_MAX], want[256], args[256];
    snprintf(path, sizeof path, "%s/long.log", dir);
    size_t n = 0;
    for (unsigned seed = 1; seed < 40 && n <= 60; seed++)
        n = write_log(path, seed, 80, text, fp);
    cr_assert_gt(n, 60, "a game longer than the screen (%zu plies)", n);
    snprintf(args, sizeof args, "%s --ply 1", path);
    start_at(args, cols, rows);
    snprintf(want, sizeof want, "Ply 1 of %zu", n);
    wait_for(want);
    snprintf(want, sizeof want, "[%s]", text[0]);
    snprintf(scr, sizeof scr, "%s", wait_for(want));

    char ply_line[256], keys_seen[512] = "";
    snprintf(ply_line, sizeof ply_line, " Ply 1 of %zu: White played %s", n,
             text[0]);
    int saw_ply = 0, saw_list = 0;
    for (char *line = scr, *next; line != NULL && *line != '\0';
         line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        size_t len = strlen(line);
        while (len > 0 && line[len - 1] == ' ')
            line[--len] = '\0';
        saw_list += has_list_number(line);
        int status = strstr(line, "Ply ") || strstr(line, "to move") ||
                     strstr(line, "<- ->") || strstr(line, "q quit") ||
                     strstr(line, "verified");
        if (!status)
            continue;
        cr_assert(!has_list_number(line), "%dx%d: a list entry on '%s'",
                  cols, rows, line);
        if (strstr(line, "Ply ") != NULL) {
            cr_assert_str_eq(line, ply_line, "%dx%d", cols, rows);
            saw_ply = 1;
        }
        if (strstr(line, "<- ->") || strstr(line, "g N Enter") ||
            strstr(line, "q quit"))
            strncat(keys_seen, line, sizeof keys_seen - strlen(keys_seen) - 1);
    }
    cr_assert(saw_ply, "%dx%d", cols, rows);
    cr_assert_gt(saw_list, 5, "%dx%d: the list beside the board", cols, rows);
    cr_assert_not_null(strstr(keys_seen, " <- -> ply"), "%s", keys_seen);
    cr_assert_not_null(strstr(keys_seen, "g N Enter: ply N"), "%s", keys_seen);
    cr_assert_not_null(strstr(keys_seen, " q quit"), "%s", keys_seen);
    keys("q");
    wait_for("viewer closed status 0"); /* (its game ended: whole) */
}

/* Issue 20, finding 3: at 100x40 the keys line ran through the move
 * list; the block of status lines now sits under the list, at every
 * size the viewer draws in (its smallest: see the next test). */
Test(replay_view, status_lines_never_run_through_the_move_list)
{
    status_apart_from_the_list(100, 40);
    tmux_stop();
    status_apart_from_the_list(80, 24);
}

/* Smaller than Laska's board needs (3 header rows, 7 ranks and their
 * letters, a blank row, 6 status rows = 18 rows; 44 columns, the least
 * any board screen asks): a word instead of lines over each other. */
Test(replay_view, a_window_too_small_says_so)
{
    char path[128];
    write_record(path, sizeof path);
    start_at(path, 80, 17);
    const char *scr = wait_for("make the window larger");
    cr_assert_not_null(strstr(scr, "(this board needs 44x18,"), "%s", scr);
    cr_assert_not_null(strstr(scr, " the window is 80x17)"), "%s", scr);
    keys("q");
    wait_for("viewer closed status 0");
}

/* q quits the too-small screen even after a g, which began reading a
 * ply number that screen does not show (q there only left the reading,
 * so the screen's "q quits" did nothing). */
Test(replay_view, q_quits_the_small_window_screen_after_a_g)
{
    char path[128];
    write_record(path, sizeof path);
    start_at(path, 80, 17);
    wait_for("make the window larger");
    keys("g");
    keys("q");
    wait_for("viewer closed status 0");
}

/* The viewer draws chess pieces as the solid Unicode figurines (U+265A
 * BLACK CHESS KING .. U+265E BLACK CHESS KNIGHT, from the code charts) in
 * a UTF-8 locale, and as letters with --letters: Football chess's rank 1
 * at the start (docs/rules/football.md: R a1, N b1, B c1, Q d1, the goal
 * e1, K f1, B g1, N h1, R i1). */
Test(replay_view, figurines_in_utf8_letters_with_the_flag)
{
    char path[128], cmd[1024], line[1024];
    snprintf(path, sizeof path, "%s/football.pgn", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("[Game \"football\"]\n\n1. a1-a2 *\n", f);
    fclose(f);
    static const char *const runs[2][2] = {
        {"", " 1   \u265C   \u265E   \u265D   \u265B       \u265A   \u265D   "
             "\u265E   \u265C"},
        {"--letters", " 1   R   N   B   Q       K   B   N   R"}};
    for (int k = 0; k < 2; k++) {
        tmux_stop();
        snprintf(cmd, sizeof cmd,
                 "'env LC_ALL=C.UTF-8 TERM=screen %s replay %s %s; sleep 60'",
                 TABULA_BINARY, path, runs[k][0]);
        tmux_new_session(cmd, 100, 30);
        const char *scr = wait_for("Start position (ply 0 of 1)");
        row(scr, " 1 ", line, sizeof line);
        cr_assert_str_eq(line, runs[k][1], "%s:\n%s", runs[k][0], scr);
    }
}
