/* bench_cpus.h -- the processors a benchmark's timings ran on.  Two cores of one machine
 * need not time a step alike: a virtual processor whose physical core another guest also
 * uses gives an instruction-heavy step less of the core's issue width than a lean peer
 * needs (doc/performance.md, "The processor a ratio was read on").  The clock
 * (mb_bench_now) notes the processor at every reading, and `motionbench bench` prints the
 * set after the figures, so that a reader can pin a rerun to the same processor
 * (`taskset -c N`). */
#ifndef MB_BENCH_CPUS_H
#define MB_BENCH_CPUS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* Processors 0..63 one bit each; any processor numbered 64 or above sets `beyond`. */
typedef struct {
    uint64_t bits;
    int beyond;
} mb_bench_cpus;

/* Note processor `cpu` (as sched_getcpu returns it; a negative value, "unknown", is
 * ignored) in the set. */
void mb_bench_cpus_add(mb_bench_cpus *set, int cpu);

/* The set noted so far by the benchmark clock, and its reset. */
mb_bench_cpus mb_bench_cpus_seen(void);
void mb_bench_cpus_reset(void);

/* Note the processor the calling thread runs on now in the clock's set. */
void mb_bench_cpus_note(void);

/* The processors the calling thread may run on (sched_getaffinity); empty if unknown. */
mb_bench_cpus mb_bench_cpus_allowed(void);

/* After a benchmark: one comment line on out naming the processors its clock readings
 * ran on and those allowed, when it read the clock at all. */
void mb_bench_cpus_report(FILE *out);

/* The set as a list of numbers and ranges ("0", "0-1", "0,2-4", "63,64+"; "" when empty)
 * into buf of size len; returns the length written, or the length needed when it does not
 * fit (then buf holds a truncated, terminated list), as snprintf does. */
int mb_bench_cpus_format(const mb_bench_cpus *set, char *buf, size_t len);

#endif
