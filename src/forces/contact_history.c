/* contact_history.c -- the contact history of the frictional laws: the elastic tangential
 * displacement of every pair, kept between force evaluations (mb_contact.h, doc/dem.md
 * "Contact history").
 *
 * A force evaluation receives the state at one time t.  The history is advanced in time
 * levels: the base level tb holds xi as the last completed level left it, the candidate
 * level tc holds what the latest evaluation computed from the base.  An evaluation at a
 * later time than tc completes tc (its xi becomes the base) and computes a new candidate;
 * one at tc again (a probe, an iterate, the energy of the same state) recomputes the
 * candidate from the same base, so repeated evaluations at one time do not accumulate
 * increments.  A scheme that evaluates once per step (the leap-frog family) thus gets
 * xi_{n+1} = rot(xi_n) + u_t h from the velocity it holds at the evaluation.
 *
 * A caller that evaluates each level once (a time-stepping loop with no probe, no
 * synchronisation at the same time, no rejected step) may say so
 * (mb_contact_history_in_place): the double instance then opens each new level in place,
 * each pair's candidate written over its base as LAMMPS updates its shear history, and
 * moves 24 bytes a pair and level instead of 48 (the base read, the candidate written to
 * other lines); it refuses an evaluation that would come back to a level so opened, whose
 * base is gone. */
#include "contact_set.h"
#include "mb_status.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int grow(void **p, size_t count, size_t size)
{
    void *q = realloc(*p, count * size);
    if (q == NULL)
        MB_ERROR(MB_ENOMEM, "cannot grow the contact history");
    *p = q;
    return MB_SUCCESS;
}

int mb_contact_history_reserve(struct contact_history **h, size_t count)
{
    if (*h == NULL) {
        *h = calloc(1, sizeof **h);
        if (*h == NULL)
            MB_ERROR(MB_ENOMEM, "cannot allocate a contact history");
        (*h)->lev.tb = (*h)->lev.tc = NAN;
        (*h)->lev_m.tb = (*h)->lev_m.tc = NAN;
        (*h)->live = &(*h)->d;
    }
    struct contact_history *c = *h;
    if (count <= c->cap)
        return MB_SUCCESS;
    size_t cap = c->cap ? 2 * c->cap : 8;
    while (cap < count)
        cap *= 2;
    if (grow((void **)&c->xb, 3 * cap, sizeof *c->xb) != MB_SUCCESS
        || grow((void **)&c->xc, 3 * cap, sizeof *c->xc) != MB_SUCCESS
        || grow((void **)&c->d.sliding, cap, sizeof *c->d.sliding) != MB_SUCCESS
        || grow((void **)&c->d.ktb, cap, sizeof *c->d.ktb) != MB_SUCCESS
        || grow((void **)&c->d.ktc, cap, sizeof *c->d.ktc) != MB_SUCCESS)
        return MB_ENOMEM;
    memset(c->xb + 3 * c->cap, 0, 3 * (cap - c->cap) * sizeof *c->xb);
    memset(c->xc + 3 * c->cap, 0, 3 * (cap - c->cap) * sizeof *c->xc);
    memset(c->d.sliding + c->cap, 0, cap - c->cap);
    memset(c->d.ktb + c->cap, 0, (cap - c->cap) * sizeof *c->d.ktb);
    memset(c->d.ktc + c->cap, 0, (cap - c->cap) * sizeof *c->d.ktc);
    c->cap = cap;
    return MB_SUCCESS;
}

static void books_free(struct contact_books *b)
{
    free(b->sliding);
    free(b->ktb);
    free(b->ktc);
    free(b->xi);
    *b = (struct contact_books){ 0 };
}

/* The MPFR instance's account for count pairs, zero. */
static int books_alloc(struct contact_books *b, size_t count)
{
    *b = (struct contact_books){ 0 };
    b->sliding = calloc(count + 1, sizeof *b->sliding);
    b->ktb = calloc(count + 1, sizeof *b->ktb);
    b->ktc = calloc(count + 1, sizeof *b->ktc);
    b->xi = calloc(3 * count + 1, sizeof *b->xi);
    if (b->sliding == NULL || b->ktb == NULL || b->ktc == NULL || b->xi == NULL) {
        books_free(b);
        MB_ERROR(MB_ENOMEM, "cannot allocate the MPFR contact history's account");
    }
    return MB_SUCCESS;
}

static void mpfr_arrays_clear(struct contact_history *h)
{
    for (size_t k = 0; k < 3 * h->cap_m; k++) {
        mpfr_clear(&h->xb_m[k]);
        mpfr_clear(&h->xc_m[k]);
    }
    free(h->xb_m);
    free(h->xc_m);
    h->xb_m = h->xc_m = NULL;
    books_free(&h->m);
    if (h->live == &h->m)
        h->live = &h->d;
    h->cap_m = 0;
    h->prec = 0;
}

int mb_contact_history_mpfr_ready(struct contact_history *h, size_t count, mpfr_prec_t prec)
{
    if (h->prec == prec && h->cap_m == count)
        return MB_SUCCESS;
    mpfr_arrays_clear(h);
    h->xb_m = malloc((3 * count + 1) * sizeof *h->xb_m);
    h->xc_m = malloc((3 * count + 1) * sizeof *h->xc_m);
    if (h->xb_m == NULL || h->xc_m == NULL) {
        free(h->xb_m);
        free(h->xc_m);
        h->xb_m = h->xc_m = NULL;
        MB_ERROR(MB_ENOMEM, "cannot allocate the MPFR contact history");
    }
    for (size_t k = 0; k < 3 * count; k++) {
        mpfr_init2(&h->xb_m[k], prec);
        mpfr_init2(&h->xc_m[k], prec);
        mpfr_set_zero(&h->xb_m[k], 1);
        mpfr_set_zero(&h->xc_m[k], 1);
    }
    h->cap_m = count;
    if (books_alloc(&h->m, count) != MB_SUCCESS) {
        mpfr_arrays_clear(h);
        return MB_ENOMEM;
    }
    h->prec = prec;
    h->lev_m.tb = h->lev_m.tc = NAN;
    return MB_SUCCESS;
}

/* Carry xi over to a new pair order through scratch copies of the arrays (a rebuild of
 * the pairs is rare next to the evaluations; the copies are the history's size). */
int mb_contact_history_remap(struct contact_history *h, const size_t *from, size_t count)
{
    int st = mb_contact_history_reserve(&h, count);
    if (st != MB_SUCCESS)
        return st;
    double *xb = calloc(3 * h->cap, sizeof *xb), *xc = calloc(3 * h->cap, sizeof *xc);
    double *kb = calloc(h->cap, sizeof *kb), *kc = calloc(h->cap, sizeof *kc);
    unsigned char *sl = calloc(h->cap, 1);
    if (xb == NULL || xc == NULL || kb == NULL || kc == NULL || sl == NULL) {
        free(xb);
        free(xc);
        free(kb);
        free(kc);
        free(sl);
        MB_ERROR(MB_ENOMEM, "cannot carry the contact history over a rebuilt pair list");
    }
    for (size_t m = 0; m < count; m++) {
        if (from[m] == SIZE_MAX)
            continue;
        memcpy(&xb[3 * m], &h->xb[3 * from[m]], 3 * sizeof *xb);
        memcpy(&xc[3 * m], &h->xc[3 * from[m]], 3 * sizeof *xc);
        kb[m] = h->d.ktb[from[m]];
        kc[m] = h->d.ktc[from[m]];
        sl[m] = h->d.sliding[from[m]];
    }
    free(h->xb);
    free(h->xc);
    free(h->d.ktb);
    free(h->d.ktc);
    free(h->d.sliding);
    h->xb = xb;
    h->xc = xc;
    h->d.ktb = kb;
    h->d.ktc = kc;
    h->d.sliding = sl;
    return MB_SUCCESS;
}

void mb_contact_history_free(struct contact_history *h)
{
    if (h == NULL)
        return;
    mpfr_arrays_clear(h);
    free(h->xb);
    free(h->xc);
    books_free(&h->d);
    free(h);
}

int mb_contact_history_in_place(void *model, int on)
{
    struct contact_set *set = model;
    if (!set->friction)
        MB_ERROR(MB_EUNSUP, "%s: the law keeps no contact history to update in place",
                 set->type->name);
    set->hist->lev.one_level = on != 0;
    return MB_SUCCESS;
}

const double *mb_contact_history_xi(const struct contact_history *h, size_t m)
{
    return h->live == &h->m ? &h->m.xi[3 * m] : &h->xc[3 * m];
}

int mb_contact_level_move(struct contact_level *L, double t, const char *law, int *commit,
                          double *dt)
{
    *commit = 0;
    if (!isfinite(t))
        MB_ERROR(MB_EDOM, "%s: evaluated at a non-finite time", law);
    if (isnan(L->tc)) {
        L->tb = L->tc = t;
    } else if (t > L->tc) {
        *commit = 1;
        L->tb = L->tc;
        L->tc = t;
        L->in_place = L->one_level;
    } else if (L->in_place) {
        MB_ERROR(MB_EDOM,
                 "%s: evaluated at t = %.17g, not after its contact history's last level "
                 "t = %.17g, which was updated in place (the caller said it evaluates each "
                 "level once: mb_contact_history_in_place); its base is gone", law, t, L->tc);
    } else if (t >= L->tb) {
        L->tc = t;
    } else {
        MB_ERROR(MB_EDOM,
                 "%s: evaluated at t = %.17g, before its contact history's level t = %.17g "
                 "(a history-dependent law needs time to advance: a scheme or reference that "
                 "steps back past an accepted step cannot integrate it)", law, t, L->tb);
    }
    *dt = t - L->tb;
    return MB_SUCCESS;
}
