/* force_contact_hertz.c -- Hertz normal contact between spheres and against planes
 * (Hertz 1882; Johnson, Contact Mechanics, 1985, eq. 4.22):
 *     F = (4/3) E* sqrt(R*) delta^{3/2} = K delta^{3/2}
 * with the optional velocity-independent-restitution dashpot of Tsuji et al. (1992):
 *     F += C delta^{1/4} delta',   C = 2 zeta sqrt((3/2) K m*),
 * i.e. c(delta) = 2 zeta sqrt(m* k_t) with the tangent stiffness k_t = (3/2) K delta^{1/2}.
 * F is clamped to >= 0 (mb_contact.h).  Elastic energy (2/5) K delta^{5/2}. */
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
#include "force_contact_hertz_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "contact_geometry_source.c"
#include "contact_law_source.c"
#include "contact_normal_source.c"
#include "force_contact_hertz_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* The law in double (contact_set.h): energy (2/5) K delta^{5/2}, force
 * K delta^{3/2} + C delta^{1/4} delta' with its elastic part K delta^{3/2}, tangent
 * stiffness (3/2) K delta^{1/2}. */
static double hertz_energy(const struct contact_pair *cp, double delta)
{
    return 0.4 * cp->k * delta * delta * sqrt(delta);
}

static double hertz_force(const struct contact_pair *cp, double delta, double rate,
                          double *elastic)
{
    double sq = sqrt(delta), fe = cp->k * (delta * sq), f = fe;
    if (cp->c != 0.0)
        f += cp->c * (sqrt(sq) * rate);
    *elastic = fe;
    return f;
}

static double hertz_tangent(const struct contact_pair *cp, double delta)
{
    return 1.5 * cp->k * sqrt(delta);
}

const struct contact_law mb_contact_law_hertz = { hertz_energy, hertz_force, hertz_tangent };

static double hertz_potential(const void *params, const mb_nodes *s)
{
    return mb_contact_set_potential(params, s, &mb_contact_law_hertz);
}

static double hertz_dissipation(const void *params, const mb_nodes *s)
{
    return mb_contact_set_dissipation(params, s, &mb_contact_law_hertz);
}

static void hertz_stiffness(const void *params, const mb_nodes *s, double *kk)
{
    mb_contact_set_stiffness(params, s, &mb_contact_law_hertz, kk);
}

static const mb_force_type contact_hertz_type = {
    .name = "contact-hertz",
    .eval = contact_hertz_eval,
    .eval_mpfr = contact_hertz_mpfr_eval,
    .potential = hertz_potential,
    .dissipation = hertz_dissipation,
    .jacobian = contact_hertz_jacobian,
    .jacobian_mpfr = contact_hertz_mpfr_jacobian,
    .stiffness = hertz_stiffness,
    .free = mb_contact_set_free,
    .describe = mb_contact_set_describe,
    .periodic = mb_contact_set_periodic,
    .torque_free = 1,
};

const mb_force_type *const mb_force_contact_hertz = &contact_hertz_type;

/* registry sample (mb_force_models.h), as for the linear law */
void *mb_force_sample_contact_hertz(mb_nodes *s)
{
    const mb_contact_hertz_params p = { .estar = 5.3e3, .zeta = 0.12 };
    return mb_contact_sample_pairs(mb_contact_hertz_new(&p), s);
}
