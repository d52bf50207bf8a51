/* mb_linsolve_template.h -- template part of mb_linsolve.h (included once per base). */

/* 1 when degree of freedom k (0..3n-1) of s is fixed: blocked axis or infinite mass. */
int FUNCTION(mb_linsys, fixed)(const TYPE(mb_nodes) *s, size_t k);

/* Dense A = M - h C - h^2 K (row-major, leading dimension lda, 3n x 3n); the row of a
 * fixed degree of freedom is d e_k^T (d = mass, 1 for infinite mass).  Duplicate blocks
 * are summed in list order. */
void FUNCTION(mb_linsys, dense)(const TYPE(mb_nodes) *s, const TYPE(mb_jacobian) *J,
                                double h, REAL *A, size_t lda);

/* b = (M - h C) v + h f  with f = s->f current; b_k = d v_k on fixed rows.  tmp: 2 REALs
 * initialised by the caller (no allocation here). */
void FUNCTION(mb_linsys, be_rhs)(const TYPE(mb_nodes) *s, const TYPE(mb_jacobian) *J,
                                 double h, REAL *b, REAL *tmp);

/* Newton right-hand side of backward Euler in velocity form, -R(w) with
 *     R(w) = M (w - v) - h f(x + h w, w),
 * where f = trial->f was evaluated at the trial state (x + h w, w) and v is the start
 * velocity; 0 on fixed rows.  tmp: 2 REALs. */
void FUNCTION(mb_linsys, newton_rhs)(const TYPE(mb_nodes) *trial, const REAL *v, double h,
                                     REAL *b, REAL *tmp);

/* Gaussian elimination with partial pivoting: solves A x = b in place of A and b
 * (n x n, row-major).  piv: n size_t scratch; tmp: 3 REALs initialised by the caller.
 * MB_ESINGULAR when a pivot is 0 or |pivot| <= n 2^(1-prec) max|A|. */
int FUNCTION(mb_gauss, solve)(REAL *A, size_t n, REAL *b, REAL *x, size_t *piv, REAL *tmp);
