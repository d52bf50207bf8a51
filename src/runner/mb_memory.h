/* mb_memory.h -- the memory a run will need, estimated before it starts (doc/limits.md).
 *
 * Each (case, integrator, dt) run holds: the state of the scheme (double, or the MPFR
 * twin at the case's precision), the reference (GSL rk8pd, or Gragg-Bulirsch-Stoer
 * extrapolation in MPFR, whose tableau holds 2 max_columns state vectors), the kept
 * samples of the error growth (at most 2 MB_GROWTH_MAX_POINTS + 2 position sets), the
 * statistics window (statistics_from: a time and an energy per sample, nve_track.c),
 * with --series at most MB_SERIES_MAX_ROWS + 1 samples (mb_series.h), and the state of
 * every node at each probe time (mb_probes.h).  Runs of --jobs threads are held at once;
 * what a run keeps when it ends -- its result record, series and probes -- stays in memory
 * until the report is written, so every run's kept part counts towards the peak, not only
 * the runs in progress.  The per-node constants are upper bounds measured with peak
 * resident set sizes (doc/limits.md gives the commands); the estimate errs on the high
 * side. */
#ifndef MB_MEMORY_H
#define MB_MEMORY_H

#include <stddef.h>

#include "mb_case.h"
#include "mb_reference.h"

/* Parts of the estimate of one run, in bytes.  kept = result + series + probes is what
 * the run keeps after it ends; total = state + reference + twin + growth + statistics +
 * kept. */
typedef struct mb_memory_estimate {
    double state, reference, twin, growth, statistics, series, probes, result, kept, total;
} mb_memory_estimate;

/* Estimate of run (integrator a, dt index j) of c; series: --series is on. */
void mb_memory_estimate_run(const mb_case *c, size_t j, int series, mb_memory_estimate *e);
/* Bytes of the state of a run in double of the scheme of `integrator` (a spec
 * "name[k=v,...]"; NULL: any scheme) on nodes nodes with links two-node couplings
 * (springs), per node and per coupling as measured for that scheme (memory_estimate.c),
 * or bounds for a scheme not measured. */
double mb_memory_state_bytes(size_t nodes, size_t links, const char *integrator);
/* Estimate of `simulate` with `integrator` on nodes nodes and links couplings
 * (twin_bits > 0: an MPFR twin); its rows are streamed to the output, so it keeps no
 * series. */
void mb_memory_estimate_simulate(size_t nodes, size_t links, const char *integrator,
                                 long twin_bits, mb_memory_estimate *e);
/* Estimate of `reference` on nodes nodes with method kind (resolved: analytic, ode or
 * mpfr at mpfr_bits, 0 for the default). */
void mb_memory_estimate_reference(size_t nodes, mb_reference_kind kind, long mpfr_bits,
                                  mb_memory_estimate *e);
/* Peak estimate of running every case with `jobs` threads: the working part (total -
 * kept) of the jobs largest runs at once, plus the kept part of every run (*kept_all);
 * *worst names the largest run (case index, dt index) for messages. */
double mb_memory_estimate_cases(mb_case *const *cases, size_t n, int jobs, int series,
                                size_t *worst_case, size_t *worst_dt, mb_memory_estimate *worst,
                                double *kept_all);
/* Memory this process may use: MemAvailable of /proc/meminfo (else
 * sysconf(_SC_AVPHYS_PAGES) x page size), lowered to the address-space and data-size
 * limits (ulimit -v, -d) and to the room left under the control group's memory.max;
 * *source names the one that applies, for messages.  MB_EIO when nothing is known. */
int mb_memory_available(double *bytes, const char **source);
/* The limit to compare with: option (--memory-limit) when > 0, else the memory
 * available (mb_memory_available); *source names it for messages. */
int mb_memory_limit(double option, double *limit, const char **source);
/* Always MB_EINVAL, with the message of a refusal: need exceeds source's limit with
 * at_once runs held (0: one computation, not a run of a case file); what names the
 * largest run, w its parts, kept_all what every run keeps until the report. */
int mb_memory_refuse(double need, double limit, const char *source, int at_once,
                     const char *what, const mb_memory_estimate *w, double kept_all);
/* One computation (not a run of a case file) against the limit of mb_memory_limit(option):
 * MB_SUCCESS when e->total fits, else the refusal of mb_memory_refuse naming `what`. */
int mb_memory_check(const mb_memory_estimate *e, double option, const char *what);
/* "8G", "512M", "1.5T", "100000000" (bytes; K, M, G, T are powers of 1024). */
int mb_memory_parse_size(const char *text, double *bytes);
/* "1.2 GiB" style text of a byte count. */
void mb_memory_format(double bytes, char *buf, size_t size);

#endif
