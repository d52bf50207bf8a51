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
#include "contact_law_source.c"
#include "contact_normal_source.c"
#include "force_contact_linear_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "contact_geometry_source.c"
#include "contact_law_source.c"
#include "contact_normal_source.c"
#include "force_contact_linear_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* The law in double (contact_set.h): energy 1/2 kn delta^2, force kn delta + c delta'
 * with its elastic part kn delta, tangent stiffness kn -- the row sum kn |n_a| sum_b |n_b|
 * of kn n n^T on both nodes (Woo's DynDt sums the diagonal kn n_a^2, see mb_timestep.h). */
static double linear_energy(const struct contact_pair *cp, double delta)
{
    return 0.5 * cp->k * delta * delta;
}

static double linear_force(const struct contact_pair *cp, double delta, double rate,
                           double *elastic)
{
    double fe = cp->k * delta;
    *elastic = fe;
    return fe + cp->c * rate;
}

static double linear_tangent(const struct contact_pair *cp, double delta)
{
    (void)delta;
    return cp->k;
}

const struct contact_law mb_contact_law_linear = { linear_energy, linear_force, linear_tangent };

static double linear_potential(const void *params, const mb_nodes *s)
{
    return mb_contact_set_potential(params, s, &mb_contact_law_linear);
}

static double linear_dissipation(const void *params, const mb_nodes *s)
{
    return mb_contact_set_dissipation(params, s, &mb_contact_law_linear);
}

static void linear_stiffness(const void *params, const mb_nodes *s, double *kk)
{
    mb_contact_set_stiffness(params, s, &mb_contact_law_linear, kk);
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
    .periodic = mb_contact_set_periodic,
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
