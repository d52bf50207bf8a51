/* output_file.c -- atomic or straight-through output files (mb_output.h). */
#include "mb_output.h"
#include "mb_input.h"
#include "mb_status.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mb_output_make_dirs(const char *dir)
{
    char buf[4096];
    if (dir[0] == '\0')
        MB_ERROR(MB_EINVAL, "empty directory name");
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        MB_ERROR(MB_EINVAL, "directory name longer than %zu characters", sizeof buf - 1);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char keep = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                MB_ERROR(MB_EIO, "cannot create directory %s: %s", buf, strerror(errno));
            *p = keep;
            if (keep == '\0')
                break;
        }
    }
    return MB_SUCCESS;
}

int mb_output_target(const char *path, int *direct)
{
    struct stat sb;
    *direct = 0;
    if (lstat(path, &sb) != 0) {
        if (errno == ENOENT)
            return MB_SUCCESS;
        MB_ERROR(MB_EIO, "%s: %s", path, strerror(errno));
    }
    if (S_ISLNK(sb.st_mode))
        MB_ERROR(MB_EINVAL, "%s is a symbolic link: motionbench neither replaces nor follows "
                 "links when writing; give the link's target", path);
    if (S_ISDIR(sb.st_mode))
        MB_ERROR(MB_EINVAL, "%s is a directory, not a file", path);
    *direct = !S_ISREG(sb.st_mode);
    return MB_SUCCESS;
}

static int open_direct(mb_output *o)
{
    int fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 || (o->f = fdopen(fd, "w")) == NULL) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        MB_ERROR(MB_EIO, "cannot open %s: %s", o->path, strerror(e));
    }
    return MB_SUCCESS;
}

/* PATH.tmp.XXXXXX beside the path, with the mode of a new file (mkstemp makes it 0600). */
static int open_atomic(mb_output *o)
{
    size_t len = strlen(o->path) + 16;
    o->tmp = malloc(len);
    if (o->tmp == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    snprintf(o->tmp, len, "%s.tmp.XXXXXX", o->path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        MB_ERROR(MB_EIO, "cannot create a temporary file beside %s: %s", o->path, strerror(e));
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || (o->f = fdopen(fd, "w")) == NULL) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        MB_ERROR(MB_EIO, "cannot prepare %s: %s", o->path, strerror(e));
    }
    return MB_SUCCESS;
}

int mb_output_open(mb_output *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (path == NULL) {
        o->f = stdout;
        return MB_SUCCESS;
    }
    int direct;
    if (mb_output_target(path, &direct) != MB_SUCCESS)
        return mb_last_error_code();
    o->path = strdup(path);
    if (o->path == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    int st = direct ? open_direct(o) : open_atomic(o);
    if (st != MB_SUCCESS) {
        free(o->path);
        o->path = NULL;
    }
    return st;
}

static void on_broken_pipe(int sig)
{
    (void)sig;
}

void mb_output_catch_broken_pipe(void)
{
    /* a handler, not SIG_IGN: the programs motionbench starts get the default back */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_broken_pipe;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
}

int mb_output_flush_error(FILE *f)
{
    /* glibc keeps the unwritten bytes of a failed write in the buffer: once the error
     * flag is cleared, the flush tries them again and errno says why they fail (ENOSPC),
     * where the errno of the first failure is long overwritten */
    int failed = ferror(f);
    clearerr(f);
    errno = 0;
    if (fflush(f) != 0)
        return errno ? errno : EIO;
    return failed ? EIO : 0;
}

int mb_output_flush_stdout(void)
{
    int e = mb_output_flush_error(stdout);
    if (e)
        MB_ERROR(MB_EIO, "cannot write standard output: %s", strerror(e));
    /* a regular file: its blocks are allocated now (a full disk is seen here, not later);
     * a terminal, pipe or device cannot be synced (EINVAL) and needs not be */
    struct stat sb;
    if (fstat(STDOUT_FILENO, &sb) == 0 && S_ISREG(sb.st_mode) && fsync(STDOUT_FILENO) != 0
        && errno != EINVAL)
        MB_ERROR(MB_EIO, "cannot write standard output: %s", strerror(errno));
    return MB_SUCCESS;
}

int mb_output_prepare(mb_output *o)
{
    if (o->path == NULL)
        return mb_output_flush_stdout();
    if (o->f == NULL)
        return MB_SUCCESS;
    int e = mb_output_flush_error(o->f);
    if (!e && o->tmp && fsync(fileno(o->f)) != 0)
        e = errno;
    if (fclose(o->f) != 0 && !e)
        e = errno;
    o->f = NULL;
    if (e) {
        const char *kept = o->tmp ? " (the previous file is kept)" : "";
        if (o->tmp)
            unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        MB_ERROR(MB_EIO, "cannot write %s: %s%s", o->path, strerror(e), kept);
    }
    return MB_SUCCESS;
}

static int finish(mb_output *o, int ok)
{
    if (!ok) {
        if (o->f && o->f != stdout)
            fclose(o->f);
        o->f = NULL;
        if (o->tmp)
            unlink(o->tmp);
        return MB_SUCCESS;
    }
    if (mb_output_prepare(o) != MB_SUCCESS)
        return mb_last_error_code();
    if (o->tmp && rename(o->tmp, o->path) != 0) {
        int e = errno;
        unlink(o->tmp);
        MB_ERROR(MB_EIO, "cannot write %s: %s (the previous file is kept)", o->path,
                 strerror(e));
    }
    return MB_SUCCESS;
}

int mb_output_close(mb_output *o, int ok)
{
    int st = finish(o, ok);
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    return st;
}

int mb_output_close_stdout(void)
{
    int e = mb_output_flush_error(stdout), bad = e != 0;
    /* EBADF on close: stdout was closed by the caller and nothing was written to it (a
     * write would have failed the flush above) */
    if (fclose(stdout) != 0 && !bad && errno != EBADF) {
        bad = 1;
        e = errno;
    }
    if (bad)
        MB_ERROR(MB_EIO, "cannot write standard output: %s", strerror(e ? e : EIO));
    return MB_SUCCESS;
}
