/*
 * toy_game.h: a tiny game for the protocol tests, so they do not depend on
 * any real game's rules: "race", players alternately add 1, 2 or 3 to a
 * running total; whoever reaches the target (option target=N, 5..200,
 * default 21) wins. Canonical notation "+2"; the parser also accepts a
 * bare "2", so tests can send a legal move in a non-canonical notation.
 * Test-only: it fills a Core_Game from core_internal.h.
 */
#ifndef TABULA_TEST_TOY_GAME_H
#define TABULA_TEST_TOY_GAME_H

#include <string.h>

#include "core_internal.h"

typedef struct Toy_State {
    uint8_t target;
    uint8_t total;
    uint8_t side;
    uint8_t pad;
    uint32_t ply;
} Toy_State;

static int toy_option(void *ctx, const char *key, const char *val)
{
    Toy_State *s = ctx;
    int v = 0;
    if (strcmp(key, "target") != 0 || val[0] == '\0')
        return TB_E_OPTION;
    for (const char *p = val; *p; p++) {
        if (*p < '0' || *p > '9' || v > 1000)
            return TB_E_OPTION;
        v = v * 10 + (*p - '0');
    }
    if (v < 5 || v > 200)
        return TB_E_OPTION;
    s->target = (uint8_t)v;
    return 0;
}

static int toy_init(void *st, const char *options)
{
    Toy_State *s = st;
    memset(s, 0, sizeof *s);
    s->target = 21;
    return core__options_each(options, toy_option, s);
}

static int toy_moves(const void *st, Core_Move *buf, size_t cap, size_t *n)
{
    const Toy_State *s = st;
    *n = 0;
    if (s->total >= s->target)
        return 0;
    for (int k = 1; k <= 3 && s->total + k <= s->target; k++) {
        if (*n == cap)
            return TB_E_TOOMANY;
        memset(&buf[*n], 0, sizeof buf[*n]);
        buf[*n].len = 1;
        buf[*n].b[0] = (uint8_t)k;
        (*n)++;
    }
    return 0;
}

static void toy_make(void *st, const Core_Move *mv)
{
    Toy_State *s = st;
    s->total = (uint8_t)(s->total + mv->b[0]);
    s->side ^= 1;
    s->ply++;
}

static Core_Status toy_status(const void *st)
{
    const Toy_State *s = st;
    Core_Status r = {CORE_ONGOING, CORE_REASON_NONE};
    if (s->total >= s->target) {
        r.outcome = s->side == CORE_WHITE ? CORE_WIN_BLACK : CORE_WIN_WHITE;
        r.reason = CORE_REASON_GOAL;
    }
    return r;
}

static int toy_side(const void *st)
{
    return ((const Toy_State *)st)->side;
}

static uint32_t toy_ply(const void *st)
{
    return ((const Toy_State *)st)->ply;
}

static uint64_t toy_key(const void *st)
{
    const Toy_State *s = st;
    return (uint64_t)s->total * 0x9e3779b97f4a7c15ull ^ s->side;
}

static int toy_encode(const void *st, uint8_t *buf, size_t cap, size_t *len)
{
    const Toy_State *s = st;
    if (cap < 8)
        return TB_E_SPACE;
    buf[0] = 200;
    buf[1] = s->target;
    buf[2] = s->total;
    buf[3] = s->side;
    core__put_u32(buf + 4, s->ply);
    *len = 8;
    return 0;
}

static int toy_decode(void *st, const uint8_t *buf, size_t len)
{
    Toy_State *s = st;
    if (len != 8 || buf[1] < 5 || buf[1] > 200 || buf[2] > buf[1] || buf[3] > 1)
        return TB_E_ENCODING;
    memset(s, 0, sizeof *s);
    s->target = buf[1];
    s->total = buf[2];
    s->side = buf[3];
    s->ply = core__get_u32(buf + 4);
    return 0;
}

static int toy_move_format(const void *st, const Core_Move *mv, char *buf,
                           size_t cap)
{
    (void)st;
    if (cap < 3)
        return TB_E_SPACE;
    buf[0] = '+';
    buf[1] = (char)('0' + mv->b[0]);
    buf[2] = '\0';
    return 0;
}

static int toy_move_parse(const void *st, const char *text, Core_Move *out)
{
    const Toy_State *s = st;
    const char *p = text[0] == '+' ? text + 1 : text;
    if (p[0] < '0' || p[0] > '9' || p[1] != '\0')
        return TB_E_NOTATION;
    if (s->total >= s->target)
        return TB_E_OVER;
    if (p[0] < '1' || p[0] > '3' || s->total + (p[0] - '0') > s->target)
        return TB_E_ILLEGAL;
    memset(out, 0, sizeof *out);
    out->len = 1;
    out->b[0] = (uint8_t)(p[0] - '0');
    return 0;
}

static int toy_position_format(const void *st, char *buf, size_t cap)
{
    const Toy_State *s = st;
    Core_Text t;
    core__text_init(&t, buf, cap);
    core__text_uint(&t, s->total);
    core__text_char(&t, ' ');
    core__text_char(&t, s->side ? 'b' : 'w');
    return core__text_end(&t);
}

static int toy_position_parse(void *st, const char *text, char *why,
                              size_t why_cap)
{
    Toy_State *s = st;
    unsigned v = 0;
    const char *p = text;
    if (*p < '0' || *p > '9')
        return core__why(why, why_cap, TB_E_POSITION, "total expected");
    while (*p >= '0' && *p <= '9' && v < 1000)
        v = v * 10 + (unsigned)(*p++ - '0');
    if (v > s->target || p[0] != ' ' || (p[1] != 'w' && p[1] != 'b') ||
        p[2] != '\0')
        return core__why(why, why_cap, TB_E_POSITION, "'TOTAL w|b' expected");
    s->total = (uint8_t)v;
    s->side = p[1] == 'b';
    s->ply = 0;
    return 0;
}

static int toy_options_format(const void *st, char *buf, size_t cap)
{
    const Toy_State *s = st;
    Core_Text t;
    core__text_init(&t, buf, cap);
    if (s->target != 21) {
        core__text_str(&t, "target=");
        core__text_uint(&t, s->target);
    }
    return core__text_end(&t);
}

static int toy_perft(const void *st, unsigned depth, uint64_t *nodes);

/* Designated initializers: members the core adds later stay NULL. */
static const Core_Game toy_game = {
    .name = "race",
    .title = "Race to 21 (test game)",
    .move_hint = "+2",
    .id = 200,
    .state_size = sizeof(Toy_State),
    .max_moves = 3,
    .encode_max = 8,
    .init = toy_init,
    .moves = toy_moves,
    .make = toy_make,
    .status = toy_status,
    .side = toy_side,
    .ply = toy_ply,
    .key = toy_key,
    .encode = toy_encode,
    .decode = toy_decode,
    .move_format = toy_move_format,
    .move_parse = toy_move_parse,
    .position_format = toy_position_format,
    .position_parse = toy_position_parse,
    .options_format = toy_options_format,
    .perft = toy_perft,
};

static int toy_perft(const void *st, unsigned depth, uint64_t *nodes)
{
    return core__perft_generic(&toy_game, st, depth, nodes);
}

/* A lookup that knows "race" besides the compiled-in games. */
static inline const Core_Game *toy_lookup(const char *name)
{
    return strcmp(name, "race") == 0 ? &toy_game : core_game_find(name);
}

#endif /* TABULA_TEST_TOY_GAME_H */
