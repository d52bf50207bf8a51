/* run_one.c -- one run of a case: one integrator, one time step, to t_end (DESIGN 6).
 *
 * The problem is set up afresh, the scheme takes exactly N = round(t_end/dt) steps of
 * dt (the case file checked that N dt = t_end to within rounding), and every
 * sample_every steps (and at the end) the on-step state (velocities synchronized for
 * half-step schemes) feeds the energy, angular momentum, rotation and damping trackers.
 * Work of dissipative forces is accumulated every step by the trapezoid rule on their
 * power, W_diss += h/2 (P_diss(t_n) + P_diss(t_n+1)).  Work of external loads (the
 * energy metrics subtract it, doc/metrics.md) is summed step by step where a model knows
 * it exactly (mb_forces_external_work_exact: a constant global force, F.(x+ - x)), and
 * integrated by Gregory's O(h^6) rule on the power of the other models
 * (mb_external_work, src/metrics/external_work.c).
 * A step that fails ends the run: MB_EDIVERGED (NaN/Inf), a state or energy beyond the
 * divergence bounds of the problem and an overflowed accuracy metric (the rules of
 * src/metrics/divergence.c, checked on every on-step state and every replayed row) give
 * status "diverged", any other error "failed"; the step and time are recorded and no
 * metric of the run enters an order fit.
 * With precision mpfr:BITS the MPFR twin of the scheme runs instead; at 53 bits MPFR's
 * exponent range is narrowed to double's for the run (this setting is per thread in
 * MPFR, and the run happens in one thread).  Such runs also split the error of the
 * double run through the reference module (mb_twin_run, src/metrics/mb_twin.h):
 *   roundoff.max_abs   = max over checkpoints of |double run - twin at BITS|
 *   truncation.max_abs = max over checkpoints of |twin at BITS - reference|
 * (max abs over every state component), with their growth exponents in the detail.
 * With error_growth = on the positions of the samples with t >= t_end/10 are kept and,
 * after the run, compared with the reference at those times (one mb_reference_states
 * call) to fit error.growth_exponent (src/metrics/error_growth.c).
 * With statistics_from = T the statistical metrics of the samples with t >= T are added
 * (src/metrics/nve_track.c), with reversibility = on the round trips of reversibility.c.
 * A periodic system (mb_system_periodic: a periodic box or a deforming cell) gets no
 * angular momentum metrics.
 * A run of a plug-in scheme executes in a forked child unless the case says
 * plugins_in_process (mb_run_forked.h). */
#include "mb_clock.h"
#include "mb_cancel.h"
#include "mb_external.h"
#include "mb_metrics.h"
#include "mb_mpfr_extra.h"
#include "mb_probes.h"
#include "mb_run_forked.h"
#include "mb_runner.h"
#include "mb_series.h"
#include "mb_stepper.h"
#include "mb_status.h"
#include "mb_twin.h"
#include "mb_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GROWTH_WINDOW 0.1       /* error growth fitted over t >= t_end / 10 */
#define ROUNDOFF_FLOOR 1e-13    /* relative to the position scale, as for the orders */

const char *mb_run_status_name(mb_run_status s)
{
    switch (s) {
    case MB_RUN_OK: return "ok";
    case MB_RUN_DIVERGED: return "diverged";
    case MB_RUN_FAILED: return "failed";
    case MB_RUN_SKIPPED: return "skipped";
    default: return "interrupted";
    }
}

/* What differs between a double run, a twin run and the replay of a trajectory returned
 * by an outside program (src/external): a replay's step loads the next row. */
typedef struct driver {
    mb_system *sys;            /* the double system (for a twin: forces, work, shell) */
    mb_system_mpfr *tw;        /* the twin, or NULL */
    mb_stepper *st;            /* NULL for a replay */
    mb_nodes *on;              /* on-step state in double */
    mb_nodes_mpfr *on_mpfr;    /* twin's on-step state */
    const mb_trajectory *tr;   /* the replayed trajectory, or NULL */
    size_t row;                /* its row in sys->nodes */
    long stride;               /* its rows are every stride steps (and at the last one) */
    long step, steps;          /* steps replayed so far, of steps */
    int mid_step;              /* its velocities are mid-step values */
    double h;
    mb_divergence_bound bound; /* the problem's divergence bounds (divergence.c) */
    mb_forces_counts in_steps; /* force field work done inside the steps only (the on-step
                                  synchronisation for samples is observation, not cost) */
} driver;

static int drv_advance(driver *d, double h)
{
    if (d->tr) {
        d->step++;
        d->sys->t = (double)d->step * h;
        d->h = h;
        /* between the rows of a strided trajectory the state is not known: the runner
         * samples only where a row is (stride = sample_every) */
        if (d->stride > 1 && d->step % d->stride != 0 && d->step != d->steps)
            return MB_SUCCESS;
        if (d->row + 1 >= d->tr->n_rows)
            MB_ERROR(MB_EFAILED, "trajectory: no row after t = %.17g", d->tr->t[d->row]);
        d->row++;
        mb_trajectory_set_state(d->tr, d->row, d->sys->nodes);
        char why[200];
        /* row k of a CSV trajectory is on line k + 2: the header, then one row a line */
        if (mb_divergence_state(&d->bound, d->sys->nodes, why, sizeof why))
            MB_ERROR(MB_EDIVERGED, "trajectory %s %zu (t = %.17g): %s",
                     d->tr->binary ? "row" : "line", d->tr->binary ? d->row : d->row + 2,
                     d->tr->t[d->row], why);
        return MB_SUCCESS;
    }
    if (d->tw) {
        int s = mb_stepper_step_twin(d->st, d->tw, h);
        d->sys->t = d->tw->t;
        d->sys->dissipated_by_scheme = d->tw->dissipated_by_scheme;
        return s;
    }
    return mb_stepper_step(d->st, d->sys, h);
}

static int drv_step(driver *d, double h)
{
    mb_forces_counts before = mb_forces_get_counts(d->sys->forces);
    int s = drv_advance(d, h);
    mb_forces_counts after = mb_forces_get_counts(d->sys->forces);
    d->in_steps.evaluations += after.evaluations - before.evaluations;
    d->in_steps.jacobians += after.jacobians - before.jacobians;
    return s;
}

static int drv_on_step(driver *d)
{
    if (d->tr) {
        int s = mb_nodes_copy(d->on, d->sys->nodes);
        if (s == MB_SUCCESS && d->mid_step && d->row > 0)
            s = mb_trajectory_synchronize(d->sys->forces, d->on, d->sys->t, d->h, d->tr->rotation);
        return s;
    }
    if (d->tw) {
        int s = mb_stepper_on_step_twin(d->st, d->tw, d->on_mpfr);
        return s == MB_SUCCESS ? mb_nodes_mpfr_get_double(d->on, d->on_mpfr) : s;
    }
    return mb_stepper_on_step(d->st, d->sys, d->on);
}

/* The on-step state, diverged when it is not finite or beyond the problem's bounds. */
static int on_step_checked(driver *d)
{
    int s = drv_on_step(d);
    char why[200];
    if (s == MB_SUCCESS && mb_divergence_state(&d->bound, d->on, why, sizeof why))
        MB_ERROR(MB_EDIVERGED, "at t = %.17g: %s", d->sys->t, why);
    return s;
}

static int needs_power(const mb_forces *F)
{
    for (size_t k = 0; k < F->count; k++)
        if (F->items[k].type->dissipation || F->items[k].type->external_power)
            return 1;
    return 0;
}

/* Trackers of one run. */
typedef struct trackers {
    mb_energy_track energy;
    mb_angmom_track angmom;
    mb_rotation_track rotation;
    mb_damping_track damping, damping_ref;
    int damping_on, damping_ref_on;
    mb_growth_track growth;    /* with c->error_growth */
    mb_mass_properties mass;   /* of the bodies at t = 0 (c->mass_properties) */
    int growth_status;         /* first failure of the growth tracker */
    mb_nodes *ref;             /* reference state for the damping reference signal */
    void *observer;
    const char *work_detail;   /* how W_ext is known, for the energy metrics; NULL: undriven */
    mb_nve_track nve;          /* with c->statistics (nve_track.c) */
    int nve_status;            /* first failure of the statistics tracker */
    int periodic;              /* periodic space: no angular momentum metrics */
    /* a replay of an outside program's trajectory through a force field that keeps a
     * contact history (mb_forces_keeps_history): the energy its tangential springs hold
     * and the work its slip removes live in the program's own history, which its states do
     * not carry; the bench's law evaluated on them would assume the program's law, so no
     * energy metric is reported (doc/peers.md) */
    int energy_unmeasured;
} trackers;

/* Only metrics declared in src/metrics/metrics.def can be produced, and only as many as a
 * result holds: any other name, or one metric too many, ends the run as "failed" with the
 * name in its message. */
void mb_run_add_metric(mb_run_result *r, const char *name, double value, const char *detail)
{
    if (!mb_metric_known(name)) {
        r->status = MB_RUN_FAILED;
        mb_text_format(r->message, sizeof r->message, "metric '%s' is not declared in "
                       "src/metrics/metrics.def", name);
        return;
    }
    if (r->n_metrics == MB_RUN_MAX_METRICS) {
        r->status = MB_RUN_FAILED;
        mb_text_format(r->message, sizeof r->message, "metric '%s' is one too many: a run holds "
                       "at most %d metrics (MB_RUN_MAX_METRICS, src/runner/mb_runner.h)", name,
                       MB_RUN_MAX_METRICS);
        return;
    }
    mb_metric_value *m = &r->metrics[r->n_metrics++];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->value = value;
    if (detail)
        snprintf(m->detail, sizeof m->detail, "%s", detail);
}

/* quat.norm_error_max over [0, t]: the stored norms tracked so far, or the scheme's own
 * figure before normalisation when that is larger (as final_metrics reports it) */
static double quat_norm_error_so_far(const trackers *T, const driver *d)
{
    mb_stepper_stats stats = { 0 };
    if (d->st)
        mb_stepper_get_stats(d->st, &stats);
    return fmax(T->rotation.max_quat_norm_error, stats.quat_norm_error_max);
}

static void keep_sample(mb_run_result *r, double t, const trackers *T, const mb_energy *e,
                        const driver *d)
{
    const mb_nodes *on = d->on;
    mb_series_sample s;
    s.t = t;
    s.energy_rel = (e->total - T->energy.e0) / T->energy.scale;
    s.balance_rel = (e->total + e->dissipated - e->external - T->energy.e0) / T->energy.scale;
    memcpy(s.x, on->x, sizeof s.x);
    memcpy(s.v, on->v, sizeof s.v);
    int has_L = T->angmom.norm0 > 0.0 && !T->periodic;   /* as the metrics */
    s.angmom_rel = has_L ? T->angmom.rel : NAN;
    s.angmom_angle = has_L ? T->angmom.angle : NAN;
    s.quat_norm_max = r->rotates ? quat_norm_error_so_far(T, d) : NAN;
    s.omega_body_mid = r->rotates && T->rotation.mid_axis >= 0 ? T->rotation.prev_w : NAN;
    mb_series_offer(r, &s);
}

static double damping_signal(const mb_case *c, const mb_nodes *s)
{
    return s->x[3 * (size_t)c->damping_node + (size_t)c->damping_axis];
}

static void sample(const mb_case *c, mb_run_result *r, trackers *T, driver *d, double t,
                   int keep, const mb_energy *e)
{
    mb_energy_track_add(&T->energy, t, e);
    mb_angmom_track_add(&T->angmom, d->on);
    mb_rotation_track_add(&T->rotation, d->on, t);
    if (T->damping_on)
        mb_damping_track_add(&T->damping, t, damping_signal(c, d->on));
    if (T->damping_ref_on) {
        mb_reference_kind used;
        double est;
        if (mb_reference_state(c->problem, c->params, &c->reference, t, T->ref, &used, &est)
            == MB_SUCCESS)
            mb_damping_track_add(&T->damping_ref, t, damping_signal(c, T->ref));
        else
            T->damping_ref_on = 0;
    }
    if (c->error_growth && T->growth_status == MB_SUCCESS)
        T->growth_status = mb_growth_track_add(&T->growth, t, d->on);
    if (c->statistics && T->nve_status == MB_SUCCESS)
        T->nve_status = mb_nve_track_add(&T->nve, t, d->on, e->total - T->energy.e0 - e->external);
    if (keep)
        keep_sample(r, t, T, e, d);
}

/* How the energy metrics know the work of F's external loads (doc/metrics.md); NULL when
 * F has none. */
static const char *work_detail(const mb_forces *F)
{
    int exact = 0, quadrature = 0;
    for (size_t k = 0; k < F->count; k++) {
        const mb_force_type *t = F->items[k].type;
        exact += t->external_power && t->external_work;
        quadrature += t->external_power && !t->external_work;
    }
    if (quadrature)
        return exact ? "driven: W_ext exact for constant global forces, Gregory's rule O(h^6) "
                       "for the other loads"
                     : "driven: W_ext by Gregory's rule O(h^6)";
    return exact ? "driven: W_ext exact" : NULL;
}

static void begin_trackers(const mb_case *c, mb_run_result *r, trackers *T, driver *d,
                           int keep)
{
    T->work_detail = work_detail(d->sys->forces);
    mb_energy e0 = mb_energy_of(d->sys, d->on);
    mb_energy_track_begin(&T->energy, &e0);
    mb_angmom_track_begin(&T->angmom, d->on);
    mb_rotation_track_begin(&T->rotation, d->on, 0.0);
    mb_damping_track_begin(&T->damping);
    mb_damping_track_begin(&T->damping_ref);
    mb_growth_track_begin(&T->growth, d->on->n, GROWTH_WINDOW * c->t_end);
    T->periodic = mb_system_periodic(d->sys);
    /* a replay with rows every stride steps (outside_rows = samples) cannot integrate the
     * dissipated or external work between its rows: no energy metric of a dissipative or
     * driven system either */
    T->energy_unmeasured = d->tr != NULL && (mb_forces_keeps_history(d->sys->forces)
                                             || (d->stride > 1 && needs_power(d->sys->forces)));
    if (c->statistics) {
        mb_nve_track_begin(&T->nve, d->on, c->statistics_from);
        T->nve_status = mb_nve_track_add(&T->nve, 0.0, d->on, 0.0);
    }
    T->damping_on = c->damping_node >= 0;
    T->damping_ref_on = T->damping_on && c->has_reference && c->problem->exact
                        && c->reference.kind != MB_REF_ODE && c->reference.kind != MB_REF_MPFR;
    if (T->damping_on) {
        mb_damping_track_add(&T->damping, 0.0, damping_signal(c, d->on));
        if (T->damping_ref_on)
            mb_damping_track_add(&T->damping_ref, 0.0, damping_signal(c, d->on));
    }
    if (keep)
        keep_sample(r, 0.0, T, &e0, d);
}

/* The stepping loop.  Returns the status of the run. */
static mb_run_status loop_with(const mb_case *c, double h, long N, mb_run_result *r,
                               trackers *T, driver *d, int keep, mb_external_work *we)
{
    const mb_forces *F = d->sys->forces;
    /* a replay whose rows are every stride steps (outside_rows = samples) has no state
     * between its rows: no work integral (energy_unmeasured), the observer fed the rows */
    int gaps = d->tr != NULL && d->stride > 1;
    int power = needs_power(F) && !gaps, observe = T->observer != NULL;
    long probe = mb_probes_next_step(r, c, h);
    double pd = 0;
    if (power)
        pd = mb_forces_dissipation(F, d->on);
    for (long n = 1; n <= N; n++) {
        if (mb_cancel_requested())
            return MB_RUN_INTERRUPTED;
        int s = drv_step(d, h);
        double t = (double)n * h;
        int sampled = n % c->sample_every == 0 || n == N;
        if (s == MB_SUCCESS && (power || (observe && !gaps) || sampled || n == 1 || n == probe))
            s = on_step_checked(d);
        if (s == MB_SUCCESS && n == probe) {
            mb_probes_keep(r, d->on);
            probe = mb_probes_next_step(r, c, h);
        }
        if (s == MB_SUCCESS && power) {
            double pd1 = mb_forces_dissipation(F, d->on);
            d->sys->work.dissipated += 0.5 * h * (pd + pd1);
            d->sys->work.external = mb_external_work_step(we, F, d->on, t, h);
            pd = pd1;
        }
        if (s == MB_SUCCESS && observe && (sampled || !gaps))
            s = c->problem->observe_step(T->observer, d->sys, d->on);
        if (s == MB_SUCCESS && n == 1) {
            mb_energy e1 = mb_energy_of(d->sys, d->on);
            mb_energy_track_first_step(&T->energy, &e1);
        }
        if (s == MB_SUCCESS && sampled) {
            mb_energy e = mb_energy_of(d->sys, d->on);
            if (mb_energy_blown_up(&T->energy, &e, MB_DIVERGENCE_FACTOR)) {
                s = MB_EDIVERGED;
                mb_text_format(r->message, sizeof r->message, "energy blow-up: |E - E0 - W_ext| "
                               "> %g times the initial energy scale", MB_DIVERGENCE_FACTOR);
            } else {
                sample(c, r, T, d, t, keep, &e);
            }
        }
        r->steps_done = n;
        if (s != MB_SUCCESS) {
            if (r->message[0] == '\0')
                mb_text_format(r->message, sizeof r->message, "%s", mb_last_error());
            r->diverged_step = n;
            r->diverged_time = t;
            return s == MB_EDIVERGED ? MB_RUN_DIVERGED : MB_RUN_FAILED;
        }
    }
    return MB_RUN_OK;
}

static mb_run_status loop(const mb_case *c, double h, long N, mb_run_result *r, trackers *T,
                          driver *d, int keep)
{
    mb_external_work we;
    if (mb_external_work_begin(&we, d->sys->forces, d->on, h) != MB_SUCCESS) {
        mb_text_format(r->message, sizeof r->message, "work of external loads: %s",
                       mb_last_error());
        mb_external_work_free(&we);
        return MB_RUN_FAILED;
    }
    mb_run_status st = loop_with(c, h, N, r, T, d, keep, &we);
    mb_external_work_free(&we);
    return st;
}

static void error_metrics(const mb_case *c, mb_run_result *r, const driver *d, double t)
{
    mb_nodes *ref = mb_nodes_alloc(d->on->n, 53);
    for (int k = 0; k < 4; k++)
        r->err[k] = r->scale[k] = NAN;
    if (ref == NULL)
        return;
    mb_system *init = NULL;
    int s = c->problem->setup(c->params, &init);
    if (s == MB_SUCCESS)
        s = mb_nodes_copy(ref, init->nodes);    /* shape and constants of the problem */
    mb_system_free(init);
    if (s == MB_SUCCESS)
        s = mb_reference_state(c->problem, c->params, &c->reference, t, ref,
                               &r->reference_used, &r->reference_error);
    if (s != MB_SUCCESS) {
        r->status = MB_RUN_FAILED;
        mb_text_format(r->message, sizeof r->message, "reference: %s", mb_last_error());
        mb_nodes_free(ref);
        return;
    }
    r->err[0] = mb_error_position(d->on, ref);
    r->err[1] = mb_error_velocity(d->on, ref);
    r->err[2] = mb_error_orientation(d->on, ref);
    r->err[3] = mb_error_angular_velocity(d->on, ref);
    r->scale[0] = mb_scale_position(ref);
    r->scale[1] = mb_scale_velocity(ref);
    r->scale[2] = 1.0;    /* radians */
    r->scale[3] = mb_scale_angular_velocity(ref);
    mb_nodes_free(ref);
}

/* Rule 4 of divergence.c: an accuracy metric that overflowed makes the run diverged. */
static void overflowed_metrics(mb_run_result *r)
{
    for (size_t k = 0; k < r->n_metrics; k++)
        if (mb_divergence_metric(r->metrics[k].name, r->metrics[k].value)) {
            r->status = MB_RUN_DIVERGED;
            mb_text_format(r->message, sizeof r->message, "%s = %g: the measure overflowed",
                           r->metrics[k].name, r->metrics[k].value);
            r->diverged_step = r->steps_done;
            r->diverged_time = r->t_final;
            r->n_metrics = 0;
            return;
        }
}

static void damping_metrics(mb_run_result *r, const trackers *T)
{
    mb_damping_result num, ref;
    if (mb_damping_result_of(&T->damping, &num) != MB_SUCCESS)
        return;
    mb_run_add_metric(r, "damping.ratio", num.ratio, NULL);
    mb_run_add_metric(r, "damping.amplitude_ratio", num.amplitude_ratio, NULL);
    if (T->damping_ref_on && mb_damping_result_of(&T->damping_ref, &ref) == MB_SUCCESS) {
        char detail[160];
        snprintf(detail, sizeof detail, "reference zeta %.17g, period %.17g", ref.ratio,
                 ref.period);
        mb_run_add_metric(r, "damping.ratio_error", num.ratio - ref.ratio, detail);
        mb_run_add_metric(r, "damping.period_error", (num.period - ref.period) / ref.period, detail);
    }
}

/* energy.fluctuation, energy.drift_per_particle (with their standard errors) and
 * momentum.max_rel_error (nve_track.c, doc/statistics.md); momentum alone when the
 * energy is not the bench's to measure (energy_unmeasured) */
static void statistics_metrics(mb_run_result *r, const trackers *T)
{
    mb_stat_value fl, dr;
    char detail[200];
    mb_run_add_metric(r, "momentum.max_rel_error", T->nve.momentum_max, NULL);
    if (T->energy_unmeasured)
        return;
    if (T->nve_status != MB_SUCCESS || mb_nve_track_result(&T->nve, &fl, &dr) != MB_SUCCESS) {
        mb_text_format(r->message, sizeof r->message, "statistics: %s", mb_last_error());
        mb_clear_error();
        return;
    }
    snprintf(detail, sizeof detail, "%zu samples, t >= %.6g, %zu particles, statistical "
             "inefficiency %.3g", T->nve.n, T->nve.t_from, T->nve.particles, fl.inefficiency);
    mb_run_add_metric(r, "energy.fluctuation", fl.value, detail);
    mb_run_add_metric(r, "energy.fluctuation.stderr", fl.stderr_, detail);
    snprintf(detail, sizeof detail, "95%% confidence interval [%.6g, %.6g] (+- 1.96 stderr), "
             "statistical inefficiency of the residuals %.3g", dr.value - 1.96 * dr.stderr_,
             dr.value + 1.96 * dr.stderr_, dr.inefficiency);
    mb_run_add_metric(r, "energy.drift_per_particle", dr.value, detail);
    mb_run_add_metric(r, "energy.drift_per_particle.stderr", dr.stderr_, detail);
}

static void final_metrics(const mb_case *c, mb_run_result *r, const trackers *T)
{
    static const char *const names[4] = { "error.position", "error.velocity",
                                          "error.orientation", "error.angular_velocity" };
    char detail[160];
    snprintf(detail, sizeof detail, "at t = %.17g against the %s reference", r->t_final,
             mb_reference_kind_name(r->reference_used));
    for (int k = 0; k < 4 && c->has_reference; k++)
        if ((k < 2 && r->translates) || (k >= 2 && r->rotates))
            mb_run_add_metric(r, names[k], r->err[k], detail);
    if (!T->energy_unmeasured) {
        mb_run_add_metric(r, "energy.max_rel_error", T->energy.max_rel, T->work_detail);
        mb_run_add_metric(r, "energy.drift_rate", mb_energy_track_drift(&T->energy),
                          T->work_detail);
        if (T->energy.dissipative)
            mb_run_add_metric(r, "energy.balance_residual", T->energy.max_balance,
                              T->work_detail);
    }
    /* periodic space conserves no angular momentum (doc/statistics.md): not reported */
    if (T->angmom.norm0 > 0.0 && !T->periodic) {
        mb_run_add_metric(r, "angmom.max_rel_error", T->angmom.max_rel, NULL);
        mb_run_add_metric(r, "angmom.direction_error", T->angmom.max_angle, NULL);
    }
    if (r->rotates) {
        mb_run_add_metric(r, "quat.norm_error_max", T->rotation.max_quat_norm_error, NULL);
        if (T->rotation.omega0_norm > 0.0)
            mb_run_add_metric(r, "rotation.axis_deviation_max", T->rotation.max_axis_angle, NULL);
        double fp = mb_rotation_flip_period(&T->rotation);
        if (isfinite(fp)) {
            snprintf(detail, sizeof detail, "%zu flips", T->rotation.flips);
            mb_run_add_metric(r, "rotation.flip_period", fp, detail);
        }
    }
    if (c->damping_node >= 0)
        damping_metrics(r, T);
    if (c->statistics)
        statistics_metrics(r, T);
}

/* Reference states at the kept sample times, shaped like the problem's set-up. */
static mb_nodes **growth_references(const mb_case *c, size_t m, const double *times,
                                    mb_reference_kind *used, double *est)
{
    mb_system *init = NULL;
    mb_nodes **refs = calloc(m, sizeof *refs);
    int s = refs ? c->problem->setup(c->params, &init) : MB_ENOMEM;
    for (size_t k = 0; k < m && s == MB_SUCCESS; k++) {
        refs[k] = mb_nodes_alloc(init->nodes->n, 53);
        s = refs[k] ? mb_nodes_copy(refs[k], init->nodes) : MB_ENOMEM;
    }
    mb_system_free(init);
    if (s == MB_SUCCESS)
        s = mb_reference_states(c->problem, c->params, &c->reference, m, times, refs, used, est);
    if (s != MB_SUCCESS) {
        for (size_t k = 0; refs && k < m; k++)
            mb_nodes_free(refs[k]);
        free(refs);
        return NULL;
    }
    return refs;
}

/* error.growth_exponent and its standard error (error_growth.c). */
static void growth_metrics(const mb_case *c, mb_run_result *r, trackers *T)
{
    const mb_growth_track *g = &T->growth;
    size_t *index = malloc(MB_GROWTH_MAX_POINTS * sizeof *index);
    double *buf = malloc(3 * MB_GROWTH_MAX_POINTS * sizeof *buf);
    size_t m = (index && buf && T->growth_status == MB_SUCCESS) ? mb_growth_track_select(g, index)
                                                                : 0;
    double *times = buf, *err = buf + MB_GROWTH_MAX_POINTS, *est = buf + 2 * MB_GROWTH_MAX_POINTS;
    mb_reference_kind used = MB_REF_AUTO;
    mb_nodes **refs = NULL;
    for (size_t k = 0; k < m; k++)
        times[k] = g->t[index[k]];
    if (m > 0)
        refs = growth_references(c, m, times, &used, est);
    if (refs == NULL) {
        if (r->message[0] == '\0')
            mb_text_format(r->message, sizeof r->message, "error growth: %s",
                           m > 0 || T->growth_status != MB_SUCCESS ? mb_last_error()
                                                             : "no sample after t_end/10");
        free(index);
        free(buf);
        return;
    }
    double scale = 0.0;
    for (size_t k = 0; k < m; k++) {
        err[k] = mb_growth_track_error(g, index[k], refs[k]);
        double sk = mb_scale_position(refs[k]);
        if (sk > scale)
            scale = sk;
        mb_nodes_free(refs[k]);
    }
    free(refs);
    mb_error_growth fit;
    mb_error_growth_fit(m, times, err, GROWTH_WINDOW * c->t_end, ROUNDOFF_FLOOR * scale, &fit);
    char detail[320];
    snprintf(detail, sizeof detail, "%zu of %zu samples, t in [%.6g, %.6g], excluded: %zu "
             "round-off (< %.3g), %zu not finite; %s reference", fit.points, g->n, fit.t_first,
             fit.t_last, fit.excluded_roundoff, ROUNDOFF_FLOOR * scale, fit.excluded_invalid,
             mb_reference_kind_name(used));
    mb_run_add_metric(r, "error.growth_exponent", fit.exponent, detail);
    mb_run_add_metric(r, "error.growth_exponent.stderr", fit.stderr_, detail);
    free(index);
    free(buf);
}

/* mass.*: the bodies as built, from the state at t = 0 (mass_properties.c) */
static void mass_metrics(mb_run_result *r, const mb_mass_properties *p)
{
    static const char *const centroid[3] = { "mass.centroid.x", "mass.centroid.y",
                                             "mass.centroid.z" };
    static const char *const inertia[6] = { "mass.inertia.xx", "mass.inertia.yy",
                                            "mass.inertia.zz", "mass.inertia.xy",
                                            "mass.inertia.xz", "mass.inertia.yz" };
    static const int entry[6] = { 0, 4, 8, 1, 2, 5 };     /* row-major J */
    const char *detail = "the bodies built at t = 0 (nodes of finite mass)";
    mb_run_add_metric(r, "mass.total", p->mass, detail);
    for (int a = 0; a < 3; a++)
        mb_run_add_metric(r, centroid[a], p->centroid[a], detail);
    for (int k = 0; k < 6; k++)
        mb_run_add_metric(r, inertia[k], p->inertia[entry[k]],
                          "about the centre of mass, global axes, at t = 0");
}

static void observer_metrics(const mb_case *c, mb_run_result *r, trackers *T)
{
    if (T->observer == NULL)
        return;
    mb_observation obs;
    memset(&obs, 0, sizeof obs);
    int s = c->problem->observe_end(T->observer, &obs);
    T->observer = NULL;
    if (s != MB_SUCCESS || r->status != MB_RUN_OK)
        return;
    for (size_t k = 0; k < obs.count && k < MB_OBSERVATION_MAX; k++)
        mb_run_add_metric(r, obs.items[k].name, obs.items[k].value, "observed by the problem");
}

static int make_driver(const mb_case *c, const char *spec, driver *d)
{
    memset(d, 0, sizeof *d);
    int s = c->problem->setup(c->params, &d->sys);
    if (s != MB_SUCCESS)
        return s;
    size_t n = d->sys->nodes->n;
    d->on = mb_nodes_alloc(n, 53);
    if (d->on == NULL)
        return MB_ENOMEM;
    if (c->precision_bits > 0) {
        d->tw = mb_system_mpfr_alloc_twin(d->sys, (mpfr_prec_t)c->precision_bits);
        d->on_mpfr = d->tw ? mb_nodes_mpfr_alloc(n, (mpfr_prec_t)c->precision_bits) : NULL;
        if (d->on_mpfr == NULL)
            return MB_ENOMEM;
        d->st = mb_stepper_alloc_twin(spec, d->tw);
    } else {
        d->st = mb_stepper_alloc(spec, d->sys);
    }
    return d->st ? MB_SUCCESS : mb_last_error_code();
}

static void free_driver(driver *d)
{
    mb_stepper_free(d->st);
    mb_nodes_mpfr_free(d->on_mpfr);
    mb_system_mpfr_free(d->tw);
    mb_nodes_free(d->on);
    mb_system_free(d->sys);
}

static void run_driven(const mb_case *c, mb_run_result *r, driver *d, double h, int keep)
{
    trackers T;
    memset(&T, 0, sizeof T);
    /* d->on is filled by drv_on_step just after: its scratch use costs no memory */
    int s = mb_divergence_bound_of(d->sys, d->on, c->t_end, &d->bound);
    if (s == MB_SUCCESS)
        s = drv_on_step(d);
    if (s == MB_SUCCESS && c->problem->observe_begin)
        s = c->problem->observe_begin(&T.observer, c->params, d->sys);
    if (s == MB_SUCCESS && T.observer)
        s = c->problem->observe_step(T.observer, d->sys, d->on);
    if (s != MB_SUCCESS) {
        r->status = MB_RUN_FAILED;
        mb_text_format(r->message, sizeof r->message, "%s", mb_last_error());
        if (T.observer)
            observer_metrics(c, r, &T);
        return;
    }
    r->translates = mb_nodes_translates(d->on);
    mb_mass_properties_of(d->on, &T.mass);
    if (mb_probes_begin(r, c, d->on->n) != MB_SUCCESS) {
        r->status = MB_RUN_FAILED;
        mb_text_format(r->message, sizeof r->message, "%s", mb_last_error());
        return;
    }
    if (mb_probes_next_step(r, c, h) == 0)
        mb_probes_keep(r, d->on);       /* a probe at t = 0: the initial state */
    /* torques at t = 0, or a model that writes torques later (frictional contacts),
     * decide whether the problem rotates (on is a scratch copy) */
    if (mb_forces_eval(d->sys->forces, d->on, 0.0) == MB_SUCCESS)
        r->rotates = mb_nodes_rotates(d->on) || mb_forces_torque_later(d->sys->forces);
    r->state_size = d->on->n * mb_nodes_state_size(r->rotates);
    T.ref = mb_nodes_alloc(d->on->n, 53);
    if (T.ref)
        mb_nodes_copy(T.ref, d->on);
    else
        T.damping_ref_on = 0;
    begin_trackers(c, r, &T, d, keep);
    if (T.ref == NULL)
        T.damping_ref_on = 0;
    r->status = loop(c, h, r->steps, r, &T, d, keep);
    r->t_final = (double)r->steps_done * h;
    /* loads whose power is all conservative (an expression force with a potential of
     * position and orientation) did no external work: the energy is not driven */
    if (d->sys->work.external == 0.0)
        T.work_detail = NULL;
    /* quat.norm_error_max: schemes that normalise report the norm error before
     * normalisation (DESIGN 6); the tracked stored norm is the fallback */
    mb_stepper_stats stats = { 0 };
    if (d->st)
        mb_stepper_get_stats(d->st, &stats);
    /* a replayed trajectory did its work elsewhere: its counts stay 0 */
    r->cost = (mb_run_cost){ d->in_steps.evaluations, d->in_steps.jacobians,
                             stats.newton_iterations, stats.linear_iterations,
                             stats.constraint_sweeps };
    if (stats.quat_norm_error_max > T.rotation.max_quat_norm_error)
        T.rotation.max_quat_norm_error = stats.quat_norm_error_max;
    if (r->status == MB_RUN_OK) {
        if (c->has_reference)
            error_metrics(c, r, d, r->t_final);
        if (r->status == MB_RUN_OK)
            final_metrics(c, r, &T);
        if (r->status == MB_RUN_OK)
            overflowed_metrics(r);
        if (r->status == MB_RUN_OK && c->error_growth)
            growth_metrics(c, r, &T);
        if (r->status == MB_RUN_OK && c->mass_properties)
            mass_metrics(r, &T.mass);
    }
    observer_metrics(c, r, &T);
    mb_growth_track_free(&T.growth);
    mb_nve_track_free(&T.nve);
    mb_nodes_free(T.ref);
}

static void twin_split(const mb_case *c, const char *spec, double h, mb_run_result *r)
{
    const mb_stepper_type *type;
    mb_options *opts;
    if (mb_stepper_parse(spec, &type, &opts) != MB_SUCCESS)
        return;
    mb_twin_request req = { .problem = c->problem, .params = c->params, .scheme = type,
                            .scheme_opts = opts, .dt = h, .t_end = c->t_end,
                            .bits = c->precision_bits, .reference = c->reference };
    mb_twin_result res;
    memset(&res, 0, sizeof res);
    if (mb_twin_run(&req, &res) == MB_SUCCESS && res.status == MB_SUCCESS && res.n > 0) {
        char detail[160];
        snprintf(detail, sizeof detail, "%zu checkpoints, growth n^%.3g (+- %.2g)", res.n,
                 res.roundoff_growth, res.roundoff_growth_se);
        mb_run_add_metric(r, "roundoff.max_abs", res.roundoff_max_abs, detail);
        snprintf(detail, sizeof detail, "%zu checkpoints, growth n^%.3g (+- %.2g), %s reference",
                 res.n, res.truncation_growth, res.truncation_growth_se,
                 mb_reference_kind_name(res.reference_used));
        mb_run_add_metric(r, "truncation.max_abs", res.truncation_max_abs, detail);
    } else {
        mb_text_format(r->message, sizeof r->message, "round-off/truncation split: %s",
                       mb_last_error());
    }
    mb_twin_result_free(&res);
    mb_options_free(opts);
}

/* The problem set up at t = 0 for a replay: no stepper. */
static int make_replay_driver(const mb_case *c, driver *d)
{
    memset(d, 0, sizeof *d);
    int s = c->problem->setup(c->params, &d->sys);
    if (s != MB_SUCCESS)
        return s;
    d->on = mb_nodes_alloc(d->sys->nodes->n, 53);
    return d->on ? MB_SUCCESS : MB_ENOMEM;
}

/* Whether the problem rotates, decided as run_driven() does: state and torques at t = 0. */
static int problem_rotates(driver *d)
{
    return mb_external_rotation(d->sys, d->on);
}

/* A replay of tr whose rows are every stride steps (1: every step). */
static void run_trajectory_strided(const mb_case *c, size_t dt_index, const mb_trajectory *tr,
                                   int mid_step, int keep_series, long stride, mb_run_result *r)
{
    driver d;
    double h = c->dt[dt_index];
    if (make_replay_driver(c, &d) != MB_SUCCESS) {
        r->status = MB_RUN_FAILED;
        mb_text_format(r->message, sizeof r->message, "%s", mb_last_error());
    } else if (tr->n_nodes != d.sys->nodes->n || (!tr->rotation && problem_rotates(&d))) {
        r->status = MB_RUN_FAILED;
        mb_text_format(r->message, sizeof r->message, "trajectory: %zu nodes%s, the problem has "
                       "%zu%s", tr->n_nodes, tr->rotation ? " with rotation" : "", d.sys->nodes->n,
                       problem_rotates(&d) ? " with rotation" : "");
    } else {
        d.tr = tr;
        d.mid_step = mid_step;
        d.stride = stride;
        d.steps = c->steps[dt_index];
        run_driven(c, r, &d, h, keep_series);
    }
    free_driver(&d);
}

int mb_run_trajectory(const mb_case *c, size_t dt_index, const mb_trajectory *tr, int mid_step,
                      int keep_series, mb_run_result *r)
{
    run_trajectory_strided(c, dt_index, tr, mid_step, keep_series, 1, r);
    return MB_SUCCESS;
}

long mb_run_external_stride(const mb_case *c, const struct mb_system *sys)
{
    if (c->outside_samples)
        return c->sample_every;
    if (needs_power(sys->forces) || c->problem->observe_step)
        return 1;
    return c->sample_every;
}

int mb_run_external_system(const mb_case *c, mb_system **sys, int *rotates)
{
    driver d;
    *sys = NULL;
    int s = make_replay_driver(c, &d);
    if (s == MB_SUCCESS) {
        *rotates = problem_rotates(&d);
        *sys = d.sys;
        d.sys = NULL;
    }
    free_driver(&d);
    return s;
}

void mb_run_external_answer(const mb_case *c, size_t integrator, size_t dt_index, int keep,
                            int process_status, struct mb_trajectory *tr, int mid_step,
                            long stride, mb_run_result *r)
{
    if (process_status == MB_PROCESS_OK) {
        char keep_message[sizeof r->message];
        run_trajectory_strided(c, dt_index, tr, mid_step, keep, stride, r);
        if (r->status != MB_RUN_OK && r->status != MB_RUN_DIVERGED) {
            memcpy(keep_message, r->message, sizeof keep_message);
            mb_text_format(r->message, sizeof r->message, "adapter %s: %s",
                           c->integrators[integrator], keep_message);
        }
    } else {
        r->status = process_status == MB_PROCESS_SKIPPED ? MB_RUN_SKIPPED : MB_RUN_FAILED;
    }
    /* the round trips of an outside program: two more runs of its adapter each */
    if (c->reversibility && r->status == MB_RUN_OK)
        mb_reversibility_metrics(c, c->integrators[integrator], c->dt[dt_index], r->steps, r);
}

/* A run of an outside program: describe, execute, validate, then replay (src/external). */
static void run_external(const mb_case *c, size_t integrator, size_t dt_index, int keep,
                         mb_run_result *r)
{
    mb_system *sys;
    int rotates = 0;
    if (mb_run_external_system(c, &sys, &rotates) != MB_SUCCESS) {
        r->status = MB_RUN_FAILED;
        mb_text_format(r->message, sizeof r->message, "%s", mb_last_error());
        return;
    }
    long stride = mb_run_external_stride(c, sys);
    mb_external_run x = { c->name, c->path, c->integrators[integrator], c->problem, c->params,
                          sys, rotates, c->dt[dt_index], c->t_end, c->external_timeout,
                          c->steps[dt_index], stride };
    mb_trajectory tr;
    int mid_step = 0;
    mb_process_status ps = mb_external_execute(&x, &tr, &mid_step, r->message, sizeof r->message);
    mb_system_free(sys);
    mb_run_external_answer(c, integrator, dt_index, keep, ps, &tr, mid_step, stride, r);
    mb_trajectory_free(&tr);
}

void mb_run_result_begin(const mb_case *c, size_t dt_index, mb_run_result *r)
{
    memset(r, 0, sizeof *r);
    r->steps = c->steps[dt_index];
    for (int k = 0; k < 4; k++)
        r->err[k] = r->scale[k] = NAN;
}

/* The run in this process (in a forked child for a plug-in scheme: mb_run_forked.h). */
static void run_here(const mb_case *c, size_t integrator, size_t dt_index, int keep_series,
                     mb_run_result *r)
{
    mb_run_result_begin(c, dt_index, r);
    double wall0 = mb_wall_seconds(), cpu0 = mb_cpu_seconds();
    double h = c->dt[dt_index];
    if (c->replay || mb_external_is_spec(c->integrators[integrator])) {
        if (c->replay)
            mb_run_trajectory(c, dt_index, c->replay[dt_index], c->replay_mid_step, keep_series, r);
        else
            run_external(c, integrator, dt_index, keep_series, r);
        mb_series_finish(r);
        r->wall = mb_wall_seconds() - wall0;
        r->cpu = mb_cpu_seconds() - cpu0;
        return;
    }
    mb_mpfr_range saved;
    int narrowed = c->precision_bits == 53;
    if (narrowed)
        saved = mb_mpfr_use_double_range();
    driver d;
    if (make_driver(c, c->integrators[integrator], &d) != MB_SUCCESS) {
        r->status = MB_RUN_FAILED;
        mb_text_format(r->message, sizeof r->message, "%s", mb_last_error());
    } else {
        run_driven(c, r, &d, h, keep_series);
    }
    free_driver(&d);
    if (narrowed)
        mb_mpfr_restore_range(saved);
    if (c->precision_bits > 0 && c->has_reference && r->status == MB_RUN_OK)
        twin_split(c, c->integrators[integrator], h, r);
    if (c->reversibility && c->precision_bits == 0 && r->status == MB_RUN_OK)
        mb_reversibility_metrics(c, c->integrators[integrator], h, r->steps, r);
    mb_series_finish(r);
    r->wall = mb_wall_seconds() - wall0;
    r->cpu = mb_cpu_seconds() - cpu0;
}

int mb_run_one(const mb_case *c, size_t integrator, size_t dt_index, int keep_series,
               mb_run_result *r)
{
    if (mb_run_forked_wanted(c, integrator))
        mb_run_forked(c, integrator, dt_index, keep_series, run_here, r);
    else
        run_here(c, integrator, dt_index, keep_series, r);
    return MB_SUCCESS;
}
