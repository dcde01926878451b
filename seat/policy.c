/*
 * policy.c: the seat's policies that every driver asks (seat.h): the
 * waits between attempts to reach the relay again, and the clock as
 * players type it (read by proto_clock_parse, the one reader). Written
 * once here; the terminal, the page's module and the simulator call
 * these and keep no copy.
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

int seat_clock_options(const char *options, const char *clock, char *out,
                       size_t cap)
{
    Proto_Clock c;
    char value[PROTO_CLOCK_TEXT_MAX];
    int n;
    if (clock == NULL) {
        n = snprintf(out, cap, "%s", options);
        return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
    }
    if (strstr(options, "clock=") != NULL)
        return TB_E_ARG;
    /* the one grammar, read once (proto), written in its canonical form */
    if (proto_clock_parse(clock, 1, &c, NULL) != 0 ||
        proto_clock_format(&c, value, sizeof value) != 0)
        return TB_E_OPTION;
    n = snprintf(out, cap, "%s%sclock=%s", options, options[0] ? "," : "",
                 value);
    return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
}

/* The words on a clock refused for part (one %s: the text typed). */
static const char *seat_clock_bad_part(Proto_Clock_Part part)
{
    switch (part) {
    case PROTO_CLOCK_PART_TIME:
        return N_("bad clock '%s': the time is 1..1440 minutes (5+3), or "
                  "1..86400 seconds written with an s (30s+1)");
    case PROTO_CLOCK_PART_INC:
        return N_("bad clock '%s': the seconds added after each move are "
                  "0..3600");
    case PROTO_CLOCK_PART_DELAY:
        return N_("bad clock '%s': the delay is 1..3600 seconds a move "
                  "(5d3; with no delay write 5+0)");
    case PROTO_CLOCK_PART_MOVES:
        return N_("bad clock '%s': the moves of a period are 1..200 "
                  "(40/90: 40 moves in 90 minutes)");
    case PROTO_CLOCK_PART_DAYS:
        return N_("bad clock '%s': a correspondence game has 1..14 days a "
                  "move (3days)");
    default:
        return N_("bad clock '%s': expected MINUTES+SECONDS as in chess "
                  "(5+3: five minutes each, three seconds added per move; "
                  "30s+1 for a time in seconds), MINUTESdSECONDS for a "
                  "delay (5d3), MOVES/MINUTES or MOVES/MINUTES+SECONDS for "
                  "moves in a time (40/90+30), or DAYSdays (3days)");
    }
}

const char *seat_clock_bad(const char *clock)
{
    Proto_Clock c;
    Proto_Clock_Part part = PROTO_CLOCK_PART_FORM;
    if (clock != NULL)
        proto_clock_parse(clock, 1, &c, &part);
    return seat_clock_bad_part(part);
}

int seat_rating_range(const char *text, uint16_t *lo, uint16_t *hi)
{
    char tok[32];
    *lo = *hi = 0;
    if (text == NULL || text[0] == '\0')
        return 0;
    /* (the rating token's own grammar: proto_rating_token) */
    int n = snprintf(tok, sizeof tok, PROTO_OPTION_RATING "%s", text);
    if (n < 0 || (size_t)n >= sizeof tok ||
        proto_rating_token(tok, (size_t)n, lo, hi) != 1) {
        *lo = *hi = 0;
        return TB_E_OPTION;
    }
    return 0;
}

const char *seat_rating_range_bad(void)
{
    return N_("bad rating range '%s'; expected LO..HI, whole ratings from 1 "
              "to 65535, e.g. 1400..1800");
}

const char *seat_clock_range_bad(const char *range)
{
    Proto_Clock lo, hi;
    Proto_Clock_Part part = PROTO_CLOCK_PART_FORM;
    if (range != NULL && proto_clock_range_parse(range, 1, &lo, &hi, &part) == 0)
        part = PROTO_CLOCK_PART_FORM;
    switch (part) {
    case PROTO_CLOCK_PART_KIND:
        return N_("bad clock range '%s': its two clocks are of two kinds; "
                  "give two of one kind, e.g. 3+2..10+5 or 1days..3days");
    case PROTO_CLOCK_PART_ORDER:
        return N_("bad clock range '%s': the first clock is the longer; "
                  "write the shorter first, e.g. 3+2..10+5");
    case PROTO_CLOCK_PART_FORM:
        return N_("bad clock range '%s': expected CLOCK..CLOCK, the shortest "
                  "and the longest clock you will play (3+2..10+5), or one "
                  "clock (5+0)");
    default: /* (an end's own part: the words on that end) */
        return seat_clock_bad_part(part);
    }
}

const char *seat_clock_twice(void)
{
    return N_("the options hold a clock (clock=) already: give the clock once");
}
