/* ref_test_forces.h -- test-only force models, written once against the template layer and
 * included by a test after templates_on.h (BASE_DOUBLE, then BASE_MPFR):
 *   central  f_i = -mu m_i x_i / |x_i|^3      (Kepler problem about the origin)
 *   ctorque  T_i += T0                        (constant global torque)
 *   signf    f_i,x -= k sgn(x_i,x)            (discontinuous: no smooth reference exists) */

static __attribute__((unused)) int FUNCTION(central, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const double *mu = params;
    REAL r2[1], a[1];
    R_INIT(r2, s->prec);
    R_INIT(a, s->prec);
    (void)t;
    for (size_t i = 0; i < s->n; i++) {
        R_MUL(r2, &s->x[3 * i], &s->x[3 * i]);
        for (int k = 1; k < 3; k++) {
            R_MUL(a, &s->x[3 * i + k], &s->x[3 * i + k]);
            R_ADD(r2, r2, a);
        }
        R_SQRT(a, r2);
        R_MUL(r2, r2, a);                       /* |x|^3 */
        R_MUL_D(a, &s->mass[i], *mu);
        R_DIV(r2, a, r2);                       /* mu m / |x|^3 */
        for (int k = 0; k < 3; k++) {
            R_MUL(a, r2, &s->x[3 * i + k]);
            R_SUB(&s->f[3 * i + k], &s->f[3 * i + k], a);
        }
    }
    R_CLEAR(r2);
    R_CLEAR(a);
    return MB_SUCCESS;
}

static __attribute__((unused)) int FUNCTION(ctorque, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const double *T = params;
    (void)t;
    for (size_t i = 0; i < s->n; i++)
        for (int k = 0; k < 3; k++)
            R_ADD_D(&s->torque[3 * i + k], &s->torque[3 * i + k], T[k]);
    return MB_SUCCESS;
}

static __attribute__((unused)) int FUNCTION(signf, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const double *k = params;
    (void)t;
    for (size_t i = 0; i < s->n; i++)
        R_SUB_D(&s->f[3 * i], &s->f[3 * i], *k * R_SGN(&s->x[3 * i]));
    return MB_SUCCESS;
}

/* slab  f_i,x += k (w - x_i,x) while w - d < x_i,x < w: a stiff one-sided contact at x = w
 * of finite depth d (like two spheres, which stop interacting once they have passed
 * through each other) */
static __attribute__((unused)) int FUNCTION(wall, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const double *p = params;     /* k, w, d */
    REAL a[1];
    R_INIT(a, s->prec);
    (void)t;
    for (size_t i = 0; i < s->n; i++)
        if (R_CMP_D(&s->x[3 * i], p[1]) < 0 && R_CMP_D(&s->x[3 * i], p[1] - p[2]) > 0) {
            R_D_SUB(a, p[1], &s->x[3 * i]);
            R_MUL_D(a, a, p[0]);
            R_ADD(&s->f[3 * i], &s->f[3 * i], a);
        }
    R_CLEAR(a);
    return MB_SUCCESS;
}
