/*
 * typed_match.h: a Laska match of real processes typed line by line: a
 * host and a guest in line mode whose standard input is a pipe the test
 * writes to (or a bot guest), a spectator, all three keeping logs, on
 * the host's embedded lobby or on a `tabula lobby` process of the test's
 * own; at the end, the result and final hash checked on all three and
 * recomputed from the log, the logs alike, and `tabula replay` of each
 * giving that result. Included after proc_util.h by test_conduct.c,
 * test_exploits.c and test_relay_fault.c.
 */
#ifndef TABULA_TEST_TYPED_MATCH_H
#define TABULA_TEST_TYPED_MATCH_H

/* Start TABULA_BINARY with args whose standard input is a pipe; *wfd
 * gets the pipe's writing end. */
static void start_piped(Proc *p, const char *name, const char *env,
                        char *const *args, int *wfd)
{
    int in[2];
    cr_assert_eq(pipe(in), 0);
    start_in(p, name, env, args, in[0], in[1]);
    close(in[0]);
    *wfd = in[1];
}

/* Type one line into a player's standard input. */
static void type(int fd, const char *line)
{
    size_t n = strlen(line);
    cr_assert_eq(write(fd, line, n), (ssize_t)n);
    cr_assert_eq(write(fd, "\n", 1), 1);
}

/* A lobby process of the test's own on a free port, keeping its rooms
 * in the Redis at redis ("redis://HOST:PORT"; NULL: in its memory);
 * addr gets its address. */
static void start_lobby(Proc *lobby, const char *redis, char *addr, size_t cap)
{
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL, NULL, NULL};
    if (redis != NULL) {
        la[3] = "--redis";
        la[4] = (char *)redis;
    }
    start(lobby, "lobby", NULL, la);
    await_line(lobby, "listening: ", addr, cap);
}

static void stop_lobby(Proc *lobby)
{
    kill(lobby->pid, SIGTERM);
    finish(lobby);
}

typedef struct Match {
    Proc host, guest, spec;
    int hin, gin; /* -1 for a bot guest */
} Match;

/* A failed test's processes go with it (a passed one has ended them):
 * m's three and lobby's (may be NULL). */
__attribute__((unused)) static void kill_match(Match *m, Proc *lobby)
{
    Proc *all[] = {&m->host, &m->guest, &m->spec, lobby};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (all[i] != NULL && all[i]->pid > 0 && !all[i]->exited) {
            kill(all[i]->pid, SIGKILL);
            waitpid(all[i]->pid, NULL, 0);
        }
    }
}

/* A Laska match: the host types (line mode), the guest types or is a
 * level-1 bot, a spectator watches; all three keep logs. clock (may be
 * NULL) is the host's --clock; the environment entries (may be NULL) are
 * the host's and the guest's test switches; lobby (may be NULL: the
 * host's own) the lobby's address. */
static void open_at(Match *m, int guest_bot, const char *clock,
                    const char *host_env, const char *guest_env,
                    const char *lobby)
{
    char invite[40], watch[40], addr[64];
    char *ha[] = {"host", "laska", "--log", "h.log", NULL, NULL, NULL, NULL,
                  NULL};
    int n = 4;
    if (clock != NULL) {
        ha[n++] = "--clock";
        ha[n++] = (char *)clock;
    }
    if (lobby != NULL) {
        ha[n++] = "--lobby";
        ha[n++] = (char *)lobby;
    }
    start_piped(&m->host, "host", host_env, ha, &m->hin);
    await_line(&m->host, "invite: ", invite, sizeof invite);
    await_line(&m->host, "watch: ", watch, sizeof watch);
    await_line(&m->host, "lobby: ", addr, sizeof addr);
    char *sa[] = {"spectate", watch, "--lobby", addr, "--log", "s.log", NULL};
    start(&m->spec, "spec", NULL, sa);
    m->gin = -1;
    if (guest_bot) {
        char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                      "g.log", NULL};
        start(&m->guest, "guest", guest_env, ga);
    } else {
        char *ga[] = {"join", invite, "--lobby", addr, "--log", "g.log",
                      NULL};
        start_piped(&m->guest, "guest", guest_env, ga, &m->gin);
    }
    await_line(&m->host, "match: laska", NULL, 0);
    await_line(&m->spec, "match: laska", NULL, 0);
}

/* `tabula replay` of DIR/name exits 0 and prints line (and the final
 * hash hash). */
static void replay_says(const char *name, const char *line, const char *hash)
{
    char cmd[900], out[600], want[120];
    snprintf(cmd, sizeof cmd, "'%s' replay '%s/%s' > '%s/replay-%s.out' 2>&1",
             TABULA_BINARY, dir, name, dir, name);
    cr_assert_eq(system(cmd), 0, "tabula replay %s", name);
    snprintf(want, sizeof want, "replay-%s.out", name);
    path_of(out, sizeof out, want);
    char *text = slurp(out);
    cr_assert_not_null(strstr(text, line), "%s: %s", name, text);
    snprintf(want, sizeof want, "final-hash: %s\n", hash);
    cr_assert_not_null(strstr(text, want), "%s: %s", name, text);
}

/* The match ended with result (as printed: "1/2-1/2 (agreement)") on
 * all three, which exited with the statuses given (0: a game ended
 * normally; 1: a desync), one final hash equal to the log's recomputed
 * one, identical logs, and `tabula replay` of each log shows both. */
static void end_match(Match *m, const char *result, int host_status,
                      int guest_status, int spec_status)
{
    char h[80], g[80], s[80], want[PROTO_HASH_HEX], line[120];
    cr_assert_eq(finish(&m->guest), guest_status, "%s", slurp(m->guest.err));
    cr_assert_eq(finish(&m->spec), spec_status, "%s", slurp(m->spec.err));
    cr_assert_eq(finish(&m->host), host_status, "%s", slurp(m->host.err));
    close(m->hin);
    if (m->gin >= 0)
        close(m->gin);
    snprintf(line, sizeof line, "result: %s\n", result);
    cr_assert_not_null(strstr(slurp(m->host.out), line), "%s",
                       slurp(m->host.out));
    cr_assert_not_null(strstr(slurp(m->guest.out), line), "%s",
                       slurp(m->guest.out));
    cr_assert_not_null(strstr(slurp(m->spec.out), line), "%s",
                       slurp(m->spec.out));
    await_line(&m->host, "final-hash: ", h, sizeof h);
    await_line(&m->guest, "final-hash: ", g, sizeof g);
    await_line(&m->spec, "final-hash: ", s, sizeof s);
    log_final_hash("h.log", want);
    cr_assert_str_eq(h, want);
    cr_assert_str_eq(g, want);
    cr_assert_str_eq(s, want);
    same_files("h.log", "g.log");
    same_files("h.log", "s.log");
    replay_says("h.log", line, want);
    replay_says("g.log", line, want);
    replay_says("s.log", line, want);
}

/* end_match of a match that ended normally for all three, then the
 * folder goes. */
__attribute__((unused)) static void close_match(Match *m, const char *result)
{
    end_match(m, result, 0, 0, 0);
    remove_dir();
}

#endif /* TABULA_TEST_TYPED_MATCH_H */
