/*
 * clock.c: a session's clocks and its opponent's absence (docs/protocol.md
 * G-MC-6..9). Time is the driver's `now` in ms, kept here and in the
 * transcript's signed readings, never in core/. The readings on each move
 * are the mover's own time left and the opponent's as it accepted it; a
 * player checks the opponent's reported time used against its own
 * measurement with a lag allowance of MATCH_LAG_MS, and claims the flag
 * MATCH_FLAG_GRACE_MS after the opponent's time ran out by its measure.
 * The corrected side takes the corrector's signed view of its clock when
 * the corrector's next move arrives, so both seats then agree.
 * The transcript itself checks every flag claim against the signed
 * readings (the smaller of the claimant's view and the flagged side's own
 * reading). An opponent gone from the lobby past the absence countdown
 * may be claimed against (win or draw).
 */
#include "match_internal.h"

void match__clock_begin(Match *s, uint64_t now)
{
    s->clk = *proto_transcript_clock(s->t);
    if (s->clk.kind == PROTO_CLOCK_NONE || s->clock_on)
        return;
    if (match__witnessed(s)) {
        /* the receipts keep the clocks: nothing of ours to carry */
        s->left[0] = s->left[1] = s->clk.base_ms;
        s->resume_set = 0;
        s->clock_on = 1;
        return;
    }
    /* Resumed mid-game (a reloaded page, a restarted seat): the last
     * mover's readings are the freshest signed view of both clocks, as
     * both seats held them once it had moved; the other player's older
     * view of the last mover lacks that move's increment and time (a
     * trial saw a reloaded page and its opponent correct each other's
     * clock on every move after the reload). */
    int last = -1;
    if (proto_transcript_moves(s->t) > 0)
        last = 1 - core_side_to_move(proto_transcript_position(s->t));
    for (int x = 0; x < 2; x++) {
        uint32_t a = proto_transcript_clock_view(s->t, 0, x);
        uint32_t b = proto_transcript_clock_view(s->t, 1, x);
        s->left[x] = last == 0 || last == 1
                         ? proto_transcript_clock_view(s->t, last, x)
                         : (a < b ? a : b);
    }
    /* A resumed seat's running turn goes on (match_resume_turn): the
     * time it ran is carried, since the driver's ms may start at 0 after
     * a restart (a reloaded page's performance.now()). */
    match__turn_restart(s, now);
    if (s->resume_set) /* and the wait for the relay since */
        s->turn_carry = s->resume_turn +
                        (now > s->resume_at ? now - s->resume_at : 0);
    s->resume_turn = 0;
    s->resume_set = 0;
    s->clock_on = 1;
}

void match__turn_restart(Match *s, uint64_t now)
{
    s->turn_at = now;
    s->turn_carry = 0;
}

static int64_t since(uint64_t now, uint64_t at)
{
    return now >= at ? (int64_t)(now - at) : 0;
}

static void show_clock(Match *s);

/* The witnessed clocks at now: the side whose clock runs (-1: none),
 * each side's time left at the start of its turn, and *el the ms the
 * running turn has had by the relay's clock as this seat reads it (its
 * time at our welcome, run on by ours). */
static int wclock(const Match *s, uint64_t now, int64_t left[2], int64_t *el)
{
    uint64_t from = 0;
    int x = proto_transcript_clock_turn(s->t, &from, left);
    int64_t relay_now = (int64_t)now + s->relay_off;
    *el = x >= 0 && s->relay_known && relay_now > (int64_t)from
              ? relay_now - (int64_t)from
              : 0;
    return x;
}

/* ms the turn in progress has run at now, carried time included. */
static int64_t turn_ms(const Match *s, uint64_t now)
{
    return since(now, s->turn_at) + (int64_t)s->turn_carry;
}

void match_resume_turn(Match *s, uint64_t now, uint64_t elapsed_ms)
{
    if (s->welcomed || s->clock_on || s->nframes == 0)
        return; /* only a seat taken back from its log, before it goes on */
    s->resume_turn = elapsed_ms < MATCH_RESUME_TURN_MAX_MS
                         ? elapsed_ms
                         : MATCH_RESUME_TURN_MAX_MS;
    s->resume_at = now;
    s->resume_set = 1;
}

uint64_t match_turn_away(uint64_t turn_at, uint64_t now)
{
    if (turn_at == 0 || now <= turn_at)
        return 0;
    return now - turn_at < MATCH_RESUME_TURN_MAX_MS ? now - turn_at
                                                    : MATCH_RESUME_TURN_MAX_MS;
}

int64_t match_turn_elapsed(const Match *s, uint64_t now)
{
    if (!s->clock_on || match__over(s))
        return -1;
    if (match__witnessed(s)) {
        int64_t left[2], el;
        return wclock(s, now, left, &el) >= 0 ? el : 0;
    }
    return turn_ms(s, now);
}

void match__clock_witnessed(Match *s, uint64_t now, uint32_t index)
{
    int64_t left[2], el;
    uint64_t from = 0;
    int x = proto_transcript_clock_turn(s->t, &from, left);
    uint32_t claims = proto_transcript_claims_void(s->t);
    Proto_Envelope claim;
    if (claims != s->claims_seen && (s->cfg.plant & MATCH_PLANT_CLAIM) &&
        !s->forced && index < s->nframes &&
        proto_open(s->frames[index].env, s->frames[index].len, &claim, NULL,
                   0) == 0) {
        /* planted: the refuted claim ends the game all the same */
        int claimant = proto_transcript_side_of(s->t, claim.msg.sender);
        s->forced = claimant >= 0;
        s->forced_status.outcome =
            claimant == CORE_WHITE ? CORE_WIN_WHITE : CORE_WIN_BLACK;
        s->forced_status.reason = CORE_REASON_ABANDON;
    }
    if (claims != s->claims_seen) {
        char secs[24];
        s->claims_seen = claims;
        match__say(s, 0, MATCH_NOTE_CLAIM_VOID,
                   match__secs(secs, proto_absence_ms(proto_transcript_clock(
                                         s->t))),
                   NULL, NULL, NULL);
        if (s->absent) {
            /* still gone by what we heard: ours may be made again after
             * a whole countdown more (a relay that lost its rooms saw
             * nobody go, and a bot claiming each second would spend its
             * side's budget of extras on void claims) */
            s->absent_said = 0;
            s->bot_claimed = 0;
            s->absent_at = now;
        }
    }
    if (!s->clock_on)
        return;
    size_t moves = proto_transcript_moves(s->t);
    if (x >= 0 && (from != s->wturn_from || moves != s->wturn_moves)) {
        /* a new turn: a move or a takeback the relay numbered (two may
         * share one relay millisecond: a trial's cheater answered within
         * it, and the turn went unseen, its clock line and its flag
         * state with it) */
        s->wturn_from = from;
        s->wturn_moves = moves;
        s->left[0] = left[0];
        s->left[1] = left[1];
        s->flag_sent = s->own_flag_said = 0;
        s->flag_again = 0;
        if (index > 0) /* (the match start's: the start said it) */
            show_clock(s);
    }
    uint32_t voids = proto_transcript_flags_void(s->t);
    if (voids != s->voids_seen) {
        char ms[24];
        s->voids_seen = voids;
        x = wclock(s, now, left, &el);
        if (x >= 0 && (s->cfg.plant & MATCH_PLANT_CLOCK) && !s->forced) {
            /* planted: the refuted claim ends the game all the same */
            s->forced = 1;
            s->forced_status.outcome =
                x == CORE_WHITE ? CORE_WIN_BLACK : CORE_WIN_WHITE;
            s->forced_status.reason = CORE_REASON_TIME;
        } else if (x >= 0) {
            match__say(s, 0, MATCH_NOTE_FLAG_VOID, match__side_word(x),
                       match__ms(ms, left[x] - el > 0 ? left[x] - el : 0),
                       NULL, NULL);
            /* ours may be made again a grace later */
            s->flag_sent = 0;
            s->flag_again = (uint64_t)el + MATCH_FLAG_GRACE_MS;
        }
    }
}

static void show_clock(Match *s)
{
    char w[24], b[24];
    match__say(s, 0, MATCH_NOTE_CLOCK, match__ms(w, s->left[0]),
               match__ms(b, s->left[1]), NULL, NULL);
}

void match__clock_after_move(Match *s, uint64_t now, int mover,
                             const Proto_Message *m)
{
    if (!s->clock_on || !m->body.move.has_clock || match__witnessed(s))
        return; /* (witnessed: the move's receipt moves the clocks) */
    int me = match_side(s);
    if (me >= 0 && mover != me) {
        int64_t measured = turn_ms(s, now);
        uint32_t made = proto_transcript_made(s->t, mover);
        int64_t claimed =
            proto_clock_after_move(&s->clk, s->left[mover], 0, made) -
            m->body.move.own_ms;
        /* A turn shorter than the allowance is charged nothing, never a
         * gain: a mover reporting more than our view plus what the move
         * gives (one that ignored our last correction) is held to that;
         * a delay clock's delay is free (G-MC-10). */
        int64_t bound =
            measured > MATCH_LAG_MS ? measured - MATCH_LAG_MS : 0;
        int64_t fixed = proto_clock_after_move(
            &s->clk, s->left[mover], proto_clock_charge(&s->clk, bound), made);
        if (m->body.move.own_ms > fixed) {
            if (fixed < 0)
                fixed = 0;
            Match_Text t = match__note(s, 0);
            match__put(&t, "clock: ");
            match__put(&t, match__side_word(mover));
            match__put(&t, " claims ");
            match__put_u(&t, m->body.move.own_ms);
            match__put(&t, " ms left after using ");
            match__put_i(&t, claimed);
            match__put(&t, " ms; measured ");
            match__put_i(&t, measured);
            match__put(&t, " ms, lag allowance ");
            match__put_u(&t, MATCH_LAG_MS);
            match__put(&t, " ms: corrected to ");
            match__put_i(&t, fixed);
            match__put(&t, " ms");
            s->left[mover] = fixed;
        } else {
            s->left[mover] = m->body.move.own_ms;
        }
        /* The mover signed its view of our clock; when it corrected us
         * (we reported less time used than it measured) that view is
         * lower than ours, and we take it, so both screens agree from
         * here on (G-MC-6). Never higher: a view above our own is no
         * gift we accept. */
        if (m->body.move.opp_ms < s->left[me])
            s->left[me] = m->body.move.opp_ms;
    } else if (me >= 0) {
        s->left[mover] = m->body.move.own_ms;
    } else {
        s->left[mover] = m->body.move.own_ms;
        s->left[1 - mover] = m->body.move.opp_ms;
    }
    match__turn_restart(s, now);
    s->flag_sent = s->own_flag_said = 0;
    show_clock(s);
}

int match__own_flag(const Match *s, uint64_t now)
{
    int me = match_side(s);
    if (match__witnessed(s)) {
        /* up by the relay's clock, lag allowance and all: a move sent
         * now would be late */
        int64_t left[2], el;
        return s->clock_on && me >= 0 && !match__over(s) &&
               wclock(s, now, left, &el) == me &&
               el >= proto_clock_limit(&s->clk, left[me]) + PROTO_LAG_MS;
    }
    return s->clock_on && me >= 0 && !match__over(s) &&
           core_side_to_move(proto_transcript_position(s->t)) == me &&
           turn_ms(s, now) >= proto_clock_limit(&s->clk, s->left[me]);
}

/* A move's two readings, as uint32 ms: the own one at least 1 (a 0 is
 * refused), both at most 2^32 - 1 (a clock piled up past 49 days, as a
 * period clock may over very many periods, reads as that: G-MC-10). */
static void readings(Proto_Message *m, int64_t own, int64_t opp)
{
    m->body.move.has_clock = 1;
    m->body.move.own_ms = (uint32_t)(own < 1            ? 1
                                     : own > UINT32_MAX ? UINT32_MAX
                                                        : own);
    m->body.move.opp_ms = (uint32_t)(opp < 0            ? 0
                                     : opp > UINT32_MAX ? UINT32_MAX
                                                        : opp);
}

int match__clock_for_move(Match *s, uint64_t now, Proto_Message *m)
{
    if (!s->clock_on)
        return 0;
    int me = match_side(s);
    int64_t used = turn_ms(s, now);
    uint32_t made = proto_transcript_made(s->t, me) + 1; /* this move */
    if (match__witnessed(s)) {
        /* readings for the record only: the receipts decide */
        int64_t left[2], el;
        if (match__own_flag(s, now))
            return TB_E_STATE;
        int x = wclock(s, now, left, &el);
        int64_t own = proto_clock_after_move(
            &s->clk, left[me], x == me ? proto_clock_charge(&s->clk, el) : 0,
            made);
        readings(m, own, left[1 - me]);
        return 0;
    }
    if (used >= proto_clock_limit(&s->clk, s->left[me]))
        return TB_E_STATE;
    if (s->cfg.clock_lie)
        used = 0; /* test switch: claim no time used */
    int64_t own = proto_clock_after_move(
        &s->clk, s->left[me], proto_clock_charge(&s->clk, used), made);
    readings(m, own, s->left[1 - me]);
    return 0;
}

void match__clock_tick(Match *s, uint64_t now)
{
    int me = match_side(s);
    const Core_Position *pos = proto_transcript_position(s->t);
    int x = core_side_to_move(pos);
    int64_t el = turn_ms(s, now);
    if (me >= 0 && s->absent && !s->absent_said &&
        since(now, s->absent_at) >= s->absent_ms) {
        s->absent_said = 1; /* the countdown's deadline is met */
        if (!s->cfg.bot) {  /* a bot seat claims instead (conduct.c) */
            char ms[24];
            match__say(s, 0, MATCH_NOTE_ABSENT_CLAIM,
                       match__secs(ms, s->absent_ms), NULL, NULL, NULL);
        }
    }
    if (!s->clock_on || me < 0)
        return;
    /* Our own time up, and the flagged side's time up by a grace for
     * the way: witnessed, by the relay's clock less the lag allowance
     * (the claim's receipt then proves it or refutes it); else by our
     * own measure. */
    int64_t left[2] = {s->left[0], s->left[1]}, lag = 0;
    int claim_ok = 1;
    if (match__witnessed(s)) {
        x = wclock(s, now, left, &el);
        if (x < 0)
            return;
        lag = PROTO_LAG_MS;
        /* (its seat is white's for white, black's for black) */
        claim_ok = !match__own_unwitnessed(s) &&
                   (uint64_t)el >= s->flag_again && s->room_seated[x];
    }
    if (x == me && el >= proto_clock_limit(&s->clk, left[me]) + lag &&
        !s->own_flag_said) {
        s->own_flag_said = 1;
        match__say(s, 0, MATCH_NOTE_TIME_UP, NULL, NULL, NULL, NULL);
    }
    if (x != me &&
        el >= proto_clock_limit(&s->clk, left[x]) + lag + MATCH_FLAG_GRACE_MS &&
        !s->flag_sent && s->connected && claim_ok) {
        Proto_Message m;
        proto_message_init(&m, PROTO_KIND_FLAG, &s->cfg.id);
        m.body.flag.ply = core_ply(pos);
        m.body.flag.elapsed = (uint32_t)el;
        s->flag_sent = 1;
        if (match__send_msg(s, now, &m) != 0) {
            Match_Text t = match__note(s, 1);
            match__put(&t, "flag claim refused: ");
            match__put(&t, proto_transcript_why(s->t));
        } else {
            match__show_conduct(s, now, &m);
        }
    }
}

uint64_t match__clock_deadline(const Match *s)
{
    uint64_t d = UINT64_MAX;
    int me = match_side(s);
    if (s->closing || !match__started(s) || match__over(s) || s->desync ||
        me < 0)
        return d;
    if (s->absent && !s->absent_said)
        d = s->absent_at + s->absent_ms;
    if (!s->clock_on)
        return d;
    if (match__witnessed(s)) {
        int64_t left[2];
        uint64_t from = 0;
        int x = proto_transcript_clock_turn(s->t, &from, left);
        if (x < 0 || !s->relay_known)
            return d;
        /* our now when the running turn reaches a mark of t ms */
        int64_t start = (int64_t)from - s->relay_off;
        int64_t mark = -1;
        if (x == me && !s->own_flag_said)
            mark = proto_clock_limit(&s->clk, left[me]) + PROTO_LAG_MS;
        else if (x != me && !s->flag_sent && s->connected &&
                 !match__own_unwitnessed(s)) {
            /* (a claim waits for our last envelope's receipt, as the
             * tick does: a mark now would be met again and again at
             * the same time, and the receipt would never be taken) */
            mark = proto_clock_limit(&s->clk, left[x]) + PROTO_LAG_MS +
                   MATCH_FLAG_GRACE_MS;
            if (mark < (int64_t)s->flag_again)
                mark = (int64_t)s->flag_again;
        }
        if (mark >= 0) {
            int64_t at = start + mark;
            uint64_t u = at > 0 ? (uint64_t)at : 0;
            if (u < d)
                d = u;
        }
        return d;
    }
    int x = core_side_to_move(proto_transcript_position(s->t));
    int64_t left = proto_clock_limit(&s->clk, s->left[x] > 0 ? s->left[x] : 0);
    uint64_t at = UINT64_MAX, grace = x == me ? 0 : MATCH_FLAG_GRACE_MS;
    /* the time carried from before a resume is already spent */
    uint64_t due = (uint64_t)left + grace;
    due = due > s->turn_carry ? due - s->turn_carry : 0;
    if (x == me && !s->own_flag_said)
        at = s->turn_at + due;
    else if (x != me && !s->flag_sent && s->connected)
        at = s->turn_at + due;
    return at < d ? at : d;
}

void match__clock_plant(Match *s, const Proto_Envelope *e)
{
    /* planted: the claim ends the game without its readings checked */
    int claimant = proto_transcript_side_of(s->t, e->msg.sender);
    if (claimant < 0 || match__over(s))
        return;
    s->forced = 1;
    s->forced_status.outcome = claimant == CORE_WHITE ? CORE_WIN_WHITE
                                                      : CORE_WIN_BLACK;
    s->forced_status.reason = CORE_REASON_TIME;
}

int64_t match_clock_left(const Match *s, uint64_t now, int side)
{
    if (!s->clock_on || side < 0 || side > 1)
        return -1;
    if (match__witnessed(s)) {
        int64_t left[2], el;
        int x = wclock(s, s->closing ? s->closed_at : now, left, &el);
        if (x < 0) { /* over, or not begun: as the receipts left them */
            proto_transcript_clock_turn(s->t, NULL, left);
            return left[side] > 0 ? left[side] : 0;
        }
        int64_t l =
            left[side] - (x == side ? proto_clock_charge(&s->clk, el) : 0);
        return l > 0 ? l : 0;
    }
    int64_t left = s->left[side];
    int to_move = core_side_to_move(proto_transcript_position(s->t));
    if (match__over(s)) {
        /* a fallen flag: the side to move when it fell has nothing left
         * (left[] keeps its reading from the start of that turn); any
         * other end stops the side to move's clock where the end came
         * (it read the turn's start before: a clock jumped back) */
        if (match__status(s).reason == CORE_REASON_TIME && to_move == side)
            return 0;
        if (!s->desync && to_move == side)
            left -= proto_clock_charge(
                &s->clk, turn_ms(s, s->closing ? s->closed_at : now));
    } else if (!s->desync && to_move == side) {
        left -= proto_clock_charge(&s->clk, turn_ms(s, now));
    }
    return left > 0 ? left : 0;
}

int64_t match_absence_left(const Match *s, uint64_t now)
{
    if (!s->absent || match_side(s) < 0 || match__over(s))
        return -1; /* no claim to make: none pending, or the game is over */
    int64_t left = (int64_t)s->absent_ms - since(now, s->absent_at);
    return left > 0 ? left : 0;
}

void match_presence(Match *s, uint64_t now, int seat, int present)
{
    char left[24];
    if (s->done || s->closing)
        return;
    /* A note when the news changes, not each time it comes: after a
     * failover the node a player moved to announces it again though no
     * one heard it go (its old node died without saying so), and the
     * host saw "guest present" twice (issue 20, finding 5). */
    int now_is = present ? 1 : 2;
    int said = seat == MATCH_ROLE_HOST || seat == MATCH_ROLE_GUEST
                   ? s->seen[seat]
                   : 0;
    if ((s->cfg.role == MATCH_ROLE_SPECTATOR || seat != (int)s->cfg.role) &&
        said != now_is) {
        match__say(s, 0,
                   seat == MATCH_ROLE_HOST
                       ? (present ? MATCH_NOTE_HOST_PRESENT
                                  : MATCH_NOTE_HOST_GONE)
                       : (present ? MATCH_NOTE_GUEST_PRESENT
                                  : MATCH_NOTE_GUEST_GONE),
                   NULL, NULL, NULL, NULL);
    }
    if (seat == MATCH_ROLE_HOST || seat == MATCH_ROLE_GUEST) {
        s->seen[seat] = now_is;
        s->room_seated[seat] |= present != 0;
    }
    if (s->cfg.role == MATCH_ROLE_SPECTATOR || seat == (int)s->cfg.role)
        return;
    if (present) {
        s->absent = 0;
        return;
    }
    if (!match__started(s) || match__over(s))
        return;
    /* G-MC-9: the countdown before the present player may claim (a
     * witnessed one is the transcript's: the claim's receipt decides,
     * G-MC-9w). */
    uint32_t ms = s->cfg.absence_ms;
    if (ms == 0 || match__witnessed(s)) {
        /* (witnessed, a claim before the rules' countdown is void: a
         * test's configured one may only be longer) */
        uint32_t rule = proto_absence_ms(proto_transcript_clock(s->t));
        ms = ms > rule ? ms : rule;
    }
    s->absent_ms = ms;
    s->absent_at = now;
    s->absent = 1;
    s->absent_said = 0;
    s->bot_claimed = 0;
    match__say(s, 0,
               s->cfg.bot ? MATCH_NOTE_ABSENT_LEFT_BOT : MATCH_NOTE_ABSENT_LEFT,
               match__secs(left, ms), NULL, NULL, NULL);
}
