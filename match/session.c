/*
 * session.c: the session's frames in and out (match.h). Every relayed
 * frame is one proto/ envelope; the transcript decides what is valid
 * (signature, chain, turn, legality, state hash). The host sends the
 * match start when the guest's hello arrives with its seat proof (host
 * white, guest black); afterwards the side to move sends its move with
 * the state hash after it. A hash mismatch stops the game at that ply:
 * both players send a desync message carrying their whole state. After a
 * reconnect a player re-sends the tail of its envelopes (all of them when
 * the lobby lost the room), and receivers drop envelopes they already
 * hold. Our own envelopes are logged before they are relayed, and a
 * relayed frame's lobby sequence number is made durable (MATCH_OUT_SEQ)
 * only after its log record and only in order, so a seat restarted from
 * its durable state asks the lobby again for anything it had not logged.
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
    s->frames[s->nframes].env = copy;
    s->frames[s->nframes].len = len;
    s->frames[s->nframes].numbered = 0;
    s->frames[s->nframes].ours = 0;
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
        if ((o = match__push(s, MATCH_OUT_LOG_OPEN)) != NULL)
            o->count = (uint32_t)s->nframes;
        return;
    }
    if ((o = match__push(s, MATCH_OUT_LOG)) != NULL) {
        o->data = s->frames[index].env;
        o->len = s->frames[index].len;
    }
}

/* Relay bytes; index is the kept frame's (or MATCH_SENT_HELLO), so the
 * lobby's acks, which come in the order of our sends, can be matched. */
static void relay_bytes(Match *s, const uint8_t *env, size_t len,
                        size_t index)
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
    }
}

void match__relay(Match *s, size_t index)
{
    relay_bytes(s, s->frames[index].env, s->frames[index].len, index);
}

int match__send_msg(Match *s, uint64_t now, Proto_Message *m)
{
    size_t len = 0;
    (void)now;
    int rc = proto_transcript_send(s->t, &s->cfg.id, m, s->buf,
                                   MATCH_FRAME_CAP, &len);
    if (rc != 0)
        return rc;
    rc = match__keep(s, s->buf + PROTO_FRAME_PREFIX,
                     len - PROTO_FRAME_PREFIX);
    if (rc != 0)
        return rc;
    s->frames[s->nframes - 1].ours = 1;
    match__log(s, s->nframes - 1);
    match__relay(s, s->nframes - 1);
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

/* ---- lobby sequence numbers ------------------------------------------ */

/* The resume point: every lobby number received in order, short of
 * the envelopes still pending (not yet logged). */
static void advance_durable(Match *s)
{
    Match_Out *o;
    uint64_t d = s->seq_rcv;
    for (size_t i = 0; i < s->npending; i++)
        if (s->pending[i].lobby != 0 && s->pending[i].lobby - 1 < d &&
            !(s->cfg.plant & MATCH_PLANT_SKIP)) /* planted: gap unseen */
            d = s->pending[i].lobby - 1;
    while (s->prefix < s->nframes && s->frames[s->prefix].numbered)
        s->prefix++;
    if (d <= s->last_seq && s->prefix == s->prefix_saved)
        return;
    if (d > s->last_seq)
        s->last_seq = d;
    s->prefix_saved = s->prefix;
    if ((o = match__push(s, MATCH_OUT_SEQ)) != NULL) {
        o->seq = s->last_seq;
        o->count = (uint32_t)s->prefix;
    }
}

static void seq_handled(Match *s, uint64_t seq)
{
    Match_Out *o;
    if (seq == 0)
        return;
    if (seq > s->seq_rcv + 1 && !(s->cfg.plant & MATCH_PLANT_SKIP)) {
        /* A gap: frames were lost on the way. Ask again from the resume
         * point, which stays where it is. */
        if (!s->refetching && (o = match__push(s, MATCH_OUT_REFETCH))) {
            s->refetching = 1;
            o->seq = s->last_seq;
        }
        return;
    }
    if (seq > s->seq_rcv && !s->refetching)
        s->seq_rcv = seq;
    advance_durable(s);
}

static void pending_drop(Match *s, size_t i)
{
    free(s->pending[i].env);
    s->pending[i] = s->pending[--s->npending];
}

/* Hold an envelope that came before the ones it follows; of two for one
 * number the relay's first (the lower lobby number) is kept. */
static void pend(Match *s, uint64_t lobby, const Proto_Envelope *e,
                 const uint8_t *env, size_t len)
{
    Match_Pending *p = NULL;
    for (size_t i = 0; i < s->npending; i++)
        if (s->pending[i].seq == e->msg.seq)
            p = &s->pending[i];
    if (p != NULL) {
        if (p->len == len && memcmp(p->env, env, len) == 0)
            return;
        if (p->lobby == 0 || lobby == 0 || lobby >= p->lobby)
            return; /* the one held came first */
        free(p->env);
    } else {
        if (s->npending == MATCH_PENDING_MAX)
            return; /* dropped: asked for again after a reconnect */
        p = &s->pending[s->npending++];
    }
    p->seq = e->msg.seq;
    p->lobby = lobby;
    p->len = 0;
    if ((p->env = malloc(len)) == NULL) {
        s->npending--;
        return;
    }
    memcpy(p->env, env, len);
    p->len = len;
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

static void send_desync(Match *s, uint64_t now)
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
    s->result.status = st;
    s->result.plies = core_ply(pos);
    if (proto_state_hash(s->perturbed ? s->perturbed : pos, hash) == 0)
        proto_hex(hash, sizeof hash, s->result.final_hash);
    if (s->desync) {
        s->result.desync = 1;
        s->result.desync_ply = s->desync_ply;
        t = match__note(s, 0);
        match__put(&t, "desync: state hashes differ at ply ");
        match__put_u(&t, s->desync_ply);
        /* The seat that found the mismatch sends its state first, the
         * other answers: both at once would collide on one seq. */
        if (s->detected || s->desync_got)
            send_desync(s, now);
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
        if (!s->desync && !s->forced) {
            o->count = proto_transcript_count(s->t);
            proto_transcript_chain(s->t, o->hash);
        }
    }
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

static void step(Match *s, uint64_t now)
{
    /* Again while something changes (the side to move may move twice,
     * as in Chess volleyball, or several lines may be queued). */
    for (int guard = 0; guard < MATCH_LINES_MAX + 64 && !s->done; guard++) {
        if (s->desync || match__over(s)) {
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
        if (!match__take_turn(s, now, my_turn))
            return;
    }
}

/* ---- incoming frames ------------------------------------------------- */

/* The hello's proof that its sender holds the invite code: BLAKE2b-256
 * keyed with the code's seat key (which the lobby never learns) over a
 * label and the sender's public key, carried in the hello's nonce field. */
static int hello_proof(const uint8_t key[32], const uint8_t pk[],
                       uint8_t out[PROTO_NONCE_BYTES])
{
    static const char label[] = "tabula-hello-1";
    uint8_t msg[sizeof label + PROTO_KEY_BYTES];
    memcpy(msg, label, sizeof label);
    memcpy(msg + sizeof label, pk, PROTO_KEY_BYTES);
    return proto_digest(msg, sizeof msg, key, 32, out);
}

static void say_match(Match *s, const Proto_Message *st, int ours)
{
    char fp[PROTO_FINGERPRINT_MAX], fp2[PROTO_FINGERPRINT_MAX];
    Match_Text t = match__note(s, 0);
    match__put(&t, "match: ");
    match__put(&t, st->body.start.game);
    if (ours) {
        proto_fingerprint(st->body.start.black, fp);
        match__put(&t, ", you are white, opponent ");
        match__put(&t, fp);
        return;
    }
    if (st->body.start.options[0]) {
        match__put(&t, " ");
        match__put(&t, st->body.start.options);
    }
    proto_fingerprint(st->body.start.white, fp);
    proto_fingerprint(st->body.start.black, fp2);
    match__put(&t, ", white ");
    match__put(&t, fp);
    if (match_side(s) == CORE_WHITE)
        match__put(&t, " (you)");
    match__put(&t, ", black ");
    match__put(&t, fp2);
    if (match_side(s) == CORE_BLACK)
        match__put(&t, " (you)");
}

static int on_hello(Match *s, uint64_t now, int from,
                    const Proto_Envelope *e)
{
    Proto_Message m;
    uint8_t want[PROTO_NONCE_BYTES];
    int rc;
    if (s->cfg.role != MATCH_ROLE_HOST || from != MATCH_ROLE_GUEST ||
        match__started(s) ||
        memcmp(e->msg.sender, s->cfg.id.pk, PROTO_KEY_BYTES) == 0)
        return 0; /* only the host answers, once */
    if ((rc = hello_proof(s->cfg.seat_key, e->msg.sender, want)) != 0)
        return rc;
    if (!proto_equal(want, e->msg.body.hello.nonce, sizeof want)) {
        s->result.refused++;
        Match_Text t = match__note(s, 1);
        match__put(&t, "refused a hello: its sender does not hold the "
                       "invite code");
        return TB_E_SIGNATURE;
    }
    proto_message_init(&m, PROTO_KIND_MATCH_START, &s->cfg.id);
    memcpy(m.match_id, s->cfg.match_id, sizeof m.match_id);
    size_t n = strlen(core_game_name(s->game));
    memcpy(m.body.start.game, core_game_name(s->game),
           n < PROTO_NAME_MAX ? n : PROTO_NAME_MAX);
    memcpy(m.body.start.options, s->options, strlen(s->options) + 1);
    memcpy(m.body.start.white, s->cfg.id.pk, PROTO_KEY_BYTES);
    memcpy(m.body.start.black, e->msg.sender, PROTO_KEY_BYTES);
    m.body.start.started = s->cfg.started;
    rc = match__send_msg(s, now, &m);
    if (rc == 0) {
        say_match(s, &m, 1);
        match__clock_begin(s, now);
    }
    return rc;
}

static void refused(Match *s, const char *what, uint32_t seq,
                    const char *why)
{
    Match_Text t;
    s->result.refused++;
    t = match__note(s, 1);
    match__put(&t, "refused ");
    match__put(&t, what);
    if (seq != UINT32_MAX) {
        match__put(&t, " ");
        match__put_u(&t, seq);
    }
    match__put(&t, ": ");
    match__put(&t, why);
}

/*
 * The envelopes we hold from index n on lost a race: the relay numbered
 * another envelope for seq n first (G-MC-1 leaves a few such races: a
 * flag claim against a move in its last moment, a claim against a
 * returning player; and a room the lobby re-made after a restart orders
 * the re-sent envelopes anew). Every seat and spectator takes the order
 * of the room it is in, so ours are taken back: the transcript is
 * rebuilt from the envelopes before n and the log rewritten; a game they
 * had ended goes on.
 */
static int retract(Match *s, uint64_t now, size_t n, const uint8_t *env,
                   size_t len, Proto_Envelope *e)
{
    Proto_Transcript *t = NULL;
    uint32_t moves = 0, dropped = (uint32_t)(s->nframes - n);
    Match_Out *o;
    Match_Text txt;
    int rc = proto_transcript_new(&t, NULL);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = proto_transcript_add(t, s->frames[i].env, s->frames[i].len,
                                  NULL);
        if (rc == TB_E_DESYNC)
            rc = 0;
    }
    /* Only an envelope that holds in our place is taken: a forgery
     * costs us nothing. */
    int added = rc == 0 ? proto_transcript_add(t, env, len, e) : rc;
    if (added != 0 && added != TB_E_DESYNC) {
        proto_transcript_free(t);
        return 1;
    }
    for (size_t i = n; i < s->nframes; i++) {
        Proto_Envelope mine;
        if (proto_open(s->frames[i].env, s->frames[i].len, &mine, NULL,
                       0) == 0 &&
            mine.msg.kind == PROTO_KIND_MOVE)
            moves++;
        free(s->frames[i].env);
    }
    s->nframes = n;
    if (s->prefix > n)
        s->prefix = n;
    s->moves -= moves;
    proto_transcript_free(s->t);
    s->t = t;
    /* acks still due for the dropped envelopes must not mark new ones */
    for (size_t k = 0; k < (size_t)s->unacked; k++) {
        size_t *i = &s->sent[(s->sent_head + k) % s->sent_cap];
        if (*i != MATCH_SENT_HELLO && *i >= n)
            *i = MATCH_SENT_HELLO;
    }
    if (s->closing && !s->done) {
        uint32_t refused_n = s->result.refused;
        s->closing = 0;
        s->log_ended = 0;
        memset(&s->result, 0, sizeof s->result);
        s->result.refused = refused_n;
    }
    if ((o = match__push(s, MATCH_OUT_RETRACT)) != NULL) {
        o->count = dropped;
        o->ply = moves;
    }
    txt = match__note(s, 1);
    match__put(&txt, "the opponent's envelope ");
    match__put_u(&txt, n);
    match__put(&txt, " reached the lobby first: ");
    match__put_u(&txt, dropped);
    match__put(&txt, dropped == 1 ? " of ours is" : " of ours are");
    match__put(&txt, " taken back");
    if (s->log_open && (o = match__push(s, MATCH_OUT_LOG_OPEN)) != NULL)
        o->count = (uint32_t)n;
    s->clock_on = 0;
    match__clock_begin(s, now);
    s->flag_sent = s->own_flag_said = 0;
    s->think_token = s->ready_for = s->think_for = 0;
    s->think_at = 0;
    return added;
}

/* An envelope whose number we hold (a re-send after a reconnect, a
 * duplicate delivery): the same bytes; or one the room numbered before
 * the one we hold, which this room has not numbered yet (*retracted: ours
 * are gone and it is added, with *added the add's result); or a
 * forgery. */
static int held(Match *s, uint64_t now, Proto_Envelope *e,
                const uint8_t *env, size_t len, int *retracted, int *added)
{
    size_t n = e->msg.seq;
    Match_Frame *f = n < s->nframes ? &s->frames[n] : NULL;
    *retracted = 0;
    if (f != NULL && f->len == len && memcmp(f->env, env, len) == 0) {
        f->numbered = 1; /* this room has it */
        if (s->cfg.plant & MATCH_PLANT_DUP) {
            /* planted: taken again as if new */
            if (match__keep(s, env, len) == 0)
                match__log(s, s->nframes - 1);
            if (e->msg.kind == PROTO_KIND_MOVE)
                match__show_ply(s, e->msg.body.move.ply,
                                proto_transcript_side_of(s->t, e->msg.sender),
                                e->msg.body.move.move, e->msg.body.move.hash);
        }
        return 0;
    }
    if (f != NULL && !f->numbered &&
        (s->cfg.role == MATCH_ROLE_SPECTATOR ||
         memcmp(e->msg.sender, s->cfg.id.pk, PROTO_KEY_BYTES) != 0) &&
        proto_transcript_side_of(s->t, e->msg.sender) >= 0 &&
        (*added = retract(s, now, n, env, len, e)) != 1) {
        *retracted = 1;
        return 0;
    }
    refused(s, "envelope", e->msg.seq, "it differs from the one we hold");
    return TB_E_CHAIN;
}

/* The index of a held envelope with exactly these bytes, or -1: a
 * duplicate needs no signature check (the bytes were checked once). */
static long held_bytes(const Match *s, const uint8_t *env, size_t len)
{
    for (size_t i = s->nframes; i-- > 0;)
        if (s->frames[i].len == len && memcmp(s->frames[i].env, env, len) == 0)
            return (long)i;
    return -1;
}

static int take_frame(Match *s, uint64_t now, int from, uint64_t lobby,
                      const uint8_t *env, size_t len)
{
    Proto_Envelope e;
    char why[160];
    int rc, retracted = 0, added = 0;
    long dup = held_bytes(s, env, len);

    if (dup >= 0 && !(s->cfg.plant & MATCH_PLANT_DUP)) {
        s->frames[dup].numbered = 1; /* this room has it */
        return 0;
    }
    if (match__started(s) && s->nframes < MATCH_FRAMES_MAX) {
        /* The common case in one signature check: the next envelope. */
        rc = proto_transcript_add(s->t, env, len, &e);
        if (rc == 0 || rc == TB_E_DESYNC)
            goto accepted;
    }
    rc = proto_open(env, len, &e, why, sizeof why);
    if (rc != 0) {
        refused(s, "a frame", UINT32_MAX, why);
        return rc;
    }
    if (e.msg.kind == PROTO_KIND_HELLO)
        return on_hello(s, now, from, &e);
    if (match__started(s) && e.msg.seq > proto_transcript_count(s->t)) {
        pend(s, lobby, &e, env, len);
        return 0;
    }
    if (match__started(s) && e.msg.seq < proto_transcript_count(s->t)) {
        rc = held(s, now, &e, env, len, &retracted, &added);
        if (rc != 0 || !retracted)
            return rc;
    }
    if (e.msg.kind == PROTO_KIND_MATCH_START && s->room_host_known &&
        memcmp(e.msg.body.start.white, s->room_host, PROTO_KEY_BYTES) != 0) {
        refused(s, "a match start", UINT32_MAX, "white is not the room's host");
        return TB_E_SIGNATURE;
    }
    if (s->nframes >= MATCH_FRAMES_MAX) {
        refused(s, "envelope", e.msg.seq,
                "65536 envelopes are the most a match may hold");
        return TB_E_LIMIT;
    }
    rc = retracted ? added : proto_transcript_add(s->t, env, len, &e);
accepted:
    if (rc != 0 && rc != TB_E_DESYNC) {
        if (e.msg.kind == PROTO_KIND_FLAG && (s->cfg.plant & MATCH_PLANT_CLOCK))
            match__clock_plant(s, &e);
        refused(s, proto_kind_name(e.msg.kind), e.msg.seq,
                proto_transcript_why(s->t));
        return rc;
    }
    if (match__keep(s, env, len) != 0)
        return TB_E_NOMEM;
    s->frames[s->nframes - 1].numbered = lobby != 0;
    if (e.msg.kind == PROTO_KIND_MATCH_START) {
        if (s->game == NULL)
            s->game = core_game_find(e.msg.body.start.game);
        say_match(s, &e.msg, 0);
        match__log(s, s->nframes - 1);
        match__clock_begin(s, now);
    } else {
        match__log(s, s->nframes - 1);
    }
    if (e.msg.kind == PROTO_KIND_MOVE) {
        int mover = proto_transcript_side_of(s->t, e.msg.sender);
        s->moves++;
        match__show_ply(s, e.msg.body.move.ply, mover, e.msg.body.move.move,
                        e.msg.body.move.hash);
        match__clock_after_move(s, now, mover, &e.msg);
    }
    if (rc == TB_E_DESYNC && !s->desync) {
        Match_Text t;
        s->desync = 1;
        s->detected = 1;
        s->desync_ply = e.msg.body.move.ply;
        memcpy(s->their_hash, e.msg.body.move.hash, PROTO_HASH_BYTES);
        s->their_hash_known = 1;
        t = match__note(s, 1);
        match__put(&t, "desync at ply ");
        match__put_u(&t, s->desync_ply);
        match__put(&t, ": ");
        match__put(&t, proto_transcript_why(s->t));
    }
    if (e.msg.kind == PROTO_KIND_DESYNC &&
        memcmp(e.msg.sender, s->cfg.id.pk, PROTO_KEY_BYTES) != 0) {
        free(s->their_state);
        s->their_state = malloc(e.msg.body.desync.state_len);
        if (s->their_state != NULL) {
            memcpy(s->their_state, e.msg.body.desync.state,
                   e.msg.body.desync.state_len);
            s->their_state_len = e.msg.body.desync.state_len;
            proto_digest(s->their_state, s->their_state_len, NULL, 0,
                         s->their_hash);
            s->their_hash_known = 1;
        }
        if (!s->desync) {
            s->desync = 1;
            s->desync_ply = e.msg.body.desync.ply;
        }
        s->desync_got = 1;
        if (s->closing)
            send_desync(s, now);
    }
    match__show_conduct(s, now, &e.msg);
    return 0;
}

int match_frame(Match *s, uint64_t now, uint64_t seq, int from,
                const uint8_t *env, size_t len)
{
    Match_Out *o;
    int rc;
    if (s->done)
        return TB_E_STATE;
    if (seq != 0 && (s->refetching || seq > s->seq_rcv + 1) &&
        !(s->cfg.plant & MATCH_PLANT_SKIP)) {
        /* After a gap nothing is taken until the frames before it come:
         * a lost one may be an earlier rival for an envelope's number.
         * This one comes again with them. */
        seq_handled(s, seq);
        return 0;
    }
    if (s->cfg.plant & MATCH_PLANT_ACK) {
        /* planted: the resume point moves before the record is written */
        if (seq == s->last_seq + 1 && (o = match__push(s, MATCH_OUT_SEQ))) {
            s->last_seq = s->seq_rcv = seq;
            o->seq = seq;
            o->count = (uint32_t)s->prefix_saved;
        }
    }
    rc = take_frame(s, now, from, seq, env, len);
    /* the envelopes held for this one */
    for (size_t i = 0; i < s->npending;) {
        uint32_t count = proto_transcript_count(s->t);
        if (s->pending[i].seq < count) {
            pending_drop(s, i);
        } else if (s->pending[i].seq == count) {
            Match_Pending p = s->pending[i];
            s->pending[i] = s->pending[--s->npending];
            take_frame(s, now, MATCH_ROLE_SPECTATOR, p.lobby, p.env, p.len);
            free(p.env);
            i = 0;
        } else {
            i++;
        }
    }
    /* Accepted, duplicate or refused for good: never needed again. */
    seq_handled(s, seq);
    step(s, now);
    return rc;
}

void match_acked(Match *s, uint64_t now, uint64_t seq)
{
    if (s->unacked > 0) {
        size_t i = s->sent[s->sent_head];
        s->sent_head = (s->sent_head + 1) % s->sent_cap;
        s->unacked--;
        if (i != MATCH_SENT_HELLO && i < s->nframes)
            s->frames[i].numbered = 1;
    }
    seq_handled(s, seq); /* our own frame: logged before it was sent */
    step(s, now);
}

/* ---- the connection -------------------------------------------------- */

void match_welcome(Match *s, uint64_t now, const uint8_t host_pk[32],
                   uint64_t first_seq, uint64_t next_seq, int host_present,
                   int guest_present)
{
    Match_Out *o;
    (void)host_present; /* the front end shows presence; absence counts
                           from the lobby's PRESENCE news only */
    (void)guest_present;
    if (s->done)
        return;
    s->connected = 1;
    s->welcomed = 1;
    s->refetching = 0;
    memcpy(s->room_host, host_pk, PROTO_KEY_BYTES);
    s->room_host_known = 1;
    s->unacked = 0;
    if (s->closing)
        s->wait_started = now; /* the re-sent tail must be acked anew */
    /* A room the lobby re-made after a restart (docs/protocol.md,
     * G-SES-1): it keeps nothing yet, or starts after our resume point,
     * or numbers below us, or its oldest frame moved (the lobby trims
     * only past 4096 frames, far more than a match holds). Its numbers
     * decide from now on; what it lacks is re-sent by the players. */
    int refetch = 0;
    int new_room = first_seq == 0 || first_seq > s->last_seq + 1 ||
                   (next_seq > 0 && s->last_seq >= next_seq) ||
                   (s->room_first != 0 && first_seq != s->room_first);
    /* an empty room will keep its first frame as next_seq */
    s->room_first = first_seq != 0 ? first_seq : next_seq;
    if (new_room) {
        for (size_t i = 0; i < s->nframes; i++)
            s->frames[i].numbered = 0;
        s->prefix = 0;
        while (s->npending > 0)
            pending_drop(s, 0);
    }
    if (next_seq > 0 && s->last_seq >= next_seq)
        s->last_seq = next_seq - 1;
    if (first_seq > s->last_seq + 1) {
        s->last_seq = first_seq - 1;
    } else if (first_seq == 0 && next_seq > s->last_seq + 1) {
        s->last_seq = next_seq - 1;
    } else if (new_room && first_seq != 0 && first_seq <= s->last_seq) {
        /* numbers we hold name other frames here: ask from its start */
        s->last_seq = first_seq - 1;
        refetch = 1;
    }
    s->seq_rcv = s->last_seq;
    s->prefix_saved = s->prefix;
    if ((o = match__push(s, MATCH_OUT_SEQ)) != NULL) {
        o->seq = s->last_seq;
        o->count = (uint32_t)s->prefix;
    }
    if (refetch && (o = match__push(s, MATCH_OUT_REFETCH)) != NULL) {
        s->refetching = 1;
        o->seq = s->last_seq;
    }
    if (match__started(s))
        match__clock_begin(s, now);
    if (s->cfg.role != MATCH_ROLE_SPECTATOR) {
        /* What the room lacks: every envelope it has not numbered (sent
         * us, or acked); all of them in a room re-made after a restart
         * or after our own restart, so a late spectator finds the whole
         * match in it. */
        for (size_t i = 0; i < s->nframes; i++)
            if (!s->frames[i].numbered)
                match__relay(s, i);
    }
    if (s->cfg.role == MATCH_ROLE_GUEST && !match__started(s)) {
        Proto_Message m;
        size_t len = 0;
        proto_message_init(&m, PROTO_KIND_HELLO, &s->cfg.id);
        memcpy(m.body.hello.software, "tabula", 7);
        hello_proof(s->cfg.seat_key, s->cfg.id.pk, m.body.hello.nonce);
        if (proto_seal(&m, &s->cfg.id, s->buf, MATCH_FRAME_CAP, &len,
                       NULL) == 0) {
            memcpy(s->hello, s->buf + PROTO_FRAME_PREFIX,
                   len - PROTO_FRAME_PREFIX);
            s->hello_len = len - PROTO_FRAME_PREFIX;
            relay_bytes(s, s->hello, s->hello_len, MATCH_SENT_HELLO);
        }
    }
    step(s, now);
}

void match_disconnected(Match *s, uint64_t now)
{
    s->connected = 0;
    step(s, now);
}

/* ---- time ------------------------------------------------------------ */

void match_tick(Match *s, uint64_t now)
{
    if (s->done)
        return;
    if (!s->closing && match__started(s) && !match__over(s) && !s->desync) {
        match__clock_tick(s, now);
        if (s->think_at != 0 && now >= s->think_at) {
            s->think_at = 0;
            s->ready_for = s->think_for;
        }
    }
    step(s, now);
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
    if (s->think_at != 0)
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
    if (cfg->options != NULL && strlen(cfg->options) > PROTO_OPTIONS_MAX)
        return TB_E_ARG;
    if ((s = calloc(1, sizeof *s)) == NULL)
        return TB_E_NOMEM;
    s->cfg = *cfg;
    s->game = cfg->game;
    if (cfg->options != NULL)
        memcpy(s->options, cfg->options, strlen(cfg->options) + 1);
    s->cfg.options = s->options;
    s->buf = malloc(MATCH_FRAME_CAP);
    s->hello = malloc(MATCH_FRAME_CAP);
    rc = s->buf == NULL || s->hello == NULL ? TB_E_NOMEM
                                            : proto_transcript_new(&s->t, NULL);
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
    for (size_t i = 0; i < s->nframes; i++)
        free(s->frames[i].env);
    free(s->frames);
    free(s->buf);
    free(s->hello);
    free(s->outs);
    free(s->sent);
    while (s->npending > 0)
        pending_drop(s, 0);
    free(s->their_state);
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
    (void)t;
    if (r->rc != 0)
        return;
    r->rc = proto_frame_next(r->log + r->off, r->len - r->off, &env, &env_len,
                             &used);
    if (r->rc != 0)
        return;
    r->off += used;
    r->rc = match__keep(r->s, env, env_len);
    if (r->rc != 0)
        return;
    r->s->frames[r->s->nframes - 1].ours =
        memcmp(e->msg.sender, r->s->cfg.id.pk, PROTO_KEY_BYTES) == 0;
    if (e->msg.kind == PROTO_KIND_MOVE)
        r->s->moves++;
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
    rc = proto_log_verify(log, len, NULL, resume_visit, &r, &t, &rep);
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
    proto_transcript_free(s->t);
    s->t = t;
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
        if ((o = match__push(s, MATCH_OUT_LOG_OPEN)) != NULL)
            o->count = (uint32_t)s->nframes;
    }
    return 0;
}

uint32_t match_moves(const Match *s) { return s->moves; }
