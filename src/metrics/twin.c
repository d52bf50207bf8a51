/* twin.c -- round-off / truncation split of a double run by its same-scheme MPFR twin
 * (see mb_twin.h). */
#include "mb_twin.h"
#include "mb_mpfr_extra.h"
#include "mb_mpfr_reference.h"
#include "mb_ode_reference.h"
#include "mb_cancel.h"
#include "mb_status.h"

#include <gsl/gsl_fit.h>
#include <gsl/gsl_math.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const mb_twin_quantity_names[MB_TWIN_NQ] = {
    "position", "velocity", "orientation", "angular_velocity", "state"
};

/* ---- differences of two MPFR stores, computed at the wider precision ---- */

struct diff_tmp { mpfr_t a, b, s, w, v[3]; };

static void diff_init(struct diff_tmp *d, mpfr_prec_t prec)
{
    mpfr_inits2(prec, d->a, d->b, d->s, d->w, d->v[0], d->v[1], d->v[2], (mpfr_ptr)0);
}

static void diff_clear(struct diff_tmp *d)
{
    mpfr_clears(d->a, d->b, d->s, d->w, d->v[0], d->v[1], d->v[2], (mpfr_ptr)0);
}

/* |a - b| for 3-vectors */
static double norm_diff3(struct diff_tmp *d, const __mpfr_struct *a, const __mpfr_struct *b)
{
    mpfr_set_zero(d->s, 1);
    for (int k = 0; k < 3; k++) {
        mpfr_sub(d->a, &a[k], &b[k], MPFR_RNDN);
        mpfr_sqr(d->a, d->a, MPFR_RNDN);
        mpfr_add(d->s, d->s, d->a, MPFR_RNDN);
    }
    mpfr_sqrt(d->s, d->s, MPFR_RNDN);
    return mpfr_get_d(d->s, MPFR_RNDN);
}

/* rotation angle of conj(a) (x) b = (a0 b0 + av.bv, a0 bv - b0 av - av x bv):
 * 2 atan2(|vec|, |w|), valid for small and large angles, blind to the sign of q */
static double angle_between(struct diff_tmp *d, const __mpfr_struct *a, const __mpfr_struct *b)
{
    mpfr_mul(d->w, &a[0], &b[0], MPFR_RNDN);
    for (int k = 1; k < 4; k++) {
        mpfr_mul(d->a, &a[k], &b[k], MPFR_RNDN);
        mpfr_add(d->w, d->w, d->a, MPFR_RNDN);
    }
    for (int k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        mpfr_mul(d->v[k], &a[0], &b[1 + k], MPFR_RNDN);
        mpfr_mul(d->a, &b[0], &a[1 + k], MPFR_RNDN);
        mpfr_sub(d->v[k], d->v[k], d->a, MPFR_RNDN);
        mpfr_mul(d->a, &a[1 + k1], &b[1 + k2], MPFR_RNDN);
        mpfr_mul(d->b, &a[1 + k2], &b[1 + k1], MPFR_RNDN);
        mpfr_sub(d->a, d->a, d->b, MPFR_RNDN);
        mpfr_sub(d->v[k], d->v[k], d->a, MPFR_RNDN);
    }
    mpfr_hypot(d->s, d->v[0], d->v[1], MPFR_RNDN);
    mpfr_hypot(d->s, d->s, d->v[2], MPFR_RNDN);
    mpfr_abs(d->w, d->w, MPFR_RNDN);
    mpfr_atan2(d->s, d->s, d->w, MPFR_RNDN);
    return 2.0 * mpfr_get_d(d->s, MPFR_RNDN);
}

static double max_abs_diff(struct diff_tmp *d, const __mpfr_struct *a, const __mpfr_struct *b,
                           size_t count, int negate_b)
{
    double e = 0.0;
    for (size_t k = 0; k < count; k++) {
        if (negate_b)
            mpfr_add(d->a, &a[k], &b[k], MPFR_RNDN);
        else
            mpfr_sub(d->a, &a[k], &b[k], MPFR_RNDN);
        e = fmax(e, fabs(mpfr_get_d(d->a, MPFR_RNDN)));
    }
    return e;
}

/* out[q] = max over nodes of quantity q of a - b */
static void compare(struct diff_tmp *d, const mb_nodes_mpfr *a, const mb_nodes_mpfr *b,
                    double out[MB_TWIN_NQ])
{
    for (int q = 0; q < MB_TWIN_NQ; q++)
        out[q] = 0.0;
    for (size_t i = 0; i < a->n; i++) {
        out[MB_TWIN_POSITION] = fmax(out[MB_TWIN_POSITION], norm_diff3(d, &a->x[3 * i], &b->x[3 * i]));
        out[MB_TWIN_VELOCITY] = fmax(out[MB_TWIN_VELOCITY], norm_diff3(d, &a->v[3 * i], &b->v[3 * i]));
        out[MB_TWIN_ANGVEL] = fmax(out[MB_TWIN_ANGVEL],
                                   norm_diff3(d, &a->omega[3 * i], &b->omega[3 * i]));
        out[MB_TWIN_ORIENTATION] = fmax(out[MB_TWIN_ORIENTATION],
                                        angle_between(d, &a->q[4 * i], &b->q[4 * i]));
        /* q and -q are one rotation: compare with the sign of b that is closer to a */
        mpfr_mul(d->w, &a->q[4 * i], &b->q[4 * i], MPFR_RNDN);
        for (int k = 1; k < 4; k++) {
            mpfr_mul(d->a, &a->q[4 * i + k], &b->q[4 * i + k], MPFR_RNDN);
            mpfr_add(d->w, d->w, d->a, MPFR_RNDN);
        }
        double s = fmax(max_abs_diff(d, &a->x[3 * i], &b->x[3 * i], 3, 0),
                        max_abs_diff(d, &a->v[3 * i], &b->v[3 * i], 3, 0));
        s = fmax(s, max_abs_diff(d, &a->q[4 * i], &b->q[4 * i], 4, mpfr_sgn(d->w) < 0));
        s = fmax(s, max_abs_diff(d, &a->omega[3 * i], &b->omega[3 * i], 3, 0));
        out[MB_TWIN_STATE] = fmax(out[MB_TWIN_STATE], s);
    }
}

void mb_twin_growth(size_t count, const unsigned long *n, const double *y, double *slope,
                    double *se, size_t *used)
{
    double lx[count ? count : 1], ly[count ? count : 1];
    size_t m = 0;
    for (size_t k = 0; k < count; k++)
        if (y[k] > 0.0 && isfinite(y[k]) && n[k] > 0) {
            lx[m] = log((double)n[k]);
            ly[m] = log(y[k]);
            m++;
        }
    *used = m;
    *slope = *se = GSL_NAN;
    if (m < 2)
        return;
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(lx, 1, ly, 1, m, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    *slope = c1;
    /* gsl_fit_linear's covariance assumes unit weights; scale by the residual variance */
    *se = m > 2 ? sqrt(cov11 * sumsq / (double)(m - 2)) : GSL_NAN;
}

/* ---- set-up ---- */

static int checkpoints(const mb_twin_request *req, unsigned long nsteps, mb_twin_result *res)
{
    size_t want = req->checkpoints ? req->n_checkpoints : (req->n_checkpoints ? req->n_checkpoints : 8);
    if (want == 0)
        MB_ERROR(MB_EINVAL, "twin: explicit checkpoints given but n_checkpoints is 0");
    res->steps = calloc(want, sizeof *res->steps);
    if (res->steps == NULL)
        MB_ERROR(MB_ENOMEM, "twin: out of memory");
    size_t m = 0;
    for (size_t k = 0; k < want; k++) {
        unsigned long s;
        if (req->checkpoints) {
            s = req->checkpoints[k];
            if (s == 0 || s > nsteps || (m && s <= res->steps[m - 1]))
                MB_ERROR(MB_EINVAL, "twin: checkpoint %zu (step %lu) must be ascending in [1, %lu]",
                         k, s, nsteps);
        } else {
            double e = want > 1 ? (double)k / (double)(want - 1) : 1.0;
            s = (unsigned long)floor(pow((double)nsteps, e) + 0.5);
            if (s < 1)
                s = 1;
            if (m && s <= res->steps[m - 1])
                continue;
        }
        res->steps[m++] = s;
    }
    res->n = m;
    return MB_SUCCESS;
}

static int result_alloc(mb_twin_result *res, size_t n)
{
    res->t = calloc(n, sizeof(double));
    res->reference_error = calloc(n, sizeof(double));
    int ok = res->t && res->reference_error;
    for (int q = 0; q < MB_TWIN_NQ; q++) {
        res->roundoff[q] = calloc(n, sizeof(double));
        res->truncation[q] = calloc(n, sizeof(double));
        ok = ok && res->roundoff[q] && res->truncation[q];
    }
    if (!ok)
        MB_ERROR(MB_ENOMEM, "twin: out of memory");
    return MB_SUCCESS;
}

void mb_twin_result_free(mb_twin_result *res)
{
    free(res->steps);
    free(res->t);
    free(res->reference_error);
    for (int q = 0; q < MB_TWIN_NQ; q++) {
        free(res->roundoff[q]);
        free(res->truncation[q]);
    }
    memset(res, 0, sizeof *res);
}

static void free_stores(mb_nodes_mpfr **s, size_t n)
{
    if (s == NULL)
        return;
    for (size_t k = 0; k < n; k++)
        mb_nodes_mpfr_free(s[k]);
    free(s);
}

/* Reference states at the checkpoint times, as MPFR stores of precision prec. */
static int references(const mb_twin_request *req, const mb_options *params,
                      const mb_system *sys, mb_twin_result *res, mb_nodes_mpfr **refs)
{
    const mb_problem_type *pt = req->problem;
    size_t n = res->n;
    res->reference_used = mb_reference_resolve(pt, req->reference.kind);
    int st = MB_SUCCESS;
    if (res->reference_used == MB_REF_MPFR) {
        mb_mpfr_reference_opts o = { req->reference.mpfr_bits ? req->reference.mpfr_bits : 256,
                                     0, 0, 0.0, 0 };
        return mb_mpfr_reference(sys, n, res->t, refs, res->reference_error, &o, NULL);
    }
    mb_nodes **d = calloc(n, sizeof *d);
    if (d == NULL)
        MB_ERROR(MB_ENOMEM, "twin: out of memory");
    for (size_t k = 0; k < n && st == MB_SUCCESS; k++) {
        d[k] = mb_nodes_alloc(sys->nodes->n, 53);
        st = d[k] ? mb_nodes_copy(d[k], sys->nodes) : MB_ENOMEM;
    }
    if (st == MB_SUCCESS && res->reference_used == MB_REF_ANALYTIC) {
        if (pt->exact == NULL)
            st = mb_error_record(MB_EUNSUP, __FILE__, __LINE__,
                                 "problem '%s' has no closed form (use ode or mpfr)", pt->name);
        for (size_t k = 0; k < n && st == MB_SUCCESS; k++)
            st = pt->exact(params, res->t[k], d[k]);
    } else if (st == MB_SUCCESS) {
        st = mb_ode_reference(sys, n, res->t, d, res->reference_error, NULL, NULL);
    }
    for (size_t k = 0; k < n && st == MB_SUCCESS; k++)
        st = mb_nodes_mpfr_set_from_double(refs[k], d[k]);
    for (size_t k = 0; k < n; k++)
        mb_nodes_free(d[k]);
    free(d);
    return st;
}

/* ---- the run ---- */

struct pair {
    mb_options *params;      /* validated problem parameters */
    mb_system *sys;
    mb_system_mpfr *tw;
    mb_stepper sd, sm;       /* double scheme and twin (type, opts, state) */
    mb_nodes *on_d;
    mb_nodes_mpfr *on_m, *on_dm;
};

static void pair_free(struct pair *p)
{
    if (p->sd.state)
        p->sd.type->free(p->sd.state);
    if (p->sm.state)
        p->sm.type->free_mpfr(p->sm.state);
    mb_options_free(p->sd.opts);
    mb_options_free(p->params);
    mb_nodes_free(p->on_d);
    mb_nodes_mpfr_free(p->on_m);
    mb_nodes_mpfr_free(p->on_dm);
    mb_system_mpfr_free(p->tw);
    mb_system_free(p->sys);
}

static int pair_alloc(const mb_twin_request *req, mpfr_prec_t bits, struct pair *p)
{
    const mb_stepper_type *type = req->scheme;
    if (type->alloc_mpfr == NULL || type->step_mpfr == NULL)
        MB_ERROR(MB_EUNSUP, "integrator '%s' has no MPFR twin", type->name);
    /* validate against the given type itself (it need not be registered) */
    const mb_problem_type *pt = req->problem;
    char what[160];
    snprintf(what, sizeof what, "problem '%s'", pt->name);
    p->params = req->params ? mb_options_copy(req->params) : mb_options_new();
    if (p->params == NULL)
        MB_ERROR(MB_ENOMEM, "twin: out of memory");
    int st = mb_options_validate(p->params, pt->params, what);
    if (st == MB_SUCCESS)
        st = pt->setup(p->params, &p->sys);
    if (st != MB_SUCCESS)
        return st;
    p->sd.opts = req->scheme_opts ? mb_options_copy(req->scheme_opts) : mb_options_new();
    if (p->sd.opts == NULL)
        MB_ERROR(MB_ENOMEM, "twin: out of memory");
    snprintf(what, sizeof what, "integrator '%s'", type->name);
    st = mb_options_validate(p->sd.opts, type->options, what);
    if (st != MB_SUCCESS)
        return st;
    p->sd.type = p->sm.type = type;
    p->sm.opts = p->sd.opts;
    p->sm.is_twin = 1;
    p->tw = mb_system_mpfr_alloc_twin(p->sys, bits);
    size_t n = p->sys->nodes->n;
    p->on_d = mb_nodes_alloc(n, 53);
    p->on_m = mb_nodes_mpfr_alloc(n, bits);
    p->on_dm = mb_nodes_mpfr_alloc(n, bits > 53 ? bits : 53);
    if (!p->tw || !p->on_d || !p->on_m || !p->on_dm)
        MB_ERROR(MB_ENOMEM, "twin: out of memory");
    st = type->alloc(&p->sd.state, p->sd.opts, p->sys);
    if (st == MB_SUCCESS)
        st = type->alloc_mpfr(&p->sm.state, p->sd.opts, p->tw);
    return st;
}

/* Step both runs to step number `to` (double first, then the twin); CPU time of each is
 * accumulated.  On failure *done is the number of steps both runs completed. */
static int advance(struct pair *p, unsigned long *done, unsigned long to, double dt,
                   mb_twin_result *res)
{
    int st = MB_SUCCESS;
    unsigned long k;
    clock_t c0 = clock();
    for (k = *done; k < to; k++)
        if ((st = mb_cancel_requested() ? mb_cancel_error()
                                        : p->sd.type->step(p->sd.state, p->sys, dt)) != MB_SUCCESS)
            break;
    clock_t c1 = clock();
    res->cpu_double += (double)(c1 - c0) / CLOCKS_PER_SEC;
    if (st != MB_SUCCESS) {
        *done = k;
        return st;
    }
    for (k = *done; k < to; k++)
        if ((st = mb_cancel_requested() ? mb_cancel_error()
                                        : p->sm.type->step_mpfr(p->sm.state, p->tw, dt)) != MB_SUCCESS)
            break;
    res->cpu_twin += (double)(clock() - c1) / CLOCKS_PER_SEC;
    *done = k;
    return st;
}

static void summarize(mb_twin_result *res)
{
    res->roundoff_max_abs = res->truncation_max_abs = 0.0;
    for (size_t k = 0; k < res->n; k++) {
        res->roundoff_max_abs = fmax(res->roundoff_max_abs, res->roundoff[MB_TWIN_STATE][k]);
        res->truncation_max_abs = fmax(res->truncation_max_abs, res->truncation[MB_TWIN_STATE][k]);
    }
    mb_twin_growth(res->n, res->steps, res->roundoff[MB_TWIN_STATE], &res->roundoff_growth,
                   &res->roundoff_growth_se, &res->roundoff_growth_points);
    mb_twin_growth(res->n, res->steps, res->truncation[MB_TWIN_STATE], &res->truncation_growth,
                   &res->truncation_growth_se, &res->truncation_growth_points);
}

static int twin_run(const mb_twin_request *req, mpfr_prec_t bits, mb_twin_result *res)
{
    struct pair p = { 0 };
    mb_nodes_mpfr **refs = NULL;
    unsigned long nsteps = (unsigned long)ceil(req->t_end / req->dt * (1.0 - 1e-12));
    res->steps_requested = nsteps;
    int st = checkpoints(req, nsteps, res);
    if (st == MB_SUCCESS)
        st = result_alloc(res, res->n);
    if (st == MB_SUCCESS)
        st = pair_alloc(req, bits, &p);
    mpfr_prec_t rprec = bits > 256 ? bits : 256;
    if (st == MB_SUCCESS) {
        refs = calloc(res->n, sizeof *refs);
        for (size_t k = 0; refs && k < res->n; k++) {
            res->t[k] = p.sys->t + (double)res->steps[k] * req->dt;
            refs[k] = mb_nodes_mpfr_alloc(p.sys->nodes->n, rprec);
            if (refs[k] == NULL)
                st = MB_ENOMEM;
        }
        if (refs == NULL)
            st = MB_ENOMEM;
    }
    if (st == MB_SUCCESS)
        st = references(req, p.params, p.sys, res, refs);
    size_t nref = res->n;
    struct diff_tmp d;
    diff_init(&d, rprec + 64);
    size_t reached = 0;
    unsigned long done = 0;
    for (size_t k = 0; k < res->n && st == MB_SUCCESS; k++) {
        res->status = advance(&p, &done, res->steps[k], req->dt, res);
        if (res->status != MB_SUCCESS)
            break;
        st = mb_stepper_on_step(&p.sd, p.sys, p.on_d);
        if (st == MB_SUCCESS)
            st = mb_stepper_on_step_twin(&p.sm, p.tw, p.on_m);
        if (st == MB_SUCCESS)
            st = mb_nodes_mpfr_set_from_double(p.on_dm, p.on_d);
        if (st != MB_SUCCESS)
            break;
        double ro[MB_TWIN_NQ], tr[MB_TWIN_NQ];
        compare(&d, p.on_dm, p.on_m, ro);
        compare(&d, p.on_m, refs[k], tr);
        for (int q = 0; q < MB_TWIN_NQ; q++) {
            res->roundoff[q][k] = ro[q];
            res->truncation[q][k] = tr[q];
        }
        reached = k + 1;
    }
    diff_clear(&d);
    res->steps_done = done;
    res->n = reached;
    summarize(res);
    free_stores(refs, nref);
    pair_free(&p);
    return st;
}

static int twin_run_checked(const mb_twin_request *req, mb_twin_result *res);

int mb_twin_run(const mb_twin_request *req, mb_twin_result *res)
{
    memset(res, 0, sizeof *res);
    if (req->scheme != NULL || req->scheme_spec == NULL)
        return twin_run_checked(req, res);
    /* resolve the spec into a type and options, then run with them */
    mb_twin_request r = *req;
    mb_options *opts = NULL;
    int st = mb_stepper_parse(req->scheme_spec, &r.scheme, &opts);
    if (st != MB_SUCCESS)
        return st;
    r.scheme_opts = opts;
    st = twin_run_checked(&r, res);
    mb_options_free(opts);
    return st;
}

static int twin_run_checked(const mb_twin_request *req, mb_twin_result *res)
{
    if (req->problem == NULL || req->scheme == NULL)
        MB_ERROR(MB_EINVAL, "twin: a problem and an integrator are required");
    if (!(req->dt > 0.0) || !isfinite(req->dt) || !(req->t_end > 0.0) || !isfinite(req->t_end))
        MB_ERROR(MB_EDOM, "twin: need finite dt > 0 and t_end > 0 (got %g, %g)", req->dt, req->t_end);
    if (req->t_end / req->dt > 1e9)
        MB_ERROR(MB_EDOM, "twin: t_end / dt = %g steps is more than 1e9", req->t_end / req->dt);
    long bits = req->bits ? req->bits : 256;
    if (bits < 53 || bits > 100000)
        MB_ERROR(MB_EDOM, "twin: precision %ld bits is outside [53, 100000]", bits);
    if (bits != 53)
        return twin_run(req, (mpfr_prec_t)bits, res);
    mb_mpfr_range saved = mb_mpfr_use_double_range();
    int st = twin_run(req, 53, res);
    mb_mpfr_restore_range(saved);
    return st;
}
