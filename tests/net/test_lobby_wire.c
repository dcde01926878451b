/*
 * test_lobby_wire.c: the lobby client codec without I/O (lobby_wire.h),
 * as the page's module and lobby/client.c use it. The messages it builds
 * are compared with bytes laid out here from the tables of
 * docs/protocol-lobby.md; the lobby's answers are built here the same
 * way and fed to it: a welcome with the wrong host key is refused,
 * frames already held are dropped, refusals become their TB_E_* codes,
 * and anything out of turn or of the wrong length is a format error.
 * Version 2: WELCOME names the relay's key and clock, FRAME, ACK and
 * PRESENCE carry its receipt (time and signature), which the codec hands
 * on as a Proto_Receipt of that key, unverified. Version 4: CREATE and
 * JOIN prove the player's key, WELCOME and PRESENCE name the room's
 * guest key.
 */
#include <criterion/criterion.h>
#include <sodium.h>
#include <string.h>

#include "lobby_wire.h"
#include "proto.h"
#include "tb_error.h"

static void be64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static Proto_Identity key(uint8_t seed)
{
    uint8_t s[32];
    Proto_Identity id;
    memset(s, seed, sizeof s);
    cr_assert_eq(proto_identity_from_seed(&id, s), 0);
    return id;
}

/* The relay's key in the welcomes laid out here, and its clock. */
static const uint8_t relay_pk[32] = {
    0xee, 1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
    16,   17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 0xef};
#define RELAY_TIME UINT64_C(1765000000123)

/* The guest key in the welcomes laid out here. */
static const uint8_t guest_pk[32] = {0x61, [31] = 0x62};

/* WELCOME: 0x81, role, host key, first seq, next seq, presence, relay
 * key, relay time, guest key: 123 bytes. */
static size_t welcome(uint8_t *m, int role, const uint8_t pk[32],
                      uint64_t first, uint64_t next, int presence)
{
    m[0] = 0x81;
    m[1] = (uint8_t)role;
    memcpy(m + 2, pk, 32);
    be64(m + 34, first);
    be64(m + 42, next);
    m[50] = (uint8_t)presence;
    memcpy(m + 51, relay_pk, 32);
    be64(m + 83, RELAY_TIME);
    memcpy(m + 91, guest_pk, 32);
    return 123;
}

/* A receipt's time and signature after its seq (a signature of byte
 * sig repeated). */
/* A receipt's tail: time u64, the host's and the guest's absence u32
 * (ABSENT_HOST, ABSENT_GUEST), signature [64] (all sig). */
#define ABSENT_HOST 0x11223344u
#define ABSENT_GUEST 5u
static void tail(uint8_t *p, uint64_t time, uint8_t sig)
{
    be64(p, time);
    p[8] = 0x11, p[9] = 0x22, p[10] = 0x33, p[11] = 0x44;
    p[12] = 0, p[13] = 0, p[14] = 0, p[15] = 5;
    memset(p + 16, sig, 64);
}

static Lobby_Wire *guest(const Proto_Identity *host, Lobby_Code *code)
{
    Lobby_Wire_Config cfg;
    Lobby_Wire *w = NULL;
    memset(&cfg, 0, sizeof cfg);
    cr_assert_eq(lobby_code_new(host->pk, code), 0);
    cfg.role = LOBBY_ROLE_GUEST;
    cfg.id = key(2); /* the guest's own key pair */
    cfg.invite = *code;
    memset(cfg.seat_secret, 0x5a, sizeof cfg.seat_secret);
    cr_assert_eq(lobby_wire_new(&cfg, 0, &w), 0);
    return w;
}

static void setup(void)
{
    cr_assert_eq(proto_init(), 0);
}

TestSuite(lobby_wire, .init = setup);

/* The proof at m + n is pk's signature of "tabula seat 1" NUL and the n
 * bytes before it (checked with libsodium itself). */
static void proved_by(const uint8_t *m, size_t n, const uint8_t pk[32])
{
    uint8_t signed_bytes[14 + 200];
    memcpy(signed_bytes, "tabula seat 1", 14);
    memcpy(signed_bytes + 14, m, n);
    cr_assert_eq(crypto_sign_verify_detached(m + n, signed_bytes, 14 + n, pk),
                 0);
}

Test(lobby_wire, hello_bytes_are_the_documented_messages)
{
    Proto_Identity h = key(1);
    Lobby_Code code;
    Lobby_Wire *w = guest(&h, &code);
    Proto_Identity g = key(2);
    uint8_t m[LOBBY_WIRE_HELLO_MAX], want[138];

    /* JOIN: 0x02, version 4, invite lookup, seat secret, the guest's
     * key, its proof (a signature of "tabula seat 1" NUL and the 66
     * bytes before it), from seq: 138 bytes. */
    want[0] = 0x02;
    want[1] = 4;
    memcpy(want + 2, code.lookup, 16);
    memset(want + 18, 0x5a, 16);
    memcpy(want + 34, g.pk, 32);
    be64(want + 130, 77);
    cr_assert_eq(lobby_wire_hello(w, 77, m), 138);
    cr_assert_arr_eq(m, want, 66);
    cr_assert_arr_eq(m + 130, want + 130, 8);
    proved_by(m, 66, g.pk);
    cr_assert_eq(lobby_wire_last_seq(w), 77);
    lobby_wire_free(w);

    /* CREATE (186 bytes: ... host key, seat secret, the guest it names,
     * proof, from seq) and WATCH with the watch code (26 bytes). */
    Lobby_Wire_Config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.role = LOBBY_ROLE_HOST;
    cr_assert_eq(lobby_code_new(h.pk, &cfg.invite), 0);
    cr_assert_eq(lobby_code_new(h.pk, &cfg.watch), 0);
    memcpy(cfg.host_pk, h.pk, 32);
    cfg.id = h;
    cr_assert_eq(lobby_wire_new(&cfg, 0, &w), 0);
    lobby_wire_name_guest(w, g.pk);
    cr_assert_eq(lobby_wire_hello(w, 0, m), 186);
    cr_assert_eq(m[0], 0x01);
    cr_assert_arr_eq(m + 2, cfg.invite.lookup, 16);
    cr_assert_arr_eq(m + 18, cfg.watch.lookup, 16);
    cr_assert_arr_eq(m + 34, h.pk, 32);
    cr_assert_arr_eq(m + 82, g.pk, 32);
    proved_by(m, 114, h.pk);
    lobby_wire_free(w);
    Lobby_Code invite = cfg.invite;
    memset(&cfg.invite, 0, sizeof cfg.invite);
    cfg.role = LOBBY_ROLE_SPECTATOR;
    cr_assert_eq(lobby_wire_new(&cfg, 0, &w), 0);
    cr_assert_eq(lobby_wire_hello(w, 3, m), 26);
    cr_assert_eq(m[0], 0x03);
    cr_assert_arr_eq(m + 2, cfg.watch.lookup, 16);
    cr_assert(memcmp(m + 2, invite.lookup, 16) != 0);
    cr_assert_eq(m[25], 3);
    lobby_wire_free(w);
}

Test(lobby_wire, welcome_checks_the_host_key_against_the_code)
{
    Proto_Identity h = key(1), other = key(2);
    Lobby_Code code;
    Lobby_Wire *w = guest(&h, &code);
    Lobby_Wire_Event ev;
    uint8_t m[LOBBY_WIRE_HELLO_MAX], msg[128];

    lobby_wire_hello(w, 0, m);
    /* the lengths of version 1's and 3's WELCOME are no WELCOME now */
    cr_assert_eq(lobby_wire_read(w, msg, 51, &ev), TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg, 91, &ev), TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg, welcome(msg, 1, other.pk, 0, 1, 1),
                                 &ev),
                 TB_E_SIGNATURE);
    cr_assert_not(lobby_wire_admitted(w));
    /* A guest admitted as a spectator is a lobby in error. */
    cr_assert_eq(lobby_wire_read(w, msg, welcome(msg, 2, h.pk, 0, 1, 1), &ev),
                 TB_E_FORMAT);
    /* Numbers no lobby gives (a trial's relay locked a seat out with
     * 2^63, or stalled it with 0): frames are numbered from 1, a room
     * starts at most at 2^53 - 2 (CREATE), the oldest kept below the
     * next. */
    cr_assert_eq(lobby_wire_read(w, msg, welcome(msg, 1, h.pk, 0, 0, 1), &ev),
                 TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg,
                                 welcome(msg, 1, h.pk, 0,
                                         (UINT64_C(1) << 53) + 1, 1),
                                 &ev),
                 TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg,
                                 welcome(msg, 1, h.pk, (UINT64_C(1) << 63) - 1,
                                         UINT64_C(1) << 63, 1),
                                 &ev),
                 TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg, welcome(msg, 1, h.pk, 9, 9, 1), &ev),
                 TB_E_FORMAT);
    cr_assert_not(lobby_wire_admitted(w));
    cr_assert_eq(lobby_wire_read(w, msg, welcome(msg, 1, h.pk, 4, 9, 3), &ev),
                 0);
    cr_assert_eq(ev.kind, LOBBY_WIRE_WELCOME);
    cr_assert_eq(ev.welcome.first_seq, 4);
    cr_assert_eq(ev.welcome.next_seq, 9);
    cr_assert(ev.welcome.host_present && ev.welcome.guest_present);
    cr_assert_arr_eq(ev.welcome.relay_pk, relay_pk, 32);
    cr_assert_eq(ev.welcome.relay_time, RELAY_TIME);
    cr_assert_arr_eq(ev.welcome.guest_pk, guest_pk, 32);
    cr_assert(lobby_wire_admitted(w));
    cr_assert_eq(lobby_wire_data_check(w, 10, 100), 0);
    cr_assert_eq(lobby_wire_data_check(w, 101, 100), TB_E_LIMIT);
    /* A second welcome on one connection is out of turn. */
    cr_assert_eq(lobby_wire_read(w, msg, welcome(msg, 1, h.pk, 4, 9, 3), &ev),
                 TB_E_FORMAT);
    lobby_wire_free(w);
}

Test(lobby_wire, frames_acks_and_presence)
{
    Proto_Identity h = key(1);
    Lobby_Code code;
    Lobby_Wire *w = guest(&h, &code);
    Lobby_Wire_Event ev;
    uint8_t m[LOBBY_WIRE_HELLO_MAX], msg[128];

    lobby_wire_hello(w, 0, m);
    /* FRAME: 0x82, seq, from, time, absences, signature [64], payload:
     * 90 + 1. */
    msg[0] = 0x82;
    be64(msg + 1, 1);
    msg[9] = 0;
    tail(msg + 10, 1000, 0xa1);
    msg[90] = 'x';
    /* A frame before the welcome is out of turn. */
    cr_assert_eq(lobby_wire_read(w, msg, 91, &ev), TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, m, welcome(m, 1, h.pk, 0, 1, 1), &ev), 0);
    cr_assert_eq(lobby_wire_read(w, msg, 91, &ev), 0);
    cr_assert_eq(ev.kind, LOBBY_WIRE_FRAME);
    cr_assert_eq(ev.seq, 1);
    cr_assert_eq(ev.from, LOBBY_ROLE_HOST);
    cr_assert_eq(ev.len, 1);
    cr_assert_eq(ev.data[0], 'x');
    /* its receipt: the WELCOME's relay key, seq 1, time 1000, the
     * signature's bytes */
    cr_assert_arr_eq(ev.receipt.relay, relay_pk, 32);
    cr_assert_eq(ev.receipt.kind, PROTO_RECEIPT_FRAME);
    cr_assert_eq(ev.receipt.seq, 1);
    cr_assert_eq(ev.receipt.time_ms, 1000);
    cr_assert_eq(ev.receipt.absent_ms[0], ABSENT_HOST);
    cr_assert_eq(ev.receipt.absent_ms[1], ABSENT_GUEST);
    for (int k = 0; k < 64; k++)
        cr_assert_eq(ev.receipt.sig[k], 0xa1);
    /* The same number again: already held. */
    cr_assert_eq(lobby_wire_read(w, msg, 91, &ev), 0);
    cr_assert_eq(ev.kind, LOBBY_WIRE_NONE);
    /* A frame from seat 2 (a spectator), with no payload, or of version
     * 1's 10-byte header is malformed. */
    be64(msg + 1, 2);
    msg[9] = 2;
    cr_assert_eq(lobby_wire_read(w, msg, 91, &ev), TB_E_FORMAT);
    msg[9] = 1;
    cr_assert_eq(lobby_wire_read(w, msg, 90, &ev), TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg, 11, &ev), TB_E_FORMAT);
    /* ACK: 0x83, seq, time, absences, signature; 89 bytes exactly. */
    msg[0] = 0x83;
    be64(msg + 1, 5);
    tail(msg + 9, 2000, 0xa2);
    cr_assert_eq(lobby_wire_read(w, msg, 9, &ev), TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg, 90, &ev), TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg, 89, &ev), 0);
    cr_assert_eq(ev.kind, LOBBY_WIRE_ACK);
    cr_assert_eq(lobby_wire_last_seq(w), 5);
    cr_assert_arr_eq(ev.receipt.relay, relay_pk, 32);
    cr_assert_eq(ev.receipt.kind, PROTO_RECEIPT_FRAME);
    cr_assert_eq(ev.receipt.seq, 5);
    cr_assert_eq(ev.receipt.time_ms, 2000);
    cr_assert_eq(ev.receipt.sig[63], 0xa2);
    /* PRESENCE: 0x84, seat, present, seq, the room's guest key, time,
     * absences (unsigned), signature; 123 bytes. */
    msg[0] = 0x84;
    msg[1] = 0;
    msg[2] = 0;
    be64(msg + 3, 5);
    memcpy(msg + 11, guest_pk, 32);
    tail(msg + 43, 3000, 0xa3);
    cr_assert_eq(lobby_wire_read(w, msg, 3, &ev), TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg, 91, &ev), TB_E_FORMAT);
    cr_assert_eq(lobby_wire_read(w, msg, 123, &ev), 0);
    cr_assert_eq(ev.kind, LOBBY_WIRE_PRESENCE);
    cr_assert_eq(ev.seat, LOBBY_ROLE_HOST);
    cr_assert_eq(ev.present, 0);
    cr_assert_arr_eq(ev.receipt.relay, relay_pk, 32);
    cr_assert_eq(ev.receipt.kind, PROTO_RECEIPT_PRESENCE);
    cr_assert_eq(ev.receipt.seq, 5);
    cr_assert_eq(ev.receipt.time_ms, 3000);
    cr_assert_eq(ev.receipt.seat, 0);
    cr_assert_eq(ev.receipt.present, 0);
    cr_assert_eq(ev.receipt.sig[0], 0xa3);
    cr_assert_arr_eq(ev.guest_pk, guest_pk, 32);
    cr_assert_arr_eq(ev.receipt.guest, guest_pk, 32);
    msg[2] = 2;
    cr_assert_eq(lobby_wire_read(w, msg, 123, &ev), TB_E_FORMAT);
    lobby_wire_closed(w);
    cr_assert_not(lobby_wire_admitted(w));
    cr_assert_eq(lobby_wire_data_check(w, 10, 100), TB_E_STATE);
    lobby_wire_free(w);
}

/* A receipt signed by a relay, sent in the relay's FRAME, ACK and
 * PRESENCE, comes out of the codec as one that verifies against the
 * room's host key (and the payload's hash): the codec hands on exactly
 * the signed fields. */
Test(lobby_wire, receipts_pass_through_and_verify)
{
    Proto_Identity h = key(1), relay = key(3);
    Lobby_Code code;
    Lobby_Wire *w = guest(&h, &code);
    Lobby_Wire_Event ev;
    uint8_t m[LOBBY_WIRE_HELLO_MAX], msg[128], hash[32];
    Proto_Receipt r = {.kind = PROTO_RECEIPT_FRAME,
                       .seq = 7,
                       .time_ms = RELAY_TIME + 5,
                       .absent_ms = {0, 12000}};
    memcpy(r.guest, guest_pk, 32);

    lobby_wire_hello(w, 0, m);
    lobby_wire_welcome(m, LOBBY_ROLE_GUEST, h.pk, 0, 7, 1, relay.pk,
                       RELAY_TIME, guest_pk);
    cr_assert_eq(lobby_wire_read(w, m, 123, &ev), 0);
    cr_assert_arr_eq(ev.welcome.relay_pk, relay.pk, 32);
    cr_assert_eq(proto_receipt_hash((const uint8_t *)"e2e4", 4, hash), 0);
    cr_assert_eq(proto_receipt_sign(&r, h.pk, hash, &relay), 0);
    size_t n = lobby_wire_frame_header(msg, LOBBY_ROLE_HOST, &r);
    cr_assert_eq(n, 90);
    memcpy(msg + n, "e2e4", 4);
    cr_assert_eq(lobby_wire_read(w, msg, n + 4, &ev), 0);
    cr_assert_eq(ev.kind, LOBBY_WIRE_FRAME);
    /* (a FRAME's receipt names no guest: its reader fills the room's) */
    memcpy(ev.receipt.guest, guest_pk, 32);
    cr_assert_eq(proto_receipt_verify(&ev.receipt, h.pk, hash), 0);
    cr_assert_eq(ev.receipt.time_ms, RELAY_TIME + 5);
    /* the same receipt as an ACK */
    cr_assert_eq(lobby_wire_ack(msg, &r), 89);
    cr_assert_eq(lobby_wire_read(w, msg, 89, &ev), 0);
    cr_assert_eq(ev.kind, LOBBY_WIRE_ACK);
    memcpy(ev.receipt.guest, guest_pk, 32);
    cr_assert_eq(proto_receipt_verify(&ev.receipt, h.pk, hash), 0);
    /* for another guest (a stand-in seated in another room) it does not */
    ev.receipt.guest[0] ^= 1;
    cr_assert_eq(proto_receipt_verify(&ev.receipt, h.pk, hash),
                 TB_E_SIGNATURE);
    /* a PRESENCE receipt: the host left after frame 7 */
    Proto_Receipt p = {.kind = PROTO_RECEIPT_PRESENCE,
                       .seq = 7,
                       .time_ms = RELAY_TIME + 9,
                       .seat = 0,
                       .present = 0};
    memcpy(p.guest, guest_pk, 32);
    cr_assert_eq(proto_receipt_sign(&p, h.pk, NULL, &relay), 0);
    cr_assert_eq(lobby_wire_presence(msg, &p), 123);
    cr_assert_eq(lobby_wire_read(w, msg, 123, &ev), 0);
    cr_assert_eq(ev.kind, LOBBY_WIRE_PRESENCE);
    cr_assert_eq(proto_receipt_verify(&ev.receipt, h.pk, NULL), 0);
    /* one bit of its time changed on the way: it no longer verifies */
    msg[50] ^= 1;
    cr_assert_eq(lobby_wire_read(w, msg, 123, &ev), 0);
    cr_assert_eq(proto_receipt_verify(&ev.receipt, h.pk, NULL), TB_E_SIGNATURE);
    lobby_wire_free(w);
}

Test(lobby_wire, refusals_become_their_codes)
{
    static const struct {
        uint8_t wire;
        int code;
    } table[] = {{3, TB_E_CODE}, {4, TB_E_RATE}, {5, TB_E_FULL},
                 {6, TB_E_SEAT}, {7, TB_E_LIMIT}, {8, TB_E_WATCH_CODE},
                 {10, TB_E_REPLACED},
                 {11, TB_E_ADDRESS}, {12, TB_E_LIMIT}, {200, TB_E_FORMAT}};
    Proto_Identity h = key(1);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        Lobby_Code code;
        Lobby_Wire *w = guest(&h, &code);
        Lobby_Wire_Event ev;
        uint8_t m[LOBBY_WIRE_HELLO_MAX], msg[2] = {0x85, table[i].wire};
        lobby_wire_hello(w, 0, m);
        cr_assert_eq(lobby_wire_read(w, msg, 2, &ev), 0);
        cr_assert_eq(ev.kind, LOBBY_WIRE_REFUSED);
        cr_assert_eq(ev.reason, table[i].code, "error %u", table[i].wire);
        lobby_wire_free(w);
    }
}

/* The relay's side: each message built by the builders equals the bytes
 * laid out here from docs/protocol-lobby.md, and a client's hello reads
 * back as it was written. */
Test(lobby_wire, the_relays_messages_are_the_protocols_bytes, .init = setup)
{
    Proto_Identity host = key(7);
    uint8_t got[128], want[128];
    size_t n = lobby_wire_welcome(got, LOBBY_ROLE_GUEST, host.pk, 3, 9, 3,
                                  relay_pk, RELAY_TIME, guest_pk);
    cr_expect_eq(n, welcome(want, LOBBY_ROLE_GUEST, host.pk, 3, 9, 3));
    cr_expect_arr_eq(got, want, n);
    /* ACK 0x83 seq tail; PRESENCE 0x84 seat present seq tail;
     * FRAME 0x82 seq from tail (tail: time, absences, sig) */
    Proto_Receipt r = {.kind = PROTO_RECEIPT_FRAME,
                       .seq = 0x0102,
                       .time_ms = 0x0a0b,
                       .absent_ms = {ABSENT_HOST, ABSENT_GUEST}};
    memset(r.sig, 0x5c, 64);
    memset(want, 0, sizeof want);
    want[0] = 0x83;
    want[7] = 0x01;
    want[8] = 0x02;
    tail(want + 9, 0x0a0b, 0x5c);
    cr_expect_eq(lobby_wire_ack(got, &r), 89);
    cr_expect_arr_eq(got, want, 89);
    r.kind = PROTO_RECEIPT_PRESENCE;
    r.seat = 1;
    r.present = 0;
    memcpy(r.guest, guest_pk, 32);
    memset(want, 0, sizeof want);
    want[0] = 0x84;
    want[1] = 1;
    want[2] = 0;
    be64(want + 3, 0x0102);
    memcpy(want + 11, guest_pk, 32);
    tail(want + 43, 0x0a0b, 0x5c);
    cr_expect_eq(lobby_wire_presence(got, &r), 123);
    cr_expect_arr_eq(got, want, 123);
    r.kind = PROTO_RECEIPT_FRAME;
    r.seq = 5;
    memset(want, 0, sizeof want);
    want[0] = 0x82;
    want[8] = 5;
    want[9] = 1;
    tail(want + 10, 0x0a0b, 0x5c);
    cr_expect_eq(lobby_wire_frame_header(got, 1, &r), 90);
    cr_expect_arr_eq(got, want, 90);
    /* and a kept FRAME's receipt reads back for its ACK */
    Proto_Receipt back;
    lobby_wire_frame_receipt(got, &back);
    cr_expect_eq(back.kind, PROTO_RECEIPT_FRAME);
    cr_expect_eq(back.seq, 5);
    cr_expect_eq(back.time_ms, 0x0a0b);
    cr_expect_eq(back.absent_ms[0], ABSENT_HOST);
    cr_expect_eq(back.absent_ms[1], ABSENT_GUEST);
    cr_expect_arr_eq(back.sig, r.sig, 64);
    /* ERROR 0x85 code: 3 no such code, 10 replaced, 1 anything else */
    cr_expect_eq(lobby_wire_refusal(got, TB_E_CODE), 2);
    cr_expect_eq(got[0], 0x85);
    cr_expect_eq(got[1], 3);
    lobby_wire_refusal(got, TB_E_REPLACED);
    cr_expect_eq(got[1], 10);
    lobby_wire_refusal(got, TB_E_NOMEM);
    cr_expect_eq(got[1], 1);
}

Test(lobby_wire, a_hello_reads_back_as_it_was_written, .init = setup)
{
    Proto_Identity host = key(9);
    Lobby_Code code;
    Lobby_Wire *w = guest(&host, &code);
    Lobby_Wire_Hello h;
    uint8_t m[LOBBY_WIRE_HELLO_MAX];
    size_t n = lobby_wire_hello(w, 77, m);
    cr_assert_eq(lobby_wire_hello_read(m, n, &h), 0);
    cr_expect_eq(h.role, LOBBY_ROLE_GUEST);
    cr_expect_eq(h.version, 4);
    Proto_Identity g = key(2);
    cr_expect_arr_eq(h.player_pk, g.pk, 32);
    cr_expect_arr_eq(h.lookup, code.lookup, LOBBY_LOOKUP_BYTES);
    for (int k = 0; k < LOBBY_SEAT_SECRET_BYTES; k++)
        cr_expect_eq(h.seat_secret[k], 0x5a);
    cr_expect_eq(h.from_seq, 77);
    cr_expect_eq(lobby_wire_hello_read(m, n - 1, &h), TB_E_FORMAT);
    /* a proof of another key, or one whose key was swapped, or a byte
     * of it flipped, is no proof; the number asked after is outside it */
    m[34] ^= 1;
    cr_expect_eq(lobby_wire_hello_read(m, n, &h), TB_E_SIGNATURE);
    m[34] ^= 1;
    m[70] ^= 1;
    cr_expect_eq(lobby_wire_hello_read(m, n, &h), TB_E_SIGNATURE);
    m[70] ^= 1;
    m[n - 1] ^= 1;
    cr_expect_eq(lobby_wire_hello_read(m, n, &h), 0);
    m[1] = 3; /* another version: version 3's hello */
    cr_expect_eq(lobby_wire_hello_read(m, n, &h), TB_E_VERSION);
    m[0] = 0x04; /* DATA is no hello */
    cr_expect_eq(lobby_wire_hello_read(m, n, &h), TB_E_FORMAT);
    lobby_wire_free(w);
}
