/*
 * net.h: Tabula's TCP transport over libuv. A connection carries frames:
 * opaque byte strings, each sent as a 4-byte big-endian length and then
 * the bytes. A length of zero is a heartbeat and never reaches the user.
 * The length is checked against a cap before anything is allocated, and
 * the buffer of a frame split across reads grows with the bytes that
 * really arrive, so a peer that only announces large frames costs little.
 * Every connection has a bounded write queue: a peer that reads too slowly
 * (a spectator on a bad link) is dropped instead of growing memory. Peers
 * send a heartbeat after a quiet interval and are closed when nothing at
 * all arrives for an idle timeout. TCP_NODELAY is set on every socket.
 *
 * Lifetime: a connection is torn down from the loop, never inside one of
 * its own callbacks: net_close() only marks it, and the handles are closed
 * on the next loop iteration; memory is freed in the last close callback,
 * right after the user's on_close. Errors are Tabula's TB_E_* codes or
 * libuv's own negative codes, passed through unchanged (uv_strerror names
 * those).
 */
#ifndef TABULA_NET_H
#define TABULA_NET_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

/* Bytes of the length prefix in front of every frame. */
#define NET_HEADER_BYTES 4
/* The largest frame cap a caller may ask for (16 MiB). */
#define NET_FRAME_CAP_MAX (16u * 1024u * 1024u)

typedef struct Net_Conn Net_Conn;
typedef struct Net_Server Net_Server;

/*
 * Net_Limits: per-connection limits. Zero in a field means the default
 * given in brackets (net_limits_default fills them in).
 *   max_frame        largest frame payload accepted or sent, bytes [65536]
 *   max_write_queue  bytes waiting in the socket's write queue after which
 *                    the peer is dropped as a slow reader [1 MiB]
 *   heartbeat_ms     send a heartbeat after this long without sending
 *                    anything, milliseconds [5000]; UINT32_MAX: never
 *   idle_timeout_ms  close when nothing arrives for this long, ms [15000];
 *                    UINT32_MAX: never
 *   max_conns        (servers only) connections open at once; a further
 *                    one is accepted and closed at once [1024]
 */
typedef struct Net_Limits {
    uint32_t max_frame;
    size_t max_write_queue;
    uint32_t heartbeat_ms;
    uint32_t idle_timeout_ms;
    uint32_t max_conns;
    /* a frame (full_len bytes; 0: none) sent to a connection refused at
     * max_conns before it is closed, so the peer learns why (the lobby's
     * ERROR FULL) instead of meeting a closed door */
    const uint8_t *full_frame;
    size_t full_len;
} Net_Limits;

/* Fill every zero field of lim with its default (see Net_Limits). */
void net_limits_default(Net_Limits *lim);

/*
 * Net_Callbacks: what a connection tells its owner. Every pointer may be
 * NULL. They run on the loop's thread.
 *   on_connect  (outgoing connections) status 0: connected and reading;
 *               negative: the connect failed and on_close follows.
 *   on_frame    one whole frame of len bytes (1..max_frame). The bytes are
 *               valid only during the call. The callee may send, or
 *               net_close() this or any other connection.
 *   on_close    the connection is gone; reason is 0 for a local
 *               net_close(c, 0), UV_EOF when the peer closed, UV_ETIMEDOUT
 *               after the idle timeout, UV_ENOBUFS for a slow reader,
 *               TB_E_LIMIT for an oversized frame, TB_E_HTTP when that
 *               frame's length bytes are "HTTP" (a web server answered:
 *               the address is a web one), or another libuv error.
 *               The Net_Conn is freed right after this returns.
 *   on_drain    the write queue has just become empty (after a write
 *               completed): a sender pacing a long catch-up sends more.
 */
typedef struct Net_Callbacks {
    void (*on_connect)(Net_Conn *c, int status);
    void (*on_frame)(Net_Conn *c, const uint8_t *data, size_t len);
    void (*on_close)(Net_Conn *c, int reason);
    void (*on_drain)(Net_Conn *c);
} Net_Callbacks;

/* The longest "HOST:PORT" net_addr_parse reads, NUL included: a DNS
 * name's 253 characters, or an IPv6 literal in brackets, then ":" and 5
 * digits. */
#define NET_ADDR_TEXT_MAX 262

/*
 * net_addr_parse: "HOST:PORT" into a socket address. HOST is an IPv4
 * literal, "localhost" (127.0.0.1), an IPv6 literal in brackets
 * ("[::1]:7000") or a host name ("lobby.example.org:7470"), looked up
 * once with getaddrinfo (blocking; the first IPv4 or IPv6 address it
 * gives); PORT is 0..65535. Errors: TB_E_ARG (not of that form),
 * TB_E_NOTFOUND (a host name with no address).
 */
int net_addr_parse(const char *hostport, struct sockaddr_storage *out);

/*
 * net_addr_format: "HOST:PORT" of addr into out (cap bytes, NUL included;
 * 64 is always enough). Errors: TB_E_ARG, TB_E_SPACE.
 */
int net_addr_format(const struct sockaddr *addr, char *out, size_t cap);

/*
 * net_listen: a server bound to addr and listening on loop. on_accept is
 * called with each new connection, already reading with the server's
 * limits; it must set the connection's callbacks (net_conn_set_callbacks)
 * before returning, or frames are dropped. user is the server's user data.
 * Errors: TB_E_ARG, TB_E_NOMEM, libuv errors (UV_EADDRINUSE, ...).
 */
int net_listen(uv_loop_t *loop, const struct sockaddr *addr,
               const Net_Limits *lim,
               void (*on_accept)(Net_Server *s, Net_Conn *c), void *user,
               Net_Server **out);

/*
 * net_server_address: the address the server is bound to, as "HOST:PORT"
 * with the real port (useful after binding port 0). Errors as
 * net_addr_format, or a libuv error.
 */
int net_server_address(const Net_Server *s, char *out, size_t cap);

/* net_server_user: the user pointer given to net_listen. */
void *net_server_user(const Net_Server *s);

/* net_server_conns: connections of the server now open. */
size_t net_server_conns(const Net_Server *s);

/*
 * net_server_close: stop listening and close every connection of the
 * server (each gets on_close with reason 0). The server is freed after its
 * handle's close callback; then done(user) is called if not NULL. Accepts
 * NULL. Safe to call from any callback.
 */
void net_server_close(Net_Server *s, void (*done)(void *user));

/*
 * net_connect: an outgoing connection to addr with limits lim (NULL:
 * defaults). cb->on_connect reports the result. user is the connection's
 * user data. Errors: TB_E_ARG, TB_E_NOMEM, libuv errors; on error *out
 * stays NULL and no callback runs.
 */
int net_connect(uv_loop_t *loop, const struct sockaddr *addr,
                const Net_Limits *lim, const Net_Callbacks *cb, void *user,
                Net_Conn **out);

/*
 * net_connect_from: as net_connect, with the local end bound to source
 * first (an address of this machine, port 0: any free port), so that one
 * machine can open more connections to one server than the ephemeral
 * ports of one source address allow (a load generator on 127.0.0.2,
 * 127.0.0.3, ...). source NULL: as net_connect. Errors as net_connect,
 * and the bind's libuv error (UV_EADDRNOTAVAIL, UV_EADDRINUSE, ...).
 */
int net_connect_from(uv_loop_t *loop, const struct sockaddr *addr,
                     const struct sockaddr *source, const Net_Limits *lim,
                     const Net_Callbacks *cb, void *user, Net_Conn **out);

/* net_conn_set_callbacks: replace the callbacks (copied) and user data. */
void net_conn_set_callbacks(Net_Conn *c, const Net_Callbacks *cb, void *user);

/* net_conn_user: the connection's user pointer. */
void *net_conn_user(const Net_Conn *c);

/* net_conn_server: the server that accepted c, or NULL if outgoing. */
Net_Server *net_conn_server(const Net_Conn *c);

/*
 * net_conn_peer: the peer's address as "HOST:PORT" (recorded when the
 * connection was made). The string lives as long as the connection.
 */
const char *net_conn_peer(const Net_Conn *c);

/*
 * net_conn_peer_host: the peer's address without the port, e.g. for a
 * rate limit per source address.
 */
const char *net_conn_peer_host(const Net_Conn *c);

/*
 * net_send: queue one frame of len bytes (1..max_frame; the bytes are
 * copied). Returns 0, or: TB_E_ARG (len 0), TB_E_LIMIT (len over
 * max_frame), TB_E_STATE (the connection is closing or not connected
 * yet), TB_E_NOMEM, UV_ENOBUFS (the write queue would exceed
 * max_write_queue: the peer is too slow and the connection is now being
 * closed), or a libuv write error (the connection is being closed).
 */
int net_send(Net_Conn *c, const void *data, size_t len);

/*
 * net_sendv: as net_send, with the frame given as n pieces sent as one
 * frame (a header and a payload without copying them together first).
 */
int net_sendv(Net_Conn *c, const uv_buf_t *parts, unsigned n);

/* net_write_queue: the memory (bytes) that writes accepted by net_send
 * and not yet done pin: each its frame, its request and the allocator's
 * header. max_write_queue bounds it. */
size_t net_write_queue(const Net_Conn *c);

/*
 * net_close: mark c for teardown with reason (0 for a normal close; it is
 * passed to on_close). Frames already queued are dropped. Idempotent: the
 * first reason wins. Reading stops at once; the handles are closed from
 * the loop on its next iteration, never inside this call.
 */
void net_close(Net_Conn *c, int reason);

/*
 * net_close_flush: as net_close, but frames already queued are written
 * first (a final error message reaches the peer), for at most the idle
 * timeout (or 2 s when there is none).
 */
void net_close_flush(Net_Conn *c, int reason);

/*
 * net_close_linger: as net_close_flush, and once the frames are written
 * and the end of the stream sent, c is held linger_ms to 2 linger_ms (ms:
 * spread so that a burst of them is not closed at once) more before
 * its descriptor is closed: unread, so a peer that never reads learns of
 * the close only then. A refused peer that reconnects as fast as it is
 * closed costs a connection (accept, read, answer, close: the kernel's
 * work) each time; held, it costs one per linger_ms (the relay-limits
 * issue's `slow` attack, docs/benchmarks.md). Only for a connection that
 * is counted in a share while held: it keeps its descriptor.
 */
void net_close_linger(Net_Conn *c, int reason, uint32_t linger_ms);

/* net_is_closing: nonzero once net_close or a failure marked c. */
int net_is_closing(const Net_Conn *c);

/*
 * net_strerror: a message for any error net/ and the layers above return:
 * tb_strerror for TB_E_* codes, uv_strerror for libuv's. Never NULL.
 */
const char *net_strerror(int err);

/*
 * net_frame_header: write the 4-byte big-endian length prefix of a frame
 * of len bytes (for callers that frame by hand, e.g. tests).
 */
void net_frame_header(uint8_t out[NET_HEADER_BYTES], uint32_t len);

#endif /* TABULA_NET_H */
