/* plot_list.c -- plots.list of a plot directory (mb_plot_list.h). */
#include "mb_plot_list.h"
#include "mb_build.h"
#include "mb_report.h"
#include "mb_status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const hashed[] = { "runs.csv", "metrics.csv", "checks.csv", "cases.csv",
                                      NULL };

int mb_plot_fingerprint(const char *report_dir, char hex[MB_SHA256_HEX])
{
    mb_sha256 s;
    mb_sha256_init(&s);
    const char *id = mb_build_id();
    mb_sha256_update(&s, id, strlen(id) + 1);
    for (const char *const *name = hashed; *name; name++) {
        char path[4096], buf[65536];
        snprintf(path, sizeof path, "%s/%s", report_dir, *name);
        FILE *f = fopen(path, "rb");
        if (f == NULL && errno != ENOENT)
            MB_ERROR(MB_EIO, "cannot read %s: %s", path, strerror(errno));
        for (size_t got; f && (got = fread(buf, 1, sizeof buf, f)) > 0;)
            mb_sha256_update(&s, buf, got);
        int bad = f && ferror(f);
        if (f)
            fclose(f);
        if (bad)
            MB_ERROR(MB_EIO, "cannot read %s", path);
        mb_sha256_update(&s, "\n", 1);   /* file boundary */
    }
    mb_sha256_hex(&s, hex);
    return MB_SUCCESS;
}

int mb_plot_list_write(const char *plot_dir, const char *hex, char *const *stems, size_t n)
{
    mb_atomic_file af;
    if (mb_atomic_open(&af, plot_dir, "plots.list") != MB_SUCCESS)
        return MB_EIO;
    fprintf(af.f, "# motionbench plots of a report with fingerprint %s\n", hex);
    for (size_t k = 0; k < n; k++)
        fprintf(af.f, "%s\n", stems[k]);
    int st = mb_atomic_close(&af);
    if (st == MB_SUCCESS)
        st = mb_atomic_commit(&af);
    mb_atomic_discard(&af);
    return st;
}

/* plots.list opened for reading when it is a regular file (a FIFO or a device in its
 * place is never read, so never waited on: it counts as no list, and writing the new
 * list then refuses it by name) */
static FILE *open_list(const char *path)
{
    struct stat sb;
    if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return NULL;
    return fopen(path, "r");
}

void mb_plot_list_free(char **stems, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(stems[k]);
    free(stems);
}

int mb_plot_list_read(const char *plot_dir, const char *hex, char ***stems, size_t *n)
{
    char path[4096], line[4096], head[200];
    *stems = NULL;
    *n = 0;
    snprintf(path, sizeof path, "%s/plots.list", plot_dir);
    FILE *f = open_list(path);
    if (f == NULL)
        return MB_ENOTFOUND;
    snprintf(head, sizeof head, "# motionbench plots of a report with fingerprint %s\n", hex);
    if (fgets(line, sizeof line, f) == NULL || strcmp(line, head) != 0) {
        fclose(f);
        return MB_ENOTFOUND;
    }
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            char **s = realloc(*stems, cap * sizeof *s);
            if (s == NULL)
                break;
            *stems = s;
        }
        if (((*stems)[*n] = strdup(line)) == NULL)
            break;
        (*n)++;
    }
    int bad = !feof(f);
    fclose(f);
    if (bad) {
        mb_plot_list_free(*stems, *n);
        *stems = NULL;
        *n = 0;
        MB_ERROR(MB_ENOMEM, "out of memory reading %s", path);
    }
    return MB_SUCCESS;
}

static int listed(char *const *stems, size_t n, const char *stem)
{
    for (size_t k = 0; k < n; k++)
        if (!strcmp(stems[k], stem))
            return 1;
    return 0;
}

void mb_plot_list_remove_stale(const char *plot_dir, char *const *stems, size_t n)
{
    char path[8400], line[4096];
    snprintf(path, sizeof path, "%s/plots.list", plot_dir);
    FILE *f = open_list(path);
    if (f == NULL || fgets(line, sizeof line, f) == NULL
        || strncmp(line, "# motionbench plots of", 22) != 0) {
        if (f)
            fclose(f);
        return;
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0' || strchr(line, '/') || listed(stems, n, line))
            continue;
        for (const char *const *ext = (const char *const[]){ ".svg", ".gp", ".dat", NULL };
             *ext; ext++) {
            snprintf(path, sizeof path, "%s/%s%s", plot_dir, line, *ext);
            unlink(path);
        }
    }
    fclose(f);
}
