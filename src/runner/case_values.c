/* case_values.c -- the messages and value parsers the sections of a case file share
 * (case_load.h). */
#include "case_load.h"
#include "mb_input.h"
#include "mb_status.h"
#include "mb_text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages ---- */

int case_fail(case_loader *P, int line, const char *fmt, ...)
{
    if (P->error)
        return P->error;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    mb_text_vformat(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mb_text_format(P->message, sizeof P->message, "%s:%d: %s", P->path, line, msg);
    P->error = MB_EINVAL;
    return P->error;
}

int case_fail_located(case_loader *P, const char *msg)
{
    if (P->error)
        return P->error;
    mb_text_format(P->message, sizeof P->message, "%s", msg);
    P->error = MB_EINVAL;
    return P->error;
}

int case_fail_lib(case_loader *P, int line)
{
    return case_fail(P, line, "%s", mb_last_error());
}

int case_unknown_name(case_loader *P, int line, const char *what, const char *name,
                      const char *where, const char *const *candidates)
{
    const char *hint = mb_suggest(name, candidates);
    if (hint)
        return case_fail(P, line, "unknown %s '%s'%s (did you mean '%s'?)", what, name, where,
                         hint);
    return case_fail(P, line, "unknown %s '%s'%s", what, name, where);
}

/* ---- entries and sections ---- */

mb_ini_entry *case_entry(const case_loader *P, const char *section, const char *key)
{
    return mb_ini_find(P->doc, section, key);
}

int case_section_line(const case_loader *P, const char *section)
{
    const mb_ini_section *s = mb_ini_section_find(P->doc, section);
    return s ? s->line : 1;
}

int case_require(case_loader *P, const char *section, const char *key, const mb_ini_entry **out)
{
    *out = case_entry(P, section, key);
    if (*out == NULL)
        return case_fail(P, case_section_line(P, section), "[%s] lacks the key '%s'", section,
                         key);
    return MB_SUCCESS;
}

int case_check_keys(case_loader *P, const char *section, const char *const *known)
{
    const mb_ini_section *s = mb_ini_section_find(P->doc, section);
    for (size_t k = 0; s && k < s->n; k++) {
        const mb_ini_entry *e = &s->items[k];
        int ok = 0;
        for (const char *const *n = known; *n; n++)
            ok |= strcmp(*n, e->key) == 0;
        if (!ok) {
            char where[32];
            snprintf(where, sizeof where, " in [%s]", section);
            return case_unknown_name(P, e->line, "key", e->key, where, known);
        }
    }
    return MB_SUCCESS;
}

/* ---- values ---- */

int case_parse_positive(case_loader *P, const mb_ini_entry *e, const char *label,
                        const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == text || *end != '\0' || !mb_strtod_in_range(v) || !isfinite(v))
        return case_fail(P, e->line, "%s = '%s' is not a number", label, text);
    if (!(v > 0.0))
        return case_fail(P, e->line, "%s = %s must be > 0", label, text);
    *out = v;
    return MB_SUCCESS;
}

int case_parse_long(case_loader *P, const mb_ini_entry *e, const char *label, const char *text,
                    long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (end == text || *end != '\0' || errno == ERANGE)
        return case_fail(P, e->line, "%s = '%s' is not a whole number", label, text);
    if (v < lo || v > hi)
        return case_fail(P, e->line, "%s = %ld is out of range [%ld, %ld]", label, v, lo, hi);
    *out = v;
    return MB_SUCCESS;
}

/* Commas inside "name[k=v,k=v]" belong to the spec. */
int case_split_list(case_loader *P, const mb_ini_entry *e, char *s, char **items, int max,
                    int *count)
{
    int depth = 0, n = 0;
    char *start = s;
    for (char *p = s;; p++) {
        if (*p == '[') depth++;
        if (*p == ']') depth--;
        if (depth < 0)
            return case_fail(P, e->line, "%s: unbalanced ']'", e->key);
        if ((*p == ',' && depth == 0) || *p == '\0') {
            int end = *p == '\0';
            *p = '\0';
            if (n == max)
                return case_fail(P, e->line, "%s: more than %d items", e->key, max);
            items[n] = mb_ini_trim(start);
            if (items[n][0] == '\0')
                return case_fail(P, e->line, "%s: empty item in the list", e->key);
            n++;
            if (end)
                break;
            start = p + 1;
        }
    }
    if (depth != 0)
        return case_fail(P, e->line, "%s: unbalanced '['", e->key);
    *count = n;
    return MB_SUCCESS;
}
