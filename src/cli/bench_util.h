/* bench_util.h -- what the step benchmarks of `motionbench bench` share: the clock and
 * the size options (--max-nodes N --min-time S).  The clock is the CPU time of the
 * calling thread: every code these benchmarks time is single-threaded, and on a shared
 * machine CPU time does not count the time other processes hold the core (their use of
 * the memory bus still shows, which is why the codes are interleaved). */
#ifndef MB_BENCH_UTIL_H
#define MB_BENCH_UTIL_H

/* Seconds of CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID). */
double mb_bench_now(void);

/* An optional peer program of a benchmark: `--odeint PROGRAM` (option "--odeint"); the
 * program, or NULL when the option is not given, in *program. */
typedef struct mb_bench_peer_option {
    const char *option;
    const char **program;
} mb_bench_peer_option;

/* Parse --max-nodes N (sizes 10^3 .. N by decades), --min-time S (seconds per size) and,
 * when peer is not NULL, its option, in any order (the commands' parser, cli_options.h);
 * the defaults are the values passed in.  Returns -1 after printing --help (the caller
 * then describes the peer option), 0 to go on, or MB_EXIT_USAGE after a message naming
 * the argument. */
int mb_bench_size_args(int argc, char **argv, const char *cmd, double *max_nodes,
                       double *min_time, const mb_bench_peer_option *peer);

#endif
