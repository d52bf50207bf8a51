/* adapter_process.c -- one execution of an adapter (doc/external.md, section 2;
 * doc/hardening.md).
 *
 * The command runs as COMMAND... run.json trajectory.csv in the run's private directory,
 * with stdin from /dev/null and stdout+stderr appended to adapter.log there.  Between
 * motionbench and the adapter stands a keeper process: it leads a process group of its own
 * and is a child subreaper (Linux prctl PR_SET_CHILD_SUBREAPER), so every descendant of
 * the adapter that leaves the group (setsid, a daemon's double fork) is re-parented to
 * it when its parent dies.  When the adapter has ended the keeper kills and reaps all its
 * remaining children (read from /proc/self/task/PID/children), round after round until
 * none is left, and hands the adapter's wait status to motionbench through a pipe; no
 * process of the run outlives it.  The parent polls the keeper; at the time limit or on
 * SIGINT/SIGTERM (mb_cancel.h) it sends SIGTERM to the group: the adapter gets it, the
 * keeper waits KILL_GRACE for the adapter, then SIGKILLs it and sweeps as above.  The keeper
 * asks for SIGTERM when motionbench dies (PR_SET_PDEATHSIG), so that even a motionbench
 * killed outright leaves no adapter running (its private directory then stays).
 * Every file the adapter (and anything it starts) writes is capped by RLIMIT_FSIZE at the
 * limit the caller gives (doc/limits.md); reaching it ends the run with that reason.
 * Everything the children need is prepared before the fork, so between fork and exec they
 * call only async-signal-safe functions (the runner is multi-threaded), and both forks
 * run no fork handler (mb_fork_bare, mb_fork.h: a library's handler half-run in another
 * thread once left the keeper asleep on OpenBLAS's lock in its own fork).  The program is
 * resolved before anything runs so that "missing" and "not executable" are told apart. */
#define _GNU_SOURCE    /* pipe2 */
#include "mb_external.h"
#include "mb_clock.h"
#include "mb_fork.h"
#include "mb_cancel.h"
#include "mb_input.h"
#include "mb_status.h"
#include "mb_text.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KILL_GRACE 2.0        /* seconds between SIGTERM and SIGKILL */
#define KEEPER_GRACE 3.0      /* the parent's wait for the keeper's sweep after that */
#define SWEEP_ROUNDS 2000     /* rounds of the keeper's sweep, 1 ms apart at most */
#define EXIT_SKIP 77
#define EXIT_EXEC_FAILED 127

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* A line of markers only (Python's ^^^^ and ~~~~ under the failing expression). */
static int marker_line(const char *line)
{
    return line[strspn(line, "^~ \t")] == '\0';
}

/* The last non-empty lines of the log (mb_external.h).  A failure is often explained a few
 * lines before the end -- a traceback ends in the exception's type alone when its message
 * is empty, an MPI layer prints its abort after the package's error, blank lines follow
 * both -- so a failed run quotes up to MB_ADAPTER_LOG_LINES lines, latest last, as many
 * whole lines as fit in size (the latest line alone is cut at its end); a declining
 * adapter's reason is its last line.  Lines are quoted without their indentation; lines
 * of markers alone (Python's ^^^^ under the failing expression) are passed over. */
void mb_adapter_log_tail(const char *dir, int max_lines, char *out, size_t size)
{
    char path[4200], buf[4096];
    snprintf(path, sizeof path, "%s/adapter.log", dir);
    out[0] = '\0';
    FILE *f = mb_input_open(path, MB_INPUT_ADAPTER_LOG);    /* a FIFO does not block */
    if (f == NULL) {
        mb_clear_error();
        return;
    }
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    long from = len > (long)sizeof buf - 1 ? len - (long)sizeof buf + 1 : 0;
    size_t n = 0;
    if (len > 0 && fseek(f, from, SEEK_SET) == 0)
        n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    for (size_t k = 0; k < n; k++)
        if (buf[k] == '\r' || buf[k] == '\0')
            buf[k] = '\n';
    const char *lines[8];
    int count = 0;
    for (char *end = buf + n; count < max_lines && end > buf;) {
        while (end > buf && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        char *start = end;
        while (start > buf && start[-1] != '\n')
            start--;
        start += strspn(start, " \t");          /* indentation says nothing */
        if (start < end && !marker_line(start))
            lines[count++] = start;
        end = start;
    }
    size_t used = 0;
    int first = count - 1;                 /* the earliest line that still fits */
    for (int k = 0; k < count; k++) {
        size_t need = strlen(lines[k]) + (k ? 3 : 0);
        if (k > 0 && used + need >= size)
            break;
        used += need;
        first = k;
    }
    for (int k = first; k >= 0; k--) {
        size_t at = strlen(out);
        mb_text_format(out + at, size - at, "%s%s", k == first ? "" : " | ", lines[k]);
    }
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 32)
            *p = ' ';
}

/* Resolve the program: a word with '/' or naming a file beside the descriptor is taken
 * relative to the descriptor's directory, any other word is looked up on PATH (here, so
 * that the child needs no search between fork and exec). */
static int resolve_program(const mb_adapter *a, char *prog, size_t size, char *reason,
                           size_t rsize)
{
    const char *w = a->argv[0];
    struct stat sb;
    char beside[8300];
    snprintf(beside, sizeof beside, "%s/%s", a->dir, w);
    if (w[0] == '/')
        snprintf(prog, size, "%s", w);
    else if (strchr(w, '/') || stat(beside, &sb) == 0)
        snprintf(prog, size, "%s", beside);
    else if (mb_find_on_path(w, prog, size))
        return MB_SUCCESS;             /* found on PATH, by the parent: the child calls execv */
    else {
        mb_text_format(reason, rsize, "adapter %s: command '%s' not found on PATH", a->name, w);
        return MB_ENOTFOUND;
    }
    if (stat(prog, &sb) != 0) {
        mb_text_format(reason, rsize, "adapter %s: command '%s' not found (%s)", a->name, w,
                       a->path);
        return MB_ENOTFOUND;
    }
    if (!S_ISREG(sb.st_mode) || access(prog, X_OK) != 0) {
        mb_text_format(reason, rsize, "adapter %s: command '%s' is not executable", a->name, w);
        return MB_EINVAL;
    }
    return MB_SUCCESS;
}

/* An argument naming a file relative to the descriptor's directory (a script, say)
 * becomes that file's path; any other argument is passed as written. */
static char *resolve_argument(const mb_adapter *a, char *word, char *buf, size_t size)
{
    struct stat sb;
    if (word[0] == '/' || (size_t)snprintf(buf, size, "%s/%s", a->dir, word) >= size
        || stat(buf, &sb) != 0)
        return word;
    return buf;
}

/* What the keeper and the adapter's process need, prepared before fork(). */
typedef struct launch {
    const char *dir, *log;
    char *const *argv;
    rlim_t file_cap;              /* RLIMIT_FSIZE of the adapter */
    pid_t parent;                 /* motionbench */
    int status_fd;                /* the keeper writes the adapter's wait status here */
} launch;

/* In the adapter's process: only async-signal-safe calls. */
static void adapter_child(const launch *L)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGTERM, &dfl, NULL);
    sigaction(SIGINT, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct rlimit cap = { L->file_cap, L->file_cap };
    if (chdir(L->dir) != 0 || setrlimit(RLIMIT_FSIZE, &cap) != 0)
        _exit(EXIT_EXEC_FAILED);
    int in = open("/dev/null", O_RDONLY);
    int out = open(L->log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(EXIT_EXEC_FAILED);
    execv(L->argv[0], L->argv);
    static const char msg[] = "motionbench: cannot execute the adapter's command\n";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
    _exit(EXIT_EXEC_FAILED);
}

static volatile sig_atomic_t keeper_stop;

static void keeper_on_signal(int sig)
{
    (void)sig;
    keeper_stop = 1;
}

/* "/proc/self/task/PID/children" of the (single-threaded) keeper, without stdio. */
static void children_path(char *path)
{
    static const char head[] = "/proc/self/task/", tail[] = "/children";
    char digits[24];
    int n = 0;
    for (long pid = (long)getpid(); pid > 0 || n == 0; pid /= 10)
        digits[n++] = (char)('0' + pid % 10);
    memcpy(path, head, sizeof head - 1);
    char *p = path + sizeof head - 1;
    while (n > 0)
        *p++ = digits[--n];
    memcpy(p, tail, sizeof tail);
}

/* SIGKILL every child listed for the keeper; the number listed, -1 when the list cannot
 * be read. */
static int kill_children(const char *path)
{
    char buf[4096];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n < 0)
        return -1;
    int count = 0;
    long pid = 0;
    for (ssize_t k = 0; k <= n; k++) {
        char c = k < n ? buf[k] : ' ';
        if (c >= '0' && c <= '9') {
            pid = 10 * pid + (c - '0');
        } else if (pid > 0) {
            kill((pid_t)pid, SIGKILL);
            count++;
            pid = 0;
        }
    }
    return count;
}

/* Kill and reap every process left under the keeper: the adapter's group, then its
 * children round after round (the children of a killed child are re-parented here). */
static void sweep(void)
{
    char path[64];
    children_path(path);
    for (int round = 0; round < SWEEP_ROUNDS; round++) {
        int listed = kill_children(path);
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (listed <= 0 && waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
            return;
        if (listed < 0)
            return;                          /* no list: only the group is killed */
        pause_ms(1);
    }
}

/* Wait for the adapter; on SIGTERM/SIGINT give it KILL_GRACE, then SIGKILL it. */
static int keeper_wait(pid_t pid)
{
    int ws = 0;
    while (!keeper_stop) {
        if (waitpid(pid, &ws, 0) == pid)
            return ws;
        if (errno != EINTR)
            return EXIT_EXEC_FAILED << 8;
    }
    double deadline = mb_wall_seconds() + KILL_GRACE;
    while (mb_wall_seconds() < deadline) {
        if (waitpid(pid, &ws, WNOHANG) == pid)
            return ws;
        pause_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &ws, 0);
    return ws;
}

/* The keeper: only async-signal-safe calls (prctl and setrlimit are system calls). */
static void keeper(const launch *L)
{
    setpgid(0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = keeper_on_signal;      /* no SA_RESTART: waitpid returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* motionbench killed outright (SIGKILL) still ends the adapter: SIGTERM to the keeper */
    prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
    if (getppid() != L->parent)
        keeper_stop = 1;
    pid_t pid = mb_fork_bare();      /* the adapter, no fork handler: mb_fork.h */
    if (pid == 0)
        adapter_child(L);
    int ws = pid < 0 ? EXIT_EXEC_FAILED << 8 : keeper_wait(pid);
    sweep();
    ssize_t ignored = write(L->status_fd, &ws, sizeof ws);
    (void)ignored;
    _exit(0);
}

/* Wait for pid until the deadline; 1 when it ended (status in *ws), 0 on time-out or,
 * when cancellable, on a cancellation request (mb_cancel.h, polled every 50 ms at most). */
static int wait_until(pid_t pid, double deadline, int cancellable, int *ws)
{
    long ms = 1;
    for (;;) {
        pid_t r = waitpid(pid, ws, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return 1;
        if (mb_wall_seconds() >= deadline || (cancellable && mb_cancel_requested()))
            return 0;
        pause_ms(ms);
        if (ms < 50)
            ms *= 2;
    }
}

/* SIGTERM to the group: the keeper ends the adapter and sweeps; SIGKILL only when the
 * keeper itself does not end. */
static void stop_group(pid_t keeper_pid, int *ws)
{
    kill(-keeper_pid, SIGTERM);
    if (!wait_until(keeper_pid, mb_wall_seconds() + KILL_GRACE + KEEPER_GRACE, 0, ws)) {
        kill(-keeper_pid, SIGKILL);
        waitpid(keeper_pid, ws, 0);
    }
}

/* The adapter's wait status as the keeper handed it over (the keeper's own when it did
 * not: killed before it could). */
static int adapter_status(int fd, int keeper_ws)
{
    int ws;
    return read(fd, &ws, sizeof ws) == (ssize_t)sizeof ws ? ws : keeper_ws;
}

/* adapter.log and the trajectory (.csv or .npy) must be regular files, the log below its cap (the file
 * cap, and the cap of mb_input.h for an adapter log): a FIFO or a device put there would
 * block or never end a read, a log at the limit was cut short.  (A trajectory too large
 * for the run is refused by its reader.) */
static int files_sound(const mb_adapter *a, const char *dir, rlim_t file_cap,
                       const char *trajectory, char *reason, size_t size)
{
    const char *const names[2] = { "adapter.log", trajectory };
    rlim_t log_cap = (rlim_t)mb_input_cap(MB_INPUT_ADAPTER_LOG);
    for (int k = 0; k < (a->protocol == 1 ? 2 : 1); k++) {   /* a batch's files: its reader */
        rlim_t cap = k == 0 && log_cap < file_cap ? log_cap : file_cap;
        char path[4200];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        if (lstat(path, &sb) != 0)
            continue;                  /* a missing trajectory is the reader's to name */
        if (!S_ISREG(sb.st_mode)) {
            mb_text_format(reason, size, "adapter %s: %s is not a regular file (%s): refused "
                           "unread", a->name, names[k], mb_file_kind_name(sb.st_mode));
            return 0;
        }
        if ((rlim_t)sb.st_size >= cap) {
            mb_text_format(reason, size, "adapter %s: %s reached the size limit of %llu bytes "
                           "(RLIMIT_FSIZE, doc/limits.md)", a->name, names[k],
                           (unsigned long long)cap);
            return 0;
        }
    }
    return 1;
}

static mb_process_status verdict(const mb_adapter *a, const char *dir, int ws, char *reason,
                                 size_t size)
{
    char last[200];
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0)
        return MB_PROCESS_OK;
    mb_adapter_log_tail(dir, WIFEXITED(ws) && WEXITSTATUS(ws) == EXIT_SKIP ? 1
                             : MB_ADAPTER_LOG_LINES, last, sizeof last);
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == EXIT_SKIP) {
        mb_text_format(reason, size, "adapter %s declined: %s", a->name,
                       last[0] ? last : "(no reason printed)");
        return MB_PROCESS_SKIPPED;
    }
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == EXIT_EXEC_FAILED && strstr(last, "motionbench:"))
        mb_text_format(reason, size, "adapter %s: command '%s' cannot be executed", a->name,
                       a->argv[0]);
    else if (WIFEXITED(ws))
        mb_text_format(reason, size, "adapter %s: exit status %d%s%s", a->name, WEXITSTATUS(ws),
                       last[0] ? ": " : "", last);
    else
        mb_text_format(reason, size, "adapter %s: killed by signal %d (%s)%s%s", a->name,
                       WTERMSIG(ws), strsignal(WTERMSIG(ws)), last[0] ? ": " : "", last);
    return MB_PROCESS_FAILED;
}

/* Fork the keeper (which forks the adapter); its pid, or -1 with errno set. */
static pid_t start_keeper(launch *L, int *status_rd)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
        return -1;
    L->status_fd = fds[1];
    pid_t pid = mb_fork_bare();      /* no fork handler: mb_fork.h */
    if (pid == 0)
        keeper(L);
    int e = errno;
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        errno = e;
        return -1;
    }
    setpgid(pid, pid);
    *status_rd = fds[0];
    return pid;
}

mb_process_status mb_adapter_execute(const mb_adapter *a, const char *dir, double timeout,
                                     size_t file_cap, const char *trajectory, char *reason,
                                     size_t size)
{
    char prog[8400], log[4200];
    if (resolve_program(a, prog, sizeof prog, reason, size) != MB_SUCCESS)
        return MB_PROCESS_FAILED;
    snprintf(log, sizeof log, "%s/adapter.log", dir);
    char **argv = calloc(a->argc + 3, sizeof *argv);
    char (*args)[8400] = calloc(a->argc, sizeof *args);
    if (argv == NULL || args == NULL) {
        free(argv);
        free(args);
        mb_text_format(reason, size, "adapter %s: out of memory", a->name);
        return MB_PROCESS_FAILED;
    }
    argv[0] = prog;
    for (size_t k = 1; k < a->argc; k++)
        argv[k] = resolve_argument(a, a->argv[k], args[k], sizeof args[k]);
    argv[a->argc] = a->protocol == 1 ? "run.json" : MB_BATCH_RUNS;
    argv[a->argc + 1] = a->protocol == 1 ? (char *)trajectory : MB_BATCH_DIR;
    launch L = { dir, log, argv, (rlim_t)file_cap, getpid(), -1 };
    int status_rd = -1;
    pid_t pid = start_keeper(&L, &status_rd);
    int e = errno;
    free(argv);
    free(args);
    if (pid < 0) {
        mb_text_format(reason, size, "adapter %s: cannot start a process: %s", a->name,
                       strerror(e));
        return MB_PROCESS_FAILED;
    }
    int ws = 0;
    int ended = wait_until(pid, mb_wall_seconds() + timeout, 1, &ws);
    if (!ended)
        stop_group(pid, &ws);
    ws = adapter_status(status_rd, ws);
    close(status_rd);
    kill(-pid, SIGKILL);    /* what the group left behind, should the keeper have died */
    if (!ended && mb_cancel_requested())
        mb_text_format(reason, size, "adapter %s: interrupted (process group killed)", a->name);
    else if (!ended)
        mb_text_format(reason, size, "adapter %s: time limit of %g s exceeded (process group "
                       "killed)", a->name, timeout);
    if (!ended)
        return MB_PROCESS_FAILED;
    if (!files_sound(a, dir, (rlim_t)file_cap, trajectory, reason, size))
        return MB_PROCESS_FAILED;
    return verdict(a, dir, ws, reason, size);
}
