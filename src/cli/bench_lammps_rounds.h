/* bench_lammps_rounds.h -- the interleaved rounds of a benchmark that times LAMMPS beside
 * the library (bench fincham, bench dem).
 *
 * In each of `rounds` rounds, for each slot (one of LAMMPS's configurations; a single slot
 * without LAMMPS): a batch of every library code, then one charged run of LAMMPS in the
 * slot's configuration (mb_bench_lammps_charged) of as many steps as the library's
 * reference code took in its batch (at least min_steps, and at least the steps of the
 * slot's run charged the round before, a loop known to be long enough for LAMMPS's CPU
 * timer).  So each code's best is taken over as many timed loops, in the same stretches
 * of the machine's time.  With LAMMPS, every library batch lasts at least
 * MB_BENCH_LAMMPS_MIN_LOOP, as LAMMPS's loops must: a best over short batches would catch
 * a fast stretch of the machine more easily than a best over LAMMPS's long loops. */
#ifndef MB_BENCH_LAMMPS_ROUNDS_H
#define MB_BENCH_LAMMPS_ROUNDS_H

#include <stddef.h>

struct mb_bench_rounds {
    int rounds;
    int slots;                  /* LAMMPS's configurations; 1 and lammps NULL without it */
    size_t n;                   /* bodies a step: rates are body-steps per second */
    long min_steps;             /* the fewest steps of a LAMMPS loop */
    double slice;               /* the least CPU seconds of a library batch */
    void *ctx;
    /* A batch of every library code, each at least `seconds` long, their bests kept by
     * the caller: the reference code's rate (body-steps/s) and *steps its batch's steps,
     * or -1 when a step fails (message recorded) */
    double (*library)(void *ctx, double seconds, long *steps);
    /* A run of LAMMPS of `steps` steps in configuration `slot`, as mb_bench_lammps_run
     * runs it (0 when it went well, else its message recorded); NULL without LAMMPS */
    int (*lammps)(void *ctx, int slot, long steps);
    const char *log;            /* the log each run of LAMMPS writes */
};

/* LAMMPS's best loop over the rounds */
struct mb_bench_peer_best {
    double rate;                /* body-steps/s, 0 before any run */
    long steps;                 /* the steps of that loop */
    int slot;                   /* its configuration */
    int runs;                   /* loops charged in all */
};

enum { MB_BENCH_ROUNDS_OK = 0, MB_BENCH_ROUNDS_LIBRARY_FAILED = 1,
       MB_BENCH_ROUNDS_LAMMPS_FAILED = 2 };

/* The rounds; *best filled.  MB_BENCH_ROUNDS_OK, or which side failed (*failed_slot the
 * slot LAMMPS failed in), the message recorded. */
int mb_bench_rounds_run(const struct mb_bench_rounds *R, struct mb_bench_peer_best *best,
                        int *failed_slot);

#endif
