/*
 * wire.c: the one file of proto/ that includes <msgpack.h>. msgpack-c's
 * unpacker trusts length fields (five hostile bytes can make it ask for
 * gigabytes), so every document is first walked here without allocating:
 * each string, binary and array length is capped and must fit in the bytes
 * present, nesting and item counts are capped, and maps, floats and
 * extensions (unused by the protocol) are refused. Only then does msgpack-c
 * decode it, and the result is packed again and compared byte for byte,
 * so a document not in canonical (smallest) form is refused too.
 * Everything else in proto/ sees the typed readers and writers of
 * proto_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "proto_internal.h"

struct Wire_Doc {
    msgpack_unpacked u;
};

/* ---- limits walk ----------------------------------------------------- */

static uint64_t get_be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

/*
 * Walk one msgpack item with its children. Returns 0 with *used the bytes
 * it spans, TB_E_LIMIT when a cap is exceeded, TB_E_FORMAT when malformed
 * or truncated.
 */
static int scan(const uint8_t *p, size_t len, size_t *used)
{
    uint32_t left[PROTO_DEPTH_MAX + 1];
    int depth = 0;
    size_t off = 0;
    unsigned items = 0;

    left[0] = 1;
    while (depth >= 0) {
        if (left[depth] == 0) {
            depth--;
            continue;
        }
        left[depth]--;
        if (off >= len)
            return TB_E_FORMAT;
        if (++items > PROTO_ITEMS_MAX)
            return TB_E_LIMIT;
        uint8_t t = p[off++];
        unsigned lenbytes = 0; /* bytes of a length field that follows */
        char what = 0;         /* 's' string, 'b' binary, 'a' array */
        uint64_t n = 0;

        if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3)
            continue;                 /* fixints, nil, booleans */
        if (t >= 0xcc && t <= 0xd3) { /* uint8..64, int8..64 */
            off += 1u << ((t - 0xcc) & 3);
            if (off > len)
                return TB_E_FORMAT;
            continue;
        }
        if (t >= 0x90 && t <= 0x9f) {
            what = 'a';
            n = t & 0x0f;
        } else if (t >= 0xa0 && t <= 0xbf) {
            what = 's';
            n = t & 0x1f;
        } else if (t >= 0xc4 && t <= 0xc6) { /* bin8, 16, 32 */
            what = 'b';
            lenbytes = 1u << (t - 0xc4);
        } else if (t >= 0xd9 && t <= 0xdb) { /* str8, 16, 32 */
            what = 's';
            lenbytes = 1u << (t - 0xd9);
        } else if (t == 0xdc || t == 0xdd) { /* array16, 32 */
            what = 'a';
            lenbytes = 2u << (t - 0xdc);
        } else if ((t >= 0x80 && t <= 0x8f) || t == 0xde || t == 0xdf) {
            return TB_E_LIMIT; /* maps: PROTO_MAP_MAX is 0 */
        } else {
            return TB_E_FORMAT; /* 0xc1, floats, extensions */
        }
        if (lenbytes > 0) {
            if (lenbytes > len - off)
                return TB_E_FORMAT;
            n = get_be(p + off, lenbytes);
            off += lenbytes;
        }
        if (what == 'a') {
            if (n > PROTO_ARRAY_MAX)
                return TB_E_LIMIT;
            if (n > len - off) /* every element takes a byte at least */
                return TB_E_FORMAT;
            if (depth + 1 > PROTO_DEPTH_MAX)
                return TB_E_LIMIT;
            left[++depth] = (uint32_t)n;
        } else {
            if (n > (what == 's' ? PROTO_STR_MAX : PROTO_PAYLOAD_MAX))
                return TB_E_LIMIT;
            if (n > len - off)
                return TB_E_FORMAT;
            off += (size_t)n;
        }
    }
    *used = off;
    return 0;
}

/* ---- canonical check ------------------------------------------------- */

typedef struct Cmp {
    const uint8_t *want;
    size_t len;
    size_t off;
    int bad;
} Cmp;

static int cmp_write(void *data, const char *buf, size_t n)
{
    Cmp *c = data;
    if (n == 0)
        return 0; /* an empty string's body: buf may be NULL */
    if (c->bad || n > c->len - c->off || memcmp(c->want + c->off, buf, n)) {
        c->bad = 1;
        return -1;
    }
    c->off += n;
    return 0;
}

int proto__wire_parse(const uint8_t *buf, size_t len, Wire_Doc **doc,
                      Wire_Reader *root)
{
    size_t used = 0, off = 0;
    Wire_Doc *d;
    int rc;

    *doc = NULL;
    memset(root, 0, sizeof *root);
    if (len > PROTO_FRAME_MAX)
        return TB_E_LIMIT;
    rc = scan(buf, len, &used);
    if (rc != 0)
        return rc;
    if (used != len)
        return TB_E_FORMAT; /* trailing bytes */
    d = malloc(sizeof *d);
    if (d == NULL)
        return TB_E_NOMEM;
    msgpack_unpacked_init(&d->u);
    msgpack_unpack_return ur =
        msgpack_unpack_next(&d->u, (const char *)buf, len, &off);
    if (ur == MSGPACK_UNPACK_NOMEM_ERROR) {
        rc = TB_E_NOMEM;
        goto fail;
    }
    if (ur != MSGPACK_UNPACK_SUCCESS || off != len) {
        rc = TB_E_FORMAT;
        goto fail;
    }
    Cmp c = {buf, len, 0, 0};
    msgpack_packer pk;
    msgpack_packer_init(&pk, &c, cmp_write);
    if (msgpack_pack_object(&pk, d->u.data) != 0 || c.bad || c.off != len) {
        rc = TB_E_FORMAT; /* not the smallest form */
        goto fail;
    }
    if (d->u.data.type != MSGPACK_OBJECT_ARRAY) {
        rc = TB_E_FORMAT;
        goto fail;
    }
    root->items = d->u.data.via.array.ptr;
    root->n = d->u.data.via.array.size;
    *doc = d;
    return 0;
fail:
    msgpack_unpacked_destroy(&d->u);
    free(d);
    return rc;
}

void proto__wire_free(Wire_Doc *doc)
{
    if (doc == NULL)
        return;
    msgpack_unpacked_destroy(&doc->u);
    free(doc);
}

/* ---- typed readers --------------------------------------------------- */

static const msgpack_object *next(Wire_Reader *r, msgpack_object_type type,
                                  const char *what)
{
    const msgpack_object *o;
    if (r->err != 0)
        return NULL;
    if (r->i >= r->n) {
        r->err = TB_E_FORMAT;
        r->what = what;
        return NULL;
    }
    o = (const msgpack_object *)r->items + r->i++;
    if (o->type != type) {
        r->err = TB_E_FORMAT;
        r->what = what;
        return NULL;
    }
    return o;
}

static void fail(Wire_Reader *r, int err, const char *what)
{
    r->err = err;
    r->what = what;
}

uint64_t proto__r_uint(Wire_Reader *r, uint64_t max, const char *what)
{
    const msgpack_object *o = next(r, MSGPACK_OBJECT_POSITIVE_INTEGER, what);
    if (o == NULL)
        return 0;
    if (o->via.u64 > max) {
        fail(r, TB_E_LIMIT, what);
        return 0;
    }
    return o->via.u64;
}

const char *proto__r_str(Wire_Reader *r, size_t max, size_t *len,
                         const char *what)
{
    const msgpack_object *o = next(r, MSGPACK_OBJECT_STR, what);
    *len = 0;
    if (o == NULL)
        return "";
    if (o->via.str.size > max) {
        fail(r, TB_E_LIMIT, what);
        return "";
    }
    *len = o->via.str.size;
    return o->via.str.ptr;
}

const uint8_t *proto__r_bin(Wire_Reader *r, size_t min, size_t max, size_t *len,
                            const char *what)
{
    static const uint8_t none[1];
    const msgpack_object *o = next(r, MSGPACK_OBJECT_BIN, what);
    *len = 0;
    if (o == NULL)
        return none;
    if (o->via.bin.size > max) {
        fail(r, TB_E_LIMIT, what);
        return none;
    }
    if (o->via.bin.size < min) {
        fail(r, TB_E_FORMAT, what);
        return none;
    }
    *len = o->via.bin.size;
    return (const uint8_t *)o->via.bin.ptr;
}

void proto__r_array(Wire_Reader *r, uint32_t min, uint32_t max,
                    Wire_Reader *sub, const char *what)
{
    const msgpack_object *o = next(r, MSGPACK_OBJECT_ARRAY, what);
    memset(sub, 0, sizeof *sub);
    if (o == NULL) {
        sub->err = r->err;
        sub->what = r->what;
        return;
    }
    if (o->via.array.size > max) {
        fail(r, TB_E_LIMIT, what);
    } else if (o->via.array.size < min) {
        fail(r, TB_E_FORMAT, what);
    } else {
        sub->items = o->via.array.ptr;
        sub->n = o->via.array.size;
        return;
    }
    sub->err = r->err;
    sub->what = r->what;
}

int proto__r_end(Wire_Reader *r)
{
    if (r->err == 0 && r->i != r->n) {
        r->err = TB_E_FORMAT;
        r->what = "extra elements";
    }
    return r->err;
}

char proto__r_peek(const Wire_Reader *r)
{
    if (r->err != 0 || r->i >= r->n)
        return '?';
    switch (((const msgpack_object *)r->items)[r->i].type) {
    case MSGPACK_OBJECT_STR:
        return 's';
    case MSGPACK_OBJECT_BIN:
        return 'b';
    case MSGPACK_OBJECT_ARRAY:
        return 'a';
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        return 'u';
    default:
        return '?';
    }
}

/* ---- writers --------------------------------------------------------- */

static int w_write(void *data, const char *buf, size_t n)
{
    Wire_Writer *w = data;
    if (w->err != 0)
        return -1;
    if (n == 0)
        return 0;
    if (n > w->cap - w->len) {
        w->err = TB_E_SPACE;
        return -1;
    }
    memcpy(w->buf + w->len, buf, n);
    w->len += n;
    return 0;
}

void proto__w_init(Wire_Writer *w, uint8_t *buf, size_t cap)
{
    w->buf = buf;
    w->cap = cap;
    w->len = 0;
    w->err = 0;
}

void proto__w_array(Wire_Writer *w, uint32_t n)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, w, w_write);
    msgpack_pack_array(&pk, n);
}

void proto__w_uint(Wire_Writer *w, uint64_t v)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, w, w_write);
    msgpack_pack_uint64(&pk, v);
}

void proto__w_str(Wire_Writer *w, const char *s, size_t len)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, w, w_write);
    if (msgpack_pack_str(&pk, len) == 0)
        msgpack_pack_str_body(&pk, s, len);
}

void proto__w_bin(Wire_Writer *w, const uint8_t *p, size_t len)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, w, w_write);
    if (msgpack_pack_bin(&pk, len) == 0)
        msgpack_pack_bin_body(&pk, p, len);
}

void proto__w_bin_header(Wire_Writer *w, size_t len)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, w, w_write);
    msgpack_pack_bin(&pk, len);
}

void proto__w_raw(Wire_Writer *w, const uint8_t *p, size_t len)
{
    w_write(w, (const char *)p, len);
}
