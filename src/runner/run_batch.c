/* run_batch.c -- the runs of adapters of protocol 2, answered by one invocation
 * (doc/external.md, section 2b; src/external/external_batch.c).
 *
 * Each run is described as a single run would be (the problem set up at t = 0, whether it
 * rotates), the adapter is executed once for all of them, and each answer is then replayed
 * into its own result exactly as a single run's answer is (mb_run_external_answer): a
 * batch changes how often a package starts, never how its trajectories are judged.  The
 * invocation's wall time is shared equally among its runs; a batch runs once whatever
 * --repeat asks (its timing rows have one repeat). */
#include "mb_external.h"
#include "mb_clock.h"
#include "mb_runner.h"
#include "mb_series.h"
#include "mb_status.h"
#include "mb_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct batch_slot {
    const mb_case *c;
    const mb_batch_item *item;
    mb_run_result *r;
    mb_system *sys;
    long stride;               /* rows every stride steps (mb_run_external_stride) */
} batch_slot;

/* Describe run k; a problem that cannot be set up fails that run alone (*x unset). */
static int describe(batch_slot *b, mb_external_run *x)
{
    const mb_case *c = b->c;
    int rotates = 0;
    size_t i = b->item->integrator, j = b->item->dt;
    if (mb_run_external_system(c, &b->sys, &rotates) != MB_SUCCESS) {
        b->r->status = MB_RUN_FAILED;
        mb_text_format(b->r->message, sizeof b->r->message, "%s", mb_last_error());
        return 0;
    }
    b->stride = mb_run_external_stride(c, b->sys);
    *x = (mb_external_run){ c->name, c->path, c->integrators[i], c->problem, c->params,
                            b->sys, rotates, c->dt[j], c->t_end, c->external_timeout,
                            c->steps[j], b->stride };
    return 1;
}

static void finish(batch_slot *b, double wall, double cpu)
{
    mb_run_result *r = b->r;
    mb_series_finish(r);
    r->wall = r->wall_min = r->wall_median = wall;
    r->cpu = r->cpu_min = r->cpu_median = cpu;
    r->repeats = 1;
}

/* Replay the answer of run k of the batch (or the batch's own status) into its result. */
static void answer(batch_slot *b, mb_external_batch *batch, size_t k, mb_process_status ps,
                   const char *reason, int keep_series, double share)
{
    double wall0 = mb_wall_seconds(), cpu0 = mb_cpu_seconds();
    mb_run_result *r = b->r;
    mb_trajectory tr;
    int mid_step = 0;
    memset(&tr, 0, sizeof tr);
    if (ps == MB_PROCESS_OK)
        ps = mb_external_batch_take(batch, k, &tr, &mid_step, r->message, sizeof r->message);
    else
        mb_text_format(r->message, sizeof r->message, "%s", reason);
    mb_run_external_answer(b->c, b->item->integrator, b->item->dt, keep_series, ps, &tr,
                           mid_step, b->stride, r);
    mb_trajectory_free(&tr);
    finish(b, share + mb_wall_seconds() - wall0,
           mb_cpu_seconds() - cpu0);
}

void mb_run_batch(mb_case *const *cases, const mb_batch_item *items, size_t n, int keep_series,
                  mb_case_result *results)
{
    batch_slot *slot = calloc(n ? n : 1, sizeof *slot);
    mb_external_run *runs = calloc(n ? n : 1, sizeof *runs);
    size_t *of = calloc(n ? n : 1, sizeof *of), m = 0;    /* batch run -> slot */
    for (size_t k = 0; k < n; k++) {
        const mb_batch_item *it = &items[k];
        const mb_case *c = cases[it->case_index];
        mb_run_result *r = &results[it->case_index].runs[it->integrator * c->n_dt + it->dt];
        mb_run_result_begin(c, it->dt, r);
        if (slot == NULL || runs == NULL || of == NULL) {
            r->status = MB_RUN_FAILED;
            mb_text_format(r->message, sizeof r->message, "out of memory");
            continue;
        }
        slot[k] = (batch_slot){ c, it, r, NULL, 1 };
        if (describe(&slot[k], &runs[m]))
            of[m++] = k;
        else
            finish(&slot[k], 0.0, 0.0);
    }
    if (m > 0) {
        char reason[MB_EXTERNAL_REASON];
        mb_external_batch *batch = NULL;
        double wall0 = mb_wall_seconds();
        mb_process_status ps = mb_external_batch_execute(runs, m, &batch, reason, sizeof reason);
        double share = (mb_wall_seconds() - wall0) / (double)m;
        for (size_t k = 0; k < m; k++)
            answer(&slot[of[k]], batch, k, ps, reason, keep_series, share);
        mb_external_batch_free(batch);
    }
    for (size_t k = 0; slot && k < n; k++)
        mb_system_free(slot[k].sys);
    free(slot);
    free(runs);
    free(of);
}
