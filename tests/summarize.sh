#!/bin/sh
# summarize.sh DIR -- sum the test results in DIR/*.log into one line "N passed, N failed":
# Criterion's "Synthesis" lines (crashes count as failed) and the "ok: ..." / "FAIL: ..."
# lines of the shell tests.  Exit 1 when no test ran at all.
dir=${1:-tests}
cat "$dir"/*.log 2>/dev/null | awk '
/Synthesis: Tested:/ {
    for (i = 1; i <= NF; i++) {
        if ($i == "Passing:") pass += $(i + 1)
        if ($i == "Failing:") fail += $(i + 1)
        if ($i == "Crashing:") fail += $(i + 1)
    }
    seen = 1
}
/^ok: / { pass++; seen = 1 }
/^FAIL: / { fail++; seen = 1 }
END {
    printf "%d passed, %d failed\n", pass, fail
    if (!seen) exit 1
}'
