/*
 * metrics.c: a lobby's counters (Lobby_Stats) as Prometheus's text
 * exposition format, version 0.0.4, which `tabula lobby --http` serves at
 * /metrics (lobby/http.c) for an operator's Prometheus to scrape
 * (docs/operate.md). Every metric is named tabula_lobby_*, has its HELP
 * and TYPE lines, and a counter only ever grows while the process lives.
 */
#include <stdarg.h>
#include <stdio.h>

#include "lobby_internal.h"
#include "tb_error.h"
#include "wire_internal.h"

/* The ERROR codes' names, as docs/protocol-lobby.md spells them (lower
 * case): the reason label of tabula_lobby_refusals_total. */
static const char *const refusal_names[LOBBY_REFUSAL_CODES] = {
    [LOBBY_ERR_PROTOCOL] = "protocol",
    [LOBBY_ERR_VERSION] = "version",
    [LOBBY_ERR_CODE] = "code",
    [LOBBY_ERR_RATE] = "rate",
    [LOBBY_ERR_FULL] = "full",
    [LOBBY_ERR_SEAT] = "seat",
    [LOBBY_ERR_TOO_BIG] = "too_big",
    [LOBBY_ERR_NOT_ALLOWED] = "not_allowed",
    [LOBBY_ERR_TIMEOUT] = "timeout",
    [LOBBY_ERR_REPLACED] = "replaced",
    [LOBBY_ERR_ADDRESS] = "address",
    [LOBBY_ERR_FLOOD] = "flood",
};

/* The text being written: past cap, only its length grows. */
typedef struct Out {
    char *buf;
    size_t cap, len;
} Out;

__attribute__((format(printf, 2, 3))) static void put(Out *o, const char *fmt,
                                                      ...)
{
    va_list ap;
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    va_start(ap, fmt);
    int n = vsnprintf(room > 0 ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

/* A metric's HELP and TYPE lines. */
static void head(Out *o, const char *name, const char *type, const char *help)
{
    put(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A metric of one sample without labels. */
static void one(Out *o, const char *name, const char *type, const char *help,
                unsigned long long v)
{
    head(o, name, type, help);
    put(o, "%s %llu\n", name, v);
}

int lobby_metrics_text(const Lobby_Stats *st, char *out, size_t cap)
{
    Out o = {out, cap, 0};
    static const char conns[] = "tabula_lobby_connections";
    static const char refusals[] = "tabula_lobby_refusals_total";

    head(&o, conns, "gauge",
         "Connections open now, by transport (tcp: framed TCP; websocket: "
         "browser members; http: the web port's other connections, this "
         "scrape's included).");
    put(&o, "%s{transport=\"tcp\"} %zu\n", conns, st->conns_tcp);
    put(&o, "%s{transport=\"websocket\"} %zu\n", conns, st->conns_ws);
    put(&o, "%s{transport=\"http\"} %zu\n", conns, st->conns_http);
    one(&o, "tabula_lobby_rooms", "gauge", "Rooms open now.", st->rooms);
    one(&o, "tabula_lobby_members", "gauge",
        "Seated players and spectators in rooms now.", st->members);
    one(&o, "tabula_lobby_transcript_bytes", "gauge",
        "Payload bytes the rooms keep for late joiners now.",
        st->transcript_bytes);
    one(&o, "tabula_lobby_seeks", "gauge",
        "Open public seeks whose host is on this node.", st->seeks);
    one(&o, "tabula_lobby_frames_relayed_total", "counter",
        "Frames from seated players the lobby numbered and relayed.",
        (unsigned long long)st->frames_relayed);
    one(&o, "tabula_lobby_received_bytes_total", "counter",
        "Bytes of lobby messages received, every transport, framing "
        "excluded.",
        (unsigned long long)st->bytes_in);
    one(&o, "tabula_lobby_sent_bytes_total", "counter",
        "Bytes of lobby messages queued to send, every transport, framing "
        "excluded.",
        (unsigned long long)st->bytes_out);
    head(&o, refusals, "counter",
         "Connections refused with an ERROR, by its code "
         "(docs/protocol-lobby.md).");
    for (int c = 1; c < LOBBY_REFUSAL_CODES; c++)
        put(&o, "%s{reason=\"%s\"} %llu\n", refusals, refusal_names[c],
            (unsigned long long)st->refusals[c]);
    one(&o, "tabula_lobby_dropped_slow_total", "counter",
        "Members dropped as readers too slow for their messages.",
        (unsigned long long)st->dropped_slow);
    if (st->redis) {
        static const char rtt[] = "tabula_lobby_redis_round_trip_seconds";
        head(&o, "tabula_lobby_redis_last_round_trip_seconds", "gauge",
             "The last Redis health check's round trip.");
        put(&o, "tabula_lobby_redis_last_round_trip_seconds %llu.%06llu\n",
            (unsigned long long)(st->redis_rtt_last_us / 1000000),
            (unsigned long long)(st->redis_rtt_last_us % 1000000));
        head(&o, rtt, "summary",
             "Redis health checks' round trips (one a second).");
        put(&o, "%s_sum %llu.%06llu\n%s_count %llu\n", rtt,
            (unsigned long long)(st->redis_rtt_sum_us / 1000000),
            (unsigned long long)(st->redis_rtt_sum_us % 1000000), rtt,
            (unsigned long long)st->redis_rtt_count);
    }
    if (o.len >= cap)
        return TB_E_SPACE;
    return (int)o.len;
}
