/*
 * test_tui.c: the full-screen board through a real terminal: tmux runs
 * `tabula play`, send-keys types, capture-pane reads the screen.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/tmux_util.h"

static void start(void)
{
    char args[1024];
    snprintf(tmux_session, sizeof tmux_session, "tabula-test-%d",
             (int)getpid());
    snprintf(args, sizeof args,
             "'TERM=xterm-256color %s play laska --bot=1 --seed 1; sleep 60'",
             TABULA_BINARY);
    tmux_new_session(args, 100, 30);
    wait_for("White to move (you)");
}

static void stop(void)
{
    tmux_stop();
}

TestSuite(tui, .init = start, .fini = stop, .timeout = 60);

Test(tui, illegal_selection_is_refused_with_a_message)
{
    /* The cursor starts on a1, whose soldier has no move. */
    keys("Enter");
    wait_for("no legal move from a1");
    /* a4 is not played on in Laska. */
    keys("Up Up Up Enter");
    wait_for("not a square of the board");
    /* An empty square is no start either. */
    keys("Right Enter");
    wait_for("no legal move from b4");
}

Test(tui, typed_move_appears_on_board_and_in_move_list)
{
    keys("c3-d4 Enter");
    /* Black's only legal reply is the capture e5xc3, which leaves a
     * column of two (Black on White) on c3. */
    const char *scr = wait_for("1. c3-d4            e5xc3");
    char line[256];
    row(scr, " 3 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "w       bw      w       w"),
                       "rank 3: '%s'", line);
    row(scr, " 5 ", line, sizeof line);
    cr_assert_not_null(strstr(line, "b       b               b"),
                       "rank 5: '%s'", line);
}

Test(tui, move_entered_by_selecting_squares)
{
    /* Cursor a1 -> c3 (up 2, right 2), select; then d4, select. */
    keys("Up Up Right Right Enter");
    wait_for("select the next square");
    keys("Up Right Enter");
    wait_for("1. c3-d4");
}

Test(tui, tab_completes_among_legal_moves)
{
    keys("g Tab");
    wait_for("move> g3-f4");
    keys("Enter");
    wait_for("1. g3-f4");
}
