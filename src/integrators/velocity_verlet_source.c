/* velocity_verlet_source.c -- template body of velocity Verlet (see velocity_verlet.c). */

struct FUNCTION(vverlet, state) {
    size_t n3;
    int have;                   /* 1: a_c is the acceleration of the state the step left */
    const void *sys_c;          /* the system, force field and node store it left, */
    const void *forces_c;
    const void *nodes_c;
    double t_c;                 /* its time */
    unsigned long gen_c;        /* and the store's generation (mb_stepper.h) */
    REAL *a_c;                  /* force cache: acceleration a(t) */
    REAL *x_new, *v_new, *v_pred, *f_new, *a_new;  /* after a step a_new holds the a(t) used */
};

static void FUNCTION(vverlet, free)(void *vstate)
{
    struct FUNCTION(vverlet, state) *w = vstate;
    if (w == NULL)
        return;
    REAL **arrays[] = { &w->a_c, &w->x_new, &w->v_new, &w->v_pred, &w->f_new, &w->a_new };
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        FUNCTION(scheme, array_free)(*arrays[k], w->n3);
    free(w);
}

static int FUNCTION(vverlet, alloc)(void **out, const mb_options *opts, const TYPE(mb_system) *sys)
{
    struct FUNCTION(vverlet, state) *w = calloc(1, sizeof *w);
    if (w == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    (void)opts;
    w->n3 = 3 * sys->nodes->n;
    REAL **arrays[] = { &w->a_c, &w->x_new, &w->v_new, &w->v_pred, &w->f_new, &w->a_new };
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
        *arrays[k] = FUNCTION(scheme, array)(w->n3, sys->nodes->prec);
        if (*arrays[k] == NULL) {
            FUNCTION(vverlet, free)(w);
            MB_ERROR(MB_ENOMEM, "out of memory");
        }
    }
    *out = w;
    return MB_SUCCESS;
}

/* The cached acceleration belongs to the system's current state when the system, its
 * force field, its node store, the time and the store's generation are those the scheme
 * left: any other writer of x, v or the masses bumps the generation (mb_stepper.h), so
 * no array is compared (a system the scheme did not step, or one reset by its owner, is
 * re-evaluated). */
static int FUNCTION(vverlet, cache_valid)(const struct FUNCTION(vverlet, state) *w,
                                          const TYPE(mb_system) *sys)
{
    return w->have && w->sys_c == (const void *)sys && w->forces_c == (const void *)sys->forces
           && w->nodes_c == (const void *)sys->nodes && w->t_c == sys->t
           && w->gen_c == sys->nodes->generation;
}

/* Swope, Andersen, Berens & Wilson (1982), in kick-drift-kick form:
 *   v(t+h/2) = v(t) + (h/2) a(t)
 *   x(t+h)   = x(t) + h v(t+h/2)
 *   a(t+h)   = M^-1 f(x(t+h), v(t) + h a(t), t+h)
 *   v(t+h)   = v(t+h/2) + (h/2) a(t+h)
 * one force evaluation per step: a(t+h) is cached for the next step.  For forces that
 * depend on velocity the new force is taken at the first-order predictor v(t) + h a(t)
 * (an O(h^2) velocity error in an O(h) term: second order is kept). */
static int FUNCTION(vverlet, step)(void *vstate, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(vverlet, state) *w = vstate;
    TYPE(mb_nodes) *s = sys->nodes;
    int status;
    if (!(h > 0.0))
        MB_ERROR(MB_EDOM, "velocity-verlet: time step h = %g must be > 0", h);
    if (!FUNCTION(vverlet, cache_valid)(w, sys)) {
        w->have = 0;
        status = FUNCTION(tstage, eval)(sys, s->x, s->v, w->f_new, sys->t);
        if (status != MB_SUCCESS)
            return status;
        FUNCTION(tstage, accel)(s, w->f_new, w->a_c);
    }
    REAL hh[1], h2[1], tmp[1];
    R_INIT(hh, s->prec);
    R_INIT(h2, s->prec);
    R_INIT(tmp, s->prec);
    R_SET_D(hh, h);
    R_SET_D(h2, 0.5 * h);   /* exact: halving a double */
    FUNCTION(tstage, axpy)(w->v_new, s->v, h2, w->a_c, w->n3, tmp);      /* v(t+h/2) */
    FUNCTION(tstage, axpy)(w->x_new, s->x, hh, w->v_new, w->n3, tmp);    /* x(t+h) */
    FUNCTION(tstage, axpy)(w->v_pred, s->v, hh, w->a_c, w->n3, tmp);     /* predictor */
    status = FUNCTION(tstage, eval)(sys, w->x_new, w->v_pred, w->f_new, sys->t + h);
    if (status == MB_SUCCESS) {
        FUNCTION(tstage, accel)(s, w->f_new, w->a_new);                  /* a(t+h) */
        FUNCTION(tstage, axpy)(w->v_new, w->v_new, h2, w->a_new, w->n3, tmp); /* v(t+h) */
    }
    R_CLEAR(hh);
    R_CLEAR(h2);
    R_CLEAR(tmp);
    if (status != MB_SUCCESS)
        return status;
    if (!FUNCTION(scheme, finite)(w->x_new, w->n3) || !FUNCTION(scheme, finite)(w->v_new, w->n3))
        MB_ERROR(MB_EDIVERGED, "velocity-verlet: NaN or Inf at t = %.17g", sys->t + h);
    FUNCTION(scheme, swap)(&s->x, &w->x_new);
    FUNCTION(scheme, swap)(&s->v, &w->v_new);
    FUNCTION(scheme, swap)(&s->f, &w->f_new);   /* the force at the new time */
    sys->t += h;
    FUNCTION(scheme, swap)(&w->a_c, &w->a_new);
    w->t_c = sys->t;
    w->sys_c = sys;
    w->forces_c = sys->forces;
    w->nodes_c = s;
    w->gen_c = ++s->generation;     /* a step changes the generation; the scheme keeps it */
    w->have = 1;
    return MB_SUCCESS;
}
