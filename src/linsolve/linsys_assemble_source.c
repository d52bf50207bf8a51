/* linsys_assemble_source.c -- template body of the implicit-Euler system (see
 * linsys_assemble.c).  Every entry is built by the same sequence of operations in
 * both instances, so a 53-bit MPFR twin assembles the very numbers double does. */

int FUNCTION(mb_linsys, fixed)(const TYPE(mb_nodes) *s, size_t k)
{
    size_t i = k / 3;
    return R_ISZERO(&s->inv_mass[i]) || (s->blocked[i] & (1u << (k % 3))) != 0;
}

/* 1 when some degree of freedom of node i is fixed (any axis blocked, or infinite mass) */
int FUNCTION(mb_linsys, node_fixed)(const TYPE(mb_nodes) *s, size_t i)
{
#if IS_MPFR
    return R_ISZERO(&s->inv_mass[i]) || s->blocked[i] != 0;
#else
    return mb_linsys_node_fixed_inline(s, i);
#endif
}

/* Diagonal of the identity-like row of a fixed degree of freedom: the node's mass when
 * finite (so the row has the scale of the others and pivot-ratio tests stay meaningful
 * in any units), 1 for infinite mass. */
static void FUNCTION(linsys, fixed_diag)(const TYPE(mb_nodes) *s, size_t k, REAL *out)
{
    if (R_ISZERO(&s->inv_mass[k / 3]))
        R_SET_D(out, 1.0);
    else
        R_SET(out, &s->mass[k / 3]);
}

/* A = M - h C - h^2 K: entry by entry, A_rc = delta_rc m - sum_b (h C_b,rc + h^2 K_b,rc),
 * each block's sum G = h C + h^2 K formed first and subtracted in list order (as
 * mb_linsys_block_g in double) */
void FUNCTION(mb_linsys, dense)(const TYPE(mb_nodes) *s, const TYPE(mb_jacobian) *J,
                                double h, REAL *A, size_t lda)
{
    size_t n3 = 3 * s->n;
    REAL t[1], u[1], hh[1], h2[1];
    R_INIT(t, s->prec);
    R_INIT(u, s->prec);
    R_INIT(hh, s->prec);
    R_INIT(h2, s->prec);
    R_SET_D(hh, h);
    R_MUL(h2, hh, hh);
    for (size_t r = 0; r < n3; r++)
        for (size_t c = 0; c < n3; c++)
            R_SET_D(&A[r * lda + c], 0.0);
    for (size_t k = 0; k < n3; k++)
        R_SET(&A[k * lda + k], &s->mass[k / 3]);
    for (size_t b = 0; b < J->count; b++) {
        size_t r0 = 3 * J->row[b], c0 = 3 * J->col[b];
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++) {
                REAL *Ae = &A[(r0 + a) * lda + c0 + e];
                R_MUL(t, hh, &J->dfdv[9 * b + 3 * a + e]);
                R_MUL(u, h2, &J->dfdx[9 * b + 3 * a + e]);
                R_ADD(t, t, u);
                R_SUB(Ae, Ae, t);
            }
    }
    for (size_t k = 0; k < n3; k++)
        if (FUNCTION(mb_linsys, fixed)(s, k)) {
            for (size_t c = 0; c < n3; c++)
                R_SET_D(&A[k * lda + c], 0.0);
            FUNCTION(linsys, fixed_diag)(s, k, &A[k * lda + k]);
        }
    R_CLEAR(t);
    R_CLEAR(u);
    R_CLEAR(hh);
    R_CLEAR(h2);
}

/* b = M v + h f: b_k = m v_k + h f_k, the start of every entry of the right-hand side */
void FUNCTION(mb_linsys, be_rhs_begin)(const TYPE(mb_nodes) *s, double h, REAL *b, REAL *tmp)
{
    REAL *t = &tmp[0];
    for (size_t k = 0; k < 3 * s->n; k++) {
        R_MUL(&b[k], &s->mass[k / 3], &s->v[k]);
        R_MUL_D(t, &s->f[k], h);
        R_ADD(&b[k], &b[k], t);
    }
}

/* t = h (C v_c)_a of a block C whose column node's velocity is vc: ((C_a0 v_0 + C_a1 v_1)
 * + C_a2 v_2) h, the term one block takes off b_{3 row + a} */
void FUNCTION(mb_linsys, be_rhs_term)(const REAL *C, const REAL *vc, int a, double h,
                                      REAL *t, REAL *u)
{
#if IS_MPFR
    R_MUL(t, &C[3 * a], &vc[0]);
    R_MUL(u, &C[3 * a + 1], &vc[1]);
    R_ADD(t, t, u);
    R_MUL(u, &C[3 * a + 2], &vc[2]);
    R_ADD(t, t, u);
    R_MUL_D(t, t, h);
#else
    (void)u;
    *t = mb_linsys_be_rhs_term_d(C, vc, a, h);      /* the same operations, inlined */
#endif
}

/* The terms of a pair's four blocks off b_i and b_j: t = h C (v_j - v_i), b_i -= t,
 * b_j += t (mb_linsys_be_rhs_pair_d in double).  w: 3 scratch values, t: 2. */
void FUNCTION(mb_linsys, be_rhs_pair)(const REAL *C, const REAL *vi, const REAL *vj, double h,
                                      REAL *bi, REAL *bj, REAL *w, REAL *t)
{
#if IS_MPFR
    REAL *u = &t[1];
    for (int k = 0; k < 3; k++)
        R_SUB(&w[k], &vj[k], &vi[k]);
    for (int a = 0; a < 3; a++) {
        R_MUL(t, &C[3 * a], &w[0]);
        R_MUL(u, &C[3 * a + 1], &w[1]);
        R_ADD(t, t, u);
        R_MUL(u, &C[3 * a + 2], &w[2]);
        R_ADD(t, t, u);
        R_MUL_D(t, t, h);
        R_SUB(&bi[a], &bi[a], t);
        R_ADD(&bj[a], &bj[a], t);
    }
#else
    (void)w;
    (void)t;
    mb_linsys_be_rhs_pair_d(C, vi, vj, h, bi, bj);
#endif
}

/* 1 when every entry of the 3x3 block C is zero (a block that adds nothing to b; NaN is
 * not zero): in double the negation of mb_linsys_block_nonzero, the test the blocks
 * passes inline */
int FUNCTION(mb_linsys, block_zero)(const REAL *C)
{
#if IS_MPFR
    return R_ISZERO(&C[0]) && R_ISZERO(&C[1]) && R_ISZERO(&C[2]) && R_ISZERO(&C[3])
           && R_ISZERO(&C[4]) && R_ISZERO(&C[5]) && R_ISZERO(&C[6]) && R_ISZERO(&C[7])
           && R_ISZERO(&C[8]);
#else
    return !mb_linsys_block_nonzero(C);
#endif
}

/* the rows of node i's fixed degrees of freedom: b_k = d v_k (d as on the diagonal of A) */
void FUNCTION(mb_linsys, be_rhs_fix_node)(const TYPE(mb_nodes) *s, size_t i, REAL *b, REAL *tmp)
{
    REAL *t = &tmp[0];
    for (size_t k = 3 * i; k < 3 * i + 3; k++)
        if (FUNCTION(mb_linsys, fixed)(s, k)) {             /* fixed row: d v+ = d v */
            FUNCTION(linsys, fixed_diag)(s, k, t);
            R_MUL(&b[k], t, &s->v[k]);
        }
}

/* the rows of fixed degrees of freedom: b_k = d v_k (d as on the diagonal of A) */
void FUNCTION(mb_linsys, be_rhs_fix_rows)(const TYPE(mb_nodes) *s, REAL *b, REAL *tmp)
{
    for (size_t i = 0; i < s->n; i++)
        if (FUNCTION(mb_linsys, node_fixed)(s, i))          /* else no fixed axis here */
            FUNCTION(mb_linsys, be_rhs_fix_node)(s, i, b, tmp);
}

/* b = (M - h C) v + h f  (DESIGN 4.1): b_k = m v_k + h f_k, then b_r -= h (C_b v_c) per
 * block in list order -- the four blocks of a pair (mb_jacobian_mark_pair) at once,
 * be_rhs_pair -- then the fixed rows */
void FUNCTION(mb_linsys, be_rhs)(const TYPE(mb_nodes) *s, const TYPE(mb_jacobian) *J,
                                 double h, REAL *b, REAL *tmp)
{
    REAL *t = &tmp[0], *u = &tmp[1], w[3];
    for (int k = 0; k < 3; k++)
        R_INIT(&w[k], s->prec);
    FUNCTION(mb_linsys, be_rhs_begin)(s, h, b, tmp);
    for (size_t blk = 0; blk < J->count; blk++) {
        if (J->pair[blk] && blk + 3 < J->count) {
            const REAL *C = &J->dfdv[9 * (blk + 1)];           /* the (i, j) block's C */
            size_t i = J->row[blk], j = J->col[blk + 1];
            if (!FUNCTION(mb_linsys, block_zero)(C))
                FUNCTION(mb_linsys, be_rhs_pair)(C, &s->v[3 * i], &s->v[3 * j], h, &b[3 * i],
                                                 &b[3 * j], w, tmp);
            blk += 3;
            continue;
        }
        const REAL *C = &J->dfdv[9 * blk];
        if (FUNCTION(mb_linsys, block_zero)(C))
            continue;                       /* no velocity dependence: nothing to add */
        size_t r0 = 3 * J->row[blk], c0 = 3 * J->col[blk];
        for (int a = 0; a < 3; a++) {
            FUNCTION(mb_linsys, be_rhs_term)(C, &s->v[c0], a, h, t, u);
            R_SUB(&b[r0 + a], &b[r0 + a], t);
        }
    }
    FUNCTION(mb_linsys, be_rhs_fix_rows)(s, b, tmp);
    for (int k = 0; k < 3; k++)
        R_CLEAR(&w[k]);
}

/* -R(w) = h f(x + h w, w) - M (w - v), 0 on fixed rows (their w stays v) */
void FUNCTION(mb_linsys, newton_rhs)(const TYPE(mb_nodes) *trial, const REAL *v, double h,
                                     REAL *b, REAL *tmp)
{
    REAL *t = &tmp[0], *u = &tmp[1];
    for (size_t k = 0; k < 3 * trial->n; k++) {
        if (FUNCTION(mb_linsys, fixed)(trial, k)) {
            R_SET_D(&b[k], 0.0);
            continue;
        }
        R_SUB(t, &trial->v[k], &v[k]);
        R_MUL(t, t, &trial->mass[k / 3]);
        R_MUL_D(u, &trial->f[k], h);
        R_SUB(&b[k], u, t);
    }
}
