/* assembly_lattice.c -- the sites of simple, body-centred and face-centred cubic lattices
 * (mb_assembly.h). */
#include "mb_assembly.h"
#include "mb_status.h"

#include <math.h>
#include <string.h>

static const double basis_sc[1][3] = { { 0.0, 0.0, 0.0 } };
static const double basis_bcc[2][3] = { { 0.0, 0.0, 0.0 }, { 0.5, 0.5, 0.5 } };
static const double basis_fcc[4][3] = {
    { 0.0, 0.0, 0.0 }, { 0.5, 0.5, 0.0 }, { 0.5, 0.0, 0.5 }, { 0.0, 0.5, 0.5 }
};

size_t mb_lattice_basis(mb_lattice_kind kind)
{
    return kind == MB_LATTICE_FCC ? 4 : kind == MB_LATTICE_BCC ? 2 : 1;
}

int mb_lattice_parse(const char *name, mb_lattice_kind *kind)
{
    static const char *const names[] = { "sc", "bcc", "fcc" };
    for (int k = 0; k < 3; k++)
        if (strcmp(name, names[k]) == 0) {
            *kind = (mb_lattice_kind)k;
            return 0;
        }
    return -1;
}

static const double (*basis_of(mb_lattice_kind kind))[3]
{
    return kind == MB_LATTICE_FCC ? basis_fcc : kind == MB_LATTICE_BCC ? basis_bcc : basis_sc;
}

int mb_lattice_sites(mb_lattice_kind kind, const size_t cells[3], double a,
                     const double offset[3], double *x)
{
    if (!(isfinite(a) && a > 0.0))
        MB_ERROR(MB_EDOM, "lattice: the cell side a must be finite and > 0 (got %g)", a);
    for (int k = 0; k < 3; k++) {
        if (cells[k] == 0)
            MB_ERROR(MB_EDOM, "lattice: cells along axis %d must be >= 1", k);
        if (!isfinite(offset[k]))
            MB_ERROR(MB_EDOM, "lattice: the offset must be finite");
    }
    const double (*b)[3] = basis_of(kind);
    size_t nb = mb_lattice_basis(kind), i = 0;
    for (size_t z = 0; z < cells[2]; z++)
        for (size_t y = 0; y < cells[1]; y++)
            for (size_t xx = 0; xx < cells[0]; xx++)
                for (size_t s = 0; s < nb; s++, i++) {
                    const size_t c[3] = { xx, y, z };
                    for (int k = 0; k < 3; k++)
                        x[3 * i + k] = a * ((double)c[k] + b[s][k] + offset[k]);
                }
    return MB_SUCCESS;
}
