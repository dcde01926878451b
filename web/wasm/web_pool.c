/*
 * web_pool.c: the pool for the page (web_pool.h): the offer made and the
 * pairing read by the seat layer's pool policy (seat/pool.c, which
 * `tabula pool` runs too) over lobby/pool_wire.c's bytes, and the paired
 * game's seat made as web_match.c makes a host's or a guest's. Nothing
 * here touches a socket: the page carries the bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "seat.h"
#include "tb_error.h"
#include "web_api.h"
#include "web_internal.h"
#include "web_match.h"
#include "web_pool.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

struct Web_Pool {
    Seat_Pool_Offer offer;
    int paired;
    Lobby_Paired pd;
    Seat_Pool_Game game;
};

/* The games named in text ("laska,chessball") as a mask; why names the
 * one that is no game or is named twice. */
static int games_read(const char *text, uint16_t *mask, char *why, size_t cap)
{
    char buf[256];
    size_t n = text != NULL ? strlen(text) : 0;

    *mask = 0;
    if (n == 0 || n >= sizeof buf) {
        snprintf(why, cap, "no game offered");
        return TB_E_ARG;
    }
    memcpy(buf, text, n + 1);
    for (char *p = buf, *end; p != NULL; p = end) {
        if ((end = strchr(p, ',')) != NULL)
            *end++ = '\0';
        const Core_Game *g = core_game_find(p);
        unsigned b = g != NULL ? seat_pool_bit(g) : LOBBY_POOL_GAMES;
        if (b >= LOBBY_POOL_GAMES || (*mask & (1u << b)) != 0) {
            snprintf(why, cap, "no game '%.40s'", p);
            return TB_E_ARG;
        }
        *mask = (uint16_t)(*mask | 1u << b);
    }
    return 0;
}

/* Match options as every game offered takes them (the clock apart). */
static int options_ok(uint16_t mask, const char *options)
{
    for (size_t i = 0; i < core_game_count() && i < LOBBY_POOL_GAMES; i++) {
        Core_Position *probe = NULL;
        if ((mask & (1u << i)) == 0)
            continue;
        int rc = core_position_new(&probe, core_game_at(i), options);
        core_position_free(probe);
        if (rc != 0)
            return rc;
    }
    return 0;
}

WEB_EXPORT(web_pool_new)
Web_Pool *web_pool_new(const char *games, const char *range,
                       const char *options, const char *id_key,
                       const char *rating)
{
    Seat_Pool_Rated rated = {0, 0, 0};
    Proto_Clock lo, hi;
    Proto_Identity me;
    uint16_t mask = 0;
    char why[200] = "";
    int rc, has_id = id_key != NULL && id_key[0] != '\0';
    Web_Pool *p;

    memset(&lo, 0, sizeof lo);
    memset(&hi, 0, sizeof hi);
    memset(&me, 0, sizeof me);
    if (options == NULL)
        options = "";
    rc = games_read(games, &mask, why, sizeof why);
    /* (the range by the one grammar, refused in the terminal's words) */
    if (rc == 0 && range != NULL && range[0] != '\0' &&
        proto_clock_range_parse(range, 1, &lo, &hi, NULL) != 0) {
        snprintf(why, sizeof why, _(seat_clock_range_bad(range)), range);
        rc = TB_E_OPTION;
    }
    if (rc == 0 && strstr(options, "clock=") != NULL) {
        snprintf(why, sizeof why, "%s", _(seat_clock_twice()));
        rc = TB_E_FORMAT;
    }
    if (rc == 0 && (strlen(options) > PROTO_OPTIONS_MAX ||
                    options_ok(mask, options) != 0)) {
        snprintf(why, sizeof why, "bad options '%.60s'", options);
        rc = TB_E_FORMAT;
    }
    /* a rated offer (the terminal's --rating): played under the page's
     * own key, the one its rating is (docs/pool.md "Rated offers") */
    if (rc == 0 && rating != NULL && rating[0] != '\0' &&
        (seat_rating_range(rating, &rated.want_lo, &rated.want_hi) != 0 ||
         !has_id)) {
        snprintf(why, sizeof why, _(seat_rating_range_bad()), rating);
        rc = TB_E_OPTION;
    }
    rated.me = rated.want_hi != 0;
    if (rc == 0 && has_id && web__key_read(id_key, &me) != 0) {
        snprintf(why, sizeof why, "the stored identity key is damaged");
        rc = TB_E_FORMAT;
    }
    if (rc != 0) {
        web__fail(rc, why);
        return NULL;
    }
    if ((p = calloc(1, sizeof *p)) == NULL) {
        proto_identity_wipe(&me);
        web__fail(TB_E_NOMEM, "out of memory");
        return NULL;
    }
    rc = seat_pool_offer(&p->offer, has_id ? &me : NULL, mask, &lo, &hi,
                         options, &rated);
    proto_identity_wipe(&me);
    if (rc != 0) {
        web__fail(rc, tb_strerror(rc));
        free(p);
        return NULL;
    }
    return p;
}

WEB_EXPORT(web_pool_hello) const uint8_t *web_pool_hello(Web_Pool *p)
{
    return web__out_bytes(p->offer.msg, p->offer.len);
}

/* "wait\tGAME\tN...": the counts of the games p offered. */
static const char *wait_text(const Web_Pool *p, const uint32_t *counts)
{
    char text[64 + LOBBY_POOL_GAMES * 48];
    size_t n = 0;
    int k = snprintf(text, sizeof text, "wait");
    n = k > 0 ? (size_t)k : 0;
    for (size_t i = 0; i < core_game_count() && i < LOBBY_POOL_GAMES; i++) {
        if ((p->offer.games & (1u << i)) == 0)
            continue;
        k = snprintf(text + n, sizeof text - n, "\t%s\t%u",
                     core_game_name(core_game_at(i)), (unsigned)counts[i]);
        if (k > 0 && (size_t)k < sizeof text - n)
            n += (size_t)k;
    }
    return web__out_text(text) == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_pool_input)
const char *web_pool_input(Web_Pool *p, const uint8_t *msg, size_t len)
{
    uint32_t counts[LOBBY_POOL_GAMES];
    char text[64 + PROTO_OPTIONS_MAX + PROTO_CLOCK_TEXT_MAX];
    int rc;

    if (p == NULL || msg == NULL || len == 0) {
        web__fail(TB_E_FORMAT, "not a message of the pool's");
        return NULL;
    }
    if (msg[0] == LOBBY_WIRE_POOL_WAIT_TYPE &&
        lobby_wire_pool_wait_read(msg, len, counts) == 0) {
        seat_pool_taken(&p->offer); /* (a later loss is offered again) */
        return wait_text(p, counts);
    }
    if (msg[0] == LOBBY_WIRE_PAIRED_TYPE && !p->paired) {
        rc = lobby_wire_paired_read(msg, len, &p->pd);
        if (rc == 0)
            rc = seat_pool_paired(&p->pd, p->offer.games, &p->game);
        if (rc != 0) {
            web__fail(TB_E_FORMAT, _("the lobby paired the offer for a "
                                     "game it did not offer"));
            return NULL;
        }
        p->paired = 1;
        snprintf(text, sizeof text, "paired\t%d\t%s\t%s\t%s",
                 p->pd.role == LOBBY_ROLE_HOST ? 0 : 1,
                 core_game_name(p->game.game), p->game.clock, p->game.options);
        return web__out_text(text) == 0 ? web_out() : NULL;
    }
    rc = lobby_wire_error_read(msg, len);
    if (rc == TB_E_FORMAT || rc == 0) {
        web__fail(TB_E_FORMAT, "not a message of the pool's");
        return NULL;
    }
    /* the lobby refused the offer (past the player's share: its one
     * offer waits already, from another tab or a terminal of its key) */
    web__fail(rc, rc == TB_E_SEEKS
                      ? _("an offer of yours waits on this lobby already (one "
                          "waits at a time)")
                      : _(tb_strerror(rc)));
    return NULL;
}

WEB_EXPORT(web_pool_lost)
uint32_t web_pool_lost(Web_Pool *p, int status, uint32_t now_s)
{
    return p != NULL && !p->paired
               ? seat_pool_lost(&p->offer, status, (uint64_t)now_s * 1000u)
               : 0;
}

WEB_EXPORT(web_pool_key) const char *web_pool_key(Web_Pool *p)
{
    char hex[2 * PROTO_SECRET_BYTES + 1];
    proto_hex(p->offer.seat.sk, PROTO_SECRET_BYTES, hex);
    int rc = web__out_text(hex);
    proto_wipe(hex, sizeof hex);
    return rc == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_pool_seat)
struct Web_Net *web_pool_seat(Web_Pool *p, int bot, uint32_t started)
{
    char hex[2 * PROTO_SECRET_BYTES + 1];
    Web_Paired paired;
    Web_Net *n;

    if (p == NULL || !p->paired) {
        web__fail(TB_E_STATE, "the offer is not paired yet");
        return NULL;
    }
    /* (a host's room under the code its card carried, seating only the
     * guest PAIRED named; a guest joins the host's code) */
    paired.invite = &p->pd.invite;
    paired.guest_pk = p->pd.guest_pk;
    proto_hex(p->offer.seat.sk, PROTO_SECRET_BYTES, hex);
    n = web__net_paired(p->pd.role == LOBBY_ROLE_HOST ? 0 : 1,
                        core_game_name(p->game.game), p->game.options, hex, bot,
                        started, &paired);
    proto_wipe(hex, sizeof hex);
    return n;
}

WEB_EXPORT(web_pool_free) void web_pool_free(Web_Pool *p)
{
    if (p == NULL)
        return;
    seat_pool_offer_wipe(&p->offer);
    proto_wipe(p, sizeof *p);
    free(p);
}
