/* html_report.c -- index.html of a report directory (mb_html.h).
 *
 * The page is polyglot HTML5 (also well-formed XML, which the tests check with xmllint);
 * it refers only to files inside the report directory (or, written elsewhere with -o,
 * inside its own).  The plots are the SVG files of the plot directory, referred to, never
 * copied: those `run --plots` drew when they are of the same results (plots.list), else
 * drawn there once. */
#include "mb_atlas.h"
#include "mb_html.h"
#include "mb_html_summary.h"
#include "mb_output.h"
#include "mb_plot.h"
#include "mb_plot_list.h"
#include "mb_report.h"
#include "mb_status.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const quantities[4] = { "position", "velocity", "orientation",
                                           "angular_velocity" };

void mb_html_escape(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

static void esc(FILE *f, const char *s)
{
    mb_html_escape(f, s);
}

/* a number cell in 6 significant digits (the CSV keeps all 17), a word as it is */
static void num(FILE *f, const char *s)
{
    double v = mb_results_number(s);
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        esc(f, s);
}

/* an anchor from a case name: letters, digits and '-' kept, anything else '-' */
void mb_html_anchor(FILE *f, const char *name)
{
    for (; *name; name++)
        fputc((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z')
              || (*name >= '0' && *name <= '9') || *name == '-' ? *name : '-', f);
}

static const char *style_sheet =
    "body{font-family:sans-serif;margin:2em;max-width:1100px;color:#111}"
    "table{border-collapse:collapse;margin:0.5em 0 1em 0}"
    "th,td{border:1px solid #bbb;padding:0.25em 0.6em;text-align:left;vertical-align:top}"
    "th{background:#eee}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    ".fail{background:#fdd}.missing{background:#fed}.pass{background:#efe}.skipped{background:#eee}"
    ".finding{background:#fe9}"
    ".flag{color:#a40;font-weight:bold}img{max-width:100%;border:1px solid #ddd;margin:0.3em 0}"
    "h2{border-bottom:2px solid #333;margin-top:2em}code{background:#f4f4f4}"
    "p.description{font-style:italic;margin:0.3em 0 0.8em 0}"
    "table.summary td,table.summary th{font-size:0.92em}table.summary td.num{white-space:nowrap}";

/* ---- verdicts (checks.csv) ---- */

typedef struct counts { size_t checks, failed, missing; } counts;

static counts count_checks(const mb_results *r, const char *case_name)
{
    counts n = { 0, 0, 0 };
    if (r->checks == NULL)
        return n;
    int cc = mb_csv_col(r->checks, "case"), cv = mb_csv_col(r->checks, "verdict");
    for (size_t k = 0; k < r->checks->n_rows; k++) {
        if (case_name && strcmp(mb_csv_cell(r->checks, k, cc), case_name))
            continue;
        const char *v = mb_csv_cell(r->checks, k, cv);
        n.checks++;
        n.failed += !strcmp(v, "fail");
        n.missing += !strcmp(v, "missing");
    }
    return n;
}

/* the rows of checks.csv (of one case, or all when case_name is NULL) that failed or are
 * missing, or (passed = 1) the others: passed or skipped */
static void check_rows(FILE *f, const mb_results *r, const char *case_name, int passed)
{
    const mb_csv_table *t = r->checks;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator"), cd = mb_csv_col(t, "dt");
    int ce = mb_csv_col(t, "expectation"), cx = mb_csv_col(t, "value");
    int cv = mb_csv_col(t, "verdict");
    for (size_t k = 0; t && k < t->n_rows; k++) {
        const char *c = mb_csv_cell(t, k, cc), *v = mb_csv_cell(t, k, cv);
        int bad = !strcmp(v, "fail") || !strcmp(v, "missing");
        if ((case_name && strcmp(c, case_name)) || bad == passed)
            continue;
        fprintf(f, "<tr class=\"%s\">", v);
        if (case_name == NULL) {
            fputs("<td><a href=\"#", f);
            mb_html_anchor(f, c);
            fputs("\">", f);
            esc(f, c);
            fputs("</a></td>", f);
        }
        fputs("<td>", f);
        esc(f, mb_csv_cell(t, k, ci));
        fputs("</td><td class=\"num\">", f);
        num(f, mb_csv_cell(t, k, cd));
        fputs("</td><td><code>", f);
        esc(f, mb_csv_cell(t, k, ce));
        fputs("</code></td><td class=\"num\">", f);
        num(f, mb_csv_cell(t, k, cx));
        fprintf(f, "</td><td>%s</td></tr>\n", v);
    }
}

static void check_table_head(FILE *f, int with_case)
{
    fprintf(f, "<table><tr>%s<th>integrator</th><th>dt</th><th>expectation</th>"
               "<th>value</th><th>verdict</th></tr>\n", with_case ? "<th>case</th>" : "");
}

static void summary(FILE *f, const mb_results *r)
{
    counts all = count_checks(r, NULL);
    fprintf(f, "<h1>motionbench report</h1>\n<p>%zu case%s, %zu check%s: <b>%zu failed</b>, "
               "<b>%zu missing</b>.</p>\n", r->n_cases, r->n_cases == 1 ? "" : "s",
            all.checks, all.checks == 1 ? "" : "s", all.failed, all.missing);
    mb_html_integrator_summary(f, r);
    if (all.failed + all.missing > 0) {
        fputs("<h2>Failed and missing expectations</h2>\n", f);
        check_table_head(f, 1);
        check_rows(f, r, NULL, 0);
        fputs("</table>\n", f);
    }
    fputs("<h2>Cases</h2>\n<table><tr><th>case</th><th>what it tests</th><th>checks</th>"
          "<th>failed</th><th>missing</th></tr>\n", f);
    for (int pass = 0; pass < 2; pass++)        /* cases with failures first */
        for (size_t k = 0; k < r->n_cases; k++) {
            counts n = count_checks(r, r->cases[k]);
            int bad = n.failed + n.missing > 0;
            if (bad != !pass)
                continue;
            fprintf(f, "<tr class=\"%s\"><td><a href=\"#", bad ? "fail" : "pass");
            mb_html_anchor(f, r->cases[k]);
            fputs("\">", f);
            esc(f, r->cases[k]);
            fputs("</a></td><td>", f);
            esc(f, mb_results_case_description(r, r->cases[k]));
            fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>"
                       "<td class=\"num\">%zu</td></tr>\n", n.checks, n.failed, n.missing);
        }
    fputs("</table>\n", f);
}

/* ---- one case ---- */

static void order_cell(FILE *f, const mb_results *r, const char *c, const char *spec, int q)
{
    char name[64];
    snprintf(name, sizeof name, "order.%s", quantities[q]);
    const char *detail = NULL, *v = mb_results_metric(r, c, spec, name, &detail);
    fputs("<td class=\"num\">", f);
    if (v == NULL) {
        fputs("&#8211;</td>", f);
        return;
    }
    fprintf(f, "%.3f", mb_results_number(v));
    snprintf(name, sizeof name, "order.%s.stderr", quantities[q]);
    double se = mb_results_number(mb_results_metric(r, c, spec, name, NULL));
    if (isfinite(se))
        fprintf(f, " &#177; %.2g", se);
    snprintf(name, sizeof name, "order.%s.flags", quantities[q]);
    const char *fl = mb_results_metric(r, c, spec, name, NULL);
    if (fl && strcmp(fl, "none")) {
        fputs(" <span class=\"flag\">[", f);
        esc(f, fl);
        fputs("]</span>", f);
    }
    fputs("<br/><small>", f);
    esc(f, detail);
    fputs("</small></td>", f);
}

/* pairwise orders of (case, integrator, quantity), finest pair first */
static void pairwise_cell(FILE *f, const mb_results *r, const char *c, const char *spec, int q)
{
    const mb_csv_table *t = r->metrics;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator");
    int cm = mb_csv_col(t, "metric"), cv = mb_csv_col(t, "value");
    char name[64];
    snprintf(name, sizeof name, "order.%s.pairwise", quantities[q]);
    fputs("<td class=\"num\">", f);
    int any = 0;
    for (size_t k = 0; k < t->n_rows; k++)
        if (!strcmp(mb_csv_cell(t, k, cm), name) && !strcmp(mb_csv_cell(t, k, cc), c)
            && !strcmp(mb_csv_cell(t, k, ci), spec)) {
            fprintf(f, "%s%.2f", any ? ", " : "", mb_results_number(mb_csv_cell(t, k, cv)));
            any = 1;
        }
    fputs(any ? "</td>" : "&#8211;</td>", f);
}

static int quantity_present(const mb_results *r, const char *c, const char **specs, size_t n,
                            int q)
{
    char name[64];
    snprintf(name, sizeof name, "order.%s", quantities[q]);
    for (size_t i = 0; i < n; i++)
        if (mb_results_metric(r, c, specs[i], name, NULL))
            return 1;
    return 0;
}

static void runs_ok(const mb_results *r, const char *c, const char *spec, size_t *ok,
                    size_t *all)
{
    const mb_csv_table *t = r->runs;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator"), cs = mb_csv_col(t, "status");
    *ok = *all = 0;
    for (size_t k = 0; k < t->n_rows; k++)
        if (!strcmp(mb_csv_cell(t, k, cc), c) && !strcmp(mb_csv_cell(t, k, ci), spec)) {
            (*all)++;
            *ok += !strcmp(mb_csv_cell(t, k, cs), "ok");
        }
}

static void integrator_table(FILE *f, const mb_results *r, const char *c, const char **specs,
                             size_t n)
{
    int present[4];
    fputs("<table><tr><th>integrator</th><th>runs ok</th>", f);
    for (int q = 0; q < 4; q++)
        if ((present[q] = quantity_present(r, c, specs, n, q)))
            fprintf(f, "<th>order of %s &#177; standard error</th><th>pairwise orders "
                       "(coarse to fine)</th>", quantities[q]);
    fputs("</tr>\n", f);
    for (size_t i = 0; i < n; i++) {
        size_t ok, all;
        runs_ok(r, c, specs[i], &ok, &all);
        fputs("<tr><td>", f);
        esc(f, specs[i]);
        fprintf(f, "</td><td class=\"num\">%zu/%zu</td>", ok, all);
        for (int q = 0; q < 4; q++)
            if (present[q]) {
                order_cell(f, r, c, specs[i], q);
                pairwise_cell(f, r, c, specs[i], q);
            }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* the references the runs of a case used: kind, precision, largest error estimate */
static void provenance(FILE *f, const mb_results *r, const char *c)
{
    const mb_csv_table *t = r->runs;
    int cc = mb_csv_col(t, "case"), cr = mb_csv_col(t, "reference");
    int ce = mb_csv_col(t, "reference_error"), cp = mb_csv_col(t, "precision");
    fputs("<table><tr><th>reference</th><th>precision of the runs</th><th>runs</th>"
          "<th>largest error estimate of the reference</th></tr>\n", f);
    for (size_t k = 0; k < t->n_rows; k++) {
        if (strcmp(mb_csv_cell(t, k, cc), c))
            continue;
        const char *kind = mb_csv_cell(t, k, cr), *prec = mb_csv_cell(t, k, cp);
        int seen = 0;
        for (size_t j = 0; j < k && !seen; j++)
            seen = !strcmp(mb_csv_cell(t, j, cc), c) && !strcmp(mb_csv_cell(t, j, cr), kind)
                   && !strcmp(mb_csv_cell(t, j, cp), prec);
        if (seen)
            continue;
        size_t runs = 0;
        double worst = 0.0;
        for (size_t j = k; j < t->n_rows; j++)
            if (!strcmp(mb_csv_cell(t, j, cc), c) && !strcmp(mb_csv_cell(t, j, cr), kind)
                && !strcmp(mb_csv_cell(t, j, cp), prec)) {
                runs++;
                worst = fmax(worst, mb_results_number(mb_csv_cell(t, j, ce)));
            }
        fputs("<tr><td>", f);
        esc(f, kind[0] ? kind : "(run did not finish)");
        fputs("</td><td>", f);
        esc(f, prec);
        fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"num\">", runs);
        if (kind[0] && strcmp(kind, "none"))
            fprintf(f, "%.3g", worst);
        else
            fputs("&#8211;", f);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* the plots of case c in the plot list: stems "c__KIND", referred to as SVG */
static void plots_of(FILE *f, const char *prefix, char *const *stems, size_t n, const char *c)
{
    size_t len = strlen(c);
    for (size_t k = 0; k < n; k++) {
        if (strncmp(stems[k], c, len) || strncmp(stems[k] + len, "__", 2))
            continue;
        fputs("<figure><img src=\"", f);
        esc(f, prefix);
        esc(f, stems[k]);
        fputs(".svg\" alt=\"", f);
        esc(f, stems[k] + len + 2);
        fputs("\"/></figure>\n", f);
    }
}

static void case_section(FILE *f, const mb_results *r, const char *prefix, char *const *stems,
                         size_t n_stems, const char *c)
{
    size_t n;
    const char **specs = mb_results_integrators(r, c, &n);
    fputs("<section><h2 id=\"", f);
    mb_html_anchor(f, c);
    fputs("\">", f);
    esc(f, c);
    fputs("</h2>\n", f);
    const char *what = mb_results_case_description(r, c);
    if (what[0]) {
        fputs("<p class=\"description\">", f);
        esc(f, what);
        fputs("</p>\n", f);
    }
    counts k = count_checks(r, c);
    if (k.failed + k.missing > 0) {
        fputs("<h3>Failed and missing expectations</h3>\n", f);
        check_table_head(f, 0);
        check_rows(f, r, c, 0);
        fputs("</table>\n", f);
    }
    fputs("<h3>Integrators</h3>\n", f);
    if (specs)
        integrator_table(f, r, c, specs, n);
    free(specs);
    if (k.checks > k.failed + k.missing) {
        fputs("<h3>Expectations that hold (or were skipped)</h3>\n", f);
        check_table_head(f, 0);
        check_rows(f, r, c, 1);
        fputs("</table>\n", f);
    }
    fputs("<h3>References</h3>\n", f);
    provenance(f, r, c);
    plots_of(f, prefix, stems, n_stems, c);
    fputs("</section>\n", f);
}

/* The atlas (mb_atlas.h) of a report with outside programs. */
static void atlas_section(FILE *f, const mb_results *r)
{
    mb_atlas *a = NULL;
    if (mb_atlas_build(r, &a) != MB_SUCCESS) {
        fputs("<p class=\"fail\">Atlas: ", f);
        esc(f, mb_last_error());
        fputs("</p>\n", f);
        mb_clear_error();
    } else if (mb_atlas_external_packages(a) > 0) {
        mb_atlas_html(f, a);
    }
    mb_atlas_free(a);
}

static void write_page(FILE *f, const mb_results *r, const char *prefix, char *const *stems,
                       size_t n_stems)
{
    fprintf(f, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
               "<head><meta charset=\"utf-8\"/><title>motionbench report</title>\n"
               "<style>%s</style></head>\n<body>\n", style_sheet);
    summary(f, r);
    atlas_section(f, r);
    for (size_t k = 0; k < r->n_cases; k++)
        case_section(f, r, prefix, stems, n_stems, r->cases[k]);
    fputs("<p><small>Written by <code>motionbench report</code> from ", f);
    esc(f, r->dir);
    fputs(" (runs.csv, metrics.csv, checks.csv). Orders: least-squares slope of log error "
          "against log dt; flags: excluded (points left out of the fit), non-monotone "
          "(pairwise orders rise and fall), short-range (the fit spans less than half of "
          "the decades asked for).</small></p>\n</body>\n</html>\n", f);
}

/* Where the page finds its plots: REPORT_DIR/plots when the page is written into the
 * report directory or a directory directly inside it (the default REPORT_DIR/html), so
 * that the plots `run --plots` drew serve; else OUT_DIR/plots, so that a page written
 * elsewhere is complete in its own directory.  plot_dir gets the path, prefix the
 * relative reference from the page. */
static int plot_place(const mb_results *r, const char *out_dir, char *plot_dir, size_t size,
                      const char **prefix)
{
    char report[PATH_MAX], out[PATH_MAX], up[PATH_MAX + 4], parent[PATH_MAX];
    if (realpath(r->dir, report) == NULL || realpath(out_dir, out) == NULL)
        MB_ERROR(MB_EIO, "cannot resolve %s or %s: %s", r->dir, out_dir, strerror(errno));
    snprintf(up, sizeof up, "%s/..", out);
    if (realpath(up, parent) == NULL)
        MB_ERROR(MB_EIO, "cannot resolve the parent of %s: %s", out, strerror(errno));
    if (!strcmp(out, report)) {
        *prefix = "plots/";
        snprintf(plot_dir, size, "%s/plots", r->dir);
    } else if (!strcmp(parent, report)) {
        *prefix = "../plots/";
        snprintf(plot_dir, size, "%s/plots", r->dir);
    } else {
        *prefix = "plots/";
        snprintf(plot_dir, size, "%s/plots", out_dir);
    }
    return MB_SUCCESS;
}

/* the list of the plots of these results in plot_dir, drawn there first when it holds
 * none (or those of other results) */
static int current_plots(const mb_results *r, const char *plot_dir, char ***stems, size_t *n)
{
    char hex[MB_SHA256_HEX];
    if (mb_plot_fingerprint(r->dir, hex) != MB_SUCCESS)
        return MB_EIO;
    int st = mb_plot_list_read(plot_dir, hex, stems, n);
    if (st != MB_ENOTFOUND)
        return st;
    size_t drawn;
    if ((st = mb_plot_report(r, plot_dir, &drawn)) != MB_SUCCESS)
        return st;
    st = mb_plot_list_read(plot_dir, hex, stems, n);
    if (st == MB_ENOTFOUND)
        MB_ERROR(MB_EIO, "%s/plots.list: not written", plot_dir);
    return st;
}

int mb_html_report(const mb_results *r, const char *out_dir)
{
    char plot_dir[PATH_MAX + 8];
    const char *prefix = "plots/";
    char **stems = NULL;
    size_t n = 0;
    int st = mb_output_make_dirs(out_dir);
    if (st == MB_SUCCESS)
        st = plot_place(r, out_dir, plot_dir, sizeof plot_dir, &prefix);
    if (st == MB_SUCCESS)
        st = current_plots(r, plot_dir, &stems, &n);
    if (st != MB_SUCCESS)
        return st;
    mb_atomic_file af;
    if ((st = mb_atomic_open(&af, out_dir, "index.html")) == MB_SUCCESS) {
        write_page(af.f, r, prefix, stems, n);
        st = mb_atomic_close(&af);
        if (st == MB_SUCCESS)
            st = mb_atomic_commit(&af);
        mb_atomic_discard(&af);
    }
    mb_plot_list_free(stems, n);
    return st;
}
