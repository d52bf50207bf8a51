/* test_fork.c -- the forks of mb_fork.h and the adapters' forks that use them.
 *
 * A fork handler counts (and writes a byte to a pipe) wherever it runs, so a test sees
 * whether a fork ran the libraries' handlers: a bare fork (an adapter's keeper and
 * process) must run none; a whole fork runs them, one thread at a time. */
#define _GNU_SOURCE    /* pipe2 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mb_clock.h"
#include "mb_external.h"
#include "mb_fork.h"

static volatile int prepared;          /* prepare handlers run in this process */
static int handler_pipe[2] = { -1, -1 };

static void on_prepare(void)
{
    prepared++;
    if (handler_pipe[1] >= 0) {
        ssize_t ignored = write(handler_pipe[1], "p", 1);   /* from whichever process */
        (void)ignored;
    }
}

static void register_handler(void)
{
    static int done;
    if (!done)
        cr_assert_eq(pthread_atfork(on_prepare, NULL, NULL), 0);
    done = 1;
}

static void reap(pid_t pid)
{
    int ws;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
}

/* mb_fork_bare runs no handler; mb_fork_whole runs it (the control: the handler is live) */
Test(fork, bare_runs_no_handler_whole_does)
{
    register_handler();
    int before = prepared;
    pid_t pid = mb_fork_bare();
    cr_assert_geq(pid, 0);
    if (pid == 0)
        _exit(0);
    reap(pid);
    cr_expect_eq(prepared, before, "mb_fork_bare ran a fork handler");
    pid = mb_fork_whole();
    cr_assert_geq(pid, 0);
    if (pid == 0)
        _exit(0);
    reap(pid);
    cr_expect_eq(prepared, before + 1, "mb_fork_whole did not run the fork handler");
}

/* Two threads: the first's handler holds on (up to 2 s) until the second thread's
 * mb_fork_whole has returned.  One thread at a time, the second cannot fork before the
 * first's fork is over, so the first's handler waits its whole 2 s and sees none; with two
 * forks at once it would see the second's (in well under 2 s, however loaded). */
static pthread_t first_thread;
static volatile int first_inside, second_forked, second_seen_inside;

static void on_prepare_slow(void)
{
    if (!pthread_equal(pthread_self(), first_thread))
        return;
    first_inside = 1;
    double end = mb_wall_seconds() + 2.0;
    while (!second_forked && mb_wall_seconds() < end) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    second_seen_inside = second_forked;
}

static void *second_forks(void *unused)
{
    (void)unused;
    while (!first_inside) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    pid_t pid = mb_fork_whole();
    if (pid == 0)
        _exit(0);
    second_forked = 1;
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return NULL;
}

Test(fork, whole_forks_one_thread_at_a_time)
{
    first_thread = pthread_self();
    cr_assert_eq(pthread_atfork(on_prepare_slow, NULL, NULL), 0);
    pthread_t second;
    cr_assert_eq(pthread_create(&second, NULL, second_forks, NULL), 0);
    pid_t pid = mb_fork_whole();
    cr_assert_geq(pid, 0);
    if (pid == 0)
        _exit(0);
    reap(pid);
    pthread_join(second, NULL);
    cr_expect_eq(second_seen_inside, 0,
                 "a second thread forked while the first was inside a fork handler");
    cr_expect_eq(second_forked, 1);
}

/* An adapter's run (motionbench's keeper, which forks the adapter) runs no fork handler in
 * motionbench or in the keeper: each would write a byte to the pipe. */
Test(fork, adapter_run_runs_no_handler)
{
    register_handler();
    cr_assert_eq(pipe2(handler_pipe, O_NONBLOCK), 0);
    char dir[] = "/tmp/mb-fork-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/quiet.adapter", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("[adapter]\nname = quiet\nprotocol = 1\ncommand = true\ntimeout = 60\n", f);
    fclose(f);
    mb_adapter *a = NULL;
    cr_assert_eq(mb_adapter_load(path, &a), 0);
    char reason[256] = "";
    mb_process_status st = mb_adapter_execute(a, dir, 60.0, 1 << 20, "trajectory.csv", reason,
                                              sizeof reason);
    cr_expect_eq(st, MB_PROCESS_OK, "%s", reason);
    char buf[8];
    ssize_t n = read(handler_pipe[0], buf, sizeof buf);
    cr_expect(n < 0 && errno == EAGAIN, "a fork handler ran %zd time(s) in the adapter's run",
              n);
    mb_adapter_free(a);
    close(handler_pipe[0]);
    close(handler_pipe[1]);
    handler_pipe[0] = handler_pipe[1] = -1;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}
