/* ode_reference.c -- the GSL odeiv2 rk8pd reference (see mb_ode_reference.h). */
#include "mb_ode_reference.h"
#include "mb_ref_rhs.h"
#include "mb_cancel.h"
#include "mb_status.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ode_ctx {
    mb_refrhs *rhs;
    int status;              /* first force-evaluation failure */
    unsigned long evals;
};

/* every evaluation polls the cancellation flag (mb_cancel.h): the rk8pd driver stops
 * at once when the right-hand side fails */
static int ode_function(double t, const double y[], double dydt[], void *params)
{
    struct ode_ctx *c = params;
    if (mb_cancel_requested()) {
        if (c->status == MB_SUCCESS)
            c->status = mb_cancel_error();
        return GSL_EBADFUNC;
    }
    c->evals++;
    int st = mb_refrhs_eval(c->rhs, t, y, dydt);
    if (st != MB_SUCCESS) {
        if (c->status == MB_SUCCESS)
            c->status = st;
        return GSL_EBADFUNC;
    }
    return GSL_SUCCESS;
}

/* One run at tolerance tol; the state at times[i] into ys[i * dim ...]. */
static int ode_run(const mb_system *sys, struct ode_ctx *c, size_t dim, double tol,
                   size_t n, const double *times, double *ys)
{
    gsl_odeiv2_system ode = { ode_function, NULL, dim, c };
    double span = fabs(times[n - 1] - sys->t);
    double h0 = span > 0.0 ? 1e-3 * span : 1e-6;
    gsl_set_error_handler_off();
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&ode, gsl_odeiv2_step_rk8pd, h0, tol, tol);
    double *y = malloc(dim * sizeof *y);
    if (d == NULL || y == NULL) {
        gsl_odeiv2_driver_free(d);
        free(y);
        MB_ERROR(MB_ENOMEM, "ode reference: out of memory");
    }
    mb_refrhs_pack(c->rhs, sys->nodes, y);
    double t = sys->t;
    int st = GSL_SUCCESS;
    for (size_t i = 0; i < n && st == GSL_SUCCESS; i++) {
        if (times[i] != t)
            st = gsl_odeiv2_driver_apply(d, &t, times[i], y);
        memcpy(&ys[i * dim], y, dim * sizeof *y);
    }
    gsl_odeiv2_driver_free(d);
    free(y);
    if (c->status != MB_SUCCESS)
        return c->status;
    if (st != GSL_SUCCESS)
        MB_ERROR(MB_EFAILED, "ode reference: rk8pd driver failed at t = %.17g (%s)", t,
                 gsl_strerror(st));
    return MB_SUCCESS;
}

int mb_ode_reference(const mb_system *sys, size_t n, const double *times, mb_nodes *const *outs,
                     double *err, const mb_ode_reference_opts *opts,
                     mb_ode_reference_stats *stats)
{
    mb_ode_reference_opts o = { 1e-12, 1e-14 };
    if (opts)
        o = *opts;
    if (!(o.tol_coarse > 0.0) || !(o.tol_fine > 0.0) || !(o.tol_fine < o.tol_coarse))
        MB_ERROR(MB_EDOM, "ode reference: need 0 < tol_fine < tol_coarse (got %g, %g)",
                 o.tol_fine, o.tol_coarse);
    if (n == 0)
        return MB_SUCCESS;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(times[i]) || times[i] < (i ? times[i - 1] : sys->t))
            MB_ERROR(MB_EDOM, "ode reference: output times must be finite, ascending and "
                     ">= the initial time %g (time %zu is %g)", sys->t, i, times[i]);
    struct ode_ctx c = { mb_refrhs_alloc(sys->nodes, sys->forces), MB_SUCCESS, 0 };
    if (c.rhs == NULL)
        return MB_ENOMEM;
    size_t dim = mb_refrhs_dim(c.rhs);
    double *coarse = malloc(n * dim * sizeof *coarse), *fine = malloc(n * dim * sizeof *fine);
    int st = (coarse && fine) ? MB_SUCCESS : MB_ENOMEM;
    if (st == MB_SUCCESS)
        st = ode_run(sys, &c, dim, o.tol_coarse, n, times, coarse);
    if (st == MB_SUCCESS)
        st = ode_run(sys, &c, dim, o.tol_fine, n, times, fine);
    double worst = 0.0;
    for (size_t i = 0; st == MB_SUCCESS && i < n; i++) {
        double e = 0.0;
        for (size_t k = 0; k < dim; k++)
            e = fmax(e, fabs(fine[i * dim + k] - coarse[i * dim + k]));
        if (err)
            err[i] = e;
        worst = fmax(worst, e);
        mb_nodes_copy(outs[i], sys->nodes);
        mb_refrhs_unpack(c.rhs, &fine[i * dim], outs[i]);
    }
    if (stats) {
        stats->rhs_evals = c.evals;
        stats->error_estimate = worst;
    }
    free(coarse);
    free(fine);
    mb_refrhs_free(c.rhs);
    return st;
}
