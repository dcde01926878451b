/*
 * relay.c: the simulator's connections and its model of the lobby relay
 * (sim_internal.h). A connection keeps its order (each direction
 * delivers no earlier than the one before it); a dropped connection
 * loses what was in flight. The relay numbers frames, keeps them, sends a
 * (re)joining member the frames after its resume point, reports
 * presence, refuses a JOIN or WATCH while it has no room, and on a
 * restart forgets its room; the host's CREATE then numbers on from the
 * host's resume point, as the real lobby does (docs/protocol-lobby.md).
 */
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

/* A message from the relay to actor i on its current connection. */
void sim__to_client(World *w, int i, int kind, uint64_t seq, uint64_t a,
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
void sim__to_relay(World *w, int i, const uint8_t *data, size_t len, int forged)
{
    Ev e;
    memset(&e, 0, sizeof e);
    e.type = EV_TO_RELAY;
    e.actor = i;
    e.kind = forged;
    e.epoch = w->a[i].epoch;
    travel(w, &e, &w->a[i].fifo_out, data, len);
}

/* ---- the relay ------------------------------------------------------- */

static int is_seat(int i)
{
    return i == MATCH_ROLE_HOST || i == MATCH_ROLE_GUEST;
}

static void presence(World *w, int seat, int present)
{
    for (int j = 0; j < w->nactors; j++)
        if (j != seat && w->member_open[j])
            sim__to_client(w, j, MSG_PRESENCE, 0, (uint64_t)seat,
                           (uint64_t)present, 0, NULL, 0);
}

/* The relay closes member i (the connection dropped, or it left). */
void sim__member_close(World *w, int i)
{
    if (!w->member_open[i])
        return;
    w->member_open[i] = 0;
    if (is_seat(i))
        presence(w, i, 0);
}

static void keep(World *w, uint64_t seq, int from, const uint8_t *d, size_t len)
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

void sim__relay_forget(World *w)
{
    for (size_t k = 0; k < w->nkept; k++)
        free(w->kept[k].data);
    w->nkept = 0;
    w->room = 0;
}

/* Member i (re)joins with its hello (CREATE, JOIN or WATCH) asking for
 * every frame after the one it names. */
void sim__relay_join(World *w, int i, const uint8_t *hello, size_t len)
{
    Actor *x = &w->a[i];
    Lobby_Wire_Hello h;
    if (lobby_wire_hello_read(hello, len, &h) != 0 || (int)h.role != x->role) {
        sim__fail(w, "%s: a hello the relay cannot read", sim__role_names[i]);
        return;
    }
    uint64_t from = h.from_seq;
    if (i == MATCH_ROLE_HOST && !w->room) {
        w->room = 1;
        w->next_seq = from + 1;
        sim__trace(w, -1, "room made, numbering from %llu",
                   (unsigned long long)w->next_seq);
    }
    w->member_epoch[i] = x->epoch;
    if (!w->room) { /* no room has this code (yet): refused */
        sim__to_client(w, i, MSG_REFUSED, 0, (uint64_t) - (int64_t)TB_E_CODE, 0,
                       0, NULL, 0);
        return;
    }
    w->member_open[i] = 1;
    uint64_t first = w->nkept ? w->kept[0].seq : 0;
    sim__to_client(w, i, MSG_WELCOME, 0, first, w->next_seq, 0, NULL, 0);
    uint64_t ask = from;
    if ((w->cfg->faults & SIM_FAULT_DUP) && sim__chance(w, 300) && ask > 0) {
        uint64_t back = sim__rnd_in(w, 1, 6);
        ask = ask > back ? ask - back : 0;
    }
    /* The gap fault: the catch-up skips one frame that is not its last
     * (a later frame shows the member the gap; a lost last frame would
     * show it nothing, and the real relay loses none). */
    size_t from_k = 0, skip = SIZE_MAX;
    while (from_k < w->nkept && w->kept[from_k].seq <= ask)
        from_k++;
    if ((w->cfg->faults & SIM_FAULT_GAP) && w->nkept - from_k >= 2 &&
        sim__chance(w, 200)) {
        skip = from_k + sim__rnd(w) % (w->nkept - from_k - 1);
        w->rep->faults++;
        sim__trace(w, -1, "fault: catch-up to %s skips frame %llu",
                   sim__role_names[i], (unsigned long long)w->kept[skip].seq);
    }
    for (size_t k = from_k; k < w->nkept; k++)
        if (k != skip)
            sim__to_client(w, i, MSG_FRAME, w->kept[k].seq, 0, 0,
                           w->kept[k].from, w->kept[k].data, w->kept[k].len);
    if (is_seat(i))
        presence(w, i, 1);
}

void sim__relay_data(World *w, const Ev *e)
{
    int i = e->actor;
    if (!w->room || !w->member_open[i] || w->member_epoch[i] != e->epoch)
        return; /* the connection is gone */
    uint64_t seq = w->next_seq++;
    keep(w, seq, i, e->data, e->len);
    if (!e->kind) /* a forged frame (kind 1) comes from elsewhere */
        sim__to_client(w, i, MSG_ACK, seq, 0, 0, 0, NULL, 0);
    for (int j = 0; j < w->nactors; j++)
        if (j != i && w->member_open[j])
            sim__to_client(w, j, MSG_FRAME, seq, 0, 0, i, e->data, e->len);
}
