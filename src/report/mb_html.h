/* mb_html.h -- the HTML report of a report directory: index.html (its style inline)
 * showing the SVG plots of the report's plot directory, so that the report directory is
 * what a CI system publishes as an artifact and a browser opens without a server or a
 * network. */
#ifndef MB_HTML_H
#define MB_HTML_H

#include <stdio.h>

#include "mb_results.h"

/* Write out_dir/index.html; the plots are those of REPORT_DIR/plots when out_dir is the
 * report directory or directly inside it, else of out_dir/plots, drawn there with gnuplot
 * (MB_ENOTFOUND when it is missing) unless plots.list shows them drawn from these
 * results.  Sections: the per-integrator summary, the verdicts (failed expectations
 * first), the cases with their descriptions, then per case the integrators with their
 * orders, standard errors, flags and pairwise orders, the expectations, the provenance of
 * the references and the plots. */
int mb_html_report(const mb_results *r, const char *out_dir);
/* Text with < > & " escaped; an anchor (id) from a case name: letters, digits and '-'
 * kept, anything else '-'. */
void mb_html_escape(FILE *f, const char *s);
void mb_html_anchor(FILE *f, const char *name);

#endif
