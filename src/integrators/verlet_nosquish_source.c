/* verlet_nosquish_source.c -- template body of verlet-nosquish (see verlet_nosquish.c).
 * Included after templates_on.h, scheme_util_source.c and quat_source.c. */

struct FUNCTION(vns, state) {
    struct vns_common com;      /* first member: read by the stats hook */
    size_t n;
    int have;
    const void *sys_c, *forces_c, *nodes_c;   /* system, force field and store of the cache */
    double t_c;
    unsigned long gen_c;        /* the store's generation the scheme left (mb_stepper.h) */
    /* cache: loads at the state the scheme left; L_c holds L only after a cache miss
     * (on a hit the store's own angmom is that state's L) */
    REAL *L_c, *f_c, *tau_c;
    /* trial state */
    REAL *x, *v, *q, *w, *L, *f, *tau, *vp;
};

/* The free rotations of VNS_BLOCK bodies run side by side, structure of arrays (lane b
 * holds one body).  The five sub-rotations of one body are one chain of dependent
 * operations (dot product, division, sincos, update, then the next sub-rotation), which
 * the processor cannot overlap with itself; the chains of different bodies are
 * independent, so lanes interleave them.  Each lane performs the operations of one body
 * alone, in the same order, so the results do not depend on the block. */
#define VNS_BLOCK 8

struct FUNCTION(vns, block) {
    size_t node[VNS_BLOCK];         /* node index of each lane in use */
    int m;                          /* lanes in use */
    REAL q[2][4][VNS_BLOCK], p[2][4][VNS_BLOCK];   /* two buffers: a sub-rotation
                                                     * reads one and writes the other */
    REAL I4[3][VNS_BLOCK];          /* 4 I_k (exact: a power of two times I_k) */
    REAL dot[VNS_BLOCK], t[VNS_BLOCK], a[VNS_BLOCK], zeta[VNS_BLOCK], cz[VNS_BLOCK],
         sz[VNS_BLOCK];
};

/* per-call temporaries (initialised once per step, never per node) */
struct FUNCTION(vns, tmp) {
    REAL hh[1], h2[1], a[1], t[1], dot[1];
    REAL p[4], Lb[3], tb[3];
    struct FUNCTION(mbq, scratch) qs;
    struct FUNCTION(vns, block) blk;
};

/* every REAL of the block, in one list for initialisation and clearing */
#define VNS_BLOCK_REALS (2 * 2 * 4 + 3 + 6)
static void FUNCTION(vns, block_rows)(struct FUNCTION(vns, block) *B,
                                      REAL *rows[VNS_BLOCK_REALS])
{
    int r = 0;
    for (int c = 0; c < 2; c++)
        for (int a = 0; a < 4; a++) {
            rows[r++] = B->q[c][a]; rows[r++] = B->p[c][a];
        }
    for (int k = 0; k < 3; k++)
        rows[r++] = B->I4[k];
    rows[r++] = B->dot; rows[r++] = B->t; rows[r++] = B->a; rows[r++] = B->zeta;
    rows[r++] = B->cz; rows[r++] = B->sz;
}

static void FUNCTION(vns, tmp_init)(struct FUNCTION(vns, tmp) *T, mpfr_prec_t prec)
{
    REAL *sc[] = { T->hh, T->h2, T->a, T->t, T->dot };
    for (size_t k = 0; k < sizeof sc / sizeof sc[0]; k++)
        R_INIT(sc[k], prec);
    for (int k = 0; k < 4; k++)
        R_INIT(&T->p[k], prec);
    for (int k = 0; k < 3; k++) {
        R_INIT(&T->Lb[k], prec); R_INIT(&T->tb[k], prec);
    }
    FUNCTION(mbq, scratch_init)(&T->qs, prec);
    REAL *rows[VNS_BLOCK_REALS];
    FUNCTION(vns, block_rows)(&T->blk, rows);
    for (int r = 0; r < VNS_BLOCK_REALS; r++)
        for (int b = 0; b < VNS_BLOCK; b++)
            R_INIT(&rows[r][b], prec);
    T->blk.m = 0;
}

static void FUNCTION(vns, tmp_clear)(struct FUNCTION(vns, tmp) *T)
{
    REAL *sc[] = { T->hh, T->h2, T->a, T->t, T->dot };
    for (size_t k = 0; k < sizeof sc / sizeof sc[0]; k++)
        R_CLEAR(sc[k]);
    for (int k = 0; k < 4; k++)
        R_CLEAR(&T->p[k]);
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&T->Lb[k]); R_CLEAR(&T->tb[k]);
    }
    FUNCTION(mbq, scratch_clear)(&T->qs);
    REAL *rows[VNS_BLOCK_REALS];
    FUNCTION(vns, block_rows)(&T->blk, rows);
    for (int r = 0; r < VNS_BLOCK_REALS; r++)
        for (int b = 0; b < VNS_BLOCK; b++)
            R_CLEAR(&rows[r][b]);
}

static void FUNCTION(vns, free)(void *vs)
{
    struct FUNCTION(vns, state) *s = vs;
    if (s == NULL)
        return;
    size_t n3 = 3 * s->n, n4 = 4 * s->n;
    REAL *a3[] = { s->L_c, s->f_c, s->tau_c, s->x, s->v, s->w, s->L, s->f, s->tau, s->vp };
    for (size_t k = 0; k < sizeof a3 / sizeof a3[0]; k++)
        FUNCTION(scheme, array_free)(a3[k], n3);
    FUNCTION(scheme, array_free)(s->q, n4);
    free(s);
}

static int FUNCTION(vns, alloc)(void **out, const mb_options *opts, const TYPE(mb_system) *sys)
{
    (void)opts;
    struct FUNCTION(vns, state) *s = calloc(1, sizeof *s);
    if (s == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    mpfr_prec_t prec = sys->nodes->prec;
    s->n = sys->nodes->n;
    size_t n3 = 3 * s->n, n4 = 4 * s->n;
    REAL **a3[] = { &s->L_c, &s->f_c, &s->tau_c, &s->x, &s->v, &s->w, &s->L, &s->f, &s->tau,
                    &s->vp };
    int ok = 1;
    for (size_t k = 0; k < sizeof a3 / sizeof a3[0]; k++)
        ok = ok && (*a3[k] = FUNCTION(scheme, array)(n3, prec)) != NULL;
    ok = ok && (s->q = FUNCTION(scheme, array)(n4, prec)) != NULL;
    if (!ok) {
        FUNCTION(vns, free)(s);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    *out = s;
    return MB_SUCCESS;
}

/* 1 when node i rotates: all principal moments > 0 */
static int FUNCTION(vns, rotates)(const TYPE(mb_nodes) *nd, size_t i)
{
    const REAL *I = nd->inertia + 3 * i;
    return R_CMP_D(&I[0], 0.0) > 0 && R_CMP_D(&I[1], 0.0) > 0 && R_CMP_D(&I[2], 0.0) > 0;
}

/* w = R I^-1 R^T L */
static void FUNCTION(vns, omega)(struct FUNCTION(vns, tmp) *T, REAL *w, const REAL *q,
                                 const REAL *I, const REAL *L)
{
    FUNCTION(mbq, rotate_inv)(&T->qs, T->Lb, q, L);
    for (int k = 0; k < 3; k++)
        R_DIV(&T->Lb[k], &T->Lb[k], &I[k]);
    FUNCTION(mbq, rotate)(&T->qs, w, q, T->Lb);
}

/* loads at the trial state into (f, tau); the node store's pointers are restored */
static int FUNCTION(vns, eval)(TYPE(mb_system) *sys, REAL *x, REAL *v, REAL *q, REAL *w,
                               REAL *f, REAL *tau, double t)
{
    TYPE(mb_nodes) *nd = sys->nodes;
    REAL *sv[6] = { nd->x, nd->v, nd->q, nd->omega, nd->f, nd->torque };
    nd->x = x; nd->v = v; nd->q = q; nd->omega = w; nd->f = f; nd->torque = tau;
    int st = FUNCTION(mb_forces, eval)(sys->forces, nd, t);
    nd->x = sv[0]; nd->v = sv[1]; nd->q = sv[2]; nd->omega = sv[3]; nd->f = sv[4];
    nd->torque = sv[5];
    return st;
}

/* The cached loads belong to the current state when the system, its force field, its
 * node store, the time and the store's generation are those the scheme left: any other
 * writer of x, v, q, omega or angmom, and any step by another scheme, changes the
 * generation (mb_stepper.h), so no array is compared. */
static int FUNCTION(vns, cache_valid)(const struct FUNCTION(vns, state) *s, const TYPE(mb_system) *sys)
{
    return s->have && s->sys_c == (const void *)sys && s->forces_c == (const void *)sys->forces
        && s->nodes_c == (const void *)sys->nodes && s->t_c == sys->t
        && s->gen_c == sys->nodes->generation;
}

/* P_k q = q (x) e_k (Miller et al. 2002), sign changes and moves only (exact):
 *   P_1 q = (-q1, q0, q3, -q2),  P_2 q = (-q2, -q3, q0, q1),  P_3 q = (-q3, q2, -q1, q0);
 * component a of P_k q is -q[perm_from[k-1][a]] where perm_neg[k-1][a], else +. */
static const int FUNCTION(vns, perm_from)[3][4] = { { 1, 0, 3, 2 }, { 2, 3, 0, 1 }, { 3, 2, 1, 0 } };
static const int FUNCTION(vns, perm_neg)[3][4] = { { 1, 0, 0, 1 }, { 1, 1, 0, 0 }, { 1, 0, 1, 0 } };

/* free rotation about principal axis k (1..3) for dt of every lane (Miller et al. 2002):
 *   zeta = dt (p . P_k q) / (4 I_k),  q' = cos(zeta) q + sin(zeta) P_k q,  same for p,
 * from (q, p) = buffer src of the block into buffer 1 - src.  A component -q_c of P_k q
 * enters as a subtraction of the product with q_c: x + y (-z) and x - y z are the same
 * rounded value (IEEE 754 and MPFR round symmetrically), so no negated copy is made.
 * Lanes are independent; each loop over b is one step of every lane's chain. */
static void FUNCTION(vns, rotate_block)(struct FUNCTION(vns, block) *restrict B, int k,
                                        const REAL *restrict dt, int src)
{
    const int *from = FUNCTION(vns, perm_from)[k - 1], *neg = FUNCTION(vns, perm_neg)[k - 1];
    REAL (*q)[VNS_BLOCK] = B->q[src], (*p)[VNS_BLOCK] = B->p[src];
    REAL (*qn)[VNS_BLOCK] = B->q[1 - src], (*pn)[VNS_BLOCK] = B->p[1 - src];
    REAL *dot = B->dot, *t = B->t, *zeta = B->zeta, *cz = B->cz, *sz = B->sz;
    for (int b = 0; b < VNS_BLOCK; b++) {                      /* perm_neg[.][0] = 1 */
        R_MUL(&dot[b], &p[0][b], &q[from[0]][b]);
        R_NEG(&dot[b], &dot[b]);
    }
    for (int a = 1; a < 4; a++) {
        const REAL *qa = q[from[a]];
        if (neg[a])
            for (int b = 0; b < VNS_BLOCK; b++) {
                R_MUL(&t[b], &p[a][b], &qa[b]);
                R_SUB(&dot[b], &dot[b], &t[b]);
            }
        else
            for (int b = 0; b < VNS_BLOCK; b++) {
                R_MUL(&t[b], &p[a][b], &qa[b]);
                R_ADD(&dot[b], &dot[b], &t[b]);
            }
    }
    for (int b = 0; b < VNS_BLOCK; b++) {
        R_MUL(&zeta[b], dt, &dot[b]);
        R_DIV(&zeta[b], &zeta[b], &B->I4[k - 1][b]);
    }
    for (int b = 0; b < VNS_BLOCK; b++)     /* one call for the pair: B-> keeps the three
                                             * apart for the compiler, which fuses them */
        R_SIN_COS(&B->sz[b], &B->cz[b], &B->zeta[b]);
    for (int a = 0; a < 4; a++) {
        const REAL *qa = q[from[a]], *pa = p[from[a]];
        REAL *u = B->a;
        if (neg[a])
            for (int b = 0; b < VNS_BLOCK; b++) {
                R_MUL(&t[b], &cz[b], &q[a][b]);
                R_MUL(&u[b], &sz[b], &qa[b]);
                R_SUB(&qn[a][b], &t[b], &u[b]);
                R_MUL(&t[b], &cz[b], &p[a][b]);
                R_MUL(&u[b], &sz[b], &pa[b]);
                R_SUB(&pn[a][b], &t[b], &u[b]);
            }
        else
            for (int b = 0; b < VNS_BLOCK; b++) {
                R_MUL(&t[b], &cz[b], &q[a][b]);
                R_MUL(&u[b], &sz[b], &qa[b]);
                R_ADD(&qn[a][b], &t[b], &u[b]);
                R_MUL(&t[b], &cz[b], &p[a][b]);
                R_MUL(&u[b], &sz[b], &pa[b]);
                R_ADD(&pn[a][b], &t[b], &u[b]);
            }
    }
}

/* lane b <- node i: q, p = 2 S(q) (0, L~) with L~ = R(q)^T L, and 4 I_k */
static void FUNCTION(vns, lane_load)(struct FUNCTION(vns, tmp) *T, int b, size_t i, const REAL *q,
                                     const REAL *L, const REAL *I)
{
    struct FUNCTION(vns, block) *B = &T->blk;
    B->node[b] = i;
    FUNCTION(mbq, rotate_inv)(&T->qs, T->Lb, q, L);
    FUNCTION(mbq, mul_pure)(&T->qs, T->p, q, T->Lb);
    for (int a = 0; a < 4; a++) {
        R_SET(&B->q[0][a][b], &q[a]);
        R_MUL_D(&B->p[0][a][b], &T->p[a], 2.0);                 /* p = 2 S(q) (0, L~) */
    }
    for (int k = 0; k < 3; k++)
        R_MUL_D(&B->I4[k][b], &I[k], 4.0);
}

/* lane b of an unfilled block: the identity at rest (finite, no division by zero) */
static void FUNCTION(vns, lane_pad)(struct FUNCTION(vns, block) *B, int b)
{
    for (int a = 0; a < 4; a++) {
        R_SET_D(&B->q[0][a][b], a == 0 ? 1.0 : 0.0);
        R_SET_D(&B->p[0][a][b], 0.0);
    }
    for (int k = 0; k < 3; k++)
        R_SET_D(&B->I4[k][b], 4.0);
}

/* tb = global torque with the blocked rotational components zeroed */
static void FUNCTION(vns, torque)(REAL *tb, const REAL *tau, unsigned char blocked)
{
    for (int k = 0; k < 3; k++) {
        if (blocked & (MB_BLOCK_RX << k))
            R_SET_D(&tb[k], 0.0);
        else
            R_SET(&tb[k], &tau[k]);
    }
}

/* L = R I R^T w for every node (a cache miss: the state is not the one the scheme left) */
static void FUNCTION(vns, angmom_from_omega)(struct FUNCTION(vns, tmp) *T, REAL *L,
                                             const TYPE(mb_nodes) *nd)
{
    for (size_t i = 0; i < nd->n; i++) {
        FUNCTION(mbq, rotate_inv)(&T->qs, T->Lb, nd->q + 4 * i, nd->omega + 3 * i);
        for (int k = 0; k < 3; k++)
            R_MUL(&T->Lb[k], &T->Lb[k], &nd->inertia[3 * i + k]);
        FUNCTION(mbq, rotate)(&T->qs, L + 3 * i, nd->q + 4 * i, T->Lb);
    }
}

/* | |q| - 1 | */
static double FUNCTION(vns, norm_error)(struct FUNCTION(vns, tmp) *T, const REAL *q)
{
    R_MUL(T->dot, &q[0], &q[0]);
    for (int a = 1; a < 4; a++) {
        R_MUL(T->t, &q[a], &q[a]);
        R_ADD(T->dot, T->dot, T->t);
    }
    R_SQRT(T->dot, T->dot);
    return fabs(R_GET_D(T->dot) - 1.0);
}

/* NO_SQUISH free rotation over h of the bodies in the block, R3(h/2) R2(h/2) R1(h)
 * R2(h/2) R3(h/2), then each body's q and the omega estimate for the loads to its node;
 * the block is emptied.  Each sub-rotation turns the body about its own axis k while
 * p = 2 q (x) (0, L~) turns with it, so L~ counter-rotates and the global L = R(q) L~ is
 * invariant (exactly): L is left as it is instead of being recovered from p (which
 * would only add the round-off of two frame changes).  Returns the largest | |q| - 1 |
 * (no normalisation is applied). */
static double FUNCTION(vns, block_flush)(struct FUNCTION(vns, state) *s, struct FUNCTION(vns, tmp) *T,
                                         const TYPE(mb_nodes) *nd)
{
    struct FUNCTION(vns, block) *B = &T->blk;
    if (B->m == 0)
        return 0.0;
    for (int b = B->m; b < VNS_BLOCK; b++)
        FUNCTION(vns, lane_pad)(B, b);
    FUNCTION(vns, rotate_block)(B, 3, T->h2, 0);
    FUNCTION(vns, rotate_block)(B, 2, T->h2, 1);
    FUNCTION(vns, rotate_block)(B, 1, T->hh, 0);
    FUNCTION(vns, rotate_block)(B, 2, T->h2, 1);
    FUNCTION(vns, rotate_block)(B, 3, T->h2, 0);        /* the result is in buffer 1 */
    double qerr = 0.0;
    for (int b = 0; b < B->m; b++) {
        size_t i = B->node[b];
        REAL *q = s->q + 4 * i;
        for (int a = 0; a < 4; a++)
            R_SET(&q[a], &B->q[1][a][b]);
        qerr = fmax(qerr, FUNCTION(vns, norm_error)(T, q));
        FUNCTION(vns, omega)(T, s->w + 3 * i, q, nd->inertia + 3 * i, s->L + 3 * i);
    }
    B->m = 0;
    return qerr;
}

/* first half kicks and drift of node i into the trial arrays, from the angular momenta
 * L0 of the current state; a rotating node joins the block of free rotations, which
 * runs when full (block_flush); returns the largest | |q| - 1 | of a block it ran */
static double FUNCTION(vns, first_half)(struct FUNCTION(vns, state) *s, struct FUNCTION(vns, tmp) *T,
                                        const TYPE(mb_nodes) *nd, const REAL *L0, size_t i)
{
    for (int k = 0; k < 3; k++) {
        size_t j = 3 * i + k;
        if (nd->blocked[i] & (1u << k))
            R_SET_D(T->a, 0.0);
        else
            R_MUL(T->a, &s->f_c[j], &nd->inv_mass[i]);
        R_MUL(T->t, T->a, T->h2);
        R_ADD(&s->v[j], &nd->v[j], T->t);                       /* v(t+h/2) */
        R_MUL(T->t, &s->v[j], T->hh);
        R_ADD(&s->x[j], &nd->x[j], T->t);                       /* x(t+h) */
        R_MUL(T->t, T->a, T->hh);
        R_ADD(&s->vp[j], &nd->v[j], T->t);                      /* predictor for the loads */
    }
    REAL *q = s->q + 4 * i, *L = s->L + 3 * i, *w = s->w + 3 * i;
    for (int a = 0; a < 4; a++)
        R_SET(&q[a], &nd->q[4 * i + a]);
    if (!FUNCTION(vns, rotates)(nd, i)) {
        for (int k = 0; k < 3; k++) {
            R_SET(&L[k], &nd->angmom[3 * i + k]);
            R_SET(&w[k], &nd->omega[3 * i + k]);
        }
        return 0.0;
    }
    FUNCTION(vns, torque)(T->tb, s->tau_c + 3 * i, nd->blocked[i]);
    for (int k = 0; k < 3; k++) {
        R_MUL(T->t, &T->tb[k], T->h2);
        R_ADD(&L[k], &L0[3 * i + k], T->t);                     /* L(t+h/2) */
    }
    struct FUNCTION(vns, block) *B = &T->blk;
    FUNCTION(vns, lane_load)(T, B->m, i, q, L, nd->inertia + 3 * i);
    return ++B->m == VNS_BLOCK ? FUNCTION(vns, block_flush)(s, T, nd) : 0.0;
}

/* second half kicks of node i with the loads at t+h */
static void FUNCTION(vns, second_half)(struct FUNCTION(vns, state) *s, struct FUNCTION(vns, tmp) *T,
                                       const TYPE(mb_nodes) *nd, size_t i)
{
    for (int k = 0; k < 3; k++) {
        size_t j = 3 * i + k;
        if (nd->blocked[i] & (1u << k))
            R_SET_D(T->a, 0.0);
        else
            R_MUL(T->a, &s->f[j], &nd->inv_mass[i]);
        R_MUL(T->t, T->a, T->h2);
        R_ADD(&s->v[j], &s->v[j], T->t);                        /* v(t+h) */
    }
    if (!FUNCTION(vns, rotates)(nd, i))
        return;
    REAL *L = s->L + 3 * i;
    FUNCTION(vns, torque)(T->tb, s->tau + 3 * i, nd->blocked[i]);
    for (int k = 0; k < 3; k++) {
        R_MUL(T->t, &T->tb[k], T->h2);
        R_ADD(&L[k], &L[k], T->t);                              /* L(t+h) */
    }
    FUNCTION(vns, omega)(T, s->w + 3 * i, s->q + 4 * i, nd->inertia + 3 * i, L);
}

/* make the trial state current (pointer swaps) and keep it, with its loads, as the cache */
static void FUNCTION(vns, commit)(struct FUNCTION(vns, state) *s, TYPE(mb_system) *sys, double h)
{
    TYPE(mb_nodes) *nd = sys->nodes;
    size_t n3 = 3 * s->n;
    FUNCTION(scheme, swap)(&nd->x, &s->x);
    FUNCTION(scheme, swap)(&nd->v, &s->v);
    FUNCTION(scheme, swap)(&nd->q, &s->q);
    FUNCTION(scheme, swap)(&nd->omega, &s->w);
    FUNCTION(scheme, swap)(&nd->angmom, &s->L);
    FUNCTION(scheme, swap)(&nd->f, &s->f);
    FUNCTION(scheme, swap)(&nd->torque, &s->tau);
    sys->t += h;
    for (size_t j = 0; j < n3; j++) {
        R_SET(&s->f_c[j], &nd->f[j]);
        R_SET(&s->tau_c[j], &nd->torque[j]);
    }
    s->t_c = sys->t;
    s->sys_c = sys;
    s->forces_c = sys->forces;
    s->nodes_c = nd;
    s->gen_c = ++nd->generation;    /* a step changes the generation; the scheme keeps it */
    s->have = 1;
}

static int FUNCTION(vns, step)(void *vs, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(vns, state) *s = vs;
    TYPE(mb_nodes) *nd = sys->nodes;
    size_t n = s->n, n3 = 3 * n;
    int st = MB_SUCCESS;
    if (!(h > 0.0))
        MB_ERROR(MB_EDOM, "verlet-nosquish: time step h = %g must be > 0", h);
    struct FUNCTION(vns, tmp) T;
    FUNCTION(vns, tmp_init)(&T, nd->prec);
    R_SET_D(T.hh, h);
    R_SET_D(T.h2, 0.5 * h);     /* exact: halving a double */
    const REAL *L0 = nd->angmom;    /* a cache hit: the store's L is the one the scheme left */
    if (!FUNCTION(vns, cache_valid)(s, sys)) {
        s->have = 0;
        st = FUNCTION(vns, eval)(sys, nd->x, nd->v, nd->q, nd->omega, s->f_c, s->tau_c, sys->t);
        if (st == MB_SUCCESS)
            FUNCTION(vns, angmom_from_omega)(&T, s->L_c, nd);
        L0 = s->L_c;
    }
    double qerr = 0.0;
    if (st == MB_SUCCESS) {
        for (size_t i = 0; i < n; i++)
            qerr = fmax(qerr, FUNCTION(vns, first_half)(s, &T, nd, L0, i));
        qerr = fmax(qerr, FUNCTION(vns, block_flush)(s, &T, nd));      /* the last block */
        st = FUNCTION(vns, eval)(sys, s->x, s->vp, s->q, s->w, s->f, s->tau, sys->t + h);
    }
    if (st == MB_SUCCESS)
        for (size_t i = 0; i < n; i++)
            FUNCTION(vns, second_half)(s, &T, nd, i);
    FUNCTION(vns, tmp_clear)(&T);
    if (st != MB_SUCCESS)
        return st;
    if (!FUNCTION(scheme, finite)(s->x, n3) || !FUNCTION(scheme, finite)(s->v, n3)
        || !FUNCTION(scheme, finite)(s->L, n3) || !FUNCTION(scheme, finite)(s->w, n3)
        || !FUNCTION(scheme, finite)(s->q, 4 * n))
        MB_ERROR(MB_EDIVERGED, "verlet-nosquish: NaN or Inf at t = %.17g", sys->t + h);
    FUNCTION(vns, commit)(s, sys, h);
    s->com.steps++;
    s->com.qnorm_err = fmax(s->com.qnorm_err, qerr);
    return MB_SUCCESS;
}
