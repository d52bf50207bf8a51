#!/bin/sh
# test_doc_figures.sh -- the measured-figure tables in doc/*.md are what doc/gen/figures.py
# generates from the committed baseline reports/baseline/metrics.csv (no figure in those
# blocks is typed by hand or left behind by a baseline change).  Skips (77) without python3.
set -u
top=${srcdir:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
python3 "$top/doc/gen/figures.py" --check --baseline "$top/reports/baseline/metrics.csv" "$top"/doc/*.md
rc=$?
[ $rc -eq 0 ] && echo "ok: doc figures match the baseline"
exit $rc
