/* contact_geometry_source.c -- template body of the contact kinematics shared by the
 * linear and Hertz models (see mb_contact.h for the equations).  Included once per base
 * by each model's instantiating file. */

/* Scratch of one contact evaluation. */
struct FUNCTION(contact, scratch) {
    REAL d[3], n[3], delta[1], rate[1], a[1], b[1], F[1], Fe[1];
};

static void FUNCTION(contact, scratch_init)(struct FUNCTION(contact, scratch) *w, mpfr_prec_t prec)
{
    for (int k = 0; k < 3; k++) {
        R_INIT(&w->d[k], prec);
        R_INIT(&w->n[k], prec);
    }
    R_INIT(w->delta, prec); R_INIT(w->rate, prec); R_INIT(w->a, prec);
    R_INIT(w->b, prec); R_INIT(w->F, prec); R_INIT(w->Fe, prec);
}

static void FUNCTION(contact, scratch_clear)(struct FUNCTION(contact, scratch) *w)
{
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&w->d[k]);
        R_CLEAR(&w->n[k]);
    }
    R_CLEAR(w->delta); R_CLEAR(w->rate); R_CLEAR(w->a);
    R_CLEAR(w->b); R_CLEAR(w->F); R_CLEAR(w->Fe);
}

/* Overlap w->delta, approach rate w->rate and unit normal w->n of pair cp.
 * Returns 1 when in contact (delta > 0), 0 otherwise; -1 on coincident centres. */
static int FUNCTION(contact, kinematics)(const struct contact_pair *cp, const TYPE(mb_nodes) *s,
                                         struct FUNCTION(contact, scratch) *w)
{
    size_t i = cp->i, j = cp->j;
    if (cp->plane) {
        /* delta = r_i - (x_i - p).n,  delta' = -v_i.n */
        R_SET_D(w->delta, 0.0);
        R_SET_D(w->rate, 0.0);
        for (int k = 0; k < 3; k++) {
            R_SUB_D(w->a, &s->x[3 * i + k], cp->p[k]);
            R_MUL_D(w->a, w->a, cp->n[k]);
            R_ADD(w->delta, w->delta, w->a);
            R_MUL_D(w->b, &s->v[3 * i + k], cp->n[k]);
            R_SUB(w->rate, w->rate, w->b);
            R_SET_D(&w->n[k], cp->n[k]);
        }
        R_D_SUB(w->delta, s->radius[i], w->delta);
        return R_SGN(w->delta) > 0;
    }
    /* d = x_j - x_i, delta = (r_i + r_j) - |d| */
    R_SET_D(w->delta, 0.0);
    for (int k = 0; k < 3; k++) {
        R_SUB(&w->d[k], &s->x[3 * j + k], &s->x[3 * i + k]);
        R_MUL(w->a, &w->d[k], &w->d[k]);
        R_ADD(w->delta, w->delta, w->a);
    }
    R_SQRT(w->b, w->delta);                /* b = |d| */
    R_SET_D(w->a, s->radius[i]);
    R_ADD_D(w->a, w->a, s->radius[j]);
    R_SUB(w->delta, w->a, w->b);
    if (R_SGN(w->delta) <= 0)
        return 0;
    if (R_ISZERO(w->b))
        return -1;
    /* n = d/|d|, delta' = -(v_j - v_i).n */
    R_SET_D(w->rate, 0.0);
    for (int k = 0; k < 3; k++) {
        R_DIV(&w->n[k], &w->d[k], w->b);
        R_SUB(w->a, &s->v[3 * j + k], &s->v[3 * i + k]);
        R_MUL(w->a, w->a, &w->n[k]);
        R_SUB(w->rate, w->rate, w->a);
    }
    return 1;
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
