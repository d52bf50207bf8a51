/* mb_force_models.h -- the registry of force models: every model with what it declares
 * (force_models.def), for the tests that hold each model to its declarations and for
 * listings.
 *
 * A force model enters the registry with one line of force_models.def and a sample: an
 * instance of the model on a generic store (mb_force_sample_nodes), placed so that every
 * part of the model acts (a contact overlapping, a dashpot moving, an arm off the centre)
 * and nothing is aligned or of unit size.  The registry's tests evaluate each sample: its
 * Jacobian against central differences of its force, its force at rest against the
 * gradient of its potential, its power f.v + tau.w against -dV/dt - dissipation +
 * external power, the arrays and nodes it writes, its MPFR instance against double. */
#ifndef MB_FORCE_MODELS_H
#define MB_FORCE_MODELS_H

#include "mb_forces.h"

/* What a model writes. */
enum {
    MB_FORCE_WRITES_NOTHING = 0,
    MB_FORCE_WRITES_FORCE = 1,
    MB_FORCE_WRITES_TORQUE = 2,
    MB_FORCE_WRITES_FORCE_TORQUE = 3
};

/* Which nodes it writes. */
typedef enum { MB_FORCE_NODES_EVERY, MB_FORCE_NODES_LISTED } mb_force_nodes;

/* Its precisions. */
typedef enum { MB_FORCE_PRECISION_MPFR, MB_FORCE_PRECISION_DOUBLE } mb_force_precision;

/* Its potential, or why it has none (force_models.def). */
typedef enum {
    MB_FORCE_POTENTIAL_POTENTIAL,
    MB_FORCE_POTENTIAL_DISSIPATIVE,
    MB_FORCE_POTENTIAL_EXTERNAL,
    MB_FORCE_POTENTIAL_CONSTRAINT
} mb_force_potential;

/* Its Jacobian, or why it has none. */
typedef enum {
    MB_FORCE_JACOBIAN_BLOCKS,
    MB_FORCE_JACOBIAN_ZERO,
    MB_FORCE_JACOBIAN_NONE,
    MB_FORCE_JACOBIAN_REFUSED
} mb_force_jacobian;

typedef struct mb_force_model {
    const mb_force_type *const *type;
    unsigned writes;                /* MB_FORCE_WRITES_* */
    mb_force_nodes nodes;
    mb_force_precision precision;
    mb_force_potential potential;
    mb_force_jacobian jacobian;
    /* An instance on s (a store filled by mb_force_sample_nodes) for the registry's
     * tests; it may set what its model reads besides the state (radii).  NULL with an
     * error recorded on failure. */
    void *(*sample)(mb_nodes *s);
} mb_force_model;

/* The registered models, in force_models.def order, NULL-terminated. */
const mb_force_model *const *mb_force_models(void);
/* The entry of a type; NULL when the type is not registered. */
const mb_force_model *mb_force_model_of(const mb_force_type *type);

/* Nodes of the generic store a sample is made on. */
#define MB_FORCE_SAMPLE_NODES 4

/* Fill s (MB_FORCE_SAMPLE_NODES nodes) with a generic state: positions, velocities,
 * masses, inertias, orientations and angular velocities of no particular alignment and of
 * sizes near but not equal to 1; radii 0 (a sample sets those it needs). */
void mb_force_sample_nodes(mb_nodes *s);

/* The samples, one per line of force_models.def, defined in each model's file. */
#define MB_FORCE_MODEL(sym, writes, nodes, precision, potential, jacobian) \
    void *mb_force_sample_##sym(mb_nodes *s);
#include "force_models.def"
#undef MB_FORCE_MODEL

#endif
