/* run_summary.h -- what `motionbench run` tells a person and a CI system after a run.
 *
 * The terminal summary is one compact table per case (integrator x runs finished and
 * the orders with their standard errors, or the values its expectations name), then
 * every failed or missing expectation with its value and its bound, and every run that
 * stopped early without the case expecting it, with the step and the reason.  The same
 * verdicts (mb_case_visit_checks) feed the CI log, one test per verdict. */
#ifndef MB_RUN_SUMMARY_H
#define MB_RUN_SUMMARY_H

#include <stdio.h>

#include "junit_tap.h"
#include "mb_report.h"
#include "mb_runner.h"

/* The tables of every case (omitted when quiet) and the list of failures. */
void mb_run_summary_print(FILE *out, const mb_case_result *r, size_t n, int quiet);
/* Every run that did not reach t_end (diverged, failed, interrupted, skipped), one line
 * each with case, integrator, dt (shortest round trip), status, "(expected)" when the case
 * expects that status, and the reason; nothing when every run finished. */
void mb_run_summary_unfinished(FILE *err, const mb_case_result *r, size_t n);
/* One test per verdict, suite = case. */
int mb_run_summary_ci(mb_ci_log *L, const mb_case_result *r, size_t n);
/* The line on outside programs (doc/external.md) of a report written to dir: how many
 * of their runs failed and how many checks on them were skipped, the reasons being in
 * dir/runs.csv; nothing when there are none. */
void mb_run_summary_outside(FILE *err, const mb_report_summary *sum, const char *dir);
/* The exit status of a command that wrote a report summed up as *sum: MB_EXIT_FAIL when
 * a check failed or is missing or a run of an outside program failed, else MB_EXIT_OK. */
int mb_run_summary_exit_code(const mb_report_summary *sum);

#endif
