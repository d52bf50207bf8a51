/* input_files.c -- opening and bounding every file motionbench reads (mb_input.h).
 *
 * One home for the two rules every reader follows: only a regular file is read (opened
 * with O_NONBLOCK so that a FIFO cannot block the open, checked with fstat before a byte
 * is read), and no more than the cap of its kind is read (the table below, stated in
 * doc/limits.md).  A file is read whole into memory (at most its cap plus one byte, so a
 * file that grows while read is still bounded) and handed back as a buffer or as a
 * read-only stream over that buffer. */
#define _GNU_SOURCE /* fopencookie */
#include "mb_input.h"
#include "mb_status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)

/* The caps of doc/limits.md, one row per kind of input file (same order as mb_input_kind).
 * Each is far above any file the bench writes or ships for that kind and small enough to
 * hold in memory on a laptop. */
static struct {
    const char *what;   /* "a case file": who must be regular, what the cap is for */
    size_t cap;         /* bytes; the trajectory's may be set (mb_input_set_cap) */
    const char *option; /* the option that set it, named in the refusal (NULL: default) */
} kinds[MB_INPUT_KINDS] = {
    [MB_INPUT_CASE]        = { "a case file", 16 * MIB },
    [MB_INPUT_SCENE]       = { "a scene file", 64 * MIB },
    [MB_INPUT_DESCRIPTOR]  = { "an adapter descriptor", 1 * MIB },
    [MB_INPUT_TRAJECTORY]  = { "a trajectory", 256 * MIB },
    [MB_INPUT_ADAPTER_LOG] = { "an adapter log", 16 * MIB },
    [MB_INPUT_METRICS]     = { "a metrics table (metrics.csv)", 256 * MIB },
    [MB_INPUT_RUNS]        = { "a runs table (runs.csv)", 256 * MIB },
    [MB_INPUT_CHECKS]      = { "a checks table (checks.csv)", 256 * MIB },
    [MB_INPUT_SERIES]      = { "a time series (series/*.csv)", 256 * MIB },
    [MB_INPUT_PEER_LOG]    = { "a peer program's log", 16 * MIB },
    [MB_INPUT_CASES]       = { "a case table (cases.csv)", 64 * MIB },
    [MB_INPUT_TIMING]      = { "a timing table (timing.csv)", 256 * MIB },
};

size_t mb_input_cap(mb_input_kind kind) { return kinds[kind].cap; }

int mb_input_set_cap(mb_input_kind kind, size_t bytes, const char *option)
{
    if (kind != MB_INPUT_TRAJECTORY)
        MB_ERROR(MB_EINVAL, "the cap for %s is fixed (doc/limits.md)", kinds[kind].what);
    if (bytes < MB_INPUT_CAP_MIN || bytes > MB_INPUT_CAP_MAX)
        MB_ERROR(MB_EINVAL, "%s %zu bytes: out of range [%zu (1 KiB), %zu (1 TiB)]", option,
                 bytes, (size_t)MB_INPUT_CAP_MIN, (size_t)MB_INPUT_CAP_MAX);
    kinds[kind].cap = bytes;
    kinds[kind].option = option;
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

static int too_large(const char *path, mb_input_kind kind)
{
    if (kind == MB_INPUT_TRAJECTORY)
        MB_ERROR(MB_EINVAL, "%s: larger than %zu bytes (the cap for %s, %s; doc/limits.md)",
                 path, kinds[kind].cap, kinds[kind].what,
                 kinds[kind].option ? "set by --trajectory-limit" : "raise it with --trajectory-limit");
    MB_ERROR(MB_EINVAL, "%s: larger than %zu bytes (the cap for %s, doc/limits.md)", path,
             kinds[kind].cap, kinds[kind].what);
}

/* A descriptor of PATH open for reading, or -1 with the message recorded: a missing file,
 * a FIFO, a device, a directory or a regular file already larger than the cap. */
static int open_regular(const char *path, mb_input_kind kind, size_t *size_hint)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        mb_error_record(MB_EIO, __FILE__, __LINE__, "%s: cannot open: %s", path,
                        strerror(errno));
        return -1;
    }
    struct stat sb;
    int bad = 0;
    if (fstat(fd, &sb) != 0)
        bad = mb_error_record(MB_EIO, __FILE__, __LINE__, "%s: cannot read: %s", path,
                              strerror(errno));
    else if (!S_ISREG(sb.st_mode))
        bad = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s: not a regular file (%s): "
                              "%s must be a regular file", path, mb_file_kind_name(sb.st_mode),
                              kinds[kind].what);
    else if ((unsigned long long)sb.st_size > kinds[kind].cap)
        bad = too_large(path, kind);
    if (bad) {
        close(fd);
        return -1;
    }
    *size_hint = (size_t)sb.st_size;
    return fd;
}

/* Read FD to its end into a NUL-terminated buffer of at most the cap. */
static int read_bounded(int fd, const char *path, mb_input_kind kind, size_t hint,
                        char **out, size_t *length)
{
    size_t cap = kinds[kind].cap, len = 0, size = hint + 2;  /* +1 to see growth, +1 NUL */
    char *buf = malloc(size);
    if (buf == NULL)
        MB_ERROR(MB_ENOMEM, "%s: out of memory for %zu bytes", path, size);
    for (;;) {
        if (len + 1 >= size) {
            size_t grown = size < cap / 2 ? 2 * size : cap + 2;
            char *b = grown > size ? realloc(buf, grown) : NULL;
            if (b == NULL) {
                free(buf);
                if (grown <= size)
                    return too_large(path, kind);
                MB_ERROR(MB_ENOMEM, "%s: out of memory for %zu bytes", path, grown);
            }
            buf = b;
            size = grown;
        }
        ssize_t got = read(fd, buf + len, size - 1 - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            MB_ERROR(MB_EIO, "%s: cannot read: %s", path, strerror(e));
        }
        if (got == 0)
            break;
        len += (size_t)got;
        if (len > cap) {
            free(buf);
            return too_large(path, kind);
        }
    }
    buf[len] = '\0';
    *out = buf;
    *length = len;
    return MB_SUCCESS;
}

int mb_input_read_all(const char *path, mb_input_kind kind, char **buf, size_t *length)
{
    *buf = NULL;
    *length = 0;
    size_t hint;
    int fd = open_regular(path, kind, &hint);
    if (fd < 0)
        return mb_last_error_code();
    int st = read_bounded(fd, path, kind, hint, buf, length);
    close(fd);
    return st;
}

/* A read-only stream over a buffer it owns (freed by fclose). */
typedef struct {
    char *buf;
    size_t len, pos;
} memory_input;

static ssize_t memory_read(void *cookie, char *out, size_t n)
{
    memory_input *m = cookie;
    size_t left = m->len - m->pos;
    if (n > left)
        n = left;
    memcpy(out, m->buf + m->pos, n);
    m->pos += n;
    return (ssize_t)n;
}

static int memory_seek(void *cookie, off64_t *offset, int whence)
{
    memory_input *m = cookie;
    off64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (off64_t)m->pos
                                                               : (off64_t)m->len;
    off64_t to = base + *offset;
    if (to < 0 || to > (off64_t)m->len) {
        errno = EINVAL;
        return -1;
    }
    m->pos = (size_t)to;
    *offset = to;
    return 0;
}

static int memory_close(void *cookie)
{
    memory_input *m = cookie;
    free(m->buf);
    free(m);
    return 0;
}

FILE *mb_input_open(const char *path, mb_input_kind kind)
{
    memory_input *m = calloc(1, sizeof *m);
    if (m == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "%s: out of memory", path);
    if (mb_input_read_all(path, kind, &m->buf, &m->len) != MB_SUCCESS) {
        free(m);
        return NULL;
    }
    cookie_io_functions_t io = { memory_read, NULL, memory_seek, memory_close };
    FILE *f = fopencookie(m, "r", io);
    if (f == NULL) {
        memory_close(m);
        MB_ERROR_NULL(MB_ENOMEM, "%s: out of memory", path);
    }
    return f;
}
