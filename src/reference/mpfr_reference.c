/* mpfr_reference.c -- Gragg-Bulirsch-Stoer extrapolation in MPFR (see mb_mpfr_reference.h). */
#include "mb_mpfr_reference.h"
#include "mb_ode_reference.h"
#include "mb_ref_rhs.h"
#include "mb_cancel.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef __mpfr_struct real;

/* Guard bits: the engine works at bits + 32 + 2 max_columns so that the rounding errors of
 * the midpoint sums and of the extrapolation stay far below the requested precision and
 * the step-halving estimate measures truncation.  The Aitken-Neville weights of the
 * harmonic sequence grow with the column: measured on the harmonic oscillator at 512 bits
 * (51 columns) with 32 guard bits only, rounding reached 2^63 working ulps, as large as
 * the pass-1 / pass-2 difference; about 1.2 bits per column covers it. */
static mpfr_prec_t guard_bits(int max_columns) { return 32 + 2 * (mpfr_prec_t)max_columns; }

struct gbs {
    mb_refrhs_mpfr *rhs;  /* the system's right-hand side, or */
    mb_mpfr_ode_rhs fn;   /* a caller's (mb_mpfr_ode_span) */
    void *fn_ctx;
    size_t dim;
    mpfr_prec_t prec;
    int kmax;             /* columns 0 .. kmax-1 */
    double tol;
    real *f0, *zp, *zc, *zn, *fz;   /* dim each */
    real *rowa, *rowb;              /* kmax * dim each: T[j-1][.], T[j][.] */
    mpfr_t H, h, h2, a, b;
    unsigned long evals;
};

static real *vec_new(size_t count, mpfr_prec_t prec)
{
    real *v = malloc((count ? count : 1) * sizeof *v);
    for (size_t k = 0; v && k < count; k++)
        mpfr_init2(&v[k], prec);
    return v;
}

static void vec_free(real *v, size_t count)
{
    if (v == NULL)
        return;
    for (size_t k = 0; k < count; k++)
        mpfr_clear(&v[k]);
    free(v);
}

static void vec_copy(real *d, const real *s, size_t count)
{
    for (size_t k = 0; k < count; k++)
        mpfr_set(&d[k], &s[k], MPFR_RNDN);
}

static void gbs_free(struct gbs *g)
{
    vec_free(g->f0, g->dim); vec_free(g->zp, g->dim); vec_free(g->zc, g->dim);
    vec_free(g->zn, g->dim); vec_free(g->fz, g->dim);
    vec_free(g->rowa, g->kmax * g->dim); vec_free(g->rowb, g->kmax * g->dim);
    mpfr_clears(g->H, g->h, g->h2, g->a, g->b, (mpfr_ptr)0);
    mb_refrhs_mpfr_free(g->rhs);
}

/* the work vectors of dimension d (g->prec, g->kmax set) */
static int gbs_vectors(struct gbs *g, size_t d)
{
    g->dim = d;
    g->f0 = vec_new(d, g->prec); g->zp = vec_new(d, g->prec); g->zc = vec_new(d, g->prec);
    g->zn = vec_new(d, g->prec); g->fz = vec_new(d, g->prec);
    g->rowa = vec_new(g->kmax * d, g->prec); g->rowb = vec_new(g->kmax * d, g->prec);
    if (!g->f0 || !g->zp || !g->zc || !g->zn || !g->fz || !g->rowa || !g->rowb) {
        gbs_free(g);
        MB_ERROR(MB_ENOMEM, "mpfr reference: out of memory");
    }
    return MB_SUCCESS;
}

static int gbs_init(struct gbs *g, const mb_nodes_mpfr *proto, const mb_forces *F, int kmax,
                    double tol)
{
    memset(g, 0, sizeof *g);
    g->prec = proto->prec;
    g->kmax = kmax;
    g->tol = tol;
    mpfr_inits2(g->prec, g->H, g->h, g->h2, g->a, g->b, (mpfr_ptr)0);
    g->rhs = mb_refrhs_mpfr_alloc(proto, F);
    if (g->rhs == NULL) {
        mpfr_clears(g->H, g->h, g->h2, g->a, g->b, (mpfr_ptr)0);
        return MB_ENOMEM;
    }
    return gbs_vectors(g, mb_refrhs_mpfr_dim(g->rhs));
}

/* every evaluation polls the cancellation flag: one evaluation of an MPFR right-hand
 * side is far shorter than a second even at 100000 bits on the largest systems that
 * pass the memory estimate */
static int rhs(struct gbs *g, double t, const real *y, real *dy)
{
    if (mb_cancel_requested())
        return mb_cancel_error();
    g->evals++;
    if (g->fn)
        return g->fn(g->fn_ctx, y, dy);
    return mb_refrhs_mpfr_eval(g->rhs, t, y, dy);
}

/* Modified midpoint with n substeps over [t0, t0 + H] (g->H set), f0 = f(y0):
 *   z1 = y0 + h f0,  z_{m+1} = z_{m-1} + 2 h f(z_m),  out = (z_n + z_{n-1} + h f(z_n)) / 2. */
static int midpoint(struct gbs *g, const real *y0, double t0, double Hd, int n, real *out)
{
    size_t d = g->dim;
    mpfr_div_ui(g->h, g->H, (unsigned long)n, MPFR_RNDN);
    mpfr_mul_2ui(g->h2, g->h, 1, MPFR_RNDN);
    real *zp = g->zp, *zc = g->zc, *zn = g->zn;
    for (size_t k = 0; k < d; k++) {
        mpfr_set(&zp[k], &y0[k], MPFR_RNDN);
        mpfr_mul(g->a, g->h, &g->f0[k], MPFR_RNDN);
        mpfr_add(&zc[k], &y0[k], g->a, MPFR_RNDN);
    }
    for (int m = 1; m < n; m++) {
        int st = rhs(g, t0 + Hd * m / n, zc, g->fz);
        if (st != MB_SUCCESS)
            return st;
        for (size_t k = 0; k < d; k++) {
            mpfr_mul(g->a, g->h2, &g->fz[k], MPFR_RNDN);
            mpfr_add(&zn[k], &zp[k], g->a, MPFR_RNDN);
        }
        real *tmp = zp; zp = zc; zc = zn; zn = tmp;
    }
    int st = rhs(g, t0 + Hd, zc, g->fz);
    if (st != MB_SUCCESS)
        return st;
    for (size_t k = 0; k < d; k++) {
        mpfr_mul(g->a, g->h, &g->fz[k], MPFR_RNDN);
        mpfr_add(g->a, g->a, &zc[k], MPFR_RNDN);
        mpfr_add(g->a, g->a, &zp[k], MPFR_RNDN);
        mpfr_div_2ui(&out[k], g->a, 1, MPFR_RNDN);
    }
    g->zp = zp; g->zc = zc; g->zn = zn;
    return MB_SUCCESS;
}

/* max_i |a_i - b_i| / (1 + |a_i|) */
static double scaled_diff(struct gbs *g, const real *a, const real *b)
{
    double e = 0.0;
    for (size_t k = 0; k < g->dim; k++) {
        mpfr_sub(g->a, &a[k], &b[k], MPFR_RNDN);
        double num = fabs(mpfr_get_d(g->a, MPFR_RNDN));
        double den = 1.0 + fabs(mpfr_get_d(&a[k], MPFR_RNDN));
        e = fmax(e, num / den);
    }
    return e;
}

/* One macro step y(t0) -> y(t1) in place.  fixed_k > 0: exactly fixed_k + 1 columns
 * (k = 0 .. fixed_k); fixed_k = 0: adaptive, *k_used receives the converged column, and
 * MB_EMAXITER is returned (y untouched) when no column converges. */
static int gbs_step(struct gbs *g, real *y, double t0, double t1, int fixed_k, int *k_used)
{
    size_t d = g->dim;
    int last = fixed_k > 0 ? fixed_k : g->kmax - 1;
    mpfr_set_d(g->H, t1, MPFR_RNDN);
    mpfr_sub_d(g->H, g->H, t0, MPFR_RNDN);
    int st = rhs(g, t0, y, g->f0);
    if (st != MB_SUCCESS)
        return st;
    real *prev = g->rowa, *cur = g->rowb;
    for (int j = 0; j <= last; j++) {
        unsigned long nj = 2ul * (j + 1);
        st = midpoint(g, y, t0, t1 - t0, (int)nj, &cur[0]);
        if (st != MB_SUCCESS)
            return st;
        for (int k = 1; k <= j; k++) {
            unsigned long nk = 2ul * (j - k + 1);            /* n_{j-k} */
            /* coefficient n_{j-k}^2 / (n_j^2 - n_{j-k}^2), rounded once per (j, k) */
            mpfr_set_ui(g->b, nk * nk, MPFR_RNDN);
            mpfr_div_ui(g->b, g->b, nj * nj - nk * nk, MPFR_RNDN);
            for (size_t i = 0; i < d; i++) {
                real *r = &cur[k * d + i];
                mpfr_sub(g->a, &cur[(k - 1) * d + i], &prev[(k - 1) * d + i], MPFR_RNDN);
                mpfr_mul(g->a, g->a, g->b, MPFR_RNDN);
                mpfr_add(r, &cur[(k - 1) * d + i], g->a, MPFR_RNDN);
            }
        }
        int done = fixed_k > 0 ? j == fixed_k
                               : j >= 2 && scaled_diff(g, &cur[j * d], &cur[(j - 1) * d]) <= g->tol;
        if (done) {
            vec_copy(y, &cur[j * d], d);
            *k_used = j;
            return MB_SUCCESS;
        }
        real *tmp = prev; prev = cur; cur = tmp;
    }
    return MB_EMAXITER;
}

/* Accepted mesh of pass 1. */
struct mesh {
    size_t count, cap;
    double *t1;
    int *k;
};

static int mesh_push(struct mesh *m, double t1, int k)
{
    if (m->count == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        double *t = realloc(m->t1, cap * sizeof *t);
        if (t)
            m->t1 = t;
        int *kk = realloc(m->k, cap * sizeof *kk);
        if (kk)
            m->k = kk;
        if (!t || !kk)
            MB_ERROR(MB_ENOMEM, "mpfr reference: out of memory");
        m->cap = cap;
    }
    m->t1[m->count] = t1;
    m->k[m->count] = k;
    m->count++;
    return MB_SUCCESS;
}

static double growth(int k, int target)
{
    if (k <= target - 3) return 1.6;
    if (k < target) return 1.2;
    if (k == target) return 1.0;
    if (k <= target + 3) return 0.8;
    return 0.6;
}

/* Pass 1: adaptive mesh; the state at every output into ys (n * dim), and for every
 * output the number of mesh steps done when it is reached. */
static int pass_adaptive(struct gbs *g, const mb_mpfr_reference_opts *o, double t0,
                         size_t n, const double *times, real *y, real *ys, size_t *at,
                         struct mesh *m, mb_mpfr_reference_stats *stats)
{
    double t = t0, span = times[n - 1] - t0;
    double hs = o->h0 > 0.0 ? o->h0 : span;
    unsigned long rejected_in_row = 0;
    for (size_t i = 0; i < n; i++) {
        while (t < times[i]) {
            double rest = times[i] - t;
            int clipped = rest <= hs * (1.0 + 1e-9);
            double t1 = clipped ? times[i] : t + hs;
            int k = 0;
            int st = gbs_step(g, y, t, t1, 0, &k);
            if (st == MB_EMAXITER) {
                stats->rejected++;
                hs = 0.5 * (t1 - t);
                if (++rejected_in_row > 80 || !(t + hs > t))
                    MB_ERROR(MB_EMAXITER, "mpfr reference: extrapolation does not converge near "
                             "t = %.17g (macro step %g); is the system smooth?", t, hs);
                continue;
            }
            if (st != MB_SUCCESS)
                return st;
            rejected_in_row = 0;
            st = mesh_push(m, t1, k);
            if (st != MB_SUCCESS)
                return st;
            double fac = growth(k, o->target_columns), used = t1 - t;
            hs = (clipped && fac >= 1.0) ? fmax(hs, used * fac) : used * fac;
            t = t1;
        }
        vec_copy(&ys[i * g->dim], y, g->dim);
        at[i] = m->count;
    }
    stats->macro_steps = m->count;
    return MB_SUCCESS;
}

static void emit(struct gbs *g, const real *y, const real *y1, mb_nodes_mpfr *out, double *err)
{
    /* step-halving difference plus the rounding of the result to the store's precision */
    double e = 0.0, ymax = 0.0;
    for (size_t k = 0; k < g->dim; k++) {
        mpfr_sub(g->a, &y[k], &y1[k], MPFR_RNDN);
        e = fmax(e, fabs(mpfr_get_d(g->a, MPFR_RNDN)));
        ymax = fmax(ymax, fabs(mpfr_get_d(&y[k], MPFR_RNDN)));
    }
    *err = e + ldexp(ymax, -(int)out->prec);
    mb_refrhs_mpfr_unpack(g->rhs, y, out);
}

/* Pass 2: the mesh with every step halved, same columns. */
static int pass_halved(struct gbs *g, double t0, size_t n, const real *ys, const size_t *at,
                       const struct mesh *m, real *y, mb_nodes_mpfr *const *outs, double *err)
{
    size_t oi = 0;
    while (oi < n && at[oi] == 0) {
        emit(g, y, &ys[oi * g->dim], outs[oi], &err[oi]);
        oi++;
    }
    double t = t0;
    for (size_t j = 0; j < m->count; j++) {
        double t1 = m->t1[j], mid = t + 0.5 * (t1 - t);
        int k;
        int st = gbs_step(g, y, t, mid, m->k[j], &k);
        if (st == MB_SUCCESS)
            st = gbs_step(g, y, mid, t1, m->k[j], &k);
        if (st != MB_SUCCESS)
            return st;
        t = t1;
        while (oi < n && at[oi] == j + 1) {
            emit(g, y, &ys[oi * g->dim], outs[oi], &err[oi]);
            oi++;
        }
    }
    return MB_SUCCESS;
}

static int check_args_bits(mb_mpfr_reference_opts *o)
{
    if (o->bits < 53 || o->bits > 100000)
        MB_ERROR(MB_EDOM, "mpfr reference: precision %ld bits is outside [53, 100000]", o->bits);
    if (o->target_columns <= 0) {
        /* measured CPU time, Kepler e = 0.6 over 0.25 periods and the 16-node spring chain
         * over 0.1 s: at 113 bits 16-20 columns cost least (chain 0.76 s at 11, 0.57 s at
         * 16), at 256 bits about 35 (chain 3.35 s at 25, 1.78 s at 35, 2.71 s at 45; Kepler
         * flat), at 512 bits about 50 (Kepler 3.2 s at 36, 1.4 s at 50; beyond ~60 the
         * extrapolation's rounding stalls convergence) */
        long t = o->bits / 7;
        o->target_columns = (int)(t < 8 ? 8 : t > 52 ? 52 : t);
    }
    if (o->max_columns <= 0)
        o->max_columns = o->target_columns + 12;
    if (o->max_columns < 4 || o->max_columns > 200)
        MB_ERROR(MB_EDOM, "mpfr reference: max_columns %d is outside [4, 200]", o->max_columns);
    return MB_SUCCESS;
}

static int check_args(const mb_system *sys, size_t n, const double *times,
                      mb_nodes_mpfr *const *outs, mb_mpfr_reference_opts *o)
{
    int st = check_args_bits(o);
    if (st != MB_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(times[i]) || times[i] < (i ? times[i - 1] : sys->t))
            MB_ERROR(MB_EDOM, "mpfr reference: output times must be finite, ascending and "
                     ">= the initial time %g (time %zu is %g)", sys->t, i, times[i]);
        if (outs[i]->n != sys->nodes->n)
            MB_ERROR(MB_EINVAL, "mpfr reference: output store %zu has %zu nodes, the system %zu",
                     i, outs[i]->n, sys->nodes->n);
    }
    return MB_SUCCESS;
}

/* max over outputs and state numbers of |mpfr - rk8pd| / allowance, allowance =
 * max(100 e_ode, 1e-8 (1 + |y|)); q compared with the sign of the mpfr result. */
static double diff_ratio(const __mpfr_struct *m, const double *d, size_t count, double e_ode,
                         int align)
{
    double worst = 0.0, sign = 1.0;
    if (align) {
        double dot = 0.0;
        for (size_t k = 0; k < count; k++)
            dot += mpfr_get_d(&m[k], MPFR_RNDN) * d[k];
        sign = dot < 0.0 ? -1.0 : 1.0;
    }
    for (size_t k = 0; k < count; k++) {
        double y = mpfr_get_d(&m[k], MPFR_RNDN);
        double allow = fmax(100.0 * e_ode, 1e-8 * (1.0 + fabs(y)));
        worst = fmax(worst, fabs(y - sign * d[k]) / allow);
    }
    return worst;
}

static int crosscheck(const mb_system *sys, size_t n, const double *times,
                      mb_nodes_mpfr *const *outs, double *ratio)
{
    mb_nodes **d = calloc(n, sizeof *d);
    double *e = calloc(n, sizeof *e);
    int st = (d && e) ? MB_SUCCESS : MB_ENOMEM;
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++)
        if ((d[i] = mb_nodes_alloc(sys->nodes->n, 53)) == NULL)
            st = MB_ENOMEM;
    mb_ode_reference_opts o = { 1e-10, 1e-12 };
    if (st == MB_SUCCESS)
        st = mb_ode_reference(sys, n, times, d, e, &o, NULL);
    *ratio = 0.0;
    size_t bad_i = 0;
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++) {
        size_t nn = sys->nodes->n;
        double r = fmax(diff_ratio(outs[i]->x, d[i]->x, 3 * nn, e[i], 0),
                        diff_ratio(outs[i]->v, d[i]->v, 3 * nn, e[i], 0));
        r = fmax(r, diff_ratio(outs[i]->angmom, d[i]->angmom, 3 * nn, e[i], 0));
        for (size_t j = 0; j < nn; j++)
            r = fmax(r, diff_ratio(&outs[i]->q[4 * j], &d[i]->q[4 * j], 4, e[i], 1));
        if (r > *ratio) {
            *ratio = r;
            bad_i = i;
        }
    }
    for (size_t i = 0; d && i < n; i++)
        mb_nodes_free(d[i]);
    free(d);
    free(e);
    if (st == MB_SUCCESS && *ratio > 1.0)
        MB_ERROR(MB_EFAILED, "mpfr reference: disagrees with the rk8pd check at t = %.17g by %.3g "
                 "times the allowance; the system is probably not smooth (contacts?) and has no "
                 "valid extrapolation reference", times[bad_i], *ratio);
    return st;
}

int mb_mpfr_reference(const mb_system *sys, size_t n, const double *times,
                      mb_nodes_mpfr *const *outs, double *err,
                      const mb_mpfr_reference_opts *opts, mb_mpfr_reference_stats *stats)
{
    mb_mpfr_reference_opts o = { 256, 0, 0, 0.0, 0 };
    mb_mpfr_reference_stats s = { 0 };
    if (opts)
        o = *opts;
    int st = check_args(sys, n, times, outs, &o);
    if (st != MB_SUCCESS || n == 0)
        return st;
    mb_nodes_mpfr *init = mb_nodes_mpfr_alloc(sys->nodes->n, (mpfr_prec_t)o.bits + guard_bits(o.max_columns));
    if (init == NULL)
        return MB_ENOMEM;
    mb_nodes_mpfr_set_from_double(init, sys->nodes);
    struct gbs g;
    s.tolerance = ldexp(1.0, (int)(24 - o.bits));
    st = gbs_init(&g, init, sys->forces, o.max_columns, s.tolerance);
    if (st != MB_SUCCESS) {
        mb_nodes_mpfr_free(init);
        return st;
    }
    size_t d = g.dim;
    real *y0 = vec_new(d, g.prec), *y = vec_new(d, g.prec), *ys = vec_new(n * d, g.prec);
    size_t *at = malloc(n * sizeof *at);
    double *e = malloc(n * sizeof *e);
    struct mesh m = { 0 };
    if (!y0 || !y || !ys || !at || !e) {
        st = MB_ENOMEM;
    } else {
        mb_refrhs_mpfr_pack(g.rhs, init, y0);
        vec_copy(y, y0, d);
        st = pass_adaptive(&g, &o, sys->t, n, times, y, ys, at, &m, &s);
    }
    if (st == MB_SUCCESS) {
        vec_copy(y, y0, d);
        for (size_t i = 0; i < n; i++)
            mb_nodes_mpfr_copy(outs[i], init);
        st = pass_halved(&g, sys->t, n, ys, at, &m, y, outs, e);
    }
    if (st == MB_SUCCESS) {
        for (size_t i = 0; i < n; i++) {
            s.error_estimate = fmax(s.error_estimate, e[i]);
            if (err)
                err[i] = e[i];
        }
    }
    if (st == MB_SUCCESS && !o.no_crosscheck)
        st = crosscheck(sys, n, times, outs, &s.crosscheck);
    s.rhs_evals = g.evals;
    if (stats)
        *stats = s;
    free(m.t1);
    free(m.k);
    free(at);
    free(e);
    vec_free(ys, n * d);
    vec_free(y, d);
    vec_free(y0, d);
    gbs_free(&g);
    mb_nodes_mpfr_free(init);
    return st;
}

/* The engine on a caller's autonomous right-hand side (mb_mpfr_reference.h): the adaptive
 * macro steps of pass 1 over one span, no second pass. */
int mb_mpfr_ode_span(mb_mpfr_ode_rhs f, void *ctx, size_t dim, long bits, __mpfr_struct *y,
                     double t0, double t1, unsigned long *evals)
{
    mb_mpfr_reference_opts o = { bits, 0, 0, 0.0, 1 };
    int st = check_args_bits(&o);
    if (st != MB_SUCCESS)
        return st;
    if (!(t1 >= t0) || !isfinite(t1) || !isfinite(t0))
        MB_ERROR(MB_EDOM, "mpfr ode span: need finite t0 <= t1 (%g, %g)", t0, t1);
    struct gbs g;
    memset(&g, 0, sizeof g);
    g.prec = mpfr_get_prec(&y[0]);
    g.kmax = o.max_columns;
    g.tol = ldexp(1.0, (int)(24 - bits));
    g.fn = f;
    g.fn_ctx = ctx;
    mpfr_inits2(g.prec, g.H, g.h, g.h2, g.a, g.b, (mpfr_ptr)0);
    st = gbs_vectors(&g, dim);
    if (st != MB_SUCCESS)
        return st;
    double t = t0, hs = t1 - t0;
    unsigned long rejected_in_row = 0;
    while (st == MB_SUCCESS && t < t1) {
        int clipped = t1 - t <= hs * (1.0 + 1e-9);
        double te = clipped ? t1 : t + hs;
        int k = 0;
        st = gbs_step(&g, y, t, te, 0, &k);
        if (st == MB_EMAXITER) {
            hs = 0.5 * (te - t);
            st = ++rejected_in_row > 80 || !(t + hs > t) ? MB_EMAXITER : MB_SUCCESS;
            continue;
        }
        rejected_in_row = 0;
        double fac = growth(k, o.target_columns), used = te - t;
        hs = (clipped && fac >= 1.0) ? fmax(hs, used * fac) : used * fac;
        t = te;
    }
    if (evals)
        *evals += g.evals;
    gbs_free(&g);
    if (st == MB_EMAXITER)
        MB_ERROR(MB_EMAXITER, "mpfr ode span: extrapolation does not converge near t = %.17g", t);
    return st;
}
