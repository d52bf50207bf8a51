/* bench_util.h -- what the step benchmarks of `motionbench bench` share: the clock and
 * the size options (--max-nodes N --min-time S).  The clock is the CPU time of the
 * calling thread: every code these benchmarks time is single-threaded, and on a shared
 * machine CPU time does not count the time other processes hold the core (their use of
 * the memory bus still shows, which is why the codes are interleaved). */
#ifndef MB_BENCH_UTIL_H
#define MB_BENCH_UTIL_H

#include "cli_options.h"

/* Seconds of CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID); the processor it
 * runs on is noted (bench_cpus.h). */
double mb_bench_now(void);

/* Parse --max-nodes N (sizes 10^3 .. N by decades), --min-time S (seconds per size) and
 * the benchmark's own options extra[0..n_extra) (at most 8: a peer program, a flag), in
 * any order, with the commands' parser (cli_options.h); the defaults are the values passed
 * in.  Returns -1 after printing --help (the caller then describes its own options), 0 to
 * go on, or MB_EXIT_USAGE after a message naming the argument. */
int mb_bench_size_args(int argc, char **argv, const char *cmd, double *max_nodes,
                       double *min_time, const mb_cli_option *extra, size_t n_extra);

#endif
