/*
 * netgame_view.c: what a front end reads of a network seat (netgame.h):
 * its outcome, transcript, clocks, offers and connection, as the seat's
 * session has them at this moment (cli_now). netgame.c drives the seat.
 */
#include "netgame_internal.h"

void *netgame_user(const Netgame *g)
{
    return g->user;
}
const Netgame_Result *netgame_result(const Netgame *g)
{
    return &g->result;
}
int netgame_keeps_log(const Netgame *g)
{
    return g->log_path[0] != '\0';
}
const char *netgame_log_path(const Netgame *g)
{
    return g->log_path;
}
const Proto_Transcript *netgame_transcript(const Netgame *g)
{
    return match_transcript(g->m);
}

const Match *netgame_session(const Netgame *g)
{
    return g->m;
}

int64_t netgame_clock_left(const Netgame *g, int side)
{
    return match_clock_left(g->m, netgame__now_ms(), side);
}

int netgame_draw_offer(const Netgame *g)
{
    return match_draw_offer(g->m);
}

int netgame_takeback(const Netgame *g, uint32_t *plies)
{
    return match_takeback(g->m, plies);
}

size_t netgame_lines_waiting(const Netgame *g)
{
    return match_lines_waiting(g->m);
}

int netgame_caught_up(const Netgame *g)
{
    return seat_caught_up(g->st);
}

size_t netgame_unacked(const Netgame *g)
{
    return match_unacked(seat_match(g->st));
}

void netgame_seat_key(const Netgame *g, Proto_Identity *out)
{
    *out = g->seat.id;
}

int64_t netgame_absence_left(const Netgame *g)
{
    return match_absence_left(g->m, netgame__now_ms());
}
