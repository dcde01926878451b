/*
 * clock.c: one libuv timer per loop driving one timer wheel (timer_wheel.c)
 * for every connection on that loop: their heartbeats, idle timeouts and
 * deferred teardowns. With a libuv timer per connection, a node holding
 * 20,000 idle connections kept 20,000 timers in libuv's heap and woke for
 * each; here the loop wakes once for all deadlines that fall due together
 * and each costs O(1). The timer is armed for the earliest deadline only
 * (never a fixed tick), so an idle client wakes no more often than its
 * own deadlines. Clocks are found by loop in a small list shared by all
 * threads (each loop is used from one thread, but tests run loops on
 * several), under a mutex taken only when a clock is made or released.
 */
#include <stdlib.h>

#include "net_internal.h"

struct Net_Clock {
    uv_timer_t timer;
    uv_loop_t *loop;
    size_t refs;
    uint64_t armed;  /* the timer's deadline, ms; NET_WHEEL_NEVER: idle */
    int in_expire;   /* inside net__wheel_expire: arm once it returns */
    Net_Clock *next; /* in the list of clocks */
    Net_Wheel wheel;
};

static uv_once_t clocks_once = UV_ONCE_INIT;
static uv_mutex_t clocks_lock;
static Net_Clock *clocks;

static void clocks_init(void)
{
    if (uv_mutex_init(&clocks_lock) != 0)
        abort(); /* no mutex at start: nothing can run safely */
}

static void clock_arm(Net_Clock *k);

static void clock_fire(uv_timer_t *t)
{
    Net_Clock *k = t->data;

    k->armed = NET_WHEEL_NEVER;
    k->in_expire = 1;
    (void)net__wheel_expire(&k->wheel, uv_now(k->loop));
    k->in_expire = 0;
    clock_arm(k);
}

static void clock_arm(Net_Clock *k)
{
    uint64_t when = net__wheel_next(&k->wheel), now;

    if (when == NET_WHEEL_NEVER || k->refs == 0) {
        if (k->armed != NET_WHEEL_NEVER)
            uv_timer_stop(&k->timer);
        k->armed = NET_WHEEL_NEVER;
        return;
    }
    if (when == k->armed)
        return;
    now = uv_now(k->loop);
    k->armed = when;
    uv_timer_start(&k->timer, clock_fire, when > now ? when - now : 0, 0);
}

static void clock_closed(uv_handle_t *h)
{
    free(h->data);
}

Net_Clock *net__clock_get(uv_loop_t *loop)
{
    Net_Clock *k;

    uv_once(&clocks_once, clocks_init);
    uv_mutex_lock(&clocks_lock);
    for (k = clocks; k != NULL; k = k->next)
        if (k->loop == loop)
            break;
    if (k == NULL) {
        k = malloc(sizeof *k);
        if (k != NULL && uv_timer_init(loop, &k->timer) != 0) {
            free(k);
            k = NULL;
        }
        if (k != NULL) {
            k->timer.data = k;
            k->loop = loop;
            k->refs = 0;
            k->armed = NET_WHEEL_NEVER;
            k->in_expire = 0;
            net__wheel_init(&k->wheel, uv_now(loop));
            k->next = clocks;
            clocks = k;
        }
    }
    if (k != NULL)
        k->refs++;
    uv_mutex_unlock(&clocks_lock);
    return k;
}

void net__clock_put(Net_Clock *k)
{
    if (k == NULL)
        return;
    uv_mutex_lock(&clocks_lock);
    if (--k->refs == 0) {
        Net_Clock **pp = &clocks;
        while (*pp != k)
            pp = &(*pp)->next;
        *pp = k->next;
    }
    uv_mutex_unlock(&clocks_lock);
    if (k->refs == 0)
        uv_close((uv_handle_t *)&k->timer, clock_closed);
}

void net__clock_at(Net_Clock *k, Net_Wheel_Entry *e, uint64_t when_ms,
                   void (*cb)(Net_Wheel_Entry *e))
{
    net__wheel_add(&k->wheel, e, when_ms, cb);
    if (!k->in_expire && when_ms < k->armed) {
        uint64_t now = uv_now(k->loop);
        k->armed = when_ms;
        uv_timer_start(&k->timer, clock_fire, when_ms > now ? when_ms - now : 0,
                       0);
    }
}

void net__clock_cancel(Net_Clock *k, Net_Wheel_Entry *e)
{
    /* The timer stays armed: waking once for nothing is cheaper than
     * looking for the next deadline at every cancel. */
    net__wheel_cancel(&k->wheel, e);
}
