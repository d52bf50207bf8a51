/* mb_problem.h -- registered test systems: initial state, forces, parameters, reference.
 *
 * A problem is a const mb_problem_type: a name, documented parameters with defaults
 * (mb_option_spec), a setup() that builds the system at t = 0, and where one exists a
 * closed-form solution exact() that writes the on-step state at time t into a store
 * shaped like the one setup() made.  Problems without a closed form are referenced by
 * the ODE and MPFR engines, which integrate the same force field. */
#ifndef MB_PROBLEM_H
#define MB_PROBLEM_H

#include "mb_options.h"
#include "mb_status.h"
#include "mb_system.h"

/* Named scalars a problem measures along a run (restitution, contact duration, ...). */
#define MB_OBSERVATION_MAX 24
typedef struct mb_observation {
    size_t count;
    struct { char name[48]; double value; } items[MB_OBSERVATION_MAX];
} mb_observation;

/* Problem flags. */
enum {
    /* Part of the motion comes from the scheme (e.g. Cundall damping is a leap-frog
     * option), so integrating the force field alone (ode, mpfr references) does not
     * describe the problem: only its closed form does. */
    MB_PROBLEM_SCHEME_DEPENDENT = 1,
    /* The motion is subject to constraints that only the constrained (solfec) scheme
     * enforces; the force field alone does not describe it either. */
    MB_PROBLEM_CONSTRAINED = 2,
    /* The force field keeps a contact history (the frictional laws) whatever the
     * parameters: the ode and mpfr references, which step back past accepted steps,
     * cannot integrate it; only the closed form describes the problem.  A problem whose
     * law is frictional for some parameters only (granular-gas and granular-column with
     * friction > 0, sphere-wall and sphere-collision with mu > 0, a scene) is refused
     * the same way from the field it builds (mb_forces_keeps_history, reference.c). */
    MB_PROBLEM_HISTORY = 4,
    /* The observer needs the sampled states only (every sample_every steps and the last),
     * not every step: a case may then ask an outside program for the sampled rows alone
     * ([run] outside_rows = samples, doc/cases.md). */
    MB_PROBLEM_SAMPLED_OBSERVER = 8
};

typedef struct mb_problem_type {
    const char *name;
    const char *summary;            /* one line: what it models */
    const mb_option_spec *params;   /* NULL-terminated */
    int (*setup)(const mb_options *params, mb_system **sys);
    int (*exact)(const mb_options *params, double t, mb_nodes *out); /* NULL: none */
    const char *exact_doc;          /* the closed form, for --verbose listings */
    unsigned flags;                 /* MB_PROBLEM_* */
    /* Optional observer of problem-specific quantities, fed the on-step state after the
     * initial state and after every step; observe_end fills out and frees ctx. */
    int (*observe_begin)(void **ctx, const mb_options *params, const mb_system *sys);
    int (*observe_step)(void *ctx, const mb_system *sys, const mb_nodes *on_step);
    int (*observe_end)(void *ctx, mb_observation *out);
    /* The number of nodes setup builds, from the validated parameters alone, so that a
     * run too large for memory is refused before anything is built.  A problem with this
     * hook builds every parameter set its ranges admit, memory permitting (so a case
     * loader need not build it to validate it).  NULL: a size known only by building. */
    size_t (*nodes)(const mb_options *params);
    /* The two-node couplings (springs between nodes) setup builds, from the validated
     * parameters, for the memory estimate (mb_memory.h: an implicit scheme's matrix grows
     * with them).  NULL: counted on the built system (mb_forces_links). */
    size_t (*links)(const mb_options *params);
    /* Why no scene text (doc/scenes.md) builds this problem's system; NULL: one does, and
     * tests/test_scene_presets.c holds the default parameters to it. */
    const char *not_a_scene;
} mb_problem_type;

const mb_problem_type *const *mb_problems(void);
const mb_problem_type *mb_problem_find(const char *name);

/* Look up a problem by name (with "did you mean") and validate its parameters;
 * params may be NULL (all defaults).  *out_params receives the validated copy. */
int mb_problem_prepare(const char *name, const mb_options *params,
                       const mb_problem_type **type, mb_options **out_params);

/* Add to h the name and SHA-256 of every file a text parameter names (a scene's file), so
 * that a hash of the problem covers what setup() reads (problem_inputs.c). */
struct mb_sha256;
int mb_problem_inputs_hash(const mb_problem_type *pt, const mb_options *params,
                           struct mb_sha256 *h);

#endif
