/* trajectory_cost.c -- the cost of reading a many-body trajectory as CSV and as .npy
 * (doc/external.md, section 4b): a trajectory of N nodes (no rotation) over R rows is made
 * in memory in both forms -- CSV with 17 significant digits as the adapters write it, .npy
 * of format 1.0 as adapters/mbadapter.py writes it -- with the same doubles, their sizes are
 * printed, and the chosen form is parsed REPEAT times through the library's readers
 * (mb_trajectory_parse, mb_trajectory_parse_npy), checking that both read back the very
 * same doubles.  CPU time per parse is printed; under load, count instructions instead:
 *   gcc -O2 -I src/external -I src/core -I src/forces -I src/problems -I src/metrics \
 *       -I src -I . -o trajectory_cost tools/trajectory_cost.c -L.libs -lmotionbench -lm
 *   LD_LIBRARY_PATH=.libs ./trajectory_cost npy 10000 11 3
 *   LD_LIBRARY_PATH=.libs valgrind --tool=callgrind --toggle-collect='mb_trajectory_parse*' \
 *       ./trajectory_cost csv 10000 11 1
 * Arguments: csv | npy, nodes, rows, repeats. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mb_external.h"
#include "mb_status.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* value j of row k: awkward doubles of all digits (a 64-bit LCG, Knuth's MMIX constants) */
static double value_of(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return ((double)(*state >> 11) * 0x1p-53 - 0.5) * 37.3;
}

static char *make_csv(size_t nodes, size_t rows, const double *vals, size_t *len)
{
    size_t cols = mb_trajectory_columns(nodes, 0), cap = (rows + 1) * cols * 26 + 64, n = 0;
    char *buf = malloc(cap);
    for (size_t j = 0; buf && j < cols; j++) {
        char name[48];
        mb_trajectory_column_name(j, 0, name, sizeof name);
        n += (size_t)snprintf(buf + n, cap - n, "%s%c", name, j + 1 < cols ? ',' : '\n');
    }
    for (size_t k = 0; buf && k < rows; k++)
        for (size_t j = 0; j < cols; j++)
            n += (size_t)snprintf(buf + n, cap - n, "%.17g%c", vals[k * cols + j],
                                  j + 1 < cols ? ',' : '\n');
    *len = n;
    return buf;
}

static char *make_npy(size_t nodes, size_t rows, const double *vals, size_t *len)
{
    size_t cols = mb_trajectory_columns(nodes, 0);
    char dict[128];
    int d = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, 'shape': "
                     "(%zu, %zu), }", rows, cols);
    size_t hlen = (size_t)d + 1;
    while ((10 + hlen) % 64)
        hlen++;
    *len = 10 + hlen + 8 * rows * cols;
    unsigned char *buf = malloc(*len);
    if (buf == NULL)
        return NULL;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    memset(buf + 10, ' ', hlen);
    memcpy(buf + 10, dict, (size_t)d);
    buf[10 + hlen - 1] = '\n';
    for (size_t m = 0; m < rows * cols; m++) {
        uint64_t bits;
        memcpy(&bits, &vals[m], sizeof bits);
        for (int b = 0; b < 8; b++)
            buf[10 + hlen + 8 * m + (size_t)b] = (unsigned char)(bits >> (8 * b));
    }
    return (char *)buf;
}

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[1], "csv") && strcmp(argv[1], "npy"))) {
        fprintf(stderr, "usage: trajectory_cost csv|npy NODES ROWS REPEATS\n");
        return 2;
    }
    int npy = !strcmp(argv[1], "npy");
    size_t nodes = (size_t)atof(argv[2]), rows = (size_t)atof(argv[3]);
    int repeats = atoi(argv[4]);
    size_t cols = mb_trajectory_columns(nodes, 0);
    double *vals = malloc(rows * cols * sizeof *vals), *times = malloc(rows * sizeof *times);
    uint64_t state = 2385;
    for (size_t k = 0; k < rows; k++) {
        times[k] = 0.25 * (double)k;
        vals[k * cols] = times[k];
        for (size_t j = 1; j < cols; j++)
            vals[k * cols + j] = value_of(&state);
    }
    size_t len_csv, len_npy;
    char *csv = make_csv(nodes, rows, vals, &len_csv), *bin = make_npy(nodes, rows, vals, &len_npy);
    printf("%zu nodes, %zu rows: CSV %zu bytes, npy %zu bytes (%.2f x smaller)\n", nodes, rows,
           len_csv, len_npy, (double)len_csv / (double)len_npy);
    mb_trajectory_request rq = { nodes, 0, rows, times, 0.25 };
    double best = 1e300;
    for (int r = 0; r < repeats; r++) {
        mb_trajectory tr;
        char why[300] = "";
        double t0 = cpu_now();
        int s = npy ? mb_trajectory_parse_npy(bin, len_npy, &rq, &tr, why, sizeof why)
                    : mb_trajectory_parse(csv, len_csv, &rq, &tr, why, sizeof why);
        double t1 = cpu_now();
        if (s != MB_SUCCESS) {
            fprintf(stderr, "trajectory_cost: %s\n", why);
            return 1;
        }
        for (size_t k = 0; k < rows; k++)
            if (memcmp(&tr.values[k * (cols - 1)], &vals[k * cols + 1], (cols - 1) * 8) != 0) {
                fprintf(stderr, "trajectory_cost: row %zu not read back exactly\n", k);
                return 1;
            }
        mb_trajectory_free(&tr);
        best = t1 - t0 < best ? t1 - t0 : best;
    }
    printf("%s parse: %.4f s CPU (best of %d), %.1f ns per value\n", argv[1], best, repeats,
           1e9 * best / (double)(rows * cols));
    free(csv);
    free(bin);
    free(vals);
    free(times);
    return 0;
}
