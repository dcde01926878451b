/*
 * cmd_lobby.c: `tabula lobby`, a lobby relay in the foreground. It prints
 * `listening: HOST:PORT` once bound (the real port when asked for port 0)
 * so scripts and tests can read where to connect, runs until SIGINT or
 * SIGTERM, then closes every connection and prints its counters on
 * standard error. With --http it also serves the browser page (the site
 * scripts/build-wasm.sh assembles) and its counters at /metrics, and
 * prints `http: http://HOST:PORT/` (https:// with --tls-cert and
 * --tls-key: the page over HTTPS, the members over WSS).
 * It signs its receipts with a key of its own (--key FILE, or a fresh one
 * each start) and prints `relay key: FINGERPRINT` with its start lines.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "i18n.h"
#include "cli.h"
#include "club.h"
#include "lobby.h"
#include "proto.h"
#include "seat.h"
#include "tb_error.h"

#define LOBBY_DEFAULT_LISTEN "127.0.0.1:7470"
/* The command's own defaults, for a public relay on a small machine
 * (the library's Lobby_Limits defaults stay small for embedding): rooms
 * cost about 9 KB each beside the kept bytes (capped at 256 MiB in all),
 * connections about 1 KB and one descriptor each beside their write
 * queues (capped at 256 MiB in all, --max-queued-mib). */
#define LOBBY_CMD_ROOMS 10000
#define LOBBY_CMD_CONNS 20000
/* Descriptors kept for the listener, the loop, Redis and logs. */
#define LOBBY_FD_SPARE 64
#ifndef TABULA_SITE_DIR
#define TABULA_SITE_DIR "build-wasm/site"
#endif

/* printf format: the default --listen address, then the page's folder. */
static const char lobby_help[] = N_(
    "usage: tabula lobby [--listen HOST:PORT] [--http HOST:PORT [--web DIR]\n"
    "                    [--tls-cert FILE --tls-key FILE]]\n"
    "                    [--redis redis://HOST:PORT[/DB]] [--key FILE]\n"
    "                    [--max-rooms N] [--max-conns N]\n"
    "                    [--max-rooms-per-address N]\n"
    "                    [--max-conns-per-address N] [--trust CIDR]...\n"
    "                    [--max-queued-mib N] [--max-seeks N]\n"
    "                    [--max-seeks-per-address N] [--keep-days N]\n"
    "                    [--archive DIR [--archive-max-mib N]]\n"
    "                    [--ratings FILE]\n"
    "\n"
    "Runs a lobby relay: hosts create rooms, players join them by invite\n"
    "code and spectators watch by watch code; the lobby forwards frames\n"
    "and keeps each room's recent transcript for late joiners. Prints\n"
    "'listening: HOST:PORT' once bound (port 0 picks a free port) and runs\n"
    "until interrupted (SIGINT or SIGTERM).\n"
    "  --listen HOST:PORT  address to bind (default %s);\n"
    "                      HOST: IPv4, localhost, [IPv6] or a host name\n"
    "  --http HOST:PORT    also serve the browser page there and print\n"
    "                      'http: http://HOST:PORT/' once bound; the\n"
    "                      lobby's counters for Prometheus are at /metrics\n"
    "  --tls-cert FILE     serve --http over TLS (HTTPS and WSS, printed as\n"
    "                      'http: https://HOST:PORT/') with the certificate\n"
    "                      chain in FILE (PEM, e.g. certbot's\n"
    "                      fullchain.pem); exit status 2 when it is unusable\n"
    "  --tls-key FILE      the certificate's private key (PEM, without a\n"
    "                      passphrase, e.g. certbot's privkey.pem)\n"
    "  --archive DIR       keep every game relayed here from its start as a\n"
    "                      match log in DIR/logs, and DIR's ratings.txt\n"
    "                      recomputed from them; with --http all of DIR\n"
    "                      is published at /archive/ (docs/archive.md)\n"
    "  --archive-max-mib N the most MiB of logs the archive holds\n"
    "                      (default 4096); past it new games are not kept\n"
    "  --ratings FILE      pair the pool's rated offers by the list in FILE\n"
    "                      (as 'tabula ratings' prints it; read at start;\n"
    "                      default with --archive: DIR's ratings.txt,\n"
    "                      read again each time it is recomputed)\n"
    "  --web DIR           the page's folder (default the one\n"
    "                      scripts/build-wasm.sh builds:\n"
    "                      %s)\n"
    "  --redis URL         keep rooms in Redis (redis://HOST:PORT[/DB]):\n"
    "                      lobbies on one Redis are one lobby; a host on\n"
    "                      one and its guest on another play together\n"
    "                      (docs/lobby-nodes.md); exit status 2 when\n"
    "                      Redis cannot be reached at start; a password:\n"
    "                      redis://:PASSWORD@HOST:PORT (or USER:PASSWORD@)\n"
    "  --key FILE          the relay's own key pair, which signs its\n"
    "                      receipts of each frame's number and time (made\n"
    "                      in FILE, mode 0600, when missing; default: a\n"
    "                      fresh key each start); its fingerprint is\n"
    "                      printed as 'relay key: ...'\n"
    "  --max-rooms N       rooms at once (default 10000)\n"
    "  --max-conns N       connections at once (default 20000, or what the\n"
    "                      descriptor limit allows: it is raised to the\n"
    "                      hard limit at start)\n"
    "  --max-rooms-per-address N\n"
    "                      rooms one address (IPv4, or IPv6 /64) may hold\n"
    "                      (default 16)\n"
    "  --max-conns-per-address N\n"
    "                      connections from one address (default 64)\n"
    "  --trust CIDR        a network (e.g. 192.0.2.0/24) whose addresses\n"
    "                      each get 16 times every per-address share: a\n"
    "                      club whose players share one address; up to\n"
    "                      16 networks\n"
    "  --max-queued-mib N  memory (MiB) the messages waiting to be written\n"
    "                      to all connections together may hold (default\n"
    "                      256); past it the connection that holds the\n"
    "                      most, a reader too slow for its messages, is\n"
    "                      dropped first\n"
    "  --max-seeks N       open public seeks on the lobby (default 10000)\n"
    "  --max-seeks-per-address N\n"
    "                      open seeks of the rooms one address made\n"
    "                      (default 8)\n"
    "  --keep-days N       the longest a correspondence game's room is kept\n"
    "                      while both players are offline (default 30)\n");

static void lobby_usage(FILE *to)
{
    fprintf(to, _(lobby_help), LOBBY_DEFAULT_LISTEN, TABULA_SITE_DIR);
}

/* The archive's list (docs/archive.md): `tabula ratings DIR/logs
 * --relay RELAY` run again after each log kept, its standard output
 * into DIR/ratings.txt through a file renamed in place once it exited
 * well, so a reader never sees half a list. One run at a time: logs kept
 * during a run make one more run after it. */
typedef struct Lobby_Publish {
    char dir[1024];
    char relay[PROTO_FINGERPRINT_MAX];
    char ratings[1100]; /* the list the pool pairs by; "": none */
    int ratings_own;    /* it is the archive's: read again after each run */
    int told;           /* the start's line about it said */
    uv_loop_t *loop;
    uv_process_t proc;
    int running, again;
} Lobby_Publish;

typedef struct Lobby_Run {
    Lobby *lb;
    Lobby_Http *http;
    uv_signal_t sig[2];
    int stopping;
    Lobby_Publish pub;
} Lobby_Run;

static void publish(Lobby_Run *run);

/* The pool's ratings (docs/pool.md, "Rated offers") from the archive's
 * list, DIR/ratings.txt as tabula ratings printed it: its lines
 * 'rating: GAME CLASS FINGERPRINT RATING ...'. A line that says
 * otherwise is skipped (the list is this program's own output). */
static void ratings_load(Lobby_Run *run)
{
    char line[512];
    Lobby_Ratings *t;
    if (run->pub.ratings[0] == '\0')
        return;
    FILE *f = fopen(run->pub.ratings, "r");
    if (f == NULL || lobby_ratings_new(&t) != 0) {
        if (f != NULL)
            fclose(f);
        return;
    }
    for (size_t i = 0; i < core_game_count(); i++) /* (seeks name them) */
        (void)lobby_ratings_game(t, seat_pool_bit(core_game_at(i)),
                                 core_game_name(core_game_at(i)));
    while (fgets(line, sizeof line, f) != NULL) {
        char game[PROTO_NAME_MAX + 1], fp[PROTO_FINGERPRINT_MAX];
        unsigned rating;
        int k;
        const Core_Game *g;
        if (club_list_rating_line(line, game, &k, fp, &rating) == 0 &&
            (g = core_game_find(game)) != NULL)
            (void)lobby_ratings_add(t, fp, seat_pool_bit(g), (unsigned)k,
                                    rating);
    }
    fclose(f);
    lobby_use_ratings(run->lb, t);
    /* (said once at start: a list read as nothing is not silent) */
    if (!run->pub.told) {
        run->pub.told = 1;
        fprintf(stderr, "lobby: rated offers and seeks paired by %s (%zu "
                        "players rated)\n",
                run->pub.ratings, lobby_ratings_count(t));
    }
}

/* The ratings process's handle closed: a run asked for meanwhile. */
static void publish_closed(uv_handle_t *h)
{
    Lobby_Run *run = h->data;
    Lobby_Publish *pb = &run->pub;
    pb->running = 0;
    if (pb->again && !run->stopping) {
        pb->again = 0;
        publish(run);
    }
}

static void published(uv_process_t *p, int64_t status, int signum)
{
    Lobby_Run *run = p->data;
    Lobby_Publish *pb = &run->pub;
    char tmp[1100], out[1100];
    snprintf(tmp, sizeof tmp, "%s/ratings.txt.tmp", pb->dir);
    snprintf(out, sizeof out, "%s/ratings.txt", pb->dir);
    if (status == 0 && signum == 0 && rename(tmp, out) == 0) {
        chmod(out, 0644);
        if (pb->ratings_own)
            ratings_load(run);
    } else {
        fprintf(stderr, "lobby: the archive's ratings were not recomputed "
                        "(tabula ratings exited %lld)\n",
                (long long)status);
        unlink(tmp);
    }
    /* the next run only once the handle is closed: uv_spawn on a handle
     * still closing corrupts the loop's close queue (two games ending
     * during one run aborted the lobby in uv__finish_close) */
    uv_close((uv_handle_t *)p, publish_closed);
}

static void publish(Lobby_Run *run)
{
    Lobby_Publish *pb = &run->pub;
    char exe[1024], logs[1100], tmp[1100];
    size_t n = sizeof exe;
    if (run->stopping)
        return;
    if (pb->running) {
        pb->again = 1;
        return;
    }
    snprintf(logs, sizeof logs, "%s/logs", pb->dir);
    snprintf(tmp, sizeof tmp, "%s/ratings.txt.tmp", pb->dir);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || uv_exepath(exe, &n) != 0) {
        if (fd >= 0)
            close(fd);
        fprintf(stderr, "lobby: cannot recompute the archive's ratings: "
                        "%s\n",
                strerror(errno));
        return;
    }
    char *args[] = {exe, "ratings", logs, "--relay", pb->relay, NULL};
    uv_stdio_container_t io[3];
    io[0].flags = UV_IGNORE;
    io[1].flags = UV_INHERIT_FD;
    io[1].data.fd = fd;
    io[2].flags = UV_IGNORE; /* (the logs not rated: the list counts
                                them, each reader sees why) */
    uv_process_options_t po;
    memset(&po, 0, sizeof po);
    po.file = exe;
    po.args = args;
    po.exit_cb = published;
    po.stdio = io;
    po.stdio_count = 3;
    pb->proc.data = run;
    int rc = uv_spawn(pb->loop, &pb->proc, &po);
    close(fd);
    if (rc != 0) {
        fprintf(stderr, "lobby: cannot recompute the archive's ratings: "
                        "%s\n",
                uv_strerror(rc));
        unlink(tmp);
        return;
    }
    pb->running = 1;
}

static void on_kept(void *user, const char *log)
{
    (void)log;
    publish(user);
}

static int parse_count(const char *s, uint32_t *out)
{
    uint64_t v = 0;
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > 1000000)
            return -1;
    }
    if (v == 0)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Raise the descriptor limit to the hard limit and check max_conns fits
 * (given: named on the command line). A default that does not fit is
 * lowered, and *limit gets the descriptor limit that lowered it (else
 * 0) for the note after the start lines; a given number that does not
 * is an error. */
static int fit_descriptors(Lobby_Limits *lim, int given,
                           unsigned long long *limit)
{
    struct rlimit rl;
    rlim_t want = (rlim_t)lim->max_conns + LOBBY_FD_SPARE;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
            getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
        return 0;
    if (given) {
        /* (one count to a sentence: the connections decide the form) */
        fprintf(stderr,
                ngettext("tabula lobby: cannot hold %u connection: this process "
                         "may open %llu descriptors (raise the hard limit, "
                         "e.g. ulimit -Hn, or ask for fewer with "
                         "--max-conns)\n",
                         "tabula lobby: cannot hold %u connections: this "
                         "process may open %llu descriptors (raise the hard "
                         "limit, e.g. ulimit -Hn, or ask for fewer with "
                         "--max-conns)\n",
                         lim->max_conns),
                lim->max_conns, (unsigned long long)rl.rlim_cur);
        return -1;
    }
    lim->max_conns = rl.rlim_cur > 2 * LOBBY_FD_SPARE
                         ? (uint32_t)(rl.rlim_cur - LOBBY_FD_SPARE)
                         : LOBBY_FD_SPARE;
    *limit = (unsigned long long)rl.rlim_cur;
    return 0;
}

static void on_signal(uv_signal_t *h, int signum)
{
    Lobby_Run *run = h->data;
    Lobby_Stats st;

    (void)signum;
    if (run->stopping)
        return;
    run->stopping = 1;
    lobby_stats(run->lb, &st);
    fprintf(stderr,
            "lobby: stopping: rooms %zu conns %zu frames %llu bad-codes %llu "
            "rate-limited %llu dropped-slow %llu protocol-errors %llu "
            "hello-timeouts %llu refused-address %llu dropped-flood %llu "
            "unjoined-dropped %llu watches-delayed %llu idle-timeouts %llu\n",
            st.rooms, st.conns, (unsigned long long)st.frames_relayed,
            (unsigned long long)st.bad_codes,
            (unsigned long long)st.rate_limited,
            (unsigned long long)st.dropped_slow,
            (unsigned long long)st.protocol_errors,
            (unsigned long long)st.hello_timeouts,
            (unsigned long long)st.refused_address,
            (unsigned long long)st.dropped_flood,
            (unsigned long long)st.unjoined_dropped,
            (unsigned long long)st.watches_delayed,
            (unsigned long long)st.idle_timeouts);
    lobby_close(run->lb, NULL, NULL);
    lobby_http_close(run->http);
    for (int i = 0; i < 2; i++)
        uv_close((uv_handle_t *)&run->sig[i], NULL);
}

/* Can the certificate and key be served? Else says which file is not,
 * and why (exit status 2: the command line names a bad file). */
static int tls_files_usable(const char *cert, const char *key)
{
    int bad = 0;
    int rc = lobby_http_tls_check(cert, key, &bad);
    int err = errno;
    const char *file = cli_token(bad ? key : cert);
    if (rc == 0)
        return 0;
    if (rc == TB_E_IO)
        fprintf(stderr,
                bad ? _("tabula lobby: cannot read the TLS key file '%s': "
                        "%s\n")
                    : _("tabula lobby: cannot read the TLS certificate file "
                        "'%s': %s\n"),
                file, strerror(err));
    else if (rc == TB_E_MISMATCH)
        fprintf(stderr,
                _("tabula lobby: the TLS key file '%s' is not the key of the "
                  "certificate in '%s'\n"),
                file, cli_token(cert));
    else if (rc == TB_E_FORMAT)
        fprintf(stderr,
                bad ? _("tabula lobby: no private key in the TLS key file "
                        "'%s' (PEM, without a passphrase, expected)\n")
                    : _("tabula lobby: no certificate in the TLS certificate "
                        "file '%s' (PEM expected)\n"),
                file);
    else
        fprintf(stderr, _("tabula lobby: cannot use the TLS files '%s' and "
                          "'%s': %s\n"),
                cli_token(cert), cli_token(key), _(tb_strerror(rc)));
    return rc;
}

/* The archive's folders made (DIR and DIR/logs), or says why not. */
static int archive_ready(const char *dir)
{
    char logs[1100];
    snprintf(logs, sizeof logs, "%s/logs", dir);
    if (strlen(dir) >= 1000 || (mkdir(dir, 0755) != 0 && errno != EEXIST) ||
        (mkdir(logs, 0755) != 0 && errno != EEXIST)) {
        fprintf(stderr, _("tabula lobby: cannot make the archive folder "
                          "'%s': %s\n"),
                cli_token(dir), strerror(errno));
        return TB_E_IO;
    }
    return 0;
}

/* cli_lobby_http's work, over TLS when cert is not NULL (its url then
 * https://). */
static int serve_http(uv_loop_t *loop, const struct sockaddr_storage *addr,
                      const char *web, const char *archive, Lobby *lb,
                      const char *cert,
                      const char *key, Lobby_Http **out, char *url,
                      size_t url_cap)
{
    char host[64];
    int port, rc;
    if (addr->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)addr;
        uv_ip6_name(a, host, sizeof host);
        port = ntohs(a->sin6_port);
    } else {
        const struct sockaddr_in *a = (const struct sockaddr_in *)addr;
        uv_ip4_name(a, host, sizeof host);
        port = ntohs(a->sin_port);
    }
    char index[1100];
    FILE *f;
    snprintf(index, sizeof index, "%s/index.html", web);
    f = fopen(index, "r");
    if (f == NULL) {
        fprintf(stderr,
                _("tabula: no web page in %s (no index.html there): build it "
                "with scripts/build-wasm.sh, or name its folder with --web "
                "DIR\n"),
                cli_token(web));
        return TB_E_IO;
    }
    fclose(f);
    rc = lobby_http_new_tls(loop, host, port, web, archive, lb, cert, key,
                            out);
    if (rc != 0) {
        fprintf(stderr,
                _("tabula: cannot serve the web page on %s port %d: %s (is "
                "the port in use, or the address not this machine's?)\n"),
                host, port, rc == TB_E_IO ? "cannot bind" : _(tb_strerror(rc)));
        return rc;
    }
    snprintf(url, url_cap,
             addr->ss_family == AF_INET6 ? "%s://[%s]:%d/" : "%s://%s:%d/",
             cert != NULL ? "https" : "http", host, lobby_http_port(*out));
    return 0;
}

int cli_lobby_http(uv_loop_t *loop, const struct sockaddr_storage *addr,
                   const char *web, Lobby *lb, Lobby_Http **out, char *url,
                   size_t url_cap)
{
    return serve_http(loop, addr, web, NULL, lb, NULL, NULL, out, url,
                      url_cap);
}

int cli_lobby(int argc, char **argv)
{
    const char *listen = LOBBY_DEFAULT_LISTEN;
    const char *http = NULL, *web = TABULA_SITE_DIR, *redis = NULL;
    const char *key_file = NULL, *tls_cert = NULL, *tls_key = NULL;
    const char *archive = NULL, *ratings = NULL;
    Lobby_Limits lim;
    struct sockaddr_storage addr;
    Lobby_Run run;
    uv_loop_t loop;
    char where[64];
    unsigned long long fd_limit = 0; /* lowered the connections: see below */
    uint32_t queued_mib = 0;         /* --max-queued-mib (0: the default) */
    uint32_t keep_days = 0;          /* --keep-days (0: the default) */
    uint32_t archive_mib = 0; /* --archive-max-mib (0: the default) */
    int rc;

    memset(&lim, 0, sizeof lim);
    memset(&run, 0, sizeof run);
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            lobby_usage(stdout);
            return CLI_EXIT_OK;
        }
        const struct {
            const char *flag;
            uint32_t *field;
        } counts[] = {
            {"--max-rooms", &lim.max_rooms},
            {"--max-conns", &lim.max_conns},
            {"--max-rooms-per-address", &lim.source_rooms},
            {"--max-conns-per-address", &lim.source_conns},
            {"--max-queued-mib", &queued_mib},
            {"--keep-days", &keep_days},
            {"--archive-max-mib", &archive_mib},
            {"--max-seeks", &lim.max_seeks},
            {"--max-seeks-per-address", &lim.source_seeks},
        };
        const struct {
            const char *flag;
            const char **value;
        } texts[] = {
            {"--listen", &listen},
            {"--http", &http},
            {"--web", &web},
            {"--redis", &redis},
            {"--key", &key_file},
            {"--tls-cert", &tls_cert},
            {"--tls-key", &tls_key},
            {"--archive", &archive},
            {"--ratings", &ratings},
        };
        if (strcmp(argv[i], "--trust") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, _("tabula lobby: %s needs a value\n"), argv[i]);
                return CLI_EXIT_USAGE;
            }
            int trc = lobby_limits_trust(&lim, argv[++i]);
            if (trc == TB_E_LIMIT) {
                fprintf(stderr,
                        ngettext("tabula lobby: too many networks for "
                                 "--trust (at most %d)\n",
                                 "tabula lobby: too many networks for "
                                 "--trust (at most %d)\n",
                                 LOBBY_TRUST_MAX),
                        LOBBY_TRUST_MAX);
                return CLI_EXIT_USAGE;
            }
            if (trc != 0) {
                fprintf(stderr,
                        _("tabula lobby: bad network '%s' for --trust; "
                          "expected ADDRESS or ADDRESS/BITS, e.g. "
                          "192.0.2.0/24\n"),
                        cli_token(argv[i]));
                return CLI_EXIT_USAGE;
            }
            continue;
        }
        uint32_t *field = NULL;
        const char **text = NULL;
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
            if (strcmp(argv[i], counts[k].flag) == 0)
                field = counts[k].field;
        for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++)
            if (strcmp(argv[i], texts[k].flag) == 0)
                text = texts[k].value;
        if (text != NULL || field != NULL) {
            if (i + 1 >= argc) {
                fprintf(stderr, _("tabula lobby: %s needs a value\n"), argv[i]);
                return CLI_EXIT_USAGE;
            }
            if (field == NULL) {
                *text = argv[++i];
            } else if (parse_count(argv[i + 1], field) != 0) {
                fprintf(stderr,
                        _("tabula lobby: bad count '%s' for %s "
                        "(1..1000000)\n"),
                        cli_token(argv[i + 1]), argv[i]);
                return CLI_EXIT_USAGE;
            } else {
                i++;
            }
            continue;
        }
        fprintf(stderr, _("tabula lobby: unknown argument '%s'\n"),
                cli_token(argv[i]));
        lobby_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    int lrc = net_addr_parse(listen, &addr);
    int hrc = 0;
    struct sockaddr_storage http_addr;
    if (http != NULL)
        hrc = net_addr_parse(http, &http_addr);
    if (lrc == TB_E_NOTFOUND || hrc == TB_E_NOTFOUND) {
        fprintf(stderr,
                _("tabula lobby: no address found for the host name in "
                  "'%s'\n"),
                cli_token(lrc == TB_E_NOTFOUND ? listen : http));
        return CLI_EXIT_FAIL;
    }
    if (lrc != 0) {
        fprintf(stderr,
                _("tabula lobby: bad address '%s'; expected HOST:PORT, "
                "e.g. 127.0.0.1:7470\n"),
                cli_token(listen));
        return CLI_EXIT_USAGE;
    }
    if (hrc != 0) {
        fprintf(stderr,
                _("tabula lobby: bad address '%s' for --http; expected "
                "HOST:PORT, e.g. 127.0.0.1:8080\n"),
                cli_token(http));
        return CLI_EXIT_USAGE;
    }
    if ((tls_cert != NULL || tls_key != NULL) &&
        (http == NULL || tls_cert == NULL || tls_key == NULL)) {
        fprintf(stderr, _("tabula lobby: --tls-cert and --tls-key go "
                          "together, with --http\n"));
        return CLI_EXIT_USAGE;
    }
    /* Before anything is bound: a file named wrong is the command line's
     * fault. */
    if (tls_cert != NULL && tls_files_usable(tls_cert, tls_key) != 0)
        return CLI_EXIT_USAGE;
    if (archive_mib != 0 && archive == NULL) {
        fprintf(stderr, _("tabula lobby: --archive-max-mib goes with "
                          "--archive DIR\n"));
        return CLI_EXIT_USAGE;
    }
    if (ratings != NULL && access(ratings, R_OK) != 0) {
        fprintf(stderr, _("tabula lobby: cannot read the ratings list '%s': "
                          "%s\n"),
                cli_token(ratings), strerror(errno));
        return CLI_EXIT_USAGE;
    }
    lim.write_queue_total = (size_t)queued_mib << 20;
    if (keep_days > LOBBY_KEEP_DAYS_MAX) {
        fprintf(stderr,
                _("tabula lobby: bad count '%u' for --keep-days (1..%u)\n"),
                (unsigned)keep_days, (unsigned)LOBBY_KEEP_DAYS_MAX);
        return CLI_EXIT_USAGE;
    }
    lim.keep_room_ms = keep_days * 86400000u;
    {
        int given = lim.max_conns != 0;
        if (lim.max_rooms == 0)
            lim.max_rooms = LOBBY_CMD_ROOMS;
        if (lim.max_conns == 0)
            lim.max_conns = LOBBY_CMD_CONNS;
        if (fit_descriptors(&lim, given, &fd_limit) != 0)
            return CLI_EXIT_USAGE;
    }
    for (uint32_t k = 0; k < lim.ntrust; k++) {
        char net[64];
        if (lobby_limits_trust_text(&lim, k, net, sizeof net) == 0)
            fprintf(stderr,
                    _("lobby: trusting %s: each of its addresses has %d times "
                      "every per-address share\n"),
                    net, LOBBY_TRUST_FACTOR);
    }
    /* A peer that vanishes mid-write must give EPIPE, not kill us. */
    signal(SIGPIPE, SIG_IGN);
    if (uv_loop_init(&loop) != 0) {
        fprintf(stderr, _("tabula lobby: cannot start the event loop\n"));
        return CLI_EXIT_FAIL;
    }
    rc = lobby_new(&loop, (struct sockaddr *)&addr, &lim, &run.lb);
    if (rc != 0) {
        fprintf(stderr, _("tabula lobby: cannot listen on %s: %s\n"),
                cli_token(listen), net_strerror(rc));
        uv_run(&loop, UV_RUN_DEFAULT);
        uv_loop_close(&loop);
        return CLI_EXIT_FAIL;
    }
    if (redis != NULL && (rc = lobby_use_redis(run.lb, redis)) != 0) {
        /* the address as said back: never its password */
        char shown[160];
        const char *at = strrchr(redis, '@');
        snprintf(shown, sizeof shown, "%s%s", at != NULL ? "redis://" : "",
                 cli_token(at != NULL ? at + 1 : redis));
        if (rc == TB_E_AUTH)
            fprintf(stderr,
                    _("tabula lobby: Redis at '%s' refused the password, or "
                      "needs one: give it as redis://:PASSWORD@HOST:PORT "
                      "(requirepass) or redis://USER:PASSWORD@HOST:PORT (a "
                      "user)\n"),
                    shown);
        else if (rc == TB_E_STATE)
            fprintf(stderr,
                    _("tabula lobby: Redis at '%s' evicts keys when its "
                      "memory is full (its maxmemory-policy): a running "
                      "game's room could vanish; set maxmemory-policy "
                      "noeviction there\n"),
                    shown);
        else
            fprintf(stderr,
                    "tabula lobby: %s '%s'%s\n",
                    rc == TB_E_ARG ? _("bad Redis address")
                                   : _("cannot reach Redis at"),
                    shown,
                    rc == TB_E_ARG ? _("; expected redis://HOST:PORT[/DB], "
                                       "e.g. redis://127.0.0.1:6379")
                                   : _(" (is redis-server running there?)"));
        lobby_close(run.lb, NULL, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        uv_loop_close(&loop);
        return CLI_EXIT_USAGE;
    }
    if (key_file != NULL) {
        Proto_Identity key;
        rc = proto_init();
        if (rc == 0)
            rc = proto_identity_load(&key, key_file, NULL);
        if (rc == 0)
            rc = lobby_use_key(run.lb, &key);
        proto_identity_wipe(&key);
        if (rc != 0) {
            fprintf(stderr,
                    _("tabula lobby: cannot use the key file '%s': %s%s\n"),
                    cli_token(key_file), _(tb_strerror(rc)),
                    rc == TB_E_IO ? _(" (unreadable, or open to group or "
                                      "others: chmod 600 it)")
                                  : "");
            lobby_close(run.lb, NULL, NULL);
            uv_run(&loop, UV_RUN_DEFAULT);
            uv_loop_close(&loop);
            return CLI_EXIT_FAIL;
        }
    }
    if (lobby_address(run.lb, where, sizeof where) != 0)
        memcpy(where, "?", 2);
    char url[96] = "";
    if (archive != NULL &&
        (archive_ready(archive) != 0 ||
         lobby_use_archive(run.lb, archive, (uint64_t)archive_mib << 20,
                           on_kept, &run) != 0)) {
        lobby_close(run.lb, NULL, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        uv_loop_close(&loop);
        return CLI_EXIT_FAIL;
    }
    if (http != NULL) {
        rc = serve_http(&loop, &http_addr, web, archive, run.lb, tls_cert,
                        tls_key, &run.http, url, sizeof url);
        if (rc != 0) {
            lobby_close(run.lb, NULL, NULL);
            uv_run(&loop, UV_RUN_DEFAULT);
            uv_loop_close(&loop);
            return CLI_EXIT_FAIL;
        }
    }
    /* Both lines only once both addresses serve; then the key its
     * receipts are signed with (the WELCOME's relay key). */
    uint8_t relay_pk[LOBBY_KEY_BYTES];
    char fp[PROTO_FINGERPRINT_MAX];
    lobby_relay_key(run.lb, relay_pk);
    proto_fingerprint(relay_pk, fp);
    printf("listening: %s\n", where);
    if (http != NULL)
        printf("http: %s\n", url);
    printf("relay key: %s\n", fp);
    fflush(stdout);
    run.pub.loop = &loop;
    if (ratings != NULL) {
        snprintf(run.pub.ratings, sizeof run.pub.ratings, "%s", ratings);
    } else if (archive != NULL) {
        snprintf(run.pub.ratings, sizeof run.pub.ratings, "%s/ratings.txt",
                 archive);
        run.pub.ratings_own = 1;
    }
    ratings_load(&run); /* (the archive's list as it was, until it is
                           made again) */
    if (archive != NULL) { /* the list of the logs kept before this start */
        snprintf(run.pub.dir, sizeof run.pub.dir, "%s", archive);
        snprintf(run.pub.relay, sizeof run.pub.relay, "%s", fp);
        publish(&run);
    }
    /* After the start lines, as a fact of the start, not before them as
     * if something were wrong (issue 39's new user read the first line,
     * 'the descriptor limit is ...', as a warning). */
    if (fd_limit != 0)
        fprintf(stderr,
                "lobby: up to %u connections at once (this process may "
                "open %llu descriptors)\n",
                lim.max_conns, fd_limit);
    for (int i = 0; i < 2; i++) {
        uv_signal_init(&loop, &run.sig[i]);
        run.sig[i].data = &run;
        uv_signal_start(&run.sig[i], on_signal, i == 0 ? SIGINT : SIGTERM);
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    lobby_http_free(run.http);
    rc = uv_loop_close(&loop);
    return rc == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}
