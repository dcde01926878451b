/*
 * pool.c: a player's side of the pool (seat.h, "the pool's offer"; issue
 * 37, docs/pool.md): the offer a client sends (a fresh seat key, an
 * invite code bound to it, its seek card and the POOL hello proved by
 * the player's key) and what a PAIRED means for it (the game, the match
 * options with the paired clock, the clock as typed). The terminal's
 * `tabula pool` and the page's pool form both call these, so the two
 * offer and read a pairing by one policy. No I/O.
 */
#include <stdio.h>
#include <string.h>

#include "match.h"
#include "proto.h"
#include "seat.h"
#include "tb_error.h"

unsigned seat_pool_bit(const Core_Game *g)
{
    for (size_t i = 0; i < core_game_count() && i < LOBBY_POOL_GAMES; i++)
        if (core_game_at(i) == g)
            return (unsigned)i;
    return LOBBY_POOL_GAMES;
}

/* The lowest game of mask games, or NULL. */
static const Core_Game *first_game(uint16_t games)
{
    for (size_t i = 0; i < core_game_count() && i < LOBBY_POOL_GAMES; i++)
        if ((games & (1u << i)) != 0)
            return core_game_at(i);
    return NULL;
}

int seat_pool_offer(Seat_Pool_Offer *out, const Proto_Identity *player,
                    uint16_t games, const Proto_Clock *lo,
                    const Proto_Clock *hi, const char *options,
                    const Seat_Pool_Rated *rated)
{
    static const Seat_Pool_Rated any = {0, 0, 0};
    uint8_t card[LOBBY_SEEK_CARD_MAX];
    size_t card_len = 0;
    const Core_Game *first = first_game(games);
    int rc;

    if (out == NULL)
        return TB_E_ARG;
    memset(out, 0, sizeof *out);
    if (options == NULL)
        options = "";
    if (rated == NULL)
        rated = &any;
    if (first == NULL || strstr(options, "clock=") != NULL ||
        (rated->me && player == NULL))
        return TB_E_ARG;
    for (size_t i = core_game_count(); i < LOBBY_POOL_GAMES; i++)
        if ((games & (1u << i)) != 0)
            return TB_E_ARG; /* (a bit past the catalogue) */
    out->games = games;
    /* (the card's key is the seat's for this game; the code bound to it
     * is the room's if this player hosts, and the relay checks both) */
    if (rated->me) {
        out->seat = *player;
        rc = 0;
    } else {
        rc = proto_identity_generate(&out->seat);
    }
    if (rc == 0)
        rc = lobby_code_new(out->seat.pk, &out->invite);
    if (rc == 0)
        rc = lobby_seek_card(&out->seat, &out->invite, core_game_name(first),
                             options, NULL, 0, NULL, card, &card_len);
    if (rc == 0 && (out->len = lobby_wire_pool(
                        out->msg, player != NULL ? player : &out->seat, games,
                        lo, hi, rated->want_lo, rated->want_hi, card,
                        card_len)) == 0)
        rc = TB_E_FORMAT;
    if (rc != 0)
        seat_pool_offer_wipe(out);
    return rc;
}

void seat_pool_offer_wipe(Seat_Pool_Offer *o)
{
    if (o != NULL)
        proto_identity_wipe(&o->seat);
}

void seat_pool_taken(Seat_Pool_Offer *o)
{
    if (o != NULL)
        o->taken = 1;
}

uint32_t seat_pool_lost(Seat_Pool_Offer *o, int status, uint64_t now_ms)
{
    /* a TB_E_* code is the lobby's word (or a message no lobby sends);
     * anything else, and a connection that ended unanswered, the
     * network's */
    int refusal = strcmp(tb_errname(status), "TB_E_UNKNOWN") != 0 &&
                          status != TB_E_TRUNCATED
                      ? status
                      : 0;

    if (o == NULL || !o->taken || status == 0)
        return 0;
    /* a new run after a connection that lasted; else the run goes on */
    if (o->again == 0 ||
        now_ms - o->last_lost >= SEAT_STABLE_MS + SEAT_RETRY_MAX_MS) {
        o->again = 0;
        o->lost_at = now_ms;
    }
    o->last_lost = now_ms;
    if (refusal == TB_E_SEEKS || refusal == TB_E_ADDRESS) {
        if (now_ms - o->lost_at > SEAT_GIVE_UP_MS)
            return 0;
    } else if (refusal != 0 && refusal != TB_E_FULL) {
        return 0;
    }
    return seat_retry_ms(MATCH_ROLE_GUEST, refusal, o->again++);
}

int seat_pool_paired(const Lobby_Paired *p, uint16_t games, Seat_Pool_Game *out)
{
    char canon[PROTO_CLOCK_TEXT_MAX];
    int n;

    if (p == NULL || out == NULL)
        return TB_E_ARG;
    memset(out, 0, sizeof *out);
    /* (a relay that pairs a game this player did not offer is not
     * obeyed: the player said which games it plays) */
    if (p->game >= core_game_count() || p->game >= LOBBY_POOL_GAMES ||
        (games & (1u << p->game)) == 0 ||
        proto_clock_format(&p->clock, canon, sizeof canon) != 0 ||
        proto_clock_typed(&p->clock, out->clock, sizeof out->clock) != 0)
        return TB_E_FORMAT;
    out->game = core_game_at(p->game);
    n = snprintf(out->options, sizeof out->options, "%s%s%s%s", p->options,
                 p->options[0] != '\0' && canon[0] != '\0' ? "," : "",
                 canon[0] != '\0' ? "clock=" : "", canon);
    return n < 0 || (size_t)n >= sizeof out->options ? TB_E_SPACE : 0;
}
