/*
 * test_lobby_metrics.c: `tabula lobby --http` answers /metrics (issue 37)
 * in Prometheus's text format, version 0.0.4: every sample line is
 * `name{labels} value`, every metric has its HELP and TYPE first, and the
 * counters move by what happened: a real game between two bot seats over
 * the lobby's TCP port relays the envelopes of its log and the guest's
 * HELLO, a wrong code is one refusal with reason "code", the connections
 * read what is open, and Redis's round trips are there only with
 * --redis. Real processes; HTTP over a plain socket.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <ctype.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <regex.h>
#include <sodium.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"

#define PROC_DIR_NAME "metrics"
/* Only the process helpers are used here, not the log helpers. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "client/proc_util.h"
#pragma GCC diagnostic pop
#include "client/http_util.h"
#include "redis_util.h"

#define BODY_MAX 16384

/* The metric families of one scrape: name and TYPE, in order. */
typedef struct Family {
    char name[96];
    char type[16];
    int helped;
} Family;

static Family *family(Family *f, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(f[i].name, name) == 0)
            return &f[i];
    return NULL;
}

/* Check body is the text format: HELP, then TYPE (counter, gauge or
 * summary), then the family's samples, each `name{labels} value` with a
 * counter's name ending in _total and a summary's in _sum or _count. */
static void check_format(const char *body)
{
    static const char sample_re[] =
        "^([a-zA-Z_:][a-zA-Z0-9_:]*)"
        "(\\{[a-zA-Z_][a-zA-Z0-9_]*=\"[^\"\\\\]*\""
        "(,[a-zA-Z_][a-zA-Z0-9_]*=\"[^\"\\\\]*\")*\\})?"
        " -?[0-9]+(\\.[0-9]+)?$";
    Family fam[64];
    int nfam = 0, samples = 0;
    regex_t re;
    regmatch_t m[2];
    char line[512];

    cr_assert_eq(regcomp(&re, sample_re, REG_EXTENDED), 0);
    cr_assert(body[0] != '\0' && body[strlen(body) - 1] == '\n', "%s", body);
    for (const char *p = body; *p != '\0';) {
        size_t n = strcspn(p, "\n");
        cr_assert_lt(n, sizeof line);
        memcpy(line, p, n);
        line[n] = '\0';
        p += n + 1;
        char name[96], word[16];
        if (strncmp(line, "# HELP ", 7) == 0) {
            cr_assert_eq(sscanf(line + 7, "%95s", name), 1, "%s", line);
            cr_assert_null(family(fam, nfam, name), "HELP twice: %s", line);
            cr_assert_lt(nfam, 64);
            memset(&fam[nfam], 0, sizeof fam[nfam]);
            snprintf(fam[nfam].name, sizeof fam[nfam].name, "%s", name);
            fam[nfam++].helped = 1;
            cr_assert_gt(strlen(line), 7 + strlen(name) + 1, "%s", line);
            continue;
        }
        if (strncmp(line, "# TYPE ", 7) == 0) {
            cr_assert_eq(sscanf(line + 7, "%95s %15s", name, word), 2, "%s",
                         line);
            Family *f = family(fam, nfam, name);
            cr_assert_not_null(f, "TYPE before HELP: %s", line);
            cr_assert_eq(f->type[0], '\0', "TYPE twice: %s", line);
            cr_assert(strcmp(word, "counter") == 0 ||
                          strcmp(word, "gauge") == 0 ||
                          strcmp(word, "summary") == 0,
                      "%s", line);
            snprintf(f->type, sizeof f->type, "%s", word);
            if (strcmp(word, "counter") == 0)
                cr_assert_not_null(strstr(name, "_total"), "%s", line);
            cr_assert_eq(strncmp(name, "tabula_lobby_", 13), 0, "%s", line);
            continue;
        }
        cr_assert_neq(line[0], '#', "a comment of another kind: %s", line);
        cr_assert_eq(regexec(&re, line, 2, m, 0), 0, "not a sample: '%s'",
                     line);
        size_t len = (size_t)(m[1].rm_eo - m[1].rm_so);
        memcpy(name, line, len);
        name[len] = '\0';
        Family *f = family(fam, nfam, name);
        if (f == NULL) { /* a summary's _sum and _count */
            char *tail = strrchr(name, '_');
            cr_assert(tail != NULL && (strcmp(tail, "_sum") == 0 ||
                                       strcmp(tail, "_count") == 0),
                      "a sample without HELP and TYPE: %s", line);
            *tail = '\0';
            f = family(fam, nfam, name);
            cr_assert(f != NULL && strcmp(f->type, "summary") == 0, "%s",
                      line);
        }
        cr_assert_neq(f->type[0], '\0', "a sample before its TYPE: %s", line);
        samples++;
    }
    cr_assert_gt(samples, 0);
    regfree(&re);
}

/* GET /metrics from port: 200, the format's type, the format checked;
 * the body into out. */
static void scrape(int port, char *out, size_t cap)
{
    static char buf[BODY_MAX];
    http_get(port, "/metrics", buf, sizeof buf);
    cr_assert_eq(strncmp(buf, "HTTP/1.1 200 ", 13), 0, "%s", buf);
    cr_assert(http_head_has(buf, "\r\ncontent-type: text/plain; version=0.0.4"),
              "%s", buf);
    char *body = strstr(buf, "\r\n\r\n");
    cr_assert_not_null(body);
    cr_assert_lt(strlen(body + 4), cap);
    snprintf(out, cap, "%s", body + 4);
    check_format(out);
}

/* The value of the sample named (labels included) in body; asserted
 * present, and a whole number. */
static unsigned long long value(const char *body, const char *sample)
{
    char want[160];
    unsigned long long v;
    snprintf(want, sizeof want, "\n%s ", sample);
    const char *at = strstr(body, want);
    cr_assert_not_null(at, "no %s in:\n%s", sample, body);
    cr_assert_eq(sscanf(at + strlen(want), "%llu", &v), 1, "%s", at);
    return v;
}

static const char *const reasons[] = {
    "protocol", "version", "code",     "rate",    "full",    "seat",
    "too_big",  "timeout", "replaced", "address", "flood",   "not_allowed"};

/* Every refusal counter reads 0, but reason "code", which reads code. */
static void refusals_are(const char *body, unsigned long long code)
{
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        char s[96];
        snprintf(s, sizeof s, "tabula_lobby_refusals_total{reason=\"%s\"}",
                 reasons[i]);
        cr_assert_eq(value(body, s), strcmp(reasons[i], "code") == 0 ? code : 0,
                     "%s", s);
    }
}

static unsigned long long conns(const char *body, const char *transport)
{
    char s[96];
    snprintf(s, sizeof s, "tabula_lobby_connections{transport=\"%s\"}",
             transport);
    return value(body, s);
}

/* What a scrape of the test's lobby reads: tcp connections (the scrape
 * its one http connection, no browser), rooms, members, frames relayed;
 * no seeks. */
static void reads(const char *body, unsigned long long tcp,
                  unsigned long long rooms, unsigned long long members,
                  unsigned long long frames)
{
    cr_assert_eq(conns(body, "tcp"), tcp);
    cr_assert_eq(conns(body, "websocket"), 0);
    cr_assert_eq(conns(body, "http"), 1);
    cr_assert_eq(value(body, "tabula_lobby_rooms"), rooms);
    cr_assert_eq(value(body, "tabula_lobby_members"), members);
    cr_assert_eq(value(body, "tabula_lobby_seeks"), 0);
    cr_assert_eq(value(body, "tabula_lobby_frames_relayed_total"), frames);
}

/* A lobby serving a one-page site: its TCP address in addr, its web port
 * returned; more: further arguments (NULL-ended, up to 4). */
static int start_lobby(Proc *p, char *addr, size_t cap,
                       const char *const *more)
{
    char site[300], url[128];
    int port = 0, n = 0;
    char *args[16] = {"lobby", "--listen", "127.0.0.1:0", "--http",
                      "127.0.0.1:0", "--web", site};
    n = 7;
    for (int i = 0; more != NULL && more[i] != NULL && n < 11; i++)
        args[n++] = (char *)more[i];
    args[n] = NULL;
    snprintf(site, sizeof site, "%s/site", dir);
    cr_assert_eq(mkdir(site, 0700), 0);
    write_file("site/index.html", "x\n");
    start(p, "lobby", NULL, args);
    await_line(p, "listening: ", addr, cap);
    await_line(p, "http: http://127.0.0.1:", url, sizeof url);
    cr_assert_eq(sscanf(url, "%d/", &port), 1, "%s", url);
    return port;
}

/* The envelopes `tabula replay` verified in the log of the test's
 * folder named log. */
static unsigned long long log_envelopes(const char *log)
{
    Proc r;
    unsigned long long n = 0;
    char *args[] = {"replay", (char *)log, NULL};
    start(&r, "replay", NULL, args);
    cr_assert_eq(finish(&r), 0, "%s", slurp(r.err));
    const char *at = strstr(slurp(r.out), "verified: ");
    cr_assert_not_null(at, "%s", slurp(r.out));
    cr_assert_eq(sscanf(at, "verified: %llu envelopes", &n), 1, "%s", at);
    return n;
}

Test(lobby_metrics, a_game_moves_the_counters_by_what_it_relayed)
{
    static char s0[BODY_MAX], s1[BODY_MAX], s2[BODY_MAX], s3[BODY_MAX];
    char addr[64], invite[40], frames[32];
    Proc lobby, host, guest, bad;
    make_dir();
    int port = start_lobby(&lobby, addr, sizeof addr, NULL);

    /* Nothing yet: the scrape's own connection is the only one. */
    scrape(port, s0, sizeof s0);
    reads(s0, 0, 0, 0, 0);
    cr_assert_eq(value(s0, "tabula_lobby_received_bytes_total"), 0);
    cr_assert_eq(value(s0, "tabula_lobby_sent_bytes_total"), 0);
    refusals_are(s0, 0);
    cr_assert_null(strstr(s0, "redis"), "%s", s0);

    /* A host waiting in its room. */
    char *ha[] = {"host", "laska", "--bot=2", "--log", "h.log", "--lobby",
                  addr, "--delay", "0", NULL};
    start(&host, "host", NULL, ha);
    await_line(&host, "invite: ", invite, sizeof invite);
    scrape(port, s1, sizeof s1);
    reads(s1, 1, 1, 1, 0);
    cr_assert_gt(value(s1, "tabula_lobby_received_bytes_total"), 0);
    cr_assert_gt(value(s1, "tabula_lobby_sent_bytes_total"), 0);

    /* The game, played out. */
    char *ga[] = {"join", invite, "--lobby", addr, "--bot=1", "--log",
                  "g.log", "--delay", "0", NULL};
    start(&guest, "guest", NULL, ga);
    cr_assert_eq(finish(&guest), 0, "%s", slurp(guest.err));
    cr_assert_eq(finish(&host), 0, "%s", slurp(host.err));
    /* (the lobby hears the seats' ends a moment after they exit) */
    double until = now_ms() + WAIT_MS;
    do {
        scrape(port, s2, sizeof s2);
        cr_assert_lt(now_ms(), until, "%s", s2);
        pause_ms(10);
    } while (conns(s2, "tcp") != 0);
    /* Every envelope of the match (each seat's log holds them all, in
     * the room's order) and the guest's HELLO, outside the transcript;
     * the finished room is kept a while, empty. */
    unsigned long long env = log_envelopes("h.log");
    cr_assert_eq(log_envelopes("g.log"), env);
    reads(s2, 0, 1, 0, env + 1);
    cr_assert_gt(value(s2, "tabula_lobby_received_bytes_total"),
                 value(s1, "tabula_lobby_received_bytes_total"));
    cr_assert_gt(value(s2, "tabula_lobby_sent_bytes_total"),
                 value(s1, "tabula_lobby_sent_bytes_total"));
    refusals_are(s2, 0);

    /* A wrong code: one refusal, reason "code". */
    char *ba[] = {"join", "2345-6789-ABCD-EFGH", "--lobby", addr, NULL};
    start(&bad, "bad", NULL, ba);
    cr_assert_eq(finish(&bad), 1, "%s", slurp(bad.err));
    scrape(port, s3, sizeof s3);
    refusals_are(s3, 1);
    cr_assert_eq(value(s3, "tabula_lobby_frames_relayed_total"), env + 1);

    /* The lobby's own count on its way out says the same. */
    kill(lobby.pid, SIGTERM);
    cr_assert_eq(finish(&lobby), 0, "%s", slurp(lobby.err));
    const char *at = strstr(slurp(lobby.err), " frames ");
    cr_assert_not_null(at, "%s", slurp(lobby.err));
    snprintf(frames, sizeof frames, " frames %llu ", env + 1);
    cr_assert_eq(strncmp(at, frames, strlen(frames)), 0, "%s", at);
    remove_dir();
}

/* With --redis, the health check's round trips: the last one and their
 * sum and count, the count growing once a second. */
Test(lobby_metrics, redis_round_trips_are_shown_with_redis)
{
    static char s1[BODY_MAX], s2[BODY_MAX];
    char url[64], addr[64];
    Proc lobby;
    make_dir();
    pid_t redis = redis_up(url, sizeof url);
    cr_assert_neq(redis, 0, "no redis-server came up");
    const char *const more[] = {"--redis", url, NULL};
    int port = start_lobby(&lobby, addr, sizeof addr, more);

    static const char count[] = "tabula_lobby_redis_round_trip_seconds_count";
    double until = now_ms() + WAIT_MS;
    do {
        scrape(port, s1, sizeof s1);
        cr_assert_lt(now_ms(), until, "%s", s1);
        pause_ms(50);
    } while (value(s1, count) == 0);
    cr_assert_not_null(strstr(s1, "\ntabula_lobby_redis_round_trip_seconds_sum "),
                       "%s", s1);
    cr_assert_not_null(
        strstr(s1, "\ntabula_lobby_redis_last_round_trip_seconds "), "%s", s1);
    do {
        scrape(port, s2, sizeof s2);
        cr_assert_lt(now_ms(), until, "%s", s2);
        pause_ms(50);
    } while (value(s2, count) == value(s1, count));
    cr_assert_gt(value(s2, count), value(s1, count));

    kill(lobby.pid, SIGTERM);
    cr_assert_eq(finish(&lobby), 0, "%s", slurp(lobby.err));
    redis_kill(redis);
    remove_dir();
}

/* tabula_lobby_seeks is 0 on a fresh lobby, 1 once a seeker's seek is
 * listed (`seek: listed`), and 0 again once the seeker has left. */
Test(lobby_metrics, the_seeks_gauge_counts_open_seeks)
{
    static char s0[BODY_MAX], s1[BODY_MAX], s2[BODY_MAX];
    char addr[64];
    Proc lobby, seeker;
    make_dir();
    int port = start_lobby(&lobby, addr, sizeof addr, NULL);
    scrape(port, s0, sizeof s0);
    cr_assert_eq(value(s0, "tabula_lobby_seeks"), 0);
    char *sa[] = {"seek", "chessball", "--bot=1", "--lobby", addr, NULL};
    start(&seeker, "seeker", NULL, sa);
    await_line(&seeker, "seek: listed", NULL, 0);
    scrape(port, s1, sizeof s1);
    cr_assert_eq(value(s1, "tabula_lobby_seeks"), 1);
    kill(seeker.pid, SIGTERM);
    finish(&seeker);
    double until = now_ms() + WAIT_MS;
    do { /* (the lobby hears the seeker's close a moment later) */
        pause_ms(20);
        scrape(port, s2, sizeof s2);
    } while (value(s2, "tabula_lobby_seeks") != 0 && now_ms() < until);
    cr_assert_eq(value(s2, "tabula_lobby_seeks"), 0);
    kill(lobby.pid, SIGTERM);
    cr_assert_eq(finish(&lobby), 0, "%s", slurp(lobby.err));
    remove_dir();
}
