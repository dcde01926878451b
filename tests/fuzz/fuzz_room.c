/*
 * fuzz_room.c: libFuzzer target for the relay's rooms (lobby/room.h), the
 * code that reads every message a stranger sends a lobby. The input is a
 * series of steps, each a byte c and then:
 *   - c & 3 == 0: a message to member (c >> 2) & 3 (made, from an address
 *     of its own, when it has none): a 2-byte big-endian length and that
 *     many bytes;
 *   - c & 3 == 1: that member's connection closes;
 *   - c & 3 == 2: the time moves on by (c >> 2) * 1000 ms and the sweep
 *     runs;
 *   - c & 3 == 3: that member's queue drains.
 * A link the rooms close is closed (lobby_rooms_closed) before the next
 * step, as a transport would. The node signs receipts with a fixed key
 * at a wall clock that jumps back and forth with the time. Properties:
 * no crash, undefined behaviour or leak; every message the rooms send is
 * one a client reads (WELCOME, FRAME, ACK, PRESENCE, ERROR, BEAT, SEEKED,
 * LIST, POOL_WAIT or PAIRED, of its version-4 length or as its reader
 * takes it); built with TABULA_FUZZ_UNSIGNED, a hello's proof
 * of its player's key always holds (lobby_seat_proof_ok), so mutated
 * hellos reach the rooms; the receipt times of the FRAMEs and ACKs one link
 * is sent never go down (a room's receipts never run back); nothing is
 * sent on a link after the rooms closed it.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "room.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct Link {
    int closing;
    uint64_t last_t; /* the last FRAME's or ACK's receipt time */
} Link;

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* A receipt time t of a FRAME or ACK sent on l: never below the last. */
static void frame_time(Link *l, uint64_t t)
{
    if (t < l->last_t)
        __builtin_trap();
    l->last_t = t;
}

/* The node's wall clock: the fuzzer's time, scrambled so that it also
 * goes back. */
static uint64_t now_ms;
static uint64_t wall(void *user)
{
    (void)user;
    return 1765000000000ull + (now_ms * 2654435761u) % 100000;
}

static int l_send(void *link, const uint8_t *m, size_t len)
{
    Link *l = link;
    if (l->closing || len == 0)
        __builtin_trap();
    switch (m[0]) {
    case 0x81: /* WELCOME */
        if (len != 123)
            __builtin_trap();
        break;
    case 0x82: /* FRAME: header (90) and a payload */
        if (len <= 90 || m[9] > 1)
            __builtin_trap();
        frame_time(l, get64(m + 10));
        break;
    case 0x83: /* ACK */
        if (len != 89)
            __builtin_trap();
        frame_time(l, get64(m + 9));
        break;
    case 0x84: /* PRESENCE */
        if (len != 123 || m[1] > 1 || m[2] > 1)
            __builtin_trap();
        break;
    case 0x85: /* ERROR */
        if (len != 2)
            __builtin_trap();
        break;
    case 0x86: /* BEAT */
        if (len != 1)
            __builtin_trap();
        break;
    case 0x87: /* SEEKED */
        if (len != 2)
            __builtin_trap();
        break;
    case 0x88: /* LIST */
        if (lobby_wire_list_read(m, len, NULL, NULL, NULL) != 0)
            __builtin_trap();
        break;
    case 0x89: { /* POOL_WAIT */
        uint32_t counts[LOBBY_POOL_GAMES];
        if (lobby_wire_pool_wait_read(m, len, counts) != 0)
            __builtin_trap();
        break;
    }
    case 0x8a: { /* PAIRED */
        Lobby_Paired pd;
        if (lobby_wire_paired_read(m, len, &pd) != 0)
            __builtin_trap();
        break;
    }
    default:
        __builtin_trap();
    }
    return 0;
}

static size_t l_queued(const void *link)
{
    (void)link;
    return 0;
}

static int l_is_closing(const void *link)
{
    return ((const Link *)link)->closing;
}

static void l_close(void *link, int flush, int reason)
{
    (void)flush;
    (void)reason;
    ((Link *)link)->closing = 1;
}

static const Lobby_Link_Ops ops = {l_send, l_queued, l_is_closing, l_close,
                                   1};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const addr[4] = {"192.0.2.1", "192.0.2.2",
                                        "198.51.100.3", "2001:db8::4"};
    Lobby_Rooms *rs;
    Lobby_Member *m[4] = {NULL, NULL, NULL, NULL};
    Link link[4];
    Lobby_Limits lim;
    uint64_t now = 1000;
    size_t at = 0;

    memset(&lim, 0, sizeof lim);
    lim.transcript_frames = 8; /* the ring's limits within reach */
    lim.max_payload = 64;
    lim.transcript_bytes = 256;
    lim.max_spectators = 2;
    static Proto_Identity key;
    static int keyed;
    if (!keyed) {
        uint8_t seed[32];
        memset(seed, 5, sizeof seed);
        if (proto_init() != 0 || proto_identity_from_seed(&key, seed) != 0)
            __builtin_trap();
        keyed = 1;
    }
    if (lobby_rooms_new(&lim, &rs) != 0)
        return 0;
    lobby_rooms_use_witness(rs, &key, wall, NULL);
    now_ms = now;
    while (at < size) {
        uint8_t c = data[at++];
        int i = (c >> 2) & 3;
        if ((c & 3) == 0) {
            size_t len;
            if (size - at < 2)
                break;
            len = (size_t)data[at] << 8 | data[at + 1];
            at += 2;
            if (len > size - at)
                len = size - at;
            if (m[i] == NULL) {
                memset(&link[i], 0, sizeof link[i]);
                m[i] = lobby_rooms_member(rs, &ops, &link[i], addr[i], now);
            }
            if (m[i] != NULL && len > 0 && !link[i].closing)
                lobby_rooms_message(m[i], data + at, len, now);
            at += len;
        } else if ((c & 3) == 1) {
            lobby_rooms_closed(m[i], now);
            m[i] = NULL;
        } else if ((c & 3) == 2) {
            now += (uint64_t)(c >> 2) * 1000;
            now_ms = now;
            lobby_rooms_sweep(rs, now);
        } else if (m[i] != NULL && !link[i].closing) {
            lobby_rooms_drained(m[i]);
        }
        for (int k = 0; k < 4; k++) /* a closed link is gone */
            if (m[k] != NULL && link[k].closing) {
                lobby_rooms_closed(m[k], now);
                m[k] = NULL;
            }
    }
    for (int k = 0; k < 4; k++)
        lobby_rooms_closed(m[k], now);
    lobby_rooms_free(rs);
    return 0;
}
