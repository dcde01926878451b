/*
 * netbot.c: a bot's search on libuv's thread pool (netbot.h). One search
 * at a time, on a copy of the position; the Netbot outlives netbot_free
 * until its search ends, since the work request lives inside it.
 */
#include <stdlib.h>

#include "cli.h"
#include "engine.h"
#include "netbot.h"
#include "tb_error.h"

struct Netbot {
    uv_loop_t *loop;
    int level;
    Netbot_Done done;
    void *user;
    uv_work_t req;
    int busy, freed;
    /* the search in progress */
    Core_Position *pos;
    uint32_t time_ms;
    uint64_t seed, token;
    Core_Move mv;
    int rc;
};

static uint64_t clock_ms(void *ctx)
{
    (void)ctx;
    return (uint64_t)(cli_now() * 1000.0);
}

static void work(uv_work_t *req)
{
    Netbot *b = req->data;
    Bot_Limits lim = bot_limits_level(b->level);
    if (b->time_ms > 0) { /* the level's budget, cut to what the clock allows */
        lim.time_ms = b->time_ms;
        lim.clock_ms = clock_ms;
    }
    b->rc = bot_search(b->pos, &lim, b->seed, &b->mv, NULL);
}

static void after(uv_work_t *req, int status)
{
    Netbot *b = req->data;
    core_position_free(b->pos);
    b->pos = NULL;
    b->busy = 0;
    if (b->freed) {
        free(b);
        return;
    }
    b->done(b->user, b->token, status != 0 ? TB_E_STATE : b->rc, &b->mv);
}

int netbot_new(uv_loop_t *loop, int level, Netbot_Done done, void *user,
               Netbot **out)
{
    Netbot *b;
    if (out == NULL || loop == NULL || done == NULL)
        return TB_E_ARG;
    if ((b = calloc(1, sizeof *b)) == NULL)
        return TB_E_NOMEM;
    b->loop = loop;
    b->level = level;
    b->done = done;
    b->user = user;
    b->req.data = b;
    *out = b;
    return 0;
}

int netbot_think(Netbot *b, const Core_Position *pos, uint32_t time_ms,
                 uint64_t seed, uint64_t token)
{
    if (b->busy)
        return TB_E_STATE;
    if ((b->pos = core_position_clone(pos)) == NULL)
        return TB_E_NOMEM;
    b->time_ms = time_ms;
    b->seed = seed;
    b->token = token;
    int rc = uv_queue_work(b->loop, &b->req, work, after);
    if (rc != 0) {
        core_position_free(b->pos);
        b->pos = NULL;
        return rc;
    }
    b->busy = 1;
    return 0;
}

int netbot_busy(const Netbot *b)
{
    return b != NULL && b->busy;
}

void netbot_free(Netbot *b)
{
    if (b == NULL)
        return;
    if (b->busy)
        b->freed = 1; /* after() frees it */
    else
        free(b);
}
