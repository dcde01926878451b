/*
 * room_internal.h: what room.c shares with the rest of lobby/ beyond
 * room.h: the relay's per-source accounting (source.c) and the functions
 * a store of rooms (redis.c) answers through. No libuv. Never included
 * from another folder.
 */
#ifndef TABULA_LOBBY_ROOM_INTERNAL_H
#define TABULA_LOBBY_ROOM_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "pool.h"
#include "room.h"
#include "wire_internal.h"

typedef struct Lobby_Room Lobby_Room;

/* ---- per-source accounting (source.c) ---- */

/* A source's key: a family byte (4, 6, or 0xff for a peer net/ could not
 * name), then the IPv4 address or the IPv6 /64, zero-padded. */
#define LOBBY_SOURCE_KEY 9
#define LOBBY_SOURCE_BUCKETS 1024

typedef struct Lobby_Source {
    uint8_t key[LOBBY_SOURCE_KEY];
    uint64_t tat;   /* guess bucket: GCRA theoretical arrival time, us */
    uint32_t conns; /* connections open from it */
    uint32_t refused_held; /* of those, refused and held (room.h) */
    uint32_t rooms; /* rooms it created that the lobby still holds */
    uint32_t gone;  /* of those, finished and empty (room.c's gone list) */
    size_t bytes;   /* transcript bytes kept in those rooms */
    uint32_t factor; /* its shares are the limits' times this (trust) */
    size_t storing;  /* payload bytes of its members on their way to the
                        store (Redis) */
    uint64_t fetch_tat; /* watch bucket (Redis): GCRA arrival time, us */
    uint64_t data_tat;  /* frame bucket: GCRA arrival time, us */
    uint64_t units_tat; /* its frames' units (room.h), metered, us */
    uint32_t seeks;     /* open seeks of its rooms (issue 37) */
    uint64_t list_tat;  /* list bucket (SEEKS): GCRA arrival time, us */
    Lobby_Room *room_list; /* those rooms (room.c, through snext) */
    struct Lobby_Source *next;
} Lobby_Source;

typedef struct Lobby_Sources {
    Lobby_Source *buckets[LOBBY_SOURCE_BUCKETS];
    const Lobby_Limits *lim; /* its trusted networks */
    size_t n;
} Lobby_Sources;

/* The key of host (a numeric IPv4 or IPv6 address as net/ names a peer).
 * Errors: TB_E_ARG (not an address: the key is the shared "unknown"). */
int lobby__source_key(const char *host, uint8_t key[LOBBY_SOURCE_KEY]);

/* Is the source of key in one of lim's trusted networks? 1 or 0. */
int lobby__source_trusted(const Lobby_Limits *lim,
                          const uint8_t key[LOBBY_SOURCE_KEY]);

/* The source of host, made when missing (each is made for a connection,
 * so their number is bounded by connections, plus those that linger for
 * their guess budget: see lobby__sources_sweep). NULL: out of memory. */
Lobby_Source *lobby__source_get(Lobby_Sources *t, const char *host);

/* Forget sources that hold nothing and whose guess and watch buckets
 * are full (or,
 * while more than max_sources exist, that hold nothing). */
void lobby__sources_sweep(Lobby_Sources *t, uint64_t now_us,
                          size_t max_sources);

/* Free every source. */
void lobby__sources_free(Lobby_Sources *t);

/* A GCRA token bucket whose state is *tat (its theoretical arrival
 * time, us): burst tokens at once, one more each refill_us. Take one at
 * now_us: 0, or 1 when none is left (nothing taken; *ready_us, when not
 * NULL, says when one will be). The guess, watch and frame limits are
 * such buckets. */
/* As lobby__bucket_take, n tokens at once (all or none): 0, or 1 when
 * fewer than n are left. */
int lobby__bucket_take_n(uint64_t *tat, uint64_t now_us, uint64_t refill_us,
                         uint64_t burst, uint64_t n);

/* Count n tokens used at now_us in the bucket at tat, never refusing
 * (a meter: at most burst are ever counted in use). */
void lobby__bucket_meter(uint64_t *tat, uint64_t now_us, uint64_t refill_us,
                         uint64_t burst, uint64_t n);

/* Tokens of the bucket at tat in use at now_us (0: full). */
uint64_t lobby__bucket_used(uint64_t tat, uint64_t now_us, uint64_t refill_us);

int lobby__bucket_take(uint64_t *tat, uint64_t now_us, uint64_t refill_us,
                       uint64_t burst, uint64_t *ready_us);

/* Is a wrong code from s (may be NULL) over the limit now (its own
 * bucket, or the lobby-wide one whose state is global_tat)? */
int lobby__guess_limited(const Lobby_Source *s, uint64_t global_tat,
                         const Lobby_Limits *lim, uint64_t now_us);

/* Count one wrong code against s (may be NULL) and the whole lobby. */
void lobby__guess_count(Lobby_Source *s, uint64_t *global_tat,
                        const Lobby_Limits *lim, uint64_t now_us);

/* ---- the rooms' side, for the store (redis.c) ---- */
/* The key of m's source address (LOBBY_SOURCE_KEY bytes). */
const uint8_t *lobby__member_source(const Lobby_Member *m);

/* One of m's frames of n payload bytes is answered by the store (Redis):
 * no longer on its way (Lobby_Limits store_*). */
void lobby__stored(Lobby_Member *m, size_t n);

/* The times its address's shares are the limits' (LOBBY_TRUST_FACTOR for
 * a trusted network's, else 1). */
uint32_t lobby__member_factor(const Lobby_Member *m);
/* Answer m with LOBBY_ERR_* code (not CODE: redis.c asks its limit). */
void lobby__refuse(Lobby_Member *m, int code);
/* Close every member's connection (Redis is gone: go elsewhere). */
void lobby__drop_members(Lobby_Rooms *rs);
/* The copy of the room of lookups inv, wat and host key pk, made (and
 * followed) if missing and m is not NULL. NULL: none, or no memory. */
Lobby_Room *lobby__replica(Lobby_Rooms *rs,
                           const uint8_t inv[LOBBY_LOOKUP_BYTES],
                           const uint8_t wat[LOBBY_LOOKUP_BYTES],
                           const uint8_t pk[LOBBY_KEY_BYTES], Lobby_Member *m);
/* The copy of the room of invite lookup inv here, or NULL. */
Lobby_Room *lobby__replica_find(Lobby_Rooms *rs,
                                const uint8_t inv[LOBBY_LOOKUP_BYTES]);
/* fn(user, invite lookup, watch lookup, maker) for each copy with
 * members; maker is the key of the source that created the room (NULL:
 * not known). */
void lobby__replica_each(Lobby_Rooms *rs,
                         void (*fn)(void *user, const uint8_t *inv,
                                    const uint8_t *wat, const uint8_t *maker),
                         void *user);
/* The ms a seat's KEEP asked the room r to be kept empty (0: none;
 * within keep_room_ms). */
uint32_t lobby__room_keep_ms(const Lobby_Room *r);
/* Redis keeps the copy r's room ms after its last member (a KEEP some
 * node took): this node's renewals keep it so too. */
void lobby__replica_keep(Lobby_Room *r, uint32_t ms);
/* Redis keeps the copy r's room ms (0: not kept: keep.lua's answer). */
void lobby__replica_keep_set(Lobby_Room *r, uint32_t ms);
/* The room's creator was the source of key (LOBBY_SOURCE_KEY bytes). */
void lobby__replica_maker(Lobby_Room *r, const uint8_t key[LOBBY_SOURCE_KEY]);
/* The number the copy's next frame has (0: none seen yet). */
uint64_t lobby__replica_next(const Lobby_Room *r);
/* A frame of the room from Redis (stream: read from the room's stream,
 * else from its channel), numbered seq at Redis's time t (ms since the
 * epoch) when the seats had been gone absent[seat] ms (0: present; what
 * Redis recorded, as data.lua says): kept with this node's receipt of
 * it (signed here, once) and
 * sent to the members here. A gap
 * before a stream frame means Redis dropped those frames: the copy
 * starts again there (members that lacked them are dropped as slow).
 * Errors: TB_E_STATE (a channel frame after a gap: fetch the stream),
 * TB_E_NOMEM. */
int lobby__replica_frame(Lobby_Rooms *rs, Lobby_Room *r, uint64_t seq, int from,
                         uint64_t t, const uint32_t absent[2],
                         const uint8_t *data, size_t n, int stream);
/* Redis numbers the room's next frame next_seq (an empty copy starts so). */
void lobby__replica_seen(Lobby_Room *r, uint64_t next_seq);
/* Admit m to the copy r in role (its seat's claim number epoch); its
 * WELCOME says presence (bit 0 host, bit 1 guest seated, lobby-wide) and
 * the room's receipt clock rtime (Redis's, ms since the epoch). */
void lobby__admit(Lobby_Member *m, Lobby_Room *r, int role, uint64_t from,
                  uint64_t epoch, int presence, uint64_t rtime, uint64_t now);
/* Seat was claimed with claim number epoch on some node at now (ms): a
 * member here holding an older claim of it is closed REPLACED. */
void lobby__replica_claimed(Lobby_Room *r, int seat, uint64_t epoch,
                            uint64_t now);
/* The key the copy r's guest seat holds (zero: none), as Redis has it:
 * this node's receipts for r are signed for it (and a seek of r kept
 * here goes: its seat is taken). */
void lobby__replica_guest(Lobby_Rooms *rs, Lobby_Room *r,
                          const uint8_t pk[LOBBY_KEY_BYTES]);
/* A seat's player arrived (1) or left (0) on some node, after the room's
 * frame seq, at Redis's time t (ms): the room's other seat and
 * spectators here are told, with this node's receipt. */
void lobby__replica_presence(Lobby_Rooms *rs, Lobby_Room *r, int seat,
                             int present, uint64_t seq, uint64_t t);
/* Redis's answer to m's wrong code at now (ms): over the limit (limited)
 * or counted. */
void lobby__guess_answer(Lobby_Member *m, int limited, uint64_t now);
/* Redis numbered m's frame seq at its time t (ms), the seats' absences
 * then being absent (ms), the frame's payload
 * hash being hash (proto_receipt_hash): its ACK goes out in its place,
 * after every earlier frame of the room (member_pump), with the receipt
 * the frame's copy here carries. */
void lobby__acked(Lobby_Member *m, uint64_t seq, uint64_t t,
                  const uint32_t absent[2],
                  const uint8_t hash[PROTO_HASH_BYTES]);

/* The pool with a store (Lobby_Store_Ops.pool): m's offer was filed as
 * id; the offer id was paired as pd says (role: this offer's; sent
 * PAIRED, its member closed), or refused with ERROR code; the lobby's
 * counts are counts (each game's, told to every waiting member here, at
 * most once a LOBBY_POOL_TELL_MS each); fn(user, id) for each offer
 * waiting here (its lease is renewed). An id no member here holds:
 * nothing. */
void lobby__pool_filed(Lobby_Member *m, uint64_t id);
void lobby__pool_paired(Lobby_Rooms *rs, uint64_t id, const Lobby_Paired *pd);
void lobby__pool_refused(Lobby_Rooms *rs, uint64_t id, int code);
void lobby__pool_told(Lobby_Rooms *rs, const uint32_t *counts, uint64_t now);
void lobby__pool_each(Lobby_Rooms *rs, void (*fn)(void *user, uint64_t id),
                      void *user);
/* 1 when an offer waits here (its member on this node), else 0. */
int lobby__pool_waiting(const Lobby_Rooms *rs);

/* The store's answer to m's SEEK: 0 (listed) or the LOBBY_ERR_* that
 * refuses it (SEEKS, FULL). */
void lobby__seeked(Lobby_Member *m, int code);
/* The store's answer to m's SEEKS: n seeks, oldest first, seek i listed
 * at since[i] (ms since the epoch) with card[i] (len[i] bytes); sent to
 * m in LIST messages as its link takes them. Errors: TB_E_NOMEM (m is
 * answered FULL). */
int lobby__listed(Lobby_Member *m, size_t n, const uint64_t *since,
                  const uint8_t *const *card, const size_t *len);
/* fn(user, invite lookup, card, card length, game) for each seek this
 * node's hosts hold (the store keeps them listed while they are here). */
void lobby__seeks_each(Lobby_Rooms *rs,
                       void (*fn)(void *user, const uint8_t *inv,
                                  const uint8_t *card, size_t len,
                                  const char *game),
                       void *user);

/* The rating of the player of key in t in the game named game (a name
 * lobby_ratings_game gave) and class klass: POOL_RATING_NEWCOMER when t
 * has none (or is NULL). */
unsigned lobby__rating_of(Lobby_Ratings *t, const uint8_t key[LOBBY_KEY_BYTES],
                          const char *game, unsigned klass);

/* The player of key's ratings in t as "GAME:CLASS:RATING,..." (a name,
 * a Proto_Clock_Class number, whole points), each one t holds, into out
 * (cap bytes; "" for none or a NULL t): what admit.lua reads. */
#define LOBBY_RATINGS_TEXT_MAX                                                 \
    (POOL_GAMES_MAX * PROTO_CLASS_COUNT * (LOBBY_SEEK_GAME_MAX + 10) + 1)
void lobby__ratings_text(Lobby_Ratings *t, const uint8_t key[LOBBY_KEY_BYTES],
                         char *out, size_t cap);
/* The ratings the rooms rs pair and seat by (lobby_rooms_use_ratings). */
Lobby_Ratings *lobby__rooms_ratings(const Lobby_Rooms *rs);

/* The ratings of the player of key in t (room.h, "Ratings the pool
 * pairs by") into rating; zeros (newcomer) where t has none or is NULL. */
void lobby__ratings_fill(Lobby_Ratings *t, const uint8_t key[LOBBY_KEY_BYTES],
                         uint16_t rating[POOL_GAMES_MAX][PROTO_CLASS_COUNT]);

#endif /* TABULA_LOBBY_ROOM_INTERNAL_H */
