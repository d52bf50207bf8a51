/* mb_case.h -- a case file (DESIGN 7): one question asked of some integrators.
 *
 * A case names a problem and its parameters, the integrators to run (spec strings),
 * the time steps, the precision, the reference and the expectations on the metrics.
 * mb_case_load() parses and validates the whole file; every error is reported as
 * "file:line: message" (with a "did you mean" hint for near misses) and nothing is
 * run or written.  The file format is documented in doc/cases.md. */
#ifndef MB_CASE_H
#define MB_CASE_H

#include "mb_problem.h"
#include "mb_reference.h"

/* Comparison of an expectation. */
typedef enum {
    MB_EXPECT_APPROX,  /* value +- tol */
    MB_EXPECT_LT, MB_EXPECT_LE, MB_EXPECT_GT, MB_EXPECT_GE,
    MB_EXPECT_WORD     /* a word: a status (ok | diverged | failed) or order flags */
} mb_expect_op;

typedef struct mb_expectation {
    char *integrator;    /* canonical spec of an integrator listed in [run] */
    char *metric;        /* metric name (DESIGN 6) */
    mb_expect_op op;
    double value, tol;
    char word[40];       /* longest: "excluded+non-monotone+short-range" */
    char *text;          /* "key = value" as written, for reports */
    int line;
    long dt_index;       /* "@DT" selects one time step of the list; -1: every one */
} mb_expectation;

/* Baseline tolerance of [check]: relative or absolute. */
typedef struct mb_tolerance {
    int relative;        /* 1: |new-old| <= tol * max(|old|,|new|); 0: |new-old| <= tol */
    double tol;
} mb_tolerance;

typedef struct mb_check_override {
    char *integrator;    /* canonical spec, or NULL for every integrator */
    char *metric;
    mb_tolerance tolerance;
    int line;
} mb_check_override;

typedef struct mb_case {
    char *path;
    char *name, *description;
    const mb_problem_type *problem;
    mb_options *params;          /* validated problem parameters */
    double t_end;
    mb_reference_request reference;
    int has_reference;           /* 0 with reference = none: no error metrics, no orders */
    size_t n_integrators;
    char **integrators;          /* canonical specs "name" or "name[k=v,...]" */
    size_t n_dt;
    double *dt;                  /* as used: t_end / dt is a whole number of steps */
    long *steps;                 /* round(t_end / dt) */
    long precision_bits;         /* 0: double; else MPFR twin at this precision */
    long sample_every;           /* steps between samples of energy and invariants */
    int outside_samples;         /* [run] outside_rows = samples: an outside program returns
                                    the sampled rows only (no work integrals measured) */
    size_t nodes;                /* node count of the problem as set up (memory estimate) */
    size_t links;                /* its two-node couplings (springs; memory estimate) */
    int damping_node, damping_axis; /* signal of the damping metrics; node -1: none */
    int error_growth;            /* [run] error_growth = on: error.growth_exponent */
    int mass_properties;         /* [run] mass_properties = on: the mass.* metrics */
    size_t n_probes;             /* [run] probe: times at which every run's state is kept */
    double *probe_t;             /* increasing, each on the step grid of every dt */
    int statistics;              /* [run] statistics_from = T given: the statistical metrics
                                    (energy.fluctuation*, energy.drift_per_particle*,
                                    momentum.max_rel_error; doc/statistics.md) */
    double statistics_from;      /* start of their window (time) */
    int reversibility;           /* [run] reversibility = on: reversibility.distance */
    double external_timeout;     /* [run] timeout (s) of outside programs and forked plug-in
                                    runs; 0: the descriptor's, or MB_PLUGIN_TIMEOUT_DEFAULT */
    int plugins_in_process;      /* run --plugins-in-process: plug-in schemes run in this
                                    process, unprotected (mb_run_forked.h) */
    /* `score`: the trajectories to replay, one per dt (owned by the caller), or NULL */
    const struct mb_trajectory *const *replay;
    int replay_mid_step;         /* their velocities are mid-step values */
    size_t n_expect;
    mb_expectation *expect;
    size_t n_check;
    mb_check_override *check;
} mb_case;

/* Parse and validate one case file.  On error returns the status with the message
 * "path:line: ..." in mb_last_error() and *out = NULL. */
int mb_case_load(const char *path, mb_case **out);
void mb_case_free(mb_case *c);

/* Precision label for reports: "double" or "mpfr:BITS" (buf of >= 24 bytes). */
const char *mb_case_precision_label(const mb_case *c, char *buf, size_t size);

/* Split "integrator.metric" where integrator is a listed spec (with brackets) or a
 * listed name; *integrator receives the canonical spec of c, *metric the rest.  Returns
 * MB_ENOTFOUND with a message (no location) when no listed integrator matches. */
int mb_case_split_key(const mb_case *c, const char *key, const char **integrator,
                      const char **metric);

/* Canonical text of an integrator spec: "name[k=v,...]" with only the options that differ
 * from their defaults, in the order of the option table (numbers in their shortest exact
 * form). */
int mb_case_canonical_spec(const char *spec, char *out, size_t size);

/* Parse the value of an [expect] entry into e (op, value, tol, word).  Words are the
 * statuses ok, diverged, failed and the order flags (none, excluded, non-monotone,
 * short-range and their joins, as order.<q>.flags writes them). */
int mb_expect_parse_value(const char *text, mb_expectation *e);
/* 1 when w is a status word (ok, diverged, failed) / an order flags word. */
int mb_expect_status_word(const char *w);
int mb_expect_flags_word(const char *w);
/* Parse "rel 1e-6" | "abs 0.01" into t. */
int mb_tolerance_parse(const char *text, mb_tolerance *t);

#endif
