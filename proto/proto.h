/*
 * proto.h: Tabula's protocol layer over the rules core: the state hash
 * every peer compares after each ply, player identities (Ed25519 keys),
 * signed msgpack envelopes in length-prefixed frames, the hash-chained
 * transcript of a match, append-only match log files and plain game
 * records (PGN-like tag lines and moves in the game's notation).
 *
 * Nothing here blocks except the functions that name a file or a folder
 * (proto_identity_*, proto_log_*, proto_read_file, proto_paths_logs):
 * sealing, opening, framing and the transcript work on caller memory and
 * suit an event loop.
 *
 * Wire layout (docs/protocol.md has the full table):
 *   frame    = u32 big-endian length N (1..PROTO_FRAME_MAX), N envelope bytes
 *   envelope = msgpack [payload: bin, signature: bin 64]
 *   payload  = msgpack [version, kind, match id: bin 16, seq, prev: bin 32,
 *                       sender: bin 32, body: array]
 * The signature is Ed25519 (libsodium, detached) over exactly the payload
 * bytes, by the sender key inside them. Every msgpack item is in its
 * smallest form; a payload that does not re-encode to its own bytes is
 * refused. prev is the chain hash of the match's previous envelope: the
 * BLAKE2b-256 of its payload bytes (all zero for sequence number 0).
 *
 * Errors are the negative TB_E_* codes of tb_error.h.
 */
#ifndef TABULA_PROTO_H
#define TABULA_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* Bytes of a state hash and of a chain hash: BLAKE2b-256. */
#define PROTO_HASH_BYTES 32
/* Lowercase hex of a hash, NUL included. */
#define PROTO_HASH_HEX (2 * PROTO_HASH_BYTES + 1)

/* Ed25519 public key, secret key (seed and public key), signature. */
#define PROTO_KEY_BYTES 32
#define PROTO_SECRET_BYTES 64
#define PROTO_SIG_BYTES 64
/* A match id: random bytes chosen by the player who starts the match. */
#define PROTO_MATCH_ID_BYTES 16
/* A hello's handshake nonce. */
#define PROTO_NONCE_BYTES 32

/* The only protocol version this build speaks. */
#define PROTO_VERSION 1

/* ---- hard limits (checked before msgpack-c sees a byte) -------------- */

/* Largest state encoding a desync report may carry. */
#define PROTO_STATE_MAX 65536
/* Largest payload and largest envelope (the frame's length field). */
#define PROTO_PAYLOAD_MAX (PROTO_STATE_MAX + 1024)
#define PROTO_FRAME_MAX (PROTO_PAYLOAD_MAX + 128)
/* Bytes of the frame's length prefix. */
#define PROTO_FRAME_PREFIX 4
/* Longest msgpack string anywhere (chat text is the longest field). */
#define PROTO_STR_MAX 1024
/* Most elements of one msgpack array; maps are not used (cap 0). */
#define PROTO_ARRAY_MAX 16
#define PROTO_MAP_MAX 0
/* Deepest nesting of arrays and most items in one msgpack document. */
#define PROTO_DEPTH_MAX 4
#define PROTO_ITEMS_MAX 64
/* Field caps (bytes, NUL not included). */
#define PROTO_NAME_MAX 32            /* game name, software name */
#define PROTO_OPTIONS_MAX 256        /* match options */
#define PROTO_TEXT_MAX PROTO_STR_MAX /* chat and bye text */
/* Largest log file proto_read_file accepts. */
#define PROTO_FILE_MAX (64u * 1024 * 1024)

/* Printable fingerprint "XXXX-XXXX-XXXX-XXXX", NUL included. */
#define PROTO_FINGERPRINT_MAX 20

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
int proto_state_hash(const Core_Position *pos, uint8_t out[PROTO_HASH_BYTES]);

/*
 * proto_digest: BLAKE2b-256 of buf[0..len), keyed with key[0..key_len)
 * (key_len 0 for none, else 16..64 bytes). Errors: TB_E_ARG, TB_E_CRYPTO.
 */
int proto_digest(const uint8_t *buf, size_t len, const uint8_t *key,
                 size_t key_len, uint8_t out[PROTO_HASH_BYTES]);

/* proto_equal: 1 when a and b hold the same n bytes (constant time). */
int proto_equal(const void *a, const void *b, size_t n);

/* proto_wipe: overwrite n bytes with zeros (not optimised away). */
void proto_wipe(void *buf, size_t n);

/* proto_hex: lowercase hex of n bytes into out (2n+1 bytes). */
void proto_hex(const uint8_t *bytes, size_t n, char *out);

/* proto_unhex: n bytes into out from hex, which must be exactly 2n
 * lowercase hex digits (len of them: the form proto_hex writes, the only
 * one the project stores or sends). 0, or TB_E_FORMAT (another length,
 * another character, hex NULL); out may be partly written then. The one
 * hex reader of the keys, seat files, Redis fields and the page's seats. */
int proto_unhex(const char *hex, size_t len, uint8_t *out, size_t n);

/* ---- identities ------------------------------------------------------ */

/* A player's Ed25519 key pair. Wipe with proto_identity_wipe. */
typedef struct Proto_Identity {
    uint8_t pk[PROTO_KEY_BYTES];
    uint8_t sk[PROTO_SECRET_BYTES];
} Proto_Identity;

/* proto_identity_generate: a fresh random key pair. Errors: TB_E_CRYPTO. */
int proto_identity_generate(Proto_Identity *id);

/* proto_identity_from_seed: the key pair of a 32-byte seed (tests,
 * benchmarks, deterministic bots). Errors: TB_E_CRYPTO. */
int proto_identity_from_seed(Proto_Identity *id,
                             const uint8_t seed[PROTO_KEY_BYTES]);

/* Overwrite the secret key with zeros. */
void proto_identity_wipe(Proto_Identity *id);

/*
 * proto_sign_document / proto_verify_document: a detached Ed25519
 * signature over "tabula " || domain || " 1" || NUL || msg[0..len), for
 * signed documents other than the match's envelopes (a tournament's,
 * issue 38): the domain (1..32 bytes of lowercase letters, e.g.
 * "tournament") keeps a signature of one kind of document from being
 * taken for another's, or for an envelope's. proto_sign_document writes
 * sig with id's secret key: 0, or TB_E_ARG (NULL, a bad domain),
 * TB_E_NOMEM, TB_E_CRYPTO. proto_verify_document: 0 when sig is pk's
 * signature of those bytes, else TB_E_SIGNATURE (TB_E_ARG, TB_E_NOMEM
 * as above).
 */
int proto_sign_document(const Proto_Identity *id, const char *domain,
                        const uint8_t *msg, size_t len,
                        uint8_t sig[PROTO_SIG_BYTES]);
int proto_verify_document(const uint8_t pk[PROTO_KEY_BYTES],
                          const char *domain, const uint8_t *msg, size_t len,
                          const uint8_t sig[PROTO_SIG_BYTES]);

/*
 * proto_identity_path: the identity file's path into buf:
 * $XDG_CONFIG_HOME/tabula/identity, or $HOME/.config/tabula/identity when
 * XDG_CONFIG_HOME is unset or not absolute (XDG Base Directory spec).
 * Errors: TB_E_SPACE, TB_E_IO (neither variable usable).
 */
int proto_identity_path(char *buf, size_t cap);

/*
 * proto_identity_load: read the identity at path (NULL: the default path
 * above), creating it first when absent (directories mode 0700, the file
 * mode 0600, written to a temporary file, fsynced and linked into place
 * so two racing processes agree on one key). *created (may be NULL) is
 * set to 1 when this call made the key. A file readable or writable by
 * group or others is refused, as ssh does.
 * Errors: TB_E_IO (cannot read or create; permissions too open),
 * TB_E_FORMAT (not an identity file, or its public key does not match its
 * seed), TB_E_CRYPTO.
 */
int proto_identity_load(Proto_Identity *id, const char *path, int *created);

/*
 * proto_fingerprint: a short printable name of a public key: the first 80
 * bits of BLAKE2b-256("tabula-fingerprint" || pk) in Crockford base32,
 * four groups of four ("7QK2-M9XD-0A4F-TT3C"). out needs
 * PROTO_FINGERPRINT_MAX bytes.
 */
void proto_fingerprint(const uint8_t pk[PROTO_KEY_BYTES],
                       char out[PROTO_FINGERPRINT_MAX]);

/* ---- display names (issue 37) ---------------------------------------- */

/*
 * A player's display name is text the player chose, signed by the
 * player's key: no accounts. It is hostile input wherever it comes from,
 * so one checker (proto_name_check) decides every name, typed, stored or
 * received, and one formatter (proto_name_display) shows it, always with
 * the key's fingerprint beside it: two keys with one name read
 * differently. docs/protocol.md, "Display names", has the rules and the
 * record's layout.
 */

/* Most code points and most bytes (NUL not included) of a display name.
 * (Every character of the repertoire takes one or two bytes, so the code
 * point cap binds first; the byte cap stays as the wire's bound.) */
#define PROTO_DISPLAY_NAME_CHARS 24
#define PROTO_DISPLAY_NAME_MAX 64
/* Bytes of "NAME (XXXX-XXXX-XXXX-XXXX)", NUL included. */
#define PROTO_NAME_SHOWN_MAX (PROTO_DISPLAY_NAME_MAX + 3 + PROTO_FINGERPRINT_MAX)
/* Bytes of a name record: version, key, time, length, name, signature. */
#define PROTO_NAME_RECORD_MIN (1 + PROTO_KEY_BYTES + 8 + 1 + 1 + PROTO_SIG_BYTES)
#define PROTO_NAME_RECORD_MAX \
    (PROTO_NAME_RECORD_MIN - 1 + PROTO_DISPLAY_NAME_MAX)
/* The name record's version byte. */
#define PROTO_NAME_VERSION 1

/* The rule a refused name broke (Proto_Name_Fault.rule). */
typedef enum Proto_Name_Rule {
    PROTO_NAME_OK = 0,
    PROTO_NAME_UTF8,       /* not UTF-8: TB_E_FORMAT */
    PROTO_NAME_LONG,       /* over 24 code points or 64 bytes: TB_E_LIMIT */
    PROTO_NAME_EMPTY,      /* nothing but spaces: TB_E_NAME_EMPTY */
    PROTO_NAME_CONTROL,    /* C0, DEL, C1: TB_E_NAME_CHAR (and so below) */
    PROTO_NAME_BIDI,       /* a bidirectional control */
    PROTO_NAME_INVISIBLE,  /* zero-width, filler, variation selector, ... */
    PROTO_NAME_COMBINING,  /* a combining mark */
    PROTO_NAME_REPERTOIRE  /* any other character outside the repertoire */
} Proto_Name_Rule;

/* Where and why proto_name_check refused a name. */
typedef struct Proto_Name_Fault {
    int rule;      /* Proto_Name_Rule */
    size_t offset; /* byte offset in the input of the offending character
                      (PROTO_NAME_UTF8: of the first bad byte) */
    uint32_t index; /* its 0-based code point index in the input (the
                       code points before it, spaces included) */
    uint32_t cp;    /* the character (PROTO_NAME_UTF8: the code point of a
                       noncharacter, else the first bad byte
                       and has_cp 0); 0 for PROTO_NAME_EMPTY */
    int has_cp;     /* cp is a code point (1) or a byte (0) */
} Proto_Name_Fault;

/*
 * proto_name_check_at: decide a display name typed by a user, text[0..len)
 * (not NUL-terminated; NUL is a control), and write its canonical form,
 * NUL-terminated, into out[0..cap). The rules, in the order the input is
 * read (the first offence is reported):
 *  - well-formed UTF-8: no overlong form, no surrogate (U+D800..U+DFFF),
 *    nothing past U+10FFFF, no noncharacter (U+FDD0..U+FDEF, U+xxFFFE,
 *    U+xxFFFF);
 *  - spaces (U+0020 only) before the first and after the last other
 *    character are dropped, and each inner run of them becomes one;
 *  - refused: C0 controls, DEL and C1 controls (U+0000..U+001F,
 *    U+007F..U+009F); every bidirectional control (U+061C, U+200E,
 *    U+200F, U+202A..U+202E, U+2066..U+2069); zero-width and invisible
 *    characters (U+00AD, U+034F, U+115F, U+1160, U+17B4, U+17B5,
 *    U+180B..U+180F, U+200B..U+200D, U+2060..U+2065, U+3164, U+FE00..U+FE0F,
 *    U+FEFF, U+FFA0, U+FFF9..U+FFFB, U+1BCA0..U+1BCA3, U+1D173..U+1D17A,
 *    U+E0000..U+E0FFF: tags and variation selectors); combining marks (the
 *    combining blocks U+0300..U+036F, U+0483..U+0489, U+1AB0..U+1AFF,
 *    U+1DC0..U+1DFF, U+20D0..U+20FF, U+FE20..U+FE2F, U+3099..U+309A are
 *    named so; any other mark is outside the repertoire anyway);
 *  - everything else outside the repertoire: ASCII letters and digits,
 *    space, '-', '_', '.', '\'', the letters of Latin-1 Supplement
 *    (U+00C0..U+00FF but U+00D7 and U+00F7), Latin Extended-A
 *    (U+0100..U+017F) and Cyrillic's letters (U+0400..U+0481,
 *    U+048A..U+04FF: not the sign U+0482 nor the marks U+0483..U+0489);
 *  - 1..PROTO_DISPLAY_NAME_CHARS code points and at most
 *    PROTO_DISPLAY_NAME_MAX bytes once spaces are trimmed and folded.
 * Normalisation: the repertoire holds only precomposed letters and
 * characters that are their own NFC (none has a canonical decomposition
 * that is a singleton or a different sequence, none is a combining mark
 * or has a nonzero combining class, and no two of them compose), so every
 * accepted name is in Unicode NFC and two names are the same name exactly
 * when their bytes are equal. (Compatibility forms such as U+0132 'Ĳ' stay
 * as they are: NFC, not NFKC.)
 * fault (may be NULL) gets the rule broken and where: nothing of it is
 * meaningful on success. On failure out holds "" when cap > 0.
 * Errors: TB_E_FORMAT (UTF-8), TB_E_LIMIT (too long), TB_E_NAME_EMPTY,
 * TB_E_NAME_CHAR (a character refused: the fault's rule says which
 * rule), TB_E_SPACE (cap below the canonical form's length + 1;
 * PROTO_DISPLAY_NAME_MAX + 1 always suffices), TB_E_ARG (text or out
 * NULL).
 */
int proto_name_check_at(const char *text, size_t len, char *out, size_t cap,
                        Proto_Name_Fault *fault);

/* proto_name_check: proto_name_check_at without the fault. */
int proto_name_check(const char *text, size_t len, char *out, size_t cap);

/* A verified name record. */
typedef struct Proto_Name {
    uint8_t pk[PROTO_KEY_BYTES]; /* the signer: the player the name is of */
    uint64_t time_ms; /* Unix milliseconds by the signer's clock: of two
                         records of one key, the later is the name now */
    char name[PROTO_DISPLAY_NAME_MAX + 1]; /* canonical, NUL-terminated */
} Proto_Name;

/*
 * proto_name_sign: the record of id's display name into out[0..cap), its
 * length in bytes in *len: the canonical form of name (NUL-terminated;
 * proto_name_check decides it), with time_ms (Unix milliseconds), signed
 * by id. Layout, all integers big-endian:
 *   version u8 (PROTO_NAME_VERSION), key [32], time_ms u64, n u8 (1..64),
 *   name [n] (canonical UTF-8), signature [64]
 * The Ed25519 signature is over "tabula name 1\0" (14 bytes, NUL
 * included) followed by every byte before the signature.
 * Errors: those of proto_name_check, TB_E_SPACE (cap under the record's
 * length; PROTO_NAME_RECORD_MAX always suffices), TB_E_ARG, TB_E_CRYPTO.
 */
int proto_name_sign(const Proto_Identity *id, const char *name,
                     uint64_t time_ms, uint8_t *out, size_t cap, size_t *len);

/*
 * proto_name_verify: check a name record rec[0..len) (bytes as received:
 * nothing is re-encoded) and fill *out. The version must be
 * PROTO_NAME_VERSION, len exactly the layout's, the signature the key's,
 * and the name must pass proto_name_check and be its own canonical form
 * (so a signer cannot smuggle a bidi control or an untrimmed name).
 * *out is zeroed on failure.
 * Errors: TB_E_VERSION, TB_E_FORMAT (a length that is not the layout's, a
 * name that is not canonical or not UTF-8), TB_E_SIGNATURE, the name's
 * errors of proto_name_check (TB_E_LIMIT, TB_E_NAME_EMPTY,
 * TB_E_NAME_CHAR), TB_E_ARG (NULL).
 */
int proto_name_verify(const uint8_t *rec, size_t len, Proto_Name *out);

/*
 * proto_name_display: the one way a name is shown, into out[0..cap):
 * "NAME (XXXX-XXXX-XXXX-XXXX)" with the key's fingerprint as
 * proto_fingerprint writes it (what `tabula identity` prints), or the
 * fingerprint alone when name is "" (no name set). name must be canonical
 * (from proto_name_check, proto_name_verify or proto_name_load): anything
 * else is shown as the fingerprint alone. PROTO_NAME_SHOWN_MAX bytes
 * always suffice. Errors: TB_E_SPACE (out holds "" then, cap > 0),
 * TB_E_ARG.
 */
int proto_name_display(const char *name, const uint8_t pk[PROTO_KEY_BYTES],
                       char *out, size_t cap);

/*
 * proto_name_path: the display name's file of the identity file at
 * identity_path (NULL: proto_identity_path's) into buf: the same path
 * with ".name" appended ($XDG_CONFIG_HOME/tabula/identity.name).
 * Errors: TB_E_SPACE, TB_E_IO (no config directory).
 */
int proto_name_path(const char *identity_path, char *buf, size_t cap);

/*
 * proto_name_save: check name (NUL-terminated) and store its canonical
 * form as the display name of the identity at identity_path (NULL: the
 * default), through a temporary file that is fsynced and renamed over the
 * old one (mode 0600, directories 0700). The file is two text lines:
 * "tabula-name 1" and the name. fault (may be NULL) as proto_name_check_at.
 * Errors: those of proto_name_check_at, TB_E_SPACE, TB_E_IO.
 */
int proto_name_save(const char *identity_path, const char *name,
                    Proto_Name_Fault *fault);

/*
 * proto_name_load: the stored display name of the identity at
 * identity_path (NULL: the default) into out[0..cap), canonical and
 * NUL-terminated; "" when none is set (no file). The file is checked as
 * hostile input: a name proto_name_check refuses, or one not in its
 * canonical form, is an error, not shown.
 * Errors: TB_E_FORMAT (not a name file, or its name refused or not
 * canonical), TB_E_SPACE (cap under PROTO_DISPLAY_NAME_MAX + 1 is
 * refused), TB_E_IO.
 */
int proto_name_load(const char *identity_path, char *out, size_t cap);

/* ---- messages -------------------------------------------------------- */

/* Message kinds. Numbers are on the wire: never reuse one. */
typedef enum Proto_Kind {
    PROTO_KIND_HELLO = 1,       /* handshake, outside transcripts */
    PROTO_KIND_MATCH_START = 2, /* sequence number 0 of a match */
    PROTO_KIND_MOVE = 3,
    PROTO_KIND_DRAW_OFFER = 4,
    PROTO_KIND_DRAW_ACCEPT = 5,
    PROTO_KIND_DRAW_DECLINE = 6,
    PROTO_KIND_RESIGN = 7,
    PROTO_KIND_ABORT = 8, /* only before both sides have moved */
    PROTO_KIND_TAKEBACK_REQUEST = 9,
    PROTO_KIND_TAKEBACK_ACCEPT = 10,
    PROTO_KIND_TAKEBACK_DECLINE = 11,
    PROTO_KIND_STATE_CHECK = 12,
    PROTO_KIND_DESYNC = 13, /* carries the sender's whole state */
    PROTO_KIND_CHAT = 14,
    PROTO_KIND_BYE = 15,
    PROTO_KIND_FLAG = 16,  /* the opponent's time ran out (G-MC-7) */
    PROTO_KIND_CLAIM = 17, /* win or draw against an absent opponent */
    PROTO_KIND_COUNT_
} Proto_Kind;

/* What a CLAIM asks for. */
#define PROTO_CLAIM_WIN 0
#define PROTO_CLAIM_DRAW 1

/* "move", "draw-offer", ...; "unknown" outside the list. */
const char *proto_kind_name(int kind);

/*
 * One message, before sealing or after opening. Strings are
 * NUL-terminated; on the wire they are msgpack str of at most the field's
 * cap, valid UTF-8 without control characters (game names: [a-z0-9-];
 * options: printable ASCII without spaces; moves: printable ASCII with
 * single inner spaces, as in Chess volleyball's "S Bc3-d2>g5").
 */
typedef struct Proto_Message {
    uint8_t version; /* PROTO_VERSION */
    uint8_t kind;    /* Proto_Kind */
    uint8_t match_id[PROTO_MATCH_ID_BYTES];
    uint32_t seq;                   /* 0 for match start, then +1 */
    uint8_t prev[PROTO_HASH_BYTES]; /* chain hash of message seq-1 */
    uint8_t sender[PROTO_KEY_BYTES];
    union {
        struct { /* HELLO: [software, nonce, echo (0 or 32 bytes)] */
            char software[PROTO_NAME_MAX + 1];
            uint8_t nonce[PROTO_NONCE_BYTES];
            uint8_t echo[PROTO_NONCE_BYTES];
            uint8_t has_echo; /* the peer's nonce answered */
        } hello;
        struct { /* MATCH_START: [game, options, white, black, started] */
            char game[PROTO_NAME_MAX + 1];
            char options[PROTO_OPTIONS_MAX + 1];
            uint8_t white[PROTO_KEY_BYTES];
            uint8_t black[PROTO_KEY_BYTES];
            uint64_t started; /* Unix seconds, as the starter's clock says */
        } start;
        struct {          /* MOVE: [ply, notation, state hash after the move]
                             or, in a match with a clock, [ply, notation,
                             hash, own ms, opponent ms] (G-MC-6) */
            uint32_t ply; /* 1 for the first move of the game */
            char move[CORE_NOTATION_MAX];
            uint8_t hash[PROTO_HASH_BYTES];
            uint8_t has_clock; /* the two readings below are present */
            uint32_t own_ms;   /* the mover's time left after the move,
                                  increment included, as it measured */
            uint32_t opp_ms;   /* the opponent's time left as the mover
                                  accepted it (after its lag check) */
        } move;
        struct {              /* FLAG: [ply, elapsed ms] */
            uint32_t ply;     /* the current ply (the flagged side moves) */
            uint32_t elapsed; /* ms the sender measured since its turn
                                 ended: at least the flagged side's time */
        } flag;
        struct {           /* CLAIM: [what] */
            uint32_t what; /* PROTO_CLAIM_WIN or PROTO_CLAIM_DRAW */
        } claim;
        struct {          /* STATE_CHECK: [ply, state hash] */
            uint32_t ply; /* core_ply of the position hashed */
            uint8_t hash[PROTO_HASH_BYTES];
        } check;
        struct { /* DESYNC: [ply, state encoding] */
            uint32_t ply;
            const uint8_t *state; /* points into the opened bytes */
            size_t state_len;     /* 1..PROTO_STATE_MAX */
        } desync;
        struct {            /* TAKEBACK_REQUEST, TAKEBACK_ACCEPT: [plies] */
            uint32_t plies; /* 1..255 */
        } takeback;
        struct { /* CHAT: [text]; BYE: [reason] */
            char text[PROTO_TEXT_MAX + 1];
        } text;
        /* DRAW_*, RESIGN, ABORT, TAKEBACK_DECLINE: [] */
    } body;
} Proto_Message;

/* An opened envelope: the message, its signature, its chain hash. */
typedef struct Proto_Envelope {
    Proto_Message msg;
    uint8_t sig[PROTO_SIG_BYTES];
    uint8_t hash[PROTO_HASH_BYTES]; /* BLAKE2b-256 of the payload bytes */
} Proto_Envelope;

/*
 * proto_message_init: zero m and set version, kind and sender (id->pk).
 */
void proto_message_init(Proto_Message *m, Proto_Kind kind,
                        const Proto_Identity *id);

/*
 * proto_seal: encode m canonically, sign the payload with id (whose public
 * key must be m->sender) and write the whole frame (length prefix and
 * envelope) into buf[0..cap); *len gets its size. hash (may be NULL) gets
 * the envelope's chain hash. No allocation.
 * Errors: TB_E_ARG (sender is not id's key), TB_E_KIND, TB_E_FORMAT (a
 * field breaks its rules: string too long or not printable, bad plies),
 * TB_E_SPACE (cap too small: PROTO_FRAME_PREFIX + PROTO_FRAME_MAX always
 * suffices), TB_E_CRYPTO.
 */
int proto_seal(const Proto_Message *m, const Proto_Identity *id, uint8_t *buf,
               size_t cap, size_t *len, uint8_t hash[PROTO_HASH_BYTES]);

/*
 * proto_frame_next: find the first frame in buf[0..len) (bytes as they
 * arrive from a stream). On success *env and *env_len give the envelope
 * and *used the bytes to drop (prefix included).
 * Errors: TB_E_TRUNCATED (not a whole frame yet: read more),
 * TB_E_LIMIT (length 0 or over PROTO_FRAME_MAX: close the connection).
 */
int proto_frame_next(const uint8_t *buf, size_t len, const uint8_t **env,
                     size_t *env_len, size_t *used);

/*
 * proto_open: check and decode one envelope (no frame prefix): its size
 * and every msgpack length against the limits above before msgpack-c
 * decodes it, its canonical form, the version, the kind, every field,
 * and the signature over the payload bytes exactly as received.
 * out->msg.body.desync.state points into env. why (may be NULL) gets a
 * one-line reason on failure.
 * Errors: TB_E_LIMIT, TB_E_FORMAT (malformed or non-canonical),
 * TB_E_VERSION, TB_E_KIND, TB_E_SIGNATURE, TB_E_NOMEM.
 */
int proto_open(const uint8_t *env, size_t len, Proto_Envelope *out, char *why,
               size_t why_cap);

/* ---- transcripts ----------------------------------------------------- */

/* How a transcript finds the game named in a match start; NULL means
 * core_game_find. */
typedef const Core_Game *(*Proto_Game_Lookup)(const char *name);

typedef struct Proto_Transcript Proto_Transcript; /* opaque, heap */

/*
 * proto_transcript_new: an empty transcript. Errors: TB_E_NOMEM.
 */
int proto_transcript_new(Proto_Transcript **out, Proto_Game_Lookup lookup);

/* Release a transcript; NULL is fine. */
void proto_transcript_free(Proto_Transcript *t);

/*
 * proto_transcript_next: fill m's match id, seq and prev so that m is the
 * next message of t (for a match start on an empty transcript: seq 0,
 * prev zero, match id left as the caller set it).
 *
 * Both players append to one chain; when both send at once the two
 * messages carry the same seq, the first to arrive wins and the other is
 * refused (TB_E_CHAIN): its sender re-fills it here and seals it again.
 */
void proto_transcript_next(const Proto_Transcript *t, Proto_Message *m);

/*
 * proto_transcript_add: open one envelope (as proto_open) and check it
 * against the match: same match id, seq one more than the last, prev equal
 * to the last chain hash, sender one of the two players, and the message
 * allowed now: a move by the side to move, legal (core_move_parse), in the
 * canonical notation, at the right ply, with the state hash after it equal
 * to ours; an offer answered only by the other player; abort only before
 * both sides have moved; nothing but chat, state checks, desync reports
 * and bye once the match is over. out (may be NULL) gets the envelope.
 * On error t is unchanged, except TB_E_DESYNC: the message is authentic
 * and appended, but its state hash differs from ours; a match still on
 * ends against its sender (CORE_REASON_DESYNC_FORFEIT, G-PR-3). A desync
 * report while the match is on is checked the same way: one carrying the
 * state both sides hold is refused (TB_E_STATE, play goes on), any other
 * ends the match against its reporter.
 * Errors: those of proto_open, TB_E_CHAIN (match id, seq or prev), TB_E_STATE
 * (not allowed now: wrong sender, out of turn, no offer pending, after
 * bye), TB_E_OVER, TB_E_NOTATION, TB_E_ILLEGAL, TB_E_AMBIGUOUS,
 * TB_E_GAME, TB_E_OPTION, TB_E_DESYNC, TB_E_NOMEM. proto_transcript_why
 * says more.
 */
int proto_transcript_add(Proto_Transcript *t, const uint8_t *env, size_t len,
                         Proto_Envelope *out);

/*
 * proto_transcript_send: the local player's next message in one step: fill
 * m's match id, seq and prev (proto_transcript_next), seal it with id into
 * frame[0..cap) (proto_seal; *len gets the frame's size) and append it to
 * t, checked like any other envelope. Send the frame only when this
 * returns 0. Errors: those of proto_seal and proto_transcript_add; t is
 * unchanged on error (TB_E_DESYNC cannot happen for a hash the caller
 * computed with proto_state_hash).
 */
int proto_transcript_send(Proto_Transcript *t, const Proto_Identity *id,
                          Proto_Message *m, uint8_t *frame, size_t cap,
                          size_t *len);

/* The reason of the last failed add ("" after a success). */
const char *proto_transcript_why(const Proto_Transcript *t);

/* Envelopes accepted so far (the next seq). */
uint32_t proto_transcript_count(const Proto_Transcript *t);

/* The chain hash after the last envelope (zero when empty). */
void proto_transcript_chain(const Proto_Transcript *t,
                            uint8_t out[PROTO_HASH_BYTES]);

/* The match start's body, or NULL before it. */
const Proto_Message *proto_transcript_start(const Proto_Transcript *t);

/* The current position (NULL before the match start). */
const Core_Position *proto_transcript_position(const Proto_Transcript *t);

/* The match's status: the board's, or resign, agreement, abort, desync. */
Core_Status proto_transcript_status(const Proto_Transcript *t);

/* Draw offers one side may make in a match (gap G-MC-2): the next one is
 * refused with TB_E_LIMIT, so a peer cannot pester its opponent. */
#define PROTO_DRAW_OFFERS_MAX 3

/* The side with a pending draw offer, or -1 (none, or no match yet). An
 * offer lapses when its receiver moves and on a takeback. */
int proto_transcript_draw_offer(const Proto_Transcript *t);

/* Draw offers side (CORE_WHITE or CORE_BLACK) has made so far. */
int proto_transcript_draw_offers(const Proto_Transcript *t, int side);

/* The side with a pending takeback request, or -1; *plies (may be NULL)
 * gets the plies it asks to undo (0 when none is pending). */
int proto_transcript_takeback(const Proto_Transcript *t, uint32_t *plies);

/* 1 when side has made a move in the match (the abort rule), else 0. A
 * takeback does not clear it. */
int proto_transcript_moved(const Proto_Transcript *t, int side);

/* ---- time controls (G-MC-6, G-MC-10; docs/usage.md "Writing a clock") */

/* The kinds of clock a match may have. */
typedef enum Proto_Clock_Kind {
    PROTO_CLOCK_NONE = 0, /* no clock */
    PROTO_CLOCK_FISCHER,  /* base, plus inc_ms after each move */
    PROTO_CLOCK_DELAY,    /* base; the first delay_ms of each turn is free,
                             nothing is added (simple, US delay) */
    PROTO_CLOCK_MOVES,    /* base for each period of `moves` moves: a
                             side's moves-th, 2*moves-th, ... move adds
                             base again; plus inc_ms after each move */
    PROTO_CLOCK_DAYS      /* base (whole days) for each move: after a move
                             the mover's time is base again, unsummed */
} Proto_Clock_Kind;

/* A match's time control. Unused fields are 0. */
typedef struct Proto_Clock {
    Proto_Clock_Kind kind;
    uint32_t base_ms;  /* each side's time at the start (all kinds);
                          MOVES: a period's time; DAYS: a move's time */
    uint32_t inc_ms;   /* FISCHER, MOVES: added after each move */
    uint32_t delay_ms; /* DELAY: the free part of each turn */
    uint32_t moves;    /* MOVES: moves a period */
} Proto_Clock;

/* The ranges (seconds unless said): a base or a period's time 1..86400
 * (typed: 1..1440 minutes), an increment 0..3600, a delay 1..3600,
 * moves a period 1..200, days a move 1..14. */
#define PROTO_CLOCK_BASE_MAX_S 86400u
#define PROTO_CLOCK_INC_MAX_S 3600u
#define PROTO_CLOCK_DELAY_MAX_S 3600u
#define PROTO_CLOCK_MOVES_MAX 200u
#define PROTO_CLOCK_DAYS_MAX 14u
/* Longest canonical clock text (proto_clock_format), NUL included. */
#define PROTO_CLOCK_TEXT_MAX 24

/* Which part of a clock text proto_clock_parse refused. */
typedef enum Proto_Clock_Part {
    PROTO_CLOCK_PART_FORM = 0, /* not written in the grammar at all */
    PROTO_CLOCK_PART_TIME,     /* the base or a period's time */
    PROTO_CLOCK_PART_INC,      /* the increment */
    PROTO_CLOCK_PART_DELAY,    /* the delay */
    PROTO_CLOCK_PART_MOVES,    /* the moves a period */
    PROTO_CLOCK_PART_DAYS,     /* the days a move */
    PROTO_CLOCK_PART_KIND,     /* a range's ends are of two kinds */
    PROTO_CLOCK_PART_ORDER     /* a range's low end is the longer */
} Proto_Clock_Part;

/*
 * proto_clock_parse: the one reader of a time control, in two units.
 * Grammar (N a whole number; docs/usage.md "Writing a clock"):
 *   BASE+INC          Fischer            5+3, 30s+1
 *   BASEdDELAY        simple delay       5d3, 30sd2
 *   N/BASE[+INC]      N moves in BASE    40/90, 40/90+30
 *   Nday, Ndays       N days a move      1day, 3days
 * typed nonzero: as a player types it (`tabula host --clock`, the page):
 * BASE in minutes, or seconds with an s after it (30s); INC and DELAY in
 * seconds, an s after them allowed; numbers without a leading zero
 * (core_read_uint). typed 0: the canonical match option's value
 * (clock=VALUE): every time in seconds, no s, days written Nday
 * (proto_clock_format's form; leading zeros are read as the Fischer
 * option always read them). On success *out holds the clock: 0. Errors:
 * TB_E_OPTION, with *bad (may be NULL) naming the part that is wrong;
 * *out is then zeroed.
 */
int proto_clock_parse(const char *text, int typed, Proto_Clock *out,
                      Proto_Clock_Part *bad);

/*
 * proto_clock_range_parse: a range of clocks, as a player offers one to
 * the pool (`tabula pool laska --clock 3+2..10+5`): "A..B", or "A" alone
 * meaning A..A, each end read by proto_clock_parse (typed as there).
 * The two ends are of one kind (a Fischer range holds Fischer clocks
 * only, a correspondence range days only) and the low end's estimate
 * (proto_clock_estimate_ms) is at most the high end's. On success *lo
 * and *hi hold the ends: 0. Errors: TB_E_OPTION, with *bad (may be NULL)
 * naming the part: an end's own part as proto_clock_parse names it,
 * PROTO_CLOCK_PART_FORM for a text with no end, an end longer than any
 * clock or a third "..", PROTO_CLOCK_PART_KIND for ends of two kinds,
 * PROTO_CLOCK_PART_ORDER for a low end longer than the high; *lo and *hi
 * are then zeroed.
 */
int proto_clock_range_parse(const char *text, int typed, Proto_Clock *lo,
                            Proto_Clock *hi, Proto_Clock_Part *bad);

/*
 * proto_clock_estimate_ms: how long a game of clock c is reckoned to take
 * each side (ms), the one measure by which clocks of one kind are
 * ordered and ranges of them compared (the pool, lobby/pool.h): as
 * lichess reckons it, the time of a 40-move game. FISCHER base + 40 x
 * inc; DELAY base + 40 x delay (the most a delay can save, as if it were
 * an increment); MOVES base x the periods 40 moves begin (ceil(40 /
 * moves)) + 40 x inc; DAYS base (a move's time: correspondence clocks are
 * compared with each other only); NONE 0.
 */
uint64_t proto_clock_estimate_ms(const Proto_Clock *c);

/* Time-control classes (issue 38), as lichess divides them, by the
 * clock's proto_clock_estimate_ms: bullet under 3 min, blitz under 8,
 * rapid under 25, classical from 25; correspondence (days a move);
 * untimed (no clock). Each class is its own rating (club/, docs/
 * ratings.md), and the relay's pool reads a player's rating by the class
 * of the pairing's clock (docs/pool.md). */
typedef enum Proto_Clock_Class {
    PROTO_CLASS_UNTIMED = 0,
    PROTO_CLASS_BULLET,
    PROTO_CLASS_BLITZ,
    PROTO_CLASS_RAPID,
    PROTO_CLASS_CLASSICAL,
    PROTO_CLASS_CORRESPONDENCE,
    PROTO_CLASS_COUNT
} Proto_Clock_Class;

/* proto_clock_class: the class of clock c (NULL: untimed). */
Proto_Clock_Class proto_clock_class(const Proto_Clock *c);

/*
 * proto_clock_format: the canonical value of clock c (without "clock=";
 * "" for no clock) into out, cap bytes (PROTO_CLOCK_TEXT_MAX is enough):
 * 300+3, 300d3, 40/5400+30, 40/5400 (no increment), 3day.
 * Errors: TB_E_SPACE.
 */
int proto_clock_format(const Proto_Clock *c, char *out, size_t cap);

/*
 * proto_clock_typed: clock c as a player types it (proto_clock_parse's
 * typed grammar, which reads it back to c): "5+3", "30s+1", "5d3",
 * "40/90+30", "3days"; "" for no clock; into out, cap bytes
 * (PROTO_CLOCK_TEXT_MAX is enough). Lists show clocks so (tabula seeks).
 * Errors: TB_E_SPACE.
 */
int proto_clock_typed(const Proto_Clock *c, char *out, size_t cap);

/*
 * Clocks (G-MC-6): the match options may hold "clock=VALUE" (the
 * canonical form above), which the transcript takes out before the game
 * sees the options. proto_clock_split parses it: *clock gets it (kind
 * NONE without one), game_opts (cap bytes) the options without it, the
 * relay token (PROTO_OPTION_RELAY), the series token (Proto_Series) and
 * the rating token (PROTO_OPTION_RATING), which are the session's too.
 * Errors: TB_E_OPTION (a bad clock, relay, series or rating token, or
 * two of one), TB_E_SPACE.
 */
int proto_clock_split(const char *options, Proto_Clock *clock,
                      char *game_opts, size_t cap);

/*
 * The witnessed mode, signed into the match start (the fair-play issue,
 * docs/trust.md): a match played through a relay whose receipts witness
 * time and presence says so in its start's options with this token,
 * which the host's session adds and every other seat requires. A
 * transcript takes such a start only in witnessed mode with absences
 * decided by the receipts (proto_transcript_witness_absence: a log of
 * version 3 or later), so a log of the match rewritten to an older
 * version, whose claims would rest on a player's word, fails. The token
 * is the transcript's, like the clock: proto_clock_split takes it out of
 * the game's options (one at most; another relay= value is TB_E_OPTION).
 */
#define PROTO_OPTION_RELAY "relay=3"

/* 1 when options hold PROTO_OPTION_RELAY as one of their tokens, else
 * 0. */
int proto_options_relay(const char *options);

/*
 * A rated seek (issue 38; docs/pool.md "Rated seeks"): the match options
 * may hold "rating=LO..HI" (whole ratings 1..65535, LO at most HI, no
 * leading zero), the ratings of the players the host takes. It is the
 * relay's to enforce at a JOIN (by its published list) and the log's to
 * show; proto_clock_split takes it out of the game's options (one at
 * most).
 */
#define PROTO_OPTION_RATING "rating="

/* proto_rating_token: tok[0..len) read as a rating token into *lo, *hi:
 * 1, 0 when it is not one (no "rating=" prefix), TB_E_OPTION when it is
 * one written wrong. proto_options_rating: the rating token of options
 * (comma-separated) likewise: 1, 0 (none: *lo = *hi = 0), TB_E_OPTION
 * for a bad one or two. */
int proto_rating_token(const char *tok, size_t len, uint16_t *lo,
                       uint16_t *hi);
int proto_options_rating(const char *options, uint16_t *lo, uint16_t *hi);

/* ---- series (issue 38: `tabula host GAME --series N`) ---- */

/* The most games a series has. */
#define PROTO_SERIES_MAX 99
/* Bytes of a series game's invite code secret (lobby_code_make). */
#define PROTO_SERIES_CODE_BYTES 12

/*
 * A game of a series, as its match options say it (signed in its start,
 * one token at most): "series=K/N" for game K = 1 of N (its own match id
 * is the series' id), "series=K/N/ID" for game K > 1, ID the first game's
 * match id in lower-case hex. 1 <= K <= N, 2 <= N <= PROTO_SERIES_MAX.
 * The token is the transcript's, like the clock: proto_clock_split takes
 * it out of the game's options. White is the first game's white in odd
 * games and its black in even ones (docs/usage.md "Series").
 */
typedef struct Proto_Series {
    uint32_t game, games;
    int has_id;
    uint8_t id[PROTO_MATCH_ID_BYTES];
} Proto_Series;

/* proto_series_token: tok[0..len) read as a series token into *out: 1,
 * 0 when it is not one (no "series=" prefix; *out zeroed), TB_E_OPTION
 * when it is one written wrong (numbers out of range, a game 1 with an
 * id, a later game without one, hex not 32 lower-case digits). */
int proto_series_token(const char *tok, size_t len, Proto_Series *out);

/* proto_options_series: the series token of options (comma-separated)
 * into *out: 1, 0 when none, TB_E_OPTION for a bad one or two. */
int proto_options_series(const char *options, Proto_Series *out);

/* proto_series_format: *s as its token ("series=2/3/00ff..") into out,
 * cap bytes. Errors: TB_E_ARG (s breaks the ranges above), TB_E_SPACE. */
int proto_series_format(const Proto_Series *s, char *out, size_t cap);

/*
 * proto_series_code: the secret of game `game`'s invite code of the
 * series id (its first game's match id) between me and the player whose
 * key is their_pk (both the seats' keys of the first game): the first
 * PROTO_SERIES_CODE_BYTES of BLAKE2b-256 keyed by their X25519 shared
 * secret (each Ed25519 key turned into its X25519 twin) of "tabula
 * series code 1", a NUL, id and game (u32 big-endian). Both players
 * compute the same bytes and nobody else can, so the next game's host
 * makes its room (lobby_code_make with them and its own key) and its
 * guest joins it without a code typed. Errors: TB_E_ARG, TB_E_CRYPTO
 * (a key with no X25519 twin, or a shared secret of zeros).
 */
int proto_series_code(const Proto_Identity *me,
                      const uint8_t their_pk[PROTO_KEY_BYTES],
                      const uint8_t id[PROTO_MATCH_ID_BYTES], uint32_t game,
                      uint8_t out[PROTO_SERIES_CODE_BYTES]);

/* proto_options_chosen: options (at most PROTO_OPTIONS_MAX bytes) as the
 * players chose them, into out: every token but PROTO_OPTION_RELAY (the
 * session's), comma-separated, empty ones dropped. */
void proto_options_chosen(const char *options,
                          char out[PROTO_OPTIONS_MAX + 1]);

/*
 * proto_clock_charge: the ms a turn that ran elapsed_ms takes off its
 * side's clock: elapsed_ms, less the delay (DELAY), never below 0. The
 * witnessed transcript passes the turn less PROTO_LAG_MS, so a delay
 * turn is charged max(0, elapsed - PROTO_LAG_MS - delay).
 */
int64_t proto_clock_charge(const Proto_Clock *c, int64_t elapsed_ms);

/*
 * proto_clock_limit: the longest a turn may run (ms, by the charge
 * above) before a side that began it with left_ms has no time: left_ms
 * plus the delay.
 */
int64_t proto_clock_limit(const Proto_Clock *c, int64_t left_ms);

/*
 * proto_clock_after_move: the mover's time left (ms) after a move it
 * began with left_ms and that was charged charge_ms, the mover's made-th
 * move of the match (1 = its first; takebacks do not lower the count):
 * FISCHER left - charge + inc; DELAY left - charge; MOVES left - charge
 * + inc, + base when made is a multiple of moves; DAYS base. May be
 * negative (a time loss) except for DAYS.
 */
int64_t proto_clock_after_move(const Proto_Clock *c, int64_t left_ms,
                               int64_t charge_ms, uint32_t made);

/*
 * proto_clock_moves_to_go: moves a side that has made `made` moves must
 * make before its clock gets time it does not earn by moving: MOVES the
 * moves left in its period (1..moves), DAYS 1; 0 (sudden death) for the
 * other kinds. For a bot's share of its time (bot_time_for_moves).
 */
uint32_t proto_clock_moves_to_go(const Proto_Clock *c, uint32_t made);

/* The match options the game sees (the clock taken out; "" before the
 * match start). */
const char *proto_transcript_game_options(const Proto_Transcript *t);

/* The match's clock (kind PROTO_CLOCK_NONE without one, or before the
 * match start). Never NULL; valid while t is. */
const Proto_Clock *proto_transcript_clock(const Proto_Transcript *t);

/* Moves side (CORE_WHITE or CORE_BLACK) has made in the match, counting
 * moves later taken back (the period count of a MOVES clock); 0 for
 * any other side. */
uint32_t proto_transcript_made(const Proto_Transcript *t, int side);

/*
 * proto_transcript_clock_view: the time left to side (ms) as the player
 * viewer last signed it (the own and opponent readings of viewer's last
 * move; the base before it moved). The time a flag claim is checked
 * against is the smaller of the claimant's view and the flagged side's
 * own reading.
 */
uint32_t proto_transcript_clock_view(const Proto_Transcript *t, int viewer,
                                     int side);

/* ---- witnessed clocks (the fair-play issue; docs/trust.md) ---------- */

/* The lag allowance (ms): each turn's time, as the relay's receipts
 * measure it from the receipt that began it to the one of the move that
 * ends it, is charged less up to this much (the way to and from the
 * relay). The same figure in every seat, spectator and replay. */
#define PROTO_LAG_MS 500

/*
 * proto_transcript_witness_mode: on an empty transcript, make its clocks
 * the relay's (a lobby game, a log of version 2): each envelope is then
 * given the relay's time (proto_transcript_witness), and
 *   - a move's time is the receipts' time from the envelope that began
 *     its mover's turn (the opponent's move, a takeback's acceptance, or
 *     the match start) to the move's own, less PROTO_LAG_MS, never below
 *     0; a move whose time reaches its mover's time left loses on time
 *     at that move (whatever the board says after it), else the mover's
 *     time goes down by it and up by the increment;
 *   - a flag claim is taken when added (by the side not to move, at the
 *     ply) and decided by its own receipt: when the time since the
 *     flagged side's turn began, less PROTO_LAG_MS, reaches its time
 *     left, the flagged side loses on time (Football chess: by goals,
 *     D-FC-7); else the claim is void and play goes on;
 *   - the signed clock readings of moves and flags are not checked and
 *     count for nothing.
 * No-op once an envelope was added.
 */
void proto_transcript_witness_mode(Proto_Transcript *t);

/* Nonzero when t's clocks are the relay's. */
int proto_transcript_witnessed(const Proto_Transcript *t);

/*
 * proto_transcript_witness: the relay's time (ms since the Unix epoch,
 * from its checked receipt) of envelope index (0-based: its seq), which
 * must be the next not yet witnessed and already added, and what the
 * receipt attests of presence: absent_ms[seat], how long the host's seat
 * [0] (white's) and the guest's [1] had been gone by then (ms, 0:
 * present; NULL: the receipt attests nothing, as those of version 2
 * logs). A time below an earlier one counts as that one. May end the
 * match (a late move, a flag claim the time proves, an absence claim
 * the attestation proves). Errors: TB_E_STATE (not witnessed mode, or
 * index out of order); t is unchanged then.
 */
int proto_transcript_witness(Proto_Transcript *t, uint32_t index,
                             uint64_t time_ms, const uint32_t absent_ms[2]);

/* Envelopes witnessed so far (the next index proto_transcript_witness
 * takes). */
uint32_t proto_transcript_witness_count(const Proto_Transcript *t);

/* Flag claims the relay's times refuted (void, play went on). */
uint32_t proto_transcript_flags_void(const Proto_Transcript *t);

/* What a receipt attests of a seat never seated in its room (lobby
 * protocol 4; an absence is otherwise at most one ms less): such a side
 * was never seen to go, so no absence claim against it holds, and no
 * flag claim either (G-MC-7w: a cheating host resumed its match in a
 * second room its opponent never entered and flagged the opponent's
 * clock there, a trial of 2026-12-07). */
#define PROTO_ABSENT_NEVER UINT32_MAX

/* G-MC-9's countdown (ms) before a player may claim against an absent
 * opponent, for clock c (NULL: none): 60 s without a clock; FISCHER and
 * MOVES a tenth of base + 40 x inc, DELAY a tenth of base + 40 x delay,
 * at least 10 s and at most 60 s; DAYS the whole of a move's time (a
 * correspondence player away is no news: its own clock decides first,
 * G-MC-10). */
#define PROTO_ABSENT_MIN_MS 10000u
#define PROTO_ABSENT_MAX_MS 60000u
uint32_t proto_absence_ms(const Proto_Clock *c);

/*
 * proto_transcript_witness_absence: on an empty transcript in witnessed
 * mode, decide absence claims (G-MC-9w) by the relay's receipts (a lobby
 * game of lobby protocol 3, a log of version 3): a claim against an
 * absent opponent is taken when added and decided by its own receipt's
 * attestation: it holds when the opponent's seat had been gone at least
 * proto_absence_ms by then; else it is void and play goes on. Without
 * it (a version 2 log) an absence claim is its claimant's word, as
 * G-MC-9 says.
 */
void proto_transcript_witness_absence(Proto_Transcript *t);

/* Absence claims the relay's receipts refuted (void, play went on). */
uint32_t proto_transcript_claims_void(const Proto_Transcript *t);

/*
 * proto_transcript_clock_turn: the witnessed clocks: *from_ms the relay
 * time the running turn began, left_ms[side] each side's time left (ms)
 * at the start of its turn (either may be NULL). Returns the side whose
 * clock runs, or -1 (no witnessed clock, nothing witnessed yet, or the
 * match is over).
 */
int proto_transcript_clock_turn(const Proto_Transcript *t, uint64_t *from_ms,
                                int64_t left_ms[2]);

/* Moves on the board now (takebacks removed) and the i-th of them. */
size_t proto_transcript_moves(const Proto_Transcript *t);
const Core_Move *proto_transcript_move_at(const Proto_Transcript *t, size_t i);

/* CORE_WHITE, CORE_BLACK, or -1 when key is not a player of t. */
int proto_transcript_side_of(const Proto_Transcript *t,
                             const uint8_t key[PROTO_KEY_BYTES]);

/* ---- relay receipts (receipt.c; the fair-play issue) ----------------- */

/* A relay node's signed witness of time and order: for each frame it
 * numbers, "this frame (its payload's BLAKE2b-256) got this sequence
 * number in this room at this time of mine"; for each presence change,
 * "this seat came or went at this time, after this sequence number".
 * The relay cannot make a move with one; a seat, a spectator and
 * `tabula replay` compute clocks and absences from them (docs/trust.md).
 * A room is named by its host's key and the key of the guest the relay
 * seated in it (lobby protocol 4: each seat proves its player key in its
 * hello, and a room's guest seat holds one key; zero before a guest
 * came), so a receipt of another room, or of a room where another key
 * sat as the guest, names another frame. A FRAME receipt also attests
 * both seats' presence when it was numbered: how long each seat had
 * been gone by the relay's clock (0: present, or never seen to go),
 * which decides absence claims (G-MC-9w) the same for every reader: the
 * guest's absence is that key's. Signed bytes:
 *   "tabula receipt 3\0" (17 bytes), room [32], guest [32], kind u8,
 *   seq u64 BE, time u64 BE, then FRAME: hash [32], absent host u32 BE,
 *   absent guest u32 BE; PRESENCE: seat u8, present u8.
 * Receipts of version 3 logs (v2 set) are signed as "tabula receipt 2\0"
 * without the guest; those of version 2 logs (v1 set) as
 *   "tabula receipt 1\0", ... FRAME: hash [32] (no absences). */
typedef enum Proto_Receipt_Kind {
    PROTO_RECEIPT_FRAME = 0,   /* a numbered frame */
    PROTO_RECEIPT_PRESENCE = 1 /* a seat came or went */
} Proto_Receipt_Kind;

typedef struct Proto_Receipt {
    uint8_t relay[PROTO_KEY_BYTES]; /* the signing node's public key */
    uint8_t kind;                   /* Proto_Receipt_Kind */
    uint64_t seq;     /* FRAME: the frame's number in the room;
                         PRESENCE: the last number given before it */
    uint64_t time_ms; /* the relay's time, ms since the Unix epoch */
    uint8_t seat;     /* PRESENCE: 0 host, 1 guest */
    uint8_t present;  /* PRESENCE: 1 came, 0 went */
    uint32_t absent_ms[2]; /* FRAME: how long the host's seat [0] and the
                              guest's [1] had been gone (ms; 0: present) */
    uint8_t v1;       /* nonzero: a receipt of a version 2 log, signed
                         without absences (nor the guest) */
    uint8_t v2;       /* nonzero: a receipt of a version 3 log, signed
                         without the guest */
    uint8_t guest[PROTO_KEY_BYTES]; /* the room's guest key the receipt is
                                       signed for (not on the wire nor in
                                       a log: its reader fills it from the
                                       room or the match; zero: none yet) */
    uint8_t sig[PROTO_SIG_BYTES];
} Proto_Receipt;

/* Bytes proto_receipt_signed writes. */
#define PROTO_RECEIPT_SIGNED_MAX (17 + 32 + 32 + 1 + 8 + 8 + 32 + 8)

/*
 * proto_receipt_signed: the bytes a receipt's signature covers, into out
 * (hash: the frame payload's BLAKE2b-256 for a FRAME receipt, ignored
 * for PRESENCE). Returns their length.
 */
size_t proto_receipt_signed(const Proto_Receipt *r,
                            const uint8_t room[PROTO_KEY_BYTES],
                            const uint8_t hash[PROTO_HASH_BYTES],
                            uint8_t out[PROTO_RECEIPT_SIGNED_MAX]);

/*
 * proto_receipt_sign: fill r->relay from id and r->sig over r's kind,
 * seq, time (and seat, present) for room, with hash as above. Errors:
 * TB_E_ARG (a kind out of range, no hash for a FRAME), TB_E_CRYPTO.
 */
int proto_receipt_sign(Proto_Receipt *r, const uint8_t room[PROTO_KEY_BYTES],
                       const uint8_t hash[PROTO_HASH_BYTES],
                       const Proto_Identity *id);

/*
 * proto_receipt_verify: 0 when r->sig is r->relay's signature of r for
 * room and hash; TB_E_SIGNATURE when not; TB_E_ARG as above.
 */
int proto_receipt_verify(const Proto_Receipt *r,
                         const uint8_t room[PROTO_KEY_BYTES],
                         const uint8_t hash[PROTO_HASH_BYTES]);

/* proto_receipt_hash: BLAKE2b-256 of a frame's payload (len bytes), the
 * hash a FRAME receipt names. Errors: TB_E_CRYPTO. */
int proto_receipt_hash(const uint8_t *payload, size_t len,
                       uint8_t out[PROTO_HASH_BYTES]);

/* ---- match log files ------------------------------------------------- */

/* The newest log version: what a lobby game's log is written in. */
#define PROTO_LOG_VERSION 4

/* The first bytes of every log file. */
#define PROTO_LOG_MAGIC "tabula-log 1\n"
#define PROTO_LOG_MAGIC_LEN 13

/* The header frame after the magic: who played what. */
typedef struct Proto_Log_Header {
    char game[PROTO_NAME_MAX + 1];
    char options[PROTO_OPTIONS_MAX + 1];
    uint8_t match_id[PROTO_MATCH_ID_BYTES];
    uint8_t white[PROTO_KEY_BYTES];
    uint8_t black[PROTO_KEY_BYTES];
    uint64_t started;
    /* Version 2, 3 and 4 (a lobby game: the relay's receipts are in the
     * log): the room's key, the host's, that the receipts name. Version
     * 3's and 4's receipts attest presence (absence claims are the
     * relay's to decide, G-MC-9w); version 2's do not. Version 4's also
     * name the guest the relay seated, which must be black (white, the
     * room: the host). Version 1 logs (before receipts) have none. Logs
     * of every version still verify as they did. */
    int version;                   /* 1 to 4 (0 reads as 1) */
    uint8_t room[PROTO_KEY_BYTES]; /* version 2 and later */
} Proto_Log_Header;

/* The header matching a match start message. */
void proto_log_header_of(const Proto_Message *start, Proto_Log_Header *h);

typedef struct Proto_Log Proto_Log; /* opaque, heap: an open log file */

/*
 * proto_log_create: create path (it must not exist; mode 0600), write the
 * magic and the header frame. Errors: TB_E_IO, TB_E_FORMAT, TB_E_NOMEM.
 */
int proto_log_create(Proto_Log **out, const char *path,
                     const Proto_Log_Header *h);

/*
 * proto_log_append: append one frame (as proto_seal wrote it) with a
 * single write(2): nothing stays in a user-space buffer, so a crash of the
 * program loses nothing already appended. Errors: TB_E_IO, TB_E_ARG.
 */
int proto_log_append(Proto_Log *log, const uint8_t *frame, size_t len);

/*
 * proto_log_append_envelope: append one envelope (without its frame
 * prefix, as the lobby relays it), framed as proto_seal frames it, in one
 * write. Errors: TB_E_ARG (empty or over PROTO_FRAME_MAX), TB_E_NOMEM,
 * TB_E_IO.
 */
int proto_log_append_envelope(Proto_Log *log, const uint8_t *env, size_t len);

/*
 * proto_log_finish: at game end, append the end record (envelope count and
 * final chain hash) and fsync the file. The verifier accepts it only after
 * envelopes that ended the match (see proto_log_verify). Errors: TB_E_IO.
 */
int proto_log_finish(Proto_Log *log, uint32_t count,
                     const uint8_t chain[PROTO_HASH_BYTES]);

/*
 * proto_log_create_memory: a log kept in memory instead of a file (the
 * browser page's download): proto_log_append and proto_log_finish add to
 * it exactly the bytes they would write to a file, and proto_log_bytes
 * reads them. At most 64 MiB. Errors: TB_E_FORMAT, TB_E_NOMEM (and
 * TB_E_LIMIT from an append past the cap).
 */
int proto_log_create_memory(Proto_Log **out, const Proto_Log_Header *h);

/* proto_log_bytes: the bytes of a memory log so far, *len of them, valid
 * until the next append or close; NULL and 0 for a file's log. */
const uint8_t *proto_log_bytes(const Proto_Log *log, size_t *len);

/* Bytes of the longest receipt or presence record. */
#define PROTO_LOG_RECORD_MAX 192

/*
 * proto_log_receipt_record: a log's record of the relay's receipt r into
 * out: for a frame, ["r", index, absent host, absent guest, lobby seq,
 * time, relay, signature] (version 3; a v1 receipt, version 2's, has no
 * absences), index the envelope's (0-based, its seq); for a presence
 * change (version 2 only), ["p", seat, present, lobby seq, time, relay,
 * signature] (index unused). Append it with proto_log_append_record. Returns its length in
 * bytes, or 0 when out (cap bytes) is too small or r is malformed.
 */
size_t proto_log_receipt_record(uint32_t index, const Proto_Receipt *r,
                                uint8_t *out, size_t cap);

/* 1 when a log frame's bytes doc[len] are a receipt, presence or
 * evidence record (a fixarray of 4, 6, 7 or 8: an envelope is one of 2,
 * the end record one of 3), else 0. */
int proto_log_is_record(const uint8_t *doc, size_t len);

/*
 * proto_log_skew_record: a version 3 log's record of the writing seat's
 * evidence against the relay's time (docs/trust.md): the receipt of
 * envelope index (0-based; its receipt record comes before this one)
 * gave a time ahead_ms after, or behind_ms before, the window in which
 * the seat, reading the relay's clock by its own, knew it had to fall
 * (exactly one of them nonzero). ["x", index, ahead, behind]. It is
 * the seat's word and decides nothing: verification checks its place
 * and form and counts it. Returns its length, or 0 when out (cap bytes)
 * is too small or both or neither are nonzero.
 */
size_t proto_log_skew_record(uint32_t index, uint32_t ahead_ms,
                             uint32_t behind_ms, uint8_t *out, size_t cap);

/*
 * proto_log_append_record: append one record (an envelope without its
 * frame prefix, a receipt record) framed as proto_seal frames, in one
 * write: proto_log_append_envelope by its general name. Errors: as it.
 */
int proto_log_append_record(Proto_Log *log, const uint8_t *rec, size_t len);

/* Close the file (without fsync; call proto_log_finish first at game
 * end); NULL is fine. Errors: TB_E_IO. */
int proto_log_close(Proto_Log *log);

/* What proto_log_verify found. */
typedef struct Proto_Log_Report {
    int err;            /* 0, or the first failure's TB_E_* code */
    char why[192];      /* one line on the failure or torn tail */
    uint32_t frame;     /* failing frame: 0 the header, 1.. envelopes */
    size_t offset;      /* its byte offset in the file */
    uint32_t envelopes; /* whole envelopes verified */
    uint32_t ply;       /* at a failure: the ply due (the failing
                           move's own ply number when it says one) */
    int torn;           /* the file ends inside a frame */
    size_t torn_offset; /* where the torn frame starts */
    int ended;          /* a consistent end record closes the log; 0 with
                           err 0 and torn 0: the log stops at a frame
                           boundary (cut there, or the match runs on) */
    uint32_t desync_ply; /* a signed state hash differed from the moves'
                            own at this ply while the match was on
                            (G-PR-3; 0: none): its signer lost the match
                            there, and the log goes on */
    char desync_why[192]; /* which side signed it, and the true hash */
    Proto_Log_Header header;
    /* version 2: the relay's receipts */
    uint32_t receipts;  /* receipt records checked */
    uint32_t presences; /* presence records checked */
    uint32_t relays;    /* distinct relay keys among them (at most 8
                           kept in relay[]) */
    uint8_t relay[8][PROTO_KEY_BYTES];
    uint32_t unwitnessed; /* envelopes with no receipt at the end */
    uint32_t flags_void;  /* flag claims the receipts refuted */
    /* version 3: the writing seat's evidence against the relay's time
     * (proto_log_skew_record) */
    uint32_t skews;           /* evidence records */
    uint32_t skew_ahead_ms;   /* the most a receipt was ahead ... */
    uint32_t skew_behind_ms;  /* ... and behind the seat's window */
} Proto_Log_Report;

/* Called after each envelope a log verification accepts. */
typedef void (*Proto_Log_Visit)(void *ctx, const Proto_Transcript *t,
                                const Proto_Envelope *e);

/* Called after each receipt or presence record a verification accepts
 * (index: the envelope a frame receipt is for; for a presence record,
 * the receipts taken before it). */
typedef void (*Proto_Log_Receipt_Visit)(void *ctx, uint32_t index,
                                        const Proto_Receipt *r);

/*
 * proto_log_verify: check a whole log held in buf[0..len): the magic, the
 * header, every envelope through a fresh transcript (signatures, chain,
 * seq, legality, state hashes), the header against the match start, and
 * the end record, which is accepted only where the envelopes before it
 * ended the match (proto_transcript_status not ongoing: the board, or a
 * signed resign, agreement, abort, flag, claim or desync report); anywhere
 * else it fails with TB_E_STATE at that record, since the end record is
 * not signed. A file that ends inside a frame is read up to the last
 * whole envelope and reported as torn (rep->torn, err TB_E_TRUNCATED).
 * visit (may be NULL) sees each accepted envelope. *out (may be NULL)
 * gets the transcript, to free with proto_transcript_free.
 * Returns rep->err. Errors: any of proto_transcript_add, TB_E_FORMAT
 * (including a damaged magic), TB_E_LIMIT, TB_E_TRUNCATED, TB_E_CHAIN and
 * TB_E_STATE (end record), TB_E_NOMEM.
 */
int proto_log_verify(const uint8_t *buf, size_t len, Proto_Game_Lookup lookup,
                     Proto_Log_Visit visit, void *ctx, Proto_Transcript **out,
                     Proto_Log_Report *rep);

/*
 * proto_log_status: how a verified log's match ended as the log proves
 * it (t and rep from proto_log_verify or proto_log_verify_witnessed): the
 * transcript's status, except ongoing when t is in witnessed mode
 * (proto_transcript_witnessed) and envelopes at its end have no receipt
 * (rep->unwitnessed > 0): the relay's receipt of the ending envelope
 * could make it another end (its time: a flag, a late move), so a log
 * cut before that receipt proves no end (a trial cut the last receipt of
 * a game its mover had lost on time, and the board's win was rated).
 * What the ratings, a tournament's results and `tabula replay` read.
 */
Core_Status proto_log_status(const Proto_Transcript *t,
                             const Proto_Log_Report *rep);

/*
 * proto_log_verify_witnessed: proto_log_verify, and in a version 2 log
 * every receipt record too: each names the next envelope not yet
 * witnessed, already read; its signature holds for the header's room,
 * the envelope's bytes and its lobby sequence number; its time goes to
 * the transcript
 * (proto_transcript_witness), which decides the clocks and flags from
 * it. Presence records must verify. rvisit (may be NULL) sees each.
 * Errors: those of proto_log_verify, TB_E_SIGNATURE (a receipt that does
 * not verify), TB_E_STATE (out of order), TB_E_FORMAT.
 */
int proto_log_verify_witnessed(const uint8_t *buf, size_t len,
                               Proto_Game_Lookup lookup, Proto_Log_Visit visit,
                               Proto_Log_Receipt_Visit rvisit, void *ctx,
                               Proto_Transcript **out, Proto_Log_Report *rep);

/*
 * proto_read_file: read a whole file (at most PROTO_FILE_MAX bytes) into a
 * new buffer *buf (free with free(); NUL-terminated past *len).
 * Errors: TB_E_IO, TB_E_LIMIT, TB_E_NOMEM.
 */
int proto_read_file(const char *path, uint8_t **buf, size_t *len);

/* True when buf starts with PROTO_LOG_MAGIC. */
int proto_is_log(const uint8_t *buf, size_t len);

/* ---- log folders ----------------------------------------------------- */

/* A list of paths the caller owns: start it {NULL, 0, 0}, release it
 * with proto_paths_free. at[0..n) are each from malloc. */
typedef struct Proto_Paths {
    char **at;
    size_t n, cap;
} Proto_Paths;

/*
 * proto_paths_add: append a copy of "dir/name" (of name alone when dir is
 * NULL) to p. Errors: TB_E_NOMEM (p as it was).
 */
int proto_paths_add(Proto_Paths *p, const char *dir, const char *name);

/*
 * proto_paths_logs: append "dir/NAME" for every NAME in the folder dir
 * that ends in ".log" and is longer than that, sorted by strcmp of the
 * names (the order `tabula ratings` reads a folder in, the same on every
 * build). Errors: TB_E_IO (dir cannot be opened as a folder), TB_E_NOMEM
 * (the paths appended so far stay in p).
 */
int proto_paths_logs(Proto_Paths *p, const char *dir);

/* proto_paths_free: free every path and the array, and empty p (NULL is
 * accepted). */
void proto_paths_free(Proto_Paths *p);

/* ---- plain game records ---------------------------------------------- */

/* Most tags a record may carry; longest tag name and value. */
#define PROTO_TAGS_MAX 32
#define PROTO_TAG_NAME_MAX 32
#define PROTO_TAG_VALUE_MAX 256

typedef struct Proto_Tag {
    char name[PROTO_TAG_NAME_MAX + 1];
    char value[PROTO_TAG_VALUE_MAX + 1];
} Proto_Tag;

/* What proto_record_read found. */
typedef struct Proto_Record_Report {
    int err; /* 0 or the first failure's code */
    char why[192];
    uint32_t line; /* 1-based line of the failure */
    uint32_t col;  /* 1-based column there (UTF-8 characters; tab = 1) */
    uint32_t ply;  /* ply being read at the failure (of the variation, in
                    * one) */
    uint32_t next_game; /* line where a second game's tags begin (only the
                         * first game is read), or 0 */
    size_t ntags;
    Proto_Tag tags[PROTO_TAGS_MAX];
    const Core_Game *game;
    char result[16]; /* the movetext's or Result tag's result, or "" */
} Proto_Record_Report;

/* Called after each move a record read applies; pos is after the move,
 * mover the side that made it (CORE_WHITE or CORE_BLACK: not always the
 * side not to move now, since in some games a side moves several times
 * running), text the move as written in the record. */
typedef void (*Proto_Record_Visit)(void *ctx, const Core_Position *pos,
                                   int mover, const Core_Move *mv,
                                   const char *text);

/*
 * proto_record_read: read a plain game record in PGN's import format, its
 * movetext as python-chess reads it: an optional UTF-8 byte-order mark,
 * LF, CRLF or lone CR line ends (each counted as one line), escape lines
 * ('%' in the first column, ignored), tag lines `[Name "value"]` (names
 * of letters, digits and _+#=:-; \" and \\ in values, but a \ before
 * the closing quote stays; a quote not followed by ']' belongs to the
 * value; a Game or Variant tag names the game; Options gives match
 * options; Position or FEN a start position),
 * then movetext: move number indications ("12", "12.", "12...", "12. ...",
 * glued or not), moves in any notation the game's parser accepts,
 * comments in braces or after ';', NAGs ("$14"), glyphs ("!", "?!", glued
 * or apart), null moves ("--", "Z0", "0000", "@@@@": the game's one legal
 * move written "pass" or "... pass", else TB_E_ILLEGAL), variations in
 * parentheses, nested up to 32 deep, each checked from the position
 * before the move it replaces (not visited), and an optional result
 * ("1-0", "0-1", "1/2-1/2", "*"; not inside a variation). Moves may span
 * several words ("S Bc3-d2>g5", "d1-d6 d6*h2"): the longest run of up to 8
 * words that is a legal move is taken. game (may be NULL) is used when no
 * tag names one. Every move must be legal; a Result tag must equal the
 * movetext's result when both are given; a finished board must agree with
 * a stated result; a stray bracket, a '$' without digits, moves after the
 * result or a variation before any move are errors. A '[' first on a line
 * (after blanks) in the movetext begins a second game: reading stops there
 * and rep->next_game names its line. On failure rep->line, rep->col and
 * rep->ply say where. visit (may be NULL) is called for each main-line
 * move. *out (may be NULL) gets the final position (free with
 * core_position_free). Returns rep->err. Errors: TB_E_GAME (no or unknown
 * game), TB_E_FORMAT, TB_E_TOOLONG (a token, tag or nesting over its
 * limit), TB_E_OPTION, TB_E_POSITION, TB_E_NOTATION, TB_E_ILLEGAL,
 * TB_E_AMBIGUOUS, TB_E_OVER, TB_E_NOMEM.
 */
int proto_record_read(const char *text, size_t len, const Core_Game *game,
                      Proto_Record_Visit visit, void *ctx, Core_Position **out,
                      Proto_Record_Report *rep);

/* The value of tag name in rep (case-insensitive name), or NULL. */
const char *proto_record_tag(const Proto_Record_Report *rep, const char *name);

#endif /* TABULA_PROTO_H */
