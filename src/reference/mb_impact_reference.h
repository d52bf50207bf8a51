/* mb_impact_reference.h -- event-located reference of a two-body frictional impact
 * (sphere-sphere or sphere-plane, planar motion in x-z with spin about y), written from the
 * equations alone: it does not call the contact laws of src/forces/.
 *
 * Equations (doc/dem.md, "The event-located impact reference").  Body 1 is a sphere, body
 * 2 a sphere or the plane z = 0 (normal +z, at rest).  n is the unit normal from body 1
 * towards body 2 (n = (p2 - p1)/|p2 - p1|, or (0, -1) for the plane), t = (n_z, -n_x) the
 * tangent, delta = R1 + R2 - |p2 - p1| (plane: R1 - z1) the overlap and delta' = n.(v1 - v2)
 * its rate.  The arms from the centres to the contact point are a1 = l1 n, a2 = -l2 n with
 * l_i = R_i - delta/2 (the midpoint of the overlap) or l_i = R_i (rigid arms, the impulse
 * theory's geometry); for the plane l2 = 0.  The contact point's relative velocity is
 * u = v1 + w1 x a1 - v2 - w2 x a2 (w x a = w (a_z, -a_x) in the x-z plane), u_t = u.t.
 *   normal:      linear F_n = k_n delta + c_n delta' (clamped: the contact's force ends
 *                when F_n reaches 0); Hertz F_n = (4/3) E* sqrt(R*) delta^{3/2}, undamped;
 *   tangential:  the force on body 1 along t is T; sticking T' = -k_t u_t with k_t
 *                constant (Cundall & Strack 1979) or k_t = 8 G* sqrt(R* delta) (Mindlin's
 *                no-slip stiffness); sliding T = s mu F_n, s = sign of T (Coulomb);
 *                MINDLIN_TOTAL: the total form T = -k_t(delta) xi, xi' = u_t, of a law
 *                that keeps the displacement xi (the project's Hertz-Mindlin law):
 *                sticking T' = -k_t u_t + T delta'/(2 delta), the slip -> stick function
 *                gains + mu F_n delta'/(2 delta), and a contact starts sliding when
 *                6 G* |u_t| > mu E* delta' (|T| = k_t |u_t| t against mu K delta^{3/2});
 *   body 1:      m1 v1' = -F_n n + T t,  I1 w1' = (a1 x f1)_y = a1_z f1_x - a1_x f1_z;
 *   body 2:      the opposite force at a2 (the plane does not move).
 * T is a scalar in the contact frame, so the history turns with the frame exactly (the
 * continuous limit of the rotated history).  No tangential dashpot and no rolling
 * resistance: the reference does not cover them.
 * Each phase (free flight, sticking, sliding with s = +-1) is smooth and is integrated by
 * GSL's rk8pd under step control at relative tolerance tol (absolute tol times the scale of
 * each state number); every event is located by Brent's method on its event function,
 * each trial integrating afresh from the start of the step that crossed it:
 *   contact start      delta = 0 rising (free -> contact)
 *   force end          F_n = 0 (contact -> free; undamped laws: delta = 0)
 *   overlap end        delta = 0 falling (after a clamped dashpot force ends)
 *   stick -> slip      mu F_n - |T| = 0
 *   slip -> stick      -s k_t u_t - mu F_n' = 0 (the sticking trial's |T| would grow more
 *                      slowly than the Coulomb limit)
 * At contact start the contact sticks when F_n > 0 (a dashpot: T = 0 is inside the
 * limit), else it slides when the trial's rate beats the limit's: linear k_t |u_t| >
 * mu k_n delta', Mindlin 8 G* |u_t| > mu 2 E* delta' (both rates are proportional to
 * sqrt(delta) there: Maw, Barber & Fawcett 1976). */
#ifndef MB_IMPACT_REFERENCE_H
#define MB_IMPACT_REFERENCE_H

#include <stddef.h>

enum mb_impact_normal { MB_IMPACT_NORMAL_LINEAR, MB_IMPACT_NORMAL_HERTZ };
enum mb_impact_tangential {
    MB_IMPACT_TANGENTIAL_LINEAR, MB_IMPACT_TANGENTIAL_MINDLIN,
    MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL
};
enum mb_impact_event_kind {
    MB_IMPACT_CONTACT_START, MB_IMPACT_FORCE_END, MB_IMPACT_OVERLAP_END,
    MB_IMPACT_STICK_TO_SLIP, MB_IMPACT_SLIP_TO_STICK
};

typedef struct mb_impact_params {
    int plane;                  /* 1: body 2 is the plane z = 0 */
    double mass[2], radius[2];  /* body 2's ignored for the plane */
    double inertia[2];          /* moments about y (solid sphere: 2/5 m R^2) */
    int normal;                 /* enum mb_impact_normal */
    double kn, cn;              /* linear law */
    double estar, gstar;        /* Hertz and Mindlin: E*, G* */
    int tangential;             /* enum mb_impact_tangential */
    double kt;                  /* linear tangential stiffness */
    double mu;                  /* Coulomb coefficient (0: frictionless) */
    int rigid_arms;             /* 1: arms R_i; 0: R_i - delta/2 */
} mb_impact_params;

typedef struct mb_impact_state {
    double t;
    double x[2][2], v[2][2];    /* (x, z) of each centre and its velocity */
    double w[2];                /* spins about y */
} mb_impact_state;

#define MB_IMPACT_MAX_EVENTS 64
typedef struct mb_impact_events {
    size_t count;
    int kind[MB_IMPACT_MAX_EVENTS];
    double t[MB_IMPACT_MAX_EVENTS];
    double force_t[MB_IMPACT_MAX_EVENTS];   /* T at the event */
} mb_impact_events;

/* Integrate from s0 (bodies apart or touching with delta <= 0) to t_end; the state at
 * t_end into out, the events into ev (may be NULL).  tol in [1e-15, 1e-6].  MB_EDOM on
 * parameters out of their domain, MB_EFAILED if the integration or a root search fails or
 * more than MB_IMPACT_MAX_EVENTS events occur. */
int mb_impact_reference(const mb_impact_params *p, const mb_impact_state *s0, double t_end,
                        double tol, mb_impact_state *out, mb_impact_events *ev);

/* The same in MPFR at `bits` of precision (53 .. 4096; references use >= 113): each smooth
 * phase carried by the project's Gragg-Bulirsch-Stoer engine (mb_mpfr_ode_span, macro
 * steps of 1/64 of the contact time), each event located by bisection on its event
 * function down to adjacent doubles of t.  Event times are therefore doubles: the result
 * (rounded to double in out) is accurate to about one ulp of t times the jump of the
 * right-hand side at an event (the dashpot's c_n delta' at contact start), not to `bits`.
 * Same domain and errors as mb_impact_reference. */
int mb_impact_reference_mpfr(const mb_impact_params *p, const mb_impact_state *s0, double t_end,
                             long bits, mb_impact_state *out, mb_impact_events *ev);

/* Contact quantities of a state: overlap, its rate, the tangential slip velocity u_t of the
 * contact point (as defined above, with the reference's arms). */
void mb_impact_contact(const mb_impact_params *p, const mb_impact_state *s, double *delta,
                       double *rate, double *slip);

#endif
