/*
 * seat.c: one seat of a network game without I/O (seat.h): the match
 * session, the lobby's messages and the connection's policy in one
 * object, so the terminal and the page drive the same decisions: when to
 * connect and to which node, when to try again, which refusal ends the
 * seat, when to give up, how a move goes out as a DATA message. The
 * waits and the refusals are policy.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "seat.h"
#include "tb_error.h"

/* Seat events waiting for seat_poll, ahead of the session's outputs. */
#define SEAT_QUEUE 8

struct Seat {
    Match *m;
    Lobby_Wire *wire;
    Lobby_Wire *look;     /* a refused joiner's look as a spectator */
    int looking;          /* its connection is the one asked for */
    int looked;           /* the look was made */
    int look_says;        /* its answer: TB_E_SIGNATURE or TB_E_SEAT */
    Lobby_Code invite;    /* the code the joiner typed */
    int role;
    unsigned nodes, node; /* nodes known, the one in use or asked for */
    unsigned untried;     /* nodes not yet tried before the first welcome */
    int admitted;         /* let in before (config) or now (a welcome) */
    int welcomed;         /* this object was let in at least once */
    int connecting;       /* a connection was asked for and not closed */
    int up;               /* and the relay let us in on it, at up_at, */
    uint64_t up_at;
    uint64_t up_seq;      /* holding every frame up to up_seq then */
    int awaiting;         /* a hello went, at hello_at; no welcome yet */
    uint64_t hello_at;
    int timed_out;        /* closed for want of a welcome (SEAT_WELCOME_MS),
                             or for the relay's silence */
    uint64_t heard_at;    /* the relay's last message on this connection */
    int refetch;          /* our own close, to ask again for lost frames */
    int refetched;        /* a refetch was made, at refetch_at */
    uint64_t refetch_at;
    int refusal;          /* the relay's ERROR on this connection */
    int input_error;      /* or a message the seat refused on it */
    int lost;             /* a run of failed attempts is on */
    int refusing;          /* refusals that pass, in a row, */
    uint64_t refused_since; /* since then */
    unsigned attempts;    /* failed attempts in the run */
    uint64_t connect_at;  /* UINT64_MAX: no connection waits */
    uint64_t room_next;   /* the room's next number at the welcome */
    int stopped;
    Seat_Out queue[SEAT_QUEUE];
    size_t head, count;
    uint8_t *msg; /* a DATA message being built */
    size_t msg_cap;
    uint8_t seek[LOBBY_WIRE_SEEK_MAX]; /* a host's SEEK (seek_len 0: none) */
    size_t seek_len;
    int kept; /* a KEEP went on this connection */
    uint8_t keep[LOBBY_WIRE_KEEP_LEN];
};

/* 1 when pk (LOBBY_KEY_BYTES) is all zero: no key. */
static int no_key(const uint8_t *pk)
{
    uint8_t d = 0;
    for (size_t i = 0; i < LOBBY_KEY_BYTES; i++)
        d |= pk[i];
    return d == 0;
}

/* A seat event for seat_poll (the queue holds what one call makes). */
static Seat_Out *push(Seat *s, Seat_Out_Kind kind)
{
    static Seat_Out spare; /* never read: the queue is never full */
    if (s->count == SEAT_QUEUE)
        return &spare;
    Seat_Out *o = &s->queue[(s->head + s->count++) % SEAT_QUEUE];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    return o;
}

static void ask_connect(Seat *s, uint64_t now, uint32_t wait)
{
    s->connect_at = now + wait;
    if (wait == 0)
        seat_tick(s, now);
}

int seat_new(const Seat_Config *cfg, Seat **out)
{
    Lobby_Wire_Config wc;
    Seat *s;
    int rc;

    if (out == NULL)
        return TB_E_ARG;
    *out = NULL;
    if (cfg == NULL || (unsigned)cfg->match.role > MATCH_ROLE_SPECTATOR ||
        cfg->nodes == 0 || cfg->nodes > SEAT_NODES_MAX)
        return TB_E_ARG;
    if ((s = calloc(1, sizeof *s)) == NULL)
        return TB_E_NOMEM;
    s->role = (int)cfg->match.role;
    s->nodes = cfg->nodes;
    s->untried = cfg->nodes - 1;
    s->admitted = cfg->admitted != 0;
    s->connect_at = UINT64_MAX;
    memset(&wc, 0, sizeof wc);
    wc.role = (Lobby_Role)cfg->match.role;
    wc.invite = cfg->invite;
    s->invite = cfg->invite;
    wc.watch = cfg->watch;
    memcpy(wc.host_pk, cfg->match.id.pk, sizeof wc.host_pk);
    memcpy(wc.seat_secret, cfg->seat_secret, sizeof wc.seat_secret);
    wc.id = cfg->match.id; /* (each hello proves the player's key) */
    memcpy(wc.guest_pk, cfg->guest_pk, sizeof wc.guest_pk);
    /* A seat plays through a relay that witnesses time and presence
     * (lobby protocol 2): its clocks and claims are the receipts'. */
    Match_Config mc = cfg->match;
    mc.witnessed = 1;
    rc = match_new(&mc, &s->m);
    if (rc == 0)
        rc = lobby_wire_new(&wc, 0, &s->wire);
    proto_wipe(&wc, sizeof wc);
    proto_wipe(&mc, sizeof mc);
    if (rc != 0) {
        seat_free(s);
        return rc;
    }
    if (cfg->seek_len > 0 && s->role == MATCH_ROLE_HOST &&
        (s->seek_len = lobby_wire_seek(s->seek, cfg->seek, cfg->seek_len)) ==
            0) {
        seat_free(s);
        return TB_E_ARG;
    }
    s->connecting = 1;
    push(s, SEAT_OUT_CONNECT)->node = 0;
    *out = s;
    return 0;
}

void seat_free(Seat *s)
{
    if (s == NULL)
        return;
    match_free(s->m);
    lobby_wire_free(s->wire);
    lobby_wire_free(s->look);
    free(s->msg);
    free(s);
}

Match *seat_match(Seat *s)
{
    return s->m;
}
int seat_stopped(const Seat *s)
{
    return s->stopped || match_done(s->m);
}

int seat_caught_up(const Seat *s)
{
    return s->up && lobby_wire_admitted(s->wire) &&
           match_last_seq(s->m) + 1 >= s->room_next;
}

size_t seat_hello(Seat *s, uint64_t now, uint8_t out[LOBBY_WIRE_HELLO_MAX])
{
    s->refusal = 0;
    s->input_error = 0;
    s->awaiting = 1;
    s->hello_at = now;
    if (s->looking)
        return lobby_wire_hello(s->look, 0, out);
    const Proto_Message *st = proto_transcript_start(match_transcript(s->m));
    if (s->role == MATCH_ROLE_HOST && st != NULL)
        /* a match under way: its room seats only its guest (a stranger
         * holding the code cannot take the seat of a re-made room) */
        lobby_wire_name_guest(s->wire, st->body.start.black);
    return lobby_wire_hello(s->wire, match_last_seq(s->m), out);
}

/* A message on the look's connection: its WELCOME's host key against the
 * code's fingerprint (lobby_wire_read checks it) is the answer; the
 * connection then closes (nonzero). */
static int look_input(Seat *s, const uint8_t *msg, size_t len)
{
    Lobby_Wire_Event ev;
    int rc = lobby_wire_read(s->look, msg, len, &ev);
    if (rc == TB_E_SIGNATURE) {
        s->look_says = TB_E_SIGNATURE;
        return rc;
    }
    if (rc == 0 && ev.kind == LOBBY_WIRE_NONE)
        return 0;
    return TB_E_SEAT; /* let in with the right key, refused, or garbled */
}

/* A host's seek (if it has one) on the list again: its SEEK to send. */
static void seek_up(Seat *s)
{
    if (s->seek_len > 0) {
        Seat_Out *so = push(s, SEAT_OUT_SEND);
        so->data = s->seek;
        so->len = s->seek_len;
    }
}

int seat_input(Seat *s, uint64_t now, const uint8_t *msg, size_t len)
{
    Lobby_Wire_Event ev;
    if (s->looking)
        return look_input(s, msg, len);
    int rc = lobby_wire_read(s->wire, msg, len, &ev);
    if (rc != 0) {
        s->input_error = rc;
        return rc;
    }
    s->heard_at = now; /* (a BEAT says only this) */
    switch (ev.kind) {
    case LOBBY_WIRE_WELCOME: {
        Seat_Out *o = push(s, SEAT_OUT_UP);
        o->first = !s->welcomed;
        o->host_present = ev.welcome.host_present;
        o->guest_present = ev.welcome.guest_present;
        s->welcomed = s->admitted = 1;
        s->kept = 0; /* a node that restarted forgot it */
        s->refusing = 0; /* let in: no refusals in a row */
        s->up = 1;
        s->up_at = now;
        s->awaiting = 0;
        s->untried = 0;
        /* (the run of failed attempts, if one is on, ends only once the
         * connection has lasted: a relay that lets us in and drops us at
         * once must not reset the waits and the give-up) */
        s->room_next = ev.welcome.next_seq;
        match_room_guest(s->m, ev.welcome.guest_pk);
        match_welcome(s->m, now, ev.welcome.host_pk, ev.welcome.first_seq,
                      ev.welcome.next_seq, ev.welcome.host_present,
                      ev.welcome.guest_present);
        match_relay(s->m, now, ev.welcome.relay_pk, ev.welcome.relay_time);
        s->up_seq = match_last_seq(s->m);
        /* a seek while no guest holds the seat: each time, as a relay
         * that lost the room lost its place on the list too */
        if (!ev.welcome.guest_present && no_key(ev.welcome.guest_pk))
            seek_up(s);
        break;
    }
    case LOBBY_WIRE_SEEKED:
        push(s, SEAT_OUT_SEEKED)->reason = ev.reason;
        break;
    case LOBBY_WIRE_FRAME:
        match_frame_witnessed(s->m, now, ev.seq, (int)ev.from, ev.data,
                              ev.len, &ev.receipt);
        break;
    case LOBBY_WIRE_ACK:
        match_acked_witnessed(s->m, now, ev.seq, &ev.receipt);
        break;
    case LOBBY_WIRE_PRESENCE:
        if ((int)ev.seat != s->role) {
            Seat_Out *o = push(s, SEAT_OUT_PRESENCE);
            o->who = (int)ev.seat;
            o->present = ev.present;
        }
        match_room_guest(s->m, ev.guest_pk);
        match_presence_witnessed(s->m, now, (int)ev.seat, ev.present,
                                 &ev.receipt);
        /* a guest that gave the seat back before it spoke (a joiner who
         * only looked) took the seek with it: up again */
        if (ev.seat == LOBBY_ROLE_GUEST && !ev.present && no_key(ev.guest_pk))
            seek_up(s);
        break;
    case LOBBY_WIRE_REFUSED:
        s->refusal = ev.reason;
        return ev.reason;
    case LOBBY_WIRE_NONE:
        break;
    }
    return 0;
}

static void fail(Seat *s, Seat_Failure why, int reason, int refused)
{
    Seat_Out *o = push(s, SEAT_OUT_FAILED);
    o->failure = why;
    o->reason = reason;
    o->refused = refused;
    s->stopped = 1;
    s->connect_at = UINT64_MAX;
}

/*
 * A joiner refused with SEAT found a room by the code's first twelve
 * symbols (the lookup) but not its last group, which only the host's key
 * checks and the relay never sees: the code may be mistyped there, or the
 * game really has its guest. It looks once more, as a spectator with the
 * same code, which the relay admits with the host's key: a key the last
 * group does not fingerprint means a mistyped code (TB_E_SIGNATURE), else
 * the seat is taken (TB_E_SEAT). The terminal, the page and the
 * simulator all make this look through their seat.
 */
static int start_look(Seat *s)
{
    Lobby_Wire_Config wc;
    int rc;
    memset(&wc, 0, sizeof wc);
    wc.role = LOBBY_ROLE_SPECTATOR;
    wc.invite = s->invite;
    rc = lobby_wire_new(&wc, 0, &s->look);
    if (rc != 0)
        return rc;
    s->looked = s->looking = 1;
    s->look_says = TB_E_SEAT;
    return 0;
}

void seat_closed(Seat *s, uint64_t now, int reason)
{
    int refusal = s->refusal, input_error = s->input_error;
    /* A connection that lasted, or on which the game went on (a frame or
     * an ACK the seat had not had): the run of failures is over. */
    int was_up = s->up,
        stable = s->up && (now - s->up_at >= SEAT_STABLE_MS ||
                           match_last_seq(s->m) > s->up_seq);
    if (!s->connecting)
        return; /* a second report of one close */
    s->connecting = 0;
    s->up = 0;
    s->awaiting = 0;
    s->refusal = s->input_error = 0;
    lobby_wire_closed(s->wire);
    if (s->looking) { /* the look ended: its answer is the seat's */
        s->looking = 0;
        s->timed_out = 0;
        fail(s, SEAT_FAIL_ADMISSION, s->look_says, 1);
        return;
    }
    if (seat_stopped(s))
        return;
    if (s->timed_out) { /* no welcome in time: as a connection that failed */
        s->timed_out = 0;
        reason = -ETIMEDOUT;
    }
    if (stable) /* the last connection lasted: a new run begins */
        s->lost = 0;
    if (s->refetch) { /* our own close, to ask again for lost frames */
        int again = s->refetched && now - s->refetch_at < SEAT_STABLE_MS;
        s->refetch = 0;
        s->refetched = 1;
        s->refetch_at = now;
        if (!again) {
            match_disconnected(s->m, now);
            ask_connect(s, now, 0);
            return;
        }
        /* frames lost again within SEAT_STABLE_MS: a failed attempt (a
         * relay that moves its numbers on each time still gains the seat
         * nothing) */
        reason = 0;
    }
    if (refusal != 0)
        reason = refusal;
    else if (input_error != 0)
        reason = input_error;
    /* A node that cannot be reached, answers as no relay does (a
     * message the seat refused) or refuses for now (full, the seat held,
     * no room yet: a node's own state, or a broken node) is left for the
     * next; a refusal that ends the seat is every node's word. */
    if ((refusal == 0 || !seat_refusal_ends(refusal)) && s->nodes > 1)
        s->node = (s->node + 1) % s->nodes;
    if (!s->admitted) {
        if (refusal == 0 && s->untried > 0) {
            s->untried--;
            ask_connect(s, now, 0);
            return;
        }
        if (refusal == TB_E_SEAT && s->role == MATCH_ROLE_GUEST &&
            !s->looked && start_look(s) == 0) {
            ask_connect(s, now, 0);
            return;
        }
        fail(s, SEAT_FAIL_ADMISSION, reason, refusal != 0 || input_error != 0);
        return;
    }
    if (refusal != 0 && seat_refusal_ends(refusal)) {
        fail(s, SEAT_FAIL_ENDED, refusal, 1);
        return;
    }
    int first = !s->lost;
    if (first) {
        s->lost = 1;
        s->attempts = 0;
    }
    /* A relay that refuses for a minute is given up (it is there and
     * says no); one that is away is tried again for ever: the game is
     * not the network's to end. The run's clock restarts when the relay
     * stops refusing, so only refusals in a row count. */
    if (refusal == 0 || refusal == TB_E_FULL) {
        /* (FULL: the relay's store or rooms are full, a relay-side
         * fault, which never ends a game: tried for ever, as an absent
         * relay is; the fair-play issue, Redis out of memory) */
        s->refusing = 0;
    } else if (!s->refusing) {
        s->refusing = 1;
        s->refused_since = now;
    } else if (now - s->refused_since > SEAT_GIVE_UP_MS) {
        fail(s, SEAT_FAIL_GAVE_UP, reason, 1);
        return;
    }
    uint32_t wait = seat_retry_ms(s->role, reason, s->attempts++);
    Seat_Out *o = push(s, SEAT_OUT_LOST);
    o->first = first || was_up;
    o->before_room = !s->welcomed && reason == TB_E_CODE;
    o->reason = reason;
    o->attempt = s->attempts;
    o->wait_ms = wait;
    match_disconnected(s->m, now);
    ask_connect(s, now, wait);
}

void seat_tick(Seat *s, uint64_t now)
{
    if (s->connect_at <= now && !seat_stopped(s)) {
        s->connect_at = UINT64_MAX;
        s->connecting = 1;
        s->refusal = s->input_error = 0;
        /* (the welcome's deadline runs from here: a node that drops the
         * connection's first packets must not hold the seat for the
         * system's two minutes of connect timeout) */
        s->awaiting = 1;
        s->hello_at = now;
        push(s, SEAT_OUT_CONNECT)->node = s->node;
    }
    if (s->awaiting && now - s->hello_at >= SEAT_WELCOME_MS &&
        !seat_stopped(s)) {
        /* a relay that answers nothing (or only its heartbeats): close,
         * and the close counts as a connection that failed */
        s->awaiting = 0;
        s->timed_out = 1;
        push(s, SEAT_OUT_CLOSE);
    }
    if (s->up && now - s->heard_at >= LOBBY_WIRE_SILENT_MS &&
        !seat_stopped(s) && !s->timed_out) {
        /* a relay that was there and went silent (hung, or its link):
         * as a connection that failed, tried again at once */
        s->timed_out = 1;
        push(s, SEAT_OUT_CLOSE);
    }
    match_tick(s->m, now);
}

uint64_t seat_deadline(const Seat *s)
{
    uint64_t at = match_deadline(s->m);
    if (s->connect_at < at)
        at = s->connect_at;
    if (s->awaiting && !seat_stopped(s) && s->hello_at + SEAT_WELCOME_MS < at)
        at = s->hello_at + SEAT_WELCOME_MS;
    if (s->up && !s->timed_out && !seat_stopped(s) &&
        s->heard_at + LOBBY_WIRE_SILENT_MS < at)
        at = s->heard_at + LOBBY_WIRE_SILENT_MS;
    return at;
}

/* A DATA message around the envelope of o; 0 when the seat is not in its
 * room (the session sends it again on the welcome) or out of memory. */
static int data_message(Seat *s, Match_Out *o)
{
    size_t need = LOBBY_WIRE_DATA_HEADER + o->len;
    if (!s->connecting ||
        lobby_wire_data_check(s->wire, o->len, LOBBY_WIRE_PAYLOAD_MAX) != 0)
        return 0;
    if (need > s->msg_cap) {
        uint8_t *p = realloc(s->msg, need);
        if (p == NULL)
            return 0;
        s->msg = p;
        s->msg_cap = need;
    }
    s->msg[0] = LOBBY_WIRE_DATA_TYPE;
    memcpy(s->msg + 1, o->data, o->len);
    o->data = s->msg;
    o->len = need;
    return 1;
}

uint32_t seat_keep_seconds(const Proto_Clock *c)
{
    if (c == NULL || c->kind != PROTO_CLOCK_DAYS)
        return 0;
    return (uint32_t)(2u * (c->base_ms / 1000u));
}

/* A correspondence game's room kept while both players are offline: its
 * KEEP, once on each connection that is in its room, as soon as the
 * seat knows the clock (the host from the start, the guest once it came). */
static void keep_up(Seat *s)
{
    const Proto_Transcript *t;
    uint32_t secs;
    if (s->kept || !s->up || s->role == MATCH_ROLE_SPECTATOR ||
        (t = match_transcript(s->m)) == NULL ||
        (secs = seat_keep_seconds(proto_transcript_clock(t))) == 0)
        return;
    s->kept = 1;
    lobby_wire_keep(s->keep, secs);
    Seat_Out *so = push(s, SEAT_OUT_SEND);
    so->data = s->keep;
    so->len = sizeof s->keep;
}

int seat_poll(Seat *s, Seat_Out *out)
{
    keep_up(s);
    if (s->count > 0) {
        *out = s->queue[s->head];
        s->head = (s->head + 1) % SEAT_QUEUE;
        s->count--;
        return 1;
    }
    while (match_poll(s->m, &out->m)) {
        Match_Out *o = &out->m;
        if (o->kind == MATCH_OUT_SEND && !data_message(s, o))
            continue;
        if (o->kind == MATCH_OUT_REFETCH) {
            /* Frames were lost on the way: ask again from the resume
             * point, once, on a connection that is in its room. */
            if (s->refetch || !s->connecting || !lobby_wire_admitted(s->wire))
                continue;
            s->refetch = 1;
            out->kind = SEAT_OUT_CLOSE;
            return 1;
        }
        if (o->kind == MATCH_OUT_DONE) {
            s->connect_at = UINT64_MAX;
            if (s->role != MATCH_ROLE_SPECTATOR && s->connecting &&
                lobby_wire_admitted(s->wire)) {
                /* the relay is told first (lobby_wire.h): the room no
                 * longer holds its creator's share */
                static const uint8_t done_msg[1] = {LOBBY_WIRE_DONE_TYPE};
                Seat_Out *later = push(s, SEAT_OUT_MATCH);
                later->m = *o;
                memset(&out->m, 0, sizeof out->m);
                out->m.kind = MATCH_OUT_SEND;
                out->m.data = done_msg;
                out->m.len = sizeof done_msg;
            }
        }
        out->kind = SEAT_OUT_MATCH;
        return 1;
    }
    return 0;
}
