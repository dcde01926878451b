/*
 * laska_count_popcnt.c: laska_count.c's counts once more, compiled with
 * x86-64's popcnt instruction enabled for its functions and named
 * ..._popcnt; laska_count.c calls them where the processor has the
 * instruction (its opening comment). Nothing here on other processors,
 * with -mpopcnt (laska_count.c then uses the instruction itself) or in
 * WebAssembly.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__)
#define LA_COUNT(name) name##_popcnt
#define LA_COUNT_HW 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt"))),                \
                             apply_to = function)
#include "laska_count.c"
#pragma clang attribute pop
#else
#pragma GCC push_options
#pragma GCC target("popcnt")
#include "laska_count.c"
#pragma GCC pop_options
#endif
#else
/* ISO C wants a declaration in every file. */
typedef int core__laska_count_popcnt_none;
#endif
