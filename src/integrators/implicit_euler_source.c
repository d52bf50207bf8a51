/* implicit_euler_source.c -- template body of linearised backward Euler (see implicit_euler.c). */

#if IS_MPFR
#define IEULER_SOLVER mb_implicit_solver_mpfr
#else
#define IEULER_SOLVER mb_implicit_solver
#endif

struct FUNCTION(ieuler, state) {
    size_t n3;
    REAL *x_new, *v_new, *b, tmp[2];
    TYPE(mb_jacobian) *J;
    IEULER_SOLVER *S;
    mb_stepper_stats stats;
    /* The store the last successful step left with every torque +0 (its field torque-free)
     * and the state generation it left there (mb_stepper.h); NULL: none */
    const void *left_nodes;
    const void *left_forces;
    unsigned long left_gen;
};

static void FUNCTION(ieuler, free)(void *vstate)
{
    struct FUNCTION(ieuler, state) *w = vstate;
    if (w == NULL)
        return;
    FUNCTION(scheme, array_free)(w->x_new, w->n3);
    FUNCTION(scheme, array_free)(w->v_new, w->n3);
    FUNCTION(scheme, array_free)(w->b, w->n3);
    R_CLEAR(&w->tmp[0]);
    R_CLEAR(&w->tmp[1]);
    FUNCTION(mb_jacobian, free)(w->J);
#if IS_MPFR
    mb_implicit_solver_mpfr_free(w->S);
#else
    mb_implicit_solver_free(w->S);
#endif
    free(w);
}

static int FUNCTION(ieuler, alloc)(void **out, const mb_options *opts, const TYPE(mb_system) *sys)
{
    struct FUNCTION(ieuler, state) *w = calloc(1, sizeof *w);
    if (w == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    const TYPE(mb_nodes) *s = sys->nodes;
    w->n3 = 3 * s->n;
    R_INIT(&w->tmp[0], s->prec);
    R_INIT(&w->tmp[1], s->prec);
    w->x_new = FUNCTION(scheme, array)(w->n3, s->prec);
    w->v_new = FUNCTION(scheme, array)(w->n3, s->prec);
    w->b = FUNCTION(scheme, array)(w->n3, s->prec);
    w->J = FUNCTION(mb_jacobian, alloc)(s->n, s->prec);
#if IS_MPFR
    int st = mb_implicit_solver_mpfr_alloc(&w->S, opts, s->n, s->prec);
#else
    int st = mb_implicit_solver_alloc(&w->S, opts, s->n);
#endif
    if (st == MB_SUCCESS && (!w->x_new || !w->v_new || !w->b || !w->J))
        st = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
    if (st != MB_SUCCESS) {
        FUNCTION(ieuler, free)(w);
        return st;
    }
    *out = w;
    return MB_SUCCESS;
}

#if !IS_MPFR
/* 1 while the store and field of sys are those the last successful step left, torque-free,
 * at the state generation it left (mb_stepper.h: every write of the torques since is
 * announced by mb_nodes_touch): every torque is then +0 as that step's assembly left it. */
static int ieuler_torques_left_zero(const struct FUNCTION(ieuler, state) *w,
                                    const TYPE(mb_system) *sys)
{
    return w->left_nodes == (const void *)sys->nodes
           && w->left_forces == (const void *)sys->forces
           && w->left_gen == sys->nodes->generation;
}
#endif

/* Backward Euler linearised about (x, v) (DESIGN 4.1; Baraff & Witkin 1998, eq. 6 in
 * velocity form):
 *     (M - h C - h^2 K) v+ = (M - h C) v + h f(x, v),    x+ = x + h v+,
 * K = df/dx, C = df/dv at (x, v).  Exact backward Euler for forces linear in (x, v). */
static int FUNCTION(ieuler, step)(void *vstate, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(ieuler, state) *w = vstate;
    TYPE(mb_nodes) *s = sys->nodes;
#if IS_MPFR
    int st = FUNCTION(mb_forces, eval_jacobian)(sys->forces, s, sys->t, w->J);
    if (st != MB_SUCCESS)
        return st;
    FUNCTION(mb_linsys, be_rhs)(s, w->J, h, w->b, w->tmp);
#else
    /* the same forces, A and b, assembled straight into the solver's storage where it can;
     * the torques not read while this store is the one the last step left with them +0 */
    w->S->torques_pos_zero = ieuler_torques_left_zero(w, sys);
    w->left_nodes = NULL;
    int torque_free = mb_forces_torque_free(sys->forces);
    int st = mb_implicit_solver_assemble(w->S, sys->forces, s, sys->t, h, w->J, w->b);
    if (st != MB_SUCCESS)
        return st;
    const size_t *listed = NULL;            /* the fixed nodes, if the assembly listed them */
    size_t nfixed = mb_implicit_solver_fixed_nodes(w->S, &listed);
    size_t fixed[MB_LINSYS_FIXED_LIST];
    if (nfixed != SIZE_MAX)
        memcpy(fixed, listed, nfixed * sizeof *fixed);
#endif
#if IS_MPFR
    for (size_t k = 0; k < w->n3; k++)
        R_SET(&w->v_new[k], &s->v[k]);
    st = mb_implicit_solver_mpfr_solve(w->S, s, w->J, h, w->b, w->v_new);
#else
    if (mb_implicit_solver_wants_guess(w->S))
        memcpy(w->v_new, s->v, w->n3 * sizeof(double));    /* initial guess (Krylov) */
    int drifted = 0;            /* x+ formed by the solve from its v+ (ieuler_settle) */
    double drift_nonfinite = 0.0;
    if (nfixed != SIZE_MAX)
        st = mb_implicit_solver_solve_drift(w->S, s, w->J, h, w->b, w->v_new, s->x, w->x_new,
                                            &drifted, &drift_nonfinite);
    else
        st = mb_implicit_solver_solve(w->S, s, w->J, h, w->b, w->v_new);
    w->stats.linear_iterations += w->S->iterations_last;
#endif
    if (st != MB_SUCCESS) {
        if (st == MB_ESINGULAR) {
            char why[256];
            snprintf(why, sizeof why, "%s", mb_last_error());
            MB_ERROR(st, "implicit-euler: M - hC - h^2K is singular at t = %.17g, h = %g (%s)",
                     sys->t, h, why);
        }
        return st;
    }
#if IS_MPFR
    REAL *hh = &w->tmp[0];
    R_SET_D(hh, h);
    for (size_t k = 0; k < w->n3; k++) {
        if (FUNCTION(mb_linsys, node_fixed)(s, k / 3) && FUNCTION(mb_linsys, fixed)(s, k))
            R_SET(&w->v_new[k], &s->v[k]);              /* zero acceleration, exactly */
        R_MUL(&w->tmp[1], &w->v_new[k], hh);
        R_ADD(&w->x_new[k], &s->x[k], &w->tmp[1]);
    }
    int finite = FUNCTION(scheme, finite)(w->x_new, w->n3)
                 && FUNCTION(scheme, finite)(w->v_new, w->n3);
#else
    int finite = drifted ? ieuler_settle(s, h, w->v_new, w->x_new, fixed, nfixed, drift_nonfinite)
                         : ieuler_advance(s, h, w->v_new, w->x_new, fixed, nfixed);
#endif
    if (!finite)
        MB_ERROR(MB_EDIVERGED, "implicit-euler: NaN or Inf at t = %.17g", sys->t + h);
    FUNCTION(scheme, swap)(&s->x, &w->x_new);
    FUNCTION(scheme, swap)(&s->v, &w->v_new);
    sys->t += h;
    w->stats.steps++;
#if !IS_MPFR
    if (torque_free) {                  /* the assembly left every torque +0 */
        w->left_nodes = s;
        w->left_forces = sys->forces;
        w->left_gen = ++s->generation;
    }
#endif
    return MB_SUCCESS;
}

#if !IS_MPFR
static void FUNCTION(ieuler, stats)(const void *vstate, mb_stepper_stats *out)
{
    const struct FUNCTION(ieuler, state) *w = vstate;
    *out = w->stats;
}
#endif

#undef IEULER_SOLVER
