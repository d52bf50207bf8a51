/* trajectory_read.c -- trajectory.csv of an outside program (doc/external.md, section 4):
 * parsing and validation over a buffer, so that a fuzz harness can call it directly; a
 * file whose name ends in .npy is handed to the binary reader (trajectory_npy.c).
 *
 * The header must hold the required columns (t, then per node x..vz and, for rotating
 * problems, qw..qz, wx..wz) in order; columns named energy_* may appear after t and are
 * ignored (motionbench recomputes every energy).  Each row must have as many fields as
 * the header, each a number in C syntax filling the whole field, t finite (NaN and Inf in
 * a state column are read: the replay declares the run diverged at that row, as a
 * scheme's own NaN would, src/metrics/divergence.c).  Row k must be at
 * the requested time t_k to 1e-9 dt + 1e-12 |t_k| (the second term allows times
 * accumulated by repeated addition of dt over long runs), and there must be exactly as
 * many rows as requested times.  Finite quaternions must be unit to 1e-6: the reader does not
 * normalise what it is given.  Every defect is reported as "line L: what". */
#include "mb_external.h"
#include "mb_input.h"
#include "mb_status.h"
#include "mb_vec.h"
#include "mb_text.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIME_TOL_DT 1e-9
#define TIME_TOL_T 1e-12
#define QUAT_NORM_TOL 1e-6
#define FIELD_MAX 128
/* A valid file of a run with known times has at most this many bytes: the rows (and the
 * header) with every required column and up to EXTRA_COLUMNS energy_* ones, each field at
 * most FIELD_BYTES long, plus SIZE_SLACK.  A larger file (an adapter writing without end)
 * is refused before it is read into memory. */
#define EXTRA_COLUMNS 16
#define FIELD_BYTES 64
#define SIZE_SLACK (1 << 20)

typedef struct cursor {
    const char *p, *end;
    size_t line;
} cursor;

/* The next line [*s, *e) without its end-of-line; 0 at the end of the buffer. */
static int next_line(cursor *c, const char **s, const char **e)
{
    if (c->p >= c->end)
        return 0;
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    *s = c->p;
    *e = nl ? nl : c->end;
    c->p = nl ? nl + 1 : c->end;
    if (*e > *s && (*e)[-1] == '\r')
        (*e)--;
    c->line++;
    return 1;
}

static int defect(char *why, size_t size, size_t line, const char *fmt, ...)
{
    va_list ap;
    int n = line ? mb_text_format(why, size, "line %zu: ", line) : 0;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < size)
        mb_text_vformat(why + n, size - (size_t)n, fmt, ap);
    va_end(ap);
    return MB_EINVAL;
}

/* Field [s, e) without surrounding blanks, as a string in out[size] (truncated). */
static void field_text(const char *s, const char *e, char *out, size_t size)
{
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    size_t n = (size_t)(e - s) < size - 1 ? (size_t)(e - s) : size - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* Header: index[k] = the required column of field k, or -1 for an ignored energy_* one. */
static int read_header(cursor *c, const mb_trajectory_request *rq, long **index,
                       size_t *n_fields, char *why, size_t size)
{
    const char *s, *e;
    if (!next_line(c, &s, &e) || s == e)
        return defect(why, size, 0, "empty file (no header)");
    size_t cap = 1, need = mb_trajectory_columns(rq->n_nodes, rq->rotation), seen = 0;
    for (const char *p = s; p < e; p++)
        cap += *p == ',';
    *n_fields = cap;
    if ((*index = malloc(cap * sizeof **index)) == NULL)
        return defect(why, size, 0, "out of memory");
    const char *f = s;
    for (size_t k = 0; k < cap; k++) {
        const char *comma = memchr(f, ',', (size_t)(e - f));
        const char *fe = comma ? comma : e;
        char name[FIELD_MAX], want[48];
        field_text(f, fe, name, sizeof name);
        f = fe + 1;
        if (k > 0 && strncmp(name, "energy_", 7) == 0) {
            (*index)[k] = -1;
            continue;
        }
        if (seen == need)
            return defect(why, size, c->line, "unexpected column '%s' (after the %zu "
                          "required ones)", name, need);
        mb_trajectory_column_name(seen, rq->rotation, want, sizeof want);
        if (strcmp(name, want) != 0)
            return defect(why, size, c->line, "column %zu is '%s', expected '%s'", k + 1,
                          name, want);
        (*index)[k] = (long)seen++;
    }
    if (seen < need) {
        char want[48];
        mb_trajectory_column_name(seen, rq->rotation, want, sizeof want);
        return defect(why, size, c->line, "missing column '%s' (%zu of %zu required columns)",
                      want, seen, need);
    }
    return MB_SUCCESS;
}

/* One number filling the whole field; finite when finite is set. */
static int number_text(const char *text, double *x, int finite, char *why, size_t size,
                       size_t line, const char *column)
{
    char *end, shown[40 + sizeof MB_TEXT_CUT_MARK];   /* a field's first 40 bytes */
    if (text[0] == '\0')
        return defect(why, size, line, "column %s is empty", column);
    errno = 0;
    *x = strtod(text, &end);
    if (*end != '\0')
        return defect(why, size, line, "column %s: '%s' is not a number", column,
                      mb_text_clip(shown, sizeof shown, text));
    if (finite && !isfinite(*x))
        return defect(why, size, line, "column %s: %s is not finite (NaN or Inf)", column,
                      mb_text_clip(shown, sizeof shown, text));
    return MB_SUCCESS;
}

/* A field of any length: a 17-digit value padded with zeros is still that value. */
static int read_number(const char *s, const char *e, double *x, int finite, char *why,
                       size_t size, size_t line, const char *column)
{
    char small[FIELD_MAX], *text = small;
    size_t n = (size_t)(e - s) + 1;
    if (n > sizeof small && (text = malloc(n)) == NULL)
        return defect(why, size, line, "column %s: out of memory for a %zu-character field",
                      column, n - 1);
    field_text(s, e, text, n > sizeof small ? n : sizeof small);
    int st = number_text(text, x, finite, why, size, line, column);
    if (text != small)
        free(text);
    return st;
}

static int grow(mb_trajectory *tr, size_t *cap)
{
    size_t c2 = *cap ? 2 * *cap : 256;
    double *t = realloc(tr->t, c2 * sizeof *t);
    if (t == NULL)
        return MB_ENOMEM;
    tr->t = t;
    double *v = realloc(tr->values, c2 * tr->stride * sizeof *v);
    if (v == NULL)
        return MB_ENOMEM;
    tr->values = v;
    *cap = c2;
    return MB_SUCCESS;
}

static int read_row(const char *s, const char *e, size_t line, const long *index,
                    size_t n_fields, const mb_trajectory_request *rq, mb_trajectory *tr,
                    char *why, size_t size)
{
    size_t row = tr->n_rows, got = 0;
    double *vals = &tr->values[row * tr->stride];
    for (const char *f = s; got < n_fields; got++) {
        const char *comma = memchr(f, ',', (size_t)(e - f));
        const char *fe = comma ? comma : e;
        if (got + 1 < n_fields && comma == NULL)
            return defect(why, size, line, "%zu fields, the header has %zu", got + 1, n_fields);
        if (got + 1 == n_fields && comma != NULL)
            return defect(why, size, line, "more fields than the %zu of the header", n_fields);
        if (index[got] >= 0) {
            char column[48];
            double x = 0.0;
            mb_trajectory_column_name((size_t)index[got], rq->rotation, column, sizeof column);
            if (read_number(f, fe, &x, index[got] == 0, why, size, line, column) != MB_SUCCESS)
                return MB_EINVAL;
            if (index[got] == 0)
                tr->t[row] = x;
            else
                vals[index[got] - 1] = x;
        }
        f = fe + 1;
    }
    return MB_SUCCESS;
}

static int check_time(const mb_trajectory *tr, size_t row, size_t line,
                      const mb_trajectory_request *rq, char *why, size_t size)
{
    double t = tr->t[row], want, dt = rq->dt;
    if (rq->times) {
        want = rq->times[row];
    } else if (row == 0) {
        return MB_SUCCESS;
    } else {
        dt = tr->t[1] - tr->t[0];
        if (!(dt > 0.0))
            return defect(why, size, line, "t = %.17g does not increase", t);
        want = tr->t[0] + (double)row * dt;
    }
    if (fabs(t - want) > TIME_TOL_DT * dt + TIME_TOL_T * fabs(want))
        return defect(why, size, line, "t = %.17g, expected %.17g (row %zu%s)", t, want, row,
                      rq->times ? "" : " of evenly spaced rows");
    return MB_SUCCESS;
}

static int check_quaternions(const mb_trajectory *tr, size_t row, size_t line, char *why,
                             size_t size)
{
    if (!tr->rotation)
        return MB_SUCCESS;
    for (size_t i = 0; i < tr->n_nodes; i++) {
        const double *q = &tr->values[row * tr->stride + 13 * i + 6];
        double norm = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (isfinite(norm) && fabs(norm - 1.0) > QUAT_NORM_TOL)
            return defect(why, size, line, "node %zu: quaternion norm %.17g is not 1 (to %g)",
                          i, norm, QUAT_NORM_TOL);
    }
    return MB_SUCCESS;
}

int mb_trajectory_check_row(const mb_trajectory *tr, size_t row,
                            const mb_trajectory_request *rq, char *why, size_t size)
{
    if (check_time(tr, row, 0, rq, why, size) != MB_SUCCESS
        || check_quaternions(tr, row, 0, why, size) != MB_SUCCESS)
        return MB_EINVAL;
    return MB_SUCCESS;
}

static int read_rows(cursor *c, const long *index, size_t n_fields,
                     const mb_trajectory_request *rq, mb_trajectory *tr, char *why, size_t size)
{
    size_t cap = 0;
    const char *s, *e;
    while (next_line(c, &s, &e)) {
        if (s == e && c->p >= c->end)
            break;                            /* a final empty line */
        if (s == e)
            return defect(why, size, c->line, "empty line");
        if (rq->times && tr->n_rows == rq->n_times)
            return defect(why, size, c->line, "too many rows: %zu were requested, the last at "
                          "t = %.17g", rq->n_times, rq->times[rq->n_times - 1]);
        if (tr->n_rows == cap && grow(tr, &cap) != MB_SUCCESS)
            return defect(why, size, 0, "out of memory");
        if (read_row(s, e, c->line, index, n_fields, rq, tr, why, size) != MB_SUCCESS
            || check_time(tr, tr->n_rows, c->line, rq, why, size) != MB_SUCCESS
            || check_quaternions(tr, tr->n_rows, c->line, why, size) != MB_SUCCESS)
            return MB_EINVAL;
        tr->n_rows++;
    }
    if (rq->times && tr->n_rows < rq->n_times)
        return defect(why, size, c->line, "too few rows: %zu of the %zu requested (missing from "
                      "t = %.17g)", tr->n_rows, rq->n_times, rq->times[tr->n_rows]);
    if (!rq->times && tr->n_rows < 2)
        return defect(why, size, c->line, "too few rows: %zu (at least 2 give a time step)",
                      tr->n_rows);
    return MB_SUCCESS;
}

void mb_trajectory_free(mb_trajectory *tr)
{
    free(tr->t);
    free(tr->values);
    memset(tr, 0, sizeof *tr);
}

int mb_trajectory_parse(const char *buf, size_t len, const mb_trajectory_request *rq,
                        mb_trajectory *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->n_nodes = rq->n_nodes;
    out->rotation = rq->rotation;
    out->stride = rq->n_nodes * mb_nodes_state_size(rq->rotation);
    if (memchr(buf, '\0', len))
        return defect(why, why_size, 0, "NUL byte (not a text file)");
    cursor c = { buf, buf + len, 0 };
    long *index = NULL;
    size_t n_fields = 0;
    int s = read_header(&c, rq, &index, &n_fields, why, why_size);
    if (s == MB_SUCCESS)
        s = read_rows(&c, index, n_fields, rq, out, why, why_size);
    free(index);
    if (s != MB_SUCCESS)
        mb_trajectory_free(out);
    return s;
}

size_t mb_trajectory_size_limit(size_t n_nodes, int rotation, size_t n_rows)
{
    size_t cols = mb_trajectory_columns(n_nodes, rotation) + EXTRA_COLUMNS;
    return (n_rows + 1) * cols * FIELD_BYTES + SIZE_SLACK;
}

size_t mb_trajectory_size_least(size_t n_nodes, int rotation, size_t n_rows, int npy)
{
    size_t cols = mb_trajectory_columns(n_nodes, rotation);
    return npy ? 64 + n_rows * cols * sizeof(double) : (n_rows + 1) * cols * 2;
}

static size_t size_bound(const mb_trajectory_request *rq)
{
    if (rq->times == NULL)
        return (size_t)-1;
    return mb_trajectory_size_limit(rq->n_nodes, rq->rotation, rq->n_times);
}

int mb_trajectory_read_file(const char *path, const mb_trajectory_request *rq,
                            mb_trajectory *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    /* a regular file within the cap of a trajectory (mb_input.h): a FIFO or a device put
     * there by an adapter is refused before a byte is read */
    char *buf = NULL;
    size_t len = 0, bound = size_bound(rq);
    if (mb_input_read_all(path, MB_INPUT_TRAJECTORY, &buf, &len) != MB_SUCCESS) {
        const char *m = mb_last_error();
        size_t np = strlen(path);
        return defect(why, why_size, 0, "%s",
                      strncmp(m, path, np) == 0 && m[np] == ':' ? m + np + 2 : m);
    }
    size_t n = strlen(path);
    int npy = n > 4 && strcmp(path + n - 4, ".npy") == 0;
    int s = len > bound ? defect(why, why_size, 0, "more than %zu bytes, larger than any valid "
                                 "trajectory of this run", bound)
            : npy       ? mb_trajectory_parse_npy(buf, len, rq, out, why, why_size)
                        : mb_trajectory_parse(buf, len, rq, out, why, why_size);
    free(buf);
    return s;
}

/* omega (global) -> L = R I R^T omega, as the schemes keep it (DESIGN 3). */
static void angular_momentum(const double q[4], const double I[3], const double w[3],
                             double L[3])
{
    double wb[3], lb[3];
    mb_q_rotate_inv(wb, q, w);
    for (int a = 0; a < 3; a++)
        lb[a] = I[a] * wb[a];
    mb_q_rotate(L, q, lb);
}

void mb_trajectory_set_state(const mb_trajectory *tr, size_t k, mb_nodes *s)
{
    const double *row = &tr->values[k * tr->stride];
    size_t per = mb_nodes_state_size(tr->rotation);
    for (size_t i = 0; i < tr->n_nodes; i++) {
        const double *r = row + per * i;
        memcpy(&s->x[3 * i], r, 3 * sizeof *r);
        memcpy(&s->v[3 * i], r + 3, 3 * sizeof *r);
        if (!tr->rotation)
            continue;
        memcpy(&s->q[4 * i], r + 6, 4 * sizeof *r);
        memcpy(&s->omega[3 * i], r + 10, 3 * sizeof *r);
        angular_momentum(&s->q[4 * i], &s->inertia[3 * i], &s->omega[3 * i], &s->angmom[3 * i]);
    }
    mb_nodes_touch(s);
}
