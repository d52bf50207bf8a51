/* status.c -- thread-local error record behind MB_ERROR. */
#include "mb_status.h"
#include "mb_text.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_message[1024];   /* a run's message holds it (MB_RUN_MESSAGE) */
static _Thread_local char last_location[256];
static _Thread_local int last_code;

int mb_error_record(int code, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mb_text_vformat(last_message, sizeof last_message, fmt, ap);   /* a cut is marked */
    va_end(ap);
    snprintf(last_location, sizeof last_location, "%s:%d", file, line);
    last_code = code;
    return code;
}

const char *mb_last_error(void) { return last_message; }
int mb_last_error_code(void) { return last_code; }
const char *mb_last_error_location(void) { return last_location; }

void mb_clear_error(void)
{
    last_message[0] = '\0';
    last_location[0] = '\0';
    last_code = MB_SUCCESS;
}

const char *mb_strerror(int code)
{
    switch (code) {
    case MB_SUCCESS:   return "success";
    case MB_EFAILED:   return "failed";
    case MB_EINVAL:    return "invalid input";
    case MB_ENOMEM:    return "out of memory";
    case MB_ESINGULAR: return "singular system";
    case MB_EDIVERGED: return "diverged";
    case MB_EMAXITER:  return "iteration limit reached";
    case MB_ENOTFOUND: return "unknown name";
    case MB_EIO:       return "input/output error";
    case MB_EDOM:      return "parameter out of range";
    case MB_EEXIST:    return "name already taken";
    case MB_EUNSUP:    return "not supported";
    default:           return "unknown status";
    }
}
