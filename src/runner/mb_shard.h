/* mb_shard.h -- a case set cut into shards and put together again (doc/cluster.md).
 *
 * A work unit is one run: one integrator at one time step of one case.  Nothing in a run
 * depends on another run (the MPFR twin of a run is part of that run; the orders over the
 * dt list are fitted at merge), so no coarser unit is needed.  Units are numbered in report
 * order (case, integrator, dt) and named "CASE:A:J" (integrator index A and dt index J of
 * the case file, from 0).
 *
 * The partition into N shards is deterministic: units sorted by estimated cost (largest
 * first, report order among equals) go one by one to the shard with the least estimated
 * cost so far (the lowest-numbered among equals): Graham's longest-processing-time rule,
 * whose largest shard is at most 4/3 of the optimum.  The cost of a unit is
 * mb_unit_cost().
 *
 * A shard directory holds runs.csv and timing.csv of its units, series/ with --series,
 * shard.txt (the manifest) and units.txt (the exact results); merge checks every manifest
 * and rebuilds the report from units.txt. */
#ifndef MB_SHARD_H
#define MB_SHARD_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "mb_build.h"
#include "mb_case.h"
#include "mb_runner.h"
#include "mb_sha256.h"

#define MB_SHARD_MAX 100000          /* largest N of --shard K/N */
#define MB_SHARD_FORMAT 2            /* version of shard.txt and units.txt (2: a run's
                                        message up to MB_RUN_MESSAGE - 1 = 1023 bytes;
                                        1: 255) */

/* Parse "K/N" (1 <= K <= N <= MB_SHARD_MAX). */
int mb_shard_parse(const char *text, unsigned *k, unsigned *n);

/* Estimated cost of run (integrator a, dt j) of c, in node-steps of a double scheme:
 *   nodes x steps x (1 + 2 r(bits)) for an MPFR twin at `bits` (the run and its
 *   round-off/truncation split both step in MPFR), r(bits) = 20 + bits / 8 (the measured
 *   CPU ratio of a twin step to a double step, 21-54 from 53 to 256 bits, doc/references.md);
 *   nodes x steps + MB_EXTERNAL_STARTUP for an outside program (its start-up).
 *   nodes x steps otherwise. */
double mb_unit_cost(const mb_case *c, size_t a, size_t j);
#define MB_EXTERNAL_STARTUP 2e7      /* about 1 s at 50 ns per node-step */

/* Runs of the cases, the number of units. */
size_t mb_units_count(mb_case *const *cases, size_t n);
/* Unit id "CASE:A:J" into buf. */
void mb_unit_id(const mb_case *c, size_t a, size_t j, char *buf, size_t size);

/* The shard (0 .. n_shards-1) of every unit in report order (*shard_of allocated, free
 * it); *cost receives the estimated cost of each shard when not NULL (n_shards values,
 * allocated). */
int mb_shard_partition(mb_case *const *cases, size_t n, unsigned n_shards,
                       unsigned **shard_of, double **cost);

/* ---- manifest (shard_manifest.c) ---- */

/* The options of `run` that change what is computed; shards merge only when they agree. */
typedef struct mb_shard_options {
    int series;
    double timeout;                   /* --timeout, 0: not given */
    size_t n_adapters;
    const char *const *adapters;      /* --adapters directories, as given */
    size_t n_plugins;
    const char *const *plugins;       /* --plugin files, as given (hashed in the manifest) */
} mb_shard_options;

/* The content hash of a case: SHA-256 of the SHA-256 of its file and of the files its
 * parameters name (mb_problem_inputs_hash: a scene file). */
int mb_shard_case_hash(const mb_case *c, char hex[MB_SHA256_HEX]);

/* Write shard.txt of shard k (0-based) of n_shards: format, build, the SHA-256 of
 * units.txt, options, every case (name, SHA-256, path as given, absolute path) and the ids
 * of the units of the shard (select[u] != 0). */
int mb_shard_manifest_write(FILE *f, mb_case *const *cases, size_t n, unsigned k,
                            unsigned n_shards, const mb_shard_options *opt,
                            const unsigned char *select, const char *units_sha256);

/* A manifest as read back (doc/cluster.md gives the format). */
typedef struct mb_shard_case { char *name, *sha256, *path, *abs_path; } mb_shard_case;
typedef struct mb_shard_manifest {
    char *dir;                        /* the shard directory, for messages */
    char *build;
    unsigned k, n;                    /* shard k of n, 1-based as on the command line */
    char units_sha256[MB_SHA256_HEX];
    int series;
    size_t n_options;
    char **options;                   /* every "option" line, as written */
    size_t n_plugins;
    mb_shard_case *plugins;           /* --plugin files: sha256 and path (name unused) */
    size_t n_adapters;
    char **adapters;
    size_t n_cases;
    mb_shard_case *cases;
    size_t n_units;
    char **units;                     /* unit ids in report order */
} mb_shard_manifest;

/* Read DIR/shard.txt; MB_EINVAL naming file:line on anything malformed. */
int mb_shard_manifest_read(const char *dir, mb_shard_manifest *m);
void mb_shard_manifest_free(mb_shard_manifest *m);

/* Write shard directory dir of shard k (0-based) of n_shards: runs.csv, timing.csv,
 * series/ (opt->series) of the selected runs, units.txt and shard.txt, all renamed into
 * place together (shard_write.c). */
int mb_shard_write(const char *dir, mb_case *const *cases, size_t n, const mb_case_result *r,
                   unsigned k, unsigned n_shards, const mb_shard_options *opt,
                   const unsigned char *select);

/* ---- text lines of shard.txt and units.txt (shard_manifest.c) ---- */

/* The next line of f into *buf (getline's buffer, *cap its size) without its '\n', and
 * *line counted; its length, or -1 at the end of the file (*line as it was). */
ssize_t mb_shard_line_read(FILE *f, char **buf, size_t *cap, long *line);
/* Split line (modified) at its TABs into at most max fields; how many. */
int mb_shard_line_split(char *line, char **fields, int max);

/* ---- exact results (unit_record.c) ---- */

/* One unit's result as text lines that read back bit for bit (hexadecimal floats). */
void mb_unit_record_write(FILE *f, const mb_case *c, size_t a, size_t j,
                          const mb_run_result *u);
/* Read the rest of a record, after its "unit" line, into u (u->series allocated when
 * the run kept samples).  *line counts lines for messages. */
int mb_unit_record_read(FILE *f, const char *path, long *line, mb_run_result *u);

/* ---- merge (shard_merge.c) ---- */

/* Check the shards' manifests against each other and this build, load the cases, rebuild
 * every run from the units and fit the orders: *cases (n_cases) and *results as
 * mb_runner_run gives them.  Errors name the shard directory (MB_EINVAL: shards that do
 * not belong together or lack units). *series: the shards kept series. */
int mb_shard_merge(const char *const *dirs, size_t n_dirs, mb_case ***cases, size_t *n_cases,
                   mb_case_result **results, int *series);

#endif
