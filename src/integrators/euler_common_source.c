/* euler_common_source.c -- template pieces shared by explicit and symplectic Euler:
 * scratch state, the velocity kick, the position drift and the commit of the new state
 * (each scheme's own source composes them in its step).  Included after templates_on.h and scheme_util_source.c. */

struct FUNCTION(euler, state) {
    size_t n3;
    REAL *x_new, *v_new;
};

static void FUNCTION(euler, free)(void *vstate)
{
    struct FUNCTION(euler, state) *w = vstate;
    if (w == NULL)
        return;
    FUNCTION(scheme, array_free)(w->x_new, w->n3);
    FUNCTION(scheme, array_free)(w->v_new, w->n3);
    free(w);
}

static int FUNCTION(euler, alloc)(void **out, const mb_options *opts, const TYPE(mb_system) *sys)
{
    struct FUNCTION(euler, state) *w = calloc(1, sizeof *w);
    (void)opts;
    if (w == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    w->n3 = 3 * sys->nodes->n;
    w->x_new = FUNCTION(scheme, array)(w->n3, sys->nodes->prec);
    w->v_new = FUNCTION(scheme, array)(w->n3, sys->nodes->prec);
    if (!w->x_new || !w->v_new) {
        FUNCTION(euler, free)(w);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    *out = w;
    return MB_SUCCESS;
}

/* v_new = v + (M^-1 f) h; blocked degrees of freedom get zero acceleration. */
static void FUNCTION(euler, kick)(struct FUNCTION(euler, state) *w, const TYPE(mb_nodes) *s,
                                  REAL *hh, REAL *a)
{
    for (size_t i = 0; i < s->n; i++)
        for (int k = 0; k < 3; k++) {
            size_t j = 3 * i + k;
            if (s->blocked[i] & (1u << k)) {
                R_SET(&w->v_new[j], &s->v[j]);
            } else {
                R_MUL(a, &s->f[j], &s->inv_mass[i]);
                R_MUL(a, a, hh);
                R_ADD(&w->v_new[j], &s->v[j], a);
            }
        }
}

/* x_new = x + u h, with u = v (explicit) or v_new (symplectic). */
static void FUNCTION(euler, drift)(struct FUNCTION(euler, state) *w, const TYPE(mb_nodes) *s,
                                   const REAL *u, REAL *hh, REAL *a)
{
    for (size_t j = 0; j < w->n3; j++) {
        R_MUL(a, &u[j], hh);
        R_ADD(&w->x_new[j], &s->x[j], a);
    }
}

/* Check the new state, then make it current (pointer swap) and advance t.  On NaN/Inf
 * the state is left as it was. */
static int FUNCTION(euler, commit)(struct FUNCTION(euler, state) *w, TYPE(mb_system) *sys,
                                   double h, const char *scheme)
{
    TYPE(mb_nodes) *s = sys->nodes;
    if (!FUNCTION(scheme, finite)(w->x_new, w->n3) || !FUNCTION(scheme, finite)(w->v_new, w->n3))
        MB_ERROR(MB_EDIVERGED, "%s: NaN or Inf at t = %.17g", scheme, sys->t + h);
    FUNCTION(scheme, swap)(&s->x, &w->x_new);
    FUNCTION(scheme, swap)(&s->v, &w->v_new);
    sys->t += h;
    return MB_SUCCESS;
}
