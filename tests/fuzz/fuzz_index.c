/*
 * fuzz_index.c: libFuzzer target for a line of a relay archive's
 * logs/index.txt (docs/archive.md) as `tabula tournament collect --from`
 * reads it (club_index_line): hostile bytes from any relay.
 * Properties: no crash or undefined behaviour; a line taken has a name of
 * 64 lowercase hex digits, or those and -2 .. -16, that names no path
 * outside logs/ (no '/', no '.'), a game of the catalogue, and 1..max
 * bytes; a refusal is a phrase.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "director.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Club_Index_Line x;
    const char *why;
    if (size > 600)
        return 0;
    memset(&x, 0xee, sizeof x);
    why = club_index_line((const char *)data, size, 4096, &x);
    if (why != NULL) {
        if (why[0] == '\0')
            abort();
        return 0;
    }
    const char *nul = memchr(x.match, '\0', sizeof x.match);
    size_t n = nul != NULL ? (size_t)(nul - x.match) : sizeof x.match;
    if (n != 64 && n != 66 && n != 67)
        abort();
    for (size_t i = 0; i < 64; i++)
        if (!((x.match[i] >= '0' && x.match[i] <= '9') ||
              (x.match[i] >= 'a' && x.match[i] <= 'f')))
            abort();
    if (n > 64) {
        int k = x.match[65] - '0';
        if (n == 67)
            k = 10 * k + (x.match[66] - '0');
        if (x.match[64] != '-' || k < 2 || k > 16)
            abort();
    }
    if (strchr(x.match, '/') != NULL || strchr(x.match, '.') != NULL)
        abort();
    if (core_game_find(x.game) == NULL || x.bytes == 0 || x.bytes > 4096)
        abort();
    return 0;
}
