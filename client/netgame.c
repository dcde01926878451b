/*
 * netgame.c: the libuv driver of one seat or spectator of a network game
 * (netgame.h). Everything a seat decides lives in its seat (seat/seat.h:
 * the match session, the lobby's messages, when to connect, retry, give
 * up); this file owns what the seat may not touch: the TCP connection to
 * the relay node the seat names, the timer at the seat's next deadline,
 * the match log, the seat and FILE.seq files (netstore.h), the bot's
 * search (netbot.h), and the printed lines. Each callback feeds the
 * seat and then carries out its outputs in order (netgame__dispatch).
 * Time is cli_now() in ms. Making and freeing a seat: netgame_new.c.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "advice.h"
#include "cli.h"
#include "engine.h"
#include "i18n.h"
#include "line_cmd.h"
#include "netgame_internal.h"
#include "tb_error.h"

uint64_t netgame__now_ms(void)
{
    return (uint64_t)(cli_now() * 1000.0);
}

/* ---- printed lines --------------------------------------------------- */

/* A line (warning 0) or a warning, with the session's typed note when
 * it is one (NULL: the driver's own line). */
static void say(Netgame *g, int warning, const Match_Note *note,
                const char *text)
{
    if (g->hooks.on_note) {
        g->hooks.on_note(g, warning, text, note);
        if (warning)
            return;
    }
    if (warning) {
        fprintf(stderr, "tabula: %s%s%s\n", g->label, g->label[0] ? ": " : "",
                text);
        return;
    }
    if (g->cfg.out == NULL)
        return;
    if (g->label[0] != '\0')
        fprintf(g->cfg.out, "[%s] ", g->label);
    fprintf(g->cfg.out, "%s\n", text);
    fflush(g->cfg.out);
}

static void say_fmt(Netgame *g, int warning, const char *fmt, va_list ap)
{
    char text[MATCH_TEXT_MAX];
    vsnprintf(text, sizeof text, fmt, ap);
    say(g, warning, NULL, text);
}

void netgame__say(Netgame *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_fmt(g, 0, fmt, ap);
    va_end(ap);
}

void netgame__warn(Netgame *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_fmt(g, 1, fmt, ap);
    va_end(ap);
}

/* ---- the log --------------------------------------------------------- */

/* The log as the session asks (netstore.h); none without --log. */
static void log_open(Netgame *g, uint32_t count, uint64_t witnessed)
{
    int rc;
    if (g->log_path[0] == '\0')
        return;
    rc = netstore_log_open(&g->log, g->log_path, g->m, count, witnessed);
    if (rc != 0)
        netgame__warn(g, _("cannot write the log %s: %s"), g->log_path,
                      _(tb_strerror(rc)));
}

static void log_end(Netgame *g, const Match_Out *o)
{
    if (g->log == NULL)
        return;
    if (o->count > 0 && proto_log_finish(g->log, o->count, o->hash) != 0)
        netgame__warn(g, _("cannot finish the log %s"), g->log_path);
    proto_log_close(g->log);
    g->log = NULL;
    if (g->stored) {
        /* The game is over: its seat cannot come back, and its log is
         * kept as PATH.done.log (a desync report goes beside it). */
        char done_path[sizeof g->log_path];
        if (netstore_retire(g->log_path, done_path, sizeof done_path) == 0)
            snprintf(g->log_path, sizeof g->log_path, "%s", done_path);
        g->stored = 0;
    }
    netgame__say(g, "log: %s", g->log_path);
}

/* ---- the bot --------------------------------------------------------- */

static void bot_start(Netgame *g);

/* A search ended: its move to the session, unless the game moved on
 * while it ran (a newer THINK: search again). */
static void bot_done(void *user, uint64_t token, int rc, const Core_Move *mv)
{
    Netgame *g = user;
    if (g->bot_want != 0 && token != g->bot_want) {
        bot_start(g);
        return;
    }
    g->bot_want = 0;
    if (rc == 0)
        match_bot_move(g->m, netgame__now_ms(), token, mv);
    else
        netgame__warn(g, _("bot move failed: %s"), _(tb_strerror(rc)));
    netgame__dispatch(g);
}

static void bot_start(Netgame *g)
{
    const Core_Position *pos =
        proto_transcript_position(match_transcript(g->m));
    if (netbot_busy(g->bot) || g->bot_want == 0)
        return;
    if (g->bot == NULL &&
        netbot_new(g->loop, g->cfg.bot_level, bot_done, g, &g->bot) != 0) {
        netgame__warn(g, _("cannot start the bot"));
        return;
    }
    /* In a match with a clock the bot keeps to its time as the engine
     * matches do (bot_time_for_move): a deep level never loses on time. */
    int side = core_side_to_move(pos);
    int64_t left = netgame_clock_left(g, side);
    const Proto_Transcript *t = match_transcript(g->m);
    const Proto_Clock *c = proto_transcript_clock(t);
    uint32_t time_ms = 0;
    if (left >= 0 && c->kind != PROTO_CLOCK_NONE) /* (a delay as an increment) */
        time_ms = bot_time_for_moves(
            (uint64_t)left, (uint64_t)c->inc_ms + c->delay_ms,
            proto_clock_moves_to_go(c, proto_transcript_made(t, side)));
    if (netbot_think(g->bot, pos, time_ms, g->cfg.seed + core_ply(pos),
                     g->bot_want) != 0)
        netgame__warn(g, _("cannot start the bot"));
}

/* ---- the connection to the relay ------------------------------------ */

static void conn_connected(Net_Conn *c, int status)
{
    Netgame *g = net_conn_user(c);
    uint8_t hello[LOBBY_WIRE_HELLO_MAX];
    if (status == 0 && !g->freed && g->conn == c) {
        (void)net_send(c, hello, seat_hello(g->st, netgame__now_ms(), hello));
        netgame__dispatch(g); /* the seat's deadline for the welcome */
    }
}

static void conn_frame(Net_Conn *c, const uint8_t *p, size_t len)
{
    Netgame *g = net_conn_user(c);
    if (g->freed || g->conn != c)
        return;
    int rc = seat_input(g->st, netgame__now_ms(), p, len);
    if (rc != 0)
        net_close(c, rc);
    netgame__dispatch(g);
}

static void conn_closed(Net_Conn *c, int reason)
{
    Netgame *g = net_conn_user(c);
    if (g->freed) {
        if (--g->closing == 0)
            free(g);
        return;
    }
    g->closing--;
    if (g->conn != c)
        return;
    g->conn = NULL;
    seat_closed(g->st, netgame__now_ms(), reason);
    netgame__dispatch(g);
}

/* Connect to node (the seat's choice); a failure at once is a close. */
static void conn_open(Netgame *g, unsigned node)
{
    static const Net_Callbacks ncb = {conn_connected, conn_frame, conn_closed,
                                      NULL};
    Net_Limits lim;
    memset(&lim, 0, sizeof lim);
    lim.max_frame = LOBBY_WIRE_MESSAGE_MAX;
    int rc = net_connect(g->loop, (const struct sockaddr *)&g->nodes[node],
                         &lim, &ncb, g, &g->conn);
    if (rc == 0)
        g->closing++;
    else
        seat_closed(g->st, netgame__now_ms(), rc);
}

void netgame__conn_close(Netgame *g)
{
    if (g->conn != NULL)
        net_close(g->conn, 0);
}

/* ---- carrying out the seat's outputs --------------------------------- */

static void done(Netgame *g)
{
    if (g->done)
        return;
    g->done = 1;
    if (g->timers_open)
        uv_timer_stop(&g->tick_timer);
    /* (what is queued is written first: the seat's DONE reaches the
     * relay) */
    if (g->conn != NULL)
        net_close_flush(g->conn, 0);
    if (g->hooks.on_done)
        g->hooks.on_done(g);
}

static void desync_report(Netgame *g)
{
    int rc = netstore_report(g->m, g->cfg.role, g->log_path, g->result.report,
                             sizeof g->result.report);
    if (rc != 0) {
        netgame__warn(g, _("cannot write the desync report %s"),
                      g->result.report);
        g->result.report[0] = '\0';
    }
    netgame__say(g, "desync: the game stopped at ply %u; report written to %s",
                 match_result(g->m)->desync_ply,
                 g->result.report[0] ? g->result.report : "(none)");
}

/* The outcome as the session has it (the report path is ours). */
static void sync_result(Netgame *g)
{
    const Match_Result *r = match_result(g->m);
    g->result.finished = r->finished;
    g->result.desync = r->desync;
    g->result.desync_ply = r->desync_ply;
    g->result.plies = r->plies;
    g->result.status = r->status;
    memcpy(g->result.final_hash, r->final_hash, sizeof r->final_hash);
    g->result.refused = r->refused;
}

static void carry_out(Netgame *g, const Match_Out *o)
{
    switch (o->kind) {
    case MATCH_OUT_SEND:
        if (g->conn != NULL)
            (void)net_send(g->conn, o->data, o->len);
        break;
    case MATCH_OUT_LOG_OPEN:
        log_open(g, o->count, o->seq);
        break;
    case MATCH_OUT_LOG:
        if (netstore_log_append(g->log, o->data, o->len) != 0)
            netgame__warn(g, _("cannot append to the log %s"), g->log_path);
        break;
    case MATCH_OUT_LOG_END:
        log_end(g, o);
        break;
    case MATCH_OUT_SEQ:
        if (netstore_seq_save(&g->seq, o->seq, o->count) != 0)
            netgame__warn(g, _("cannot write %s.seq"), g->log_path);
        break;
    case MATCH_OUT_PLY:
        if (g->hooks.on_ply)
            g->hooks.on_ply(g, o->ply, o->side, o->text, o->hex);
        break;
    case MATCH_OUT_NOTE:
    case MATCH_OUT_WARN:
        say(g, o->kind == MATCH_OUT_WARN, &o->note, o->text);
        break;
    case MATCH_OUT_THINK:
        g->bot_want = o->seq;
        bot_start(g);
        break;
    case MATCH_OUT_DESYNC:
        desync_report(g);
        break;
    case MATCH_OUT_DONE:
        sync_result(g);
        done(g);
        break;
    case MATCH_OUT_REFETCH: /* the seat's SEAT_OUT_CLOSE */
    case MATCH_OUT_RETRACT: /* the session said why in a warning */
        break;
    }
}

static void presence(Netgame *g, Lobby_Role seat, int present)
{
    if (g->hooks.on_presence)
        g->hooks.on_presence(g, seat, present);
}

/* Let into the room: the lines of a first welcome, or "reconnected". */
static void link_up(Netgame *g, const Seat_Out *o)
{
    Lobby_Role role = g->cfg.role;
    /* (a seat taken back while the lobby was away said it was lost
     * before its first welcome: it says it is back) */
    if (!o->first || g->lost_said)
        netgame__say(g, "lobby: reconnected");
    else if (role != LOBBY_ROLE_HOST && g->cfg.out != NULL) {
        /* Plain lines: a guest or spectator learns it is in before the
         * first move, and who is not there (the host learns it from its
         * invite lines; the screen shows who is present). Later changes
         * come as the session's presence notes. */
        netgame__say(g, "lobby: connected");
        if (!o->host_present)
            netgame__say(g, "lobby: host gone (waiting for it to come back)");
        if (role == LOBBY_ROLE_SPECTATOR && o->guest_present)
            netgame__say(g, "lobby: guest present");
    }
    g->lost_said = 0;
    presence(g, role, 1);
    if (role != LOBBY_ROLE_HOST)
        presence(g, LOBBY_ROLE_HOST, o->host_present);
    if (role != LOBBY_ROLE_GUEST)
        presence(g, LOBBY_ROLE_GUEST, o->guest_present);
    if (role == LOBBY_ROLE_HOST && !g->room_printed) {
        g->room_printed = 1;
        netgame__say(g, "invite: %s", g->seat.invite.text);
        netgame__say(g, "watch: %s", g->seat.watch.text);
        netgame__say(g, "lobby: %s", g->lobby);
        if (g->hooks.on_room)
            g->hooks.on_room(g, g->seat.invite.text, g->seat.watch.text,
                             g->lobby);
    }
}

/* The seat stopped without the game over: the words (advice.h) as a
 * warning, and the seat is done (a joiner refused with SEAT has looked
 * already: seat.c). */
static void failed(Netgame *g, const Seat_Out *o)
{
    char text[640];
    /* it never had a seat (a rated seek's refusal comes to a --me
     * joiner, which waits for its room as if let in: never seated) */
    if ((o->failure == SEAT_FAIL_ADMISSION || o->reason == TB_E_RATING) &&
        !g->resumed)
        netstore_forget(g->log_path, &g->seq);
    /* (a host typed no code: its advice names its own invite code) */
    advice_seat_stopped(text, sizeof text, g->lobby, g->cfg.role,
                        g->cfg.code != NULL ? g->cfg.code : g->seat.invite.text,
                        o->failure, o->reason, o->refused,
                        g->log_path[0] != '\0');
    netgame__warn(g, "%s", text);
    g->result.finished = 0;
    done(g);
}

static void carry_out_seat(Netgame *g, const Seat_Out *o)
{
    switch (o->kind) {
    case SEAT_OUT_MATCH:
        carry_out(g, &o->m);
        break;
    case SEAT_OUT_CONNECT:
        conn_open(g, o->node);
        break;
    case SEAT_OUT_CLOSE:
        netgame__conn_close(g);
        break;
    case SEAT_OUT_UP:
        link_up(g, o);
        break;
    case SEAT_OUT_PRESENCE:
        presence(g, (Lobby_Role)o->who, o->present);
        break;
    case SEAT_OUT_LOST:
        if (g->hooks.on_retry)
            g->hooks.on_retry(g, o->attempt, o->wait_ms);
        if (o->first && o->before_room) {
            /* a paired guest (the pool's, a series' next game) that came
             * before its host made the room: no loss, a wait (a trial
             * read "connection lost" as a failure) */
            netgame__say(g, "lobby: the host's room is not there yet; "
                            "trying again");
        } else if (o->first) {
            g->lost_said = 1;
            presence(g, g->cfg.role, 0);
            netgame__say(g, "lobby: connection lost (%s); reconnecting",
                         net_strerror(o->reason));
        }
        break;
    case SEAT_OUT_FAILED:
        failed(g, o);
        break;
    case SEAT_OUT_SEND:
        if (g->conn != NULL)
            (void)net_send(g->conn, o->data, o->len);
        break;
    case SEAT_OUT_SEEKED:
        if (o->reason == 0) {
            if (!g->seek_listed)
                netgame__say(g, "seek: listed");
            g->seek_listed = 1;
        } else if (!g->seek_listed &&
                   proto_transcript_count(match_transcript(g->m)) == 0) {
            /* (an unlisted room nobody can find: the seek ends) */
            netgame__warn(g, _("seek: not listed: %s"),
                          _(tb_strerror(o->reason)));
            g->result.finished = 0;
            done(g);
        } else {
            netgame__warn(g, _("seek: not listed again: %s"),
                          _(tb_strerror(o->reason)));
        }
        break;
    }
}

uint64_t netgame__wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void on_tick(uv_timer_t *h)
{
    Netgame *g = h->data;
    seat_tick(g->st, netgame__now_ms());
    netgame__dispatch(g);
}

void netgame__dispatch(Netgame *g)
{
    Seat_Out o;
    while (!g->freed && seat_poll(g->st, &o))
        carry_out_seat(g, &o);
    if (g->freed)
        return;
    if (netstore_keep_turn(&g->seq, g->m, netgame__now_ms(),
                           netgame__wall_ms()) != 0)
        netgame__warn(g, _("cannot write %s.seq"), g->log_path);
    sync_result(g);
    if (g->done || !g->timers_open)
        return;
    uint64_t at = seat_deadline(g->st), now = netgame__now_ms();
    if (at == UINT64_MAX)
        uv_timer_stop(&g->tick_timer);
    else
        uv_timer_start(&g->tick_timer, on_tick, at > now ? at - now : 0, 0);
}

/* ---- what a front end calls ------------------------------------------ */

/* A typed line to the session. A move typed on the player's turn is read
 * the way the terminal reads it (line_cmd_move: the action and piece
 * letters may be left out when one legal move fits) and refused with how
 * moves look when it is none; a line typed ahead goes as it is, since it
 * is read later against another position. */
static int driver_line(Netgame *g, const char *line)
{
    const Core_Position *pos =
        proto_transcript_position(match_transcript(g->m));
    if (!match_conduct_line(line) && match_side(g->m) >= 0 &&
        core_side_to_move(pos) == match_side(g->m) &&
        core_status(pos).outcome == CORE_ONGOING) {
        char canon[CORE_NOTATION_MAX], why[CORE_NOTATION_MAX + 160];
        int rc = line_cmd_move(pos, line, canon, sizeof canon, why, sizeof why);
        if (rc == 0)
            return match_command(g->m, netgame__now_ms(), canon);
        /* said as the session says its own refusals (a typed note) */
        match_refused_line(g->m, cli_token(line), why);
        return 0;
    }
    return match_command(g->m, netgame__now_ms(), line);
}

int netgame_submit(Netgame *g, const char *line)
{
    int rc = driver_line(g, line);
    netgame__dispatch(g);
    return rc;
}

int netgame_feed(Netgame *g, Lobby_Role from, const uint8_t *data, size_t len)
{
    int rc = match_frame(g->m, netgame__now_ms(), 0, (int)from, data, len);
    netgame__dispatch(g);
    return rc;
}

