/*
 * actor.c: the simulator's actors (sim_internal.h): each a seat of the
 * seat layer (seat/seat.h), the object the terminal and the page drive,
 * whose outputs are carried out as a driver does (its match log kept in
 * memory, its resume point and turn start kept as FILE.seq keeps them),
 * and the players: random movers that use every conduct command, and
 * bots. A crash happens between two outputs of a seat: what was carried
 * out before it is durable, the rest is lost, and the actor comes back
 * from its log.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "tb_error.h"

/* ---- actors ---------------------------------------------------------- */

void sim__close_conn(World *w, int i)
{
    Actor *x = &w->a[i];
    sim__member_close(w, i);
    x->conn = 0;
    x->epoch++;
}

static void crash(World *w, int i)
{
    Actor *x = &w->a[i];
    sim__trace(w, i, "crash");
    w->rep->faults++;
    sim__close_conn(w, i);
    seat_free(x->st);
    x->st = NULL;
    x->m = NULL;
    x->alive = 0; /* its log stays: what it wrote is durable */
    x->crash_in = -1;
    sim__at_time(w, w->now + sim__rnd_in(w, 50, 4000), EV_RESTART, i);
}

/* The log as the session asks, as a driver writes it (netstore.h:
 * header and the first count envelopes, replacing the old log at once);
 * in memory, where a file would be. */
static void log_open(World *w, int i, uint32_t count, uint64_t witnessed)
{
    Actor *x = &w->a[i];
    Proto_Log_Header h;
    Proto_Log *log = NULL;
    int rc = match_log_header(x->m, &h);
    if (rc == 0)
        rc = proto_log_create_memory(&log, &h);
    if (rc == 0)
        rc = match_log_fill(x->m, log, count, witnessed);
    if (rc != 0) {
        proto_log_close(log);
        sim__fail(w, "%s: cannot write its log: %s", sim__role_names[i],
                  tb_strerror(rc));
        return;
    }
    proto_log_close(x->log);
    x->log = log;
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
    e.at = sim__world_time(w, x, d);
    e.type = EV_TICK;
    e.actor = i;
    e.seq = x->tick_gen;
    sim__push(w, e);
}

static void carry_out(World *w, int i, const Match_Out *o)
{
    Actor *x = &w->a[i];
    switch (o->kind) {
    case MATCH_OUT_SEND: /* a DATA message, as the relay reads it */
        if (x->conn == 2)
            sim__to_relay(w, i, o->data, o->len, 0);
        break;
    case MATCH_OUT_LOG_OPEN:
        log_open(w, i, o->count, o->seq);
        break;
    case MATCH_OUT_LOG:
        if (x->log == NULL ||
            proto_log_append_envelope(x->log, o->data, o->len) != 0)
            sim__fail(w, "%s: cannot append to its log", sim__role_names[i]);
        break;
    case MATCH_OUT_LOG_END: /* the log stays, as a file would */
        x->saw_end = 1;
        if (x->log != NULL && o->count > 0)
            proto_log_finish(x->log, o->count, o->hash);
        break;
    case MATCH_OUT_SEQ:
        x->durable_seq = o->seq;
        x->durable_numbered = o->count;
        break;
    case MATCH_OUT_PLY:
        x->plies++;
        sim__trace(w, i, "ply %u %s %s %.16s", o->ply,
                   o->side == CORE_WHITE ? "white" : "black", o->text, o->hex);
        break;
    case MATCH_OUT_NOTE:
    case MATCH_OUT_WARN:
        sim__trace(w, i, "%s%s", o->kind == MATCH_OUT_WARN ? "warn: " : "",
                   o->text);
        break;
    case MATCH_OUT_THINK: {
        Ev e;
        memset(&e, 0, sizeof e);
        e.at = w->now + sim__rnd_in(w, 1, 400);
        e.type = EV_BOT;
        e.actor = i;
        e.seq = o->seq;
        e.epoch = x->epoch;
        sim__push(w, e);
        break;
    }
    case MATCH_OUT_REFETCH: /* the seat's SEAT_OUT_CLOSE */
        break;
    case MATCH_OUT_DESYNC:
        x->desync = 1;
        break;
    case MATCH_OUT_RETRACT:
        x->plies -= o->ply;
        sim__trace(w, i, "retracts %u envelopes, %u moves", o->count, o->ply);
        break;
    case MATCH_OUT_DONE:
        x->done = 1;
        sim__trace(w, i, "done");
        sim__close_conn(w, i);
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
        sim__at_time(w, w->now, EV_CONNECT, i);
        break;
    case SEAT_OUT_CLOSE:
        sim__trace(w, i, "refetch after %llu",
                   (unsigned long long)match_last_seq(x->m));
        if (x->conn != 0) {
            sim__close_conn(w, i);
            seat_closed(x->st, sim__anow(x, w->now), 0);
        }
        break;
    case SEAT_OUT_UP:
        x->conn = 2;
        x->joined = 1;
        sim__trace(w, i, "in the room%s", o->first ? "" : " again");
        break;
    case SEAT_OUT_LOST:
        sim__trace(w, i, "lost the relay (attempt %u, next in %u ms)",
                   o->attempt, (unsigned)o->wait_ms);
        break;
    case SEAT_OUT_SEND: /* a KEEP (no simulated seat seeks) */
        if (x->conn == 2)
            sim__to_relay(w, i, o->data, o->len, 0);
        break;
    case SEAT_OUT_PRESENCE:
    case SEAT_OUT_SEEKED:
        break;
    case SEAT_OUT_FAILED:
        sim__fail(w,
                  "%s's seat stopped (%s, %s): the game was lost to the "
                  "network",
                  sim__role_names[i],
                  o->failure == SEAT_FAIL_ADMISSION ? "never let in"
                  : o->failure == SEAT_FAIL_ENDED   ? "refused for good"
                                                    : "gave up",
                  tb_strerror(o->reason));
        break;
    }
}

/* Correspondence: player i, caught up, its move with the relay and the
 * opponent to move, leaves (as `tabula` does when its input has ended)
 * and comes back hours later; nothing of its seat is lost (its log). */
static void maybe_away(World *w, int i)
{
    Actor *x = &w->a[i];
    const Proto_Transcript *t;
    const Core_Position *pos;
    uint32_t plies;
    if (!w->cfg->correspondence || i >= 2 || !x->alive || x->done ||
        x->conn != 2 || !seat_caught_up(x->st) ||
        match_unacked(x->m) != 0 || (t = match_transcript(x->m)) == NULL ||
        (pos = proto_transcript_position(t)) == NULL ||
        proto_transcript_start(t) == NULL ||
        proto_transcript_status(t).outcome != CORE_ONGOING)
        return;
    /* it stays while the game needs it: its move (unless its own takeback
     * request waits for the opponent), the opponent's request or offer
     * to answer, the opponent's flag to claim */
    int me = match_side(x->m), asks = match_takeback(x->m, &plies);
    if ((core_side_to_move(pos) == me && asks != me) || asks == 1 - me ||
        match_draw_offer(x->m) == 1 - me ||
        match_clock_left(x->m, sim__anow(x, w->now), 1 - me) == 0)
        return;
    uint64_t away = sim__rnd_in(w, SIM_AWAY_MIN_MS, SIM_AWAY_MAX_MS);
    sim__trace(w, i, "away for %llu ms", (unsigned long long)away);
    sim__close_conn(w, i);
    seat_free(x->st);
    x->st = NULL;
    x->m = NULL;
    x->alive = 0;
    x->back_at = w->now + away;
    sim__at_time(w, x->back_at, EV_RESTART, i);
    if (!w->a[1 - i].alive && w->away_since == 0)
        w->away_since = w->now;
}

void sim__drain(World *w, int i)
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
        uint64_t now = sim__anow(x, w->now);
        int64_t ran = match_turn_elapsed(x->m, now);
        if (ran >= 0 && (uint64_t)ran <= now)
            x->turn_wall = now - (uint64_t)ran;
    }
    if (x->alive && !x->done)
        schedule_tick(w, i);
    maybe_away(w, i);
}

void sim__start_actor(World *w, int i)
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
        sim__fail(w, "%s: seat_new: %s", sim__role_names[i], tb_strerror(rc));
        return;
    }
    x->m = seat_match(x->st);
    x->alive = 1;
    x->plies = 0;
    x->back_at = 0;
    if (w->away_since != 0 && i < 2) { /* one is back */
        if (w->now - w->away_since > w->rep->both_away_ms)
            w->rep->both_away_ms = w->now - w->away_since;
        w->away_since = 0;
    }
    size_t len = 0;
    const uint8_t *bytes =
        x->log != NULL ? proto_log_bytes(x->log, &len) : NULL;
    if (bytes != NULL && len > 0) {
        rc = match_resume(x->m, bytes, len, x->durable_seq, x->durable_numbered,
                          why, sizeof why);
        if (rc != 0) {
            sim__fail(w, "%s: cannot resume from its log: %s",
                      sim__role_names[i], tb_strerror(rc));
            return;
        }
        x->plies = match_moves(x->m);
        /* the turn in progress goes on (G-MC-6) */
        match_resume_turn(x->m, sim__anow(x, w->now),
                          match_turn_away(x->turn_wall, sim__anow(x, w->now)));
        sim__trace(w, i, "resumed: %u envelopes, lobby seq %llu",
                   match_frames(x->m),
                   (unsigned long long)match_last_seq(x->m));
    }
    sim__drain(w, i); /* the resumed session's outputs, the first CONNECT */
}

/* The seat asked for a connection: it is made at once (its loss is a
 * fault's) and the seat's hello goes first. */
void sim__connect_actor(World *w, int i)
{
    Actor *x = &w->a[i];
    uint8_t hello[LOBBY_WIRE_HELLO_MAX];
    if (!x->alive || x->done || x->conn != 0)
        return;
    x->epoch++;
    x->conn = 1;
    x->fifo_in = x->fifo_out = w->now;
    sim__trace(w, i, "connects from %llu",
               (unsigned long long)match_last_seq(x->m));
    sim__relay_connect(w, i, hello,
                       seat_hello(x->st, sim__anow(x, w->now), hello));
}

/* A message from the relay arrives: its bytes, as the relay sent them,
 * to the seat; one the seat refuses closes the connection. */
void sim__to_client_arrives(World *w, const Ev *e)
{
    Actor *x = &w->a[e->actor];
    if (!x->alive || x->conn == 0 || e->epoch != x->epoch)
        return;
    uint64_t t = sim__anow(x, w->now);
    if (seat_input(x->st, t, e->data, e->len) != 0) { /* the relay closes,
                                                         or we do */
        sim__trace(w, e->actor, "refused the relay's message 0x%02x",
                   e->len > 0 ? e->data[0] : 0);
        sim__close_conn(w, e->actor);
        seat_closed(x->st, t, 0);
    }
    sim__drain(w, e->actor);
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
        *out = mv[sim__rnd(w) % n];
    free(mv);
    return rc;
}

/* A random mover's next line: mostly a move on its turn, now and then
 * every other command. */
void sim__user_acts(World *w, int i)
{
    Actor *x = &w->a[i];
    const Proto_Transcript *t = match_transcript(x->m);
    const Core_Position *pos = proto_transcript_position(t);
    char line[CORE_NOTATION_MAX];
    uint64_t now = sim__anow(x, w->now);
    if (pos == NULL || x->conn != 2 ||
        proto_transcript_status(t).outcome != CORE_ONGOING)
        return;
    int side = match_side(x->m);
    int mine = core_side_to_move(pos) == side;
    unsigned r = (unsigned)(sim__rnd(w) % 1000);
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
    else if (r < 92 + (core_ply(pos) > 150 ? 40u : 2u) ||
             (w->cfg->correspondence && core_ply(pos) >= SIM_CORR_PLIES))
        cmd = "resign";
    if (cmd == NULL) {
        Core_Move mv;
        if (random_move(w, pos, &mv) != 0 ||
            core_move_format(pos, &mv, line, sizeof line) != 0)
            return;
        cmd = line;
    }
    sim__trace(w, i, "types '%s'", cmd);
    match_command(x->m, now, cmd);
    sim__drain(w, i);
}

void sim__bot_moves(World *w, const Ev *e)
{
    Actor *x = &w->a[e->actor];
    Core_Move mv;
    if (!x->alive || x->done || e->epoch != x->epoch)
        return;
    const Core_Position *pos =
        proto_transcript_position(match_transcript(x->m));
    if (pos == NULL || random_move(w, pos, &mv) != 0)
        return;
    match_bot_move(x->m, sim__anow(x, w->now), e->seq, &mv);
    sim__drain(w, e->actor);
}
