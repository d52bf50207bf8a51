/* verlet_nosquish_source.c -- template body of verlet-nosquish (see verlet_nosquish.c).
 * Included after templates_on.h, scheme_util_source.c, quat_source.c and
 * verlet_nosquish_lanes_source.c. */

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
    /* rotating bodies waiting for their block (initialised once, at allocation: in MPFR
     * its rows are several hundred numbers) */
    struct FUNCTION(vns, block) *blk;
};

/* per-call temporaries (initialised once per step, never per node) */
struct FUNCTION(vns, tmp) {
    REAL hh[1], h2[1], a[1], t[1], dot[1];
    REAL Lb[3], tb[3];
    int finite;     /* 0 once a value of the new state (x, v, q, omega, L) is NaN or Inf */
    struct FUNCTION(mbq, scratch) qs;
    struct FUNCTION(vns, block) *blk;   /* the state's block */
};

/* Temporaries of the per-node functions.  In double they are locals whose address does
 * not escape, so the compiler keeps them in registers (members of *T, read and written
 * through a pointer that might alias the state's arrays, went to memory at every
 * operation); in MPFR they are the step's scratch members of the same name, initialised
 * once per step, never per node.  VNS_COPY: a read-only copy of a scratch value. */
#undef VNS_LOCAL
#undef VNS_COPY
#if IS_MPFR
#define VNS_LOCAL(name, n, T) REAL *name = (T)->name
#define VNS_COPY(name, T) const REAL *name = (T)->name
#else
#define VNS_LOCAL(name, n, T) REAL name##_reg[n]; REAL *name = ((void)(T), name##_reg)
#define VNS_COPY(name, T) const REAL name##_reg[1] = { (T)->name[0] }; const REAL *name = name##_reg
#endif

static void FUNCTION(vns, tmp_init)(struct FUNCTION(vns, tmp) *T, mpfr_prec_t prec)
{
    REAL *sc[] = { T->hh, T->h2, T->a, T->t, T->dot };
    for (size_t k = 0; k < sizeof sc / sizeof sc[0]; k++)
        R_INIT(sc[k], prec);
    for (int k = 0; k < 3; k++) {
        R_INIT(&T->Lb[k], prec); R_INIT(&T->tb[k], prec);
    }
    FUNCTION(mbq, scratch_init)(&T->qs, prec);
    T->finite = 1;
}

static void FUNCTION(vns, tmp_clear)(struct FUNCTION(vns, tmp) *T)
{
    REAL *sc[] = { T->hh, T->h2, T->a, T->t, T->dot };
    for (size_t k = 0; k < sizeof sc / sizeof sc[0]; k++)
        R_CLEAR(sc[k]);
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&T->Lb[k]); R_CLEAR(&T->tb[k]);
    }
    FUNCTION(mbq, scratch_clear)(&T->qs);
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
    if (s->blk) {
        FUNCTION(vns, block_clear)(s->blk);
        free(s->blk);
    }
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
    ok = ok && (s->blk = FUNCTION(vns, block_alloc)(prec)) != NULL;
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

/* loads at the trial state into (f, tau); the node store's pointers are restored.
 * v_step (NULL or the mid-step velocity v(t - h/2) of the step ending at t): the velocity
 * over the step, by which a contact history advances while v, the predictor, feeds the
 * dashpots.  With the predictor alone the history's increment u_t(t) h would be a
 * rectangle rule at the step's end, first order (doc/dem.md, "Contact history"). */
static int FUNCTION(vns, eval)(TYPE(mb_system) *sys, REAL *x, REAL *v, REAL *v_step, REAL *q,
                               REAL *w, REAL *f, REAL *tau, double t)
{
    TYPE(mb_nodes) *nd = sys->nodes;
    REAL *sv[7] = { nd->x, nd->v, nd->q, nd->omega, nd->f, nd->torque, nd->v_step };
    nd->x = x; nd->v = v; nd->q = q; nd->omega = w; nd->f = f; nd->torque = tau;
    nd->v_step = v_step;
    int st = FUNCTION(mb_forces, eval)(sys->forces, nd, t);
    nd->x = sv[0]; nd->v = sv[1]; nd->q = sv[2]; nd->omega = sv[3]; nd->f = sv[4];
    nd->torque = sv[5]; nd->v_step = sv[6];
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
    VNS_LOCAL(dot, 1, T);
    VNS_LOCAL(t, 1, T);
    R_MUL(dot, &q[0], &q[0]);
    R_UNROLL(3)
    for (int a = 1; a < 4; a++) {
        R_MUL(t, &q[a], &q[a]);
        R_ADD(dot, dot, t);
    }
    R_SQRT(dot, dot);
    return fabs(R_GET_D(dot) - 1.0);
}

/* the angular velocities in row w of the block to their nodes of the trial state; the
 * block is emptied.  finite: NULL for an estimate, else cleared when a w is NaN or Inf. */
static void FUNCTION(vns, block_omega_store)(struct FUNCTION(vns, state) *s, struct FUNCTION(vns, block) *B,
                                             int *finite)
{
    int ok = 1;
    for (int b = 0; b < B->m; b++)
        for (int k = 0; k < 3; k++) {
            R_SET(&s->w[3 * B->node[b] + k], &B->w[k][b]);
            ok &= R_ISFINITE(&B->w[k][b]) != 0;
        }
    if (finite)
        *finite &= ok;
    B->m = 0;
}

/* angular velocities w = R I^-1 R^T L of the block's bodies (q in buffer `buf`) to their
 * nodes of the trial state, as block_omega_store */
static void FUNCTION(vns, block_omega_out)(struct FUNCTION(vns, state) *s, struct FUNCTION(vns, block) *B,
                                           int buf, int *finite)
{
    FUNCTION(vns, lanes_omega)(B, buf);
    FUNCTION(vns, block_omega_store)(s, B, finite);
}

/* NO_SQUISH free rotation over h of the block's bodies, then each body's q and the omega
 * estimate for the loads to its node; the block is emptied.  Each sub-rotation turns the
 * body about its own axis k while p = 2 q (x) (0, L~) turns with it, so L~
 * counter-rotates and the global L = R(q) L~ is invariant (exactly): L is left as it is
 * instead of being recovered from p (which would only add the round-off of two frame
 * changes).  Returns the largest | |q| - 1 | (no normalisation is applied). */
static double FUNCTION(vns, block_rotate_out)(struct FUNCTION(vns, state) *s, struct FUNCTION(vns, tmp) *T)
{
    struct FUNCTION(vns, block) *B = T->blk;
    if (B->m == 0)
        return 0.0;
    FUNCTION(vns, block_pad)(B);
    FUNCTION(vns, lanes_free_rotation)(B, T->hh, T->h2);
    double qerr = 0.0;
    int finite = 1;
    for (int b = 0; b < B->m; b++) {
        REAL *q = s->q + 4 * B->node[b];
        R_UNROLL(4)
        for (int a = 0; a < 4; a++) {
            R_SET(&q[a], &B->q[1][a][b]);
            finite &= R_ISFINITE(&q[a]) != 0;
        }
        qerr = fmax(qerr, FUNCTION(vns, norm_error)(T, q));
    }
    T->finite &= finite;
    FUNCTION(vns, block_omega_store)(s, B, NULL);      /* the estimate for the loads */
    return qerr;
}

/* first half kicks and drift of node i into the trial arrays, from the angular momenta
 * L0 of the current state; a rotating node joins the block of free rotations, which
 * runs when full; returns the largest | |q| - 1 | of a block it ran */
static double FUNCTION(vns, first_half)(struct FUNCTION(vns, state) *s, struct FUNCTION(vns, tmp) *T,
                                        const TYPE(mb_nodes) *nd, const REAL *L0, size_t i)
{
    VNS_LOCAL(a, 1, T);
    VNS_LOCAL(t, 1, T);
    VNS_LOCAL(tb, 3, T);
    VNS_COPY(hh, T);
    VNS_COPY(h2, T);
    int finite = 1;
    R_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        size_t j = 3 * i + k;
        if (nd->blocked[i] & (1u << k))
            R_SET_D(a, 0.0);
        else
            R_MUL(a, &s->f_c[j], &nd->inv_mass[i]);
        R_MUL(t, a, h2);
        R_ADD(&s->v[j], &nd->v[j], t);                          /* v(t+h/2) */
        R_MUL(t, &s->v[j], hh);
        R_ADD(&s->x[j], &nd->x[j], t);                          /* x(t+h) */
        finite &= R_ISFINITE(&s->x[j]) != 0;
        R_MUL(t, a, hh);
        R_ADD(&s->vp[j], &nd->v[j], t);                         /* predictor for the loads */
    }
    REAL *q = s->q + 4 * i, *L = s->L + 3 * i, *w = s->w + 3 * i;
    R_UNROLL(4)
    for (int c = 0; c < 4; c++)
        R_SET(&q[c], &nd->q[4 * i + c]);
    if (!FUNCTION(vns, rotates)(nd, i)) {           /* q, L and omega stay as they are */
        R_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            R_SET(&L[k], &nd->angmom[3 * i + k]);
            R_SET(&w[k], &nd->omega[3 * i + k]);
            finite &= R_ISFINITE(&L[k]) && R_ISFINITE(&w[k]);
        }
        R_UNROLL(4)
        for (int c = 0; c < 4; c++)
            finite &= R_ISFINITE(&q[c]) != 0;
        T->finite &= finite;
        return 0.0;
    }
    T->finite &= finite;
    FUNCTION(vns, torque)(tb, s->tau_c + 3 * i, nd->blocked[i]);
    R_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        R_MUL(t, &tb[k], h2);
        R_ADD(&L[k], &L0[3 * i + k], t);                        /* L(t+h/2) */
    }
    FUNCTION(vns, lane_in)(T->blk, i, q, L, nd->inertia + 3 * i);
    return T->blk->m == VNS_BLOCK ? FUNCTION(vns, block_rotate_out)(s, T) : 0.0;
}

/* 1 when a and b hold the same value with the same sign (NaN: never) */
static inline int FUNCTION(vns, same)(const REAL *a, const REAL *b)
{
#if IS_MPFR
    return mpfr_equal_p(a, b) && !mpfr_signbit(a) == !mpfr_signbit(b);
#else
    return *a == *b && !signbit(*a) == !signbit(*b);
#endif
}

/* second half kicks of node i with the loads at t+h; a rotating node joins the block
 * whose angular velocities are recovered when it is full.  A node whose kick leaves L
 * as it was (no torque, or one too small to move it) keeps the omega the first half
 * estimated: the same operations on the same q(t+h) and the same L give the same bits,
 * so its frame changes and divisions are not repeated. */
static void FUNCTION(vns, second_half)(struct FUNCTION(vns, state) *s, struct FUNCTION(vns, tmp) *T,
                                       const TYPE(mb_nodes) *nd, size_t i)
{
    VNS_LOCAL(a, 1, T);
    VNS_LOCAL(t, 1, T);
    VNS_LOCAL(tb, 3, T);
    VNS_COPY(h2, T);
    int finite = 1;
    R_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        size_t j = 3 * i + k;
        if (nd->blocked[i] & (1u << k))
            R_SET_D(a, 0.0);
        else
            R_MUL(a, &s->f[j], &nd->inv_mass[i]);
        R_MUL(t, a, h2);
        R_ADD(&s->v[j], &s->v[j], t);                           /* v(t+h) */
        finite &= R_ISFINITE(&s->v[j]) != 0;
    }
    if (!FUNCTION(vns, rotates)(nd, i)) {
        T->finite &= finite;
        return;
    }
    REAL *L = s->L + 3 * i;
    FUNCTION(vns, torque)(tb, s->tau + 3 * i, nd->blocked[i]);
    int kept = 1;
    R_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        R_MUL(t, &tb[k], h2);
        R_ADD(a, &L[k], t);                                     /* L(t+h) */
        kept &= FUNCTION(vns, same)(a, &L[k]);
        R_SET(&L[k], a);
        finite &= R_ISFINITE(&L[k]) != 0;
    }
    if (kept) {         /* L(t+h) = L(t+h/2) bit for bit: omega is the estimate's */
        R_UNROLL(3)
        for (int k = 0; k < 3; k++)
            finite &= R_ISFINITE(&s->w[3 * i + k]) != 0;
        T->finite &= finite;
        return;
    }
    T->finite &= finite;
    FUNCTION(vns, lane_in)(T->blk, i, s->q + 4 * i, L, nd->inertia + 3 * i);
    if (T->blk->m == VNS_BLOCK) {
        FUNCTION(vns, block_pad)(T->blk);
        FUNCTION(vns, block_omega_out)(s, T->blk, 0, &T->finite);
    }
}

/* the angular velocities of the last, unfilled block of the second half */
static void FUNCTION(vns, second_half_end)(struct FUNCTION(vns, state) *s, struct FUNCTION(vns, tmp) *T)
{
    if (T->blk->m == 0)
        return;
    FUNCTION(vns, block_pad)(T->blk);
    FUNCTION(vns, block_omega_out)(s, T->blk, 0, &T->finite);
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
    for (size_t j = 0; j < n3; j++)     /* two plain copies (in double: memcpy speed) */
        R_SET(&s->f_c[j], &nd->f[j]);
    for (size_t j = 0; j < n3; j++)
        R_SET(&s->tau_c[j], &nd->torque[j]);
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
    size_t n = s->n;
    int st = MB_SUCCESS;
    if (!(h > 0.0))
        MB_ERROR(MB_EDOM, "verlet-nosquish: time step h = %g must be > 0", h);
    struct FUNCTION(vns, tmp) T;
    FUNCTION(vns, tmp_init)(&T, nd->prec);
    T.blk = s->blk;
    T.blk->m = 0;
    R_SET_D(T.hh, h);
    R_SET_D(T.h2, 0.5 * h);     /* exact: halving a double */
    const REAL *L0 = nd->angmom;    /* a cache hit: the store's L is the one the scheme left */
    if (!FUNCTION(vns, cache_valid)(s, sys)) {
        s->have = 0;
        st = FUNCTION(vns, eval)(sys, nd->x, nd->v, NULL, nd->q, nd->omega, s->f_c, s->tau_c,
                                   sys->t);
        if (st == MB_SUCCESS)
            FUNCTION(vns, angmom_from_omega)(&T, s->L_c, nd);
        L0 = s->L_c;
    }
    double qerr = 0.0;
    if (st == MB_SUCCESS) {
        for (size_t i = 0; i < n; i++)
            qerr = fmax(qerr, FUNCTION(vns, first_half)(s, &T, nd, L0, i));
        qerr = fmax(qerr, FUNCTION(vns, block_rotate_out)(s, &T));     /* the last block */
        st = FUNCTION(vns, eval)(sys, s->x, s->vp, s->v, s->q, s->w, s->f, s->tau, sys->t + h);
    }
    if (st == MB_SUCCESS) {
        for (size_t i = 0; i < n; i++)
            FUNCTION(vns, second_half)(s, &T, nd, i);
        FUNCTION(vns, second_half_end)(s, &T);
    }
    int finite = T.finite;      /* checked as each value of the new state was written */
    FUNCTION(vns, tmp_clear)(&T);
    if (st != MB_SUCCESS)
        return st;
    if (!finite)
        MB_ERROR(MB_EDIVERGED, "verlet-nosquish: NaN or Inf at t = %.17g", sys->t + h);
    FUNCTION(vns, commit)(s, sys, h);
    s->com.steps++;
    s->com.qnorm_err = fmax(s->com.qnorm_err, qerr);
    return MB_SUCCESS;
}
