/* junit_tap.c -- JUnit XML and TAP output of test outcomes (junit_tap.h).
 *
 * JUnit XML follows the schema JUnit's Ant task writes and CI systems read
 * (testsuites > testsuite > testcase > failure | skipped); tests of one suite are
 * consecutive in the log (callers add them case by case).  TAP follows the TAP 13
 * specification (testanything.org): a version line, the plan "1..N", then one line per
 * test. */
#include "junit_tap.h"
#include "mb_report.h"
#include "mb_status.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

int mb_ci_add(mb_ci_log *L, const char *suite, const char *name, const char *failure,
              int skipped)
{
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 64;
        mb_ci_test *t = realloc(L->tests, cap * sizeof *t);
        if (t == NULL)
            MB_ERROR(MB_ENOMEM, "out of memory");
        L->tests = t;
        L->cap = cap;
    }
    mb_ci_test *t = &L->tests[L->n];
    t->suite = strdup(suite);
    t->name = strdup(name);
    t->failure = failure ? strdup(failure) : NULL;
    t->skipped = skipped;
    t->failure_type = NULL;
    t->n_properties = 0;
    t->property_names = t->property_values = NULL;
    if (!t->suite || !t->name || (failure && !t->failure)) {
        free(t->suite);
        free(t->name);
        free(t->failure);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    L->n++;
    return MB_SUCCESS;
}

void mb_ci_set_failure_type(mb_ci_log *L, const char *type)
{
    if (L->n > 0)
        L->tests[L->n - 1].failure_type = type;
}

int mb_ci_add_property(mb_ci_log *L, const char *name, const char *value)
{
    if (L->n == 0)
        MB_ERROR(MB_EINVAL, "a property needs a test");
    mb_ci_test *t = &L->tests[L->n - 1];
    size_t n = t->n_properties + 1;
    char **names = realloc(t->property_names, n * sizeof *names);
    if (names == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    t->property_names = names;
    char **values = realloc(t->property_values, n * sizeof *values);
    if (values == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    t->property_values = values;
    names[n - 1] = strdup(name);
    values[n - 1] = strdup(value);
    if (names[n - 1] == NULL || values[n - 1] == NULL) {
        free(names[n - 1]);
        free(values[n - 1]);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    t->n_properties = n;
    return MB_SUCCESS;
}

void mb_ci_free(mb_ci_log *L)
{
    for (size_t k = 0; k < L->n; k++) {
        mb_ci_test *t = &L->tests[k];
        free(t->suite);
        free(t->name);
        free(t->failure);
        for (size_t j = 0; j < t->n_properties; j++) {
            free(t->property_names[j]);
            free(t->property_values[j]);
        }
        free(t->property_names);
        free(t->property_values);
    }
    free(L->tests);
    memset(L, 0, sizeof *L);
}

/* XML character data and attribute values: the five predefined entities; control
 * characters other than tab and line ends are not allowed in XML 1.0 and become '?'. */
static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : c, f);
        }
    }
}

/* the tests of the suite that starts at index first: [first, *end) */
static void suite_counts(const mb_ci_log *L, size_t first, size_t *end, size_t *failures,
                         size_t *skipped)
{
    size_t k = first;
    *failures = *skipped = 0;
    while (k < L->n && strcmp(L->tests[k].suite, L->tests[first].suite) == 0) {
        *failures += L->tests[k].failure != NULL;
        *skipped += L->tests[k].skipped;
        k++;
    }
    *end = k;
}

static void write_properties(FILE *f, const mb_ci_test *t)
{
    fputs("      <properties>\n", f);
    for (size_t k = 0; k < t->n_properties; k++) {
        fputs("        <property name=\"", f);
        xml_text(f, t->property_names[k]);
        fputs("\" value=\"", f);
        xml_text(f, t->property_values[k]);
        fputs("\"/>\n", f);
    }
    fputs("      </properties>\n", f);
}

static void write_testcase(FILE *f, const mb_ci_test *t)
{
    fputs("    <testcase classname=\"", f);
    xml_text(f, t->suite);
    fputs("\" name=\"", f);
    xml_text(f, t->name);
    fputs("\" time=\"0\"", f);
    if (t->failure == NULL && !t->skipped && t->n_properties == 0) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n", f);
    if (t->n_properties)
        write_properties(f, t);
    if (t->skipped) {
        fputs("      <skipped message=\"", f);
        xml_text(f, t->failure ? t->failure : "");
        fputs("\"/>\n", f);
    } else if (t->failure) {
        fputs("      <failure message=\"", f);
        xml_text(f, t->failure);
        fputs("\" type=\"", f);
        xml_text(f, t->failure_type ? t->failure_type : "expectation");
        fputs("\">", f);
        xml_text(f, t->failure);
        fputs("</failure>\n", f);
    }
    fputs("    </testcase>\n", f);
}

static void write_junit_body(FILE *f, const mb_ci_log *L, const char *name)
{
    size_t failures = 0, skipped = 0;
    for (size_t k = 0; k < L->n; k++) {
        failures += L->tests[k].failure != NULL && !L->tests[k].skipped;
        skipped += L->tests[k].skipped;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
    xml_text(f, name);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", L->n,
            failures, skipped);
    for (size_t first = 0, end; first < L->n; first = end) {
        size_t nf, ns;
        suite_counts(L, first, &end, &nf, &ns);
        fputs("  <testsuite name=\"", f);
        xml_text(f, L->tests[first].suite);
        fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
                end - first, nf - ns, ns);
        for (size_t k = first; k < end; k++)
            write_testcase(f, &L->tests[k]);
        fputs("  </testsuite>\n", f);
    }
    fputs("</testsuites>\n", f);
}

int mb_ci_prepare_junit(const mb_ci_log *L, const char *path, const char *name, mb_output *o)
{
    if (mb_output_open(o, path) != MB_SUCCESS)
        return mb_last_error_code();
    write_junit_body(o->f, L, name);
    int st = mb_output_prepare(o);
    if (st != MB_SUCCESS)
        mb_output_close(o, 0);
    return st;
}

void mb_ci_write_tap(const mb_ci_log *L, FILE *out)
{
    fprintf(out, "TAP version 13\n1..%zu\n", L->n);
    for (size_t k = 0; k < L->n; k++) {
        const mb_ci_test *t = &L->tests[k];
        fprintf(out, "%s %zu - %s: %s", t->failure && !t->skipped ? "not ok" : "ok", k + 1,
                t->suite, t->name);
        if (t->skipped)
            fprintf(out, " # SKIP %s", t->failure ? t->failure : "");
        fputc('\n', out);
        if (t->failure && !t->skipped)
            fprintf(out, "  # %s\n", t->failure);
    }
}
