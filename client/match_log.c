/*
 * match_log.c: a signed match log of a game `tabula match --logs DIR`
 * played (issue 38): the bots' keys sign the match start, every move with
 * the state hash after it, and the end a runner decided (a resignation
 * for a loss on time, a draw agreed at the ply guard), as two players'
 * seats would have signed them, so `tabula ratings` and `tabula replay`
 * read these logs as any other (version 1: no relay witnessed them).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "proto.h"
#include "tb_error.h"

int cli_match_bot_identity(const char *spec, Proto_Identity *id)
{
    static const char tag[] = "tabula match bot ";
    uint8_t seed[PROTO_HASH_BYTES];
    size_t n = strlen(spec);
    uint8_t *text = malloc(sizeof tag - 1 + n);
    int rc;
    if (text == NULL)
        return TB_E_NOMEM;
    memcpy(text, tag, sizeof tag - 1);
    memcpy(text + sizeof tag - 1, spec, n);
    /* (BLAKE2b-256 of the tag and the spec: proto's one plain hash) */
    rc = proto_receipt_hash(text, sizeof tag - 1 + n, seed);
    free(text);
    if (rc == 0)
        rc = proto_identity_from_seed(id, seed);
    return rc;
}

typedef struct Log_Writer {
    Proto_Transcript *t;
    Proto_Log *log;
    uint8_t frame[PROTO_FRAME_PREFIX + PROTO_FRAME_MAX];
} Log_Writer;

/* Seal m as t's next message from id, add it to t and to the log (made
 * at path from the match start when there is none yet). */
static int put(Log_Writer *w, const char *path, const Proto_Identity *id,
               Proto_Message *m)
{
    size_t len;
    int rc;
    memcpy(m->sender, id->pk, PROTO_KEY_BYTES);
    proto_transcript_next(w->t, m);
    if ((rc = proto_seal(m, id, w->frame, sizeof w->frame, &len, NULL)) != 0 ||
        (rc = proto_transcript_add(w->t, w->frame + PROTO_FRAME_PREFIX,
                                   len - PROTO_FRAME_PREFIX, NULL)) != 0)
        return rc;
    if (w->log == NULL) {
        Proto_Log_Header h;
        proto_log_header_of(proto_transcript_start(w->t), &h);
        if ((rc = proto_log_create(&w->log, path, &h)) != 0)
            return rc;
    }
    return proto_log_append(w->log, w->frame, len);
}

int cli_match_log(const char *path, const Core_Game *game, const char *options,
                  const Proto_Identity *white, const Proto_Identity *black,
                  uint64_t started, const uint8_t match_id[PROTO_MATCH_ID_BYTES],
                  const Core_Move *moves, size_t n, int end)
{
    Log_Writer w = {NULL, NULL, {0}};
    Core_Position *pos = NULL;
    Proto_Message m;
    int rc;

    if ((rc = proto_transcript_new(&w.t, NULL)) != 0 ||
        (rc = core_position_new(&pos, game, options)) != 0)
        goto done;
    proto_message_init(&m, PROTO_KIND_MATCH_START, white);
    memcpy(m.match_id, match_id, PROTO_MATCH_ID_BYTES);
    snprintf(m.body.start.game, sizeof m.body.start.game, "%s",
             core_game_name(game));
    snprintf(m.body.start.options, sizeof m.body.start.options, "%s",
             options != NULL ? options : "");
    memcpy(m.body.start.white, white->pk, PROTO_KEY_BYTES);
    memcpy(m.body.start.black, black->pk, PROTO_KEY_BYTES);
    m.body.start.started = started;
    if ((rc = put(&w, path, white, &m)) != 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        const Proto_Identity *id =
            core_side_to_move(pos) == CORE_WHITE ? white : black;
        proto_message_init(&m, PROTO_KIND_MOVE, id);
        m.body.move.ply = core_ply(pos) + 1;
        if ((rc = core_move_format(pos, &moves[i], m.body.move.move,
                                   sizeof m.body.move.move)) != 0 ||
            (rc = core_play(pos, &moves[i])) != 0 ||
            (rc = proto_state_hash(pos, m.body.move.hash)) != 0 ||
            (rc = put(&w, path, id, &m)) != 0)
            goto done;
    }
    if (proto_transcript_status(w.t).outcome == CORE_ONGOING) {
        /* the runner's end, signed by the side it goes against */
        if (end == CLI_MATCH_END_WHITE_RESIGNS ||
            end == CLI_MATCH_END_BLACK_RESIGNS) {
            const Proto_Identity *id =
                end == CLI_MATCH_END_WHITE_RESIGNS ? white : black;
            proto_message_init(&m, PROTO_KIND_RESIGN, id);
            rc = put(&w, path, id, &m);
        } else if (end == CLI_MATCH_END_DRAW) {
            const Proto_Identity *id =
                core_side_to_move(pos) == CORE_WHITE ? white : black;
            proto_message_init(&m, PROTO_KIND_DRAW_OFFER, id);
            if ((rc = put(&w, path, id, &m)) == 0) {
                id = id == white ? black : white;
                proto_message_init(&m, PROTO_KIND_DRAW_ACCEPT, id);
                rc = put(&w, path, id, &m);
            }
        }
        if (rc != 0)
            goto done;
    }
    if (proto_transcript_status(w.t).outcome != CORE_ONGOING) {
        uint8_t chain[PROTO_HASH_BYTES];
        proto_transcript_chain(w.t, chain);
        rc = proto_log_finish(w.log, proto_transcript_count(w.t), chain);
    }
done:
    if (w.log != NULL && proto_log_close(w.log) != 0 && rc == 0)
        rc = TB_E_IO;
    core_position_free(pos);
    proto_transcript_free(w.t);
    return rc;
}
