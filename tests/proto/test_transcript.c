/*
 * test_transcript.c: the hash chain and the match rules around it, with
 * the toy game of toy_game.h (and Laska for real moves): whole matches
 * accepted; reordered, dropped, duplicated and replayed envelopes refused;
 * messages by a third key refused; moves out of turn, illegal, in a
 * non-canonical notation or at the wrong ply refused; a wrong state hash
 * recorded as a desync; offers, takebacks, resignation, abort and bye.
 */
#include <criterion/criterion.h>
#include <sodium.h>

#include "match_util.h"
#include "toy_game.h"

static Proto_Identity W, B, C;

static void setup(void)
{
    W = ident(1);
    B = ident(2);
    C = ident(3);
}

TestSuite(transcript, .init = setup);

/* A new transcript with the toy game and its match start accepted. */
static Proto_Transcript *started(Frames *f, const char *options)
{
    Proto_Transcript *t = NULL;
    Proto_Message m;
    size_t len;
    cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
    start_msg(&m, &W, &B, "race", options, 9);
    uint8_t *buf = seal_next(t, &W, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
    keep(f, buf, len);
    return t;
}

/* Seal the next message of kind (no body) by id and add it. */
static int send_kind(Proto_Transcript *t, const Proto_Identity *id,
                     Proto_Kind kind, Frames *f)
{
    Proto_Message m;
    size_t len;
    proto_message_init(&m, kind, id);
    if (kind == PROTO_KIND_TAKEBACK_REQUEST ||
        kind == PROTO_KIND_TAKEBACK_ACCEPT)
        m.body.takeback.plies = 1;
    uint8_t *buf = seal_next(t, id, &m, &len);
    int rc = add_frame(t, buf, len);
    keep(f, buf, len);
    return rc;
}

/* Seal m as the next message by id, add it, drop the frame. */
static int send_msg(Proto_Transcript *t, const Proto_Identity *id,
                    Proto_Message *m)
{
    size_t len;
    uint8_t *buf = seal_next(t, id, m, &len);
    int rc = add_frame(t, buf, len);
    free(buf);
    return rc;
}

/* Seal and add the pick-th legal move by whoever is to move. */
static int send_move(Proto_Transcript *t, unsigned pick, Frames *f)
{
    Proto_Message m;
    size_t len;
    const Proto_Identity *id = to_move(t, &W, &B);
    move_msg(t, id, pick, &m);
    uint8_t *buf = seal_next(t, id, &m, &len);
    int rc = add_frame(t, buf, len);
    keep(f, buf, len);
    return rc;
}

Test(transcript, whole_match_is_accepted_and_chained)
{
    Proto_Transcript *t = NULL, *again = NULL;
    Frames f = {0};
    uint8_t prev[PROTO_HASH_BYTES] = {0}, chain[PROTO_HASH_BYTES];

    cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
    play_match(t, &f, &W, &B, "race", "", 1, 200);
    cr_assert_neq(proto_transcript_status(t).outcome, CORE_ONGOING);
    cr_assert_eq(proto_transcript_count(t), f.n);
    /* Independently: each payload's prev is the BLAKE2b of the payload
     * before (read straight from the bytes), and the chain hash is the
     * last payload's hash. */
    cr_assert_eq(proto_transcript_new(&again, toy_lookup), 0);
    for (size_t i = 0; i < f.n; i++) {
        Proto_Envelope e;
        const uint8_t *env = f.buf[i] + 4;
        size_t plen = env[1] == 0xc4 ? env[2] : (size_t)env[2] << 8 | env[3];
        size_t hl = env[1] == 0xc4 ? 2 : 3;
        cr_assert_eq(proto_transcript_add(again, env, f.len[i] - 4, &e), 0);
        cr_assert_eq(e.msg.seq, i);
        cr_assert_arr_eq(e.msg.prev, prev, sizeof prev);
        crypto_generichash(prev, sizeof prev, env + 1 + hl, plen, NULL, 0);
        proto_transcript_chain(again, chain);
        cr_assert_arr_eq(chain, prev, sizeof prev);
    }
    /* Both sides' positions agree. */
    uint8_t h1[PROTO_HASH_BYTES], h2[PROTO_HASH_BYTES];
    proto_state_hash(proto_transcript_position(t), h1);
    proto_state_hash(proto_transcript_position(again), h2);
    cr_assert_arr_eq(h1, h2, sizeof h1);
    proto_transcript_free(again);
    proto_transcript_free(t);
    frames_free(&f);
}

/* Feed frames in the order idx[0..n) to a fresh transcript; returns the
 * result of the first failing add (0 if none). */
static int feed(const Frames *f, const size_t *idx, size_t n, size_t *failed_at,
                char *why, size_t why_cap)
{
    Proto_Transcript *t = NULL;
    int rc = 0;
    cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = add_frame(t, f->buf[idx[i]], f->len[idx[i]]);
        if (rc != 0) {
            *failed_at = i;
            snprintf(why, why_cap, "%s", proto_transcript_why(t));
        }
    }
    proto_transcript_free(t);
    return rc;
}

Test(transcript, reordered_dropped_duplicated_replayed_are_rejected)
{
    Proto_Transcript *t = NULL, *other = NULL;
    Frames f = {0}, g = {0};
    size_t idx[FRAMES_MAX], at = 0;
    char why[200];

    cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
    play_match(t, &f, &W, &B, "race", "", 2, 8);
    cr_assert_geq(f.n, 8);
    for (size_t i = 0; i < f.n; i++)
        idx[i] = i;
    cr_assert_eq(feed(&f, idx, f.n, &at, why, sizeof why), 0);

    /* reorder: swap 4 and 5 */
    idx[4] = 5, idx[5] = 4;
    cr_assert_eq(feed(&f, idx, f.n, &at, why, sizeof why), TB_E_CHAIN);
    cr_assert_eq(at, 4);
    cr_assert(strstr(why, "gap") != NULL, "%s", why);
    /* drop 4 */
    for (size_t i = 0; i < f.n; i++)
        idx[i] = i < 4 ? i : i + 1;
    cr_assert_eq(feed(&f, idx, f.n - 1, &at, why, sizeof why), TB_E_CHAIN);
    cr_assert_eq(at, 4);
    /* duplicate 4 */
    for (size_t i = 0; i < f.n; i++)
        idx[i] = i <= 4 ? i : i - 1;
    cr_assert_eq(feed(&f, idx, f.n, &at, why, sizeof why), TB_E_CHAIN);
    cr_assert_eq(at, 5);
    cr_assert(strstr(why, "duplicate") != NULL, "%s", why);
    /* drop the match start */
    for (size_t i = 0; i < f.n; i++)
        idx[i] = i + 1;
    cr_assert_neq(feed(&f, idx, f.n - 1, &at, why, sizeof why), 0);
    cr_assert_eq(at, 0);

    /* replay: an envelope of another match (same players, another match
     * id) at the right seq is refused, even with the right prev. */
    cr_assert_eq(proto_transcript_new(&other, toy_lookup), 0);
    play_match(other, &g, &W, &B, "race", "", 3, 8);
    Proto_Transcript *u = NULL;
    cr_assert_eq(proto_transcript_new(&u, toy_lookup), 0);
    for (size_t i = 0; i < 4; i++)
        cr_assert_eq(add_frame(u, f.buf[i], f.len[i]), 0);
    cr_assert_eq(add_frame(u, g.buf[4], g.len[4]), TB_E_CHAIN);
    /* and a message forged to the right prev and seq but another match id */
    Proto_Message m;
    size_t len;
    proto_message_init(&m, PROTO_KIND_CHAT, &B);
    uint8_t *buf = seal_next(u, &B, &m, &len);
    cr_assert_eq(add_frame(u, buf, len), 0); /* sanity: accepted as is */
    proto_message_init(&m, PROTO_KIND_CHAT, &W);
    proto_transcript_next(u, &m);
    m.match_id[0] ^= 1;
    uint8_t frame[FRAME_CAP];
    cr_assert_eq(proto_seal(&m, &W, frame, sizeof frame, &len, NULL), 0);
    cr_assert_eq(add_frame(u, frame, len), TB_E_CHAIN);
    cr_assert(strstr(proto_transcript_why(u), "another match") != NULL);
    /* wrong prev */
    proto_transcript_next(u, &m);
    m.prev[31] ^= 1;
    cr_assert_eq(proto_seal(&m, &W, frame, sizeof frame, &len, NULL), 0);
    cr_assert_eq(add_frame(u, frame, len), TB_E_CHAIN);
    free(buf);
    proto_transcript_free(u);
    proto_transcript_free(other);
    proto_transcript_free(t);
    frames_free(&f);
    frames_free(&g);
}

Test(transcript, third_key_is_rejected)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    Proto_Message m;
    size_t len;
    uint8_t *buf;

    /* C signs its own message: a valid signature by a non-player. */
    proto_message_init(&m, PROTO_KIND_CHAT, &C);
    cr_assert_eq(send_msg(t, &C, &m), TB_E_SIGNATURE);
    /* C signs a move claiming to be White: the signature fails. */
    move_msg(t, &W, 0, &m);
    proto_transcript_next(t, &m);
    uint8_t frame[FRAME_CAP];
    cr_assert_eq(proto_seal(&m, &W, frame, sizeof frame, &len, NULL), 0);
    uint8_t *env = frame + 4;
    size_t plen = env[2];
    cr_assert_eq(env[1], 0xc4);
    crypto_sign_detached(frame + len - 64, NULL, env + 3, plen, C.sk);
    cr_assert_eq(add_frame(t, frame, len), TB_E_SIGNATURE);
    /* C starts a match between W and B: refused. */
    Proto_Transcript *u = NULL;
    cr_assert_eq(proto_transcript_new(&u, toy_lookup), 0);
    start_msg(&m, &W, &B, "race", "", 1);
    buf = seal_next(u, &C, &m, &len);
    cr_assert_eq(add_frame(u, buf, len), TB_E_SIGNATURE);
    cr_assert_eq(proto_transcript_count(u), 0);
    free(buf);
    proto_transcript_free(u);
    /* The real move still goes through. */
    cr_assert_eq(send_move(t, 0, &f), 0);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, moves_are_checked_by_the_rules)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    Proto_Message m;
    size_t len;
    uint8_t *buf;

    /* Black moves first: out of turn. */
    move_msg(t, &B, 0, &m);
    cr_assert_eq(send_msg(t, &B, &m), TB_E_STATE);
    /* Illegal: +4. */
    move_msg(t, &W, 0, &m);
    snprintf(m.body.move.move, sizeof m.body.move.move, "+4");
    cr_assert_eq(send_msg(t, &W, &m), TB_E_ILLEGAL);
    /* Malformed notation. */
    snprintf(m.body.move.move, sizeof m.body.move.move, "x");
    cr_assert_eq(send_msg(t, &W, &m), TB_E_NOTATION);
    /* Legal but not canonical: "1" for "+1". */
    move_msg(t, &W, 0, &m);
    cr_assert_str_eq(m.body.move.move, "+1");
    snprintf(m.body.move.move, sizeof m.body.move.move, "1");
    buf = seal_next(t, &W, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), TB_E_NOTATION);
    cr_assert(strstr(proto_transcript_why(t), "canonical") != NULL);
    free(buf);
    /* Wrong ply number. */
    move_msg(t, &W, 0, &m);
    m.body.move.ply = 2;
    cr_assert_eq(send_msg(t, &W, &m), TB_E_STATE);
    cr_assert_eq(proto_transcript_count(t), 1);
    cr_assert_eq(core_ply(proto_transcript_position(t)), 0);
    /* A wrong state hash: appended, and the match ends against the side
     * that signed it, White (G-PR-3). */
    move_msg(t, &W, 1, &m);
    m.body.move.hash[0] ^= 0x80;
    cr_assert_eq(send_msg(t, &W, &m), TB_E_DESYNC);
    cr_assert_eq(proto_transcript_count(t), 2);
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_WIN_BLACK);
    cr_assert_eq(st.reason, CORE_REASON_DESYNC_FORFEIT);
    /* After it: no moves, but a desync report and chat. */
    cr_assert_eq(send_move(t, 0, &f), TB_E_OVER);
    Core_Position *mine = core_position_clone(proto_transcript_position(t));
    uint8_t state[64];
    size_t slen;
    cr_assert_eq(core_encode(mine, state, sizeof state, &slen), 0);
    proto_message_init(&m, PROTO_KIND_DESYNC, &B);
    m.body.desync.ply = 2;
    m.body.desync.state = state;
    m.body.desync.state_len = slen;
    cr_assert_eq(send_msg(t, &B, &m), 0, "%s", proto_transcript_why(t));
    /* a garbage state in a desync report is refused */
    state[1] = 0;
    proto_message_init(&m, PROTO_KIND_DESYNC, &W);
    m.body.desync.state = state;
    m.body.desync.state_len = slen;
    cr_assert_eq(send_msg(t, &W, &m), TB_E_FORMAT);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_CHAT, &f), 0);
    core_position_free(mine);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, game_end_by_the_board)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "target=5");
    /* +3 +1 +1: White reaches 5 on ply 3. */
    cr_assert_eq(send_move(t, 2, &f), 0);
    cr_assert_eq(send_move(t, 0, &f), 0);
    cr_assert_eq(send_move(t, 0, &f), 0);
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_WIN_WHITE);
    cr_assert_eq(st.reason, CORE_REASON_GOAL);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_RESIGN, &f), TB_E_OVER);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_DRAW_OFFER, &f), TB_E_OVER);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_BYE, &f), 0);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_CHAT, &f), TB_E_STATE);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_BYE, &f), 0);
    cr_assert_eq(proto_transcript_moves(t), 3);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, draw_offers)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_DRAW_ACCEPT, &f), TB_E_STATE);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_DRAW_OFFER, &f), 0);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_DRAW_ACCEPT, &f), TB_E_STATE);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_DRAW_OFFER, &f), TB_E_STATE);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_DRAW_DECLINE, &f), 0);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_DRAW_ACCEPT, &f), TB_E_STATE);
    /* An offer lapses when its receiver moves. */
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_DRAW_OFFER, &f), 0);
    cr_assert_eq(send_move(t, 0, &f), 0); /* White moves */
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_DRAW_ACCEPT, &f), TB_E_STATE);
    /* An offer stands through its maker's own move. */
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_DRAW_OFFER, &f), 0);
    cr_assert_eq(send_move(t, 0, &f), 0); /* Black moves */
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_DRAW_ACCEPT, &f), 0);
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_AGREEMENT);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, draw_offers_are_limited_per_side_and_readable)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    uint32_t plies = 99;
    cr_assert_eq(proto_transcript_draw_offer(t), -1);
    cr_assert_eq(proto_transcript_takeback(t, &plies), -1);
    cr_assert_eq(plies, 0);
    /* G-MC-2: three offers per side, each declined; the fourth refused. */
    for (int i = 0; i < PROTO_DRAW_OFFERS_MAX; i++) {
        cr_assert_eq(send_kind(t, &W, PROTO_KIND_DRAW_OFFER, &f), 0);
        cr_assert_eq(proto_transcript_draw_offer(t), CORE_WHITE);
        cr_assert_eq(send_kind(t, &B, PROTO_KIND_DRAW_DECLINE, &f), 0);
        cr_assert_eq(proto_transcript_draw_offer(t), -1);
    }
    cr_assert_eq(proto_transcript_draw_offers(t, CORE_WHITE), 3);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_DRAW_OFFER, &f), TB_E_LIMIT);
    cr_assert_eq(proto_transcript_draw_offer(t), -1);
    /* The other side still may. */
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_DRAW_OFFER, &f), 0);
    cr_assert_eq(proto_transcript_draw_offers(t, CORE_BLACK), 1);
    cr_assert_eq(proto_transcript_moved(t, CORE_WHITE), 0);
    cr_assert_eq(send_move(t, 0, &f), 0);
    cr_assert_eq(proto_transcript_moved(t, CORE_WHITE), 1);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_TAKEBACK_REQUEST, &f), 0);
    cr_assert_eq(proto_transcript_takeback(t, &plies), CORE_WHITE);
    cr_assert_eq(plies, 1);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, resign_and_abort)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    cr_assert_eq(send_move(t, 0, &f), 0);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_ABORT, &f), 0); /* one side */
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_ABORTED);
    cr_assert_eq(st.reason, CORE_REASON_ABORT);
    proto_transcript_free(t);
    frames_free(&f);

    t = started(&f, "");
    cr_assert_eq(send_move(t, 0, &f), 0);
    cr_assert_eq(send_move(t, 0, &f), 0);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_ABORT, &f), TB_E_STATE);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_RESIGN, &f), 0);
    st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_WIN_WHITE);
    cr_assert_eq(st.reason, CORE_REASON_RESIGN);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, takebacks)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    uint8_t before[PROTO_HASH_BYTES], after[PROTO_HASH_BYTES];

    cr_assert_eq(send_kind(t, &W, PROTO_KIND_TAKEBACK_REQUEST, &f),
                 TB_E_STATE); /* nothing to take back */
    cr_assert_eq(send_move(t, 0, &f), 0);
    proto_state_hash(proto_transcript_position(t), before);
    cr_assert_eq(send_move(t, 2, &f), 0);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_TAKEBACK_REQUEST, &f), 0);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_TAKEBACK_ACCEPT, &f), TB_E_STATE);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_TAKEBACK_DECLINE, &f), 0);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_TAKEBACK_ACCEPT, &f), TB_E_STATE);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_TAKEBACK_REQUEST, &f), 0);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_TAKEBACK_ACCEPT, &f), 0);
    cr_assert_eq(proto_transcript_moves(t), 1);
    proto_state_hash(proto_transcript_position(t), after);
    cr_assert_arr_eq(before, after, sizeof before);
    cr_assert_eq(core_side_to_move(proto_transcript_position(t)), CORE_BLACK);
    /* Black plays another move; the chain goes on. */
    cr_assert_eq(send_move(t, 1, &f), 0);
    cr_assert_eq(proto_transcript_moves(t), 2);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, state_checks)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    Proto_Message m;

    cr_assert_eq(send_move(t, 0, &f), 0);
    proto_message_init(&m, PROTO_KIND_STATE_CHECK, &B);
    m.body.check.ply = 1;
    proto_state_hash(proto_transcript_position(t), m.body.check.hash);
    cr_assert_eq(send_msg(t, &B, &m), 0);
    m.body.check.ply = 0;
    cr_assert_eq(send_msg(t, &B, &m), TB_E_STATE);
    m.body.check.ply = 1;
    m.body.check.hash[5] ^= 1;
    cr_assert_eq(send_msg(t, &W, &m), TB_E_DESYNC);
    /* White signed the false state: Black wins. */
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_WIN_BLACK);
    cr_assert_eq(proto_transcript_status(t).reason, CORE_REASON_DESYNC_FORFEIT);
    /* A false check after the end is kept, and changes no result. */
    cr_assert_eq(send_msg(t, &B, &m), TB_E_DESYNC);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_WIN_BLACK);
    proto_transcript_free(t);
    frames_free(&f);
}

/* A desync report while the match is on (the second exploit: a
 * loser's report of the true state, off-turn, turned a lost game into
 * "aborted"): the true state is refused and play goes on; another state
 * loses the match for its reporter. */
Test(transcript, desync_reports_while_on_are_adjudicated)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    Proto_Message m;
    uint8_t state[64], other[64];
    size_t slen, olen;

    cr_assert_eq(send_move(t, 0, &f), 0);
    cr_assert_eq(send_move(t, 0, &f), 0);
    cr_assert_eq(core_ply(proto_transcript_position(t)), 2);
    Core_Position *pos = core_position_clone(proto_transcript_position(t));
    cr_assert_eq(core_encode(pos, state, sizeof state, &slen), 0);
    /* Black, not to move, reports the state both hold. */
    proto_message_init(&m, PROTO_KIND_DESYNC, &B);
    m.body.desync.ply = 2;
    m.body.desync.state = state;
    m.body.desync.state_len = slen;
    cr_assert_eq(send_msg(t, &B, &m), TB_E_STATE);
    cr_assert(strstr(proto_transcript_why(t), "play goes on") != NULL, "%s",
              proto_transcript_why(t));
    cr_assert_eq(proto_transcript_count(t), 3);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    /* The same report said for another ply is refused too. */
    m.body.desync.ply = 1;
    cr_assert_eq(send_msg(t, &B, &m), TB_E_STATE);
    /* Play goes on: White moves. */
    cr_assert_eq(send_move(t, 0, &f), 0);
    cr_assert_eq(proto_transcript_count(t), 4);
    /* A state the moves do not give (the position one ply back, another
     * total): Black's report is false, and Black loses. */
    cr_assert_eq(core_encode(pos, other, sizeof other, &olen), 0);
    proto_message_init(&m, PROTO_KIND_DESYNC, &B);
    m.body.desync.ply = 3;
    m.body.desync.state = other;
    m.body.desync.state_len = olen;
    cr_assert_eq(send_msg(t, &B, &m), 0, "%s", proto_transcript_why(t));
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_WIN_WHITE);
    cr_assert_eq(proto_transcript_status(t).reason, CORE_REASON_DESYNC_FORFEIT);
    core_position_free(pos);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, match_start_is_checked)
{
    Proto_Transcript *t = NULL;
    Proto_Message m;
    size_t len;
    uint8_t *buf;
    Frames f = {0};

    cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
    cr_assert_null(proto_transcript_start(t));
    cr_assert_null(proto_transcript_position(t));
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_CHAT, &f), TB_E_STATE);
    start_msg(&m, &W, &B, "chess", "", 1);
    cr_assert_eq(send_msg(t, &W, &m), TB_E_GAME);
    start_msg(&m, &W, &B, "race", "target=999", 1);
    cr_assert_eq(send_msg(t, &W, &m), TB_E_OPTION);
    start_msg(&m, &W, &W, "race", "", 1);
    cr_assert_eq(send_msg(t, &W, &m), TB_E_FORMAT);
    start_msg(&m, &W, &B, "race", "", 1);
    m.prev[0] = 1;
    buf = seal_next(NULL, &W, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), TB_E_CHAIN);
    free(buf);
    /* a hello is not part of a match */
    proto_message_init(&m, PROTO_KIND_HELLO, &W);
    snprintf(m.body.hello.software, sizeof m.body.hello.software, "t");
    cr_assert_eq(send_msg(t, &W, &m), TB_E_STATE);
    cr_assert_eq(proto_transcript_count(t), 0);
    /* Black may start it too; a second start is refused. */
    start_msg(&m, &W, &B, "race", "", 1);
    cr_assert_eq(send_msg(t, &B, &m), 0);
    start_msg(&m, &W, &B, "race", "", 1);
    cr_assert_eq(send_msg(t, &B, &m), TB_E_STATE);
    cr_assert_eq(proto_transcript_side_of(t, W.pk), CORE_WHITE);
    cr_assert_eq(proto_transcript_side_of(t, B.pk), CORE_BLACK);
    cr_assert_eq(proto_transcript_side_of(t, C.pk), -1);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, laska_match_with_real_moves)
{
    Proto_Transcript *t = NULL;
    Frames f = {0};
    cr_assert_not_null(core_game_find("laska"));
    cr_assert_eq(proto_transcript_new(&t, NULL), 0);
    play_match(t, &f, &W, &B, "laska", "", 5, 100);
    cr_assert_geq(proto_transcript_moves(t), 20);
    /* the first move was one of Laska's six opening moves */
    const char *opening[] = {"a3-b4", "c3-b4", "c3-d4",
                             "e3-d4", "e3-f4", "g3-f4"};
    Proto_Envelope e;
    cr_assert_eq(proto_open(f.buf[1] + 4, f.len[1] - 4, &e, NULL, 0), 0);
    int found = 0;
    for (int i = 0; i < 6; i++)
        found |= strcmp(e.msg.body.move.move, opening[i]) == 0;
    cr_assert(found, "%s", e.msg.body.move.move);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, send_seals_and_appends_in_one_step)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    static uint8_t frame[FRAME_CAP];
    Proto_Message m;
    size_t len = 99;

    move_msg(t, &B, 0, &m); /* Black out of turn */
    cr_assert_eq(proto_transcript_send(t, &B, &m, frame, sizeof frame, &len),
                 TB_E_STATE);
    cr_assert_eq(len, 0);
    cr_assert_eq(proto_transcript_count(t), 1);
    move_msg(t, &W, 0, &m);
    cr_assert_eq(proto_transcript_send(t, &W, &m, frame, sizeof frame, &len),
                 0);
    cr_assert_eq(proto_transcript_count(t), 2);
    /* The frame is what the peer receives: it accepts it as the 2nd. */
    Proto_Transcript *peer = NULL;
    cr_assert_eq(proto_transcript_new(&peer, toy_lookup), 0);
    cr_assert_eq(add_frame(peer, f.buf[0], f.len[0]), 0);
    cr_assert_eq(add_frame(peer, frame, len), 0);
    uint8_t a[PROTO_HASH_BYTES], b[PROTO_HASH_BYTES];
    proto_transcript_chain(t, a);
    proto_transcript_chain(peer, b);
    cr_assert_arr_eq(a, b, sizeof a);
    cr_assert_eq(proto_transcript_send(t, &W, &m, frame, 10, &len), TB_E_SPACE);
    proto_transcript_free(peer);
    proto_transcript_free(t);
    frames_free(&f);
}

/* ---- clocks, flag claims and absence claims (G-MC-6, -7, -9) --------- */

/* The pick-th legal move by the side to move, with clock readings. */
static int send_timed(Proto_Transcript *t, unsigned pick, uint32_t own,
                      uint32_t opp, Frames *f)
{
    Proto_Message m;
    size_t len;
    const Proto_Identity *id = to_move(t, &W, &B);
    move_msg(t, id, pick, &m);
    m.body.move.has_clock = 1;
    m.body.move.own_ms = own;
    m.body.move.opp_ms = opp;
    uint8_t *buf = seal_next(t, id, &m, &len);
    int rc = add_frame(t, buf, len);
    keep(f, buf, len);
    return rc;
}

static int send_flag(Proto_Transcript *t, const Proto_Identity *id,
                     uint32_t ply, uint32_t elapsed)
{
    Proto_Message m;
    proto_message_init(&m, PROTO_KIND_FLAG, id);
    m.body.flag.ply = ply;
    m.body.flag.elapsed = elapsed;
    return send_msg(t, id, &m);
}

Test(transcript, clock_option_is_split_from_the_game_options)
{
    Proto_Clock c;
    char o[64];
    cr_assert_eq(proto_clock_split("", &c, o, sizeof o), 0);
    cr_assert(c.kind == PROTO_CLOCK_NONE && c.base_ms == 0 && o[0] == '\0');
    cr_assert_eq(proto_clock_split("clock=300+5", &c, o, sizeof o), 0);
    cr_assert(c.kind == PROTO_CLOCK_FISCHER && c.base_ms == 300000 &&
              c.inc_ms == 5000 && o[0] == '\0');
    cr_assert_eq(proto_clock_split("a=1,clock=1+0,b=2", &c, o, sizeof o), 0);
    cr_assert(c.base_ms == 1000 && c.inc_ms == 0);
    cr_assert_str_eq(o, "a=1,b=2");
    cr_assert_eq(proto_clock_split("goals=3", &c, o, sizeof o), 0);
    cr_assert(c.kind == PROTO_CLOCK_NONE);
    cr_assert_str_eq(o, "goals=3");
    /* The Fischer option reads as it always did, leading zeros too. */
    cr_assert_eq(proto_clock_split("clock=0300+05", &c, o, sizeof o), 0);
    cr_assert(c.base_ms == 300000 && c.inc_ms == 5000);
    const char *bad[] = {"clock=0+0",     "clock=5",        "clock=5+",
                         "clock=+5",      "clock=1+0,clock=2+0",
                         "clock=86401+0", "clock=1+3601",   "clock=1x+0",
                         "clock=1+0x",    "clock=9999999+0", "clock=5s+3",
                         "clock=300+3s",  "clock=3days",    "clock=15day",
                         "clock=0day",    "clock=300d0",    "clock=300d3601",
                         "clock=40/0",    "clock=0/5400",   "clock=201/5400",
                         "clock=40/5400+", "clock=40/86401", "clock=3d",
                         "clock=40/5400+3601"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        cr_assert_eq(proto_clock_split(bad[k], &c, o, sizeof o),
                     TB_E_OPTION, "%s", bad[k]);
    cr_assert_eq(proto_clock_split("abcdefgh", &c, o, 4), TB_E_SPACE);
    /* the relay token is the transcript's too: one at most, only
     * "relay=3" */
    cr_assert_eq(proto_clock_split("goals=3,relay=3,clock=1+0", &c, o,
                                   sizeof o),
                 0);
    cr_assert_str_eq(o, "goals=3");
    cr_assert(c.base_ms == 1000);
    const char *bad_relay[] = {"relay=3,relay=3", "relay=2", "relay=",
                               "relay=33", "relay=3x"};
    for (size_t k = 0; k < sizeof bad_relay / sizeof bad_relay[0]; k++)
        cr_assert_eq(proto_clock_split(bad_relay[k], &c, o, sizeof o),
                     TB_E_OPTION, "%s", bad_relay[k]);
    cr_assert_eq(proto_options_relay("relay=3"), 1);
    cr_assert_eq(proto_options_relay("a=1,relay=3,b=2"), 1);
    cr_assert_eq(proto_options_relay("a=1,xrelay=3"), 0);
    cr_assert_eq(proto_options_relay("relay=33"), 0);
    cr_assert_eq(proto_options_relay(""), 0);
    /* the options as the players chose them: the session's token out */
    char chosen[PROTO_OPTIONS_MAX + 1];
    proto_options_chosen("clock=60+0,relay=3", chosen);
    cr_assert_str_eq(chosen, "clock=60+0");
    proto_options_chosen("relay=3", chosen);
    cr_assert_str_eq(chosen, "");
    proto_options_chosen("a=1,,relay=3,b=2,relay=33", chosen);
    cr_assert_str_eq(chosen, "a=1,b=2,relay=33");
}

Test(transcript, every_kind_of_clock_reads_and_writes_one_canonical_form)
{
    /* Canonical values: seconds, days as Nday; each reads back to the
     * same text (a period without increment is written without +0). */
    static const struct {
        const char *text;
        Proto_Clock_Kind kind;
        uint32_t base, inc, delay, moves;
    } rows[] = {
        {"300+3", PROTO_CLOCK_FISCHER, 300000, 3000, 0, 0},
        {"300d3", PROTO_CLOCK_DELAY, 300000, 0, 3000, 0},
        {"40/5400+30", PROTO_CLOCK_MOVES, 5400000, 30000, 0, 40},
        {"40/5400", PROTO_CLOCK_MOVES, 5400000, 0, 0, 40},
        /* 3 days = 3 x 86,400,000 ms */
        {"3day", PROTO_CLOCK_DAYS, 259200000, 0, 0, 0},
        /* 14 days = 1,209,600,000 ms, still a uint32_t */
        {"14day", PROTO_CLOCK_DAYS, 1209600000u, 0, 0, 0},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        Proto_Clock c;
        char back[PROTO_CLOCK_TEXT_MAX];
        cr_assert_eq(proto_clock_parse(rows[k].text, 0, &c, NULL), 0, "%s",
                     rows[k].text);
        cr_assert(c.kind == rows[k].kind && c.base_ms == rows[k].base &&
                      c.inc_ms == rows[k].inc &&
                      c.delay_ms == rows[k].delay &&
                      c.moves == rows[k].moves,
                  "%s", rows[k].text);
        cr_assert_eq(proto_clock_format(&c, back, sizeof back), 0);
        cr_assert_str_eq(back, rows[k].text);
    }
    /* Typed, in minutes: 40/90+30 is 40 moves in 5400 s plus 30 s. */
    Proto_Clock c;
    Proto_Clock_Part part;
    cr_assert_eq(proto_clock_parse("40/90+30", 1, &c, NULL), 0);
    cr_assert(c.kind == PROTO_CLOCK_MOVES && c.moves == 40 &&
              c.base_ms == 5400000 && c.inc_ms == 30000);
    /* What is wrong is named: the form, the period's time, the days. */
    static const struct {
        const char *text;
        Proto_Clock_Part part;
    } bad[] = {
        {"5x3", PROTO_CLOCK_PART_FORM},    {"40/0", PROTO_CLOCK_PART_TIME},
        {"15days", PROTO_CLOCK_PART_DAYS}, {"5d0", PROTO_CLOCK_PART_DELAY},
        {"0/90", PROTO_CLOCK_PART_MOVES},  {"5+3601", PROTO_CLOCK_PART_INC},
        {"1441+0", PROTO_CLOCK_PART_TIME}, {"3day5", PROTO_CLOCK_PART_FORM},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cr_assert_eq(proto_clock_parse(bad[k].text, 1, &c, &part),
                     TB_E_OPTION, "%s", bad[k].text);
        cr_assert_eq(part, bad[k].part, "%s", bad[k].text);
        cr_assert(c.kind == PROTO_CLOCK_NONE && c.base_ms == 0);
    }
}

Test(transcript, clock_readings_are_bounded_and_a_flag_is_verified)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "clock=2+1");
    cr_assert_eq(proto_transcript_clock(t)->base_ms, 2000);
    cr_assert_eq(proto_transcript_clock(t)->inc_ms, 1000);
    cr_assert_str_eq(proto_transcript_game_options(t), "");
    /* A move without readings, one gaining more than the increment, a
     * zero reading: all refused. */
    cr_assert_eq(send_move(t, 0, &f), TB_E_FORMAT);
    cr_assert_eq(send_timed(t, 0, 3001, 2000, &f), TB_E_STATE);
    cr_assert_eq(send_timed(t, 0, 0, 2000, &f), TB_E_STATE);
    cr_assert_eq(send_timed(t, 0, 2000, 2001, &f), TB_E_STATE);
    /* White used 500 ms (+1000 increment). */
    cr_assert_eq(send_timed(t, 0, 2500, 2000, &f), 0);
    cr_assert_eq(proto_transcript_clock_view(t, CORE_WHITE, CORE_WHITE),
                 2500);
    cr_assert_eq(proto_transcript_clock_view(t, CORE_WHITE, CORE_BLACK),
                 2000);
    /* Black may not give White more than White claimed. */
    cr_assert_eq(send_timed(t, 0, 2500, 2501, &f), TB_E_STATE);
    /* Flags: by the side to move, at another ply, too early: refused. */
    cr_assert_eq(send_flag(t, &B, 1, 5000), TB_E_STATE);
    cr_assert_eq(send_flag(t, &W, 2, 5000), TB_E_STATE);
    cr_assert_eq(send_flag(t, &W, 1, 1999), TB_E_STATE);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    cr_assert_eq(send_flag(t, &W, 1, 2000), 0);
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_WIN_WHITE);
    cr_assert_eq(st.reason, CORE_REASON_TIME);
    proto_transcript_free(t);
    frames_free(&f);

    /* Without a clock: no readings allowed and no flag. */
    t = started(&f, "");
    cr_assert_eq(send_timed(t, 0, 100, 100, &f), TB_E_FORMAT);
    cr_assert_eq(send_flag(t, &B, 0, 99999), TB_E_STATE);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, a_lied_reading_counts_as_the_claimants_signed_view)
{
    /* White claims it used nothing; Black's next move signs its own view
     * of White's time (corrected); a flag is checked against the smaller
     * of the two. */
    Frames f = {0};
    Proto_Transcript *t = started(&f, "clock=10+0");
    cr_assert_eq(send_timed(t, 0, 10000, 10000, &f), 0);
    cr_assert_eq(send_timed(t, 0, 9000, 6000, &f), 0);
    /* The liar goes on claiming 10 s: accepted (the game goes on), but
     * Black's signed view stays what Black measured. */
    cr_assert_eq(send_timed(t, 0, 10000, 9000, &f), 0);
    cr_assert_eq(send_timed(t, 0, 8000, 5000, &f), 0);
    cr_assert_eq(proto_transcript_clock_view(t, CORE_WHITE, CORE_WHITE),
                 10000);
    cr_assert_eq(proto_transcript_clock_view(t, CORE_BLACK, CORE_WHITE),
                 5000);
    /* White to move: its own reading 5000, Black's view 5000. */
    cr_assert_eq(send_flag(t, &B, 4, 4999), TB_E_STATE);
    cr_assert_eq(send_flag(t, &B, 4, 5000), 0);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_WIN_BLACK);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, football_on_time_counts_goals)
{
    /* D-FC-7: at the flag, equal goals (0-0 here) is a draw. */
    Proto_Transcript *t = NULL;
    Proto_Message m;
    size_t len;
    cr_assert_eq(proto_transcript_new(&t, NULL), 0);
    start_msg(&m, &W, &B, "football", "clock=1+0", 9);
    uint8_t *buf = seal_next(t, &W, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
    free(buf);
    move_msg(t, &W, 0, &m);
    m.body.move.has_clock = 1;
    m.body.move.own_ms = 900;
    m.body.move.opp_ms = 1000;
    cr_assert_eq(send_msg(t, &W, &m), 0, "%s", proto_transcript_why(t));
    cr_assert_eq(send_flag(t, &W, 1, 1000), 0, "%s", proto_transcript_why(t));
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_TIME);
    proto_transcript_free(t);
}

Test(transcript, absence_claims_end_the_match)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, "");
    Proto_Message m;
    proto_message_init(&m, PROTO_KIND_CLAIM, &B);
    m.body.claim.what = PROTO_CLAIM_WIN;
    cr_assert_eq(send_msg(t, &B, &m), 0);
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_WIN_BLACK);
    cr_assert_eq(st.reason, CORE_REASON_ABANDON);
    proto_transcript_free(t);
    frames_free(&f);
    t = started(&f, "");
    proto_message_init(&m, PROTO_KIND_CLAIM, &W);
    m.body.claim.what = PROTO_CLAIM_DRAW;
    cr_assert_eq(send_msg(t, &W, &m), 0);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_DRAW);
    proto_transcript_free(t);
    frames_free(&f);
}

/* A refused move's text, as the refusal shows it to the reader (its
 * screen, its log's warning): only notation's characters, '?' for the
 * rest, so a cheater's move cannot write "result: 0-1" of its own into
 * the line (the cheating-player trial). Written out by hand. */
Test(transcript, a_refused_moves_text_cannot_write_a_line_of_its_own)
{
    Proto_Transcript *t;
    Frames f = {0};
    Proto_Message m;
    t = started(&f, "");
    move_msg(t, &W, 0, &m);
    snprintf(m.body.move.move, sizeof m.body.move.move, "%s",
             "e5xc3' ok. result: 0-1");
    cr_assert_neq(send_msg(t, &W, &m), 0);
    cr_assert_str_eq(proto_transcript_why(t),
                     "move 'e5xc3? ok. result? 0-1' refused by the rules");
    proto_transcript_free(t);
    frames_free(&f);
}

/* ---- witnessed clocks: the relay's times decide (the fair-play issue) */

static Proto_Transcript *witnessed(Frames *f, const char *options,
                                   uint64_t at)
{
    Proto_Transcript *t = NULL;
    Proto_Message m;
    size_t len;
    cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
    proto_transcript_witness_mode(t);
    start_msg(&m, &W, &B, "race", options, 9);
    uint8_t *buf = seal_next(t, &W, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
    keep(f, buf, len);
    cr_assert_eq(proto_transcript_witness(t, 0, at, NULL), 0);
    return t;
}

/* A move with readings that lie (1 ms each way: they count for nothing),
 * witnessed at `at`. */
static int move_at(Proto_Transcript *t, uint64_t at, Frames *f)
{
    int rc = send_timed(t, 0, 1, 1, f);
    if (rc == 0)
        rc = proto_transcript_witness(t, proto_transcript_count(t) - 1, at, NULL);
    return rc;
}

static int flag_at(Proto_Transcript *t, const Proto_Identity *id, uint64_t at)
{
    int rc = send_flag(t, id, core_ply(proto_transcript_position(t)), 1);
    if (rc == 0)
        rc = proto_transcript_witness(t, proto_transcript_count(t) - 1, at, NULL);
    return rc;
}

Test(transcript, witnessed_clocks_are_the_relays_times_less_the_lag)
{
    Frames f = {0};
    int64_t left[2];
    uint64_t from = 0;
    /* 10 s + 2 s; by hand: White's move 3,500 ms after the start is
     * charged 3,000 (less the 500 ms allowance): 10,000 - 3,000 + 2,000 =
     * 9,000. Black answers in 400 ms: charged 0, 12,000. */
    Proto_Transcript *t = witnessed(&f, "clock=10+2", 1000);
    cr_assert_eq(proto_transcript_clock_turn(t, &from, left), CORE_WHITE);
    cr_assert(from == 1000 && left[0] == 10000 && left[1] == 10000);
    cr_assert_eq(move_at(t, 4500, &f), 0);
    cr_assert_eq(move_at(t, 4900, &f), 0);
    cr_assert_eq(proto_transcript_clock_turn(t, &from, left), CORE_WHITE);
    cr_assert_eq(from, 4900);
    cr_assert_eq(left[0], 9000);
    cr_assert_eq(left[1], 12000);
    /* Black claims White's flag 9,499 ms into White's turn: 8,999 ms
     * charged, under 9,000: void, play goes on. At 9,500: it falls. */
    cr_assert_eq(flag_at(t, &B, 4900 + 9499), 0);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    cr_assert_eq(proto_transcript_flags_void(t), 1);
    cr_assert_eq(flag_at(t, &B, 4900 + 9500), 0);
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_WIN_BLACK);
    cr_assert_eq(st.reason, CORE_REASON_TIME);
    cr_assert_eq(proto_transcript_clock_turn(t, NULL, NULL), -1);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, a_witnessed_move_after_the_flag_loses_on_time)
{
    Frames f = {0};
    Proto_Transcript *t = witnessed(&f, "clock=5+0", 0);
    /* White takes 5,500 ms: charged 5,000, all it had. The move is
     * legal on the board, but White has lost on time at it. */
    cr_assert_eq(move_at(t, 5500, &f), 0);
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_WIN_BLACK);
    cr_assert_eq(st.reason, CORE_REASON_TIME);
    cr_assert_eq(send_timed(t, 0, 1, 1, &f), TB_E_OVER);
    proto_transcript_free(t);
    frames_free(&f);
    /* 5,499 ms: charged 4,999, one ms to spare. */
    t = witnessed(&f, "clock=5+0", 0);
    cr_assert_eq(move_at(t, 5499, &f), 0);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    int64_t left[2];
    cr_assert_eq(proto_transcript_clock_turn(t, NULL, left), CORE_BLACK);
    cr_assert_eq(left[0], 1);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, a_lie_about_the_opponents_clock_wins_nothing)
{
    /* The fair-play issue's first exploit: in a 5+5 game Black answers
     * with a reading of 1 ms for White and claims White's flag 2.1 s
     * into the game. Witnessed, the reading counts for nothing and the
     * claim is void: White has 5,000 + 5,000 - 0 ms. */
    Frames f = {0};
    Proto_Transcript *t = witnessed(&f, "clock=5+5", 0);
    cr_assert_eq(move_at(t, 300, &f), 0);
    cr_assert_eq(move_at(t, 600, &f), 0); /* Black: readings of 1 ms */
    cr_assert_eq(flag_at(t, &B, 2100), 0);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    int64_t left[2];
    cr_assert_eq(proto_transcript_clock_turn(t, NULL, left), CORE_WHITE);
    cr_assert_eq(left[0], 10000);
    cr_assert_eq(move_at(t, 2200, &f), 0); /* White plays on */
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, witnesses_come_in_order_and_only_in_witnessed_mode)
{
    Frames f = {0};
    Proto_Transcript *t = witnessed(&f, "clock=5+0", 100);
    cr_assert_eq(proto_transcript_witness(t, 0, 100, NULL), TB_E_STATE); /* again */
    cr_assert_eq(send_timed(t, 0, 1, 1, &f), 0);
    cr_assert_eq(send_timed(t, 0, 1, 1, &f), 0);
    cr_assert_eq(proto_transcript_witness(t, 2, 200, NULL), TB_E_STATE); /* gap */
    cr_assert_eq(proto_transcript_witness(t, 3, 200, NULL), TB_E_STATE); /* not added */
    /* A time going back counts as no time: the move at 50 is charged 0. */
    cr_assert_eq(proto_transcript_witness(t, 1, 50, NULL), 0);
    int64_t left[2];
    cr_assert_eq(proto_transcript_witness(t, 2, 100 + 1500, NULL), 0);
    cr_assert_eq(proto_transcript_clock_turn(t, NULL, left), CORE_WHITE);
    cr_assert_eq(left[0], 5000);
    cr_assert_eq(left[1], 4000);
    proto_transcript_free(t);
    frames_free(&f);
    /* Without witnessed mode, and once an envelope is in, no witness. */
    t = started(&f, "clock=5+0");
    proto_transcript_witness_mode(t);
    cr_assert_eq(proto_transcript_witnessed(t), 0);
    cr_assert_eq(proto_transcript_witness(t, 0, 1, NULL), TB_E_STATE);
    proto_transcript_free(t);
    frames_free(&f);
}

/* A witnessed transcript whose absences are the receipts' (a version
 * 3 or 4 log), its start witnessed at 0. */
static Proto_Transcript *witnessed_absence(Frames *f, const char *options)
{
    Proto_Transcript *t = NULL;
    Proto_Message sm;
    size_t len;
    cr_assert_eq(proto_transcript_new(&t, toy_lookup), 0);
    proto_transcript_witness_mode(t);
    proto_transcript_witness_absence(t);
    start_msg(&sm, &W, &B, "race", options, 9);
    uint8_t *buf = seal_next(t, &W, &sm, &len);
    cr_assert_eq(add_frame(t, buf, len), 0);
    keep(f, buf, len);
    cr_assert_eq(proto_transcript_witness(t, 0, 0, NULL), 0);
    return t;
}

/* A claim whose receipt at `at` attests White (the host's seat) gone
 * white_gone ms. */
static int claim_at(Proto_Transcript *t, const Proto_Identity *id, int what,
                    uint64_t at, uint32_t white_gone)
{
    Proto_Message m;
    const uint32_t absent[2] = {white_gone, 0};
    proto_message_init(&m, PROTO_KIND_CLAIM, id);
    m.body.claim.what = (uint8_t)what;
    int rc = send_msg(t, id, &m);
    if (rc == 0)
        rc = proto_transcript_witness(t, proto_transcript_count(t) - 1, at,
                                      absent);
    return rc;
}

Test(transcript, absence_countdown_follows_the_clock)
{
    /* G-MC-9 by hand: no clock 60 s; 2+0: 12 s -> at least 10 s? a tenth
     * of 120,000 is 12,000; 1+0: 6,000 -> 10,000; 300+5: (300,000 +
     * 200,000) / 10 = 50,000; 900+30: 210,000 -> 60,000. */
    Proto_Clock c;
    cr_assert_eq(proto_absence_ms(NULL), 60000);
    cr_assert_eq(proto_clock_parse("120+0", 0, &c, NULL), 0);
    cr_assert_eq(proto_absence_ms(&c), 12000);
    cr_assert_eq(proto_clock_parse("60+0", 0, &c, NULL), 0);
    cr_assert_eq(proto_absence_ms(&c), 10000);
    cr_assert_eq(proto_clock_parse("300+5", 0, &c, NULL), 0);
    cr_assert_eq(proto_absence_ms(&c), 50000);
    cr_assert_eq(proto_clock_parse("900+30", 0, &c, NULL), 0);
    cr_assert_eq(proto_absence_ms(&c), 60000);
    /* G-MC-10: a delay counts as an increment would: 120d3 is (120,000
     * + 40 x 3,000) / 10 = 24,000; a period's increment likewise, 40/600
     * (no increment) 60,000 -> 60,000; a days clock waits a whole move's
     * time, 2 days = 172,800,000 ms. */
    cr_assert_eq(proto_clock_parse("120d3", 0, &c, NULL), 0);
    cr_assert_eq(proto_absence_ms(&c), 24000);
    cr_assert_eq(proto_clock_parse("40/150+1", 0, &c, NULL), 0);
    cr_assert_eq(proto_absence_ms(&c), 19000); /* (150,000 + 40,000)/10 */
    cr_assert_eq(proto_clock_parse("2day", 0, &c, NULL), 0);
    cr_assert_eq(proto_absence_ms(&c), 172800000u);
}

Test(transcript, a_witnessed_absence_claim_needs_the_relays_word)
{
    /* The fair-play issue's third exploit: a claim of the win whose
     * receipt attests the opponent present is void; one attesting it
     * gone 9,999 ms of the countdown (5+0: 10 s) is void; 10,000 ms
     * holds. Without the receipts' attestation (a version 2 log) the
     * claim is its claimant's word. */
    Frames f = {0};
    Proto_Transcript *t = witnessed_absence(&f, "clock=5+0");
    cr_assert_eq(move_at(t, 100, &f), 0);
    cr_assert_eq(claim_at(t, &B, PROTO_CLAIM_WIN, 200, 0), 0);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    cr_assert_eq(proto_transcript_claims_void(t), 1);
    cr_assert_eq(claim_at(t, &B, PROTO_CLAIM_WIN, 21999, 9999), 0);
    cr_assert_eq(proto_transcript_claims_void(t), 2);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    /* (a receipt attesting nothing voids it too) */
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_CLAIM, &f), 0);
    cr_assert_eq(proto_transcript_witness(t, proto_transcript_count(t) - 1,
                                          21999, NULL),
                 0);
    cr_assert_eq(proto_transcript_claims_void(t), 3);
    /* Black's own time is up by then (its turn from 100, 5 s and the
     * 0.5 s allowance: at 5,600): the win is void, the draw holds */
    cr_assert_eq(claim_at(t, &B, PROTO_CLAIM_WIN, 22000, 10000), 0);
    cr_assert_eq(proto_transcript_claims_void(t), 4);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    cr_assert_eq(claim_at(t, &B, PROTO_CLAIM_DRAW, 22000, 10000), 0);
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_ABANDON);
    proto_transcript_free(t);
    frames_free(&f);
    /* Witnessed without attestation: the claim ends the match when
     * added, its receipt aside. */
    t = witnessed(&f, "clock=5+0", 0);
    cr_assert_eq(move_at(t, 100, &f), 0);
    cr_assert_eq(claim_at(t, &B, PROTO_CLAIM_WIN, 200, 0), 0);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_WIN_BLACK);
    cr_assert_eq(proto_transcript_claims_void(t), 0);
    proto_transcript_free(t);
    frames_free(&f);
}

/* A flag claim of id whose receipt at `at` attests absences absent. */
static int flag_absent_at(Proto_Transcript *t, const Proto_Identity *id,
                          uint64_t at, const uint32_t absent[2])
{
    int rc = send_flag(t, id, core_ply(proto_transcript_position(t)), 1);
    if (rc == 0)
        rc = proto_transcript_witness(t, proto_transcript_count(t) - 1, at,
                                      absent);
    return rc;
}

Test(transcript, a_side_its_room_never_seated_neither_flags_nor_is_absent)
{
    /* A cheating host resumed its match in a second room its opponent
     * never entered and flagged the opponent's clock there (a trial of
     * 2026-12-07): a receipt attesting a seat never seated in its room
     * (PROTO_ABSENT_NEVER) voids a flag claim against that side, and an
     * absence claim too; the same claims hold on a receipt attesting it
     * seated. By hand, 5+0: White moves at 100, Black's turn runs from
     * 100; at 6,000 Black is charged 5,400 >= 5,000. */
    static const uint32_t never[2] = {0, PROTO_ABSENT_NEVER},
                          seated[2] = {0, 0}, gone[2] = {0, 10000};
    Frames f = {0};
    for (int round = 0; round < 2; round++) {
        Proto_Transcript *t = witnessed_absence(&f, "clock=5+0");
        cr_assert_eq(move_at(t, 100, &f), 0);
        cr_assert_eq(flag_absent_at(t, &W, 6000, never), 0);
        cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
        cr_assert_eq(proto_transcript_flags_void(t), 1);
        if (round == 0) {
            cr_assert_eq(flag_absent_at(t, &W, 6001, seated), 0);
        } else {
            /* (never seated is not gone: an absence claim is void) */
            Proto_Message m;
            proto_message_init(&m, PROTO_KIND_CLAIM, &W);
            m.body.claim.what = PROTO_CLAIM_WIN;
            cr_assert_eq(send_msg(t, &W, &m), 0);
            cr_assert_eq(proto_transcript_witness(
                             t, proto_transcript_count(t) - 1, 70000, never),
                         0);
            cr_assert_eq(proto_transcript_claims_void(t), 1);
            cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
            cr_assert_eq(flag_absent_at(t, &W, 70001, gone), 0);
        }
        Core_Status st = proto_transcript_status(t);
        cr_assert_eq(st.outcome, CORE_WIN_WHITE, "round %d", round);
        cr_assert_eq(st.reason, CORE_REASON_TIME);
        proto_transcript_free(t);
        frames_free(&f);
    }
}

Test(transcript, a_witnessed_takeback_keeps_the_time_spent)
{
    /* G-MC-8 by hand, 10+0: White moves at 1,000 (charged 500: 9,500
     * left), Black thinks until 9,500 and asks to take back White's
     * move, White accepts at 9,600: Black is charged 9,600 - 1,000 - 500
     * = 8,100 (1,900 left), and White, to move again, runs from 9,600. */
    Frames f = {0};
    Proto_Transcript *t = witnessed(&f, "clock=10+0", 0);
    cr_assert_eq(move_at(t, 1000, &f), 0);
    cr_assert_eq(send_kind(t, &B, PROTO_KIND_TAKEBACK_REQUEST, &f), 0);
    cr_assert_eq(proto_transcript_witness(t, 2, 9500, NULL), 0);
    cr_assert_eq(send_kind(t, &W, PROTO_KIND_TAKEBACK_ACCEPT, &f), 0);
    cr_assert_eq(proto_transcript_witness(t, 3, 9600, NULL), 0);
    int64_t left[2];
    uint64_t from = 0;
    cr_assert_eq(proto_transcript_clock_turn(t, &from, left), CORE_WHITE);
    cr_assert_eq(from, 9600);
    cr_assert_eq(left[0], 9500);
    cr_assert_eq(left[1], 1900);
    proto_transcript_free(t);
    frames_free(&f);
}

/* ---- time controls beyond Fischer (G-MC-10) --------------------------- */

/* A move witnessed `ms` after the one before it (the turn's start). */
static uint64_t clock_at;
static int move_after(Proto_Transcript *t, uint64_t ms, Frames *f)
{
    clock_at += ms;
    return move_at(t, clock_at, f);
}

/* A witnessed match on options in which White moves white_ms into its
 * turn and Black black_ms into its own; both clocks are then as wanted,
 * White's running. */
static Proto_Transcript *two_moves(Frames *f, const char *options,
                                   uint64_t white_ms, uint64_t black_ms,
                                   int64_t want_white, int64_t want_black)
{
    int64_t left[2];
    clock_at = 0;
    Proto_Transcript *t = witnessed(f, options, 0);
    cr_assert_eq(move_after(t, white_ms, f), 0);
    cr_assert_eq(move_after(t, black_ms, f), 0);
    cr_assert_eq(proto_transcript_clock_turn(t, NULL, left), CORE_WHITE);
    cr_assert_eq(left[0], want_white, "%s", options);
    cr_assert_eq(left[1], want_black, "%s", options);
    return t;
}

/* Unwitnessed, the mover's reading may be most, not more (its view of
 * the opponent: opp); it moves with most. */
static void reading_at_most(Proto_Transcript *t, uint32_t most, uint32_t opp,
                            Frames *f)
{
    cr_assert_eq(send_timed(t, 0, most + 1, opp, f), TB_E_STATE, "%u", most);
    cr_assert_eq(send_timed(t, 0, most, opp, f), 0, "%u", most);
}

/* Unwitnessed on options, White's first reading may be most, not more. */
static void first_reading_at_most(const char *options, uint32_t most)
{
    Frames f = {0};
    Proto_Transcript *t = started(&f, options);
    reading_at_most(t, most, most, &f);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, a_witnessed_period_of_40_moves_in_90_minutes_adds_90)
{
    /* 40/90+30 (the fair-play issue's example), witnessed. By hand:
     * White takes 10,500 ms a move (charged 10,000 after the 500 ms
     * allowance), Black 500 ms (charged 0). White's move k leaves it
     * 5,400,000 + k x (30,000 - 10,000), so 6,180,000 after move 39;
     * move 40 ends its first period: 5,400,000 more, 11,600,000. Black's
     * 40 moves: 5,400,000 + 40 x 30,000 + 5,400,000 = 12,000,000. */
    Frames f = {0};
    int64_t left[2];
    clock_at = 0;
    Proto_Transcript *t = witnessed(&f, "target=200,clock=40/5400+30", 0);
    for (int k = 1; k <= 40; k++) {
        cr_assert_eq(move_after(t, 10500, &f), 0);
        proto_transcript_clock_turn(t, NULL, left);
        if (k == 39)
            cr_assert_eq(left[0], 6180000);
        cr_assert_eq(move_after(t, 500, &f), 0);
    }
    cr_assert_eq(proto_transcript_clock_turn(t, NULL, left), CORE_WHITE);
    cr_assert_eq(left[0], 11600000);
    cr_assert_eq(left[1], 12000000);
    cr_assert_eq(proto_transcript_made(t, CORE_WHITE), 40);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, a_period_clock_bounds_the_readings_by_its_period)
{
    /* 2/60+1, unwitnessed: a move of no time gives the increment, and
     * the second move of a period the period's time too. Each side moves
     * in no time: its first reading at most 60,000 + 1,000 = 61,000; its
     * second 61,000 + 1,000 + 60,000 = 122,000; its third, the first of
     * its second period, 122,000 + 1,000 = 123,000. */
    Frames f = {0};
    Proto_Transcript *t = started(&f, "clock=2/60+1");
    reading_at_most(t, 61000, 60000, &f);  /* White */
    reading_at_most(t, 61000, 61000, &f);  /* Black */
    reading_at_most(t, 122000, 61000, &f);
    reading_at_most(t, 122000, 122000, &f);
    reading_at_most(t, 123000, 122000, &f);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, a_witnessed_delay_is_free_and_adds_nothing)
{
    /* 300d3 (typed 5d3), witnessed. By hand: a move of 2,400 ms is
     * charged max(0, 2,400 - 500 - 3,000) = 0: White keeps 300,000. A
     * move of 5,000 ms: 5,000 - 500 - 3,000 = 1,500, Black 298,500;
     * nothing is ever added. */
    Frames f = {0};
    Proto_Transcript *t =
        two_moves(&f, "clock=300d3", 2400, 5000, 300000, 298500);
    proto_transcript_free(t);
    frames_free(&f);

    /* 5d3 in seconds (5 s, 3 s delay): White's flag falls when the turn
     * less the allowance and the delay reaches 5,000: at 8,500 ms, not
     * at 8,499. */
    t = witnessed(&f, "clock=5d3", 0);
    cr_assert_eq(flag_at(t, &B, 8499), 0);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_ONGOING);
    cr_assert_eq(proto_transcript_flags_void(t), 1);
    cr_assert_eq(flag_at(t, &B, 8500), 0);
    cr_assert_eq(proto_transcript_status(t).reason, CORE_REASON_TIME);
    proto_transcript_free(t);
    frames_free(&f);

    /* Unwitnessed: a delay gives nothing back, so a reading above the
     * mover's last is refused; and a flag claim must count the delay,
     * 5 s + 3 s = 8,000 ms. */
    first_reading_at_most("clock=300d3", 300000);
    t = started(&f, "clock=5d3");
    cr_assert_eq(send_flag(t, &B, 0, 7999), TB_E_STATE);
    cr_assert_eq(send_flag(t, &B, 0, 8000), 0);
    cr_assert_eq(proto_transcript_status(t).reason, CORE_REASON_TIME);
    proto_transcript_free(t);
    frames_free(&f);
}

Test(transcript, a_days_clock_resets_after_each_move)
{
    /* 1day: 86,400,000 ms a move, witnessed. By hand: White moves after
     * 10 h (36,000,000 ms): back to 86,400,000, not 50,400,000 + any
     * increment. Black moves after 23 h: back to 86,400,000. White then
     * takes a day and 500 ms: charged 86,400,000, all it had: it loses
     * on time at that move. */
    Frames f = {0};
    Proto_Transcript *t =
        two_moves(&f, "clock=1day", 36000000, 82800000, 86400000, 86400000);
    cr_assert_eq(move_after(t, 86400500, &f), 0);
    Core_Status st = proto_transcript_status(t);
    cr_assert_eq(st.outcome, CORE_WIN_BLACK);
    cr_assert_eq(st.reason, CORE_REASON_TIME);
    proto_transcript_free(t);
    frames_free(&f);

    /* Unwitnessed: after any move the mover may read the whole day
     * again, never more. */
    first_reading_at_most("clock=1day", 86400000);
}

/* A clock as a player types it (tabula seeks shows clocks so): each
 * typed text of docs/usage.md's table reads back as written, and the
 * canonical options' forms (seconds) come out typed, by hand: 300+3 is
 * 5+3, 30+1 is 30s+1, 40/5400+30 is 40/90+30, 3day is 3days. */
Test(transcript, a_clock_is_shown_as_typed)
{
    static const char *const typed[] = {"5+3",  "30s+1", "5d3", "40/90",
                                        "40/90+30", "1day", "3days",
                                        "90s+0", "1440+3600"};
    static const struct {
        const char *canonical, *typed;
    } shown[] = {{"300+3", "5+3"},
                 {"30+1", "30s+1"},
                 {"40/5400+30", "40/90+30"},
                 {"3day", "3days"},
                 {"1day", "1day"},
                 {"300d3", "5d3"}};
    Proto_Clock c;
    char out[PROTO_CLOCK_TEXT_MAX];
    for (size_t k = 0; k < sizeof typed / sizeof typed[0]; k++) {
        cr_assert_eq(proto_clock_parse(typed[k], 1, &c, NULL), 0, "%s",
                     typed[k]);
        cr_assert_eq(proto_clock_typed(&c, out, sizeof out), 0);
        cr_assert_str_eq(out, typed[k]);
    }
    for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++) {
        cr_assert_eq(proto_clock_parse(shown[k].canonical, 0, &c, NULL), 0,
                     "%s", shown[k].canonical);
        cr_assert_eq(proto_clock_typed(&c, out, sizeof out), 0);
        cr_assert_str_eq(out, shown[k].typed);
    }
    memset(&c, 0, sizeof c);
    cr_assert_eq(proto_clock_typed(&c, out, sizeof out), 0);
    cr_assert_str_eq(out, "");
    cr_assert_eq(proto_clock_typed(&c, out, 0), TB_E_SPACE);
}
