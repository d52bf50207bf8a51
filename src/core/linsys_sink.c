/* linsys_sink.c -- the linearised backward-Euler system (DESIGN 4.1; Baraff & Witkin,
 * "Large steps in cloth simulation", SIGGRAPH 1998, eq. 6 in velocity form)
 *     (M - h C - h^2 K) v+ = (M - h C) v + h f(x, v)
 * assembled while the force models produce their Jacobian blocks (mb_forces_assemble),
 * straight into the solver's storage: each block is added where it belongs the moment it
 * is computed, and never stored.
 *
 * Every number is formed by the operations of the assembly from a block list, in the same
 * order, so both hold the very same bits:
 *   A: M first (mb_blocktri_begin / mb_csr_begin), then each block in list order
 *      A(r, c) = (A(r, c) - h C) - h^2 K (mb_blocktri_add / mb_csr_add), the fixed rows
 *      last -- the functions mb_blocktri_assemble and mb_csr_assemble are made of;
 *   b: b = M v + h f needs the complete forces, which exist only after the last model, so
 *      the term h (C v_c) of each block with C != 0 is computed when the block arrives
 *      (mb_linsys_be_rhs_term, as mb_linsys_be_rhs) and kept, in list order; finish
 *      forms M v + h f and takes the terms off in that order, then the fixed rows.
 * A block the storage has no slot for -- beyond the neighbours of a block-tridiagonal
 * system, or not the block the CSR pattern holds at that position -- marks the sink
 * misfit; the caller then assembles the step from a block list. */
#include "mb_linsys_sink.h"

#include <stdlib.h>

void mb_linsys_sink_release(mb_linsys_sink *k)
{
    free(k->terms);
    k->terms = NULL;
    k->nterms = k->cap = 0;
}

void mb_linsys_sink_begin(mb_linsys_sink *k, const mb_nodes *s, double h, mb_blocktri *btri,
                          mb_csr *csr)
{
    k->s = s;
    k->h = h;
    k->h2 = h * h;
    k->btri = btri;
    k->csr = btri ? NULL : csr;
    k->count = k->reach = k->nterms = 0;
    k->misfit = 0;
    if (btri)
        mb_blocktri_begin(btri, s);
    else
        mb_csr_begin(csr, s);
}

/* room for one more term (the list grows geometrically: no allocation after the first
 * steps); 0 when out of memory */
static int sink_room(mb_linsys_sink *k)
{
    if (k->nterms < k->cap)
        return 1;
    size_t cap = k->cap ? 2 * k->cap : 256;
    mb_linsys_term *t = realloc(k->terms, cap * sizeof *t);
    if (t == NULL)
        return 0;
    k->terms = t;
    k->cap = cap;
    return 1;
}

/* 1 when the storage has a slot for block (r, c), the count-th of the list */
static int sink_fits(const mb_linsys_sink *k, size_t r, size_t c)
{
    if (k->btri)
        return r <= c + 1 && c <= r + 1;
    return k->count < k->csr->n_blocks && k->csr->brow[k->count] == r
           && k->csr->bcol[k->count] == c;
}

/* block (r, c): A(r, c) = (A(r, c) - P) - Q with P = h C, Q = h^2 K, and the term of b
 * of a nonzero C kept */
static inline void sink_add(mb_linsys_sink *k, size_t r, size_t c, const double C[9],
                            const double P[9], const double Q[9], int nonzero)
{
    if (k->misfit)
        return;
    if (!sink_fits(k, r, c)) {
        k->misfit = 1;
        return;
    }
    if (k->btri)
        mb_blocktri_sub(k->btri, r, c, P, Q);
    else
        mb_csr_sub(k->csr, k->count, r, P, Q);
    size_t d = r > c ? r - c : c - r;
    k->reach = d > k->reach ? d : k->reach;
    k->count++;
    if (!nonzero)
        return;                             /* no velocity dependence: nothing to add to b */
    if (!sink_room(k)) {
        k->misfit = 1;
        return;
    }
    mb_linsys_term *T = &k->terms[k->nterms++];
    const double *vc = &k->s->v[3 * c];
    T->row = r;
    for (int a = 0; a < 3; a++)
        T->t[a] = mb_linsys_be_rhs_term_d(C, vc, a, k->h);
}

void mb_linsys_sink_block(mb_linsys_sink *k, size_t r, size_t c, const double C[9],
                          const double K[9])
{
    double P[9], Q[9];
    mb_linsys_products(C, K, k->h, k->h2, P, Q);
    sink_add(k, r, c, C, P, Q, !mb_linsys_block_zero(C));
}

/* The negated blocks -(K, C) give -P, -Q exactly (h (-C) = -(h C)); their terms of b are
 * computed from -C itself, as the block list holds it. */
void mb_linsys_sink_pair(mb_linsys_sink *k, size_t i, size_t j, const double C[9],
                         const double K[9])
{
    double P[9], Q[9], nC[9], nP[9], nQ[9];
    int nonzero = !mb_linsys_block_zero(C);
    mb_linsys_products(C, K, k->h, k->h2, P, Q);
    for (int q = 0; q < 9; q++) {
        nC[q] = -C[q];
        nP[q] = -P[q];
        nQ[q] = -Q[q];
    }
    sink_add(k, i, i, nC, nP, nQ, nonzero);
    sink_add(k, i, j, C, P, Q, nonzero);
    sink_add(k, j, i, C, P, Q, nonzero);
    sink_add(k, j, j, nC, nP, nQ, nonzero);
}

int mb_linsys_sink_finish(mb_linsys_sink *k, double *b)
{
    if (k->misfit || (k->csr && k->count != k->csr->n_blocks))
        return 0;
    double tmp[2];
    mb_linsys_be_rhs_begin(k->s, k->h, b, tmp);
    for (size_t q = 0; q < k->nterms; q++) {
        const mb_linsys_term *T = &k->terms[q];
        for (int a = 0; a < 3; a++)
            b[3 * T->row + (size_t)a] -= T->t[a];
    }
    mb_linsys_be_rhs_fix_rows(k->s, b, tmp);
    if (k->btri)
        mb_blocktri_fix_rows(k->btri, k->s);
    else
        mb_csr_fix_rows(k->csr, k->s);
    return 1;
}
