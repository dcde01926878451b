/*
 * test_timer_wheel.c: net/'s timer wheel alone, with time passed in by
 * hand. Deadlines fire exactly at their millisecond, in order across
 * slots, after a whole turn of the wheel and after jumps of time longer
 * than a turn; cancelling from inside a callback and adding again from
 * inside one are safe; net__wheel_next names the earliest deadline. A
 * seeded random run checks every firing and every next deadline against
 * a plain list of deadlines scanned in full (the second method).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "net_internal.h"

typedef struct Timer {
    Net_Wheel_Entry e;
    int fired;
    uint64_t fired_at;
} Timer;

static Net_Wheel wheel;
static uint64_t now_ms;
static int order[64];
static int norder;
static Timer tm[64];

static void on_fire(Net_Wheel_Entry *e)
{
    Timer *t = (Timer *)(void *)e;
    t->fired++;
    t->fired_at = now_ms;
    order[norder++] = (int)(t - tm);
}

static void run_to(uint64_t ms)
{
    while (now_ms < ms) {
        now_ms++;
        net__wheel_expire(&wheel, now_ms);
    }
}

static void setup(void)
{
    memset(tm, 0, sizeof tm);
    norder = 0;
}

Test(timer_wheel, deadlines_fire_at_their_millisecond_in_order)
{
    /* 5 ms and 4 ms share no slot; 6 and 7 share slot 1 (4..7); 100,
     * 16,383 (the last ms of the first turn), 16,384 (slot 0 again, one
     * turn later) and 40,000 (two turns and more ahead). */
    static const uint64_t when[] = {5, 4, 7, 6, 100, 16383, 16384, 40000};
    static const int expect[] = {1, 0, 3, 2, 4, 5, 6, 7};
    size_t n = sizeof when / sizeof when[0];

    setup();
    now_ms = 0;
    net__wheel_init(&wheel, 0);
    for (size_t i = 0; i < n; i++)
        net__wheel_add(&wheel, &tm[i].e, when[i], on_fire);
    cr_assert_eq(net__wheel_count(&wheel), n);
    cr_assert_eq(net__wheel_next(&wheel), 4);
    run_to(40000);
    cr_assert_eq(norder, (int)n);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(order[i], expect[i], "firing %zu", i);
        cr_assert_eq(tm[i].fired, 1);
        cr_assert_eq(tm[i].fired_at, when[i], "timer %zu at %llu", i,
                     (unsigned long long)tm[i].fired_at);
    }
    cr_assert_eq(net__wheel_count(&wheel), 0);
    cr_assert_eq(net__wheel_next(&wheel), NET_WHEEL_NEVER);
}

Test(timer_wheel, next_sees_past_a_later_turn_in_an_earlier_slot)
{
    /* Slot 2 holds a deadline one turn ahead (16,392 ms); slot 25 holds
     * 100 ms: the earliest is 100 though its slot comes later. */
    setup();
    net__wheel_init(&wheel, 0);
    net__wheel_add(&wheel, &tm[0].e, 16392, on_fire);
    net__wheel_add(&wheel, &tm[1].e, 100, on_fire);
    cr_assert_eq(net__wheel_next(&wheel), 100);
    net__wheel_cancel(&wheel, &tm[1].e);
    cr_assert_eq(net__wheel_next(&wheel), 16392);
    cr_assert_eq(net__wheel_expire(&wheel, 16391), 0);
    cr_assert_eq(net__wheel_expire(&wheel, 16392), 1);
}

Test(timer_wheel, a_jump_longer_than_a_turn_fires_everything_due_once)
{
    setup();
    net__wheel_init(&wheel, 1000);
    net__wheel_add(&wheel, &tm[0].e, 1001, on_fire);
    net__wheel_add(&wheel, &tm[1].e, 9000, on_fire);
    net__wheel_add(&wheel, &tm[2].e, 50000, on_fire);
    net__wheel_add(&wheel, &tm[3].e, 50001, on_fire);
    now_ms = 50000;
    cr_assert_eq(net__wheel_expire(&wheel, 50000), 3);
    cr_assert_eq(tm[0].fired + tm[1].fired + tm[2].fired, 3);
    cr_assert_eq(tm[3].fired, 0);
    cr_assert_eq(net__wheel_next(&wheel), 50001);
    /* Time that seems to go back fires nothing new. */
    cr_assert_eq(net__wheel_expire(&wheel, 40000), 0);
    cr_assert_eq(net__wheel_expire(&wheel, 50001), 1);
}

Test(timer_wheel, a_deadline_already_past_fires_at_the_next_expire)
{
    setup();
    net__wheel_init(&wheel, 500);
    net__wheel_expire(&wheel, 800);
    net__wheel_add(&wheel, &tm[0].e, 10, on_fire);
    cr_assert_eq(net__wheel_next(&wheel), 10);
    cr_assert_eq(net__wheel_expire(&wheel, 800), 1);
}

/* A callback that cancels tm[1] (in the same slot) and adds itself again
 * 4 ms later, for three firings. */
static void cancel_and_again(Net_Wheel_Entry *e)
{
    Timer *t = (Timer *)(void *)e;
    t->fired++;
    net__wheel_cancel(&wheel, &tm[1].e);
    if (t->fired < 3)
        net__wheel_add(&wheel, e, now_ms + 4, cancel_and_again);
}

/* Adds itself again at a time already past: must not loop in one call. */
static void again_now(Net_Wheel_Entry *e)
{
    Timer *t = (Timer *)(void *)e;
    t->fired++;
    net__wheel_add(&wheel, e, now_ms, again_now);
}

Test(timer_wheel, callbacks_cancel_and_add_safely)
{
    setup();
    now_ms = 0;
    net__wheel_init(&wheel, 0);
    /* 8 and 9 share slot 2; whichever fires first, tm[1] must not. */
    net__wheel_add(&wheel, &tm[1].e, 9, on_fire);
    net__wheel_add(&wheel, &tm[0].e, 8, cancel_and_again);
    net__wheel_add(&wheel, &tm[2].e, 9, on_fire); /* same slot, kept */
    run_to(9);
    cr_assert_eq(tm[0].fired, 1);
    cr_assert_eq(tm[1].fired, 0);
    cr_assert_eq(tm[2].fired, 1);
    run_to(30);
    cr_assert_eq(tm[0].fired, 3);
    cr_assert_eq(net__wheel_count(&wheel), 0);

    net__wheel_add(&wheel, &tm[3].e, 31, again_now);
    now_ms = 31;
    cr_assert_eq(net__wheel_expire(&wheel, 31), 1);
    cr_assert_eq(net__wheel_expire(&wheel, 31), 1);
    cr_assert_eq(tm[3].fired, 2);
    net__wheel_cancel(&wheel, &tm[3].e);
    net__wheel_cancel(&wheel, &tm[3].e); /* twice: nothing */
    cr_assert_eq(net__wheel_count(&wheel), 0);
}

/* ---- against a plain list ---- */

static uint64_t lcg_state;

static uint64_t lcg(void)
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return lcg_state >> 33;
}

static uint64_t ref_when[64];
static int ref_live[64];

static void ref_fire(Net_Wheel_Entry *e)
{
    Timer *t = (Timer *)(void *)e;
    int i = (int)(t - tm);
    t->fired++;
    cr_assert(ref_live[i], "timer %d fired but was not waiting", i);
    cr_assert_leq(ref_when[i], now_ms, "timer %d fired early", i);
    ref_live[i] = 0;
}

Test(timer_wheel, agrees_with_a_plain_list_over_a_seeded_run)
{
    setup();
    memset(ref_live, 0, sizeof ref_live);
    lcg_state = 20261201;
    now_ms = 123456;
    net__wheel_init(&wheel, now_ms);
    for (int step = 0; step < 200000; step++) {
        uint64_t r = lcg() % 100, best = NET_WHEEL_NEVER;
        int i = (int)(lcg() % 64);
        if (r < 40) {
            /* Deadlines from the past up to three turns ahead. */
            uint64_t span = lcg() % 4 == 0 ? 50000 : 2000;
            uint64_t when = now_ms + lcg() % span;
            if (lcg() % 16 == 0 && when > 100)
                when -= 100;
            net__wheel_add(&wheel, &tm[i].e, when, ref_fire);
            ref_when[i] = when;
            ref_live[i] = 1;
        } else if (r < 50) {
            net__wheel_cancel(&wheel, &tm[i].e);
            ref_live[i] = 0;
        } else {
            uint64_t jump = lcg() % 100 == 0 ? lcg() % 40000 : lcg() % 30;
            size_t due = 0, fired;
            now_ms += jump;
            for (int k = 0; k < 64; k++)
                due += ref_live[k] && ref_when[k] <= now_ms;
            fired = net__wheel_expire(&wheel, now_ms);
            cr_assert_eq(fired, due, "step %d: fired %zu of %zu due", step,
                         fired, due);
        }
        for (int k = 0; k < 64; k++) {
            cr_assert_eq(net__wheel_pending(&tm[k].e), ref_live[k]);
            if (ref_live[k] && ref_when[k] < best)
                best = ref_when[k];
        }
        cr_assert_eq(net__wheel_next(&wheel), best, "step %d", step);
    }
}
