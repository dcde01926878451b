/*
 * test_envelope.c: signed envelopes and frames. Round trips of every kind;
 * a flipped bit anywhere, a third key's signature, non-canonical msgpack
 * (built here by hand, byte by byte, and signed with libsodium directly so
 * that only the canonical check can refuse it), unknown versions and kinds;
 * and every hard limit: frame length, envelope size, string, binary, array
 * and map lengths, nesting depth, item count and the per-field caps.
 */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "match_util.h"
#include "proto.h"

/* ---- a hand msgpack writer, independent of proto/wire.c -------------- */

typedef struct Hand {
    uint8_t b[PROTO_FRAME_MAX + 64];
    size_t n;
} Hand;

static Hand H1, H2; /* payload, envelope (too big for the stack) */

static void h_byte(Hand *h, uint8_t v)
{
    h->b[h->n++] = v;
}

static void h_bytes(Hand *h, const void *p, size_t n)
{
    memcpy(h->b + h->n, p, n);
    h->n += n;
}

static void h_be(Hand *h, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--)
        h_byte(h, (uint8_t)(v >> (8 * i)));
}

/* Smallest forms, written from the msgpack spec. */
static void h_uint(Hand *h, uint64_t v)
{
    if (v < 128)
        h_byte(h, (uint8_t)v);
    else if (v < 256)
        h_byte(h, 0xcc), h_be(h, v, 1);
    else if (v < 65536)
        h_byte(h, 0xcd), h_be(h, v, 2);
    else if (v <= 0xffffffffu)
        h_byte(h, 0xce), h_be(h, v, 4);
    else
        h_byte(h, 0xcf), h_be(h, v, 8);
}

static void h_bin(Hand *h, const void *p, size_t n)
{
    if (n < 256)
        h_byte(h, 0xc4), h_be(h, n, 1);
    else if (n < 65536)
        h_byte(h, 0xc5), h_be(h, n, 2);
    else
        h_byte(h, 0xc6), h_be(h, n, 4);
    h_bytes(h, p, n);
}

static void h_str(Hand *h, const char *s, size_t n)
{
    if (n < 32)
        h_byte(h, (uint8_t)(0xa0 | n));
    else if (n < 256)
        h_byte(h, 0xd9), h_be(h, n, 1);
    else
        h_byte(h, 0xda), h_be(h, n, 2);
    h_bytes(h, s, n);
}

static const uint8_t MATCH[PROTO_MATCH_ID_BYTES] = {7, 7, 7, 7, 7, 7, 7, 7,
                                                    7, 7, 7, 7, 7, 7, 7, 7};
static const uint8_t ZERO[PROTO_HASH_BYTES];

/* The payload's fields before the body, canonical. */
static void h_head(Hand *h, uint64_t version, uint64_t kind,
                   const Proto_Identity *id)
{
    h->n = 0;
    h_byte(h, 0x97);
    h_uint(h, version);
    h_uint(h, kind);
    h_bin(h, MATCH, sizeof MATCH);
    h_uint(h, 0);
    h_bin(h, ZERO, sizeof ZERO);
    h_bin(h, id->pk, PROTO_KEY_BYTES);
}

/* Wrap payload H1 in an envelope signed by signer; open it. */
static int open_hand(const Proto_Identity *signer, Proto_Envelope *e)
{
    uint8_t sig[PROTO_SIG_BYTES];
    crypto_sign_detached(sig, NULL, H1.b, H1.n, signer->sk);
    H2.n = 0;
    h_byte(&H2, 0x92);
    h_bin(&H2, H1.b, H1.n);
    h_bin(&H2, sig, sizeof sig);
    return proto_open(H2.b, H2.n, e, NULL, 0);
}

static Proto_Envelope E; /* static: large */

/* ---- round trips ----------------------------------------------------- */

static void seal_open(const Proto_Identity *id, Proto_Message *m)
{
    static uint8_t frame[FRAME_CAP];
    uint8_t hash[PROTO_HASH_BYTES], mine[PROTO_HASH_BYTES];
    size_t len = 0, plen, hl;
    char why[200];

    cr_assert_eq(proto_seal(m, id, frame, sizeof frame, &len, hash), 0);
    /* Prefix, then [bin payload, bin signature]. */
    cr_assert_eq(((size_t)frame[0] << 24 | (size_t)frame[1] << 16 |
                  (size_t)frame[2] << 8 | frame[3]),
                 len - 4);
    cr_assert_eq(frame[4], 0x92);
    if (frame[5] == 0xc4)
        plen = frame[6], hl = 2;
    else if (frame[5] == 0xc5)
        plen = (size_t)frame[6] << 8 | frame[7], hl = 3;
    else
        plen = (size_t)frame[6] << 24 | (size_t)frame[7] << 16 |
               (size_t)frame[8] << 8 | frame[9],
        hl = 5;
    crypto_generichash(mine, sizeof mine, frame + 5 + hl, plen, NULL, 0);
    cr_assert_arr_eq(hash, mine, sizeof mine);
    cr_assert_eq(crypto_sign_verify_detached(frame + len - 64, frame + 5 + hl,
                                             plen, id->pk),
                 0);
    cr_assert_eq(proto_open(frame + 4, len - 4, &E, why, sizeof why), 0, "%s",
                 why);
    cr_assert_arr_eq(E.hash, mine, sizeof mine);
}

Test(envelope, every_kind_round_trips)
{
    Proto_Identity a = ident(1), b = ident(2);
    Proto_Message m;
    static uint8_t state[300];

    for (int k = 1; k < PROTO_KIND_COUNT_; k++) {
        proto_message_init(&m, (Proto_Kind)k, &a);
        memset(m.match_id, 0x5a, sizeof m.match_id);
        m.seq = 70000 + (uint32_t)k;
        memset(m.prev, 0xa5, sizeof m.prev);
        switch (k) {
        case PROTO_KIND_HELLO:
            snprintf(m.body.hello.software, sizeof m.body.hello.software,
                     "tabula/0.1");
            memset(m.body.hello.nonce, 3, PROTO_NONCE_BYTES);
            memset(m.body.hello.echo, 4, PROTO_NONCE_BYTES);
            m.body.hello.has_echo = 1;
            break;
        case PROTO_KIND_MATCH_START:
            snprintf(m.body.start.game, sizeof m.body.start.game, "laska");
            snprintf(m.body.start.options, sizeof m.body.start.options,
                     "a=1,b=2");
            memcpy(m.body.start.white, a.pk, PROTO_KEY_BYTES);
            memcpy(m.body.start.black, b.pk, PROTO_KEY_BYTES);
            m.body.start.started = 1800000000123ull;
            break;
        case PROTO_KIND_MOVE:
            m.body.move.ply = 300;
            snprintf(m.body.move.move, sizeof m.body.move.move, "b2xd4xf6");
            memset(m.body.move.hash, 9, PROTO_HASH_BYTES);
            break;
        case PROTO_KIND_STATE_CHECK:
            m.body.check.ply = 12;
            memset(m.body.check.hash, 8, PROTO_HASH_BYTES);
            break;
        case PROTO_KIND_DESYNC:
            for (size_t i = 0; i < sizeof state; i++)
                state[i] = (uint8_t)i;
            m.body.desync.ply = 5;
            m.body.desync.state = state;
            m.body.desync.state_len = sizeof state;
            break;
        case PROTO_KIND_TAKEBACK_REQUEST:
        case PROTO_KIND_TAKEBACK_ACCEPT:
            m.body.takeback.plies = 2;
            break;
        case PROTO_KIND_CHAT:
        case PROTO_KIND_BYE:
            snprintf(m.body.text.text, sizeof m.body.text.text,
                     "h\xc3\xa9llo \xe2\x99\x9e");
            break;
        }
        seal_open(&a, &m);
        cr_assert_eq(E.msg.kind, k);
        cr_assert_eq(E.msg.version, PROTO_VERSION);
        cr_assert_eq(E.msg.seq, m.seq);
        cr_assert_arr_eq(E.msg.match_id, m.match_id, sizeof m.match_id);
        cr_assert_arr_eq(E.msg.prev, m.prev, sizeof m.prev);
        cr_assert_arr_eq(E.msg.sender, a.pk, PROTO_KEY_BYTES);
        if (k == PROTO_KIND_DESYNC) {
            cr_assert_eq(E.msg.body.desync.state_len, sizeof state);
            cr_assert_arr_eq(E.msg.body.desync.state, state, sizeof state);
            cr_assert_eq(E.msg.body.desync.ply, 5);
        } else {
            cr_assert_arr_eq(&E.msg.body, &m.body, sizeof m.body, "kind %s",
                             proto_kind_name(k));
        }
    }
}

Test(envelope, longest_fields_round_trip)
{
    Proto_Identity a = ident(1);
    static Proto_Message m;
    proto_message_init(&m, PROTO_KIND_CHAT, &a);
    memset(m.body.text.text, 'x', PROTO_TEXT_MAX);
    m.body.text.text[PROTO_TEXT_MAX] = '\0';
    seal_open(&a, &m);
    cr_assert_eq(strlen(E.msg.body.text.text), PROTO_TEXT_MAX);

    static uint8_t state[PROTO_STATE_MAX];
    proto_message_init(&m, PROTO_KIND_DESYNC, &a);
    m.body.desync.state = state;
    m.body.desync.state_len = sizeof state;
    seal_open(&a, &m);
    cr_assert_eq(E.msg.body.desync.state_len, PROTO_STATE_MAX);
}

Test(envelope, seal_refuses_bad_fields)
{
    Proto_Identity a = ident(1), b = ident(2);
    static uint8_t frame[FRAME_CAP];
    Proto_Message m;
    size_t len;

    proto_message_init(&m, PROTO_KIND_CHAT, &a);
    cr_assert_eq(proto_seal(&m, &b, frame, sizeof frame, &len, NULL),
                 TB_E_ARG); /* sender is not the signer */
    snprintf(m.body.text.text, sizeof m.body.text.text, "bell\a");
    cr_assert_eq(proto_seal(&m, &a, frame, sizeof frame, &len, NULL),
                 TB_E_FORMAT);
    snprintf(m.body.text.text, sizeof m.body.text.text, "\xc0\xaf");
    cr_assert_eq(proto_seal(&m, &a, frame, sizeof frame, &len, NULL),
                 TB_E_FORMAT); /* overlong UTF-8 */
    proto_message_init(&m, PROTO_KIND_MOVE, &a);
    const char *bad_moves[] = {"c3  d4", " c3", "c3 ", "c3\td4", "c3\xe9"};
    for (size_t i = 0; i < 5; i++) {
        snprintf(m.body.move.move, sizeof m.body.move.move, "%s", bad_moves[i]);
        cr_assert_eq(proto_seal(&m, &a, frame, sizeof frame, &len, NULL),
                     TB_E_FORMAT, "%s", bad_moves[i]);
    }
    snprintf(m.body.move.move, sizeof m.body.move.move, "S Bc3-d2>g5");
    cr_assert_eq(proto_seal(&m, &a, frame, sizeof frame, &len, NULL), 0);
    proto_message_init(&m, PROTO_KIND_MATCH_START, &a);
    memset(m.body.start.game, 'a', sizeof m.body.start.game);
    cr_assert_eq(proto_seal(&m, &a, frame, sizeof frame, &len, NULL),
                 TB_E_FORMAT); /* 33 bytes without a NUL */
    proto_message_init(&m, PROTO_KIND_TAKEBACK_REQUEST, &a);
    cr_assert_eq(proto_seal(&m, &a, frame, sizeof frame, &len, NULL),
                 TB_E_FORMAT); /* 0 plies */
    proto_message_init(&m, (Proto_Kind)42, &a);
    cr_assert_eq(proto_seal(&m, &a, frame, sizeof frame, &len, NULL),
                 TB_E_KIND);
    proto_message_init(&m, PROTO_KIND_RESIGN, &a);
    cr_assert_eq(proto_seal(&m, &a, frame, 40, &len, NULL), TB_E_SPACE);
}

/* ---- tampering ------------------------------------------------------- */

Test(envelope, every_flipped_bit_is_rejected)
{
    Proto_Identity a = ident(1);
    static uint8_t frame[FRAME_CAP];
    Proto_Message m;
    size_t len;

    proto_message_init(&m, PROTO_KIND_MOVE, &a);
    m.body.move.ply = 3;
    snprintf(m.body.move.move, sizeof m.body.move.move, "c3-d4");
    cr_assert_eq(proto_seal(&m, &a, frame, sizeof frame, &len, NULL), 0);
    uint8_t *env = frame + PROTO_FRAME_PREFIX;
    size_t elen = len - PROTO_FRAME_PREFIX;
    for (size_t bit = 0; bit < 8 * elen; bit++) {
        env[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        cr_assert_neq(proto_open(env, elen, &E, NULL, 0), 0, "bit %zu", bit);
        env[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    cr_assert_eq(proto_open(env, elen, &E, NULL, 0), 0);
}

Test(envelope, third_key_signature_is_rejected)
{
    Proto_Identity a = ident(1), c = ident(3);
    Proto_Envelope *e = &E;
    h_head(&H1, 1, PROTO_KIND_DRAW_OFFER, &a);
    h_byte(&H1, 0x90);
    cr_assert_eq(open_hand(&a, e), 0); /* the hand encoding is canonical */
    cr_assert_eq(e->msg.kind, PROTO_KIND_DRAW_OFFER);
    cr_assert_eq(open_hand(&c, e), TB_E_SIGNATURE);
}

Test(envelope, non_canonical_forms_are_rejected)
{
    Proto_Identity a = ident(1);
    char why[200];
    uint8_t sig[PROTO_SIG_BYTES];

    /* version 1 as uint8 */
    H1.n = 0;
    h_byte(&H1, 0x97);
    h_byte(&H1, 0xcc), h_byte(&H1, 1);
    h_uint(&H1, PROTO_KIND_RESIGN);
    h_bin(&H1, MATCH, sizeof MATCH);
    h_uint(&H1, 0);
    h_bin(&H1, ZERO, sizeof ZERO);
    h_bin(&H1, a.pk, PROTO_KEY_BYTES);
    h_byte(&H1, 0x90);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);

    /* seq 0 as uint16 */
    H1.n = 0;
    h_byte(&H1, 0x97);
    h_uint(&H1, 1);
    h_uint(&H1, PROTO_KIND_RESIGN);
    h_bin(&H1, MATCH, sizeof MATCH);
    h_byte(&H1, 0xcd), h_be(&H1, 0, 2);
    h_bin(&H1, ZERO, sizeof ZERO);
    h_bin(&H1, a.pk, PROTO_KEY_BYTES);
    h_byte(&H1, 0x90);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);

    /* an empty body as array16 */
    h_head(&H1, 1, PROTO_KIND_RESIGN, &a);
    h_byte(&H1, 0xdc), h_be(&H1, 0, 2);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);

    /* chat text as str8 though shorter than 32 */
    h_head(&H1, 1, PROTO_KIND_CHAT, &a);
    h_byte(&H1, 0x91);
    h_byte(&H1, 0xd9), h_be(&H1, 2, 1), h_bytes(&H1, "hi", 2);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);
    /* the same canonically is fine */
    h_head(&H1, 1, PROTO_KIND_CHAT, &a);
    h_byte(&H1, 0x91);
    h_str(&H1, "hi", 2);
    cr_assert_eq(open_hand(&a, &E), 0);
    cr_assert_str_eq(E.msg.body.text.text, "hi");

    /* a signed int for a small positive number */
    h_head(&H1, 1, PROTO_KIND_TAKEBACK_REQUEST, &a);
    h_byte(&H1, 0x91);
    h_byte(&H1, 0xd0), h_byte(&H1, 1);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);

    /* the payload inside the envelope as bin16 */
    h_head(&H1, 1, PROTO_KIND_RESIGN, &a);
    h_byte(&H1, 0x90);
    crypto_sign_detached(sig, NULL, H1.b, H1.n, a.sk);
    H2.n = 0;
    h_byte(&H2, 0x92);
    h_byte(&H2, 0xc5), h_be(&H2, H1.n, 2), h_bytes(&H2, H1.b, H1.n);
    h_bin(&H2, sig, sizeof sig);
    cr_assert_eq(proto_open(H2.b, H2.n, &E, why, sizeof why), TB_E_FORMAT);
    /* trailing bytes after the envelope */
    H2.n = 0;
    h_byte(&H2, 0x92);
    h_bin(&H2, H1.b, H1.n);
    h_bin(&H2, sig, sizeof sig);
    cr_assert_eq(proto_open(H2.b, H2.n, &E, NULL, 0), 0);
    h_byte(&H2, 0xc0);
    cr_assert_eq(proto_open(H2.b, H2.n, &E, NULL, 0), TB_E_FORMAT);
}

Test(envelope, unknown_versions_and_kinds_are_rejected)
{
    Proto_Identity a = ident(1);
    char why[200];

    h_head(&H1, 2, PROTO_KIND_RESIGN, &a);
    h_byte(&H1, 0x90);
    open_hand(&a, &E);
    cr_assert_eq(proto_open(H2.b, H2.n, &E, why, sizeof why), TB_E_VERSION);
    cr_assert(strstr(why, "version 2") != NULL, "%s", why);
    h_head(&H1, 0, PROTO_KIND_RESIGN, &a);
    h_byte(&H1, 0x90);
    cr_assert_eq(open_hand(&a, &E), TB_E_VERSION);
    const uint64_t kinds[] = {0, PROTO_KIND_COUNT_, 99, 255};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        h_head(&H1, 1, kinds[i], &a);
        h_byte(&H1, 0x90);
        open_hand(&a, &E);
        cr_assert_eq(proto_open(H2.b, H2.n, &E, why, sizeof why), TB_E_KIND);
        cr_assert(strstr(why, "unknown message kind") != NULL, "%s", why);
    }
    /* a kind over 255 is over the field's cap */
    h_head(&H1, 1, 256, &a);
    h_byte(&H1, 0x90);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT);
    cr_assert_str_eq(proto_kind_name(99), "unknown");
    cr_assert_str_eq(proto_kind_name(PROTO_KIND_MOVE), "move");
}

Test(envelope, body_shape_is_checked)
{
    Proto_Identity a = ident(1);
    /* resign with a body element */
    h_head(&H1, 1, PROTO_KIND_RESIGN, &a);
    h_byte(&H1, 0x91), h_uint(&H1, 1);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);
    /* move with a short hash */
    h_head(&H1, 1, PROTO_KIND_MOVE, &a);
    h_byte(&H1, 0x93), h_uint(&H1, 1), h_str(&H1, "+1", 2);
    h_bin(&H1, ZERO, 31);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);
    /* takeback of 0 plies */
    h_head(&H1, 1, PROTO_KIND_TAKEBACK_ACCEPT, &a);
    h_byte(&H1, 0x91), h_uint(&H1, 0);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);
    /* a NUL inside a chat string */
    h_head(&H1, 1, PROTO_KIND_CHAT, &a);
    h_byte(&H1, 0x91), h_str(&H1, "a\0b", 3);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);
    /* a float where the ply goes */
    h_head(&H1, 1, PROTO_KIND_STATE_CHECK, &a);
    h_byte(&H1, 0x92), h_byte(&H1, 0xca), h_be(&H1, 0, 4);
    h_bin(&H1, ZERO, 32);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);
}

Test(envelope, clock_readings_flag_and_claim_shapes)
{
    Proto_Identity a = ident(1);
    Proto_Message m;
    /* A move with its two clock readings round-trips. */
    proto_message_init(&m, PROTO_KIND_MOVE, &a);
    m.body.move.ply = 7;
    snprintf(m.body.move.move, sizeof m.body.move.move, "c3-d4");
    m.body.move.has_clock = 1;
    m.body.move.own_ms = 299999;
    m.body.move.opp_ms = 4000000000u;
    seal_open(&a, &m);
    cr_assert_eq(E.msg.body.move.has_clock, 1);
    cr_assert_eq(E.msg.body.move.own_ms, 299999);
    cr_assert_eq(E.msg.body.move.opp_ms, 4000000000u);
    /* One reading only (four elements) or six: refused. */
    h_head(&H1, 1, PROTO_KIND_MOVE, &a);
    h_byte(&H1, 0x94), h_uint(&H1, 1), h_str(&H1, "c3-d4", 5);
    h_bin(&H1, ZERO, 32), h_uint(&H1, 5);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);
    h_head(&H1, 1, PROTO_KIND_MOVE, &a);
    h_byte(&H1, 0x96), h_uint(&H1, 1), h_str(&H1, "c3-d4", 5);
    h_bin(&H1, ZERO, 32), h_uint(&H1, 5), h_uint(&H1, 5), h_uint(&H1, 5);
    cr_assert_neq(open_hand(&a, &E), 0); /* over the body's 5 elements */
    /* A flag: [ply, elapsed]. */
    h_head(&H1, 1, PROTO_KIND_FLAG, &a);
    h_byte(&H1, 0x92), h_uint(&H1, 3), h_uint(&H1, 2500);
    cr_assert_eq(open_hand(&a, &E), 0);
    cr_assert_eq(E.msg.body.flag.ply, 3);
    cr_assert_eq(E.msg.body.flag.elapsed, 2500);
    h_head(&H1, 1, PROTO_KIND_FLAG, &a);
    h_byte(&H1, 0x91), h_uint(&H1, 3);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);
    /* A claim is 0 (win) or 1 (draw). */
    h_head(&H1, 1, PROTO_KIND_CLAIM, &a);
    h_byte(&H1, 0x91), h_uint(&H1, 1);
    cr_assert_eq(open_hand(&a, &E), 0);
    cr_assert_eq(E.msg.body.claim.what, PROTO_CLAIM_DRAW);
    h_head(&H1, 1, PROTO_KIND_CLAIM, &a);
    h_byte(&H1, 0x91), h_uint(&H1, 2);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT); /* over its cap, 1 */
    proto_message_init(&m, PROTO_KIND_CLAIM, &a);
    m.body.claim.what = 2;
    static uint8_t frame[FRAME_CAP];
    size_t len = 0;
    cr_assert_eq(proto_seal(&m, &a, frame, sizeof frame, &len, NULL),
                 TB_E_FORMAT);
}

/* ---- limits ---------------------------------------------------------- */

Test(limits, frame_length_is_capped)
{
    uint8_t buf[8] = {0, 0, 0, 0, 0x92, 0, 0, 0};
    const uint8_t *env;
    size_t elen, used;

    cr_assert_eq(proto_frame_next(buf, 3, &env, &elen, &used), TB_E_TRUNCATED);
    cr_assert_eq(proto_frame_next(buf, 8, &env, &elen, &used), TB_E_LIMIT);
    uint32_t over = PROTO_FRAME_MAX + 1;
    buf[0] = (uint8_t)(over >> 24), buf[1] = (uint8_t)(over >> 16);
    buf[2] = (uint8_t)(over >> 8), buf[3] = (uint8_t)over;
    cr_assert_eq(proto_frame_next(buf, 8, &env, &elen, &used), TB_E_LIMIT);
    memset(buf, 0xff, 4);
    cr_assert_eq(proto_frame_next(buf, 8, &env, &elen, &used), TB_E_LIMIT);
    buf[0] = 0, buf[1] = 0, buf[2] = 0, buf[3] = 4;
    cr_assert_eq(proto_frame_next(buf, 7, &env, &elen, &used), TB_E_TRUNCATED);
    cr_assert_eq(proto_frame_next(buf, 8, &env, &elen, &used), 0);
    cr_assert_eq(elen, 4);
    cr_assert_eq(used, 8);
    cr_assert_eq(env, buf + 4);
}

Test(limits, envelope_size_is_capped)
{
    static uint8_t big[PROTO_FRAME_MAX + 1];
    cr_assert_eq(proto_open(big, sizeof big, &E, NULL, 0), TB_E_LIMIT);
}

/* Open raw envelope bytes. */
static int open_raw(const uint8_t *p, size_t n)
{
    return proto_open(p, n, &E, NULL, 0);
}

Test(limits, hostile_lengths_are_refused_before_decoding)
{
    /* Five bytes asking for 4 GiB of binary, string or array slots. */
    const uint8_t bin32[] = {0x92, 0xc6, 0xff, 0xff, 0xff, 0xff};
    const uint8_t str32[] = {0x92, 0xdb, 0xff, 0xff, 0xff, 0xff};
    const uint8_t arr32[] = {0xdd, 0xff, 0xff, 0xff, 0xff};
    const uint8_t map32[] = {0xdf, 0xff, 0xff, 0xff, 0xff};
    const uint8_t arr16[] = {0xdc, 0xff, 0xff};
    cr_assert_eq(open_raw(bin32, sizeof bin32), TB_E_LIMIT);
    cr_assert_eq(open_raw(str32, sizeof str32), TB_E_LIMIT);
    cr_assert_eq(open_raw(arr32, sizeof arr32), TB_E_LIMIT);
    cr_assert_eq(open_raw(map32, sizeof map32), TB_E_LIMIT);
    cr_assert_eq(open_raw(arr16, sizeof arr16), TB_E_LIMIT);
    /* Lengths under the caps but past the bytes present. */
    const uint8_t short_bin[] = {0x92, 0xc4, 0x10, 1, 2};
    const uint8_t short_arr[] = {0x9f, 1, 2};
    cr_assert_eq(open_raw(short_bin, sizeof short_bin), TB_E_FORMAT);
    cr_assert_eq(open_raw(short_arr, sizeof short_arr), TB_E_FORMAT);
    cr_assert_eq(open_raw(short_arr, 0), TB_E_FORMAT);
    /* found by fuzz_envelope: an empty string in the canonical check */
    const uint8_t empty_str[] = {0x92, 0xc3, 0xa0};
    cr_assert_eq(open_raw(empty_str, sizeof empty_str), TB_E_FORMAT);
}

Test(limits, arrays_maps_depth_and_items_are_capped)
{
    uint8_t b[256];
    size_t n = 0;

    /* 17 elements */
    b[n++] = 0xdc, b[n++] = 0, b[n++] = 17;
    for (int i = 0; i < 17; i++)
        b[n++] = 0;
    cr_assert_eq(open_raw(b, n), TB_E_LIMIT);
    /* 16 elements pass the walk and fail the layout */
    n = 0;
    b[n++] = 0xdc, b[n++] = 0, b[n++] = 16;
    for (int i = 0; i < 16; i++)
        b[n++] = 0;
    cr_assert_eq(open_raw(b, n), TB_E_FORMAT);
    /* any map, even a small one */
    const uint8_t map[] = {0x92, 0x81, 0x01, 0x02, 0x00};
    cr_assert_eq(open_raw(map, sizeof map), TB_E_LIMIT);
    const uint8_t map16[] = {0x92, 0xde, 0x00, 0x00, 0x00};
    cr_assert_eq(open_raw(map16, sizeof map16), TB_E_LIMIT);
    /* nesting: 4 arrays deep is the cap, 5 is over */
    const uint8_t deep4[] = {0x91, 0x91, 0x91, 0x91, 0x00};
    const uint8_t deep5[] = {0x91, 0x91, 0x91, 0x91, 0x91, 0x00};
    cr_assert_eq(open_raw(deep4, sizeof deep4), TB_E_FORMAT);
    cr_assert_eq(open_raw(deep5, sizeof deep5), TB_E_LIMIT);
    /* items: 1 + 13 arrays of 4 = 66 > 64 */
    n = 0;
    b[n++] = 0x9d;
    for (int i = 0; i < 13; i++) {
        b[n++] = 0x94;
        for (int j = 0; j < 4; j++)
            b[n++] = 0;
    }
    cr_assert_eq(open_raw(b, n), TB_E_LIMIT);
    /* 1 + 12 arrays of 4 = 61 items: within the cap */
    b[0] = 0x9c;
    cr_assert_eq(open_raw(b, n - 5), TB_E_FORMAT);
}

Test(limits, strings_and_binaries_are_capped)
{
    Proto_Identity a = ident(1);
    static char text[PROTO_STR_MAX + 2];

    /* chat text of PROTO_STR_MAX + 1 bytes: over the wire cap */
    memset(text, 'y', sizeof text);
    h_head(&H1, 1, PROTO_KIND_CHAT, &a);
    h_byte(&H1, 0x91), h_str(&H1, text, PROTO_STR_MAX + 1);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT);
    h_head(&H1, 1, PROTO_KIND_CHAT, &a);
    h_byte(&H1, 0x91), h_str(&H1, text, PROTO_STR_MAX);
    cr_assert_eq(open_hand(&a, &E), 0);
    /* game name of PROTO_NAME_MAX + 1 */
    h_head(&H1, 1, PROTO_KIND_MATCH_START, &a);
    h_byte(&H1, 0x95);
    h_str(&H1, "abcdefghijklmnopqrstuvwxyzabcdefg", PROTO_NAME_MAX + 1);
    h_str(&H1, "", 0);
    h_bin(&H1, a.pk, 32), h_bin(&H1, a.pk, 32), h_uint(&H1, 0);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT);
    /* options of PROTO_OPTIONS_MAX + 1 */
    h_head(&H1, 1, PROTO_KIND_MATCH_START, &a);
    h_byte(&H1, 0x95);
    h_str(&H1, "race", 4);
    h_str(&H1, text, PROTO_OPTIONS_MAX + 1);
    h_bin(&H1, a.pk, 32), h_bin(&H1, a.pk, 32), h_uint(&H1, 0);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT);
    /* move notation of CORE_NOTATION_MAX bytes (NUL would not fit) */
    h_head(&H1, 1, PROTO_KIND_MOVE, &a);
    h_byte(&H1, 0x93), h_uint(&H1, 1);
    h_str(&H1, text, CORE_NOTATION_MAX);
    h_bin(&H1, ZERO, 32);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT);
    /* a desync state of PROTO_STATE_MAX + 1 bytes */
    static uint8_t state[PROTO_STATE_MAX + 1];
    h_head(&H1, 1, PROTO_KIND_DESYNC, &a);
    h_byte(&H1, 0x92), h_uint(&H1, 1);
    h_bin(&H1, state, sizeof state);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT);
    /* a 65-byte signature, a 17-byte match id */
    h_head(&H1, 1, PROTO_KIND_RESIGN, &a);
    h_byte(&H1, 0x90);
    uint8_t sig[65] = {0};
    H2.n = 0;
    h_byte(&H2, 0x92), h_bin(&H2, H1.b, H1.n), h_bin(&H2, sig, 65);
    cr_assert_eq(open_raw(H2.b, H2.n), TB_E_LIMIT);
    H1.n = 0;
    h_byte(&H1, 0x97), h_uint(&H1, 1), h_uint(&H1, PROTO_KIND_RESIGN);
    h_bin(&H1, state, 17);
    h_uint(&H1, 0), h_bin(&H1, ZERO, 32), h_bin(&H1, a.pk, 32);
    h_byte(&H1, 0x90);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT);
}

Test(limits, integers_are_capped)
{
    Proto_Identity a = ident(1);
    /* seq over 32 bits */
    H1.n = 0;
    h_byte(&H1, 0x97), h_uint(&H1, 1), h_uint(&H1, PROTO_KIND_RESIGN);
    h_bin(&H1, MATCH, 16);
    h_uint(&H1, 0x100000000ull);
    h_bin(&H1, ZERO, 32), h_bin(&H1, a.pk, 32);
    h_byte(&H1, 0x90);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT);
    /* takeback of 256 plies */
    h_head(&H1, 1, PROTO_KIND_TAKEBACK_REQUEST, &a);
    h_byte(&H1, 0x91), h_uint(&H1, 256);
    cr_assert_eq(open_hand(&a, &E), TB_E_LIMIT);
    /* a negative ply */
    h_head(&H1, 1, PROTO_KIND_STATE_CHECK, &a);
    h_byte(&H1, 0x92), h_byte(&H1, 0xff), h_bin(&H1, ZERO, 32);
    cr_assert_eq(open_hand(&a, &E), TB_E_FORMAT);
}

Test(limits, payload_size_is_capped)
{
    Proto_Identity a = ident(1);
    static uint8_t big[PROTO_PAYLOAD_MAX + 1];
    uint8_t sig[PROTO_SIG_BYTES] = {0};
    H2.n = 0;
    h_byte(&H2, 0x92), h_bin(&H2, big, sizeof big), h_bin(&H2, sig, 64);
    cr_assert_eq(open_raw(H2.b, H2.n), TB_E_LIMIT);
    (void)a;
}
