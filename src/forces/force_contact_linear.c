/* force_contact_linear.c -- linear spring-dashpot normal contact between spheres and
 * against planes (Cundall & Strack 1979):
 *     F = kn delta + c delta',   delta > 0,   F clamped to >= 0 (mb_contact.h)
 * with c given directly or from a damping ratio, c = 2 zeta sqrt(m* kn).
 * Elastic energy 1/2 kn delta^2; dashpot power (F - kn delta) delta'. */
#include "contact_set.h"
#include "mb_force_models.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>

#define BASE_DOUBLE
#include "templates_on.h"
#include "contact_geometry_source.c"
#include "force_contact_linear_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "contact_geometry_source.c"
#include "force_contact_linear_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* Magnitude of the force of one pair in contact, and its elastic part. */
static double linear_force(const struct contact_set *set, const struct contact_pair *cp,
                           double delta, double rate, double *elastic)
{
    double fe = cp->k * delta, f = fe + cp->c * rate;
    *elastic = fe;
    return (!set->attractive && f < 0.0) ? 0.0 : f;
}

/* V = sum over contacts of 1/2 kn delta^2 */
static double linear_potential(const void *params, const mb_nodes *s)
{
    const struct contact_set *set = params;
    double e = 0.0, delta, rate, n[3];
    for (size_t m = 0; m < set->count; m++)
        if (mb_contact_pair_kinematics(&set->items[m], s, &delta, &rate, n) == MB_SUCCESS
            && delta > 0.0)
            e += 0.5 * set->items[m].k * delta * delta;
    return e;
}

/* P = sum (F - kn delta) delta' >= 0: the dashpot's power, plus, while clamped, the
 * release of the elastic energy that no force carries away. */
static double linear_dissipation(const void *params, const mb_nodes *s)
{
    const struct contact_set *set = params;
    double p = 0.0, delta, rate, n[3], fe;
    for (size_t m = 0; m < set->count; m++) {
        if (mb_contact_pair_kinematics(&set->items[m], s, &delta, &rate, n) != MB_SUCCESS
            || delta <= 0.0)
            continue;
        double f = linear_force(set, &set->items[m], delta, rate, &fe);
        p += (f - fe) * rate;
    }
    return p;
}

/* kn |n_a| sum_b |n_b| on both nodes of every pair in contact (the row sum of kn n n^T;
 * Woo's DynDt sums the diagonal kn n_a^2, see mb_timestep.h). */
static void linear_stiffness(const void *params, const mb_nodes *s, double *kk)
{
    const struct contact_set *set = params;
    double delta, rate, n[3];
    for (size_t m = 0; m < set->count; m++)
        if (mb_contact_pair_kinematics(&set->items[m], s, &delta, &rate, n) == MB_SUCCESS
            && delta > 0.0)
            mb_contact_pair_stiffness(&set->items[m], set->items[m].k, n, kk);
}

static const mb_force_type contact_linear_type = {
    .name = "contact-linear",
    .eval = contact_linear_eval,
    .eval_mpfr = contact_linear_mpfr_eval,
    .potential = linear_potential,
    .dissipation = linear_dissipation,
    .jacobian = contact_linear_jacobian,
    .jacobian_mpfr = contact_linear_mpfr_jacobian,
    .stiffness = linear_stiffness,
    .free = mb_contact_set_free,
    .describe = mb_contact_set_describe,
    .torque_free = 1,
};

const mb_force_type *const mb_force_contact_linear = &contact_linear_type;

/* registry sample (mb_force_models.h): the pairs of mb_contact_sample_pairs, stiff enough
 * that the dashpot never pulls (no clamp acts) */
void *mb_force_sample_contact_linear(mb_nodes *s)
{
    const mb_contact_linear_params p = { .kn = 2.3e3, .dashpot = MB_DASHPOT_RATIO, .zeta = 0.11 };
    return mb_contact_sample_pairs(mb_contact_linear_new(&p), s);
}
