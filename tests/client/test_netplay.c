/*
 * test_netplay.c: network play between real processes on 127.0.0.1
 * (tabula host / join / spectate / lobby, the binary TABULA_BINARY): a
 * full game of each game between two bots with a spectator, a player
 * killed and restarted, a lobby killed and restarted, a planted desync,
 * line-mode input; and, in process, hostile frames fed to a seat. Every
 * wait is bounded and waits for a line the programs print, never a fixed
 * time. The expected final hash is recomputed here from the log's moves
 * on a fresh core position, independently of the network code.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "netgame.h"
#include "proto.h"
#include "tb_error.h"

#define PROC_DIR_NAME "netplay"
#include "proc_util.h"

static void kill_hard(Proc *p)
{
    int st;
    kill(p->pid, SIGKILL);
    waitpid(p->pid, &st, 0);
    p->exited = 1;
}

/* check_three_logs (proc_util.h), then the folder goes. */
static void check_three(Proc *host, Proc *guest, Proc *spec)
{
    check_three_logs(host, guest, spec);
    remove_dir();
}

/* Host (embedded lobby unless lobby is given), then spectator and guest. */
static void start_three(Proc *host, Proc *guest, Proc *spec, const char *game,
                        const char *lobby, const char *delay,
                        const char *guest_env)
{
    char invite[40], watch[40], addr[64];
    if (lobby != NULL) {
        char *ha[] = {"host",  (char *)game,  "--bot=2", "--log", "h.log",
                      "--lobby", (char *)lobby, "--delay", (char *)delay,
                      NULL};
        start(host, "host", NULL, ha);
        snprintf(addr, sizeof addr, "%s", lobby);
    } else {
        char *ha[] = {"host", (char *)game, "--bot=2", "--log", "h.log",
                      "--delay", (char *)delay, NULL};
        start(host, "host", NULL, ha);
        await_line(host, "lobby: ", addr, sizeof addr);
    }
    await_line(host, "invite: ", invite, sizeof invite);
    await_line(host, "watch: ", watch, sizeof watch);
    char *sa[] = {"spectate", watch, "--lobby", addr, "--log", "s.log", NULL};
    start(spec, "spec", NULL, sa);
    /* The spectator is in before the guest: a game at --delay 0 can end,
     * and take the host's embedded lobby with it, before a spectator
     * started at the same time has connected. */
    await_line(spec, "lobby: connected", NULL, 0);
    char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                  "g.log", "--delay", (char *)delay, NULL};
    start(guest, "guest", guest_env, ga);
}

static void full_game(const char *game)
{
    Proc host, guest, spec;
    make_dir();
    start_three(&host, &guest, &spec, game, NULL, "0", NULL);
    check_three(&host, &guest, &spec);
}

Test(netplay, full_game_laska) { full_game("laska"); }
Test(netplay, full_game_chessball) { full_game("chessball"); }
Test(netplay, full_game_football) { full_game("football"); }
Test(netplay, full_game_volleyball) { full_game("volleyball"); }
Test(netplay, full_game_volleyball10) { full_game("volleyball10"); }

/* A trial found: --lobby A,B with A unreachable gave up at once, and a
 * list over 63 characters was cut short. Each node is tried once before
 * a seat gives up: the spectator and the guest name four closed ports
 * first and reach the host's lobby fifth. */
Test(netplay, first_node_unreachable_tries_the_next)
{
    Proc host, guest, spec;
    char invite[40], watch[40], addr[64], nodes[160];
    make_dir();
    char *ha[] = {"host",  "laska",   "--bot=2", "--log",
                  "h.log", "--delay", "0",       NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "lobby: ", addr, sizeof addr);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "watch: ", watch, sizeof watch);
    /* over 63 characters: the list was once cut there */
    snprintf(nodes, sizeof nodes,
             "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3,"
             "127.0.0.1:4,%s",
             addr);
    char *sa[] = {"spectate", watch, "--lobby", nodes, "--log", "s.log", NULL};
    start(&spec, "spec", NULL, sa);
    await_line(&spec, "lobby: connected", NULL, 0);
    char *ga[] = {"join",  invite,  "--lobby", nodes, "--bot=1",
                  "--log", "g.log", "--delay", "0",   NULL};
    start(&guest, "guest", NULL, ga);
    check_three(&host, &guest, &spec);
}

Test(netplay, killed_guest_restarts_with_its_log_and_finishes)
{
    Proc host, guest, spec;
    make_dir();
    start_three(&host, &guest, &spec, "laska", NULL, "15", NULL);
    await_line(&guest, "\n   6. ", NULL, 0);
    kill_hard(&guest);
    char invite[40], addr[64];
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "lobby: ", addr, sizeof addr);
    char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                  "g.log", "--delay", "15", NULL};
    start(&guest, "guest", NULL, ga);
    /* told in moves (6 at least were played), not envelopes */
    char res[300], from[256];
    unsigned moves = 0;
    await_line(&guest, "resumed: ", res, sizeof res);
    cr_assert_eq(sscanf(res, "%u moves from %255s", &moves, from), 2, "%s",
                 res);
    cr_assert_geq(moves, 6, "%s", res);
    cr_assert_not_null(strstr(from, "g.log"), "%s", res);
    /* It asks the lobby only for what came after what it had logged. */
    char seq[32];
    /* in words a player reads (issue 39: "lobby sequence number") */
    await_line(&guest, "catching up on what you missed (the lobby's frames "
                       "after ", seq, sizeof seq);
    cr_assert_gt(strtoull(seq, NULL, 10), 6, "%s", seq);
    check_three(&host, &guest, &spec);
}

/* A clocked guest killed on its turn and started again 1.5 s later: its
 * turn goes on (G-MC-6: the turn's start, kept in g.log.seq, comes back
 * as time already used), so the move it then makes reports the whole
 * turn, and the host, which measured the whole turn, corrects nothing.
 * A restarted turn would report only the time after the restart, over a
 * second less than the host measured, and the host would print a
 * correction of black's clock (beyond its 0.5 s lag allowance). */
Test(netplay, killed_guest_on_its_turn_keeps_its_running_clock)
{
    Proc host, guest, spec;
    char invite[40], watch[40], addr[64];
    make_dir();
    char *ha[] = {"host", "laska", "--bot=2", "--log", "h.log", "--clock",
                  "1+0", "--delay", "15", NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "lobby: ", addr, sizeof addr);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "watch: ", watch, sizeof watch);
    char *sa[] = {"spectate", watch, "--lobby", addr, "--log", "s.log", NULL};
    start(&spec, "spec", NULL, sa);
    /* the guest's bot waits 20 s: it is still thinking when killed */
    char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                  "g.log", "--delay", "20000", NULL};
    start(&guest, "guest", NULL, ga);
    await_line(&guest, "\n   1. ", NULL, 0);
    pause_ms(200); /* the turn's start reaches g.log.seq */
    kill_hard(&guest);
    pause_ms(1500);
    char *ga2[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                   "g.log", "--delay", "15", NULL};
    start(&guest, "guest", NULL, ga2);
    await_line(&guest, "resumed: ", NULL, 0);
    await_line(&host, "\n   2. ", NULL, 0);
    check_three_logs(&host, &guest, &spec);
    const char *out = slurp(host.out);
    cr_assert_null(strstr(out, "clock: black claims"), "%s", out);
    remove_dir();
}

/* As above, but the lobby goes down with the guest and comes back 1.5 s
 * after the guest was started again: the restarted seat waits for it
 * (it was let in before), says it is back, and its turn ran all the
 * while, the wait for the lobby included (match_resume_turn), so the
 * host, which measured the whole turn, corrects nothing. (A trial saw
 * the two seats 15 s apart after such a wait.) */
Test(netplay, restarted_guest_waits_for_the_lobby_and_its_turn_runs_on)
{
    Proc lobby, host, guest, spec;
    char invite[40], watch[40], addr[64];
    make_dir();
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(&lobby, "lobby", NULL, la);
    await_line(&lobby, "listening: ", addr, sizeof addr);
    char *ha[] = {"host", "laska", "--bot=2", "--log", "h.log", "--clock",
                  "1+0", "--delay", "15", "--lobby", addr, NULL};
    /* (the host's bot would claim the win when the guest is away 10 s,
     * which the guest's waits after the lobby's refusals may pass) */
    start(&host, "host", "TABULA_TEST_ABSENCE_MS=60000", ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "watch: ", watch, sizeof watch);
    char *sa[] = {"spectate", watch, "--lobby", addr, "--log", "s.log", NULL};
    start(&spec, "spec", NULL, sa);
    char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                  "g.log", "--delay", "20000", NULL};
    start(&guest, "guest", NULL, ga);
    await_line(&guest, "\n   1. ", NULL, 0);
    pause_ms(200); /* the turn's start reaches g.log.seq */
    kill_hard(&guest);
    kill_hard(&lobby);
    char *ga2[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                   "g.log", "--delay", "15", NULL};
    start(&guest, "guest", NULL, ga2);
    await_line(&guest, "lobby: connection lost", NULL, 0);
    pause_ms(1500);
    char *lb[] = {"lobby", "--listen", addr, NULL};
    start(&lobby, "lobby2", NULL, lb);
    await_line(&guest, "lobby: reconnected", NULL, 0);
    await_line(&host, "\n   2. ", NULL, 0);
    check_three_logs(&host, &guest, &spec);
    const char *out = slurp(host.out);
    cr_assert_null(strstr(out, "clock: black claims"), "%s", out);
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    remove_dir();
}

Test(netplay, killed_host_with_embedded_lobby_restarts_on_its_port)
{
    Proc host, guest, spec;
    char addr[64], again[64];
    make_dir();
    start_three(&host, &guest, &spec, "football", NULL, "15", NULL);
    await_line(&host, "lobby: ", addr, sizeof addr);
    await_line(&spec, "\n   2. ", NULL, 0);
    kill_hard(&host); /* the lobby goes with it */
    char *ha[] = {"host", "football", "--bot=2", "--log", "h.log", "--delay",
                  "15", NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "resumed: ", NULL, 0);
    /* Same embedded lobby address: the last lobby: line is the new one. */
    char *out = slurp(host.out), *last = NULL;
    for (char *p = strstr(out, "\nlobby: 127"); p; p = strstr(p + 1, "\nlobby: 127"))
        last = p;
    cr_assert_not_null(last, "%s", out);
    cr_assert_eq(sscanf(last, "\nlobby: %63s", again), 1);
    cr_assert_str_eq(again, addr);
    check_three(&host, &guest, &spec);
}

Test(netplay, lobby_killed_and_restarted_loses_nothing)
{
    Proc lobby, host, guest, spec;
    char addr[64];
    make_dir();
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(&lobby, "lobby", NULL, la);
    await_line(&lobby, "listening: ", addr, sizeof addr);
    start_three(&host, &guest, &spec, "chessball", addr, "15", NULL);
    await_line(&spec, "\n   6. ", NULL, 0);
    kill_hard(&lobby);
    char *lb[] = {"lobby", "--listen", addr, NULL};
    start(&lobby, "lobby2", NULL, lb);
    await_line(&lobby, "listening: ", NULL, 0);
    await_line(&host, "lobby: reconnected", NULL, 0);
    finish(&guest);
    finish(&spec);
    finish(&host);
    kill(lobby.pid, SIGTERM);
    finish(&lobby);
    check_three(&host, &guest, &spec); /* statuses kept by finish */
}

Test(netplay, planted_desync_is_caught_at_its_ply_with_reports)
{
    Proc host, guest, spec;
    char ply[16], line[64], path[600], *rep;
    make_dir();
    start_three(&host, &guest, &spec, "laska", NULL, "0",
                "TABULA_TEST_DESYNC_PLY=5");
    cr_assert_eq(finish(&guest), 1);
    cr_assert_eq(finish(&host), 1);
    cr_assert_eq(finish(&spec), 1);
    /* The perturbed guest names the ply it diverged at (black moves on
     * even plies: the first at 5 or later with another legal move). */
    char *err = slurp(guest.err);
    char *at = strstr(err, "perturbed own state at ply ");
    cr_assert_not_null(at, "%s", err);
    snprintf(ply, sizeof ply, "%u",
             (unsigned)strtoul(at + strlen("perturbed own state at ply "),
                               NULL, 10));
    cr_assert_geq(atoi(ply), 6);
    snprintf(line, sizeof line, "desync: the game stopped at ply %s;", ply);
    await_line(&host, line, NULL, 0);
    await_line(&guest, line, NULL, 0);
    /* Both reports: that ply, two different hashes, both states. */
    const char *reports[] = {"h.log.desync", "g.log.desync"};
    for (int i = 0; i < 2; i++) {
        char want[32], ours[80] = "", theirs[80] = "";
        path_of(path, sizeof path, reports[i]);
        rep = slurp(path);
        snprintf(want, sizeof want, "\nply: %s\n", ply);
        cr_assert_not_null(strstr(rep, want), "%s:\n%s", path, rep);
        cr_assert(sscanf(strstr(rep, "our-hash: "), "our-hash: %79s", ours) ==
                      1 &&
                  sscanf(strstr(rep, "their-hash: "), "their-hash: %79s",
                         theirs) == 1,
                  "%s", rep);
        cr_assert_eq(strlen(ours), 64);
        cr_assert_eq(strlen(theirs), 64, "%s", rep);
        cr_assert_str_neq(ours, theirs);
        cr_assert_null(strstr(rep, "not received"), "%s", rep);
    }
    /* The host's log verifies, names that ply, and the guest (Black),
     * which signed the false state, lost there (G-PR-3). */
    uint8_t *buf = NULL;
    size_t len = 0;
    Proto_Log_Report lr;
    Proto_Transcript *t = NULL;
    path_of(path, sizeof path, "h.log");
    cr_assert_eq(proto_read_file(path, &buf, &len), 0);
    cr_assert_eq(proto_log_verify(buf, len, NULL, NULL, NULL, &t, &lr), 0,
                 "%s", lr.why);
    cr_assert_eq(lr.desync_ply, (uint32_t)atoi(ply), "%s", lr.desync_why);
    cr_assert_not_null(strstr(lr.desync_why, "black"), "%s", lr.desync_why);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_WIN_WHITE);
    cr_assert_eq(proto_transcript_status(t).reason,
                 CORE_REASON_DESYNC_FORFEIT);
    proto_transcript_free(t);
    free(buf);
    remove_dir();
}

/* Copy DIR/from to DIR/to. */
static void copy_file(const char *from, const char *to)
{
    char a[600], b[600];
    path_of(a, sizeof a, from);
    path_of(b, sizeof b, to);
    FILE *in = fopen(a, "rb"), *out = fopen(b, "wb");
    cr_assert(in != NULL && out != NULL, "%s -> %s", a, b);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        cr_assert_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    cr_assert_eq(fclose(out), 0);
}

/* The guest's seat taken over: a second `tabula join` with a copy of the
 * first's log and seat file (the same command run again elsewhere) gets
 * the seat from the lobby, which tells the first REPLACED. The first
 * stops with the reason (seat_refusal_ends) instead of taking the seat
 * back a second later, which would push the second out in turn, and so
 * on; the second plays the game out against the host. */
Test(netplay, a_seat_taken_over_stops_rather_than_take_it_back)
{
    Proc host, first, second;
    char invite[40], addr[64], hash_host[80], hash_second[80];
    int in[2];
    make_dir();
    char *ha[] = {"host", "laska", "--bot=2", "--log", "h.log", "--delay",
                  "20", NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "lobby: ", addr, sizeof addr);
    await_line(&host, "invite: ", invite, sizeof invite);
    /* the first guest types nothing (its input stays open): after the
     * host's first move it waits on its turn and sends nothing more */
    cr_assert_eq(pipe(in), 0);
    char *fa[] = {"join", invite, "--lobby", addr, "--log", "g.log", NULL};
    start_in(&first, "first", NULL, fa, in[0], in[1]);
    close(in[0]);
    await_line(&first, "\n   1. ", NULL, 0);
    copy_file("g.log", "g2.log");
    copy_file("g.log.seat", "g2.log.seat");
    copy_file("g.log.seq", "g2.log.seq");
    char *sa[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                  "g2.log", NULL};
    start(&second, "second", NULL, sa);
    await_err(&first, "gave this seat to another connection", WAIT_MS);
    cr_assert_neq(finish(&first), 0);
    await_line(&second, "final-hash: ", hash_second, sizeof hash_second);
    await_line(&host, "final-hash: ", hash_host, sizeof hash_host);
    cr_assert_str_eq(hash_second, hash_host);
    cr_assert_eq(finish(&second), 0);
    cr_assert_eq(finish(&host), 0);
    close(in[1]);
    remove_dir();
}

Test(netplay, line_mode_host_refuses_a_bad_line_then_resigns)
{
    Proc host, guest;
    char invite[40], addr[64];
    int in[2];
    make_dir();
    cr_assert_eq(pipe(in), 0);
    memset(&host, 0, sizeof host);
    snprintf(host.out, sizeof host.out, "%s/host.out", dir);
    snprintf(host.err, sizeof host.err, "%s/host.err", dir);
    host.pid = fork();
    if (host.pid == 0) {
        int fo = open(host.out, O_WRONLY | O_CREAT, 0600);
        int fe = open(host.err, O_WRONLY | O_CREAT, 0600);
        dup2(in[0], 0);
        dup2(fo, 1);
        dup2(fe, 2);
        close(in[1]);
        execl(TABULA_BINARY, TABULA_BINARY, "host", "laska", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "lobby: ", addr, sizeof addr);
    char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", NULL};
    start(&guest, "guest", NULL, ga);
    await_line(&host, "match: laska", NULL, 0);
    cr_assert_eq(write(in[1], "zz9\nresign\n", 11), 11);
    cr_assert_eq(finish(&guest), 0, "%s", slurp(guest.err));
    cr_assert_eq(finish(&host), 0, "%s", slurp(host.err));
    close(in[1]);
    char *out = slurp(host.out);
    cr_assert_not_null(strstr(out, "refused: 'zz9'"), "%s", out);
    cr_assert_not_null(strstr(out, "result: 0-1 (resign)"), "%s", out);
    cr_assert_not_null(strstr(slurp(guest.out), "result: 0-1 (resign)"));
    remove_dir();
}

/* A seat's standard input given as a file (`< moves.txt`) is read as a
 * pipe is: its lines lose spaces at both ends and a Windows line end, so
 * "resign   " resigns (it used to go to the game as typed and be refused
 * as a malformed move). Each line waits for the seat's turn and is read
 * against that position, as a typed one is: Black's only answer to the
 * host's first move is a capture (every first move in Laska allows one,
 * and captures are compulsory), so 'zz' is refused naming it, and
 * "  board" (once refused before the start, above the invite) draws the
 * board where the script is, before Black's move. */
/* Start TABULA_BINARY with args, its standard input the file name (in
 * DIR) holding text; as start() otherwise. */
static void start_reading(Proc *p, const char *name, const char *env,
                          char *const *args, const char *file, const char *text)
{
    char in[600];
    path_of(in, sizeof in, file);
    FILE *f = fopen(in, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    int fd = open(in, O_RDONLY);
    cr_assert_geq(fd, 0);
    start_in(p, name, env, args, fd, -1);
    close(fd);
}

/* A host reading the file host_text and a guest reading guest_text. */
static void scripted_pair(Proc *host, Proc *guest, const char *clock,
                          const char *host_text, const char *guest_text)
{
    char invite[40], addr[64];
    char *ha[] = {"host", "laska", clock ? "--clock" : NULL, (char *)clock,
                  NULL};
    start_reading(host, "host", NULL, ha, "host.txt", host_text);
    await_line(host, "invite: ", invite, sizeof invite);
    await_line(host, "lobby: ", addr, sizeof addr);
    char *ga[] = {"join", invite, "--lobby", addr, NULL};
    start_reading(guest, "guest", NULL, ga, "guest.txt", guest_text);
}

/* A new user ran "the same command" again after a game had ended: the
 * seat took the finished log up again, a re-made room's receipts gave
 * the loser its time back, and the log was rewritten without its
 * result. A log that holds an ended game is refused, untouched. */
Test(netplay, a_finished_games_log_is_never_taken_up_again)
{
    Proc host, guest;
    char invite[40], addr[64], path[600];
    make_dir();
    char *ha[] = {"host", "laska", "--bot=1", "--log", "h.log", NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "lobby: ", addr, sizeof addr);
    char *ga[] = {"join", invite, "--lobby", addr, NULL};
    start_reading(&guest, "guest", NULL, ga, "moves.txt", "e5xc3\nresign\n");
    cr_assert_eq(finish(&guest), 0, "%s", slurp(guest.err));
    cr_assert_eq(finish(&host), 0, "%s", slurp(host.err));
    path_of(path, sizeof path, "h.log");
    uint8_t *before = NULL, *after = NULL;
    size_t nb = 0, na = 0;
    cr_assert_eq(proto_read_file(path, &before, &nb), 0);
    start(&host, "host", NULL, ha);
    cr_assert_neq(finish(&host), 0, "%s", slurp(host.out));
    cr_assert_not_null(strstr(slurp(host.err), "h.log holds a game that is "
                                               "over; tabula replay h.log "
                                               "shows it"),
                       "%s", slurp(host.err));
    cr_assert_eq(proto_read_file(path, &after, &na), 0);
    cr_assert(na == nb && memcmp(before, after, nb) == 0,
              "the finished log was changed");
    free(before);
    free(after);
    remove_dir();
}

Test(netplay, a_seat_reading_a_file_reads_it_as_a_pipe)
{
    Proc host, guest;
    char invite[40], addr[64];
    make_dir();
    char *ha[] = {"host", "laska", "--bot=1", NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "lobby: ", addr, sizeof addr);
    char *ga[] = {"join", invite, "--lobby", addr, NULL};
    /* a NUL ends its line, not the next one (a trial lost e5xc3 so) */
    start_reading(&guest, "guest", NULL, ga, "moves.txt",
                  "zz\n  board\ne5xc3\nresign   \r\n");
    cr_assert_eq(finish(&guest), 0, "%s", slurp(guest.err));
    cr_assert_eq(finish(&host), 0, "%s", slurp(host.err));
    char *out = slurp(guest.out);
    const char *zz = strstr(out, "refused: 'zz': malformed move notation; "
                                 "capturing is compulsory, the capture now: ");
    const char *board = strstr(out, "\n    g   f   e   d   c   b   a");
    const char *played = strstr(out, "2. black ");
    cr_assert(zz != NULL && board != NULL && played != NULL, "%s", out);
    cr_assert(zz < board && board < played, "%s", out);
    cr_assert_null(strstr(zz + 1, "refused:"), "%s", out);
    cr_assert_not_null(strstr(out, "result: 1-0 (resign)"), "%s", out);
    cr_assert_not_null(strstr(slurp(host.out), "result: 1-0 (resign)"));
    remove_dir();
}

/* Two scripts answer each other: White offers a draw on its second turn
 * and Black's "accept", written after a move it has not made yet, goes
 * first, as the offer lapses once Black moves (a trial's draw was lost
 * so). Then White asks to take back two plies; its next move waits for
 * the answer, and Black's script, which has none, ends: Black leaves, as
 * no line of it can answer, and White, its opponent gone past the
 * countdown (10 s, the least there is, with a clock of 1+0) and no
 * claim among its lines, leaves too (a
 * trial's two seats waited for each other for good). The moves:
 * c3-b4 a5xc3 d2xb4 c5-d4 (`tabula moves laska` lists each). */
Test(netplay, scripts_answer_offers_and_leave_when_none_can)
{
    Proc host, guest;
    make_dir();
    scripted_pair(&host, &guest, NULL, "c3-b4\ndraw\nd2xb4\nresign\n",
                  "a5xc3\nc5-d4\naccept\nb6xd4\n");
    cr_assert_eq(finish(&guest), 0, "%s", slurp(guest.err));
    cr_assert_eq(finish(&host), 0, "%s", slurp(host.err));
    cr_assert_not_null(strstr(slurp(guest.out), "black accepts the draw\n"
                                                "result: 1/2-1/2 (agreement)"),
                       "%s", slurp(guest.out));
    cr_assert_null(strstr(slurp(guest.out), "refused:"));
    cr_assert_not_null(strstr(slurp(host.out), "result: 1/2-1/2 (agreement)"));
    remove_dir();

    make_dir();
    scripted_pair(&host, &guest, "1+0", /* (the countdown: 10 s) */
                  "c3-b4\nd2xb4\ntakeback\nd2xb4\nresign\n",
                  "a5xc3\nc5-d4\nb6xd4\n");
    cr_assert_eq(finish(&guest), 1, "%s", slurp(guest.err));
    cr_assert_not_null(strstr(slurp(guest.err), "standard input ended and the "
                                                "opponent waits for this "
                                                "seat's answer"),
                       "%s", slurp(guest.err));
    cr_assert_eq(finish(&host), 1, "%s", slurp(host.err));
    cr_assert_not_null(strstr(slurp(host.err), "standard input ended and the "
                                               "opponent is gone"),
                       "%s", slurp(host.err));
    /* the move after the takeback waited for its answer: never refused */
    cr_assert_null(strstr(slurp(host.out), "refused:"), "%s", slurp(host.out));
    remove_dir();
}

/* A trial found: a person's seat whose input had ended (here /dev/null,
 * start()'s standard input) waited for good on its turn, its opponent
 * seeing it present. It now leaves on its turn, unresigned, and says
 * so. */
Test(netplay, a_seat_whose_input_ended_leaves_on_its_turn)
{
    Proc host, guest;
    char invite[40], addr[64];
    make_dir();
    char *ha[] = {"host", "laska", "--log", "h.log", NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    await_line(&host, "lobby: ", addr, sizeof addr);
    char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", NULL};
    start(&guest, "guest", NULL, ga);
    cr_assert_eq(finish(&host), 1, "%s", slurp(host.err));
    char *err = slurp(host.err);
    cr_assert_not_null(strstr(err, "standard input ended and it is this "
                                   "seat's turn"),
                       "%s", err);
    cr_assert_not_null(strstr(err, "you left the game; it is not resigned: "
                                   "run the same command again"),
                       "%s", err);
    /* the host's embedded lobby went with it */
    await_line(&guest, "lobby: connection lost", NULL, 0);
    kill_hard(&guest);
    remove_dir();
}

/* A relay that takes the connection and answers nothing but heartbeats
 * (a zero-length frame each second, docs/protocol-lobby.md), never a
 * WELCOME: the hostile trial saw it hold a join for ever (the seat's
 * 15 s deadline for the welcome was never set by the driver). */
static void *heartbeats_only(void *arg)
{
    int lfd = *(int *)arg, fd = accept(lfd, NULL, NULL);
    static const unsigned char beat[4] = {0, 0, 0, 0};
    for (int k = 0; fd >= 0 && k < 40; k++) {
        if (send(fd, beat, sizeof beat, MSG_NOSIGNAL) != (ssize_t)sizeof beat)
            break;
        pause_ms(1000);
    }
    if (fd >= 0)
        close(fd);
    return NULL;
}

Test(netplay, a_relay_that_never_welcomes_is_left_after_15_s)
{
    struct sockaddr_in a;
    socklen_t alen = sizeof a;
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert(lfd >= 0 && bind(lfd, (struct sockaddr *)&a, sizeof a) == 0 &&
              listen(lfd, 4) == 0 &&
              getsockname(lfd, (struct sockaddr *)&a, &alen) == 0);
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, heartbeats_only, &lfd), 0);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%u", (unsigned)ntohs(a.sin_port));
    Proc guest;
    make_dir();
    char *ga[] = {"join", "ABCD-EFGH-JKLM-NPQR", "--lobby", addr, NULL};
    double t0 = now_ms();
    start(&guest, "guest", NULL, ga);
    cr_assert_eq(finish(&guest), 1, "%s", slurp(guest.err));
    double took = (now_ms() - t0) / 1000.0;
    cr_assert(took >= 14.5 && took < 25, "stopped after %.1f s", took);
    cr_assert_not_null(strstr(slurp(guest.err), "(connection timed out)"),
                       "%s", slurp(guest.err));
    close(lfd);
    pthread_join(th, NULL);
    remove_dir();
}

Test(netplay, join_reports_an_unreachable_lobby_and_a_bad_code)
{
    Proc p;
    make_dir();
    /* Standard input is /dev/null (start() redirects it), which epoll
     * cannot watch: it must be read without the loop. */
    char *a1[] = {"join", "2345-6789-ABCD-EFGH", "--lobby", "127.0.0.1:9",
                  NULL};
    start(&p, "j1", NULL, a1);
    cr_assert_eq(finish(&p), 1);
    /* Issue 18, findings 1 and 2: not "refused or unreachable", but what
     * happened and the --lobby to give. */
    cr_assert_not_null(strstr(slurp(p.err), "cannot reach the lobby at "
                                            "127.0.0.1:9 (connection "
                                            "refused)"),
                       "%s", slurp(p.err));
    cr_assert_not_null(strstr(slurp(p.err), "tabula join 2345-6789-ABCD-EFGH "
                                            "--lobby HOST:PORT"),
                       "%s", slurp(p.err));
    cr_assert_null(strstr(slurp(p.err), "refused or unreachable"), "%s",
                   slurp(p.err));
    char *a2[] = {"join", "2345-6789-ABCD-EFG1", NULL};
    start(&p, "j2", NULL, a2);
    cr_assert_eq(finish(&p), 2);
    cr_assert_not_null(strstr(slurp(p.err), "is not a code"), "%s",
                       slurp(p.err));
    remove_dir();
}

/* Issue 14: host --http serves the page beside its embedded lobby only
 * (the join-link must name the lobby the room is in). */
Test(netplay, host_http_needs_the_embedded_lobby_and_an_address)
{
    Proc p;
    make_dir();
    char *a1[] = {"host", "laska", "--bot", "--lobby", "127.0.0.1:9",
                  "--http", "127.0.0.1:0", NULL};
    start(&p, "h1", NULL, a1);
    cr_assert_eq(finish(&p), 2);
    cr_assert_not_null(strstr(slurp(p.err), "leave out --lobby"), "%s",
                       slurp(p.err));
    char *a2[] = {"host", "laska", "--bot", "--http", "8080", NULL};
    start(&p, "h2", NULL, a2);
    cr_assert_eq(finish(&p), 2);
    cr_assert_not_null(strstr(slurp(p.err), "bad address '8080' for --http"),
                       "%s", slurp(p.err));
    remove_dir();
}

Test(netplay, a_mistyped_last_group_does_not_take_the_seat)
{
    /* The last group of an invite code is the host key's fingerprint:
     * the lobby cannot check it, the joiner can, and closes. The seat
     * must stay free for the right code. */
    Proc host, bad, good;
    char invite[40], wrong[40], addr[64];
    make_dir();
    char *ha[] = {"host", "laska", "--bot=1", NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "lobby: ", addr, sizeof addr);
    await_line(&host, "invite: ", invite, sizeof invite);
    size_t n = strlen(invite);
    memcpy(wrong, invite, n + 1);
    wrong[n - 1] = invite[n - 1] == '2' ? '3' : '2';
    char *ba[] = {"join", wrong, "--lobby", addr, "--bot=1", NULL};
    start(&bad, "bad", NULL, ba);
    cr_assert_eq(finish(&bad), 1);
    cr_assert_not_null(strstr(slurp(bad.err), "mistyped"), "%s",
                       slurp(bad.err));
    char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", NULL};
    start(&good, "good", NULL, ga);
    cr_assert_eq(finish(&good), 0, "%s", slurp(good.err));
    cr_assert_not_null(strstr(slurp(good.out), "final-hash: "), "%s",
                       slurp(good.out));
    cr_assert_eq(finish(&host), 0, "%s", slurp(host.err));
    remove_dir();
}

/* ---- hostile frames, in process -------------------------------------- */

Test(netplay, host_refuses_a_hello_without_the_code_proof)
{
    Proto_Identity mallory;
    uint8_t seed[32], frame[PROTO_FRAME_PREFIX + 512];
    size_t len = 0;
    uv_loop_t loop;
    Netgame *g = NULL;
    char why[256];
    Proto_Message m;

    cr_assert_eq(proto_init(), 0);
    memset(seed, 3, sizeof seed);
    proto_identity_from_seed(&mallory, seed);
    cr_assert_eq(uv_loop_init(&loop), 0);
    Netgame_Config cfg = {0};
    cfg.role = LOBBY_ROLE_HOST;
    cfg.game = core_game_find("laska");
    cfg.options = "";
    cfg.lobby = "127.0.0.1:9"; /* never reached: frames are fed directly */
    cr_assert_eq(netgame_new(&loop, &cfg, NULL, NULL, &g, why, sizeof why), 0,
                 "%s", why);
    /* A signed hello from the guest seat whose nonce is no proof of the
     * invite code (what the lobby itself could send): no match starts. */
    proto_message_init(&m, PROTO_KIND_HELLO, &mallory);
    snprintf(m.body.hello.software, sizeof m.body.hello.software, "tabula");
    memset(m.body.hello.nonce, 0x5a, sizeof m.body.hello.nonce);
    cr_assert_eq(proto_seal(&m, &mallory, frame, sizeof frame, &len, NULL), 0);
    cr_assert_eq(netgame_feed(g, LOBBY_ROLE_GUEST, frame + PROTO_FRAME_PREFIX,
                              len - PROTO_FRAME_PREFIX),
                 TB_E_SIGNATURE);
    cr_assert_eq(proto_transcript_count(netgame_transcript(g)), 0);
    cr_assert_eq(netgame_result(g)->refused, 1);
    netgame_free(g);
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(&loop), 0);
}

typedef struct Env_List {
    size_t n;
    uint8_t *env[64];
    size_t len[64];
} Env_List;

static void seal_into(Proto_Transcript *t, const Proto_Identity *id,
                      Proto_Message *m, Env_List *l)
{
    static uint8_t frame[PROTO_FRAME_PREFIX + PROTO_FRAME_MAX];
    size_t len = 0;
    cr_assert_eq(proto_transcript_send(t, id, m, frame, sizeof frame, &len),
                 0, "%s", proto_transcript_why(t));
    l->env[l->n] = malloc(len);
    memcpy(l->env[l->n], frame + PROTO_FRAME_PREFIX, len - PROTO_FRAME_PREFIX);
    l->len[l->n++] = len - PROTO_FRAME_PREFIX;
}

static void move_msg(const Proto_Transcript *t, const Proto_Identity *id,
                     Proto_Message *m)
{
    const Core_Position *pos = proto_transcript_position(t);
    Core_Position *after = core_position_clone(pos);
    Core_Move mv;
    cr_assert_eq(bot_choose(pos, 1, 7, &mv, NULL), 0);
    proto_message_init(m, PROTO_KIND_MOVE, id);
    m->body.move.ply = core_ply(pos) + 1;
    cr_assert_eq(core_move_format(pos, &mv, m->body.move.move,
                                  sizeof m->body.move.move),
                 0);
    cr_assert_eq(core_play(after, &mv), 0);
    cr_assert_eq(proto_state_hash(after, m->body.move.hash), 0);
    core_position_free(after);
}

Test(netplay, hostile_frames_are_refused_without_effect)
{
    Proto_Identity white, black, mallory;
    uint8_t seed[32];
    Proto_Transcript *ref = NULL;
    Env_List l = {0};
    Proto_Message m;
    uv_loop_t loop;
    Netgame *g = NULL;
    char why[256];

    cr_assert_eq(proto_init(), 0);
    memset(seed, 1, sizeof seed);
    proto_identity_from_seed(&white, seed);
    memset(seed, 2, sizeof seed);
    proto_identity_from_seed(&black, seed);
    memset(seed, 3, sizeof seed);
    proto_identity_from_seed(&mallory, seed);
    cr_assert_eq(proto_transcript_new(&ref, NULL), 0);
    /* (a lobby game's start: the relay witnesses it) */
    proto_transcript_witness_mode(ref);
    proto_transcript_witness_absence(ref);
    proto_message_init(&m, PROTO_KIND_MATCH_START, &white);
    memset(m.match_id, 9, sizeof m.match_id);
    snprintf(m.body.start.game, sizeof m.body.start.game, "laska");
    snprintf(m.body.start.options, sizeof m.body.start.options, "%s",
             PROTO_OPTION_RELAY);
    memcpy(m.body.start.white, white.pk, 32);
    memcpy(m.body.start.black, black.pk, 32);
    seal_into(ref, &white, &m, &l);
    for (int i = 0; i < 6; i++) {
        const Proto_Identity *id =
            core_side_to_move(proto_transcript_position(ref)) == CORE_WHITE
                ? &white
                : &black;
        move_msg(ref, id, &m);
        seal_into(ref, id, &m, &l);
    }

    cr_assert_eq(uv_loop_init(&loop), 0);
    Netgame_Config cfg = {0};
    cfg.role = LOBBY_ROLE_SPECTATOR;
    cfg.code = "2345-6789-ABCD-EFGH";
    cfg.lobby = "127.0.0.1:9"; /* never reached: frames are fed directly */
    cr_assert_eq(netgame_new(&loop, &cfg, NULL, NULL, &g, why, sizeof why), 0,
                 "%s", why);
    /* Garbage before anything. */
    uint8_t junk[300];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)(i * 37 + 11);
    cr_assert_neq(netgame_feed(g, LOBBY_ROLE_HOST, junk, sizeof junk), 0);
    cr_assert_neq(netgame_feed(g, LOBBY_ROLE_HOST, junk, 1), 0);
    /* The real first half. */
    for (size_t i = 0; i < 4; i++)
        cr_assert_eq(netgame_feed(g, LOBBY_ROLE_HOST, l.env[i], l.len[i]), 0);
    uint32_t count = proto_transcript_count(netgame_transcript(g));
    cr_assert_eq(count, 4);
    /* A replay of an envelope already held: ignored, no effect. */
    cr_assert_eq(netgame_feed(g, LOBBY_ROLE_HOST, l.env[1], l.len[1]), 0);
    /* A flipped byte anywhere in the next envelope: refused. */
    for (size_t k = 0; k < l.len[4]; k += 7) {
        uint8_t copy[1024];
        memcpy(copy, l.env[4], l.len[4]);
        copy[k] ^= 0x20;
        cr_assert_neq(netgame_feed(g, LOBBY_ROLE_GUEST, copy, l.len[4]), 0);
    }
    /* A move forged by a key that does not play, chained correctly. */
    move_msg(netgame_transcript(g), &mallory, &m);
    proto_transcript_next(netgame_transcript(g), &m);
    {
        static uint8_t frame[PROTO_FRAME_PREFIX + PROTO_FRAME_MAX];
        size_t len = 0;
        cr_assert_eq(proto_seal(&m, &mallory, frame, sizeof frame, &len, NULL),
                     0);
        cr_assert_eq(netgame_feed(g, LOBBY_ROLE_GUEST,
                                  frame + PROTO_FRAME_PREFIX,
                                  len - PROTO_FRAME_PREFIX),
                     TB_E_SIGNATURE);
        /* The same move signed by the player whose turn it is not. */
        const Proto_Identity *wrong =
            core_side_to_move(proto_transcript_position(netgame_transcript(
                g))) == CORE_WHITE
                ? &black
                : &white;
        memcpy(m.sender, wrong->pk, 32);
        cr_assert_eq(proto_seal(&m, wrong, frame, sizeof frame, &len, NULL),
                     0);
        cr_assert_eq(netgame_feed(g, LOBBY_ROLE_GUEST,
                                  frame + PROTO_FRAME_PREFIX,
                                  len - PROTO_FRAME_PREFIX),
                     TB_E_STATE);
    }
    /* A different envelope under a sequence number already used. */
    {
        static uint8_t frame[PROTO_FRAME_PREFIX + PROTO_FRAME_MAX];
        size_t len = 0;
        Proto_Message chat;
        proto_message_init(&chat, PROTO_KIND_CHAT, &white);
        memset(chat.match_id, 9, sizeof chat.match_id);
        chat.seq = 2;
        snprintf(chat.body.text.text, sizeof chat.body.text.text, "hi");
        cr_assert_eq(proto_seal(&chat, &white, frame, sizeof frame, &len,
                                NULL),
                     0);
        cr_assert_eq(netgame_feed(g, LOBBY_ROLE_HOST,
                                  frame + PROTO_FRAME_PREFIX,
                                  len - PROTO_FRAME_PREFIX),
                     TB_E_CHAIN);
    }
    cr_assert_eq(proto_transcript_count(netgame_transcript(g)), count);
    /* The rest still plays, to the reference's position. */
    for (size_t i = 4; i < l.n; i++)
        cr_assert_eq(netgame_feed(g, LOBBY_ROLE_HOST, l.env[i], l.len[i]), 0);
    uint8_t a[32], b[32];
    proto_state_hash(proto_transcript_position(netgame_transcript(g)), a);
    proto_state_hash(proto_transcript_position(ref), b);
    cr_assert_eq(memcmp(a, b, 32), 0);
    cr_assert_geq(netgame_result(g)->refused, 5);
    netgame_free(g);
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(&loop), 0);
    for (size_t i = 0; i < l.n; i++)
        free(l.env[i]);
    proto_transcript_free(ref);
}
