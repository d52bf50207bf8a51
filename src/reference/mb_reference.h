/* mb_reference.h -- reference solutions that the code under test did not compute.
 *
 * Kinds (DESIGN 5):
 *   analytic  closed forms through GSL (the problem's exact() hook);
 *   ode       the problem's first-order system driven by gsl_odeiv2 rk8pd at tight
 *             tolerances, error from two tolerances (mb_ode_reference.h);
 *   mpfr      Gragg-Bulirsch-Stoer extrapolation in MPFR at >= 113 bits (default 256),
 *             error estimated by step halving (mb_mpfr_reference.h);
 *   auto      analytic when the problem has a closed form, else mpfr.
 * Every reference comes with an estimate of its own error (max abs over the state). */
#ifndef MB_REFERENCE_H
#define MB_REFERENCE_H

#include "mb_problem.h"

typedef enum {
    MB_REF_AUTO = 0, MB_REF_ANALYTIC, MB_REF_ODE, MB_REF_MPFR
} mb_reference_kind;

typedef struct mb_reference_request {
    mb_reference_kind kind;
    long mpfr_bits;          /* precision of the mpfr kind (default 256) */
} mb_reference_request;

/* Parse "analytic|ode|mpfr|mpfr:BITS|auto". */
int mb_reference_parse(const char *text, mb_reference_request *req);
const char *mb_reference_kind_name(mb_reference_kind kind);

/* On-step reference state at time t of problem pt with validated params, written into
 * out (a store shaped as pt->setup() makes it).  *used receives the kind actually used,
 * *error_estimate the estimated max abs error of out (0 for closed forms evaluated in
 * double, whose error is round-off). */
int mb_reference_state(const mb_problem_type *pt, const mb_options *params,
                       const mb_reference_request *req, double t, mb_nodes *out,
                       mb_reference_kind *used, double *error_estimate);

/* The same at n ascending times in one integration (ode and mpfr integrate once through
 * all of them): outs[i] receives the state at times[i], err[i] its estimate. */
int mb_reference_states(const mb_problem_type *pt, const mb_options *params,
                        const mb_reference_request *req, size_t n, const double *times,
                        mb_nodes *const *outs, mb_reference_kind *used, double *err);

/* The kind auto resolves to for problem pt (other kinds unchanged). */
mb_reference_kind mb_reference_resolve(const mb_problem_type *pt, mb_reference_kind kind);

/* The mpfr reference at time t with bits of precision, as MPFR numbers: *out is a new
 * store (free with mb_nodes_mpfr_free) shaped as pt->setup() makes it. */
int mb_reference_state_mpfr(const mb_problem_type *pt, const mb_options *params, double t,
                            long bits, mb_nodes_mpfr **out, double *error_estimate);

#endif
