/* mb_twin.h -- same-scheme twins: splitting the error of a double run into round-off and
 * truncation (DESIGN 5b).
 *
 * A scheme runs in double and, from the same initial state and with the same dt, as its
 * MPFR twin (same source, instantiated for MPFR) at `bits` of precision (default 256):
 *   roundoff   = |double run - twin|           (what double arithmetic added)
 *   truncation = |twin - reference|            (what the scheme itself commits)
 * measured on the on-step state (half-step schemes are synchronized by the scheme's own
 * synchronize hook in both runs) at checkpoints, max over nodes.  Per checkpoint and
 * per quantity (position, velocity, orientation angle, angular velocity: Euclidean norm
 * of the difference, max over nodes; state: max abs over every component of x, v, q, w)
 * and the headline metrics
 *   roundoff.max_abs    max over checkpoints of the "state" quantity, double vs twin
 *   truncation.max_abs  the same, twin vs reference
 * with their growth with the number of steps n: the least-squares slope p of
 * log(value) = p log(n) + c over the checkpoints where the value is > 0 (gsl_fit_linear),
 * with its standard error.  At bits = 53 the run uses double's exponent range
 * (mb_mpfr_use_double_range), so a twin without transcendental calls reproduces the
 * double run bit for bit and roundoff is exactly 0. */
#ifndef MB_TWIN_H
#define MB_TWIN_H

#include "mb_reference.h"
#include "mb_stepper.h"

enum {
    MB_TWIN_POSITION, MB_TWIN_VELOCITY, MB_TWIN_ORIENTATION, MB_TWIN_ANGVEL, MB_TWIN_STATE,
    MB_TWIN_NQ
};
extern const char *const mb_twin_quantity_names[MB_TWIN_NQ];

typedef struct mb_twin_request {
    const mb_problem_type *problem;
    const mb_options *params;          /* validated problem parameters (NULL: defaults) */
    const mb_stepper_type *scheme;     /* the integrator, or NULL and scheme_spec: */
    const mb_options *scheme_opts;     /* scheme options (NULL: defaults) */
    const char *scheme_spec;           /* "name[k=v,...]" when scheme is NULL */
    double dt, t_end;                  /* n = ceil(t_end / dt) steps of dt */
    long bits;                         /* twin precision (0: 256); 53 emulates double */
    mb_reference_request reference;    /* truncation reference (kind auto: analytic if the
                                          problem has a closed form, else mpfr) */
    size_t n_checkpoints;              /* 0: 8, geometric in the step count from 1 to n */
    const unsigned long *checkpoints;  /* or explicit ascending step numbers (<= n) */
} mb_twin_request;

typedef struct mb_twin_result {
    int status;                        /* MB_SUCCESS or the status of the failing step */
    unsigned long steps_requested, steps_done;
    size_t n;                          /* checkpoints reached */
    unsigned long *steps;              /* [n] step number of each checkpoint */
    double *t;                         /* [n] time */
    double *roundoff[MB_TWIN_NQ];      /* [n] per quantity */
    double *truncation[MB_TWIN_NQ];    /* [n] per quantity */
    double *reference_error;           /* [n] the reference's own error estimate */
    mb_reference_kind reference_used;
    double roundoff_max_abs, truncation_max_abs;
    double roundoff_growth, roundoff_growth_se;       /* NaN when < 2 points */
    size_t roundoff_growth_points;
    double truncation_growth, truncation_growth_se;
    size_t truncation_growth_points;
    double cpu_double, cpu_twin;       /* seconds spent stepping each run */
} mb_twin_result;

/* Run the pair and measure.  Returns MB_SUCCESS when the measurement could be made
 * (a failing step ends the run early: res->status, res->n tell how far); set-up,
 * reference and allocation failures return their status.  Free with
 * mb_twin_result_free (also after a failure). */
int mb_twin_run(const mb_twin_request *req, mb_twin_result *res);
void mb_twin_result_free(mb_twin_result *res);

/* Least-squares growth exponent of y against n over the points with y > 0. */
void mb_twin_growth(size_t count, const unsigned long *n, const double *y, double *slope,
                    double *se, size_t *used);

#endif
