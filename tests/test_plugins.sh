#!/bin/sh
# test_plugins.sh -- steppers from shared objects (mb_plugin.h), end to end.
#  1. Each plugin of the broken catalogue (tests/plugins/broken_plugin.c), a missing file
#     and a file that is no shared object: `run --plugin` exits 2 with a message naming
#     the plugin and its defect, and writes no report.
#  2. The two examples through the case-file key `[run] plugins =` (paths relative to the
#     case file): examples/plugins-harmonic.case passes (exit 0; its expectations, orders
#     2 and 4 and the energy bounds, come from theory), and the same key naming a broken
#     plugin is refused with the case file's line.
#  3. `run --plugin` with an example plus a case that uses it.
set -u
# built without shared libraries (configure --disable-shared): no plug-in to load
[ "${MB_PLUGINS:-yes}" != no ] || { echo "SKIP: no plug-ins: built without shared libraries"; exit 77; }
MB=${MB_PROGRAM:-./src/motionbench}
LIBS=tests/plugins/.libs
SRC=${MB_SRCDIR:-.}
fail=0
work=plugins-test.$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

expect2() {
    what=$1; pattern=$2; shift 2
    "$@" >/dev/null 2>"$work/err"; rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pattern" "$work/err" && [ ! -e "$work/reports" ]; then
        echo "ok: $what"
    else
        echo "FAIL: $what (exit $rc, stderr: $(cat "$work/err"))"; fail=1
    fi
}

cp "$SRC/examples/plugins-harmonic.case" examples/.libs/leapfrog_dkd.so \
   examples/.libs/forest_ruth.so "$work/"
CASE="$work/plugins-harmonic.case"

broken() {
    expect2 "$1" "plugin $LIBS/$2.so: .*$3" $MB run -o "$work/reports" --plugin "$LIBS/$2.so" "$CASE"
}
broken "no entry point" broken1 "no entry point mb_plugin_init"
broken "no API version" broken2 "no symbol mb_plugin_api_version"
broken "API version from the future" broken3 "built for plugin API version 2"
broken "type without step" broken4 "missing: step"
broken "malformed name" broken5 "'Bad name' is not a valid integrator name"
broken "duplicate of a built-in name" broken6 "'leapfrog' is already registered"
broken "init fails" broken7 "mb_plugin_init failed"
broken "init registers nothing" broken8 "registered no integrator"
broken "type without alloc and free" broken9 "missing: alloc free"
expect2 "missing file" "cannot load" $MB run -o "$work/reports" --plugin "$work/none.so" "$CASE"
expect2 "not a shared object" "cannot load" $MB run -o "$work/reports" --plugin "$CASE" "$CASE"
expect2 "--plugin without a file" "--plugin needs" $MB run -o "$work/reports" --plugin
# the same example twice (option and case key) is one load, not a duplicate
if $MB run -q -o "$work/rep-key" --plugin "$work/forest_ruth.so" "$CASE" 2>"$work/err"; then
    echo "ok: examples through the case-file key (and one of them also through --plugin)"
else
    echo "FAIL: examples: $(cat "$work/err")"; fail=1
fi
grep -q '^plugins-harmonic,forest-ruth,,forest-ruth.order.position = 4 +- 0.2,[0-9.]*,pass' \
    "$work/rep-key/checks.csv" || { echo "FAIL: forest-ruth order check missing"; fail=1; }
# list sees a plugin's types, with their nominal orders
if $MB list integrators --plugin "$work/forest_ruth.so" | grep -q '^forest-ruth  *orders: translation 4, rotation -'; then
    echo "ok: list integrators --plugin"
else
    echo "FAIL: list integrators --plugin does not show forest-ruth"; fail=1
fi
expect2 "list with a broken plugin" "broken6.so: .*already registered" \
    $MB list integrators --plugin "$LIBS/broken6.so"
# a broken plugin named by the case-file key: file and line of the key
sed 's/^plugins .*/plugins = broken_copy.so/' "$CASE" >"$work/bad-key.case"
cp "$LIBS/broken4.so" "$work/broken_copy.so"
line=$(grep -n '^plugins' "$work/bad-key.case" | cut -d: -f1)
expect2 "broken plugin in the case-file key" "bad-key.case:$line: plugin $work/broken_copy.so" \
    $MB run -o "$work/reports" "$work/bad-key.case"
exit $fail
