/*
 * match_util.h: helpers the protocol tests share: deterministic identities,
 * sealing the next message of a transcript, a move message with the state
 * hash computed on a copy of the position, and whole matches of the toy
 * game kept as frames.
 */
#ifndef TABULA_TEST_MATCH_UTIL_H
#define TABULA_TEST_MATCH_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

#define FRAME_CAP (PROTO_FRAME_PREFIX + PROTO_FRAME_MAX)
#define FRAMES_MAX 128

typedef struct Frames {
    size_t n;
    uint8_t *buf[FRAMES_MAX];
    size_t len[FRAMES_MAX];
} Frames;

static inline void frames_free(Frames *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->buf[i]);
    f->n = 0;
}

/* The identity of seed byte s (all 32 bytes equal to s). */
static inline Proto_Identity ident(uint8_t s)
{
    Proto_Identity id;
    uint8_t seed[PROTO_KEY_BYTES];
    memset(seed, s, sizeof seed);
    cr_assert_eq(proto_init(), 0);
    cr_assert_eq(proto_identity_from_seed(&id, seed), 0);
    return id;
}

/* Seal m (already filled but for seq/prev/match id) as the next message of
 * t into a new heap frame. */
static inline uint8_t *seal_next(const Proto_Transcript *t,
                                 const Proto_Identity *id, Proto_Message *m,
                                 size_t *len)
{
    uint8_t *buf = malloc(FRAME_CAP);
    cr_assert_not_null(buf);
    memcpy(m->sender, id->pk, PROTO_KEY_BYTES);
    if (t != NULL)
        proto_transcript_next(t, m);
    cr_assert_eq(proto_seal(m, id, buf, FRAME_CAP, len, NULL), 0);
    return buf;
}

/* Add a frame to t; returns the add's result. */
static inline int add_frame(Proto_Transcript *t, const uint8_t *frame,
                            size_t len)
{
    return proto_transcript_add(t, frame + PROTO_FRAME_PREFIX,
                                len - PROTO_FRAME_PREFIX, NULL);
}

static inline void keep(Frames *f, uint8_t *buf, size_t len)
{
    cr_assert_lt(f->n, FRAMES_MAX);
    f->buf[f->n] = buf;
    f->len[f->n] = len;
    f->n++;
}

/* A match start of game with options between white w and black b. */
static inline void start_msg(Proto_Message *m, const Proto_Identity *w,
                             const Proto_Identity *b, const char *game,
                             const char *options, uint8_t id_byte)
{
    proto_message_init(m, PROTO_KIND_MATCH_START, w);
    memset(m->match_id, id_byte, PROTO_MATCH_ID_BYTES);
    snprintf(m->body.start.game, sizeof m->body.start.game, "%s", game);
    snprintf(m->body.start.options, sizeof m->body.start.options, "%s",
             options);
    memcpy(m->body.start.white, w->pk, PROTO_KEY_BYTES);
    memcpy(m->body.start.black, b->pk, PROTO_KEY_BYTES);
    m->body.start.started = 1700000000;
}

/* A move message for the pick-th legal move (mod their number) of t's
 * position, with the true state hash after it. */
static inline void move_msg(const Proto_Transcript *t, const Proto_Identity *id,
                            unsigned pick, Proto_Message *m)
{
    const Core_Position *pos = proto_transcript_position(t);
    Core_Position *copy = core_position_clone(pos);
    size_t cap = core_game_max_moves(core_position_game(pos)), n = 0;
    Core_Move *mv = malloc(cap * sizeof *mv);

    cr_assert_not_null(copy);
    cr_assert_not_null(mv);
    cr_assert_eq(core_moves(copy, mv, cap, &n), 0);
    cr_assert_gt(n, 0);
    proto_message_init(m, PROTO_KIND_MOVE, id);
    m->body.move.ply = core_ply(pos) + 1;
    cr_assert_eq(core_move_format(copy, &mv[pick % n], m->body.move.move,
                                  sizeof m->body.move.move),
                 0);
    cr_assert_eq(core_play(copy, &mv[pick % n]), 0);
    cr_assert_eq(proto_state_hash(copy, m->body.move.hash), 0);
    free(mv);
    core_position_free(copy);
}

/* The identity whose turn it is in t. */
static inline const Proto_Identity *to_move(const Proto_Transcript *t,
                                            const Proto_Identity *w,
                                            const Proto_Identity *b)
{
    return core_side_to_move(proto_transcript_position(t)) == CORE_WHITE ? w
                                                                         : b;
}

/*
 * Play a whole match of game (options) into t and f: the start, then moves
 * chosen by seed until the game ends or max_plies, with a chat after the
 * first move. Every frame is added to t (and must be accepted).
 */
static inline void play_match(Proto_Transcript *t, Frames *f,
                              const Proto_Identity *w, const Proto_Identity *b,
                              const char *game, const char *options,
                              unsigned seed, unsigned max_plies)
{
    Proto_Message m;
    size_t len;
    uint8_t *buf;

    start_msg(&m, w, b, game, options, (uint8_t)seed);
    buf = seal_next(t, w, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
    keep(f, buf, len);
    for (unsigned ply = 0; ply < max_plies; ply++) {
        if (proto_transcript_status(t).outcome != CORE_ONGOING)
            break;
        const Proto_Identity *id = to_move(t, w, b);
        move_msg(t, id, seed * 7 + ply * 13 + ply / 3, &m);
        buf = seal_next(t, id, &m, &len);
        cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
        keep(f, buf, len);
        if (ply == 0) {
            proto_message_init(&m, PROTO_KIND_CHAT, b);
            snprintf(m.body.text.text, sizeof m.body.text.text, "%s",
                     "good luck \xc3\xa9");
            buf = seal_next(t, b, &m, &len);
            cr_assert_eq(add_frame(t, buf, len), 0, "%s",
                         proto_transcript_why(t));
            keep(f, buf, len);
        }
    }
}

/*
 * Close a match that is still running with a signed resignation of the
 * side to move (kept in f), as a player who stops does: an end record
 * only closes a log whose envelopes ended the match.
 */
static inline void resign_if_running(Proto_Transcript *t, Frames *f,
                                     const Proto_Identity *w,
                                     const Proto_Identity *b)
{
    Proto_Message m;
    const Proto_Identity *id;
    size_t len;
    uint8_t *buf;

    if (proto_transcript_status(t).outcome != CORE_ONGOING)
        return;
    id = to_move(t, w, b);
    proto_message_init(&m, PROTO_KIND_RESIGN, id);
    buf = seal_next(t, id, &m, &len);
    cr_assert_eq(add_frame(t, buf, len), 0, "%s", proto_transcript_why(t));
    keep(f, buf, len);
}

#endif /* TABULA_TEST_MATCH_UTIL_H */
