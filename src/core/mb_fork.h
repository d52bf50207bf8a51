/* mb_fork.h -- the forks of a multi-threaded motionbench (internal).
 *
 * fork() runs, in the forking thread, the handlers that libraries registered with
 * pthread_atfork.  OpenBLAS (loaded with CHOLMOD) registers one that takes its server
 * lock.  A thread that forks while another thread is inside that handler hands its child
 * the lock taken, and a child that then forks again (an adapter's keeper forks the
 * adapter) or leaves through exit() (a plug-in calling exit(): OpenBLAS's destructor takes
 * the same lock) waits for ever.  That was seen under load: a keeper asleep on OpenBLAS's
 * lock in its own fork, its run at the adapter's time limit.
 *
 * So a fork is one of two kinds:
 *   mb_fork_bare   a child that makes only async-signal-safe calls until it execs or
 *                  _exits (an adapter's keeper and process, a "requires" probe): _Fork(),
 *                  which runs no handler at all (POSIX.1-2024; glibc 2.34), fork() where the C
 *                  library lacks it;
 *   mb_fork_whole  a child that runs library code (a plug-in's run, gnuplot's argument
 *                  list): fork() with its handlers (glibc resets its malloc and stdio locks
 *                  in the child), one thread at a time, so that no thread is inside a
 *                  handler while another forks.
 * Both return as fork() does. */
#ifndef MB_FORK_H
#define MB_FORK_H

#include <sys/types.h>

pid_t mb_fork_bare(void);
pid_t mb_fork_whole(void);

#endif
