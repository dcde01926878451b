/*
 * util.c: small helpers the games share: bounded text building, parse
 * error reasons, the zobrist generator, little-endian integers for
 * canonical encodings, and option-list splitting.
 */
#include <string.h>

#include "core_internal.h"

int core__copy_text(char *buf, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (buf == NULL || cap == 0)
        return TB_E_SPACE;
    if (n >= cap) {
        buf[0] = '\0';
        return TB_E_SPACE;
    }
    memcpy(buf, src, n + 1);
    return 0;
}

void core__text_init(Core_Text *t, char *buf, size_t cap)
{
    t->buf = buf;
    t->cap = cap;
    t->len = 0;
    t->err = (buf == NULL || cap == 0) ? TB_E_SPACE : 0;
    t->said = NULL;
    t->nsaid = NULL;
    t->said_cap = 0;
    if (t->err == 0)
        buf[0] = '\0';
}

void core__text_char(Core_Text *t, char c)
{
    if (t->err != 0)
        return;
    if (t->len + 1 >= t->cap) {
        t->err = TB_E_SPACE;
        return;
    }
    t->buf[t->len++] = c;
    t->buf[t->len] = '\0';
    if (t->said != NULL)
        core__text_record(t, t->len - 1);
}

void core__text_str(Core_Text *t, const char *s)
{
    while (*s != '\0' && t->err == 0)
        core__text_char(t, *s++);
}

void core__text_uint(Core_Text *t, uint64_t v)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);
    while (n > 0)
        core__text_char(t, digits[--n]);
}

int core_read_uint(const char **p, uint64_t max, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (d > max || v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    *p = s;
    return 0;
}

int core_read_uint_all(const char *s, size_t len, uint64_t max,
                        uint64_t *out)
{
    const char *p = s;
    uint64_t v;
    if (len == 0 || core_read_uint(&p, max, &v) != 0 ||
        (size_t)(p - s) != len)
        return -1;
    *out = v;
    return 0;
}

int core__text_end(Core_Text *t)
{
    return t->err;
}

int core__why(char *why, size_t cap, int err, const char *msg)
{
    if (why != NULL && cap > 0) {
        size_t n = strlen(msg);
        if (n >= cap)
            n = cap - 1;
        memcpy(why, msg, n);
        why[n] = '\0';
    }
    return err;
}

uint64_t core__splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void core__put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

void core__put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void core__put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint16_t core__get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t core__get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

uint64_t core__get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

int core__options_each(const char *options,
                       int (*fn)(void *ctx, const char *key, const char *val),
                       void *ctx)
{
    char key[64], val[64];
    const char *p = options;

    if (p == NULL || *p == '\0')
        return 0;
    for (;;) {
        size_t k = 0, v = 0;
        while (*p != '=' && *p != ',' && *p != '\0') {
            if (k + 1 >= sizeof key)
                return TB_E_OPTION;
            key[k++] = *p++;
        }
        key[k] = '\0';
        if (*p != '=' || k == 0)
            return TB_E_OPTION;
        p++;
        while (*p != ',' && *p != '\0') {
            if (v + 1 >= sizeof val)
                return TB_E_OPTION;
            val[v++] = *p++;
        }
        val[v] = '\0';
        if (v == 0)
            return TB_E_OPTION;
        int rc = fn(ctx, key, val);
        if (rc != 0)
            return rc;
        if (*p == '\0')
            return 0;
        p++; /* ',' */
        if (*p == '\0')
            return TB_E_OPTION;
    }
}
