/* granular_column.c -- a column of spheres settling under gravity: N spheres of radii
 * uniform in [rmin, rmax] (polydisperse; rmin = rmax: equal) and density rho, placed by
 * random sequential addition (mb_random_packing) at packing fraction phi in a region
 * W x W x H, periodic in x and y, between the floor z = 0 and the lid z = H (centres at
 * least r from both), at rest, released under gravity g along -z onto the floor.
 *
 * H = N <V> / (phi W^2), <V> the mean sphere volume of the radius distribution.  Contacts
 * through the neighbour list (mb_contact_use_neighbours); the floor is a wall of every
 * sphere (mb_contact_add_plane).  The list's box is periodic on all three axes: its z side
 * 2 H + 4 (2 rmax + skin) keeps every image in z out of reach (no sphere rises above the
 * lid: the total energy only falls), so the column is open at the top.
 * Contact: the linear spring-dashpot with the non-attractive clamp, damping ratio
 * zeta = -ln e / sqrt(pi^2 + ln^2 e) of every pair (the restitution e of the unclamped
 * law), kn from the contact time t_c of two spheres of the mean mass:
 * kn = m*(pi / (t_c sqrt(1 - zeta^2)))^2, m* = <m>/2; with friction mu > 0 Cundall-Strack
 * (kt = 2/7 kn).  The questions asked of it are the energy balance of a dissipative
 * assembly under a potential (gravity) and its settling. */
#include "mb_assembly.h"
#include "mb_contact.h"
#include "mb_forces.h"
#include "mb_problem.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>

static const mb_option_spec params[] = {
    { "spheres", MB_OPT_INT, "300", 1, 1000000, NULL, "number of spheres N" },
    { "rmin", MB_OPT_DOUBLE, "0.4", 1e-6, 1e6, NULL, "smallest radius" },
    { "rmax", MB_OPT_DOUBLE, "0.5", 1e-6, 1e6, NULL, "largest radius (>= rmin)" },
    { "width", MB_OPT_DOUBLE, "6", 1e-6, 1e6, NULL,
      "periodic side W in x and y; > 2 (2 rmax + skin)" },
    { "fraction", MB_OPT_DOUBLE, "0.2", 1e-4, MB_RSA_FRACTION_MAX, NULL,
      "packing fraction of the initial region, <= 0.38 (random addition)" },
    { "density", MB_OPT_DOUBLE, "1", 1e-300, 1e300, NULL, "sphere density rho" },
    { "gravity", MB_OPT_DOUBLE, "1", 0, 1e12, NULL, "gravitational acceleration g along -z" },
    { "restitution", MB_OPT_DOUBLE, "0.5", 0.05, 0.999, NULL, "normal restitution e" },
    { "contact_time", MB_OPT_DOUBLE, "0.02", 1e-9, 1e3, NULL, "contact duration t_c" },
    { "friction", MB_OPT_DOUBLE, "0", 0, 10, NULL,
      "Coulomb coefficient mu; > 0: Cundall-Strack, kt = 2/7 kn" },
    { "skin", MB_OPT_DOUBLE, "0.2", 0, 10, NULL, "neighbour-list skin" },
    { "seed", MB_OPT_INT, "2385", 0, 2147483647, NULL, "seed of the packing" },
    MB_OPTION_END
};

static size_t nodes(const mb_options *p) { return (size_t)mb_options_int(p, "spheres"); }

struct column_geometry {
    double rmin, rmax, W, H, Lz, skin, mean_mass;
};

static int geometry(const mb_options *p, struct column_geometry *g)
{
    g->rmin = mb_options_double(p, "rmin");
    g->rmax = mb_options_double(p, "rmax");
    g->W = mb_options_double(p, "width");
    g->skin = mb_options_double(p, "skin");
    if (g->rmax < g->rmin)
        MB_ERROR(MB_EDOM, "granular-column: rmax = %g is below rmin = %g", g->rmax, g->rmin);
    if (!(g->W > 2.0 * (2.0 * g->rmax + g->skin)))
        MB_ERROR(MB_EDOM, "granular-column: width %g must exceed 2 (2 rmax + skin) = %g",
                 g->W, 2.0 * (2.0 * g->rmax + g->skin));
    double region[3];
    int st = mb_packing_region(nodes(p), g->rmin, g->rmax, mb_options_double(p, "fraction"),
                               g->W, region);
    if (st != MB_SUCCESS)
        return st;
    g->H = region[2];
    g->Lz = 2.0 * g->H + 4.0 * (2.0 * g->rmax + g->skin);
    g->mean_mass = mb_options_double(p, "density") * mb_sphere_mean_volume(g->rmin, g->rmax);
    return MB_SUCCESS;
}

static void *make_law(const mb_options *p, const struct column_geometry *g)
{
    double e = mb_options_double(p, "restitution"), le = log(e);
    double zeta = -le / sqrt(M_PI * M_PI + le * le);
    double w0 = M_PI / (mb_options_double(p, "contact_time") * sqrt(1.0 - zeta * zeta));
    const mb_contact_linear_params lp = { .kn = 0.5 * g->mean_mass * w0 * w0,
                                          .dashpot = MB_DASHPOT_RATIO, .zeta = zeta };
    double mu = mb_options_double(p, "friction");
    if (mu == 0.0)
        return mb_contact_linear_new(&lp);
    const mb_contact_friction_params fr = { .mu = mu, .kt_ratio = 2.0 / 7.0 };
    return mb_contact_cundall_strack_new(&lp, &fr);
}

/* the packing in W x W x H, periodic in x and y, of spheres of density rho at rest: the
 * assembly a scene writes as [assembly NAME] generator = packing (doc/scenes.md) */
static int place(const mb_options *p, const struct column_geometry *g, mb_nodes *s)
{
    const mb_assembly_spec a = {
        .generator = MB_ASSEMBLY_PACKING, .count = s->n, .box = { g->W, g->W, g->H },
        .periodic = { 1, 1, 0 }, .seed = (unsigned long)mb_options_int(p, "seed"),
        .attempts = 100000, .rmin = g->rmin, .rmax = g->rmax,
        .density = mb_options_double(p, "density")
    };
    return mb_assembly_place(&a, s, 0);
}

/* gravity, then the contact law: the floor for every sphere, the spheres from the list */
static int add_forces(const mb_options *p, const struct column_geometry *g, mb_system *sys)
{
    const double grav[3] = { 0.0, 0.0, -mb_options_double(p, "gravity") };
    int st = mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(grav));
    if (st != MB_SUCCESS)
        return st;
    const mb_force_type *type = mb_options_double(p, "friction") > 0.0
                                    ? mb_force_contact_cundall_strack : mb_force_contact_linear;
    void *law = make_law(p, g);
    const double box[3] = { g->W, g->W, g->Lz }, o[3] = { 0, 0, 0 }, up[3] = { 0, 0, 1 };
    mb_neighbour_list *nl = law ? mb_neighbour_new(2.0 * g->rmax, g->skin, box) : NULL;
    st = law && nl ? MB_SUCCESS : mb_last_error_code();
    for (size_t i = 0; i < sys->nodes->n && st == MB_SUCCESS; i++)
        st = mb_contact_add_plane(law, sys->nodes, i, o, up);
    if (st == MB_SUCCESS)
        st = mb_contact_use_neighbours(law, sys->nodes, nl);
    mb_neighbour_free(nl);
    if (st == MB_SUCCESS)
        return mb_forces_add(sys->forces, type, law);
    if (law)
        type->free(law);
    return st;
}

static int setup(const mb_options *p, mb_system **out)
{
    struct column_geometry g = { 0 };
    int st = geometry(p, &g);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(nodes(p));
    if (sys == NULL)
        return MB_ENOMEM;
    st = place(p, &g, sys->nodes);
    if (st == MB_SUCCESS)
        st = add_forces(p, &g, sys);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_granular_column = {
    .name = "granular-column",
    .summary = "polydisperse spheres settling under gravity onto a floor, periodic in x and y, "
               "contacts on the neighbour list",
    .params = params,
    .setup = setup,
    /* no nodes hook: a case loader builds the system once, so that a packing the
     * parameters cannot reach is refused at the case's [problem] line.  Its scene text is
     * an [assembly] (tests/test_scene_presets.c) */
};
