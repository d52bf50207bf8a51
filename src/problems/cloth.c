/* cloth.c -- a rectangular nx x ny mass-spring cloth (Provot 1995 without bending
 * springs): structural springs between grid neighbours (rest = spacing) and shear springs
 * along both diagonals of every cell (rest = spacing sqrt 2), all with dashpots, under
 * gravity along -y.  The cloth starts flat in the x-z plane at rest; two corners of the
 * first row (pin=two) or all four corners (pin=four) are pinned.  No closed form.  This
 * is the 2-D test of the implicit solvers' linear cost. */
#include "mb_problem.h"
#include "mb_spring_network.h"
#include "mb_status.h"

#include <math.h>
#include <string.h>

static const mb_option_spec params[] = {
    { "nx", MB_OPT_INT, "13", 2, 10000, NULL, "particles along x" },
    { "ny", MB_OPT_INT, "9", 2, 10000, NULL, "particles along z" },
    { "mass", MB_OPT_DOUBLE, "0.0031", 1e-300, 1e300, NULL, "mass of each particle (kg), > 0" },
    { "k", MB_OPT_DOUBLE, "57.3", 0, 1e300, NULL, "structural spring stiffness (N/m), >= 0" },
    { "k_shear", MB_OPT_DOUBLE, "11.9", 0, 1e300, NULL, "shear spring stiffness (N/m), >= 0" },
    { "spacing", MB_OPT_DOUBLE, "0.025", 1e-300, 1e300, NULL, "grid spacing (m), > 0" },
    { "c", MB_OPT_DOUBLE, "0.0017", 0, 1e300, NULL, "dashpot along each spring (N s/m), >= 0" },
    { "D", MB_OPT_DOUBLE, "0.0009", 0, 1e300, NULL, "air drag on every particle (N s/m), >= 0" },
    { "g", MB_OPT_DOUBLE, "9.81", -1e300, 1e300, NULL, "gravity along -y (m/s^2)" },
    { "pin", MB_OPT_CHOICE, "two", 1, 0, "none|two|four", "pinned corners" },
    MB_OPTION_END
};

static int setup(const mb_options *p, mb_system **out)
{
    size_t nx = (size_t)mb_options_int(p, "nx"), ny = (size_t)mb_options_int(p, "ny");
    double h = mb_options_double(p, "spacing"), k = mb_options_double(p, "k");
    double ks = mb_options_double(p, "k_shear"), c = mb_options_double(p, "c");
    mb_system *sys = mb_system_alloc(nx * ny);
    if (sys == NULL)
        return MB_ENOMEM;
    const char *pin = mb_options_string(p, "pin");
    int two = strcmp(pin, "none") != 0, four = strcmp(pin, "four") == 0;
    for (size_t j = 0; j < ny; j++)
        for (size_t i = 0; i < nx; i++) {
            const double x[3] = { (double)i * h, 0, (double)j * h };
            int corner = (i == 0 || i == nx - 1) && (j == 0 || j == ny - 1);
            mb_spring_network_particle(sys, j * nx + i, mb_options_double(p, "mass"), x,
                                       corner && (j == 0 ? two : four));
        }
    int st = MB_SUCCESS;
    double diag = h * sqrt(2.0);
    for (size_t j = 0; j < ny && st == MB_SUCCESS; j++)
        for (size_t i = 0; i < nx && st == MB_SUCCESS; i++) {
            size_t id = j * nx + i;
            if (i + 1 < nx)
                st = mb_spring_network_spring(sys, id, id + 1, k, h, c);
            if (st == MB_SUCCESS && j + 1 < ny)
                st = mb_spring_network_spring(sys, id, id + nx, k, h, c);
            if (st == MB_SUCCESS && i + 1 < nx && j + 1 < ny) {
                st = mb_spring_network_spring(sys, id, id + nx + 1, ks, diag, c);
                if (st == MB_SUCCESS)
                    st = mb_spring_network_spring(sys, id + 1, id + nx, ks, diag, c);
            }
        }
    return mb_spring_network_finish(sys, st, mb_options_double(p, "g"), mb_options_double(p, "D"), out);
}

/* the nx x ny particles setup builds */
static size_t nodes(const mb_options *p)
{
    return (size_t)mb_options_int(p, "nx") * (size_t)mb_options_int(p, "ny");
}

/* the springs setup builds: structural along x and z, two shear per cell */
static size_t links(const mb_options *p)
{
    size_t nx = (size_t)mb_options_int(p, "nx"), ny = (size_t)mb_options_int(p, "ny");
    return (nx - 1) * ny + nx * (ny - 1) + 2 * (nx - 1) * (ny - 1);
}

const mb_problem_type mb_problem_cloth = {
    .name = "cloth",
    .summary = "nx x ny mass-spring cloth, structural + shear springs, pinned corners, gravity",
    .params = params,
    .setup = setup,
    .exact = NULL,
    .exact_doc = NULL,
    .nodes = nodes,
    .links = links,
};
