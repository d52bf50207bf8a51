/* mb_options.h -- named options of integrators and parameters of problems.
 *
 * Integrators take a spec string "name[key=value,...]"; problems take --set key=value.
 * Both are validated against a NULL-terminated table of mb_option_spec: unknown keys,
 * malformed numbers and values out of range are errors with a "did you mean" hint. */
#ifndef MB_OPTIONS_H
#define MB_OPTIONS_H

#include <stddef.h>

typedef enum { MB_OPT_DOUBLE, MB_OPT_INT, MB_OPT_BOOL, MB_OPT_CHOICE, MB_OPT_STRING } mb_option_kind;

typedef struct mb_option_spec {
    const char *name;
    mb_option_kind kind;
    const char *default_value;  /* as text; NULL means "required" */
    double min, max;            /* inclusive range for DOUBLE and INT (ignored if min > max) */
    const char *choices;        /* "a|b|c" for CHOICE */
    const char *doc;            /* one line: meaning and unit */
} mb_option_spec;

#define MB_OPTION_END { NULL, MB_OPT_DOUBLE, NULL, 0, 0, NULL, NULL }

typedef struct mb_options mb_options;

/* Parse "name[k=v,...]" (brackets optional).  On success *name receives the name
 * (caller frees) and *opts the unvalidated pairs.  Errors name the offending text. */
int mb_spec_split(const char *spec, char **name, mb_options **opts);

mb_options *mb_options_new(void);
void mb_options_free(mb_options *o);
/* Set (or replace) key = value. */
int mb_options_set(mb_options *o, const char *key, const char *value);
/* Parse "key=value" and set it. */
int mb_options_set_pair(mb_options *o, const char *pair);
/* Like mb_options_set_pair, but a key already set is refused ("WHERE: option K is given
 * twice"): specs and command lines say each option once. */
int mb_options_add_pair(mb_options *o, const char *pair, const char *where);
/* Check every key against specs (what = "integrator 'x'" or "problem 'y'" for
 * messages), parse every value, fill in defaults.  After success the getters
 * below cannot fail for keys of specs. */
int mb_options_validate(mb_options *o, const mb_option_spec *specs, const char *what);

double mb_options_double(const mb_options *o, const char *key);
long mb_options_int(const mb_options *o, const char *key);
int mb_options_bool(const mb_options *o, const char *key);
const char *mb_options_string(const mb_options *o, const char *key);
/* Was the key given explicitly (not defaulted)? */
int mb_options_given(const mb_options *o, const char *key);
mb_options *mb_options_copy(const mb_options *o);
size_t mb_options_count(const mb_options *o);
/* Key and value text of pair k (k < mb_options_count), in the order they were set. */
void mb_options_pair(const mb_options *o, size_t k, const char **key, const char **value);

/* Closest candidate to word among a NULL-terminated list, or NULL when none is close
 * (edit distance <= max(2, len/3)). */
const char *mb_suggest(const char *word, const char *const *candidates);

#endif
