/* gsl_odeiv2_step.c -- GSL's odeiv2 steppers as fixed-step schemes on the translational
 * first-order system y = (x, v), y' = (v, M^-1 f(x, v, t)) (rotations are not
 * integrated), so the bench can compare its schemes with well-kept library ones:
 *   gsl-rk8pd  Prince & Dormand (1981), J. Comput. Appl. Math. 7, 67: explicit, 13 stages,
 *              order 8 (the 8th-order solution of the embedded 8(7) pair is returned);
 *   gsl-rk4    classical Runge-Kutta; gsl-rk2imp implicit midpoint (Gauss, 1 stage,
 *              order 2, symplectic); gsl-rk4imp Gauss-Legendre 2 stages (order 4,
 *              symplectic): Hairer & Wanner, Solving ODEs II, IV.5.
 * Source: M. Galassi et al., GNU Scientific Library Reference Manual, "Ordinary
 * Differential Equations".  One gsl_odeiv2_step_apply of step h per time step (the
 * stepper is reset first, so nothing carries over between steps).  GSL's rk4, rk2imp and rk4imp estimate their error by step doubling
 * and return the result of two half steps h/2 (gsl-2.7 ode-initval2/rk4.c, rk2imp.c,
 * rk4imp.c), so these take two method steps per time step (same order, smaller error
 * constant, 2x the work).  The implicit ones solve their stages by GSL's modified Newton
 * iteration with the Jacobian [[0, I], [M^-1 df/dx, M^-1 df/dv]] assembled densely from
 * the force models' blocks (df/dt is taken as zero).  Double only (no MPFR twin). */
#include "mb_init.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GODEIV_EPS 1e-14   /* Newton tolerance of the implicit steppers (see alloc) */

struct godeiv {
    gsl_odeiv2_system ode;
    gsl_odeiv2_driver *driver;   /* owns the step; the implicit steppers need a driver */
    mb_system *sys;          /* the system of the current step (for the callbacks) */
    mb_jacobian *J;
    size_t n3;
    double *y, *yerr, *f;
    int callback_status;     /* first force/Jacobian error inside a GSL call */
};

static int godeiv_forces(struct godeiv *w, double t, const double y[])
{
    mb_nodes *s = w->sys->nodes;
    double *x0 = s->x, *v0 = s->v, *f0 = s->f;
    s->x = (double *)y;             /* read only: force models do not write x, v */
    s->v = (double *)y + w->n3;
    s->f = w->f;
    int st = mb_forces_eval(w->sys->forces, s, t);
    s->x = x0;
    s->v = v0;
    s->f = f0;
    return st;
}

/* dydt = (v, M^-1 f(x, v, t)), zero acceleration on blocked degrees of freedom */
static int godeiv_func(double t, const double y[], double dydt[], void *params)
{
    struct godeiv *w = params;
    const mb_nodes *s = w->sys->nodes;
    for (size_t j = 0; j < 2 * w->n3; j++)
        if (!isfinite(y[j])) {      /* a stage state blew up: divergence, not a failure */
            if (w->callback_status == MB_SUCCESS)
                w->callback_status = mb_error_record(MB_EDIVERGED, __FILE__, __LINE__,
                    "gsl-%s: NaN or Inf in a stage at t = %.17g",
                    gsl_odeiv2_step_name(w->driver->s), t);
            return GSL_EBADFUNC;
        }
    int st = godeiv_forces(w, t, y);
    if (st != MB_SUCCESS) {
        if (w->callback_status == MB_SUCCESS)
            w->callback_status = st;
        return GSL_EBADFUNC;
    }
    memcpy(dydt, y + w->n3, w->n3 * sizeof(double));
    for (size_t i = 0; i < s->n; i++)
        for (int k = 0; k < 3; k++) {
            size_t j = 3 * i + k;
            dydt[w->n3 + j] = (s->blocked[i] & (1u << k)) ? 0.0 : w->f[j] * s->inv_mass[i];
        }
    return GSL_SUCCESS;
}

/* dfdy row-major 6n x 6n: rows 0..3n-1 dx'/d(x, v) = (0, I); rows 3n.. dv'/d(x, v) from the
 * force blocks scaled by 1/m of the row node (blocked rows zero). */
static int godeiv_jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
    struct godeiv *w = params;
    mb_nodes *s = w->sys->nodes;
    size_t n3 = w->n3, dim = 2 * n3;
    (void)t;
    memset(dfdy, 0, dim * dim * sizeof(double));
    memset(dfdt, 0, dim * sizeof(double));
    for (size_t j = 0; j < n3; j++)
        dfdy[j * dim + n3 + j] = 1.0;
    double *x0 = s->x, *v0 = s->v;
    s->x = (double *)y;
    s->v = (double *)y + n3;
    int st = mb_forces_jacobian(w->sys->forces, s, w->J);
    s->x = x0;
    s->v = v0;
    if (st != MB_SUCCESS) {
        if (w->callback_status == MB_SUCCESS)
            w->callback_status = st;
        return GSL_EBADFUNC;
    }
    for (size_t b = 0; b < w->J->count; b++) {
        size_t r = w->J->row[b], c = w->J->col[b];
        for (int k = 0; k < 3; k++) {
            if (s->blocked[r] & (1u << k))
                continue;
            double *row = dfdy + (n3 + 3 * r + k) * dim;
            for (int l = 0; l < 3; l++) {
                row[3 * c + l] += w->J->dfdx[9 * b + 3 * k + l] * s->inv_mass[r];
                row[n3 + 3 * c + l] += w->J->dfdv[9 * b + 3 * k + l] * s->inv_mass[r];
            }
        }
    }
    return GSL_SUCCESS;
}

static void godeiv_free(void *vstate)
{
    struct godeiv *w = vstate;
    if (w == NULL)
        return;
    if (w->driver)
        gsl_odeiv2_driver_free(w->driver);
    mb_jacobian_free(w->J);
    free(w->y);
    free(w->yerr);
    free(w->f);
    free(w);
}

static int godeiv_alloc_type(void **out, const mb_system *sys, const gsl_odeiv2_step_type *T)
{
    struct godeiv *w = calloc(1, sizeof *w);
    if (w == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    w->n3 = 3 * sys->nodes->n;
    size_t dim = w->n3 > 0 ? 2 * w->n3 : 1;
    w->ode = (gsl_odeiv2_system){ godeiv_func, godeiv_jac, dim, w };
    /* The implicit steppers take the stopping tolerance of their Newton iteration from
     * the driver's control (gsl_odeiv2_control_errlevel), so the driver's tolerances
     * set how exactly the stages are solved: GODEIV_EPS absolute and relative.  The
     * step is applied directly (gsl_odeiv2_step_apply), so the control never rejects
     * it. */
    w->driver = gsl_odeiv2_driver_alloc_y_new(&w->ode, T, 1e-3, GODEIV_EPS, GODEIV_EPS);
    w->J = mb_jacobian_alloc(sys->nodes->n, 53);
    w->y = calloc(dim, sizeof(double));
    w->yerr = calloc(dim, sizeof(double));
    w->f = calloc(w->n3 ? w->n3 : 1, sizeof(double));
    if (!w->driver || !w->J || !w->y || !w->yerr || !w->f) {
        godeiv_free(w);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    *out = w;
    return MB_SUCCESS;
}

static int godeiv_step(void *vstate, mb_system *sys, double h)
{
    struct godeiv *w = vstate;
    mb_nodes *s = sys->nodes;
    const char *name = gsl_odeiv2_step_name(w->driver->s);
    if (!(h > 0.0))
        MB_ERROR(MB_EDOM, "gsl-%s: time step h = %g must be > 0", name, h);
    w->sys = sys;
    w->callback_status = MB_SUCCESS;
    memcpy(w->y, s->x, w->n3 * sizeof(double));
    memcpy(w->y + w->n3, s->v, w->n3 * sizeof(double));
    gsl_odeiv2_step_reset(w->driver->s);    /* no carry-over from another system */
    mb_init();
    int gs = gsl_odeiv2_step_apply(w->driver->s, sys->t, h, w->y, w->yerr, NULL, NULL, &w->ode);
    if (w->callback_status != MB_SUCCESS)
        return w->callback_status;     /* message recorded by the force field */
    if (gs != GSL_SUCCESS)
        MB_ERROR(MB_EMAXITER, "gsl-%s: gsl_odeiv2_step_apply failed at t = %.17g: %s", name,
                 sys->t, gsl_strerror(gs));
    for (size_t j = 0; j < 2 * w->n3; j++)
        if (!isfinite(w->y[j]))
            MB_ERROR(MB_EDIVERGED, "gsl-%s: NaN or Inf at t = %.17g", name, sys->t + h);
    memcpy(s->x, w->y, w->n3 * sizeof(double));
    memcpy(s->v, w->y + w->n3, w->n3 * sizeof(double));
    sys->t += h;
    return MB_SUCCESS;
}

#define GODEIV_ALLOC(id)                                                               \
    static int godeiv_alloc_##id(void **out, const mb_options *opts, const mb_system *sys) \
    {                                                                                  \
        (void)opts;                                                                    \
        return godeiv_alloc_type(out, sys, gsl_odeiv2_step_##id);                      \
    }
GODEIV_ALLOC(rk8pd)
GODEIV_ALLOC(rk4)
GODEIV_ALLOC(rk2imp)
GODEIV_ALLOC(rk4imp)

#define GODEIV_TYPE(id, NAME, SUMMARY, REF, ORDER, FLAGS) \
    const mb_stepper_type mb_stepper_gsl_##id = {         \
        .name = NAME, .summary = SUMMARY, .reference = REF, .order = ORDER, .flags = FLAGS, \
        .options = NULL, .alloc = godeiv_alloc_##id, .step = godeiv_step, .free = godeiv_free, \
    };

GODEIV_TYPE(rk8pd, "gsl-rk8pd", "GSL gsl_odeiv2_step_rk8pd, one step per h on (x, v)",
            "Prince & Dormand, J. Comput. Appl. Math. 7 (1981) 67; GSL odeiv2", 8, 0)
GODEIV_TYPE(rk4, "gsl-rk4", "GSL gsl_odeiv2_step_rk4 on (x, v): two RK4 steps of h/2 (step doubling)",
            "Kutta (1901); GSL odeiv2 (rk4.c)", 4, 0)
GODEIV_TYPE(rk2imp, "gsl-rk2imp", "GSL gsl_odeiv2_step_rk2imp on (x, v): implicit midpoint, two steps of h/2",
            "Hairer & Wanner, Solving ODEs II, IV.5 (Gauss methods); GSL odeiv2 (rk2imp.c)", 2,
            MB_STEPPER_IMPLICIT | MB_STEPPER_SYMPLECTIC)
GODEIV_TYPE(rk4imp, "gsl-rk4imp", "GSL gsl_odeiv2_step_rk4imp on (x, v): 2-stage Gauss, two steps of h/2",
            "Hairer & Wanner, Solving ODEs II, IV.5 (Gauss methods); GSL odeiv2 (rk4imp.c)", 4,
            MB_STEPPER_IMPLICIT | MB_STEPPER_SYMPLECTIC)
