/*
 * receive.c: what reaches a session from the room (match.h): relayed
 * envelopes, acks of our own, welcomes and the connection's end. Frames
 * are taken in lobby order only (after a gap the session asks again);
 * the transcript decides what is valid; a duplicate is dropped by its
 * bytes before any signature check; an envelope that comes before its
 * predecessor is held, the first to arrive per number; of two envelopes
 * for one number the one the room numbered first is kept, and a seat's
 * own that lost is taken back (docs/protocol.md, G-SES-1..4). The resume
 * point (MATCH_OUT_SEQ) never passes a frame that is not yet logged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match_internal.h"

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

void match__pending_drop(Match *s, size_t i)
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
    char game[MATCH_NOTE_ARG_MAX];
    Match_Text t;
    /* the game and its options, as the start names them */
    match__text_init(&t, game, sizeof game);
    match__put(&t, st->body.start.game);
    char chosen[PROTO_OPTIONS_MAX + 1];
    proto_options_chosen(st->body.start.options, chosen);
    if (chosen[0] != '\0') {
        match__put(&t, " ");
        match__put(&t, chosen);
    }
    if (ours) {
        proto_fingerprint(st->body.start.black, fp);
        match__say(s, 0, MATCH_NOTE_START_HOST, game, fp, NULL, NULL);
        return;
    }
    proto_fingerprint(st->body.start.white, fp);
    proto_fingerprint(st->body.start.black, fp2);
    match__say(s, 0,
               match_side(s) == CORE_WHITE   ? MATCH_NOTE_START_WHITE_YOU
               : match_side(s) == CORE_BLACK ? MATCH_NOTE_START_BLACK_YOU
                                             : MATCH_NOTE_START_WATCH,
               game, fp, fp2, NULL);
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
    if (match__witnessed(s) && !proto_options_relay(s->options)) {
        /* the witnessed mode, signed into the start (docs/trust.md) */
        size_t have = strlen(s->options);
        if (have + 1 + strlen(PROTO_OPTION_RELAY) > PROTO_OPTIONS_MAX)
            return TB_E_OPTION;
        snprintf(m.body.start.options + have, PROTO_OPTIONS_MAX + 1 - have,
                 "%s%s", have > 0 ? "," : "", PROTO_OPTION_RELAY);
    }
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

/* 1 when the match start m is the game and options the seek promised
 * (Match_Config.expect_game, expect_options). */
static int promised(const Match *s, const Proto_Message *m)
{
    char got[PROTO_OPTIONS_MAX + 1], want[PROTO_OPTIONS_MAX + 1];
    proto_options_chosen(m->body.start.options, got);
    proto_options_chosen(s->cfg.expect_options != NULL ? s->cfg.expect_options
                                                       : "",
                         want);
    return strcmp(m->body.start.game, core_game_name(s->cfg.expect_game)) ==
               0 &&
           strcmp(got, want) == 0;
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
    int rc = match__rebuild(s, n, &t);
    /* the relay's times of those it numbered, in order */
    if (rc == 0 && match__witnessed(s))
        rc = match__rewitness(s, t, n);
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
                       0) == 0) {
            if (mine.msg.kind == PROTO_KIND_MOVE)
                moves++;
            match__extra(s, &mine, -1);
        }
        free(s->frames[i].env);
        free(s->frames[i].rec);
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
    if (s->log_open && (o = match__push(s, MATCH_OUT_LOG_OPEN)) != NULL) {
        o->count = (uint32_t)n;
        o->seq = proto_transcript_witness_count(s->t);
    }
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
    if (match__started(s) && s->nframes < MATCH_FRAMES_MAX &&
        s->extra[0] < MATCH_EXTRA_MAX && s->extra[1] < MATCH_EXTRA_MAX) {
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
    if (e.msg.kind == PROTO_KIND_MATCH_START && match__witnessed(s) &&
        !proto_options_relay(e.msg.body.start.options)) {
        /* (a host leaving it out could later write its log in a version
         * without receipts, where its claims are its word) */
        refused(s, "a match start", UINT32_MAX,
                "it does not say the relay witnesses the match "
                "(" PROTO_OPTION_RELAY ")");
        return TB_E_SIGNATURE;
    }
    if (e.msg.kind == PROTO_KIND_MATCH_START &&
        s->cfg.expect_game != NULL && !promised(s, &e.msg)) {
        refused(s, "a match start", UINT32_MAX,
                "it is not the game the seek promised");
        return TB_E_SIGNATURE;
    }
    if (s->nframes >= MATCH_FRAMES_MAX) {
        refused(s, "envelope", e.msg.seq,
                "65536 envelopes are the most a match may hold");
        return TB_E_LIMIT;
    }
    if (!retracted && match__extra_kind(e.msg.kind)) {
        int side = proto_transcript_side_of(s->t, e.msg.sender);
        if (side >= 0 && s->extra[side] >= MATCH_EXTRA_MAX) {
            refused(s, proto_kind_name(e.msg.kind), e.msg.seq,
                    "its side has sent 256 envelopes other than moves, "
                    "the most a match allows");
            return TB_E_LIMIT;
        }
    }
    rc = retracted ? added : proto_transcript_add(s->t, env, len, &e);
accepted:
    if (rc != 0 && rc != TB_E_DESYNC) {
        if (e.msg.kind == PROTO_KIND_FLAG && (s->cfg.plant & MATCH_PLANT_CLOCK))
            match__clock_plant(s, &e);
        if ((e.msg.kind == PROTO_KIND_DESYNC ||
             e.msg.kind == PROTO_KIND_ABORT) &&
            (s->cfg.plant & MATCH_PLANT_REFUSED) && !s->forced &&
            e.msg.seq == proto_transcript_count(s->t)) {
            /* planted: a report of the true state, or an abort after
             * both moved, ends the game all the same */
            s->forced = 1;
            s->forced_status.outcome = CORE_ABORTED;
            s->forced_status.reason = e.msg.kind == PROTO_KIND_DESYNC
                                          ? CORE_REASON_DESYNC_ABORT
                                          : CORE_REASON_ABORT;
        }
        refused(s, proto_kind_name(e.msg.kind), e.msg.seq,
                proto_transcript_why(s->t));
        return rc;
    }
    if (match__keep(s, env, len) != 0)
        return TB_E_NOMEM;
    s->frames[s->nframes - 1].numbered = lobby != 0;
    match__extra(s, &e, 1);
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
        /* (a move's or a state check's: their fields differ) */
        int check = e.msg.kind == PROTO_KIND_STATE_CHECK;
        s->desync_ply = check ? e.msg.body.check.ply : e.msg.body.move.ply;
        memcpy(s->their_hash,
               check ? e.msg.body.check.hash : e.msg.body.move.hash,
               PROTO_HASH_BYTES);
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
            match__send_desync(s, now);
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
            match__pending_drop(s, i);
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
    /* The receipts first, logged before the resume point passes them
     * (a crash between must not leave an envelope without its receipt
     * that the relay will not send again). */
    match__witness(s, now);
    /* Accepted, duplicate or refused for good: never needed again. */
    seq_handled(s, seq);
    match__step(s, now);
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
    match__witness(s, now); /* its receipt logged first, as above */
    seq_handled(s, seq); /* our own frame: logged before it was sent */
    match__step(s, now);
}

/* A room the relay re-made (it restarted and lost its frames) numbers
 * and witnesses every frame anew, and a member who joins it later holds
 * only those receipts: so every member drops the receipts it held and
 * takes the re-made room's, and all compute one clock (G-MC-6w: a relay
 * that loses a room gives the players back the time it cannot witness,
 * never takes it). The transcript is rebuilt without its witnesses and
 * the log rewritten. */
static void unwitness(Match *s)
{
    Proto_Transcript *t = NULL;
    if (!match__witnessed(s) || proto_transcript_witness_count(s->t) == 0 ||
        match__rebuild(s, s->nframes, &t) != 0)
        return;
    proto_transcript_free(s->t);
    s->t = t;
    for (size_t i = 0; i < s->nframes; i++) {
        free(s->frames[i].rec);
        s->frames[i].rec = NULL;
        s->frames[i].rec_len = 0;
        s->frames[i].has_receipt = 0;
        s->frames[i].skew_len = 0;
    }
    s->nstash = 0;
    s->voids_seen = s->claims_seen = 0;
    s->wturn_from = 0;
    s->wturn_moves = 0;
    Match_Out *o;
    if (s->log_open && !s->log_ended &&
        (o = match__push(s, MATCH_OUT_LOG_OPEN)) != NULL) {
        o->count = (uint32_t)s->nframes;
        o->seq = 0;
    }
}

/* ---- the connection -------------------------------------------------- */

void match_welcome(Match *s, uint64_t now, const uint8_t host_pk[32],
                   uint64_t first_seq, uint64_t next_seq, int host_present,
                   int guest_present)
{
    Match_Out *o;
    /* (the front end shows presence; absence counts from the lobby's
     * PRESENCE news only; here only who this room has seated) */
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
    /* (a seat resumed from its log knows no oldest frame of the room, but
     * the receipt of its first envelope names the number the room gave
     * it: a room that no longer keeps it was re-made) */
    if (match__witnessed(s) && s->nframes > 0 && s->frames[0].has_receipt &&
        first_seq > s->frames[0].receipt.seq)
        new_room = 1;
    /* an empty room will keep its first frame as next_seq */
    s->room_first = first_seq != 0 ? first_seq : next_seq;
    if (new_room)
        s->room_seated[0] = s->room_seated[1] = 0;
    s->room_seated[0] |= host_present != 0;
    s->room_seated[1] |= guest_present != 0;
    if (new_room) {
        for (size_t i = 0; i < s->nframes; i++)
            s->frames[i].numbered = 0;
        s->prefix = 0;
        while (s->npending > 0)
            match__pending_drop(s, 0);
        unwitness(s);
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
                match__relay(s, now, i);
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
            match__relay_bytes(s, now, s->hello, s->hello_len,
                               MATCH_SENT_HELLO);
        }
    }
    match__step(s, now);
}

void match_disconnected(Match *s, uint64_t now)
{
    s->connected = 0;
    match__step(s, now);
}


/* ---- the relay as witness (the fair-play issue) ---------------------- */

int match__witnessed(const Match *s)
{
    return proto_transcript_witnessed(s->t);
}

void match_relay(Match *s, uint64_t now, const uint8_t relay_pk[32],
                 uint64_t relay_time)
{
    if (relay_pk == NULL)
        return;
    memcpy(s->relay_pk, relay_pk, PROTO_KEY_BYTES);
    s->relay_known = 1;
    s->relay_off = (int64_t)relay_time - (int64_t)now;
}

int match__own_unwitnessed(const Match *s)
{
    if (!match__witnessed(s))
        return 0;
    for (size_t i = proto_transcript_witness_count(s->t); i < s->nframes; i++)
        if (s->frames[i].ours)
            return 1;
    return 0;
}

void match_room_guest(Match *s, const uint8_t guest_pk[32])
{
    memcpy(s->room_guest, guest_pk, PROTO_KEY_BYTES);
}

/* 0 when r is the relay's receipt of a frame with hash and number seq in
 * our room, signed for the room's guest or (a frame numbered before a
 * guest was seated) for none: r->guest gets the one it is for. */
static int receipt_ok(const Match *s, Proto_Receipt *r, uint64_t seq,
                      const uint8_t hash[PROTO_HASH_BYTES],
                      const uint8_t *also)
{
    static const uint8_t none[PROTO_KEY_BYTES];
    const Proto_Message *st = proto_transcript_start(s->t);
    /* the room's guest as the relay last named it, none, and the key
     * the guest seat must hold: the match's black, or (before the start)
     * also, the guest named by the frame itself (a spectator whose news
     * of the guest came after its frames, a trial under load) */
    const uint8_t *keys[3] = {s->room_guest, none,
                              st != NULL ? st->body.start.black : also};
    if (r->kind != PROTO_RECEIPT_FRAME || r->seq != seq || !s->room_host_known)
        return TB_E_SIGNATURE;
    if (s->relay_known && memcmp(r->relay, s->relay_pk, PROTO_KEY_BYTES) != 0)
        return TB_E_SIGNATURE;
    for (int k = 0; k < 3; k++) {
        if (keys[k] == NULL)
            continue;
        memcpy(r->guest, keys[k], PROTO_KEY_BYTES);
        if (proto_receipt_verify(r, s->room_host, hash) == 0)
            return 0;
    }
    return TB_E_SIGNATURE;
}

/* The guest key a frame env (len bytes) names before the match start:
 * a start's black, a guest's envelope's sender; NULL for others. */
static const uint8_t *frame_guest(const uint8_t *env, size_t len, int from,
                                  Proto_Envelope *e)
{
    if (proto_open(env, len, e, NULL, 0) != 0)
        return NULL;
    if (e->msg.kind == PROTO_KIND_MATCH_START)
        return e->msg.body.start.black;
    return from == MATCH_ROLE_GUEST ? e->msg.sender : NULL;
}

static void bad_receipt(Match *s, uint64_t seq)
{
    Match_Text t = match__note(s, 1);
    match__put(&t, "relay: the receipt of frame ");
    match__put_u(&t, seq);
    match__put(&t, " is not the relay's signature of it: frame refused");
    s->result.refused++;
}

/* The seat's cross-check of the relay's time (docs/trust.md, "The
 * seats' evidence"): frame i's receipt, here at now, cannot be later
 * than now nor, for a frame of ours, earlier than our first sending of
 * it, both read on the relay's clock as the last WELCOME set it; beyond
 * MATCH_RELAY_SKEW_MS either way the seat says so and keeps an evidence
 * record for its log. The receipt counts all the same: every reader
 * must compute one clock. */
static void skew_check(Match *s, uint64_t now, size_t i)
{
    Match_Frame *f = &s->frames[i];
    if (!s->relay_known || !f->has_receipt)
        return;
    int64_t t = (int64_t)f->receipt.time_ms;
    int64_t hi = (int64_t)now + s->relay_off + MATCH_RELAY_SKEW_MS;
    int64_t lo = (int64_t)f->sent_at + s->relay_off - MATCH_RELAY_SKEW_MS;
    int64_t by = t > hi ? t - hi : f->ours && f->sent_at > 0 && t < lo
                                       ? t - lo
                                       : 0;
    if (by == 0)
        return;
    uint32_t mag = (uint32_t)(by > 0 ? (by < UINT32_MAX ? by : UINT32_MAX)
                                     : (-by < UINT32_MAX ? -by : UINT32_MAX));
    f->skew_len = proto_log_skew_record((uint32_t)i, by > 0 ? mag : 0,
                                        by < 0 ? mag : 0, f->skew_rec,
                                        sizeof f->skew_rec);
    /* told when it is new, turned, or grew by the tolerance again */
    int64_t was = s->skew_said < 0 ? -s->skew_said : s->skew_said;
    if (was == 0 || (by > 0) != (s->skew_said > 0) ||
        (int64_t)mag >= was + MATCH_RELAY_SKEW_MS) {
        char n[21], secs[24];
        s->skew_said = by;
        match__say(s, 0, by > 0 ? MATCH_NOTE_RELAY_AHEAD
                                : MATCH_NOTE_RELAY_BEHIND,
                   match__u(n, (uint64_t)i + 1), match__ms(secs, mag), NULL,
                   NULL);
    }
}

/* Attach a checked receipt to the frame it names, if held: the first
 * numbering stands (a frame a seat sends again after a reconnect may be
 * numbered twice in one room; a room the relay re-made is unwitness()'s),
 * so a lower number replaces a higher one until the frame is witnessed
 * (a spectator whose catch-up skipped a frame had the second numbering's
 * receipt waiting when the first came, took it, and ran another clock
 * than the players'). Here at now (ms). */
static void set_receipt(Match *s, uint64_t now, size_t i,
                        const Proto_Receipt *r)
{
    Match_Frame *f = &s->frames[i];
    const Proto_Message *st = proto_transcript_start(s->t);
    if (st != NULL &&
        memcmp(r->guest, st->body.start.black, PROTO_KEY_BYTES) != 0) {
        /* a room where another key sat as the guest (or none yet): its
         * receipts witness nothing of this match (every log would fail) */
        Match_Text t = match__note(s, 1);
        match__put(&t, "relay: the receipt of envelope ");
        match__put_u(&t, (uint64_t)i + 1);
        match__put(&t, " is for a room whose guest is not this match's "
                       "black: not kept");
        return;
    }
    if (f->has_receipt) {
        if (r->seq >= f->receipt.seq ||
            i < proto_transcript_witness_count(s->t))
            return;
        free(f->rec);
        f->rec = NULL;
        f->has_receipt = 0;
        f->skew_len = 0;
    }
    f->receipt = *r;
    f->rec = match__record((uint32_t)i, r, &f->rec_len);
    f->has_receipt = f->rec != NULL;
    skew_check(s, now, i);
}

static int attach(Match *s, uint64_t now, const uint8_t hash[PROTO_HASH_BYTES],
                  const Proto_Receipt *r)
{
    for (size_t i = s->nframes; i-- > proto_transcript_witness_count(s->t);) {
        if (memcmp(s->frames[i].hash, hash, PROTO_HASH_BYTES) == 0) {
            set_receipt(s, now, i, r);
            return 1;
        }
    }
    return 0;
}

int match_frame_witnessed(Match *s, uint64_t now, uint64_t seq, int from,
                          const uint8_t *env, size_t len,
                          const Proto_Receipt *r)
{
    uint8_t hash[PROTO_HASH_BYTES];
    Proto_Receipt rc;
    if (r == NULL || !match__witnessed(s) || s->done)
        return match_frame(s, now, seq, from, env, len);
    rc = *r;
    Proto_Envelope e;
    const uint8_t *named = proto_transcript_start(s->t) == NULL
                               ? frame_guest(env, len, from, &e)
                               : NULL;
    if (proto_receipt_hash(env, len, hash) != 0 ||
        receipt_ok(s, &rc, seq, hash, named) != 0) {
        bad_receipt(s, seq);
        return TB_E_SIGNATURE;
    }
    if (s->nstash == MATCH_PENDING_MAX) /* the oldest waits no longer */
        memmove(s->stash, s->stash + 1, --s->nstash * sizeof s->stash[0]);
    memcpy(s->stash[s->nstash].hash, hash, PROTO_HASH_BYTES);
    s->stash[s->nstash++].receipt = rc;
    return match_frame(s, now, seq, from, env, len);
}

void match_acked_witnessed(Match *s, uint64_t now, uint64_t seq,
                           const Proto_Receipt *r)
{
    /* (after a gap the receipt waits: the frames numbered before ours
     * come first, and ours again with its receipt on the catch-up) */
    if (r != NULL && match__witnessed(s) && s->unacked > 0 &&
        !s->refetching && seq <= s->seq_rcv + 1) {
        size_t i = s->sent[s->sent_head];
        Proto_Receipt rc = *r;
        if (i != MATCH_SENT_HELLO && i < s->nframes) {
            if (receipt_ok(s, &rc, seq, s->frames[i].hash, NULL) != 0)
                bad_receipt(s, seq);
            else
                attach(s, now, s->frames[i].hash, &rc);
        }
    }
    match_acked(s, now, seq);
}

void match_presence_witnessed(Match *s, uint64_t now, int seat, int present,
                              const Proto_Receipt *r)
{
    /* (not kept: what decides an absence claim is its own receipt's
     * attestation, which every reader holds alike, G-MC-9w; this one
     * only says when the countdown began by the relay's clock) */
    if (r != NULL && match__witnessed(s) && !s->done && match__started(s)) {
        if (r->kind != PROTO_RECEIPT_PRESENCE || r->seat != seat ||
            r->present != present || !s->room_host_known ||
            (s->relay_known &&
             memcmp(r->relay, s->relay_pk, PROTO_KEY_BYTES) != 0) ||
            proto_receipt_verify(r, s->room_host, NULL) != 0) {
            Match_Text t = match__note(s, 1);
            match__put(&t, "relay: a presence record that is not the "
                           "relay's signature of it: ignored");
            return;
        }
    }
    int was = s->absent;
    match_presence(s, now, seat, present);
    if (r != NULL && match__witnessed(s) && s->absent && !was &&
        s->relay_known) {
        /* the countdown runs from when the relay saw it go, by our
         * reading of its clock (the claim's receipt measures the same) */
        int64_t at = (int64_t)r->time_ms - s->relay_off;
        s->absent_at = at > 0 && (uint64_t)at < now ? (uint64_t)at : now;
    }
}

void match__witness(Match *s, uint64_t now)
{
    if (!match__witnessed(s))
        return;
    /* receipts that came before their frames */
    for (size_t k = 0; k < s->nstash;) {
        if (attach(s, now, s->stash[k].hash, &s->stash[k].receipt))
            s->stash[k] = s->stash[--s->nstash];
        else
            k++;
    }
    for (;;) {
        uint32_t w = proto_transcript_witness_count(s->t);
        if (w >= s->nframes || !s->frames[w].has_receipt)
            break;
        if (proto_transcript_witness(s->t, w, s->frames[w].receipt.time_ms,
                                     s->frames[w].receipt.absent_ms) != 0) {
            Match_Text t = match__note(s, 1);
            match__put(&t, "relay: ");
            match__put(&t, proto_transcript_why(s->t));
            break;
        }
        Match_Out *o;
        if (s->log_open && !s->log_ended && s->frames[w].rec_len > 0 &&
            (o = match__push(s, MATCH_OUT_LOG)) != NULL) {
            o->data = s->frames[w].rec;
            o->len = s->frames[w].rec_len;
        }
        if (s->log_open && !s->log_ended && s->frames[w].skew_len > 0 &&
            (o = match__push(s, MATCH_OUT_LOG)) != NULL) {
            o->data = s->frames[w].skew_rec;
            o->len = s->frames[w].skew_len;
        }
        match__clock_witnessed(s, now, w);
    }
}
