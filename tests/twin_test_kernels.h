/* twin_test_kernels.h -- test-only template kernels, included by test_twin.c after
 * templates_on.h for each base.
 *
 *   rot_step       q <- Quaternion(w h) (x) q with R_SIN / R_COS (transcendental calls:
 *                  libm in double, correctly rounded MPFR in the twin)
 *   divide_euler   explicit Euler whose MPFR instance divides by the mass where the double
 *                  instance multiplies by the inverse mass (a twin that is NOT the same
 *                  operation sequence: negative control of the bit-identity test)
 *   symplectic_twin explicit Euler in double, symplectic Euler in the twin (a twin of a
 *                  different scheme: negative control of the round-off metric) */

static __attribute__((unused)) void FUNCTION(rot, step)(REAL *q, const double w[3], double h,
                                                         REAL *t /* 12 */)
{
    REAL *r = &t[0], *n = &t[3], *a = &t[4], *c = &t[5], *s = &t[6], *dq = &t[7], *b = &t[11];
    R_SET_D(n, 0.0);
    for (int k = 0; k < 3; k++) {
        R_SET_D(&r[k], w[k]);
        R_MUL_D(&r[k], &r[k], h);
        R_MUL(a, &r[k], &r[k]);
        R_ADD(n, n, a);
    }
    R_SQRT(n, n);                        /* |w h| */
    R_MUL_D(a, n, 0.5);
    R_COS(c, a);
    R_SIN(s, a);
    R_DIV(s, s, n);                      /* sin(|th|/2)/|th| */
    R_SET(&dq[0], c);
    for (int k = 0; k < 3; k++)
        R_MUL(&dq[1 + k], &r[k], s);
    /* q <- dq (x) q, Hamilton product written out (same order in both bases) */
    REAL *p = &t[0];                     /* r no longer needed: reuse t[0..2] and c as p[3] */
    REAL pw[1];
    R_INIT(pw, R_PREC(&q[0]));
    R_MUL(pw, &dq[0], &q[0]);
    for (int k = 1; k < 4; k++) {
        R_MUL(b, &dq[k], &q[k]);
        R_SUB(pw, pw, b);
    }
    for (int k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        REAL *pk = k < 2 ? &p[k] : c;
        R_MUL(pk, &dq[0], &q[1 + k]);
        R_MUL(b, &q[0], &dq[1 + k]);
        R_ADD(pk, pk, b);
        R_MUL(b, &dq[1 + k1], &q[1 + k2]);
        R_ADD(pk, pk, b);
        R_MUL(b, &dq[1 + k2], &q[1 + k1]);
        R_SUB(pk, pk, b);
    }
    R_SET(&q[0], pw);
    R_SET(&q[1], &p[0]);
    R_SET(&q[2], &p[1]);
    R_SET(&q[3], c);
    R_CLEAR(pw);
}

static __attribute__((unused)) int FUNCTION(tk, alloc)(void **out, const mb_options *o,
                                                        const TYPE(mb_system) *sys)
{
    (void)o;
    (void)sys;
    *out = calloc(1, sizeof(int));
    return *out ? MB_SUCCESS : MB_ENOMEM;
}

static __attribute__((unused)) void FUNCTION(tk, free)(void *s) { free(s); }

/* in place: x += h v, v += h a with a from forces at the old state */
static __attribute__((unused)) int FUNCTION(divide_euler, step)(void *st, TYPE(mb_system) *sys,
                                                                 double h)
{
    TYPE(mb_nodes) *s = sys->nodes;
    int status = FUNCTION(mb_forces, eval)(sys->forces, s, sys->t);
    if (status != MB_SUCCESS)
        return status;
    REAL a[1];
    R_INIT(a, s->prec);
    (void)st;
    for (size_t i = 0; i < s->n; i++)
        for (int k = 0; k < 3; k++) {
            size_t j = 3 * i + k;
#if IS_MPFR
            R_DIV(a, &s->f[j], &s->mass[i]);
#else
            R_MUL(a, &s->f[j], &s->inv_mass[i]);
#endif
            R_MUL_D(a, a, h);
            R_MUL_D(&s->f[j], &s->v[j], h);      /* f is scratch once a is known */
            R_ADD(&s->x[j], &s->x[j], &s->f[j]);
            R_ADD(&s->v[j], &s->v[j], a);
        }
    R_CLEAR(a);
    sys->t += h;
    return MB_SUCCESS;
}

static __attribute__((unused)) int FUNCTION(symplectic_twin, step)(void *st, TYPE(mb_system) *sys,
                                                                    double h)
{
    TYPE(mb_nodes) *s = sys->nodes;
    int status = FUNCTION(mb_forces, eval)(sys->forces, s, sys->t);
    if (status != MB_SUCCESS)
        return status;
    REAL a[1];
    R_INIT(a, s->prec);
    (void)st;
    for (size_t i = 0; i < s->n; i++)
        for (int k = 0; k < 3; k++) {
            size_t j = 3 * i + k;
            R_MUL(a, &s->f[j], &s->inv_mass[i]);
            R_MUL_D(a, a, h);
#if IS_MPFR
            R_ADD(&s->v[j], &s->v[j], a);          /* v first: symplectic Euler */
            R_MUL_D(a, &s->v[j], h);
            R_ADD(&s->x[j], &s->x[j], a);
#else
            R_MUL_D(&s->f[j], &s->v[j], h);
            R_ADD(&s->x[j], &s->x[j], &s->f[j]);
            R_ADD(&s->v[j], &s->v[j], a);
#endif
        }
    R_CLEAR(a);
    sys->t += h;
    return MB_SUCCESS;
}
