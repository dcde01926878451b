/*
 * name.c: players' display names (issue 37). One checker decides every
 * name, typed, stored or received (proto_name_check_at: UTF-8, a small
 * repertoire of letters, no controls, bidi or invisible characters, no
 * combining marks, spaces trimmed and folded, 1..24 code points); the name
 * record carries a name signed by its player's key; one formatter shows a
 * name with its key's fingerprint; and a file beside the identity keeps
 * the player's own name. The rules are in proto.h and docs/protocol.md.
 */
#include <stdio.h>
#include <string.h>

#include "proto_internal.h"

#define NAME_FORMAT_LINE "tabula-name 1\n"
/* The signature's domain separation: no other signed bytes of Tabula
 * start so (envelopes sign a msgpack array, receipts their own label). */
static const char name_domain[] = "tabula name 1"; /* and its NUL */

/* Offsets of the record's fields. */
enum {
    REC_VERSION = 0,
    REC_KEY = 1,
    REC_TIME = REC_KEY + PROTO_KEY_BYTES,
    REC_LEN = REC_TIME + 8,
    REC_NAME = REC_LEN + 1
};

typedef struct Range {
    uint32_t lo, hi;
} Range;

#define IN(cp, table) in_ranges(cp, table, sizeof table / sizeof table[0])

static int in_ranges(uint32_t cp, const Range *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cp >= r[i].lo && cp <= r[i].hi)
            return 1;
    return 0;
}

/* Unicode's bidirectional formatting characters: ALM, LRM, RLM, the
 * embeddings and overrides LRE RLE PDF LRO RLO, the isolates LRI RLI FSI
 * PDI. */
static const Range bidi[] = {
    {0x061C, 0x061C}, {0x200E, 0x200F}, {0x202A, 0x202E}, {0x2066, 0x2069}};

/* Characters that draw nothing (Default_Ignorable_Code_Point's formats
 * and fillers, variation selectors, tags) but are not bidi controls. */
static const Range invisible[] = {
    {0x00AD, 0x00AD},   {0x034F, 0x034F},   {0x115F, 0x1160},  {0x17B4, 0x17B5},
    {0x180B, 0x180F},   {0x200B, 0x200D},   {0x2060, 0x2065},  {0x3164, 0x3164},
    {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},  {0xFFF9, 0xFFFB},
    {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF}};

/* The combining blocks (a mark elsewhere is refused as outside the
 * repertoire: the rule's name is then less exact, the refusal the same). */
static const Range combining[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},
    {0x20D0, 0x20FF}, {0x3099, 0x309A}, {0xFE20, 0xFE2F}};

/* The repertoire beyond ASCII: precomposed letters only. Latin-1's
 * letters without the signs U+00D7 and U+00F7; Latin Extended-A whole;
 * Cyrillic's letters without the sign U+0482 and the marks
 * U+0483..U+0489. */
static const Range letters[] = {{0x00C0, 0x00D6},
                                {0x00D8, 0x00F6},
                                {0x00F8, 0x017F},
                                {0x0400, 0x0481},
                                {0x048A, 0x04FF}};

/* The rule cp breaks, PROTO_NAME_OK for a character of the repertoire.
 * (Space is the caller's: it is trimmed and folded, not refused.) */
static int char_rule(uint32_t cp)
{
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
        return PROTO_NAME_CONTROL;
    if (IN(cp, bidi))
        return PROTO_NAME_BIDI;
    if (IN(cp, invisible))
        return PROTO_NAME_INVISIBLE;
    if (IN(cp, combining))
        return PROTO_NAME_COMBINING;
    if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
        (cp >= '0' && cp <= '9') || cp == '-' || cp == '_' || cp == '.' ||
        cp == '\'')
        return PROTO_NAME_OK;
    return IN(cp, letters) ? PROTO_NAME_OK : PROTO_NAME_REPERTOIRE;
}

static int is_noncharacter(uint32_t cp)
{
    return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFEu) == 0xFFFEu;
}

static int rule_error(int rule)
{
    switch (rule) {
    case PROTO_NAME_OK:
        return 0;
    case PROTO_NAME_UTF8:
        return TB_E_FORMAT;
    case PROTO_NAME_LONG:
        return TB_E_LIMIT;
    case PROTO_NAME_EMPTY:
        return TB_E_NAME_EMPTY;
    default:
        return TB_E_NAME_CHAR;
    }
}

int proto_name_check_at(const char *text, size_t len, char *out, size_t cap,
                        Proto_Name_Fault *fault)
{
    const unsigned char *u = (const unsigned char *)text;
    Proto_Name_Fault f = {PROTO_NAME_OK, 0, 0, 0, 0};
    char buf[PROTO_DISPLAY_NAME_MAX];
    size_t i = 0, n = 0;           /* input read, canonical bytes written */
    uint32_t chars = 0, index = 0; /* canonical and input code points */
    int space = 0;                 /* a space is due before the next */

    if (cap > 0 && out != NULL)
        out[0] = '\0';
    if (text == NULL || out == NULL)
        return TB_E_ARG;
    while (i < len && f.rule == PROTO_NAME_OK) {
        uint32_t cp = 0;
        size_t k = proto__utf8_decode(u + i, len - i, &cp);

        f.offset = i;
        f.index = index;
        f.has_cp = 0;
        if (k == 0) {
            f.rule = PROTO_NAME_UTF8;
            f.cp = u[i]; /* a byte, has_cp 0 */
            break;
        }
        f.cp = cp;
        f.has_cp = 1;
        if (is_noncharacter(cp)) {
            f.rule = PROTO_NAME_UTF8;
            break;
        }
        i += k;
        index++;
        if (cp == ' ') {
            space = chars > 0;
            continue;
        }
        f.rule = char_rule(cp);
        if (f.rule != PROTO_NAME_OK)
            break;
        /* (the space and the character: 1 + at most 2 bytes) */
        if (chars + (uint32_t)space + 1 > PROTO_DISPLAY_NAME_CHARS ||
            n + (size_t)space + k > PROTO_DISPLAY_NAME_MAX) {
            f.rule = PROTO_NAME_LONG;
            break;
        }
        if (space)
            buf[n++] = ' ';
        chars += (uint32_t)space + 1;
        space = 0;
        memcpy(buf + n, u + i - k, k);
        n += k;
    }
    if (f.rule == PROTO_NAME_OK && chars == 0) {
        f.rule = PROTO_NAME_EMPTY;
        f.offset = len;
        f.index = index;
        f.cp = 0;
        f.has_cp = 0;
    }
    if (fault != NULL)
        *fault = f;
    if (f.rule != PROTO_NAME_OK)
        return rule_error(f.rule);
    if (n + 1 > cap)
        return TB_E_SPACE;
    memcpy(out, buf, n);
    out[n] = '\0';
    return 0;
}

int proto_name_check(const char *text, size_t len, char *out, size_t cap)
{
    return proto_name_check_at(text, len, out, cap, NULL);
}

/* The bytes a record's signature covers: the domain, then rec[0..body). */
static int name_signed_bytes(const uint8_t *rec, size_t body, uint8_t *msg,
                             size_t cap, size_t *len)
{
    if (sizeof name_domain + body > cap)
        return TB_E_SPACE;
    memcpy(msg, name_domain, sizeof name_domain);
    memcpy(msg + sizeof name_domain, rec, body);
    *len = sizeof name_domain + body;
    return 0;
}

int proto_name_sign(const Proto_Identity *id, const char *name,
                    uint64_t time_ms, uint8_t *out, size_t cap, size_t *len)
{
    char canon[PROTO_DISPLAY_NAME_MAX + 1];
    uint8_t msg[sizeof name_domain + PROTO_NAME_RECORD_MAX];
    size_t n, body, mlen = 0;
    int rc;

    if (len != NULL)
        *len = 0;
    if (id == NULL || name == NULL || out == NULL || len == NULL)
        return TB_E_ARG;
    rc = proto_name_check(name, strlen(name), canon, sizeof canon);
    if (rc != 0)
        return rc;
    n = strlen(canon);
    body = REC_NAME + n;
    if (body + PROTO_SIG_BYTES > cap)
        return TB_E_SPACE;
    out[REC_VERSION] = PROTO_NAME_VERSION;
    memcpy(out + REC_KEY, id->pk, PROTO_KEY_BYTES);
    for (int b = 0; b < 8; b++)
        out[REC_TIME + b] = (uint8_t)(time_ms >> (56 - 8 * b));
    out[REC_LEN] = (uint8_t)n;
    memcpy(out + REC_NAME, canon, n);
    rc = name_signed_bytes(out, body, msg, sizeof msg, &mlen);
    if (rc == 0)
        rc = proto__sign(msg, mlen, id->sk, out + body);
    if (rc == 0)
        *len = body + PROTO_SIG_BYTES;
    return rc;
}

int proto_name_verify(const uint8_t *rec, size_t len, Proto_Name *out)
{
    uint8_t msg[sizeof name_domain + PROTO_NAME_RECORD_MAX];
    char canon[PROTO_DISPLAY_NAME_MAX + 1];
    size_t n, mlen = 0;
    int rc;

    if (out == NULL)
        return TB_E_ARG;
    memset(out, 0, sizeof *out);
    if (rec == NULL)
        return TB_E_ARG;
    if (len < 1)
        return TB_E_FORMAT;
    if (rec[REC_VERSION] != PROTO_NAME_VERSION)
        return TB_E_VERSION;
    if (len < PROTO_NAME_RECORD_MIN || len > PROTO_NAME_RECORD_MAX)
        return TB_E_FORMAT;
    n = rec[REC_LEN];
    if (n == 0 || n > PROTO_DISPLAY_NAME_MAX ||
        len != REC_NAME + n + PROTO_SIG_BYTES)
        return TB_E_FORMAT;
    rc = name_signed_bytes(rec, REC_NAME + n, msg, sizeof msg, &mlen);
    if (rc == 0)
        rc = proto__verify(msg, mlen, rec + REC_NAME + n, rec + REC_KEY);
    if (rc != 0)
        return rc;
    /* Signed is not harmless: the name is decided as if typed, and must
     * be its own canonical form (equal bytes, equal names). */
    rc = proto_name_check((const char *)rec + REC_NAME, n, canon, sizeof canon);
    if (rc != 0)
        return rc;
    if (strlen(canon) != n || memcmp(canon, rec + REC_NAME, n) != 0)
        return TB_E_FORMAT;
    memcpy(out->pk, rec + REC_KEY, PROTO_KEY_BYTES);
    for (int b = 0; b < 8; b++)
        out->time_ms = out->time_ms << 8 | rec[REC_TIME + b];
    memcpy(out->name, canon, n + 1);
    return 0;
}

int proto_name_display(const char *name, const uint8_t pk[PROTO_KEY_BYTES],
                       char *out, size_t cap)
{
    char fp[PROTO_FINGERPRINT_MAX], canon[PROTO_DISPLAY_NAME_MAX + 1];
    size_t len;
    int n;

    if (out == NULL || pk == NULL)
        return TB_E_ARG;
    proto_fingerprint(pk, fp);
    len = name == NULL ? 0 : strlen(name);
    /* Shown only when it is a canonical name: a caller's slip cannot put
     * a bidi control on the screen. */
    if (len > 0 && (proto_name_check(name, len, canon, sizeof canon) != 0 ||
                    strcmp(canon, name) != 0))
        len = 0;
    n = len > 0 ? snprintf(out, cap, "%s (%s)", canon, fp)
                : snprintf(out, cap, "%s", fp);
    if (n < 0 || (size_t)n >= cap) {
        if (cap > 0)
            out[0] = '\0';
        return TB_E_SPACE;
    }
    return 0;
}

int proto_name_path(const char *identity_path, char *buf, size_t cap)
{
    char def[1024];
    int n, rc;

    if (identity_path == NULL) {
        rc = proto_identity_path(def, sizeof def);
        if (rc != 0)
            return rc;
        identity_path = def;
    }
    n = snprintf(buf, cap, "%s.name", identity_path);
    if (n < 0 || (size_t)n >= cap)
        return TB_E_SPACE;
    return 0;
}

int proto_name_save(const char *identity_path, const char *name,
                    Proto_Name_Fault *fault)
{
    char path[1100], canon[PROTO_DISPLAY_NAME_MAX + 1];
    char text[sizeof NAME_FORMAT_LINE + PROTO_DISPLAY_NAME_MAX + 1];
    int n, rc;

    if (name == NULL)
        return TB_E_ARG;
    rc = proto_name_check_at(name, strlen(name), canon, sizeof canon, fault);
    if (rc == 0)
        rc = proto_name_path(identity_path, path, sizeof path);
    if (rc == 0)
        rc = proto__make_parents(path);
    if (rc != 0)
        return rc;
    n = snprintf(text, sizeof text, "%s%s\n", NAME_FORMAT_LINE, canon);
    if (n < 0 || (size_t)n >= sizeof text)
        return TB_E_SPACE;
    return proto__write_private(path, text, (size_t)n, 1);
}

int proto_name_load(const char *identity_path, char *out, size_t cap)
{
    char path[1100], text[sizeof NAME_FORMAT_LINE + PROTO_DISPLAY_NAME_MAX + 1];
    const size_t fl = sizeof NAME_FORMAT_LINE - 1;
    size_t got = 0, n;
    int rc;

    if (out == NULL || cap < PROTO_DISPLAY_NAME_MAX + 1)
        return out == NULL ? TB_E_ARG : TB_E_SPACE;
    out[0] = '\0';
    rc = proto_name_path(identity_path, path, sizeof path);
    if (rc == 0)
        rc = proto__read_small(path, text, sizeof text, &got, 0);
    if (rc == TB_E_STATE)
        return 0; /* no name set */
    if (rc != 0)
        return rc;
    if (got < fl + 2 || memcmp(text, NAME_FORMAT_LINE, fl) != 0 ||
        text[got - 1] != '\n')
        return TB_E_FORMAT;
    n = got - fl - 1;
    if (proto_name_check(text + fl, n, out, cap) != 0 || strlen(out) != n ||
        memcmp(out, text + fl, n) != 0) {
        out[0] = '\0';
        return TB_E_FORMAT;
    }
    return 0;
}
