/*
 * redis.c: the lobby's rooms kept in Redis (tabula lobby --redis), so
 * that several lobby processes ("nodes") on one Redis form one lobby.
 * Redis holds each room's seat claims in a hash and its frames in a
 * stream whose entry IDs are the room's sequence numbers; admission
 * (CREATE, JOIN, WATCH) and numbering a frame are each one Lua script, so
 * two nodes never give one seat or one number twice. Every room's keys
 * share the hash tag of its invite lookup. A script that numbers a frame
 * also publishes it on the room's channel; each node subscribes to the
 * rooms its own members are in and feeds a copy of the room (server.c's
 * ordinary Lobby_Room) from it, fetching from the stream whatever the
 * channel skipped (before the subscription held, or after a gap). Both
 * Redis connections are hiredis's asynchronous ones on the lobby's libuv
 * loop (hiredis/adapters/libuv.h). docs/lobby-nodes.md describes keys,
 * lifetimes and what each failure loses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <hiredis/adapters/libuv.h>

#include "lobby_internal.h"
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

/* Admission. ARGV: kind (1 create, 2 join, 3 watch), lookup hex, watch
 * hex (create), host key, seat secret, next seq (create), after (frames
 * wanted after it), ttl ms, frames kept, the source address's key (hex),
 * rooms in all, rooms per address. Returns {-code} (a LOBBY_ERR_*) or
 * {role, invite hex, host key, watch hex, next, epoch, frames}. The
 * sorted sets tb:rooms and tb:a:ADDRESS count rooms (scored by when they
 * expire) for the lobby-wide and per-address caps. */
static const char hello_lua[] =
    "local function mk(i) return 'tb:{'..i..'}:m' end\n"
    "local function fk(i) return 'tb:{'..i..'}:f' end\n"
    "local function wk(i) return 'tb:{'..i..'}:w' end\n"
    "local kind, L = ARGV[1], ARGV[2]\n"
    "local t = redis.call('TIME')\n"
    "local ms = t[1] * 1000 + math.floor(t[2] / 1000)\n"
    "local I, role = L, 0\n"
    "if kind == '1' then\n"
    "  local W = ARGV[3]\n"
    "  if redis.call('EXISTS', mk(L)) == 1 then\n"
    "    local v = redis.call('HMGET', mk(L), 's0', 'pk', 'w')\n"
    "    if v[1] ~= ARGV[5] or v[2] ~= ARGV[4] or v[3] ~= W then\n"
    "      return {-3} end\n"
    "  else\n"
    "    if redis.call('EXISTS', wk(L), mk(W), wk(W)) > 0 then\n"
    "      return {-3} end\n"
    "    local ak = 'tb:a:'..ARGV[10]\n"
    "    redis.call('ZREMRANGEBYSCORE', 'tb:rooms', '-inf', ms)\n"
    "    redis.call('ZREMRANGEBYSCORE', ak, '-inf', ms)\n"
    "    if redis.call('ZCARD', ak) >= tonumber(ARGV[12]) then\n"
    "      return {-11} end\n"
    "    if redis.call('ZCARD', 'tb:rooms') >= tonumber(ARGV[11]) then\n"
    "      return {-5} end\n"
    "    redis.call('ZADD', ak, ms + ARGV[8], L)\n"
    "    redis.call('PEXPIRE', ak, ARGV[8])\n"
    "    redis.call('HSET', mk(L), 'pk', ARGV[4], 'w', W, 's0', ARGV[5],\n"
    "               'next', ARGV[6], 'e0', 0, 'e1', 0)\n"
    "    redis.call('SET', wk(W), L)\n"
    "  end\n"
    "elseif kind == '2' then\n"
    "  if redis.call('EXISTS', mk(L)) == 0 then\n"
    "    if redis.call('EXISTS', wk(L)) == 1 then return {-8} end\n"
    "    return {-3}\n"
    "  end\n"
    "  local v = redis.call('HMGET', mk(L), 's0', 's1')\n"
    "  if v[1] == ARGV[5] then role = 0\n"
    "  elseif v[2] == ARGV[5] then role = 1\n"
    "  elseif v[2] then return {-6}\n"
    "  else redis.call('HSET', mk(L), 's1', ARGV[5]); role = 1 end\n"
    "else\n"
    "  role = 2\n"
    "  if redis.call('EXISTS', mk(L)) == 0 then\n"
    "    I = redis.call('GET', wk(L))\n"
    "    if not I then return {-3} end\n"
    "  end\n"
    "end\n"
    "local e = 0\n"
    "if role < 2 then e = redis.call('HINCRBY', mk(I), 'e'..role, 1) end\n"
    "local v = redis.call('HMGET', mk(I), 'pk', 'w', 'next')\n"
    "if not v[1] then return {-3} end\n"
    "local ttl = ARGV[8]\n"
    "redis.call('PEXPIRE', mk(I), ttl)\n"
    "redis.call('PEXPIRE', fk(I), ttl)\n"
    "redis.call('PEXPIRE', wk(v[2]), ttl)\n"
    "redis.call('ZADD', 'tb:rooms', ms + ttl, I)\n"
    "local fr = redis.call('XRANGE', fk(I), '0-'..ARGV[7], '+',\n"
    "                      'COUNT', ARGV[9])\n"
    "return {role, I, v[1], v[2], v[3], e, fr}\n";

/* A frame. KEYS: hash, stream. ARGV: seat, epoch, payload, frames kept,
 * ttl ms, channel, payload bytes kept. Returns its number, -3 (no such
 * room) or -10 (the seat was claimed again since: this connection is
 * stale). The oldest frames go while the room keeps more than its frames
 * or bytes (field b of the hash counts the bytes kept). */
static const char data_lua[] =
    "local e = redis.call('HGET', KEYS[1], 'e'..ARGV[1])\n"
    "if not e then return -3 end\n"
    "if e ~= ARGV[2] then return -10 end\n"
    "redis.call('HSET', KEYS[1], 'k'..ARGV[1], 1)\n"
    "local s = string.format('%d', redis.call('HINCRBY', KEYS[1], 'next', "
    "1) - 1)\n"
    "redis.call('XADD', KEYS[2], '0-'..s, 's', ARGV[1], 'd', ARGV[3])\n"
    "local b = redis.call('HINCRBY', KEYS[1], 'b', #ARGV[3])\n"
    "while redis.call('XLEN', KEYS[2]) > tonumber(ARGV[4]) or\n"
    "      b > tonumber(ARGV[7]) do\n"
    "  local o = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)\n"
    "  if #o == 0 then break end\n"
    "  local f, n = o[1][2], 0\n"
    "  for i = 1, #f, 2 do if f[i] == 'd' then n = #f[i + 1] end end\n"
    "  redis.call('XDEL', KEYS[2], o[1][1])\n"
    "  b = redis.call('HINCRBY', KEYS[1], 'b', -n)\n"
    "end\n"
    "redis.call('PUBLISH', ARGV[6], s..' '..ARGV[1]..' '..ARGV[3])\n"
    "redis.call('PEXPIRE', KEYS[1], ARGV[5])\n"
    "redis.call('PEXPIRE', KEYS[2], ARGV[5])\n"
    "return tonumber(s)\n";

/* A guest leaving before it sent anything gives the seat back (as in
 * server.c's member_leave), unless claimed again since. KEYS: hash.
 * ARGV: epoch. */
static const char leave_lua[] =
    "if redis.call('HGET', KEYS[1], 'e1') == ARGV[1] and\n"
    "   not redis.call('HGET', KEYS[1], 'k1') then\n"
    "  redis.call('HDEL', KEYS[1], 's1')\n"
    "end\n"
    "return 0\n";

/* Sequence numbers go through Lua's doubles: exact below 2^53. */
#define REDIS_SEQ_MAX ((uint64_t)1 << 53)

enum { REQ_HELLO, REQ_DATA, REQ_FETCH };

typedef struct Req {
    Lobby_Redis *st;
    Lobby_Member *m; /* NULL once the member is gone */
    int kind;
    uint64_t from; /* hello: the member's from seq */
    uint8_t inv[LOBBY_LOOKUP_BYTES]; /* fetch: the room */
    struct Req *prev, *next;
} Req;

struct Lobby_Redis {
    uv_loop_t *loop;
    Lobby *lb;
    Lobby_Limits lim;
    char host[REDIS_HOST_MAX];
    int port, db;
    redisAsyncContext *cmd, *sub;
    int up;      /* both connections usable */
    int live;    /* the command connection is connected */
    int closing;
    int open;    /* connections not yet disconnected */
    Req *reqs;   /* answers awaited */
    uint64_t last_try; /* loop time of the last attempt to reconnect */
    uint64_t last_touch;
    void (*done)(void *);
    void *done_user;
};

static void hex_of(const uint8_t *b, char out[HEX_LEN + 1])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < LOBBY_LOOKUP_BYTES; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[HEX_LEN] = '\0';
}

static int unhex(const char *s, size_t n, uint8_t out[LOBBY_LOOKUP_BYTES])
{
    if (n != HEX_LEN)
        return TB_E_FORMAT;
    for (size_t i = 0; i < n; i++) {
        int v = s[i] >= '0' && s[i] <= '9'   ? s[i] - '0'
                : s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
                                             : -1;
        if (v < 0)
            return TB_E_FORMAT;
        if (i % 2 == 0)
            out[i / 2] = (uint8_t)(v << 4);
        else
            out[i / 2] |= (uint8_t)v;
    }
    return 0;
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

/* "redis://HOST:PORT[/DB]" */
static int parse_url(Lobby_Redis *st, const char *url)
{
    static const char scheme[] = "redis://";
    const char *h, *colon, *slash;
    uint64_t v;

    if (strncmp(url, scheme, sizeof scheme - 1) != 0)
        return TB_E_ARG;
    h = url + sizeof scheme - 1;
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
    free(q);
}

/* Redis went away (or answered nonsense): every member here is told to
 * go elsewhere by its connection closing, and new ones are refused. */
static void store_lost(Lobby_Redis *st)
{
    if (!st->up)
        return;
    st->up = 0;
    if (st->live)
        fprintf(stderr, "lobby: lost Redis at %s:%d; closing every "
                        "connection until it is back\n",
                st->host, st->port);
    st->live = 0;
    /* hiredis frees the context that failed itself; the other goes. */
    if (st->cmd != NULL)
        redisAsyncDisconnect(st->cmd);
    if (st->sub != NULL)
        redisAsyncDisconnect(st->sub);
    lobby__drop_members(st->lb);
}

/* ac failed or went: hiredis frees it after this callback. */
static void context_gone(Lobby_Redis *st, const redisAsyncContext *ac)
{
    if (ac == st->cmd)
        st->cmd = NULL;
    else if (ac == st->sub)
        st->sub = NULL;
    else
        return;
    st->open--;
    if (!st->closing)
        store_lost(st);
    if (st->closing && st->open == 0 && st->done != NULL)
        st->done(st->done_user);
}

/* ---- frames from Redis ---- */

static void fetch(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES]);

/* A stream entry [ID, [field, value, ...]] into the copy r. */
static int take_entry(Lobby_Redis *st, Lobby_Room *r, const redisReply *e)
{
    const redisReply *f;
    const char *id;
    uint64_t seq, seat = 2;
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
        if (k->str[0] == 'd') {
            d = v->str;
            dn = v->len;
        }
    }
    if (seat > 1 || d == NULL || dn == 0 || dn > st->lim.max_payload)
        return TB_E_FORMAT;
    return lobby__replica_frame(st->lb, r, seq, (int)seat, (const uint8_t *)d,
                                dn, 1);
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

static void fetch_done(redisAsyncContext *ac, void *reply, void *priv)
{
    Req *q = priv;
    Lobby_Redis *st = q->st;
    const redisReply *rep = reply;
    Lobby_Room *r;

    (void)ac;
    if (rep != NULL && !st->closing) {
        r = lobby__replica_find(st->lb, q->inv);
        if (r != NULL)
            (void)take_entries(st, r, rep); /* malformed: the rest waits */
    }
    req_free(q);
}

/* Ask the room's stream for every frame after the copy's last. */
static void fetch(Lobby_Redis *st, const uint8_t inv[LOBBY_LOOKUP_BYTES])
{
    char key[KEY_LEN + 1], start[32], count[16];
    Lobby_Room *r = lobby__replica_find(st->lb, inv);
    Req *q;

    if (r == NULL || !st->up)
        return;
    q = req_new(st, NULL, REQ_FETCH);
    if (q == NULL)
        return;
    memcpy(q->inv, inv, LOBBY_LOOKUP_BYTES);
    key_of(inv, 'f', key);
    snprintf(start, sizeof start, "0-%llu",
             (unsigned long long)lobby__replica_next(r));
    snprintf(count, sizeof count, "%u", st->lim.transcript_frames);
    if (redisAsyncCommand(st->cmd, fetch_done, q, "XRANGE %s %s + COUNT %s",
                          key, start, count) != REDIS_OK)
        req_free(q);
}

/* A message on a room's channel: "SEQ SEAT PAYLOAD". */
static void on_message(Lobby_Redis *st, const redisReply *chan,
                       const redisReply *msg)
{
    uint8_t inv[LOBBY_LOOKUP_BYTES];
    const char *p = msg->str, *sp1, *sp2;
    size_t n = msg->len;
    uint64_t seq, seat;
    Lobby_Room *r;
    int rc;

    if (chan->len != KEY_LEN || unhex(chan->str + 4, HEX_LEN, inv) != 0)
        return;
    r = lobby__replica_find(st->lb, inv);
    if (r == NULL)
        return;
    sp1 = memchr(p, ' ', n);
    sp2 = sp1 ? memchr(sp1 + 1, ' ', n - (size_t)(sp1 + 1 - p)) : NULL;
    if (sp2 == NULL || parse_u64(p, (size_t)(sp1 - p), &seq) != 0 ||
        parse_u64(sp1 + 1, (size_t)(sp2 - sp1 - 1), &seat) != 0 || seat > 1)
        return;
    n -= (size_t)(sp2 + 1 - p);
    if (n == 0 || n > st->lim.max_payload)
        return;
    rc = lobby__replica_frame(st->lb, r, seq, (int)seat,
                              (const uint8_t *)sp2 + 1, n, 0);
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
static void hello_admit(Lobby_Redis *st, Req *q, const redisReply *rep)
{
    uint8_t inv[LOBBY_LOOKUP_BYTES], wat[LOBBY_LOOKUP_BYTES];
    uint64_t role, next, epoch;
    Lobby_Room *r;
    int rc;

    if (rep->type != REDIS_REPLY_ARRAY || rep->elements < 1 ||
        rep->element[0]->type != REDIS_REPLY_INTEGER) {
        lobby__refuse(q->m, LOBBY_ERR_FULL);
        return;
    }
    if (rep->element[0]->integer < 0) {
        long long code = -rep->element[0]->integer;
        lobby__refuse(q->m, code < 256 ? (int)code : LOBBY_ERR_FULL);
        return;
    }
    if (rep->elements != 7 || reply_u64(rep->element[0], &role) != 0 ||
        role > 2 || reply_hex(rep->element[1], inv) != 0 ||
        rep->element[2]->type != REDIS_REPLY_STRING ||
        rep->element[2]->len != LOBBY_KEY_BYTES ||
        reply_hex(rep->element[3], wat) != 0 ||
        reply_u64(rep->element[4], &next) != 0 || next == 0 ||
        reply_u64(rep->element[5], &epoch) != 0) {
        lobby__refuse(q->m, LOBBY_ERR_FULL);
        return;
    }
    r = lobby__replica(st->lb, inv, wat,
                       (const uint8_t *)rep->element[2]->str, q->m);
    if (r == NULL) {
        lobby__refuse(q->m, LOBBY_ERR_FULL);
        return;
    }
    rc = take_entries(st, r, rep->element[6]);
    if (rc != 0) {
        lobby__refuse(q->m, LOBBY_ERR_FULL);
        return;
    }
    lobby__replica_seen(r, next);
    lobby__admit(q->m, r, (int)role, q->from, epoch);
}

static void hello_done(redisAsyncContext *ac, void *reply, void *priv)
{
    Req *q = priv;
    (void)ac;
    if (q->m != NULL && reply != NULL && !q->st->closing)
        hello_admit(q->st, q, reply);
    req_free(q);
}

void lobby__redis_hello(Lobby_Redis *st, Lobby_Member *m, const uint8_t *p)
{
    char lhex[HEX_LEN + 1], whex[HEX_LEN + 1] = "", ttl[24], after[32],
        next[32], count[16], src[2 * LOBBY_SOURCE_KEY + 1], rooms[16],
        per[16];
    const char *argv[15];
    size_t argl[15];
    const uint8_t *sk;
    const uint8_t *pk = NULL, *secret = NULL, *rest;
    uint64_t from;
    Lobby_Room *r;
    int kind;
    Req *q;

    if (!st->up) {
        lobby__drop_members(st->lb);
        return;
    }
    hex_of(p + 2, lhex);
    rest = p + 2 + LOBBY_LOOKUP_BYTES;
    if (p[0] == LOBBY_MSG_CREATE) {
        hex_of(rest, whex);
        pk = rest + LOBBY_LOOKUP_BYTES;
        secret = pk + LOBBY_KEY_BYTES;
        rest = secret + LOBBY_SEAT_SECRET_BYTES;
    } else if (p[0] == LOBBY_MSG_JOIN) {
        secret = rest;
        rest = secret + LOBBY_SEAT_SECRET_BYTES;
    }
    from = lobby__get64(rest);
    if (from >= REDIS_SEQ_MAX) {
        lobby__refuse(m, LOBBY_ERR_PROTOCOL);
        return;
    }
    /* Frames wanted: all the stream keeps unless a copy is here already. */
    r = lobby__replica_find(st->lb, p + 2);
    snprintf(after, sizeof after, "%llu",
             (unsigned long long)(r ? lobby__replica_next(r) : 0));
    snprintf(next, sizeof next, "%llu", (unsigned long long)from + 1);
    snprintf(ttl, sizeof ttl, "%u", st->lim.empty_room_ms);
    snprintf(count, sizeof count, "%u", st->lim.transcript_frames);
    kind = p[0] == LOBBY_MSG_CREATE ? 1 : p[0] == LOBBY_MSG_JOIN ? 2 : 3;
    q = req_new(st, m, REQ_HELLO);
    if (q == NULL) {
        lobby__refuse(m, LOBBY_ERR_FULL);
        return;
    }
    q->from = from;
    argv[0] = "EVAL";
    argv[1] = hello_lua;
    argv[2] = "0";
    argv[3] = kind == 1 ? "1" : kind == 2 ? "2" : "3";
    argv[4] = lhex;
    argv[5] = whex;
    argv[6] = pk ? (const char *)pk : "";
    argv[7] = secret ? (const char *)secret : "";
    argv[8] = next;
    argv[9] = after;
    argv[10] = ttl;
    argv[11] = count;
    sk = lobby__member_source(m);
    for (int i = 0; i < LOBBY_SOURCE_KEY; i++)
        snprintf(src + 2 * i, 3, "%02x", sk[i]);
    snprintf(rooms, sizeof rooms, "%u", st->lim.max_rooms);
    snprintf(per, sizeof per, "%u", st->lim.source_rooms);
    argv[12] = src;
    argv[13] = rooms;
    argv[14] = per;
    for (int i = 0; i < 15; i++)
        argl[i] = strlen(argv[i]);
    argl[1] = sizeof hello_lua - 1;
    argl[6] = pk ? LOBBY_KEY_BYTES : 0;
    argl[7] = secret ? LOBBY_SEAT_SECRET_BYTES : 0;
    if (redisAsyncCommandArgv(st->cmd, hello_done, q, 15, argv, argl) !=
        REDIS_OK) {
        req_free(q);
        lobby__refuse(m, LOBBY_ERR_FULL);
    }
}

/* ---- frames from members ---- */

static void data_done(redisAsyncContext *ac, void *reply, void *priv)
{
    Req *q = priv;
    const redisReply *rep = reply;
    (void)ac;
    if (q->m != NULL && rep != NULL && !q->st->closing) {
        if (rep->type == REDIS_REPLY_INTEGER && rep->integer > 0)
            lobby__acked(q->m, (uint64_t)rep->integer);
        else if (rep->type == REDIS_REPLY_INTEGER && rep->integer == -10)
            lobby__refuse(q->m, LOBBY_ERR_REPLACED);
        else
            lobby__refuse(q->m, LOBBY_ERR_FULL);
    }
    req_free(q);
}

void lobby__redis_data(Lobby_Redis *st, Lobby_Member *m,
                       const uint8_t inv[LOBBY_LOOKUP_BYTES], int seat,
                       uint64_t epoch, const uint8_t *data, size_t n)
{
    char hkey[KEY_LEN + 1], fkey[KEY_LEN + 1], chan[KEY_LEN + 1], ep[24],
        ttl[24], count[16];
    const char *argv[12];
    size_t argl[12];
    char bytes[24];
    Req *q;

    if (!st->up) {
        lobby__drop_members(st->lb);
        return;
    }
    q = req_new(st, m, REQ_DATA);
    if (q == NULL) {
        lobby__refuse(m, LOBBY_ERR_FULL);
        return;
    }
    key_of(inv, 'm', hkey);
    key_of(inv, 'f', fkey);
    key_of(inv, 'c', chan);
    snprintf(ep, sizeof ep, "%llu", (unsigned long long)epoch);
    snprintf(ttl, sizeof ttl, "%u", st->lim.empty_room_ms);
    snprintf(count, sizeof count, "%u", st->lim.transcript_frames);
    argv[0] = "EVAL";
    argv[1] = data_lua;
    argv[2] = "2";
    argv[3] = hkey;
    argv[4] = fkey;
    argv[5] = seat ? "1" : "0";
    argv[6] = ep;
    argv[7] = (const char *)data;
    argv[8] = count;
    argv[9] = ttl;
    argv[10] = chan;
    snprintf(bytes, sizeof bytes, "%zu", st->lim.transcript_bytes);
    argv[11] = bytes;
    for (int i = 0; i < 12; i++)
        argl[i] = i == 7 ? n : strlen(argv[i]);
    if (redisAsyncCommandArgv(st->cmd, data_done, q, 12, argv, argl) !=
        REDIS_OK) {
        req_free(q);
        lobby__refuse(m, LOBBY_ERR_FULL);
    }
}

void lobby__redis_leave(Lobby_Redis *st,
                        const uint8_t inv[LOBBY_LOOKUP_BYTES], uint64_t epoch)
{
    char hkey[KEY_LEN + 1], ep[24];
    if (!st->up)
        return;
    key_of(inv, 'm', hkey);
    snprintf(ep, sizeof ep, "%llu", (unsigned long long)epoch);
    redisAsyncCommand(st->cmd, NULL, NULL, "EVAL %s 1 %s %s", leave_lua, hkey,
                      ep);
}

void lobby__redis_forget(Lobby_Redis *st, Lobby_Member *m)
{
    for (Req *q = st->reqs; q != NULL; q = q->next)
        if (q->m == m)
            q->m = NULL;
}

static redisAsyncContext *open_async(Lobby_Redis *st);
static int probe(const Lobby_Redis *st, int ms);

/* A room in use here lives on, however long its players think. */
static void touch(void *user, const uint8_t *inv, const uint8_t *wat)
{
    Lobby_Redis *st = user;
    char m[KEY_LEN + 1], f[KEY_LEN + 1], w[KEY_LEN + 1], ttl[24];
    key_of(inv, 'm', m);
    key_of(inv, 'f', f);
    key_of(wat, 'w', w);
    snprintf(ttl, sizeof ttl, "%u", st->lim.empty_room_ms);
    redisAsyncCommand(st->cmd, NULL, NULL, "PEXPIRE %s %s", m, ttl);
    redisAsyncCommand(st->cmd, NULL, NULL, "PEXPIRE %s %s", f, ttl);
    redisAsyncCommand(st->cmd, NULL, NULL, "PEXPIRE %s %s", w, ttl);
}

/* Redis lost: once every connection and room copy here is gone, try it
 * again each RETRY_MS; members come back by reconnecting. The loop
 * blocks up to PROBE_MS per attempt (a refused connect on loopback
 * returns at once). */
void lobby__redis_tick(Lobby_Redis *st, uint64_t now)
{
    Lobby_Stats s;
    uint64_t every = st->lim.empty_room_ms / 3 < TOUCH_MS
                         ? st->lim.empty_room_ms / 3
                         : TOUCH_MS;

    if (st->up && now - st->last_touch >= every) {
        st->last_touch = now;
        lobby__replica_each(st->lb, touch, st);
    }
    if (st->up || st->closing || st->open != 0 ||
        now - st->last_try < RETRY_MS)
        return;
    lobby_stats(st->lb, &s);
    if (s.rooms != 0)
        return;
    st->last_try = now;
    /* hiredis's libuv adapter never reports a refused connect (it drops
     * poll errors), so ask first, blocking briefly: nobody is connected
     * here meanwhile. */
    if (probe(st, PROBE_MS) != 0)
        return;
    st->cmd = open_async(st);
    st->sub = open_async(st);
    if (st->cmd == NULL || st->sub == NULL) {
        /* Try again later; a context made is disconnected. */
        if (st->cmd != NULL)
            redisAsyncDisconnect(st->cmd);
        if (st->sub != NULL)
            redisAsyncDisconnect(st->sub);
        return;
    }
    if (st->db != 0)
        redisAsyncCommand(st->cmd, NULL, NULL, "SELECT %d", st->db);
    st->up = 1;
}

/* ---- connections ---- */

/* A failed connect gets no disconnect callback from hiredis. */
static void on_connect(const redisAsyncContext *ac, int status)
{
    Lobby_Redis *st = ac->data;
    if (status != REDIS_OK) {
        context_gone(st, ac);
    } else if (!st->live && ac == st->cmd) {
        if (st->last_try != 0)
            fprintf(stderr, "lobby: Redis at %s:%d is back\n", st->host,
                    st->port);
        st->live = 1;
    }
}

static void on_disconnect(const redisAsyncContext *ac, int status)
{
    (void)status;
    context_gone(ac->data, ac);
}

static redisAsyncContext *open_async(Lobby_Redis *st)
{
    redisAsyncContext *ac = redisAsyncConnect(st->host, st->port);
    if (ac == NULL)
        return NULL;
    if (ac->err != 0 || redisLibuvAttach(ac, st->loop) != REDIS_OK) {
        redisAsyncFree(ac);
        return NULL;
    }
    ac->data = st;
    redisAsyncSetConnectCallback(ac, on_connect);
    redisAsyncSetDisconnectCallback(ac, on_disconnect);
    st->open++;
    return ac;
}

/* A blocking SELECT within ms: is Redis there at all? */
static int probe(const Lobby_Redis *st, int ms)
{
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    redisContext *c = redisConnectWithTimeout(st->host, st->port, tv);
    redisReply *r;
    int ok;

    if (c == NULL)
        return TB_E_NOMEM;
    if (c->err != 0) {
        redisFree(c);
        return TB_E_IO;
    }
    redisSetTimeout(c, tv);
    r = redisCommand(c, "SELECT %d", st->db);
    ok = r != NULL && r->type == REDIS_REPLY_STATUS;
    freeReplyObject(r);
    redisFree(c);
    return ok ? 0 : TB_E_IO;
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
    st->lim = *lim;
    rc = parse_url(st, url);
    if (rc == 0)
        rc = probe(st, 2000);
    if (rc != 0)
        goto fail;
    st->cmd = open_async(st);
    st->sub = open_async(st);
    if (st->cmd == NULL || st->sub == NULL) {
        rc = TB_E_IO;
        goto fail_open;
    }
    if (st->db != 0)
        redisAsyncCommand(st->cmd, NULL, NULL, "SELECT %d", st->db);
    st->up = 1;
    *out = st;
    return 0;
fail_open:
    /* Free (not disconnect) so no callback comes after st is gone. */
    if (st->cmd != NULL) {
        redisAsyncSetDisconnectCallback(st->cmd, NULL);
        redisAsyncFree(st->cmd);
    }
    if (st->sub != NULL) {
        redisAsyncSetDisconnectCallback(st->sub, NULL);
        redisAsyncFree(st->sub);
    }
fail:
    free(st);
    return rc;
}

void lobby__redis_close(Lobby_Redis *st, void (*done)(void *), void *user)
{
    st->closing = 1;
    st->up = 0;
    st->done = done;
    st->done_user = user;
    if (st->open == 0) {
        done(user);
        return;
    }
    /* Disconnect may call on_disconnect (and done) at once. */
    if (st->sub != NULL)
        redisAsyncDisconnect(st->sub);
    if (st->cmd != NULL)
        redisAsyncDisconnect(st->cmd);
}

void lobby__redis_free(Lobby_Redis *st)
{
    if (st == NULL)
        return;
    while (st->reqs != NULL)
        req_free(st->reqs);
    free(st);
}
