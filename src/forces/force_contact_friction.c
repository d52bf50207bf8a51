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
 * itself at its history levels (history_work; friction_books.c), where they are known
 * exactly: the spring energy the Coulomb limit removes from the trial, as Yade's
 * Law2_ScGeom_FrictPhys_CundallStrack books its plastic dissipation.  Each instance
 * (double, MPFR) keeps that account in double; the hooks read the one that evaluated last,
 * so an MPFR twin's energy metrics are its own.
 *
 * Jacobian: none.  The force depends on the history, not only on x and v; an implicit
 * scheme asking for the Jacobian is refused with that reason. */
#include "contact_set.h"
#include "mb_force_models.h"
#include "mb_status.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CONTACT_NO_JACOBIAN
#include "mb_compiler.h"
#include "mb_neighbour.h"
#include "friction_books.c"
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

/* The energy terms of one pair in contact, in double (doc/dem.md, "Energy of the
 * tangential spring"), read from the live account (contact_history.c: the instance that
 * evaluated last, so that an MPFR twin's energies are its own):
 *   spring      normal elastic energy + 1/2 k_t |xi|^2
 *   dissipated  (F - F_elastic) delta' of the normal law, gamma_t |u_t|^2 of the dashpot
 *               in stick (none in slip: the dashpot is idle, the slip's work is booked at
 *               the levels), mu_r R* F_n |w_r| of the rolling torque
 *   booked      the rate of the works booked at the levels at the held history:
 *               -F_t.u_t = k_t xi.u_t of a sliding pair (F_t = -k_t xi at the limit),
 *               less, for Hertz-Mindlin, 1/2 (dk_t/dt) |xi|^2 = (k_t/(4 delta)) delta' |xi|^2
 *               (k_t ~ delta^{1/2})
 *   kn, kt      the normal law's tangent stiffness and k_t. */
struct pair_energy {
    double spring, dissipated, booked, kn, kt, n[3];
};

/* The rolling part of the dissipated power: mu_r R* F_n |w_r|, w_r the relative spin
 * across n (fric_rolling). */
static double rolling_power(const struct contact_pair *cp, const mb_nodes *s, const double n[3],
                            double F)
{
    double wr[3], wn = 0.0, wrr = 0.0;
    if (cp->roll == 0.0 || !(F > 0.0))
        return 0.0;
    for (int k = 0; k < 3; k++) {
        wr[k] = s->omega[3 * cp->i + k] - (cp->plane ? 0.0 : s->omega[3 * cp->j + k]);
        wn += wr[k] * n[k];
    }
    for (int k = 0; k < 3; k++)
        wrr += (wr[k] - wn * n[k]) * (wr[k] - wn * n[k]);
    return cp->roll * F * sqrt(wrr);
}

/* The energy terms of pair m in the state s; 0 when apart. */
static int pair_energy(const struct contact_set *set, size_t m, const mb_nodes *s,
                       struct contact_scratch *w, struct fric_scratch *f, struct pair_energy *e)
{
    const struct contact_pair *cp = &set->items[m];
    const struct contact_law *law = set->normal == CONTACT_NORMAL_LINEAR ? &mb_contact_law_linear
                                                                          : &mb_contact_law_hertz;
    const struct contact_history *h = set->hist;
    if (contact_kinematics(set, cp, s, w) != 1)
        return 0;
    contact_normal_force(set, cp, w);
    fric_slip_velocity(cp, s, s->v, w, f);
    fric_coefficients(set, cp, w, f);
    const double *xi = mb_contact_history_xi(h, m), *ut = f->ut;
    const double xx = xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2];
    const int sliding = h->live->sliding[m];
    double fe;
    law->force(cp, *w->delta, *w->rate, &fe);
    e->kn = law->tangent(cp, *w->delta);
    e->kt = *f->kt;
    memcpy(e->n, w->n, sizeof e->n);
    e->spring = law->energy(cp, *w->delta) + 0.5 * e->kt * xx;
    e->dissipated = (*w->F - fe) * *w->rate
                    + (sliding ? 0.0 : *f->ct * (ut[0] * ut[0] + ut[1] * ut[1] + ut[2] * ut[2]))
                    + rolling_power(cp, s, w->n, *w->F);
    e->booked = sliding ? e->kt * (xi[0] * ut[0] + xi[1] * ut[1] + xi[2] * ut[2]) : 0.0;
    if (set->normal == CONTACT_NORMAL_HERTZ)
        e->booked -= 0.25 * e->kt / *w->delta * *w->rate * xx;
    return 1;
}

/* The energy hooks' one loop: the sum over the pairs in contact of the term `which`
 * (offsetof a double of struct pair_energy); with kk, the stiffness estimate instead:
 * the absolute row sums of kn n n^T + k_t (1 - n n^T) added on both nodes (the rotational
 * coupling of the tangential spring -- a sphere's tangential mode has the effective mass
 * (2/7) m -- is not in this estimate). */
static double pairs_sum(const struct contact_set *set, const mb_nodes *s, size_t which,
                        double *kk)
{
    struct contact_scratch w;
    struct fric_scratch f;
    struct pair_energy e;
    double sum = 0.0;
    if (mb_contact_set_sync(set, s) != MB_SUCCESS)
        return NAN;
    for (size_t m = 0; m < set->count; m++) {
        if (!pair_energy(set, m, s, &w, &f, &e))
            continue;
        sum += *(const double *)((const char *)&e + which);
        if (kk == NULL)
            continue;
        const struct contact_pair *cp = &set->items[m];
        for (int a = 0; a < 3; a++) {
            double row = 0.0;
            for (int b = 0; b < 3; b++)
                row += fabs(e.kn * e.n[a] * e.n[b] + e.kt * ((a == b) - e.n[a] * e.n[b]));
            kk[3 * cp->i + a] += row;
            if (!cp->plane)
                kk[3 * cp->j + a] += row;
        }
    }
    return sum;
}

/* V = sum [normal elastic energy + 1/2 k_t |xi|^2] */
static double friction_potential(const void *params, const mb_nodes *s)
{
    return pairs_sum(params, s, offsetof(struct pair_energy, spring), NULL);
}

/* P = sum [(F - F_elastic) delta' + tangential + rolling] >= 0 */
static double friction_dissipation(const void *params, const mb_nodes *s)
{
    return pairs_sum(params, s, offsetof(struct pair_energy, dissipated), NULL);
}

static void friction_stiffness(const void *params, const mb_nodes *s, double *kk)
{
    (void)pairs_sum(params, s, offsetof(struct pair_energy, kt), kk);
}

/* The works booked at the levels so far by the live instance: those committed through
 * the base and the candidate level's (friction_books.c). */
static void friction_history_work(const void *params, double *dissipated, double *external)
{
    const struct contact_books *b = ((const struct contact_set *)params)->hist->live;
    *dissipated = b->wb.slip + b->wc.slip;
    *external = b->wb.stiffness + b->wc.stiffness;
}

/* The rate of those works at the held history (pair_energy's booked). */
static double friction_history_power(const void *params, const mb_nodes *s)
{
    return pairs_sum(params, s, offsetof(struct pair_energy, booked), NULL);
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
