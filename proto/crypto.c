/*
 * crypto.c: the one file of proto/ that includes <sodium.h>. Everything
 * else sees typed wrappers: hashing now, signatures as the protocol grows.
 */
#include <stdlib.h>

#include <sodium.h>

#include "proto.h"

int proto_init(void)
{
    return sodium_init() < 0 ? TB_E_CRYPTO : 0;
}

int proto_state_hash(const Core_Position *pos,
                     uint8_t out[PROTO_HASH_BYTES])
{
    size_t cap = core_game_encode_max(core_position_game(pos));
    size_t len = 0;
    uint8_t *buf = malloc(cap);
    int rc;

    if (buf == NULL)
        return TB_E_NOMEM;
    rc = core_encode(pos, buf, cap, &len);
    if (rc == 0 &&
        crypto_generichash(out, PROTO_HASH_BYTES, buf, len, NULL, 0) != 0)
        rc = TB_E_CRYPTO;
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
