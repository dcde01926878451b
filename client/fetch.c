/*
 * fetch.c: a published file from a folder or a URL (fetch.h), over HTTP
 * with libcurl's easy interface (one blocking transfer: the commands that
 * read a source do nothing else meanwhile).
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch.h"
#include "i18n.h"
#include "tb_error.h"

#define FETCH_NAME_MAX 1024
#define FETCH_TIMEOUT_S 60L

int fetch_is_url(const char *source)
{
    return strncmp(source, "http://", 7) == 0 ||
           strncmp(source, "https://", 8) == 0;
}

typedef struct Fetch_Buf {
    uint8_t *p;
    size_t len, cap, max;
    int over;
} Fetch_Buf;

static int buf_add(Fetch_Buf *b, const void *data, size_t n)
{
    if (n > b->max - b->len) {
        b->over = 1;
        return TB_E_LIMIT;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (p == NULL)
            return TB_E_NOMEM;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

static size_t on_body(char *data, size_t size, size_t n, void *user)
{
    /* (size is always 1: libcurl's documentation) */
    return buf_add(user, data, size * n) == 0 ? size * n : 0;
}

static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > FETCH_NAME_MAX || name[0] == '/')
        return 0;
    for (const char *p = name; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == name || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
            return 0;
    return 1;
}

static int get_url(const char *url, Fetch_Buf *b, char *why, size_t why_cap)
{
    static int ready;
    char err[CURL_ERROR_SIZE] = "";
    long status = 0;
    CURLcode cc;
    if (!ready) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
            return TB_E_NOMEM;
        ready = 1;
    }
    CURL *c = curl_easy_init();
    if (c == NULL)
        return TB_E_NOMEM;
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, b);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, FETCH_TIMEOUT_S);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    cc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(c);
    if (b->over) {
        snprintf(why, why_cap, _("%s is over %zu bytes"), url, b->max);
        return TB_E_LIMIT;
    }
    if (cc != CURLE_OK) {
        snprintf(why, why_cap, _("cannot read %s: %s"), url,
                 err[0] != '\0' ? err : curl_easy_strerror(cc));
        return cc == CURLE_OUT_OF_MEMORY ? TB_E_NOMEM : TB_E_IO;
    }
    if (status == 404) {
        snprintf(why, why_cap, _("%s: no such file (HTTP 404)"), url);
        return TB_E_NOFILE;
    }
    if (status != 200) {
        snprintf(why, why_cap, _("cannot read %s: HTTP status %ld"), url,
                 status);
        return TB_E_IO;
    }
    return 0;
}

static int get_file(const char *path, Fetch_Buf *b, char *why, size_t why_cap)
{
    uint8_t chunk[65536];
    size_t n;
    int rc = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        int e = errno;
        snprintf(why, why_cap, _("cannot read %s: %s"), path, strerror(e));
        return e == ENOENT ? TB_E_NOFILE : TB_E_IO;
    }
    while (rc == 0 && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rc = buf_add(b, chunk, n);
    if (rc == 0 && ferror(f)) {
        snprintf(why, why_cap, _("cannot read %s: %s"), path,
                 strerror(errno));
        rc = TB_E_IO;
    }
    fclose(f);
    if (rc == TB_E_LIMIT)
        snprintf(why, why_cap, _("%s is over %zu bytes"), path, b->max);
    return rc;
}

int fetch_get(const char *source, const char *name, size_t max, uint8_t **out,
              size_t *len, char *why, size_t why_cap)
{
    Fetch_Buf b = {NULL, 0, 0, max, 0};
    char where[FETCH_NAME_MAX * 2 + 16];
    size_t sl = strlen(source);
    int rc;
    *out = NULL;
    *len = 0;
    if (why_cap > 0)
        why[0] = '\0';
    if (!name_ok(name) || sl > FETCH_NAME_MAX) {
        snprintf(why, why_cap, _("bad file name '%s'"), name);
        return TB_E_ARG;
    }
    snprintf(where, sizeof where, "%s%s%s", source,
             sl > 0 && source[sl - 1] == '/' ? "" : "/", name);
    rc = buf_add(&b, "", 0); /* an empty file is "" too */
    if (rc == 0)
        rc = fetch_is_url(source) ? get_url(where, &b, why, why_cap)
                                  : get_file(where, &b, why, why_cap);
    if (rc != 0) {
        free(b.p);
        return rc;
    }
    *out = b.p;
    *len = b.len;
    return 0;
}
