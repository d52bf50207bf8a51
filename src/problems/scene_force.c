/* scene_force.c -- [force NAME] sections of a scene (doc/scenes.md, "Forces"):
 *   type = gravity     g = gx, gy, gz                      (every body, potential -m g.x)
 *   type = drag        D = coefficient                      (every body, f = -D v)
 *   type = spring      body = A, to = B | anchor = x,y,z; k, rest, c; attach, to_attach
 *                      (attachment points in the body frames; default the centres)
 *   type = central     mu = GM                              (every body, centre at the origin)
 *   type = force       body, force = fx,fy,fz, frame = global|body
 *   type = torque      body, torque = tx,ty,tz, frame = global|body
 *   type = expression  body, fx fy fz tx ty tz (any subset), potential
 * Consecutive spring sections make one spring set (mb_scene_add_spring).
 * A constant torque or force is the torque or force model on its body's node
 * (mb_force_torque.h, mb_force_constant.h; global or body frame: R(q) T~, R(q) F~). */
#include "mb_scene_build.h"
#include "mb_scene_place.h"
#include "mb_options.h"
#include "mb_force_expr.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const force_types[] = { "gravity", "drag", "spring", "central", "force",
                                           "torque", "expression", NULL };
static const char *const gravity_keys[] = { "type", "g", NULL };
static const char *const drag_keys[] = { "type", "D", NULL };
static const char *const spring_keys[] = { "type", "body", "to", "anchor", "k", "rest", "c",
                                           "attach", "to_attach", NULL };
static const char *const central_keys[] = { "type", "mu", NULL };
static const char *const load_keys[] = { "type", "body", "force", "torque", "frame", NULL };
static const char *const expr_keys[] = { "type", "body", "fx", "fy", "fz", "tx", "ty", "tz",
                                         "potential", NULL };
static const char *const potential_vars[] = { "x", "y", "z", "r11", "r12", "r13", "r21", "r22",
                                              "r23", "r31", "r32", "r33", NULL };

static int add(const mb_scene_doc *d, const mb_scene_section *s, mb_system *sys,
               const mb_force_type *type, void *params)
{
    int st = mb_forces_add(sys->forces, type, params);
    return st == MB_SUCCESS ? st : mb_scene_fail(d, s->line, "[force %s]: %s", s->name, mb_last_error());
}

/* the status of a shared force constructor, its error at the section's line */
static int added(const mb_scene_doc *d, const mb_scene_section *s, int st)
{
    return st == MB_SUCCESS ? st : mb_scene_fail(d, s->line, "[force %s]: %s", s->name, mb_last_error());
}

static int body_of(const mb_scene_doc *d, mb_scene_section *s, size_t *i)
{
    mb_scene_entry *e = mb_scene_get(s, "body");
    if (e == NULL)
        return mb_scene_fail(d, s->line, "[force %s] needs 'body'", s->name);
    return mb_scene_body_ref(d, e, e->value, i);
}

static int read_gravity(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys)
{
    double g[3];
    int st = mb_scene_check_keys(d, s, gravity_keys);
    if (st || (st = mb_scene_req_vector(d, s, "g", g, 3)))
        return st;
    return added(d, s, mb_scene_add_gravity(sys, g));
}

static int read_drag(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys)
{
    double D;
    int st = mb_scene_check_keys(d, s, drag_keys);
    if (st || (st = mb_scene_req_double(d, s, "D", &D)))
        return st;
    if (!(D >= 0))
        return mb_scene_fail(d, mb_scene_get(s, "D")->line, "D must be >= 0");
    return added(d, s, mb_scene_add_drag(sys, D));
}

static int read_central(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys)
{
    double mu;
    int st = mb_scene_check_keys(d, s, central_keys);
    if (st || (st = mb_scene_req_double(d, s, "mu", &mu)))
        return st;
    if (!(mu > 0))
        return mb_scene_fail(d, mb_scene_get(s, "mu")->line, "mu must be > 0");
    return added(d, s, mb_scene_add_central(sys, mu));
}

static int read_spring(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys)
{
    mb_spring sp = { 0 };
    int st = mb_scene_check_keys(d, s, spring_keys);
    if (st || (st = body_of(d, s, &sp.i)) || (st = mb_scene_req_double(d, s, "k", &sp.k))
        || (st = mb_scene_opt_double(d, s, "rest", &sp.rest))
        || (st = mb_scene_opt_double(d, s, "c", &sp.c)))
        return st;
    mb_scene_entry *to = mb_scene_get(s, "to"), *anchor = mb_scene_get(s, "anchor");
    if ((to == NULL) == (anchor == NULL))
        return mb_scene_fail(d, s->line, "[force %s]: give one of 'to' (a body) and 'anchor' "
                             "(a fixed point)", s->name);
    if (to && (st = mb_scene_body_ref(d, to, to->value, &sp.j)))
        return st;
    if (to && sp.j == sp.i)
        return mb_scene_fail(d, to->line, "to = %s: a spring needs two different bodies", to->value);
    if (anchor && (st = mb_scene_vector(d, anchor, sp.anchor, 3)))
        return st;
    sp.anchored = anchor != NULL;
    mb_scene_entry *at = mb_scene_get(s, "attach"), *to_at = mb_scene_get(s, "to_attach");
    if (to_at && !to)
        return mb_scene_fail(d, to_at->line, "to_attach: the other end is an anchor, not a body");
    if ((at && (st = mb_scene_vector(d, at, sp.arm_i, 3))) || (to_at && (st = mb_scene_vector(d, to_at, sp.arm_j, 3))))
        return st;
    sp.has_arms = at != NULL || to_at != NULL;
    if (!(sp.k > 0) || !(sp.rest >= 0) || !(sp.c >= 0))
        return mb_scene_fail(d, s->line, "[force %s]: need k > 0, rest >= 0, c >= 0", s->name);
    return added(d, s, mb_scene_add_spring(sys, &sp));
}

/* parse one expression key (absent: NULL, no error) */
static int parse_expr(const mb_scene_doc *d, mb_scene_section *s, const char *key,
                      const char *const *allowed, void **out)
{
    mb_scene_entry *e = mb_scene_get(s, key);
    *out = NULL;
    if (e == NULL)
        return MB_SUCCESS;
    *out = mb_expr_parse(e->value, allowed);
    return *out ? MB_SUCCESS : mb_scene_fail(d, e->line, "%s: %s", key, mb_last_error());
}

static void free_exprs(void **e, int n)
{
    for (int k = 0; k < n; k++)
        mb_expr_free(e[k]);
}

/* The orientations at which a potential of the orientation is checked against the
 * torque: the initial one q0, then q0 turned by the rotation vectors below (quarter and
 * generic turns about each axis and a skew axis), so that a torque matching -dV/dtheta
 * only at q0, or only about some axes, is caught. */
static const double check_turns[][3] = { { 0, 0, 0 }, { 1.5707963267948966, 0, 0 },
                                         { 0, 1.5707963267948966, 0 }, { 0, 0, 1.5707963267948966 },
                                         { 0.7, -1.1, 0.4 }, { -2.3, 0.9, 1.7 } };

/* tau = -dV/dtheta at each check orientation of node i (its state restored after) */
static int check_torque_potential(const mb_scene_doc *d, mb_scene_section *s, mb_nodes *n,
                                  size_t i, const void *model)
{
    double q0[4], turn[4], tau[3], tau_V[3];
    memcpy(q0, &n->q[4 * i], sizeof q0);
    for (size_t k = 0; k < sizeof check_turns / sizeof check_turns[0]; k++) {
        mb_q_from_rotvec(turn, check_turns[k]);
        mb_q_mul(&n->q[4 * i], turn, q0);
        double mismatch = mb_expr_torque_check(model, n, 0.0, tau, tau_V);
        memcpy(&n->q[4 * i], q0, sizeof q0);
        if (mismatch > 1e-9)
            return mb_scene_fail(d, mb_scene_get(s, "potential")->line, "potential: the torque "
                                 "(%.6g, %.6g, %.6g) is not -dV/dtheta = (%.6g, %.6g, %.6g) at "
                                 "the initial orientation turned by (%g, %g, %g) (relative "
                                 "mismatch %.3g); a potential that uses r11..r33 is the "
                                 "torque's potential too", tau[0], tau[1], tau[2], tau_V[0],
                                 tau_V[1], tau_V[2], check_turns[k][0], check_turns[k][1],
                                 check_turns[k][2], mismatch);
    }
    return MB_SUCCESS;
}

/* build the model; with a potential, check f = -grad V at the initial state and, when V
 * uses the orientation, tau = -dV/dtheta at the check orientations */
static int add_expr_model(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys, size_t i,
                          void *e[7])
{
    void *model = mb_expr_force_new(i, e, e + 3, e[6]);
    if (model == NULL)
        return mb_scene_fail(d, s->line, "[force %s]: %s", s->name, mb_last_error());
    double mismatch = e[6] != NULL ? mb_expr_force_check(model, sys->nodes, 0.0) : 0.0;
    int st = MB_SUCCESS;
    if (mismatch > 1e-9)
        st = mb_scene_fail(d, mb_scene_get(s, "potential")->line, "potential: f = -grad V "
                           "does not hold at t = 0 (relative mismatch %.3g)", mismatch);
    else if (mb_expr_force_potential_turns(model))
        st = check_torque_potential(d, s, sys->nodes, i, model);
    if (st != MB_SUCCESS) {
        mb_force_expr->free(model);
        return st;
    }
    return add(d, s, sys, mb_force_expr, model);
}

static int read_expression(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys)
{
    static const char *const keys[7] = { "fx", "fy", "fz", "tx", "ty", "tz", "potential" };
    void *e[7] = { 0 };
    size_t i;
    int st = mb_scene_check_keys(d, s, expr_keys);
    if (st || (st = body_of(d, s, &i)))
        return st;
    for (int k = 0; k < 7 && st == MB_SUCCESS; k++)
        st = parse_expr(d, s, keys[k], k < 6 ? mb_expr_variables() : potential_vars, &e[k]);
    if (st != MB_SUCCESS) {
        free_exprs(e, 7);
        return st;
    }
    return add_expr_model(d, s, sys, i, e);
}

/* a constant torque or force: the torque or force model on the body's node */
static int read_load(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys, int torque)
{
    const char *key = torque ? "torque" : "force";
    mb_scene_entry *frame = mb_scene_get(s, "frame");
    double T[3];
    size_t i;
    int st = mb_scene_check_keys(d, s, load_keys);
    if (st || (st = body_of(d, s, &i)) || (st = mb_scene_req_vector(d, s, key, T, 3)))
        return st;
    if (mb_scene_get(s, torque ? "force" : "torque"))
        return mb_scene_fail(d, mb_scene_get(s, torque ? "force" : "torque")->line,
                             "type = %s takes '%s' only", key, key);
    int body = frame && strcmp(frame->value, "body") == 0;
    if (frame && !body && strcmp(frame->value, "global") != 0)
        return mb_scene_fail(d, frame->line, "frame = %s: use global or body", frame->value);
    return added(d, s, torque ? mb_scene_add_torque(sys, i, T, body) : mb_scene_add_force(sys, i, T, body));
}

int mb_scene_read_forces(const mb_scene_doc *d, mb_system *sys)
{
    for (size_t k = 0; k < d->n; k++) {
        mb_scene_section *s = &d->sec[k];
        if (strcmp(s->kind, "force") != 0)
            continue;
        mb_scene_entry *t = mb_scene_get(s, "type");
        if (t == NULL)
            return mb_scene_fail(d, s->line, "[force %s] needs 'type'", s->name);
        int st, which = -1;
        for (int m = 0; force_types[m]; m++)
            if (strcmp(force_types[m], t->value) == 0)
                which = m;
        switch (which) {
        case 0: st = read_gravity(d, s, sys); break;
        case 1: st = read_drag(d, s, sys); break;
        case 2: st = read_spring(d, s, sys); break;
        case 3: st = read_central(d, s, sys); break;
        case 4: st = read_load(d, s, sys, 0); break;
        case 5: st = read_load(d, s, sys, 1); break;
        case 6: st = read_expression(d, s, sys); break;
        default: {
            const char *hint = mb_suggest(t->value, force_types);
            st = mb_scene_fail(d, t->line, "type = %s: unknown force%s%s%s", t->value,
                               hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
        }
        }
        if (st != MB_SUCCESS)
            return st;
    }
    return MB_SUCCESS;
}
