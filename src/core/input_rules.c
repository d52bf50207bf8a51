/* input_rules.c -- numbers, precisions and file kinds as every reader accepts them
 * (mb_input.h). */
#include "mb_input.h"
#include "mb_status.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int mb_strtod_in_range(double v)
{
    if (errno != ERANGE)
        return 1;
    /* C11 7.22.1.3: ERANGE on overflow (HUGE_VAL) or when the result underflows; an
     * underflow that still gives a nonzero (subnormal) value is representable */
    return v != 0.0 && isfinite(v);
}

int mb_precision_parse(const char *text, long *bits)
{
    if (strcmp(text, "double") == 0) {
        *bits = 0;
        return MB_SUCCESS;
    }
    if (strncmp(text, "mpfr:", 5) != 0)
        MB_ERROR(MB_EINVAL, "precision = '%s': write double or mpfr:BITS", text);
    char *end;
    errno = 0;
    long b = strtol(text + 5, &end, 10);
    if (end == text + 5 || *end != '\0' || errno == ERANGE)
        MB_ERROR(MB_EINVAL, "precision bits = '%s' is not a whole number", text + 5);
    if (b < MB_PRECISION_MIN_BITS || b > MB_PRECISION_MAX_BITS)
        MB_ERROR(MB_EINVAL, "precision bits = %ld is out of range [%ld, %ld]", b,
                 MB_PRECISION_MIN_BITS, MB_PRECISION_MAX_BITS);
    *bits = b;
    return MB_SUCCESS;
}

const char *mb_file_kind_name(mode_t mode)
{
    if (S_ISREG(mode)) return "regular file";
    if (S_ISDIR(mode)) return "directory";
    if (S_ISCHR(mode)) return "character device";
    if (S_ISBLK(mode)) return "block device";
    if (S_ISFIFO(mode)) return "FIFO";
    if (S_ISSOCK(mode)) return "socket";
    if (S_ISLNK(mode)) return "symbolic link";
    return "special file";
}

FILE *mb_input_open_regular(const char *path, const char *what)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        MB_ERROR_NULL(MB_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        MB_ERROR_NULL(MB_EIO, "%s: cannot read: %s", path, strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        MB_ERROR_NULL(MB_EINVAL, "%s: not a regular file (%s): %s must be a regular file", path,
                      mb_file_kind_name(sb.st_mode), what);
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "r");
    if (f == NULL) {
        int e = errno;
        close(fd);
        MB_ERROR_NULL(MB_EIO, "%s: cannot open: %s", path, strerror(e));
    }
    return f;
}

char *mb_input_read_line(FILE *f, char *str, int num, int *pending_cr, int *nul,
                         size_t *length)
{
    int len = 0, ch = EOF, has_nul = 0;
    while (len < num - 1 && (ch = getc(f)) != EOF) {
        if (*pending_cr) {
            *pending_cr = 0;
            if (ch == '\n')
                continue;
        }
        if (ch == '\r') {
            *pending_cr = 1;
            ch = '\n';
        }
        has_nul |= ch == '\0';
        str[len++] = (char)ch;
        if (ch == '\n')
            break;
    }
    if (len == 0)
        return NULL;
    str[len] = '\0';
    if (nul)
        *nul = has_nul;
    if (length)
        *length = (size_t)len;
    return str;
}
