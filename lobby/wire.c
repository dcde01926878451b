/*
 * wire.c: the client side of the lobby's messages without I/O
 * (lobby_wire.h): building CREATE, JOIN and WATCH, and reading WELCOME,
 * FRAME, ACK, PRESENCE and ERROR with their exact lengths, the check of
 * the host key against the code, the sequence numbers a client holds and
 * the relay's receipts as the messages carry them (their signatures are
 * the session's to check: it knows the payload and the room). lobby/
 * client.c runs it over TCP, the page's module over a WebSocket. The
 * relay's builders of the same messages are at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tb_error.h"
#include "wire_internal.h"

struct Lobby_Wire {
    Lobby_Wire_Config cfg;
    uint64_t last_seq;
    int admitted;
    uint8_t relay_pk[LOBBY_KEY_BYTES]; /* the node of this connection */
};

/* Where the fields of the relay's messages are (docs/protocol-lobby.md). */
enum {
    WELCOME_HOST = 2,
    WELCOME_FIRST = WELCOME_HOST + LOBBY_KEY_BYTES,
    WELCOME_NEXT = WELCOME_FIRST + 8,
    WELCOME_PRESENCE = WELCOME_NEXT + 8,
    WELCOME_RELAY = WELCOME_PRESENCE + 1,
    WELCOME_TIME = WELCOME_RELAY + LOBBY_KEY_BYTES,
    WELCOME_GUEST = WELCOME_TIME + 8,
    FRAME_SEQ = 1,
    FRAME_FROM = 9,
    FRAME_TIME = 10, /* then the signature */
    ACK_SEQ = 1,
    ACK_TIME = 9,
    PRESENCE_SEAT = 1,
    PRESENCE_PRESENT = 2,
    PRESENCE_SEQ = 3,
    PRESENCE_GUEST = 11,
    PRESENCE_TIME = PRESENCE_GUEST + LOBBY_KEY_BYTES,
    /* CREATE and JOIN: the player's key, the proof, then the number */
    CREATE_GUEST = 2 + 2 * LOBBY_LOOKUP_BYTES + LOBBY_KEY_BYTES +
                   LOBBY_SEAT_SECRET_BYTES,
    JOIN_KEY = 2 + LOBBY_LOOKUP_BYTES + LOBBY_SEAT_SECRET_BYTES
};
_Static_assert(WELCOME_GUEST + LOBBY_KEY_BYTES == LOBBY_LEN_WELCOME &&
                   CREATE_GUEST + LOBBY_KEY_BYTES + LOBBY_SEAT_PROOF_BYTES +
                           8 ==
                       LOBBY_LEN_CREATE &&
                   JOIN_KEY + LOBBY_KEY_BYTES + LOBBY_SEAT_PROOF_BYTES + 8 ==
                       LOBBY_LEN_JOIN &&
                   FRAME_TIME + LOBBY_RECEIPT_TAIL == LOBBY_FRAME_HEADER &&
                   ACK_TIME + LOBBY_RECEIPT_TAIL == LOBBY_LEN_ACK &&
                   PRESENCE_TIME + LOBBY_RECEIPT_TAIL == LOBBY_LEN_PRESENCE,
               "the fields fill each message");

/* A receipt's time, absences and signature at p (LOBBY_RECEIPT_TAIL
 * bytes). */
static void tail_put(uint8_t *p, const Proto_Receipt *r)
{
    lobby__put64(p, r->time_ms);
    lobby__put32(p + 8, r->absent_ms[0]);
    lobby__put32(p + 12, r->absent_ms[1]);
    memcpy(p + 16, r->sig, PROTO_SIG_BYTES);
}

static void tail_get(const uint8_t *p, Proto_Receipt *r)
{
    r->time_ms = lobby__get64(p);
    r->absent_ms[0] = lobby__get32(p + 8);
    r->absent_ms[1] = lobby__get32(p + 12);
    memcpy(r->sig, p + 16, PROTO_SIG_BYTES);
}

/* The TB_E_* code a client reports for the lobby's ERROR code. */
static int error_code(int wire)
{
    switch (wire) {
    case LOBBY_ERR_VERSION:
        return TB_E_VERSION;
    case LOBBY_ERR_CODE:
        return TB_E_CODE;
    case LOBBY_ERR_RATE:
        return TB_E_RATE;
    case LOBBY_ERR_FULL:
        return TB_E_FULL;
    case LOBBY_ERR_ADDRESS: /* the address's share, not the lobby's */
        return TB_E_ADDRESS;
    case LOBBY_ERR_SEAT:
        return TB_E_SEAT;
    case LOBBY_ERR_REPLACED:
        return TB_E_REPLACED;
    case LOBBY_ERR_TOO_BIG:
    case LOBBY_ERR_FLOOD:
        return TB_E_LIMIT;
    case LOBBY_ERR_NOT_ALLOWED:
        return TB_E_STATE;
    case LOBBY_ERR_SEEKS:
        return TB_E_SEEKS;
    case LOBBY_ERR_RATING:
        return TB_E_RATING;
    case LOBBY_ERR_TIMEOUT:
        return -ETIMEDOUT; /* libuv's UV_ETIMEDOUT on Unix */
    default:
        return TB_E_FORMAT;
    }
}

static int zero(const uint8_t *p, size_t n)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++)
        d |= p[i];
    return d == 0;
}

/* The code this client enters the room with. */
static const Lobby_Code *entry_code(const Lobby_Wire *w)
{
    if (w->cfg.role == LOBBY_ROLE_SPECTATOR &&
        zero(w->cfg.invite.lookup, LOBBY_LOOKUP_BYTES))
        return &w->cfg.watch;
    return &w->cfg.invite;
}

int lobby_wire_new(const Lobby_Wire_Config *cfg, uint64_t last_seq,
                   Lobby_Wire **out)
{
    Lobby_Wire *w;
    if (out == NULL)
        return TB_E_ARG;
    *out = NULL;
    if (cfg == NULL || (unsigned)cfg->role > LOBBY_ROLE_SPECTATOR)
        return TB_E_ARG;
    if ((w = calloc(1, sizeof *w)) == NULL)
        return TB_E_NOMEM;
    w->cfg = *cfg;
    w->last_seq = last_seq;
    *out = w;
    return 0;
}

void lobby_wire_free(Lobby_Wire *w)
{
    if (w != NULL) {
        memset(w, 0, sizeof *w); /* the seat secret, the player's key */
        free(w);
    }
}

void lobby_wire_name_guest(Lobby_Wire *w, const uint8_t *pk)
{
    if (w != NULL && pk != NULL)
        memcpy(w->cfg.guest_pk, pk, LOBBY_KEY_BYTES);
}

/* A CREATE's or JOIN's end: the proof of m[0..n) by the player's key,
 * then from_seq; its whole length (0: not signed). */
static size_t proved(const Lobby_Wire *w, uint8_t *m, size_t n,
                     uint64_t from_seq)
{
    if (lobby_seat_prove(m, n, &w->cfg.id, m + n) != 0)
        return 0;
    lobby__put64(m + n + LOBBY_SEAT_PROOF_BYTES, from_seq);
    return n + LOBBY_SEAT_PROOF_BYTES + 8;
}

size_t lobby_wire_hello(Lobby_Wire *w, uint64_t from_seq,
                        uint8_t m[LOBBY_WIRE_HELLO_MAX])
{
    w->admitted = 0;
    w->last_seq = from_seq;
    m[1] = LOBBY_WIRE_VERSION;
    if (w->cfg.role == LOBBY_ROLE_HOST) {
        uint8_t *p = m + 2;
        m[0] = LOBBY_MSG_CREATE;
        memcpy(p, w->cfg.invite.lookup, LOBBY_LOOKUP_BYTES);
        memcpy(p += LOBBY_LOOKUP_BYTES, w->cfg.watch.lookup,
               LOBBY_LOOKUP_BYTES);
        memcpy(p += LOBBY_LOOKUP_BYTES, w->cfg.host_pk, LOBBY_KEY_BYTES);
        memcpy(p += LOBBY_KEY_BYTES, w->cfg.seat_secret,
               LOBBY_SEAT_SECRET_BYTES);
        memcpy(m + CREATE_GUEST, w->cfg.guest_pk, LOBBY_KEY_BYTES);
        return proved(w, m, CREATE_GUEST + LOBBY_KEY_BYTES, from_seq);
    }
    if (w->cfg.role == LOBBY_ROLE_GUEST) {
        m[0] = LOBBY_MSG_JOIN;
        memcpy(m + 2, w->cfg.invite.lookup, LOBBY_LOOKUP_BYTES);
        memcpy(m + 2 + LOBBY_LOOKUP_BYTES, w->cfg.seat_secret,
               LOBBY_SEAT_SECRET_BYTES);
        memcpy(m + JOIN_KEY, w->cfg.id.pk, LOBBY_KEY_BYTES);
        return proved(w, m, JOIN_KEY + LOBBY_KEY_BYTES, from_seq);
    }
    m[0] = LOBBY_MSG_WATCH;
    memcpy(m + 2, entry_code(w)->lookup, LOBBY_LOOKUP_BYTES);
    lobby__put64(m + 2 + LOBBY_LOOKUP_BYTES, from_seq);
    return LOBBY_LEN_WATCH;
}

int lobby_wire_welcome_read(const uint8_t *p, size_t len, Lobby_Welcome *wl)
{
    memset(wl, 0, sizeof *wl);
    if (p == NULL || len != LOBBY_LEN_WELCOME || p[0] != LOBBY_MSG_WELCOME ||
        p[1] > LOBBY_ROLE_SPECTATOR)
        return TB_E_FORMAT;
    wl->role = (Lobby_Role)p[1];
    memcpy(wl->host_pk, p + WELCOME_HOST, LOBBY_KEY_BYTES);
    wl->first_seq = lobby__get64(p + WELCOME_FIRST);
    wl->next_seq = lobby__get64(p + WELCOME_NEXT);
    /* Numbers no lobby gives (frames are numbered from 1; a lobby takes
     * no CREATE resuming after LOBBY_SEQ_MAX, so no number the seat keeps
     * may pass it): a relay's lie here would become the seat's resume
     * point and lock it out of every honest lobby. */
    if (wl->next_seq == 0 || wl->next_seq > LOBBY_SEQ_MAX + 1 ||
        wl->first_seq >= wl->next_seq)
        return TB_E_FORMAT;
    wl->host_present = p[WELCOME_PRESENCE] & 1;
    wl->guest_present = (p[WELCOME_PRESENCE] >> 1) & 1;
    memcpy(wl->relay_pk, p + WELCOME_RELAY, LOBBY_KEY_BYTES);
    wl->relay_time = lobby__get64(p + WELCOME_TIME);
    memcpy(wl->guest_pk, p + WELCOME_GUEST, LOBBY_KEY_BYTES);
    return 0;
}

static int read_welcome(Lobby_Wire *w, const uint8_t *p, Lobby_Wire_Event *ev)
{
    Lobby_Welcome *wl = &ev->welcome;

    if (lobby_wire_welcome_read(p, LOBBY_LEN_WELCOME, wl) != 0)
        return TB_E_FORMAT;
    /* The host knows its own key; everyone else checks it against the
     * code, so a lobby cannot send a joiner to another host. */
    if (w->cfg.role == LOBBY_ROLE_HOST
            ? !lobby__equal(wl->host_pk, w->cfg.host_pk, LOBBY_KEY_BYTES)
            : lobby_code_check_host(entry_code(w), wl->host_pk) != 0)
        return TB_E_SIGNATURE;
    if ((w->cfg.role == LOBBY_ROLE_SPECTATOR) !=
        (wl->role == LOBBY_ROLE_SPECTATOR))
        return TB_E_FORMAT;
    w->admitted = 1;
    memcpy(w->relay_pk, wl->relay_pk, LOBBY_KEY_BYTES);
    /* A lobby that numbers below what we hold lost the room (a restart)
     * and it was re-registered: follow its numbering from here on. */
    if (wl->next_seq <= w->last_seq)
        w->last_seq = wl->next_seq - 1;
    ev->kind = LOBBY_WIRE_WELCOME;
    return 0;
}

/* The receipt of kind and seq whose time and signature are at tail, from
 * this connection's node. */
static void receipt_of(const Lobby_Wire *w, int kind, uint64_t seq,
                       const uint8_t *tail, Proto_Receipt *r)
{
    memcpy(r->relay, w->relay_pk, LOBBY_KEY_BYTES);
    r->kind = (uint8_t)kind;
    r->seq = seq;
    tail_get(tail, r);
}

int lobby_wire_read(Lobby_Wire *w, const uint8_t *p, size_t len,
                    Lobby_Wire_Event *ev)
{
    uint64_t seq;

    memset(ev, 0, sizeof *ev);
    if (w == NULL || p == NULL || len == 0)
        return TB_E_FORMAT;
    if (!w->admitted && p[0] != LOBBY_MSG_WELCOME && p[0] != LOBBY_MSG_ERROR)
        return TB_E_FORMAT;
    switch (p[0]) {
    case LOBBY_MSG_WELCOME:
        if (len != LOBBY_LEN_WELCOME || w->admitted)
            break;
        return read_welcome(w, p, ev);
    case LOBBY_MSG_FRAME:
        if (len <= LOBBY_FRAME_HEADER || p[FRAME_FROM] > LOBBY_ROLE_GUEST)
            break;
        seq = lobby__get64(p + FRAME_SEQ);
        if (seq > LOBBY_SEQ_MAX + 1)
            break; /* no lobby numbers so far (read_welcome) */
        if (seq <= w->last_seq)
            return 0; /* already have it */
        w->last_seq = seq;
        ev->kind = LOBBY_WIRE_FRAME;
        ev->seq = seq;
        ev->from = (Lobby_Role)p[FRAME_FROM];
        ev->data = p + LOBBY_FRAME_HEADER;
        ev->len = len - LOBBY_FRAME_HEADER;
        receipt_of(w, PROTO_RECEIPT_FRAME, seq, p + FRAME_TIME, &ev->receipt);
        return 0;
    case LOBBY_MSG_ACK:
        if (len != LOBBY_LEN_ACK)
            break;
        seq = lobby__get64(p + ACK_SEQ);
        if (seq > LOBBY_SEQ_MAX + 1)
            break; /* as FRAME */
        if (seq > w->last_seq)
            w->last_seq = seq;
        ev->kind = LOBBY_WIRE_ACK;
        ev->seq = seq;
        receipt_of(w, PROTO_RECEIPT_FRAME, seq, p + ACK_TIME, &ev->receipt);
        return 0;
    case LOBBY_MSG_PRESENCE:
        if (len != LOBBY_LEN_PRESENCE || p[PRESENCE_SEAT] > LOBBY_ROLE_GUEST ||
            p[PRESENCE_PRESENT] > 1)
            break;
        seq = lobby__get64(p + PRESENCE_SEQ);
        if (seq > LOBBY_SEQ_MAX + 1)
            break; /* as FRAME */
        ev->kind = LOBBY_WIRE_PRESENCE;
        ev->seat = (Lobby_Role)p[PRESENCE_SEAT];
        ev->present = p[PRESENCE_PRESENT];
        receipt_of(w, PROTO_RECEIPT_PRESENCE, seq, p + PRESENCE_TIME,
                   &ev->receipt);
        ev->receipt.seat = p[PRESENCE_SEAT];
        ev->receipt.present = p[PRESENCE_PRESENT];
        memcpy(ev->guest_pk, p + PRESENCE_GUEST, LOBBY_KEY_BYTES);
        memcpy(ev->receipt.guest, ev->guest_pk, LOBBY_KEY_BYTES);
        return 0;
    case LOBBY_MSG_SEEKED: /* the answer to our SEEK: a host's only */
        if (len != LOBBY_LEN_SEEKED || w->cfg.role != LOBBY_ROLE_HOST)
            break;
        ev->kind = LOBBY_WIRE_SEEKED;
        ev->reason = p[1] == 0 ? 0 : error_code(p[1]);
        return 0;
    case LOBBY_MSG_BEAT: /* the relay is alive: nothing else */
        if (len != LOBBY_LEN_BEAT)
            break;
        return 0;
    case LOBBY_MSG_ERROR:
        if (len != LOBBY_LEN_ERROR)
            break;
        /* Before admission, a joiner is refused "not allowed" only for
         * a watch code (lobby/room.c on_join): say so. */
        ev->kind = LOBBY_WIRE_REFUSED;
        ev->reason = !w->admitted && w->cfg.role == LOBBY_ROLE_GUEST &&
                             p[1] == LOBBY_ERR_NOT_ALLOWED
                         ? TB_E_WATCH_CODE
                         : error_code(p[1]);
        return 0;
    default:
        break;
    }
    return TB_E_FORMAT;
}

int lobby_wire_error_read(const uint8_t *msg, size_t len)
{
    if (msg == NULL || len != LOBBY_LEN_ERROR || msg[0] != LOBBY_MSG_ERROR)
        return TB_E_FORMAT;
    return error_code(msg[1]);
}

int lobby_wire_data_check(const Lobby_Wire *w, size_t len, size_t max_payload)
{
    if (w == NULL || len == 0)
        return TB_E_ARG;
    if (!w->admitted || w->cfg.role == LOBBY_ROLE_SPECTATOR)
        return TB_E_STATE;
    if (len > max_payload)
        return TB_E_LIMIT;
    return 0;
}

void lobby_wire_keep(uint8_t out[LOBBY_WIRE_KEEP_LEN], uint32_t seconds)
{
    out[0] = LOBBY_MSG_KEEP;
    lobby__put32(out + 1, seconds);
}

void lobby_wire_closed(Lobby_Wire *w) { w->admitted = 0; }

int lobby_wire_admitted(const Lobby_Wire *w) { return w->admitted; }

uint64_t lobby_wire_last_seq(const Lobby_Wire *w) { return w->last_seq; }

const Lobby_Wire_Config *lobby_wire_config(const Lobby_Wire *w)
{
    return &w->cfg;
}

/* ---- the relay's side ------------------------------------------------ */

_Static_assert(LOBBY_WIRE_WELCOME_LEN == LOBBY_LEN_WELCOME &&
                   LOBBY_WIRE_ACK_LEN == LOBBY_LEN_ACK &&
                   LOBBY_WIRE_PRESENCE_LEN == LOBBY_LEN_PRESENCE &&
                   LOBBY_WIRE_ERROR_LEN == LOBBY_LEN_ERROR &&
                   LOBBY_WIRE_FRAME_HEADER == LOBBY_FRAME_HEADER,
               "lobby_wire.h's lengths are the protocol's");

size_t lobby_wire_welcome(uint8_t out[LOBBY_WIRE_WELCOME_LEN], int role,
                          const uint8_t host_pk[LOBBY_KEY_BYTES],
                          uint64_t first_seq, uint64_t next_seq,
                          unsigned presence,
                          const uint8_t relay_pk[LOBBY_KEY_BYTES],
                          uint64_t relay_time,
                          const uint8_t guest_pk[LOBBY_KEY_BYTES])
{
    out[0] = LOBBY_MSG_WELCOME;
    out[1] = (uint8_t)role;
    memcpy(out + WELCOME_HOST, host_pk, LOBBY_KEY_BYTES);
    lobby__put64(out + WELCOME_FIRST, first_seq);
    lobby__put64(out + WELCOME_NEXT, next_seq);
    out[WELCOME_PRESENCE] = (uint8_t)(presence & 3);
    memcpy(out + WELCOME_RELAY, relay_pk, LOBBY_KEY_BYTES);
    lobby__put64(out + WELCOME_TIME, relay_time);
    memcpy(out + WELCOME_GUEST, guest_pk, LOBBY_KEY_BYTES);
    return LOBBY_LEN_WELCOME;
}

size_t lobby_wire_ack(uint8_t out[LOBBY_WIRE_ACK_LEN], const Proto_Receipt *r)
{
    out[0] = LOBBY_MSG_ACK;
    lobby__put64(out + ACK_SEQ, r->seq);
    tail_put(out + ACK_TIME, r);
    return LOBBY_LEN_ACK;
}

size_t lobby_wire_presence(uint8_t out[LOBBY_WIRE_PRESENCE_LEN],
                           const Proto_Receipt *r)
{
    out[0] = LOBBY_MSG_PRESENCE;
    out[PRESENCE_SEAT] = r->seat;
    out[PRESENCE_PRESENT] = (uint8_t)(r->present != 0);
    lobby__put64(out + PRESENCE_SEQ, r->seq);
    memcpy(out + PRESENCE_GUEST, r->guest, LOBBY_KEY_BYTES);
    tail_put(out + PRESENCE_TIME, r);
    return LOBBY_LEN_PRESENCE;
}

size_t lobby_wire_frame_header(uint8_t out[LOBBY_WIRE_FRAME_HEADER], int from,
                               const Proto_Receipt *r)
{
    out[0] = LOBBY_MSG_FRAME;
    lobby__put64(out + FRAME_SEQ, r->seq);
    out[FRAME_FROM] = (uint8_t)from;
    tail_put(out + FRAME_TIME, r);
    return LOBBY_FRAME_HEADER;
}

void lobby_wire_frame_receipt(const uint8_t *msg, Proto_Receipt *out)
{
    memset(out, 0, sizeof *out);
    out->kind = PROTO_RECEIPT_FRAME;
    out->seq = lobby__get64(msg + FRAME_SEQ);
    tail_get(msg + FRAME_TIME, out);
}

size_t lobby_wire_refusal(uint8_t out[LOBBY_WIRE_ERROR_LEN], int reason)
{
    int code;
    switch (reason) {
    case TB_E_VERSION: code = LOBBY_ERR_VERSION; break;
    case TB_E_CODE: code = LOBBY_ERR_CODE; break;
    case TB_E_RATE: code = LOBBY_ERR_RATE; break;
    case TB_E_FULL: code = LOBBY_ERR_FULL; break;
    case TB_E_ADDRESS: code = LOBBY_ERR_ADDRESS; break;
    case TB_E_SEAT: code = LOBBY_ERR_SEAT; break;
    case TB_E_REPLACED: code = LOBBY_ERR_REPLACED; break;
    case TB_E_LIMIT: code = LOBBY_ERR_TOO_BIG; break;
    case TB_E_STATE: code = LOBBY_ERR_NOT_ALLOWED; break;
    default: code = LOBBY_ERR_PROTOCOL; break;
    }
    out[0] = LOBBY_MSG_ERROR;
    out[1] = (uint8_t)code;
    return LOBBY_LEN_ERROR;
}

int lobby_wire_hello_read(const uint8_t *msg, size_t len,
                          Lobby_Wire_Hello *h)
{
    const uint8_t *p = msg;
    memset(h, 0, sizeof *h);
    if (p == NULL || len < 2)
        return TB_E_FORMAT;
    h->version = p[1];
    switch (p[0]) {
    case LOBBY_MSG_CREATE:
        if (len != LOBBY_LEN_CREATE)
            return TB_E_FORMAT;
        h->role = LOBBY_ROLE_HOST;
        memcpy(h->lookup, p + 2, LOBBY_LOOKUP_BYTES);
        p += 2 + LOBBY_LOOKUP_BYTES;
        memcpy(h->watch_lookup, p, LOBBY_LOOKUP_BYTES);
        memcpy(h->host_pk, p += LOBBY_LOOKUP_BYTES, LOBBY_KEY_BYTES);
        memcpy(h->seat_secret, p += LOBBY_KEY_BYTES, LOBBY_SEAT_SECRET_BYTES);
        memcpy(h->player_pk, h->host_pk, LOBBY_KEY_BYTES);
        memcpy(h->guest_pk, msg + CREATE_GUEST, LOBBY_KEY_BYTES);
        h->from_seq = lobby__get64(msg + len - 8);
        break;
    case LOBBY_MSG_JOIN:
        if (len != LOBBY_LEN_JOIN)
            return TB_E_FORMAT;
        h->role = LOBBY_ROLE_GUEST;
        memcpy(h->lookup, p + 2, LOBBY_LOOKUP_BYTES);
        memcpy(h->seat_secret, p + 2 + LOBBY_LOOKUP_BYTES,
               LOBBY_SEAT_SECRET_BYTES);
        memcpy(h->player_pk, p + JOIN_KEY, LOBBY_KEY_BYTES);
        memcpy(h->guest_pk, h->player_pk, LOBBY_KEY_BYTES);
        h->from_seq = lobby__get64(msg + len - 8);
        break;
    case LOBBY_MSG_WATCH:
        if (len != LOBBY_LEN_WATCH)
            return TB_E_FORMAT;
        h->role = LOBBY_ROLE_SPECTATOR;
        memcpy(h->lookup, p + 2, LOBBY_LOOKUP_BYTES);
        h->from_seq = lobby__get64(p + 2 + LOBBY_LOOKUP_BYTES);
        break;
    default:
        return TB_E_FORMAT;
    }
    if (h->version != LOBBY_WIRE_VERSION)
        return TB_E_VERSION;
    if (h->role != LOBBY_ROLE_SPECTATOR) {
        size_t n = len - 8 - LOBBY_SEAT_PROOF_BYTES;
        return lobby_seat_proof_ok(msg, n, h->player_pk, msg + n);
    }
    return 0;
}

int lobby_wire_hello_ask(uint8_t *p, size_t len, uint64_t from_seq)
{
    Lobby_Wire_Hello h;
    if (lobby_wire_hello_read(p, len, &h) == TB_E_FORMAT)
        return TB_E_FORMAT;
    /* every hello ends with the number it asks from */
    lobby__put64(p + len - 8, from_seq);
    return 0;
}
