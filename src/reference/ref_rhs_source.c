/* ref_rhs_source.c -- template body of the reference right-hand side (see ref_rhs.c). */

#define MB_RHS_NT 12   /* scalar temporaries */

struct TYPE(mb_refrhs) {
    TYPE(mb_nodes) *s;      /* scratch store: constants of the system, state set per call */
    const mb_forces *forces;
    REAL *inv_inertia;      /* 3n: 1/I (0 for infinite moments) */
    REAL *R;                /* 9: rotation matrix of the current node */
    REAL *t;                /* MB_RHS_NT temporaries */
};

void FUNCTION(mb_refrhs, free)(TYPE(mb_refrhs) *w)
{
    if (w == NULL)
        return;
    if (w->inv_inertia) {
        for (size_t k = 0; k < 3 * w->s->n; k++)
            R_CLEAR(&w->inv_inertia[k]);
        free(w->inv_inertia);
    }
    if (w->R) {
        for (int k = 0; k < 9; k++)
            R_CLEAR(&w->R[k]);
        free(w->R);
    }
    if (w->t) {
        for (int k = 0; k < MB_RHS_NT; k++)
            R_CLEAR(&w->t[k]);
        free(w->t);
    }
    FUNCTION(mb_nodes, free)(w->s);
    free(w);
}

TYPE(mb_refrhs) *FUNCTION(mb_refrhs, alloc)(const TYPE(mb_nodes) *proto, const mb_forces *forces)
{
    TYPE(mb_refrhs) *w = calloc(1, sizeof *w);
    if (w == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "reference: out of memory");
    size_t n = proto->n;
    mpfr_prec_t prec = proto->prec;
    w->forces = forces;
    w->s = FUNCTION(mb_nodes, alloc)(n, prec);
    w->inv_inertia = calloc(3 * n + 1, sizeof(REAL));
    w->R = calloc(9, sizeof(REAL));
    w->t = calloc(MB_RHS_NT, sizeof(REAL));
    if (!w->s || !w->inv_inertia || !w->R || !w->t) {
        if (w->s == NULL) {
            free(w->inv_inertia); free(w->R); free(w->t); free(w);
            return NULL;
        }
        free(w->inv_inertia); w->inv_inertia = NULL;
        free(w->R); w->R = NULL;
        free(w->t); w->t = NULL;
        FUNCTION(mb_refrhs, free)(w);
        MB_ERROR_NULL(MB_ENOMEM, "reference: out of memory");
    }
    FUNCTION(mb_nodes, copy)(w->s, proto);
    for (size_t k = 0; k < 3 * n; k++) {
        R_INIT(&w->inv_inertia[k], prec);
        R_D_DIV(&w->inv_inertia[k], 1.0, &proto->inertia[k]);   /* 1/Inf = 0 */
    }
    for (int k = 0; k < 9; k++)
        R_INIT(&w->R[k], prec);
    for (int k = 0; k < MB_RHS_NT; k++)
        R_INIT(&w->t[k], prec);
    return w;
}

size_t FUNCTION(mb_refrhs, dim)(const TYPE(mb_refrhs) *w) { return MB_REF_NY * w->s->n; }

/* R = R(q/|q|) = I + (2/|q|^2) [ ... ] in the homogeneous form (mb_vec.h's layout). */
static void FUNCTION(refrhs, rotation)(TYPE(mb_refrhs) *w, const REAL *q)
{
    REAL *R = w->R, *s = &w->t[0], *a = &w->t[1], *b = &w->t[2];
    const REAL *qw = &q[0], *qx = &q[1], *qy = &q[2], *qz = &q[3];
    R_MUL(s, qw, qw);
    R_MUL(a, qx, qx); R_ADD(s, s, a);
    R_MUL(a, qy, qy); R_ADD(s, s, a);
    R_MUL(a, qz, qz); R_ADD(s, s, a);
    R_D_DIV(s, 2.0, s);                                  /* s = 2 / |q|^2 */
    /* diagonal: 1 - s (qy^2 + qz^2) etc. */
    R_MUL(a, qy, qy); R_MUL(b, qz, qz); R_ADD(a, a, b); R_MUL(a, a, s); R_D_SUB(&R[0], 1.0, a);
    R_MUL(a, qx, qx); R_MUL(b, qz, qz); R_ADD(a, a, b); R_MUL(a, a, s); R_D_SUB(&R[4], 1.0, a);
    R_MUL(a, qx, qx); R_MUL(b, qy, qy); R_ADD(a, a, b); R_MUL(a, a, s); R_D_SUB(&R[8], 1.0, a);
    /* off-diagonal pairs s (u v -+ w z) */
    R_MUL(a, qx, qy); R_MUL(b, qw, qz);
    R_SUB(&R[1], a, b); R_MUL(&R[1], &R[1], s);
    R_ADD(&R[3], a, b); R_MUL(&R[3], &R[3], s);
    R_MUL(a, qx, qz); R_MUL(b, qw, qy);
    R_ADD(&R[2], a, b); R_MUL(&R[2], &R[2], s);
    R_SUB(&R[6], a, b); R_MUL(&R[6], &R[6], s);
    R_MUL(a, qy, qz); R_MUL(b, qw, qx);
    R_SUB(&R[5], a, b); R_MUL(&R[5], &R[5], s);
    R_ADD(&R[7], a, b); R_MUL(&R[7], &R[7], s);
}

/* out = R diag(d) R^T in applied to vector in (d = inverse moments or moments of node i);
 * uses t[3..5]; out and in must not alias. */
static void FUNCTION(refrhs, sandwich)(TYPE(mb_refrhs) *w, const REAL *d, int invert_inf,
                                       const REAL *in, REAL *out)
{
    REAL *R = w->R, *a = &w->t[1], *body = &w->t[3];
    for (int r = 0; r < 3; r++) {                 /* body = diag(d) R^T in */
        R_MUL(&body[r], &R[r], &in[0]);
        R_MUL(a, &R[3 + r], &in[1]); R_ADD(&body[r], &body[r], a);
        R_MUL(a, &R[6 + r], &in[2]); R_ADD(&body[r], &body[r], a);
        if (invert_inf && !R_ISFINITE(&d[r]))
            R_SET_D(&body[r], 0.0);               /* infinite moment: no spin about it */
        else
            R_MUL(&body[r], &body[r], &d[r]);
    }
    for (int r = 0; r < 3; r++) {                 /* out = R body */
        R_MUL(&out[r], &R[3 * r], &body[0]);
        R_MUL(a, &R[3 * r + 1], &body[1]); R_ADD(&out[r], &out[r], a);
        R_MUL(a, &R[3 * r + 2], &body[2]); R_ADD(&out[r], &out[r], a);
    }
}

/* q/|q| into out (uses t[0..1]) */
static void FUNCTION(refrhs, normalized)(TYPE(mb_refrhs) *w, const REAL *q, REAL *out)
{
    REAL *s = &w->t[0], *a = &w->t[1];
    R_MUL(s, &q[0], &q[0]);
    for (int k = 1; k < 4; k++) {
        R_MUL(a, &q[k], &q[k]);
        R_ADD(s, s, a);
    }
    R_SQRT(s, s);
    for (int k = 0; k < 4; k++)
        R_DIV(&out[k], &q[k], s);
}

/* L == 0 exactly (a node that does not rotate: its q stays constant) */
static int FUNCTION(refrhs, at_rest)(const REAL *L)
{
    return R_ISZERO(&L[0]) && R_ISZERO(&L[1]) && R_ISZERO(&L[2]);
}

void FUNCTION(mb_refrhs, pack)(TYPE(mb_refrhs) *w, const TYPE(mb_nodes) *s, REAL *y)
{
    for (size_t i = 0; i < s->n; i++) {
        REAL *yi = &y[MB_REF_NY * i];
        for (int k = 0; k < 3; k++) {
            R_SET(&yi[k], &s->x[3 * i + k]);
            R_SET(&yi[3 + k], &s->v[3 * i + k]);
        }
        FUNCTION(refrhs, normalized)(w, &s->q[4 * i], &yi[6]);
        FUNCTION(refrhs, rotation)(w, &yi[6]);
        FUNCTION(refrhs, sandwich)(w, &s->inertia[3 * i], 1, &s->omega[3 * i], &yi[10]);
    }
}

void FUNCTION(mb_refrhs, unpack)(TYPE(mb_refrhs) *w, const REAL *y, TYPE(mb_nodes) *out)
{
    for (size_t i = 0; i < out->n; i++) {
        const REAL *yi = &y[MB_REF_NY * i];
        for (int k = 0; k < 3; k++) {
            R_SET(&out->x[3 * i + k], &yi[k]);
            R_SET(&out->v[3 * i + k], &yi[3 + k]);
            R_SET(&out->angmom[3 * i + k], &yi[10 + k]);
        }
        FUNCTION(refrhs, normalized)(w, &yi[6], &out->q[4 * i]);
        FUNCTION(refrhs, rotation)(w, &yi[6]);
        FUNCTION(refrhs, sandwich)(w, &w->inv_inertia[3 * i], 0, &yi[10], &out->omega[3 * i]);
        out->vel_mid[i] = 0;
    }
}

int FUNCTION(mb_refrhs, eval)(TYPE(mb_refrhs) *w, double t, const REAL *y, REAL *dy)
{
    TYPE(mb_nodes) *s = w->s;
    REAL *a = &w->t[6], *hf = &w->t[7];
    /* state into the scratch store: x, v, q/|q|, L, w = R I^-1 R^T L */
    for (size_t i = 0; i < s->n; i++) {
        const REAL *yi = &y[MB_REF_NY * i];
        for (int k = 0; k < 3; k++) {
            R_SET(&s->x[3 * i + k], &yi[k]);
            R_SET(&s->v[3 * i + k], &yi[3 + k]);
            R_SET(&s->angmom[3 * i + k], &yi[10 + k]);
        }
        if (FUNCTION(refrhs, at_rest)(&yi[10])) {
            /* L = 0 exactly: w = 0 and q' = 0, so q keeps its (unit) initial value */
            for (int k = 0; k < 4; k++)
                R_SET(&s->q[4 * i + k], &yi[6 + k]);
            for (int k = 0; k < 3; k++)
                R_SET_D(&s->omega[3 * i + k], 0.0);
            continue;
        }
        FUNCTION(refrhs, normalized)(w, &yi[6], &s->q[4 * i]);
        FUNCTION(refrhs, rotation)(w, &yi[6]);
        FUNCTION(refrhs, sandwich)(w, &w->inv_inertia[3 * i], 0, &yi[10], &s->omega[3 * i]);
    }
    int st = FUNCTION(mb_forces, eval)(w->forces, s, t);
    if (st != MB_SUCCESS)
        return st;
    R_SET_D(hf, 0.5);
    for (size_t i = 0; i < s->n; i++) {
        const REAL *yi = &y[MB_REF_NY * i];
        REAL *di = &dy[MB_REF_NY * i];
        const REAL *om = &s->omega[3 * i], *q = &yi[6];
        for (int k = 0; k < 3; k++) {
            R_SET(&di[k], &yi[3 + k]);                                  /* x' = v */
            if (s->blocked[i] & (1u << k))
                R_SET_D(&di[3 + k], 0.0);
            else
                R_MUL(&di[3 + k], &s->f[3 * i + k], &s->inv_mass[i]);   /* v' = f/m */
            if (s->blocked[i] & (8u << k))
                R_SET_D(&di[10 + k], 0.0);
            else
                R_SET(&di[10 + k], &s->torque[3 * i + k]);             /* L' = T */
        }
        if (FUNCTION(refrhs, at_rest)(&yi[10])) {
            for (int k = 0; k < 4; k++)
                R_SET_D(&di[6 + k], 0.0);
            continue;
        }
        /* q' = 1/2 (0, w) (x) q = 1/2 (-w.qv, qw w + w x qv) */
        R_MUL(&di[6], &om[0], &q[1]);
        R_MUL(a, &om[1], &q[2]); R_ADD(&di[6], &di[6], a);
        R_MUL(a, &om[2], &q[3]); R_ADD(&di[6], &di[6], a);
        R_NEG(&di[6], &di[6]);
        for (int k = 0; k < 3; k++) {
            int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            R_MUL(&di[7 + k], &q[0], &om[k]);
            R_MUL(a, &om[k1], &q[1 + k2]); R_ADD(&di[7 + k], &di[7 + k], a);
            R_MUL(a, &om[k2], &q[1 + k1]); R_SUB(&di[7 + k], &di[7 + k], a);
        }
        for (int k = 0; k < 4; k++)
            R_MUL(&di[6 + k], &di[6 + k], hf);
    }
    return MB_SUCCESS;
}
