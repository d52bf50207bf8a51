/* case_key.c -- "integrator.metric" keys of [expect] and [check] (DESIGN 7).
 *
 * The integrator is written either as its spec with options, "name[k=v,...]" (compared
 * with the listed specs after canonicalisation, so option order and defaults do not
 * matter), or by its bare name when exactly one listed spec has that name. */
#include "mb_case.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int canonical_spec(const char *spec, char *out, size_t size)
{
    const mb_stepper_type *type;
    mb_options *opts;
    int st = mb_stepper_parse(spec, &type, &opts);
    if (st != MB_SUCCESS)
        return st;
    char canon[400];
    mb_options_canonical(opts, type->options, canon, sizeof canon);
    mb_options_free(opts);
    if (canon[0])
        snprintf(out, size, "%s[%s]", type->name, canon);
    else
        snprintf(out, size, "%s", type->name);
    return MB_SUCCESS;
}

static int listed_name_matches(const char *listed, const char *name, size_t len)
{
    return strncmp(listed, name, len) == 0 && (listed[len] == '\0' || listed[len] == '[');
}

static int by_name(const mb_case *c, const char *key, size_t len, const char **integrator)
{
    const char *found = NULL;
    size_t matches = 0;
    for (size_t k = 0; k < c->n_integrators; k++)
        if (listed_name_matches(c->integrators[k], key, len)) {
            found = c->integrators[k];
            matches++;
        }
    if (matches == 1) {
        *integrator = found;
        return MB_SUCCESS;
    }
    if (matches > 1)
        MB_ERROR(MB_EINVAL, "'%.*s' names %zu listed integrators: write the full spec, "
                 "e.g. %s.METRIC", (int)len, key, matches, found);
    const char *names[65];
    size_t n = 0;
    char bare[64][128];
    for (size_t k = 0; k < c->n_integrators && n < 64; k++) {
        snprintf(bare[n], sizeof bare[n], "%.*s", (int)strcspn(c->integrators[k], "["),
                 c->integrators[k]);
        names[n] = bare[n];
        n++;
    }
    names[n] = NULL;
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)len, key);
    const char *hint = mb_suggest(word, names);
    if (hint)
        MB_ERROR(MB_ENOTFOUND, "integrator '%s' is not listed in [run] integrators "
                 "(did you mean '%s'?)", word, hint);
    MB_ERROR(MB_ENOTFOUND, "integrator '%s' is not listed in [run] integrators", word);
}

int mb_case_split_key(const mb_case *c, const char *key, const char **integrator,
                      const char **metric)
{
    const char *open = strchr(key, '['), *dot = strchr(key, '.');
    if (open && (!dot || open < dot)) {
        const char *close = strchr(open, ']');
        if (close == NULL || close[1] != '.' || close[2] == '\0')
            MB_ERROR(MB_EINVAL, "'%s': write INTEGRATOR.METRIC (INTEGRATOR may be "
                     "name[k=v,...])", key);
        char spec[520], canon[520];
        snprintf(spec, sizeof spec, "%.*s", (int)(close + 1 - key), key);
        if (canonical_spec(spec, canon, sizeof canon) != MB_SUCCESS)
            return mb_last_error_code();
        for (size_t k = 0; k < c->n_integrators; k++)
            if (strcmp(c->integrators[k], canon) == 0) {
                *integrator = c->integrators[k];
                *metric = close + 2;
                return MB_SUCCESS;
            }
        MB_ERROR(MB_ENOTFOUND, "integrator '%s' is not listed in [run] integrators", canon);
    }
    if (dot == NULL || dot == key || dot[1] == '\0')
        MB_ERROR(MB_EINVAL, "'%s': write INTEGRATOR.METRIC, e.g. explicit-euler.order.position",
                 key);
    int st = by_name(c, key, (size_t)(dot - key), integrator);
    if (st == MB_SUCCESS)
        *metric = dot + 1;
    return st;
}
