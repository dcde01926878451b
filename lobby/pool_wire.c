/*
 * pool_wire.c: the pool's messages (lobby_wire.h, "the pool"): POOL, the
 * offer a player's client sends as its hello, POOL_WAIT, how many offers
 * wait for each game, and PAIRED, who hosts which game at which clock.
 * The relay (lobby/room_pool.c) and the client (lobby/client.c) both
 * build and read them here, so both speak the bytes of
 * docs/protocol-lobby.md, "Pool". No libuv.
 */
#include <stdio.h>
#include <string.h>

#include "tb_error.h"
#include "wire_internal.h"

_Static_assert(LOBBY_WIRE_POOL_MAX <= LOBBY_WIRE_MESSAGE_MAX,
               "a POOL fits a client's frame");

/* The canonical text of the range lo..hi into out (cap bytes, no NUL
 * needed): its length, 0 for no clock, -1 when it cannot be written. */
static int range_text(const Proto_Clock *lo, const Proto_Clock *hi,
                      char out[LOBBY_POOL_RANGE_MAX + 1])
{
    char a[PROTO_CLOCK_TEXT_MAX], b[PROTO_CLOCK_TEXT_MAX];
    int n;

    if (lo == NULL || hi == NULL ||
        (lo->kind == PROTO_CLOCK_NONE && hi->kind == PROTO_CLOCK_NONE))
        return 0;
    if (lo->kind != hi->kind ||
        proto_clock_estimate_ms(lo) > proto_clock_estimate_ms(hi) ||
        proto_clock_format(lo, a, sizeof a) != 0 ||
        proto_clock_format(hi, b, sizeof b) != 0 || a[0] == '\0' ||
        b[0] == '\0')
        return -1;
    n = snprintf(out, LOBBY_POOL_RANGE_MAX + 1, "%s..%s", a, b);
    return n > 0 && n <= LOBBY_POOL_RANGE_MAX ? n : -1;
}

/* (signed before a POOL's bytes, its NUL included) */
static const char pool_label[] = "tabula pool 1";

size_t lobby_wire_pool(uint8_t out[LOBBY_WIRE_POOL_MAX],
                       const Proto_Identity *player, uint16_t games,
                       const Proto_Clock *lo, const Proto_Clock *hi,
                       uint16_t want_lo, uint16_t want_hi,
                       const uint8_t *card, size_t card_len)
{
    char text[LOBBY_POOL_RANGE_MAX + 1];
    int n = range_text(lo, hi, text);
    size_t at;

    if (out == NULL || player == NULL || games == 0 || n < 0 ||
        card == NULL || card_len < LOBBY_SEEK_CARD_MIN ||
        card_len > LOBBY_SEEK_CARD_MAX || want_lo > want_hi)
        return 0;
    out[0] = LOBBY_WIRE_POOL_TYPE;
    out[1] = LOBBY_WIRE_POOL_VERSION;
    out[2] = (uint8_t)(games >> 8);
    out[3] = (uint8_t)games;
    out[4] = (uint8_t)n;
    memcpy(out + 5, text, (size_t)n);
    at = 5 + (size_t)n;
    out[at] = (uint8_t)(want_lo >> 8);
    out[at + 1] = (uint8_t)want_lo;
    out[at + 2] = (uint8_t)(want_hi >> 8);
    out[at + 3] = (uint8_t)want_hi;
    at += 4;
    memcpy(out + at, player->pk, LOBBY_KEY_BYTES);
    at += LOBBY_KEY_BYTES;
    memcpy(out + at, card, card_len);
    at += card_len;
    if (lobby__prove(pool_label, out, at, player, out + at) != 0)
        return 0;
    return at + LOBBY_SEAT_PROOF_BYTES;
}

int lobby_wire_pool_read(const uint8_t *msg, size_t len, Lobby_Pool_Ask *out)
{
    char text[LOBBY_POOL_RANGE_MAX + 1], again[LOBBY_POOL_RANGE_MAX + 1];
    size_t n;
    int rc;

    if (msg == NULL || out == NULL || len < LOBBY_WIRE_POOL_MIN ||
        len > LOBBY_WIRE_POOL_MAX || msg[0] != LOBBY_WIRE_POOL_TYPE)
        return TB_E_FORMAT;
    memset(out, 0, sizeof *out);
    if (msg[1] != LOBBY_WIRE_POOL_VERSION)
        return TB_E_VERSION;
    out->games = (uint16_t)(msg[2] << 8 | msg[3]);
    n = msg[4];
    if (out->games == 0 || n > LOBBY_POOL_RANGE_MAX ||
        len - 9 < n + LOBBY_KEY_BYTES + LOBBY_SEEK_CARD_MIN +
                      LOBBY_SEAT_PROOF_BYTES)
        return TB_E_FORMAT;
    out->want_lo = (uint16_t)(msg[5 + n] << 8 | msg[6 + n]);
    out->want_hi = (uint16_t)(msg[7 + n] << 8 | msg[8 + n]);
    if (out->want_lo > out->want_hi)
        return TB_E_FORMAT;
    if (n > 0) { /* read once by the one grammar, then held to its form */
        memcpy(text, msg + 5, n);
        text[n] = '\0';
        if (memchr(text, '\0', n) != NULL ||
            proto_clock_range_parse(text, 0, &out->lo, &out->hi, NULL) != 0 ||
            range_text(&out->lo, &out->hi, again) != (int)n ||
            memcmp(again, text, n) != 0)
            return TB_E_FORMAT;
    }
    /* the player's proof first: a forgery costs no card check */
    rc = lobby__proof_ok(pool_label, msg, len - LOBBY_SEAT_PROOF_BYTES,
                         msg + 9 + n, msg + len - LOBBY_SEAT_PROOF_BYTES);
    if (rc != 0)
        return rc == TB_E_ARG ? TB_E_FORMAT : rc;
    memcpy(out->player_pk, msg + 9 + n, LOBBY_KEY_BYTES);
    out->card_bytes = msg + 9 + n + LOBBY_KEY_BYTES;
    out->card_len =
        len - 9 - n - LOBBY_KEY_BYTES - LOBBY_SEAT_PROOF_BYTES;
    return lobby_seek_card_read(out->card_bytes, out->card_len, &out->card);
}

size_t lobby_wire_pool_wait(uint8_t out[LOBBY_WIRE_POOL_WAIT_LEN],
                            const uint32_t counts[LOBBY_POOL_GAMES])
{
    out[0] = LOBBY_WIRE_POOL_WAIT_TYPE;
    for (size_t i = 0; i < LOBBY_POOL_GAMES; i++)
        lobby__put32(out + 1 + 4 * i, counts[i]);
    return LOBBY_WIRE_POOL_WAIT_LEN;
}

int lobby_wire_pool_wait_read(const uint8_t *msg, size_t len,
                              uint32_t counts[LOBBY_POOL_GAMES])
{
    if (msg == NULL || len != LOBBY_WIRE_POOL_WAIT_LEN ||
        msg[0] != LOBBY_WIRE_POOL_WAIT_TYPE)
        return TB_E_FORMAT;
    for (size_t i = 0; i < LOBBY_POOL_GAMES; i++)
        counts[i] = lobby__get32(msg + 1 + 4 * i);
    return 0;
}

/* Match options as a card holds them: printable ASCII, no space. */
static int options_ok(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] <= 0x20 || s[i] > 0x7e)
            return 0;
    return 1;
}

/* PAIRED's fields: where each begins. */
enum {
    PAIRED_ROLE = 1,
    PAIRED_GAME = 2,
    PAIRED_CODE = 3,
    PAIRED_KEY = PAIRED_CODE + LOBBY_CODE_SYMBOLS,
    PAIRED_CLOCK = PAIRED_KEY + LOBBY_KEY_BYTES /* its length byte */
};

size_t lobby_wire_paired(uint8_t out[LOBBY_WIRE_PAIRED_MAX],
                         const Lobby_Paired *p)
{
    char c[PROTO_CLOCK_TEXT_MAX];
    size_t n, k;

    if (out == NULL || p == NULL ||
        (p->role != LOBBY_ROLE_HOST && p->role != LOBBY_ROLE_GUEST) ||
        p->game >= LOBBY_POOL_GAMES ||
        proto_clock_format(&p->clock, c, sizeof c) != 0 ||
        (c[0] == '\0') != (p->clock.kind == PROTO_CLOCK_NONE) ||
        memchr(p->options, '\0', sizeof p->options) == NULL ||
        !options_ok(p->options, k = strlen(p->options)))
        return 0;
    n = strlen(c);
    out[0] = LOBBY_WIRE_PAIRED_TYPE;
    out[PAIRED_ROLE] = (uint8_t)p->role;
    out[PAIRED_GAME] = (uint8_t)p->game;
    memcpy(out + PAIRED_CODE, p->invite.secret, LOBBY_CODE_SECRET_SYMBOLS);
    memcpy(out + PAIRED_CODE + LOBBY_CODE_SECRET_SYMBOLS,
           p->invite.fingerprint, 4);
    memcpy(out + PAIRED_KEY, p->guest_pk, LOBBY_KEY_BYTES);
    out[PAIRED_CLOCK] = (uint8_t)n;
    memcpy(out + PAIRED_CLOCK + 1, c, n);
    out[PAIRED_CLOCK + 1 + n] = (uint8_t)k;
    memcpy(out + PAIRED_CLOCK + 2 + n, p->options, k);
    return LOBBY_WIRE_PAIRED_MIN + n + k;
}

int lobby_wire_paired_read(const uint8_t *msg, size_t len, Lobby_Paired *out)
{
    char code[LOBBY_CODE_SYMBOLS + 1], c[PROTO_CLOCK_TEXT_MAX],
        again[PROTO_CLOCK_TEXT_MAX];
    size_t n, k;
    int rc;

    if (msg == NULL || out == NULL || len < LOBBY_WIRE_PAIRED_MIN ||
        len > LOBBY_WIRE_PAIRED_MAX || msg[0] != LOBBY_WIRE_PAIRED_TYPE)
        return TB_E_FORMAT;
    memset(out, 0, sizeof *out);
    n = msg[PAIRED_CLOCK];
    if (msg[PAIRED_ROLE] > LOBBY_ROLE_GUEST ||
        msg[PAIRED_GAME] >= LOBBY_POOL_GAMES || n >= PROTO_CLOCK_TEXT_MAX ||
        len < LOBBY_WIRE_PAIRED_MIN + n)
        return TB_E_FORMAT;
    k = msg[PAIRED_CLOCK + 1 + n];
    if (len != LOBBY_WIRE_PAIRED_MIN + n + k ||
        !options_ok((const char *)msg + PAIRED_CLOCK + 2 + n, k))
        return TB_E_FORMAT;
    memcpy(out->options, msg + PAIRED_CLOCK + 2 + n, k);
    out->role = (Lobby_Role)msg[PAIRED_ROLE];
    out->game = msg[PAIRED_GAME];
    memcpy(code, msg + PAIRED_CODE, LOBBY_CODE_SYMBOLS);
    code[LOBBY_CODE_SYMBOLS] = '\0';
    rc = lobby_code_parse(code, &out->invite);
    if (rc != 0)
        return rc == TB_E_CRYPTO ? rc : TB_E_FORMAT;
    /* (one form: the alphabet's own symbols, as written; the parser
     * would take a typed code's small letters too) */
    if (memcmp(out->invite.secret, code, LOBBY_CODE_SECRET_SYMBOLS) != 0 ||
        memcmp(out->invite.fingerprint, code + LOBBY_CODE_SECRET_SYMBOLS, 4) !=
            0)
        return TB_E_FORMAT;
    memcpy(out->guest_pk, msg + PAIRED_KEY, LOBBY_KEY_BYTES);
    if (n > 0) {
        memcpy(c, msg + PAIRED_CLOCK + 1, n);
        c[n] = '\0';
        if (memchr(c, '\0', n) != NULL ||
            proto_clock_parse(c, 0, &out->clock, NULL) != 0 ||
            proto_clock_format(&out->clock, again, sizeof again) != 0 ||
            strcmp(again, c) != 0)
            return TB_E_FORMAT;
    }
    return 0;
}
