/*
 * redis.c: the lobby's rooms kept in Redis (tabula lobby --redis), so
 * that several lobby processes ("nodes") on one Redis form one lobby.
 * Redis holds each room's seat claims in a hash and its frames in a
 * stream whose entry IDs are the room's sequence numbers; admission
 * (CREATE, JOIN, WATCH) and numbering a frame are each one Lua script, so
 * two nodes never give one seat or one number twice. Every room's keys
 * share the hash tag of its invite lookup. A script that numbers a frame
 * also publishes it on the room's channel; each node subscribes to the
 * rooms its own members are in and feeds a copy of the room (room.c's
 * ordinary Lobby_Room) from it, fetching from the stream whatever the
 * channel skipped (before the subscription held, or after a gap). Each
 * frame and presence change carries the room's receipt time, Redis's own
 * clock kept monotone in the room's hash (lobby/lua/data.lua): every
 * node signs its receipts of a frame (room.c) with that one time. Both
 * Redis connections are hiredis's asynchronous ones on the lobby's libuv
 * loop (hiredis/adapters/libuv.h); a Redis that stops answering
 * (redis_health.c) is lost like one that closes them: every member is
 * closed and Redis is tried again each second. docs/lobby-nodes.md
 * describes keys, lifetimes and what each failure loses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <hiredis/adapters/libuv.h>

#include "lobby_internal.h"
#include "pool.h"
#include "proto.h"
#include "tb_error.h"

/* Room keys: tb:{HEX}:m (hash), tb:{HEX}:f (stream), tb:{HEX}:c (channel),
 * HEX the invite lookup; tb:{WHEX}:w names the room of a watch lookup. */
#define HEX_LEN (2 * LOBBY_LOOKUP_BYTES)
#define KEY_LEN (HEX_LEN + 7) /* "tb:{" HEX "}:x" */
#define REDIS_HOST_MAX 256
/* Redis lost: try it again this often (ms), waiting at most PROBE_MS. */
#define RETRY_MS 1000
#define PROBE_MS 200
/* Rooms with members here have their expiry renewed this often (ms). */
#define TOUCH_MS 30000
/* A seek in Redis is listed this long (ms) past its last renewal; its
 * host's node renews it every SEEK_RENEW_MS while the host is there, so
 * a lost node's seeks leave the list within SEEK_LEASE_MS. */
#define SEEK_LEASE_MS 15000
#define SEEK_RENEW_MS 5000
/* Cluster masters remembered for reconnecting (as redis_cluster.c's
 * NODES_MAX). */
#define KNOWN_MAX 64

/* The Lua scripts (lobby/lua/NAME.lua, each naming its room.c twin),
 * embedded at build time as NAME_lua (lobby_lua.h, made by CMakeLists.txt):
 * admit (admission), cap (a share counted in a sorted set), reserve and
 * unreserve (a new room's watch lookup), guess (the wrong-code limit),
 * data (a frame), had (frames a seat had), leave (a seat leaving). Their
 * KEYS, ARGV and answers are documented at the top of each file. */
#include "lobby_lua.h"

/* An admission's answer: {role, ..., presence, maker, time} (admit_lua). */
#define ADMIT_ELEMENTS 12

/* (Sequence numbers go through Lua's doubles, exact to 2^53: room.c
 * refuses a hello after LOBBY_SEQ_MAX + 1, for both backends.) */

/* What an answer awaited is for. A CREATE of a new room goes through
 * HELLO, SHARE, ROOMS, RESERVE, MAKE (each a call in its own slot); a
 * WATCH of a watch lookup through HELLO, FOLLOW. */
enum {
    REQ_HELLO,
    REQ_SHARE,
    REQ_ROOMS,
    REQ_RESERVE,
    REQ_MAKE,
    REQ_FOLLOW,
    REQ_GUESS_OWN,
    REQ_GUESS_ALL,
    REQ_DATA,
    REQ_FETCH,
    REQ_SEEK,
    REQ_SEEKS,
    REQ_POOL
};

typedef struct Req {
    Lobby_Redis *st;
    Lobby_Member *m; /* NULL once the member is gone */
    int kind;
    uint64_t from;                   /* hello: the member's from seq */
    uint8_t msg[LOBBY_LEN_CREATE];   /* hello: the member's message */
    uint8_t inv[LOBBY_LOOKUP_BYTES]; /* fetch, follow: the room */
    int reserved;                    /* make: the watch lookup was new */
    char src[2 * LOBBY_SOURCE_KEY + 1]; /* the source address (hex) */
    size_t n;                        /* data: its payload bytes */
    uint8_t hash[PROTO_HASH_BYTES];  /* data: its payload's (receipts) */
    char *text;                      /* pool: the offer's record */
    struct Req *prev, *next;
} Req;

/* A node's last copy of the open seeks, read from Redis (seeks.lua) at
 * `at` (loop ms; the read took `took` ms), served to every SEEKS while
 * fresh (lobby__redis_seeks). */
#define SEEKS_FRESH_MIN_MS 20
typedef struct Seeks_Cache {
    int used, inflight;
    uint64_t at, asked, took;
    size_t n;
    uint64_t *since;
    uint8_t *cards; /* the cards, one after the other */
    size_t *off, *len;
} Seeks_Cache;

typedef struct Redis_Addr {
    char host[REDIS_HOST_MAX];
    int port;
} Redis_Addr;

struct Lobby_Redis {
    uv_loop_t *loop;
    Lobby *lb;
    Lobby_Rooms *rs; /* lb's rooms */
    Lobby_Limits lim;
    char host[REDIS_HOST_MAX]; /* the address given (the seed) */
    Lobby_Rc_Auth auth;        /* the url's user and password, if any */
    int port, db;
    Redis_Addr at;     /* the address connected through */
    /* A cluster's other masters, as the last map named them: a lost
     * cluster is tried again through the seed and each of these in
     * turn, one a retry. */
    Redis_Addr known[KNOWN_MAX];
    int nknown;
    unsigned tries;
    Lobby_Rc *rc;           /* commands: one Redis or a cluster's masters */
    redisAsyncContext *sub; /* the room channels (any master hears all) */
    int up;                 /* both usable */
    int live;               /* reachable since the last start or return */
    int closing;
    int near_full;          /* Redis's memory past NEAR_FULL_PERCENT of its
                               maxmemory at the last look: no new rooms */
    uint64_t last_mem;      /* when its memory was last asked (ms) */
    Req *reqs; /* answers awaited */
    uint64_t last_try; /* loop time of the last attempt to reconnect */
    uint64_t last_touch;
    uint64_t last_renew; /* when this node's seeks were last renewed */
    Seeks_Cache seeks_cache;
    int pool_due;        /* an offer was filed or left here since this
                            node last paired the pool (it pairs again) */
    int pool_running;    /* a pairing is under way (the lock asked) */
    uint64_t pool_at;    /* when this node last paired (ms) */
    uint64_t lost_at; /* loop time Redis was lost */
    Lobby_Health health; /* does Redis answer? (redis_health.c) */
    uv_timer_t close_timer; /* closing: bounds the clean disconnect */
    int timer_on;           /* close_timer not yet closed */
    void (*done)(void *);
    void *done_user;
};

/* A lookup in the form of the room keys (proto_hex). */
static void hex_of(const uint8_t *b, char out[HEX_LEN + 1])
{
    proto_hex(b, LOBBY_LOOKUP_BYTES, out);
}

static int unhex(const char *s, size_t n, uint8_t out[LOBBY_LOOKUP_BYTES])
{
    return proto_unhex(s, n, out, LOBBY_LOOKUP_BYTES);
}

static void key_of(const uint8_t inv[LOBBY_LOOKUP_BYTES], char suffix,
                   char out[KEY_LEN + 1])
{
    char hex[HEX_LEN + 1];
    hex_of(inv, hex);
    snprintf(out, KEY_LEN + 1, "tb:{%s}:%c", hex, suffix);
}

/* A decimal number of at most 19 digits (so no overflow). */
static int parse_u64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 19)
        return TB_E_FORMAT;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return TB_E_FORMAT;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

/* "redis://[[USER]:PASSWORD@]HOST:PORT[/DB]" */
static int parse_url(Lobby_Redis *st, const char *url)
{
    static const char scheme[] = "redis://";
    const char *h, *colon, *slash, *at;
    uint64_t v;

    if (strncmp(url, scheme, sizeof scheme - 1) != 0)
        return TB_E_ARG;
    h = url + sizeof scheme - 1;
    at = strrchr(h, '@');
    if (at != NULL) { /* USER:PASSWORD, or :PASSWORD */
        const char *sep = memchr(h, ':', (size_t)(at - h));
        size_t un = sep != NULL ? (size_t)(sep - h) : 0;
        size_t pn = sep != NULL ? (size_t)(at - sep - 1) : 0;
        if (sep == NULL || pn == 0 || un >= sizeof st->auth.user ||
            pn >= sizeof st->auth.pass)
            return TB_E_ARG;
        memcpy(st->auth.user, h, un);
        st->auth.user[un] = '\0';
        memcpy(st->auth.pass, sep + 1, pn);
        st->auth.pass[pn] = '\0';
        h = at + 1;
    }
    colon = strrchr(h, ':');
    if (colon == NULL || colon == h ||
        (size_t)(colon - h) >= sizeof st->host)
        return TB_E_ARG;
    memcpy(st->host, h, (size_t)(colon - h));
    st->host[colon - h] = '\0';
    slash = strchr(colon, '/');
    if (parse_u64(colon + 1,
                  slash ? (size_t)(slash - colon - 1) : strlen(colon + 1),
                  &v) != 0 ||
        v == 0 || v > 65535)
        return TB_E_ARG;
    st->port = (int)v;
    if (slash != NULL) {
        if (parse_u64(slash + 1, strlen(slash + 1), &v) != 0 || v > 1000)
            return TB_E_ARG;
        st->db = (int)v;
    }
    return 0;
}

static Req *req_new(Lobby_Redis *st, Lobby_Member *m, int kind)
{
    Req *q = calloc(1, sizeof *q);
    if (q == NULL)
        return NULL;
    q->st = st;
    q->m = m;
    q->kind = kind;
    q->next = st->reqs;
    if (st->reqs != NULL)
        st->reqs->prev = q;
    st->reqs = q;
    return q;
}

static void req_free(Req *q)
{
    Lobby_Redis *st = q->st;
    if (q->prev != NULL)
        q->prev->next = q->next;
    else
        st->reqs = q->next;
    if (q->next != NULL)
        q->next->prev = q->prev;
    free(q->text);
    free(q);
}

/* Connections not yet gone. */
static int open_count(const Lobby_Redis *st)
{
    return (st->sub != NULL) + (st->rc != NULL ? lobby__rc_open(st->rc) : 0);
}

/* Free every connection now (Redis hangs: a clean disconnect would wait
 * for answers that never come). Answers awaited are called with NULL.
 * Never from inside a hiredis callback (from the sweep timer only). */
static void abort_conns(Lobby_Redis *st)
{
    redisAsyncContext *sub = st->sub;
    st->sub = NULL; /* so its disconnect callback finds nothing */
    if (st->rc != NULL)
        lobby__rc_abort(st->rc);
    if (sub != NULL)
        redisAsyncFree(sub);
}

/* Redis went away, answered nonsense or hangs (hung: its connections are
 * freed at once, else disconnected): every member here is told to go
 * elsewhere by its connection closing, and new ones are refused. */
static void store_lost(Lobby_Redis *st, int hung)
{
    if (!st->up)
        return;
    st->up = 0;
    st->lost_at = uv_now(st->loop);
    if (st->live)
        fprintf(stderr, "lobby: lost Redis at %s:%d; closing every "
                        "connection until it is back\n",
                st->host, st->port);
    st->live = 0;
    if (hung) {
        abort_conns(st);
    } else {
        /* hiredis frees the context that failed itself; the others go. */
        if (st->rc != NULL)
            lobby__rc_disconnect(st->rc);
        if (st->sub != NULL)
            redisAsyncDisconnect(st->sub);
    }
    lobby__drop_members(st->rs);
}

/* A connection went (hiredis frees it after this). */
static void close_timer_closed(uv_handle_t *h);

/* Closing, and every connection is gone: done, once the close timer is
 * closed too. */
static void finish_close(Lobby_Redis *st)
{
    void (*done)(void *) = st->done;
    if (done == NULL || open_count(st) != 0)
        return;
    if (st->timer_on) {
        if (!uv_is_closing((uv_handle_t *)&st->close_timer))
            uv_close((uv_handle_t *)&st->close_timer, close_timer_closed);
        return;
    }
    st->done = NULL;
    done(st->done_user);
}

static void close_timer_closed(uv_handle_t *h)
{
    Lobby_Redis *st = h->data;
    st->timer_on = 0;
    finish_close(st);
}

/* Closing took redis_deadline_ms: Redis hangs, and the clean disconnect
 * would wait for it forever. */
static void close_due(uv_timer_t *t)
{
    Lobby_Redis *st = t->data;
    abort_conns(st);
    finish_close(st);
}

static void conn_gone(void *user)
{
    Lobby_Redis *st = user;
    if (!st->closing)
        store_lost(st, 0);
    else
        finish_close(st);
}

/* Run script (slen bytes) with nkeys keys then the other arguments in
 * args (argc in all, argl their lengths) where the first key's slot is
 * served; fn(q, answer). Nonzero: not sent. */
/* The most keys and arguments a script is given (admit.lua's 18). */
#define EVAL_ARGS_MAX 18

static int eval(Lobby_Redis *st, const char *script, size_t slen, int nkeys,
                int argc, const char **args, const size_t *argl,
                Lobby_Rc_Fn *fn, void *q)
{
    const char *argv[3 + EVAL_ARGS_MAX];
    size_t len[3 + EVAL_ARGS_MAX];
    char nk[12];

    if (argc > EVAL_ARGS_MAX || nkeys < 1 || !st->up)
        return TB_E_ARG;
    snprintf(nk, sizeof nk, "%d", nkeys);
    argv[0] = "EVAL";
    argv[1] = script;
    argv[2] = nk;
    len[0] = 4;
    len[1] = slen;
    len[2] = strlen(nk);
    for (int i = 0; i < argc; i++) {
        argv[3 + i] = args[i];
        len[3 + i] = argl != NULL ? argl[i] : strlen(args[i]);
    }
    return lobby__rc_command(st->rc, args[0], len[3], fn, q, argc + 3, argv,
                             len);
}

#define EVAL(st, script, nkeys, argc, args, argl, fn, q)                       \
    eval(st, script, sizeof script - 1, nkeys, argc, args, argl, fn, q)

/* ---- the pool's messages (issue 37; below, "the pool") ---- */

static const char pool_chan[] = "tb:{pool}:p";
static void pool_message(Lobby_Redis *st, const char *p, size_t n);

/* ---- frames from Redis ---- */

static void fetch(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES]);

/* A stream entry [ID, [field, value, ...]] into the copy r (fields s:
 * seat, t: time, u and v: the seats' absences, d: payload). */
static int take_entry(Lobby_Redis *st, Lobby_Room *r, const redisReply *e)
{
    const redisReply *f;
    const char *id;
    uint64_t seq, seat = 2, t = UINT64_MAX, a[2] = {0, 0};
    uint32_t absent[2];
    const char *d = NULL;
    size_t dn = 0;

    if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 ||
        e->element[0]->type != REDIS_REPLY_STRING ||
        e->element[1]->type != REDIS_REPLY_ARRAY)
        return TB_E_FORMAT;
    id = e->element[0]->str;
    if (e->element[0]->len < 3 || id[0] != '0' || id[1] != '-' ||
        parse_u64(id + 2, e->element[0]->len - 2, &seq) != 0)
        return TB_E_FORMAT;
    f = e->element[1];
    for (size_t i = 0; i + 1 < f->elements; i += 2) {
        const redisReply *k = f->element[i], *v = f->element[i + 1];
        if (k->type != REDIS_REPLY_STRING || v->type != REDIS_REPLY_STRING ||
            k->len != 1)
            return TB_E_FORMAT;
        if (k->str[0] == 's' && parse_u64(v->str, v->len, &seat) != 0)
            return TB_E_FORMAT;
        if (k->str[0] == 't' && parse_u64(v->str, v->len, &t) != 0)
            return TB_E_FORMAT;
        if ((k->str[0] == 'u' || k->str[0] == 'v') &&
            (parse_u64(v->str, v->len, &a[k->str[0] - 'u']) != 0 ||
             a[k->str[0] - 'u'] > UINT32_MAX))
            return TB_E_FORMAT;
        if (k->str[0] == 'd') {
            d = v->str;
            dn = v->len;
        }
    }
    if (seat > 1 || t == UINT64_MAX || d == NULL || dn == 0 ||
        dn > st->lim.max_payload)
        return TB_E_FORMAT;
    absent[0] = (uint32_t)a[0];
    absent[1] = (uint32_t)a[1];
    return lobby__replica_frame(st->rs, r, seq, (int)seat, t, absent,
                                (const uint8_t *)d, dn, 1);
}

static int take_entries(Lobby_Redis *st, Lobby_Room *r, const redisReply *a)
{
    if (a->type != REDIS_REPLY_ARRAY)
        return TB_E_FORMAT;
    for (size_t i = 0; i < a->elements; i++) {
        int rc = take_entry(st, r, a->element[i]);
        if (rc != 0)
            return rc;
    }
    return 0;
}


static void fetch_done(void *priv, redisReply *rep)
{
    Req *q = priv;
    Lobby_Redis *st = q->st;
    Lobby_Room *r;

    if (rep != NULL && !st->closing) {
        r = lobby__replica_find(st->rs, q->inv);
        if (r != NULL)
            (void)take_entries(st, r, rep); /* malformed: the rest waits */
    }
    req_free(q);
}

/* The room's guest key as Redis has it, for a copy made before its guest
 * came: the channel's "g" message may have gone before this node
 * subscribed, and receipts signed without it name no guest (a spectator
 * refused every one: test_lobby_redis, node_killed_mid_game). */
typedef struct Guest_Req {
    Lobby_Redis *st;
    uint8_t inv[LOBBY_LOOKUP_BYTES];
} Guest_Req;

static void guest_done(void *priv, redisReply *rep)
{
    Guest_Req *g = priv;
    Lobby_Room *r;
    if (rep != NULL && !g->st->closing && rep->type == REDIS_REPLY_STRING &&
        rep->len == LOBBY_KEY_BYTES &&
        (r = lobby__replica_find(g->st->rs, g->inv)) != NULL)
        lobby__replica_guest(g->st->rs, r, (const uint8_t *)rep->str);
    free(g);
}

/* Ask the room's stream for every frame after the copy's last (its guest
 * key first, on the same connection: it is known before they are). */
static void fetch(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES])
{
    char key[KEY_LEN + 1], start[32], count[16];
    const char *argv[6];
    size_t argl[6];
    Lobby_Room *r = lobby__replica_find(st->rs, inv);
    Req *q;

    if (r == NULL || !st->up)
        return;
    q = req_new(st, NULL, REQ_FETCH);
    if (q == NULL)
        return;
    memcpy(q->inv, inv, LOBBY_LOOKUP_BYTES);
    Guest_Req *g = calloc(1, sizeof *g);
    if (g != NULL) {
        const char *hv[3] = {"HGET", key, "gk"};
        g->st = st;
        memcpy(g->inv, inv, LOBBY_LOOKUP_BYTES);
        key_of(inv, 'm', key);
        if (lobby__rc_command(st->rc, key, strlen(key), guest_done, g, 3, hv,
                              NULL) != 0)
            free(g);
    }
    key_of(inv, 'f', key);
    snprintf(start, sizeof start, "0-%llu",
             (unsigned long long)lobby__replica_next(r));
    snprintf(count, sizeof count, "%u", st->lim.transcript_frames);
    argv[0] = "XRANGE";
    argv[1] = key;
    argv[2] = start;
    argv[3] = "+";
    argv[4] = "COUNT";
    argv[5] = count;
    for (int i = 0; i < 6; i++)
        argl[i] = strlen(argv[i]);
    if (lobby__rc_command(st->rc, key, argl[1], fetch_done, q, 6, argv,
                          argl) != 0)
        req_free(q);
}

/* The decimal numbers at the front of p[0..n), each followed by a space
 * or the end: at most want of them into v; how many were read. *rest:
 * what follows the last one's space (p + n at the end). */
static int numbers(const char *p, size_t n, uint64_t *v, int want,
                   const char **rest)
{
    int k = 0;
    const char *end = p + n;
    while (k < want && p < end) {
        const char *sp = memchr(p, ' ', (size_t)(end - p));
        size_t len = sp != NULL ? (size_t)(sp - p) : (size_t)(end - p);
        if (parse_u64(p, len, &v[k]) != 0)
            break;
        k++;
        p = sp != NULL ? sp + 1 : end;
        if (sp == NULL)
            break;
    }
    *rest = p;
    return k;
}

/* A message on a room's channel: a frame "SEQ SEAT TIME ABSENT0 ABSENT1
 * PAYLOAD" (data.lua), the key the guest seat holds "g HEX" (admit.lua,
 * leave.lua: zeros for none), or a
 * seat's presence "p SEAT 0|1 SEQ TIME" (after the room's frame SEQ, at
 * its receipt clock TIME), an arrival with its claim number
 * "p SEAT 1 SEQ TIME E" (a member of an older claim of that seat here is
 * replaced). */
static void on_message(Lobby_Redis *st, const redisReply *chan,
                       const redisReply *msg)
{
    uint8_t inv[LOBBY_LOOKUP_BYTES];
    const char *p = msg->str, *rest;
    size_t n = msg->len;
    uint64_t v[5];
    Lobby_Room *r;
    int rc, k;

    if (chan->len == sizeof pool_chan - 1 &&
        memcmp(chan->str, pool_chan, chan->len) == 0) {
        pool_message(st, p, n);
        return;
    }
    if (chan->len != KEY_LEN || unhex(chan->str + 4, HEX_LEN, inv) != 0)
        return;
    r = lobby__replica_find(st->rs, inv);
    if (r == NULL)
        return;
    if (n == 2 + 2 * LOBBY_KEY_BYTES && p[0] == 'g' && p[1] == ' ') {
        uint8_t gk[LOBBY_KEY_BYTES];
        if (proto_unhex(p + 2, 2 * LOBBY_KEY_BYTES, gk, sizeof gk) == 0)
            lobby__replica_guest(st->rs, r, gk);
        return;
    }
    if (n >= 2 && p[0] == 'p' && p[1] == ' ') {
        k = numbers(p + 2, n - 2, v, 5, &rest);
        if (k < 4 || v[0] > 1 || v[1] > 1 || rest != p + n ||
            (k == 5 && v[1] != 1))
            return;
        if (k == 5)
            lobby__replica_claimed(r, (int)v[0], v[4], uv_now(st->loop));
        lobby__replica_presence(st->rs, r, (int)v[0], (int)v[1], v[2], v[3]);
        return;
    }
    if (numbers(p, n, v, 5, &rest) != 5 || v[1] > 1 || v[3] > UINT32_MAX ||
        v[4] > UINT32_MAX)
        return;
    n -= (size_t)(rest - p);
    if (n == 0 || n > st->lim.max_payload)
        return;
    const uint32_t absent[2] = {(uint32_t)v[3], (uint32_t)v[4]};
    rc = lobby__replica_frame(st->rs, r, v[0], (int)v[1], v[2], absent,
                              (const uint8_t *)rest, n, 0);
    if (rc == TB_E_STATE)
        fetch(st, inv);
}

static void sub_reply(redisAsyncContext *ac, void *reply, void *priv)
{
    Lobby_Redis *st = priv;
    const redisReply *rep = reply;
    uint8_t inv[LOBBY_LOOKUP_BYTES];

    (void)ac;
    if (rep == NULL || st->closing || rep->type != REDIS_REPLY_ARRAY ||
        rep->elements != 3 || rep->element[0]->type != REDIS_REPLY_STRING ||
        rep->element[1]->type != REDIS_REPLY_STRING)
        return;
    if (lobby__health_sub(&st->health, rep))
        return;
    if (strcmp(rep->element[0]->str, "message") == 0 &&
        rep->element[2]->type == REDIS_REPLY_STRING)
        on_message(st, rep->element[1], rep->element[2]);
    else if (strcmp(rep->element[0]->str, "subscribe") == 0 &&
             rep->element[1]->len == KEY_LEN &&
             unhex(rep->element[1]->str + 4, HEX_LEN, inv) == 0)
        fetch(st, inv); /* what came before the subscription held */
}

void lobby__redis_watch(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES])
{
    char chan[KEY_LEN + 1];
    if (st == NULL || !st->up)
        return;
    key_of(inv, 'c', chan);
    redisAsyncCommand(st->sub, sub_reply, st, "SUBSCRIBE %s", chan);
}

void lobby__redis_unwatch(Lobby_Redis *st,
                          const uint8_t inv[LOBBY_LOOKUP_BYTES])
{
    char chan[KEY_LEN + 1];
    if (st == NULL || !st->up || st->closing)
        return;
    key_of(inv, 'c', chan);
    redisAsyncCommand(st->sub, NULL, NULL, "UNSUBSCRIBE %s", chan);
}

/* ---- admission ---- */

static int reply_u64(const redisReply *r, uint64_t *out)
{
    if (r->type == REDIS_REPLY_INTEGER && r->integer >= 0) {
        *out = (uint64_t)r->integer;
        return 0;
    }
    if (r->type == REDIS_REPLY_STRING)
        return parse_u64(r->str, r->len, out);
    return TB_E_FORMAT;
}

static int reply_hex(const redisReply *r, uint8_t out[LOBBY_LOOKUP_BYTES])
{
    if (r->type != REDIS_REPLY_STRING)
        return TB_E_FORMAT;
    return unhex(r->str, r->len, out);
}

/* {role, invite hex, host key, watch hex, next, epoch, frames} */

/* The parts of a hello message (checked for length by room.c). */
static const uint8_t *msg_watch(const uint8_t *p)
{
    return p + 2 + LOBBY_LOOKUP_BYTES; /* CREATE only */
}

static const uint8_t *msg_pk(const uint8_t *p)
{
    return p + 2 + 2 * LOBBY_LOOKUP_BYTES; /* CREATE only */
}

static const uint8_t *msg_secret(const uint8_t *p)
{
    return p[0] == LOBBY_MSG_CREATE ? msg_pk(p) + LOBBY_KEY_BYTES
                                    : p + 2 + LOBBY_LOOKUP_BYTES;
}

/* CREATE: the guest it names (zeros: any); JOIN: the guest's proven key
 * (both after the seat secret; the proof was checked on arrival, room.c) */
static const uint8_t *msg_guest(const uint8_t *p)
{
    return msg_secret(p) + LOBBY_SEAT_SECRET_BYTES;
}

static void hello_done(void *priv, redisReply *rep);

/* The admission script in the slot of lookup (stage "0" or "1"). */
static int send_admit(Lobby_Redis *st, Req *q, const uint8_t *lookup,
                      const char *stage)
{
    const uint8_t *p = q->msg;
    char m[KEY_LEN + 1], f[KEY_LEN + 1], w[KEY_LEN + 1], lhex[HEX_LEN + 1],
        whex[HEX_LEN + 1] = "", ttl[24], after[32], next[32], count[16],
        from[32];
    const char *argv[18];
    size_t argl[18];
    int create = p[0] == LOBBY_MSG_CREATE;
    Lobby_Room *r = lobby__replica_find(st->rs, lookup);

    key_of(lookup, 'm', m);
    key_of(lookup, 'f', f);
    key_of(lookup, 'w', w);
    hex_of(lookup, lhex);
    if (create)
        hex_of(msg_watch(p), whex);
    /* Frames wanted: all the stream keeps unless a copy is here already. */
    snprintf(after, sizeof after, "%llu",
             (unsigned long long)(r ? lobby__replica_next(r) : 0));
    snprintf(next, sizeof next, "%llu", (unsigned long long)q->from + 1);
    snprintf(from, sizeof from, "%llu", (unsigned long long)q->from);
    snprintf(ttl, sizeof ttl, "%u", st->lim.empty_room_ms);
    snprintf(count, sizeof count, "%u", st->lim.transcript_frames);
    argv[0] = m;
    argv[1] = f;
    argv[2] = w;
    argv[3] = create ? "1" : p[0] == LOBBY_MSG_JOIN ? "2" : "3";
    argv[4] = stage;
    argv[5] = whex;
    argv[6] = create ? (const char *)msg_pk(p) : "";
    argv[7] = p[0] != LOBBY_MSG_WATCH ? (const char *)msg_secret(p) : "";
    argv[8] = next;
    argv[9] = after;
    argv[10] = ttl;
    argv[11] = count;
    argv[12] = lhex;
    argv[13] = q->src;
    argv[14] = from;
    argv[15] = p[0] != LOBBY_MSG_WATCH ? (const char *)msg_guest(p) : "";
    /* a JOIN's player's ratings, for a rated seek's room (admit.lua) */
    char rated[LOBBY_RATINGS_TEXT_MAX] = "";
    if (p[0] == LOBBY_MSG_JOIN)
        lobby__ratings_text(lobby__rooms_ratings(st->rs), msg_guest(p), rated,
                            sizeof rated);
    argv[16] = rated;
    char newcomer[8];
    snprintf(newcomer, sizeof newcomer, "%u", (unsigned)POOL_RATING_NEWCOMER);
    argv[17] = newcomer;
    for (int i = 0; i < 18; i++)
        argl[i] = strlen(argv[i]);
    argl[6] = create ? LOBBY_KEY_BYTES : 0;
    argl[7] = p[0] != LOBBY_MSG_WATCH ? LOBBY_SEAT_SECRET_BYTES : 0;
    argl[15] = p[0] != LOBBY_MSG_WATCH ? LOBBY_KEY_BYTES : 0;
    return EVAL(st, admit_lua, 3, 18, argv, argl, hello_done, q);
}

/* A share (cap 0: only renew) counted in set for this room. */
static int send_cap(Lobby_Redis *st, Req *q, const char *set, unsigned cap,
                    int code, Lobby_Rc_Fn *fn)
{
    char lhex[HEX_LEN + 1], ttl[24], capv[16], codev[8];
    const char *argv[5] = {set, lhex, ttl, capv, codev};

    hex_of(q->msg + 2, lhex);
    snprintf(ttl, sizeof ttl, "%u", st->lim.empty_room_ms);
    snprintf(capv, sizeof capv, "%u", cap);
    snprintf(codev, sizeof codev, "%d", code);
    return EVAL(st, cap_lua, 1, 5, argv, NULL, fn, q);
}

static void share_key(const Req *q, char out[2 * LOBBY_SOURCE_KEY + 6])
{
    snprintf(out, 2 * LOBBY_SOURCE_KEY + 6, "tb:a:%s", q->src);
}

/* The share key of the source whose key is maker (tb:a:HEX). */
static void maker_share_key(const uint8_t maker[LOBBY_SOURCE_KEY],
                            char out[2 * LOBBY_SOURCE_KEY + 6])
{
    memcpy(out, "tb:a:", 5);
    proto_hex(maker, LOBBY_SOURCE_KEY, out + 5);
}

/* A CREATE refused after steps of it were taken: take them back (each
 * in its own slot; a crash meanwhile leaves them until they expire). */
static void undo_create(Lobby_Redis *st, const Req *q)
{
    char key[KEY_LEN + 2 * LOBBY_SOURCE_KEY], lhex[HEX_LEN + 1];
    hex_of(q->msg + 2, lhex);
    if (q->kind >= REQ_ROOMS && q->kind <= REQ_MAKE) {
        share_key(q, key);
        (void)lobby__rc_command1(st->rc, "ZREM", key, lhex);
    }
    if (q->kind >= REQ_RESERVE && q->kind <= REQ_MAKE)
        (void)lobby__rc_command1(st->rc, "ZREM", "tb:rooms", lhex);
    if (q->kind == REQ_MAKE && q->reserved) {
        const char *argv[2] = {key, lhex};
        key_of(msg_watch(q->msg), 'w', key);
        (void)EVAL(st, unreserve_lua, 1, 2, argv, NULL, NULL, NULL);
    }
}

/* One step of the wrong-code limit: the address's bucket, then the
 * lobby's. */
static int send_guess(Lobby_Redis *st, Req *q)
{
    char key[2 * LOBBY_SOURCE_KEY + 6], refill[24], burst[16];
    const char *argv[3] = {key, refill, burst};
    const Lobby_Limits *lim = &st->lim;

    if (q->kind == REQ_GUESS_OWN) {
        snprintf(key, sizeof key, "tb:g:%s", q->src);
        snprintf(refill, sizeof refill, "%llu",
                 (unsigned long long)lim->guess_refill_ms * 1000);
        snprintf(burst, sizeof burst, "%u", lim->guess_burst);
    } else {
        snprintf(key, sizeof key, "tb:g");
        snprintf(refill, sizeof refill, "%u",
                 1000000u / lim->guess_global_per_s + 1);
        snprintf(burst, sizeof burst, "%u", lim->guess_global_per_s);
    }
    return EVAL(st, guess_lua, 1, 3, argv, NULL, hello_done, q);
}

/* q's member is refused with code; a wrong code goes through the limit
 * kept in Redis first. q is done with (or reused for the limit). */
static void hello_refuse(Lobby_Redis *st, Req *q, int code)
{
    undo_create(st, q);
    if (code == LOBBY_ERR_CODE && q->m != NULL) {
        q->kind = REQ_GUESS_OWN;
        if (send_guess(st, q) == 0)
            return;
        code = LOBBY_ERR_FULL;
    }
    if (q->m != NULL)
        lobby__refuse(q->m, code);
    req_free(q);
}

/* {role, lookup hex, host key, watch hex, next, epoch, frames, presence,
 * maker, time, guest key, keep} */
static void hello_admit(Lobby_Redis *st, Req *q, const redisReply *rep)
{
    uint8_t inv[LOBBY_LOOKUP_BYTES], wat[LOBBY_LOOKUP_BYTES],
        maker[LOBBY_SOURCE_KEY];
    char key[KEY_LEN + 1], ttl[24], share[2 * LOBBY_SOURCE_KEY + 6];
    uint64_t role, next, epoch, pres, rtime, keep;
    const redisReply *mk;
    int has_maker;
    Lobby_Room *r;

    if (rep->elements != ADMIT_ELEMENTS ||
        reply_u64(rep->element[0], &role) != 0 || role > 2 ||
        reply_hex(rep->element[1], inv) != 0 ||
        rep->element[2]->type != REDIS_REPLY_STRING ||
        rep->element[2]->len != LOBBY_KEY_BYTES ||
        reply_hex(rep->element[3], wat) != 0 ||
        reply_u64(rep->element[4], &next) != 0 || next == 0 ||
        reply_u64(rep->element[5], &epoch) != 0 ||
        reply_u64(rep->element[7], &pres) != 0 || pres > 3 ||
        reply_u64(rep->element[9], &rtime) != 0 ||
        rep->element[10]->type != REDIS_REPLY_STRING ||
        (rep->element[10]->len != 0 &&
         rep->element[10]->len != LOBBY_KEY_BYTES) ||
        reply_u64(rep->element[11], &keep) != 0 || keep > UINT32_MAX) {
        lobby__refuse(q->m, LOBBY_ERR_FULL);
        return;
    }
    r = lobby__replica(st->rs, inv, wat,
                       (const uint8_t *)rep->element[2]->str, q->m);
    if (r != NULL) {
        /* (before its frames are taken: their receipts name the guest) */
        static const uint8_t none[LOBBY_KEY_BYTES];
        lobby__replica_guest(st->rs, r, rep->element[10]->len != 0
                                    ? (const uint8_t *)rep->element[10]->str
                                    : none);
    }
    if (r == NULL || take_entries(st, r, rep->element[6]) != 0) {
        lobby__refuse(q->m, LOBBY_ERR_FULL);
        return;
    }
    lobby__replica_seen(r, next);
    lobby__replica_keep(r, (uint32_t)keep);
    mk = rep->element[8];
    has_maker = mk->type == REDIS_REPLY_STRING &&
                proto_unhex(mk->str, mk->len, maker, sizeof maker) == 0;
    if (has_maker) /* else made by an older node */
        lobby__replica_maker(r, maker);
    lobby__admit(q->m, r, (int)role, q->from, epoch, (int)pres, rtime,
                 uv_now(st->loop));
    if (role == LOBBY_ROLE_GUEST) /* a guest took the seat: off the list */
        lobby__redis_unseek(st, inv);
    /* The room is in use: it counts towards the cap and its maker's
     * share, and its watch lookup lives on (each in its own slot). */
    memcpy(q->msg + 2, inv, LOBBY_LOOKUP_BYTES);
    (void)send_cap(st, q, "tb:rooms", 0, 0, NULL);
    if (has_maker) {
        snprintf(share, sizeof share, "tb:a:%.*s", (int)mk->len, mk->str);
        (void)send_cap(st, q, share, 0, 0, NULL);
    }
    key_of(wat, 'w', key);
    snprintf(ttl, sizeof ttl, "%u", st->lim.empty_room_ms);
    (void)lobby__rc_command1(st->rc, "PEXPIRE", key, ttl);
}

static void hello_next(Lobby_Redis *st, Req *q, const redisReply *rep)
{
    long long v = rep->type == REDIS_REPLY_INTEGER ? rep->integer : -5;
    char key[2 * LOBBY_SOURCE_KEY + 6 + KEY_LEN];
    int rc = 0;

    switch (q->kind) {
    case REQ_SHARE:
    case REQ_ROOMS:
        if (v < 0) {
            hello_refuse(st, q, (int)-v < 256 ? (int)-v : LOBBY_ERR_FULL);
            return;
        }
        if (q->kind++ == REQ_SHARE) {
            rc = send_cap(st, q, "tb:rooms", st->lim.max_rooms, LOBBY_ERR_FULL,
                          hello_done);
        } else {
            char lhex[HEX_LEN + 1], ttl[24], m[KEY_LEN + 1];
            const char *argv[4] = {m, key, lhex, ttl};
            key_of(msg_watch(q->msg), 'm', m);
            key_of(msg_watch(q->msg), 'w', key);
            hex_of(q->msg + 2, lhex);
            snprintf(ttl, sizeof ttl, "%u", st->lim.empty_room_ms);
            rc = EVAL(st, reserve_lua, 2, 4, argv, NULL, hello_done, q);
        }
        break;
    case REQ_RESERVE:
        if (v < 0) {
            hello_refuse(st, q, LOBBY_ERR_CODE);
            return;
        }
        q->reserved = v == 1;
        q->kind = REQ_MAKE;
        rc = send_admit(st, q, q->msg + 2, "1");
        break;
    case REQ_GUESS_OWN:
        if (v == 0) {
            q->kind = REQ_GUESS_ALL;
            rc = send_guess(st, q);
            break;
        }
        lobby__guess_answer(q->m, 1, uv_now(st->loop));
        req_free(q);
        return;
    default: /* REQ_GUESS_ALL */
        if (q->m != NULL)
            lobby__guess_answer(q->m, v != 0, uv_now(st->loop));
        req_free(q);
        return;
    }
    if (rc != 0)
        hello_refuse(st, q, LOBBY_ERR_FULL);
}

static void hello_done(void *priv, redisReply *rep)
{
    Req *q = priv;
    Lobby_Redis *st = q->st;
    long long first;

    if (rep == NULL || st->closing) {
        req_free(q);
        return;
    }
    if (q->m == NULL) { /* gone meanwhile: take back what was taken */
        if (q->kind >= REQ_SHARE && q->kind <= REQ_RESERVE &&
            rep->type == REDIS_REPLY_INTEGER && rep->integer >= 0) {
            q->reserved = q->kind == REQ_RESERVE && rep->integer == 1;
            q->kind++; /* this step's reservation was made too */
        }
        if (q->kind != REQ_MAKE || rep->type != REDIS_REPLY_ARRAY ||
            rep->elements != ADMIT_ELEMENTS)
            undo_create(st, q);
        req_free(q);
        return;
    }
    if (q->kind != REQ_HELLO && q->kind != REQ_MAKE &&
        q->kind != REQ_FOLLOW) {
        hello_next(st, q, rep);
        return;
    }
    if (rep->type != REDIS_REPLY_ARRAY || rep->elements < 1 ||
        rep->element[0]->type != REDIS_REPLY_INTEGER) {
        hello_refuse(st, q, LOBBY_ERR_FULL);
        return;
    }
    first = rep->element[0]->integer;
    if (first == -100 && q->kind == REQ_HELLO &&
        q->msg[0] == LOBBY_MSG_CREATE && st->near_full) {
        /* a new room, with Redis near its memory limit: the games
         * already running keep what is left to finish */
        hello_refuse(st, q, LOBBY_ERR_FULL);
        return;
    }
    if (first == -100 && q->kind == REQ_HELLO &&
        q->msg[0] == LOBBY_MSG_CREATE) {
        char key[2 * LOBBY_SOURCE_KEY + 6];
        q->kind = REQ_SHARE;
        share_key(q, key);
        uint64_t share =
            (uint64_t)st->lim.source_rooms * lobby__member_factor(q->m);
        if (send_cap(st, q, key, share > 1u << 30 ? 1u << 30 : (unsigned)share,
                     LOBBY_ERR_ADDRESS, hello_done) != 0)
            hello_refuse(st, q, LOBBY_ERR_FULL);
        return;
    }
    if (first == -101 && q->kind == REQ_HELLO && rep->elements == 2 &&
        reply_hex(rep->element[1], q->inv) == 0) {
        q->kind = REQ_FOLLOW;
        if (send_admit(st, q, q->inv, "0") != 0)
            hello_refuse(st, q, LOBBY_ERR_FULL);
        return;
    }
    if (first < 0) {
        hello_refuse(st, q, -first < 256 ? (int)-first : LOBBY_ERR_FULL);
        return;
    }
    hello_admit(st, q, rep);
    req_free(q);
}

void lobby__redis_hello(Lobby_Redis *st, Lobby_Member *m, const uint8_t *p)
{
    size_t len = p[0] == LOBBY_MSG_CREATE ? LOBBY_LEN_CREATE
                 : p[0] == LOBBY_MSG_JOIN ? LOBBY_LEN_JOIN
                                          : LOBBY_LEN_WATCH;
    const uint8_t *sk;
    Req *q;

    if (!st->up) {
        lobby__drop_members(st->rs);
        return;
    }
    q = req_new(st, m, REQ_HELLO);
    if (q == NULL) {
        lobby__refuse(m, LOBBY_ERR_FULL);
        return;
    }
    memcpy(q->msg, p, len);
    q->from = lobby__get64(p + len - 8);
    sk = lobby__member_source(m);
    proto_hex(sk, LOBBY_SOURCE_KEY, q->src);
    if (send_admit(st, q, p + 2, p[0] == LOBBY_MSG_WATCH ? "1" : "0") != 0) {
        req_free(q);
        lobby__refuse(m, LOBBY_ERR_FULL);
    }
}

/* ---- frames from members ---- */

/* data_lua's answer {number, time, absences}: 0 with all, else
 * TB_E_FORMAT. */
static int numbered(const redisReply *rep, uint64_t *seq, uint64_t *t,
                    uint32_t absent[2])
{
    uint64_t a[2];
    if (rep->type != REDIS_REPLY_ARRAY || rep->elements != 4 ||
        reply_u64(rep->element[0], seq) != 0 || *seq == 0 ||
        reply_u64(rep->element[1], t) != 0 ||
        reply_u64(rep->element[2], &a[0]) != 0 || a[0] > UINT32_MAX ||
        reply_u64(rep->element[3], &a[1]) != 0 || a[1] > UINT32_MAX)
        return TB_E_FORMAT;
    absent[0] = (uint32_t)a[0];
    absent[1] = (uint32_t)a[1];
    return 0;
}

static void data_done(void *priv, redisReply *rep)
{
    Req *q = priv;
    uint64_t seq, t;
    uint32_t absent[2];
    if (q->m != NULL)
        lobby__stored(q->m, q->n);
    if (q->m != NULL && rep != NULL && !q->st->closing) {
        if (numbered(rep, &seq, &t, absent) == 0)
            lobby__acked(q->m, seq, t, absent, q->hash);
        else if (rep->type == REDIS_REPLY_INTEGER && rep->integer == -10)
            lobby__refuse(q->m, LOBBY_ERR_REPLACED);
        else if (rep->type == REDIS_REPLY_INTEGER &&
                 rep->integer == -LOBBY_ERR_FLOOD)
            lobby__refuse(q->m, LOBBY_ERR_FLOOD);
        else
            lobby__refuse(q->m, LOBBY_ERR_FULL);
    }
    req_free(q);
}

/* The payload bytes a room keeps in Redis: transcript_bytes, but no more
 * than an address's share over its rooms (source_bytes / source_rooms,
 * 1 MiB by default), so that an address's rooms keep at most its share
 * there too: no node sees all of an address's rooms, and each room's cap
 * needs no count beside it (the relay-limits issue: one address parked
 * 63 MiB in Redis against 16 MiB in memory). At least one whole frame. */
static size_t room_bytes(const Lobby_Limits *lim)
{
    size_t share = lim->source_bytes / lim->source_rooms;
    size_t cap = share < lim->transcript_bytes ? share : lim->transcript_bytes;
    size_t one = (size_t)lim->max_payload + LOBBY_FRAME_HEADER;
    return cap > one ? cap : one;
}

void lobby__redis_data(Lobby_Redis *st, Lobby_Member *m,
                       const uint8_t inv[LOBBY_LOOKUP_BYTES], int seat,
                       uint64_t epoch, const uint8_t *data, size_t n)
{
    char hkey[KEY_LEN + 1], fkey[KEY_LEN + 1], chan[KEY_LEN + 1], ep[24],
        ttl[24], count[16], bytes[24];
    const char *argv[9] = {hkey, fkey, seat ? "1" : "0", ep,   (const char *)data,
                           count, ttl, chan,            bytes};
    size_t argl[9];
    Req *q;

    if (!st->up) {
        lobby__drop_members(st->rs);
        return;
    }
    q = req_new(st, m, REQ_DATA);
    if (q == NULL) {
        lobby__stored(m, n);
        lobby__refuse(m, LOBBY_ERR_FULL);
        return;
    }
    q->n = n;
    if (proto_receipt_hash(data, n, q->hash) != 0)
        memset(q->hash, 0, sizeof q->hash);
    key_of(inv, 'm', hkey);
    key_of(inv, 'f', fkey);
    key_of(inv, 'c', chan);
    snprintf(ep, sizeof ep, "%llu", (unsigned long long)epoch);
    snprintf(ttl, sizeof ttl, "%u", st->lim.empty_room_ms);
    snprintf(count, sizeof count, "%u", st->lim.transcript_frames);
    snprintf(bytes, sizeof bytes, "%zu", room_bytes(&st->lim));
    for (int i = 0; i < 9; i++)
        argl[i] = i == 4 ? n : strlen(argv[i]);
    if (EVAL(st, data_lua, 2, 9, argv, argl, data_done, q) != 0) {
        req_free(q);
        lobby__stored(m, n);
        lobby__refuse(m, LOBBY_ERR_FULL);
    }
}

/* What a DONE's answer needs: both seats done, the room stops counting
 * in its creator's share and the lobby's count unjoined_room_ms later
 * (unless a node renews it: still used), and its watch lookup goes
 * then. */
typedef struct Done_Req {
    Lobby_Redis *st;
    char lhex[HEX_LEN + 1];
    char share[2 * LOBBY_SOURCE_KEY + 6]; /* "" when its maker is unknown */
    char wkey[KEY_LEN + 1];
} Done_Req;

static void done_done(void *priv, redisReply *rep)
{
    Done_Req *d = priv;
    if (rep != NULL && rep->type == REDIS_REPLY_INTEGER && rep->integer == 1 &&
        d->st->up) {
        char ttl[24];
        const char *argv[3] = {"tb:rooms", d->lhex, ttl};
        snprintf(ttl, sizeof ttl, "%u", d->st->lim.unjoined_room_ms);
        (void)EVAL(d->st, finish_lua, 1, 3, argv, NULL, NULL, NULL);
        if (d->share[0] != '\0') {
            argv[0] = d->share;
            (void)EVAL(d->st, finish_lua, 1, 3, argv, NULL, NULL, NULL);
        }
        (void)lobby__rc_command1(d->st->rc, "PEXPIRE", d->wkey, ttl);
    }
    free(d);
}

void lobby__redis_done(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                       const uint8_t wat[LOBBY_LOOKUP_BYTES],
                       const uint8_t *maker, int seat, uint64_t epoch)
{
    char hkey[KEY_LEN + 1], fkey[KEY_LEN + 1], ep[24], ttl[24];
    const char *argv[5] = {hkey, fkey, seat ? "1" : "0", ep, ttl};
    Done_Req *d;
    if (!st->up || (d = calloc(1, sizeof *d)) == NULL)
        return;
    d->st = st;
    hex_of(inv, d->lhex);
    if (maker != NULL)
        maker_share_key(maker, d->share);
    key_of(wat, 'w', d->wkey);
    key_of(inv, 'm', hkey);
    key_of(inv, 'f', fkey);
    snprintf(ep, sizeof ep, "%llu", (unsigned long long)epoch);
    snprintf(ttl, sizeof ttl, "%u", st->lim.unjoined_room_ms);
    if (EVAL(st, done_lua, 2, 5, argv, NULL, done_done, d) != 0)
        free(d);
}

void lobby__redis_leave(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                        int seat, uint64_t epoch)
{
    char hkey[KEY_LEN + 1], ep[24], chan[KEY_LEN + 1];
    const char *argv[4] = {hkey, seat ? "1" : "0", ep, chan};
    if (!st->up)
        return;
    key_of(inv, 'm', hkey);
    key_of(inv, 'c', chan);
    snprintf(ep, sizeof ep, "%llu", (unsigned long long)epoch);
    (void)EVAL(st, leave_lua, 1, 4, argv, NULL, NULL, NULL);
    if (seat == LOBBY_ROLE_HOST) /* a seek goes with its host */
        lobby__redis_unseek(st, inv);
}

/* ---- public seeks (issue 37; lua/seek.lua, unseek.lua, seeks.lua) ---- */

/* The seeks' keys, all in one slot: cards, seeks, counts per key and per
 * address. */
static const char *const seek_keys[4] = {"tb:{seeks}:c", "tb:{seeks}:i",
                                         "tb:{seeks}:k", "tb:{seeks}:a"};

static void seek_done(void *priv, redisReply *rep)
{
    Req *q = priv;
    if (rep != NULL && !q->st->closing && q->m != NULL)
        lobby__seeked(q->m, rep->type == REDIS_REPLY_INTEGER &&
                                    rep->integer >= 0 && rep->integer < 256
                                ? (int)rep->integer
                                : LOBBY_ERR_FULL);
    req_free(q);
}

/* List (renew 0) or renew (1) the seek card[0..n) of game for the room
 * of inv, its host m (NULL when renewing), counted against the player of
 * key owner (NULL when renewing: not used). */
static int seek_send(Lobby_Redis *st, Req *q, const uint8_t *inv,
                     const uint8_t *card, size_t n, const char *game,
                     const uint8_t *owner, int renew)
{
    char lhex[HEX_LEN + 1], pk[2 * LOBBY_KEY_BYTES + 1],
        src[2 * LOBBY_SOURCE_KEY + 1], kshare[16], ashare[24], total[16],
        lease[16];
    const char *argv[14] = {seek_keys[0], seek_keys[1], seek_keys[2],
                            seek_keys[3], lhex, (const char *)card, pk, src,
                            game, kshare, ashare, total, lease,
                            renew ? "1" : "0"};
    size_t argl[14];
    hex_of(inv, lhex);
    proto_hex(owner != NULL ? owner : card + 1, LOBBY_KEY_BYTES, pk);
    proto_hex(q != NULL && q->m != NULL ? lobby__member_source(q->m)
                                        : (const uint8_t *)"\xff",
              q != NULL && q->m != NULL ? LOBBY_SOURCE_KEY : 1, src);
    snprintf(kshare, sizeof kshare, "%u", st->lim.key_seeks);
    snprintf(ashare, sizeof ashare, "%llu",
             (unsigned long long)st->lim.source_seeks *
                 (q != NULL && q->m != NULL ? lobby__member_factor(q->m) : 1));
    snprintf(total, sizeof total, "%u", st->lim.max_seeks);
    snprintf(lease, sizeof lease, "%u", SEEK_LEASE_MS);
    for (int i = 0; i < 14; i++)
        argl[i] = i == 5 ? n : strlen(argv[i]);
    return EVAL(st, seek_lua, 4, 14, argv, argl, q != NULL ? seek_done : NULL,
                q);
}

void lobby__redis_seek(Lobby_Redis *st, Lobby_Member *m,
                       const uint8_t inv[LOBBY_LOOKUP_BYTES],
                       const uint8_t *card, size_t n, const char *game,
                       const uint8_t owner[LOBBY_KEY_BYTES],
                       const char *rated)
{
    Req *q = st->up ? req_new(st, m, REQ_SEEK) : NULL;
    if (st->up && rated != NULL && rated[0] != '\0') {
        /* a rated seek's range in its room's hash: admit.lua holds a
         * JOIN on any node to it (docs/pool.md "Rated seeks") */
        char key[KEY_LEN + 1];
        const char *hset[4] = {"HSET", key, "rr", rated};
        key_of(inv, 'm', key);
        (void)lobby__rc_command(st->rc, key, strlen(key), NULL, NULL, 4,
                                hset, NULL);
    }
    if (q == NULL || seek_send(st, q, inv, card, n, game, owner, 0) != 0) {
        if (q != NULL)
            req_free(q);
        lobby__seeked(m, LOBBY_ERR_FULL);
    }
}

void lobby__redis_unseek(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES])
{
    char lhex[HEX_LEN + 1];
    const char *argv[5] = {seek_keys[0], seek_keys[1], seek_keys[2],
                           seek_keys[3], lhex};
    if (!st->up)
        return;
    hex_of(inv, lhex);
    (void)EVAL(st, unseek_lua, 4, 5, argv, NULL, NULL, NULL);
}

static void renew(void *user, const uint8_t *inv, const uint8_t *card,
                  size_t len, const char *game)
{
    (void)seek_send(user, NULL, inv, card, len, game, NULL, 1);
}

/* Answer every member waiting for the list from the node's copy c, each
 * with the seeks of the game it asked for. */
static void seeks_answer(Lobby_Redis *st, const Seeks_Cache *c)
{
    const uint8_t **card = calloc(c->n > 0 ? c->n : 1, sizeof *card);
    uint64_t *since = calloc(c->n > 0 ? c->n : 1, sizeof *since);
    size_t *len = calloc(c->n > 0 ? c->n : 1, sizeof *len);
    Req *q = st->reqs, *next;
    for (; q != NULL; q = next) {
        size_t k = 0;
        next = q->next;
        if (q->kind != REQ_SEEKS)
            continue;
        for (size_t i = 0; card != NULL && since != NULL && len != NULL &&
                           i < c->n;
             i++) {
            char game[LOBBY_SEEK_GAME_MAX + 1];
            if (q->src[0] != '\0' &&
                (lobby_seek_card_game(c->cards + c->off[i], c->len[i],
                                      game) != 0 ||
                 strcmp(game, q->src) != 0))
                continue;
            card[k] = c->cards + c->off[i];
            since[k] = c->since[i];
            len[k++] = c->len[i];
        }
        if (q->m != NULL) {
            if (card != NULL && since != NULL && len != NULL)
                (void)lobby__listed(q->m, k, since, card, len);
            else
                lobby__refuse(q->m, LOBBY_ERR_FULL);
        }
        req_free(q);
    }
    free(card);
    free(since);
    free(len);
}

static void cache_clear(Seeks_Cache *c)
{
    free(c->since);
    free(c->cards);
    free(c->off);
    free(c->len);
    c->since = NULL;
    c->cards = NULL;
    c->off = c->len = NULL;
    c->n = 0;
}

/* Redis's list into c: 0, or nonzero (a reply no seeks.lua gives, or no
 * memory). */
static int cache_fill(Seeks_Cache *c, const redisReply *rep)
{
    size_t n, total = 0;
    cache_clear(c);
    if (rep == NULL || rep->type != REDIS_REPLY_ARRAY || rep->elements % 2)
        return TB_E_FORMAT;
    n = rep->elements / 2;
    for (size_t i = 0; i < n; i++) {
        const redisReply *sr = rep->element[2 * i], *cr = rep->element[2 * i + 1];
        if (sr->type != REDIS_REPLY_STRING || cr->type != REDIS_REPLY_STRING ||
            cr->len < LOBBY_SEEK_CARD_MIN || cr->len > LOBBY_SEEK_CARD_MAX)
            return TB_E_FORMAT;
        total += cr->len;
    }
    c->since = calloc(n + 1, sizeof *c->since);
    c->off = calloc(n + 1, sizeof *c->off);
    c->len = calloc(n + 1, sizeof *c->len);
    c->cards = malloc(total + 1);
    if (c->since == NULL || c->off == NULL || c->len == NULL ||
        c->cards == NULL) {
        cache_clear(c);
        return TB_E_NOMEM;
    }
    total = 0;
    for (size_t i = 0; i < n; i++) {
        const redisReply *sr = rep->element[2 * i], *cr = rep->element[2 * i + 1];
        if (parse_u64(sr->str, sr->len, &c->since[i]) != 0) {
            cache_clear(c);
            return TB_E_FORMAT;
        }
        memcpy(c->cards + total, cr->str, cr->len);
        c->off[i] = total;
        c->len[i] = cr->len;
        total += cr->len;
    }
    c->n = n;
    return 0;
}

static void seeks_done(void *priv, redisReply *rep)
{
    Req *q = priv;
    Lobby_Redis *st = q->st;
    Seeks_Cache *c = &st->seeks_cache;
    uint64_t now = uv_now(st->loop);

    c->inflight = 0;
    c->used = rep != NULL && cache_fill(c, rep) == 0;
    c->took = now - c->asked;
    c->at = now;
    if (!c->used) { /* (Redis gone, or an answer no script gives) */
        for (Req *r = st->reqs, *next; r != NULL; r = next) {
            next = r->next;
            if (r->kind == REQ_SEEKS) {
                if (r->m != NULL && !st->closing)
                    lobby__refuse(r->m, LOBBY_ERR_FULL);
                req_free(r);
            }
        }
        return;
    }
    seeks_answer(st, c);
}

void lobby__redis_seeks(Lobby_Redis *st, Lobby_Member *m, const char *game)
{
    const char *argv[5] = {seek_keys[0], seek_keys[1], seek_keys[2],
                           seek_keys[3], ""};
    Seeks_Cache *c = &st->seeks_cache;
    uint64_t now = uv_now(st->loop);
    uint64_t fresh = 4 * c->took > SEEKS_FRESH_MIN_MS ? 4 * c->took
                                                      : SEEKS_FRESH_MIN_MS;
    Req *q = st->up ? req_new(st, m, REQ_SEEKS) : NULL;

    if (q == NULL) {
        lobby__refuse(m, LOBBY_ERR_FULL);
        return;
    }
    snprintf(q->src, sizeof q->src, "%s", game);
    /* The node reads the whole list from Redis at most once in four
     * times the last read took (at least each SEEKS_FRESH_MIN_MS), one
     * read at a time, and every SEEKS meanwhile is answered from it: so
     * lists spend at most a fifth of Redis's time a node (a trial lost
     * Redis, for every node, to 96 lists of 5,000 seeks at once). */
    if (c->used && now - c->at < fresh) {
        seeks_answer(st, c);
        return;
    }
    if (c->inflight)
        return; /* (answered with the list on its way) */
    if (EVAL(st, seeks_lua, 4, 5, argv, NULL, seeks_done, q) != 0) {
        req_free(q);
        lobby__refuse(m, LOBBY_ERR_FULL);
        return;
    }
    c->inflight = 1;
    c->asked = now;
}

void lobby__redis_had(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                      int seat, uint64_t epoch, uint64_t seq)
{
    char hkey[KEY_LEN + 1], ep[24], sq[24];
    const char *argv[4] = {hkey, seat ? "1" : "0", ep, sq};
    if (!st->up)
        return;
    key_of(inv, 'm', hkey);
    snprintf(ep, sizeof ep, "%llu", (unsigned long long)epoch);
    snprintf(sq, sizeof sq, "%llu", (unsigned long long)seq);
    (void)EVAL(st, had_lua, 1, 4, argv, NULL, NULL, NULL);
}

void lobby__redis_forget(Lobby_Redis *st, Lobby_Member *m)
{
    for (Req *q = st->reqs; q != NULL; q = q->next)
        if (q->m == m)
            q->m = NULL;
}

static int open_sub(Lobby_Redis *st);

/* ---- the pool (issue 37): offers of every node, paired by pool.c ---- */

/* The pool's keys, all in one slot: the offers (hash id -> record), their
 * leases (hash id -> until, ms of the wall clock), the ids' counter, the
 * pairing's lock; and its channel (pool_chan above). */
static const char pool_offers[] = "tb:{pool}:o", pool_leases[] = "tb:{pool}:l",
                  pool_ids[] = "tb:{pool}:n", pool_lock[] = "tb:{pool}:x";

/* An offer is kept this long (ms) past its lease's last renewal (each
 * SEEK_RENEW_MS by the node holding its member); a node with offers
 * waiting pairs again at least each POOL_AGAIN_MS (lapsed offers go and
 * the counts are told); the pairing's lock lasts at most POOL_LOCK_MS. */
#define POOL_LEASE_MS 15000
#define POOL_AGAIN_MS 5000
#define POOL_LOCK_MS "2000"
/* "GAMES LO HI PLAYER ADDR CODE SEAT OPTIONS WANT RATED": the mask, the
 * range's ends (canonical clock texts, "-" for none), the player key and
 * address (hex), the seat's invite code (16 symbols) and seat key (hex),
 * its card's match options ("-" for none; never a space in them), the
 * ratings it pairs with ("LO..HI", "-" for any) and its player's ratings
 * the node read in its list ("G.C.R,...": game index, class, rating, for
 * each one rated; "-" for none). */
#define POOL_RATED_MAX (POOL_GAMES_MAX * PROTO_CLASS_COUNT * 11)
#define POOL_RECORD_MAX                                                        \
    (6 + 2 * PROTO_CLOCK_TEXT_MAX + 2 * LOBBY_KEY_BYTES + 2 * POOL_ADDR_BYTES + \
     LOBBY_CODE_SYMBOLS + 2 * LOBBY_KEY_BYTES + LOBBY_SEEK_OPTIONS_MAX + 12 +  \
     POOL_RATED_MAX + 10)

static uint64_t wall_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* An offer as Redis keeps it. */
typedef struct Pool_Kept {
    Pool_Offer o;
    char code[LOBBY_CODE_SYMBOLS + 1];
    uint8_t seat[LOBBY_KEY_BYTES];
    char options[LOBBY_SEEK_OPTIONS_MAX + 1]; /* "-" for none */
} Pool_Kept;

static int clock_text(const Proto_Clock *c, char *out, size_t cap)
{
    if (proto_clock_format(c, out, cap) != 0)
        return TB_E_SPACE;
    if (out[0] == '\0')
        snprintf(out, cap, "-");
    return 0;
}

static int clock_read(const char *s, size_t n, Proto_Clock *c)
{
    char t[PROTO_CLOCK_TEXT_MAX];
    memset(c, 0, sizeof *c);
    if (n == 1 && s[0] == '-')
        return 0;
    if (n == 0 || n >= sizeof t)
        return TB_E_FORMAT;
    memcpy(t, s, n);
    t[n] = '\0';
    return proto_clock_parse(t, 0, c, NULL) == 0 ? 0 : TB_E_FORMAT;
}

/* The next of the space-separated fields of s[*at..n) into *f, *fn. */
static int field(const char *s, size_t n, size_t *at, const char **f,
                 size_t *fn)
{
    size_t b = *at, e = b;
    while (e < n && s[e] != ' ')
        e++;
    if (e == b)
        return -1;
    *f = s + b;
    *fn = e - b;
    *at = e < n ? e + 1 : e;
    return 0;
}

/* A record's WANT and RATED fields into o: 0, or TB_E_FORMAT. */
static int rated_read(const char *w, size_t wn, const char *r, size_t rn,
                      Pool_Offer *o)
{
    uint64_t v[3];
    const char *dots = wn > 1 ? memchr(w, '.', wn) : NULL;
    if (!(wn == 1 && w[0] == '-')) {
        if (dots == NULL || dots + 1 >= w + wn || dots[1] != '.' ||
            parse_u64(w, (size_t)(dots - w), &v[0]) != 0 ||
            parse_u64(dots + 2, (size_t)(w + wn - dots - 2), &v[1]) != 0 ||
            v[1] == 0 || v[0] > v[1] || v[1] > 0xffff)
            return TB_E_FORMAT;
        o->want_lo = (uint16_t)v[0];
        o->want_hi = (uint16_t)v[1];
    }
    if (rn == 1 && r[0] == '-')
        return 0;
    if (r[rn - 1] == ',')
        return TB_E_FORMAT;
    for (size_t at = 0; at < rn;) {
        for (int i = 0; i < 3; i++) {
            size_t e = at;
            while (e < rn && r[e] != (i < 2 ? '.' : ','))
                e++;
            if (e == at || parse_u64(r + at, e - at, &v[i]) != 0 ||
                (i < 2 && e == rn))
                return TB_E_FORMAT;
            at = e + 1;
        }
        if (v[0] >= POOL_GAMES_MAX || v[1] >= PROTO_CLASS_COUNT || v[2] == 0 ||
            v[2] > 0xffff)
            return TB_E_FORMAT;
        o->rating[v[0]][v[1]] = (uint16_t)v[2];
    }
    return 0;
}

/* o's WANT and RATED fields into out (POOL_RATED_MAX + 16 bytes). */
static void rated_text(const Pool_Offer *o, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, o->want_hi != 0 ? "%u..%u " : "- ",
                                (unsigned)o->want_lo, (unsigned)o->want_hi);
    size_t start = n;
    for (unsigned g = 0; g < POOL_GAMES_MAX; g++)
        for (unsigned c = 0; c < PROTO_CLASS_COUNT; c++)
            if (o->rating[g][c] != 0 && n < cap)
                n += (size_t)snprintf(out + n, cap - n, "%s%u.%u.%u",
                                      n > start ? "," : "", g, c,
                                      (unsigned)o->rating[g][c]);
    if (n == start && n < cap)
        snprintf(out + n, cap - n, "-");
}

/* Record s[0..n) of offer id into *k: 0, or TB_E_FORMAT. */
static int kept_read(uint64_t id, const char *s, size_t n, Pool_Kept *k)
{
    const char *f[10];
    size_t fn[10], at = 0;
    uint64_t games;
    memset(k, 0, sizeof *k);
    for (int i = 0; i < 10; i++)
        if (field(s, n, &at, &f[i], &fn[i]) != 0)
            return TB_E_FORMAT;
    if (rated_read(f[8], fn[8], f[9], fn[9], &k->o) != 0)
        return TB_E_FORMAT;
    if (at != n || parse_u64(f[0], fn[0], &games) != 0 || games == 0 ||
        games > 0xffff || clock_read(f[1], fn[1], &k->o.lo) != 0 ||
        clock_read(f[2], fn[2], &k->o.hi) != 0 ||
        fn[3] != 2 * LOBBY_KEY_BYTES ||
        proto_unhex(f[3], fn[3], k->o.key, sizeof k->o.key) != 0 ||
        fn[4] != 2 * POOL_ADDR_BYTES ||
        proto_unhex(f[4], fn[4], k->o.addr, sizeof k->o.addr) != 0 ||
        fn[5] != LOBBY_CODE_SYMBOLS || fn[6] != 2 * LOBBY_KEY_BYTES ||
        proto_unhex(f[6], fn[6], k->seat, sizeof k->seat) != 0 ||
        fn[7] > LOBBY_SEEK_OPTIONS_MAX)
        return TB_E_FORMAT;
    memcpy(k->code, f[5], LOBBY_CODE_SYMBOLS);
    memcpy(k->options, f[7], fn[7]);
    if (strcmp(k->options, "-") != 0) /* (the pairing compares them) */
        memcpy(k->o.options, k->options, sizeof k->o.options);
    k->o.id = id;
    k->o.arrival_ms = id; /* (the lobby's order of filing: first come,
                             first served on every node alike) */
    k->o.games = (uint16_t)games;
    return 0;
}

static void pool_publish(Lobby_Redis *st, const char *text)
{
    const char *argv[3] = {"PUBLISH", pool_chan, text};
    (void)lobby__rc_command(st->rc, pool_chan, sizeof pool_chan - 1, NULL,
                            NULL, 3, argv, NULL);
}

static void pool_drop(Lobby_Redis *st, uint64_t id)
{
    char ids[24];
    snprintf(ids, sizeof ids, "%llu", (unsigned long long)id);
    (void)lobby__rc_command1(st->rc, "HDEL", pool_offers, ids);
    (void)lobby__rc_command1(st->rc, "HDEL", pool_leases, ids);
}

static int kept_cmp(const void *a, const void *b)
{
    uint64_t x = ((const Pool_Kept *)a)->o.id, y = ((const Pool_Kept *)b)->o.id;
    return (x > y) - (x < y);
}

/* The lock is ours: every offer of the lobby (rep: HGETALL of the
 * offers; leases: of their leases) into a fresh Pool in the order they
 * were filed, paired by pool_pair_all; the paired and the lapsed leave
 * Redis, the pairs and then the counts go out on the pool's channel. */
typedef struct Pool_Lease {
    uint64_t id, until;
} Pool_Lease;

static void pool_pair(Lobby_Redis *st, const redisReply *offers,
                      const Pool_Lease *leases, size_t nleases)
{
    uint64_t now = wall_now_ms();
    size_t n = offers->elements / 2, k = 0, np = 0;
    Pool_Kept *kept = calloc(n + 1, sizeof *kept);
    Pool_Pair *pairs = calloc(n / 2 + 1, sizeof *pairs);
    uint32_t counts[POOL_GAMES_MAX];
    Pool *p = NULL;
    char msg[160 + LOBBY_SEEK_OPTIONS_MAX];

    if (kept == NULL || pairs == NULL ||
        pool_new(POOL_GAMES_MAX, NULL, &p) != 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        const redisReply *ki = offers->element[2 * i],
                         *vi = offers->element[2 * i + 1];
        uint64_t id, until = 0;
        int leased = 0;
        if (ki->type != REDIS_REPLY_STRING || vi->type != REDIS_REPLY_STRING ||
            parse_u64(ki->str, ki->len, &id) != 0)
            continue;
        for (size_t j = 0; j < nleases; j++)
            if (leases[j].id == id) {
                until = leases[j].until;
                leased = 1;
            }
        /* An offer whose lease this read did not see is being filed (its
         * record and lease are two commands, and the leases were read
         * first): not lapsed, only not yet to pair (a trial lost one
         * honest pair in ten so). */
        if (!leased)
            continue;
        if (until < now || kept_read(id, vi->str, vi->len, &kept[k]) != 0) {
            pool_drop(st, id); /* lapsed: its node is gone */
            continue;
        }
        k++;
    }
    qsort(kept, k, sizeof *kept, kept_cmp);
    for (size_t i = 0; i < k; i++) {
        int rc = pool_put(p, &kept[i].o);
        if (rc == 0)
            continue;
        pool_drop(st, kept[i].o.id); /* over a share: refused */
        snprintf(msg, sizeof msg, "R %llu %d",
                 (unsigned long long)kept[i].o.id,
                 rc == TB_E_LIMIT     ? LOBBY_ERR_SEEKS
                 : rc == TB_E_ADDRESS ? LOBBY_ERR_ADDRESS
                                      : LOBBY_ERR_FULL);
        pool_publish(st, msg);
    }
    if (pool_pair_all(p, pairs, n / 2 + 1, &np) != 0)
        np = 0;
    for (size_t i = 0; i < np; i++) {
        const Pool_Kept *older = NULL, *newer = NULL;
        char c[PROTO_CLOCK_TEXT_MAX], gk[2 * LOBBY_KEY_BYTES + 1];
        for (size_t j = 0; j < k; j++) {
            if (kept[j].o.id == pairs[i].older)
                older = &kept[j];
            if (kept[j].o.id == pairs[i].newer)
                newer = &kept[j];
        }
        if (older == NULL || newer == NULL ||
            clock_text(&pairs[i].clock, c, sizeof c) != 0)
            continue;
        pool_drop(st, older->o.id);
        pool_drop(st, newer->o.id);
        proto_hex(newer->seat, LOBBY_KEY_BYTES, gk);
        /* the older hosts: its code, the newer's seat key */
        snprintf(msg, sizeof msg, "P %llu %llu %u %s %s %s %s",
                 (unsigned long long)older->o.id,
                 (unsigned long long)newer->o.id, pairs[i].game, c,
                 older->code, gk, older->options);
        pool_publish(st, msg);
    }
    pool_counts(p, counts);
    int at = snprintf(msg, sizeof msg, "C");
    for (int g = 0; g < POOL_GAMES_MAX && at > 0 && (size_t)at < sizeof msg;
         g++)
        at += snprintf(msg + at, sizeof msg - (size_t)at, " %u",
                       (unsigned)counts[g]);
    pool_publish(st, msg);
done:
    pool_free(p);
    free(kept);
    free(pairs);
}

/* A pairing between its two answers: the leases read. */
typedef struct Pool_Run_Req {
    Lobby_Redis *st;
    size_t n;
    Pool_Lease leases[];
} Pool_Run_Req;

static void pool_unlock(Lobby_Redis *st)
{
    st->pool_running = 0;
    if (st->up)
        (void)lobby__rc_command1(st->rc, "DEL", pool_lock, NULL);
}

static void pool_offers_done(void *priv, redisReply *rep)
{
    Pool_Run_Req *r = priv;
    Lobby_Redis *st = r->st;
    if (rep != NULL && !st->closing && rep->type == REDIS_REPLY_ARRAY &&
        rep->elements % 2 == 0)
        pool_pair(st, rep, r->leases, r->n);
    free(r);
    if (rep != NULL && !st->closing)
        pool_unlock(st);
    else
        st->pool_running = 0;
}

/* The leases read, kept for the offers' answer. */
static void pool_leases_done(void *priv, redisReply *rep)
{
    Lobby_Redis *st = priv;
    static const char *const argv[2] = {"HGETALL", pool_offers};
    Pool_Run_Req *r;

    if (rep == NULL || st->closing || rep->type != REDIS_REPLY_ARRAY) {
        st->pool_running = 0;
        return;
    }
    r = calloc(1, sizeof *r + (rep->elements / 2 + 1) * sizeof r->leases[0]);
    if (r == NULL) {
        pool_unlock(st);
        return;
    }
    r->st = st;
    for (size_t j = 0; j + 1 < rep->elements; j += 2) {
        const redisReply *k = rep->element[j], *v = rep->element[j + 1];
        if (k->type == REDIS_REPLY_STRING && v->type == REDIS_REPLY_STRING &&
            parse_u64(k->str, k->len, &r->leases[r->n].id) == 0 &&
            parse_u64(v->str, v->len, &r->leases[r->n].until) == 0)
            r->n++;
    }
    if (lobby__rc_command(st->rc, pool_offers, sizeof pool_offers - 1,
                          pool_offers_done, r, 2, (const char **)argv,
                          NULL) != 0) {
        free(r);
        pool_unlock(st);
    }
}

static void pool_locked(void *priv, redisReply *rep)
{
    Lobby_Redis *st = priv;
    static const char *const argv[2] = {"HGETALL", pool_leases};
    if (rep == NULL || st->closing || rep->type != REDIS_REPLY_STATUS) {
        st->pool_running = 0; /* another node pairs: try again later */
        st->pool_due = 1;
        return;
    }
    if (lobby__rc_command(st->rc, pool_leases, sizeof pool_leases - 1,
                          pool_leases_done, st, 2, (const char **)argv,
                          NULL) != 0)
        pool_unlock(st);
}

/* Pair the lobby's pool here, under its lock (SET NX PX): when an offer
 * was filed or left here since, or each POOL_AGAIN_MS while offers wait
 * here. */
static void pool_run(Lobby_Redis *st, uint64_t now)
{
    char token[32];
    const char *argv[6] = {"SET", pool_lock, token, "NX", "PX", POOL_LOCK_MS};
    if (st->pool_running || !st->up)
        return;
    snprintf(token, sizeof token, "%llu", (unsigned long long)now);
    st->pool_running = 1;
    st->pool_due = 0;
    st->pool_at = now;
    if (lobby__rc_command(st->rc, pool_lock, sizeof pool_lock - 1, pool_locked,
                          st, 6, argv, NULL) != 0) {
        st->pool_running = 0;
        st->pool_due = 1;
    }
}

static void pool_renew(void *user, uint64_t id)
{
    Lobby_Redis *st = user;
    char ids[24], until[24];
    const char *argv[4] = {"HSET", pool_leases, ids, until};
    snprintf(ids, sizeof ids, "%llu", (unsigned long long)id);
    snprintf(until, sizeof until, "%llu",
             (unsigned long long)(wall_now_ms() + POOL_LEASE_MS));
    (void)lobby__rc_command(st->rc, pool_leases, sizeof pool_leases - 1, NULL,
                            NULL, 4, argv, NULL);
}

/* The offer's id came (INCR): its record and lease go in, then the pool
 * is paired here. */
static void pool_numbered(void *priv, redisReply *rep)
{
    Req *q = priv;
    Lobby_Redis *st = q->st;
    char ids[24];
    const char *argv[4] = {"HSET", pool_offers, ids, q->text};

    if (rep == NULL || st->closing || rep->type != REDIS_REPLY_INTEGER ||
        rep->integer <= 0) {
        if (rep != NULL && !st->closing && q->m != NULL)
            lobby__refuse(q->m, LOBBY_ERR_FULL);
        req_free(q);
        return;
    }
    if (q->m == NULL) { /* gone before it was filed: nothing to keep */
        req_free(q);
        return;
    }
    snprintf(ids, sizeof ids, "%lld", rep->integer);
    (void)lobby__rc_command(st->rc, pool_offers, sizeof pool_offers - 1, NULL,
                            NULL, 4, argv, NULL);
    pool_renew(st, (uint64_t)rep->integer);
    lobby__pool_filed(q->m, (uint64_t)rep->integer);
    req_free(q);
    pool_run(st, uv_now(st->loop));
}

void lobby__redis_pool(Lobby_Redis *st, Lobby_Member *m, const Pool_Offer *o,
                       const Lobby_Code *inv, const uint8_t *seat_pk,
                       const char *options)
{
    static const char *const argv[2] = {"INCR", pool_ids};
    char lo[PROTO_CLOCK_TEXT_MAX], hi[PROTO_CLOCK_TEXT_MAX],
        pk[2 * LOBBY_KEY_BYTES + 1], ad[2 * POOL_ADDR_BYTES + 1],
        seat[2 * LOBBY_KEY_BYTES + 1], rated[POOL_RATED_MAX + 16];
    Req *q = st->up ? req_new(st, m, REQ_POOL) : NULL;

    if (q == NULL || (q->text = malloc(POOL_RECORD_MAX)) == NULL ||
        clock_text(&o->lo, lo, sizeof lo) != 0 ||
        clock_text(&o->hi, hi, sizeof hi) != 0)
        goto fail;
    proto_hex(o->key, LOBBY_KEY_BYTES, pk);
    proto_hex(o->addr, POOL_ADDR_BYTES, ad);
    proto_hex(seat_pk, LOBBY_KEY_BYTES, seat);
    rated_text(o, rated, sizeof rated);
    snprintf(q->text, POOL_RECORD_MAX, "%u %s %s %s %s %.12s%.4s %s %s %s",
             (unsigned)o->games, lo, hi, pk, ad, inv->secret,
             inv->fingerprint, seat, options[0] != '\0' ? options : "-",
             rated);
    if (lobby__rc_command(st->rc, pool_ids, sizeof pool_ids - 1,
                          pool_numbered, q, 2, (const char **)argv,
                          NULL) != 0)
        goto fail;
    return;
fail:
    if (q != NULL)
        req_free(q);
    lobby__refuse(m, LOBBY_ERR_FULL);
}

void lobby__redis_unpool(Lobby_Redis *st, uint64_t id)
{
    if (!st->up)
        return;
    pool_drop(st, id);
    st->pool_due = 1; /* (the counts change: told at the next turn) */
}

/* "P OLDER NEWER GAME CLOCK CODE GUESTKEY OPTIONS" (a pair: the older
 * hosts, with its code and its options, "-" for none),
 * "R ID CODE" (an offer refused), "C N0 .. N15" (the counts). */
static void pool_message(Lobby_Redis *st, const char *p, size_t n)
{
    const char *f[17];
    size_t fn[17], at = 2, k = 0;
    uint64_t v[3];

    if (n < 2 || p[1] != ' ')
        return;
    while (k < 17 && field(p, n, &at, &f[k], &fn[k]) == 0)
        k++;
    if (p[0] == 'C' && k == POOL_GAMES_MAX) {
        uint32_t counts[POOL_GAMES_MAX];
        for (size_t i = 0; i < k; i++) {
            uint64_t c;
            if (parse_u64(f[i], fn[i], &c) != 0 || c > UINT32_MAX)
                return;
            counts[i] = (uint32_t)c;
        }
        lobby__pool_told(st->rs, counts, uv_now(st->loop));
    } else if (p[0] == 'R' && k == 2 && parse_u64(f[0], fn[0], &v[0]) == 0 &&
               parse_u64(f[1], fn[1], &v[1]) == 0 && v[1] < 256) {
        lobby__pool_refused(st->rs, v[0], (int)v[1]);
    } else if (p[0] == 'P' && k == 7 && parse_u64(f[0], fn[0], &v[0]) == 0 &&
               parse_u64(f[1], fn[1], &v[1]) == 0 &&
               parse_u64(f[2], fn[2], &v[2]) == 0 && v[2] < POOL_GAMES_MAX &&
               fn[4] == LOBBY_CODE_SYMBOLS && fn[5] == 2 * LOBBY_KEY_BYTES &&
               fn[6] <= LOBBY_SEEK_OPTIONS_MAX) {
        Lobby_Paired pd;
        char code[LOBBY_CODE_SYMBOLS + 1];
        memset(&pd, 0, sizeof pd);
        memcpy(code, f[4], LOBBY_CODE_SYMBOLS);
        code[LOBBY_CODE_SYMBOLS] = '\0';
        if (clock_read(f[3], fn[3], &pd.clock) != 0 ||
            lobby_code_parse(code, &pd.invite) != 0 ||
            proto_unhex(f[5], fn[5], pd.guest_pk, sizeof pd.guest_pk) != 0)
            return;
        pd.game = (unsigned)v[2];
        if (!(fn[6] == 1 && f[6][0] == '-'))
            memcpy(pd.options, f[6], fn[6]);
        pd.role = LOBBY_ROLE_HOST;
        lobby__pool_paired(st->rs, v[0], &pd);
        pd.role = LOBBY_ROLE_GUEST;
        lobby__pool_paired(st->rs, v[1], &pd);
    }
}

/* The room of inv (watch lookup wat, made from the source of key maker,
 * NULL: not known) lives keep_ms (ms) more, counting towards the lobby's
 * cap and its maker's share so long. */
static void room_renew(Lobby_Redis *st, const uint8_t *inv, const uint8_t *wat,
                  const uint8_t *maker, uint32_t keep_ms, int hash)
{
    char m[KEY_LEN + 1], f[KEY_LEN + 1], w[KEY_LEN + 1], ttl[24], lhex[HEX_LEN + 1],
        share[2 * LOBBY_SOURCE_KEY + 6];
    const char *argv[5] = {"tb:rooms", lhex, ttl, "0", "0"};
    key_of(inv, 'm', m);
    key_of(inv, 'f', f);
    key_of(wat, 'w', w);
    hex_of(inv, lhex);
    snprintf(ttl, sizeof ttl, "%u", keep_ms);
    if (hash) {
        (void)lobby__rc_command1(st->rc, "PEXPIRE", m, ttl);
        (void)lobby__rc_command1(st->rc, "PEXPIRE", f, ttl);
    }
    (void)lobby__rc_command1(st->rc, "PEXPIRE", w, ttl);
    (void)EVAL(st, cap_lua, 1, 5, argv, NULL, NULL, NULL);
    if (maker != NULL) {
        maker_share_key(maker, share);
        argv[0] = share;
        (void)EVAL(st, cap_lua, 1, 5, argv, NULL, NULL, NULL);
    }
}

/* What keep.lua's answer needs: the room's lookups and maker, to renew
 * its watch index and its counts for the keep in force. */
typedef struct Keep_Req {
    Lobby_Redis *st;
    uint8_t inv[LOBBY_LOOKUP_BYTES], wat[LOBBY_LOOKUP_BYTES];
    uint8_t maker[LOBBY_SOURCE_KEY];
    int has_maker;
} Keep_Req;

static void keep_done(void *priv, redisReply *rep)
{
    Keep_Req *k = priv;
    Lobby_Room *r;
    if (rep != NULL && rep->type == REDIS_REPLY_INTEGER && k->st->up) {
        long long v = rep->integer;
        uint32_t keep = v > 0 && v <= UINT32_MAX ? (uint32_t)v : 0;
        if ((r = lobby__replica_find(k->st->rs, k->inv)) != NULL)
            lobby__replica_keep_set(r, keep);
        if (keep > k->st->lim.empty_room_ms)
            room_renew(k->st, k->inv, k->wat, k->has_maker ? k->maker : NULL,
                       keep, 0);
    }
    free(k);
}

/* The room of inv kept keep_ms (0: renewed for the keep in force), as
 * keep.lua decides: both seats spoke and neither said DONE. */
static void keep_apply(Lobby_Redis *st, const uint8_t *inv,
                       const uint8_t *wat, const uint8_t *maker,
                       uint32_t keep_ms)
{
    char m[KEY_LEN + 1], f[KEY_LEN + 1], ms[16];
    const char *argv[3] = {m, f, ms};
    Keep_Req *k = calloc(1, sizeof *k);
    if (k == NULL)
        return;
    k->st = st;
    memcpy(k->inv, inv, sizeof k->inv);
    memcpy(k->wat, wat, sizeof k->wat);
    if ((k->has_maker = maker != NULL))
        memcpy(k->maker, maker, sizeof k->maker);
    key_of(inv, 'm', m);
    key_of(inv, 'f', f);
    snprintf(ms, sizeof ms, "%u", keep_ms);
    if (EVAL(st, keep_lua, 2, 3, argv, NULL, keep_done, k) != 0)
        free(k);
}

/* A room in use here lives on, however long its players think: for the
 * relay's empty_room_ms, or the longer a seat's KEEP asked while Redis
 * still keeps it (keep.lua: both seats spoke, neither said DONE). */
static void touch(void *user, const uint8_t *inv, const uint8_t *wat,
                  const uint8_t *maker)
{
    Lobby_Redis *st = user;
    const Lobby_Room *r = lobby__replica_find(st->rs, inv);
    room_renew(st, inv, wat, maker, st->lim.empty_room_ms, 1);
    if (r != NULL && lobby__room_keep_ms(r) > st->lim.empty_room_ms)
        keep_apply(st, inv, wat, maker, 0);
}

void lobby__redis_keep(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES],
                       const uint8_t wat[LOBBY_LOOKUP_BYTES],
                       const uint8_t *maker, uint32_t keep_ms)
{
    if (st->up && keep_ms > st->lim.empty_room_ms)
        keep_apply(st, inv, wat, maker, keep_ms);
}

/* A cluster's masters other than the seed, as the map of rc (about to
 * go) names them; kept while no new map is had. */
static void remember_masters(Lobby_Redis *st)
{
    int n, port;
    if (st->rc == NULL || !lobby__rc_is_cluster(st->rc))
        return;
    n = lobby__rc_node_count(st->rc);
    st->nknown = 0;
    for (int i = 0; i < n && st->nknown < KNOWN_MAX; i++) {
        const char *h = lobby__rc_node_addr(st->rc, i, &port);
        Redis_Addr *a = &st->known[st->nknown];
        if (h == NULL || strlen(h) >= sizeof a->host ||
            (port == st->port && strcmp(h, st->host) == 0))
            continue;
        memcpy(a->host, h, strlen(h) + 1);
        a->port = port;
        st->nknown++;
    }
}

/* The address of the next try: the seed, then each remembered master. */
static void next_address(Lobby_Redis *st)
{
    unsigned i = st->tries++ % (unsigned)(st->nknown + 1);
    if (i == 0) {
        memcpy(st->at.host, st->host, sizeof st->at.host);
        st->at.port = st->port;
    } else {
        st->at = st->known[i - 1];
    }
}

/* Redis lost: once every connection and room copy here is gone, try it
 * again each RETRY_MS; members come back by reconnecting. The loop
 * blocks up to PROBE_MS per attempt (a refused connect on loopback
 * returns at once; a stopped Redis accepts and does not answer). */
/* used_memory and maxmemory from INFO memory's answer: near_full when
 * maxmemory is set and used_memory has passed NEAR_FULL_PERCENT of it. */
#define NEAR_FULL_PERCENT 80
#define MEMORY_LOOK_MS 1000

static unsigned long long info_field(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    return p != NULL ? strtoull(p + strlen(name), NULL, 10) : 0;
}

static void memory_done(void *priv, redisReply *rep)
{
    Lobby_Redis *st = priv;
    if (rep == NULL || rep->type != REDIS_REPLY_STRING)
        return;
    unsigned long long used = info_field(rep->str, "\nused_memory:"),
                       max = info_field(rep->str, "\nmaxmemory:");
    int near = max > 0 && used >= max / 100 * NEAR_FULL_PERCENT;
    if (near && !st->near_full)
        fprintf(stderr,
                "lobby: Redis uses %llu of its %llu bytes (maxmemory): no new "
                "rooms until it has room again; running games go on\n",
                used, max);
    else if (!near && st->near_full)
        fprintf(stderr, "lobby: Redis has room again: new rooms are made\n");
    st->near_full = near;
}

void lobby__redis_stats(const Lobby_Redis *st, Lobby_Stats *out)
{
    out->redis = 1;
    out->redis_rtt_last_us = st->health.rtt_last_us;
    out->redis_rtt_sum_us = st->health.rtt_sum_us;
    out->redis_rtt_count = st->health.rtt_count;
}

void lobby__redis_tick(Lobby_Redis *st, uint64_t now)
{
    Lobby_Stats s;
    uint64_t every = st->lim.empty_room_ms / 3 < TOUCH_MS
                         ? st->lim.empty_room_ms / 3
                         : TOUCH_MS;

    /* Redis hangs: lost as if it had closed its connections. */
    if (st->up && lobby__health_tick(&st->health, st->rc, now)) {
        store_lost(st, 1);
        return;
    }
    if (st->up && now - st->last_touch >= every) {
        st->last_touch = now;
        lobby__replica_each(st->rs, touch, st);
    }
    if (st->up && now - st->last_renew >= SEEK_RENEW_MS) {
        st->last_renew = now;
        lobby__seeks_each(st->rs, renew, st);
        lobby__pool_each(st->rs, pool_renew, st);
    }
    if (st->up && (st->pool_due || (lobby__pool_waiting(st->rs) &&
                                    now - st->pool_at >= POOL_AGAIN_MS)))
        pool_run(st, now); /* (lapsed offers go, the counts are told) */
    if (st->up && now - st->last_mem >= MEMORY_LOOK_MS) {
        /* (on a cluster: the master that counts the rooms) */
        static const char *const argv[2] = {"INFO", "memory"};
        st->last_mem = now;
        (void)lobby__rc_command(st->rc, "tb:rooms", 8, memory_done, st, 2,
                                (const char **)argv, NULL);
    }
    /* A clean disconnect waits for the answers awaited: past the
     * deadline, the connections still going hang and are freed. */
    if (!st->up && !st->closing && open_count(st) != 0 &&
        now - st->lost_at >= st->lim.redis_deadline_ms)
        abort_conns(st);
    if (st->up || st->closing || open_count(st) != 0 ||
        now - st->last_try < RETRY_MS)
        return;
    lobby_stats(st->lb, &s);
    if (s.rooms != 0)
        return;
    st->last_try = now;
    /* hiredis's libuv adapter never reports a refused connect (it drops
     * poll errors), so the map is asked for with a blocking connect
     * first: nobody is connected here meanwhile. */
    remember_masters(st);
    lobby__rc_free(st->rc);
    st->rc = NULL;
    next_address(st);
    if (lobby__rc_new(st->loop, st->at.host, st->at.port, st->db, &st->auth,
                      PROBE_MS, conn_gone, st, &st->rc) != 0)
        return;
    if (open_sub(st) != 0) {
        lobby__rc_disconnect(st->rc); /* try again later */
        return;
    }
    if (strcmp(st->at.host, st->host) != 0 || st->at.port != st->port)
        fprintf(stderr, "lobby: Redis at %s:%d is back (through %s:%d)\n",
                st->host, st->port, st->at.host, st->at.port);
    else
        fprintf(stderr, "lobby: Redis at %s:%d is back\n", st->host,
                st->port);
    st->live = 1;
    st->up = 1;
    lobby__health_reset(&st->health, now);
}

/* ---- connections ---- */

/* A failed connect gets no disconnect callback from hiredis. */
static void sub_connect(const redisAsyncContext *ac, int status)
{
    Lobby_Redis *st = ac->data;
    if (status != REDIS_OK && ac == st->sub) {
        st->sub = NULL;
        conn_gone(st);
    }
}

static void sub_disconnect(const redisAsyncContext *ac, int status)
{
    Lobby_Redis *st = ac->data;
    (void)status;
    if (ac == st->sub) {
        st->sub = NULL;
        conn_gone(st);
    }
}

/* The channels' connection, to the address given (in a cluster every
 * master hears every PUBLISH), subscribed first to the node's own
 * channel (the health check). */
static int open_sub(Lobby_Redis *st)
{
    int rc = lobby__rc_attach(st->loop, st->at.host, st->at.port, &st->auth,
                              st, sub_connect, sub_disconnect, &st->sub);
    if (rc == 0 &&
        (redisAsyncCommand(st->sub, sub_reply, st, "SUBSCRIBE %b",
                           st->health.own,
                           (size_t)LOBBY_HEALTH_OWN_LEN) != REDIS_OK ||
         redisAsyncCommand(st->sub, sub_reply, st, "SUBSCRIBE %s",
                           pool_chan) != REDIS_OK)) {
        redisAsyncContext *ac = st->sub;
        st->sub = NULL; /* not connected yet: no callback comes */
        redisAsyncFree(ac);
        rc = TB_E_IO;
    }
    return rc;
}

int lobby__redis_new(uv_loop_t *loop, Lobby *lb, const Lobby_Limits *lim,
                     const char *url, Lobby_Redis **out)
{
    Lobby_Redis *st;
    int rc;

    *out = NULL;
    st = calloc(1, sizeof *st);
    if (st == NULL)
        return TB_E_NOMEM;
    st->loop = loop;
    st->lb = lb;
    st->rs = lobby__rooms(lb);
    st->lim = *lim;
    rc = parse_url(st, url);
    if (rc == 0) {
        memcpy(st->at.host, st->host, sizeof st->at.host);
        st->at.port = st->port;
        rc = lobby__health_init(&st->health, lim->redis_deadline_ms);
    }
    if (rc == 0)
        rc = lobby__rc_new(loop, st->host, st->port, st->db, &st->auth, 2000,
                           conn_gone, st, &st->rc);
    if (rc == 0)
        rc = open_sub(st);
    if (rc != 0) {
        /* Free (not disconnect) so no callback comes after st is gone. */
        lobby__rc_free(st->rc);
        free(st);
        return rc;
    }
    st->up = 1;
    st->live = 1;
    /* The loop's time is the one cached before the blocking checks
     * above: the first answer is awaited from now. */
    uv_update_time(loop);
    lobby__health_reset(&st->health, uv_now(loop));
    *out = st;
    return 0;
}

void lobby__redis_close(Lobby_Redis *st, void (*done)(void *), void *user)
{
    st->closing = 1;
    st->up = 0;
    st->done = done;
    st->done_user = user;
    /* Disconnect may call conn_gone (and done) at once. */
    if (st->sub != NULL)
        redisAsyncDisconnect(st->sub);
    if (st->rc != NULL)
        lobby__rc_disconnect(st->rc);
    /* A clean disconnect waits for the answers awaited: bounded, as
     * the health check bounds them. */
    if (st->done != NULL && open_count(st) != 0 &&
        uv_timer_init(st->loop, &st->close_timer) == 0) {
        st->close_timer.data = st;
        st->timer_on = 1;
        uv_timer_start(&st->close_timer, close_due, st->lim.redis_deadline_ms,
                       0);
    }
    finish_close(st);
}

void lobby__redis_free(Lobby_Redis *st)
{
    if (st == NULL)
        return;
    while (st->reqs != NULL)
        req_free(st->reqs);
    cache_clear(&st->seeks_cache);
    lobby__rc_free(st->rc);
    free(st);
}
