/*
 * catalogue.c: a message catalogue handed in as bytes, for the build
 * that has no GNU gettext (the page's WebAssembly module): i18n.h maps
 * _() and ngettext() here when TABULA_CATALOGUE is defined, so the same
 * sources that the terminal translates through gettext (core_text.c's
 * pattern list, game_help.c's help) speak the page's language. The page
 * hands in the msgid/msgstr pairs of its locale/LL.json and its plural
 * rule as a table (the layout is in i18n.h); they are copied, checked and
 * sorted once, then looked up by binary search. libc only.
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tb_error.h"

/* One entry: its msgid and its forms (one, or the plural forms). */
typedef struct Entry {
    const char *id;
    const char *form[CLI_CATALOGUE_MAX_FORMS];
    int nforms;
} Entry;

static char *blob;     /* the copy every pointer below points into */
static Entry *entries; /* sorted by id */
static size_t nentries;
static unsigned char plural[CLI_CATALOGUE_PLURALS];

static int by_id(const void *a, const void *b)
{
    return strcmp(((const Entry *)a)->id, ((const Entry *)b)->id);
}

void cli_catalogue_clear(void)
{
    free(entries);
    free(blob);
    entries = NULL;
    blob = NULL;
    nentries = 0;
}

int cli_catalogue_set(const unsigned char *bytes, size_t len)
{
    if (bytes == NULL && len > 0)
        return TB_E_ARG;
    if (len > CLI_CATALOGUE_MAX_BYTES)
        return TB_E_LIMIT;
    if (len < CLI_CATALOGUE_PLURALS)
        return TB_E_TRUNCATED;
    for (size_t i = 0; i < CLI_CATALOGUE_PLURALS; i++)
        if (bytes[i] >= CLI_CATALOGUE_MAX_FORMS)
            return TB_E_FORMAT;
    /* Count the entries first: every entry is at least three NULs. */
    const unsigned char *p = bytes + CLI_CATALOGUE_PLURALS;
    const unsigned char *end = bytes + len;
    size_t count = 0;
    if (p < end && end[-1] != '\0')
        return TB_E_TRUNCATED;
    for (const unsigned char *q = p; q < end;) {
        size_t idlen = strlen((const char *)q);
        if (idlen == 0)
            return TB_E_FORMAT;
        q += idlen + 1;
        int forms = 0;
        while (q < end && *q != '\0') {
            if (++forms > CLI_CATALOGUE_MAX_FORMS)
                return TB_E_FORMAT;
            q += strlen((const char *)q) + 1;
        }
        if (q >= end)
            return TB_E_TRUNCATED;
        if (forms == 0)
            return TB_E_FORMAT;
        q++; /* the empty string that ends the forms */
        count++;
    }
    char *copy = malloc(len - CLI_CATALOGUE_PLURALS + 1);
    Entry *list = calloc(count > 0 ? count : 1, sizeof *list);
    if (copy == NULL || list == NULL) {
        free(copy);
        free(list);
        return TB_E_NOMEM;
    }
    memcpy(copy, p, (size_t)(end - p));
    copy[end - p] = '\0';
    size_t k = 0;
    for (char *q = copy; q < copy + (end - p); k++) {
        list[k].id = q;
        q += strlen(q) + 1;
        while (*q != '\0') {
            list[k].form[list[k].nforms++] = q;
            q += strlen(q) + 1;
        }
        q++;
    }
    qsort(list, count, sizeof *list, by_id);
    cli_catalogue_clear();
    memcpy(plural, bytes, sizeof plural);
    blob = copy;
    entries = list;
    nentries = count;
    return 0;
}

static const Entry *find(const char *id)
{
    size_t lo = 0, hi = nentries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(id, entries[mid].id);
        if (c == 0)
            return &entries[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

const char *cli_catalogue_get(const char *msgid)
{
    const Entry *e = find(msgid);
    return e != NULL && e->nforms == 1 ? e->form[0] : msgid;
}

const char *cli_catalogue_nget(const char *one, const char *many,
                               unsigned long n)
{
    const Entry *e = find(one);
    if (e == NULL || e->nforms < 2)
        return n == 1 ? one : many;
    unsigned long at =
        n < CLI_CATALOGUE_PLURALS
            ? n
            : CLI_CATALOGUE_PLURALS / 2 + n % (CLI_CATALOGUE_PLURALS / 2);
    int form = plural[at];
    return form < e->nforms ? e->form[form] : e->form[e->nforms - 1];
}
