/* mb_forces.h -- force models as const type tables, and the force field of a system.
 *
 * A force model (gravity, drag, springs, contacts, ...) is a const mb_force_type plus
 * its parameter block.  It accumulates forces and torques into a node store, in double
 * and in MPFR (one templated source per model), and reports in double its potential
 * energy, the power it dissipates, the power it feeds in from outside, and its
 * Jacobians df/dx, df/dv as 3x3 blocks (for the implicit schemes). */
#ifndef MB_FORCES_H
#define MB_FORCES_H

#include "mb_jacobian.h"
#include "mb_nodes.h"

struct json_t;    /* jansson's JSON value */
struct mb_linsys_sink;    /* assembly of the implicit system (mb_linsys_sink.h) */

typedef struct mb_force_type {
    const char *name;
    /* add this model's forces/torques at time t to s->f, s->torque */
    int (*eval)(const void *params, mb_nodes *s, double t);
    int (*eval_mpfr)(const void *params, mb_nodes_mpfr *s, double t);
    /* potential energy (NULL: none) */
    double (*potential)(const void *params, const mb_nodes *s);
    /* energy content of the potential, >= |potential| (NULL: |potential|): the scale of
     * energy errors (mb_energy.h) */
    double (*potential_magnitude)(const void *params, const mb_nodes *s);
    /* power dissipated, >= 0 (NULL: none) */
    double (*dissipation)(const void *params, const mb_nodes *s);
    /* power put in by a non-conservative external load (NULL: none) */
    double (*external_power)(const void *params, const mb_nodes *s, double t);
    /* append df/dx, df/dv blocks (NULL: force independent of x and v) */
    int (*jacobian)(const void *params, const mb_nodes *s, mb_jacobian *J);
    int (*jacobian_mpfr)(const void *params, const mb_nodes_mpfr *s, mb_jacobian_mpfr *J);
    /* add to k[3 i + a] the stiffness this model puts on node i along axis a -- the
     * absolute row sum of its stiffness block on that row (mb_timestep.h) -- for
     * critical time-step estimates (NULL: none) */
    void (*stiffness)(const void *params, const mb_nodes *s, double *k);
    void (*free)(void *params);
    /* add this model's name ("model") and parameters to the JSON object `model`, in the
     * words of the external-program protocol (doc/external.md, "run.json"); NULL: the
     * model is described as {"model": "opaque", "name": ...} */
    int (*describe)(const void *params, struct json_t *model);
    /* as eval, for the first model of a field: s->f holds stale values on entry, and
     * this writes f = +0 + the model's force, bit for bit what eval adds to a zeroed f,
     * and leaves the torques alone; saves the field a pass that zeroes f (NULL: the
     * field zeroes f and calls eval) */
    int (*eval_set)(const void *params, mb_nodes *s, double t);
    /* 1: eval never writes a torque (0, the default, is always safe) */
    int torque_free;
    /* 1 when this instance never writes a torque, though its type may (springs without
     * arms); NULL: torque_free alone decides */
    int (*torque_free_params)(const void *params);
    /* 1: writes torques in states that the initial one need not show (a contact that
     * closes later, a friction that builds up): a translation-only scheme is refused a
     * field that holds it (mb_stepper_alloc) */
    int torque_later;
    /* eval and jacobian in one pass (NULL: eval, then jacobian): adds to s->f, s->torque
     * and appends to J bit for bit what eval and jacobian would (mb_forces_eval_jacobian) */
    int (*eval_jacobian)(const void *params, mb_nodes *s, double t, mb_jacobian *J);
    int (*eval_jacobian_mpfr)(const void *params, mb_nodes_mpfr *s, double t,
                              mb_jacobian_mpfr *J);
    /* the implicit assembly straight into the solver's storage, in two passes over the
     * models (mb_forces_assemble): eval_keep adds to s->f, s->torque what eval would and
     * may keep what its blocks will need (mb_linsys_sink_keep); once every model's forces
     * are in, blocks_kept hands the sink the blocks jacobian would append, in the same
     * order, from what was kept.  Both or neither (NULL: eval_jacobian, or eval and
     * jacobian, in the first pass; their blocks handed over in the second) */
    int (*eval_keep)(const void *params, mb_nodes *s, double t, struct mb_linsys_sink *k);
    int (*blocks_kept)(const void *params, const mb_nodes *s, struct mb_linsys_sink *k);
    /* as eval_keep, for the first model of a field: s->f holds stale values on entry, and
     * this writes f = +0 + the model's force on every node, bit for bit what eval_keep adds
     * to a zeroed f (eval_set's contract), so that mb_forces_assemble need not zero f
     * first (NULL: the field zeroes f and calls eval_keep) */
    int (*eval_keep_set)(const void *params, mb_nodes *s, double t, struct mb_linsys_sink *k);
    /* 1: blocks_kept reports each node on which it has handed over its last block
     * (mb_linsys_sink_node_done), so that the diagonal fields after it in the field are
     * added inside its pass, node by node (mb_linsys_sink_fold) */
    int reports_nodes_done;
    /* 1 when blocks_kept, with params and n nodes, forms b_i (mb_linsys_sink_pass_rhs)
     * for every node i before its first block whenever the sink asks it to
     * (mb_linsys_sink_rhs_deferred): then, as the field's first model, it forms b in its
     * pass and mb_forces_assemble saves the pass of its own.  NULL: never */
    int (*forms_rhs_by_node)(const void *params, size_t n);
    /* for a field whose blocks are one diagonal block (r, r) at every node
     * r = 0, 1, ..., n - 1, as jacobian appends them: that block.  mb_forces_assemble then
     * takes the field's forces from eval and hands its blocks to the sink in one call
     * (mb_linsys_sink_diagonal), or folds them into the pass of the model before it
     * (mb_linsys_sink_fold); eval_keep and blocks_kept are not needed.  NULL: not such a
     * field */
    void (*diagonal_block)(const void *params, double C[9], double K[9]);
    /* the work this model's external load does over one step of h, from the on-step
     * states at its ends (from at t, to at t + h), in a form exact for the model's field
     * -- a constant global force F: F.(x+ - x), which sums to F.(x(t) - x(0)) --; NULL:
     * the runner integrates external_power by quadrature (mb_work_track).  Only for
     * models with external_power */
    double (*external_work)(const void *params, const mb_nodes *from, const mb_nodes *to,
                            double h);
    /* for a model whose force is a uniform acceleration, f_i = +0 + m_i g(t) on the nodes
     * of finite mass and +0 on the others (eval_set's bits), with no torque: g(t).  Lets
     * a scheme compute that force inside its own pass over the nodes
     * (mb_forces_eval_uniform).  NULL: not such a model */
    void (*uniform_acceleration)(const void *params, double t, double g[3]);
    /* 1 when the model acts across the faces of a periodic box (minimum image): the
     * system then conserves linear momentum but not angular momentum, which the runner
     * does not report (doc/statistics.md); NULL: open space */
    int (*periodic)(const void *params);
    /* a model with a history (the frictional contacts) books part of its work itself, at
     * its own time levels, instead of as a power for the runner to integrate: the work
     * dissipated and the work put in (Hertz-Mindlin's stiffness change) since its first
     * evaluation, added to the run's W_diss and W_ext by mb_energy_of (doc/dem.md,
     * "Energy of the tangential spring").  NULL: none */
    void (*history_work)(const void *params, double *dissipated, double *external);
    /* the rate of history_work's dissipated minus external work in the state s with the
     * history held where the last evaluation left it, so that the registry's power check
     * f.v + tau.w = -dV/dt - dissipation + external_power - history_power holds for such
     * a model too (tests/test_force_models.c); NULL with history_work NULL */
    double (*history_power)(const void *params, const mb_nodes *s);
} mb_force_type;

typedef struct mb_force {
    const mb_force_type *type;
    void *params;
} mb_force;

/* Work done on a field, for the cost columns of the reports: whole-field force
 * evaluations (double and MPFR) and Jacobian assemblies.  The counters live outside the
 * field so that evaluating a const field still counts; one field belongs to one run. */
typedef struct mb_forces_counts {
    unsigned long evaluations, jacobians;
} mb_forces_counts;

typedef struct mb_forces {
    size_t count, cap;
    mb_force *items;
    mb_forces_counts *counts;   /* owned */
} mb_forces;

mb_forces *mb_forces_alloc(void);
/* Frees the field and every parameter block it owns. */
void mb_forces_free(mb_forces *F);
/* Add a model; the field takes ownership of params (freed with type->free).  params =
 * NULL (a constructor that refused) returns the status that constructor recorded. */
int mb_forces_add(mb_forces *F, const mb_force_type *type, void *params);
/* 1 when some model of F acts in a periodic box (its periodic hook). */
int mb_forces_periodic(const mb_forces *F);

/* The counters of F so far; a scheme that sums the models itself (solfec) records each
 * whole-field evaluation with mb_forces_count_evaluation. */
mb_forces_counts mb_forces_get_counts(const mb_forces *F);
void mb_forces_count_evaluation(const mb_forces *F);
/* Zero s->f and s->torque, sum every model at time t; MB_EDIVERGED on NaN/Inf. */
int mb_forces_eval(const mb_forces *F, mb_nodes *s, double t);
/* mb_forces_eval without its scan of the forces for NaN/Inf, for a scheme that detects
 * a non-finite force in every value it computes from one and then calls
 * mb_forces_check for the message.  Torques are checked as by mb_forces_eval.
 * *torque_zero receives 1 when no model of F writes torques: every torque is then +0
 * (zeroed only where it was not), and the scheme need not read them. */
int mb_forces_eval_deferred(const mb_forces *F, mb_nodes *s, double t, int *torque_zero);
/* mb_forces_eval_deferred without its scan of the torques either, for a scheme that
 * also detects a non-finite torque in every value it computes from one (the leap-frog's
 * fast path when every node rotates as a plain sphere: w+ = w + (T / I11) hk is NaN or
 * Inf whenever T is) and then calls mb_forces_check for the message. */
int mb_forces_eval_unchecked(const mb_forces *F, mb_nodes *s, double t, int *torque_zero);
int mb_forces_mpfr_eval_deferred(const mb_forces *F, mb_nodes_mpfr *s, double t,
                                 int *torque_zero);
/* When F is a single uniform acceleration (mb_force_type.uniform_acceleration): counts
 * an evaluation, leaves every torque +0 as mb_forces_eval_deferred does (without reading
 * them when the caller knows they are: torques_pos_zero), sets g = g(t) and returns 1,
 * leaving s->f for the caller to write, f_i = +0 + m_i g on the nodes of finite mass and
 * +0 on the others, in its own pass over the nodes.  Otherwise returns 0 and does
 * nothing. */
int mb_forces_eval_uniform(const mb_forces *F, mb_nodes *s, double t, double g[3],
                           int torques_pos_zero);
/* MB_EDIVERGED, with the message of mb_forces_eval, when a force or torque of s is NaN
 * or Inf; MB_SUCCESS otherwise. */
int mb_forces_check(const mb_nodes *s, double t);
int mb_forces_mpfr_check(const mb_nodes_mpfr *s, double t);
int mb_forces_mpfr_eval(const mb_forces *F, mb_nodes_mpfr *s, double t);
double mb_forces_potential(const mb_forces *F, const mb_nodes *s);
/* Sum over the models of the magnitude of each potential (potential_magnitude, else
 * |potential|): the energy the potentials hold, whatever their signs (mb_energy.h). */
double mb_forces_potential_magnitude(const mb_forces *F, const mb_nodes *s);
double mb_forces_dissipation(const mb_forces *F, const mb_nodes *s);
/* 1 when some model of F keeps a history (its history_work hook): the frictional
 * contacts, which a reference stepping back past accepted steps cannot integrate. */
int mb_forces_keeps_history(const mb_forces *F);
/* Sums over the models of history_work: the works they booked themselves so far. */
void mb_forces_history_work(const mb_forces *F, double *dissipated, double *external);
double mb_forces_external_power(const mb_forces *F, const mb_nodes *s, double t);
/* The work of external loads split by how it is known (the energy metrics, doc/metrics.md):
 * the sum of external_work over the models that have it, for one step from `from` to `to`;
 * and the power of the other models with external_power, for quadrature.  1 from
 * mb_forces_has_exact_work when some model of F has external_work. */
double mb_forces_external_work_exact(const mb_forces *F, const mb_nodes *from,
                                     const mb_nodes *to, double h);
double mb_forces_external_power_inexact(const mb_forces *F, const mb_nodes *s, double t);
int mb_forces_has_exact_work(const mb_forces *F);
/* 1 when some model of F writes torques later if not now (mb_force_type.torque_later: the
 * frictional contacts), so that a system at rest without torque at t = 0 still rotates. */
int mb_forces_torque_later(const mb_forces *F);
/* The springs of F's springs models: its two-node couplings, for the memory estimate. */
size_t mb_forces_links(const mb_forces *F);
/* Clear J and append every model's blocks. */
int mb_forces_jacobian(const mb_forces *F, const mb_nodes *s, mb_jacobian *J);
int mb_forces_mpfr_jacobian(const mb_forces *F, const mb_nodes_mpfr *s, mb_jacobian_mpfr *J);
/* mb_forces_eval, then mb_forces_jacobian, in one pass over the models (each model's
 * eval_jacobian where it has one): the same forces, torques and blocks bit for bit, and
 * the same counts. */
int mb_forces_eval_jacobian(const mb_forces *F, mb_nodes *s, double t, mb_jacobian *J);
/* As mb_forces_eval_jacobian, the blocks handed to the sink k (begun by the caller,
 * mb_linsys_sink.h) in list order instead of kept: first every model's forces (eval_keep
 * where a model has it, else eval_jacobian or eval and jacobian, appending to J), then
 * the right-hand side's start (mb_linsys_sink_rhs), then every model's blocks
 * (blocks_kept, else its part of J; diagonal fields folded into the pass of a model that
 * reports its nodes, mb_linsys_sink_fold).  Forces, torques and counts as
 * mb_forces_eval_jacobian; the caller ends with mb_linsys_sink_finish. */
int mb_forces_assemble(const mb_forces *F, mb_nodes *s, double t, struct mb_linsys_sink *k,
                       mb_jacobian *J);
/* As mb_forces_assemble, told by the caller whether every torque of s is known to be +0
 * (torques_pos_zero: a scheme whose last step assembled a torque-free field on this store,
 * at the state generation it left, mb_stepper.h): a torque-free field's torques are then
 * not read to be checked +0 (3 doubles a node).  0: they are, as mb_forces_assemble. */
int mb_forces_assemble_known(const mb_forces *F, mb_nodes *s, double t,
                             struct mb_linsys_sink *k, mb_jacobian *J, int torques_pos_zero);
/* 1 when no model of F writes torques (mb_force_type.torque_free, torque_free_params):
 * every torque an evaluation or assembly of F leaves is +0. */
int mb_forces_torque_free(const mb_forces *F);
int mb_forces_mpfr_eval_jacobian(const mb_forces *F, mb_nodes_mpfr *s, double t,
                                 mb_jacobian_mpfr *J);
/* Per node and axis summed stiffness (3n array, zeroed first). */
void mb_forces_stiffness(const mb_forces *F, const mb_nodes *s, double *k);

/* ---- the models of the foundation ---- */

/* Uniform field: f_i += m_i g on nodes of finite mass.  Potential -m g.x.  NULL
 * (MB_EDOM recorded) unless g is finite. */
extern const mb_force_type *const mb_force_gravity;
void *mb_gravity_new(const double g[3]);

/* Linear drag f_i = -D v_i on every node (same D for all).  NULL (MB_EDOM recorded)
 * unless D is finite and >= 0. */
extern const mb_force_type *const mb_force_drag;
void *mb_drag_new(double D);

/* Hookean springs with rest length L and optional dashpot c along the spring:
 * f_i = [k (l - L) + c (v_j - v_i).n] n,  n = (x_j - x_i)/l,  f_j = -f_i.
 * A spring to an anchor uses a fixed point instead of node j.  L = 0 gives the
 * linear spring f_i = k (x_j - x_i).  With arms the spring acts between the attachment
 * points p = x + R(q) A (velocities v + w x R(q) A) and puts the torque (R(q) A) x f on
 * each body; the Jacobian blocks are the translational ones at the attachment points. */
extern const mb_force_type *const mb_force_springs;
typedef struct mb_spring {
    size_t i, j;        /* nodes; j ignored when anchored */
    double k, rest, c;  /* stiffness, rest length, dashpot coefficient */
    int anchored;       /* 1: the other end is the fixed point anchor[] */
    int has_arms;       /* 1: attached at arm_i (arm_j) in the body frame of node i (j), */
    double arm_i[3], arm_j[3]; /* p = x + R(q) arm, which adds the torque r x f on the body */
    double anchor[3];
} mb_spring;            /* the fields every pass over the springs reads come first (48 of
                         * the record's 120 bytes): a pass over springs without arms or
                         * anchors touches fewer of the records' cache lines */
void *mb_springs_new(void);
int mb_springs_add(void *springs, const mb_spring *sp);
size_t mb_springs_count(const void *springs);
/* the springs added so far, in order (mb_springs_count of them; read-only) */
const mb_spring *mb_springs_items(const void *springs);

#endif
