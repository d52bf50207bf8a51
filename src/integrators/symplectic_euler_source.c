/* symplectic_euler_source.c -- template body of Symplectic Euler (see symplectic_euler.c). */

/* v+ = v + h M^-1 f(x, v),  x+ = x + h v+  (seed 004, "Symplectic Euler") */
static int FUNCTION(seuler, step)(void *vstate, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(euler, state) *w = vstate;
    TYPE(mb_nodes) *s = sys->nodes;
    int status = FUNCTION(mb_forces, eval)(sys->forces, s, sys->t);
    if (status != MB_SUCCESS)
        return status;
    REAL hh[1], a[1];
    R_INIT(hh, s->prec);
    R_INIT(a, s->prec);
    R_SET_D(hh, h);
    FUNCTION(euler, kick)(w, s, hh, a);             /* v+ = v + h M^-1 f(x, v) */
    FUNCTION(euler, drift)(w, s, w->v_new, hh, a); /* x+ = x + h v+ */
    R_CLEAR(hh);
    R_CLEAR(a);
    return FUNCTION(euler, commit)(w, sys, h, "symplectic-euler");
}
