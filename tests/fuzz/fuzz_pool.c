/*
 * fuzz_pool.c: libFuzzer target for the pool's messages (issue 37;
 * lobby/pool_wire.c) as the relay and a client meet them: the input after
 * a type byte as a POOL (lobby_wire_pool_read, the relay's reader of a
 * hello from anyone), a PAIRED and a POOL_WAIT (a client's readers of
 * the relay's answers). Built with TABULA_FUZZ_UNSIGNED (run.sh), so
 * mutated offers reach the checks after their proofs and cards.
 * Properties: no crash or undefined behaviour; a POOL taken offers at
 * least one game, a range of one kind whose low end is at most its high
 * end (by proto_clock_estimate_ms), and a card whose code its key
 * fingerprints, inside the message; a PAIRED or POOL_WAIT taken is
 * written back, by lobby_wire_paired or lobby_wire_pool_wait, to the
 * very bytes read (one form each).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lobby_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t msg[LOBBY_WIRE_POOL_MAX + 1];
    uint8_t again[LOBBY_WIRE_POOL_MAX];
    uint32_t counts[LOBBY_POOL_GAMES];
    Lobby_Pool_Ask ask;
    Lobby_Paired pd;

    if (proto_init() != 0)
        __builtin_trap();
    if (size + 1 > sizeof msg)
        return 0;
    memcpy(msg + 1, data, size);
    msg[0] = LOBBY_WIRE_POOL_TYPE;
    if (lobby_wire_pool_read(msg, size + 1, &ask) == 0) {
        if (ask.games == 0 || ask.lo.kind != ask.hi.kind ||
            proto_clock_estimate_ms(&ask.lo) > proto_clock_estimate_ms(&ask.hi) ||
            lobby_code_check_host(&ask.card.invite, ask.card.host_pk) != 0 ||
            ask.card_bytes < msg || ask.card_bytes + ask.card_len > msg + size + 1)
            __builtin_trap();
    }
    msg[0] = LOBBY_WIRE_PAIRED_TYPE;
    if (lobby_wire_paired_read(msg, size + 1, &pd) == 0 &&
        (lobby_wire_paired(again, &pd) != size + 1 ||
         memcmp(again, msg, size + 1) != 0))
        __builtin_trap();
    msg[0] = LOBBY_WIRE_POOL_WAIT_TYPE;
    if (lobby_wire_pool_wait_read(msg, size + 1, counts) == 0 &&
        (lobby_wire_pool_wait(again, counts) != size + 1 ||
         memcmp(again, msg, size + 1) != 0))
        __builtin_trap();
    return 0;
}
