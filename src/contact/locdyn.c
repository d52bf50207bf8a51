/* locdyn.c -- the sparse block store of the local dynamics U = B + W R (seed 003;
 * Solfec-1.0 ldy.c: LOCDYN_Insert, LOCDYN_Remove, LOCDYN_Update_Begin).  See mb_locdyn.h
 * for the block formulas. */
#include "mb_locdyn.h"

#include <stdlib.h>
#include <string.h>

mb_locdyn *mb_locdyn_alloc(void)
{
    return calloc(1, sizeof(mb_locdyn));
}

void mb_locdyn_free(mb_locdyn *L)
{
    if (L == NULL)
        return;
    for (size_t a = 0; a < L->count; a++) {
        free(L->dia[a]->adj);
        free(L->dia[a]);
    }
    free(L->dia);
    free(L);
}

/* +1 slave, -1 master, 0 not in the frame (the ground is never shared) */
static int role(const mb_con *c, size_t k)
{
    if (k == MB_CON_GROUND)
        return 0;
    return c->i == k ? 1 : c->j == k ? -1 : 0;
}

static int shares_body(const mb_con *a, const mb_con *b)
{
    return role(b, a->i) != 0 || role(b, a->j) != 0;
}

static int adj_push(mb_diab *d, mb_diab *col)
{
    if (d->nadj == d->capadj) {
        size_t cap = d->capadj ? 2 * d->capadj : 4;
        mb_offb *p = realloc(d->adj, cap * sizeof *p);
        if (p == NULL)
            return 0;
        d->adj = p;
        d->capadj = cap;
    }
    memset(&d->adj[d->nadj], 0, sizeof d->adj[0]);
    d->adj[d->nadj++].dia = col;
    return 1;
}

static void adj_drop(mb_diab *d, const mb_diab *col)
{
    for (size_t k = 0; k < d->nadj; k++)
        if (d->adj[k].dia == col) {
            d->adj[k] = d->adj[--d->nadj];
            return;
        }
}

mb_diab *mb_locdyn_insert(mb_locdyn *L, const mb_con *c)
{
    if (L->count == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 16;
        mb_diab **p = realloc(L->dia, cap * sizeof *p);
        if (p == NULL)
            return NULL;
        L->dia = p;
        L->cap = cap;
    }
    mb_diab *d = calloc(1, sizeof *d);
    if (d == NULL)
        return NULL;
    d->con = *c;
    for (size_t b = 0; b < L->count; b++) {
        mb_diab *o = L->dia[b];
        if (!shares_body(&d->con, &o->con))
            continue;
        if (!adj_push(d, o) || !adj_push(o, d)) {
            for (size_t k = 0; k < d->nadj; k++)
                adj_drop(d->adj[k].dia, d);
            free(d->adj);
            free(d);
            return NULL;
        }
    }
    d->index = L->count;
    L->dia[L->count++] = d;
    return d;
}

void mb_locdyn_remove(mb_locdyn *L, mb_diab *d)
{
    for (size_t k = 0; k < d->nadj; k++)
        adj_drop(d->adj[k].dia, d);
    size_t at = d->index;
    L->dia[at] = L->dia[--L->count];
    L->dia[at]->index = at;
    free(d->adj);
    free(d);
}

size_t mb_locdyn_offdiag_count(const mb_locdyn *L)
{
    size_t n = 0;
    for (size_t a = 0; a < L->count; a++)
        n += L->dia[a]->nadj;
    return n;
}

/* W += s h H_a A_k^-1 H_b^T for body k */
static void add_block(double W[9], const mb_body_view *b, size_t k, const double Ha[18],
                      const double Hb[18], double s, double h)
{
    double Ai[6] = { b->Jinv[3 * k], b->Jinv[3 * k + 1], b->Jinv[3 * k + 2],
                     b->minv[k], b->minv[k], b->minv[k] };
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double acc = 0.0;
            for (int d = 0; d < 6; d++)
                acc += Ha[6 * r + d] * Ai[d] * Hb[6 * c + d];
            W[3 * r + c] += s * h * acc;
        }
}

/* H of body k in constraint c (k must be i or j of c) */
static void con_H(const mb_body_view *b, const mb_con *c, size_t k, double H[18])
{
    mb_con_operator_H(b, k, k == c->i ? c->Ai : c->Aj, c->E, H);
}

void mb_locdyn_update(mb_locdyn *L, const mb_body_view *b, const double *ufree, double h)
{
    for (size_t a = 0; a < L->count; a++) {
        mb_diab *d = L->dia[a];
        const mb_con *c = &d->con;
        double H[18];
        memset(d->W, 0, sizeof d->W);
        size_t ends[2] = { c->i, c->j };
        for (int e = 0; e < 2; e++) {
            if (ends[e] == MB_CON_GROUND)
                continue;
            con_H(b, c, ends[e], H);
            add_block(d->W, b, ends[e], H, H, 1.0, h);
        }
        mb_con_local_velocity(b, c, ufree, d->B);
        for (size_t o = 0; o < d->nadj; o++) {
            mb_offb *ob = &d->adj[o];
            const mb_con *cb = &ob->dia->con;
            memset(ob->W, 0, sizeof ob->W);
            for (int e = 0; e < 2; e++) {
                size_t k = ends[e];
                int ra = role(c, k), rb = role(cb, k);
                if (ra == 0 || rb == 0)
                    continue;
                double Ha[18], Hb[18];
                con_H(b, c, k, Ha);
                con_H(b, cb, k, Hb);
                add_block(ob->W, b, k, Ha, Hb, (double)(ra * rb), h);
            }
        }
    }
}

void mb_locdyn_dense(const mb_locdyn *L, double *W)
{
    size_t m = 3 * L->count;
    memset(W, 0, m * m * sizeof(double));
    for (size_t a = 0; a < L->count; a++) {
        const mb_diab *d = L->dia[a];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                W[(3 * a + r) * m + 3 * a + c] = d->W[3 * r + c];
        for (size_t o = 0; o < d->nadj; o++) {
            size_t bcol = d->adj[o].dia->index;
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    W[(3 * a + r) * m + 3 * bcol + c] = d->adj[o].W[3 * r + c];
        }
    }
}
