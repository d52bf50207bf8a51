/* adapter_spec.c -- the integrator spec of an outside program (doc/external.md, section 1):
 *     external:NAME  or  external:NAME[key=value,...]
 * NAME is letters, digits, '-', '_' and '.'; keys likewise; values are any text without
 * ',', ']', '[' or '='.  White space around names, keys and values is ignored. */
#include "mb_external.h"
#include "mb_status.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int mb_external_is_spec(const char *spec)
{
    return strncmp(spec, MB_EXTERNAL_PREFIX, strlen(MB_EXTERNAL_PREFIX)) == 0;
}

static int name_char(int c)
{
    return isalnum(c) || c == '-' || c == '_' || c == '.' || c == '/';
}

/* Copy s[0..n) without surrounding blanks into out; 0 when empty or too long. */
static int trimmed(const char *s, size_t n, char *out, size_t size)
{
    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 0 || n >= size)
        return 0;
    memcpy(out, s, n);
    out[n] = '\0';
    return 1;
}

static int valid_word(const char *w, int allow_slash)
{
    for (const char *p = w; *p; p++)
        if (!name_char((unsigned char)*p) || (*p == '/' && !allow_slash))
            return 0;
    return 1;
}

static int parse_option(const char *item, size_t n, const char *spec, mb_external_spec *out)
{
    const char *eq = memchr(item, '=', n);
    if (out->n_options == MB_EXTERNAL_MAX_OPTIONS)
        MB_ERROR(MB_EINVAL, "'%s': more than %d options", spec, MB_EXTERNAL_MAX_OPTIONS);
    char *key = out->keys[out->n_options], *value = out->values[out->n_options];
    if (eq == NULL || !trimmed(item, (size_t)(eq - item), key, sizeof out->keys[0])
        || !valid_word(key, 0))
        MB_ERROR(MB_EINVAL, "'%s': write options as key=value (got '%.*s')", spec, (int)n, item);
    if (!trimmed(eq + 1, n - (size_t)(eq + 1 - item), value, sizeof out->values[0])
        || strpbrk(value, "=["))
        MB_ERROR(MB_EINVAL, "'%s': option '%s' needs a value without '=', '[', ']' or ','",
                 spec, key);
    for (size_t k = 0; k < out->n_options; k++)
        if (strcmp(out->keys[k], key) == 0)
            MB_ERROR(MB_EINVAL, "'%s': option '%s' is given twice", spec, key);
    out->n_options++;
    return MB_SUCCESS;
}

int mb_external_spec_parse(const char *spec, mb_external_spec *out)
{
    memset(out, 0, sizeof *out);
    if (!mb_external_is_spec(spec))
        MB_ERROR(MB_EINVAL, "'%s' is not an external integrator spec", spec);
    const char *p = spec + strlen(MB_EXTERNAL_PREFIX);
    const char *open = strchr(p, '[');
    size_t len = open ? (size_t)(open - p) : strlen(p);
    if (!trimmed(p, len, out->name, sizeof out->name) || !valid_word(out->name, 0))
        MB_ERROR(MB_EINVAL, "'%s': write external:NAME with NAME of letters, digits, '-', "
                 "'_' or '.'", spec);
    if (open == NULL)
        return MB_SUCCESS;
    const char *close = strchr(open, ']');
    if (close == NULL || close[1] != '\0')
        MB_ERROR(MB_EINVAL, "'%s': options end with a single ']' at the end", spec);
    for (const char *item = open + 1; item < close;) {
        const char *comma = memchr(item, ',', (size_t)(close - item));
        const char *end = comma ? comma : close;
        if (parse_option(item, (size_t)(end - item), spec, out) != MB_SUCCESS)
            return MB_EINVAL;
        item = end + 1;
    }
    return MB_SUCCESS;
}

int mb_external_spec_canonical(const mb_external_spec *spec, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "%s%s", MB_EXTERNAL_PREFIX, spec->name);
    for (size_t k = 0; k < spec->n_options && n < size; k++)
        n += (size_t)snprintf(out + n, size - n, "%s%s=%s", k ? "," : "[", spec->keys[k],
                              spec->values[k]);
    if (spec->n_options > 0 && n < size)
        n += (size_t)snprintf(out + n, size - n, "]");
    if (n >= size)
        MB_ERROR(MB_EINVAL, "integrator spec '%s%s[...]' is too long", MB_EXTERNAL_PREFIX,
                 spec->name);
    return MB_SUCCESS;
}
