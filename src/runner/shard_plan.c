/* shard_plan.c -- work units, their estimated cost and the partition into shards
 * (mb_shard.h, doc/cluster.md).
 *
 * The partition is Graham's longest-processing-time rule (R. L. Graham, "Bounds on
 * multiprocessing timing anomalies", SIAM J. Appl. Math. 17, 1969): units by decreasing
 * cost, each to the least loaded shard.  Every comparison breaks ties by index, so every
 * shard of a set computes the same partition without talking to the others. */
#include "mb_external.h"
#include "mb_shard.h"
#include "mb_status.h"

#include <stdlib.h>
#include <string.h>

int mb_shard_parse(const char *text, unsigned *k, unsigned *n)
{
    char *end;
    unsigned long kk = strtoul(text, &end, 10);
    if (end == text || *end != '/' || text[0] == '-' || text[0] == '+')
        MB_ERROR(MB_EINVAL, "--shard '%s': give K/N, shard K of N (1 <= K <= N <= %d)", text,
                 MB_SHARD_MAX);
    const char *p = end + 1;
    unsigned long nn = strtoul(p, &end, 10);
    if (end == p || *end || p[0] == '-' || p[0] == '+' || nn < 1 || nn > MB_SHARD_MAX
        || kk < 1 || kk > nn)
        MB_ERROR(MB_EINVAL, "--shard '%s': give K/N, shard K of N (1 <= K <= N <= %d)", text,
                 MB_SHARD_MAX);
    *k = (unsigned)kk;
    *n = (unsigned)nn;
    return MB_SUCCESS;
}

/* CPU time of an MPFR twin step over the double step at `bits` (doc/references.md). */
static double twin_ratio(long bits)
{
    return 20.0 + (double)bits / 8.0;
}

double mb_unit_cost(const mb_case *c, size_t a, size_t j)
{
    double work = (double)(c->nodes > 0 ? c->nodes : 1) * (double)c->steps[j];
    if (mb_external_is_spec(c->integrators[a]))
        return work + MB_EXTERNAL_STARTUP;
    if (c->precision_bits > 0)
        return work * (1.0 + 2.0 * twin_ratio(c->precision_bits));
    return work;
}

size_t mb_units_count(mb_case *const *cases, size_t n)
{
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        u += cases[i]->n_integrators * cases[i]->n_dt;
    return u;
}

void mb_unit_id(const mb_case *c, size_t a, size_t j, char *buf, size_t size)
{
    snprintf(buf, size, "%s:%zu:%zu", c->name, a, j);
}

typedef struct costed { double cost; size_t index; } costed;

static int by_cost_then_index(const void *pa, const void *pb)
{
    const costed *a = pa, *b = pb;
    if (a->cost != b->cost)
        return a->cost > b->cost ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static unsigned least_loaded(const double *load, unsigned n)
{
    unsigned best = 0;
    for (unsigned s = 1; s < n; s++)
        if (load[s] < load[best])
            best = s;
    return best;
}

int mb_shard_partition(mb_case *const *cases, size_t n, unsigned n_shards,
                       unsigned **shard_of, double **cost)
{
    size_t n_units = mb_units_count(cases, n), u = 0;
    costed *order = calloc(n_units ? n_units : 1, sizeof *order);
    unsigned *of = calloc(n_units ? n_units : 1, sizeof *of);
    double *load = calloc(n_shards ? n_shards : 1, sizeof *load);
    if (order == NULL || of == NULL || load == NULL) {
        free(order);
        free(of);
        free(load);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        for (size_t a = 0; a < cases[i]->n_integrators; a++)
            for (size_t j = 0; j < cases[i]->n_dt; j++, u++)
                order[u] = (costed){ mb_unit_cost(cases[i], a, j), u };
    qsort(order, n_units, sizeof *order, by_cost_then_index);
    for (size_t k = 0; k < n_units; k++) {
        unsigned s = least_loaded(load, n_shards);
        of[order[k].index] = s;
        load[s] += order[k].cost;
    }
    free(order);
    *shard_of = of;
    if (cost)
        *cost = load;
    else
        free(load);
    return MB_SUCCESS;
}
