/*
 * wire_internal.h: the lobby's control messages as the relay (room.c)
 * and the client codec (wire.c) both build and check them. Each message
 * is one net/ frame or one binary WebSocket message; byte 0 is its type
 * and every message but DATA and FRAME has one exact length.
 * docs/protocol-lobby.md is the reference; keep the two in step. Needs
 * no libuv (wire.c is built for WebAssembly too). Never included from
 * another folder.
 */
#ifndef TABULA_LOBBY_WIRE_INTERNAL_H
#define TABULA_LOBBY_WIRE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lobby_wire.h"

/* Version 2: the relay signs receipts (WELCOME names its key and clock;
 * FRAME, ACK and PRESENCE carry a time and a signature). Version 3: a
 * frame's receipt attests how long each seat had been gone (G-MC-9w).
 * Version 4: a seat proves its player key in its hello (CREATE: the
 * host's; JOIN: the guest's), the guest seat holds one key, and every
 * receipt is signed for the room's host and guest keys (WELCOME and
 * PRESENCE name the guest's): the relay witnesses players, not seats.
 * A hello of another version is refused VERSION. */
#define LOBBY_WIRE_VERSION 4

/* Client to lobby. */
#define LOBBY_MSG_CREATE 0x01
#define LOBBY_MSG_JOIN 0x02
#define LOBBY_MSG_WATCH 0x03
#define LOBBY_MSG_DATA LOBBY_WIRE_DATA_TYPE /* 0x04 */
#define LOBBY_MSG_DONE LOBBY_WIRE_DONE_TYPE /* 0x05 */
#define LOBBY_MSG_SEEK LOBBY_WIRE_SEEK_TYPE   /* 0x06 */
#define LOBBY_MSG_SEEKS LOBBY_WIRE_SEEKS_TYPE /* 0x07 */
#define LOBBY_MSG_POOL LOBBY_WIRE_POOL_TYPE   /* 0x08 */
#define LOBBY_MSG_KEEP LOBBY_WIRE_KEEP_TYPE   /* 0x09 */
/* Lobby to client. */
#define LOBBY_MSG_WELCOME LOBBY_WIRE_WELCOME_TYPE /* 0x81 */
#define LOBBY_MSG_FRAME LOBBY_WIRE_FRAME_TYPE     /* 0x82 */
#define LOBBY_MSG_ACK LOBBY_WIRE_ACK_TYPE         /* 0x83 */
#define LOBBY_MSG_PRESENCE LOBBY_WIRE_PRESENCE_TYPE /* 0x84 */
#define LOBBY_MSG_ERROR 0x85
#define LOBBY_MSG_BEAT 0x86
#define LOBBY_MSG_SEEKED LOBBY_WIRE_SEEKED_TYPE /* 0x87 */
#define LOBBY_MSG_LIST LOBBY_WIRE_LIST_TYPE     /* 0x88 */
#define LOBBY_MSG_POOL_WAIT LOBBY_WIRE_POOL_WAIT_TYPE /* 0x89 */
#define LOBBY_MSG_PAIRED LOBBY_WIRE_PAIRED_TYPE       /* 0x8a */

/* Exact lengths (type byte included). CREATE and JOIN end with the
 * seat's proof (LOBBY_SEAT_PROOF_BYTES, lobby_seat_prove: a signature
 * by the player's key of every byte before it) and the number they ask
 * after (every hello ends with it, outside the proof). */
#define LOBBY_LEN_CREATE                                                       \
    (2 + 2 * LOBBY_LOOKUP_BYTES + LOBBY_KEY_BYTES + LOBBY_SEAT_SECRET_BYTES +  \
     LOBBY_KEY_BYTES + LOBBY_SEAT_PROOF_BYTES + 8) /* 186 */
#define LOBBY_LEN_JOIN                                                         \
    (2 + LOBBY_LOOKUP_BYTES + LOBBY_SEAT_SECRET_BYTES + LOBBY_KEY_BYTES +     \
     LOBBY_SEAT_PROOF_BYTES + 8)                      /* 138 */
#define LOBBY_LEN_WATCH (2 + LOBBY_LOOKUP_BYTES + 8) /* 26 */
#define LOBBY_LEN_WELCOME                                                      \
    (2 + LOBBY_KEY_BYTES + 8 + 8 + 1 + LOBBY_KEY_BYTES + 8 +                  \
     LOBBY_KEY_BYTES) /* 123 */
/* A receipt's time, the seats' absences (u32 each: a FRAME receipt's;
 * 0 in PRESENCE) and its signature, after its seq in FRAME, ACK and
 * PRESENCE. */
#define LOBBY_RECEIPT_TAIL (8 + 8 + PROTO_SIG_BYTES)    /* 80 */
#define LOBBY_LEN_ACK (1 + 8 + LOBBY_RECEIPT_TAIL)      /* 89 */
#define LOBBY_LEN_PRESENCE                                                     \
    (3 + 8 + LOBBY_KEY_BYTES + LOBBY_RECEIPT_TAIL) /* 123 */
#define LOBBY_LEN_ERROR 2
#define LOBBY_LEN_BEAT 1
#define LOBBY_LEN_DONE 1
#define LOBBY_LEN_KEEP LOBBY_WIRE_KEEP_LEN
#define LOBBY_LEN_SEEKED 2
/* SEEKS: version u8, the game [LOBBY_SEEK_GAME_MAX] (NUL-padded; all
 * zero: every game). */
#define LOBBY_LEN_SEEKS (2 + LOBBY_SEEK_GAME_MAX) /* 18 */
/* LIST: last u8, count u16, then each seek: since u64, card length u16,
 * the card. */
#define LOBBY_LIST_HEADER 4
#define LOBBY_LIST_ENTRY_HEADER 10
/* The largest sequence number a CREATE may start a room after: every
 * number a room gives (at most LOBBY_SEQ_MAX + 1) and the next it keeps
 * (LOBBY_SEQ_MAX + 2 = 2^53) stay exact in the Redis backend's Lua, whose
 * numbers are doubles (2^62 was misnumbered there: the relay-limits
 * issue, finding 5). */
#define LOBBY_SEQ_MAX (((uint64_t)1 << 53) - 2)

/* Bytes in front of the payload in DATA and FRAME. */
#define LOBBY_DATA_HEADER 1
#define LOBBY_FRAME_HEADER (10 + LOBBY_RECEIPT_TAIL) /* 90 */
_Static_assert(LOBBY_WIRE_MESSAGE_MAX ==
                   LOBBY_WIRE_PAYLOAD_MAX + LOBBY_FRAME_HEADER,
               "lobby_wire.h's message size names the FRAME header");

/* ERROR codes: the lobby closes the connection after sending one. */
enum {
    LOBBY_ERR_PROTOCOL = 1,    /* malformed or unexpected message */
    LOBBY_ERR_VERSION = 2,     /* unknown wire version */
    LOBBY_ERR_CODE = 3,        /* no room has this code */
    LOBBY_ERR_RATE = 4,        /* too many wrong codes from this address */
    LOBBY_ERR_FULL = 5,        /* lobby or room full */
    LOBBY_ERR_SEAT = 6,        /* the seat belongs to someone else */
    LOBBY_ERR_TOO_BIG = 7,     /* payload over the lobby's limit */
    LOBBY_ERR_NOT_ALLOWED = 8, /* spectators and newcomers may not send */
    LOBBY_ERR_TIMEOUT = 9,     /* no create, join or watch in time */
    LOBBY_ERR_REPLACED = 10,   /* the seat was taken back by a new connection */
    LOBBY_ERR_ADDRESS = 11,    /* this address holds its share of rooms or
                                  connections already */
    LOBBY_ERR_FLOOD = 12,      /* frames sent faster than the other seat
                                  reads them: keeping one more would drop a
                                  frame it has not had */
    LOBBY_ERR_SEEKS = 13,      /* SEEKED only: this key or address holds
                                  its share of open seeks */
    LOBBY_ERR_RATING = 14      /* a JOIN of a rated seek by a player the
                                  relay's list rates outside its range */
};

/* A proof by id (Ed25519) of label, its NUL and msg[0..len) (len at
 * most LOBBY_WIRE_POOL_MAX; label at most 15 bytes) into sig: the seat's
 * proof of its hello ("tabula seat 1"), a player's of its POOL ("tabula
 * pool 1"). lobby__proof_ok: 0 when sig is pk's proof of them, else
 * TB_E_SIGNATURE. Errors: TB_E_ARG (too long), TB_E_CRYPTO. (code.c) */
int lobby__prove(const char *label, const uint8_t *msg, size_t len,
                 const Proto_Identity *id, uint8_t sig[LOBBY_SEAT_PROOF_BYTES]);
int lobby__proof_ok(const char *label, const uint8_t *msg, size_t len,
                    const uint8_t pk[LOBBY_KEY_BYTES],
                    const uint8_t sig[LOBBY_SEAT_PROOF_BYTES]);

static inline void lobby__put64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

static inline void lobby__put32(uint8_t *p, uint32_t v)
{
    for (int i = 3; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

static inline uint32_t lobby__get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t lobby__get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* Compare n bytes without an early exit (secrets and lookups). */
static inline int lobby__equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++)
        d |= (uint8_t)(a[i] ^ b[i]);
    return d == 0;
}

#endif /* TABULA_LOBBY_WIRE_INTERNAL_H */
