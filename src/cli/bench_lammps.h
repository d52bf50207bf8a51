/* bench_lammps.h -- LAMMPS as a benchmark peer: one run of an input in a child process,
 * single-threaded, and the CPU time of its run loop read from its log.  Shared by the
 * benchmarks that time LAMMPS beside the library (bench fincham, bench dem). */
#ifndef MB_BENCH_LAMMPS_H
#define MB_BENCH_LAMMPS_H

/* The shortest run loop whose CPU time LAMMPS's log is trusted for (seconds of its Loop
 * time).  LAMMPS's "% CPU use" is its CPU timer over its wall timer for the loop; the CPU
 * timer (getrusage) advances in coarse steps, so that a loop of a few milliseconds reads
 * anything from 0 % to over 100 % (measured: loops of 1.8 ms with nothing else waiting
 * read 20 %, 45.5 %, 50 % and 100 %).  A loop of 0.2 s keeps an error of a few
 * milliseconds near 1 %. */
#define MB_BENCH_LAMMPS_MIN_LOOP 0.2

/* What the log of a run of `steps` steps says of its loop: "Loop time of T on 1 procs for
 * S steps" (wall-clock seconds of the steps alone, net of reading the input, creating
 * atoms and the run's set-up) and "C% CPU use" (LAMMPS's CPU timer for that loop).
 *   0  *cpu = T min(C, 100) / 100, the CPU time the loop held a core (one thread cannot
 *      use more CPU than wall time: a C above 100 is the timers' granularity), so that on
 *      a shared machine LAMMPS is charged, like the library's codes, only for that time;
 *   1  the loop was shorter than MB_BENCH_LAMMPS_MIN_LOOP: its CPU use is not to be
 *      trusted; *wall = T, to be run again with mb_bench_lammps_longer's steps;
 *      (whatever its C: a short loop may read 0 %);
 *  -1  a line missing, S not `steps`, or in a loop long enough C not a number above 0
 *      (message recorded, naming the log). */
int mb_bench_lammps_loop(const char *log, long steps, double *wall, double *cpu);

/* Steps enough for a loop of at least MB_BENCH_LAMMPS_MIN_LOOP when `steps` steps took
 * wall seconds (25 % to spare; at least twice as many, so that repeated runs end). */
long mb_bench_lammps_longer(long steps, double wall);

/* The CPU time of a charged loop of LAMMPS: run(ctx, steps) writes the input of a run of
 * `steps` steps and runs it (mb_bench_lammps_run: 0 when LAMMPS exited with status 0),
 * then its log is read and charged as mb_bench_lammps_loop does; a loop too short for
 * LAMMPS's CPU timer is run again with mb_bench_lammps_longer's steps, until one is long
 * enough.  *steps: the steps of the first run on entry, those of the run charged on
 * return.  -1 when a run fails or its log cannot be read (message recorded). */
double mb_bench_lammps_charged(int (*run)(void *ctx, long steps), void *ctx, const char *log,
                               long *steps);

/* Run `program -in input -log log -screen none` with OMP_NUM_THREADS=1, one process, for
 * paths without a single quote; vars is appended to the command line as given (e.g.
 * "-var n 1000"), its standard output and error written to the run's output file, the
 * log's name with ".out" appended.  A run that fails before LAMMPS has written its log
 * (the start-up of its MPI layer failed, as seen on a loaded machine: status 1, no log;
 * any log of an earlier run is removed first) is started once more, with a note on
 * standard error; a run that fails after writing its log is not.  0 when it exited with
 * status 0, the output file then removed; else a status below 0 with a message recorded
 * that tells how it ended (exit status or signal) and quotes the first ERROR line, or
 * else the last line, of its log and of its output, both kept for the caller to leave in
 * place. */
int mb_bench_lammps_run(const char *program, const char *input, const char *log,
                        const char *vars);

#endif
