/* mb_report.h -- CSV report files (DESIGN 8, doc/runner.md).
 *
 * RFC 4180: a header row, CRLF line ends, fields quoted when they hold a comma, a quote
 * or a line break (quotes doubled).  Numbers are printed with %.17g (round-trip exact,
 * so equal inputs give byte-identical files); NaN prints as "nan".
 * Every file is written under a temporary name in its final directory and renamed into
 * place only when complete, so an interrupted run leaves the previous report intact. */
#ifndef MB_REPORT_H
#define MB_REPORT_H

#include <stdio.h>

#include "mb_runner.h"

/* ---- CSV primitives ---- */
void mb_csv_text(FILE *f, const char *s);
void mb_csv_number(FILE *f, double v);
void mb_csv_sep(FILE *f);
void mb_csv_end(FILE *f);

/* A file being written: temporary path, final path. */
typedef struct mb_atomic_file {
    FILE *f;
    char *tmp, *final;
} mb_atomic_file;
int mb_atomic_open(mb_atomic_file *a, const char *dir, const char *name);
/* Flush, sync and close; the rename happens in mb_atomic_commit. */
int mb_atomic_close(mb_atomic_file *a);
int mb_atomic_commit(mb_atomic_file *a);
void mb_atomic_discard(mb_atomic_file *a);

/* Remove ".NAME.tmp.PID" files of dir whose process is gone (stale_tmp.c); returns
 * how many were removed. */
size_t mb_report_clean_stale(const char *dir);

/* ---- the reports ---- */
typedef struct mb_report_summary {
    size_t checks, failed, missing;
    size_t skipped;              /* checks on runs of outside programs that were skipped */
    size_t external_failed;      /* runs of outside programs that failed (doc/external.md) */
} mb_report_summary;

/* The files of a report written under temporary names, complete, checked and synced,
 * waiting to be renamed into place (mb_report_commit) or removed (mb_report_discard). */
typedef struct mb_report_files {
    size_t n, cap;
    mb_atomic_file *items;
} mb_report_files;

/* Evaluate the expectations and write runs.csv, metrics.csv, checks.csv, timing.csv
 * (probes.csv when a case has probe times, series/ when kept) into dir (created if missing) under temporary names; nothing
 * is replaced yet.  On failure (a write error with its reason, or a cancellation
 * request) nothing is left behind. */
int mb_report_prepare(const char *dir, const mb_case_result *r, size_t n, int series,
                      mb_report_summary *summary, mb_report_files *files);
/* Rename every prepared file into place (hold the signals around it, mb_cancel_hold). */
int mb_report_commit(mb_report_files *files);
/* Record "interrupted while writing the reports; the previous report is kept" and return
 * MB_EFAILED: what a writer that sees a cancellation request before its commit says. */
int mb_report_interrupted(void);
/* Remove the temporaries of a prepared report: the previous report stays as it was. */
void mb_report_discard(mb_report_files *files);
/* prepare, then commit with SIGINT, SIGTERM and SIGHUP held (a request that came first
 * discards the files: "interrupted ...; the previous report is kept"). */
int mb_report_write(const char *dir, const mb_case_result *r, size_t n, int series,
                    mb_report_summary *summary);

/* A file written beside a partial report: name, and a writer returning MB_SUCCESS. */
typedef struct mb_report_extra {
    const char *name;
    int (*write)(FILE *f, void *ctx);
    void *ctx;
} mb_report_extra;

/* The partial report of a shard (doc/cluster.md): runs.csv, timing.csv (and series/)
 * rows of the runs it ran (not_run ones have none) and the extra files, committed as a
 * whole like mb_report_write. */
int mb_report_write_partial(const char *dir, const mb_case_result *r, size_t n, int series,
                            const mb_report_extra *extra, size_t n_extra);

/* The tolerance of a metric of a case for baseline checks: the [check] override for the
 * integrator, else the one for every integrator, else the default of the metric. */
mb_tolerance mb_report_tolerance(const mb_case *c, const char *integrator, const char *metric);
/* Text form of a tolerance, "rel:1e-06" | "abs:0.01". */
void mb_tolerance_format(const mb_tolerance *t, char *buf, size_t size);

#endif
