/* case_expect.c -- the grammar of [expect] values and [check] tolerances (DESIGN 7).
 *
 *   expect value :=  NUMBER "+-" NUMBER       |value - v| <= tol
 *                 |  ("<" | "<=" | ">" | ">=") NUMBER
 *                 |  WORD                     status words: ok | diverged | failed | skipped,
 *                                             or order flags: none | excluded |
 *                                             non-monotone | short-range, joined by '+' in
 *                                             that order
 *   tolerance    :=  ("rel" | "abs") NUMBER   NUMBER >= 0 */
#include "mb_case.h"
#include "mb_input.h"
#include "mb_metrics.h"
#include "mb_runner.h"
#include "mb_status.h"

#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_space(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* A finite number filling s up to trailing blanks or up to *stop (when stop != NULL). */
static int parse_number(const char *s, double *out, const char **stop)
{
    char *end;
    s = skip_space(s);
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || !mb_strtod_in_range(v) || !isfinite(v))
        return 0;
    if (stop) {
        *stop = end;
    } else if (*skip_space(end) != '\0') {
        return 0;
    }
    *out = v;
    return 1;
}

static const char *const status_words[] = { "ok", "diverged", "failed", "skipped", NULL };

int mb_expect_status_word(const char *w)
{
    for (const char *const *s = status_words; *s; s++)
        if (strcmp(w, *s) == 0)
            return 1;
    return 0;
}

int mb_expect_flags_word(const char *w)
{
    for (unsigned f = 0; f < 8; f++)
        if (strcmp(w, mb_order_flags_word(f)) == 0
            || (f < 4 && strcmp(w, mb_fluctuation_flags_word(f)) == 0))
            return 1;
    return 0;
}

static int parse_word(const char *text, mb_expectation *e)
{
    if (mb_expect_status_word(text) || mb_expect_flags_word(text)) {
        e->op = MB_EXPECT_WORD;
        snprintf(e->word, sizeof e->word, "%s", text);
        return MB_SUCCESS;
    }
    const char *words[sizeof status_words / sizeof *status_words + 12];
    size_t n = 0;
    for (const char *const *s = status_words; *s; s++)
        words[n++] = *s;
    for (unsigned f = 0; f < 8; f++)
        words[n++] = mb_order_flags_word(f);
    for (unsigned f = 1; f < 4; f++)
        words[n++] = mb_fluctuation_flags_word(f);
    words[n] = NULL;
    const char *hint = mb_suggest(text, words);
    if (hint)
        MB_ERROR(MB_EINVAL, "'%s' is not a status or order flags (did you mean '%s'?)", text, hint);
    MB_ERROR(MB_EINVAL, "'%s' is not an expectation: write V +- TOL, = V, < V, <= V, > V, >= V, "
             "a status (ok, diverged, failed, skipped) or order flags (none, excluded, ...)",
             text);
}

int mb_expect_parse_value(const char *text, mb_expectation *e)
{
    const char *s = skip_space(text);
    static const struct { const char *tok; mb_expect_op op; } cmp[] = {
        { "<=", MB_EXPECT_LE }, { ">=", MB_EXPECT_GE }, { "<", MB_EXPECT_LT },
        { ">", MB_EXPECT_GT }, { "=", MB_EXPECT_APPROX }    /* "= V": V +- 0, for counts */
    };
    e->tol = 0.0;
    e->word[0] = '\0';
    for (size_t k = 0; k < sizeof cmp / sizeof cmp[0]; k++) {
        size_t len = strlen(cmp[k].tok);
        if (strncmp(s, cmp[k].tok, len) == 0) {
            e->op = cmp[k].op;
            if (!parse_number(s + len, &e->value, NULL))
                MB_ERROR(MB_EINVAL, "'%s': expected a number after '%s'", text, cmp[k].tok);
            return MB_SUCCESS;
        }
    }
    if (isalpha((unsigned char)*s))
        return parse_word(s, e);
    const char *stop;
    if (!parse_number(s, &e->value, &stop))
        MB_ERROR(MB_EINVAL, "'%s' is not an expectation: write V +- TOL, = V, < V, <= V, > V, >= V "
                 "or a status (ok, diverged, failed, skipped)", text);
    stop = skip_space(stop);
    if (strncmp(stop, "+-", 2) != 0)
        MB_ERROR(MB_EINVAL, "'%s': write a tolerance, V +- TOL (or use <, <=, >, >=)", text);
    if (!parse_number(stop + 2, &e->tol, NULL) || e->tol < 0.0)
        MB_ERROR(MB_EINVAL, "'%s': the tolerance after '+-' must be a number >= 0", text);
    e->op = MB_EXPECT_APPROX;
    return MB_SUCCESS;
}

int mb_tolerance_parse(const char *text, mb_tolerance *t)
{
    const char *s = skip_space(text);
    if (strncmp(s, "rel", 3) == 0 && isspace((unsigned char)s[3]))
        t->relative = 1;
    else if (strncmp(s, "abs", 3) == 0 && isspace((unsigned char)s[3]))
        t->relative = 0;
    else
        MB_ERROR(MB_EINVAL, "'%s': write a tolerance as 'rel NUMBER' or 'abs NUMBER'", text);
    if (!parse_number(s + 3, &t->tol, NULL) || t->tol < 0.0)
        MB_ERROR(MB_EINVAL, "'%s': the tolerance must be a number >= 0", text);
    return MB_SUCCESS;
}
