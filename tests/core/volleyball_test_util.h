/*
 * volleyball_test_util.h: helpers shared by the Chess volleyball test
 * files: set a position up from a position string, compare the legal
 * action list with the spec's text, play an action by its notation, read
 * one key of the position string. Each takes the game (8x8 or 10x10).
 */
#ifndef TABULA_VOLLEYBALL_TEST_UTIL_H
#define TABULA_VOLLEYBALL_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* A position of game g from a string (spec 10.1 defaults), or the start
 * if text is NULL. */
static inline Core_Position *vbt_setup(const Core_Game *g, const char *text)
{
    Core_Position *pos = NULL;
    char why[200] = "";
    cr_assert_not_null(g);
    cr_assert_eq(core_position_new(&pos, g, NULL), 0);
    if (text != NULL) {
        int rc = core_position_parse(pos, text, why, sizeof why);
        cr_assert_eq(rc, 0, "position '%s': %s", text, why);
    }
    return pos;
}

/* Every legal action of pos, joined by ", ", into out[0..cap). */
static inline void vbt_list(const Core_Position *pos, char *out, size_t cap)
{
    const Core_Game *g = core_position_game(pos);
    size_t n = 0, max = core_game_max_moves(g);
    Core_Move *buf = malloc(max * sizeof *buf);
    cr_assert_not_null(buf);
    cr_assert_eq(core_moves(pos, buf, max, &n), 0);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char t[CORE_NOTATION_MAX];
        cr_assert_eq(core_move_format(pos, &buf[i], t, sizeof t), 0);
        if (i)
            strncat(out, ", ", cap - strlen(out) - 1);
        strncat(out, t, cap - strlen(out) - 1);
    }
    free(buf);
}

static inline void vbt_expect_list(const Core_Position *pos, const char *want)
{
    static char got[200000];
    vbt_list(pos, got, sizeof got);
    cr_assert_str_eq(got, want);
}

static inline void vbt_play(Core_Position *pos, const char *text)
{
    Core_Move mv;
    int rc = core_move_parse(pos, text, &mv);
    cr_assert_eq(rc, 0, "parse '%s': %s", text, tb_strerror(rc));
    cr_assert_eq(core_play(pos, &mv), 0);
}

/* The value of key=... in the position string must be want. */
static inline void vbt_expect_field(const Core_Position *pos, const char *key,
                                    const char *want)
{
    char text[CORE_POSITION_TEXT_MAX], pat[32] = " ", got[256] = "";
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    strncat(pat, key, sizeof pat - 3);
    strcat(pat, "=");
    const char *p = strstr(text, pat);
    if (p != NULL) {
        p += strlen(pat);
        size_t n = strcspn(p, " ");
        if (n >= sizeof got)
            n = sizeof got - 1;
        memcpy(got, p, n);
        got[n] = '\0';
    }
    cr_assert_str_eq(got, want, "field %s", key);
}

static inline uint64_t vbt_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Every state of random matches: the position string and the encoding
 * round-trip, every listed action formats and parses back to itself, in
 * canonical order, and perft's count at depth 1 (which counts without
 * listing) equals the list's length. seen (may be NULL) counts listed actions by their first
 * character, and hooked throws (P-07) under '^'. */
static inline void vbt_random_matches(const char *gname, const char *options,
                                      int matches, uint64_t seed,
                                      long seen[128])
{
    const Core_Game *g = core_game_find(gname);
    cr_assert_not_null(g);
    size_t max = core_game_max_moves(g);
    Core_Move *buf = malloc(max * sizeof *buf);
    uint8_t *enc = malloc(core_game_encode_max(g));
    uint8_t *enc2 = malloc(core_game_encode_max(g));
    cr_assert(buf && enc && enc2);
    for (int m = 0; m < matches; m++) {
        Core_Position *pos = NULL, *copy = NULL;
        cr_assert_eq(core_position_new(&pos, g, options), 0);
        cr_assert_eq(core_position_new(&copy, g, options), 0);
        int plies = 0;
        for (;;) {
            size_t n = 0, len = 0, len2 = 0;
            char text[CORE_POSITION_TEXT_MAX], text2[CORE_POSITION_TEXT_MAX];
            char why[200] = "";
            cr_assert_eq(core_encode(pos, enc, core_game_encode_max(g), &len),
                         0);
            cr_assert_eq(core_decode(copy, enc, len), 0);
            cr_assert_eq(
                core_encode(copy, enc2, core_game_encode_max(g), &len2), 0);
            cr_assert(len == len2 && memcmp(enc, enc2, len) == 0);
            cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
            cr_assert_eq(core_position_parse(copy, text, why, sizeof why), 0,
                         "%s: %s", text, why);
            cr_assert_eq(core_position_format(copy, text2, sizeof text2), 0);
            cr_assert_str_eq(text, text2);
            cr_assert_eq(core_moves(pos, buf, max, &n), 0);
            uint64_t counted = 0; /* perft's count without the list */
            cr_assert_eq(core_perft(pos, 1, &counted), 0);
            cr_assert_eq(counted, n, "perft 1 %llu, listed %zu: %s",
                         (unsigned long long)counted, n, text);
            if (core_status(pos).outcome != CORE_ONGOING) {
                cr_assert_eq(n, 0);
                break;
            }
            cr_assert_gt(n, 0, "no action but not over: %s", text);
            for (size_t i = 0; i < n; i++) {
                char t[CORE_NOTATION_MAX];
                Core_Move back;
                cr_assert_eq(core_move_format(pos, &buf[i], t, sizeof t), 0);
                cr_assert_eq(core_move_parse(pos, t, &back), 0, "%s", t);
                cr_assert(core_move_equal(&back, &buf[i]));
                if (seen != NULL) {
                    seen[t[0] & 127]++;
                    seen['^'] += strchr(t, '^') != NULL;
                }
                if (i > 0)
                    cr_assert(memcmp(buf[i - 1].b, buf[i].b, 6) < 0,
                              "order at %s", t);
            }
            cr_assert_eq(core_play(pos, &buf[vbt_rng_next(&seed) % n]), 0);
            cr_assert_lt(++plies, 20000);
        }
        core_position_free(pos);
        core_position_free(copy);
    }
    free(buf);
    free(enc);
    free(enc2);
}

#endif /* TABULA_VOLLEYBALL_TEST_UTIL_H */
