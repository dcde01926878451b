/*
 * cmd_replay.c: `tabula replay FILE`. A match log is verified envelope by
 * envelope through proto/ (signatures, chain, sequence numbers, move
 * legality, state hashes); a plain game record is read move by move
 * through the rules core. Either way the game is printed ply by ply with
 * the state hash, then the result and final hash, or the first failure
 * with its ply and kind (exit status 1). --export writes a PGN-like
 * record in the game's notation. On a terminal (and without --quiet or
 * --export) a verified game opens in the full-screen replay viewer
 * (tui_replay.c) instead, and the summary lines follow when it closes.
 */
#define _POSIX_C_SOURCE 200809L /* gmtime_r, open_memstream */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "i18n.h"
#include "cli.h"
#include "proto.h"
#include "tui.h"

static const char replay_help[] =
    N_("usage: tabula replay FILE [--export OUT] [--game GAME] [--quiet]\n"
    "                           [--ply N]\n"
    "\n"
    "Verifies a match log: every signature, the hash chain, the sequence\n"
    "numbers, that each move is legal, and that the state hash after each\n"
    "ply matches the rules core. Prints the moves with their state hashes,\n"
    "the result and the final hash; on the first failure prints the ply,\n"
    "the kind of failure and the byte offset, and exits with status 1. A\n"
    "log cut short by a crash is verified up to its last whole envelope\n"
    "and reported as torn (status 1). An end record is accepted only on a\n"
    "match its envelopes ended.\n"
    "\n"
    "FILE may also be a plain game record: tag lines [Name \"value\"] and\n"
    "moves in the game's notation (for Laska the lasca.org style c3-d4,\n"
    "b2xd4xf6, or Lasker's numeric 9-13); every move is checked for\n"
    "legality and the game is shown the same way.\n"
    "  --export OUT   write the game record (tags and moves in canonical\n"
    "                 notation) to OUT, '-' for standard output\n"
    "  --game GAME    the game of a record with no Game tag\n"
    "  --quiet        print only the summary lines\n"
    "  --ply N        the ply the viewer shows first (default 0, the start)\n"
    "\n"
    "On a terminal, a verified game opens in a full-screen viewer: the\n"
    "board after each ply, the move list and the result. Keys: left/right\n"
    "one ply, Home/End, PgUp/PgDn ten plies, g then a ply number and\n"
    "Enter to jump, q to quit. Without a terminal, or with --quiet or\n"
    "--export, the lines above are printed instead.\n"
    "\n"
    "Exit status:\n"
    "  0  verified whole (a log closed by its end record or by the\n"
    "     match's end, or a record)\n"
    "  1  a check failed: a bad signature, chain, move or hash; a torn,\n"
    "     damaged or empty file; a directory; a record whose Result tag\n"
    "     and movetext disagree\n"
    "  2  bad usage: unknown flag, missing file, a record naming no game\n"
    "     (give --game)\n"
    "  3  every envelope verified, but the log stops at a frame boundary\n"
    "     before the match's end, without an end record: cut there, or\n"
    "     the match is still running\n");

/* Where the verification report goes: standard output, or standard error
 * when the exported record takes standard output. */
static FILE *rout;

/* What the replay collected, for printing and export. */
typedef struct Replay {
    int quiet;
    const Core_Game *game;
    uint8_t hash[PROTO_HASH_BYTES];
    Core_Move *moves; /* plain records: the moves read */
    size_t nmoves;
    size_t cap;
    int nomem;
    int headed; /* the game's header lines are printed */
    /* For the viewer (tui set): the verified game. */
    int tui;
    Core_Position *start; /* before the first move; NULL: no viewer */
    char white[PROTO_FINGERPRINT_MAX + 64];
    char black[PROTO_FINGERPRINT_MAX + 64];
    char result[96]; /* the result: line's, English tokens */
    char shown[256];  /* the same for the viewer, in the user's words */
} Replay;

/* Keep a move for the viewer and the export. */
static int keep_move(Replay *r, const Core_Move *mv)
{
    if (r->nmoves == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 128;
        Core_Move *grown = realloc(r->moves, cap * sizeof *grown);
        if (grown == NULL) {
            r->nomem = 1;
            return TB_E_NOMEM;
        }
        r->moves = grown;
        r->cap = cap;
    }
    r->moves[r->nmoves++] = *mv;
    return 0;
}

static void set_result(Replay *r, Core_Status st)
{
    const char *reason = st.outcome == CORE_ONGOING
                             ? "unfinished"
                             : core_reason_name(st.reason);
    snprintf(r->result, sizeof r->result, "%s (%s)",
             core_outcome_name(st.outcome), reason);
    snprintf(r->shown, sizeof r->shown, "%s (%s)",
             core_outcome_name(st.outcome),
             st.outcome == CORE_ONGOING ? _("unfinished")
                                        : cli_reason_words(reason));
}

/* A record's result: the board's when the moves end the game; when they
 * do not, the result the record states (a resignation, agreement or time
 * leaves the board unfinished), marked as the record's word, with its
 * Termination tag as the reason. */
static void set_record_result(Replay *r, Core_Status st,
                              const Proto_Record_Report *rep)
{
    const char *res = rep->result;
    const char *why = proto_record_tag(rep, "Termination");
    if (st.outcome != CORE_ONGOING ||
        (strcmp(res, "1-0") != 0 && strcmp(res, "0-1") != 0 &&
         strcmp(res, "1/2-1/2") != 0)) {
        set_result(r, st);
        return;
    }
    if (why != NULL && why[0] != '\0') {
        snprintf(r->result, sizeof r->result,
                 "%.7s (%.24s, as the record states)", res, cli_token(why));
        /* TRANSLATORS: a record's result and its Termination tag (an end
         * reason's word when it is one of ours, else the record's own
         * word as it is) */
        snprintf(r->shown, sizeof r->shown,
                 _("%.7s (%.24s, as the record states)"), res,
                 cli_reason_words(cli_token(why)));
    } else {
        snprintf(r->result, sizeof r->result, "%.7s (as the record states)",
                 res);
        snprintf(r->shown, sizeof r->shown, _("%.7s (as the record states)"),
                 res);
    }
}

static void print_ply(uint32_t ply, int mover, const char *text,
                      const uint8_t hash[PROTO_HASH_BYTES])
{
    char hex[PROTO_HASH_HEX], safe[CORE_INPUT_MAX + 1];
    proto_hex(hash, PROTO_HASH_BYTES, hex);
    fprintf(rout, "%4u. %-5s %-24s %.16s\n", ply,
            mover == CORE_WHITE ? "white" : "black",
            cli_printable(text, safe, sizeof safe), hex);
}

static void print_log_header(const Proto_Log_Header *h)
{
    char fp[PROTO_FINGERPRINT_MAX], hex[PROTO_HASH_HEX];
    fprintf(rout, "game: %s%s%s\n", h->game, h->options[0] ? " options " : "",
            h->options);
    proto_hex(h->match_id, PROTO_MATCH_ID_BYTES, hex);
    fprintf(rout, "match: %s\n", hex);
    proto_fingerprint(h->white, fp);
    fprintf(rout, "white: %s\n", fp);
    proto_fingerprint(h->black, fp);
    fprintf(rout, "black: %s\n", fp);
}

static void visit_envelope(void *ctx, const Proto_Transcript *t,
                           const Proto_Envelope *e)
{
    Replay *r = ctx;
    const Proto_Message *m = &e->msg;
    int side = proto_transcript_side_of(t, m->sender);
    const char *who = side == CORE_WHITE ? "white" : "black";

    if (m->kind == PROTO_KIND_MOVE)
        memcpy(r->hash, m->body.move.hash, PROTO_HASH_BYTES);
    if (!r->headed) {
        Proto_Log_Header h;
        proto_log_header_of(proto_transcript_start(t), &h);
        print_log_header(&h);
        r->headed = 1;
    }
    if (r->quiet || m->kind == PROTO_KIND_MATCH_START)
        return;
    switch (m->kind) {
    case PROTO_KIND_MOVE:
        print_ply(m->body.move.ply, side, m->body.move.move, m->body.move.hash);
        if (m->body.move.has_clock && !proto_transcript_witnessed(t))
            /* G-MC-6: mover's own, its view (witnessed: they count for
             * nothing, the receipts keep the clocks) */
            fprintf(rout, "      [clock %s] %u ms left, %s %u ms\n", who,
                    m->body.move.own_ms,
                    side == CORE_WHITE ? "black" : "white",
                    m->body.move.opp_ms);
        break;
    case PROTO_KIND_FLAG:
        fprintf(rout, "      [%s %s] at ply %u after %u ms\n",
                proto_kind_name(m->kind), who, m->body.flag.ply,
                m->body.flag.elapsed);
        break;
    case PROTO_KIND_CLAIM:
        fprintf(rout, "      [%s %s] %s: the opponent is absent\n",
                proto_kind_name(m->kind), who,
                m->body.claim.what == PROTO_CLAIM_DRAW ? "a draw" : "the win");
        break;
    case PROTO_KIND_CHAT:
    case PROTO_KIND_BYE: {
        /* A peer's words: control bytes would reach the terminal. */
        char safe[sizeof m->body.text.text];
        fprintf(rout, "      [%s %s]%s%s\n", proto_kind_name(m->kind), who,
                m->body.text.text[0] ? " " : "",
                cli_printable(m->body.text.text, safe, sizeof safe));
        break;
    }
    case PROTO_KIND_TAKEBACK_REQUEST:
    case PROTO_KIND_TAKEBACK_ACCEPT:
        fprintf(rout, "      [%s %s] %u %s\n", proto_kind_name(m->kind), who,
                m->body.takeback.plies,
                m->body.takeback.plies == 1 ? "ply" : "plies");
        break;
    case PROTO_KIND_STATE_CHECK:
        fprintf(rout, "      [%s %s] ply %u agrees\n", proto_kind_name(m->kind),
                who, m->body.check.ply);
        break;
    case PROTO_KIND_DESYNC:
        fprintf(rout, "      [%s %s] at ply %u, %zu bytes of state\n",
                proto_kind_name(m->kind), who, m->body.desync.ply,
                m->body.desync.state_len);
        break;
    default:
        fprintf(rout, "      [%s %s]\n", proto_kind_name(m->kind), who);
        break;
    }
}

static void visit_record(void *ctx, const Core_Position *pos, int mover,
                         const Core_Move *mv, const char *text)
{
    Replay *r = ctx;
    int rc = proto_state_hash(pos, r->hash);

    if (!r->headed) {
        fprintf(rout, "game: %s (plain record, no signatures)\n",
                core_game_name(core_position_game(pos)));
        r->headed = 1;
    }
    if (keep_move(r, mv) != 0)
        return;
    if (!r->quiet && rc == 0)
        print_ply(core_ply(pos), mover, text, r->hash);
}

/* ---- export ---------------------------------------------------------- */

static void put_tag(FILE *out, const char *name, const char *value)
{
    char safe[PROTO_TAG_VALUE_MAX + 1];
    fprintf(out, "[%s \"", name);
    for (const char *p = cli_printable(value, safe, sizeof safe); *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', out);
        fputc(*p, out);
    }
    fprintf(out, "\"]\n");
}

/* The PGN result token of a status: 1-0, 0-1, 1/2-1/2 or *. */
static const char *result_token(Core_Status st)
{
    if (st.outcome == CORE_WIN_WHITE || st.outcome == CORE_WIN_BLACK ||
        st.outcome == CORE_DRAW)
        return core_outcome_name(st.outcome);
    return "*";
}

/*
 * Write the movetext of moves from initial in canonical notation, lines
 * under 80 columns, ending with result. Numbers count White's moves
 * ("12."); a Black move that does not follow a White one gets "12..." (at
 * the start, and in games where a side may move twice running).
 */
static int export_moves(FILE *out, const Core_Position *initial,
                        const Core_Move *moves, size_t n, const char *result)
{
    Core_Position *pos = core_position_clone(initial);
    size_t col = 0;
    unsigned white_moves = 0;
    int rc = 0, last = -1;

    if (pos == NULL)
        return TB_E_NOMEM;
    for (size_t i = 0; i < n && rc == 0; i++) {
        char text[CORE_NOTATION_MAX + 32], num[24] = "";
        int side = core_side_to_move(pos);
        if (side == CORE_WHITE)
            snprintf(num, sizeof num, "%u. ", ++white_moves);
        else if (last != CORE_WHITE)
            snprintf(num, sizeof num, "%u... ",
                     white_moves > 0 ? white_moves : 1);
        last = side;
        rc = core_move_format(pos, &moves[i], text, sizeof text);
        if (rc == 0)
            rc = core_play(pos, &moves[i]);
        if (rc != 0)
            break;
        size_t w = strlen(num) + strlen(text);
        if (col > 0 && col + 1 + w > 79) {
            fputc('\n', out);
            col = 0;
        } else if (col > 0) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%s%s", num, text);
        col += w;
    }
    if (col > 0 && col + 1 + strlen(result) > 79)
        fprintf(out, "\n%s\n", result);
    else
        fprintf(out, "%s%s\n", col > 0 ? " " : "", result);
    core_position_free(pos);
    return rc;
}

/* Do two paths name one existing file? */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

static FILE *open_export(const char *path)
{
    FILE *out = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (out == NULL)
        fprintf(stderr,
                _("tabula replay: cannot write the export '%s': %s; give "
                "--export a path in a writable folder, or '-'\n"),
                cli_token(path), strerror(errno));
    return out;
}

static int close_export(FILE *out)
{
    int bad = ferror(out);
    if (out != stdout)
        bad |= fclose(out) != 0;
    else
        fflush(out);
    return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

static int export_log(const char *path, const Proto_Transcript *t,
                      const uint8_t final[PROTO_HASH_BYTES])
{
    const Proto_Message *start = proto_transcript_start(t);
    Core_Status st = proto_transcript_status(t);
    char fp[PROTO_FINGERPRINT_MAX], hex[PROTO_HASH_HEX],
        date[16] = "????.??.??";
    Core_Position *initial = NULL;
    const Core_Game *g = core_position_game(proto_transcript_position(t));
    size_t n = proto_transcript_moves(t);
    Core_Move *moves = malloc((n ? n : 1) * sizeof *moves);
    time_t when = (time_t)start->body.start.started;
    struct tm tm;
    FILE *out;
    int rc;

    if (moves == NULL ||
        core_position_new(&initial, g, proto_transcript_game_options(t)) != 0) {
        free(moves);
        fprintf(stderr, _("tabula replay: cannot export\n"));
        return CLI_EXIT_FAIL;
    }
    for (size_t i = 0; i < n; i++)
        moves[i] = *proto_transcript_move_at(t, i);
    out = open_export(path);
    if (out == NULL) {
        free(moves);
        core_position_free(initial);
        return CLI_EXIT_USAGE;
    }
    if (when != 0 && gmtime_r(&when, &tm) != NULL)
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
    put_tag(out, "Event", "Tabula match");
    put_tag(out, "Site", "tabula");
    put_tag(out, "Date", date);
    put_tag(out, "Game", core_game_name(g));
    if (proto_transcript_game_options(t)[0] != '\0')
        put_tag(out, "Options", proto_transcript_game_options(t));
    proto_fingerprint(start->body.start.white, fp);
    put_tag(out, "White", fp);
    proto_fingerprint(start->body.start.black, fp);
    put_tag(out, "Black", fp);
    put_tag(out, "Result", result_token(st));
    if (st.outcome != CORE_ONGOING)
        put_tag(out, "Termination", core_reason_name(st.reason));
    proto_hex(start->match_id, PROTO_MATCH_ID_BYTES, hex);
    put_tag(out, "MatchId", hex);
    proto_hex(final, PROTO_HASH_BYTES, hex);
    put_tag(out, "FinalHash", hex);
    fputc('\n', out);
    rc = export_moves(out, initial, moves, n, result_token(st));
    free(moves);
    core_position_free(initial);
    if (rc != 0)
        fprintf(stderr, "tabula replay: export: %s\n", _(tb_strerror(rc)));
    return rc != 0 ? CLI_EXIT_FAIL : close_export(out);
}

/* Is tag name one of the export's own (case as the reader: ignored)? */
static int tag_is(const char *name, const char *want)
{
    return strcasecmp(name, want) == 0;
}

/*
 * A record exported again keeps the original's tags, in its order and
 * with its values, and adds none (a trial found `[Round "?"]` made up;
 * the export is PGN-like, not PGN: its games are not chess, so PGN's
 * seven-tag roster is not demanded, docs/usage.md). The values the
 * export works out itself replace the original's where it had the tag:
 * Result (the result written), Termination (the board's reason when the
 * moves end the game, else the record's own: a resignation or time
 * leaves the board unfinished, issue 20, finding 2), FinalHash (the
 * final position's). A Game tag is added only when no Game or Variant
 * tag named the game (it came from --game): the export must name it to
 * be read back.
 */
static int export_record(const char *path, const Proto_Record_Report *rep,
                         const Replay *r, Core_Status st)
{
    const char *opts = proto_record_tag(rep, "Options");
    const char *start = proto_record_tag(rep, "Position");
    Core_Position *initial = NULL;
    const char *result = rep->result[0] ? rep->result : result_token(st);
    char hex[PROTO_HASH_HEX];
    FILE *out;
    int rc;

    if (start == NULL)
        start = proto_record_tag(rep, "FEN");
    rc = core_position_new(&initial, rep->game, opts);
    if (rc == 0 && start != NULL)
        rc = core_position_parse(initial, start, NULL, 0);
    if (rc != 0) {
        core_position_free(initial);
        fprintf(stderr, _("tabula replay: cannot export: %s\n"), _(tb_strerror(rc)));
        return CLI_EXIT_FAIL;
    }
    out = open_export(path);
    if (out == NULL) {
        core_position_free(initial);
        return CLI_EXIT_USAGE;
    }
    proto_hex(r->hash, PROTO_HASH_BYTES, hex);
    if (proto_record_tag(rep, "Game") == NULL &&
        proto_record_tag(rep, "Variant") == NULL)
        put_tag(out, "Game", core_game_name(rep->game));
    for (size_t i = 0; i < rep->ntags; i++) {
        const Proto_Tag *tag = &rep->tags[i];
        const char *value = tag->value;
        if (tag_is(tag->name, "Result"))
            value = result;
        else if (tag_is(tag->name, "Termination") &&
                 st.outcome != CORE_ONGOING)
            value = core_reason_name(st.reason);
        else if (tag_is(tag->name, "FinalHash"))
            value = hex;
        put_tag(out, tag->name, value);
    }
    fputc('\n', out);
    rc = export_moves(out, initial, r->moves, r->nmoves, result);
    core_position_free(initial);
    if (rc != 0)
        fprintf(stderr, "tabula replay: export: %s\n", _(tb_strerror(rc)));
    return rc != 0 ? CLI_EXIT_FAIL : close_export(out);
}

/* ---- the two kinds of file ------------------------------------------- */

static void print_result(Core_Status st, const uint8_t hash[PROTO_HASH_BYTES])
{
    char hex[PROTO_HASH_HEX];
    proto_hex(hash, PROTO_HASH_BYTES, hex);
    fprintf(rout, "result: %s (%s)\n", core_outcome_name(st.outcome),
            st.outcome == CORE_ONGOING ? "unfinished"
                                       : core_reason_name(st.reason));
    fprintf(rout, "final-hash: %s\n", hex);
}

/* The verified match, kept for the viewer (r->start stays NULL when
 * memory runs out: then the lines are printed as without a terminal). */
static void keep_log_game(Replay *r, const Proto_Transcript *t)
{
    const Proto_Message *start = proto_transcript_start(t);
    const Core_Game *g = core_position_game(proto_transcript_position(t));
    char fp[PROTO_FINGERPRINT_MAX];

    r->nmoves = 0;
    for (size_t i = 0; i < proto_transcript_moves(t); i++)
        if (keep_move(r, proto_transcript_move_at(t, i)) != 0)
            return;
    if (core_position_new(&r->start, g, proto_transcript_game_options(t)) != 0) {
        r->start = NULL;
        return;
    }
    proto_fingerprint(start->body.start.white, fp);
    snprintf(r->white, sizeof r->white, "%s", fp);
    proto_fingerprint(start->body.start.black, fp);
    snprintf(r->black, sizeof r->black, "%s", fp);
    set_result(r, proto_transcript_status(t));
}

/* What the relay witnessed in a version 2 or 3 log: its receipts, the
 * keys that signed them, the clocks they give (the fair-play issue), and
 * the writing seat's evidence against the relay's time. */
static void print_witness(const Proto_Log_Report *rep,
                          const Proto_Transcript *t)
{
    char fp[PROTO_FINGERPRINT_MAX];
    fprintf(rout, "relay: %u receipts, %u presence records, signed by",
            rep->receipts, rep->presences);
    for (uint32_t k = 0; k < rep->relays && k < 8; k++) {
        proto_fingerprint(rep->relay[k], fp);
        fprintf(rout, "%s %s", k ? "," : "", fp);
    }
    fprintf(rout, "%s\n", rep->relays == 0 ? " none" : "");
    if (rep->unwitnessed > 0)
        fprintf(rout, "relay: the last %u envelopes have no receipt\n",
                rep->unwitnessed);
    int64_t left[2];
    if (t != NULL && proto_transcript_clock(t)->kind != PROTO_CLOCK_NONE) {
        proto_transcript_clock_turn(t, NULL, left);
        fprintf(rout,
                "clocks (from the relay's receipts, %u ms lag allowance "
                "a move): white %lld ms, black %lld ms\n",
                (unsigned)PROTO_LAG_MS, (long long)left[0],
                (long long)left[1]);
    }
    if (t != NULL && (proto_transcript_flags_void(t) != 0 ||
                      proto_transcript_claims_void(t) != 0))
        fprintf(rout,
                "void claims (the relay's records refute them): %u flag, "
                "%u absence\n",
                proto_transcript_flags_void(t), proto_transcript_claims_void(t));
    if (rep->skews > 0)
        fprintf(rout,
                "evidence (the seat's word, docs/trust.md): %u receipt%s "
                "outside this seat's clock, the relay up to %u ms ahead and "
                "%u ms behind\n",
                rep->skews, rep->skews == 1 ? "" : "s", rep->skew_ahead_ms,
                rep->skew_behind_ms);
}

static int replay_log(const uint8_t *buf, size_t len, const char *export,
                      Replay *r)
{
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    char hex[PROTO_HASH_HEX];
    int rc, status = CLI_EXIT_OK;

    rc = proto_log_verify(buf, len, NULL, visit_envelope, r, &t, &rep);
    if (!r->headed && rep.header.game[0] != '\0')
        print_log_header(&rep.header); /* no envelope was accepted */
    if (rc == 0 && rep.desync_ply != 0) {
        char safe[sizeof rep.desync_why];
        fprintf(rout, "desync at ply %u: %s\n", rep.desync_ply,
                cli_printable(rep.desync_why, safe, sizeof safe));
    }
    if (rc == 0 && t != NULL && proto_transcript_position(t) != NULL) {
        if (proto_state_hash(proto_transcript_position(t), r->hash) == 0)
            print_result(proto_transcript_status(t), r->hash);
        proto_transcript_chain(t, r->hash);
        proto_hex(r->hash, PROTO_HASH_BYTES, hex);
        fprintf(rout, "chain: %s\n", hex);
    }
    if (rc == 0 && rep.header.version >= 2)
        print_witness(&rep, t);
    else if (rc == 0 && t != NULL &&
             (proto_transcript_status(t).reason == CORE_REASON_TIME ||
              proto_transcript_status(t).reason == CORE_REASON_ABANDON))
        /* (a cheating player rewrote a lobby game's log so, its receipts
         * dropped: docs/trust.md) */
        fprintf(rout, "relay: none (a log of version 1): this result rests "
                      "on a player's word, as no relay witnessed its time "
                      "or absence\n");
    if (rc != 0) {
        /* Once, in the report: the reason quotes bytes of the file. */
        const char *kind = rep.torn ? "torn log" : _(tb_strerror(rc));
        char safe[sizeof rep.why];
        fprintf(rout, "FAILED at ply %u: %s (envelope %u, byte %zu): %s\n",
                rep.ply, kind, rep.frame, rep.offset,
                cli_printable(rep.why, safe, sizeof safe));
        status = CLI_EXIT_FAIL;
    } else {
        int over = t != NULL && proto_transcript_position(t) != NULL &&
                   proto_log_status(t, &rep).outcome != CORE_ONGOING;
        fprintf(rout,
                "verified: %u envelopes, %u plies; signatures, chain, moves "
                "and state hashes %s%s\n",
                rep.envelopes,
                t && proto_transcript_position(t)
                    ? core_ply(proto_transcript_position(t))
                    : 0,
                rep.desync_ply != 0 ? "checked (the desync decides)"
                                    : "agree",
                rep.ended ? ""
                : over    ? " (no end record after the match's end: a "
                            "relay archive's copy, or a log cut there)"
                          : " (no end record: the log stops at a frame "
                            "boundary; cut there, or the match is still "
                            "running)");
        /* a log whose envelopes end the match is that match's whole
         * record, its end record or not: a relay's archive keeps none
         * (docs/archive.md), as it runs no rules to know the end */
        if (!rep.ended && !over)
            status = CLI_EXIT_UNENDED;
    }
    if (status != CLI_EXIT_FAIL && r->tui && t != NULL &&
        proto_transcript_position(t) != NULL)
        keep_log_game(r, t);
    if (status != CLI_EXIT_FAIL && export != NULL && t != NULL &&
        proto_transcript_position(t) != NULL) {
        uint8_t final[PROTO_HASH_BYTES];
        int ex;
        proto_state_hash(proto_transcript_position(t), final);
        ex = export_log(export, t, final);
        if (ex != CLI_EXIT_OK)
            status = ex;
    }
    proto_transcript_free(t);
    return status;
}

/* The verified record, kept for the viewer (as keep_log_game). */
static void keep_record_game(Replay *r, const Proto_Record_Report *rep,
                             Core_Status st)
{
    const char *start = proto_record_tag(rep, "Position");
    const char *white = proto_record_tag(rep, "White");
    const char *black = proto_record_tag(rep, "Black");

    if (start == NULL)
        start = proto_record_tag(rep, "FEN");
    if (core_position_new(&r->start, rep->game,
                          proto_record_tag(rep, "Options")) != 0) {
        r->start = NULL;
        return;
    }
    if (start != NULL && core_position_parse(r->start, start, NULL, 0) != 0) {
        core_position_free(r->start);
        r->start = NULL;
        return;
    }
    snprintf(r->white, sizeof r->white, "%s", white ? cli_token(white) : "?");
    snprintf(r->black, sizeof r->black, "%s", black ? cli_token(black) : "?");
    set_record_result(r, st, rep);
}

static int replay_record(const char *path, const uint8_t *buf, size_t len,
                         const char *export, const Core_Game *game, Replay *r)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    int rc, status = CLI_EXIT_OK;

    rc = proto_record_read((const char *)buf, len, game, visit_record, r, &pos,
                           &rep);
    if (rep.game != NULL && !r->headed)
        fprintf(rout, "game: %s (plain record, no signatures)\n",
                core_game_name(rep.game));
    if (rc != 0 || r->nomem) {
        char safe[sizeof rep.why];
        if (rc == 0)
            rc = TB_E_NOMEM;
        if (rc == TB_E_GAME && rep.game == NULL && game == NULL) {
            const char *named = proto_record_tag(&rep, "Game");
            if (named == NULL)
                named = proto_record_tag(&rep, "Variant");
            if (named != NULL)
                fprintf(stderr,
                        _("tabula replay: '%s' line %u: unknown game '%s'; "
                        "expected one of:"),
                        cli_token(path), rep.line, cli_token(named));
            else
                fprintf(stderr,
                        _("tabula replay: '%s' is not a match log, and as a "
                        "game record it names no game: add a [Game \"NAME\"] "
                        "tag or give --game NAME, NAME one of:"),
                        cli_token(path));
            for (size_t i = 0; i < core_game_count(); i++)
                fprintf(stderr, " %s", core_game_name(core_game_at(i)));
            fprintf(stderr, "\n");
            return CLI_EXIT_USAGE;
        }
        fprintf(rout, "FAILED at ply %u: %s (line %u, column %u): %s\n",
                rep.ply, _(tb_strerror(rc)), rep.line, rep.col,
                cli_printable(rep.why, safe, sizeof safe));
        return CLI_EXIT_FAIL;
    }
    if (rep.next_game != 0)
        fprintf(stderr,
                _("tabula replay: '%s': only the first game is read; the "
                  "next one begins at line %u\n"),
                cli_token(path), rep.next_game);
    if (r->nmoves == 0)
        proto_state_hash(pos, r->hash);
    Core_Status st = core_status(pos);
    char hex[PROTO_HASH_HEX];
    proto_hex(r->hash, PROTO_HASH_BYTES, hex);
    set_record_result(r, st, &rep);
    fprintf(rout, "result: %s\nfinal-hash: %s\n", r->result, hex);
    if (rep.result[0] != '\0')
        fprintf(rout, "stated-result: %s\n", rep.result);
    fprintf(rout, "verified: %zu plies, every move legal\n", r->nmoves);
    if (r->tui)
        keep_record_game(r, &rep, st);
    if (export != NULL)
        status = export_record(export, &rep, r, st);
    core_position_free(pos);
    return status;
}

/* ---- what the file is ------------------------------------------------ */

/* Read file into *buf. A missing file is a usage error (status 2); a
 * directory, an unreadable or empty file is a file that fails the check
 * (status 1), each with the reason and what to do. */
static int read_input(const char *file, uint8_t **buf, size_t *len)
{
    struct stat st;
    int rc;

    if (stat(file, &st) != 0) {
        int e = errno;
        fprintf(stderr, _("tabula replay: cannot read '%s': %s%s\n"),
                cli_token(file), strerror(e),
                e == ENOENT ? _("; give the path of a match log (--log FILE of "
                              "host, join or spectate) or of a game record")
                            : "");
        return e == ENOENT || e == ENOTDIR ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    if (S_ISDIR(st.st_mode)) {
        fprintf(rout, "FAILED: unreadable: '%s' is a directory, not a match "
                      "log or a game record; give one file in it\n",
                cli_token(file));
        return CLI_EXIT_FAIL;
    }
    errno = 0;
    rc = proto_read_file(file, buf, len);
    if (rc != 0) {
        /* The system's reason (permission, a device) says more. */
        fprintf(rout, "FAILED: unreadable: '%s': %s\n", cli_token(file),
                rc == TB_E_IO && errno != 0 ? strerror(errno)
                : rc == TB_E_IO             ? "not a regular file"
                                            : _(tb_strerror(rc)));
        return CLI_EXIT_FAIL;
    }
    if (*len == 0) {
        fprintf(rout, "FAILED: damaged log: '%s' is empty (0 bytes): "
                      "neither a match log nor a game record\n",
                cli_token(file));
        free(*buf);
        *buf = NULL;
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/*
 * A match log, perhaps damaged: the magic, or the first bytes of it (a
 * file cut inside its magic, which the verifier reports as torn), or a
 * first line that differs from the magic in a few bytes only (a damaged
 * magic: the verifier says it is not a tabula log).
 */
static int looks_like_log(const uint8_t *buf, size_t len)
{
    size_t same = 0;

    if (len < PROTO_LOG_MAGIC_LEN)
        return memcmp(buf, PROTO_LOG_MAGIC, len) == 0;
    for (size_t i = 0; i < PROTO_LOG_MAGIC_LEN; i++)
        same += buf[i] == (uint8_t)PROTO_LOG_MAGIC[i];
    return same + 3 >= PROTO_LOG_MAGIC_LEN;
}

/* Text, as a game record is: no NUL byte. (Any log has NUL bytes in its
 * frame lengths; a record may carry stray controls or Latin-1, which the
 * record reader and the printing deal with.) */
static int is_text(const uint8_t *buf, size_t len)
{
    return memchr(buf, 0, len) == NULL;
}

static int not_text(const uint8_t *buf, size_t len)
{
    size_t at = (size_t)((const uint8_t *)memchr(buf, 0, len) - buf);
    fprintf(rout,
            "FAILED: damaged log: not a tabula log (its first bytes are not "
            "the magic \"tabula-log 1\") and not a text game record (a NUL "
            "byte at offset %zu)\n",
            at);
    return CLI_EXIT_FAIL;
}

/* replay's flags. */
enum {
    REPLAY_FLAG_QUIET,
    REPLAY_FLAG_PLY,
    REPLAY_FLAG_EXPORT,
    REPLAY_FLAG_GAME,
    REPLAY_FLAG_LETTERS
};
const Cli_Flag cli_flags_replay[] = {{"--quiet", CLI_SWITCH, REPLAY_FLAG_QUIET},
                                     {"--letters", CLI_SWITCH,
                                      REPLAY_FLAG_LETTERS},
                                     {"--ply", CLI_VALUE, REPLAY_FLAG_PLY},
                                     {"--export", CLI_VALUE, REPLAY_FLAG_EXPORT},
                                     {"--game", CLI_VALUE, REPLAY_FLAG_GAME},
                                     {NULL, CLI_SWITCH, 0}};

int cli_replay(int argc, char **argv)
{
    const char *file = NULL, *export = NULL;
    const Core_Game *game = NULL;
    Replay r;
    uint8_t *buf = NULL;
    size_t len = 0, start_ply = 0;
    int rc;
    char *report = NULL;
    size_t report_len = 0;

    memset(&r, 0, sizeof r);
    rout = stdout;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(_(replay_help), stdout);
            fputs(_(cli_letters_help), stdout);
            return CLI_EXIT_OK;
        }
        const char *v;
        /* "-" alone is a file: standard input */
        int f = strcmp(argv[i], "-") == 0
                    ? CLI_ARG_WORD
                    : cli_arg("replay", cli_flags_replay, argc, argv, &i, NULL,
                              &v);
        if (f == REPLAY_FLAG_QUIET) {
            r.quiet = 1;
        } else if (f == REPLAY_FLAG_LETTERS) {
            tui_letters(1);
        } else if (f == REPLAY_FLAG_PLY) {
            uint64_t ply = 0;
            if (cli_uint(v, 0, UINT32_MAX, &ply) != 0) {
                fprintf(stderr, _("tabula replay: bad ply '%s'\n"),
                        cli_token(v));
                return CLI_EXIT_USAGE;
            }
            start_ply = (size_t)ply;
        } else if (f == REPLAY_FLAG_EXPORT) {
            export = v;
        } else if (f == REPLAY_FLAG_GAME) {
            game = cli_game("replay", v);
            if (game == NULL)
                return CLI_EXIT_USAGE;
        } else if (f == CLI_ARG_UNKNOWN) {
            fprintf(stderr, _("tabula replay: unknown flag '%s'\n"),
                    cli_token(argv[i]));
            fputs(_(replay_help), stderr);
            return CLI_EXIT_USAGE;
        } else if (f != CLI_ARG_WORD) {
            return CLI_EXIT_USAGE; /* needs a value */
        } else if (file == NULL) {
            file = argv[i];
        } else {
            fputs(_(replay_help), stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (file == NULL) {
        fputs(_(replay_help), stderr);
        return CLI_EXIT_USAGE;
    }
    if (export != NULL && strcmp(export, "-") == 0) {
        rout = stderr;
        r.quiet = 1;
    }
    if (proto_init() != 0) {
        fprintf(stderr, _("tabula replay: cannot initialise libsodium\n"));
        return CLI_EXIT_FAIL;
    }
    if (export != NULL && same_file(file, export)) {
        fprintf(stderr, _("tabula replay: --export '%s' is the file being "
                        "replayed; it would be overwritten\n"),
                cli_token(export));
        return CLI_EXIT_USAGE;
    }
    rc = read_input(file, &buf, &len);
    if (rc != CLI_EXIT_OK)
        return rc;
    /* On a terminal the viewer shows the game; the report (header and
     * summary only) is kept and printed when the viewer closes. */
    if (!r.quiet && export == NULL && tui_terminal_ok()) {
        rout = open_memstream(&report, &report_len);
        if (rout == NULL)
            rout = stdout;
        else
            r.tui = r.quiet = 1;
    }
    if (looks_like_log(buf, len))
        rc = replay_log(buf, len, export, &r);
    else if (!is_text(buf, len))
        rc = not_text(buf, len);
    else
        rc = replay_record(file, buf, len, export, game, &r);
    free(buf);
    if ((rc == CLI_EXIT_OK || rc == CLI_EXIT_UNENDED) && r.tui &&
        r.start != NULL) {
        char shown[256];
        Tui_Replay view = {
            .game = core_position_game(r.start),
            .start = r.start,
            .moves = r.moves,
            .nmoves = r.nmoves,
            .start_ply = start_ply,
            .file = cli_printable(file, shown, sizeof shown),
            .white = r.white,
            .black = r.black,
            .result = r.shown,
        };
        fflush(stdout);
        if (tui_replay(&view) != 0)
            fprintf(stderr, _("tabula replay: cannot open the viewer\n"));
    }
    if (rout != stdout && rout != stderr) {
        fclose(rout);
        fwrite(report, 1, report_len, stdout);
        free(report);
    }
    core_position_free(r.start);
    free(r.moves);
    return rc;
}
