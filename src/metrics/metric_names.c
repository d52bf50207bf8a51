/* metric_names.c -- the stable metric names of DESIGN 6 and their baseline tolerances.
 *
 * Names here are what [expect] and [check] entries may use.  Problem observers add their
 * own names at run time (restitution, contact.duration, ...); those are listed here too
 * when DESIGN 6 fixes them. */
#include "mb_metrics.h"

#include <string.h>

static const char *const names[] = {
    "status", "steps",
    "error.position", "error.velocity", "error.orientation", "error.angular_velocity",
    "order.position", "order.position.stderr", "order.position.points",
    "order.position.excluded",
    "order.velocity", "order.velocity.stderr", "order.velocity.points",
    "order.velocity.excluded",
    "order.orientation", "order.orientation.stderr", "order.orientation.points",
    "order.orientation.excluded",
    "order.angular_velocity", "order.angular_velocity.stderr",
    "order.angular_velocity.points", "order.angular_velocity.excluded",
    "energy.max_rel_error", "energy.drift_rate", "energy.balance_residual",
    "angmom.max_rel_error", "angmom.direction_error", "quat.norm_error_max",
    "rotation.flip_period", "rotation.axis_deviation_max",
    "damping.ratio", "damping.ratio_error", "damping.period_error",
    "damping.amplitude_ratio",
    "restitution", "restitution_error", "contact.duration",
    "roundoff.max_abs", "truncation.max_abs",
    "error.growth_exponent", "error.growth_exponent.stderr",
    NULL
};

const char *const *mb_metric_names(void) { return names; }

int mb_metric_known(const char *name)
{
    for (const char *const *n = names; *n; n++)
        if (strcmp(*n, name) == 0)
            return 1;
    return 0;
}

int mb_metric_is_word(const char *name) { return strcmp(name, "status") == 0; }

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Relative 1e-6 for measured values: a same-machine rerun reproduces them bit for bit,
 * and 1e-6 still absorbs a different libm or compiler while catching any change in a
 * scheme.  Orders are compared absolutely (0.01 of an order is far below the 0.1 of
 * a theory expectation); so are growth exponents, which are orders in t (a theory
 * expectation separates 1 from 2 with 0.2).  Counts, steps and status compare exactly. */
void mb_metric_default_tolerance(const char *name, int *relative, double *tol)
{
    if (mb_metric_is_word(name) || !strcmp(name, "steps") || ends_with(name, ".points")
        || ends_with(name, ".excluded")) {
        *relative = 0;
        *tol = 0.0;
    } else if (!strncmp(name, "order.", 6) || !strncmp(name, "error.growth_exponent", 21)) {
        *relative = 0;
        *tol = 0.01;
    } else {
        *relative = 1;
        *tol = 1e-6;
    }
}
