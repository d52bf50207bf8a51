/* force_constant.c -- a constant external force on one node, fixed in the global frame (F)
 * or in the node's body frame (F~, global force R(q) F~), acting at the centre of mass.
 * The power it feeds in, P = f . v, is reported as external power so the energy balance
 * E_kin + E_pot + W_diss - W_ext - E_0 closes (mb_force_constant.h); the global force's
 * work is also known exactly, F.(x(t) - x(0)), and reported per step (external_work). */
#include "mb_force_constant.h"
#include "mb_forces.h"
#include "mb_force_models.h"
#include "mb_json.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>

struct constant_force {
    double F[3];
    size_t node;
};

/* MB_EINVAL when the force's node is not in a store of n nodes */
static int check_node(const struct constant_force *p, size_t n)
{
    if (p->node >= n)
        MB_ERROR(MB_EINVAL, "force on node %zu: the system has %zu nodes", p->node, n);
    return MB_SUCCESS;
}

#define BASE_DOUBLE
#include "templates_on.h"
#include "quat_source.c"
#include "force_constant_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "quat_source.c"
#include "force_constant_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* P = F . v_i */
static double constant_force_power(const void *params, const mb_nodes *s, double t)
{
    const struct constant_force *p = params;
    (void)t;
    return check_node(p, s->n) == MB_SUCCESS ? mb_v3_dot(p->F, &s->v[3 * p->node]) : NAN;
}

/* The work over a step, exactly: the global force has the potential -F.x, so
 * W = F.(x_i(t+h) - x_i(t)) and the steps sum to F.(x_i(t) - x_i(0)). */
static double constant_force_work(const void *params, const mb_nodes *from, const mb_nodes *to,
                                  double h)
{
    const struct constant_force *p = params;
    (void)h;
    if (check_node(p, to->n) != MB_SUCCESS)
        return NAN;
    const double *x0 = &from->x[3 * p->node], *x1 = &to->x[3 * p->node];
    double dx[3] = { x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2] };
    return mb_v3_dot(p->F, dx);
}

/* P = (R(q_i) F~) . v_i */
static double body_force_power(const void *params, const mb_nodes *s, double t)
{
    const struct constant_force *p = params;
    double Fg[3];
    (void)t;
    if (check_node(p, s->n) != MB_SUCCESS)
        return NAN;
    mb_q_rotate(Fg, &s->q[4 * p->node], p->F);
    return mb_v3_dot(Fg, &s->v[3 * p->node]);
}

/* {"model": "force", "nodes": [i], "frame": FRAME, "force": [Fx, Fy, Fz]} */
static int describe_in(const struct constant_force *p, const char *frame, json_t *model)
{
    json_t *nodes = json_pack("[I]", (json_int_t)p->node);
    if (mb_json_set_str(model, "model", "force") || nodes == NULL
        || json_object_set_new(model, "nodes", nodes) != 0)
        return MB_ENOMEM;
    return mb_json_set_str(model, "frame", frame) || mb_json_set_vec(model, "force", p->F, 3)
           ? MB_ENOMEM : MB_SUCCESS;
}

static int constant_force_describe(const void *params, json_t *model)
{
    return describe_in(params, "global", model);
}

static int body_force_describe(const void *params, json_t *model)
{
    return describe_in(params, "body", model);
}

static const mb_force_type constant_force_type = {
    .name = "force",
    .eval = constant_force_eval,
    .eval_mpfr = constant_force_mpfr_eval,
    .external_power = constant_force_power,
    .external_work = constant_force_work,
    .free = free,
    .describe = constant_force_describe,
    .torque_free = 1,
};

static const mb_force_type body_force_type = {
    .name = "body-force",
    .eval = body_force_eval,
    .eval_mpfr = body_force_mpfr_eval,
    .external_power = body_force_power,
    .free = free,
    .describe = body_force_describe,
    .torque_free = 1,
};

const mb_force_type *const mb_force_constant = &constant_force_type;
const mb_force_type *const mb_force_body_force = &body_force_type;

static void *force_new(size_t node, const double F[3])
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(F[k]))
            MB_ERROR_NULL(MB_EDOM, "force component %d is not finite", k);
    struct constant_force *p = malloc(sizeof *p);
    if (p == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    p->F[0] = F[0]; p->F[1] = F[1]; p->F[2] = F[2];
    p->node = node;
    return p;
}

void *mb_constant_force_new(size_t node, const double F[3]) { return force_new(node, F); }
void *mb_body_force_new(size_t node, const double Fbody[3]) { return force_new(node, Fbody); }

/* registry samples (mb_force_models.h): a force on node 1, a body-frame force on node 2 */
void *mb_force_sample_constant(mb_nodes *s)
{
    (void)s;
    return mb_constant_force_new(1, (const double[]){ 0.3, -1.2, 0.77 });
}

void *mb_force_sample_body_force(mb_nodes *s)
{
    (void)s;
    return mb_body_force_new(2, (const double[]){ -0.45, 0.61, 1.3 });
}
