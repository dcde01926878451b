/*
 * http_util.h: HTTP/1.1 GETs from a lobby's web port on 127.0.0.1 for the
 * tests of `tabula lobby --http`: over a plain socket (http_get), or over
 * TLS checked against the test's own certificate (https_get, OpenSSL,
 * which the lobby links for its certificate checks). Header-only, static
 * functions; the includer has <criterion/criterion.h>, <arpa/inet.h>,
 * <netinet/in.h>, <sys/socket.h>, <unistd.h>, <ctype.h>, <stdio.h> and
 * <string.h>.
 */
#ifndef TABULA_TEST_HTTP_UTIL_H
#define TABULA_TEST_HTTP_UTIL_H

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/* A connected socket to 127.0.0.1:port (asserted). */
static inline int http_connect(int port)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* The request for path, closing the connection after its answer. */
static inline int http_request(char *req, size_t cap, const char *path)
{
    return snprintf(
        req, cap,
        "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        path);
}

/* GET path from 127.0.0.1:port in plain HTTP; the whole answer (or what
 * came before the port closed) into buf (cap bytes, NUL-ended). */
static inline void http_get(int port, const char *path, char *buf, size_t cap)
{
    char req[512];
    size_t n = 0;
    int fd = http_connect(port);
    int len = http_request(req, sizeof req, path);
    cr_assert_eq(write(fd, req, (size_t)len), (ssize_t)len);
    for (;;) {
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    close(fd);
}

/* GET path from 127.0.0.1:port over TLS, the server's certificate
 * verified against the PEM file ca for the address 127.0.0.1; the whole
 * answer into buf (cap bytes, NUL-ended). */
static inline void https_get(int port, const char *path, const char *ca,
                             char *buf, size_t cap)
{
    char req[512];
    size_t n = 0;
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    cr_assert_not_null(ctx);
    cr_assert_eq(SSL_CTX_load_verify_locations(ctx, ca, NULL), 1, "%s", ca);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    int fd = http_connect(port);
    SSL *ssl = SSL_new(ctx);
    cr_assert_not_null(ssl);
    cr_assert_eq(X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl),
                                               "127.0.0.1"),
                 1);
    SSL_set_fd(ssl, fd);
    cr_assert_eq(SSL_connect(ssl), 1, "the TLS handshake failed: %s",
                 ERR_error_string(ERR_get_error(), NULL));
    int len = http_request(req, sizeof req, path);
    cr_assert_eq(SSL_write(ssl, req, len), len);
    for (;;) {
        int r = SSL_read(ssl, buf + n, (int)(cap - 1 - n));
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    SSL_free(ssl);
    SSL_CTX_free(ctx);
    close(fd);
}

/* Does the answer's head (lower-cased) hold text? */
static inline int http_head_has(const char *answer, const char *text)
{
    char low[2048];
    size_t n = 0;
    for (; answer[n] != '\0' && n + 1 < sizeof low; n++)
        low[n] = (char)tolower((unsigned char)answer[n]);
    low[n] = '\0';
    char *end = strstr(low, "\r\n\r\n");
    if (end != NULL)
        *end = '\0';
    return strstr(low, text) != NULL;
}

#endif /* TABULA_TEST_HTTP_UTIL_H */
