/* test_trajectory_npy.c -- the .npy trajectory reader (src/external/trajectory_npy.c,
 * doc/external.md section 4b) over buffers built here byte by byte from the NumPy format's
 * definition (magic \x93NUMPY, version 1 0, a little-endian 2-byte header length, the dict
 * padded to 64 bytes and ended by a newline, then little-endian doubles row after row):
 * values read exactly, the header written by NumPy's own layout and by hand in other
 * admissible spellings, every defect with its exact reason, every truncation of a valid
 * file refused, state NaN read (the replay's divergence) and t NaN refused. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_external.h"
#include "mb_status.h"

/* 1 node, no rotation, rows requested at 0, 0.5, 1 (dt 0.5): 7 columns */
static const double times3[3] = { 0.0, 0.5, 1.0 };
static const mb_trajectory_request rq3 = { 1, 0, 3, times3, 0.5 };

static const double rows3[3][7] = {
    { 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0 },
    { 0.5, 0.1, 2.0, 3.0, 4.0, 5.0, -1e-300 },
    { 1.0, 0.25, 2.0, 3.0, 4.0, 5.0, 6.0 },
};

typedef struct npy_buf {
    unsigned char b[4096];
    size_t n;
} npy_buf;

/* The preamble and dict as the format defines them: the dict text padded with blanks so
 * that 10 + HEADER_LEN (newline included) is a multiple of align. */
static void put_header(npy_buf *f, const char *dict, size_t align, unsigned major)
{
    size_t len = strlen(dict) + 1;
    while ((10 + len) % align != 0)
        len++;
    memcpy(f->b, "\x93NUMPY", 6);
    f->b[6] = (unsigned char)major;
    f->b[7] = 0;
    f->b[8] = (unsigned char)(len & 0xff);
    f->b[9] = (unsigned char)(len >> 8);
    memset(f->b + 10, ' ', len);
    memcpy(f->b + 10, dict, strlen(dict));
    f->b[10 + len - 1] = '\n';
    f->n = 10 + len;
}

static void put_double(npy_buf *f, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    for (int k = 0; k < 8; k++)
        f->b[f->n++] = (unsigned char)(bits >> (8 * k));   /* little-endian */
}

static void put_rows(npy_buf *f, size_t rows)
{
    for (size_t k = 0; k < rows; k++)
        for (size_t j = 0; j < 7; j++)
            put_double(f, rows3[k][j]);
}

#define NUMPY_DICT "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 7), }"

static void good(npy_buf *f)
{
    put_header(f, NUMPY_DICT, 64, 1);
    put_rows(f, 3);
}

static int parse(const npy_buf *f, const mb_trajectory_request *rq, char *why, size_t size)
{
    mb_trajectory tr;
    int s = mb_trajectory_parse_npy((const char *)f->b, f->n, rq, &tr, why, size);
    mb_trajectory_free(&tr);
    return s;
}

Test(trajectory_npy, good_file_read_exactly)
{
    npy_buf f;
    good(&f);
    cr_assert_eq(f.n, 128 + 3 * 7 * 8, "a 64-byte aligned header of 128 bytes");
    mb_trajectory tr;
    char why[300] = "";
    cr_assert_eq(mb_trajectory_parse_npy((const char *)f.b, f.n, &rq3, &tr, why, sizeof why),
                 MB_SUCCESS, "%s", why);
    cr_assert_eq(tr.n_rows, 3);
    cr_expect_eq(tr.binary, 1);
    for (size_t k = 0; k < 3; k++) {
        cr_expect_eq(tr.t[k], rows3[k][0]);
        for (size_t j = 1; j < 7; j++)
            cr_expect_eq(tr.values[6 * k + j - 1], rows3[k][j], "row %zu column %zu", k, j);
    }
    mb_trajectory_free(&tr);
}

/* Spellings the format admits: keys in any order, double quotes, no trailing comma, a
 * 1-tuple comma, 16-byte alignment of older writers. */
Test(trajectory_npy, header_spellings_accepted)
{
    static const char *const dicts[] = {
        "{'shape': (3, 7), 'fortran_order': False, 'descr': '<f8'}",
        "{\"descr\": \"<f8\", \"fortran_order\": False, \"shape\": (3,7,)}",
        "{ 'descr' : '<f8' , 'fortran_order' : False , 'shape' : ( 3 , 7 ) , }",
    };
    for (size_t k = 0; k < sizeof dicts / sizeof *dicts; k++)
        for (size_t align = 16; align <= 64; align *= 4) {
            npy_buf f;
            char why[300] = "";
            put_header(&f, dicts[k], align, 1);
            put_rows(&f, 3);
            cr_expect_eq(parse(&f, &rq3, why, sizeof why), MB_SUCCESS, "%s (align %zu): %s",
                         dicts[k], align, why);
        }
}

/* Each defect of the header or the layout: the dict and the reason. */
static const struct { const char *dict, *why; } header_defects[] = {
    { "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 7), }",
      "descr '<f4': the values must be little-endian doubles, '<f8'" },
    { "{'descr': '>f8', 'fortran_order': False, 'shape': (3, 7), }",
      "descr '>f8': the values must be little-endian doubles, '<f8'" },
    { "{'descr': '<f8', 'fortran_order': True, 'shape': (3, 7), }",
      "fortran_order True: the array must be in C order (row after row)" },
    { "{'descr': '<f8', 'fortran_order': False, 'shape': (21,), }",
      "shape of 1 dimension: a trajectory is 2-D (rows, columns)" },
    { "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 7, 1), }",
      "shape of 3 dimensions: a trajectory is 2-D (rows, columns)" },
    { "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 13), }",
      "shape (3, 13): 13 columns, the run asks 7 (t and 6 per node for 1 node:" },
    { "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 7), }",
      "shape (2, 7): 2 rows, the run asks 3 (t = 0 to 1)" },
    { "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 7), 'x': 1}",
      "npy header: unknown key 'x' (descr, fortran_order, shape)" },
    { "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (3, 7)}",
      "npy header: key 'descr' given twice" },
    { "{'descr': '<f8', 'shape': (3, 7)}", "npy header: key 'fortran_order' missing" },
    { "{'descr': '<f8', 'fortran_order': false, 'shape': (3, 7)}",
      "npy header: fortran_order must be True or False" },
    { "{'descr': '<f8', 'fortran_order': False, 'shape': (3, -7)}",
      "npy header: a non-negative integer expected in the shape" },
    { "{'descr': '<f8', 'fortran_order': False, 'shape': (3 7)}",
      "npy header: ',' or ')' expected in the shape" },
    { "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999, 7)}",
      "npy header: a dimension of the shape overflows" },
    { "{'descr': '<f8 , 'fortran_order': False, 'shape': (3, 7)}",
      "npy header: ',' or '}' expected at byte 18" },
    { "{'descr' '<f8', 'fortran_order': False, 'shape': (3, 7)}",
      "npy header: ':' after a key expected at byte 9" },
    { "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 7)} x",
      "npy header: text after the dict" },
    { "['descr', '<f8']", "npy header: the dict's '{' expected at byte 0" },
};

Test(trajectory_npy, header_defects_named)
{
    for (size_t k = 0; k < sizeof header_defects / sizeof *header_defects; k++) {
        npy_buf f;
        char why[300] = "";
        put_header(&f, header_defects[k].dict, 64, 1);
        put_rows(&f, 3);
        cr_expect_eq(parse(&f, &rq3, why, sizeof why), MB_EINVAL, "%s accepted",
                     header_defects[k].dict);
        cr_expect(strstr(why, header_defects[k].why) != NULL, "%s: '%s', expected '%s'",
                  header_defects[k].dict, why, header_defects[k].why);
    }
}

static void expect_refused(const npy_buf *f, const char *want)
{
    char why[300] = "";
    cr_expect_eq(parse(f, &rq3, why, sizeof why), MB_EINVAL, "accepted; expected '%s'", want);
    cr_expect(strstr(why, want) != NULL, "'%s', expected '%s'", why, want);
}

Test(trajectory_npy, preamble_and_byte_count_defects_named)
{
    npy_buf f;
    good(&f);
    f.b[0] = 'x';
    expect_refused(&f, "not a .npy file (it does not begin with \\x93NUMPY)");
    good(&f);
    f.b[6] = 2;
    expect_refused(&f, "npy format version 2.0: only version 1.0 is read");
    good(&f);
    f.b[9] = 1;                                   /* HEADER_LEN 374 > the file */
    expect_refused(&f, "truncated: the npy header of 374 bytes overruns the file");
    good(&f);
    f.b[8]--;                                     /* 127: not padded as asked */
    expect_refused(&f, "npy header: 10 + HEADER_LEN = 127 is not a multiple of 64");
    good(&f);
    f.b[127] = ' ';                               /* no newline */
    expect_refused(&f, "npy header: does not end with a newline");
    good(&f);
    f.b[40] = '\n';
    expect_refused(&f, "npy header: byte 30 is not printable ASCII");
    good(&f);
    f.n -= 3;
    expect_refused(&f, "truncated: 165 bytes of data, the shape (3, 7) needs 168 (2 whole rows)");
    good(&f);
    put_double(&f, 1.0);
    expect_refused(&f, "8 bytes after the array of shape (3, 7)");
}

/* Every prefix of a valid file is refused with a reason, never read past its end. */
Test(trajectory_npy, every_truncation_refused)
{
    npy_buf f;
    good(&f);
    for (size_t n = 0; n < f.n; n++) {
        npy_buf g = f;
        char why[300] = "";
        g.n = n;
        cr_expect_eq(parse(&g, &rq3, why, sizeof why), MB_EINVAL, "prefix of %zu bytes", n);
        cr_expect(why[0] != '\0', "prefix of %zu bytes: no reason", n);
    }
}

Test(trajectory_npy, row_rules_of_the_csv_reader)
{
    npy_buf f;
    mb_trajectory tr;
    char why[300] = "";
    /* a state NaN is read (the replay calls the run diverged there) */
    put_header(&f, NUMPY_DICT, 64, 1);
    put_rows(&f, 1);
    double nan_row[7] = { 0.5, NAN, 2, 3, 4, 5, INFINITY };
    for (size_t j = 0; j < 7; j++)
        put_double(&f, nan_row[j]);
    for (size_t j = 0; j < 7; j++)
        put_double(&f, rows3[2][j]);
    cr_assert_eq(mb_trajectory_parse_npy((const char *)f.b, f.n, &rq3, &tr, why, sizeof why),
                 MB_SUCCESS, "%s", why);
    cr_expect(isnan(tr.values[6]) && isinf(tr.values[11]));
    mb_trajectory_free(&tr);
    /* t NaN, a time off the request */
    f.n = 128 + 7 * 8;
    double nan_t[7] = { NAN, 1, 2, 3, 4, 5, 6 };
    for (size_t j = 0; j < 7; j++)
        put_double(&f, nan_t[j]);
    for (size_t j = 0; j < 7; j++)
        put_double(&f, rows3[2][j]);
    expect_refused(&f, "row 1: column t: nan is not finite");
    f.n = 128 + 7 * 8;
    double late[7] = { 0.5 + 1e-8, 1, 2, 3, 4, 5, 6 };
    for (size_t j = 0; j < 7; j++)
        put_double(&f, late[j]);
    for (size_t j = 0; j < 7; j++)
        put_double(&f, rows3[2][j]);
    expect_refused(&f, "row 1: t = 0.5000000");
    expect_refused(&f, ", expected 0.5 (row 1)");
}

Test(trajectory_npy, quaternions_must_be_unit)
{
    static const double t2[2] = { 0.0, 0.25 };
    const mb_trajectory_request rq = { 1, 1, 2, t2, 0.25 };
    npy_buf f;
    put_header(&f, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 14), }", 64, 1);
    for (size_t k = 0; k < 2; k++) {
        double row[14] = { t2[k], 1, 2, 3, 0, 0, 0, k ? 1.1 : 1.0, 0, 0, 0, 0, 0, 0 };
        for (size_t j = 0; j < 14; j++)
            put_double(&f, row[j]);
    }
    char why[300] = "";
    cr_expect_eq(parse(&f, &rq, why, sizeof why), MB_EINVAL);
    cr_expect(strstr(why, "row 1: node 0: quaternion norm 1.1000000000000001 is not 1") != NULL,
              "%s", why);
}
