/*
 * test_cmd_director_play.c: a tournament with real processes (issue 38)
 * where nobody types a code: a 4-player Laska round robin whose
 * tournament names its lobby and its relay, published over HTTP by that
 * relay (`tabula lobby --http --archive`), each player's bot running
 * `tabula tournament play URL` in the background while the director
 * pairs and collects round by round; each player hears "your game in
 * round N is ready" and plays the colour the Berger table gives. Then
 * the relay's check (a tournament naming another relay refuses the
 * logs, and verify finds a log of another relay), `collect --from` a
 * relay archive's index (a folder, then its URL; bad index lines named
 * and skipped) and from the relay's own archive. A Swiss with declared
 * forfeits and two late entries (one with half-point byes) whose
 * standings and TRF are derived by hand from FIDE's rules.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "club.h"
#include "dir_sh.h"
#include "director.h"
#include "proto.h"

#define T TABULA_BINARY

static char keys[8][80];

/* Identities id0 (the director) .. idN, keys[i] their public keys. */
static void identities(int n)
{
    for (int i = 0; i <= n; i++) {
        char name[32];
        cr_assert_eq(sh(T " identity --file id%d > id%d.out", i, i), 0);
        snprintf(name, sizeof name, "id%d.out", i);
        const char *pk = strstr(slurp(name), "public-key: ");
        cr_assert_not_null(pk);
        snprintf(keys[i], sizeof keys[i], "%.64s", pk + 12);
    }
}

/* The start envelope's hash of a log (the archive's MATCH). */
static void on_envelope(void *ctx, const Proto_Transcript *t,
                        const Proto_Envelope *e)
{
    (void)t;
    uint8_t *h = ctx;
    if (h[PROTO_HASH_BYTES] == 0) {
        memcpy(h, e->hash, PROTO_HASH_BYTES);
        h[PROTO_HASH_BYTES] = 1;
    }
}

/* An archive's logs/index.txt line for the log file path (copied to
 * arch/logs/MATCH.log), appended to arch/logs/index.txt. */
static void archive_add(const char *arch, const char *path)
{
    char full[512], out[512], hex[3][PROTO_HASH_HEX];
    uint8_t *buf = NULL, h[PROTO_HASH_BYTES + 1] = {0};
    size_t len = 0;
    Proto_Transcript *t = NULL;
    Proto_Log_Report rep;
    Club_Dir_Log lg;
    snprintf(full, sizeof full, "%s/%s", dir, path);
    cr_assert_eq(proto_read_file(full, &buf, &len), 0, "%s", full);
    cr_assert_eq(club_log_open(buf, len, on_envelope, h, &t, &rep, NULL, 0), 0);
    proto_transcript_free(t);
    cr_assert_eq(club_dir_log_game(buf, len, &lg, NULL, 0), 0);
    proto_hex(h, PROTO_HASH_BYTES, hex[0]);
    proto_hex(lg.white, PROTO_KEY_BYTES, hex[1]);
    proto_hex(lg.black, PROTO_KEY_BYTES, hex[2]);
    snprintf(out, sizeof out, "%s/%s/logs/%s.log", dir, arch, hex[0]);
    FILE *f = fopen(out, "wb");
    cr_assert_not_null(f, "%s", out);
    cr_assert_eq(fwrite(buf, 1, len, f), len);
    fclose(f);
    snprintf(out, sizeof out, "%s/%s/logs/index.txt", dir, arch);
    f = fopen(out, "a");
    cr_assert_not_null(f);
    fprintf(f, "%s laska %s %s 1700000000 %zu\n", hex[0], hex[1], hex[2], len);
    fclose(f);
    free(buf);
}

/* The Berger table of 4 (FIDE C.05 annex): round r's boards by starting
 * rank, White first. */
static const int berger4[3][2][2] = {
    {{1, 4}, {2, 3}}, {{4, 3}, {1, 2}}, {{2, 4}, {3, 1}}};

/* Round r's played logs collected: each player's log of round r handed
 * in alone until both boards have their result. */
static void collect_round(const char *folder, int r)
{
    int boards[3] = {0};
    for (int k = 0; k < 600 && !(boards[1] && boards[2]); k++) {
        for (int i = 1; i <= 4; i++) {
            char name[32];
            sh(T " tournament collect %s p%d/round-%d.log --key id0 > "
                 "c.out 2>&1",
               folder, i, r);
            for (int b = 1; b <= 2; b++) {
                snprintf(name, sizeof name, "round %d board %d ", r, b);
                if (strstr(slurp("c.out"), name) != NULL)
                    boards[b] = 1;
            }
        }
        usleep(500000);
    }
    cr_assert(boards[1] && boards[2], "round %d not collected", r);
}

Test(director_play, players_play_from_the_url_collect_from_an_archive,
     .timeout = 300)
{
    char lobby[64], relay[32], url[128];
    snprintf(dir, sizeof dir, "/tmp/tabula-dplay-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(proto_init(), 0);
    identities(4);
    cr_assert_eq(sh("mkdir -p arch/tournaments arch/mine/logs p1 p2 p3 p4 "
                    "web && echo '<!doctype html><title>p</title>' > "
                    "web/index.html"),
                 0);
    cr_assert_eq(sh("(" T " lobby --listen 127.0.0.1:0 --http 127.0.0.1:0 "
                    "--web web --archive arch > lobby.out 2>&1 & echo $! > "
                    "lobby.pid)"),
                 0);
    line_value("lobby.out", "listening: ", lobby, sizeof lobby);
    line_value("lobby.out", "relay key: ", relay, sizeof relay);
    line_value("lobby.out", "http: ", url, sizeof url);

    /* the tournament names its lobby and relay; published by the relay */
    cr_assert_eq(sh(T " tournament create arch/tournaments/open --game laska "
                      "--system rr --clock 5+0 --lobby %s --relay %s --key "
                      "id0 > create.out",
                    lobby, relay),
                 0);
    cr_assert_not_null(strstr(slurp("arch/tournaments/open/tournament.txt"),
                              "\nlobby 127.0.0.1:"));
    cr_assert_not_null(
        strstr(slurp("arch/tournaments/open/tournament.txt"), "\nrelay "));
    for (int i = 1; i <= 4; i++)
        cr_assert_eq(sh(T " tournament register arch/tournaments/open %s "
                          "--key id0 > /dev/null",
                        keys[i]),
                     0);
    /* a key not registered is refused, clearly */
    cr_assert_eq(sh(T " tournament play %sarchive/tournaments/open/ --key id0 "
                      "> nr.out 2>&1",
                    url),
                 1);
    cr_assert_not_null(strstr(slurp("nr.out"), "is not registered"), "%s",
                       slurp("nr.out"));

    for (int i = 1; i <= 4; i++)
        cr_assert_eq(sh("( " T " tournament play %sarchive/tournaments/open/ "
                        "--key id%d --bot=1 --log-dir p%d > p%d.out 2>&1; "
                        "echo $? > p%d.rc ) &",
                        url, i, i, i, i),
                     0);
    /* each waits, saying so once, before round 1 is paired */
    for (int i = 1; i <= 4; i++) {
        char out[32];
        snprintf(out, sizeof out, "p%d.out", i);
        for (int k = 0; k < 300 && strstr(slurp(out), "waiting for round 1's "
                                                      "pairing\n") == NULL;
             k++)
            usleep(100000);
        cr_assert_str_eq(slurp(out), "waiting for round 1's pairing\n");
    }
    for (int r = 1; r <= 3; r++) {
        cr_assert_eq(sh(T " tournament pair arch/tournaments/open --key id0 "
                          "> pair%d.out",
                        r),
                     0);
        /* (pair prints the tournament's lobby in the commands) */
        char file[32], want[96];
        snprintf(file, sizeof file, "pair%d.out", r);
        snprintf(want, sizeof want, "--lobby %s --me", lobby);
        cr_assert_not_null(strstr(slurp(file), want), "%s", slurp(file));
        collect_round("arch/tournaments/open", r);
    }
    for (int i = 1; i <= 4; i++) {
        char rc[32], out[32];
        snprintf(rc, sizeof rc, "p%d.rc", i);
        snprintf(out, sizeof out, "p%d.out", i);
        for (int k = 0; k < 600 && slurp(rc)[0] == '\0'; k++)
            usleep(100000);
        cr_assert_str_eq(slurp(rc), "0\n", "player %d: %s", i, slurp(out));
        char *o = strdup(slurp(out));
        for (int r = 1; r <= 3; r++) {
            char ready[64], next[64];
            snprintf(ready, sizeof ready, "your game in round %d is ready", r);
            snprintf(next, sizeof next, "your game in round %d is ready",
                     r + 1);
            char *at = strstr(o, ready);
            cr_assert_not_null(at, "player %d round %d: %s", i, r, o);
            char *end = strstr(at, next);
            if (end != NULL)
                *end = '\0';
            int white = berger4[r - 1][0][0] == i || berger4[r - 1][1][0] == i;
            cr_assert_eq(strstr(at, "you are white") != NULL, white,
                         "player %d round %d: %s", i, r, at);
            if (end != NULL)
                *end = 'y';
        }
        free(o);
    }
    cr_assert_eq(sh(T " tournament verify arch/tournaments/open > v.out "
                      "2>&1"),
                 0, "%s", slurp("v.out"));
    cr_assert_not_null(strstr(slurp("v.out"), "verified: 3 rounds, 6 games"));
    /* anyone verifies it from its URL, the kept logs too */
    cr_assert_eq(sh(T " tournament verify %sarchive/tournaments/open/ > "
                      "vu.out 2>&1",
                    url),
                 0, "%s", slurp("vu.out"));
    cr_assert_not_null(strstr(slurp("vu.out"), "verified: 3 rounds, 6 games"));
    /* a round robin takes no late entry */
    cr_assert_eq(sh(T " tournament register arch/tournaments/open %s --key "
                      "id0 > late.out 2>&1",
                    keys[0]),
                 1);
    cr_assert_not_null(strstr(slurp("late.out"), "Swiss tournament only"));

    /* the relay named: a tournament naming another refuses these logs */
    cr_assert_eq(sh(T " tournament create other --game laska --system rr "
                      "--clock 5+0 --relay %s --key id0 > /dev/null && "
                      "for k in %s %s %s %s; do " T " tournament register "
                      "other $k --key id0 > /dev/null; done && " T
                      " tournament pair other --key id0 > /dev/null",
                    keys[0], keys[1], keys[2], keys[3], keys[4]),
                 0);
    cr_assert_eq(sh(T " tournament collect other "
                      "arch/tournaments/open/logs/round-1-board-1.log --key "
                      "id0 > o.out 2>&1"),
                 1);
    cr_assert_not_null(strstr(slurp("o.out"), "a receipt is by another relay "
                                              "than the tournament's"),
                       "%s", slurp("o.out"));
    /* ... and verify finds a kept log of another relay: the tournament
     * document signed again naming another relay */
    {
        Club_Dir *d = club_dir_new();
        Proto_Identity id;
        char path[512], *out = malloc(CLUB_DIR_DOC_MAX);
        uint8_t *buf = NULL;
        size_t len = 0;
        cr_assert_eq(sh("cp -r arch/tournaments/open forged"), 0);
        snprintf(path, sizeof path, "%s/forged/tournament.txt", dir);
        cr_assert_eq(proto_read_file(path, &buf, &len), 0);
        cr_assert_eq(club_dir_read(d, CLUB_DOC_TOURNAMENT, buf, len, NULL), 0);
        memcpy(d->relay, keys[0], 2 * PROTO_KEY_BYTES);
        d->relay[2 * PROTO_KEY_BYTES] = '\0';
        snprintf(path, sizeof path, "%s/id0", dir);
        cr_assert_eq(proto_identity_load(&id, path, NULL), 0);
        int n = club_dir_write(d, CLUB_DOC_TOURNAMENT, 0, NULL, &id, out,
                               CLUB_DIR_DOC_MAX);
        cr_assert_gt(n, 0);
        snprintf(path, sizeof path, "%s/forged/tournament.txt", dir);
        FILE *f = fopen(path, "wb");
        cr_assert_eq(fwrite(out, 1, (size_t)n, f), (size_t)n);
        fclose(f);
        free(out);
        free(buf);
        club_dir_free(d);
        cr_assert_eq(sh(T " tournament verify forged > f.out 2>&1"), 1);
        cr_assert_not_null(strstr(slurp("f.out"), "round-1.results: board 1: "
                                                  "the log is not the "
                                                  "tournament's relay's"),
                           "%s", slurp("f.out"));
    }

    /* collect --from a relay's archive: its index lists every game's log
     * (and hostile lines); a second tournament of the same players pairs
     * round 1 and 2 alike (Berger) and takes them from there */
    for (int r = 1; r <= 3; r++)
        for (int b = 1; b <= 2; b++) {
            char p[96];
            snprintf(p, sizeof p,
                     "arch/tournaments/open/logs/round-%d-board-%d.log", r, b);
            archive_add("arch/mine", p);
        }
    cr_assert_eq(
        sh("cd arch/mine/logs && printf 'garbage\\n' >> index.txt && "
           "sed -n 1p index.txt | sed 's/ laska / nogame /' >> index.txt && "
           "sed -n 1p index.txt | sed 's/ [0-9]*$/ 12/' >> index.txt && "
           "sed -n 1p index.txt | sed 's/^./G/' >> index.txt && "
           "printf 'x y' >> index.txt"),
        0);
    cr_assert_eq(sh(T " tournament create second --game laska --system rr "
                      "--clock 5+0 --relay %s --key id0 > /dev/null && "
                      "for k in %s %s %s %s; do " T " tournament register "
                      "second $k --key id0 > /dev/null; done && " T
                      " tournament pair second --key id0 > /dev/null",
                    relay, keys[1], keys[2], keys[3], keys[4]),
                 0);
    cr_assert_eq(sh(T " tournament collect second --from arch/mine --key id0 "
                      "> s1.out 2> s1.err"),
                 0, "%s", slurp("s1.err"));
    cr_assert_not_null(strstr(slurp("s1.out"), "collected: round 1 board 1 "));
    cr_assert_not_null(strstr(slurp("s1.out"), "collected: round 1 board 2 "));
    cr_assert_null(strstr(slurp("s1.out"), "round 2"));
    const char *bad[] = {"index.txt:7: skipped", "index.txt:8: skipped",
                         "index.txt:10: skipped", "index.txt:11: skipped"};
    for (size_t k = 0; k < 4; k++)
        cr_assert_not_null(strstr(slurp("s1.err"), bad[k]), "%s: %s", bad[k],
                           slurp("s1.err"));
    /* (line 9, BYTES 12, names round 1's board 1 log: done already) */
    cr_assert_eq(sh(T " tournament pair second --key id0 > /dev/null && " T
                      " tournament collect second --from "
                      "%sarchive/mine/ --key id0 > s2.out 2> s2.err",
                    url),
                 0, "%s", slurp("s2.err"));
    cr_assert_not_null(strstr(slurp("s2.out"), "collected: round 2 board 1 "));
    cr_assert_not_null(strstr(slurp("s2.out"), "collected: round 2 board 2 "));
    cr_assert_eq(sh(T " tournament verify second > v2.out 2>&1"), 0, "%s",
                 slurp("v2.out"));
    cr_assert_not_null(strstr(slurp("v2.out"), "verified: 2 rounds, 4 games"));
    /* the same results as the ones handed in */
    cr_assert_eq(sh("cmp arch/tournaments/open/logs/round-2-board-1.log "
                    "second/logs/round-2-board-1.log"),
                 0);

    /* the relay's own archive (its logs/index.txt, written as the games
     * ended): a third tournament of the same players takes round 1 from
     * it over HTTP */
    cr_assert_eq(sh(T " tournament create third --game laska --system rr "
                      "--clock 5+0 --relay %s --key id0 > /dev/null && "
                      "for k in %s %s %s %s; do " T " tournament register "
                      "third $k --key id0 > /dev/null; done && " T
                      " tournament pair third --key id0 > /dev/null",
                    relay, keys[1], keys[2], keys[3], keys[4]),
                 0);
    cr_assert_eq(sh(T " tournament collect third --from %sarchive --key id0 "
                      "> s3.out 2> s3.err",
                    url),
                 0, "%s", slurp("s3.err"));
    cr_assert_not_null(strstr(slurp("s3.out"), "collected: round 1 board 1 "));
    cr_assert_not_null(strstr(slurp("s3.out"), "collected: round 1 board 2 "));

    sh("kill $(cat lobby.pid)");
    char rm[300];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    cr_assert_eq(system(rm), 0);
}

/* The points (half points) of each player in a results document's
 * standing lines, into pts[1..n]. */
static void standing_points(const char *file, int n, int *pts)
{
    char *s = strdup(slurp(file)), *save = NULL;
    for (char *l = strtok_r(s, "\n", &save); l != NULL;
         l = strtok_r(NULL, "\n", &save)) {
        int place, player, p;
        if (sscanf(l, "standing %d %d %d", &place, &player, &p) == 3 &&
            player >= 1 && player <= n)
            pts[player] = p;
    }
    free(s);
}

/* A Swiss of five where nobody plays: round 1 (Dutch: 1-3, 4-2, the bye
 * to 5, the lowest ranked) settled by declared forfeits (board 1 White
 * wins, board 2 neither), then two late entries from round 2, one with
 * half-point byes for the round missed. Hand-derived (FIDE: a forfeit
 * win scores as a win, a forfeit loss 0, a pairing-allocated bye 1, a
 * half-point bye 1/2, an absence 0): after round 1 the half points are
 * 1: 2, 2: 0, 3: 0, 4: 0, 5: 2, 6: 1, 7: 0; TRF round 1 codes +, -, -,
 * -, U, H, Z. verify re-pairs round 2 with the late entrants. */
Test(director_play, forfeits_and_late_entries_in_a_swiss, .timeout = 120)
{
    snprintf(dir, sizeof dir, "/tmp/tabula-dlate-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    identities(7);
    cr_assert_eq(sh(T " tournament create S --game laska --system swiss "
                      "--rounds 3 --key id0 > /dev/null"),
                 0);
    /* --bye-half before round 1: refused */
    cr_assert_eq(sh(T " tournament register S %s --bye-half --key id0 "
                      "2> /dev/null",
                    keys[1]),
                 2);
    for (int i = 1; i <= 5; i++)
        cr_assert_eq(sh(T " tournament register S %s --name 'P%d' --key id0 "
                          "> /dev/null",
                        keys[i], i),
                     0);
    cr_assert_eq(sh(T " tournament pair S --key id0 > pair1.out"), 0);
    cr_assert_eq(sh(T " tournament verify S > /dev/null"), 0);
    cr_assert_eq(sh(T " tournament forfeit S 1 3 --winner white --key id0 "
                      "2> bye.err"),
                 1); /* (board 3: the bye) */
    cr_assert_eq(sh(T " tournament forfeit S 1 1 --winner nobody --key id0 "
                      "2> /dev/null"),
                 2);
    cr_assert_eq(sh(T " tournament forfeit S 1 1 --winner white --key id0 > "
                      "f.out && " T " tournament forfeit S 1 2 --winner none "
                      "--key id0 >> f.out"),
                 0);
    cr_assert_str_eq(slurp("f.out"), "forfeit: round 1 board 1 white\n"
                                     "forfeit: round 1 board 2 none\n");
    cr_assert_eq(sh(T " tournament forfeit S 1 1 --winner black --key id0 "
                      "2> again.err"),
                 1);
    cr_assert_not_null(strstr(slurp("again.err"), "has its result already"));
    cr_assert_eq(sh(T " tournament register S %s --name P6 --bye-half --key "
                      "id0 > reg.out && " T " tournament register S %s "
                      "--name P7 --key id0 >> reg.out",
                    keys[6], keys[7]),
                 0);
    cr_assert_not_null(strstr(slurp("reg.out"), "from round 2 half\n"));
    cr_assert_not_null(strstr(slurp("reg.out"), "registered: 7 "));
    int pts[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    const int want[8] = {0, 2, 0, 0, 0, 2, 1, 0};
    standing_points("S/round-1.results", 7, pts);
    for (int i = 1; i <= 7; i++)
        cr_assert_eq(pts[i], want[i], "player %d: %d", i, pts[i]);
    cr_assert_eq(sh(T " tournament pair S --key id0 > pair2.out"), 0);
    /* seven in round 2: three boards and a bye, the late entrants in */
    int lines = 0;
    for (const char *p = slurp("pair2.out");
         (p = strstr(p, "round 2: ")) != NULL; p++)
        lines++;
    cr_assert_eq(lines, 4, "%s", slurp("pair2.out"));
    cr_assert_eq(sh(T " tournament verify S > v.out 2>&1"), 0, "%s",
                 slurp("v.out"));
    cr_assert_not_null(strstr(slurp("v.out"),
                              "forfeit: round 1 board 1 white: the "
                              "director's signed word, no log\n"));
    cr_assert_eq(sh(T " tournament export S > s.trf"), 0);
    /* each player's round 1 in TRF: opponent, colour, result */
    const char *r1[8] = {NULL,         "  0003 w +", "  0004 b -",
                         "  0001 b -", "  0002 w -", "  0000 - U",
                         "  0000 - H", "  0000 - Z"};
    char *trf = strdup(slurp("s.trf")), *save = NULL;
    int seen = 0;
    for (char *l = strtok_r(trf, "\r\n", &save); l != NULL;
         l = strtok_r(NULL, "\r\n", &save)) {
        int rank;
        if (strncmp(l, "001 ", 4) != 0 || sscanf(l + 4, "%d", &rank) != 1 ||
            rank < 1 || rank > 7 || strlen(l) < 70)
            continue;
        /* (the first round's field: an opponent's four digits, the
         * points before it have a point) */
        const char *g = strstr(l + 60, "  000");
        cr_assert(g != NULL && strncmp(g, r1[rank], 10) == 0, "player %d: %s",
                  rank, l);
        seen++;
    }
    free(trf);
    cr_assert_eq(seen, 7);
    /* the TRF re-paired (the TRF reader's path) gives round 2 again */
    cr_assert_eq(sh(T " tournament swiss-pair s.trf --round 2 > sp.out"), 0);
    char *pairs = strdup(slurp("pair2.out"));
    save = NULL;
    int boards = 0;
    for (char *l = strtok_r(pairs, "\n", &save); l != NULL;
         l = strtok_r(NULL, "\n", &save)) {
        char wf[32], bf[32], board[32], name[32];
        int w = 0, b = 0;
        if (sscanf(l, "round 2: %31s - %31s", wf, bf) != 2)
            continue;
        for (int i = 1; i <= 7; i++) { /* (rank i is idi: registered so) */
            snprintf(name, sizeof name, "id%d.out", i);
            if (strstr(slurp(name), wf) != NULL)
                w = i;
            if (strstr(slurp(name), bf) != NULL)
                b = i;
        }
        snprintf(board, sizeof board, " %d-%d", w, b);
        cr_assert_not_null(strstr(slurp("sp.out"), board), "%s in %s", board,
                           slurp("sp.out"));
        boards++;
    }
    free(pairs);
    cr_assert_eq(boards, 3);
    char rm[300];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    cr_assert_eq(system(rm), 0);
}
