/*
 * test_name.c: display names (issue 37). Czech, Russian and ASCII names
 * are accepted in their canonical form (spaces trimmed and folded); bidi
 * controls, invisible characters, combining marks, controls, bad UTF-8,
 * overlong and empty names are refused with the rule and the character;
 * a signed name record round-trips and refuses any flipped bit and any
 * name that is not canonical; two keys with one name are shown apart;
 * the name file beside the identity is written 0600 and read back.
 * Every expected byte below is written out by hand from the Unicode code
 * charts (UTF-8 of each code point), not taken from the program.
 */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto.h"

static void setup(void)
{
    cr_assert_eq(proto_init(), 0);
}

TestSuite(name, .init = setup);

/* proto_name_check of a NUL-terminated string. */
static int check(const char *s, char *out, size_t cap, Proto_Name_Fault *f)
{
    return proto_name_check_at(s, strlen(s), out, cap, f);
}

static void key(Proto_Identity *id, uint8_t b)
{
    uint8_t seed[PROTO_KEY_BYTES];
    memset(seed, b, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(id, seed), 0);
}

Test(name, czech_russian_ascii_accepted)
{
    char out[PROTO_DISPLAY_NAME_MAX + 1];

    /* Jiří Čermák: ř U+0159 C5 99, í U+00ED C3 AD, Č U+010C C4 8C,
     * á U+00E1 C3 A1. */
    cr_assert_eq(check("Ji\xC5\x99\xC3\xAD \xC4\x8C"
                       "erm\xC3\xA1k",
                       out, sizeof out, NULL),
                 0);
    cr_assert_str_eq(out, "Ji\xC5\x99\xC3\xAD \xC4\x8C"
                          "erm\xC3\xA1k");
    /* Ёжик Пётр: Ё U+0401 D0 81, ж U+0436 D0 B6, и U+0438 D0 B8, к U+043A
     * D0 BA, П U+041F D0 9F, ё U+0451 D1 91, т U+0442 D1 82, р U+0440
     * D1 80. */
    cr_assert_eq(check("Ёжик Пётр", out, sizeof out, NULL), 0);
    cr_assert_str_eq(out, "\xD0\x81\xD0\xB6\xD0\xB8\xD0\xBA "
                          "\xD0\x9F\xD1\x91\xD1\x82\xD1\x80");
    cr_assert_eq(check("O'Brien-Smith_2.0", out, sizeof out, NULL), 0);
    cr_assert_str_eq(out, "O'Brien-Smith_2.0");
    /* ÿ U+00FF (C3 BF) and ſ U+017F (C5 BF): the ends of the Latin
     * ranges; Ӿ U+04FE (D3 BE) in Cyrillic's. */
    cr_assert_eq(check("\xC3\xBF\xC5\xBF\xD3\xBE", out, sizeof out, NULL), 0);
}

Test(name, spaces_trimmed_and_folded)
{
    char out[PROTO_DISPLAY_NAME_MAX + 1];

    cr_assert_eq(check("   Jan    Nov\xC3\xA1k  ", out, sizeof out, NULL), 0);
    cr_assert_str_eq(out, "Jan Nov\xC3\xA1k");
    cr_assert_eq(check("a b  c", out, sizeof out, NULL), 0);
    cr_assert_str_eq(out, "a b c");
    /* Only U+0020 folds: a tab is a control, NBSP (C2 A0) is outside. */
    Proto_Name_Fault f;
    cr_assert_eq(check("a\tb", out, sizeof out, &f), TB_E_NAME_CHAR);
    cr_assert_eq(f.rule, PROTO_NAME_CONTROL);
    cr_assert_eq(check("a\xC2\xA0"
                       "b",
                       out, sizeof out, &f),
                 TB_E_NAME_CHAR);
    cr_assert_eq(f.rule, PROTO_NAME_REPERTOIRE);
    cr_assert_eq(f.cp, 0xA0);
    cr_assert_str_eq(out, "");
    /* The canonical form needs its own length and the NUL. */
    cr_assert_eq(check("  abc  ", out, 4, NULL), 0);
    cr_assert_eq(check("abc", out, 3, NULL), TB_E_SPACE);
}

Test(name, every_bidi_control_refused)
{
    /* U+061C D8 9C; U+200E/F E2 80 8E/8F; U+202A..U+202E E2 80 AA..AE;
     * U+2066..U+2069 E2 81 A6..A9. */
    static const struct {
        const char *bytes;
        uint32_t cp;
    } bidi[] = {{"\xD8\x9C", 0x061C},     {"\xE2\x80\x8E", 0x200E},
                {"\xE2\x80\x8F", 0x200F}, {"\xE2\x80\xAA", 0x202A},
                {"\xE2\x80\xAB", 0x202B}, {"\xE2\x80\xAC", 0x202C},
                {"\xE2\x80\xAD", 0x202D}, {"\xE2\x80\xAE", 0x202E},
                {"\xE2\x81\xA6", 0x2066}, {"\xE2\x81\xA7", 0x2067},
                {"\xE2\x81\xA8", 0x2068}, {"\xE2\x81\xA9", 0x2069}};
    char in[32], out[PROTO_DISPLAY_NAME_MAX + 1];
    Proto_Name_Fault f;

    for (size_t i = 0; i < sizeof bidi / sizeof bidi[0]; i++) {
        snprintf(in, sizeof in, "%sabc", bidi[i].bytes);
        cr_assert_eq(check(in, out, sizeof out, &f), TB_E_NAME_CHAR, "%zu", i);
        cr_assert_eq(f.rule, PROTO_NAME_BIDI, "U+%04X", bidi[i].cp);
        cr_assert_eq(f.cp, bidi[i].cp);
        cr_assert_eq(f.index, 0);
        cr_assert_str_eq(out, "");
    }
    /* U+202E inside a name: the third character, at byte 2. */
    cr_assert_eq(check("ab\xE2\x80\xAE"
                       "dc",
                       out, sizeof out, &f),
                 TB_E_NAME_CHAR);
    cr_assert_eq(f.rule, PROTO_NAME_BIDI);
    cr_assert_eq(f.cp, 0x202E);
    cr_assert_eq(f.has_cp, 1);
    cr_assert_eq(f.index, 2);
    cr_assert_eq(f.offset, 2);
    /* After a Czech letter (2 bytes) and a space: index 3, byte 4. */
    cr_assert_eq(check("\xC5\x99"
                       "a \xE2\x80\xAE",
                       out, sizeof out, &f),
                 TB_E_NAME_CHAR);
    cr_assert_eq(f.index, 3);
    cr_assert_eq(f.offset, 4);
}

Test(name, invisible_combining_and_controls_refused)
{
    char out[PROTO_DISPLAY_NAME_MAX + 1];
    Proto_Name_Fault f;

    /* zero-width joiner U+200D: E2 80 8D */
    cr_assert_eq(check("a\xE2\x80\x8D"
                       "b",
                       out, sizeof out, &f),
                 TB_E_NAME_CHAR);
    cr_assert_eq(f.rule, PROTO_NAME_INVISIBLE);
    cr_assert_eq(f.cp, 0x200D);
    /* zero-width space U+200B E2 80 8B, BOM U+FEFF EF BB BF, soft hyphen
     * U+00AD C2 AD, Hangul filler U+3164 E3 85 A4, variation selector 16
     * U+FE0F EF B8 8F, CGJ U+034F CD 8F */
    const char *inv[] = {"\xE2\x80\x8B", "\xEF\xBB\xBF", "\xC2\xAD",
                         "\xE3\x85\xA4", "\xEF\xB8\x8F", "\xCD\x8F"};
    for (size_t i = 0; i < sizeof inv / sizeof inv[0]; i++) {
        char in[16];
        snprintf(in, sizeof in, "x%s", inv[i]);
        cr_assert_eq(check(in, out, sizeof out, &f), TB_E_NAME_CHAR, "%zu", i);
        cr_assert_eq(f.rule, PROTO_NAME_INVISIBLE, "%zu", i);
    }
    /* e + combining acute U+0301 (CC 81): not é, and refused */
    cr_assert_eq(check("e\xCC\x81", out, sizeof out, &f), TB_E_NAME_CHAR);
    cr_assert_eq(f.rule, PROTO_NAME_COMBINING);
    cr_assert_eq(f.cp, 0x0301);
    cr_assert_eq(f.index, 1);
    /* Cyrillic's combining titlo U+0483 (D2 83) */
    cr_assert_eq(check("\xD0\x90\xD2\x83", out, sizeof out, &f),
                 TB_E_NAME_CHAR);
    cr_assert_eq(f.rule, PROTO_NAME_COMBINING);
    /* C1 control NEL U+0085 (C2 85), DEL, NUL inside the length */
    cr_assert_eq(check("ab\xC2\x85", out, sizeof out, &f), TB_E_NAME_CHAR);
    cr_assert_eq(f.rule, PROTO_NAME_CONTROL);
    cr_assert_eq(f.cp, 0x85);
    cr_assert_eq(check("ab\x7F", out, sizeof out, &f), TB_E_NAME_CHAR);
    cr_assert_eq(f.rule, PROTO_NAME_CONTROL);
    cr_assert_eq(proto_name_check_at("a\0b", 3, out, sizeof out, &f),
                 TB_E_NAME_CHAR);
    cr_assert_eq(f.rule, PROTO_NAME_CONTROL);
    /* outside the repertoire: '<' U+003C, × U+00D7 (C3 97), Greek alpha
     * U+03B1 (CE B1), the Cyrillic sign U+0482 (D2 82), an emoji U+1F600
     * (F0 9F 98 80) */
    const char *out_of[] = {"<", "\xC3\x97", "\xCE\xB1", "\xD2\x82",
                            "\xF0\x9F\x98\x80"};
    const uint32_t cps[] = {0x3C, 0xD7, 0x3B1, 0x482, 0x1F600};
    for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
        cr_assert_eq(check(out_of[i], out, sizeof out, &f), TB_E_NAME_CHAR);
        cr_assert_eq(f.rule, PROTO_NAME_REPERTOIRE, "%zu", i);
        cr_assert_eq(f.cp, cps[i], "%zu", i);
    }
}

Test(name, bad_utf8_refused)
{
    char out[PROTO_DISPLAY_NAME_MAX + 1];
    Proto_Name_Fault f;

    /* '/' overlong in two bytes (C0 AF) and in three (E0 80 AF) */
    cr_assert_eq(check("a\xC0\xAF"
                       "b",
                       out, sizeof out, &f),
                 TB_E_FORMAT);
    cr_assert_eq(f.rule, PROTO_NAME_UTF8);
    cr_assert_eq(f.offset, 1);
    cr_assert_eq(f.has_cp, 0);
    cr_assert_eq(f.cp, 0xC0);
    cr_assert_eq(check("\xE0\x80\xAF", out, sizeof out, &f), TB_E_FORMAT);
    /* the surrogate U+D800 (ED A0 80) */
    cr_assert_eq(check("ab\xED\xA0\x80", out, sizeof out, &f), TB_E_FORMAT);
    cr_assert_eq(f.offset, 2);
    /* noncharacters U+FFFE (EF BF BE) and U+FDD0 (EF B7 90) */
    cr_assert_eq(check("\xEF\xBF\xBE", out, sizeof out, &f), TB_E_FORMAT);
    cr_assert_eq(f.has_cp, 1);
    cr_assert_eq(f.cp, 0xFFFE);
    cr_assert_eq(check("\xEF\xB7\x90", out, sizeof out, &f), TB_E_FORMAT);
    /* truncated, a lone continuation byte, past U+10FFFF (F4 90 80 80) */
    cr_assert_eq(check("a\xC5", out, sizeof out, &f), TB_E_FORMAT);
    cr_assert_eq(check("\x80"
                       "a",
                       out, sizeof out, &f),
                 TB_E_FORMAT);
    cr_assert_eq(check("\xF4\x90\x80\x80", out, sizeof out, &f), TB_E_FORMAT);
}

Test(name, length_and_empty)
{
    char out[PROTO_DISPLAY_NAME_MAX + 1];
    Proto_Name_Fault f;

    cr_assert_eq(check("abcdefghijklmnopqrstuvwx", out, sizeof out, &f), 0);
    cr_assert_eq(check("abcdefghijklmnopqrstuvwxy", out, sizeof out, &f),
                 TB_E_LIMIT);
    cr_assert_eq(f.rule, PROTO_NAME_LONG);
    cr_assert_eq(f.index, 24);
    cr_assert_eq(f.cp, 'y');
    /* 24 two-byte letters (Ж U+0416, D0 96): 48 bytes, accepted; a 25th
     * refused */
    char in[128] = "";
    for (int i = 0; i < 24; i++)
        strcat(in, "\xD0\x96");
    cr_assert_eq(check(in, out, sizeof out, &f), 0);
    cr_assert_eq(strlen(out), 48);
    strcat(in, "\xD0\x96");
    cr_assert_eq(check(in, out, sizeof out, &f), TB_E_LIMIT);
    /* spaces count once folded: 12 letters and 11 spaces, 23 */
    cr_assert_eq(check("a  b c d e f g h i j k     l   ", out, sizeof out, &f),
                 0);
    cr_assert_eq(strlen(out), 23);
    cr_assert_eq(check("", out, sizeof out, &f), TB_E_NAME_EMPTY);
    cr_assert_eq(f.rule, PROTO_NAME_EMPTY);
    cr_assert_eq(check("     ", out, sizeof out, &f), TB_E_NAME_EMPTY);
    cr_assert_eq(proto_name_check(NULL, 0, out, sizeof out), TB_E_ARG);
}

/* The record's bytes as docs/protocol.md lays them out, built and signed
 * here by libsodium directly: the check does not trust proto's writer. */
static size_t hand_record(const Proto_Identity *id, const char *name,
                          uint64_t t, uint8_t *rec)
{
    static const char domain[] = "tabula name 1";
    uint8_t msg[256];
    size_t n = strlen(name), body = 1 + 32 + 8 + 1 + n;

    rec[0] = 1;
    memcpy(rec + 1, id->pk, 32);
    for (int b = 0; b < 8; b++)
        rec[33 + b] = (uint8_t)(t >> (56 - 8 * b));
    rec[41] = (uint8_t)n;
    memcpy(rec + 42, name, n);
    memcpy(msg, domain, sizeof domain); /* with its NUL: 14 bytes */
    memcpy(msg + sizeof domain, rec, body);
    crypto_sign_detached(rec + body, NULL, msg, sizeof domain + body, id->sk);
    return body + 64;
}

Test(name, record_round_trip_and_layout)
{
    Proto_Identity id;
    uint8_t rec[PROTO_NAME_RECORD_MAX], want[PROTO_NAME_RECORD_MAX];
    const char *jiri = "Ji\xC5\x99\xC3\xAD \xC4\x8C"
                       "erm\xC3\xA1k";
    size_t len = 0;
    Proto_Name n;

    key(&id, 7);
    cr_assert_eq(proto_name_sign(&id,
                                 "  Ji\xC5\x99\xC3\xAD   \xC4\x8C"
                                 "erm\xC3\xA1k ",
                                 1765000000123ull, rec, sizeof rec, &len),
                 0);
    /* 1 + 32 + 8 + 1 + 15 name bytes + 64 */
    cr_assert_eq(len, 121);
    cr_assert_eq(hand_record(&id, jiri, 1765000000123ull, want), 121);
    cr_assert_eq(memcmp(rec, want, len), 0); /* Ed25519 is deterministic */
    cr_assert_eq(proto_name_verify(rec, len, &n), 0);
    cr_assert_str_eq(n.name, jiri);
    cr_assert_eq(n.time_ms, 1765000000123ull);
    cr_assert_eq(memcmp(n.pk, id.pk, 32), 0);
    cr_assert_eq(PROTO_NAME_RECORD_MAX, 170);
    cr_assert_eq(
        proto_name_sign(&id, "abc", 0, rec, 1 + 32 + 8 + 1 + 3 + 63, &len),
        TB_E_SPACE);
    cr_assert_eq(
        proto_name_sign(&id, "a\xE2\x80\xAE", 0, rec, sizeof rec, &len),
        TB_E_NAME_CHAR);
    cr_assert_eq(proto_name_sign(&id, " ", 0, rec, sizeof rec, &len),
                 TB_E_NAME_EMPTY);
}

Test(name, record_with_any_flipped_bit_refused)
{
    Proto_Identity id;
    uint8_t rec[PROTO_NAME_RECORD_MAX];
    size_t len = 0;
    Proto_Name n;

    key(&id, 9);
    cr_assert_eq(proto_name_sign(&id, "\xD0\x81\xD0\xB6\xD0\xB8\xD0\xBA", 42,
                                 rec, sizeof rec, &len),
                 0);
    for (size_t i = 0; i < len; i++)
        for (int b = 0; b < 8; b++) {
            rec[i] ^= (uint8_t)(1u << b);
            cr_assert_neq(proto_name_verify(rec, len, &n), 0, "byte %zu bit %d",
                          i, b);
            cr_assert_eq(n.name[0], '\0');
            rec[i] ^= (uint8_t)(1u << b);
        }
    cr_assert_eq(proto_name_verify(rec, len, &n), 0);
    /* cut short, one byte longer, another version */
    cr_assert_eq(proto_name_verify(rec, len - 1, &n), TB_E_FORMAT);
    rec[len] = 0;
    cr_assert_eq(proto_name_verify(rec, len + 1, &n), TB_E_FORMAT);
    rec[0] = 2;
    cr_assert_eq(proto_name_verify(rec, len, &n), TB_E_VERSION);
    cr_assert_eq(proto_name_verify(rec, 0, &n), TB_E_FORMAT);
}

Test(name, record_signed_over_a_hostile_name_refused)
{
    Proto_Identity id;
    uint8_t rec[PROTO_NAME_RECORD_MAX];
    size_t len;
    Proto_Name n;

    key(&id, 11);
    /* a good signature over names proto_name_sign would never write */
    len = hand_record(&id, "Bob", 1, rec);
    cr_assert_eq(proto_name_verify(rec, len, &n), 0); /* (the builder) */
    len = hand_record(&id, " Bob", 1, rec);
    cr_assert_eq(proto_name_verify(rec, len, &n), TB_E_FORMAT);
    len = hand_record(&id, "Bob  Ray", 1, rec);
    cr_assert_eq(proto_name_verify(rec, len, &n), TB_E_FORMAT);
    len = hand_record(&id,
                      "Bob\xE2\x80\xAE"
                      "boB",
                      1, rec);
    cr_assert_eq(proto_name_verify(rec, len, &n), TB_E_NAME_CHAR);
    cr_assert_eq(n.name[0], '\0');
    len = hand_record(&id, "e\xCC\x81", 1, rec);
    cr_assert_eq(proto_name_verify(rec, len, &n), TB_E_NAME_CHAR);
    len = hand_record(&id, "\xC0\xAF", 1, rec);
    cr_assert_eq(proto_name_verify(rec, len, &n), TB_E_FORMAT);
    len = hand_record(&id, "abcdefghijklmnopqrstuvwxyz", 1, rec);
    cr_assert_eq(proto_name_verify(rec, len, &n), TB_E_LIMIT);
}

Test(name, one_name_two_keys_shown_apart)
{
    Proto_Identity a, b;
    char fa[PROTO_FINGERPRINT_MAX], fb[PROTO_FINGERPRINT_MAX];
    char sa[PROTO_NAME_SHOWN_MAX], sb[PROTO_NAME_SHOWN_MAX], want[128];

    key(&a, 1);
    key(&b, 2);
    proto_fingerprint(a.pk, fa);
    proto_fingerprint(b.pk, fb);
    cr_assert_eq(proto_name_display("Petr", a.pk, sa, sizeof sa), 0);
    cr_assert_eq(proto_name_display("Petr", b.pk, sb, sizeof sb), 0);
    cr_assert_str_neq(sa, sb);
    snprintf(want, sizeof want, "Petr (%s)", fa);
    cr_assert_str_eq(sa, want);
    cr_assert_eq(strlen(sa), 4 + 2 + 19 + 1);
    /* no name: the fingerprint alone; a name that is not canonical is
     * never shown */
    cr_assert_eq(proto_name_display("", a.pk, sa, sizeof sa), 0);
    cr_assert_str_eq(sa, fa);
    cr_assert_eq(proto_name_display("a\xE2\x80\xAE"
                                    "b",
                                    a.pk, sa, sizeof sa),
                 0);
    cr_assert_str_eq(sa, fa);
    cr_assert_eq(proto_name_display("Petr", a.pk, sa, 10), TB_E_SPACE);
    cr_assert_str_eq(sa, "");
    /* the longest: 24 two-byte letters */
    char longest[64] = "";
    for (int i = 0; i < 24; i++)
        strcat(longest, "\xC5\xBE");
    cr_assert_eq(proto_name_display(longest, a.pk, sa, sizeof sa), 0);
}

Test(name, stored_beside_the_identity)
{
    char dir[64], path[128], file[160], out[PROTO_DISPLAY_NAME_MAX + 1];
    char cmd[160];
    Proto_Name_Fault f;
    struct stat st;
    FILE *fp;

    snprintf(dir, sizeof dir, "/tmp/tabula-name-test-%ld", (long)getpid());
    snprintf(path, sizeof path, "%s/sub/identity", dir);
    cr_assert_eq(proto_name_path(path, file, sizeof file), 0);
    cr_assert_eq(strcmp(file + strlen(path), ".name"), 0);
    cr_assert_eq(proto_name_load(path, out, sizeof out), 0); /* none set */
    cr_assert_str_eq(out, "");
    cr_assert_eq(
        proto_name_save(path, "  \xD0\x81\xD0\xB6\xD0\xB8\xD0\xBA ", &f), 0);
    cr_assert_eq(stat(file, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600);
    cr_assert_eq(proto_name_load(path, out, sizeof out), 0);
    cr_assert_str_eq(out, "\xD0\x81\xD0\xB6\xD0\xB8\xD0\xBA");
    cr_assert_eq(proto_name_save(path, "Eve", NULL), 0); /* replaced */
    cr_assert_eq(proto_name_load(path, out, sizeof out), 0);
    cr_assert_str_eq(out, "Eve");
    cr_assert_eq(proto_name_save(path, "x\xE2\x80\xAE", &f), TB_E_NAME_CHAR);
    cr_assert_eq(f.cp, 0x202E);
    cr_assert_eq(proto_name_load(path, out, sizeof out), 0); /* unchanged */
    cr_assert_str_eq(out, "Eve");
    /* a file edited by hand to hold a hostile or untrimmed name */
    fp = fopen(file, "w");
    cr_assert_not_null(fp);
    fputs("tabula-name 1\nEve\xE2\x80\xAE\n", fp);
    fclose(fp);
    cr_assert_eq(proto_name_load(path, out, sizeof out), TB_E_FORMAT);
    cr_assert_str_eq(out, "");
    fp = fopen(file, "w");
    fputs("tabula-name 1\n Eve\n", fp);
    fclose(fp);
    cr_assert_eq(proto_name_load(path, out, sizeof out), TB_E_FORMAT);
    fp = fopen(file, "w");
    fputs("Eve\n", fp);
    fclose(fp);
    cr_assert_eq(proto_name_load(path, out, sizeof out), TB_E_FORMAT);
    cr_assert_eq(proto_name_load(path, out, 8), TB_E_SPACE);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
