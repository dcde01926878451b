/*
 * http.c: the lobby's web side (issue 14): the browser page (plain files
 * of a site folder, built by scripts/build-wasm.sh) served over HTTP, and
 * lobby members over WebSocket (subprotocol "tabula-lobby", one lobby
 * message per binary message), by libwebsockets on the lobby's own libuv
 * loop as a foreign loop: one process and one loop carry the framed TCP
 * members and the browsers, and a browser member is a member like any
 * other (room.c's messages, limits, rate limits and back-pressure; here
 * only the transport). Only GET of files below the site folder is served
 * (lws refuses paths that climb out of it); nothing is written. Besides
 * the files, /metrics: the lobby's counters for Prometheus (metrics.c).
 * With a certificate and key (issue 37) all of it goes over TLS: HTTPS
 * and WSS; this is the one file that includes OpenSSL, to check them.
 */
#include <errno.h>
#include <libwebsockets.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/sockios.h>
#include <netinet/in.h>

#include "lobby_internal.h"
#include "tb_error.h"

/* A connection counted against its address's share from its accept to
 * its end, or until it becomes a member (which counts itself). */
typedef struct Http_Hold {
    struct Http_Hold *next; /* in its bucket of holds */
    const struct lws *wsi;
    char host[64];
} Http_Hold;

#define HOLD_BUCKETS 1024

struct Lobby_Http {
    struct lws_context *ctx; /* lws sets it to NULL once destroyed */
    Http_Hold *accepted; /* held at its accept, not yet given its wsi */
    Http_Hold *holds[HOLD_BUCKETS]; /* by wsi (lws's opaque user data is
                                       its own during adoption) */
    struct lws_http_mount mount; /* lws reads these until then */
    struct lws_http_mount metrics; /* /metrics, before mount */
    struct lws_http_mount archive; /* /archive/, before mount */
    char site[1024];
    char arch[1024]; /* the archive's folder; "": none */
    char cert[1024], key[1024]; /* TLS's PEM files; "": plain HTTP */
    char tcp[64];                                 /* lb's "HOST:PORT" */
    struct lws_protocol_vhost_options tcp_header; /* X-Tabula-Lobby: tcp */
    struct lws_protocol_vhost_options arch_header; /* X-Tabula-Archive */
    Lobby *lb; /* WebSocket members join it; NULL: files only */
    lws_retry_bo_t idle; /* lws reads it until the context is gone */
    int port;
};

/* ---- every connection counted ---- */

/* An IPv4 peer on a dual-stack socket reads ::ffff:a.b.c.d. */
static const char *plain_host(const char *peer)
{
    return strncmp(peer, "::ffff:", 7) == 0 && strchr(peer, '.') ? peer + 7
                                                                : peer;
}

static void hold_release(Lobby_Http *h, Http_Hold *hd)
{
    if (hd == NULL)
        return;
    if (h->lb != NULL)
        lobby__unhold(h->lb, hd->host);
    free(hd);
}

static Http_Hold **hold_slot(Lobby_Http *h, const struct lws *wsi)
{
    uintptr_t k = (uintptr_t)wsi;
    Http_Hold **p = &h->holds[(k >> 4 ^ k >> 14) % HOLD_BUCKETS];
    while (*p != NULL && (*p)->wsi != wsi)
        p = &(*p)->next;
    return p;
}

/* wsi's hold, taken out of the table (NULL: it holds none). */
static Http_Hold *hold_take(Lobby_Http *h, const struct lws *wsi)
{
    Http_Hold **p = hold_slot(h, wsi), *hd = *p;
    if (hd != NULL)
        *p = hd->next;
    return hd;
}

/* A connection just accepted on fd: held against its address's and the
 * node's connection shares (libwebsockets makes its wsi next, and
 * WSI_CREATE takes the hold over). Over a share it is answered 503 with
 * the limit's words and closed: a page is not left to time out. 0 or -1
 * (refused). */
static int http_accept(Lobby_Http *h, int fd)
{
    char peer[64] = "";

    hold_release(h, h->accepted); /* an accept lws never finished */
    h->accepted = NULL;
    if (h->lb == NULL)
        return 0;
    lws_get_peer_simple_fd(fd, peer, sizeof peer); /* as ESTABLISHED reads it */
    Http_Hold *hd = calloc(1, sizeof *hd);
    if (hd == NULL)
        return -1;
    snprintf(hd->host, sizeof hd->host, "%s", plain_host(peer));
    int rc = lobby__hold(h->lb, hd->host);
    if (rc != 0 && h->cert[0] != '\0') {
        /* Over TLS a plain answer would only break the handshake: the
         * browser shows its own error for a closed connection. */
        free(hd);
        return -1;
    }
    if (rc != 0) {
        char msg[256];
        int n = snprintf(
            msg, sizeof msg,
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
            "Connection: close\r\nRetry-After: 10\r\n\r\n%s\n",
            rc == LOBBY_ERR_ADDRESS
                ? "tabula lobby: too many connections from your address at "
                  "once; close some tabs or wait, then reload"
                : "tabula lobby: the lobby is full; try again later");
        (void)!send(fd, msg, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
        free(hd);
        return -1;
    }
    h->accepted = hd;
    return 0;
}

/* ---- WebSocket members ---- */

/* A message waiting to be written, with lws's headroom in front. */
typedef struct Ws_Out {
    struct Ws_Out *next;
    size_t len;
    size_t cost; /* what it counts in its link's queue */
    unsigned char buf[]; /* LWS_PRE + len */
} Ws_Out;

#define WS_MALLOC_OVERHEAD 16

/* How often a member's unsent bytes in the kernel are looked at (us). */
#define WS_DRAIN_LOOK_US 500000

/* One browser connection (lws's per-session data, zeroed by lws). */
typedef struct Ws_Link {
    struct lws *wsi;
    Lobby_Member *m;
    Ws_Out *head, *tail;
    size_t queued;    /* the memory its unwritten messages pin */
    size_t max_queue; /* the lobby's max_write_queue */
    int closing;   /* send nothing more; close once the queue is written */
    int outq;      /* bytes the kernel had not yet sent, at the last look */
    uint8_t *in;   /* a message being received in fragments */
    size_t in_len, in_cap;
} Ws_Link;

static void ws_drop_queue(Ws_Link *l);

static int ws_send(void *link, const uint8_t *msg, size_t len)
{
    Ws_Link *l = link;
    if (l->closing)
        return TB_E_STATE;
    /* What it pins until written: its block and the allocator's header
     * (counted so, a reader that never reads cannot pin more than its
     * share in small messages; over it, it is dropped as slow) */
    size_t cost = sizeof(Ws_Out) + LWS_PRE + len + WS_MALLOC_OVERHEAD;
    if (l->queued + cost > l->max_queue) {
        l->closing = 1;
        ws_drop_queue(l);
        lws_callback_on_writable(l->wsi);
        return UV_ENOBUFS;
    }
    Ws_Out *o = malloc(sizeof *o + LWS_PRE + len);
    if (o == NULL) {
        l->closing = 1;
        lws_callback_on_writable(l->wsi);
        return TB_E_NOMEM;
    }
    o->next = NULL;
    o->len = len;
    memcpy(o->buf + LWS_PRE, msg, len);
    if (l->tail != NULL)
        l->tail->next = o;
    else
        l->head = o;
    l->tail = o;
    o->cost = cost;
    l->queued += cost;
    lws_callback_on_writable(l->wsi);
    return 0;
}

static size_t ws_queued(const void *link)
{
    return ((const Ws_Link *)link)->queued;
}

static int ws_is_closing(const void *link)
{
    return ((const Ws_Link *)link)->closing;
}

static void ws_drop_queue(Ws_Link *l)
{
    while (l->head != NULL) {
        Ws_Out *o = l->head;
        l->head = o->next;
        free(o);
    }
    l->tail = NULL;
    l->queued = 0;
}

static void ws_close(void *link, int flush, int reason)
{
    Ws_Link *l = link;
    (void)reason;
    l->closing = 1;
    if (!flush)
        ws_drop_queue(l);
    /* The close happens in the writeable callback, on lws's terms. */
    lws_callback_on_writable(l->wsi);
}

/* Counted by the rooms against max_conns (net/ counts only its own). */
static const Lobby_Link_Ops ws_ops = {ws_send, ws_queued, ws_is_closing,
                                      ws_close, 1};

/* Does the WebSocket upgrade on wsi come from the lobby's own page? A
 * browser always names the page that opened it (Origin); it must be this
 * lobby's address (the Host it asked), else any page a player visits
 * could spend the player's share of the lobby. A client that is not a
 * browser sends no Origin and is let in (the terminal speaks TCP; tests
 * and tools may speak WebSocket). "null" (a sandboxed or file page) is
 * refused. */
static int same_origin(struct lws *wsi)
{
    char origin[256], host[256];
    const char *o = origin;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
        return 1;
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0 ||
        lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return 0;
    if (strncmp(o, "http://", 7) == 0)
        o += 7;
    else if (strncmp(o, "https://", 8) == 0)
        o += 8;
    return strcmp(o, host) == 0;
}

static int ws_callback(struct lws *wsi, enum lws_callback_reasons reason,
                       void *user, void *in, size_t len)
{
    Ws_Link *l = user;
    Lobby_Http *h = lws_context_user(lws_get_context(wsi));

    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return same_origin(wsi) ? 0 : -1; /* nonzero refuses the upgrade */
    case LWS_CALLBACK_ESTABLISHED: {
        char peer[64] = "";
        lws_get_peer_simple(wsi, peer, sizeof peer);
        const char *host = plain_host(peer);
        /* A member now: it counts itself, the hold is given back. */
        hold_release(h, hold_take(h, wsi));
        l->wsi = wsi;
        lws_set_timer_usecs(wsi, WS_DRAIN_LOOK_US);
        l->max_queue =
            h->lb != NULL ? lobby__limits(h->lb)->max_write_queue : 0;
        l->m = h->lb != NULL ? lobby__member_new(h->lb, &ws_ops, l, host) : NULL;
        return l->m == NULL ? -1 : 0;
    }
    case LWS_CALLBACK_RECEIVE: {
        if (l->m == NULL || l->closing)
            return 0;
        size_t cap = lobby__limits(h->lb)->max_payload + LOBBY_FRAME_HEADER;
        if (!lws_frame_is_binary(wsi) || l->in_len + len > cap) {
            /* Not a lobby message: the relay's own refusal, then close. */
            uint8_t p = 0xff;
            lobby__member_frame(h->lb, l->m, &p, 1);
            return 0;
        }
        if (l->in_len + len > l->in_cap) {
            size_t ncap = l->in_cap ? l->in_cap : 256;
            while (ncap < l->in_len + len)
                ncap *= 2;
            uint8_t *n = realloc(l->in, ncap);
            if (n == NULL)
                return -1;
            l->in = n;
            l->in_cap = ncap;
        }
        memcpy(l->in + l->in_len, in, len);
        l->in_len += len;
        if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
            return 0;
        if (l->in_len > 0)
            lobby__member_frame(h->lb, l->m, l->in, l->in_len);
        l->in_len = 0;
        return 0;
    }
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        Ws_Out *o = l->head;
        if (o == NULL)
            return l->closing ? -1 : 0;
        if (lws_write(wsi, o->buf + LWS_PRE, o->len, LWS_WRITE_BINARY) <
            (int)o->len)
            return -1;
        l->head = o->next;
        if (l->head == NULL)
            l->tail = NULL;
        l->queued -= o->cost;
        free(o);
        if (l->head != NULL || l->closing)
            lws_callback_on_writable(wsi);
        else if (l->m != NULL)
            lobby_rooms_drained(l->m);
        return 0;
    }
    case LWS_CALLBACK_TIMER: {
        /* The kernel still sending what was written, and less of it than
         * at the last look: the browser is taking it, on a link too
         * narrow for lws's ping (behind the backlog) to come back in
         * time. It is alive. */
        int outq = 0;
        if (ioctl(lws_get_socket_fd(wsi), SIOCOUTQ, &outq) == 0 && outq > 0 &&
            outq < l->outq)
            lws_validity_confirmed(wsi);
        l->outq = outq;
        lws_set_timer_usecs(wsi, WS_DRAIN_LOOK_US);
        return 0;
    }
    case LWS_CALLBACK_CLOSED: {
        Lobby_Member *m = l->m;
        l->m = NULL;
        l->closing = 1;
        ws_drop_queue(l);
        free(l->in);
        l->in = NULL;
        if (m != NULL)
            lobby__member_closed(h->lb, m);
        return 0;
    }
    default:
        return 0;
    }
}




/* Types lws does not know by itself: a module must be application/wasm
 * for WebAssembly.compileStreaming. */
static const struct lws_protocol_vhost_options mime_mjs = {
    NULL, NULL, ".mjs", "text/javascript"};
static const struct lws_protocol_vhost_options mime_wasm = {
    &mime_mjs, NULL, ".wasm", "application/wasm"};

/* The archive's documents (docs/archive.md): match logs as bytes, the
 * lists and a director's signed documents as UTF-8 text. */
static const struct lws_protocol_vhost_options mime_txt = {
    NULL, NULL, ".txt", "text/plain; charset=utf-8"};
static const struct lws_protocol_vhost_options mime_pairings = {
    &mime_txt, NULL, ".pairings", "text/plain; charset=utf-8"};
static const struct lws_protocol_vhost_options mime_results = {
    &mime_pairings, NULL, ".results", "text/plain; charset=utf-8"};
static const struct lws_protocol_vhost_options mime_trf = {
    &mime_results, NULL, ".trf", "text/plain; charset=utf-8"};
static const struct lws_protocol_vhost_options mime_archive = {
    &mime_trf, NULL, ".log", "application/octet-stream"};

/* The files; and a WebSocket upgrade that named no "tabula-lobby"
 * subprotocol (lws gives it to the first protocol): refused, not held
 * open outside every count of the rooms. */
static int http_callback(struct lws *wsi, enum lws_callback_reasons reason,
                         void *user, void *in, size_t len)
{
    Lobby_Http *h = lws_context_user(lws_get_context(wsi));

    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return -1;
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return http_accept(h, (int)(lws_intptr_t)in);
    case LWS_CALLBACK_WSI_CREATE:
        /* lws makes an accepted connection's wsi right after the filter
         * (and makes wsi of its own, which hold nothing). */
        if (h->accepted != NULL) {
            Http_Hold **p = hold_slot(h, wsi);
            h->accepted->wsi = wsi;
            h->accepted->next = *p;
            *p = h->accepted;
            h->accepted = NULL;
        }
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        hold_release(h, hold_take(h, wsi));
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

/* ---- /metrics ---- */

/* The answer's most bytes (lobby_metrics_text's text is about 3 KiB). */
#define METRICS_MAX 8192

/* One scrape's answer (lws's per-session data of the metrics protocol,
 * only on connections that asked for /metrics). */
typedef struct Metrics_Out {
    size_t len; /* bytes of buf after LWS_PRE to write; 0: none */
    unsigned char buf[LWS_PRE + METRICS_MAX];
} Metrics_Out;

/* GET /metrics: the counters as they are at the request; everything
 * else as http_callback has it (the holds, lws's own reasons). */
static int metrics_callback(struct lws *wsi, enum lws_callback_reasons reason,
                            void *user, void *in, size_t len)
{
    Lobby_Http *h = lws_context_user(lws_get_context(wsi));
    Metrics_Out *mo = user;

    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return -1; /* no WebSocket here */
    case LWS_CALLBACK_HTTP: {
        unsigned char head[LWS_PRE + 1024];
        unsigned char *start = head + LWS_PRE, *p = start;
        unsigned char *end = head + sizeof head - 1;
        char uri[16];
        Lobby_Stats st;
        int n;
        /* Only GET of /metrics itself (lws hands this protocol every
         * path below it too, and other methods). */
        if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 ||
            strcmp(uri, "/metrics") != 0)
            return lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL)
                       ? -1
                       : lws_http_transaction_completed(wsi);
        lobby_stats(h->lb, &st);
        n = lobby_metrics_text(&st, (char *)mo->buf + LWS_PRE, METRICS_MAX);
        if (n < 0)
            return -1;
        mo->len = (size_t)n;
        if (lws_add_http_common_headers(
                wsi, HTTP_STATUS_OK, "text/plain; version=0.0.4; charset=utf-8",
                (lws_filepos_t)n, &p, end) ||
            lws_finalize_write_http_header(wsi, start, &p, end))
            return -1;
        lws_callback_on_writable(wsi);
        return 0;
    }
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if (mo == NULL || mo->len == 0)
            break;
        if (lws_write(wsi, mo->buf + LWS_PRE, mo->len, LWS_WRITE_HTTP_FINAL) <
            (int)mo->len)
            return -1;
        mo->len = 0;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    default:
        break;
    }
    return http_callback(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    {"http", http_callback, 0, 0, 0, NULL, 0},
    {"tabula-lobby", ws_callback, sizeof(Ws_Link), 4096, 0, NULL, 0},
    {"tabula-metrics", metrics_callback, sizeof(Metrics_Out), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- TLS ---- */

/* A key asking for a passphrase is refused, never asked on a terminal. */
static int no_passphrase(char *buf, int size, int rwflag, void *user)
{
    (void)buf;
    (void)size;
    (void)rwflag;
    (void)user;
    return -1;
}

/* Can path be opened for reading as a file? 0, or TB_E_IO with errno. */
static int readable(const char *path)
{
    struct stat st;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return TB_E_IO;
    int dir = fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode);
    fclose(f);
    if (dir) {
        errno = EISDIR;
        return TB_E_IO;
    }
    return 0;
}

int lobby_http_tls_check(const char *cert, const char *key, int *bad)
{
    SSL_CTX *ctx = NULL;
    EVP_PKEY *pk = NULL;
    FILE *f;
    int rc;

    *bad = 0;
    if (cert == NULL || key == NULL)
        return TB_E_ARG;
    if (readable(cert) != 0)
        return TB_E_IO;
    *bad = 1;
    if (readable(key) != 0)
        return TB_E_IO;
    *bad = 0;
    ctx = SSL_CTX_new(TLS_server_method());
    if (ctx == NULL) {
        rc = TB_E_CRYPTO;
        goto done;
    }
    if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
        rc = TB_E_FORMAT;
        goto done;
    }
    *bad = 1;
    f = fopen(key, "r");
    if (f == NULL) {
        rc = TB_E_IO;
        goto done;
    }
    pk = PEM_read_PrivateKey(f, NULL, no_passphrase, NULL);
    fclose(f);
    if (pk == NULL) {
        rc = TB_E_FORMAT;
        goto done;
    }
    rc = SSL_CTX_use_PrivateKey(ctx, pk) == 1 &&
                 SSL_CTX_check_private_key(ctx) == 1
             ? 0
             : TB_E_MISMATCH;
done:
    EVP_PKEY_free(pk);
    SSL_CTX_free(ctx);
    ERR_clear_error();
    return rc;
}

/* Can host:port be bound and listened on? Checked before lws tries:
 * libwebsockets 4.1 with a foreign libuv loop crashes later in the loop
 * when its context creation fails half way (its handles close after the
 * event-library plugin is gone; warmcat/libwebsockets#2129). Port 0
 * always can. 1 yes, 0 no. */
static int can_listen(const char *host, int port)
{
    struct sockaddr_storage ss;
    socklen_t sl;
    int fd, ok, one = 1;
    memset(&ss, 0, sizeof ss);
    if (port == 0)
        return 1;
    if (strchr(host, ':') != NULL) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
            return 0;
        sl = sizeof *a;
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        a->sin_family = AF_INET;
        a->sin_port = htons((uint16_t)port);
        if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
            return 0;
        sl = sizeof *a;
    }
    fd = socket(ss.ss_family, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    ok = bind(fd, (struct sockaddr *)&ss, sl) == 0 && listen(fd, 1) == 0;
    close(fd);
    return ok;
}

int lobby_http_new(uv_loop_t *loop, const char *host, int port,
                   const char *site, Lobby *lb, Lobby_Http **out)
{
    return lobby_http_new_tls(loop, host, port, site, NULL, lb, NULL, NULL,
                              out);
}

int lobby_http_new_tls(uv_loop_t *loop, const char *host, int port,
                       const char *site, const char *archive, Lobby *lb,
                       const char *cert, const char *key, Lobby_Http **out)
{
    char index[1100];
    struct stat st;
    int bad;
    *out = NULL;
    if (port < 0 || port > 65535 ||
        strlen(site) >= sizeof ((Lobby_Http *)0)->site ||
        (archive != NULL && strlen(archive) >= sizeof ((Lobby_Http *)0)->arch))
        return TB_E_ARG;
    if (cert != NULL &&
        (strlen(cert) >= sizeof ((Lobby_Http *)0)->cert || key == NULL ||
         strlen(key) >= sizeof ((Lobby_Http *)0)->key))
        return TB_E_ARG;
    /* Checked here, not left to lws: its context failing half way on a
     * foreign loop crashes later (can_listen, below). */
    if (cert != NULL) {
        int rc = lobby_http_tls_check(cert, key, &bad);
        if (rc != 0)
            return rc;
    }
    snprintf(index, sizeof index, "%s/index.html", site);
    if (stat(index, &st) != 0 || !S_ISREG(st.st_mode))
        return TB_E_IO;
    if (!can_listen(host, port))
        return TB_E_IO;
    Lobby_Http *h = calloc(1, sizeof *h);
    if (h == NULL)
        return TB_E_NOMEM;
    h->lb = lb;
    snprintf(h->site, sizeof h->site, "%s", site);
    if (archive != NULL)
        snprintf(h->arch, sizeof h->arch, "%s", archive);
    if (cert != NULL) {
        snprintf(h->cert, sizeof h->cert, "%s", cert);
        snprintf(h->key, sizeof h->key, "%s", key);
    }

    h->mount.mountpoint = "/";
    h->mount.mountpoint_len = 1;
    h->mount.origin = h->site;
    h->mount.def = "index.html";
    h->mount.extra_mimetypes = &mime_wasm;
    h->mount.origin_protocol = LWSMPRO_FILE;
    /* The lobby's counters, where there is a lobby (lws takes the mount
     * whose point matches the path longest). */
    h->metrics.mount_next = &h->mount;
    /* The archive's folder, read only, where there is one. */
    if (h->arch[0] != '\0') {
        h->archive.mount_next = &h->mount;
        h->archive.mountpoint = "/archive";
        h->archive.mountpoint_len = 8;
        h->archive.origin = h->arch;
        h->archive.def = "index.txt";
        h->archive.extra_mimetypes = &mime_archive;
        h->archive.origin_protocol = LWSMPRO_FILE;
        h->metrics.mount_next = &h->archive;
    }
    h->metrics.mountpoint = "/metrics";
    h->metrics.mountpoint_len = 8;
    h->metrics.origin = "tabula-metrics"; /* the protocol that answers */
    h->metrics.origin_protocol = LWSMPRO_CALLBACK;
    /* Every response names the lobby's framed TCP address, so a page
     * hosting a game can show the command a terminal player types. */
    if (lb != NULL && lobby_address(lb, h->tcp, sizeof h->tcp) == 0) {
        h->tcp_header.name = "x-tabula-lobby:";
        h->tcp_header.value = h->tcp;
    }
    /* ... and whether it publishes an archive (docs/archive.md), so the
     * page asks for a ratings list only where one may be. */
    const struct lws_protocol_vhost_options *headers =
        h->tcp_header.name != NULL ? &h->tcp_header : NULL;
    if (h->arch[0] != '\0') {
        h->arch_header.name = "x-tabula-archive:";
        h->arch_header.value = "/archive/";
        h->arch_header.next = headers;
        headers = &h->arch_header;
    }

    void *loops[1] = {loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = host;
    info.mounts = lb != NULL ? &h->metrics : &h->mount;
    info.headers = headers;
    info.protocols = protocols;
    info.options = LWS_SERVER_OPTION_LIBUV |
                   LWS_SERVER_OPTION_DISABLE_IPV6 * (strchr(host, ':') == NULL);
    if (h->cert[0] != '\0') {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = h->cert;
        info.ssl_private_key_filepath = h->key;
        /* HTTP/1.1 only, as without TLS: one connection is one wsi, which
         * the holds count (HTTP/2 would carry a browser's WebSocket as a
         * stream of a connection already held). */
        info.alpn = "http/1.1";
    }
    info.foreign_loops = loops;
    info.user = h;
    /* lws pings a quiet browser and hangs up on one that stays silent:
     * the lobby's heartbeat and idle timeout, as for its TCP members
     * (whole seconds for lws, at least 1). */
    {
        const Lobby_Limits *lim = lb != NULL ? lobby__limits(lb) : NULL;
        uint32_t ping = lim != NULL ? lim->heartbeat_ms : 5000;
        uint32_t hang = lim != NULL ? lim->idle_timeout_ms : 15000;
        ping = ping > 60000 ? 60000 : ping;
        hang = hang > 600000 ? 600000 : hang;
        h->idle.secs_since_valid_ping = (uint16_t)((ping + 999) / 1000);
        h->idle.secs_since_valid_hangup = (uint16_t)((hang + 999) / 1000);
        if (h->idle.secs_since_valid_hangup <= h->idle.secs_since_valid_ping)
            h->idle.secs_since_valid_hangup =
                (uint16_t)(h->idle.secs_since_valid_ping + 1);
    }
    info.retry_and_idle_policy = &h->idle;
    info.pcontext = &h->ctx;
    lws_set_log_level(LLL_ERR, NULL);
    h->ctx = lws_create_context(&info);
    if (h->ctx == NULL) {
        free(h);
        return TB_E_IO;
    }
    struct lws_vhost *vh = lws_get_vhost_by_name(h->ctx, "default");
    h->port = vh != NULL ? lws_get_vhost_listen_port(vh) : -1;
    if (h->port <= 0) {
        /* Not seen: can_listen checked the address. The context is left
         * to close with the loop rather than freed under lws's feet. */
        lws_context_destroy(h->ctx);
        return TB_E_IO;
    }
    *out = h;
    return 0;
}

int lobby_http_port(const Lobby_Http *h) { return h->port; }

void lobby_http_close(Lobby_Http *h)
{
    /* With a foreign loop, lws closes its handles through the loop: the
     * loop must run on before lobby_http_free. */
    if (h != NULL && h->ctx != NULL)
        lws_context_destroy(h->ctx);
}


void lobby_http_free(Lobby_Http *h)
{
    if (h == NULL)
        return;
    /* The second call finishes what the first began once the loop has
     * closed lws's handles (lws 4.1 with a foreign loop frees its context
     * only then). */
    if (h->ctx != NULL)
        lws_context_destroy(h->ctx);
    hold_release(h, h->accepted);
    for (size_t i = 0; i < HOLD_BUCKETS; i++)
        while (h->holds[i] != NULL) {
            Http_Hold *hd = h->holds[i];
            h->holds[i] = hd->next;
            free(hd);
        }
    free(h);
}
