/* reference.c -- choosing and evaluating a reference solution (see mb_reference.h):
 * analytic through the problem's exact() hook, ode through the GSL rk8pd engine
 * (ode_reference.c), mpfr through the extrapolation engine (mpfr_reference.c). */
#include "mb_reference.h"
#include "mb_reference_cache.h"
#include "mb_mpfr_reference.h"
#include "mb_ode_reference.h"
#include "mb_status.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *mb_reference_kind_name(mb_reference_kind kind)
{
    switch (kind) {
    case MB_REF_ANALYTIC: return "analytic";
    case MB_REF_ODE:      return "ode";
    case MB_REF_MPFR:     return "mpfr";
    default:              return "auto";
    }
}

int mb_reference_parse(const char *text, mb_reference_request *req)
{
    req->mpfr_bits = 256;
    if (!strcmp(text, "auto")) { req->kind = MB_REF_AUTO; return MB_SUCCESS; }
    if (!strcmp(text, "analytic")) { req->kind = MB_REF_ANALYTIC; return MB_SUCCESS; }
    if (!strcmp(text, "ode")) { req->kind = MB_REF_ODE; return MB_SUCCESS; }
    if (!strncmp(text, "mpfr", 4)) {
        req->kind = MB_REF_MPFR;
        if (text[4] == '\0')
            return MB_SUCCESS;
        if (text[4] == ':') {
            char *end;
            long bits = strtol(text + 5, &end, 10);
            if (end != text + 5 && *end == '\0' && bits >= 113 && bits <= 100000) {
                req->mpfr_bits = bits;
                return MB_SUCCESS;
            }
        }
        MB_ERROR(MB_EINVAL, "reference '%s': write mpfr or mpfr:BITS with BITS in [113, 100000]", text);
    }
    MB_ERROR(MB_EINVAL, "unknown reference '%s' (analytic, ode, mpfr[:BITS] or auto)", text);
}

/* The ode and mpfr references integrate the problem's force field; refuse them where the
 * force field does not describe the motion, and say what applies instead. */
static int force_field_applies(const mb_problem_type *pt, mb_reference_kind kind)
{
    const char *instead = pt->exact ? "use analytic" : "no reference applies";
    if (pt->flags & MB_PROBLEM_CONSTRAINED)
        MB_ERROR(MB_EUNSUP, "problem '%s' is constrained, so the force field alone (%s "
                 "reference) does not describe it; %s", pt->name,
                 mb_reference_kind_name(kind), instead);
    if (pt->flags & MB_PROBLEM_HISTORY)
        MB_ERROR(MB_EUNSUP, "problem '%s': its contact law keeps a contact history, which the "
                 "%s reference (stepping back past accepted steps) cannot integrate; %s",
                 pt->name, mb_reference_kind_name(kind), instead);
    if (pt->flags & MB_PROBLEM_SCHEME_DEPENDENT)
        MB_ERROR(MB_EUNSUP, "problem '%s': part of its motion is a scheme option, so the force "
                 "field alone (%s reference) does not describe it; %s", pt->name,
                 mb_reference_kind_name(kind), instead);
    return MB_SUCCESS;
}

/* A law that keeps a contact history may come with a parameter (a granular gas with
 * friction, a sphere-wall impact with mu > 0), not with the problem's type: the field
 * built is asked as well (mb_forces_keeps_history). */
static int history_absent(const mb_problem_type *pt, const mb_system *sys,
                          mb_reference_kind kind)
{
    if (mb_forces_keeps_history(sys->forces))
        MB_ERROR(MB_EUNSUP, "problem '%s': with these parameters its contact law keeps a "
                 "contact history, which the %s reference (stepping back past accepted "
                 "steps) cannot integrate; %s", pt->name, mb_reference_kind_name(kind),
                 pt->exact ? "the closed form (analytic) is the reference where it covers "
                             "these parameters" : "no reference applies");
    return MB_SUCCESS;
}

mb_reference_kind mb_reference_resolve(const mb_problem_type *pt, mb_reference_kind kind)
{
    if (kind == MB_REF_AUTO)
        return pt->exact ? MB_REF_ANALYTIC : MB_REF_MPFR;
    return kind;
}

static int check_store(const mb_system *sys, size_t n)
{
    if (sys->nodes->n != n)
        MB_ERROR(MB_EINVAL, "reference: the output store has %zu nodes, the problem %zu",
                 n, sys->nodes->n);
    return MB_SUCCESS;
}

static int mpfr_states(const mb_system *sys, long bits, size_t n, const double *times,
                       mb_nodes *const *outs, double *err)
{
    mb_nodes_mpfr **m = calloc(n ? n : 1, sizeof *m);
    int st = m ? MB_SUCCESS : MB_ENOMEM;
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++)
        if ((m[i] = mb_nodes_mpfr_alloc(sys->nodes->n, (mpfr_prec_t)bits)) == NULL)
            st = MB_ENOMEM;
    mb_mpfr_reference_opts o = { bits, 0, 0, 0.0, 0 };
    if (st == MB_SUCCESS)
        st = mb_mpfr_reference(sys, n, times, m, err, &o, NULL);
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++)
        st = mb_nodes_mpfr_get_double(outs[i], m[i]);
    for (size_t i = 0; m && i < n; i++)
        mb_nodes_mpfr_free(m[i]);
    free(m);
    return st;
}

/* Error estimate of a closed form evaluated in double at t: its sensitivity to the
 * rounding of t itself, |y(t+) - y(t)| with t+ the next double above t (a phase w t
 * carries an error of order w ulp(t): negligible at t ~ 1, everything at t ~ 1e300),
 * plus one ulp of the largest state component for the rounding of the result.  Max over
 * the components of x, v, omega and q. */
static double max_abs_diff(const double *a, const double *b, size_t n, double *big)
{
    double m = 0.0;
    for (size_t k = 0; k < n; k++) {
        double d = fabs(a[k] - b[k]);
        if (!(d <= m))
            m = d;
        if (fabs(a[k]) > *big)
            *big = fabs(a[k]);
    }
    return m;
}

static int closed_form_estimate(const mb_problem_type *pt, const mb_options *params, double t,
                                const mb_nodes *at_t, double *err)
{
    mb_nodes *next = mb_nodes_alloc(at_t->n, 53);
    int st = next ? mb_nodes_copy(next, at_t) : MB_ENOMEM;
    if (st == MB_SUCCESS)
        st = pt->exact(params, nextafter(t, INFINITY), next);
    if (st == MB_SUCCESS) {
        size_t n = at_t->n;
        double big = 0.0, e = 0.0;
        e = fmax(e, max_abs_diff(at_t->x, next->x, 3 * n, &big));
        e = fmax(e, max_abs_diff(at_t->v, next->v, 3 * n, &big));
        e = fmax(e, max_abs_diff(at_t->omega, next->omega, 3 * n, &big));
        e = fmax(e, max_abs_diff(at_t->q, next->q, 4 * n, &big));
        *err = isfinite(e) ? e + DBL_EPSILON * big : INFINITY;
    }
    mb_nodes_free(next);
    return st;
}

/* A reference state is a finite state: a closed form or integration that overflows
 * (or meets 0 * inf) is refused with the first non-finite component named, never
 * printed or held against a scheme. */
static int first_non_finite(const double *a, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(a[k]))
            return (int)k;
    return -1;
}

static int check_finite_state(const mb_problem_type *pt, double t, const mb_nodes *s)
{
    const struct { const char *name; const double *a; size_t per_node; } part[] = {
        { "x", s->x, 3 }, { "v", s->v, 3 }, { "q", s->q, 4 }, { "omega", s->omega, 3 },
        { "angmom", s->angmom, 3 },
    };
    for (size_t k = 0; k < sizeof part / sizeof part[0]; k++) {
        int at = first_non_finite(part[k].a, part[k].per_node * s->n);
        if (at >= 0)
            MB_ERROR(MB_EDOM, "problem '%s': the reference state is not finite at t = %g "
                              "(node %zu, %s[%zu] = %g): the parameters are outside the range "
                              "the reference can represent in double", pt->name, t,
                     (size_t)at / part[k].per_node, part[k].name, (size_t)at % part[k].per_node,
                     part[k].a[at]);
    }
    return MB_SUCCESS;
}

static int compute_states(const mb_problem_type *pt, const mb_options *params,
                          const mb_reference_request *req, size_t n, const double *times,
                          mb_nodes *const *outs, double *err)
{
    mb_reference_kind kind = mb_reference_resolve(pt, req->kind);
    if (kind == MB_REF_ANALYTIC) {
        if (pt->exact == NULL)
            MB_ERROR(MB_EUNSUP, "problem '%s' has no closed-form solution (use ode or mpfr)", pt->name);
        for (size_t i = 0; i < n; i++) {
            int st = pt->exact(params, times[i], outs[i]);
            if (st == MB_SUCCESS)
                st = check_finite_state(pt, times[i], outs[i]);
            if (st == MB_SUCCESS)
                st = closed_form_estimate(pt, params, times[i], outs[i], &err[i]);
            if (st != MB_SUCCESS)
                return st;
        }
        return MB_SUCCESS;
    }
    int st = force_field_applies(pt, kind);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = NULL;
    st = pt->setup(params, &sys);
    if (st != MB_SUCCESS)
        return st;
    st = history_absent(pt, sys, kind);
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++)
        st = check_store(sys, outs[i]->n);
    if (st == MB_SUCCESS && kind == MB_REF_ODE)
        st = mb_ode_reference(sys, n, times, outs, err, NULL, NULL);
    else if (st == MB_SUCCESS)
        st = mpfr_states(sys, req->mpfr_bits, n, times, outs, err);
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++)
        st = check_finite_state(pt, times[i], outs[i]);
    mb_system_free(sys);
    return st;
}

/* The ode and mpfr kinds go through the cache when one is set (mb_reference_cache.h). */
int mb_reference_states(const mb_problem_type *pt, const mb_options *params,
                        const mb_reference_request *req, size_t n, const double *times,
                        mb_nodes *const *outs, mb_reference_kind *used, double *err)
{
    mb_reference_kind kind = mb_reference_resolve(pt, req->kind);
    int cached = mb_reference_cache_dir() != NULL && kind != MB_REF_ANALYTIC;
    *used = kind;
    for (size_t i = 0; i < n; i++)
        err[i] = 0.0;
    if (cached && mb_reference_cache_get(pt, params, kind, req->mpfr_bits, n, times, outs, err))
        return MB_SUCCESS;
    int st = compute_states(pt, params, req, n, times, outs, err);
    if (st == MB_SUCCESS && cached)
        mb_reference_cache_put(pt, params, kind, req->mpfr_bits, n, times, outs, err);
    return st;
}

int mb_reference_state(const mb_problem_type *pt, const mb_options *params,
                       const mb_reference_request *req, double t, mb_nodes *out,
                       mb_reference_kind *used, double *error_estimate)
{
    mb_nodes *outs[1] = { out };
    return mb_reference_states(pt, params, req, 1, &t, outs, used, error_estimate);
}

int mb_reference_state_mpfr(const mb_problem_type *pt, const mb_options *params, double t,
                            long bits, mb_nodes_mpfr **out, double *error_estimate)
{
    mb_system *sys = NULL;
    *out = NULL;
    int st = force_field_applies(pt, MB_REF_MPFR);
    if (st != MB_SUCCESS)
        return st;
    st = pt->setup(params, &sys);
    if (st != MB_SUCCESS)
        return st;
    if (history_absent(pt, sys, MB_REF_MPFR) != MB_SUCCESS) {
        mb_system_free(sys);
        return MB_EUNSUP;
    }
    mb_nodes_mpfr *m = mb_nodes_mpfr_alloc(sys->nodes->n, (mpfr_prec_t)bits);
    mb_mpfr_reference_opts o = { bits, 0, 0, 0.0, 0 };
    st = m ? mb_mpfr_reference(sys, 1, &t, &m, error_estimate, &o, NULL) : MB_ENOMEM;
    mb_system_free(sys);
    if (st != MB_SUCCESS) {
        mb_nodes_mpfr_free(m);
        return st;
    }
    *out = m;
    return MB_SUCCESS;
}
