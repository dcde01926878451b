/*
 * clock.c: a match's time control (proto.h "time controls"): the one
 * grammar a clock is written in, as a player types it and as the match
 * option carries it, and the arithmetic every reader of a clock asks,
 * the transcript (witnessed or not), the session, the bots: what a turn
 * costs, when a side's time is up, what a move leaves, how long an
 * absent opponent is waited for. Integers and ms only.
 */
#include <stdio.h>
#include <string.h>

#include "proto_internal.h"

#define DAY_MS 86400000u

/* Past any range: a number read is capped here so nothing overflows. */
#define NUM_CAP 1000000000u

/* A whole number at *p. typed: core_read_uint's one spelling (no
 * leading zero); else the option's digits as the Fischer option always
 * read them (leading zeros taken). A value past NUM_CAP reads as
 * NUM_CAP + 1, out of every range. 0, or -1 when no number is there. */
static int read_num(const char **p, int typed, uint64_t *out)
{
    const char *s = *p;
    uint64_t n = 0;
    if (*s < '0' || *s > '9')
        return -1;
    if (typed && core_read_uint(&s, NUM_CAP, &n) == 0) {
        *p = s;
        *out = n;
        return 0;
    }
    if (typed && s[0] == '0' && s[1] >= '0' && s[1] <= '9')
        return -1; /* a leading zero */
    for (; *s >= '0' && *s <= '9'; s++)
        n = n > NUM_CAP ? n : n * 10 + (uint64_t)(*s - '0');
    *p = s;
    *out = n > NUM_CAP ? NUM_CAP + 1 : n;
    return 0;
}

/* A time at *p: typed, minutes or with an s seconds; else seconds.
 * Into *secs. 0, or -1 (no number). */
static int read_time(const char **p, int typed, uint64_t *secs)
{
    uint64_t n;
    if (read_num(p, typed, &n) != 0)
        return -1;
    if (typed && **p == 's')
        (*p)++;
    else if (typed)
        n *= 60;
    *secs = n;
    return 0;
}

/* Seconds at *p (an increment, a delay): typed, an s after them may
 * follow. 0, or -1. */
static int read_secs(const char **p, int typed, uint64_t *secs)
{
    if (read_num(p, typed, secs) != 0)
        return -1;
    if (typed && **p == 's')
        (*p)++;
    return 0;
}

static int refuse(Proto_Clock *out, Proto_Clock_Part *bad,
                  Proto_Clock_Part part)
{
    memset(out, 0, sizeof *out);
    if (bad != NULL)
        *bad = part;
    return TB_E_OPTION;
}

int proto_clock_parse(const char *text, int typed, Proto_Clock *out,
                      Proto_Clock_Part *bad)
{
    const char *p = text;
    uint64_t first = 0, time = 0, inc = 0, delay = 0;
    Proto_Clock c = {PROTO_CLOCK_NONE, 0, 0, 0, 0};

    /* The form first, then the ranges: "5x3" is no clock at all, "0+3"
     * a clock with a bad time. */
    if (text == NULL || read_num(&p, typed, &first) != 0)
        return refuse(out, bad, PROTO_CLOCK_PART_FORM);
    if (*p == '/') { /* N/BASE[+INC] */
        p++;
        c.kind = PROTO_CLOCK_MOVES;
        if (read_time(&p, typed, &time) != 0)
            return refuse(out, bad, PROTO_CLOCK_PART_FORM);
        if (*p == '+' && (p++, read_secs(&p, typed, &inc) != 0))
            return refuse(out, bad, PROTO_CLOCK_PART_FORM);
    } else if (strncmp(p, "day", 3) == 0) { /* Nday, typed also Ndays */
        p += 3;
        if (typed && *p == 's')
            p++;
        c.kind = PROTO_CLOCK_DAYS;
    } else {
        time = first;
        if (typed && *p == 's')
            p++;
        else if (typed)
            time *= 60;
        if (*p == '+') {
            p++;
            c.kind = PROTO_CLOCK_FISCHER;
            if (read_secs(&p, typed, &inc) != 0)
                return refuse(out, bad, PROTO_CLOCK_PART_FORM);
        } else if (*p == 'd') {
            p++;
            c.kind = PROTO_CLOCK_DELAY;
            if (read_secs(&p, typed, &delay) != 0)
                return refuse(out, bad, PROTO_CLOCK_PART_FORM);
        } else {
            return refuse(out, bad, PROTO_CLOCK_PART_FORM);
        }
    }
    if (*p != '\0')
        return refuse(out, bad, PROTO_CLOCK_PART_FORM);
    if (c.kind == PROTO_CLOCK_DAYS) {
        if (first < 1 || first > PROTO_CLOCK_DAYS_MAX)
            return refuse(out, bad, PROTO_CLOCK_PART_DAYS);
        c.base_ms = (uint32_t)first * DAY_MS;
        *out = c;
        return 0;
    }
    if (c.kind == PROTO_CLOCK_MOVES &&
        (first < 1 || first > PROTO_CLOCK_MOVES_MAX))
        return refuse(out, bad, PROTO_CLOCK_PART_MOVES);
    if (time < 1 || time > PROTO_CLOCK_BASE_MAX_S)
        return refuse(out, bad, PROTO_CLOCK_PART_TIME);
    if (inc > PROTO_CLOCK_INC_MAX_S)
        return refuse(out, bad, PROTO_CLOCK_PART_INC);
    if (c.kind == PROTO_CLOCK_DELAY &&
        (delay < 1 || delay > PROTO_CLOCK_DELAY_MAX_S))
        return refuse(out, bad, PROTO_CLOCK_PART_DELAY);
    c.base_ms = (uint32_t)time * 1000;
    c.inc_ms = (uint32_t)inc * 1000;
    c.delay_ms = (uint32_t)delay * 1000;
    c.moves = c.kind == PROTO_CLOCK_MOVES ? (uint32_t)first : 0;
    *out = c;
    return 0;
}

/* The moves a game is reckoned to last (proto_clock_estimate_ms). */
#define ESTIMATE_MOVES 40u

Proto_Clock_Class proto_clock_class(const Proto_Clock *c)
{
    uint64_t ms;
    if (c == NULL || c->kind == PROTO_CLOCK_NONE)
        return PROTO_CLASS_UNTIMED;
    if (c->kind == PROTO_CLOCK_DAYS)
        return PROTO_CLASS_CORRESPONDENCE;
    ms = proto_clock_estimate_ms(c);
    if (ms < 180000u)
        return PROTO_CLASS_BULLET;
    if (ms < 480000u)
        return PROTO_CLASS_BLITZ;
    if (ms < 1500000u)
        return PROTO_CLASS_RAPID;
    return PROTO_CLASS_CLASSICAL;
}

uint64_t proto_clock_estimate_ms(const Proto_Clock *c)
{
    uint64_t base = c->base_ms, per_move = ESTIMATE_MOVES;
    switch (c->kind) {
    case PROTO_CLOCK_FISCHER:
        return base + per_move * c->inc_ms;
    case PROTO_CLOCK_DELAY:
        return base + per_move * c->delay_ms;
    case PROTO_CLOCK_MOVES: {
        uint64_t moves = c->moves > 0 ? c->moves : 1;
        return base * ((ESTIMATE_MOVES + moves - 1) / moves) +
               per_move * c->inc_ms;
    }
    case PROTO_CLOCK_DAYS:
        return base;
    default:
        return 0;
    }
}

int proto_clock_range_parse(const char *text, int typed, Proto_Clock *lo,
                            Proto_Clock *hi, Proto_Clock_Part *bad)
{
    char low[PROTO_CLOCK_TEXT_MAX];
    const char *dots = text != NULL ? strstr(text, "..") : NULL;
    const char *high = text;
    Proto_Clock_Part part = PROTO_CLOCK_PART_FORM;
    int err;

    memset(hi, 0, sizeof *hi);
    if (dots != NULL) {
        size_t n = (size_t)(dots - text);
        high = dots + 2;
        if (n >= sizeof low || strstr(high, "..") != NULL)
            return refuse(lo, bad, PROTO_CLOCK_PART_FORM);
        memcpy(low, text, n);
        low[n] = '\0';
        err = proto_clock_parse(low, typed, lo, &part);
    } else {
        err = proto_clock_parse(text, typed, lo, &part);
    }
    if (err == 0)
        err = proto_clock_parse(high, typed, hi, &part);
    if (err == 0 && lo->kind != hi->kind) {
        err = TB_E_OPTION;
        part = PROTO_CLOCK_PART_KIND;
    } else if (err == 0 &&
               proto_clock_estimate_ms(lo) > proto_clock_estimate_ms(hi)) {
        err = TB_E_OPTION;
        part = PROTO_CLOCK_PART_ORDER;
    }
    if (err != 0) {
        memset(hi, 0, sizeof *hi);
        return refuse(lo, bad, part);
    }
    return 0;
}

/* Clock c into out: as the match option writes it (typed 0: times in
 * seconds, "3day") or as a player types it (1: whole minutes as such,
 * other times in seconds with an s, "3days"). */
static int clock_text(const Proto_Clock *c, int typed, char *out, size_t cap)
{
    char t[16];
    unsigned base = c->base_ms / 1000, inc = c->inc_ms / 1000,
             days = c->base_ms / DAY_MS;
    int n;
    if (typed && base % 60 == 0)
        snprintf(t, sizeof t, "%u", base / 60);
    else
        snprintf(t, sizeof t, typed ? "%us" : "%u", base);
    switch (c->kind) {
    case PROTO_CLOCK_FISCHER:
        n = snprintf(out, cap, "%s+%u", t, inc);
        break;
    case PROTO_CLOCK_DELAY:
        n = snprintf(out, cap, "%sd%u", t, c->delay_ms / 1000);
        break;
    case PROTO_CLOCK_MOVES:
        n = inc ? snprintf(out, cap, "%u/%s+%u", c->moves, t, inc)
                : snprintf(out, cap, "%u/%s", c->moves, t);
        break;
    case PROTO_CLOCK_DAYS:
        n = snprintf(out, cap, "%u%s", days,
                     typed && days != 1 ? "days" : "day");
        break;
    default:
        n = snprintf(out, cap, "%s", "");
        break;
    }
    return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
}

int proto_clock_format(const Proto_Clock *c, char *out, size_t cap)
{
    return clock_text(c, 0, out, cap);
}

int proto_clock_typed(const Proto_Clock *c, char *out, size_t cap)
{
    return clock_text(c, 1, out, cap);
}

/* 1 when the token tok[0..len) is PROTO_OPTION_RELAY. */
static int relay_token(const char *tok, size_t len)
{
    return len == strlen(PROTO_OPTION_RELAY) &&
           strncmp(tok, PROTO_OPTION_RELAY, len) == 0;
}

/* A whole number 1..65535 of s[0..n) (decimal, no leading zero), or
 * 0. */
static unsigned rating_number(const char *s, size_t n)
{
    unsigned v = 0;
    if (n == 0 || n > 5 || s[0] == '0')
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    return v <= 65535 ? v : 0;
}

int proto_rating_token(const char *tok, size_t len, uint16_t *lo,
                       uint16_t *hi)
{
    static const char prefix[] = PROTO_OPTION_RATING;
    const size_t pn = sizeof prefix - 1;
    const char *dots;
    unsigned a, b;
    if (len < pn || strncmp(tok, prefix, pn) != 0)
        return 0;
    dots = memchr(tok + pn, '.', len - pn);
    if (dots == NULL || dots + 1 >= tok + len || dots[1] != '.' ||
        (a = rating_number(tok + pn, (size_t)(dots - tok) - pn)) == 0 ||
        (b = rating_number(dots + 2, (size_t)(tok + len - dots - 2))) == 0 ||
        a > b)
        return TB_E_OPTION;
    *lo = (uint16_t)a;
    *hi = (uint16_t)b;
    return 1;
}

int proto_options_rating(const char *options, uint16_t *lo, uint16_t *hi)
{
    int found = 0, rc;
    uint16_t a, b;
    *lo = *hi = 0;
    while (options != NULL && *options != '\0') {
        size_t len = strcspn(options, ",");
        if ((rc = proto_rating_token(options, len, &a, &b)) != 0) {
            if (rc < 0 || found)
                return TB_E_OPTION;
            found = 1;
            *lo = a;
            *hi = b;
        }
        options += len + (options[len] == ',');
    }
    return found;
}

int proto_clock_split(const char *options, Proto_Clock *clock,
                      char *game_opts, size_t cap)
{
    size_t n = 0;
    int found = 0, relay = 0, series = 0, rated = 0, sr;
    uint16_t rlo, rhi;
    Proto_Series one;
    memset(clock, 0, sizeof *clock);
    if (cap == 0)
        return TB_E_SPACE;
    game_opts[0] = '\0';
    while (*options != '\0') {
        size_t len = strcspn(options, ",");
        if (len > 6 && strncmp(options, "clock=", 6) == 0) {
            char value[PROTO_CLOCK_TEXT_MAX];
            if (found || len - 6 >= sizeof value)
                return TB_E_OPTION;
            memcpy(value, options + 6, len - 6);
            value[len - 6] = '\0';
            if (proto_clock_parse(value, 0, clock, NULL) != 0)
                return TB_E_OPTION;
            found = 1;
        } else if (len >= 6 && strncmp(options, "relay=", 6) == 0) {
            if (relay || !relay_token(options, len))
                return TB_E_OPTION;
            relay = 1;
        } else if (len > 0 &&
                   (sr = proto_series_token(options, len, &one)) != 0) {
            if (sr < 0 || series) /* (a bad one, or two) */
                return TB_E_OPTION;
            series = 1;
        } else if (len > 0 &&
                   (sr = proto_rating_token(options, len, &rlo, &rhi)) != 0) {
            if (sr < 0 || rated)
                return TB_E_OPTION;
            rated = 1;
        } else if (len > 0) {
            if (n + len + 2 > cap)
                return TB_E_SPACE;
            if (n > 0)
                game_opts[n++] = ',';
            memcpy(game_opts + n, options, len);
            n += len;
            game_opts[n] = '\0';
        }
        options += len;
        if (*options == ',')
            options++;
    }
    return 0;
}

int proto_options_relay(const char *options)
{
    while (options != NULL && *options != '\0') {
        size_t len = strcspn(options, ",");
        if (relay_token(options, len))
            return 1;
        options += len + (options[len] == ',');
    }
    return 0;
}

void proto_options_chosen(const char *options,
                          char out[PROTO_OPTIONS_MAX + 1])
{
    size_t n = 0;
    while (*options != '\0') {
        size_t len = strcspn(options, ",");
        if (len > 0 && !relay_token(options, len) &&
            n + (n > 0) + len <= PROTO_OPTIONS_MAX) {
            if (n > 0)
                out[n++] = ',';
            memcpy(out + n, options, len);
            n += len;
        }
        options += len + (options[len] == ',');
    }
    out[n] = '\0';
}

int64_t proto_clock_charge(const Proto_Clock *c, int64_t elapsed_ms)
{
    int64_t d = c->kind == PROTO_CLOCK_DELAY ? (int64_t)c->delay_ms : 0;
    return elapsed_ms > d ? elapsed_ms - d : 0;
}

int64_t proto_clock_limit(const Proto_Clock *c, int64_t left_ms)
{
    return left_ms + (c->kind == PROTO_CLOCK_DELAY ? (int64_t)c->delay_ms : 0);
}

int64_t proto_clock_after_move(const Proto_Clock *c, int64_t left_ms,
                               int64_t charge_ms, uint32_t made)
{
    int64_t left = left_ms - charge_ms;
    switch (c->kind) {
    case PROTO_CLOCK_FISCHER:
        return left + c->inc_ms;
    case PROTO_CLOCK_MOVES:
        /* the period's last move gives the next period's time */
        if (c->moves > 0 && made > 0 && made % c->moves == 0)
            left += c->base_ms;
        return left + c->inc_ms;
    case PROTO_CLOCK_DAYS:
        return c->base_ms; /* reset, not summed */
    default:
        return left;
    }
}

uint32_t proto_clock_moves_to_go(const Proto_Clock *c, uint32_t made)
{
    if (c->kind == PROTO_CLOCK_MOVES && c->moves > 0)
        return c->moves - made % c->moves;
    return c->kind == PROTO_CLOCK_DAYS ? 1 : 0;
}

uint32_t proto_absence_ms(const Proto_Clock *c)
{
    if (c == NULL || c->kind == PROTO_CLOCK_NONE)
        return PROTO_ABSENT_MAX_MS;
    if (c->kind == PROTO_CLOCK_DAYS)
        return c->base_ms;
    uint64_t per_move = c->kind == PROTO_CLOCK_DELAY ? c->delay_ms : c->inc_ms;
    uint64_t scaled = ((uint64_t)c->base_ms + 40 * per_move) / 10;
    return (uint32_t)(scaled < PROTO_ABSENT_MIN_MS   ? PROTO_ABSENT_MIN_MS
                      : scaled > PROTO_ABSENT_MAX_MS ? PROTO_ABSENT_MAX_MS
                                                     : scaled);
}
