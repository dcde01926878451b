/*
 * fuzz_seat.c: libFuzzer target for the texts the seat layer reads from
 * people (seat/seat.h) and the one hex reader (proto_unhex). The input is
 * "OPTIONS\nCLOCK" (no newline: options empty, the whole input the clock).
 * Properties: seat_clock_options never writes past its buffer and, for
 * options that are well formed by themselves (proto_clock_split),
 * accepts only what proto_clock_split then reads as a clock in range
 * (base 1 s..14 days, increment and delay 0..3600 s) with the options
 * before it kept;
 * proto_unhex of the input accepts only 2n lowercase digits and then
 * proto_hex writes the same text back; seat_retry_ms stays within 100 ms
 * and 8 s for any role, reason and attempt; seat_series_read (a page's
 * stored series: hostile) of the input either refuses it, leaving the
 * series zeroed, or takes a series in range (2..99 games, 1..N played,
 * a game of the catalogue) that seat_series_text writes and
 * seat_series_read takes back as the same series.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "seat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    size_t len = strlen(text); /* up to a NUL byte */
    char *nl = strchr(text, '\n');
    const char *options = nl ? text : "", *clock = nl ? nl + 1 : text;
    if (nl)
        *nl = '\0';

    char out[PROTO_OPTIONS_MAX + 1], rest[PROTO_OPTIONS_MAX + 1];
    int rc = seat_clock_options(options, clock, out, sizeof out);
    Proto_Clock c0;
    /* (options the transcript refuses by themselves, such as a bad
     * relay= token, are the next check's to refuse: cmd_net.c splits
     * them after the clock is added; here only the clock is judged) */
    if (rc == 0 && strlen(options) <= PROTO_OPTIONS_MAX &&
        proto_clock_split(options, &c0, rest, sizeof rest) == 0) {
        Proto_Clock c;
        if (proto_clock_split(out, &c, rest, sizeof rest) != 0 ||
            c.kind == PROTO_CLOCK_NONE || c.base_ms < 1000 ||
            c.base_ms > PROTO_CLOCK_DAYS_MAX * 86400000u ||
            c.inc_ms > 3600000u || c.delay_ms > 3600000u ||
            strncmp(out, options, strlen(options)) != 0)
            __builtin_trap();
    }
    if (nl)
        *nl = '\n';

    uint8_t bytes[64];
    char hex[2 * sizeof bytes + 1];
    size_t n = len / 2 < sizeof bytes ? len / 2 : sizeof bytes;
    if (proto_unhex(text, len, bytes, n) == 0) {
        proto_hex(bytes, n, hex);
        if (len != 2 * n || memcmp(hex, text, len) != 0)
            __builtin_trap();
    }

    if (size >= 6) {
        int role = data[0] % 3, reason = -(int)(1000 + data[1] % 40);
        unsigned attempt = (unsigned)data[2] << 24 | (unsigned)data[3] << 16 |
                           (unsigned)data[4] << 8 | data[5];
        uint32_t ms = seat_retry_ms(role, data[1] & 64 ? 0 : reason, attempt);
        if (ms < 100 || ms > SEAT_RETRY_MAX_MS)
            __builtin_trap();
    }
    Seat_Series sr, back;
    char line[SEAT_SERIES_TEXT_MAX];
    static const Seat_Series zero;
    if (seat_series_read(text, &sr) != 0) {
        if (memcmp(&sr, &zero, sizeof sr) != 0)
            __builtin_trap();
    } else if (sr.games < 2 || sr.games > PROTO_SERIES_MAX ||
               sr.played < 1 || sr.played > sr.games || sr.game == NULL ||
               seat_series_text(&sr, line, sizeof line) != 0 ||
               seat_series_read(line, &back) != 0 ||
               memcmp(&back, &sr, sizeof sr) != 0) {
        __builtin_trap();
    }
    free(text);
    return 0;
}
