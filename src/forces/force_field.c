/* force_field.c -- uniform gravity and linear drag, the two field forces of seed 004:
 * f(x, v) = m g - D v. */
#include "mb_forces.h"
#include "mb_force_models.h"
#include "mb_json.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>

struct gravity { double g[3]; };
struct drag { double D; };

#define BASE_DOUBLE
#include "templates_on.h"
#include "force_field_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "force_field_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* gravity_eval on a zeroed f, written rather than added (mb_force_type.eval_set):
 * f_i = +0 + m_i g on nodes of finite mass, +0 on the others.  The +0 + keeps the sign
 * that the sum gives a zero product (+0 + -0 = +0); the selection, not a branch, lets the
 * loop vectorise (m g of an infinite mass is computed and dropped). */
static int gravity_eval_set(const void *params, mb_nodes *s, double t)
{
    const struct gravity *p = params;
    const double g0 = p->g[0], g1 = p->g[1], g2 = p->g[2];
    const double *restrict m = s->mass, *restrict im = s->inv_mass;
    double *restrict f = s->f;
    (void)t;
    for (size_t i = 0; i < s->n; i++) {
        const int weighs = im[i] != 0.0;
        f[3 * i] = 0.0 + (weighs ? m[i] * g0 : 0.0);
        f[3 * i + 1] = 0.0 + (weighs ? m[i] * g1 : 0.0);
        f[3 * i + 2] = 0.0 + (weighs ? m[i] * g2 : 0.0);
    }
    return MB_SUCCESS;
}

/* gravity_eval_set's field is m_i g: a uniform acceleration g at every t. */
static void gravity_uniform_acceleration(const void *params, double t, double g[3])
{
    const struct gravity *p = params;
    (void)t;
    g[0] = p->g[0];
    g[1] = p->g[1];
    g[2] = p->g[2];
}

/* V = -sum m_i g.x_i */
static double gravity_potential(const void *params, const mb_nodes *s)
{
    const struct gravity *p = params;
    double e = 0.0;
    for (size_t i = 0; i < s->n; i++)
        if (s->inv_mass[i] != 0.0)
            e -= s->mass[i] * (p->g[0] * s->x[3 * i] + p->g[1] * s->x[3 * i + 1]
                               + p->g[2] * s->x[3 * i + 2]);
    return e;
}

/* Energy content of gravity: sum m_i |g| |x_i|, the most work gravity can do on the
 * nodes between their place and the origin (the problem's reference point).  Unlike
 * |V| it does not vanish when the nodes sit at the height of the origin: a pendulum
 * released horizontally (theta0 = pi/2) holds m g l, its V(0) is round-off. */
static double gravity_magnitude(const void *params, const mb_nodes *s)
{
    const struct gravity *p = params;
    double g = sqrt(p->g[0] * p->g[0] + p->g[1] * p->g[1] + p->g[2] * p->g[2]), e = 0.0;
    for (size_t i = 0; i < s->n; i++)
        if (s->inv_mass[i] != 0.0)
            e += s->mass[i] * g * sqrt(s->x[3 * i] * s->x[3 * i] + s->x[3 * i + 1] * s->x[3 * i + 1]
                                       + s->x[3 * i + 2] * s->x[3 * i + 2]);
    return e;
}

/* P = D |v|^2 */
static double drag_dissipation(const void *params, const mb_nodes *s)
{
    const struct drag *p = params;
    double sum = 0.0;
    for (size_t k = 0; k < 3 * s->n; k++)
        sum += s->v[k] * s->v[k];
    return p->D * sum;
}

/* {"model": "gravity", "g": [gx, gy, gz]} */
static int gravity_describe(const void *params, json_t *model)
{
    const struct gravity *p = params;
    return mb_json_set_str(model, "model", "gravity") || mb_json_set_vec(model, "g", p->g, 3)
           ? MB_ENOMEM : MB_SUCCESS;
}

/* {"model": "drag", "D": D} */
static int drag_describe(const void *params, json_t *model)
{
    const struct drag *p = params;
    return mb_json_set_str(model, "model", "drag") || mb_json_set_num(model, "D", p->D)
           ? MB_ENOMEM : MB_SUCCESS;
}

/* drag's block df_i/dv_i = -D I, df_i/dx_i = 0, the same at every node (as drag_jacobian
 * appends it) */
static void drag_diagonal_block(const void *params, double C[9], double K[9])
{
    const struct drag *p = params;
    for (int q = 0; q < 9; q++)
        C[q] = K[q] = 0.0;
    C[0] = C[4] = C[8] = -p->D;
}

static const mb_force_type gravity_type = {
    .name = "gravity",
    .eval = gravity_eval,
    .eval_mpfr = gravity_mpfr_eval,
    .potential = gravity_potential,
    .potential_magnitude = gravity_magnitude,
    .free = free,
    .describe = gravity_describe,
    .eval_set = gravity_eval_set,
    .torque_free = 1,
    .uniform_acceleration = gravity_uniform_acceleration,
};

static const mb_force_type drag_type = {
    .name = "drag",
    .eval = drag_eval,
    .eval_mpfr = drag_mpfr_eval,
    .dissipation = drag_dissipation,
    .jacobian = drag_jacobian,
    .jacobian_mpfr = drag_mpfr_jacobian,
    .diagonal_block = drag_diagonal_block,
    .free = free,
    .describe = drag_describe,
    .torque_free = 1,
};

const mb_force_type *const mb_force_gravity = &gravity_type;
const mb_force_type *const mb_force_drag = &drag_type;

void *mb_gravity_new(const double g[3])
{
    if (!isfinite(g[0]) || !isfinite(g[1]) || !isfinite(g[2]))
        MB_ERROR_NULL(MB_EDOM, "gravity: g = (%g, %g, %g) must be finite", g[0], g[1], g[2]);
    struct gravity *p = malloc(sizeof *p);
    if (p == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    p->g[0] = g[0]; p->g[1] = g[1]; p->g[2] = g[2];
    return p;
}

/* D >= 0: a negative coefficient would feed energy in */
void *mb_drag_new(double D)
{
    if (!(D >= 0.0) || !isfinite(D))
        MB_ERROR_NULL(MB_EDOM, "drag: D = %g must be finite and >= 0", D);
    struct drag *p = malloc(sizeof *p);
    if (p == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    p->D = D;
    return p;
}

/* registry samples (mb_force_models.h): g and D of no special direction or size */
void *mb_force_sample_gravity(mb_nodes *s)
{
    (void)s;
    return mb_gravity_new((const double[]){ 0.37, -9.13, 1.7 });
}

void *mb_force_sample_drag(mb_nodes *s)
{
    (void)s;
    return mb_drag_new(0.573);
}
