/*
 * dir_sh.h: shell scripts run in a test's own folder, and its files read
 * back, for the tournament director's process tests
 * (test_cmd_director.c, test_cmd_director_play.c). Header-only, static
 * functions; the includer has <criterion/criterion.h>, <stdarg.h>,
 * <stdio.h>, <string.h>, <sys/wait.h> and <unistd.h>. Also used by
 * test_cmd_archive.c.
 */
#ifndef TABULA_TEST_DIR_SH_H
#define TABULA_TEST_DIR_SH_H

/* The test's folder (mkdtemp's). */
static char dir[256];

/* Run a shell command in dir; its exit status. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd, "cd '%s' && {\n", dir);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd + n, sizeof cmd - (size_t)n - 4, fmt, ap);
    va_end(ap);
    strcat(cmd, "\n}"); /* (every line of a script in dir) */
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The file name of dir, whole (up to 256 KiB), in a buffer the next call
 * reuses. */
static char *slurp(const char *name)
{
    static char buf[1 << 18];
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

/* Wait up to 30 s for text in file name (a process's output); fails the
 * test naming both when it never comes. */
static inline void wait_for(const char *name, const char *text)
{
    for (int k = 0; k < 600 && strstr(slurp(name), text) == NULL; k++)
        usleep(50000);
    cr_assert_not_null(strstr(slurp(name), text), "%s: no '%s' in: %s", name,
                       text, slurp(name));
}

/* The value after word on a line of file name (waited for), into out. */
static inline void line_value(const char *name, const char *word, char *out,
                              size_t cap)
{
    wait_for(name, word);
    const char *p = strstr(slurp(name), word) + strlen(word);
    size_t n = strcspn(p, "\n");
    cr_assert_lt(n, cap);
    memcpy(out, p, n);
    out[n] = '\0';
}

#endif
