/*
 * test_paths.c: a folder's match logs as `tabula ratings` and the
 * cross-build's ratings_check take them (proto_paths_logs): only names
 * ending in ".log" (and longer than that), sorted by byte order whatever
 * order the folder gives, after the paths already listed; a missing
 * folder is TB_E_IO and adds nothing.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "proto.h"

static char dir[64];

static void touch(const char *name)
{
    char path[128];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cr_assert_not_null(f = fopen(path, "w"));
    fclose(f);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tabula-paths-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static const char *const made[] = {"match-2.log", "b.txt",        ".log",
                                   "Z.log",       "match-10.log", "log",
                                   "a.log.bak",   "match-1.log"};

static void teardown(void)
{
    char path[128];
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[i]);
        unlink(path);
    }
    rmdir(dir);
}

TestSuite(paths, .init = setup, .fini = teardown);

Test(paths, logs_sorted_after_those_listed)
{
    static const char *const want[] = {"Z.log", "match-1.log", "match-10.log",
                                       "match-2.log"};
    Proto_Paths p = {NULL, 0, 0};
    char path[128];
    for (size_t i = 0; i < sizeof made / sizeof *made; i++)
        touch(made[i]);
    cr_assert_eq(proto_paths_add(&p, NULL, "first"), 0);
    cr_assert_eq(proto_paths_logs(&p, dir), 0);
    cr_assert_eq(p.n, 5);
    cr_assert_str_eq(p.at[0], "first");
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, want[i]);
        cr_assert_str_eq(p.at[1 + i], path);
    }
    proto_paths_free(&p);
    cr_assert_eq(p.n, 0);
    cr_assert_null(p.at);
    proto_paths_free(NULL);
}

Test(paths, missing_folder)
{
    Proto_Paths p = {NULL, 0, 0};
    char path[128];
    snprintf(path, sizeof path, "%s/none", dir);
    cr_assert_eq(proto_paths_logs(&p, path), TB_E_IO);
    cr_assert_eq(p.n, 0);
    proto_paths_free(&p);
}
