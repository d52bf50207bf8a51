/* mb_input.h -- shared rules for reading numbers, precisions and input files.
 *
 * One place for what the CLI, case files and report readers accept, so their limits
 * cannot drift apart:
 *  - a number parsed by strtod is refused on overflow, and on underflow only when it
 *    rounds to zero: subnormal values such as 4.9e-324 are exact doubles and are accepted;
 *  - an MPFR precision is mpfr:BITS with MB_PRECISION_MIN_BITS <= BITS <= MB_PRECISION_MAX_BITS
 *    (16: below it no scheme of the bench has a meaningful twin; 100000: the documented
 *    maximum, see doc/limits.md for its cost);
 *  - a file kind is named for messages that refuse devices, FIFOs and the like. */
#ifndef MB_INPUT_H
#define MB_INPUT_H

#include <stdio.h>
#include <sys/types.h>

#define MB_PRECISION_MIN_BITS 16L
#define MB_PRECISION_MAX_BITS 100000L

/* After v = strtod(...) with errno cleared: 0 when errno reports an overflow or an
 * underflow to zero, 1 otherwise (subnormal results are in range). */
int mb_strtod_in_range(double v);
/* "double" -> 0 bits; "mpfr:BITS" -> BITS in [MIN, MAX].  MB_EINVAL with a message
 * naming the text and the limits otherwise. */
int mb_precision_parse(const char *text, long *bits);
/* "regular file", "directory", "character device", "block device", "FIFO", "socket",
 * "symbolic link" or "special file" for a st_mode. */
const char *mb_file_kind_name(mode_t mode);

/* Open an input text file for reading, refusing anything but a regular file before a
 * byte is read (opened with O_NONBLOCK, checked with fstat: a FIFO does not block, a
 * device such as /dev/zero is not read forever).  NULL with the message
 * "PATH: not a regular file (FIFO): WHAT must be a regular file" or "PATH: cannot open:
 * ..." recorded. */
FILE *mb_input_open_regular(const char *path, const char *what);
/* fgets for text in any line-end convention: a line ends at LF, CR LF or a lone CR and is
 * returned ending in "\n".  *pending_cr carries a CR seen at the end of the previous call
 * (start at 0); *nul (may be NULL) is set to 1 when the line holds a NUL byte.  The line
 * length is stored in *length (may be NULL).  NULL at the end of the file. */
char *mb_input_read_line(FILE *f, char *str, int num, int *pending_cr, int *nul,
                         size_t *length);

#endif
