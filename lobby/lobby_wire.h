/*
 * lobby_wire.h: the part of lobby/ that needs no libuv: invite and watch
 * codes (code.c) and the client side of the lobby's messages as a codec
 * without I/O (wire.c). A Lobby_Wire is handed the bytes of each message
 * the lobby sent and answers with what it meant (admitted, a relayed
 * frame, an ACK, a presence change, a refusal) or with the reason to hang
 * up; it builds the messages a client sends (CREATE, JOIN or WATCH, and
 * DATA). It owns no socket and no timer: lobby/client.c drives one over
 * net/'s framed TCP, and the browser page's WebAssembly module
 * (web/wasm/web_match.c) drives one over a WebSocket, so both check the
 * host key against the code and number frames the same way. Included by
 * lobby.h; usable alone (no uv.h). The messages are in
 * docs/protocol-lobby.md.
 *
 * Errors are the negative TB_E_* codes of tb_error.h.
 */
#ifndef TABULA_LOBBY_WIRE_H
#define TABULA_LOBBY_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h" /* Proto_Receipt */

/* ---- invite and watch codes ------------------------------------------ */

/* Symbols of a code: 12 secret + 4 fingerprint. */
#define LOBBY_CODE_SYMBOLS 16
#define LOBBY_CODE_SECRET_SYMBOLS 12
/* "XXXX-XXXX-XXXX-XXXX" and its NUL. */
#define LOBBY_CODE_TEXT 20
/* The lookup the lobby files a room under: BLAKE2b-128 of the secret. */
#define LOBBY_LOOKUP_BYTES 16
/* A host's public key (Ed25519, as PROTO_KEY_BYTES). */
#define LOBBY_KEY_BYTES 32
/* A seat secret: chosen by a player, shown to the lobby to take back its
 * seat after a reconnect. */
#define LOBBY_SEAT_SECRET_BYTES 16
/* The seat key peers derive from a code (never sent to the lobby). */
#define LOBBY_SEAT_KEY_BYTES 32
/* A seat's proof of its player key in its hello (Ed25519). */
#define LOBBY_SEAT_PROOF_BYTES 64

/* The 32 symbols: digits 2-9 and letters without I and O. */
#define LOBBY_CODE_ALPHABET "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"

typedef struct Lobby_Code {
    char text[LOBBY_CODE_TEXT];             /* canonical, with dashes */
    char secret[LOBBY_CODE_SECRET_SYMBOLS]; /* the 12 secret symbols */
    char fingerprint[4];                    /* the 4 fingerprint symbols */
    uint8_t lookup[LOBBY_LOOKUP_BYTES];
} Lobby_Code;

/*
 * lobby_code_new: a fresh random code bound to host_pk (the host's
 * public key). Errors: TB_E_ARG, TB_E_CRYPTO.
 */
int lobby_code_new(const uint8_t host_pk[LOBBY_KEY_BYTES], Lobby_Code *out);

/*
 * lobby_code_make: the code whose secret symbols are bytes[i] & 31 (in
 * LOBBY_CODE_ALPHABET) bound to host_pk: lobby_code_new with the bytes
 * given, for a caller that draws them itself (the simulator, from its
 * seed). Errors: TB_E_ARG, TB_E_CRYPTO.
 */
int lobby_code_make(const uint8_t bytes[LOBBY_CODE_SECRET_SYMBOLS],
                    const uint8_t host_pk[LOBBY_KEY_BYTES], Lobby_Code *out);

/*
 * lobby_code_parse: read a code as a person types it: case is ignored,
 * and dashes, spaces and tabs anywhere are skipped (also what a code
 * pasted from a chat or a document may carry: en and em dashes,
 * U+2010..U+2015, the minus sign, a fullwidth hyphen, the no-break space,
 * a soft hyphen and the zero-width characters). Anything else outside the
 * alphabet (including the look-alikes 0, 1, I, O) or a count of symbols
 * other than 16 is refused. Errors: TB_E_ARG, TB_E_FORMAT, TB_E_CRYPTO.
 */
int lobby_code_parse(const char *text, Lobby_Code *out);

/*
 * lobby_code_check_host: 0 when the code's fingerprint matches host_pk,
 * TB_E_SIGNATURE when it does not (the lobby sent us to someone else).
 */
int lobby_code_check_host(const Lobby_Code *code,
                          const uint8_t host_pk[LOBBY_KEY_BYTES]);

/*
 * lobby_code_seat_key: BLAKE2b-256 of the code's secret under a separate
 * label: a key both players know and the lobby does not, for proto/ to
 * authenticate the seat handshake (e.g. a keyed hash of each player's
 * public key). Errors: TB_E_CRYPTO.
 */
int lobby_code_seat_key(const Lobby_Code *code,
                        uint8_t out[LOBBY_SEAT_KEY_BYTES]);

/*
 * lobby_random: n bytes from the operating system's secure generator
 * (seat secrets, codes). Errors: TB_E_CRYPTO.
 */
int lobby_random(void *buf, size_t n);

/*
 * lobby_seat_prove: a seat's proof of its player key (lobby protocol 4):
 * the Ed25519 signature by id of "tabula seat 1" NUL and msg[0..len) (a
 * hello's bytes before its proof) into sig. lobby_seat_proof_ok: 0 when
 * sig is pk's proof of msg[0..len), TB_E_SIGNATURE when not. Errors:
 * TB_E_ARG, TB_E_CRYPTO.
 */
int lobby_seat_prove(const uint8_t *msg, size_t len, const Proto_Identity *id,
                     uint8_t sig[LOBBY_SEAT_PROOF_BYTES]);
int lobby_seat_proof_ok(const uint8_t *msg, size_t len,
                        const uint8_t pk[LOBBY_KEY_BYTES],
                        const uint8_t sig[LOBBY_SEAT_PROOF_BYTES]);

/* ---- the client's messages ----------------------------------------- */

/* A member's role in a room, also the seat number of the players. */
typedef enum Lobby_Role {
    LOBBY_ROLE_HOST = 0,
    LOBBY_ROLE_GUEST = 1,
    LOBBY_ROLE_SPECTATOR = 2
} Lobby_Role;

/* What the lobby says when it admits a client to a room. */
typedef struct Lobby_Welcome {
    Lobby_Role role;
    uint8_t host_pk[LOBBY_KEY_BYTES];
    uint64_t first_seq; /* oldest frame the room still keeps (0: none) */
    uint64_t next_seq;  /* the number the next frame will get */
    int host_present, guest_present;
    /* The relay node's receipt key (the key of every receipt on this
     * connection) and its receipt clock at admission (ms since the Unix
     * epoch; no receipt of the room after it is earlier). */
    uint8_t relay_pk[LOBBY_KEY_BYTES];
    uint64_t relay_time;
    /* The key the room's guest seat holds (protocol 4: the first guest's
     * proven key, or the one its host named; zero: none yet). Receipts
     * are signed for it (Proto_Receipt.guest). */
    uint8_t guest_pk[LOBBY_KEY_BYTES];
} Lobby_Welcome;

/* Who a client is in a room (the lobby-facing half of
 * Lobby_Client_Config, whose fields mean the same). */
typedef struct Lobby_Wire_Config {
    Lobby_Role role;
    Lobby_Code invite;
    Lobby_Code watch;
    uint8_t host_pk[LOBBY_KEY_BYTES];
    uint8_t seat_secret[LOBBY_SEAT_SECRET_BYTES];
    /* The player's key pair (host and guest: each hello proves it; a
     * host's pk is host_pk). Unused by a spectator. */
    Proto_Identity id;
    /* A host's: the guest key its room must seat (a resumed match's
     * black; zero: the first guest to join with the code). */
    uint8_t guest_pk[LOBBY_KEY_BYTES];
} Lobby_Wire_Config;

typedef struct Lobby_Wire Lobby_Wire; /* opaque, heap */

/* The longest message lobby_wire_hello builds (CREATE). */
#define LOBBY_WIRE_HELLO_MAX 186
/* Bytes a DATA message puts in front of its payload. */
#define LOBBY_WIRE_DATA_HEADER 1
/* The largest payload of one DATA message the lobby takes by default. */
#define LOBBY_WIRE_PAYLOAD_MAX 98304
/* Bytes in front of the payload in a FRAME: type, seq u64, from u8, time
 * u64, signature [64] (the relay's receipt). */
#define LOBBY_WIRE_FRAME_HEADER 90
/* The longest message a client takes from the lobby by default: a FRAME
 * around the largest payload. */
#define LOBBY_WIRE_MESSAGE_MAX                                                 \
    (LOBBY_WIRE_PAYLOAD_MAX + LOBBY_WIRE_FRAME_HEADER)

/* What one message from the lobby meant (lobby_wire_read). */
typedef enum Lobby_Wire_Kind {
    LOBBY_WIRE_NONE = 0, /* nothing to do (a frame we already have) */
    LOBBY_WIRE_WELCOME,  /* admitted: welcome (the host key is checked) */
    LOBBY_WIRE_FRAME,    /* seq, from, data/len: a relayed frame */
    LOBBY_WIRE_ACK,      /* seq: the lobby numbered our own frame */
    LOBBY_WIRE_PRESENCE, /* seat came (present 1) or went (0) */
    LOBBY_WIRE_REFUSED,  /* reason: the lobby's ERROR as a TB_E_* code
                            (see Lobby_Client_Callbacks.on_disconnect);
                            it closes the connection next */
    LOBBY_WIRE_SEEKED    /* the answer to a host's SEEK: reason 0 (the
                            seek is listed) or why not (TB_E_SEEKS: the
                            key's or address's share of seeks is used;
                            TB_E_FULL: the lobby's; TB_E_SEAT: a guest
                            came already; TB_E_STATE: not the host);
                            the connection stays */
} Lobby_Wire_Kind;

typedef struct Lobby_Wire_Event {
    Lobby_Wire_Kind kind;
    Lobby_Welcome welcome; /* WELCOME */
    uint64_t seq;          /* FRAME, ACK */
    Lobby_Role from;       /* FRAME: LOBBY_ROLE_HOST or _GUEST */
    const uint8_t *data;   /* FRAME: the payload, inside the message */
    size_t len;
    Lobby_Role seat; /* PRESENCE */
    int present;
    uint8_t guest_pk[LOBBY_KEY_BYTES]; /* PRESENCE: the key the room's
                                          guest seat holds (zero: none) */
    int reason; /* REFUSED */
    /* FRAME, ACK, PRESENCE: the relay's receipt as the message gives it
     * (kind, seq, time_ms, sig; seat, present and guest for PRESENCE),
     * relay being the key this connection's WELCOME named. Not verified
     * here: proto_receipt_verify with the room's host key
     * (welcome.host_pk), its guest key filled in (a FRAME's or an ACK's:
     * the room's guest, as WELCOME and PRESENCE name it) and, for FRAME
     * and ACK, proto_receipt_hash of the frame's payload (an ACK's
     * payload is the frame the client sent). */
    Proto_Receipt receipt;
} Lobby_Wire_Event;

/*
 * lobby_wire_new: a codec for a client described by cfg (copied) that
 * holds every frame up to last_seq already. Errors: TB_E_ARG (no cfg, a
 * role out of range), TB_E_NOMEM.
 */
int lobby_wire_new(const Lobby_Wire_Config *cfg, uint64_t last_seq,
                   Lobby_Wire **out);

/* lobby_wire_free: release w; NULL is fine. */
void lobby_wire_free(Lobby_Wire *w);

/*
 * lobby_wire_hello: a new connection's first message into out (CREATE
 * for a host, JOIN for a guest, each with its proof of cfg.id's key;
 * WATCH for a spectator, with the watch code when its invite code is
 * all zero), asking for every frame after from_seq. Starts the
 * connection afresh: not admitted, holding frames up to from_seq.
 * Returns the message's length in bytes (0: the proof could not be
 * signed).
 */
size_t lobby_wire_hello(Lobby_Wire *w, uint64_t from_seq,
                        uint8_t out[LOBBY_WIRE_HELLO_MAX]);

/*
 * lobby_wire_read: one whole message from the lobby (len bytes). 0 with
 * *ev filled, or the reason to close the connection: TB_E_FORMAT (a
 * malformed message, a bad length, anything before WELCOME but WELCOME or
 * ERROR), TB_E_SIGNATURE (WELCOME names a host key the code does not
 * fingerprint, or another than our own as a host). ev->data points into
 * msg. Receipts are taken as sent (lengths checked, signatures not: see
 * Lobby_Wire_Event).
 */
int lobby_wire_read(Lobby_Wire *w, const uint8_t *msg, size_t len,
                    Lobby_Wire_Event *ev);

/*
 * lobby_wire_data_check: 0 when a seated, admitted client may send a
 * payload of len bytes (the DATA message is the type byte
 * LOBBY_WIRE_DATA_TYPE, then the payload). Errors: TB_E_ARG (len 0),
 * TB_E_STATE (not admitted, or a spectator), TB_E_LIMIT (len over
 * max_payload).
 */
#define LOBBY_WIRE_DATA_TYPE 0x04
int lobby_wire_data_check(const Lobby_Wire *w, size_t len, size_t max_payload);

/* DONE, one byte: a seat's game is over and every frame of it is
 * acknowledged; it sends nothing more. Once both seats said so, the room
 * goes 30 s after its last member instead of 10 minutes, counting in its
 * creator's shares until then, and is the first of its rooms to go when
 * the creator (or the node) needs a room (the relay-limits issue: a
 * finished game held its share for 10 minutes). The relay cannot check
 * the game's end and need not: only the seats' own room is at stake. */
#define LOBBY_WIRE_DONE_TYPE 0x05

/* KEEP, 5 bytes: type, seconds u32. A seat asks the relay to keep its
 * room that long after its last member left instead of 10 minutes: a
 * correspondence game (a days-a-move clock, issue 37) whose players are
 * offline between moves for days. The relay keeps it at most its own
 * limit (`tabula lobby --keep-days`, 30 days by default), only while
 * both seats have spoken (sent a frame) and neither said DONE, and never
 * longer than asked. The relay answers nothing: the room counts in its
 * creator's shares while kept.
 * A seat sends it after each WELCOME (a node that restarted, or another
 * node, learns it again). */
#define LOBBY_WIRE_KEEP_TYPE 0x09
#define LOBBY_WIRE_KEEP_LEN 5

/* lobby_wire_keep: the KEEP message asking for seconds into out. */
void lobby_wire_keep(uint8_t out[LOBBY_WIRE_KEEP_LEN], uint32_t seconds);

/* lobby_wire_name_guest: a host's next hellos name pk (LOBBY_KEY_BYTES)
 * as the guest its room must seat (a resumed match's black), so a
 * stranger holding the code cannot take the seat after a relay lost
 * the room. */
void lobby_wire_name_guest(Lobby_Wire *w, const uint8_t *pk);

/* lobby_wire_closed: the connection is gone (not admitted any more). */
void lobby_wire_closed(Lobby_Wire *w);

/* lobby_wire_admitted: nonzero between WELCOME and the connection's end. */
int lobby_wire_admitted(const Lobby_Wire *w);

/* lobby_wire_last_seq: the highest sequence number received or acked. */
uint64_t lobby_wire_last_seq(const Lobby_Wire *w);

/* lobby_wire_config: the configuration w was made with. */
const Lobby_Wire_Config *lobby_wire_config(const Lobby_Wire *w);

/* ---- public seeks (issue 37) ---------------------------------------- */

/*
 * A seek is a host's room put on the lobby's public list, so a stranger
 * can take its guest seat. Its *card* is signed by the host's key and
 * carries the room's invite code: reading a list, anyone can check that
 * the seek is that key's and the code its room's, and join with it
 * (tabula join CODE): accepting a seek is joining with an invite code.
 * The lobby checks the card (signature, the code's lookup is the room's,
 * the key the room's host) and lists it while the host is in the room
 * and no guest ever came (docs/protocol-lobby.md, "Seeks").
 *
 * The card (LOBBY_SEEK_CARD_MIN..MAX bytes): version u8 (1), host key
 * [32], the invite code's 16 symbols, game length u8 (1..16) and the
 * game's name ([a-z0-9]), options length u8 (0..255) and
 * the match options as the host starts the match (printable ASCII
 * without spaces, as proto.h's; the clock as "clock=VALUE"), name length
 * u8 (0..LOBBY_SEEK_NAME_MAX) and the host player's display name as a
 * name record (proto_name_sign: signed by the player's own key, which a
 * list shows beside the name) followed by that key's Ed25519 signature
 * of "tabula seek by 1" NUL, the host key and the code's 16 symbols (so
 * a record copied from a list names no other seek; none: length 0),
 * then the Ed25519 signature by the host key of "tabula seek 1" NUL and
 * every byte before it.
 */
#define LOBBY_SEEK_GAME_MAX 16
/* (a length byte: a match's options of PROTO_OPTIONS_MAX, 256, bytes
 * are one too many for a seek) */
#define LOBBY_SEEK_OPTIONS_MAX 255
/* (the name record, then the player's signature binding it to this
 * seek) */
#define LOBBY_SEEK_NAME_MAX (PROTO_NAME_RECORD_MAX + 64)
#define LOBBY_SEEK_CARD_MIN (1 + LOBBY_KEY_BYTES + LOBBY_CODE_SYMBOLS + 3 + 1 + 64)
#define LOBBY_SEEK_CARD_MAX                                                    \
    (1 + LOBBY_KEY_BYTES + LOBBY_CODE_SYMBOLS + 3 + LOBBY_SEEK_GAME_MAX +     \
     LOBBY_SEEK_OPTIONS_MAX + LOBBY_SEEK_NAME_MAX + 64) /* 621 */

/* A seek as a card says it. */
typedef struct Lobby_Seek {
    uint8_t host_pk[LOBBY_KEY_BYTES];
    Lobby_Code invite; /* its fingerprint checked against host_pk */
    char game[LOBBY_SEEK_GAME_MAX + 1];
    char options[LOBBY_SEEK_OPTIONS_MAX + 1];
    int named;     /* 1: who holds the host player's name record */
    Proto_Name who; /* its name and the player's key (proto_name_display
                       shows the two) */
} Lobby_Seek;

/*
 * lobby_seek_card: the card of a seek for the room of invite, hosted by
 * id (the seat's key), to play game with options (may be "") by the
 * player whose name record (proto_name_sign) is name[0..name_len)
 * (name_len 0: none), player being that record's key pair, which binds
 * it to this seek (NULL with no name), into out; *len its length
 * (bytes). Errors: TB_E_ARG (a NULL argument, invite not bound to id's
 * key, a record not player's), TB_E_LIMIT (a field over its length),
 * TB_E_FORMAT (a character a card may not carry, or a name record
 * proto_name_verify refuses), TB_E_CRYPTO.
 */
int lobby_seek_card(const Proto_Identity *id, const Lobby_Code *invite,
                    const char *game, const char *options, const uint8_t *name,
                    size_t name_len, const Proto_Identity *player,
                    uint8_t out[LOBBY_SEEK_CARD_MAX], size_t *len);

/*
 * lobby_seek_card_read: the seek card[0..len) says, into *out, once its
 * signature, its code's fingerprint (against its host key), its name
 * record (proto_name_verify: signed by its player's key, a name in its
 * canonical form, nothing a terminal would act on) and the player's
 * binding of it to this host key and code, and every field's
 * length and characters are checked. Errors: TB_E_FORMAT (a bad length,
 * version, character or name record), TB_E_SIGNATURE (not signed by its
 * host key, or a code the key does not fingerprint), TB_E_CRYPTO.
 */
int lobby_seek_card_read(const uint8_t *card, size_t len, Lobby_Seek *out);

/* lobby_seek_game_ok: 1 when s[0..n) holds only what a game's name in a
 * card or a SEEKS may ([a-z0-9]), else 0. */
int lobby_seek_game_ok(const uint8_t *s, size_t n);

/* lobby_seek_card_game: the game card[0..len) names, unchecked
 * otherwise (a relay's filter of cards it checked when they came).
 * Errors: TB_E_FORMAT. */
int lobby_seek_card_game(const uint8_t *card, size_t len,
                         char game[LOBBY_SEEK_GAME_MAX + 1]);

/* The type bytes of SEEK (a host's card for the list), SEEKS (a hello
 * asking for the list), SEEKED (the answer to SEEK) and LIST (a part of
 * the list). */
#define LOBBY_WIRE_SEEK_TYPE 0x06
#define LOBBY_WIRE_SEEKS_TYPE 0x07
#define LOBBY_WIRE_SEEKED_TYPE 0x87
#define LOBBY_WIRE_LIST_TYPE 0x88

/* The longest SEEK message, and the length of a SEEKS. */
#define LOBBY_WIRE_SEEK_MAX (1 + LOBBY_SEEK_CARD_MAX)
#define LOBBY_WIRE_SEEKS_LEN (2 + LOBBY_SEEK_GAME_MAX)
/* The relay sends its list in LIST messages of at most this many bytes
 * (each within LOBBY_WIRE_MESSAGE_MAX). */
#define LOBBY_WIRE_LIST_MAX 65536

/* lobby_wire_error_read: the TB_E_* refusal an ERROR message msg[0..len)
 * says (as LOBBY_WIRE_REFUSED's reason); TB_E_FORMAT when msg is no
 * ERROR. */
int lobby_wire_error_read(const uint8_t *msg, size_t len);

/* lobby_wire_seek: the SEEK message carrying card[0..len) into out;
 * its length (0: len out of range). */
size_t lobby_wire_seek(uint8_t out[LOBBY_WIRE_SEEK_MAX], const uint8_t *card,
                       size_t len);

/* lobby_wire_seeks: the SEEKS hello asking for the open seeks of game
 * (NULL or "": of every game) into out; its length (0: a game name over
 * LOBBY_SEEK_GAME_MAX). The lobby answers with LIST messages, then
 * closes the connection. */
size_t lobby_wire_seeks(uint8_t out[LOBBY_WIRE_SEEKS_LEN], const char *game);

/*
 * lobby_wire_list_read: one LIST message msg[0..len): each seek's card
 * and since (the relay's clock when it listed the seek, ms since the
 * Unix epoch) to each(user, since, card, card_len); its return value, if
 * not 0, stops the walk and is returned. *last is 1 on the list's last
 * message. The cards are not checked here (lobby_seek_card_read).
 * Errors: TB_E_FORMAT (not a LIST, or lengths that do not add up).
 */
int lobby_wire_list_read(const uint8_t *msg, size_t len,
                         int (*each)(void *user, uint64_t since,
                                     const uint8_t *card, size_t card_len),
                         void *user, int *last);

/* ---- the pool (issue 37) ------------------------------------------- */

/*
 * A player offers several games and a range of clocks at once; the relay
 * pairs compatible offers (lobby/pool.h, docs/pool.md) and tells both
 * players which game and clock, and who hosts (docs/protocol-lobby.md,
 * "Pool"). POOL is a hello of its own: version u8 (LOBBY_WIRE_POOL_VERSION,
 * 5: a rating range came with issue 38), games u16 (bit i:
 * game i of the core catalogue's order, core_game_at(i); the relay
 * needs no rules, only the bits), range length u8 and the clock range
 * "A..B" (each end proto_clock_format's canonical text; length 0: no
 * clock), the ratings it pairs with: lo u16, hi u16 (both included; 0
 * and 0: any), the player's key [32] (its identity: two offers of one player
 * key never pair, and it has one waiting at a time), then the player's
 * seek card (lobby_seek_card: its key is the seat key the player plays
 * this game with, its code an invite code bound to it; its game the
 * first game offered), then the player key's proof [64]: the Ed25519
 * signature of "tabula pool 1", its NUL and every byte before it. The
 * relay answers POOL_WAIT (how many wait for each game) at once and as
 * the counts change, then PAIRED, and closes the connection.
 */
#define LOBBY_POOL_GAMES 16
/* "A..B" of two canonical clock texts, without a NUL. */
#define LOBBY_POOL_RANGE_MAX (2 * (PROTO_CLOCK_TEXT_MAX - 1) + 2)
#define LOBBY_WIRE_POOL_TYPE 0x08
#define LOBBY_WIRE_POOL_WAIT_TYPE 0x89
#define LOBBY_WIRE_PAIRED_TYPE 0x8a
/* POOL: type, version, games, range length, range, rating range, player
 * key, card, proof. */
#define LOBBY_WIRE_POOL_VERSION 5
#define LOBBY_WIRE_POOL_MIN                                                    \
    (9 + LOBBY_KEY_BYTES + LOBBY_SEEK_CARD_MIN + LOBBY_SEAT_PROOF_BYTES)
#define LOBBY_WIRE_POOL_MAX                                                    \
    (9 + LOBBY_POOL_RANGE_MAX + LOBBY_KEY_BYTES + LOBBY_SEEK_CARD_MAX +        \
     LOBBY_SEAT_PROOF_BYTES) /* 708 */
/* POOL_WAIT: type, then the offers waiting for each game, u32 each. */
#define LOBBY_WIRE_POOL_WAIT_LEN (1 + 4 * LOBBY_POOL_GAMES) /* 65 */
/* PAIRED: type, role u8, game u8, the host's invite code's 16 symbols,
 * the guest's key [32], clock length u8 and the clock's canonical text
 * (length 0: no clock), options length u8 and the host's match options
 * (its card's: printable ASCII without spaces, no clock). */
#define LOBBY_WIRE_PAIRED_MIN (5 + LOBBY_CODE_SYMBOLS + LOBBY_KEY_BYTES) /* 53 */
#define LOBBY_WIRE_PAIRED_MAX                                                  \
    (LOBBY_WIRE_PAIRED_MIN + PROTO_CLOCK_TEXT_MAX - 1 +                        \
     LOBBY_SEEK_OPTIONS_MAX) /* 331 */

/* An offer as POOL carries it. */
typedef struct Lobby_Pool_Ask {
    uint16_t games;      /* bit i: game i (core_game_at(i)), at least one */
    Proto_Clock lo, hi;  /* the range (both PROTO_CLOCK_NONE: no clock) */
    uint16_t want_lo, want_hi; /* ratings it pairs with; 0, 0: any */
    uint8_t player_pk[LOBBY_KEY_BYTES]; /* the player's key, proven */
    Lobby_Seek card;     /* the player's card, checked */
    const uint8_t *card_bytes; /* inside the message read */
    size_t card_len;
} Lobby_Pool_Ask;

/* A pairing as PAIRED says it. */
typedef struct Lobby_Paired {
    Lobby_Role role;   /* this player's: LOBBY_ROLE_HOST or _GUEST */
    unsigned game;     /* index in the core catalogue (core_game_at) */
    Proto_Clock clock; /* the match's clock (PROTO_CLOCK_NONE: none) */
    Lobby_Code invite; /* the host's invite code (its card's) */
    uint8_t guest_pk[LOBBY_KEY_BYTES]; /* the guest's key (its card's) */
    char options[LOBBY_SEEK_OPTIONS_MAX + 1]; /* the host's match options
                                                 (its card's), no clock:
                                                 the match starts with them
                                                 and the clock */
} Lobby_Paired;

/*
 * lobby_wire_pool: the POOL hello of player (its key pair: the offer is
 * this key's, proven by it) offering games (a bit mask, nonzero) at the
 * clocks lo..hi (both PROTO_CLOCK_NONE, or NULL: no clock), paired only
 * with players rated want_lo..want_hi (whole points, both included; 0
 * and 0: any), with the card[0..card_len) into out; its length (0: no
 * player or games, a card out of range, ends of two kinds or out of
 * order, want_lo over want_hi, a clock with no text, a proof that could
 * not be signed).
 */
size_t lobby_wire_pool(uint8_t out[LOBBY_WIRE_POOL_MAX],
                       const Proto_Identity *player, uint16_t games,
                       const Proto_Clock *lo, const Proto_Clock *hi,
                       uint16_t want_lo, uint16_t want_hi,
                       const uint8_t *card, size_t card_len);

/*
 * lobby_wire_pool_read: a POOL message msg[0..len) into *out, its card
 * checked as lobby_seek_card_read checks it (out->card_bytes points into
 * msg), and its player key's proof. Errors: TB_E_FORMAT (another
 * message, a bad length, no games, a range not in its canonical form,
 * ends of two kinds or out of order, a rating range out of order, a bad
 * card), TB_E_VERSION (another version than LOBBY_WIRE_POOL_VERSION), TB_E_SIGNATURE (a proof not the player
 * key's, a card not signed by its key, or a code its key does not
 * fingerprint), TB_E_CRYPTO.
 */
int lobby_wire_pool_read(const uint8_t *msg, size_t len, Lobby_Pool_Ask *out);

/* lobby_wire_pool_wait: POOL_WAIT with counts[i] offers waiting for game
 * i into out; its length. lobby_wire_pool_wait_read: the counts a
 * POOL_WAIT msg[0..len) says. Errors: TB_E_FORMAT (not a POOL_WAIT of
 * its length). */
size_t lobby_wire_pool_wait(uint8_t out[LOBBY_WIRE_POOL_WAIT_LEN],
                            const uint32_t counts[LOBBY_POOL_GAMES]);
int lobby_wire_pool_wait_read(const uint8_t *msg, size_t len,
                              uint32_t counts[LOBBY_POOL_GAMES]);

/* lobby_wire_paired: PAIRED saying *p into out; its length (0: a role
 * not host or guest, a game past LOBBY_POOL_GAMES, a clock with no
 * text, options with a space or a character outside printable ASCII).
 * lobby_wire_paired_read: what a PAIRED msg[0..len) says. Errors:
 * TB_E_FORMAT (not a PAIRED, a bad length, role, game, code, options or
 * clock text not in its canonical form), TB_E_CRYPTO. */
size_t lobby_wire_paired(uint8_t out[LOBBY_WIRE_PAIRED_MAX],
                         const Lobby_Paired *p);
int lobby_wire_paired_read(const uint8_t *msg, size_t len, Lobby_Paired *out);

/* ---- the relay's side ---------------------------------------------- */

/* The relay's messages, built here once for the lobby's rooms
 * (lobby/room.c, which the relay and the simulator run), so they speak
 * the bytes the client side reads above (docs/protocol-lobby.md). */

/* The first byte of WELCOME, FRAME, ACK and PRESENCE. */
#define LOBBY_WIRE_WELCOME_TYPE 0x81
#define LOBBY_WIRE_FRAME_TYPE 0x82
#define LOBBY_WIRE_ACK_TYPE 0x83
#define LOBBY_WIRE_PRESENCE_TYPE 0x84

/* lobby_wire_welcome_read: what a WELCOME (msg[0..len)) says, checked
 * for the numbers no lobby gives, without a client's state (its host
 * key is not checked here: lobby_wire_read does). Errors: TB_E_FORMAT. */
int lobby_wire_welcome_read(const uint8_t *msg, size_t len,
                            Lobby_Welcome *out);

/* Liveness (the relay-limits issue: a hung node was noticed only after
 * 15.7 s). A relay sends each member it has let into a room a BEAT when
 * it has sent that member nothing for LOBBY_WIRE_BEAT_MS; a member that
 * hears nothing at all for LOBBY_WIRE_SILENT_MS takes the relay as hung
 * and connects again (to the next node, where there are several). Both
 * in ms. */
#define LOBBY_WIRE_BEAT_MS 1000u
#define LOBBY_WIRE_SILENT_MS 3000u

/* The lengths of WELCOME, ACK, PRESENCE and ERROR (FRAME's header:
 * LOBBY_WIRE_FRAME_HEADER above). */
#define LOBBY_WIRE_WELCOME_LEN 123
#define LOBBY_WIRE_ACK_LEN 89
#define LOBBY_WIRE_PRESENCE_LEN 123
#define LOBBY_WIRE_ERROR_LEN 2

/* lobby_wire_welcome: WELCOME into out: role admitted, the room's host
 * key, the oldest frame it keeps (first_seq, 0: none) and the next
 * number, presence bits (1 host seated, 2 guest seated), the node's
 * receipt key relay_pk, its receipt clock relay_time (ms since the
 * Unix epoch) and the key the guest seat holds (guest_pk; zero: none).
 * Returns its length. */
size_t lobby_wire_welcome(uint8_t out[LOBBY_WIRE_WELCOME_LEN], int role,
                          const uint8_t host_pk[LOBBY_KEY_BYTES],
                          uint64_t first_seq, uint64_t next_seq,
                          unsigned presence,
                          const uint8_t relay_pk[LOBBY_KEY_BYTES],
                          uint64_t relay_time,
                          const uint8_t guest_pk[LOBBY_KEY_BYTES]);

/* lobby_wire_ack: ACK of the member's own frame: the FRAME receipt r
 * (its seq, time_ms and sig); returns its length. */
size_t lobby_wire_ack(uint8_t out[LOBBY_WIRE_ACK_LEN], const Proto_Receipt *r);

/* lobby_wire_presence: PRESENCE carrying the PRESENCE receipt r (its
 * seat: 0 host, 1 guest; present 0 or 1; seq, time_ms, sig; and the
 * guest key it is signed for); returns its length. */
size_t lobby_wire_presence(uint8_t out[LOBBY_WIRE_PRESENCE_LEN],
                           const Proto_Receipt *r);

/* lobby_wire_frame_header: the header of a FRAME carrying a frame of
 * seat from with the FRAME receipt r (its seq, time_ms and sig; the
 * payload follows the header); returns its length. */
size_t lobby_wire_frame_header(uint8_t out[LOBBY_WIRE_FRAME_HEADER], int from,
                               const Proto_Receipt *r);

/* lobby_wire_frame_receipt: the receipt in a FRAME message msg (at least
 * LOBBY_WIRE_FRAME_HEADER bytes, as lobby_wire_frame_header wrote it;
 * relay and the PRESENCE fields left zero): the relay reads a kept
 * frame's receipt back for its ACK. */
void lobby_wire_frame_receipt(const uint8_t *msg, Proto_Receipt *out);

/* lobby_wire_refusal: ERROR refusing with reason, a TB_E_* code the
 * client reads back as the same (TB_E_CODE, TB_E_RATE, TB_E_FULL,
 * TB_E_SEAT, TB_E_REPLACED, TB_E_VERSION; anything else is sent as a
 * protocol error); returns its length. */
size_t lobby_wire_refusal(uint8_t out[LOBBY_WIRE_ERROR_LEN], int reason);

/* What a client's first message asked (lobby_wire_hello_read). */
typedef struct Lobby_Wire_Hello {
    Lobby_Role role; /* CREATE: host, JOIN: guest, WATCH: spectator */
    unsigned version;
    uint8_t lookup[LOBBY_LOOKUP_BYTES];       /* the code's lookup */
    uint8_t watch_lookup[LOBBY_LOOKUP_BYTES]; /* CREATE: the watch code's */
    uint8_t host_pk[LOBBY_KEY_BYTES];         /* CREATE */
    uint8_t seat_secret[LOBBY_SEAT_SECRET_BYTES]; /* CREATE, JOIN */
    uint8_t player_pk[LOBBY_KEY_BYTES]; /* CREATE: host_pk; JOIN: the
                                           guest's key */
    uint8_t guest_pk[LOBBY_KEY_BYTES];  /* CREATE: the guest named (zero:
                                           any); JOIN: player_pk */
    uint64_t from_seq; /* every frame after this is asked for */
} Lobby_Wire_Hello;

/*
 * lobby_wire_hello_read: a client's first message (CREATE, JOIN or
 * WATCH, msg[0..len)) into *out, a CREATE's or JOIN's proof checked.
 * Errors: TB_E_FORMAT (another message, a wrong length), TB_E_VERSION
 * (a version other than this build's), TB_E_SIGNATURE (a proof that is
 * not the player key's).
 */
int lobby_wire_hello_read(const uint8_t *msg, size_t len,
                          Lobby_Wire_Hello *out);

/*
 * lobby_wire_hello_ask: rewrite the sequence number after which a hello
 * (CREATE, JOIN or WATCH, msg[0..len)) asks for frames: a fault the
 * simulator plants (a seat asking again for frames it has). Errors:
 * TB_E_FORMAT (not a hello of its length).
 */
int lobby_wire_hello_ask(uint8_t *msg, size_t len, uint64_t from_seq);

#endif /* TABULA_LOBBY_WIRE_H */
