/*
 * lobby.h: Tabula's lobby, the relay between two players and their
 * spectators, its invite codes, and the client side of a lobby
 * connection. The lobby carries frames as opaque bytes (signed envelopes
 * of proto/ in practice): it numbers each frame a seated player sends
 * with the room's next sequence number, forwards it to every other
 * member, and keeps a bounded transcript of them so a late spectator or a
 * reconnecting player catches up from the last sequence number it has.
 * It never reads, changes or reorders the bytes; peers check signatures
 * and the hash chain themselves.
 *
 * Invite codes ("7KQM-XW3D-9HNP-R4TA") are 16 symbols of an alphabet
 * without look-alike characters: 12 random symbols (60 bits, the secret)
 * and 4 symbols (20 bits) fingerprinting the host's public key together
 * with the secret. The lobby is only ever told a hash of the secret (the
 * lookup), so it cannot rebuild the code, compute a fingerprint for
 * another key, or derive the seat key that peers use to prove to each
 * other that they hold the code. A watch code is built the same way but
 * its lookup only ever admits spectators. The control messages are in
 * docs/protocol-lobby.md.
 *
 * The codes, the roles and the client side's message codec need no
 * libuv and are declared in lobby_wire.h (included here), so that the
 * browser page's WebAssembly module can speak to a lobby too.
 *
 * Errors are the negative TB_E_* codes of tb_error.h, or libuv's own
 * codes passed through from net/.
 */
#ifndef TABULA_LOBBY_H
#define TABULA_LOBBY_H

#include <stddef.h>
#include <stdint.h>

#include "lobby_wire.h"
#include "net.h"
#include "room.h"

/* ---- the relay ------------------------------------------------------- */

typedef struct Lobby Lobby;
typedef struct Lobby_Archive Lobby_Archive; /* archive.c's, opaque */

/*
 * lobby_new: a lobby listening on addr (net_addr_parse), with limits lim
 * (NULL: defaults), signing receipts with a fresh random key (see
 * lobby_use_key) at the wall clock. Errors: TB_E_ARG, TB_E_NOMEM,
 * TB_E_CRYPTO, libuv errors
 * (UV_EADDRINUSE, ...). On error nothing is left on the loop that would
 * keep it from closing after one more uv_run.
 */
int lobby_new(uv_loop_t *loop, const struct sockaddr *addr,
              const Lobby_Limits *lim, Lobby **out);

/*
 * lobby_use_redis: keep lb's rooms in Redis at url
 * ("redis://[[USER]:PASSWORD@]HOST:PORT[/DB]": a password makes every
 * connection AUTH first) instead of in memory, so that several
 * lobby processes using one Redis form one lobby (docs/lobby-nodes.md).
 * url may name any master of a Redis Cluster (then DB must be 0): the
 * lobby reads the cluster's slot map and routes by slot. Call right
 * after lobby_new, before the loop runs. Blocks up to 2 s to check that
 * Redis answers, takes the password, and keeps keys when full. Errors:
 * TB_E_ARG (bad url, DB not 0 on a cluster, or called late), TB_E_AUTH
 * (the password refused, or one needed), TB_E_STATE (Redis evicts keys
 * when full: its maxmemory-policy is not noeviction, so a running
 * game's room could vanish), TB_E_IO (Redis unreachable, or a cluster not
 * serving every slot), TB_E_LIMIT (a cluster of more than 64 masters),
 * TB_E_NOMEM.
 */
int lobby_use_redis(Lobby *lb, const char *url);

/*
 * lobby_use_key: sign the relay's receipts (lobby_rooms_use_witness) with
 * key (copied) instead of the fresh random key lobby_new made (a node
 * that keeps its key across restarts: tabula lobby --key FILE). Call
 * right after lobby_new, before the loop runs. Errors: TB_E_ARG (NULL,
 * or called late).
 */
int lobby_use_key(Lobby *lb, const Proto_Identity *key);

/* lobby_relay_key: the public half of lb's receipt key into pk (the key
 * its WELCOMEs name). */
void lobby_relay_key(const Lobby *lb, uint8_t pk[LOBBY_KEY_BYTES]);

/* lobby_address: the bound "HOST:PORT" (real port after port 0). */
int lobby_address(const Lobby *lb, char *out, size_t cap);

/* lobby_stats: the lobby's counters now. */
void lobby_stats(const Lobby *lb, Lobby_Stats *out);

/*
 * lobby_metrics_text: st as Prometheus's text exposition format (version
 * 0.0.4: '# HELP' and '# TYPE' lines, then 'name{labels} value' lines;
 * metrics named tabula_lobby_*, the Redis round trips only when
 * st->redis) into out (cap bytes, NUL included). Returns its length in
 * bytes without the NUL, or TB_E_SPACE when cap is too small (about 4
 * KiB is enough).
 */
int lobby_metrics_text(const Lobby_Stats *st, char *out, size_t cap);

/*
 * lobby_close: stop listening, close every connection and drop every
 * room; the lobby is freed once its last handle is closed (run the loop),
 * then done(user) is called if not NULL. Accepts NULL.
 */
void lobby_close(Lobby *lb, void (*done)(void *user), void *user);

/* ---- the client side ------------------------------------------------- */

typedef struct Lobby_Client Lobby_Client;

/*
 * Lobby_Client_Callbacks: every pointer may be NULL.
 *   on_welcome   admitted (again, after lobby_client_resume); the frames
 *                after the requested sequence number follow as on_frame.
 *                A joiner's or spectator's client has already checked the
 *                host key against the code (a mismatch closes with
 *                TB_E_SIGNATURE instead).
 *   on_frame     a relayed frame: its room sequence number (1, 2, ...),
 *                the seat that sent it (LOBBY_ROLE_HOST or _GUEST), the
 *                payload (valid during the call only).
 *   on_ack       the lobby accepted our own frame as number seq.
 *   on_presence  the other seat's player arrived (1) or left (0).
 *   on_receipt   a FRAME, ACK or PRESENCE as lobby_wire_read gave it
 *                (its receipt, not verified: ev->receipt, and for a FRAME
 *                its payload), before on_frame, on_ack or on_presence.
 *   on_disconnect the connection is gone: reason 0 after
 *                lobby_client_close, a TB_E_* refusal from the lobby
 *                (TB_E_CODE unknown code, TB_E_RATE rate limited,
 *                TB_E_FULL lobby or room full or this address's share of
 *                rooms or connections used up, TB_E_SEAT seat taken,
 *                TB_E_LIMIT payload too big or sending faster than the
 *                other seat reads,
 *                TB_E_FORMAT / TB_E_VERSION bad message), TB_E_SIGNATURE
 *                when the host key does not match the code, or a
 *                libuv/net code. The client object stays valid: call
 *                lobby_client_resume or lobby_client_free.
 */
typedef struct Lobby_Client_Callbacks {
    void (*on_welcome)(Lobby_Client *c, const Lobby_Welcome *w);
    void (*on_frame)(Lobby_Client *c, uint64_t seq, Lobby_Role from,
                     const uint8_t *data, size_t len);
    void (*on_ack)(Lobby_Client *c, uint64_t seq);
    void (*on_presence)(Lobby_Client *c, Lobby_Role seat, int present);
    void (*on_disconnect)(Lobby_Client *c, int reason);
    void (*on_receipt)(Lobby_Client *c, const Lobby_Wire_Event *ev);
    /* the answer to lobby_client_seek: reason 0 (listed) or a
     * LOBBY_WIRE_SEEKED refusal */
    void (*on_seeked)(Lobby_Client *c, int reason);
} Lobby_Client_Callbacks;

/*
 * Lobby_Client_Config: who the client is in the room.
 *   role         LOBBY_ROLE_HOST creates the room (or takes its seat back),
 *                LOBBY_ROLE_GUEST joins with the invite code,
 *                LOBBY_ROLE_SPECTATOR watches with either code.
 *   invite       the invite code (host and guest; a spectator may use it)
 *   watch        the watch code (host: registered with the room;
 *                spectator: used when invite is all zero)
 *   host_pk      the host's public key (host only)
 *   seat_secret  the player's seat secret (lobby_random once per match,
 *                kept in the match log so a restarted process can resume)
 *   limits       net/ limits for the connection (NULL fields: defaults)
 *   source       the local address to connect from (net_connect_from),
 *                e.g. for a load generator; family 0 (zeroed): any
 */
typedef struct Lobby_Client_Config {
    Lobby_Role role;
    Lobby_Code invite;
    Lobby_Code watch;
    uint8_t host_pk[LOBBY_KEY_BYTES];
    uint8_t seat_secret[LOBBY_SEAT_SECRET_BYTES];
    Proto_Identity id; /* host, guest: the player's key pair, proven in
                          each hello (a host's pk is host_pk) */
    Net_Limits limits;
    struct sockaddr_storage source;
} Lobby_Client_Config;

/*
 * lobby_client_new: connect to the lobby at addr and enter the room
 * described by cfg, asking for every frame after from_seq (0: from the
 * start). user is the client's user data. Errors: TB_E_ARG, TB_E_NOMEM,
 * libuv errors.
 */
int lobby_client_new(uv_loop_t *loop, const struct sockaddr *addr,
                     const Lobby_Client_Config *cfg,
                     const Lobby_Client_Callbacks *cb, void *user,
                     uint64_t from_seq, Lobby_Client **out);

/*
 * lobby_client_resume: after on_disconnect, connect again and re-enter
 * the room with the same role and seat secret, asking for every frame
 * after from_seq (lobby_client_last_seq, or the last one in the match
 * log). Errors: TB_E_STATE (still connected), libuv errors.
 */
int lobby_client_resume(Lobby_Client *c, uint64_t from_seq);

/* lobby_client_refusal: the TB_E_* of the lobby's refusal that closed
 * c's last connection, or 0 when it closed for another reason (the
 * network, or a peer that is not a lobby). */
int lobby_client_refusal(const Lobby_Client *c);

/* Lobby addresses one client may know (--lobby A,B,C). */
#define LOBBY_CLIENT_ADDRS 8
/* The longest such list as text, NUL included. */
#define LOBBY_ADDR_LIST_MAX (LOBBY_CLIENT_ADDRS * NET_ADDR_TEXT_MAX)

/*
 * lobby_client_add_lobby: another node of the same lobby (nodes sharing
 * one Redis, docs/lobby-nodes.md). When the connection is lost (not
 * refused), the next lobby_client_resume goes to the next address, in
 * turn, so a client whose node died carries on from its last sequence
 * number on another. Errors: TB_E_ARG, TB_E_LIMIT (more than
 * LOBBY_CLIENT_ADDRS in all).
 */
int lobby_client_add_lobby(Lobby_Client *c, const struct sockaddr *addr);

/*
 * lobby_addr_list_parse: "HOST:PORT[,HOST:PORT...]" into out (cap
 * entries), their count in *n; each as net_addr_parse reads it (a host
 * name is looked up). Errors: TB_E_ARG, TB_E_FORMAT (an empty or bad
 * address), TB_E_NOTFOUND (a host name with no address), TB_E_LIMIT
 * (more than cap).
 */
int lobby_addr_list_parse(const char *text, struct sockaddr_storage *out,
                          size_t cap, size_t *n);

/*
 * lobby_client_send: relay a frame of len bytes (1..max_payload) to the
 * room; only a seated player may. on_ack gives its sequence number.
 * Errors: TB_E_STATE (not admitted, spectator, or disconnected),
 * TB_E_LIMIT, net_send's errors.
 */
int lobby_client_send(Lobby_Client *c, const void *data, size_t len);

/*
 * lobby_client_done: tell the room this seat's game is over and sends
 * nothing more (DONE, lobby_wire.h). Errors: TB_E_STATE (not admitted,
 * spectator, or disconnected), net_send's errors.
 */
int lobby_client_done(Lobby_Client *c);

/*
 * lobby_client_seek: a host's room on the lobby's public list with the
 * seek card card[0..len) (lobby_seek_card; once a connection, after its
 * WELCOME); the answer comes to on_seeked. (The seat layer sends its
 * own: seat.h, Seat_Config.seek; this is for tools and benchmarks.)
 * Errors: TB_E_ARG (a card of a length no card has), TB_E_STATE (not a
 * host admitted now), net_send's errors.
 */
int lobby_client_seek(Lobby_Client *c, const uint8_t *card, size_t len);

/* lobby_client_last_seq: the highest sequence number received or acked. */
uint64_t lobby_client_last_seq(const Lobby_Client *c);

/* lobby_client_user: the user pointer given to lobby_client_new. */
void *lobby_client_user(const Lobby_Client *c);

/* lobby_client_connected: nonzero while admitted to the room. */
int lobby_client_connected(const Lobby_Client *c);

/*
 * lobby_client_close: close the connection (on_disconnect follows with
 * reason 0); the client stays valid for lobby_client_resume.
 */
void lobby_client_close(Lobby_Client *c);

/*
 * lobby_client_free: close and free. The memory goes once the connection
 * is closed (run the loop); no callback runs after this call. Accepts
 * NULL.
 */
void lobby_client_free(Lobby_Client *c);

/*
 * lobby_seeks_fetch: ask the lobby at addr for its open seeks (issue 37)
 * of game (NULL or "": every game) over one connection: each(user,
 * since, card, card_len) for each seek, oldest first (since: the relay's
 * clock when it listed the seek, ms since the Unix epoch; the card as
 * the relay sent it, not checked: lobby_seek_card_read), a nonzero
 * return stopping the walk; then done(user, status) once: 0 when the
 * whole list came, the relay's refusal (TB_E_RATE: this address asked
 * too often; TB_E_VERSION), TB_E_FORMAT (a message no lobby sends),
 * TB_E_TRUNCATED (the connection ended before the list did), each's
 * nonzero return, or the transport's error (a libuv code). Errors (and
 * then no callback runs): TB_E_ARG, TB_E_LIMIT (game over
 * LOBBY_SEEK_GAME_MAX), TB_E_NOMEM, libuv errors.
 */
int lobby_seeks_fetch(uv_loop_t *loop, const struct sockaddr *addr,
                      const char *game,
                      int (*each)(void *user, uint64_t since,
                                  const uint8_t *card, size_t card_len),
                      void (*done)(void *user, int status), void *user);

/*
 * lobby_pool_offer: offer msg[0..len) (a POOL message, lobby_wire_pool;
 * copied) to the pool of the lobby at addr over one connection (issue
 * 37; docs/protocol-lobby.md, "Pool"): wait(user, counts) for each
 * POOL_WAIT (counts[i]: the offers waiting for game i, the player's
 * own included), then done(user, status, paired) once: status 0 and
 * *paired when the relay paired the offer, else the relay's refusal
 * (TB_E_SEEKS: this key has an offer waiting; TB_E_ADDRESS: this
 * address holds its share; TB_E_FULL; TB_E_VERSION), TB_E_FORMAT (a
 * message no lobby sends), TB_E_TRUNCATED (the connection ended first),
 * or the transport's error (a libuv code; lobby_pool_cancel's: UV_ECANCELED).
 * *out (may be NULL) is the offer's handle until done has run. Errors
 * (and then no callback runs): TB_E_ARG, TB_E_NOMEM, libuv errors.
 */
typedef struct Lobby_Pool_Conn Lobby_Pool_Conn;
int lobby_pool_offer(uv_loop_t *loop, const struct sockaddr *addr,
                     const uint8_t *msg, size_t len,
                     void (*wait)(void *user, const uint32_t *counts),
                     void (*done)(void *user, int status,
                                  const Lobby_Paired *paired),
                     void *user, Lobby_Pool_Conn **out);

/* lobby_pool_cancel: withdraw the offer of c (its connection closes;
 * done runs with UV_ECANCELED, unless it ran already). */
void lobby_pool_cancel(Lobby_Pool_Conn *c);

/*
 * lobby_use_archive: keep every game lb relays from its start as a match
 * log in dir/logs (a folder that must be there; docs/archive.md): the
 * transcript's envelopes with lb's receipts, as logs/MATCH.part while it
 * is played, then logs/MATCH.log and a line of logs/index.txt once the
 * game ended (both seats said DONE) or its room went; kept(user, path of
 * the .log) is then called (may be NULL). With Redis, each node keeps
 * the rooms it had from their first frame: give each node its own dir.
 * At most cap_bytes of logs in all (0: LOBBY_ARCHIVE_CAP), those in
 * dir/logs at the start counted. After lobby_new, before the loop runs. Errors: TB_E_STATE (called
 * twice), TB_E_ARG (dir over 1023 bytes), TB_E_IO (no dir/logs),
 * TB_E_NOMEM.
 */
int lobby_use_archive(Lobby *lb, const char *dir, uint64_t cap_bytes,
                      void (*kept)(void *user, const char *log), void *user);

/* The archive's most bytes of logs unless told (4 GiB): past it no new
 * game is kept (the games under way are, to their end), and the lobby
 * says so once on standard error. */
#define LOBBY_ARCHIVE_CAP ((uint64_t)4 << 30)

/*
 * lobby_use_ratings: pair the pool by the ratings in t from now on
 * (room.h, "Ratings the pool pairs by"; lb takes t and frees the table
 * before it; NULL: none). Offers already waiting keep the ratings they
 * came with.
 */
void lobby_use_ratings(Lobby *lb, Lobby_Ratings *t);

/* ---- the web side (lobby/http.c) ---------------------------------- */

typedef struct Lobby_Http Lobby_Http; /* opaque, heap */

/*
 * lobby_http_new: serve the files of the folder site (the browser page,
 * with index.html at its top; scripts/build-wasm.sh makes it) over HTTP
 * on host (an IPv4 or IPv6 address) and port (0: a free port) with
 * libwebsockets on loop, and, when lb is not NULL, take WebSocket
 * connections with the subprotocol "tabula-lobby" there as members of lb
 * (one lobby message per binary message; docs/protocol-lobby.md), and
 * name lb's framed TCP address (lobby_address) in the header
 * X-Tabula-Lobby of every HTTP response, for the page to show the
 * command a terminal player types. lb must outlive h. Errors: TB_E_ARG
 * (port out of range, site or archive path over 1023 bytes), TB_E_IO (no
 * site/index.html, or the address could not be bound), TB_E_NOMEM.
 */
int lobby_http_new(uv_loop_t *loop, const char *host, int port,
                   const char *site, Lobby *lb, Lobby_Http **out);

/*
 * lobby_http_new_tls: as lobby_http_new, and with archive (not NULL) the
 * files of that folder read only below /archive/ (docs/archive.md: the
 * relay's finished logs and its ratings list, a director's documents),
 * and over TLS when cert is not NULL:
 * the page over HTTPS and the members over WSS, with the certificate
 * chain in the PEM file cert (the server's certificate first) and its
 * private key in the PEM file key (check both first with
 * lobby_http_tls_check, to say which is wrong). Plain HTTP to the port
 * is not answered. Errors: lobby_http_new's, and lobby_http_tls_check's
 * when cert or key is not usable.
 */
int lobby_http_new_tls(uv_loop_t *loop, const char *host, int port,
                       const char *site, const char *archive, Lobby *lb,
                       const char *cert, const char *key, Lobby_Http **out);

/*
 * lobby_http_tls_check: can a TLS server use the PEM files cert (a
 * certificate chain) and key (its private key, unencrypted)? *bad gets
 * the file at fault: 0 cert, 1 key. Errors: TB_E_IO (the file cannot be
 * read: errno says why), TB_E_FORMAT (no certificate, or no private key,
 * in it), TB_E_MISMATCH (key is not the certificate's: *bad is 1),
 * TB_E_CRYPTO (the TLS library failed), TB_E_ARG (NULL).
 */
int lobby_http_tls_check(const char *cert, const char *key, int *bad);

/* lobby_http_port: the port h listens on. */
int lobby_http_port(const Lobby_Http *h);

/* lobby_http_close: stop serving: close every browser connection and the
 * listening socket (NULL is fine). libwebsockets closes its handles
 * through the loop, which must run on (until uv_run returns, or a few
 * turns) before lobby_http_free. */
void lobby_http_close(Lobby_Http *h);

/* lobby_http_free: free h once the loop has run after lobby_http_close
 * (NULL is fine). */
void lobby_http_free(Lobby_Http *h);

#endif /* TABULA_LOBBY_H */
