/*
 * series.c: a match of several games between two players (issue 38,
 * `tabula host GAME --series N`): the series token every game's match
 * options carry, signed in its start, and the invite code of its next
 * game, which only its two players can compute.
 */
#include <sodium.h>
#include <string.h>

#include "proto_internal.h"

#define SERIES_PREFIX "series="
#define SERIES_CODE_LABEL "tabula series code 1"

/* A decimal 1..PROTO_SERIES_MAX of s[0..n) without a leading zero, or 0. */
static uint32_t small_number(const char *s, size_t n)
{
    uint32_t v = 0;
    if (n == 0 || n > 2 || s[0] == '0')
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (uint32_t)(s[i] - '0');
    }
    return v <= PROTO_SERIES_MAX ? v : 0;
}

int proto_series_token(const char *tok, size_t len, Proto_Series *out)
{
    size_t p = strlen(SERIES_PREFIX);
    memset(out, 0, sizeof *out);
    if (len < p || strncmp(tok, SERIES_PREFIX, p) != 0)
        return 0;
    const char *s = tok + p, *end = tok + len;
    const char *slash = memchr(s, '/', (size_t)(end - s));
    if (slash == NULL)
        return TB_E_OPTION;
    const char *second = memchr(slash + 1, '/', (size_t)(end - slash - 1));
    const char *nend = second != NULL ? second : end;
    out->game = small_number(s, (size_t)(slash - s));
    out->games = small_number(slash + 1, (size_t)(nend - slash - 1));
    if (out->game == 0 || out->games < 2 || out->game > out->games)
        goto bad;
    if (second != NULL) {
        size_t hex = (size_t)(end - second - 1);
        if (out->game == 1 || hex != 2 * PROTO_MATCH_ID_BYTES)
            goto bad;
        for (size_t i = 0; i < hex; i++) /* (lower case: one spelling) */
            if (!((second[1 + i] >= '0' && second[1 + i] <= '9') ||
                  (second[1 + i] >= 'a' && second[1 + i] <= 'f')))
                goto bad;
        if (proto_unhex(second + 1, hex, out->id, sizeof out->id) != 0)
            goto bad;
        out->has_id = 1;
    } else if (out->game != 1) {
        goto bad;
    }
    return 1;
bad:
    memset(out, 0, sizeof *out);
    return TB_E_OPTION;
}

int proto_options_series(const char *options, Proto_Series *out)
{
    int found = 0;
    Proto_Series one;
    memset(out, 0, sizeof *out);
    while (options != NULL && *options != '\0') {
        size_t len = strcspn(options, ",");
        int rc = proto_series_token(options, len, &one);
        if (rc < 0 || (rc == 1 && found)) {
            memset(out, 0, sizeof *out);
            return TB_E_OPTION;
        }
        if (rc == 1) {
            *out = one;
            found = 1;
        }
        options += len + (options[len] == ',');
    }
    return found;
}

int proto_series_format(const Proto_Series *s, char *out, size_t cap)
{
    char hex[2 * PROTO_MATCH_ID_BYTES + 1] = "";
    if (s->game == 0 || s->games < 2 || s->game > s->games ||
        s->games > PROTO_SERIES_MAX || (s->game > 1) != (s->has_id != 0))
        return TB_E_ARG;
    if (s->has_id)
        proto_hex(s->id, sizeof s->id, hex);
    int n = snprintf(out, cap, "%s%u/%u%s%s", SERIES_PREFIX,
                     (unsigned)s->game, (unsigned)s->games,
                     s->has_id ? "/" : "", hex);
    return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
}

int proto_series_code(const Proto_Identity *me,
                      const uint8_t their_pk[PROTO_KEY_BYTES],
                      const uint8_t id[PROTO_MATCH_ID_BYTES], uint32_t game,
                      uint8_t out[PROTO_SERIES_CODE_BYTES])
{
    uint8_t x_sk[crypto_scalarmult_curve25519_BYTES],
        x_pk[crypto_scalarmult_curve25519_BYTES],
        shared[crypto_scalarmult_BYTES], hash[32];
    uint8_t msg[sizeof SERIES_CODE_LABEL + PROTO_MATCH_ID_BYTES + 4];
    int rc = TB_E_CRYPTO;
    if (me == NULL || their_pk == NULL || id == NULL || out == NULL)
        return TB_E_ARG;
    if (crypto_sign_ed25519_sk_to_curve25519(x_sk, me->sk) == 0 &&
        crypto_sign_ed25519_pk_to_curve25519(x_pk, their_pk) == 0 &&
        crypto_scalarmult(shared, x_sk, x_pk) == 0) {
        /* label, NUL, the series id, the game (u32 big-endian) */
        memcpy(msg, SERIES_CODE_LABEL, sizeof SERIES_CODE_LABEL);
        memcpy(msg + sizeof SERIES_CODE_LABEL, id, PROTO_MATCH_ID_BYTES);
        for (int i = 0; i < 4; i++)
            msg[sizeof SERIES_CODE_LABEL + PROTO_MATCH_ID_BYTES + i] =
                (uint8_t)(game >> (24 - 8 * i));
        if (crypto_generichash(hash, sizeof hash, msg, sizeof msg, shared,
                               sizeof shared) == 0) {
            memcpy(out, hash, PROTO_SERIES_CODE_BYTES);
            rc = 0;
        }
    }
    sodium_memzero(x_sk, sizeof x_sk);
    sodium_memzero(shared, sizeof shared);
    sodium_memzero(hash, sizeof hash);
    return rc;
}
