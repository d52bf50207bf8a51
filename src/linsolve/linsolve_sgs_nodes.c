/* linsolve_sgs_nodes.c -- what the symmetric Gauss-Seidel sweeps (linsolve_sgs.c) read of
 * each node's diagonal block G, formed once per matrix rather than in every sweep.
 *
 * A sweep solves each node's 3 x 3 triangle of G (the lower one going forward, the upper
 * one going back) by its inverse T: z = T s.  With d_a = 1 / G_aa (row-major G, so
 * G_00 = G0, G_11 = G4, G_22 = G8),
 *   lower triangle (G3, G6, G7 below the diagonal):
 *     t10 = -G3 d0 d1,  t21 = -G7 d1 d2,  t20 = -(G6 d0 + G7 t10) d2,
 *   upper triangle (G1, G2, G5 above the diagonal):
 *     t12 = -G5 d1 d2,  t01 = -G1 d0 d1,  t02 = -(G2 d2 + G1 t12) d0,
 * so that T_lower = [[d0, 0, 0], [t10, d1, 0], [t20, t21, d2]] and T_upper =
 * [[d0, t01, t02], [0, d1, t12], [0, 0, d2]] (back substitution written out).  Each
 * entry depends on G alone, so the operations a sweep spent on it, eleven a node and
 * sweep, are spent once per matrix here; every entry is the same expression as before,
 * so the sweeps' bits do not change.  The record also keeps G's diagonal (Eisenstat's
 * operator scales by D) beside 1 / D: a sweep reads one 72-byte record per node where it
 * read 1 / D and the 72-byte block G (doc/performance-history.md, "The cloth's small
 * sizes"). */
#include "mb_linsolve.h"
#include "mb_status.h"

#include <math.h>

/* the records of node i from its diagonal block G and d = 1 / diag(G) */
static void node_records(const double *G, const double d[3], mb_sgs_node *lo, mb_sgs_node *up)
{
    for (int a = 0; a < 3; a++) {
        lo->d[a] = up->d[a] = d[a];
        lo->g[a] = up->g[a] = G[4 * a];
    }
    double t10 = -(G[3] * d[0]) * d[1];
    lo->t[0] = t10;
    lo->t[1] = -(G[6] * d[0] + G[7] * t10) * d[2];
    lo->t[2] = -(G[7] * d[1]) * d[2];
    double t12 = -(G[5] * d[1]) * d[2];
    up->t[0] = -(G[1] * d[0]) * d[1];
    up->t[1] = -(G[2] * d[2] + G[1] * t12) * d[0];
    up->t[2] = t12;
}

int mb_csr_sgs_nodes(const mb_csr *c, double *dinv, mb_sgs_node *lower, mb_sgs_node *upper)
{
    for (size_t i = 0; i < c->n_nodes; i++) {
        const double *G = &c->pool[9 * (size_t)c->dblk[i]];
        for (int a = 0; a < 3; a++) {
            double g = G[4 * a];
            if (g == 0.0 || !isfinite(g))
                MB_ERROR(MB_ESINGULAR, "Jacobi preconditioner: diagonal entry %zu of A is %g",
                         3 * i + (size_t)a, g);
            dinv[3 * i + (size_t)a] = 1.0 / g;
        }
        node_records(G, &dinv[3 * i], &lower[i], &upper[i]);
    }
    return MB_SUCCESS;
}
