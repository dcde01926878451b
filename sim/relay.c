/*
 * relay.c: the simulator's connections and its relay (sim_internal.h).
 * The relay is the lobby's own rooms (lobby/room.h, the code the libuv
 * relay runs), handed each message and each closed connection with the
 * world's time and swept every 250 ms as the real relay is; its members
 * are reached through simulated links. A connection keeps its order
 * (each direction delivers no earlier than the one before it); a dropped
 * connection loses what was in flight. Relay faults are planted on the
 * links, never in the rooms: a seat asking again for frames it has (dup),
 * a catch-up that skips one frame that is not its last (gap), a restart
 * that forgets every room.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "tb_error.h"

/* A message's travel time on a connection. */
static uint64_t latency(World *w)
{
    if (!(w->cfg->faults & SIM_FAULT_DELAY))
        return 1;
    return sim__chance(w, 20) ? sim__rnd_in(w, 500, 3000)
                              : sim__rnd_in(w, 1, 300);
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
    sim__push(w, *e);
}

/* A message from actor i to the relay (forged: a frame its session never
 * made, whose ACK the cheat does not pass on). */
void sim__to_relay(World *w, int i, const uint8_t *msg, size_t len, int forged)
{
    Ev e;
    memset(&e, 0, sizeof e);
    e.type = EV_TO_RELAY;
    e.actor = i;
    e.kind = forged;
    e.epoch = w->a[i].epoch;
    travel(w, &e, &w->a[i].fifo_out, msg, len);
}

/* ---- the links the rooms reach members through ----------------------- */

static int link_send(void *link, const uint8_t *msg, size_t len)
{
    Sim_Link *l = link;
    World *w = l->w;
    Ev e;
    if (l->closing)
        return 1;
    if (msg[0] == LOBBY_WIRE_ACK_TYPE && l->swallow_ack) {
        l->swallow_ack = 0;
        return 0;
    }
    if (msg[0] == LOBBY_WIRE_WELCOME_TYPE && l->gap_armed) {
        /* The gap fault: one frame of the catch-up that follows, not its
         * last (a later frame shows the member the gap; a lost last frame
         * would show it nothing, and the real relay loses none). */
        Lobby_Welcome wel;
        uint64_t n = 0;
        l->gap_armed = 0;
        if (lobby_wire_welcome_read(msg, len, &wel) == 0 &&
            wel.next_seq > l->ask + 1)
            n = wel.next_seq - 1 -
                (l->ask + 1 > wel.first_seq ? l->ask : wel.first_seq - 1);
        if (n >= 2) {
            l->gap_skip = 1 + sim__rnd(w) % (n - 1);
            w->rep->faults++;
            sim__trace(w, -1, "fault: catch-up to %s skips its frame %llu",
                       sim__role_names[l->actor],
                       (unsigned long long)l->gap_skip);
        }
    }
    if (msg[0] == LOBBY_WIRE_FRAME_TYPE && l->gap_skip > 0 &&
        --l->gap_skip == 0)
        return 0;
    memset(&e, 0, sizeof e);
    e.type = EV_TO_CLIENT;
    e.actor = l->actor;
    e.epoch = l->epoch;
    travel(w, &e, &w->a[l->actor].fifo_in, msg, len);
    return 0;
}

static size_t link_queued(const void *link)
{
    (void)link;
    return 0; /* a simulated link writes at once */
}

static int link_is_closing(const void *link)
{
    return ((const Sim_Link *)link)->closing;
}

/* The relay closes the link: the member is gone once the close has
 * travelled (after what was sent before it), as the rooms expect. */
static void link_close(void *link, int flush, int reason)
{
    Sim_Link *l = link;
    World *w = l->w;
    Ev e;
    (void)flush;
    (void)reason;
    if (l->closing)
        return;
    l->closing = 1;
    memset(&e, 0, sizeof e);
    e.type = EV_RELAY_CLOSED;
    e.actor = l->actor;
    e.epoch = l->epoch;
    travel(w, &e, &w->a[l->actor].fifo_in, NULL, 0);
}

static const Lobby_Link_Ops sim_link_ops = {link_send, link_queued,
                                            link_is_closing, link_close, 1};

/* ---- the relay ------------------------------------------------------- */

/* The relay's receipt clock: the world's time (ms). */
static uint64_t relay_wall(void *user)
{
    return ((const World *)user)->now;
}

int sim__relay_key(uint64_t seed, Proto_Identity *out)
{
    /* BLAKE2b-256 of a label and the seed, big-endian: not drawn from the
     * seeded stream, so every match's events stay as they were */
    uint8_t in[16 + 8], k[PROTO_HASH_BYTES];
    memcpy(in, "tabula sim relay", 16);
    for (int i = 0; i < 8; i++)
        in[16 + i] = (uint8_t)(seed >> (56 - 8 * i));
    int rc = proto_receipt_hash(in, sizeof in, k);
    if (rc == 0)
        rc = proto_identity_from_seed(out, k);
    proto_wipe(k, sizeof k);
    return rc;
}

int sim__relay_start(World *w)
{
    Lobby_Limits lim;
    Proto_Identity key;
    memset(&lim, 0, sizeof lim);
    int rc = lobby_rooms_new(&lim, &w->rooms);
    if (rc == 0 && (rc = sim__relay_key(w->cfg->seed, &key)) != 0) {
        lobby_rooms_free(w->rooms);
        w->rooms = NULL;
    }
    if (rc == 0) /* the same key after a restart: the same node */
        lobby_rooms_use_witness(w->rooms, &key, relay_wall, w);
    proto_identity_wipe(&key);
    return rc;
}

/* The member of actor i is gone from the rooms. */
static void member_gone(World *w, int i)
{
    if (w->member[i] == NULL)
        return;
    lobby_rooms_closed(w->member[i], w->now);
    w->member[i] = NULL;
}

void sim__member_close(World *w, int i)
{
    member_gone(w, i);
}

/* Every member goes at once (the relay stops): nothing more is sent. */
static void all_gone(World *w)
{
    for (int i = 0; i < w->nactors; i++)
        w->link[i].closing = 1;
    for (int i = 0; i < w->nactors; i++)
        member_gone(w, i);
    lobby_rooms_free(w->rooms);
    w->rooms = NULL;
}

void sim__relay_forget(World *w)
{
    all_gone(w);
    if (sim__relay_start(w) != 0)
        sim__fail(w, "the relay cannot start again: out of memory");
}

void sim__relay_stop(World *w)
{
    all_gone(w);
}

int sim__relay_has_room(const World *w)
{
    return w->rooms != NULL &&
           lobby_rooms_next_seq(w->rooms, w->invite.lookup) != 0;
}

/* Actor i's new connection reaches the relay: a member of the rooms,
 * from its own address; its hello follows it on the link. */
void sim__relay_connect(World *w, int i, uint8_t *hello, size_t len)
{
    Actor *x = &w->a[i];
    Sim_Link *l = &w->link[i];
    Lobby_Wire_Hello h;
    char addr[24];
    member_gone(w, i);
    memset(l, 0, sizeof *l);
    l->w = w;
    l->actor = i;
    l->epoch = x->epoch;
    if (lobby_wire_hello_read(hello, len, &h) != 0 || (int)h.role != x->role) {
        sim__fail(w, "%s: a hello the relay cannot read", sim__role_names[i]);
        return;
    }
    l->ask = h.from_seq;
    /* The dup fault: it asks again for a few frames it has. Never a
     * host's: its CREATE's number is also where a re-made room numbers
     * on from, which an honest host never lowers. */
    if ((w->cfg->faults & SIM_FAULT_DUP) && h.role != LOBBY_ROLE_HOST &&
        sim__chance(w, 300) && l->ask > 0) {
        uint64_t back = sim__rnd_in(w, 1, 6);
        l->ask = l->ask > back ? l->ask - back : 0;
        (void)lobby_wire_hello_ask(hello, len, l->ask);
    }
    l->gap_armed = (w->cfg->faults & SIM_FAULT_GAP) && sim__chance(w, 200);
    snprintf(addr, sizeof addr, "10.0.0.%u", (unsigned)i + 1);
    w->member[i] = lobby_rooms_member(w->rooms, &sim_link_ops, l, addr, w->now);
    if (w->member[i] == NULL) {
        sim__fail(w, "the relay is out of memory");
        return;
    }
    sim__to_relay(w, i, hello, len, 0);
}

/* A message from a member arrives at the relay. */
void sim__relay_message(World *w, const Ev *e)
{
    int i = e->actor;
    Sim_Link *l = &w->link[i];
    if (w->member[i] == NULL || l->epoch != e->epoch || l->closing)
        return;               /* the connection is gone */
    l->swallow_ack = e->kind; /* a forged frame's ACK stays with the cheat */
    lobby_rooms_message(w->member[i], e->data, e->len, w->now);
    l->swallow_ack = 0;
}

/* The relay's close of actor i's link has arrived: the rooms forget the
 * member, and the seat learns its connection is gone. */
void sim__relay_closed(World *w, const Ev *e)
{
    int i = e->actor;
    Actor *x = &w->a[i];
    if (w->member[i] != NULL && w->link[i].epoch == e->epoch)
        member_gone(w, i);
    if (!x->alive || x->conn == 0 || x->epoch != e->epoch)
        return;
    sim__trace(w, i, "the relay closed the connection");
    x->conn = 0;
    x->epoch++;
    seat_closed(x->st, sim__anow(x, w->now), SIM_RESET);
    sim__drain(w, i);
}

void sim__relay_sweep(World *w)
{
    if (w->rooms != NULL)
        lobby_rooms_sweep(w->rooms, w->now);
}
