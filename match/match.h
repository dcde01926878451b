/*
 * match.h: one seat (or a spectator) of a network match as a pure state
 * machine, without I/O. It is fed the relayed frames with their lobby
 * sequence numbers, the connection's comings and goings, the local
 * player's commands (a move, resign, draw, accept, decline, abort,
 * takeback N, claim win/draw), a bot's chosen moves and the current time
 * as a plain number of milliseconds; it answers with outputs polled one
 * at a time (frames to relay, log records and lobby sequence numbers to
 * make durable, plies, notes, a bot's turn, a desync, the end) and the
 * time of its next deadline. The hello and its seat proof, the match
 * start, the transcript checks, state hashes and desync reports, the
 * clocks and flag claims, absence claims, draw offers, takebacks, bot
 * answers and resume from a match log all live here, once. It uses only
 * libc, core/ and proto/: no stdio, no clock, no threads, no sockets, so
 * the same object runs under libuv (client/netgame.c), inside the
 * simulator (sim/) and in WebAssembly. docs/session.md.
 *
 * Errors are the negative TB_E_* codes of tb_error.h.
 */
#ifndef TABULA_MATCH_H
#define TABULA_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

typedef struct Match Match; /* opaque, heap */

/* Who a session is: the lobby's seat numbers (LOBBY_ROLE_*). */
typedef enum Match_Role {
    MATCH_ROLE_HOST = 0,  /* white; sends the match start */
    MATCH_ROLE_GUEST = 1, /* black; sends the hello */
    MATCH_ROLE_SPECTATOR = 2
} Match_Role;

/* Known bugs simtest plants in one side (TABULA_SIMTEST_PLANT), to prove
 * it catches them; never set outside simtest and the session tests. */
#define MATCH_PLANT_DUP 1u   /* a frame delivered twice is applied twice */
#define MATCH_PLANT_SKIP 2u  /* a gap in lobby sequence numbers unnoticed */
#define MATCH_PLANT_ACK 4u   /* a frame acknowledged before it is logged */
#define MATCH_PLANT_CLOCK 8u /* a flag claim taken without its readings */
#define MATCH_PLANT_CLAIM 16u /* an absence claim the receipts refute ends
                                 the game all the same */
#define MATCH_PLANT_REFUSED 32u /* a desync report or an abort the rules
                                   refuse ends the game all the same */

/*
 * Match_Forge: the lies a cheating client can sign, the fair-play issue's
 * exploits, for tests to prove that the honest seats and `tabula replay`
 * refuse them (match_forge; Match_Config.forge; TABULA_TEST_CHEAT in the
 * terminal, docs/usage.md).
 */
typedef enum Match_Forge {
    MATCH_FORGE_NONE = 0,
    MATCH_FORGE_FLAG,   /* on our turn: our move (the first legal one) whose
                           readings give the opponent 1 ms; on its turn: a
                           claim of its flag 1 ms into the turn. The switch
                           sends the move, then the claim */
    MATCH_FORGE_DESYNC_TRUE,  /* once both sides moved, on either turn: a
                                 desync report of the state both hold */
    MATCH_FORGE_DESYNC_FALSE, /* ... of a state the moves do not give */
    MATCH_FORGE_CLAIM,  /* once the opponent moved: the win, as if it were
                           absent past the countdown (it never left) */
    MATCH_FORGE_ABORT   /* once both sides moved: an abort (simtest's
                           adversary; the switch does not offer it) */
} Match_Forge;

/*
 * Match_Config: who the seat is. Everything a session would otherwise take
 * from the operating system comes in here.
 *   role          MATCH_ROLE_HOST, _GUEST or _SPECTATOR
 *   game, options the host's game and match options (NULL, "" otherwise)
 *   id            a player's key pair (unused for a spectator)
 *   seat_key      players: the invite code's seat key
 *                 (lobby_code_seat_key), proving the hello
 *   match_id      the host's match id (random bytes from the driver)
 *   started       the host's match start time, Unix seconds
 *   bot           1: a bot seat (MATCH_OUT_THINK asks for its moves;
 *                 it answers offers itself, G-MC-5); 0: commands
 *   bot_delay_ms  a bot waits this long into its turn before thinking
 *   absence_ms    the absence countdown (0: G-MC-9's rule)
 *   perturb_ply   test switch: from this ply on, the seat's own state
 *                 diverges at its first move (0: never)
 *   clock_lie     test switch: the seat reports no time used per move
 *   plant         MATCH_PLANT_* bits (simtest only)
 *   forge         test switch: the seat cheats (Match_Forge), sending
 *                 its forgery once, at the first moment it applies
 *                 (the flag's: its lying move, then its claim)
 *   expect_game, expect_options  a guest's: the game and match options
 *                 (as the players chose them: proto_options_chosen) the
 *                 host promised in the public seek the guest took (issue
 *                 37); a match start of another game or other options
 *                 is refused (TB_E_SIGNATURE: a host that lied in its
 *                 seek). NULL: any start is taken.
 */
typedef struct Match_Config {
    Match_Role role;
    const Core_Game *game;
    const char *options;
    Proto_Identity id;
    uint8_t seat_key[32];
    uint8_t match_id[PROTO_MATCH_ID_BYTES];
    uint64_t started;
    int bot;
    uint32_t bot_delay_ms;
    uint32_t absence_ms;
    uint32_t perturb_ply;
    int clock_lie;
    unsigned plant;
    Match_Forge forge;
    const Core_Game *expect_game;
    const char *expect_options;
    int witnessed; /* clocks and absences from the relay's receipts (a
                      lobby game, lobby protocol 3; the fair-play issue):
                      see proto_transcript_witness_mode and
                      proto_transcript_witness_absence */
} Match_Config;

/* What a session hands back (match_poll), in the order it must happen. */
typedef enum Match_Out_Kind {
    MATCH_OUT_SEND = 1, /* data/len: an envelope to relay to the room */
    MATCH_OUT_LOG_OPEN, /* create the match log: its header and the
                           first `count` held envelopes with the first
                           `seq` receipts (match_log_header,
                           match_log_fill), before any LOG */
    MATCH_OUT_LOG,      /* data/len: a record to append to the log (an
                           envelope, a relay's receipt) */
    MATCH_OUT_LOG_END,  /* the game is over: finish the log with count
                           envelopes and chain hash `hash` (bytes), then
                           close it (a desync closes without finishing:
                           count 0) */
    MATCH_OUT_SEQ,      /* seq: every frame up to this lobby sequence
                           number is handled and logged, and the first
                           count envelopes are known to the room: persist
                           both as the resume point, after the records
                           before it */
    MATCH_OUT_PLY,      /* ply, side, text (the move), hex (state hash) */
    MATCH_OUT_NOTE,     /* text: a line for the player (no newline) */
    MATCH_OUT_WARN,     /* text: a warning (no newline) */
    MATCH_OUT_THINK,    /* a bot seat's turn: choose a move for
                           match_transcript's position, answer with
                           match_bot_move(token) */
    MATCH_OUT_REFETCH,  /* seq: frames were lost on the way: reconnect and
                           ask the lobby for every frame after seq */
    MATCH_OUT_DESYNC,   /* the game stopped on a state hash mismatch: write
                           the report (match_desync_states) */
    MATCH_OUT_RETRACT,  /* our last `count` envelopes (`ply` of them moves)
                           lost a race for their sequence numbers to the
                           opponent's and are taken back (the log is
                           rewritten: a LOG_OPEN follows) */
    MATCH_OUT_DONE      /* finished: the session wants nothing more */
} Match_Out_Kind;

#define MATCH_TEXT_MAX 640

/*
 * Match_Note: what a NOTE or WARN says, as a code and its arguments
 * (match/note.c holds each code's words, once): the session writes the
 * English text from them (Match_Out.text, what a log or a script reads)
 * and a front end its own language from the same words
 * (match_note_words, then match_note_render with its word translator),
 * never by reading the English text. MATCH_NOTE_TEXT: a note with no
 * code (a technical line, said in English only).
 */
typedef enum Match_Note_Code {
    MATCH_NOTE_TEXT = 0,
    MATCH_NOTE_DRAW_OFFER,          /* side */
    MATCH_NOTE_DRAW_OFFER_TO_YOU,   /* side */
    MATCH_NOTE_DRAW_OFFER_YOURS,    /* side */
    MATCH_NOTE_DRAW_ACCEPT,         /* side */
    MATCH_NOTE_DRAW_DECLINE,        /* side */
    MATCH_NOTE_RESIGN,              /* side */
    MATCH_NOTE_ABORT,               /* side */
    MATCH_NOTE_TAKEBACK_DECLINE,    /* side */
    MATCH_NOTE_TAKEBACK_ASK,        /* side, plies */
    MATCH_NOTE_TAKEBACK_ASK_YOU,    /* side, plies */
    MATCH_NOTE_TAKEBACK_ACCEPT,     /* side, ply, side to move, hash */
    MATCH_NOTE_FLAG,                /* claimant, flagged side, elapsed ms */
    MATCH_NOTE_CLAIM_DRAW,          /* side */
    MATCH_NOTE_CLAIM_WIN,           /* side */
    MATCH_NOTE_TIME_UP,             /* (our own flag fell) */
    MATCH_NOTE_FLAG_VOID,           /* flagged side, its time left (s): a
                                       claim the relay's times refute */
    MATCH_NOTE_CLAIM_VOID,          /* the countdown (s): an absence
                                       claim the relay's records refute */
    MATCH_NOTE_RELAY_AHEAD,         /* envelope number, by how much (s):
                                       a receipt later than it could be
                                       by this seat's clock (evidence) */
    MATCH_NOTE_RELAY_BEHIND,        /* the same, earlier than this seat
                                       sent it */
    MATCH_NOTE_ABSENT_CLAIM,        /* seconds gone */
    MATCH_NOTE_ABSENT_LEFT,         /* seconds until a claim */
    MATCH_NOTE_ABSENT_LEFT_BOT,     /* seconds until the bot claims */
    MATCH_NOTE_HOST_PRESENT,
    MATCH_NOTE_HOST_GONE,
    MATCH_NOTE_GUEST_PRESENT,
    MATCH_NOTE_GUEST_GONE,
    MATCH_NOTE_CLOCK,               /* white's seconds, black's */
    MATCH_NOTE_DESYNC,              /* ply */
    MATCH_NOTE_START_HOST,          /* game and options, the guest's key */
    MATCH_NOTE_START_WHITE_YOU,     /* game and options, white, black */
    MATCH_NOTE_START_BLACK_YOU,     /* game and options, white, black */
    MATCH_NOTE_START_WATCH,         /* game and options, white, black */
    MATCH_NOTE_LINE_HELD,           /* line: kept for the player's turn */
    MATCH_NOTE_ANSWER_HELD,         /* an answer kept for the turn */
    /* refusals of a seat's own line, from here to the end */
    MATCH_NOTE_REFUSED_TIME_UP,
    MATCH_NOTE_REFUSED_NOT_ABSENT,  /* line */
    MATCH_NOTE_REFUSED_LINE_TIME_UP, /* line */
    MATCH_NOTE_REFUSED_LINE,        /* line, why (the transcript's, English) */
    MATCH_NOTE_REFUSED_NOTHING_TO_ANSWER, /* line */
    MATCH_NOTE_REFUSED_OFFER_STANDS,      /* line */
    MATCH_NOTE_REFUSED_ACCEPT_THEIRS,     /* line */
    MATCH_NOTE_REFUSED_DRAW_LIMIT,        /* line */
    MATCH_NOTE_REFUSED_ABORT_LATE,        /* line */
    MATCH_NOTE_REFUSED_TAKEBACK_RANGE,    /* line */
    MATCH_NOTE_REFUSED_NOTHING_TO_TAKE_BACK, /* line */
    MATCH_NOTE_REFUSED_UNKNOWN,           /* line */
    MATCH_NOTE_REFUSED_MOVE,  /* line, core's error text, the move hint */
    MATCH_NOTE_REFUSED_SEND,  /* kind, error text, why (English) */
    MATCH_NOTE_COUNT
} Match_Note_Code;

#define MATCH_NOTE_ARGS 4
#define MATCH_NOTE_ARG_MAX 256

typedef struct Match_Note {
    int code;                                  /* a Match_Note_Code */
    char arg[MATCH_NOTE_ARGS][MATCH_NOTE_ARG_MAX]; /* "" when unused */
    /* 1: the session's answer to one of the seat's own lines
     * (match_command): its refusal, the message sent for it, or that it
     * waits for the turn, and later, once the turn came, what a waiting
     * line did; a front end shows it where the player looks (the message
     * line). A move's ply and clock lines are none. */
    int answer;
} Match_Note;

/*
 * match_note_words: the English words of code, a format where {k} is
 * argument k (1..4) as it is and {wk} argument k as a word the front end
 * translates (a side's name "white"/"black", core's error text, a game's
 * move hint); *plural the format for a count other than one (NULL: none)
 * and *count_arg the argument (1..4) counted. NULL for MATCH_NOTE_TEXT
 * or an unknown code. Either out pointer may be NULL.
 */
const char *match_note_words(int code, const char **plural, int *count_arg);

/* match_note_render: format (match_note_words's, or its translation)
 * with n's arguments into out (cap bytes, NUL-terminated, cut to fit);
 * word(arg) says a {wk} argument (NULL: as it is). Returns the length. */
size_t match_note_render(const char *format, const Match_Note *n,
                         const char *(*word)(const char *arg), char *out,
                         size_t cap);

/* match_note_is_refusal: 1 when code refuses a seat's own line. */
int match_note_is_refusal(int code);

typedef struct Match_Out {
    Match_Out_Kind kind;
    const uint8_t *data; /* SEND, LOG: valid until match_free */
    size_t len;
    uint64_t seq;   /* SEQ, REFETCH; THINK: the token; LOG_OPEN: the
                       receipts to write with the envelopes */
    uint32_t count; /* LOG_OPEN, LOG_END, RETRACT, SEQ */
    uint32_t ply;   /* PLY; RETRACT: moves taken back */
    int side;       /* PLY: CORE_WHITE or CORE_BLACK */
    uint8_t hash[PROTO_HASH_BYTES]; /* LOG_END: chain hash */
    char hex[PROTO_HASH_HEX];       /* PLY: state hash */
    char text[MATCH_TEXT_MAX];      /* PLY: move; NOTE, WARN: the line */
    Match_Note note;                /* NOTE, WARN: what the line says */
} Match_Out;

/* The outcome so far. */
typedef struct Match_Result {
    int finished;   /* the game reached its end (or a desync was settled) */
    int desync;     /* stopped by a state hash mismatch */
    uint32_t desync_ply;
    uint32_t plies;
    Core_Status status;
    char final_hash[PROTO_HASH_HEX];
    uint32_t refused; /* envelopes refused (hostile or broken) */
} Match_Result;

/*
 * match_new: a session for cfg (copied; the identity too). Nothing is
 * sent until match_welcome. Errors: TB_E_ARG (host without a game),
 * TB_E_NOMEM.
 */
int match_new(const Match_Config *cfg, Match **out);

/* match_free: release s; NULL is fine. */
void match_free(Match *s);

/*
 * match_resume: before the first welcome, take back a match log (all its
 * bytes, as read from the file): verified as `tabula replay` does (a torn
 * tail is dropped, a desync kept) and replayed into the transcript; a
 * LOG_OPEN follows to rewrite the log from the held envelopes. last_seq
 * and numbered are the resume point the seat had made durable
 * (MATCH_OUT_SEQ's seq and count; 0 and 0 when unknown). why gets a
 * reason on failure. Errors: those of proto_log_verify, TB_E_STATE
 * (called after a welcome, or the log holds a match of another game than
 * the configured one: why names both).
 */
int match_resume(Match *s, const uint8_t *log, size_t len, uint64_t last_seq,
                 uint32_t numbered, char *why, size_t why_cap);

/*
 * match_resume_turn: after match_resume and before the first welcome, in a
 * match with a clock: at now (the driver's ms) the turn in progress when
 * the seat stopped had run elapsed_ms (its time before the stop plus the
 * time the seat was away: wall time since the seat took the last move,
 * which the driver kept beside its log; see match_turn_elapsed). The
 * side to move's clock goes on from there instead of restarting the turn
 * (G-MC-6), the time until the first welcome (a relay out of reach)
 * counted too. Values above MATCH_RESUME_TURN_MAX_MS (one day) are taken
 * as that; the driver maps a kept time in the future to 0. Without a
 * resume, or without a clock, it does nothing.
 */
#define MATCH_RESUME_TURN_MAX_MS 86400000u

/* The seats' tolerance for the relay's times (below, match_relay). */
#define MATCH_RELAY_SKEW_MS 2000
void match_resume_turn(Match *s, uint64_t now, uint64_t elapsed_ms);

/*
 * match_turn_away: the ms a turn that began at turn_at (the wall time a
 * driver kept, 0: unknown) has run by now (the wall time, ms): 0 when
 * unknown or in the future (a clock set back), at most
 * MATCH_RESUME_TURN_MAX_MS: what match_resume_turn takes.
 */
uint64_t match_turn_away(uint64_t turn_at, uint64_t now);

/*
 * match_turn_elapsed: ms the turn in progress has run at now (the
 * driver's ms) as this seat measures it, from the last move (or
 * takeback, or the match start) it took; -1 without a clock, before the
 * start or after the end. A driver keeps its wall time less this, to
 * pass to match_resume_turn after a restart.
 */
int64_t match_turn_elapsed(const Match *s, uint64_t now);

/*
 * match_welcome: admitted to the room (again) at time now (ms): the room's
 * host key (the match start's white must be it), the oldest frame the
 * room keeps (0: none; then all our envelopes are sent again, else the
 * last few), the room's next sequence number, and who is seated.
 */
void match_welcome(Match *s, uint64_t now, const uint8_t host_pk[32],
                   uint64_t first_seq, uint64_t next_seq, int host_present,
                   int guest_present);

/* match_disconnected: the connection to the room is gone (sends wait). */
void match_disconnected(Match *s, uint64_t now);

/* match_presence: the lobby says seat (MATCH_ROLE_HOST or _GUEST) came
 * (1) or went (0). The other seat's news is noted ("lobby: guest
 * present") only when it differs from the last said of that seat. */
void match_presence(Match *s, uint64_t now, int seat, int present);

/*
 * match_frame: one relayed envelope (no frame prefix) with its lobby
 * sequence number (0: none, as in tests of hostile input) and the seat
 * that sent it. Returns 0 when accepted (or a known duplicate, or held
 * until the envelopes before it arrive), else the refusal; either way
 * the frame was handled.
 */
int match_frame(Match *s, uint64_t now, uint64_t seq, int from,
                const uint8_t *env, size_t len);

/* match_acked: the lobby numbered our own frame seq. */
void match_acked(Match *s, uint64_t now, uint64_t seq);

/*
 * The relay as a witness (the fair-play issue; docs/trust.md). In a
 * witnessed session (Match_Config.witnessed, or resumed from a version 3
 * log) every frame the relay numbers comes with its signed receipt, and
 * the clocks, flags and absences follow the receipts only.
 *
 * Each seat cross-checks the relay's times: a receipt cannot be later
 * than its arrival here, nor, for the seat's own frame, earlier than the
 * seat first sent it, both read on the relay's clock as the last
 * WELCOME set it. One outside that window by more than
 * MATCH_RELAY_SKEW_MS (ms: the drift of two clocks over a long game and
 * the way's jitter) is told (MATCH_NOTE_RELAY_AHEAD, _BEHIND) and kept
 * in the seat's log as evidence (proto_log_skew_record); it still
 * counts, as it does for every other reader.
 *
 * match_relay: after match_welcome, the relay node's key (its receipts
 * must be signed by it) and its time (ms since the Unix epoch) at the
 * welcome, which sets this seat's reading of the relay's clock.
 */
void match_relay(Match *s, uint64_t now, const uint8_t relay_pk[32],
                 uint64_t relay_time);

/*
 * match_room_guest: the key the room's guest seat holds, as the relay's
 * WELCOME and PRESENCE name it (lobby protocol 4; zero: none yet): its
 * receipts are signed for it. A frame's receipt is checked for it, or
 * for none (a frame numbered before a guest was seated); one kept for
 * an envelope of the match must be signed for the match's black (a
 * room where another key sat as the guest is another room: its
 * receipt is refused, and the frame stays unwitnessed there).
 */
void match_room_guest(Match *s, const uint8_t guest_pk[32]);

/*
 * match_frame_witnessed: match_frame with the relay's receipt r for it
 * (NULL: none). A receipt that is not this relay's signature of this
 * frame, number and room is refused with the frame (TB_E_SIGNATURE; the
 * frame comes again). Errors: those of match_frame.
 */
int match_frame_witnessed(Match *s, uint64_t now, uint64_t seq, int from,
                          const uint8_t *env, size_t len,
                          const Proto_Receipt *r);

/*
 * match_presence_witnessed: match_presence with the relay's signed word
 * r for it (NULL: none). Witnessed, the transcript takes it (it decides
 * every absence claim) and the log keeps it; one that is not this
 * relay's for this room, seat and news is noted and ignored.
 */
void match_presence_witnessed(Match *s, uint64_t now, int seat, int present,
                              const Proto_Receipt *r);

/* match_acked_witnessed: match_acked with the receipt of our frame (NULL:
 * none; one that does not verify is noted and dropped). */
void match_acked_witnessed(Match *s, uint64_t now, uint64_t seq,
                           const Proto_Receipt *r);

/*
 * match_forge: a cheating client's forgery of kind (Match_Forge), now:
 * signed with our key as our next envelope and sent through the
 * session's own output, so the relay numbers and witnesses it as any
 * frame. One our own transcript takes is kept and logged as every reader
 * then holds it (a flag or absence claim, void by its receipt in a
 * witnessed match; a false desync report, lost by us); one it refuses (a
 * desync report of the true state) goes out bare, outside our chain,
 * which goes on without it as every honest reader's does. No check is
 * bent for it. Simtest's adversary and the test switch
 * (Match_Config.forge) use it; a WARN says what went out. Errors:
 * TB_E_STATE when kind does not apply now (no match, over, a spectator,
 * our last envelope not yet witnessed, no clock for a flag; a bare
 * forgery already sent: one a session), those of the send.
 */
int match_forge(Match *s, uint64_t now, Match_Forge kind);

/*
 * match_log_header: the header of this match's log: version 2 with the
 * room's key when the session is witnessed. Errors: TB_E_STATE (no match
 * start held yet).
 */
int match_log_header(const Match *s, Proto_Log_Header *h);

/*
 * match_log_fill: append to log what LOG_OPEN asks: the first `count`
 * envelopes held, each followed by its receipt record when it is one of
 * the first `witnessed` (LOG_OPEN's seq). Errors: those of
 * proto_log_append_record.
 */
int match_log_fill(const Match *s, Proto_Log *log, uint32_t count,
                   uint64_t witnessed);

/*
 * match_command: a line typed by the local player (see netgame_submit
 * for the commands). Lines queue and are used when they can be (G-MC-1);
 * answers jump the queue. Errors: TB_E_STATE (a spectator or bot seat),
 * TB_E_LIMIT (queue full).
 */
int match_command(Match *s, uint64_t now, const char *line);

/*
 * match_refused_line: a line the driver refused before handing it in (a
 * move its reader could not read, why its words), said as the session
 * says its own refusals: a NOTE MATCH_NOTE_REFUSED_LINE ("refused:
 * 'LINE': WHY").
 */
void match_refused_line(Match *s, const char *line, const char *why);

/*
 * match_bot_move: the move a bot chose after MATCH_OUT_THINK with token
 * (ignored when the game moved on since). Errors: TB_E_STATE (stale),
 * those of the move's checks.
 */
int match_bot_move(Match *s, uint64_t now, uint64_t token,
                   const Core_Move *mv);

/* match_tick: time passed; call at match_deadline (or any time). */
void match_tick(Match *s, uint64_t now);

/* match_deadline: when match_tick is next due (ms), or UINT64_MAX. */
uint64_t match_deadline(const Match *s);

/* match_poll: the next output into *out: 1, or 0 when there is none. */
int match_poll(Match *s, Match_Out *out);

/* ---- state for a front end ------------------------------------------ */

const Match_Result *match_result(const Match *s);
const Proto_Transcript *match_transcript(const Match *s);
/* The player's side (CORE_WHITE/BLACK) or -1 (spectator, no match). */
int match_side(const Match *s);
/* 1 once MATCH_OUT_DONE was queued. */
int match_done(const Match *s);
/* Envelopes held (match start first) and the i-th of them. */
uint32_t match_frames(const Match *s);
const uint8_t *match_frame_at(const Match *s, uint32_t i, size_t *len);
/* ms left to side as this seat sees it at now (-1: no clock); 0 for the
 * side whose flag fell, once the game ended on time. */
int64_t match_clock_left(const Match *s, uint64_t now, int side);
/* The side whose draw offer stands, or -1. */
int match_draw_offer(const Match *s);
/*
 * match_takeback_plies: the one rule of what a plain `takeback` undoes,
 * for a network seat's request (G-MC-4), a local game on the terminal
 * and the page's local game: of the n moves played from start, the last
 * ply made by a side in sides (bit 0 White, bit 1 Black) and every ply
 * after it, so that side is to move again however many plies the other
 * made in a row (Chess volleyball's touches), after the game's end too.
 * sides holding both or neither side (two players at one device, or
 * none): the last ply. 0 when there is nothing to take back (no ply, or
 * none by those sides, or a move of moves that start does not take).
 */
size_t match_takeback_plies(const Core_Position *start, const Core_Move *moves,
                            size_t n, unsigned sides);

/*
 * match_conduct_line: the one grammar that tells a conduct command from
 * a move, for every front end (terminal line mode and board, the page):
 * 1 when line's first word (up to a space, a tab or the end) is resign,
 * draw, accept, decline, abort, takeback or claim (the commands of
 * docs/usage.md: resign, draw, accept, decline, abort, takeback [N],
 * claim win|draw), so it goes to match_command as typed and the session
 * reads it and refuses a malformed one with its reason ("takeback x",
 * "claim now"); 0 otherwise (a move, to be read as one). No game's move
 * begins with one of these words.
 */
int match_conduct_line(const char *line);

/*
 * match_parse_takeback: whether a typed line is the takeback command.
 * 1 with *plies 0 for the plain word `takeback` (the last full move, as
 * the caller counts it) or N for `takeback N` (1..255, G-MC-4; spaces
 * or tabs between); -1 for anything else after the word (`takeback 0`,
 * `-1`, `abc`, a number over 255 or text after it), which the caller
 * refuses with "a takeback is of 1 to 255 plies"; 0 when line is not the
 * command (then it is a move). No game's move begins with the word.
 */
int match_parse_takeback(const char *line, unsigned *plies);

/* The side whose takeback request waits, or -1 (*plies: its plies). */
int match_takeback(const Match *s, uint32_t *plies);
/* ms until an absence claim is allowed (0: now; -1: none pending). */
int64_t match_absence_left(const Match *s, uint64_t now);
/* Move envelopes held: each applied once (takebacks do not lower it). */
uint32_t match_moves(const Match *s);
/* The lobby sequence number to resume from (highest handled in order). */
uint64_t match_last_seq(const Match *s);
/* Lines given to match_command and not yet used (G-MC-1's queue). */
size_t match_lines_waiting(const Match *s);
/* The envelopes this seat sent that the relay has not yet acknowledged
 * (numbered) on this connection: 0 once every move made is the room's. */
size_t match_unacked(const Match *s);
/*
 * match_desync_states: after MATCH_OUT_DESYNC, our state encoding (to
 * free()) and the peer's (valid until match_free; NULL when it never
 * came), with their hashes (*theirs_known 0 when unknown).
 */
int match_desync_states(const Match *s, uint8_t **ours, size_t *ours_len,
                        uint8_t our_hash[PROTO_HASH_BYTES],
                        const uint8_t **theirs, size_t *theirs_len,
                        uint8_t their_hash[PROTO_HASH_BYTES],
                        int *theirs_known);

#endif /* TABULA_MATCH_H */
