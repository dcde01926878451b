/*
 * fetch.h: read a published file (issue 38) from a folder or over HTTP.
 * A "source" is where a relay or a director publishes documents: a
 * folder on this machine, or an http:// or https:// URL of one (a
 * relay's /archive/, `tabula lobby --archive`). Over HTTP it is libcurl's
 * (https checks the certificate against the system's authorities). What
 * it returns is hostile input: the caller checks every byte.
 */
#ifndef TABULA_CLIENT_FETCH_H
#define TABULA_CLIENT_FETCH_H

#include <stddef.h>
#include <stdint.h>

/* 1 when source names a URL (http:// or https://), else 0 (a folder). */
int fetch_is_url(const char *source);

/*
 * fetch_get: the file name (a path below source, '/' separated, no "..")
 * of source, whole, into a heap buffer *out of *len bytes (NUL added
 * after them, not counted; free it), at most max bytes. why (why_cap
 * bytes) gets a line on a failure, naming the file or URL.
 * Errors: TB_E_NOFILE (no such file: ENOENT, or HTTP 404), TB_E_LIMIT
 * (over max bytes), TB_E_IO (the folder or the server cannot be read:
 * connection refused, another HTTP status, a TLS failure), TB_E_ARG (a
 * name with "..", a leading '/', or over 1,024 bytes), TB_E_NOMEM.
 */
int fetch_get(const char *source, const char *name, size_t max, uint8_t **out,
              size_t *len, char *why, size_t why_cap);

#endif
