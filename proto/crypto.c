/*
 * crypto.c: the one file of proto/ that includes <sodium.h>. Everything
 * else sees typed wrappers: BLAKE2b-256 hashes (state and chain), Ed25519
 * key pairs, detached signatures and their checks, randomness, wiping,
 * and the printable fingerprint of a public key.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "proto_internal.h"

_Static_assert(PROTO_KEY_BYTES == crypto_sign_PUBLICKEYBYTES, "pk size");
_Static_assert(PROTO_SECRET_BYTES == crypto_sign_SECRETKEYBYTES, "sk size");
_Static_assert(PROTO_SIG_BYTES == crypto_sign_BYTES, "signature size");
_Static_assert(PROTO_KEY_BYTES == crypto_sign_SEEDBYTES, "seed size");

int proto_init(void)
{
    return sodium_init() < 0 ? TB_E_CRYPTO : 0;
}

int proto_state_hash(const Core_Position *pos, uint8_t out[PROTO_HASH_BYTES])
{
    size_t cap = core_game_encode_max(core_position_game(pos));
    size_t len = 0;
    uint8_t *buf = malloc(cap);
    int rc;

    if (buf == NULL)
        return TB_E_NOMEM;
    rc = core_encode(pos, buf, cap, &len);
    if (rc == 0)
        rc = proto__hash(buf, len, out);
    free(buf);
    return rc;
}

void proto_hex(const uint8_t *bytes, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = '\0';
}

int proto_unhex(const char *hex, size_t len, uint8_t *out, size_t n)
{
    if (hex == NULL || len != 2 * n)
        return TB_E_FORMAT;
    for (size_t i = 0; i < len; i++) {
        char c = hex[i];
        int v = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                       : -1;
        if (v < 0)
            return TB_E_FORMAT;
        if (i % 2 == 0)
            out[i / 2] = (uint8_t)(v << 4);
        else
            out[i / 2] |= (uint8_t)v;
    }
    return 0;
}

int proto__hash(const uint8_t *buf, size_t len, uint8_t out[PROTO_HASH_BYTES])
{
    if (crypto_generichash(out, PROTO_HASH_BYTES, buf, len, NULL, 0) != 0)
        return TB_E_CRYPTO;
    return 0;
}

int proto_digest(const uint8_t *buf, size_t len, const uint8_t *key,
                 size_t key_len, uint8_t out[PROTO_HASH_BYTES])
{
    if (key_len != 0 && (key == NULL || key_len < crypto_generichash_KEYBYTES_MIN ||
                         key_len > crypto_generichash_KEYBYTES_MAX))
        return TB_E_ARG;
    if (crypto_generichash(out, PROTO_HASH_BYTES, buf, len, key, key_len) != 0)
        return TB_E_CRYPTO;
    return 0;
}

void proto_wipe(void *buf, size_t n) { sodium_memzero(buf, n); }

int proto_equal(const void *a, const void *b, size_t n)
{
    return sodium_memcmp(a, b, n) == 0;
}

int proto__sign(const uint8_t *msg, size_t len,
                const uint8_t sk[PROTO_SECRET_BYTES],
                uint8_t sig[PROTO_SIG_BYTES])
{
    if (crypto_sign_detached(sig, NULL, msg, len, sk) != 0)
        return TB_E_CRYPTO;
    return 0;
}

/* Signatures this thread has verified already, by the BLAKE2b-256 of
 * key, signature and message (a hit without the verification needs a
 * collision of it). A seat verifies its envelopes again whenever it
 * rebuilds its transcript (a takeback race, a re-made room, a resume,
 * its log at the end), and simtest's one process holds every member of
 * a match, each verifying the same envelopes and receipts: Ed25519
 * verification was 87 % of simtest's time. Direct-mapped, successes
 * only; per thread, so no thread reads another's (128 KiB each). */
#ifndef TABULA_FUZZ_UNSIGNED /* (which verifies nothing) */
#define VERIFIED_SLOTS 4096
#ifdef __wasm__ /* (one thread; its linker has no thread-local storage
                   without atomics) */
static uint8_t verified[VERIFIED_SLOTS][32];
#else
static _Thread_local uint8_t verified[VERIFIED_SLOTS][32];
#endif

static void verified_key(const uint8_t *msg, size_t len,
                         const uint8_t sig[PROTO_SIG_BYTES],
                         const uint8_t pk[PROTO_KEY_BYTES], uint8_t out[32])
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, pk, PROTO_KEY_BYTES);
    crypto_generichash_update(&st, sig, PROTO_SIG_BYTES);
    crypto_generichash_update(&st, msg, len);
    crypto_generichash_final(&st, out, 32);
}
#endif

int proto__verify(const uint8_t *msg, size_t len,
                  const uint8_t sig[PROTO_SIG_BYTES],
                  const uint8_t pk[PROTO_KEY_BYTES])
{
#ifdef TABULA_FUZZ_UNSIGNED
    /* Only the log fuzzer of tests/fuzz/run.sh defines this (CMake never
     * does): mutated envelopes then reach the transcript rules instead of
     * all stopping at the signature. */
    (void)msg, (void)len, (void)sig, (void)pk;
    return 0;
#else
    uint8_t key[32];
    verified_key(msg, len, sig, pk, key);
    /* (slot: the key's first two bytes; an all-zero entry matches no
     * key but one of probability 2^-256) */
    uint8_t *slot = verified[(key[0] | (unsigned)key[1] << 8) % VERIFIED_SLOTS];
    if (sodium_memcmp(slot, key, 32) == 0)
        return 0;
    /* libsodium refuses non-canonical S and small-order keys, so one
     * message has one valid signature per key: the chain hash can cover
     * the payload alone. */
    if (crypto_sign_verify_detached(sig, msg, len, pk) != 0)
        return TB_E_SIGNATURE;
    memcpy(slot, key, 32);
    return 0;
#endif
}

void proto__random(uint8_t *buf, size_t n)
{
    randombytes_buf(buf, n);
}

void proto__wipe(void *buf, size_t n)
{
    sodium_memzero(buf, n);
}

int proto__equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    return sodium_memcmp(a, b, n) == 0;
}

int proto_identity_generate(Proto_Identity *id)
{
    if (crypto_sign_keypair(id->pk, id->sk) != 0)
        return TB_E_CRYPTO;
    return 0;
}

int proto_identity_from_seed(Proto_Identity *id,
                             const uint8_t seed[PROTO_KEY_BYTES])
{
    if (crypto_sign_seed_keypair(id->pk, id->sk, seed) != 0)
        return TB_E_CRYPTO;
    return 0;
}

void proto_identity_wipe(Proto_Identity *id)
{
    sodium_memzero(id, sizeof *id);
}

void proto_fingerprint(const uint8_t pk[PROTO_KEY_BYTES],
                       char out[PROTO_FINGERPRINT_MAX])
{
    static const char domain[] = "tabula-fingerprint";
    static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    crypto_generichash_state st;
    uint8_t h[PROTO_HASH_BYTES];
    size_t o = 0;

    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const uint8_t *)domain, sizeof domain - 1);
    crypto_generichash_update(&st, pk, PROTO_KEY_BYTES);
    crypto_generichash_final(&st, h, sizeof h);
    /* 80 bits = 16 symbols of 5 bits, most significant bit first. */
    for (unsigned i = 0; i < 16; i++) {
        unsigned bit = i * 5, v = 0;
        for (unsigned k = 0; k < 5; k++, bit++)
            v = (v << 1) | ((h[bit / 8] >> (7 - bit % 8)) & 1u);
        if (i > 0 && i % 4 == 0)
            out[o++] = '-';
        out[o++] = crockford[v];
    }
    out[o] = '\0';
}

/* The bytes a document signature covers: "tabula DOMAIN 1\0" || msg. */
static uint8_t *document_bytes(const char *domain, const uint8_t *msg,
                               size_t len, size_t *total)
{
    size_t dn = domain != NULL ? strlen(domain) : 0, head;
    uint8_t *buf;
    head = 7 + dn + 3; /* "tabula " DOMAIN " 1" NUL */
    if (len > SIZE_MAX - head || (buf = malloc(head + len)) == NULL)
        return NULL;
    memcpy(buf, "tabula ", 7);
    memcpy(buf + 7, domain, dn);
    memcpy(buf + 7 + dn, " 1", 3); /* (the NUL included) */
    if (len > 0)
        memcpy(buf + head, msg, len);
    *total = head + len;
    return buf;
}

/* The document signature's bytes (document_bytes) after the checks
 * both ends make: NULL with *rc TB_E_ARG or TB_E_NOMEM. */
static uint8_t *document_checked(const void *key, const uint8_t *sig,
                                 const char *domain, const uint8_t *msg,
                                 size_t len, size_t *total, int *rc)
{
    size_t dn = domain != NULL ? strlen(domain) : 0;
    uint8_t *buf;
    *rc = TB_E_ARG;
    if (key == NULL || sig == NULL || dn == 0 || dn > 32 ||
        (msg == NULL && len > 0))
        return NULL;
    for (size_t i = 0; i < dn; i++)
        if (domain[i] < 'a' || domain[i] > 'z')
            return NULL;
    *rc = TB_E_NOMEM;
    if ((buf = document_bytes(domain, msg, len, total)) != NULL)
        *rc = 0;
    return buf;
}

int proto_sign_document(const Proto_Identity *id, const char *domain,
                        const uint8_t *msg, size_t len,
                        uint8_t sig[PROTO_SIG_BYTES])
{
    size_t total = 0;
    int rc;
    uint8_t *buf = document_checked(id, sig, domain, msg, len, &total, &rc);
    if (buf == NULL)
        return rc;
    rc = proto__sign(buf, total, id->sk, sig);
    free(buf);
    return rc;
}

int proto_verify_document(const uint8_t pk[PROTO_KEY_BYTES],
                          const char *domain, const uint8_t *msg, size_t len,
                          const uint8_t sig[PROTO_SIG_BYTES])
{
    size_t total = 0;
    int rc;
    uint8_t *buf = document_checked(pk, sig, domain, msg, len, &total, &rc);
    if (buf == NULL)
        return rc;
    rc = proto__verify(buf, total, sig, pk);
    free(buf);
    return rc;
}
