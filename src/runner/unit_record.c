/* unit_record.c -- one run's result as text that reads back bit for bit (mb_shard.h).
 *
 * A record of units.txt (doc/cluster.md) is TAB-separated lines:
 *   unit    CASE:A:J
 *   run     status steps steps_done diverged_step diverged_time t_final reference
 *           reference_error err[4] scale[4] translates rotates state_size
 *           force_evaluations jacobian_evaluations newton_iterations linear_iterations
 *           constraint_sweeps wall cpu wall_min wall_median cpu_min cpu_median repeats
 *           series_incomplete series_offered series_stride n_metrics n_series message
 *   metric  name value at_dt detail            (n_metrics lines)
 *   sample  the columns of a series/ file (mb_series_columns), in order  (n_series lines)
 *   probes  probe_nodes n_probes_kept
 *   probe   the 13 values of one node at one probe (n_probes_kept x probe_nodes lines)
 *   end
 * Numbers are C99 hexadecimal floats (%a), exact in both directions; "nan" and "inf" as
 * printf writes them.  Text fields escape backslash, TAB, CR and LF as \\ \t \r \n.
 * Statuses and reference kinds are written as integers of their enums. */
#include "mb_series.h"
#include "mb_shard.h"
#include "mb_status.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RUN_FIELDS 37

static void put_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '\\': fputs("\\\\", f); break;
        case '\t': fputs("\\t", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        default: fputc(*s, f);
        }
}

static void put_number(FILE *f, double v)
{
    fprintf(f, "\t%a", v);
}

void mb_unit_record_write(FILE *f, const mb_case *c, size_t a, size_t j,
                          const mb_run_result *u)
{
    char id[512];
    mb_unit_id(c, a, j, id, sizeof id);
    fputs("unit\t", f);
    put_text(f, id);
    fprintf(f, "\nrun\t%d\t%ld\t%ld\t%ld", (int)u->status, u->steps, u->steps_done,
            u->diverged_step);
    put_number(f, u->diverged_time);
    put_number(f, u->t_final);
    fprintf(f, "\t%d", (int)u->reference_used);
    put_number(f, u->reference_error);
    for (int k = 0; k < 4; k++)
        put_number(f, u->err[k]);
    for (int k = 0; k < 4; k++)
        put_number(f, u->scale[k]);
    fprintf(f, "\t%d\t%d\t%zu\t%lu\t%lu\t%lu\t%lu\t%lu", u->translates, u->rotates,
            u->state_size, u->cost.force_evaluations, u->cost.jacobian_evaluations,
            u->cost.newton_iterations, u->cost.linear_iterations, u->cost.constraint_sweeps);
    double times[6] = { u->wall, u->cpu, u->wall_min, u->wall_median, u->cpu_min,
                        u->cpu_median };
    for (int k = 0; k < 6; k++)
        put_number(f, times[k]);
    fprintf(f, "\t%d\t%d\t%ld\t%ld\t%zu\t%zu\t", u->repeats, u->series_incomplete,
            u->series_offered, u->series_stride, u->n_metrics, u->n_series);
    put_text(f, u->message);
    fputc('\n', f);
    for (size_t m = 0; m < u->n_metrics; m++) {
        const mb_metric_value *v = &u->metrics[m];
        fputs("metric\t", f);
        put_text(f, v->name);
        put_number(f, v->value);
        put_number(f, v->at_dt);
        fputc('\t', f);
        put_text(f, v->detail);
        fputc('\n', f);
    }
    for (size_t k = 0; k < u->n_series; k++) {
        fputs("sample", f);
        for (size_t m = 0; m < MB_SERIES_COLUMNS; m++)
            put_number(f, mb_series_value(&u->series[k], m));
        fputc('\n', f);
    }
    size_t rows = u->probes ? u->n_probes_kept * u->probe_nodes : 0;
    fprintf(f, "probes\t%zu\t%zu\n", u->probes ? u->probe_nodes : 0,
            u->probes ? u->n_probes_kept : 0);
    for (size_t k = 0; k < rows; k++) {
        fputs("probe", f);
        for (int m = 0; m < MB_PROBE_VALUES; m++)
            put_number(f, u->probes[k * MB_PROBE_VALUES + (size_t)m]);
        fputc('\n', f);
    }
    fputs("end\n", f);
}

/* ---- reading ---- */

typedef struct reader {
    FILE *f;
    const char *path;
    long *line;
    char *buf;
    size_t cap;
    char *field[RUN_FIELDS + 2];
    int n;
} reader;

/* Undo put_text in place; 0 on a bad escape. */
static int unescape(char *s)
{
    char *w = s;
    for (char *p = s; *p; p++) {
        if (*p != '\\') {
            *w++ = *p;
            continue;
        }
        switch (*++p) {
        case '\\': *w++ = '\\'; break;
        case 't': *w++ = '\t'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        default: return 0;
        }
    }
    *w = '\0';
    return 1;
}

/* Next line split at TABs; its first field must be `tag` with `fields` fields after it. */
static int next_line(reader *R, const char *tag, int fields)
{
    if (mb_shard_line_read(R->f, &R->buf, &R->cap, R->line) < 0)
        MB_ERROR(MB_EINVAL, "%s:%ld: the file ends inside a unit (expected '%s')", R->path,
                 *R->line + 1, tag);
    R->n = mb_shard_line_split(R->buf, R->field, RUN_FIELDS + 2);
    if (strcmp(R->field[0], tag) != 0 || R->n != fields + 1)
        MB_ERROR(MB_EINVAL, "%s:%ld: expected a '%s' line of %d fields", R->path, *R->line, tag,
                 fields);
    return MB_SUCCESS;
}

static int get_double(reader *R, int k, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(R->field[k], &end);
    if (end == R->field[k] || *end)
        MB_ERROR(MB_EINVAL, "%s:%ld: field %d: '%s' is not a number", R->path, *R->line, k,
                 R->field[k]);
    return MB_SUCCESS;
}

static int get_long(reader *R, int k, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(R->field[k], &end, 10);
    if (end == R->field[k] || *end || errno || *v < lo || *v > hi)
        MB_ERROR(MB_EINVAL, "%s:%ld: field %d: '%s' is not a whole number in [%ld, %ld]",
                 R->path, *R->line, k, R->field[k], lo, hi);
    return MB_SUCCESS;
}

static int get_ulong(reader *R, int k, unsigned long *v)
{
    long x;
    int s = get_long(R, k, 0, 0x7fffffffffffffffL, &x);
    *v = (unsigned long)x;
    return s;
}

static int get_text(reader *R, int k, char *out, size_t size)
{
    if (!unescape(R->field[k]) || strlen(R->field[k]) >= size)
        MB_ERROR(MB_EINVAL, "%s:%ld: field %d: bad escape or longer than %zu characters",
                 R->path, *R->line, k, size - 1);
    memcpy(out, R->field[k], strlen(R->field[k]) + 1);
    return MB_SUCCESS;
}

static int read_run(reader *R, mb_run_result *u, long *n_metrics, long *n_series)
{
    long x;
    int s = next_line(R, "run", RUN_FIELDS);
    if (s == MB_SUCCESS && (s = get_long(R, 1, 0, MB_RUN_SKIPPED, &x)) == MB_SUCCESS)
        u->status = (mb_run_status)x;
    if (s == MB_SUCCESS) s = get_long(R, 2, 0, 0x7fffffffffffffffL, &u->steps);
    if (s == MB_SUCCESS) s = get_long(R, 3, 0, 0x7fffffffffffffffL, &u->steps_done);
    if (s == MB_SUCCESS) s = get_long(R, 4, 0, 0x7fffffffffffffffL, &u->diverged_step);
    if (s == MB_SUCCESS) s = get_double(R, 5, &u->diverged_time);
    if (s == MB_SUCCESS) s = get_double(R, 6, &u->t_final);
    if (s == MB_SUCCESS && (s = get_long(R, 7, MB_REF_AUTO, MB_REF_MPFR, &x)) == MB_SUCCESS)
        u->reference_used = (mb_reference_kind)x;
    if (s == MB_SUCCESS) s = get_double(R, 8, &u->reference_error);
    for (int k = 0; k < 4 && s == MB_SUCCESS; k++)
        s = get_double(R, 9 + k, &u->err[k]);
    for (int k = 0; k < 4 && s == MB_SUCCESS; k++)
        s = get_double(R, 13 + k, &u->scale[k]);
    if (s == MB_SUCCESS && (s = get_long(R, 17, 0, 1, &x)) == MB_SUCCESS)
        u->translates = (int)x;
    if (s == MB_SUCCESS && (s = get_long(R, 18, 0, 1, &x)) == MB_SUCCESS)
        u->rotates = (int)x;
    if (s == MB_SUCCESS && (s = get_long(R, 19, 0, 0x7fffffffffffffffL, &x)) == MB_SUCCESS)
        u->state_size = (size_t)x;
    unsigned long *cost[5] = { &u->cost.force_evaluations, &u->cost.jacobian_evaluations,
                               &u->cost.newton_iterations, &u->cost.linear_iterations,
                               &u->cost.constraint_sweeps };
    for (int k = 0; k < 5 && s == MB_SUCCESS; k++)
        s = get_ulong(R, 20 + k, cost[k]);
    double *times[6] = { &u->wall, &u->cpu, &u->wall_min, &u->wall_median, &u->cpu_min,
                         &u->cpu_median };
    for (int k = 0; k < 6 && s == MB_SUCCESS; k++)
        s = get_double(R, 25 + k, times[k]);
    if (s == MB_SUCCESS && (s = get_long(R, 31, 0, MB_RUNNER_MAX_REPEAT, &x)) == MB_SUCCESS)
        u->repeats = (int)x;
    if (s == MB_SUCCESS && (s = get_long(R, 32, 0, 1, &x)) == MB_SUCCESS)
        u->series_incomplete = (int)x;
    if (s == MB_SUCCESS) s = get_long(R, 33, 0, 0x7fffffffffffffffL, &u->series_offered);
    if (s == MB_SUCCESS) s = get_long(R, 34, 0, 0x7fffffffffffffffL, &u->series_stride);
    if (s == MB_SUCCESS) s = get_long(R, 35, 0, MB_RUN_MAX_METRICS, n_metrics);
    if (s == MB_SUCCESS) s = get_long(R, 36, 0, 0x7fffffffL, n_series);
    if (s == MB_SUCCESS) s = get_text(R, 37, u->message, sizeof u->message);
    return s;
}

static int read_metric(reader *R, mb_metric_value *m)
{
    memset(m, 0, sizeof *m);
    int s = next_line(R, "metric", 4);
    if (s == MB_SUCCESS) s = get_text(R, 1, m->name, sizeof m->name);
    if (s == MB_SUCCESS) s = get_double(R, 2, &m->value);
    if (s == MB_SUCCESS) s = get_double(R, 3, &m->at_dt);
    if (s == MB_SUCCESS) s = get_text(R, 4, m->detail, sizeof m->detail);
    return s;
}

static int read_sample(reader *R, mb_series_sample *p)
{
    double v;
    int s = next_line(R, "sample", MB_SERIES_COLUMNS);
    for (size_t k = 0; k < MB_SERIES_COLUMNS && s == MB_SUCCESS; k++)
        if ((s = get_double(R, 1 + (int)k, &v)) == MB_SUCCESS)
            mb_series_set(p, k, v);
    return s;
}

/* the probes line and its probe lines (mb_probes.h) */
static int read_probes(reader *R, mb_run_result *u)
{
    long nodes = 0, kept = 0;
    int s = next_line(R, "probes", 2);
    if (s == MB_SUCCESS) s = get_long(R, 1, 0, 0x7fffffffL, &nodes);
    if (s == MB_SUCCESS) s = get_long(R, 2, 0, 1024, &kept);
    if (s != MB_SUCCESS || kept == 0)
        return s;
    u->probe_nodes = (size_t)nodes;
    u->probes = calloc((size_t)(kept * nodes) * MB_PROBE_VALUES, sizeof *u->probes);
    if (u->probes == NULL && nodes > 0)
        return mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
    for (long k = 0; k < kept * nodes && s == MB_SUCCESS; k++) {
        s = next_line(R, "probe", MB_PROBE_VALUES);
        for (int m = 0; m < MB_PROBE_VALUES && s == MB_SUCCESS; m++)
            s = get_double(R, 1 + m, &u->probes[(size_t)k * MB_PROBE_VALUES + (size_t)m]);
    }
    u->n_probes_kept = (size_t)kept;
    return s;
}

int mb_unit_record_read(FILE *f, const char *path, long *line, mb_run_result *u)
{
    reader R = { f, path, line, NULL, 0, { NULL }, 0 };
    long n_metrics = 0, n_series = 0;
    memset(u, 0, sizeof *u);
    int s = read_run(&R, u, &n_metrics, &n_series);
    for (long m = 0; m < n_metrics && s == MB_SUCCESS; m++)
        s = read_metric(&R, &u->metrics[u->n_metrics++]);
    if (s == MB_SUCCESS && n_series > 0) {
        u->series = calloc((size_t)n_series, sizeof *u->series);
        if (u->series == NULL)
            s = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
        else
            u->cap_series = (size_t)n_series;
    }
    for (long k = 0; k < n_series && s == MB_SUCCESS; k++)
        s = read_sample(&R, &u->series[u->n_series++]);
    if (s == MB_SUCCESS)
        s = read_probes(&R, u);
    if (s == MB_SUCCESS)
        s = next_line(&R, "end", 0);
    free(R.buf);
    return s;
}
