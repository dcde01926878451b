/*
 * seek_card.c: public seeks' cards and the messages that carry them
 * (lobby_wire.h, "public seeks"): the host signs its card, the relay and
 * every reader of a list check it, so a list the relay sends can name
 * no room but its host's and no name but the one its host signed. With
 * code.c, the files of lobby/ that include <sodium.h>.
 */
#include <sodium.h>
#include <string.h>

#include "tb_error.h"
#include "wire_internal.h"

/* (signed before the card's bytes, its NUL included) */
static const char seek_label[] = "tabula seek 1";
/* (signed by the named player before the host key and the code) */
static const char by_label[] = "tabula seek by 1";

#define CARD_VERSION 1
enum {
    CARD_KEY = 1,
    CARD_CODE = CARD_KEY + LOBBY_KEY_BYTES,
    CARD_GAME = CARD_CODE + LOBBY_CODE_SYMBOLS, /* its length byte */
    CARD_SIG_BYTES = 64
};

/* Which characters each field may hold (the name: a record, checked
 * whole). */
enum { FIELD_GAME, FIELD_OPTIONS, FIELD_NAME };

int lobby_seek_game_ok(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
            return 0;
    return 1;
}

static int field_ok(int field, const uint8_t *s, size_t n)
{
    if (field == FIELD_GAME)
        return lobby_seek_game_ok(s, n);
    for (size_t i = 0; field == FIELD_OPTIONS && i < n; i++)
        if (s[i] <= 0x20 || s[i] > 0x7e)
            return 0;
    return 1;
}

static const size_t field_max[] = {LOBBY_SEEK_GAME_MAX, LOBBY_SEEK_OPTIONS_MAX,
                                   LOBBY_SEEK_NAME_MAX};

/* The bytes a player's binding of its name to a seek signs: the label,
 * the host key and the code's 16 symbols (as the card has them at
 * CARD_KEY and CARD_CODE). */
static void by_input(const uint8_t *card,
                     uint8_t buf[sizeof by_label + LOBBY_KEY_BYTES +
                                 LOBBY_CODE_SYMBOLS])
{
    memcpy(buf, by_label, sizeof by_label);
    memcpy(buf + sizeof by_label, card + CARD_KEY,
           LOBBY_KEY_BYTES + LOBBY_CODE_SYMBOLS);
}

/* The bytes the card's signature signs: the label, then card[0..n). */
static int card_hash_input(const uint8_t *card, size_t n, uint8_t *buf,
                           size_t *len)
{
    if (n > LOBBY_SEEK_CARD_MAX)
        return TB_E_LIMIT;
    memcpy(buf, seek_label, sizeof seek_label);
    memcpy(buf + sizeof seek_label, card, n);
    *len = sizeof seek_label + n;
    return 0;
}

int lobby_seek_card(const Proto_Identity *id, const Lobby_Code *invite,
                    const char *game, const char *options, const uint8_t *name,
                    size_t name_len, const Proto_Identity *player,
                    uint8_t out[LOBBY_SEEK_CARD_MAX], size_t *len)
{
    uint8_t by[sizeof by_label + LOBBY_KEY_BYTES + LOBBY_CODE_SYMBOLS];
    const uint8_t *field[3] = {(const uint8_t *)game,
                               (const uint8_t *)options, name};
    size_t flen[3];
    uint8_t buf[sizeof seek_label + LOBBY_SEEK_CARD_MAX];
    size_t n = CARD_GAME, blen;
    Proto_Name who;

    if (id == NULL || invite == NULL || game == NULL || options == NULL ||
        (name == NULL && name_len > 0) || out == NULL || len == NULL)
        return TB_E_ARG;
    if (lobby_code_check_host(invite, id->pk) != 0)
        return TB_E_ARG;
    flen[0] = strlen(game);
    flen[1] = strlen(options);
    flen[2] = name_len > 0 ? name_len + CARD_SIG_BYTES : 0;
    if (name_len > PROTO_NAME_RECORD_MAX)
        return TB_E_LIMIT;
    if (name_len > 0 && proto_name_verify(name, name_len, &who) != 0)
        return TB_E_FORMAT;
    if (name_len > 0 &&
        (player == NULL ||
         memcmp(player->pk, who.pk, LOBBY_KEY_BYTES) != 0))
        return TB_E_ARG;
    out[0] = CARD_VERSION;
    memcpy(out + CARD_KEY, id->pk, LOBBY_KEY_BYTES);
    memcpy(out + CARD_CODE, invite->secret, LOBBY_CODE_SECRET_SYMBOLS);
    memcpy(out + CARD_CODE + LOBBY_CODE_SECRET_SYMBOLS, invite->fingerprint, 4);
    for (int f = 0; f < 3; f++) {
        size_t k = flen[f];
        if (k > field_max[f])
            return TB_E_LIMIT;
        if ((f == FIELD_GAME && k == 0) || !field_ok(f, field[f], k))
            return TB_E_FORMAT;
        out[n++] = (uint8_t)k;
        if (f == FIELD_NAME && k > 0) { /* the record, then its binding */
            memcpy(out + n, name, name_len);
            by_input(out, by);
            if (sodium_init() < 0 ||
                crypto_sign_detached(out + n + name_len, NULL, by, sizeof by,
                                     player->sk) != 0)
                return TB_E_CRYPTO;
        } else if (k > 0) {
            memcpy(out + n, field[f], k);
        }
        n += k;
    }
    if (card_hash_input(out, n, buf, &blen) != 0)
        return TB_E_LIMIT;
    if (sodium_init() < 0 ||
        crypto_sign_detached(out + n, NULL, buf, blen, id->sk) != 0)
        return TB_E_CRYPTO;
    *len = n + CARD_SIG_BYTES;
    return 0;
}

int lobby_seek_card_read(const uint8_t *card, size_t len, Lobby_Seek *out)
{
    uint8_t buf[sizeof seek_label + LOBBY_SEEK_CARD_MAX];
    char text[LOBBY_CODE_SYMBOLS + 1];
    size_t n = CARD_GAME, blen, at[3] = {0}, flen[3] = {0};
    int rc;

    if (card == NULL || out == NULL || len < LOBBY_SEEK_CARD_MIN ||
        len > LOBBY_SEEK_CARD_MAX || card[0] != CARD_VERSION)
        return TB_E_FORMAT;
    memset(out, 0, sizeof *out);
    for (int f = 0; f < 3; f++) {
        size_t k;
        if (n >= len)
            return TB_E_FORMAT;
        k = card[n++];
        if (k > field_max[f] || (f == FIELD_GAME && k == 0) ||
            len - n < k || !field_ok(f, card + n, k))
            return TB_E_FORMAT;
        at[f] = n;
        flen[f] = k;
        n += k;
    }
    if (len - n != CARD_SIG_BYTES)
        return TB_E_FORMAT;
    memcpy(out->game, card + at[FIELD_GAME], flen[FIELD_GAME]);
    memcpy(out->options, card + at[FIELD_OPTIONS], flen[FIELD_OPTIONS]);
    if (flen[FIELD_NAME] > 0) {
        uint8_t by[sizeof by_label + LOBBY_KEY_BYTES + LOBBY_CODE_SYMBOLS];
        size_t rlen = flen[FIELD_NAME] - CARD_SIG_BYTES;
        if (flen[FIELD_NAME] <= CARD_SIG_BYTES ||
            proto_name_verify(card + at[FIELD_NAME], rlen, &out->who) != 0)
            return TB_E_FORMAT;
        by_input(card, by);
#ifndef TABULA_FUZZ_UNSIGNED
        if (sodium_init() < 0 ||
            crypto_sign_verify_detached(card + at[FIELD_NAME] + rlen, by,
                                        sizeof by, out->who.pk) != 0)
            return TB_E_SIGNATURE; /* (a record copied from another seek) */
#endif
        out->named = 1;
    }
    memcpy(out->host_pk, card + CARD_KEY, LOBBY_KEY_BYTES);
    memcpy(text, card + CARD_CODE, LOBBY_CODE_SYMBOLS);
    text[LOBBY_CODE_SYMBOLS] = '\0';
    rc = lobby_code_parse(text, &out->invite);
    if (rc == TB_E_CRYPTO)
        return rc;
    if (rc != 0)
        return TB_E_FORMAT;
    if (lobby_code_check_host(&out->invite, out->host_pk) != 0)
        return TB_E_SIGNATURE;
    if (card_hash_input(card, n, buf, &blen) != 0)
        return TB_E_FORMAT;
    if (sodium_init() < 0)
        return TB_E_CRYPTO;
#ifndef TABULA_FUZZ_UNSIGNED /* (the room fuzzer's build: every card holds) */
    if (crypto_sign_verify_detached(card + n, buf, blen, out->host_pk) != 0)
        return TB_E_SIGNATURE;
#endif
    return 0;
}

int lobby_seek_card_game(const uint8_t *card, size_t len,
                         char game[LOBBY_SEEK_GAME_MAX + 1])
{
    size_t k;
    if (card == NULL || len < LOBBY_SEEK_CARD_MIN || card[0] != CARD_VERSION)
        return TB_E_FORMAT;
    k = card[CARD_GAME];
    if (k == 0 || k > LOBBY_SEEK_GAME_MAX || CARD_GAME + 1 + k > len ||
        !field_ok(FIELD_GAME, card + CARD_GAME + 1, k))
        return TB_E_FORMAT;
    memcpy(game, card + CARD_GAME + 1, k);
    game[k] = '\0';
    return 0;
}

size_t lobby_wire_seek(uint8_t out[LOBBY_WIRE_SEEK_MAX], const uint8_t *card,
                       size_t len)
{
    if (out == NULL || card == NULL || len < LOBBY_SEEK_CARD_MIN ||
        len > LOBBY_SEEK_CARD_MAX)
        return 0;
    out[0] = LOBBY_MSG_SEEK;
    memcpy(out + 1, card, len);
    return 1 + len;
}

size_t lobby_wire_seeks(uint8_t out[LOBBY_WIRE_SEEKS_LEN], const char *game)
{
    size_t k = game != NULL ? strlen(game) : 0;
    if (out == NULL || k > LOBBY_SEEK_GAME_MAX)
        return 0;
    memset(out, 0, LOBBY_WIRE_SEEKS_LEN);
    out[0] = LOBBY_MSG_SEEKS;
    out[1] = LOBBY_WIRE_VERSION;
    if (k > 0)
        memcpy(out + 2, game, k);
    return LOBBY_WIRE_SEEKS_LEN;
}

int lobby_wire_list_read(const uint8_t *msg, size_t len,
                         int (*each)(void *user, uint64_t since,
                                     const uint8_t *card, size_t card_len),
                         void *user, int *last)
{
    size_t at = LOBBY_LIST_HEADER;
    unsigned count;

    if (msg == NULL || len < LOBBY_LIST_HEADER || msg[0] != LOBBY_MSG_LIST ||
        msg[1] > 1 || len > LOBBY_WIRE_LIST_MAX)
        return TB_E_FORMAT;
    count = (unsigned)msg[2] << 8 | msg[3];
    for (unsigned i = 0; i < count; i++) {
        uint64_t since;
        size_t clen;
        if (len - at < LOBBY_LIST_ENTRY_HEADER)
            return TB_E_FORMAT;
        since = lobby__get64(msg + at);
        clen = (size_t)msg[at + 8] << 8 | msg[at + 9];
        at += LOBBY_LIST_ENTRY_HEADER;
        if (clen < LOBBY_SEEK_CARD_MIN || clen > LOBBY_SEEK_CARD_MAX ||
            len - at < clen)
            return TB_E_FORMAT;
        if (each != NULL) {
            int rc = each(user, since, msg + at, clen);
            if (rc != 0)
                return rc;
        }
        at += clen;
    }
    if (at != len)
        return TB_E_FORMAT;
    if (last != NULL)
        *last = msg[1];
    return 0;
}
