/*
 * fuzz_frame.c: libFuzzer target for the frame decoder as a stream reader
 * sees it: split the input into frames with proto_frame_next and open each
 * envelope, as a connection's read callback would.
 */
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Proto_Envelope e;
    char why[160];
    const uint8_t *env;
    size_t elen, used;

    proto_init();
    while (size > 0) {
        int rc = proto_frame_next(data, size, &env, &elen, &used);
        if (rc != 0)
            break; /* TB_E_TRUNCATED: wait for more; TB_E_LIMIT: close */
        if (used > size || elen + PROTO_FRAME_PREFIX != used)
            __builtin_trap();
        proto_open(env, elen, &e, why, sizeof why);
        data += used;
        size -= used;
    }
    return 0;
}
