/* atlas.c -- the atlas of a report (mb_atlas.h): packages as columns, (case, metric) rows,
 * cells coloured by the verdicts of checks.csv and findings.csv, in Markdown and HTML.
 *
 * The page is a function of the report's files alone (no time, no path of this machine),
 * so `make check` can regenerate doc/atlas.md from the committed reports/atlas/ and
 * compare it byte for byte. */
#include "mb_atlas.h"
#include "mb_html.h"
#include "mb_status.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ATLAS_MAX_PACKAGES 32

typedef enum { V_SKIPPED = 0, V_PASS, V_FINDING, V_FAIL } verdict;
static const char *const verdict_class[4] = { "skipped", "pass", "finding", "fail" };
static const char *const verdict_mark[4] = { "\xe2\xac\x9c", "\xe2\x9c\x85",
                                             "\xf0\x9f\x94\xb6", "\xe2\x9d\x8c" };

typedef struct atlas_row { const char *case_name; char *key; } atlas_row;

typedef struct atlas_check {
    size_t row, pkg, check_row;       /* check_row: the row of checks.csv */
    const char *spec, *value;
    verdict v;
} atlas_check;

typedef struct atlas_finding {
    const char *case_name, *spec, *key, *text, *command;
    size_t line;
} atlas_finding;

struct mb_atlas {
    const mb_results *r;
    mb_csv_table *findings_table;
    size_t n_pkgs;
    char *pkgs[ATLAS_MAX_PACKAGES];
    size_t n_rows, n_checks, n_findings;
    atlas_row *rows;
    atlas_check *checks;
    atlas_finding *findings;
};

/* "lammps" of external:lammps[fix=nve], "motionbench" of a built-in scheme. */
static void package_of(const char *spec, char *out, size_t size)
{
    if (strncmp(spec, "external:", 9) != 0) {
        snprintf(out, size, "motionbench");
        return;
    }
    spec += 9;
    snprintf(out, size, "%.*s", (int)strcspn(spec, "["), spec);
}

static size_t package_index(mb_atlas *a, const char *spec)
{
    char name[128];
    package_of(spec, name, sizeof name);
    for (size_t k = 0; k < a->n_pkgs; k++)
        if (strcmp(a->pkgs[k], name) == 0)
            return k;
    if (a->n_pkgs == ATLAS_MAX_PACKAGES)
        return SIZE_MAX;
    a->pkgs[a->n_pkgs] = strdup(name);
    return a->pkgs[a->n_pkgs] ? a->n_pkgs++ : SIZE_MAX;
}

/* The built-in schemes first, then the packages in the order of runs.csv. */
static void collect_packages(mb_atlas *a)
{
    const mb_csv_table *t = a->r->runs;
    int ci = mb_csv_col(t, "integrator");
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < t->n_rows; k++) {
            const char *spec = mb_csv_cell(t, k, ci);
            if ((strncmp(spec, "external:", 9) != 0) == (pass == 0))
                package_index(a, spec);
        }
}

/* The metric of an expectation "SPEC.METRIC[@DT] = ...": METRIC[@DT], allocated. */
static char *expectation_key(const char *expectation, const char *spec)
{
    size_t n = strlen(spec);
    const char *p = strncmp(expectation, spec, n) == 0 && expectation[n] == '.'
                    ? expectation + n + 1 : expectation;
    return strndup(p, strcspn(p, " ="));
}

static size_t row_index(mb_atlas *a, const char *case_name, char *key)
{
    for (size_t k = 0; k < a->n_rows; k++)
        if (strcmp(a->rows[k].case_name, case_name) == 0 && strcmp(a->rows[k].key, key) == 0) {
            free(key);
            return k;
        }
    a->rows[a->n_rows] = (atlas_row){ case_name, key };
    return a->n_rows++;
}

static verdict verdict_of(const char *word, const char *key, const char *value)
{
    if (strcmp(word, "pass") == 0)
        return strcmp(key, "status") == 0 && strcmp(value, "skipped") == 0 ? V_SKIPPED : V_PASS;
    return strcmp(word, "skipped") == 0 ? V_SKIPPED : V_FAIL;
}

static int collect_checks(mb_atlas *a)
{
    const mb_csv_table *t = a->r->checks;
    size_t n = t ? t->n_rows : 0;
    a->rows = calloc(n + 1, sizeof *a->rows);
    a->checks = calloc(n + 1, sizeof *a->checks);
    if (a->rows == NULL || a->checks == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator");
    int ce = mb_csv_col(t, "expectation"), cv = mb_csv_col(t, "value");
    int cd = mb_csv_col(t, "verdict");
    for (size_t k = 0; k < n; k++) {
        const char *spec = mb_csv_cell(t, k, ci);
        char *key = expectation_key(mb_csv_cell(t, k, ce), spec);
        size_t pkg = package_index(a, spec);
        if (key == NULL || pkg == SIZE_MAX) {
            free(key);
            MB_ERROR(MB_ENOMEM, "out of memory (or more than %d packages)", ATLAS_MAX_PACKAGES);
        }
        verdict v = verdict_of(mb_csv_cell(t, k, cd), key, mb_csv_cell(t, k, cv));
        size_t row = row_index(a, mb_csv_cell(t, k, cc), key);
        a->checks[a->n_checks++] = (atlas_check){ row, pkg, k, spec, mb_csv_cell(t, k, cv), v };
    }
    return MB_SUCCESS;
}

/* findings.csv: each line must name a passing expectation of the report, which it marks. */
static int mark_findings(mb_atlas *a)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/findings.csv", a->r->dir);
    int st = mb_csv_table_read(path, MB_INPUT_CHECKS, 1, &a->findings_table);
    if (st == MB_ENOTFOUND) {
        mb_clear_error();
        return MB_SUCCESS;
    }
    if (st != MB_SUCCESS)
        return st;
    const mb_csv_table *t = a->findings_table;
    int col[5];
    static const char *const names[5] = { "case", "integrator", "expectation", "finding",
                                           "command" };
    for (int c = 0; c < 5; c++)
        if ((col[c] = mb_csv_col(t, names[c])) < 0)
            MB_ERROR(MB_EINVAL, "%s:1: no column '%s' (case, integrator, expectation, finding, "
                     "command)", path, names[c]);
    if ((a->findings = calloc(t->n_rows + 1, sizeof *a->findings)) == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    for (size_t k = 0; k < t->n_rows; k++) {
        atlas_finding *f = &a->findings[a->n_findings++];
        *f = (atlas_finding){ mb_csv_cell(t, k, col[0]), mb_csv_cell(t, k, col[1]),
                              mb_csv_cell(t, k, col[2]), mb_csv_cell(t, k, col[3]),
                              mb_csv_cell(t, k, col[4]), k + 2 };
        int matched = 0;
        for (size_t c = 0; c < a->n_checks; c++) {
            atlas_check *x = &a->checks[c];
            if (strcmp(a->rows[x->row].case_name, f->case_name) == 0
                && strcmp(x->spec, f->spec) == 0 && strcmp(a->rows[x->row].key, f->key) == 0) {
                matched = 1;
                if (x->v == V_PASS)
                    x->v = V_FINDING;
            }
        }
        if (!matched)
            MB_ERROR(MB_EINVAL, "%s:%zu: no expectation '%s' of %s in case %s of the report",
                     path, f->line, f->key, f->spec, f->case_name);
    }
    return MB_SUCCESS;
}

int mb_atlas_build(const mb_results *r, mb_atlas **out)
{
    mb_atlas *a = calloc(1, sizeof *a);
    *out = NULL;
    if (a == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    a->r = r;
    collect_packages(a);
    int st = collect_checks(a);
    if (st == MB_SUCCESS)
        st = mark_findings(a);
    if (st != MB_SUCCESS) {
        mb_atlas_free(a);
        return st;
    }
    *out = a;
    return MB_SUCCESS;
}

void mb_atlas_free(mb_atlas *a)
{
    if (a == NULL)
        return;
    for (size_t k = 0; k < a->n_pkgs; k++)
        free(a->pkgs[k]);
    for (size_t k = 0; k < a->n_rows; k++)
        free(a->rows[k].key);
    free(a->rows);
    free(a->checks);
    free(a->findings);
    mb_csv_table_free(a->findings_table);
    free(a);
}

size_t mb_atlas_external_packages(const mb_atlas *a)
{
    size_t n = 0;
    for (size_t k = 0; k < a->n_pkgs; k++)
        n += strcmp(a->pkgs[k], "motionbench") != 0;
    return n;
}

/* ---- cells ---- */

/* The line of runs.csv (header = line 1) of the first run of (case, spec); 0 if none. */
static size_t runs_line(const mb_atlas *a, const char *case_name, const char *spec)
{
    const mb_csv_table *t = a->r->runs;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator");
    for (size_t k = 0; k < t->n_rows; k++)
        if (strcmp(mb_csv_cell(t, k, cc), case_name) == 0
            && strcmp(mb_csv_cell(t, k, ci), spec) == 0)
            return k + 2;
    return 0;
}

/* The variant of a spec shown in its cell: the options of external:NAME[OPTIONS], the
 * scheme of a built-in one, "default" for an external one without options. */
static void variant(const char *spec, char *out, size_t size)
{
    const char *open = strchr(spec, '[');
    if (strncmp(spec, "external:", 9) != 0)
        snprintf(out, size, "%s", spec);
    else if (open)
        snprintf(out, size, "%.*s", (int)(strlen(open) - 2), open + 1);
    else
        snprintf(out, size, "default");
}

static void value_text(const char *value, char *out, size_t size)
{
    double v = mb_results_number(value);
    if (isfinite(v))
        snprintf(out, size, "%.3g", v);
    else
        snprintf(out, size, "%s", value);
}

/* The entries of cell (row, pkg): one per integrator, its worst verdict and the value of
 * its last check (the finest time step); calls fn for each. */
typedef void (*entry_fn)(FILE *f, const mb_atlas *a, const char *link,
                         const atlas_check *last, verdict worst, int first);

static void cell_entries(FILE *f, const mb_atlas *a, const char *link, size_t row, size_t pkg,
                         entry_fn fn)
{
    int first = 1;
    for (size_t c = 0; c < a->n_checks; c++) {
        const atlas_check *x = &a->checks[c];
        int seen = 0;
        for (size_t p = 0; p < c && !seen; p++)
            seen = a->checks[p].row == row && strcmp(a->checks[p].spec, x->spec) == 0;
        if (x->row != row || x->pkg != pkg || seen)
            continue;
        const atlas_check *last = x;
        verdict worst = x->v;
        for (size_t d = c + 1; d < a->n_checks; d++)
            if (a->checks[d].row == row && strcmp(a->checks[d].spec, x->spec) == 0) {
                last = &a->checks[d];
                worst = last->v > worst ? last->v : worst;
            }
        fn(f, a, link, last, worst, first);
        first = 0;
    }
}

/* ---- Markdown ---- */

static void md_cell_entry(FILE *f, const mb_atlas *a, const char *runs_link,
                          const atlas_check *x, verdict v, int first)
{
    char var[160], val[64];
    variant(x->spec, var, sizeof var);
    value_text(x->value, val, sizeof val);
    fprintf(f, "%s%s [%s %s](%s#L%zu)", first ? "" : "<br>", verdict_mark[v], var, val,
            runs_link, runs_line(a, a->rows[x->row].case_name, x->spec));
}

static void md_findings(FILE *f, const mb_atlas *a)
{
    if (a->n_findings == 0)
        return;
    fputs("\n## Findings\n\nEach finding is a measured behaviour that differs from the scheme's "
          "nominal one (its cells are marked \xf0\x9f\x94\xb6), with the command that "
          "reproduces it.\n\n", f);
    for (size_t k = 0; k < a->n_findings; k++) {
        const atlas_finding *x = &a->findings[k];
        char pkg[128];
        package_of(x->spec, pkg, sizeof pkg);
        fprintf(f, "%zu. **%s** (`%s`, %s, `%s`): %s  \n   `%s`\n", k + 1, pkg, x->spec,
                x->case_name, x->key, x->text, x->command);
    }
}

void mb_atlas_markdown(FILE *f, const mb_atlas *a, const char *runs_link, const char *command)
{
    fprintf(f, "# The atlas: packages judged on the same problems\n\n"
               "<!-- generated by `%s`; do not edit: change the cases or the findings and "
               "regenerate -->\n\n"
               "Every package's integrators on the problems of `cases/peers`, scored by "
               "motionbench against the same references (doc/peers.md describes each "
               "adapter and how each number was measured).  Rows: a case and the metric of "
               "one of its expectations; columns: packages (`motionbench`: the built-in "
               "schemes).  Each entry: the integrator's variant, the value (at the finest "
               "time step when the expectation covers several) and its verdict, linked to "
               "its runs in `runs.csv`.\n\n"
               "%s as expected \xc2\xb7 %s a finding (below) \xc2\xb7 %s failed \xc2\xb7 %s "
               "declined or not installed (skipped)\n\n",
            command, verdict_mark[V_PASS], verdict_mark[V_FINDING], verdict_mark[V_FAIL],
            verdict_mark[V_SKIPPED]);
    fputs("| case | metric |", f);
    for (size_t p = 0; p < a->n_pkgs; p++)
        fprintf(f, " %s |", a->pkgs[p]);
    fputs("\n|---|---|", f);
    for (size_t p = 0; p < a->n_pkgs; p++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t r = 0; r < a->n_rows; r++) {
        fprintf(f, "| %s | `%s` |", a->rows[r].case_name, a->rows[r].key);
        for (size_t p = 0; p < a->n_pkgs; p++) {
            fputc(' ', f);
            cell_entries(f, a, runs_link, r, p, md_cell_entry);
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    md_findings(f, a);
}

/* ---- HTML ---- */

static void esc(FILE *f, const char *s)
{
    mb_html_escape(f, s);
}

static void html_entry(FILE *f, const mb_atlas *a, const char *link, const atlas_check *x,
                       verdict v, int first)
{
    char var[160], val[64];
    variant(x->spec, var, sizeof var);
    value_text(x->value, val, sizeof val);
    fprintf(f, "%s<span class=\"%s\">", first ? "" : "<br/>", verdict_class[v]);
    esc(f, var);
    fputc(' ', f);
    esc(f, val);
    fputs("</span>", f);
    (void)a;
    (void)link;
}

void mb_atlas_html(FILE *f, const mb_atlas *a)
{
    fputs("<section><h2 id=\"atlas\">Atlas: packages judged on the same problems</h2>\n"
          "<p>Columns: packages; rows: a case and the metric of one of its expectations; "
          "green as expected, amber a finding, red failed, grey declined or not installed. "
          "Each cell links to its case.</p>\n<table><tr><th>case</th><th>metric</th>", f);
    for (size_t p = 0; p < a->n_pkgs; p++) {
        fputs("<th>", f);
        esc(f, a->pkgs[p]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (size_t r = 0; r < a->n_rows; r++) {
        fputs("<tr><td><a href=\"#", f);
        mb_html_anchor(f, a->rows[r].case_name);
        fputs("\">", f);
        esc(f, a->rows[r].case_name);
        fputs("</a></td><td><code>", f);
        esc(f, a->rows[r].key);
        fputs("</code></td>", f);
        for (size_t p = 0; p < a->n_pkgs; p++) {
            fputs("<td>", f);
            cell_entries(f, a, NULL, r, p, html_entry);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    if (a->n_findings) {
        fputs("<h3>Findings</h3>\n<ol>\n", f);
        for (size_t k = 0; k < a->n_findings; k++) {
            fputs("<li><code>", f);
            esc(f, a->findings[k].spec);
            fputs("</code>, ", f);
            esc(f, a->findings[k].case_name);
            fputs(": ", f);
            esc(f, a->findings[k].text);
            fputs(" <code>", f);
            esc(f, a->findings[k].command);
            fputs("</code></li>\n", f);
        }
        fputs("</ol>\n", f);
    }
    fputs("</section>\n", f);
}
