/*
 * web_api.c: the exports of Tabula's WebAssembly module for the browser
 * page (web_api.h). A thin layer over core/ and proto/: it turns the
 * page's strings into the core's calls and the answers into text, so the
 * page never holds a rule, an encoding or a hash of its own. One output
 * buffer serves every call that returns text; the page copies it at once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "engine.h"
#include "core.h"
#include "entry.h"
#include "game_help.h"
#include "i18n.h"
#include "match.h"
#include "proto.h"
#include "session.h"
#include "web_api.h"
#include "web_internal.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

static char *out;
static size_t out_cap;
static int last_error;
static char last_why[1024]; /* a move's refusal with its hint, in Cyrillic too */

/* Make room for n bytes (and a NUL) in the output buffer. */
static char *out_reserve(size_t n)
{
    if (n + 1 > out_cap) {
        size_t cap = out_cap ? out_cap : 4096;
        while (cap < n + 1)
            cap *= 2;
        char *p = realloc(out, cap);
        if (p == NULL)
            return NULL;
        out = p;
        out_cap = cap;
    }
    return out;
}

static const char *out_text(const char *s)
{
    size_t n = strlen(s);
    if (out_reserve(n) == NULL)
        return NULL;
    memcpy(out, s, n + 1);
    return out;
}

static int out_put(size_t *at, const char *text, int clean);

static int fail(int code, const char *fmt, ...)
{
    va_list ap;
    last_error = code;
    va_start(ap, fmt);
    vsnprintf(last_why, sizeof last_why, fmt, ap);
    va_end(ap);
    return code;
}

WEB_EXPORT(web_init) int web_init(void) { return proto_init(); }

WEB_EXPORT(web_alloc) void *web_alloc(size_t bytes)
{
    return malloc(bytes ? bytes : 1);
}

WEB_EXPORT(web_free) void web_free(void *p) { free(p); }

WEB_EXPORT(web_error) const char *web_error(int code)
{
    return tb_strerror(code);
}

WEB_EXPORT(web_catalogue) int web_catalogue(const uint8_t *buf, size_t len)
{
    if (len == 0) {
        cli_catalogue_clear();
        return 0;
    }
    int rc = cli_catalogue_set(buf, len);
    return rc ? fail(rc, "catalogue: %s", tb_strerror(rc)) : 0;
}

/* A typed note as web_match.c hands it to the page (code, four arguments
 * and the English line, separated by 0x1f) in the page's language. An
 * offer or request put to this seat loses its ": type accept or decline":
 * the page's Accept and Decline buttons show while it is open. */
static char *note_words(const char *typed, char *said, size_t cap)
{
    Match_Note n;
    const char *p = typed, *english;
    char *end;
    long code = strtol(p, &end, 10);
    memset(&n, 0, sizeof n);
    if (end == p || *end != '\x1f') { /* not typed: as it is */
        snprintf(said, cap, "%s", typed);
        return said;
    }
    p = end + 1;
    for (int i = 0; i < MATCH_NOTE_ARGS; i++) {
        size_t len = strcspn(p, "\x1f");
        if (p[len] != '\x1f')
            break;
        snprintf(n.arg[i], sizeof n.arg[i], "%.*s", (int)len, p);
        p += len + 1;
    }
    english = p;
    n.code = code == MATCH_NOTE_DRAW_OFFER_TO_YOU     ? MATCH_NOTE_DRAW_OFFER
             : code == MATCH_NOTE_TAKEBACK_ASK_YOU ? MATCH_NOTE_TAKEBACK_ASK
                                                   : (int)code;
    return cli_match_note(&n, english, said, cap);
}

WEB_EXPORT(web_text) const char *web_text(int kind, const char *text)
{
    /* A note grows when translated: Russian's letters take two bytes
     * each. Ample for a note (cut, if ever, at a character). */
    char buf[1024];
    if (kind == WEB_TEXT_REASON)
        return out_text(cli_reason_words(text));
    if (kind == WEB_TEXT_NOTE)
        return out_text(note_words(text, buf, sizeof buf));
    fail(TB_E_ARG, "text: unknown kind %d", kind);
    return NULL;
}

WEB_EXPORT(web_last_error) int web_last_error(void) { return last_error; }

WEB_EXPORT(web_last_why) const char *web_last_why(void) { return last_why; }

WEB_EXPORT(web_games) const char *web_games(void)
{
    size_t len = 0;
    for (size_t i = 0; i < core_game_count(); i++) {
        const Core_Game *g = core_game_at(i);
        len += strlen(core_game_name(g)) + strlen(core_game_title(g)) +
               strlen(core_game_move_hint(g)) + 3;
    }
    if (out_reserve(len) == NULL)
        return NULL;
    size_t at = 0;
    for (size_t i = 0; i < core_game_count(); i++) {
        const Core_Game *g = core_game_at(i);
        int n = snprintf(out + at, out_cap - at, "%s\t%s\t%s\n",
                         core_game_name(g), core_game_title(g),
                         core_game_move_hint(g));
        at += (size_t)n;
    }
    out[at] = '\0';
    return out;
}

WEB_EXPORT(web_position_new)
void *web_position_new(const char *name, const char *options,
                       const char *position)
{
    const Core_Game *g = core_game_find(name);
    Core_Position *pos = NULL;
    if (g == NULL) {
        fail(TB_E_ARG, "unknown game '%.64s'", name);
        return NULL;
    }
    int rc = core_position_new(&pos, g, options);
    if (rc != 0) {
        fail(rc, "%s: %s", core_game_name(g), tb_strerror(rc));
        return NULL;
    }
    if (position != NULL && position[0] != '\0') {
        char why[192] = "";
        rc = core_position_parse(pos, position, why, sizeof why);
        if (rc != 0) {
            core_position_free(pos);
            fail(rc, "%s", why[0] ? why : tb_strerror(rc));
            return NULL;
        }
    }
    return pos;
}

WEB_EXPORT(web_position_free) void web_position_free(void *pos)
{
    core_position_free(pos);
}

WEB_EXPORT(web_moves) const char *web_moves(void *pos)
{
    const Core_Game *g = core_position_game(pos);
    size_t cap = core_game_max_moves(g), count = 0;
    Core_Move *mv = malloc(cap * sizeof *mv);
    if (mv == NULL) {
        fail(TB_E_NOMEM, "no memory for %zu moves", cap);
        return NULL;
    }
    int rc = core_moves(pos, mv, cap, &count);
    if (rc != 0 || out_reserve(count * CORE_NOTATION_MAX) == NULL) {
        free(mv);
        fail(rc ? rc : TB_E_NOMEM, "cannot list the moves");
        return NULL;
    }
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        char text[CORE_NOTATION_MAX];
        if (core_move_format(pos, &mv[i], text, sizeof text) != 0)
            continue;
        size_t n = strlen(text);
        if (at > 0)
            out[at++] = '\n';
        memcpy(out + at, text, n + 1);
        at += n;
    }
    free(mv);
    return out;
}

/* The legal moves of pos and their texts into new arrays (free both). */
int web__read_move(const Core_Position *pos, const char *text, Core_Move *mv,
                   char canon[CORE_NOTATION_MAX])
{
    /* The terminal's reader (entry_read), its reasons in the page's
     * language; the page's move box lists the moves that fit. */
    char why[CORE_NOTATION_MAX + 200];
    int rc = entry_read(pos, text, canon, CORE_NOTATION_MAX, why, sizeof why);
    if (rc == 0)
        rc = core_move_parse(pos, canon, mv);
    return rc != 0 ? fail(rc, "'%.64s': %s", text, why) : 0;
}

WEB_EXPORT(web_play) int web_play(void *pos, const char *text)
{
    Core_Move mv;
    char canon[CORE_NOTATION_MAX];
    int rc = web__read_move(pos, text, &mv, canon);
    if (rc != 0)
        return rc;
    rc = core_play(pos, &mv);
    if (rc != 0)
        return fail(rc, "'%.64s': %s", text, tb_strerror(rc));
    out_text(canon);
    return 0;
}

/* Room for a game's help: Cyrillic takes two bytes a letter. */
#define HELP_MAX 16384

WEB_EXPORT(web_help) const char *web_help(void *pos)
{
    Core_Move *all = NULL;
    char (*texts)[CORE_NOTATION_MAX] = NULL;
    size_t count = 0;
    int rc = entry_legal(pos, &all, &texts, &count);
    if (rc == 0 && out_reserve(HELP_MAX) != NULL)
        game_help_text_for(core_position_game(pos),
                           (const char (*)[CORE_NOTATION_MAX])texts, count,
                           GAME_HELP_PAGE, out, HELP_MAX);
    free(all);
    free(texts);
    if (rc != 0) {
        fail(rc, "help: %s", tb_strerror(rc));
        return NULL;
    }
    return out;
}

WEB_EXPORT(web_state_hash) const char *web_state_hash(void *pos)
{
    uint8_t h[PROTO_HASH_BYTES];
    char hex[2 * PROTO_HASH_BYTES + 1];
    int rc = proto_state_hash(pos, h);
    if (rc != 0) {
        fail(rc, "state hash: %s", tb_strerror(rc));
        return NULL;
    }
    proto_hex(h, sizeof h, hex);
    return out_text(hex);
}

WEB_EXPORT(web_status) const char *web_status(void *pos)
{
    char text[96];
    Core_Status st = core_status(pos);
    snprintf(text, sizeof text, "%d %u %s %s", core_side_to_move(pos),
             (unsigned)core_ply(pos), core_outcome_name(st.outcome),
             core_reason_name(st.reason));
    return out_text(text);
}

WEB_EXPORT(web_position_text) const char *web_position_text(void *pos)
{
    if (out_reserve(CORE_POSITION_TEXT_MAX) == NULL)
        return NULL;
    int rc = core_position_format(pos, out, CORE_POSITION_TEXT_MAX);
    if (rc != 0) {
        fail(rc, "position text: %s", tb_strerror(rc));
        return NULL;
    }
    return out;
}

WEB_EXPORT(web_perft) int web_perft(void *pos, unsigned depth, uint64_t *nodes)
{
    int rc = core_perft(pos, depth, nodes);
    return rc != 0 ? fail(rc, "perft %u: %s", depth, tb_strerror(rc)) : 0;
}

/* The game a verified transcript holds, for the page to show: "game\t
 * NAME\tOPTIONS" (the game's options, without the match's clock), then
 * one "move\tNOTATION" line per move on the board, replayed from the
 * match start. */
int web__transcript_text(const Proto_Transcript *t)
{
    const Proto_Message *start = proto_transcript_start(t);
    const Core_Game *g = core_game_find(start->body.start.game);
    /* The game's own options: a clock ("clock=300+3") is the match's. */
    const char *options = proto_transcript_game_options(t);
    Core_Position *pos = NULL;
    size_t at = 0;
    int rc = g == NULL ? TB_E_FORMAT : core_position_new(&pos, g, options);
    rc = rc ? rc : out_put(&at, "game\t", 0);
    rc = rc ? rc : out_put(&at, start->body.start.game, 1);
    rc = rc ? rc : out_put(&at, "\t", 0);
    rc = rc ? rc : out_put(&at, options, 1);
    for (size_t i = 0; rc == 0 && i < proto_transcript_moves(t); i++) {
        char text[CORE_NOTATION_MAX];
        const Core_Move *mv = proto_transcript_move_at(t, i);
        rc = core_move_format(pos, mv, text, sizeof text);
        rc = rc ? rc : core_play(pos, mv);
        rc = rc ? rc : out_put(&at, "\nmove\t", 0);
        rc = rc ? rc : out_put(&at, text, 1);
    }
    /* The result as `tabula replay` prints it: a resignation, agreement
     * or flag fall too, which the board alone does not show. */
    Core_Status st = proto_transcript_status(t);
    rc = rc ? rc : out_put(&at, "\nresult\t", 0);
    rc = rc ? rc : out_put(&at, core_outcome_name(st.outcome), 1);
    rc = rc ? rc : out_put(&at, "\t", 0);
    rc = rc ? rc : out_put(&at, st.outcome == CORE_ONGOING ? "unfinished"
                                : core_reason_name(st.reason), 1);
    core_position_free(pos);
    return rc;
}

WEB_EXPORT(web_log_verify) int web_log_verify(const uint8_t *buf, size_t len)
{
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    int rc = proto_log_verify(buf, len, NULL, NULL, NULL, &t, &rep);
    char hex[2 * PROTO_HASH_BYTES + 1] = "-";
    size_t plies = 0;
    if (out_reserve(0) != NULL)
        out[0] = '\0';
    if (t != NULL) {
        uint8_t h[PROTO_HASH_BYTES];
        if (proto_state_hash(proto_transcript_position(t), h) == 0)
            proto_hex(h, sizeof h, hex);
        plies = proto_transcript_moves(t);
        web__transcript_text(t);
        proto_transcript_free(t);
    }
    if (rc == 0 || (rep.torn && rc == TB_E_TRUNCATED)) {
        fail(rc, "%s %u %zu %s", rc == 0 ? "ok" : "torn",
             (unsigned)rep.envelopes, plies, hex);
        return rc;
    }
    return fail(rc, "failed %u %u %s", (unsigned)rep.frame,
                (unsigned)rep.ply, rep.why[0] ? rep.why : tb_strerror(rc));
}

WEB_EXPORT(web_out) const char *web_out(void) { return out ? out : ""; }

static size_t out_bytes_len;

WEB_EXPORT(web_out_len) size_t web_out_len(void) { return out_bytes_len; }

const uint8_t *web__out_bytes(const uint8_t *p, size_t n)
{
    if (out_reserve(n) == NULL)
        return NULL;
    memcpy(out, p, n);
    out[n] = '\0';
    out_bytes_len = n;
    return (const uint8_t *)out;
}

int web__out_text(const char *text)
{
    return out_text(text) == NULL ? TB_E_NOMEM : 0;
}

int web__fail(int code, const char *what)
{
    return fail(code, "%s", what);
}

/* Append text to the output buffer at *at, tabs and line ends made
 * spaces; 0, or TB_E_NOMEM. */
static int out_put(size_t *at, const char *text, int clean)
{
    size_t n = strlen(text);
    if (out_reserve(*at + n) == NULL)
        return TB_E_NOMEM;
    for (size_t i = 0; i < n; i++) {
        char ch = text[i];
        out[*at + i] = clean && (ch == '\t' || ch == '\n' || ch == '\r')
                           ? ' '
                           : ch;
    }
    *at += n;
    out[*at] = '\0';
    return 0;
}

WEB_EXPORT(web_view) const char *web_view(void *pos)
{
    Core_View v;
    char num[48];
    size_t at = 0;
    int rc = core_view(pos, &v);
    if (rc != 0) {
        fail(rc, "view: %s", tb_strerror(rc));
        return NULL;
    }
    snprintf(num, sizeof num, "%d %d\nstatus\t", v.rows, v.cols);
    rc = out_put(&at, num, 0);
    /* The status line and the cells' descriptions in the page's language
     * (the catalogue handed in), as the terminal shows them. */
    char text[1024];
    rc = rc ? rc
            : out_put(&at,
                      cli_core_said(v.status, v.said, v.nsaid, text,
                                    sizeof text),
                      1);
    rc = rc ? rc : out_put(&at, "\nrows", 0);
    for (int r = 0; rc == 0 && r < v.rows; r++) {
        rc = out_put(&at, "\t", 0);
        rc = rc ? rc : out_put(&at, v.row_label[r], 1);
    }
    rc = rc ? rc : out_put(&at, "\ncols", 0);
    for (int c = 0; rc == 0 && c < v.cols; c++) {
        rc = out_put(&at, "\t", 0);
        rc = rc ? rc : out_put(&at, v.col_label[c], 1);
    }
    for (int r = 0; rc == 0 && r < v.rows; r++)
        for (int c = 0; rc == 0 && c < v.cols; c++) {
            const Core_Cell *cell = &v.cell[r][c];
            snprintf(num, sizeof num, "\n%d\t%d\t", cell->kind, cell->owner);
            rc = out_put(&at, num, 0);
            rc = rc ? rc : out_put(&at, cell->name, 1);
            rc = rc ? rc : out_put(&at, "\t", 0);
            rc = rc ? rc : out_put(&at, cell->glyph, 1);
            rc = rc ? rc : out_put(&at, "\t", 0);
            rc = rc ? rc
                    : out_put(&at,
                              cli_core_said(cell->detail, cell->said,
                                            cell->nsaid, text, sizeof text),
                              1);
            rc = rc ? rc : out_put(&at, "\t", 0);
            rc = rc ? rc
                    : out_put(&at, cli_piece_token(cli_cell_piece(cell)), 0);
        }
    if (rc != 0) {
        fail(rc, "view: %s", tb_strerror(rc));
        return NULL;
    }
    return out;
}

WEB_EXPORT(web_move_squares) const char *web_move_squares(void *pos)
{
    static char names[CORE_VIEW_MAX_ROWS * CORE_VIEW_MAX_COLS][8];
    size_t nnames = 0, cap = core_game_max_moves(core_position_game(pos));
    size_t count = 0, at = 0;
    Core_View v;
    if (core_view(pos, &v) == 0)
        for (int r = 0; r < v.rows; r++)
            for (int c = 0; c < v.cols; c++)
                if (v.cell[r][c].name[0] != '\0') {
                    memcpy(names[nnames], v.cell[r][c].name, 8);
                    names[nnames++][7] = '\0';
                }
    Core_Move *mv = malloc(cap * sizeof *mv);
    int rc = mv == NULL ? TB_E_NOMEM : core_moves(pos, mv, cap, &count);
    if (rc == 0)
        rc = out_put(&at, "", 0);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        char text[CORE_NOTATION_MAX];
        int tokens[SESSION_MAX_TOKENS];
        if (core_move_format(pos, &mv[i], text, sizeof text) != 0)
            continue;
        size_t nt = session_tokens(text, (const char (*)[8])names, nnames,
                                   tokens, SESSION_MAX_TOKENS);
        rc = out_put(&at, i ? "\n" : "", 0);
        rc = rc ? rc : out_put(&at, text, 1);
        rc = rc ? rc : out_put(&at, "\t", 0);
        for (size_t k = 0; rc == 0 && k < nt; k++) {
            rc = out_put(&at, k ? " " : "", 0);
            rc = rc ? rc : out_put(&at, names[tokens[k]], 1);
        }
    }
    free(mv);
    if (rc != 0) {
        fail(rc, "move squares: %s", tb_strerror(rc));
        return NULL;
    }
    return out;
}

WEB_EXPORT(web_bot_move)
const char *web_bot_move(void *pos, int level, uint32_t seed)
{
    Core_Move mv;
    char text[CORE_NOTATION_MAX];
    int rc = bot_choose(pos, level, seed, &mv, NULL);
    if (rc == 0)
        rc = core_move_format(pos, &mv, text, sizeof text);
    if (rc != 0) {
        fail(rc, "bot: %s", tb_strerror(rc));
        return NULL;
    }
    return out_text(text);
}

WEB_EXPORT(web_bot_levels) const char *web_bot_levels(void)
{
    char text[32];
    snprintf(text, sizeof text, "%d %d %d", BOT_LEVEL_MIN, BOT_LEVEL_MAX,
             BOT_LEVEL_PLAY);
    return out_text(text);
}

WEB_EXPORT(web_ball) const char *web_ball(void)
{
    static Ball ball;
    size_t at = 0;
    int rc = 0;
    ball_build(&ball);
    for (int f = 0; rc == 0 && f < BALL_FACES; f++) {
        const Ball_Face *face = &ball.face[f];
        char num[64];
        snprintf(num, sizeof num, "%s%s %d %d", f ? "\n" : "", face->name,
                 face->pentagon, face->nvert);
        rc = out_put(&at, num, 0);
        for (int k = 0; rc == 0 && k < face->nvert; k++) {
            snprintf(num, sizeof num, " %.6f %.6f %.6f", face->vert[k][0],
                     face->vert[k][1], face->vert[k][2]);
            rc = out_put(&at, num, 0);
        }
    }
    if (rc != 0) {
        fail(rc, "ball: %s", tb_strerror(rc));
        return NULL;
    }
    return out;
}
