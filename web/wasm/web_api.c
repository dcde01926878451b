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

#include "core.h"
#include "proto.h"
#include "web_api.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

static char *out;
static size_t out_cap;
static int last_error;
static char last_why[256];

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

WEB_EXPORT(web_play) int web_play(void *pos, const char *text)
{
    Core_Move mv;
    int rc = core_move_parse(pos, text, &mv);
    if (rc == 0)
        rc = core_play(pos, &mv);
    if (rc != 0)
        return fail(rc, "'%.64s': %s", text, tb_strerror(rc));
    return 0;
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

WEB_EXPORT(web_log_verify) int web_log_verify(const uint8_t *buf, size_t len)
{
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    int rc = proto_log_verify(buf, len, NULL, NULL, NULL, &t, &rep);
    char hex[2 * PROTO_HASH_BYTES + 1] = "-";
    size_t plies = 0;
    if (t != NULL) {
        uint8_t h[PROTO_HASH_BYTES];
        if (proto_state_hash(proto_transcript_position(t), h) == 0)
            proto_hex(h, sizeof h, hex);
        plies = proto_transcript_moves(t);
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
