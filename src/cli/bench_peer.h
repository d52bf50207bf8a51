/* bench_peer.h -- a peer benchmark in a child process: an outside program (built from
 * tools/peers/) that times one batch of its own steps and prints one rate.  The step
 * benchmarks call it inside their interleaved rounds, so that the peer and the library
 * are measured alternately in one run. */
#ifndef MB_BENCH_PEER_H
#define MB_BENCH_PEER_H

#include <stddef.h>

/* Run `program --rate N SECONDS` (no shell; stdin from /dev/null; the child's stderr is
 * passed on) and read the one number it prints on standard output: the node-steps/s of
 * one batch of at least SECONDS of CPU time on N nodes, timed by the child itself so its
 * set-up is not counted.  Returns that rate, or -1 with a message on standard error
 * naming the program when it cannot be started, exits with a status other than 0, or
 * prints anything but one finite positive number. */
double mb_bench_peer_rate(const char *program, size_t n, double seconds);

#endif
