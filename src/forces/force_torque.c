/* force_torque.c -- constant external torques on every node or on one node: fixed in the
 * global frame (T) or fixed in the body frame (T~, global torque R(q) T~).  Neither has a
 * potential; the power they feed in, P = T . w (w the on-step angular velocity), is reported as
 * external power so the energy balance E_kin + E_pot + W_diss - W_ext - E_0 closes. */
#include "mb_force_torque.h"
#include "mb_forces.h"
#include "mb_force_models.h"
#include "mb_json.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>

struct torque {
    double T[3];
    int one;        /* 0: every node; 1: node `node` only */
    size_t node;
};

/* the nodes [*lo, *hi) a torque acts on in a store of n nodes; MB_EINVAL when its one
 * node is not there */
static int node_range(const struct torque *p, size_t n, size_t *lo, size_t *hi)
{
    *lo = p->one ? p->node : 0;
    *hi = p->one ? p->node + 1 : n;
    if (p->one && p->node >= n)
        MB_ERROR(MB_EINVAL, "torque on node %zu: the system has %zu nodes", p->node, n);
    return MB_SUCCESS;
}

#define BASE_DOUBLE
#include "templates_on.h"
#include "quat_source.c"
#include "force_torque_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "quat_source.c"
#include "force_torque_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* P = sum T . w_i */
static double torque_power(const void *params, const mb_nodes *s, double t)
{
    const struct torque *p = params;
    double P = 0.0;
    size_t lo, hi;
    (void)t;
    if (node_range(p, s->n, &lo, &hi) != MB_SUCCESS)
        return NAN;
    for (size_t i = lo; i < hi; i++)
        P += mb_v3_dot(p->T, &s->omega[3 * i]);
    return P;
}

/* P = sum (R(q_i) T~) . w_i */
static double body_torque_power(const void *params, const mb_nodes *s, double t)
{
    const struct torque *p = params;
    double P = 0.0, Tg[3];
    size_t lo, hi;
    (void)t;
    if (node_range(p, s->n, &lo, &hi) != MB_SUCCESS)
        return NAN;
    for (size_t i = lo; i < hi; i++) {
        mb_q_rotate(Tg, &s->q[4 * i], p->T);
        P += mb_v3_dot(Tg, &s->omega[3 * i]);
    }
    return P;
}

/* {"model": "torque", "nodes": "all" | [i], "frame": FRAME, "torque": [Tx, Ty, Tz]} */
static int describe_in(const struct torque *p, const char *frame, json_t *model)
{
    if (mb_json_set_str(model, "model", "torque"))
        return MB_ENOMEM;
    json_t *nodes = p->one ? json_pack("[I]", (json_int_t)p->node) : json_string("all");
    if (nodes == NULL || json_object_set_new(model, "nodes", nodes) != 0)
        return MB_ENOMEM;
    return mb_json_set_str(model, "frame", frame) || mb_json_set_vec(model, "torque", p->T, 3)
           ? MB_ENOMEM : MB_SUCCESS;
}

static int torque_describe(const void *params, json_t *model)
{
    return describe_in(params, "global", model);
}

static int body_torque_describe(const void *params, json_t *model)
{
    return describe_in(params, "body", model);
}

static const mb_force_type torque_type = {
    .name = "torque",
    .eval = torque_eval,
    .eval_mpfr = torque_mpfr_eval,
    .external_power = torque_power,
    .free = free,
    .describe = torque_describe,
};

static const mb_force_type body_torque_type = {
    .name = "body-torque",
    .eval = body_torque_eval,
    .eval_mpfr = body_torque_mpfr_eval,
    .external_power = body_torque_power,
    .free = free,
    .describe = body_torque_describe,
};

const mb_force_type *const mb_force_torque = &torque_type;
const mb_force_type *const mb_force_body_torque = &body_torque_type;

static void *torque_new(int one, size_t node, const double T[3])
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(T[k]))
            MB_ERROR_NULL(MB_EDOM, "torque component %d is not finite", k);
    struct torque *p = malloc(sizeof *p);
    if (p == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    p->T[0] = T[0]; p->T[1] = T[1]; p->T[2] = T[2];
    p->one = one;
    p->node = node;
    return p;
}

void *mb_torque_new(const double T[3]) { return torque_new(0, 0, T); }
void *mb_body_torque_new(const double Tbody[3]) { return torque_new(0, 0, Tbody); }
void *mb_torque_node_new(size_t node, const double T[3]) { return torque_new(1, node, T); }
void *mb_body_torque_node_new(size_t node, const double Tbody[3]) { return torque_new(1, node, Tbody); }

/* registry samples (mb_force_models.h): a torque on every node, a body-frame torque on
 * node 3 */
void *mb_force_sample_torque(mb_nodes *s)
{
    (void)s;
    return mb_torque_new((const double[]){ 0.21, -0.73, 0.48 });
}

void *mb_force_sample_body_torque(mb_nodes *s)
{
    (void)s;
    return mb_body_torque_node_new(3, (const double[]){ -0.39, 0.17, 0.66 });
}
