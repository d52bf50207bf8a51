/* mb_input.h -- shared rules for reading numbers, precisions and input files.
 *
 * One place for what the CLI, case files and report readers accept, so their limits
 * cannot drift apart:
 *  - a number parsed by strtod is refused on overflow, and on underflow only when it
 *    rounds to zero: subnormal values such as 4.9e-324 are exact doubles and are accepted;
 *  - an MPFR precision is mpfr:BITS with MB_PRECISION_MIN_BITS <= BITS <= MB_PRECISION_MAX_BITS
 *    (16: below it no scheme of the bench has a meaningful twin; 100000: the documented
 *    maximum, see doc/limits.md for its cost);
 *  - a file is read only when it is a regular file, and never beyond the cap of its kind
 *    (mb_input_open, mb_input_read_all; caps in doc/limits.md); a file kind is named for
 *    messages that refuse devices, FIFOs and the like.
 * Numbers and precisions: input_numbers.c; files: input_files.c. */
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

/* Kinds of input file, each with its cap (bytes) in one table (input_files.c), stated in
 * doc/limits.md.  A reader names its kind; a new kind of input adds a row there. */
typedef enum mb_input_kind {
    MB_INPUT_CASE,          /* a case file (NAME.case) */
    MB_INPUT_SCENE,         /* a scene file named by a case or simulate */
    MB_INPUT_DESCRIPTOR,    /* an adapter descriptor (*.adapter) */
    MB_INPUT_TRAJECTORY,    /* trajectory.csv of an adapter, a file given to score */
    MB_INPUT_ADAPTER_LOG,   /* adapter.log */
    MB_INPUT_METRICS,       /* metrics.csv of a report or a baseline */
    MB_INPUT_RUNS,          /* runs.csv of a report */
    MB_INPUT_CHECKS,        /* checks.csv of a report */
    MB_INPUT_SERIES,        /* a series file (series/NAME.csv) of a report */
    MB_INPUT_PEER_LOG,      /* the log of a peer program run by bench (LAMMPS) */
    MB_INPUT_CASES,         /* cases.csv of a report */
    MB_INPUT_TIMING,        /* timing.csv of a report */
    MB_INPUT_KINDS
} mb_input_kind;

/* The cap of a kind in bytes. */
size_t mb_input_cap(mb_input_kind kind);
/* Set the cap of a trajectory (the one cap a user may change: --trajectory-limit of run
 * and score, named by `option` in the refusals) to bytes in [MB_INPUT_CAP_MIN,
 * MB_INPUT_CAP_MAX]; the other kinds are fixed (MB_EINVAL).  Set once, before any file is
 * read (not thread-safe). */
#define MB_INPUT_CAP_MIN ((size_t)1 << 10)
#define MB_INPUT_CAP_MAX ((size_t)1 << 40)
int mb_input_set_cap(mb_input_kind kind, size_t bytes, const char *option);

/* Read the whole of PATH, refusing anything but a regular file before a byte is read
 * (opened with O_NONBLOCK, checked with fstat: a FIFO does not block, a device such as
 * /dev/zero is not read forever) and anything larger than the cap of KIND, checked on
 * fstat and again while reading (a file growing under the reader).  *buf (free it) holds
 * *length bytes and a terminating NUL.  On failure *buf is NULL and the message is one of
 *   "PATH: cannot open: REASON"                                             (MB_EIO)
 *   "PATH: not a regular file (FIFO): WHAT must be a regular file"          (MB_EINVAL)
 *   "PATH: larger than N bytes (the cap for WHAT, doc/limits.md)"           (MB_EINVAL)
 *   "PATH: cannot read: REASON"                                             (MB_EIO) */
int mb_input_read_all(const char *path, mb_input_kind kind, char **buf, size_t *length);
/* The same file as a read-only stream (fclose releases it; fseek/ftell work): every
 * stream reader (the INI reader of mb_ini.h, the CSV readers) opens its input here.  NULL
 * with the message of mb_input_read_all recorded. */
FILE *mb_input_open(const char *path, mb_input_kind kind);

#endif
