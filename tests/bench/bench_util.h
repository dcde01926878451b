/*
 * bench_util.h: what the benchmarks share: processor time of the process
 * and a seeded generator (splitmix64), so every run draws the same data.
 */
#ifndef TABULA_BENCH_UTIL_H
#define TABULA_BENCH_UTIL_H

#include <stdint.h>
#include <time.h>

/* Processor time of this process (CLOCK_PROCESS_CPUTIME_ID), in ns. */
static inline uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The next number of splitmix64 with state *s. */
static inline uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#endif /* TABULA_BENCH_UTIL_H */
