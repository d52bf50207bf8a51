/* translation_stage_source.c -- template helpers of the comparison schemes that advance
 * the translational first-order system x' = v, v' = M^-1 f(x, v, t) (velocity Verlet,
 * classical RK4): force evaluation at a trial state without touching the committed
 * state, and the acceleration with blocked degrees of freedom.  Included after
 * templates_on.h and scheme_util_source.c. */

/* f_out = f(X, V, t): the node store's x, v, f pointers are pointed at the trial arrays
 * for the evaluation and restored afterwards, so sys->nodes keeps its state (only its
 * torque array, scratch of every force evaluation, is overwritten). */
static int FUNCTION(tstage, eval)(TYPE(mb_system) *sys, REAL *X, REAL *V, REAL *f_out, double t)
{
    TYPE(mb_nodes) *s = sys->nodes;
    REAL *x0 = s->x, *v0 = s->v, *f0 = s->f;
    s->x = X;
    s->v = V;
    s->f = f_out;
    int status = FUNCTION(mb_forces, eval)(sys->forces, s, t);
    s->x = x0;
    s->v = v0;
    s->f = f0;
    return status;
}

/* a_j = f_j / m_i, zero on blocked degrees of freedom (a and f may alias). */
static void FUNCTION(tstage, accel)(const TYPE(mb_nodes) *s, const REAL *f, REAL *a)
{
    for (size_t i = 0; i < s->n; i++)
        for (int k = 0; k < 3; k++) {
            size_t j = 3 * i + k;
            if (s->blocked[i] & (1u << k))
                R_SET_D(&a[j], 0.0);
            else
                R_MUL(&a[j], &f[j], &s->inv_mass[i]);
        }
}

/* r = u + c w over 3n components (r may alias u; tmp is a scratch scalar). */
static void FUNCTION(tstage, axpy)(REAL *r, const REAL *u, REAL *c, const REAL *w, size_t n3,
                                   REAL *tmp)
{
    for (size_t j = 0; j < n3; j++) {
        R_MUL(tmp, &w[j], c);
        R_ADD(&r[j], &u[j], tmp);
    }
}
