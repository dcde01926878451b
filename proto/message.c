/*
 * message.c: the envelope format. Sealing encodes a message canonically,
 * signs the payload bytes and frames the envelope; opening checks the
 * frame limits, decodes through the size-limited readers of wire.c,
 * checks the version, kind and every field, and verifies the signature on
 * the payload bytes exactly as received (never on a re-encoding).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proto_internal.h"

static const char *const kind_names[PROTO_KIND_COUNT_] = {
    [PROTO_KIND_HELLO] = "hello",
    [PROTO_KIND_MATCH_START] = "match-start",
    [PROTO_KIND_MOVE] = "move",
    [PROTO_KIND_DRAW_OFFER] = "draw-offer",
    [PROTO_KIND_DRAW_ACCEPT] = "draw-accept",
    [PROTO_KIND_DRAW_DECLINE] = "draw-decline",
    [PROTO_KIND_RESIGN] = "resign",
    [PROTO_KIND_ABORT] = "abort",
    [PROTO_KIND_TAKEBACK_REQUEST] = "takeback-request",
    [PROTO_KIND_TAKEBACK_ACCEPT] = "takeback-accept",
    [PROTO_KIND_TAKEBACK_DECLINE] = "takeback-decline",
    [PROTO_KIND_STATE_CHECK] = "state-check",
    [PROTO_KIND_DESYNC] = "desync",
    [PROTO_KIND_CHAT] = "chat",
    [PROTO_KIND_BYE] = "bye",
    [PROTO_KIND_FLAG] = "flag",
    [PROTO_KIND_CLAIM] = "claim",
};

const char *proto_kind_name(int kind)
{
    if (kind <= 0 || kind >= PROTO_KIND_COUNT_)
        return "unknown";
    return kind_names[kind];
}

void proto__why(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    if (why == NULL || cap == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
}

void proto__put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

uint32_t proto__get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

size_t proto__utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    uint32_t c;
    size_t n;

    if (len == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        n = 2;
        c = s[0] & 0x1fu;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        c = s[0] & 0x0fu;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        c = s[0] & 0x07u;
    } else {
        return 0; /* a continuation byte, C0/C1 (overlong), F5..FF */
    }
    if (n > len)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3fu);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10ffff ||
        (c >= 0xd800 && c <= 0xdfff))
        return 0; /* overlong, out of range, surrogate */
    *cp = c;
    return n;
}

/* Length of a valid UTF-8 sequence at s[0..len) that is not a control
 * character, or 0. */
static size_t utf8_char(const unsigned char *s, size_t len)
{
    uint32_t c = 0;
    size_t n = proto__utf8_decode(s, len, &c);

    if (n == 0 || c < 0x20 || (c >= 0x7f && c <= 0x9f))
        return 0; /* C0, DEL, C1 control */
    return n;
}

int proto__text_ok(const char *s, size_t len, int chars)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;

    while (i < len) {
        size_t n = 1;
        if (chars == PROTO_CHARS_NAME) {
            if (!((u[i] >= 'a' && u[i] <= 'z') ||
                  (u[i] >= '0' && u[i] <= '9') || u[i] == '-'))
                return 0;
        } else if (chars == PROTO_CHARS_ASCII) {
            if (u[i] <= 0x20 || u[i] >= 0x7f)
                return 0;
        } else if (chars == PROTO_CHARS_MOVE) {
            if (u[i] < 0x20 || u[i] >= 0x7f)
                return 0;
            if (u[i] == ' ' && (i == 0 || i + 1 == len || u[i + 1] == ' '))
                return 0; /* no leading, trailing or double spaces */
        } else {
            n = utf8_char(u + i, len - i);
            if (n == 0)
                return 0;
        }
        i += n;
    }
    return 1;
}

void proto_message_init(Proto_Message *m, Proto_Kind kind,
                        const Proto_Identity *id)
{
    memset(m, 0, sizeof *m);
    m->version = PROTO_VERSION;
    m->kind = (uint8_t)kind;
    if (id != NULL)
        memcpy(m->sender, id->pk, PROTO_KEY_BYTES);
}

/* ---- sealing --------------------------------------------------------- */

/* Check a NUL-terminated field and write it. */
static int put_text(Wire_Writer *w, const char *s, size_t max, int chars,
                    int may_be_empty)
{
    size_t n = 0;
    while (n <= max && s[n] != '\0') /* strnlen is POSIX, not C11 */
        n++;
    if (n > max || (n == 0 && !may_be_empty) || !proto__text_ok(s, n, chars))
        return TB_E_FORMAT;
    proto__w_str(w, s, n);
    return 0;
}

static int put_body(Wire_Writer *w, const Proto_Message *m)
{
    int rc = 0;

    switch ((Proto_Kind)m->kind) {
    case PROTO_KIND_HELLO:
        proto__w_array(w, 3);
        rc = put_text(w, m->body.hello.software, PROTO_NAME_MAX,
                      PROTO_CHARS_ASCII, 0);
        proto__w_bin(w, m->body.hello.nonce, PROTO_NONCE_BYTES);
        proto__w_bin(w, m->body.hello.echo,
                     m->body.hello.has_echo ? PROTO_NONCE_BYTES : 0);
        break;
    case PROTO_KIND_MATCH_START:
        proto__w_array(w, 5);
        rc = put_text(w, m->body.start.game, PROTO_NAME_MAX, PROTO_CHARS_NAME,
                      0);
        if (rc == 0)
            rc = put_text(w, m->body.start.options, PROTO_OPTIONS_MAX,
                          PROTO_CHARS_ASCII, 1);
        proto__w_bin(w, m->body.start.white, PROTO_KEY_BYTES);
        proto__w_bin(w, m->body.start.black, PROTO_KEY_BYTES);
        proto__w_uint(w, m->body.start.started);
        break;
    case PROTO_KIND_MOVE:
        proto__w_array(w, m->body.move.has_clock ? 5 : 3);
        proto__w_uint(w, m->body.move.ply);
        rc = put_text(w, m->body.move.move, CORE_NOTATION_MAX - 1,
                      PROTO_CHARS_MOVE, 0);
        proto__w_bin(w, m->body.move.hash, PROTO_HASH_BYTES);
        if (m->body.move.has_clock) {
            proto__w_uint(w, m->body.move.own_ms);
            proto__w_uint(w, m->body.move.opp_ms);
        }
        break;
    case PROTO_KIND_FLAG:
        proto__w_array(w, 2);
        proto__w_uint(w, m->body.flag.ply);
        proto__w_uint(w, m->body.flag.elapsed);
        break;
    case PROTO_KIND_CLAIM:
        if (m->body.claim.what > PROTO_CLAIM_DRAW)
            return TB_E_FORMAT;
        proto__w_array(w, 1);
        proto__w_uint(w, m->body.claim.what);
        break;
    case PROTO_KIND_STATE_CHECK:
        proto__w_array(w, 2);
        proto__w_uint(w, m->body.check.ply);
        proto__w_bin(w, m->body.check.hash, PROTO_HASH_BYTES);
        break;
    case PROTO_KIND_DESYNC:
        if (m->body.desync.state == NULL || m->body.desync.state_len == 0 ||
            m->body.desync.state_len > PROTO_STATE_MAX)
            return TB_E_FORMAT;
        proto__w_array(w, 2);
        proto__w_uint(w, m->body.desync.ply);
        proto__w_bin(w, m->body.desync.state, m->body.desync.state_len);
        break;
    case PROTO_KIND_TAKEBACK_REQUEST:
    case PROTO_KIND_TAKEBACK_ACCEPT:
        if (m->body.takeback.plies < 1 || m->body.takeback.plies > 255)
            return TB_E_FORMAT;
        proto__w_array(w, 1);
        proto__w_uint(w, m->body.takeback.plies);
        break;
    case PROTO_KIND_CHAT:
    case PROTO_KIND_BYE:
        proto__w_array(w, 1);
        rc =
            put_text(w, m->body.text.text, PROTO_TEXT_MAX, PROTO_CHARS_TEXT, 1);
        break;
    case PROTO_KIND_DRAW_OFFER:
    case PROTO_KIND_DRAW_ACCEPT:
    case PROTO_KIND_DRAW_DECLINE:
    case PROTO_KIND_RESIGN:
    case PROTO_KIND_ABORT:
    case PROTO_KIND_TAKEBACK_DECLINE:
        proto__w_array(w, 0);
        break;
    default:
        return TB_E_KIND;
    }
    return rc != 0 ? rc : w->err;
}

/* Bytes of the msgpack bin header for n bytes. */
static size_t bin_header(size_t n)
{
    return n < 256 ? 2 : n < 65536 ? 3 : 5;
}

int proto_seal(const Proto_Message *m, const Proto_Identity *id, uint8_t *buf,
               size_t cap, size_t *len, uint8_t hash[PROTO_HASH_BYTES])
{
    /* The payload is written where it would sit after the largest bin
     * header, then moved down next to the header it really needs. */
    const size_t room = PROTO_FRAME_PREFIX + 1 + 5;
    Wire_Writer w;
    size_t plen, start;
    int rc;

    *len = 0;
    if (m->version != PROTO_VERSION)
        return TB_E_VERSION;
    if (memcmp(m->sender, id->pk, PROTO_KEY_BYTES) != 0)
        return TB_E_ARG;
    if (cap < room)
        return TB_E_SPACE;
    proto__w_init(&w, buf + room, cap - room);
    proto__w_array(&w, 7);
    proto__w_uint(&w, m->version);
    proto__w_uint(&w, m->kind);
    proto__w_bin(&w, m->match_id, PROTO_MATCH_ID_BYTES);
    proto__w_uint(&w, m->seq);
    proto__w_bin(&w, m->prev, PROTO_HASH_BYTES);
    proto__w_bin(&w, m->sender, PROTO_KEY_BYTES);
    rc = put_body(&w, m);
    if (rc != 0)
        return rc;
    plen = w.len;
    if (plen > PROTO_PAYLOAD_MAX)
        return TB_E_FORMAT;
    start = PROTO_FRAME_PREFIX + 1 + bin_header(plen);
    memmove(buf + start, buf + room, plen);
    /* The envelope: [payload, signature]. */
    proto__w_init(&w, buf + PROTO_FRAME_PREFIX, cap - PROTO_FRAME_PREFIX);
    proto__w_array(&w, 2);
    proto__w_bin_header(&w, plen);
    w.len += plen; /* the payload already sits right after its header */
    uint8_t sig[PROTO_SIG_BYTES];
    rc = proto__sign(buf + start, plen, id->sk, sig);
    if (rc != 0)
        return rc;
    proto__w_bin(&w, sig, PROTO_SIG_BYTES);
    if (w.err != 0)
        return w.err;
    if (w.len > PROTO_FRAME_MAX)
        return TB_E_FORMAT;
    proto__put_be32(buf, (uint32_t)w.len);
    if (hash != NULL) {
        rc = proto__hash(buf + start, plen, hash);
        if (rc != 0)
            return rc;
    }
    *len = PROTO_FRAME_PREFIX + w.len;
    return 0;
}

int proto_frame_next(const uint8_t *buf, size_t len, const uint8_t **env,
                     size_t *env_len, size_t *used)
{
    uint32_t n;
    if (len < PROTO_FRAME_PREFIX)
        return TB_E_TRUNCATED;
    n = proto__get_be32(buf);
    if (n == 0 || n > PROTO_FRAME_MAX)
        return TB_E_LIMIT;
    if (len - PROTO_FRAME_PREFIX < n)
        return TB_E_TRUNCATED;
    *env = buf + PROTO_FRAME_PREFIX;
    *env_len = n;
    *used = PROTO_FRAME_PREFIX + (size_t)n;
    return 0;
}

/* ---- opening --------------------------------------------------------- */

static void get_text(Wire_Reader *r, char *out, size_t max, int chars,
                     int may_be_empty, const char *what)
{
    size_t n = 0;
    const char *s = proto__r_str(r, max, &n, what);
    out[0] = '\0';
    if (r->err != 0)
        return;
    if ((n == 0 && !may_be_empty) || !proto__text_ok(s, n, chars)) {
        r->err = TB_E_FORMAT;
        r->what = what;
        return;
    }
    memcpy(out, s, n);
    out[n] = '\0';
}

static void get_fixed(Wire_Reader *r, uint8_t *out, size_t n, const char *what)
{
    size_t got = 0;
    const uint8_t *p = proto__r_bin(r, n, n, &got, what);
    if (r->err == 0)
        memcpy(out, p, n);
}

static int get_body(Wire_Reader *r, Proto_Message *m)
{
    size_t n = 0;
    const uint8_t *p;

    switch ((Proto_Kind)m->kind) {
    case PROTO_KIND_HELLO:
        get_text(r, m->body.hello.software, PROTO_NAME_MAX, PROTO_CHARS_ASCII,
                 0, "hello software");
        get_fixed(r, m->body.hello.nonce, PROTO_NONCE_BYTES, "hello nonce");
        p = proto__r_bin(r, 0, PROTO_NONCE_BYTES, &n, "hello echo");
        if (r->err == 0 && n != 0 && n != PROTO_NONCE_BYTES) {
            r->err = TB_E_FORMAT;
            r->what = "hello echo";
        } else if (r->err == 0 && n != 0) {
            memcpy(m->body.hello.echo, p, n);
            m->body.hello.has_echo = 1;
        }
        break;
    case PROTO_KIND_MATCH_START:
        get_text(r, m->body.start.game, PROTO_NAME_MAX, PROTO_CHARS_NAME, 0,
                 "game");
        get_text(r, m->body.start.options, PROTO_OPTIONS_MAX, PROTO_CHARS_ASCII,
                 1, "options");
        get_fixed(r, m->body.start.white, PROTO_KEY_BYTES, "white key");
        get_fixed(r, m->body.start.black, PROTO_KEY_BYTES, "black key");
        m->body.start.started = proto__r_uint(r, UINT64_MAX, "started");
        break;
    case PROTO_KIND_MOVE:
        m->body.move.ply = (uint32_t)proto__r_uint(r, UINT32_MAX, "ply");
        get_text(r, m->body.move.move, CORE_NOTATION_MAX - 1, PROTO_CHARS_MOVE,
                 0, "move");
        get_fixed(r, m->body.move.hash, PROTO_HASH_BYTES, "state hash");
        if (r->err == 0 && r->i < r->n) {
            m->body.move.has_clock = 1;
            m->body.move.own_ms =
                (uint32_t)proto__r_uint(r, UINT32_MAX, "own clock");
            m->body.move.opp_ms =
                (uint32_t)proto__r_uint(r, UINT32_MAX, "opponent clock");
        }
        break;
    case PROTO_KIND_FLAG:
        m->body.flag.ply = (uint32_t)proto__r_uint(r, UINT32_MAX, "ply");
        m->body.flag.elapsed =
            (uint32_t)proto__r_uint(r, UINT32_MAX, "elapsed");
        break;
    case PROTO_KIND_CLAIM:
        m->body.claim.what =
            (uint32_t)proto__r_uint(r, PROTO_CLAIM_DRAW, "claim");
        break;
    case PROTO_KIND_STATE_CHECK:
        m->body.check.ply = (uint32_t)proto__r_uint(r, UINT32_MAX, "ply");
        get_fixed(r, m->body.check.hash, PROTO_HASH_BYTES, "state hash");
        break;
    case PROTO_KIND_DESYNC:
        m->body.desync.ply = (uint32_t)proto__r_uint(r, UINT32_MAX, "ply");
        p = proto__r_bin(r, 1, PROTO_STATE_MAX, &n, "state");
        m->body.desync.state = r->err == 0 ? p : NULL;
        m->body.desync.state_len = n;
        break;
    case PROTO_KIND_TAKEBACK_REQUEST:
    case PROTO_KIND_TAKEBACK_ACCEPT:
        m->body.takeback.plies = (uint32_t)proto__r_uint(r, 255, "plies");
        if (r->err == 0 && m->body.takeback.plies == 0) {
            r->err = TB_E_FORMAT;
            r->what = "plies";
        }
        break;
    case PROTO_KIND_CHAT:
    case PROTO_KIND_BYE:
        get_text(r, m->body.text.text, PROTO_TEXT_MAX, PROTO_CHARS_TEXT, 1,
                 "text");
        break;
    default:
        break; /* the bodiless kinds: [] */
    }
    return proto__r_end(r);
}

int proto_open(const uint8_t *env, size_t len, Proto_Envelope *out, char *why,
               size_t why_cap)
{
    Wire_Doc *edoc = NULL, *pdoc = NULL;
    Wire_Reader r, pr, body;
    const uint8_t *payload, *sig;
    size_t plen = 0, slen = 0;
    Proto_Message *m = &out->msg;
    int rc;

    memset(out, 0, sizeof *out);
    proto__why(why, why_cap, "%s", "");
    if (len > PROTO_FRAME_MAX) {
        proto__why(why, why_cap, "envelope of %zu bytes over the limit %d", len,
                   PROTO_FRAME_MAX);
        return TB_E_LIMIT;
    }
    rc = proto__wire_parse(env, len, &edoc, &r);
    if (rc != 0) {
        proto__why(why, why_cap, "envelope: %s", tb_strerror(rc));
        goto done;
    }
    payload = proto__r_bin(&r, 1, PROTO_PAYLOAD_MAX, &plen, "payload");
    sig =
        proto__r_bin(&r, PROTO_SIG_BYTES, PROTO_SIG_BYTES, &slen, "signature");
    rc = proto__r_end(&r);
    if (rc != 0) {
        proto__why(why, why_cap, "envelope: %s (%s)", tb_strerror(rc),
                   r.what ? r.what : "layout");
        goto done;
    }
    memcpy(out->sig, sig, PROTO_SIG_BYTES);
    rc = proto__wire_parse(payload, plen, &pdoc, &pr);
    if (rc != 0) {
        proto__why(why, why_cap, "payload: %s", tb_strerror(rc));
        goto done;
    }
    /* Version first: another version may lay the rest out differently. */
    m->version = (uint8_t)proto__r_uint(&pr, 255, "version");
    if (pr.err == 0 && m->version != PROTO_VERSION) {
        rc = TB_E_VERSION;
        proto__why(why, why_cap, "protocol version %u; this build speaks %d",
                   m->version, PROTO_VERSION);
        goto done;
    }
    m->kind = (uint8_t)proto__r_uint(&pr, 255, "kind");
    if (pr.err == 0 && (m->kind == 0 || m->kind >= PROTO_KIND_COUNT_)) {
        rc = TB_E_KIND;
        proto__why(why, why_cap, "unknown message kind %u", m->kind);
        goto done;
    }
    get_fixed(&pr, m->match_id, PROTO_MATCH_ID_BYTES, "match id");
    m->seq = (uint32_t)proto__r_uint(&pr, UINT32_MAX, "seq");
    get_fixed(&pr, m->prev, PROTO_HASH_BYTES, "prev");
    get_fixed(&pr, m->sender, PROTO_KEY_BYTES, "sender");
    proto__r_array(&pr, 0, 5, &body, "body");
    rc = proto__r_end(&pr);
    if (rc == 0)
        rc = get_body(&body, m);
    if (rc != 0) {
        const char *what = pr.err ? pr.what : body.what;
        proto__why(why, why_cap, "payload: %s (%s)", tb_strerror(rc),
                   what ? what : "layout");
        goto done;
    }
    rc = proto__verify(payload, plen, out->sig, m->sender);
    if (rc != 0) {
        proto__why(why, why_cap, "%s",
                   "signature does not verify with the "
                   "sender's key");
        goto done;
    }
    rc = proto__hash(payload, plen, out->hash);
done:
    proto__wire_free(pdoc);
    proto__wire_free(edoc);
    return rc;
}
