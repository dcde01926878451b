/*
 * web_match.c: the page's driver of a network game seat (web_match.h),
 * the browser's counterpart of client/netgame.c: both drive one seat of
 * the seat layer (seat/seat.h: the match session, the lobby's messages,
 * when to connect, retry and give up). This file keeps the match log in
 * memory for the download and the resume point for a reload; the page's
 * JavaScript only carries bytes between a WebSocket and these exports,
 * opens and closes it when the seat says, passes the time (ms) and calls
 * web_net_tick at the deadline, hands a bot move from its Web Worker
 * back, and draws what web_net_poll reports. Nothing here touches a
 * clock or a socket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice.h"
#include "i18n.h"
#include "seat.h"
#include "tb_error.h"
#include "web_api.h"
#include "web_internal.h"
#include "web_match.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

struct Web_Net {
    Match_Role role;
    Seat *st;
    Match *m;       /* the seat's session */
    Proto_Log *log; /* the match log, in memory */
    Lobby_Code invite, watch;
    uint8_t seat_secret[LOBBY_SEAT_SECRET_BYTES];
    uint64_t seq;      /* the resume point (MATCH_OUT_SEQ): lobby number */
    uint32_t numbered; /* and the envelopes the room has numbered */
    int answer;        /* the last output polled: a note that answers a line */
};

/* A seat taken back after a reload (web_net_resume): what web_net_seat
 * gave. */
typedef struct Web_Seat {
    uint8_t secret[LOBBY_SEAT_SECRET_BYTES];
    Lobby_Code invite, watch; /* zero when unknown */
    uint64_t seq;
    uint32_t numbered;
} Web_Seat;

/* The key pair of its secret key in hex (as web_key_new gives it); the
 * public half is derived again, so a damaged stored key is refused. */
int web__key_read(const char *hex, Proto_Identity *id)
{
    uint8_t sk[PROTO_SECRET_BYTES];
    int rc = proto_unhex(hex, hex ? strlen(hex) : 0, sk, sizeof sk);
    if (rc == 0)
        rc = proto_identity_from_seed(id, sk);
    if (rc == 0 && !proto_equal(id->sk, sk, PROTO_SECRET_BYTES))
        rc = TB_E_FORMAT;
    proto_wipe(sk, sizeof sk);
    return rc;
}

WEB_EXPORT(web_key_new) const char *web_key_new(void)
{
    Proto_Identity id;
    char hex[2 * PROTO_SECRET_BYTES + 1];
    if (proto_identity_generate(&id) != 0) {
        web__fail(TB_E_CRYPTO, "no random bytes for a key");
        return NULL;
    }
    proto_hex(id.sk, PROTO_SECRET_BYTES, hex);
    proto_identity_wipe(&id);
    int rc = web__out_text(hex);
    proto_wipe(hex, sizeof hex);
    return rc == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_key_public) const char *web_key_public(const char *key)
{
    Proto_Identity id;
    char hex[2 * PROTO_KEY_BYTES + 1];
    if (web__key_read(key, &id) != 0) {
        web__fail(TB_E_FORMAT, "not a key made by web_key_new");
        return NULL;
    }
    proto_hex(id.pk, PROTO_KEY_BYTES, hex);
    proto_identity_wipe(&id);
    return web__out_text(hex) == 0 ? web_out() : NULL;
}

/* Refuse a host's game and options before a room exists, as `tabula
 * host` does: the joiner would otherwise wait for a match that never
 * starts. */
static int options_check(const Core_Game *g, const char *options)
{
    Proto_Clock clk;
    char game_opts[PROTO_OPTIONS_MAX + 1];
    Core_Position *probe = NULL;
    int rc = strlen(options) > PROTO_OPTIONS_MAX ? TB_E_FORMAT : 0;
    if (rc == 0)
        rc = proto_clock_split(options, &clk, game_opts, sizeof game_opts);
    if (rc == 0)
        rc = core_position_new(&probe, g, game_opts);
    core_position_free(probe);
    return rc;
}

/* The seat's codes (a resumed seat's from back, a pool host's invite
 * code from paired, else new) into n and sc; why on failure. */
static int seat_codes(Web_Net *n, const Proto_Identity *id, const char *code,
                      const Web_Seat *back, const Web_Paired *paired,
                      Seat_Config *sc, char *why, size_t cap)
{
    int rc = 0;
    if (back != NULL) {
        memcpy(n->seat_secret, back->secret, sizeof n->seat_secret);
        n->invite = back->invite;
        n->watch = back->watch;
    } else {
        rc = lobby_random(n->seat_secret, LOBBY_SEAT_SECRET_BYTES);
    }
    if (rc == 0 && back == NULL && n->role == MATCH_ROLE_HOST) {
        /* (a pool's host: the code its card carried, which PAIRED gave
         * its guest) */
        if (paired != NULL)
            n->invite = *paired->invite;
        else
            rc = lobby_code_new(id->pk, &n->invite);
        if (rc == 0)
            rc = lobby_code_new(id->pk, &n->watch);
    } else if (rc == 0 && back == NULL) {
        Lobby_Code *c = n->role == MATCH_ROLE_GUEST ? &n->invite : &n->watch;
        if (code == NULL || lobby_code_parse(code, c) != 0) {
            char shown[44];
            /* (the terminal's words, in the page's language) */
            snprintf(shown, sizeof shown, "%.40s", code ? code : "");
            snprintf(why, cap, _("'%s' is not a code (16 symbols of %s)"),
                     shown, LOBBY_CODE_ALPHABET);
            return TB_E_CODE;
        }
    }
    memcpy(sc->seat_secret, n->seat_secret, LOBBY_SEAT_SECRET_BYTES);
    sc->invite = n->invite;
    sc->watch = n->watch;
    if (rc != 0)
        snprintf(why, cap, "%s", tb_strerror(rc));
    return rc;
}

/* A Unix time in ms from the page (its storage can hold anything): NaN,
 * negatives and what exceeds 2^53 are 0. */
static uint64_t wall_ms(double v)
{
    return v > 0 && v < 9007199254740992.0 ? (uint64_t)v : 0;
}

/* What a seeking host's card is made of (web_net_seek): the player's
 * identity key (hex, as web_key_new gives it), display name ("" none)
 * and the wall time (Unix ms) its name record is signed at. */
typedef struct Web_Seek_Ask {
    const char *key;
    const char *name;
    uint64_t wall;
} Web_Seek_Ask;

/* The seek card of the room n hosts as sc says (web_net_seek's card),
 * into sc->seek; why on failure. */
static int seek_card(const Web_Net *n, Seat_Config *sc, const char *game,
                     const Web_Seek_Ask *ask, char *why, size_t cap)
{
    uint8_t rec[PROTO_NAME_RECORD_MAX];
    size_t rec_len = 0;
    Proto_Identity me;
    int rc = 0, named = ask->name != NULL && ask->name[0] != '\0';

    memset(&me, 0, sizeof me);
    if (named) {
        if (web__key_read(ask->key, &me) != 0) {
            snprintf(why, cap, "the stored identity key is damaged");
            return TB_E_FORMAT;
        }
        rc = proto_name_sign(&me, ask->name, ask->wall, rec, sizeof rec,
                             &rec_len);
    }
    /* (the player's key binds its name to this seek too) */
    if (rc == 0)
        rc = lobby_seek_card(&sc->match.id, &n->invite, game,
                             sc->match.options, rec, rec_len,
                             named ? &me : NULL, sc->seek, &sc->seek_len);
    proto_identity_wipe(&me);
    if (rc != 0)
        snprintf(why, cap, "no seek card: %s", tb_strerror(rc));
    return rc;
}


/* A seat of role (web_net_new's arguments), new, or taken back from
 * back, seeking as seek says (NULL: no seek; a host only), holding its
 * host to expect (NULL: any game; a guest only); NULL with web_last_why
 * on error. */
static Web_Net *net_make(int role, const char *game, const char *options,
                         const char *code, const char *key, int bot,
                         uint32_t started, const Web_Seat *back,
                         const Web_Seek_Ask *seek, const Web_Expect *expect,
                         const Web_Paired *paired)
{
    Web_Net *n = NULL;
    Seat_Config sc;
    Match_Config *mc = &sc.match;
    const Core_Game *g = NULL;
    char why[200] = "";
    int rc = 0;

    memset(&sc, 0, sizeof sc);
    if (role < MATCH_ROLE_HOST || role > MATCH_ROLE_SPECTATOR) {
        web__fail(TB_E_ARG, "role must be 0 (host), 1 (guest) or 2");
        return NULL;
    }
    if (options == NULL)
        options = "";
    if (role == MATCH_ROLE_HOST) {
        g = game != NULL ? core_game_find(game) : NULL;
        rc = g == NULL ? TB_E_ARG : options_check(g, options);
        if (rc != 0) {
            snprintf(why, sizeof why, "%s '%.40s'%s%.60s: %s",
                     g == NULL ? "no game" : "bad options for",
                     g == NULL ? (game ? game : "") : core_game_name(g),
                     g == NULL ? "" : " ", g == NULL ? "" : options,
                     tb_strerror(rc));
            web__fail(rc, why);
            return NULL;
        }
    }
    if ((n = calloc(1, sizeof *n)) == NULL) {
        web__fail(TB_E_NOMEM, "out of memory");
        return NULL;
    }
    n->role = (Match_Role)role;
    mc->role = n->role;
    mc->game = g;
    mc->options = options;
    mc->started = started;
    mc->bot = role != MATCH_ROLE_SPECTATOR && bot != 0;
    if (expect != NULL && role == MATCH_ROLE_GUEST) {
        mc->expect_game = core_game_find(expect->game ? expect->game : "");
        mc->expect_options = expect->options ? expect->options : "";
        if (mc->expect_game == NULL) {
            snprintf(why, sizeof why, "the seek's game is not known here");
            rc = TB_E_ARG;
        }
    }
    sc.nodes = 1; /* the lobby that served the page */
    /* (a pool's guest may come before its host's room: a wrong code then
     * is a refusal that passes, as for the terminal's) */
    sc.admitted = back != NULL || (paired != NULL && role == MATCH_ROLE_GUEST);
    if (paired != NULL && role == MATCH_ROLE_HOST)
        memcpy(sc.guest_pk, paired->guest_pk, sizeof sc.guest_pk);
    if (rc == 0 && web__key_read(key, &mc->id) != 0) {
        snprintf(why, sizeof why, "the stored key is damaged");
        rc = TB_E_FORMAT;
    }
    if (rc == 0)
        rc = seat_codes(n, &mc->id, code, back, paired, &sc, why, sizeof why);
    if (rc == 0 && back != NULL && role == MATCH_ROLE_HOST &&
        lobby_code_check_host(&n->invite, mc->id.pk) != 0) {
        snprintf(why, sizeof why, "the stored seat is not of this key");
        rc = TB_E_FORMAT;
    }
    if (rc == 0 && role != MATCH_ROLE_SPECTATOR)
        rc = lobby_code_seat_key(&n->invite, mc->seat_key);
    if (rc == 0 && seek != NULL && role == MATCH_ROLE_HOST)
        rc = seek_card(n, &sc, core_game_name(g), seek, why, sizeof why);
    if (rc == 0)
        rc = lobby_random(mc->match_id, sizeof mc->match_id);
    if (rc == 0 && (rc = seat_new(&sc, &n->st)) == 0)
        n->m = seat_match(n->st);
    proto_wipe(&sc, sizeof sc);
    if (rc != 0) {
        web__fail(rc, why[0] ? why : tb_strerror(rc));
        web_net_free(n);
        return NULL;
    }
    return n;
}

WEB_EXPORT(web_net_new)
Web_Net *web_net_new(int role, const char *game, const char *options,
                     const char *code, const char *key, int bot,
                     uint32_t started)
{
    return net_make(role, game, options, code, key, bot, started, NULL,
                    NULL, NULL, NULL);
}

WEB_EXPORT(web_net_take)
Web_Net *web_net_take(const char *code, const char *key, int bot,
                      uint32_t started, const char *game, const char *options)
{
    Web_Expect expect = {game, options};
    return net_make(MATCH_ROLE_GUEST, NULL, NULL, code, key, bot, started,
                    NULL, NULL, &expect, NULL);
}

WEB_EXPORT(web_net_seek)
Web_Net *web_net_seek(const char *game, const char *options, const char *key,
                      int bot, uint32_t started, const char *id_key,
                      const char *name, double wall)
{
    Web_Seek_Ask ask = {id_key, name, wall_ms(wall)};
    return net_make(MATCH_ROLE_HOST, game, options, NULL, key, bot, started,
                    NULL, &ask, NULL, NULL);
}

const Match *web__net_session(const Web_Net *n)
{
    return n != NULL ? n->m : NULL;
}

Web_Net *web__net_paired(int role, const char *game, const char *options,
                         const char *key, int bot, uint32_t started,
                         const Web_Paired *paired)
{
    Web_Expect expect = {game, options};
    if (role == MATCH_ROLE_HOST)
        return net_make(role, game, options, NULL, key, bot, started, NULL,
                        NULL, NULL, paired);
    return net_make(role, NULL, NULL, paired->invite->text, key, bot, started,
                    NULL, NULL, &expect, paired);
}

/* A whole decimal number of the digits [p, end) up to max. */
static int dec_read(const char *p, const char *end, uint64_t max,
                    uint64_t *out)
{
    uint64_t v = 0;
    if (p == end)
        return TB_E_FORMAT;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9' || v > (max - (uint64_t)(*p - '0')) / 10)
            return TB_E_FORMAT;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return 0;
}

/* A code of the seat text ("-": none), [p, end). */
static int code_read(const char *p, const char *end, Lobby_Code *c)
{
    char text[LOBBY_CODE_TEXT + 1];
    size_t len = (size_t)(end - p);
    memset(c, 0, sizeof *c);
    if (len == 1 && *p == '-')
        return 0;
    if (len == 0 || len >= sizeof text)
        return TB_E_FORMAT;
    memcpy(text, p, len);
    text[len] = '\0';
    return lobby_code_parse(text, c) != 0 ? TB_E_FORMAT : 0;
}

/* web_net_seat's text back into *s (stored by the page: hostile). */
static int seat_read(const char *text, Web_Seat *s)
{
    const char *f[6];
    size_t nf = 0;
    uint64_t numbered = 0;
    int rc;
    memset(s, 0, sizeof *s);
    if (text == NULL || strlen(text) > 200)
        return TB_E_FORMAT;
    f[nf++] = text;
    for (const char *p = text; *p != '\0'; p++)
        if (*p == '\t') {
            if (nf == 5)
                return TB_E_FORMAT;
            f[nf++] = p + 1;
        }
    if (nf != 5)
        return TB_E_FORMAT;
    f[5] = text + strlen(text) + 1; /* each field ends one before the next */
    rc = proto_unhex(f[0], (size_t)(f[1] - 1 - f[0]), s->secret,
                  sizeof s->secret);
    if (rc == 0)
        rc = code_read(f[1], f[2] - 1, &s->invite);
    if (rc == 0)
        rc = code_read(f[2], f[3] - 1, &s->watch);
    if (rc == 0)
        rc = dec_read(f[3], f[4] - 1, UINT64_MAX, &s->seq);
    if (rc == 0)
        rc = dec_read(f[4], f[5] - 1, UINT32_MAX, &numbered);
    s->numbered = (uint32_t)numbered;
    return rc;
}

WEB_EXPORT(web_net_resume)
Web_Net *web_net_resume(int role, const char *game, const char *options,
                        const char *key, int bot, uint32_t started,
                        const char *seat, const uint8_t *log, size_t len,
                        const char *id_key, const char *name, double wall)
{
    Web_Seek_Ask ask = {id_key, name, wall_ms(wall)};
    return web__net_resume(role, game, options, key, bot, started, seat, log,
                           len, id_key != NULL && id_key[0] != '\0' ? &ask
                                                                   : NULL,
                           NULL, NULL);
}

Web_Net *web__net_resume(int role, const char *game, const char *options,
                         const char *key, int bot, uint32_t started,
                         const char *seat, const uint8_t *log, size_t len,
                         const struct Web_Seek_Ask *ask,
                         const Web_Expect *expect, const Web_Paired *paired)
{
    Web_Seat back;
    Web_Net *n;
    char why[200] = "";
    int rc;

    if (role != MATCH_ROLE_HOST && role != MATCH_ROLE_GUEST) {
        web__fail(TB_E_ARG, "only a host's or a guest's seat is resumed");
        return NULL;
    }
    if (seat_read(seat, &back) != 0 || back.invite.text[0] == '\0' ||
        (role == MATCH_ROLE_HOST && back.watch.text[0] == '\0')) {
        proto_wipe(&back, sizeof back);
        web__fail(TB_E_FORMAT, "the stored seat is damaged");
        return NULL;
    }
    if (paired != NULL &&
        strcmp(back.invite.text, paired->invite->text) != 0) {
        proto_wipe(&back, sizeof back);
        web__fail(TB_E_FORMAT, "the stored seat is not this game's");
        return NULL;
    }
    n = net_make(role, game, options, back.invite.text, key, bot, started,
                 &back, ask, expect, paired);
    if (n != NULL && len > 0 &&
        (rc = match_resume(n->m, log, len, back.seq, back.numbered, why,
                           sizeof why)) != 0) {
        char line[260];
        snprintf(line, sizeof line, "the stored match log: %s",
                 why[0] ? why : tb_strerror(rc));
        web__fail(rc, line);
        web_net_free(n);
        n = NULL;
    }
    if (n != NULL) {
        n->seq = back.seq;
        n->numbered = back.numbered;
    }
    proto_wipe(&back, sizeof back);
    return n;
}

WEB_EXPORT(web_turn_away) double web_turn_away(double turn_at, double now)
{
    return (double)match_turn_away(wall_ms(turn_at), wall_ms(now));
}

WEB_EXPORT(web_net_resume_turn)
void web_net_resume_turn(Web_Net *n, double turn_at, double now,
                         double clock_now)
{
    match_resume_turn(n->m, wall_ms(clock_now),
                      match_turn_away(wall_ms(turn_at), wall_ms(now)));
}

WEB_EXPORT(web_net_turn) double web_net_turn(const Web_Net *n, double now)
{
    return (double)match_turn_elapsed(n->m, now > 0 ? (uint64_t)now : 0);
}

WEB_EXPORT(web_net_seat) const char *web_net_seat(Web_Net *n)
{
    char secret[2 * LOBBY_SEAT_SECRET_BYTES + 1];
    char text[2 * LOBBY_SEAT_SECRET_BYTES + 2 * LOBBY_CODE_TEXT + 48];
    int rc;
    proto_hex(n->seat_secret, sizeof n->seat_secret, secret);
    snprintf(text, sizeof text, "%s\t%s\t%s\t%llu\t%u", secret,
             n->invite.text[0] ? n->invite.text : "-",
             n->watch.text[0] ? n->watch.text : "-",
             (unsigned long long)n->seq, (unsigned)n->numbered);
    rc = web__out_text(text);
    proto_wipe(secret, sizeof secret);
    proto_wipe(text, sizeof text);
    return rc == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_net_free) void web_net_free(Web_Net *n)
{
    if (n == NULL)
        return;
    seat_free(n->st);
    proto_log_close(n->log);
    free(n);
}

WEB_EXPORT(web_net_codes) const char *web_net_codes(Web_Net *n)
{
    char text[2 * LOBBY_CODE_TEXT + 2];
    snprintf(text, sizeof text, "%s\t%s", n->invite.text, n->watch.text);
    return web__out_text(text) == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_net_hello)
const uint8_t *web_net_hello(Web_Net *n, double now)
{
    uint8_t m[LOBBY_WIRE_HELLO_MAX];
    return web__out_bytes(m, seat_hello(n->st, now > 0 ? (uint64_t)now : 0,
                                        m));
}

WEB_EXPORT(web_net_input)
int web_net_input(Web_Net *n, double now, const uint8_t *msg, size_t len)
{
    int rc = seat_input(n->st, (uint64_t)now, msg, len);
    return rc != 0 ? web__fail(rc, tb_strerror(rc)) : 0;
}

WEB_EXPORT(web_net_closed) void web_net_closed(Web_Net *n, double now)
{
    seat_closed(n->st, (uint64_t)now, 0);
}

WEB_EXPORT(web_net_move)
int web_net_move(Web_Net *n, double now, const char *text)
{
    const Core_Position *pos = proto_transcript_position(match_transcript(n->m));
    Core_Move mv;
    char canon[CORE_NOTATION_MAX];
    int rc = pos == NULL ? web__fail(TB_E_STATE, "the match has not started")
                         : web__read_move(pos, text, &mv, canon);
    if (rc == 0 && (rc = match_command(n->m, (uint64_t)now, canon)) != 0)
        web__fail(rc, tb_strerror(rc));
    return rc;
}

WEB_EXPORT(web_net_command)
int web_net_command(Web_Net *n, double now, const char *line)
{
    return match_command(n->m, (uint64_t)now, line);
}

WEB_EXPORT(web_net_bot_move)
int web_net_bot_move(Web_Net *n, double now, double token, const char *text)
{
    const Core_Position *pos = proto_transcript_position(match_transcript(n->m));
    Core_Move mv;
    char canon[CORE_NOTATION_MAX];
    int rc = pos == NULL ? TB_E_STATE : web__read_move(pos, text, &mv, canon);
    if (rc == 0)
        rc = match_bot_move(n->m, (uint64_t)now, (uint64_t)token, &mv);
    /* A stale answer (the game moved on while the bot thought) is no
     * fault: a newer THINK follows. */
    return rc == TB_E_STATE ? 0 : rc != 0 ? web__fail(rc, tb_strerror(rc)) : 0;
}

WEB_EXPORT(web_net_tick) void web_net_tick(Web_Net *n, double now)
{
    seat_tick(n->st, (uint64_t)now);
}

WEB_EXPORT(web_net_deadline) double web_net_deadline(const Web_Net *n)
{
    uint64_t at = seat_deadline(n->st);
    return at == UINT64_MAX ? -1.0 : (double)at;
}

/* The log as the session asks: rewritten from the held envelopes. */
static void log_open(Web_Net *n, uint32_t count, uint64_t witnessed)
{
    Proto_Log_Header h;
    int rc;
    proto_log_close(n->log);
    n->log = NULL;
    rc = match_log_header(n->m, &h);
    if (rc == 0)
        rc = proto_log_create_memory(&n->log, &h);
    if (rc == 0)
        rc = match_log_fill(n->m, n->log, count, witnessed);
    if (rc != 0) {
        proto_log_close(n->log);
        n->log = NULL;
    }
}

/* Write what o says for the page into the output buffer, or carry it
 * out here (the log); 1 when the page is to see it. */
static int report(Web_Net *n, const Match_Out *o)
{
    char text[MATCH_TEXT_MAX + MATCH_NOTE_ARGS * MATCH_NOTE_ARG_MAX + 96];
    switch (o->kind) {
    case MATCH_OUT_SEND: /* a whole DATA message (seat_poll) */
        return web__out_bytes(o->data, o->len) != NULL;
    case MATCH_OUT_LOG_OPEN:
        log_open(n, o->count, o->seq);
        return 0;
    case MATCH_OUT_LOG:
        if (n->log != NULL)
            proto_log_append_envelope(n->log, o->data, o->len);
        return 0;
    case MATCH_OUT_LOG_END:
        if (n->log != NULL && o->count > 0)
            proto_log_finish(n->log, o->count, o->hash);
        return 0;
    case MATCH_OUT_PLY:
        snprintf(text, sizeof text, "%u\t%d\t%s\t%s", (unsigned)o->ply,
                 o->side, o->text, o->hex);
        break;
    case MATCH_OUT_NOTE:
    case MATCH_OUT_WARN:
        n->answer = o->note.answer != 0;
        /* What the note says, typed: its code, its four arguments and its
         * English line, separated by 0x1f (which neither holds: the
         * session shows control bytes as '?'). The page puts it in its
         * language each time it draws it (web_text WEB_TEXT_NOTE), so a
         * language switch redraws the notes already written. */
        snprintf(text, sizeof text, "%d\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s",
                 o->note.code, o->note.arg[0], o->note.arg[1], o->note.arg[2],
                 o->note.arg[3], o->text);
        break;
    case MATCH_OUT_THINK:
        snprintf(text, sizeof text, "%llu", (unsigned long long)o->seq);
        break;
    case MATCH_OUT_DESYNC:
        snprintf(text, sizeof text, "desync: the game stopped at ply %u",
                 (unsigned)match_result(n->m)->desync_ply);
        break;
    case MATCH_OUT_DONE:
        snprintf(text, sizeof text, "%s", match_result(n->m)->final_hash);
        break;
    case MATCH_OUT_SEQ: /* the resume point, for web_net_seat */
        n->seq = o->seq;
        n->numbered = o->count;
        return 0;
    case MATCH_OUT_REFETCH: /* the seat's SEAT_OUT_CLOSE */
    case MATCH_OUT_RETRACT: /* the session said why in a warning */
    default:
        return 0;
    }
    return web__out_text(text) == 0;
}

/* The seat's own event o for the page (web_match.h); 1 when it is to
 * see it. */
static int report_seat(const Seat_Out *o)
{
    char text[96];
    switch (o->kind) {
    case SEAT_OUT_UP:
        snprintf(text, sizeof text, "%d\t%d\t%d", o->first, o->host_present,
                 o->guest_present);
        break;
    case SEAT_OUT_LOST:
        snprintf(text, sizeof text, "%u\t%u\t%d\t%d\t%d", o->attempt,
                 (unsigned)o->wait_ms, o->first, o->reason, o->before_room);
        break;
    case SEAT_OUT_FAILED:
        snprintf(text, sizeof text, "%d\t%d\t%d", (int)o->failure, o->reason,
                 o->refused);
        break;
    case SEAT_OUT_SEEKED: /* web_seeked_text words it */
        snprintf(text, sizeof text, "%d", o->reason);
        break;
    case SEAT_OUT_CONNECT: /* one node: the lobby that served the page */
    case SEAT_OUT_CLOSE:
        text[0] = '\0';
        break;
    default: /* PRESENCE: web_net_state has it */
        return 0;
    }
    return web__out_text(text) == 0;
}

WEB_EXPORT(web_net_advice)
const char *web_net_advice(Web_Net *n, int failure, int reason, int refused,
                           const char *lobby)
{
    char text[1024];
    /* the code this seat entered with, as the player has it */
    const char *code = n->role == MATCH_ROLE_SPECTATOR && n->invite.text[0] == '\0'
                           ? n->watch.text
                           : n->invite.text;
    advice_page_stopped(text, sizeof text, lobby,
                        code[0] != '\0' ? code : NULL, failure, reason,
                        refused);
    return web__out_text(text) == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_net_poll) int web_net_poll(Web_Net *n)
{
    Seat_Out o;
    n->answer = 0;
    while (seat_poll(n->st, &o)) {
        if (o.kind == SEAT_OUT_MATCH) {
            if (report(n, &o.m))
                return (int)o.m.kind;
        } else if (o.kind == SEAT_OUT_SEND) {
            /* (a SEEK: bytes to send as they are, as a session's SEND) */
            if (web__out_bytes(o.data, o.len) != NULL)
                return MATCH_OUT_SEND;
        } else if (report_seat(&o)) {
            return WEB_NET_SEAT_KIND + (int)o.kind;
        }
    }
    return 0;
}

WEB_EXPORT(web_net_answer) int web_net_answer(const Web_Net *n)
{
    return n->answer;
}

WEB_EXPORT(web_net_state) const char *web_net_state(Web_Net *n, double now)
{
    const Match_Result *r = match_result(n->m);
    const Proto_Transcript *tr = match_transcript(n->m);
    const Core_Position *pos = proto_transcript_position(tr);
    Core_Status st = proto_transcript_status(tr);
    uint64_t t = (uint64_t)now;
    uint32_t tb_plies = 0;
    int tb = match_takeback(n->m, &tb_plies);
    char text[512];
    snprintf(text, sizeof text,
             "side\t%d\nto_move\t%d\nclock\t%lld\t%lld\ndraw\t%d\n"
             "takeback\t%d\t%u\nabsence\t%lld\nstarted\t%d\nfinished\t%d\t%d\n"
             "outcome\t%s\t%s\nfinal\t%s\nmoves\t%u",
             match_side(n->m), pos != NULL ? core_side_to_move(pos) : -1,
             (long long)match_clock_left(n->m, t, CORE_WHITE),
             (long long)match_clock_left(n->m, t, CORE_BLACK),
             match_draw_offer(n->m), tb, (unsigned)tb_plies,
             (long long)match_absence_left(n->m, t),
             pos != NULL,
             r->finished, r->desync, core_outcome_name(st.outcome),
             core_reason_name(st.reason), r->final_hash,
             (unsigned)proto_transcript_moves(tr));
    return web__out_text(text) == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_net_position) const void *web_net_position(Web_Net *n)
{
    if (proto_transcript_start(match_transcript(n->m)) == NULL)
        return NULL;
    return proto_transcript_position(match_transcript(n->m));
}

WEB_EXPORT(web_net_game) const char *web_net_game(Web_Net *n)
{
    if (proto_transcript_start(match_transcript(n->m)) == NULL ||
        web__transcript_text(match_transcript(n->m)) != 0)
        return NULL;
    return web_out();
}

WEB_EXPORT(web_net_log) const uint8_t *web_net_log(Web_Net *n)
{
    size_t len = 0;
    const uint8_t *b = proto_log_bytes(n->log, &len);
    if (b == NULL) {
        web__fail(TB_E_STATE, "no match log yet: the match has not started");
        return NULL;
    }
    return web__out_bytes(b, len);
}

WEB_EXPORT(web_net_glance)
const char *web_net_glance(Web_Net *n, int side, double now)
{
    Cli_Glance g;
    cli_glance(match_transcript(n->m), side ? CORE_BLACK : CORE_WHITE,
               now > 0 ? (uint64_t)now : 0, &g);
    return web__glance_text(&g, seat_caught_up(n->st));
}
