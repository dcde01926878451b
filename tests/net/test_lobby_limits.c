/*
 * test_lobby_limits.c: the lobby's shares under a scripted attacker
 * (issue 16). Attackers are raw connections bound to several source
 * addresses of 127.0.0.0/8 (127.0.0.2 and up); the legitimate players
 * are lobby clients from 127.0.0.1, or raw connections from an
 * attacker's address when they share it (a NAT). Each test checks what
 * the attacker gets (rooms, connections, kept bytes, wrong codes, frames
 * sent ahead of the reader), that a legitimate user still gets in and
 * keeps its frames, and how the lobby recovers. Expected counts are
 * derived from the limits by hand in the comments.
 */
#include <sodium.h>

#include "lobby_internal.h"
#include "lobby_util.h"

/* ---- raw hellos and answers ---- */

/* A raw CREATE of a fresh random room from address from. */
static void raw_create(Raw_Peer *p, const char *from)
{
    uint8_t m[LOBBY_LEN_CREATE], inv[LOBBY_LOOKUP_BYTES],
        wat[LOBBY_LOOKUP_BYTES], secret[LOBBY_SEAT_SECRET_BYTES];
    Proto_Identity host;
    cr_assert_eq(proto_identity_generate(&host), 0);
    randombytes_buf(inv, sizeof inv);
    randombytes_buf(wat, sizeof wat);
    randombytes_buf(secret, sizeof secret);
    create_bytes(m, inv, wat, &host, secret, 0);
    raw_connect_from(p, lobby_port, 1, from);
    raw_frame(p, m, sizeof m);
}

static int all_answered(const Raw_Peer *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (answer(&p[i]) == -1)
            return 0;
    return 1;
}

/* How many of p[0..n) were answered code (0: WELCOME). */
static int count_answers(const Raw_Peer *p, size_t n, int code)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += answer(&p[i]) == code;
    return k;
}

static int count_closed_by_lobby(const Raw_Peer *p, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += p[i].eof;
    return k;
}

static void close_all(Raw_Peer *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        raw_close(&p[i]);
    WAIT_FOR(p[n - 1].closed, 2000);
    loop_for(50);
}

/* ---- rooms ---- */

Test(lobby_limits, rooms_are_shared_per_address)
{
    /* Issue 16 case 1: 1,000 CREATEs from one address took every room. */
    Lobby_Limits lim = {.max_rooms = 40, .unjoined_room_ms = 400};
    static Raw_Peer a[30], b[30];
    Room r;
    Peer host;
    int won_a, won_b, refused;

    loop_start();
    lobby_start(&lim);
    for (int i = 0; i < 30; i++)
        raw_create(&a[i], "127.0.0.2");
    for (int i = 0; i < 30; i++)
        raw_create(&b[i], "127.0.0.3");
    WAIT_FOR(all_answered(a, 30) && all_answered(b, 30), 5000);
    won_a = count_answers(a, 30, 0);
    won_b = count_answers(b, 30, 0);
    refused = count_answers(a, 30, LOBBY_ERR_ADDRESS) +
              count_answers(b, 30, LOBBY_ERR_ADDRESS);
    /* source_rooms 16 each: 32 of the 40 rooms, 28 refused. */
    cr_assert_eq(won_a, 16);
    cr_assert_eq(won_b, 16);
    cr_assert_eq(refused, 28);
    cr_assert_eq(stats().refused_address, 28);
    /* Someone else still gets a room. */
    room_make(&r);
    peer_host(&host, &r, 0);
    cr_assert_eq(host.welcomed, 1, "reason %d", host.reason);
    cr_assert_eq(stats().rooms, 33);
    /* The attackers leave; no guest ever joined their rooms, so they go
     * unjoined_room_ms (400 ms) after their hosts left, not 10 minutes. */
    uint64_t t0 = uv_now(&test_loop);
    close_all(a, 30);
    close_all(b, 30);
    WAIT_FOR(stats().rooms == 1, 3000);
    uint64_t took = uv_now(&test_loop) - t0;
    cr_assert_eq(stats().rooms, 1, "rooms left: %zu", stats().rooms);
    cr_assert_geq(took, 400);
    cr_assert_lt(took, 2000, "took %llu ms", (unsigned long long)took);
    cr_assert_eq(stats().unjoined_dropped, 32);
    cr_log_info("rooms: 16 per address; unjoined rooms gone %llu ms after "
                "their hosts left (limit 400 ms)",
                (unsigned long long)took);
    /* The legitimate room stays while its host waits. */
    cr_assert_eq(lobby_client_connected(host.c), 1);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

Test(lobby_limits, a_joined_room_outlives_its_host_for_a_reconnect)
{
    Lobby_Limits lim = {.unjoined_room_ms = 200};
    Room r;
    Peer host, guest;

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    cr_assert_eq(guest.welcomed, 1);
    peer_free(&host);
    loop_for(600);
    cr_assert_eq(stats().rooms, 1, "a game's room waits for its host");
    peer_host(&host, &r, 0);
    cr_assert_eq(host.welcomed, 1);
    peer_free(&host);
    peer_free(&guest);
    lobby_stop();
    loop_finish();
}

Test(lobby_limits, a_watched_room_never_joined_goes_after_its_host_left)
{
    /* The host stays long enough for several sweeps (the room is in use,
     * so the sweep stops visiting it), then leaves; the room, which a
     * spectator keeps from being empty, must still go unjoined_room_ms
     * later, and its spectator be told. */
    Lobby_Limits lim = {.unjoined_room_ms = 200};
    Room r;
    Peer host, spect;

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    cr_assert_eq(host.welcomed, 1);
    peer_watch(&spect, r.watch.text, 0);
    cr_assert_eq(spect.welcomed, 1);
    loop_for(1000);
    cr_assert_eq(stats().rooms, 1);
    peer_free(&host);
    WAIT_FOR(spect.disconnected, 3000);
    cr_assert_eq(spect.disconnected, 1);
    cr_assert_eq(spect.reason, UV_ETIMEDOUT, "reason %d", spect.reason);
    cr_assert_eq(stats().unjoined_dropped, 1);
    cr_assert_eq(stats().rooms, 0);
    peer_free(&spect);
    lobby_stop();
    loop_finish();
}

/* ---- connections ---- */

Test(lobby_limits, connections_are_shared_per_address)
{
    Lobby_Limits lim = {.source_conns = 8};
    static Raw_Peer a[12], b[12];
    Room r;
    Peer host, guest;
    int open_a, refused;

    loop_start();
    lobby_start(&lim);
    /* Twelve connections that say nothing from one address: the ninth
     * and later are answered ADDRESS and closed at once. */
    for (int i = 0; i < 12; i++) {
        raw_connect_from(&a[i], lobby_port, 1, "127.0.0.4");
        WAIT_FOR(a[i].connected != 0, 2000);
    }
    WAIT_FOR(count_closed_by_lobby(a, 12) == 4, 3000);
    loop_for(100); /* and no more */
    open_a = 12 - count_closed_by_lobby(a, 12);
    refused = count_answers(a, 12, LOBBY_ERR_ADDRESS);
    cr_assert_eq(open_a, 8);
    cr_assert_eq(refused, 4);
    /* Another address has its own share; a game from a third is served. */
    for (int i = 0; i < 8; i++) {
        raw_connect_from(&b[i], lobby_port, 1, "127.0.0.5");
        WAIT_FOR(b[i].connected != 0, 2000);
    }
    room_make(&r);
    peer_host(&host, &r, 0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    cr_assert_eq(host.welcomed + guest.welcomed, 2);
    cr_assert_eq(stats().refused_address, 4);
    loop_for(50);
    for (int i = 0; i < 8; i++)
        cr_assert_not(b[i].eof);
    /* A closed connection gives its place back. */
    close_all(a, 12);
    WAIT_FOR(stats().conns == 10, 3000); /* b's 8, host and guest */
    cr_assert_eq(stats().conns, 10);
    raw_connect_from(&a[0], lobby_port, 1, "127.0.0.4");
    loop_for(150);
    cr_assert_not(a[0].eof);
    raw_close(&a[0]);
    close_all(b, 8);
    peer_free(&host);
    peer_free(&guest);
    lobby_stop();
    loop_finish();
}

/* ---- the guess limit ---- */

Test(lobby_limits, a_right_code_is_never_refused_by_the_guess_limit)
{
    /* Issue 16 case 3: 5 random JOINs, then a valid code from the same
     * address (players behind one NAT) was refused. */
    Lobby_Limits lim = {
        .guess_burst = 5, .guess_refill_ms = 60000, .rate_delay_ms = 300};
    static Raw_Peer g[8];
    Raw_Peer join, watch, other;
    Room r, wrong;
    Peer host;

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    for (int i = 0; i < 6; i++) {
        room_make(&wrong);
        raw_enter(&g[i], "127.0.0.6", LOBBY_MSG_JOIN, wrong.invite.lookup,
                  guest_secret);
        WAIT_FOR(answer(&g[i]) != -1, 3000);
        /* Burst of 5 answered CODE; the sixth RATE (late). */
        cr_assert_eq(answer(&g[i]), i < 5 ? LOBBY_ERR_CODE : LOBBY_ERR_RATE,
                     "guess %d: %d", i, answer(&g[i]));
    }
    /* The same address, the right codes: admitted at once. */
    raw_enter(&join, "127.0.0.6", LOBBY_MSG_JOIN, r.invite.lookup,
              guest_secret);
    raw_enter(&watch, "127.0.0.6", LOBBY_MSG_WATCH, r.watch.lookup, NULL);
    WAIT_FOR(answer(&join) != -1 && answer(&watch) != -1, 2000);
    cr_assert_eq(answer(&join), 0);
    cr_assert_eq(join.in[5], LOBBY_ROLE_GUEST);
    cr_assert_eq(answer(&watch), 0);
    cr_assert_eq(watch.in[5], LOBBY_ROLE_SPECTATOR);
    /* Another address has its own budget. */
    room_make(&wrong);
    raw_enter(&other, "127.0.0.7", LOBBY_MSG_WATCH, wrong.watch.lookup, NULL);
    WAIT_FOR(answer(&other) != -1, 2000);
    cr_assert_eq(answer(&other), LOBBY_ERR_CODE);
    cr_assert_eq(stats().bad_codes, 6);
    cr_assert_eq(stats().rate_limited, 1);
    close_all(g, 6);
    raw_close(&join);
    raw_close(&watch);
    raw_close(&other);
    loop_for(50);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

Test(lobby_limits, over_the_limit_each_wrong_code_costs_a_connection_for_a_while)
{
    /* With the budget spent, 8 wrong codes at once are held for
     * rate_delay_ms (400 ms) each, and the address's 8 connections are
     * all busy: a ninth is refused ADDRESS. So one address guesses at
     * most source_conns per rate_delay_ms. */
    Lobby_Limits lim = {.guess_burst = 1,
                        .guess_refill_ms = 60000,
                        .rate_delay_ms = 400,
                        .source_conns = 8};
    static Raw_Peer g[10];
    Room wrong;

    loop_start();
    lobby_start(&lim);
    room_make(&wrong);
    raw_enter(&g[0], "127.0.0.8", LOBBY_MSG_WATCH, wrong.watch.lookup, NULL);
    WAIT_FOR(answer(&g[0]) != -1, 2000);
    cr_assert_eq(answer(&g[0]), LOBBY_ERR_CODE);
    /* (answered in no room, it is held 2 to 4 s: LOBBY_REFUSED_HOLD_MS) */
    WAIT_FOR(stats().conns == 0, 2 * LOBBY_REFUSED_HOLD_MS + 1000);
    cr_assert_eq(stats().conns, 0);
    uint64_t t0 = uv_now(&test_loop);
    for (int i = 1; i < 10; i++) {
        room_make(&wrong);
        raw_enter(&g[i], "127.0.0.8", LOBBY_MSG_WATCH, wrong.watch.lookup,
                  NULL);
        WAIT_FOR(g[i].connected != 0, 2000);
    }
    WAIT_FOR(count_answers(g + 1, 9, LOBBY_ERR_ADDRESS) == 1, 2000);
    cr_assert_eq(count_answers(g + 1, 9, LOBBY_ERR_ADDRESS), 1,
                 "the ninth connection is over the share");
    cr_assert_eq(count_answers(g + 1, 9, LOBBY_ERR_RATE), 0, "held");
    WAIT_FOR(all_answered(g + 1, 9), 3000);
    cr_assert_geq(uv_now(&test_loop) - t0, 400);
    cr_assert_eq(count_answers(g + 1, 9, LOBBY_ERR_RATE), 8);
    close_all(g, 10);
    lobby_stop();
    loop_finish();
}

Test(lobby_limits, ipv6_counts_per_64_and_mapped_ipv4_as_ipv4)
{
    uint8_t a[LOBBY_SOURCE_KEY], b[LOBBY_SOURCE_KEY];
    cr_assert_eq(lobby__source_key("2001:db8:1:2::1", a), 0);
    cr_assert_eq(lobby__source_key("2001:db8:1:2:ffff:abcd:1234:5678", b), 0);
    cr_assert_arr_eq(a, b, sizeof a, "one /64, one source");
    cr_assert_eq(lobby__source_key("2001:db8:1:3::1", b), 0);
    cr_assert_arr_neq(a, b, sizeof a, "another /64");
    cr_assert_eq(lobby__source_key("127.0.0.2", a), 0);
    cr_assert_eq(lobby__source_key("::ffff:127.0.0.2", b), 0);
    cr_assert_arr_eq(a, b, sizeof a);
    cr_assert_eq(lobby__source_key("127.0.0.3", b), 0);
    cr_assert_arr_neq(a, b, sizeof a);
    cr_assert_eq(lobby__source_key("?", a), TB_E_ARG);
}

/* ---- kept bytes ---- */

#define BIG 16384                  /* payload of an attacker's frame */
#define ENTRY (LOBBY_FRAME_HEADER + BIG) /* bytes it keeps: 16,466 */

/* From address from: n rooms, each sent frames DATA of BIG bytes. */
static void fill_rooms(Raw_Peer *p, size_t n, const char *from, int frames)
{
    static uint8_t data[1 + BIG];
    data[0] = LOBBY_MSG_DATA;
    memset(data + 1, 'a', BIG);
    for (size_t i = 0; i < n; i++)
        raw_create(&p[i], from);
    WAIT_FOR(all_answered(p, n), 3000);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(answer(&p[i]), 0);
        for (int k = 0; k < frames; k++)
            raw_frame(&p[i], data, sizeof data);
    }
}

Test(lobby_limits, kept_bytes_are_capped_per_address_and_for_the_lobby)
{
    /* Issue 16 case 2: rooms of 4 MiB each, no lobby-wide cap. Here a
     * room keeps 64 KiB (3 frames of 16,466 bytes; 4 would be 65,864), an
     * address 128 KiB (7 frames: 115,262; 8 would be 131,728) and the
     * lobby 256 KiB. */
    Lobby_Limits lim = {.max_payload = BIG,
                        .transcript_bytes = 64 << 10,
                        .source_bytes = 128 << 10,
                        .kept_bytes = 256 << 10};
    static Raw_Peer a[4][4];
    static const char *const from[4] = {"127.0.0.2", "127.0.0.3", "127.0.0.4",
                                        "127.0.0.5"};
    Room r;
    Peer host, guest, late;

    loop_start();
    lobby_start(&lim);
    /* One address, 4 rooms, 20 frames each (1.3 MB sent). */
    fill_rooms(a[0], 4, from[0], 20);
    WAIT_FOR(stats().frames_relayed == 80, 5000);
    cr_assert_eq(stats().frames_relayed, 80);
    cr_assert_eq(stats().transcript_bytes, 7 * ENTRY, "kept %zu",
                 stats().transcript_bytes);
    /* A game from 127.0.0.1 keeps its three frames through what follows. */
    room_make(&r);
    peer_host(&host, &r, 0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    peer_say(&host, "m1");
    peer_say(&host, "m2");
    peer_say(&host, "m3");
    WAIT_FOR(guest.total == 3, 2000);
    /* Three more addresses, the same each: 4 x 7 frames would be 448 KiB,
     * over the lobby's 256 KiB: 15 attack frames fit beside the game's
     * three (3 x 84 bytes): 15 x 16,466 + 252 = 247,242 <= 262,144, and 16
     * would not. */
    for (int k = 1; k < 4; k++)
        fill_rooms(a[k], 4, from[k], 20);
    WAIT_FOR(stats().frames_relayed == 323, 8000);
    cr_assert_eq(stats().frames_relayed, 323);
    cr_assert_eq(stats().transcript_bytes,
                 15 * ENTRY + 3 * (LOBBY_FRAME_HEADER + 2), "kept %zu",
                 stats().transcript_bytes);
    cr_assert_gt(stats().evicted_shared, 0);
    /* The game is untouched: a late spectator gets all three. */
    peer_watch(&late, r.watch.text, 0);
    WAIT_FOR(late.total == 3, 2000);
    cr_assert_eq(late.total, 3);
    cr_assert_str_eq(late.text[0], "m1");
    cr_assert_str_eq(late.text[2], "m3");
    cr_assert_eq(lobby_client_connected(guest.c), 1);
    cr_log_info("kept bytes: %zu of the lobby's %d after 323 frames from 4 "
                "addresses",
                stats().transcript_bytes, 256 << 10);
    for (int k = 0; k < 4; k++)
        close_all(a[k], 4);
    peer_free(&late);
    peer_free(&host);
    peer_free(&guest);
    lobby_stop();
    loop_finish();
}

/* ---- a sender outrunning its reader ---- */

Test(lobby_limits, a_flood_while_the_reader_is_away_costs_the_flooder)
{
    /* Issue 16 case 4 (the lobby's side): a room keeps 32 frames; the
     * host is away; the guest sends 100. The lobby keeps every frame the
     * host has not had and closes the guest once one more would drop
     * one; the host comes back and finds no gap (lobby_util.h). */
    Lobby_Limits lim = {.transcript_frames = 32};
    Room r;
    Peer host, guest;

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    uint64_t had = flood_while_host_away(&host, &guest);
    cr_assert_eq(stats().frames_relayed, 33);
    cr_assert_eq(stats().dropped_flood, 1);
    cr_assert_eq(stats().dropped_slow, 0);
    flood_host_finds_no_gap(&host, had);
    peer_free(&host);
    peer_free(&guest);
    lobby_stop();
    loop_finish();
}

Test(lobby_limits, a_flood_at_a_slow_reader_costs_the_flooder)
{
    /* The host reads nothing while the guest sends 4,000 frames of 8 KiB
     * (32 MB, more than loopback buffers hold). Before, the lobby
     * dropped the host as a slow reader; now the guest is closed, and
     * the host, once it reads, gets every frame the lobby accepted:
     * WELCOME, PRESENCE (guest in), the frames, PRESENCE (guest
     * out), byte for byte. */
    Lobby_Limits lim = {.transcript_frames = 64};
    static char payload[8192];
    Raw_Peer host;
    Room r;
    Peer guest;
    uint8_t create[LOBBY_LEN_CREATE];

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    create_bytes(create, r.invite.lookup, r.watch.lookup, &r.host,
                 r.host_secret, 0);
    raw_connect_from(&host, lobby_port, 0, NULL);
    WAIT_FOR(host.connected != 0, 2000);
    raw_frame(&host, create, sizeof create);
    loop_for(100);
    cr_assert_eq(stats().rooms, 1);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    cr_assert_eq(guest.welcomed, 1);
    memset(payload, 'f', sizeof payload);
    /* At most 32 frames unacknowledged, so the guest's own write queue
     * stays small on a loaded machine: the flood is at the reader. */
    uint64_t t_end = uv_now(&test_loop) + 20000;
    for (size_t sent = 0; sent < 4000 && lobby_client_connected(guest.c) &&
                          uv_now(&test_loop) < t_end;) {
        if (sent - guest.nacks < 32) {
            (void)lobby_client_send(guest.c, payload, sizeof payload);
            sent++;
        } else {
            uv_run(&test_loop, UV_RUN_ONCE);
        }
    }
    WAIT_FOR(guest.disconnected, 10000);
    cr_assert(flooder_closed(guest.reason), "reason %d", guest.reason);
    cr_assert_eq(stats().dropped_slow, 0);
    cr_assert_eq(stats().dropped_flood, 1);
    cr_assert_not(host.eof, "the reader was dropped");
    /* Now the host reads. */
    /* Every frame the lobby accepted (its ACKs may not all have reached
     * the guest before the reset). */
    uint64_t kept = stats().frames_relayed;
    cr_assert_geq(kept, guest.last_ack);
    size_t want = (4 + LOBBY_LEN_WELCOME) + 2 * (4 + LOBBY_LEN_PRESENCE) +
                  kept * (4 + LOBBY_FRAME_HEADER + sizeof payload);
    uv_read_start((uv_stream_t *)&host.tcp, raw_alloc, raw_read);
    WAIT_FOR(host.received >= want, 10000);
    loop_for(100);
    cr_assert_eq(host.received, want, "got %zu of %zu bytes (%llu frames)",
                 host.received, want, (unsigned long long)kept);
    cr_assert_not(host.eof);
    cr_log_info("flood: %llu frames of 8 KiB kept for a reader that read "
                "nothing, then the sender was closed",
                (unsigned long long)kept);
    raw_close(&host);
    peer_free(&guest);
    loop_for(50);
    lobby_stop();
    loop_finish();
}

/* At the connection cap a client was closed without a word and said
 * "cannot reach the lobby ... is tabula lobby running there?" (the
 * relay-limits issue); it is now told the lobby is full (ERROR FULL,
 * TB_E_FULL: "the lobby at ... is full: try again later ..."). */
Test(lobby_limits, a_connection_past_the_cap_is_told_the_lobby_is_full)
{
    Lobby_Limits lim;
    Room r;
    Peer host, late;
    memset(&lim, 0, sizeof lim);
    lim.max_conns = 1;
    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    cr_assert_eq(host.welcomed, 1, "%s", net_strerror(host.reason));
    peer_guest(&late, r.invite.text, guest_secret, 0);
    WAIT_FOR(late.disconnected, 2000);
    cr_assert_eq(late.welcomed, 0);
    cr_assert_eq(late.reason, TB_E_FULL, "%s", net_strerror(late.reason));
    cr_assert_eq(host.disconnected, 0);
    peer_free(&late);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}
