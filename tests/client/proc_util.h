/*
 * proc_util.h: real tabula processes for the network tests: start one
 * with its output in files of a temporary directory, wait for a line,
 * finish or kill it; recompute a log's final hash and compare logs.
 * Included by the network tests (test_netplay.c, test_conduct.c,
 * test_exploits.c and others), each defining PROC_DIR_NAME (the
 * directory's name part) first.
 */
#ifndef TABULA_TEST_PROC_UTIL_H
#define TABULA_TEST_PROC_UTIL_H

#include <errno.h>
#include <time.h>

#define WAIT_MS 60000

typedef struct Proc {
    pid_t pid;
    char out[600], err[600];
    int status;
    int exited;
} Proc;

static char dir[256];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/tabula-%s-XXXXXX", PROC_DIR_NAME);
    cr_assert_not_null(mkdtemp(dir));
}

/* Remove the test's directory (only reached when the test passed, so a
 * failure leaves its outputs for reading). */
static void remove_dir(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static void pause_ms(int ms)
{
    /* (tv_nsec must stay below a second: nanosleep refuses more) */
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Start TABULA_BINARY with args (NULL-terminated); stdout and stderr go
 * to DIR/name.out and DIR/name.err (appended, so a restart keeps both);
 * standard input is in_fd, or /dev/null when it is -1; the child closes
 * close_fd (a pipe's other end; -1: none). */
static void start_in(Proc *p, const char *name, const char *env,
                     char *const *args, int in_fd, int close_fd)
{
    char *argv[16];
    int n = 0;
    memset(p, 0, sizeof *p);
    snprintf(p->out, sizeof p->out, "%s/%s.out", dir, name);
    snprintf(p->err, sizeof p->err, "%s/%s.err", dir, name);
    argv[n++] = (char *)TABULA_BINARY;
    for (int i = 0; args[i] != NULL && n < 15; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    p->pid = fork();
    cr_assert_geq(p->pid, 0);
    if (p->pid == 0) {
        int fo = open(p->out, O_WRONLY | O_CREAT | O_APPEND, 0600);
        int fe = open(p->err, O_WRONLY | O_CREAT | O_APPEND, 0600);
        int fi = in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY);
        if (chdir(dir) != 0 || fo < 0 || fe < 0 || fi < 0)
            _exit(127);
        dup2(fo, 1);
        dup2(fe, 2);
        dup2(fi, 0);
        if (close_fd >= 0)
            close(close_fd);
        if (env != NULL)
            putenv((char *)env);
        execv(TABULA_BINARY, argv);
        _exit(127);
    }
}

static void start(Proc *p, const char *name, const char *env, char *const *args)
{
    start_in(p, name, env, args, -1, -1);
}

static char *slurp(const char *path)
{
    static char buf[4][1 << 16];
    static int k;
    char *b = buf[k++ % 4];
    FILE *f = fopen(path, "r");
    size_t n = 0;
    if (f != NULL) {
        n = fread(b, 1, sizeof buf[0] - 1, f);
        fclose(f);
    }
    b[n] = '\0';
    return b;
}

/* Wait (bounded) until p's stdout holds text; the text after it up to the
 * end of line goes into val (may be NULL). */
static void await_line(Proc *p, const char *text, char *val, size_t cap)
{
    double until = now_ms() + WAIT_MS;
    for (;;) {
        char *s = slurp(p->out), *at = strstr(s, text);
        if (at != NULL) {
            if (val != NULL) {
                at += strlen(text);
                size_t n = strcspn(at, "\n");
                cr_assert_lt(n, cap);
                memcpy(val, at, n);
                val[n] = '\0';
            }
            return;
        }
        cr_assert_lt(now_ms(), until, "no '%s' from %s:\n%s\n%s", text, p->out,
                     s, slurp(p->err));
        pause_ms(5);
    }
}

/* Wait (bounded by limit_ms) until p's stderr holds text; returns the
 * milliseconds waited. */
__attribute__((unused)) static double await_err(Proc *p, const char *text,
                                                double limit_ms)
{
    double t0 = now_ms();
    while (strstr(slurp(p->err), text) == NULL) {
        cr_assert_lt(now_ms() - t0, limit_ms, "no '%s' from %s:\n%s", text,
                     p->err, slurp(p->err));
        pause_ms(5);
    }
    return now_ms() - t0;
}

/* Wait (bounded) for p to exit; returns its exit status. */
static int finish(Proc *p)
{
    double until = now_ms() + WAIT_MS;
    while (!p->exited) {
        int st;
        pid_t r = waitpid(p->pid, &st, WNOHANG);
        if (r == p->pid) {
            p->exited = 1;
            p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            break;
        }
        if (now_ms() > until) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &st, 0);
            cr_assert_fail("%s did not finish:\n%s", p->out, slurp(p->err));
        }
        pause_ms(5);
    }
    return p->status;
}

/* Write text into the file name of the test's directory. */
__attribute__((unused)) static void write_file(const char *name,
                                               const char *text)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static void path_of(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
}

/* The final hash recomputed from a log: verify it, replay its moves on a
 * fresh position of its game, hash the encoding with BLAKE2b-256. */
static void log_final_hash(const char *name, char hex[PROTO_HASH_HEX])
{
    char path[600];
    uint8_t *buf = NULL, enc[1 << 16], hash[32];
    size_t len = 0, enc_len = 0;
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    Core_Position *pos = NULL;

    path_of(path, sizeof path, name);
    cr_assert_eq(proto_read_file(path, &buf, &len), 0, "%s", path);
    cr_assert_eq(proto_log_verify(buf, len, NULL, NULL, NULL, &t, &rep), 0,
                 "%s: %s", path, rep.why);
    cr_assert(rep.ended, "%s has no end record", path);
    /* The game's options: the match options without the clock. */
    char opts[PROTO_OPTIONS_MAX + 1];
    Proto_Clock clk;
    cr_assert_eq(proto_clock_split(rep.header.options, &clk, opts,
                                   sizeof opts),
                 0);
    cr_assert_eq(core_position_new(&pos, core_game_find(rep.header.game),
                                   opts),
                 0);
    for (size_t i = 0; i < proto_transcript_moves(t); i++)
        cr_assert_eq(core_play(pos, proto_transcript_move_at(t, i)), 0);
    cr_assert_eq(core_encode(pos, enc, sizeof enc, &enc_len), 0);
    crypto_generichash(hash, sizeof hash, enc, enc_len, NULL, 0);
    for (size_t i = 0; i < sizeof hash; i++)
        snprintf(hex + 2 * i, 3, "%02x", hash[i]);
    core_position_free(pos);
    proto_transcript_free(t);
    free(buf);
}

__attribute__((unused)) static void same_files(const char *a, const char *b)
{
    char pa[600], pb[600];
    uint8_t *ba = NULL, *bb = NULL;
    size_t la = 0, lb = 0;
    path_of(pa, sizeof pa, a);
    path_of(pb, sizeof pb, b);
    cr_assert_eq(proto_read_file(pa, &ba, &la), 0, "%s", pa);
    cr_assert_eq(proto_read_file(pb, &bb, &lb), 0, "%s", pb);
    cr_assert(la == lb && memcmp(ba, bb, la) == 0, "%s and %s differ", a, b);
    free(ba);
    free(bb);
}

/* Host, guest and spectator all ended normally on one final hash, equal
 * to the one recomputed from the host's log, with byte-identical verified
 * logs h.log, g.log and s.log. */
/* The records of a log file, split: its envelopes in order (all
 * other frames' bytes concatenated in order, as one string) and its
 * receipt records in order of the envelope each names. */
__attribute__((unused)) static void log_parts(const char *name, char **envs, size_t *envs_len,
                      char **rcpts, size_t *rcpts_len)
{
    char pa[600];
    uint8_t *b = NULL;
    size_t n = 0, off = PROTO_LOG_MAGIC_LEN;
    path_of(pa, sizeof pa, name);
    cr_assert_eq(proto_read_file(pa, &b, &n), 0, "%s", pa);
    *envs = malloc(n + 1);
    *rcpts = malloc(n + 1);
    *envs_len = *rcpts_len = 0;
    /* receipts in a version 2 or 3 log name their envelope; they are taken in
     * order, so each seat writes them in envelope order: concatenated
     * they compare as a set keyed by envelope */
    while (off + 4 <= n) {
        size_t len = (size_t)b[off] << 24 | (size_t)b[off + 1] << 16 |
                     (size_t)b[off + 2] << 8 | b[off + 3];
        cr_assert_leq(off + 4 + len, n, "%s: torn", name);
        const uint8_t *body = b + off + 4;
        int receipt = len > 100 && proto_log_is_record(body, len);
        if (!receipt && proto_log_is_record(body, len)) {
            off += 4 + len; /* a seat's own evidence: not the match's */
            continue;
        }
        char *to = receipt ? *rcpts : *envs;
        size_t *at = receipt ? rcpts_len : envs_len;
        /* a receipt's relay key and signature (bin 32, bin 64: its last
         * 100 bytes) are the node's own: with several nodes each seat's
         * node signs the same number and time */
        size_t keep = receipt ? len - 100 : len;
        memcpy(to + *at, body, keep);
        *at += keep;
        off += 4 + len;
    }
    free(b);
}

/* Two logs of one match hold the same envelopes and the same receipts
 * of the relay (numbers and times; each node signs with its own key);
 * where a seat wrote each receipt between the envelopes may differ after
 * a relay restart (each seat takes the re-made room's receipts as they
 * come: docs/protocol.md, G-MC-6w), not what they say. */
__attribute__((unused)) static void same_match_logs(const char *a, const char *b)
{
    char *ea, *ra, *eb, *rb;
    size_t lea, lra, leb, lrb;
    log_parts(a, &ea, &lea, &ra, &lra);
    log_parts(b, &eb, &leb, &rb, &lrb);
    cr_assert(lea == leb && memcmp(ea, eb, lea) == 0,
              "%s and %s hold other envelopes", a, b);
    cr_assert(lra == lrb && memcmp(ra, rb, lra) == 0,
              "%s and %s hold other receipts", a, b);
    free(ea);
    free(ra);
    free(eb);
    free(rb);
}

__attribute__((unused)) static void check_three_logs(Proc *host, Proc *guest,
                                                     Proc *spec)
{
    char h[80], g[80], s[80], want[PROTO_HASH_HEX];
    cr_assert_eq(finish(guest), 0, "%s", slurp(guest->err));
    cr_assert_eq(finish(spec), 0, "%s", slurp(spec->err));
    cr_assert_eq(finish(host), 0, "%s", slurp(host->err));
    await_line(host, "final-hash: ", h, sizeof h);
    await_line(guest, "final-hash: ", g, sizeof g);
    await_line(spec, "final-hash: ", s, sizeof s);
    log_final_hash("h.log", want);
    cr_assert_str_eq(h, want);
    cr_assert_str_eq(g, want);
    cr_assert_str_eq(s, want);
    same_match_logs("h.log", "g.log");
    same_match_logs("h.log", "s.log");
}

#endif /* TABULA_TEST_PROC_UTIL_H */
