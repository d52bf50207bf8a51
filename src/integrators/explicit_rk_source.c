/* explicit_rk_source.c -- template body of an explicit Runge-Kutta method on the
 * translational first-order system y = (x, v), y' = (v, M^-1 f(x, v, t)), for any
 * Butcher tableau of exact rationals (struct rk_tableau, see rk4.c).  Stage i:
 *   X_i = x + h sum_{j<i} a_ij V_j,   V_i = v + h sum_{j<i} a_ij A_j,
 *   A_i = M^-1 f(X_i, V_i, t + c_i h);
 * update  x+ = x + h sum_i b_i V_i,  v+ = v + h sum_i b_i A_i
 * (Hairer, Norsett & Wanner, Solving ODEs I, II.1, eq. (1.8)).  The coefficients are
 * formed as correctly rounded quotients num/den in the working precision, the same
 * operations in both instances. */

struct FUNCTION(erk, state) {
    const struct rk_tableau *tab;
    size_t n3;
    REAL *KX[RK_MAX_STAGES], *KV[RK_MAX_STAGES];   /* V_i and A_i */
    REAL *X, *f, *x_new, *v_new;
};

static void FUNCTION(erk, free)(void *vstate)
{
    struct FUNCTION(erk, state) *w = vstate;
    if (w == NULL)
        return;
    for (int i = 0; i < RK_MAX_STAGES; i++) {
        FUNCTION(scheme, array_free)(w->KX[i], w->n3);
        FUNCTION(scheme, array_free)(w->KV[i], w->n3);
    }
    FUNCTION(scheme, array_free)(w->X, w->n3);
    FUNCTION(scheme, array_free)(w->f, w->n3);
    FUNCTION(scheme, array_free)(w->x_new, w->n3);
    FUNCTION(scheme, array_free)(w->v_new, w->n3);
    free(w);
}

static int FUNCTION(erk, alloc_with)(void **out, const TYPE(mb_system) *sys,
                                     const struct rk_tableau *tab)
{
    struct FUNCTION(erk, state) *w = calloc(1, sizeof *w);
    if (w == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    w->tab = tab;
    w->n3 = 3 * sys->nodes->n;
    mpfr_prec_t p = sys->nodes->prec;
    int ok = 1;
    for (int i = 0; i < tab->stages; i++) {
        w->KX[i] = FUNCTION(scheme, array)(w->n3, p);
        w->KV[i] = FUNCTION(scheme, array)(w->n3, p);
        ok = ok && w->KX[i] && w->KV[i];
    }
    w->X = FUNCTION(scheme, array)(w->n3, p);
    w->f = FUNCTION(scheme, array)(w->n3, p);
    w->x_new = FUNCTION(scheme, array)(w->n3, p);
    w->v_new = FUNCTION(scheme, array)(w->n3, p);
    if (!ok || !w->X || !w->f || !w->x_new || !w->v_new) {
        FUNCTION(erk, free)(w);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    *out = w;
    return MB_SUCCESS;
}

/* hc = h num/den */
static void FUNCTION(erk, coef)(REAL *hc, REAL *hh, struct rk_rational r)
{
    R_SET_SI(hc, r.num);
    R_DIV_D(hc, hc, (double)r.den);
    R_MUL(hc, hc, hh);
}

/* r = u + sum_j (h a_j) K_j over the first m stages with a_j != 0 */
static void FUNCTION(erk, combine)(REAL *r, const REAL *u, REAL *const *K,
                                   const struct rk_rational *a, int m, size_t n3,
                                   REAL *hh, REAL *hc, REAL *tmp)
{
    for (size_t j = 0; j < n3; j++)
        R_SET(&r[j], &u[j]);
    for (int k = 0; k < m; k++) {
        if (a[k].num == 0)
            continue;
        FUNCTION(erk, coef)(hc, hh, a[k]);
        FUNCTION(tstage, axpy)(r, r, hc, K[k], n3, tmp);
    }
}

static int FUNCTION(erk, step)(void *vstate, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(erk, state) *w = vstate;
    const struct rk_tableau *tab = w->tab;
    TYPE(mb_nodes) *s = sys->nodes;
    int status = MB_SUCCESS;
    if (!(h > 0.0))
        MB_ERROR(MB_EDOM, "%s: time step h = %g must be > 0", tab->name, h);
    REAL hh[1], hc[1], tmp[1];
    R_INIT(hh, s->prec);
    R_INIT(hc, s->prec);
    R_INIT(tmp, s->prec);
    R_SET_D(hh, h);
    for (int i = 0; i < tab->stages && status == MB_SUCCESS; i++) {
        /* X_i, V_i (V_i is stored as the position stage derivative KX[i]) */
        FUNCTION(erk, combine)(w->X, s->x, w->KX, tab->a[i], i, w->n3, hh, hc, tmp);
        FUNCTION(erk, combine)(w->KX[i], s->v, w->KV, tab->a[i], i, w->n3, hh, hc, tmp);
        double ti = sys->t + (double)tab->c[i].num / (double)tab->c[i].den * h;
        status = FUNCTION(tstage, eval)(sys, w->X, w->KX[i], w->f, ti);
        if (status == MB_SUCCESS)
            FUNCTION(tstage, accel)(s, w->f, w->KV[i]);
    }
    if (status == MB_SUCCESS) {
        FUNCTION(erk, combine)(w->x_new, s->x, w->KX, tab->b, tab->stages, w->n3, hh, hc, tmp);
        FUNCTION(erk, combine)(w->v_new, s->v, w->KV, tab->b, tab->stages, w->n3, hh, hc, tmp);
    }
    R_CLEAR(hh);
    R_CLEAR(hc);
    R_CLEAR(tmp);
    if (status != MB_SUCCESS)
        return status;
    if (!FUNCTION(scheme, finite)(w->x_new, w->n3) || !FUNCTION(scheme, finite)(w->v_new, w->n3))
        MB_ERROR(MB_EDIVERGED, "%s: NaN or Inf at t = %.17g", tab->name, sys->t + h);
    FUNCTION(scheme, swap)(&s->x, &w->x_new);
    FUNCTION(scheme, swap)(&s->v, &w->v_new);
    sys->t += h;
    return MB_SUCCESS;
}
