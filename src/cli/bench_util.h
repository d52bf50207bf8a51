/* bench_util.h -- what the step benchmarks of `motionbench bench` share: a monotonic
 * clock and the size options (--max-nodes N --min-time S). */
#ifndef MB_BENCH_UTIL_H
#define MB_BENCH_UTIL_H

/* Seconds of CLOCK_MONOTONIC. */
double mb_bench_now(void);

/* Parse --max-nodes N (sizes 10^3 .. N by decades) and --min-time S (seconds per size);
 * the defaults are the values passed in.  Returns -1 after printing --help, 0 to go on,
 * or MB_EXIT_USAGE after a message naming the argument. */
int mb_bench_size_args(int argc, char **argv, const char *cmd, double *max_nodes,
                       double *min_time);

#endif
