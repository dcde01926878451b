/*
 * netprobe.c: a refused joiner's look at its room as a spectator
 * (netprobe.h). The answer is given from a timer, on the next turn of
 * the loop, so the owner may free the look (and itself) in it.
 */
#include <stdlib.h>
#include <string.h>

#include "netprobe.h"
#include "tb_error.h"

struct Netprobe {
    Lobby_Client *lc;
    uv_timer_t timer;
    Netprobe_Done done;
    void *user;
    int reason; /* 0 while it looks */
    int freed;
};

static void answer(uv_timer_t *h)
{
    Netprobe *p = h->data;
    lobby_client_free(p->lc);
    p->lc = NULL;
    p->done(p->user, p->reason);
}

static void end(Netprobe *p, int reason)
{
    if (p->reason != 0 || p->freed)
        return;
    p->reason = reason;
    uv_timer_start(&p->timer, answer, 0, 0);
}

static void on_welcome(Lobby_Client *c, const Lobby_Welcome *w)
{
    (void)w; /* the client checked the key against the code already */
    end(lobby_client_user(c), TB_E_SEAT);
}

static void on_disconnect(Lobby_Client *c, int reason)
{
    end(lobby_client_user(c),
        reason == TB_E_SIGNATURE ? TB_E_SIGNATURE : TB_E_SEAT);
}

int netprobe_start(uv_loop_t *loop, const struct sockaddr *addr,
                   const Lobby_Code *invite, Netprobe_Done done, void *user,
                   Netprobe **out)
{
    static const Lobby_Client_Callbacks cb = {on_welcome, NULL, NULL, NULL,
                                              on_disconnect};
    Lobby_Client_Config pc;
    Netprobe *p = calloc(1, sizeof *p);
    if (p == NULL)
        return TB_E_NOMEM;
    p->done = done;
    p->user = user;
    memset(&pc, 0, sizeof pc);
    pc.role = LOBBY_ROLE_SPECTATOR;
    pc.invite = *invite;
    int rc = lobby_client_new(loop, addr, &pc, &cb, p, 0, &p->lc);
    if (rc != 0) {
        free(p);
        return rc;
    }
    uv_timer_init(loop, &p->timer);
    p->timer.data = p;
    *out = p;
    return 0;
}

static void closed(uv_handle_t *h)
{
    free(h->data);
}

void netprobe_free(Netprobe *p)
{
    if (p == NULL)
        return;
    p->freed = 1;
    lobby_client_free(p->lc);
    p->lc = NULL;
    uv_close((uv_handle_t *)&p->timer, closed);
}
