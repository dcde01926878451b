/*
 * web_seat.c: the seat layer's policies and C's numbers for the page
 * (web_seat.h). Each answer is computed by the code the terminal and the
 * simulator run; nothing is restated here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "game_glance.h"
#include "i18n.h"
#include "match.h"
#include "proto.h"
#include "seat.h"
#include "tb_error.h"
#include "web_api.h"
#include "web_internal.h"
#include "web_match.h"
#include "web_seat.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

WEB_EXPORT(web_clock_options)
const char *web_clock_options(const char *options, const char *clock)
{
    char opts[PROTO_OPTIONS_MAX + 1], why[512];
    int rc = seat_clock_options(
        options, clock != NULL && clock[0] != '\0' ? clock : NULL, opts,
        sizeof opts);
    if (rc == TB_E_OPTION || rc == TB_E_ARG) {
        if (rc == TB_E_ARG)
            snprintf(why, sizeof why, "%s", _(seat_clock_twice()));
        else
            snprintf(why, sizeof why, _(seat_clock_bad(clock)), clock);
        web__fail(rc, why);
        return NULL;
    }
    if (rc != 0) {
        web__fail(rc, tb_strerror(rc));
        return NULL;
    }
    return web__out_text(opts) == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_conduct_line) int web_conduct_line(const char *line)
{
    return match_conduct_line(line);
}

WEB_EXPORT(web_takeback_plies)
uint32_t web_takeback_plies(const char *name, const char *options,
                            const char *moves, unsigned sides)
{
    const Core_Game *game = core_game_find(name);
    Core_Position *start = NULL, *pos = NULL;
    Core_Move *played = NULL;
    size_t n = 0, plies = 0;
    int rc = game == NULL ? TB_E_ARG : core_position_new(&start, game, options);
    if (rc == 0)
        rc = core_position_new(&pos, game, options);
    size_t lines = 1; /* one move a line */
    for (const char *p = moves; *p != '\0'; p++)
        lines += *p == '\n';
    if (rc == 0 && (played = malloc(lines * sizeof *played)) == NULL)
        rc = TB_E_NOMEM;
    for (const char *p = moves; rc == 0 && *p != '\0';) {
        char text[CORE_NOTATION_MAX];
        size_t len = strcspn(p, "\n");
        if (len >= sizeof text) {
            rc = TB_E_NOTATION;
            break;
        }
        memcpy(text, p, len);
        text[len] = '\0';
        p += len + (p[len] == '\n');
        if (len == 0)
            continue;
        rc = core_move_parse(pos, text, &played[n]);
        if (rc == 0)
            rc = core_play(pos, &played[n++]);
        if (rc != 0)
            web__fail(rc, text);
    }
    if (rc == 0)
        plies = match_takeback_plies(start, played, n, sides);
    free(played);
    core_position_free(pos);
    core_position_free(start);
    return (uint32_t)plies;
}

/* The kinds of web_net_poll by name (match.h's Match_Out_Kind, and
 * seat.h's Seat_Out_Kind above WEB_NET_SEAT_KIND); the seat's failures. */
static const struct {
    const char *name;
    int kind;
} net_kinds[] = {
    {"SEND", MATCH_OUT_SEND},
    {"PLY", MATCH_OUT_PLY},
    {"NOTE", MATCH_OUT_NOTE},
    {"WARN", MATCH_OUT_WARN},
    {"THINK", MATCH_OUT_THINK},
    {"DESYNC", MATCH_OUT_DESYNC},
    {"DONE", MATCH_OUT_DONE},
    {"CONNECT", WEB_NET_SEAT_KIND + SEAT_OUT_CONNECT},
    {"CLOSE", WEB_NET_SEAT_KIND + SEAT_OUT_CLOSE},
    {"UP", WEB_NET_SEAT_KIND + SEAT_OUT_UP},
    {"LOST", WEB_NET_SEAT_KIND + SEAT_OUT_LOST},
    {"FAILED", WEB_NET_SEAT_KIND + SEAT_OUT_FAILED},
    {"SEEKED", WEB_NET_SEAT_KIND + SEAT_OUT_SEEKED},
    {"FAIL_ADMISSION", SEAT_FAIL_ADMISSION},
    {"FAIL_ENDED", SEAT_FAIL_ENDED},
    {"FAIL_GAVE_UP", SEAT_FAIL_GAVE_UP},
};

WEB_EXPORT(web_codes) const char *web_codes(void)
{
    char text[8192];
    size_t at = 0;
#define WEB_CODE_LINE(name, value, msg)                                        \
    at += (size_t)snprintf(text + at, at < sizeof text ? sizeof text - at : 0, \
                           "error\t%s\t%d\n", #name, (int)(value));
    TB_ERRNO_MAP(WEB_CODE_LINE)
#undef WEB_CODE_LINE
    for (size_t k = 0; k < sizeof net_kinds / sizeof net_kinds[0]; k++)
        at += (size_t)snprintf(
            text + at, at < sizeof text ? sizeof text - at : 0, "net\t%s\t%d\n",
            net_kinds[k].name, net_kinds[k].kind);
    if (at >= sizeof text) {
        web__fail(TB_E_NOMEM, "web_codes: the table outgrew its buffer");
        return NULL;
    }
    return web__out_text(text) == 0 ? web_out() : NULL;
}

const char *web__glance_text(const Cli_Glance *g, int caught)
{
    static const char *const turns[] = {"waiting", "you", "opponent",
                                        "over"};
    char left[64] = "-", text[512];
    if (g->left_ms >= 0)
        cli_left_text(g->left_ms, 1, left, sizeof left);
    snprintf(text, sizeof text, "%s\t%s\t%s\t%s\t%lld\t%s\t%u\t%s\t%u\t%d",
             turns[g->turn], g->game, g->outcome, g->reason,
             (long long)g->left_ms, left, (unsigned)g->last_ply, g->last,
             (unsigned)g->envelopes, caught);
    return web__out_text(text) == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_glance_log)
const char *web_glance_log(const uint8_t *buf, size_t len, int side,
                           double now)
{
    Cli_Glance g;
    int rc = cli_glance_log(buf, len, side ? CORE_BLACK : CORE_WHITE,
                            now > 0 ? (uint64_t)now : 0, &g);
    if (rc != 0) {
        web__fail(rc, tb_strerror(rc));
        return NULL;
    }
    return web__glance_text(&g, 1);
}
