/* bench_peer.c -- one batch of a peer benchmark program, run as a child (bench_peer.h). */
#include "bench_peer.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: stdin from /dev/null, stdout to the pipe, then exec; never returns. */
static void exec_peer(const char *program, char *const argv[], int out_fd)
{
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0)
        dup2(null_fd, STDIN_FILENO);
    dup2(out_fd, STDOUT_FILENO);
    execvp(program, argv);
    fprintf(stderr, "motionbench bench: cannot run peer '%s': %s\n", program, strerror(errno));
    _exit(127);
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
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        exec_peer(program, argv, fds[1]);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        fprintf(stderr, "motionbench bench: cannot start peer '%s': %s\n", program, strerror(errno));
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
