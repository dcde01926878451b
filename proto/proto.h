/*
 * proto.h: Tabula's protocol layer over the rules core: the state hash
 * every peer compares after each ply (and, as the protocol grows, signed
 * messages, transcripts and match logs).
 */
#ifndef TABULA_PROTO_H
#define TABULA_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* Bytes of a state hash: BLAKE2b-256. */
#define PROTO_HASH_BYTES 32
/* Lowercase hex of a hash, NUL included. */
#define PROTO_HASH_HEX (2 * PROTO_HASH_BYTES + 1)

/*
 * proto_init: initialise the crypto library once per process (safe to
 * call again). Errors: TB_E_CRYPTO.
 */
int proto_init(void);

/*
 * proto_state_hash: BLAKE2b-256 (libsodium crypto_generichash, no key) of
 * the canonical state encoding (core_encode) of pos.
 * Errors: TB_E_NOMEM, TB_E_CRYPTO.
 */
int proto_state_hash(const Core_Position *pos,
                     uint8_t out[PROTO_HASH_BYTES]);

/* proto_hex: lowercase hex of n bytes into out (2n+1 bytes). */
void proto_hex(const uint8_t *bytes, size_t n, char *out);

#endif /* TABULA_PROTO_H */
