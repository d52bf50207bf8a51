/* verlet_nosquish_lanes_source.c -- the rotational kernels of verlet-nosquish on a block
 * of VNS_BLOCK bodies side by side (see verlet_nosquish.c).  Included after
 * templates_on.h and quat_source.c, before verlet_nosquish_source.c.
 *
 * Structure of arrays: lane b of every row holds one body.  The five sub-rotations of one
 * body are one chain of dependent operations (dot product, division, sincos, update,
 * then the next sub-rotation), and so are its frame changes; the processor cannot
 * overlap a chain with itself, but the chains of different bodies are independent.
 * MPFR: each loop over the lanes advances every lane's chain by one step, row by row.
 * Double: four lanes at a time (a 32-byte vector: one AVX2 register, or two SSE2 halves)
 * go through the whole free rotation -- frame change, momentum, five sub-rotations with
 * their sines and cosines (mb_sincos.h), omega of the new orientation -- with their values
 * in registers, then the next four.  Each lane performs exactly the operations of one
 * body alone, in the same order, in both instances, so no result depends on the block
 * or on a body's lane (tests/test_verlet_nosquish_lanes.c). */
#define VNS_BLOCK 16

typedef REAL FUNCTION(vns, row)[VNS_BLOCK];

struct FUNCTION(vns, block) {
    /* two buffers: a sub-rotation reads one and writes the other; rows start on cache
     * lines (64 bytes), so no vector access to a row straddles two.  The double instance
     * reads q[0], L and I and writes q[1] and w only (its temporaries are registers). */
    _Alignas(64) FUNCTION(vns, row) q[2][4], p[2][4];
    FUNCTION(vns, row) L[3], I[3], I4[3];  /* global L, principal moments, 4 I_k */
    FUNCTION(vns, row) Lb[3], wb[3], w[3]; /* body-frame L, body-frame and global
                                            * angular velocity */
    FUNCTION(vns, row) u[3], r[3], c[3];   /* frame-change temporaries */
    FUNCTION(vns, row) dot, t, a, zeta, cz, sz;
    size_t node[VNS_BLOCK];           /* node index of each lane in use */
    int m;                            /* lanes in use */
    int n;                            /* lanes computed: m, in double rounded up to a
                                       * multiple of the vector width */
};

/* every row of the block, in one list for initialisation and clearing */
#define VNS_BLOCK_ROWS (2 * 2 * 4 + 3 * 9 + 6)
static void FUNCTION(vns, block_rows)(struct FUNCTION(vns, block) *B, REAL *rows[VNS_BLOCK_ROWS])
{
    int r = 0;
    for (int c = 0; c < 2; c++)
        for (int a = 0; a < 4; a++) {
            rows[r++] = B->q[c][a]; rows[r++] = B->p[c][a];
        }
    for (int k = 0; k < 3; k++) {
        rows[r++] = B->L[k]; rows[r++] = B->I[k]; rows[r++] = B->I4[k];
        rows[r++] = B->Lb[k]; rows[r++] = B->wb[k]; rows[r++] = B->w[k];
        rows[r++] = B->u[k]; rows[r++] = B->r[k]; rows[r++] = B->c[k];
    }
    rows[r++] = B->dot; rows[r++] = B->t; rows[r++] = B->a; rows[r++] = B->zeta;
    rows[r++] = B->cz; rows[r++] = B->sz;
}

/* an empty block, its rows initialised at prec (aligned for its rows); NULL when out of
 * memory */
static struct FUNCTION(vns, block) *FUNCTION(vns, block_alloc)(mpfr_prec_t prec)
{
    size_t align = _Alignof(struct FUNCTION(vns, block));
    size_t size = (sizeof(struct FUNCTION(vns, block)) + align - 1) / align * align;
    struct FUNCTION(vns, block) *B = aligned_alloc(align, size);  /* size: a multiple */
    if (B == NULL)
        return NULL;
    REAL *rows[VNS_BLOCK_ROWS];
    FUNCTION(vns, block_rows)(B, rows);
    for (int r = 0; r < VNS_BLOCK_ROWS; r++)
        for (int b = 0; b < VNS_BLOCK; b++) {
            R_INIT(&rows[r][b], prec);
            R_SET_D(&rows[r][b], 0.0);
        }
    B->m = 0;
    return B;
}

static void FUNCTION(vns, block_clear)(struct FUNCTION(vns, block) *B)
{
    REAL *rows[VNS_BLOCK_ROWS];
    FUNCTION(vns, block_rows)(B, rows);
    for (int r = 0; r < VNS_BLOCK_ROWS; r++)
        for (int b = 0; b < VNS_BLOCK; b++)
            R_CLEAR(&rows[r][b]);
}

/* the next free lane <- node i: q (into buffer 0), L and the principal moments I */
static void FUNCTION(vns, lane_in)(struct FUNCTION(vns, block) *B, size_t i, const REAL *q,
                                   const REAL *L, const REAL *I)
{
    int b = B->m++;
    B->node[b] = i;
    for (int a = 0; a < 4; a++)
        R_SET(&B->q[0][a][b], &q[a]);
    for (int k = 0; k < 3; k++) {
        R_SET(&B->L[k][b], &L[k]);
        R_SET(&B->I[k][b], &I[k]);
    }
}

/* the lanes to compute: m, in double rounded up to a multiple of the vector width
 * (MB_SINCOS_LANES).  A padding lane holds the identity at rest with unit moments,
 * turned by the angle 0 (sin 0, cos 1): finite, no division by zero; its results are
 * not used. */
static void FUNCTION(vns, block_pad)(struct FUNCTION(vns, block) *B)
{
    B->n = IS_MPFR ? B->m : (B->m + MB_SINCOS_LANES - 1) / MB_SINCOS_LANES * MB_SINCOS_LANES;
    for (int b = B->m; b < B->n; b++) {
        R_SET_D(&B->sz[b], 0.0);
        R_SET_D(&B->cz[b], 1.0);
        for (int a = 0; a < 4; a++)
            R_SET_D(&B->q[0][a][b], a == 0 ? 1.0 : 0.0);
        for (int k = 0; k < 3; k++) {
            R_SET_D(&B->L[k][b], 0.0);
            R_SET_D(&B->I[k][b], 1.0);
        }
    }
}

/* P_k q = q (x) e_k (Miller et al. 2002), sign changes and moves only (exact):
 *   P_1 q = (-q1, q0, q3, -q2),  P_2 q = (-q2, -q3, q0, q1),  P_3 q = (-q3, q2, -q1, q0);
 * component a of P_k q is -q[perm_from[k-1][a]] where perm_neg[k-1][a], else +. */
static const int FUNCTION(vns, perm_from)[3][4] = { { 1, 0, 3, 2 }, { 2, 3, 0, 1 }, { 3, 2, 1, 0 } };
static const int FUNCTION(vns, perm_neg)[3][4] = { { 1, 0, 0, 1 }, { 1, 1, 0, 0 }, { 1, 0, 1, 0 } };

/* The kernels differ by instance.  Their contract:
 *   lanes_omega(B, buf): row w <- omega = R(q) I^-1 R(q)^T L of every lane computed, q
 *     from buffer buf;
 *   lanes_free_rotation(B, hh, h2): the NO_SQUISH free rotation over h of every lane
 *     from (q, L) in buffer 0, q(t+h) into buffer 1 and its omega into row w.
 * MPFR: row by row, each kernel a loop over the lanes in use.  Double: four lanes at a
 * time in registers (below).  The operations of a lane are the same in both, in the
 * same order. */
#if IS_MPFR
/* l over the lanes in use, 0..n-1 (n = m: a padding lane would cost as much as a body) */
#undef VNS_LANES
#define VNS_LANES(l, n) for (int l = 0; l < (n); l++)

/* Element-wise kernels over the lanes.  Their arguments are rows of the block.
 * VNS_LANE_TMP(x, row, l): the temporary x of lane l, the lane's element of the scratch
 * row. */
#undef VNS_LANE_TMP
#define VNS_LANE_TMP(x, row, l) REAL *x = &(row)[l]

/* r = s_a a b + s_c c d in every lane, s_a, s_c = +-1 (t, u: the two products) */
static inline void FUNCTION(vns, lanes_sum2)(int n, REAL *restrict r, int s_a, const REAL *restrict a,
                                             const REAL *restrict b, int s_c,
                                             const REAL *restrict c, const REAL *restrict d,
                                             REAL *restrict t, REAL *restrict u)
{
    VNS_LANES(l, n) {
        VNS_LANE_TMP(tl, t, l);
        VNS_LANE_TMP(ul, u, l);
        R_MUL(tl, &a[l], &b[l]);
        if (s_a < 0)
            R_NEG(tl, tl);
        R_MUL(ul, &c[l], &d[l]);
        if (s_c < 0) R_SUB(&r[l], tl, ul); else R_ADD(&r[l], tl, ul);
    }
}

/* r = r + s_c c d in every lane (u: the product) */
static inline void FUNCTION(vns, lanes_add1)(int n, REAL *restrict r, int s_c, const REAL *restrict c,
                                             const REAL *restrict d, REAL *restrict u)
{
    VNS_LANES(l, n) {
        VNS_LANE_TMP(ul, u, l);
        R_MUL(ul, &c[l], &d[l]);
        if (s_c < 0) R_SUB(&r[l], &r[l], ul); else R_ADD(&r[l], &r[l], ul);
    }
}

/* r = s a in every lane, s = +-1 (exact) */
static inline void FUNCTION(vns, lanes_copy)(int n, REAL *restrict r, int s, const REAL *restrict a)
{
    VNS_LANES(l, n) {
        if (s > 0) R_SET(&r[l], &a[l]); else R_NEG(&r[l], &a[l]);
    }
}

/* r = d r in every lane, d a double */
static inline void FUNCTION(vns, lanes_scale)(int n, REAL *restrict r, double d)
{
    VNS_LANES(l, n)
        R_MUL_D(&r[l], &r[l], d);
}

/* out = (a b + c) + e in every lane (t: the partial sums) */
static inline void FUNCTION(vns, lanes_mul_add2)(int n, REAL *restrict out, const REAL *restrict a,
                                                 const REAL *restrict b, const REAL *restrict c,
                                                 const REAL *restrict e, REAL *restrict t)
{
    VNS_LANES(l, n) {
        VNS_LANE_TMP(tl, t, l);
        R_MUL(tl, &a[l], &b[l]);
        R_ADD(tl, tl, &c[l]);
        R_ADD(&out[l], tl, &e[l]);
    }
}

/* r = a / b in every lane */
static inline void FUNCTION(vns, lanes_div)(int n, REAL *restrict r, const REAL *restrict a,
                                            const REAL *restrict b)
{
    VNS_LANES(l, n)
        R_DIV(&r[l], &a[l], &b[l]);
}

/* out = R(q) v (sign +1) or R(q)^T v (sign -1) in every lane: the operations of
 * mbq rotate_signed (quat_source.c) in the same order,
 *   u = +-(q1, q2, q3),  r = 2 (u x v),  out = (q0 r + v) + u x r.
 * out must not be v; neither may be a scratch row of the block (u, r, c, t, a). */
static void FUNCTION(vns, lanes_rotate)(struct FUNCTION(vns, block) *restrict B,
                                        FUNCTION(vns, row) *out, FUNCTION(vns, row) *q,
                                        FUNCTION(vns, row) *v, int sign)
{
    FUNCTION(vns, row) *u = B->u, *r = B->r, *c = B->c;
    int n = B->n;
    for (int k = 0; k < 3; k++) {
        if (sign > 0)
            FUNCTION(vns, lanes_copy)(n, u[k], +1, q[k + 1]);
        else
            FUNCTION(vns, lanes_copy)(n, u[k], -1, q[k + 1]);
    }
    /* component k of a x b is a[k+1] b[k+2] - a[k+2] b[k+1] (indices mod 3), written out
     * so that every row is known to the compiler */
    REAL *t = B->t, *a = B->a;
    FUNCTION(vns, lanes_sum2)(n, r[0], +1, u[1], v[2], -1, u[2], v[1], t, a);
    FUNCTION(vns, lanes_sum2)(n, r[1], +1, u[2], v[0], -1, u[0], v[2], t, a);
    FUNCTION(vns, lanes_sum2)(n, r[2], +1, u[0], v[1], -1, u[1], v[0], t, a);
    for (int k = 0; k < 3; k++)
        FUNCTION(vns, lanes_scale)(n, r[k], 2.0);
    FUNCTION(vns, lanes_sum2)(n, c[0], +1, u[1], r[2], -1, u[2], r[1], t, a);
    FUNCTION(vns, lanes_sum2)(n, c[1], +1, u[2], r[0], -1, u[0], r[2], t, a);
    FUNCTION(vns, lanes_sum2)(n, c[2], +1, u[0], r[1], -1, u[1], r[0], t, a);
    for (int k = 0; k < 3; k++)
        FUNCTION(vns, lanes_mul_add2)(n, out[k], q[0], r[k], v[k], c[k], t);
}

/* omega = R(q) I^-1 R(q)^T L of every lane, q from buffer `buf` */
static void FUNCTION(vns, lanes_omega)(struct FUNCTION(vns, block) *restrict B, int buf)
{
    int n = B->n;
    FUNCTION(vns, lanes_rotate)(B, B->Lb, B->q[buf], B->L, -1);
    for (int k = 0; k < 3; k++)
        FUNCTION(vns, lanes_div)(n, B->wb[k], B->Lb[k], B->I[k]);
    FUNCTION(vns, lanes_rotate)(B, B->w, B->q[buf], B->wb, +1);
}

/* p = 2 S(q) (0, L~), L~ = R(q)^T L, and 4 I_k of every lane (q in buffer 0), with the
 * operations of mbq rotate_inv and mbq mul_pure (quat_source.c):
 *   S(q) (0, v) = (-q1 v0 - q2 v1 - q3 v2,  q0 v0 + q2 v2 - q3 v1,
 *                   q0 v1 - q1 v2 + q3 v0,  q0 v2 + q1 v1 - q2 v0) */
static void FUNCTION(vns, lanes_momentum)(struct FUNCTION(vns, block) *restrict B)
{
    FUNCTION(vns, row) *q = B->q[0], *p = B->p[0], *v = B->Lb;
    REAL *t = B->t, *a = B->a;
    int n = B->n;
    FUNCTION(vns, lanes_rotate)(B, v, q, B->L, -1);
    FUNCTION(vns, lanes_sum2)(n, p[0], -1, q[1], v[0], -1, q[2], v[1], t, a);
    FUNCTION(vns, lanes_add1)(n, p[0], -1, q[3], v[2], a);
    FUNCTION(vns, lanes_sum2)(n, p[1], +1, q[0], v[0], +1, q[2], v[2], t, a);
    FUNCTION(vns, lanes_add1)(n, p[1], -1, q[3], v[1], a);
    FUNCTION(vns, lanes_sum2)(n, p[2], +1, q[0], v[1], -1, q[1], v[2], t, a);
    FUNCTION(vns, lanes_add1)(n, p[2], +1, q[3], v[0], a);
    FUNCTION(vns, lanes_sum2)(n, p[3], +1, q[0], v[2], +1, q[1], v[1], t, a);
    FUNCTION(vns, lanes_add1)(n, p[3], -1, q[2], v[0], a);
    for (int k = 0; k < 4; k++)
        FUNCTION(vns, lanes_scale)(n, p[k], 2.0);
    for (int k = 0; k < 3; k++)
        VNS_LANES(b, n)
            R_MUL_D(&B->I4[k][b], &B->I[k][b], 4.0);
}

/* free rotation about principal axis k (1..3) for dt of every lane (Miller et al. 2002):
 *   zeta = dt (p . P_k q) / (4 I_k),  q' = cos(zeta) q + sin(zeta) P_k q,  same for p,
 * from (q, p) = buffer src of the block into buffer 1 - src.  A component -q_c of P_k q
 * enters as a subtraction of the product with q_c: x + y (-z) and x - y z are the same
 * rounded value (IEEE 754 and MPFR round symmetrically), so no negated copy is made. */
static void FUNCTION(vns, rotate_block)(struct FUNCTION(vns, block) *restrict B, int k,
                                        const REAL *restrict dt, int src)
{
    const int *from = FUNCTION(vns, perm_from)[k - 1], *neg = FUNCTION(vns, perm_neg)[k - 1];
    FUNCTION(vns, row) *q = B->q[src], *p = B->p[src], *qn = B->q[1 - src], *pn = B->p[1 - src];
    REAL *t = B->t, *u = B->a;
    int n = B->n;
    /* dot = p . P_k q, summed in the order a = 0..3; perm_neg[.][0] = 1 */
    if (neg[1])
        FUNCTION(vns, lanes_sum2)(n, B->dot, -1, p[0], q[from[0]], -1, p[1], q[from[1]], t, u);
    else
        FUNCTION(vns, lanes_sum2)(n, B->dot, -1, p[0], q[from[0]], +1, p[1], q[from[1]], t, u);
    for (int a = 2; a < 4; a++) {
        if (neg[a])
            FUNCTION(vns, lanes_add1)(n, B->dot, -1, p[a], q[from[a]], u);
        else
            FUNCTION(vns, lanes_add1)(n, B->dot, +1, p[a], q[from[a]], u);
    }
    VNS_LANES(b, n) {
        R_MUL(&B->zeta[b], dt, &B->dot[b]);
        R_DIV(&B->zeta[b], &B->zeta[b], &B->I4[k - 1][b]);
    }
    for (int b = 0; b < B->m; b++)      /* padding lanes keep sin 0, cos 1 */
        R_SIN_COS(&B->sz[b], &B->cz[b], &B->zeta[b]);
    for (int a = 0; a < 4; a++) {
        if (neg[a]) {
            FUNCTION(vns, lanes_sum2)(n, qn[a], +1, B->cz, q[a], -1, B->sz, q[from[a]], t, u);
            FUNCTION(vns, lanes_sum2)(n, pn[a], +1, B->cz, p[a], -1, B->sz, p[from[a]], t, u);
        } else {
            FUNCTION(vns, lanes_sum2)(n, qn[a], +1, B->cz, q[a], +1, B->sz, q[from[a]], t, u);
            FUNCTION(vns, lanes_sum2)(n, pn[a], +1, B->cz, p[a], +1, B->sz, p[from[a]], t, u);
        }
    }
}

/* NO_SQUISH free rotation over h of every lane, R3(h/2) R2(h/2) R1(h) R2(h/2) R3(h/2)
 * (Miller et al. 2002), from (q, L) in buffer 0; q(t+h) into buffer 1, its omega into w */
static void FUNCTION(vns, lanes_free_rotation)(struct FUNCTION(vns, block) *restrict B,
                                               const REAL *hh, const REAL *h2)
{
    FUNCTION(vns, lanes_momentum)(B);
    FUNCTION(vns, rotate_block)(B, 3, h2, 0);
    FUNCTION(vns, rotate_block)(B, 2, h2, 1);
    FUNCTION(vns, rotate_block)(B, 1, hh, 0);
    FUNCTION(vns, rotate_block)(B, 2, h2, 1);
    FUNCTION(vns, rotate_block)(B, 3, h2, 0);
    FUNCTION(vns, lanes_omega)(B, 1);
}
#else
/* ------------------------------------------ double: four lanes in registers ---- */

/* The lanes' functions are MB_CLONES_AVX2 (mb_compiler.h: AVX2 and the baseline, the same
 * IEEE operations): test_verlet_nosquish_lanes compares the library's path with the
 * operations written out in the test, compiled for the baseline. */

/* The lanes l .. l + 3 of a row as one 32-byte vector (GCC vector extensions), and back */
typedef mb_sincos_v4d FUNCTION(vns, vec);

static MB_ALWAYS_INLINE void FUNCTION(vns, vec_load)(FUNCTION(vns, vec) *x, const REAL *row, int l)
{
    memcpy(x, &row[l], sizeof *x);
}

static MB_ALWAYS_INLINE void FUNCTION(vns, vec_store)(REAL *row, int l, const FUNCTION(vns, vec) *x)
{
    memcpy(&row[l], x, sizeof *x);
}

/* out = R(q) v (sign +1) or R(q)^T v (sign -1): the operations of the MPFR lanes_rotate
 * (mbq rotate_signed; mb_quat_lanes.h) */
MB_QUAT_LANES_DEFINE_ROTATE(static MB_ALWAYS_INLINE, FUNCTION(vns, vec_rotate), FUNCTION(vns, vec))

/* w = R(q) I^-1 R(q)^T L: the MPFR lanes_omega */
static MB_ALWAYS_INLINE void FUNCTION(vns, vec_omega)(FUNCTION(vns, vec) w[3],
                                                       const FUNCTION(vns, vec) q[4],
                                                       const FUNCTION(vns, vec) L[3],
                                                       const FUNCTION(vns, vec) I[3])
{
    FUNCTION(vns, vec) Lb[3], wb[3];
    FUNCTION(vns, vec_rotate)(Lb, q, L, -1);
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        wb[k] = Lb[k] / I[k];
    FUNCTION(vns, vec_rotate)(w, q, wb, +1);
}

/* p = 2 S(q) (0, L~), L~ = R(q)^T L: the MPFR lanes_momentum (mbq mul_pure's forms) */
static MB_ALWAYS_INLINE void FUNCTION(vns, vec_momentum)(FUNCTION(vns, vec) p[4],
                                                          const FUNCTION(vns, vec) q[4],
                                                          const FUNCTION(vns, vec) L[3])
{
    FUNCTION(vns, vec) v[3];
    FUNCTION(vns, vec_rotate)(v, q, L, -1);
    p[0] = (-(q[1] * v[0]) - q[2] * v[1]) - q[3] * v[2];
    p[1] = (q[0] * v[0] + q[2] * v[2]) - q[3] * v[1];
    p[2] = (q[0] * v[1] - q[1] * v[2]) + q[3] * v[0];
    p[3] = (q[0] * v[2] + q[1] * v[1]) - q[2] * v[0];
    MB_UNROLL(4)
    for (int a = 0; a < 4; a++)
        p[a] = p[a] * 2.0;
}

/* row w <- omega of every lane computed, q from buffer buf */
MB_CLONES_AVX2 static void FUNCTION(vns, lanes_omega)(struct FUNCTION(vns, block) *restrict B, int buf)
{
    for (int l = 0; l < B->n; l += MB_SINCOS_LANES) {
        FUNCTION(vns, vec) q[4], L[3], I[3], w[3];
        MB_UNROLL(4)
        for (int a = 0; a < 4; a++)
            FUNCTION(vns, vec_load)(&q[a], B->q[buf][a], l);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            FUNCTION(vns, vec_load)(&L[k], B->L[k], l);
            FUNCTION(vns, vec_load)(&I[k], B->I[k], l);
        }
        FUNCTION(vns, vec_omega)(w, q, L, I);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++)
            FUNCTION(vns, vec_store)(B->w[k], l, &w[k]);
    }
}

/* sin and cos of the four lanes' angles: fdlibm's kernels (mb_sincos.h: only +, -, * rounded
 * to nearest, so a lane's values do not depend on the processor, the vector width or its
 * neighbours) where |zeta| <= pi/4 -- in practice every lane: zeta is about a quarter
 * of the angle a body turns in the sub-rotation -- and libm's sin and cos for a lane
 * whose |zeta| is larger (NaN and Inf included), decided lane by lane: a lane's values
 * never depend on its neighbour's angle.  A padding lane has zeta = 0: sin 0 = 0,
 * cos 0 = 1 exactly. */
static MB_ALWAYS_INLINE void FUNCTION(vns, vec_sin_cos)(const mb_sincos_v4d *zeta, mb_sincos_v4d *s,
                                                         mb_sincos_v4d *c)
{
    mb_sincos_v4(zeta, s, c);
    if (mb_sincos_v4_in_range(zeta))
        return;
    for (int l = 0; l < MB_SINCOS_LANES; l++) {     /* each lane by its own angle alone */
        double z = (*zeta)[l], sl, cl;
        if (fabs(z) <= MB_SINCOS_PIO4)
            continue;
        R_SIN_COS(&sl, &cl, &z);
        (*s)[l] = sl;
        (*c)[l] = cl;
    }
}

/* the MPFR rotate_block(k, dt) on four lanes held in registers, (q, p) -> (qn, pn),
 * each lane with exactly rotate_block's operations in its order (the products and sums of
 * lanes_sum2 and lanes_add1: dot = (-(p0 q_f0) -+ p1 q_f1) -+ p2 q_f2 -+ p3 q_f3,
 * zeta = (dt dot) / (4 I_k), then cos zeta q_a -+ sin zeta q_fa and the same for p).
 * want_p = 0: pn is not computed (after the last sub-rotation p is not read). */
static MB_ALWAYS_INLINE void FUNCTION(vns, vec_sub_rotation)(mb_sincos_v4d qn[4],
                                                             mb_sincos_v4d pn[4],
                                                             const mb_sincos_v4d q[4],
                                                             const mb_sincos_v4d p[4], int k,
                                                             double dt,
                                                             const mb_sincos_v4d *I4,
                                                             int want_p)
{
    const int *from = FUNCTION(vns, perm_from)[k - 1], *neg = FUNCTION(vns, perm_neg)[k - 1];
    mb_sincos_v4d dot = -(p[0] * q[from[0]]);
    MB_UNROLL(3)
    for (int a = 1; a < 4; a++) {
        mb_sincos_v4d u = p[a] * q[from[a]];
        dot = neg[a] ? dot - u : dot + u;
    }
    mb_sincos_v4d zeta = (dt * dot) / *I4, s, c;
    FUNCTION(vns, vec_sin_cos)(&zeta, &s, &c);
    MB_UNROLL(4)
    for (int a = 0; a < 4; a++) {
        mb_sincos_v4d t = c * q[a], u = s * q[from[a]];
        qn[a] = neg[a] ? t - u : t + u;
        if (want_p) {
            t = c * p[a];
            u = s * p[from[a]];
            pn[a] = neg[a] ? t - u : t + u;
        }
    }
}

/* The free rotation of four lanes at a time: momentum, the five sub-rotations
 * and the omega of q(t+h), (q, p) kept in registers from the first to the last instead
 * of written to the block between them; the same operations as the MPFR kernels', lane
 * by lane.  The buffers of the block hold only q(t+h), in buffer 1. */
MB_CLONES_AVX2 static void FUNCTION(vns, lanes_free_rotation)(struct FUNCTION(vns, block) *restrict B,
                                               const REAL *hh, const REAL *h2)
{
    const double h = *hh, g = *h2;
    for (int l = 0; l < B->n; l += MB_SINCOS_LANES) {
        FUNCTION(vns, vec) q[4], p[4], qa[4], pa[4], L[3], I[3], I4[3], w[3];
        MB_UNROLL(4)
        for (int a = 0; a < 4; a++)
            FUNCTION(vns, vec_load)(&q[a], B->q[0][a], l);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            FUNCTION(vns, vec_load)(&L[k], B->L[k], l);
            FUNCTION(vns, vec_load)(&I[k], B->I[k], l);
            I4[k] = I[k] * 4.0;
        }
        FUNCTION(vns, vec_momentum)(p, q, L);
        FUNCTION(vns, vec_sub_rotation)(qa, pa, q, p, 3, g, &I4[2], 1);
        FUNCTION(vns, vec_sub_rotation)(q, p, qa, pa, 2, g, &I4[1], 1);
        FUNCTION(vns, vec_sub_rotation)(qa, pa, q, p, 1, h, &I4[0], 1);
        FUNCTION(vns, vec_sub_rotation)(q, p, qa, pa, 2, g, &I4[1], 1);
        FUNCTION(vns, vec_sub_rotation)(qa, pa, q, p, 3, g, &I4[2], 0);
        FUNCTION(vns, vec_omega)(w, qa, L, I);
        MB_UNROLL(4)
        for (int a = 0; a < 4; a++)
            FUNCTION(vns, vec_store)(B->q[1][a], l, &qa[a]);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++)
            FUNCTION(vns, vec_store)(B->w[k], l, &w[k]);
    }
}
#endif
