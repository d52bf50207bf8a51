/* trajectory_npy.c -- a trajectory returned as a NumPy .npy file (doc/external.md,
 * section 4b): the compact binary form of trajectory.csv for many-body runs, read without
 * NumPy over a buffer, so that a fuzz harness can call it directly.
 *
 * The format is NumPy's "NPY format version 1.0" (numpy/lib/format.py; NEP 1):
 *   bytes 0-5   the magic string \x93NUMPY
 *   bytes 6-7   the version, 1 and 0
 *   bytes 8-9   HEADER_LEN, little-endian unsigned 16-bit
 *   HEADER_LEN  an ASCII Python dict literal with exactly the keys 'descr', 'fortran_order'
 *               and 'shape', padded with blanks and ended by '\n'; 10 + HEADER_LEN is a
 *               multiple of 64 (NumPy's alignment; 16, that of older writers, is accepted)
 *   then        the array's bytes.
 * A trajectory is the 2-D array of the rows and columns of trajectory.csv with nothing
 * else: shape (rows, columns) with columns = run.json's "columns" (t, then per node x..vz
 * and the rotation columns), descr '<f8' (little-endian IEEE doubles), fortran_order False
 * (row after row).  Every field of the header, the shape against the run asked (number of
 * columns from the nodes and rotation, number of rows from the requested times) and the
 * byte count against the shape are checked before a value is read; then each row gets the
 * rules of the CSV reader (mb_trajectory_check_row: times, unit quaternions; t finite,
 * NaN and Inf in a state column read -- the replay calls the run diverged there).  Every
 * defect is reported as "npy header: what", "row K: what" or what the bytes lack. */
#include "mb_external.h"
#include "mb_input.h"
#include "mb_status.h"
#include "mb_text.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_PREAMBLE 10           /* magic, version, HEADER_LEN */
#define NPY_ALIGN_OLD 16          /* 10 + HEADER_LEN a multiple of this at least */

static int defect(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mb_text_vformat(why, size, fmt, ap);
    va_end(ap);
    return MB_EINVAL;
}

/* ---- the header: a Python dict literal ---- */

typedef struct header_cursor {
    const char *p, *end, *start;
} header_cursor;

static void skip_blanks(header_cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
}

static int expect_char(header_cursor *c, char ch, const char *what, char *why, size_t size)
{
    skip_blanks(c);
    if (c->p >= c->end || *c->p != ch)
        return defect(why, size, "npy header: %s expected at byte %zu ('%c'), found %s", what,
                      (size_t)(c->p - c->start), ch, c->p < c->end ? "another character"
                                                                   : "the end");
    c->p++;
    return MB_SUCCESS;
}

/* A quoted string ('...' or "...") without escapes, into out. */
static int read_string(header_cursor *c, char *out, size_t out_size, char *why, size_t size)
{
    skip_blanks(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return defect(why, size, "npy header: a quoted string expected at byte %zu",
                      (size_t)(c->p - c->start));
    char q = *c->p++;
    const char *s = c->p;
    while (c->p < c->end && *c->p != q && *c->p != '\\' && *c->p != '\n')
        c->p++;
    if (c->p >= c->end || *c->p != q)
        return defect(why, size, "npy header: unterminated string at byte %zu",
                      (size_t)(s - 1 - c->start));
    size_t n = (size_t)(c->p - s);
    if (n >= out_size)
        return defect(why, size, "npy header: string of %zu characters at byte %zu is too long",
                      n, (size_t)(s - 1 - c->start));
    memcpy(out, s, n);
    out[n] = '\0';
    c->p++;
    return MB_SUCCESS;
}

static int read_bool(header_cursor *c, int *b, char *why, size_t size)
{
    skip_blanks(c);
    size_t left = (size_t)(c->end - c->p);
    if (left >= 4 && !memcmp(c->p, "True", 4)) {
        *b = 1;
        c->p += 4;
    } else if (left >= 5 && !memcmp(c->p, "False", 5)) {
        *b = 0;
        c->p += 5;
    } else {
        return defect(why, size, "npy header: fortran_order must be True or False (byte %zu)",
                      (size_t)(c->p - c->start));
    }
    return MB_SUCCESS;
}

/* A tuple of non-negative integers: (), (a,), (a, b), (a, b,) ...; at most 8 read. */
static int read_shape(header_cursor *c, uint64_t *dims, int *ndim, char *why, size_t size)
{
    if (expect_char(c, '(', "the shape's '('", why, size) != MB_SUCCESS)
        return MB_EINVAL;
    *ndim = 0;
    for (;;) {
        skip_blanks(c);
        if (c->p < c->end && *c->p == ')') {
            c->p++;
            return MB_SUCCESS;
        }
        if (c->p >= c->end || !isdigit((unsigned char)*c->p))
            return defect(why, size, "npy header: a non-negative integer expected in the shape "
                          "at byte %zu", (size_t)(c->p - c->start));
        uint64_t v = 0;
        while (c->p < c->end && isdigit((unsigned char)*c->p)) {
            unsigned d = (unsigned)(*c->p++ - '0');
            if (v > (UINT64_MAX - d) / 10)
                return defect(why, size, "npy header: a dimension of the shape overflows");
            v = 10 * v + d;
        }
        if (*ndim == 8)
            return defect(why, size, "npy header: more than 8 dimensions in the shape");
        dims[(*ndim)++] = v;
        skip_blanks(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
        } else if (c->p >= c->end || *c->p != ')') {
            return defect(why, size, "npy header: ',' or ')' expected in the shape at byte %zu",
                          (size_t)(c->p - c->start));
        }
    }
}

typedef struct npy_header {
    char descr[32];
    int fortran_order;
    uint64_t dims[8];
    int ndim;
} npy_header;

/* One "key: value" of the dict; seen marks the keys read so far (1 descr, 2 order,
 * 4 shape). */
static int read_entry(header_cursor *c, npy_header *h, unsigned *seen, char *why, size_t size)
{
    char key[32];
    static const char *const keys[3] = { "descr", "fortran_order", "shape" };
    if (read_string(c, key, sizeof key, why, size) != MB_SUCCESS
        || expect_char(c, ':', "':' after a key", why, size) != MB_SUCCESS)
        return MB_EINVAL;
    int k = 0;
    while (k < 3 && strcmp(key, keys[k]) != 0)
        k++;
    if (k == 3)
        return defect(why, size, "npy header: unknown key '%s' (descr, fortran_order, shape)",
                      key);
    if (*seen & (1u << k))
        return defect(why, size, "npy header: key '%s' given twice", key);
    *seen |= 1u << k;
    if (k == 0)
        return read_string(c, h->descr, sizeof h->descr, why, size);
    if (k == 1)
        return read_bool(c, &h->fortran_order, why, size);
    return read_shape(c, h->dims, &h->ndim, why, size);
}

static int parse_dict(header_cursor *c, npy_header *h, char *why, size_t size)
{
    unsigned seen = 0;
    if (expect_char(c, '{', "the dict's '{'", why, size) != MB_SUCCESS)
        return MB_EINVAL;
    for (;;) {
        skip_blanks(c);
        if (c->p < c->end && *c->p == '}') {
            c->p++;
            break;
        }
        if (read_entry(c, h, &seen, why, size) != MB_SUCCESS)
            return MB_EINVAL;
        skip_blanks(c);
        if (c->p < c->end && *c->p == ',')
            c->p++;
        else if (c->p >= c->end || *c->p != '}')
            return defect(why, size, "npy header: ',' or '}' expected at byte %zu",
                          (size_t)(c->p - c->start));
    }
    if (seen != 7)
        return defect(why, size, "npy header: key '%s' missing",
                      !(seen & 1) ? "descr" : !(seen & 2) ? "fortran_order" : "shape");
    skip_blanks(c);
    if (c->p != c->end)
        return defect(why, size, "npy header: text after the dict at byte %zu",
                      (size_t)(c->p - c->start));
    return MB_SUCCESS;
}

/* Magic, version and HEADER_LEN; the dict; *data = the offset of the array's bytes. */
static int read_header(const char *buf, size_t len, npy_header *h, size_t *data, char *why,
                       size_t size)
{
    const unsigned char *u = (const unsigned char *)buf;
    if (len < 6 || memcmp(buf, NPY_MAGIC, 6) != 0)
        return defect(why, size, "not a .npy file (it does not begin with \\x93NUMPY)");
    if (len < NPY_PREAMBLE)
        return defect(why, size, "truncated: %zu bytes, the .npy preamble has %d", len,
                      NPY_PREAMBLE);
    if (u[6] != 1 || u[7] != 0)
        return defect(why, size, "npy format version %u.%u: only version 1.0 is read (write "
                      "the header with a 2-byte length)", u[6], u[7]);
    size_t hlen = (size_t)u[8] | (size_t)u[9] << 8;
    if (NPY_PREAMBLE + hlen > len)
        return defect(why, size, "truncated: the npy header of %zu bytes overruns the file of "
                      "%zu bytes", hlen, len);
    if ((NPY_PREAMBLE + hlen) % NPY_ALIGN_OLD != 0)
        return defect(why, size, "npy header: 10 + HEADER_LEN = %zu is not a multiple of 64 "
                      "(nor of 16): not padded as the format asks", NPY_PREAMBLE + hlen);
    const char *s = buf + NPY_PREAMBLE, *e = s + hlen;
    if (hlen == 0 || e[-1] != '\n')
        return defect(why, size, "npy header: does not end with a newline");
    for (const char *p = s; p < e - 1; p++)
        if (*p == '\n' || (unsigned char)*p < 32 || (unsigned char)*p > 126)
            return defect(why, size, "npy header: byte %zu is not printable ASCII",
                          (size_t)(p - s));
    header_cursor c = { s, e - 1, s };
    memset(h, 0, sizeof *h);
    *data = NPY_PREAMBLE + hlen;
    return parse_dict(&c, h, why, size);
}

/* ---- the array against the run asked ---- */

static int check_layout(const npy_header *h, const mb_trajectory_request *rq, char *why,
                        size_t size)
{
    if (strcmp(h->descr, "<f8") != 0)
        return defect(why, size, "descr '%s': the values must be little-endian doubles, '<f8'",
                      h->descr);
    if (h->fortran_order)
        return defect(why, size, "fortran_order True: the array must be in C order (row after "
                      "row)");
    if (h->ndim != 2)
        return defect(why, size, "shape of %d dimension%s: a trajectory is 2-D (rows, columns)",
                      h->ndim, h->ndim == 1 ? "" : "s");
    size_t want = mb_trajectory_columns(rq->n_nodes, rq->rotation);
    if (h->dims[1] != want)
        return defect(why, size, "shape (%llu, %llu): %llu columns, the run asks %zu (t and %zu "
                      "per node for %zu node%s: run.json's columns)",
                      (unsigned long long)h->dims[0], (unsigned long long)h->dims[1],
                      (unsigned long long)h->dims[1], want, mb_nodes_state_size(rq->rotation),
                      rq->n_nodes, rq->n_nodes == 1 ? "" : "s");
    if (rq->times && h->dims[0] != rq->n_times)
        return defect(why, size, "shape (%llu, %llu): %llu rows, the run asks %zu (t = 0 to "
                      "%.17g)", (unsigned long long)h->dims[0], (unsigned long long)h->dims[1],
                      (unsigned long long)h->dims[0], rq->n_times,
                      rq->times[rq->n_times - 1]);
    if (!rq->times && h->dims[0] < 2)
        return defect(why, size, "shape (%llu, %llu): too few rows (at least 2 give a time "
                      "step)", (unsigned long long)h->dims[0], (unsigned long long)h->dims[1]);
    return MB_SUCCESS;
}

/* A little-endian IEEE double, whatever the host's byte order. */
static double le_double(const unsigned char *b)
{
    uint64_t bits = 0;
    for (int k = 7; k >= 0; k--)
        bits = bits << 8 | b[k];
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static int read_values(const unsigned char *data, size_t rows, size_t cols,
                       const mb_trajectory_request *rq, mb_trajectory *tr, char *why,
                       size_t size)
{
    if ((tr->t = malloc(rows * sizeof *tr->t)) == NULL
        || (tr->values = malloc(rows * tr->stride * sizeof *tr->values)) == NULL)
        return defect(why, size, "out of memory for %zu rows of %zu values", rows, cols);
    for (size_t k = 0; k < rows; k++) {
        const unsigned char *row = data + 8 * cols * k;
        tr->t[k] = le_double(row);
        for (size_t j = 1; j < cols; j++)
            tr->values[k * tr->stride + j - 1] = le_double(row + 8 * j);
        tr->n_rows = k + 1;
        if (!isfinite(tr->t[k]))
            return defect(why, size, "row %zu: column t: %g is not finite (NaN or Inf)", k,
                          tr->t[k]);
        int n = mb_text_format(why, size, "row %zu: ", k);
        if (mb_trajectory_check_row(tr, k, rq, why + n, size - (size_t)n) != MB_SUCCESS)
            return MB_EINVAL;
    }
    why[0] = '\0';
    return MB_SUCCESS;
}

int mb_trajectory_parse_npy(const char *buf, size_t len, const mb_trajectory_request *rq,
                            mb_trajectory *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->n_nodes = rq->n_nodes;
    out->rotation = rq->rotation;
    out->stride = rq->n_nodes * mb_nodes_state_size(rq->rotation);
    out->binary = 1;
    npy_header h;
    size_t data = 0;
    if (read_header(buf, len, &h, &data, why, why_size) != MB_SUCCESS
        || check_layout(&h, rq, why, why_size) != MB_SUCCESS)
        return MB_EINVAL;
    size_t rows = (size_t)h.dims[0], cols = (size_t)h.dims[1], have = len - data;
    if (rows > SIZE_MAX / 8 / cols)
        return defect(why, why_size, "shape (%zu, %zu): too large", rows, cols);
    size_t need = rows * cols * 8;
    if (have < need)
        return defect(why, why_size, "truncated: %zu bytes of data, the shape (%zu, %zu) needs "
                      "%zu (%zu whole rows)", have, rows, cols, need, have / (8 * cols));
    if (have > need)
        return defect(why, why_size, "%zu bytes after the array of shape (%zu, %zu): not "
                      "one array of the header's shape", have - need, rows, cols);
    int s = read_values((const unsigned char *)buf + data, rows, cols, rq, out, why, why_size);
    if (s != MB_SUCCESS)
        mb_trajectory_free(out);
    return s;
}
