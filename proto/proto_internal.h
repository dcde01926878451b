/*
 * proto_internal.h: what the files of proto/ share and nothing outside
 * proto/ includes. Two boxes keep the libraries contained: crypto.c is the
 * only file that includes <sodium.h> (hashes, signatures, randomness) and
 * wire.c the only one that includes <msgpack.h>; everything else sees the
 * typed, size-limited readers and writers below.
 */
#ifndef TABULA_PROTO_INTERNAL_H
#define TABULA_PROTO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

/* ---- crypto.c --------------------------------------------------------- */

/* BLAKE2b-256 of buf[0..len). Errors: TB_E_CRYPTO. */
int proto__hash(const uint8_t *buf, size_t len, uint8_t out[PROTO_HASH_BYTES]);

/* Detached Ed25519 signature of msg with sk. Errors: TB_E_CRYPTO. */
int proto__sign(const uint8_t *msg, size_t len,
                const uint8_t sk[PROTO_SECRET_BYTES],
                uint8_t sig[PROTO_SIG_BYTES]);

/* 0 when sig is pk's signature of msg, else TB_E_SIGNATURE. */
int proto__verify(const uint8_t *msg, size_t len,
                  const uint8_t sig[PROTO_SIG_BYTES],
                  const uint8_t pk[PROTO_KEY_BYTES]);

/* n random bytes (libsodium's generator). */
void proto__random(uint8_t *buf, size_t n);

/* Overwrite n bytes with zeros in a way the compiler keeps. */
void proto__wipe(void *buf, size_t n);

/* Constant-time equality of n bytes: 1 equal, 0 not. */
int proto__equal(const uint8_t *a, const uint8_t *b, size_t n);

/* ---- identity.c: small private files ----------------------------------- */

/* Read the file at path (no symbolic link, a regular file; with
 * private_only, one that group and others cannot read or write) into
 * buf, at most cap - 1 bytes, *got of them. Errors: TB_E_STATE (no such
 * file), TB_E_IO, TB_E_FORMAT (cap bytes or more). */
int proto__read_small(const char *path, char *buf, size_t cap, size_t *got,
                      int private_only);

/* mkdir -p of the directory part of path, new directories mode 0700.
 * Errors: TB_E_SPACE (path over 1023 bytes), TB_E_IO. */
int proto__make_parents(const char *path);

/* Write text[0..n) to path, mode 0600, through a temporary file beside it
 * that is fsynced, then renamed over path (replace) or linked into place
 * (not replace: TB_E_STATE when path exists), so a crash never leaves
 * half a file. Errors: TB_E_SPACE, TB_E_IO, TB_E_STATE. */
int proto__write_private(const char *path, const char *text, size_t n,
                         int replace);

/* ---- wire.c: msgpack behind typed, size-limited readers ----------------- */

/*
 * A writer appends canonical msgpack (smallest forms) to buf[0..cap).
 * An overflow sets err to TB_E_SPACE and stops writing.
 */
typedef struct Wire_Writer {
    uint8_t *buf;
    size_t cap;
    size_t len;
    int err;
} Wire_Writer;

void proto__w_init(Wire_Writer *w, uint8_t *buf, size_t cap);
void proto__w_array(Wire_Writer *w, uint32_t n);
void proto__w_uint(Wire_Writer *w, uint64_t v);
void proto__w_str(Wire_Writer *w, const char *s, size_t len);
void proto__w_bin(Wire_Writer *w, const uint8_t *p, size_t len);
/* The header of a bin of len bytes whose body the caller places. */
void proto__w_bin_header(Wire_Writer *w, size_t len);
/* Raw bytes (a frame prefix placeholder, a nested payload). */
void proto__w_raw(Wire_Writer *w, const uint8_t *p, size_t len);

/* A decoded msgpack document (opaque: msgpack-c's zone and objects). */
typedef struct Wire_Doc Wire_Doc;

/* A reader over the elements of one array of a document. Reading past the
 * end or a wrong type sets err (the first error sticks) and returns
 * zeros, so a decoder can read every field and check err once. */
typedef struct Wire_Reader {
    const void *items; /* msgpack_object[n] */
    uint32_t n;
    uint32_t i;
    int err;
    const char *what; /* the field that failed, for messages */
} Wire_Reader;

/*
 * proto__wire_parse: check buf[0..len) against the limits (every string,
 * binary and array length, nesting depth, item count, maps refused, no
 * floats or extensions, exactly one item, lengths within the bytes
 * present), only then decode it with msgpack-c, then re-encode and compare
 * to refuse non-canonical forms. The top item must be an array; *root
 * reads it. Strings and binaries point into buf.
 * Errors: TB_E_LIMIT, TB_E_FORMAT, TB_E_NOMEM.
 */
int proto__wire_parse(const uint8_t *buf, size_t len, Wire_Doc **doc,
                      Wire_Reader *root);
void proto__wire_free(Wire_Doc *doc);

/* The next element as an unsigned integer <= max. */
uint64_t proto__r_uint(Wire_Reader *r, uint64_t max, const char *what);
/* The next element as a string of at most max bytes (not NUL-terminated). */
const char *proto__r_str(Wire_Reader *r, size_t max, size_t *len,
                         const char *what);
/* The next element as binary of min..max bytes. */
const uint8_t *proto__r_bin(Wire_Reader *r, size_t min, size_t max, size_t *len,
                            const char *what);
/* The next element as an array of min..max elements; sub reads it. */
void proto__r_array(Wire_Reader *r, uint32_t min, uint32_t max,
                    Wire_Reader *sub, const char *what);
/* TB_E_FORMAT when elements remain unread, else r->err. */
int proto__r_end(Wire_Reader *r);
/* Type of the next element without consuming: 's' str, 'b' bin, 'a'
 * array, 'u' unsigned, '?' other or none. */
char proto__r_peek(const Wire_Reader *r);

/* ---- message.c -------------------------------------------------------- */

/* Check a wire string's characters: PROTO_CHARS_NAME [a-z0-9-],
 * PROTO_CHARS_ASCII printable ASCII without spaces (options),
 * PROTO_CHARS_MOVE printable ASCII with inner single spaces (some games'
 * notation has them: "S Bc3-d2>g5"), PROTO_CHARS_TEXT UTF-8 without
 * control characters. */
enum {
    PROTO_CHARS_NAME,
    PROTO_CHARS_ASCII,
    PROTO_CHARS_MOVE,
    PROTO_CHARS_TEXT
};
int proto__text_ok(const char *s, size_t len, int chars);

/* The one UTF-8 decoder of proto/: the length (1..4) of the well-formed
 * sequence at s[0..len), its code point in *cp; 0 for a malformed,
 * truncated or overlong sequence, a surrogate or a value past U+10FFFF
 * (*cp untouched). Controls and noncharacters are the caller's rules. */
size_t proto__utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);

/* Bounded "why" formatting shared by the files of proto/. */
void proto__why(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Big-endian u32 of a frame prefix. */
void proto__put_be32(uint8_t *p, uint32_t v);
uint32_t proto__get_be32(const uint8_t *p);

#endif /* TABULA_PROTO_INTERNAL_H */
