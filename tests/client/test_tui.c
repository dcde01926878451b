/*
 * test_tui.c: the full-screen board through a real terminal: tmux runs
 * `tabula play`, send-keys types, capture-pane reads the screen.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char session[64];

static void tmux(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "tmux %s >/dev/null 2>&1", args);
    cr_assert_eq(system(cmd), 0, "tmux %s", args);
}

static void screen(char *buf, size_t cap)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "tmux capture-pane -p -t %s", session);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(buf, 1, cap - 1, p);
    buf[n] = '\0';
    pclose(p);
}

/* Wait up to 10 s for text on the screen; returns the screen. */
static const char *wait_for(const char *text)
{
    static char buf[16384];
    for (int i = 0; i < 200; i++) {
        screen(buf, sizeof buf);
        if (strstr(buf, text) != NULL)
            return buf;
        usleep(50000);
    }
    cr_assert_fail("'%s' never appeared; screen:\n%s", text, buf);
    return buf;
}

static void keys(const char *k)
{
    char args[256];
    snprintf(args, sizeof args, "send-keys -t %s %s", session, k);
    tmux(args);
}

static void start(void)
{
    char args[1024];
    snprintf(session, sizeof session, "tabula-test-%d", (int)getpid());
    snprintf(args, sizeof args,
             "new-session -d -s %s -x 100 -y 30 'TERM=xterm-256color %s play "
             "laska --bot=1 --seed 1; sleep 60'",
             session, TABULA_BINARY);
    tmux(args);
    wait_for("White to move (you)");
}

static void stop(void)
{
    char args[128];
    snprintf(args, sizeof args, "kill-session -t %s", session);
    tmux(args);
}

/* The line of the screen that starts with label (a rank). */
static void row(const char *scr, const char *label, char *out, size_t cap)
{
    const char *p = scr;
    size_t n = strlen(label);
    out[0] = '\0';
    while (p != NULL && *p != '\0') {
        if (strncmp(p, label, n) == 0) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (len >= cap)
                len = cap - 1;
            memcpy(out, p, len);
            out[len] = '\0';
            return;
        }
        p = strchr(p, '\n');
        if (p != NULL)
            p++;
    }
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
    cr_assert_not_null(strstr(line, "w       b2      w       w"),
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
