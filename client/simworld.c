/*
 * simworld.c: one whole match in one process under a seeded scheduler
 * (simworld.h). The world holds the actors (host, guest, spectators: each
 * a seat of the seat layer, seat/seat.h, the very object the terminal and
 * the page drive, plus what a driver would keep durable: its log file,
 * its resume point and the start of the turn in progress, as FILE.seq
 * keeps them), a model of the lobby relay that speaks the lobby's bytes
 * (lobby_wire.h's relay side), and one event queue
 * ordered by simulated time. Messages travel on connections that keep
 * their order (each direction delivers no earlier than the one before
 * it); a dropped connection loses what was in flight. A crash happens
 * between two outputs of a session: what was carried out before it is
 * durable, the rest is lost, and the actor comes back from its log. The
 * relay model numbers frames, keeps them, sends a (re)joining member the
 * frames after its resume point, reports presence, refuses a JOIN or
 * WATCH while it has no room, and on a restart forgets its rooms; the
 * host's CREATE then numbers on from the host's resume point, as the
 * real lobby does (docs/protocol-lobby.md). When to connect, try again
 * or give up is the seat's: a seat that gives up fails the match.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lobby_wire.h"
#include "match.h"
#include "netstore.h"
#include "seat.h"
#include "simworld.h"
#include "tb_error.h"

#define SIM_ACTORS_MAX 5
#define SIM_LIMIT_MS (4ull * 3600 * 1000) /* a match must end before */
#define SIM_EVENTS_MAX 3000000
#define SIM_LATE_MS 120000 /* a late spectator joins within this */

enum { EV_CONNECT, EV_TO_CLIENT, EV_TO_RELAY, EV_TICK, EV_USER, EV_BOT,
       EV_FAULT, EV_RESTART };
enum { MSG_WELCOME, MSG_FRAME, MSG_ACK, MSG_PRESENCE, MSG_REFUSED };

/* A connection reset, as the transport reports it (ECONNRESET). */
#define SIM_RESET (-104)

typedef struct Ev {
    uint64_t at, order;
    int type, actor, kind, from;
    uint32_t epoch;
    uint64_t seq, a, b;
    uint8_t *data;
    size_t len;
} Ev;

typedef struct Kept {
    uint64_t seq;
    int from;
    uint8_t *data;
    size_t len;
} Kept;

typedef struct Actor {
    int role, alive, done, joined, desync, saw_end;
    Seat *st;
    Match *m; /* the seat's session */
    Match_Config mc;
    uint32_t epoch;
    int conn; /* 0 closed, 1 waiting for the welcome, 2 open */
    uint64_t fifo_in, fifo_out;
    char log_path[300];
    Proto_Log *log;
    uint64_t durable_seq;
    uint32_t durable_numbered;
    uint64_t turn_wall; /* kept like FILE.seq's turn line: the actor's
                           clock when the turn in progress began */
    int64_t skew_ppm, skew_off;
    uint64_t tick_gen;
    uint32_t plies; /* PLY outputs, plus the moves held at a resume */
    int crash_in;   /* crash before this many more outputs (-1: none) */
} Actor;

typedef struct World {
    const Sim_Config *cfg;
    Sim_Report *rep;
    uint64_t rng, now, order, events;
    Ev *heap;
    size_t nheap, heap_cap;
    Actor a[SIM_ACTORS_MAX];
    int nactors;
    /* the relay */
    int room;
    uint64_t next_seq;
    Kept *kept;
    size_t nkept, kept_cap;
    uint32_t member_epoch[SIM_ACTORS_MAX];
    int member_open[SIM_ACTORS_MAX];
    int clocked;
    Lobby_Code invite, watch;
    uint8_t seat_secret[SIM_ACTORS_MAX][LOBBY_SEAT_SECRET_BYTES];
    uint8_t *buf; /* a frame */
    uint8_t *msg; /* a message from the relay */
    char *trace;
    size_t trace_len, trace_cap;
} World;

static const char *const fault_names[] = {
    "drop", "delay", "crash", "restart", "dup", "skew", "late", "gap", "cheat"};
#define NFAULTS (sizeof fault_names / sizeof fault_names[0])

int simworld_faults(const char *list, unsigned *out, const char **bad)
{
    static char word[32];
    *out = 0;
    if (strcmp(list, "all") == 0) {
        *out = SIM_FAULTS_ALL;
        return 0;
    }
    if (strcmp(list, "none") == 0)
        return 0;
    for (const char *p = list; *p != '\0';) {
        size_t n = strcspn(p, ",");
        size_t k;
        for (k = 0; k < NFAULTS; k++)
            if (strlen(fault_names[k]) == n && strncmp(p, fault_names[k], n) == 0)
                break;
        if (k == NFAULTS) {
            snprintf(word, sizeof word, "%.*s", (int)(n < 30 ? n : 30), p);
            *bad = word;
            return -1;
        }
        *out |= 1u << k;
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

void simworld_fault_names(unsigned bits, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    if (bits == SIM_FAULTS_ALL) {
        snprintf(buf, cap, "all");
        return;
    }
    if (bits == 0) {
        snprintf(buf, cap, "none");
        return;
    }
    for (size_t k = 0; k < NFAULTS; k++) {
        if (!(bits & (1u << k)))
            continue;
        int n = snprintf(buf + len, cap - len, "%s%s", len ? "," : "",
                         fault_names[k]);
        if (n < 0 || (size_t)n >= cap - len)
            return;
        len += (size_t)n;
    }
}

/* ---- randomness and the trace ---------------------------------------- */

static uint64_t rnd(World *w)
{
    /* splitmix64 */
    uint64_t z = (w->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A number in lo..hi. */
static uint64_t rnd_in(World *w, uint64_t lo, uint64_t hi)
{
    return lo + rnd(w) % (hi - lo + 1);
}

/* 1 with probability per/1000. */
static int chance(World *w, unsigned per_mille)
{
    return rnd(w) % 1000 < per_mille;
}

static const char *const role_names[] = {"host", "guest", "spec1", "spec2",
                                         "spec3"};

static void trace(World *w, int actor, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void trace(World *w, int actor, const char *fmt, ...)
{
    char line[800];
    va_list ap;
    int n;
    if (!w->cfg->trace)
        return;
    n = snprintf(line, sizeof line, "%8llu %-5s ", (unsigned long long)w->now,
                 actor >= 0 ? role_names[actor] : "relay");
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    size_t len = strlen(line);
    if (w->trace_len + len + 2 > w->trace_cap) {
        size_t cap = w->trace_cap ? 2 * w->trace_cap : 65536;
        while (cap < w->trace_len + len + 2)
            cap *= 2;
        char *grown = realloc(w->trace, cap);
        if (grown == NULL)
            return;
        w->trace = grown;
        w->trace_cap = cap;
    }
    memcpy(w->trace + w->trace_len, line, len);
    w->trace_len += len;
    w->trace[w->trace_len++] = '\n';
    w->trace[w->trace_len] = '\0';
}

static void fail(World *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fail(World *w, const char *fmt, ...)
{
    va_list ap;
    if (w->rep->failed)
        return;
    w->rep->failed = 1;
    va_start(ap, fmt);
    vsnprintf(w->rep->why, sizeof w->rep->why, fmt, ap);
    va_end(ap);
    trace(w, -1, "FAILED: %s", w->rep->why);
}

/* ---- the event queue (a binary heap on time, then insertion) -------- */

static int ev_before(const Ev *x, const Ev *y)
{
    return x->at < y->at || (x->at == y->at && x->order < y->order);
}

static int push(World *w, Ev e)
{
    if (w->nheap == w->heap_cap) {
        size_t cap = w->heap_cap ? 2 * w->heap_cap : 256;
        Ev *grown = realloc(w->heap, cap * sizeof *grown);
        if (grown == NULL) {
            free(e.data);
            return TB_E_NOMEM;
        }
        w->heap = grown;
        w->heap_cap = cap;
    }
    e.order = w->order++;
    size_t i = w->nheap++;
    while (i > 0 && ev_before(&e, &w->heap[(i - 1) / 2])) {
        w->heap[i] = w->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->heap[i] = e;
    return 0;
}

static Ev pop(World *w)
{
    Ev top = w->heap[0], last = w->heap[--w->nheap];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= w->nheap)
            break;
        if (c + 1 < w->nheap && ev_before(&w->heap[c + 1], &w->heap[c]))
            c++;
        if (!ev_before(&w->heap[c], &last))
            break;
        w->heap[i] = w->heap[c];
        i = c;
    }
    if (w->nheap > 0)
        w->heap[i] = last;
    return top;
}

static void at_time(World *w, uint64_t at, int type, int actor)
{
    Ev e;
    memset(&e, 0, sizeof e);
    e.at = at;
    e.type = type;
    e.actor = actor;
    push(w, e);
}

/* A message's travel time on a connection. */
static uint64_t latency(World *w)
{
    if (!(w->cfg->faults & SIM_FAULT_DELAY))
        return 1;
    return chance(w, 20) ? rnd_in(w, 500, 3000) : rnd_in(w, 1, 300);
}

/* Put a message on a connection: it arrives after its latency and never
 * before the one queued before it in that direction (*fifo). */
static void travel(World *w, Ev *e, uint64_t *fifo, const uint8_t *data,
                   size_t len)
{
    e->at = w->now + latency(w);
    if (e->at < *fifo)
        e->at = *fifo;
    *fifo = e->at;
    if (data != NULL) {
        if ((e->data = malloc(len)) == NULL)
            return;
        memcpy(e->data, data, len);
        e->len = len;
    }
    push(w, *e);
}

/* A message from the relay to actor i on its current connection. */
static void to_client(World *w, int i, int kind, uint64_t seq, uint64_t a,
                      uint64_t b, int from, const uint8_t *data, size_t len)
{
    Ev e;
    memset(&e, 0, sizeof e);
    e.type = EV_TO_CLIENT;
    e.actor = i;
    e.kind = kind;
    e.epoch = w->member_epoch[i];
    e.seq = seq;
    e.a = a;
    e.b = b;
    e.from = from;
    travel(w, &e, &w->a[i].fifo_in, data, len);
}

/* A frame from actor i to the relay (forged: not its session's). */
static void to_relay(World *w, int i, const uint8_t *data, size_t len,
                     int forged)
{
    Ev e;
    memset(&e, 0, sizeof e);
    e.type = EV_TO_RELAY;
    e.actor = i;
    e.kind = forged;
    e.epoch = w->a[i].epoch;
    travel(w, &e, &w->a[i].fifo_out, data, len);
}

/* ---- time as each actor's clock reads it ----------------------------- */

static uint64_t anow(const Actor *x, uint64_t t)
{
    int64_t v = (int64_t)t + x->skew_off + (int64_t)t * x->skew_ppm / 1000000;
    return (uint64_t)v;
}

/* The first world time at which the actor's clock reads at least d. */
static uint64_t world_time(const World *w, const Actor *x, uint64_t d)
{
    if (d <= anow(x, w->now))
        return w->now;
    int64_t t = ((int64_t)d - x->skew_off) * 1000000 /
                (1000000 + x->skew_ppm);
    if (t < (int64_t)w->now)
        t = (int64_t)w->now;
    while (anow(x, (uint64_t)t) < d)
        t++;
    while (t > (int64_t)w->now && anow(x, (uint64_t)t - 1) >= d)
        t--;
    return (uint64_t)t;
}

/* ---- the relay ------------------------------------------------------- */

static int is_seat(int i) { return i == MATCH_ROLE_HOST || i == MATCH_ROLE_GUEST; }

static void presence(World *w, int seat, int present)
{
    for (int j = 0; j < w->nactors; j++)
        if (j != seat && w->member_open[j])
            to_client(w, j, MSG_PRESENCE, 0, (uint64_t)seat,
                      (uint64_t)present, 0, NULL, 0);
}

/* The relay closes member i (the connection dropped, or it left). */
static void member_close(World *w, int i)
{
    if (!w->member_open[i])
        return;
    w->member_open[i] = 0;
    if (is_seat(i))
        presence(w, i, 0);
}

static void keep(World *w, uint64_t seq, int from, const uint8_t *d,
                 size_t len)
{
    if (w->nkept == w->kept_cap) {
        size_t cap = w->kept_cap ? 2 * w->kept_cap : 256;
        Kept *grown = realloc(w->kept, cap * sizeof *grown);
        if (grown == NULL)
            return;
        w->kept = grown;
        w->kept_cap = cap;
    }
    Kept *k = &w->kept[w->nkept];
    if ((k->data = malloc(len)) == NULL)
        return;
    memcpy(k->data, d, len);
    k->len = len;
    k->seq = seq;
    k->from = from;
    w->nkept++;
}

static void relay_forget(World *w)
{
    for (size_t k = 0; k < w->nkept; k++)
        free(w->kept[k].data);
    w->nkept = 0;
    w->room = 0;
}

/* Member i (re)joins with its hello (CREATE, JOIN or WATCH) asking for
 * every frame after the one it names. */
static void relay_join(World *w, int i, const uint8_t *hello, size_t len)
{
    Actor *x = &w->a[i];
    Lobby_Wire_Hello h;
    if (lobby_wire_hello_read(hello, len, &h) != 0 ||
        (int)h.role != x->role) {
        fail(w, "%s: a hello the relay cannot read", role_names[i]);
        return;
    }
    uint64_t from = h.from_seq;
    if (i == MATCH_ROLE_HOST && !w->room) {
        w->room = 1;
        w->next_seq = from + 1;
        trace(w, -1, "room made, numbering from %llu",
              (unsigned long long)w->next_seq);
    }
    w->member_epoch[i] = x->epoch;
    if (!w->room) { /* no room has this code (yet): refused */
        to_client(w, i, MSG_REFUSED, 0, (uint64_t)-(int64_t)TB_E_CODE, 0, 0,
                  NULL, 0);
        return;
    }
    w->member_open[i] = 1;
    uint64_t first = w->nkept ? w->kept[0].seq : 0;
    to_client(w, i, MSG_WELCOME, 0, first, w->next_seq,
              0, NULL, 0);
    uint64_t ask = from;
    if ((w->cfg->faults & SIM_FAULT_DUP) && chance(w, 300) && ask > 0) {
        uint64_t back = rnd_in(w, 1, 6);
        ask = ask > back ? ask - back : 0;
    }
    /* The gap fault: the catch-up skips one frame that is not its last
     * (a later frame shows the member the gap; a lost last frame would
     * show it nothing, and the real relay loses none). */
    size_t from_k = 0, skip = SIZE_MAX;
    while (from_k < w->nkept && w->kept[from_k].seq <= ask)
        from_k++;
    if ((w->cfg->faults & SIM_FAULT_GAP) && w->nkept - from_k >= 2 &&
        chance(w, 200)) {
        skip = from_k + rnd(w) % (w->nkept - from_k - 1);
        w->rep->faults++;
        trace(w, -1, "fault: catch-up to %s skips frame %llu", role_names[i],
              (unsigned long long)w->kept[skip].seq);
    }
    for (size_t k = from_k; k < w->nkept; k++)
        if (k != skip)
            to_client(w, i, MSG_FRAME, w->kept[k].seq, 0, 0, w->kept[k].from,
                      w->kept[k].data, w->kept[k].len);
    if (is_seat(i))
        presence(w, i, 1);
}

static void relay_data(World *w, const Ev *e)
{
    int i = e->actor;
    if (!w->room || !w->member_open[i] || w->member_epoch[i] != e->epoch)
        return; /* the connection is gone */
    uint64_t seq = w->next_seq++;
    keep(w, seq, i, e->data, e->len);
    if (!e->kind) /* a forged frame (kind 1) comes from elsewhere */
        to_client(w, i, MSG_ACK, seq, 0, 0, 0, NULL, 0);
    for (int j = 0; j < w->nactors; j++)
        if (j != i && w->member_open[j])
            to_client(w, j, MSG_FRAME, seq, 0, 0, i, e->data, e->len);
}

/* ---- actors ---------------------------------------------------------- */

static void drain(World *w, int i);

static void close_conn(World *w, int i)
{
    Actor *x = &w->a[i];
    member_close(w, i);
    x->conn = 0;
    x->epoch++;
}

static void crash(World *w, int i)
{
    Actor *x = &w->a[i];
    trace(w, i, "crash");
    w->rep->faults++;
    close_conn(w, i);
    seat_free(x->st);
    x->st = NULL;
    x->m = NULL;
    proto_log_close(x->log);
    x->log = NULL;
    x->alive = 0;
    x->crash_in = -1;
    at_time(w, w->now + rnd_in(w, 50, 4000), EV_RESTART, i);
}

/* As the driver does (netstore.h). */
static void log_open(World *w, int i, uint32_t count)
{
    Actor *x = &w->a[i];
    int rc = netstore_log_open(&x->log, x->log_path, x->m, count);
    if (rc != 0)
        fail(w, "%s: cannot write its log: %s", role_names[i],
             tb_strerror(rc));
}

static void schedule_tick(World *w, int i)
{
    Actor *x = &w->a[i];
    uint64_t d = seat_deadline(x->st);
    x->tick_gen++;
    if (d == UINT64_MAX)
        return;
    Ev e;
    memset(&e, 0, sizeof e);
    e.at = world_time(w, x, d);
    e.type = EV_TICK;
    e.actor = i;
    e.seq = x->tick_gen;
    push(w, e);
}

static void carry_out(World *w, int i, const Match_Out *o)
{
    Actor *x = &w->a[i];
    switch (o->kind) {
    case MATCH_OUT_SEND: /* a DATA message: its type byte, the envelope */
        if (x->conn == 2)
            to_relay(w, i, o->data + 1, o->len - 1, 0);
        break;
    case MATCH_OUT_LOG_OPEN:
        log_open(w, i, o->count);
        break;
    case MATCH_OUT_LOG:
        if (netstore_log_append(x->log, o->data, o->len) != 0)
            fail(w, "%s: cannot append to its log", role_names[i]);
        break;
    case MATCH_OUT_LOG_END:
        x->saw_end = 1;
        if (x->log != NULL && o->count > 0)
            proto_log_finish(x->log, o->count, o->hash);
        proto_log_close(x->log);
        x->log = NULL;
        break;
    case MATCH_OUT_SEQ:
        x->durable_seq = o->seq;
        x->durable_numbered = o->count;
        break;
    case MATCH_OUT_PLY:
        x->plies++;
        trace(w, i, "ply %u %s %s %.16s", o->ply,
              o->side == CORE_WHITE ? "white" : "black", o->text, o->hex);
        break;
    case MATCH_OUT_NOTE:
    case MATCH_OUT_WARN:
        trace(w, i, "%s%s", o->kind == MATCH_OUT_WARN ? "warn: " : "",
              o->text);
        break;
    case MATCH_OUT_THINK: {
        Ev e;
        memset(&e, 0, sizeof e);
        e.at = w->now + rnd_in(w, 1, 400);
        e.type = EV_BOT;
        e.actor = i;
        e.seq = o->seq;
        e.epoch = x->epoch;
        push(w, e);
        break;
    }
    case MATCH_OUT_REFETCH: /* the seat's SEAT_OUT_CLOSE */
        break;
    case MATCH_OUT_DESYNC:
        x->desync = 1;
        break;
    case MATCH_OUT_RETRACT:
        x->plies -= o->ply;
        trace(w, i, "retracts %u envelopes, %u moves", o->count, o->ply);
        break;
    case MATCH_OUT_DONE:
        x->done = 1;
        trace(w, i, "done");
        close_conn(w, i);
        break;
    }
}

/* The seat's own outputs, as netgame.c carries them out. */
static void carry_out_seat(World *w, int i, const Seat_Out *o)
{
    Actor *x = &w->a[i];
    switch (o->kind) {
    case SEAT_OUT_MATCH:
        carry_out(w, i, &o->m);
        break;
    case SEAT_OUT_CONNECT:
        at_time(w, w->now, EV_CONNECT, i);
        break;
    case SEAT_OUT_CLOSE:
        trace(w, i, "refetch after %llu",
              (unsigned long long)match_last_seq(x->m));
        if (x->conn != 0) {
            close_conn(w, i);
            seat_closed(x->st, anow(x, w->now), 0);
        }
        break;
    case SEAT_OUT_UP:
        x->conn = 2;
        x->joined = 1;
        trace(w, i, "in the room%s", o->first ? "" : " again");
        break;
    case SEAT_OUT_LOST:
        trace(w, i, "lost the relay (attempt %u, next in %u ms)", o->attempt,
              (unsigned)o->wait_ms);
        break;
    case SEAT_OUT_PRESENCE:
        break;
    case SEAT_OUT_FAILED:
        fail(w, "%s's seat stopped (%s, %s): the game was lost to the "
                "network", role_names[i],
             o->failure == SEAT_FAIL_ADMISSION ? "never let in"
             : o->failure == SEAT_FAIL_ENDED   ? "refused for good"
                                               : "gave up",
             tb_strerror(o->reason));
        break;
    }
}

static void drain(World *w, int i)
{
    Actor *x = &w->a[i];
    Seat_Out o;
    while (x->alive && !w->rep->failed && seat_poll(x->st, &o)) {
        if (x->crash_in == 0) {
            crash(w, i); /* this output and the rest are lost */
            return;
        }
        if (x->crash_in > 0)
            x->crash_in--;
        carry_out_seat(w, i, &o);
    }
    if (x->alive) { /* as netgame.c keeps it, after the outputs */
        uint64_t now = anow(x, w->now);
        int64_t ran = match_turn_elapsed(x->m, now);
        if (ran >= 0 && (uint64_t)ran <= now)
            x->turn_wall = now - (uint64_t)ran;
    }
    if (x->alive && !x->done)
        schedule_tick(w, i);
}

static void start_actor(World *w, int i)
{
    Actor *x = &w->a[i];
    char why[200];
    Seat_Config sc;
    memset(&sc, 0, sizeof sc);
    sc.match = x->mc;
    sc.invite = w->invite;
    sc.watch = w->watch;
    if (x->role == MATCH_ROLE_SPECTATOR)
        memset(&sc.invite, 0, sizeof sc.invite);
    memcpy(sc.seat_secret, w->seat_secret[i], sizeof sc.seat_secret);
    sc.nodes = 1;
    sc.admitted = x->joined; /* taken back from its files */
    int rc = seat_new(&sc, &x->st);
    proto_wipe(&sc, sizeof sc);
    if (rc != 0) {
        fail(w, "%s: seat_new: %s", role_names[i], tb_strerror(rc));
        return;
    }
    x->m = seat_match(x->st);
    x->alive = 1;
    x->plies = 0;
    if (access(x->log_path, F_OK) == 0) {
        uint8_t *buf = NULL;
        size_t len = 0;
        rc = proto_read_file(x->log_path, &buf, &len);
        if (rc == 0)
            rc = match_resume(x->m, buf, len, x->durable_seq,
                              x->durable_numbered, why, sizeof why);
        free(buf);
        if (rc != 0) {
            fail(w, "%s: cannot resume from its log: %s", role_names[i],
                 tb_strerror(rc));
            return;
        }
        x->plies = match_moves(x->m);
        /* the turn in progress goes on (G-MC-6) */
        match_resume_turn(x->m, netstore_turn_elapsed(x->turn_wall,
                                                      anow(x, w->now)));
        trace(w, i, "resumed: %u envelopes, lobby seq %llu",
              match_frames(x->m), (unsigned long long)match_last_seq(x->m));
    }
    drain(w, i); /* the resumed session's outputs, the first CONNECT */
}

/* The seat asked for a connection: it is made at once (its loss is a
 * fault's) and the seat's hello goes first. */
static void connect_actor(World *w, int i)
{
    Actor *x = &w->a[i];
    uint8_t hello[LOBBY_WIRE_HELLO_MAX];
    if (!x->alive || x->done || x->conn != 0)
        return;
    x->epoch++;
    x->conn = 1;
    x->fifo_in = x->fifo_out = w->now;
    trace(w, i, "connects from %llu", (unsigned long long)match_last_seq(x->m));
    relay_join(w, i, hello, seat_hello(x->st, hello));
}

/* A message from the relay arrives: its bytes, as the relay sends them,
 * to the seat; one the seat refuses closes the connection. */
static void to_client_arrives(World *w, const Ev *e)
{
    Actor *x = &w->a[e->actor];
    uint8_t *m = w->msg;
    size_t len = 0;
    if (!x->alive || x->conn == 0 || e->epoch != x->epoch)
        return;
    uint64_t t = anow(x, w->now);
    switch (e->kind) {
    case MSG_WELCOME:
        trace(w, e->actor, "welcome first %llu next %llu",
              (unsigned long long)e->a, (unsigned long long)e->b);
        len = lobby_wire_welcome(m, x->role, w->a[0].mc.id.pk, e->a, e->b,
                                 (unsigned)(w->member_open[0] |
                                            w->member_open[1] << 1));
        break;
    case MSG_FRAME:
        len = lobby_wire_frame_header(m, e->seq, e->from);
        memcpy(m + len, e->data, e->len);
        len += e->len;
        break;
    case MSG_ACK:
        len = lobby_wire_ack(m, e->seq);
        break;
    case MSG_PRESENCE:
        len = lobby_wire_presence(m, (int)e->a, (int)e->b);
        break;
    case MSG_REFUSED:
        len = lobby_wire_refusal(m, -(int)e->a);
        break;
    }
    if (seat_input(x->st, t, m, len) != 0) { /* the relay closes, or we do */
        trace(w, e->actor, "refused: %s",
              tb_strerror(e->kind == MSG_REFUSED ? -(int)e->a : TB_E_FORMAT));
        close_conn(w, e->actor);
        seat_closed(x->st, t, 0);
    }
    drain(w, e->actor);
}

/* ---- the players ----------------------------------------------------- */

static int random_move(World *w, const Core_Position *pos, Core_Move *out)
{
    size_t cap = core_game_max_moves(core_position_game(pos)), n = 0;
    Core_Move *mv = malloc(cap * sizeof *mv);
    int rc = mv == NULL ? TB_E_NOMEM : core_moves(pos, mv, cap, &n);
    if (rc == 0 && n == 0)
        rc = TB_E_OVER;
    if (rc == 0)
        *out = mv[rnd(w) % n];
    free(mv);
    return rc;
}

/* A random mover's next line: mostly a move on its turn, now and then
 * every other command. */
static void user_acts(World *w, int i)
{
    Actor *x = &w->a[i];
    const Proto_Transcript *t = match_transcript(x->m);
    const Core_Position *pos = proto_transcript_position(t);
    char line[CORE_NOTATION_MAX];
    uint64_t now = anow(x, w->now);
    if (pos == NULL || x->conn != 2 ||
        proto_transcript_status(t).outcome != CORE_ONGOING)
        return;
    int side = match_side(x->m);
    int mine = core_side_to_move(pos) == side;
    unsigned r = (unsigned)(rnd(w) % 1000);
    const char *cmd = NULL;
    if (match_absence_left(x->m, now) == 0)
        cmd = r < 500 ? "claim win" : "claim draw";
    else if (r < 40)
        cmd = r < 20 ? "accept" : "decline";
    else if (!mine)
        return;
    else if (r < 70)
        cmd = "draw";
    else if (r < 90)
        cmd = r < 80 ? "takeback" : "takeback 1";
    else if (r < 92)
        cmd = "abort";
    else if (r < 92 + (core_ply(pos) > 150 ? 40u : 2u))
        cmd = "resign";
    if (cmd == NULL) {
        Core_Move mv;
        if (random_move(w, pos, &mv) != 0 ||
            core_move_format(pos, &mv, line, sizeof line) != 0)
            return;
        cmd = line;
    }
    trace(w, i, "types '%s'", cmd);
    match_command(x->m, now, cmd);
    drain(w, i);
}

static void bot_moves(World *w, const Ev *e)
{
    Actor *x = &w->a[e->actor];
    Core_Move mv;
    if (!x->alive || x->done || e->epoch != x->epoch)
        return;
    const Core_Position *pos = proto_transcript_position(match_transcript(x->m));
    if (pos == NULL || random_move(w, pos, &mv) != 0)
        return;
    match_bot_move(x->m, anow(x, w->now), e->seq, &mv);
    drain(w, e->actor);
}

/* ---- faults ---------------------------------------------------------- */

static int players_done(const World *w)
{
    return w->a[0].done || w->a[1].done;
}

/* Someone has seen the game end. A relay restart from then on could let
 * the re-made room order a last race anew after a spectator (or a
 * player) has already left with the first order (docs/session.md), so
 * the simulation restarts the relay only before. */
static int ended_somewhere(const World *w)
{
    for (int i = 0; i < w->nactors; i++) {
        const Actor *x = &w->a[i];
        if (x->done || x->saw_end ||
            (x->alive && proto_transcript_start(match_transcript(x->m)) &&
             proto_transcript_status(match_transcript(x->m)).outcome !=
                 CORE_ONGOING))
            return 1;
    }
    return 0;
}

/* A flag claim no honest seat would sign: the opponent of the side to
 * move claims at once, with 1 ms measured. */
static void cheat(World *w)
{
    Actor *x;
    int i = -1;
    for (int k = 0; k < 2; k++) {
        x = &w->a[k];
        if (!x->alive || x->conn != 2 || x->done)
            continue;
        const Core_Position *pos =
            proto_transcript_position(match_transcript(x->m));
        if (pos != NULL && core_side_to_move(pos) != match_side(x->m))
            i = k;
    }
    if (i < 0)
        return;
    x = &w->a[i];
    const Proto_Transcript *t = match_transcript(x->m);
    Proto_Message m;
    size_t len = 0;
    /* Only a claim the signed readings refute (G-MC-7): one they allow
     * would be a real claim its sender's own session never made. */
    int flagged = 1 - match_side(x->m);
    if (proto_transcript_clock(t, NULL) == 0 ||
        proto_transcript_clock_view(t, match_side(x->m), flagged) < 1000 ||
        proto_transcript_clock_view(t, flagged, flagged) < 1000)
        return;
    proto_message_init(&m, PROTO_KIND_FLAG, &x->mc.id);
    m.body.flag.ply = core_ply(proto_transcript_position(t));
    m.body.flag.elapsed = 1;
    proto_transcript_next(t, &m);
    if (proto_seal(&m, &x->mc.id, w->buf, PROTO_FRAME_PREFIX + PROTO_FRAME_MAX,
                   &len, NULL) != 0)
        return;
    w->rep->faults++;
    trace(w, i, "fault: a forged flag claim goes out");
    to_relay(w, i, w->buf + PROTO_FRAME_PREFIX, len - PROTO_FRAME_PREFIX, 1);
}

/* A seat started and not yet let in: a relay restart now would refuse
 * its first JOIN or WATCH for good (its code unknown to the re-made
 * relay), as it would a person who joined in that very second. */
static int first_contact(const World *w)
{
    for (int i = 0; i < w->nactors; i++)
        if (w->a[i].alive && !w->a[i].joined)
            return 1;
    return 0;
}

static void fault(World *w)
{
    unsigned f = w->cfg->faults;
    int kinds[4], n = 0;
    if (f & SIM_FAULT_DROP)
        kinds[n++] = 0;
    if (f & SIM_FAULT_CRASH)
        kinds[n++] = 1;
    if ((f & SIM_FAULT_RESTART) && !ended_somewhere(w))
        kinds[n++] = 2;
    if ((f & SIM_FAULT_CHEAT) && w->clocked)
        kinds[n++] = 3;
    if (n > 0 && w->now < SIM_LIMIT_MS / 2) {
        int k = kinds[rnd(w) % (uint64_t)n];
        int i = (int)rnd_in(w, 0, (uint64_t)w->nactors - 1);
        Actor *x = &w->a[i];
        /* (a connection that never reached the room is not dropped: a
         * seat's first one lost is "cannot reach the lobby", for good) */
        if (k == 0 && x->alive && x->conn != 0 && x->joined && !x->done) {
            w->rep->faults++;
            trace(w, i, "fault: connection dropped");
            close_conn(w, i);
            seat_closed(x->st, anow(x, w->now), SIM_RESET);
            drain(w, i);
        } else if (k == 1 && x->alive && !x->done && x->crash_in < 0) {
            x->crash_in = (int)rnd_in(w, 0, 6); /* between two outputs */
        } else if (k == 2 && w->room && !first_contact(w)) {
            w->rep->faults++;
            trace(w, -1, "fault: the relay restarts");
            relay_forget(w);
            for (int j = 0; j < w->nactors; j++) {
                Actor *y = &w->a[j];
                w->member_open[j] = 0;
                if (!y->alive || y->conn == 0 || y->done)
                    continue;
                y->conn = 0;
                y->epoch++;
                seat_closed(y->st, anow(y, w->now), SIM_RESET);
                drain(w, j);
            }
        } else if (k == 3) {
            cheat(w);
        }
    }
    if (!players_done(w))
        at_time(w, w->now + rnd_in(w, 2000, 30000), EV_FAULT, -1);
}

/* ---- setting up, running, checking ----------------------------------- */

static void setup(World *w)
{
    const Sim_Config *cfg = w->cfg;
    static const char *const clocks[] = {"clock=5+0", "clock=10+1",
                                         "clock=30+2", "clock=60+0"};
    static char options[32];
    int nspec = (int)rnd_in(w, 1, 3);
    uint8_t seat_key[32], match_id[PROTO_MATCH_ID_BYTES];
    for (size_t k = 0; k < sizeof match_id; k++)
        match_id[k] = (uint8_t)rnd(w);
    options[0] = '\0';
    if (chance(w, 400)) {
        snprintf(options, sizeof options, "%s", clocks[rnd(w) % 4]);
        w->clocked = 1;
    }
    w->nactors = 2 + nspec;
    for (int i = 0; i < w->nactors; i++) {
        Actor *x = &w->a[i];
        uint8_t seed[PROTO_KEY_BYTES];
        x->role = i < 2 ? i : MATCH_ROLE_SPECTATOR;
        x->crash_in = -1;
        x->mc.role = (Match_Role)x->role;
        for (size_t k = 0; k < sizeof seed; k++)
            seed[k] = (uint8_t)rnd(w);
        proto_identity_from_seed(&x->mc.id, seed);
        if (i == MATCH_ROLE_HOST) { /* its codes, from the seed */
            uint8_t a[LOBBY_CODE_SECRET_SYMBOLS], b[LOBBY_CODE_SECRET_SYMBOLS];
            for (size_t k = 0; k < sizeof a; k++) {
                a[k] = (uint8_t)rnd(w);
                b[k] = (uint8_t)rnd(w);
            }
            if (lobby_code_make(a, x->mc.id.pk, &w->invite) != 0 ||
                lobby_code_make(b, x->mc.id.pk, &w->watch) != 0 ||
                lobby_code_seat_key(&w->invite, seat_key) != 0)
                fail(w, "cannot make the codes");
        }
        for (size_t k = 0; k < LOBBY_SEAT_SECRET_BYTES; k++)
            w->seat_secret[i][k] = (uint8_t)rnd(w);
        memcpy(x->mc.seat_key, seat_key, sizeof seat_key);
        memcpy(x->mc.match_id, match_id, sizeof match_id);
        x->mc.started = 1700000000;
        if (i == MATCH_ROLE_HOST) {
            x->mc.game = cfg->game;
            x->mc.options = options;
        }
        if (i < 2) {
            x->mc.bot = chance(w, 400);
            x->mc.bot_delay_ms = x->mc.bot ? (uint32_t)rnd_in(w, 0, 300) : 0;
            x->mc.absence_ms = (uint32_t)rnd_in(w, 1000, 8000);
        }
        if (i != MATCH_ROLE_HOST)
            x->mc.plant = cfg->plant; /* one side: all but the host */
        if (cfg->faults & SIM_FAULT_SKEW) {
            x->skew_ppm = (int64_t)rnd_in(w, 0, 40000) - 20000;
            x->skew_off = (int64_t)rnd_in(w, 0, 5000);
        }
        snprintf(x->log_path, sizeof x->log_path, "%s/%s.log", cfg->dir,
                 role_names[i]);
        unlink(x->log_path);
        uint64_t join = i < 2 ? rnd_in(w, 0, 300)
                        : (cfg->faults & SIM_FAULT_LATE)
                            ? rnd_in(w, 0, SIM_LATE_MS)
                            : rnd_in(w, 0, 300);
        at_time(w, join, EV_RESTART, i); /* the first start */
        if (i < 2 && !x->mc.bot)
            at_time(w, join + rnd_in(w, 100, 1500), EV_USER, i);
    }
    trace(w, -1, "match: %s %s, %d spectators, host %s, guest %s",
          core_game_name(cfg->game), options, nspec,
          w->a[0].mc.bot ? "bot" : "random", w->a[1].mc.bot ? "bot" : "random");
    at_time(w, rnd_in(w, 300, 5000), EV_FAULT, -1);
}

static int all_done(const World *w)
{
    for (int i = 0; i < w->nactors; i++)
        if (!w->a[i].done)
            return 0;
    return 1;
}

static void step(World *w, Ev *e)
{
    Actor *x = e->actor >= 0 ? &w->a[e->actor] : NULL;
    switch (e->type) {
    case EV_RESTART:
        /* a joiner and a spectator learn the codes from a room that
         * exists (a first JOIN or WATCH the relay refuses ends the seat) */
        if (e->actor != MATCH_ROLE_HOST && !x->joined && !w->room)
            at_time(w, w->now + 100, EV_RESTART, e->actor);
        else if (!x->alive && !x->done)
            start_actor(w, e->actor);
        break;
    case EV_CONNECT:
        connect_actor(w, e->actor);
        break;
    case EV_TO_CLIENT:
        to_client_arrives(w, e);
        break;
    case EV_TO_RELAY:
        relay_data(w, e);
        break;
    case EV_TICK:
        if (x->alive && !x->done && e->seq == x->tick_gen) {
            seat_tick(x->st, anow(x, w->now));
            drain(w, e->actor);
        }
        break;
    case EV_USER:
        if (x->done)
            break;
        if (x->alive)
            user_acts(w, e->actor);
        at_time(w, w->now + rnd_in(w, 100, 1500), EV_USER, e->actor);
        break;
    case EV_BOT:
        bot_moves(w, e);
        break;
    case EV_FAULT:
        fault(w);
        break;
    }
}

typedef struct Visit {
    uint32_t moves;
} Visit;

static void visit(void *ctx, const Proto_Transcript *t, const Proto_Envelope *e)
{
    (void)t;
    if (e->msg.kind == PROTO_KIND_MOVE)
        ((Visit *)ctx)->moves++;
}

static void check(World *w)
{
    const Match_Result *r0 = match_result(w->a[0].m);
    uint8_t c0[PROTO_HASH_BYTES];
    /* the first log verified, kept: a log with the same bytes verifies
     * the same (the logs of a game are byte-identical, G-PR-1) */
    uint8_t *first = NULL;
    size_t first_len = 0;
    Visit first_v = {0};
    proto_transcript_chain(match_transcript(w->a[0].m), c0);
    w->rep->status = r0->status;
    w->rep->plies = r0->plies;
    w->rep->envelopes = proto_transcript_count(match_transcript(w->a[0].m));
    for (int i = 0; i < w->nactors && !w->rep->failed; i++) {
        Actor *x = &w->a[i];
        const Match_Result *r = match_result(x->m);
        uint8_t c[PROTO_HASH_BYTES];
        if (x->desync || r->desync) {
            fail(w, "%s reports a desync at ply %u, but every seat played "
                    "by the rules", role_names[i], r->desync_ply);
            break;
        }
        if (r->status.outcome != r0->status.outcome ||
            r->status.reason != r0->status.reason ||
            strcmp(r->final_hash, r0->final_hash) != 0) {
            fail(w, "%s ends %s (%s) %.16s, the host %s (%s) %.16s",
                 role_names[i], core_outcome_name(r->status.outcome),
                 core_reason_name(r->status.reason), r->final_hash,
                 core_outcome_name(r0->status.outcome),
                 core_reason_name(r0->status.reason), r0->final_hash);
            break;
        }
        proto_transcript_chain(match_transcript(x->m), c);
        if (memcmp(c, c0, sizeof c) != 0) {
            fail(w, "%s holds another transcript than the host (%u and %u "
                    "envelopes)", role_names[i],
                 proto_transcript_count(match_transcript(x->m)),
                 w->rep->envelopes);
            break;
        }
        uint8_t *buf = NULL;
        size_t len = 0;
        Proto_Log_Report rep;
        Visit v = {0};
        int rc = proto_read_file(x->log_path, &buf, &len);
        if (rc == 0 && first != NULL && len == first_len &&
            memcmp(buf, first, len) == 0) {
            free(buf);
            v = first_v;
        } else {
            if (rc == 0)
                rc = proto_log_verify(buf, len, NULL, visit, &v, NULL, &rep);
            if (rc != 0 || !rep.ended) {
                free(buf);
                free(first);
                fail(w, "%s's log does not verify: %s", role_names[i],
                     rc != 0 ? rep.why : "no end record");
                return;
            }
            if (rep.envelopes != w->rep->envelopes) {
                free(buf);
                free(first);
                fail(w, "%s's log holds %u envelopes, the match %u",
                     role_names[i], rep.envelopes, w->rep->envelopes);
                return;
            }
            if (first == NULL) {
                first = buf;
                first_len = len;
                first_v = v;
            } else {
                free(buf);
            }
        }
        if (x->plies != v.moves) {
            fail(w, "%s applied %u moves, its log holds %u (a ply %s)",
                 role_names[i], x->plies, v.moves,
                 x->plies > v.moves ? "applied twice" : "lost");
            break;
        }
    }
    free(first);
}

int simworld_run(const Sim_Config *cfg, Sim_Report *rep)
{
    World *w = calloc(1, sizeof *w);
    int rc = 0;
    memset(rep, 0, sizeof *rep);
    if (w == NULL ||
        (w->buf = malloc(PROTO_FRAME_PREFIX + PROTO_FRAME_MAX)) == NULL ||
        (w->msg = malloc(LOBBY_WIRE_FRAME_HEADER + PROTO_FRAME_PREFIX +
                         PROTO_FRAME_MAX)) == NULL) {
        if (w != NULL)
            free(w->buf);
        free(w);
        return TB_E_NOMEM;
    }
    w->cfg = cfg;
    w->rep = rep;
    w->rng = cfg->seed ^ 0x5eedf00dull;
    setup(w);
    while (w->nheap > 0 && !rep->failed && !all_done(w)) {
        Ev e = pop(w);
        w->now = e.at;
        if (w->now > SIM_LIMIT_MS || ++w->events > SIM_EVENTS_MAX) {
            fail(w, "the match did not end within %llu simulated ms and %d "
                    "events (a deadlock or a stalled seat)",
                 (unsigned long long)SIM_LIMIT_MS, SIM_EVENTS_MAX);
            free(e.data);
            break;
        }
        step(w, &e);
        free(e.data);
    }
    rep->sim_ms = w->now;
    if (!rep->failed && !all_done(w))
        fail(w, "nothing left to happen but not every seat is done "
                "(a deadlock)");
    if (!rep->failed)
        check(w);
    for (size_t k = 0; k < w->nheap; k++)
        free(w->heap[k].data);
    free(w->heap);
    relay_forget(w);
    free(w->kept);
    for (int i = 0; i < w->nactors; i++) {
        seat_free(w->a[i].st);
        proto_log_close(w->a[i].log);
        proto_identity_wipe(&w->a[i].mc.id);
        unlink(w->a[i].log_path);
    }
    free(w->buf);
    free(w->msg);
    rep->trace = w->trace;
    free(w);
    return rc;
}
