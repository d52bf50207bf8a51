/* mb_contact.h -- normal contact force models between spheres and against planes.
 *
 * Two models, each a const mb_force_type (DESIGN 3):
 *
 *   linear spring-dashpot   F = kn delta + c delta'                         (Cundall-Strack)
 *   Hertz                   F = K delta^{3/2} + C delta^{1/4} delta',
 *                           K = (4/3) E* sqrt(R*),  C = 2 zeta sqrt((3/2) K m*)
 *
 * delta > 0 is the overlap, delta' = d delta/dt the approach rate, F the magnitude of
 * the repulsive normal force.  A contact exists only while delta > 0.  The Hertz dashpot
 * is the Tsuji (1992) form: c(delta) = 2 zeta sqrt(m* k_t(delta)) with the tangent
 * stiffness k_t = dF/d delta = (3/2) K delta^{1/2}; it makes the restitution independent
 * of the impact velocity.
 *
 * Non-attractive clamp (default on): F = max(0, F).  During rebound the dashpot term is
 * negative, so the unclamped force becomes attractive before delta returns to 0; clamped,
 * the force vanishes at that instant t* and the bodies leave with the velocity they have
 * then.  For the linear model this raises the restitution from the textbook
 * e = exp(-zeta pi / sqrt(1 - zeta^2)) to e = exp(-zeta w0 t*) (Schwager & Poeschel 2007,
 * see mb_closed_contact.h).  The elastic energy still stored at t* is released without
 * work and is booked as dissipated (dissipation = (F - F_elastic) delta').
 *
 * Geometry.  Sphere pair (i, j): n = (x_j - x_i)/|x_j - x_i|, delta = r_i + r_j - |x_j - x_i|,
 * delta' = -(v_j - v_i).n, f_i -= F n, f_j += F n.  Sphere i against the plane through p
 * with unit normal n (pointing to the side where the sphere is): delta = r_i - (x_i - p).n,
 * delta' = -v_i.n, f_i += F n.  Effective mass m* = m_i m_j/(m_i + m_j) (plane: m_i),
 * effective radius R* = r_i r_j/(r_i + r_j) (plane: r_i).  Normal forces act through the
 * centres: no torque.  Radii come from nodes->radius.
 *
 * Jacobians df/dx, df/dv (for implicit schemes) are provided for both laws; a clamped force
 * contributes none.
 * Per-pair coefficients (c from zeta, K, C) are computed in double when the pair is added,
 * from the node store's masses and radii at that moment. */
#ifndef MB_CONTACT_H
#define MB_CONTACT_H

#include "mb_forces.h"
#include "mb_neighbour.h"

/* How the linear dashpot is given. */
typedef enum { MB_DASHPOT_COEFF = 0, MB_DASHPOT_RATIO = 1 } mb_dashpot_kind;

typedef struct mb_contact_linear_params {
    double kn;                /* normal stiffness (N/m), > 0 */
    mb_dashpot_kind dashpot;  /* COEFF: use c; RATIO: c = 2 zeta sqrt(m* kn) per pair */
    double c;                 /* dashpot coefficient (N s/m), >= 0 */
    double zeta;              /* damping ratio, 0 <= zeta < 1 */
    int attractive;           /* 1: no clamp (textbook law, force may pull) */
} mb_contact_linear_params;

typedef struct mb_contact_hertz_params {
    double estar;             /* effective modulus E* (Pa), > 0 */
    double zeta;              /* Tsuji damping ratio, 0 <= zeta < 1 */
    int attractive;           /* 1: no clamp */
} mb_contact_hertz_params;

/* Tangential contact and rolling resistance, added to a normal law (doc/dem.md,
 * "Friction"):
 *   tangential spring  F_t = -k_t xi - gamma_t u_t,  |F_t| <= mu F_n   (Coulomb limit)
 *     linear (Cundall & Strack 1979):          k_t = kt_ratio kn,
 *                                              gamma_t = 2 zeta_t sqrt(m* k_t)
 *     Hertz-Mindlin no-slip (Mindlin & Deresiewicz 1953; Di Renzo & Di Maio 2004):
 *                                              k_t = 8 G* sqrt(R* delta)
 *                                                  = kt_ratio 2 E* sqrt(R* delta),
 *                                              kt_ratio = 4 G* / E* = 2(1 - nu)/(2 - nu)
 *                                              for one material (in [2/3, 1]),
 *                                              gamma_t = 2 zeta_t sqrt(m* k_t)
 *   xi the elastic tangential displacement (contact history), u_t the tangential velocity
 *   of body i's contact point relative to body j's;
 *   rolling torque (Ai et al. 2011, model A, constant directional torque):
 *     M_r = -mu_r R* F_n w_r/|w_r|, w_r the part of w_i - w_j normal to n. */
typedef struct mb_contact_friction_params {
    double mu;        /* Coulomb coefficient, >= 0 */
    double kt_ratio;  /* linear: k_t/kn in (0, 1]; Hertz-Mindlin: 4 G* / E* in [2/3, 1] */
    double zeta_t;    /* tangential damping ratio, 0 <= zeta_t < 1 */
    double mu_roll;   /* rolling-resistance coefficient, >= 0 (needs mu > 0 when > 0) */
} mb_contact_friction_params;

extern const mb_force_type *const mb_force_contact_linear;
extern const mb_force_type *const mb_force_contact_hertz;
/* The normal laws with the tangential spring, Coulomb limit, dashpot and rolling torque
 * above: forces at the contact point, torques on both bodies. */
extern const mb_force_type *const mb_force_contact_cundall_strack;
extern const mb_force_type *const mb_force_contact_hertz_mindlin;

/* New model with no pairs; NULL (and a recorded error naming the parameter) on bad input. */
void *mb_contact_linear_new(const mb_contact_linear_params *p);
void *mb_contact_hertz_new(const mb_contact_hertz_params *p);
void *mb_contact_cundall_strack_new(const mb_contact_linear_params *p,
                                    const mb_contact_friction_params *fr);
void *mb_contact_hertz_mindlin_new(const mb_contact_hertz_params *p,
                                   const mb_contact_friction_params *fr);
/* The bound on kt_ratio of each frictional law, for messages and readers. */
#define MB_CONTACT_KT_RATIO_LINEAR_MAX 1.0
#define MB_CONTACT_KT_RATIO_MINDLIN_MIN (2.0 / 3.0)
#define MB_CONTACT_KT_RATIO_MINDLIN_MAX 1.0

/* Add a candidate pair to either model.  Nodes must have radius > 0 and mass > 0 (one
 * sphere of a pair may have infinite mass; the plane is rigid).  The normal is normalised
 * here. */
int mb_contact_add_spheres(void *model, const mb_nodes *s, size_t i, size_t j);
int mb_contact_add_plane(void *model, const mb_nodes *s, size_t i, const double point[3],
                         const double normal[3]);
/* Sphere i against the static box j (infinite mass, half-extents half, its centre and
 * orientation read from s now): a wall whose contact is the sphere-box geometry of
 * mb_box_closest (the box point closest to the centre, the normal from it to the centre,
 * the overlap r_i - distance), with the force at the contact point on the sphere alone.
 * A box of finite mass is refused (MB_EUNSUP: the laws turn no box). */
int mb_contact_add_box(void *model, const mb_nodes *s, size_t i, size_t j, const double half[3]);
size_t mb_contact_count(const void *model);

/* Neighbour mode (doc/dem.md "Many spheres"): the model's sphere pairs are the pairs of
 * the shared neighbour list nl (retained), made again whenever the list is rebuilt, with
 * the contact history of a frictional law carried over by the pair's (i, j); walls are
 * the sphere-plane pairs added before.  Every node of s must be a sphere (finite radius
 * and mass > 0) and the list's cutoff >= 2 r_max, so that no contact is missed; pairs
 * are not added by hand afterwards.  Periodic boxes of the list are followed (minimum
 * image).  The MPFR instance refuses a model in this mode. */
int mb_contact_use_neighbours(void *model, const mb_nodes *s, mb_neighbour_list *nl);
/* Bytes a model in neighbour mode holds per pair of the list (the pair, the (i, j) of the
 * previous build, its merge index and image flag, and with friction its history and the
 * history's copy while it is carried over a rebuild), for memory estimates. */
size_t mb_contact_bytes_per_pair(int friction);
/* The nodes of candidate pair m (j = i and plane = 1 for a wall). */
int mb_contact_pair_nodes(const void *model, size_t m, size_t *i, size_t *j, int *plane);

/* Kinematics of pair m in double: overlap delta, approach rate, unit normal n (from i to j;
 * for a plane its normal).  Used by observers. */
int mb_contact_kinematics(const void *model, size_t m, const mb_nodes *s, double *delta,
                          double *rate, double n[3]);
/* Contact history of pair m of a frictional law, of the instance (double or MPFR) that
 * evaluated last, in double: the elastic tangential displacement xi of the last
 * evaluation and whether it slid (|F_t| at the Coulomb limit); zero and 0 when apart or
 * for a frictionless law. */
int mb_contact_history(const void *model, size_t m, double xi[3], int *sliding);
/* One level in place (doc/dem.md, "Contact history"): on = 1 declares that the caller
 * evaluates the frictional law model once per time level, at increasing times -- a
 * stepping loop without probes, without an on-step synchronisation at the step's time,
 * without rejected steps (motionbench bench dem's) --, so that the double instance writes
 * each new level's history over the last (its base) instead of keeping both: the same
 * forces, torques, history and works bit for bit, half the history's memory traffic.  A
 * later evaluation at a time not after the last level opened so is refused (MB_EDOM,
 * naming the law): that level's base is gone.  on = 0 (the default) keeps both levels
 * from the next level on.  The MPFR instance always keeps both.  MB_EUNSUP for a law
 * without friction. */
int mb_contact_history_in_place(void *model, int on);
/* Effective mass of pair m. */
double mb_contact_meff(const void *model, size_t m);

#endif
