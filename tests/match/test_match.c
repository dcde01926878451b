/*
 * test_match.c: the match/ session driven directly: a host, a guest and a
 * spectator joined by a relay of a few lines in this file (sequence
 * numbers, acks, presence), simulated time as a plain number, logs in a
 * temporary directory. No processes, no sockets, no sleeping. Expected
 * results are the rules' (resign, agreement, time, abandon); expected
 * hashes come from core/ replaying the same moves on its own.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "match.h"
#include "proto/match_util.h" /* ident() */

#define SEATS 3
#define NOTES 256

/* The Laska moves of the first-legal-move line (tabula moves laska ...,
 * taking the first each time). */
static const char *const line10[] = {"a3-b4", "c5xa3", "c3-b4", "a5xc3",
                                     "b2xd4", "a3-b2", "c1xa3", "e5-f4",
                                     "g3xe5", "d6xf4"};

typedef struct Seat {
    Match *m;
    int present, done, desync_out, refetched;
    uint64_t refetch_from;
    FILE *log;
    char log_path[128];
    uint64_t seq_durable;
    char notes[NOTES][MATCH_TEXT_MAX];
    int answers[NOTES]; /* each note's Match_Note.answer */
    size_t nnotes;
} Seat;

#define KEPT 512

typedef struct Room {
    Seat seat[SEATS];
    uint8_t *kept[KEPT]; /* the relay's frames: number k at k - 1 */
    size_t kept_len[KEPT];
    int kept_from[KEPT];
    uint64_t next_seq, now;
    char dir[64];
    /* witnessed (the fair-play issue): the relay signs a receipt of
     * each frame at its time, EPOCH + now */
    int witness;
    uint64_t kept_time[KEPT];
    /* ... and attests how long each seat had been gone (G-MC-9w): the
     * relay saw seat k go at gone_at[k] (witness_presence) */
    uint32_t kept_absent[KEPT][2];
    int gone[2];
    uint64_t gone_at[2];
    int64_t skew; /* the relay's clock runs this far from its WELCOMEs' */
    int host_sees_no_guest; /* the host's WELCOMEs say no guest seated */
} Room;

#define EPOCH 1765000000000ull

/* The relay numbers frame seq now: its time, and the seats' absences. */
static void number(Room *r, uint64_t seq)
{
    r->kept_time[seq - 1] = (uint64_t)((int64_t)(EPOCH + r->now) + r->skew);
    for (int k = 0; k < 2; k++)
        r->kept_absent[seq - 1][k] =
            r->gone[k] ? (uint32_t)(EPOCH + r->now - r->gone_at[k]) : 0;
}

/* The relay's receipt of frame seq (payload p, len bytes) as numbered. */
static Proto_Receipt receipt_of(const Room *r, uint64_t seq, const uint8_t *p,
                                size_t len)
{
    Proto_Identity relay = ident(77), host = ident(1), guest = ident(2);
    uint8_t hash[PROTO_HASH_BYTES];
    Proto_Receipt rc = {.kind = PROTO_RECEIPT_FRAME, .seq = seq,
                        .time_ms = r->kept_time[seq - 1],
                        .absent_ms = {r->kept_absent[seq - 1][0],
                                      r->kept_absent[seq - 1][1]}};
    memcpy(rc.guest, guest.pk, PROTO_KEY_BYTES); /* the room's guest */
    cr_assert_eq(proto_receipt_hash(p, len, hash), 0);
    cr_assert_eq(proto_receipt_sign(&rc, host.pk, hash, &relay), 0);
    return rc;
}

/* Relay frame seq (kept) to seat j, with its receipt when witnessed. */
static void deliver(Room *r, int j, uint64_t seq)
{
    Proto_Receipt rc;
    if (r->witness) {
        rc = receipt_of(r, seq, r->kept[seq - 1], r->kept_len[seq - 1]);
        match_frame_witnessed(r->seat[j].m, r->now, seq,
                              r->kept_from[seq - 1], r->kept[seq - 1],
                              r->kept_len[seq - 1], &rc);
    } else {
        match_frame(r->seat[j].m, r->now, seq, r->kept_from[seq - 1],
                    r->kept[seq - 1], r->kept_len[seq - 1]);
    }
}

static void write_frame(FILE *f, const uint8_t *env, size_t len)
{
    uint8_t pre[4] = {(uint8_t)(len >> 24), (uint8_t)(len >> 16),
                      (uint8_t)(len >> 8), (uint8_t)len};
    fwrite(pre, 1, 4, f);
    fwrite(env, 1, len, f);
    fflush(f);
}

static void pump(Room *r);

/* Carry out seat i's outputs; 1 when there were any. */
static int drain(Room *r, int i)
{
    Seat *s = &r->seat[i];
    Match_Out o;
    int any = 0;
    while (s->m != NULL && match_poll(s->m, &o)) {
        any = 1;
        switch (o.kind) {
        case MATCH_OUT_SEND: {
            uint64_t seq = ++r->next_seq;
            cr_assert_lt(seq, KEPT);
            r->kept[seq - 1] = malloc(o.len);
            memcpy(r->kept[seq - 1], o.data, o.len);
            r->kept_len[seq - 1] = o.len;
            r->kept_from[seq - 1] = i;
            number(r, seq);
            for (int j = 0; j < SEATS; j++)
                if (j != i && r->seat[j].m != NULL && r->seat[j].present)
                    deliver(r, j, seq);
            if (r->witness) {
                Proto_Receipt rc = receipt_of(r, seq, o.data, o.len);
                match_acked_witnessed(s->m, r->now, seq, &rc);
            } else {
                match_acked(s->m, r->now, seq);
            }
            break;
        }
        case MATCH_OUT_LOG_OPEN: {
            /* The real driver writes the header with proto_log_create;
             * here the log is the envelopes only (enough for resume). */
            snprintf(s->log_path, sizeof s->log_path, "%s/seat%d.log",
                     r->dir, i);
            Proto_Log *lg = NULL;
            Proto_Log_Header h;
            if (s->log)
                fclose(s->log);
            cr_assert_eq(match_log_header(s->m, &h), 0);
            unlink(s->log_path);
            cr_assert_eq(proto_log_create(&lg, s->log_path, &h), 0);
            cr_assert_eq(match_log_fill(s->m, lg, o.count, o.seq), 0);
            proto_log_close(lg);
            s->log = fopen(s->log_path, "ab");
            cr_assert_not_null(s->log);
            break;
        }
        case MATCH_OUT_LOG:
            cr_assert_not_null(s->log, "a record before the log opened");
            write_frame(s->log, o.data, o.len);
            break;
        case MATCH_OUT_LOG_END:
            if (s->log)
                fclose(s->log);
            s->log = NULL;
            break;
        case MATCH_OUT_SEQ:
            s->seq_durable = o.seq;
            break;
        case MATCH_OUT_NOTE:
        case MATCH_OUT_WARN:
            /* a plain line's arguments are "" (not the ring's old bytes,
             * which the page showed: under ASan's malloc fill they are
             * not zero) */
            if (o.note.code == MATCH_NOTE_TEXT)
                for (int a = 0; a < MATCH_NOTE_ARGS; a++)
                    cr_assert_eq(o.note.arg[a][0], '\0', "%s: arg %d",
                                 o.text, a);
            if (s->nnotes < NOTES) {
                s->answers[s->nnotes] = o.note.answer;
                memcpy(s->notes[s->nnotes++], o.text, sizeof o.text);
            }
            break;
        case MATCH_OUT_THINK: {
            const Core_Position *pos =
                proto_transcript_position(match_transcript(s->m));
            size_t cap = core_game_max_moves(core_position_game(pos)), n = 0;
            Core_Move *mv = calloc(cap, sizeof *mv);
            cr_assert_eq(core_moves(pos, mv, cap, &n), 0);
            cr_assert_gt(n, 0);
            match_bot_move(s->m, r->now, o.seq, &mv[0]);
            free(mv);
            break;
        }
        case MATCH_OUT_REFETCH:
            s->refetched = 1;
            s->refetch_from = o.seq;
            break;
        case MATCH_OUT_DESYNC:
            s->desync_out = 1;
            break;
        case MATCH_OUT_DONE:
            s->done = 1;
            break;
        default:
            break;
        }
    }
    return any;
}

static void pump(Room *r)
{
    for (int guard = 0; guard < 10000; guard++) {
        int any = 0;
        for (int i = 0; i < SEATS; i++)
            any |= drain(r, i);
        if (!any)
            return;
    }
    cr_assert_fail("the seats never went quiet");
}

static void seat_config(Match_Config *c, int role, const char *options)
{
    memset(c, 0, sizeof *c);
    c->role = (Match_Role)role;
    c->id = ident((uint8_t)(role + 1));
    memset(c->seat_key, 7, sizeof c->seat_key);
    memset(c->match_id, 9, sizeof c->match_id);
    c->started = 1700000000;
    if (role == MATCH_ROLE_HOST) {
        c->game = core_game_find("laska");
        c->options = options;
    }
}

static void welcome(Room *r, int i)
{
    uint8_t host_pk[32];
    Proto_Identity h = ident(1);
    memcpy(host_pk, h.pk, 32);
    r->seat[i].present = 1;
    match_welcome(r->seat[i].m, r->now, host_pk, r->next_seq ? 1 : 0,
                  r->next_seq + 1, 1, !(i == 0 && r->host_sees_no_guest));
    if (r->witness) {
        Proto_Identity relay = ident(77), guest = ident(2);
        match_room_guest(r->seat[i].m, guest.pk);
        match_relay(r->seat[i].m, r->now, relay.pk, EPOCH + r->now);
    }
    /* catch-up: every kept frame after the seat's resume point */
    for (uint64_t k = match_last_seq(r->seat[i].m) + 1; k <= r->next_seq; k++)
        deliver(r, i, k);
    pump(r);
}

/* Host, guest and spectator made, none welcomed yet; tweak (may be
 * NULL) adjusts each seat's configuration. */
static void room_new(Room *r, const char *options,
                     void (*tweak)(Match_Config *c, int role))
{
    memset(r, 0, sizeof *r);
    snprintf(r->dir, sizeof r->dir, "/tmp/tabula-match-XXXXXX");
    cr_assert_not_null(mkdtemp(r->dir));
    for (int i = 0; i < SEATS; i++) {
        Match_Config c;
        seat_config(&c, i, options);
        if (tweak != NULL)
            tweak(&c, i);
        cr_assert_eq(match_new(&c, &r->seat[i].m), 0);
    }
}

/* A room with host, guest and spectator in it, the match started;
 * tweak (may be NULL) adjusts each seat's configuration. */
static void room_open_with(Room *r, const char *options,
                           void (*tweak)(Match_Config *c, int role))
{
    room_new(r, options, tweak);
    for (int i = 0; i < SEATS; i++)
        welcome(r, i);
    for (int i = 0; i < SEATS; i++)
        cr_assert_eq(proto_transcript_count(match_transcript(r->seat[i].m)), 1,
                     "seat %d holds the match start", i);
}

static void room_open(Room *r, const char *options)
{
    room_open_with(r, options, NULL);
}

static void room_close(Room *r)
{
    for (int i = 0; i < SEATS; i++) {
        if (r->seat[i].log)
            fclose(r->seat[i].log);
        if (r->seat[i].log_path[0])
            unlink(r->seat[i].log_path);
        match_free(r->seat[i].m);
    }
    for (uint64_t k = 0; k < r->next_seq; k++)
        free(r->kept[k]);
    rmdir(r->dir);
}

static void type(Room *r, int i, const char *line)
{
    cr_assert_eq(match_command(r->seat[i].m, r->now, line), 0);
    pump(r);
}

static void at(Room *r, uint64_t now)
{
    r->now = now;
    for (int i = 0; i < SEATS; i++)
        if (r->seat[i].m)
            match_tick(r->seat[i].m, now);
    pump(r);
}

static int has_note(const Seat *s, const char *text)
{
    for (size_t i = 0; i < s->nnotes; i++)
        if (strstr(s->notes[i], text) != NULL)
            return 1;
    return 0;
}

/* The first note of s that is text: its Match_Note.answer, or -1 when
 * there is none. */
static int answers(const Seat *s, const char *text)
{
    for (size_t i = 0; i < s->nnotes; i++)
        if (strcmp(s->notes[i], text) == 0)
            return s->answers[i];
    return -1;
}

/* The hash after moves[0..n) as core/ plays them. */
static void hash_after(const char *const *moves, size_t n, char *hex)
{
    Core_Position *pos = NULL;
    uint8_t h[PROTO_HASH_BYTES];
    cr_assert_eq(core_position_new(&pos, core_game_find("laska"), ""), 0);
    for (size_t i = 0; i < n; i++) {
        Core_Move mv;
        cr_assert_eq(core_move_parse(pos, moves[i], &mv), 0, "%s", moves[i]);
        cr_assert_eq(core_play(pos, &mv), 0);
    }
    cr_assert_eq(proto_state_hash(pos, h), 0);
    proto_hex(h, sizeof h, hex);
    core_position_free(pos);
}

static void all_end(Room *r, Core_Outcome o, Core_Reason why, size_t plies)
{
    char hex[PROTO_HASH_HEX];
    hash_after(line10, plies, hex);
    at(r, r->now + 1); /* acks are in: the seats finish */
    for (int i = 0; i < SEATS; i++) {
        const Match_Result *res = match_result(r->seat[i].m);
        cr_assert(r->seat[i].done, "seat %d is done", i);
        cr_assert_eq(res->status.outcome, o, "seat %d outcome", i);
        cr_assert_eq(res->status.reason, why, "seat %d reason", i);
        cr_assert_str_eq(res->final_hash, hex, "seat %d hash", i);
    }
}

Test(match, moves_and_resign)
{
    Room r;
    room_open(&r, "");
    for (int k = 0; k < 4; k++)
        type(&r, k % 2, line10[k]);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[2].m)), 5);
    cr_assert(has_note(&r.seat[2], "   4. black a5xc3"));
    type(&r, MATCH_ROLE_HOST, "resign");
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_RESIGN, 4);
    cr_assert(has_note(&r.seat[1], "white resigns"));
    room_close(&r);
}

/* A conduct word the session cannot read as a command ("claim  win" with
 * two spaces, "resign now") is refused as a malformed command, naming the
 * commands, not explained as a malformed move; nothing is sent. */
Test(match, malformed_commands_are_refused_as_commands)
{
    Room r;
    room_open(&r, "");
    uint32_t before = proto_transcript_count(match_transcript(r.seat[0].m));
    type(&r, MATCH_ROLE_HOST, "claim  win");
    type(&r, MATCH_ROLE_HOST, "resign now");
    cr_assert(has_note(&r.seat[0], "refused: 'claim  win': expected resign, "
                                   "draw, accept, decline, abort, takeback "
                                   "[N], claim win or claim draw"));
    cr_assert(has_note(&r.seat[0], "refused: 'resign now': expected resign"));
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[0].m)),
                 before);
    room_close(&r);
}

Test(match, lines_typed_out_of_turn_wait)
{
    Room r;
    room_open(&r, "");
    type(&r, MATCH_ROLE_GUEST, line10[1]); /* black's move, typed first */
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[0].m)), 1);
    type(&r, MATCH_ROLE_HOST, line10[0]);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[0].m)), 3,
                 "the queued reply went out on black's turn");
    room_close(&r);
}

/* What an offer's maker is told after its side's name (G-MC-1: the offer
 * goes with the maker's move). */
#define OFFER_GOES_WITH_THE_MOVE                                               \
    " offers a draw: your offer goes with your move; the opponent answers "  \
    "it on their turn"

/* The notes that answer a seat's own line say so (Match_Note.answer, a
 * front end's message line): a refusal, a waiting line's note and, once
 * the turn came, what the line did; the ply lines of a move played and
 * the opponent's lines answer nothing. */
Test(match, notes_that_answer_a_line_are_marked)
{
    Room r;
    room_open(&r, "");
    type(&r, MATCH_ROLE_HOST, "accept");
    type(&r, MATCH_ROLE_GUEST, "draw"); /* white's turn: it waits */
    type(&r, MATCH_ROLE_HOST, line10[0]);
    cr_assert_eq(answers(&r.seat[0], "refused: 'accept': no offer or request to answer"), 1);
    cr_assert_eq(answers(&r.seat[1], "'draw' is sent when your turn comes"), 1);
    cr_assert_eq(answers(&r.seat[1], "black" OFFER_GOES_WITH_THE_MOVE), 1);
    cr_assert_eq(answers(&r.seat[0], "black offers a draw: type accept or decline"), 0);
    cr_assert_eq(answers(&r.seat[2], "black offers a draw"), 0);
    for (int i = 0; i < 2; i++) {
        size_t k = 0;
        while (k < r.seat[i].nnotes && strncmp(r.seat[i].notes[k], "   1. white a3-b4", 17) != 0)
            k++;
        cr_assert_lt(k, r.seat[i].nnotes, "seat %d has the ply line", i);
        cr_assert_eq(r.seat[i].answers[k], 0, "seat %d: a ply line answers nothing", i);
    }
    room_close(&r);
}

/* Lines the host types before the guest's hello, even before its own
 * welcome, wait in its queue and go out in their order once the match
 * start is made (the terminal refuses a move typed at a screen before
 * the start; match/ keeps what it is given, as a script's lines). */
Test(match, lines_typed_before_the_start_wait_for_it)
{
    Room r;
    room_new(&r, "", NULL);
    type(&r, MATCH_ROLE_HOST, "draw"); /* not even welcomed yet */
    welcome(&r, MATCH_ROLE_HOST);
    type(&r, MATCH_ROLE_HOST, line10[0]);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[0].m)), 0,
                 "no start before the guest's hello");
    welcome(&r, MATCH_ROLE_GUEST);
    welcome(&r, MATCH_ROLE_SPECTATOR);
    for (int i = 0; i < SEATS; i++)
        cr_assert_eq(proto_transcript_count(match_transcript(r.seat[i].m)), 3,
                     "seat %d holds the start, the move, the offer", i);
    cr_assert(has_note(&r.seat[2], "   1. white a3-b4"));
    cr_assert_eq(match_draw_offer(r.seat[1].m), CORE_WHITE);
    room_close(&r);
}

Test(match, draw_offer_accepted)
{
    Room r;
    room_open(&r, "");
    type(&r, MATCH_ROLE_HOST, "draw");
    cr_assert_eq(match_draw_offer(r.seat[1].m), CORE_WHITE);
    /* the player asked is told how to answer; the others are not */
    cr_assert(has_note(&r.seat[1], "white offers a draw: type accept or "
                                   "decline"));
    cr_assert(!has_note(&r.seat[0], "white offers a draw: type"));
    cr_assert(!has_note(&r.seat[2], "white offers a draw: type"));
    /* G-MC-1: the offer is answered on the receiver's turn, after the
     * maker's move, and its maker is told so; a spectator is not */
    cr_assert_eq(answers(&r.seat[0], "white" OFFER_GOES_WITH_THE_MOVE), 1);
    cr_assert_eq(answers(&r.seat[2], "white offers a draw"), 0);
    cr_assert(!has_note(&r.seat[1], "your offer"));
    type(&r, MATCH_ROLE_HOST, line10[0]);
    type(&r, MATCH_ROLE_GUEST, "accept");
    all_end(&r, CORE_DRAW, CORE_REASON_AGREEMENT, 1);
    room_close(&r);
}

Test(match, draw_offers_limited_to_three)
{
    Room r;
    room_open(&r, "");
    for (int k = 0; k < 8; k += 2) {
        type(&r, MATCH_ROLE_HOST, "draw");
        type(&r, MATCH_ROLE_HOST, line10[k]);
        if (k < 6)
            type(&r, MATCH_ROLE_GUEST, "decline");
        type(&r, MATCH_ROLE_GUEST, line10[k + 1]);
    }
    cr_assert_eq(proto_transcript_draw_offers(match_transcript(r.seat[1].m),
                                              CORE_WHITE),
                 3);
    /* refused before anything is sent, named as the line typed (it was
     * "refused: draw-offer: size limit exceeded (...)") */
    cr_assert(has_note(&r.seat[0], "refused: 'draw': you have made 3 draw "
                                   "offers already"));
    cr_assert(!has_note(&r.seat[0], "refused: draw-offer"));
    room_close(&r);
}

/* A trial's "takeback 0" asked for two plies, as the plain word does:
 * a number must be 1..255 (G-MC-4), and 0 and 256 are refused, with no
 * request sent; so is what is no number (a later trial's "takeback -1"
 * was refused as a malformed move). */
Test(match, takeback_of_zero_or_too_many_plies_refused)
{
    Room r;
    room_open(&r, "");
    type(&r, MATCH_ROLE_HOST, line10[0]);
    type(&r, MATCH_ROLE_GUEST, line10[1]);
    type(&r, MATCH_ROLE_HOST, "takeback 0");
    cr_assert(has_note(&r.seat[0], "refused: 'takeback 0': a takeback is of "
                                   "1 to 255 plies"));
    type(&r, MATCH_ROLE_HOST, "takeback 256");
    cr_assert(has_note(&r.seat[0], "refused: 'takeback 256': a takeback is "
                                   "of 1 to 255 plies"));
    cr_assert_eq(match_takeback(r.seat[1].m, NULL), -1);
    /* not a count at all: refused as one, not as a malformed move */
    static const char *const bad[] = {"takeback -1", "takeback abc",
                                      "takeback 2 plies",
                                      "takeback 99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[96];
        snprintf(want, sizeof want,
                 "refused: '%s': a takeback is of 1 to 255 plies", bad[i]);
        type(&r, MATCH_ROLE_HOST, bad[i]);
        cr_assert(has_note(&r.seat[0], want), "%s", bad[i]);
    }
    type(&r, MATCH_ROLE_HOST, "takeback 3");
    cr_assert(has_note(&r.seat[0], "refused: 'takeback 3': nothing to take "
                                   "back"));
    cr_assert_eq(match_takeback(r.seat[1].m, NULL), -1);
    room_close(&r);
}

Test(match, takeback_agreed)
{
    Room r;
    room_open(&r, "");
    type(&r, MATCH_ROLE_HOST, line10[0]);
    type(&r, MATCH_ROLE_GUEST, line10[1]);
    type(&r, MATCH_ROLE_HOST, "takeback");
    uint32_t plies = 0;
    cr_assert_eq(match_takeback(r.seat[1].m, &plies), CORE_WHITE);
    cr_assert_eq(plies, 2, "white's own ply and the reply");
    type(&r, MATCH_ROLE_GUEST, "accept");
    for (int i = 0; i < SEATS; i++) {
        const Core_Position *p =
            proto_transcript_position(match_transcript(r.seat[i].m));
        cr_assert_eq(core_ply(p), 0);
        cr_assert_eq(core_side_to_move(p), CORE_WHITE);
    }
    room_close(&r);
}

static void guest_bot(Match_Config *c, int role)
{
    c->bot = role == MATCH_ROLE_GUEST;
}

Test(match, takeback_declined_by_bot)
{
    Room r;
    room_open_with(&r, "", guest_bot);
    type(&r, MATCH_ROLE_HOST, line10[0]); /* the bot answers c5xa3 */
    cr_assert_eq(core_ply(proto_transcript_position(
                     match_transcript(r.seat[0].m))),
                 2);
    type(&r, MATCH_ROLE_HOST, "takeback");
    cr_assert(has_note(&r.seat[0], "black declines the takeback"));
    cr_assert_eq(match_takeback(r.seat[0].m, NULL), -1);
    room_close(&r);
}

Test(match, abort_only_before_both_moved)
{
    Room r;
    room_open(&r, "");
    type(&r, MATCH_ROLE_HOST, line10[0]);
    type(&r, MATCH_ROLE_GUEST, line10[1]);
    type(&r, MATCH_ROLE_HOST, "abort");
    cr_assert(has_note(&r.seat[0], "refused: 'abort': both sides have moved"));
    type(&r, MATCH_ROLE_HOST, "resign");
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_RESIGN, 2);
    room_close(&r);
}

Test(match, flag_after_time_and_grace)
{
    Room r;
    room_open(&r, "clock=1+0");
    at(&r, 1999); /* white's 1 s plus the 1 s grace not yet over */
    cr_assert_eq(match_transcript(r.seat[0].m) != NULL, 1);
    cr_assert_eq(proto_transcript_status(match_transcript(r.seat[1].m)).outcome,
                 CORE_ONGOING);
    cr_assert_eq(match_clock_left(r.seat[1].m, 1999, CORE_WHITE), 0);
    cr_assert_eq(match_clock_left(r.seat[1].m, 1999, CORE_BLACK), 1000);
    at(&r, 2000);
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_TIME, 0);
    /* the fallen flag reads 0 (not its 1000 ms of the turn's start),
     * the other side its 1000 ms, on both seats, later too */
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(match_clock_left(r.seat[i].m, 2500, CORE_WHITE), 0);
        cr_assert_eq(match_clock_left(r.seat[i].m, 2500, CORE_BLACK), 1000);
    }
    room_close(&r);
}

/* Black thinks 1.5 s on 10+0 but reports no time used: White charges
 * it what it measured less the 500 ms lag allowance, 10 - (1.5 - 0.5) =
 * 9 s left. */
static void guest_lies(Match_Config *c, int role)
{
    c->clock_lie = role == MATCH_ROLE_GUEST;
}

/* On options, with a guest that reports no time used, White moves at
 * white_at and Black at black_at; White's seat then says `note` and
 * shows white and black ms. */
static void liar_corrected(Room *r, const char *options, uint64_t white_at,
                           uint64_t black_at, const char *note,
                           int64_t white, int64_t black)
{
    room_open_with(r, options, guest_lies);
    r->now = white_at;
    type(r, MATCH_ROLE_HOST, line10[0]);
    r->now = black_at;
    type(r, MATCH_ROLE_GUEST, line10[1]);
    cr_assert(has_note(&r->seat[0], note), "%s", options);
    cr_assert_eq(match_clock_left(r->seat[0].m, black_at, CORE_WHITE), white);
    cr_assert_eq(match_clock_left(r->seat[0].m, black_at, CORE_BLACK), black);
}

Test(match, lying_clock_corrected_to_the_measured_bound)
{
    Room r;
    liar_corrected(&r, "clock=10+0", 0, 1500,
                   "clock: black claims 10000 ms left after using 0 ms; "
                   "measured 1500 ms, lag allowance 500 ms: corrected to "
                   "9000 ms",
                   10000, 9000);
    room_close(&r);
}

/* The corrected side adopts the correction signed into the corrector's
 * next move. On 10+2, Black (who reports no time used) thinks 3.5 s:
 * White moves at 1 s (10 - 1 + 2 = 11 s left); Black at 4.5 s claims
 * 10 - 0 + 2 = 12 s; White measured 3.5 s, less the 0.5 s allowance 3 s:
 * 10 - 3 + 2 = 9 s, a correction of 3 s. Until White moves again the
 * seats disagree (Black 12 s, White's view 9 s); White moves at 5 s
 * (11 - 0.5 + 2 = 12.5 s) and signs 9 s as its view of Black, which
 * Black takes: both show 12.5 and 9. Black's next move at 5.4 s (no time
 * used claimed, 0.4 s measured, within the allowance) then reads
 * 9 + 2 = 11 s on both seats, not 12 + 2 = 14 s. */
Test(match, corrected_clock_adopted_after_the_correctors_move)
{
    Room r;
    room_open_with(&r, "clock=10+2", guest_lies);
    r.now = 1000;
    type(&r, MATCH_ROLE_HOST, line10[0]);
    r.now = 4500;
    type(&r, MATCH_ROLE_GUEST, line10[1]);
    cr_assert(has_note(&r.seat[0], "clock: black claims 12000 ms left after "
                                   "using 0 ms; measured 3500 ms, lag "
                                   "allowance 500 ms: corrected to 9000 ms"));
    cr_assert_eq(match_clock_left(r.seat[0].m, 4500, CORE_BLACK), 9000);
    cr_assert_eq(match_clock_left(r.seat[1].m, 4500, CORE_BLACK), 12000);
    r.now = 5000;
    type(&r, MATCH_ROLE_HOST, line10[2]);
    for (int i = 0; i < SEATS; i++) {
        cr_assert_eq(match_clock_left(r.seat[i].m, 5000, CORE_WHITE), 12500,
                     "seat %d", i);
        cr_assert_eq(match_clock_left(r.seat[i].m, 5000, CORE_BLACK), 9000,
                     "seat %d", i);
    }
    r.now = 5400;
    type(&r, MATCH_ROLE_GUEST, line10[3]);
    cr_assert(!has_note(&r.seat[0], "corrected to 11"));
    for (int i = 0; i < SEATS; i++) {
        cr_assert_eq(match_clock_left(r.seat[i].m, 5400, CORE_WHITE), 12500,
                     "seat %d", i);
        cr_assert_eq(match_clock_left(r.seat[i].m, 5400, CORE_BLACK), 11000,
                     "seat %d", i);
    }
    /* the transcript holds Black's signed 11 s */
    cr_assert_eq(proto_transcript_clock_view(match_transcript(r.seat[0].m),
                                             CORE_BLACK, CORE_BLACK),
                 11000);
    room_close(&r);
}

/* G-MC-10 in a session, unwitnessed. On 10d2 the first 2 s of each
 * turn are free: White's move 1.5 s into its turn is charged 0. Black,
 * who reports no time used, moves 4 s into its turn: White charges it
 * 4,000 - 500 (allowance) - 2,000 (delay) = 1,500, so 8,500 left. */
Test(match, delay_clock_corrected_less_the_delay)
{
    Room r;
    liar_corrected(&r, "clock=10d2", 1500, 5500,
                   "clock: black claims 10000 ms left after using 0 ms; "
                   "measured 4000 ms, lag allowance 500 ms: corrected to "
                   "8500 ms",
                   10000, 8500);
    room_close(&r);
}

/* On 1d2 White's flag falls when its 1 s and the 2 s delay are gone, and
 * Black claims it a grace of 1 s later: at 4,000 ms, not at 3,999. */
Test(match, delay_clock_flag_counts_the_delay)
{
    Room r;
    room_open(&r, "clock=1d2");
    cr_assert_eq(match_clock_left(r.seat[1].m, 2500, CORE_WHITE), 500);
    at(&r, 3999);
    cr_assert_eq(proto_transcript_status(match_transcript(r.seat[1].m)).outcome,
                 CORE_ONGOING);
    at(&r, 4000);
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_TIME, 0);
    room_close(&r);
}

/* On 1/10 (one move in 10 s, then again) every move ends a period:
 * White moves at 3 s, 10,000 - 3,000 + 10,000 = 17,000 on every seat.
 * Black, reporting no time used, claims 20,000 at 4.5 s; White measured
 * 1,500, less the allowance 1,000: 19,000. */
Test(match, period_clock_adds_its_time_at_the_periods_end)
{
    Room r;
    liar_corrected(&r, "clock=1/10", 3000, 4500,
                   "clock: black claims 20000 ms left after using 0 ms; "
                   "measured 1500 ms, lag allowance 500 ms: corrected to "
                   "19000 ms",
                   17000, 19000);
    room_close(&r);
}

/* On 1day the mover's time is a whole day again after each move: White
 * moves 5 s in, and has 86,400,000 ms, not 86,395,000; Black, 10 s into
 * its turn, reads 86,390,000. */
Test(match, days_clock_resets_after_each_move)
{
    Room r;
    room_open(&r, "clock=1day");
    r.now = 5000;
    type(&r, MATCH_ROLE_HOST, line10[0]);
    for (int i = 0; i < SEATS; i++) {
        cr_assert_eq(match_clock_left(r.seat[i].m, 5000, CORE_WHITE),
                     86400000, "seat %d", i);
        cr_assert_eq(match_clock_left(r.seat[i].m, 15000, CORE_BLACK),
                     86390000, "seat %d", i);
    }
    r.now = 20000;
    type(&r, MATCH_ROLE_GUEST, line10[1]);
    for (int i = 0; i < SEATS; i++)
        cr_assert_eq(match_clock_left(r.seat[i].m, 20000, CORE_BLACK),
                     86400000, "seat %d", i);
    room_close(&r);
}

/* On 10+2: White moves at 1 s (10 - 1 + 2 = 11 s left), Black at 2.5 s
 * (10 - 1.5 + 2 = 10.5 s), White at 3 s (11 - 0.5 + 2 = 12.5 s). */
static void three_plies_on_10_2(Room *r)
{
    room_open(r, "clock=10+2");
    r->now = 1000;
    type(r, MATCH_ROLE_HOST, line10[0]);
    r->now = 2500;
    type(r, MATCH_ROLE_GUEST, line10[1]);
    r->now = 3000;
    type(r, MATCH_ROLE_HOST, line10[2]);
}

/* A new guest session taken back from the guest's log at resumed_at, its
 * running turn away ms old then (match_resume_turn), welcomed at now. */
static Match *guest_resumed(Room *r, uint64_t away, uint64_t resumed_at,
                            uint64_t now)
{
    uint8_t *log = NULL;
    size_t log_len = 0;
    Match_Config c;
    Match *m = NULL;
    char why[200];
    Proto_Identity h = ident(1);
    cr_assert_eq(proto_read_file(r->seat[1].log_path, &log, &log_len), 0);
    seat_config(&c, MATCH_ROLE_GUEST, "");
    cr_assert_eq(match_new(&c, &m), 0);
    cr_assert_eq(match_turn_elapsed(m, now), -1);
    cr_assert_eq(match_resume(m, log, log_len, 0, 0, why, sizeof why), 0, "%s",
                 why);
    free(log);
    match_resume_turn(m, resumed_at, away);
    match_welcome(m, now, h.pk, 1, r->next_seq + 1, 1, 1);
    return m;
}

/* The same, welcomed as soon as it was taken back. */
static Match *guest_from_log(Room *r, uint64_t away, uint64_t now)
{
    return guest_resumed(r, away, now, now);
}

/* A seat resumed from its log mid-game (a reloaded page) takes the
 * clocks as the last mover signed them. After three_plies_on_10_2,
 * Black's view of White, from Black's own move, is the older 11 s; the
 * seats hold 12.5 and 10.5. A trial saw a reloaded page take the older
 * view, and the two seats corrected each other's clocks on every move
 * after. */
Test(match, resumed_seat_takes_the_last_movers_clocks)
{
    Room r;
    three_plies_on_10_2(&r);
    cr_assert_eq(match_clock_left(r.seat[1].m, 3000, CORE_WHITE), 12500);
    cr_assert_eq(match_clock_left(r.seat[1].m, 3000, CORE_BLACK), 10500);
    Match *m = guest_from_log(&r, 0, 3000);
    cr_assert_eq(match_clock_left(m, 3000, CORE_WHITE), 12500);
    cr_assert_eq(match_clock_left(m, 3000, CORE_BLACK), 10500);
    match_free(m);
    room_close(&r);
}

/* Black's seat resumed after three_plies_on_10_2 (Black to move with
 * 10.5 s): its driver says the turn had run 4 s (the page was away that
 * long), and the new process's ms start at 0. Black's clock goes on from
 * 10.5 - 4 = 6.5 s: 6 s at 0.5 s; its own time is up at 6.5 s, not
 * before; White's 12.5 s do not run. A kept time of more than a day
 * counts as one day: no time left. */
static int polled_note(Match *m, const char *text)
{
    Match_Out o;
    int found = 0;
    while (match_poll(m, &o))
        if ((o.kind == MATCH_OUT_NOTE || o.kind == MATCH_OUT_WARN) &&
            strstr(o.text, text) != NULL)
            found = 1;
    return found;
}

Test(match, resumed_turn_goes_on)
{
    Room r;
    three_plies_on_10_2(&r);
    Match *m = guest_from_log(&r, 4000, 0);
    cr_assert_eq(match_clock_left(m, 0, CORE_BLACK), 6500);
    cr_assert_eq(match_clock_left(m, 500, CORE_BLACK), 6000);
    cr_assert_eq(match_clock_left(m, 500, CORE_WHITE), 12500);
    cr_assert_eq(match_turn_elapsed(m, 500), 4500);
    match_tick(m, 6499);
    cr_assert(!polled_note(m, "time: your time is up"));
    match_tick(m, 6500);
    cr_assert(polled_note(m, "time: your time is up"));
    match_free(m);
    m = guest_from_log(&r, UINT64_MAX, 0);
    cr_assert_eq(match_turn_elapsed(m, 0), MATCH_RESUME_TURN_MAX_MS);
    cr_assert_eq(match_clock_left(m, 0, CORE_BLACK), 0);
    match_free(m);
    room_close(&r);
}

/* The same seat taken back at 0 with the turn 4 s old, but the relay
 * out of reach until 5 s (a restarted terminal seat waits for it now):
 * the wait runs on the mover's clock too. At the welcome Black has
 * 10.5 - 4 - 5 = 1.5 s, its time up at 6.5 s as above; White's 12.5 s
 * still stand. (A trial saw the two seats 15 s apart after such a wait.) */
Test(match, resumed_turn_counts_the_wait_for_the_relay)
{
    Room r;
    three_plies_on_10_2(&r);
    Match *m = guest_resumed(&r, 4000, 0, 5000);
    cr_assert_eq(match_clock_left(m, 5000, CORE_BLACK), 1500);
    cr_assert_eq(match_clock_left(m, 5000, CORE_WHITE), 12500);
    cr_assert_eq(match_turn_elapsed(m, 5000), 9000);
    match_tick(m, 6499);
    cr_assert(!polled_note(m, "time: your time is up"));
    match_tick(m, 6500);
    cr_assert(polled_note(m, "time: your time is up"));
    match_free(m);
    room_close(&r);
}

Test(match, absence_claim_after_countdown)
{
    Room r;
    room_open(&r, "");
    type(&r, MATCH_ROLE_HOST, line10[0]);
    r.now = 5000;
    match_presence(r.seat[1].m, r.now, MATCH_ROLE_HOST, 0);
    cr_assert_eq(match_absence_left(r.seat[1].m, r.now), 60000);
    type(&r, MATCH_ROLE_GUEST, "claim win");
    cr_assert(has_note(&r.seat[1], "refused: 'claim win': the opponent is "
                                   "not absent long enough"));
    at(&r, 65000);
    cr_assert(has_note(&r.seat[1], "absent: the opponent has been gone "
                                   "60 s"));
    type(&r, MATCH_ROLE_GUEST, "claim win");
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_ABANDON, 1);
    room_close(&r);
}

/* G-MC-9 at a bot seat, where no one can type the claim: the bot claims
 * the win itself when the countdown has run out (a trial saw a bot seat
 * told to "type 'claim win'"), and not before; an opponent back in time
 * drops the countdown, and with it the claim. */
Test(match, bot_seat_claims_the_win_after_the_countdown)
{
    Room r;
    room_open_with(&r, "", guest_bot);
    type(&r, MATCH_ROLE_HOST, line10[0]); /* the bot answers c5xa3 */
    match_presence(r.seat[1].m, 5000, MATCH_ROLE_HOST, 0);
    at(&r, 5000);
    cr_assert(has_note(&r.seat[1], "absent: the opponent left; the bot "
                                   "claims the win in 60 s"));
    match_presence(r.seat[1].m, 20000, MATCH_ROLE_HOST, 1);
    at(&r, 70000);
    cr_assert(!r.seat[1].done && !r.seat[0].done);
    match_presence(r.seat[1].m, 70000, MATCH_ROLE_HOST, 0);
    at(&r, 129999);
    cr_assert(!r.seat[1].done && !r.seat[0].done);
    cr_assert(!has_note(&r.seat[1], "type 'claim win'"));
    at(&r, 130000);
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_ABANDON, 2);
    cr_assert(has_note(&r.seat[0], "black claims the win: the opponent is "
                                   "absent"));
    room_close(&r);
}

/* A game that ends on another ground than time stops the side to
 * move's clock where it ended: White resigns after 3 s of its 10 s, so
 * each seat reads 7000 ms for White (10000 - 3000) from then on, not the
 * 10000 of its turn's start (a trial saw 4:57 jump back to 5:00). */
Test(match, clock_stops_where_the_game_ended)
{
    Room r;
    room_open(&r, "clock=10+0");
    at(&r, 3000);
    type(&r, MATCH_ROLE_HOST, "resign");
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_RESIGN, 0);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(match_clock_left(r.seat[i].m, 9000, CORE_WHITE), 7000,
                     "seat %d", i);
        cr_assert_eq(match_clock_left(r.seat[i].m, 9000, CORE_BLACK), 10000,
                     "seat %d", i);
        /* and no claim is offered once the game is over */
        cr_assert_eq(match_absence_left(r.seat[i].m, 9000), -1);
    }
    room_close(&r);
}

/* White's 1 s runs out (at 1000 ms) while Black is away: White's move is
 * refused with one note saying why (a trial saw a second one, "cannot
 * send the move: operation not allowed in this state"), and once the
 * absence countdown (10 s on 1+0, G-MC-9) has run White may claim the
 * draw but not the win: by its own clock it has lost (G-MC-7). */
Test(match, own_time_up_refuses_the_move_and_the_win_claim)
{
    Room r;
    room_open(&r, "clock=1+0");
    /* the guest is gone: its seat stops (so it claims no flag) */
    match_free(r.seat[1].m);
    r.seat[1].m = NULL;
    match_presence(r.seat[0].m, r.now, MATCH_ROLE_GUEST, 0);
    at(&r, 1500);
    type(&r, MATCH_ROLE_HOST, line10[0]);
    cr_assert(has_note(&r.seat[0], "refused: your time is up"));
    cr_assert(!has_note(&r.seat[0], "cannot send the move"));
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[0].m)), 1);
    at(&r, 11000);
    type(&r, MATCH_ROLE_HOST, "claim win");
    cr_assert(has_note(&r.seat[0], "refused: 'claim win': your time is up"));
    cr_assert_eq(proto_transcript_status(match_transcript(r.seat[0].m)).outcome,
                 CORE_ONGOING);
    type(&r, MATCH_ROLE_HOST, "claim draw");
    cr_assert_eq(proto_transcript_status(match_transcript(r.seat[0].m)).outcome,
                 CORE_DRAW);
    room_close(&r);
}

static size_t count_notes(const Seat *s, const char *text)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nnotes; i++)
        n += strstr(s->notes[i], text) != NULL;
    return n;
}

/* Issue 20, finding 5: after a failover the node the guest moved to said
 * "present" again though the host never heard it go; the host's screen
 * showed "guest present" twice. Each change is said once. */
Test(match, presence_said_once_per_change)
{
    Room r;
    room_open(&r, "");
    Seat *host = &r.seat[0];
    size_t before = count_notes(host, "lobby: guest present");
    match_presence(host->m, r.now, MATCH_ROLE_GUEST, 1);
    match_presence(host->m, r.now, MATCH_ROLE_GUEST, 1);
    pump(&r);
    cr_assert_eq(count_notes(host, "lobby: guest present"),
                 before > 0 ? before : 1, "%zu before", before);
    size_t present = count_notes(host, "lobby: guest present");
    match_presence(host->m, r.now, MATCH_ROLE_GUEST, 0);
    match_presence(host->m, r.now, MATCH_ROLE_GUEST, 1);
    pump(&r);
    cr_assert_eq(count_notes(host, "lobby: guest gone"), 1);
    cr_assert_eq(count_notes(host, "lobby: guest present"), present + 1);
    /* its own seat is never noted */
    match_presence(host->m, r.now, MATCH_ROLE_HOST, 0);
    pump(&r);
    cr_assert_eq(count_notes(host, "lobby: host "), 0);
    room_close(&r);
}

/* Black's first move from ply 5 on is ply 6, the first where black has
 * more than one move to diverge with. */
static void guest_perturbed(Match_Config *c, int role)
{
    if (role == MATCH_ROLE_GUEST)
        c->perturb_ply = 5;
}

Test(match, desync_found_at_the_perturbed_ply)
{
    Room r;
    room_open_with(&r, "", guest_perturbed);
    for (int k = 0; k < 6; k++)
        type(&r, k % 2, line10[k]);
    at(&r, 1);
    for (int i = 0; i < 2; i++) {
        cr_assert(match_result(r.seat[i].m)->desync, "seat %d", i);
        cr_assert_eq(match_result(r.seat[i].m)->desync_ply, 6, "seat %d", i);
        cr_assert(r.seat[i].desync_out, "seat %d reports", i);
    }
    room_close(&r);
}

/* The second exploit, as a cheating guest would send it: after
 * both sides moved, an off-turn desync report of the true state, signed
 * and chained as the next envelope. Before G-PR-3 the host's session took
 * it and the game ended "aborted (desync-abort)". Now it is refused, the
 * host and the spectator play on, and the game ends on the board. */
Test(match, desync_report_of_the_true_state_is_refused)
{
    Room r;
    room_open(&r, "");
    for (int k = 0; k < 4; k++)
        type(&r, k % 2, line10[k]);
    /* White (the host) is to move; the guest reports the state. */
    const Proto_Transcript *ht = match_transcript(r.seat[0].m);
    uint8_t state[256];
    size_t slen, len;
    cr_assert_eq(core_encode(proto_transcript_position(ht), state,
                             sizeof state, &slen),
                 0);
    Proto_Identity g = ident(2);
    Proto_Message m;
    proto_message_init(&m, PROTO_KIND_DESYNC, &g);
    proto_transcript_next(ht, &m);
    m.body.desync.ply = 4;
    m.body.desync.state = state;
    m.body.desync.state_len = slen;
    uint8_t buf[1024];
    cr_assert_eq(proto_seal(&m, &g, buf, sizeof buf, &len, NULL), 0);
    uint64_t seq = ++r.next_seq;
    for (int j = 0; j < SEATS; j++)
        if (j != 1)
            cr_assert_neq(match_frame(r.seat[j].m, r.now, seq, 1,
                                      buf + PROTO_FRAME_PREFIX,
                                      len - PROTO_FRAME_PREFIX),
                          0, "seat %d took the report", j);
    pump(&r);
    for (int j = 0; j < SEATS; j++) {
        cr_assert_eq(proto_transcript_status(match_transcript(r.seat[j].m)).outcome,
                     CORE_ONGOING,
                     "seat %d", j);
        cr_assert_not(match_result(r.seat[j].m)->desync, "seat %d", j);
    }
    /* Play goes on for the honest host. */
    type(&r, 0, line10[4]);
    cr_assert_eq(core_ply(proto_transcript_position(ht)), 5);
    room_close(&r);
}

Test(match, hostile_bytes_refused)
{
    Room r;
    room_open(&r, "");
    uint8_t junk[40];
    memset(junk, 0xc1, sizeof junk);
    cr_assert_neq(match_frame(r.seat[1].m, 0, 0, 0, junk, sizeof junk), 0);
    cr_assert_neq(match_frame(r.seat[1].m, 0, 0, 0, junk, 1), 0);
    cr_assert_eq(match_result(r.seat[1].m)->refused, 2);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[1].m)), 1);
    room_close(&r);
}

/* Resume at every ply: the guest's log cut after k envelopes (as a crash
 * would leave it), taken back by a new session, which then receives the
 * rest from the relay's catch-up and ends where the others end. */
Test(match, resume_at_every_ply)
{
    Room r;
    room_open(&r, "");
    for (int k = 0; k < 10; k++)
        type(&r, k % 2, line10[k]);
    type(&r, MATCH_ROLE_HOST, "resign");
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_RESIGN, 10);
    Match *full = r.seat[1].m;
    uint32_t count = match_frames(full);
    cr_assert_eq(count, 12, "start, 10 moves, resign");
    uint8_t *log = NULL;
    size_t log_len = 0;
    cr_assert_eq(proto_read_file(r.seat[1].log_path, &log, &log_len), 0);
    for (uint32_t k = 1; k <= count; k++) {
        /* the header frame, then k envelopes */
        size_t off = PROTO_LOG_MAGIC_LEN, used, env_len;
        const uint8_t *env;
        for (uint32_t f = 0; f <= k; f++) {
            cr_assert_eq(proto_frame_next(log + off, log_len - off, &env,
                                          &env_len, &used),
                         0);
            off += used;
        }
        Match_Config c;
        Match *m = NULL;
        char why[200];
        seat_config(&c, MATCH_ROLE_GUEST, "");
        cr_assert_eq(match_new(&c, &m), 0);
        cr_assert_eq(match_resume(m, log, off, 0, 0, why, sizeof why), 0, "%s",
                     why);
        cr_assert_eq(proto_transcript_count(match_transcript(m)), k);
        for (uint32_t i = k; i < count; i++) {
            size_t len;
            const uint8_t *e = match_frame_at(full, i, &len);
            cr_assert_eq(match_frame(m, 0, 0, 0, e, len), 0, "ply %u", k);
        }
        /* and a duplicate delivery changes nothing */
        size_t len;
        const uint8_t *e = match_frame_at(full, count - 1, &len);
        cr_assert_eq(match_frame(m, 0, 0, 0, e, len), 0);
        cr_assert_eq(proto_transcript_count(match_transcript(m)), count);
        cr_assert_eq(proto_transcript_status(match_transcript(m)).reason,
                     CORE_REASON_RESIGN);
        match_free(m);
    }
    free(log);
    room_close(&r);
}

/* A host configured for one game does not take back another game's log
 * (the host's log of a Laska match offered to a Chessball host). */
Test(match, resume_of_another_games_log_refused)
{
    Room r;
    room_open(&r, "");
    for (int k = 0; k < 2; k++)
        type(&r, k % 2, line10[k]);
    uint8_t *log = NULL;
    size_t log_len = 0;
    cr_assert_eq(proto_read_file(r.seat[0].log_path, &log, &log_len), 0);
    Match_Config c;
    Match *m = NULL;
    char why[200];
    seat_config(&c, MATCH_ROLE_HOST, "");
    c.game = core_game_find("chessball");
    cr_assert_eq(match_new(&c, &m), 0);
    cr_assert_eq(match_resume(m, log, log_len, 0, 0, why, sizeof why),
                 TB_E_STATE);
    cr_assert_str_eq(why, "it holds a laska match, not chessball");
    match_free(m);
    /* the same log to a Laska host is taken */
    seat_config(&c, MATCH_ROLE_HOST, "");
    cr_assert_eq(match_new(&c, &m), 0);
    cr_assert_eq(match_resume(m, log, log_len, 0, 0, why, sizeof why), 0, "%s",
                 why);
    match_free(m);
    free(log);
    room_close(&r);
}

/* The sequence numbers the session makes durable never pass a frame it
 * has not logged: a gap asks for the frames again. */
Test(match, gap_in_lobby_numbers_refetched)
{
    Room r;
    room_open(&r, "");
    uint64_t before = r.seat[2].seq_durable;
    /* the spectator misses number next+1, then sees next+2 */
    r.seat[2].present = 0;
    type(&r, MATCH_ROLE_HOST, line10[0]);
    r.seat[2].present = 1;
    type(&r, MATCH_ROLE_GUEST, line10[1]);
    cr_assert_eq(r.seat[2].seq_durable, before,
                 "the resume point stays before the gap");
    cr_assert(r.seat[2].refetched);
    cr_assert_eq(r.seat[2].refetch_from, before);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[2].m)), 1,
                 "the move after the gap waits for the one before it");
    cr_assert_eq(match_last_seq(r.seat[2].m), before);
    /* the driver reconnects; the catch-up brings the lost frame */
    match_disconnected(r.seat[2].m, r.now);
    welcome(&r, 2);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[2].m)), 3);
    cr_assert_eq(r.seat[2].seq_durable, r.next_seq);
    room_close(&r);
}

/* Seal m as the next envelope of t, signed by id, and feed it to s. */
static int feed_next(Match *s, const Proto_Identity *id, Proto_Message *m)
{
    static uint8_t frame[PROTO_FRAME_PREFIX + PROTO_FRAME_MAX];
    size_t len = 0;
    memcpy(m->sender, id->pk, PROTO_KEY_BYTES);
    proto_transcript_next(match_transcript(s), m);
    cr_assert_eq(proto_seal(m, id, frame, sizeof frame, &len, NULL), 0);
    return match_frame(s, 0, 0, MATCH_ROLE_HOST, frame + PROTO_FRAME_PREFIX,
                       len - PROTO_FRAME_PREFIX);
}

/* G-SES-5: 256 envelopes other than moves per side; the 257th chat is
 * refused, and the side's moves still go through. */
Test(match, chat_budget_per_side)
{
    Room r;
    Proto_Identity host = ident(1);
    Proto_Message m;
    room_open(&r, "");
    Match *guest = r.seat[1].m;
    for (int k = 0; k < 256; k++) {
        proto_message_init(&m, PROTO_KIND_CHAT, &host);
        memcpy(m.body.text.text, "hi", 3);
        cr_assert_eq(feed_next(guest, &host, &m), 0, "chat %d", k);
    }
    cr_assert_eq(proto_transcript_count(match_transcript(guest)), 257);
    proto_message_init(&m, PROTO_KIND_CHAT, &host);
    memcpy(m.body.text.text, "hi", 3);
    cr_assert_eq(feed_next(guest, &host, &m), TB_E_LIMIT);
    cr_assert_eq(proto_transcript_count(match_transcript(guest)), 257);
    /* white's first move, with the state hash core/ gives after it */
    Core_Position *pos = NULL;
    Core_Move mv;
    cr_assert_eq(core_position_new(&pos, core_game_find("laska"), ""), 0);
    cr_assert_eq(core_move_parse(pos, line10[0], &mv), 0);
    cr_assert_eq(core_play(pos, &mv), 0);
    proto_message_init(&m, PROTO_KIND_MOVE, &host);
    m.body.move.ply = 1;
    memcpy(m.body.move.move, line10[0], strlen(line10[0]) + 1);
    cr_assert_eq(proto_state_hash(pos, m.body.move.hash), 0);
    core_position_free(pos);
    cr_assert_eq(feed_next(guest, &host, &m), 0);
    cr_assert_eq(core_ply(proto_transcript_position(match_transcript(guest))),
                 1);
    room_close(&r);
}

/* ---- witnessed: the relay's receipts keep the clocks (fair-play issue) */

static void witnessed_seat(Match_Config *c, int role)
{
    (void)role;
    c->witnessed = 1;
}

static void room_open_witnessed_with(Room *r, const char *options,
                                     void (*tweak)(Match_Config *, int))
{
    room_new(r, options, tweak);
    r->witness = 1;
    for (int i = 0; i < SEATS; i++)
        welcome(r, i);
    for (int i = 0; i < SEATS; i++)
        cr_assert_eq(proto_transcript_count(match_transcript(r->seat[i].m)), 1,
                     "seat %d holds the match start", i);
}

static void room_open_witnessed(Room *r, const char *options)
{
    room_open_witnessed_with(r, options, witnessed_seat);
}

/* By hand: on 1+0 the start is numbered at 0; Black claims once White's
 * turn has run 1 s + the 0.5 s lag allowance + the 1 s grace, 2.5 s;
 * the claim's own receipt at 2.5 s gives 2.5 - 0.5 = 2 s >= 1 s. */
Test(match, witnessed_flag_is_proven_by_its_receipt)
{
    Room r;
    room_open_witnessed(&r, "clock=1+0");
    at(&r, 2499);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[1].m)), 1);
    cr_assert_eq(match_clock_left(r.seat[1].m, 900, CORE_WHITE), 100);
    at(&r, 2500);
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_TIME, 0);
    room_close(&r);
}

/* G-MC-10 witnessed, by hand: on 1d2 (1 s, a delay of 2 s) Black claims
 * once White's turn has run the 2 s delay + 1 s + the 0.5 s allowance +
 * the 1 s grace, 4.5 s; the receipt gives max(0, 4.5 - 0.5 - 2) = 2 s
 * >= 1 s. White's clock reads its whole 1,000 ms for the delay's 2 s. */
Test(match, witnessed_delay_flag_counts_the_delay)
{
    Room r;
    room_open_witnessed(&r, "clock=1d2");
    cr_assert_eq(match_clock_left(r.seat[1].m, 1900, CORE_WHITE), 1000);
    cr_assert_eq(match_clock_left(r.seat[1].m, 2600, CORE_WHITE), 400);
    at(&r, 4499);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[1].m)), 1);
    at(&r, 4500);
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_TIME, 0);
    room_close(&r);
}

/* A seat whose own envelope waits for its receipt claims no flag (the
 * claim would collide with it), and so must not ask to be woken for the
 * claim either: on 1+0 White's flag is due at 2.5 s (1 s, the 0.5 s
 * allowance, the 1 s grace); Black's forged claim at 0.3 s goes out and
 * its receipt has not come by 3 s. A wake-up at 2.5 s, already past,
 * was met again and again at one time, and the receipt never taken
 * (simtest seeds 1053 and 2053 of laska: "the match did not end"). */
Test(match, a_claim_waiting_for_a_receipt_sets_no_past_deadline)
{
    Room r;
    Match_Out o;
    room_open_witnessed(&r, "clock=1+0");
    Match *guest = r.seat[1].m;
    cr_assert_eq(match_forge(guest, 300, MATCH_FORGE_FLAG), 0);
    while (match_poll(guest, &o)) /* sent, never numbered: no receipt */
        ;
    match_tick(guest, 3000);
    cr_assert_gt(match_deadline(guest), 3000);
    room_close(&r);
}

/* A cheating guest's envelope m, sealed by Black's key outside its
 * session as the next of the host's transcript, numbered by the relay
 * now and relayed to the host and the spectator. */
static void cheat(Room *r, Proto_Message *m)
{
    Proto_Identity black = ident(2);
    uint8_t frame[4096];
    size_t len;
    proto_transcript_next(match_transcript(r->seat[0].m), m);
    cr_assert_eq(proto_seal(m, &black, frame, sizeof frame, &len, NULL), 0);
    uint64_t seq = ++r->next_seq;
    r->kept[seq - 1] = malloc(len - 4);
    memcpy(r->kept[seq - 1], frame + 4, len - 4);
    r->kept_len[seq - 1] = len - 4;
    r->kept_from[seq - 1] = 1;
    number(r, seq);
    deliver(r, 0, seq);
    deliver(r, 2, seq);
    pump(r);
}

/* The fair-play issue's first exploit, at the session: Black's move says
 * White has 1 ms and Black claims White's flag 2.1 s into a 5+5 game.
 * White's seat takes neither: the claim's receipt refutes it. */
Test(match, witnessed_lie_about_the_clock_wins_nothing)
{
    Room r;
    room_open_witnessed(&r, "clock=5+5");
    r.now = 100;
    type(&r, MATCH_ROLE_HOST, line10[0]);
    /* Black's envelopes, made by a cheating client (not its session) */
    Proto_Identity black = ident(2);
    const Proto_Transcript *t = match_transcript(r.seat[0].m);
    Core_Position *pos = core_position_clone(proto_transcript_position(t));
    Core_Move mv;
    Proto_Message m;
    cr_assert_eq(core_move_parse(pos, line10[1], &mv), 0);
    cr_assert_eq(core_play(pos, &mv), 0);
    proto_message_init(&m, PROTO_KIND_MOVE, &black);
    m.body.move.ply = 2;
    snprintf(m.body.move.move, sizeof m.body.move.move, "%s", line10[1]);
    cr_assert_eq(proto_state_hash(pos, m.body.move.hash), 0);
    m.body.move.has_clock = 1;
    m.body.move.own_ms = 10000;
    m.body.move.opp_ms = 1; /* "white has 1 ms" */
    core_position_free(pos);
    const uint64_t times[2] = {200, 2100};
    for (int k = 0; k < 2; k++) {
        if (k == 1) { /* the claim */
            proto_message_init(&m, PROTO_KIND_FLAG, &black);
            m.body.flag.ply = 2;
            m.body.flag.elapsed = 1;
        }
        r.now = times[k];
        cheat(&r, &m);
    }
    for (int i = 0; i < 3; i += 2) {
        const Proto_Transcript *ti = match_transcript(r.seat[i].m);
        cr_assert_eq(proto_transcript_count(ti), 4, "seat %d", i);
        cr_assert_eq(proto_transcript_status(ti).outcome, CORE_ONGOING);
        /* White: 5 s + 5 s (its move within the allowance), 1.9 s gone */
        cr_assert_eq(match_clock_left(r.seat[i].m, 2100, CORE_WHITE), 8100);
        cr_assert(has_note(&r.seat[i], "flag claim void: by the relay's "
                                       "receipts white has 8.100 s left"),
                  "seat %d", i);
    }
    cr_assert(!has_note(&r.seat[0], "time: your time is up"));
    /* White plays on */
    r.now = 2200;
    type(&r, MATCH_ROLE_HOST, line10[2]);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[0].m)), 5);
    room_close(&r);
}

/* A move the relay numbers after its mover's time ran out loses on time,
 * on every seat, whatever the mover's own clock said when it sent it:
 * White sends at 1.4 s of its 1 s (within the 0.5 s allowance) but the
 * relay numbers it at 1.6 s: 1.6 - 0.5 = 1.1 s >= 1 s. The log of it
 * verifies with that result. */
Test(match, witnessed_late_move_loses_on_time)
{
    Room r;
    room_open_witnessed(&r, "clock=1+0");
    r.now = 1400;
    cr_assert_eq(match_command(r.seat[0].m, r.now, line10[0]), 0);
    r.now = 1600; /* on the way to the relay */
    pump(&r);
    all_end(&r, CORE_WIN_BLACK, CORE_REASON_TIME, 1);
    uint8_t *buf = NULL;
    size_t len = 0;
    Proto_Log_Report rep;
    cr_assert_eq(proto_read_file(r.seat[1].log_path, &buf, &len), 0);
    Proto_Transcript *t = NULL;
    cr_assert_eq(proto_log_verify(buf, len, NULL, NULL, NULL, &t, &rep), 0,
                 "%s", rep.why);
    cr_assert_eq(rep.header.version, 4);
    cr_assert_eq(rep.receipts, 2);
    cr_assert_eq(proto_transcript_status(t).outcome, CORE_WIN_BLACK);
    cr_assert_eq(proto_transcript_status(t).reason, CORE_REASON_TIME);
    proto_transcript_free(t);
    free(buf);
    room_close(&r);
}

/* Two turns that begin in one relay millisecond are two turns: Black
 * answers White's first move within the millisecond the relay numbered
 * it (a trial's cheating client did), and every seat still shows the
 * clocks after each move (by hand, 5+0 and no time used beyond the
 * allowance: 5.000 s each). */
Test(match, witnessed_two_turns_in_one_relay_millisecond)
{
    Room r;
    room_open_witnessed(&r, "clock=5+0");
    r.now = 100;
    type(&r, MATCH_ROLE_HOST, line10[0]);
    type(&r, MATCH_ROLE_GUEST, line10[1]);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(core_ply(proto_transcript_position(
                         match_transcript(r.seat[i].m))),
                     2, "seat %d", i);
        cr_assert_eq(count_notes(&r.seat[i],
                                 "clock: white 5.000 s, black 5.000 s"),
                     2, "seat %d", i);
    }
    room_close(&r);
}

/* The seats' evidence against a relay whose time runs wrong (no clock):
 * it numbers White's move, sent at 0.1 s, with a time 5 s ahead of what
 * every WELCOME set the seats' reading to, and Black's move, sent at
 * 1 s, 5 s behind. By hand, less the 2 s tolerance: the first is 3 s
 * later than any seat could see it (White from its ACK, Black and the
 * spectator from its FRAME), the second 3 s earlier than Black sent it
 * (only Black knows when). Each says so and keeps the evidence after the
 * receipt in its log, which verifies and counts it; play goes on. */
Test(match, witnessed_relay_time_out_of_a_seats_window_is_kept_as_evidence)
{
    Room r;
    room_open_witnessed(&r, "");
    r.now = 100;
    r.skew = 5000;
    type(&r, MATCH_ROLE_HOST, line10[0]);
    for (int i = 0; i < 3; i++)
        cr_assert(has_note(&r.seat[i], "relay: its time for envelope 2 is "
                                       "3.000 s later than this seat's "
                                       "clock allows; kept in the log as "
                                       "evidence"),
                  "seat %d", i);
    r.now = 1000;
    r.skew = -5000;
    type(&r, MATCH_ROLE_GUEST, line10[1]);
    cr_assert(has_note(&r.seat[1], "relay: its time for envelope 3 is "
                                   "3.000 s earlier than this seat sent it; "
                                   "kept in the log as evidence"));
    cr_assert(!has_note(&r.seat[0], "envelope 3"));
    const int skews[3] = {1, 2, 1}, behind[3] = {0, 3000, 0};
    for (int i = 0; i < 3; i++) {
        uint8_t *buf = NULL;
        size_t len = 0;
        Proto_Log_Report rep;
        cr_assert_eq(proto_read_file(r.seat[i].log_path, &buf, &len), 0);
        cr_assert_eq(proto_log_verify(buf, len, NULL, NULL, NULL, NULL, &rep),
                     0, "seat %d: %s", i, rep.why);
        cr_assert_eq(rep.receipts, 3, "seat %d", i);
        cr_assert_eq(rep.skews, (uint32_t)skews[i], "seat %d", i);
        cr_assert_eq(rep.skew_ahead_ms, 3000, "seat %d", i);
        cr_assert_eq(rep.skew_behind_ms, (uint32_t)behind[i], "seat %d", i);
        free(buf);
    }
    cr_assert_eq(core_ply(proto_transcript_position(
                     match_transcript(r.seat[0].m))),
                 2);
    room_close(&r);
}

/* The relay's signed word that seat `who` came or went, now, to every
 * other seat in the room. */
static void witness_presence(Room *r, int who, int present)
{
    Proto_Identity relay = ident(77), host = ident(1), guest = ident(2);
    Proto_Receipt rc = {.kind = PROTO_RECEIPT_PRESENCE, .seq = r->next_seq,
                        .time_ms = EPOCH + r->now, .seat = (uint8_t)who,
                        .present = (uint8_t)present};
    memcpy(rc.guest, guest.pk, PROTO_KEY_BYTES);
    cr_assert_eq(proto_receipt_sign(&rc, host.pk, NULL, &relay), 0);
    r->seat[who].present = present;
    r->gone[who] = !present;
    r->gone_at[who] = EPOCH + r->now;
    for (int j = 0; j < SEATS; j++)
        if (j != who && r->seat[j].m != NULL && r->seat[j].present)
            match_presence_witnessed(r->seat[j].m, r->now, who, present, &rc);
    pump(r);
}

/* The fair-play issue's third exploit, at the session: right after
 * White's first move, both seated, a cheating guest claims the win. The
 * claim's own receipt attests both seats present: the host's seat and
 * the spectator hold it void, play goes on. Then the relay sees White
 * go: after the countdown (60+0: a tenth of 1 min, at least 10 s) Black's
 * claim holds on every seat, the absent one's too when it comes back
 * (the claim's receipt attests White gone 10 s; it never heard the
 * relay announce its own going). By hand: gone at 1.000 s, claims at
 * 10.999 s (refused by Black's own countdown) and 11.000 s: 10,000 ms. */
Test(match, witnessed_absence_claim_needs_the_relays_word)
{
    Room r;
    room_open_witnessed(&r, "clock=60+0");
    r.now = 100;
    type(&r, MATCH_ROLE_HOST, line10[0]);
    Proto_Identity black = ident(2);
    Proto_Message m;
    proto_message_init(&m, PROTO_KIND_CLAIM, &black);
    m.body.claim.what = PROTO_CLAIM_WIN;
    r.now = 200;
    cheat(&r, &m);
    for (int i = 0; i < 3; i += 2) {
        cr_assert_eq(proto_transcript_status(match_transcript(r.seat[i].m))
                         .outcome,
                     CORE_ONGOING, "seat %d", i);
        cr_assert(has_note(&r.seat[i], "claim void: the relay has not seen "
                                       "the opponent gone for 10 s"),
                  "seat %d", i);
    }
    /* White goes for 9.999 s: a claim then is void too */
    r.now = 1000;
    witness_presence(&r, MATCH_ROLE_HOST, 0);
    r.now = 10999;
    proto_message_init(&m, PROTO_KIND_CLAIM, &black);
    m.body.claim.what = PROTO_CLAIM_WIN;
    cheat(&r, &m);
    cr_assert_eq(
        proto_transcript_claims_void(match_transcript(r.seat[2].m)), 2);
    cr_assert_eq(proto_transcript_status(match_transcript(r.seat[2].m))
                     .outcome,
                 CORE_ONGOING);
    room_close(&r);

    /* the honest course */
    room_open_witnessed(&r, "clock=60+0");
    r.now = 100;
    type(&r, MATCH_ROLE_HOST, line10[0]);
    r.now = 1000;
    witness_presence(&r, MATCH_ROLE_HOST, 0);
    r.now = 10999;
    cr_assert_eq(match_command(r.seat[1].m, r.now, "claim win"), 0);
    pump(&r);
    cr_assert(has_note(&r.seat[1], "refused: 'claim win': the opponent is "
                                   "not absent long enough"));
    at(&r, 11000);
    type(&r, MATCH_ROLE_GUEST, "claim win");
    /* White's seat comes back and reads the claim with its receipt */
    r.seat[0].present = 1;
    deliver(&r, 0, r.next_seq);
    pump(&r);
    for (int i = 0; i < 3; i++) {
        Core_Status st = proto_transcript_status(match_transcript(r.seat[i].m));
        cr_assert_eq(st.outcome, CORE_WIN_BLACK, "seat %d", i);
        cr_assert_eq(st.reason, CORE_REASON_ABANDON, "seat %d", i);
    }
    room_close(&r);
}

/* The witnessed mode is signed into the start (docs/trust.md): a
 * witnessed guest refuses a host's start that leaves "relay=3" out (the
 * host could later write its log in a version without receipts, where
 * its claims are its word), and takes the same start with it. The
 * host's own start carries it (the witnessed room above plays on). */
Test(match, a_witnessed_seat_refuses_a_start_without_the_relay_token)
{
    static const char *const opts[] = {"", "goals=1", PROTO_OPTION_RELAY};
    Proto_Identity host = ident(1), guest = ident(2);
    for (size_t k = 0; k < 3; k++) {
        Match_Config c;
        Match *m = NULL;
        Proto_Message st;
        seat_config(&c, MATCH_ROLE_GUEST, "");
        c.witnessed = 1;
        cr_assert_eq(match_new(&c, &m), 0);
        proto_message_init(&st, PROTO_KIND_MATCH_START, &host);
        memset(st.match_id, 9, sizeof st.match_id);
        memcpy(st.body.start.game, "laska", 6);
        memcpy(st.body.start.options, opts[k], strlen(opts[k]) + 1);
        memcpy(st.body.start.white, host.pk, PROTO_KEY_BYTES);
        memcpy(st.body.start.black, guest.pk, PROTO_KEY_BYTES);
        st.body.start.started = 1700000000;
        int rc = feed_next(m, &host, &st);
        cr_assert_eq(rc, k < 2 ? TB_E_SIGNATURE : 0, "options '%s'", opts[k]);
        cr_assert_eq(proto_transcript_count(match_transcript(m)),
                     k < 2 ? 0 : 1, "options '%s'", opts[k]);
        match_free(m);
    }
    /* the host's start in a witnessed room holds the token once */
    Room r;
    room_open_witnessed(&r, "clock=60+0");
    const Proto_Message *s0 = proto_transcript_start(match_transcript(r.seat[1].m));
    cr_assert_str_eq(s0->body.start.options, "clock=60+0," PROTO_OPTION_RELAY);
    room_close(&r);
}

/* A seat does not claim the flag of a side its room has not seated
 * (such a claim's receipt would attest it never seated, and be void:
 * PROTO_ABSENT_NEVER): the host's WELCOME said no guest, and no
 * PRESENCE came, so on 1+0 with Black to move from 100 ms the host
 * sends nothing by 10 s; once the relay says the guest came, it claims
 * (by hand: Black's 1 s, the 0.5 s allowance and the 1 s grace after
 * 100 ms are long past) and Black loses on time. */
Test(match, no_flag_claim_against_a_side_its_room_has_not_seated)
{
    Room r;
    room_new(&r, "clock=1+0", witnessed_seat);
    r.witness = 1;
    r.host_sees_no_guest = 1;
    for (int i = 0; i < SEATS; i++)
        welcome(&r, i);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[0].m)), 1);
    r.now = 100;
    type(&r, MATCH_ROLE_HOST, line10[0]);
    at(&r, 10000);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[1].m)), 2,
                 "the host claimed against a guest its room had not seated");
    cr_assert_eq(proto_transcript_status(match_transcript(r.seat[1].m)).outcome,
                 CORE_ONGOING);
    witness_presence(&r, MATCH_ROLE_GUEST, 1);
    at(&r, 10001);
    all_end(&r, CORE_WIN_WHITE, CORE_REASON_TIME, 1);
    room_close(&r);
}

/* ---- a seek's promise (issue 37) ---- */

static const char *promise_game, *promise_options;

static void guest_promised(Match_Config *c, int role)
{
    if (role == MATCH_ROLE_GUEST) {
        c->expect_game = core_game_find(promise_game);
        c->expect_options = promise_options;
    }
}

/* The guest took a seek of `laska` with options "clock=300+3": the host's
 * start of laska with those options (and the session's relay token, which
 * is not the players' choice) is taken; one of chessball, or of laska
 * with another clock, is refused with the seek named, and the guest holds
 * no match start; the spectator, who promised nothing, takes each. */
Test(match, a_start_that_breaks_the_seeks_promise_is_refused)
{
    Room r;
    promise_game = "laska";
    promise_options = "clock=300+3";
    room_open_with(&r, "clock=300+3", guest_promised);
    room_close(&r);

    promise_options = "clock=600+0";
    room_new(&r, "clock=300+3", guest_promised);
    for (int i = 0; i < SEATS; i++)
        welcome(&r, i);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[1].m)), 0);
    cr_assert(has_note(&r.seat[1], "refused a match start: it is not the "
                                   "game the seek promised"));
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[2].m)), 1);
    room_close(&r);

    promise_game = "chessball";
    promise_options = "clock=300+3";
    room_new(&r, "clock=300+3", guest_promised);
    for (int i = 0; i < SEATS; i++)
        welcome(&r, i);
    cr_assert_eq(proto_transcript_count(match_transcript(r.seat[1].m)), 0);
    room_close(&r);
}
