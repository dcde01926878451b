/*
 * sh_util.h: process-level tests' shell (tests that run the tabula
 * binary and a real lobby in a temporary folder): commands run in that
 * folder, its files read back. Each test file that includes it has its
 * own folder, proc_dir (mkdtemp it first).
 */
#ifndef TABULA_TESTS_SH_UTIL_H
#define TABULA_TESTS_SH_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static char proc_dir[256];

/* Run a shell script (printf format) in proc_dir; its exit status, -1
 * when it did not exit. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd, "cd '%s' && {\n", proc_dir);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd + n, sizeof cmd - (size_t)n - 4, fmt, ap);
    va_end(ap);
    strcat(cmd, "\n}"); /* (every line of a script in proc_dir) */
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The file name of proc_dir (its first 64 KiB), "" when there is none;
 * valid until the next call. */
static char *slurp(const char *name)
{
    static char buf[1 << 16];
    char path[512];
    snprintf(path, sizeof path, "%s/%s", proc_dir, name);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

#endif
