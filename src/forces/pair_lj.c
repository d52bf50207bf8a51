/* pair_lj.c -- Lennard-Jones pair potentials, truncated-shifted and force-shifted, over the
 * shared neighbour list (equations in mb_pair_lj.h). */
#include "mb_force_models.h"
#include "mb_json.h"
#include "mb_pair_lj.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>

struct lj;
/* one variant: the shifted energy W, W' and W'' at r < rc */
typedef void (*lj_shape)(const struct lj *p, double r, double *W, double *dW, double *d2W);

struct lj {
    mb_lj_params par;
    lj_shape shape;
    double Vc, dVc;            /* V(rc), V'(rc) */
    mb_neighbour_list *nl;     /* retained */
};

/* V, V', V'' of the plain potential */
static void lj_plain(const mb_lj_params *p, double r, double *V, double *dV, double *d2V)
{
    double s2 = (p->sigma / r) * (p->sigma / r);
    double s6 = s2 * s2 * s2, s12 = s6 * s6;
    *V = 4.0 * p->epsilon * (s12 - s6);
    *dV = -24.0 * p->epsilon * (2.0 * s12 - s6) / r;
    *d2V = 24.0 * p->epsilon * (26.0 * s12 - 7.0 * s6) / (r * r);
}

/* V_s = V - V(rc) */
static void shape_cut(const struct lj *p, double r, double *W, double *dW, double *d2W)
{
    lj_plain(&p->par, r, W, dW, d2W);
    *W -= p->Vc;
}

/* V_sf = V - V(rc) - (r - rc) V'(rc) */
static void shape_smooth(const struct lj *p, double r, double *W, double *dW, double *d2W)
{
    lj_plain(&p->par, r, W, dW, d2W);
    *W -= p->Vc + (r - p->par.cutoff) * p->dVc;
    *dW -= p->dVc;
}

void mb_lj_pair(const void *model, double r, double *W, double *dW)
{
    const struct lj *p = model;
    double d2W;
    if (!(r < p->par.cutoff)) {
        *W = *dW = 0.0;
        return;
    }
    p->shape(p, r, W, dW, &d2W);
}

/* The list brought up to date with s (rebuilt when stale). */
static int lj_update(const struct lj *p, const mb_nodes *s)
{
    return mb_neighbour_update(p->nl, s->x, s->n, NULL);
}

/* d = x_j - x_i (minimum image) and r^2 of a listed pair; 1 when r < rc. */
static int in_range(const struct lj *p, const mb_nodes *s, size_t i, size_t j, double d[3],
                    double *r2)
{
    mb_neighbour_delta(p->nl, s->x, i, j, d);
    *r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    return *r2 < p->par.cutoff * p->par.cutoff;
}

static int coincide(size_t i, size_t j)
{
    MB_ERROR(MB_EDIVERGED, "lennard-jones: particles %zu and %zu coincide (r = 0)", i, j);
}

/* f_i += (W'/r) d, f_j -= (W'/r) d */
static int lj_eval(const void *params, mb_nodes *s, double t)
{
    const struct lj *p = params;
    (void)t;
    int rc = lj_update(p, s);
    if (rc)
        return rc;
    const size_t *first = mb_neighbour_first(p->nl);
    const mb_neighbour_index *neigh = mb_neighbour_neigh(p->nl);
    for (size_t i = 0; i < s->n; i++)
        for (size_t q = first[i]; q < first[i + 1]; q++) {
            size_t j = neigh[q];
            double d[3], r2, W, dW, d2W;
            if (!in_range(p, s, i, j, d, &r2))
                continue;
            if (r2 == 0.0)
                return coincide(i, j);
            double r = sqrt(r2);
            p->shape(p, r, &W, &dW, &d2W);
            double g = dW / r;
            for (int a = 0; a < 3; a++) {
                s->f[3 * i + a] += g * d[a];
                s->f[3 * j + a] -= g * d[a];
            }
        }
    return MB_SUCCESS;
}

/* sum over pairs of W (sum of |W| for the magnitude) */
static double lj_energy(const void *params, const mb_nodes *s, int magnitude)
{
    const struct lj *p = params;
    if (lj_update(p, s))
        return NAN;
    double e = 0.0;
    const size_t *first = mb_neighbour_first(p->nl);
    const mb_neighbour_index *neigh = mb_neighbour_neigh(p->nl);
    for (size_t i = 0; i < s->n; i++)
        for (size_t q = first[i]; q < first[i + 1]; q++) {
            double d[3], r2, W, dW, d2W;
            if (!in_range(p, s, i, neigh[q], d, &r2))
                continue;
            p->shape(p, sqrt(r2), &W, &dW, &d2W);
            e += magnitude ? fabs(W) : W;
        }
    return e;
}

static double lj_potential(const void *params, const mb_nodes *s)
{
    return lj_energy(params, s, 0);
}

static double lj_potential_magnitude(const void *params, const mb_nodes *s)
{
    return lj_energy(params, s, 1);
}

/* K = df_i/dx_j = g I + (W'' - g) d d^T / r^2, g = W'/r (mb_pair_lj.h) */
static void pair_stiffness(const struct lj *p, const double d[3], double r2, double K[9])
{
    double r = sqrt(r2), W, dW, d2W;
    p->shape(p, r, &W, &dW, &d2W);
    double g = dW / r, h = (d2W - g) / r2;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            K[3 * a + b] = h * d[a] * d[b] + (a == b ? g : 0.0);
}

static int add_pair_blocks(mb_jacobian *J, size_t i, size_t j, const double K[9])
{
    const size_t rows[4] = {i, i, j, j}, cols[4] = {i, j, i, j};
    const double sign[4] = {-1.0, 1.0, 1.0, -1.0};
    for (int k = 0; k < 4; k++) {
        long blk = mb_jacobian_add_block(J, rows[k], cols[k]);
        if (blk < 0)
            MB_ERROR(MB_ENOMEM, "lennard-jones: cannot append a Jacobian block");
        for (int c = 0; c < 9; c++)
            J->dfdx[9 * blk + c] = sign[k] * K[c];
    }
    return MB_SUCCESS;
}

/* blocks (i,i) -K, (i,j) K, (j,i) K, (j,j) -K per pair (mb_pair_lj.h) */
static int lj_jacobian(const void *params, const mb_nodes *s, mb_jacobian *J)
{
    const struct lj *p = params;
    int rc = lj_update(p, s);
    if (rc)
        return rc;
    const size_t *first = mb_neighbour_first(p->nl);
    const mb_neighbour_index *neigh = mb_neighbour_neigh(p->nl);
    for (size_t i = 0; i < s->n; i++)
        for (size_t q = first[i]; q < first[i + 1]; q++) {
            size_t j = neigh[q];
            double d[3], r2, K[9];
            if (!in_range(p, s, i, j, d, &r2))
                continue;
            if (r2 == 0.0)
                return coincide(i, j);
            pair_stiffness(p, d, r2, K);
            if ((rc = add_pair_blocks(J, i, j, K)))
                return rc;
        }
    return MB_SUCCESS;
}

static void lj_free(void *params)
{
    struct lj *p = params;
    if (p) {
        mb_neighbour_free(p->nl);
        free(p);
    }
}

static int lj_periodic(const void *params)
{
    const struct lj *p = params;
    double box[3];
    return mb_neighbour_box(p->nl, box);
}

/* run.json (doc/external.md): the pair style, its parameters, the boundaries (the periodic
 * box, absent for open boundaries and a deforming cell) and the list's own parameters */
static int lj_describe(const void *params, json_t *model)
{
    const struct lj *p = params;
    const char *name = (p->shape == shape_cut ? mb_force_lj_cut : mb_force_lj_smooth)->name;
    int bad = mb_json_set_str(model, "model", name)
              || mb_json_set_num(model, "epsilon", p->par.epsilon)
              || mb_json_set_num(model, "sigma", p->par.sigma)
              || mb_json_set_num(model, "cutoff", p->par.cutoff)
              || mb_neighbour_describe(p->nl, model);
    return bad ? MB_ENOMEM : MB_SUCCESS;
}

/* the two variants differ in their shape (struct lj) alone: one table, two names */
#define LJ_TYPE(type_name)                                                                  \
    {                                                                                       \
        .name = type_name, .eval = lj_eval, .potential = lj_potential,                      \
        .potential_magnitude = lj_potential_magnitude, .jacobian = lj_jacobian,             \
        .free = lj_free, .torque_free = 1, .describe = lj_describe, .periodic = lj_periodic \
    }
static const mb_force_type lj_cut_type = LJ_TYPE("lj-cut");
static const mb_force_type lj_smooth_type = LJ_TYPE("lj-smooth");

const mb_force_type *const mb_force_lj_cut = &lj_cut_type;
const mb_force_type *const mb_force_lj_smooth = &lj_smooth_type;

static int finite_pos(double a) { return isfinite(a) && a > 0.0; }

static void *lj_new(const mb_lj_params *p, mb_neighbour_list *nl, lj_shape shape)
{
    if (!finite_pos(p->epsilon))
        MB_ERROR_NULL(MB_EDOM, "lennard-jones: epsilon must be finite and > 0 (got %g)",
                      p->epsilon);
    if (!finite_pos(p->sigma))
        MB_ERROR_NULL(MB_EDOM, "lennard-jones: sigma must be finite and > 0 (got %g)", p->sigma);
    if (!finite_pos(p->cutoff))
        MB_ERROR_NULL(MB_EDOM, "lennard-jones: cutoff must be finite and > 0 (got %g)",
                      p->cutoff);
    if (nl == NULL)
        MB_ERROR_NULL(MB_EINVAL, "lennard-jones: needs a neighbour list");
    if (p->cutoff > mb_neighbour_cutoff(nl))
        MB_ERROR_NULL(MB_EDOM, "lennard-jones: cutoff %g exceeds the neighbour list's %g",
                      p->cutoff, mb_neighbour_cutoff(nl));
    struct lj *m = calloc(1, sizeof *m);
    if (m == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a Lennard-Jones model");
    m->par = *p;
    m->shape = shape;
    double d2Vc;
    lj_plain(p, p->cutoff, &m->Vc, &m->dVc, &d2Vc);
    m->nl = mb_neighbour_retain(nl);
    return m;
}

void *mb_lj_cut_new(const mb_lj_params *p, mb_neighbour_list *nl)
{
    return lj_new(p, nl, shape_cut);
}

void *mb_lj_smooth_new(const mb_lj_params *p, mb_neighbour_list *nl)
{
    return lj_new(p, nl, shape_smooth);
}

/* registry samples (mb_force_models.h): sigma 0.71 puts the closest pair of the generic
 * store (0.755) near the well; rc = 2.1 keeps five of its six pairs (1.84 the farthest
 * inside, 2.58 outside), each at least 0.26 from rc, far beyond the finite-difference
 * step; open boundaries, skin 0.3. */
static void *sample(mb_nodes *s, void *(*make)(const mb_lj_params *, mb_neighbour_list *))
{
    (void)s;
    const mb_lj_params p = {.epsilon = 1.23, .sigma = 0.71, .cutoff = 2.1};
    mb_neighbour_list *nl = mb_neighbour_new(2.1, 0.3, NULL);
    if (nl == NULL)
        return NULL;
    void *m = make(&p, nl);
    mb_neighbour_free(nl);   /* the model holds it */
    return m;
}

void *mb_force_sample_lj_cut(mb_nodes *s) { return sample(s, mb_lj_cut_new); }
void *mb_force_sample_lj_smooth(mb_nodes *s) { return sample(s, mb_lj_smooth_new); }
