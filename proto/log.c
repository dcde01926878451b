/*
 * log.c: match log files. A log is the magic line, a header frame (game,
 * options, match id, both players' keys, start time), then the frames of
 * the match's envelopes exactly as sealed, then an end record (envelope
 * count and final chain hash) written with the fsync at game end. Each
 * append is one write(2) on an O_APPEND descriptor, so nothing waits in a
 * user-space buffer and a crash can only tear the last frame; the reader
 * then verifies everything up to the last whole envelope and says so.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, fsync */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto_internal.h"

#define LOG_HEADER_TAG "tabula-log"
#define LOG_END_TAG "end"
#define LOG_FORMAT_VERSION 1

struct Proto_Log {
    int fd;       /* the file, or -1 for a log kept in memory */
    uint8_t *mem; /* a memory log's bytes (proto_log_create_memory) */
    size_t len, cap;
};

/* A memory log stops growing here (a match log is far smaller: a few
 * hundred bytes a move). */
#define LOG_MEMORY_MAX ((size_t)64 << 20)

void proto_log_header_of(const Proto_Message *start, Proto_Log_Header *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->game, start->body.start.game, sizeof h->game);
    memcpy(h->options, start->body.start.options, sizeof h->options);
    memcpy(h->match_id, start->match_id, PROTO_MATCH_ID_BYTES);
    memcpy(h->white, start->body.start.white, PROTO_KEY_BYTES);
    memcpy(h->black, start->body.start.black, PROTO_KEY_BYTES);
    h->started = start->body.start.started;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return TB_E_IO;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Append n bytes to the log: one write(2) to a file, or to memory. */
static int log_write(Proto_Log *log, const uint8_t *p, size_t n)
{
    if (log->fd >= 0)
        return write_all(log->fd, p, n);
    if (n > LOG_MEMORY_MAX - log->len)
        return TB_E_LIMIT;
    if (log->len + n > log->cap) {
        size_t cap = log->cap ? log->cap : 4096;
        while (cap < log->len + n)
            cap *= 2;
        uint8_t *m = realloc(log->mem, cap);
        if (m == NULL)
            return TB_E_NOMEM;
        log->mem = m;
        log->cap = cap;
    }
    memcpy(log->mem + log->len, p, n);
    log->len += n;
    return 0;
}

/* Wrap the document in w (written after PROTO_FRAME_PREFIX bytes) in its
 * frame prefix. */
static void frame_close(uint8_t *buf, Wire_Writer *w)
{
    proto__put_be32(buf, (uint32_t)w->len);
}

/* Start log (its fd already set) with the magic and the header frame of
 * h (checked by header_ok). */
static int log_start(Proto_Log *log, const Proto_Log_Header *h)
{
    uint8_t buf[PROTO_LOG_MAGIC_LEN + PROTO_FRAME_PREFIX + 512];
    size_t gl = strlen(h->game), ol = strlen(h->options);
    uint8_t *frame = buf + PROTO_LOG_MAGIC_LEN;
    Wire_Writer w;

    memcpy(buf, PROTO_LOG_MAGIC, PROTO_LOG_MAGIC_LEN);
    proto__w_init(&w, frame + PROTO_FRAME_PREFIX,
                  sizeof buf - PROTO_LOG_MAGIC_LEN - PROTO_FRAME_PREFIX);
    int v2 = h->version >= 2; /* (a room's key follows) */
    proto__w_array(&w, v2 ? 9 : 8);
    proto__w_str(&w, LOG_HEADER_TAG, strlen(LOG_HEADER_TAG));
    proto__w_uint(&w, v2 ? (uint64_t)h->version : LOG_FORMAT_VERSION);
    proto__w_str(&w, h->game, gl);
    proto__w_str(&w, h->options, ol);
    proto__w_bin(&w, h->match_id, PROTO_MATCH_ID_BYTES);
    proto__w_bin(&w, h->white, PROTO_KEY_BYTES);
    proto__w_bin(&w, h->black, PROTO_KEY_BYTES);
    proto__w_uint(&w, h->started);
    if (v2)
        proto__w_bin(&w, h->room, PROTO_KEY_BYTES);
    if (w.err != 0)
        return TB_E_FORMAT;
    frame_close(frame, &w);
    return log_write(log, buf, PROTO_LOG_MAGIC_LEN + PROTO_FRAME_PREFIX + w.len);
}

/* A header log_start can write (checked before a file is made). */
static int header_ok(const Proto_Log_Header *h)
{
    size_t gl = strlen(h->game), ol = strlen(h->options);
    return gl > 0 && gl <= PROTO_NAME_MAX && ol <= PROTO_OPTIONS_MAX &&
           h->version >= 0 && h->version <= PROTO_LOG_VERSION &&
           proto__text_ok(h->game, gl, PROTO_CHARS_NAME) &&
           proto__text_ok(h->options, ol, PROTO_CHARS_ASCII);
}

/* A log at path, or in memory when path is NULL. */
static int log_open(Proto_Log **out, const char *path,
                    const Proto_Log_Header *h)
{
    Proto_Log *log;
    int rc;

    *out = NULL;
    if (!header_ok(h))
        return TB_E_FORMAT;
    log = calloc(1, sizeof *log);
    if (log == NULL)
        return TB_E_NOMEM;
    log->fd = -1;
    if (path != NULL) {
        log->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND |
                                 O_CLOEXEC, 0600);
        if (log->fd < 0) {
            free(log);
            return TB_E_IO;
        }
    }
    rc = log_start(log, h);
    if (rc != 0) {
        proto_log_close(log);
        return rc;
    }
    *out = log;
    return 0;
}

int proto_log_create(Proto_Log **out, const char *path,
                     const Proto_Log_Header *h)
{
    if (path == NULL) {
        *out = NULL;
        return TB_E_IO;
    }
    return log_open(out, path, h);
}

int proto_log_create_memory(Proto_Log **out, const Proto_Log_Header *h)
{
    return log_open(out, NULL, h);
}

const uint8_t *proto_log_bytes(const Proto_Log *log, size_t *len)
{
    if (log == NULL || log->fd >= 0) {
        *len = 0;
        return NULL;
    }
    *len = log->len;
    return log->mem;
}

int proto_log_append(Proto_Log *log, const uint8_t *frame, size_t len)
{
    const uint8_t *env;
    size_t elen, used;
    if (log == NULL || frame == NULL ||
        proto_frame_next(frame, len, &env, &elen, &used) != 0 || used != len)
        return TB_E_ARG;
    return log_write(log, frame, len);
}

int proto_log_append_envelope(Proto_Log *log, const uint8_t *env, size_t len)
{
    uint8_t *frame;
    int rc;
    if (log == NULL || env == NULL || len == 0 || len > PROTO_FRAME_MAX)
        return TB_E_ARG;
    /* One buffer, so a file gets the frame in a single write(2). */
    if ((frame = malloc(PROTO_FRAME_PREFIX + len)) == NULL)
        return TB_E_NOMEM;
    proto__put_be32(frame, (uint32_t)len);
    memcpy(frame + PROTO_FRAME_PREFIX, env, len);
    rc = log_write(log, frame, PROTO_FRAME_PREFIX + len);
    free(frame);
    return rc;
}

int proto_log_append_record(Proto_Log *log, const uint8_t *rec, size_t len)
{
    return proto_log_append_envelope(log, rec, len);
}

#define LOG_RECEIPT_TAG "r"
#define LOG_PRESENCE_TAG "p"

#define LOG_SKEW_TAG "x"

int proto_log_is_record(const uint8_t *doc, size_t len)
{
    /* fixarray 4 (evidence), 6 (a version 2 receipt), 7 (a presence
     * record) or 8 (a version 3 receipt) */
    return doc != NULL && len > 0 &&
           (doc[0] == 0x94 || (doc[0] >= 0x96 && doc[0] <= 0x98));
}

size_t proto_log_skew_record(uint32_t index, uint32_t ahead_ms,
                             uint32_t behind_ms, uint8_t *out, size_t cap)
{
    Wire_Writer w;
    if (out == NULL || (ahead_ms == 0) == (behind_ms == 0))
        return 0;
    proto__w_init(&w, out, cap);
    proto__w_array(&w, 4);
    proto__w_str(&w, LOG_SKEW_TAG, 1);
    proto__w_uint(&w, index);
    proto__w_uint(&w, ahead_ms);
    proto__w_uint(&w, behind_ms);
    return w.err != 0 ? 0 : w.len;
}

/* An evidence record into its fields; 0, or TB_E_FORMAT. */
static int read_skew(const uint8_t *doc, size_t len, uint32_t *index,
                     uint32_t *ahead, uint32_t *behind)
{
    Wire_Doc *d = NULL;
    Wire_Reader r;
    size_t n = 0;
    int rc = proto__wire_parse(doc, len, &d, &r);
    if (rc != 0)
        return rc;
    const char *s = proto__r_str(&r, 1, &n, "record tag");
    if (r.err == 0 && (n != 1 || s[0] != LOG_SKEW_TAG[0] || r.n != 4))
        r.err = TB_E_FORMAT;
    *index = (uint32_t)proto__r_uint(&r, UINT32_MAX, "index");
    *ahead = (uint32_t)proto__r_uint(&r, UINT32_MAX, "ahead");
    *behind = (uint32_t)proto__r_uint(&r, UINT32_MAX, "behind");
    rc = proto__r_end(&r);
    proto__wire_free(d);
    if (rc == 0 && (*ahead == 0) == (*behind == 0))
        rc = TB_E_FORMAT;
    return rc;
}

size_t proto_log_receipt_record(uint32_t index, const Proto_Receipt *r,
                                uint8_t *out, size_t cap)
{
    Wire_Writer w;
    if (r == NULL || out == NULL || r->kind > PROTO_RECEIPT_PRESENCE)
        return 0;
    proto__w_init(&w, out, cap);
    if (r->kind == PROTO_RECEIPT_FRAME) {
        proto__w_array(&w, r->v1 ? 6 : 8);
        proto__w_str(&w, LOG_RECEIPT_TAG, 1);
        proto__w_uint(&w, index);
        if (!r->v1) {
            proto__w_uint(&w, r->absent_ms[0]);
            proto__w_uint(&w, r->absent_ms[1]);
        }
    } else {
        proto__w_array(&w, 7);
        proto__w_str(&w, LOG_PRESENCE_TAG, 1);
        proto__w_uint(&w, r->seat);
        proto__w_uint(&w, r->present);
    }
    proto__w_uint(&w, r->seq);
    proto__w_uint(&w, r->time_ms);
    proto__w_bin(&w, r->relay, PROTO_KEY_BYTES);
    proto__w_bin(&w, r->sig, PROTO_SIG_BYTES);
    return w.err != 0 ? 0 : w.len;
}

/* A receipt or presence record of a log of version `version` into *r
 * (and *index for a receipt): version 2 holds receipts without
 * absences (v1) and presence records, version 3 receipts with them
 * (v2: signed without the guest), version 4 receipts signed for the
 * guest too (the caller fills r->guest). */
static int read_receipt(const uint8_t *doc, size_t len, int version,
                        uint32_t *index, Proto_Receipt *out)
{
    Wire_Doc *d = NULL;
    Wire_Reader r;
    size_t n = 0;
    const char *s;
    const uint8_t *p;
    int rc = proto__wire_parse(doc, len, &d, &r);

    if (rc != 0)
        return rc;
    memset(out, 0, sizeof *out);
    s = proto__r_str(&r, 1, &n, "record tag");
    if (r.err == 0 && n == 1 && s[0] == LOG_RECEIPT_TAG[0] &&
        r.n == (version == 2 ? 6u : 8u)) {
        out->kind = PROTO_RECEIPT_FRAME;
        out->v1 = version == 2;
        out->v2 = version == 3;
        *index = (uint32_t)proto__r_uint(&r, UINT32_MAX, "index");
        for (int k = 0; k < 2 && version > 2; k++)
            out->absent_ms[k] =
                (uint32_t)proto__r_uint(&r, UINT32_MAX, "absence");
    } else if (r.err == 0 && n == 1 && s[0] == LOG_PRESENCE_TAG[0] &&
               r.n == 7 && version == 2) {
        out->kind = PROTO_RECEIPT_PRESENCE;
        out->seat = (uint8_t)proto__r_uint(&r, 1, "seat");
        out->present = (uint8_t)proto__r_uint(&r, 1, "present");
    } else if (r.err == 0) {
        r.err = TB_E_FORMAT;
    }
    out->seq = proto__r_uint(&r, UINT64_MAX, "lobby seq");
    out->time_ms = proto__r_uint(&r, UINT64_MAX, "time");
    p = proto__r_bin(&r, PROTO_KEY_BYTES, PROTO_KEY_BYTES, &n, "relay");
    if (r.err == 0)
        memcpy(out->relay, p, n);
    p = proto__r_bin(&r, PROTO_SIG_BYTES, PROTO_SIG_BYTES, &n, "signature");
    if (r.err == 0)
        memcpy(out->sig, p, n);
    rc = proto__r_end(&r);
    proto__wire_free(d);
    return rc;
}

int proto_log_finish(Proto_Log *log, uint32_t count,
                     const uint8_t chain[PROTO_HASH_BYTES])
{
    uint8_t buf[PROTO_FRAME_PREFIX + 64];
    Wire_Writer w;
    int rc;

    if (log == NULL)
        return TB_E_ARG;
    proto__w_init(&w, buf + PROTO_FRAME_PREFIX,
                  sizeof buf - PROTO_FRAME_PREFIX);
    proto__w_array(&w, 3);
    proto__w_str(&w, LOG_END_TAG, strlen(LOG_END_TAG));
    proto__w_uint(&w, count);
    proto__w_bin(&w, chain, PROTO_HASH_BYTES);
    frame_close(buf, &w);
    rc = log_write(log, buf, PROTO_FRAME_PREFIX + w.len);
    if (rc == 0 && log->fd >= 0 && fsync(log->fd) != 0)
        rc = TB_E_IO;
    return rc;
}

int proto_log_close(Proto_Log *log)
{
    int rc = 0;
    if (log == NULL)
        return 0;
    if (log->fd >= 0 && close(log->fd) != 0)
        rc = TB_E_IO;
    free(log->mem);
    free(log);
    return rc;
}

int proto_is_log(const uint8_t *buf, size_t len)
{
    return len >= PROTO_LOG_MAGIC_LEN &&
           memcmp(buf, PROTO_LOG_MAGIC, PROTO_LOG_MAGIC_LEN) == 0;
}

int proto_read_file(const char *path, uint8_t **buf, size_t *len)
{
    struct stat st;
    uint8_t *data = NULL;
    size_t got = 0;
    int fd, rc = TB_E_IO;

    *buf = NULL;
    *len = 0;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return TB_E_IO;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        goto done;
    if ((uint64_t)st.st_size > PROTO_FILE_MAX) {
        rc = TB_E_LIMIT;
        goto done;
    }
    data = malloc((size_t)st.st_size + 1);
    if (data == NULL) {
        rc = TB_E_NOMEM;
        goto done;
    }
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, data + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break; /* the file shrank: keep what was read */
        got += (size_t)r;
    }
    data[got] = 0;
    *buf = data;
    *len = got;
    data = NULL;
    rc = 0;
done:
    free(data);
    close(fd);
    return rc;
}

/* ---- verification ---------------------------------------------------- */

static int read_header(const uint8_t *doc, size_t len, Proto_Log_Header *h,
                       const char **what)
{
    Wire_Doc *d = NULL;
    Wire_Reader r;
    size_t n = 0, got = 0;
    const char *s;
    const uint8_t *p;
    int rc = proto__wire_parse(doc, len, &d, &r);

    *what = "header";
    if (rc != 0)
        return rc;
    s = proto__r_str(&r, 16, &n, "header tag");
    if (r.err == 0 &&
        (n != strlen(LOG_HEADER_TAG) || memcmp(s, LOG_HEADER_TAG, n) != 0)) {
        r.err = TB_E_FORMAT;
        r.what = "header tag";
    }
    h->version = (int)proto__r_uint(&r, 255, "log version");
    if ((h->version < LOG_FORMAT_VERSION || h->version > PROTO_LOG_VERSION) &&
        r.err == 0) {
        r.err = TB_E_VERSION;
        r.what = "log version";
    }
    s = proto__r_str(&r, PROTO_NAME_MAX, &n, "game");
    if (r.err == 0 && (n == 0 || !proto__text_ok(s, n, PROTO_CHARS_NAME))) {
        r.err = TB_E_FORMAT;
        r.what = "game";
    }
    if (r.err == 0)
        memcpy(h->game, s, n);
    s = proto__r_str(&r, PROTO_OPTIONS_MAX, &n, "options");
    if (r.err == 0 && !proto__text_ok(s, n, PROTO_CHARS_ASCII)) {
        r.err = TB_E_FORMAT;
        r.what = "options";
    }
    if (r.err == 0)
        memcpy(h->options, s, n);
    p = proto__r_bin(&r, PROTO_MATCH_ID_BYTES, PROTO_MATCH_ID_BYTES, &got,
                     "match id");
    if (r.err == 0)
        memcpy(h->match_id, p, got);
    p = proto__r_bin(&r, PROTO_KEY_BYTES, PROTO_KEY_BYTES, &got, "white");
    if (r.err == 0)
        memcpy(h->white, p, got);
    p = proto__r_bin(&r, PROTO_KEY_BYTES, PROTO_KEY_BYTES, &got, "black");
    if (r.err == 0)
        memcpy(h->black, p, got);
    h->started = proto__r_uint(&r, UINT64_MAX, "started");
    if (h->version >= 2) {
        p = proto__r_bin(&r, PROTO_KEY_BYTES, PROTO_KEY_BYTES, &got, "room");
        if (r.err == 0)
            memcpy(h->room, p, got);
    }
    rc = proto__r_end(&r);
    if (r.what != NULL)
        *what = r.what;
    proto__wire_free(d);
    return rc;
}

/* An end record: ["end", count, chain]. */
static int read_end(const uint8_t *doc, size_t len, uint32_t *count,
                    uint8_t chain[PROTO_HASH_BYTES])
{
    Wire_Doc *d = NULL;
    Wire_Reader r;
    size_t n = 0;
    const char *s;
    const uint8_t *p;
    int rc = proto__wire_parse(doc, len, &d, &r);

    if (rc != 0)
        return rc;
    s = proto__r_str(&r, 8, &n, "end tag");
    if (r.err == 0 &&
        (n != strlen(LOG_END_TAG) || memcmp(s, LOG_END_TAG, n) != 0))
        r.err = TB_E_FORMAT;
    *count = (uint32_t)proto__r_uint(&r, UINT32_MAX, "count");
    p = proto__r_bin(&r, PROTO_HASH_BYTES, PROTO_HASH_BYTES, &n, "chain");
    if (r.err == 0)
        memcpy(chain, p, PROTO_HASH_BYTES);
    rc = proto__r_end(&r);
    proto__wire_free(d);
    return rc;
}

static int same_header(const Proto_Log_Header *a, const Proto_Log_Header *b)
{
    return strcmp(a->game, b->game) == 0 &&
           strcmp(a->options, b->options) == 0 &&
           memcmp(a->match_id, b->match_id, PROTO_MATCH_ID_BYTES) == 0 &&
           memcmp(a->white, b->white, PROTO_KEY_BYTES) == 0 &&
           memcmp(a->black, b->black, PROTO_KEY_BYTES) == 0 &&
           a->started == b->started;
}

static int report(Proto_Log_Report *rep, int err, uint32_t frame, size_t offset,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int report(Proto_Log_Report *rep, int err, uint32_t frame, size_t offset,
                  const char *fmt, ...)
{
    va_list ap;
    rep->err = err;
    rep->frame = frame;
    rep->offset = offset;
    va_start(ap, fmt);
    vsnprintf(rep->why, sizeof rep->why, fmt, ap);
    va_end(ap);
    return err;
}

int proto_log_verify(const uint8_t *buf, size_t len, Proto_Game_Lookup lookup,
                     Proto_Log_Visit visit, void *ctx, Proto_Transcript **out,
                     Proto_Log_Report *rep)
{
    return proto_log_verify_witnessed(buf, len, lookup, visit, NULL, ctx, out,
                                      rep);
}

/* Where each envelope of a log being verified is (its bytes, for the
 * receipt that names it). (Lobby numbers need not rise: a relay that
 * restarted numbers a re-made room anew; the chain orders the
 * envelopes, and each receipt binds its number to its frame.) */
typedef struct Log_Envs {
    const uint8_t **at;
    size_t *len;
    size_t n, cap;
} Log_Envs;

static int envs_keep(Log_Envs *v, const uint8_t *env, size_t len)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 64;
        const uint8_t **at = realloc(v->at, cap * sizeof *at);
        if (at == NULL)
            return TB_E_NOMEM;
        v->at = at;
        size_t *l = realloc(v->len, cap * sizeof *l);
        if (l == NULL)
            return TB_E_NOMEM;
        v->len = l;
        v->cap = cap;
    }
    v->at[v->n] = env;
    v->len[v->n++] = len;
    return 0;
}

/* One receipt or presence record of a version 2 log, checked and given
 * to t; the reason in rep on failure. */
static int take_receipt(Proto_Transcript *t, Log_Envs *v,
                        const uint8_t *doc, size_t len,
                        Proto_Log_Receipt_Visit rvisit, void *ctx,
                        Proto_Log_Report *rep, size_t off)
{
    Proto_Receipt r;
    uint32_t index = 0;
    uint8_t hash[PROTO_HASH_BYTES];
    uint32_t next = proto_transcript_witness_count(t);
    /* a failure here is at the ply the envelopes read so far reached
     * (the ply of the move the receipt is for, not the next one due) */
    const Core_Position *pos = proto_transcript_position(t);
    rep->ply = pos != NULL ? core_ply(pos) : 0;
    int rc = read_receipt(doc, len, rep->header.version, &index, &r);
    if (rc != 0)
        return report(rep, rc, next + 1, off, "malformed receipt record");
    if (r.kind == PROTO_RECEIPT_FRAME) {
        if (index != next || index >= v->n)
            return report(rep, TB_E_STATE, index + 1, off,
                          "receipt for envelope %u where envelope %u's was "
                          "due", index + 1, next + 1);
        rc = proto_receipt_hash(v->at[index], v->len[index], hash);
        /* (version 4: signed for the guest the relay seated, which must
         * be the match's black; a room where another key sat as the
         * guest is another room) */
        memcpy(r.guest, rep->header.black, PROTO_KEY_BYTES);
        if (rc == 0)
            rc = proto_receipt_verify(&r, rep->header.room, hash);
        if (rc != 0)
            return report(rep, TB_E_SIGNATURE, index + 1, off,
                          "the relay's receipt for envelope %u does not "
                          "verify (its number, time or signature was "
                          "changed, or it is another room's, or one where "
                          "another key sat as the guest)",
                          index + 1);
        rc = proto_transcript_witness(t, index, r.time_ms,
                                      r.v1 ? NULL : r.absent_ms);
        if (rc != 0)
            return report(rep, rc, index + 1, off, "%s",
                          proto_transcript_why(t));
        rep->receipts++;
    } else {
        /* (version 2 only: checked and counted; they decide nothing) */
        if (proto_receipt_verify(&r, rep->header.room, NULL) != 0)
            return report(rep, TB_E_SIGNATURE, next + 1, off,
                          "the relay's presence record does not verify");
        rep->presences++;
    }
    uint32_t k = 0;
    while (k < rep->relays && k < 8 &&
           memcmp(rep->relay[k], r.relay, PROTO_KEY_BYTES) != 0)
        k++;
    if (k == rep->relays) {
        if (k < 8)
            memcpy(rep->relay[k], r.relay, PROTO_KEY_BYTES);
        rep->relays++;
    }
    if (rvisit != NULL) /* (a presence record: after `next` receipts) */
        rvisit(ctx, r.kind == PROTO_RECEIPT_FRAME ? index : next, &r);
    return 0;
}

int proto_log_verify_witnessed(const uint8_t *buf, size_t len,
                               Proto_Game_Lookup lookup, Proto_Log_Visit visit,
                               Proto_Log_Receipt_Visit rvisit, void *ctx,
                               Proto_Transcript **out, Proto_Log_Report *rep)
{
    Log_Envs envs = {0};
    Proto_Transcript *t = NULL;
    Proto_Envelope e;
    const uint8_t *env;
    size_t elen, used, off;
    const char *what = "";
    uint32_t frame;
    int rc;

    memset(rep, 0, sizeof *rep);
    if (out != NULL)
        *out = NULL;
    if (!proto_is_log(buf, len)) {
        if (len < PROTO_LOG_MAGIC_LEN &&
            memcmp(buf, PROTO_LOG_MAGIC, len) == 0) {
            rep->torn = 1;
            return report(rep, TB_E_TRUNCATED, 0, 0,
                          "torn log: the file ends inside its magic");
        }
        return report(rep, TB_E_FORMAT, 0, 0,
                      "damaged log: the first bytes are not the magic "
                      "\"tabula-log 1\"");
    }
    off = PROTO_LOG_MAGIC_LEN;
    rc = proto_frame_next(buf + off, len - off, &env, &elen, &used);
    if (rc == TB_E_TRUNCATED) {
        rep->torn = 1;
        rep->torn_offset = off;
        return report(rep, rc, 0, off,
                      "torn log: the file ends inside its header");
    }
    if (rc == 0)
        rc = read_header(env, elen, &rep->header, &what);
    if (rc != 0)
        return report(rep, rc, 0, off, "bad log header (%s)", what);
    off += used;
    rc = proto_transcript_new(&t, lookup);
    if (rc != 0)
        return report(rep, rc, 0, off, "out of memory");
    if (rep->header.version >= 2)
        proto_transcript_witness_mode(t);
    if (rep->header.version >= 3)
        proto_transcript_witness_absence(t);
    for (frame = 1; off < len; frame++) {
        const Core_Position *pos = proto_transcript_position(t);
        rep->ply = pos != NULL ? core_ply(pos) + 1 : 0; /* the ply due */
        rc = proto_frame_next(buf + off, len - off, &env, &elen, &used);
        if (rc == TB_E_TRUNCATED) {
            rep->torn = 1;
            rep->torn_offset = off;
            report(rep, rc, frame, off,
                   "torn tail: %zu bytes after the last whole envelope "
                   "(offset %zu); read up to envelope %u",
                   len - off, off, rep->envelopes);
            break;
        }
        if (rc != 0) {
            report(rep, rc, frame, off, "frame length over the limit");
            break;
        }
        if (rep->ended) {
            report(rep, TB_E_FORMAT, frame, off, "data after the end record");
            break;
        }
        if (elen > 0 && env[0] == 0x93) { /* fixarray 3: the end record */
            uint32_t count = 0;
            uint8_t chain[PROTO_HASH_BYTES], ours[PROTO_HASH_BYTES];
            rc = read_end(env, elen, &count, chain);
            proto_transcript_chain(t, ours);
            if (rc == 0 && (count != proto_transcript_count(t) ||
                            memcmp(chain, ours, PROTO_HASH_BYTES) != 0))
                rc = TB_E_CHAIN;
            if (rc != 0) {
                report(rep, rc, frame, off,
                       "end record does not match "
                       "the envelopes");
                break;
            }
            /* The end record is not signed: anyone can cut a log at an
             * envelope and append one that matches what is left. It only
             * closes a match the envelopes themselves ended (the board,
             * or a signed resign, agreement, abort, flag, claim or
             * desync report). */
            if (rep->header.version >= 2 &&
                proto_transcript_witness_count(t) !=
                    proto_transcript_count(t)) {
                /* a witnessed match ends on its receipts: the last
                 * envelope's may show a flag fallen first (a trial
                 * dropped a late move's receipt to keep its mate) */
                report(rep, TB_E_STATE, frame, off,
                       "end record before the relay's receipt of "
                       "envelope %u",
                       proto_transcript_witness_count(t) + 1);
                break;
            }
            if (proto_transcript_position(t) == NULL ||
                proto_transcript_status(t).outcome == CORE_ONGOING) {
                report(rep, TB_E_STATE, frame, off,
                       "end record on a match that is not over "
                       "(after envelope %u, ply %u): the log was cut and "
                       "closed by someone else",
                       rep->envelopes,
                       proto_transcript_position(t) != NULL
                           ? core_ply(proto_transcript_position(t))
                           : 0);
                break;
            }
            rep->ended = 1;
            off += used;
            continue;
        }
        if (elen > 0 && env[0] == 0x94) { /* fixarray 4: evidence */
            uint32_t index, ahead, behind;
            uint32_t w = proto_transcript_witness_count(t);
            if (rep->header.version < 3 ||
                read_skew(env, elen, &index, &ahead, &behind) != 0) {
                report(rep, TB_E_FORMAT, frame, off,
                       "malformed evidence record");
                break;
            }
            if (index >= w) {
                report(rep, TB_E_STATE, frame, off,
                       "evidence about the receipt of envelope %u before "
                       "it",
                       index + 1);
                break;
            }
            rep->skews++;
            if (ahead > rep->skew_ahead_ms)
                rep->skew_ahead_ms = ahead;
            if (behind > rep->skew_behind_ms)
                rep->skew_behind_ms = behind;
            off += used;
            frame--; /* frames count envelopes */
            continue;
        }
        if (proto_log_is_record(env, elen)) {
            if (rep->header.version < 2) {
                report(rep, TB_E_FORMAT, frame, off,
                       "a receipt record in a version 1 log");
                break;
            }
            if (take_receipt(t, &envs, env, elen, rvisit, ctx, rep, off) != 0)
                break;
            off += used;
            frame--; /* frames count envelopes */
            continue;
        }
        int was_on = proto_transcript_status(t).outcome == CORE_ONGOING;
        rc = proto_transcript_add(t, env, elen, &e);
        if (rc == TB_E_DESYNC) {
            /* Appended: the chain's own result (G-PR-3) follows. (A
             * false hash after the end changes nothing: not named.) */
            if (rep->desync_ply == 0 && was_on) {
                rep->desync_ply = e.msg.kind == PROTO_KIND_MOVE
                                      ? e.msg.body.move.ply
                                      : e.msg.body.check.ply;
                snprintf(rep->desync_why, sizeof rep->desync_why, "%s",
                         proto_transcript_why(t));
            }
            rc = 0;
        }
        if (rc != 0) {
            if (e.msg.kind == PROTO_KIND_MOVE)
                rep->ply = e.msg.body.move.ply;
            report(rep, rc, frame, off, "%s", proto_transcript_why(t));
            break;
        }
        if (frame == 1) {
            Proto_Log_Header h;
            proto_log_header_of(proto_transcript_start(t), &h);
            if (!same_header(&h, &rep->header)) {
                report(rep, TB_E_FORMAT, 0, PROTO_LOG_MAGIC_LEN,
                       "log header does not match the signed match start");
                break;
            }
            if (rep->header.version >= 4 &&
                memcmp(rep->header.room, rep->header.white,
                       PROTO_KEY_BYTES) != 0) {
                report(rep, TB_E_FORMAT, 0, PROTO_LOG_MAGIC_LEN,
                       "log header names a room whose host is not white");
                break;
            }
        }
        rep->envelopes++;
        if (envs_keep(&envs, env, elen) != 0) {
            report(rep, TB_E_NOMEM, frame, off, "out of memory");
            break;
        }
        if (visit != NULL)
            visit(ctx, t, &e);
        off += used;
    }
    if (rep->header.version >= 2) {
        rep->unwitnessed =
            proto_transcript_count(t) - proto_transcript_witness_count(t);
        rep->flags_void = proto_transcript_flags_void(t);
    }
    free(envs.at);
    free(envs.len);
    if (out != NULL)
        *out = t;
    else
        proto_transcript_free(t);
    return rep->err;
}

Core_Status proto_log_status(const Proto_Transcript *t,
                             const Proto_Log_Report *rep)
{
    Core_Status st = {CORE_ONGOING, CORE_REASON_NONE};
    if (t == NULL || rep == NULL ||
        (proto_transcript_witnessed(t) && rep->unwitnessed > 0))
        return st;
    return proto_transcript_status(t);
}
