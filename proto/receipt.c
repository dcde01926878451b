/*
 * receipt.c: a relay node's signed witness of a frame's number and time,
 * or of a seat's coming and going (proto.h, "relay receipts"). The relay
 * signs (lobby/room.c, lobby/redis.c); seats, spectators and replay check.
 */
#include <string.h>

#include "proto_internal.h"

/* (each with its NUL; version 1: the receipts of version 2 logs,
 * version 2 those of version 3 logs) */
static const char label[17] = "tabula receipt 3";
static const char label_v2[17] = "tabula receipt 2";
static const char label_v1[17] = "tabula receipt 1";

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (uint8_t)(v & 0xff);
        v >>= 8;
    }
}

size_t proto_receipt_signed(const Proto_Receipt *r,
                            const uint8_t room[PROTO_KEY_BYTES],
                            const uint8_t hash[PROTO_HASH_BYTES],
                            uint8_t out[PROTO_RECEIPT_SIGNED_MAX])
{
    size_t n = 0;
    memcpy(out, r->v1 ? label_v1 : r->v2 ? label_v2 : label, sizeof label);
    n += sizeof label;
    memcpy(out + n, room, PROTO_KEY_BYTES);
    n += PROTO_KEY_BYTES;
    if (!r->v1 && !r->v2) {
        memcpy(out + n, r->guest, PROTO_KEY_BYTES);
        n += PROTO_KEY_BYTES;
    }
    out[n++] = r->kind;
    put64(out + n, r->seq);
    n += 8;
    put64(out + n, r->time_ms);
    n += 8;
    if (r->kind == PROTO_RECEIPT_FRAME) {
        memcpy(out + n, hash, PROTO_HASH_BYTES);
        n += PROTO_HASH_BYTES;
        if (!r->v1) {
            for (int s = 0; s < 2; s++) {
                uint32_t a = r->absent_ms[s];
                for (int i = 3; i >= 0; i--, a >>= 8)
                    out[n + (size_t)i] = (uint8_t)(a & 0xff);
                n += 4;
            }
        }
    } else {
        out[n++] = r->seat;
        out[n++] = r->present;
    }
    return n;
}

static int check(const Proto_Receipt *r, const uint8_t *room,
                 const uint8_t *hash)
{
    if (r == NULL || room == NULL || r->kind > PROTO_RECEIPT_PRESENCE ||
        (r->kind == PROTO_RECEIPT_FRAME && hash == NULL) ||
        (r->kind == PROTO_RECEIPT_PRESENCE && (r->seat > 1 || r->present > 1)))
        return TB_E_ARG;
    return 0;
}

int proto_receipt_sign(Proto_Receipt *r, const uint8_t room[PROTO_KEY_BYTES],
                       const uint8_t hash[PROTO_HASH_BYTES],
                       const Proto_Identity *id)
{
    uint8_t msg[PROTO_RECEIPT_SIGNED_MAX];
    int rc = check(r, room, hash);
    if (rc != 0 || id == NULL)
        return rc != 0 ? rc : TB_E_ARG;
    memcpy(r->relay, id->pk, PROTO_KEY_BYTES);
    size_t n = proto_receipt_signed(r, room, hash, msg);
    return proto__sign(msg, n, id->sk, r->sig);
}

int proto_receipt_verify(const Proto_Receipt *r,
                         const uint8_t room[PROTO_KEY_BYTES],
                         const uint8_t hash[PROTO_HASH_BYTES])
{
    uint8_t msg[PROTO_RECEIPT_SIGNED_MAX];
    int rc = check(r, room, hash);
    if (rc != 0)
        return rc;
    size_t n = proto_receipt_signed(r, room, hash, msg);
    return proto__verify(msg, n, r->sig, r->relay);
}

int proto_receipt_hash(const uint8_t *payload, size_t len,
                       uint8_t out[PROTO_HASH_BYTES])
{
    return proto__hash(payload, len, out);
}
