/* assembly_place.c -- a whole many-body assembly into a node store (mb_assembly.h): the
 * generator's positions and radii (a lattice or a random packing), the masses and moments
 * of solid spheres, and the velocities (uniform or thermal).  granular-gas,
 * granular-column and the [assembly NAME] sections of scenes all place their spheres here,
 * so a scene that describes one of those problems builds its nodes bit for bit. */
#include "mb_assembly.h"
#include "mb_nodes.h"
#include "mb_status.h"

#include <math.h>
#include <stdint.h>

size_t mb_assembly_count(const mb_assembly_spec *a)
{
    if (a->generator == MB_ASSEMBLY_PACKING)
        return a->count;
    size_t n = mb_lattice_basis(a->lattice);
    for (int k = 0; k < 3; k++) {
        if (a->cells[k] == 0 || n > SIZE_MAX / a->cells[k])
            return 0;
        n *= a->cells[k];
    }
    return n;
}

/* <r^3> of r uniform in [a, b]: (b^4 - a^4) / (4 (b - a)), a^3 when a = b */
static double mean_cube(double a, double b)
{
    return b > a ? (b * b * b * b - a * a * a * a) / (4.0 * (b - a)) : a * a * a;
}

double mb_sphere_mean_volume(double rmin, double rmax)
{
    return 4.0 / 3.0 * M_PI * mean_cube(rmin, rmax);
}

int mb_packing_region(size_t n, double rmin, double rmax, double fraction, double width,
                      double box[3])
{
    if (!(fraction > 0.0 && fraction <= MB_RSA_FRACTION_MAX))
        MB_ERROR(MB_EDOM, "packing: fraction %g is outside (0, %g]: random sequential addition "
                 "of equal spheres jams at 0.3841", fraction, MB_RSA_FRACTION_MAX);
    double v = mb_sphere_mean_volume(rmin, rmax);
    if (!(width > 0.0)) {
        box[0] = box[1] = box[2] = cbrt((double)n * v / fraction);
        return MB_SUCCESS;
    }
    double H = (double)n * v / (fraction * width * width);
    box[0] = box[1] = width;
    box[2] = fmax(H, 2.0 * rmax * 1.5);   /* room for one sphere between floor and lid */
    return MB_SUCCESS;
}

static int place_positions(const mb_assembly_spec *a, mb_nodes *s, size_t first, size_t n)
{
    double *x = &s->x[3 * first], *r = &s->radius[first];
    if (a->generator == MB_ASSEMBLY_PACKING)
        return mb_random_packing(n, a->box, a->periodic, a->rmin, a->rmax, a->seed,
                                 a->attempts, x, r, NULL);
    if (!(isfinite(a->rmin) && a->rmin > 0.0))
        MB_ERROR(MB_EDOM, "lattice: the radius must be finite and > 0 (got %g)", a->rmin);
    int st = mb_lattice_sites(a->lattice, a->cells, a->spacing, a->offset, x);
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++)
        r[i] = a->rmin;
    return st;
}

int mb_assembly_place(const mb_assembly_spec *a, mb_nodes *s, size_t first)
{
    size_t n = mb_assembly_count(a);
    if (n == 0 || first > s->n || n > s->n - first)
        MB_ERROR(MB_EDOM, "assembly: %zu spheres do not fit nodes %zu.. of %zu", n, first, s->n);
    int st = place_positions(a, s, first, n);
    for (size_t i = first; i < first + n && st == MB_SUCCESS; i++) {
        double r = s->radius[i];
        double m = a->density > 0.0 ? a->density * 4.0 / 3.0 * M_PI * r * r * r : a->mass;
        const double I[3] = { 0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r };
        if (!(isfinite(m) && m > 0.0 && isfinite(I[0]) && I[0] > 0.0))
            MB_ERROR(MB_EDOM, "assembly: sphere %zu of radius %g has mass %g and moment %g: "
                     "need finite positive values", i - first + 1, r, m, I[0]);
        mb_nodes_set_mass(s, i, m);
        mb_nodes_set_inertia(s, i, I);
        for (int k = 0; k < 3 && a->temperature <= 0.0; k++)
            if (a->velocity[k] != 0.0)
                s->v[3 * i + k] = a->velocity[k];
    }
    if (st == MB_SUCCESS && a->temperature > 0.0)
        st = mb_thermal_velocities(n, &s->mass[first], a->temperature, a->velocity_seed,
                                   &s->v[3 * first]);
    return st;
}
