/* mb_run_forked.h -- one run of a plug-in scheme in a child process (doc/plugins.md,
 * "Isolation and trust").
 *
 * A scheme loaded from a shared object is code motionbench has not seen: by default each
 * of its runs executes in a forked child, which sends the finished mb_run_result (series
 * included) back through a pipe.  A crash, an abort, an exit() or a hang of the plug-in
 * ends that run only, as "failed" with the reason (the signal, the exit status, the time
 * limit); the parent validates what it receives like any outside result before it is
 * scored.  `run --plugins-in-process` (mb_case.plugins_in_process) runs them in the
 * process instead. */
#ifndef MB_RUN_FORKED_H
#define MB_RUN_FORKED_H

#include <stddef.h>

#include "mb_runner.h"

/* Seconds a forked plug-in run may take when neither [run] timeout nor --timeout is
 * given: the default time limit of an outside program's run (doc/external.md). */
#define MB_PLUGIN_TIMEOUT_DEFAULT 600.0

/* The in-process execution of one run, which the child calls. */
typedef void mb_run_body(const mb_case *c, size_t integrator, size_t dt_index, int keep_series,
                         mb_run_result *out);

/* 1 when run `integrator` of c executes in a child: its scheme came from a plug-in
 * (mb_plugin_owns) and c->plugins_in_process is 0. */
int mb_run_forked_wanted(const mb_case *c, size_t integrator);

/* body(c, integrator, dt_index, keep_series, .) in a forked child; *out receives its
 * validated result, or status FAILED with the reason ("plug-in killed by signal 11
 * (Segmentation fault)", "plug-in called exit(0)", the time limit, a malformed result),
 * or INTERRUPTED when cancellation was requested (the child is killed). */
void mb_run_forked(const mb_case *c, size_t integrator, size_t dt_index, int keep_series,
                   mb_run_body *body, mb_run_result *out);

/* ---- the message from child to parent (exposed for tests) ---- */

/* What the parent asked of the run: a result must match it. */
typedef struct mb_run_asked {
    long steps;          /* round(t_end / h) */
    double h;
    int keep_series;
    size_t n_probes, nodes;  /* the case's probe times, the problem's nodes (mb_probes.h) */
} mb_run_asked;

/* Serialise r (series and probes included) into a malloc'ed buffer; its size, 0 when out of memory. */
size_t mb_run_result_encode(const mb_run_result *r, unsigned char **buf);
/* Read a message into *out (series and probes allocated; free(out->series),
 * free(out->probes)).  MB_SUCCESS, or
 * MB_EINVAL with the defect in why (sizes, enumerations, unterminated texts, unknown
 * metrics, steps or times other than those asked) and *out zeroed. */
int mb_run_result_decode(const unsigned char *buf, size_t n, const mb_run_asked *ask,
                         mb_run_result *out, char *why, size_t size);

#endif
