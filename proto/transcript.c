/*
 * transcript.c: one match's hash chain and the match rules around the
 * moves. Every envelope of both players is checked in arrival order: same
 * match id, sequence numbers without gaps, prev equal to the chain hash of
 * the envelope before, a sender who plays in the match, and a message the
 * match allows now. Moves go through the rules core (legality, canonical
 * notation) and their state hashes are compared with ours; offers,
 * takebacks, resignation, abort and desync reports move the match status.
 * Pure memory work: no I/O, so an event loop can call it per message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto_internal.h"

/* What witnessing an envelope needs of the state it was added in. */
typedef struct Witness_Info {
    uint8_t kind;
    int8_t side;       /* its signer's side (-1: the match start) */
    int8_t to_move;    /* side to move after it, -1 when none */
    int8_t timed;      /* side whose time it settles: a move's mover, a
                          flag claim's flagged side; -1 none */
    uint32_t made;     /* a move's: its mover's moves made, it included */
    Core_Status loss;  /* the result if that side's time is up here */
} Witness_Info;

struct Proto_Transcript {
    Proto_Game_Lookup lookup;
    uint32_t count;                  /* envelopes accepted */
    uint8_t chain[PROTO_HASH_BYTES]; /* hash of the last payload */
    Proto_Message start;             /* valid when count > 0 */
    const Core_Game *game;
    Core_Position *initial; /* the start position, for takebacks */
    Core_Position *pos;
    Core_Move *moves; /* the moves on the board now */
    size_t nmoves;
    size_t cap;
    Core_Status ended; /* a match-layer result (resign, agreement, ...) */
    int moved[2];      /* each side has made a move (abort rule) */
    int draw_offer;    /* side with a pending draw offer, or -1 */
    int draw_offers[2]; /* offers each side made (G-MC-2 limit) */
    int takeback_side; /* side with a pending takeback request, or -1 */
    uint32_t takeback_plies;
    int bye[2];
    Proto_Clock clock;              /* kind NONE: no clock (G-MC-6) */
    uint32_t made[2];               /* moves each side made, takebacks
                                       not subtracted (G-MC-10) */
    uint32_t view[2][2];            /* [signer][side]: time left, ms */
    /* Witnessed clocks (proto_transcript_witness): the relay's time of
     * each envelope decides the clocks and every flag. */
    int witnessed;
    Witness_Info *winfo; /* per envelope, as it was added */
    size_t winfo_cap;
    uint32_t wcount;     /* envelopes witnessed */
    uint64_t wlast;      /* the last witnessed time (ms) */
    uint64_t turn_from;  /* relay time the running turn began (ms) */
    int64_t wleft[2];    /* ms left at the start of each side's turn */
    int wturn;           /* side whose witnessed clock runs, -1: none */
    uint32_t over_at;    /* the envelope that ended the match, or
                            UINT32_MAX */
    uint32_t flags_void; /* flag claims the relay's times refuted */
    uint32_t claims_void; /* absence claims the relay refuted */
    int witness_absence;  /* absence claims decided by the receipts */
    char game_opts[PROTO_OPTIONS_MAX + 1]; /* options without the clock */
    char why[192];
};

int proto_transcript_new(Proto_Transcript **out, Proto_Game_Lookup lookup)
{
    Proto_Transcript *t = calloc(1, sizeof *t);
    *out = NULL;
    if (t == NULL)
        return TB_E_NOMEM;
    t->lookup = lookup != NULL ? lookup : core_game_find;
    t->draw_offer = -1;
    t->takeback_side = -1;
    t->wturn = -1;
    t->over_at = UINT32_MAX;
    *out = t;
    return 0;
}

void proto_transcript_free(Proto_Transcript *t)
{
    if (t == NULL)
        return;
    core_position_free(t->initial);
    core_position_free(t->pos);
    free(t->moves);
    free(t->winfo);
    free(t);
}

void proto_transcript_next(const Proto_Transcript *t, Proto_Message *m)
{
    m->seq = t->count;
    memcpy(m->prev, t->chain, PROTO_HASH_BYTES);
    if (t->count > 0)
        memcpy(m->match_id, t->start.match_id, PROTO_MATCH_ID_BYTES);
}

const char *proto_transcript_why(const Proto_Transcript *t)
{
    return t->why;
}

uint32_t proto_transcript_count(const Proto_Transcript *t)
{
    return t->count;
}

void proto_transcript_chain(const Proto_Transcript *t,
                            uint8_t out[PROTO_HASH_BYTES])
{
    memcpy(out, t->chain, PROTO_HASH_BYTES);
}

const Proto_Message *proto_transcript_start(const Proto_Transcript *t)
{
    return t->count > 0 ? &t->start : NULL;
}

const Core_Position *proto_transcript_position(const Proto_Transcript *t)
{
    return t->pos;
}

Core_Status proto_transcript_status(const Proto_Transcript *t)
{
    Core_Status none = {CORE_ONGOING, CORE_REASON_NONE};
    if (t->ended.outcome != CORE_ONGOING)
        return t->ended;
    return t->pos != NULL ? core_status(t->pos) : none;
}

size_t proto_transcript_moves(const Proto_Transcript *t)
{
    return t->nmoves;
}

const Core_Move *proto_transcript_move_at(const Proto_Transcript *t, size_t i)
{
    return i < t->nmoves ? &t->moves[i] : NULL;
}

int proto_transcript_side_of(const Proto_Transcript *t,
                             const uint8_t key[PROTO_KEY_BYTES])
{
    if (t->count == 0)
        return -1;
    if (memcmp(key, t->start.body.start.white, PROTO_KEY_BYTES) == 0)
        return CORE_WHITE;
    if (memcmp(key, t->start.body.start.black, PROTO_KEY_BYTES) == 0)
        return CORE_BLACK;
    return -1;
}

static const char *side_name(int side)
{
    return side == CORE_WHITE ? "white" : "black";
}

static void end_match(Proto_Transcript *t, Core_Outcome o, Core_Reason r)
{
    t->ended.outcome = o;
    t->ended.reason = r;
    t->draw_offer = -1;
    t->takeback_side = -1;
}

/* The match ends lost for side, for reason r. */
static void lose(Proto_Transcript *t, int side, Core_Reason r)
{
    end_match(t, side == CORE_WHITE ? CORE_WIN_BLACK : CORE_WIN_WHITE, r);
}

static int fail(Proto_Transcript *t, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(Proto_Transcript *t, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->why, sizeof t->why, fmt, ap);
    va_end(ap);
    return err;
}

/* A peer's move text as a refusal shows it: 60 bytes at most, and only
 * what notation is made of ('?' for anything else), so a signed but
 * refused move cannot write a line of its own into the reader's screen
 * or log ("e5xc3' ok. white resigns. result: 0-1", in a trial). */
static const char *shown_move(const char *move, char out[64])
{
    static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                             " -x*>@+/=#!?.()";
    size_t n = 0;
    for (; move[n] != '\0' && n < 60; n++)
        out[n] = strchr(ok, move[n]) != NULL ? move[n] : '?';
    if (move[n] != '\0' && n >= 3)
        memcpy(out + n - 3, "...", 3);
    out[n] = '\0';
    return out;
}

static int start_match(Proto_Transcript *t, const Proto_Message *m)
{
    const Core_Game *g;
    Core_Position *pos = NULL, *initial = NULL;
    int rc;

    if (memcmp(m->body.start.white, m->body.start.black, PROTO_KEY_BYTES) == 0)
        return fail(t, TB_E_FORMAT, "white and black have the same key");
    if (memcmp(m->sender, m->body.start.white, PROTO_KEY_BYTES) != 0 &&
        memcmp(m->sender, m->body.start.black, PROTO_KEY_BYTES) != 0)
        return fail(t, TB_E_SIGNATURE,
                    "match start signed by a key that does not play in it");
    g = t->lookup(m->body.start.game);
    if (g == NULL)
        return fail(t, TB_E_GAME, "unknown game '%s'", m->body.start.game);
    rc = proto_clock_split(m->body.start.options, &t->clock, t->game_opts,
                           sizeof t->game_opts);
    if (rc == 0)
        rc = core_position_new(&initial, g, t->game_opts);
    if (rc != 0)
        return fail(t, rc, "bad match options '%s'", m->body.start.options);
    if (proto_options_relay(m->body.start.options) &&
        !(t->witnessed && t->witness_absence)) {
        core_position_free(initial);
        return fail(t, TB_E_VERSION,
                    "the match start says a relay witnesses the match "
                    "(" PROTO_OPTION_RELAY "), but this transcript is not "
                    "the relay's: a log of it must hold receipts that attest "
                    "presence (version 3 or later)");
    }
    for (int i = 0; i < 4; i++)
        t->view[i / 2][i % 2] = t->clock.base_ms;
    pos = core_position_clone(initial);
    if (pos == NULL) {
        core_position_free(initial);
        return fail(t, TB_E_NOMEM, "out of memory");
    }
    t->game = g;
    t->initial = initial;
    t->pos = pos;
    t->start = *m;
    return 0;
}

/* The state hash of the position, compared with the one side signed; a
 * mismatch while the match is on ends it against that side (G-PR-3: the
 * signer of a state its own signed moves do not give is at fault), and an
 * ended match keeps its result. */
static int compare_hash(Proto_Transcript *t, const uint8_t theirs[],
                        uint32_t ply, int side, int on)
{
    uint8_t ours[PROTO_HASH_BYTES];
    char hex[PROTO_HASH_HEX];
    int rc = proto_state_hash(t->pos, ours);
    if (rc != 0)
        return fail(t, rc, "cannot hash the position");
    if (memcmp(ours, theirs, PROTO_HASH_BYTES) == 0)
        return 0;
    if (on)
        lose(t, side, CORE_REASON_DESYNC_FORFEIT);
    proto_hex(ours, 8, hex);
    proto__why(t->why, sizeof t->why,
               "%s signed a state hash after ply %u that the signed moves "
               "do not give (they give %s...)",
               side_name(side), ply, hex);
    return TB_E_DESYNC;
}

static int play_move(Proto_Transcript *t, const Proto_Message *m, int side)
{
    Core_Move mv;
    char canon[CORE_NOTATION_MAX], shown[64];
    uint32_t ply = core_ply(t->pos);
    int rc;

    if (core_side_to_move(t->pos) != side)
        return fail(t, TB_E_STATE, "%s moved out of turn", side_name(side));
    if (m->body.move.ply != ply + 1) {
        return fail(t, TB_E_STATE, "move says ply %u; ply %u is next",
                    m->body.move.ply, ply + 1);
    }
    rc = core_move_parse(t->pos, m->body.move.move, &mv);
    if (rc != 0)
        return fail(t, rc, "move '%s' refused by the rules",
                    shown_move(m->body.move.move, shown));
    rc = core_move_format(t->pos, &mv, canon, sizeof canon);
    if (rc != 0)
        return fail(t, rc, "cannot format move '%s'", m->body.move.move);
    if (strcmp(canon, m->body.move.move) != 0)
        return fail(t, TB_E_NOTATION, "move '%s' is not in canonical notation",
                    m->body.move.move);
    int clocked = t->clock.kind != PROTO_CLOCK_NONE;
    if (!m->body.move.has_clock != !clocked)
        return fail(t, TB_E_FORMAT, "move %s clock readings in a match %s a "
                    "clock", m->body.move.has_clock ? "with" : "without",
                    clocked ? "with" : "without");
    if (clocked && !t->witnessed) {
        /* G-MC-6: a mover gains at most what a move of no time gives
         * over its own last signed reading (the increment; a period's
         * time on its last move; a days clock its whole time, G-MC-10),
         * not over a lower view the opponent signed of it, which its
         * session adopts but older logs did not; and may not give its
         * opponent more time than the opponent last claimed. */
        int64_t top = proto_clock_after_move(&t->clock, t->view[side][side],
                                             0, t->made[side] + 1);
        uint64_t most = top > 0 ? (uint64_t)top : 0;
        if (m->body.move.own_ms > most || m->body.move.own_ms == 0)
            return fail(t, TB_E_STATE, "%s's clock reading %u ms: at most "
                        "%llu ms and above 0 is possible", side_name(side),
                        m->body.move.own_ms, (unsigned long long)most);
        if (m->body.move.opp_ms > t->view[1 - side][1 - side])
            return fail(t, TB_E_STATE, "%s gives its opponent %u ms, more "
                        "than the opponent's own %u ms", side_name(side),
                        m->body.move.opp_ms, t->view[1 - side][1 - side]);
    }
    if (t->nmoves == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        Core_Move *grown = realloc(t->moves, cap * sizeof *grown);
        if (grown == NULL)
            return fail(t, TB_E_NOMEM, "out of memory");
        t->moves = grown;
        t->cap = cap;
    }
    rc = core_play(t->pos, &mv);
    if (rc != 0)
        return fail(t, rc, "move '%s' refused by the rules",
                    shown_move(m->body.move.move, shown));
    t->moves[t->nmoves++] = mv;
    t->moved[side] = 1;
    t->made[side]++;
    if (clocked) {
        t->view[side][side] = m->body.move.own_ms;
        t->view[side][1 - side] = m->body.move.opp_ms;
    }
    if (t->draw_offer == 1 - side)
        t->draw_offer = -1; /* the offer lapses when its receiver moves */
    t->takeback_side = -1;
    return compare_hash(t, m->body.move.hash, ply + 1, side, 1);
}

static int take_back(Proto_Transcript *t, uint32_t plies)
{
    size_t keep = t->nmoves - plies;
    int rc = core_position_copy(t->pos, t->initial);
    for (size_t i = 0; rc == 0 && i < keep; i++)
        rc = core_play(t->pos, &t->moves[i]);
    if (rc != 0)
        return fail(t, rc, "cannot replay the moves kept");
    t->nmoves = keep;
    return 0;
}

/* Goals of each side in Football chess, read from the view's status line
 * ("goals W-B, ..."); 0 when the game shows none. */
static int goals_of(const Core_Position *pos, unsigned goals[2])
{
    Core_View v;
    unsigned w = 0, b = 0;
    goals[0] = goals[1] = 0;
    if (core_view(pos, &v) != 0 || strncmp(v.status, "goals ", 6) != 0)
        return 0;
    if (sscanf(v.status + 6, "%u-%u", &w, &b) != 2)
        return 0;
    goals[0] = w;
    goals[1] = b;
    return 1;
}

/* The result when flagged's time is up in the position now: it loses;
 * in Football chess the side with more goals wins and equal goals draw
 * (D-FC-7). */
static Core_Status time_loss(const Proto_Transcript *t, int flagged)
{
    unsigned goals[2];
    Core_Status st = {flagged == CORE_WHITE ? CORE_WIN_BLACK : CORE_WIN_WHITE,
                      CORE_REASON_TIME};
    if (goals_of(t->pos, goals))
        st.outcome = goals[0] > goals[1]   ? CORE_WIN_WHITE
                     : goals[0] < goals[1] ? CORE_WIN_BLACK
                                           : CORE_DRAW;
    return st;
}

/* G-MC-7: a flag claim by the side not to move: the time it measured
 * reaches the flagged side's time left (the smaller of the claimant's
 * signed view and the flagged side's own last reading). The flagged side
 * loses on time; in Football chess the side with more goals wins and
 * equal goals draw (D-FC-7). */
static int flag_fall(Proto_Transcript *t, const Proto_Message *m, int side)
{
    int flagged = core_side_to_move(t->pos);
    if (t->clock.kind == PROTO_CLOCK_NONE)
        return fail(t, TB_E_STATE, "flag claim in a match without a clock");
    if (flagged == side)
        return fail(t, TB_E_STATE, "flag claim by the side to move");
    if (m->body.flag.ply != core_ply(t->pos))
        return fail(t, TB_E_STATE, "flag claim at ply %u; the ply is %u",
                    m->body.flag.ply, core_ply(t->pos));
    if (t->witnessed)
        return 0; /* the relay's time of the claim decides (witness) */
    uint32_t left = t->view[side][flagged];
    if (t->view[flagged][flagged] < left)
        left = t->view[flagged][flagged];
    /* (a delay clock's turn runs its delay before its time: G-MC-10) */
    if (m->body.flag.elapsed < proto_clock_limit(&t->clock, left))
        return fail(t, TB_E_STATE, "flag claim after %u ms; %s had %u ms",
                    m->body.flag.elapsed, side_name(flagged), left);
    Core_Status st = time_loss(t, flagged);
    end_match(t, st.outcome, st.reason);
    return 0;
}

static int apply(Proto_Transcript *t, const Proto_Message *m, int side)
{
    int other = 1 - side;
    int over = proto_transcript_status(t).outcome != CORE_ONGOING;
    int k = m->kind;

    if (over && k != PROTO_KIND_CHAT && k != PROTO_KIND_BYE &&
        k != PROTO_KIND_STATE_CHECK && k != PROTO_KIND_DESYNC)
        return fail(t, TB_E_OVER, "%s after the match ended",
                    proto_kind_name(k));
    switch ((Proto_Kind)k) {
    case PROTO_KIND_HELLO:
    case PROTO_KIND_MATCH_START:
        return fail(t, TB_E_STATE, "%s inside a match", proto_kind_name(k));
    case PROTO_KIND_MOVE:
        return play_move(t, m, side);
    case PROTO_KIND_DRAW_OFFER:
        if (t->draw_offer != -1)
            return fail(t, TB_E_STATE, "a draw offer is already pending");
        if (t->draw_offers[side] >= PROTO_DRAW_OFFERS_MAX)
            return fail(t, TB_E_LIMIT, "%s has made %d draw offers already",
                        side_name(side), PROTO_DRAW_OFFERS_MAX);
        t->draw_offers[side]++;
        t->draw_offer = side;
        return 0;
    case PROTO_KIND_DRAW_ACCEPT:
    case PROTO_KIND_DRAW_DECLINE:
        if (t->draw_offer != other)
            return fail(t, TB_E_STATE,
                        "%s without a draw offer from the "
                        "opponent",
                        proto_kind_name(k));
        t->draw_offer = -1;
        if (k == PROTO_KIND_DRAW_ACCEPT)
            end_match(t, CORE_DRAW, CORE_REASON_AGREEMENT);
        return 0;
    case PROTO_KIND_RESIGN:
        lose(t, side, CORE_REASON_RESIGN);
        return 0;
    case PROTO_KIND_ABORT:
        if (t->moved[CORE_WHITE] && t->moved[CORE_BLACK])
            return fail(t, TB_E_STATE, "abort after both sides have moved");
        end_match(t, CORE_ABORTED, CORE_REASON_ABORT);
        return 0;
    case PROTO_KIND_TAKEBACK_REQUEST:
        if (t->takeback_side != -1)
            return fail(t, TB_E_STATE, "a takeback request is pending");
        if (m->body.takeback.plies > t->nmoves)
            return fail(t, TB_E_STATE, "takeback of more plies than played");
        t->takeback_side = side;
        t->takeback_plies = m->body.takeback.plies;
        return 0;
    case PROTO_KIND_TAKEBACK_ACCEPT:
        if (t->takeback_side != other ||
            t->takeback_plies != m->body.takeback.plies)
            return fail(t, TB_E_STATE,
                        "takeback accept without a matching "
                        "request from the opponent");
        t->takeback_side = -1;
        t->draw_offer = -1;
        return take_back(t, m->body.takeback.plies);
    case PROTO_KIND_TAKEBACK_DECLINE:
        if (t->takeback_side != other)
            return fail(t, TB_E_STATE,
                        "takeback decline without a request "
                        "from the opponent");
        t->takeback_side = -1;
        return 0;
    case PROTO_KIND_STATE_CHECK:
        if (m->body.check.ply != core_ply(t->pos)) {
            proto__why(t->why, sizeof t->why, "state check of ply %u at ply %u",
                       m->body.check.ply, core_ply(t->pos));
            return TB_E_STATE;
        }
        return compare_hash(t, m->body.check.hash, m->body.check.ply, side,
                            !over);
    case PROTO_KIND_DESYNC: {
        /* G-PR-3: after a mismatch the chain has ended the match, and the
         * reports only tell the states. While it is on, a report is
         * checked as a signed hash is: the true state is refused (nothing
         * differs: play goes on), any other is its reporter's fault. */
        Core_Position *theirs = core_position_clone(t->pos);
        uint8_t hash[PROTO_HASH_BYTES];
        int rc;
        if (theirs == NULL)
            return fail(t, TB_E_NOMEM, "out of memory");
        rc =
            core_decode(theirs, m->body.desync.state, m->body.desync.state_len);
        if (rc == 0 && !over)
            rc = proto_state_hash(theirs, hash);
        core_position_free(theirs);
        if (rc != 0)
            return fail(t, TB_E_FORMAT,
                        "desync report's state is not a "
                        "valid %s encoding",
                        core_game_name(t->game));
        if (over)
            return 0;
        if (m->body.desync.ply != core_ply(t->pos))
            return fail(t, TB_E_STATE, "desync report of ply %u at ply %u",
                        m->body.desync.ply, core_ply(t->pos));
        rc = compare_hash(t, hash, m->body.desync.ply, side, 1);
        if (rc == 0)
            return fail(t, TB_E_STATE,
                        "desync report of the state both sides hold: "
                        "nothing differs, play goes on");
        return rc == TB_E_DESYNC ? 0 : rc; /* (lost by its reporter) */
    }
    case PROTO_KIND_FLAG:
        return flag_fall(t, m, side);
    case PROTO_KIND_CLAIM:
        /* G-MC-9: the claimant's signed word that its opponent stayed
         * away past the countdown; witnessed, the claim's own receipt
         * decides (G-MC-9w: proto_transcript_witness). */
        if (t->witnessed && t->witness_absence)
            return 0;
        if (m->body.claim.what == PROTO_CLAIM_DRAW)
            end_match(t, CORE_DRAW, CORE_REASON_ABANDON);
        else
            end_match(t, side == CORE_WHITE ? CORE_WIN_WHITE : CORE_WIN_BLACK,
                      CORE_REASON_ABANDON);
        return 0;
    case PROTO_KIND_CHAT:
        return 0;
    case PROTO_KIND_BYE:
        t->bye[side] = 1;
        return 0;
    default:
        return fail(t, TB_E_KIND, "unknown kind");
    }
}

int proto_transcript_draw_offer(const Proto_Transcript *t)
{
    return t->count > 0 ? t->draw_offer : -1;
}

int proto_transcript_draw_offers(const Proto_Transcript *t, int side)
{
    return side == 0 || side == 1 ? t->draw_offers[side] : 0;
}

int proto_transcript_takeback(const Proto_Transcript *t, uint32_t *plies)
{
    if (plies != NULL)
        *plies = t->takeback_side >= 0 ? t->takeback_plies : 0;
    return t->count > 0 ? t->takeback_side : -1;
}

const char *proto_transcript_game_options(const Proto_Transcript *t)
{
    return t->game_opts;
}

const Proto_Clock *proto_transcript_clock(const Proto_Transcript *t)
{
    return &t->clock;
}

uint32_t proto_transcript_made(const Proto_Transcript *t, int side)
{
    return side == 0 || side == 1 ? t->made[side] : 0;
}

uint32_t proto_transcript_clock_view(const Proto_Transcript *t, int viewer,
                                     int side)
{
    if (viewer < 0 || viewer > 1 || side < 0 || side > 1)
        return 0;
    return t->view[viewer][side];
}

int proto_transcript_moved(const Proto_Transcript *t, int side)
{
    return side == 0 || side == 1 ? t->moved[side] : 0;
}

int proto_transcript_add(Proto_Transcript *t, const uint8_t *env, size_t len,
                         Proto_Envelope *out)
{
    Proto_Envelope local;
    Proto_Envelope *e = out != NULL ? out : &local;
    const Proto_Message *m = &e->msg;
    static const uint8_t zero[PROTO_HASH_BYTES];
    int side = -1, rc;
    Witness_Info info = {0, -1, -1, -1, 0, {CORE_ONGOING, CORE_REASON_NONE}};
    int was_over = t->count > 0 &&
                   proto_transcript_status(t).outcome != CORE_ONGOING;

    t->why[0] = '\0';
    rc = proto_open(env, len, e, t->why, sizeof t->why);
    if (rc != 0)
        return rc;
    if (m->kind == PROTO_KIND_HELLO)
        return fail(t, TB_E_STATE, "hello is not part of a match");
    if (m->seq != t->count) {
        proto__why(t->why, sizeof t->why,
                   "sequence number %u where %u was due (%s)", m->seq, t->count,
                   m->seq < t->count ? "duplicate or replay" : "gap");
        return TB_E_CHAIN;
    }
    if (t->count == 0) {
        if (m->kind != PROTO_KIND_MATCH_START)
            return fail(t, TB_E_STATE,
                        "a match begins with match-start, "
                        "not %s",
                        proto_kind_name(m->kind));
        if (memcmp(m->prev, zero, PROTO_HASH_BYTES) != 0)
            return fail(t, TB_E_CHAIN, "match start with a nonzero prev");
        rc = start_match(t, m);
    } else {
        if (memcmp(m->match_id, t->start.match_id, PROTO_MATCH_ID_BYTES))
            return fail(t, TB_E_CHAIN, "envelope of another match");
        if (memcmp(m->prev, t->chain, PROTO_HASH_BYTES) != 0)
            return fail(t, TB_E_CHAIN,
                        "prev is not the chain hash of the "
                        "envelope before");
        side = proto_transcript_side_of(t, m->sender);
        if (side < 0)
            return fail(t, TB_E_SIGNATURE,
                        "sender is not a player of this "
                        "match");
        if (t->bye[side])
            return fail(t, TB_E_STATE, "%s wrote after its bye",
                        side_name(side));
        if (t->witnessed && t->witness_absence &&
            m->kind == PROTO_KIND_CLAIM) {
            /* the absent side, and what its absence gives */
            info.timed = (int8_t)(1 - side);
            if (m->body.claim.what == PROTO_CLAIM_DRAW)
                info.loss = (Core_Status){CORE_DRAW, CORE_REASON_ABANDON};
            else
                info.loss = (Core_Status){
                    side == CORE_WHITE ? CORE_WIN_WHITE : CORE_WIN_BLACK,
                    CORE_REASON_ABANDON};
        }
        if (t->witnessed && t->clock.kind != PROTO_CLOCK_NONE &&
            (m->kind == PROTO_KIND_MOVE || m->kind == PROTO_KIND_FLAG)) {
            /* before the move: a late move's time loss counts the
             * goals it found, not any it scored */
            info.timed = (int8_t)(m->kind == PROTO_KIND_MOVE
                                      ? side
                                      : core_side_to_move(t->pos));
            info.loss = time_loss(t, info.timed);
            if (m->kind == PROTO_KIND_MOVE)
                info.made = t->made[side] + 1;
        }
        rc = apply(t, m, side);
    }
    if (rc == 0 || rc == TB_E_DESYNC) {
        int over = proto_transcript_status(t).outcome != CORE_ONGOING;
        if (t->witnessed) {
            if (t->count == t->winfo_cap) {
                size_t cap = t->winfo_cap ? 2 * t->winfo_cap : 64;
                Witness_Info *grown = realloc(t->winfo, cap * sizeof *grown);
                if (grown == NULL)
                    return fail(t, TB_E_NOMEM, "out of memory");
                t->winfo = grown;
                t->winfo_cap = cap;
            }
            info.kind = (uint8_t)m->kind;
            info.side = (int8_t)side;
            info.to_move = (int8_t)(over ? -1 : core_side_to_move(t->pos));
            t->winfo[t->count] = info;
        }
        if (over && !was_over)
            t->over_at = t->count;
        t->count++;
        memcpy(t->chain, e->hash, PROTO_HASH_BYTES);
    }
    return rc;
}

void proto_transcript_witness_mode(Proto_Transcript *t)
{
    if (t->count == 0)
        t->witnessed = 1;
}

void proto_transcript_witness_absence(Proto_Transcript *t)
{
    if (t->count == 0)
        t->witness_absence = 1;
}

int proto_transcript_witnessed(const Proto_Transcript *t)
{
    return t->witnessed;
}

uint32_t proto_transcript_witness_count(const Proto_Transcript *t)
{
    return t->wcount;
}

uint32_t proto_transcript_flags_void(const Proto_Transcript *t)
{
    return t->flags_void;
}

/* ms of a turn from `from` to `to` charged to its side: less the lag
 * allowance, then less a delay clock's delay, never below 0. */
static int64_t charged(const Proto_Transcript *t, uint64_t from, uint64_t to)
{
    uint64_t d = to > from ? to - from : 0;
    return proto_clock_charge(
        &t->clock, d > PROTO_LAG_MS ? (int64_t)(d - PROTO_LAG_MS) : 0);
}

int proto_transcript_witness(Proto_Transcript *t, uint32_t index,
                             uint64_t time_ms, const uint32_t absent_ms[2])
{
    if (!t->witnessed)
        return fail(t, TB_E_STATE, "a relay time in a match without them");
    if (index != t->wcount || index >= t->count)
        return fail(t, TB_E_STATE,
                    "relay time of envelope %u where %u was due", index + 1,
                    t->wcount + 1);
    /* A relay's times never go back within a room (the relay keeps them
     * so); one that does is read as no time passing, the same for every
     * reader. */
    uint64_t time = time_ms > t->wlast ? time_ms : t->wlast;
    const Witness_Info *w = &t->winfo[index];
    t->wcount++;
    t->wlast = time;
    if (w->kind == PROTO_KIND_CLAIM && w->timed >= 0) {
        /* G-MC-9w: the claim's receipt says the absent side (its seat:
         * the host's is white's) had been gone the countdown; and a
         * claimant whose own time is up by the receipts may claim the
         * draw, not the win (G-MC-9: a cheater's client sent the win,
         * and it held) */
        int x = w->timed, c = 1 - x;
        int own_up = t->clock.kind != PROTO_CLOCK_NONE && t->wturn == c &&
                     charged(t, t->turn_from, time) >= t->wleft[c];
        if (t->over_at >= index && absent_ms != NULL &&
            absent_ms[x] >= proto_absence_ms(&t->clock) &&
            absent_ms[x] != PROTO_ABSENT_NEVER && /* (never seen to go) */
            !(own_up && w->loss.outcome != CORE_DRAW)) {
            end_match(t, w->loss.outcome, w->loss.reason);
            t->over_at = index;
            t->wturn = -1;
        } else if (t->over_at >= index) {
            t->claims_void++; /* refuted: play goes on */
        }
        return 0;
    }
    if (t->clock.kind == PROTO_CLOCK_NONE)
        return 0;
    if (index == 0) {
        t->wleft[0] = t->wleft[1] = t->clock.base_ms;
        t->turn_from = time;
        t->wturn = w->to_move;
        return 0;
    }
    /* An end the match reached before this envelope stands; a time loss
     * here comes before any end this envelope or a later one brought. */
    int open = t->over_at >= index;
    if (w->kind == PROTO_KIND_MOVE && w->timed >= 0) {
        int x = w->timed;
        int64_t used = charged(t, t->turn_from, time);
        if (open && t->wturn == x && used >= t->wleft[x]) {
            t->wleft[x] = 0;
            end_match(t, w->loss.outcome, w->loss.reason);
            t->over_at = index;
            t->wturn = -1;
            return 0;
        }
        if (t->wturn == x) /* (G-MC-10: what the kind gives back) */
            t->wleft[x] =
                proto_clock_after_move(&t->clock, t->wleft[x], used, w->made);
        t->turn_from = time;
        t->wturn = w->to_move;
    } else if (w->kind == PROTO_KIND_FLAG && w->timed >= 0) {
        int x = w->timed;
        /* (a flagged side its room never seated has no clock to fall
         * there: the room is another than the match's, PROTO_ABSENT_NEVER) */
        int seated = t->witness_absence == 0 || absent_ms == NULL ||
                     absent_ms[x] != PROTO_ABSENT_NEVER;
        if (open && seated && t->wturn == x &&
            charged(t, t->turn_from, time) >= t->wleft[x]) {
            t->wleft[x] = 0;
            end_match(t, w->loss.outcome, w->loss.reason);
            t->over_at = index;
            t->wturn = -1;
        } else if (open) {
            t->flags_void++; /* refuted: play goes on */
        }
    } else if (w->kind == PROTO_KIND_TAKEBACK_ACCEPT) {
        /* G-MC-8: time spent before a takeback stays spent: the side
         * whose clock ran is charged it (no increment: no move was
         * made), and the side to move after the takeback starts afresh
         * from the acceptance. (A trial: a side thought 9 s, asked a
         * takeback, and had its 9 s back.) */
        if (t->wturn >= 0 && w->to_move >= 0) {
            int64_t used = charged(t, t->turn_from, time);
            t->wleft[t->wturn] -= used;
            if (t->wleft[t->wturn] < 0)
                t->wleft[t->wturn] = 0;
            t->turn_from = time;
            t->wturn = w->to_move;
        }
    }
    if (w->to_move < 0)
        t->wturn = -1; /* over: every clock stops */
    return 0;
}

uint32_t proto_transcript_claims_void(const Proto_Transcript *t)
{
    return t->claims_void;
}

int proto_transcript_clock_turn(const Proto_Transcript *t, uint64_t *from_ms,
                                int64_t left_ms[2])
{
    if (from_ms != NULL)
        *from_ms = t->turn_from;
    if (left_ms != NULL) {
        left_ms[0] = t->wleft[0];
        left_ms[1] = t->wleft[1];
    }
    return t->witnessed && t->clock.kind != PROTO_CLOCK_NONE && t->wcount > 0 &&
                   proto_transcript_status(t).outcome == CORE_ONGOING
               ? t->wturn
               : -1;
}

int proto_transcript_send(Proto_Transcript *t, const Proto_Identity *id,
                          Proto_Message *m, uint8_t *frame, size_t cap,
                          size_t *len)
{
    int rc;

    proto_transcript_next(t, m);
    rc = proto_seal(m, id, frame, cap, len, NULL);
    if (rc != 0)
        return fail(t, rc, "cannot seal the %s message",
                    proto_kind_name(m->kind));
    rc = proto_transcript_add(t, frame + PROTO_FRAME_PREFIX,
                              *len - PROTO_FRAME_PREFIX, NULL);
    if (rc != 0)
        *len = 0;
    return rc;
}
