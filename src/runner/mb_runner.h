/* mb_runner.h -- running cases: every (case, integrator, dt) run, the metrics derived
 * from the runs, the verdicts of the expectations (DESIGN 6-8, doc/runner.md).
 *
 * mb_runner_run() executes the runs on a pool of threads and collects the results in
 * arrays indexed by (case, integrator, dt), so what is reported never depends on the
 * number of threads or on the order in which runs finish. */
#ifndef MB_RUNNER_H
#define MB_RUNNER_H

#include <signal.h>
#include <stddef.h>

#include "mb_case.h"

typedef enum { MB_RUN_OK = 0, MB_RUN_DIVERGED, MB_RUN_FAILED, MB_RUN_INTERRUPTED,
               MB_RUN_SKIPPED /* an outside program declined or cannot run here */
} mb_run_status;
const char *mb_run_status_name(mb_run_status s);

/* One named value: a number, or a word (status). */
typedef struct mb_metric_value {
    char name[64];
    double value;
    const char *word;        /* static string, or NULL for numbers */
    double at_dt;            /* rows over the dt list tied to one step (pairwise orders:
                                the finer step of the pair); 0 otherwise */
    char detail[320];
} mb_metric_value;

#define MB_RUN_MAX_METRICS 64

/* A time series sample (with --series). */
/* One row of series/: node 0's position and velocity; the angular-momentum errors at the
 * sample (NaN when L0 = 0); for rotating runs the largest | |q| - 1 | so far (before
 * normalisation where the scheme normalises: quat.norm_error_max restricted to [0, t]) and
 * the body-frame angular velocity of node 0 on its intermediate principal axis (NaN
 * without three distinct moments). */
typedef struct mb_series_sample {
    double t, energy_rel, balance_rel, x[3], v[3];
    double angmom_rel, angmom_angle, quat_norm_max, omega_body_mid;
} mb_series_sample;

/* The work of a run, counted inside its steps (deterministic, unlike timings):
 * whole-field force evaluations, Jacobian assemblies and the scheme's iteration counters
 * (mb_stepper_stats).  Twin runs count their MPFR evaluations; their stats hook is empty. */
typedef struct mb_run_cost {
    unsigned long force_evaluations, jacobian_evaluations;
    unsigned long newton_iterations, linear_iterations, constraint_sweeps;
} mb_run_cost;

/* The bytes of a run's message with its terminating NUL: a reason that names a path (an
 * interpreter's, a descriptor's, deep in a build tree) and quotes an outside program's last
 * lines fits; a longer one is cut and ends with MB_TEXT_CUT_MARK, "...[cut]" (mb_text.h). */
#define MB_RUN_MESSAGE 1024

typedef struct mb_run_result {
    mb_run_status status;
    char message[MB_RUN_MESSAGE];
    long steps;              /* steps asked (round(t_end/dt)) */
    long steps_done;
    long diverged_step;      /* step that failed or blew up (0: none) */
    double diverged_time;
    double t_final;
    mb_reference_kind reference_used;
    double reference_error;  /* error estimate of the reference */
    /* errors and their scales (NaN when the run did not finish) */
    double err[4], scale[4]; /* position, velocity, orientation, angular velocity */
    int translates, rotates;
    size_t state_size;       /* doubles in the state advanced: 6 per node, 13 if it rotates */
    size_t n_metrics;
    mb_metric_value metrics[MB_RUN_MAX_METRICS];
    mb_run_cost cost;
    double wall, cpu;        /* seconds, of this run */
    /* with --repeat N: minimum and median over the N runs (N = 1: this run's times) */
    double wall_min, wall_median, cpu_min, cpu_median;
    int repeats;
    size_t n_series, cap_series;
    mb_series_sample *series;
    int series_incomplete;   /* a sample could not be kept (out of memory) */
    long series_offered, series_stride;   /* decimation (mb_series.h) */
    int series_held;         /* series[n_series] holds the last offer, skipped so far */
    int not_run;             /* left to another shard (--shard): no row in any report */
    /* [run] probe: the on-step state at the case's probe times reached (the first
     * n_probes_kept of them), MB_PROBE_VALUES values per node: x, v, q, omega (global) */
    size_t probe_nodes, n_probes_kept;
    double *probes;          /* n_probes_kept x probe_nodes x MB_PROBE_VALUES, or NULL */
} mb_run_result;

#define MB_PROBE_VALUES 13

/* Results of one case: runs[i * n_dt + j] for integrator i and dt j, and the metrics
 * over the dt list of each integrator (orders). */
typedef struct mb_case_result {
    const mb_case *c;
    mb_run_result *runs;
    size_t *n_agg;                /* per integrator */
    mb_metric_value **agg;        /* per integrator */
} mb_case_result;

#define MB_RUNNER_MAX_REPEAT 1000

typedef struct mb_runner_options {
    int jobs;                     /* threads, >= 1 */
    int progress;                 /* print a progress line on stderr */
    int series;                   /* keep time series */
    int repeat;                   /* runs of each job for its timing, 1..MB_RUNNER_MAX_REPEAT
                                     (0 counts as 1); results come from the first, which
                                     every repetition reproduces bit for bit */
    const unsigned char *select;  /* one flag per run in report order (case, integrator,
                                     dt; mb_shard.h): 0 leaves the run to another shard
                                     (not_run, no orders); NULL runs every one */
} mb_runner_options;

/* Runs stop at the next step and report INTERRUPTED once mb_cancel_requested()
 * (mb_cancel.h) is set, by a caught SIGINT/SIGTERM or a caller. */

/* Run every case; results[k] for cases[k] (allocated, free with mb_case_result_free).
 * Returns MB_EFAILED when interrupted, else MB_SUCCESS (run failures are results). */
int mb_runner_run(mb_case *const *cases, size_t n_cases, const mb_runner_options *opt,
                  mb_case_result **results);
void mb_case_result_free(mb_case_result *r, size_t n);

/* Append metric NAME = VALUE (DETAIL may be NULL) to a run's result.  A name not declared
 * in src/metrics/metrics.def, or a run that already holds MB_RUN_MAX_METRICS metrics, ends
 * the run as failed with the reason in r->message: no metric is dropped silently. */
void mb_run_add_metric(mb_run_result *r, const char *name, double value, const char *detail);
/* reversibility.distance of scheme spec at step h over the case (reversibility.c); a
 * failure leaves the metric out and says why in r->message. */
void mb_reversibility_metrics(const mb_case *c, const char *spec, double h, long steps,
                              mb_run_result *r);
/* The fluctuation order of each integrator over the dt ladder (case_fluctuation.c). */
int mb_case_fluctuation_order(mb_case_result *r);
/* energy.fluctuation_order.flags of the bits 1 below-order, 2 non-power-law (a static
 * string: "none", "below-order", "non-power-law", "below-order+non-power-law"). */
const char *mb_fluctuation_flags_word(unsigned flags);
/* One run (exposed for tests). */
int mb_run_one(const mb_case *c, size_t integrator, size_t dt_index, int keep_series,
               mb_run_result *out);
/* Score a trajectory returned by an outside program (or given to `score`) as run dt_index
 * of case c: its rows are the states after each step of c->dt[dt_index] (struct
 * mb_trajectory, src/external/mb_external.h); mid_step: velocities are mid-step values. */
struct mb_trajectory;
int mb_run_trajectory(const mb_case *c, size_t dt_index, const struct mb_trajectory *tr,
                      int mid_step, int keep_series, mb_run_result *out);
/* A run's result emptied before it starts: steps asked, errors NaN. */
void mb_run_result_begin(const mb_case *c, size_t dt_index, mb_run_result *r);
/* An outside program's run (run_one.c, run_batch.c): the problem at t = 0 as the adapter
 * is told of it, and whether it rotates; then the answer (process_status an
 * mb_process_status, the reason already in r->message) replayed into r. */
struct mb_system;
int mb_run_external_system(const mb_case *c, struct mb_system **sys, int *rotates);
void mb_run_external_answer(const mb_case *c, size_t integrator, size_t dt_index, int keep,
                            int process_status, struct mb_trajectory *tr, int mid_step,
                            long stride, mb_run_result *r);
/* The rows an outside program is asked for: every step (1) when work integrals or an
 * observer need them, else every sample_every steps of the case (a many-body run then
 * returns its samples only, not every step); every sample_every steps whatever they need
 * with [run] outside_rows = samples (the work integrals then go unmeasured). */
long mb_run_external_stride(const mb_case *c, const struct mb_system *sys);
/* Runs of adapters of protocol 2, answered by one invocation (run_batch.c): item k is run
 * (cases[case_index], integrator, dt); the results go to their slots of results, each
 * run's wall time its replay plus an equal share of the invocation. */
typedef struct mb_batch_item { size_t case_index, integrator, dt; } mb_batch_item;
void mb_run_batch(mb_case *const *cases, const mb_batch_item *items, size_t n, int keep_series,
                  mb_case_result *results);
/* The metrics over the dt list (order.<quantity>...) of integrator i of a case. */
int mb_case_aggregate(mb_case_result *r);

/* Verdict of one expectation on one value. */
/* SKIPPED: the run the value would come from was skipped (an outside program declined or
 * cannot run here); it does not count as a failure. */
typedef enum { MB_VERDICT_PASS = 0, MB_VERDICT_FAIL, MB_VERDICT_MISSING, MB_VERDICT_SKIPPED } mb_verdict;
const char *mb_verdict_name(mb_verdict v);
mb_verdict mb_expectation_holds(const mb_expectation *e, const mb_metric_value *m);

/* ---- every verdict of a case (checks.c) ---- */
/* The status of a run as a metric (detail: where and why it stopped), its step count. */
mb_metric_value mb_run_status_value(const mb_run_result *u);
mb_metric_value mb_run_steps_value(const mb_run_result *u);
/* A per-run metric / an order-family metric of integrator a by name, or NULL. */
const mb_metric_value *mb_run_find_metric(const mb_run_result *u, const char *name);
const mb_metric_value *mb_case_find_aggregate(const mb_case_result *r, size_t a,
                                              const char *name);
/* Called once per verdict: expectation e on the value m (NULL: missing) of the run with
 * time step index j (-1: an order over the dt list). */
typedef void (*mb_check_visitor)(void *ctx, const mb_case_result *r, const mb_expectation *e,
                                 long j, const mb_metric_value *m, mb_verdict v);
/* Every [expect] entry of the case in file order, then the implied "status = ok" of each
 * run that stopped early although no entry expects its status (text of such entries:
 * mb_implied_status_text). */
void mb_case_visit_checks(const mb_case_result *r, mb_check_visitor fn, void *ctx);
extern const char *const mb_implied_status_text;

#endif
