/*
 * test_simtest.c: `tabula simtest` keeps its output contract (summary
 * lines, exit status, the rerun line); the simulator itself is tested in
 * tests/sim/test_sim.c.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int command(const char *env, const char *args, char *out, size_t cap)
{
    char path[] = "/tmp/tabula-simtest-outXXXXXX", cmd[1024];
    int fd = mkstemp(path), st;
    cr_assert(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd,
             "env -u TABULA_SIMTEST_PLANT %s %s simtest %s >%s 2>/dev/null",
             env, TABULA_BINARY, args, path);
    st = system(cmd);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(out, 1, cap - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
    remove(path);
    cr_assert(WIFEXITED(st));
    return WEXITSTATUS(st);
}

Test(simtest, command_output_contract)
{
    static char out[1 << 20];
    cr_assert_eq(command("", "laska --matches 3 --seed 5", out, sizeof out), 0,
                 "%s", out);
    cr_assert(strstr(out, "laska: 3 matches, ") != NULL, "%s", out);
    cr_assert(strstr(out, "simtest: 3 matches, ") != NULL, "%s", out);
    cr_assert(strstr(out, " faults, 0 failures\n") != NULL, "%s", out);
    cr_assert_eq(command("TABULA_SIMTEST_PLANT=dup",
                         "laska --matches 3 --seed 4", out, sizeof out),
                 1);
    cr_assert(strstr(out, "simtest: FAILED: game laska, seed 4, match 1") !=
                  NULL,
              "%s", out);
    cr_assert(strstr(out, "rerun: TABULA_SIMTEST_PLANT=dup tabula simtest "
                          "laska --matches 1 --seed 4 --faults all\n") != NULL,
              "%s", out);
    cr_assert_eq(command("", "--faults bogus", out, sizeof out), 2);
}
