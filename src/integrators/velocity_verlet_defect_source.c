/* velocity_verlet_defect_source.c -- template body of velocity-verlet-defect (see
 * velocity_verlet_defect.c): the production step of velocity_verlet_source.c wrapped
 * with the deliberate mistake. */

struct FUNCTION(vvdefect, state) {
    struct FUNCTION(vverlet, state) *vv;   /* the production scheme's state */
    int defect;                            /* VV_DEFECT_* */
    REAL *lag;                             /* stale-force: a(t+h), held back one step */
};

static void FUNCTION(vvdefect, free)(void *vstate)
{
    struct FUNCTION(vvdefect, state) *d = vstate;
    if (d == NULL)
        return;
    if (d->vv)
        FUNCTION(scheme, array_free)(d->lag, d->vv->n3);
    FUNCTION(vverlet, free)(d->vv);
    free(d);
}

static int FUNCTION(vvdefect, alloc)(void **out, const mb_options *opts,
                                     const TYPE(mb_system) *sys)
{
    struct FUNCTION(vvdefect, state) *d = calloc(1, sizeof *d);
    if (d == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    d->defect = vv_defect_of(opts);
    void *vv = NULL;
    int st = FUNCTION(vverlet, alloc)(&vv, opts, sys);
    d->vv = vv;
    if (st == MB_SUCCESS && (d->lag = FUNCTION(scheme, array)(d->vv->n3, sys->nodes->prec)) == NULL)
        st = MB_ENOMEM;
    if (st != MB_SUCCESS) {
        FUNCTION(vvdefect, free)(d);
        MB_ERROR(st, "velocity-verlet-defect: cannot allocate its state");
    }
    *out = d;
    return MB_SUCCESS;
}

/* no-invalidate: make any cache look like the current state's, so the production step
 * trusts it for a system it did not step. */
static void FUNCTION(vvdefect, trust_cache)(struct FUNCTION(vverlet, state) *w,
                                            const TYPE(mb_system) *sys)
{
    w->sys_c = sys;
    w->forces_c = sys->forces;
    w->nodes_c = sys->nodes;
    w->t_c = sys->t;
    w->gen_c = sys->nodes->generation;
}

/* stale-force: after a production step a_c holds a(t+h) and a_new the a(t) the step
 * used.  The cache is made to lag one step: the next step starts from a(t) (after a
 * fresh evaluation) or from the a(t) held back by the previous step, and a(t+h) is held
 * back in lag. */
static int FUNCTION(vvdefect, step)(void *vstate, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(vvdefect, state) *d = vstate;
    struct FUNCTION(vverlet, state) *w = d->vv;
    if (d->defect == VV_DEFECT_NO_INVALIDATE && w->have)
        FUNCTION(vvdefect, trust_cache)(w, sys);
    int fresh = !FUNCTION(vverlet, cache_valid)(w, sys);
    int st = FUNCTION(vverlet, step)(w, sys, h);
    if (st != MB_SUCCESS || d->defect != VV_DEFECT_STALE_FORCE)
        return st;
    if (fresh) {
        FUNCTION(scheme, swap)(&w->a_c, &w->a_new);
        FUNCTION(scheme, swap)(&d->lag, &w->a_new);
    } else {
        FUNCTION(scheme, swap)(&w->a_c, &d->lag);
    }
    return MB_SUCCESS;
}
