/* mb_nodes.h -- the structure-of-arrays node store (DESIGN 3), in double and in MPFR.
 *
 * mb_nodes holds doubles; mb_nodes_mpfr holds MPFR numbers of one precision and is what
 * the same-scheme twins integrate.  Both are declared here in plain text; one source
 * (nodes_source.c) defines the functions of both.  Translation and rotation state live side by side; forces and torques
 * are those of the current time.  Quaternions are unit, (w, x, y, z), body to global. */
#ifndef MB_NODES_H
#define MB_NODES_H

#include <stddef.h>
#include <mpfr.h>

/* Blocking flags: a blocked degree of freedom gets zero acceleration. */
enum {
    MB_BLOCK_X = 1, MB_BLOCK_Y = 2, MB_BLOCK_Z = 4,
    MB_BLOCK_RX = 8, MB_BLOCK_RY = 16, MB_BLOCK_RZ = 32,
    MB_BLOCK_ALL = 63
};

/* ---- double ---- */
typedef struct mb_nodes {
    size_t n;               /* number of nodes */
    mpfr_prec_t prec;       /* 53: the precision of double */
    double *x;              /* 3n position */
    double *v;              /* 3n velocity (on-step or mid-step, see vel_mid) */
    double *f;              /* 3n force at the current time */
    double *mass;           /* n */
    double *inv_mass;       /* n; 0 for infinite mass */
    double *inertia;        /* 3n principal moments of inertia (body frame) */
    double *q;              /* 4n orientation quaternion (w, x, y, z) */
    double *omega;          /* 3n angular velocity, global frame */
    double *angmom;         /* 3n angular momentum, global frame */
    double *torque;         /* 3n torque, global frame */
    double *v_step;         /* 3n or NULL: during a force evaluation, the velocity
                             * of the step being evaluated, when v holds another one (a
                             * predicted end-of-step velocity, as in verlet-nosquish): the
                             * contact history advances by it, v feeds the dashpots
                             * (doc/dem.md, "Contact history").  NULL: v is that velocity.
                             * Set by a scheme only for the duration of its evaluation. */
    unsigned char *blocked; /* n: MB_BLOCK_* bits */
    unsigned char *vel_mid; /* n: 1 when v/omega hold mid-step values */
    unsigned char *aspherical; /* n: 1 when the principal moments differ */
    double *radius;         /* n: geometric radius (contacts, time-step estimates) */
    /* State generation: changes whenever x, v, q, omega, angmom or the constants above
     * change.  Every writer bumps it with mb_nodes_touch (copies, setters, trajectory
     * replay, problem set-up code that edits a stepped store); every step changes it
     * (mb_stepper_step bumps it when the scheme did not).  A scheme may keep values that
     * belong to the state it left (forces, angular momenta) while the generation is the
     * one it left: see mb_stepper.h and doc/state-generation.md. */
    unsigned long generation;
} mb_nodes;

/* Mark the state of s as changed outside a scheme (bumps s->generation). */
static inline void mb_nodes_touch(mb_nodes *s)
{
    s->generation++;
}

/* The numbers of one node's state: x and v (6), then q and omega when it rotates (13) --
 * a node's share of a trajectory row (doc/external.md) and of the state a run advances. */
static inline size_t mb_nodes_state_size(int rotation)
{
    return rotation ? 13 : 6;
}

mb_nodes *mb_nodes_alloc(size_t n, mpfr_prec_t prec);
void mb_nodes_free(mb_nodes *s);
/* Deep copy of values between two stores of the same size and base. */
int mb_nodes_copy(mb_nodes *dst, const mb_nodes *src);
/* Set mass (and inverse mass; m = +Inf gives inverse 0) of node i. */
void mb_nodes_set_mass(mb_nodes *s, size_t i, double m);
/* Set principal moments of node i and its aspherical flag. */
void mb_nodes_set_inertia(mb_nodes *s, size_t i, const double I[3]);
/* 1 when every x, v, q, omega, angmom is finite. */
int mb_nodes_all_finite(const mb_nodes *s);

/* ---- MPFR (same layout; every number an mpfr_t of precision prec) ---- */
typedef struct mb_nodes_mpfr {
    size_t n;               /* number of nodes */
    mpfr_prec_t prec;       /* precision of every number */
    mpfr_ptr x;             /* 3n position */
    mpfr_ptr v;             /* 3n velocity (on-step or mid-step, see vel_mid) */
    mpfr_ptr f;             /* 3n force at the current time */
    mpfr_ptr mass;          /* n */
    mpfr_ptr inv_mass;      /* n; 0 for infinite mass */
    mpfr_ptr inertia;       /* 3n principal moments of inertia (body frame) */
    mpfr_ptr q;             /* 4n orientation quaternion (w, x, y, z) */
    mpfr_ptr omega;         /* 3n angular velocity, global frame */
    mpfr_ptr angmom;        /* 3n angular momentum, global frame */
    mpfr_ptr torque;        /* 3n torque, global frame */
    mpfr_ptr v_step;        /* 3n or NULL: during a force evaluation, the velocity
                             * of the step being evaluated, when v holds another one (a
                             * predicted end-of-step velocity, as in verlet-nosquish): the
                             * contact history advances by it, v feeds the dashpots
                             * (doc/dem.md, "Contact history").  NULL: v is that velocity.
                             * Set by a scheme only for the duration of its evaluation. */
    unsigned char *blocked; /* n: MB_BLOCK_* bits */
    unsigned char *vel_mid; /* n: 1 when v/omega hold mid-step values */
    unsigned char *aspherical; /* n: 1 when the principal moments differ */
    double *radius;         /* n: geometric radius (contacts, time-step estimates) */
    /* State generation: changes whenever x, v, q, omega, angmom or the constants above
     * change.  Every writer bumps it with mb_nodes_mpfr_touch (copies, setters, trajectory
     * replay, problem set-up code that edits a stepped store); every step changes it
     * (mb_stepper_step bumps it when the scheme did not).  A scheme may keep values that
     * belong to the state it left (forces, angular momenta) while the generation is the
     * one it left: see mb_stepper.h and doc/state-generation.md. */
    unsigned long generation;
} mb_nodes_mpfr;

/* Mark the state of s as changed outside a scheme (bumps s->generation). */
static inline void mb_nodes_mpfr_touch(mb_nodes_mpfr *s)
{
    s->generation++;
}

mb_nodes_mpfr *mb_nodes_mpfr_alloc(size_t n, mpfr_prec_t prec);
void mb_nodes_mpfr_free(mb_nodes_mpfr *s);
/* Deep copy of values between two stores of the same size and base. */
int mb_nodes_mpfr_copy(mb_nodes_mpfr *dst, const mb_nodes_mpfr *src);
/* Set mass (and inverse mass; m = +Inf gives inverse 0) of node i. */
void mb_nodes_mpfr_set_mass(mb_nodes_mpfr *s, size_t i, double m);
/* Set principal moments of node i and its aspherical flag. */
void mb_nodes_mpfr_set_inertia(mb_nodes_mpfr *s, size_t i, const double I[3]);
/* 1 when every x, v, q, omega, angmom is finite. */
int mb_nodes_mpfr_all_finite(const mb_nodes_mpfr *s);

/* Conversions between the two bases (values rounded to nearest). */
int mb_nodes_mpfr_set_from_double(mb_nodes_mpfr *dst, const mb_nodes *src);
int mb_nodes_mpfr_get_double(mb_nodes *dst, const mb_nodes_mpfr *src);

#endif
