/*
 * seeds.c: writes the fuzzers' seed corpora (tests/fuzz/run.sh builds and
 * runs it): a signed Laska match with every message kind, as frames, as
 * single envelopes, as a log file (whole and torn) and as plain records;
 * display names, typed and as signed records.
 * public seeks' cards, alone and in a LIST.
 *   seeds DIR   writes DIR/{frame,envelope,log,record,name,seek,pool}/
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lobby_wire.h"
#include "proto.h"

static uint8_t frames[64][1024];
static size_t lens[64];
static size_t nframes;
static Proto_Transcript *t;

static void put_file(const char *dir, const char *sub, const char *name,
                     const void *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(p, 1, n, f) != n) {
        fprintf(stderr, "seeds: cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

static void send(const Proto_Identity *id, Proto_Message *m)
{
    static uint8_t big[PROTO_FRAME_PREFIX + PROTO_FRAME_MAX];
    size_t len;
    if (proto_transcript_send(t, id, m, big, sizeof big, &len) != 0 ||
        len > sizeof frames[0]) {
        fprintf(stderr, "seeds: %s\n", proto_transcript_why(t));
        exit(1);
    }
    memcpy(frames[nframes], big, len);
    lens[nframes++] = len;
}

static void kind(const Proto_Identity *id, Proto_Kind k)
{
    Proto_Message m;
    proto_message_init(&m, k, id);
    if (k == PROTO_KIND_TAKEBACK_REQUEST || k == PROTO_KIND_TAKEBACK_ACCEPT)
        m.body.takeback.plies = 1;
    if (k == PROTO_KIND_CHAT)
        snprintf(m.body.text.text, sizeof m.body.text.text, "hi");
    if (k == PROTO_KIND_STATE_CHECK) {
        m.body.check.ply = core_ply(proto_transcript_position(t));
        proto_state_hash(proto_transcript_position(t), m.body.check.hash);
    }
    send(id, &m);
}

static void move(const Proto_Identity *w, const Proto_Identity *b,
                 unsigned pick)
{
    const Core_Position *pos = proto_transcript_position(t);
    const Proto_Identity *id = core_side_to_move(pos) == CORE_WHITE ? w : b;
    Core_Position *copy = core_position_clone(pos);
    Core_Move mv[600];
    size_t n = 0;
    Proto_Message m;

    core_moves(copy, mv, 600, &n);
    proto_message_init(&m, PROTO_KIND_MOVE, id);
    m.body.move.ply = core_ply(pos) + 1;
    core_move_format(copy, &mv[pick % n], m.body.move.move,
                     sizeof m.body.move.move);
    core_play(copy, &mv[pick % n]);
    proto_state_hash(copy, m.body.move.hash);
    core_position_free(copy);
    send(id, &m);
}

int main(int argc, char **argv)
{
    Proto_Identity w, b;
    uint8_t sw[32] = {1}, sb[32] = {2}, chain[32];
    Proto_Message m;
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    char name[32], path[1024];

    if (argc != 2 || proto_init() != 0)
        return 2;
    mkdir(argv[1], 0755);
    proto_identity_from_seed(&w, sw);
    proto_identity_from_seed(&b, sb);
    proto_transcript_new(&t, NULL);
    proto_message_init(&m, PROTO_KIND_MATCH_START, &w);
    memset(m.match_id, 0x42, sizeof m.match_id);
    snprintf(m.body.start.game, sizeof m.body.start.game, "laska");
    memcpy(m.body.start.white, w.pk, 32);
    memcpy(m.body.start.black, b.pk, 32);
    send(&w, &m);
    move(&w, &b, 2);
    kind(&b, PROTO_KIND_CHAT);
    move(&w, &b, 1);
    kind(&w, PROTO_KIND_DRAW_OFFER);
    kind(&b, PROTO_KIND_DRAW_DECLINE);
    move(&w, &b, 3);
    kind(&w, PROTO_KIND_TAKEBACK_REQUEST);
    kind(&b, PROTO_KIND_TAKEBACK_ACCEPT);
    for (unsigned i = 0; i < 8; i++)
        move(&w, &b, i * 5 + 1);
    kind(&b, PROTO_KIND_STATE_CHECK);
    kind(&w, PROTO_KIND_RESIGN);
    kind(&b, PROTO_KIND_BYE);

    /* frames: the whole stream, and every envelope alone */
    static uint8_t stream[64 * 1024];
    size_t sl = 0;
    for (size_t i = 0; i < nframes; i++) {
        memcpy(stream + sl, frames[i], lens[i]);
        sl += lens[i];
        snprintf(name, sizeof name, "env%02zu", i);
        put_file(argv[1], "envelope", name, frames[i] + 4, lens[i] - 4);
        snprintf(name, sizeof name, "frame%02zu", i);
        put_file(argv[1], "frame", name, frames[i], lens[i]);
    }
    put_file(argv[1], "frame", "stream", stream, sl);

    /* the log, whole and torn */
    snprintf(path, sizeof path, "%s/match.log", argv[1]);
    remove(path);
    proto_log_header_of(proto_transcript_start(t), &h);
    if (proto_log_create(&log, path, &h) != 0)
        return 1;
    for (size_t i = 0; i < nframes; i++)
        proto_log_append(log, frames[i], lens[i]);
    proto_transcript_chain(t, chain);
    proto_log_finish(log, proto_transcript_count(t), chain);
    proto_log_close(log);
    uint8_t *buf = NULL;
    size_t len = 0;
    if (proto_read_file(path, &buf, &len) != 0)
        return 1;
    put_file(argv[1], "log", "whole", buf, len);
    put_file(argv[1], "log", "torn", buf, len - 50);
    free(buf);
    remove(path);

    /* a lobby game's log (version 3): each envelope followed by the
     * relay's receipt (attesting the guest gone from the tenth on), and
     * after the fifth the seat's evidence against its time */
    h.version = PROTO_LOG_VERSION;
    memcpy(h.room, w.pk, 32);
    if (proto_log_create(&log, path, &h) != 0)
        return 1;
    for (size_t i = 0; i < nframes; i++) {
        uint8_t hash[32], rec[PROTO_LOG_RECORD_MAX];
        Proto_Receipt r = {.kind = PROTO_RECEIPT_FRAME,
                           .seq = i + 1,
                           .time_ms = 1765000000000ull + 700 * i,
                           .absent_ms = {0, i >= 10 ? 700 * (uint32_t)i : 0}};
        proto_log_append(log, frames[i], lens[i]);
        proto_receipt_hash(frames[i] + 4, lens[i] - 4, hash);
        proto_receipt_sign(&r, w.pk, hash, &b);
        size_t n = proto_log_receipt_record((uint32_t)i, &r, rec, sizeof rec);
        proto_log_append_record(log, rec, n);
        if (i == 4 && (n = proto_log_skew_record(4, 2500, 0, rec,
                                                  sizeof rec)) > 0)
            proto_log_append_record(log, rec, n);
    }
    proto_log_finish(log, proto_transcript_count(t), chain);
    proto_log_close(log);
    if (proto_read_file(path, &buf, &len) != 0)
        return 1;
    put_file(argv[1], "log", "witnessed", buf, len);
    free(buf);
    remove(path);

    static const char r1[] =
        "[Event \"club\"]\n[Game \"laska\"]\n[Result \"*\"]\n\n"
        "1. c3-d4 e5xc3 {capture} 2. b2xd4 g5-f4 3. e3xg5 *\n";
    static const char r2[] =
        "[Variant \"Laska\"]\n[Position \"w a1w c1w e1w g1w b2w d2w f2w a3w "
        "c3w e3w g3w a5b c5b e5b g5b b6b d6b f6b a7b c7b e7b g7b 0 0\"]\n"
        "1. 9-13 17-13-9 2. 5-9-13 (2. 6-9-12) 18-14 ; numeric\n"
        "3. 10-14-18 1-0\n";
    static const char r3[] = "[Game \"football\"]\n"
                             "1. d1-d6 d6*h2 h1*f3 d9-d8 2. pass *\n";
    static const char r4[] = "[Game \"volleyball\"]\n1. S Bc3-d2>g5 *\n";
    put_file(argv[1], "record", "football", r3, sizeof r3 - 1);
    put_file(argv[1], "record", "volleyball", r4, sizeof r4 - 1);
    put_file(argv[1], "record", "algebraic", r1, sizeof r1 - 1);
    put_file(argv[1], "record", "numeric", r2, sizeof r2 - 1);
    /* As files from elsewhere come: a byte-order mark and CRLF, lone CR
     * line ends, escape lines, every move number form. */
    static const char r5[] =
        "\xef\xbb\xbf[Game \"laska\"]\r\n[Result \"1-0\"]\r\n\r\n"
        "1. c3-d4 {two\r\nlines} e5xc3 ; rest\r\n2 b2xd4 2... g5-f4 1-0\r\n";
    static const char r6[] = "% escape\r[Game \"laska\"]\r\r"
                             "1.c3-d4 1. ... e5xc3 2.b2xd4 *\r";
    /* As python-chess reads them: checked side lines, nested; null
     * moves (Football chess's pass), NAGs and glyphs glued; quotes in tag
     * values; a second game. */
    static const char r7[] =
        "[Event \"a \\\"b\\\" \\\\ c\"]\n[Annotator \"say \"hi\"\"]\n"
        "[Game \"football\"]\n"
        "1. d1-d6 d6*h2 h1*f3!? (1. d1-d5 d5*i5 (1. pass)) -- $3\n"
        "2. b1-c3 (2. --) *\n\n[Game \"laska\"]\n1. c3-d4 *\n";
    static const char r8[] =
        "[Game \"laska\"]\n1. c3-d4 (1. a3-b4 c5xa3) e5xc3$1\n"
        "2. b2xd4 (2. d2xb4 g5-f4 (2... c5-d4)(2... f6-e5)) 1-0\n";
    put_file(argv[1], "record", "python-chess", r7, sizeof r7 - 1);
    put_file(argv[1], "record", "variations", r8, sizeof r8 - 1);
    put_file(argv[1], "record", "crlf-bom", r5, sizeof r5 - 1);
    put_file(argv[1], "record", "cr", r6, sizeof r6 - 1);
    /* names: Czech and Russian, untrimmed, hostile (U+202E), a record */
    static const char n1[] = "  Ji\xC5\x99\xC3\xAD   \xC4\x8C" "erm\xC3\xA1k ";
    static const char n2[] = "\xD0\x81\xD0\xB6\xD0\xB8\xD0\xBA "
                             "\xD0\x9F\xD1\x91\xD1\x82\xD1\x80";
    static const char n3[] = "ab\xE2\x80\xAE" "cd";
    uint8_t nrec[PROTO_NAME_RECORD_MAX];
    size_t nlen = 0;
    put_file(argv[1], "name", "czech", n1, sizeof n1 - 1);
    put_file(argv[1], "name", "russian", n2, sizeof n2 - 1);
    put_file(argv[1], "name", "bidi", n3, sizeof n3 - 1);
    if (proto_name_sign(&w, n2, 1765000000000u, nrec, sizeof nrec, &nlen) == 0)
        put_file(argv[1], "name", "record", nrec, nlen);
    /* a seek's card with that name, and a LIST (after its type byte) of
     * it: last 1, count 1, since, the card's length, the card */
    uint8_t sym[LOBBY_CODE_SECRET_SYMBOLS] = {0}, card[LOBBY_SEEK_CARD_MAX],
            list[3 + 10 + LOBBY_SEEK_CARD_MAX] = {1, 0, 1};
    Lobby_Code code;
    size_t clen = 0;
    if (lobby_code_make(sym, w.pk, &code) == 0 &&
        lobby_seek_card(&w, &code, "laska", "clock=300+3", nrec, nlen, &w, card,
                        &clen) == 0) {
        put_file(argv[1], "seek", "card", card, clen);
        memset(list + 3, 0, 8);
        list[11] = (uint8_t)(clen >> 8);
        list[12] = (uint8_t)clen;
        memcpy(list + 13, card, clen);
        put_file(argv[1], "seek", "list", list, 13 + clen);
        /* the pool's: an offer of laska and chessball at 180+2..600+5
         * with that card, and a PAIRED (each after its type byte) */
        uint8_t pool[LOBBY_WIRE_POOL_MAX], paired[LOBBY_WIRE_PAIRED_MAX];
        Proto_Clock lo, hi;
        Lobby_Paired pd;
        size_t plen;
        memset(&pd, 0, sizeof pd);
        pd.role = LOBBY_ROLE_GUEST;
        pd.game = 1;
        pd.invite = code;
        memcpy(pd.guest_pk, w.pk, sizeof pd.guest_pk);
        if (proto_clock_range_parse("180+2..600+5", 0, &lo, &hi, NULL) == 0 &&
            (plen = lobby_wire_pool(pool, &w, 3, &lo, &hi, 0, 0, card, clen)) > 0)
            put_file(argv[1], "pool", "offer", pool + 1, plen - 1);
        pd.clock = lo;
        if ((plen = lobby_wire_paired(paired, &pd)) > 0)
            put_file(argv[1], "pool", "paired", paired + 1, plen - 1);
        /* steps of fuzz_room.c: members 0 and 1 offer to the pool (two
         * players, one game and range: they pair), member 2 offers and
         * waits, the time moves on, member 2 leaves */
        uint8_t steps[3 * (3 + LOBBY_WIRE_POOL_MAX) + 2];
        size_t sn = 0;
        for (int k = 0; k < 3; k++) {
            Proto_Identity pk;
            uint8_t seed[32], c2[LOBBY_SEEK_CARD_MAX];
            size_t c2len = 0;
            memset(seed, 0x51 + k, sizeof seed);
            if (proto_identity_from_seed(&pk, seed) != 0 ||
                lobby_code_make(sym, pk.pk, &code) != 0 ||
                lobby_seek_card(&pk, &code, "laska", "", NULL, 0, NULL, c2, &c2len) !=
                    0 ||
                (plen = lobby_wire_pool(pool, &pk, k < 2 ? 1 : 2, &lo, &hi, 0, 0,
                                        c2, c2len)) == 0)
                break;
            steps[sn++] = (uint8_t)(k << 2);
            steps[sn++] = (uint8_t)(plen >> 8);
            steps[sn++] = (uint8_t)plen;
            memcpy(steps + sn, pool, plen);
            sn += plen;
        }
        steps[sn++] = 2 | 2 << 2;
        steps[sn++] = 1 | 2 << 2;
        put_file(argv[1], "room", "pool", steps, sn);
    }
    {
        /* steps of fuzz_room.c: member 0 CREATEs a room (the proof is
         * any: the fuzz build takes it), member 1 JOINs it and asks the
         * relay to keep it 3 days (KEEP, a correspondence game), both
         * leave, the time moves on */
        uint8_t steps[3 + 186 + 3 + 138 + 3 + 5 + 4], *q = steps;
        uint8_t create[186] = {0x01, 4}, join[138] = {0x02, 4};
        const uint8_t keep[5] = {0x09, 0, 0x03, 0xf4, 0x80}; /* 259200 s */
        memset(create + 2, 0x21, 16);       /* invite lookup */
        memset(create + 18, 0x22, 16);      /* watch lookup */
        memset(create + 34, 0x31, 32);      /* host key */
        memset(create + 66, 0x41, 16);      /* seat secret */
        memset(join + 2, 0x21, 16);         /* invite lookup */
        memset(join + 18, 0x42, 16);        /* seat secret */
        memset(join + 34, 0x32, 32);        /* guest key */
        const struct {
            uint8_t member;
            const uint8_t *m;
            size_t n;
        } msgs[3] = {{0, create, sizeof create},
                     {1, join, sizeof join},
                     {1, keep, sizeof keep}};
        for (int k = 0; k < 3; k++) {
            *q++ = (uint8_t)(msgs[k].member << 2);
            *q++ = (uint8_t)(msgs[k].n >> 8);
            *q++ = (uint8_t)msgs[k].n;
            memcpy(q, msgs[k].m, msgs[k].n);
            q += msgs[k].n;
        }
        *q++ = 1;           /* member 0 leaves */
        *q++ = 1 | 1 << 2;  /* member 1 leaves */
        *q++ = 2 | 63 << 2; /* 63 s on, the sweep */
        *q++ = 2 | 63 << 2;
        put_file(argv[1], "room", "keep", steps, (size_t)(q - steps));
    }
    proto_transcript_free(t);
    printf("seeds: %zu frames, %zu stream bytes\n", nframes, sl);
    return 0;
}
