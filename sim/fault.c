/*
 * fault.c: the simulator's faults (sim.h's SIM_FAULT_*), drawn from the
 * seed: dropped connections, crashes, relay restarts and forged flag
 * claims here; delays, duplicate and skipped catch-up frames, clock skew
 * and late spectators where they happen (relay.c, sched.c, sim.c).
 */
#include <stdio.h>
#include <string.h>

#include "sim_internal.h"
#include "tb_error.h"

static const char *const fault_names[] = {
    "drop", "delay", "crash", "restart", "dup", "skew", "late", "gap", "cheat"};
#define NFAULTS (sizeof fault_names / sizeof fault_names[0])

static const char *const lie_names[] = {"flag", "claim", "desync", "abort",
                                        "log"};
#define NLIES (sizeof lie_names / sizeof lie_names[0])

/* "a,b,..." of names[n] (or "all": every bit up to all_bits, or
 * "none") into bits. */
static int parse_names(const char *list, const char *const *names, size_t n,
                       unsigned all_bits, unsigned *out, const char **bad)
{
    static char word[32];
    *out = 0;
    if (strcmp(list, "all") == 0) {
        *out = all_bits;
        return 0;
    }
    if (strcmp(list, "none") == 0)
        return 0;
    for (const char *p = list; *p != '\0';) {
        size_t len = strcspn(p, ",");
        size_t k;
        for (k = 0; k < n; k++)
            if (strlen(names[k]) == len && strncmp(p, names[k], len) == 0)
                break;
        if (k == n) {
            snprintf(word, sizeof word, "%.*s", (int)(len < 30 ? len : 30),
                     p);
            *bad = word;
            return -1;
        }
        *out |= 1u << k;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

static void names_of(unsigned bits, const char *const *names, size_t n,
                     unsigned all_bits, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    if (bits == all_bits) {
        snprintf(buf, cap, "all");
        return;
    }
    if (bits == 0) {
        snprintf(buf, cap, "none");
        return;
    }
    for (size_t k = 0; k < n; k++) {
        if (!(bits & (1u << k)))
            continue;
        int w = snprintf(buf + len, cap - len, "%s%s", len ? "," : "",
                         names[k]);
        if (w < 0 || (size_t)w >= cap - len)
            return;
        len += (size_t)w;
    }
}

int sim_faults(const char *list, unsigned *out, const char **bad)
{
    return parse_names(list, fault_names, NFAULTS, SIM_FAULTS_ALL, out, bad);
}

void sim_fault_names(unsigned bits, char *buf, size_t cap)
{
    names_of(bits, fault_names, NFAULTS, SIM_FAULTS_ALL, buf, cap);
}

int sim_lies(const char *list, unsigned *out, const char **bad)
{
    return parse_names(list, lie_names, NLIES, SIM_LIES_ALL, out, bad);
}

void sim_lie_names(unsigned bits, char *buf, size_t cap)
{
    names_of(bits, lie_names, NLIES, SIM_LIES_ALL, buf, cap);
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
    /* A claim the relay's receipts refute: its sender's session sends it
     * (a cheating client knows what it sent), 1 ms into the turn. */
    if (match_forge(x->m, w->now, MATCH_FORGE_FLAG) != 0)
        return;
    w->rep->faults++;
    sim__trace(w, i, "fault: a forged flag claim goes out");
    sim__drain(w, i);
}

/* The adversary (the fair-play issue): the guest, while the match is
 * on, tells one of the lies of cfg->lies that go on the wire (the flag
 * claim is cheat(); the edited log is checked at the end, sim.c). */
static void lie(World *w)
{
    static const unsigned kinds[] = {SIM_LIE_CLAIM, SIM_LIE_DESYNC,
                                     SIM_LIE_ABORT};
    unsigned pick[3];
    int n = 0;
    for (size_t k = 0; k < 3; k++)
        if (w->cfg->lies & kinds[k])
            pick[n++] = kinds[k];
    Actor *x = &w->a[1];
    unsigned b = pick[sim__rnd(w) % (uint64_t)n];
    if (!x->alive || x->m == NULL || x->conn != 2 || x->done)
        return;
    /* (through its session, match_forge: the claim its transcript
     * takes, the report and the abort it refuses go out bare) */
    Match_Forge kind = b == SIM_LIE_CLAIM    ? MATCH_FORGE_CLAIM
                       : b == SIM_LIE_DESYNC ? MATCH_FORGE_DESYNC_TRUE
                                             : MATCH_FORGE_ABORT;
    if (match_forge(x->m, w->now, kind) != 0)
        return;
    sim__trace(w, 1, "lie: %s",
               b == SIM_LIE_CLAIM    ? "a claim of the win, the opponent "
                                       "present or not"
               : b == SIM_LIE_DESYNC ? "a desync report of the true state"
                                     : "an abort after both sides moved");
    w->rep->faults++;
    sim__drain(w, 1);
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

void sim__fault(World *w)
{
    unsigned f = w->cfg->faults;
    int kinds[5], n = 0;
    if (f & SIM_FAULT_DROP)
        kinds[n++] = 0;
    if (f & SIM_FAULT_CRASH)
        kinds[n++] = 1;
    if ((f & SIM_FAULT_RESTART) && !ended_somewhere(w))
        kinds[n++] = 2;
    if (((f & SIM_FAULT_CHEAT) || (w->cfg->lies & SIM_LIE_FLAG)) &&
        w->clocked)
        kinds[n++] = 3;
    if (w->cfg->lies & (SIM_LIE_CLAIM | SIM_LIE_DESYNC | SIM_LIE_ABORT))
        kinds[n++] = 4;
    if (n > 0 && w->now < sim__limit_ms(w) / 2) {
        int k = kinds[sim__rnd(w) % (uint64_t)n];
        int i = (int)sim__rnd_in(w, 0, (uint64_t)w->nactors - 1);
        Actor *x = &w->a[i];
        /* (a connection that never reached the room is not dropped: a
         * seat's first one lost is "cannot reach the lobby", for good) */
        if (k == 0 && x->alive && x->conn != 0 && x->joined && !x->done) {
            w->rep->faults++;
            sim__trace(w, i, "fault: connection dropped");
            sim__close_conn(w, i);
            seat_closed(x->st, sim__anow(x, w->now), SIM_RESET);
            sim__drain(w, i);
        } else if (k == 1 && x->alive && !x->done && x->crash_in < 0) {
            x->crash_in = (int)sim__rnd_in(w, 0, 6); /* between two outputs */
        } else if (k == 2 && sim__relay_has_room(w) && !first_contact(w)) {
            w->rep->faults++;
            /* a correspondence match's relay keeps its rooms in Redis
             * (docs/lobby-nodes.md): a restart closes every connection
             * and loses no room; else the relay's memory is lost */
            if (w->cfg->correspondence) {
                sim__trace(w, -1, "fault: the relay node restarts (its "
                                  "rooms are in Redis)");
                for (int j = 0; j < w->nactors; j++)
                    sim__member_close(w, j);
            } else {
                sim__trace(w, -1, "fault: the relay restarts");
                sim__relay_forget(w);
            }
            for (int j = 0; j < w->nactors; j++) {
                Actor *y = &w->a[j];
                if (!y->alive || y->conn == 0 || y->done)
                    continue;
                y->conn = 0;
                y->epoch++;
                seat_closed(y->st, sim__anow(y, w->now), SIM_RESET);
                sim__drain(w, j);
            }
        } else if (k == 3) {
            cheat(w);
        } else if (k == 4) {
            lie(w);
        }
    }
    uint64_t lo, hi;
    sim__fault_gap(w, &lo, &hi);
    if (!players_done(w))
        sim__at_time(w, w->now + sim__rnd_in(w, lo, hi), EV_FAULT, -1);
}
