/*
 * policy.c: the seat's policies that every driver asks (seat.h): the
 * waits between attempts to reach the relay again, and the clock as
 * chess players type it. Written once here; the terminal, the page's
 * module and the simulator call these and keep no copy.
 */
#include <stdio.h>
#include <string.h>

#include "match.h"
#include "proto.h"
#include "seat.h"
#include "tb_error.h"

/* A msgid for the catalogues (scripts/po.sh finds it); translated by the
 * driver that prints it. */
#define N_(s) s

uint32_t seat_retry_ms(int role, int reason, unsigned attempt)
{
    uint32_t first;
    if (reason == TB_E_RATE)
        first = 6000;
    else if (role == MATCH_ROLE_HOST)
        first = 100;
    else
        first = reason == TB_E_CODE ? 2000 : 1000;
    /* first << attempt, without shifting past SEAT_RETRY_MAX_MS (or past
     * 32 bits when the attempts run long). */
    uint32_t wait = first;
    for (unsigned k = 0; k < attempt && wait < SEAT_RETRY_MAX_MS; k++)
        wait *= 2;
    return wait < SEAT_RETRY_MAX_MS ? wait : SEAT_RETRY_MAX_MS;
}

int seat_refusal_ends(int reason)
{
    return reason != 0 && reason != TB_E_CODE && reason != TB_E_RATE &&
           reason != TB_E_FULL && reason != TB_E_ADDRESS &&
           reason != TB_E_SEAT;
}

/* "M+I", "Ns+I", "M+Is", "Ns+Is": whole numbers as core_read_uint reads
 * them (digits only, no leading zero). 0 with the base and increment in
 * seconds, or -1. The ranges are proto_clock_split's. */
static int clock_read(const char *text, uint32_t *base_s, uint32_t *inc_s)
{
    const char *p = text;
    uint32_t v[2] = {0, 0};
    int seconds = 0;
    for (int k = 0; k < 2; k++) {
        uint64_t n = 0;
        if (core_read_uint(&p, 1000000, &n) != 0)
            return -1;
        v[k] = (uint32_t)n;
        if (*p == 's') {
            seconds |= k == 0;
            p++;
        }
        if (k == 0 && *p++ != '+')
            return -1;
    }
    if (*p != '\0')
        return -1;
    *base_s = seconds ? v[0] : v[0] * 60;
    *inc_s = v[1];
    return 0;
}

int seat_clock_options(const char *options, const char *clock, char *out,
                       size_t cap)
{
    uint32_t base_s = 0, inc_s = 0, b = 0, inc = 0;
    char rest[PROTO_OPTIONS_MAX + 1];
    int n;
    if (clock == NULL) {
        n = snprintf(out, cap, "%s", options);
        return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
    }
    if (strstr(options, "clock=") != NULL)
        return TB_E_ARG;
    if (clock_read(clock, &base_s, &inc_s) != 0)
        return TB_E_OPTION;
    n = snprintf(out, cap, "%s%sclock=%u+%u", options, options[0] ? "," : "",
                 (unsigned)base_s, (unsigned)inc_s);
    if (n < 0 || (size_t)n >= cap)
        return TB_E_SPACE;
    /* The ranges, as the transcript will check them. */
    if (proto_clock_split(out, &b, &inc, rest, sizeof rest) != 0)
        return TB_E_OPTION;
    return 0;
}

const char *seat_clock_bad(void)
{
    return N_("bad clock '%s': expected MINUTES+SECONDS as in chess (5+3: "
              "five minutes each, three seconds added per move; 1..1440 "
              "minutes, 0..3600 seconds), or SECONDSs+SECONDS (30s+1)");
}

const char *seat_clock_twice(void)
{
    return N_("the options hold a clock (clock=) already: give the clock once");
}
