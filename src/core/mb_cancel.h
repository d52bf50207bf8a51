/* mb_cancel.h -- cooperative cancellation of long computations.
 *
 * One process-wide flag, set from a signal handler (SIGINT, SIGTERM) or by a caller, and
 * polled by every long loop: the time-stepping loop of a run, the GSL ODE and MPFR
 * references, the MPFR twins, the implicit (Newton) solves.  A loop that sees it returns
 * MB_EFAILED with the message "interrupted", so the work stops within one iteration
 * (well under a second for every loop polled; see doc/hardening.md).  Polling is one load
 * of a volatile sig_atomic_t: cheap enough for inner loops.  Code added later (an
 * external-process runner, say) polls mb_cancel_requested() the same way. */
#ifndef MB_CANCEL_H
#define MB_CANCEL_H

/* 1 once cancellation was requested (by a caught signal or mb_cancel_request). */
int mb_cancel_requested(void);
/* Request cancellation (async-signal-safe: only stores the flag and the signal). */
void mb_cancel_request(int signal_number);
/* The signal that requested cancellation, 0 if none (or requested without a signal). */
int mb_cancel_signal(void);
/* Clear the flag (tests, or a caller that handled the request). */
void mb_cancel_reset(void);
/* Catch SIGINT, SIGTERM and SIGHUP with a handler that calls mb_cancel_request (no
 * SA_RESTART: a blocking read or write returns EINTR).  A command that writes files calls
 * it before it can write anything. */
void mb_cancel_catch_signals(void);
/* hold = 1: block SIGINT, SIGTERM and SIGHUP (they stay pending) while files are renamed
 * into place, so that a set of files is replaced as a whole; hold = 0: restore the mask
 * (a pending signal is then delivered to the handler).  Calls do not nest. */
void mb_cancel_hold(int hold);
/* Record "interrupted" as the last error and return MB_EFAILED: what a polled loop returns. */
int mb_cancel_error(void);

#endif
