/* mb_nodes_struct.h -- template of the node store; included by mb_nodes.h once per base. */
typedef struct TYPE(mb_nodes) {
    size_t n;               /* number of nodes */
    mpfr_prec_t prec;       /* precision of every REAL (53 for double) */
    REAL *x;                /* 3n position */
    REAL *v;                /* 3n velocity (on-step or mid-step, see vel_mid) */
    REAL *f;                /* 3n force at the current time */
    REAL *mass;             /* n */
    REAL *inv_mass;         /* n; 0 for infinite mass */
    REAL *inertia;          /* 3n principal moments of inertia (body frame) */
    REAL *q;                /* 4n orientation quaternion (w, x, y, z) */
    REAL *omega;            /* 3n angular velocity, global frame */
    REAL *angmom;           /* 3n angular momentum, global frame */
    REAL *torque;           /* 3n torque, global frame */
    unsigned char *blocked; /* n: MB_BLOCK_* bits */
    unsigned char *vel_mid; /* n: 1 when v/omega hold mid-step values */
    unsigned char *aspherical; /* n: 1 when the principal moments differ */
    double *radius;         /* n: geometric radius (contacts, time-step estimates) */
    /* State generation: changes whenever x, v, q, omega, angmom or the constants above
     * change.  Every writer bumps it with mb_nodes_touch (copies, setters, trajectory
     * replay, problem set-up code that edits a stepped store); every step changes it
     * (mb_stepper_step bumps it when the scheme did not).  A scheme may keep values that
     * belong to the state it left (forces, angular momenta) while the generation is the
     * one it left: see mb_stepper.h. */
    unsigned long generation;
} TYPE(mb_nodes);

/* Mark the state of s as changed outside a scheme (bumps s->generation). */
static inline void FUNCTION(mb_nodes, touch)(TYPE(mb_nodes) *s)
{
    s->generation++;
}

TYPE(mb_nodes) *FUNCTION(mb_nodes, alloc)(size_t n, mpfr_prec_t prec);
void FUNCTION(mb_nodes, free)(TYPE(mb_nodes) *s);
/* Deep copy of values between two stores of the same size and base. */
int FUNCTION(mb_nodes, copy)(TYPE(mb_nodes) *dst, const TYPE(mb_nodes) *src);
/* Set mass (and inverse mass; m = +Inf gives inverse 0) of node i. */
void FUNCTION(mb_nodes, set_mass)(TYPE(mb_nodes) *s, size_t i, double m);
/* Set principal moments of node i and its aspherical flag. */
void FUNCTION(mb_nodes, set_inertia)(TYPE(mb_nodes) *s, size_t i, const double I[3]);
/* 1 when every x, v, q, omega, angmom is finite. */
int FUNCTION(mb_nodes, all_finite)(const TYPE(mb_nodes) *s);
