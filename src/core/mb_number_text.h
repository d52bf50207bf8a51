/* mb_number_text.h -- a double as the shortest text that reads back as the same double.
 *
 * Where a number is shown to a person and must still identify the value exactly (time
 * steps in messages and test names, option values in canonical integrator specs): the
 * fewest of 15, 16 or 17 significant digits (%.Ng) that strtod maps back to v, so 0.01
 * prints as "0.01" and not "0.010000000000000000208".  Reports keep %.17g throughout
 * (mb_report.h): their columns are read by programs. */
#ifndef MB_NUMBER_TEXT_H
#define MB_NUMBER_TEXT_H

#include <stddef.h>

/* Write the shortest round-trip text of v into out (snprintf semantics: returns the length
 * the text needs). */
int mb_number_text(char *out, size_t size, double v);

#endif
