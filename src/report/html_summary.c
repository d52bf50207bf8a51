/* html_summary.c -- the per-integrator summary of the HTML report (mb_html_summary.h). */
#include "mb_html_summary.h"
#include "mb_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const quantities[4] = { "position", "velocity", "orientation",
                                           "angular_velocity" };

/* the distinct values of column col of t, in first-seen order (caller frees the array) */
static const char **distinct(const mb_csv_table *t, int col, size_t *n)
{
    const char **v = calloc((t ? t->n_rows : 0) + 1, sizeof *v);
    *n = 0;
    for (size_t k = 0; v && t && k < t->n_rows; k++) {
        const char *s = mb_csv_cell(t, k, col);
        size_t j = 0;
        while (j < *n && strcmp(v[j], s))
            j++;
        if (j == *n)
            v[(*n)++] = s;
    }
    return v;
}

/* verdicts in reading order: pass, fail, missing, skipped, then any other in first-seen
 * order */
static const char **verdicts(const mb_results *r, size_t *n)
{
    static const char *const known[] = { "pass", "fail", "missing", "skipped" };
    size_t m;
    const char **seen = distinct(r->checks, mb_csv_col(r->checks, "verdict"), &m);
    const char **v = calloc(m + 5, sizeof *v);
    *n = 0;
    if (seen == NULL || v == NULL) {
        free(seen);
        free(v);
        return NULL;
    }
    for (size_t k = 0; k < 4; k++)
        for (size_t j = 0; j < m; j++)
            if (!strcmp(seen[j], known[k]))
                v[(*n)++] = seen[j];
    for (size_t j = 0; j < m; j++) {
        int listed = 0;
        for (size_t k = 0; k < 4; k++)
            listed |= !strcmp(seen[j], known[k]);
        if (!listed)
            v[(*n)++] = seen[j];
    }
    free(seen);
    return v;
}

static size_t count_checks(const mb_results *r, const char *spec, const char *verdict)
{
    const mb_csv_table *t = r->checks;
    int ci = mb_csv_col(t, "integrator"), cv = mb_csv_col(t, "verdict");
    size_t n = 0;
    for (size_t k = 0; t && k < t->n_rows; k++)
        n += !strcmp(mb_csv_cell(t, k, ci), spec) && !strcmp(mb_csv_cell(t, k, cv), verdict);
    return n;
}

/* cases running spec, its runs and those that finished (runs.csv) */
static void count_runs(const mb_results *r, const char *spec, size_t *cases, size_t *ok,
                       size_t *all)
{
    const mb_csv_table *t = r->runs;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator"), cs = mb_csv_col(t, "status");
    const char *last = NULL;
    *cases = *ok = *all = 0;
    for (size_t k = 0; k < t->n_rows; k++)
        if (!strcmp(mb_csv_cell(t, k, ci), spec)) {
            (*all)++;
            *ok += !strcmp(mb_csv_cell(t, k, cs), "ok");
            if (last == NULL || strcmp(last, mb_csv_cell(t, k, cc)))   /* rows grouped by case */
                (*cases)++;
            last = mb_csv_cell(t, k, cc);
        }
}

/* "1.99–2.01 (5 cases)" of order.<q> of spec over the cases, nothing when never measured */
static void order_range(FILE *f, const mb_results *r, const char *spec, int q)
{
    const mb_csv_table *t = r->metrics;
    int ci = mb_csv_col(t, "integrator"), cm = mb_csv_col(t, "metric");
    int cd = mb_csv_col(t, "dt"), cv = mb_csv_col(t, "value");
    char name[64];
    snprintf(name, sizeof name, "order.%s", quantities[q]);
    double lo = INFINITY, hi = -INFINITY;
    size_t n = 0;
    for (size_t k = 0; k < t->n_rows; k++) {
        if (strcmp(mb_csv_cell(t, k, cm), name) || strcmp(mb_csv_cell(t, k, ci), spec)
            || mb_csv_cell(t, k, cd)[0])
            continue;
        double v = mb_results_number(mb_csv_cell(t, k, cv));
        if (!isfinite(v))
            continue;
        lo = fmin(lo, v);
        hi = fmax(hi, v);
        n++;
    }
    fputs("<td class=\"num\">", f);
    if (n == 1)
        fprintf(f, "%.2f <small>(1 case)</small>", lo);
    else if (n > 1)
        fprintf(f, "%.2f&#8211;%.2f <small>(%zu cases)</small>", lo, hi, n);
    else
        fputs("&#8211;", f);
    fputs("</td>", f);
}

void mb_html_integrator_summary(FILE *f, const mb_results *r)
{
    size_t ns, nv = 0;
    const char **specs = distinct(r->runs, mb_csv_col(r->runs, "integrator"), &ns);
    const char **v = r->checks ? verdicts(r, &nv) : NULL;
    fputs("<h2 id=\"integrators\">Integrators across the cases</h2>\n<table class=\"summary\">"
          "<tr><th>integrator</th><th>cases</th><th>runs finished</th>", f);
    for (size_t k = 0; k < nv; k++) {
        fputs("<th>checks ", f);
        mb_html_escape(f, v[k]);
        fputs("</th>", f);
    }
    for (int q = 0; q < 4; q++)
        fprintf(f, "<th>measured order of %s</th>", quantities[q]);
    fputs("</tr>\n", f);
    for (size_t i = 0; specs && i < ns; i++) {
        size_t cases, ok, all;
        count_runs(r, specs[i], &cases, &ok, &all);
        size_t failed = 0;
        for (size_t k = 0; k < nv; k++)
            if (!strcmp(v[k], "fail") || !strcmp(v[k], "missing"))
                failed += count_checks(r, specs[i], v[k]);
        fprintf(f, "<tr class=\"%s\"><td>", failed ? "fail" : "pass");
        mb_html_escape(f, specs[i]);
        fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"num\">%zu/%zu</td>", cases, ok,
                all);
        for (size_t k = 0; k < nv; k++)
            fprintf(f, "<td class=\"num\">%zu</td>", count_checks(r, specs[i], v[k]));
        for (int q = 0; q < 4; q++)
            order_range(f, r, specs[i], q);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    free(specs);
    free(v);
}
