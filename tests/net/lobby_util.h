/*
 * lobby_util.h: fixtures the lobby tests share: a lobby on the test loop
 * with given limits and its counters, a host's room (key, codes, seat
 * secret), and peers (Lobby_Client) that record what they are told.
 * Header-only, static functions.
 */
#ifndef TABULA_TEST_LOBBY_UTIL_H
#define TABULA_TEST_LOBBY_UTIL_H

#include "lobby.h"
#include "lobby_internal.h"
#include "loop_util.h"


static Lobby *lobby;
static int lobby_port;
static int lobby_gone;

static inline void lobby_done(void *user)
{
    (void)user;
    lobby_gone = 1;
}

static inline void lobby_start(Lobby_Limits *lim)
{
    struct sockaddr_storage a = loopback(0);
    char where[64];
    lobby_gone = 0;
    cr_assert_eq(lobby_new(&test_loop, (struct sockaddr *)&a, lim, &lobby), 0);
    cr_assert_eq(lobby_address(lobby, where, sizeof where), 0);
    lobby_port = port_of(where);
}

static inline void lobby_stop(void)
{
    lobby_close(lobby, lobby_done, NULL);
    WAIT_FOR(lobby_gone, 3000);
    cr_assert(lobby_gone);
}

static inline Lobby_Stats stats(void)
{
    Lobby_Stats s;
    lobby_stats(lobby, &s);
    return s;
}

/* What the host knows about its room. */
typedef struct Room {
    uint8_t pk[LOBBY_KEY_BYTES];
    Proto_Identity host; /* its key pair (pk), proven in each CREATE */
    Lobby_Code invite, watch;
    uint8_t host_secret[LOBBY_SEAT_SECRET_BYTES];
} Room;

static inline void room_make(Room *r)
{
    cr_assert_eq(proto_identity_generate(&r->host), 0);
    memcpy(r->pk, r->host.pk, sizeof r->pk);
    cr_assert_eq(lobby_random(r->host_secret, sizeof r->host_secret), 0);
    cr_assert_eq(lobby_code_new(r->pk, &r->invite), 0);
    cr_assert_eq(lobby_code_new(r->pk, &r->watch), 0);
}

#define MAXF 256

typedef struct Peer {
    Lobby_Client *c;
    int welcomed;
    Lobby_Welcome w;
    int disconnected;
    int reason;
    size_t nframes; /* frames recorded (slots wrap after MAXF) */
    size_t total;   /* frames received */
    uint64_t seq[MAXF];
    Lobby_Role from[MAXF];
    char text[MAXF][32];
    size_t nacks;
    uint64_t last_ack;
    int present[2];
    /* the relay's receipts as the codec gave them (not verified), and
     * each frame's payload hash (proto_receipt_hash) */
    Proto_Receipt frame_rc[MAXF];
    uint8_t frame_hash[MAXF][PROTO_HASH_BYTES];
    Proto_Receipt ack_rc, presence_rc;
    size_t npresence;
} Peer;

static inline void p_welcome(Lobby_Client *c, const Lobby_Welcome *w)
{
    Peer *p = lobby_client_user(c);
    p->welcomed++;
    p->w = *w;
    p->present[0] = w->host_present;
    p->present[1] = w->guest_present;
}

static inline void p_frame(Lobby_Client *c, uint64_t seq, Lobby_Role from,
                    const uint8_t *d, size_t n)
{
    Peer *p = lobby_client_user(c);
    size_t i = p->nframes % MAXF;
    p->seq[i] = seq;
    p->from[i] = from;
    if (n >= sizeof p->text[0])
        n = sizeof p->text[0] - 1;
    memcpy(p->text[i], d, n);
    p->text[i][n] = '\0';
    p->nframes++;
    p->total++;
}

static inline void p_ack(Lobby_Client *c, uint64_t seq)
{
    Peer *p = lobby_client_user(c);
    p->nacks++;
    p->last_ack = seq;
}

static inline void p_presence(Lobby_Client *c, Lobby_Role seat, int present)
{
    Peer *p = lobby_client_user(c);
    p->present[seat] = present;
}

static inline void p_disconnect(Lobby_Client *c, int reason)
{
    Peer *p = lobby_client_user(c);
    p->disconnected++;
    p->reason = reason;
}

/* Before p_frame, p_ack or p_presence: the receipt of what follows. */
static inline void p_receipt(Lobby_Client *c, const Lobby_Wire_Event *ev)
{
    Peer *p = lobby_client_user(c);
    size_t i = p->nframes % MAXF;
    if (ev->kind == LOBBY_WIRE_FRAME) {
        p->frame_rc[i] = ev->receipt;
        cr_assert_eq(proto_receipt_hash(ev->data, ev->len, p->frame_hash[i]),
                     0);
    } else if (ev->kind == LOBBY_WIRE_ACK) {
        p->ack_rc = ev->receipt;
    } else {
        p->presence_rc = ev->receipt;
        p->npresence++;
    }
}

static const Lobby_Client_Callbacks peer_cb = {
    p_welcome, p_frame, p_ack, p_presence, p_disconnect, p_receipt, NULL};

static inline void peer_open(Peer *p, Lobby_Client_Config *cfg, uint64_t from)
{
    struct sockaddr_storage a = loopback(lobby_port);
    memset(p, 0, sizeof *p);
    cr_assert_eq(lobby_client_new(&test_loop, (struct sockaddr *)&a, cfg,
                                  &peer_cb, p, from, &p->c),
                 0);
}

/* Open and wait for the welcome (or a refusal). */
static inline void peer_host(Peer *p, const Room *r, uint64_t from)
{
    Lobby_Client_Config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.role = LOBBY_ROLE_HOST;
    cfg.invite = r->invite;
    cfg.watch = r->watch;
    memcpy(cfg.host_pk, r->pk, LOBBY_KEY_BYTES);
    memcpy(cfg.seat_secret, r->host_secret, LOBBY_SEAT_SECRET_BYTES);
    cfg.id = r->host;
    peer_open(p, &cfg, from);
    WAIT_FOR(p->welcomed || p->disconnected, 2000);
}

/* The key pair of the guest whose seat secret is secret (the secret
 * twice its seed): one guest, one key, whichever connection it uses. */
static inline Proto_Identity guest_of(const uint8_t *secret)
{
    uint8_t seed[32];
    Proto_Identity id;
    memcpy(seed, secret, 16);
    memcpy(seed + 16, secret, 16);
    cr_assert_eq(proto_identity_from_seed(&id, seed), 0);
    return id;
}

/* A joiner types the code: it only ever has the text. */
static inline void peer_guest(Peer *p, const char *code, const uint8_t *secret,
                       uint64_t from)
{
    Lobby_Client_Config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.role = LOBBY_ROLE_GUEST;
    cr_assert_eq(lobby_code_parse(code, &cfg.invite), 0);
    memcpy(cfg.seat_secret, secret, LOBBY_SEAT_SECRET_BYTES);
    cfg.id = guest_of(secret);
    peer_open(p, &cfg, from);
    WAIT_FOR(p->welcomed || p->disconnected, 2000);
}

static inline void peer_watch(Peer *p, const char *code, uint64_t from)
{
    Lobby_Client_Config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.role = LOBBY_ROLE_SPECTATOR;
    cr_assert_eq(lobby_code_parse(code, &cfg.watch), 0);
    peer_open(p, &cfg, from);
    WAIT_FOR(p->welcomed || p->disconnected, 2000);
}

static inline void peer_say(Peer *p, const char *text)
{
    cr_assert_eq(lobby_client_send(p->c, text, strlen(text)), 0);
}

static inline void peer_free(Peer *p)
{
    lobby_client_free(p->c);
    p->c = NULL;
}

__attribute__((unused)) static const uint8_t
    guest_secret[LOBBY_SEAT_SECRET_BYTES] = {
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 1};

/* ---- a sender outrunning its reader (FLOOD) ---- */

/* The flooder's close as it sees it: the lobby's FLOOD (TB_E_LIMIT), or,
 * when its frames still in flight meet the closed socket first, the
 * reset that hides it. dropped_flood in the counters says which it was. */
static inline int flooder_closed(int reason)
{
    return reason == TB_E_LIMIT || reason == UV_EPIPE ||
           reason == UV_ECONNRESET || reason == UV_EOF;
}

/* Issue 16 case 4, in a room that keeps 32 frames: the host sends h1
 * (seq 1), which the guest gets, and goes away; the guest sends g0, g1,
 * ... (up to 100) until it is closed. h1 and g0..g30 fill the 32
 * places; g31 (seq 33) drops h1, which the host had; g32 would drop g0,
 * which it has not had: refused, and the guest closed. Returns the
 * host's last sequence number (1). */
static inline uint64_t flood_while_host_away(Peer *host, Peer *guest)
{
    char text[16];
    uint64_t had;

    peer_say(host, "h1");
    WAIT_FOR(guest->total == 1 && host->last_ack == 1, 2000);
    had = lobby_client_last_seq(host->c);
    cr_assert_eq(had, 1);
    lobby_client_close(host->c);
    WAIT_FOR(host->disconnected, 2000);
    loop_for(100); /* the lobby sees the host go */
    for (int i = 0; i < 100 && lobby_client_connected(guest->c); i++) {
        snprintf(text, sizeof text, "g%d", i);
        (void)lobby_client_send(guest->c, text, strlen(text));
        uv_run(&test_loop, UV_RUN_NOWAIT);
    }
    WAIT_FOR(guest->disconnected, 3000);
    cr_assert(flooder_closed(guest->reason), "reason %d", guest->reason);
    cr_assert_leq(guest->last_ack, 33);
    return had;
}

/* The host of flood_while_host_away comes back from had and finds no
 * gap: seqs 2..33, g0..g31. */
static inline void flood_host_finds_no_gap(Peer *host, uint64_t had)
{
    char text[16];
    cr_assert_eq(lobby_client_resume(host->c, had), 0);
    WAIT_FOR(host->total == 32, 2000);
    cr_assert_eq(host->w.first_seq, 2);
    cr_assert_eq(host->total, 32);
    for (size_t i = 0; i < 32; i++) {
        cr_assert_eq(host->seq[i], 2 + i);
        snprintf(text, sizeof text, "g%zu", i);
        cr_assert_str_eq(host->text[i], text);
    }
}

/* ---- raw hellos and answers ---- */

/* A JOIN's bytes (docs/protocol-lobby.md) of lookup by the guest of
 * secret (guest_of), its proof signed, asking after from. */
static inline size_t join_bytes(uint8_t m[LOBBY_LEN_JOIN],
                                const uint8_t lookup[LOBBY_LOOKUP_BYTES],
                                const uint8_t *secret, uint64_t from)
{
    Proto_Identity g = guest_of(secret);
    size_t at = 2 + LOBBY_LOOKUP_BYTES + LOBBY_SEAT_SECRET_BYTES;
    m[0] = LOBBY_MSG_JOIN;
    m[1] = LOBBY_WIRE_VERSION;
    memcpy(m + 2, lookup, LOBBY_LOOKUP_BYTES);
    memcpy(m + 2 + LOBBY_LOOKUP_BYTES, secret, LOBBY_SEAT_SECRET_BYTES);
    memcpy(m + at, g.pk, LOBBY_KEY_BYTES);
    cr_assert_eq(lobby_seat_prove(m, at + LOBBY_KEY_BYTES, &g,
                                  m + at + LOBBY_KEY_BYTES),
                 0);
    lobby__put64(m + LOBBY_LEN_JOIN - 8, from);
    return LOBBY_LEN_JOIN;
}

/* A CREATE's bytes of room lookup inv and watch lookup wat by host
 * (seat secret secret, naming no guest), its proof signed, asking after
 * from. */
static inline size_t create_bytes(uint8_t m[LOBBY_LEN_CREATE],
                                  const uint8_t inv[LOBBY_LOOKUP_BYTES],
                                  const uint8_t wat[LOBBY_LOOKUP_BYTES],
                                  const Proto_Identity *host,
                                  const uint8_t *secret, uint64_t from)
{
    size_t at = 2 + 2 * LOBBY_LOOKUP_BYTES + LOBBY_KEY_BYTES +
                LOBBY_SEAT_SECRET_BYTES + LOBBY_KEY_BYTES;
    m[0] = LOBBY_MSG_CREATE;
    m[1] = LOBBY_WIRE_VERSION;
    memcpy(m + 2, inv, LOBBY_LOOKUP_BYTES);
    memcpy(m + 2 + LOBBY_LOOKUP_BYTES, wat, LOBBY_LOOKUP_BYTES);
    memcpy(m + 2 + 2 * LOBBY_LOOKUP_BYTES, host->pk, LOBBY_KEY_BYTES);
    memcpy(m + 2 + 2 * LOBBY_LOOKUP_BYTES + LOBBY_KEY_BYTES, secret,
           LOBBY_SEAT_SECRET_BYTES);
    memset(m + at - LOBBY_KEY_BYTES, 0, LOBBY_KEY_BYTES);
    cr_assert_eq(lobby_seat_prove(m, at, host, m + at), 0);
    lobby__put64(m + LOBBY_LEN_CREATE - 8, from);
    return LOBBY_LEN_CREATE;
}

/* A raw JOIN (type LOBBY_MSG_JOIN, by the guest of secret) or WATCH of
 * lookup. */
static inline void raw_enter(Raw_Peer *p, const char *from, int type,
                      const uint8_t lookup[LOBBY_LOOKUP_BYTES],
                      const uint8_t *secret)
{
    uint8_t m[LOBBY_LEN_JOIN];
    size_t n = LOBBY_LEN_WATCH;
    memset(m, 0, sizeof m);
    m[0] = (uint8_t)type;
    m[1] = LOBBY_WIRE_VERSION;
    memcpy(m + 2, lookup, LOBBY_LOOKUP_BYTES);
    if (type == LOBBY_MSG_JOIN)
        n = join_bytes(m, lookup, secret, 0);
    raw_connect_from(p, lobby_port, 1, from);
    raw_frame(p, m, n);
}

/* The lobby's first answer: -1 none yet, 0 WELCOME, else the ERROR
 * code. */
static inline int answer(const Raw_Peer *p)
{
    if (p->received < 6)
        return p->eof ? -2 : -1;
    if (p->in[4] == LOBBY_MSG_WELCOME)
        return 0;
    if (p->in[4] == LOBBY_MSG_ERROR)
        return p->in[5];
    return -3;
}

#endif /* TABULA_TEST_LOBBY_UTIL_H */
