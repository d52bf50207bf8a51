/* bench_lammps.h -- LAMMPS as a benchmark peer: one run of an input in a child process,
 * single-threaded, and the CPU time of its run loop read from its log.  Shared by the
 * benchmarks that time LAMMPS beside the library (bench fincham, bench dem). */
#ifndef MB_BENCH_LAMMPS_H
#define MB_BENCH_LAMMPS_H

/* The CPU time of LAMMPS's run loop of `steps` steps, from its log: "Loop time of T on 1
 * procs for S steps" (wall-clock seconds of the steps alone, net of reading the input,
 * creating atoms and the run's set-up) times the "C% CPU use" LAMMPS reports for that
 * loop (its own CPU timer), so that on a shared machine LAMMPS is charged, like the
 * library's codes, only for the time it held a core.  -1 when either line is missing. */
double mb_bench_lammps_loop_cpu(const char *log, long steps);

/* Run `program -in input -log log -screen none` with OMP_NUM_THREADS=1, one process, no
 * shell quoting problems for paths without a single quote; vars is appended to the
 * command line as given (e.g. "-var n 1000"), stdout and stderr discarded.  0 when it
 * exited with status 0. */
int mb_bench_lammps_run(const char *program, const char *input, const char *log,
                        const char *vars);

#endif
