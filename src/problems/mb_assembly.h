/* mb_assembly.h -- generators of many-body initial states (doc/dem.md "Assemblies"):
 * lattices, seeded random non-overlapping sphere packings (mono- and polydisperse) and
 * thermal velocities.  They fill plain arrays (x: 3 per body, r: one radius per body), so
 * that problems, scenes and benchmarks share them; every one is deterministic for a given
 * seed (GSL's mt19937), whatever the platform's libc.
 *
 * Bad input is refused with MB_EDOM and a message naming the parameter (and, for a
 * packing fraction that cannot be reached, why). */
#ifndef MB_ASSEMBLY_H
#define MB_ASSEMBLY_H

#include <stddef.h>

struct mb_nodes;

typedef enum { MB_LATTICE_SC, MB_LATTICE_BCC, MB_LATTICE_FCC } mb_lattice_kind;

/* Sites per unit cell: 1, 2, 4. */
size_t mb_lattice_basis(mb_lattice_kind kind);
/* Name "sc", "bcc", "fcc" to kind; -1 when unknown. */
int mb_lattice_parse(const char *name, mb_lattice_kind *kind);
/* The sites of cells[0] x cells[1] x cells[2] unit cells of side a, offset by `offset`
 * (in units of a): x = a (cell + basis + offset) with the basis of the kind (sc (0,0,0); bcc adds
 * (1/2,1/2,1/2); fcc (0,0,0), (1/2,1/2,0), (1/2,0,1/2), (0,1/2,1/2)), cells in x-fastest
 * order, the basis innermost.  x holds 3 basis cells[0] cells[1] cells[2] numbers.
 * Nearest-neighbour distance: a (sc), a sqrt(3)/2 (bcc), a / sqrt(2) (fcc). */
int mb_lattice_sites(mb_lattice_kind kind, const size_t cells[3], double a,
                     const double offset[3], double *x);

/* Random sequential addition of n spheres in the box [0, L0) x [0, L1) x [0, L2) (periodic
 * on the axes with periodic[a] != 0, between walls at 0 and L_a on the others: centres at
 * least r from a wall), radii uniform in [rmin, rmax] (rmin = rmax: monodisperse), placed
 * largest first; no two spheres overlap (|x_j - x_i| >= r_i + r_j, minimum image on
 * periodic axes).  Each sphere gets up to `attempts` random positions (uniform in the
 * admissible box) before the packing is refused as unreachable.  The packing fraction
 * sum (4/3) pi r^3 / V is refused at once above MB_RSA_FRACTION_MAX: random sequential
 * addition of equal spheres jams at 0.3841 (Torquato, Uche & Stillinger, Phys. Rev. E 74,
 * 061308, 2006); denser packings need compression, which this generator does not do.
 * x: 3n, r: n; *fraction (may be NULL) receives the fraction reached. */
#define MB_RSA_FRACTION_MAX 0.38
int mb_random_packing(size_t n, const double L[3], const int periodic[3], double rmin,
                      double rmax, unsigned long seed, unsigned long attempts, double *x,
                      double *r, double *fraction);

/* Maxwell-Boltzmann velocities: Gaussian components (mt19937 seeded with seed, GSL's
 * ziggurat), the mass-weighted mean removed (zero total momentum), then scaled so that
 * the translational temperature sum m v^2 / (3 (n - 1)) is T (k_B = 1; 3n - 3 degrees
 * of freedom once the momentum is removed; Allen & Tildesley, 2nd ed., eq. 2.55).
 * m: n masses (> 0); v: 3n. */
int mb_thermal_velocities(size_t n, const double *m, double T, unsigned long seed, double *v);

/* ---- a whole assembly into a node store (assembly_place.c) ----
 * One description shared by the problems that generate many-body states (granular-gas,
 * granular-column) and by the [assembly NAME] sections of scenes (doc/scenes.md), so that
 * a scene and a problem describing the same assembly build the same nodes bit for bit. */
typedef enum { MB_ASSEMBLY_LATTICE, MB_ASSEMBLY_PACKING } mb_assembly_generator;

typedef struct mb_assembly_spec {
    mb_assembly_generator generator;
    /* lattice: kind, cells, side a, offset (units of a); every sphere of radius rmin */
    mb_lattice_kind lattice;
    size_t cells[3];
    double spacing, offset[3];
    /* packing: count spheres in the box [0, box) with the periodic axes, mb_random_packing */
    size_t count;
    double box[3];
    int periodic[3];
    unsigned long seed, attempts;
    double rmin, rmax;          /* radii (lattice: rmin = rmax, the radius) */
    /* mass: m = density 4/3 pi r^3 when density > 0, else m = mass; I = 2/5 m r^2 */
    double density, mass;
    /* velocities: thermal (mb_thermal_velocities seeded with velocity_seed) when
     * temperature > 0, else every sphere at `velocity` */
    double temperature, velocity[3];
    unsigned long velocity_seed;
} mb_assembly_spec;

/* Spheres the spec places (lattice: basis x cells; packing: count); 0 when a factor is 0
 * or the product overflows. */
size_t mb_assembly_count(const mb_assembly_spec *a);
/* <V> = 4/3 pi <r^3> of spheres of radii uniform in [rmin, rmax]. */
double mb_sphere_mean_volume(double rmin, double rmax);
/* The region W x W x H of a packing at fraction phi of spheres of radii uniform in
 * [rmin, rmax]: H = n <V> / (phi W^2), <V> = 4/3 pi <r^3>, at least 3 rmax (room for one
 * sphere between floor and lid); width W <= 0 asks for a cube of volume n <V> / phi.
 * MB_EDOM with the reason for a fraction outside (0, MB_RSA_FRACTION_MAX]. */
int mb_packing_region(size_t n, double rmin, double rmax, double fraction, double width,
                      double box[3]);
/* The assembly into nodes first .. first + count - 1 of s: positions, radii, masses,
 * moments 2/5 m r^2, velocities; no spin.  MB_EDOM with the generator's reason. */
int mb_assembly_place(const mb_assembly_spec *a, struct mb_nodes *s, size_t first);

#endif
