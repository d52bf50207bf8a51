/* test_force_models.c -- every registered force model (src/forces/force_models.def) held
 * to what it declares, on its sample: an instance on the generic store of
 * mb_force_sample_nodes (nothing aligned, no unit sizes, bodies rotated and spinning).
 *
 * Expected values come from the model's force alone, never from the part under test:
 *  - Jacobian: df/dx and df/dv against central differences of the force,
 *        D(e) = (f(q + e) - f(q - e)) / 2e,  e = 1e-5 (states of order 1).
 *    Truncation e^2/6 f''' is estimated per entry by Richardson, (D(2e) - D(e)) / 3;
 *    round-off: each force component carries an absolute error of at most ~100 u F (u =
 *    2^-53, F the largest force of the evaluations: a few dozen roundings of terms no
 *    larger than a few F, the cancellation of overlaps and stretches included), so D
 *    carries 100 u F / e.  Tolerance per entry: 4 x the truncation estimate + 256 u F / e
 *    (~3e-9 F here).  A wrong entry is off by the entry itself, of order F.  A model
 *    declaring ZERO is held to the same check against J = 0.
 *  - Potential: the force at rest (v = w = 0) against -dV/dx, and the torque at rest
 *    against -dV/dphi (phi a rotation of the body about a global axis), by the same
 *    central differences of V with the same tolerance (V's round-off 256 u |V|);
 *    DISSIPATIVE models against V = 0 (their force vanishes at rest).  The torque is not
 *    compared for a model with an external load (external_power: its torque may be one).
 *  - Power: f.v + tau.w = -dV/dt - dissipation + external power in the moving state
 *    (minus history_power, the rate of the work a history-dependent law books itself),
 *    dV/dt by central differences along x + s v, q rotated by s w -- the energy balance
 *    of the runs (mb_energy.h) in one state; catches a potential, dissipation or
 *    external power that is not the model's.
 *  - What it writes: arrays (force, torque) and nodes as declared, a constraint field
 *    refusing to evaluate.
 *  - MPFR instance (113 bits) against double: forces, torques and blocks within
 *    256 u F, the round-off of double.
 * The declarations themselves are checked against the type (a model declaring no
 * potential has none, and then a dissipation or an external power), and every model a
 * registered problem builds must be registered.  Negative controls: models with a wrong
 * Jacobian entry, a wrong potential, an undeclared torque, a force at rest declared
 * dissipative -- each fails the check it targets. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_force_models.h"
#include "mb_problem.h"
#include "mb_vec.h"

#define NN MB_FORCE_SAMPLE_NODES
#define N3 (3 * NN)

static const double U = DBL_EPSILON / 2, E = 1e-5;

/* A model's instance on its store. */
typedef struct sample {
    const mb_force_model *m;
    const mb_force_type *type;
    void *params;
    mb_nodes *s;
} sample;

static sample sample_make(const mb_force_model *m)
{
    sample k = { .m = m, .type = *m->type, .s = mb_nodes_alloc(NN, 53) };
    cr_assert_not_null(k.s);
    mb_force_sample_nodes(k.s);
    k.params = m->sample(k.s);
    cr_assert_not_null(k.params, "%s: no sample: %s", k.type->name, mb_last_error());
    return k;
}

static void sample_free(sample *k)
{
    k->type->free(k->params);
    mb_nodes_free(k->s);
}

static void clear_loads(mb_nodes *s)
{
    memset(s->f, 0, N3 * sizeof(double));
    memset(s->torque, 0, N3 * sizeof(double));
}

/* f and torque of the model alone at the current state */
static int loads(const sample *k, double *f, double *tq)
{
    clear_loads(k->s);
    int st = k->type->eval(k->params, k->s, 0.0);
    if (f)
        memcpy(f, k->s->f, N3 * sizeof(double));
    if (tq)
        memcpy(tq, k->s->torque, N3 * sizeof(double));
    return st;
}

static double max_abs(const double *a, size_t n)
{
    double m = 0.0;
    for (size_t k = 0; k < n; k++)
        m = fmax(m, fabs(a[k]));
    return m;
}

/* ---------------- Jacobian ---------------- */

static void dense_blocks(const mb_jacobian *J, double *Kx, double *Kv)
{
    memset(Kx, 0, N3 * N3 * sizeof(double));
    memset(Kv, 0, N3 * N3 * sizeof(double));
    for (size_t b = 0; b < J->count; b++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                size_t R = 3 * J->row[b] + (size_t)r, C = 3 * J->col[b] + (size_t)c;
                Kx[R * N3 + C] += J->dfdx[9 * b + 3 * r + c];
                Kv[R * N3 + C] += J->dfdv[9 * b + 3 * r + c];
            }
}

/* central difference of the force along q[c] with step h into D (N3 rows); *F grows to
 * the largest force seen */
static void force_difference(const sample *k, double *q, size_t c, double h, double *D, double *F)
{
    double fp[N3], fm[N3], save = q[c];
    q[c] = save + h;
    mb_nodes_touch(k->s);
    cr_assert_eq(loads(k, fp, NULL), MB_SUCCESS, "%s: %s", k->type->name, mb_last_error());
    q[c] = save - h;
    mb_nodes_touch(k->s);
    cr_assert_eq(loads(k, fm, NULL), MB_SUCCESS, "%s: %s", k->type->name, mb_last_error());
    q[c] = save;
    mb_nodes_touch(k->s);
    for (size_t r = 0; r < N3; r++)
        D[r] = (fp[r] - fm[r]) / (2 * h);
    *F = fmax(*F, fmax(max_abs(fp, N3), max_abs(fm, N3)));
}

/* worst |K - D| / tolerance over the columns of q (x or v) */
static double jacobian_deviation(const sample *k, double *q, const double *K)
{
    double worst = 0.0;
    for (size_t c = 0; c < N3; c++) {
        double D1[N3], D2[N3], F = 0.0;
        force_difference(k, q, c, E, D1, &F);
        force_difference(k, q, c, 2 * E, D2, &F);
        for (size_t r = 0; r < N3; r++) {
            double tol = 4 * fabs(D2[r] - D1[r]) / 3 + 256 * U * F / E + DBL_MIN;
            worst = fmax(worst, fabs(K[r * N3 + c] - D1[r]) / tol);
        }
    }
    return worst;
}

/* worst deviation of the declared Jacobian (the blocks, or zero) from the differences */
static double jacobian_check(const sample *k)
{
    double Kx[N3 * N3] = { 0 }, Kv[N3 * N3] = { 0 };
    if (k->m->jacobian == MB_FORCE_JACOBIAN_REFUSED) {
        /* no Jacobian to compare: it must be refused, with a reason */
        mb_jacobian *J = mb_jacobian_alloc(NN, 53);
        int st = k->type->jacobian(k->params, k->s, J);
        mb_jacobian_free(J);
        cr_expect_neq(st, MB_SUCCESS, "%s: declares REFUSED, its Jacobian succeeded",
                      k->type->name);
        cr_expect(strstr(mb_last_error(), k->type->name) != NULL, "%s: refusal without "
                  "the model's name: %s", k->type->name, mb_last_error());
        return 0.0;
    }
    if (k->m->jacobian == MB_FORCE_JACOBIAN_BLOCKS) {
        mb_jacobian *J = mb_jacobian_alloc(NN, 53);
        cr_assert_eq(k->type->jacobian(k->params, k->s, J), MB_SUCCESS, "%s: %s",
                     k->type->name, mb_last_error());
        dense_blocks(J, Kx, Kv);
        mb_jacobian_free(J);
    }
    return fmax(jacobian_deviation(k, k->s->x, Kx), jacobian_deviation(k, k->s->v, Kv));
}

/* ---------------- potential ---------------- */

static double potential(const sample *k)
{
    mb_nodes_touch(k->s);
    return k->m->potential == MB_FORCE_POTENTIAL_POTENTIAL ? k->type->potential(k->params, k->s)
                                                           : 0.0;
}

/* rotate node i's orientation by the angle a about the global axis `axis` (a vector) */
static void rotate_node(mb_nodes *s, size_t i, const double axis[3], double a)
{
    double th[3] = { a * axis[0], a * axis[1], a * axis[2] }, dq[4], q[4];
    mb_q_from_rotvec(dq, th);
    mb_q_mul(q, dq, &s->q[4 * i]);
    mb_q_normalize(q);
    memcpy(&s->q[4 * i], q, sizeof q);
}

/* V after moving node i along `axis` by h: translation (rot = 0) or rotation (rot = 1) */
static double potential_moved(const sample *k, size_t i, int a, int rot, double h, double *Vmax)
{
    double xs[3], qs[4], axis[3] = { 0, 0, 0 };
    axis[a] = 1.0;
    memcpy(xs, &k->s->x[3 * i], sizeof xs);
    memcpy(qs, &k->s->q[4 * i], sizeof qs);
    if (rot)
        rotate_node(k->s, i, axis, h);
    else
        k->s->x[3 * i + a] += h;
    double V = potential(k);
    memcpy(&k->s->x[3 * i], xs, sizeof xs);
    memcpy(&k->s->q[4 * i], qs, sizeof qs);
    mb_nodes_touch(k->s);
    *Vmax = fmax(*Vmax, fabs(V));
    return V;
}

/* -dV/d(x or phi) of node i, axis a, and its tolerance */
static double minus_gradient(const sample *k, size_t i, int a, int rot, double *tol)
{
    double Vm = 0.0, D[2];
    for (int j = 0; j < 2; j++) {
        double h = (j + 1) * E;
        D[j] = -(potential_moved(k, i, a, rot, h, &Vm) - potential_moved(k, i, a, rot, -h, &Vm))
               / (2 * h);
    }
    *tol = 4 * fabs(D[1] - D[0]) / 3 + 256 * U * Vm / E + DBL_MIN;
    return D[0];
}

/* worst deviation of the force (and torque) at rest from -grad V */
static double potential_check(const sample *k)
{
    double f[N3], tq[N3], worst = 0.0, v[N3], w[N3], L[N3];
    memcpy(v, k->s->v, sizeof v);
    memcpy(w, k->s->omega, sizeof w);
    memcpy(L, k->s->angmom, sizeof L);
    memset(k->s->v, 0, N3 * sizeof(double));
    memset(k->s->omega, 0, N3 * sizeof(double));
    memset(k->s->angmom, 0, N3 * sizeof(double));
    cr_assert_eq(loads(k, f, tq), MB_SUCCESS, "%s: %s", k->type->name, mb_last_error());
    double F = fmax(max_abs(f, N3), max_abs(tq, N3));
    int torques = k->type->external_power == NULL;
    for (size_t i = 0; i < NN; i++)
        for (int a = 0; a < 3; a++) {
            double tol, g = minus_gradient(k, i, a, 0, &tol);
            worst = fmax(worst, fabs(f[3 * i + a] - g) / (tol + 256 * U * F / E));
            if (torques) {
                g = minus_gradient(k, i, a, 1, &tol);
                worst = fmax(worst, fabs(tq[3 * i + a] - g) / (tol + 256 * U * F / E));
            }
        }
    memcpy(k->s->v, v, sizeof v);     /* the moving state back */
    memcpy(k->s->omega, w, sizeof w);
    memcpy(k->s->angmom, L, sizeof L);
    mb_nodes_touch(k->s);
    return worst;
}

/* ---------------- power ---------------- */

/* V along the motion at time s: x + s v, every body rotated by s w */
static double potential_along(const sample *k, double sft, double *Vmax)
{
    mb_nodes *s = k->s;
    double x[N3], q[4 * NN];
    memcpy(x, s->x, sizeof x);
    memcpy(q, s->q, sizeof q);
    for (size_t i = 0; i < NN; i++) {
        double w = mb_v3_norm(&s->omega[3 * i]);
        for (int a = 0; a < 3; a++)
            s->x[3 * i + a] += sft * s->v[3 * i + a];
        if (w > 0.0) {
            double axis[3] = { s->omega[3 * i] / w, s->omega[3 * i + 1] / w, s->omega[3 * i + 2] / w };
            rotate_node(s, i, axis, sft * w);
        }
    }
    double V = potential(k);
    memcpy(s->x, x, sizeof x);
    memcpy(s->q, q, sizeof q);
    mb_nodes_touch(s);
    *Vmax = fmax(*Vmax, fabs(V));
    return V;
}

/* |f.v + tau.w + dV/dt + dissipation - external power| over its tolerance */
static double power_check(const sample *k)
{
    double f[N3], tq[N3], P = 0.0, scale = 0.0, Vm = 0.0, D[2];
    cr_assert_eq(loads(k, f, tq), MB_SUCCESS, "%s: %s", k->type->name, mb_last_error());
    for (size_t c = 0; c < N3; c++) {
        P += f[c] * k->s->v[c] + tq[c] * k->s->omega[c];
        scale += fabs(f[c] * k->s->v[c]) + fabs(tq[c] * k->s->omega[c]);
    }
    double diss = k->type->dissipation ? k->type->dissipation(k->params, k->s) : 0.0;
    double ext = k->type->external_power ? k->type->external_power(k->params, k->s, 0.0) : 0.0;
    /* a history-dependent law books part of its work at its levels: that work's rate at
     * the held history (mb_forces.h, history_power) */
    double hist = k->type->history_power ? k->type->history_power(k->params, k->s) : 0.0;
    for (int j = 0; j < 2; j++) {
        double h = (j + 1) * E;
        D[j] = (potential_along(k, h, &Vm) - potential_along(k, -h, &Vm)) / (2 * h);
    }
    double tol = 4 * fabs(D[1] - D[0]) / 3
                 + 256 * U * (Vm / E + scale + fabs(diss) + fabs(ext) + fabs(hist)) + DBL_MIN;
    cr_expect(diss >= 0.0, "%s: dissipation %g < 0", k->type->name, diss);
    return fabs(P + D[0] + diss + hist - ext) / tol;
}

/* ---------------- what it writes ---------------- */

/* 1 when the model writes as declared; the reason in why */
static int writes_check(const sample *k, char *why, size_t len)
{
    double f[N3], tq[N3];
    if (k->m->potential == MB_FORCE_POTENTIAL_CONSTRAINT) {
        if (loads(k, f, tq) == MB_SUCCESS) {
            snprintf(why, len, "a constraint field evaluated a force");
            return 0;
        }
        return 1;
    }
    cr_assert_eq(loads(k, f, tq), MB_SUCCESS, "%s: %s", k->type->name, mb_last_error());
    int wf = max_abs(f, N3) > 0.0, wt = max_abs(tq, N3) > 0.0;
    if (wf != ((k->m->writes & MB_FORCE_WRITES_FORCE) != 0)
        || wt != ((k->m->writes & MB_FORCE_WRITES_TORQUE) != 0)) {
        snprintf(why, len, "writes%s%s, declares%s%s", wf ? " forces" : "", wt ? " torques" : "",
                 k->m->writes & MB_FORCE_WRITES_FORCE ? " forces" : "",
                 k->m->writes & MB_FORCE_WRITES_TORQUE ? " torques" : "");
        return 0;
    }
    if (wt && k->type->torque_free) {
        snprintf(why, len, "writes torques, and its type says torque_free");
        return 0;
    }
    if (wt && k->type->torque_free_params && k->type->torque_free_params(k->params)) {
        snprintf(why, len, "writes torques, and its instance says torque-free");
        return 0;
    }
    for (size_t i = 0; k->m->nodes == MB_FORCE_NODES_EVERY && i < NN; i++)
        if (max_abs(&f[3 * i], 3) == 0.0 && max_abs(&tq[3 * i], 3) == 0.0) {
            snprintf(why, len, "declares every node, node %zu has no load", i);
            return 0;
        }
    return 1;
}

/* ---------------- MPFR instance ---------------- */

static double mpfr_check(const sample *k)
{
    double f[N3], tq[N3], worst = 0.0;
    cr_assert_eq(loads(k, f, tq), MB_SUCCESS);
    double F = fmax(max_abs(f, N3), max_abs(tq, N3)), tol = 256 * U * F + DBL_MIN;
    mb_nodes_mpfr *m = mb_nodes_mpfr_alloc(NN, 113);
    cr_assert_eq(mb_nodes_mpfr_set_from_double(m, k->s), MB_SUCCESS);
    for (size_t c = 0; c < N3; c++) {
        mpfr_set_zero(&m->f[c], 1);
        mpfr_set_zero(&m->torque[c], 1);
    }
    cr_assert_eq(k->type->eval_mpfr(k->params, m, 0.0), MB_SUCCESS, "%s: %s", k->type->name,
                 mb_last_error());
    for (size_t c = 0; c < N3; c++) {
        worst = fmax(worst, fabs(mpfr_get_d(&m->f[c], MPFR_RNDN) - f[c]) / tol);
        worst = fmax(worst, fabs(mpfr_get_d(&m->torque[c], MPFR_RNDN) - tq[c]) / tol);
    }
    if (k->m->jacobian == MB_FORCE_JACOBIAN_BLOCKS) {
        mb_jacobian *J = mb_jacobian_alloc(NN, 53);
        mb_jacobian_mpfr *Jm = mb_jacobian_mpfr_alloc(NN, 113);
        cr_assert_eq(k->type->jacobian(k->params, k->s, J), MB_SUCCESS);
        cr_assert_eq(k->type->jacobian_mpfr(k->params, m, Jm), MB_SUCCESS);
        cr_assert_eq(J->count, Jm->count, "%s: %zu blocks in double, %zu in MPFR",
                     k->type->name, J->count, Jm->count);
        double K = fmax(max_abs(J->dfdx, 9 * J->count), max_abs(J->dfdv, 9 * J->count));
        for (size_t b = 0; b < 9 * J->count; b++) {
            worst = fmax(worst, fabs(mpfr_get_d(&Jm->dfdx[b], MPFR_RNDN) - J->dfdx[b])
                                / (256 * U * K + DBL_MIN));
            worst = fmax(worst, fabs(mpfr_get_d(&Jm->dfdv[b], MPFR_RNDN) - J->dfdv[b])
                                / (256 * U * K + DBL_MIN));
        }
        mb_jacobian_free(J);
        mb_jacobian_mpfr_free(Jm);
    }
    mb_nodes_mpfr_free(m);
    return worst;
}

/* ---------------- declarations against the type ---------------- */

/* NULL when the entry's declarations match its type's hooks, else what does not */
static const char *declaration_mismatch(const mb_force_model *m)
{
    const mb_force_type *t = *m->type;
    int mpfr = m->precision == MB_FORCE_PRECISION_MPFR;
    int blocks = m->jacobian == MB_FORCE_JACOBIAN_BLOCKS
                 || m->jacobian == MB_FORCE_JACOBIAN_REFUSED;
    if (mpfr != (t->eval_mpfr != NULL))
        return "precision: eval_mpfr present iff MPFR is declared";
    if (blocks != (t->jacobian != NULL) || (!blocks && (t->eval_jacobian || t->diagonal_block)))
        return "jacobian: the hooks present iff BLOCKS is declared";
    if (mpfr && blocks != (t->jacobian_mpfr != NULL))
        return "jacobian: an MPFR model with blocks has jacobian_mpfr";
    switch (m->potential) {
    case MB_FORCE_POTENTIAL_POTENTIAL:
        return t->potential ? NULL : "potential: declared, but the type has none";
    case MB_FORCE_POTENTIAL_DISSIPATIVE:
        return t->potential == NULL && t->dissipation ? NULL
               : "potential: DISSIPATIVE needs no potential and a dissipation";
    case MB_FORCE_POTENTIAL_EXTERNAL:
        return t->potential == NULL && t->external_power ? NULL
               : "potential: EXTERNAL needs no potential and an external power";
    case MB_FORCE_POTENTIAL_CONSTRAINT:
        return t->potential == NULL && t->dissipation == NULL && t->external_power == NULL
               && m->jacobian == MB_FORCE_JACOBIAN_NONE && m->writes == MB_FORCE_WRITES_NOTHING
               ? NULL : "potential: a CONSTRAINT field has no energy hooks, Jacobian or loads";
    }
    return "potential: unknown declaration";
}

/* ---------------- one model, every check ---------------- */

typedef struct verdict {
    double jacobian, potential, power, mpfr;   /* worst deviations over tolerance */
    int writes;
    char why[160];
} verdict;

static verdict check_sample(sample *k)
{
    verdict d = { 0 };
    d.writes = writes_check(k, d.why, sizeof d.why);
    if (k->m->potential == MB_FORCE_POTENTIAL_CONSTRAINT)
        return d;
    d.jacobian = jacobian_check(k);
    d.power = power_check(k);
    if (k->m->potential != MB_FORCE_POTENTIAL_EXTERNAL)
        d.potential = potential_check(k);
    if (k->m->precision == MB_FORCE_PRECISION_MPFR)
        d.mpfr = mpfr_check(k);
    return d;
}

Test(force_models, declarations_match_the_types)
{
    int count = 0;
    for (const mb_force_model *const *m = mb_force_models(); *m; m++, count++) {
        const char *why = declaration_mismatch(*m);
        cr_expect(why == NULL, "%s: %s", (*(*m)->type)->name, why);
        cr_expect_eq(mb_force_model_of(*(*m)->type), *m, "%s: listed twice", (*(*m)->type)->name);
        for (const mb_force_model *const *o = m + 1; *o; o++)
            cr_expect(strcmp((*(*m)->type)->name, (*(*o)->type)->name) != 0, "name %s twice",
                      (*(*m)->type)->name);
    }
    cr_expect(count >= 12, "only %d models registered", count);
}

Test(force_models, every_model_meets_its_declarations)
{
    for (const mb_force_model *const *m = mb_force_models(); *m; m++) {
        sample k = sample_make(*m);
        verdict d = check_sample(&k);
        cr_log_info("%-16s jacobian %.2g potential %.2g power %.2g mpfr %.2g (x tolerance)",
                    k.type->name, d.jacobian, d.potential, d.power, d.mpfr);
        cr_expect(d.writes, "%s: %s", k.type->name, d.why);
        cr_expect(d.jacobian <= 1.0, "%s: Jacobian off the differences (%g x tolerance)",
                  k.type->name, d.jacobian);
        cr_expect(d.potential <= 1.0, "%s: force at rest is not -grad V (%g x tolerance)",
                  k.type->name, d.potential);
        cr_expect(d.power <= 1.0, "%s: power balance off (%g x tolerance)", k.type->name, d.power);
        cr_expect(d.mpfr <= 1.0, "%s: MPFR instance off double (%g x tolerance)", k.type->name,
                  d.mpfr);
        sample_free(&k);
    }
}

/* Every force model in a system that a registered problem builds (default parameters) is
 * registered: a problem cannot bring an unchecked model in. */
Test(force_models, every_model_of_the_problems_is_registered)
{
    int problems = 0;
    for (const mb_problem_type *const *p = mb_problems(); *p; p++) {
        const mb_problem_type *pt;
        mb_options *params;
        mb_system *sys;
        cr_assert_eq(mb_problem_prepare((*p)->name, NULL, &pt, &params), MB_SUCCESS, "%s: %s",
                     (*p)->name, mb_last_error());
        cr_assert_eq(pt->setup(params, &sys), MB_SUCCESS, "%s: %s", (*p)->name, mb_last_error());
        for (size_t m = 0; m < sys->forces->count; m++)
            cr_expect_not_null(mb_force_model_of(sys->forces->items[m].type),
                               "problem %s uses the unregistered force model '%s'", (*p)->name,
                               sys->forces->items[m].type->name);
        mb_system_free(sys);
        mb_options_free(params);
        problems++;
    }
    cr_expect(problems >= 20);
}

/* ---------------- negative controls ---------------- */

/* A spring to the origin, f_i = -k x_i per node with V = k |x|^2 / 2, its Jacobian
 * -k I; the faulty variants below break one part. */
enum { FAULT_NONE, FAULT_JACOBIAN, FAULT_POTENTIAL, FAULT_TORQUE };
struct toy { int fault; };
static const double TOY_K = 2.7;

static int toy_eval(const void *params, mb_nodes *s, double t)
{
    const struct toy *p = params;
    (void)t;
    for (size_t c = 0; c < 3 * s->n; c++)
        s->f[c] += -TOY_K * s->x[c];
    if (p->fault == FAULT_TORQUE)
        s->torque[0] += 0.1;
    return MB_SUCCESS;
}

static double toy_potential(const void *params, const mb_nodes *s)
{
    const struct toy *p = params;
    double V = 0.0;
    for (size_t c = 0; c < 3 * s->n; c++)
        V += 0.5 * TOY_K * s->x[c] * s->x[c] * (p->fault == FAULT_POTENTIAL && c == 4 ? 1.01 : 1.0);
    return V;
}

static int toy_jacobian(const void *params, const mb_nodes *s, mb_jacobian *J)
{
    const struct toy *p = params;
    for (size_t i = 0; i < s->n; i++) {
        long b = mb_jacobian_add_block(J, i, i);
        for (int a = 0; a < 3; a++)
            J->dfdx[9 * b + 4 * a] = -TOY_K;
        if (p->fault == FAULT_JACOBIAN && i == 2)
            J->dfdx[9 * b + 1] = 0.05 * TOY_K;    /* an off-diagonal entry that is not there */
    }
    return MB_SUCCESS;
}

static const mb_force_type toy_type = {
    .name = "toy", .eval = toy_eval, .potential = toy_potential, .jacobian = toy_jacobian,
    .free = free, .torque_free = 1,
};
static const mb_force_type *const toy = &toy_type;

static verdict toy_verdict(int fault, mb_force_potential pot)
{
    mb_force_model m = { .type = &toy, .writes = MB_FORCE_WRITES_FORCE, .nodes = MB_FORCE_NODES_EVERY,
                         .precision = MB_FORCE_PRECISION_DOUBLE, .potential = pot,
                         .jacobian = MB_FORCE_JACOBIAN_BLOCKS };
    struct toy *p = malloc(sizeof *p);
    p->fault = fault;
    sample k = { .m = &m, .type = toy, .params = p, .s = mb_nodes_alloc(NN, 53) };
    mb_force_sample_nodes(k.s);
    verdict d = check_sample(&k);
    sample_free(&k);
    return d;
}

Test(force_models, control_the_sound_toy_passes)
{
    verdict d = toy_verdict(FAULT_NONE, MB_FORCE_POTENTIAL_POTENTIAL);
    cr_expect(d.writes && d.jacobian <= 1 && d.potential <= 1 && d.power <= 1,
              "%s jacobian %g potential %g power %g", d.why, d.jacobian, d.potential, d.power);
}

Test(force_models, control_a_wrong_jacobian_entry_is_caught)
{
    verdict d = toy_verdict(FAULT_JACOBIAN, MB_FORCE_POTENTIAL_POTENTIAL);
    cr_expect(d.jacobian > 100, "passed at %g x tolerance", d.jacobian);
    cr_expect(d.potential <= 1 && d.power <= 1);
}

Test(force_models, control_a_wrong_potential_is_caught)
{
    verdict d = toy_verdict(FAULT_POTENTIAL, MB_FORCE_POTENTIAL_POTENTIAL);
    cr_expect(d.potential > 100, "passed at %g x tolerance", d.potential);
    cr_expect(d.power > 100, "power passed at %g x tolerance", d.power);
    cr_expect(d.jacobian <= 1);
}

Test(force_models, control_an_undeclared_torque_is_caught)
{
    verdict d = toy_verdict(FAULT_TORQUE, MB_FORCE_POTENTIAL_POTENTIAL);
    cr_expect(!d.writes, "an undeclared torque passed");
}

/* a conservative force declared dissipative: its force at rest is not zero */
Test(force_models, control_a_force_at_rest_declared_dissipative_is_caught)
{
    verdict d = toy_verdict(FAULT_NONE, MB_FORCE_POTENTIAL_DISSIPATIVE);
    cr_expect(d.potential > 100, "passed at %g x tolerance", d.potential);
    mb_force_model m = { .type = &toy, .potential = MB_FORCE_POTENTIAL_DISSIPATIVE,
                         .jacobian = MB_FORCE_JACOBIAN_BLOCKS,
                         .precision = MB_FORCE_PRECISION_DOUBLE };
    cr_expect_not_null(declaration_mismatch(&m), "a model with a potential declared DISSIPATIVE");
}
