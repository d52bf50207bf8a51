/* mb_reference_cache.h -- references kept on disk and reused (doc/cluster.md).
 *
 * With a cache directory set, mb_reference_states() looks up the ode and mpfr references
 * (closed forms cost less than reading a file and are always evaluated) under the SHA-256
 * of their key: this build's identity, the problem, every parameter, the method and its
 * precision, the node count and the times.  An entry holds its key, the estimates and the
 * states, and ends with the SHA-256 of everything before it; one that does not check out
 * (damaged, truncated, another key) is recomputed and replaced, with a note on stderr, never
 * used.  Entries are written to a temporary file of the directory and renamed into place, so
 * shards sharing the directory never read a partial entry; two writing the same entry write
 * the same bytes. */
#ifndef MB_REFERENCE_CACHE_H
#define MB_REFERENCE_CACHE_H

#include "mb_nodes.h"
#include "mb_problem.h"
#include "mb_reference.h"

/* Use dir (created if missing) from now on; NULL turns the cache off.  Not thread-safe:
 * call before running. */
int mb_reference_cache_set(const char *dir);
const char *mb_reference_cache_dir(void);

/* The states of a resolved `kind` reference from the cache: 1 when found valid (outs and
 * err filled), 0 when absent or refused (a note on stderr for a refused entry). */
int mb_reference_cache_get(const mb_problem_type *pt, const mb_options *params,
                           mb_reference_kind kind, long bits, size_t n, const double *times,
                           mb_nodes *const *outs, double *err);
/* Store them (failures are a note on stderr: the run goes on without the entry). */
void mb_reference_cache_put(const mb_problem_type *pt, const mb_options *params,
                            mb_reference_kind kind, long bits, size_t n, const double *times,
                            mb_nodes *const *outs, const double *err);

#endif
