/* bench_peer.c -- one batch of a peer benchmark program, run as a child (bench_peer.h). */
#include "bench_peer.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Start the child with stdin from /dev/null and stdout into the pipe fds.  posix_spawn,
 * not fork: a fork would mark every page of this process copy-on-write, and the
 * benchmark's next writes to its (gigabyte) arrays would fault page by page inside the
 * timed batches.  0, or the error number. */
static int spawn_peer(pid_t *pid, const char *program, char *const argv[], const int fds[2])
{
    posix_spawn_file_actions_t actions;
    int err = posix_spawn_file_actions_init(&actions);
    if (err != 0)
        return err;
    err = posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (err == 0)
        err = posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    if (err == 0)
        err = posix_spawn_file_actions_addclose(&actions, fds[0]);
    if (err == 0)
        err = posix_spawnp(pid, program, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    return err;
}

/* Read what the child prints (at most size - 1 bytes) and wait for it; its exit status,
 * or -1 when it did not exit normally. */
static int collect(pid_t pid, int in_fd, char *text, size_t size)
{
    size_t len = 0;
    ssize_t got;
    while ((got = read(in_fd, text + len, size - 1 - len)) > 0 || (got < 0 && errno == EINTR))
        if (got > 0 && (len += (size_t)got) == size - 1)
            break;
    text[len] = '\0';
    close(in_fd);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

double mb_bench_peer_rate(const char *program, size_t n, double seconds)
{
    char nodes[32], slice[32], text[256];
    snprintf(nodes, sizeof nodes, "%zu", n);
    snprintf(slice, sizeof slice, "%.6g", seconds);
    char *const argv[] = { (char *)program, "--rate", nodes, slice, NULL };
    int fds[2];
    if (pipe(fds) != 0) {
        fprintf(stderr, "motionbench bench: cannot make a pipe for peer '%s': %s\n", program,
                strerror(errno));
        return -1.0;
    }
    pid_t pid;
    int err = spawn_peer(&pid, program, argv, fds);
    close(fds[1]);
    if (err != 0) {
        close(fds[0]);
        fprintf(stderr, "motionbench bench: cannot run peer '%s': %s\n", program, strerror(err));
        return -1.0;
    }
    int status = collect(pid, fds[0], text, sizeof text);
    char *end = NULL;
    double rate = strtod(text, &end);
    while (*end == '\n' || *end == ' ')
        end++;
    if (status != 0) {
        fprintf(stderr, "motionbench bench: peer '%s --rate %s %s' %s %d\n", program, nodes,
                slice, status < 0 ? "was killed, status" : "exited with status", status);
        return -1.0;
    }
    if (end == text || *end != '\0' || !isfinite(rate) || !(rate > 0.0)) {
        fprintf(stderr, "motionbench bench: peer '%s --rate %s %s' did not print one positive "
                "rate (it printed \"%.60s\")\n", program, nodes, slice, text);
        return -1.0;
    }
    return rate;
}
