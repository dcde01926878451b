/*
 * rating_log.c: what a verified match log gives the ratings (club.h,
 * "ratings"; docs/ratings.md): its players, game, time-control class and
 * result, or why it gives none. The only part of the ratings that needs
 * proto/'s verifier (and so libsodium): rating.c stays libc only for the
 * cross-build check.
 */
#include <stdio.h>
#include <string.h>

#include "club.h"

Club_Class club_class_of(const Proto_Clock *c)
{
    return (Club_Class)proto_clock_class(c);
}

/* The hash of the first envelope (the match start): the match's id. */
typedef struct First_Envelope {
    int seen;
    uint8_t id[PROTO_HASH_BYTES];
} First_Envelope;

static void first_envelope(void *ctx, const Proto_Transcript *t,
                           const Proto_Envelope *e)
{
    First_Envelope *f = ctx;
    (void)t;
    if (!f->seen) {
        memcpy(f->id, e->hash, PROTO_HASH_BYTES);
        f->seen = 1;
    }
}

int club_log_open(const uint8_t *buf, size_t len, Proto_Log_Visit visit,
                  void *ctx, Proto_Transcript **t, Proto_Log_Report *rep,
                  char *why, size_t cap)
{
    int rc;
    *t = NULL;
    if (why != NULL && cap > 0)
        why[0] = '\0';
    memset(rep, 0, sizeof *rep);
    rc = proto_log_verify_witnessed(buf, len, NULL, visit, NULL, ctx, t, rep);
    /* A log whose whole envelopes up to its fault hold a match already
     * over gives that match: what comes after an end cannot change it,
     * and anyone may cut a log at an envelope (the end record is not
     * signed). A trial spoiled a relay's copy of a lost game so: one more
     * envelope signed by the loser after the end, and the loss left the
     * published list. A fault before the end gives nothing, as before. */
    if (rc != 0 && rep->envelopes > 0 && rep->offset > 0 &&
        rep->offset < len) {
        Proto_Log_Report cut;
        Proto_Transcript *tc = NULL;
        memset(&cut, 0, sizeof cut);
        if (proto_log_verify_witnessed(buf, rep->offset, NULL, visit, NULL,
                                       ctx, &tc, &cut) == 0 &&
            tc != NULL &&
            proto_log_status(tc, &cut).outcome != CORE_ONGOING) {
            proto_transcript_free(*t);
            *t = tc;
            *rep = cut;
            return 0;
        }
        proto_transcript_free(tc);
    }
    if (rc != 0) {
        if (why != NULL && cap > 0)
            snprintf(why, cap, "%s",
                     rep->why[0] != '\0' ? rep->why : tb_strerror(rc));
        proto_transcript_free(*t);
        *t = NULL;
    }
    return rc;
}

int club_game_from_log(const uint8_t *buf, size_t len, uint32_t source,
                       Club_Rated_Game *out, Club_Verdict *verdict, char *why,
                       size_t cap)
{
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    First_Envelope first = {0, {0}};
    const Proto_Message *start;
    Core_Status st;
    int rc;

    if (buf == NULL || out == NULL || verdict == NULL)
        return TB_E_ARG;
    rc = club_log_open(buf, len, first_envelope, &first, &t, &rep, why, cap);
    if (rc != 0)
        return rc;
    memset(out, 0, sizeof *out);
    start = t != NULL ? proto_transcript_start(t) : NULL;
    if (start == NULL || !first.seen) {
        *verdict = CLUB_UNFINISHED;
        proto_transcript_free(t);
        return 0;
    }
    st = proto_log_status(t, &rep);
    if (st.outcome == CORE_ONGOING)
        *verdict = CLUB_UNFINISHED;
    else if (st.outcome == CORE_ABORTED)
        *verdict = CLUB_ABORTED;
    else if (!proto_transcript_moved(t, CORE_WHITE) ||
             !proto_transcript_moved(t, CORE_BLACK))
        *verdict = CLUB_UNMOVED;
    else if (memcmp(start->body.start.white, start->body.start.black,
                    PROTO_KEY_BYTES) == 0)
        *verdict = CLUB_SELF;
    else
        *verdict = CLUB_RATED;
    if (*verdict == CLUB_RATED) {
        snprintf(out->game, sizeof out->game, "%s", start->body.start.game);
        out->klass = (uint8_t)club_class_of(proto_transcript_clock(t));
        memcpy(out->white, start->body.start.white, PROTO_KEY_BYTES);
        memcpy(out->black, start->body.start.black, PROTO_KEY_BYTES);
        out->score = st.outcome == CORE_WIN_WHITE ? 2
                     : st.outcome == CORE_DRAW    ? 1
                                                  : 0;
        out->started = start->body.start.started;
        out->nrelays = (uint8_t)(rep.relays < 8 ? rep.relays : 8);
        memcpy(out->relay, rep.relay, out->nrelays * sizeof rep.relay[0]);
        memcpy(out->id, first.id, PROTO_HASH_BYTES);
        out->source = source;
    }
    proto_transcript_free(t);
    return 0;
}
