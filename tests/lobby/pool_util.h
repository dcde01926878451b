/*
 * pool_util.h: the seeded generator the pool's property tests
 * (test_pool.c) and its benchmark (tests/bench/bench_pool.c) draw offers
 * with: xorshift64, deterministic from its seed (never 0).
 */
#ifndef TABULA_TESTS_POOL_UTIL_H
#define TABULA_TESTS_POOL_UTIL_H

#include <stdint.h>

static inline uint64_t xorshift(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* A number in 0..n-1 (n >= 1; the modulo's slight bias is no matter
 * here). */
static inline unsigned below(uint64_t *s, unsigned n)
{
    return (unsigned)(xorshift(s) % n);
}

#endif /* TABULA_TESTS_POOL_UTIL_H */
