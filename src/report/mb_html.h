/* mb_html.h -- the HTML report of a report directory: one self-contained directory
 * (index.html, its style inline, the plots as PNG beside it) that a CI system can
 * publish as an artifact and a browser opens without a server or a network. */
#ifndef MB_HTML_H
#define MB_HTML_H

#include <stdio.h>

#include "mb_results.h"

/* Write out_dir/index.html and out_dir/plots/ (drawn with gnuplot: MB_ENOTFOUND when it
 * is missing).  Sections: the verdicts (failed expectations first), then per case the
 * integrators with their orders, standard errors, flags and pairwise orders, the
 * expectations, the provenance of the references and the plots. */
int mb_html_report(const mb_results *r, const char *out_dir);
/* Text with < > & " escaped; an anchor (id) from a case name: letters, digits and '-'
 * kept, anything else '-'. */
void mb_html_escape(FILE *f, const char *s);
void mb_html_anchor(FILE *f, const char *name);

#endif
