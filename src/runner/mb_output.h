/* mb_output.h -- where an output file goes, and how it is replaced (doc/hardening.md).
 *
 * A path that does not exist or names a regular file is written atomically: a temporary
 * file in the same directory, renamed over the path only once it is complete, checked
 * and synced, so a failure or an interruption leaves the previous file as it was.
 * A path that names a character device, a FIFO or a socket (/dev/null, a named pipe, a
 * terminal) is written straight through: such files cannot be replaced, only fed.
 * A symbolic link is refused with a message (it is never replaced by a regular file,
 * and is not followed either: give its target), and so is a directory.
 * No path (NULL) is standard output, written straight through. */
#ifndef MB_OUTPUT_H
#define MB_OUTPUT_H

#include <stdio.h>

typedef struct mb_output {
    FILE *f;
    char *path;        /* as given, NULL for standard output */
    char *tmp;         /* temporary file of an atomic write, NULL when straight through */
} mb_output;

/* Create directory dir and its missing parents (mkdir -p); an existing one is kept.  An
 * empty name, one longer than 4095 characters or a directory that cannot be made is an
 * error naming it. */
int mb_output_make_dirs(const char *dir);

/* Open path (NULL: standard output) for writing as described above. */
int mb_output_open(mb_output *o, const char *path);
/* Everything but the rename: check every write, flush, sync and close the file (MB_EIO
 * with the reason, "cannot write PATH: No space left on device", the temporary removed).
 * After it only mb_output_close remains, which then only renames (ok) or drops the
 * temporary: a caller with several outputs prepares them all, then closes them all, so
 * that none is replaced unless every one was written.  Standard output is flushed. */
int mb_output_prepare(mb_output *o);
/* Finish: with ok, prepare (when not done) and rename into place (MB_EIO with a message
 * naming the path on any failure, the temporary removed); without ok, drop the temporary
 * and keep the previous file.  Standard output is flushed, not closed. */
int mb_output_close(mb_output *o, int ok);
/* A write to a pipe without reader fails with EPIPE from now on ("Broken pipe", reported
 * by the writer) instead of killing the process: for the commands that replace files
 * (run, check, score), which must not die between their temporaries and their renames.
 * A handler, not SIG_IGN, so that programs motionbench starts get the default back. */
void mb_output_catch_broken_pipe(void);
/* Flush f after any failed write and return the reason of the failure (an errno value,
 * e.g. ENOSPC), 0 when every write so far succeeded. */
int mb_output_flush_error(FILE *f);
/* Flush standard output and check every write to it so far ("cannot write standard
 * output: No space left on device"); a regular file is synced too. */
int mb_output_flush_stdout(void);

/* Flush and close standard output at exit, checking every write: MB_EIO with the reason
 * ("No space left on device") when any write to it failed. */
int mb_output_close_stdout(void);

/* The kind of what path names for atomic replacement: MB_SUCCESS when it does not exist
 * or is a regular file (*regular = 1 then, 0 when it does not exist), MB_EINVAL with a
 * message for a symbolic link or a directory; *direct = 1 for a device, FIFO or socket. */
int mb_output_target(const char *path, int *direct);

#endif
