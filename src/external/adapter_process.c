/* adapter_process.c -- one execution of an adapter (doc/external.md, section 2).
 *
 * The command runs as COMMAND... run.json trajectory.csv in the run's private directory,
 * with stdin from /dev/null and stdout+stderr appended to adapter.log there, in a process
 * group of its own.  The parent polls for its end; at the time limit it sends SIGTERM to
 * the whole group, then SIGKILL 2 s later, and always reaps the child.  Everything the
 * child needs is prepared before fork(), so between fork and exec it calls only
 * async-signal-safe functions (the runner is multi-threaded).  The program is resolved
 * before anything runs so that "missing" and "not executable" are told apart. */
#include "mb_external.h"
#include "mb_cancel.h"
#include "mb_status.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KILL_GRACE 2.0        /* seconds between SIGTERM and SIGKILL */
#define EXIT_SKIP 77
#define EXIT_EXEC_FAILED 127

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* The last non-empty line of the log, quoted in reasons ("" when none). */
static void last_log_line(const char *dir, char *out, size_t size)
{
    char path[4200], buf[4096];
    snprintf(path, sizeof path, "%s/adapter.log", dir);
    out[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return;
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    long from = len > (long)sizeof buf - 1 ? len - (long)sizeof buf + 1 : 0;
    size_t n = 0;
    if (len > 0 && fseek(f, from, SEEK_SET) == 0)
        n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    const char *line = strrchr(buf, '\n');
    snprintf(out, size, "%s", line ? line + 1 : buf);
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
        snprintf(reason, rsize, "adapter %s: command '%s' not found on PATH", a->name, w);
        return MB_ENOTFOUND;
    }
    if (stat(prog, &sb) != 0) {
        snprintf(reason, rsize, "adapter %s: command '%s' not found (%s)", a->name, w, a->path);
        return MB_ENOTFOUND;
    }
    if (!S_ISREG(sb.st_mode) || access(prog, X_OK) != 0) {
        snprintf(reason, rsize, "adapter %s: command '%s' is not executable", a->name, w);
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

/* In the child: only async-signal-safe calls. */
static void child(const char *dir, const char *log, char *const *argv)
{
    setpgid(0, 0);
    if (chdir(dir) != 0)
        _exit(EXIT_EXEC_FAILED);
    int in = open("/dev/null", O_RDONLY);
    int out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(EXIT_EXEC_FAILED);
    execv(argv[0], argv);
    static const char msg[] = "motionbench: cannot execute the adapter's command\n";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
    _exit(EXIT_EXEC_FAILED);
}

/* Wait for pid until the deadline; 1 when it ended (status in *ws), 0 on time-out or on
 * a cancellation request (mb_cancel.h, polled every 50 ms at most). */
static int wait_until(pid_t pid, double deadline, int *ws)
{
    long ms = 1;
    for (;;) {
        pid_t r = waitpid(pid, ws, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return 1;
        if (now() >= deadline || mb_cancel_requested())
            return 0;
        pause_ms(ms);
        if (ms < 50)
            ms *= 2;
    }
}

static void kill_group(pid_t pid, int *ws)
{
    kill(-pid, SIGTERM);
    if (!wait_until(pid, now() + KILL_GRACE, ws)) {
        kill(-pid, SIGKILL);
        waitpid(pid, ws, 0);
    }
    kill(-pid, SIGKILL);    /* what the group left behind */
}

static mb_process_status verdict(const mb_adapter *a, const char *dir, int ws, char *reason,
                                 size_t size)
{
    char last[200];
    last_log_line(dir, last, sizeof last);
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0)
        return MB_PROCESS_OK;
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == EXIT_SKIP) {
        snprintf(reason, size, "adapter %s declined: %s", a->name,
                 last[0] ? last : "(no reason printed)");
        return MB_PROCESS_SKIPPED;
    }
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == EXIT_EXEC_FAILED && strstr(last, "motionbench:"))
        snprintf(reason, size, "adapter %s: command '%s' cannot be executed", a->name,
                 a->argv[0]);
    else if (WIFEXITED(ws))
        snprintf(reason, size, "adapter %s: exit status %d%s%s", a->name, WEXITSTATUS(ws),
                 last[0] ? ": " : "", last);
    else
        snprintf(reason, size, "adapter %s: killed by signal %d (%s)%s%s", a->name,
                 WTERMSIG(ws), strsignal(WTERMSIG(ws)), last[0] ? ": " : "", last);
    return MB_PROCESS_FAILED;
}

mb_process_status mb_adapter_execute(const mb_adapter *a, const char *dir, double timeout,
                                     char *reason, size_t size)
{
    char prog[8400], log[4200];
    if (resolve_program(a, prog, sizeof prog, reason, size) != MB_SUCCESS)
        return MB_PROCESS_FAILED;
    snprintf(log, sizeof log, "%s/adapter.log", dir);
    char **argv = calloc(a->argc + 3, sizeof *argv);
    if (argv == NULL) {
        snprintf(reason, size, "adapter %s: out of memory", a->name);
        return MB_PROCESS_FAILED;
    }
    argv[0] = prog;
    char (*args)[8400] = calloc(a->argc, sizeof *args);
    if (args == NULL) {
        free(argv);
        snprintf(reason, size, "adapter %s: out of memory", a->name);
        return MB_PROCESS_FAILED;
    }
    for (size_t k = 1; k < a->argc; k++)
        argv[k] = resolve_argument(a, a->argv[k], args[k], sizeof args[k]);
    argv[a->argc] = "run.json";
    argv[a->argc + 1] = "trajectory.csv";
    pid_t pid = fork();
    if (pid == 0)
        child(dir, log, argv);
    free(argv);
    free(args);
    if (pid < 0) {
        snprintf(reason, size, "adapter %s: cannot start a process: %s", a->name, strerror(errno));
        return MB_PROCESS_FAILED;
    }
    setpgid(pid, pid);
    int ws = 0;
    if (!wait_until(pid, now() + timeout, &ws)) {
        kill_group(pid, &ws);
        if (mb_cancel_requested())
            snprintf(reason, size, "adapter %s: interrupted (process group killed)", a->name);
        else
            snprintf(reason, size, "adapter %s: time limit of %g s exceeded (process group "
                     "killed)", a->name, timeout);
        return MB_PROCESS_FAILED;
    }
    kill(-pid, SIGKILL);    /* no process of the run outlives it */
    return verdict(a, dir, ws, reason, size);
}
