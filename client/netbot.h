/*
 * netbot.h: a bot's search on libuv's thread pool, for a seat whose
 * moves a bot chooses (netgame.c). The search runs on its own copy of
 * the position, so a deep one never stalls the loop (heartbeats, the
 * other seats and an embedded lobby keep running); its answer comes back
 * on the loop's thread.
 */
#ifndef TABULA_NETBOT_H
#define TABULA_NETBOT_H

#include <stdint.h>
#include <uv.h>

#include "core.h"

typedef struct Netbot Netbot; /* opaque, heap */

/* What a search found, on the loop's thread: rc 0 and the move mv, or a
 * TB_E_* error; token the one netbot_think was given. */
typedef void (*Netbot_Done)(void *user, uint64_t token, int rc,
                            const Core_Move *mv);

/*
 * netbot_new: a bot of level (1..8, engine.h's levels) on loop; done is
 * called with user after each search. Errors: TB_E_ARG, TB_E_NOMEM.
 */
int netbot_new(uv_loop_t *loop, int level, Netbot_Done done, void *user,
               Netbot **out);

/*
 * netbot_think: search pos (copied) for a move, with seed for the ties,
 * within time_ms (ms of the bot's clock; 0: the level's budget alone),
 * answering done with token. Errors: TB_E_STATE (a search runs: one at a
 * time), TB_E_NOMEM, a libuv error from queueing the work.
 */
int netbot_think(Netbot *b, const Core_Position *pos, uint32_t time_ms,
                 uint64_t seed, uint64_t token);

/* netbot_busy: 1 while a search runs. */
int netbot_busy(const Netbot *b);

/* netbot_free: release b; a search that runs is left to end, and its
 * answer dropped. NULL is fine. */
void netbot_free(Netbot *b);

#endif /* TABULA_NETBOT_H */
