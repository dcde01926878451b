/*
 * test_archive.c: a relay's archive (lobby/archive.c; docs/archive.md)
 * handed a room's frames as the rooms hand them (Lobby_Archive_Ops), with
 * the receipts a relay signs: a finished match becomes MATCH.log and an
 * index line whose fields are the match's own, and the log it wrote is
 * rated with the result the test's own transcript reached; a second room
 * carrying the same start never replaces that log (MATCH-2.log; a trial
 * replaced a lost game's log so); a loser's envelope signed after the
 * end spoils the copy's tail but not its result; past the total nothing
 * is kept.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "club.h"
#include "lobby_internal.h"
#include "proto/match_util.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tabula-archive-unit-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char logs[300];
    snprintf(logs, sizeof logs, "%s/logs", dir);
    cr_assert_eq(mkdir(logs, 0755), 0);
}

static void teardown(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(archive_unit, .init = setup, .fini = teardown);

static int kept_count;
static void kept(void *user, const char *path)
{
    (void)user;
    (void)path;
    kept_count++;
}

/* A file of dir whole (NULL when missing); *len its size. */
static uint8_t *slurp_file(const char *name, size_t *len)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    uint8_t *b = malloc(1 << 20);
    cr_assert_not_null(b);
    *len = fread(b, 1, 1 << 20, f);
    fclose(f);
    return b;
}

/* The frames f[from..to) handed to the archive as room h's, numbered
 * from seq, each with the receipt relay signs for host (the room) and
 * guest. */
static void hand(const Lobby_Archive_Ops *ops, Lobby_Archive *a, void **h,
                 const Frames *f, size_t from, size_t to, uint64_t seq,
                 const Proto_Identity *relay, const Proto_Identity *host,
                 const Proto_Identity *guest)
{
    for (size_t i = from; i < to; i++) {
        const uint8_t *env = f->buf[i] + PROTO_FRAME_PREFIX;
        size_t n = f->len[i] - PROTO_FRAME_PREFIX;
        uint8_t hash[PROTO_HASH_BYTES];
        Proto_Receipt rc;
        memset(&rc, 0, sizeof rc);
        rc.kind = PROTO_RECEIPT_FRAME;
        rc.seq = seq++;
        rc.time_ms = 1700000000000ull + 1000 * i;
        memcpy(rc.guest, guest->pk, PROTO_KEY_BYTES);
        cr_assert_eq(proto_receipt_hash(env, n, hash), 0);
        cr_assert_eq(proto_receipt_sign(&rc, host->pk, hash, relay), 0);
        ops->frame(a, h, host->pk, &rc, env, n);
    }
}

/* A whole match of laska between w and b, witnessed (relay=3), into *t
 * and f, played by seed. */
static void played(Proto_Transcript **t, Frames *f, const Proto_Identity *w,
                   const Proto_Identity *b, unsigned seed)
{
    cr_assert_eq(proto_transcript_new(t, NULL), 0);
    proto_transcript_witness_mode(*t);
    proto_transcript_witness_absence(*t);
    play_match(*t, f, w, b, "laska", PROTO_OPTION_RELAY, seed, 400);
}

Test(archive_unit, a_finished_match_is_kept_once_and_rated_as_played)
{
    Proto_Identity w = ident(0x31), b = ident(0x32), relay = ident(0x33);
    Proto_Transcript *t = NULL;
    Frames f = {0};
    Lobby_Archive *a = NULL;
    const Lobby_Archive_Ops *ops = NULL;
    played(&t, &f, &w, &b, 5);
    Core_Status end = proto_transcript_status(t);
    cr_assert_neq(end.outcome, CORE_ONGOING, "the toy match ends");
    cr_assert_eq(lobby__archive_new(dir, (uint64_t)1 << 30, kept, NULL, &a,
                                    &ops),
                 0);

    /* room 1: every frame, then its end */
    void *h = NULL;
    hand(ops, a, &h, &f, 0, f.n, 1, &relay, &w, &b);
    cr_assert_not_null(h);
    ops->end(a, h, 1);
    cr_assert_eq(kept_count, 1);

    char id[2 * PROTO_HASH_BYTES + 1], name[200], wh[65], bh[65], line[600];
    /* (the match's id: its start envelope's payload hash, proto_open's) */
    Proto_Envelope se;
    cr_assert_eq(proto_open(f.buf[0] + PROTO_FRAME_PREFIX,
                            f.len[0] - PROTO_FRAME_PREFIX, &se, NULL, 0),
                 0);
    proto_hex(se.hash, sizeof se.hash, id);
    proto_hex(w.pk, 32, wh);
    proto_hex(b.pk, 32, bh);
    snprintf(name, sizeof name, "logs/%s.log", id);
    size_t len = 0, ilen = 0;
    uint8_t *log = slurp_file(name, &len);
    cr_assert_not_null(log, "no %s", name);
    uint8_t *index = slurp_file("logs/index.txt", &ilen);
    cr_assert_not_null(index);
    snprintf(line, sizeof line, "%s laska %s %s 1700000000 %zu\n", id, wh, bh,
             len);
    cr_assert_eq(ilen, strlen(line));
    cr_assert(memcmp(index, line, ilen) == 0, "%.*s", (int)ilen, index);
    free(index);

    /* the log the relay wrote is rated as the test's transcript ended */
    Club_Rated_Game g;
    Club_Verdict v;
    char why[200];
    cr_assert_eq(club_game_from_log(log, len, 0, &g, &v, why, sizeof why), 0,
                 "%s", why);
    cr_assert_eq(v, CLUB_RATED);
    cr_assert_eq(g.score, end.outcome == CORE_WIN_WHITE ? 2
                          : end.outcome == CORE_DRAW    ? 1
                                                        : 0);

    /* room 2 carries the same start again (a replay by white): kept
     * apart, the first log untouched */
    h = NULL;
    hand(ops, a, &h, &f, 0, 1, 1, &relay, &w, &b);
    ops->end(a, h, 1);
    size_t len2 = 0, len1 = 0;
    snprintf(name, sizeof name, "logs/%s-2.log", id);
    uint8_t *copy = slurp_file(name, &len2);
    cr_assert_not_null(copy, "no %s", name);
    cr_assert_lt(len2, len);
    snprintf(name, sizeof name, "logs/%s.log", id);
    uint8_t *again = slurp_file(name, &len1);
    cr_assert_eq(len1, len);
    cr_assert(memcmp(again, log, len) == 0);
    free(copy);
    free(again);

    /* room 3: the loser signs one more move after the end: the copy's
     * tail fails, its result stands */
    Proto_Message m;
    const Proto_Identity *loser = end.outcome == CORE_WIN_WHITE ? &b : &w;
    proto_message_init(&m, PROTO_KIND_MOVE, loser);
    m.body.move.ply = core_ply(proto_transcript_position(t)) + 1;
    snprintf(m.body.move.move, sizeof m.body.move.move, "a1-b2");
    size_t xl;
    uint8_t *extra = seal_next(t, loser, &m, &xl);
    Frames f3 = f;
    keep(&f3, extra, xl);
    /* (a fresh match id: the same frames would be room 2's match) */
    lobby__archive_free(a);
    char sub[400];
    snprintf(sub, sizeof sub, "rm -f '%s'/logs/*", dir);
    cr_assert_eq(system(sub), 0);
    cr_assert_eq(lobby__archive_new(dir, (uint64_t)1 << 30, kept, NULL, &a,
                                    &ops),
                 0);
    h = NULL;
    hand(ops, a, &h, &f3, 0, f3.n, 1, &relay, &w, &b);
    ops->end(a, h, 1);
    size_t len3 = 0;
    snprintf(name, sizeof name, "logs/%s.log", id);
    uint8_t *spoiled = slurp_file(name, &len3);
    cr_assert_not_null(spoiled);
    cr_assert_gt(len3, len, "the extra envelope was kept");
    Proto_Transcript *tt = NULL;
    Proto_Log_Report rep;
    memset(&rep, 0, sizeof rep);
    cr_assert_neq(proto_log_verify_witnessed(spoiled, len3, NULL, NULL, NULL,
                                             NULL, &tt, &rep),
                  0, "the tail fails");
    proto_transcript_free(tt);
    cr_assert_eq(club_game_from_log(spoiled, len3, 0, &g, &v, why,
                                    sizeof why),
                 0, "%s", why);
    cr_assert_eq(v, CLUB_RATED);
    cr_assert_eq(g.score, end.outcome == CORE_WIN_WHITE ? 2
                          : end.outcome == CORE_DRAW    ? 1
                                                        : 0);
    free(spoiled);
    free(log);
    free(extra);
    f3.n = 0;
    lobby__archive_free(a);
    frames_free(&f);
    proto_transcript_free(t);
}

Test(archive_unit, past_the_total_nothing_more_is_kept)
{
    Proto_Identity w = ident(0x41), b = ident(0x42), relay = ident(0x43);
    Proto_Transcript *t = NULL;
    Frames f = {0};
    Lobby_Archive *a = NULL;
    const Lobby_Archive_Ops *ops = NULL;
    played(&t, &f, &w, &b, 9);
    /* a total of 600 bytes: the start fits, the game does not */
    cr_assert_eq(lobby__archive_new(dir, 600, kept, NULL, &a, &ops), 0);
    kept_count = 0;
    void *h = NULL;
    hand(ops, a, &h, &f, 0, f.n, 1, &relay, &w, &b);
    ops->end(a, h, 1);
    cr_assert_eq(kept_count, 0);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "[ -z \"$(ls -A '%s/logs')\" ]", dir);
    cr_assert_eq(system(cmd), 0, "the folder holds nothing");
    lobby__archive_free(a);
    frames_free(&f);
    proto_transcript_free(t);
}
