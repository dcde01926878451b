/*
 * bench_pool.c: the pool's pairing (lobby/pool.h, issue 37; never run as
 * a test, the figures go to docs/benchmarks.md). Target: 10,000 waiting
 * offers paired by pool_pair_all in at most 10 ms of processor time.
 *   bench_pool [ROUNDS [N]]   N offers [10000], ROUNDS rounds [5]
 * Each round draws the offers from one seed (a realistic mix: five games,
 * one to three each, Laska and Chessball the most asked; a ladder of
 * clocks from bullet to correspondence, half of them ranges over up to
 * three rungs; four players an address), puts them into an empty pool
 * and pairs them at once, and times, in processor time
 * (CLOCK_PROCESS_CPUTIME_ID) of this process:
 *   put       the N pool_put calls
 *   pair_all  pool_pair_all over them
 *   one_by_one the same offers by pool_add in arrival order, a fresh pool
 *   worst     N offers of one game, each a single clock of its own
 *             estimate (1s+0, 2s+0, ...: none meets another, nothing
 *             pairs, and every offer walks every queue entry before
 *             it), by pool_pair_all
 * beside two anchors measured in the same round: qsort of N u64 keys,
 * and a plain copy of the N offers (memcpy).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lobby/pool_util.h"
#include "pool.h"

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The ladder, shortest first within a kind, each with its weight (how
 * often a player starts a range there). */
static const struct {
    const char *text;
    unsigned weight;
} ladder[] = {
    {"1+0", 8},      {"2+1", 6},   {"3+0", 10},  {"3+2", 12},  {"5+0", 12},
    {"5+3", 8},      {"10+0", 10}, {"10+5", 8},  {"15+10", 6}, {"30+0", 4},
    {"30+20", 2},    {"90+30", 1}, {"5d3", 2},   {"10d5", 1},  {"40/90", 1},
    {"40/90+30", 1}, {"1day", 2},  {"3days", 2}, {"7days", 1},
};
#define NLADDER (sizeof ladder / sizeof ladder[0])

static Proto_Clock rung[NLADDER];

static size_t pick_rung(uint64_t *s)
{
    unsigned total = 0, r;
    for (size_t i = 0; i < NLADDER; i++)
        total += ladder[i].weight;
    r = below(s, total);
    for (size_t i = 0; i < NLADDER; i++) {
        if (r < ladder[i].weight)
            return i;
        r -= ladder[i].weight;
    }
    return 0;
}

/* Game weights: Laska, Chessball, Football, Volleyball, Volleyball 10. */
static const unsigned game_weight[5] = {35, 30, 15, 12, 8};

static void draw(uint64_t *s, Pool_Offer *o, uint64_t i)
{
    size_t lo = pick_rung(s), hi = lo;
    unsigned ngames = 1 + below(s, 3);
    memset(o, 0, sizeof *o);
    o->id = i + 1;
    o->arrival_ms = i * 6; /* about 10,000 a minute */
    for (int b = 0; b < 8; b++)
        o->key[b] = (uint8_t)(i >> (8 * b));
    for (int b = 0; b < 8; b++)
        o->addr[b] = (uint8_t)((i / 4) >> (8 * b));
    while (ngames-- > 0) {
        unsigned r = below(s, 100), g = 0;
        while (r >= game_weight[g]) {
            r -= game_weight[g];
            g++;
        }
        o->games |= (uint16_t)(1u << g);
    }
    if (below(s, 2)) { /* a range: up to three rungs up, one kind */
        size_t up = lo + 1 + below(s, 3);
        for (size_t k = lo + 1; k <= up && k < NLADDER; k++)
            if (rung[k].kind == rung[lo].kind)
                hi = k;
    }
    o->lo = rung[lo];
    o->hi = rung[hi];
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static Pool *fresh(size_t n)
{
    Pool *p = NULL;
    Pool_Limits lim = {(uint32_t)n, 1, 4};
    if (pool_new(5, &lim, &p) != 0) {
        fprintf(stderr, "bench_pool: pool_new failed\n");
        exit(1);
    }
    return p;
}

static void put_all(Pool *p, const Pool_Offer *o, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (pool_put(p, &o[i]) != 0) {
            fprintf(stderr, "bench_pool: pool_put %zu refused\n", i);
            exit(1);
        }
}

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 5;
    size_t n = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 10000;
    Pool_Offer *offers = malloc(n * sizeof *offers);
    Pool_Offer *copy = malloc(n * sizeof *copy);
    Pool_Offer *worst = malloc(n * sizeof *worst);
    Pool_Pair *pairs = malloc((n / 2 + 1) * sizeof *pairs);
    uint64_t *keys = malloc(n * sizeof *keys);
    if (!offers || !copy || !worst || !pairs || !keys || rounds < 1 || n < 2)
        return 1;
    for (size_t i = 0; i < NLADDER; i++)
        if (proto_clock_parse(ladder[i].text, 1, &rung[i], NULL) != 0)
            return 1;
    /* worst: single Fischer clocks 1s+0, 2s+0, 3s+0, ... of distinct
     * estimates, one game */
    for (size_t i = 0; i < n; i++) {
        memset(&worst[i], 0, sizeof worst[i]);
        worst[i].id = i + 1;
        worst[i].arrival_ms = i;
        for (int b = 0; b < 8; b++)
            worst[i].key[b] = (uint8_t)(i >> (8 * b));
        for (int b = 0; b < 8; b++)
            worst[i].addr[b] = (uint8_t)((i / 4) >> (8 * b));
        worst[i].games = 1;
        worst[i].lo.kind = PROTO_CLOCK_FISCHER;
        worst[i].lo.base_ms = 1000u * (uint32_t)(i % 86400 + 1);
        worst[i].hi = worst[i].lo;
    }
    printf("offers %zu, rounds %d (ms of processor time)\n", n, rounds);
    printf("round  qsort  copy  put  pair_all  pairs  left  one_by_one  "
           "worst(pairs)\n");
    for (int r = 0; r < rounds; r++) {
        uint64_t seed = 0x5eed0000u + (uint64_t)r, s = seed, t0;
        uint64_t t_sort, t_copy, t_put, t_all, t_one, t_worst;
        size_t npairs = 0, nworst = 0, none = 0;
        Pool_Pair one;
        for (size_t i = 0; i < n; i++)
            draw(&s, &offers[i], i);
        for (size_t i = 0; i < n; i++)
            keys[i] = xorshift(&s);

        t0 = cpu_ns();
        qsort(keys, n, sizeof *keys, cmp_u64);
        t_sort = cpu_ns() - t0;
        t0 = cpu_ns();
        memcpy(copy, offers, n * sizeof *offers);
        t_copy = cpu_ns() - t0;

        Pool *p = fresh(n);
        t0 = cpu_ns();
        put_all(p, offers, n);
        t_put = cpu_ns() - t0;
        t0 = cpu_ns();
        if (pool_pair_all(p, pairs, n / 2 + 1, &npairs) != 0)
            return 1;
        t_all = cpu_ns() - t0;
        size_t left = pool_waiting(p);
        pool_free(p);

        p = fresh(n);
        t0 = cpu_ns();
        for (size_t i = 0; i < n; i++) {
            int rc = pool_add(p, &copy[i], &one);
            if (rc < 0)
                return 1;
            none += (size_t)rc;
        }
        t_one = cpu_ns() - t0;
        pool_free(p);
        if (none != npairs) {
            fprintf(stderr, "bench_pool: %zu pairs one by one, %zu in all\n",
                    none, npairs);
            return 1;
        }

        p = fresh(n);
        put_all(p, worst, n);
        t0 = cpu_ns();
        if (pool_pair_all(p, pairs, n / 2 + 1, &nworst) != 0)
            return 1;
        t_worst = cpu_ns() - t0;
        pool_free(p);

        printf("%5d  %5.2f  %4.2f  %4.2f  %8.2f  %5zu  %4zu  %10.2f  "
               "%6.2f(%zu)\n",
               r + 1, ms(t_sort), ms(t_copy), ms(t_put), ms(t_all), npairs,
               left, ms(t_one), ms(t_worst), nworst);
    }
    free(offers);
    free(copy);
    free(worst);
    free(pairs);
    free(keys);
    return 0;
}
