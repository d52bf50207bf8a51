/* linsolve_gauss_source.c -- template body of Gaussian elimination (see linsolve_gauss.c). */

/* Row-oriented elimination with partial pivoting (Golub & Van Loan, Alg. 3.4.1), then
 * back substitution.  The singularity threshold n 2^(1-prec) max|A| is the size below
 * which a pivot is indistinguishable from the rounding error of the elimination. */
int FUNCTION(mb_gauss, solve)(REAL *A, size_t n, REAL *b, REAL *x, size_t *piv, REAL *tmp)
{
    REAL *t = &tmp[0], *amax = &tmp[1], *thr = &tmp[2];
    R_SET_D(amax, 0.0);
    for (size_t k = 0; k < n * n; k++) {
        R_ABS(t, &A[k]);
        if (R_CMP(t, amax) > 0)
            R_SET(amax, t);
    }
    /* thr = n 2^(1-prec) max|A|, scaled by the power of two in the base itself
     * (2^(1-prec) as a double underflows to 0 above 1074 bits) */
    R_MUL_D(thr, amax, (double)n);
    R_MUL_2SI(thr, thr, 1 - (long)R_PREC(t));
    for (size_t k = 0; k < n; k++)
        piv[k] = k;
    for (size_t k = 0; k < n; k++) {
        if (mb_cancel_requested())      /* O(n^2) work per column: poll once per column */
            return mb_cancel_error();
        size_t p = k;
        R_ABS(amax, &A[piv[k] * n + k]);
        for (size_t r = k + 1; r < n; r++) {
            R_ABS(t, &A[piv[r] * n + k]);
            if (R_CMP(t, amax) > 0) {
                R_SET(amax, t);
                p = r;
            }
        }
        if (R_ISZERO(amax) || R_CMP(amax, thr) <= 0)
            MB_ERROR(MB_ESINGULAR, "singular linear system: pivot %zu of %zu is %g "
                     "(threshold n 2^(1-prec) max|A| = %g)", k + 1, n, R_GET_D(amax),
                     R_GET_D(thr));
        size_t sw = piv[k]; piv[k] = piv[p]; piv[p] = sw;
        const REAL *pr = &A[piv[k] * n];
        for (size_t r = k + 1; r < n; r++) {
            REAL *row = &A[piv[r] * n];
            if (R_ISZERO(&row[k]))
                continue;
            R_DIV(amax, &row[k], &pr[k]);        /* multiplier l_rk */
            for (size_t c = k + 1; c < n; c++) {
                R_MUL(t, amax, &pr[c]);
                R_SUB(&row[c], &row[c], t);
            }
            R_MUL(t, amax, &b[piv[k]]);
            R_SUB(&b[piv[r]], &b[piv[r]], t);
        }
    }
    for (size_t kk = n; kk-- > 0;) {
        const REAL *row = &A[piv[kk] * n];
        R_SET(amax, &b[piv[kk]]);
        for (size_t c = kk + 1; c < n; c++) {
            R_MUL(t, &row[c], &x[c]);
            R_SUB(amax, amax, t);
        }
        R_DIV(&x[kk], amax, &row[kk]);
    }
    return MB_SUCCESS;
}
