/*
 * test_log.c: match log files. A log written through proto_log_* verifies
 * whole; a flipped bit anywhere in it is detected and located in the
 * frame that holds it (frame bounds are read here straight from the
 * length prefixes); a file cut at any byte reads up to the last whole
 * envelope and says it is torn; header and end record must agree with the
 * envelopes; the file is created 0600 and never overwritten.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "match_util.h"
#include "toy_game.h"

static Proto_Identity W, B;
static char path[64];

static void setup(void)
{
    W = ident(1);
    B = ident(2);
    snprintf(path, sizeof path, "/tmp/tabula-log-test-%ld.log", (long)getpid());
    unlink(path);
}

static void teardown(void)
{
    unlink(path);
}

TestSuite(log, .init = setup, .fini = teardown);

/* Write a log of a toy match of at most plies moves; finish it if asked.
 * With mem, the log is kept in memory and its bytes copied to *mem. */
static void write_log_to(unsigned seed, unsigned plies, int finish,
                         uint8_t **mem, size_t *mem_len)
{
    Proto_Transcript *t = NULL;
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    Frames f = {0};
    uint8_t chain[PROTO_HASH_BYTES];

    cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
    play_match(t, &f, &W, &B, "race", "target=30", seed, plies);
    if (finish)
        resign_if_running(t, &f, &W, &B);
    proto_log_header_of(proto_transcript_start(t), &h);
    if (mem != NULL)
        cr_assert_eq(proto_log_create_memory(&log, &h), 0);
    else
        cr_assert_eq(proto_log_create(&log, path, &h), 0);
    /* The memory log is fed bare envelopes (as the page's session hands
     * them over), the file whole frames. */
    for (size_t i = 0; i < f.n; i++)
        cr_assert_eq(mem != NULL
                         ? proto_log_append_envelope(
                               log, f.buf[i] + PROTO_FRAME_PREFIX,
                               f.len[i] - PROTO_FRAME_PREFIX)
                         : proto_log_append(log, f.buf[i], f.len[i]),
                     0);
    if (finish) {
        proto_transcript_chain(t, chain);
        cr_assert_eq(proto_log_finish(log, proto_transcript_count(t), chain),
                     0);
    }
    if (mem != NULL) {
        const uint8_t *b = proto_log_bytes(log, mem_len);
        cr_assert_not_null(b);
        *mem = malloc(*mem_len);
        memcpy(*mem, b, *mem_len);
    }
    cr_assert_eq(proto_log_close(log), 0);
    proto_transcript_free(t);
    frames_free(&f);
}

static void write_log(unsigned seed, unsigned plies, int finish)
{
    write_log_to(seed, plies, finish, NULL, NULL);
}

static uint8_t *slurp(size_t *len)
{
    uint8_t *buf = NULL;
    cr_assert_eq(proto_read_file(path, &buf, len), 0);
    return buf;
}

/* Frame starts as the length prefixes say; starts[0] = 0 (magic and
 * header form frame 0); starts[n] = len. Returns n. */
static size_t frame_bounds(const uint8_t *buf, size_t len, size_t *starts)
{
    size_t off = PROTO_LOG_MAGIC_LEN, n = 0;
    starts[n++] = 0;
    off += 4 + ((size_t)buf[off] << 24 | (size_t)buf[off + 1] << 16 |
                (size_t)buf[off + 2] << 8 | buf[off + 3]);
    while (off < len) {
        starts[n++] = off;
        off += 4 + ((size_t)buf[off] << 24 | (size_t)buf[off + 1] << 16 |
                    (size_t)buf[off + 2] << 8 | buf[off + 3]);
    }
    cr_assert_eq(off, len);
    starts[n] = len;
    return n;
}

Test(log, written_log_verifies)
{
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    size_t len;
    struct stat st;

    write_log(1, 200, 1);
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600);
    uint8_t *buf = slurp(&len);
    cr_assert(proto_is_log(buf, len));
    cr_assert_eq(proto_log_verify(buf, len, toy_lookup, NULL, NULL, &t, &rep),
                 0, "%s", rep.why);
    cr_assert(rep.ended);
    cr_assert_not(rep.torn);
    cr_assert_eq(rep.envelopes, proto_transcript_count(t));
    cr_assert_neq(proto_transcript_status(t).outcome, CORE_ONGOING);
    cr_assert_str_eq(rep.header.game, "race");
    cr_assert_str_eq(rep.header.options, "target=30");
    cr_assert_arr_eq(rep.header.white, W.pk, PROTO_KEY_BYTES);
    proto_transcript_free(t);
    free(buf);
    /* An existing file is never overwritten. */
    Proto_Log *log = NULL;
    Proto_Log_Header h = rep.header;
    cr_assert_eq(proto_log_create(&log, path, &h), TB_E_IO);
}

/* The page's download: a log built in memory from bare envelopes is the
 * file's bytes, byte for byte (the file written from whole frames and
 * read back is the independent reference). */
Test(log, memory_log_has_the_file_bytes)
{
    uint8_t *mem = NULL, *file;
    size_t mem_len = 0, file_len;
    Proto_Log_Report rep;

    write_log(3, 120, 1);
    write_log_to(3, 120, 1, &mem, &mem_len);
    file = slurp(&file_len);
    cr_assert_eq(mem_len, file_len);
    cr_assert_arr_eq(mem, file, file_len);
    cr_assert_eq(proto_log_verify(mem, mem_len, toy_lookup, NULL, NULL, NULL,
                                  &rep),
                 0, "%s", rep.why);
    cr_assert(rep.ended);
    free(mem);
    free(file);
    /* A file's log has no bytes in memory. */
    size_t n = 7;
    Proto_Log *log = NULL;
    Proto_Log_Header h = rep.header;
    unlink(path);
    cr_assert_eq(proto_log_create(&log, path, &h), 0);
    cr_assert_null(proto_log_bytes(log, &n));
    cr_assert_eq(n, 0);
    cr_assert_eq(proto_log_close(log), 0);
}

Test(log, every_flipped_byte_is_detected_and_located)
{
    size_t len, starts[FRAMES_MAX + 4];
    Proto_Log_Report rep;

    write_log(2, 14, 1);
    uint8_t *buf = slurp(&len);
    size_t nframes = frame_bounds(buf, len, starts);
    cr_assert_geq(nframes, 10);
    for (size_t i = 0; i < len; i++) {
        uint8_t bit = (uint8_t)(1u << (i % 8));
        buf[i] ^= bit;
        int rc = proto_log_verify(buf, len, toy_lookup, NULL, NULL, NULL, &rep);
        buf[i] ^= bit;
        cr_assert_neq(rc, 0, "flip at byte %zu undetected", i);
        cr_assert_lt(rep.frame, nframes);
        cr_assert(starts[rep.frame] <= i && i < starts[rep.frame + 1],
                  "flip at byte %zu reported in frame %u [%zu, %zu): %s", i,
                  rep.frame, starts[rep.frame], starts[rep.frame + 1], rep.why);
        if (rep.frame > 0)
            cr_assert_eq(rep.offset, starts[rep.frame]);
    }
    free(buf);
}

Test(log, torn_tail_reads_up_to_the_last_whole_envelope)
{
    size_t len, starts[FRAMES_MAX + 4];
    Proto_Log_Report rep;

    write_log(3, 10, 0); /* a crash: no end record */
    uint8_t *buf = slurp(&len);
    size_t nframes = frame_bounds(buf, len, starts);
    cr_assert_eq(proto_log_verify(buf, len, toy_lookup, NULL, NULL, NULL, &rep),
                 0);
    cr_assert_not(rep.ended);
    cr_assert_eq(rep.envelopes, nframes - 1);
    for (size_t cut = 0; cut < len; cut++) {
        int rc = proto_log_verify(buf, cut, toy_lookup, NULL, NULL, NULL, &rep);
        size_t whole = 0; /* envelopes entirely before the cut */
        int boundary = 0;
        for (size_t k = 1; k < nframes; k++) {
            if (starts[k + 1] <= cut)
                whole++;
            if (starts[k] == cut)
                boundary = 1;
        }
        if (boundary) {
            cr_assert_eq(rc, 0, "cut %zu: %s", cut, rep.why);
            cr_assert_eq(rep.envelopes, whole);
        } else {
            cr_assert_eq(rc, TB_E_TRUNCATED, "cut %zu", cut);
            cr_assert(rep.torn);
            cr_assert_eq(rep.envelopes, cut < starts[1] ? 0 : whole);
            if (cut >= starts[1])
                cr_assert(strstr(rep.why, "torn tail") != NULL, "%s", rep.why);
        }
    }
    free(buf);
}

Test(log, end_record_and_header_must_agree)
{
    size_t len;
    Proto_Log_Report rep;
    uint8_t chain[PROTO_HASH_BYTES] = {0};

    /* An end record with a wrong count. */
    write_log(4, 6, 0);
    Proto_Log *log = NULL;
    {
        /* Copy the envelopes into a new log ending with a wrong count. */
        uint8_t *buf = slurp(&len);
        Proto_Transcript *t = NULL;
        cr_assert_eq(
            proto_log_verify(buf, len, toy_lookup, NULL, NULL, &t, &rep), 0);
        proto_transcript_chain(t, chain);
        uint32_t count = proto_transcript_count(t);
        proto_transcript_free(t);
        unlink(path);
        Proto_Log_Header h = rep.header;
        cr_assert_eq(proto_log_create(&log, path, &h), 0);
        size_t off = PROTO_LOG_MAGIC_LEN;
        off += 4 + ((size_t)buf[off + 2] << 8 | buf[off + 3]);
        while (off < len) {
            size_t n = 4 + ((size_t)buf[off + 2] << 8 | buf[off + 3]);
            cr_assert_eq(proto_log_append(log, buf + off, n), 0);
            off += n;
        }
        cr_assert_eq(proto_log_finish(log, count + 1, chain), 0);
        proto_log_close(log);
        free(buf);
    }
    uint8_t *buf = slurp(&len);
    cr_assert_eq(proto_log_verify(buf, len, toy_lookup, NULL, NULL, NULL, &rep),
                 TB_E_CHAIN);
    cr_assert(strstr(rep.why, "end record") != NULL);
    free(buf);

    /* A header naming other options than the signed match start. */
    unlink(path);
    write_log(5, 6, 1);
    buf = slurp(&len);
    cr_assert_eq(proto_log_verify(buf, len, toy_lookup, NULL, NULL, NULL, &rep),
                 0);
    Proto_Log_Header h = rep.header;
    free(buf);
    unlink(path);
    snprintf(h.options, sizeof h.options, "target=31");
    cr_assert_eq(proto_log_create(&log, path, &h), 0);
    proto_log_close(log);
    /* copy the envelopes of a fresh match with target=30 */
    {
        Proto_Transcript *t = NULL;
        Frames f = {0};
        cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
        play_match(t, &f, &W, &B, "race", "target=30", 5, 6);
        FILE *fp = fopen(path, "ab");
        for (size_t i = 0; i < f.n; i++)
            fwrite(f.buf[i], 1, f.len[i], fp);
        fclose(fp);
        proto_transcript_free(t);
        frames_free(&f);
    }
    buf = slurp(&len);
    cr_assert_eq(proto_log_verify(buf, len, toy_lookup, NULL, NULL, NULL, &rep),
                 TB_E_FORMAT);
    cr_assert_eq(rep.frame, 0);
    cr_assert(strstr(rep.why, "header") != NULL);
    free(buf);
}

Test(log, hostile_files_give_clean_errors)
{
    Proto_Log_Report rep;
    const uint8_t junk[] = "tabula-log 1\n\xff\xff\xff\xff";
    cr_assert_eq(
        proto_log_verify(junk, sizeof junk - 1, NULL, NULL, NULL, NULL, &rep),
        TB_E_LIMIT);
    cr_assert_eq(proto_log_verify((const uint8_t *)"hello", 5, NULL, NULL, NULL,
                                  NULL, &rep),
                 TB_E_FORMAT);
    cr_assert_eq(proto_log_verify((const uint8_t *)"tabula", 6, NULL, NULL,
                                  NULL, NULL, &rep),
                 TB_E_TRUNCATED);
    cr_assert(rep.torn);
    uint8_t *buf = NULL;
    size_t len;
    cr_assert_eq(proto_read_file("/nonexistent/x", &buf, &len), TB_E_IO);
    cr_assert_eq(proto_read_file("/tmp", &buf, &len), TB_E_IO);
    /* a file over PROTO_FILE_MAX is refused before reading (sparse) */
    FILE *big = fopen(path, "w");
    cr_assert_not_null(big);
    cr_assert_eq(ftruncate(fileno(big), (off_t)PROTO_FILE_MAX + 1), 0);
    fclose(big);
    cr_assert_eq(proto_read_file(path, &buf, &len), TB_E_LIMIT);
    unlink(path);
    /* appending something that is not one whole frame */
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    memset(&h, 0, sizeof h);
    snprintf(h.game, sizeof h.game, "Bad Name");
    cr_assert_eq(proto_log_create(&log, path, &h), TB_E_FORMAT);
    snprintf(h.game, sizeof h.game, "race");
    cr_assert_eq(proto_log_create(&log, path, &h), 0);
    const uint8_t part[] = {0, 0, 0, 9, 1};
    cr_assert_eq(proto_log_append(log, part, sizeof part), TB_E_ARG);
    proto_log_close(log);
}

/* An end record built by hand from the format in docs/protocol.md:
 * frame prefix, then msgpack ["end", count, bin 32 chain]. */
static size_t forged_end(uint8_t *out, uint32_t count,
                         const uint8_t chain[PROTO_HASH_BYTES])
{
    size_t n = 4;
    out[n++] = 0x93;
    out[n++] = 0xa3;
    memcpy(out + n, "end", 3);
    n += 3;
    if (count < 128) {
        out[n++] = (uint8_t)count;
    } else {
        cr_assert_lt(count, 256);
        out[n++] = 0xcc;
        out[n++] = (uint8_t)count;
    }
    out[n++] = 0xc4;
    out[n++] = PROTO_HASH_BYTES;
    memcpy(out + n, chain, PROTO_HASH_BYTES);
    n += PROTO_HASH_BYTES;
    out[0] = out[1] = 0;
    out[2] = (uint8_t)((n - 4) >> 8);
    out[3] = (uint8_t)(n - 4);
    return n;
}

/* Write a finished log (seed, plies as write_log), read it back, find
 * its frames (frame_bounds) and check that it verifies and is ended. */
static uint8_t *finished_log(unsigned seed, unsigned plies, size_t *len,
                             size_t *starts, size_t *nframes)
{
    Proto_Log_Report rep;
    write_log(seed, plies, 1);
    uint8_t *buf = slurp(len);
    *nframes = frame_bounds(buf, *len, starts);
    cr_assert_eq(
        proto_log_verify(buf, *len, toy_lookup, NULL, NULL, NULL, &rep), 0,
        "%s", rep.why);
    cr_assert(rep.ended);
    return buf;
}

Test(log, end_record_only_closes_a_match_that_is_over)
{
    size_t len, nframes, starts[FRAMES_MAX + 4];
    Proto_Log_Report rep;

    /* 12 plies of the race to 30 end nothing: the writer resigns. */
    uint8_t *buf = finished_log(6, 12, &len, starts, &nframes);
    /* Issue 16 case 5: cut at the start of envelope k and close with an
     * end record that matches what is left. Only the cut after the
     * resignation (the end record's own place) is a match that is over. */
    uint8_t *forged = malloc(len + 64);
    cr_assert_not_null(forged);
    for (size_t k = 2; k < nframes; k++) {
        Proto_Transcript *t = NULL;
        uint8_t chain[PROTO_HASH_BYTES];
        cr_assert_eq(proto_log_verify(buf, starts[k], toy_lookup, NULL, NULL,
                                      &t, &rep),
                     0, "cut %zu: %s", k, rep.why);
        proto_transcript_chain(t, chain);
        memcpy(forged, buf, starts[k]);
        size_t flen = starts[k] + forged_end(forged + starts[k],
                                             proto_transcript_count(t), chain);
        proto_transcript_free(t);
        int rc = proto_log_verify(forged, flen, toy_lookup, NULL, NULL, NULL,
                                  &rep);
        if (k == nframes - 1) {
            cr_assert_eq(rc, 0, "%s", rep.why);
            cr_assert(rep.ended);
            cr_assert_eq(flen, len, "the forged record is the real one");
        } else {
            cr_assert_eq(rc, TB_E_STATE, "cut before envelope %zu accepted",
                         k);
            cr_assert_not(rep.ended);
            cr_assert_eq(rep.frame, k);
            cr_assert_eq(rep.offset, starts[k]);
            cr_assert_eq(rep.envelopes, k - 1);
            cr_assert(strstr(rep.why, "not over") != NULL, "%s", rep.why);
        }
    }
    free(forged);
    free(buf);
}

Test(log, a_cut_at_a_frame_boundary_is_not_ended)
{
    size_t len, nframes, starts[FRAMES_MAX + 4];
    Proto_Log_Report rep;

    /* Whole: ended. Without its end record, or cut at any envelope: every
     * envelope verifies, nothing is torn, and nothing says it ended. */
    uint8_t *buf = finished_log(7, 200, &len, starts, &nframes);
    for (size_t k = 1; k < nframes; k++) {
        cr_assert_eq(proto_log_verify(buf, starts[k], toy_lookup, NULL, NULL,
                                      NULL, &rep),
                     0, "cut %zu: %s", k, rep.why);
        cr_assert_not(rep.ended);
        cr_assert_not(rep.torn);
        cr_assert_eq(rep.envelopes, k - 1);
    }
    free(buf);
}

/* ---- version 2: the relay's receipts (the fair-play issue) ---------- */

enum { RC_WHOLE, RC_TIME_MOVED, RC_OTHER_ROOM, RC_SKIPPED, RC_SEQ_MOVED,
       RC_IN_V1, RC_END_BARE, RC_ABSENCE_MOVED, RC_WHOLE_V2, RC_SKEW,
       RC_SKEW_EARLY, RC_SKEW_BOTH, RC_WHOLE_V3, RC_OTHER_GUEST };

/* A toy match logged in memory as a version 4 log, each envelope
 * followed by its receipt signed by relay key ident(9) for the room of
 * host W and guest B (lobby numbers 100, 102, ..., times 1000, 1010,
 * ..., the guest attested gone i ms at envelope i), spoiled at envelope
 * 4 (index 3) as `how` says; a version 2 log (receipts without
 * absences) for RC_WHOLE_V2, version 3 (receipts without the guest) for
 * RC_WHOLE_V3. */
/* The options witnessed_log's match starts with. */
static const char *wl_options = "target=30";

static uint8_t *witnessed_log(int how, size_t *len, uint32_t *count)
{
    Proto_Transcript *t = NULL;
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    Frames f = {0};
    Proto_Identity relay = ident(9);
    cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
    proto_transcript_witness_mode(t);
    proto_transcript_witness_absence(t);
    play_match(t, &f, &W, &B, "race", wl_options, 3, 10);
    proto_log_header_of(proto_transcript_start(t), &h);
    if (how != RC_IN_V1) {
        h.version = how == RC_WHOLE_V2 ? 2 : how == RC_WHOLE_V3 ? 3 : 4;
        memcpy(h.room, W.pk, PROTO_KEY_BYTES);
    }
    cr_assert_eq(proto_log_create_memory(&log, &h), 0);
    for (size_t i = 0; i < f.n; i++) {
        const uint8_t *env = f.buf[i] + PROTO_FRAME_PREFIX;
        size_t elen = f.len[i] - PROTO_FRAME_PREFIX;
        uint8_t hash[PROTO_HASH_BYTES], rec[PROTO_LOG_RECORD_MAX];
        cr_assert_eq(proto_log_append_envelope(log, env, elen), 0);
        Proto_Receipt r = {.kind = PROTO_RECEIPT_FRAME, .seq = 100 + 2 * i,
                           .time_ms = 1000 + 10 * i,
                           .absent_ms = {0, (uint32_t)i},
                           .v1 = how == RC_WHOLE_V2,
                           .v2 = how == RC_WHOLE_V3};
        memcpy(r.guest, B.pk, PROTO_KEY_BYTES);
        if (i == 3 && how == RC_OTHER_GUEST) /* a stand-in's room */
            memset(r.guest, 0x5e, PROTO_KEY_BYTES);
        cr_assert_eq(proto_receipt_hash(env, elen, hash), 0);
        if ((i == 3 && how == RC_SKIPPED) ||
            (i + 1 == f.n && how == RC_END_BARE))
            continue;
        uint64_t signed_seq = r.seq;
        cr_assert_eq(proto_receipt_sign(&r, i == 3 && how == RC_OTHER_ROOM
                                                ? B.pk
                                                : W.pk,
                                        hash, &relay),
                     0);
        if (i == 3 && how == RC_TIME_MOVED)
            r.time_ms += 1; /* after signing: an edit of the file */
        if (i == 3 && how == RC_SEQ_MOVED)
            r.seq = signed_seq + 1;
        if (i == 3 && how == RC_ABSENCE_MOVED)
            r.absent_ms[1] = 10000; /* "the guest was gone 10 s" */
        size_t n = proto_log_receipt_record((uint32_t)i, &r, rec, sizeof rec);
        cr_assert_gt(n, 0);
        cr_assert_eq(proto_log_append_record(log, rec, n), 0);
        if (i == 3 && how >= RC_SKEW) {
            /* the seat's evidence: receipt 4 was 1,234 ms ahead (or,
             * spoiled, about receipt 5, not yet read; or both ways) */
            n = proto_log_skew_record(how == RC_SKEW_EARLY ? 4 : 3, 1234, 0,
                                      rec, sizeof rec);
            cr_assert_eq(n, 8); /* 94 a1 'x' 03 cd 04 d2 00 */
            if (how == RC_SKEW_BOTH)
                rec[7] = 1;
            cr_assert_eq(proto_log_append_record(log, rec, n), 0);
        }
    }
    if (how == RC_END_BARE) { /* an end record before the last receipt */
        uint8_t chain[PROTO_HASH_BYTES];
        proto_transcript_chain(t, chain);
        cr_assert_eq(proto_log_finish(log, proto_transcript_count(t), chain),
                     0);
    }
    const uint8_t *b = proto_log_bytes(log, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, b, *len);
    *count = (uint32_t)f.n;
    cr_assert_eq(proto_log_close(log), 0);
    proto_transcript_free(t);
    frames_free(&f);
    return copy;
}

/* Verify witnessed_log(how) into *rep, which must end in err (case k);
 * returns its envelope count. */
static uint32_t witnessed_case(int how, int err, size_t k,
                               Proto_Log_Report *rep)
{
    size_t len;
    uint32_t n;
    uint8_t *buf = witnessed_log(how, &len, &n);
    cr_assert_eq(proto_log_verify(buf, len, toy_lookup, NULL, NULL, NULL, rep),
                 err, "case %zu: %s", k, rep->why);
    free(buf);
    return n;
}

Test(log, a_witnessed_log_verifies_every_receipt)
{
    size_t len;
    uint32_t n;
    uint8_t *buf = witnessed_log(RC_WHOLE, &len, &n);
    Proto_Log_Report rep;
    Proto_Identity relay = ident(9);
    cr_assert_eq(proto_log_verify(buf, len, toy_lookup, NULL, NULL, NULL, &rep),
                 0, "%s", rep.why);
    cr_assert_eq(rep.header.version, 4);
    cr_assert_eq(rep.envelopes, n);
    cr_assert_eq(rep.receipts, n);
    cr_assert_eq(rep.unwitnessed, 0);
    cr_assert_eq(rep.relays, 1);
    cr_assert_arr_eq(rep.relay[0], relay.pk, PROTO_KEY_BYTES);
    free(buf);
    /* the seat's evidence is counted, and its largest figure kept */
    buf = witnessed_log(RC_SKEW, &len, &n);
    cr_assert_eq(proto_log_verify(buf, len, toy_lookup, NULL, NULL, NULL, &rep),
                 0, "%s", rep.why);
    cr_assert_eq(rep.skews, 1);
    cr_assert_eq(rep.skew_ahead_ms, 1234);
    cr_assert_eq(rep.skew_behind_ms, 0);
    cr_assert_eq(rep.receipts, n);
    free(buf);
    uint8_t rec[32];
    cr_assert_eq(proto_log_skew_record(1, 5, 5, rec, sizeof rec), 0);
    cr_assert_eq(proto_log_skew_record(1, 0, 0, rec, sizeof rec), 0);
    /* a version 2 log (receipts of "tabula receipt 1") still verifies,
     * and a version 3 log (receipts of "tabula receipt 2", no guest) */
    for (int v = 2; v <= 3; v++) {
        n = witnessed_case(v == 2 ? RC_WHOLE_V2 : RC_WHOLE_V3, 0, (size_t)v,
                           &rep);
        cr_assert_eq(rep.header.version, v);
        cr_assert_eq(rep.receipts, n);
    }
}

Test(log, a_receipt_moved_by_one_ms_or_from_another_room_fails)
{
    static const struct {
        int how, err;
        uint32_t frame;
    } cases[] = {
        {RC_TIME_MOVED, TB_E_SIGNATURE, 4}, {RC_OTHER_ROOM, TB_E_SIGNATURE, 4},
        {RC_SKIPPED, TB_E_STATE, 5},        {RC_SEQ_MOVED, TB_E_SIGNATURE, 4},
        {RC_IN_V1, TB_E_FORMAT, 2},         {RC_ABSENCE_MOVED, TB_E_SIGNATURE, 4},
        {RC_SKEW_EARLY, TB_E_STATE, 5},     {RC_SKEW_BOTH, TB_E_FORMAT, 5},
        /* a receipt of a room where another key sat as the guest (a
         * stand-in's, whose absence is no absence of black's) */
        {RC_OTHER_GUEST, TB_E_SIGNATURE, 4},
    };
    /* the end record of a witnessed log comes after every receipt (the
     * envelopes it counts: frame 11, the records after envelope 10) */
    size_t blen;
    uint32_t bn;
    uint8_t *bare = witnessed_log(RC_END_BARE, &blen, &bn);
    Proto_Log_Report brep;
    cr_assert_eq(
        proto_log_verify(bare, blen, toy_lookup, NULL, NULL, NULL, &brep),
        TB_E_STATE, "%s", brep.why);
    cr_assert(strstr(brep.why, "end record before the relay's receipt of "
                               "envelope") != NULL,
              "%s", brep.why);
    free(bare);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Proto_Log_Report rep;
        witnessed_case(cases[k].how, cases[k].err, k, &rep);
        cr_assert_eq(rep.frame, cases[k].frame, "case %zu: %s", k, rep.why);
    }
}

Test(log, a_witnessed_start_fails_in_a_log_of_an_older_version)
{
    /* A start that says a relay witnesses the match verifies in a
     * version 3 log; the same match rewritten as a version 2 log
     * (receipts without presence, an absence claim a player's word) or
     * as version 1 (no receipts) fails at its start, frame 1 (the
     * fair-play issue: the downgrade a cheating player's review found). */
    static const struct {
        int how, err;
    } cases[] = {{RC_WHOLE, 0}, {RC_WHOLE_V3, 0}, {RC_WHOLE_V2, TB_E_VERSION},
                 {RC_IN_V1, TB_E_VERSION}};
    wl_options = "target=30," PROTO_OPTION_RELAY;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Proto_Log_Report rep;
        uint32_t n = witnessed_case(cases[k].how, cases[k].err, k, &rep);
        if (cases[k].err != 0) {
            cr_assert_eq(rep.frame, 1, "case %zu: %s", k, rep.why);
            cr_assert(strstr(rep.why, "relay=3") != NULL, "%s", rep.why);
        } else {
            cr_assert_eq(rep.receipts, n);
        }
    }
    wl_options = "target=30";
}
