/* force_expr.c -- expression-valued force and torque on one node (mb_force_expr.h).
 * libmatheval evaluates each expression tree with the named variables bound; the
 * Jacobian blocks d f_a / d x_b and d f_a / d v_b are the symbolic derivatives, made
 * once at construction.
 *
 * A potential V(x, y, z, R) that uses the entries of R is the potential of the torque
 * too: under a small rotation dtheta (global axes) of the body, R -> R + [dtheta]x R, so
 * column j of R moves by dtheta x R_j and dV = sum_j G_j . (dtheta x R_j), with G_ij =
 * dV/dr_ij (symbolic); hence the torque tau = -dV/dtheta = sum_j G_j x R_j.  For the heavy
 * top, V = m g l r33 gives tau = m g l (-r23, r13, 0). */
#include "mb_force_expr.h"
#include "mb_force_models.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <matheval.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { NVARS = 19 };
static const char *const var_names[NVARS + 1] = {
    "t", "x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz",
    "r11", "r12", "r13", "r21", "r22", "r23", "r31", "r32", "r33", NULL
};
static const char *const pos_names[3] = { "x", "y", "z" }, *const vel_names[3] = { "vx", "vy", "vz" };

/* libmatheval's parser (flex/bison) and its symbol tables are not re-entrant: creation,
 * derivation, variable listing and destruction are serialised; evaluation touches only
 * the evaluator's own tree and runs unlocked (one evaluator per system, per run). */
static pthread_mutex_t parser_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_handlers = PTHREAD_ONCE_INIT;

/* A fork (a plug-in run's child, src/runner/run_forked.c) waits until no other thread is
 * inside the parser, so that the child's copy of the lock and of libmatheval's tables is
 * consistent; both processes then release it. */
static void parser_take(void) { pthread_mutex_lock(&parser_lock); }
static void parser_give(void) { pthread_mutex_unlock(&parser_lock); }
static void register_fork_handlers(void) { pthread_atfork(parser_take, parser_give, parser_give); }

static void lock_parser(void)
{
    pthread_once(&fork_handlers, register_fork_handlers);
    pthread_mutex_lock(&parser_lock);
}

struct expr_force {
    size_t node;
    void *f[3], *tau[3], *V;
    void *dfdx[3][3], *dfdv[3][3];  /* NULL where f_a is NULL */
    void *gradV[3];
    void *dVdR[9];                  /* dV/dr_ij, row-major; NULL without V */
    int V_orientation;              /* V uses an r entry: it is the torque's potential */
    int jacobian_uses_t;            /* a derivative depends on t: .jacobian refuses, and
                                     * .eval_jacobian (which has the time) takes it */
};

const char *const *mb_expr_variables(void) { return var_names; }

static int allowed_name(const char *name, const char *const *allowed)
{
    for (; *allowed; allowed++)
        if (strcmp(*allowed, name) == 0)
            return 1;
    return 0;
}

void *mb_expr_parse(const char *text, const char *const *allowed)
{
    char *copy = strdup(text);
    if (copy == NULL) {
        mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
        return NULL;
    }
    lock_parser();
    void *e = evaluator_create(copy);
    char **names = NULL;
    int count = 0;
    if (e != NULL)
        evaluator_get_variables(e, &names, &count);
    const char *unknown = NULL;
    for (int k = 0; k < count && unknown == NULL; k++)
        if (!allowed_name(names[k], allowed))
            unknown = names[k];
    if (e == NULL)
        mb_error_record(MB_EINVAL, __FILE__, __LINE__, "expression '%s' does not parse", text);
    else if (unknown != NULL)
        mb_error_record(MB_EINVAL, __FILE__, __LINE__, "expression '%s' uses the unknown "
                        "variable '%s'", text, unknown);
    if (e != NULL && unknown != NULL) {
        evaluator_destroy(e);
        e = NULL;
    }
    parser_give();
    free(copy);
    return e;
}

void mb_expr_free(void *expr)
{
    if (expr == NULL)
        return;
    lock_parser();
    evaluator_destroy(expr);
    parser_give();
}

static void *derivative(void *e, const char *name)
{
    if (e == NULL)
        return NULL;
    lock_parser();
    void *d = evaluator_derivative(e, (char *)name);
    parser_give();
    return d;
}

/* 1 when e uses a variable whose name starts with prefix ("t": exactly t) */
static int uses(void *e, const char *prefix)
{
    char **names = NULL;
    int count = 0;
    int found = 0;
    if (e == NULL)
        return 0;
    lock_parser();
    evaluator_get_variables(e, &names, &count);
    for (int k = 0; k < count; k++)
        found |= strcmp(prefix, "t") == 0 ? strcmp(names[k], "t") == 0
                                          : strncmp(names[k], prefix, strlen(prefix)) == 0;
    parser_give();
    return found;
}

static int uses_t(void *e) { return uses(e, "t"); }

static void expr_free(void *params)
{
    struct expr_force *p = params;
    if (p == NULL)
        return;
    for (int a = 0; a < 3; a++) {
        mb_expr_free(p->f[a]);
        mb_expr_free(p->tau[a]);
        mb_expr_free(p->gradV[a]);
        for (int b = 0; b < 3; b++)
            mb_expr_free(p->dVdR[3 * a + b]);
        for (int b = 0; b < 3; b++) {
            mb_expr_free(p->dfdx[a][b]);
            mb_expr_free(p->dfdv[a][b]);
        }
    }
    mb_expr_free(p->V);
    free(p);
}

void *mb_expr_force_new(size_t node, void *f[3], void *tau[3], void *V)
{
    struct expr_force *p = calloc(1, sizeof *p);
    if (p == NULL) {
        for (int a = 0; a < 3; a++) {
            mb_expr_free(f[a]);
            mb_expr_free(tau[a]);
        }
        mb_expr_free(V);
        mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
        return NULL;
    }
    p->node = node;
    p->V = V;
    int ok = 1;
    for (int a = 0; a < 3; a++) {
        p->f[a] = f[a];
        p->tau[a] = tau[a];
        for (int b = 0; b < 3; b++) {
            p->dfdx[a][b] = derivative(f[a], pos_names[b]);
            p->dfdv[a][b] = derivative(f[a], vel_names[b]);
            ok &= f[a] == NULL || (p->dfdx[a][b] != NULL && p->dfdv[a][b] != NULL);
            p->jacobian_uses_t |= uses_t(p->dfdx[a][b]) | uses_t(p->dfdv[a][b]);
        }
        p->gradV[a] = derivative(V, pos_names[a]);
        ok &= V == NULL || p->gradV[a] != NULL;
    }
    for (int k = 0; k < 9; k++) {
        p->dVdR[k] = derivative(V, var_names[10 + k]);
        ok &= V == NULL || p->dVdR[k] != NULL;
    }
    p->V_orientation = uses(V, "r");
    if (!ok) {
        expr_free(p);
        mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "expression force: derivative failed");
        return NULL;
    }
    return p;
}

/* the values of var_names for node i at time t */
static void bind(const mb_nodes *s, size_t i, double t, double v[NVARS])
{
    double R[9];
    v[0] = t;
    for (int d = 0; d < 3; d++) {
        v[1 + d] = s->x[3 * i + d];
        v[4 + d] = s->v[3 * i + d];
        v[7 + d] = s->omega[3 * i + d];
    }
    mb_q_to_mat(R, &s->q[4 * i]);
    memcpy(v + 10, R, sizeof R);
}

static double value(void *e, double *vars)
{
    return e == NULL ? 0.0 : evaluator_evaluate(e, NVARS, (char **)var_names, vars);
}

/* f and torque of the node += the expressions at the bound variables */
static void add_loads(const struct expr_force *p, mb_nodes *s, double *vars)
{
    for (int a = 0; a < 3; a++) {
        s->f[3 * p->node + a] += value(p->f[a], vars);
        s->torque[3 * p->node + a] += value(p->tau[a], vars);
    }
}

static int expr_eval(const void *params, mb_nodes *s, double t)
{
    const struct expr_force *p = params;
    double vars[NVARS];
    bind(s, p->node, t, vars);
    add_loads(p, s, vars);
    return MB_SUCCESS;
}

static double expr_potential(const void *params, const mb_nodes *s)
{
    const struct expr_force *p = params;
    double vars[NVARS];
    bind(s, p->node, 0.0, vars);
    return value(p->V, vars);
}

/* without a potential every bit of f.v + tau.w is external work; a potential of
 * position takes f.v, one that also uses R takes tau.w too */
static double expr_external_power(const void *params, const mb_nodes *s, double t)
{
    const struct expr_force *p = params;
    double vars[NVARS], P = 0.0;
    bind(s, p->node, t, vars);
    for (int a = 0; a < 3; a++) {
        if (p->V == NULL)
            P += value(p->f[a], vars) * vars[4 + a];
        if (!p->V_orientation)
            P += value(p->tau[a], vars) * vars[7 + a];
    }
    return P;
}

/* the symbolic derivatives at the bound variables into a new block of J */
static int append_derivatives(const struct expr_force *p, double *vars, mb_jacobian *J)
{
    long b = mb_jacobian_add_block(J, p->node, p->node);
    if (b < 0)
        return MB_ENOMEM;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            J->dfdx[9 * b + 3 * r + c] = value(p->dfdx[r][c], vars);
            J->dfdv[9 * b + 3 * r + c] = value(p->dfdv[r][c], vars);
        }
    return MB_SUCCESS;
}

/* The Jacobian alone has no time: refused when a derivative depends on t. */
static int expr_jacobian(const void *params, const mb_nodes *s, mb_jacobian *J)
{
    const struct expr_force *p = params;
    double vars[NVARS];
    if (p->jacobian_uses_t)
        MB_ERROR(MB_EUNSUP, "expression force on node %zu: df/dx or df/dv depends on t, and "
                 "this scheme evaluates Jacobians without a time (use implicit-euler, "
                 "implicit-euler-newton or an explicit scheme)", p->node);
    bind(s, p->node, 0.0, vars);
    return append_derivatives(p, vars, J);
}

/* Forces and Jacobian at one state and time t (mb_forces_eval_jacobian): derivatives
 * that depend on t are taken at that t. */
static int expr_eval_jacobian(const void *params, mb_nodes *s, double t, mb_jacobian *J)
{
    const struct expr_force *p = params;
    double vars[NVARS];
    bind(s, p->node, t, vars);
    add_loads(p, s, vars);
    return append_derivatives(p, vars, J);
}

double mb_expr_force_check(const void *model, const mb_nodes *s, double t)
{
    const struct expr_force *p = model;
    double vars[NVARS], worst = 0.0;
    bind(s, p->node, t, vars);
    for (int a = 0; a < 3; a++) {
        double f = value(p->f[a], vars), g = value(p->gradV[a], vars);
        worst = fmax(worst, fabs(f + g) / fmax(1.0, fmax(fabs(f), fabs(g))));
    }
    return worst;
}

int mb_expr_force_potential_turns(const void *model)
{
    return ((const struct expr_force *)model)->V_orientation;
}

/* tau = sum_j G_j x R_j, G_ij = dV/dr_ij: -dV/dtheta (see the head of the file) */
static void potential_torque(const struct expr_force *p, double *vars, double tau[3])
{
    const double *R = vars + 10;
    tau[0] = tau[1] = tau[2] = 0.0;
    for (int j = 0; j < 3; j++) {
        double G[3] = { value(p->dVdR[j], vars), value(p->dVdR[3 + j], vars),
                        value(p->dVdR[6 + j], vars) };
        double Rj[3] = { R[j], R[3 + j], R[6 + j] }, c[3];
        mb_v3_cross(c, G, Rj);
        mb_v3_add(tau, tau, c);
    }
}

double mb_expr_torque_check(const void *model, const mb_nodes *s, double t, double tau[3],
                            double tau_V[3])
{
    const struct expr_force *p = model;
    double vars[NVARS], worst = 0.0;
    bind(s, p->node, t, vars);
    potential_torque(p, vars, tau_V);
    for (int a = 0; a < 3; a++) {
        tau[a] = value(p->tau[a], vars);
        worst = fmax(worst, fabs(tau[a] - tau_V[a])
                            / fmax(1.0, fmax(fabs(tau[a]), fabs(tau_V[a]))));
    }
    return worst;
}

static const mb_force_type expr_type = {
    .name = "expression",
    .eval = expr_eval,
    .eval_mpfr = NULL,
    .potential = expr_potential,
    .dissipation = NULL,
    .external_power = expr_external_power,
    .jacobian = expr_jacobian,
    .jacobian_mpfr = NULL,
    .eval_jacobian = expr_eval_jacobian,
    .stiffness = NULL,
    .free = expr_free,
};
const mb_force_type *const mb_force_expr = &expr_type;

/* Registry sample (mb_force_models.h): on node 1, f = -grad V with
 * V = 1.55 x^2 - 0.4 x y^2 + 0.7 sin z, and a torque of orientation and spin (external). */
void *mb_force_sample_expr(mb_nodes *s)
{
    static const char *const text[7] = { "-3.1*x + 0.4*y^2", "0.8*x*y", "-0.7*cos(z)",
                                         "0.2*r12 - 0.1*wz", "0.05 + 0.3*r31", "0.13*wx*wy",
                                         "1.55*x^2 - 0.4*x*y^2 + 0.7*sin(z)" };
    void *e[7];
    (void)s;
    for (int k = 0; k < 7; k++)
        if ((e[k] = mb_expr_parse(text[k], var_names)) == NULL) {
            while (k-- > 0)
                mb_expr_free(e[k]);
            return NULL;
        }
    return mb_expr_force_new(1, e, e + 3, e[6]);
}
