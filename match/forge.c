/*
 * forge.c: the cheating client of the tests (match.h, match_forge and
 * Match_Config.forge): the fair-play issue's exploits, each signed with
 * the seat's own key as its next envelope and sent through the session's
 * own output, so the relay numbers and witnesses it like any frame and
 * the honest seats, their spectators and `tabula replay` meet it as they
 * would a modified client's. Nothing here bends a check: what the
 * transcript refuses of our own goes out bare, outside our chain.
 * Simtest's adversary calls match_forge; the switch calls it at each step
 * until its forgery went out (docs/usage.md, TABULA_TEST_CHEAT).
 */
#include <stdlib.h>
#include <string.h>

#include "match_internal.h"

/* Say on the seat's own warnings what went out (English: a test line). */
static void said(Match *s, const char *what, int bare)
{
    Match_Text t = match__note(s, 1);
    match__put(&t, "test: forged ");
    match__put(&t, what);
    if (bare)
        match__put(&t, " (refused by our own transcript: sent outside "
                       "our chain)");
}

/* Send m as our next envelope: through the transcript when it takes it
 * (kept, logged, relayed), else sealed bare and relayed as a modified
 * client would, once a session (its bytes stay until match_free, as
 * MATCH_OUT_SEND promises). */
static int send_forged(Match *s, uint64_t now, Proto_Message *m,
                       const char *what)
{
    size_t len = 0;
    int rc = match__send_msg(s, now, m);
    if (rc == 0) {
        said(s, what, 0);
        match__show_conduct(s, now, m);
        return 0;
    }
    if (rc == TB_E_LIMIT || s->bare != NULL || !s->connected)
        return rc;
    proto_transcript_next(s->t, m);
    rc = proto_seal(m, &s->cfg.id, s->buf, MATCH_FRAME_CAP, &len, NULL);
    if (rc != 0)
        return rc;
    s->bare_len = len - PROTO_FRAME_PREFIX;
    if ((s->bare = malloc(s->bare_len)) == NULL)
        return TB_E_NOMEM;
    memcpy(s->bare, s->buf + PROTO_FRAME_PREFIX, s->bare_len);
    /* (numbered like the hello: its ack marks no frame of ours) */
    match__relay_bytes(s, now, s->bare, s->bare_len, MATCH_SENT_HELLO);
    said(s, what, 1);
    return 0;
}

/* The first legal move of pos in canonical order; TB_E_STATE: none. */
static int first_move(const Core_Position *pos, Core_Move *mv)
{
    size_t cap = core_game_max_moves(core_position_game(pos)), n = 0;
    Core_Move *buf = malloc(cap * sizeof *buf);
    int rc = buf == NULL ? TB_E_NOMEM : core_moves(pos, buf, cap, &n);
    if (rc == 0 && n == 0)
        rc = TB_E_STATE;
    if (rc == 0)
        *mv = buf[0];
    free(buf);
    return rc;
}

/* Our move, the readings saying the opponent has 1 ms left. */
static int forge_move(Match *s, uint64_t now, const Core_Position *pos)
{
    Core_Move mv;
    Proto_Message m;
    int rc = first_move(pos, &mv);
    if (rc == 0)
        rc = match__move_msg(s, now, &mv, &m);
    if (rc != 0)
        return rc;
    if (!m.body.move.has_clock)
        return TB_E_STATE;
    m.body.move.opp_ms = 1;
    rc = match__send_move(s, now, &m);
    if (rc == 0)
        said(s, "a move whose reading gives the opponent 1 ms", 0);
    return rc;
}

/* A desync report at the ply the match is at: of its true state, or of
 * the state after the side to move's first legal move (a valid encoding
 * the moves do not give). */
static int forge_desync(Match *s, uint64_t now, const Core_Position *pos,
                        int truth)
{
    Core_Position *st = core_position_clone(pos);
    size_t cap = core_game_encode_max(core_position_game(pos)), len = 0;
    uint8_t *enc = malloc(cap);
    Core_Move mv;
    Proto_Message m;
    int rc = st == NULL || enc == NULL ? TB_E_NOMEM : 0;
    if (rc == 0 && !truth && (rc = first_move(st, &mv)) == 0)
        rc = core_play(st, &mv);
    if (rc == 0)
        rc = core_encode(st, enc, cap, &len);
    if (rc == 0) {
        proto_message_init(&m, PROTO_KIND_DESYNC, &s->cfg.id);
        m.body.desync.ply = core_ply(pos);
        m.body.desync.state = enc;
        m.body.desync.state_len = len;
        rc = send_forged(s, now, &m,
                         truth ? "a desync report of the true state"
                               : "a desync report of a false state");
    }
    core_position_free(st);
    free(enc);
    return rc;
}

int match_forge(Match *s, uint64_t now, Match_Forge kind)
{
    int me = match_side(s);
    const Core_Position *pos = proto_transcript_position(s->t);
    Proto_Message m;
    if (me < 0 || pos == NULL || !match__started(s) || match__over(s) ||
        match__own_unwitnessed(s))
        return TB_E_STATE;
    int mine = core_side_to_move(pos) == me;
    int moved = proto_transcript_moved(s->t, 1 - me);
    switch (kind) {
    case MATCH_FORGE_FLAG:
        if (!s->clock_on)
            return TB_E_STATE;
        if (mine)
            return forge_move(s, now, pos);
        proto_message_init(&m, PROTO_KIND_FLAG, &s->cfg.id);
        m.body.flag.ply = core_ply(pos);
        m.body.flag.elapsed = 1;
        return send_forged(s, now, &m, "a flag claim 1 ms into the turn");
    case MATCH_FORGE_DESYNC_TRUE:
    case MATCH_FORGE_DESYNC_FALSE:
        if (!moved || !proto_transcript_moved(s->t, me))
            return TB_E_STATE;
        return forge_desync(s, now, pos, kind == MATCH_FORGE_DESYNC_TRUE);
    case MATCH_FORGE_ABORT:
        if (!moved || !proto_transcript_moved(s->t, me))
            return TB_E_STATE;
        proto_message_init(&m, PROTO_KIND_ABORT, &s->cfg.id);
        return send_forged(s, now, &m, "an abort after both moved");
    case MATCH_FORGE_CLAIM:
        if (!moved)
            return TB_E_STATE;
        proto_message_init(&m, PROTO_KIND_CLAIM, &s->cfg.id);
        m.body.claim.what = PROTO_CLAIM_WIN;
        return send_forged(s, now, &m, "a claim of the win by absence");
    case MATCH_FORGE_NONE:
        break;
    }
    return TB_E_STATE;
}

int match__forge_due(Match *s, uint64_t now, int my_turn)
{
    Match_Forge kind = s->cfg.forge;
    /* (the flag's exploit is two envelopes: the lying move, then the
     * claim on the opponent's turn) */
    uint32_t want = kind == MATCH_FORGE_FLAG ? 2 : 1;
    if (kind == MATCH_FORGE_NONE || s->forged >= want ||
        (kind == MATCH_FORGE_FLAG && (s->forged == 0) != my_turn) ||
        match_forge(s, now, kind) != 0)
        return 0;
    s->forged++;
    return 1;
}
