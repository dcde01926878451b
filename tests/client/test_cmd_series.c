/*
 * test_cmd_series.c: `tabula host GAME --series N` (issue 38) with real
 * processes: two bots play a series through a lobby, colours alternating,
 * no code typed after the first; both print the same score mirrored and
 * keep one record of the games, whose logs verify; a series of Chess
 * volleyball gives each game the seed's table points (3 : 0 for 2-0 in
 * sets, 2 : 1 for 2-1), recomputed here from each game's final position.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "proto.h"

#define PROC_DIR_NAME "cmdseries"
#include "proc_util.h"
#include "tmux_util.h"

/* A series of games of GAME with options opts between two bots (level 1)
 * on a lobby of their own; host and guest keep their seats' files in
 * dir/A and dir/B. */
static void play_series(const char *game, const char *opts, const char *n,
                        Proc *host, Proc *guest, Proc *lobby)
{
    char at[64], invite[40];
    static char env_a[400], env_b[400];
    snprintf(env_a, sizeof env_a, "XDG_DATA_HOME=%s/A", dir);
    snprintf(env_b, sizeof env_b, "XDG_DATA_HOME=%s/B", dir);
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(lobby, "lobby", NULL, la);
    await_line(lobby, "listening: ", at, sizeof at);
    char *ha[] = {"host",   (char *)game, "--options", (char *)opts,
                  "--series", (char *)n,  "--bot=1",   "--lobby",
                  at,       NULL};
    start(host, "host", env_a, ha);
    await_line(host, "invite: ", invite, sizeof invite);
    char *ja[] = {"join", invite, "--bot=1", "--lobby", at, NULL};
    start(guest, "guest", env_b, ja);
    cr_assert_eq(finish(host), 0, "%s", slurp(host->err));
    cr_assert_eq(finish(guest), 0, "%s", slurp(guest->err));
}

/* The record's game lines of the player in folder sub (A or B): each
 * "game: K WHITE BLACK RESULT REASON TW TB LOG" into lines[]. */
static int record_games(const char *sub, char lines[][1200], int cap)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cat %s/%s/tabula/seats/series-*.txt", dir, sub);
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f);
    int n = 0;
    char line[1200];
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "game: ", 6) == 0 && n < cap)
            snprintf(lines[n++], sizeof lines[0], "%s", line);
    pclose(f);
    return n;
}

/* Two games of Laska: the host is white, then black, the guest the other
 * way round; the guest joins game 2 with no code typed; both print the
 * score after each game, mirrored; both records name the same two games,
 * the second's white the first's black, and every log verifies. */
Test(series, two_games_alternate_colours_with_one_score)
{
    Proc lobby, host, guest;
    char lines[4][1200], other[4][1200];
    make_dir();
    play_series("laska", "", "2", &host, &guest, &lobby);
    const char *h = slurp(host.out);
    const char *first = strstr(h, "match: laska series=1/2, you are white");
    cr_assert_not_null(first, "%s", h);
    cr_assert_not_null(strstr(h, "series: game 2 of 2: you are black"), "%s",
                       h);
    cr_assert_not_null(strstr(slurp(guest.out),
                              "series: game 2 of 2: you are white"),
                       "%s", slurp(guest.out));
    /* a next game's guest that comes before its host's room waits; no
     * connection was lost (a trial read that line as a failure) */
    cr_assert_null(strstr(h, "connection lost"), "%s", h);
    cr_assert_null(strstr(slurp(guest.out), "connection lost"), "%s",
                   slurp(guest.out));
    cr_assert_eq(record_games("A", lines, 4), 2);
    cr_assert_eq(record_games("B", other, 4), 2);
    char w1[32], b1[32], w2[32], b2[32];
    cr_assert_eq(sscanf(lines[0], "game: 1 %31s %31s", w1, b1), 2);
    cr_assert_eq(sscanf(lines[1], "game: 2 %31s %31s", w2, b2), 2);
    cr_assert_str_eq(w1, b2);
    cr_assert_str_eq(b1, w2);
    for (int i = 0; i < 2; i++) {
        char *log = strrchr(lines[i], ' ') + 1;
        char hex[PROTO_HASH_HEX];
        log[strcspn(log, "\n")] = '\0';
        cr_assert(strncmp(log, dir, strlen(dir)) == 0, "%s", log);
        log_final_hash(log + strlen(dir) + 1, hex);
    }
    /* the last score lines mirror each other */
    const char *hl = strstr(h, "series: game 2 of 2: ");
    hl = strstr(hl + 1, "series: game 2 of 2: ");
    const char *gl = strstr(slurp(guest.out), "series: game 2 of 2: ");
    gl = strstr(gl + 1, "series: game 2 of 2: ");
    cr_assert(hl != NULL && gl != NULL);
    char hs[200], gs[200];
    snprintf(hs, sizeof hs, "%.*s", (int)strcspn(hl, "\n"), hl);
    snprintf(gs, sizeof gs, "%.*s", (int)strcspn(gl, "\n"), gl);
    const char *hy_at = strstr(hs, "; you "), *gy_at = strstr(gs, "; you ");
    cr_assert(hy_at != NULL && gy_at != NULL, "%s / %s", hs, gs);
    char a[16], b[16], c[16], d[16];
    cr_assert_eq(sscanf(hy_at, "; you %15s - opponent %15s", a, b), 2);
    cr_assert_eq(sscanf(gy_at, "; you %15s - opponent %15s", c, d), 2);
    cr_assert_str_eq(a, d, "%s / %s", hs, gs);
    cr_assert_str_eq(b, c, "%s / %s", hs, gs);
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    remove_dir();
}

/* A rated series (docs/ratings.md "Whose rating"): host and guest play
 * under their identities (--key FILE), so every game's White and Black
 * in both records are the two identities' fingerprints, as `tabula
 * identity` printed them, colours alternating. */
Test(series, a_series_under_the_players_keys_is_rated_as_them)
{
    Proc lobby, host, guest;
    char at[64], invite[40], ka[600], kb[600], fa[64], fb[64], pb[80];
    char lines[4][1200], other[4][1200];
    static char env_a[400], env_b[400];
    make_dir();
    snprintf(env_a, sizeof env_a, "XDG_DATA_HOME=%s/A", dir);
    snprintf(env_b, sizeof env_b, "XDG_DATA_HOME=%s/B", dir);
    path_of(ka, sizeof ka, "a.key");
    path_of(kb, sizeof kb, "b.key");
    Proc id;
    char *ia[] = {"identity", "--file", ka, NULL};
    start(&id, "ida", NULL, ia);
    await_line(&id, "fingerprint: ", fa, sizeof fa);
    cr_assert_eq(finish(&id), 0);
    char *ib[] = {"identity", "--file", kb, NULL};
    start(&id, "idb", NULL, ib);
    await_line(&id, "fingerprint: ", fb, sizeof fb);
    await_line(&id, "public-key: ", pb, sizeof pb);
    cr_assert_eq(finish(&id), 0);
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(&lobby, "lobby", NULL, la);
    await_line(&lobby, "listening: ", at, sizeof at);
    char *ha[] = {"host", "laska", "--series", "2", "--key", ka, "--bot=1",
                  "--lobby", at, NULL};
    start(&host, "host", env_a, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    char *ja[] = {"join", invite, "--key", kb, "--bot=1", "--lobby", at, NULL};
    start(&guest, "guest", env_b, ja);
    cr_assert_eq(finish(&host), 0, "%s", slurp(host.err));
    cr_assert_eq(finish(&guest), 0, "%s", slurp(guest.err));
    cr_assert_eq(record_games("A", lines, 4), 2);
    cr_assert_eq(record_games("B", other, 4), 2);
    char want1[160], want2[160];
    snprintf(want1, sizeof want1, "game: 1 %s %s ", fa, fb);
    snprintf(want2, sizeof want2, "game: 2 %s %s ", fb, fa);
    cr_assert_eq(strncmp(lines[0], want1, strlen(want1)), 0, "%s / %s",
                 lines[0], want1);
    cr_assert_eq(strncmp(lines[1], want2, strlen(want2)), 0, "%s / %s",
                 lines[1], want2);
    cr_assert_eq(strncmp(other[0], want1, strlen(want1)), 0, "%s", other[0]);
    cr_assert_eq(strncmp(other[1], want2, strlen(want2)), 0, "%s", other[1]);
    /* --guest and --code are still refused with --series */
    char *bad[] = {"host", "laska", "--series", "2", "--key", ka, "--guest",
                   pb, "--code", invite, "--lobby", at, NULL};
    start(&id, "bad", env_a, bad);
    cr_assert_eq(finish(&id), 2);
    cr_assert_not_null(strstr(slurp(id.err), "--series makes each game's code"),
                       "%s", slurp(id.err));
    /* --http with --lobby: the reason is --http's (a trial was told a
     * series needs --lobby, which it had given) */
    char *web[] = {"host", "laska", "--series", "2", "--lobby", at,
                   "--http", "127.0.0.1:0", NULL};
    start(&id, "web", env_a, web);
    cr_assert_eq(finish(&id), 2);
    cr_assert_not_null(strstr(slurp(id.err), "--series goes without --http"),
                       "%s", slurp(id.err));
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    remove_dir();
}

/* The sets each side won at the end of the log at path (the position
 * string's sets=W:B, read back by core's own format). */
static void final_sets(const char *path, unsigned *w, unsigned *b)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    char text[2048];
    cr_assert_eq(proto_read_file(path, &buf, &len), 0, "%s", path);
    cr_assert_eq(proto_log_verify(buf, len, NULL, NULL, NULL, &t, &rep), 0,
                 "%s: %s", path, rep.why);
    cr_assert_eq(core_position_format(proto_transcript_position(t), text,
                                      sizeof text),
                 0);
    const char *s = strstr(text, " sets=");
    cr_assert_not_null(s, "%s", text);
    cr_assert_eq(sscanf(s, " sets=%u:%u", w, b), 2, "%s", text);
    proto_transcript_free(t);
    free(buf);
}

/* Chess volleyball with sets of one minute, two games: each game's table
 * points in the record are the seed's for its sets (2-0: 3 : 0, 2-1:
 * 2 : 1; in half points 6 : 0 and 4 : 2), and every game is worth 3. */
Test(series, a_volleyball_series_scores_the_seeds_table)
{
    Proc lobby, host, guest;
    char lines[4][1200];
    make_dir();
    cr_assert_eq(proto_init(), 0);
    play_series("volleyball", "set1=1,set2=1,set3=1", "2", &host, &guest,
                &lobby);
    cr_assert_eq(record_games("A", lines, 4), 2);
    for (int i = 0; i < 2; i++) {
        unsigned tw, tb, sw, sb;
        char log[1100];
        cr_assert_eq(sscanf(lines[i], "game: %*u %*s %*s %*s %*s %u %u %1099s",
                            &tw, &tb, log),
                     3, "%s", lines[i]);
        final_sets(log, &sw, &sb);
        unsigned win = (sw == 2 ? sb : sw) == 0 ? 6 : 4, lose = 6 - win;
        cr_assert_eq(tw, sw == 2 ? win : lose, "%s (sets %u:%u)", lines[i], sw,
                     sb);
        cr_assert_eq(tb, sb == 2 ? win : lose, "%s (sets %u:%u)", lines[i], sw,
                     sb);
    }
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    remove_dir();
}

/* An aborted game stops the series (the trial of 2026-12-07: aborts used
 * the games up, so a player ahead could end the series with the lead):
 * the host aborts game 1 before its first move; both seats say the
 * series stops, exit 1, and no game 2 is made. */
Test(series, an_aborted_game_stops_the_series)
{
    Proc lobby, host, guest;
    char at[64], invite[40], path[600];
    static char env_a[400], env_b[400];
    make_dir();
    snprintf(env_a, sizeof env_a, "XDG_DATA_HOME=%s/A", dir);
    snprintf(env_b, sizeof env_b, "XDG_DATA_HOME=%s/B", dir);
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(&lobby, "lobby", NULL, la);
    await_line(&lobby, "listening: ", at, sizeof at);
    write_file("abort.in", "abort\n");
    path_of(path, sizeof path, "abort.in");
    int fd = open(path, O_RDONLY);
    cr_assert_geq(fd, 0);
    char *ha[] = {"host", "laska", "--series", "3", "--lobby", at, NULL};
    start_in(&host, "host", env_a, ha, fd, -1);
    close(fd);
    await_line(&host, "invite: ", invite, sizeof invite);
    char *ja[] = {"join", invite, "--bot=1", "--delay", "500", "--lobby", at,
                  NULL};
    start(&guest, "guest", env_b, ja);
    cr_assert_eq(finish(&host), 1, "%s", slurp(host.err));
    cr_assert_eq(finish(&guest), 1, "%s", slurp(guest.err));
    cr_assert_not_null(strstr(slurp(host.err), "its game 1 was aborted"),
                       "%s", slurp(host.err));
    cr_assert_not_null(strstr(slurp(guest.err), "its game 1 was aborted"),
                       "%s", slurp(guest.err));
    cr_assert_null(strstr(slurp(guest.out), "game 2 of 3"), "%s",
                   slurp(guest.out));
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    remove_dir();
}

/* The running score on the full screen (issue 38: "its running score on
 * every screen"): the host plays on a terminal (tmux), the guest's bot
 * in plain lines. Game 1 shows 0 - 0; game 2 shows the score the guest's
 * line gave after game 1, mirrored (the guest's you/opponent are the
 * host's opponent/you). */
Test(series, the_full_screen_shows_the_running_score, .timeout = 300)
{
    Proc lobby, host;
    char at[64], cmd[1100], want[160], scr[16384], invite[40];
    make_dir();
    snprintf(tmux_session, sizeof tmux_session, "tabula-series-%d",
             (int)getpid());
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(&lobby, "lobby", NULL, la);
    await_line(&lobby, "listening: ", at, sizeof at);
    /* the host in plain lines; the guest, who joins game 1 by its code,
     * on the full screen: its line shows the series from game 1's start */
    static char env_a[400];
    snprintf(env_a, sizeof env_a, "XDG_DATA_HOME=%s/A", dir);
    char *ha[] = {"host",    "laska",   "--series", "2", "--bot=1",
                  "--delay", "150",     "--lobby",  at,  NULL};
    start(&host, "host", env_a, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    snprintf(cmd, sizeof cmd,
             "'cd %s && TERM=xterm-256color XDG_DATA_HOME=%s/B %s join %s "
             "--bot=1 --delay 150 --lobby %s; sleep 60'",
             dir, dir, TABULA_BINARY, invite, at);
    tmux_new_session(cmd, 140, 44);
    Proc *guest = &host; /* (the plain-lines side, whose lines the test
                            reads) */
    wait_for_in(tmux_session, "Series: game 1 of 2; score: you 0 - opponent 0");
    char line[200], you[16], opp[16];
    await_line(guest, "series: game 1 of 2: ", line, sizeof line);
    const char *sc = strstr(line, "; you ");
    cr_assert_not_null(sc, "%s", line);
    cr_assert_eq(sscanf(sc, "; you %15s - opponent %15s", you, opp), 2, "%s",
                 line);
    snprintf(want, sizeof want,
             "Series: game 2 of 2; score: you %s - opponent %s", opp, you);
    /* the screen keeps game 1's end until q, as after any game, its line
     * with game 1 counted (the host's score mirrored), and q goes on to
     * the next game */
    wait_for_in(tmux_session, "Game over");
    wait_for_in(tmux_session, "q: the series' next game");
    char end1[160];
    snprintf(end1, sizeof end1,
             "Series: game 1 of 2; score: you %s - opponent %s", opp, you);
    screen_of(tmux_session, scr, sizeof scr, 0);
    cr_assert_not_null(strstr(scr, end1), "no '%s' on:\n%s", end1, scr);
    snprintf(cmd, sizeof cmd, "send-keys -t %s q", tmux_session);
    tmux(cmd);
    int seen = 0;
    for (int i = 0; i < 1200 && !seen; i++) {
        screen_of(tmux_session, scr, sizeof scr, 0);
        seen = strstr(scr, want) != NULL;
        if (!seen)
            usleep(50000);
    }
    cr_assert(seen, "no '%s' on:\n%s", want, scr);
    /* game 2's end: the line counts it too, as the guest's last line */
    cr_assert_eq(finish(guest), 0, "%s", slurp(guest->err));
    const char *g2 = strstr(slurp(guest->out), "series: game 2 of 2: ");
    g2 = g2 != NULL ? strstr(g2 + 1, "series: game 2 of 2: ") : NULL;
    cr_assert_not_null(g2, "%s", slurp(guest->out));
    snprintf(line, sizeof line, "%.*s", (int)strcspn(g2, "\n"), g2);
    sc = strstr(line, "; you ");
    cr_assert_not_null(sc, "%s", line);
    cr_assert_eq(sscanf(sc, "; you %15s - opponent %15s", you, opp), 2, "%s",
                 line);
    snprintf(want, sizeof want,
             "Series: game 2 of 2; score: you %s - opponent %s", opp, you);
    seen = 0;
    for (int i = 0; i < 1200 && !seen; i++) {
        screen_of(tmux_session, scr, sizeof scr, 0);
        seen = strstr(scr, want) != NULL && strstr(scr, "Game over") != NULL;
        if (!seen)
            usleep(50000);
    }
    cr_assert(seen, "no '%s' at the end on:\n%s", want, scr);
    tmux_stop();
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    remove_dir();
}
