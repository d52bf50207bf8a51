/* granular_gas.c -- a homogeneous cooling granular gas: N equal spheres (diameter 1, mass
 * m) placed by random sequential addition at packing fraction phi in a periodic cube
 * (mb_random_packing), Maxwell velocities of zero momentum at temperature T0
 * (mb_thermal_velocities), no spin, contacts found through the neighbour list
 * (mb_contact_use_neighbours).
 *
 * Contact: the linear spring-dashpot without the non-attractive clamp, whose restitution
 * is e = exp(-zeta pi / sqrt(1 - zeta^2)) for every impact velocity, so
 *   zeta = -ln e / sqrt(pi^2 + ln^2 e),
 * and whose duration is t_c = pi / (w0 sqrt(1 - zeta^2)), w0^2 = kn / m*, so
 *   kn = m* (pi / (t_c sqrt(1 - zeta^2)))^2,   c = 2 zeta sqrt(m* kn),  m* = m/2
 * (mb_closed_contact.h).  With friction mu > 0 the law is Cundall-Strack (kt = 2/7 kn, no
 * tangential dashpot): a frictional dissipative assembly for the energy balance.
 * restitution = 1 gives zeta = 0, no dashpot: an elastic normal law (with friction, the
 * slip is the only loss), the law of a package without a normal dashpot (Yade's
 * Law2_ScGeom_FrictPhys_CundallStrack); no Haff metrics (1 - e^2 = 0, nothing cools).
 * dashpot=single is a negative control: c = 2 zeta sqrt(m kn) with a particle's mass in
 * place of m*, a common mistake that raises the damping ratio by sqrt(2) and so mis-sets
 * the restitution.
 *
 * boundary=open places the same packing (centres at least r inside the cube) in open space,
 * with an open neighbour list: the gas expands, no periodic image breaks rotational
 * invariance, and the angular momentum metrics apply (the counterpart of the periodic gas,
 * which has none: doc/statistics.md).
 *
 * Observed (frictionless gas in the periodic cube, doc/dem.md "Haff's law"): the granular temperature
 * T = sum m v^2 / (3 (N - 1)) of every sample; at the end the least-squares line
 * 1/sqrt(T) = a + b t, whose Haff form is (1 + t/t0)/sqrt(T0), gives the measured cooling
 * time t0 = a/b, compared with Haff's t0 from e, n, sigma, the Carnahan-Starling g(sigma)
 * (mb_closed_granular.h):
 *   haff.cooling_time, haff.cooling_time_exact, haff.cooling_time_error = measured/exact - 1,
 *   haff.tolerance = 3 sqrt(1/C + 1/N) + |3 a2/16| + omega0 t_c,
 *   haff.deviation = |haff.cooling_time_error| / haff.tolerance  (<= 1: Haff's law holds),
 * C = (N/2) omega0 t0 ln(1 + t_end/t0) the collisions of the run (derivation in the doc). */
#include "mb_assembly.h"
#include "mb_closed_granular.h"
#include "mb_contact.h"
#include "mb_contact_problem.h"
#include "mb_problem.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const mb_option_spec params[] = {
    { "spheres", MB_OPT_INT, "1000", 2, 1000000, NULL, "number of spheres N" },
    { "fraction", MB_OPT_DOUBLE, "0.1", 1e-4, MB_RSA_FRACTION_MAX, NULL,
      "packing fraction phi = N pi / (6 V) (diameter 1), <= 0.38 (random addition)" },
    { "restitution", MB_OPT_DOUBLE, "0.8", 0.05, 1, NULL,
      "normal restitution e (1: an elastic normal law, no dashpot; no Haff metrics)" },
    { "temperature", MB_OPT_DOUBLE, "1", 1e-12, 1e12, NULL,
      "initial granular temperature T0 = m <v^2> / 3" },
    { "contact_time", MB_OPT_DOUBLE, "0.005", 1e-9, 1e3, NULL,
      "contact duration t_c, which sets kn (in time units of diameter / sqrt(T0 / m))" },
    { "mass", MB_OPT_DOUBLE, "1", 1e-300, 1e300, NULL, "sphere mass m" },
    { "friction", MB_OPT_DOUBLE, "0", 0, 10, NULL,
      "Coulomb coefficient mu; > 0: Cundall-Strack, kt = 2/7 kn (no Haff metrics)" },
    { "dashpot", MB_OPT_CHOICE, "reduced", 1, 0, "reduced|single",
      "reduced: c = 2 zeta sqrt(m* kn); single: with a sphere's mass (negative control)" },
    { "skin", MB_OPT_DOUBLE, "0.2", 0, 10, NULL, "neighbour-list skin (diameters)" },
    { "boundary", MB_OPT_CHOICE, "periodic", 1, 0, "periodic|open",
      "periodic: the cube is periodic (minimum image); open: the same packing in open "
      "space, free to expand (no Haff metrics; angular momentum is conserved there)" },
    { "seed", MB_OPT_INT, "2385", 0, 2147483647, NULL, "seed of the packing and velocities" },
    MB_OPTION_END
};

static size_t nodes(const mb_options *p) { return (size_t)mb_options_int(p, "spheres"); }

static double box_side(const mb_options *p)
{
    return cbrt((double)nodes(p) * M_PI / 6.0 / mb_options_double(p, "fraction"));
}

/* zeta and kn of the linear law from e and t_c (header) */
static void law_of(const mb_options *p, double *zeta, double *kn)
{
    double e = mb_options_double(p, "restitution"), le = log(e), meff = 0.5 * mb_options_double(p, "mass");
    *zeta = -le / sqrt(M_PI * M_PI + le * le);
    double w0 = M_PI / (mb_options_double(p, "contact_time") * sqrt(1.0 - *zeta * *zeta));
    *kn = meff * w0 * w0;
}

static void *make_law(const mb_options *p)
{
    double zeta, kn, m = mb_options_double(p, "mass");
    law_of(p, &zeta, &kn);
    int single = strcmp(mb_options_string(p, "dashpot"), "single") == 0;
    mb_contact_linear_params lp = { .kn = kn, .dashpot = MB_DASHPOT_RATIO, .zeta = zeta,
                                    .attractive = 1 };
    if (single) {
        lp.dashpot = MB_DASHPOT_COEFF;
        lp.c = 2.0 * zeta * sqrt(m * kn);
    }
    double mu = mb_options_double(p, "friction");
    if (mu == 0.0)
        return mb_contact_linear_new(&lp);
    const mb_contact_friction_params fr = { .mu = mu, .kt_ratio = 2.0 / 7.0 };
    return mb_contact_cundall_strack_new(&lp, &fr);
}

static int open_space(const mb_options *p)
{
    return strcmp(mb_options_string(p, "boundary"), "open") == 0;
}

/* the packing, the masses and the thermal velocities (seeded with seed + 1): the
 * assembly a scene writes as [assembly NAME] generator = packing (doc/scenes.md) */
static int place(const mb_options *p, mb_nodes *s, double side)
{
    const int wrap = !open_space(p);
    unsigned long seed = (unsigned long)mb_options_int(p, "seed");
    const mb_assembly_spec a = {
        .generator = MB_ASSEMBLY_PACKING, .count = s->n, .box = { side, side, side },
        .periodic = { wrap, wrap, wrap }, .seed = seed, .attempts = 100000, .rmin = 0.5,
        .rmax = 0.5, .mass = mb_options_double(p, "mass"),
        .temperature = mb_options_double(p, "temperature"), .velocity_seed = seed + 1
    };
    return mb_assembly_place(&a, s, 0);
}

static int setup(const mb_options *p, mb_system **out)
{
    size_t n = nodes(p);
    double side = box_side(p), skin = mb_options_double(p, "skin");
    if (!open_space(p) && !(side > 2.0 * (1.0 + skin)))
        MB_ERROR(MB_EDOM, "granular-gas: box side %g (spheres, fraction) must exceed 2 (1 + "
                 "skin) = %g: more spheres or a lower fraction", side, 2.0 * (1.0 + skin));
    mb_system *sys = mb_system_alloc(n);
    if (sys == NULL)
        return MB_ENOMEM;
    int st = place(p, sys->nodes, side);
    const mb_force_type *type = mb_options_double(p, "friction") > 0.0
                                    ? mb_force_contact_cundall_strack : mb_force_contact_linear;
    void *law = st == MB_SUCCESS ? make_law(p) : NULL;
    const double box[3] = { side, side, side };
    mb_neighbour_list *nl = law ? mb_neighbour_new(1.0, skin, open_space(p) ? NULL : box) : NULL;
    if (st == MB_SUCCESS)
        st = law && nl ? mb_contact_use_neighbours(law, sys->nodes, nl) : mb_last_error_code();
    mb_neighbour_free(nl);
    if (st == MB_SUCCESS)
        st = mb_forces_add(sys->forces, type, law);
    else if (law)
        type->free(law);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

/* ---- Haff's law ---- */

struct haff_observer {
    double n_density, chi, e, T0, m, tc, t_end_seen;
    size_t N, count, cap;
    double *t, *T;
};

static int observe_begin(void **ctx, const mb_options *p, const mb_system *sys)
{
    (void)sys;
    *ctx = NULL;
    if (mb_options_double(p, "friction") > 0.0 || open_space(p)
        || mb_options_double(p, "restitution") == 1.0)
        return MB_SUCCESS;   /* Haff's law is for smooth inelastic spheres in a homogeneous gas */
    struct haff_observer *o = calloc(1, sizeof *o);
    if (o == NULL)
        MB_ERROR(MB_ENOMEM, "cannot allocate the Haff observer");
    double phi = mb_options_double(p, "fraction");
    o->N = nodes(p);
    o->n_density = 6.0 * phi / M_PI;
    o->chi = mb_granular_chi_cs(phi);
    o->e = mb_options_double(p, "restitution");
    o->T0 = mb_options_double(p, "temperature");
    o->m = mb_options_double(p, "mass");
    o->tc = mb_options_double(p, "contact_time");
    *ctx = o;
    return MB_SUCCESS;
}

static int observe_step(void *ctx, const mb_system *sys, const mb_nodes *on_step)
{
    struct haff_observer *o = ctx;
    if (o == NULL)
        return MB_SUCCESS;
    if (o->count == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 1024;
        double *t = realloc(o->t, cap * sizeof *t), *T = t ? realloc(o->T, cap * sizeof *T) : NULL;
        if (t)
            o->t = t;
        if (T == NULL)
            MB_ERROR(MB_ENOMEM, "Haff observer: cannot keep %zu samples", cap);
        o->T = T;
        o->cap = cap;
    }
    double twice_ke = 0.0;
    for (size_t k = 0; k < 3 * on_step->n; k++)
        twice_ke += on_step->mass[k / 3] * on_step->v[k] * on_step->v[k];
    o->t[o->count] = sys->t;
    o->T[o->count] = twice_ke / (3.0 * (double)(on_step->n - 1));
    o->count++;
    return MB_SUCCESS;
}

/* t0 = a/b of the least-squares line 1/sqrt(T) = a + b t; NaN with fewer than 3 samples */
static double fitted_cooling_time(const struct haff_observer *o)
{
    if (o->count < 3)
        return NAN;
    double st = 0.0, sy = 0.0, stt = 0.0, sty = 0.0, k = (double)o->count;
    for (size_t i = 0; i < o->count; i++) {
        double y = 1.0 / sqrt(o->T[i]);
        st += o->t[i];
        sy += y;
        stt += o->t[i] * o->t[i];
        sty += o->t[i] * y;
    }
    double b = (k * sty - st * sy) / (k * stt - st * st), a = (sy - b * st) / k;
    return a / b;
}

static int observe_end(void *ctx, mb_observation *out)
{
    struct haff_observer *o = ctx;
    out->count = 0;
    if (o == NULL)
        return MB_SUCCESS;
    double t0 = mb_haff_cooling_time(o->n_density, 1.0, o->chi, o->e, o->T0, o->m);
    double w0 = mb_granular_collision_frequency(o->n_density, 1.0, o->chi, o->T0, o->m);
    double t_end = o->count ? o->t[o->count - 1] : 0.0;
    double collisions = 0.5 * (double)o->N * w0 * t0 * log1p(t_end / t0);
    double tol = 3.0 * sqrt(1.0 / collisions + 1.0 / (double)o->N)
                 + fabs(3.0 * mb_granular_sonine_a2(o->e) / 16.0) + w0 * o->tc;
    double fit = fitted_cooling_time(o), err = fit / t0 - 1.0;
    mb_observation_add(out, "haff.cooling_time", fit);
    mb_observation_add(out, "haff.cooling_time_exact", t0);
    mb_observation_add(out, "haff.cooling_time_error", err);
    mb_observation_add(out, "haff.tolerance", tol);
    mb_observation_add(out, "haff.deviation", fabs(err) / tol);
    mb_observation_add(out, "haff.collisions", collisions);
    free(o->t);
    free(o->T);
    free(o);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_granular_gas = {
    .name = "granular-gas",
    .summary = "homogeneous cooling granular gas: random packing, periodic cube, contacts on "
               "the neighbour list, Haff's law observed",
    .params = params,
    .setup = setup,
    .observe_begin = observe_begin,
    .observe_step = observe_step,
    .observe_end = observe_end,
    /* the temperature fit takes whatever samples it is given (outside_rows = samples) */
    .flags = MB_PROBLEM_SAMPLED_OBSERVER,
    /* no nodes hook: a case loader builds the system once, so that a packing the
     * parameters cannot reach is refused at the case's [problem] line.  Its scene text is
     * an [assembly] (tests/test_scene_presets.c) */
};
