/*
 * test_hex.c: the one hex reader (proto_unhex) beside its writer
 * (proto_hex): exactly 2n lowercase digits, every other text refused.
 * The bytes are worked out by hand.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "proto.h"
#include "tb_error.h"

Test(hex, reads_what_proto_hex_writes)
{
    static const uint8_t want[4] = {0x00, 0xff, 0x10, 0xa9};
    uint8_t b[4];
    char text[9];
    cr_assert_eq(proto_unhex("00ff10a9", 8, b, 4), 0);
    cr_assert_eq(memcmp(b, want, 4), 0);
    proto_hex(want, 4, text);
    cr_assert_str_eq(text, "00ff10a9");
    cr_assert_eq(proto_unhex("", 0, b, 0), 0);
}

Test(hex, refuses_any_other_text)
{
    static const char *const bad[] = {
        "00FF10A9", /* capitals: not the form the project writes */
        "00ff10a",  /* one digit short */
        "00ff10a9", /* (with n 3: too long) */
        "00ff1 a9", "0xff10a9", "00ff10g9", "-0ff10a9",
    };
    uint8_t b[4];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = i == 2 ? 3 : 4;
        cr_assert_eq(proto_unhex(bad[i], strlen(bad[i]), b, n), TB_E_FORMAT,
                     "'%s'", bad[i]);
    }
    cr_assert_eq(proto_unhex(NULL, 0, b, 0), TB_E_FORMAT);
}
