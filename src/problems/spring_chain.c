/* spring_chain.c -- n particles on a line joined by n - 1 Hookean springs with rest length
 * and dashpots, under gravity (along -y) and optional linear drag; the end particles may
 * be pinned (all three translations blocked).  The chain starts straight along x with
 * the given spacing and at rest, so it sags under gravity.  No closed form: the reference
 * module integrates it.  This is the 1-D test of the implicit solvers' linear cost. */
#include "mb_problem.h"
#include "mb_spring_network.h"
#include "mb_status.h"

#include <math.h>
#include <string.h>

static const mb_option_spec params[] = {
    { "n", MB_OPT_INT, "16", 2, 50000000, NULL, "number of particles" },
    { "mass", MB_OPT_DOUBLE, "0.0473", 1e-300, 1e300, NULL, "mass of each particle (kg), > 0" },
    { "k", MB_OPT_DOUBLE, "812", 0, 1e300, NULL, "spring stiffness (N/m), >= 0" },
    { "rest", MB_OPT_DOUBLE, "0.095", 0, 1e300, NULL, "spring rest length (m), >= 0" },
    { "spacing", MB_OPT_DOUBLE, "0.1", 1e-300, 1e300, NULL,
      "initial distance between neighbours (m), > 0" },
    { "c", MB_OPT_DOUBLE, "0.013", 0, 1e300, NULL, "dashpot along each spring (N s/m), >= 0" },
    { "D", MB_OPT_DOUBLE, "0", 0, 1e300, NULL, "linear drag on every particle (N s/m), >= 0" },
    { "g", MB_OPT_DOUBLE, "9.81", -1e300, 1e300, NULL, "gravity along -y (m/s^2)" },
    { "anchors", MB_OPT_CHOICE, "both", 1, 0, "none|first|both", "which end particles are pinned" },
    MB_OPTION_END
};

static int setup(const mb_options *p, mb_system **out)
{
    size_t n = (size_t)mb_options_int(p, "n");
    mb_system *sys = mb_system_alloc(n);
    if (sys == NULL)
        return MB_ENOMEM;
    double m = mb_options_double(p, "mass"), dx = mb_options_double(p, "spacing");
    const char *anchors = mb_options_string(p, "anchors");
    int first = strcmp(anchors, "none") != 0, last = strcmp(anchors, "both") == 0;
    for (size_t i = 0; i < n; i++) {
        const double x[3] = { (double)i * dx, 0, 0 };
        mb_spring_network_particle(sys, i, m, x, (i == 0 && first) || (i == n - 1 && last));
    }
    int st = MB_SUCCESS;
    for (size_t i = 0; i + 1 < n && st == MB_SUCCESS; i++)
        st = mb_spring_network_spring(sys, i, i + 1, mb_options_double(p, "k"),
                                      mb_options_double(p, "rest"), mb_options_double(p, "c"));
    return mb_spring_network_finish(sys, st, mb_options_double(p, "g"), mb_options_double(p, "D"), out);
}

/* the n particles setup builds */
static size_t nodes(const mb_options *p)
{
    return (size_t)mb_options_int(p, "n");
}

/* the n - 1 springs setup builds */
static size_t links(const mb_options *p)
{
    return (size_t)mb_options_int(p, "n") - 1;
}

const mb_problem_type mb_problem_spring_chain = {
    .name = "spring-chain",
    .summary = "n particles joined by springs with rest length and dashpots, under gravity",
    .params = params,
    .setup = setup,
    .exact = NULL,
    .exact_doc = NULL,
    .nodes = nodes,
    .links = links,
};
