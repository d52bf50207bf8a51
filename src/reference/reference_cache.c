/* reference_cache.c -- the on-disk reference cache (mb_reference_cache.h, doc/cluster.md).
 *
 * An entry DIR/<sha256 of the key>.ref is text:
 *   motionbench-reference-cache 1
 *   build ID / problem NAME / param KEY=VALUE (each) / inputs SHA256 (of the files the
 *   parameters name, mb_problem_inputs_hash) / method KIND BITS / nodes N / times N /
 *   t T (each)                                                 -- the key
 *   err E (each time)
 *   state X... (each time: x v f q omega angmom torque of every node, in that order)
 *   sha256 HEX                                                 -- of every line above
 * Numbers are hexadecimal floats (%a), read back bit for bit. */
#include "mb_build.h"
#include "mb_reference_cache.h"
#include "mb_sha256.h"
#include "mb_status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_FORMAT 1

static char *cache_dir;

int mb_reference_cache_set(const char *dir)
{
    free(cache_dir);
    cache_dir = NULL;
    if (dir == NULL || dir[0] == '\0')
        return MB_SUCCESS;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        MB_ERROR(MB_EIO, "reference cache %s: %s", dir, strerror(errno));
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        MB_ERROR(MB_EIO, "reference cache %s: not a directory", dir);
    if ((cache_dir = strdup(dir)) == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    return MB_SUCCESS;
}

const char *mb_reference_cache_dir(void)
{
    return cache_dir;
}

/* The arrays of a node store that a reference fills, with their numbers per node. */
typedef struct field { size_t offset, per_node; } field;
static const field fields[] = {
    { offsetof(mb_nodes, x), 3 }, { offsetof(mb_nodes, v), 3 }, { offsetof(mb_nodes, f), 3 },
    { offsetof(mb_nodes, q), 4 }, { offsetof(mb_nodes, omega), 3 },
    { offsetof(mb_nodes, angmom), 3 }, { offsetof(mb_nodes, torque), 3 },
};
#define N_FIELDS (sizeof fields / sizeof *fields)

static double *array_of(mb_nodes *s, const field *f)
{
    return *(double **)((char *)s + f->offset);
}

/* The key text; NULL when out of memory. */
static char *key_text(const mb_problem_type *pt, const mb_options *params, mb_reference_kind kind,
                      long bits, size_t nodes, size_t n, const double *times, size_t *size)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, size);
    if (f == NULL)
        return NULL;
    fprintf(f, "motionbench-reference-cache %d\nbuild %s\nproblem %s\n", CACHE_FORMAT,
            mb_build_id(), pt->name);
    for (size_t k = 0; k < mb_options_count(params); k++) {
        const char *key, *value;
        mb_options_pair(params, k, &key, &value);
        fprintf(f, "param %s=", key);
        for (const char *p = value; *p; p++) {   /* one line per parameter */
            if (*p == '\n' || *p == '\\')
                fputc('\\', f);
            fputc(*p == '\n' ? 'n' : *p, f);
        }
        fputc('\n', f);
    }
    mb_sha256 h;
    char inputs[MB_SHA256_HEX];
    mb_sha256_init(&h);
    if (mb_problem_inputs_hash(pt, params, &h) != MB_SUCCESS) {
        fclose(f);
        free(text);
        return NULL;
    }
    mb_sha256_hex(&h, inputs);
    fprintf(f, "inputs %s\n", inputs);     /* files the parameters name (scenes) */
    fprintf(f, "method %s %ld\nnodes %zu\ntimes %zu\n", mb_reference_kind_name(kind),
            kind == MB_REF_MPFR ? bits : 0, nodes, n);
    for (size_t k = 0; k < n; k++)
        fprintf(f, "t %a\n", times[k]);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static void entry_path(const char *key, size_t size, char *path, size_t path_size)
{
    mb_sha256 h;
    char hex[MB_SHA256_HEX];
    mb_sha256_init(&h);
    mb_sha256_update(&h, key, size);
    mb_sha256_hex(&h, hex);
    snprintf(path, path_size, "%s/%s.ref", cache_dir, hex);
}

/* ---- reading ---- */

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n + 65536 + 1 > cap) {
            char *b = realloc(buf, cap = 2 * cap + 65536 + 1);
            if (b == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    fclose(f);
    buf[n] = '\0';
    *size = n;
    return buf;
}

/* The checksum line closes the file and covers every byte before it. */
static int checksum_holds(const char *buf, size_t size)
{
    if (size < 72 || buf[size - 1] != '\n')
        return 0;
    const char *line = buf + size - 72;  /* "sha256 " + 64 digits + "\n" */
    if (strncmp(line, "sha256 ", 7) != 0 || (line > buf && line[-1] != '\n'))
        return 0;
    mb_sha256 h;
    char hex[MB_SHA256_HEX];
    mb_sha256_init(&h);
    mb_sha256_update(&h, buf, (size_t)(line - buf));
    mb_sha256_hex(&h, hex);
    return strncmp(line + 7, hex, 64) == 0;
}

static int read_number(char **p, const char *tag, double *v)
{
    size_t len = strlen(tag);
    if (tag[0] && (strncmp(*p, tag, len) != 0))
        return 0;
    char *end;
    *v = strtod(*p + len, &end);
    if (end == *p + len || (*end != ' ' && *end != '\n'))
        return 0;
    *p = end + 1;
    return 1;
}

static int parse_values(char *p, size_t n, mb_nodes *const *outs, double *err)
{
    for (size_t k = 0; k < n; k++)
        if (!read_number(&p, "err ", &err[k]))
            return 0;
    for (size_t k = 0; k < n; k++) {
        if (strncmp(p, "state ", 6) != 0)
            return 0;
        p += 6;
        for (size_t m = 0; m < N_FIELDS; m++) {
            double *a = array_of(outs[k], &fields[m]);
            size_t count = fields[m].per_node * outs[k]->n;
            /* each number ends with a blank, the state's last one with the line */
            for (size_t i = 0; i < count; i++)
                if (!read_number(&p, "", &a[i])
                    || (p[-1] == '\n') != (m + 1 == N_FIELDS && i + 1 == count))
                    return 0;
        }
        mb_nodes_touch(outs[k]);
    }
    return strncmp(p, "sha256 ", 7) == 0;
}

int mb_reference_cache_get(const mb_problem_type *pt, const mb_options *params,
                           mb_reference_kind kind, long bits, size_t n, const double *times,
                           mb_nodes *const *outs, double *err)
{
    size_t key_size, size;
    char path[4200];
    char *key = n ? key_text(pt, params, kind, bits, outs[0]->n, n, times, &key_size) : NULL;
    if (key == NULL)
        return 0;
    entry_path(key, key_size, path, sizeof path);
    char *buf = slurp(path, &size);
    const char *why = NULL;
    if (buf == NULL)
        why = errno == ENOENT ? NULL : strerror(errno);
    else if (!checksum_holds(buf, size))
        why = "damaged (its SHA-256 does not match)";
    else if (size < key_size || memcmp(buf, key, key_size) != 0)
        why = "foreign (made for another reference or build)";
    else if (!parse_values(buf + key_size, n, outs, err))
        why = "malformed";
    if (why)
        fprintf(stderr, "motionbench: reference cache: %s: %s; recomputed\n", path, why);
    int found = buf != NULL && why == NULL;
    free(key);
    free(buf);
    return found;
}

/* ---- writing ---- */

static void write_values(FILE *f, size_t n, mb_nodes *const *outs, const double *err)
{
    for (size_t k = 0; k < n; k++)
        fprintf(f, "err %a\n", err[k]);
    for (size_t k = 0; k < n; k++) {
        fputs("state", f);
        for (size_t m = 0; m < N_FIELDS; m++) {
            const double *a = array_of(outs[k], &fields[m]);
            for (size_t i = 0; i < fields[m].per_node * outs[k]->n; i++)
                fprintf(f, " %a", a[i]);
        }
        fputc('\n', f);
    }
}

/* Write buf to a temporary file of the cache directory and rename it to path. */
static int publish(const char *path, const char *buf, size_t size)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", cache_dir);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "wb");
    int ok = f && fwrite(buf, 1, size, f) == size && fflush(f) == 0 && fsync(fd) == 0;
    if (f ? fclose(f) != 0 : close(fd) != 0)
        ok = 0;
    if (ok && rename(tmp, path) == 0)
        return 0;
    int e = errno;
    unlink(tmp);
    errno = e;
    return -1;
}

void mb_reference_cache_put(const mb_problem_type *pt, const mb_options *params,
                            mb_reference_kind kind, long bits, size_t n, const double *times,
                            mb_nodes *const *outs, const double *err)
{
    size_t key_size, size;
    char path[4200], *buf = NULL;
    char *key = n ? key_text(pt, params, kind, bits, outs[0]->n, n, times, &key_size) : NULL;
    FILE *f = key ? open_memstream(&buf, &size) : NULL;
    if (f) {
        fwrite(key, 1, key_size, f);
        write_values(f, n, outs, err);
        fflush(f);
        mb_sha256 h;
        char hex[MB_SHA256_HEX];
        mb_sha256_init(&h);
        mb_sha256_update(&h, buf, size);
        mb_sha256_hex(&h, hex);
        fprintf(f, "sha256 %s\n", hex);
    }
    if (f == NULL || fclose(f) != 0) {
        fprintf(stderr, "motionbench: reference cache: out of memory; entry not written\n");
    } else {
        entry_path(key, key_size, path, sizeof path);
        if (publish(path, buf, size) != 0)
            fprintf(stderr, "motionbench: reference cache: cannot write %s: %s\n", path,
                    strerror(errno));
    }
    free(key);
    free(buf);
}
