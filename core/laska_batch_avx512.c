/*
 * laska_batch_avx512.c: laska_batch.c's batch count once more, compiled
 * for x86-64's AVX-512 with its vector population count (eight positions
 * in a 512-bit register, each word counted by one instruction) and named
 * core__laska_batch_count_avx512; core__laska_batch_count calls it where
 * the processor has both (AVX512F and AVX512_VPOPCNTDQ). Nothing here on
 * other processors or in WebAssembly.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define LA_BATCH_NAME(name) name##_avx512
#define LA_BATCH_LANES 8
#define LA_BATCH_VPOPCNT 1
#if defined(__clang__)
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512vpopcntdq"))), apply_to = function)
#include "laska_batch.c"
#pragma clang attribute pop
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512vpopcntdq")
#include "laska_batch.c"
#pragma GCC pop_options
#endif
#else
/* ISO C wants a declaration in every file. */
typedef int core__laska_batch_avx512_none;
#endif
