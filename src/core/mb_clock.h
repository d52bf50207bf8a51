/* mb_clock.h -- the reading of a clock as seconds in one double (internal): the monotonic
 * wall clock (CLOCK_MONOTONIC) of the runner's timings, time-outs and progress, and the
 * CPU time of a thread (CLOCK_THREAD_CPUTIME_ID) of its timings. */
#ifndef MB_CLOCK_H
#define MB_CLOCK_H

#include <time.h>

/* Seconds on clock id (its epoch: only differences mean anything). */
static inline double mb_clock_seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds of wall time (CLOCK_MONOTONIC: no jumps when the system's time is set). */
static inline double mb_wall_seconds(void)
{
    return mb_clock_seconds(CLOCK_MONOTONIC);
}

/* Seconds of CPU time of the calling thread. */
static inline double mb_cpu_seconds(void)
{
    return mb_clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

#endif
