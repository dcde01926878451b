/*
 * paths.c: the match logs of a folder as `tabula ratings` takes them
 * (proto.h, "log folders"): every *.log file's path, in byte order of the
 * names, so every program that rates a folder (client/cmd_ratings.c, the
 * cross-build's tests/golden/ratings_check.c) reads the logs in one order
 * on every build, WebAssembly's included.
 */
#define _POSIX_C_SOURCE 200809L /* opendir, readdir */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

int proto_paths_add(Proto_Paths *p, const char *dir, const char *name)
{
    size_t len = (dir != NULL ? strlen(dir) + 1 : 0) + strlen(name) + 1;
    char *s;
    if (p->n == p->cap) { /* (the cap doubles, and a failure keeps it) */
        size_t cap = p->cap != 0 ? 2 * p->cap : 64;
        char **more = realloc(p->at, cap * sizeof *more);
        if (more == NULL)
            return TB_E_NOMEM;
        p->at = more;
        p->cap = cap;
    }
    if ((s = malloc(len)) == NULL)
        return TB_E_NOMEM;
    if (dir != NULL)
        snprintf(s, len, "%s/%s", dir, name);
    else
        snprintf(s, len, "%s", name);
    p->at[p->n++] = s;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int proto_paths_logs(Proto_Paths *p, const char *dir)
{
    size_t first = p->n;
    struct dirent *e;
    DIR *d = opendir(dir);
    int rc = 0;
    if (d == NULL)
        return TB_E_IO;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".log") == 0)
            rc = proto_paths_add(p, dir, e->d_name);
    }
    closedir(d);
    if (p->n - first > 1)
        qsort(p->at + first, p->n - first, sizeof *p->at, by_name);
    return rc;
}

void proto_paths_free(Proto_Paths *p)
{
    if (p == NULL)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->at[i]);
    free(p->at);
    p->at = NULL;
    p->n = p->cap = 0;
}
