/* options.c -- spec strings "name[key=value,...]", validation against option tables,
 * and "did you mean" suggestions (Levenshtein distance). */
#include "mb_options.h"
#include "mb_input.h"
#include "mb_status.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mb_pair {
    char *key, *value;
    int given;       /* set by the user, not by a default */
    double d;        /* parsed value for DOUBLE/INT/BOOL */
};

struct mb_options {
    size_t count, cap;
    struct mb_pair *items;
};

mb_options *mb_options_new(void) { return calloc(1, sizeof(mb_options)); }

void mb_options_free(mb_options *o)
{
    if (o == NULL)
        return;
    for (size_t k = 0; k < o->count; k++) {
        free(o->items[k].key);
        free(o->items[k].value);
    }
    free(o->items);
    free(o);
}

size_t mb_options_count(const mb_options *o) { return o ? o->count : 0; }

void mb_options_pair(const mb_options *o, size_t k, const char **key, const char **value)
{
    *key = o->items[k].key;
    *value = o->items[k].value;
}

static struct mb_pair *find(const mb_options *o, const char *key)
{
    for (size_t k = 0; o && k < o->count; k++)
        if (strcmp(o->items[k].key, key) == 0)
            return &o->items[k];
    return NULL;
}

static char *trimmed(const char *s, size_t len)
{
    while (len > 0 && isspace((unsigned char)*s)) { s++; len--; }
    while (len > 0 && isspace((unsigned char)s[len - 1])) len--;
    char *r = malloc(len + 1);
    if (r) { memcpy(r, s, len); r[len] = '\0'; }
    return r;
}

static int set_owned(mb_options *o, char *key, char *value, int given)
{
    struct mb_pair *p = find(o, key);
    if (p) {
        free(key);
        free(p->value);
        p->value = value;
        p->given = given;
        return MB_SUCCESS;
    }
    if (o->count == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 8;
        struct mb_pair *items = realloc(o->items, cap * sizeof *items);
        if (items == NULL) {
            free(key); free(value);
            MB_ERROR(MB_ENOMEM, "out of memory");
        }
        o->items = items;
        o->cap = cap;
    }
    o->items[o->count++] = (struct mb_pair){ key, value, given, 0.0 };
    return MB_SUCCESS;
}

int mb_options_set(mb_options *o, const char *key, const char *value)
{
    char *k = trimmed(key, strlen(key)), *v = trimmed(value, strlen(value));
    if (!k || !v) { free(k); free(v); MB_ERROR(MB_ENOMEM, "out of memory"); }
    if (k[0] == '\0') { free(k); free(v); MB_ERROR(MB_EINVAL, "empty option name"); }
    return set_owned(o, k, v, 1);
}

int mb_options_set_pair(mb_options *o, const char *pair)
{
    const char *eq = strchr(pair, '=');
    if (eq == NULL)
        MB_ERROR(MB_EINVAL, "'%s' is not of the form key=value", pair);
    char *k = trimmed(pair, (size_t)(eq - pair)), *v = trimmed(eq + 1, strlen(eq + 1));
    if (!k || !v) { free(k); free(v); MB_ERROR(MB_ENOMEM, "out of memory"); }
    if (k[0] == '\0') { free(k); free(v); MB_ERROR(MB_EINVAL, "'%s' has an empty key", pair); }
    if (v[0] == '\0') { free(k); free(v); MB_ERROR(MB_EINVAL, "'%s' has an empty value", pair); }
    return set_owned(o, k, v, 1);
}

int mb_options_add_pair(mb_options *o, const char *pair, const char *where)
{
    const char *eq = strchr(pair, '=');
    if (eq != NULL) {
        char *k = trimmed(pair, (size_t)(eq - pair));
        if (k == NULL)
            MB_ERROR(MB_ENOMEM, "out of memory");
        int twice = find(o, k) != NULL;
        if (twice) {
            int st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s: option '%s' is given "
                                     "twice (each option may be set once)", where, k);
            free(k);
            return st;
        }
        free(k);
    }
    return mb_options_set_pair(o, pair);
}

int mb_spec_split(const char *spec, char **name, mb_options **opts)
{
    *name = NULL;
    *opts = NULL;
    const char *open = strchr(spec, '[');
    size_t nlen = open ? (size_t)(open - spec) : strlen(spec);
    char *nm = trimmed(spec, nlen);
    mb_options *o = mb_options_new();
    if (!nm || !o) { free(nm); mb_options_free(o); MB_ERROR(MB_ENOMEM, "out of memory"); }
    int st = MB_SUCCESS;
    if (nm[0] == '\0')
        st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "'%s': missing name", spec);
    if (st == MB_SUCCESS && open) {
        const char *close = strchr(open, ']');
        if (close == NULL || close[1] != '\0' ) {
            st = mb_error_record(MB_EINVAL, __FILE__, __LINE__,
                                 "'%s': options must be written name[key=value,...]", spec);
        } else {
            char *body = trimmed(open + 1, (size_t)(close - open - 1));
            char *save = NULL;
            for (char *tok = body ? strtok_r(body, ",", &save) : NULL; tok && st == MB_SUCCESS;
                 tok = strtok_r(NULL, ",", &save))
                st = mb_options_add_pair(o, tok, spec);
            free(body);
        }
    }
    if (st != MB_SUCCESS) { free(nm); mb_options_free(o); return st; }
    *name = nm;
    *opts = o;
    return MB_SUCCESS;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return (size_t)-1;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = diag + cost;
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *mb_suggest(const char *word, const char *const *candidates)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1, len = strlen(word);
    size_t limit = len / 3 > 2 ? len / 3 : 2;
    for (size_t k = 0; candidates && candidates[k]; k++) {
        size_t d = edit_distance(word, candidates[k]);
        if (d < best_d) { best_d = d; best = candidates[k]; }
    }
    return best_d <= limit ? best : NULL;
}

static const mb_option_spec *spec_find(const mb_option_spec *specs, const char *key)
{
    for (const mb_option_spec *s = specs; s && s->name; s++)
        if (strcmp(s->name, key) == 0)
            return s;
    return NULL;
}

static int unknown_key(const char *key, const mb_option_spec *specs, const char *what)
{
    const char *names[64];
    size_t n = 0;
    for (const mb_option_spec *s = specs; s && s->name && n < 63; s++)
        names[n++] = s->name;
    names[n] = NULL;
    const char *hint = mb_suggest(key, names);
    if (n == 0)
        MB_ERROR(MB_ENOTFOUND, "%s takes no options (got '%s')", what, key);
    if (hint)
        MB_ERROR(MB_ENOTFOUND, "%s has no option '%s' (did you mean '%s'?)", what, key, hint);
    MB_ERROR(MB_ENOTFOUND, "%s has no option '%s'", what, key);
}

static int choice_ok(const char *choices, const char *value)
{
    size_t len = strlen(value);
    for (const char *c = choices; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t clen = bar ? (size_t)(bar - c) : strlen(c);
        if (clen == len && strncmp(c, value, len) == 0)
            return 1;
        c = bar ? bar + 1 : c + clen;
    }
    return 0;
}

static int parse_value(struct mb_pair *p, const mb_option_spec *s, const char *what)
{
    char *end;
    switch (s->kind) {
    case MB_OPT_DOUBLE:
    case MB_OPT_INT:
        errno = 0;
        p->d = strtod(p->value, &end);
        if (end == p->value || *end != '\0' || !mb_strtod_in_range(p->d))
            MB_ERROR(MB_EINVAL, "%s: %s = '%s' is not a number", what, s->name, p->value);
        if (!isfinite(p->d))
            MB_ERROR(MB_EDOM, "%s: %s = '%s' must be finite", what, s->name, p->value);
        if (s->kind == MB_OPT_INT && p->d != floor(p->d))
            MB_ERROR(MB_EINVAL, "%s: %s = '%s' must be a whole number", what, s->name, p->value);
        if (s->min <= s->max && (p->d < s->min || p->d > s->max))
            MB_ERROR(MB_EDOM, "%s: %s = %s is out of range [%g, %g]", what, s->name, p->value,
                     s->min, s->max);
        return MB_SUCCESS;
    case MB_OPT_BOOL:
        if (!strcmp(p->value, "1") || !strcmp(p->value, "true") || !strcmp(p->value, "on")
            || !strcmp(p->value, "yes"))
            p->d = 1;
        else if (!strcmp(p->value, "0") || !strcmp(p->value, "false") || !strcmp(p->value, "off")
                 || !strcmp(p->value, "no"))
            p->d = 0;
        else
            MB_ERROR(MB_EINVAL, "%s: %s = '%s' is not a boolean (on|off)", what, s->name, p->value);
        return MB_SUCCESS;
    case MB_OPT_CHOICE:
        if (!choice_ok(s->choices, p->value))
            MB_ERROR(MB_EINVAL, "%s: %s = '%s' is not one of %s", what, s->name, p->value, s->choices);
        return MB_SUCCESS;
    case MB_OPT_STRING:
        return MB_SUCCESS;
    }
    return MB_SUCCESS;
}

int mb_options_validate(mb_options *o, const mb_option_spec *specs, const char *what)
{
    for (size_t k = 0; k < o->count; k++)
        if (spec_find(specs, o->items[k].key) == NULL)
            return unknown_key(o->items[k].key, specs, what);
    for (const mb_option_spec *s = specs; s && s->name; s++) {
        if (find(o, s->name) == NULL) {
            if (s->default_value == NULL)
                MB_ERROR(MB_EINVAL, "%s: option '%s' is required", what, s->name);
            char *k = strdup(s->name), *v = strdup(s->default_value);
            if (!k || !v) { free(k); free(v); MB_ERROR(MB_ENOMEM, "out of memory"); }
            int st = set_owned(o, k, v, 0);
            if (st != MB_SUCCESS)
                return st;
        }
        int st = parse_value(find(o, s->name), s, what);
        if (st != MB_SUCCESS)
            return st;
    }
    return MB_SUCCESS;
}

double mb_options_double(const mb_options *o, const char *key)
{
    const struct mb_pair *p = find(o, key);
    return p ? p->d : NAN;
}

long mb_options_int(const mb_options *o, const char *key)
{
    const struct mb_pair *p = find(o, key);
    return p ? (long)p->d : 0;
}

int mb_options_bool(const mb_options *o, const char *key)
{
    const struct mb_pair *p = find(o, key);
    return p ? p->d != 0.0 : 0;
}

const char *mb_options_string(const mb_options *o, const char *key)
{
    const struct mb_pair *p = find(o, key);
    return p ? p->value : NULL;
}

int mb_options_given(const mb_options *o, const char *key)
{
    const struct mb_pair *p = find(o, key);
    return p ? p->given : 0;
}

mb_options *mb_options_copy(const mb_options *o)
{
    mb_options *c = mb_options_new();
    for (size_t k = 0; c && o && k < o->count; k++) {
        char *key = strdup(o->items[k].key), *v = strdup(o->items[k].value);
        if (!key || !v || set_owned(c, key, v, o->items[k].given) != MB_SUCCESS) {
            mb_options_free(c);
            return NULL;
        }
        c->items[c->count - 1].d = o->items[k].d;
    }
    return c;
}
