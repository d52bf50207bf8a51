/* mb_compiler.h -- hints to the compiler for the hot loops (internal).
 *
 * MB_ALWAYS_INLINE: inline this small helper of a hot loop even where the compiler's
 * estimate would not, so that the caller's scratch can stay in registers.
 *
 * MB_UNROLL(n): unroll the loop that follows completely, n being its small fixed trip
 * count.  At -O2 GCC keeps loops of 3 or 9 iterations rolled; unrolled, the 3-vectors
 * and 3x3 blocks they index are held in registers instead of on the stack.  Unrolling
 * changes no operation and no order, so no result (GCC and Clang read the pragma; other
 * compilers ignore it).
 *
 * MB_PREFETCH(p, w): ask for the cache line of p ahead of its use (w = 1: to be written);
 * a hint that changes no value (nothing where the compiler has no such builtin).
 *
 * MB_COLD: a function that a hot loop calls rarely: kept out of line, so that the loop
 * branches around the call instead of computing what it would do on every pass and
 * selecting the result (if-conversion); what runs, and its values, are unchanged.
 *
 * MB_CLONES_AVX2: compile the function twice, for AVX2 and for the x86-64 baseline
 * (SSE2), the loader picking by the processor (GCC's target_clones; nothing elsewhere).
 * Both perform the same IEEE operations on each lane -- no FMA: the build sets
 * -ffp-contract=off and the AVX2 target does not enable FMA -- so no result depends on
 * the processor. */
#ifndef MB_COMPILER_H
#define MB_COMPILER_H

#if defined(__GNUC__)
#define MB_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MB_ALWAYS_INLINE inline
#endif

/* MB_MAYBE_UNUSED: a static helper of a template that not every including file calls */
#if defined(__GNUC__)
#define MB_MAYBE_UNUSED __attribute__((unused))
#else
#define MB_MAYBE_UNUSED
#endif

#if defined(__GNUC__)
#define MB_PREFETCH(p, w) __builtin_prefetch((p), (w))
#else
#define MB_PREFETCH(p, w) ((void)(p))
#endif

#if defined(__GNUC__)
#define MB_COLD __attribute__((noinline, cold))
#else
#define MB_COLD
#endif

#define MB_PRAGMA_STRING(x) #x
#define MB_UNROLL(n) _Pragma(MB_PRAGMA_STRING(GCC unroll n))

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MB_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define MB_CLONES_AVX2
#endif

#endif
