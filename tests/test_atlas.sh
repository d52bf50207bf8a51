#!/bin/sh
# test_atlas.sh -- the atlas (doc/atlas.md, src/report/atlas.c): the committed page is the
# one `motionbench atlas` makes from the committed data (reports/atlas/), byte for byte;
# a verdict changed in the data (the first of three time steps of a cell, negative control)
# turns its cell red; a finding marks its cell amber and is listed with its command; a
# finding that names no expectation of the report is refused with file:line and exit 2;
# the HTML report of the data carries the atlas section.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
MB=$(cd "$(dirname "$MB")" && pwd)/$(basename "$MB")
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
check() {   # what, condition (0 = true)
    if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi
}

(cd "$SRC" && "$MB" atlas reports/atlas --runs-link ../reports/atlas/runs.csv) > "$out/page.md"; rc=$?
check "atlas exits 0 (got $rc)" $([ $rc -eq 0 ]; echo $?)
check "doc/atlas.md is regenerated from reports/atlas/ byte for byte" \
    $(cmp -s "$out/page.md" "$SRC/doc/atlas.md"; echo $?)
if ! cmp -s "$out/page.md" "$SRC/doc/atlas.md"; then
    echo "  regenerate: src/motionbench atlas reports/atlas --runs-link ../reports/atlas/runs.csv -o doc/atlas.md"
    diff "$SRC/doc/atlas.md" "$out/page.md" | head -20
fi

row() {   # the page's row of CASE and METRIC
    grep "^| $2 | \`$3\` |" "$1"
}
amber=$(printf '\360\237\224\266') red=$(printf '\342\235\214') grey=$(printf '\342\254\234')
check "a finding's cell is amber (Yade's first-order top)" \
    $(row "$out/page.md" peers-symmetric-top order.orientation | grep -q "$amber \[default 1"; echo $?)
check "the finding is listed with its command" \
    $(grep -q '^[0-9]*\. \*\*yade\*\* (`external:yade`, peers-symmetric-top, `order.orientation`): .*first order' "$out/page.md" \
      && grep -q '^   `src/motionbench run cases/peers/symmetric-top.case' "$out/page.md"; echo $?)
check "a declined package's cell is grey" \
    $(row "$out/page.md" peers-lj-fluid-smooth status | grep -q "$grey \[default skipped\]"; echo $?)
check "cells link to their runs in runs.csv" \
    $(row "$out/page.md" peers-kepler order.position | grep -q '](../reports/atlas/runs.csv#L[0-9]*)'; echo $?)

# negative control: the first (not the last) time step of LIGGGHTS's restitution on the
# wall fails in a copy of the data; its cell must turn red
cp -r "$SRC/reports/atlas" "$out/data"
chmod -R u+w "$out/data"      # a distcheck's source tree is read-only
awk -F, 'BEGIN { OFS = "," } /^peers-sphere-wall,external:liggghts,3/ && /restitution_error/ && !done { sub(/,pass/, ",fail"); done = 1 } { print }' \
    "$SRC/reports/atlas/checks.csv" > "$out/data/checks.csv"
check "the control changed one verdict" \
    $([ "$(diff "$SRC/reports/atlas/checks.csv" "$out/data/checks.csv" | grep -c '^>')" -eq 1 ]; echo $?)
"$MB" atlas "$out/data" > "$out/changed.md"
check "a failed verdict of a cell's first time step turns the cell red" \
    $(row "$out/changed.md" peers-sphere-wall restitution_error | grep -q "$red \[default "; echo $?)
check "... which the committed page does not show" \
    $(! row "$out/page.md" peers-sphere-wall restitution_error | grep -q "$red"; echo $?)

# a finding that names no expectation of the report
cat "$SRC/reports/atlas/findings.csv" > "$out/data/findings.csv"
echo 'peers-kepler,external:yade,order.nothing,a finding of nothing,none' >> "$out/data/findings.csv"
n=$(wc -l < "$out/data/findings.csv")
"$MB" atlas "$out/data" > /dev/null 2> "$out/err"; rc=$?
check "an unknown finding is refused: exit 2 (got $rc), file:line" \
    $([ $rc -eq 2 ] && grep -q "findings.csv:$n: no expectation 'order.nothing' of external:yade in case peers-kepler" "$out/err"; echo $?)

# the HTML report carries the atlas
if command -v gnuplot >/dev/null 2>&1; then
    "$MB" report "$SRC/reports/atlas" -o "$out/html" 2> /dev/null
    check "the HTML report has the atlas section with amber findings" \
        $(grep -q '<h2 id="atlas">' "$out/html/index.html" \
          && grep -q '<span class="finding">default 1' "$out/html/index.html"; echo $?)
    if command -v xmllint >/dev/null 2>&1; then
        check "the HTML report is well-formed with the atlas" \
            $(xmllint --noout "$out/html/index.html" 2>/dev/null; echo $?)
    fi
fi
exit $fail
