/* leapfrog_defect_source.c -- template part of leapfrog-defect (leapfrog_defect.c),
 * included before the scheme's template. */

/* The local-frame-angmom mistake: L = I (R(q)^T w), body components returned as if
 * global (Woo's initialisation). */
static void FUNCTION(lfd, body_angmom)(struct FUNCTION(mbq, scratch) *w_q, REAL *L, const REAL *q,
                                       const REAL *I, const REAL *w)
{
    FUNCTION(mbq, rotate_inv)(w_q, L, q, w);
    for (int k = 0; k < 3; k++)
        R_MUL(&L[k], &L[k], &I[k]);
}
