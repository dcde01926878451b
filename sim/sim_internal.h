/*
 * sim_internal.h: what the simulator's files share (sim.h): the world of
 * one match and the functions each concern offers the others. sched.c:
 * the seeded randomness, the trace, the event queue and each actor's
 * clock; relay.c: the connections and the model of the lobby relay;
 * actor.c: the seats and their drivers' duties, the players; fault.c:
 * the faults; sim.c: setting a match up, running it, checking it. Never
 * included from another folder's file.
 */
#ifndef TABULA_SIM_INTERNAL_H
#define TABULA_SIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lobby_wire.h"
#include "match.h"
#include "seat.h"
#include "sim.h"

#define SIM_ACTORS_MAX 5
#define SIM_LIMIT_MS (4ull * 3600 * 1000) /* a match must end before */
#define SIM_EVENTS_MAX 3000000
#define SIM_LATE_MS 120000 /* a late spectator joins within this */

enum {
    EV_CONNECT,
    EV_TO_CLIENT,
    EV_TO_RELAY,
    EV_TICK,
    EV_USER,
    EV_BOT,
    EV_FAULT,
    EV_RESTART
};
enum { MSG_WELCOME, MSG_FRAME, MSG_ACK, MSG_PRESENCE, MSG_REFUSED };

/* A connection reset, as the transport reports it (ECONNRESET). */
#define SIM_RESET (-104)

/* One event of the queue: its time, its kind (EV_*) and actor, and for a
 * message its kind (MSG_*), the connection's epoch and its fields. */
typedef struct Ev {
    uint64_t at, order;
    int type, actor, kind, from;
    uint32_t epoch;
    uint64_t seq, a, b;
    uint8_t *data;
    size_t len;
} Ev;

/* A frame the relay keeps, numbered. */
typedef struct Kept {
    uint64_t seq;
    int from;
    uint8_t *data;
    size_t len;
} Kept;

/* A host, guest or spectator: its seat and what its driver keeps. */
typedef struct Actor {
    int role, alive, done, joined, desync, saw_end;
    Seat *st;
    Match *m; /* the seat's session */
    Match_Config mc;
    uint32_t epoch;
    int conn; /* 0 closed, 1 waiting for the welcome, 2 open */
    uint64_t fifo_in, fifo_out;
    Proto_Log *log; /* its match log, in memory: what a file would hold */
    uint64_t durable_seq;
    uint32_t durable_numbered;
    uint64_t turn_wall; /* kept like FILE.seq's turn line: the actor's
                           clock when the turn in progress began */
    int64_t skew_ppm, skew_off;
    uint64_t tick_gen;
    uint32_t plies; /* PLY outputs, plus the moves held at a resume */
    int crash_in;   /* crash before this many more outputs (-1: none) */
} Actor;

/* The whole match: actors, the relay, the queue, the trace. */
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

/* ---- sched.c ---- */
extern const char *const sim__role_names[];
/* The seeded stream (splitmix64); a number in lo..hi; 1 with
 * probability per_mille/1000. */
uint64_t sim__rnd(World *w);
uint64_t sim__rnd_in(World *w, uint64_t lo, uint64_t hi);
int sim__chance(World *w, unsigned per_mille);
/* A line of the trace (actor -1: the relay), when it is kept. */
void sim__trace(World *w, int actor, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The match fails (the first reason is kept). */
void sim__fail(World *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The event queue: by time, then by insertion. */
int sim__push(World *w, Ev e);
Ev sim__pop(World *w);
void sim__at_time(World *w, uint64_t at, int type, int actor);
/* World time t on actor x's clock; the first world time it reads d. */
uint64_t sim__anow(const Actor *x, uint64_t t);
uint64_t sim__world_time(const World *w, const Actor *x, uint64_t d);

/* ---- relay.c ---- */
/* A message from the relay to actor i on its connection; a frame from
 * actor i to the relay (forged: not its session's). */
void sim__to_client(World *w, int i, int kind, uint64_t seq, uint64_t a,
                    uint64_t b, int from, const uint8_t *data, size_t len);
void sim__to_relay(World *w, int i, const uint8_t *data, size_t len,
                   int forged);
/* The relay closes member i; forgets its room (a restart); takes member
 * i's hello; numbers and relays a frame. */
void sim__member_close(World *w, int i);
void sim__relay_forget(World *w);
void sim__relay_join(World *w, int i, const uint8_t *hello, size_t len);
void sim__relay_data(World *w, const Ev *e);

/* ---- actor.c ---- */
/* Carry out actor i's seat outputs; close its connection; start it (or
 * take it back from its log); connect it; a message arrives; a player or
 * a bot acts. */
void sim__drain(World *w, int i);
void sim__close_conn(World *w, int i);
void sim__start_actor(World *w, int i);
void sim__connect_actor(World *w, int i);
void sim__to_client_arrives(World *w, const Ev *e);
void sim__user_acts(World *w, int i);
void sim__bot_moves(World *w, const Ev *e);

/* ---- fault.c ---- */
/* The next fault, drawn from the seed. */
void sim__fault(World *w);

#endif /* TABULA_SIM_INTERNAL_H */
