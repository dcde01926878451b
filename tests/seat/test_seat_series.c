/*
 * test_seat_series.c: a series' policy in the seat layer (seat/series.c,
 * issue 38): who hosts each game, its code (the one both players compute
 * and nobody else can), its options, the score in table points, when a
 * series stops, and its text for a page's storage. Expected values are
 * worked by hand from docs/usage.md "Series": the first game's White
 * hosts the odd games, its Black the even ones.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "seat.h"
#include "tb_error.h"

static Proto_Identity a, b, c; /* a hosts game 1 (White); b is Black */
static uint8_t id1[PROTO_MATCH_ID_BYTES];

static void keys(void)
{
    cr_assert_eq(proto_init(), 0);
    cr_assert_eq(proto_identity_generate(&a), 0);
    cr_assert_eq(proto_identity_generate(&b), 0);
    cr_assert_eq(proto_identity_generate(&c), 0);
    for (size_t i = 0; i < sizeof id1; i++)
        id1[i] = (uint8_t)(0xa0 + i);
}

/* Game k of a 3-game laska series ended outcome, White white, Black
 * black, with table points tw : tb. */
static Seat_Game_End end(unsigned k, const Proto_Identity *white,
                         const Proto_Identity *black, Core_Outcome outcome,
                         unsigned tw, unsigned tb)
{
    Seat_Game_End e;
    char hex[2 * PROTO_MATCH_ID_BYTES + 1];
    memset(&e, 0, sizeof e);
    e.started = 1;
    e.finished = 1;
    e.status.outcome = outcome;
    e.status.reason = CORE_REASON_NONE;
    e.table[0] = tw;
    e.table[1] = tb;
    strcpy(e.game, "laska");
    proto_hex(id1, sizeof id1, hex);
    if (k == 1)
        strcpy(e.options, "clock=300+0,series=1/3");
    else
        snprintf(e.options, sizeof e.options, "clock=300+0,series=%u/3/%s", k,
                 hex);
    memcpy(e.white, white->pk, PROTO_KEY_BYTES);
    memcpy(e.black, black->pk, PROTO_KEY_BYTES);
    memcpy(e.match_id, id1, sizeof id1);
    if (k > 1)
        e.match_id[0] ^= (uint8_t)k; /* (each game its own match id) */
    return e;
}

Test(seat_series, a_game_that_is_no_series_first_game_begins_none)
{
    Seat_Series s;
    keys();
    Seat_Game_End e = end(1, &a, &b, CORE_WIN_WHITE, 2, 0);
    strcpy(e.options, "clock=300+0");
    cr_assert_eq(seat_series_begin(&s, a.pk, &e), 0);
    e = end(2, &b, &a, CORE_WIN_WHITE, 2, 0); /* a later game: not a start */
    cr_assert_eq(seat_series_begin(&s, a.pk, &e), 0);
    e = end(1, &a, &b, CORE_WIN_WHITE, 2, 0);
    cr_assert_eq(seat_series_begin(&s, c.pk, &e), 0); /* not c's game */
    cr_assert_eq(seat_series_begin(&s, a.pk, &e), 1);
    cr_assert_eq(s.games, 3);
    cr_assert_str_eq(s.options, "clock=300+0");
}

Test(seat_series, colours_alternate_and_both_players_compute_one_code)
{
    Seat_Series sa, sb;
    Seat_Series_Game ga, gb;
    uint8_t sym[PROTO_SERIES_CODE_BYTES];
    Lobby_Code want;
    char hex[2 * PROTO_MATCH_ID_BYTES + 1], opts[PROTO_OPTIONS_MAX + 1];
    keys();
    Seat_Game_End e = end(1, &a, &b, CORE_WIN_WHITE, 2, 0);
    cr_assert_eq(seat_series_begin(&sa, a.pk, &e), 1);
    cr_assert_eq(seat_series_begin(&sb, b.pk, &e), 1);
    cr_assert_eq(seat_series_add(&sa, &e), SEAT_SERIES_NEXT);
    cr_assert_eq(seat_series_add(&sb, &e), SEAT_SERIES_NEXT);
    cr_assert_eq(sa.score[0], 2);
    cr_assert_eq(sa.score[1], 0);
    cr_assert_eq(sb.score[0], 0);
    cr_assert_eq(sb.score[1], 2);

    /* game 2: b (game 1's Black) hosts and plays White */
    cr_assert_eq(seat_series_next(&sa, &a, &ga), 0);
    cr_assert_eq(seat_series_next(&sb, &b, &gb), 0);
    cr_assert_eq(ga.number, 2);
    cr_assert_eq(ga.host, 0);
    cr_assert_eq(gb.host, 1);
    cr_assert_str_eq(ga.invite.text, gb.invite.text);
    cr_assert_eq(memcmp(gb.opponent, a.pk, PROTO_KEY_BYTES), 0);
    /* the code is proto_series_code's secret bound to the host's key */
    cr_assert_eq(proto_series_code(&b, a.pk, id1, 2, sym), 0);
    cr_assert_eq(lobby_code_make(sym, b.pk, &want), 0);
    cr_assert_str_eq(gb.invite.text, want.text);
    proto_hex(id1, sizeof id1, hex);
    snprintf(opts, sizeof opts, "clock=300+0,series=2/3/%s", hex);
    cr_assert_str_eq(ga.options, opts);
    cr_assert_str_eq(gb.options, opts);
    cr_assert_eq(ga.game, core_game_find("laska"));
    /* a third player's key makes no game of theirs */
    cr_assert_eq(seat_series_next(&sa, &c, &ga), TB_E_ARG);

    /* game 2 drawn (1 : 1), game 3 hosted by a again, won by Black (b) */
    e = end(2, &b, &a, CORE_DRAW, 1, 1);
    cr_assert_eq(seat_series_add(&sa, &e), SEAT_SERIES_NEXT);
    cr_assert_eq(seat_series_next(&sa, &a, &ga), 0);
    cr_assert_eq(ga.number, 3);
    cr_assert_eq(ga.host, 1);
    e = end(3, &a, &b, CORE_WIN_BLACK, 0, 2);
    cr_assert_eq(seat_series_add(&sa, &e), SEAT_SERIES_OVER);
    /* a: 1 + 0.5 + 0 = 1.5; b: 0 + 0.5 + 1 = 1.5 */
    cr_assert_eq(sa.score[0], 3);
    cr_assert_eq(sa.score[1], 3);
    cr_assert_eq(seat_series_next(&sa, &a, &ga), TB_E_STATE);
}

Test(seat_series, volleyball_table_points_add_up)
{
    Seat_Series s;
    char p[SEAT_POINTS_TEXT], q[SEAT_POINTS_TEXT];
    keys();
    Seat_Game_End e = end(1, &a, &b, CORE_WIN_WHITE, 6, 0); /* 3 : 0 */
    cr_assert_eq(seat_series_begin(&s, b.pk, &e), 1);
    cr_assert_eq(seat_series_add(&s, &e), SEAT_SERIES_NEXT);
    e = end(2, &b, &a, CORE_WIN_WHITE, 4, 2); /* b won 2-1: 2 : 1 */
    cr_assert_eq(seat_series_add(&s, &e), SEAT_SERIES_NEXT);
    cr_assert_eq(s.score[0], 4); /* b: 0 + 2 */
    cr_assert_eq(s.score[1], 8); /* a: 3 + 1 */
    e = end(3, &a, &b, CORE_DRAW, 3, 3); /* agreed: 3/2 : 3/2 */
    cr_assert_eq(seat_series_add(&s, &e), SEAT_SERIES_OVER);
    seat_series_points(s.score[0], p);
    seat_series_points(s.score[1], q);
    cr_assert_str_eq(p, "3.5");
    cr_assert_str_eq(q, "5.5");
    char line[120];
    seat_series_line(line, sizeof line, seat_series_banner(), 3, 3, s.score);
    cr_assert_str_eq(line, "Series: game 3 of 3; score: you 3.5 - opponent 5.5");
}

Test(seat_series, an_abort_stops_it_and_a_game_not_its_next_is_not_counted)
{
    Seat_Series s;
    Seat_Series_Game g;
    keys();
    Seat_Game_End e = end(1, &a, &b, CORE_WIN_WHITE, 2, 0);
    cr_assert_eq(seat_series_begin(&s, a.pk, &e), 1);
    cr_assert_eq(seat_series_add(&s, &e), SEAT_SERIES_NEXT);

    Seat_Series t = s;
    Seat_Game_End x = end(3, &a, &b, CORE_WIN_WHITE, 2, 0); /* game 3 */
    cr_assert_eq(seat_series_add(&t, &x), SEAT_SERIES_UNFINISHED);
    cr_assert_eq(t.played, 1);
    cr_assert_eq(seat_series_stop_game(&t), 2); /* the game that did not end */
    cr_assert_eq(t.score[0], 2);
    cr_assert_eq(seat_series_next(&t, &a, &g), TB_E_STATE);
    t = s;
    x = end(2, &a, &b, CORE_WIN_WHITE, 2, 0); /* colours not alternated */
    cr_assert_eq(seat_series_add(&t, &x), SEAT_SERIES_UNFINISHED);
    t = s;
    x = end(2, &b, &c, CORE_WIN_WHITE, 2, 0); /* another opponent */
    cr_assert_eq(seat_series_add(&t, &x), SEAT_SERIES_UNFINISHED);
    t = s;
    x = end(2, &b, &a, CORE_WIN_WHITE, 2, 0);
    x.match_id[0] = 0; /* (its own id is any) */
    x.options[strlen(x.options) - 1] ^= 1; /* another series' id */
    cr_assert_eq(seat_series_add(&t, &x), SEAT_SERIES_UNFINISHED);
    t = s;
    x = end(2, &b, &a, CORE_WIN_WHITE, 2, 0);
    memcpy(x.options, "clock=15+0", 10); /* another clock (a trial) */
    cr_assert_eq(seat_series_add(&t, &x), SEAT_SERIES_UNFINISHED);
    t = s;
    x = end(2, &b, &a, CORE_WIN_WHITE, 2, 0);
    x.finished = 0; /* a desync */
    cr_assert_eq(seat_series_add(&t, &x), SEAT_SERIES_UNFINISHED);
    cr_assert_eq(seat_series_add(&t, &x), SEAT_SERIES_UNFINISHED);

    x = end(2, &b, &a, CORE_ABORTED, 0, 0);
    cr_assert_eq(seat_series_add(&s, &x), SEAT_SERIES_ABORTED);
    cr_assert_eq(s.played, 2);
    cr_assert_eq(seat_series_stop_game(&s), 2); /* the aborted one, counted */
    cr_assert_eq(seat_series_next(&s, &a, &g), TB_E_STATE);
}

Test(seat_series, its_text_reads_back_and_a_damaged_one_is_refused)
{
    Seat_Series s, r;
    char text[SEAT_SERIES_TEXT_MAX], bad[SEAT_SERIES_TEXT_MAX + 16];
    keys();
    Seat_Game_End e = end(1, &a, &b, CORE_DRAW, 1, 1);
    cr_assert_eq(seat_series_begin(&s, b.pk, &e), 1);
    cr_assert_eq(seat_series_add(&s, &e), SEAT_SERIES_NEXT);
    cr_assert_eq(seat_series_text(&s, text, sizeof text), 0);
    cr_assert_eq(strncmp(text, "series1 laska 3 1 0 1 1 0 ", 26), 0, "%s",
                 text);
    cr_assert_eq(seat_series_read(text, &r), 0);
    cr_assert_eq(memcmp(&r, &s, sizeof r), 0);
    cr_assert_eq(seat_series_text(&s, text, 40), TB_E_SPACE);

    cr_assert_eq(seat_series_text(&s, text, sizeof text), 0);
    const char *swaps[][2] = {
        {"series1 laska 3 1", "series1 laska 1 1"}, /* a series of 1 */
        {"series1 laska 3 1", "series1 laska 3 4"}, /* played past N */
        {"series1 laska", "series1 chess"},          /* no such game */
        {"series1 laska 3 1 0 1 1 0", "series1 laska 3 1 0 1 1 1"},
        {"series1", "series2"},
        {"clock=300+0", "clock=300+0,series=1/3"},
    };
    for (size_t i = 0; i < sizeof swaps / sizeof swaps[0]; i++) {
        const char *at = strstr(text, swaps[i][0]);
        cr_assert_not_null(at);
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - text), text,
                 swaps[i][1], at + strlen(swaps[i][0]));
        cr_assert_eq(seat_series_read(bad, &r), TB_E_FORMAT, "%s", bad);
    }
    snprintf(bad, sizeof bad, "%s x", text);
    cr_assert_eq(seat_series_read(bad, &r), TB_E_FORMAT);
    snprintf(bad, sizeof bad, "%.*s", (int)strlen(text) - 13, text);
    cr_assert_eq(seat_series_read(bad, &r), TB_E_FORMAT);
    cr_assert_eq(seat_series_read("", &r), TB_E_FORMAT);
}
