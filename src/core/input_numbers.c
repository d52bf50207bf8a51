/* input_numbers.c -- numbers and precisions as every reader accepts them (mb_input.h). */
#include "mb_input.h"
#include "mb_status.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int mb_strtod_in_range(double v)
{
    if (errno != ERANGE)
        return 1;
    /* C11 7.22.1.3: ERANGE on overflow (HUGE_VAL) or when the result underflows; an
     * underflow that still gives a nonzero (subnormal) value is representable */
    return v != 0.0 && isfinite(v);
}

int mb_precision_parse(const char *text, long *bits)
{
    if (strcmp(text, "double") == 0) {
        *bits = 0;
        return MB_SUCCESS;
    }
    if (strncmp(text, "mpfr:", 5) != 0)
        MB_ERROR(MB_EINVAL, "precision = '%s': write double or mpfr:BITS", text);
    char *end;
    errno = 0;
    long b = strtol(text + 5, &end, 10);
    if (end == text + 5 || *end != '\0' || errno == ERANGE)
        MB_ERROR(MB_EINVAL, "precision bits = '%s' is not a whole number", text + 5);
    if (b < MB_PRECISION_MIN_BITS || b > MB_PRECISION_MAX_BITS)
        MB_ERROR(MB_EINVAL, "precision bits = %ld is out of range [%ld, %ld]", b,
                 MB_PRECISION_MIN_BITS, MB_PRECISION_MAX_BITS);
    *bits = b;
    return MB_SUCCESS;
}
