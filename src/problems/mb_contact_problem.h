/* mb_contact_problem.h -- shared machinery of the sphere contact problems
 * (sphere-collision, sphere-wall, sphere-settle): the contact-law parameters every one of
 * them takes, the model they build from those, the closed forms that go with it, and the
 * binary-collision observer.  Private to the problems module. */
#ifndef MB_CONTACT_PROBLEM_H
#define MB_CONTACT_PROBLEM_H

#include "mb_contact.h"
#include "mb_problem.h"
#include "mb_scene_place.h"

/* The contact-law parameters, to be listed in a problem's spec table. */
#define MB_CONTACT_LAW_SPECS(zeta_default)                                                     \
    { "model", MB_OPT_CHOICE, "linear", 0, 0, "linear|hertz",                                  \
      "normal contact law: linear spring-dashpot or Hertz" },                                  \
    { "kn", MB_OPT_DOUBLE, "1e5", 1e-300, 1e300, NULL,                                         \
      "linear: normal stiffness kn (N/m), > 0" },                                              \
    { "zeta", MB_OPT_DOUBLE, zeta_default, 0.0, 0.99, NULL,                                    \
      "damping ratio in [0, 0.99] (linear: c = 2 zeta sqrt(m* kn); hertz: Tsuji dashpot)" },   \
    { "c", MB_OPT_DOUBLE, "0", 0.0, 1e300, NULL,                                               \
      "linear: dashpot coefficient (N s/m) instead of zeta, >= 0 (give one of c, zeta)" },     \
    { "young", MB_OPT_DOUBLE, "1e8", 1e-300, 1e300, NULL, "hertz: Young's modulus E (Pa), > 0" }, \
    { "poisson", MB_OPT_DOUBLE, "0.3", 0.0, 0.5, NULL, "hertz: Poisson's ratio in [0, 0.5]" }, \
    { "clamp", MB_OPT_BOOL, "true", 0, 0, NULL,                                                \
      "clamp the normal force to be non-attractive (false: textbook law)" }

/* The frictional parameters of a problem that takes them (sphere-wall): with mu > 0 the
 * frictional law of the normal law selected (Cundall-Strack or Hertz-Mindlin, no
 * tangential dashpot, no rolling resistance: what the event-located reference covers). */
#define MB_CONTACT_FRICTION_SPECS                                                              \
    { "mu", MB_OPT_DOUBLE, "0", 0.0, 1e3, NULL,                                                \
      "Coulomb friction coefficient, >= 0 (0: frictionless, the normal law alone)" },          \
    { "kt_ratio", MB_OPT_DOUBLE, "0", 0.0, 1.0, NULL,                                          \
      "with mu > 0: linear k_t/kn in (0, 1], hertz 4 G*/E* in [2/3, 1]; 0: 2/7 (linear) or "   \
      "2 (1 - nu)/(2 - nu) (hertz, one material)" },                                           \
    { "spin", MB_OPT_DOUBLE, "0", -1e9, 1e9, NULL, "initial spin about +y (rad/s)" }

/* Which law the parameters select, and its derived constants for one pair. */
typedef struct mb_contact_law {
    int hertz;            /* 0: linear, 1: Hertz */
    int clamp;
    double kn, c, zeta;   /* linear: zeta is c / (2 sqrt(m* kn)) when c is given */
    double estar;         /* Hertz: E / (2 (1 - nu^2)) between spheres, E / (1 - nu^2) on a rigid wall */
    double mu, kt_ratio;  /* friction (mb_contact_friction_read; mu = 0: none) */
} mb_contact_law;

/* Read the law (wall = 1: sphere against a rigid plane); meff is the pair's m*. */
int mb_contact_law_read(const mb_options *p, int wall, double meff, mb_contact_law *law);
/* The friction of a problem with MB_CONTACT_FRICTION_SPECS into law (after
 * mb_contact_law_read): mu and kt_ratio, its default resolved. */
void mb_contact_friction_read(const mb_options *p, mb_contact_law *law);
/* The event-located reference's parameters (mb_impact_reference.h) of a frictional law
 * for sphere (m1, r1) on the plane (plane = 1: m2, r2 ignored) or on sphere (m2, r2): the
 * arms at the midpoint of the overlap, as the laws have them; the Hertz-Mindlin law as
 * the total form.  MB_EUNSUP for a law the reference lacks (damped Hertz, textbook
 * dashpot). */
struct mb_impact_params;
int mb_contact_impact_params(const mb_contact_law *law, int plane, double m1, double r1,
                             double m2, double r2, struct mb_impact_params *ip);
/* The law of the parameters as the DEM law of a scene's [contact] section: model, kn with
 * c when given or zeta, young, poisson, clamp = not attractive (mb_scene_place_dem_model
 * makes the same model from it as from that section). */
void mb_contact_law_scene(const mb_options *p, mb_scene_dem_law *out);
/* Node i of sys: a sphere of mass m and radius r (I = 2/5 m r^2 given as its principal
 * moments) at x with velocity v, not spinning, placed by the scene path. */
void mb_contact_place_sphere(mb_system *sys, size_t i, double m, double r, const double x[3],
                             const double v[3]);
/* Model of the law of p on sys->forces (wall: E* of a rigid plane) with sphere i against
 * sphere j, or against the plane (point, normal) when point is not NULL; on failure sys
 * is freed. */
int mb_contact_place_pair(const mb_options *p, mb_system *sys, int wall, size_t i, size_t j,
                          const double *point, const double *normal);
/* Closed-form restitution and contact (overlap) duration for an impact at speed v on a pair
 * (meff, reff); NaN where none exists (damped Hertz). */
void mb_contact_law_closed(const mb_contact_law *law, double meff, double reff, double v,
                           double *e, double *tc);

/* Binary-collision observer on pair 0 of the system's contact model: measures
 *   restitution        = (separation normal speed) / (approach normal speed), taken at the
 *                        samples just after and just before the (first) contact;
 *   contact.duration   = time with overlap > 0, ends located by linear interpolation of the
 *                        overlap between samples;
 * and reports beside them the closed forms (_exact), restitution_error = measured -
 * closed form, contact.duration_error = measured / closed form - 1, and contact.count. */
int mb_collision_observe_begin(void **ctx, const mb_system *sys, double e_closed,
                               double tc_closed);
int mb_collision_observe_step(void *ctx, const mb_system *sys, const mb_nodes *on_step);
int mb_collision_observe_end(void *ctx, mb_observation *out);
/* Observer of a frictional oblique impact of sphere 0 on the plane z = 0 or on sphere 1,
 * in the x-z plane (oblique_observer.c): the collision observer's measures against the
 * reference's normal restitution and contact duration, and the
 * tangential restitution (along the unit tangent e_t, (x, z) components), rebound angle,
 * rebound spin and first stick <-> slip time, each beside the event-located reference's
 * (ip, s0, integrated to t_after, after the contact) and its error (doc/dem.md, "Impact
 * metrics"). */
struct mb_impact_params;
struct mb_impact_state;
int mb_oblique_observe_begin(void **ctx, const mb_system *sys, const struct mb_impact_params *ip,
                             const struct mb_impact_state *s0, const double e_t[2],
                             double t_after);
int mb_oblique_observe_step(void *ctx, const mb_system *sys, const mb_nodes *on_step);
int mb_oblique_observe_end(void *ctx, mb_observation *out);
/* The observer of an impact problem (sphere-wall, sphere-collision): the collision
 * observer, or with friction (oblique = 1) the oblique one, its context in inner; the
 * problem's observe_begin allocates it and begins the inner observer, and these step and
 * end it (mb_impact_observe_end frees it). */
typedef struct mb_impact_observer {
    int oblique;
    void *inner;
} mb_impact_observer;
int mb_impact_observe_step(void *ctx, const mb_system *sys, const mb_nodes *on_step);
int mb_impact_observe_end(void *ctx, mb_observation *out);
/* The contact model in a system's field (NULL if none). */
const void *mb_contact_model_of(const mb_system *sys);
/* Append a named value to an observation (silently ignores overflow past the maximum). */
void mb_observation_add(mb_observation *o, const char *name, double value);

#endif
