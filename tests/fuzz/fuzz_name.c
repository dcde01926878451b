/*
 * fuzz_name.c: libFuzzer target for display names (issue 37): the same
 * bytes go to proto_name_check_at, as a name typed by a user, and to
 * proto_name_verify, as a received record (run.sh builds it with
 * TABULA_FUZZ_UNSIGNED, so mutated records get past the signature to the
 * name's rules). An accepted name must check again to itself
 * (idempotent), sign and verify back to itself, and hold no byte sequence
 * of a refused character: the checks below are written from the rules in
 * docs/protocol.md, not from name.c's tables.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Byte sequences that no accepted name holds (UTF-8 of refused
 * characters: bidi controls, zero-width and invisible ones, BOM). */
static const char *const refused[] = {"\xD8\x9C",
                                      "\xE2\x80\x8E",
                                      "\xE2\x80\x8F",
                                      "\xE2\x80\xAA",
                                      "\xE2\x80\xAB",
                                      "\xE2\x80\xAC",
                                      "\xE2\x80\xAD",
                                      "\xE2\x80\xAE",
                                      "\xE2\x81\xA6",
                                      "\xE2\x81\xA7",
                                      "\xE2\x81\xA8",
                                      "\xE2\x81\xA9",
                                      "\xE2\x80\x8B",
                                      "\xE2\x80\x8C",
                                      "\xE2\x80\x8D",
                                      "\xE2\x81\xA0",
                                      "\xEF\xBB\xBF",
                                      "\xC2\xAD",
                                      "\xCD\x8F",
                                      "\xE3\x85\xA4",
                                      "\xEF\xB8\x8F",
                                      "\xCC\x81",
                                      "  "};

/* Trap unless s (len bytes) is a name the rules allow in canonical form:
 * only ASCII letters, digits, space and -_.' or two-byte sequences led
 * by C3..C5 (U+00C0..U+017F) or D0..D3 (U+0400..U+04FF), no C3 97 (x)
 * or C3 B7 (/), no D2 82..D2 89 (the Cyrillic sign and marks); no
 * space at either end, 1..24 code points, at most 64 bytes. */
static void assert_allowed(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t chars = 0;

    if (len == 0 || len > PROTO_DISPLAY_NAME_MAX || u[0] == ' ' ||
        u[len - 1] == ' ')
        __builtin_trap();
    for (size_t i = 0; i < len; chars++) {
        unsigned c = u[i];
        if (c < 0x80) {
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == ' ' || c == '-' || c == '_' ||
                  c == '.' || c == '\''))
                __builtin_trap();
            i++;
            continue;
        }
        if (i + 1 >= len || (u[i + 1] & 0xC0) != 0x80)
            __builtin_trap();
        unsigned d = u[i + 1];
        if (!((c >= 0xC3 && c <= 0xC5) || (c >= 0xD0 && c <= 0xD3)) ||
            (c == 0xC3 && (d == 0x97 || d == 0xB7)) ||
            (c == 0xD2 && d >= 0x82 && d <= 0x89))
            __builtin_trap();
        i += 2;
    }
    if (chars > PROTO_DISPLAY_NAME_CHARS)
        __builtin_trap();
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        size_t n = strlen(refused[k]);
        for (size_t i = 0; i + n <= len; i++)
            if (memcmp(s + i, refused[k], n) == 0)
                __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Proto_Identity id;
    static int ready;
    char out[PROTO_DISPLAY_NAME_MAX + 1], again[PROTO_DISPLAY_NAME_MAX + 1];
    char shown[PROTO_NAME_SHOWN_MAX];
    uint8_t rec[PROTO_NAME_RECORD_MAX];
    Proto_Name_Fault f;
    Proto_Name n;
    size_t len = 0;
    int rc;

    if (!ready) {
        uint8_t seed[PROTO_KEY_BYTES] = {7};
        proto_init();
        proto_identity_from_seed(&id, seed);
        ready = 1;
    }
    rc = proto_name_check_at((const char *)data, size, out, sizeof out, &f);
    if (rc == 0) {
        assert_allowed(out, strlen(out));
        if (proto_name_check(out, strlen(out), again, sizeof again) != 0 ||
            strcmp(out, again) != 0)
            __builtin_trap(); /* not idempotent */
        if (proto_name_sign(&id, out, 1, rec, sizeof rec, &len) != 0 ||
            proto_name_verify(rec, len, &n) != 0 || strcmp(n.name, out) != 0)
            __builtin_trap();
        if (proto_name_display(out, id.pk, shown, sizeof shown) != 0)
            __builtin_trap();
    } else if (out[0] != '\0' || f.rule == PROTO_NAME_OK ||
               (f.rule != PROTO_NAME_EMPTY && f.offset >= size)) {
        __builtin_trap(); /* a refusal says where, and writes nothing */
    }
    if (proto_name_verify(data, size, &n) == 0) {
        assert_allowed(n.name, strlen(n.name));
        if (size != 106 + strlen(n.name) ||
            memcmp(data + 42, n.name, strlen(n.name)) != 0)
            __builtin_trap(); /* the name is the record's own bytes */
    }
    return 0;
}
