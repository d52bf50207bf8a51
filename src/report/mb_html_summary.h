/* mb_html_summary.h -- the table that opens the HTML report: per integrator, across the
 * cases that run it, the cases, the runs that finished, the verdicts of its expectations
 * (checks.csv, one column per verdict that occurs) and the range of its measured orders
 * (order.<quantity> of metrics.csv: smallest and largest over the cases, and in how many
 * cases it was measured). */
#ifndef MB_HTML_SUMMARY_H
#define MB_HTML_SUMMARY_H

#include <stdio.h>

#include "mb_results.h"

void mb_html_integrator_summary(FILE *f, const mb_results *r);

#endif
