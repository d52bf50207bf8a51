/* run_forked.c -- one run of a plug-in scheme in a forked child (mb_run_forked.h).
 *
 * The parent creates a pipe and forks.  The child puts itself in a process group of its
 * own, asks to be killed if the parent dies (Linux PR_SET_PDEATHSIG), restores the default
 * SIGINT/SIGTERM actions, drops the parent's unwritten standard-output buffer (so that an
 * exit() of the plug-in cannot print it a second time), executes the run exactly as it
 * would in process, writes the result to the pipe and leaves with _exit(0): no handler of
 * the parent runs in it.  (An exit() of the plug-in does run the process's atexit handlers
 * in the child: motionbench registers none, and one added later must do nothing in a
 * process other than the one that registered it.)  The runner is multi-threaded; the child is a copy of one thread
 * and relies on the C library's fork handling (glibc resets its malloc and stdio locks in
 * the child), on the project's own locks being fork-safe (force_expr.c's parser lock
 * has fork handlers; the scheme registry is read without a lock) and on the libraries'
 * fork handlers having run whole: the fork is mb_fork_whole, one thread at a time
 * (mb_fork.h: OpenBLAS's handler half-run in another thread would leave the child its lock).
 *
 * The parent reads the pipe while it polls for the child's end (a result larger than the
 * pipe's buffer would otherwise block the child; the end is a Linux pidfd becoming
 * readable), every 50 ms at most checks the time limit and mb_cancel_requested(), and on either kills the child's process group with SIGKILL
 * and reaps it.  A result that arrived whole from a child that exited with status 0 is
 * decoded and validated (mb_run_result_decode); anything else fails the run with the
 * reason read from the wait status; the times of such a run are the parent's wall clock and
 * the child's CPU time (wait4), a received result keeps the child's figures.
 *
 * The message is the result structure as it is in memory (parent and child are the same
 * program), preceded by a header with the sizes and followed by the series samples; the
 * only pointers of the structure, series and the metrics' word, are rebuilt or checked. */
#define _GNU_SOURCE
#include "mb_run_forked.h"
#include "mb_clock.h"
#include "mb_fork.h"
#include "mb_cancel.h"
#include "mb_external.h"
#include "mb_metrics.h"
#include "mb_plugin.h"
#include "mb_series.h"
#include "mb_status.h"
#include "mb_text.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define WIRE_MAGIC "mbrun\0\0\2"        /* 8 bytes, the last one the format's version */
#define EXIT_SEND_FAILED 125            /* the child could not write its result */
#define POLL_MS 50

typedef struct wire_header {
    char magic[8];
    uint64_t result_size, sample_size, n_series, n_probe_values;
} wire_header;

static size_t probe_values(const mb_run_result *r)
{
    return r->probes ? r->n_probes_kept * r->probe_nodes * MB_PROBE_VALUES : 0;
}

/* ---- the message ---- */

size_t mb_run_result_encode(const mb_run_result *r, unsigned char **buf)
{
    size_t series = r->n_series * sizeof *r->series;
    size_t probes = probe_values(r) * sizeof *r->probes;
    size_t n = sizeof(wire_header) + sizeof *r + series + probes;
    *buf = malloc(n);
    if (*buf == NULL)
        return 0;
    wire_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, WIRE_MAGIC, sizeof h.magic);
    h.result_size = sizeof *r;
    h.sample_size = sizeof *r->series;
    h.n_series = r->n_series;
    h.n_probe_values = probe_values(r);
    memcpy(*buf, &h, sizeof h);
    memcpy(*buf + sizeof h, r, sizeof *r);
    if (series)
        memcpy(*buf + sizeof h + sizeof *r, r->series, series);
    if (probes)
        memcpy(*buf + sizeof h + sizeof *r + series, r->probes, probes);
    return n;
}

static int terminated(const char *s, size_t size)
{
    return memchr(s, '\0', size) != NULL;
}

/* every field of the structure that the run itself decides, against what was asked */
static int check_run(const mb_run_result *r, const mb_run_asked *ask, char *why, size_t size)
{
    if (r->status != MB_RUN_OK && r->status != MB_RUN_DIVERGED && r->status != MB_RUN_FAILED
        && r->status != MB_RUN_INTERRUPTED)
        return mb_text_format(why, size, "status %d is not a status of a run", (int)r->status), 0;
    if (!terminated(r->message, sizeof r->message))
        return mb_text_format(why, size, "the message is not terminated"), 0;
    if (r->steps != ask->steps)
        return mb_text_format(why, size, "%ld steps, %ld were asked", r->steps, ask->steps), 0;
    if (r->steps_done < 0 || r->steps_done > r->steps
        || (r->status == MB_RUN_OK && r->steps_done != r->steps))
        return mb_text_format(why, size, "%ld steps done of %ld with status %s", r->steps_done,
                              r->steps, mb_run_status_name(r->status)), 0;
    if (r->t_final != (double)r->steps_done * ask->h)
        return mb_text_format(why, size, "final time %.17g after %ld steps of %.17g", r->t_final,
                              r->steps_done, ask->h), 0;
    if (r->diverged_step < 0 || r->diverged_step > r->steps_done
        || r->diverged_time != (double)r->diverged_step * ask->h)
        return mb_text_format(why, size, "stopped at step %ld, t = %.17g, after %ld steps",
                              r->diverged_step, r->diverged_time, r->steps_done), 0;
    if ((int)r->reference_used < (int)MB_REF_AUTO || (int)r->reference_used > (int)MB_REF_MPFR)
        return mb_text_format(why, size, "reference kind %d is unknown", (int)r->reference_used), 0;
    if ((r->translates != 0 && r->translates != 1) || (r->rotates != 0 && r->rotates != 1))
        return mb_text_format(why, size, "translates/rotates are not 0 or 1"), 0;
    if (r->state_size % mb_nodes_state_size(r->rotates) != 0)
        return mb_text_format(why, size, "state size %zu is not a number of nodes",
                              r->state_size), 0;
    if (!(isfinite(r->wall) && r->wall >= 0.0 && isfinite(r->cpu) && r->cpu >= 0.0))
        return mb_text_format(why, size, "wall or CPU time is not a finite number >= 0"), 0;
    return 1;
}

static int check_metrics(const mb_run_result *r, char *why, size_t size)
{
    if (r->n_metrics > MB_RUN_MAX_METRICS)
        return mb_text_format(why, size, "%zu metrics, at most %d", r->n_metrics,
                              MB_RUN_MAX_METRICS), 0;
    for (size_t k = 0; k < r->n_metrics; k++) {
        const mb_metric_value *m = &r->metrics[k];
        if (!terminated(m->name, sizeof m->name) || !terminated(m->detail, sizeof m->detail))
            return mb_text_format(why, size, "metric %zu: a text is not terminated", k), 0;
        if (!mb_metric_known(m->name))
            return mb_text_format(why, size, "metric '%s' is not declared", m->name), 0;
        if (m->word != NULL || m->at_dt != 0.0)   /* words and dt rows belong to aggregates */
            return mb_text_format(why, size, "metric '%s' is not a per-run value", m->name), 0;
    }
    return 1;
}

/* the series' shape, and sample times on the step grid, increasing, within the run */
static int check_series(const mb_run_result *r, const mb_series_sample *s,
                        const mb_run_asked *ask, char *why, size_t size)
{
    if (r->n_series > 0 && !ask->keep_series)
        return mb_text_format(why, size, "%zu series samples, none were asked", r->n_series), 0;
    if (r->n_series > (size_t)MB_SERIES_MAX_ROWS + 1 || r->series_held != 0
        || (r->series_incomplete != 0 && r->series_incomplete != 1)
        || r->series_offered < (long)r->n_series || r->series_stride < 0)
        return mb_text_format(why, size, "series of %zu samples of %ld offered, stride %ld, is "
                              "malformed", r->n_series, r->series_offered, r->series_stride), 0;
    long prev = -1;
    for (size_t k = 0; k < r->n_series; k++) {
        double steps = isfinite(s[k].t) ? nearbyint(s[k].t / ask->h) : -1.0;
        if (!(steps >= 0.0 && steps <= (double)r->steps_done && (long)steps > prev
              && steps * ask->h == s[k].t))
            return mb_text_format(why, size, "series sample %zu: t = %.17g is not a time of "
                                  "the run after the previous sample", k, s[k].t), 0;
        prev = (long)steps;
    }
    return 1;
}

/* the probes' shape: no more than the case asked, nodes of the problem, values sent */
static int check_probes(const mb_run_result *r, uint64_t values, const mb_run_asked *ask,
                        char *why, size_t size)
{
    if (values == 0 && r->n_probes_kept == 0)
        return 1;
    if (r->n_probes_kept > ask->n_probes || r->probe_nodes != ask->nodes
        || values != (uint64_t)r->n_probes_kept * r->probe_nodes * MB_PROBE_VALUES)
        return mb_text_format(why, size, "%zu probes of %zu nodes in %llu values, %zu probes "
                              "of %zu nodes were asked", r->n_probes_kept, r->probe_nodes,
                              (unsigned long long)values, ask->n_probes, ask->nodes), 0;
    return 1;
}

/* the probes that follow the series (p: unaligned bytes), allocated into out */
static int copy_probes(mb_run_result *out, const unsigned char *p, uint64_t values)
{
    out->probes = NULL;
    if (values == 0)
        return 1;
    out->probes = malloc((size_t)values * sizeof(double));
    if (out->probes != NULL)
        memcpy(out->probes, p, (size_t)values * sizeof(double));
    return out->probes != NULL;
}

int mb_run_result_decode(const unsigned char *buf, size_t n, const mb_run_asked *ask,
                         mb_run_result *out, char *why, size_t size)
{
    memset(out, 0, sizeof *out);
    wire_header h;
    if (n < sizeof h)
        return mb_text_format(why, size, "%zu bytes, shorter than its header", n), MB_EINVAL;
    memcpy(&h, buf, sizeof h);
    if (memcmp(h.magic, WIRE_MAGIC, sizeof h.magic) != 0 || h.result_size != sizeof *out
        || h.sample_size != sizeof(mb_series_sample))
        return mb_text_format(why, size, "not a result of this program"), MB_EINVAL;
    uint64_t most_probes = (uint64_t)ask->n_probes * ask->nodes * MB_PROBE_VALUES;
    if (h.n_series > (uint64_t)MB_SERIES_MAX_ROWS + 1 || h.n_probe_values > most_probes
        || n != sizeof h + sizeof *out + (size_t)h.n_series * sizeof(mb_series_sample)
                + (size_t)h.n_probe_values * sizeof(double))
        return mb_text_format(why, size, "%zu bytes for %llu series samples and %llu probe values",
                              n, (unsigned long long)h.n_series,
                              (unsigned long long)h.n_probe_values), MB_EINVAL;
    memcpy(out, buf + sizeof h, sizeof *out);
    const mb_series_sample *s = (const void *)(buf + sizeof h + sizeof *out);
    const unsigned char *probes = buf + sizeof h + sizeof *out
                                  + (size_t)h.n_series * sizeof(mb_series_sample);
    out->series = NULL;
    out->cap_series = 0;
    out->probes = NULL;
    int ok = out->n_series == h.n_series && check_run(out, ask, why, size)
             && check_metrics(out, why, size) && check_series(out, s, ask, why, size)
             && check_probes(out, h.n_probe_values, ask, why, size);
    if (!ok) {
        if (out->n_series != h.n_series)
            mb_text_format(why, size, "the header and the result disagree on the series");
        memset(out, 0, sizeof *out);
        return MB_EINVAL;
    }
    /* the repetition figures are the runner's, filled in after the run */
    out->wall_min = out->wall_median = out->cpu_min = out->cpu_median = 0.0;
    out->repeats = 0;
    if (out->n_series > 0) {
        out->series = malloc(out->n_series * sizeof *s);
        if (out->series == NULL) {
            memset(out, 0, sizeof *out);
            return mb_text_format(why, size, "out of memory"), MB_ENOMEM;
        }
        memcpy(out->series, s, out->n_series * sizeof *s);
        out->cap_series = out->n_series;
    }
    if (!copy_probes(out, probes, h.n_probe_values)) {
        free(out->series);
        memset(out, 0, sizeof *out);
        return mb_text_format(why, size, "out of memory"), MB_ENOMEM;
    }
    return MB_SUCCESS;
}

/* ---- which runs fork ---- */

int mb_run_forked_wanted(const mb_case *c, size_t integrator)
{
    const char *spec = c->integrators[integrator];
    if (c->plugins_in_process || c->replay || mb_external_is_spec(spec))
        return 0;
    char name[64];
    size_t len = strcspn(spec, "[");
    if (len >= sizeof name)
        return 0;
    memcpy(name, spec, len);
    name[len] = '\0';
    const mb_stepper_type *t = mb_stepper_find(name);
    return t != NULL && mb_plugin_owns(t);
}

/* ---- the child ---- */

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 0;
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

static void child(int fd, pid_t parent, const mb_case *c, size_t integrator, size_t dt_index,
                  int keep_series, mb_run_body *body)
{
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent)            /* the parent died before the request took effect */
        _exit(EXIT_SEND_FAILED);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    __fpurge(stdout);                   /* the parent's pending output is the parent's */
    mb_run_result r;
    body(c, integrator, dt_index, keep_series, &r);
    unsigned char *buf = NULL;
    size_t n = mb_run_result_encode(&r, &buf);
    _exit(n > 0 && write_all(fd, buf, n) ? 0 : EXIT_SEND_FAILED);
}

/* ---- the parent ---- */

typedef struct inbox {
    unsigned char *buf;
    size_t n, cap, limit;
    int overflow;              /* longer than limit, or no memory for it (no_memory) */
    int no_memory;
} inbox;

/* Read what is there (the descriptor is non-blocking); 1 at end of file or on an error. */
static int drain(int fd, inbox *in)
{
    unsigned char chunk[65536];
    for (;;) {
        ssize_t got = read(fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return errno != EAGAIN && errno != EWOULDBLOCK;
        if (got == 0)
            return 1;
        if (in->n + (size_t)got > in->limit) {
            in->overflow = 1;
            return 1;
        }
        if (in->n + (size_t)got > in->cap) {
            size_t cap = in->cap ? 2 * in->cap : sizeof chunk;
            while (cap < in->n + (size_t)got)
                cap *= 2;
            unsigned char *b = realloc(in->buf, cap);
            if (b == NULL) {
                in->overflow = in->no_memory = 1;
                return 1;
            }
            in->buf = b;
            in->cap = cap;
        }
        memcpy(in->buf + in->n, chunk, (size_t)got);
        in->n += (size_t)got;
    }
}

typedef enum { ENDED, TIMED_OUT, CANCELLED, TOO_LONG } wait_end;

/* A descriptor that becomes readable when the child ends (Linux pidfd_open), or -1: the
 * end is then seen at the next poll (every POLL_MS), or at the pipe's end of file. */
static int child_end_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

/* Read the pipe until the child ends (*ws its wait status), or until the deadline, a
 * cancellation request or a message beyond the limit (the group is then killed).  The
 * pipe's end of file alone does not tell: a plug-in can close it and go on, and a child
 * forked at the same moment by another thread can hold a copy of its write end. */
static wait_end collect(pid_t pid, int fd, double deadline, inbox *in, int *ws,
                        struct rusage *ru)
{
    int ended = child_end_fd(pid);
    struct pollfd p[2] = { { fd, POLLIN, 0 }, { ended, POLLIN, 0 } };   /* < 0: ignored */
    wait_end end = TIMED_OUT;
    for (;;) {
        if (poll(p, 2, POLL_MS) > 0 && p[0].revents && drain(fd, in))
            p[0].fd = -1;
        if (in->overflow) {
            end = TOO_LONG;
            break;
        }
        pid_t w = wait4(pid, ws, WNOHANG, ru);
        if (w == pid || (w < 0 && errno != EINTR)) {
            if (p[0].fd >= 0)
                drain(fd, in);     /* all it wrote is in the pipe */
            kill(-pid, SIGKILL);   /* what the plug-in started dies with its run */
            if (ended >= 0)
                close(ended);
            return in->overflow ? TOO_LONG : ENDED;
        }
        if (mb_cancel_requested()) {
            end = CANCELLED;
            break;
        }
        if (mb_wall_seconds() >= deadline)
            break;
        if (p[0].fd < 0 && ended < 0) {      /* nothing left to wake on: pause briefly */
            struct timespec pause = { 0, 1000000L };
            nanosleep(&pause, NULL);
        }
    }
    kill(-pid, SIGKILL);
    while (wait4(pid, ws, 0, ru) < 0 && errno == EINTR)
        ;
    if (ended >= 0)
        close(ended);
    return end;
}

static void fail(mb_run_result *r, long steps, mb_run_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(mb_run_result *r, long steps, mb_run_status status, const char *fmt, ...)
{
    free(r->series);
    free(r->probes);
    memset(r, 0, sizeof *r);
    r->status = status;
    r->steps = steps;
    for (int k = 0; k < 4; k++)
        r->err[k] = r->scale[k] = NAN;
    va_list ap;
    va_start(ap, fmt);
    mb_text_vformat(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
}

/* The run's outcome from the child's end and what it sent; 1 when that is its result. */
static int verdict(wait_end end, int ws, const inbox *in, const mb_run_asked *ask,
                    double limit, mb_run_result *r)
{
    char why[200];
    if (end == ENDED && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && in->n > 0) {
        if (mb_run_result_decode(in->buf, in->n, ask, r, why, sizeof why) == MB_SUCCESS)
            return 1;
        fail(r, ask->steps, MB_RUN_FAILED, "plug-in result: %s", why);
    } else if (end == CANCELLED)
        fail(r, ask->steps, MB_RUN_INTERRUPTED, "interrupted (plug-in child killed)");
    else if (end == TIMED_OUT)
        fail(r, ask->steps, MB_RUN_FAILED, "plug-in: time limit of %g s exceeded (child "
             "killed; [run] timeout or --timeout sets it)", limit);
    else if (end == TOO_LONG && in->no_memory)
        fail(r, ask->steps, MB_RUN_FAILED, "plug-in result: out of memory for %zu bytes", in->n);
    else if (end == TOO_LONG)
        fail(r, ask->steps, MB_RUN_FAILED, "plug-in result: longer than %zu bytes", in->limit);
    else if (WIFSIGNALED(ws))
        fail(r, ask->steps, MB_RUN_FAILED, "plug-in killed by signal %d (%s)", WTERMSIG(ws),
             strsignal(WTERMSIG(ws)));
    else if (WIFEXITED(ws) && WEXITSTATUS(ws) == EXIT_SEND_FAILED && in->n == 0)
        fail(r, ask->steps, MB_RUN_FAILED, "plug-in result: the child could not send it (did "
             "the plug-in close its descriptors?)");
    else if (WIFEXITED(ws) && WEXITSTATUS(ws) != 0)
        fail(r, ask->steps, MB_RUN_FAILED, "plug-in called exit(%d)", WEXITSTATUS(ws));
    else
        fail(r, ask->steps, MB_RUN_FAILED, "plug-in called exit(0)");
    return 0;
}

void mb_run_forked(const mb_case *c, size_t integrator, size_t dt_index, int keep_series,
                   mb_run_body *body, mb_run_result *out)
{
    memset(out, 0, sizeof *out);
    mb_run_asked ask = { c->steps[dt_index], c->dt[dt_index], keep_series, c->n_probes,
                         c->nodes };
    double limit = c->external_timeout > 0.0 ? c->external_timeout : MB_PLUGIN_TIMEOUT_DEFAULT;
    double start = mb_wall_seconds();
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        fail(out, ask.steps, MB_RUN_FAILED, "plug-in: cannot create a pipe: %s", strerror(errno));
        return;
    }
    pid_t parent = getpid(), pid = mb_fork_whole();
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], parent, c, integrator, dt_index, keep_series, body);
    }
    close(fds[1]);
    if (pid < 0) {
        fail(out, ask.steps, MB_RUN_FAILED, "plug-in: cannot start a child process: %s",
             strerror(errno));
        close(fds[0]);
        return;
    }
    setpgid(pid, pid);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    inbox in = { NULL, 0, 0, sizeof(wire_header) + sizeof *out
                             + ((size_t)MB_SERIES_MAX_ROWS + 1) * sizeof(mb_series_sample)
                             + c->n_probes * c->nodes * MB_PROBE_VALUES * sizeof(double), 0, 0 };
    int ws = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    wait_end end = collect(pid, fds[0], start + limit, &in, &ws, &ru);
    close(fds[0]);
    if (!verdict(end, ws, &in, &ask, limit, out)) {     /* the child's own figures are lost */
        out->wall = mb_wall_seconds() - start;
        out->cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec)
                   + 1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    }
    free(in.buf);
}
