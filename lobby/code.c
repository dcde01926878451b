/*
 * code.c: invite and watch codes: making, reading and checking them. The
 * one file of lobby/ that includes <sodium.h> (randomness, BLAKE2b and
 * the seats' proofs of their keys).
 * Each derived value hashes a distinct label with the code's secret so
 * that knowing one (the lookup, which the lobby sees) says nothing about
 * another (the fingerprint, the seat key).
 */
#include <sodium.h>
#include <string.h>

#include "wire_internal.h"
#include "tb_error.h"

static const char alphabet[] = LOBBY_CODE_ALPHABET;

static int crypto_ready(void)
{
    return sodium_init() < 0 ? TB_E_CRYPTO : 0;
}

int lobby_random(void *buf, size_t n)
{
    int rc = crypto_ready();
    if (rc != 0)
        return rc;
    randombytes_buf(buf, n);
    return 0;
}

/* BLAKE2b of label || secret || extra (extra may be NULL). */
static int derive(const char *label,
                  const char secret[LOBBY_CODE_SECRET_SYMBOLS],
                  const uint8_t *extra, size_t extra_len, uint8_t *out,
                  size_t out_len)
{
    crypto_generichash_state st;
    if (crypto_generichash_init(&st, NULL, 0, out_len) != 0 ||
        crypto_generichash_update(&st, (const unsigned char *)label,
                                  strlen(label) + 1) != 0 ||
        crypto_generichash_update(&st, (const unsigned char *)secret,
                                  LOBBY_CODE_SECRET_SYMBOLS) != 0 ||
        (extra != NULL &&
         crypto_generichash_update(&st, extra, extra_len) != 0) ||
        crypto_generichash_final(&st, out, out_len) != 0)
        return TB_E_CRYPTO;
    return 0;
}

/* The 4 fingerprint symbols: the first 20 bits of the hash. */
static int fingerprint(const char secret[LOBBY_CODE_SECRET_SYMBOLS],
                       const uint8_t host_pk[LOBBY_KEY_BYTES], char out[4])
{
    uint8_t h[32];
    uint32_t bits;
    int rc = derive("tabula invite fingerprint", secret, host_pk,
                    LOBBY_KEY_BYTES, h, sizeof h);
    if (rc != 0)
        return rc;
    bits = (uint32_t)h[0] << 12 | (uint32_t)h[1] << 4 | (uint32_t)h[2] >> 4;
    for (int i = 3; i >= 0; i--) {
        out[i] = alphabet[bits & 31];
        bits >>= 5;
    }
    return 0;
}

/* Fill text and lookup from secret and fingerprint. */
static int finish(Lobby_Code *c)
{
    char all[LOBBY_CODE_SYMBOLS];
    size_t k = 0;
    int rc = crypto_ready();

    if (rc != 0)
        return rc;
    memcpy(all, c->secret, LOBBY_CODE_SECRET_SYMBOLS);
    memcpy(all + LOBBY_CODE_SECRET_SYMBOLS, c->fingerprint, 4);
    for (int i = 0; i < LOBBY_CODE_SYMBOLS; i++) {
        if (i > 0 && i % 4 == 0)
            c->text[k++] = '-';
        c->text[k++] = all[i];
    }
    c->text[k] = '\0';
    return derive("tabula invite lookup", c->secret, NULL, 0, c->lookup,
                  LOBBY_LOOKUP_BYTES);
}

int lobby_code_make(const uint8_t bytes[LOBBY_CODE_SECRET_SYMBOLS],
                    const uint8_t host_pk[LOBBY_KEY_BYTES], Lobby_Code *out)
{
    int rc;
    if (bytes == NULL || host_pk == NULL || out == NULL)
        return TB_E_ARG;
    memset(out, 0, sizeof *out);
    /* 256 is a multiple of 32: uniform bytes give uniform symbols. */
    for (int i = 0; i < LOBBY_CODE_SECRET_SYMBOLS; i++)
        out->secret[i] = alphabet[bytes[i] & 31];
    rc = fingerprint(out->secret, host_pk, out->fingerprint);
    if (rc != 0)
        return rc;
    return finish(out);
}

int lobby_code_new(const uint8_t host_pk[LOBBY_KEY_BYTES], Lobby_Code *out)
{
    uint8_t r[LOBBY_CODE_SECRET_SYMBOLS];
    int rc;

    if (host_pk == NULL || out == NULL)
        return TB_E_ARG;
    memset(out, 0, sizeof *out);
    rc = lobby_random(r, sizeof r);
    if (rc == 0)
        rc = lobby_code_make(r, host_pk, out);
    sodium_memzero(r, sizeof r);
    return rc;
}

/* The length of what a code copied through a word processor or a chat
 * may carry besides its symbols, in UTF-8: the dashes U+2010..U+2015,
 * U+2212 (minus) and U+FF0D (fullwidth hyphen-minus); U+00A0 (no-break
 * space), U+00AD (soft hyphen), U+200B..U+200D, U+2060 and U+FEFF (the
 * invisible ones); 0 if none. */
static size_t typeset_dash(const unsigned char *p)
{
    if (p[0] == 0xc2 && (p[1] == 0xa0 || p[1] == 0xad)) /* nbsp, soft hyphen */
        return 2;
    if (p[0] == 0xe2 && p[1] == 0x80 &&
        ((p[2] >= 0x90 && p[2] <= 0x95) || (p[2] >= 0x8b && p[2] <= 0x8d)))
        return 3; /* dashes; zero-width space, non-joiner, joiner */
    if (p[0] == 0xe2 && ((p[1] == 0x88 && p[2] == 0x92) ||
                         (p[1] == 0x81 && p[2] == 0xa0)))
        return 3; /* minus sign; word joiner */
    if (p[0] == 0xef && ((p[1] == 0xbb && p[2] == 0xbf) ||
                         (p[1] == 0xbc && p[2] == 0x8d)))
        return 3; /* byte order mark; fullwidth hyphen-minus */
    return 0;
}

int lobby_code_parse(const char *text, Lobby_Code *out)
{
    char sym[LOBBY_CODE_SYMBOLS];
    size_t n = 0;

    if (text == NULL || out == NULL)
        return TB_E_ARG;
    memset(out, 0, sizeof *out);
    for (const char *p = text; *p != '\0'; p++) {
        char ch = *p;
        size_t dash = typeset_dash((const unsigned char *)p);
        if (dash > 0) {
            p += dash - 1;
            continue;
        }
        if (ch == '-' || ch == ' ' || ch == '\t')
            continue;
        if (ch >= 'a' && ch <= 'z')
            ch = (char)(ch - 'a' + 'A');
        if (ch == '\0' || strchr(alphabet, ch) == NULL)
            return TB_E_FORMAT;
        if (n == LOBBY_CODE_SYMBOLS)
            return TB_E_FORMAT;
        sym[n++] = ch;
    }
    if (n != LOBBY_CODE_SYMBOLS)
        return TB_E_FORMAT;
    memcpy(out->secret, sym, LOBBY_CODE_SECRET_SYMBOLS);
    memcpy(out->fingerprint, sym + LOBBY_CODE_SECRET_SYMBOLS, 4);
    return finish(out);
}

int lobby_code_check_host(const Lobby_Code *code,
                          const uint8_t host_pk[LOBBY_KEY_BYTES])
{
    char fp[4];
    int rc;
    if (code == NULL || host_pk == NULL)
        return TB_E_ARG;
    rc = fingerprint(code->secret, host_pk, fp);
    if (rc != 0)
        return rc;
    return memcmp(fp, code->fingerprint, 4) == 0 ? 0 : TB_E_SIGNATURE;
}

int lobby_code_seat_key(const Lobby_Code *code,
                        uint8_t out[LOBBY_SEAT_KEY_BYTES])
{
    int rc = crypto_ready();
    if (rc != 0)
        return rc;
    return derive("tabula invite seat", code->secret, NULL, 0, out,
                  LOBBY_SEAT_KEY_BYTES);
}

/* (the label a seat's proof signs before the hello's bytes, its NUL
 * included) */
static const char seat_label[] = "tabula seat 1";

/* The longest label and message a proof signs (a POOL's bytes). */
#define PROOF_LABEL_MAX 16
#define PROOF_MSG_MAX LOBBY_WIRE_POOL_MAX
_Static_assert(LOBBY_WIRE_HELLO_MAX <= PROOF_MSG_MAX, "a hello is provable");

/* The bytes a proof signs: label and its NUL, then msg[0..len). 0: too
 * long. */
static size_t labelled(const char *label, const uint8_t *msg, size_t len,
                       uint8_t out[PROOF_LABEL_MAX + PROOF_MSG_MAX])
{
    size_t k = strlen(label) + 1;
    if (msg == NULL || k > PROOF_LABEL_MAX || len > PROOF_MSG_MAX)
        return 0;
    memcpy(out, label, k);
    memcpy(out + k, msg, len);
    return k + len;
}

int lobby__prove(const char *label, const uint8_t *msg, size_t len,
                 const Proto_Identity *id, uint8_t sig[LOBBY_SEAT_PROOF_BYTES])
{
    uint8_t buf[PROOF_LABEL_MAX + PROOF_MSG_MAX];
    size_t n = labelled(label, msg, len, buf);
    if (n == 0 || id == NULL || sig == NULL)
        return TB_E_ARG;
    if (crypto_ready() != 0 ||
        crypto_sign_detached(sig, NULL, buf, n, id->sk) != 0)
        return TB_E_CRYPTO;
    return 0;
}

int lobby__proof_ok(const char *label, const uint8_t *msg, size_t len,
                    const uint8_t pk[LOBBY_KEY_BYTES],
                    const uint8_t sig[LOBBY_SEAT_PROOF_BYTES])
{
    uint8_t buf[PROOF_LABEL_MAX + PROOF_MSG_MAX];
    size_t n = labelled(label, msg, len, buf);
    if (n == 0 || pk == NULL || sig == NULL)
        return TB_E_ARG;
    if (crypto_ready() != 0)
        return TB_E_CRYPTO;
#ifdef TABULA_FUZZ_UNSIGNED /* (the room fuzzer's build: every proof holds) */
    return 0;
#else
    return crypto_sign_verify_detached(sig, buf, n, pk) == 0 ? 0
                                                             : TB_E_SIGNATURE;
#endif
}

int lobby_seat_prove(const uint8_t *msg, size_t len, const Proto_Identity *id,
                     uint8_t sig[LOBBY_SEAT_PROOF_BYTES])
{
    if (len > LOBBY_WIRE_HELLO_MAX)
        return TB_E_ARG;
    return lobby__prove(seat_label, msg, len, id, sig);
}

int lobby_seat_proof_ok(const uint8_t *msg, size_t len,
                        const uint8_t pk[LOBBY_KEY_BYTES],
                        const uint8_t sig[LOBBY_SEAT_PROOF_BYTES])
{
    if (len > LOBBY_WIRE_HELLO_MAX)
        return TB_E_ARG;
    return lobby__proof_ok(seat_label, msg, len, pk, sig);
}
