/*
 * bench_proto.c: protocol benchmarks (never run as tests; the figures go
 * to docs/benchmarks.md through tests/bench/proto.sh).
 *   bench_proto sign [SECONDS]       envelopes sealed and opened per second
 *                                    beside libsodium's raw Ed25519 sign and
 *                                    verify of the same payload bytes
 *   bench_proto mklog FILE SEED [N]  write a signed Laska match log (moves
 *                                    picked by a seeded generator, at most N
 *                                    plies) for replay benchmarks and tests
 *   bench_proto replay FILE [ROUNDS] verify a log in-process, plies/s
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "proto.h"

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint8_t frame[PROTO_FRAME_PREFIX + PROTO_FRAME_MAX];

static int bench_sign(double secs)
{
    Proto_Identity id;
    uint8_t seed[PROTO_KEY_BYTES] = {1}, sig[PROTO_SIG_BYTES];
    Proto_Message m;
    Proto_Envelope e;
    size_t len;

    proto_identity_from_seed(&id, seed);
    proto_message_init(&m, PROTO_KIND_MOVE, &id);
    m.seq = 1234;
    m.body.move.ply = 57;
    snprintf(m.body.move.move, sizeof m.body.move.move, "b2xd4xf6");
    memset(m.body.move.hash, 0xab, PROTO_HASH_BYTES);
    if (proto_seal(&m, &id, frame, sizeof frame, &len, NULL) != 0)
        return 1;
    /* The payload bytes inside the envelope, for the raw calls. */
    const uint8_t *payload = frame + PROTO_FRAME_PREFIX + 3;
    size_t plen = frame[PROTO_FRAME_PREFIX + 2];
    printf("payload %zu bytes, envelope %zu bytes\n", plen,
           len - PROTO_FRAME_PREFIX);
    /* Raw and envelope calls alternate in batches of 4, each batch timed
     * on its own, so both see the same machine load (the host is shared). */
    for (int round = 1; round <= 3; round++) {
        double spent[4] = {0, 0, 0, 0};
        unsigned long n = 0;
        double t0 = cli_now();
        while (cli_now() - t0 < 4 * secs) {
            for (int k = 0; k < 4; k++) {
                double t = cli_now();
                for (int i = 0; i < 4; i++) {
                    switch (k) {
                    case 0:
                        crypto_sign_detached(sig, NULL, payload, plen, id.sk);
                        break;
                    case 1:
                        proto_seal(&m, &id, frame, sizeof frame, &len, NULL);
                        break;
                    case 2:
                        if (crypto_sign_verify_detached(
                                frame + len - 64, payload, plen, id.pk) != 0)
                            return 1;
                        break;
                    case 3:
                        if (proto_open(frame + PROTO_FRAME_PREFIX,
                                       len - PROTO_FRAME_PREFIX, &e, NULL,
                                       0) != 0)
                            return 1;
                        break;
                    }
                }
                spent[k] += cli_now() - t;
            }
            n += 4;
        }
        double rate[4];
        for (int k = 0; k < 4; k++)
            rate[k] = (double)n / spent[k];
        printf("round %d: raw sign %.0f/s, seal %.0f/s (overhead %.1f%%); "
               "raw verify %.0f/s, open %.0f/s (overhead %.1f%%)\n",
               round, rate[0], rate[1], 100.0 * (rate[0] / rate[1] - 1),
               rate[2], rate[3], 100.0 * (rate[2] / rate[3] - 1));
    }
    return 0;
}

static int seal_add(Proto_Transcript *t, Proto_Log *log,
                    const Proto_Identity *id, Proto_Message *m)
{
    size_t len;
    int rc = proto_transcript_send(t, id, m, frame, sizeof frame, &len);
    if (rc == 0)
        rc = proto_log_append(log, frame, len);
    if (rc != 0)
        fprintf(stderr, "bench_proto: %s: %s\n", tb_strerror(rc),
                proto_transcript_why(t));
    return rc;
}

static int mklog(const char *path, uint64_t seed, unsigned max_plies)
{
    Proto_Identity w, b;
    uint8_t sw[PROTO_KEY_BYTES] = {1}, sb[PROTO_KEY_BYTES] = {2};
    Proto_Transcript *t = NULL;
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    Proto_Message m;
    Core_Move mv[1024];
    uint8_t chain[PROTO_HASH_BYTES];
    int rc;

    proto_identity_from_seed(&w, sw);
    proto_identity_from_seed(&b, sb);
    if (proto_transcript_new(&t, NULL) != 0)
        return 1;
    proto_message_init(&m, PROTO_KIND_MATCH_START, &w);
    memcpy(m.match_id, &seed, sizeof seed);
    snprintf(m.body.start.game, sizeof m.body.start.game, "laska");
    memcpy(m.body.start.white, w.pk, PROTO_KEY_BYTES);
    memcpy(m.body.start.black, b.pk, PROTO_KEY_BYTES);
    m.body.start.started = 1764460800; /* 2025-11-30 */
    /* The log needs the header before the first envelope: take it from
     * the start message itself. */
    proto_log_header_of(&m, &h);
    rc = proto_log_create(&log, path, &h);
    if (rc != 0) {
        fprintf(stderr, "bench_proto: cannot create %s\n", path);
        return 1;
    }
    rc = seal_add(t, log, &w, &m);
    while (rc == 0 && proto_transcript_status(t).outcome == CORE_ONGOING &&
           core_ply(proto_transcript_position(t)) < max_plies) {
        const Core_Position *pos = proto_transcript_position(t);
        const Proto_Identity *id =
            core_side_to_move(pos) == CORE_WHITE ? &w : &b;
        size_t n = 0;
        Core_Position *copy = core_position_clone(pos);
        core_moves(copy, mv, 1024, &n);
        size_t pick = (size_t)(next_rand(&seed) % n);
        proto_message_init(&m, PROTO_KIND_MOVE, id);
        m.body.move.ply = core_ply(pos) + 1;
        core_move_format(copy, &mv[pick], m.body.move.move,
                         sizeof m.body.move.move);
        core_play(copy, &mv[pick]);
        proto_state_hash(copy, m.body.move.hash);
        core_position_free(copy);
        rc = seal_add(t, log, id, &m);
    }
    if (rc == 0 && proto_transcript_status(t).outcome == CORE_ONGOING) {
        proto_message_init(&m, PROTO_KIND_RESIGN, &b);
        rc = seal_add(t, log, &b, &m);
    }
    proto_transcript_chain(t, chain);
    if (rc == 0)
        rc = proto_log_finish(log, proto_transcript_count(t), chain);
    proto_log_close(log);
    printf("%s: %u plies, %u envelopes\n", path,
           core_ply(proto_transcript_position(t)), proto_transcript_count(t));
    proto_transcript_free(t);
    return rc != 0;
}

static int replay(const char *path, int rounds)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;

    if (proto_read_file(path, &buf, &len) != 0)
        return 1;
    for (int r = 1; r <= rounds; r++) {
        double t0 = cli_now();
        int rc = proto_log_verify(buf, len, NULL, NULL, NULL, &t, &rep);
        double secs = cli_now() - t0;
        uint32_t plies = core_ply(proto_transcript_position(t));
        printf("round %d: %s, %u plies, %u envelopes in %.3f s: %.0f "
               "plies/s\n",
               r, rc == 0 ? "verified" : tb_strerror(rc), plies, rep.envelopes,
               secs, plies / secs);
        proto_transcript_free(t);
    }
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (proto_init() != 0)
        return 1;
    if (argc >= 2 && strcmp(argv[1], "sign") == 0)
        return bench_sign(argc > 2 ? atof(argv[2]) : 1.0);
    if (argc >= 4 && strcmp(argv[1], "mklog") == 0)
        return mklog(argv[2], strtoull(argv[3], NULL, 10),
                     argc > 4 ? (unsigned)atoi(argv[4]) : 100000);
    if (argc >= 3 && strcmp(argv[1], "replay") == 0)
        return replay(argv[2], argc > 3 ? atoi(argv[3]) : 3);
    fprintf(stderr, "usage: bench_proto sign [SECONDS] | mklog FILE SEED "
                    "[PLIES] | replay FILE [ROUNDS]\n");
    return 2;
}
