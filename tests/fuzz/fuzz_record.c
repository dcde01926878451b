/*
 * fuzz_record.c: libFuzzer target for the plain game record reader
 * (tags, movetext, comments, moves through the game's parser).
 */
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    int rc = proto_record_read((const char *)data, size,
                               core_game_find("laska"), NULL, NULL, &pos, &rep);
    if ((rc == 0) != (pos != NULL))
        __builtin_trap();
    core_position_free(pos);
    return 0;
}
