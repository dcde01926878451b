/*
 * laska_batch_avx2.c: laska_batch.c's batch count once more, compiled for
 * x86-64's AVX2 (four positions in a 256-bit register) and named
 * core__laska_batch_count_avx2; core__laska_batch_count calls it where
 * the processor has AVX2 but not AVX-512's population count. Nothing
 * here on other processors or in WebAssembly.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define LA_BATCH_NAME(name) name##_avx2
#define LA_BATCH_LANES 4
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))),                  \
                             apply_to = function)
#include "laska_batch.c"
#pragma clang attribute pop
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#include "laska_batch.c"
#pragma GCC pop_options
#endif
#else
/* ISO C wants a declaration in every file. */
typedef int core__laska_batch_avx2_none;
#endif
