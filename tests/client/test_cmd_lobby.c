/*
 * test_cmd_lobby.c: `tabula lobby`'s own defaults against the descriptor
 * limit (the binary TABULA_BINARY, run under a lowered limit through
 * sh's ulimit): connections asked for beyond what the process may open
 * are refused with a clear message and exit status 2; the default number
 * is lowered to fit, with a note, and the lobby runs.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Run sh command line cmd; its combined output into out. Exit status. */
static int run(const char *cmd, char *out, size_t cap)
{
    FILE *p = popen(cmd, "r");
    size_t n;
    int st;
    cr_assert_not_null(p);
    n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(cmd_lobby, connections_beyond_the_descriptor_limit_are_refused)
{
    char out[2048];
    int rc = run("ulimit -Sn 1000 && ulimit -Hn 1000 && '" TABULA_BINARY
                 "' lobby --listen 127.0.0.1:0 --max-conns 5000 2>&1",
                 out, sizeof out);
    cr_assert_eq(rc, 2, "%s", out);
    cr_assert_not_null(strstr(out, "cannot hold 5000 connections: this "
                                   "process may open 1000 descriptors"),
                       "%s", out);
    cr_assert_null(strstr(out, "listening: "), "%s", out);
}

Test(cmd_lobby, the_default_is_lowered_to_fit_the_limit)
{
    char out[2048];
    /* 1000 descriptors less the 64 kept for the lobby's own use. */
    int rc = run("ulimit -Sn 1000 && ulimit -Hn 1000 && (timeout -s INT 1 '"
                 TABULA_BINARY "' lobby --listen 127.0.0.1:0 2>&1; true)",
                 out, sizeof out);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_not_null(strstr(out, "lobby: the descriptor limit is 1000: at "
                                   "most 936 connections"),
                       "%s", out);
    cr_assert_not_null(strstr(out, "listening: 127.0.0.1:"), "%s", out);
}
