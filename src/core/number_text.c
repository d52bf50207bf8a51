/* number_text.c -- the shortest round-trip text of a double (mb_number_text.h). */
#include "mb_number_text.h"

#include <stdio.h>
#include <stdlib.h>

int mb_number_text(char *out, size_t size, double v)
{
    for (int digits = 15; digits < 17; digits++) {
        char buf[40];
        snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return snprintf(out, size, "%s", buf);
    }
    return snprintf(out, size, "%.17g", v);
}
