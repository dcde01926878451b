/*
 * fuzz_envelope.c: libFuzzer target for the envelope decoder: proto_open
 * on arbitrary bytes (limits walk, msgpack-c decode, canonical check,
 * fields, signature). An envelope that opens must carry a known kind and
 * version, and a desync state must lie inside the input.
 */
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Proto_Envelope e;
    char why[160];

    proto_init();
    if (proto_open(data, size, &e, why, sizeof why) != 0)
        return 0;
    if (e.msg.version != PROTO_VERSION || e.msg.kind == 0 ||
        e.msg.kind >= PROTO_KIND_COUNT_)
        __builtin_trap();
    if (e.msg.kind == PROTO_KIND_DESYNC &&
        (e.msg.body.desync.state < data ||
         e.msg.body.desync.state + e.msg.body.desync.state_len > data + size))
        __builtin_trap();
    return 0;
}
