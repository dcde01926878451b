/*
 * test_seat_pool.c: a player's side of the pool in the seat layer
 * (seat/pool.c; docs/pool.md): the offer `tabula pool` and the page both
 * send, read back as the relay reads it (lobby_wire_pool_read), and what
 * a PAIRED means for it, on hand-worked values (docs/pool.md's worked
 * example: chessball at 5+0).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "seat.h"
#include "tb_error.h"

static uint16_t bits(const char *a, const char *b)
{
    uint16_t m = (uint16_t)(1u << seat_pool_bit(core_game_find(a)));
    if (b != NULL)
        m = (uint16_t)(m | 1u << seat_pool_bit(core_game_find(b)));
    return m;
}

Test(seat_pool, a_games_bit_is_its_place_in_the_catalogue)
{
    cr_assert_eq(seat_pool_bit(core_game_find("laska")), 0);
    cr_assert_eq(seat_pool_bit(core_game_find("chessball")), 1);
    cr_assert_eq(seat_pool_bit(NULL), LOBBY_POOL_GAMES);
}

Test(seat_pool, the_offer_reads_back_as_the_relay_reads_it)
{
    Proto_Identity me;
    Proto_Clock lo, hi;
    Seat_Pool_Offer o;
    Lobby_Pool_Ask ask;
    char a[PROTO_CLOCK_TEXT_MAX], b[PROTO_CLOCK_TEXT_MAX];

    cr_assert_eq(proto_init(), 0);
    cr_assert_eq(proto_identity_generate(&me), 0);
    cr_assert_eq(proto_clock_range_parse("3+2..10+5", 1, &lo, &hi, NULL), 0);
    cr_assert_eq(
        seat_pool_offer(&o, &me, bits("laska", "chessball"), &lo, &hi, "", NULL), 0);
    cr_assert_eq(lobby_wire_pool_read(o.msg, o.len, &ask), 0);
    cr_assert_eq(ask.games, 3);
    cr_assert_eq(proto_clock_format(&ask.lo, a, sizeof a), 0);
    cr_assert_eq(proto_clock_format(&ask.hi, b, sizeof b), 0);
    cr_assert_str_eq(a, "180+2");
    cr_assert_str_eq(b, "600+5");
    /* the player's key proves it; the card is the seat key's, its code
     * the offer's, its game the first offered */
    cr_assert(memcmp(ask.player_pk, me.pk, sizeof me.pk) == 0);
    cr_assert(memcmp(ask.card.host_pk, o.seat.pk, sizeof o.seat.pk) == 0);
    cr_assert_str_eq(ask.card.invite.text, o.invite.text);
    cr_assert_str_eq(ask.card.game, "laska");
    seat_pool_offer_wipe(&o);

    /* no identity: the seat key proves it; no clock */
    cr_assert_eq(
        seat_pool_offer(&o, NULL, bits("chessball", NULL), NULL, NULL, "", NULL), 0);
    cr_assert_eq(lobby_wire_pool_read(o.msg, o.len, &ask), 0);
    cr_assert(memcmp(ask.player_pk, o.seat.pk, sizeof o.seat.pk) == 0);
    cr_assert_eq(ask.lo.kind, PROTO_CLOCK_NONE);
    cr_assert_str_eq(ask.card.game, "chessball");
    seat_pool_offer_wipe(&o);
    proto_identity_wipe(&me);
}

Test(seat_pool, a_rated_offer_carries_its_range_and_plays_under_the_player)
{
    Proto_Identity me;
    Seat_Pool_Offer o;
    Lobby_Pool_Ask ask;
    Seat_Pool_Rated rated = {1, 1400, 1800};

    cr_assert_eq(proto_init(), 0);
    cr_assert_eq(proto_identity_generate(&me), 0);
    cr_assert_eq(seat_pool_offer(&o, &me, bits("laska", NULL), NULL, NULL, "",
                                 &rated),
                 0);
    cr_assert_eq(lobby_wire_pool_read(o.msg, o.len, &ask), 0);
    cr_assert_eq(ask.want_lo, 1400);
    cr_assert_eq(ask.want_hi, 1800);
    /* --me: the card's key (the game's) is the player's own */
    cr_assert(memcmp(ask.card.host_pk, me.pk, sizeof me.pk) == 0);
    cr_assert(memcmp(ask.player_pk, me.pk, sizeof me.pk) == 0);
    /* the range's bytes are signed: one changed fails the proof */
    uint8_t bad[LOBBY_WIRE_POOL_MAX];
    memcpy(bad, o.msg, o.len);
    bad[5] ^= 1; /* (no clock: the range's first byte follows the length) */
    cr_assert_neq(lobby_wire_pool_read(bad, o.len, &ask), 0);
    /* an older version's POOL is a version error, not garbage */
    memcpy(bad, o.msg, o.len);
    bad[1] = 4;
    cr_assert_eq(lobby_wire_pool_read(bad, o.len, &ask), TB_E_VERSION);
    seat_pool_offer_wipe(&o);
    /* upside down, or --me without a player: refused */
    rated.want_lo = 1900;
    cr_assert_neq(seat_pool_offer(&o, &me, bits("laska", NULL), NULL, NULL,
                                  "", &rated),
                  0);
    rated.want_lo = 0;
    cr_assert_eq(seat_pool_offer(&o, NULL, bits("laska", NULL), NULL, NULL,
                                 "", &rated),
                 TB_E_ARG);
    proto_identity_wipe(&me);
}

Test(seat_pool, an_offer_of_no_game_or_with_a_clock_in_its_options_is_refused)
{
    Seat_Pool_Offer o;
    cr_assert_eq(proto_init(), 0);
    cr_assert_eq(seat_pool_offer(&o, NULL, 0, NULL, NULL, "", NULL), TB_E_ARG);
    cr_assert_eq(seat_pool_offer(&o, NULL, bits("laska", NULL), NULL, NULL,
                                 "clock=300+0", NULL),
                 TB_E_ARG);
    cr_assert_eq(seat_pool_offer(&o, NULL, 1u << 15, NULL, NULL, "", NULL), TB_E_ARG);
}

Test(seat_pool, a_pairing_gives_the_game_its_options_and_clock)
{
    Lobby_Paired p;
    Seat_Pool_Game g;

    memset(&p, 0, sizeof p);
    p.role = LOBBY_ROLE_GUEST;
    p.game = 1;
    cr_assert_eq(proto_clock_parse("5+0", 1, &p.clock, NULL), 0);
    cr_assert_eq(seat_pool_paired(&p, bits("chessball", NULL), &g), 0);
    cr_assert_eq(g.game, core_game_find("chessball"));
    cr_assert_str_eq(g.options, "clock=300+0");
    cr_assert_str_eq(g.clock, "5+0");
    /* the host's options first, the clock after */
    memcpy(p.options, "goals=3", 8);
    cr_assert_eq(seat_pool_paired(&p, bits("laska", "chessball"), &g), 0);
    cr_assert_str_eq(g.options, "goals=3,clock=300+0");
    /* no clock */
    memset(&p.clock, 0, sizeof p.clock);
    cr_assert_eq(seat_pool_paired(&p, bits("chessball", NULL), &g), 0);
    cr_assert_str_eq(g.options, "goals=3");
    cr_assert_str_eq(g.clock, "");
    /* a game this player did not offer is not obeyed */
    cr_assert_eq(seat_pool_paired(&p, bits("laska", NULL), &g), TB_E_FORMAT);
    p.game = LOBBY_POOL_GAMES - 1;
    cr_assert_eq(seat_pool_paired(&p, 0xffff, &g), TB_E_FORMAT);
}

/* An offer lost after the lobby took it is made again (seat.h), by the
 * waits worked out by hand from the doc: never taken, nothing; a run of
 * losses (UV_EOF, -4095; TB_E_TRUNCATED; ECONNREFUSED, -111; TB_E_FULL)
 * waits 1000, 2000, 4000, 8000, then 8000; taken again and dropped at
 * once (within 18 s of the last loss) the run goes on at 8000; a loss
 * 18 s after the last starts a new run at 1000; TB_E_SEEKS and
 * TB_E_ADDRESS (the old connection's offer still counted) go on within
 * 60 s of the run's first loss, then end; any other refusal ends it. */
Test(seat_pool, an_offer_lost_after_it_was_taken_is_made_again)
{
    Seat_Pool_Offer o;
    memset(&o, 0, sizeof o);
    cr_assert_eq(seat_pool_lost(&o, -4095, 100), 0); /* never taken */
    seat_pool_taken(&o);
    cr_assert_eq(seat_pool_lost(&o, -4095, 1000), 1000);
    cr_assert_eq(seat_pool_lost(&o, TB_E_TRUNCATED, 2000), 2000);
    cr_assert_eq(seat_pool_lost(&o, -111, 4000), 4000);
    cr_assert_eq(seat_pool_lost(&o, TB_E_FULL, 8000), 8000);
    cr_assert_eq(seat_pool_lost(&o, -4095, 16000), 8000);
    seat_pool_taken(&o); /* (taken, and dropped at once) */
    cr_assert_eq(seat_pool_lost(&o, -4095, 17000), 8000);
    seat_pool_taken(&o); /* (a connection that lasted 18 s) */
    cr_assert_eq(seat_pool_lost(&o, -4095, 35000), 1000);
    cr_assert_eq(seat_pool_lost(&o, TB_E_SEEKS, 36000), 2000);
    cr_assert_eq(seat_pool_lost(&o, TB_E_ADDRESS, 38000), 4000);
    cr_assert_eq(seat_pool_lost(&o, TB_E_SEEKS, 42000), 8000);
    for (uint64_t t = 50000; t <= 90000; t += 8000)
        cr_assert_eq(seat_pool_lost(&o, TB_E_SEEKS, t), 8000, "at %llu",
                     (unsigned long long)t);
    cr_assert_eq(seat_pool_lost(&o, TB_E_SEEKS, 95001), 0); /* 60 s on */
    cr_assert_eq(seat_pool_lost(&o, TB_E_VERSION, 95002), 0);
    cr_assert_eq(seat_pool_lost(&o, TB_E_FORMAT, 95003), 0);
    cr_assert_eq(seat_pool_lost(&o, 0, 95004), 0);
    cr_assert_eq(seat_pool_lost(NULL, -4095, 5), 0);
}
