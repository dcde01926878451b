/*
 * http.c: the lobby's web side (issue 14): the browser page (plain files
 * of a site folder, built by scripts/build-wasm.sh) served over HTTP by
 * libwebsockets on the lobby's own libuv loop, as a foreign loop, so one
 * process and one loop carry the framed TCP members and the browsers.
 * Only GET of files below the site folder is served (lws refuses paths
 * that climb out of it); nothing is written, nothing is executed.
 */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "lobby_internal.h"
#include "tb_error.h"

/* What lws may still read while it closes a context through the loop:
 * freed by the vhost's finalize callback, not by lobby_http_close. */
typedef struct Http_Keep {
    struct lws_http_mount mount;
    char site[1024];
} Http_Keep;

struct Lobby_Http {
    struct lws_context *ctx;
    Http_Keep *keep;
    int port;
};

static void keep_free(struct lws_vhost *vh, void *arg)
{
    (void)vh;
    free(arg);
}

/* Types lws does not know by itself: a module must be application/wasm
 * for WebAssembly.compileStreaming. */
static const struct lws_protocol_vhost_options mime_mjs = {
    NULL, NULL, ".mjs", "text/javascript"};
static const struct lws_protocol_vhost_options mime_wasm = {
    &mime_mjs, NULL, ".wasm", "application/wasm"};

static const struct lws_protocols protocols[] = {
    {"http", lws_callback_http_dummy, 0, 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

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
                   const char *site, Lobby_Http **out)
{
    char index[1100];
    struct stat st;
    *out = NULL;
    if (port < 0 || port > 65535 || strlen(site) >= sizeof ((Http_Keep *)0)->site)
        return TB_E_ARG;
    snprintf(index, sizeof index, "%s/index.html", site);
    if (stat(index, &st) != 0 || !S_ISREG(st.st_mode))
        return TB_E_IO;
    if (!can_listen(host, port))
        return TB_E_IO;
    Lobby_Http *h = calloc(1, sizeof *h);
    Http_Keep *k = calloc(1, sizeof *k);
    if (h == NULL || k == NULL) {
        free(h);
        free(k);
        return TB_E_NOMEM;
    }
    h->keep = k;
    snprintf(k->site, sizeof k->site, "%s", site);

    k->mount.mountpoint = "/";
    k->mount.mountpoint_len = 1;
    k->mount.origin = k->site;
    k->mount.def = "index.html";
    k->mount.extra_mimetypes = &mime_wasm;
    k->mount.origin_protocol = LWSMPRO_FILE;

    void *loops[1] = {loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = host;
    info.mounts = &k->mount;
    info.protocols = protocols;
    info.options = LWS_SERVER_OPTION_LIBUV |
                   LWS_SERVER_OPTION_DISABLE_IPV6 * (strchr(host, ':') == NULL);
    info.foreign_loops = loops;
    info.finalize = keep_free;
    info.finalize_arg = k;
    lws_set_log_level(LLL_ERR, NULL);
    h->ctx = lws_create_context(&info);
    if (h->ctx == NULL) {
        free(h);
        return TB_E_IO;
    }
    struct lws_vhost *vh = lws_get_vhost_by_name(h->ctx, "default");
    h->port = vh != NULL ? lws_get_vhost_listen_port(vh) : -1;
    if (h->port <= 0) {
        lws_context_destroy(h->ctx);
        free(h);
        return TB_E_IO;
    }
    *out = h;
    return 0;
}

int lobby_http_port(const Lobby_Http *h) { return h->port; }

void lobby_http_close(Lobby_Http *h)
{
    if (h == NULL)
        return;
    /* With a foreign loop, lws closes its handles through the loop; the
     * loop must keep running a little, as it does while the lobby closes
     * its own handles. keep_free frees what it may still read. */
    lws_context_destroy(h->ctx);
    free(h);
}
