/* contact_pairs.c -- the candidate pair list shared by the contact models: validation of
 * the laws' parameters, per-pair coefficients, and double-precision kinematics
 * (equations in mb_contact.h). */
#include "contact_set.h"
#include "mb_closed_contact.h"
#include "mb_contact_detect.h"
#include "mb_json.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int finite_pos(double a) { return isfinite(a) && a > 0.0; }

void *mb_contact_linear_new(const mb_contact_linear_params *p)
{
    if (!finite_pos(p->kn))
        MB_ERROR_NULL(MB_EDOM, "contact-linear: kn must be finite and > 0 (got %g)", p->kn);
    if (p->dashpot == MB_DASHPOT_COEFF && !(isfinite(p->c) && p->c >= 0.0))
        MB_ERROR_NULL(MB_EDOM, "contact-linear: dashpot c must be finite and >= 0 (got %g)", p->c);
    if (p->dashpot == MB_DASHPOT_RATIO && !(p->zeta >= 0.0 && p->zeta < 1.0))
        MB_ERROR_NULL(MB_EDOM, "contact-linear: damping ratio zeta must be in [0, 1) (got %g)",
                      p->zeta);
    struct contact_set *set = calloc(1, sizeof *set);
    if (set == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a contact model");
    set->type = mb_force_contact_linear;
    set->normal = CONTACT_NORMAL_LINEAR;
    set->lin = *p;
    set->attractive = p->attractive;
    return set;
}

void *mb_contact_hertz_new(const mb_contact_hertz_params *p)
{
    if (!finite_pos(p->estar))
        MB_ERROR_NULL(MB_EDOM, "contact-hertz: effective modulus E* must be finite and > 0 (got %g)",
                      p->estar);
    if (!(p->zeta >= 0.0 && p->zeta < 1.0))
        MB_ERROR_NULL(MB_EDOM, "contact-hertz: damping ratio zeta must be in [0, 1) (got %g)",
                      p->zeta);
    struct contact_set *set = calloc(1, sizeof *set);
    if (set == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a contact model");
    set->type = mb_force_contact_hertz;
    set->normal = CONTACT_NORMAL_HERTZ;
    set->hz = *p;
    set->attractive = p->attractive;
    return set;
}

/* The bounds of mb_contact_friction_params, law being the law's name and mindlin 1 for
 * Hertz-Mindlin.  kt_ratio: the linear law admits (0, 1] (k_t above kn would make the
 * tangential mode the stiffest and outside the elastic range 4 G* / E* <= 1 of nu >= 0);
 * Hertz-Mindlin admits [2/3, 1], the range of 2(1 - nu)/(2 - nu) for nu in [0, 1/2]. */
static int friction_valid(const mb_contact_friction_params *fr, const char *law, int mindlin)
{
    if (!(isfinite(fr->mu) && fr->mu >= 0.0))
        MB_ERROR(MB_EDOM, "%s: friction coefficient mu must be finite and >= 0 (got %g)", law,
                 fr->mu);
    if (mindlin && !(fr->kt_ratio >= MB_CONTACT_KT_RATIO_MINDLIN_MIN
                     && fr->kt_ratio <= MB_CONTACT_KT_RATIO_MINDLIN_MAX))
        MB_ERROR(MB_EDOM, "%s: tangential/normal stiffness ratio kt_ratio = 4 G* / E* must be in "
                 "[2/3, 1], the range of 2(1 - nu)/(2 - nu) for nu in [0, 0.5] (got %g)", law,
                 fr->kt_ratio);
    if (!mindlin && !(isfinite(fr->kt_ratio) && fr->kt_ratio > 0.0
                      && fr->kt_ratio <= MB_CONTACT_KT_RATIO_LINEAR_MAX))
        MB_ERROR(MB_EDOM, "%s: tangential/normal stiffness ratio kt_ratio = kt/kn must be in "
                 "(0, 1] (got %g)", law, fr->kt_ratio);
    if (!(fr->zeta_t >= 0.0 && fr->zeta_t < 1.0))
        MB_ERROR(MB_EDOM, "%s: tangential damping ratio zeta_t must be in [0, 1) (got %g)", law,
                 fr->zeta_t);
    if (!(isfinite(fr->mu_roll) && fr->mu_roll >= 0.0))
        MB_ERROR(MB_EDOM, "%s: rolling-resistance coefficient mu_roll must be finite and >= 0 "
                 "(got %g)", law, fr->mu_roll);
    if (fr->mu_roll > 0.0 && fr->mu == 0.0)
        MB_ERROR(MB_EDOM, "%s: rolling resistance mu_roll = %g without friction (mu = 0): a "
                 "sphere without tangential force cannot roll", law, fr->mu_roll);
    return MB_SUCCESS;
}

static void *with_friction(struct contact_set *set, const mb_force_type *type,
                           const mb_contact_friction_params *fr)
{
    if (set == NULL)
        return NULL;
    if (friction_valid(fr, type->name, type == mb_force_contact_hertz_mindlin) != MB_SUCCESS
        || mb_contact_history_reserve(&set->hist, 1) != MB_SUCCESS) {
        mb_contact_set_free(set);
        return NULL;
    }
    set->type = type;
    set->friction = 1;
    set->fr = *fr;
    return set;
}

void *mb_contact_cundall_strack_new(const mb_contact_linear_params *p,
                                    const mb_contact_friction_params *fr)
{
    return with_friction(mb_contact_linear_new(p), mb_force_contact_cundall_strack, fr);
}

void *mb_contact_hertz_mindlin_new(const mb_contact_hertz_params *p,
                                   const mb_contact_friction_params *fr)
{
    return with_friction(mb_contact_hertz_new(p), mb_force_contact_hertz_mindlin, fr);
}

void mb_contact_set_free(void *params)
{
    struct contact_set *set = params;
    if (set) {
        mb_contact_history_free(set->hist);
        mb_neighbour_free(set->nl);
        free(set->old_ij);
        free(set->from);
        free(set->imaged);
        free(set->items);
        free(set->boxes);
        free(set);
    }
}

/* Law coefficients of one pair from m*, R*:
 *   linear: k = kn, c = c or 2 zeta sqrt(m* kn)
 *   Hertz:  k = K = (4/3) E* sqrt(R*),  c = C = 2 zeta sqrt((3/2) K m*)
 * and of the frictional laws (mb_contact.h):
 *   linear:        kt = kt_ratio kn,              ct = 2 zeta_t sqrt(m* kt)
 *   Hertz-Mindlin: kt = kt_ratio (3/2) K = kt_ratio 2 E* sqrt(R*)   (k_t = kt delta^{1/2}),
 *                  ct = 2 zeta_t sqrt(m* kt)                       (gamma_t = ct delta^{1/4})
 *   rolling arm:   roll = mu_r R* */
static void pair_coefficients(const struct contact_set *set, struct contact_pair *cp)
{
    if (set->normal == CONTACT_NORMAL_LINEAR) {
        cp->k = set->lin.kn;
        cp->c = set->lin.dashpot == MB_DASHPOT_RATIO
                    ? 2.0 * set->lin.zeta * sqrt(cp->meff * set->lin.kn) : set->lin.c;
        cp->kt = set->fr.kt_ratio * cp->k;
    } else {
        cp->k = 4.0 / 3.0 * set->hz.estar * sqrt(cp->reff);
        cp->c = 2.0 * set->hz.zeta * sqrt(1.5 * cp->k * cp->meff);
        cp->kt = set->fr.kt_ratio * 1.5 * cp->k;
    }
    cp->ct = 2.0 * set->fr.zeta_t * sqrt(cp->meff * cp->kt);
    cp->roll = set->fr.mu_roll * cp->reff;
    if (!set->friction)
        cp->kt = cp->ct = cp->roll = 0.0;
}

static int check_node(const mb_nodes *s, size_t i, const char *what)
{
    if (i >= s->n)
        MB_ERROR(MB_EINVAL, "contact %s: node %zu out of range (%zu nodes)", what, i, s->n);
    if (!finite_pos(s->radius[i]))
        MB_ERROR(MB_EDOM, "contact %s: node %zu needs a finite radius > 0 (got %g)", what, i,
                 s->radius[i]);
    if (!(s->mass[i] > 0.0) || isnan(s->mass[i]))
        MB_ERROR(MB_EDOM, "contact %s: node %zu needs a mass > 0 (got %g)", what, i, s->mass[i]);
    return MB_SUCCESS;
}

/* m* = m_i m_j / (m_i + m_j); an infinite (fixed) partner leaves the other's mass. */
static double effective_mass(double mi, double mj)
{
    if (isinf(mi))
        return mj;
    if (isinf(mj))
        return mi;
    return mi * mj / (mi + mj);
}

static int push(struct contact_set *set, const struct contact_pair *cp)
{
    if (set->count == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 8;
        struct contact_pair *items = realloc(set->items, cap * sizeof *items);
        if (items == NULL)
            MB_ERROR(MB_ENOMEM, "cannot grow the contact list");
        set->items = items;
        set->cap = cap;
    }
    if (set->friction && mb_contact_history_reserve(&set->hist, set->count + 1) != MB_SUCCESS)
        return MB_ENOMEM;
    set->items[set->count] = *cp;
    pair_coefficients(set, &set->items[set->count]);
    set->count++;
    return MB_SUCCESS;
}

int mb_contact_add_spheres(void *model, const mb_nodes *s, size_t i, size_t j)
{
    int st = check_node(s, i, "sphere pair");
    if (st == MB_SUCCESS)
        st = check_node(s, j, "sphere pair");
    if (st != MB_SUCCESS)
        return st;
    if (i == j)
        MB_ERROR(MB_EINVAL, "contact sphere pair: node %zu paired with itself", i);
    if (isinf(s->mass[i]) && isinf(s->mass[j]))
        MB_ERROR(MB_EDOM, "contact sphere pair: nodes %zu and %zu both have infinite mass", i, j);
    if (((struct contact_set *)model)->nl != NULL)
        MB_ERROR(MB_EINVAL, "contact sphere pair %zu-%zu: this model finds its sphere pairs "
                 "through its neighbour list; pairs are not added by hand", i, j);
    struct contact_pair cp;
    mb_contact_pair_make(model, s, i, j, &cp);
    return push(model, &cp);
}

void mb_contact_pair_make(const struct contact_set *set, const mb_nodes *s, size_t i, size_t j,
                          struct contact_pair *cp)
{
    *cp = (struct contact_pair){ .i = i, .j = j, .plane = 0 };
    cp->meff = effective_mass(s->mass[i], s->mass[j]);
    cp->reff = s->radius[i] * s->radius[j] / (s->radius[i] + s->radius[j]);
    pair_coefficients(set, cp);
}

int mb_contact_add_plane(void *model, const mb_nodes *s, size_t i, const double point[3],
                         const double normal[3])
{
    int st = check_node(s, i, "sphere-plane");
    if (st != MB_SUCCESS)
        return st;
    if (isinf(s->mass[i]))
        MB_ERROR(MB_EDOM, "contact sphere-plane: node %zu has infinite mass", i);
    if (((struct contact_set *)model)->nl != NULL)
        MB_ERROR(MB_EINVAL, "contact sphere-plane: walls are added before the neighbour list "
                 "is attached (mb_contact_use_neighbours)");
    double len = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    if (!finite_pos(len))
        MB_ERROR(MB_EDOM, "contact sphere-plane: the plane normal must be finite and non-zero");
    struct contact_pair cp = { .i = i, .j = i, .plane = 1 };
    for (int k = 0; k < 3; k++) {
        if (!isfinite(point[k]))
            MB_ERROR(MB_EDOM, "contact sphere-plane: the plane point must be finite");
        cp.p[k] = point[k];
        cp.n[k] = normal[k] / len;
    }
    cp.meff = s->mass[i];
    cp.reff = s->radius[i];
    return push(model, &cp);
}

int mb_contact_add_box(void *model, const mb_nodes *s, size_t i, size_t j, const double half[3])
{
    struct contact_set *set = model;
    int st = check_node(s, i, "sphere-box");
    if (st != MB_SUCCESS)
        return st;
    if (isinf(s->mass[i]))
        MB_ERROR(MB_EDOM, "contact sphere-box: node %zu has infinite mass", i);
    if (!isinf(s->mass[j]))
        MB_ERROR(MB_EUNSUP, "contact sphere-box: box node %zu must be static (infinite mass): "
                 "the laws turn no box", j);
    if (set->nl != NULL)
        MB_ERROR(MB_EINVAL, "contact sphere-box: walls are added before the neighbour list "
                 "is attached (mb_contact_use_neighbours)");
    for (int k = 0; k < 3; k++)
        if (!finite_pos(half[k]))
            MB_ERROR(MB_EDOM, "contact sphere-box: half-extents must be finite and > 0");
    struct contact_box *boxes = realloc(set->boxes, (set->nboxes + 1) * sizeof *boxes);
    if (boxes == NULL)
        MB_ERROR(MB_ENOMEM, "cannot grow the contact box list");
    set->boxes = boxes;
    struct contact_box *b = &boxes[set->nboxes];
    memcpy(b->x, &s->x[3 * j], sizeof b->x);
    mb_q_to_mat(b->R, &s->q[4 * j]);
    memcpy(b->half, half, sizeof b->half);
    struct contact_pair cp = { .i = i, .j = i, .plane = 2 + (int)set->nboxes };
    cp.meff = s->mass[i];
    cp.reff = s->radius[i];
    if ((st = push(set, &cp)) == MB_SUCCESS)
        set->nboxes++;
    return st;
}

int mb_contact_wall_plane(const struct contact_set *set, const struct contact_pair *cp,
                          const double x[3], double p[3], double n[3])
{
    if (cp->plane == 1) {
        memcpy(p, cp->p, 3 * sizeof(double));
        memcpy(n, cp->n, 3 * sizeof(double));
        return 1;
    }
    const struct contact_box *b = &set->boxes[cp->plane - 2];
    double d[3] = { x[0] - b->x[0], x[1] - b->x[1], x[2] - b->x[2] }, pb[3], q[3], nb[3], dist;
    mb_m3t_mul_v(pb, b->R, d);                 /* the centre in the box frame */
    int clamped = mb_box_closest(b->half, pb, q, nb, &dist);
    mb_m3_mul_v(p, b->R, q);
    mb_m3_mul_v(n, b->R, nb);
    for (int k = 0; k < 3; k++)
        p[k] += b->x[k];
    return clamped <= 1;
}

size_t mb_contact_count(const void *model) { return ((const struct contact_set *)model)->count; }

int mb_contact_history(const void *model, size_t m, double xi[3], int *sliding)
{
    const struct contact_set *set = model;
    if (m >= set->count)
        MB_ERROR(MB_EINVAL, "contact %zu out of range (%zu contacts)", m, set->count);
    const double *x = set->friction ? mb_contact_history_xi(set->hist, m) : NULL;
    for (int a = 0; a < 3; a++)
        xi[a] = x ? x[a] : 0.0;
    *sliding = set->friction ? set->hist->live->sliding[m] : 0;
    return MB_SUCCESS;
}

double mb_contact_meff(const void *model, size_t m)
{
    return ((const struct contact_set *)model)->items[m].meff;
}

int mb_contact_pair_kinematics(const struct contact_set *set, const struct contact_pair *cp,
                               const mb_nodes *s, double *delta, double *rate, double n[3])
{
    const double *xi = &s->x[3 * cp->i], *vi = &s->v[3 * cp->i];
    if (cp->plane) {
        double g = 0.0, r = 0.0, p[3];
        mb_contact_wall_plane(set, cp, xi, p, n);
        for (int k = 0; k < 3; k++) {
            g += (xi[k] - p[k]) * n[k];
            r -= vi[k] * n[k];
        }
        *delta = s->radius[cp->i] - g;
        *rate = r;
        return MB_SUCCESS;
    }
    const double *xj = &s->x[3 * cp->j], *vj = &s->v[3 * cp->j];
    double d[3], l2 = 0.0;
    for (int k = 0; k < 3; k++) {
        d[k] = xj[k] - xi[k];
        if (cp->imaged)
            d[k] += cp->shift[k];
        l2 += d[k] * d[k];
    }
    double l = sqrt(l2);
    if (l == 0.0)
        MB_ERROR(MB_EDOM, "contact: spheres %zu and %zu have coincident centres", cp->i, cp->j);
    double r = 0.0;
    for (int k = 0; k < 3; k++) {
        n[k] = d[k] / l;
        r -= (vj[k] + (cp->imaged ? cp->vshift[k] : 0.0) - vi[k]) * n[k];
    }
    *delta = (s->radius[cp->i] + s->radius[cp->j]) - l;
    *rate = r;
    return MB_SUCCESS;
}

int mb_contact_kinematics(const void *model, size_t m, const mb_nodes *s, double *delta,
                          double *rate, double n[3])
{
    const struct contact_set *set = model;
    if (m >= set->count)
        MB_ERROR(MB_EINVAL, "contact %zu out of range (%zu contacts)", m, set->count);
    return mb_contact_pair_kinematics(set, &set->items[m], s, delta, rate, n);
}

void mb_contact_pair_stiffness(const struct contact_pair *cp, double k, const double n[3],
                               double *kk)
{
    /* Gershgorin row sum of the block k n n^T: k |n_a| (|n_0| + |n_1| + |n_2|), so that
     * the estimate of mb_timestep.h bounds the highest mode for any contact direction */
    double n1 = fabs(n[0]) + fabs(n[1]) + fabs(n[2]);
    for (int a = 0; a < 3; a++) {
        double ka = k * fabs(n[a]) * n1;
        kk[3 * cp->i + a] += ka;
        if (!cp->plane)
            kk[3 * cp->j + a] += ka;
    }
}

/* The restitution of one pair's normal impact where a closed form gives it (doc/dem.md,
 * "Closed forms of a binary collision"): the linear law, clamped or textbook, and any
 * undamped law (e = 1); NaN (written null) for the damped Hertz law, which has none. */
static double pair_restitution(const struct contact_set *set, const struct contact_pair *cp)
{
    if (cp->c == 0.0)
        return 1.0;
    if (set->normal != CONTACT_NORMAL_LINEAR)
        return NAN;
    double zeta = mb_closed_linear_zeta(cp->k, cp->meff, cp->c);
    return set->attractive ? mb_closed_linear_restitution(zeta)
                           : mb_closed_linear_clamped_restitution(zeta);
}

static int set_num_or_null(json_t *o, const char *key, double v)
{
    return json_object_set_new(o, key, isfinite(v) ? mb_json_number(v) : json_null()) != 0;
}

static int describe_pair(const struct contact_set *set, const struct contact_pair *cp,
                         json_t *list)
{
    json_t *o = json_object();
    if (o == NULL || json_array_append_new(list, o) != 0 || mb_json_set_int(o, "i", (long)cp->i))
        return MB_ENOMEM;
    if (cp->plane >= 2) {
        const struct contact_box *b = &set->boxes[cp->plane - 2];
        json_t *bx = json_object();
        if (bx == NULL || json_object_set_new(o, "box", bx) != 0
            || mb_json_set_vec(bx, "center", b->x, 3) || mb_json_set_vec(bx, "rotation", b->R, 9)
            || mb_json_set_vec(bx, "half_extents", b->half, 3))
            return MB_ENOMEM;
    } else if (cp->plane) {
        json_t *pl = json_object();
        if (pl == NULL || json_object_set_new(o, "plane", pl) != 0
            || mb_json_set_vec(pl, "point", cp->p, 3) || mb_json_set_vec(pl, "normal", cp->n, 3))
            return MB_ENOMEM;
    } else if (mb_json_set_int(o, "j", (long)cp->j)) {
        return MB_ENOMEM;
    }
    if (mb_json_set_num(o, "k", cp->k) || mb_json_set_num(o, "c", cp->c)
        || mb_json_set_num(o, "mass_eff", cp->meff) || mb_json_set_num(o, "radius_eff", cp->reff)
        || set_num_or_null(o, "restitution", pair_restitution(set, cp)))
        return MB_ENOMEM;
    return set->friction && (mb_json_set_num(o, "kt", cp->kt) || mb_json_set_num(o, "ct", cp->ct)
                             || mb_json_set_num(o, "roll", cp->roll)) ? MB_ENOMEM : MB_SUCCESS;
}

/* The laws by name (doc/external.md, section 3): normal "linear" | "hertz"; tangential
 * "cundall-strack" (k_t = kt) | "mindlin" (k_t = kt delta^(1/2)) | "none"; rolling
 * "constant-torque" | "none"; the normal dashpot's damping ratio where it was given as
 * one. */
static int describe_laws(const struct contact_set *set, json_t *model)
{
    int linear = set->normal == CONTACT_NORMAL_LINEAR;
    double zeta = linear ? (set->lin.dashpot == MB_DASHPOT_RATIO ? set->lin.zeta : NAN)
                         : set->hz.zeta;
    const char *tangential = !set->friction ? "none" : linear ? "cundall-strack" : "mindlin";
    const char *rolling = set->friction && set->fr.mu_roll > 0.0 ? "constant-torque" : "none";
    return mb_json_set_str(model, "normal_law", linear ? "linear" : "hertz")
           || mb_json_set_bool(model, "clamped", !set->attractive)
           || set_num_or_null(model, "zeta", zeta)
           || (!linear && mb_json_set_num(model, "estar", set->hz.estar))
           || mb_json_set_str(model, "tangential_law", tangential)
           || mb_json_set_str(model, "rolling_law", rolling);
}

/* The law's own parameters, from which each pair's coefficients follow (neighbour mode,
 * where the pairs are not listed): linear kn and the dashpot c (null when it is the ratio
 * zeta: c = 2 zeta sqrt(m* kn) per pair); Hertz E* and zeta are the laws' fields. */
static int describe_parameters(const struct contact_set *set, json_t *model)
{
    if (set->normal != CONTACT_NORMAL_LINEAR)
        return MB_SUCCESS;
    return mb_json_set_num(model, "kn", set->lin.kn)
           || set_num_or_null(model, "c", set->lin.dashpot == MB_DASHPOT_RATIO ? NAN : set->lin.c)
           ? MB_ENOMEM : MB_SUCCESS;
}

/* "contact-linear" -> "granular-linear" and so on: the model of every pair of spheres */
static int describe_name(const struct contact_set *set, json_t *model)
{
    char name[64];
    const char *law = set->type->name + strlen("contact-");
    if (set->nl == NULL)
        return mb_json_set_str(model, "model", set->type->name);
    snprintf(name, sizeof name, "granular-%s", law);
    return mb_json_set_str(model, "model", name) || describe_parameters(set, model)
           || mb_neighbour_describe(set->nl, model) != MB_SUCCESS;
}

int mb_contact_set_describe(const void *params, json_t *model)
{
    const struct contact_set *set = params;
    json_t *list = json_array();
    if (list == NULL || json_object_set_new(model, "pairs", list) != 0
        || describe_name(set, model)
        || mb_json_set_bool(model, "attractive", set->attractive) || describe_laws(set, model))
        return MB_ENOMEM;
    if (set->friction
        && (mb_json_set_num(model, "mu", set->fr.mu)
            || mb_json_set_num(model, "kt_ratio", set->fr.kt_ratio)
            || mb_json_set_num(model, "zeta_t", set->fr.zeta_t)
            || mb_json_set_num(model, "mu_roll", set->fr.mu_roll)))
        return MB_ENOMEM;
    /* neighbour mode: the walls only; the sphere pairs are every pair of spheres */
    size_t listed = set->nl ? set->nwalls : set->count;
    for (size_t m = 0; m < listed; m++)
        if (describe_pair(set, &set->items[m], list) != MB_SUCCESS)
            return MB_ENOMEM;
    return MB_SUCCESS;
}

/* delta and rate of pair m when it is in contact (delta > 0); 0 otherwise */
static int in_contact(const struct contact_set *set, size_t m, const mb_nodes *s,
                      double *delta, double *rate, double n[3])
{
    return mb_contact_pair_kinematics(set, &set->items[m], s, delta, rate, n) == MB_SUCCESS
           && *delta > 0.0;
}

double mb_contact_set_potential(const struct contact_set *set, const mb_nodes *s,
                                const struct contact_law *law)
{
    if (mb_contact_set_sync(set, s) != MB_SUCCESS)
        return NAN;
    double e = 0.0, delta, rate, n[3];
    for (size_t m = 0; m < set->count; m++)
        if (in_contact(set, m, s, &delta, &rate, n))
            e += law->energy(&set->items[m], delta);
    return e;
}

double mb_contact_set_dissipation(const struct contact_set *set, const mb_nodes *s,
                                  const struct contact_law *law)
{
    if (mb_contact_set_sync(set, s) != MB_SUCCESS)
        return NAN;
    double p = 0.0, delta, rate, n[3], fe;
    for (size_t m = 0; m < set->count; m++) {
        if (!in_contact(set, m, s, &delta, &rate, n))
            continue;
        double f = law->force(&set->items[m], delta, rate, &fe);
        if (!set->attractive && f < 0.0)
            f = 0.0;
        p += (f - fe) * rate;
    }
    return p;
}

void mb_contact_set_stiffness(const struct contact_set *set, const mb_nodes *s,
                              const struct contact_law *law, double *kk)
{
    if (mb_contact_set_sync(set, s) != MB_SUCCESS)
        return;
    double delta, rate, n[3];
    for (size_t m = 0; m < set->count; m++)
        if (in_contact(set, m, s, &delta, &rate, n))
            mb_contact_pair_stiffness(&set->items[m], law->tangent(&set->items[m], delta), n, kk);
}

static double node_distance(const mb_nodes *s, size_t i, size_t j)
{
    double d2 = 0.0;
    for (int a = 0; a < 3; a++)
        d2 += (s->x[3 * j + a] - s->x[3 * i + a]) * (s->x[3 * j + a] - s->x[3 * i + a]);
    return sqrt(d2);
}

void *mb_contact_sample_pairs(void *model, mb_nodes *s)
{
    if (model == NULL)
        return NULL;
    const double nrm = sqrt(0.3 * 0.3 + 0.5 * 0.5 + 0.81 * 0.81);
    const double n[3] = { 0.3 / nrm, 0.5 / nrm, 0.81 / nrm };
    double d01 = node_distance(s, 0, 1), d23 = node_distance(s, 2, 3), p[3];
    s->radius[0] = 0.47 * d01;
    s->radius[1] = 1.06 * d01 - s->radius[0];
    s->radius[2] = 0.37;
    s->radius[3] = 1.04 * d23 - s->radius[2];
    for (int a = 0; a < 3; a++)
        p[a] = s->x[6 + a] - 0.91 * s->radius[2] * n[a];
    if (mb_contact_add_spheres(model, s, 0, 1) != MB_SUCCESS
        || mb_contact_add_plane(model, s, 2, p, n) != MB_SUCCESS
        || mb_contact_add_spheres(model, s, 2, 3) != MB_SUCCESS) {
        mb_contact_set_free(model);
        return NULL;
    }
    return model;
}
