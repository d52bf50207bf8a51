/* shard_merge.c -- shards put together into the results of one run (mb_shard.h).
 *
 * Every manifest must name this build, the same N, the same options and the same case
 * files (names and SHA-256 of their contents); the cases are loaded again (from the path
 * recorded, else the absolute path) and must still hash the same; units.txt must hash as
 * its manifest says; every unit of the case set must come exactly once.  Any failure is
 * MB_EINVAL with a message naming the shard directory; nothing is returned then, so the
 * caller writes no report.  The orders over the dt lists are fitted here, from the merged
 * runs, exactly as mb_runner_run fits them. */
#include "mb_external.h"
#include "mb_plugin.h"
#include "mb_shard.h"
#include "mb_status.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The id of every unit in report order, sorted for lookup. */
typedef struct unit_index { char id[512]; size_t case_index, a, j, u; } unit_index;

typedef struct merge {
    const char *const *dirs;
    size_t n_dirs;
    mb_shard_manifest *m;
    mb_case **cases;
    size_t n_cases;
    mb_case_result *results;
    unit_index *index;
    size_t n_units;
    size_t *from;                    /* shard (dirs index) + 1 that gave each unit; 0: none */
} merge;

static int by_id(const void *a, const void *b)
{
    return strcmp(((const unit_index *)a)->id, ((const unit_index *)b)->id);
}

/* ---- manifests against each other ---- */

static int same_set(const mb_shard_manifest *a, const mb_shard_manifest *b)
{
    if (strcmp(a->build, b->build) != 0)
        MB_ERROR(MB_EINVAL, "%s: made by motionbench %s, %s by %s: shards merge only with "
                 "the build that made them", b->dir, b->build, a->dir, a->build);
    if (a->n != b->n)
        MB_ERROR(MB_EINVAL, "%s: shard %u/%u of another partition than %s (%u/%u)", b->dir, b->k,
                 b->n, a->dir, a->k, a->n);
    for (size_t k = 0; k < a->n_options || k < b->n_options; k++)
        if (k >= a->n_options || k >= b->n_options || strcmp(a->options[k], b->options[k]))
            MB_ERROR(MB_EINVAL, "%s: run with other options than %s: '%s' there, '%s' here",
                     b->dir, a->dir, k < a->n_options ? a->options[k] : "(none)",
                     k < b->n_options ? b->options[k] : "(none)");
    if (a->n_cases != b->n_cases)
        MB_ERROR(MB_EINVAL, "%s: %zu case files, %s has %zu: another case set", b->dir,
                 b->n_cases, a->dir, a->n_cases);
    for (size_t i = 0; i < a->n_cases; i++) {
        if (strcmp(a->cases[i].name, b->cases[i].name) != 0)
            MB_ERROR(MB_EINVAL, "%s: case %zu is '%s', in %s '%s': another case set", b->dir,
                     i + 1, b->cases[i].name, a->dir, a->cases[i].name);
        if (strcmp(a->cases[i].sha256, b->cases[i].sha256) != 0)
            MB_ERROR(MB_EINVAL, "%s: case '%s' (%s) has other contents than in %s (SHA-256 %.12s "
                     "against %.12s)", b->dir, b->cases[i].name, b->cases[i].path, a->dir,
                     b->cases[i].sha256, a->cases[i].sha256);
    }
    return MB_SUCCESS;
}

static int read_manifests(merge *M)
{
    M->m = calloc(M->n_dirs, sizeof *M->m);
    if (M->m == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    for (size_t s = 0; s < M->n_dirs; s++) {
        if (mb_shard_manifest_read(M->dirs[s], &M->m[s]) != MB_SUCCESS)
            return MB_EINVAL;
        if (strcmp(M->m[s].build, mb_build_id()) != 0)
            MB_ERROR(MB_EINVAL, "%s: made by motionbench %s, this is %s: merge with the build "
                     "that ran the shards", M->dirs[s], M->m[s].build, mb_build_id());
        if (s > 0 && same_set(&M->m[0], &M->m[s]) != MB_SUCCESS)
            return MB_EINVAL;
    }
    return MB_SUCCESS;
}

/* ---- the case set ---- */

static int load_options(const mb_shard_manifest *m)
{
    for (size_t k = 0; k < m->n_plugins; k++) {
        char hex[MB_SHA256_HEX];
        if (mb_sha256_file(m->plugins[k].path, hex) != MB_SUCCESS)
            MB_ERROR(MB_EINVAL, "%s: plugin of the shards: %s", m->dir, mb_last_error());
        if (strcmp(hex, m->plugins[k].sha256) != 0)
            MB_ERROR(MB_EINVAL, "%s: plugin %s has changed since the shards ran (SHA-256 %.12s, "
                     "now %.12s)", m->dir, m->plugins[k].path, m->plugins[k].sha256, hex);
        if (mb_plugin_load(m->plugins[k].path) != MB_SUCCESS)
            return mb_last_error_code();
    }
    for (size_t k = 0; k < m->n_adapters; k++)
        if (mb_adapter_path_add(m->adapters[k]) != MB_SUCCESS)
            return mb_last_error_code();
    return MB_SUCCESS;
}

static int load_case(const mb_shard_manifest *m, size_t i, mb_case **out)
{
    const mb_shard_case *sc = &m->cases[i];
    const char *path = access(sc->path, R_OK) == 0 ? sc->path : sc->abs_path;
    char hex[MB_SHA256_HEX];
    if (mb_case_load(path, out) != MB_SUCCESS)
        MB_ERROR(MB_EINVAL, "%s: case '%s': %s", m->dir, sc->name, mb_last_error());
    if (mb_shard_case_hash(*out, hex) != MB_SUCCESS)
        MB_ERROR(MB_EINVAL, "%s: case '%s': %s", m->dir, sc->name, mb_last_error());
    if (strcmp(hex, sc->sha256) != 0)
        MB_ERROR(MB_EINVAL, "%s: case file %s has changed since the shards ran (SHA-256 %.12s, "
                 "now %.12s)", m->dir, path, sc->sha256, hex);
    if (strcmp((*out)->name, sc->name) != 0)
        MB_ERROR(MB_EINVAL, "%s: %s names case '%s', the manifest '%s'", m->dir, path,
                 (*out)->name, sc->name);
    return MB_SUCCESS;
}

static int load_cases(merge *M)
{
    const mb_shard_manifest *m = &M->m[0];
    if (load_options(m) != MB_SUCCESS)
        return MB_EINVAL;
    M->n_cases = m->n_cases;
    M->cases = calloc(m->n_cases ? m->n_cases : 1, sizeof *M->cases);
    if (M->cases == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->n_cases; i++)
        if (load_case(m, i, &M->cases[i]) != MB_SUCCESS)
            return MB_EINVAL;
    return MB_SUCCESS;
}

static int make_results(merge *M)
{
    M->n_units = mb_units_count(M->cases, M->n_cases);
    M->results = calloc(M->n_cases ? M->n_cases : 1, sizeof *M->results);
    M->index = calloc(M->n_units ? M->n_units : 1, sizeof *M->index);
    M->from = calloc(M->n_units ? M->n_units : 1, sizeof *M->from);
    if (!M->results || !M->index || !M->from)
        MB_ERROR(MB_ENOMEM, "out of memory");
    size_t u = 0;
    for (size_t i = 0; i < M->n_cases; i++) {
        const mb_case *c = M->cases[i];
        M->results[i].c = c;
        M->results[i].runs = calloc(c->n_integrators * c->n_dt + 1, sizeof(mb_run_result));
        M->results[i].n_agg = calloc(c->n_integrators + 1, sizeof(size_t));
        M->results[i].agg = calloc(c->n_integrators + 1, sizeof(mb_metric_value *));
        if (!M->results[i].runs || !M->results[i].n_agg || !M->results[i].agg)
            MB_ERROR(MB_ENOMEM, "out of memory");
        for (size_t a = 0; a < c->n_integrators; a++)
            for (size_t j = 0; j < c->n_dt; j++, u++) {
                unit_index *x = &M->index[u];
                mb_unit_id(c, a, j, x->id, sizeof x->id);
                x->case_index = i;
                x->a = a;
                x->j = j;
                x->u = u;
            }
    }
    qsort(M->index, M->n_units, sizeof *M->index, by_id);
    return MB_SUCCESS;
}

/* ---- the units of one shard ---- */

static int take_unit(merge *M, size_t s, const char *id, FILE *f, const char *path,
                     long *line, size_t *count)
{
    const mb_shard_manifest *m = &M->m[s];
    unit_index key;
    snprintf(key.id, sizeof key.id, "%s", id);
    const unit_index *x = bsearch(&key, M->index, M->n_units, sizeof key, by_id);
    if (x == NULL)
        MB_ERROR(MB_EINVAL, "%s:%ld: unit %s is not in the case set", path, *line, id);
    if (*count >= m->n_units || strcmp(m->units[*count], id) != 0)
        MB_ERROR(MB_EINVAL, "%s:%ld: unit %s is not unit %zu of shard.txt", path, *line, id,
                 *count + 1);
    if (M->from[x->u])
        MB_ERROR(MB_EINVAL, "%s: unit %s is present twice: also in %s", M->dirs[s], id,
                 M->dirs[M->from[x->u] - 1]);
    M->from[x->u] = s + 1;
    ++*count;
    const mb_case *c = M->cases[x->case_index];
    mb_run_result *u = &M->results[x->case_index].runs[x->a * c->n_dt + x->j];
    return mb_unit_record_read(f, path, line, u);
}

static int read_units(merge *M, size_t s)
{
    const mb_shard_manifest *m = &M->m[s];
    char path[4200], hex[MB_SHA256_HEX];
    snprintf(path, sizeof path, "%s/units.txt", M->dirs[s]);
    if (mb_sha256_file(path, hex) != MB_SUCCESS)
        MB_ERROR(MB_EINVAL, "%s: %s", M->dirs[s], mb_last_error());
    if (strcmp(hex, m->units_sha256) != 0)
        MB_ERROR(MB_EINVAL, "%s: units.txt does not hash as shard.txt says (SHA-256 %.12s, "
                 "recorded %.12s): damaged or from another shard", M->dirs[s], hex,
                 m->units_sha256);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        MB_ERROR(MB_EINVAL, "%s: cannot open units.txt", M->dirs[s]);
    char *buf = NULL;
    size_t cap = 0, count = 0;
    long line = 0;
    int st = MB_SUCCESS;
    while (st == MB_SUCCESS && mb_shard_line_read(f, &buf, &cap, &line) >= 0) {
        if (strncmp(buf, "unit\t", 5) != 0)
            st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s:%ld: expected a 'unit' "
                                 "line", path, line);
        else
            st = take_unit(M, s, buf + 5, f, path, &line, &count);
    }
    free(buf);
    fclose(f);
    if (st == MB_SUCCESS && count != m->n_units)
        MB_ERROR(MB_EINVAL, "%s: units.txt holds %zu units, shard.txt lists %zu", M->dirs[s],
                 count, m->n_units);
    return st;
}

/* Every unit of the case set must have come: name the missing ones and their shards. */
static int check_complete(merge *M)
{
    size_t missing = 0, u = 0;
    for (size_t k = 0; k < M->n_units; k++)
        missing += M->from[k] == 0;
    if (missing == 0)
        return MB_SUCCESS;
    unsigned *shard_of = NULL;
    if (mb_shard_partition(M->cases, M->n_cases, M->m[0].n, &shard_of, NULL) != MB_SUCCESS)
        return MB_ENOMEM;
    char list[1024] = "", shards[512] = "";
    size_t listed = 0;
    unsigned last = 0;
    for (size_t i = 0; i < M->n_cases; i++)
        for (size_t a = 0; a < M->cases[i]->n_integrators; a++)
            for (size_t j = 0; j < M->cases[i]->n_dt; j++, u++) {
                if (M->from[u])
                    continue;
                char id[512];
                mb_unit_id(M->cases[i], a, j, id, sizeof id);
                if (listed++ < 5)
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                             listed > 1 ? ", " : "", id);
                if (shard_of[u] + 1 != last && !strstr(shards, "...")) {
                    char one[32];
                    snprintf(one, sizeof one, "%s%u", shards[0] ? "," : "", shard_of[u] + 1);
                    if (strlen(shards) + strlen(one) + 8 < sizeof shards)
                        strcat(shards, one);
                    else
                        strcat(shards, ",...");
                    last = shard_of[u] + 1;
                }
            }
    free(shard_of);
    MB_ERROR(MB_EINVAL, "%zu of %zu units missing: %s%s; they belong to shard(s) %s of %u: run "
             "those again (run --shard K/%u) and merge with them", missing, M->n_units, list,
             missing > 5 ? ", ..." : "", shards, M->m[0].n, M->m[0].n);
}

static void free_merge(merge *M, int keep)
{
    for (size_t s = 0; M->m && s < M->n_dirs; s++)
        mb_shard_manifest_free(&M->m[s]);
    free(M->m);
    free(M->index);
    free(M->from);
    if (keep)
        return;
    mb_case_result_free(M->results, M->n_cases);
    for (size_t i = 0; M->cases && i < M->n_cases; i++)
        mb_case_free(M->cases[i]);
    free(M->cases);
}

int mb_shard_merge(const char *const *dirs, size_t n_dirs, mb_case ***cases, size_t *n_cases,
                   mb_case_result **results, int *series)
{
    merge M;
    memset(&M, 0, sizeof M);
    M.dirs = dirs;
    M.n_dirs = n_dirs;
    *cases = NULL;
    *results = NULL;
    *n_cases = 0;
    int st = n_dirs ? MB_SUCCESS : mb_error_record(MB_EINVAL, __FILE__, __LINE__,
                                                   "no shard directory given");
    if (st == MB_SUCCESS) st = read_manifests(&M);
    if (st == MB_SUCCESS) st = load_cases(&M);
    if (st == MB_SUCCESS) st = make_results(&M);
    for (size_t s = 0; s < n_dirs && st == MB_SUCCESS; s++)
        st = read_units(&M, s);
    if (st == MB_SUCCESS) st = check_complete(&M);
    if (st != MB_SUCCESS) {
        free_merge(&M, 0);
        return st;
    }
    for (size_t i = 0; i < M.n_cases; i++)
        mb_case_aggregate(&M.results[i]);
    *series = M.m[0].series;
    *cases = M.cases;
    *n_cases = M.n_cases;
    *results = M.results;
    free_merge(&M, 1);
    return MB_SUCCESS;
}
