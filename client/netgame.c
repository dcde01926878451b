/*
 * netgame.c: the libuv driver of one seat or spectator of a network game
 * (netgame.h). Everything a seat decides lives in its match/ session (a
 * state machine without I/O, docs/session.md); this file owns what the
 * session may not touch: the lobby connection and its retries, the timer
 * at the session's next deadline, the match log, the seat and FILE.seq
 * files (netstore.h), the bot's search on libuv's thread pool, and the
 * printed lines. Each callback feeds the session and then carries out its
 * outputs in order (dispatch). Time is cli_now() in ms.
 *
 * Test switches (read here): TABULA_TEST_DESYNC_PLY=N makes a player's own
 * state diverge at its first move at ply N or later; TABULA_TEST_CLOCK_LIE=1
 * reports no time used on each move; TABULA_TEST_ABSENCE_MS=N sets the
 * absence countdown.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "advice.h"
#include "engine.h"
#include "cli.h"
#include "line_cmd.h"
#include "netgame.h"
#include "netstore.h"
#include "seat.h"
#include "tb_error.h"

struct Netgame {
    uv_loop_t *loop;
    Netgame_Config cfg;
    Netgame_Hooks hooks;
    void *user;
    char lobby[LOBBY_ADDR_LIST_MAX];
    char label[16];
    char log_path[512];
    Netstore_Seat seat;
    struct sockaddr_storage addr;
    Lobby_Client_Config lcfg;
    Lobby_Client *lc;
    Match *m;
    Proto_Log *log;
    Netstore_Seq seq;
    int turn_kept;      /* turn_start was kept in FILE.seq */
    int64_t turn_start; /* the turn in progress began, cli_now's ms */
    uv_timer_t tick_timer, retry_timer;
    int timers_open, closing_timers;
    int bot_busy;         /* a search runs on libuv's thread pool */
    uint64_t bot_want;    /* the latest THINK token not yet searched */
    int freed;            /* netgame_free ran while the search ran */
    int welcomed, room_printed, refetch, done;
    Lobby_Client *probe;  /* a refused joiner's look as a spectator */
    int probe_reason;     /* what the look found: TB_E_SEAT or
                             TB_E_SIGNATURE; 0 while it looks */
    double lost_at;
    unsigned attempts; /* failed attempts since the connection was lost */
    size_t untried; /* --lobby's nodes not yet tried before a welcome */
    uint64_t room_next; /* the room's next sequence number at the welcome */
    Netgame_Result result;
};

static void dispatch(Netgame *g);

void *netgame_user(const Netgame *g) { return g->user; }
const Netgame_Result *netgame_result(const Netgame *g) { return &g->result; }
int netgame_keeps_log(const Netgame *g) { return g->log_path[0] != '\0'; }
const Proto_Transcript *netgame_transcript(const Netgame *g)
{
    return match_transcript(g->m);
}

static uint64_t now_ms(void) { return (uint64_t)(cli_now() * 1000.0); }

/* ---- printed lines --------------------------------------------------- */

static void say(Netgame *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(Netgame *g, const char *fmt, ...)
{
    char text[MATCH_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (g->hooks.on_note)
        g->hooks.on_note(g, 0, text);
    if (g->cfg.out == NULL)
        return;
    if (g->label[0] != '\0')
        fprintf(g->cfg.out, "[%s] ", g->label);
    fprintf(g->cfg.out, "%s\n", text);
    fflush(g->cfg.out);
}

static void warn(Netgame *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void warn(Netgame *g, const char *fmt, ...)
{
    char text[MATCH_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (g->hooks.on_note) {
        g->hooks.on_note(g, 1, text);
        return;
    }
    fprintf(stderr, "tabula: %s%s%s\n", g->label, g->label[0] ? ": " : "",
            text);
}

/* ---- the log --------------------------------------------------------- */

/* The log as the session asks (netstore.h); none without --log. */
static void log_open(Netgame *g, uint32_t count)
{
    int rc;
    if (g->log_path[0] == '\0')
        return;
    rc = netstore_log_open(&g->log, g->log_path, g->m, count);
    if (rc != 0)
        warn(g, _("cannot write the log %s: %s"), g->log_path, _(tb_strerror(rc)));
}

static void log_end(Netgame *g, const Match_Out *o)
{
    if (g->log == NULL)
        return;
    if (o->count > 0 && proto_log_finish(g->log, o->count, o->hash) != 0)
        warn(g, _("cannot finish the log %s"), g->log_path);
    proto_log_close(g->log);
    g->log = NULL;
    say(g, "log: %s", g->log_path);
}

/* ---- the bot --------------------------------------------------------- */

/* A bot's search runs on libuv's thread pool, on its own copy of the
 * position, so a deep search never stalls the loop (heartbeats, the
 * other seats and an embedded lobby keep running). */
typedef struct Ng_Work {
    uv_work_t req;
    Netgame *g;
    Core_Position *pos;
    int level;
    uint32_t time_ms; /* from the bot's clock; 0: the level's budget only */
    uint64_t seed, token;
    Core_Move mv;
    int rc;
} Ng_Work;

static void bot_start(Netgame *g);

static uint64_t bot_clock_ms(void *ctx)
{
    (void)ctx;
    return now_ms();
}

static void bot_work(uv_work_t *req)
{
    Ng_Work *w = req->data;
    Bot_Limits lim = bot_limits_level(w->level);
    if (w->time_ms > 0) { /* the level's budget, cut to what the clock allows */
        lim.time_ms = w->time_ms;
        lim.clock_ms = bot_clock_ms;
    }
    w->rc = bot_search(w->pos, &lim, w->seed, &w->mv, NULL);
}

static void bot_after(uv_work_t *req, int status)
{
    Ng_Work *w = req->data;
    Netgame *g = w->g;
    g->bot_busy = 0;
    if (g->freed) {
        if (--g->closing_timers == 0)
            free(g);
    } else if (g->bot_want != 0 && w->token != g->bot_want) {
        bot_start(g); /* the game moved on while we searched */
    } else {
        g->bot_want = 0;
        if (status == 0 && w->rc == 0)
            match_bot_move(g->m, now_ms(), w->token, &w->mv);
        else
            warn(g, _("bot move failed: %s"), _(tb_strerror(w->rc)));
        dispatch(g);
    }
    core_position_free(w->pos);
    free(w);
}

static void bot_start(Netgame *g)
{
    const Core_Position *pos = proto_transcript_position(match_transcript(g->m));
    Ng_Work *w;
    if (g->bot_busy || g->bot_want == 0)
        return;
    if ((w = calloc(1, sizeof *w)) == NULL)
        return;
    w->g = g;
    w->pos = core_position_clone(pos);
    w->level = g->cfg.bot_level;
    /* In a match with a clock the bot keeps to its time as the engine
     * matches do (bot_time_for_move): a deep level never loses on time. */
    int64_t left = netgame_clock_left(g, core_side_to_move(pos));
    uint32_t inc = 0;
    if (left >= 0 &&
        proto_transcript_clock(match_transcript(g->m), &inc) > 0)
        w->time_ms = bot_time_for_move((uint64_t)left, inc);
    w->seed = g->cfg.seed + core_ply(pos);
    w->token = g->bot_want;
    w->req.data = w;
    if (w->pos == NULL ||
        uv_queue_work(g->loop, &w->req, bot_work, bot_after) != 0) {
        core_position_free(w->pos);
        free(w);
        warn(g, _("cannot start the bot"));
        return;
    }
    g->bot_busy = 1;
}

/* ---- carrying out the session's outputs ------------------------------ */

static void done(Netgame *g)
{
    if (g->done)
        return;
    g->done = 1;
    if (g->timers_open)
        uv_timer_stop(&g->tick_timer);
    if (g->lc != NULL)
        lobby_client_close(g->lc);
    if (g->hooks.on_done)
        g->hooks.on_done(g);
}

static void on_tick(uv_timer_t *h)
{
    Netgame *g = h->data;
    match_tick(g->m, now_ms());
    dispatch(g);
}

static void desync_report(Netgame *g)
{
    int rc = netstore_report(g->m, g->cfg.role, g->log_path, g->result.report,
                             sizeof g->result.report);
    if (rc != 0) {
        warn(g, _("cannot write the desync report %s"), g->result.report);
        g->result.report[0] = '\0';
    }
    say(g, "desync: the game stopped at ply %u; report written to %s",
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
        if (g->lc != NULL && lobby_client_connected(g->lc))
            lobby_client_send(g->lc, o->data, o->len);
        break;
    case MATCH_OUT_LOG_OPEN:
        log_open(g, o->count);
        break;
    case MATCH_OUT_LOG:
        if (netstore_log_append(g->log, o->data, o->len) != 0)
            warn(g, _("cannot append to the log %s"), g->log_path);
        break;
    case MATCH_OUT_LOG_END:
        log_end(g, o);
        break;
    case MATCH_OUT_SEQ:
        if (netstore_seq_save(&g->seq, o->seq, o->count) != 0)
            warn(g, _("cannot write %s.seq"), g->log_path);
        break;
    case MATCH_OUT_PLY:
        if (g->hooks.on_ply)
            g->hooks.on_ply(g, o->ply, o->side, o->text, o->hex);
        break;
    case MATCH_OUT_NOTE:
        say(g, "%s", o->text);
        break;
    case MATCH_OUT_WARN:
        warn(g, "%s", o->text);
        break;
    case MATCH_OUT_THINK:
        g->bot_want = o->seq;
        bot_start(g);
        break;
    case MATCH_OUT_REFETCH:
        /* Frames were lost on the way: ask again from the resume point. */
        if (g->lc != NULL && lobby_client_connected(g->lc)) {
            g->refetch = 1;
            lobby_client_close(g->lc);
        }
        break;
    case MATCH_OUT_DESYNC:
        desync_report(g);
        break;
    case MATCH_OUT_RETRACT: /* the session said why in a warning */
        break;
    case MATCH_OUT_DONE:
        sync_result(g);
        done(g);
        break;
    }
}

/* Unix time in ms: only for the turn start kept in FILE.seq, which must
 * outlive the process (cli_now's monotonic clock does not). */
static uint64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Keep in FILE.seq the wall time at which the turn in progress began,
 * when the session's start of it moved (a move, a takeback, a resume). */
static void keep_turn(Netgame *g)
{
    uint64_t now = now_ms();
    int64_t ran = match_turn_elapsed(g->m, now);
    if (ran < 0 || g->seq.fd < 0)
        return;
    int64_t start = (int64_t)now - ran; /* on cli_now's clock */
    if (g->turn_kept && start == g->turn_start)
        return;
    g->turn_kept = 1;
    g->turn_start = start;
    if (netstore_seq_turn(&g->seq, wall_ms() - (uint64_t)ran) != 0)
        warn(g, _("cannot write %s.seq"), g->log_path);
}

static void dispatch(Netgame *g)
{
    Match_Out o;
    while (match_poll(g->m, &o))
        carry_out(g, &o);
    keep_turn(g);
    sync_result(g);
    if (g->done || !g->timers_open)
        return;
    uint64_t at = match_deadline(g->m), now = now_ms();
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
    const Core_Position *pos = proto_transcript_position(match_transcript(g->m));
    if (!match_conduct_line(line) && match_side(g->m) >= 0 &&
        core_side_to_move(pos) == match_side(g->m) &&
        core_status(pos).outcome == CORE_ONGOING) {
        char canon[CORE_NOTATION_MAX], why[CORE_NOTATION_MAX + 160];
        int rc = line_cmd_move(pos, line, canon, sizeof canon, why, sizeof why);
        if (rc == 0)
            return match_command(g->m, now_ms(), canon);
        say(g, "refused: '%s': %s", cli_token(line), why);
        return 0;
    }
    return match_command(g->m, now_ms(), line);
}

int netgame_submit(Netgame *g, const char *line)
{
    int rc = driver_line(g, line);
    dispatch(g);
    return rc;
}

int netgame_feed(Netgame *g, Lobby_Role from, const uint8_t *data, size_t len)
{
    int rc = match_frame(g->m, now_ms(), 0, (int)from, data, len);
    dispatch(g);
    return rc;
}

int64_t netgame_clock_left(const Netgame *g, int side)
{
    return match_clock_left(g->m, now_ms(), side);
}

int netgame_draw_offer(const Netgame *g) { return match_draw_offer(g->m); }

int netgame_takeback(const Netgame *g, uint32_t *plies)
{
    return match_takeback(g->m, plies);
}

size_t netgame_lines_waiting(const Netgame *g)
{
    return match_lines_waiting(g->m);
}

int netgame_caught_up(const Netgame *g)
{
    return g->welcomed && g->lost_at == 0 &&
           match_last_seq(g->m) + 1 >= g->room_next;
}

int64_t netgame_absence_left(const Netgame *g)
{
    return match_absence_left(g->m, now_ms());
}

/* ---- the lobby connection -------------------------------------------- */

static void on_welcome(Lobby_Client *c, const Lobby_Welcome *w)
{
    Netgame *g = lobby_client_user(c);

    if (g->welcomed)
        say(g, "lobby: reconnected");
    else if (g->cfg.role != LOBBY_ROLE_HOST && g->cfg.out != NULL) {
        /* Plain lines: a guest or spectator learns it is in before the
         * first move, and who is not there (the host learns it from its
         * invite lines; the screen shows who is present). Later changes
         * come as the session's presence notes. */
        say(g, "lobby: connected");
        if (!w->host_present)
            say(g, "lobby: host gone (waiting for it to come back)");
        if (g->cfg.role == LOBBY_ROLE_SPECTATOR && w->guest_present)
            say(g, "lobby: guest present");
    }
    g->welcomed = 1;
    g->lost_at = 0;
    g->attempts = 0;
    g->room_next = w->next_seq;
    if (g->hooks.on_presence) {
        g->hooks.on_presence(g, g->cfg.role, 1);
        if (g->cfg.role != LOBBY_ROLE_HOST)
            g->hooks.on_presence(g, LOBBY_ROLE_HOST, w->host_present);
        if (g->cfg.role != LOBBY_ROLE_GUEST)
            g->hooks.on_presence(g, LOBBY_ROLE_GUEST, w->guest_present);
    }
    if (g->cfg.role == LOBBY_ROLE_HOST && !g->room_printed) {
        g->room_printed = 1;
        say(g, "invite: %s", g->lcfg.invite.text);
        say(g, "watch: %s", g->lcfg.watch.text);
        say(g, "lobby: %s", g->lobby);
        if (g->hooks.on_room)
            g->hooks.on_room(g, g->lcfg.invite.text, g->lcfg.watch.text,
                             g->lobby);
    }
    match_welcome(g->m, now_ms(), w->host_pk, w->first_seq, w->next_seq,
                  w->host_present, w->guest_present);
    dispatch(g);
}

static void on_frame(Lobby_Client *c, uint64_t seq, Lobby_Role from,
                     const uint8_t *data, size_t len)
{
    Netgame *g = lobby_client_user(c);
    match_frame(g->m, now_ms(), seq, (int)from, data, len);
    dispatch(g);
}

static void on_ack(Lobby_Client *c, uint64_t seq)
{
    Netgame *g = lobby_client_user(c);
    match_acked(g->m, now_ms(), seq);
    dispatch(g);
}

static void on_presence(Lobby_Client *c, Lobby_Role seat, int present)
{
    Netgame *g = lobby_client_user(c);
    if (g->done)
        return;
    if (g->hooks.on_presence && seat != g->cfg.role)
        g->hooks.on_presence(g, seat, present);
    match_presence(g->m, now_ms(), (int)seat, present);
    dispatch(g);
}

/* Milliseconds before the next attempt (seat.h: the host comes back
 * first; each failed attempt waits longer). */
static uint64_t retry_delay(Netgame *g, int reason)
{
    return seat_retry_ms((int)g->cfg.role, reason, g->attempts++);
}

static void on_retry(uv_timer_t *h)
{
    Netgame *g = h->data;
    if (g->done || g->lc == NULL)
        return;
    int rc = lobby_client_resume(g->lc, match_last_seq(g->m));
    if (rc != 0 && rc != TB_E_STATE)
        uv_timer_start(&g->retry_timer, on_retry, retry_delay(g, rc), 0);
}

/* The seat never got into its room: the words (advice.h) as a warning,
 * and the seat is done. */
static void admission_failed(Netgame *g, int reason)
{
    char text[640];
    advice_lobby_failure(text, sizeof text, g->lobby, reason, g->cfg.role,
                         g->cfg.code);
    warn(g, "%s", text);
    g->result.finished = 0;
    done(g);
}

/*
 * A joiner refused with SEAT found the room by the code's first twelve
 * symbols (the lobby's lookup) but not its fingerprint, the last group,
 * which only the host's key checks and the lobby never sees: the code
 * may be mistyped there, or the game really has its guest. The joiner
 * looks once more as a spectator with the same code, which the lobby
 * admits with the host's key: a key the fingerprint does not match
 * means a mistyped last group (TB_E_SIGNATURE, "is the code
 * mistyped?"); a match, or any other answer, the seat taken. The look
 * ends on the next turn of the loop, outside the client's callbacks.
 */
static void probe_finish(uv_timer_t *h)
{
    Netgame *g = h->data;
    lobby_client_free(g->probe);
    g->probe = NULL;
    admission_failed(g, g->probe_reason);
}

static void probe_end(Netgame *g, int reason)
{
    if (g->probe_reason != 0 || g->done)
        return;
    g->probe_reason = reason;
    uv_timer_start(&g->retry_timer, probe_finish, 0, 0);
}

static void probe_welcome(Lobby_Client *c, const Lobby_Welcome *w)
{
    (void)w; /* the client checked the key against the code already */
    probe_end(lobby_client_user(c), TB_E_SEAT);
}

static void probe_disconnect(Lobby_Client *c, int reason)
{
    probe_end(lobby_client_user(c),
              reason == TB_E_SIGNATURE ? TB_E_SIGNATURE : TB_E_SEAT);
}

static const Lobby_Client_Callbacks probe_callbacks = {
    probe_welcome, NULL, NULL, NULL, probe_disconnect};

static int probe_start(Netgame *g)
{
    Lobby_Client_Config pc;
    memset(&pc, 0, sizeof pc);
    pc.role = LOBBY_ROLE_SPECTATOR;
    pc.invite = g->lcfg.invite;
    pc.limits = g->lcfg.limits;
    pc.source = g->lcfg.source;
    return lobby_client_new(g->loop, (const struct sockaddr *)&g->addr, &pc,
                            &probe_callbacks, g, 0, &g->probe);
}

static void on_disconnect(Lobby_Client *c, int reason)
{
    Netgame *g = lobby_client_user(c);
    if (g->done)
        return;
    if (reason == 0) {
        if (g->refetch) { /* our own close, to ask for lost frames */
            g->refetch = 0;
            match_disconnected(g->m, now_ms());
            dispatch(g);
            uv_timer_start(&g->retry_timer, on_retry, 0, 0);
        }
        return;
    }
    if (!g->welcomed) {
        /* A node that cannot be reached, or answers as no lobby does (not
         * a lobby's refusal, which every node would give alike): the
         * client has moved on to the next node of --lobby; each is tried
         * once before the seat gives up. */
        if (lobby_client_refusal(c) == 0 && g->untried > 0) {
            g->untried--;
            uv_timer_start(&g->retry_timer, on_retry, 0, 0);
            return;
        }
        if (reason == TB_E_SEAT && g->cfg.role == LOBBY_ROLE_GUEST &&
            g->probe == NULL && g->probe_reason == 0 && probe_start(g) == 0)
            return; /* told once the look as a spectator ends */
        admission_failed(g, reason);
        return;
    }
    /* A seat let in before and now refused for good (seat.h: another
     * connection with its key holds it, ...) stops rather than take the
     * seat back in turn with that connection. */
    if (lobby_client_refusal(c) != 0 && seat_refusal_ends(reason)) {
        char text[640];
        advice_seat_refused(text, sizeof text, g->lobby, reason);
        warn(g, "%s", text);
        g->result.finished = 0;
        done(g);
        return;
    }
    if (g->lost_at == 0) {
        g->lost_at = cli_now();
        if (g->hooks.on_presence)
            g->hooks.on_presence(g, g->cfg.role, 0);
        say(g, "lobby: connection lost (%s); reconnecting",
            net_strerror(reason));
    } else if ((cli_now() - g->lost_at) * 1000.0 > SEAT_GIVE_UP_MS) {
        char text[640];
        if (lobby_client_refusal(c) != 0) /* there, but refusing */
            advice_gave_up_refused(text, sizeof text, g->lobby,
                                   SEAT_GIVE_UP_MS / 1000, reason,
                                   g->log_path[0] != '\0');
        else
            advice_gave_up(text, sizeof text, g->lobby, g->cfg.role,
                           SEAT_GIVE_UP_MS / 1000, g->log_path[0] != '\0');
        warn(g, "%s", text);
        done(g);
        return;
    }
    match_disconnected(g->m, now_ms());
    dispatch(g);
    if (!g->done)
        uv_timer_start(&g->retry_timer, on_retry, retry_delay(g, reason), 0);
}

static const Lobby_Client_Callbacks ng_callbacks = {
    on_welcome, on_frame, on_ack, on_presence, on_disconnect};

/* ---- making a seat --------------------------------------------------- */

/* The seat's identity and codes: from the seat file of a resumed seat,
 * else new; 1 resumed, 0 new, or an error with why. */
static int seat_setup(Netgame *g, const Netgame_Config *cfg, char *why,
                      size_t why_cap)
{
    int resumed = 0, rc = 0;
    Netstore_Seat *st = &g->seat;
    if (g->log_path[0] != '\0' &&
        (resumed = netstore_seat_load(g->log_path, st, why, why_cap)) < 0)
        return resumed;
    if (resumed && cfg->game != NULL && st->game != NULL &&
        st->game != cfg->game) {
        /* The seat file's game wins on resume; another game asked for
         * means another match was meant: refuse rather than resume. */
        snprintf(why, why_cap, _("%s holds a %s match, not %s: give another "
                 "--log file, or host %s to resume it"), g->log_path,
                 core_game_name(st->game), core_game_name(cfg->game),
                 core_game_name(st->game));
        return TB_E_STATE;
    }
    Lobby_Code asked;
    if (resumed && cfg->role == LOBBY_ROLE_GUEST && cfg->code != NULL &&
        lobby_code_parse(cfg->code, &asked) == 0 &&
        memcmp(asked.lookup, st->invite.lookup, LOBBY_LOOKUP_BYTES) != 0) {
        /* A seat file of another match: joining with it would resume
         * that match under this code. */
        snprintf(why, why_cap, _("%s.seat belongs to the match of invite "
                 "%s, not %s: give another --log file"), g->log_path,
                 st->invite.text, asked.text);
        return TB_E_STATE;
    }
    if (!resumed && cfg->role != LOBBY_ROLE_SPECTATOR &&
        g->log_path[0] != '\0' && access(g->log_path, F_OK) == 0) {
        /* A log without its seat file cannot be resumed, and a new
         * match would write over it: keep it. */
        snprintf(why, why_cap, _("%s exists already, without %s.seat to "
                 "resume its match: give another --log file (tabula replay "
                 "shows what it holds)"), g->log_path, g->log_path);
        return TB_E_STATE;
    }
    if (resumed) {
        memcpy(g->lcfg.seat_secret, st->seat_secret, sizeof st->seat_secret);
        g->lcfg.invite = st->invite;
        g->lcfg.watch = st->watch;
    } else {
        rc = proto_identity_generate(&st->id);
        if (rc == 0)
            rc = lobby_random(g->lcfg.seat_secret, LOBBY_SEAT_SECRET_BYTES);
        if (rc == 0 && cfg->role == LOBBY_ROLE_HOST) {
            rc = lobby_code_new(st->id.pk, &g->lcfg.invite);
            if (rc == 0)
                rc = lobby_code_new(st->id.pk, &g->lcfg.watch);
        }
    }
    if (rc == 0 && cfg->role == LOBBY_ROLE_GUEST && !resumed &&
        lobby_code_parse(cfg->code, &g->lcfg.invite) != 0)
        rc = TB_E_CODE;
    if (rc == 0 && cfg->role == LOBBY_ROLE_SPECTATOR &&
        lobby_code_parse(cfg->code, &g->lcfg.watch) != 0)
        rc = TB_E_CODE;
    if (rc == TB_E_CODE)
        snprintf(why, why_cap, _("'%s' is not a code (16 symbols of %s)"),
                 cli_token(cfg->code), LOBBY_CODE_ALPHABET);
    if (rc != 0)
        return rc;
    memcpy(g->lcfg.host_pk, st->id.pk, PROTO_KEY_BYTES);
    if (cfg->role != LOBBY_ROLE_SPECTATOR && g->log_path[0] != '\0') {
        st->role = cfg->role;
        memcpy(st->seat_secret, g->lcfg.seat_secret, sizeof st->seat_secret);
        st->invite = g->lcfg.invite;
        st->watch = g->lcfg.watch;
        snprintf(st->lobby, sizeof st->lobby, "%s", g->lobby);
        if ((rc = netstore_seat_save(g->log_path, st)) != 0) {
            snprintf(why, why_cap, _("cannot write %s.seat"), g->log_path);
            return rc;
        }
    }
    return resumed;
}

/* The session of the seat, resumed from its log when there is one. */
static int session_setup(Netgame *g, int resumed, char *why, size_t why_cap)
{
    Match_Config mc;
    const char *env;
    uint64_t from_seq = 0;
    uint32_t numbered = 0;
    int rc;

    memset(&mc, 0, sizeof mc);
    mc.role = (Match_Role)g->cfg.role;
    mc.game = g->seat.game;
    mc.options = g->seat.options;
    mc.id = g->seat.id;
    if (g->cfg.role != LOBBY_ROLE_SPECTATOR &&
        (rc = lobby_code_seat_key(&g->lcfg.invite, mc.seat_key)) != 0)
        return rc;
    if ((rc = lobby_random(mc.match_id, sizeof mc.match_id)) != 0)
        return rc;
    mc.started = (uint64_t)time(NULL);
    mc.bot = g->cfg.bot_level > 0;
    mc.bot_delay_ms = g->cfg.bot_delay_ms;
    if ((env = getenv("TABULA_TEST_DESYNC_PLY")) != NULL &&
        g->cfg.role != LOBBY_ROLE_SPECTATOR)
        mc.perturb_ply = (uint32_t)strtoul(env, NULL, 10);
    if ((env = getenv("TABULA_TEST_CLOCK_LIE")) != NULL &&
        strcmp(env, "1") == 0 && g->cfg.role != LOBBY_ROLE_SPECTATOR)
        mc.clock_lie = 1;
    if ((env = getenv("TABULA_TEST_ABSENCE_MS")) != NULL)
        mc.absence_ms = (uint32_t)strtoul(env, NULL, 10);
    rc = match_new(&mc, &g->m);
    proto_wipe(&mc.id, sizeof mc.id);
    if (rc != 0)
        return rc;
    g->seq.fd = -1;
    if (g->log_path[0] != '\0' && g->cfg.role != LOBBY_ROLE_SPECTATOR)
        netstore_seq_open(&g->seq, g->log_path, &from_seq, &numbered);
    if (resumed && access(g->log_path, F_OK) == 0) {
        uint8_t *buf = NULL;
        size_t len = 0;
        rc = proto_read_file(g->log_path, &buf, &len);
        if (rc != 0) {
            snprintf(why, why_cap, "%s: %s", g->log_path, _(tb_strerror(rc)));
            return rc;
        }
        char sub[200] = "";
        rc = match_resume(g->m, buf, len, from_seq, numbered, sub,
                          sizeof sub);
        free(buf);
        if (rc != 0) {
            snprintf(why, why_cap, "%s: %s", g->log_path, sub);
            return rc;
        }
        /* G-MC-6: the turn in progress goes on for the time we were away */
        match_resume_turn(g->m,
                          netstore_turn_elapsed(g->seq.turn_at, wall_ms()));
    }
    dispatch(g);
    if (resumed)
        say(g, "resumed: %u envelopes from %s",
            proto_transcript_count(match_transcript(g->m)), g->log_path);
    if (!resumed || match_last_seq(g->m) == 0) {
        /* a new seat, or one that never saw the start */
        if (g->seq.fd >= 0 && ftruncate(g->seq.fd, 0) != 0)
            warn(g, _("cannot reset %s.seq"), g->log_path);
        g->seq.saved = 0;
        g->seq.turn_at = 0;
    } else {
        say(g, _("resuming after lobby sequence number %llu"),
            (unsigned long long)match_last_seq(g->m));
    }
    return 0;
}

int netgame_new(uv_loop_t *loop, const Netgame_Config *cfg,
                const Netgame_Hooks *hooks, void *user, Netgame **out,
                char *why, size_t why_cap)
{
    Netgame *g;
    int rc, resumed;

    *out = NULL;
    why[0] = '\0';
    if (cfg->lobby == NULL || strlen(cfg->lobby) >= sizeof g->lobby ||
        (cfg->role == LOBBY_ROLE_HOST && cfg->game == NULL) ||
        (cfg->role != LOBBY_ROLE_HOST && cfg->code == NULL)) {
        snprintf(why, why_cap, _("missing game, code or lobby"));
        return TB_E_ARG;
    }
    if ((g = calloc(1, sizeof *g)) == NULL)
        return TB_E_NOMEM;
    g->seq.fd = -1;
    g->loop = loop;
    g->cfg = *cfg;
    if (hooks != NULL)
        g->hooks = *hooks;
    g->user = user;
    g->seat.game = cfg->game;
    snprintf(g->lobby, sizeof g->lobby, "%s", cfg->lobby);
    snprintf(g->label, sizeof g->label, "%s", cfg->label ? cfg->label : "");
    snprintf(g->log_path, sizeof g->log_path, "%s",
             cfg->log_path ? cfg->log_path : "");
    snprintf(g->seat.options, sizeof g->seat.options, "%s",
             cfg->options ? cfg->options : "");
    g->cfg.log_path = g->log_path;
    g->lcfg.role = cfg->role;
    rc = 0;
    /* One lobby, or several nodes of one (--lobby A,B: nodes sharing a
     * Redis, docs/lobby-nodes.md): the first is used, the others taken in
     * turn when the connection is lost. */
    struct sockaddr_storage nodes[LOBBY_CLIENT_ADDRS];
    size_t nnodes = 0;
    if (cfg->nnodes > 0 && cfg->nnodes <= LOBBY_CLIENT_ADDRS) {
        nnodes = cfg->nnodes;
        memcpy(nodes, cfg->nodes, nnodes * sizeof nodes[0]);
    } else if (lobby_addr_list_parse(g->lobby, nodes, LOBBY_CLIENT_ADDRS,
                                     &nnodes) != 0) {
        snprintf(why, why_cap, _("bad lobby address '%s'"), cli_token(g->lobby));
        rc = TB_E_ARG;
    }
    if (rc == 0)
        g->addr = nodes[0];
    if (rc != 0)
        goto fail;
    if ((resumed = seat_setup(g, cfg, why, why_cap)) < 0) {
        rc = resumed;
        goto fail;
    }
    uv_timer_init(loop, &g->tick_timer);
    uv_timer_init(loop, &g->retry_timer);
    g->tick_timer.data = g->retry_timer.data = g;
    g->timers_open = 1;
    if ((rc = session_setup(g, resumed, why, why_cap)) != 0)
        goto fail;
    rc = lobby_client_new(loop, (const struct sockaddr *)&g->addr, &g->lcfg,
                          &ng_callbacks, g, match_last_seq(g->m), &g->lc);
    for (size_t i = 1; rc == 0 && i < nnodes; i++)
        rc = lobby_client_add_lobby(g->lc, (const struct sockaddr *)&nodes[i]);
    g->untried = nnodes > 0 ? nnodes - 1 : 0;
    if (rc != 0) {
        snprintf(why, why_cap, _("cannot connect to %s: %s"), g->lobby,
                 net_strerror(rc));
        netgame_free(g);
        return rc;
    }
    *out = g;
    return 0;
fail:
    if (why[0] == '\0')
        snprintf(why, why_cap, "%s", _(tb_strerror(rc)));
    netgame_free(g);
    return rc;
}

static void timer_closed(uv_handle_t *h)
{
    Netgame *g = h->data;
    if (--g->closing_timers == 0)
        free(g);
}

void netgame_free(Netgame *g)
{
    if (g == NULL)
        return;
    lobby_client_free(g->lc);
    g->lc = NULL;
    lobby_client_free(g->probe);
    g->probe = NULL;
    g->done = 1;
    proto_log_close(g->log);
    netstore_seq_close(&g->seq);
    match_free(g->m);
    g->m = NULL;
    proto_identity_wipe(&g->seat.id);
    if (!g->timers_open) {
        free(g);
        return;
    }
    /* The timers live inside g: it goes with the last close callback. */
    g->timers_open = 0;
    g->closing_timers = 2 + g->bot_busy;
    g->freed = 1;
    uv_close((uv_handle_t *)&g->tick_timer, timer_closed);
    uv_close((uv_handle_t *)&g->retry_timer, timer_closed);
}
