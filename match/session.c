/*
 * session.c: the session object (match.h) and what it sends: the output
 * queue, the envelopes it keeps, logs and relays (ours are logged before
 * they are relayed), the end of a match (the result, the log's end, the
 * desync exchange in which the seat that found the mismatch speaks first,
 * the wait for the lobby's acks of our last envelopes), time and
 * deadlines, and making and resuming a session from its log. Frames that
 * come in are receive.c's, the local side's turn conduct.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "match_internal.h"

/* ---- outputs --------------------------------------------------------- */

Match_Out *match__push(Match *s, Match_Out_Kind kind)
{
    if (s->out_count == s->out_cap) {
        size_t cap = s->out_cap ? 2 * s->out_cap : 16;
        Match_Out *grown = malloc(cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        for (size_t i = 0; i < s->out_count; i++)
            grown[i] = s->outs[(s->out_head + i) % s->out_cap];
        free(s->outs);
        s->outs = grown;
        s->out_cap = cap;
        s->out_head = 0;
    }
    Match_Out *o = &s->outs[(s->out_head + s->out_count) % s->out_cap];
    memset(o, 0, offsetof(Match_Out, text));
    o->text[0] = '\0';
    /* every argument "" until a note sets it: a plain line's were the
     * ring's old bytes, and the page's notes of a second game (a
     * series') showed them (a trial) */
    memset(&o->note, 0, sizeof o->note);
    o->note.code = MATCH_NOTE_TEXT;
    o->note.answer = s->answering;
    o->kind = kind;
    s->out_count++;
    return o;
}

int match_poll(Match *s, Match_Out *out)
{
    if (s->out_count == 0)
        return 0;
    *out = s->outs[s->out_head];
    s->out_head = (s->out_head + 1) % s->out_cap;
    s->out_count--;
    return 1;
}

/* ---- small queries --------------------------------------------------- */

int match__started(const Match *s)
{
    return proto_transcript_start(s->t) != NULL;
}

Core_Status match__status(const Match *s)
{
    return s->forced ? s->forced_status : proto_transcript_status(s->t);
}

int match__over(const Match *s)
{
    return match__started(s) && match__status(s).outcome != CORE_ONGOING;
}

int match_side(const Match *s)
{
    if (s->cfg.role == MATCH_ROLE_SPECTATOR)
        return -1;
    return proto_transcript_side_of(s->t, s->cfg.id.pk);
}

const Match_Result *match_result(const Match *s) { return &s->result; }
const Proto_Transcript *match_transcript(const Match *s) { return s->t; }
int match_done(const Match *s) { return s->done; }
uint32_t match_frames(const Match *s) { return (uint32_t)s->nframes; }
uint64_t match_last_seq(const Match *s) { return s->last_seq; }
int match_draw_offer(const Match *s) { return proto_transcript_draw_offer(s->t); }

int match_takeback(const Match *s, uint32_t *plies)
{
    return proto_transcript_takeback(s->t, plies);
}

const uint8_t *match_frame_at(const Match *s, uint32_t i, size_t *len)
{
    if (i >= s->nframes)
        return NULL;
    *len = s->frames[i].len;
    return s->frames[i].env;
}

/* ---- kept frames, the log, relaying ---------------------------------- */

int match__keep(Match *s, const uint8_t *env, size_t len)
{
    if (s->nframes >= MATCH_FRAMES_MAX)
        return TB_E_LIMIT;
    if (s->nframes == s->frames_cap) {
        size_t cap = s->frames_cap ? 2 * s->frames_cap : 64;
        Match_Frame *grown = realloc(s->frames, cap * sizeof *grown);
        if (grown == NULL)
            return TB_E_NOMEM;
        s->frames = grown;
        s->frames_cap = cap;
    }
    uint8_t *copy = malloc(len);
    if (copy == NULL)
        return TB_E_NOMEM;
    memcpy(copy, env, len);
    Match_Frame *f = &s->frames[s->nframes];
    memset(f, 0, sizeof *f);
    f->env = copy;
    f->len = len;
    if (proto_receipt_hash(env, len, f->hash) != 0)
        memset(f->hash, 0, PROTO_HASH_BYTES);
    s->nframes++;
    return 0;
}

/* The log is opened (LOG_OPEN, with every envelope held so far) once the
 * match start is held; each later envelope is one LOG record. */
void match__log(Match *s, size_t index)
{
    Match_Out *o;
    if (s->log_ended)
        return; /* finished: a desync report is not logged */
    if (!s->log_open) {
        if (!match__started(s))
            return;
        s->log_open = 1;
        if ((o = match__push(s, MATCH_OUT_LOG_OPEN)) != NULL) {
            o->count = (uint32_t)s->nframes;
            o->seq = proto_transcript_witness_count(s->t);
        }
        return;
    }
    if ((o = match__push(s, MATCH_OUT_LOG)) != NULL) {
        o->data = s->frames[index].env;
        o->len = s->frames[index].len;
    }
}

/* Relay bytes; index is the kept frame's (or MATCH_SENT_HELLO), so the
 * lobby's acks, which come in the order of our sends, can be matched. */
void match__relay_bytes(Match *s, uint64_t now, const uint8_t *env,
                        size_t len, size_t index)
{
    Match_Out *o;
    if (!s->connected || s->cfg.role == MATCH_ROLE_SPECTATOR)
        return; /* re-sent from the kept frames after the reconnect */
    if ((size_t)s->unacked == s->sent_cap) {
        size_t cap = s->sent_cap ? 2 * s->sent_cap : 64;
        size_t *grown = malloc(cap * sizeof *grown);
        if (grown == NULL)
            return;
        for (size_t i = 0; i < (size_t)s->unacked; i++)
            grown[i] = s->sent[(s->sent_head + i) % s->sent_cap];
        free(s->sent);
        s->sent = grown;
        s->sent_cap = cap;
        s->sent_head = 0;
    }
    if ((o = match__push(s, MATCH_OUT_SEND)) != NULL) {
        o->data = env;
        o->len = len;
        s->sent[(s->sent_head + (size_t)s->unacked) % s->sent_cap] = index;
        s->unacked++;
        if (index < s->nframes && s->frames[index].sent_at == 0)
            s->frames[index].sent_at = now > 0 ? now : 1;
    }
}

void match__relay(Match *s, uint64_t now, size_t index)
{
    match__relay_bytes(s, now, s->frames[index].env, s->frames[index].len,
                       index);
}

int match__extra_kind(int kind)
{
    return kind != PROTO_KIND_MOVE && kind != PROTO_KIND_MATCH_START &&
           kind != PROTO_KIND_DESYNC;
}

void match__extra(Match *s, const Proto_Envelope *e, int add)
{
    int side = proto_transcript_side_of(s->t, e->msg.sender);
    if (side < 0 || !match__extra_kind(e->msg.kind))
        return;
    if (add > 0)
        s->extra[side]++;
    else if (s->extra[side] > 0)
        s->extra[side]--;
}

int match__send_msg(Match *s, uint64_t now, Proto_Message *m)
{
    size_t len = 0;
    int me = match_side(s);
    (void)now;
    if (me >= 0 && match__extra_kind(m->kind) &&
        s->extra[me] >= MATCH_EXTRA_MAX)
        return TB_E_LIMIT;
    int rc = proto_transcript_send(s->t, &s->cfg.id, m, s->buf,
                                   MATCH_FRAME_CAP, &len);
    if (rc != 0)
        return rc;
    if (me >= 0 && match__extra_kind(m->kind))
        s->extra[me]++;
    rc = match__keep(s, s->buf + PROTO_FRAME_PREFIX,
                     len - PROTO_FRAME_PREFIX);
    if (rc != 0)
        return rc;
    s->frames[s->nframes - 1].ours = 1;
    match__log(s, s->nframes - 1);
    match__relay(s, now, s->nframes - 1);
    return 0;
}

void match__show_ply(Match *s, uint32_t ply, int side, const char *move,
                     const uint8_t hash[PROTO_HASH_BYTES])
{
    Match_Out *o;
    char hex[PROTO_HASH_HEX];
    Match_Text t;
    proto_hex(hash, PROTO_HASH_BYTES, hex);
    s->result.plies = core_ply(proto_transcript_position(s->t));
    t = match__note(s, 0);
    match__put_u_pad(&t, ply, 4);
    match__put(&t, ". ");
    match__put_pad(&t, match__side_word(side), 5, 5);
    match__put(&t, " ");
    match__put_pad(&t, move, 24, CORE_NOTATION_MAX);
    match__put(&t, " ");
    match__put_pad(&t, hex, 0, 16);
    if ((o = match__push(s, MATCH_OUT_PLY)) != NULL) {
        o->ply = ply;
        o->side = side;
        memcpy(o->hex, hex, sizeof hex);
        match__text_init(&t, o->text, sizeof o->text);
        match__put(&t, move);
    }
}

/* ---- the end --------------------------------------------------------- */

static void done(Match *s)
{
    if (s->done)
        return;
    s->done = 1;
    match__push(s, MATCH_OUT_DONE);
}

static int state_bytes(const Match *s, uint8_t **out, size_t *len)
{
    const Core_Position *pos = s->perturbed ? s->perturbed
                                            : proto_transcript_position(s->t);
    size_t cap = core_game_encode_max(core_position_game(pos));
    *len = 0;
    if ((*out = malloc(cap)) == NULL)
        return TB_E_NOMEM;
    return core_encode(pos, *out, cap, len);
}

void match__send_desync(Match *s, uint64_t now)
{
    Proto_Message m;
    uint8_t *st = NULL;
    size_t len = 0;
    if (s->desync_sent || s->cfg.role == MATCH_ROLE_SPECTATOR)
        return;
    if (state_bytes(s, &st, &len) == 0 && len > 0 && len <= PROTO_STATE_MAX) {
        proto_message_init(&m, PROTO_KIND_DESYNC, &s->cfg.id);
        m.body.desync.ply = s->desync_ply;
        m.body.desync.state = st;
        m.body.desync.state_len = len;
        int rc = match__send_msg(s, now, &m);
        if (rc != 0) {
            Match_Text t = match__note(s, 1);
            match__put(&t, "cannot send the desync report: ");
            match__put(&t, tb_strerror(rc));
            match__put(&t, " (");
            match__put(&t, proto_transcript_why(s->t));
            match__put(&t, ")");
        }
    }
    free(st);
    s->desync_sent = 1;
}

int match_desync_states(const Match *s, uint8_t **ours, size_t *ours_len,
                        uint8_t our_hash[PROTO_HASH_BYTES],
                        const uint8_t **theirs, size_t *theirs_len,
                        uint8_t their_hash[PROTO_HASH_BYTES],
                        int *theirs_known)
{
    int rc = state_bytes(s, ours, ours_len);
    if (rc == 0)
        rc = proto_digest(*ours, *ours_len, NULL, 0, our_hash);
    *theirs = s->their_state;
    *theirs_len = s->their_state_len;
    memcpy(their_hash, s->their_hash, PROTO_HASH_BYTES);
    *theirs_known = s->their_hash_known;
    return rc;
}

static void finish(Match *s, uint64_t now)
{
    uint8_t hash[PROTO_HASH_BYTES];
    Core_Status st = match__status(s);
    const Core_Position *pos = proto_transcript_position(s->t);
    Match_Text t;
    Match_Out *o;

    if (s->closing)
        return;
    s->closing = 1;
    s->closed_at = now;
    s->result.status = st;
    s->result.plies = core_ply(pos);
    if (proto_state_hash(s->perturbed ? s->perturbed : pos, hash) == 0)
        proto_hex(hash, sizeof hash, s->result.final_hash);
    if (s->desync) {
        s->result.desync = 1;
        s->result.desync_ply = s->desync_ply;
        char ply[21];
        match__say(s, 0, MATCH_NOTE_DESYNC, match__u(ply, s->desync_ply),
                   NULL, NULL, NULL);
    } else {
        s->result.finished = 1;
    }
    t = match__note(s, 0);
    match__put(&t, "result: ");
    match__put(&t, core_outcome_name(st.outcome));
    match__put(&t, " (");
    match__put(&t, core_reason_name(st.reason));
    match__put(&t, ")");
    t = match__note(s, 0);
    match__put(&t, "final-hash: ");
    match__put(&t, s->result.final_hash);
    if (s->log_open && !s->log_ended &&
        (o = match__push(s, MATCH_OUT_LOG_END)) != NULL) {
        s->log_ended = 1;
        /* (a desync too: the chain decided the result, G-PR-3) */
        /* (a witnessed log ends only on every envelope's receipt: the
         * verifier refuses an end record before one) */
        if (!s->forced && match__all_witnessed(s)) {
            o->count = proto_transcript_count(s->t);
            proto_transcript_chain(s->t, o->hash);
        }
    }
    /* The seat that found the mismatch sends its state first, the other
     * answers: both at once would collide on one seq. After the end
     * record: a report sent then is not logged (match__log), so the
     * log ends where the chain decided, as the others' do (a trial: an
     * honest seat answering a false report logged its answer, not yet
     * witnessed, and so wrote no end record; its replay said exit 3). */
    if (s->desync && (s->detected || s->desync_got))
        match__send_desync(s, now);
    if (s->cfg.role == MATCH_ROLE_SPECTATOR) {
        s->result.finished = 1;
        done(s);
        return;
    }
    s->wait_started = now;
}

/* While closing: the desync exchange, then our last frames acked. */
static void closing_tick(Match *s, uint64_t now)
{
    uint64_t waited = now - s->wait_started;
    if (s->done)
        return;
    if (s->desync && !s->desync_reported) {
        if (!(s->desync_sent && s->desync_got) &&
            waited < MATCH_DESYNC_WAIT_MS)
            return;
        s->desync_reported = 1;
        s->result.finished = 1;
        match__push(s, MATCH_OUT_DESYNC);
        s->wait_started = now;
        return;
    }
    /* Our last frames must reach the lobby: wait for its acks, and across
     * a reconnect (the tail is re-sent on the welcome). */
    if (!s->connected && waited < MATCH_RECONNECT_GIVE_UP_MS)
        return;
    if (s->unacked > 0 && waited < MATCH_FINISH_WAIT_MS)
        return;
    done(s);
}

/* ---- the step: whatever follows from the state ----------------------- */

void match__step(Match *s, uint64_t now)
{
    /* Again while something changes (the side to move may move twice,
     * as in Chess volleyball, or several lines may be queued). */
    for (int guard = 0; guard < MATCH_LINES_MAX + 64 && !s->done; guard++) {
        /* (a witnessed end waits for the receipts of the last
         * envelopes: one may yet show a flag fallen first, and a seat
         * resumed from a log cut before them has them again on the
         * catch-up) */
        if (s->desync || (match__over(s) && match__all_witnessed(s))) {
            finish(s, now);
            closing_tick(s, now);
            return;
        }
        if (!match__started(s) || !s->connected)
            return;
        int side = match_side(s);
        if (side < 0)
            return;
        int my_turn =
            core_side_to_move(proto_transcript_position(s->t)) == side;
        if (match__forge_due(s, now, my_turn))
            continue;
        if (!match__take_turn(s, now, my_turn))
            return;
    }
}

/* ---- time ------------------------------------------------------------ */

/* The match's own timers (clocks, a bot's think time) run: match_tick
 * takes them and match_deadline asks for them only then (a bot's think
 * time past in a match that ended meanwhile, its last receipts still
 * awaited, was a wake-up met again and again at one time). */
static int timers_run(const Match *s)
{
    return !s->done && !s->closing && match__started(s) && !match__over(s) &&
           !s->desync;
}

void match_tick(Match *s, uint64_t now)
{
    if (s->done)
        return;
    if (timers_run(s)) {
        match__clock_tick(s, now);
        if (s->think_at != 0 && now >= s->think_at) {
            s->think_at = 0;
            s->ready_for = s->think_for;
        }
    }
    match__step(s, now);
}

uint64_t match_deadline(const Match *s)
{
    uint64_t d = UINT64_MAX;
    if (s->done)
        return d;
    if (s->closing) {
        if (s->desync && !s->desync_reported)
            return s->wait_started + MATCH_DESYNC_WAIT_MS;
        if (!s->connected)
            return s->wait_started + MATCH_RECONNECT_GIVE_UP_MS;
        return s->unacked > 0 ? s->wait_started + MATCH_FINISH_WAIT_MS
                              : s->wait_started;
    }
    if (s->think_at != 0 && timers_run(s))
        d = s->think_at;
    uint64_t c = match__clock_deadline(s);
    return c < d ? c : d;
}

/* ---- making and resuming --------------------------------------------- */

int match_new(const Match_Config *cfg, Match **out)
{
    Match *s;
    int rc;
    *out = NULL;
    if (cfg->role == MATCH_ROLE_HOST && cfg->game == NULL)
        return TB_E_ARG;
    if ((cfg->options != NULL && strlen(cfg->options) > PROTO_OPTIONS_MAX) ||
        (cfg->expect_options != NULL &&
         strlen(cfg->expect_options) > PROTO_OPTIONS_MAX))
        return TB_E_ARG;
    if ((s = calloc(1, sizeof *s)) == NULL)
        return TB_E_NOMEM;
    s->cfg = *cfg;
    s->game = cfg->game;
    if (cfg->options != NULL)
        memcpy(s->options, cfg->options, strlen(cfg->options) + 1);
    s->cfg.options = s->options;
    if (cfg->expect_options != NULL) {
        memcpy(s->expect, cfg->expect_options,
               strlen(cfg->expect_options) + 1);
        s->cfg.expect_options = s->expect;
    }
    s->buf = malloc(MATCH_FRAME_CAP);
    s->hello = malloc(MATCH_FRAME_CAP);
    rc = s->buf == NULL || s->hello == NULL ? TB_E_NOMEM
                                            : match__rebuild(s, 0, &s->t);
    if (rc != 0) {
        match_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void match_free(Match *s)
{
    if (s == NULL)
        return;
    proto_transcript_free(s->t);
    for (size_t i = 0; i < s->nframes; i++) {
        free(s->frames[i].env);
        free(s->frames[i].rec);
    }
    free(s->frames);
    free(s->buf);
    free(s->hello);
    free(s->outs);
    free(s->sent);
    while (s->npending > 0)
        match__pending_drop(s, 0);
    free(s->their_state);
    free(s->bare);
    core_position_free(s->perturbed);
    proto_wipe(&s->cfg.id, sizeof s->cfg.id);
    free(s);
}

static void put_why(char *why, size_t cap, const char *a, const char *b)
{
    Match_Text t;
    match__text_init(&t, why, cap);
    match__put(&t, a);
    match__put(&t, b);
}

/* proto_log_verify's visit while resuming: keep the bytes of each
 * envelope it accepted (read in step from the log). */
typedef struct Resume {
    Match *s;
    const uint8_t *log;
    size_t len, off;
    int rc;
} Resume;

static void resume_visit(void *ctx, const Proto_Transcript *t,
                         const Proto_Envelope *e)
{
    Resume *r = ctx;
    const uint8_t *env;
    size_t env_len, used;
    if (r->rc != 0)
        return;
    do { /* (past the receipt records: resume_receipt has them) */
        r->rc = proto_frame_next(r->log + r->off, r->len - r->off, &env,
                                 &env_len, &used);
        if (r->rc != 0)
            return;
        r->off += used;
    } while (proto_log_is_record(env, env_len));
    r->rc = match__keep(r->s, env, env_len);
    if (r->rc != 0)
        return;
    r->s->frames[r->s->nframes - 1].ours =
        memcmp(e->msg.sender, r->s->cfg.id.pk, PROTO_KEY_BYTES) == 0;
    if (e->msg.kind == PROTO_KIND_MOVE)
        r->s->moves++;
    else if (match__extra_kind(e->msg.kind)) {
        int side = proto_transcript_side_of(t, e->msg.sender);
        if (side >= 0)
            r->s->extra[side]++;
    }
}

/* ... and each receipt: its envelope is held by now. */
static void resume_receipt(void *ctx, uint32_t index, const Proto_Receipt *rc)
{
    Resume *r = ctx;
    if (r->rc != 0 || rc->kind != PROTO_RECEIPT_FRAME ||
        index >= r->s->nframes)
        return;
    Match_Frame *f = &r->s->frames[index];
    free(f->rec);
    f->receipt = *rc;
    f->rec = match__record(index, rc, &f->rec_len);
    f->has_receipt = f->rec != NULL;
    if (f->rec == NULL)
        r->rc = TB_E_NOMEM;
}

int match_resume(Match *s, const uint8_t *log, size_t len, uint64_t last_seq,
                 uint32_t numbered, char *why, size_t why_cap)
{
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    Resume r = {s, log, len, PROTO_LOG_MAGIC_LEN, 0};
    const uint8_t *env;
    size_t env_len, used;
    int rc;

    if (s->welcomed || s->nframes != 0)
        return TB_E_STATE;
    /* the header frame first: the visits read the envelopes after it */
    if (len < PROTO_LOG_MAGIC_LEN ||
        proto_frame_next(log + r.off, len - r.off, &env, &env_len, &used) != 0)
        used = 0;
    r.off += used;
    /* One pass checks every signature once and gives the transcript. */
    rc = proto_log_verify_witnessed(log, len, NULL, resume_visit,
                                    resume_receipt, &r, &t, &rep);
    if (rc != 0 && rc != TB_E_TRUNCATED && rc != TB_E_DESYNC) {
        put_why(why, why_cap, rep.why, "");
        proto_transcript_free(t);
        return rc;
    }
    if (r.rc != 0 || t == NULL ||
        proto_transcript_count(t) != (uint32_t)s->nframes) {
        put_why(why, why_cap, "cannot replay: ",
                tb_strerror(r.rc != 0 ? r.rc : TB_E_FORMAT));
        proto_transcript_free(t);
        return r.rc != 0 ? r.rc : TB_E_FORMAT;
    }
    if (s->game != NULL && proto_transcript_start(t) != NULL &&
        strcmp(proto_transcript_start(t)->body.start.game,
               core_game_name(s->game)) != 0) {
        /* A host resuming another game's log would send that game's
         * frames under this game's name: refuse, naming both. */
        Match_Text m;
        match__text_init(&m, why, why_cap);
        match__put(&m, "it holds a ");
        match__put(&m, proto_transcript_start(t)->body.start.game);
        match__put(&m, " match, not ");
        match__put(&m, core_game_name(s->game));
        proto_transcript_free(t);
        return TB_E_STATE;
    }
    proto_transcript_free(s->t);
    s->t = t;
    if (rep.header.version == 2 || rep.header.version == 3) {
        /* its receipts are of another form than the relay's now (version
         * 2's attest no presence, version 3's name no guest): the rest
         * of its game would need another log */
        put_why(why, why_cap,
                rep.header.version == 2
                    ? "it is a log of version 2, written before the relay's "
                      "receipts attested presence: its game cannot go on"
                    : "it is a log of version 3, written before the relay's "
                      "receipts named the guest: its game cannot go on",
                "");
        proto_transcript_free(t);
        return TB_E_VERSION;
    }
    if (rep.header.version >= 3) {
        memcpy(s->room_host, rep.header.room, PROTO_KEY_BYTES);
        s->room_host_known = 1;
    }
    if (s->game == NULL && match__started(s))
        s->game = core_game_find(proto_transcript_start(s->t)->body.start.game);
    s->last_seq = s->seq_rcv = match__started(s) ? last_seq : 0;
    /* the envelopes the room had numbered, as far as made durable: a
     * different one for their numbers came later and loses */
    for (size_t i = 0; i < s->nframes && i < numbered; i++)
        s->frames[i].numbered = 1;
    s->prefix = s->prefix_saved = numbered < s->nframes ? numbered
                                                        : s->nframes;
    if (match__started(s)) {
        Match_Out *o;
        s->log_open = 1;
        if ((o = match__push(s, MATCH_OUT_LOG_OPEN)) != NULL) {
            o->count = (uint32_t)s->nframes;
            o->seq = proto_transcript_witness_count(s->t);
        }
    }
    return 0;
}

int match_log_header(const Match *s, Proto_Log_Header *h)
{
    const Proto_Message *st = proto_transcript_start(s->t);
    if (st == NULL)
        return TB_E_STATE;
    proto_log_header_of(st, h);
    if (match__witnessed(s)) {
        h->version = PROTO_LOG_VERSION;
        memcpy(h->room, s->room_host, PROTO_KEY_BYTES);
    }
    return 0;
}

int match_log_fill(const Match *s, Proto_Log *log, uint32_t count,
                   uint64_t witnessed)
{
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < count && i < s->nframes; i++) {
        const Match_Frame *f = &s->frames[i];
        rc = proto_log_append_record(log, f->env, f->len);
        if (rc == 0 && i < witnessed && f->has_receipt && f->rec_len > 0)
            rc = proto_log_append_record(log, f->rec, f->rec_len);
        if (rc == 0 && i < witnessed && f->has_receipt && f->skew_len > 0)
            rc = proto_log_append_record(log, f->skew_rec, f->skew_len);
    }
    return rc;
}

uint8_t *match__record(uint32_t index, const Proto_Receipt *r, size_t *len)
{
    uint8_t buf[PROTO_LOG_RECORD_MAX], *rec;
    *len = proto_log_receipt_record(index, r, buf, sizeof buf);
    if (*len == 0 || (rec = malloc(*len)) == NULL)
        return NULL;
    memcpy(rec, buf, *len);
    return rec;
}

int match__rebuild(const Match *s, size_t n, Proto_Transcript **out)
{
    Proto_Transcript *t = NULL;
    int rc = proto_transcript_new(&t, NULL);
    *out = NULL;
    if (rc != 0)
        return rc;
    /* (the mode of the match held, which a resumed log set; a new
     * session's, its configuration's) */
    if (s->t != NULL ? match__witnessed(s) : s->cfg.witnessed) {
        proto_transcript_witness_mode(t);
        proto_transcript_witness_absence(t);
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = proto_transcript_add(t, s->frames[i].env, s->frames[i].len,
                                  NULL);
        if (rc == TB_E_DESYNC)
            rc = 0;
    }
    if (rc != 0)
        proto_transcript_free(t);
    else
        *out = t;
    return rc;
}

int match__all_witnessed(const Match *s)
{
    return !match__witnessed(s) || proto_transcript_witness_count(s->t) ==
                                       proto_transcript_count(s->t);
}

int match__rewitness(const Match *s, Proto_Transcript *t, size_t upto)
{
    int rc = 0;
    uint32_t w = proto_transcript_witness_count(t);
    for (; rc == 0 && w < upto && w < s->nframes && s->frames[w].has_receipt;
         w++)
        rc = proto_transcript_witness(t, w, s->frames[w].receipt.time_ms,
                                      s->frames[w].receipt.absent_ms);
    return rc;
}

uint32_t match_moves(const Match *s) { return s->moves; }
