/* report_csv.c -- RFC 4180 CSV fields and atomically replaced files (see mb_report.h). */
#include "mb_report.h"
#include "mb_output.h"
#include "mb_status.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void mb_csv_text(FILE *f, const char *s)
{
    if (s == NULL)
        return;
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void mb_csv_number(FILE *f, double v)
{
    if (isnan(v))
        fputs("nan", f);
    else if (isinf(v))
        fputs(v > 0 ? "inf" : "-inf", f);
    else
        fprintf(f, "%.17g", v);
}

void mb_csv_sep(FILE *f) { fputc(',', f); }
void mb_csv_end(FILE *f) { fputs("\r\n", f); }

static char *join(const char *dir, const char *name, const char *prefix, const char *suffix)
{
    size_t len = strlen(dir) + strlen(name) + strlen(prefix) + strlen(suffix) + 3;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%s/%s%s%s", dir, prefix, name, suffix);
    return p;
}

int mb_atomic_open(mb_atomic_file *a, const char *dir, const char *name)
{
    char suffix[48];
    snprintf(suffix, sizeof suffix, ".tmp.%ld", (long)getpid());
    a->final = join(dir, name, "", "");
    a->tmp = join(dir, name, ".", suffix);
    a->f = NULL;
    if (!a->final || !a->tmp) {
        mb_atomic_discard(a);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    int direct;
    if (mb_output_target(a->final, &direct) != MB_SUCCESS) {
        mb_atomic_discard(a);
        return mb_last_error_code();
    }
    if (direct) {
        int st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s is not a regular file: "
                                 "report files are replaced as a whole, so they must be "
                                 "regular files (or not exist yet)", a->final);
        mb_atomic_discard(a);
        return st;
    }
    a->f = fopen(a->tmp, "wb");
    if (a->f == NULL) {
        int e = errno;
        mb_atomic_discard(a);
        MB_ERROR(MB_EIO, "cannot create %s/%s: %s", dir, name, strerror(e));
    }
    return MB_SUCCESS;
}

int mb_atomic_close(mb_atomic_file *a)
{
    int e = mb_output_flush_error(a->f);
    if (!e && fsync(fileno(a->f)) != 0)
        e = errno;
    if (fclose(a->f) != 0 && !e)
        e = errno;
    a->f = NULL;
    if (e)
        MB_ERROR(MB_EIO, "cannot write %s: %s", a->final, strerror(e));
    return MB_SUCCESS;
}

int mb_atomic_commit(mb_atomic_file *a)
{
    if (rename(a->tmp, a->final) != 0)
        MB_ERROR(MB_EIO, "cannot rename into %s: %s", a->final, strerror(errno));
    free(a->tmp);
    free(a->final);
    a->tmp = a->final = NULL;
    return MB_SUCCESS;
}

void mb_atomic_discard(mb_atomic_file *a)
{
    if (a->f)
        fclose(a->f);
    if (a->tmp)
        unlink(a->tmp);
    free(a->tmp);
    free(a->final);
    a->f = NULL;
    a->tmp = a->final = NULL;
}
