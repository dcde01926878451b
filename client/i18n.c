/*
 * i18n.c: the tabula program's language setup (setlocale, the catalogue
 * folder), the end reasons in words for the terminal's screens, numbers
 * grouped for people, and the terminal width of UTF-8 text (a Cyrillic
 * letter is two bytes but one column).
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* wcwidth */
#endif
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "core.h"
#include "i18n.h"

/* The user's LC_NUMERIC conventions, kept before LC_NUMERIC goes back to
 * "C" for the machine lines. */
static char num_sep[8] = "";
static char num_point[8] = ".";
static char num_grouping[8] = "";

static void keep(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= cap)
        return; /* an absurd convention: keep the C one */
    memcpy(dst, src ? src : "", n + 1);
}

static int env_set(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0';
}

#ifdef TABULA_NLS
/* The catalogue folder: the environment's; the build tree's when this
 * program runs from the build folder; else share/locale beside the
 * installed program's bin/ (so `cmake --install --prefix P` works), else
 * the configured prefix's. */
static const char *locale_dir(void)
{
    static char dir[4096 + 32];
    const char *env = getenv("TABULA_LOCALEDIR");
    if (env != NULL && env[0] != '\0')
        return env;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
#if defined(TABULA_BUILD_DIR) && defined(TABULA_BUILD_LOCALEDIR)
        size_t blen = strlen(TABULA_BUILD_DIR);
        if ((size_t)n > blen && strncmp(exe, TABULA_BUILD_DIR, blen) == 0 &&
            exe[blen] == '/' && strchr(exe + blen + 1, '/') == NULL)
            return TABULA_BUILD_LOCALEDIR;
#endif
        char *slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            snprintf(dir, sizeof dir, "%s/../share/locale", exe);
            if (access(dir, F_OK) == 0)
                return dir;
        }
    }
#ifdef TABULA_INSTALL_LOCALEDIR
    return TABULA_INSTALL_LOCALEDIR;
#else
    return NULL;
#endif
}
#endif

/* The locale the environment names for messages (LC_ALL, LC_MESSAGES,
 * LANG, the first set), or NULL. */
static const char *named_locale(void)
{
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (env_set(vars[i]))
            return getenv(vars[i]);
    return NULL;
}

void cli_i18n_init(void)
{
    if (setlocale(LC_ALL, "") == NULL) {
        /* A locale that is not installed (no locale-gen, as in a bare
         * container): glibc stays in "C". Its language still chooses the
         * messages: "ru_UA.UTF-8" becomes LANGUAGE=ru_UA (gettext falls
         * back to ru), the letters C.UTF-8's. */
        const char *want = named_locale();
        if (want != NULL && !env_set("LANGUAGE") && strcmp(want, "C") != 0 &&
            strcmp(want, "POSIX") != 0 && strncmp(want, "C.", 2) != 0) {
            char lang[32];
            size_t n = strcspn(want, ".@");
            if (n > 0 && n < sizeof lang) {
                memcpy(lang, want, n);
                lang[n] = '\0';
                setenv("LANGUAGE", lang, 1);
            }
        }
        if (env_set("LANGUAGE") && setlocale(LC_CTYPE, "C.UTF-8") != NULL)
            setlocale(LC_MESSAGES, "C.UTF-8");
    }
    /* LANGUAGE alone (no LC_ALL, LC_MESSAGES, LANG): glibc would ignore it
     * in the "C" locale; C.UTF-8 (built into glibc) honours it and lets
     * the translations keep their letters. An explicit LC_ALL=C still
     * means English. */
    if (env_set("LANGUAGE") && !env_set("LC_ALL") &&
        !env_set("LC_MESSAGES") && !env_set("LANG")) {
        if (setlocale(LC_CTYPE, "C.UTF-8") != NULL)
            setlocale(LC_MESSAGES, "C.UTF-8");
    }
    const struct lconv *lc = localeconv();
    keep(num_sep, sizeof num_sep, lc->thousands_sep);
    keep(num_point, sizeof num_point, lc->decimal_point);
    keep(num_grouping, sizeof num_grouping, lc->grouping);
    setlocale(LC_NUMERIC, "C");
#ifdef TABULA_NLS
    const char *dir = locale_dir();
    if (dir != NULL)
        bindtextdomain("tabula", dir);
    textdomain("tabula");
#endif
}

char *cli_group_digits(uint64_t n, const char *sep, const char *grouping,
                       char *out, size_t cap)
{
    char digits[24], rev[96];
    size_t nd = 0, nr = 0, seplen = strlen(sep);
    do {
        digits[nd++] = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0);
    /* digits[] is least significant first; build the text backwards. */
    const char *g = grouping;
    int size = (*g > 0 && *g != CHAR_MAX) ? *g : 0, in_group = 0;
    for (size_t i = 0; i < nd; i++) {
        if (size > 0 && in_group == size && seplen > 0 &&
            nr + seplen < sizeof rev) {
            for (size_t k = seplen; k > 0; k--)
                rev[nr++] = sep[k - 1];
            in_group = 0;
            if (g[1] != '\0') {
                g++;
                size = (*g > 0 && *g != CHAR_MAX) ? *g : 0;
            }
        }
        rev[nr++] = digits[i];
        in_group++;
    }
    size_t k = 0;
    for (; k < nr && k + 1 < cap; k++)
        out[k] = rev[nr - 1 - k];
    if (cap > 0)
        out[k] = '\0';
    return out;
}

static char *rotating(void)
{
    static char buf[4][64];
    static unsigned next;
    return buf[next++ % 4];
}

const char *cli_num(uint64_t n)
{
    return cli_group_digits(n, num_sep, num_grouping, rotating(), 64);
}

const char *cli_decimal(double x, int places)
{
    char *out = rotating();
    int neg = x < 0;
    if (neg)
        x = -x;
    if (places < 0)
        places = 0;
    if (places > 9)
        places = 9;
    uint64_t scale = 1;
    for (int i = 0; i < places; i++)
        scale *= 10;
    if (!(x < 1e18 / (double)scale)) { /* too big (or NaN): C's own text */
        snprintf(out, 64, "%.*f", places, neg ? -x : x);
        return out;
    }
    uint64_t v = (uint64_t)(x * (double)scale + 0.5);
    char whole[48];
    cli_group_digits(v / scale, num_sep, num_grouping, whole, sizeof whole);
    int k = places == 0
                ? snprintf(out, 64, "%s%s", neg && v ? "-" : "", whole)
                : snprintf(out, 64, "%s%s%s%0*llu", neg && v ? "-" : "", whole,
                           num_point, places, (unsigned long long)(v % scale));
    if (k < 0)
        out[0] = '\0';
    return out;
}

int cli_width(const char *s, size_t n)
{
    mbstate_t st;
    int cols = 0;
    size_t i = 0;
    memset(&st, 0, sizeof st);
    while (i < n && s[i] != '\0') {
        wchar_t wc;
        size_t k = mbrtowc(&wc, s + i, n - i, &st);
        if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
            memset(&st, 0, sizeof st);
            cols++;
            i++;
            continue;
        }
        int w = wcwidth(wc);
        cols += w < 0 ? 1 : w;
        i += k;
    }
    return cols;
}

size_t cli_fit(const char *s, int cols)
{
    mbstate_t st;
    int used = 0;
    size_t i = 0, len = strlen(s);
    memset(&st, 0, sizeof st);
    while (i < len) {
        wchar_t wc;
        size_t k = mbrtowc(&wc, s + i, len - i, &st);
        int w = 1;
        if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
            memset(&st, 0, sizeof st);
            k = 1;
        } else {
            w = wcwidth(wc);
            if (w < 0)
                w = 1;
        }
        if (used + w > cols)
            break;
        used += w;
        i += k;
    }
    return i;
}
