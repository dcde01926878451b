/*
 * test_room_table.c: one table of room tests (ROOM_CASES) run against
 * both backends of the lobby's rooms (lobby/room.h): in memory (one
 * node; "node 0" and "node 1" are the same lobby) and in Redis (two
 * nodes sharing a redis-server this test starts on a free loopback port
 * and stops; the players of a case sit on different nodes). A rule of
 * the room holds the same on both, or the case fails on one of them.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "lobby_util.h"
#include "redis_util.h"
#include "tb_error.h"

/* ---- the two backends ---- */

static pid_t redis_pid;
static char redis_url[64];
static int use_redis;
static Lobby *node[2];
static int node_port[2], node_gone[2];

static void redis_start(void)
{
    redis_pid = redis_up(redis_url, sizeof redis_url);
    cr_assert(redis_pid > 0, "redis-server never came up on a free port");
    use_redis = 1;
}

static void redis_down(void)
{
    int st;
    if (redis_pid > 0) {
        kill(redis_pid, SIGKILL);
        waitpid(redis_pid, &st, 0);
        redis_pid = 0;
    }
}

TestSuite(room_memory);
TestSuite(room_redis, .init = redis_start, .fini = redis_down);

static void node_done(void *user)
{
    *(int *)user = 1;
}

/* The backend's nodes on the test's loop: one lobby, or two on Redis. */
static void backend_up(void)
{
    loop_start();
    for (int i = 0; i < 1 + use_redis; i++) {
        struct sockaddr_storage a = loopback(0);
        char where[64];
        node_gone[i] = 0;
        cr_assert_eq(
            lobby_new(&test_loop, (struct sockaddr *)&a, NULL, &node[i]), 0);
        if (use_redis)
            cr_assert_eq(lobby_use_redis(node[i], redis_url), 0);
        cr_assert_eq(lobby_address(node[i], where, sizeof where), 0);
        node_port[i] = port_of(where);
    }
    if (!use_redis) {
        node[1] = node[0];
        node_port[1] = node_port[0];
    }
}

static void backend_down(void)
{
    for (int i = 0; i < 1 + use_redis; i++) {
        lobby_close(node[i], node_done, &node_gone[i]);
        WAIT_FOR(node_gone[i], 3000);
        cr_assert(node_gone[i]);
    }
    loop_finish();
}

/* The next peer opens through node i. */
static void on(int i)
{
    lobby_port = node_port[i];
}

/* A counter summed over the nodes. */
static uint64_t bad_codes(void)
{
    uint64_t n = 0;
    for (int i = 0; i < 1 + use_redis; i++) {
        Lobby_Stats s;
        lobby_stats(node[i], &s);
        n += s.bad_codes;
    }
    return n;
}

/* What another node learns goes through Redis: give it time. */
static void settle(void)
{
    loop_for(use_redis ? 200 : 20);
}

static void host_on(int i, Room *r, Peer *p)
{
    room_make(r);
    on(i);
    peer_host(p, r, 0);
    cr_assert_eq(p->welcomed, 1, "%s", net_strerror(p->reason));
}

static const uint8_t other_secret[LOBBY_SEAT_SECRET_BYTES] = {5};

/* ---- the cases ---- */

/* Frames are numbered once, in order, for everyone; nobody is sent its
 * own frame back (an ACK instead); a spectator gets every frame. */
static void relays_in_order(void)
{
    Room r;
    Peer host, guest, spect;
    host_on(0, &r, &host);
    on(1);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    cr_assert_eq(guest.welcomed, 1, "%s", net_strerror(guest.reason));
    peer_watch(&spect, r.watch.text, 0);
    cr_assert_eq(spect.welcomed, 1, "%s", net_strerror(spect.reason));
    peer_say(&host, "a");
    WAIT_FOR(guest.nframes == 1 && host.nacks == 1, 2000);
    peer_say(&guest, "b");
    peer_say(&guest, "c");
    WAIT_FOR(host.nframes == 2 && spect.nframes == 3 && guest.nacks == 2, 2000);
    cr_assert_eq(host.last_ack, 1);
    cr_assert_eq(guest.last_ack, 3);
    cr_assert_eq(guest.nframes, 1);
    cr_assert_eq(host.seq[0], 2);
    cr_assert_str_eq(host.text[1], "c");
    cr_assert_eq(host.from[1], LOBBY_ROLE_GUEST);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(spect.seq[i], (uint64_t)i + 1);
    peer_free(&spect);
    peer_free(&guest);
    peer_free(&host);
}

/* A watch code joined as an invite is refused as a watch code (not
 * counted as a wrong guess) and leaves the seat free. */
static void watch_code_never_takes_a_seat(void)
{
    Room r;
    Peer host, p;
    host_on(0, &r, &host);
    on(1);
    peer_guest(&p, r.watch.text, guest_secret, 0);
    WAIT_FOR(p.disconnected, 2000);
    cr_assert_eq(p.welcomed, 0);
    cr_assert_eq(p.reason, TB_E_WATCH_CODE);
    cr_assert_eq(bad_codes(), 0, "a real watch code is no wrong guess");
    peer_free(&p);
    peer_guest(&p, r.invite.text, guest_secret, 0);
    cr_assert_eq(p.welcomed, 1, "%s", net_strerror(p.reason));
    peer_free(&p);
    peer_free(&host);
}

/* A code that names no room is refused CODE and counted. */
static void wrong_code_is_refused_and_counted(void)
{
    Room r, none;
    Peer host, p;
    host_on(0, &r, &host);
    room_make(&none);
    on(1);
    peer_guest(&p, none.invite.text, guest_secret, 0);
    WAIT_FOR(p.disconnected, 2000);
    cr_assert_eq(p.welcomed, 0);
    cr_assert_eq(p.reason, TB_E_CODE);
    cr_assert_eq(bad_codes(), 1);
    peer_free(&p);
    peer_free(&host);
}

/* The guest seat, once its player has spoken, is refused to another
 * secret (SEAT); a joiner that left before speaking gave it back. */
static void guest_seat_kept_once_spoken(void)
{
    Room r;
    Peer host, first, second, third;
    host_on(0, &r, &host);
    on(1);
    peer_guest(&first, r.invite.text, other_secret, 0);
    cr_assert_eq(first.welcomed, 1, "%s", net_strerror(first.reason));
    peer_free(&first); /* silent: the seat goes back */
    settle();
    on(0);
    peer_guest(&second, r.invite.text, guest_secret, 0);
    cr_assert_eq(second.welcomed, 1, "%s", net_strerror(second.reason));
    peer_say(&second, "hello");
    WAIT_FOR(second.last_ack == 1, 2000);
    on(1);
    peer_guest(&third, r.invite.text, other_secret, 0);
    WAIT_FOR(third.disconnected, 2000);
    cr_assert_eq(third.welcomed, 0);
    cr_assert_eq(third.reason, TB_E_SEAT);
    peer_free(&third);
    peer_free(&second);
    peer_free(&host);
}

/* A player that drops is shown absent, comes back on the other node with
 * its secret and last number, gets what it missed, and is shown present
 * again. */
static void player_resumes_from_its_number(void)
{
    Room r;
    Peer host, guest;
    host_on(0, &r, &host);
    on(0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    peer_say(&host, "a");
    WAIT_FOR(guest.nframes == 1, 2000);
    peer_say(&guest, "b");
    WAIT_FOR(host.nframes == 1 && guest.nacks == 1, 2000);
    lobby_client_close(guest.c);
    WAIT_FOR(guest.disconnected && host.present[1] == 0, 2000);
    cr_assert_eq(host.present[1], 0);
    peer_say(&host, "c");
    peer_say(&host, "d");
    WAIT_FOR(host.nacks == 3, 2000);
    lobby_client_free(guest.c);
    on(1);
    peer_guest(&guest, r.invite.text, guest_secret, 2);
    cr_assert_eq(guest.welcomed, 1, "%s", net_strerror(guest.reason));
    WAIT_FOR(guest.nframes == 2 && host.present[1] == 1, 2000);
    cr_assert_eq(guest.w.next_seq, 5);
    cr_assert_eq(guest.seq[0], 3);
    cr_assert_str_eq(guest.text[0], "c");
    cr_assert_eq(guest.seq[1], 4);
    cr_assert_eq(host.present[1], 1);
    peer_free(&guest);
    peer_free(&host);
}

/* A spectator asking after frame 1 gets frames 2 and 3 only. */
static void late_spectator_catches_up_from_its_number(void)
{
    Room r;
    Peer host, guest, late;
    host_on(0, &r, &host);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    peer_say(&host, "a");
    peer_say(&host, "b");
    WAIT_FOR(guest.nframes == 2, 2000);
    peer_say(&guest, "c");
    WAIT_FOR(host.nframes == 1, 2000);
    on(1);
    peer_watch(&late, r.invite.text, 1);
    cr_assert_eq(late.welcomed, 1, "%s", net_strerror(late.reason));
    WAIT_FOR(late.nframes == 2, 2000);
    cr_assert_eq(late.w.first_seq, 1);
    cr_assert_eq(late.w.next_seq, 4);
    cr_assert_eq(late.seq[0], 2);
    cr_assert_str_eq(late.text[0], "b");
    cr_assert_eq(late.seq[1], 3);
    cr_assert_eq(late.from[1], LOBBY_ROLE_GUEST);
    cr_assert(late.w.host_present && late.w.guest_present);
    peer_free(&late);
    peer_free(&guest);
    peer_free(&host);
}

/* The seat's secret on a new connection replaces the old one, which is
 * told REPLACED. */
static void second_connection_replaces_the_first(void)
{
    Room r;
    Peer host, guest, again;
    host_on(0, &r, &host);
    on(0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    peer_say(&guest, "a");
    WAIT_FOR(guest.last_ack == 1, 2000);
    on(1);
    peer_guest(&again, r.invite.text, guest_secret, 1);
    cr_assert_eq(again.welcomed, 1, "%s", net_strerror(again.reason));
    WAIT_FOR(guest.disconnected, 2000);
    cr_assert_eq(guest.reason, TB_E_REPLACED);
    peer_say(&host, "b");
    WAIT_FOR(again.nframes == 1, 2000);
    cr_assert_eq(again.seq[0], 2);
    peer_free(&again);
    peer_free(&guest);
    peer_free(&host);
}

/* A room re-registered at the highest number a CREATE may start from
 * numbers its frames LOBBY_SEQ_MAX and LOBBY_SEQ_MAX + 1 exactly, in both
 * backends (the relay-limits issue, finding 5: with the limit at 2^62,
 * Redis's Lua, whose numbers are doubles, misnumbered them); one number
 * further is a protocol error at CREATE. */
static void numbers_exact_at_the_limit(void)
{
    Room r;
    Peer host, guest, over;
    room_make(&r);
    on(0);
    peer_host(&host, &r, LOBBY_SEQ_MAX - 1);
    cr_assert_eq(host.welcomed, 1, "%s", net_strerror(host.reason));
    cr_assert_eq(host.w.next_seq, LOBBY_SEQ_MAX);
    on(1);
    peer_guest(&guest, r.invite.text, guest_secret, LOBBY_SEQ_MAX - 1);
    cr_assert_eq(guest.welcomed, 1, "%s", net_strerror(guest.reason));
    peer_say(&host, "a");
    WAIT_FOR(guest.nframes == 1 && host.nacks == 1, 2000);
    cr_assert_eq(host.last_ack, LOBBY_SEQ_MAX);
    cr_assert_eq(guest.seq[0], LOBBY_SEQ_MAX);
    peer_say(&guest, "b");
    WAIT_FOR(host.nframes == 1 && guest.nacks == 1, 2000);
    cr_assert_eq(guest.last_ack, LOBBY_SEQ_MAX + 1);
    cr_assert_eq(host.seq[0], LOBBY_SEQ_MAX + 1);
    room_make(&r);
    peer_host(&over, &r, LOBBY_SEQ_MAX + 1);
    WAIT_FOR(over.disconnected, 2000);
    cr_assert_eq(over.welcomed, 0);
    peer_free(&over);
    peer_free(&guest);
    peer_free(&host);
}

/* A guest whose first connection drops before it speaks comes back with
 * its secret: the seat stays its own, and a stranger with the code is
 * refused SEAT (in memory, replacing the old connection gave the claim
 * back and the stranger took the seat: the cheating-player trial). */
static void a_silent_guest_coming_back_keeps_its_seat(void)
{
    Room r;
    Peer host, guest, again, stranger;
    host_on(0, &r, &host);
    on(0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    cr_assert_eq(guest.welcomed, 1, "%s", net_strerror(guest.reason));
    on(1);
    peer_guest(&again, r.invite.text, guest_secret, 0); /* replaces it */
    cr_assert_eq(again.welcomed, 1, "%s", net_strerror(again.reason));
    WAIT_FOR(guest.disconnected, 2000);
    cr_assert_eq(guest.reason, TB_E_REPLACED);
    settle();
    peer_guest(&stranger, r.invite.text, other_secret, 0);
    WAIT_FOR(stranger.disconnected, 2000);
    cr_assert_eq(stranger.welcomed, 0);
    cr_assert_eq(stranger.reason, TB_E_SEAT);
    cr_assert_eq(again.disconnected, 0, "the guest lost its seat");
    peer_free(&stranger);
    peer_free(&again);
    peer_free(&guest);
    peer_free(&host);
}

/* A hello asking after a number no room gives (above LOBBY_SEQ_MAX + 1)
 * is a protocol error in both backends, JOIN and WATCH alike. */
static void resume_numbers_past_the_limit_refused(void)
{
    Room r;
    Peer host, p;
    host_on(0, &r, &host);
    on(1);
    peer_guest(&p, r.invite.text, guest_secret, LOBBY_SEQ_MAX + 2);
    WAIT_FOR(p.disconnected, 2000);
    cr_assert_eq(p.welcomed, 0);
    cr_assert_eq(p.reason, TB_E_FORMAT, "%d", p.reason);
    peer_free(&p);
    peer_watch(&p, r.watch.text, UINT64_MAX);
    WAIT_FOR(p.disconnected, 2000);
    cr_assert_eq(p.welcomed, 0);
    cr_assert_eq(p.reason, TB_E_FORMAT, "%d", p.reason);
    peer_free(&p);
    peer_watch(&p, r.watch.text, LOBBY_SEQ_MAX + 1);
    cr_assert_eq(p.welcomed, 1, "%s", net_strerror(p.reason));
    peer_free(&p);
    peer_free(&host);
}

/* Spectators know a game's watch code: after a relay restart one can
 * register a room under it before the host is back. The host's room is
 * still made (without that watch code: before, the host was refused CODE
 * and the game could not go on), the guest joins and play goes on; a
 * spectator with the code meets the other room, whose host key its code
 * does not fingerprint (TB_E_SIGNATURE: the cheating-player trial). */
static void a_squatted_watch_code_keeps_no_game_out(void)
{
    Room honest, squat;
    Peer sq, host, guest, spect;
    room_make(&honest);
    room_make(&squat);
    squat.watch = honest.watch;
    on(1);
    peer_host(&sq, &squat, 0);
    cr_assert_eq(sq.welcomed, 1, "%s", net_strerror(sq.reason));
    settle();
    on(0);
    peer_host(&host, &honest, 0);
    cr_assert_eq(host.welcomed, 1, "the game's room was refused: %s",
                 net_strerror(host.reason));
    on(1);
    peer_guest(&guest, honest.invite.text, guest_secret, 0);
    cr_assert_eq(guest.welcomed, 1, "%s", net_strerror(guest.reason));
    peer_say(&host, "a");
    WAIT_FOR(guest.nframes == 1, 2000);
    cr_assert_str_eq(guest.text[0], "a");
    peer_watch(&spect, honest.watch.text, 0);
    WAIT_FOR(spect.disconnected, 2000);
    cr_assert_eq(spect.welcomed, 0);
    cr_assert_eq(spect.reason, TB_E_SIGNATURE, "%d", spect.reason);
    peer_free(&spect);
    peer_free(&guest);
    peer_free(&host);
    peer_free(&sq);
}

/* Lobby protocol 4: a room's receipts attest its guest seat never
 * seated (PROTO_ABSENT_NEVER) until a guest comes, then the guest's
 * proven key holds the seat: WELCOME names it, and the guest's secret
 * with another key is refused SEAT (the relay witnesses players, not
 * seats; the fair-play issue's stand-in). */
static void the_guest_seat_holds_one_proven_key(void)
{
    Room r;
    Peer host, guest, stand_in;
    Lobby_Client_Config cfg;
    host_on(0, &r, &host);
    peer_say(&host, "a");
    WAIT_FOR(host.nacks == 1, 2000);
    cr_assert_eq(host.ack_rc.absent_ms[0], 0);
    cr_assert_eq(host.ack_rc.absent_ms[1], PROTO_ABSENT_NEVER);
    on(1);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    cr_assert_eq(guest.welcomed, 1, "%s", net_strerror(guest.reason));
    Proto_Identity g = guest_of(guest_secret);
    cr_assert_arr_eq(guest.w.guest_pk, g.pk, 32);
    peer_say(&guest, "b");
    WAIT_FOR(guest.nacks == 1, 2000);
    cr_assert_eq(guest.ack_rc.absent_ms[1], 0);
    on(0);
    memset(&cfg, 0, sizeof cfg);
    cfg.role = LOBBY_ROLE_GUEST;
    cr_assert_eq(lobby_code_parse(r.invite.text, &cfg.invite), 0);
    memcpy(cfg.seat_secret, guest_secret, LOBBY_SEAT_SECRET_BYTES);
    cfg.id = guest_of(other_secret); /* another key, the guest's secret */
    peer_open(&stand_in, &cfg, 0);
    WAIT_FOR(stand_in.welcomed || stand_in.disconnected, 2000);
    cr_assert_eq(stand_in.welcomed, 0);
    cr_assert_eq(stand_in.reason, TB_E_SEAT, "%d", stand_in.reason);
    cr_assert_eq(guest.disconnected, 0, "the guest lost its seat");
    peer_free(&stand_in);
    peer_free(&guest);
    peer_free(&host);
}

/* ---- the table, run on both backends ---- */

#define ROOM_CASES(X)                                                          \
    X(relays_in_order)                                                         \
    X(watch_code_never_takes_a_seat)                                           \
    X(wrong_code_is_refused_and_counted)                                       \
    X(guest_seat_kept_once_spoken)                                             \
    X(player_resumes_from_its_number)                                          \
    X(late_spectator_catches_up_from_its_number)                               \
    X(second_connection_replaces_the_first)                                   \
    X(numbers_exact_at_the_limit)                                             \
    X(a_silent_guest_coming_back_keeps_its_seat)                              \
    X(resume_numbers_past_the_limit_refused)                                  \
    X(a_squatted_watch_code_keeps_no_game_out)                              \
    X(the_guest_seat_holds_one_proven_key)

#define ON_BOTH(name)                                                          \
    Test(room_memory, name)                                                    \
    {                                                                          \
        backend_up();                                                          \
        name();                                                                \
        backend_down();                                                        \
    }                                                                          \
    Test(room_redis, name)                                                     \
    {                                                                          \
        backend_up();                                                          \
        name();                                                                \
        backend_down();                                                        \
    }

ROOM_CASES(ON_BOTH)
