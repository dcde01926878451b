/*
 * conduct.c: what the local side of a session does on its turn
 * (docs/protocol.md, G-MC-1..9): the player's queued lines (a move,
 * resign, draw, accept, decline, abort, takeback N, claim win/draw), or a
 * bot's moves and its answers to offers, and the line every seat and
 * spectator shows for each conduct envelope. A seat appends to the shared
 * chain only while it is to move, or to answer a takeback request the
 * mover waits on (G-MC-1), so two envelopes never race for one sequence
 * number. The test switch perturb_ply makes a player's own state diverge
 * at its first move at that ply or later (it applies another legal move
 * than the one it sends), to prove the desync is caught at that ply.
 */
#include <stdlib.h>
#include <string.h>

#include "match_internal.h"

void match__show_conduct(Match *s, uint64_t now, const Proto_Message *m)
{
    int from = proto_transcript_side_of(s->t, m->sender);
    const char *who = match__side_word(from);
    const Core_Position *pos = proto_transcript_position(s->t);
    /* The player asked gets how to answer; its maker, when the answer
     * comes. */
    int asked = match_side(s) == 1 - from;
    int mine = from >= 0 && match_side(s) == from;
    char n[21];
    int code = MATCH_NOTE_TEXT;
    switch ((Proto_Kind)m->kind) {
    case PROTO_KIND_DRAW_OFFER:
        code = asked  ? MATCH_NOTE_DRAW_OFFER_TO_YOU
               : mine ? MATCH_NOTE_DRAW_OFFER_YOURS
                      : MATCH_NOTE_DRAW_OFFER;
        break;
    case PROTO_KIND_DRAW_ACCEPT: code = MATCH_NOTE_DRAW_ACCEPT; break;
    case PROTO_KIND_DRAW_DECLINE: code = MATCH_NOTE_DRAW_DECLINE; break;
    case PROTO_KIND_RESIGN: code = MATCH_NOTE_RESIGN; break;
    case PROTO_KIND_ABORT: code = MATCH_NOTE_ABORT; break;
    case PROTO_KIND_TAKEBACK_DECLINE: code = MATCH_NOTE_TAKEBACK_DECLINE; break;
    case PROTO_KIND_TAKEBACK_REQUEST:
        match__say(s, 0,
                   asked ? MATCH_NOTE_TAKEBACK_ASK_YOU : MATCH_NOTE_TAKEBACK_ASK,
                   who, match__u(n, m->body.takeback.plies), NULL, NULL);
        return;
    case PROTO_KIND_TAKEBACK_ACCEPT: {
        char hex[PROTO_HASH_HEX];
        uint8_t hash[PROTO_HASH_BYTES];
        hex[0] = '\0';
        if (proto_state_hash(pos, hash) == 0)
            proto_hex(hash, sizeof hash, hex);
        hex[16 < sizeof hex ? 16 : sizeof hex - 1] = '\0';
        s->result.plies = core_ply(pos);
        match__turn_restart(s, now); /* G-MC-8: clocks keep their time */
        s->flag_sent = s->own_flag_said = 0;
        match__say(s, 0, MATCH_NOTE_TAKEBACK_ACCEPT, who,
                   match__u(n, core_ply(pos)),
                   match__side_word(core_side_to_move(pos)), hex);
        return;
    }
    case PROTO_KIND_FLAG:
        match__say(s, 0, MATCH_NOTE_FLAG, who,
                   match__side_word(core_side_to_move(pos)),
                   match__u(n, m->body.flag.elapsed), NULL);
        return;
    case PROTO_KIND_CLAIM:
        code = m->body.claim.what == PROTO_CLAIM_DRAW ? MATCH_NOTE_CLAIM_DRAW
                                                      : MATCH_NOTE_CLAIM_WIN;
        break;
    default:
        return;
    }
    match__say(s, 0, code, who, NULL, NULL, NULL);
}

void match_refused_line(Match *s, const char *line, const char *why)
{
    match__say(s, 0, MATCH_NOTE_REFUSED_LINE, line, why, NULL, NULL);
}

/* A seat's own line refused (code: a MATCH_NOTE_REFUSED_*). */
static void say_refused(Match *s, const char *line, int code)
{
    match__say(s, 0, code, line, NULL, NULL, NULL);
}

/* Send a conduct message of kind (plies for takebacks) and show it. */
static int send_conduct(Match *s, uint64_t now, Proto_Kind kind,
                        uint32_t plies)
{
    Proto_Message m;
    proto_message_init(&m, kind, &s->cfg.id);
    if (kind == PROTO_KIND_TAKEBACK_REQUEST ||
        kind == PROTO_KIND_TAKEBACK_ACCEPT)
        m.body.takeback.plies = plies;
    int rc = match__send_msg(s, now, &m);
    if (rc != 0) {
        match__say(s, 0, MATCH_NOTE_REFUSED_SEND, proto_kind_name(kind),
                   tb_strerror(rc), proto_transcript_why(s->t), NULL);
    } else {
        match__show_conduct(s, now, &m);
    }
    return rc;
}

size_t match_takeback_plies(const Core_Position *start, const Core_Move *moves,
                            size_t n, unsigned sides)
{
    sides &= 3u;
    if (sides == 0 || sides == 3)
        return n > 0 ? 1 : 0;
    Core_Position *pos = core_position_clone(start);
    size_t last = SIZE_MAX; /* the index of those sides' last ply */
    if (pos == NULL)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (sides & (1u << core_side_to_move(pos)))
            last = i;
        if (core_play(pos, &moves[i]) != 0) {
            last = SIZE_MAX;
            break;
        }
    }
    core_position_free(pos);
    return last == SIZE_MAX ? 0 : n - last;
}

/* A plain `takeback` of side's seat (match_takeback_plies), at most 255
 * plies (G-MC-4). */
static uint32_t takeback_plies(const Match *s, int side)
{
    size_t n = proto_transcript_moves(s->t), plies = 0;
    Core_Position *start = NULL;
    Core_Move *moves = malloc((n ? n : 1) * sizeof *moves);
    if (match__started(s) && moves != NULL &&
        core_position_new(&start, s->game,
                          proto_transcript_game_options(s->t)) == 0) {
        for (size_t i = 0; i < n; i++)
            moves[i] = *proto_transcript_move_at(s->t, i);
        plies = match_takeback_plies(start, moves, n, 1u << side);
    }
    core_position_free(start);
    free(moves);
    return plies > 255 ? 0 : (uint32_t)plies;
}

/* The test switch: apply another legal move than mv to a copy. */
static void perturb(Match *s, const Core_Move *mv)
{
    const Core_Position *pos = proto_transcript_position(s->t);
    size_t cap = 64, n = 0;
    Core_Move *buf = NULL;
    for (;;) {
        Core_Move *grown = realloc(buf, cap * sizeof *buf);
        if (grown == NULL)
            break;
        buf = grown;
        if (core_moves(pos, buf, cap, &n) != TB_E_TOOMANY)
            break;
        cap *= 2;
    }
    for (size_t i = 0; i < n; i++) {
        if (core_move_equal(&buf[i], mv))
            continue;
        s->perturbed = core_position_clone(pos);
        if (s->perturbed != NULL && core_play(s->perturbed, &buf[i]) != 0) {
            core_position_free(s->perturbed);
            s->perturbed = NULL;
        }
        break;
    }
    free(buf);
}

/* The perturbed move: our state differs, the hash we send is of it. */
static int send_perturbed(Match *s, uint64_t now, Proto_Message *m)
{
    size_t len = 0;
    int rc;
    Match_Text t = match__note(s, 1);
    match__put(&t, "test: perturbed own state at ply ");
    match__put_u(&t, m->body.move.ply);
    proto_state_hash(s->perturbed, m->body.move.hash);
    proto_transcript_next(s->t, m);
    rc = proto_seal(m, &s->cfg.id, s->buf, MATCH_FRAME_CAP, &len, NULL);
    if (rc != 0)
        return rc;
    const uint8_t *env = s->buf + PROTO_FRAME_PREFIX;
    size_t env_len = len - PROTO_FRAME_PREFIX;
    rc = proto_transcript_add(s->t, env, env_len, NULL);
    if (rc != 0 && rc != TB_E_DESYNC)
        return rc;
    if ((rc = match__keep(s, env, env_len)) != 0)
        return rc;
    s->frames[s->nframes - 1].ours = 1;
    match__log(s, s->nframes - 1);
    match__relay(s, now, s->nframes - 1);
    s->desync = 1;
    s->desync_ply = m->body.move.ply;
    s->moves++;
    match__show_ply(s, m->body.move.ply, match_side(s), m->body.move.move,
                    m->body.move.hash);
    return 0;
}

int match__move_msg(Match *s, uint64_t now, const Core_Move *mv,
                    Proto_Message *m)
{
    const Core_Position *pos = proto_transcript_position(s->t);
    Core_Position *after = core_position_clone(pos);
    int rc;

    if (after == NULL)
        return TB_E_NOMEM;
    proto_message_init(m, PROTO_KIND_MOVE, &s->cfg.id);
    m->body.move.ply = core_ply(pos) + 1;
    rc = core_move_format(pos, mv, m->body.move.move, sizeof m->body.move.move);
    if (rc == 0)
        rc = core_play(after, mv);
    if (rc == 0)
        rc = proto_state_hash(after, m->body.move.hash);
    core_position_free(after);
    if (rc == 0 && (rc = match__clock_for_move(s, now, m)) != 0) {
        match__say(s, 0, MATCH_NOTE_REFUSED_TIME_UP, NULL, NULL, NULL, NULL);
    }
    return rc;
}

int match__send_move(Match *s, uint64_t now, Proto_Message *m)
{
    /* The move's ply and clock lines answer no line (Match_Note.answer):
     * the ply is its answer. */
    int answering = s->answering;
    s->answering = 0;
    int rc = match__send_msg(s, now, m);
    if (rc == 0) {
        s->moves++;
        match__show_ply(s, m->body.move.ply, match_side(s), m->body.move.move,
                        m->body.move.hash);
        match__clock_after_move(s, now, match_side(s), m);
    }
    s->answering = answering;
    return rc;
}

int match__play_move(Match *s, uint64_t now, const Core_Move *mv)
{
    Proto_Message m;
    int rc = match__move_msg(s, now, mv, &m);
    if (rc != 0)
        return rc;
    if (s->cfg.perturb_ply != 0 && s->perturbed == NULL &&
        m.body.move.ply >= s->cfg.perturb_ply) {
        perturb(s, mv);
        if (s->perturbed != NULL)
            return send_perturbed(s, now, &m);
    }
    return match__send_move(s, now, &m);
}

int match_conduct_line(const char *line)
{
    static const char *const words[] = {"resign", "draw",  "accept",
                                        "decline", "abort", "takeback",
                                        "claim"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i]);
        if (strncmp(line, words[i], n) == 0 &&
            (line[n] == '\0' || line[n] == ' ' || line[n] == '\t'))
            return 1;
    }
    return 0;
}

int match_parse_takeback(const char *line, unsigned *n)
{
    const char *p;
    unsigned v = 0;
    if (strcmp(line, "takeback") == 0) {
        *n = 0;
        return 1;
    }
    if (strncmp(line, "takeback", 8) != 0 ||
        (line[8] != ' ' && line[8] != '\t'))
        return 0;
    p = line + 9;
    while (*p == ' ' || *p == '\t')
        p++;
    for (; *p >= '0' && *p <= '9' && v <= 255; p++)
        v = v * 10 + (unsigned)(*p - '0');
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '\0' || v == 0 || v > 255)
        return -1;
    *n = v;
    return 1;
}

/*
 * One line of the local player, when it can be used. Returns 1 when the
 * line was used (sent or refused), 0 when it must wait. This is the one
 * place a typed line is read: commands are matched here, anything else is
 * taken as a move.
 */
static int line_notes(Match *s, uint64_t now, const char *line, int my_turn);

/* Carry out one of the seat's own lines (0: it waits for our turn); the
 * notes it makes answer that line, bar a played move's ply and clock
 * lines. */
static int do_line(Match *s, uint64_t now, const char *line, int my_turn)
{
    s->answering = 1;
    int done = line_notes(s, now, line, my_turn);
    s->answering = 0;
    return done;
}

static int line_notes(Match *s, uint64_t now, const char *line, int my_turn)
{
    const Core_Position *pos = proto_transcript_position(s->t);
    int side = match_side(s);
    uint32_t tb_plies = 0;
    int tb = proto_transcript_takeback(s->t, &tb_plies);
    int offer = proto_transcript_draw_offer(s->t);
    unsigned n = 0;
    int tb_count;

    if (strcmp(line, "claim win") == 0 || strcmp(line, "claim draw") == 0) {
        Proto_Message m;
        if (match_absence_left(s, now) != 0) {
            say_refused(s, line, MATCH_NOTE_REFUSED_NOT_ABSENT);
            return 1;
        }
        if (line[6] == 'w' && match__own_flag(s, now)) {
            say_refused(s, line, MATCH_NOTE_REFUSED_LINE_TIME_UP);
            return 1;
        }
        proto_message_init(&m, PROTO_KIND_CLAIM, &s->cfg.id);
        m.body.claim.what = line[6] == 'd' ? PROTO_CLAIM_DRAW : PROTO_CLAIM_WIN;
        if (match__send_msg(s, now, &m) != 0)
            match__say(s, 0, MATCH_NOTE_REFUSED_LINE, line,
                       proto_transcript_why(s->t), NULL, NULL);
        else
            match__show_conduct(s, now, &m);
        return 1;
    }
    if (strcmp(line, "accept") == 0 || strcmp(line, "decline") == 0) {
        int yes = line[0] == 'a';
        if (tb == 1 - side) {
            send_conduct(s, now, yes ? PROTO_KIND_TAKEBACK_ACCEPT
                                     : PROTO_KIND_TAKEBACK_DECLINE,
                         tb_plies);
            return 1;
        }
        if (offer == 1 - side) {
            if (!my_turn)
                return 0; /* answered on our turn */
            send_conduct(s, now, yes ? PROTO_KIND_DRAW_ACCEPT
                                     : PROTO_KIND_DRAW_DECLINE,
                         0);
            return 1;
        }
        say_refused(s, line, MATCH_NOTE_REFUSED_NOTHING_TO_ANSWER);
        return 1;
    }
    if (!my_turn)
        return 0;
    if (tb == side)
        return 0; /* our takeback request waits for its answer */
    if (strcmp(line, "resign") == 0) {
        send_conduct(s, now, PROTO_KIND_RESIGN, 0);
        return 1;
    }
    if (strcmp(line, "draw") == 0) {
        if (offer == side)
            say_refused(s, "draw", MATCH_NOTE_REFUSED_OFFER_STANDS);
        else if (offer == 1 - side)
            say_refused(s, "draw", MATCH_NOTE_REFUSED_ACCEPT_THEIRS);
        else if (proto_transcript_draw_offers(s->t, side) >=
                 PROTO_DRAW_OFFERS_MAX)
            say_refused(s, "draw", MATCH_NOTE_REFUSED_DRAW_LIMIT);
        else
            send_conduct(s, now, PROTO_KIND_DRAW_OFFER, 0);
        return 1;
    }
    if (strcmp(line, "abort") == 0) {
        if (proto_transcript_moved(s->t, CORE_WHITE) &&
            proto_transcript_moved(s->t, CORE_BLACK))
            say_refused(s, "abort", MATCH_NOTE_REFUSED_ABORT_LATE);
        else
            send_conduct(s, now, PROTO_KIND_ABORT, 0);
        return 1;
    }
    if ((tb_count = match_parse_takeback(line, &n)) != 0) {
        uint32_t plies = n > 0 ? n : takeback_plies(s, side);
        if (tb_count < 0)
            say_refused(s, line, MATCH_NOTE_REFUSED_TAKEBACK_RANGE);
        else if (plies == 0 || plies > proto_transcript_moves(s->t))
            say_refused(s, line, MATCH_NOTE_REFUSED_NOTHING_TO_TAKE_BACK);
        else
            send_conduct(s, now, PROTO_KIND_TAKEBACK_REQUEST, plies);
        return 1;
    }
    /* A conduct word the lines above did not read ("claim  win", "resign
     * now") is a malformed command, not a move to explain. */
    if (match_conduct_line(line)) {
        say_refused(s, line, MATCH_NOTE_REFUSED_UNKNOWN);
        return 1;
    }
    Core_Move mv;
    int rc = core_move_parse(pos, line, &mv);
    if (rc != 0) {
        char shown[MATCH_NOTE_ARG_MAX];
        Match_Text t;
        match__text_init(&t, shown, sizeof shown);
        match__put_token(&t, line);
        match__say(s, 0, MATCH_NOTE_REFUSED_MOVE, shown, tb_strerror(rc),
                   core_game_move_hint(core_position_game(pos)), NULL);
        return 1;
    }
    rc = match__play_move(s, now, &mv);
    if (rc != 0 && !match__own_flag(s, now)) { /* that one said it */
        Match_Text t = match__note(s, 1);
        match__put(&t, "cannot send the move: ");
        match__put(&t, tb_strerror(rc));
    }
    return 1;
}

/* The bot's answers (G-MC-5): it declines every takeback; on its turn it
 * accepts a draw offer when its static evaluation is within
 * MATCH_BOT_DRAW_MARGIN hundredths of a pawn of level, else declines.
 * Returns 1 when it sent an answer. */
static int bot_answer(Match *s, uint64_t now, int my_turn)
{
    int side = match_side(s);
    if (proto_transcript_takeback(s->t, NULL) == 1 - side)
        return send_conduct(s, now, PROTO_KIND_TAKEBACK_DECLINE, 0) == 0;
    if (my_turn && proto_transcript_draw_offer(s->t) == 1 - side) {
        int32_t ev = core_evaluate(proto_transcript_position(s->t));
        int yes = ev >= -MATCH_BOT_DRAW_MARGIN && ev <= MATCH_BOT_DRAW_MARGIN;
        return send_conduct(s, now, yes ? PROTO_KIND_DRAW_ACCEPT
                                        : PROTO_KIND_DRAW_DECLINE,
                            0) == 0;
    }
    return 0;
}

/* A bot seat's turn: answers at once; the rest after its think delay,
 * then a THINK for the driver's search. */
static int bot_turn(Match *s, uint64_t now, int my_turn)
{
    uint64_t key = (uint64_t)proto_transcript_count(s->t) + 1;
    Match_Out *o;
    /* G-MC-9: no one sits at a bot seat to type the claim, so the bot
     * makes it once the countdown for its absent opponent has run out:
     * the win, or the draw when its own time is up. */
    if (!s->bot_claimed && match_absence_left(s, now) == 0) {
        s->bot_claimed = 1;
        return do_line(s, now,
                       match__own_flag(s, now) ? "claim draw" : "claim win",
                       my_turn);
    }
    if (proto_transcript_takeback(s->t, NULL) == 1 - match_side(s))
        return bot_answer(s, now, 0);
    if (!my_turn)
        return 0;
    if (s->cfg.bot_delay_ms > 0 && s->ready_for != key) {
        if (s->think_for != key) {
            s->think_for = key;
            s->think_at = now + s->cfg.bot_delay_ms;
        }
        return 0;
    }
    if (bot_answer(s, now, 1))
        return 1;
    if (s->think_token != key && (o = match__push(s, MATCH_OUT_THINK))) {
        s->think_token = key;
        o->seq = key;
    }
    return 0;
}

int match__take_turn(Match *s, uint64_t now, int my_turn)
{
    /* Witnessed: nothing more of ours goes out before the relay's
     * receipt of what we sent (it may end the match on time), so every
     * reader takes our envelopes and their receipts in one order. */
    if (match__own_unwitnessed(s))
        return 0;
    if (s->cfg.bot)
        return bot_turn(s, now, my_turn);
    /* Answers jump the queue: a move or request waiting for our turn
     * must not hold back the answer the opponent waits for. */
    for (size_t k = 0; k < s->line_count; k++) {
        size_t i = (s->line_head + k) % MATCH_LINES_MAX;
        if (strcmp(s->lines[i], "accept") != 0 &&
            strcmp(s->lines[i], "decline") != 0 &&
            strncmp(s->lines[i], "claim ", 6) != 0)
            continue;
        if (!do_line(s, now, s->lines[i], my_turn))
            break;
        for (size_t j = k; j + 1 < s->line_count; j++) {
            size_t to = (s->line_head + j) % MATCH_LINES_MAX,
                   from = (s->line_head + j + 1) % MATCH_LINES_MAX;
            memcpy(s->lines[to], s->lines[from], sizeof s->lines[0]);
            s->line_id[to] = s->line_id[from];
        }
        s->line_count--;
        return 1;
    }
    if (s->line_count > 0 && !match__over(s) &&
        do_line(s, now, s->lines[s->line_head], my_turn)) {
        s->line_head = (s->line_head + 1) % MATCH_LINES_MAX;
        s->line_count--;
        return 1;
    }
    return 0;
}

size_t match_lines_waiting(const Match *s)
{
    return s->line_count;
}

size_t match_unacked(const Match *s)
{
    return (size_t)s->unacked;
}

int match_command(Match *s, uint64_t now, const char *line)
{
    Match_Text t;
    if (s->cfg.role == MATCH_ROLE_SPECTATOR || s->cfg.bot)
        return TB_E_STATE;
    if (s->line_count == MATCH_LINES_MAX)
        return TB_E_LIMIT;
    size_t i = (s->line_head + s->line_count) % MATCH_LINES_MAX;
    match__text_init(&t, s->lines[i], sizeof s->lines[i]);
    match__put(&t, line);
    s->line_id[i] = ++s->line_ids;
    s->line_count++;
    match_tick(s, now);
    /* Still queued (lines only move up, so it would be the last): the
     * player is told it waits, rather than left to think it went. */
    if (s->line_count > 0 && !s->done &&
        s->line_id[(s->line_head + s->line_count - 1) % MATCH_LINES_MAX] ==
            s->line_ids) {
        char shown[MATCH_NOTE_ARG_MAX];
        match__text_init(&t, shown, sizeof shown);
        match__put_token(&t, line);
        s->answering = 1;
        match__say(s, 0,
                   strcmp(line, "accept") == 0 || strcmp(line, "decline") == 0
                       ? MATCH_NOTE_ANSWER_HELD
                       : MATCH_NOTE_LINE_HELD,
                   shown, NULL, NULL, NULL);
        s->answering = 0;
    }
    return 0;
}

int match_bot_move(Match *s, uint64_t now, uint64_t token,
                   const Core_Move *mv)
{
    int rc;
    uint64_t key = (uint64_t)proto_transcript_count(s->t) + 1;
    if (!s->cfg.bot || s->done || s->closing || s->desync ||
        match__over(s) || token != key || token != s->think_token ||
        core_side_to_move(proto_transcript_position(s->t)) != match_side(s))
        return TB_E_STATE;
    rc = match__play_move(s, now, mv);
    if (rc != 0) {
        Match_Text t = match__note(s, 1);
        match__put(&t, "bot move failed: ");
        match__put(&t, tb_strerror(rc));
        match__put(&t, " (");
        match__put(&t, proto_transcript_why(s->t));
        match__put(&t, ")");
    }
    match_tick(s, now);
    return rc;
}
