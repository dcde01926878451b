/*
 * sched.c: the simulator's scheduler and time (sim_internal.h): the one
 * seeded random stream, the trace and the failure report, the event
 * queue (a binary heap on time, then insertion), and each actor's clock
 * with its skew.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "tb_error.h"

/* ---- randomness and the trace ---------------------------------------- */

uint64_t sim__rnd(World *w)
{
    /* splitmix64 */
    uint64_t z = (w->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A number in lo..hi. */
uint64_t sim__rnd_in(World *w, uint64_t lo, uint64_t hi)
{
    return lo + sim__rnd(w) % (hi - lo + 1);
}

/* 1 with probability per/1000. */
int sim__chance(World *w, unsigned per_mille)
{
    return sim__rnd(w) % 1000 < per_mille;
}

const char *const sim__role_names[] = {"host", "guest", "spec1", "spec2",
                                       "spec3"};

void sim__trace(World *w, int actor, const char *fmt, ...)
{
    char line[800];
    va_list ap;
    int n;
    if (!w->cfg->trace)
        return;
    n = snprintf(line, sizeof line, "%8llu %-5s ", (unsigned long long)w->now,
                 actor >= 0 ? sim__role_names[actor] : "relay");
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    size_t len = strlen(line);
    if (w->trace_len + len + 2 > w->trace_cap) {
        size_t cap = w->trace_cap ? 2 * w->trace_cap : 65536;
        while (cap < w->trace_len + len + 2)
            cap *= 2;
        char *grown = realloc(w->trace, cap);
        if (grown == NULL)
            return;
        w->trace = grown;
        w->trace_cap = cap;
    }
    memcpy(w->trace + w->trace_len, line, len);
    w->trace_len += len;
    w->trace[w->trace_len++] = '\n';
    w->trace[w->trace_len] = '\0';
}

void sim__fail(World *w, const char *fmt, ...)
{
    va_list ap;
    if (w->rep->failed)
        return;
    w->rep->failed = 1;
    va_start(ap, fmt);
    vsnprintf(w->rep->why, sizeof w->rep->why, fmt, ap);
    va_end(ap);
    sim__trace(w, -1, "FAILED: %s", w->rep->why);
}

/* ---- the event queue (a binary heap on time, then insertion) -------- */

static int ev_before(const Ev *x, const Ev *y)
{
    return x->at < y->at || (x->at == y->at && x->order < y->order);
}

int sim__push(World *w, Ev e)
{
    if (w->nheap == w->heap_cap) {
        size_t cap = w->heap_cap ? 2 * w->heap_cap : 256;
        Ev *grown = realloc(w->heap, cap * sizeof *grown);
        if (grown == NULL) {
            free(e.data);
            return TB_E_NOMEM;
        }
        w->heap = grown;
        w->heap_cap = cap;
    }
    e.order = w->order++;
    size_t i = w->nheap++;
    while (i > 0 && ev_before(&e, &w->heap[(i - 1) / 2])) {
        w->heap[i] = w->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->heap[i] = e;
    return 0;
}

Ev sim__pop(World *w)
{
    Ev top = w->heap[0], last = w->heap[--w->nheap];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= w->nheap)
            break;
        if (c + 1 < w->nheap && ev_before(&w->heap[c + 1], &w->heap[c]))
            c++;
        if (!ev_before(&w->heap[c], &last))
            break;
        w->heap[i] = w->heap[c];
        i = c;
    }
    if (w->nheap > 0)
        w->heap[i] = last;
    return top;
}

void sim__at_time(World *w, uint64_t at, int type, int actor)
{
    Ev e;
    memset(&e, 0, sizeof e);
    e.at = at;
    e.type = type;
    e.actor = actor;
    sim__push(w, e);
}

/* ---- time as each actor's clock reads it ----------------------------- */

uint64_t sim__anow(const Actor *x, uint64_t t)
{
    int64_t v = (int64_t)t + x->skew_off + (int64_t)t * x->skew_ppm / 1000000;
    return (uint64_t)v;
}

/* The first world time at which the actor's clock reads at least d. */
uint64_t sim__world_time(const World *w, const Actor *x, uint64_t d)
{
    if (d <= sim__anow(x, w->now))
        return w->now;
    int64_t t = ((int64_t)d - x->skew_off) * 1000000 / (1000000 + x->skew_ppm);
    if (t < (int64_t)w->now)
        t = (int64_t)w->now;
    while (sim__anow(x, (uint64_t)t) < d)
        t++;
    while (t > (int64_t)w->now && sim__anow(x, (uint64_t)t - 1) >= d)
        t--;
    return (uint64_t)t;
}
