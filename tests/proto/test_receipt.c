/*
 * test_receipt.c: a relay's receipt signs exactly the bytes docs/trust.md
 * names (built here by hand and checked with libsodium directly), and any
 * change of room, number, time, hash, kind or presence breaks it.
 */
#include <criterion/criterion.h>
#include <sodium.h>
#include <string.h>

#include "proto.h"

static Proto_Identity relay;
static uint8_t room[32], hash[32], guest[32];

static void setup(void)
{
    uint8_t seed[32];
    cr_assert_eq(proto_init(), 0);
    memset(seed, 7, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&relay, seed), 0);
    memset(room, 0xA1, sizeof room);
    memset(guest, 0xB2, sizeof guest);
    for (int i = 0; i < 32; i++)
        hash[i] = (uint8_t)i;
}

TestSuite(receipt, .init = setup);

Test(receipt, frame_signs_the_documented_bytes)
{
    Proto_Receipt r = {.kind = PROTO_RECEIPT_FRAME,
                       .seq = 0x0102030405060708ull,
                       .time_ms = 1765000000123ull,
                       .absent_ms = {0, 0x0A0B0C0Du}};
    memcpy(r.guest, guest, 32);
    cr_assert_eq(proto_receipt_sign(&r, room, hash, &relay), 0);
    cr_assert_eq(memcmp(r.relay, relay.pk, 32), 0);
    /* by hand: label and NUL, room, guest, kind, seq BE, time BE, hash,
     * the host's absence u32 BE (present: 0), the guest's */
    uint8_t m[17 + 32 + 32 + 1 + 8 + 8 + 32 + 8] = {0};
    memcpy(m, "tabula receipt 3", 17);
    memcpy(m + 17, room, 32);
    memcpy(m + 49, guest, 32);
    m[81] = 0;
    const uint8_t seq[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    memcpy(m + 82, seq, 8);
    uint64_t t = 1765000000123ull;
    for (int i = 0; i < 8; i++)
        m[90 + i] = (uint8_t)(t >> (56 - 8 * i));
    memcpy(m + 98, hash, 32);
    m[134] = 0x0A, m[135] = 0x0B, m[136] = 0x0C, m[137] = 0x0D;
    cr_assert_eq(crypto_sign_verify_detached(r.sig, m, sizeof m, relay.pk), 0);
    cr_assert_eq(proto_receipt_verify(&r, room, hash), 0);
    Proto_Receipt x = r;
    x.absent_ms[0] = 1; /* the host gone 1 ms: another attestation */
    cr_assert_eq(proto_receipt_verify(&x, room, hash), TB_E_SIGNATURE);
    x = r;
    x.absent_ms[1]++;
    cr_assert_eq(proto_receipt_verify(&x, room, hash), TB_E_SIGNATURE);
    x = r;
    x.v1 = 1; /* read as an older receipt: other bytes */
    cr_assert_eq(proto_receipt_verify(&x, room, hash), TB_E_SIGNATURE);
    x = r;
    x.v2 = 1;
    cr_assert_eq(proto_receipt_verify(&x, room, hash), TB_E_SIGNATURE);
    x = r;
    x.guest[31] ^= 1; /* another key in the guest's seat */
    cr_assert_eq(proto_receipt_verify(&x, room, hash), TB_E_SIGNATURE);
}

Test(receipt, version_2_signs_no_guest)
{
    /* the receipts of version 3 logs: label 2, no guest key */
    Proto_Receipt r = {.kind = PROTO_RECEIPT_FRAME, .seq = 3, .time_ms = 7,
                       .absent_ms = {1, 2}, .v2 = 1};
    memcpy(r.guest, guest, 32); /* (not signed in this form) */
    cr_assert_eq(proto_receipt_sign(&r, room, hash, &relay), 0);
    uint8_t m[17 + 32 + 1 + 8 + 8 + 32 + 8] = {0};
    memcpy(m, "tabula receipt 2", 17);
    memcpy(m + 17, room, 32);
    m[57] = 3;
    m[65] = 7;
    memcpy(m + 66, hash, 32);
    m[101] = 1, m[105] = 2;
    cr_assert_eq(crypto_sign_verify_detached(r.sig, m, sizeof m, relay.pk), 0);
    memset(r.guest, 0, 32);
    cr_assert_eq(proto_receipt_verify(&r, room, hash), 0);
}

Test(receipt, version_1_signs_no_absences)
{
    /* the receipts of version 2 logs: label 1, nothing after the hash */
    Proto_Receipt r = {.kind = PROTO_RECEIPT_FRAME, .seq = 3, .time_ms = 7,
                       .v1 = 1};
    cr_assert_eq(proto_receipt_sign(&r, room, hash, &relay), 0);
    uint8_t m[17 + 32 + 1 + 8 + 8 + 32] = {0};
    memcpy(m, "tabula receipt 1", 17);
    memcpy(m + 17, room, 32);
    m[57] = 3;
    m[65] = 7;
    memcpy(m + 66, hash, 32);
    cr_assert_eq(crypto_sign_verify_detached(r.sig, m, sizeof m, relay.pk), 0);
    cr_assert_eq(proto_receipt_verify(&r, room, hash), 0);
}

Test(receipt, any_change_breaks_it)
{
    Proto_Receipt r = {.kind = PROTO_RECEIPT_FRAME, .seq = 5, .time_ms = 1000};
    cr_assert_eq(proto_receipt_sign(&r, room, hash, &relay), 0);
    /* (verified first: the signatures a thread verified are remembered,
     * and a change must still miss them) */
    cr_assert_eq(proto_receipt_verify(&r, room, hash), 0);
    Proto_Receipt x = r;
    x.time_ms++; /* a time moved by 1 ms */
    cr_assert_eq(proto_receipt_verify(&x, room, hash), TB_E_SIGNATURE);
    x = r;
    x.seq = 6;
    cr_assert_eq(proto_receipt_verify(&x, room, hash), TB_E_SIGNATURE);
    uint8_t other[32];
    memcpy(other, room, 32);
    other[31] ^= 1; /* another room */
    cr_assert_eq(proto_receipt_verify(&r, other, hash), TB_E_SIGNATURE);
    memcpy(other, hash, 32);
    other[0] ^= 1; /* another frame */
    cr_assert_eq(proto_receipt_verify(&r, room, other), TB_E_SIGNATURE);
    x = r;
    x.relay[0] ^= 1; /* another relay */
    cr_assert_eq(proto_receipt_verify(&x, room, hash), TB_E_SIGNATURE);
    x = r;
    x.sig[5] ^= 0x10; /* another signature of the same bytes */
    cr_assert_eq(proto_receipt_verify(&x, room, hash), TB_E_SIGNATURE);
    cr_assert_eq(proto_receipt_verify(&r, room, hash), 0);
}

Test(receipt, presence_signs_seat_and_arrival)
{
    Proto_Receipt r = {.kind = PROTO_RECEIPT_PRESENCE, .seq = 9,
                       .time_ms = 42, .seat = 1, .present = 0};
    memcpy(r.guest, guest, 32);
    cr_assert_eq(proto_receipt_sign(&r, room, NULL, &relay), 0);
    uint8_t m[17 + 32 + 32 + 1 + 8 + 8 + 2] = {0};
    memcpy(m, "tabula receipt 3", 17);
    memcpy(m + 17, room, 32);
    memcpy(m + 49, guest, 32);
    m[81] = 1;
    m[89] = 9;
    m[97] = 42;
    m[98] = 1;
    m[99] = 0;
    cr_assert_eq(crypto_sign_verify_detached(r.sig, m, sizeof m, relay.pk), 0);
    Proto_Receipt x = r;
    x.present = 1; /* "came" for "went" */
    cr_assert_eq(proto_receipt_verify(&x, room, NULL), TB_E_SIGNATURE);
    x = r;
    x.seat = 0;
    cr_assert_eq(proto_receipt_verify(&x, room, NULL), TB_E_SIGNATURE);
    x = r;
    x.seat = 2; /* no such seat */
    cr_assert_eq(proto_receipt_verify(&x, room, NULL), TB_E_ARG);
}
