/*
 * netgame.c: one seat or spectator of a network game (netgame.h). Every
 * relayed frame is one proto/ envelope; the transcript decides what is
 * valid (signature, chain, turn, legality, state hash). The host sends the
 * match start when the guest's hello arrives (host white, guest black);
 * afterwards the side to move sends its move with the state hash after
 * it. A hash mismatch stops the game at that ply: both players send a
 * desync message carrying their whole state and each writes a report.
 * After a lost connection a player resumes from its last lobby sequence
 * number and re-sends the tail of its transcript (all of it when the
 * lobby lost the room), so a restarted lobby loses nothing; receivers drop
 * envelopes they already hold. The test-only environment variable
 * TABULA_TEST_DESYNC_PLY=N makes a player's own state diverge at its
 * first move at ply N or later (it applies another legal move than the
 * one it sends), to prove the desync is caught at that ply.
 *
 * Match conduct (docs/protocol.md, G-MC-1..9): draw offers and answers,
 * resign, abort, takebacks, a Fischer clock whose readings ride on every
 * move and are checked against our own measurement (a lag allowance of
 * NG_LAG_MS), flag claims, and claims against an opponent whose seat
 * stayed gone past a countdown. Clock time is cli_now() wall time, kept
 * here and in the transcript's signed readings, never in core/. Test
 * switches: TABULA_TEST_CLOCK_LIE=1 reports no time used on each move;
 * TABULA_TEST_ABSENCE_MS=N sets the absence countdown.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "advice.h"
#include "bot.h"
#include "cli.h"
#include "line_cmd.h"
#include "netgame.h"
#include "tb_error.h"

#define NG_TAIL_RESEND 8      /* envelopes re-sent after a reconnect */
#define NG_LINES_MAX 512      /* queued input lines */
#define NG_FINISH_WAIT_MS 3000
#define NG_DESYNC_WAIT_MS 3000
#define NG_RECONNECT_GIVE_UP_MS 60000
#define NG_FRAME_CAP (PROTO_FRAME_PREFIX + PROTO_FRAME_MAX)
/* Envelopes a seat keeps: far above any game (moves end by the rules),
 * a bound on what a peer spamming chat could make us hold. */
#define NG_FRAMES_MAX 65536
/* Clocks (G-MC-6, G-MC-7): the opponent's reported time used per move is
 * accepted down to what we measured minus this lag allowance; a flag is
 * claimed this long after the opponent's time ran out by our measure, so
 * a move sent in its last moment is not raced by the claim. */
#define NG_LAG_MS 500
#define NG_FLAG_GRACE_MS 1000
#define NG_CLOCK_TICK_MS 50
/* The absence countdown (G-MC-9): without a clock 60 s; with one a tenth
 * of base + 40 increments, at least 10 s and at most 60 s. */
#define NG_ABSENT_MS 60000
#define NG_ABSENT_MIN_MS 10000

typedef struct Ng_Frame {
    uint8_t *env; /* envelope without prefix */
    size_t len;
} Ng_Frame;

struct Netgame {
    uv_loop_t *loop;
    Netgame_Config cfg;
    Netgame_Hooks hooks;
    void *user;
    char lobby[64];
    char label[16];
    char log_path[512];
    char options[PROTO_OPTIONS_MAX + 1];
    const Core_Game *game;
    struct sockaddr_storage addr;
    Lobby_Client_Config lcfg;
    Lobby_Client *lc;
    Proto_Identity id;
    Proto_Transcript *t;
    Proto_Log *log;
    int seq_fd;         /* FILE.seq: the last lobby sequence number, or -1 */
    uint64_t seq_saved;
    Ng_Frame *frames;
    size_t nframes, frames_cap;
    uint8_t *buf; /* NG_FRAME_CAP scratch for sealing */
    /* input lines for a human seat */
    char lines[NG_LINES_MAX][CORE_NOTATION_MAX];
    size_t line_head, line_count;
    /* timers: step (0 ms kicks), reconnect, finish polling */
    uv_timer_t step_timer, retry_timer, wait_timer, bot_timer;
    int bot_ready;      /* the bot's think delay has passed */
    int bot_busy;       /* a search runs on libuv's thread pool */
    int freed;          /* netgame_free ran while the search ran */
    int timers_open;
    int closing_timers;
    int welcomed;       /* ever admitted */
    int room_printed;
    int unacked;
    int closing;        /* finishing: no reconnect */
    int done;
    double wait_started;
    double lost_at;
    /* desync */
    int desync;
    uint32_t desync_ply;
    int desync_sent, desync_got;
    int detected; /* we found the mismatch (and so speak first) */
    uint8_t their_hash[PROTO_HASH_BYTES];
    int their_hash_known;
    uint8_t *their_state;
    size_t their_state_len;
    Core_Position *perturbed; /* test switch: our diverged state */
    uint32_t perturb_ply;     /* 0: no perturbation asked */
    Netgame_Result result;
    uint8_t room_host[PROTO_KEY_BYTES]; /* host key the welcome named */
    int room_host_known;
    /* clocks: our view of both sides' time left when the turn began */
    uv_timer_t clock_timer;
    uint32_t clk_base, clk_inc;
    int64_t left[2]; /* ms */
    double turn_at;  /* cli_now() when the side to move began */
    int clock_on;
    int flag_sent, own_flag_said;
    int clock_lie; /* test switch TABULA_TEST_CLOCK_LIE */
    /* the opponent's absence */
    double absent_at; /* 0: present */
    uint32_t absent_ms;
    uint32_t absent_env_ms; /* test switch TABULA_TEST_ABSENCE_MS */
    int absent_said;
};

static void step_soon(Netgame *g);
static void finish(Netgame *g);

void *netgame_user(const Netgame *g) { return g->user; }
const Netgame_Result *netgame_result(const Netgame *g) { return &g->result; }
const Proto_Transcript *netgame_transcript(const Netgame *g) { return g->t; }

/* Hand a formatted line to the front end's note hook, if there is one
 * (level 0 a note, 1 a warning); 1 when the hook took it. */
static int to_note(Netgame *g, int level, const char *fmt, va_list ap)
{
    char text[640];
    if (g->hooks.on_note == NULL)
        return 0;
    vsnprintf(text, sizeof text, fmt, ap);
    text[strcspn(text, "\n")] = '\0';
    g->hooks.on_note(g, level, text);
    return 1;
}

static void say(Netgame *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(Netgame *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    to_note(g, 0, fmt, ap);
    va_end(ap);
    if (g->cfg.out == NULL)
        return;
    if (g->label[0] != '\0')
        fprintf(g->cfg.out, "[%s] ", g->label);
    va_start(ap, fmt);
    vfprintf(g->cfg.out, fmt, ap);
    va_end(ap);
    fflush(g->cfg.out);
}

static void warn(Netgame *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void warn(Netgame *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int taken = to_note(g, 1, fmt, ap);
    va_end(ap);
    if (taken)
        return;
    fprintf(stderr, "tabula: %s%s", g->label, g->label[0] ? ": " : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static int my_side(const Netgame *g)
{
    if (g->cfg.role == LOBBY_ROLE_SPECTATOR)
        return -1;
    return proto_transcript_side_of(g->t, g->id.pk);
}

static int started(const Netgame *g)
{
    return proto_transcript_start(g->t) != NULL;
}

static int over(const Netgame *g)
{
    return started(g) &&
           proto_transcript_status(g->t).outcome != CORE_ONGOING;
}

/* ---- the seat file: key, seat secret, codes (mode 0600) ------------- */

static int seat_path(const Netgame *g, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s.seat", g->log_path);
    return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
}

static int seat_save(Netgame *g)
{
    char path[600], tmp[640], hex[2 * PROTO_KEY_BYTES + 1];
    FILE *f;
    int fd;

    if (g->log_path[0] == '\0')
        return 0;
    if (seat_path(g, path, sizeof path) != 0)
        return TB_E_SPACE;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
        if (fd >= 0)
            close(fd);
        return TB_E_IO;
    }
    fprintf(f, "role %d\n", (int)g->cfg.role);
    proto_hex(g->id.sk, PROTO_KEY_BYTES, hex);
    fprintf(f, "key %s\n", hex);
    proto_hex(g->lcfg.seat_secret, LOBBY_SEAT_SECRET_BYTES, hex);
    fprintf(f, "seat %s\n", hex);
    fprintf(f, "invite %s\n", g->lcfg.invite.text[0] ? g->lcfg.invite.text
                                                    : "-");
    fprintf(f, "watch %s\n", g->lcfg.watch.text[0] ? g->lcfg.watch.text : "-");
    fprintf(f, "game %s\n", g->game ? core_game_name(g->game) : "-");
    fprintf(f, "options %s\n", g->options[0] ? g->options : "-");
    fprintf(f, "lobby %s\n", g->lobby);
    if (fflush(f) != 0 || fsync(fd) != 0) {
        fclose(f);
        return TB_E_IO;
    }
    fclose(f);
    return rename(tmp, path) == 0 ? 0 : TB_E_IO;
}

static int unhex(const char *s, uint8_t *out, size_t n)
{
    if (strlen(s) != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        for (int k = 0; k < 2; k++) {
            char c = s[2 * i + k];
            unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                         : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                                                : 16u;
            if (d > 15)
                return -1;
            v = v * 16 + d;
        }
        out[i] = (uint8_t)v;
    }
    return 0;
}

/* Load the seat file when it exists: 1 loaded, 0 absent, <0 error. */
static int seat_load(Netgame *g, char *why, size_t why_cap)
{
    char path[600], line[512];
    uint8_t seed[PROTO_KEY_BYTES];
    int have_key = 0, have_seat = 0;
    FILE *f;

    if (g->log_path[0] == '\0')
        return 0;
    if (seat_path(g, path, sizeof path) != 0)
        return TB_E_SPACE;
    f = fopen(path, "r");
    if (f == NULL)
        return errno == ENOENT ? 0 : TB_E_IO;
    while (fgets(line, sizeof line, f) != NULL) {
        char *sp = strchr(line, ' '), *val, *nl;
        if (sp == NULL)
            continue;
        *sp = '\0';
        val = sp + 1;
        if ((nl = strchr(val, '\n')) != NULL)
            *nl = '\0';
        if (strcmp(line, "key") == 0)
            have_key = unhex(val, seed, sizeof seed) == 0;
        else if (strcmp(line, "seat") == 0)
            have_seat = unhex(val, g->lcfg.seat_secret,
                              LOBBY_SEAT_SECRET_BYTES) == 0;
        else if (strcmp(line, "invite") == 0 && strcmp(val, "-") != 0)
            lobby_code_parse(val, &g->lcfg.invite);
        else if (strcmp(line, "watch") == 0 && strcmp(val, "-") != 0)
            lobby_code_parse(val, &g->lcfg.watch);
        else if (strcmp(line, "game") == 0 && strcmp(val, "-") != 0)
            g->game = core_game_find(val);
        else if (strcmp(line, "options") == 0)
            snprintf(g->options, sizeof g->options, "%s",
                     strcmp(val, "-") == 0 ? "" : val);
    }
    fclose(f);
    if (!have_key || !have_seat ||
        proto_identity_from_seed(&g->id, seed) != 0) {
        snprintf(why, why_cap, "%s: not a seat file", path);
        return TB_E_FORMAT;
    }
    sodium_memzero(seed, sizeof seed);
    return 1;
}

/* FILE.seq holds the highest lobby sequence number whose frame this seat
 * has handled (logged, or known to be held): 20 digits rewritten in place
 * with one pwrite, no fsync (a stale number only asks for more frames,
 * which are dropped as duplicates). A restarted seat resumes from it. */
static void seq_open(Netgame *g, uint64_t *last)
{
    char path[600], text[32];
    ssize_t n;

    *last = 0;
    g->seq_fd = -1;
    if (g->log_path[0] == '\0' || g->cfg.role == LOBBY_ROLE_SPECTATOR)
        return;
    snprintf(path, sizeof path, "%s.seq", g->log_path);
    g->seq_fd = open(path, O_RDWR | O_CREAT, 0600);
    if (g->seq_fd < 0)
        return;
    n = pread(g->seq_fd, text, sizeof text - 1, 0);
    if (n > 0) {
        text[n] = '\0';
        *last = strtoull(text, NULL, 10);
    }
    g->seq_saved = *last;
}

static void seq_save(Netgame *g, uint64_t seq)
{
    char text[32];
    if (g->seq_fd < 0 || seq <= g->seq_saved)
        return;
    g->seq_saved = seq;
    snprintf(text, sizeof text, "%020llu\n", (unsigned long long)seq);
    if (pwrite(g->seq_fd, text, 21, 0) != 21)
        warn(g, "cannot write %s.seq\n", g->log_path);
}

/* ---- frames kept for re-sending, and the log ------------------------- */

static int keep_frame(Netgame *g, const uint8_t *env, size_t len)
{
    if (g->nframes >= NG_FRAMES_MAX)
        return TB_E_LIMIT;
    if (g->nframes == g->frames_cap) {
        size_t cap = g->frames_cap ? 2 * g->frames_cap : 64;
        Ng_Frame *grown = realloc(g->frames, cap * sizeof *grown);
        if (grown == NULL)
            return TB_E_NOMEM;
        g->frames = grown;
        g->frames_cap = cap;
    }
    uint8_t *copy = malloc(len);
    if (copy == NULL)
        return TB_E_NOMEM;
    memcpy(copy, env, len);
    g->frames[g->nframes].env = copy;
    g->frames[g->nframes].len = len;
    g->nframes++;
    return 0;
}

static int log_frame(Netgame *g, const uint8_t *env, size_t len)
{
    uint8_t pre[PROTO_FRAME_PREFIX];
    if (g->log == NULL)
        return 0;
    if (len + PROTO_FRAME_PREFIX > NG_FRAME_CAP)
        return TB_E_LIMIT;
    pre[0] = (uint8_t)(len >> 24);
    pre[1] = (uint8_t)(len >> 16);
    pre[2] = (uint8_t)(len >> 8);
    pre[3] = (uint8_t)len;
    memcpy(g->buf, pre, sizeof pre);
    memcpy(g->buf + PROTO_FRAME_PREFIX, env, len);
    return proto_log_append(g->log, g->buf, len + PROTO_FRAME_PREFIX);
}

/* Create the log (into a temporary name, then renamed over the path) with
 * every envelope held so far. */
static int log_open(Netgame *g)
{
    char tmp[600];
    Proto_Log_Header h;
    int rc;

    if (g->log_path[0] == '\0' || g->log != NULL || !started(g))
        return 0;
    snprintf(tmp, sizeof tmp, "%s.tmp", g->log_path);
    unlink(tmp);
    proto_log_header_of(proto_transcript_start(g->t), &h);
    rc = proto_log_create(&g->log, tmp, &h);
    for (size_t i = 0; rc == 0 && i < g->nframes; i++)
        rc = log_frame(g, g->frames[i].env, g->frames[i].len);
    if (rc == 0 && rename(tmp, g->log_path) != 0)
        rc = TB_E_IO;
    if (rc != 0) {
        warn(g, "cannot write the log %s: %s\n", g->log_path,
             tb_strerror(rc));
        proto_log_close(g->log);
        g->log = NULL;
    }
    return rc;
}

/* A restarted seat: verify its log and take its envelopes back. */
static int log_resume(Netgame *g, char *why, size_t why_cap)
{
    uint8_t *buf = NULL;
    size_t len = 0, off = PROTO_LOG_MAGIC_LEN, used;
    const uint8_t *env;
    size_t env_len;
    Proto_Log_Report rep;
    int rc = proto_read_file(g->log_path, &buf, &len);

    if (rc == TB_E_IO && access(g->log_path, F_OK) != 0)
        return 0; /* stopped before the match started */
    if (rc != 0) {
        snprintf(why, why_cap, "%s: %s", g->log_path, tb_strerror(rc));
        return rc;
    }
    rc = proto_log_verify(buf, len, NULL, NULL, NULL, NULL, &rep);
    if (rc != 0 && rc != TB_E_TRUNCATED && rc != TB_E_DESYNC) {
        snprintf(why, why_cap, "%s: %s", g->log_path, rep.why);
        free(buf);
        return rc;
    }
    /* the header frame, then rep.envelopes envelopes */
    rc = proto_frame_next(buf + off, len - off, &env, &env_len, &used);
    off += used;
    for (uint32_t i = 0; rc == 0 && i < rep.envelopes; i++) {
        rc = proto_frame_next(buf + off, len - off, &env, &env_len, &used);
        if (rc != 0)
            break;
        off += used;
        int add = proto_transcript_add(g->t, env, env_len, NULL);
        if (add != 0 && add != TB_E_DESYNC) {
            rc = add;
            break;
        }
        rc = keep_frame(g, env, env_len);
    }
    free(buf);
    if (rc != 0) {
        snprintf(why, why_cap, "%s: cannot replay: %s", g->log_path,
                 tb_strerror(rc));
        return rc;
    }
    if (g->game == NULL && started(g))
        g->game = core_game_find(proto_transcript_start(g->t)->body.start.game);
    return log_open(g);
}

/* ---- sending --------------------------------------------------------- */

static void send_env(Netgame *g, const uint8_t *env, size_t len)
{
    if (g->lc == NULL || !lobby_client_connected(g->lc))
        return; /* re-sent from the kept frames after the reconnect */
    if (lobby_client_send(g->lc, env, len) == 0)
        g->unacked++;
}

/* Seal m as our next envelope, append it to the transcript, keep, log
 * and send it. */
static int send_msg(Netgame *g, Proto_Message *m)
{
    size_t len = 0;
    int rc = proto_transcript_send(g->t, &g->id, m, g->buf, NG_FRAME_CAP,
                                   &len);
    if (rc != 0)
        return rc;
    const uint8_t *env = g->buf + PROTO_FRAME_PREFIX;
    size_t env_len = len - PROTO_FRAME_PREFIX;
    if ((rc = keep_frame(g, env, env_len)) != 0)
        return rc;
    send_env(g, g->frames[g->nframes - 1].env, env_len);
    if (m->kind == PROTO_KIND_MATCH_START)
        return log_open(g);
    return log_frame(g, g->frames[g->nframes - 1].env, env_len);
}

/* ---- clocks ---------------------------------------------------------- */

static void on_clock_timer(uv_timer_t *h);

/* The clock after the match start (or a resume): both sides' time left
 * from the transcript's signed readings, the turn starting now. */
static void clock_begin(Netgame *g)
{
    g->clk_base = proto_transcript_clock(g->t, &g->clk_inc);
    if (g->clk_base == 0 || g->clock_on)
        return;
    for (int x = 0; x < 2; x++) {
        uint32_t a = proto_transcript_clock_view(g->t, 0, x);
        uint32_t b = proto_transcript_clock_view(g->t, 1, x);
        g->left[x] = a < b ? a : b;
    }
    g->turn_at = cli_now();
    g->clock_on = 1;
    if (g->timers_open)
        uv_timer_start(&g->clock_timer, on_clock_timer, NG_CLOCK_TICK_MS,
                       NG_CLOCK_TICK_MS);
}

static int64_t ms_since(double at)
{
    return (int64_t)((cli_now() - at) * 1000.0);
}

static void show_clock(Netgame *g)
{
    say(g, "clock: white %lld.%03lld s, black %lld.%03lld s\n",
        (long long)(g->left[0] / 1000), (long long)(g->left[0] % 1000),
        (long long)(g->left[1] / 1000), (long long)(g->left[1] % 1000));
}

/* A move by mover carried readings m: take them, checking the
 * opponent's against our own measurement (a player's view), or as
 * signed (a spectator's, or our own move). */
static void clock_after_move(Netgame *g, int mover, const Proto_Message *m)
{
    if (!g->clock_on || !m->body.move.has_clock)
        return;
    int me = my_side(g);
    if (me >= 0 && mover != me) {
        int64_t measured = ms_since(g->turn_at);
        int64_t claimed = g->left[mover] + g->clk_inc - m->body.move.own_ms;
        if (claimed < measured - NG_LAG_MS) {
            int64_t fixed = g->left[mover] - (measured - NG_LAG_MS) +
                            g->clk_inc;
            if (fixed < 0)
                fixed = 0;
            say(g, "clock: %s claims %u ms left after using %lld ms; "
                   "measured %lld ms, lag allowance %d ms: corrected to "
                   "%lld ms\n",
                mover == CORE_WHITE ? "white" : "black", m->body.move.own_ms,
                (long long)claimed, (long long)measured, NG_LAG_MS,
                (long long)fixed);
            g->left[mover] = fixed;
        } else {
            g->left[mover] = m->body.move.own_ms;
        }
    } else if (me >= 0) {
        g->left[mover] = m->body.move.own_ms;
    } else {
        g->left[mover] = m->body.move.own_ms;
        g->left[1 - mover] = m->body.move.opp_ms;
    }
    g->turn_at = cli_now();
    g->flag_sent = g->own_flag_said = 0;
    show_clock(g);
}

/* Fill the clock readings of our move; TB_E_STATE when our time ran out
 * (the move is not sent: the opponent claims the flag). */
static int clock_for_move(Netgame *g, Proto_Message *m)
{
    if (!g->clock_on)
        return 0;
    int me = my_side(g);
    int64_t used = ms_since(g->turn_at);
    if (used >= g->left[me])
        return TB_E_STATE;
    if (g->clock_lie)
        used = 0; /* test switch: claim no time used */
    int64_t own = g->left[me] - used + g->clk_inc;
    m->body.move.has_clock = 1;
    m->body.move.own_ms = (uint32_t)(own > 0 ? own : 1);
    m->body.move.opp_ms = (uint32_t)(g->left[1 - me] > 0 ? g->left[1 - me]
                                                          : 0);
    return 0;
}

static void show_conduct(Netgame *g, const Proto_Message *m);

static void on_clock_timer(uv_timer_t *h)
{
    Netgame *g = h->data;
    if (g->done || g->closing || !started(g) || over(g) || g->desync)
        return;
    int me = my_side(g);
    const Core_Position *pos = proto_transcript_position(g->t);
    int x = core_side_to_move(pos);
    int64_t el = ms_since(g->turn_at);
    if (me >= 0 && g->absent_at != 0 && !g->absent_said &&
        ms_since(g->absent_at) >= g->absent_ms) {
        g->absent_said = 1;
        say(g, "absent: the opponent has been gone %u.%03u s: type 'claim "
               "win' or 'claim draw'\n", g->absent_ms / 1000,
            g->absent_ms % 1000);
    }
    if (!g->clock_on || me < 0)
        return;
    if (x == me && el >= g->left[me] && !g->own_flag_said) {
        g->own_flag_said = 1;
        say(g, "time: your time is up\n");
    }
    if (x != me && el >= g->left[x] + NG_FLAG_GRACE_MS && !g->flag_sent &&
        lobby_client_connected(g->lc)) {
        Proto_Message m;
        proto_message_init(&m, PROTO_KIND_FLAG, &g->id);
        m.body.flag.ply = core_ply(pos);
        m.body.flag.elapsed = (uint32_t)el;
        g->flag_sent = 1;
        if (send_msg(g, &m) != 0)
            warn(g, "flag claim refused: %s\n", proto_transcript_why(g->t));
        else
            show_conduct(g, &m);
        step_soon(g);
    }
}

int64_t netgame_clock_left(const Netgame *g, int side)
{
    if (!g->clock_on || side < 0 || side > 1)
        return -1;
    int64_t left = g->left[side];
    if (!over(g) && !g->desync &&
        core_side_to_move(proto_transcript_position(g->t)) == side)
        left -= ms_since(g->turn_at);
    return left > 0 ? left : 0;
}

int netgame_draw_offer(const Netgame *g)
{
    return proto_transcript_draw_offer(g->t);
}

int netgame_takeback(const Netgame *g, uint32_t *plies)
{
    return proto_transcript_takeback(g->t, plies);
}

int64_t netgame_absence_left(const Netgame *g)
{
    if (g->absent_at == 0 || my_side(g) < 0)
        return -1;
    int64_t left = (int64_t)g->absent_ms - ms_since(g->absent_at);
    return left > 0 ? left : 0;
}

/* ---- plies and results ----------------------------------------------- */

static void show_ply(Netgame *g, const Proto_Envelope *e)
{
    char hex[PROTO_HASH_HEX];
    const Core_Position *pos = proto_transcript_position(g->t);
    int side = proto_transcript_side_of(g->t, e->msg.sender);
    proto_hex(e->msg.body.move.hash, PROTO_HASH_BYTES, hex);
    g->result.plies = core_ply(pos);
    say(g, "%4u. %-5s %-24s %.16s\n", e->msg.body.move.ply,
        side == CORE_WHITE ? "white" : "black", e->msg.body.move.move, hex);
    if (g->hooks.on_ply)
        g->hooks.on_ply(g, e->msg.body.move.ply, side, e->msg.body.move.move,
                        hex);
}

static void state_bytes(const Netgame *g, uint8_t **out, size_t *len)
{
    const Core_Position *pos = g->perturbed ? g->perturbed
                                            : proto_transcript_position(g->t);
    size_t cap = core_game_encode_max(core_position_game(pos));
    *out = malloc(cap);
    *len = 0;
    if (*out != NULL && core_encode(pos, *out, cap, len) != 0)
        *len = 0;
}

static void send_desync(Netgame *g)
{
    Proto_Message m;
    uint8_t *st = NULL;
    size_t len = 0;
    if (g->desync_sent || g->cfg.role == LOBBY_ROLE_SPECTATOR)
        return;
    state_bytes(g, &st, &len);
    if (len > 0 && len <= PROTO_STATE_MAX) {
        proto_message_init(&m, PROTO_KIND_DESYNC, &g->id);
        m.body.desync.ply = g->desync_ply;
        m.body.desync.state = st;
        m.body.desync.state_len = len;
        int rc = send_msg(g, &m);
        if (rc != 0)
            warn(g, "cannot send the desync report: %s (%s)\n",
                 tb_strerror(rc), proto_transcript_why(g->t));
    }
    free(st);
    g->desync_sent = 1;
}

static void hexdump(FILE *f, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", b[i]);
    fputc('\n', f);
}

/* The desync report: ply, both hashes, both states, the transcript. */
static void write_report(Netgame *g)
{
    char path[600], hex[PROTO_HASH_HEX];
    uint8_t *ours = NULL, hash[PROTO_HASH_BYTES];
    size_t ours_len = 0;
    const Proto_Message *st = proto_transcript_start(g->t);
    FILE *f;

    if (g->log_path[0] != '\0') {
        snprintf(path, sizeof path, "%s.desync", g->log_path);
    } else {
        char id[2 * PROTO_MATCH_ID_BYTES + 1];
        proto_hex(st->match_id, PROTO_MATCH_ID_BYTES, id);
        snprintf(path, sizeof path, "tabula-desync-%.8s-%s.txt", id,
                 g->cfg.role == LOBBY_ROLE_HOST ? "host" : "guest");
    }
    f = fopen(path, "w");
    if (f == NULL) {
        warn(g, "cannot write the desync report %s\n", path);
        return;
    }
    state_bytes(g, &ours, &ours_len);
    crypto_generichash(hash, sizeof hash, ours, ours_len, NULL, 0);
    fprintf(f, "tabula desync report\ngame: %s\noptions: %s\n",
            st->body.start.game, st->body.start.options);
    proto_hex(st->match_id, PROTO_MATCH_ID_BYTES, hex);
    fprintf(f, "match: %s\nseat: %s\nply: %u\n", hex,
            g->cfg.role == LOBBY_ROLE_HOST ? "host (white)" : "guest (black)",
            g->desync_ply);
    proto_hex(hash, sizeof hash, hex);
    fprintf(f, "our-hash: %s\n", hex);
    if (g->their_hash_known) {
        proto_hex(g->their_hash, sizeof g->their_hash, hex);
        fprintf(f, "their-hash: %s\n", hex);
    } else {
        fprintf(f, "their-hash: unknown\n");
    }
    fprintf(f, "our-state: ");
    hexdump(f, ours, ours_len);
    fprintf(f, "their-state: ");
    if (g->their_state != NULL)
        hexdump(f, g->their_state, g->their_state_len);
    else
        fprintf(f, "not received\n");
    free(ours);
    fprintf(f, "log: %s\ntranscript:\n",
            g->log_path[0] ? g->log_path : "(none)");
    Core_Position *pos = NULL;
    if (core_position_new(&pos, core_game_find(st->body.start.game),
                          proto_transcript_game_options(g->t)) == 0) {
        for (size_t i = 0; i < proto_transcript_moves(g->t); i++) {
            char text[CORE_NOTATION_MAX];
            const Core_Move *mv = proto_transcript_move_at(g->t, i);
            if (core_move_format(pos, mv, text, sizeof text) != 0 ||
                core_play(pos, mv) != 0)
                break;
            fprintf(f, "%4zu. %s\n", i + 1, text);
        }
        core_position_free(pos);
    }
    fclose(f);
    snprintf(g->result.report, sizeof g->result.report, "%s", path);
}

/* ---- the turn -------------------------------------------------------- */

/* The test switch: apply another legal move than mv to a copy. */
static void perturb(Netgame *g, const Core_Move *mv)
{
    const Core_Position *pos = proto_transcript_position(g->t);
    size_t cap = 64, n = 0;
    Core_Move *buf = NULL;
    int rc;
    for (;;) {
        Core_Move *grown = realloc(buf, cap * sizeof *buf);
        if (grown == NULL)
            break;
        buf = grown;
        rc = core_moves(pos, buf, cap, &n);
        if (rc != TB_E_TOOMANY)
            break;
        cap *= 2;
    }
    for (size_t i = 0; i < n; i++) {
        if (core_move_equal(&buf[i], mv))
            continue;
        g->perturbed = core_position_clone(pos);
        if (g->perturbed != NULL && core_play(g->perturbed, &buf[i]) != 0) {
            core_position_free(g->perturbed);
            g->perturbed = NULL;
        }
        break;
    }
    free(buf);
}

static int play_move(Netgame *g, const Core_Move *mv)
{
    const Core_Position *pos = proto_transcript_position(g->t);
    Core_Position *after = core_position_clone(pos);
    Proto_Message m;
    int rc;

    if (after == NULL)
        return TB_E_NOMEM;
    proto_message_init(&m, PROTO_KIND_MOVE, &g->id);
    m.body.move.ply = core_ply(pos) + 1;
    rc = core_move_format(pos, mv, m.body.move.move, sizeof m.body.move.move);
    if (rc == 0)
        rc = core_play(after, mv);
    if (rc == 0)
        rc = proto_state_hash(after, m.body.move.hash);
    core_position_free(after);
    if (rc == 0 && (rc = clock_for_move(g, &m)) != 0)
        say(g, "refused: your time is up\n");
    if (rc != 0)
        return rc;
    if (g->perturb_ply != 0 && g->perturbed == NULL &&
        m.body.move.ply >= g->perturb_ply) {
        perturb(g, mv);
        if (g->perturbed != NULL) {
            /* Our state now differs: the hash we send is of it. */
            size_t len = 0;
            proto_state_hash(g->perturbed, m.body.move.hash);
            fprintf(stderr, "tabula: test: perturbed own state at ply %u\n",
                    m.body.move.ply);
            proto_transcript_next(g->t, &m);
            rc = proto_seal(&m, &g->id, g->buf, NG_FRAME_CAP, &len, NULL);
            if (rc != 0)
                return rc;
            const uint8_t *env = g->buf + PROTO_FRAME_PREFIX;
            size_t env_len = len - PROTO_FRAME_PREFIX;
            rc = proto_transcript_add(g->t, env, env_len, NULL);
            if (rc != 0 && rc != TB_E_DESYNC)
                return rc;
            if ((rc = keep_frame(g, env, env_len)) != 0)
                return rc;
            send_env(g, g->frames[g->nframes - 1].env, env_len);
            log_frame(g, g->frames[g->nframes - 1].env, env_len);
            g->desync = 1;
            g->desync_ply = m.body.move.ply;
            Proto_Envelope pe;
            memset(&pe, 0, sizeof pe);
            pe.msg = m;
            show_ply(g, &pe);
            return 0;
        }
    }
    rc = send_msg(g, &m);
    if (rc != 0)
        return rc;
    Proto_Envelope e;
    memset(&e, 0, sizeof e);
    e.msg = m;
    show_ply(g, &e);
    clock_after_move(g, my_side(g), &m);
    return 0;
}

/* A bot's search runs on libuv's thread pool, on its own copy of the
 * position, so a deep search never stalls the loop (heartbeats, the
 * other seats and an embedded lobby keep running). */
typedef struct Ng_Work {
    uv_work_t req;
    Netgame *g;
    Core_Position *pos;
    int level;
    uint64_t seed;
    Core_Move mv;
    int rc;
} Ng_Work;

static void bot_work(uv_work_t *req)
{
    Ng_Work *w = req->data;
    w->rc = bot_choose(w->pos, w->level, w->seed, &w->mv, NULL);
}

static void bot_after(uv_work_t *req, int status)
{
    Ng_Work *w = req->data;
    Netgame *g = w->g;
    g->bot_busy = 0;
    if (g->freed) {
        if (--g->closing_timers == 0)
            free(g);
    } else if (status == 0 && !g->done && !g->closing && !g->desync &&
               !over(g) &&
               core_ply(proto_transcript_position(g->t)) ==
                   core_ply(w->pos) &&
               core_side_to_move(w->pos) == my_side(g)) {
        int rc = w->rc == 0 ? play_move(g, &w->mv) : w->rc;
        if (rc != 0)
            warn(g, "bot move failed: %s (%s)\n", tb_strerror(rc),
                 proto_transcript_why(g->t));
        else
            step_soon(g);
    }
    core_position_free(w->pos);
    free(w);
}

static int bot_start(Netgame *g)
{
    const Core_Position *pos = proto_transcript_position(g->t);
    Ng_Work *w;
    if (g->bot_busy)
        return 0;
    if ((w = calloc(1, sizeof *w)) == NULL)
        return 0;
    w->g = g;
    w->pos = core_position_clone(pos);
    w->level = g->cfg.bot_level;
    w->seed = g->cfg.seed + core_ply(pos);
    w->req.data = w;
    if (w->pos == NULL ||
        uv_queue_work(g->loop, &w->req, bot_work, bot_after) != 0) {
        core_position_free(w->pos);
        free(w);
        warn(g, "cannot start the bot\n");
        return 0;
    }
    g->bot_busy = 1;
    return 0; /* the move comes from bot_after */
}

static const char *side_word(int side);

static const char *side_word(int side)
{
    return side == CORE_WHITE ? "white" : side == CORE_BLACK ? "black" : "?";
}

/* The line every seat and spectator prints for a conduct envelope (its
 * own or a peer's), so all of them show the same events. */
static void show_conduct(Netgame *g, const Proto_Message *m)
{
    int from = proto_transcript_side_of(g->t, m->sender);
    const char *who = side_word(from);
    /* The player asked gets how to answer. */
    const char *answer = my_side(g) == 1 - from ? ": type accept or decline"
                                                : "";
    switch ((Proto_Kind)m->kind) {
    case PROTO_KIND_DRAW_OFFER:
        say(g, "%s offers a draw%s\n", who, answer);
        break;
    case PROTO_KIND_DRAW_ACCEPT:
        say(g, "%s accepts the draw\n", who);
        break;
    case PROTO_KIND_DRAW_DECLINE:
        say(g, "%s declines the draw\n", who);
        break;
    case PROTO_KIND_RESIGN:
        say(g, "%s resigns\n", who);
        break;
    case PROTO_KIND_ABORT:
        say(g, "%s aborts the game\n", who);
        break;
    case PROTO_KIND_TAKEBACK_REQUEST:
        say(g, "%s asks to take back %u %s%s\n", who,
            m->body.takeback.plies,
            m->body.takeback.plies == 1 ? "ply" : "plies", answer);
        break;
    case PROTO_KIND_TAKEBACK_ACCEPT: {
        char hex[PROTO_HASH_HEX];
        uint8_t hash[PROTO_HASH_BYTES];
        const Core_Position *pos = proto_transcript_position(g->t);
        hex[0] = '\0';
        if (proto_state_hash(pos, hash) == 0)
            proto_hex(hash, sizeof hash, hex);
        g->result.plies = core_ply(pos);
        g->turn_at = cli_now(); /* G-MC-8: clocks keep their time */
        say(g, "%s accepts the takeback: back to ply %u, %s to move, %.16s\n",
            who, core_ply(pos), side_word(core_side_to_move(pos)), hex);
        break;
    }
    case PROTO_KIND_TAKEBACK_DECLINE:
        say(g, "%s declines the takeback\n", who);
        break;
    case PROTO_KIND_FLAG:
        say(g, "%s claims the flag: %s's time is up after %u ms\n", who,
            side_word(core_side_to_move(proto_transcript_position(g->t))),
            m->body.flag.elapsed);
        break;
    case PROTO_KIND_CLAIM:
        say(g, "%s claims %s: the opponent is absent\n", who,
            m->body.claim.what == PROTO_CLAIM_DRAW ? "a draw" : "the win");
        break;
    default:
        break;
    }
}

/* Send a conduct message of kind (plies for takebacks) and show it. */
static int send_conduct(Netgame *g, Proto_Kind kind, uint32_t plies)
{
    Proto_Message m;
    proto_message_init(&m, kind, &g->id);
    if (kind == PROTO_KIND_TAKEBACK_REQUEST ||
        kind == PROTO_KIND_TAKEBACK_ACCEPT)
        m.body.takeback.plies = plies;
    int rc = send_msg(g, &m);
    if (rc != 0)
        say(g, "refused: %s: %s (%s)\n", proto_kind_name(kind),
            tb_strerror(rc), proto_transcript_why(g->t));
    else
        show_conduct(g, &m);
    return rc;
}

/* Plies a takeback by side must undo so that side's own last ply is
 * undone and side is to move again (G-MC-4): 1 when side moved last, 2
 * after one reply, more when the opponent moved twice in a row (Chess
 * volleyball). 0 when side has no ply on the board. */
static uint32_t takeback_plies(const Netgame *g, int side)
{
    const Proto_Message *st = proto_transcript_start(g->t);
    size_t n = proto_transcript_moves(g->t);
    Core_Position *pos = NULL;
    size_t last = SIZE_MAX;
    if (st == NULL ||
        core_position_new(&pos, g->game,
                          proto_transcript_game_options(g->t)) != 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (core_side_to_move(pos) == side)
            last = i;
        if (core_play(pos, proto_transcript_move_at(g->t, i)) != 0)
            break;
    }
    core_position_free(pos);
    if (last == SIZE_MAX || n - last > 255)
        return 0;
    return (uint32_t)(n - last);
}

/*
 * One queued line of the local player, when it can be sent (G-MC-1: a
 * seat appends to the shared chain only while it is to move, or to
 * answer a takeback request the mover is waiting on, so two envelopes
 * never race for one sequence number). Returns 1 when the line was used
 * (sent or refused), 0 when it must wait.
 */
static int do_line(Netgame *g, const char *line, int my_turn)
{
    const Core_Position *pos = proto_transcript_position(g->t);
    int side = my_side(g);
    uint32_t tb_plies = 0;
    int tb = proto_transcript_takeback(g->t, &tb_plies);
    int offer = proto_transcript_draw_offer(g->t);
    char word[16];
    unsigned n = 0;

    if (strcmp(line, "claim win") == 0 || strcmp(line, "claim draw") == 0) {
        if (netgame_absence_left(g) != 0) {
            say(g, "refused: '%s': the opponent is not absent long enough\n",
                line);
            return 1;
        }
        Proto_Message m;
        proto_message_init(&m, PROTO_KIND_CLAIM, &g->id);
        m.body.claim.what = line[6] == 'd' ? PROTO_CLAIM_DRAW : PROTO_CLAIM_WIN;
        if (send_msg(g, &m) != 0)
            say(g, "refused: '%s': %s\n", line, proto_transcript_why(g->t));
        else
            show_conduct(g, &m);
        return 1;
    }
    if (strcmp(line, "accept") == 0 || strcmp(line, "decline") == 0) {
        int yes = line[0] == 'a';
        if (tb == 1 - side)
            return send_conduct(g, yes ? PROTO_KIND_TAKEBACK_ACCEPT
                                       : PROTO_KIND_TAKEBACK_DECLINE,
                                tb_plies),
                   1;
        if (offer == 1 - side) {
            if (!my_turn)
                return 0; /* answered on our turn */
            send_conduct(g, yes ? PROTO_KIND_DRAW_ACCEPT
                                : PROTO_KIND_DRAW_DECLINE,
                         0);
            return 1;
        }
        say(g, "refused: '%s': no offer or request to answer\n", line);
        return 1;
    }
    if (!my_turn)
        return 0;
    if (tb == side)
        return 0; /* our takeback request waits for its answer */
    if (strcmp(line, "resign") == 0) {
        send_conduct(g, PROTO_KIND_RESIGN, 0);
        return 1;
    }
    if (strcmp(line, "draw") == 0) {
        if (offer == side)
            say(g, "refused: 'draw': your offer stands already\n");
        else if (offer == 1 - side)
            say(g, "refused: 'draw': the opponent offers one: accept it\n");
        else
            send_conduct(g, PROTO_KIND_DRAW_OFFER, 0);
        return 1;
    }
    if (strcmp(line, "abort") == 0) {
        if (proto_transcript_moved(g->t, CORE_WHITE) &&
            proto_transcript_moved(g->t, CORE_BLACK))
            say(g, "refused: 'abort': both sides have moved (resign or "
                   "offer a draw)\n");
        else
            send_conduct(g, PROTO_KIND_ABORT, 0);
        return 1;
    }
    if (strcmp(line, "takeback") == 0 ||
        sscanf(line, "takeback %u%15s", &n, word) == 1) {
        uint32_t plies = n > 0 ? n : takeback_plies(g, side);
        if (plies == 0 || plies > 255 || plies > proto_transcript_moves(g->t))
            say(g, "refused: '%s': nothing to take back\n", line);
        else
            send_conduct(g, PROTO_KIND_TAKEBACK_REQUEST, plies);
        return 1;
    }
    Core_Move mv;
    char canon[CORE_NOTATION_MAX], why[CORE_NOTATION_MAX + 160];
    int rc = line_cmd_move(pos, line, canon, sizeof canon, why, sizeof why);
    if (rc == 0)
        rc = core_move_parse(pos, canon, &mv);
    if (rc != 0) {
        say(g, "refused: '%s': %s\n", cli_token(line), why);
        return 1;
    }
    rc = play_move(g, &mv);
    if (rc != 0)
        warn(g, "cannot send the move: %s\n", tb_strerror(rc));
    return 1;
}

/* The bot's answers (G-MC-5): it declines every takeback; on its turn it
 * accepts a draw offer when its static evaluation is within
 * NG_BOT_DRAW_MARGIN hundredths of a pawn of level, else declines.
 * Returns 1 when it sent an answer. */
#define NG_BOT_DRAW_MARGIN 25
static int bot_answer(Netgame *g, int my_turn)
{
    int side = my_side(g);
    if (proto_transcript_takeback(g->t, NULL) == 1 - side)
        return send_conduct(g, PROTO_KIND_TAKEBACK_DECLINE, 0) == 0;
    if (my_turn && proto_transcript_draw_offer(g->t) == 1 - side) {
        int32_t ev = core_evaluate(proto_transcript_position(g->t));
        int yes = ev >= -NG_BOT_DRAW_MARGIN && ev <= NG_BOT_DRAW_MARGIN;
        return send_conduct(g, yes ? PROTO_KIND_DRAW_ACCEPT
                                   : PROTO_KIND_DRAW_DECLINE,
                            0) == 0;
    }
    return 0;
}

/* The local player's queued lines (or the bot's turn); 1 when something
 * was sent or used up. */
static int take_turn(Netgame *g, int my_turn)
{
    int used = 0;
    if (g->cfg.bot_level > 0) {
        if (bot_answer(g, my_turn))
            return 1;
        return my_turn ? bot_start(g) : 0;
    }
    /* Answers jump the queue: a move or request waiting for our turn
     * must not hold back the answer the opponent waits for. */
    for (size_t k = 0; k < g->line_count; k++) {
        size_t i = (g->line_head + k) % NG_LINES_MAX;
        if (strcmp(g->lines[i], "accept") != 0 &&
            strcmp(g->lines[i], "decline") != 0 &&
            strncmp(g->lines[i], "claim ", 6) != 0)
            continue;
        if (!do_line(g, g->lines[i], my_turn))
            break;
        for (size_t j = k; j + 1 < g->line_count; j++)
            memcpy(g->lines[(g->line_head + j) % NG_LINES_MAX],
                   g->lines[(g->line_head + j + 1) % NG_LINES_MAX],
                   sizeof g->lines[0]);
        g->line_count--;
        return 1; /* again from step: the state changed */
    }
    if (g->line_count > 0 && !over(g) &&
        do_line(g, g->lines[g->line_head], my_turn)) {
        g->line_head = (g->line_head + 1) % NG_LINES_MAX;
        g->line_count--;
        used = 1;
    }
    return used;
}

static void step(Netgame *g);

static void on_bot_timer(uv_timer_t *h)
{
    Netgame *g = h->data;
    g->bot_ready = 1;
    step(g);
}

static void step(Netgame *g)
{
    if (g->done || g->closing)
        return;
    if (g->desync) {
        finish(g);
        return;
    }
    if (over(g)) {
        finish(g);
        return;
    }
    if (!started(g) || g->lc == NULL || !lobby_client_connected(g->lc))
        return;
    int side = my_side(g);
    if (side < 0)
        return;
    int my_turn = core_side_to_move(proto_transcript_position(g->t)) == side;
    if (my_turn && g->cfg.bot_level > 0 && g->cfg.bot_delay_ms > 0 &&
        !g->bot_ready) {
        if (!uv_is_active((uv_handle_t *)&g->bot_timer))
            uv_timer_start(&g->bot_timer, on_bot_timer, g->cfg.bot_delay_ms,
                           0);
        /* A takeback request is answered without the think delay. */
        if (proto_transcript_takeback(g->t, NULL) == 1 - side &&
            bot_answer(g, 0))
            step_soon(g);
        return;
    }
    if (my_turn)
        g->bot_ready = 0;
    /* Again when something changed (the side to move may move twice, as
     * in Chess volleyball); never re-armed without progress. */
    if (take_turn(g, my_turn))
        step_soon(g);
}

static void on_step_timer(uv_timer_t *h) { step(h->data); }

static void step_soon(Netgame *g)
{
    if (g->timers_open && !g->done)
        uv_timer_start(&g->step_timer, on_step_timer, 0, 0);
}

int netgame_submit(Netgame *g, const char *line)
{
    if (g->cfg.role == LOBBY_ROLE_SPECTATOR || g->cfg.bot_level > 0)
        return TB_E_STATE;
    if (g->line_count == NG_LINES_MAX)
        return TB_E_LIMIT;
    size_t i = (g->line_head + g->line_count) % NG_LINES_MAX;
    snprintf(g->lines[i], sizeof g->lines[i], "%s", line);
    g->line_count++;
    step_soon(g);
    return 0;
}

/* ---- the end --------------------------------------------------------- */

static void done(Netgame *g)
{
    if (g->done)
        return;
    g->done = 1;
    if (g->timers_open)
        uv_timer_stop(&g->clock_timer);
    if (g->lc != NULL)
        lobby_client_close(g->lc);
    if (g->hooks.on_done)
        g->hooks.on_done(g);
}

static void on_wait_timer(uv_timer_t *h)
{
    Netgame *g = h->data;
    double waited = (cli_now() - g->wait_started) * 1000.0;
    if (g->desync && !g->result.finished) {
        if (!(g->desync_sent && g->desync_got) && waited < NG_DESYNC_WAIT_MS)
            return;
        write_report(g);
        g->result.finished = 1;
        say(g, "desync: the game stopped at ply %u; report written to %s\n",
            g->desync_ply, g->result.report[0] ? g->result.report : "(none)");
        g->wait_started = cli_now();
        return;
    }
    /* Our last frames must reach the lobby: wait for its acks, and across
     * a reconnect (the tail is re-sent on the welcome). */
    if (g->lc != NULL && !lobby_client_connected(g->lc) &&
        waited < NG_RECONNECT_GIVE_UP_MS)
        return;
    if (g->unacked > 0 && waited < NG_FINISH_WAIT_MS)
        return;
    uv_timer_stop(h);
    done(g);
}

static void finish(Netgame *g)
{
    uint8_t hash[PROTO_HASH_BYTES], chain[PROTO_HASH_BYTES];
    Core_Status st = proto_transcript_status(g->t);
    const Core_Position *pos = proto_transcript_position(g->t);

    if (g->closing)
        return;
    g->closing = 1;
    g->result.status = st;
    g->result.plies = core_ply(pos);
    if (proto_state_hash(g->perturbed ? g->perturbed : pos, hash) == 0)
        proto_hex(hash, sizeof hash, g->result.final_hash);
    if (g->desync) {
        g->result.desync = 1;
        g->result.desync_ply = g->desync_ply;
        say(g, "desync: state hashes differ at ply %u\n", g->desync_ply);
        /* The seat that found the mismatch sends its state first, the
         * other answers: both at once would collide on one seq. */
        if (g->detected || g->desync_got)
            send_desync(g);
    } else {
        g->result.finished = 1;
    }
    say(g, "result: %s (%s)\n", core_outcome_name(st.outcome),
        core_reason_name(st.reason));
    say(g, "final-hash: %s\n", g->result.final_hash);
    if (g->log != NULL) {
        proto_transcript_chain(g->t, chain);
        if (!g->desync &&
            proto_log_finish(g->log, proto_transcript_count(g->t), chain) != 0)
            warn(g, "cannot finish the log %s\n", g->log_path);
        proto_log_close(g->log);
        g->log = NULL;
        say(g, "log: %s\n", g->log_path);
    }
    if (g->cfg.role == LOBBY_ROLE_SPECTATOR) {
        g->result.finished = 1;
        done(g);
        return;
    }
    g->wait_started = cli_now();
    uv_timer_start(&g->wait_timer, on_wait_timer, 0, 20);
}

/* ---- incoming frames ------------------------------------------------- */

/* The hello's proof that its sender holds the invite code: BLAKE2b-256
 * keyed with the code's seat key (which the lobby never learns) over a
 * label and the sender's public key, carried in the hello's nonce field.
 * The lobby, which could JOIN itself with the lookup it stores, cannot
 * produce it, so the host starts a match only with someone who had the
 * code. */
static int hello_proof(const Lobby_Code *invite, const uint8_t pk[],
                       uint8_t out[PROTO_NONCE_BYTES])
{
    static const char label[] = "tabula-hello-1";
    uint8_t key[LOBBY_SEAT_KEY_BYTES], msg[sizeof label + PROTO_KEY_BYTES];
    int rc = lobby_code_seat_key(invite, key);
    if (rc != 0)
        return rc;
    memcpy(msg, label, sizeof label);
    memcpy(msg + sizeof label, pk, PROTO_KEY_BYTES);
    rc = crypto_generichash(out, PROTO_NONCE_BYTES, msg, sizeof msg, key,
                            sizeof key) == 0
             ? 0
             : TB_E_CRYPTO;
    sodium_memzero(key, sizeof key);
    return rc;
}

static int on_hello(Netgame *g, Lobby_Role from, const Proto_Envelope *e)
{
    Proto_Message m;
    int rc = 0;
    if (g->cfg.role != LOBBY_ROLE_HOST || from != LOBBY_ROLE_GUEST ||
        started(g) || memcmp(e->msg.sender, g->id.pk, PROTO_KEY_BYTES) == 0)
        return 0; /* only the host answers, once */
    uint8_t want[PROTO_NONCE_BYTES];
    if ((rc = hello_proof(&g->lcfg.invite, e->msg.sender, want)) != 0)
        return rc;
    if (sodium_memcmp(want, e->msg.body.hello.nonce, sizeof want) != 0) {
        g->result.refused++;
        warn(g, "refused a hello: its sender does not hold the invite "
                "code\n");
        return TB_E_SIGNATURE;
    }
    proto_message_init(&m, PROTO_KIND_MATCH_START, &g->id);
    if ((rc = lobby_random(m.match_id, sizeof m.match_id)) != 0)
        return rc;
    snprintf(m.body.start.game, sizeof m.body.start.game, "%s",
             core_game_name(g->game));
    snprintf(m.body.start.options, sizeof m.body.start.options, "%s",
             g->options);
    memcpy(m.body.start.white, g->id.pk, PROTO_KEY_BYTES);
    memcpy(m.body.start.black, e->msg.sender, PROTO_KEY_BYTES);
    m.body.start.started = (uint64_t)time(NULL);
    rc = send_msg(g, &m);
    if (rc == 0) {
        char fp[PROTO_FINGERPRINT_MAX];
        proto_fingerprint(e->msg.sender, fp);
        say(g, "match: %s%s%s, you are white, opponent %s\n",
            core_game_name(g->game), g->options[0] ? " " : "", g->options,
            fp);
        clock_begin(g);
    }
    return rc;
}

int netgame_feed(Netgame *g, Lobby_Role from, const uint8_t *data, size_t len)
{
    Proto_Envelope e;
    char why[160];
    int rc = proto_open(data, len, &e, why, sizeof why);

    if (rc != 0) {
        g->result.refused++;
        warn(g, "refused a frame: %s\n", why);
        return rc;
    }
    if (e.msg.kind == PROTO_KIND_HELLO) {
        rc = on_hello(g, from, &e);
        step_soon(g);
        return rc;
    }
    if (started(g) && e.msg.seq < proto_transcript_count(g->t)) {
        /* Already held (a re-send after a reconnect): the same bytes? */
        for (size_t i = 0; i < g->nframes; i++)
            if (g->frames[i].len == len &&
                memcmp(g->frames[i].env, data, len) == 0)
                return 0;
        g->result.refused++;
        warn(g, "refused envelope %u: it differs from the one we hold\n",
             e.msg.seq);
        return TB_E_CHAIN;
    }
    if (e.msg.kind == PROTO_KIND_MATCH_START && g->room_host_known &&
        memcmp(e.msg.body.start.white, g->room_host, PROTO_KEY_BYTES) != 0) {
        g->result.refused++;
        warn(g, "refused a match start: white is not the room's host\n");
        return TB_E_SIGNATURE;
    }
    if (g->nframes >= NG_FRAMES_MAX) {
        g->result.refused++;
        warn(g, "refused envelope %u: %d envelopes are the most a match "
                "may hold\n", e.msg.seq, NG_FRAMES_MAX);
        return TB_E_LIMIT;
    }
    rc = proto_transcript_add(g->t, data, len, &e);
    if (rc != 0 && rc != TB_E_DESYNC) {
        g->result.refused++;
        warn(g, "refused %s %u: %s\n", proto_kind_name(e.msg.kind), e.msg.seq,
             proto_transcript_why(g->t));
        return rc;
    }
    if (keep_frame(g, data, len) != 0)
        return TB_E_NOMEM;
    if (e.msg.kind == PROTO_KIND_MATCH_START) {
        char fp[PROTO_FINGERPRINT_MAX];
        if (g->game == NULL)
            g->game = core_game_find(e.msg.body.start.game);
        char fp2[PROTO_FINGERPRINT_MAX];
        proto_fingerprint(e.msg.body.start.white, fp);
        proto_fingerprint(e.msg.body.start.black, fp2);
        say(g, "match: %s%s%s, white %s%s, black %s%s\n",
            e.msg.body.start.game, e.msg.body.start.options[0] ? " " : "",
            e.msg.body.start.options, fp,
            my_side(g) == CORE_WHITE ? " (you)" : "", fp2,
            my_side(g) == CORE_BLACK ? " (you)" : "");
        log_open(g);
        clock_begin(g);
    } else {
        log_frame(g, data, len);
    }
    if (e.msg.kind == PROTO_KIND_MOVE) {
        show_ply(g, &e);
        clock_after_move(g, proto_transcript_side_of(g->t, e.msg.sender),
                         &e.msg);
    }
    if (rc == TB_E_DESYNC && !g->desync) {
        g->desync = 1;
        g->detected = 1;
        g->desync_ply = e.msg.body.move.ply;
        memcpy(g->their_hash, e.msg.body.move.hash, PROTO_HASH_BYTES);
        g->their_hash_known = 1;
        warn(g, "desync at ply %u: %s\n", g->desync_ply,
             proto_transcript_why(g->t));
    }
    if (e.msg.kind == PROTO_KIND_DESYNC &&
        memcmp(e.msg.sender, g->id.pk, PROTO_KEY_BYTES) != 0) {
        free(g->their_state);
        g->their_state = malloc(e.msg.body.desync.state_len);
        if (g->their_state != NULL) {
            memcpy(g->their_state, e.msg.body.desync.state,
                   e.msg.body.desync.state_len);
            g->their_state_len = e.msg.body.desync.state_len;
            crypto_generichash(g->their_hash, PROTO_HASH_BYTES,
                               g->their_state, g->their_state_len, NULL, 0);
            g->their_hash_known = 1;
        }
        if (!g->desync) {
            g->desync = 1;
            g->desync_ply = e.msg.body.desync.ply;
        }
        g->desync_got = 1;
        if (g->closing)
            send_desync(g);
    }
    show_conduct(g, &e.msg);
    step_soon(g);
    return rc == TB_E_DESYNC ? 0 : rc;
}

/* ---- the lobby connection -------------------------------------------- */

static void on_welcome(Lobby_Client *c, const Lobby_Welcome *w)
{
    Netgame *g = lobby_client_user(c);

    if (g->welcomed)
        say(g, "lobby: reconnected\n");
    g->welcomed = 1;
    g->lost_at = 0;
    /* Checked against the code by the lobby client (its fingerprint). */
    memcpy(g->room_host, w->host_pk, PROTO_KEY_BYTES);
    g->room_host_known = 1;
    g->unacked = 0;
    if (g->hooks.on_presence) {
        g->hooks.on_presence(g, g->cfg.role, 1);
        if (g->cfg.role != LOBBY_ROLE_HOST)
            g->hooks.on_presence(g, LOBBY_ROLE_HOST, w->host_present);
        if (g->cfg.role != LOBBY_ROLE_GUEST)
            g->hooks.on_presence(g, LOBBY_ROLE_GUEST, w->guest_present);
    }
    if (g->cfg.role == LOBBY_ROLE_HOST && !g->room_printed) {
        g->room_printed = 1;
        say(g, "invite: %s\n", g->lcfg.invite.text);
        say(g, "watch: %s\n", g->lcfg.watch.text);
        say(g, "lobby: %s\n", g->lobby);
        if (g->hooks.on_room)
            g->hooks.on_room(g, g->lcfg.invite.text, g->lcfg.watch.text,
                             g->lobby);
    }
    if (g->cfg.role != LOBBY_ROLE_SPECTATOR) {
        /* What the room may lack: everything when the lobby lost it. */
        size_t from = 0;
        if (w->first_seq != 0 && g->nframes > NG_TAIL_RESEND)
            from = g->nframes - NG_TAIL_RESEND;
        for (size_t i = from; i < g->nframes; i++)
            send_env(g, g->frames[i].env, g->frames[i].len);
    }
    if (g->cfg.role == LOBBY_ROLE_GUEST && !started(g)) {
        Proto_Message m;
        size_t len = 0;
        proto_message_init(&m, PROTO_KIND_HELLO, &g->id);
        snprintf(m.body.hello.software, sizeof m.body.hello.software,
                 "tabula");
        hello_proof(&g->lcfg.invite, g->id.pk, m.body.hello.nonce);
        if (proto_seal(&m, &g->id, g->buf, NG_FRAME_CAP, &len, NULL) == 0)
            send_env(g, g->buf + PROTO_FRAME_PREFIX,
                     len - PROTO_FRAME_PREFIX);
    }
    step_soon(g);
}

static void on_frame(Lobby_Client *c, uint64_t seq, Lobby_Role from,
                     const uint8_t *data, size_t len)
{
    Netgame *g = lobby_client_user(c);
    netgame_feed(g, from, data, len);
    /* Accepted, duplicate or refused for good: never needed again. */
    seq_save(g, seq);
}

static void on_ack(Lobby_Client *c, uint64_t seq)
{
    Netgame *g = lobby_client_user(c);
    if (g->unacked > 0)
        g->unacked--;
    seq_save(g, seq); /* our own frame: already in our log */
}

/* Milliseconds before the next attempt. The host comes back first: after
 * a lobby restart its CREATE re-registers the room, and until then the
 * others' JOIN and WATCH find no room and count as wrong codes under the
 * lobby's guess limit, so they wait longer (and longest when refused). */
static uint64_t retry_delay(const Netgame *g, int reason)
{
    if (reason == TB_E_RATE)
        return 6000;
    if (g->cfg.role == LOBBY_ROLE_HOST)
        return 100;
    return reason == TB_E_CODE ? 2000 : 1000;
}

static void on_presence(Lobby_Client *c, Lobby_Role seat, int present)
{
    Netgame *g = lobby_client_user(c);
    if (g->done || g->closing)
        return;
    if (g->hooks.on_presence && seat != g->cfg.role)
        g->hooks.on_presence(g, seat, present);
    if (g->cfg.role == LOBBY_ROLE_SPECTATOR || seat != g->cfg.role)
        say(g, "lobby: %s %s\n", seat == LOBBY_ROLE_HOST ? "host" : "guest",
            present ? "present" : "gone (waiting for it to come back)");
    if (g->cfg.role == LOBBY_ROLE_SPECTATOR || seat == g->cfg.role)
        return;
    if (present) {
        g->absent_at = 0;
        return;
    }
    if (!started(g) || over(g))
        return;
    /* G-MC-9: the countdown before the present player may claim. */
    uint32_t ms = g->absent_env_ms, inc32 = 0;
    if (ms == 0) {
        uint64_t base = proto_transcript_clock(g->t, &inc32), inc = inc32;
        ms = NG_ABSENT_MS;
        if (base != 0) {
            uint64_t scaled = (base + 40 * inc) / 10;
            ms = (uint32_t)(scaled < NG_ABSENT_MIN_MS ? NG_ABSENT_MIN_MS
                            : scaled > NG_ABSENT_MS  ? NG_ABSENT_MS
                                                     : scaled);
        }
    }
    g->absent_ms = ms;
    g->absent_at = cli_now();
    g->absent_said = 0;
    if (g->timers_open && !uv_is_active((uv_handle_t *)&g->clock_timer))
        uv_timer_start(&g->clock_timer, on_clock_timer, NG_CLOCK_TICK_MS,
                       NG_CLOCK_TICK_MS);
    say(g, "absent: the opponent left; you may claim the win or a draw in "
           "%u.%03u s unless it returns\n", ms / 1000, ms % 1000);
}

static void on_retry(uv_timer_t *h)
{
    Netgame *g = h->data;
    if (g->done || g->lc == NULL)
        return;
    int rc = lobby_client_resume(g->lc, lobby_client_last_seq(g->lc));
    if (rc != 0 && rc != TB_E_STATE)
        uv_timer_start(&g->retry_timer, on_retry, retry_delay(g, rc), 0);
}

static void on_disconnect(Lobby_Client *c, int reason)
{
    Netgame *g = lobby_client_user(c);
    if (g->done || reason == 0)
        return;
    if (!g->welcomed) {
        char text[640];
        advice_lobby_failure(text, sizeof text, g->lobby, reason,
                             g->cfg.role, g->cfg.code);
        warn(g, "%s\n", text);
        g->closing = 1;
        g->result.finished = 0;
        done(g);
        return;
    }
    if (g->lost_at == 0) {
        g->lost_at = cli_now();
        if (g->hooks.on_presence)
            g->hooks.on_presence(g, g->cfg.role, 0);
        say(g, "lobby: connection lost (%s); reconnecting\n",
            net_strerror(reason));
    } else if ((cli_now() - g->lost_at) * 1000.0 > NG_RECONNECT_GIVE_UP_MS) {
        char text[640];
        advice_gave_up(text, sizeof text, g->lobby, g->cfg.role,
                       NG_RECONNECT_GIVE_UP_MS / 1000, g->log_path[0] != '\0');
        warn(g, "%s\n", text);
        g->closing = 1;
        done(g);
        return;
    }
    uv_timer_start(&g->retry_timer, on_retry, retry_delay(g, reason), 0);
}

static const Lobby_Client_Callbacks ng_callbacks = {
    on_welcome, on_frame, on_ack, on_presence, on_disconnect};

int netgame_new(uv_loop_t *loop, const Netgame_Config *cfg,
                const Netgame_Hooks *hooks, void *user, Netgame **out,
                char *why, size_t why_cap)
{
    Netgame *g;
    int rc, resumed;
    const char *env;

    *out = NULL;
    why[0] = '\0';
    if (cfg->lobby == NULL ||
        (cfg->role == LOBBY_ROLE_HOST && cfg->game == NULL) ||
        (cfg->role != LOBBY_ROLE_HOST && cfg->code == NULL)) {
        snprintf(why, why_cap, "missing game, code or lobby");
        return TB_E_ARG;
    }
    if ((g = calloc(1, sizeof *g)) == NULL)
        return TB_E_NOMEM;
    g->seq_fd = -1;
    g->loop = loop;
    g->cfg = *cfg;
    if (hooks != NULL)
        g->hooks = *hooks;
    g->user = user;
    g->game = cfg->game;
    snprintf(g->lobby, sizeof g->lobby, "%s", cfg->lobby);
    snprintf(g->label, sizeof g->label, "%s", cfg->label ? cfg->label : "");
    snprintf(g->log_path, sizeof g->log_path, "%s",
             cfg->log_path ? cfg->log_path : "");
    snprintf(g->options, sizeof g->options, "%s",
             cfg->options ? cfg->options : "");
    g->cfg.log_path = g->log_path;
    g->lcfg.role = cfg->role;
    if ((env = getenv("TABULA_TEST_DESYNC_PLY")) != NULL &&
        cfg->role != LOBBY_ROLE_SPECTATOR)
        g->perturb_ply = (uint32_t)strtoul(env, NULL, 10);
    if ((env = getenv("TABULA_TEST_CLOCK_LIE")) != NULL &&
        strcmp(env, "1") == 0 && cfg->role != LOBBY_ROLE_SPECTATOR)
        g->clock_lie = 1;
    if ((env = getenv("TABULA_TEST_ABSENCE_MS")) != NULL)
        g->absent_env_ms = (uint32_t)strtoul(env, NULL, 10);
    g->buf = malloc(NG_FRAME_CAP);
    rc = g->buf == NULL ? TB_E_NOMEM : proto_transcript_new(&g->t, NULL);
    if (rc == 0 && net_addr_parse(g->lobby, &g->addr) != 0) {
        snprintf(why, why_cap, "bad lobby address '%s'", cli_token(g->lobby));
        rc = TB_E_ARG;
    }
    if (rc != 0)
        goto fail;
    resumed = seat_load(g, why, why_cap);
    if (resumed < 0) {
        rc = resumed;
        goto fail;
    }
    if (!resumed) {
        rc = proto_identity_generate(&g->id);
        if (rc == 0)
            rc = lobby_random(g->lcfg.seat_secret, LOBBY_SEAT_SECRET_BYTES);
        if (rc == 0 && cfg->role == LOBBY_ROLE_HOST) {
            rc = lobby_code_new(g->id.pk, &g->lcfg.invite);
            if (rc == 0)
                rc = lobby_code_new(g->id.pk, &g->lcfg.watch);
        }
    }
    if (rc == 0 && cfg->role == LOBBY_ROLE_GUEST && !resumed &&
        lobby_code_parse(cfg->code, &g->lcfg.invite) != 0)
        rc = TB_E_CODE;
    if (rc == 0 && cfg->role == LOBBY_ROLE_SPECTATOR &&
        lobby_code_parse(cfg->code, &g->lcfg.watch) != 0)
        rc = TB_E_CODE;
    if (rc == TB_E_CODE)
        snprintf(why, why_cap, "'%s' is not a code (16 symbols of %s)",
                 cli_token(cfg->code), LOBBY_CODE_ALPHABET);
    if (rc != 0)
        goto fail;
    memcpy(g->lcfg.host_pk, g->id.pk, PROTO_KEY_BYTES);
    if (cfg->role != LOBBY_ROLE_SPECTATOR && (rc = seat_save(g)) != 0) {
        snprintf(why, why_cap, "cannot write %s.seat", g->log_path);
        goto fail;
    }
    if (resumed && (rc = log_resume(g, why, why_cap)) != 0)
        goto fail;
    if (resumed)
        say(g, "resumed: %u envelopes from %s\n",
            proto_transcript_count(g->t), g->log_path);
    uv_timer_init(loop, &g->step_timer);
    uv_timer_init(loop, &g->retry_timer);
    uv_timer_init(loop, &g->wait_timer);
    uv_timer_init(loop, &g->bot_timer);
    uv_timer_init(loop, &g->clock_timer);
    g->step_timer.data = g->retry_timer.data = g->wait_timer.data = g;
    g->bot_timer.data = g->clock_timer.data = g;
    g->timers_open = 1;
    if (started(g))
        clock_begin(g);
    uint64_t from_seq = 0;
    seq_open(g, &from_seq);
    if (!resumed || !started(g)) {
        from_seq = 0; /* a new seat, or one that never saw the start */
        g->seq_saved = 0;
        if (g->seq_fd >= 0 && ftruncate(g->seq_fd, 0) != 0)
            warn(g, "cannot reset %s.seq\n", g->log_path);
    } else {
        say(g, "resuming after lobby sequence number %llu\n",
            (unsigned long long)from_seq);
    }
    rc = lobby_client_new(loop, (const struct sockaddr *)&g->addr, &g->lcfg,
                          &ng_callbacks, g, from_seq, &g->lc);
    if (rc != 0) {
        snprintf(why, why_cap, "cannot connect to %s: %s", g->lobby,
                 net_strerror(rc));
        netgame_free(g);
        return rc;
    }
    *out = g;
    return 0;
fail:
    if (why[0] == '\0')
        snprintf(why, why_cap, "%s", tb_strerror(rc));
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
    g->done = 1;
    proto_log_close(g->log);
    if (g->seq_fd >= 0)
        close(g->seq_fd);
    proto_transcript_free(g->t);
    for (size_t i = 0; i < g->nframes; i++)
        free(g->frames[i].env);
    free(g->frames);
    free(g->buf);
    free(g->their_state);
    core_position_free(g->perturbed);
    proto_identity_wipe(&g->id);
    if (!g->timers_open) {
        free(g);
        return;
    }
    /* The timers live inside g: it goes with the last close callback. */
    g->timers_open = 0;
    g->closing_timers = 5 + g->bot_busy;
    g->freed = 1;
    uv_close((uv_handle_t *)&g->bot_timer, timer_closed);
    uv_close((uv_handle_t *)&g->step_timer, timer_closed);
    uv_close((uv_handle_t *)&g->retry_timer, timer_closed);
    uv_close((uv_handle_t *)&g->wait_timer, timer_closed);
    uv_close((uv_handle_t *)&g->clock_timer, timer_closed);
}
