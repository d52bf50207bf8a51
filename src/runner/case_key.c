/* case_key.c -- "integrator.metric" keys of [expect] and [check] (DESIGN 7).
 *
 * The integrator is written either as its spec with options, "name[k=v,...]" (compared
 * with the listed specs after canonicalisation, so option order, number formatting and
 * options left at their defaults do not matter), or by its bare name: the listed spec
 * with every option at its default, else the only listed spec of that name. */
#include "mb_external.h"
#include "mb_case.h"
#include "mb_stepper.h"
#include "mb_number_text.h"
#include "mb_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when option s of o has its default value (compared parsed, not as text) */
static int is_default(const mb_options *o, const mb_options *defaults, const mb_option_spec *s)
{
    if (defaults == NULL || s->default_value == NULL)
        return 0;
    if (s->kind == MB_OPT_CHOICE || s->kind == MB_OPT_STRING)
        return strcmp(mb_options_string(o, s->name), mb_options_string(defaults, s->name)) == 0;
    return mb_options_double(o, s->name) == mb_options_double(defaults, s->name);
}

/* "name" or "name[k=v,...]" with the options that differ from their defaults, in table
 * order, numbers printed with the fewest digits that read back exactly: equal
 * configurations get equal text. */
int mb_case_canonical_spec(const char *spec, char *out, size_t size)
{
    if (mb_external_is_spec(spec)) {
        mb_external_spec x;
        int s = mb_external_spec_parse(spec, &x);
        return s == MB_SUCCESS ? mb_external_spec_canonical(&x, out, size) : s;
    }
    const mb_stepper_type *type;
    mb_options *opts;
    int st = mb_stepper_parse(spec, &type, &opts);
    if (st != MB_SUCCESS)
        return st;
    mb_options *defaults = mb_options_new();
    if (defaults && mb_options_validate(defaults, type->options, "defaults") != MB_SUCCESS) {
        mb_options_free(defaults);
        defaults = NULL;
        mb_clear_error();
    }
    size_t n = (size_t)snprintf(out, size, "%s", type->name);
    int first = 1;
    for (const mb_option_spec *s = type->options; s && s->name && n < size; s++) {
        if (!mb_options_given(opts, s->name) || is_default(opts, defaults, s))
            continue;
        n += (size_t)snprintf(out + n, size - n, "%s%s=", first ? "[" : ",", s->name);
        if (n >= size)
            break;
        if (s->kind == MB_OPT_DOUBLE || s->kind == MB_OPT_INT)
            n += (size_t)mb_number_text(out + n, size - n, mb_options_double(opts, s->name));
        else if (s->kind == MB_OPT_BOOL)
            n += (size_t)snprintf(out + n, size - n, "%s", mb_options_bool(opts, s->name) ? "on" : "off");
        else
            n += (size_t)snprintf(out + n, size - n, "%s", mb_options_string(opts, s->name));
        first = 0;
    }
    if (!first && n < size)
        n += (size_t)snprintf(out + n, size - n, "]");
    mb_options_free(defaults);
    mb_options_free(opts);
    if (n >= size)
        MB_ERROR(MB_EINVAL, "integrator spec '%s' is too long", spec);
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
    /* a bare name that is itself a listed spec (all options at their defaults) is that one */
    for (size_t k = 0; k < c->n_integrators; k++)
        if (strncmp(c->integrators[k], key, len) == 0 && c->integrators[k][len] == '\0') {
            *integrator = c->integrators[k];
            return MB_SUCCESS;
        }
    for (size_t k = 0; k < c->n_integrators; k++)
        if (listed_name_matches(c->integrators[k], key, len)) {
            if (found == NULL)
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
        if (mb_case_canonical_spec(spec, canon, sizeof canon) != MB_SUCCESS)
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
