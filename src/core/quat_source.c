/* quat_source.c -- quaternion algebra for the template layer (double and MPFR).
 *
 * Included inside a template instance (after templates_on.h), never compiled alone.
 * Conventions (DESIGN 3): q = (w, x, y, z); R(q) maps body to global, a = R(q) a~,
 * computed as q (0, a~) q*; A = R(q)^T maps global to body.  Every function works on
 * REAL pointers and takes a scratch block whose temporaries are initialised once by the
 * caller (per call of a kernel, never per node).  Outputs may alias inputs. */

struct FUNCTION(mbq, scratch) {
    REAL a[1], b[1], c[1], r[4], t[3], u[3];
};

static inline void FUNCTION(mbq, scratch_init)(struct FUNCTION(mbq, scratch) *w, mpfr_prec_t prec)
{
    R_INIT(w->a, prec); R_INIT(w->b, prec); R_INIT(w->c, prec);
    for (int k = 0; k < 4; k++)
        R_INIT(&w->r[k], prec);
    for (int k = 0; k < 3; k++) {
        R_INIT(&w->t[k], prec); R_INIT(&w->u[k], prec);
    }
}

static inline void FUNCTION(mbq, scratch_clear)(struct FUNCTION(mbq, scratch) *w)
{
    R_CLEAR(w->a); R_CLEAR(w->b); R_CLEAR(w->c);
    for (int k = 0; k < 4; k++)
        R_CLEAR(&w->r[k]);
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&w->t[k]); R_CLEAR(&w->u[k]);
    }
}

/* w->a = a0 b0 + s1 a1 b1 + s2 a2 b2 + s3 a3 b3 with signs s = +-1 (one Hamilton row) */
static inline void FUNCTION(mbq, row)(struct FUNCTION(mbq, scratch) *w, REAL *out,
                               const REAL *a0, const REAL *b0, int s1, const REAL *a1,
                               const REAL *b1, int s2, const REAL *a2, const REAL *b2, int s3,
                               const REAL *a3, const REAL *b3)
{
    R_MUL(w->b, a0, b0);
    R_MUL(w->c, a1, b1);
    if (s1 > 0) R_ADD(w->b, w->b, w->c); else R_SUB(w->b, w->b, w->c);
    R_MUL(w->c, a2, b2);
    if (s2 > 0) R_ADD(w->b, w->b, w->c); else R_SUB(w->b, w->b, w->c);
    R_MUL(w->c, a3, b3);
    if (s3 > 0) R_ADD(out, w->b, w->c); else R_SUB(out, w->b, w->c);
}

/* r = a (x) b, Hamilton product:
 *   w = a0 b0 - a1 b1 - a2 b2 - a3 b3      x = a0 b1 + a1 b0 + a2 b3 - a3 b2
 *   y = a0 b2 - a1 b3 + a2 b0 + a3 b1      z = a0 b3 + a1 b2 - a2 b1 + a3 b0 */
static inline void FUNCTION(mbq, mul)(struct FUNCTION(mbq, scratch) *w, REAL *r, const REAL *a,
                               const REAL *b)
{
    FUNCTION(mbq, row)(w, &w->r[0], &a[0], &b[0], -1, &a[1], &b[1], -1, &a[2], &b[2], -1, &a[3], &b[3]);
    FUNCTION(mbq, row)(w, &w->r[1], &a[0], &b[1], +1, &a[1], &b[0], +1, &a[2], &b[3], -1, &a[3], &b[2]);
    FUNCTION(mbq, row)(w, &w->r[2], &a[0], &b[2], -1, &a[1], &b[3], +1, &a[2], &b[0], +1, &a[3], &b[1]);
    FUNCTION(mbq, row)(w, &w->r[3], &a[0], &b[3], +1, &a[1], &b[2], -1, &a[2], &b[1], +1, &a[3], &b[0]);
    for (int k = 0; k < 4; k++)
        R_SET(&r[k], &w->r[k]);
}

/* r = a (x) (0, v) for a pure quaternion (0, v):
 *   w = -a1 v0 - a2 v1 - a3 v2     x = a0 v0 + a2 v2 - a3 v1
 *   y = a0 v1 - a1 v2 + a3 v0      z = a0 v2 + a1 v1 - a2 v0 */
static inline void FUNCTION(mbq, mul_pure)(struct FUNCTION(mbq, scratch) *w, REAL *r, const REAL *a,
                                    const REAL *v)
{
    R_MUL(w->b, &a[1], &v[0]); R_NEG(w->b, w->b);
    R_MUL(w->c, &a[2], &v[1]); R_SUB(w->b, w->b, w->c);
    R_MUL(w->c, &a[3], &v[2]); R_SUB(&w->r[0], w->b, w->c);
    R_MUL(w->b, &a[0], &v[0]);
    R_MUL(w->c, &a[2], &v[2]); R_ADD(w->b, w->b, w->c);
    R_MUL(w->c, &a[3], &v[1]); R_SUB(&w->r[1], w->b, w->c);
    R_MUL(w->b, &a[0], &v[1]);
    R_MUL(w->c, &a[1], &v[2]); R_SUB(w->b, w->b, w->c);
    R_MUL(w->c, &a[3], &v[0]); R_ADD(&w->r[2], w->b, w->c);
    R_MUL(w->b, &a[0], &v[2]);
    R_MUL(w->c, &a[1], &v[1]); R_ADD(w->b, w->b, w->c);
    R_MUL(w->c, &a[2], &v[0]); R_SUB(&w->r[3], w->b, w->c);
    for (int k = 0; k < 4; k++)
        R_SET(&r[k], &w->r[k]);
}

/* out = a x b (out may alias a or b; uses w->t) */
static inline void FUNCTION(mbq, cross)(struct FUNCTION(mbq, scratch) *w, REAL *out, const REAL *a,
                                 const REAL *b)
{
    R_MUL(w->b, &a[1], &b[2]); R_MUL(w->c, &a[2], &b[1]); R_SUB(&w->t[0], w->b, w->c);
    R_MUL(w->b, &a[2], &b[0]); R_MUL(w->c, &a[0], &b[2]); R_SUB(&w->t[1], w->b, w->c);
    R_MUL(w->b, &a[0], &b[1]); R_MUL(w->c, &a[1], &b[0]); R_SUB(&w->t[2], w->b, w->c);
    for (int k = 0; k < 3; k++)
        R_SET(&out[k], &w->t[k]);
}

/* out = R(q) v for unit q (sign = +1), or R(q)^T v (sign = -1):
 *   t = 2 u x v,  out = v + w t + u x t,  u = +-(q1, q2, q3)  (Rodrigues form of q v q*) */
static inline void FUNCTION(mbq, rotate_signed)(struct FUNCTION(mbq, scratch) *w, REAL *out,
                                         const REAL *q, const REAL *v, int sign)
{
    REAL *u = w->u;
    for (int k = 0; k < 3; k++) {
        if (sign > 0) R_SET(&u[k], &q[k + 1]); else R_NEG(&u[k], &q[k + 1]);
    }
    /* t = 2 (u x v), kept in r[0..2] because cross() uses w->t */
    R_MUL(w->b, &u[1], &v[2]); R_MUL(w->c, &u[2], &v[1]); R_SUB(&w->r[0], w->b, w->c);
    R_MUL(w->b, &u[2], &v[0]); R_MUL(w->c, &u[0], &v[2]); R_SUB(&w->r[1], w->b, w->c);
    R_MUL(w->b, &u[0], &v[1]); R_MUL(w->c, &u[1], &v[0]); R_SUB(&w->r[2], w->b, w->c);
    for (int k = 0; k < 3; k++)
        R_MUL_D(&w->r[k], &w->r[k], 2.0);
    FUNCTION(mbq, cross)(w, w->t, u, w->r);       /* t = u x (2 u x v) */
    for (int k = 0; k < 3; k++) {
        R_MUL(w->a, &q[0], &w->r[k]);
        R_ADD(w->a, w->a, &v[k]);
        R_ADD(&out[k], w->a, &w->t[k]);
    }
}

static inline void FUNCTION(mbq, rotate)(struct FUNCTION(mbq, scratch) *w, REAL *out, const REAL *q,
                                  const REAL *v)
{
    FUNCTION(mbq, rotate_signed)(w, out, q, v, +1);
}

static inline void FUNCTION(mbq, rotate_inv)(struct FUNCTION(mbq, scratch) *w, REAL *out, const REAL *q,
                                      const REAL *v)
{
    FUNCTION(mbq, rotate_signed)(w, out, q, v, -1);
}

/* norm = |q|; q /= |q| (q must not be zero) */
static inline void FUNCTION(mbq, normalize)(struct FUNCTION(mbq, scratch) *w, REAL *q, REAL *norm)
{
    R_MUL(w->a, &q[0], &q[0]);
    for (int k = 1; k < 4; k++) {
        R_MUL(w->b, &q[k], &q[k]);
        R_ADD(w->a, w->a, w->b);
    }
    R_SQRT(norm, w->a);
    for (int k = 0; k < 4; k++)
        R_DIV(&q[k], &q[k], norm);
}

/* q = Quaternion(theta) = (cos(|theta|/2), sin(|theta|/2) theta/|theta|)  (DESIGN 3).
 * Below |theta| = 1e-4 the Taylor forms cos(a/2) = 1 - a^2/8 + a^4/384 and
 * sin(a/2)/a = 1/2 - a^2/48 + a^4/3840 are used: their first omitted terms, a^6/46080 and
 * a^6/645120, are below 3e-29 there, far under double round-off, and 0/0 is avoided. */
static inline void FUNCTION(mbq, from_rotvec)(struct FUNCTION(mbq, scratch) *w, REAL *q, const REAL *th)
{
    R_MUL(w->a, &th[0], &th[0]);
    R_MUL(w->b, &th[1], &th[1]); R_ADD(w->a, w->a, w->b);
    R_MUL(w->b, &th[2], &th[2]); R_ADD(w->a, w->a, w->b);       /* a = |theta|^2 */
    if (R_CMP_D(w->a, 1e-8) < 0) {
        R_MUL(w->c, w->a, w->a);                                 /* c = a^4 */
        R_DIV_D(w->b, w->a, 8.0);
        R_D_SUB(&q[0], 1.0, w->b);
        R_DIV_D(w->b, w->c, 384.0);
        R_ADD(&q[0], &q[0], w->b);
        R_DIV_D(w->b, w->a, 48.0);
        R_D_SUB(w->b, 0.5, w->b);
        R_DIV_D(w->c, w->c, 3840.0);
        R_ADD(w->b, w->b, w->c);                                 /* b = sin(a/2)/a */
    } else {
        R_SQRT(w->a, w->a);                                      /* a = |theta| */
        R_MUL_D(w->c, w->a, 0.5);
        R_COS(&q[0], w->c);
        R_SIN(w->b, w->c);
        R_DIV(w->b, w->b, w->a);
    }
    for (int k = 0; k < 3; k++)
        R_MUL(&q[k + 1], &th[k], w->b);
}
