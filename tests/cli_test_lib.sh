# cli_test_lib.sh -- shared by the shell tests of the program: sourced after MB and SRC
# are set.  Makes a temporary directory $tmp (removed on exit), a failure flag $fail and
# check WHAT COMMAND...: runs the command, prints "ok: WHAT" or "FAIL: WHAT" (and sets
# fail=1); the test ends with "exit $fail".  A test that names its directory otherwise
# sets it from $tmp (out=$tmp); a test with a check of its own defines it after sourcing.
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {
    what=$1; shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
