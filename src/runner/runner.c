/* runner.c -- running every (case, integrator, dt) on a pool of POSIX threads.
 *
 * Jobs are numbered in report order; each worker takes the next number and writes its
 * result into the slot of that number, so results (and hence reports) do not depend on
 * --jobs or on timing.  With repeat = N each job runs N times in its worker, one after
 * the other, and its timing row gives the minimum and the median of the N wall and CPU
 * times (the minimum is the least disturbed by other processes; the median shows the
 * spread); the results are those of the first run.  A progress line (case, integrator, dt,
 * elapsed, estimated time remaining from the mean wall time per finished run) goes to
 * stderr when asked.  With a selection (--shard) only the selected runs execute and no
 * orders are fitted: merge fits them over every shard's runs.
 *
 * The runs of an adapter of protocol 2 (doc/external.md) are not jobs of their own: every
 * selected run of one descriptor, over all cases and time steps, is an item of one batch
 * job (run_batch.c), which executes the adapter once; batch jobs come first in the queue,
 * being the longest. */
#include "mb_init.h"
#include "mb_clock.h"
#include "mb_cancel.h"
#include "mb_external.h"
#include "mb_runner.h"
#include "mb_status.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct job { size_t case_index, integrator, dt; } job;

/* The runs of one descriptor of protocol 2. */
typedef struct batch {
    char descriptor[4096];
    mb_batch_item *items;
    size_t n;
} batch;

typedef struct pool {
    mb_case *const *cases;
    mb_case_result *results;
    job *jobs;                    /* jobs[k] with case_index == SIZE_MAX: batches[dt] */
    batch *batches;
    size_t n_jobs, n_batches, next, done;
    const mb_runner_options *opt;
    pthread_mutex_t lock;
    double start;
} pool;

static void progress(pool *P, const job *j)
{
    const mb_case *c = P->cases[j->case_index];
    double elapsed = mb_wall_seconds() - P->start;
    double left = P->done ? elapsed / (double)P->done * (double)(P->n_jobs - P->done) : 0.0;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s %s dt=%.6g  elapsed %.1fs, about %.0fs left",
            P->done, P->n_jobs, c->name, c->integrators[j->integrator], c->dt[j->dt],
            elapsed, left);
    fflush(stderr);
}

static double median_of(double *x, size_t n)
{
    gsl_sort(x, 1, n);
    return gsl_stats_median_from_sorted_data(x, 1, n);
}

/* Run job j repeat times: the first run's result, the others only for their times. */
static void run_repeated(const mb_case *c, const job *j, const mb_runner_options *opt,
                         mb_run_result *r)
{
    int asked = opt->repeat > 1 ? opt->repeat : 1, n = 1;
    double wall[MB_RUNNER_MAX_REPEAT], cpu[MB_RUNNER_MAX_REPEAT];
    mb_run_one(c, j->integrator, j->dt, opt->series, r);
    wall[0] = r->wall;
    cpu[0] = r->cpu;
    for (; n < asked && n < MB_RUNNER_MAX_REPEAT && !mb_cancel_requested(); n++) {
        mb_run_result again;
        mb_run_one(c, j->integrator, j->dt, 0, &again);
        wall[n] = again.wall;
        cpu[n] = again.cpu;
        free(again.series);
        free(again.probes);
    }
    r->repeats = n;
    r->wall_min = gsl_stats_min(wall, 1, (size_t)n);
    r->cpu_min = gsl_stats_min(cpu, 1, (size_t)n);
    r->wall_median = median_of(wall, (size_t)n);
    r->cpu_median = median_of(cpu, (size_t)n);
}

static void *worker(void *arg)
{
    pool *P = arg;
    for (;;) {
        pthread_mutex_lock(&P->lock);
        size_t k = P->next < P->n_jobs && !mb_cancel_requested() ? P->next++ : P->n_jobs;
        pthread_mutex_unlock(&P->lock);
        if (k == P->n_jobs)
            break;
        const job *j = &P->jobs[k];
        job last;                 /* a batch's progress names its last run */
        size_t runs = 1;
        if (j->case_index == SIZE_MAX) {
            const batch *b = &P->batches[j->dt];
            mb_run_batch(P->cases, b->items, b->n, P->opt->series, P->results);
            runs = b->n;
            last = (job){ b->items[b->n - 1].case_index, b->items[b->n - 1].integrator,
                          b->items[b->n - 1].dt };
            j = &last;
        } else {
            const mb_case *c = P->cases[j->case_index];
            run_repeated(c, j, P->opt,
                         &P->results[j->case_index].runs[j->integrator * c->n_dt + j->dt]);
        }
        pthread_mutex_lock(&P->lock);
        P->done += runs;
        if (P->opt->progress)
            progress(P, j);
        pthread_mutex_unlock(&P->lock);
    }
    mpfr_free_cache();
    return NULL;
}

/* The batch of integrator a of case c when its adapter speaks protocol 2 (made on first
 * use, at most n of them), else NULL. */
static batch *batch_of(pool *P, const mb_case *c, size_t a, size_t n)
{
    char path[4096];
    if (!mb_external_is_spec(c->integrators[a])
        || mb_external_protocol_of(c->integrators[a], c->path, path, sizeof path) != 2)
        return NULL;
    for (size_t k = 0; k < P->n_batches; k++)
        if (strcmp(P->batches[k].descriptor, path) == 0)
            return &P->batches[k];
    batch *b = P->n_batches < n ? &P->batches[P->n_batches++] : NULL;
    if (b) {
        snprintf(b->descriptor, sizeof b->descriptor, "%s", path);
        b->items = calloc(n, sizeof *b->items);
    }
    return b && b->items ? b : NULL;
}

/* The runs selected (opt->select, every one when NULL); the others are marked not_run.
 * The runs of protocol-2 adapters go to their batches, queued before the other jobs. */
static int make_jobs(pool *P, size_t n_cases)
{
    size_t n = 0, k = 0;
    for (size_t i = 0; i < n_cases; i++)
        n += P->cases[i]->n_integrators * P->cases[i]->n_dt;
    P->jobs = calloc(n ? n : 1, sizeof *P->jobs);
    P->batches = calloc(n ? n : 1, sizeof *P->batches);
    job *single = calloc(n ? n : 1, sizeof *single);
    size_t n_single = 0;
    if (P->jobs == NULL || P->batches == NULL || single == NULL) {
        free(single);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n_cases; i++)
        for (size_t a = 0; a < P->cases[i]->n_integrators; a++) {
            batch *b = batch_of(P, P->cases[i], a, n);
            for (size_t d = 0; d < P->cases[i]->n_dt; d++, k++) {
                if (P->opt->select && !P->opt->select[k])
                    P->results[i].runs[a * P->cases[i]->n_dt + d].not_run = 1;
                else if (b)
                    b->items[b->n++] = (mb_batch_item){ i, a, d };
                else
                    single[n_single++] = (job){ i, a, d };
            }
        }
    for (size_t b = 0; b < P->n_batches; b++)
        if (P->batches[b].n > 0)
            P->jobs[P->n_jobs++] = (job){ SIZE_MAX, 0, b };
    memcpy(P->jobs + P->n_jobs, single, n_single * sizeof *single);
    P->n_jobs += n_single;
    free(single);
    return MB_SUCCESS;
}

static void free_batches(pool *P)
{
    for (size_t k = 0; P->batches && k < P->n_batches; k++)
        free(P->batches[k].items);
    free(P->batches);
}

static int alloc_results(pool *P, size_t n_cases)
{
    P->results = calloc(n_cases ? n_cases : 1, sizeof *P->results);
    if (P->results == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    for (size_t i = 0; i < n_cases; i++) {
        const mb_case *c = P->cases[i];
        P->results[i].c = c;
        P->results[i].runs = calloc(c->n_integrators * c->n_dt + 1, sizeof(mb_run_result));
        P->results[i].n_agg = calloc(c->n_integrators + 1, sizeof(size_t));
        P->results[i].agg = calloc(c->n_integrators + 1, sizeof(mb_metric_value *));
        if (!P->results[i].runs || !P->results[i].n_agg || !P->results[i].agg) {
            mb_case_result_free(P->results, n_cases);
            P->results = NULL;
            MB_ERROR(MB_ENOMEM, "out of memory");
        }
    }
    return MB_SUCCESS;
}

int mb_runner_run(mb_case *const *cases, size_t n_cases, const mb_runner_options *opt,
                  mb_case_result **results)
{
    mb_init();     /* before any worker thread can reach GSL */
    pool P;
    memset(&P, 0, sizeof P);
    P.cases = cases;
    P.opt = opt;
    *results = NULL;
    if (alloc_results(&P, n_cases) != MB_SUCCESS)
        return MB_ENOMEM;
    if (make_jobs(&P, n_cases) != MB_SUCCESS) {
        free_batches(&P);
        free(P.jobs);
        mb_case_result_free(P.results, n_cases);
        return MB_ENOMEM;
    }
    pthread_mutex_init(&P.lock, NULL);
    P.start = mb_wall_seconds();
    int n_threads = opt->jobs < 1 ? 1 : opt->jobs;
    if ((size_t)n_threads > P.n_jobs)
        n_threads = P.n_jobs ? (int)P.n_jobs : 1;
    pthread_t *tid = calloc((size_t)n_threads, sizeof *tid);
    int started = 0;
    for (int k = 0; tid && k < n_threads; k++)     /* tid[0..started) are the live threads */
        if (pthread_create(&tid[started], NULL, worker, &P) == 0)
            started++;
    if (started == 0)
        worker(&P);           /* no thread could start: run here */
    for (int k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    free(tid);
    if (opt->progress)
        fprintf(stderr, "\r\033[K");
    pthread_mutex_destroy(&P.lock);
    free(P.jobs);
    free_batches(&P);
    for (size_t i = 0; i < n_cases && opt->select == NULL; i++)  /* a shard: at merge */
        mb_case_aggregate(&P.results[i]);
    *results = P.results;
    if (mb_cancel_requested())
        MB_ERROR(MB_EFAILED, "interrupted");
    return MB_SUCCESS;
}

void mb_case_result_free(mb_case_result *r, size_t n)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < n; i++) {
        if (r[i].runs && r[i].c)
            for (size_t k = 0; k < r[i].c->n_integrators * r[i].c->n_dt; k++) {
                free(r[i].runs[k].series);
                free(r[i].runs[k].probes);
            }
        free(r[i].runs);
        for (size_t a = 0; r[i].agg && r[i].c && a < r[i].c->n_integrators; a++)
            free(r[i].agg[a]);
        free(r[i].agg);
        free(r[i].n_agg);
    }
    free(r);
}
