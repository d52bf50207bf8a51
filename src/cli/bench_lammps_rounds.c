/* bench_lammps_rounds.c -- the interleaved rounds of the library and LAMMPS
 * (bench_lammps_rounds.h). */
#include "bench_lammps_rounds.h"
#include "bench_lammps.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* mb_bench_lammps_charged's run: the caller's run of LAMMPS in one slot */
struct rounds_slot {
    const struct mb_bench_rounds *R;
    int slot;
};

static int run_in_slot(void *ctx, long steps)
{
    const struct rounds_slot *s = ctx;
    return s->R->lammps(s->R->ctx, s->slot, steps);
}

/* The steps of LAMMPS's loop after a library batch of `ours` steps: as many, at least
 * min_steps and at least those of the slot's loop charged before (`charged`) */
static long lammps_steps(const struct mb_bench_rounds *R, long ours, long charged)
{
    long steps = ours > R->min_steps ? ours : R->min_steps;
    return steps > charged ? steps : charged;
}

/* One slot of a round: the library's batch, then LAMMPS's charged loop in slot c (none
 * without LAMMPS); LAMMPS's best and charged[c] updated */
static int rounds_slot_once(const struct mb_bench_rounds *R, int c, double seconds,
                            long *charged, struct mb_bench_peer_best *best, int *failed_slot)
{
    long ours = 0;
    if (R->library(R->ctx, seconds, &ours) < 0.0)
        return MB_BENCH_ROUNDS_LIBRARY_FAILED;
    if (R->lammps == NULL)
        return MB_BENCH_ROUNDS_OK;
    long steps = lammps_steps(R, ours, charged[c]);
    struct rounds_slot s = { R, c };
    double cpu = mb_bench_lammps_charged(run_in_slot, &s, R->log, &steps);
    if (!(cpu > 0.0)) {
        *failed_slot = c;
        return MB_BENCH_ROUNDS_LAMMPS_FAILED;
    }
    charged[c] = steps;
    best->runs++;
    double rate = (double)R->n * (double)steps / cpu;
    if (rate > best->rate) {
        best->rate = rate;
        best->steps = steps;
        best->slot = c;
    }
    return MB_BENCH_ROUNDS_OK;
}

int mb_bench_rounds_run(const struct mb_bench_rounds *R, struct mb_bench_peer_best *best,
                        int *failed_slot)
{
    const int with_lammps = R->lammps != NULL;
    const int slots = with_lammps ? R->slots : 1;
    const double seconds = with_lammps ? fmax(R->slice, MB_BENCH_LAMMPS_MIN_LOOP) : R->slice;
    memset(best, 0, sizeof *best);
    *failed_slot = -1;
    /* the steps of each slot's loop charged the round before */
    long *charged = calloc(slots > 0 ? (size_t)slots : 1, sizeof *charged);
    if (charged == NULL) {
        mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
        return MB_BENCH_ROUNDS_LIBRARY_FAILED;
    }
    int status = MB_BENCH_ROUNDS_OK;
    for (int round = 0; round < R->rounds && status == MB_BENCH_ROUNDS_OK; round++)
        for (int c = 0; c < slots && status == MB_BENCH_ROUNDS_OK; c++)
            status = rounds_slot_once(R, c, seconds, charged, best, failed_slot);
    free(charged);
    return status;
}
