/*
 * series.c: a series' policy (seat.h, "a series"; issue 38): which game
 * follows which, who hosts it, its invite code, the options its host
 * starts with and its guest holds the host to, when a series stops, and
 * the running score in table points. The terminal (client/series.c) and
 * the page (web/wasm/web_series.c) both drive a series by these, so the
 * two play it by one policy. No I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "seat.h"
#include "tb_error.h"

/* A msgid for the catalogues (scripts/po.sh finds it); translated by the
 * driver that prints it. */
#define N_(s) s

int seat_series_options(const char *options, unsigned games, char *out,
                        size_t cap)
{
    Proto_Series first = {1, games, 0, {0}};
    char token[64];
    if (options == NULL || out == NULL ||
        proto_series_format(&first, token, sizeof token) != 0)
        return TB_E_ARG;
    int n = snprintf(out, cap, "%s%s%s", options, options[0] ? "," : "",
                     token);
    return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
}

void seat_game_end(const Match *m, Seat_Game_End *out)
{
    memset(out, 0, sizeof *out);
    const Proto_Transcript *t = m != NULL ? match_transcript(m) : NULL;
    const Proto_Message *start = t != NULL ? proto_transcript_start(t) : NULL;
    const Match_Result *res = m != NULL ? match_result(m) : NULL;
    if (start == NULL || res == NULL)
        return;
    out->started = 1;
    out->finished = res->finished && !res->desync;
    out->status = proto_transcript_status(t);
    snprintf(out->game, sizeof out->game, "%s", start->body.start.game);
    snprintf(out->options, sizeof out->options, "%s",
             start->body.start.options);
    memcpy(out->white, start->body.start.white, sizeof out->white);
    memcpy(out->black, start->body.start.black, sizeof out->black);
    memcpy(out->match_id, start->match_id, sizeof out->match_id);
    if (out->finished &&
        core_table_points(proto_transcript_position(t), out->status,
                          out->table) != 0)
        out->finished = 0; /* (an end with no table points: none) */
}

/* options without their series token, into out (PROTO_OPTIONS_MAX + 1
 * bytes). */
static void options_without_series(const char *options, char *out)
{
    Proto_Series s;
    size_t n = 0;
    out[0] = '\0';
    while (*options != '\0') {
        size_t len = strcspn(options, ",");
        if (len > 0 && proto_series_token(options, len, &s) == 0 &&
            n + (n > 0) + len <= PROTO_OPTIONS_MAX) {
            if (n > 0)
                out[n++] = ',';
            memcpy(out + n, options, len);
            n += len;
            out[n] = '\0';
        }
        options += len + (options[len] == ',');
    }
}

int seat_series_begin(Seat_Series *s, const uint8_t me[PROTO_KEY_BYTES],
                      const Seat_Game_End *first)
{
    Proto_Series t;
    if (s == NULL || me == NULL || first == NULL)
        return TB_E_ARG;
    memset(s, 0, sizeof *s);
    if (!first->started || proto_options_series(first->options, &t) != 1 ||
        t.game != 1)
        return 0;
    int white = memcmp(me, first->white, PROTO_KEY_BYTES) == 0;
    int black = memcmp(me, first->black, PROTO_KEY_BYTES) == 0;
    const Core_Game *g = core_game_find(first->game);
    if (white == black || g == NULL)
        return 0; /* (not this seat's game, or one of both seats) */
    s->games = t.games;
    s->game = g;
    memcpy(s->id, first->match_id, sizeof s->id);
    memcpy(s->me, me, PROTO_KEY_BYTES);
    memcpy(s->opponent, white ? first->black : first->white, PROTO_KEY_BYTES);
    s->white1 = white;
    options_without_series(first->options, s->options);
    return 1;
}

/* 1 when this seat is White (the host) in game k. */
static int hosts(const Seat_Series *s, unsigned k)
{
    return (k % 2 == 1) == (s->white1 != 0);
}

int seat_series_add(Seat_Series *s, const Seat_Game_End *e)
{
    Proto_Series t;
    unsigned k;
    if (s == NULL || e == NULL || s->games == 0)
        return TB_E_ARG;
    if (s->stop != 0)
        return s->stop;
    k = s->played + 1;
    /* game k of this series between these two keys, colours as its
     * number says; anything else did not end this series' game k */
    int white = hosts(s, k);
    char plain[PROTO_OPTIONS_MAX + 1];
    options_without_series(e->options, plain);
    if (!e->started || !e->finished || strcmp(plain, s->options) != 0 ||
        proto_options_series(e->options, &t) != 1 || t.game != k ||
        t.games != s->games || core_game_find(e->game) != s->game ||
        memcmp(white ? e->white : e->black, s->me, PROTO_KEY_BYTES) != 0 ||
        memcmp(white ? e->black : e->white, s->opponent, PROTO_KEY_BYTES) !=
            0 ||
        (k == 1 ? memcmp(e->match_id, s->id, sizeof s->id)
                : (!t.has_id || memcmp(t.id, s->id, sizeof s->id))) != 0)
        return s->stop = SEAT_SERIES_UNFINISHED;
    s->played = k;
    s->score[0] += e->table[white ? 0 : 1];
    s->score[1] += e->table[white ? 1 : 0];
    if (e->status.outcome == CORE_ABORTED)
        return s->stop = SEAT_SERIES_ABORTED;
    return k < s->games ? SEAT_SERIES_NEXT : (s->stop = SEAT_SERIES_OVER);
}

int seat_series_next(const Seat_Series *s, const Proto_Identity *me,
                     Seat_Series_Game *out)
{
    uint8_t sym[PROTO_SERIES_CODE_BYTES];
    char token[64];
    if (s == NULL || me == NULL || out == NULL || s->games == 0 ||
        memcmp(me->pk, s->me, PROTO_KEY_BYTES) != 0)
        return TB_E_ARG;
    memset(out, 0, sizeof *out);
    if (s->stop != 0 || s->played < 1 || s->played >= s->games)
        return TB_E_STATE;
    unsigned k = s->played + 1;
    Proto_Series next = {k, s->games, 1, {0}};
    memcpy(next.id, s->id, sizeof next.id);
    out->number = k;
    out->host = hosts(s, k);
    out->game = s->game;
    memcpy(out->opponent, s->opponent, PROTO_KEY_BYTES);
    int rc = proto_series_code(me, s->opponent, s->id, k, sym);
    if (rc == 0)
        rc = lobby_code_make(sym, out->host ? me->pk : s->opponent,
                             &out->invite);
    proto_wipe(sym, sizeof sym);
    if (rc == 0)
        rc = proto_series_format(&next, token, sizeof token);
    if (rc != 0)
        return rc;
    int n = snprintf(out->options, sizeof out->options, "%s%s%s", s->options,
                     s->options[0] != '\0' ? "," : "", token);
    return n < 0 || (size_t)n >= sizeof out->options ? TB_E_SPACE : 0;
}

void seat_series_points(unsigned half, char out[SEAT_POINTS_TEXT])
{
    snprintf(out, SEAT_POINTS_TEXT, "%u%s", half / 2, half % 2 ? ".5" : "");
}

const char *seat_series_banner(void)
{
    return N_("Series: game %u of %u; score: you %s - opponent %s");
}

void seat_series_line(char *out, size_t cap, const char *format,
                      unsigned game, unsigned games, const unsigned score[2])
{
    char you[SEAT_POINTS_TEXT], opp[SEAT_POINTS_TEXT];
    seat_series_points(score[0], you);
    seat_series_points(score[1], opp);
    snprintf(out, cap, format, game, games, you, opp);
}

unsigned seat_series_stop_game(const Seat_Series *s)
{
    return s->stop == SEAT_SERIES_UNFINISHED ? s->played + 1 : s->played;
}

const char *seat_series_stop_words(int stop)
{
    switch (stop) {
    case SEAT_SERIES_ABORTED:
        return N_("the series stops: its game %u was aborted");
    case SEAT_SERIES_UNFINISHED:
        return N_("the series stops: its game %u did not end");
    default:
        return N_("the series is over after game %u");
    }
}

/* ---- kept as text (a page's storage) ---- */

int seat_series_text(const Seat_Series *s, char *out, size_t cap)
{
    char id[2 * PROTO_MATCH_ID_BYTES + 1], me[2 * PROTO_KEY_BYTES + 1],
        opp[2 * PROTO_KEY_BYTES + 1];
    if (s == NULL || out == NULL || s->games == 0)
        return TB_E_ARG;
    proto_hex(s->id, sizeof s->id, id);
    proto_hex(s->me, PROTO_KEY_BYTES, me);
    proto_hex(s->opponent, PROTO_KEY_BYTES, opp);
    int n = snprintf(out, cap, "series1 %s %u %u %d %u %u %d %s %s %s %s",
                     core_game_name(s->game), s->games, s->played, s->white1,
                     s->score[0], s->score[1], s->stop, id, me, opp,
                     s->options[0] != '\0' ? s->options : "-");
    return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
}

/* A whole decimal number of at most max from word w, or -1. */
static long number(const char *w, long max)
{
    char *end;
    if (w == NULL || *w < '0' || *w > '9' || strlen(w) > 6)
        return -1;
    long v = strtol(w, &end, 10);
    return *end == '\0' && v <= max ? v : -1;
}

int seat_series_read(const char *text, Seat_Series *s)
{
    char buf[SEAT_SERIES_TEXT_MAX], *w[12];
    size_t nw = 0, len;
    Proto_Series t;
    Proto_Clock clock;
    char rest[PROTO_OPTIONS_MAX + 1];
    if (text == NULL || s == NULL)
        return TB_E_ARG;
    memset(s, 0, sizeof *s);
    if ((len = strlen(text)) >= sizeof buf)
        return TB_E_FORMAT;
    memcpy(buf, text, len + 1);
    /* words split by single spaces */
    w[nw++] = buf;
    for (char *p = buf; *p != '\0'; p++)
        if (*p == ' ') {
            if (nw == 12)
                return TB_E_FORMAT;
            *p = '\0';
            w[nw++] = p + 1;
        }
    if (nw != 12 || strcmp(w[0], "series1") != 0)
        return TB_E_FORMAT;
    long games = number(w[2], PROTO_SERIES_MAX), played = number(w[3], 99),
         white1 = number(w[4], 1), s0 = number(w[5], 6 * PROTO_SERIES_MAX),
         s1 = number(w[6], 6 * PROTO_SERIES_MAX),
         stop = number(w[7], SEAT_SERIES_UNFINISHED);
    s->game = core_game_find(w[1]);
    if (s->game == NULL || games < 2 || played < 1 || played > games ||
        white1 < 0 || s0 < 0 || s1 < 0 || stop < 0 || stop == 1 ||
        proto_unhex(w[8], strlen(w[8]), s->id, sizeof s->id) != 0 ||
        proto_unhex(w[9], strlen(w[9]), s->me, PROTO_KEY_BYTES) != 0 ||
        proto_unhex(w[10], strlen(w[10]), s->opponent, PROTO_KEY_BYTES) !=
            0 ||
        strlen(w[11]) > PROTO_OPTIONS_MAX ||
        (strcmp(w[11], "-") != 0 &&
         (proto_options_series(w[11], &t) != 0 ||
          proto_clock_split(w[11], &clock, rest, sizeof rest) != 0))) {
        memset(s, 0, sizeof *s);
        return TB_E_FORMAT;
    }
    s->games = (unsigned)games;
    s->played = (unsigned)played;
    s->white1 = (int)white1;
    s->score[0] = (unsigned)s0;
    s->score[1] = (unsigned)s1;
    s->stop = (int)stop;
    if (strcmp(w[11], "-") != 0)
        memcpy(s->options, w[11], strlen(w[11]) + 1);
    return 0;
}
