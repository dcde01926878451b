/*
 * fuzz_log.c: libFuzzer target for the match log reader: proto_log_verify
 * on arbitrary bytes, through the transcript and the rules core. Built
 * with TABULA_FUZZ_UNSIGNED (signatures always pass) so that mutated moves
 * reach the match rules; fuzz_envelope covers the real signature check.
 * A log that verifies must have a consistent report.
 */
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;

    proto_init();
    int rc = proto_log_verify(data, size, NULL, NULL, NULL, &t, &rep);
    if (rc != rep.err || (rc == 0 && rep.torn))
        __builtin_trap();
    if (rc == 0 && t != NULL && proto_transcript_count(t) != rep.envelopes)
        __builtin_trap();
    proto_transcript_free(t);
    return 0;
}
