/*
 * timer_wheel.c: the hashed timer wheel of net_internal.h. A deadline of
 * t ms goes into slot (t >> NET_WHEEL_SHIFT) mod NET_WHEEL_SLOTS, on an
 * intrusive list, so adding and cancelling are a few pointer writes.
 * Expiring walks the slots from the cursor up to the present one and
 * fires what is due; a deadline more than one turn ahead stays in its
 * slot when passed and is met on a later turn. A bitmap of non-empty
 * slots lets net__wheel_next skip empty ones 64 at a time. Time comes in
 * as an argument only, so the wheel is deterministic and testable alone.
 */
#include <string.h>

#include "net_internal.h"

#define SLOT_MASK ((uint64_t)NET_WHEEL_SLOTS - 1)

static void bit_set(Net_Wheel *w, uint32_t s)
{
    w->bits[s / 64] |= (uint64_t)1 << (s % 64);
}

static void bit_clear(Net_Wheel *w, uint32_t s)
{
    w->bits[s / 64] &= ~((uint64_t)1 << (s % 64));
}

void net__wheel_init(Net_Wheel *w, uint64_t now_ms)
{
    memset(w, 0, sizeof *w);
    w->cursor = now_ms >> NET_WHEEL_SHIFT;
}

int net__wheel_pending(const Net_Wheel_Entry *e)
{
    return e->pprev != NULL;
}

size_t net__wheel_count(const Net_Wheel *w)
{
    return w->n;
}

static void unlink_entry(Net_Wheel *w, Net_Wheel_Entry *e)
{
    *e->pprev = e->next;
    if (e->next != NULL)
        e->next->pprev = e->pprev;
    e->next = NULL;
    e->pprev = NULL;
    w->n--;
    if (w->slot[e->slot] == NULL)
        bit_clear(w, e->slot);
}

/* Into its slot: that of its deadline, or the cursor's when it is past
 * (a slot behind the cursor would wait a whole turn). */
static void link_entry(Net_Wheel *w, Net_Wheel_Entry *e)
{
    uint64_t abs = e->when >> NET_WHEEL_SHIFT;
    uint32_t s;

    if (abs < w->cursor)
        abs = w->cursor;
    s = (uint32_t)(abs & SLOT_MASK);
    e->slot = s;
    e->next = w->slot[s];
    if (e->next != NULL)
        e->next->pprev = &e->next;
    e->pprev = &w->slot[s];
    w->slot[s] = e;
    w->n++;
    bit_set(w, s);
}

void net__wheel_add(Net_Wheel *w, Net_Wheel_Entry *e, uint64_t when_ms,
                    void (*cb)(Net_Wheel_Entry *e))
{
    if (e->pprev != NULL)
        unlink_entry(w, e);
    e->when = when_ms;
    e->cb = cb;
    link_entry(w, e);
}

void net__wheel_cancel(Net_Wheel *w, Net_Wheel_Entry *e)
{
    if (e->pprev != NULL)
        unlink_entry(w, e);
}

/* Fire what is due in slot s. Its list is first moved to a local head:
 * an entry a callback adds to this slot again waits for the next call,
 * so one call always ends, and a callback may cancel any entry still on
 * the local list (pprev points into it). */
static size_t expire_slot(Net_Wheel *w, uint32_t s, uint64_t now_ms)
{
    Net_Wheel_Entry *local = w->slot[s], *keep = NULL;
    size_t fired = 0;

    if (local == NULL)
        return 0;
    local->pprev = &local;
    w->slot[s] = NULL;
    bit_clear(w, s);
    while (local != NULL) {
        Net_Wheel_Entry *e = local;
        local = e->next;
        if (local != NULL)
            local->pprev = &local;
        if (e->when > now_ms) {
            /* Later in this slot, or a later turn: kept, on a list a
             * callback can cancel from as well. */
            e->next = keep;
            if (keep != NULL)
                keep->pprev = &e->next;
            e->pprev = &keep;
            keep = e;
            continue;
        }
        e->next = NULL;
        e->pprev = NULL;
        w->n--;
        fired++;
        e->cb(e);
    }
    /* Put the kept ones back (the callbacks may have added others). */
    while (keep != NULL) {
        Net_Wheel_Entry *e = keep;
        keep = e->next;
        e->next = w->slot[s];
        if (e->next != NULL)
            e->next->pprev = &e->next;
        e->pprev = &w->slot[s];
        w->slot[s] = e;
    }
    if (w->slot[s] != NULL)
        bit_set(w, s);
    return fired;
}

size_t net__wheel_expire(Net_Wheel *w, uint64_t now_ms)
{
    uint64_t from = w->cursor, to = now_ms >> NET_WHEEL_SHIFT, steps;
    size_t fired = 0;

    if (to < from)
        to = from;
    steps = to - from + 1;
    if (steps > NET_WHEEL_SLOTS)
        steps = NET_WHEEL_SLOTS; /* one whole turn visits every slot */
    /* The cursor moves first: what the callbacks add lands at or after
     * the present slot, never behind the walk. */
    w->cursor = to;
    for (uint64_t i = 0; i < steps; i++) {
        uint64_t abs = to - (steps - 1) + i;
        fired += expire_slot(w, (uint32_t)(abs & SLOT_MASK), now_ms);
    }
    return fired;
}

uint64_t net__wheel_next(const Net_Wheel *w)
{
    uint64_t best = NET_WHEEL_NEVER;
    uint64_t k = 0;

    if (w->n == 0)
        return NET_WHEEL_NEVER;
    /* Slots in order from the cursor: an entry of slot cursor+k is due no
     * earlier than that slot's start in this turn (entries past due sit
     * in the cursor's slot), so once the best found falls before the end
     * of the slot in hand, no later slot can beat it. */
    while (k < NET_WHEEL_SLOTS) {
        uint64_t abs = w->cursor + k;
        uint32_t s = (uint32_t)(abs & SLOT_MASK);
        uint64_t word = w->bits[s / 64] >> (s % 64);
        if (word == 0) {
            k += 64 - s % 64; /* the rest of this word is empty */
            continue;
        }
        while ((word & 1) == 0) {
            word >>= 1;
            k++;
        }
        abs = w->cursor + k;
        s = (uint32_t)(abs & SLOT_MASK);
        for (const Net_Wheel_Entry *e = w->slot[s]; e != NULL; e = e->next)
            if (e->when < best)
                best = e->when;
        if (best < (abs + 1) << NET_WHEEL_SHIFT)
            return best;
        k++;
    }
    return best;
}
