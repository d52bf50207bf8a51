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

#endif
