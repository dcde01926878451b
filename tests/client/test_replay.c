/*
 * test_replay.c: `tabula replay` as a user sees it, on Laska logs written
 * here through proto/ and on plain records: the verified game with its
 * final hash (compared with the hash computed in this process), failures
 * with ply, kind and exit status 1, torn logs, --export and reading the
 * export back, and usage errors with status 2.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "club.h"
#include "director.h"
#include "engine.h"
#include "proto/match_util.h"

typedef struct Out {
    int status;
    char out[65536];
    char err[4096];
} Out;

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tabula-replay-%ld", (long)getpid());
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir %s", dir, dir);
    cr_assert_eq(system(cmd), 0);
}

static void teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(replay, .init = setup, .fini = teardown);

static void load(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
}

/* Run `tabula replay ARGS`. */
static Out *replay(const char *args)
{
    static Out o;
    char cmd[1024], out[128], err[128];
    snprintf(out, sizeof out, "%s/stdout", dir);
    snprintf(err, sizeof err, "%s/stderr", dir);
    snprintf(cmd, sizeof cmd, "%s replay %s >%s 2>%s </dev/null", TABULA_BINARY,
             args, out, err);
    int st = system(cmd);
    cr_assert(WIFEXITED(st));
    o.status = WEXITSTATUS(st);
    load(out, o.out, sizeof o.out);
    load(err, o.err, sizeof o.err);
    return &o;
}

/* Write a log of a match of game played by the helpers; the final state
 * hash in hex into final. Returns the number of frames. */
static size_t write_log(const char *path, const char *game, unsigned plies,
                        int finish, char final[PROTO_HASH_HEX], Frames *f)
{
    Proto_Identity w = ident(11), b = ident(12);
    Proto_Transcript *t = NULL;
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    uint8_t hash[PROTO_HASH_BYTES];

    cr_assert_eq(proto_transcript_new(&t, NULL), 0);
    play_match(t, f, &w, &b, game, "", 4, plies);
    if (finish)
        resign_if_running(t, f, &w, &b);
    proto_log_header_of(proto_transcript_start(t), &h);
    cr_assert_eq(proto_log_create(&log, path, &h), 0);
    for (size_t i = 0; i < f->n; i++)
        cr_assert_eq(proto_log_append(log, f->buf[i], f->len[i]), 0);
    if (finish) {
        proto_transcript_chain(t, hash);
        cr_assert_eq(proto_log_finish(log, proto_transcript_count(t), hash), 0);
    }
    proto_log_close(log);
    proto_state_hash(proto_transcript_position(t), hash);
    proto_hex(hash, sizeof hash, final);
    proto_transcript_free(t);
    return f->n;
}

Test(replay, verified_log_prints_the_game)
{
    char path[128], final[PROTO_HASH_HEX], want[128];
    Frames f = {0};
    snprintf(path, sizeof path, "%s/a.log", dir);
    write_log(path, "laska", 30, 1, final, &f);
    Out *o = replay(path);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    snprintf(want, sizeof want, "final-hash: %s\n", final);
    cr_assert(strstr(o->out, want) != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "game: laska\n") != NULL);
    cr_assert(strstr(o->out, "   1. white ") != NULL);
    cr_assert(strstr(o->out, "  30. black ") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "[chat black] good luck") != NULL);
    cr_assert(strstr(o->out, "verified: ") != NULL);
    /* 30 plies of Laska end nothing: the writer resigned for the side to
     * move (ply 31, White) before the end record. */
    cr_assert(strstr(o->out, "[resign white]") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "result: 0-1 (resign)") != NULL, "%s", o->out);
    cr_assert_str_eq(o->err, "");
    frames_free(&f);
}

/* A log of version 1 (no relay's receipts) whose result is a claim
 * against an absent opponent rests on the claimant's word: replay says
 * so (a cheating player rewrote a lobby game's log to version 1 to keep
 * a claim its receipt had refuted). A resignation needs no witness. */
Test(replay, a_version_1_claim_is_said_to_rest_on_a_word)
{
    char path[128], final[PROTO_HASH_HEX];
    Frames f = {0};
    Proto_Identity w = ident(11), b = ident(12);
    Proto_Transcript *t = NULL;
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    Proto_Message m;
    uint8_t hash[PROTO_HASH_BYTES];
    size_t len;
    snprintf(path, sizeof path, "%s/claim.log", dir);
    cr_assert_eq(proto_transcript_new(&t, NULL), 0);
    play_match(t, &f, &w, &b, "laska", "", 4, 2);
    proto_message_init(&m, PROTO_KIND_CLAIM, &b);
    m.body.claim.what = PROTO_CLAIM_WIN;
    uint8_t *buf = seal_next(t, &b, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
    keep(&f, buf, len);
    proto_log_header_of(proto_transcript_start(t), &h);
    cr_assert_eq(proto_log_create(&log, path, &h), 0);
    for (size_t i = 0; i < f.n; i++)
        cr_assert_eq(proto_log_append(log, f.buf[i], f.len[i]), 0);
    proto_transcript_chain(t, hash);
    cr_assert_eq(proto_log_finish(log, proto_transcript_count(t), hash), 0);
    proto_log_close(log);
    proto_transcript_free(t);
    Out *o = replay(path);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    cr_assert(strstr(o->out, "result: 0-1 (abandon)") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "relay: none (a log of version 1): this result "
                             "rests on a player's word") != NULL,
              "%s", o->out);
    frames_free(&f);
    snprintf(path, sizeof path, "%s/resign.log", dir);
    write_log(path, "laska", 10, 1, final, &f);
    o = replay(path);
    cr_assert_eq(o->status, 0);
    cr_assert(strstr(o->out, "relay: none") == NULL, "%s", o->out);
    frames_free(&f);
}

Test(replay, a_flipped_byte_fails_with_ply_and_kind)
{
    char path[128], final[PROTO_HASH_HEX];
    Frames f = {0};
    snprintf(path, sizeof path, "%s/b.log", dir);
    write_log(path, "laska", 20, 1, final, &f);
    /* flip a byte in the signature of frame 6 (the 5th move, ply 5) */
    size_t off = PROTO_LOG_MAGIC_LEN;
    uint8_t *buf = NULL;
    size_t len;
    cr_assert_eq(proto_read_file(path, &buf, &len), 0);
    off += 4 + ((size_t)buf[off + 2] << 8 | buf[off + 3]); /* header */
    for (size_t i = 0; i < 6; i++)
        off += f.len[i];
    size_t frame_at = off;
    off += f.len[6] - 10;
    buf[off] ^= 0x10;
    FILE *fp = fopen(path, "wb");
    fwrite(buf, 1, len, fp);
    fclose(fp);
    free(buf);
    Out *o = replay(path);
    cr_assert_eq(o->status, 1);
    cr_assert(strstr(o->out, "FAILED at ply 5: bad signature") != NULL, "%s",
              o->out);
    /* docs/protocol.md: envelopes are counted from 1 in file order, so
     * f.buf[6] (seq 6) is envelope 7, at the byte its frame starts. */
    char want[64];
    snprintf(want, sizeof want, "(envelope 7, byte %zu)", frame_at);
    cr_assert(strstr(o->out, want) != NULL, "%s in %s", want, o->out);
    /* Said once: the report has it, standard error stays quiet. */
    cr_assert_str_eq(o->err, "");
    cr_assert(strstr(strstr(o->out, "FAILED") + 1, "FAILED") == NULL);
    cr_assert(strstr(o->out, "final-hash") == NULL);
    frames_free(&f);
}

Test(replay, a_torn_log_reads_to_the_last_whole_envelope)
{
    char path[128], cmd[256], final[PROTO_HASH_HEX];
    Frames f = {0};
    snprintf(path, sizeof path, "%s/c.log", dir);
    write_log(path, "laska", 12, 0, final, &f);
    snprintf(cmd, sizeof cmd, "truncate -s -7 %s", path);
    cr_assert_eq(system(cmd), 0);
    Out *o = replay(path);
    cr_assert_eq(o->status, 1);
    cr_assert(strstr(o->out, "torn tail") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "  11. white ") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "  12. ") == NULL, "%s", o->out);
    frames_free(&f);
}

Test(replay, export_reads_back_to_the_same_game)
{
    char path[128], pgn[128], args[300], final[PROTO_HASH_HEX], want[128];
    char text[8192];
    Frames f = {0};
    snprintf(path, sizeof path, "%s/d.log", dir);
    snprintf(pgn, sizeof pgn, "%s/d.pgn", dir);
    write_log(path, "laska", 400, 1, final, &f);
    snprintf(args, sizeof args, "%s --export %s --quiet", path, pgn);
    Out *o = replay(args);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    load(pgn, text, sizeof text);
    char fp[PROTO_FINGERPRINT_MAX];
    Proto_Identity w = ident(11);
    proto_fingerprint(w.pk, fp);
    snprintf(want, sizeof want, "[White \"%s\"]\n", fp);
    cr_assert(strstr(text, want) != NULL, "%s", text);
    cr_assert(strstr(text, "[Game \"laska\"]\n") != NULL);
    cr_assert(strstr(text, "[Date \"2023.11.14\"]\n") != NULL, "%s", text);
    cr_assert(strstr(text, "\n1. ") != NULL);
    o = replay(pgn);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    snprintf(want, sizeof want, "final-hash: %s\n", final);
    cr_assert(strstr(o->out, want) != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "plain record") != NULL);
    /* the export to standard output is the record alone */
    snprintf(args, sizeof args, "%s --export -", path);
    o = replay(args);
    cr_assert_eq(o->status, 0);
    cr_assert_str_eq(o->out, text);
    frames_free(&f);
}

Test(replay, plain_records_and_usage)
{
    char path[128];
    snprintf(path, sizeof path, "%s/r.pgn", dir);
    FILE *fp = fopen(path, "w");
    fputs("[Event \"club\"]\n1. 9-13 17-13-9 2. b2xd4 *\n", fp);
    fclose(fp);
    char args[200];
    snprintf(args, sizeof args, "%s --game laska", path);
    Out *o = replay(args);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    cr_assert(strstr(o->out, "   1. white 9-13") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "   3. white b2xd4") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "verified: 3 plies") != NULL);
    o = replay(path); /* no game named */
    cr_assert_eq(o->status, 2);
    fp = fopen(path, "w");
    fputs("[Game \"laska\"]\n1. c3-d4 e5-f4\n", fp);
    fclose(fp);
    o = replay(path);
    cr_assert_eq(o->status, 1);
    /* e5-f4 after "1. c3-d4 ": column 10 */
    cr_assert(strstr(o->out, "FAILED at ply 2: illegal move (line 2, column "
                             "10)") != NULL,
              "%s", o->out);
    /* A file of two games: the first is verified, and it is said that
     * only the first is read. */
    fp = fopen(path, "w");
    fputs("[Game \"laska\"]\n1. c3-d4 e5xc3 *\n\n[Game \"laska\"]\n1. c3-d4 "
          "e5-f4 *\n",
          fp);
    fclose(fp);
    o = replay(path);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    cr_assert(strstr(o->out, "verified: 2 plies") != NULL, "%s", o->out);
    cr_assert(strstr(o->err, "only the first game is read; the next one "
                             "begins at line 4") != NULL,
              "%s", o->err);
    cr_assert_eq(replay("--help")->status, 0);
    cr_assert(strstr(replay("--help")->out, "--export") != NULL);
    cr_assert_eq(replay("")->status, 2);
    cr_assert_eq(replay("/nonexistent/file")->status, 2);
    snprintf(args, sizeof args, "%s --bogus", path);
    cr_assert_eq(replay(args)->status, 2);
    snprintf(args, sizeof args, "%s --game chess", path);
    cr_assert_eq(replay(args)->status, 2);
}

Test(replay, game_with_spaces_in_its_notation)
{
    char path[128], pgn[128], args[300], final[PROTO_HASH_HEX], want[128];
    char text[16384];
    Frames f = {0};
    cr_assert_not_null(core_game_find("volleyball"));
    snprintf(path, sizeof path, "%s/v.log", dir);
    snprintf(pgn, sizeof pgn, "%s/v.pgn", dir);
    write_log(path, "volleyball", 80, 1, final, &f);
    Out *o = replay(path);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    cr_assert(strstr(o->out, "   1. white S ") != NULL, "%s", o->out);
    snprintf(args, sizeof args, "%s --export %s --quiet", path, pgn);
    cr_assert_eq(replay(args)->status, 0);
    load(pgn, text, sizeof text);
    cr_assert(strstr(text, "\n1. S ") != NULL, "%s", text);
    o = replay(pgn);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    snprintf(want, sizeof want, "final-hash: %s\n", final);
    cr_assert(strstr(o->out, want) != NULL, "%s", o->out);
    frames_free(&f);
}

Test(replay, every_game_replays_and_reads_its_export_back)
{
    for (size_t i = 0; i < core_game_count(); i++) {
        const char *game = core_game_name(core_game_at(i));
        char path[128], pgn[128], args[300], final[PROTO_HASH_HEX];
        char want[128];
        Frames f = {0};
        snprintf(path, sizeof path, "%s/%s.log", dir, game);
        snprintf(pgn, sizeof pgn, "%s/%s.pgn", dir, game);
        write_log(path, game, 40, 1, final, &f);
        frames_free(&f);
        snprintf(want, sizeof want, "final-hash: %s\n", final);
        Out *o = replay(path);
        cr_assert_eq(o->status, 0, "%s: %s%s", game, o->out, o->err);
        cr_assert(strstr(o->out, want) != NULL, "%s: %s", game, o->out);
        snprintf(args, sizeof args, "%s --export %s --quiet", path, pgn);
        cr_assert_eq(replay(args)->status, 0, "%s", game);
        o = replay(pgn);
        cr_assert_eq(o->status, 0, "%s: %s%s", game, o->out, o->err);
        cr_assert(strstr(o->out, want) != NULL, "%s: %s", game, o->out);
    }
}

Test(replay, record_ended_by_resignation_keeps_its_result)
{
    /* What `replay --export` writes for a log its guest resigned after
     * White's first move: the board is unfinished, the record says 1-0. */
    char path[128];
    snprintf(path, sizeof path, "%s/resigned.pgn", dir);
    FILE *fp = fopen(path, "w");
    fputs("[Game \"laska\"]\n[Result \"1-0\"]\n[Termination \"resign\"]\n"
          "\n1. a3-b4 1-0\n", fp);
    fclose(fp);
    Out *o = replay(path);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    cr_assert(strstr(o->out, "result: 1-0 (resign, as the record states)\n") !=
                  NULL, "%s", o->out);
    cr_assert(strstr(o->out, "stated-result: 1-0\n") != NULL, "%s", o->out);
    /* Without a Termination tag no reason is named; "*" stays the
     * board's unfinished game. */
    fp = fopen(path, "w");
    fputs("[Game \"laska\"]\n\n1. a3-b4 0-1\n", fp);
    fclose(fp);
    o = replay(path);
    cr_assert(strstr(o->out, "result: 0-1 (as the record states)\n") !=
                  NULL, "%s", o->out);
    fp = fopen(path, "w");
    fputs("[Game \"laska\"]\n\n1. a3-b4 *\n", fp);
    fclose(fp);
    o = replay(path);
    cr_assert(strstr(o->out, "result: * (unfinished)\n") != NULL, "%s", o->out);
}

/* Issue 20, finding 2: a record exported again kept its Result but lost
 * its Termination and MatchId tags (what `--export` of a resigned log
 * writes), so the re-export no longer said why the game ended. */
Test(replay, record_exported_again_keeps_termination_and_match_id)
{
    char path[128], pgn[128], args[300], text[4096];
    static const char id[] = "00112233445566778899aabbccddeeff";
    snprintf(path, sizeof path, "%s/resigned.pgn", dir);
    snprintf(pgn, sizeof pgn, "%s/again.pgn", dir);
    FILE *fp = fopen(path, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "[Game \"laska\"]\n[Result \"1-0\"]\n"
                "[Termination \"resign\"]\n[MatchId \"%s\"]\n"
                "\n1. a3-b4 1-0\n", id);
    fclose(fp);
    snprintf(args, sizeof args, "%s --export %s --quiet", path, pgn);
    Out *o = replay(args);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    load(pgn, text, sizeof text);
    cr_assert_not_null(strstr(text, "[Result \"1-0\"]\n"), "%s", text);
    cr_assert_not_null(strstr(text, "[Termination \"resign\"]\n"), "%s", text);
    cr_assert_not_null(strstr(text, "[MatchId \"00112233445566778899aabbccddeeff"
                                    "\"]\n"), "%s", text);
    /* and the second export reads as the first did */
    o = replay(pgn);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    cr_assert_not_null(strstr(o->out, "result: 1-0 (resign, as the record "
                                      "states)\n"), "%s", o->out);
    /* A record without those tags gets none made up. */
    fp = fopen(path, "w");
    fputs("[Game \"laska\"]\n\n1. a3-b4 *\n", fp);
    fclose(fp);
    cr_assert_eq(replay(args)->status, 0);
    load(pgn, text, sizeof text);
    cr_assert_null(strstr(text, "[Termination "), "%s", text);
    cr_assert_null(strstr(text, "[MatchId "), "%s", text);
}

/* A trial found a record exported again given `[Round "?"]` (and the
 * rest of PGN's seven-tag roster) it never had. The export keeps the
 * original's tags in its order, values as they were except those it
 * works out (Result), and adds only a Game tag when the game came from
 * --game. Laska's Lasker numbers 9-13 and 17-13-9 are c3-d4 and e5xc3
 * (docs/rules/laska.md); b2xd4 then takes back. */
static void put(const char *path, const void *data, size_t n);

/* record written to a file, replayed with args before --export, into
 * text (cap bytes): the export. */
static void export_of(const char *record, const char *args, char *text,
                      size_t cap)
{
    char path[128], pgn[128], cmd[400];
    snprintf(path, sizeof path, "%s/tags.pgn", dir);
    snprintf(pgn, sizeof pgn, "%s/tags-again.pgn", dir);
    put(path, record, strlen(record));
    snprintf(cmd, sizeof cmd, "%s %s --export %s --quiet", path, args, pgn);
    Out *o = replay(cmd);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    load(pgn, text, cap);
}

Test(replay, record_exported_again_adds_no_tags)
{
    char text[4096];
    export_of("[Site \"club\"]\n[Game \"Laska\"]\n[Annotator \"me\"]\n"
              "[Result \"1-0\"]\n[Termination \"resign\"]\n\n1. 9-13 1-0\n",
              "", text, sizeof text);
    cr_assert_str_eq(text, "[Site \"club\"]\n[Game \"Laska\"]\n"
                           "[Annotator \"me\"]\n[Result \"1-0\"]\n"
                           "[Termination \"resign\"]\n\n1. c3-d4 1-0\n");
    /* A record with one tag, its game named on the command line. */
    export_of("[Event \"club\"]\n1. 9-13 17-13-9 2. b2xd4 *\n",
              "--game laska", text, sizeof text);
    cr_assert_str_eq(text, "[Game \"laska\"]\n[Event \"club\"]\n\n"
                           "1. c3-d4 e5xc3 2. b2xd4 *\n");
}

Test(replay, plain_record_names_the_side_that_moved)
{
    /* Football chess: White's own goal (D-FC-5) in a 2-goal match gives
     * the move back to White, the side that conceded (D-FC-7), so White
     * makes plies 1 and 2: the second is not Black's. */
    char path[128];
    snprintf(path, sizeof path, "%s/owngoal.pgn", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("[Game \"football\"]\n[Options \"goals=2\"]\n"
          "[Position \"9/9/9/9/9/9/4Q4/4*4/9 w 0-0 0 0\"]\n"
          "1. e3*e1 d1-d2\n",
          f);
    fclose(f);
    Out *o = replay(path);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    cr_assert(strstr(o->out, "   1. white e3*e1 ") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "   2. white d1-d2 ") != NULL, "%s", o->out);
}

Test(replay, export_never_overwrites_the_replayed_file)
{
    char path[128], args[300], before[256], after[256];
    snprintf(path, sizeof path, "%s/self.pgn", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("[Game \"laska\"]\n1. c3-d4 e5xc3\n", f);
    fclose(f);
    load(path, before, sizeof before);
    snprintf(args, sizeof args, "%s --export %s", path, path);
    Out *o = replay(args);
    cr_assert_eq(o->status, 2);
    cr_assert(strstr(o->err, "would be overwritten") != NULL, "%s", o->err);
    load(path, after, sizeof after);
    cr_assert_str_eq(after, before);
}

/* ---- files that are not what they claim (issue 16) ---- */

static void put(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* replay ARGS must fail (status 1) with a FAILED line naming why. */
static void fails_with(const char *args, const char *why)
{
    Out *o = replay(args);
    cr_assert_eq(o->status, 1, "%s: status %d: %s%s", args, o->status, o->out,
                 o->err);
    cr_assert(strstr(o->out, "FAILED") != NULL, "%s: %s", args, o->out);
    cr_assert(strstr(o->out, why) != NULL, "%s: want '%s' in: %s", args, why,
              o->out);
}

Test(replay, damaged_short_empty_and_directory_fail_as_logs)
{
    char path[128], final[PROTO_HASH_HEX];
    Frames f = {0};
    uint8_t *buf = NULL;
    size_t len;

    snprintf(path, sizeof path, "%s/m.log", dir);
    write_log(path, "laska", 10, 1, final, &f);
    frames_free(&f);
    cr_assert_eq(proto_read_file(path, &buf, &len), 0);
    /* Issue 16 case 6: each byte of the magic damaged in turn. */
    for (size_t i = 0; i < PROTO_LOG_MAGIC_LEN; i++) {
        buf[i] ^= 0x20;
        put(path, buf, len);
        buf[i] ^= 0x20;
        fails_with(path, "damaged log");
    }
    /* Every byte of the magic lost: binary, not a record. */
    put(path, buf + PROTO_LOG_MAGIC_LEN, len - PROTO_LOG_MAGIC_LEN);
    fails_with(path, "NUL byte");
    /* Cut to a few bytes: torn inside the magic, or inside the header. */
    for (size_t n = 1; n < 20; n++) {
        put(path, buf, n);
        fails_with(path, "torn");
    }
    put(path, "", 0);
    fails_with(path, "empty");
    fails_with(dir, "is a directory");
    free(buf);
    /* A missing file stays a usage error, with what to give instead. */
    Out *o = replay("/nonexistent/file.log");
    cr_assert_eq(o->status, 2);
    cr_assert(strstr(o->err, "No such file") != NULL, "%s", o->err);
}

Test(replay, unended_log_has_its_own_status)
{
    char path[128], final[PROTO_HASH_HEX];
    Frames f = {0};

    snprintf(path, sizeof path, "%s/u.log", dir);
    write_log(path, "laska", 9, 0, final, &f);
    frames_free(&f);
    Out *o = replay(path);
    cr_assert_eq(o->status, 3, "%s%s", o->out, o->err);
    cr_assert(strstr(o->out, "verified: ") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "no end record") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "result: * (unfinished)") != NULL, "%s", o->out);
    /* Its export still works; the status stays 3. */
    char args[300];
    snprintf(args, sizeof args, "%s --export %s/u.pgn --quiet", path, dir);
    cr_assert_eq(replay(args)->status, 3);
    /* The help says it. */
    o = replay("--help");
    cr_assert(strstr(o->out, "[--ply N]") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "  3  ") != NULL, "%s", o->out);
}

Test(replay, forged_end_record_fails_at_that_record)
{
    char path[128], final[PROTO_HASH_HEX];
    Frames f = {0};
    Proto_Transcript *t = NULL;
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    uint8_t chain[PROTO_HASH_BYTES];

    /* A finished log, cut before its last envelope (the resignation)
     * and closed with an end record matching the rest. */
    snprintf(path, sizeof path, "%s/f.log", dir);
    write_log(path, "laska", 10, 1, final, &f);
    remove(path);
    cr_assert_eq(proto_transcript_new(&t, NULL), 0);
    for (size_t i = 0; i + 1 < f.n; i++)
        cr_assert_eq(add_frame(t, f.buf[i], f.len[i]), 0);
    proto_log_header_of(proto_transcript_start(t), &h);
    cr_assert_eq(proto_log_create(&log, path, &h), 0);
    for (size_t i = 0; i + 1 < f.n; i++)
        cr_assert_eq(proto_log_append(log, f.buf[i], f.len[i]), 0);
    proto_transcript_chain(t, chain);
    cr_assert_eq(proto_log_finish(log, proto_transcript_count(t), chain), 0);
    proto_log_close(log);
    proto_transcript_free(t);
    char want[64];
    snprintf(want, sizeof want, "(envelope %zu,", f.n);
    fails_with(path, want);
    fails_with(path, "not over");
    Out *o = replay(path);
    cr_assert(strstr(o->out, "verified") == NULL, "%s", o->out);
    frames_free(&f);
}

Test(replay, control_bytes_never_reach_the_terminal)
{
    /* Issue 16 case 11: an ESC sequence and a bell in a comment, a tag
     * and a move; a raw CSI (0x9b) and its UTF-8 form (C2 9B). */
    static const char rec[] =
        "[Game \"laska\"]\n[White \"\x1b]0;owned\x07\"]\n"
        "1. c3-d4 {\x1b[2J\x07} e5xc3 2. b2xd4\x1b[31m 1-0\n";
    char path[128], args[300];
    snprintf(path, sizeof path, "%s/ctl.pgn", dir);
    put(path, rec, sizeof rec - 1);
    Out *o = replay(path);
    cr_assert_eq(o->status, 1, "%s%s", o->out, o->err);
    cr_assert(strstr(o->out, "FAILED at ply 3") != NULL, "%s", o->out);
    cr_assert(strstr(o->out, "b2xd4?[31m") != NULL, "%s", o->out);
    cr_assert_null(strchr(o->out, 0x1b));
    cr_assert_null(strchr(o->out, 0x07));
    cr_assert_null(strchr(o->err, 0x1b));
    /* The valid record's exported White tag is made printable too. */
    static const char ok[] = "[Game \"laska\"]\n[White \"a\x1b[2Jb \xc2\x9b"
                             "c \xc3\xa9\"]\n1. c3-d4 e5xc3 *\n";
    put(path, ok, sizeof ok - 1);
    snprintf(args, sizeof args, "%s --export -", path);
    o = replay(args);
    cr_assert_eq(o->status, 0, "%s%s", o->out, o->err);
    cr_assert(strstr(o->out, "[White \"a?[2Jb ?c \xc3\xa9\"]") != NULL, "%s",
              o->out);
}

Test(replay, a_chat_with_control_bytes_is_printed_safely)
{
    char path[128];
    Proto_Identity w = ident(11), b = ident(12);
    Proto_Transcript *t = NULL;
    Proto_Log *log = NULL;
    Proto_Log_Header h;
    Proto_Message m;
    Frames f = {0};
    size_t len;

    snprintf(path, sizeof path, "%s/chat.log", dir);
    cr_assert_eq(proto_transcript_new(&t, NULL), 0);
    play_match(t, &f, &w, &b, "laska", "", 4, 2);
    proto_message_init(&m, PROTO_KIND_CHAT, &w);
    snprintf(m.body.text.text, sizeof m.body.text.text, "%s",
             "hi \xe2\x80\xae" "evil \xc3\xa9"); /* U+202E: right to left */
    uint8_t *buf = seal_next(t, &w, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
    keep(&f, buf, len);
    proto_log_header_of(proto_transcript_start(t), &h);
    cr_assert_eq(proto_log_create(&log, path, &h), 0);
    for (size_t i = 0; i < f.n; i++)
        cr_assert_eq(proto_log_append(log, f.buf[i], f.len[i]), 0);
    proto_log_close(log);
    proto_transcript_free(t);
    frames_free(&f);
    Out *o = replay(path);
    cr_assert_eq(o->status, 3, "%s%s", o->out, o->err);
    /* proto/ refuses C0 and C1 in chat; the override passes it. */
    cr_assert(strstr(o->out, "[chat white] hi ?evil \xc3\xa9\n") != NULL,
              "%s", o->out);
}

/* A witnessed Laska game at clock=60+0 played by the core's bot to the
 * board's end, whose last move (Black's or White's) the relay received
 * 120 s after the move before: by the receipt its mover lost on time (60 s
 * on the clock), whatever the board says. Its log, with every receipt
 * (cut 0) or without the last one (cut 1), into path; the side that made
 * the last move into *last. */
static void late_end_log(const char *path, int cut, int *last)
{
    Proto_Identity w = ident(1), b = ident(2), relay = ident(9);
    Proto_Transcript *t;
    Frames f = {0};
    Proto_Message m;
    size_t len;
    cr_assert_eq(proto_transcript_new(&t, NULL), 0);
    proto_transcript_witness_mode(t);
    proto_transcript_witness_absence(t);
    proto_message_init(&m, PROTO_KIND_MATCH_START, &w);
    memset(m.match_id, 0x42, PROTO_MATCH_ID_BYTES);
    snprintf(m.body.start.game, sizeof m.body.start.game, "laska");
    snprintf(m.body.start.options, sizeof m.body.start.options,
             "clock=60+0,relay=3");
    memcpy(m.body.start.white, w.pk, PROTO_KEY_BYTES);
    memcpy(m.body.start.black, b.pk, PROTO_KEY_BYTES);
    m.body.start.started = 1700000000;
    uint8_t *buf = seal_next(t, &w, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
    keep(&f, buf, len);
    for (unsigned ply = 0;
         ply < 1500 && proto_transcript_status(t).outcome == CORE_ONGOING;
         ply++) {
        const Core_Position *pos = proto_transcript_position(t);
        Core_Move mv;
        cr_assert_eq(bot_choose(pos, 1, ply * 31 + 7, &mv, NULL), 0);
        *last = core_side_to_move(pos);
        Core_Position *c = core_position_clone(pos);
        const Proto_Identity *id = *last == CORE_WHITE ? &w : &b;
        proto_message_init(&m, PROTO_KIND_MOVE, id);
        m.body.move.ply = core_ply(pos) + 1;
        m.body.move.has_clock = 1; /* (signed readings count for nothing
                                      in witnessed mode) */
        m.body.move.own_ms = 50000;
        m.body.move.opp_ms = 50000;
        cr_assert_eq(core_move_format(c, &mv, m.body.move.move,
                                      sizeof m.body.move.move),
                     0);
        cr_assert_eq(core_play(c, &mv), 0);
        proto_state_hash(c, m.body.move.hash);
        core_position_free(c);
        buf = seal_next(t, id, &m, &len);
        cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
        keep(&f, buf, len);
    }
    cr_assert_neq(proto_transcript_status(t).outcome, CORE_ONGOING);
    Proto_Log_Header h;
    Proto_Log *log;
    proto_log_header_of(proto_transcript_start(t), &h);
    h.version = 4; /* (receipts that attest presence, the room's host) */
    memcpy(h.room, w.pk, PROTO_KEY_BYTES);
    cr_assert_eq(proto_log_create_memory(&log, &h), 0);
    uint64_t at = 1700000000000ull;
    for (size_t i = 0; i < f.n; i++) {
        const uint8_t *env = f.buf[i] + PROTO_FRAME_PREFIX;
        size_t el = f.len[i] - PROTO_FRAME_PREFIX;
        cr_assert_eq(proto_log_append_envelope(log, env, el), 0);
        at += i + 1 == f.n ? 120000 : 200;
        if (cut && i + 1 == f.n)
            break;
        uint8_t hash[PROTO_HASH_BYTES], rec[PROTO_LOG_RECORD_MAX];
        Proto_Receipt r = {.kind = PROTO_RECEIPT_FRAME, .seq = 100 + 2 * i,
                           .time_ms = at};
        memcpy(r.guest, b.pk, PROTO_KEY_BYTES);
        proto_receipt_hash(env, el, hash);
        cr_assert_eq(proto_receipt_sign(&r, w.pk, hash, &relay), 0);
        size_t n = proto_log_receipt_record((uint32_t)i, &r, rec, sizeof rec);
        cr_assert_gt(n, 0);
        cr_assert_eq(proto_log_append_record(log, rec, n), 0);
    }
    const uint8_t *bytes = proto_log_bytes(log, &len);
    FILE *out = fopen(path, "wb");
    cr_assert_not_null(out);
    cr_assert_eq(fwrite(bytes, 1, len, out), len);
    fclose(out);
    proto_log_close(log);
    frames_free(&f);
    proto_transcript_free(t);
}

static uint8_t *file_bytes(const char *path, size_t *len)
{
    uint8_t *buf = NULL;
    cr_assert_eq(proto_read_file(path, &buf, len), 0, "%s", path);
    return buf;
}

/* A log cut before the relay's receipt of its ending move proves no end
 * (proto_log_status; a trial of 2026-12-07 rated the board's win of a
 * player who had lost on time so): replay says it stops short (status
 * 3), the ratings count it unfinished and a tournament takes no result
 * from it. The whole log: the mover lost on time, by all three. */
Test(replay, a_log_cut_before_its_last_receipt_proves_no_end)
{
    char full[128], cut[128], want[64];
    int last = -1;
    size_t len;
    Club_Rated_Game g;
    Club_Verdict v;
    Club_Dir_Log d;
    char why[200];
    cr_assert_eq(proto_init(), 0);
    snprintf(full, sizeof full, "%s/full.log", dir);
    snprintf(cut, sizeof cut, "%s/cut.log", dir);
    late_end_log(full, 0, &last);
    late_end_log(cut, 1, &last);
    /* by hand: the mover of the last move lost on time */
    const char *result = last == CORE_WHITE ? "0-1" : "1-0";

    Out *o = replay(full);
    cr_assert_eq(o->status, 0, "%s", o->out);
    snprintf(want, sizeof want, "result: %s (time)", result);
    cr_assert_not_null(strstr(o->out, want), "%s", o->out);
    uint8_t *buf = file_bytes(full, &len);
    cr_assert_eq(club_game_from_log(buf, len, 0, &g, &v, why, sizeof why), 0);
    cr_assert_eq(v, CLUB_RATED);
    cr_assert_eq(g.score, last == CORE_WHITE ? 0 : 2);
    cr_assert_eq(club_dir_log_game(buf, len, &d, why, sizeof why), 0, "%s",
                 why);
    cr_assert_eq(d.half[last == CORE_WHITE ? 1 : 0], 2);
    free(buf);

    o = replay(cut);
    cr_assert_eq(o->status, 3, "%s", o->out);
    cr_assert_not_null(strstr(o->out, "have no receipt"), "%s", o->out);
    buf = file_bytes(cut, &len);
    cr_assert_eq(club_game_from_log(buf, len, 0, &g, &v, why, sizeof why), 0);
    cr_assert_eq(v, CLUB_UNFINISHED);
    cr_assert_eq(club_dir_log_game(buf, len, &d, why, sizeof why), TB_E_STATE);
    cr_assert_str_eq(why, "the game is not over");
    free(buf);
}
