/* contact_geometry_source.c -- template body of the contact kinematics shared by the
 * linear and Hertz models (see mb_contact.h for the equations).  Included once per base
 * by each model's instantiating file. */

/* Scratch of one contact evaluation. */
struct FUNCTION(contact, scratch) {
    REAL d[3], n[3], dv[3], delta[1], rate[1], l[1], a[1], b[1], F[1], Fe[1];
    REAL Fd[1], Fv[1], K[9], Dv[9];
    int turning;          /* a wall whose normal turns with the sphere: a box edge or vertex */
};

static void FUNCTION(contact, scratch_init)(struct FUNCTION(contact, scratch) *w, mpfr_prec_t prec)
{
    for (int k = 0; k < 3; k++) {
        R_INIT(&w->d[k], prec);
        R_INIT(&w->n[k], prec);
        R_INIT(&w->dv[k], prec);
    }
    for (int k = 0; k < 9; k++) {
        R_INIT(&w->K[k], prec);
        R_INIT(&w->Dv[k], prec);
    }
    R_INIT(w->delta, prec); R_INIT(w->rate, prec); R_INIT(w->l, prec); R_INIT(w->a, prec);
    R_INIT(w->b, prec); R_INIT(w->F, prec); R_INIT(w->Fe, prec);
    R_INIT(w->Fd, prec); R_INIT(w->Fv, prec);
}

static void FUNCTION(contact, scratch_clear)(struct FUNCTION(contact, scratch) *w)
{
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&w->d[k]);
        R_CLEAR(&w->n[k]);
        R_CLEAR(&w->dv[k]);
    }
    for (int k = 0; k < 9; k++) {
        R_CLEAR(&w->K[k]);
        R_CLEAR(&w->Dv[k]);
    }
    R_CLEAR(w->delta); R_CLEAR(w->rate); R_CLEAR(w->l); R_CLEAR(w->a);
    R_CLEAR(w->b); R_CLEAR(w->F); R_CLEAR(w->Fe);
    R_CLEAR(w->Fd); R_CLEAR(w->Fv);
}

/* Overlap w->delta, approach rate w->rate and unit normal w->n of pair cp of set.
 * Returns 1 when in contact (delta > 0), 0 otherwise; -1 on coincident centres.  A wall's
 * plane (p, n) is mb_contact_wall_plane's at the centre rounded to double: a plane's own,
 * a static box's through its point closest to the centre (the MPFR instance thus takes a
 * box edge's or vertex's normal to double precision; a face's is exact). */
static int FUNCTION(contact, kinematics)(const struct contact_set *set,
                                         const struct contact_pair *cp, const TYPE(mb_nodes) *s,
                                         struct FUNCTION(contact, scratch) *w)
{
    size_t i = cp->i, j = cp->j;
    w->turning = 0;
    if (cp->plane) {
        /* delta = r_i - (x_i - p).n,  delta' = -v_i.n */
        double p[3], n[3], x[3] = { R_GET_D(&s->x[3 * i]), R_GET_D(&s->x[3 * i + 1]),
                                    R_GET_D(&s->x[3 * i + 2]) };
        w->turning = !mb_contact_wall_plane(set, cp, x, p, n);
        R_SET_D(w->delta, 0.0);
        R_SET_D(w->rate, 0.0);
        for (int k = 0; k < 3; k++) {
            R_SUB_D(w->a, &s->x[3 * i + k], p[k]);
            R_MUL_D(w->a, w->a, n[k]);
            R_ADD(w->delta, w->delta, w->a);
            R_MUL_D(w->b, &s->v[3 * i + k], n[k]);
            R_SUB(w->rate, w->rate, w->b);
            R_SET_D(&w->n[k], n[k]);
        }
        R_D_SUB(w->delta, s->radius[i], w->delta);
        return R_SGN(w->delta) > 0;
    }
    /* d = x_j (+ periodic shift) - x_i, delta = (r_i + r_j) - |d| */
    R_SET_D(w->delta, 0.0);
    for (int k = 0; k < 3; k++) {
        R_SUB(&w->d[k], &s->x[3 * j + k], &s->x[3 * i + k]);
        if (cp->imaged)                    /* periodic image of j (neighbour mode) */
            R_ADD_D(&w->d[k], &w->d[k], cp->shift[k]);
        R_MUL(w->a, &w->d[k], &w->d[k]);
        R_ADD(w->delta, w->delta, w->a);
    }
    R_SQRT(w->l, w->delta);                /* l = |d| */
    R_SET_D(w->a, s->radius[i]);
    R_ADD_D(w->a, w->a, s->radius[j]);
    R_SUB(w->delta, w->a, w->l);
    if (R_SGN(w->delta) <= 0)
        return 0;
    if (R_ISZERO(w->l))
        return -1;
    /* n = d/|d|, dv = v_j - v_i, delta' = -dv.n */
    R_SET_D(w->rate, 0.0);
    for (int k = 0; k < 3; k++) {
        R_DIV(&w->n[k], &w->d[k], w->l);
        R_SUB(&w->dv[k], &s->v[3 * j + k], &s->v[3 * i + k]);
        if (cp->imaged)                    /* the image's medium velocity L H p */
            R_ADD_D(&w->dv[k], &w->dv[k], cp->vshift[k]);
        R_MUL(w->a, &w->dv[k], &w->n[k]);
        R_SUB(w->rate, w->rate, w->a);
    }
    return 1;
}

/* kinematics() for the force loops of law `law`: 1 in contact, 0 apart; coincident
 * centres record an MB_EDOM error naming the law and the pair and return -1. */
static int FUNCTION(contact, touching)(const struct contact_set *set,
                                       const struct contact_pair *cp, const TYPE(mb_nodes) *s,
                                       struct FUNCTION(contact, scratch) *w, const char *law)
{
    int in = FUNCTION(contact, kinematics)(set, cp, s, w);
    if (in < 0)
        mb_error_record(MB_EDOM, __FILE__, __LINE__,
                        "%s: spheres %zu and %zu have coincident centres", law, cp->i, cp->j);
    return in;
}

/* Apply the magnitude w->F along n: f_i -= F n, f_j += F n (plane: f_i += F n). */
static void FUNCTION(contact, apply)(const struct contact_pair *cp, TYPE(mb_nodes) *s,
                                     struct FUNCTION(contact, scratch) *w)
{
    for (int k = 0; k < 3; k++) {
        R_MUL(w->a, w->F, &w->n[k]);
        if (cp->plane) {
            R_ADD(&s->f[3 * cp->i + k], &s->f[3 * cp->i + k], w->a);
        } else {
            R_SUB(&s->f[3 * cp->i + k], &s->f[3 * cp->i + k], w->a);
            R_ADD(&s->f[3 * cp->j + k], &s->f[3 * cp->j + k], w->a);
        }
    }
}

/* The Jacobian blocks (not for a law that has no Jacobian: CONTACT_NO_JACOBIAN). */
#ifndef CONTACT_NO_JACOBIAN
/* Jacobian blocks of one pair in contact, given the force magnitude w->F (unclamped value),
 * Fd = dF/d delta and Fv = dF/d delta'.  With f_j = F n (sphere pair), P = 1 - n n^T,
 * d delta/dx_j = -n, dn/dx_j = P/l, d delta'/dx_j = -(P dv)/l, d delta'/dv_j = -n:
 *   K  = df_j/dx_j = -Fd n n^T - (Fv/l) n (P dv)^T + (F/l) P,   Dv = df_j/dv_j = -Fv n n^T,
 *   df_j/d(.)_i = -K, df_i/d(.)_j = -K, df_i/d(.)_i = K.
 * Plane or box face (f_i = F n, n fixed): df_i/dx_i = -Fd n n^T, df_i/dv_i = -Fv n n^T;
 * a box edge or vertex is refused (MB_EUNSUP).
 * A clamped force (F < 0 set to 0) contributes nothing. */
static int FUNCTION(contact, put)(TYPE(mb_jacobian) *J, size_t r, size_t c,
                                  struct FUNCTION(contact, scratch) *w, int negate)
{
    long b = FUNCTION(mb_jacobian, add_block)(J, r, c);
    if (b < 0)
        return MB_ENOMEM;
    for (int k = 0; k < 9; k++) {
        if (negate) {
            R_NEG(&J->dfdx[9 * b + k], &w->K[k]);
            R_NEG(&J->dfdv[9 * b + k], &w->Dv[k]);
        } else {
            R_SET(&J->dfdx[9 * b + k], &w->K[k]);
            R_SET(&J->dfdv[9 * b + k], &w->Dv[k]);
        }
    }
    return MB_SUCCESS;
}

static int FUNCTION(contact, jacobian_blocks)(const struct contact_pair *cp,
                                              struct FUNCTION(contact, scratch) *w,
                                              TYPE(mb_jacobian) *J)
{
    if (cp->plane && w->turning) {
        /* the term of dn/dx_i at a box edge or vertex is not derived here */
        mb_error_record(MB_EUNSUP, __FILE__, __LINE__, "contact: the Jacobian of sphere %zu "
                        "on a box edge or vertex is not provided (only on its faces)", cp->i);
        return MB_EUNSUP;
    }
    if (cp->plane) {
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                R_MUL(w->a, &w->n[r], &w->n[c]);
                R_MUL(&w->K[3 * r + c], w->a, w->Fd);
                R_NEG(&w->K[3 * r + c], &w->K[3 * r + c]);
                R_MUL(&w->Dv[3 * r + c], w->a, w->Fv);
                R_NEG(&w->Dv[3 * r + c], &w->Dv[3 * r + c]);
            }
        return FUNCTION(contact, put)(J, cp->i, cp->i, w, 0);
    }
    /* d[] <- P dv = dv + delta' n   (dv.n = -delta') */
    for (int k = 0; k < 3; k++) {
        R_MUL(w->a, w->rate, &w->n[k]);
        R_ADD(&w->d[k], &w->dv[k], w->a);
    }
    R_DIV(w->Fe, w->F, w->l);                   /* Fe <- F / l */
    R_DIV(w->b, w->Fv, w->l);                   /* b <- Fv / l */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            REAL *K = &w->K[3 * r + c], *D = &w->Dv[3 * r + c];
            R_MUL(w->a, &w->n[r], &w->n[c]);    /* a = n_r n_c */
            R_MUL(D, w->a, w->Fv);
            R_NEG(D, D);
            R_D_SUB(K, r == c ? 1.0 : 0.0, w->a);
            R_MUL(K, K, w->Fe);                 /* (F/l) P_rc */
            R_MUL(w->a, w->a, w->Fd);
            R_SUB(K, K, w->a);                  /* - Fd n_r n_c */
            R_MUL(w->a, &w->n[r], &w->d[c]);
            R_MUL(w->a, w->a, w->b);
            R_SUB(K, K, w->a);                  /* - (Fv/l) n_r (P dv)_c */
        }
    int st = FUNCTION(contact, put)(J, cp->j, cp->j, w, 0);
    if (st == MB_SUCCESS)
        st = FUNCTION(contact, put)(J, cp->j, cp->i, w, 1);
    if (st == MB_SUCCESS)
        st = FUNCTION(contact, put)(J, cp->i, cp->j, w, 1);
    if (st == MB_SUCCESS)
        st = FUNCTION(contact, put)(J, cp->i, cp->i, w, 0);
    return st;
}
#endif

/* A set in neighbour mode brought up to date before a loop over its pairs
 * (mb_contact_set_sync); the MPFR instance refuses that mode: the list is built on double
 * positions. */
static int FUNCTION(contact, sync)(const struct contact_set *set, const TYPE(mb_nodes) *s,
                                   const char *law)
{
#if IS_MPFR
    (void)s;
    if (set->nl != NULL)
        MB_ERROR(MB_EUNSUP, "%s: sphere contacts found through a neighbour list are evaluated "
                 "in double only (the list is built on double positions)", law);
    return MB_SUCCESS;
#else
    (void)law;
    return mb_contact_set_sync(set, s);
#endif
}
