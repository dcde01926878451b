/*
 * test_cmd_archive.c: a relay's archive (tabula lobby --archive, issue
 * 38; docs/archive.md) through a real lobby: three bot games among three
 * players are kept as logs, listed, and their ratings published; read
 * back over HTTP the way any reader would (client/fetch.h), the
 * published logs give the published list byte for byte, and what the
 * index says of each game is what the players know of it (their keys,
 * the game, each log's size), not what the archive's own code wrote.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fetch.h"
#include "dir_sh.h"
#include "tb_error.h"

#define T TABULA_BINARY

/* (the pairs and who hosts: player a hosts b) */
static const int games[3][2] = {{1, 2}, {2, 3}, {3, 1}};

Test(archive, the_published_list_is_recomputed_from_the_published_logs,
     .timeout = 600)
{
    char keys[4][80], lobby[64], http[128], relay[64];
    snprintf(dir, sizeof dir, "/tmp/tabula-archive-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    for (int i = 1; i <= 3; i++) {
        char name[32];
        cr_assert_eq(sh(T " identity --file id%d > id%d.out", i, i), 0);
        snprintf(name, sizeof name, "id%d.out", i);
        line_value(name, "public-key: ", keys[i], sizeof keys[i]);
        cr_assert_eq(strlen(keys[i]), 64);
    }
    cr_assert_eq(sh("(" T " lobby --listen 127.0.0.1:0 --http 127.0.0.1:0 "
                    "--archive arch > lobby.out 2> lobby.err & "
                    "echo $! > lobby.pid)"),
                 0);
    wait_for("lobby.out", "relay key: ");
    line_value("lobby.out", "listening: ", lobby, sizeof lobby);
    line_value("lobby.out", "http: ", http, sizeof http);
    line_value("lobby.out", "relay key: ", relay, sizeof relay);

    for (int g = 0; g < 3; g++) {
        char name[32], code[64];
        int a = games[g][0], b = games[g][1];
        cr_assert_eq(sh("(" T " host laska --lobby %s --me --key id%d "
                        "--guest %s --bot=1 --delay 0 --seed %d --log "
                        "h%d.log > h%d.out 2>&1 &)",
                        lobby, a, keys[b], 11 + g, g, g),
                     0);
        snprintf(name, sizeof name, "h%d.out", g);
        wait_for(name, "invite: ");
        line_value(name, "invite: ", code, sizeof code);
        cr_assert_eq(sh(T " join %s --lobby %s --me --key id%d --bot=1 "
                          "--delay 0 --seed %d --log j%d.log > j%d.out 2>&1",
                        code, lobby, b, 21 + g, g, g),
                     0, "%s", slurp(name));
    }
    /* the list follows each kept log (both seats said DONE) */
    wait_for("arch/ratings.txt", "ratings: games 3 logs 3 skipped 0\n");

    /* read back as a reader would: over HTTP */
    char url[200], *index, *line, *save = NULL;
    uint8_t *buf;
    size_t len;
    char why[256];
    snprintf(url, sizeof url, "%sarchive", http);
    cr_assert_eq(fetch_get(url, "logs/index.txt", 1 << 20, &buf, &len, why,
                           sizeof why),
                 0, "%s", why);
    index = (char *)buf;
    cr_assert_eq(sh("mkdir got"), 0);
    int lines = 0, seen[3] = {0, 0, 0};
    for (line = strtok_r(index, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        char match[80], game[32], white[80], black[80], path[600];
        unsigned long long started, bytes;
        cr_assert_eq(sscanf(line, "%79s %31s %79s %79s %llu %llu", match,
                            game, white, black, &started, &bytes),
                     6, "%s", line);
        lines++;
        cr_assert_str_eq(game, "laska");
        cr_assert_eq(strlen(match), 64);
        cr_assert_gt(started, 1700000000ull); /* the host's clock, 2023+ */
        int g = -1;
        for (int k = 0; k < 3; k++)
            if (strcmp(white, keys[games[k][0]]) == 0 &&
                strcmp(black, keys[games[k][1]]) == 0)
                g = k;
        cr_assert_geq(g, 0, "no game of %s - %s", white, black);
        seen[g]++;
        /* the log itself, its size as the index says */
        uint8_t *log;
        size_t loglen;
        char name[120];
        snprintf(name, sizeof name, "logs/%s.log", match);
        cr_assert_eq(fetch_get(url, name, 16 << 20, &log, &loglen, why,
                               sizeof why),
                     0, "%s", why);
        cr_assert_eq(loglen, bytes);
        snprintf(path, sizeof path, "%s/got/%s.log", dir, match);
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f);
        cr_assert_eq(fwrite(log, 1, loglen, f), loglen);
        fclose(f);
        free(log);
        /* a finished match's whole record, with no end record (the
         * relay runs no rules): replay takes it as whole, status 0 */
        cr_assert_eq(sh(T " replay %s --quiet > replay.out 2>&1", path), 0,
                     "%s", slurp("replay.out"));
        cr_assert_not_null(strstr(slurp("replay.out"),
                                  "(no end record after the match's end"),
                           "%s", slurp("replay.out"));
    }
    free(buf);
    cr_assert_eq(lines, 3);
    cr_assert(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);

    /* the published list, recomputed from the published logs */
    cr_assert_eq(fetch_get(url, "ratings.txt", 1 << 20, &buf, &len, why,
                           sizeof why),
                 0, "%s", why);
    cr_assert_eq(sh(T " ratings got --relay %s > mine.txt", relay), 0);
    cr_assert_str_eq((char *)buf, slurp("mine.txt"));
    /* three games, each player in two, all witnessed by this relay */
    for (int i = 1; i <= 3; i++) {
        char fp[64];
        snprintf(fp, sizeof fp, "id%d.out", i);
        line_value(fp, "fingerprint: ", fp, sizeof fp);
        const char *row = strstr((char *)buf, fp);
        cr_assert_not_null(row, "%s not in %s", fp, (char *)buf);
        size_t n = strcspn(row, "\n");
        cr_assert(n > 2 && row[n - 1] == '2' && row[n - 2] == ' ',
                  "%.*s", (int)n, row);
    }
    {
        char want[100];
        snprintf(want, sizeof want, "relay: %s 3\n", relay);
        cr_assert_not_null(strstr((char *)buf, want), "%s", (char *)buf);
    }
    /* the archive's logs are the players' games: with the players' own
     * logs, each match counts once */
    cr_assert_eq(sh("cp h0.log h1.log h2.log j0.log got/ && " T
                    " ratings got --relay %s > all.txt",
                    relay),
                 0);
    cr_assert_str_eq(slurp("all.txt"), slurp("mine.txt"));
    free(buf);

    /* The pool pairs by that list (docs/pool.md "Rated offers"): player
     * 1 waits; player 2 asks for players rated above player 1 and is not
     * paired with it; player 3 asks for player 1's rating exactly and is.
     * (The pool's games have no clock: the untimed class, as these.) */
    {
        char fp[64], pat[128];
        unsigned r1 = 0;
        line_value("id1.out", "fingerprint: ", fp, sizeof fp);
        snprintf(pat, sizeof pat, "rating: laska untimed %s ", fp);
        const char *row = strstr(slurp("arch/ratings.txt"), pat);
        cr_assert_not_null(row);
        cr_assert_eq(sscanf(row + strlen(pat), "%u", &r1), 1);
        cr_assert(r1 > 0 && r1 < 65535);
        cr_assert_eq(sh("(" T " pool laska --lobby %s --me --key id1 "
                        "--bot=1 --delay 0 > p1.out 2>&1 &)",
                        lobby),
                     0);
        wait_for("p1.out", "pool: waiting (laska 1)\n");
        cr_assert_eq(sh("(" T " pool laska --lobby %s --me --key id2 "
                        "--rating %u..65535 --bot=1 --delay 0 > p2.out 2>&1 "
                        "& echo $! > p2.pid)",
                        lobby, r1 + 1),
                     0);
        wait_for("p2.out", "pool: waiting (laska 2)");
        usleep(500000);
        cr_assert_null(strstr(slurp("p1.out"), "paired"), "%s",
                       slurp("p1.out"));
        cr_assert_eq(sh(T " pool laska --lobby %s --me --key id3 --rating "
                          "%u..%u --bot=1 --delay 0 > p3.out 2>&1",
                        lobby, r1, r1),
                     0, "%s", slurp("p3.out"));
        cr_assert_not_null(strstr(slurp("p3.out"), "pool: paired: guest"),
                           "%s", slurp("p3.out"));
        wait_for("p1.out", "pool: paired: host");
        cr_assert_null(strstr(slurp("p2.out"), "paired"), "%s",
                       slurp("p2.out"));
        sh("kill $(cat p2.pid)");
        /* played under the players' own keys: rated with theirs */
        wait_for("arch/ratings.txt", "ratings: games 4 logs 4 skipped 0\n");
    }

    /* nothing but the archive's folder is served below /archive/ */
    cr_assert_eq(fetch_get(url, "../lobby.out", 1 << 20, &buf, &len, why,
                           sizeof why),
                 TB_E_ARG);
    cr_assert_eq(fetch_get(url, "logs/none.log", 1 << 20, &buf, &len, why,
                           sizeof why),
                 TB_E_NOFILE);
    sh("kill $(cat lobby.pid)");
    sh("cd / && rm -rf '%s'", dir);
}

/* The archive's total (--archive-max-mib): a folder holding 1 MiB of logs
 * already keeps no new game past a 1 MiB cap, and the lobby says so. */
Test(archive, a_full_archive_keeps_no_new_game, .timeout = 300)
{
    char lobby[64], code[64];
    snprintf(dir, sizeof dir, "/tmp/tabula-archive-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(sh("mkdir -p arch/logs && head -c 1048576 /dev/zero > "
                    "arch/logs/filler.log"),
                 0);
    cr_assert_eq(sh("(" T " lobby --listen 127.0.0.1:0 --archive arch "
                    "--archive-max-mib 1 > lobby.out 2> lobby.err & "
                    "echo $! > lobby.pid)"),
                 0);
    wait_for("lobby.out", "relay key: ");
    line_value("lobby.out", "listening: ", lobby, sizeof lobby);
    cr_assert_eq(sh("(" T " host laska --lobby %s --bot=1 --delay 0 --seed 5 "
                    "> h.out 2>&1 &)",
                    lobby),
                 0);
    wait_for("h.out", "invite: ");
    line_value("h.out", "invite: ", code, sizeof code);
    cr_assert_eq(sh(T " join %s --lobby %s --bot=1 --delay 0 --seed 6 > "
                      "j.out 2>&1",
                    code, lobby),
                 0);
    wait_for("lobby.err", "the archive is full (1 MiB, --archive-max-mib)");
    cr_assert_eq(sh("ls arch/logs | grep -v '^filler.log$' | grep -c . "
                    "> n.out; true"),
                 0);
    cr_assert_str_eq(slurp("n.out"), "0\n");
    sh("kill $(cat lobby.pid)");
    sh("cd / && rm -rf '%s'", dir);
}
