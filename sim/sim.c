/*
 * sim.c: one whole match in one process under a seeded scheduler (sim.h):
 * setting it up from the seed, running its events, and checking it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "tb_error.h"

/* ---- setting up, running, checking ----------------------------------- */

static void setup(World *w)
{
    const Sim_Config *cfg = w->cfg;
    /* typed as a host types them, read by the seat's one grammar: the
     * Fischer clocks of old, a delay, moves in a time, days a move
     * (G-MC-10) */
    static const char *const clocks[] = {"5s+0",  "10s+1",  "30s+2",
                                         "60s+0", "10sd2",  "10/30s+1",
                                         "2/10s", "1day"};
    static char options[32];
    int nspec = cfg->correspondence ? 1 : (int)sim__rnd_in(w, 1, 3);
    uint8_t seat_key[32], match_id[PROTO_MATCH_ID_BYTES];
    for (size_t k = 0; k < sizeof match_id; k++)
        match_id[k] = (uint8_t)sim__rnd(w);
    options[0] = '\0';
    if (cfg->correspondence || sim__chance(w, 400)) {
        const char *clock = cfg->correspondence ? "1day"
                                                : clocks[sim__rnd(w) % 8];
        if (seat_clock_options("", clock, options, sizeof options) != 0)
            sim__fail(w, "cannot read the clock");
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
            seed[k] = (uint8_t)sim__rnd(w);
        proto_identity_from_seed(&x->mc.id, seed);
        if (i == MATCH_ROLE_HOST) { /* its codes, from the seed */
            uint8_t a[LOBBY_CODE_SECRET_SYMBOLS], b[LOBBY_CODE_SECRET_SYMBOLS];
            for (size_t k = 0; k < sizeof a; k++) {
                a[k] = (uint8_t)sim__rnd(w);
                b[k] = (uint8_t)sim__rnd(w);
            }
            if (lobby_code_make(a, x->mc.id.pk, &w->invite) != 0 ||
                lobby_code_make(b, x->mc.id.pk, &w->watch) != 0 ||
                lobby_code_seat_key(&w->invite, seat_key) != 0)
                sim__fail(w, "cannot make the codes");
        }
        for (size_t k = 0; k < LOBBY_SEAT_SECRET_BYTES; k++)
            w->seat_secret[i][k] = (uint8_t)sim__rnd(w);
        memcpy(x->mc.seat_key, seat_key, sizeof seat_key);
        memcpy(x->mc.match_id, match_id, sizeof match_id);
        x->mc.started = 1700000000;
        if (i == MATCH_ROLE_HOST) {
            x->mc.game = cfg->game;
            x->mc.options = options;
        }
        if (i < 2) {
            x->mc.bot = !cfg->correspondence && sim__chance(w, 400);
            x->mc.bot_delay_ms =
                x->mc.bot ? (uint32_t)sim__rnd_in(w, 0, 300) : 0;
            x->mc.absence_ms = (uint32_t)sim__rnd_in(w, 1000, 8000);
        }
        if (i != MATCH_ROLE_HOST)
            x->mc.plant = cfg->plant; /* one side: all but the host */
        if (cfg->faults & SIM_FAULT_SKEW) {
            x->skew_ppm = (int64_t)sim__rnd_in(w, 0, 40000) - 20000;
            x->skew_off = (int64_t)sim__rnd_in(w, 0, 5000);
        }
        uint64_t join = i < 2 ? sim__rnd_in(w, 0, 300)
                        : (cfg->faults & SIM_FAULT_LATE)
                            ? sim__rnd_in(w, 0, SIM_LATE_MS)
                            : sim__rnd_in(w, 0, 300);
        sim__at_time(w, join, EV_RESTART, i); /* the first start */
        if (i < 2 && !x->mc.bot)
            sim__at_time(w, join + sim__rnd_in(w, 100, 1500), EV_USER, i);
    }
    sim__trace(w, -1, "match: %s %s, %d spectators, host %s, guest %s",
               core_game_name(cfg->game), options, nspec,
               w->a[0].mc.bot ? "bot" : "random",
               w->a[1].mc.bot ? "bot" : "random");
    sim__at_time(w, sim__rnd_in(w, 300, 5000), EV_FAULT, -1);
    sim__at_time(w, SIM_SWEEP_MS, EV_SWEEP, -1);
}

uint64_t sim__limit_ms(const World *w)
{
    return w->cfg->correspondence ? SIM_CORR_LIMIT_MS : SIM_LIMIT_MS;
}

void sim__fault_gap(const World *w, uint64_t *lo, uint64_t *hi)
{
    *lo = w->cfg->correspondence ? 600000 : 2000;
    *hi = w->cfg->correspondence ? 3u * 3600 * 1000 : 30000;
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
        if (e->actor != MATCH_ROLE_HOST && !x->joined &&
            !sim__relay_has_room(w))
            sim__at_time(w, w->now + 100, EV_RESTART, e->actor);
        else if (!x->alive && !x->done)
            sim__start_actor(w, e->actor);
        break;
    case EV_CONNECT:
        sim__connect_actor(w, e->actor);
        break;
    case EV_TO_CLIENT:
        sim__to_client_arrives(w, e);
        break;
    case EV_TO_RELAY:
        sim__relay_message(w, e);
        break;
    case EV_RELAY_CLOSED:
        sim__relay_closed(w, e);
        break;
    case EV_SWEEP:
        sim__relay_sweep(w);
        sim__at_time(w, w->now + SIM_SWEEP_MS, EV_SWEEP, -1);
        break;
    case EV_TICK:
        if (x->alive && !x->done && e->seq == x->tick_gen) {
            seat_tick(x->st, sim__anow(x, w->now));
            sim__drain(w, e->actor);
        }
        break;
    case EV_USER:
        if (x->done)
            break;
        if (x->alive)
            sim__user_acts(w, e->actor);
        sim__at_time(w,
                     (!x->alive && x->back_at > w->now ? x->back_at : w->now) +
                         sim__rnd_in(w, 100, 1500),
                     EV_USER, e->actor);
        break;
    case EV_BOT:
        sim__bot_moves(w, e);
        break;
    case EV_FAULT:
        sim__fault(w);
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

/* A copy of log buf[len] edited as `how` says (0: the last receipt's
 * time moved by 1 ms; 1: the receipt before it in its place, replayed;
 * 2: the header naming another room), or NULL when the log has no two
 * receipts. Heap; *out_len its length. */
static uint8_t *edited(const uint8_t *buf, size_t len, int how,
                       size_t *out_len)
{
    size_t off = PROTO_LOG_MAGIC_LEN, at[2] = {0, 0}, n[2] = {0, 0};
    size_t header = 0, header_len = 0;
    int frame = 0;
    const uint8_t *env;
    size_t elen, used;
    while (off < len &&
           proto_frame_next(buf + off, len - off, &env, &elen, &used) == 0) {
        if (frame++ == 0) {
            header = off;
            header_len = used;
        } else if (proto_log_is_record(env, elen) && elen > 100) {
            at[0] = at[1], n[0] = n[1];
            at[1] = off, n[1] = used;
        }
        off += used;
    }
    if (n[0] == 0 || header_len == 0)
        return NULL;
    uint8_t *copy = malloc(len + n[0]);
    if (copy == NULL)
        return NULL;
    if (how == 1) { /* the last receipt replaced by the one before it */
        memcpy(copy, buf, at[1]);
        memcpy(copy + at[1], buf + at[0], n[0]);
        memcpy(copy + at[1] + n[0], buf + at[1] + n[1], len - at[1] - n[1]);
        *out_len = len - n[1] + n[0];
        return copy;
    }
    memcpy(copy, buf, len);
    *out_len = len;
    if (how == 0) /* the time's last byte: ends the record, before its
                     relay key (2 + 32) and signature (2 + 64) */
        copy[at[1] + n[1] - 101] ^= 1;
    else /* the room key ends the header */
        copy[header + header_len - 1] ^= 1;
    return copy;
}

/* The adversary's edited log (SIM_LIE_LOG): each edit of the guest's
 * log must fail to verify. */
static void check_edits(World *w)
{
    size_t len = 0;
    const Actor *x = &w->a[1];
    const uint8_t *buf = x->log != NULL ? proto_log_bytes(x->log, &len) : NULL;
    static const char *const what[] = {"a receipt moved by 1 ms",
                                       "a receipt replayed",
                                       "another room named"};
    for (int how = 0; buf != NULL && how < 3 && !w->rep->failed; how++) {
        size_t n = 0;
        uint8_t *copy = edited(buf, len, how, &n);
        Proto_Log_Report rep;
        if (copy == NULL)
            return;
        sim__trace(w, 1, "lie: its log with %s", what[how]);
        if (proto_log_verify(copy, n, NULL, NULL, NULL, NULL, &rep) == 0)
            sim__fail(w, "the guest's log with %s verifies", what[how]);
        free(copy);
    }
}

static void check(World *w)
{
    const Match_Result *r0 = match_result(w->a[0].m);
    uint8_t c0[PROTO_HASH_BYTES];
    /* the first log verified, kept: a log with the same bytes verifies
     * the same (the logs of a game are byte-identical, G-PR-1) */
    const uint8_t *first = NULL;
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
            sim__fail(w,
                      "%s reports a desync at ply %u, but every seat played "
                      "by the rules",
                      sim__role_names[i], r->desync_ply);
            break;
        }
        if (r->status.outcome != r0->status.outcome ||
            r->status.reason != r0->status.reason ||
            strcmp(r->final_hash, r0->final_hash) != 0) {
            sim__fail(w, "%s ends %s (%s) %.16s, the host %s (%s) %.16s",
                      sim__role_names[i], core_outcome_name(r->status.outcome),
                      core_reason_name(r->status.reason), r->final_hash,
                      core_outcome_name(r0->status.outcome),
                      core_reason_name(r0->status.reason), r0->final_hash);
            break;
        }
        proto_transcript_chain(match_transcript(x->m), c);
        if (memcmp(c, c0, sizeof c) != 0) {
            sim__fail(w,
                      "%s holds another transcript than the host (%u and %u "
                      "envelopes)",
                      sim__role_names[i],
                      proto_transcript_count(match_transcript(x->m)),
                      w->rep->envelopes);
            break;
        }
        size_t len = 0;
        const uint8_t *buf =
            x->log != NULL ? proto_log_bytes(x->log, &len) : NULL;
        Proto_Log_Report rep;
        Visit v = {0};
        if (buf != NULL && first != NULL && len == first_len &&
            memcmp(buf, first, len) == 0) {
            v = first_v;
        } else {
            int rc = buf == NULL ? TB_E_IO
                                 : proto_log_verify(buf, len, NULL, visit, &v,
                                                    NULL, &rep);
            if (rc != 0 || !rep.ended) {
                sim__fail(w, "%s's log does not verify: %s", sim__role_names[i],
                          buf == NULL ? "no log"
                          : rc != 0   ? rep.why
                                      : "no end record");
                return;
            }
            if (rep.envelopes != w->rep->envelopes) {
                sim__fail(w, "%s's log holds %u envelopes, the match %u",
                          sim__role_names[i], rep.envelopes, w->rep->envelopes);
                return;
            }
            if (first == NULL) {
                first = buf;
                first_len = len;
                first_v = v;
            }
        }
        if (x->plies != v.moves) {
            sim__fail(w, "%s applied %u moves, its log holds %u (a ply %s)",
                      sim__role_names[i], x->plies, v.moves,
                      x->plies > v.moves ? "applied twice" : "lost");
            break;
        }
    }
}

int sim_run(const Sim_Config *cfg, Sim_Report *rep)
{
    World *w = calloc(1, sizeof *w);
    int rc = 0;
    memset(rep, 0, sizeof *rep);
    if (w != NULL)
        w->cfg = cfg; /* (the relay's key comes from its seed) */
    if (w == NULL ||
        (w->buf = malloc(PROTO_FRAME_PREFIX + PROTO_FRAME_MAX)) == NULL ||
        sim__relay_start(w) != 0) {
        if (w != NULL)
            free(w->buf);
        free(w);
        return TB_E_NOMEM;
    }
    w->rep = rep;
    w->rng = cfg->seed ^ 0x5eedf00dull;
    setup(w);
    while (w->nheap > 0 && !rep->failed && !all_done(w)) {
        Ev e = sim__pop(w);
        w->now = e.at;
        if (w->now > sim__limit_ms(w) || ++w->events > SIM_EVENTS_MAX) {
            sim__fail(w,
                      "the match did not end within %llu simulated ms and %d "
                      "events (a deadlock or a stalled seat)",
                      (unsigned long long)sim__limit_ms(w), SIM_EVENTS_MAX);
            free(e.data);
            break;
        }
        step(w, &e);
        free(e.data);
    }
    rep->sim_ms = w->now;
    if (!rep->failed && !all_done(w))
        sim__fail(w, "nothing left to happen but not every seat is done "
                     "(a deadlock)");
    if (!rep->failed)
        check(w);
    if (!rep->failed && (cfg->lies & SIM_LIE_LOG))
        check_edits(w);
    sim__relay_stop(w);
    for (size_t k = 0; k < w->nheap; k++)
        free(w->heap[k].data);
    free(w->heap);
    for (int i = 0; i < w->nactors; i++) {
        seat_free(w->a[i].st);
        proto_log_close(w->a[i].log);
        proto_identity_wipe(&w->a[i].mc.id);
    }
    free(w->buf);
    rep->trace = w->trace;
    free(w);
    return rc;
}
