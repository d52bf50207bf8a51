/* force_springs_source.c -- template bodies of the Hookean springs (see force_springs.c). */

/* Scratch of one spring evaluation: d = p_j - p_i between the attachment points (the
 * centres unless the spring has arms), its length l, unit n = d/l, dv = their relative
 * velocity, the force F on node i and its magnitude m, two scalars, and for springs with
 * arms the spatial arms r_i = R(q_i) A_i, r_j = R(q_j) A_j, a 3-vector temporary and the
 * quaternion scratch. */
struct FUNCTION(springs, scratch) {
    REAL d[3], n[3], dv[3], F[3], l[1], m[1], a[1], b[1];
    REAL ri[3], rj[3], A[3], t[3];
    struct FUNCTION(mbq, scratch) *q;   /* kept apart, so that the rest stays in registers */
};

R_HOT void FUNCTION(springs, scratch_init)(struct FUNCTION(springs, scratch) *w, mpfr_prec_t prec)
{
    for (int k = 0; k < 3; k++) {
        R_INIT(&w->d[k], prec); R_INIT(&w->n[k], prec); R_INIT(&w->dv[k], prec);
        R_INIT(&w->F[k], prec); R_INIT(&w->ri[k], prec); R_INIT(&w->rj[k], prec); R_INIT(&w->A[k], prec);
        R_INIT(&w->t[k], prec);
    }
    R_INIT(w->l, prec); R_INIT(w->m, prec); R_INIT(w->a, prec); R_INIT(w->b, prec);
}

R_HOT void FUNCTION(springs, scratch_clear)(struct FUNCTION(springs, scratch) *w)
{
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&w->d[k]); R_CLEAR(&w->n[k]); R_CLEAR(&w->dv[k]); R_CLEAR(&w->F[k]);
        R_CLEAR(&w->ri[k]); R_CLEAR(&w->rj[k]); R_CLEAR(&w->A[k]); R_CLEAR(&w->t[k]);
    }
    R_CLEAR(w->l); R_CLEAR(w->m); R_CLEAR(w->a); R_CLEAR(w->b);
}

/* out = a x b (out must not alias a or b) */
R_HOT void FUNCTION(springs, cross)(REAL *out, const REAL *a, const REAL *b, REAL *tmp)
{
    for (int k = 0; k < 3; k++) {
        int u = (k + 1) % 3, v = (k + 2) % 3;
        R_MUL(&out[k], &a[u], &b[v]);
        R_MUL(tmp, &a[v], &b[u]);
        R_SUB(&out[k], &out[k], tmp);
    }
}

/* arm r = R(q_node) A and its point velocity w x r added to (d, dv) with sign */
R_HOT void FUNCTION(springs, arm)(const TYPE(mb_nodes) *s, size_t node, const double A[3],
                                   REAL *r, int sign, struct FUNCTION(springs, scratch) *w)
{
    for (int k = 0; k < 3; k++)
        R_SET_D(&w->A[k], A[k]);
    FUNCTION(mbq, rotate)(w->q, r, &s->q[4 * node], w->A);
    FUNCTION(springs, cross)(w->t, &s->omega[3 * node], r, w->a);
    for (int k = 0; k < 3; k++) {
        if (sign > 0) {
            R_ADD(&w->d[k], &w->d[k], &r[k]);
            R_ADD(&w->dv[k], &w->dv[k], &w->t[k]);
        } else {
            R_SUB(&w->d[k], &w->d[k], &r[k]);
            R_SUB(&w->dv[k], &w->dv[k], &w->t[k]);
        }
    }
}

/* d, dv and l = |d| for spring sp; n = d / l when need_n (error if l = 0).  full: the
 * spring's whole record, read only for its anchor or arms.  arms: 1 when the spring has
 * arms, passed as a constant by the caller (see springs_one). */
R_HOT int FUNCTION(springs, geometry)(const struct spring_hot *sp, const mb_spring *full,
                                       const TYPE(mb_nodes) *s,
                                       struct FUNCTION(springs, scratch) *restrict w, int need_n,
                                       int arms)
{
    size_t i = sp->i, j = sp->j;
    const int anchored = springs_anchored(sp);
    R_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        if (anchored) {
            R_SET_D(w->a, full->anchor[k]);
            R_SUB(&w->d[k], w->a, &s->x[3 * i + k]);
            R_NEG(&w->dv[k], &s->v[3 * i + k]);
        } else {
            R_SUB(&w->d[k], &s->x[3 * j + k], &s->x[3 * i + k]);
            R_SUB(&w->dv[k], &s->v[3 * j + k], &s->v[3 * i + k]);
        }
    }
    if (arms) {
        FUNCTION(springs, arm)(s, i, full->arm_i, w->ri, -1, w);
        if (!anchored)
            FUNCTION(springs, arm)(s, j, full->arm_j, w->rj, +1, w);
    }
    R_MUL(w->l, &w->d[0], &w->d[0]);
    R_MUL(w->a, &w->d[1], &w->d[1]);
    R_ADD(w->l, w->l, w->a);
    R_MUL(w->a, &w->d[2], &w->d[2]);
    R_ADD(w->l, w->l, w->a);
    R_SQRT(w->l, w->l);
    if (!need_n)
        return MB_SUCCESS;
    if (R_ISZERO(w->l))
        MB_ERROR(MB_EDOM, "spring %zu-%zu has zero length: its direction is undefined",
                 sp->i, anchored ? sp->i : sp->j);
    R_UNROLL(3)
    for (int k = 0; k < 3; k++)
        R_DIV(&w->n[k], &w->d[k], w->l);
    return MB_SUCCESS;
}

/* w->a = dv . n */
R_HOT void FUNCTION(springs, dv_dot_n)(struct FUNCTION(springs, scratch) *restrict w)
{
    R_MUL(w->a, &w->dv[0], &w->n[0]);
    R_MUL(w->b, &w->dv[1], &w->n[1]);
    R_ADD(w->a, w->a, w->b);
    R_MUL(w->b, &w->dv[2], &w->n[2]);
    R_ADD(w->a, w->a, w->b);
}

/* f_i += F, f_j -= F; with arms also tau_i += r_i x F, tau_j -= r_j x F.  first: the
 * spring's SPRING_FIRST_I (_J) marks when the pass sets the forces, else 0 -- on a node
 * it is the first on, f starts from +0 instead of what f held (+0 + F, +0 - F: what the
 * spring adds to a zeroed f). */
R_HOT void FUNCTION(springs, apply)(const struct spring_hot *sp, TYPE(mb_nodes) *s, REAL *F,
                                     struct FUNCTION(springs, scratch) *w, int arms,
                                     unsigned first)
{
    const int anchored = springs_anchored(sp);
    REAL *fi = &s->f[3 * sp->i], *fj = &s->f[3 * sp->j];
    if (first & SPRING_FIRST_I) {
        R_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            R_SET_D(&fi[k], 0.0);
            R_ADD(&fi[k], &fi[k], &F[k]);
        }
    } else {
        R_UNROLL(3)
        for (int k = 0; k < 3; k++)
            R_ADD(&fi[k], &fi[k], &F[k]);
    }
    if (anchored) {
    } else if (first & SPRING_FIRST_J) {
        R_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            R_SET_D(&fj[k], 0.0);
            R_SUB(&fj[k], &fj[k], &F[k]);
        }
    } else {
        R_UNROLL(3)
        for (int k = 0; k < 3; k++)
            R_SUB(&fj[k], &fj[k], &F[k]);
    }
    if (!arms)
        return;
    FUNCTION(springs, cross)(w->t, w->ri, F, w->a);
    R_UNROLL(3)
    for (int k = 0; k < 3; k++)
        R_ADD(&s->torque[3 * sp->i + k], &s->torque[3 * sp->i + k], &w->t[k]);
    if (anchored)
        return;
    FUNCTION(springs, cross)(w->t, w->rj, F, w->a);
    R_UNROLL(3)
    for (int k = 0; k < 3; k++)
        R_SUB(&s->torque[3 * sp->j + k], &s->torque[3 * sp->j + k], &w->t[k]);
}

/* w->F = the force on node i from the geometry in w: F = [k (l - L) + c dv.n] n, for
 * L = c = 0 simply F = k d.  Uses w->m, w->a, w->b. */
R_HOT void FUNCTION(springs, force)(const struct spring_hot *sp,
                                     struct FUNCTION(springs, scratch) *restrict w)
{
    if (!springs_has_direction(sp)) {
        R_UNROLL(3)
        for (int k = 0; k < 3; k++)
            R_MUL_D(&w->F[k], &w->d[k], sp->k);
        return;
    }
    /* magnitude m = k (l - L) + c (dv . n) */
    R_SUB_D(w->b, w->l, sp->rest);
    R_MUL_D(w->m, w->b, sp->k);
    if (sp->c != 0.0) {
        FUNCTION(springs, dv_dot_n)(w);
        R_MUL_D(w->a, w->a, sp->c);
        R_ADD(w->m, w->m, w->a);
    }
    R_UNROLL(3)
    for (int k = 0; k < 3; k++)
        R_MUL(&w->F[k], &w->n[k], w->m);
}

/* Append the blocks (K, Dv), negated when asked, as block (r, c) of J: each value written once. */
static int FUNCTION(springs, put)(TYPE(mb_jacobian) *J, size_t r, size_t c,
                                  const REAL *K, const REAL *Dv, int negate)
{
    long b = FUNCTION(mb_jacobian, append_block)(J, r, c);
    if (b < 0)
        return MB_ENOMEM;
    REAL *jx = &J->dfdx[9 * b], *jv = &J->dfdv[9 * b];
    if (negate) {
        for (int k = 0; k < 9; k++) {
            R_NEG(&jx[k], &K[k]);
            R_NEG(&jv[k], &Dv[k]);
        }
    } else {
        for (int k = 0; k < 9; k++) {
            R_SET(&jx[k], &K[k]);
            R_SET(&jv[k], &Dv[k]);
        }
    }
    return MB_SUCCESS;
}

/* The scalars of springs_block's expression: alpha (w->m), beta (w->b) and, with a dashpot,
 * pdv and u = (c/l) n (w->F); the block's form (SPRINGS_LINEAR: nothing formed). */
R_HOT int FUNCTION(springs, block_terms)(const struct spring_hot *sp,
                                          struct FUNCTION(springs, scratch) *restrict w,
                                          REAL *restrict pdv)
{
    REAL *alpha = w->m, *beta = w->b, *cl = &w->d[0], *ca = &w->d[1];  /* d[] is free here */
    REAL *u = w->F;                                                 /* u = (c/l) n */
    if (sp->rest == 0.0 && sp->c == 0.0)
        return SPRINGS_LINEAR;
    if (sp->c != 0.0)
        FUNCTION(springs, dv_dot_n)(w);             /* a = dv . n (b its scratch) */
    if (sp->rest == 0.0) {
        R_SET_D(alpha, sp->k);
        R_SET_D(beta, 0.0);
    } else {
        R_D_DIV(beta, sp->rest, w->l);          /* beta = L / l */
        R_D_SUB(alpha, 1.0, beta);              /* alpha = 1 - L/l */
        R_MUL_D(alpha, alpha, sp->k);
        R_MUL_D(beta, beta, sp->k);
    }
    if (sp->c == 0.0)
        return SPRINGS_ELASTIC;
    R_D_DIV(cl, sp->c, w->l);                       /* c / l */
    R_MUL(ca, cl, w->a);                            /* (c/l)(dv.n) */
    R_ADD(alpha, alpha, ca);
    R_SUB(beta, beta, ca);
    R_UNROLL(3)
    for (int k = 0; k < 3; k++) {                   /* pdv = dv - (dv.n) n, u = (c/l) n */
        R_MUL(&w->t[k], w->a, &w->n[k]);
        R_SUB(&pdv[k], &w->dv[k], &w->t[k]);
        R_MUL(&u[k], cl, &w->n[k]);
    }
    return SPRINGS_DASHPOT;
}

/* K = df_i/dx_j and Dv = df_i/dv_j of one spring (d = p_j - p_i, P = I - n n^T; with arms
 * the attachment points move rigidly with the centres, so the translational blocks keep
 * this form at the attachment points):
 *   elastic   K = k I                                   (L = 0)
 *             K = k (1 - L/l) I + k (L/l) n n^T         (L > 0)
 *   dashpot   K += (c/l) [ n (P dv)^T + (dv.n) P ],   Dv = c n n^T
 * and df_i/dx_i = -K, df_j/dx_i = K, df_j/dx_j = -K (likewise for Dv).
 * With a dashpot K is formed as its three terms, P = I - n n^T expanded:
 *   K = alpha I + beta n n^T + (c/l) n (P dv)^T,
 *   alpha = k (1 - L/l) + (c/l)(dv.n),   beta = k (L/l) - (c/l)(dv.n)
 * (alpha = k, beta = -(c/l)(dv.n) when L = 0): c/l once, no division per entry, and the
 * products n_r n_c, shared by K and Dv, formed once per pair r <= c (n n^T is symmetric).
 * Entry by entry ((r, c), nn = n_r n_c): K = (nn beta + u_r pdv_c) + alpha [r = c],
 * Dv = nn c.  The same operations in the MPFR twin, and two entries a lane in
 * springs_block_lanes. */
R_HOT void FUNCTION(springs, block)(const struct spring_hot *sp,
                                     struct FUNCTION(springs, scratch) *restrict w,
                                     REAL *restrict K, REAL *restrict Dv, REAL *restrict pdv)
{
    const REAL *alpha = w->m, *beta = w->b, *u = w->F;
    int form = FUNCTION(springs, block_terms)(sp, w, pdv);
    if (form == SPRINGS_LINEAR) {
        R_UNROLL(9)
        for (int k = 0; k < 9; k++) {
            R_SET_D(&K[k], k % 4 == 0 ? sp->k : 0.0);
            R_SET_D(&Dv[k], 0.0);
        }
        return;
    }
    R_UNROLL(3)
    for (int r = 0; r < 3; r++)                     /* Dv = n n^T for now */
        R_UNROLL(3)
        for (int c = r; c < 3; c++) {
            R_MUL(&Dv[3 * r + c], &w->n[r], &w->n[c]);
            if (c != r)
                R_SET(&Dv[3 * c + r], &Dv[3 * r + c]);
        }
    if (form == SPRINGS_ELASTIC) {
        R_UNROLL(9)
        for (int k = 0; k < 9; k++) {               /* K = beta n n^T + alpha I, Dv = 0 */
            R_MUL(&K[k], &Dv[k], beta);
            if (k % 4 == 0)
                R_ADD(&K[k], &K[k], alpha);
            R_SET_D(&Dv[k], 0.0);
        }
        return;
    }
    R_UNROLL(3)
    for (int r = 0; r < 3; r++)
        R_UNROLL(3)
        for (int c = 0; c < 3; c++) {
            REAL *Kq = &K[3 * r + c], *Dq = &Dv[3 * r + c];
            R_MUL(Kq, Dq, beta);                    /* beta n_r n_c */
            R_MUL(&w->t[0], &u[r], &pdv[c]);        /* + (c/l) n_r pdv_c */
            R_ADD(Kq, Kq, &w->t[0]);
            if (r == c)
                R_ADD(Kq, Kq, alpha);               /* + alpha delta_rc */
            R_MUL_D(Dq, Dq, sp->c);                 /* Dv = c n n^T */
        }
}

#if !IS_MPFR
/* springs_block's K and Dv two entries a lane (block3_lanes.h): each entry the operations
 * of springs_block's, in its order (n_c n_r for n_r n_c below the diagonal: the same
 * value), so the same bits */
static MB_ALWAYS_INLINE void springs_block_lanes(const struct spring_hot *sp,
                                                 struct springs_scratch *restrict w,
                                                 block3_lanes *K, block3_lanes *Dv,
                                                 double *restrict pdv)
{
    int form = springs_block_terms(sp, w, pdv);
    if (form == SPRINGS_LINEAR) {
        *K = block3_mass(sp->k);
        *Dv = block3_zero();
        return;
    }
    const double alpha = w->m[0], beta = w->b[0];   /* springs_block_terms' scalars */
    const block3_lanes nn = block3_outer(w->n, w->n);
    *K = block3_scale(nn, beta);
    if (form == SPRINGS_ELASTIC) {
        *K = block3_add_diagonal(*K, alpha);
        *Dv = block3_zero();
        return;
    }
    *K = block3_add_diagonal(block3_add(*K, block3_outer(w->F, pdv)), alpha);
    *Dv = block3_scale(nn, sp->c);
}
#endif

/* The four blocks of spring sp (two when anchored): df_i/d(x,v)_i = -(K, Dv), then
 * df_i/d._j = df_j/d._i = (K, Dv) and df_j/d._j = -(K, Dv), marked as a pair when i != j
 * (their terms of b formed together, as mb_linsys_sink_pair forms them). */
static int FUNCTION(springs, put_all)(TYPE(mb_jacobian) *J, const struct spring_hot *sp,
                                      const REAL *K, const REAL *Dv)
{
    size_t first = J->count;
    int st = FUNCTION(springs, put)(J, sp->i, sp->i, K, Dv, 1);
    if (st == MB_SUCCESS && !springs_anchored(sp)) {
        st = FUNCTION(springs, put)(J, sp->i, sp->j, K, Dv, 0);
        if (st == MB_SUCCESS)
            st = FUNCTION(springs, put)(J, sp->j, sp->i, K, Dv, 0);
        if (st == MB_SUCCESS)
            st = FUNCTION(springs, put)(J, sp->j, sp->j, K, Dv, 1);
        if (st == MB_SUCCESS && sp->i != sp->j)
            FUNCTION(mb_jacobian, mark_pair)(J, first);
    }
    return st;
}

#if !IS_MPFR
/* The blocks of spring sp handed to the sink in the order and with the signs of put_all:
 * (i, i) -(K, Dv), then (i, j), (j, i) (K, Dv) and (j, j) -(K, Dv) unless anchored, the
 * pair by mb_linsys_sink_pair (a pair inline in a pass: springs_blocks_loop). */
static MB_ALWAYS_INLINE void springs_sink_all(mb_linsys_sink_pass *p,
                                              const struct spring_hot *sp, const double *K,
                                              const double *Dv)
{
    mb_linsys_sink *k = p->k;
    if (!springs_anchored(sp)) {
        mb_linsys_sink_pair(k, sp->i, sp->j, Dv, K);     /* the pass holds no sums */
        return;
    }
    mb_linsys_sink_pass_flush(p);
    double nK[9], nDv[9];
    for (int q = 0; q < 9; q++) {
        nK[q] = -K[q];
        nDv[q] = -Dv[q];
    }
    mb_linsys_sink_block(k, sp->i, sp->i, nDv, nK);
}
#endif

/* What a spring's blocks need from its geometry (springs_block): n, l and dv, in doubles */
#define SPRINGS_KEPT 7

#if !IS_MPFR

static inline void springs_keep(double *keep, const struct springs_scratch *w)
{
    for (int k = 0; k < 3; k++) {
        keep[k] = w->n[k];
        keep[4 + k] = w->dv[k];
    }
    keep[3] = w->l[0];
}

static inline void springs_unkeep(const double *keep, struct springs_scratch *w)
{
    for (int k = 0; k < 3; k++) {
        w->n[k] = keep[k];
        w->dv[k] = keep[4 + k];
    }
    w->l[0] = keep[3];
}
#endif

/* K, Dv (9 each) and pdv (3): the blocks of one spring and a 3-vector scratch */
struct FUNCTION(springs, blocks) {
    REAL K[9], Dv[9], pdv[3];
};

static void FUNCTION(springs, blocks_init)(struct FUNCTION(springs, blocks) *B, mpfr_prec_t prec)
{
    for (int k = 0; k < 9; k++) {
        R_INIT(&B->K[k], prec);
        R_INIT(&B->Dv[k], prec);
    }
    for (int k = 0; k < 3; k++)
        R_INIT(&B->pdv[k], prec);
}

static void FUNCTION(springs, blocks_clear)(struct FUNCTION(springs, blocks) *B)
{
    for (int k = 0; k < 9; k++) {
        R_CLEAR(&B->K[k]);
        R_CLEAR(&B->Dv[k]);
    }
    for (int k = 0; k < 3; k++)
        R_CLEAR(&B->pdv[k]);
}

/* One spring of a pass (springs_pass): its geometry, then its force added to s when
 * add_force (first: as for springs_apply), then its blocks appended to J when J is not NULL (full: its whole record, for
 * an anchor or arms).  keep (double only, NULL otherwise): the geometry its blocks need is
 * kept there (springs_keep).  arms = the spring's SPRING_ARMS mark as a constant: in double the pass keeps a scratch for springs without
 * arms whose address never reaches the quaternion code, so the compiler holds it in
 * registers. */
R_HOT int FUNCTION(springs, one)(const struct spring_hot *sp, const mb_spring *full,
                                 TYPE(mb_nodes) *s, TYPE(mb_jacobian) *J,
                                 double *keep, int add_force, unsigned first,
                                 struct FUNCTION(springs, scratch) *restrict w,
                                 struct FUNCTION(springs, blocks) *restrict B, int arms)
{
    int need_n = springs_has_direction(sp);
    int st = FUNCTION(springs, geometry)(sp, full, s, w, need_n, arms);
    if (st != MB_SUCCESS)
        return st;
    if (add_force) {
        FUNCTION(springs, force)(sp, w);
        FUNCTION(springs, apply)(sp, s, w->F, w, arms, first);
    }
#if !IS_MPFR
    if (keep != NULL && need_n)
        springs_keep(keep, w);
#else
    (void)keep;
#endif
    if (J != NULL) {
        FUNCTION(springs, block)(sp, w, B->K, B->Dv, B->pdv);
        return FUNCTION(springs, put_all)(J, sp, B->K, B->Dv);
    }
    return MB_SUCCESS;
}

/* One pass over the springs, each spring's geometry once (springs_one), the geometry of
 * spring m kept at keep[SPRINGS_KEPT m ...] when keep is not NULL.  Forces and blocks come
 * from the same operations whichever of them a pass makes, so the one-pass eval_jacobian
 * and the two passes of the assembly are bit-identical to eval followed by jacobian.  s
 * is written only when add_force: SPRINGS_ADD adds the forces to f, SPRINGS_SET writes
 * each node's first from +0 (the marks SPRING_FIRST_I, _J; the nodes no spring has are
 * the caller's). */
static int FUNCTION(springs, pass)(const struct spring_set *set, TYPE(mb_nodes) *s,
                                   TYPE(mb_jacobian) *J, double *keep, int add_force)
{
    const unsigned firsts = add_force == SPRINGS_SET ? SPRING_FIRST_I | SPRING_FIRST_J : 0u;
    struct FUNCTION(mbq, scratch) q;
    struct FUNCTION(springs, scratch) w = { .q = &q }, wa = { .q = &q };   /* wa: with arms */
    struct FUNCTION(springs, blocks) B;
    int st = MB_SUCCESS;
    FUNCTION(mbq, scratch_init)(&q, s->prec);
    FUNCTION(springs, scratch_init)(&w, s->prec);
    FUNCTION(springs, scratch_init)(&wa, s->prec);
    FUNCTION(springs, blocks_init)(&B, s->prec);
    const int some_arms = set->with_arms != 0;     /* else the marks need not be read */
    for (size_t m = 0; m < set->count && st == MB_SUCCESS; m++) {
        const struct spring_hot *sp = &set->hot[m];
        double *km = keep ? &keep[SPRINGS_KEPT * m] : NULL;
        unsigned first = firsts ? set->marks[m] & firsts : 0u;
        if (some_arms && (set->marks[m] & SPRING_ARMS))
            st = FUNCTION(springs, one)(sp, &set->items[m], s, J, km, add_force, first, &wa,
                                        &B, 1);
        else
            st = FUNCTION(springs, one)(sp, &set->items[m], s, J, km, add_force, first, &w, &B,
                                        0);
    }
    FUNCTION(springs, blocks_clear)(&B);
    FUNCTION(springs, scratch_clear)(&wa);
    FUNCTION(springs, scratch_clear)(&w);
    FUNCTION(mbq, scratch_clear)(&q);
    return st;
}

static int FUNCTION(springs, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    (void)t;
    return FUNCTION(springs, pass)(params, s, NULL, NULL, SPRINGS_ADD);
}

static int FUNCTION(springs, jacobian)(const void *params, const TYPE(mb_nodes) *s,
                                       TYPE(mb_jacobian) *J)
{
    return FUNCTION(springs, pass)(params, (TYPE(mb_nodes) *)s, J, NULL, 0);  /* s only read */
}

/* eval and jacobian in one pass */
static int FUNCTION(springs, eval_jacobian)(const void *params, TYPE(mb_nodes) *s, double t,
                                            TYPE(mb_jacobian) *J)
{
    (void)t;
    return FUNCTION(springs, pass)(params, s, J, NULL, SPRINGS_ADD);
}

#if !IS_MPFR
/* The room in sink k for the geometry of every spring of the set (springs_keep), + 1 double
 * so that there is room even for an empty set; NULL when out of memory */
static double *springs_keep_room(const struct spring_set *set, mb_linsys_sink *k)
{
    return mb_linsys_sink_keep(k, (SPRINGS_KEPT * set->count + 1) * sizeof(double));
}

/* The first pass of the assembly (mb_forces_assemble): the forces added (SPRINGS_ADD) or
 * set (SPRINGS_SET), and each spring's geometry kept in the sink for its blocks. */
static int springs_keep_pass(const struct spring_set *set, mb_nodes *s, mb_linsys_sink *k,
                             int add_force)
{
    double *keep = springs_keep_room(set, k);
    if (keep == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    return springs_pass(set, s, NULL, keep, add_force);
}

static int springs_eval_keep(const void *params, mb_nodes *s, double t, mb_linsys_sink *k)
{
    (void)t;
    return springs_keep_pass(params, s, k, SPRINGS_ADD);
}

/* +0 on the nodes no spring has (none on a chain: every node has one) */
static void springs_zero_untouched(const struct spring_set *set, mb_nodes *s)
{
    if (set->touched == s->n && set->top <= s->n)
        return;
    for (size_t r = 0; r < s->n; r++)
        if (r >= set->nlast || set->last[r] == 0)
            for (int a = 0; a < 3; a++)
                s->f[3 * r + a] = 0.0;
}

/* The first pass along a chain in node order (the set's in_order, every one of the n nodes
 * on a spring), the field's first model setting the forces: each spring's geometry and
 * force as springs_one makes them, its geometry kept; f_0 = +0 + F_0 and
 * f_m = (+0 - F_{m-1}) + F_m, f_{n-1} = +0 - F_{n-2} -- what springs_apply writes with the
 * marks SPRING_FIRST_I on spring 0 and SPRING_FIRST_J on every spring -- with +0 - F_{m-1}
 * carried from spring m - 1 to spring m instead of stored and read back.  On an error
 * (a spring of zero length) f is left as springs_pass leaves it. */
static int springs_keep_chain(const struct spring_set *set, mb_nodes *s, double *keep)
{
    struct springs_scratch w = { .q = NULL };       /* no arms: no quaternion scratch */
    double carried[3] = { 0.0, 0.0, 0.0 };         /* node m's force before spring m's */
    size_t m = 0;
    int st = MB_SUCCESS;
    for (; m < set->count; m++) {
        const struct spring_hot *sp = &set->hot[m];
        const int need_n = springs_has_direction(sp);
        if ((st = springs_geometry(sp, NULL, s, &w, need_n, 0)) != MB_SUCCESS)
            break;
        springs_force(sp, &w);
        double *restrict fm = &s->f[3 * m];
        for (int a = 0; a < 3; a++) {
            fm[a] = carried[a] + w.F[a];
            carried[a] = 0.0 - w.F[a];
        }
        if (need_n)
            springs_keep(&keep[SPRINGS_KEPT * m], &w);
    }
    for (int a = 0; m > 0 && a < 3; a++)           /* node m's part from spring m - 1 */
        s->f[3 * m + a] = carried[a];
    return st;
}

/* The first pass as the field's first model (eval_keep_set): f not zeroed before it, each
 * node's force written from +0 by the first spring on it, +0 where no spring is; along a
 * chain in node order of all the nodes, springs_keep_chain. */
static int springs_eval_keep_set(const void *params, mb_nodes *s, double t, mb_linsys_sink *k)
{
    const struct spring_set *set = params;
    (void)t;
    if (set->in_order && set->count + 1 == s->n) {
        double *keep = springs_keep_room(set, k);
        if (keep == NULL)
            MB_ERROR(MB_ENOMEM, "out of memory");
        return springs_keep_chain(set, s, keep);
    }
    springs_zero_untouched(set, s);
    return springs_keep_pass(set, s, k, SPRINGS_SET);
}

/* b_i and b_j formed (mb_linsys_sink_pass_rhs, in pass p) where spring sp, with marks
 * `marks`, is the first spring on node i or j: before its blocks and their terms of b
 * reach the node.  A spring of a node with itself or to an anchor has the mark of i alone. */
static MB_ALWAYS_INLINE void springs_rhs_firsts(mb_linsys_sink_pass *p,
                                                const struct spring_hot *sp, unsigned marks)
{
    if (marks & SPRING_FIRST_I)
        mb_linsys_sink_pass_rhs(p, sp->i);
    if (marks & SPRING_FIRST_J)
        mb_linsys_sink_pass_rhs(p, sp->j);
}

/* 1 when every one of the n nodes has a spring (none beyond them): the blocks pass, asked
 * by the sink, then forms each node's b before its first block (springs_rhs_firsts) */
static int springs_forms_rhs(const void *params, size_t n)
{
    const struct spring_set *set = params;
    return set->touched == n && set->top <= n;
}

/* The second pass's loop (springs_blocks_kept), p the pass into sink k; inline_pairs, a
 * constant: 1 for block-tridiagonal storage, each pair's blocks formed in lanes
 * (springs_block_lanes) and passed inline (mb_linsys_sink_pass_pair), 0 otherwise, each
 * pair by mb_linsys_sink_pair */
static MB_ALWAYS_INLINE void springs_blocks_loop(const struct spring_set *set,
                                                 mb_linsys_sink *k, mb_linsys_sink_pass *p,
                                                 int inline_pairs)
{
    const double *keep = mb_linsys_sink_kept(k);
    struct springs_scratch w = { .q = NULL };       /* springs_block reads n, l and dv */
    struct springs_blocks B;
    const int report = mb_linsys_sink_folding(k);  /* the nodes done: for folded fields */
    const int rhs = mb_linsys_sink_rhs_deferred(k); /* b formed here, springs_forms_rhs */
    for (size_t m = 0; m < set->count; m++) {
        const struct spring_hot *sp = &set->hot[m];
        if (rhs)                                    /* before the spring's terms of b */
            springs_rhs_firsts(p, sp, set->marks[m]);
        if (springs_has_direction(sp))
            springs_unkeep(&keep[SPRINGS_KEPT * m], &w);
        if (inline_pairs && !springs_anchored(sp)) {
            block3_lanes K, Dv;
            springs_block_lanes(sp, &w, &K, &Dv, B.pdv);
            mb_linsys_sink_pass_pair(p, sp->i, sp->j, Dv, K);
        } else {
            springs_block(sp, &w, B.K, B.Dv, B.pdv);
            springs_sink_all(p, sp, B.K, B.Dv);
        }
        if (!report)
            continue;
        unsigned last_on = set->marks[m];
        if (last_on & SPRING_LAST_I)
            mb_linsys_sink_node_done(k, sp->i);
        if (last_on & SPRING_LAST_J)
            mb_linsys_sink_node_done(k, sp->j);
    }
}

/* The second pass along a chain in node order (the set's in_order: spring m joins nodes m
 * and m + 1) into a sink ready for it (mb_linsys_sink_chain_applies): each spring's blocks
 * from its kept geometry in lanes, as springs_blocks_loop forms them, handed to the
 * chain's pass (linsys_sink_chain.h), which forms each node's b before the first spring
 * on it as springs_rhs_firsts does (b_0 and b_1 before spring 0, b_{m+1} before spring m)
 * and writes the blocks without looking up their marks. */
static void springs_blocks_chain(const struct spring_set *set, mb_linsys_sink *k)
{
    const double *keep = mb_linsys_sink_kept(k);
    struct springs_scratch w = { .q = NULL };       /* springs_block reads n, l and dv */
    double pdv[3];
    mb_linsys_sink_pass p = mb_linsys_sink_chain_start(k);
    for (size_t m = 0; m < set->count; m++) {
        const struct spring_hot *sp = &set->hot[m];
        if (springs_has_direction(sp))
            springs_unkeep(&keep[SPRINGS_KEPT * m], &w);
        block3_lanes K, Dv;
        springs_block_lanes(sp, &w, &K, &Dv, pdv);
        mb_linsys_sink_chain_pair(&p, m, Dv, K);
    }
    mb_linsys_sink_chain_stop(&p, set->count);
}

/* The second pass: each spring's blocks from its kept geometry, handed to the sink in
 * the order and with the signs of springs_put_all; after the last spring on a node, the
 * node reported done (the fields folded into this pass add their blocks there); when the
 * sink asks, each node's b formed just before the first spring on it.  A chain in node
 * order into a sink ready for it takes the chain's pass (springs_blocks_chain), the same
 * operations on every entry in the same order. */
static int springs_blocks_kept(const void *params, const mb_nodes *s, mb_linsys_sink *k)
{
    const struct spring_set *set = params;
    (void)s;
    if (set->in_order && mb_linsys_sink_chain_applies(k, set->count)) {
        springs_blocks_chain(set, k);
        return MB_SUCCESS;
    }
    mb_linsys_sink_pass p = mb_linsys_sink_pass_start(k, mb_linsys_sink_rhs_weight(k));
    if (p.T != NULL)
        springs_blocks_loop(params, k, &p, 1);
    else
        springs_blocks_loop(params, k, &p, 0);
    mb_linsys_sink_pass_stop(&p);
    return MB_SUCCESS;
}
#endif
