#!/bin/sh
# test_report_screenshot.sh -- the HTML report in a real browser: headless Chromium renders
# index.html (offline, a throw-away profile) into a 1200x2000 screenshot.  Checks: the
# browser exits 0 and writes a PNG of exactly that size (IHDR width and height) whose
# size shows content (a blank white page compresses to a few kB; the rendered report
# with its tables and a plot takes well over 50 kB).  Skipped (77) without chromium or
# gnuplot.
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium is not installed"; exit 77; }
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot is not installed"; exit 77; }

$MB run -q -o "$tmp/r" "$SRC/tests/data/injected-faults.case" >/dev/null 2>&1
$MB report "$tmp/r" -o "$tmp/html" 2>/dev/null || { echo "FAIL: report"; exit 1; }
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" --screenshot="$tmp/shot.png" --window-size=1200,2000 \
    "file://$tmp/html/index.html" >"$tmp/log" 2>&1; rc=$?
check "chromium exit 0 (got $rc)" [ $rc -eq 0 ]
check "screenshot is a PNG" \
    sh -c "head -c 8 '$tmp/shot.png' | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$'"
# IHDR: bytes 17-24 hold width and height, big-endian
dims=$(od -An -tu1 -j16 -N8 "$tmp/shot.png" | awk '{ printf "%d %d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')
check "screenshot is 1200x2000 (got $dims)" [ "$dims" = "1200 2000" ]
size=$(wc -c <"$tmp/shot.png")
check "screenshot has content ($size bytes > 50000)" [ "$size" -gt 50000 ]
[ -n "${MB_KEEP_SCREENSHOT:-}" ] && cp "$tmp/shot.png" "$MB_KEEP_SCREENSHOT"
exit $fail
