/*
 * web_series.c: a series on the page (web_series.h): the seat layer's
 * series (seat/series.c, which `tabula host --series` runs too) over the
 * page's seats; each next game's seat is made as a pool's paired one
 * (web__net_paired: a host seating only the opponent's key, a guest
 * holding the host to the game and options). No I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "seat.h"
#include "tb_error.h"
#include "web_api.h"
#include "web_internal.h"
#include "web_series.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

struct Web_Series {
    Seat_Series s;
    char key[2 * PROTO_SECRET_BYTES + 1]; /* the series' key (hex) */
};

static const char *text_out(const char *text)
{
    return web__out_text(text) == 0 ? web_out() : NULL;
}

/* A series of ss played under key (hex, checked already), or NULL on
 * TB_E_NOMEM. */
static Web_Series *series_new(const Seat_Series *ss, const char *key)
{
    Web_Series *s = calloc(1, sizeof *s);
    if (s == NULL) {
        web__fail(TB_E_NOMEM, "out of memory");
        return NULL;
    }
    s->s = *ss;
    memcpy(s->key, key, sizeof s->key);
    return s;
}

/* The series' next game (seat_series_next under its key) into *g. */
static int next_game(const Web_Series *s, Seat_Series_Game *g)
{
    Proto_Identity me;
    int rc = web__key_read(s->key, &me);
    if (rc == 0)
        rc = seat_series_next(&s->s, &me, g);
    proto_identity_wipe(&me);
    return rc;
}

WEB_EXPORT(web_series_options)
const char *web_series_options(const char *options, unsigned games)
{
    char out[PROTO_OPTIONS_MAX + 1], why[160];
    if (options == NULL)
        options = "";
    if (games <= 1)
        return text_out(options);
    int rc = seat_series_options(options, games, out, sizeof out);
    if (rc == TB_E_ARG) {
        snprintf(why, sizeof why, _("a series is 2..%d games"),
                 PROTO_SERIES_MAX);
        web__fail(rc, why);
        return NULL;
    }
    if (rc != 0) {
        web__fail(rc, _(tb_strerror(rc)));
        return NULL;
    }
    return text_out(out);
}

WEB_EXPORT(web_series_after)
Web_Series *web_series_after(Web_Series *s, Web_Net *n, const char *key)
{
    Seat_Game_End e;
    Proto_Identity me;
    seat_game_end(web__net_session(n), &e);
    if (s == NULL) {
        if (key == NULL || strlen(key) != 2 * PROTO_SECRET_BYTES ||
            web__key_read(key, &me) != 0) {
            web__fail(TB_E_FORMAT, "not a key made by web_key_new");
            return NULL;
        }
        Seat_Series fresh;
        int begun = seat_series_begin(&fresh, me.pk, &e);
        proto_identity_wipe(&me);
        if (begun != 1) {
            web__fail(0, "not a series' first game");
            return NULL;
        }
        if ((s = series_new(&fresh, key)) == NULL)
            return NULL;
    }
    (void)seat_series_add(&s->s, &e); /* (its stop is s->s.stop) */
    return s;
}

WEB_EXPORT(web_series_state) const char *web_series_state(Web_Series *s)
{
    char text[160 + PROTO_OPTIONS_MAX], you[SEAT_POINTS_TEXT],
        opp[SEAT_POINTS_TEXT];
    Seat_Series_Game g;
    seat_series_points(s->s.score[0], you);
    seat_series_points(s->s.score[1], opp);
    /* the next game's host and options, as seat_series_next makes it */
    memset(&g, 0, sizeof g);
    if (s->s.stop == 0 && next_game(s, &g) != 0)
        memset(&g, 0, sizeof g);
    snprintf(text, sizeof text, "%u\t%u\t%s\t%s\t%d\t%d\t%s", s->s.games,
             s->s.played, you, opp, s->s.stop, g.host, g.options);
    return text_out(text);
}

WEB_EXPORT(web_series_line)
const char *web_series_line(Web_Net *n, Web_Series *s)
{
    char text[200];
    static const unsigned none[2] = {0, 0};
    Seat_Game_End e;
    Proto_Series t;
    seat_game_end(web__net_session(n), &e);
    if (!e.started) {
        /* a series' next game before its start: the series says which
         * (the line stayed blank while a seat waited: a trial) */
        if (s == NULL || s->s.stop != 0)
            return text_out("");
        t.game = s->s.played + 1;
        t.games = s->s.games;
    } else if (proto_options_series(e.options, &t) != 1) {
        return text_out("");
    }
    seat_series_line(text, sizeof text, _(seat_series_banner()),
                     (unsigned)t.game, (unsigned)t.games,
                     s != NULL ? s->s.score : none);
    return text_out(text);
}

WEB_EXPORT(web_series_stop_text)
const char *web_series_stop_text(Web_Series *s)
{
    char text[160];
    snprintf(text, sizeof text, _(seat_series_stop_words(s->s.stop)),
             seat_series_stop_game(&s->s));
    return text_out(text);
}

WEB_EXPORT(web_series_next)
Web_Net *web_series_next(Web_Series *s, int bot, uint32_t started)
{
    Seat_Series_Game g;
    Web_Paired paired;
    int rc = next_game(s, &g);
    if (rc != 0) {
        web__fail(rc, rc == TB_E_STATE ? _(seat_series_stop_words(s->s.stop))
                                       : _(tb_strerror(rc)));
        return NULL;
    }
    paired.invite = &g.invite;
    paired.guest_pk = g.opponent;
    return web__net_paired(g.host ? 0 : 1, core_game_name(g.game), g.options,
                           s->key, bot, started, &paired);
}

WEB_EXPORT(web_series_resume)
Web_Net *web_series_resume(Web_Series *s, int role, int bot, uint32_t started,
                           const char *seat, const uint8_t *log, size_t len)
{
    Seat_Series_Game g;
    Web_Paired paired;
    Web_Expect expect;
    int rc = next_game(s, &g);
    if (rc == 0 && role != (g.host ? 0 : 1))
        rc = TB_E_FORMAT;
    if (rc != 0) {
        web__fail(rc, "the stored seat is not this series' next game");
        return NULL;
    }
    paired.invite = &g.invite;
    paired.guest_pk = g.opponent;
    expect.game = core_game_name(g.game);
    expect.options = g.options;
    return web__net_resume(role, core_game_name(g.game), g.options, s->key,
                           bot, started, seat, log, len, NULL, &expect,
                           &paired);
}

WEB_EXPORT(web_series_text) const char *web_series_text(Web_Series *s)
{
    char text[SEAT_SERIES_TEXT_MAX];
    if (seat_series_text(&s->s, text, sizeof text) != 0) {
        web__fail(TB_E_SPACE, "the series does not fit its text");
        return NULL;
    }
    return text_out(text);
}

WEB_EXPORT(web_series_read)
Web_Series *web_series_read(const char *text, const char *key)
{
    Seat_Series r;
    Proto_Identity me;
    if (seat_series_read(text, &r) != 0 || key == NULL ||
        strlen(key) != 2 * PROTO_SECRET_BYTES ||
        web__key_read(key, &me) != 0) {
        web__fail(TB_E_FORMAT, "not a series this page kept");
        return NULL;
    }
    int mine = memcmp(me.pk, r.me, PROTO_KEY_BYTES) == 0;
    proto_identity_wipe(&me);
    if (!mine) {
        web__fail(TB_E_FORMAT, "not a series this page kept");
        return NULL;
    }
    return series_new(&r, key);
}

WEB_EXPORT(web_series_free) void web_series_free(Web_Series *s)
{
    if (s == NULL)
        return;
    proto_wipe(s, sizeof *s);
    free(s);
}
