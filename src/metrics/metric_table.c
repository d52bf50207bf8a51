/* metric_table.c -- the metrics of the case runner as data: metrics.def expanded into one
 * const table (name, unit, kind, comparison, tolerance, sidedness, documentation, negative
 * control).
 *
 * The case file validates [expect] and [check] names against it, the runner refuses to
 * produce a name that is not in it, `check` takes each metric's comparison from it, and
 * `motionbench list metrics` prints it (doc/metrics.md is that output). */
#include "mb_metrics.h"

#include <string.h>

#define ONE 1
#define TWO 0
#define MB_METRIC(name, unit, kind, compare, tol, sided, doc, control)                        \
    { name, unit, MB_METRIC_##kind, MB_COMPARE_##compare, tol, sided, doc, control },
static const mb_metric_info table[] = {
#include "metrics.def"
};
#undef MB_METRIC
#undef ONE
#undef TWO

#define N_METRICS (sizeof table / sizeof table[0])

/* the names as a NULL-terminated list (for "did you mean" suggestions) */
#define MB_METRIC(name, unit, kind, compare, tol, sided, doc, control) name,
static const char *const names[] = {
#include "metrics.def"
    NULL
};
#undef MB_METRIC

const mb_metric_info *mb_metric_infos(size_t *n)
{
    *n = N_METRICS;
    return table;
}

const char *const *mb_metric_names(void) { return names; }

const mb_metric_info *mb_metric_lookup(const char *name)
{
    for (size_t k = 0; k < N_METRICS; k++)
        if (strcmp(table[k].name, name) == 0)
            return &table[k];
    return NULL;
}

int mb_metric_known(const char *name) { return mb_metric_lookup(name) != NULL; }

/* Metrics renamed to the naming convention (doc/metrics.md, "Names"): `check` reads an
 * older baseline through this table, and a case file with an old name is told the new one. */
static const mb_metric_rename renames[] = {
    { "restitution.closed_form", "restitution_exact" },
    { "contact.duration.closed_form", "contact.duration_exact" },
    { "settle.overlap.closed_form", "settle.overlap_exact" },
    { "restitution.measured", "bounce.restitution" },
    { "restitution.error", "bounce.restitution_error" },
};

const mb_metric_rename *mb_metric_renames(size_t *n)
{
    *n = sizeof renames / sizeof renames[0];
    return renames;
}

const char *mb_metric_renamed(const char *old_name)
{
    for (size_t k = 0; k < sizeof renames / sizeof renames[0]; k++)
        if (strcmp(renames[k].old_name, old_name) == 0)
            return renames[k].name;
    return NULL;
}

int mb_metric_is_aggregate(const char *name)
{
    return strncmp(name, "order.", 6) == 0 || strncmp(name, "energy.fluctuation_order", 24) == 0;
}

int mb_metric_is_word(const char *name)
{
    const mb_metric_info *m = mb_metric_lookup(name);
    return m && m->kind == MB_METRIC_STATUS;
}

void mb_metric_default_tolerance(const char *name, int *relative, double *tol)
{
    const mb_metric_info *m = mb_metric_lookup(name);
    *relative = m == NULL || m->compare == MB_COMPARE_REL;
    *tol = m ? m->tol : 1e-6;
}

const char *mb_metric_kind_name(mb_metric_kind k)
{
    static const char *const kinds[] = { "error", "order", "drift", "ratio", "count", "status" };
    return (unsigned)k < sizeof kinds / sizeof kinds[0] ? kinds[k] : "?";
}
