/*
 * redis_cluster.c: where a lobby node's Redis commands go, for one Redis
 * or a Redis Cluster (Debian has no hiredis-cluster, so this routes
 * itself, minimally). At start a blocking CLUSTER SLOTS on the given
 * address tells the two apart: a Redis without cluster support answers
 * an error and gets one connection; a cluster gets one asynchronous
 * hiredis connection per master and a map of its 16,384 slots. Each
 * command names the key that picks its slot (CRC16 of the key's hash
 * tag, as the cluster specification says); a MOVED answer points that
 * slot at the named master (connecting to it if new), asks for the whole
 * map again and sends the command there; an ASK answer sends ASKING and
 * the command to the named master once. Commands keep their formatted
 * bytes until answered so they can be sent again. Every connection is on
 * the lobby's libuv loop (hiredis/adapters/libuv.h); losing any one is
 * reported to redis.c, which drops all and starts again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <hiredis/adapters/libuv.h>

#include "lobby_internal.h"
#include "tb_error.h"

#define SLOTS 16384
#define NODES_MAX 64
#define NO_NODE 0xff
#define HOST_MAX 256
/* A command redirected more often than this is answered with the last
 * redirection (the caller treats it as a failure). */
#define HOPS_MAX 5

typedef struct Rc_Node {
    char host[HOST_MAX];
    int port;
    redisAsyncContext *ac; /* NULL once gone */
} Rc_Node;

struct Lobby_Rc {
    uv_loop_t *loop;
    Lobby_Rc_Auth auth; /* each connection's AUTH */
    int cluster, db, closing, refreshing;
    Rc_Node node[NODES_MAX];
    int nnodes;
    int open; /* connections not yet disconnected */
    uint8_t slot[SLOTS];
    void (*gone)(void *user); /* a connection went */
    void *user;
    Lobby_Rc_Fn *pong; /* answers to lobby__rc_ping */
    void *pong_priv;
};

typedef struct Rc_Cmd {
    Lobby_Rc *rc;
    char *bytes; /* the formatted command */
    int len, hops;
    Lobby_Rc_Fn *fn;
    void *priv;
} Rc_Cmd;

/* CRC16-CCITT (XMODEM), polynomial 0x1021, as Redis Cluster uses. */
static uint16_t crc16(const char *s, size_t n)
{
    uint16_t c = 0;
    for (size_t i = 0; i < n; i++) {
        c ^= (uint16_t)((uint8_t)s[i] << 8);
        for (int b = 0; b < 8; b++)
            c = (uint16_t)(c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1);
    }
    return c;
}

unsigned lobby__rc_slot(const char *key, size_t n)
{
    const char *open = memchr(key, '{', n);
    if (open != NULL) {
        size_t at = (size_t)(open - key) + 1;
        const char *close = memchr(open + 1, '}', n - at);
        if (close != NULL && close > open + 1)
            return crc16(open + 1, (size_t)(close - open - 1)) % SLOTS;
    }
    return crc16(key, n) % SLOTS;
}

/* ---- connections ---- */

static void on_connect(const redisAsyncContext *ac, int status);
static void on_disconnect(const redisAsyncContext *ac, int status);

static void node_gone(Lobby_Rc *rc, const redisAsyncContext *ac)
{
    for (int i = 0; i < rc->nnodes; i++)
        if (rc->node[i].ac == ac) {
            rc->node[i].ac = NULL;
            rc->open--;
            if (rc->gone != NULL)
                rc->gone(rc->user);
            return;
        }
}

/* A failed connect gets no disconnect callback from hiredis. */
static void on_connect(const redisAsyncContext *ac, int status)
{
    if (status != REDIS_OK)
        node_gone(ac->data, ac);
}

static void on_disconnect(const redisAsyncContext *ac, int status)
{
    (void)status;
    node_gone(ac->data, ac);
}

int lobby__rc_attach(uv_loop_t *loop, const char *host, int port,
                     const Lobby_Rc_Auth *auth, void *data,
                     Lobby_Rc_Status_Fn *connected, Lobby_Rc_Status_Fn *gone,
                     redisAsyncContext **out)
{
    redisAsyncContext *ac = redisAsyncConnect(host, port);
    *out = NULL;
    if (ac == NULL)
        return TB_E_NOMEM;
    if (ac->err != 0 || redisLibuvAttach(ac, loop) != REDIS_OK) {
        redisAsyncFree(ac);
        return TB_E_IO;
    }
    ac->data = data;
    redisAsyncSetConnectCallback(ac, connected);
    redisAsyncSetDisconnectCallback(ac, gone);
    /* AUTH first (hiredis sends it once connected, before the rest); a
     * refusal makes every later command fail, which the health check
     * notices as a Redis that does not answer */
    if (auth != NULL && auth->pass[0] != '\0') {
        if (auth->user[0] != '\0')
            redisAsyncCommand(ac, NULL, NULL, "AUTH %s %s", auth->user,
                              auth->pass);
        else
            redisAsyncCommand(ac, NULL, NULL, "AUTH %s", auth->pass);
    }
    *out = ac;
    return 0;
}

static int node_open(Lobby_Rc *rc, Rc_Node *n)
{
    redisAsyncContext *ac;
    int err = lobby__rc_attach(rc->loop, n->host, n->port, &rc->auth, rc,
                               on_connect, on_disconnect, &ac);
    if (err != 0)
        return err;
    if (rc->db != 0)
        redisAsyncCommand(ac, NULL, NULL, "SELECT %d", rc->db);
    n->ac = ac;
    rc->open++;
    return 0;
}

/* The node at host:port (hn bytes of host), added (and connected, once
 * the map is in use) when new. NO_NODE: no room for more. */
static int node_of(Lobby_Rc *rc, const char *host, size_t hn, int port,
                   int connect)
{
    Rc_Node *n;
    for (int i = 0; i < rc->nnodes; i++)
        if (rc->node[i].port == port && strlen(rc->node[i].host) == hn &&
            memcmp(rc->node[i].host, host, hn) == 0)
            return i;
    if (rc->nnodes == NODES_MAX || hn == 0 || hn >= HOST_MAX)
        return NO_NODE;
    n = &rc->node[rc->nnodes];
    memcpy(n->host, host, hn);
    n->host[hn] = '\0';
    n->port = port;
    n->ac = NULL;
    if (connect && node_open(rc, n) != 0)
        return NO_NODE;
    return rc->nnodes++;
}

/* CLUSTER SLOTS: [[first, last, [host, port, id, ...], replicas...]...].
 * An empty host means the address the answer came from (seed). */
static int take_map(Lobby_Rc *rc, const redisReply *rep, const char *seed,
                    int connect)
{
    if (rep->type != REDIS_REPLY_ARRAY || rep->elements == 0)
        return TB_E_FORMAT;
    for (size_t i = 0; i < rep->elements; i++) {
        const redisReply *e = rep->element[i], *m;
        const char *host;
        size_t hn;
        int idx;
        if (e->type != REDIS_REPLY_ARRAY || e->elements < 3 ||
            e->element[0]->type != REDIS_REPLY_INTEGER ||
            e->element[1]->type != REDIS_REPLY_INTEGER ||
            e->element[2]->type != REDIS_REPLY_ARRAY)
            return TB_E_FORMAT;
        m = e->element[2];
        if (m->elements < 2 || m->element[0]->type != REDIS_REPLY_STRING ||
            m->element[1]->type != REDIS_REPLY_INTEGER ||
            m->element[1]->integer <= 0 || m->element[1]->integer > 65535 ||
            e->element[0]->integer < 0 ||
            e->element[1]->integer >= SLOTS ||
            e->element[0]->integer > e->element[1]->integer)
            return TB_E_FORMAT;
        host = m->element[0]->len > 0 ? m->element[0]->str : seed;
        hn = m->element[0]->len > 0 ? m->element[0]->len : strlen(seed);
        idx = node_of(rc, host, hn, (int)m->element[1]->integer, connect);
        if (idx == NO_NODE)
            return TB_E_LIMIT;
        for (long long s = e->element[0]->integer;
             s <= e->element[1]->integer; s++)
            rc->slot[s] = (uint8_t)idx;
    }
    return 0;
}

static void map_done(redisAsyncContext *ac, void *reply, void *priv)
{
    Lobby_Rc *rc = priv;
    const redisReply *rep = reply;
    const char *seed = "";
    (void)ac;
    rc->refreshing = 0;
    for (int i = 0; i < rc->nnodes; i++)
        if (rc->node[i].ac == ac)
            seed = rc->node[i].host;
    if (rep != NULL && !rc->closing)
        (void)take_map(rc, rep, seed, 1); /* malformed: MOVED still routes */
}

/* Ask node i for the whole map again (once at a time). */
static void refresh(Lobby_Rc *rc, int i)
{
    if (rc->refreshing || rc->node[i].ac == NULL)
        return;
    if (redisAsyncCommand(rc->node[i].ac, map_done, rc, "CLUSTER SLOTS") ==
        REDIS_OK)
        rc->refreshing = 1;
}

/* ---- commands ---- */

static void cmd_free(Rc_Cmd *c)
{
    redisFreeCommand(c->bytes);
    free(c);
}

static void cmd_done(redisAsyncContext *ac, void *reply, void *priv);

/* Send c to node i (after ASKING when ask). */
static int cmd_send(Lobby_Rc *rc, Rc_Cmd *c, int i, int ask)
{
    redisAsyncContext *ac = i == NO_NODE ? NULL : rc->node[i].ac;
    if (ac == NULL)
        return TB_E_IO;
    if (ask && redisAsyncCommand(ac, NULL, NULL, "ASKING") != REDIS_OK)
        return TB_E_IO;
    if (redisAsyncFormattedCommand(ac, cmd_done, c, c->bytes,
                                   (size_t)c->len) != REDIS_OK)
        return TB_E_IO;
    return 0;
}

/* "MOVED 3999 127.0.0.1:6381" or "ASK ...": the slot and node it names
 * (connected if new). NO_NODE: not a redirection we can follow. */
static int redirection(Lobby_Rc *rc, const redisReply *rep, int *ask,
                       unsigned *slot)
{
    const char *p = rep->str, *end = rep->str + rep->len, *sp, *colon;
    unsigned long v = 0;
    int port = 0;

    if (rep->len > 6 && memcmp(p, "MOVED ", 6) == 0) {
        *ask = 0;
        p += 6;
    } else if (rep->len > 4 && memcmp(p, "ASK ", 4) == 0) {
        *ask = 1;
        p += 4;
    } else {
        return NO_NODE;
    }
    sp = memchr(p, ' ', (size_t)(end - p));
    if (sp == NULL || sp == p)
        return NO_NODE;
    for (; p < sp; p++) {
        if (*p < '0' || *p > '9' || v >= SLOTS)
            return NO_NODE;
        v = v * 10 + (unsigned long)(*p - '0');
    }
    if (v >= SLOTS)
        return NO_NODE;
    *slot = (unsigned)v;
    p = sp + 1;
    colon = NULL;
    for (const char *q = p; q < end; q++)
        if (*q == ':')
            colon = q; /* the last: IPv6 hosts hold colons */
    if (colon == NULL || colon == p || colon + 1 == end)
        return NO_NODE;
    for (const char *q = colon + 1; q < end; q++) {
        if (*q < '0' || *q > '9' || port > 65535)
            return NO_NODE;
        port = port * 10 + (*q - '0');
    }
    if (port == 0 || port > 65535)
        return NO_NODE;
    return node_of(rc, p, (size_t)(colon - p), port, 1);
}

static void cmd_done(redisAsyncContext *ac, void *reply, void *priv)
{
    Rc_Cmd *c = priv;
    Lobby_Rc *rc = c->rc;
    redisReply *rep = reply;
    unsigned slot;
    int ask, i;

    (void)ac;
    if (rep != NULL && rep->type == REDIS_REPLY_ERROR && rc->cluster &&
        !rc->closing && c->hops < HOPS_MAX &&
        (i = redirection(rc, rep, &ask, &slot)) != NO_NODE) {
        c->hops++;
        if (!ask) {
            rc->slot[slot] = (uint8_t)i;
            refresh(rc, i);
        }
        if (cmd_send(rc, c, i, ask) == 0)
            return;
        rep = NULL; /* not sent: answered as lost */
    }
    if (c->fn != NULL)
        c->fn(c->priv, rep);
    cmd_free(c);
}

int lobby__rc_command(Lobby_Rc *rc, const char *key, size_t keylen,
                      Lobby_Rc_Fn *fn, void *priv, int argc,
                      const char **argv, const size_t *argl)
{
    Rc_Cmd *c;
    int len, i = 0;

    if (rc->closing)
        return TB_E_STATE;
    c = calloc(1, sizeof *c);
    if (c == NULL)
        return TB_E_NOMEM;
    len = redisFormatCommandArgv(&c->bytes, argc, argv, argl);
    if (len < 0) {
        free(c);
        return TB_E_NOMEM;
    }
    c->rc = rc;
    c->len = len;
    c->fn = fn;
    c->priv = priv;
    if (rc->cluster) {
        i = rc->slot[lobby__rc_slot(key, keylen)];
        if (i == NO_NODE)
            i = 0; /* it says MOVED */
    }
    if (cmd_send(rc, c, i, 0) != 0) {
        cmd_free(c);
        return TB_E_IO;
    }
    return 0;
}

int lobby__rc_command1(Lobby_Rc *rc, const char *cmd, const char *key,
                       const char *arg)
{
    const char *argv[3] = {cmd, key, arg};
    size_t argl[3] = {strlen(cmd), strlen(key), arg ? strlen(arg) : 0};
    return lobby__rc_command(rc, key, argl[1], NULL, NULL, arg ? 3 : 2, argv,
                             argl);
}

/* ---- the map at start ---- */

/* Blocking, on c: AUTH when auth has a password, then whether Redis
 * evicts keys when full. 0, TB_E_AUTH, TB_E_STATE or TB_E_IO. */
static int check_start(redisContext *c, const Lobby_Rc_Auth *auth)
{
    redisReply *r;
    int err = 0;
    if (auth->pass[0] != '\0') {
        r = auth->user[0] != '\0'
                ? redisCommand(c, "AUTH %s %s", auth->user, auth->pass)
                : redisCommand(c, "AUTH %s", auth->pass);
        if (r == NULL)
            return TB_E_IO;
        err = r->type == REDIS_REPLY_ERROR ? TB_E_AUTH : 0;
        freeReplyObject(r);
        if (err != 0)
            return err;
    }
    r = redisCommand(c, "CONFIG GET maxmemory-policy");
    if (r == NULL)
        return TB_E_IO;
    if (r->type == REDIS_REPLY_ERROR)
        /* NOAUTH: a password is needed; else CONFIG is renamed or
         * refused to us, and the policy cannot be read */
        err = strncmp(r->str, "NOAUTH", 6) == 0 ? TB_E_AUTH : 0;
    else if (r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
             r->element[1]->type == REDIS_REPLY_STRING &&
             strcmp(r->element[1]->str, "noeviction") != 0)
        err = TB_E_STATE; /* allkeys-* and volatile-* evict keys */
    freeReplyObject(r);
    return err;
}

int lobby__rc_new(uv_loop_t *loop, const char *host, int port, int db,
                  const Lobby_Rc_Auth *auth, int wait_ms,
                  void (*gone)(void *user), void *user, Lobby_Rc **out)
{
    struct timeval tv = {wait_ms / 1000, (wait_ms % 1000) * 1000};
    redisContext *c;
    redisReply *r;
    Lobby_Rc *rc;
    int err = 0;

    *out = NULL;
    rc = calloc(1, sizeof *rc);
    if (rc == NULL)
        return TB_E_NOMEM;
    rc->loop = loop;
    rc->db = db;
    if (auth != NULL)
        rc->auth = *auth;
    rc->gone = gone;
    rc->user = user;
    memset(rc->slot, NO_NODE, sizeof rc->slot);
    c = redisConnectWithTimeout(host, port, tv);
    if (c == NULL || c->err != 0) {
        redisFree(c);
        free(rc);
        return c == NULL ? TB_E_NOMEM : TB_E_IO;
    }
    redisSetTimeout(c, tv);
    err = check_start(c, &rc->auth);
    if (err != 0) {
        redisFree(c);
        free(rc);
        return err;
    }
    r = redisCommand(c, "CLUSTER SLOTS");
    if (r == NULL) {
        err = TB_E_IO;
    } else if (r->type == REDIS_REPLY_ERROR) {
        /* No cluster support: one Redis. */
        freeReplyObject(r);
        r = redisCommand(c, "SELECT %d", db);
        if (r == NULL || r->type != REDIS_REPLY_STATUS)
            err = TB_E_IO;
        else if (node_of(rc, host, strlen(host), port, 0) == NO_NODE)
            err = TB_E_ARG;
    } else {
        rc->cluster = 1;
        /* A cluster has database 0 only. */
        err = db != 0 ? TB_E_ARG : take_map(rc, r, host, 0);
        if (err == TB_E_FORMAT)
            err = TB_E_IO; /* slots not all served yet */
    }
    freeReplyObject(r);
    redisFree(c);
    for (int i = 0; err == 0 && i < rc->nnodes; i++)
        err = node_open(rc, &rc->node[i]);
    if (err != 0) {
        lobby__rc_free(rc);
        return err;
    }
    *out = rc;
    return 0;
}

int lobby__rc_is_cluster(const Lobby_Rc *rc) { return rc->cluster; }

int lobby__rc_node_count(const Lobby_Rc *rc) { return rc->nnodes; }

const char *lobby__rc_node_addr(const Lobby_Rc *rc, int i, int *port)
{
    if (i < 0 || i >= rc->nnodes)
        return NULL;
    *port = rc->node[i].port;
    return rc->node[i].host;
}

int lobby__rc_open(const Lobby_Rc *rc) { return rc->open; }

void lobby__rc_disconnect(Lobby_Rc *rc)
{
    rc->closing = 1;
    /* A disconnect may call node_gone at once. */
    for (int i = 0; i < rc->nnodes; i++)
        if (rc->node[i].ac != NULL)
            redisAsyncDisconnect(rc->node[i].ac);
}

static void ping_done(redisAsyncContext *ac, void *reply, void *priv)
{
    Lobby_Rc *rc = priv;
    (void)ac;
    if (rc->pong != NULL)
        rc->pong(rc->pong_priv, reply);
}

int lobby__rc_ping(Lobby_Rc *rc, Lobby_Rc_Fn *fn, void *priv)
{
    int sent = 0;
    if (rc->closing)
        return 0;
    rc->pong = fn;
    rc->pong_priv = priv;
    for (int i = 0; i < rc->nnodes; i++)
        if (rc->node[i].ac != NULL &&
            redisAsyncCommand(rc->node[i].ac, ping_done, rc, "PING") ==
                REDIS_OK)
            sent++;
    return sent;
}

void lobby__rc_abort(Lobby_Rc *rc)
{
    rc->closing = 1;
    for (int i = 0; i < rc->nnodes; i++) {
        redisAsyncContext *ac = rc->node[i].ac;
        if (ac == NULL)
            continue;
        /* Forgotten first, so its disconnect callback finds nothing to
         * report; its awaited answers are called with NULL now. */
        rc->node[i].ac = NULL;
        rc->open--;
        redisAsyncFree(ac);
    }
}

void lobby__rc_free(Lobby_Rc *rc)
{
    if (rc == NULL)
        return;
    /* Contexts still here were never connected to the loop's callbacks
     * (a failed start): free them without a disconnect callback. */
    for (int i = 0; i < rc->nnodes; i++)
        if (rc->node[i].ac != NULL) {
            redisAsyncSetDisconnectCallback(rc->node[i].ac, NULL);
            redisAsyncFree(rc->node[i].ac);
        }
    free(rc);
}
