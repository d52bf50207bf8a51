/* shard_write.c -- a shard's directory (mb_shard.h, doc/cluster.md).
 *
 * units.txt is composed in memory first, so that shard.txt can carry its SHA-256; both go
 * through the report writer with runs.csv and timing.csv of the shard's runs, and the set
 * is renamed into place as a whole. */
#include "mb_report.h"
#include "mb_shard.h"
#include "mb_status.h"

#include <stdlib.h>
#include <string.h>

typedef struct text { char *data; size_t size; } text;

static int put_text(FILE *f, void *ctx)
{
    const text *t = ctx;
    return fwrite(t->data, 1, t->size, f) == t->size ? MB_SUCCESS : MB_EIO;
}

static int compose_units(mb_case *const *cases, size_t n, const mb_case_result *r,
                         const unsigned char *select, text *t)
{
    FILE *f = open_memstream(&t->data, &t->size);
    if (f == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t a = 0; a < cases[i]->n_integrators; a++)
            for (size_t j = 0; j < cases[i]->n_dt; j++, u++)
                if (select[u])
                    mb_unit_record_write(f, cases[i], a, j, &r[i].runs[a * cases[i]->n_dt + j]);
    if (fclose(f) != 0)
        MB_ERROR(MB_ENOMEM, "out of memory");
    return MB_SUCCESS;
}

int mb_shard_write(const char *dir, mb_case *const *cases, size_t n, const mb_case_result *r,
                   unsigned k, unsigned n_shards, const mb_shard_options *opt,
                   const unsigned char *select)
{
    text units = { NULL, 0 }, manifest = { NULL, 0 };
    int st = compose_units(cases, n, r, select, &units);
    char hex[MB_SHA256_HEX];
    FILE *f = NULL;
    if (st == MB_SUCCESS) {
        mb_sha256 h;
        mb_sha256_init(&h);
        mb_sha256_update(&h, units.data, units.size);
        mb_sha256_hex(&h, hex);
        f = open_memstream(&manifest.data, &manifest.size);
        st = f ? mb_shard_manifest_write(f, cases, n, k, n_shards, opt, select, hex)
               : mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
    }
    if (f && fclose(f) != 0 && st == MB_SUCCESS)
        st = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
    if (st == MB_SUCCESS) {
        const mb_report_extra extra[2] = { { "units.txt", put_text, &units },
                                           { "shard.txt", put_text, &manifest } };
        st = mb_report_write_partial(dir, r, n, opt->series, extra, 2);
    }
    free(units.data);
    free(manifest.data);
    return st;
}
