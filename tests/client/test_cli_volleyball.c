/*
 * test_cli_volleyball.c: Chess volleyball through the tabula program, as
 * the acceptance states it: `tabula perft volleyball 2` prints 3
 * and 15; `tabula moves` lists the spec's actions for a start prefix and
 * a position string; bad input exits 2. Runs the real binary.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Run `tabula ARGS` (shell-quoted); stdout into out, the exit status. */
static int tabula(const char *args, char *out, size_t cap)
{
    char path[] = "/tmp/tabula-vb-outXXXXXX", cmd[4096];
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>/dev/null </dev/null", TABULA_BINARY,
             args, path);
    int st = system(cmd);
    cr_assert(WIFEXITED(st));
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    fclose(f);
    remove(path);
    return WEXITSTATUS(st);
}

Test(cli_volleyball, perft_two_gives_three_and_fifteen)
{
    char out[4096];
    cr_assert_eq(tabula("perft volleyball 2", out, sizeof out), 0);
    cr_assert(strncmp(out, "perft 1 3\nperft 2 15\ntotal nodes 18 ", 36) == 0,
              "%s", out);
}

Test(cli_volleyball, moves_after_a_serve_and_from_a_position)
{
    char out[4096];
    cr_assert_eq(tabula("moves volleyball 'S Bc3-d2>g5'", out, sizeof out), 0);
    cr_assert_str_eq(out, "T Qd8-g5>f6\nT Qd8-g5>e7\nT Qd8-g5>d8\n");
    cr_assert_eq(tabula("moves volleyball --position 'Ne3/Qd8 ball=a3' "
                        "'P Ne3-c4'",
                        out, sizeof out),
                 0);
    cr_assert_str_eq(out, "S Nc4-a3>b5\n");
}

Test(cli_volleyball, bad_input_exits_two)
{
    char out[4096];
    cr_assert_eq(
        tabula("moves volleyball --position 'Qd5/Qa8'", out, sizeof out), 2);
    cr_assert_eq(tabula("moves volleyball 'S Bc3-d2>h6'", out, sizeof out), 2);
    cr_assert_eq(
        tabula("perft volleyball 2 --options chess=perhaps", out, sizeof out),
        2);
}
