/* mb_metrics.h -- the measures of the case runner (DESIGN 6), one concept per file.
 *
 *   metric_table.c   every metric as data (metrics.def): name, unit, kind, comparison
 *   error_norms.c    error.position / velocity / orientation / angular_velocity
 *   order_fit.c      order.<quantity>: least-squares slope of log error vs log dt
 *   energy_track.c   energy.max_rel_error / drift_rate / balance_residual
 *   divergence.c     when a run is diverged: non-finite or absurd states and metrics
 *   work_track.c     the work of external loads without an exact form: Gregory's rule
 *   external_work.c  W_ext along a run: exact step works plus that quadrature
 *   mass_properties.c mass.*: mass, centroid, inertia tensor of the built bodies
 *   angmom_track.c   angmom.max_rel_error / direction_error
 *   rotation_track.c quat.norm_error_max, rotation.flip_period, rotation.axis_deviation_max
 *   damping_track.c  damping.ratio / period / amplitude_ratio from successive peaks
 *   error_growth.c   error.growth_exponent: slope of log position error against log t
 *   series_stats.c   statistics of a correlated series: inefficiency, fluctuation, drift,
 *                    and the power-law fit of a statistic across the dt ladder
 *   nve_track.c      energy.fluctuation / drift_per_particle, momentum.max_rel_error
 * Every tracker is fed samples (t, state) in time order and reports at the end; all
 * work in double on on-step states (velocities synchronized for half-step schemes). */
#ifndef MB_METRICS_H
#define MB_METRICS_H

#include <stddef.h>

#include "mb_energy.h"
#include "mb_nodes.h"

/* ---- the metric table (metrics.def) ---- */
typedef enum {
    MB_METRIC_ERROR, MB_METRIC_ORDER, MB_METRIC_DRIFT, MB_METRIC_RATIO, MB_METRIC_COUNT,
    MB_METRIC_STATUS
} mb_metric_kind;
typedef enum { MB_COMPARE_REL, MB_COMPARE_ABS, MB_COMPARE_EXACT } mb_metric_compare;

typedef struct mb_metric_info {
    const char *name, *unit;
    mb_metric_kind kind;
    mb_metric_compare compare;  /* how check compares it with the baseline */
    double tol;                 /* default tolerance of that comparison */
    int one_sided;              /* 1: only a growth of |value| is a regression */
    const char *doc;
    const char *control;        /* its negative control (metrics.def) */
} mb_metric_info;

/* The whole table (n rows) and one row by name (NULL: not a metric). */
const mb_metric_info *mb_metric_infos(size_t *n);
const mb_metric_info *mb_metric_lookup(const char *name);
const char *mb_metric_kind_name(mb_metric_kind k);
/* NULL-terminated list of every metric name (for suggestions). */
const char *const *mb_metric_names(void);
/* 1 when name is in the table. */
int mb_metric_known(const char *name);
/* Metrics renamed to the naming convention: old name and today's.  mb_metric_renamed
 * gives today's name of an old one, NULL for a name that was never renamed. */
typedef struct mb_metric_rename { const char *old_name, *name; } mb_metric_rename;
const mb_metric_rename *mb_metric_renames(size_t *n);
const char *mb_metric_renamed(const char *old_name);
/* 1 for metrics computed over the dt list of an integrator rather than by one run: the
 * orders (order.*) and the fluctuation order (energy.fluctuation_order*). */
int mb_metric_is_aggregate(const char *name);
/* 1 for metrics whose value is a word (kind STATUS). */
int mb_metric_is_word(const char *name);
/* Default baseline tolerance: *relative = 1 for REL, 0 for ABS and EXACT (tol 0). */
void mb_metric_default_tolerance(const char *name, int *relative, double *tol);

/* ---- error norms at t_end: max over nodes of the Euclidean norm ---- */
double mb_error_position(const mb_nodes *run, const mb_nodes *ref);
double mb_error_velocity(const mb_nodes *run, const mb_nodes *ref);
/* Rotation angle of q_ref^-1 q_run (rad, in [0, pi]): 2 atan2(|vec|, |w|). */
double mb_error_orientation(const mb_nodes *run, const mb_nodes *ref);
double mb_error_angular_velocity(const mb_nodes *run, const mb_nodes *ref);
/* Scales for the round-off floor: max over nodes of |x|, |v|, 1, |omega| in ref. */
double mb_scale_position(const mb_nodes *ref);
double mb_scale_velocity(const mb_nodes *ref);
double mb_scale_angular_velocity(const mb_nodes *ref);
/* 1 when some node has finite mass / rotates (see error_norms.c). */
int mb_nodes_translates(const mb_nodes *s);
int mb_nodes_rotates(const mb_nodes *s);

/* ---- order of convergence ---- */
#define MB_ORDER_MAX_POINTS 64
typedef enum {
    MB_ORDER_USED = 0, MB_ORDER_INVALID, MB_ORDER_ROUNDOFF, MB_ORDER_SATURATED
} mb_order_point_status;

typedef struct mb_order_fit {
    size_t n;                         /* points given */
    double dt[MB_ORDER_MAX_POINTS];   /* sorted by increasing dt */
    double err[MB_ORDER_MAX_POINTS];
    mb_order_point_status why[MB_ORDER_MAX_POINTS];
    size_t points;                    /* used in the fit */
    size_t excluded_invalid, excluded_roundoff, excluded_saturated;
    double order;                     /* slope; NaN when points < 2 */
    double stderr_;                   /* standard error of the slope; NaN when points < 3 */
    size_t n_pairwise;                /* consecutive used points */
    double pairwise[MB_ORDER_MAX_POINTS];      /* log(e_j/e_i) / log(dt_j/dt_i) */
    double pairwise_dt[MB_ORDER_MAX_POINTS][2];
    unsigned flags;                   /* MB_ORDER_FLAG_* */
} mb_order_fit;

/* Warnings on a fit (order.<q>.flags): some point excluded; pairwise orders that rise and
 * fall by more than MB_ORDER_MONOTONE_SLACK; used points spanning less than half of the
 * decades of dt asked for. */
enum { MB_ORDER_FLAG_EXCLUDED = 1, MB_ORDER_FLAG_NON_MONOTONE = 2, MB_ORDER_FLAG_SHORT_RANGE = 4 };
#define MB_ORDER_MONOTONE_SLACK 0.1   /* the tolerance of a theory expectation on an order */
/* "none", or the flags joined by '+' ("excluded+non-monotone"); a static string. */
const char *mb_order_flags_word(unsigned flags);

/* Round-off floor K u scale sqrt(steps state_size), u = 2^-53, K = MB_ROUNDOFF_SAFETY
 * (derivation in order_fit.c and doc/results.md). */
#define MB_ROUNDOFF_SAFETY 10.0
double mb_roundoff_floor(double scale, long steps, size_t state_size);

/* Fit the observed order of n (dt, err) pairs; valid[k] = 0 marks a run that did not
 * finish (diverged, failed) or a non-finite error.  Points with err < floor are
 * round-off; outside the longest chain in which error strictly decreases with dt they
 * are saturated.  Returns MB_EINVAL when n > MB_ORDER_MAX_POINTS. */
int mb_order_fit_compute(size_t n, const double *dt, const double *err, const int *valid,
                         double floor, mb_order_fit *fit);
/* The same with one floor per point (floor[k] for dt[k]). */
int mb_order_fit_compute_floors(size_t n, const double *dt, const double *err,
                                const int *valid, const double *floor, mb_order_fit *fit);

/* ---- energy ---- */
typedef struct mb_energy_track {
    double e0, scale;            /* initial total energy and the scale of relative errors */
    double scale_at_start;       /* the scale from t = 0 alone (0 when E0 = E_kin0 = E_pot0 = 0) */
    double max_rel, max_balance; /* max |E - E0 - We| / scale, max |E + Wd - We - E0| / scale */
    double last_rel;             /* (E - E0 - We) / scale at the last sample */
    /* sums for the least-squares slope of (E - E0 - We)/scale against t */
    size_t n;
    double st, sy, stt, sty;
    int dissipative;             /* some work was done by dissipation or external loads */
} mb_energy_track;

void mb_energy_track_begin(mb_energy_track *tr, const mb_energy *e0);
void mb_energy_track_add(mb_energy_track *tr, double t, const mb_energy *e);
/* Energy after the first step: replaces a scale at round-off level (see energy_track.c).
 * Call before adding the sample of step 1. */
void mb_energy_track_first_step(mb_energy_track *tr, const mb_energy *e1);
/* Slope of the relative energy error (E - E0 - W_ext)/scale against time (1/s), NaN with
 * fewer than 2 samples. */
double mb_energy_track_drift(const mb_energy_track *tr);
/* 1 when |E - E0 - W_ext| exceeds factor * scale (blow-up). */
int mb_energy_blown_up(const mb_energy_track *tr, const mb_energy *e, double factor);

/* ---- divergence (divergence.c: the rules, in one place) ---- */
#define MB_DIVERGENCE_FACTOR 1e6
typedef struct mb_divergence_bound {
    double length, speed;        /* the problem's scales L and V */
    double position, velocity;   /* |x|, |v| above these: diverged (INFINITY: no bound) */
} mb_divergence_bound;
/* The bounds of a run of sys (its state at t = 0 and its forces) over [0, t_end];
 * scratch (a store shaped like sys->nodes, overwritten; NULL: one is allocated) holds the
 * forces evaluated at t = 0 and t_end. */
int mb_divergence_bound_of(const mb_system *sys, mb_nodes *scratch, double t_end,
                           mb_divergence_bound *b);
/* 1, with the node and value named in why, when s is not finite or beyond the bounds. */
int mb_divergence_state(const mb_divergence_bound *b, const mb_nodes *s, char *why,
                        size_t size);
/* 1 when the metric measures accuracy (error.*, energy.*, angmom.*) and overflowed. */
int mb_divergence_metric(const char *name, double value);

/* ---- work of external loads by quadrature (work_track.c) ---- */
#define MB_WORK_ORDER 4          /* highest finite difference of the end corrections */
typedef struct mb_work_track {
    double h;                    /* the constant step between samples */
    size_t n;                    /* steps so far */
    double sum;                  /* P_0 + ... + P_{n-1} */
    double head[MB_WORK_ORDER + 1], tail[MB_WORK_ORDER + 1]; /* P_0..P_4 and P_n..P_{n-4} */
} mb_work_track;

/* Start at t = 0 with the power p0 there, samples every h. */
void mb_work_track_begin(mb_work_track *w, double h, double p0);
/* The power after the next step. */
void mb_work_track_add(mb_work_track *w, double p);
/* The work from t = 0 to the last sample: Gregory's rule, O(h^6) for a smooth power. */
double mb_work_track_value(const mb_work_track *w);

/* ---- W_ext along a run (external_work.c) ---- */
typedef struct mb_external_work {
    mb_work_track quadrature;    /* Gregory's rule while the step stays quadrature.h */
    double exact;                /* the summed exact step works */
    double frozen;               /* after a step of another length: the trapezoid rule */
    double p_last;               /* power of the inexact loads after the last step */
    int variable;                /* 1 once a step of another length was taken */
    mb_nodes *before;            /* on-step state at the start of the step; NULL: no
                                    model has an exact step work */
} mb_external_work;

/* Start at t = 0 in the on-step state on, steps of h. */
int mb_external_work_begin(mb_external_work *w, const mb_forces *F, const mb_nodes *on,
                           double h);
/* After a step of h that ended at t in the on-step state on: W_ext so far. */
double mb_external_work_step(mb_external_work *w, const mb_forces *F, const mb_nodes *on,
                             double t, double h);
void mb_external_work_free(mb_external_work *w);

/* ---- mass properties of the built bodies (mass_properties.c) ---- */
typedef struct mb_mass_properties {
    double mass;                 /* M, the sum over nodes of finite mass */
    double centroid[3];          /* X = sum m_i x_i / M */
    double inertia[9];           /* J about X, global axes, row-major */
} mb_mass_properties;

/* The composite of every node of finite mass of s (its current state). */
void mb_mass_properties_of(const mb_nodes *s, mb_mass_properties *p);

/* ---- angular momentum ---- */
/* L = sum m x cross v + R I R^T omega (global frame, about the origin). */
void mb_angmom_total(const mb_nodes *s, double L[3]);
typedef struct mb_angmom_track {
    double L0[3], norm0;
    double max_rel, max_angle;
    double rel, angle;            /* the same at the latest sample (series) */
} mb_angmom_track;
void mb_angmom_track_begin(mb_angmom_track *tr, const mb_nodes *s);
void mb_angmom_track_add(mb_angmom_track *tr, const mb_nodes *s);

/* ---- rotation ---- */
typedef struct mb_rotation_track {
    double max_quat_norm_error;   /* max | |q| - 1 | over nodes and samples so far */
    double omega0[3], omega0_norm;/* node 0, global */
    double max_axis_angle;        /* max angle between omega(t) and omega(0), node 0 */
    int mid_axis;                 /* index of the intermediate principal moment, -1: none */
    int sign;                     /* last confirmed sign of the body omega on mid_axis */
    size_t flips;
    double first_flip, last_flip;
    double last_t;                /* time of the previous sample */
    double prev_w;                /* previous body component on mid_axis */
    double prev_cross;            /* time of the latest zero crossing */
} mb_rotation_track;
void mb_rotation_track_begin(mb_rotation_track *tr, const mb_nodes *s, double t);
void mb_rotation_track_add(mb_rotation_track *tr, const mb_nodes *s, double t);
/* Mean time between flips of the intermediate-axis component; NaN with < 2 flips. */
double mb_rotation_flip_period(const mb_rotation_track *tr);

/* ---- damping (logarithmic decrement) ---- */
#define MB_DAMPING_MAX_PEAKS 4096
typedef struct mb_damping_track {
    size_t n_peaks;
    double peak_t[MB_DAMPING_MAX_PEAKS], peak_a[MB_DAMPING_MAX_PEAKS];
    double t[3], y[3];            /* the last three samples */
    size_t seen;
} mb_damping_track;
typedef struct mb_damping_result {
    size_t peaks;                 /* positive peaks found */
    double ratio;                 /* zeta = delta / sqrt(4 pi^2 + delta^2) */
    double period;                /* mean time between successive peaks */
    double amplitude_ratio;       /* mean A_{n+1} / A_n per cycle */
} mb_damping_result;
void mb_damping_track_begin(mb_damping_track *tr);
void mb_damping_track_add(mb_damping_track *tr, double t, double y);
/* Returns MB_EINVAL (result NaN) with fewer than 2 positive peaks. */
int mb_damping_result_of(const mb_damping_track *tr, mb_damping_result *res);
/* Damping ratio of a logarithmic decrement delta (per cycle). */
double mb_damping_ratio_of_decrement(double delta);

/* ---- growth of the error in time (error_growth.c) ---- */
#define MB_GROWTH_MAX_POINTS 2048
typedef struct mb_growth_track {
    size_t nodes;
    double t_min;                 /* samples before t_min are not kept */
    size_t n, cap;
    double *t;                    /* sample times, ascending */
    double *x;                    /* positions, 3 nodes per sample */
    size_t stride, seen;          /* every stride-th sample of the window is kept ... */
    int tail;                     /* ... and the newest one (t_end), in the last slot */
} mb_growth_track;
void mb_growth_track_begin(mb_growth_track *tr, size_t nodes, double t_min);
/* Keep the positions of s at t (when t >= t_min).  At most 2 MB_GROWTH_MAX_POINTS + 2
 * samples are held: when full, every other one is dropped and the stride doubles
 * (evenly spread samples stay evenly spread; the newest is always kept).  MB_ENOMEM on
 * allocation failure. */
int mb_growth_track_add(mb_growth_track *tr, double t, const mb_nodes *s);
/* Indices (into the kept samples) of at most MB_GROWTH_MAX_POINTS samples evenly spread
 * over the window, first and last included; returns their count. */
size_t mb_growth_track_select(const mb_growth_track *tr, size_t *index);
/* max over nodes of |x_k - x_ref| of kept sample k. */
double mb_growth_track_error(const mb_growth_track *tr, size_t k, const mb_nodes *ref);
void mb_growth_track_free(mb_growth_track *tr);

typedef struct mb_error_growth {
    size_t points;                /* used in the fit */
    size_t excluded_transient;    /* t < t_min (or t <= 0) */
    size_t excluded_roundoff;     /* err < floor (or err = 0) */
    size_t excluded_invalid;      /* err not finite */
    double t_first, t_last;       /* span of the used points */
    double exponent;              /* slope of log err against log t; NaN with < 2 points */
    double stderr_;               /* sqrt(cov11); NaN with < 3 points */
} mb_error_growth;
/* Least-squares growth exponent of n samples (t, err). */
int mb_error_growth_fit(size_t n, const double *t, const double *err, double t_min,
                        double floor, mb_error_growth *g);

/* ---- statistics of a correlated time series (series_stats.c, doc/statistics.md) ---- */
typedef struct mb_stat_value {
    double value, stderr_;        /* the statistic and its standard error */
    double inefficiency;          /* g of the series its error was taken from (>= 1) */
} mb_stat_value;
/* g = 1 + 2 sum (1 - t/n) C(t) up to the first C <= 0 beyond lag 3 (Chodera et al. 2007);
 * 1 for fewer than 3 samples or a constant series. */
double mb_stat_inefficiency(size_t n, const double *y);
/* Population standard deviation of e and its standard error (MB_EINVAL below 4 samples). */
int mb_stat_fluctuation(size_t n, const double *e, mb_stat_value *out);
/* Least-squares slope of e against t and its standard error, widened by sqrt(g) of the
 * residuals (MB_EINVAL below 4 samples or when t spans no time). */
int mb_stat_drift(size_t n, const double *t, const double *e, mb_stat_value *out);

typedef struct mb_power_fit {
    size_t points;
    double order, stderr_;        /* weighted slope of ln s against ln dt, its standard error */
    double chi2, p_value;         /* of the fit (p_value NaN with 2 points) */
    size_t n_pairwise;
    double pairwise[MB_ORDER_MAX_POINTS], pairwise_stderr[MB_ORDER_MAX_POINTS];
    double pairwise_dt[MB_ORDER_MAX_POINTS];   /* the finer dt of each pair */
} mb_power_fit;
/* Fit s = A dt^p to n points in increasing dt with standard errors se (all > 0). */
int mb_stat_power_fit(size_t n, const double *dt, const double *s, const double *se,
                      mb_power_fit *f);

/* ---- statistical invariants of a many-body run (nve_track.c) ---- */
typedef struct mb_nve_track {
    double t_from;                /* start of the statistical window */
    size_t particles;             /* nodes of finite mass */
    double P0[3], p_scale;        /* momentum at t = 0, sum m |v| at t = 0 */
    double momentum_max;          /* max |P - P0| / p_scale so far */
    size_t n, cap;                /* samples in the window */
    double *t, *e;                /* their times, (E - E0 - W_ext) / particles */
} mb_nve_track;
void mb_nve_track_begin(mb_nve_track *tr, const mb_nodes *s, double t_from);
/* One sample: the on-step state s at t and E - E0 - W_ext there (MB_ENOMEM). */
int mb_nve_track_add(mb_nve_track *tr, double t, const mb_nodes *s, double unexplained);
/* Fluctuation and drift of the window (MB_EINVAL with fewer than 4 samples in it). */
int mb_nve_track_result(const mb_nve_track *tr, mb_stat_value *fluctuation, mb_stat_value *drift);
void mb_nve_track_free(mb_nve_track *tr);

#endif
