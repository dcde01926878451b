/*
 * fuzz_wire.c: libFuzzer target for the lobby's messages as the seat
 * layer reads them (seat/seat.h over lobby/lobby_wire.h) and for the
 * relay's reader of a client's hello (lobby_wire_hello_read). The input
 * is read three ways:
 *   - whole, as a hello: accepted only at CREATE's, JOIN's or WATCH's
 *     exact length, with the role its type names;
 *   - as messages for a host seat, each a 2-byte big-endian length and
 *     that many bytes; a first byte 0xAA puts a true WELCOME (the seat's
 *     own key) before them, so frames, ACKs and presence are reached;
 *     each message goes to seat_input, a refused one closes the
 *     connection (seat_closed) and the time moves to the seat's
 *     deadline (seat_tick).
 * Properties: no crash or undefined behaviour; every SEND the seat asks
 * for is one whole DATA message (its type byte 0x04, then the envelope);
 * a seat never asks to CONNECT while a connection it asked for is open,
 * and stops (FAILED) only once.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lobby_wire.h"
#include "seat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Carry out the seat's outputs as a driver would; the checks. */
static void drain(Seat *s, uint64_t now, int *open, int *failed)
{
    Seat_Out o;
    int close = 0;
    while (seat_poll(s, &o)) {
        if (o.kind == SEAT_OUT_CLOSE)
            close = 1;
        if (o.kind == SEAT_OUT_MATCH && o.m.kind == MATCH_OUT_SEND &&
            (o.m.len < 2 || o.m.data[0] != LOBBY_WIRE_DATA_TYPE))
            __builtin_trap();
        if (o.kind == SEAT_OUT_CONNECT) {
            if (*open)
                __builtin_trap();
            *open = 1;
        }
        if (o.kind == SEAT_OUT_FAILED && (*failed)++)
            __builtin_trap();
    }
    if (close && *open) { /* frames were lost: close, the seat asks again */
        *open = 0;
        seat_closed(s, now, 0);
        drain(s, now, open, failed);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Lobby_Wire_Hello h;
    if (lobby_wire_hello_read(data, size, &h) == 0 &&
        !((size == 90 && h.role == LOBBY_ROLE_HOST) ||
          (size == 42 && h.role == LOBBY_ROLE_GUEST) ||
          (size == 26 && h.role == LOBBY_ROLE_SPECTATOR)))
        __builtin_trap();

    static int ready;
    static Seat_Config sc;
    if (!ready) {
        uint8_t seed[32], secret[LOBBY_CODE_SECRET_SYMBOLS];
        memset(seed, 7, sizeof seed);
        memset(secret, 3, sizeof secret);
        if (proto_init() != 0 ||
            proto_identity_from_seed(&sc.match.id, seed) != 0 ||
            lobby_code_make(secret, sc.match.id.pk, &sc.invite) != 0 ||
            lobby_code_make(seed, sc.match.id.pk, &sc.watch) != 0 ||
            lobby_code_seat_key(&sc.invite, sc.match.seat_key) != 0)
            __builtin_trap();
        sc.match.role = MATCH_ROLE_HOST;
        sc.match.game = core_game_find("laska");
        sc.match.options = "";
        sc.nodes = 2;
        ready = 1;
    }
    Seat *s = NULL;
    if (seat_new(&sc, &s) != 0)
        return 0;
    int open = 0, failed = 0;
    uint64_t now = 1000;
    uint8_t hello[LOBBY_WIRE_HELLO_MAX], w[LOBBY_WIRE_WELCOME_LEN];
    static const uint8_t guest_pk[32] = {0x6b}; /* the room's guest */
    drain(s, now, &open, &failed);
    seat_hello(s, now, hello);
    size_t at = 0;
    if (size > 0 && data[0] == 0xAA) {
        seat_input(s, now, w,
                   lobby_wire_welcome(w, LOBBY_ROLE_HOST, sc.match.id.pk, 0, 1,
                                      3, sc.match.id.pk, now, guest_pk));
        at = 1;
        drain(s, now, &open, &failed);
    }
    while (at + 2 <= size && !failed) {
        size_t len = (size_t)data[at] << 8 | data[at + 1];
        at += 2;
        if (len > size - at)
            len = size - at;
        now += 7;
        if (open && seat_input(s, now, data + at, len) != 0) {
            open = 0;
            seat_closed(s, now, 0);
        }
        at += len;
        drain(s, now, &open, &failed);
        if (!open && !failed) { /* wait for the seat's next attempt */
            uint64_t d = seat_deadline(s);
            if (d != UINT64_MAX && d > now)
                now = d;
            seat_tick(s, now);
            drain(s, now, &open, &failed);
            if (open)
                seat_hello(s, now, hello);
        }
    }
    seat_free(s);
    return 0;
}
