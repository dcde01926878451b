/*
 * cli_run.h: run the real tabula binary with shell-quoted arguments and
 * collect its exit status, standard output and standard error. Included
 * by test_cli.c and test_engine_match.c.
 */
#ifndef TABULA_TEST_CLI_RUN_H
#define TABULA_TEST_CLI_RUN_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

typedef struct Run {
    int status;
    char out[65536];
    char err[65536];
} Run;

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;
    if (f != NULL) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
}

/* Run `printf INPUT | tabula ARGS` (both already shell-quoted; INPUT may
 * be NULL for no input) into *r. */
static void run_into(Run *r, const char *input, const char *args)
{
    char out[] = "/tmp/tabula-cli-outXXXXXX", err[] = "/tmp/tabula-cli-errXXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err);
    cr_assert(fo >= 0 && fe >= 0);
    char cmd[16384];
    if (input == NULL)
        snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s </dev/null", TABULA_BINARY,
                 args, out, err);
    else
        snprintf(cmd, sizeof cmd, "printf '%s' | %s %s >%s 2>%s", input,
                 TABULA_BINARY, args, out, err);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "'%s' did not exit normally", args);
    r->status = WEXITSTATUS(st);
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
    remove(out);
    remove(err);
}

#endif /* TABULA_TEST_CLI_RUN_H */
