/*
 * test_lobby.c: the lobby relay and its codes on real libuv loops over
 * loopback, and once as a real `tabula lobby` process: rooms are
 * created, joined and watched; frames are numbered and forwarded; a late
 * spectator and a reconnecting player catch up from their last sequence
 * number; wrong codes are rate-limited (a right code never is); a watch
 * code never takes a seat;
 * a lobby that names the wrong host is caught by the code's fingerprint;
 * hostile connections (garbage, oversized frames, bad messages, a reader
 * that never reads) are closed without touching another room. Every loop
 * test ends by checking that uv_loop_close() succeeds.
 */
#include <sodium.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lobby_util.h"
#include "seat.h"

/* ---- codes ---- */

/* The fingerprint as docs/protocol-lobby.md specifies it, computed here
 * with libsodium directly: the first 20 bits of BLAKE2b-256 over the
 * label (NUL included), the 12 secret symbols and the key. */
static void spec_fingerprint(const char *secret12, const uint8_t *pk,
                             char out[5])
{
    static const char label[] = "tabula invite fingerprint";
    static const char abc[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
    uint8_t msg[sizeof label + 12 + 32], h[32];
    uint32_t bits;
    memcpy(msg, label, sizeof label);
    memcpy(msg + sizeof label, secret12, 12);
    memcpy(msg + sizeof label + 12, pk, 32);
    crypto_generichash(h, sizeof h, msg, sizeof msg, NULL, 0);
    bits = (uint32_t)h[0] << 12 | (uint32_t)h[1] << 4 | h[2] >> 4;
    for (int i = 3; i >= 0; i--) {
        out[i] = abc[bits & 31];
        bits >>= 5;
    }
    out[4] = '\0';
}

Test(lobby_code, format_and_fingerprint_follow_the_spec)
{
    uint8_t pk[32], other[32];
    Lobby_Code c, typed;
    char fp[5], sloppy[64];
    size_t k = 0;

    cr_assert_eq(sodium_init() >= 0, 1);
    for (int i = 0; i < 32; i++) {
        pk[i] = (uint8_t)(i * 7 + 1);
        other[i] = (uint8_t)(i * 7 + 2);
    }
    cr_assert_eq(lobby_code_new(pk, &c), 0);
    cr_assert_eq(strlen(c.text), 19);
    for (int i = 0; i < 19; i++) {
        if (i % 5 == 4)
            cr_assert_eq(c.text[i], '-', "%s", c.text);
        else
            cr_assert_not_null(
                strchr("23456789ABCDEFGHJKLMNPQRSTUVWXYZ", c.text[i]), "%s",
                c.text);
    }
    spec_fingerprint(c.secret, pk, fp);
    cr_assert(memcmp(c.text + 15, fp, 4) == 0, "%s vs %s", c.text, fp);
    cr_assert_eq(lobby_code_check_host(&c, pk), 0);
    cr_assert_eq(lobby_code_check_host(&c, other), TB_E_SIGNATURE);

    /* Typed in lower case, without dashes, with spaces: the same code. */
    for (int i = 0; c.text[i]; i++)
        if (c.text[i] != '-') {
            char ch = c.text[i];
            sloppy[k++] =
                (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
            if (k % 3 == 0)
                sloppy[k++] = ' ';
        }
    sloppy[k] = '\0';
    cr_assert_eq(lobby_code_parse(sloppy, &typed), 0, "%s", sloppy);
    cr_assert_str_eq(typed.text, c.text);
    cr_assert(memcmp(typed.lookup, c.lookup, LOBBY_LOOKUP_BYTES) == 0);
    cr_assert_eq(lobby_code_check_host(&typed, pk), 0);
    {
        uint8_t k1[LOBBY_SEAT_KEY_BYTES], k2[LOBBY_SEAT_KEY_BYTES];
        cr_assert_eq(lobby_code_seat_key(&c, k1), 0);
        cr_assert_eq(lobby_code_seat_key(&typed, k2), 0);
        cr_assert(memcmp(k1, k2, sizeof k1) == 0);
        cr_assert(memcmp(k1, c.lookup, LOBBY_LOOKUP_BYTES) != 0,
                  "the seat key must not be the lobby's lookup");
    }
}

Test(lobby_code, refuses_lookalikes_and_wrong_lengths)
{
    static const char *bad[] = {"",
                                "2345-6789-ABCD-EFG",   /* 15 symbols */
                                "2345-6789-ABCD-EFGHJ", /* 17 symbols */
                                "0345-6789-ABCD-EFGH",  /* zero */
                                "1345-6789-ABCD-EFGH",  /* one */
                                "I345-6789-ABCD-EFGH",  /* I */
                                "O345-6789-ABCD-EFGH",  /* O */
                                "2345_6789-ABCD-EFGH",
                                "2345-6789-ABCD-EFG\xc3\xa9",
                                "2345-6789-ABCD-EFGH\n"};
    Lobby_Code c;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(lobby_code_parse(bad[i], &c), TB_E_FORMAT, "'%s'", bad[i]);
    cr_assert_eq(lobby_code_parse(NULL, &c), TB_E_ARG);
    cr_assert_eq(lobby_code_parse("2345-6789-abcd-efgh", &c), 0);
    cr_assert_str_eq(c.text, "2345-6789-ABCD-EFGH");
    /* a code pasted from a chat or a document: its dashes typeset (en
     * dash U+2013, em dash U+2014, minus U+2212, a no-break space) */
    static const char *typeset[] = {"2345\xe2\x80\x93" "6789\xe2\x80\x94"
                                    "ABCD\xe2\x88\x92" "EFGH",
                                    "2345\xc2\xa0" "6789-ABCD-EFGH"};
    for (size_t i = 0; i < sizeof typeset / sizeof typeset[0]; i++) {
        cr_assert_eq(lobby_code_parse(typeset[i], &c), 0, "%zu", i);
        cr_assert_str_eq(c.text, "2345-6789-ABCD-EFGH");
    }
    /* and the invisible characters a paste may carry, and a tab */
    cr_assert_eq(lobby_code_parse("2345\xe2\x80\x8b" "6789\xc2\xad"
                                  "ABCD\xef\xbb\xbf" "EF\tGH",
                                  &c),
                 0);
    cr_assert_str_eq(c.text, "2345-6789-ABCD-EFGH");
    /* a broken or other sequence is still refused (U+2016 is no dash) */
    cr_assert_eq(lobby_code_parse("2345\xe2\x80\x96" "6789-ABCD-EFGH", &c),
                 TB_E_FORMAT);
    cr_assert_eq(lobby_code_parse("2345\xe2\x80", &c), TB_E_FORMAT);
}

Test(lobby_code, random_codes_are_distinct_and_uniform)
{
    static const char abc[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
    enum { N = 2000 };
    static char seen[N][LOBBY_CODE_TEXT];
    int count[32] = {0};
    uint8_t pk[32] = {1};
    Lobby_Code c;

    for (int i = 0; i < N; i++) {
        cr_assert_eq(lobby_code_new(pk, &c), 0);
        memcpy(seen[i], c.text, LOBBY_CODE_TEXT);
        for (int j = 0; j < LOBBY_CODE_SECRET_SYMBOLS; j++)
            count[strchr(abc, c.secret[j]) - abc]++;
    }
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            cr_assert(strcmp(seen[i], seen[j]) != 0, "repeated %s", seen[i]);
    /* 24000 symbols, 750 expected each; 6 sigma is about 160. */
    for (int s = 0; s < 32; s++)
        cr_assert(count[s] > 590 && count[s] < 910, "symbol %c: %d", abc[s],
                  count[s]);
}

/* ---- rooms ---- */

Test(lobby, create_join_watch_and_relay_in_order)
{
    Room r;
    Peer host, guest, spect;
    Lobby_Stats st;

    loop_start();
    lobby_start(NULL);
    room_make(&r);
    peer_host(&host, &r, 0);
    cr_assert_eq(host.welcomed, 1, "host refused: %s",
                 net_strerror(host.reason));
    cr_assert_eq(host.w.role, LOBBY_ROLE_HOST);
    cr_assert_eq(host.w.next_seq, 1);
    cr_assert_eq(host.w.first_seq, 0);
    cr_assert_eq(host.present[1], 0);

    peer_guest(&guest, r.invite.text, guest_secret, 0);
    cr_assert_eq(guest.welcomed, 1, "guest refused: %s",
                 net_strerror(guest.reason));
    cr_assert_eq(guest.w.role, LOBBY_ROLE_GUEST);
    cr_assert(memcmp(guest.w.host_pk, r.pk, 32) == 0);
    cr_assert_eq(guest.present[0], 1);
    WAIT_FOR(host.present[1] == 1, 2000);
    cr_assert_eq(host.present[1], 1, "host not told the guest arrived");

    peer_watch(&spect, r.watch.text, 0);
    cr_assert_eq(spect.welcomed, 1);
    cr_assert_eq(spect.w.role, LOBBY_ROLE_SPECTATOR);
    cr_assert_eq(lobby_client_send(spect.c, "x", 1), TB_E_STATE);

    peer_say(&host, "e2e4");
    WAIT_FOR(guest.nframes == 1 && host.nacks == 1, 2000);
    peer_say(&guest, "e7e5");
    peer_say(&guest, "resign?");
    WAIT_FOR(host.nframes == 2 && spect.nframes == 3, 2000);

    cr_assert_eq(host.last_ack, 1);
    cr_assert_eq(guest.nframes, 1);
    cr_assert_eq(guest.seq[0], 1);
    cr_assert_eq(guest.from[0], LOBBY_ROLE_HOST);
    cr_assert_str_eq(guest.text[0], "e2e4");
    cr_assert_eq(guest.nacks, 2);
    cr_assert_eq(guest.last_ack, 3);
    cr_assert_eq(host.nframes, 2, "the host must not get its own frame");
    cr_assert_eq(host.seq[0], 2);
    cr_assert_eq(host.seq[1], 3);
    cr_assert_str_eq(host.text[1], "resign?");
    cr_assert_eq(host.from[1], LOBBY_ROLE_GUEST);
    cr_assert_eq(spect.nframes, 3);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(spect.seq[i], (uint64_t)i + 1);
    cr_assert_str_eq(spect.text[0], "e2e4");
    cr_assert_str_eq(spect.text[2], "resign?");
    cr_assert_eq(lobby_client_last_seq(host.c), 3);

    st = stats();
    cr_assert_eq(st.rooms, 1);
    cr_assert_eq(st.members, 3);
    cr_assert_eq(st.frames_relayed, 3);
    cr_assert_eq(st.bad_codes, 0);

    /* A third player with the invite code finds the seat taken. */
    {
        Peer third;
        uint8_t other[LOBBY_SEAT_SECRET_BYTES] = {9};
        peer_guest(&third, r.invite.text, other, 0);
        WAIT_FOR(third.disconnected, 2000);
        cr_assert_eq(third.welcomed, 0);
        cr_assert_eq(third.reason, TB_E_SEAT);
        peer_free(&third);
    }
    peer_free(&spect);
    peer_free(&guest);
    WAIT_FOR(host.present[1] == 0, 2000);
    cr_assert_eq(host.present[1], 0, "host not told the guest left");
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

Test(lobby, late_spectator_catches_up_from_its_sequence)
{
    Room r;
    Peer host, guest, late, later;
    Raw_Peer raw;
    char msg[16];

    loop_start();
    lobby_start(NULL);
    room_make(&r);
    peer_host(&host, &r, 0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    cr_assert_eq(guest.welcomed, 1);
    for (int i = 1; i <= 10; i++) {
        snprintf(msg, sizeof msg, "ply %d", i);
        peer_say(i % 2 ? &host : &guest, msg);
        WAIT_FOR((i % 2 ? guest.nframes : host.nframes) == (size_t)(i + 1) / 2,
                 2000);
    }
    cr_assert_eq(host.nframes + guest.nframes, 10);

    /* From the start: all ten, in order, with their senders. The invite
     * code also admits spectators. */
    peer_watch(&late, r.invite.text, 0);
    cr_assert_eq(late.welcomed, 1);
    cr_assert_eq(late.w.first_seq, 1);
    cr_assert_eq(late.w.next_seq, 11);
    WAIT_FOR(late.nframes == 10, 2000);
    cr_assert_eq(late.nframes, 10);
    for (int i = 0; i < 10; i++) {
        snprintf(msg, sizeof msg, "ply %d", i + 1);
        cr_assert_eq(late.seq[i], (uint64_t)i + 1);
        cr_assert_str_eq(late.text[i], msg);
        cr_assert_eq(late.from[i], i % 2 ? LOBBY_ROLE_GUEST : LOBBY_ROLE_HOST);
    }
    /* From sequence 6: only 7..10, then live frames. */
    peer_watch(&later, r.watch.text, 6);
    WAIT_FOR(later.nframes == 4, 2000);
    cr_assert_eq(later.nframes, 4);
    cr_assert_eq(later.seq[0], 7);
    cr_assert_str_eq(later.text[3], "ply 10");
    /* The lobby itself sends no more than asked (the client would drop
     * repeats): a raw WATCH from 6 reads a WELCOME and exactly 7..10. */
    {
        uint8_t w[26] = {0x03, LOBBY_WIRE_VERSION};
        memcpy(w + 2, r.watch.lookup, 16);
        memset(w + 18, 0, 8);
        w[25] = 6;
        raw_connect(&raw, lobby_port, 1);
        raw_frame(&raw, w, sizeof w);
        /* 4+123 welcome, 3 x (4+90+5) for "ply 7".."ply 9", 4+90+6. */
        WAIT_FOR(raw.received >= 524, 2000);
        loop_for(50);
        cr_assert_eq(raw.received, 524);
        cr_assert_eq(raw.in[4], 0x81);
        cr_assert_eq(raw.in[127 + 4], 0x82);
        cr_assert_eq(raw.in[127 + 12], 7, "first frame sent is 7");
        raw_close(&raw);
        WAIT_FOR(raw.closed, 1000);
    }
    peer_say(&host, "ply 11");
    WAIT_FOR(later.nframes == 5 && late.nframes == 11, 2000);
    cr_assert_eq(later.seq[4], 11);
    cr_assert_eq(late.seq[10], 11);
    peer_free(&later);
    peer_free(&late);
    peer_free(&guest);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

Test(lobby, reconnecting_player_resumes_from_its_sequence)
{
    Room r;
    Peer host, guest;
    Lobby_Client *saved;

    loop_start();
    lobby_start(NULL);
    room_make(&r);
    peer_host(&host, &r, 0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    peer_say(&host, "a");
    WAIT_FOR(guest.nframes == 1, 2000);
    peer_say(&guest, "b");
    WAIT_FOR(host.nframes == 1 && guest.nacks == 1, 2000);
    cr_assert_eq(lobby_client_last_seq(guest.c), 2);

    /* The guest's link drops; the host plays on. */
    lobby_client_close(guest.c);
    WAIT_FOR(guest.disconnected && host.present[1] == 0, 2000);
    cr_assert_eq(guest.reason, 0);
    cr_assert_eq(lobby_client_connected(guest.c), 0);
    cr_assert_eq(lobby_client_send(guest.c, "z", 1), TB_E_STATE);
    peer_say(&host, "c");
    peer_say(&host, "d");
    WAIT_FOR(host.nacks == 3, 2000);

    /* It comes back with its seat secret and its last number. */
    cr_assert_eq(lobby_client_resume(guest.c, lobby_client_last_seq(guest.c)),
                 0);
    cr_assert_eq(lobby_client_resume(guest.c, 0), TB_E_STATE);
    WAIT_FOR(guest.welcomed == 2 && guest.nframes == 3, 2000);
    cr_assert_eq(guest.welcomed, 2);
    cr_assert_eq(guest.w.role, LOBBY_ROLE_GUEST);
    cr_assert_eq(guest.nframes, 3);
    cr_assert_eq(guest.seq[1], 3);
    cr_assert_str_eq(guest.text[1], "c");
    cr_assert_eq(guest.seq[2], 4);
    WAIT_FOR(host.present[1] == 1, 2000);
    peer_say(&guest, "e");
    WAIT_FOR(host.nframes == 2, 2000);
    cr_assert_eq(host.seq[1], 5);

    /* A restarted process: a new client with the same secret and the last
     * number from its log replaces the stale connection. */
    saved = guest.c;
    {
        Peer again;
        peer_guest(&again, r.invite.text, guest_secret, 5);
        cr_assert_eq(again.welcomed, 1);
        cr_assert_eq(again.w.role, LOBBY_ROLE_GUEST);
        WAIT_FOR(guest.disconnected == 2, 2000);
        cr_assert_eq(guest.reason, TB_E_REPLACED, "old connection not replaced");
        peer_say(&host, "f");
        WAIT_FOR(again.nframes == 1, 2000);
        cr_assert_eq(again.seq[0], 6);
        cr_assert_eq(guest.nframes, 3);
        peer_free(&again);
    }
    lobby_client_free(saved);

    /* The host can take its seat back the same way. */
    lobby_client_close(host.c);
    WAIT_FOR(host.disconnected, 2000);
    cr_assert_eq(lobby_client_resume(host.c, 5), 0);
    WAIT_FOR(host.welcomed == 2 && host.nframes == 3, 2000);
    cr_assert_eq(host.welcomed, 2);
    cr_assert_eq(host.w.role, LOBBY_ROLE_HOST);
    cr_assert_eq(host.seq[2], 6, "own frame 6 is sent on catch-up");
    cr_assert_eq(host.from[2], LOBBY_ROLE_HOST);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

Test(lobby, wrong_codes_are_rate_limited_per_address)
{
    Lobby_Limits lim = {
        .guess_burst = 3, .guess_refill_ms = 60000, .rate_delay_ms = 600};
    Room r, wrong;
    Peer host, p;
    Lobby_Stats st;

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    cr_assert_eq(host.welcomed, 1);
    for (int i = 0; i < 3; i++) {
        room_make(&wrong);
        peer_watch(&p, wrong.watch.text, 0);
        WAIT_FOR(p.disconnected, 2000);
        cr_assert_eq(p.reason, TB_E_CODE, "guess %d: %s", i,
                     net_strerror(p.reason));
        peer_free(&p);
    }
    /* The fourth guess is refused, late: the answer waits rate_delay_ms
     * (600 ms), holding the guesser's connection. */
    room_make(&wrong);
    uint64_t t0 = uv_hrtime();
    peer_guest(&p, wrong.invite.text, guest_secret, 0);
    WAIT_FOR(p.disconnected, 3000);
    cr_assert_eq(p.reason, TB_E_RATE);
    cr_assert_geq((uv_hrtime() - t0) / 1000000, 500, "answered after %llu ms",
                  (unsigned long long)((uv_hrtime() - t0) / 1000000));
    peer_free(&p);
    /* Issue 16 case 3: the right codes from the same address get in. */
    peer_watch(&p, r.watch.text, 0);
    cr_assert_eq(p.welcomed, 1, "reason %d", p.reason);
    peer_free(&p);
    peer_guest(&p, r.invite.text, guest_secret, 0);
    cr_assert_eq(p.welcomed, 1, "reason %d", p.reason);
    cr_assert_eq(p.w.role, LOBBY_ROLE_GUEST);
    peer_free(&p);
    st = stats();
    cr_assert_eq(st.bad_codes, 3);
    cr_assert_eq(st.rate_limited, 1);
    /* The room itself is untouched. */
    cr_assert_eq(st.rooms, 1);
    cr_assert_eq(lobby_client_connected(host.c), 1);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

Test(lobby, joiner_detects_a_host_key_not_bound_to_the_code)
{
    Room r, impostor;
    Peer host, p;

    loop_start();
    lobby_start(NULL);
    room_make(&r);
    room_make(&impostor);
    /* The room is registered under r's lookups but with another key, as
     * a lying lobby would present it. */
    memcpy(r.pk, impostor.pk, sizeof r.pk);
    r.host = impostor.host; /* (which proves its key) */
    peer_host(&host, &r, 0);
    cr_assert_eq(host.welcomed, 1);
    peer_guest(&p, r.invite.text, guest_secret, 0);
    WAIT_FOR(p.disconnected, 2000);
    cr_assert_eq(p.welcomed, 0, "joiner accepted the wrong host");
    cr_assert_eq(p.reason, TB_E_SIGNATURE);
    peer_free(&p);
    peer_watch(&p, r.watch.text, 0);
    WAIT_FOR(p.disconnected, 2000);
    cr_assert_eq(p.welcomed, 0);
    cr_assert_eq(p.reason, TB_E_SIGNATURE);
    peer_free(&p);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

Test(lobby, limits_on_rooms_and_payload)
{
    Lobby_Limits lim = {.max_rooms = 2, .max_payload = 100};
    Room r[3];
    Peer h[3], g;
    static char big[200];

    loop_start();
    lobby_start(&lim);
    for (int i = 0; i < 3; i++) {
        room_make(&r[i]);
        peer_host(&h[i], &r[i], 0);
    }
    cr_assert_eq(h[0].welcomed + h[1].welcomed, 2);
    cr_assert_eq(h[2].welcomed, 0);
    cr_assert_eq(h[2].reason, TB_E_FULL);
    peer_guest(&g, r[0].invite.text, guest_secret, 0);
    memset(big, 'x', sizeof big);
    cr_assert_eq(lobby_client_send(h[0].c, big, 100), 0);
    WAIT_FOR(g.nframes == 1, 2000);
    cr_assert_eq(g.nframes, 1);
    /* 101 bytes: under net/'s frame cap, over the lobby's payload cap. */
    cr_assert_eq(lobby_client_send(h[0].c, big, 101), 0);
    WAIT_FOR(h[0].disconnected, 2000);
    cr_assert_eq(h[0].reason, TB_E_LIMIT);
    /* 200 bytes: over the lobby's net/ frame cap (payload + 90), so the
     * lobby drops the connection on the length alone. */
    cr_assert_eq(lobby_client_send(g.c, big, 200), 0);
    WAIT_FOR(g.disconnected, 2000);
    cr_assert_eq(g.disconnected, 1);
    cr_assert_eq(stats().frames_relayed, 1);
    for (int i = 0; i < 3; i++)
        peer_free(&h[i]);
    peer_free(&g);
    lobby_stop();
    loop_finish();
}

/* ---- hostile clients ---- */

Test(lobby, garbage_and_bad_messages_leave_other_rooms_alone)
{
    Lobby_Limits lim = {.hello_timeout_ms = 1000};
    Room r;
    Peer host, guest, spect;
    Raw_Peer bad[8];
    uint8_t junk[4096];
    uint8_t msg[256];
    char text[16];
    int n = 0;

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    peer_watch(&spect, r.watch.text, 0);

    /* Raw garbage (its first bytes read as a huge length). */
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)(i * 131 + 17) | 0x80;
    raw_connect(&bad[n], lobby_port, 1);
    raw_write(&bad[n++], junk, sizeof junk);
    /* A length over the cap. */
    net_frame_header(msg, 1u << 30);
    raw_connect(&bad[n], lobby_port, 1);
    raw_write(&bad[n++], msg, 4);
    /* An unknown message type. */
    raw_connect(&bad[n], lobby_port, 1);
    raw_frame(&bad[n++], "\x7f", 1);
    /* DATA before any create/join/watch. */
    raw_connect(&bad[n], lobby_port, 1);
    raw_frame(&bad[n++], "\x04hello", 6);
    /* A JOIN one byte short, and a CREATE with a wrong version. */
    memset(msg, 0, sizeof msg);
    msg[0] = 0x02;
    msg[1] = 1;
    raw_connect(&bad[n], lobby_port, 1);
    raw_frame(&bad[n++], msg, LOBBY_LEN_JOIN - 1);
    msg[0] = 0x01;
    msg[1] = 9;
    raw_connect(&bad[n], lobby_port, 1);
    raw_frame(&bad[n++], msg, LOBBY_LEN_CREATE);
    /* Says nothing at all (past the hello timeout). */
    raw_connect(&bad[n], lobby_port, 1);
    n++;
    /* A truncated frame, then silence. */
    net_frame_header(msg, 50);
    raw_connect(&bad[n], lobby_port, 1);
    raw_write(&bad[n++], msg, 10);

    /* Meanwhile the room plays on. */
    for (int i = 1; i <= 20; i++) {
        snprintf(text, sizeof text, "m%d", i);
        peer_say(i % 2 ? &host : &guest, text);
        loop_for(5);
    }
    WAIT_FOR(spect.nframes == 20 && host.nframes == 10 && guest.nframes == 10,
             3000);
    cr_assert_eq(spect.nframes, 20);
    for (int i = 0; i < 20; i++) {
        snprintf(text, sizeof text, "m%d", i + 1);
        cr_assert_eq(spect.seq[i], (uint64_t)i + 1);
        cr_assert_str_eq(spect.text[i], text);
    }
    {
        int all = 0;
        WAIT_FOR((all = bad[0].eof + bad[1].eof + bad[2].eof + bad[3].eof +
                        bad[4].eof + bad[5].eof + bad[6].eof + bad[7].eof) == 8,
                 5000);
        cr_assert_eq(all, 8, "a hostile connection was kept open");
    }
    /* Protocol errors are answered with an ERROR message before the close:
     * the unknown type got [0x85, 1] in a frame. */
    cr_assert_geq(bad[2].received, 6);
    cr_assert_eq(bad[2].in[4], 0x85);
    cr_assert_eq(bad[2].in[5], 1);
    cr_assert_eq(bad[5].in[5], 2, "wrong version");
    cr_assert_eq(bad[6].in[5], 9, "hello timeout");
    cr_assert_eq(host.disconnected + guest.disconnected + spect.disconnected,
                 0);
    /* (answered in no room, each is held LOBBY_REFUSED_HOLD_MS before
     * its descriptor goes, counted meanwhile) */
    WAIT_FOR(stats().conns == 3, LOBBY_REFUSED_HOLD_MS + 2000);
    cr_assert_eq(stats().conns, 3);
    cr_assert_eq(stats().bad_codes, 0, "garbage is no code guess");
    for (int i = 0; i < n; i++)
        raw_close(&bad[i]);
    peer_free(&spect);
    peer_free(&guest);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

Test(lobby, slow_spectator_dropped_others_unaffected)
{
    Lobby_Limits lim = {.max_write_queue = 65536,
                        .transcript_frames = 32,
                        .max_payload = 32768,
                        .heartbeat_ms = 100000,
                        .idle_timeout_ms = 200000};
    static uint8_t payload[32768];
    Lobby_Stats st;
    Room r;
    Peer host, guest;
    Raw_Peer slow;
    uint8_t watch[26];
    int sent = 0;

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    /* A spectator that asks to watch and then never reads. */
    raw_connect(&slow, lobby_port, 0);
    watch[0] = 0x03;
    watch[1] = LOBBY_WIRE_VERSION;
    memcpy(watch + 2, r.watch.lookup, 16);
    memset(watch + 18, 0, 8);
    raw_frame(&slow, watch, sizeof watch);
    WAIT_FOR(stats().members == 3, 2000);
    cr_assert_eq(stats().members, 3);
    /* Bounded: at most 2000 frames of 32 KiB (64 MiB). */
    while (stats().dropped_slow == 0 && sent < 2000) {
        cr_assert_eq(lobby_client_send(host.c, payload, sizeof payload), 0);
        sent++;
        /* The guest keeps up; only the spectator lags. */
        WAIT_FOR(guest.total == (size_t)sent, 2000);
        cr_assert_eq(guest.total, (size_t)sent);
    }
    st = stats();
    cr_assert_eq(st.dropped_slow, 1, "the slow spectator was not dropped");
    cr_assert_leq(st.transcript_bytes, 32 * (32768 + LOBBY_FRAME_HEADER));
    WAIT_FOR(stats().members == 2, 2000);
    cr_assert_eq(stats().members, 2);
    /* The players go on. */
    guest.nframes = 0;
    peer_say(&host, "still here");
    WAIT_FOR(guest.nframes == 1, 2000);
    cr_assert_str_eq(guest.text[0], "still here");
    cr_assert_eq(host.disconnected + guest.disconnected, 0);
    raw_close(&slow);
    peer_free(&guest);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

/* ---- the real program ---- */

Test(lobby, tabula_lobby_process_relays_and_stops_cleanly)
{
    int out[2];
    pid_t pid;
    FILE *f;
    char line[256] = "";
    int status;
    Room r, r2;
    Peer host, guest, host2;

    cr_assert_eq(pipe(out), 0);
    pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(out[1], 1);
        close(out[0]);
        close(out[1]);
        execl(TABULA_BINARY, TABULA_BINARY, "lobby", "--listen", "127.0.0.1:0",
              "--max-rooms-per-address", "1", (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    f = fdopen(out[0], "r");
    cr_assert_not_null(f);
    cr_assert_not_null(fgets(line, sizeof line, f), "no output from lobby");
    cr_assert(strncmp(line, "listening: 127.0.0.1:", 21) == 0, "got '%s'",
              line);
    lobby_port = port_of(line);
    cr_assert_gt(lobby_port, 0);

    loop_start();
    room_make(&r);
    peer_host(&host, &r, 0);
    cr_assert_eq(host.welcomed, 1);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    cr_assert_eq(guest.welcomed, 1);
    peer_say(&guest, "hello over a process");
    WAIT_FOR(host.nframes == 1, 2000);
    cr_assert_str_eq(host.text[0], "hello over a process");
    /* One room per address: a second from 127.0.0.1 is refused. */
    room_make(&r2);
    peer_host(&host2, &r2, 0);
    cr_assert_eq(host2.welcomed, 0);
    cr_assert_eq(host2.reason, TB_E_ADDRESS, "reason %d", host2.reason);
    peer_free(&host2);

    cr_assert_eq(kill(pid, SIGTERM), 0);
    WAIT_FOR(host.disconnected && guest.disconnected, 3000);
    cr_assert_eq(host.disconnected, 1, "lobby did not close its clients");
    peer_free(&host);
    peer_free(&guest);
    loop_finish();
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "lobby exit status %d", status);
    fclose(f);
}

Test(lobby, tabula_lobby_usage_errors)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s lobby --listen nowhere >/dev/null 2>&1",
             TABULA_BINARY);
    cr_assert_eq(WEXITSTATUS(system(cmd)), 2);
    snprintf(cmd, sizeof cmd, "%s lobby --max-rooms 0 >/dev/null 2>&1",
             TABULA_BINARY);
    cr_assert_eq(WEXITSTATUS(system(cmd)), 2);
    snprintf(cmd, sizeof cmd,
             "%s lobby --help | grep -q 'listening: HOST:PORT'", TABULA_BINARY);
    cr_assert_eq(WEXITSTATUS(system(cmd)), 0);
    /* The per-address shares take a count, 1..1000000. */
    snprintf(cmd, sizeof cmd,
             "%s lobby --max-conns-per-address 0 >/dev/null 2>&1",
             TABULA_BINARY);
    cr_assert_eq(WEXITSTATUS(system(cmd)), 2);
    snprintf(cmd, sizeof cmd,
             "%s lobby --max-rooms-per-address >/dev/null 2>&1",
             TABULA_BINARY);
    cr_assert_eq(WEXITSTATUS(system(cmd)), 2);
    snprintf(cmd, sizeof cmd,
             "%s lobby --help | grep -q -- '--max-rooms-per-address N'",
             TABULA_BINARY);
    cr_assert_eq(WEXITSTATUS(system(cmd)), 0);
}

Test(lobby, peers_reregister_after_a_lobby_restart)
{
    Room r;
    Peer host, guest;
    Lobby_Limits lim = {0};
    struct sockaddr_storage a;

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    peer_guest(&guest, r.invite.text, guest_secret, 0);
    peer_say(&host, "one");
    peer_say(&host, "two");
    WAIT_FOR(guest.nframes == 2, 2000);
    peer_say(&guest, "three");
    WAIT_FOR(host.nframes == 1, 2000);
    cr_assert_eq(lobby_client_last_seq(host.c), 3);

    /* The lobby goes away and a new one starts on the same port. */
    lobby_stop();
    WAIT_FOR(host.disconnected && guest.disconnected, 2000);
    cr_assert_eq(host.disconnected + guest.disconnected, 2);
    a = loopback(lobby_port);
    cr_assert_eq(lobby_new(&test_loop, (struct sockaddr *)&a, NULL, &lobby), 0);
    lobby_gone = 0;

    /* The host re-registers from its last number; the guest comes back
     * with its secret and takes the free seat again. */
    cr_assert_eq(lobby_client_resume(host.c, lobby_client_last_seq(host.c)), 0);
    WAIT_FOR(host.welcomed == 2, 2000);
    cr_assert_eq(host.welcomed, 2);
    cr_assert_eq(host.w.next_seq, 4, "numbering must go on from 3");
    cr_assert_eq(lobby_client_resume(guest.c, lobby_client_last_seq(guest.c)),
                 0);
    WAIT_FOR(guest.welcomed == 2, 2000);
    cr_assert_eq(guest.welcomed, 2);
    cr_assert_eq(guest.w.role, LOBBY_ROLE_GUEST);
    peer_say(&guest, "four");
    WAIT_FOR(host.nframes == 2, 2000);
    cr_assert_eq(host.seq[1], 4);
    cr_assert_str_eq(host.text[1], "four");
    peer_say(&host, "five");
    WAIT_FOR(guest.nframes == 3, 2000);
    cr_assert_eq(guest.seq[2], 5);

    /* A client that holds more than a lobby knows follows the lobby. */
    lobby_client_close(guest.c);
    WAIT_FOR(guest.disconnected == 2, 2000);
    cr_assert_eq(lobby_client_resume(guest.c, 40), 0);
    WAIT_FOR(guest.welcomed == 3, 2000);
    cr_assert_eq(lobby_client_last_seq(guest.c), 5);
    peer_say(&host, "six");
    WAIT_FOR(guest.nframes == 4, 2000);
    cr_assert_eq(guest.seq[3], 6, "frames after a renumbering get through");
    peer_free(&guest);
    peer_free(&host);
    lobby_stop();
    loop_finish();
}

/* A connection that sends nothing, not even a heartbeat, for the idle
 * timeout (300 ms here) is closed and counted once (idle_timeouts: the
 * stopping line's idle-timeouts); before it, nothing is counted. */
Test(lobby, a_silent_connection_is_timed_out_and_counted)
{
    Lobby_Limits lim = {.idle_timeout_ms = 300};
    Raw_Peer silent;

    loop_start();
    lobby_start(&lim);
    raw_connect(&silent, lobby_port, 0);
    WAIT_FOR(stats().conns == 1, 2000);
    cr_assert_eq(stats().idle_timeouts, 0);
    WAIT_FOR(stats().idle_timeouts == 1, 3000);
    cr_assert_eq(stats().idle_timeouts, 1);
    loop_for(400);
    cr_assert_eq(stats().idle_timeouts, 1);
    cr_assert_eq(stats().conns, 0);
    raw_close(&silent);
    lobby_stop();
    loop_finish();
}

/* ---- a pool offer's connection keeps itself alive ---- */

static int offer_waits, offer_done, offer_status;
static void offer_wait(void *user, const uint32_t *counts)
{
    (void)user;
    (void)counts;
    offer_waits++;
}
static void offer_end(void *user, int status, const Lobby_Paired *paired)
{
    (void)user;
    (void)paired;
    offer_done = 1;
    offer_status = status;
}

/* What a caller's earlier calls left on the stack: 0xff bytes, which a
 * Net_Limits read from there takes as "never" (heartbeat, idle). */
__attribute__((noinline)) static void dirty_stack(void)
{
    volatile unsigned char junk[16384];
    memset((void *)junk, 0xff, sizeof junk);
    (void)junk[sizeof junk - 1];
}

__attribute__((noinline)) static int offer_after_dirt(
    const struct sockaddr *addr, const Seat_Pool_Offer *o,
    Lobby_Pool_Conn **conn)
{
    dirty_stack();
    return lobby_pool_offer(&test_loop, addr, o->msg, o->len, offer_wait,
                            offer_end, NULL, conn);
}

/* lobby_pool_offer's connection sends its heartbeats whatever its caller
 * left on the stack: its limits were read uninitialised, so an offer
 * made again from a timer callback sent none and its lobby timed it out
 * every 15 s (a trial), and a CI run's waiting terminal was dropped. The
 * lobby's idle timeout is 6 s here, the client's heartbeat 5 s: 7 s
 * after it was taken the offer still waits, nothing timed out. */
Test(lobby, a_pool_offer_heartbeats_whatever_its_stack_held)
{
    Lobby_Limits lim = {.idle_timeout_ms = 6000};
    Seat_Pool_Offer o;
    Lobby_Pool_Conn *conn = NULL;

    cr_assert_eq(proto_init(), 0);
    cr_assert_eq(seat_pool_offer(&o, NULL,
                                 (uint16_t)(1u << seat_pool_bit(
                                                core_game_find("laska"))),
                                 NULL, NULL, "", NULL),
                 0);
    loop_start();
    lobby_start(&lim);
    struct sockaddr_storage a = loopback(lobby_port);
    cr_assert_eq(offer_after_dirt((const struct sockaddr *)&a, &o, &conn), 0);
    WAIT_FOR(offer_waits >= 1, 2000);
    cr_assert_geq(offer_waits, 1);
    loop_for(7000);
    cr_assert_eq(offer_done, 0, "the offer's connection ended: %d",
                 offer_status);
    cr_assert_eq(stats().idle_timeouts, 0);
    lobby_pool_cancel(conn);
    WAIT_FOR(offer_done, 2000);
    cr_assert_eq(offer_status, UV_ECANCELED);
    seat_pool_offer_wipe(&o);
    lobby_stop();
    loop_finish();
}

Test(lobby, spectator_places_are_limited_and_empty_rooms_expire)
{
    Lobby_Limits lim = {.max_spectators = 2, .empty_room_ms = 500};
    Room r;
    Peer host, s[3];

    loop_start();
    lobby_start(&lim);
    room_make(&r);
    peer_host(&host, &r, 0);
    for (int i = 0; i < 3; i++)
        peer_watch(&s[i], r.watch.text, 0);
    cr_assert_eq(s[0].welcomed + s[1].welcomed, 2);
    WAIT_FOR(s[2].disconnected, 2000);
    cr_assert_eq(s[2].reason, TB_E_FULL);
    for (int i = 0; i < 3; i++)
        peer_free(&s[i]);
    peer_free(&host);
    WAIT_FOR(stats().members == 0, 2000);
    cr_assert_eq(stats().rooms, 1, "a room outlives a short absence");
    WAIT_FOR(stats().rooms == 0, 3000);
    cr_assert_eq(stats().rooms, 0, "an empty room was never dropped");
    /* Its codes are unknown now. */
    peer_watch(&s[0], r.watch.text, 0);
    WAIT_FOR(s[0].disconnected, 2000);
    cr_assert_eq(s[0].reason, TB_E_CODE);
    peer_free(&s[0]);
    lobby_stop();
    loop_finish();
}

Test(lobby, wrong_codes_are_rate_limited_for_the_whole_lobby)
{
    /* Many guesses allowed per address, but only 1 a second in all. */
    Lobby_Limits lim = {.guess_burst = 100,
                        .guess_refill_ms = 1,
                        .guess_global_per_s = 1,
                        .rate_delay_ms = 50};
    Room wrong;
    Peer p;
    int refused = 0, codes = 0;

    loop_start();
    lobby_start(&lim);
    for (int i = 0; i < 4; i++) {
        room_make(&wrong);
        peer_watch(&p, wrong.watch.text, 0);
        WAIT_FOR(p.disconnected, 2000);
        codes += p.reason == TB_E_CODE;
        refused += p.reason == TB_E_RATE;
        peer_free(&p);
    }
    cr_assert_eq(codes, 1, "wrong codes answered: %d", codes);
    cr_assert_eq(refused, 3);
    cr_assert_eq(stats().bad_codes, 1);
    lobby_stop();
    loop_finish();
}
