/* implicit_euler_newton_source.c -- template body of Newton backward Euler
 * (see implicit_euler_newton.c). */

#if IS_MPFR
#define NEWTON_SOLVER mb_implicit_solver_mpfr
#else
#define NEWTON_SOLVER mb_implicit_solver
#endif

struct FUNCTION(nbe, state) {
    size_t n3;
    double tol;
    long max_iter;
    REAL *w, *dw, *b, tmp[2];
    TYPE(mb_nodes) *trial;        /* the state (x + h w, w) the residual is evaluated at */
    TYPE(mb_jacobian) *J;
    NEWTON_SOLVER *S;
    mb_stepper_stats stats;
};

static void FUNCTION(nbe, free)(void *vstate)
{
    struct FUNCTION(nbe, state) *st = vstate;
    if (st == NULL)
        return;
    FUNCTION(scheme, array_free)(st->w, st->n3);
    FUNCTION(scheme, array_free)(st->dw, st->n3);
    FUNCTION(scheme, array_free)(st->b, st->n3);
    R_CLEAR(&st->tmp[0]);
    R_CLEAR(&st->tmp[1]);
    FUNCTION(mb_nodes, free)(st->trial);
    FUNCTION(mb_jacobian, free)(st->J);
#if IS_MPFR
    mb_implicit_solver_mpfr_free(st->S);
#else
    mb_implicit_solver_free(st->S);
#endif
    free(st);
}

static int FUNCTION(nbe, alloc)(void **out, const mb_options *opts, const TYPE(mb_system) *sys)
{
    struct FUNCTION(nbe, state) *st = calloc(1, sizeof *st);
    if (st == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    const TYPE(mb_nodes) *s = sys->nodes;
    st->n3 = 3 * s->n;
    st->tol = mb_options_double(opts, "tol");
    st->max_iter = mb_options_int(opts, "max_iter");
    R_INIT(&st->tmp[0], s->prec);
    R_INIT(&st->tmp[1], s->prec);
    st->w = FUNCTION(scheme, array)(st->n3, s->prec);
    st->dw = FUNCTION(scheme, array)(st->n3, s->prec);
    st->b = FUNCTION(scheme, array)(st->n3, s->prec);
    st->trial = FUNCTION(mb_nodes, alloc)(s->n, s->prec);
    st->J = FUNCTION(mb_jacobian, alloc)(s->n, s->prec);
#if IS_MPFR
    int rc = mb_implicit_solver_mpfr_alloc(&st->S, opts, s->n, s->prec);
#else
    int rc = mb_implicit_solver_alloc(&st->S, opts, s->n);
#endif
    if (rc == MB_SUCCESS && (!st->w || !st->dw || !st->b || !st->trial || !st->J))
        rc = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
    if (rc != MB_SUCCESS) {
        FUNCTION(nbe, free)(st);
        return rc;
    }
    *out = st;
    return MB_SUCCESS;
}

/* trial = (x + h w, w) */
static void FUNCTION(nbe, set_trial)(struct FUNCTION(nbe, state) *st, const TYPE(mb_nodes) *s,
                                     double h)
{
    for (size_t k = 0; k < st->n3; k++) {
        R_SET(&st->trial->v[k], &st->w[k]);
        R_MUL_D(&st->tmp[0], &st->w[k], h);
        R_ADD(&st->trial->x[k], &s->x[k], &st->tmp[0]);
    }
}

/* max_k |a_k| as a double (used only for the stopping test) */
static double FUNCTION(nbe, norm_inf)(const REAL *a, size_t n)
{
    double m = 0.0;
    for (size_t k = 0; k < n; k++) {
        double d = fabs(R_GET_D(&a[k]));
        m = d > m ? d : m;
    }
    return m;
}

/* One Newton iteration on R(w) = M (w - v) - h f(x + h w, w) = 0:
 *   (M - h C(w) - h^2 K(w)) dw = -R(w),  w += dw,
 * with K, C the force Jacobians at the trial state -- dR/dw exactly.  In double the
 * forces and the matrix go straight into the solver's storage where it has one (the
 * block sweep's, the CSR matrix: mb_implicit_solver_assemble, as implicit-euler's step
 * does), with the bits of a block list assembled there, so no list of blocks is built
 * per iteration; the right-hand side it forms is that of the linearised step, replaced
 * here by -R(w). */
static int FUNCTION(nbe, iterate)(struct FUNCTION(nbe, state) *st, TYPE(mb_system) *sys, double h)
{
    const TYPE(mb_nodes) *s = sys->nodes;
    FUNCTION(nbe, set_trial)(st, s, h);
#if IS_MPFR
    int rc = FUNCTION(mb_forces, eval_jacobian)(sys->forces, st->trial, sys->t + h, st->J);
#else
    int rc = mb_implicit_solver_assemble(st->S, sys->forces, st->trial, sys->t + h, h, st->J,
                                         st->b);
#endif
    if (rc != MB_SUCCESS)
        return rc;
    FUNCTION(mb_linsys, newton_rhs)(st->trial, s->v, h, st->b, st->tmp);
#if IS_MPFR
    for (size_t k = 0; k < st->n3; k++)
        R_SET_D(&st->dw[k], 0.0);
#else
    if (mb_implicit_solver_wants_guess(st->S))          /* initial guess 0 (Krylov) */
        memset(st->dw, 0, st->n3 * sizeof(double));
#endif
#if IS_MPFR
    rc = mb_implicit_solver_mpfr_solve(st->S, st->trial, st->J, h, st->b, st->dw);
#else
    rc = mb_implicit_solver_solve(st->S, st->trial, st->J, h, st->b, st->dw);
    st->stats.linear_iterations += st->S->iterations_last;
#endif
    if (rc != MB_SUCCESS)
        return rc;
    for (size_t k = 0; k < st->n3; k++)
        if (!FUNCTION(mb_linsys, fixed)(s, k))
            R_ADD(&st->w[k], &st->w[k], &st->dw[k]);
    if (!FUNCTION(scheme, finite)(st->w, st->n3))
        MB_ERROR(MB_EDIVERGED, "implicit-euler-newton: NaN or Inf in the Newton iterate at t = %.17g",
                 sys->t + h);
    return MB_SUCCESS;
}

/* Backward Euler  x+ = x + h v+,  M v+ = M v + h f(x+, v+)  solved by Newton from w = v,
 * stopping when max|dw| <= tol max(1, max|w|). */
static int FUNCTION(nbe, step)(void *vstate, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(nbe, state) *st = vstate;
    TYPE(mb_nodes) *s = sys->nodes;
    int rc = FUNCTION(mb_nodes, copy)(st->trial, s);
    if (rc != MB_SUCCESS)
        return rc;
    for (size_t k = 0; k < st->n3; k++)
        R_SET(&st->w[k], &s->v[k]);
    long it = 0;
    int converged = 0;
    while (!converged && it < st->max_iter) {
        if (mb_cancel_requested())
            return mb_cancel_error();
        rc = FUNCTION(nbe, iterate)(st, sys, h);
        it++;
        if (rc == MB_ESINGULAR) {
            char why[256];
            snprintf(why, sizeof why, "%s", mb_last_error());
            MB_ERROR(rc, "implicit-euler-newton: Newton matrix M - hC - h^2K is singular at "
                     "t = %.17g, h = %g, iteration %ld (%s)", sys->t, h, it, why);
        }
        if (rc != MB_SUCCESS)
            return rc;
        double wn = FUNCTION(nbe, norm_inf)(st->w, st->n3);
        converged = FUNCTION(nbe, norm_inf)(st->dw, st->n3) <= st->tol * (wn > 1.0 ? wn : 1.0);
    }
    if (!converged)
        MB_ERROR(MB_EMAXITER, "implicit-euler-newton: no convergence to tol = %g in max_iter = %ld "
                 "iterations at t = %.17g, h = %g", st->tol, st->max_iter, sys->t, h);
    /* commit: x+ = x + h w, v+ = w (the trial positions hold x + h w of the previous
     * iterate, so recompute them from the final w) */
    FUNCTION(nbe, set_trial)(st, s, h);
    if (!FUNCTION(scheme, finite)(st->trial->x, st->n3))
        MB_ERROR(MB_EDIVERGED, "implicit-euler-newton: NaN or Inf at t = %.17g", sys->t + h);
    FUNCTION(scheme, swap)(&s->x, &st->trial->x);
    FUNCTION(scheme, swap)(&s->v, &st->trial->v);
    sys->t += h;
    st->stats.steps++;
    st->stats.newton_iterations += (unsigned long)it;
    if ((unsigned long)it > st->stats.max_newton_iterations)
        st->stats.max_newton_iterations = (unsigned long)it;
    return MB_SUCCESS;
}

#if !IS_MPFR
static void FUNCTION(nbe, stats)(const void *vstate, mb_stepper_stats *out)
{
    const struct FUNCTION(nbe, state) *st = vstate;
    *out = st->stats;
}
#endif

#undef NEWTON_SOLVER
