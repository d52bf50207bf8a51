/* mb_status.h -- status codes and the error convention of libmotionbench.
 *
 * Every fallible function returns an int status: MB_SUCCESS (0) or a negative code.
 * MB_ERROR(code, fmt, ...) records a formatted message with file and line in a
 * thread-local slot and returns the code, so a breakpoint on mb_error_record catches
 * every error (the GSL_ERROR habit).  Nothing aborts. */
#ifndef MB_STATUS_H
#define MB_STATUS_H

#include <stddef.h>

enum mb_status {
    MB_SUCCESS   = 0,
    MB_EFAILED   = -1,  /* generic failure */
    MB_EINVAL    = -2,  /* invalid argument or input */
    MB_ENOMEM    = -3,  /* allocation failed */
    MB_ESINGULAR = -4,  /* singular or indefinite linear system */
    MB_EDIVERGED = -5,  /* NaN or Inf produced, or blow-up */
    MB_EMAXITER  = -6,  /* iteration limit reached without convergence */
    MB_ENOTFOUND = -7,  /* unknown name */
    MB_EIO       = -8,  /* file input/output */
    MB_EDOM      = -9,  /* parameter out of its domain */
    MB_EUNSUP    = -10, /* operation not supported by this object */
    MB_EEXIST    = -11  /* name already taken (e.g. a stepper registered twice) */
};

/* Record an error: message formatted printf-style, with source location. */
int mb_error_record(int code, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define MB_ERROR(code, ...) \
    return mb_error_record((code), __FILE__, __LINE__, __VA_ARGS__)

/* Record without returning (for functions that return pointers). */
#define MB_ERROR_NULL(code, ...) \
    do { mb_error_record((code), __FILE__, __LINE__, __VA_ARGS__); return NULL; } while (0)

/* The last recorded message of this thread ("" if none) and its code. */
const char *mb_last_error(void);
int mb_last_error_code(void);
const char *mb_last_error_location(void);
void mb_clear_error(void);

/* Short name of a status code ("singular", "diverged", ...). */
const char *mb_strerror(int code);

#endif
