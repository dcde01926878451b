/*
 * test_cmd_lobby.c: `tabula lobby`'s own defaults against the descriptor
 * limit (the binary TABULA_BINARY, run under a lowered limit through
 * sh's ulimit): connections asked for beyond what the process may open
 * are refused with a clear message and exit status 2; the default number
 * is lowered to fit, with a note, and the lobby runs. Its receipt key
 * (--key FILE) is kept in its file and printed as `relay key: FP`.
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
    /* Said after the start lines, as a fact, not first as a warning
     * (issue 39's new user). */
    cr_assert_eq(strncmp(out, "listening: 127.0.0.1:", 21), 0, "%s", out);
    const char *said = strstr(out, "lobby: up to 936 connections at once "
                                   "(this process may open 1000 "
                                   "descriptors)\n");
    cr_assert_not_null(said, "%s", out);
    cr_assert_gt(said, strstr(out, "relay key: "), "%s", out);
}

/* The line `relay key: FP` of the output out, into fp (20 bytes). */
static void relay_key_line(const char *out, char fp[20])
{
    const char *p = strstr(out, "relay key: ");
    cr_assert_not_null(p, "%s", out);
    cr_assert_eq(sscanf(p, "relay key: %19s", fp), 1, "%s", out);
    cr_assert_eq(strlen(fp), 19, "%s", out);
}

/* --key FILE: the relay's receipt key is made in FILE (mode 0600) on
 * first use and kept, and its fingerprint is the one `tabula identity`
 * prints for that file; without --key each start has a fresh key. */
Test(cmd_lobby, the_relay_key_is_kept_in_its_file)
{
    char dir[] = "/tmp/tabula-relaykey-XXXXXX", cmd[512], out[2048];
    char first[20], again[20], fresh[20], ident[20];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "(timeout -s INT 1 '%s' lobby --listen 127.0.0.1:0 --key "
             "%s/relay 2>&1; true)",
             TABULA_BINARY, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_assert_not_null(strstr(out, "listening: 127.0.0.1:"), "%s", out);
    relay_key_line(out, first);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    relay_key_line(out, again);
    cr_assert_str_eq(first, again, "the key file's key changed");
    snprintf(cmd, sizeof cmd, "'%s' identity --file %s/relay", TABULA_BINARY,
             dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_assert_eq(sscanf(out, "fingerprint: %19s", ident), 1, "%s", out);
    cr_assert_str_eq(ident, first);
    snprintf(cmd, sizeof cmd,
             "(timeout -s INT 1 '%s' lobby --listen 127.0.0.1:0 2>&1; true)",
             TABULA_BINARY);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    relay_key_line(out, fresh);
    cr_assert_str_neq(fresh, first);
    /* a key file others may read is refused, as ssh refuses one */
    snprintf(cmd, sizeof cmd,
             "chmod 644 %s/relay && '%s' lobby --listen 127.0.0.1:0 --key "
             "%s/relay 2>&1",
             dir, TABULA_BINARY, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "cannot use the key file"), "%s", out);
    cr_assert_null(strstr(out, "listening: "), "%s", out);
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    cr_assert_eq(system(cmd), 0);
}
