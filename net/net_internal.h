/*
 * net_internal.h: net/'s own internals, shared between its files and its
 * tests, never included from another folder's sources. A timer wheel
 * (timer_wheel.c): deadlines of many connections kept in 4 ms slots, so
 * adding, cancelling and firing one costs O(1) however many there are,
 * with time passed in as milliseconds (no clock inside: the same calls
 * give the same firings). A clock (clock.c): one libuv timer per loop
 * driving one wheel for every connection on that loop, in place of a
 * libuv timer per connection.
 */
#ifndef TABULA_NET_INTERNAL_H
#define TABULA_NET_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

/* A slot spans 2^NET_WHEEL_SHIFT ms; the wheel turns once in
 * NET_WHEEL_SLOTS slots (16.4 s), longer than the usual heartbeat and
 * idle timeout, so most deadlines are met on their first pass. */
#define NET_WHEEL_SHIFT 2
#define NET_WHEEL_SLOTS 4096u
/* No deadline (net__wheel_next when the wheel is empty). */
#define NET_WHEEL_NEVER UINT64_MAX

typedef struct Net_Wheel_Entry Net_Wheel_Entry;

/*
 * Net_Wheel_Entry: one deadline, embedded in its owner (the owner finds
 * itself from the pointer). cb is called once when the deadline has
 * passed, after the entry left the wheel; it may add this or any entry
 * again and cancel any other. Zeroed memory is a valid idle entry.
 */
struct Net_Wheel_Entry {
    Net_Wheel_Entry *next, **pprev; /* pprev NULL: not in the wheel */
    uint64_t when;                  /* ms */
    uint32_t slot;
    void (*cb)(Net_Wheel_Entry *e);
};

/*
 * Net_Wheel: the slots, a bitmap of the non-empty ones, and the cursor,
 * the slot (in absolute 4 ms units) up to which deadlines have been
 * fired; every entry due before the cursor's slot has fired.
 */
typedef struct Net_Wheel {
    Net_Wheel_Entry *slot[NET_WHEEL_SLOTS];
    uint64_t bits[NET_WHEEL_SLOTS / 64];
    uint64_t cursor;
    size_t n;
} Net_Wheel;

/* net__wheel_init: an empty wheel whose time starts at now_ms. */
void net__wheel_init(Net_Wheel *w, uint64_t now_ms);

/*
 * net__wheel_add: set e's deadline to when_ms (moving it if it is already
 * in the wheel) and its callback to cb. A deadline already past fires at
 * the next net__wheel_expire.
 */
void net__wheel_add(Net_Wheel *w, Net_Wheel_Entry *e, uint64_t when_ms,
                    void (*cb)(Net_Wheel_Entry *e));

/* net__wheel_cancel: take e out of the wheel; nothing if it is not in. */
void net__wheel_cancel(Net_Wheel *w, Net_Wheel_Entry *e);

/* net__wheel_pending: nonzero while e is in a wheel. */
int net__wheel_pending(const Net_Wheel_Entry *e);

/*
 * net__wheel_expire: fire every entry whose deadline is at or before
 * now_ms (time never goes back: an earlier now_ms than a previous call's
 * fires what is due at it and keeps the cursor). Entries added by the
 * callbacks with a deadline already past fire in this call or the next.
 * Returns how many fired.
 */
size_t net__wheel_expire(Net_Wheel *w, uint64_t now_ms);

/*
 * net__wheel_next: the earliest deadline in the wheel, ms, or
 * NET_WHEEL_NEVER when it is empty.
 */
uint64_t net__wheel_next(const Net_Wheel *w);

/* net__wheel_count: entries in the wheel. */
size_t net__wheel_count(const Net_Wheel *w);

typedef struct Net_Clock Net_Clock;

/*
 * net__clock_get: the clock of loop, made (with its libuv timer) on the
 * first call for that loop; each call takes a reference. NULL when out of
 * memory.
 */
Net_Clock *net__clock_get(uv_loop_t *loop);

/*
 * net__clock_put: give a reference back. The last one closes the timer
 * handle (its entries must all be cancelled by then); the clock is freed
 * in the close callback.
 */
void net__clock_put(Net_Clock *k);

/*
 * net__clock_at: fire e's cb from the loop's timer phase once the loop
 * time reaches when_ms (moving e if it is waiting already). Never calls
 * cb from inside this call.
 */
void net__clock_at(Net_Clock *k, Net_Wheel_Entry *e, uint64_t when_ms,
                   void (*cb)(Net_Wheel_Entry *e));

/* net__clock_cancel: e will not fire (until added again). */
void net__clock_cancel(Net_Clock *k, Net_Wheel_Entry *e);

#endif /* TABULA_NET_INTERNAL_H */
