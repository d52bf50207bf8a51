/* linsolve_sgs.c -- the symmetric Gauss-Seidel splitting of the sparse backward-Euler
 * matrix in its block storage (linsolve_csr_blocks.c), and Eisenstat's form of the
 * operator it preconditions.
 *
 * A = L + D + U by scalar entries: D the diagonal, L and U the entries left and right of
 * it (inside a node's diagonal block as well as in the blocks of other nodes).  The
 * symmetric Gauss-Seidel preconditioner is M = (D + L) D^-1 (D + U) (Saad, Iterative
 * Methods for Sparse Linear Systems, 2nd ed., sec. 4.1.2 and 10.2).  Split between the two
 * sides as M1 = (D + L) D^-1 and M2 = D + U, the preconditioned operator is
 *   M1^-1 A M2^-1 x = D t + D (D + L)^-1 (x - D t),   t = (D + U)^-1 x,
 * since A = (D + L) + (D + U) - D (Eisenstat, SIAM J. Sci. Stat. Comput. 2, 1981): one
 * backward sweep, which also forms x - D t, and one forward sweep, which also forms the
 * result and its sums, each reading the blocks on one side of the diagonal: about the
 * cost of one product y = A x, where applying M^-1 and A separately costs two.
 * Every sum runs over a node row's column blocks in ascending column order. */
#include "mb_linsolve.h"

/* s0..s2 -= B z for the column blocks p0 .. p1 - 1 of the storage, in ascending order */
static inline __attribute__((always_inline)) void
blocks_subtract(const mb_csr *c, size_t p0, size_t p1, const double *z, double *s0,
                double *s1, double *s2)
{
    const uint32_t *restrict col = c->ncol, *restrict ref = c->cref;
    const double *restrict pool = c->pool;
    double a0 = *s0, a1 = *s1, a2 = *s2;
    for (size_t p = p0; p < p1; p++) {
        const double *B = &pool[9 * (size_t)ref[p]], *zc = &z[3 * (size_t)col[p]];
        a0 -= B[0] * zc[0] + B[1] * zc[1] + B[2] * zc[2];
        a1 -= B[3] * zc[0] + B[4] * zc[1] + B[5] * zc[2];
        a2 -= B[6] * zc[0] + B[7] * zc[1] + B[8] * zc[2];
    }
    *s0 = a0;
    *s1 = a1;
    *s2 = a2;
}

/* the column block of node row i's diagonal (every row has one) */
static inline size_t diagonal_position(const mb_csr *c, size_t i)
{
    size_t p = c->cstart[i];
    while (c->ncol[p] < i)
        p++;
    return p;
}

/* z = (D + L)^-1 r row by row (z may be r: row i reads z of rows < i only); with y not
 * NULL also y = D (y + z) in the same pass, and the sums w.y and (want_yy) y.y */
static inline __attribute__((always_inline)) void
lower_sweep(const mb_csr *c, const double *dinv, const double *r, double *z, double *y,
            const double *w, int want_yy, double *yw, double *yy)
{
    double sw = 0.0, sy = 0.0;
    for (size_t i = 0; i < c->n_nodes; i++) {
        double s0 = r[3 * i], s1 = r[3 * i + 1], s2 = r[3 * i + 2];
        blocks_subtract(c, c->cstart[i], diagonal_position(c, i), z, &s0, &s1, &s2);
        const double *Dg = &c->pool[9 * (size_t)c->dblk[i]];
        double z0 = s0 * dinv[3 * i];
        double z1 = (s1 - Dg[3] * z0) * dinv[3 * i + 1];
        double z2 = (s2 - Dg[6] * z0 - Dg[7] * z1) * dinv[3 * i + 2];
        z[3 * i] = z0;
        z[3 * i + 1] = z1;
        z[3 * i + 2] = z2;
        if (y) {
            double *yi = &y[3 * i];
            yi[0] = Dg[0] * (yi[0] + z0);
            yi[1] = Dg[4] * (yi[1] + z1);
            yi[2] = Dg[8] * (yi[2] + z2);
            for (int a = 0; a < 3; a++) {
                sw += w[3 * i + a] * yi[a];
                if (want_yy)
                    sy += yi[a] * yi[a];
            }
        }
    }
    if (y) {
        *yw = sw;
        if (want_yy)
            *yy = sy;
    }
}

void mb_csr_sgs_lower(const mb_csr *c, const double *dinv, const double *r, double *z)
{
    lower_sweep(c, dinv, r, z, NULL, NULL, 0, NULL, NULL);
}

/* z = (D + U)^-1 r, and with x not NULL also y = x - D z, row by row */
static inline __attribute__((always_inline)) void
upper_sweep(const mb_csr *c, const double *dinv, const double *r, double *z,
            const double *x, double *y)
{
    for (size_t i = c->n_nodes; i-- > 0;) {
        double s0 = r[3 * i], s1 = r[3 * i + 1], s2 = r[3 * i + 2];
        blocks_subtract(c, diagonal_position(c, i) + 1, c->cstart[i + 1], z, &s0, &s1, &s2);
        const double *Dg = &c->pool[9 * (size_t)c->dblk[i]];
        double z2 = s2 * dinv[3 * i + 2];
        double z1 = (s1 - Dg[5] * z2) * dinv[3 * i + 1];
        double z0 = (s0 - Dg[1] * z1 - Dg[2] * z2) * dinv[3 * i];
        z[3 * i] = z0;
        z[3 * i + 1] = z1;
        z[3 * i + 2] = z2;
        if (x) {
            y[3 * i] = x[3 * i] - Dg[0] * z0;
            y[3 * i + 1] = x[3 * i + 1] - Dg[4] * z1;
            y[3 * i + 2] = x[3 * i + 2] - Dg[8] * z2;
        }
    }
}

void mb_csr_sgs_upper(const mb_csr *c, const double *dinv, const double *r, double *z)
{
    upper_sweep(c, dinv, r, z, NULL, NULL);
}

void mb_csr_eisenstat(const mb_csr *c, const double *dinv, const double *x, double *t,
                      double *y, const double *w, double *yw, double *yy)
{
    upper_sweep(c, dinv, x, y, x, t);               /* y = (D + U)^-1 x, t = x - D y */
    if (yy)                                         /* t = (D + L)^-1 t in place, and */
        lower_sweep(c, dinv, t, t, y, w, 1, yw, yy);    /* y = D (y + t) */
    else
        lower_sweep(c, dinv, t, t, y, w, 0, yw, NULL);
}
