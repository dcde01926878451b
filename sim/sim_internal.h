/*
 * sim_internal.h: what the simulator's files share (sim.h): the world of
 * one match and the functions each concern offers the others. sched.c:
 * the seeded randomness, the trace, the event queue and each actor's
 * clock; relay.c: the connections and the relay (the lobby's own rooms,
 * lobby/room.h);
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
#include "room.h"
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
    EV_RESTART,
    EV_RELAY_CLOSED, /* the relay's close of a link arrives */
    EV_SWEEP         /* the relay's housekeeping, every 250 ms */
};
#define SIM_SWEEP_MS 250

/* A connection reset, as the transport reports it (ECONNRESET). */
#define SIM_RESET (-104)

/* One event of the queue: its time, its kind (EV_*) and actor, and for a
 * message the connection's epoch, its bytes, and kind 1 for a forged
 * frame. */
typedef struct Ev {
    uint64_t at, order;
    int type, actor, kind;
    uint32_t epoch;
    uint64_t seq;
    uint8_t *data;
    size_t len;
} Ev;

struct World;

/* The relay's end of actor's connection of epoch: how the rooms reach
 * the member, and the faults planted on it. */
typedef struct Sim_Link {
    struct World *w;
    int actor;
    uint32_t epoch;
    int closing;       /* the relay closed it */
    int swallow_ack;   /* the next ACK is a forged frame's */
    int gap_armed;     /* the next WELCOME's catch-up loses a frame */
    uint64_t gap_skip; /* that frame: the n-th FRAME from here (0: none) */
    uint64_t ask;      /* the frame its hello asks after */
} Sim_Link;

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
    uint64_t back_at; /* correspondence: away until then (0: here) */
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
    /* the relay: the lobby's rooms, each actor's member and link */
    Lobby_Rooms *rooms;
    Lobby_Member *member[SIM_ACTORS_MAX];
    Sim_Link link[SIM_ACTORS_MAX];
    int clocked;
    uint64_t away_since; /* correspondence: both players away since
                            (0: one is here) */
    Lobby_Code invite, watch;
    uint8_t seat_secret[SIM_ACTORS_MAX][LOBBY_SEAT_SECRET_BYTES];
    uint8_t *buf; /* a frame */
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
/* A message (a lobby message's bytes) from actor i to the relay (forged:
 * a frame its session never made). */
void sim__to_relay(World *w, int i, const uint8_t *msg, size_t len, int forged);
/* The relay starts (0, or TB_E_NOMEM); stops; restarts, forgetting every
 * room and member; has the match's room. */
int sim__relay_start(World *w);
/* The relay's receipt key for the match of seed (the same at every
 * restart; its receipt clock is the world's time, ms): 0, or
 * TB_E_CRYPTO. */
int sim__relay_key(uint64_t seed, Proto_Identity *out);
void sim__relay_stop(World *w);
void sim__relay_forget(World *w);
int sim__relay_has_room(const World *w);
/* Actor i's new connection, its hello (the dup fault may rewrite it)
 * going first; actor i closed its connection; a message reaches the
 * relay; the relay's close reaches the actor; the relay's sweep. */
void sim__relay_connect(World *w, int i, uint8_t *hello, size_t len);
void sim__member_close(World *w, int i);
void sim__relay_message(World *w, const Ev *e);
void sim__relay_closed(World *w, const Ev *e);
void sim__relay_sweep(World *w);

/* ---- actor.c ---- */
/* Carry out actor i's seat outputs; close its connection; start it (or
 * take it back from its log); connect it; a message arrives; a player or
 * a bot acts. */
void sim__drain(World *w, int i);
/* The simulated ms a match must end within, and the gaps between faults
 * (lo..hi): a correspondence match's are longer. (The rooms are swept
 * each SIM_SWEEP_MS, days or not: the relay's BEAT each second goes from
 * the sweep, and a sparser one, 500 ms, let delayed BEATs pass a seat's
 * 3 s of silence, so seats reconnected every few seconds for hours.) */
uint64_t sim__limit_ms(const World *w);
void sim__fault_gap(const World *w, uint64_t *lo, uint64_t *hi);
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
