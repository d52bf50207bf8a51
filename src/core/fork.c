/* fork.c -- the forks of a multi-threaded motionbench (mb_fork.h): a bare one that runs
 * no fork handler, and a whole one, with the handlers, one thread at a time. */
#define _GNU_SOURCE
#include "config.h"
#include "mb_fork.h"

#include <pthread.h>
#include <unistd.h>

pid_t mb_fork_bare(void)
{
#ifdef HAVE__FORK
    return _Fork();
#else
    return fork();
#endif
}

static pthread_mutex_t whole_fork = PTHREAD_MUTEX_INITIALIZER;

pid_t mb_fork_whole(void)
{
    pthread_mutex_lock(&whole_fork);
    pid_t pid = fork();
    if (pid == 0) {    /* the child's one thread: the lock as it was before anyone took it */
        pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
        whole_fork = fresh;
        return 0;
    }
    pthread_mutex_unlock(&whole_fork);
    return pid;
}
