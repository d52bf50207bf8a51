#!/bin/sh
# test_mutants_inject.sh -- the mutant runner replaces a catalogue line literally
# (tests/mutants/inject.sh): a line holding the backslash sequences of C source (\n, \t,
# \\) is found and replaced byte for byte, a line found twice or not at all leaves the
# file unchanged with status 1.  Negative control: the former replacement through awk -v,
# which turns \n into a newline, fails the same check.
set -u
SRC=${srcdir:-.}
. "$SRC/tests/cli_test_lib.sh"
inject=$SRC/tests/mutants/inject.sh

source_lines() {   # the file before: C lines with backslash sequences, one twice
    printf '%s\n' 'int main(void)' '{' '    printf("a\n\t%d\\", 1);' '    x = 1;' '    x = 1;' '}'
}
expected_lines() {
    printf '%s\n' 'int main(void)' '{' '    printf("b\n\t%d\\", 2);' '    x = 1;' '    x = 1;' '}'
}
old='    printf("a\n\t%d\\", 1);'
new='    printf("b\n\t%d\\", 2);'

source_lines > "$tmp/f.c"
expected_lines > "$tmp/want.c"
check "a line with backslash sequences is replaced literally" \
    sh -c 'sh "$1" "$2" "$3" "$4" && cmp -s "$2" "$5"' - "$inject" "$tmp/f.c" "$old" "$new" "$tmp/want.c"

source_lines > "$tmp/g.c"
cp "$tmp/g.c" "$tmp/g0.c"
check "a line found twice: status 1, file unchanged" \
    sh -c '! sh "$1" "$2" "    x = 1;" "    x = 2;" && cmp -s "$2" "$3"' - "$inject" "$tmp/g.c" "$tmp/g0.c"
check "a line not found: status 1, file unchanged" \
    sh -c '! sh "$1" "$2" "    y = 1;" "    y = 2;" && cmp -s "$2" "$3"' - "$inject" "$tmp/g.c" "$tmp/g0.c"

# negative control: awk -v unescapes the texts, so the line is not found (or is written
# with a newline in it): the same check must fail
source_lines > "$tmp/h.c"
awk -v old="$old" -v new="$new" '$0 == old { n++; print new; next } { print } END { exit n != 1 }' \
    "$tmp/h.c" > "$tmp/h.out" && mv "$tmp/h.out" "$tmp/h.c"
if cmp -s "$tmp/h.c" "$tmp/want.c"; then
    echo "FAIL: the check cannot tell awk -v's unescaping"; fail=1
else
    echo "ok: awk -v's replacement fails the check (negative control)"
fi
exit $fail
