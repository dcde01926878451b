/*
 * test_series.c: a series' token in the match options and its games'
 * invite code secret (proto/series.c), by hand.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "proto.h"
#include "tb_error.h"

TestSuite(series, .init = NULL);

static int token(const char *t, Proto_Series *s)
{
    return proto_series_token(t, strlen(t), s);
}

/* Game 1 has no id, later games have one of 32 lower-case hex digits;
 * 1 <= K <= N, 2 <= N <= 99, no leading zero. */
Test(series, tokens_are_read_as_written)
{
    Proto_Series s;
    cr_assert_eq(token("series=1/3", &s), 1);
    cr_assert(s.game == 1 && s.games == 3 && !s.has_id);
    cr_assert_eq(token("series=2/3/000102030405060708090a0b0c0d0e0f", &s), 1);
    cr_assert(s.game == 2 && s.games == 3 && s.has_id);
    cr_assert_eq(s.id[0], 0x00);
    cr_assert_eq(s.id[15], 0x0f);
    cr_assert_eq(token("goals=3", &s), 0);
    static const char *const bad[] = {
        "series=", "series=1", "series=0/3", "series=4/3", "series=1/1",
        "series=1/100", "series=01/3", "series=2/3",
        "series=1/3/000102030405060708090a0b0c0d0e0f",
        "series=2/3/000102030405060708090A0B0C0D0E0F",
        "series=2/3/000102030405060708090a0b0c0d0e", "series=a/3",
        "series=2/3/000102030405060708090a0b0c0d0e0f0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(token(bad[i], &s), TB_E_OPTION, "%s", bad[i]);
}

/* The transcript's: proto_clock_split takes the token out of the game's
 * options, refuses two or a bad one; proto_options_series finds it. */
Test(series, the_token_is_the_sessions_not_the_games)
{
    Proto_Clock c;
    Proto_Series s;
    char game[64], text[80];
    cr_assert_eq(proto_clock_split("goals=3,series=1/2,clock=300+2", &c,
                                   game, sizeof game),
                 0);
    cr_assert_str_eq(game, "goals=3");
    cr_assert_eq(proto_clock_split("series=1/2,series=1/2", &c, game,
                                   sizeof game),
                 TB_E_OPTION);
    cr_assert_eq(proto_clock_split("series=3/2", &c, game, sizeof game),
                 TB_E_OPTION);
    cr_assert_eq(proto_options_series("goals=3,series=1/2", &s), 1);
    cr_assert_eq(s.games, 2);
    cr_assert_eq(proto_options_series("goals=3", &s), 0);
    s.game = 2; /* (s was zeroed: the options above had none) */
    s.games = 2;
    s.has_id = 1;
    memset(s.id, 0xab, sizeof s.id);
    cr_assert_eq(proto_series_format(&s, text, sizeof text), 0);
    cr_assert_str_eq(text, "series=2/2/abababababababababababababababab");
    cr_assert_eq(proto_series_format(&s, text, 20), TB_E_SPACE);
    s.has_id = 0;
    cr_assert_eq(proto_series_format(&s, text, sizeof text), TB_E_ARG);
}

/* Both players compute one secret (X25519 is symmetric), another game or
 * series gives another, and a third key with either public key gives
 * another. */
Test(series, only_the_two_players_share_the_code)
{
    Proto_Identity a, b, c;
    uint8_t seed[32], id[PROTO_MATCH_ID_BYTES], ab[12], ba[12], other[12];
    memset(id, 7, sizeof id);
    memset(seed, 1, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&a, seed), 0);
    memset(seed, 2, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&b, seed), 0);
    memset(seed, 3, sizeof seed);
    cr_assert_eq(proto_identity_from_seed(&c, seed), 0);
    cr_assert_eq(proto_series_code(&a, b.pk, id, 2, ab), 0);
    cr_assert_eq(proto_series_code(&b, a.pk, id, 2, ba), 0);
    cr_assert_arr_eq(ab, ba, sizeof ab);
    cr_assert_eq(proto_series_code(&a, b.pk, id, 3, other), 0);
    cr_assert_arr_neq(ab, other, sizeof ab);
    id[0] = 8;
    cr_assert_eq(proto_series_code(&a, b.pk, id, 2, other), 0);
    cr_assert_arr_neq(ab, other, sizeof ab);
    id[0] = 7;
    cr_assert_eq(proto_series_code(&c, a.pk, id, 2, other), 0);
    cr_assert_arr_neq(ab, other, sizeof ab);
    cr_assert_eq(proto_series_code(&c, b.pk, id, 2, other), 0);
    cr_assert_arr_neq(ab, other, sizeof ab);
    cr_assert_eq(proto_series_code(NULL, b.pk, id, 2, other), TB_E_ARG);
}

/* The rating token (issue 38, a rated seek): read as written, refused
 * written any other way, and the session's: proto_clock_split takes it
 * out of the game's options. */
Test(series, the_rating_token_is_read_and_taken_out)
{
    uint16_t lo = 9, hi = 9;
    Proto_Clock c;
    char rest[PROTO_OPTIONS_MAX + 1];
    cr_assert_eq(proto_options_rating("goals=3,rating=1400..1800", &lo, &hi),
                 1);
    cr_assert(lo == 1400 && hi == 1800);
    cr_assert_eq(proto_options_rating("rating=1..65535", &lo, &hi), 1);
    cr_assert(lo == 1 && hi == 65535);
    cr_assert_eq(proto_options_rating("goals=3", &lo, &hi), 0);
    cr_assert(lo == 0 && hi == 0);
    static const char *const bad[] = {
        "rating=1800..1400", "rating=0..10",    "rating=01..10",
        "rating=1..65536",   "rating=1400",     "rating=1400..",
        "rating=..1400",     "rating=14x0..1500", "rating=1..2,rating=1..2",
        "rating=1...2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(proto_options_rating(bad[i], &lo, &hi), TB_E_OPTION,
                     "%s", bad[i]);
    cr_assert_eq(proto_clock_split("clock=300+3,rating=1400..1800,goals=3",
                                   &c, rest, sizeof rest),
                 0);
    cr_assert_str_eq(rest, "goals=3");
    cr_assert_eq(proto_clock_split("rating=1800..1400", &c, rest, sizeof rest),
                 TB_E_OPTION);
}
