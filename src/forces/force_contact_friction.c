/* force_contact_friction.c -- frictional contact between spheres and against planes:
 * a normal law (linear or Hertz, mb_contact.h) with
 *   - a tangential spring with a Coulomb limit, incremental, its elastic displacement xi
 *     carried across steps as contact history and rotated with the contact frame
 *     (Cundall & Strack 1979, Geotechnique 29(1), eqs. 6-7), k_t = kt_ratio kn;
 *   - or Mindlin's no-slip tangential stiffness k_t = 8 G* sqrt(R* delta) with the same
 *     Coulomb limit (Mindlin & Deresiewicz 1953; the no-slip form of Di Renzo & Di Maio
 *     2004, Chem. Eng. Sci. 59, model "no-slip"), with kt_ratio = 4 G* / E*;
 *   - an optional tangential dashpot gamma_t = 2 zeta_t sqrt(m* k_t);
 *   - an optional constant directional rolling torque (Ai et al. 2011, Powder Technol.
 *     206, model A).
 * Forces act at the contact point (the midpoint of the overlap): torques on both bodies.
 *
 * Energy (doc/dem.md, "Energy of the tangential spring"): the potential is the normal
 * law's plus the tangential spring's 1/2 k_t |xi|^2 at the last evaluation's history; the
 * dissipated power, integrated by the runner, is the normal law's, plus gamma_t |u_t|^2 of
 * the dashpot in stick, plus mu_r R* F_n |w_r| of the rolling torque; the slip and, for
 * Hertz-Mindlin, the work of k_t(delta) changing under a held xi are booked by the law
 * itself at its history levels (history_work; the template's fric_book), where they are
 * known exactly: the spring energy the Coulomb limit removes from the trial, as Yade's
 * Law2_ScGeom_FrictPhys_CundallStrack books its plastic dissipation.
 *
 * Jacobian: none.  The force depends on the history, not only on x and v; an implicit
 * scheme asking for the Jacobian is refused with that reason. */
#include "contact_set.h"
#include "mb_force_models.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CONTACT_NO_JACOBIAN
#include "mb_compiler.h"
#include "mb_neighbour.h"
#include "friction_pair_double.c"

#define BASE_DOUBLE
#include "templates_on.h"
#include "contact_geometry_source.c"
#include "contact_normal_source.c"
#include "force_contact_friction_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "contact_geometry_source.c"
#include "contact_normal_source.c"
#include "force_contact_friction_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* The set's normal law in double (contact_set.h). */
static const struct contact_law *normal_law(const struct contact_set *set)
{
    return set->normal == CONTACT_NORMAL_LINEAR ? &mb_contact_law_linear : &mb_contact_law_hertz;
}

/* The pair's kinematics in the double instance's scratch; 1 in contact. */
static int pair_state(const struct contact_set *set, const struct contact_pair *cp,
                      const mb_nodes *s, struct contact_scratch *w, struct fric_scratch *f)
{
    if (contact_kinematics(cp, s, w) != 1)
        return 0;
    contact_normal_force(set, cp, w);
    fric_slip_velocity(cp, s, s->v, w, f);
    fric_coefficients(set, cp, w, f);
    return 1;
}

/* V = sum [normal elastic energy + 1/2 k_t |xi|^2] */
static double friction_potential(const void *params, const mb_nodes *s)
{
    const struct contact_set *set = params;
    struct contact_scratch w;
    struct fric_scratch f;
    double e = 0.0;
    if (mb_contact_set_sync(set, s) != MB_SUCCESS)
        return NAN;
    for (size_t m = 0; m < set->count; m++) {
        const struct contact_pair *cp = &set->items[m];
        if (!pair_state(set, cp, s, &w, &f))
            continue;
        const double *xi = &set->hist->xc[3 * m];
        e += normal_law(set)->energy(cp, *w.delta);
        e += 0.5 * *f.kt * (xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2]);
    }
    return e;
}

/* P = sum [(F - F_elastic) delta' + tangential + rolling] >= 0, the tangential part
 * gamma_t |u_t|^2 in stick and none in slip (the dashpot is idle; the slip's work is
 * booked at the levels, history_work). */
static double friction_dissipation(const void *params, const mb_nodes *s)
{
    const struct contact_set *set = params;
    struct contact_scratch w;
    struct fric_scratch f;
    double p = 0.0;
    if (mb_contact_set_sync(set, s) != MB_SUCCESS)
        return NAN;
    for (size_t m = 0; m < set->count; m++) {
        const struct contact_pair *cp = &set->items[m];
        if (!pair_state(set, cp, s, &w, &f))
            continue;
        const double *ut = f.ut;
        double fe;
        normal_law(set)->force(cp, *w.delta, *w.rate, &fe);
        p += (*w.F - fe) * *w.rate;
        double uu = 0.0, wr[3], wn = 0.0, wrr = 0.0;
        for (int k = 0; k < 3; k++)
            uu += ut[k] * ut[k];
        if (!set->hist->sliding[m])
            p += *f.ct * uu;
        if (cp->roll == 0.0 || !(*w.F > 0.0))
            continue;
        for (int k = 0; k < 3; k++) {
            wr[k] = s->omega[3 * cp->i + k] - (cp->plane ? 0.0 : s->omega[3 * cp->j + k]);
            wn += wr[k] * w.n[k];
        }
        for (int k = 0; k < 3; k++)
            wrr += (wr[k] - wn * w.n[k]) * (wr[k] - wn * w.n[k]);
        p += cp->roll * *w.F * sqrt(wrr);
    }
    return p;
}

/* The normal law's stiffness (kn, or (3/2) K delta^{1/2}) along n and k_t across it, as
 * the absolute row sums of k n n^T + k_t (1 - n n^T) on both nodes.  The rotational
 * coupling of the tangential spring (a sphere's tangential mode has the effective mass
 * (2/7) m) is not in this estimate. */
static void friction_stiffness(const void *params, const mb_nodes *s, double *kk)
{
    const struct contact_set *set = params;
    struct contact_scratch w;
    struct fric_scratch f;
    if (mb_contact_set_sync(set, s) != MB_SUCCESS)
        return;
    for (size_t m = 0; m < set->count; m++) {
        const struct contact_pair *cp = &set->items[m];
        if (!pair_state(set, cp, s, &w, &f))
            continue;
        double kn = normal_law(set)->tangent(cp, *w.delta);
        for (int a = 0; a < 3; a++) {
            double row = 0.0;
            for (int b = 0; b < 3; b++)
                row += fabs(kn * w.n[a] * w.n[b] + *f.kt * ((a == b) - w.n[a] * w.n[b]));
            kk[3 * cp->i + a] += row;
            if (!cp->plane)
                kk[3 * cp->j + a] += row;
        }
    }
}

/* The works booked at the levels so far: those committed through the base and the
 * candidate level's (force_contact_friction_source.c, fric_book). */
static void friction_history_work(const void *params, double *dissipated, double *external)
{
    const struct contact_set *set = params;
    const struct contact_history *h = set->hist;
    *dissipated = h->wb.slip + h->wc.slip;
    *external = h->wb.stiffness + h->wc.stiffness;
}

/* The rate of those works at the held history: -F_t.u_t = k_t xi.u_t of each sliding
 * pair (F_t = -k_t xi at the limit), less, for Hertz-Mindlin, 1/2 (dk_t/dt) |xi|^2 =
 * (k_t/(4 delta)) delta' |xi|^2 (k_t ~ delta^{1/2}). */
static double friction_history_power(const void *params, const mb_nodes *s)
{
    const struct contact_set *set = params;
    struct contact_scratch w;
    struct fric_scratch f;
    double p = 0.0;
    if (mb_contact_set_sync(set, s) != MB_SUCCESS)
        return NAN;
    for (size_t m = 0; m < set->count; m++) {
        if (!pair_state(set, &set->items[m], s, &w, &f))
            continue;
        const double *xi = &set->hist->xc[3 * m];
        if (set->hist->sliding[m])
            p += *f.kt * (xi[0] * f.ut[0] + xi[1] * f.ut[1] + xi[2] * f.ut[2]);
        if (set->normal == CONTACT_NORMAL_HERTZ)
            p -= 0.25 * *f.kt / *w.delta * *w.rate
                 * (xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2]);
    }
    return p;
}

static int refuse_jacobian(const void *params)
{
    const struct contact_set *set = params;
    MB_ERROR(MB_EUNSUP, "%s: a history-dependent tangential law has no Jacobian df/dx, df/dv "
             "(its force depends on the contact history, not on the state alone): implicit "
             "schemes cannot integrate it; use an explicit scheme", set->type->name);
}

static int friction_jacobian(const void *params, const mb_nodes *s, mb_jacobian *J)
{
    (void)s;
    (void)J;
    return refuse_jacobian(params);
}

static int friction_jacobian_mpfr(const void *params, const mb_nodes_mpfr *s,
                                  mb_jacobian_mpfr *J)
{
    (void)s;
    (void)J;
    return refuse_jacobian(params);
}

#define FRICTION_TYPE(sym, text)                                                          \
    static const mb_force_type sym##_type = {                                             \
        .name = text,                                                                     \
        .eval = contact_friction_eval,                                                    \
        .eval_mpfr = contact_friction_mpfr_eval,                                          \
        .potential = friction_potential,                                                  \
        .dissipation = friction_dissipation,                                              \
        .jacobian = friction_jacobian,                                                    \
        .jacobian_mpfr = friction_jacobian_mpfr,                                          \
        .stiffness = friction_stiffness,                                                  \
        .free = mb_contact_set_free,                                                      \
        .describe = mb_contact_set_describe,                                              \
        .periodic = mb_contact_set_periodic,                                              \
        .torque_later = 1,                                                                \
        .history_work = friction_history_work,                                            \
        .history_power = friction_history_power,                                          \
    };
FRICTION_TYPE(cundall_strack, "contact-cundall-strack")
FRICTION_TYPE(hertz_mindlin, "contact-hertz-mindlin")
#undef FRICTION_TYPE

const mb_force_type *const mb_force_contact_cundall_strack = &cundall_strack_type;
const mb_force_type *const mb_force_contact_hertz_mindlin = &hertz_mindlin_type;

/* registry samples (mb_force_models.h): the pairs of the normal laws' samples, with
 * friction, a tangential dashpot and rolling resistance; at the sample's state some
 * pairs stick and some slide */
void *mb_force_sample_contact_cundall_strack(mb_nodes *s)
{
    const mb_contact_linear_params p = { .kn = 3.1e3, .dashpot = MB_DASHPOT_RATIO,
                                         .zeta = 0.15 };
    const mb_contact_friction_params fr = { .mu = 0.43, .kt_ratio = 0.29, .zeta_t = 0.11,
                                            .mu_roll = 0.07 };
    return mb_contact_sample_pairs(mb_contact_cundall_strack_new(&p, &fr), s);
}

void *mb_force_sample_contact_hertz_mindlin(mb_nodes *s)
{
    const mb_contact_hertz_params p = { .estar = 5.3e3, .zeta = 0.12 };
    const mb_contact_friction_params fr = { .mu = 0.37, .kt_ratio = 0.82, .zeta_t = 0.13,
                                            .mu_roll = 0.05 };
    return mb_contact_sample_pairs(mb_contact_hertz_mindlin_new(&p, &fr), s);
}
