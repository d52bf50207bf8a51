/* mb_stepper.h -- time-stepping schemes as const type tables, and their registry.
 *
 * Like GSL's gsl_odeiv2_step_type: each scheme file keeps its state and functions
 * static and exports one const mb_stepper_type.  The registry (registry.c) lists all of
 * them so the CLI, the case runner and the tests can iterate.
 *
 * Contract of step(): on entry sys holds the state at time t (forces need not be
 * current); the scheme evaluates forces as it needs, advances the state to t + h, sets
 * sys->t, and returns MB_SUCCESS.  On any error (singular system, non-convergence,
 * NaN/Inf) it returns the status with a message and sys->nodes is left as it was.
 * mb_stepper_step and mb_stepper_step_twin refuse an h that is not finite and > 0
 * (MB_EDOM) before calling the scheme.
 * Schemes whose velocities live at mid-steps set nodes->vel_mid and provide
 * synchronize(), which writes on-step velocities for diagnostics into a copy.
 *
 * State generation (nodes->generation, mb_nodes_struct.h): every step changes it
 * (mb_stepper_step and mb_stepper_step_twin bump it after a scheme that did not), and
 * every writer of x, v, q, omega, angmom, masses, inertia, the flags, forces or torques
 * outside step() bumps it with mb_nodes_touch (mb_nodes_copy, the setters, trajectory
 * replay do).  A scheme may
 * therefore keep values that belong to the state it left (forces, torques, angular
 * momenta) and reuse them while the system, its force field, its node store, t and the
 * generation are those it left -- no array comparison.  A scheme that keeps such a
 * cache bumps the generation itself at the end of its step and remembers the value. */
#ifndef MB_STEPPER_H
#define MB_STEPPER_H

#include "mb_options.h"
#include "mb_status.h"
#include "mb_system.h"

enum {
    MB_STEPPER_SYMPLECTIC = 1,   /* symplectic for conservative forces */
    MB_STEPPER_IMPLICIT = 2,     /* solves a (linear or nonlinear) system per step */
    MB_STEPPER_HALFSTEP = 4,     /* velocities at mid-steps */
    MB_STEPPER_ROTATION = 8,     /* integrates orientations */
    MB_STEPPER_NEGATIVE = 16,    /* a deliberately wrong scheme kept as a negative control */
    MB_STEPPER_CELL = 32         /* integrates in a system's deforming cell (mb_cell.h) */
};

/* Cost counters a scheme reports, generic across scheme families and summed over steps
 * (zero where a scheme does no such work).  Force evaluations are counted by the force
 * field itself (mb_forces_get_counts), so no scheme has to report them. */
typedef struct mb_stepper_stats {
    unsigned long steps;
    unsigned long newton_iterations;   /* nonlinear (Newton) iterations */
    unsigned long max_newton_iterations; /* most Newton iterations in one step */
    unsigned long linear_iterations;   /* iterations of iterative linear solvers */
    unsigned long constraint_sweeps;   /* sweeps of constraint/contact solvers (Gauss-Seidel) */
    unsigned long not_converged;       /* steps whose iteration stopped at its limit */
    double residual_max;               /* largest final residual (merit) of an iteration */
    double quat_norm_error_max;        /* max | |q| - 1 | before normalisation (rotation schemes) */
} mb_stepper_stats;

typedef struct mb_stepper_type {
    const char *name;
    const char *summary;      /* one line with the update equations */
    const char *reference;    /* source of the scheme */
    int order;                /* nominal global order of translation (positions, velocities) */
    int order_rotation;       /* nominal global order of orientations with the default
                               * options; 0 when the scheme does not integrate rotation */
    unsigned flags;
    const mb_option_spec *options;
    int (*alloc)(void **state, const mb_options *opts, const mb_system *sys);
    int (*step)(void *state, mb_system *sys, double h);
    int (*synchronize)(void *state, const mb_system *sys, mb_nodes *on_step); /* may be NULL */
    void (*stats)(const void *state, mb_stepper_stats *out);                 /* may be NULL */
    void (*free)(void *state);
    /* MPFR twin from the same source (all NULL when the scheme has none) */
    int (*alloc_mpfr)(void **state, const mb_options *opts, const mb_system_mpfr *sys);
    int (*step_mpfr)(void *state, mb_system_mpfr *sys, double h);
    int (*synchronize_mpfr)(void *state, const mb_system_mpfr *sys, mb_nodes_mpfr *on_step);
    void (*free_mpfr)(void *state);
} mb_stepper_type;

/* NULL-terminated list of every registered scheme: the built-in ones, then those
 * registered at run time in registration order.  The list is never reallocated and
 * entries are only appended, so it may be walked while another thread registers. */
const mb_stepper_type *const *mb_steppers(void);
const mb_stepper_type *mb_stepper_find(const char *name);

/* Most scheme types mb_stepper_register accepts in one process. */
#define MB_STEPPER_REGISTER_MAX 256

/* Register a scheme type at run time (thread-safe).  The type and every string it
 * points to must outlive the process's use of the registry (a static const object).
 * Refused, with a message naming the type, and nothing registered:
 *   MB_EINVAL  type NULL; name not of the form [a-z][a-z0-9-]* (at most 63 characters);
 *              summary NULL; alloc, step or free NULL; order < 1; order_rotation < 0,
 *              or > 0 without MB_STEPPER_ROTATION (or 0 with it); MB_STEPPER_HALFSTEP
 *              without synchronize; MPFR hooks given only in part;
 *   MB_EEXIST  a type of that name is already registered (built-in or not);
 *   MB_ENOMEM  MB_STEPPER_REGISTER_MAX types are registered already. */
int mb_stepper_register(const mb_stepper_type *type);

/* A configured scheme: type + validated options + state. */
typedef struct mb_stepper {
    const mb_stepper_type *type;
    mb_options *opts;
    void *state;
    int is_twin;
} mb_stepper;

/* Parse "name[k=v,...]", validate options; errors name the spec and suggest names. */
int mb_stepper_parse(const char *spec, const mb_stepper_type **type, mb_options **opts);
mb_stepper *mb_stepper_alloc(const char *spec, const mb_system *sys);
mb_stepper *mb_stepper_alloc_twin(const char *spec, const mb_system_mpfr *tw);
int mb_stepper_step(mb_stepper *st, mb_system *sys, double h);
int mb_stepper_step_twin(mb_stepper *st, mb_system_mpfr *tw, double h);
/* Write on-step state into on_step (copy of sys->nodes, velocities synchronized). */
int mb_stepper_on_step(mb_stepper *st, const mb_system *sys, mb_nodes *on_step);
int mb_stepper_on_step_twin(mb_stepper *st, const mb_system_mpfr *tw, mb_nodes_mpfr *on_step);
/* Counters of the scheme's stats hook; all zero for MPFR twins (the hook reads the
 * double state). */
void mb_stepper_get_stats(const mb_stepper *st, mb_stepper_stats *out);
void mb_stepper_free(mb_stepper *st);

#endif
