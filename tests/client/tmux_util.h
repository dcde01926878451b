/*
 * tmux_util.h: driving a full-screen tabula command through a real
 * terminal in tests: tmux runs it in a detached session (tmux_session),
 * send-keys types, capture-pane reads the screen. Each test has its own
 * tmux server (socket /tmp/tmux_session.sock), so parallel tests neither
 * race to start a shared server nor see each other. Shared by test_tui.c,
 * test_replay_view.c, test_net_tui.c, test_first_hour.c (which add
 * windows) and test_i18n_screens.c.
 */
#ifndef TABULA_TEST_TMUX_UTIL_H
#define TABULA_TEST_TMUX_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The session's and its server's name; the test sets it (e.g. with its
 * pid). */
static char tmux_session[64];

/* Run `tmux ARGS` on the test's server; the test fails when tmux does. */
static inline void tmux(const char *args)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "tmux -S /tmp/%s.sock %s >/dev/null 2>&1",
             tmux_session, args);
    cr_assert_eq(system(cmd), 0, "tmux %s", args);
}

/*
 * Start a detached session running command (already quoted for tmux's
 * shell), cols x rows, and with it the test's server. A server still
 * shutting down from the previous test of the same name can refuse the
 * start for a moment: then try again.
 */
static inline void tmux_new_session(const char *command, int cols, int rows)
{
    char cmd[1400];
    int rc = -1;
    snprintf(cmd, sizeof cmd,
             "tmux -S /tmp/%s.sock new-session -d -s %s -x %d -y %d %s "
             ">/dev/null 2>&1",
             tmux_session, tmux_session, cols, rows, command);
    for (int i = 0; i < 20 && rc != 0; i++) {
        if (i > 0)
            usleep(100000);
        rc = system(cmd);
    }
    cr_assert_eq(rc, 0, "%s", cmd);
}

/* The text of pane target (e.g. "SESSION:1" for a second window) into
 * buf; with_colours keeps the SGR escapes. */
static inline void screen_of(const char *target, char *buf, size_t cap,
                             int with_colours)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "tmux -S /tmp/%s.sock capture-pane -p %s-t %s",
             tmux_session, with_colours ? "-e " : "", target);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(buf, 1, cap - 1, p);
    buf[n] = '\0';
    pclose(p);
}

/* The session's (first) screen into buf. */
static inline void screen_as(char *buf, size_t cap, int with_colours)
{
    screen_of(tmux_session, buf, cap, with_colours);
}

/* Wait up to 10 s for text on pane target; returns its screen, once two
 * captures 40 ms apart agree: a program redraws in several writes, and a
 * capture between them shows half the change (the move list already
 * updated, the board rows below it not yet). */
static inline const char *wait_for_in(const char *target, const char *text)
{
    static char buf[16384];
    static char again[16384];
    for (int i = 0; i < 200; i++) {
        screen_of(target, buf, sizeof buf, 0);
        if (strstr(buf, text) != NULL) {
            usleep(40000);
            screen_of(target, again, sizeof again, 0);
            if (strcmp(buf, again) == 0)
                return buf;
        }
        usleep(50000);
    }
    cr_assert_fail("'%s' never appeared on %s; screen:\n%s", text, target,
                   buf);
    return buf;
}

/* Wait up to 10 s for text on the screen; returns the screen. */
static inline const char *wait_for(const char *text)
{
    return wait_for_in(tmux_session, text);
}

/* Type keys into pane target (tmux send-keys names: "Enter", "c3-d4"). */
static inline void keys_to(const char *target, const char *k)
{
    char args[256];
    snprintf(args, sizeof args, "send-keys -t %s %s", target, k);
    tmux(args);
}

/* Type keys into the session. */
static inline void keys(const char *k)
{
    keys_to(tmux_session, k);
}

/* The line of the screen scr that starts with label (a rank), into out. */
static inline void row(const char *scr, const char *label, char *out,
                       size_t cap)
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

/* Line k (0-based) of screen scr into out, without trailing blanks. */
static inline void line_of(const char *scr, int k, char *out, size_t cap)
{
    const char *p = scr;
    for (int i = 0; i < k && p != NULL; i++) {
        p = strchr(p, '\n');
        if (p != NULL)
            p++;
    }
    out[0] = '\0';
    if (p == NULL)
        return;
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, p, n);
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

/* The word after label on screen scr ("invite:" gives the code). */
static inline void word_after(const char *scr, const char *label,
                              char *out, size_t cap)
{
    const char *p = strstr(scr, label);
    cr_assert_not_null(p, "no '%s' on the screen:\n%s", label, scr);
    p += strlen(label);
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, " \n");
    cr_assert(n > 0 && n < cap, "'%s' has no word after it", label);
    memcpy(out, p, n);
    out[n] = '\0';
}

/* End the session and the test's server. */
static inline void tmux_stop(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "tmux -S /tmp/%s.sock kill-server >/dev/null 2>&1", tmux_session);
    if (system(cmd) != 0) {
        /* already gone: the command ended and took the server along */
    }
    snprintf(cmd, sizeof cmd, "/tmp/%s.sock", tmux_session);
    remove(cmd);
}

#endif /* TABULA_TEST_TMUX_UTIL_H */
