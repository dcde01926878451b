/*
 * redis_health.c: whether a lobby node's Redis still answers. Debian's
 * hiredis (0.14) has no timeouts for asynchronous commands, so a Redis
 * that stops answering without closing its connections (stopped, cut
 * off by the network, too busy) would leave admissions and frames
 * waiting for ever. Each HEALTH_MS this sends a PING on every command
 * connection and a PUBLISH of the check's number on the node's own
 * channel (tb:n: and 16 random hex digits), to which the channels'
 * connection is subscribed first thing; the next check waits until
 * every answer of this one is in. redis.c asks it from the sweep timer
 * and treats an answer missing for the deadline as Redis lost.
 */
#include <stdio.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "lobby_internal.h"
#include "proto.h"
#include "tb_error.h"

/* The check is asked this often (ms). */
#define HEALTH_MS 1000
/* Sweeps this far apart (they run each 250 ms) mean the node's own loop
 * was held (a starved machine): libuv runs timers before it reads, so an
 * answer may be waiting unread, and no verdict is given this time. */
#define STALL_MS 1000

int lobby__health_init(Lobby_Health *h, uint32_t deadline_ms)
{
    uint8_t r[8];

    memset(h, 0, sizeof *h);
    h->deadline_ms = deadline_ms;
    if (uv_random(NULL, NULL, r, sizeof r, 0, NULL) != 0)
        return TB_E_IO;
    memcpy(h->own, "tb:n:", 5);
    proto_hex(r, sizeof r, h->own + 5);
    return 0;
}

void lobby__health_reset(Lobby_Health *h, uint64_t now)
{
    h->wait = 1; /* the own channel's subscription, first */
    h->pongs = 0;
    h->heard = 0;
    h->at = now;
    h->last = now;
    h->last_tick = now;
    h->sent_ns = 0;
}

/* Every answer of the check awaited is in. */
static void check_done(Lobby_Health *h)
{
    if (!h->wait || h->pongs != 0 || !h->heard)
        return;
    h->wait = 0;
    if (h->sent_ns != 0) { /* (uv_hrtime, not the loop's cached time:
                              the answers may come within a turn) */
        h->rtt_last_us = (uv_hrtime() - h->sent_ns) / 1000;
        h->rtt_sum_us += h->rtt_last_us;
        h->rtt_count++;
    }
}

static void pong(void *priv, redisReply *rep)
{
    Lobby_Health *h = priv;
    if (rep == NULL || h->pongs == 0)
        return; /* the connection went: that is reported apart */
    h->pongs--;
    check_done(h);
}

int lobby__health_tick(Lobby_Health *h, Lobby_Rc *rc, uint64_t now)
{
    char seq[24];
    const char *argv[3] = {"PUBLISH", h->own, seq};

    int stalled = now - h->last_tick > STALL_MS;

    h->last_tick = now;
    if (h->wait)
        return !stalled && now - h->at >= h->deadline_ms;
    if (now - h->last < HEALTH_MS)
        return 0;
    h->last = h->at = now;
    h->seq++;
    h->wait = 1;
    h->heard = 0;
    h->sent_ns = uv_hrtime();
    h->pongs = lobby__rc_ping(rc, pong, h);
    snprintf(seq, sizeof seq, "%llu", (unsigned long long)h->seq);
    if (lobby__rc_command(rc, h->own, LOBBY_HEALTH_OWN_LEN, NULL, NULL, 3,
                          argv, NULL) != 0)
        h->heard = 1; /* not sent: the connection is gone, reported apart */
    return 0;
}

int lobby__health_sub(Lobby_Health *h, const redisReply *rep)
{
    const redisReply *chan = rep->element[1], *msg = rep->element[2];
    char seq[24];
    int n;

    if (chan->len != LOBBY_HEALTH_OWN_LEN ||
        memcmp(chan->str, h->own, LOBBY_HEALTH_OWN_LEN) != 0)
        return 0;
    if (strcmp(rep->element[0]->str, "message") == 0) {
        n = snprintf(seq, sizeof seq, "%llu", (unsigned long long)h->seq);
        if (msg->type != REDIS_REPLY_STRING || msg->len != (size_t)n ||
            memcmp(msg->str, seq, (size_t)n) != 0)
            return 1; /* not the check awaited */
    } else if (strcmp(rep->element[0]->str, "subscribe") != 0) {
        return 1;
    }
    h->heard = 1;
    check_done(h);
    return 1;
}
