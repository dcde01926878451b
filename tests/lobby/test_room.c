/*
 * test_room.c: the relay's rooms without I/O (lobby/room.h), linked with
 * the room's library alone. Members are links that record what the rooms
 * send them; messages are laid out by hand from docs/protocol-lobby.md;
 * the time is the test's, so every wait of the room (hello timeout,
 * unjoined and empty rooms, the late RATE answer) is checked to the
 * millisecond against lobby.h's documented defaults. The relay's
 * receipts are checked against bytes laid out here and libsodium itself.
 */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "room.h"
#include "tb_error.h"

/* ---- a link that records ---- */

#define MSGS 32

typedef struct Link {
    uint8_t msg[MSGS][640];
    size_t len[MSGS];
    int n;
    int closing, flushed, reason;
    int counting;   /* count messages (total), keep only the last */
    size_t total;
    int pin;        /* each message pins its length until drained */
    size_t queued;  /* what they pin now */
} Link;

static int l_send(void *link, const uint8_t *m, size_t len)
{
    Link *l = link;
    if (l->counting) {
        l->total++;
        l->n = 0;
    }
    cr_assert_lt(l->n, MSGS);
    if (l->pin)
        l->queued += len;
    if (len > sizeof l->msg[0])
        len = sizeof l->msg[0];
    memcpy(l->msg[l->n], m, len);
    l->len[l->n++] = len;
    return 0;
}

static size_t l_queued(const void *link)
{
    return ((const Link *)link)->queued;
}

static int l_is_closing(const void *link)
{
    return ((const Link *)link)->closing;
}

static void l_close(void *link, int flush, int reason)
{
    Link *l = link;
    l->closing = 1;
    l->flushed = flush;
    l->reason = reason;
    if (!flush)
        l->queued = 0; /* what was queued is dropped */
}

static const Lobby_Link_Ops ops = {l_send, l_queued, l_is_closing, l_close, 1};

/* ---- messages by hand (docs/protocol-lobby.md) ---- */

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* The host's and the guest's key pairs (seeds 0xaa and 0xbb). */
static Proto_Identity host_id, guest_id;

/* A seat's proof at m + n of the n bytes before it by id: the signature
 * of "tabula seat 1" NUL and them, with libsodium itself. */
static void prove(uint8_t *m, size_t n, const Proto_Identity *id)
{
    uint8_t buf[14 + 200];
    memcpy(buf, "tabula seat 1", 14);
    memcpy(buf + 14, m, n);
    cr_assert_eq(crypto_sign_detached(m + n, NULL, buf, 14 + n, id->sk), 0);
}

/* CREATE: 01 04, invite lookup (16), watch lookup (16), host key (32),
 * seat secret (16), the guest named (32; zero: any), proof (64), from
 * (8): 186 bytes. Lookups are filled with one byte each; the host is
 * host_id. */
/* CREATE by the host id (its key and proof). */
static size_t create_by(uint8_t *m, const Proto_Identity *id,
                        const uint8_t inv[16], uint8_t wat, uint64_t from,
                        const uint8_t *named)
{
    m[0] = 0x01;
    m[1] = 4;
    memcpy(m + 2, inv, 16);
    memset(m + 18, wat, 16);
    memcpy(m + 34, id->pk, 32);
    memset(m + 66, 0x11, 16);
    if (named != NULL)
        memcpy(m + 82, named, 32);
    else
        memset(m + 82, 0, 32);
    prove(m, 114, id);
    put64(m + 178, from);
    return 186;
}

static size_t create_at(uint8_t *m, const uint8_t inv[16], uint8_t wat,
                        uint64_t from, const uint8_t *named)
{
    return create_by(m, &host_id, inv, wat, from, named);
}

static size_t create_naming(uint8_t *m, uint8_t inv, uint8_t wat,
                            uint64_t from, const uint8_t *named)
{
    uint8_t lookup[16];
    memset(lookup, inv, sizeof lookup);
    return create_at(m, lookup, wat, from, named);
}

static size_t create(uint8_t *m, uint8_t inv, uint8_t wat, uint64_t from)
{
    return create_naming(m, inv, wat, from, NULL);
}

/* JOIN: 02 04, lookup (16), seat secret (16), the player's key (32),
 * proof (64), from (8): 138 bytes; the player is id. */
static size_t join_at(uint8_t *m, const uint8_t inv[16], uint8_t secret,
                      uint64_t from, const Proto_Identity *id)
{
    m[0] = 0x02;
    m[1] = 4;
    memcpy(m + 2, inv, 16);
    memset(m + 18, secret, 16);
    memcpy(m + 34, id->pk, 32);
    prove(m, 66, id);
    put64(m + 130, from);
    return 138;
}

static size_t join_as(uint8_t *m, uint8_t inv, uint8_t secret, uint64_t from,
                      const Proto_Identity *id)
{
    uint8_t lookup[16];
    memset(lookup, inv, sizeof lookup);
    return join_at(m, lookup, secret, from, id);
}

/* JOIN by the guest, guest_id. */
static size_t join(uint8_t *m, uint8_t inv, uint8_t secret, uint64_t from)
{
    return join_as(m, inv, secret, from, &guest_id);
}

static Lobby_Rooms *rs;

static void setup(void)
{
    uint8_t seed[32];
    cr_assert_eq(proto_init(), 0);
    memset(seed, 0xaa, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&host_id, seed), 0);
    memset(seed, 0xbb, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&guest_id, seed), 0);
    cr_assert_eq(lobby_rooms_new(NULL, &rs), 0);
}

static void teardown(void)
{
    lobby_rooms_free(rs);
}

TestSuite(room, .init = setup, .fini = teardown);

static Lobby_Member *member(Link *l, const char *addr, uint64_t now)
{
    memset(l, 0, sizeof *l);
    Lobby_Member *m = lobby_rooms_member(rs, &ops, l, addr, now);
    cr_assert_not_null(m);
    return m;
}

/* The ERROR code of l's message k (0x85, code). */
static int error_of(const Link *l, int k)
{
    cr_assert_gt(l->n, k);
    cr_assert_eq(l->len[k], 2);
    cr_assert_eq(l->msg[k][0], 0x85);
    return l->msg[k][1];
}

/* A connection that never says hello is answered TIMEOUT (9) at
 * hello_timeout_ms [10000] after it came, not a millisecond before. */
Test(room, silent_connection_times_out_at_ten_seconds)
{
    Link l;
    Lobby_Member *m = member(&l, "192.0.2.1", 1000);
    lobby_rooms_sweep(rs, 10999);
    cr_assert_eq(l.n, 0);
    cr_assert_eq(l.closing, 0);
    lobby_rooms_sweep(rs, 11000);
    cr_assert_eq(error_of(&l, 0), 9);
    cr_assert(l.closing && l.flushed, "closed after the ERROR is written");
    lobby_rooms_closed(m, 11001);
}

/* A host re-registering from 41 numbers on: WELCOME (123 bytes) says
 * first 0, next 42, presence 1 (host); its frame is ACKed as 42 (89
 * bytes); a guest joining from 0 gets WELCOME first 42, next 43,
 * presence 3, then FRAME 42 from seat 0 with the payload after its 90
 * bytes of header; the host is told PRESENCE guest 1 after frame 42 (123
 * bytes). */
Test(room, numbers_on_from_the_hosts_resume_point)
{
    Link h, g;
    uint8_t m[256];
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    Lobby_Member *gm = member(&g, "192.0.2.2", 0);

    lobby_rooms_message(hm, m, create(m, 0x21, 0x22, 41), 10);
    cr_assert_eq(h.n, 1);
    cr_assert_eq(h.len[0], 123);
    cr_assert_eq(h.msg[0][0], 0x81);
    cr_assert_eq(h.msg[0][1], 0); /* host */
    cr_assert_eq(get64(h.msg[0] + 34), 0);
    cr_assert_eq(get64(h.msg[0] + 42), 42);
    cr_assert_eq(h.msg[0][50], 1);

    m[0] = 0x04;
    memcpy(m + 1, "e2e4", 4);
    lobby_rooms_message(hm, m, 5, 20);
    cr_assert_eq(h.n, 2);
    cr_assert_eq(h.len[1], 89);
    cr_assert_eq(h.msg[1][0], 0x83);
    cr_assert_eq(get64(h.msg[1] + 1), 42);

    lobby_rooms_message(gm, m, join(m, 0x21, 0x33, 0), 30);
    cr_assert_eq(g.n, 2);
    cr_assert_eq(g.msg[0][0], 0x81);
    cr_assert_eq(g.msg[0][1], 1); /* guest */
    cr_assert_eq(get64(g.msg[0] + 34), 42);
    cr_assert_eq(get64(g.msg[0] + 42), 43);
    cr_assert_eq(g.msg[0][50], 3);
    cr_assert_eq(g.len[1], 90 + 4);
    cr_assert_eq(g.msg[1][0], 0x82);
    cr_assert_eq(get64(g.msg[1] + 1), 42);
    cr_assert_eq(g.msg[1][9], 0);
    cr_assert(memcmp(g.msg[1] + 90, "e2e4", 4) == 0);
    cr_assert_eq(h.n, 3);
    cr_assert_eq(h.len[2], 123);
    cr_assert(h.msg[2][0] == 0x84 && h.msg[2][1] == 1 && h.msg[2][2] == 1);
    cr_assert_eq(get64(h.msg[2] + 3), 42);
    lobby_rooms_closed(gm, 40);
    lobby_rooms_closed(hm, 40);
}

/* ---- receipts (the fair-play issue) ---- */

/* The driver's wall clock, as the test sets it (ms since the epoch). */
static uint64_t wall;

static uint64_t wall_ms(void *user)
{
    (void)user;
    return wall;
}

/* The bytes docs/protocol-lobby.md (and proto.h) say a receipt signs,
 * laid out here: "tabula receipt 3\0", room (the host key of create():
 * host_id's), the guest seated (guest_id's: join()), kind, seq, time,
 * then the payload's BLAKE2b-256 and the seats' absences as the message
 * carries them (FRAME) or seat and present (PRESENCE). */
static size_t signed_bytes(uint8_t *out, int kind, uint64_t seq, uint64_t t,
                           const char *payload, int seat, int present,
                           const uint8_t absences[8])
{
    memcpy(out, "tabula receipt 3", 17);
    memcpy(out + 17, host_id.pk, 32);
    memcpy(out + 49, guest_id.pk, 32);
    out[81] = (uint8_t)kind;
    put64(out + 82, seq);
    put64(out + 90, t);
    if (kind == 1) {
        out[98] = (uint8_t)seat;
        out[99] = (uint8_t)present;
        return 100;
    }
    crypto_generichash(out + 98, 32, (const uint8_t *)payload, strlen(payload),
                       NULL, 0);
    memcpy(out + 130, absences, 8);
    return 138;
}

/* The absences (host, guest; ms) the last receipt_of read. */
static uint32_t absent[2];

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

/* The receipt in a FRAME (0x82: seq at 1, time at 10, absences at 18,
 * signature at 26), an ACK (0x83: seq 1, time 9, absences 17, signature
 * 25) or a PRESENCE (0x84: seq 3, guest key 11, time 43, absences 51
 * (unsigned), signature 59) of l, message k, checked against the bytes
 * laid out by hand and the relay key pk with libsodium itself; its time
 * (and its absences in `absent`). */
static uint64_t receipt_of(const Link *l, int k, const uint8_t *pk,
                           uint64_t seq, const char *payload)
{
    const uint8_t *m = l->msg[k];
    int at = m[0] == 0x82 ? 1 : m[0] == 0x83 ? 1 : 3;
    int t_at = m[0] == 0x82 ? 10 : m[0] == 0x83 ? 9 : 43;
    uint8_t want[138];
    cr_assert(m[0] >= 0x82 && m[0] <= 0x84, "message %d is %#x", k, m[0]);
    cr_assert_eq(get64(m + at), seq);
    uint64_t t = get64(m + t_at);
    size_t n = m[0] == 0x84
                   ? signed_bytes(want, 1, seq, t, NULL, m[1], m[2], NULL)
                   : signed_bytes(want, 0, seq, t, payload, 0, 0, m + t_at + 8);
    cr_assert_eq(crypto_sign_verify_detached(m + t_at + 16, want, n, pk), 0,
                 "message %d's receipt does not verify", k);
    absent[0] = get32(m + t_at + 8);
    absent[1] = get32(m + t_at + 12);
    return t;
}

/* The same receipt read back and checked by proto/: the
 * receipt of a FRAME, ACK or PRESENCE verifies with proto_receipt_verify
 * against the room's host key and the payload's hash. */
static void verify_with_proto(const Link *l, int k, const uint8_t *pk,
                                 const char *payload)
{
    Proto_Receipt r;
    uint8_t hash[32];
    const uint8_t *m = l->msg[k];
    uint8_t room[32];
    memcpy(room, host_id.pk, sizeof room);
    memset(&r, 0, sizeof r);
    memcpy(r.relay, pk, 32);
    if (m[0] == 0x84) {
        r.kind = PROTO_RECEIPT_PRESENCE;
        r.seat = m[1];
        r.present = m[2];
        r.seq = get64(m + 3);
        cr_assert_arr_eq(m + 11, guest_id.pk, 32);
        r.time_ms = get64(m + 43);
        memcpy(r.sig, m + 59, 64);
    } else if (m[0] == 0x82) {
        lobby_wire_frame_receipt(m, &r);
        memcpy(r.relay, pk, 32);
    } else {
        r.kind = PROTO_RECEIPT_FRAME;
        r.seq = get64(m + 1);
        r.time_ms = get64(m + 9);
        r.absent_ms[0] = get32(m + 17);
        r.absent_ms[1] = get32(m + 21);
        memcpy(r.sig, m + 25, 64);
    }
    cr_assert_eq(proto_receipt_hash((const uint8_t *)payload,
                                    payload ? strlen(payload) : 0, hash),
                 0);
    memcpy(r.guest, guest_id.pk, 32);
    cr_assert_eq(proto_receipt_verify(&r, room, m[0] == 0x84 ? NULL : hash), 0,
                 "message %d", k);
    r.time_ms++; /* a millisecond moved: no longer the relay's word */
    cr_assert_eq(proto_receipt_verify(&r, room, m[0] == 0x84 ? NULL : hash),
                 TB_E_SIGNATURE);
}

/* The node signs a receipt for every frame it numbers and every presence
 * change, with its key (the one its WELCOME names), at its wall clock
 * (ms since the epoch), never below the room's last time even when the
 * driver's clock goes back; a frame's FRAME and its sender's ACK carry
 * one receipt (the same time). */
Test(room, frames_and_presence_carry_the_nodes_signed_receipts)
{
    uint8_t seed[32], m[256];
    Proto_Identity key;
    Link h, g;
    memset(seed, 0x42, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&key, seed), 0);
    lobby_rooms_use_witness(rs, &key, wall_ms, NULL);
    uint8_t pk[32];
    lobby_rooms_relay_key(rs, pk);
    cr_assert_arr_eq(pk, key.pk, 32);

    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    Lobby_Member *gm = member(&g, "192.0.2.2", 0);
    wall = 1765000000000ull;
    lobby_rooms_message(hm, m, create(m, 0x21, 0x22, 0), 10);
    /* WELCOME: relay key at 51, relay time at 83, guest key at 91 */
    cr_assert_eq(h.len[0], 123);
    cr_assert_arr_eq(h.msg[0] + 51, key.pk, 32);
    cr_assert_eq(get64(h.msg[0] + 83), wall);

    wall += 1000; /* the guest comes: the host is told, signed */
    lobby_rooms_message(gm, m, join(m, 0x21, 0x33, 0), 20);
    cr_assert_arr_eq(g.msg[0] + 51, key.pk, 32);
    cr_assert_eq(get64(g.msg[0] + 83), wall);
    cr_assert_eq(h.n, 2);
    cr_assert_eq(h.msg[1][0], 0x84);
    cr_assert_eq(receipt_of(&h, 1, key.pk, 0, NULL), wall);
    verify_with_proto(&h, 1, key.pk, NULL);

    wall += 1000; /* frame 1 from the host */
    m[0] = 0x04;
    memcpy(m + 1, "e2e4", 4);
    lobby_rooms_message(hm, m, 5, 30);
    cr_assert_eq(h.msg[2][0], 0x83);
    cr_assert_eq(g.msg[1][0], 0x82);
    uint64_t t1 = receipt_of(&g, 1, key.pk, 1, "e2e4");
    cr_assert_eq(t1, wall);
    cr_assert_eq(receipt_of(&h, 2, key.pk, 1, "e2e4"), t1,
                 "the ACK's time is the FRAME's");
    cr_assert_arr_eq(h.msg[2] + 25, g.msg[1] + 26, 64, "one signature");
    cr_assert(absent[0] == 0 && absent[1] == 0, "both seated");
    verify_with_proto(&g, 1, key.pk, "e2e4");
    verify_with_proto(&h, 2, key.pk, "e2e4");

    wall -= 5000; /* the driver's clock set back 5 s: frame 2 */
    memcpy(m + 1, "e7e5", 4);
    lobby_rooms_message(gm, m, 5, 40);
    cr_assert_eq(h.msg[3][0], 0x82);
    cr_assert_eq(receipt_of(&h, 3, key.pk, 2, "e7e5"), t1,
                 "a receipt's time went back with the clock");
    cr_assert_eq(receipt_of(&g, 2, key.pk, 2, "e7e5"), t1);

    wall = t1 + 250; /* the clock runs again; the guest leaves */
    lobby_rooms_closed(gm, 50);
    cr_assert_eq(h.n, 5);
    cr_assert_eq(h.msg[4][0], 0x84);
    cr_assert(h.msg[4][1] == 1 && h.msg[4][2] == 0);
    cr_assert_eq(receipt_of(&h, 4, key.pk, 2, NULL), t1 + 250);
    verify_with_proto(&h, 4, key.pk, NULL);
    /* 4 s later the host's frame 3 attests the guest gone 4,000 ms (by
     * hand: left at t1 + 250, numbered at t1 + 4,250) */
    wall = t1 + 4250;
    memcpy(m + 1, "g1f3", 4);
    lobby_rooms_message(hm, m, 5, 55);
    cr_assert_eq(h.msg[5][0], 0x83);
    cr_assert_eq(receipt_of(&h, 5, key.pk, 3, "g1f3"), t1 + 4250);
    cr_assert(absent[0] == 0 && absent[1] == 4000, "host %u, guest %u",
              absent[0], absent[1]);
    verify_with_proto(&h, 5, key.pk, "g1f3");
    /* the guest back: its next frame attests both seated again */
    gm = member(&g, "192.0.2.2", 0);
    lobby_rooms_message(gm, m, join(m, 0x21, 0x33, 3), 56);
    wall = t1 + 5000;
    m[0] = 0x04;
    memcpy(m + 1, "b8c6", 4);
    lobby_rooms_message(gm, m, 5, 57);
    cr_assert_eq(receipt_of(&h, h.n - 1, key.pk, 4, "b8c6"), t1 + 5000);
    cr_assert(absent[0] == 0 && absent[1] == 0);
    lobby_rooms_closed(gm, 58);
    /* every time the host was given, in order, never went down */
    uint64_t last = 0;
    for (int k = 1; k < h.n; k++) {
        uint64_t t = get64(h.msg[k] + (h.msg[k][0] == 0x83   ? 9
                                       : h.msg[k][0] == 0x82 ? 10
                                                             : 43));
        cr_assert_geq(t, last, "message %d", k);
        last = t;
    }
    lobby_rooms_closed(hm, 60);
    proto_identity_wipe(&key);
}

/* Version 4 is the one spoken: a version-3 CREATE is refused VERSION (2). */
Test(room, a_version_one_hello_is_refused_version)
{
    Link l;
    uint8_t m[256];
    Lobby_Member *lm = member(&l, "192.0.2.1", 0);
    size_t n = create(m, 0x21, 0x22, 0);
    m[1] = 3;
    lobby_rooms_message(lm, m, n, 10);
    cr_assert_eq(error_of(&l, 0), 2);
    lobby_rooms_closed(lm, 20);
}

/* A member in a room that was sent nothing for a turn of beats (1 s) is
 * sent BEAT (0x86, one byte), so a hung relay is told from a quiet one
 * within 3 s; a member who had a message in the turn is not; one not yet
 * in a room (no hello) never is. */
Test(room, a_quiet_member_hears_a_beat_each_second)
{
    Link h, q;
    uint8_t m[256];
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    Lobby_Member *qm = member(&q, "192.0.2.2", 0);
    lobby_rooms_message(hm, m, create(m, 0x21, 0x22, 0), 10);
    cr_assert_eq(h.n, 1); /* WELCOME */
    lobby_rooms_sweep(rs, 250); /* a turn: the welcome was sent in it */
    cr_assert_eq(h.n, 1);
    lobby_rooms_sweep(rs, 1249);
    cr_assert_eq(h.n, 1);
    lobby_rooms_sweep(rs, 1250); /* a quiet turn */
    cr_assert_eq(h.n, 2);
    cr_assert_eq(h.len[1], 1);
    cr_assert_eq(h.msg[1][0], 0x86);
    m[0] = 0x04;
    memcpy(m + 1, "e2e4", 4);
    lobby_rooms_message(hm, m, 5, 2000); /* ACKed: sent in this turn */
    cr_assert_eq(h.n, 3);
    lobby_rooms_sweep(rs, 2250);
    cr_assert_eq(h.n, 3);
    lobby_rooms_sweep(rs, 3250);
    cr_assert_eq(h.n, 4);
    cr_assert_eq(h.msg[3][0], 0x86);
    cr_assert_eq(q.n, 0, "a connection with no room was sent a beat");
    lobby_rooms_closed(qm, 3300);
    lobby_rooms_closed(hm, 3300);
}

/* A room no guest joined is dropped unjoined_room_ms [30000] after its
 * host left; a joiner then finds no room (CODE, 3). */
Test(room, unjoined_room_goes_thirty_seconds_after_its_host)
{
    Link h, g;
    uint8_t m[256], inv[16];
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    memset(inv, 0x21, sizeof inv);
    lobby_rooms_message(hm, m, create(m, 0x21, 0x22, 0), 0);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 1);
    lobby_rooms_closed(hm, 5000);
    lobby_rooms_sweep(rs, 34999);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 1);
    lobby_rooms_sweep(rs, 35000);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 0);
    Lobby_Member *gm = member(&g, "192.0.2.2", 35001);
    lobby_rooms_message(gm, m, join(m, 0x21, 0x33, 0), 35001);
    cr_assert_eq(error_of(&g, 0), 3);
    lobby_rooms_closed(gm, 35002);
}

/* A room whose game began stays while empty for empty_room_ms [600000],
 * and goes then. */
/* A game at 0 in room 0x21 (watch 0x22) between a host from 192.0.2.1
 * and a guest from 192.0.2.2: their links h and g, members *hm, *gm. */
static void a_game(Link *h, Link *g, Lobby_Member **hm, Lobby_Member **gm)
{
    uint8_t m[256];
    *hm = member(h, "192.0.2.1", 0);
    *gm = member(g, "192.0.2.2", 0);
    lobby_rooms_message(*hm, m, create(m, 0x21, 0x22, 0), 0);
    lobby_rooms_message(*gm, m, join(m, 0x21, 0x33, 0), 0);
}

Test(room, empty_room_goes_after_ten_minutes)
{
    Link h, g;
    uint8_t inv[16];
    Lobby_Member *hm, *gm;
    memset(inv, 0x21, sizeof inv);
    a_game(&h, &g, &hm, &gm);
    lobby_rooms_closed(hm, 1000);
    lobby_rooms_closed(gm, 2000);
    lobby_rooms_sweep(rs, 601999);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 1);
    lobby_rooms_sweep(rs, 602000);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 0);
}

static size_t watch(uint8_t *m, uint8_t inv, uint64_t from);

/* A DATA of 4 bytes from member mm at now: its seat has spoken. */
static void speak(Lobby_Member *mm, uint64_t now)
{
    uint8_t d[5] = {0x04, 'e', '2', 'e', '4'};
    lobby_rooms_message(mm, d, sizeof d, now);
}

/* KEEP (issue 37, correspondence): bytes by hand, 0x09 then the seconds,
 * big-endian. */
static size_t keep_msg(uint8_t *m, uint32_t seconds)
{
    m[0] = 0x09;
    m[1] = (uint8_t)(seconds >> 24);
    m[2] = (uint8_t)(seconds >> 16);
    m[3] = (uint8_t)(seconds >> 8);
    m[4] = (uint8_t)seconds;
    return 5;
}

/* A correspondence game's room, both seats having spoken (frames 1 and
 * 2: its next number is 3 while it is kept): the guest's
 * KEEP of 3 days (259200 s) keeps it empty 259,200,000 ms after its last
 * member left (at 2000), not empty_room_ms; a later, smaller KEEP does
 * not shorten it. */
Test(room, a_kept_room_stays_empty_as_long_as_asked)
{
    Link h, g;
    uint8_t m[256], inv[16];
    Lobby_Member *hm, *gm;
    memset(inv, 0x21, sizeof inv);
    a_game(&h, &g, &hm, &gm);
    speak(hm, 5);
    speak(gm, 6);
    size_t had = g.n;
    lobby_rooms_message(gm, m, keep_msg(m, 259200), 10);
    lobby_rooms_message(hm, m, keep_msg(m, 60), 20);
    cr_assert_eq(g.n, had, "KEEP has no answer");
    lobby_rooms_closed(hm, 1000);
    lobby_rooms_closed(gm, 2000);
    lobby_rooms_sweep(rs, 602000);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 3, "kept past 10 minutes");
    lobby_rooms_sweep(rs, 2000 + 259199999ull);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 3);
    lobby_rooms_sweep(rs, 2000 + 259200000ull);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 0);
}

/* The relay keeps a room at most keep_room_ms (set here to 1 hour): a
 * KEEP of 30 days keeps it 3,600,000 ms. A KEEP before any guest came
 * keeps nothing: the unjoined room goes unjoined_room_ms [30000] after
 * its host. A spectator may not KEEP (ERROR 8, not allowed). */
Test(room, keep_is_within_the_relays_limit_and_a_seats_alone)
{
    Lobby_Limits lim;
    Lobby_Rooms *t;
    static Link l[4];
    Lobby_Member *mm[4];
    uint8_t msg[256], inv[16];
    memset(&lim, 0, sizeof lim);
    lim.keep_room_ms = 3600000;
    cr_assert_eq(lobby_rooms_new(&lim, &t), 0);
    for (int i = 0; i < 4; i++) {
        memset(&l[i], 0, sizeof l[i]);
        mm[i] = lobby_rooms_member(t, &ops, &l[i], "192.0.2.7", 0);
    }
    memset(inv, 0x21, sizeof inv);
    lobby_rooms_message(mm[0], msg, create(msg, 0x21, 0x22, 0), 0);
    lobby_rooms_message(mm[1], msg, join(msg, 0x21, 0x33, 0), 0);
    speak(mm[0], 0);
    speak(mm[1], 0);
    lobby_rooms_message(mm[1], msg, keep_msg(msg, 30u * 86400u), 0);
    lobby_rooms_message(mm[2], msg, watch(msg, 0x22, 0), 0);
    lobby_rooms_message(mm[2], msg, keep_msg(msg, 86400), 0);
    cr_assert_eq(error_of(&l[2], l[2].n - 1), 8);
    lobby_rooms_closed(mm[0], 0);
    lobby_rooms_closed(mm[1], 0);
    lobby_rooms_closed(mm[2], 0);
    lobby_rooms_sweep(t, 3599999);
    cr_assert_eq(lobby_rooms_next_seq(t, inv), 3);
    lobby_rooms_sweep(t, 3600000);
    cr_assert_eq(lobby_rooms_next_seq(t, inv), 0);

    memset(inv, 0x41, sizeof inv);
    lobby_rooms_message(mm[3], msg, create(msg, 0x41, 0x42, 0), 3600000);
    lobby_rooms_message(mm[3], msg, keep_msg(msg, 86400), 3600000);
    lobby_rooms_closed(mm[3], 3600000);
    lobby_rooms_sweep(t, 3630000);
    cr_assert_eq(lobby_rooms_next_seq(t, inv), 0, "no guest: not kept");
    lobby_rooms_free(t);
}

/* Wrong codes from one address: guess_burst [5] are answered CODE at
 * once; the sixth, over the limit, is answered RATE (4) only
 * rate_delay_ms [5000] later, its connection held meanwhile. */
Test(room, sixth_wrong_code_is_answered_rate_five_seconds_late)
{
    Link l[6];
    Lobby_Member *mm[6];
    uint8_t m[256];
    for (int i = 0; i < 6; i++) {
        mm[i] = member(&l[i], "198.51.100.7", 100);
        lobby_rooms_message(mm[i], m, join(m, (uint8_t)(0x40 + i), 1, 0), 100);
    }
    for (int i = 0; i < 5; i++)
        cr_assert_eq(error_of(&l[i], 0), 3, "wrong code %d", i + 1);
    cr_assert_eq(l[5].n, 0, "the sixth is not answered at once");
    lobby_rooms_sweep(rs, 5099);
    cr_assert_eq(l[5].n, 0);
    lobby_rooms_sweep(rs, 5100);
    cr_assert_eq(error_of(&l[5], 0), 4);
    for (int i = 0; i < 6; i++)
        lobby_rooms_closed(mm[i], 5200);
}

/* --trust (the relay-limits issue: a club behind one NAT address got 16
 * games per 10 minutes): an address of a trusted network has
 * LOBBY_TRUST_FACTOR (16) times each share. With 1 room and 2
 * connections per address: 192.0.2.9 in 192.0.2.0/24 holds 16 rooms and
 * 32 connections, its 17th room is refused ADDRESS (11); 192.0.3.9,
 * outside the /24, its second room. */
Test(room, a_trusted_network_has_sixteen_times_the_shares)
{
    Lobby_Limits lim;
    Lobby_Rooms *t;
    static Link l[40];
    Lobby_Member *m[40];
    uint8_t msg[256];
    memset(&lim, 0, sizeof lim);
    lim.source_rooms = 1;
    lim.source_conns = 2;
    cr_assert_eq(lobby_limits_trust(&lim, "192.0.2.0/24"), 0);
    cr_assert_eq(lobby_rooms_new(&lim, &t), 0);
    for (int i = 0; i < 33; i++) {
        memset(&l[i], 0, sizeof l[i]);
        m[i] = lobby_rooms_member(t, &ops, &l[i], "192.0.2.9", 0);
        cr_assert_not_null(m[i]);
    }
    for (int i = 0; i < 32; i++)
        cr_assert_eq(l[i].n, 0, "connection %d refused", i + 1);
    cr_assert_eq(error_of(&l[32], 0), 11); /* the 33rd: ADDRESS */
    for (int i = 0; i < 17; i++)
        lobby_rooms_message(m[i], msg, create(msg, (uint8_t)(0x40 + i),
                                              (uint8_t)(0x80 + i), 0), 10);
    for (int i = 0; i < 16; i++)
        cr_assert_eq(l[i].msg[0][0], 0x81, "room %d refused", i + 1);
    cr_assert_eq(error_of(&l[16], 0), 11);
    memset(&l[33], 0, sizeof l[33]);
    memset(&l[34], 0, sizeof l[34]);
    m[33] = lobby_rooms_member(t, &ops, &l[33], "192.0.3.9", 0);
    m[34] = lobby_rooms_member(t, &ops, &l[34], "192.0.3.9", 0);
    lobby_rooms_message(m[33], msg, create(msg, 0x30, 0x31, 0), 10);
    lobby_rooms_message(m[34], msg, create(msg, 0x32, 0x33, 0), 10);
    cr_assert_eq(l[33].msg[0][0], 0x81);
    cr_assert_eq(error_of(&l[34], 0), 11);
    for (int i = 0; i < 35; i++)
        lobby_rooms_closed(m[i], 20);
    lobby_rooms_free(t);
}

/* Networks as an operator writes them; a bad one is refused. The IPv6
 * source is a /64: 2001:db8::/32 covers 2001:db8:5::1. */
Test(room, trusted_networks_read_and_refused)
{
    Lobby_Limits lim;
    memset(&lim, 0, sizeof lim);
    cr_assert_eq(lobby_limits_trust(&lim, "10.1.2.3"), 0);
    cr_assert_eq(lim.trust_bits[0], 32);
    cr_assert_eq(lobby_limits_trust(&lim, "2001:db8::/32"), 0);
    cr_assert_eq(lim.trust_net[1][0], 6);
    cr_assert_eq(lim.trust_bits[1], 32);
    char text[64];
    cr_assert_eq(lobby_limits_trust_text(&lim, 0, text, sizeof text), 0);
    cr_assert_str_eq(text, "10.1.2.3/32");
    cr_assert_eq(lobby_limits_trust(&lim, "10.9.8.7/12"), 0);
    cr_assert_eq(lobby_limits_trust_text(&lim, 2, text, sizeof text), 0);
    cr_assert_str_eq(text, "10.0.0.0/12", "the bits past the prefix cleared");
    cr_assert_eq(lobby_limits_trust(&lim, "2001:db8:ffff::1/36"), 0);
    cr_assert_eq(lobby_limits_trust_text(&lim, 3, text, sizeof text), 0);
    cr_assert_str_eq(text, "2001:db8:f000::/36");
    lim.ntrust = 2;
    cr_assert_eq(lobby_limits_trust(&lim, "10.0.0.0/33"), TB_E_ARG);
    cr_assert_eq(lobby_limits_trust(&lim, "10.0.0.0/"), TB_E_ARG);
    cr_assert_eq(lobby_limits_trust(&lim, "10.0.0.0/8x"), TB_E_ARG);
    cr_assert_eq(lobby_limits_trust(&lim, "/8"), TB_E_ARG);
    cr_assert_eq(lobby_limits_trust(&lim, "example.org/8"), TB_E_ARG);
    cr_assert_eq(lobby_limits_trust(&lim, "::/129"), TB_E_ARG);
    for (int i = 2; i < LOBBY_TRUST_MAX; i++)
        cr_assert_eq(lobby_limits_trust(&lim, "10.0.0.0/8"), 0);
    cr_assert_eq(lobby_limits_trust(&lim, "10.0.0.0/8"), TB_E_LIMIT);

    Lobby_Rooms *t;
    Link a, b, c;
    memset(&lim, 0, sizeof lim);
    lim.source_conns = 1;
    cr_assert_eq(lobby_limits_trust(&lim, "2001:db8::/32"), 0);
    cr_assert_eq(lobby_limits_trust(&lim, "198.51.100.0/23"), 0);
    cr_assert_eq(lobby_rooms_new(&lim, &t), 0);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    Lobby_Member *ma = lobby_rooms_member(t, &ops, &a, "2001:db8:5::1", 0);
    Lobby_Member *mb = lobby_rooms_member(t, &ops, &b, "2001:db8:5::2", 0);
    Lobby_Member *mc = lobby_rooms_member(t, &ops, &c, "198.51.101.200", 0);
    Lobby_Member *md = lobby_rooms_member(t, &ops, &c, "198.51.101.200", 0);
    cr_assert_eq(a.n + b.n + c.n, 0, "a trusted address was refused");
    lobby_rooms_closed(ma, 1);
    lobby_rooms_closed(mb, 1);
    lobby_rooms_closed(mc, 1);
    lobby_rooms_closed(md, 1);
    lobby_rooms_free(t);
}

/* DONE (0x05, one byte) from both seats ends a room's hold on its
 * creator's share; one seat's alone does not; a seat that said it may
 * send no frame after (PROTOCOL, 1). The finished room goes
 * unjoined_room_ms [30000] after it empties, not empty_room_ms; and at
 * the node's room cap it is the first to go for a new room. */
Test(room, a_finished_game_releases_its_room)
{
    Lobby_Limits lim;
    Lobby_Rooms *t;
    static Link h, g, h2, h3;
    uint8_t m[256];
    static const uint8_t done[1] = {0x05};
    memset(&lim, 0, sizeof lim);
    lim.source_rooms = 1;
    lim.max_rooms = 2;
    cr_assert_eq(lobby_rooms_new(&lim, &t), 0);
    memset(&h, 0, sizeof h);
    memset(&g, 0, sizeof g);
    memset(&h2, 0, sizeof h2);
    Lobby_Member *hm = lobby_rooms_member(t, &ops, &h, "192.0.2.1", 0);
    Lobby_Member *gm = lobby_rooms_member(t, &ops, &g, "198.51.100.1", 0);
    lobby_rooms_message(hm, m, create(m, 0x21, 0x22, 0), 10);
    lobby_rooms_message(gm, m, join(m, 0x21, 0x33, 0), 20);
    cr_assert_eq(g.msg[0][0], 0x81);
    static const uint8_t frame[2] = {0x04, 'a'}; /* each seat plays */
    lobby_rooms_message(hm, frame, 2, 21);
    lobby_rooms_message(gm, frame, 2, 22);
    lobby_rooms_message(hm, done, 1, 30);
    /* one seat done: the share still held */
    Lobby_Member *h2m = lobby_rooms_member(t, &ops, &h2, "192.0.2.1", 40);
    lobby_rooms_message(h2m, m, create(m, 0x41, 0x42, 0), 40);
    cr_assert_eq(error_of(&h2, 0), 11);
    lobby_rooms_closed(h2m, 41);
    /* a frame after DONE */
    m[0] = 0x04;
    m[1] = 'x';
    int before = h.n;
    lobby_rooms_message(hm, m, 2, 50);
    cr_assert_eq(error_of(&h, before), 1);
    lobby_rooms_closed(hm, 60);
    lobby_rooms_message(gm, done, 1, 70);
    lobby_rooms_closed(gm, 80); /* empty since 80 */
    memset(&h2, 0, sizeof h2);
    h2m = lobby_rooms_member(t, &ops, &h2, "192.0.2.1", 90);
    lobby_rooms_message(h2m, m, create(m, 0x41, 0x42, 0), 90);
    cr_assert_eq(h2.msg[0][0], 0x81, "the finished room still held the share");
    /* the lobby's cap (2 rooms): a third room's CREATE drops the
     * finished one, which has no members */
    memset(&h3, 0, sizeof h3);
    Lobby_Member *h3m = lobby_rooms_member(t, &ops, &h3, "203.0.113.1", 100);
    lobby_rooms_message(h3m, m, create(m, 0x51, 0x52, 0), 100);
    cr_assert_eq(h3.msg[0][0], 0x81, "the finished room kept the lobby full");
    Lobby_Stats st;
    lobby_rooms_stats(t, &st);
    cr_assert_eq(st.rooms, 2);
    lobby_rooms_closed(h2m, 110);
    lobby_rooms_closed(h3m, 110);
    lobby_rooms_free(t);
}

/* A joiner that said DONE without a frame and left gave the seat back,
 * its DONE with it, so the real guest's frames are taken (a trial found
 * the seat locked: the real guest's first DATA got PROTOCOL). */
Test(room, a_done_without_a_frame_marks_no_seat)
{
    static Link h, j, g;
    uint8_t m[256];
    static const uint8_t done[1] = {0x05};
    static const uint8_t frame[2] = {0x04, 'a'};
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    Lobby_Member *jm = member(&j, "198.51.100.7", 0);
    lobby_rooms_message(hm, m, create(m, 0x21, 0x22, 0), 10);
    lobby_rooms_message(jm, m, join(m, 0x21, 0x44, 0), 20);
    cr_assert_eq(j.msg[0][0], 0x81);
    lobby_rooms_message(jm, done, 1, 30);
    lobby_rooms_closed(jm, 40); /* gives the seat back: it never spoke */
    Lobby_Member *gm = member(&g, "198.51.100.1", 50);
    lobby_rooms_message(gm, m, join(m, 0x21, 0x33, 0), 50);
    cr_assert_eq(g.msg[0][0], 0x81, "the real guest was not seated");
    int before = g.n;
    lobby_rooms_message(gm, frame, 2, 60);
    for (int i = before; i < g.n; i++)
        cr_assert_neq(g.msg[i][0], 0x85, "the real guest's frame was refused");
    cr_assert_eq(h.msg[h.n - 1][0], 0x82, "the host got no FRAME");
    lobby_rooms_closed(hm, 70);
    lobby_rooms_closed(gm, 70);
}

/* A finished room with no members goes unjoined_room_ms after it
 * emptied: at 30,079 ms it is there, at 30,080 gone. */
Test(room, a_finished_room_goes_thirty_seconds_after_it_empties)
{
    static Link h, g;
    uint8_t m[256];
    static const uint8_t done[1] = {0x05};
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    Lobby_Member *gm = member(&g, "198.51.100.1", 0);
    lobby_rooms_message(hm, m, create(m, 0x21, 0x22, 0), 10);
    lobby_rooms_message(gm, m, join(m, 0x21, 0x33, 0), 20);
    static const uint8_t frame[2] = {0x04, 'a'}; /* each seat plays */
    lobby_rooms_message(hm, frame, 2, 21);
    lobby_rooms_message(gm, frame, 2, 22);
    lobby_rooms_message(hm, done, 1, 30);
    lobby_rooms_message(gm, done, 1, 40);
    lobby_rooms_closed(hm, 50);
    lobby_rooms_closed(gm, 80);
    Lobby_Stats st;
    lobby_rooms_sweep(rs, 30079);
    lobby_rooms_stats(rs, &st);
    cr_assert_eq(st.rooms, 1);
    lobby_rooms_sweep(rs, 30080);
    lobby_rooms_stats(rs, &st);
    cr_assert_eq(st.rooms, 0);
}

/* A connection refused in no room and within its address's share is
 * closed after its ERROR with LOBBY_CLOSE_REFUSED (the transport holds it
 * LOBBY_REFUSED_HOLD_MS first: room.h); one over the address's share, or
 * a seat closed in its room, with LOBBY_CLOSE_ANSWERED (at once). */
Test(room, a_refused_connection_in_no_room_is_held_one_over_its_share_not)
{
    uint8_t m[256];
    Link w, h, g, over[65];
    Lobby_Member *wm = member(&w, "192.0.2.7", 0);
    lobby_rooms_message(wm, m, join(m, 0x77, 0x01, 0), 1);
    cr_assert_eq(error_of(&w, 0), 3); /* CODE */
    cr_assert_eq(w.reason, LOBBY_CLOSE_REFUSED);
    cr_assert_eq(w.flushed, 1);
    /* the address's 64 connections [source_conns], then a 65th */
    Lobby_Member *om[65];
    for (int i = 0; i < 65; i++)
        om[i] = member(&over[i], "198.51.100.9", 2);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(over[i].n, 0);
    cr_assert_eq(error_of(&over[64], 0), 11); /* ADDRESS */
    cr_assert_eq(over[64].reason, LOBBY_CLOSE_ANSWERED);
    for (int i = 0; i < 65; i++)
        lobby_rooms_closed(om[i], 3);
    /* a seat that breaks the rules in its room: a frame after DONE */
    static const uint8_t done[1] = {0x05}, frame[2] = {0x04, 'a'};
    Lobby_Member *hm = member(&h, "203.0.113.5", 10);
    Lobby_Member *gm = member(&g, "203.0.113.6", 10);
    lobby_rooms_message(hm, m, create(m, 0x31, 0x32, 0), 11);
    lobby_rooms_message(gm, m, join(m, 0x31, 0x33, 0), 12);
    lobby_rooms_message(hm, done, 1, 13);
    int before = h.n;
    lobby_rooms_message(hm, frame, 2, 14);
    cr_assert_eq(error_of(&h, before), 1); /* PROTOCOL */
    cr_assert_eq(h.reason, LOBBY_CLOSE_ANSWERED);
    lobby_rooms_closed(wm, 20);
    lobby_rooms_closed(hm, 20);
    lobby_rooms_closed(gm, 20);
}

/* The node's frames: LOBBY_DATA_NODE_BURST [8192] at once. With the time
 * standing still, 8 addresses each spend their own burst
 * [LOBBY_DATA_BURST, 1024]: 8 x 1024 = 8192, the node's. Past it, a
 * ninth address's seat is let through while it has used at most
 * LOBBY_DATA_HEAVY [64] of its own, and closed FLOOD (12) at its 65th
 * frame; a game's seat that sent nothing before still plays. The heavy
 * address's next CREATE is refused FLOOD; a light one's is not. */
Test(room, past_the_nodes_frames_only_a_heavy_sender_is_closed)
{
    uint8_t m[256];
    static const uint8_t frame[2] = {0x04, 'a'};
    Link h[10], g[10];
    Lobby_Member *hm[10], *gm[10];
    char addr[32];
    for (int i = 0; i < 10; i++) {
        snprintf(addr, sizeof addr, "192.0.2.%d", 10 + i);
        hm[i] = member(&h[i], addr, 0);
        snprintf(addr, sizeof addr, "198.51.100.%d", 10 + i);
        gm[i] = member(&g[i], addr, 0);
        lobby_rooms_message(hm[i], m, create(m, (uint8_t)(0x40 + i),
                                             (uint8_t)(0x60 + i), 0), 1);
        lobby_rooms_message(gm[i], m, join(m, (uint8_t)(0x40 + i), 0x01, 0), 1);
        cr_assert_eq(g[i].msg[0][0], 0x81);
        h[i].counting = g[i].counting = 1;
    }
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 1024; k++)
            lobby_rooms_message(hm[i], frame, 2, 2);
    for (int i = 0; i < 8; i++) {
        cr_assert_eq(h[i].closing, 0, "address %d closed within its share", i);
        cr_assert_eq(g[i].total, 1024);
    }
    for (int k = 0; k < 64; k++)
        lobby_rooms_message(hm[8], frame, 2, 2);
    cr_assert_eq(h[8].closing, 0);
    cr_assert_eq(g[8].total, 64);
    lobby_rooms_message(hm[8], frame, 2, 2);
    cr_assert_eq(h[8].closing, 1);
    cr_assert_eq(h[8].msg[0][0], 0x85);
    cr_assert_eq(h[8].msg[0][1], 12);
    cr_assert_eq(g[8].total, 64);
    lobby_rooms_message(hm[9], frame, 2, 2);
    cr_assert_eq(h[9].closing, 0);
    cr_assert_eq(g[9].total, 1);
    /* The heavy address's next room is refused FLOOD at its CREATE,
     * before a frame; a light address's is made. */
    Link again, light;
    Lobby_Member *am = member(&again, "192.0.2.18", 2);
    lobby_rooms_message(am, m, create(m, 0x5e, 0x5f, 0), 2);
    cr_assert_eq(error_of(&again, 0), 12);
    Lobby_Member *lm = member(&light, "203.0.113.77", 2);
    lobby_rooms_message(lm, m, create(m, 0x5c, 0x5d, 0), 2);
    cr_assert_eq(light.msg[0][0], 0x81, "a light address's room was refused");
    lobby_rooms_closed(am, 3);
    lobby_rooms_closed(lm, 3);
    for (int i = 0; i < 10; i++) {
        lobby_rooms_closed(hm[i], 3);
        lobby_rooms_closed(gm[i], 3);
    }
}

/* Frames (FRAME, 0x82) a late spectator of invite lookup inv is sent
 * from the start (from 0): the frames its room keeps (WATCH: 03 04, lookup
 * (16), from (8)). */
static size_t kept_frames(Lobby_Rooms *t, uint8_t inv, uint64_t now)
{
    uint8_t m[26] = {0x03, 4};
    Link s;
    size_t frames = 0;
    memset(&s, 0, sizeof s);
    memset(m + 2, inv, 16);
    put64(m + 18, 0);
    Lobby_Member *sm = lobby_rooms_member(t, &ops, &s, "203.0.113.99", now);
    lobby_rooms_message(sm, m, sizeof m, now);
    lobby_rooms_closed(sm, now);
    cr_assert_eq(s.msg[0][0], 0x81, "the spectator was not welcomed");
    for (int k = 0; k < s.n; k++)
        frames += s.msg[k][0] == 0x82;
    return frames;
}

/* At the node's kept bytes the room that keeps the most gives up its
 * oldest frame, whichever room sends, and the next largest follows once
 * it is smaller. Frames of a 1-byte payload take `one` byte each as the
 * rooms count them (measured), so an n-byte payload one + n - 1. Room A
 * keeps 7 small frames (7 one), B one frame of 5.5 one + 1 bytes (6.5
 * one: less than A's), C one small: the node's cap [kept_bytes] is their
 * sum. C sends a small frame: A, the largest, gives up one (A 6 one,
 * smaller than B now); C sends another: B gives up its only frame. Kept:
 * A 6, B 0, C 3. */
Test(room, at_the_nodes_kept_bytes_the_largest_room_gives_up_frames)
{
    uint8_t m[256];
    static const uint8_t frame[2] = {0x04, 'a'};
    static uint8_t big[1024] = {0x04};
    Lobby_Rooms *t, *probe;
    Lobby_Limits lim;
    Link h[3], g[3];
    Lobby_Member *hm[3], *gm[3];
    Lobby_Stats st;
    char addr[32];

    /* one frame's bytes as the rooms count them */
    cr_assert_eq(lobby_rooms_new(NULL, &probe), 0);
    memset(h, 0, sizeof h);
    memset(g, 0, sizeof g);
    hm[0] = lobby_rooms_member(probe, &ops, &h[0], "192.0.2.1", 0);
    gm[0] = lobby_rooms_member(probe, &ops, &g[0], "198.51.100.1", 0);
    lobby_rooms_message(hm[0], m, create(m, 0x50, 0x70, 0), 1);
    lobby_rooms_message(gm[0], m, join(m, 0x50, 0x01, 0), 1);
    lobby_rooms_message(hm[0], frame, 2, 2);
    lobby_rooms_stats(probe, &st);
    size_t one = st.transcript_bytes;
    cr_assert_gt(one, 1);
    size_t bn = 5 * one + one / 2 + 1; /* B's payload */
    cr_assert_lt(bn, sizeof big);
    lobby_rooms_closed(hm[0], 3);
    lobby_rooms_closed(gm[0], 3);
    lobby_rooms_free(probe);

    memset(&lim, 0, sizeof lim);
    /* (a room's and an address's byte caps hold A's 7 frames, and every
     * cap is at least the one below it) */
    lim.max_payload = (uint32_t)bn;
    lim.transcript_bytes = lim.source_bytes = 7 * one;
    lim.kept_bytes = 7 * one + (one + bn - 1) + one;
    cr_assert_eq(lobby_rooms_new(&lim, &t), 0);
    memset(h, 0, sizeof h);
    memset(g, 0, sizeof g);
    for (int i = 0; i < 3; i++) {
        snprintf(addr, sizeof addr, "192.0.2.%d", 20 + i);
        hm[i] = lobby_rooms_member(t, &ops, &h[i], addr, 0);
        snprintf(addr, sizeof addr, "198.51.100.%d", 20 + i);
        gm[i] = lobby_rooms_member(t, &ops, &g[i], addr, 0);
        lobby_rooms_message(hm[i], m, create(m, (uint8_t)(0x50 + i),
                                             (uint8_t)(0x70 + i), 0), 1);
        lobby_rooms_message(gm[i], m, join(m, (uint8_t)(0x50 + i), 0x01, 0), 1);
        h[i].counting = g[i].counting = 1;
    }
    for (int k = 0; k < 7; k++)
        lobby_rooms_message(hm[0], frame, 2, 2);
    lobby_rooms_message(hm[1], big, 1 + bn, 2);
    lobby_rooms_message(hm[2], frame, 2, 2);
    cr_assert_eq(kept_frames(t, 0x50, 2), 7);
    cr_assert_eq(kept_frames(t, 0x51, 2), 1);
    cr_assert_eq(kept_frames(t, 0x52, 2), 1);
    lobby_rooms_message(hm[2], frame, 2, 3);
    cr_assert_eq(kept_frames(t, 0x50, 4), 6);
    cr_assert_eq(kept_frames(t, 0x51, 4), 1);
    cr_assert_eq(kept_frames(t, 0x52, 4), 2);
    lobby_rooms_message(hm[2], frame, 2, 5);
    cr_assert_eq(kept_frames(t, 0x50, 6), 6);
    cr_assert_eq(kept_frames(t, 0x51, 6), 0);
    cr_assert_eq(kept_frames(t, 0x52, 6), 3);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(g[i].closing, 0, "a reader was dropped");
        lobby_rooms_closed(hm[i], 7);
        lobby_rooms_closed(gm[i], 7);
    }
    lobby_rooms_free(t);
}

/* Of one address, LOBBY_REFUSED_HOLD_SOURCE [16] refused connections are
 * held at a time; the 17th is closed at once (ANSWERED), and once a held
 * one is gone the next is held again. A JOIN of version 9 is refused
 * VERSION (2) at once. */
Test(room, an_address_has_sixteen_refused_connections_held_at_most)
{
    uint8_t m[256];
    Link l[18];
    Lobby_Member *lm[18];
    for (int i = 0; i < 18; i++) {
        lm[i] = member(&l[i], "192.0.2.44", 1);
        size_t n = join(m, 0x66, 0x01, 0);
        m[1] = 9;
        lobby_rooms_message(lm[i], m, n, 2);
        cr_assert_eq(error_of(&l[i], 0), 2);
        if (i == 16) {
            cr_assert_eq(l[i].reason, LOBBY_CLOSE_ANSWERED, "the 17th was held");
            lobby_rooms_closed(lm[0], 3); /* a held one goes */
        } else {
            cr_assert_eq(l[i].reason, LOBBY_CLOSE_REFUSED, "connection %d", i);
        }
    }
    for (int i = 1; i < 18; i++)
        lobby_rooms_closed(lm[i], 4);
}

/* l's peer read everything: its queue is written (a transport then says
 * so, lobby_rooms_drained). */
static void drain(Link *l, Lobby_Member *m)
{
    l->queued = 0;
    lobby_rooms_drained(m);
}

/* WATCH of invite lookup inv from frame `from` on: 03 04, lookup (16),
 * from (8). */
static size_t watch(uint8_t *m, uint8_t inv, uint64_t from)
{
    m[0] = 0x03;
    m[1] = 4;
    memset(m + 2, inv, 16);
    put64(m + 18, from);
    return 26;
}

/* A room under a small total of write queues (write_queue_total 4096,
 * as max_write_queue): host H and guest G, spectator S1 stalled from the
 * first frame, S2 (WATCH from 10, before frame 11) stalled from after
 * frame 10. Each message pins its length (this test's links). */
typedef struct Queues {
    Lobby_Rooms *t;
    Link h, g, s1, s2;
    Lobby_Member *hm, *gm, *s1m, *s2m;
} Queues;

static void queues_new(Queues *q)
{
    uint8_t m[256];
    Lobby_Limits lim;
    memset(q, 0, sizeof *q);
    memset(&lim, 0, sizeof lim);
    lim.max_write_queue = 4096;
    lim.write_queue_total = 4096;
    cr_assert_eq(lobby_rooms_new(&lim, &q->t), 0);
    Link *ls[4] = {&q->h, &q->g, &q->s1, &q->s2};
    for (int i = 0; i < 4; i++)
        ls[i]->pin = ls[i]->counting = 1;
    q->hm = lobby_rooms_member(q->t, &ops, &q->h, "192.0.2.1", 0);
    q->gm = lobby_rooms_member(q->t, &ops, &q->g, "198.51.100.1", 0);
    q->s1m = lobby_rooms_member(q->t, &ops, &q->s1, "203.0.113.1", 0);
    q->s2m = lobby_rooms_member(q->t, &ops, &q->s2, "203.0.113.2", 0);
    lobby_rooms_message(q->hm, m, create(m, 0x31, 0x32, 0), 1);
    lobby_rooms_message(q->gm, m, join(m, 0x31, 0x01, 0), 1);
    lobby_rooms_message(q->s1m, m, watch(m, 0x32, 0), 1);
    cr_assert_eq(q->s1.msg[0][0], 0x81, "S1 was not welcomed");
    drain(&q->h, q->hm);
    drain(&q->g, q->gm);
    drain(&q->s1, q->s1m);
}

/* H sends frame k (a 10-byte payload: FRAME 90 + 10 = 100 bytes to G,
 * S1, S2, an ACK of 89 to H); H and G then read it. Before frame 11, S2
 * watches from 10. No seat is ever closed. */
static void queues_frame(Queues *q, int k)
{
    uint8_t m[256];
    static const uint8_t frame[11] = {0x04};
    if (k == 11) {
        lobby_rooms_message(q->s2m, m, watch(m, 0x32, 10), 2);
        cr_assert_eq(q->s2.msg[0][0], 0x81, "S2 was not welcomed");
        drain(&q->s2, q->s2m);
    }
    lobby_rooms_message(q->hm, frame, sizeof frame, 2);
    cr_assert_eq(q->h.queued, 89, "frame %d: H's ACK", k);
    cr_assert_eq(q->g.queued, 100, "frame %d: G's FRAME", k);
    drain(&q->h, q->hm);
    drain(&q->g, q->gm);
    cr_assert_eq(q->h.closing + q->g.closing, 0, "frame %d: a seat went", k);
}

/* The slow readers dropped, and all gone. */
static uint64_t queues_free(Queues *q)
{
    Lobby_Stats st;
    lobby_rooms_stats(q->t, &st);
    lobby_rooms_closed(q->s1m, 3);
    lobby_rooms_closed(q->s2m, 3);
    lobby_rooms_closed(q->gm, 3);
    lobby_rooms_closed(q->hm, 3);
    lobby_rooms_free(q->t);
    return st.dropped_slow;
}

/* A member is sent frames while it pins less than half of
 * max_write_queue (2048): S1 stops at 21 frames, 2100 bytes. After frame
 * k (11 <= k <= 28) the node pins 89 + 100 + min(100 k, 2100) + 100 (k -
 * 10): 4089 at k = 28, within 4096; frame 29 brings it to 4189: the one
 * that pins the most, S1 (2100 against S2's 1900), is dropped SLOW
 * (closed at once, no flush), and nobody else: after it 189 + 1900 =
 * 2089. S2 then stops at 2100 (frame 31): 2289 at most, so to frame 40
 * nobody more goes. With the total off, nobody is ever dropped (each
 * within max_write_queue). */
Test(room, past_the_nodes_write_queue_total_the_slowest_reader_goes)
{
    Queues q;
    queues_new(&q);
    for (int k = 1; k <= 40; k++) {
        queues_frame(&q, k);
        cr_assert_eq(q.s2.closing, 0, "frame %d: S2 went", k);
        cr_assert_eq(q.s1.closing, k >= 29, "frame %d: S1 %s", k,
                     k >= 29 ? "kept past the total" : "dropped early");
        if (k < 29)
            cr_assert_eq(q.s1.queued, k <= 21 ? 100u * (unsigned)k : 2100u);
        if (k > 10)
            cr_assert_eq(q.s2.queued,
                         k <= 31 ? 100u * (unsigned)(k - 10) : 2100u,
                         "frame %d: S2's queue", k);
    }
    cr_assert_eq(q.s1.reason, LOBBY_CLOSE_SLOW);
    cr_assert_eq(q.s1.flushed, 0);
    cr_assert_eq(queues_free(&q), 1);
}

/* The rooms learn that a queue shrank only when it drains; a member
 * whose queue was written in part (S1: from 2100 to 300, never empty)
 * must not be taken for the slowest. As above, to frame 28 (S1 2100,
 * having been sent frames 1 to 21; S2 1800); then S1's peer reads all but
 * 300 bytes. Frame 29 goes to S2 first (the latest spectator is first in
 * its room's list): S2 1900, and as the rooms last saw S1 (2100) the node
 * would pin 4189 > 4096, but S1 really pins 300: nobody goes. S1 is then
 * sent frames 22 to 29 (300 < 2048 before each): 1100, the node 189 +
 * 1100 + 1900 = 3189. S2 stops at 2100 (frame 31); S1 after frame k is
 * 1100 + 100 (k - 29): the node pins 189 + S1 + 2100 (k >= 31), 4089 at
 * k = 36 and 4189 at k = 37 (S1 1900): now S2 pins the most and goes,
 * alone; S1 then stops at 2100 (frame 39): 2289, to frame 50 nobody
 * more. */
Test(room, a_reader_that_drains_in_part_is_not_taken_for_the_slowest)
{
    Queues q;
    queues_new(&q);
    for (int k = 1; k <= 50; k++) {
        if (k == 29) {
            cr_assert_eq(q.s1.queued, 2100);
            cr_assert_eq(q.s2.queued, 1800);
            q.s1.queued = 300; /* written in part: no drain */
        }
        queues_frame(&q, k);
        cr_assert_eq(q.s1.closing, 0, "frame %d: S1 went", k);
        cr_assert_eq(q.s2.closing, k >= 37, "frame %d: S2 %s", k,
                     k >= 37 ? "kept past the total" : "dropped early");
        if (k >= 29 && k < 37)
            cr_assert_eq(q.s1.queued, 1100u + 100u * (unsigned)(k - 29),
                         "frame %d: S1's queue", k);
    }
    cr_assert_eq(q.s1.queued, 2100);
    cr_assert_eq(q.s2.reason, LOBBY_CLOSE_SLOW);
    cr_assert_eq(queues_free(&q), 1);
}

/* Lobby protocol 4 (the fair-play issue: the relay witnesses players,
 * not seats): a hello proves its player's key; the guest seat holds one
 * key, the one its host named or the first guest's; a stand-in's key is
 * refused the seat (SEAT, 6), and a hello whose proof is not its key's
 * is a forgery (PROTOCOL, 1). WELCOME names the seated guest's key at
 * byte 91, PRESENCE at byte 11. */
Test(room, the_guest_seat_holds_one_proven_key)
{
    Proto_Identity stand_in;
    uint8_t seed[32], m[256];
    Link h, g, x;
    memset(seed, 0xcc, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&stand_in, seed), 0);

    /* forged proofs: a CREATE's proof byte flipped, a JOIN naming the
     * guest's key with the stand-in's proof */
    Lobby_Member *xm = member(&x, "192.0.2.9", 0);
    size_t n = create(m, 0x51, 0x52, 0);
    m[120] ^= 1;
    lobby_rooms_message(xm, m, n, 1);
    cr_assert_eq(error_of(&x, 0), 1);
    lobby_rooms_closed(xm, 1);

    /* a host naming its guest (a resumed match) */
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    lobby_rooms_message(hm, m, create_naming(m, 0x61, 0x62, 0, guest_id.pk), 2);
    cr_assert_eq(h.msg[0][0], 0x81);
    cr_assert_arr_eq(h.msg[0] + 91, guest_id.pk, 32);
    xm = member(&x, "192.0.2.9", 0);
    n = join_as(m, 0x61, 0x07, 0, &stand_in);
    lobby_rooms_message(xm, m, n, 3);
    cr_assert_eq(error_of(&x, 0), 6, "a stand-in took the named seat");
    lobby_rooms_closed(xm, 3);
    xm = member(&x, "192.0.2.9", 0);
    n = join_as(m, 0x61, 0x07, 0, &stand_in);
    memcpy(m + 34, guest_id.pk, 32); /* the guest's key, the stand-in's proof */
    lobby_rooms_message(xm, m, n, 4);
    cr_assert_eq(error_of(&x, 0), 1);
    lobby_rooms_closed(xm, 4);
    Lobby_Member *gm = member(&g, "192.0.2.2", 0);
    lobby_rooms_message(gm, m, join(m, 0x61, 0x08, 0), 5);
    cr_assert_eq(g.msg[0][0], 0x81);
    cr_assert_arr_eq(g.msg[0] + 91, guest_id.pk, 32);
    lobby_rooms_closed(gm, 6);
    lobby_rooms_closed(hm, 6);

    /* a room naming none: a stand-in that joins first holds the seat
     * with its key (the host is told so) until it leaves without a
     * word; then seat and key are the next guest's */
    memset(&h, 0, sizeof h);
    hm = member(&h, "192.0.2.1", 0);
    lobby_rooms_message(hm, m, create(m, 0x71, 0x72, 0), 7);
    cr_assert_eq(h.msg[0][0], 0x81);
    uint8_t none[32] = {0};
    cr_assert_arr_eq(h.msg[0] + 91, none, 32);
    xm = member(&x, "192.0.2.9", 0);
    lobby_rooms_message(xm, m, join_as(m, 0x71, 0x07, 0, &stand_in), 8);
    cr_assert_eq(x.msg[0][0], 0x81);
    cr_assert_arr_eq(x.msg[0] + 91, stand_in.pk, 32);
    cr_assert_eq(h.msg[1][0], 0x84);
    cr_assert_arr_eq(h.msg[1] + 11, stand_in.pk, 32);
    /* (the guest, meanwhile: the seat is taken) */
    memset(&g, 0, sizeof g);
    gm = member(&g, "192.0.2.2", 0);
    lobby_rooms_message(gm, m, join(m, 0x71, 0x08, 0), 9);
    cr_assert_eq(error_of(&g, 0), 6);
    lobby_rooms_closed(gm, 9);
    lobby_rooms_closed(xm, 10);
    cr_assert_eq(h.msg[2][0], 0x84); /* gone, for no guest */
    cr_assert_arr_eq(h.msg[2] + 11, none, 32);
    memset(&g, 0, sizeof g);
    gm = member(&g, "192.0.2.2", 0);
    lobby_rooms_message(gm, m, join(m, 0x71, 0x08, 0), 11);
    cr_assert_eq(g.msg[0][0], 0x81);
    cr_assert_arr_eq(g.msg[0] + 91, guest_id.pk, 32);
    /* the guest speaks: now its key holds the seat for good; its secret
     * with another key is refused, and so is the host's key as a guest */
    m[0] = 0x04;
    m[1] = 'x';
    lobby_rooms_message(gm, m, 2, 12);
    lobby_rooms_closed(gm, 13);
    memset(&x, 0, sizeof x);
    xm = member(&x, "192.0.2.9", 0);
    lobby_rooms_message(xm, m, join_as(m, 0x71, 0x08, 0, &stand_in), 14);
    cr_assert_eq(error_of(&x, 0), 6, "the guest's secret with another key");
    lobby_rooms_closed(xm, 14);
    memset(&x, 0, sizeof x);
    xm = member(&x, "192.0.2.9", 0);
    lobby_rooms_message(xm, m, join_as(m, 0x71, 0x09, 0, &host_id), 15);
    cr_assert_eq(error_of(&x, 0), 6);
    lobby_rooms_closed(xm, 15);
    memset(&g, 0, sizeof g);
    gm = member(&g, "192.0.2.2", 0);
    lobby_rooms_message(gm, m, join(m, 0x71, 0x08, 1), 16);
    cr_assert_eq(g.msg[0][0], 0x81, "the guest takes its seat back");
    lobby_rooms_closed(gm, 17);
    lobby_rooms_closed(hm, 17);
    proto_identity_wipe(&stand_in);
}

/* A receipt attests a seat its room never seated as PROTO_ABSENT_NEVER
 * (0xffffffff), never as present: before any guest came, the host's
 * frame's ACK says host 0, guest never; once a guest was seated, 0 and
 * 0 (ACK: 0x83, seq, time, absences at 17 and 21). A cheating host's
 * second room, which its opponent never entered, so witnesses no flag
 * of the opponent's time (docs/trust.md). */
Test(room, a_seat_never_seated_is_attested_never_seated)
{
    Link h, g;
    uint8_t m[256];
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    lobby_rooms_message(hm, m, create(m, 0x81, 0x82, 0), 1);
    m[0] = 0x04;
    m[1] = 'a';
    lobby_rooms_message(hm, m, 2, 2);
    cr_assert_eq(h.msg[1][0], 0x83);
    cr_assert_eq(get32(h.msg[1] + 17), 0);
    cr_assert_eq(get32(h.msg[1] + 21), 0xffffffffu);
    Lobby_Member *gm = member(&g, "192.0.2.2", 0);
    lobby_rooms_message(gm, m, join(m, 0x81, 0x05, 0), 3);
    m[0] = 0x04;
    m[1] = 'b';
    lobby_rooms_message(hm, m, 2, 4);
    cr_assert_eq(h.msg[h.n - 1][0], 0x83);
    cr_assert_eq(get32(h.msg[h.n - 1] + 17), 0);
    cr_assert_eq(get32(h.msg[h.n - 1] + 21), 0);
    lobby_rooms_closed(gm, 5);
    lobby_rooms_closed(hm, 5);
}

/* ---- public seeks (issue 37; docs/protocol-lobby.md "Seeks") ---- */

/* A seek card by hand: 01, the host key, the code's 16 symbols, the
 * game, the options and the name record (rec[0..rlen)) each after its
 * length byte, then id's signature of "tabula seek 1" NUL and every byte
 * before it (libsodium itself). */
/* id's signature at b + n of label (13 characters), its NUL and b[0..n)
 * (libsodium itself); returns n + 64. */
static size_t signed_by_hand(const char *label, uint8_t *b, size_t n,
                             const Proto_Identity *id)
{
    uint8_t buf[14 + 700];
    memcpy(buf, label, 14);
    memcpy(buf + 14, b, n);
    cr_assert_eq(crypto_sign_detached(b + n, NULL, buf, 14 + n, id->sk), 0);
    return n + 64;
}

static size_t card_named(uint8_t *c, const Proto_Identity *id,
                         const Lobby_Code *code, const char *game,
                         const char *opts, const uint8_t *rec, size_t rlen,
                         const Proto_Identity *player)
{
    size_t n = 0;
    c[n++] = 1;
    memcpy(c + n, id->pk, 32);
    n += 32;
    memcpy(c + n, code->secret, 12);
    memcpy(c + n + 12, code->fingerprint, 4);
    n += 16;
    c[n++] = (uint8_t)strlen(game);
    memcpy(c + n, game, strlen(game));
    n += strlen(game);
    c[n++] = (uint8_t)strlen(opts);
    memcpy(c + n, opts, strlen(opts));
    n += strlen(opts);
    c[n++] = (uint8_t)(rlen > 0 ? rlen + 64 : 0);
    memcpy(c + n, rec, rlen);
    n += rlen;
    if (rlen > 0) { /* the player binds its name to this host key and code:
                       "tabula seek by 1" NUL, the key, the 16 symbols */
        uint8_t by[17 + 32 + 16];
        memcpy(by, "tabula seek by 1", 17);
        memcpy(by + 17, c + 1, 48);
        cr_assert_eq(crypto_sign_detached(c + n, NULL, by, sizeof by,
                                          player->sk),
                     0);
        n += 64;
    }
    return signed_by_hand("tabula seek 1", c, n, id);
}

/* The same with a name of raw bytes (no record: "" only, or a forgery). */
static size_t card_by_hand(uint8_t *c, const Proto_Identity *id,
                           const Lobby_Code *code, const char *game,
                           const char *opts, const char *name)
{
    return card_named(c, id, code, game, opts, (const uint8_t *)name,
                      strlen(name), NULL);
}
/* The host's code number k (its secret's symbols from k). */
static Lobby_Code code_of(uint8_t k)
{
    uint8_t bytes[12];
    Lobby_Code c;
    for (int i = 0; i < 12; i++)
        bytes[i] = (uint8_t)(k + i);
    cr_assert_eq(lobby_code_make(bytes, host_id.pk, &c), 0);
    return c;
}

/* SEEK: 06 and the card. */
static size_t seek_msg(uint8_t *m, const Lobby_Code *code, const char *game)
{
    m[0] = 0x06;
    return 1 + card_by_hand(m + 1, &host_id, code, game, "clock=300+3", "");
}

/* SEEKS: 07 04, the game NUL-padded to 16 bytes. */
static size_t seeks_msg(uint8_t *m, const char *game)
{
    m[0] = 0x07;
    m[1] = 4;
    memset(m + 2, 0, 16);
    memcpy(m + 2, game, strlen(game));
    return 18;
}

/* A name record by hand (docs/protocol.md "Display names"): 01, the
 * key, time u64, the name's length and bytes, then the key's signature
 * of "tabula name 1" NUL and every byte before it: 106 + n bytes. */
static size_t record_by_hand(uint8_t *r, const Proto_Identity *id,
                             const char *name)
{
    size_t n = 0, k = strlen(name);
    r[n++] = 1;
    memcpy(r + n, id->pk, 32);
    n += 32;
    put64(r + n, 1700000000000ull);
    n += 8;
    r[n++] = (uint8_t)k;
    memcpy(r + n, name, k);
    n += k;
    return signed_by_hand("tabula name 1", r, n, id);
}

/* The card is laid out as the protocol says: lobby_seek_card's bytes are
 * the hand-made card's (Ed25519 signs deterministically), 305 bytes with
 * the player's name record "Jan" and the player's binding of it (1 + 32
 * + 16 + 1 + 5 + 1 + 11 + 1 + 109 + 64 + 64); it reads back as written,
 * the name with the player's own key; any one bit flipped, anywhere, and
 * it is refused; the record copied into a card of another code is
 * refused (the binding names the first code: a name cannot be borrowed);
 * a record whose name holds U+202E (signed by hand: proto_name_sign would
 * not) makes the card a forgery. */
Test(room, a_seek_card_is_the_documented_bytes)
{
    Lobby_Code code = code_of(3);
    Proto_Identity player;
    uint8_t seed[32], rec[200], want[700], got[LOBBY_SEEK_CARD_MAX];
    memset(seed, 0xcc, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&player, seed), 0);
    size_t rlen = record_by_hand(rec, &player, "Jan"), len = 0;
    size_t wlen = card_named(want, &host_id, &code, "laska", "clock=300+3",
                             rec, rlen, &player);
    Lobby_Seek s;

    cr_assert_eq(rlen, 109);
    cr_assert_eq(wlen, 305);
    cr_assert_eq(lobby_seek_card(&host_id, &code, "laska", "clock=300+3", rec,
                                 rlen, &player, got, &len),
                 0);
    cr_assert_eq(len, wlen);
    cr_assert(memcmp(got, want, len) == 0);
    cr_assert_eq(lobby_seek_card_read(got, len, &s), 0);
    cr_assert_str_eq(s.game, "laska");
    cr_assert_str_eq(s.options, "clock=300+3");
    cr_assert_eq(s.named, 1);
    cr_assert_str_eq(s.who.name, "Jan");
    cr_assert(memcmp(s.who.pk, player.pk, 32) == 0);
    cr_assert_str_eq(s.invite.text, code.text);
    cr_assert(memcmp(s.host_pk, host_id.pk, 32) == 0);
    for (size_t i = 0; i < len; i++)
        for (int b = 0; b < 8; b++) {
            got[i] ^= (uint8_t)(1u << b);
            cr_assert_neq(lobby_seek_card_read(got, len, &s), 0,
                          "byte %zu bit %d", i, b);
            got[i] ^= (uint8_t)(1u << b);
        }
    /* U+202E (E2 80 AE) inside the name */
    /* the player's record copied into another seek (another code): its
     * binding names the first seek's code, not this one's */
    Lobby_Code other = code_of(4);
    uint8_t copied[700];
    memcpy(copied, want, wlen);
    memcpy(copied + 33, other.secret, 12);
    memcpy(copied + 45, other.fingerprint, 4);
    signed_by_hand("tabula seek 1", copied, wlen - 64, &host_id);
    cr_assert_eq(lobby_seek_card_read(copied, wlen, &s), TB_E_SIGNATURE);
    /* a record another player's key would bind */
    cr_assert_eq(lobby_seek_card(&host_id, &code, "laska", "", rec, rlen,
                                 &guest_id, got, &len),
                 TB_E_ARG);
    rlen = record_by_hand(rec, &player, "J\xe2\x80\xae" "an");
    wlen = card_named(want, &host_id, &code, "laska", "", rec, rlen, &player);
    cr_assert_eq(lobby_seek_card_read(want, wlen, &s), TB_E_FORMAT);
    cr_assert_eq(lobby_seek_card(&host_id, &code, "laska", "", rec, rlen,
                                 &player, got, &len),
                 TB_E_FORMAT);
    /* the guest's signature over the host's code: the code's fingerprint
     * is not the guest's key */
    wlen = card_by_hand(want, &guest_id, &code, "laska", "", "");
    cr_assert_eq(lobby_seek_card_read(want, wlen, &s), TB_E_SIGNATURE);
    cr_assert_eq(lobby_seek_card(&guest_id, &code, "laska", "", NULL, 0, NULL,
                                 got, &len),
                 TB_E_ARG);
    /* a space in the options, an empty game */
    cr_assert_eq(lobby_seek_card(&host_id, &code, "laska", "a b", NULL, 0,
                                 NULL, got, &len),
                 TB_E_FORMAT);
    cr_assert_eq(lobby_seek_card(&host_id, &code, "", "", NULL, 0, NULL, got,
                                 &len),
                 TB_E_FORMAT);
}

/* A host's seek is answered SEEKED 0 (87 00) and listed: a SEEKS gets
 * one LIST (88, last 1, count 1, then since u64 = the wall clock when it
 * was listed, length u16 = 132, the card as sent (no name): 146 bytes) and is
 * closed after it; a SEEKS of another game gets an empty last LIST (4
 * bytes). Once a guest took the seat, the list is empty. */
Test(room, a_seek_is_listed_until_a_guest_takes_it)
{
    Link h, g, l1, l2, l3;
    uint8_t m[600];
    Lobby_Code code = code_of(7);
    lobby_rooms_use_witness(rs, NULL, wall_ms, NULL);
    wall = 1700000000123ull;
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    lobby_rooms_message(hm, m, create_at(m, code.lookup, 0x72, 0, NULL), 1);
    cr_assert_eq(h.msg[0][0], 0x81);
    size_t n = seek_msg(m, &code, "laska");
    lobby_rooms_message(hm, m, n, 2);
    cr_assert_eq(h.n, 2);
    cr_assert_eq(h.len[1], 2);
    cr_assert(h.msg[1][0] == 0x87 && h.msg[1][1] == 0);

    wall += 5000;
    Lobby_Member *lm = member(&l1, "192.0.2.9", 3);
    lobby_rooms_message(lm, m, seeks_msg(m, ""), 3);
    cr_assert_eq(l1.n, 1);
    cr_assert_eq(l1.len[0], 146);
    cr_assert(l1.msg[0][0] == 0x88 && l1.msg[0][1] == 1);
    cr_assert(l1.msg[0][2] == 0 && l1.msg[0][3] == 1);
    cr_assert_eq(get64(l1.msg[0] + 4), 1700000000123ull);
    cr_assert(l1.msg[0][12] == 0 && l1.msg[0][13] == 132);
    seek_msg(m, &code, "laska");
    cr_assert(memcmp(l1.msg[0] + 14, m + 1, 132) == 0);
    cr_assert(l1.closing && l1.flushed);
    lobby_rooms_closed(lm, 4);

    lm = member(&l2, "192.0.2.9", 4);
    lobby_rooms_message(lm, m, seeks_msg(m, "chessball"), 4);
    cr_assert_eq(l2.n, 1);
    cr_assert_eq(l2.len[0], 4);
    cr_assert(l2.msg[0][0] == 0x88 && l2.msg[0][1] == 1 && l2.msg[0][3] == 0);
    lobby_rooms_closed(lm, 5);

    Lobby_Member *gm = member(&g, "192.0.2.2", 5);
    lobby_rooms_message(gm, m, join_at(m, code.lookup, 0x44, 0, &guest_id), 6);
    cr_assert_eq(g.msg[0][0], 0x81);
    lm = member(&l3, "192.0.2.9", 7);
    lobby_rooms_message(lm, m, seeks_msg(m, ""), 7);
    cr_assert_eq(l3.len[0], 4);
    cr_assert_eq(l3.msg[0][3], 0);
    lobby_rooms_closed(lm, 8);
    lobby_rooms_closed(gm, 8);
    lobby_rooms_closed(hm, 8);
}

/* A seek goes with its host: once the host's connection is gone, the
 * list is empty (the room stays, for its host to come back). */
Test(room, a_seek_goes_when_its_host_leaves)
{
    Link h, l;
    uint8_t m[600];
    Lobby_Code code = code_of(9);
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    lobby_rooms_message(hm, m, create_at(m, code.lookup, 0x92, 0, NULL), 1);
    lobby_rooms_message(hm, m, seek_msg(m, &code, "laska"), 2);
    cr_assert(h.msg[1][0] == 0x87 && h.msg[1][1] == 0);
    lobby_rooms_closed(hm, 3);
    Lobby_Member *lm = member(&l, "192.0.2.9", 4);
    lobby_rooms_message(lm, m, seeks_msg(m, ""), 4);
    cr_assert_eq(l.len[0], 4);
    cr_assert_eq(l.msg[0][3], 0);
    lobby_rooms_closed(lm, 5);
}

/* One key has 4 open seeks (key_seeks), one address 8 (source_seeks):
 * the fifth of one host is answered SEEKED 13 (SEEKS) and its room
 * stays, unlisted; with source_seeks 2, a second key at the same address
 * is answered 13 at its first seek past the address's two. */
Test(room, seeks_are_shared_per_key_and_per_address)
{
    Link h[5], g;
    uint8_t m[600];
    Lobby_Member *hm[5];
    for (int i = 0; i < 5; i++) {
        Lobby_Code code = code_of((uint8_t)(20 + i));
        hm[i] = member(&h[i], "192.0.2.1", 0);
        lobby_rooms_message(hm[i], m,
                            create_at(m, code.lookup, (uint8_t)(0xa0 + i), 0,
                                      NULL),
                            1);
        lobby_rooms_message(hm[i], m, seek_msg(m, &code, "laska"), 2);
        cr_assert_eq(h[i].msg[1][0], 0x87);
        cr_assert_eq(h[i].msg[1][1], i < 4 ? 0 : 13, "seek %d", i);
    }
    for (int i = 0; i < 5; i++)
        lobby_rooms_closed(hm[i], 3);

    Lobby_Limits lim = {0};
    lim.source_seeks = 2;
    lobby_rooms_free(rs);
    cr_assert_eq(lobby_rooms_new(&lim, &rs), 0);
    for (int i = 0; i < 2; i++) {
        Lobby_Code code = code_of((uint8_t)(40 + i));
        hm[i] = member(&h[i], "192.0.2.1", 0);
        lobby_rooms_message(hm[i], m,
                            create_at(m, code.lookup, (uint8_t)(0xb0 + i), 0,
                                      NULL),
                            1);
        lobby_rooms_message(hm[i], m, seek_msg(m, &code, "laska"), 2);
        cr_assert_eq(h[i].msg[1][1], 0);
    }
    /* the guest's key, the same address: its own room and code */
    Lobby_Code gc;
    uint8_t bytes[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    cr_assert_eq(lobby_code_make(bytes, guest_id.pk, &gc), 0);
    Lobby_Member *gm = member(&g, "192.0.2.1", 0);
    lobby_rooms_message(gm, m, create_by(m, &guest_id, gc.lookup, 0xc1, 0,
                                         NULL),
                        1);
    cr_assert_eq(g.msg[0][0], 0x81);
    m[0] = 0x06;
    size_t n = 1 + card_by_hand(m + 1, &guest_id, &gc, "laska", "", "");
    lobby_rooms_message(gm, m, n, 2);
    cr_assert(g.msg[1][0] == 0x87 && g.msg[1][1] == 13);
    lobby_rooms_closed(gm, 3);
    for (int i = 0; i < 2; i++)
        lobby_rooms_closed(hm[i], 3);
}

/* A card that is not the room's is a forgery: another room's code, or
 * signed by another key, is PROTOCOL (ERROR 1); a SEEK from a guest is
 * NOT_ALLOWED (8); a second SEEK on one connection while the first is
 * listed, too. */
Test(room, a_seek_for_another_room_is_refused)
{
    Link h, h2, h3, g;
    uint8_t m[600];
    Lobby_Code code = code_of(50), other = code_of(60);
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    lobby_rooms_message(hm, m, create_at(m, code.lookup, 0xd2, 0, NULL), 1);
    lobby_rooms_message(hm, m, seek_msg(m, &other, "laska"), 2);
    cr_assert_eq(error_of(&h, 1), 1);
    lobby_rooms_closed(hm, 3);

    hm = member(&h2, "192.0.2.1", 4);
    lobby_rooms_message(hm, m, create_at(m, code.lookup, 0xd2, 0, NULL), 5);
    Lobby_Member *gm = member(&g, "192.0.2.2", 5);
    lobby_rooms_message(gm, m, join_at(m, code.lookup, 0x45, 0, &guest_id), 6);
    lobby_rooms_message(gm, m, seek_msg(m, &code, "laska"), 7);
    cr_assert_eq(error_of(&g, g.n - 1), 8);
    lobby_rooms_closed(gm, 8);
    lobby_rooms_closed(hm, 8);

    Lobby_Code third = code_of(70);
    hm = member(&h3, "192.0.2.1", 9);
    lobby_rooms_message(hm, m, create_at(m, third.lookup, 0xd3, 0, NULL), 10);
    lobby_rooms_message(hm, m, seek_msg(m, &third, "laska"), 11);
    cr_assert(h3.msg[1][0] == 0x87 && h3.msg[1][1] == 0);
    lobby_rooms_message(hm, m, seek_msg(m, &third, "laska"), 12);
    cr_assert_eq(error_of(&h3, h3.n - 1), 8);
    lobby_rooms_closed(hm, 13);
}

/* An address may ask for the list 4 times at once (LOBBY_LIST_BURST) and
 * once more each 2000 ms (LOBBY_LIST_REFILL_MS): the fifth at once is
 * RATE (4); another address is not held by it; 2000 ms later one more
 * is listed. */
Test(room, the_list_is_rate_limited_per_address)
{
    Link l[7];
    uint8_t m[32];
    Lobby_Member *lm;
    for (int i = 0; i < 5; i++) {
        lm = member(&l[i], "192.0.2.9", 100);
        lobby_rooms_message(lm, m, seeks_msg(m, ""), 100);
        cr_assert_eq(l[i].msg[0][0], i < 4 ? 0x88 : 0x85, "ask %d", i);
        if (i == 4)
            cr_assert_eq(error_of(&l[i], 0), 4);
        lobby_rooms_closed(lm, 100);
    }
    lm = member(&l[5], "192.0.2.10", 100);
    lobby_rooms_message(lm, m, seeks_msg(m, ""), 100);
    cr_assert_eq(l[5].msg[0][0], 0x88);
    lobby_rooms_closed(lm, 100);
    lm = member(&l[6], "192.0.2.9", 2100);
    lobby_rooms_message(lm, m, seeks_msg(m, ""), 2100);
    cr_assert_eq(l[6].msg[0][0], 0x88);
    lobby_rooms_closed(lm, 2100);
}

/* A joiner that gives the seat back before it spoke (it only looked)
 * took the seek off the list; the host puts it up again on the same
 * connection (SEEKED 0) and it is listed again, waiting from then. */
Test(room, a_seek_given_back_goes_up_again)
{
    Link h, g, l1, l2;
    uint8_t m[600];
    Lobby_Code code = code_of(11);
    lobby_rooms_use_witness(rs, NULL, wall_ms, NULL);
    wall = 1700000000000ull;
    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    lobby_rooms_message(hm, m, create_at(m, code.lookup, 0x73, 0, NULL), 1);
    lobby_rooms_message(hm, m, seek_msg(m, &code, "laska"), 2);
    cr_assert(h.msg[1][0] == 0x87 && h.msg[1][1] == 0);
    Lobby_Member *gm = member(&g, "192.0.2.2", 3);
    lobby_rooms_message(gm, m, join_at(m, code.lookup, 0x46, 0, &guest_id), 3);
    Lobby_Member *lm = member(&l1, "192.0.2.9", 4);
    lobby_rooms_message(lm, m, seeks_msg(m, ""), 4);
    cr_assert_eq(l1.msg[0][3], 0, "taken: not listed");
    lobby_rooms_closed(lm, 4);
    lobby_rooms_closed(gm, 5); /* it never spoke: the seat is free */
    wall += 60000;
    lobby_rooms_message(hm, m, seek_msg(m, &code, "laska"), 6);
    cr_assert_eq(h.msg[h.n - 1][0], 0x87);
    cr_assert_eq(h.msg[h.n - 1][1], 0);
    lm = member(&l2, "192.0.2.9", 7);
    lobby_rooms_message(lm, m, seeks_msg(m, ""), 7);
    cr_assert_eq(l2.msg[0][3], 1);
    cr_assert_eq(get64(l2.msg[0] + 4), 1700000060000ull);
    lobby_rooms_closed(lm, 8);
    lobby_rooms_closed(hm, 8);
}

/* A player's seeks count together though each game has its own host
 * key: five rooms of five host keys, each card carrying the one
 * player's name record, from five addresses: the fifth is SEEKED 13
 * (key_seeks 4 a player). */
Test(room, a_players_seeks_count_by_its_name_key)
{
    Link h[5];
    uint8_t m[700], seed[32], rec[200];
    Proto_Identity player, host[5];
    Lobby_Member *hm[5];
    memset(seed, 0xcd, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&player, seed), 0);
    size_t rlen = record_by_hand(rec, &player, "Jan");
    for (int i = 0; i < 5; i++) {
        char addr[16];
        uint8_t bytes[12];
        Lobby_Code code;
        memset(seed, 0x30 + i, sizeof seed);
        cr_assert_eq(proto_identity_from_seed(&host[i], seed), 0);
        memset(bytes, 0x40 + i, sizeof bytes);
        cr_assert_eq(lobby_code_make(bytes, host[i].pk, &code), 0);
        snprintf(addr, sizeof addr, "192.0.2.%d", 20 + i);
        hm[i] = member(&h[i], addr, 0);
        lobby_rooms_message(hm[i], m,
                            create_by(m, &host[i], code.lookup,
                                      (uint8_t)(0xe0 + i), 0, NULL),
                            1);
        cr_assert_eq(h[i].msg[0][0], 0x81);
        m[0] = 0x06;
        size_t n = 1 + card_named(m + 1, &host[i], &code, "laska", "", rec,
                                  rlen, &player);
        lobby_rooms_message(hm[i], m, n, 2);
        cr_assert_eq(h[i].msg[1][0], 0x87);
        cr_assert_eq(h[i].msg[1][1], i < 4 ? 0 : 13, "seek %d", i);
    }
    for (int i = 0; i < 5; i++)
        lobby_rooms_closed(hm[i], 3);
}

/* ---- the pool (issue 37) ---- */

/* Player k's key pair (seed k in every byte) and its code (k's symbols,
 * bound to that key). */
static Proto_Identity player_id(uint8_t k)
{
    Proto_Identity id;
    uint8_t seed[32];
    memset(seed, k, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&id, seed), 0);
    return id;
}

static Lobby_Code player_code(uint8_t k, const Proto_Identity *id)
{
    uint8_t bytes[12];
    Lobby_Code c;
    for (int i = 0; i < 12; i++)
        bytes[i] = (uint8_t)(k + i);
    cr_assert_eq(lobby_code_make(bytes, id->pk, &c), 0);
    return c;
}

/* POOL by hand: 08, version, games u16, the range's length and text,
 * the rating range (0 and 0: any), the player's key, the card of its seat key id (game laska, no
 * options, no name: 132 bytes), then the player's proof of "tabula pool
 * 1" NUL and every byte before it. */
/* The rating range the next POOL by hand asks (0 and 0: any). */
static uint16_t hand_want[2];

static size_t pool_as(uint8_t *m, uint8_t version, uint16_t games,
                      const char *range, const Proto_Identity *player,
                      const Proto_Identity *id, const Lobby_Code *code)
{
    size_t n = 0, k = strlen(range);
    m[n++] = 0x08;
    m[n++] = version;
    m[n++] = (uint8_t)(games >> 8);
    m[n++] = (uint8_t)games;
    m[n++] = (uint8_t)k;
    memcpy(m + n, range, k);
    n += k;
    m[n++] = (uint8_t)(hand_want[0] >> 8);
    m[n++] = (uint8_t)hand_want[0];
    m[n++] = (uint8_t)(hand_want[1] >> 8);
    m[n++] = (uint8_t)hand_want[1];
    memcpy(m + n, player->pk, 32);
    n += 32;
    n += card_by_hand(m + n, id, code, "laska", "", "");
    return signed_by_hand("tabula pool 1", m, n, player);
}

/* The same, the player's own seat key its player key. */
static size_t pool_msg(uint8_t *m, uint8_t version, uint16_t games,
                       const char *range, const Proto_Identity *id,
                       const Lobby_Code *code)
{
    return pool_as(m, version, games, range, id, id, code);
}

/* l's message k is POOL_WAIT (89, then 16 counts u32) saying c0 waiting
 * for game 0, c1 for game 1 and none for the others. */
static void told(const Link *l, int k, uint32_t c0, uint32_t c1)
{
    uint8_t want[65] = {0x89};
    want[4] = (uint8_t)c0;
    want[8] = (uint8_t)c1;
    cr_assert_gt(l->n, k);
    cr_assert_eq(l->len[k], 65);
    cr_assert(memcmp(l->msg[k], want, 65) == 0, "POOL_WAIT %d: %u %u", k,
              (unsigned)l->msg[k][4], (unsigned)l->msg[k][8]);
}

/* docs/pool.md's worked example as bytes (each player's seat key its
 * player key), games 0 (laska) and 1
 * (chessball): A offers both at 180+2..600+5 (3+2..10+5: 260..800 s),
 * C laska at 900+10..1800+0 (15+10..30+0: 1300..1800 s), B chessball at
 * 300+0 alone. A is told 1 and 1 at once (POOL_WAIT: 65 bytes); C 2 and
 * 1; A, told 1 ms earlier, only at the sweep a second after its last
 * (LOBBY_POOL_TELL_MS). B pairs with A in chessball at B's 300+0: both
 * get PAIRED (8a, role: A 00 hosts, being older, B 01; game 01; A's
 * code's 16 symbols; B's key; 05 "300+0"; 00, A's card's options, none:
 * 58 bytes) and are closed after it; C is told laska 1, chessball 0. */
Test(room, pool_offers_pair_as_worked_out_in_bytes)
{
    Link a, b, c;
    uint8_t m[700], want[58];
    Proto_Identity ia = player_id(0xa1), ib = player_id(0xb2),
                   ic = player_id(0xc3);
    Lobby_Code ca = player_code(40, &ia), cb = player_code(50, &ib),
               cc = player_code(60, &ic);
    Lobby_Member *am = member(&a, "192.0.2.1", 0);
    lobby_rooms_message(am, m, pool_msg(m, 5, 3, "180+2..600+5", &ia, &ca), 1);
    cr_assert_eq(a.n, 1);
    told(&a, 0, 1, 1);
    Lobby_Member *cm = member(&c, "192.0.2.3", 2);
    lobby_rooms_message(cm, m, pool_msg(m, 5, 1, "900+10..1800+0", &ic, &cc),
                        2);
    cr_assert_eq(c.n, 1);
    told(&c, 0, 2, 1);
    cr_assert_eq(a.n, 1); /* (told 1 ms ago) */
    lobby_rooms_sweep(rs, 500);
    cr_assert_eq(a.n, 1);
    lobby_rooms_sweep(rs, 1001);
    cr_assert_eq(a.n, 2);
    told(&a, 1, 2, 1);
    cr_assert_eq(c.n, 1);

    Lobby_Member *bm = member(&b, "192.0.2.2", 1500);
    lobby_rooms_message(bm, m, pool_msg(m, 5, 2, "300+0..300+0", &ib, &cb),
                        1500);
    size_t n = 0;
    want[n++] = 0x8a;
    want[n++] = 0;
    want[n++] = 1;
    memcpy(want + n, ca.secret, 12);
    memcpy(want + n + 12, ca.fingerprint, 4);
    n += 16;
    memcpy(want + n, ib.pk, 32);
    n += 32;
    want[n++] = 5;
    memcpy(want + n, "300+0", 5);
    n += 5;
    want[n++] = 0;
    cr_assert_eq(n, 58);
    cr_assert_eq(a.n, 3);
    cr_assert_eq(a.len[2], 58);
    cr_assert(memcmp(a.msg[2], want, 58) == 0);
    cr_assert(a.closing && a.flushed);
    want[1] = 1;
    cr_assert_eq(b.n, 1); /* (paired at once: no count first) */
    cr_assert_eq(b.len[0], 58);
    cr_assert(memcmp(b.msg[0], want, 58) == 0);
    cr_assert(b.closing && b.flushed);
    cr_assert_eq(c.n, 2);
    told(&c, 1, 1, 0);
    lobby_rooms_closed(am, 1501);
    lobby_rooms_closed(bm, 1501);
    lobby_rooms_closed(cm, 1502);
}

/* One player, one offer: a second POOL of the same player key (another
 * game's seat key and code in its card, from another address) is
 * refused ERROR 13 although it would pair with the first (its own), and
 * changes nothing; once the first connection is gone, the player offers
 * again and waits, counted alone. */
Test(room, a_player_offers_once_and_never_pairs_with_itself)
{
    Link a1, a2, a3;
    uint8_t m[700];
    Proto_Identity p = player_id(0xa1), s1 = player_id(0xd1),
                   s2 = player_id(0xd2);
    Lobby_Code c1 = player_code(40, &s1), c2 = player_code(41, &s2);
    Lobby_Member *m1 = member(&a1, "192.0.2.1", 0);
    lobby_rooms_message(m1, m, pool_as(m, 5, 1, "300+0..300+0", &p, &s1, &c1),
                        1);
    told(&a1, 0, 1, 0);
    Lobby_Member *m2 = member(&a2, "192.0.2.7", 2);
    lobby_rooms_message(m2, m, pool_as(m, 5, 1, "300+0..300+0", &p, &s2, &c2),
                        2);
    cr_assert_eq(error_of(&a2, 0), 13);
    cr_assert_eq(a1.n, 1);
    lobby_rooms_closed(m2, 3);
    lobby_rooms_closed(m1, 4);
    Lobby_Member *m3 = member(&a3, "192.0.2.1", 5);
    lobby_rooms_message(m3, m, pool_as(m, 5, 1, "300+0..300+0", &p, &s2, &c2),
                        5);
    cr_assert_eq(a3.n, 1);
    told(&a3, 0, 1, 0);
    lobby_rooms_closed(m3, 6);
}

/* An older offer whose connection is closing (its transport timed it out
 * or dropped it; the close runs on the loop's next turn) is not paired:
 * the newcomer would wait as a guest for a room no one makes. A's link
 * closes before B offers the same game and clock: B is told it waits
 * alone (laska 1), never PAIRED, and A is sent nothing more. */
Test(room, a_closing_offer_is_not_paired)
{
    Link a, b;
    uint8_t m[700];
    Proto_Identity ia = player_id(0xa1), ib = player_id(0xb2);
    Lobby_Code ca = player_code(40, &ia), cb = player_code(50, &ib);
    Lobby_Member *am = member(&a, "192.0.2.1", 0);
    lobby_rooms_message(am, m, pool_msg(m, 5, 1, "300+0..300+0", &ia, &ca), 1);
    told(&a, 0, 1, 0);
    a.closing = 1; /* (as net/ marks a timed-out connection) */
    Lobby_Member *bm = member(&b, "192.0.2.2", 2);
    lobby_rooms_message(bm, m, pool_msg(m, 5, 1, "300+0..300+0", &ib, &cb), 2);
    cr_assert_eq(b.n, 1);
    told(&b, 0, 1, 0);
    cr_assert(!b.closing);
    cr_assert_eq(a.n, 1);
    lobby_rooms_closed(am, 3);
    Link c;
    Proto_Identity ic = player_id(0xc3);
    Lobby_Code cc = player_code(60, &ic);
    Lobby_Member *cm = member(&c, "192.0.2.3", 4);
    lobby_rooms_message(cm, m, pool_msg(m, 5, 1, "300+0..300+0", &ic, &cc), 4);
    cr_assert_eq(c.msg[0][0], 0x8a); /* PAIRED with B, who waited */
    cr_assert_eq(b.msg[b.n - 1][0], 0x8a);
    lobby_rooms_closed(bm, 5);
    lobby_rooms_closed(cm, 5);
}

/* An offer's bytes are checked: version 3 is refused VERSION (ERROR 2);
 * no games, a range not in its canonical form (a leading zero, minutes
 * as typed "3+2..10+5" are 3 s and 10 s: canonical, and taken), ends out
 * of order, a forged card, and a POOL after a CREATE or a second one on
 * its connection are PROTOCOL (ERROR 1). A waiting offer is never timed
 * out as a connection that said nothing. */
/* Rated offers (issue 38): the room reads each offer's player in the
 * ratings it was handed (by fingerprint, game index 0 laska, class
 * untimed: these offers have no clock). A (1700) waits; B wants
 * 1800..2000 and is refused A; C (unrated: 1500) wants 1600..1700 and
 * takes A, who does not mind; B still waits. Then the table goes: a
 * newcomer D at 1500 is not B's either. */
Test(room, rated_offers_pair_by_the_ratings_handed_in)
{
    Link a, b, c, d;
    uint8_t m[700];
    char fp[PROTO_FINGERPRINT_MAX];
    Proto_Identity ia = player_id(0xa1), ib = player_id(0xb2),
                   ic = player_id(0xc3), id = player_id(0xd4);
    Lobby_Code ca = player_code(40, &ia), cb = player_code(50, &ib),
               cc = player_code(60, &ic), cd = player_code(70, &id);
    Lobby_Ratings *t;
    cr_assert_eq(lobby_ratings_new(&t), 0);
    proto_fingerprint(ia.pk, fp);
    cr_assert_eq(lobby_ratings_add(t, fp, 0, PROTO_CLASS_UNTIMED, 1700), 0);
    cr_assert_eq(lobby_ratings_add(t, fp, 0, PROTO_CLASS_COUNT, 1700),
                 TB_E_ARG);
    cr_assert_eq(lobby_ratings_add(t, fp, 0, 0, 0), TB_E_ARG);
    lobby_rooms_use_ratings(rs, t);

    Lobby_Member *am = member(&a, "192.0.2.1", 0);
    lobby_rooms_message(am, m, pool_msg(m, 5, 1, "", &ia, &ca), 1);
    told(&a, 0, 1, 0);
    hand_want[0] = 1800;
    hand_want[1] = 2000;
    Lobby_Member *bm = member(&b, "192.0.2.2", 2);
    lobby_rooms_message(bm, m, pool_msg(m, 5, 1, "", &ib, &cb), 2);
    told(&b, 0, 2, 0); /* (not paired: counted with A) */
    hand_want[0] = 1600;
    hand_want[1] = 1700;
    Lobby_Member *cm = member(&c, "192.0.2.3", 3);
    lobby_rooms_message(cm, m, pool_msg(m, 5, 1, "", &ic, &cc), 3);
    cr_assert_eq(c.n, 1);
    cr_assert_eq(c.msg[0][0], 0x8a); /* PAIRED */
    cr_assert_eq(c.msg[0][1], 1);    /* C is the guest: A hosts */
    cr_assert(a.closing && !b.closing);
    lobby_rooms_use_ratings(rs, NULL);
    hand_want[0] = hand_want[1] = 0;
    Lobby_Member *dm = member(&d, "192.0.2.4", 4);
    lobby_rooms_message(dm, m, pool_msg(m, 5, 1, "", &id, &cd), 4);
    told(&d, 0, 2, 0);
    cr_assert(!b.closing);
    lobby_rooms_closed(am, 5);
    lobby_rooms_closed(bm, 5);
    lobby_rooms_closed(cm, 5);
    lobby_rooms_closed(dm, 5);
}

Test(room, pool_offers_are_checked)
{
    Link l;
    uint8_t m[700];
    Proto_Identity ia = player_id(0xa1);
    Lobby_Code ca = player_code(40, &ia);
    struct {
        uint8_t version;
        uint16_t games;
        const char *range;
        int code;
    } bad[] = {{4, 1, "300+0..300+0", 2},  {5, 0, "300+0..300+0", 1},
               {5, 1, "0300+0..300+0", 1}, {5, 1, "600+0..300+0", 1},
               {5, 1, "300+0", 1},         {5, 1, "300+0..300d3", 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Lobby_Member *x = member(&l, "192.0.2.1", 0);
        lobby_rooms_message(x, m,
                            pool_msg(m, bad[i].version, bad[i].games,
                                     bad[i].range, &ia, &ca),
                            1);
        cr_assert_eq(error_of(&l, 0), bad[i].code, "%zu", i);
        lobby_rooms_closed(x, 2);
    }
    Lobby_Member *x = member(&l, "192.0.2.1", 0);
    size_t n = pool_msg(m, 5, 1, "300+0..300+0", &ia, &ca);
    m[n - 1] ^= 1; /* the player's proof */
    lobby_rooms_message(x, m, n, 1);
    cr_assert_eq(error_of(&l, 0), 1);
    lobby_rooms_closed(x, 2);
    x = member(&l, "192.0.2.1", 0);
    /* a card signed by another key than its own, proven by the player */
    Proto_Identity other = player_id(0xe5);
    n = pool_as(m, 5, 1, "300+0..300+0", &other, &ia, &ca);
    m[n - 65] ^= 1; /* the card's own signature */
    signed_by_hand("tabula pool 1", m, n - 64, &other);
    lobby_rooms_message(x, m, n, 1);
    cr_assert_eq(error_of(&l, 0), 1);
    lobby_rooms_closed(x, 2);

    x = member(&l, "192.0.2.1", 0);
    lobby_rooms_message(x, m, create(m, 0x31, 0x32, 0), 1);
    lobby_rooms_message(x, m, pool_msg(m, 5, 1, "3+2..10+5", &ia, &ca), 2);
    cr_assert_eq(error_of(&l, 1), 1);
    lobby_rooms_closed(x, 3);

    x = member(&l, "192.0.2.1", 10);
    lobby_rooms_message(x, m, pool_msg(m, 5, 1, "3+2..10+5", &ia, &ca), 11);
    told(&l, 0, 1, 0);
    lobby_rooms_sweep(rs, 60000); /* (past hello_timeout_ms: it waits) */
    cr_assert_eq(l.n, 1);
    cr_assert(!l.closing);
    lobby_rooms_message(x, m, pool_msg(m, 5, 1, "3+2..10+5", &ia, &ca), 60001);
    cr_assert_eq(error_of(&l, 1), 1);
    lobby_rooms_closed(x, 60002);
    /* a member whose offer waits only listens: a CREATE is PROTOCOL, and
     * its offer leaves with it (a new offer of the player waits alone) */
    x = member(&l, "192.0.2.1", 60003);
    lobby_rooms_message(x, m, pool_msg(m, 5, 1, "3+2..10+5", &ia, &ca), 60003);
    told(&l, 0, 1, 0);
    lobby_rooms_message(x, m, create(m, 0x41, 0x42, 0), 60004);
    cr_assert_eq(error_of(&l, 1), 1);
    lobby_rooms_closed(x, 60005);
    x = member(&l, "192.0.2.1", 60006);
    lobby_rooms_message(x, m, pool_msg(m, 5, 1, "3+2..10+5", &ia, &ca), 60006);
    told(&l, 0, 1, 0);
    lobby_rooms_closed(x, 60007);
}

/* KEEP keeps nothing until both seats have spoken, and nothing once a
 * seat said DONE (the trial of 2026-12-07): a stranger who takes a seek's
 * seat, asks KEEP and leaves without a word leaves the room to go as any
 * room does, 10 minutes after; a finished game's KEEP is void. */
Test(room, keep_waits_for_both_seats_and_ends_with_the_game)
{
    Link h, g;
    uint8_t m[256], inv[16];
    Lobby_Member *hm, *gm;
    memset(inv, 0x21, sizeof inv);
    a_game(&h, &g, &hm, &gm);
    speak(hm, 5);
    lobby_rooms_message(gm, m, keep_msg(m, 259200), 10);
    lobby_rooms_closed(gm, 20); /* (a silent guest: the seat goes back) */
    lobby_rooms_closed(hm, 30);
    lobby_rooms_sweep(rs, 30 + 600000);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 0, "not kept");

    memset(inv, 0x41, sizeof inv);
    Link h2, g2;
    Lobby_Member *hm2 = member(&h2, "192.0.2.1", 700000);
    Lobby_Member *gm2 = member(&g2, "192.0.2.2", 700000);
    lobby_rooms_message(hm2, m, create(m, 0x41, 0x42, 0), 700000);
    lobby_rooms_message(gm2, m, join(m, 0x41, 0x43, 0), 700000);
    speak(hm2, 700001);
    speak(gm2, 700002);
    uint8_t done[1] = {0x05};
    lobby_rooms_message(hm2, done, 1, 700003);
    lobby_rooms_message(gm2, m, keep_msg(m, 259200), 700004);
    lobby_rooms_closed(hm2, 700005);
    lobby_rooms_closed(gm2, 700006);
    lobby_rooms_sweep(rs, 700006 + 600000);
    cr_assert_eq(lobby_rooms_next_seq(rs, inv), 0, "a finished game");
}

/* ---- the archive's view of a room (issue 38; room.h Lobby_Archive_Ops) */

/* What the rooms handed a stub archive: each frame's number and payload,
 * the handle each call had, and each end. keep_from: the frame (0-based
 * call) at which the stub takes a handle (-1: never). */
typedef struct Arch_Seen {
    int calls, ends, whole[4], keep_from;
    uint64_t seq[16];
    char data[16][8];
    int had[16]; /* 1: the call had the stub's handle */
} Arch_Seen;

static void stub_frame(void *arch, void **h, const uint8_t *host_pk,
                       const Proto_Receipt *rc, const uint8_t *data, size_t n)
{
    Arch_Seen *a = arch;
    (void)host_pk;
    if (a->calls < 16) {
        a->seq[a->calls] = rc->seq;
        snprintf(a->data[a->calls], sizeof a->data[0], "%.*s", (int)n,
                 (const char *)data);
        a->had[a->calls] = *h == (void *)a;
    }
    if (a->keep_from >= 0 && a->calls >= a->keep_from)
        *h = a;
    a->calls++;
}

static void stub_end(void *arch, void *h, int whole)
{
    Arch_Seen *a = arch;
    cr_assert_eq(h, (void *)a);
    if (a->ends < 4)
        a->whole[a->ends] = whole;
    a->ends++;
}

static const Lobby_Archive_Ops stub_ops = {stub_frame, stub_end};

/* A game's frames reach the archive in order from the room's first (the
 * host's numbering starts at 1: create(..., 0)), the handle taken at the
 * second frame (the start after a HELLO) kept from then on; both DONEs
 * end it whole, once, and a frame after it is not given. */
Test(room, the_archive_gets_every_frame_in_order_until_the_game_ends)
{
    Link h, g;
    Lobby_Member *hm, *gm;
    Arch_Seen a = {0};
    static const uint8_t done[1] = {0x05};
    static const uint8_t f1[3] = {0x04, 'h', '1'}, f2[3] = {0x04, 's', '2'},
                         f3[3] = {0x04, 'm', '3'};
    a.keep_from = 1;
    lobby_rooms_use_archive(rs, &stub_ops, &a);
    a_game(&h, &g, &hm, &gm);
    lobby_rooms_message(gm, f1, 3, 1);
    lobby_rooms_message(hm, f2, 3, 2);
    lobby_rooms_message(gm, f3, 3, 3);
    cr_assert_eq(a.calls, 3);
    cr_assert(a.seq[0] == 1 && a.seq[1] == 2 && a.seq[2] == 3);
    cr_assert_str_eq(a.data[0], "h1");
    cr_assert_str_eq(a.data[2], "m3");
    cr_assert(!a.had[0] && !a.had[1] && a.had[2]);
    lobby_rooms_message(hm, done, 1, 4);
    cr_assert_eq(a.ends, 0);
    lobby_rooms_message(gm, done, 1, 5);
    cr_assert_eq(a.ends, 1);
    cr_assert_eq(a.whole[0], 1);
    lobby_rooms_closed(hm, 6);
    lobby_rooms_closed(gm, 6);
    lobby_rooms_sweep(rs, 700000); /* the room goes: no second end */
    cr_assert_eq(a.ends, 1);
    cr_assert_eq(a.calls, 3);
}

/* A room whose first four frames gave the archive nothing to keep (no
 * match start: a room made again mid-game) is given no more; a room that
 * goes mid-game ends whole (as far as it went). */
Test(room, the_archive_gives_up_a_room_without_a_start_and_keeps_one_that_went)
{
    Link h, g;
    Lobby_Member *hm, *gm;
    Arch_Seen a = {0};
    static const uint8_t f[3] = {0x04, 'm', 'x'};
    a.keep_from = -1;
    lobby_rooms_use_archive(rs, &stub_ops, &a);
    a_game(&h, &g, &hm, &gm);
    for (int i = 0; i < 6; i++)
        lobby_rooms_message(i % 2 ? gm : hm, f, 3, 1 + (uint64_t)i);
    cr_assert_eq(a.calls, 4);
    cr_assert_eq(a.ends, 0);
    lobby_rooms_closed(hm, 10);
    lobby_rooms_closed(gm, 10);
    lobby_rooms_sweep(rs, 700000);

    Arch_Seen b = {0};
    b.keep_from = 0;
    lobby_rooms_use_archive(rs, &stub_ops, &b);
    a_game(&h, &g, &hm, &gm);
    lobby_rooms_message(hm, f, 3, 1);
    lobby_rooms_closed(hm, 2);
    lobby_rooms_closed(gm, 2);
    cr_assert_eq(b.ends, 0);
    lobby_rooms_sweep(rs, 700000);
    cr_assert_eq(b.calls, 1);
    cr_assert_eq(b.ends, 1);
    cr_assert_eq(b.whole[0], 1);
}

/* A rated seek (issue 38; docs/pool.md "Rated seeks"): the card's options
 * say rating=1600..1800 with clock 300+3 (300 + 40 x 3 = 420 s: blitz).
 * The relay's list rates guest_id 1500 in laska blitz and 1700 in laska
 * bullet: refused RATING (14), the seat still free; a player the list
 * does not know (a newcomer, 1500) is refused too; one it rates 1700 in
 * laska blitz takes the seat. */
Test(room, a_rated_seek_seats_only_a_guest_rated_in_its_range)
{
    Link h, g1, g2, g3;
    uint8_t m[700];
    char fp[PROTO_FINGERPRINT_MAX];
    Lobby_Code code = code_of(11);
    Proto_Identity stranger = player_id(0x5a), fit = player_id(0x6b);
    Lobby_Ratings *t;
    cr_assert_eq(lobby_ratings_new(&t), 0);
    cr_assert_eq(lobby_ratings_game(t, 0, "laska"), 0);
    proto_fingerprint(guest_id.pk, fp);
    cr_assert_eq(lobby_ratings_add(t, fp, 0, PROTO_CLASS_BLITZ, 1500), 0);
    cr_assert_eq(lobby_ratings_add(t, fp, 0, PROTO_CLASS_BULLET, 1700), 0);
    proto_fingerprint(fit.pk, fp);
    cr_assert_eq(lobby_ratings_add(t, fp, 0, PROTO_CLASS_BLITZ, 1700), 0);
    lobby_rooms_use_ratings(rs, t);

    Lobby_Member *hm = member(&h, "192.0.2.1", 0);
    lobby_rooms_message(hm, m, create_at(m, code.lookup, 0x72, 0, NULL), 1);
    m[0] = 0x06;
    size_t n = 1 + card_by_hand(m + 1, &host_id, &code, "laska",
                                "clock=300+3,rating=1600..1800", "");
    lobby_rooms_message(hm, m, n, 2);
    cr_assert(h.msg[1][0] == 0x87 && h.msg[1][1] == 0, "listed");

    Lobby_Member *gm = member(&g1, "192.0.2.2", 3);
    lobby_rooms_message(gm, m, join_at(m, code.lookup, 0x44, 0, &guest_id), 3);
    cr_assert_eq(error_of(&g1, 0), 14);
    lobby_rooms_closed(gm, 4);
    gm = member(&g2, "192.0.2.3", 5);
    lobby_rooms_message(gm, m, join_at(m, code.lookup, 0x45, 0, &stranger), 5);
    cr_assert_eq(error_of(&g2, 0), 14);
    lobby_rooms_closed(gm, 6);
    gm = member(&g3, "192.0.2.4", 7);
    lobby_rooms_message(gm, m, join_at(m, code.lookup, 0x46, 0, &fit), 7);
    cr_assert_eq(g3.msg[0][0], 0x81, "seated");
    lobby_rooms_closed(gm, 8);
    lobby_rooms_closed(hm, 8);

    /* a rating token written wrong: the SEEK is PROTOCOL */
    Link h2;
    Lobby_Code c2 = code_of(12);
    hm = member(&h2, "192.0.2.5", 9);
    lobby_rooms_message(hm, m, create_at(m, c2.lookup, 0x73, 0, NULL), 9);
    m[0] = 0x06;
    n = 1 + card_by_hand(m + 1, &host_id, &c2, "laska", "rating=1800..1600",
                         "");
    lobby_rooms_message(hm, m, n, 10);
    cr_assert_eq(error_of(&h2, 1), 1);
    lobby_rooms_closed(hm, 11);
}
