#!/bin/sh
# test_man_page.sh -- doc/motionbench.1 documents every command, benchmark and option the
# program itself lists: the commands of `motionbench --help`, the benchmarks of
# `motionbench bench --help`, and every option (-x, --xyz) printed by each command's and
# each benchmark's --help.  The page must also render without groff warnings.
set -u
MB=${MB_PROGRAM:-./src/motionbench}
man=${srcdir:-.}/doc/motionbench.1
fail=0
[ -r "$man" ] || { echo "FAIL: $man not found"; exit 1; }
# the page as plain words: roff escapes \- and \(en undone
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man")

commands=$($MB --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
[ -n "$commands" ] || { echo "FAIL: no command listed by motionbench --help"; exit 1; }
benches=$($MB bench --help | awk '/^benchmarks:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
[ -n "$benches" ] || { echo "FAIL: no benchmark listed by motionbench bench --help"; exit 1; }

for c in $commands; do
    printf '%s\n' "$text" | grep -q "^\.SS $c\( \|$\)" || { echo "FAIL: command '$c' has no .SS section"; fail=1; }
done
for b in $benches; do
    printf '%s\n' "$text" | grep -q "^\.B $b$" || { echo "FAIL: benchmark '$b' not described"; fail=1; }
done

# options printed by a --help text ($1: where), each must occur in the page
check_options() {
    for o in $(grep -oE '(^|[ [,(])--?[a-zA-Z][-a-zA-Z0-9]*' | sed 's/^[ [,(]//' | sort -u); do
        case $o in --help|-h) continue ;; esac
        printf '%s\n' "$text" | grep -q -- "$o\b" || { echo "FAIL: $1 option '$o' not in the man page"; fail=1; }
    done
}
check_options "motionbench" <<EOT
$($MB --help)
EOT
for c in $commands; do
    check_options "$c" <<EOT
$($MB $c --help 2>&1)
EOT
done
for b in $benches; do
    check_options "bench $b" <<EOT
$($MB bench $b --help 2>&1)
EOT
done

if command -v groff >/dev/null 2>&1; then
    warn=$(groff -man -ww -z "$man" 2>&1)
    [ -z "$warn" ] || { echo "FAIL: groff warnings:"; echo "$warn"; fail=1; }
fi
[ $fail -eq 0 ] && echo "ok: $(echo $commands | wc -w) commands, $(echo $benches | wc -w) benchmarks and their options documented"
exit $fail
