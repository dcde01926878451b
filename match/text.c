/*
 * text.c: the session's notes are built here by appending strings and
 * numbers to a bounded buffer, since match/ does without stdio (it is
 * compiled to WebAssembly too). Everything truncates silently at the
 * buffer's end and keeps it NUL-terminated.
 */
#include <string.h>

#include "match_internal.h"

void match__text_init(Match_Text *t, char *buf, size_t cap)
{
    t->buf = buf;
    t->cap = cap;
    t->len = 0;
    if (cap > 0)
        buf[0] = '\0';
}

static void put_char(Match_Text *t, char c)
{
    if (t->cap == 0 || t->len + 1 >= t->cap)
        return;
    t->buf[t->len++] = c;
    t->buf[t->len] = '\0';
}

void match__put(Match_Text *t, const char *s)
{
    while (*s != '\0')
        put_char(t, *s++);
}

void match__put_pad(Match_Text *t, const char *s, size_t width, size_t max)
{
    size_t n = 0;
    while (s[n] != '\0' && n < max)
        put_char(t, s[n++]);
    for (; n < width; n++)
        put_char(t, ' ');
}

static size_t digits(uint64_t v, char out[24])
{
    char rev[24];
    size_t n = 0;
    do {
        rev[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (size_t i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    out[n] = '\0';
    return n;
}

void match__put_u(Match_Text *t, uint64_t v)
{
    char d[24];
    digits(v, d);
    match__put(t, d);
}

void match__put_u_pad(Match_Text *t, uint64_t v, size_t width)
{
    char d[24];
    for (size_t n = digits(v, d); n < width; n++)
        put_char(t, ' ');
    match__put(t, d);
}

void match__put_i(Match_Text *t, int64_t v)
{
    if (v < 0) {
        put_char(t, '-');
        match__put_u(t, (uint64_t)0 - (uint64_t)v);
    } else {
        match__put_u(t, (uint64_t)v);
    }
}

void match__put_ms(Match_Text *t, int64_t ms)
{
    char d[24];
    uint64_t frac;
    if (ms < 0) {
        put_char(t, '-');
        ms = -ms;
    }
    match__put_u(t, (uint64_t)ms / 1000);
    put_char(t, '.');
    frac = (uint64_t)ms % 1000;
    digits(frac, d);
    for (size_t n = strlen(d); n < 3; n++)
        put_char(t, '0');
    match__put(t, d);
}

void match__put_token(Match_Text *t, const char *s)
{
    size_t n = 0, len = strlen(s);
    size_t shown = len > 60 ? 57 : len;
    for (; n < shown; n++) {
        unsigned char c = (unsigned char)s[n];
        put_char(t, c < 0x20 || c >= 0x7f ? '?' : (char)c);
    }
    if (len > 60)
        match__put(t, "...");
}

Match_Text match__note(Match *s, int warning)
{
    Match_Text t;
    Match_Out *o = match__push(s, warning ? MATCH_OUT_WARN : MATCH_OUT_NOTE);
    if (o == NULL)
        match__text_init(&t, NULL, 0);
    else
        match__text_init(&t, o->text, sizeof o->text);
    return t;
}

const char *match__side_word(int side)
{
    return side == CORE_WHITE ? "white" : side == CORE_BLACK ? "black" : "?";
}

char *match__u(char buf[21], uint64_t v)
{
    Match_Text t;
    match__text_init(&t, buf, 21);
    match__put_u(&t, v);
    return buf;
}

char *match__ms(char buf[24], int64_t ms)
{
    Match_Text t;
    match__text_init(&t, buf, 24);
    match__put_ms(&t, ms);
    return buf;
}

char *match__secs(char buf[24], int64_t ms)
{
    if (ms % 1000 != 0)
        return match__ms(buf, ms);
    Match_Text t;
    match__text_init(&t, buf, 24);
    if (ms < 0) {
        match__put(&t, "-");
        ms = -ms;
    }
    match__put_u(&t, (uint64_t)ms / 1000);
    return buf;
}
