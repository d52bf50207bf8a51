/* force_central.c -- inverse-square central attraction towards the origin (Kepler):
 *   f_i = -mu m_i x_i / |x_i|^3,   V = -sum mu m_i / |x_i|,
 *   df_i/dx_i = -mu m_i (I / r^3 - 3 x_i x_i^T / r^5).
 * A node at the origin is an error (MB_EDIVERGED), never a silent Inf. */
#include "mb_force_central.h"
#include "mb_forces.h"
#include "mb_force_models.h"
#include "mb_json.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>

struct central { double mu; };

#define BASE_DOUBLE
#include "templates_on.h"
#include "force_central_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "force_central_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* V = -sum mu m_i / r_i */
static double central_potential(const void *params, const mb_nodes *s)
{
    const struct central *p = params;
    double e = 0.0;
    for (size_t i = 0; i < s->n; i++)
        e -= p->mu * s->mass[i] / mb_v3_norm(&s->x[3 * i]);
    return e;
}

/* radial stiffness |dF/dr| = 2 mu m / r^3 put on every axis (a bound for dt estimates) */
static void central_stiffness(const void *params, const mb_nodes *s, double *k)
{
    const struct central *p = params;
    for (size_t i = 0; i < s->n; i++) {
        double r = mb_v3_norm(&s->x[3 * i]);
        for (int a = 0; a < 3; a++)
            k[3 * i + a] += 2.0 * p->mu * s->mass[i] / (r * r * r);
    }
}

/* {"model": "central", "mu": mu, "centre": [0, 0, 0]} */
static int central_describe(const void *params, json_t *model)
{
    const struct central *p = params;
    static const double origin[3] = { 0.0, 0.0, 0.0 };
    return mb_json_set_str(model, "model", "central") || mb_json_set_num(model, "mu", p->mu)
           || mb_json_set_vec(model, "centre", origin, 3) ? MB_ENOMEM : MB_SUCCESS;
}

static const mb_force_type central_type = {
    .name = "central",
    .eval = central_eval,
    .eval_mpfr = central_mpfr_eval,
    .potential = central_potential,
    .jacobian = central_jacobian,
    .jacobian_mpfr = central_mpfr_jacobian,
    .stiffness = central_stiffness,
    .free = free,
    .describe = central_describe,
    .torque_free = 1,
};

const mb_force_type *const mb_force_central = &central_type;

void *mb_central_new(double mu)
{
    if (!(mu > 0.0) || !isfinite(mu))
        MB_ERROR_NULL(MB_EDOM, "central force: mu = %g must be finite and > 0", mu);
    struct central *p = malloc(sizeof *p);
    if (p == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    p->mu = mu;
    return p;
}

/* registry sample (mb_force_models.h) */
void *mb_force_sample_central(mb_nodes *s)
{
    (void)s;
    return mb_central_new(1.37);
}
