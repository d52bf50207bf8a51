/* symplectic_euler_source.c -- template body of symplectic Euler (see symplectic_euler.c). */

struct FUNCTION(seuler, state) {
    size_t n3;
    REAL *x_new, *v_new;
};

static void FUNCTION(seuler, free)(void *vstate)
{
    struct FUNCTION(seuler, state) *w = vstate;
    if (w == NULL)
        return;
    FUNCTION(scheme, array_free)(w->x_new, w->n3);
    FUNCTION(scheme, array_free)(w->v_new, w->n3);
    free(w);
}

static int FUNCTION(seuler, alloc)(void **out, const mb_options *opts, const TYPE(mb_system) *sys)
{
    struct FUNCTION(seuler, state) *w = calloc(1, sizeof *w);
    (void)opts;
    if (w == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    w->n3 = 3 * sys->nodes->n;
    w->x_new = FUNCTION(scheme, array)(w->n3, sys->nodes->prec);
    w->v_new = FUNCTION(scheme, array)(w->n3, sys->nodes->prec);
    if (!w->x_new || !w->v_new) {
        FUNCTION(seuler, free)(w);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    *out = w;
    return MB_SUCCESS;
}

/* v+ = v + h M^-1 f(x, v),  x+ = x + h v+  (seed 004, "Symplectic Euler") */
static int FUNCTION(seuler, step)(void *vstate, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(seuler, state) *w = vstate;
    TYPE(mb_nodes) *s = sys->nodes;
    int status = FUNCTION(mb_forces, eval)(sys->forces, s, sys->t);
    if (status != MB_SUCCESS)
        return status;
    REAL hh[1], a[1];
    R_INIT(hh, s->prec);
    R_INIT(a, s->prec);
    R_SET_D(hh, h);
    for (size_t i = 0; i < s->n; i++)
        for (int k = 0; k < 3; k++) {
            size_t j = 3 * i + k;
            if (s->blocked[i] & (1u << k)) {
                R_SET(&w->v_new[j], &s->v[j]);          /* zero acceleration */
            } else {
                R_MUL(a, &s->f[j], &s->inv_mass[i]);
                R_MUL(a, a, hh);
                R_ADD(&w->v_new[j], &s->v[j], a);
            }
            R_MUL(a, &w->v_new[j], hh);
            R_ADD(&w->x_new[j], &s->x[j], a);
        }
    R_CLEAR(hh);
    R_CLEAR(a);
    if (!FUNCTION(scheme, finite)(w->x_new, w->n3) || !FUNCTION(scheme, finite)(w->v_new, w->n3))
        MB_ERROR(MB_EDIVERGED, "symplectic-euler: NaN or Inf at t = %.17g", sys->t + h);
    FUNCTION(scheme, swap)(&s->x, &w->x_new);
    FUNCTION(scheme, swap)(&s->v, &w->v_new);
    sys->t += h;
    return MB_SUCCESS;
}
