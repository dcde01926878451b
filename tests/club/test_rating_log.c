/*
 * test_rating_log.c: what a log gives the ratings (club/rating_log.c):
 * a finished game with its players, result and class; no rated game from
 * an aborted one, one where a side never moved, or one still on; a log
 * with a byte changed refused with its reason; the time-control classes
 * at lichess's bounds.
 */
#include <criterion/criterion.h>

#include "club.h"
#include "proto/match_util.h"

/* The log of frames f (the start first) in memory: its bytes copied into
 * a new buffer *len long; finish adds the end record. */
static uint8_t *log_bytes(Proto_Transcript *t, const Frames *f, int finish,
                          size_t *len)
{
    Proto_Log *log;
    Proto_Log_Header h;
    uint8_t chain[PROTO_HASH_BYTES];
    proto_log_header_of(proto_transcript_start(t), &h);
    cr_assert_eq(proto_log_create_memory(&log, &h), 0);
    for (size_t i = 0; i < f->n; i++)
        cr_assert_eq(proto_log_append(log, f->buf[i], f->len[i]), 0);
    if (finish) {
        proto_transcript_chain(t, chain);
        cr_assert_eq(proto_log_finish(log, proto_transcript_count(t), chain), 0);
    }
    const uint8_t *b = proto_log_bytes(log, len);
    uint8_t *copy = malloc(*len);
    cr_assert_not_null(copy);
    memcpy(copy, b, *len);
    proto_log_close(log);
    return copy;
}

/* A match of laska between identities 1 and 2 with options, ended by the
 * side to move resigning after plies plies, then the message kind end
 * (0: none) from white. */
static uint8_t *a_match(const char *options, unsigned plies, int resign,
                        int end, size_t *len)
{
    Proto_Identity w = ident(1), b = ident(2);
    Proto_Transcript *t;
    Frames f = {0};
    cr_assert_eq(proto_transcript_new(&t, NULL), 0);
    play_match(t, &f, &w, &b, "laska", options, 3, plies);
    if (end != 0) {
        Proto_Message m;
        size_t l;
        proto_message_init(&m, (Proto_Kind)end, &w);
        uint8_t *buf = seal_next(t, &w, &m, &l);
        cr_assert_eq(add_frame(t, buf, l), 0, "%s", proto_transcript_why(t));
        keep(&f, buf, l);
    }
    if (resign)
        resign_if_running(t, &f, &w, &b);
    uint8_t *bytes = log_bytes(t, &f, proto_transcript_status(t).outcome !=
                                          CORE_ONGOING, len);
    frames_free(&f);
    proto_transcript_free(t);
    return bytes;
}

Test(rating_log, finished_game_is_rated)
{
    size_t len;
    uint8_t *buf = a_match("", 20, 1, 0, &len);
    Club_Rated_Game g;
    Club_Verdict v = CLUB_UNFINISHED;
    char why[128];
    Proto_Identity w = ident(1), b = ident(2);
    cr_assert_eq(club_game_from_log(buf, len, 7, &g, &v, why, sizeof why), 0,
                 "%s", why);
    cr_assert_eq(v, CLUB_RATED);
    cr_assert_str_eq(g.game, "laska");
    cr_assert_eq(g.klass, CLUB_CLASS_UNTIMED);
    cr_assert_eq(memcmp(g.white, w.pk, PROTO_KEY_BYTES), 0);
    cr_assert_eq(memcmp(g.black, b.pk, PROTO_KEY_BYTES), 0);
    /* after 20 plies white is to move and resigns: black wins */
    cr_assert_eq(g.score, 0);
    cr_assert_eq(g.started, 1700000000);
    cr_assert_eq(g.source, 7);
    uint8_t zero[PROTO_HASH_BYTES] = {0};
    cr_assert_neq(memcmp(g.id, zero, sizeof zero), 0);
    /* one byte changed: refused, with a reason */
    buf[len / 2] ^= 1;
    cr_assert_lt(club_game_from_log(buf, len, 7, &g, &v, why, sizeof why), 0);
    cr_assert_neq(why[0], '\0');
    free(buf);
}

Test(rating_log, unrated_games)
{
    size_t len;
    Club_Rated_Game g;
    Club_Verdict v;
    uint8_t *buf = a_match("", 0, 0, PROTO_KIND_ABORT, &len);
    cr_assert_eq(club_game_from_log(buf, len, 0, &g, &v, NULL, 0), 0);
    cr_assert_eq(v, CLUB_ABORTED);
    free(buf);
    /* white moves once, then black resigns: black never moved */
    buf = a_match("", 1, 1, 0, &len);
    cr_assert_eq(club_game_from_log(buf, len, 0, &g, &v, NULL, 0), 0);
    cr_assert_eq(v, CLUB_UNMOVED);
    free(buf);
    /* still on: no end */
    buf = a_match("", 6, 0, 0, &len);
    cr_assert_eq(club_game_from_log(buf, len, 0, &g, &v, NULL, 0), 0);
    cr_assert_eq(v, CLUB_UNFINISHED);
    /* cut inside a frame: torn */
    char why[128];
    cr_assert_eq(club_game_from_log(buf, len - 3, 0, &g, &v, why, sizeof why),
                 TB_E_TRUNCATED);
    free(buf);
}

Test(rating_log, classes_at_lichess_bounds)
{
    Proto_Clock c = {PROTO_CLOCK_NONE, 0, 0, 0, 0};
    cr_assert_eq(club_class_of(&c), CLUB_CLASS_UNTIMED);
    cr_assert_eq(club_class_of(NULL), CLUB_CLASS_UNTIMED);
    c.kind = PROTO_CLOCK_FISCHER;
    c.base_ms = 179000; /* 2:59 + 0 */
    cr_assert_eq(club_class_of(&c), CLUB_CLASS_BULLET);
    c.base_ms = 180000; /* 3 + 0 */
    cr_assert_eq(club_class_of(&c), CLUB_CLASS_BLITZ);
    c.base_ms = 120000; /* 2 + 1: 160 s */
    c.inc_ms = 1000;
    cr_assert_eq(club_class_of(&c), CLUB_CLASS_BULLET);
    c.base_ms = 300000; /* 5 + 5: 500 s */
    c.inc_ms = 5000;
    cr_assert_eq(club_class_of(&c), CLUB_CLASS_RAPID);
    c.base_ms = 1500000; /* 25 + 0 */
    c.inc_ms = 0;
    cr_assert_eq(club_class_of(&c), CLUB_CLASS_CLASSICAL);
    c.base_ms = 1499000;
    cr_assert_eq(club_class_of(&c), CLUB_CLASS_RAPID);
    c.kind = PROTO_CLOCK_DAYS;
    c.base_ms = 86400000;
    cr_assert_eq(club_class_of(&c), CLUB_CLASS_CORRESPONDENCE);
}
