/*
 * match_internal.h: the session object shared by the files of match/:
 * session.c (outputs, sending, the log, the end, time, making and
 * resuming), receive.c (frames in, lobby numbers, welcomes), conduct.c (commands, moves, offers, takebacks, bot answers),
 * clock.c (clocks, flags, absence), forge.c (the test switch's cheating
 * client) and text.c (notes without stdio).
 * Never included from another folder.
 */
#ifndef TABULA_MATCH_INTERNAL_H
#define TABULA_MATCH_INTERNAL_H

#include "match.h"

#define MATCH_LINES_MAX 512  /* queued input lines */
#define MATCH_FINISH_WAIT_MS 10000
#define MATCH_DESYNC_WAIT_MS 3000
#define MATCH_RECONNECT_GIVE_UP_MS 60000
#define MATCH_FRAME_CAP (PROTO_FRAME_PREFIX + PROTO_FRAME_MAX)
/* Envelopes a seat keeps: far above any game (moves end by the rules),
 * a bound on what a peer spamming chat could make us hold. */
#define MATCH_FRAMES_MAX 65536
/* Clocks (G-MC-6, G-MC-7): the opponent's reported time used per move is
 * accepted down to what we measured minus this lag allowance; a flag is
 * claimed this long after the opponent's time ran out by our measure. */
#define MATCH_LAG_MS PROTO_LAG_MS /* one allowance, witnessed or not */
#define MATCH_FLAG_GRACE_MS 1000
/* The absence countdown (G-MC-9): without a clock 60 s; with one a tenth
 * of base + 40 increments, at least 10 s and at most 60 s. */
/* The bot's draw answer (G-MC-5): accept within this many hundredths of
 * a pawn of level. */
#define MATCH_BOT_DRAW_MARGIN 25
#define MATCH_LINE_MAX CORE_NOTATION_MAX
/* Envelopes other than moves (chat, offers, answers, requests, claims)
 * one side may append in a match (docs/protocol.md, G-SES-5): a bound on
 * what a peer can make every seat hold and show. */
#define MATCH_EXTRA_MAX 256

typedef struct Match_Frame {
    uint8_t *env; /* envelope without prefix */
    size_t len;
    int ours;     /* we signed it */
    int numbered; /* the room we are in has numbered it (relayed it to
                     us, or acked it when ours) */
    uint8_t hash[PROTO_HASH_BYTES]; /* of env: the hash receipts name */
    int has_receipt;                /* receipt holds the relay's, checked */
    Proto_Receipt receipt;
    uint8_t *rec; /* its log record (heap, freed with env) */
    size_t rec_len;
    uint64_t sent_at; /* ours: when first handed out to be sent (our
                         now, ms; 0: not by this process) */
    /* the receipt's time outside our window (match__skew_check): its
     * evidence record, written after the receipt's */
    uint8_t skew_rec[32];
    size_t skew_len;
} Match_Frame;


/* A checked receipt whose frame is not held yet (it waits for earlier
 * ones), by the frame's hash. */
typedef struct Match_Stashed {
    uint8_t hash[PROTO_HASH_BYTES];
    Proto_Receipt receipt;
} Match_Stashed;

/* An envelope that came before the ones it follows: held until they
 * come, the first to arrive per sequence number (the relay's order). */
typedef struct Match_Pending {
    uint32_t seq;   /* its transcript sequence number */
    uint64_t lobby; /* its lobby sequence number (0: unknown) */
    uint8_t *env;
    size_t len;
} Match_Pending;

#define MATCH_PENDING_MAX 64

/* Our sends on this connection, in order, to match acks to (the index
 * of a kept frame, or MATCH_SENT_HELLO). */
#define MATCH_SENT_HELLO SIZE_MAX

struct Match {
    Match_Config cfg;
    char options[PROTO_OPTIONS_MAX + 1];
    char expect[PROTO_OPTIONS_MAX + 1]; /* cfg.expect_options' copy */
    const Core_Game *game;
    Proto_Transcript *t;
    Match_Frame *frames;
    size_t nframes, frames_cap;
    uint32_t moves; /* move envelopes held (each applied once) */
    uint32_t extra[2]; /* other envelopes held, by side (G-SES-5) */
    uint8_t *buf;   /* MATCH_FRAME_CAP scratch for sealing */
    uint8_t *hello; /* the last hello sent (not kept in the transcript) */
    size_t hello_len;
    /* outputs waiting for match_poll */
    Match_Out *outs;
    size_t out_head, out_count, out_cap;
    /* the local player's lines */
    char lines[MATCH_LINES_MAX][MATCH_LINE_MAX];
    uint32_t line_id[MATCH_LINES_MAX]; /* each line's number, in order */
    uint32_t line_ids;                 /* the last number given */
    size_t line_head, line_count;
    int answering; /* the notes made now answer a line (Match_Note.answer) */
    /* the connection */
    int connected;
    int welcomed;
    int unacked;
    size_t *sent;
    size_t sent_head, sent_cap;
    uint64_t last_seq; /* the durable resume point: every lobby seq up
                          to it handled and logged */
    uint64_t seq_rcv;  /* highest lobby seq received in order */
    size_t prefix;       /* leading envelopes the room has numbered */
    size_t prefix_saved; /* ... as last made durable (MATCH_OUT_SEQ) */
    Match_Pending pending[MATCH_PENDING_MAX];
    size_t npending;
    int refetching;    /* a REFETCH is out; until the next welcome */
    uint64_t room_first; /* the oldest frame the room keeps, as our last
                            welcome said (0: unknown) */
    uint8_t room_host[PROTO_KEY_BYTES];
    int room_host_known;
    uint8_t room_guest[PROTO_KEY_BYTES]; /* match_room_guest (zero: none) */
    /* the bot */
    uint64_t think_at;    /* when the bot's delay ends (0: not armed) */
    uint64_t think_for;   /* transcript count + 1 the delay runs for */
    uint64_t ready_for;   /* transcript count + 1 whose delay has passed */
    uint64_t think_token; /* transcript count + 1 THINK was asked for */
    /* the end */
    int log_open, log_ended; /* LOG_OPEN and LOG_END queued */
    int closing;
    uint64_t closed_at; /* now when finish() ran: the clocks stop there */
    int done;
    uint64_t wait_started;
    Match_Result result;
    /* desync */
    int desync;
    uint32_t desync_ply;
    int desync_sent, desync_got, detected, desync_reported;
    uint8_t their_hash[PROTO_HASH_BYTES];
    int their_hash_known;
    uint8_t *their_state;
    size_t their_state_len;
    Core_Position *perturbed;
    /* clocks: our view of both sides' time left when the turn began */
    Proto_Clock clk; /* the match's time control (kind NONE: none) */
    int64_t left[2];
    uint64_t turn_at;
    uint64_t turn_carry;  /* ms the turn had run before turn_at (resume) */
    uint64_t resume_turn; /* match_resume_turn's ms, for the first begin */
    uint64_t resume_at;   /* and the driver's ms it was said at */
    int resume_set;       /* match_resume_turn was called */
    int clock_on;
    int flag_sent, own_flag_said;
    int forced;          /* planted clock bug: a result taken on faith */
    Core_Status forced_status;
    /* the opponent's absence */
    int absent;
    uint64_t absent_at;
    uint32_t absent_ms;
    int absent_said;
    int bot_claimed; /* a bot seat has claimed for this absence */
    /* what the last presence note said of each seat: 0 nothing yet, 1
     * present, 2 gone */
    int seen[2];
    /* each seat seen seated in the room we are in (WELCOME's presence
     * bits, a PRESENCE arrival; cleared by a room the relay re-made): a
     * flag claim against a side its room never seated is void
     * (PROTO_ABSENT_NEVER), and is not sent */
    int room_seated[2];
    /* the relay as witness */
    uint8_t relay_pk[PROTO_KEY_BYTES];
    int relay_known;
    int64_t relay_off; /* the relay's time less our now (ms) */
    Match_Stashed stash[MATCH_PENDING_MAX];
    size_t nstash;
    uint32_t voids_seen; /* refuted flag claims already told */
    uint64_t flag_again; /* ms of the turn when a refuted claim may be
                            made again */
    uint64_t wturn_from; /* the relay time of the turn last shown ... */
    size_t wturn_moves;  /* ... and the moves on the board then */
    uint32_t claims_seen; /* refuted absence claims already told */
    int64_t skew_said; /* the largest deviation of the relay's time told
                          (ms; match__skew_check) */
    /* the test switch's cheating client (forge.c) */
    uint32_t forged; /* its forgeries sent */
    uint8_t *bare;   /* an envelope sent outside our chain (one a session) */
    size_t bare_len;
};

/* ---- session.c ------------------------------------------------------ */
int match__started(const Match *s);
int match__over(const Match *s);
Core_Status match__status(const Match *s);
/* Queue an output of kind; NULL when out of memory (then dropped). */
Match_Out *match__push(Match *s, Match_Out_Kind kind);
/* Seal m as our next envelope, append, log and send it. */
int match__send_msg(Match *s, uint64_t now, Proto_Message *m);
/* Keep, log and send an envelope sealed outside the transcript's add. */
int match__keep(Match *s, const uint8_t *env, size_t len);
void match__log(Match *s, size_t index);
/* Relay kept frame index now (ms). */
void match__relay(Match *s, uint64_t now, size_t index);
/* Relay bytes that are kept frame index (or MATCH_SENT_HELLO), so the
 * lobby's acks, which come in the order of our sends, can be matched;
 * a kept frame first sent now (ms) is so noted (its sent_at). */
void match__relay_bytes(Match *s, uint64_t now, const uint8_t *env,
                        size_t len, size_t index);
void match__show_ply(Match *s, uint32_t ply, int side, const char *move,
                     const uint8_t hash[PROTO_HASH_BYTES]);
/* Whatever follows from the state now: our turn, the end. */
void match__step(Match *s, uint64_t now);
/* Our state to the opponent after a desync (once). */
void match__send_desync(Match *s, uint64_t now);

/* 1 when an envelope of kind counts against its side's budget of
 * envelopes other than moves (all but moves, the start, desync reports). */
int match__extra_kind(int kind);
/* Count (add 1) or uncount (-1) envelope e against its sender's budget. */
void match__extra(Match *s, const Proto_Envelope *e, int add);

/* ---- receive.c ------------------------------------------------------ */
void match__pending_drop(Match *s, size_t i);
/* 1 when the clocks are the relay's (witnessed transcript). */
int match__witnessed(const Match *s);
/* Give the transcript every receipt held, in order; log and show what
 * follows (a refuted or proven flag, a late move). */
void match__witness(Match *s, uint64_t now);
/* The log record of receipt r (for envelope index, or after index
 * receipts) on the heap, *len its bytes; NULL when out of memory. */
uint8_t *match__record(uint32_t index, const Proto_Receipt *r, size_t *len);
/* Keep a presence change the relay witnessed, taken after `after`
 * receipts. Errors: TB_E_LIMIT, TB_E_NOMEM. */
/* A fresh transcript in this session's modes (witnessed, absences)
 * holding frames [0, n) (a desync among them kept, as first taken).
 * Errors: those of proto_transcript_new and _add (*out then NULL). */
int match__rebuild(const Match *s, size_t n, Proto_Transcript **out);
/* 1 when every envelope held has its relay time (always, unwitnessed):
 * a witnessed match ends only then, its last receipt may show a flag
 * fallen first. */
int match__all_witnessed(const Match *s);
/* Witness frames [witness count, upto) of t that have receipts, with
 * the presence changes taken between them, as first taken. */
int match__rewitness(const Match *s, Proto_Transcript *t, size_t upto);
/* 1 when an envelope of ours waits for its receipt: nothing else of
 * ours goes out before it (one order for every reader). */
int match__own_unwitnessed(const Match *s);

/* ---- conduct.c ------------------------------------------------------ */
/* The local player's turn: queued lines or the bot. 1 when something
 * changed (run again). */
int match__take_turn(Match *s, uint64_t now, int my_turn);
void match__show_conduct(Match *s, uint64_t now, const Proto_Message *m);
int match__play_move(Match *s, uint64_t now, const Core_Move *mv);
/* Our move mv as a message: its ply, notation, state hash and clock
 * readings (refused, and said, when our time is up). */
int match__move_msg(Match *s, uint64_t now, const Core_Move *mv,
                    Proto_Message *m);
/* Send our move message m (match__move_msg's) and show it. */
int match__send_move(Match *s, uint64_t now, Proto_Message *m);

/* ---- forge.c -------------------------------------------------------- */
/* The test switch (Match_Config.forge): its forgery, once, at the first
 * step where it applies. 1 when it sent something (step again). */
int match__forge_due(Match *s, uint64_t now, int my_turn);

/* ---- clock.c -------------------------------------------------------- */
void match__clock_begin(Match *s, uint64_t now);
/* The turn restarts at now (a move, a takeback): nothing carried. */
void match__turn_restart(Match *s, uint64_t now);
void match__clock_after_move(Match *s, uint64_t now, int mover,
                             const Proto_Message *m);
int match__clock_for_move(Match *s, uint64_t now, Proto_Message *m);
/* 1 when this seat's own time is up at now: its turn, its clock run out
 * (G-MC-7: it sends no further move; G-MC-9: nor claims the win). */
int match__own_flag(const Match *s, uint64_t now);
/* Clock and absence events due at now (notes, our flag claim). */
void match__clock_tick(Match *s, uint64_t now);
uint64_t match__clock_deadline(const Match *s);
/* After the relay's time of envelope index was taken: show a new turn's
 * clocks, a refuted claim. */
void match__clock_witnessed(Match *s, uint64_t now, uint32_t index);
/* A flag claim the transcript refused: the planted bug takes it. */
void match__clock_plant(Match *s, const Proto_Envelope *e);

/* ---- text.c: lines without stdio ------------------------------------ */
typedef struct Match_Text {
    char *buf;
    size_t cap, len;
} Match_Text;

void match__text_init(Match_Text *t, char *buf, size_t cap);
void match__put(Match_Text *t, const char *s);
/* s left-justified in width columns (at most max bytes of s). */
void match__put_pad(Match_Text *t, const char *s, size_t width, size_t max);
void match__put_u(Match_Text *t, uint64_t v);
/* v right-justified in width columns. */
void match__put_u_pad(Match_Text *t, uint64_t v, size_t width);
void match__put_i(Match_Text *t, int64_t v);
/* ms as "S.mmm". */
void match__put_ms(Match_Text *t, int64_t ms);
/* Untrusted text as cli_token shows it: 60 bytes at most, then "...",
 * control and non-ASCII bytes as '?'. */
void match__put_token(Match_Text *t, const char *s);
/* A NOTE (warning 0) or WARN output; returns its text builder (a note
 * without a code: MATCH_NOTE_TEXT). */
Match_Text match__note(Match *s, int warning);
/* A NOTE or WARN of code with its arguments (NULL: unused; control bytes
 * shown as '?'): its text is the code's English words (note.c). */
void match__say(Match *s, int warning, int code, const char *a1,
                const char *a2, const char *a3, const char *a4);
/* v in decimal into buf (21 bytes); returns buf. */
char *match__u(char buf[21], uint64_t v);
/* ms as "S.mmm" into buf (24 bytes); returns buf. */
char *match__ms(char buf[24], int64_t ms);
/* ms as seconds for a person: "60" when whole, else as match__ms
 * ("17.800"). */
char *match__secs(char buf[24], int64_t ms);
const char *match__side_word(int side);

#endif /* TABULA_MATCH_INTERNAL_H */
