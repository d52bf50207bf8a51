/* bench_pair.h -- two doubles a lane for the chain benchmark's lean peer (bench_rebuild.c,
 * bench_blocktri.c): GCC's vector extension of two doubles, which the compiler turns into
 * SSE2 on x86-64 (and into the target's own pairs, or two scalars, elsewhere).  A lane
 * makes the very IEEE operation a scalar does (the build contracts no multiply and add,
 * -ffp-contract=off).  The peer holds a row of four numbers as two pairs, columns (0, 1)
 * and (2, 3): the rows [D_i | b_i] of its system and [X_i | z_i] of its sweep.  The
 * lanes' values are picked by __builtin_shufflevector (GCC from 12, and clang).
 * Benchmark code, shared by the peer's two files only. */
#ifndef MB_BENCH_PAIR_H
#define MB_BENCH_PAIR_H

#include "mb_compiler.h"

#include <string.h>

typedef double bench_pair __attribute__((vector_size(2 * sizeof(double))));

/* (p[0], p[1]) from anywhere */
static MB_ALWAYS_INLINE bench_pair bench_pair_load(const double *p)
{
    bench_pair a;
    memcpy(&a, p, sizeof a);
    return a;
}

/* (p[0], p[1]) from a 16-byte aligned address (a row's pair of a 4-column array) */
static MB_ALWAYS_INLINE bench_pair bench_pair_load_aligned(const double *p)
{
    bench_pair a;
    memcpy(&a, __builtin_assume_aligned(p, 16), sizeof a);
    return a;
}

static MB_ALWAYS_INLINE void bench_pair_store(double *p, bench_pair a)
{
    memcpy(p, &a, sizeof a);
}

static MB_ALWAYS_INLINE void bench_pair_store_aligned(double *p, bench_pair a)
{
    memcpy(__builtin_assume_aligned(p, 16), &a, sizeof a);
}

/* (s, s) */
static MB_ALWAYS_INLINE bench_pair bench_pair_all(double s)
{
    return (bench_pair){ s, s };
}

/* (a0, a0) and (a1, a1) */
static MB_ALWAYS_INLINE bench_pair bench_pair_lo2(bench_pair a)
{
    return __builtin_shufflevector(a, a, 0, 0);
}

static MB_ALWAYS_INLINE bench_pair bench_pair_hi2(bench_pair a)
{
    return __builtin_shufflevector(a, a, 1, 1);
}

#endif
