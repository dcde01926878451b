/*
 * game_glance.c: one network game at a glance (game_glance.h), for
 * `tabula games` and the page's kept games alike. The last move is the
 * board's (takebacks removed), formatted by replaying the transcript's
 * moves from the game's start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_glance.h"
#include "i18n.h"
#include "tb_error.h"

/* The last move on the board of t into out. */
static void last_move(const Proto_Transcript *t, Cli_Glance *out)
{
    const Proto_Message *start = proto_transcript_start(t);
    const Core_Game *g = core_game_find(start->body.start.game);
    size_t n = proto_transcript_moves(t);
    Core_Position *pos = NULL;
    if (n == 0 || g == NULL ||
        core_position_new(&pos, g, proto_transcript_game_options(t)) != 0)
        return;
    out->last_ply = (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        const Core_Move *mv = proto_transcript_move_at(t, i);
        if (i + 1 == n)
            (void)core_move_format(pos, mv, out->last, sizeof out->last);
        else if (core_play(pos, mv) != 0)
            break; /* (a verified transcript's moves all play) */
    }
    core_position_free(pos);
}

void cli_glance(const Proto_Transcript *t, int side, uint64_t now_ms,
                Cli_Glance *out)
{
    const Proto_Message *start = proto_transcript_start(t);
    memset(out, 0, sizeof *out);
    out->outcome = "*";
    out->reason = "";
    out->left_ms = -1;
    out->envelopes = proto_transcript_count(t);
    if (start == NULL)
        return; /* CLI_TURN_WAITING */
    snprintf(out->game, sizeof out->game, "%s", start->body.start.game);
    last_move(t, out);
    Core_Status st = proto_transcript_status(t);
    if (st.outcome != CORE_ONGOING) {
        out->turn = CLI_TURN_OVER;
        out->outcome = core_outcome_name(st.outcome);
        out->reason = core_reason_name(st.reason);
        return;
    }
    int to_move = core_side_to_move(proto_transcript_position(t));
    uint64_t from = 0;
    int64_t at_start[2] = {0, 0};
    out->turn = to_move == side ? CLI_TURN_YOU : CLI_TURN_OPPONENT;
    if (proto_transcript_clock_turn(t, &from, at_start) == to_move) {
        int64_t used = now_ms > from ? (int64_t)(now_ms - from) : 0;
        out->left_ms = at_start[to_move] > used ? at_start[to_move] - used : 0;
    }
}

int cli_glance_log(const uint8_t *buf, size_t len, int side, uint64_t now_ms,
                   Cli_Glance *out)
{
    Proto_Transcript *t = NULL;
    Proto_Log_Report rep;
    int rc = proto_log_verify_witnessed(buf, len, NULL, NULL, NULL, NULL,
                                        &t, &rep);
    memset(out, 0, sizeof *out);
    if ((rc != 0 && rc != TB_E_TRUNCATED) || t == NULL) {
        proto_transcript_free(t);
        return rc != 0 ? rc : TB_E_TRUNCATED; /* (an empty or cut log) */
    }
    cli_glance(t, side, now_ms, out);
    proto_transcript_free(t);
    return 0;
}

void cli_left_text(int64_t ms, int words, char *out, size_t cap)
{
    /* TRANSLATORS: the time left on a clock: days and hours, hours and
     * minutes, minutes and seconds, seconds (2d23h) */
    static const char *const forms[] = {N_("%ud%uh"), N_("%uh%um"),
                                        N_("%um%us"), N_("%us")};
    uint64_t s = ms > 0 ? (uint64_t)ms / 1000 : 0;
    unsigned a, b;
    int f;
    if (s >= 86400)
        f = 0, a = (unsigned)(s / 86400), b = (unsigned)(s % 86400 / 3600);
    else if (s >= 3600)
        f = 1, a = (unsigned)(s / 3600), b = (unsigned)(s % 3600 / 60);
    else if (s >= 60)
        f = 2, a = (unsigned)(s / 60), b = (unsigned)(s % 60);
    else
        f = 3, a = (unsigned)s, b = 0;
    const char *form = words ? _(forms[f]) : forms[f];
    if (f == 3)
        snprintf(out, cap, form, a);
    else
        snprintf(out, cap, form, a, b);
}
