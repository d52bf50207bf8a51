/* shard_manifest.c -- shard.txt, the manifest of a shard directory (mb_shard.h).
 *
 * Lines of TAB-separated fields, in this order (doc/cluster.md):
 *   motionbench-shard  FORMAT
 *   build              ID            (mb_build_id: version, and the git commit when built
 *                                     from a clone)
 *   shard              K/N
 *   units-sha256       HEX           (of units.txt)
 *   option             series 0|1
 *   option             timeout SECONDS (hexadecimal float; 0: not given)
 *   option             adapters DIR  (one per --adapters)
 *   option             plugin SHA256 PATH (one per --plugin)
 *   case               NAME SHA256 PATH ABSOLUTE-PATH  (mb_shard_case_hash)
 *   unit               ID            (one per unit of the shard)
 * Paths must not hold TAB or line breaks (such a path is refused when writing). */
#include "mb_build.h"
#include "mb_shard.h"
#include "mb_status.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int plain(const char *what, const char *s)
{
    if (strpbrk(s, "\t\r\n"))
        MB_ERROR(MB_EINVAL, "%s '%s' holds a TAB or a line break: it cannot be recorded in a "
                 "shard manifest", what, s);
    return MB_SUCCESS;
}

static int write_options(FILE *f, const mb_shard_options *opt)
{
    fprintf(f, "option\tseries\t%d\n", opt->series ? 1 : 0);
    fprintf(f, "option\ttimeout\t%a\n", opt->timeout);
    for (size_t k = 0; k < opt->n_adapters; k++) {
        if (plain("--adapters", opt->adapters[k]) != MB_SUCCESS)
            return MB_EINVAL;
        fprintf(f, "option\tadapters\t%s\n", opt->adapters[k]);
    }
    for (size_t k = 0; k < opt->n_plugins; k++) {
        char hex[MB_SHA256_HEX];
        if (plain("--plugin", opt->plugins[k]) != MB_SUCCESS
            || mb_sha256_file(opt->plugins[k], hex) != MB_SUCCESS)
            return mb_last_error_code();
        fprintf(f, "option\tplugin\t%s\t%s\n", hex, opt->plugins[k]);
    }
    return MB_SUCCESS;
}

int mb_shard_case_hash(const mb_case *c, char hex[MB_SHA256_HEX])
{
    char file[MB_SHA256_HEX];
    if (mb_sha256_file(c->path, file) != MB_SUCCESS)
        return mb_last_error_code();
    mb_sha256 h;
    mb_sha256_init(&h);
    mb_sha256_update(&h, file, sizeof file);
    if (mb_problem_inputs_hash(c->problem, c->params, &h) != MB_SUCCESS)
        return mb_last_error_code();
    mb_sha256_hex(&h, hex);
    return MB_SUCCESS;
}

int mb_shard_manifest_write(FILE *f, mb_case *const *cases, size_t n, unsigned k,
                            unsigned n_shards, const mb_shard_options *opt,
                            const unsigned char *select, const char *units_sha256)
{
    fprintf(f, "motionbench-shard\t%d\nbuild\t%s\nshard\t%u/%u\nunits-sha256\t%s\n",
            MB_SHARD_FORMAT, mb_build_id(), k + 1, n_shards, units_sha256);
    if (write_options(f, opt) != MB_SUCCESS)
        return mb_last_error_code();
    for (size_t i = 0; i < n; i++) {
        char hex[MB_SHA256_HEX], abs_path[PATH_MAX];
        if (plain("case file", cases[i]->path) != MB_SUCCESS
            || mb_shard_case_hash(cases[i], hex) != MB_SUCCESS)
            return mb_last_error_code();
        if (realpath(cases[i]->path, abs_path) == NULL)
            MB_ERROR(MB_EIO, "%s: %s", cases[i]->path, strerror(errno));
        fprintf(f, "case\t%s\t%s\t%s\t%s\n", cases[i]->name, hex, cases[i]->path, abs_path);
    }
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t a = 0; a < cases[i]->n_integrators; a++)
            for (size_t j = 0; j < cases[i]->n_dt; j++, u++)
                if (select[u]) {
                    char id[512];
                    mb_unit_id(cases[i], a, j, id, sizeof id);
                    fprintf(f, "unit\t%s\n", id);
                }
    return MB_SUCCESS;
}

/* ---- reading ---- */

static int push_text(char ***list, size_t *n, const char *s)
{
    char **l = realloc(*list, (*n + 1) * sizeof *l);
    if (l == NULL || (l[*n] = strdup(s)) == NULL) {
        if (l)
            *list = l;
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    *list = l;
    ++*n;
    return MB_SUCCESS;
}

static int push_case(mb_shard_case **list, size_t *n, char **f, int with_name)
{
    mb_shard_case *l = realloc(*list, (*n + 1) * sizeof *l);
    if (l == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    *list = l;
    mb_shard_case *c = &l[(*n)++];
    c->name = strdup(with_name ? f[1] : "");
    c->sha256 = strdup(f[2]);
    c->path = strdup(f[3]);
    c->abs_path = strdup(with_name ? f[4] : f[3]);
    if (!c->name || !c->sha256 || !c->path || !c->abs_path)
        MB_ERROR(MB_ENOMEM, "out of memory");
    return MB_SUCCESS;
}

ssize_t mb_shard_line_read(FILE *f, char **buf, size_t *cap, long *line)
{
    ssize_t len = getline(buf, cap, f);
    if (len < 0)
        return -1;
    ++*line;
    if (len > 0 && (*buf)[len - 1] == '\n')
        (*buf)[--len] = '\0';
    return len;
}

int mb_shard_line_split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *tab = strchr(p, '\t');
        if (tab == NULL)
            break;
        *tab = '\0';
        p = tab + 1;
    }
    return n;
}

static int is_hex64(const char *s)
{
    return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

/* One line of the manifest; n fields in f. */
static int take_line(mb_shard_manifest *m, char **f, int n, const char *path, long line)
{
    const char *t = f[0];
    if (!strcmp(t, "build") && n == 2 && m->build == NULL)
        return (m->build = strdup(f[1])) ? MB_SUCCESS : MB_ENOMEM;
    if (!strcmp(t, "shard") && n == 2) {
        if (mb_shard_parse(f[1], &m->k, &m->n) != MB_SUCCESS)
            MB_ERROR(MB_EINVAL, "%s:%ld: %s", path, line, mb_last_error());
        return MB_SUCCESS;
    }
    if (!strcmp(t, "units-sha256") && n == 2 && is_hex64(f[1])) {
        memcpy(m->units_sha256, f[1], MB_SHA256_HEX);
        return MB_SUCCESS;
    }
    if (!strcmp(t, "unit") && n == 2)
        return push_text(&m->units, &m->n_units, f[1]);
    if (!strcmp(t, "case") && n == 5 && is_hex64(f[2]))
        return push_case(&m->cases, &m->n_cases, f, 1);
    if (!strcmp(t, "option") && n >= 3) {
        char joined[8300];
        snprintf(joined, sizeof joined, "%s %s%s%s", f[1], f[2], n > 3 ? " " : "",
                 n > 3 ? f[3] : "");
        if (push_text(&m->options, &m->n_options, joined) != MB_SUCCESS)
            return MB_ENOMEM;
        if (!strcmp(f[1], "series") && n == 3 && (!strcmp(f[2], "0") || !strcmp(f[2], "1"))) {
            m->series = f[2][0] == '1';
            return MB_SUCCESS;
        }
        if (!strcmp(f[1], "timeout") && n == 3)
            return MB_SUCCESS;
        if (!strcmp(f[1], "adapters") && n == 3)
            return push_text(&m->adapters, &m->n_adapters, f[2]);
        if (!strcmp(f[1], "plugin") && n == 4 && is_hex64(f[2]))
            return push_case(&m->plugins, &m->n_plugins, f, 0);
    }
    MB_ERROR(MB_EINVAL, "%s:%ld: unexpected line '%s' (%d fields)", path, line, t, n);
}

int mb_shard_manifest_read(const char *dir, mb_shard_manifest *m)
{
    char path[4200];
    memset(m, 0, sizeof *m);
    if ((m->dir = strdup(dir)) == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    snprintf(path, sizeof path, "%s/shard.txt", dir);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        MB_ERROR(MB_EINVAL, "%s: not a shard directory (no shard.txt: %s; shards are written "
                 "by run --shard K/N)", dir, strerror(errno));
    char *buf = NULL, *fields[8];
    size_t cap = 0;
    long line = 0;
    int st = MB_SUCCESS;
    while (st == MB_SUCCESS && mb_shard_line_read(f, &buf, &cap, &line) >= 0) {
        int n = mb_shard_line_split(buf, fields, 8);
        if (line == 1) {
            if (n != 2 || strcmp(fields[0], "motionbench-shard") != 0)
                st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s:1: not a shard "
                                     "manifest", path);
            else if (atoi(fields[1]) != MB_SHARD_FORMAT)
                st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s:1: shard format %s, "
                                     "this motionbench reads format %d", path, fields[1],
                                     MB_SHARD_FORMAT);
        } else {
            st = take_line(m, fields, n, path, line);
        }
    }
    free(buf);
    fclose(f);
    if (st == MB_SUCCESS && (m->build == NULL || m->n == 0 || m->units_sha256[0] == '\0'))
        st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s: incomplete manifest (build, "
                             "shard and units-sha256 lines are required)", path);
    return st;
}

static void free_cases(mb_shard_case *c, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        free(c[k].name);
        free(c[k].sha256);
        free(c[k].path);
        free(c[k].abs_path);
    }
    free(c);
}

static void free_texts(char **t, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(t[k]);
    free(t);
}

void mb_shard_manifest_free(mb_shard_manifest *m)
{
    free(m->dir);
    free(m->build);
    free_texts(m->options, m->n_options);
    free_texts(m->adapters, m->n_adapters);
    free_texts(m->units, m->n_units);
    free_cases(m->plugins, m->n_plugins);
    free_cases(m->cases, m->n_cases);
    memset(m, 0, sizeof *m);
}
