/*
 * netprobe.h: a refused joiner's look at its room (netgame.c). A joiner
 * refused with SEAT found the room by the code's first twelve symbols
 * (the lobby's lookup) but not its fingerprint, the last group, which
 * only the host's key checks and the lobby never sees: the code may be
 * mistyped there, or the game really has its guest. The look connects
 * once more as a spectator with the same code, which the lobby admits
 * with the host's key: a key the fingerprint does not match means a
 * mistyped last group.
 */
#ifndef TABULA_NETPROBE_H
#define TABULA_NETPROBE_H

#include "lobby.h"

typedef struct Netprobe Netprobe; /* opaque, heap */

/* The look's answer: TB_E_SIGNATURE (the code's last group is mistyped)
 * or TB_E_SEAT (the seat is taken, or the look learnt nothing). */
typedef void (*Netprobe_Done)(void *user, int reason);

/*
 * netprobe_start: look at the room of invite at addr; done is called
 * once, on a later turn of the loop (outside the connection's
 * callbacks). Errors: TB_E_NOMEM, those of lobby_client_new.
 */
int netprobe_start(uv_loop_t *loop, const struct sockaddr *addr,
                   const Lobby_Code *invite, Netprobe_Done done, void *user,
                   Netprobe **out);

/* netprobe_free: stop looking (done is not called); NULL is fine. */
void netprobe_free(Netprobe *p);

#endif /* TABULA_NETPROBE_H */
