/* mb_init.h -- process-wide set-up of libmotionbench, done once.
 *
 * GSL reports errors through one process-wide handler whose default aborts the program.
 * libmotionbench turns it off once, for the whole process, so that every GSL routine
 * returns its status and the library turns it into an MB_* status with a message.
 * Toggling the handler around each call would race with worker threads that are inside
 * GSL at that moment, so it is never toggled: mb_init() sets it through pthread_once.
 *
 * The library's entry points (scheme and problem allocation, the runner, the reference
 * solutions, the linear solvers) call mb_init() themselves; a program that calls GSL
 * before any of them and wants the same behaviour may call it first.  A program that
 * installs its own GSL handler after mb_init() takes the responsibility for it. */
#ifndef MB_INIT_H
#define MB_INIT_H

/* Idempotent and thread-safe; the work is done by the first call only. */
void mb_init(void);

#endif
