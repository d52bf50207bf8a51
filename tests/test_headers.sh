#!/bin/sh
# test_headers.sh -- the installed headers as an outside program sees them.
#   test_headers.sh DIR       check the headers installed in DIR (make installcheck)
#   test_headers.sh           copy the headers listed in MB_INSTALLED_HEADERS (make check
#                             exports the Makefile's list) alone into a scratch directory
#                             and check them there, so a header that includes one that is
#                             not installed fails here too.
# Each header must compile alone with  gcc -std=c11 -pedantic -Wall -Wextra -Werror,  and
# all of them together must define no macro outside the library's namespace (MB_..., mb_...):
# the template layer (REAL, FUNCTION, TYPE, R_..., templates_on.h) stays inside.
set -u
CC=${CC:-gcc}
CFLAGS_DEPS=${MB_DEP_CFLAGS:-}
work=headers-test.$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
if [ $# -ge 1 ]; then
    dir=$1
else
    mkdir -p "$work/inc"
    for h in $MB_INSTALLED_HEADERS; do cp "${MB_SRCDIR:-.}/$h" "$work/inc/"; done
    dir=$work/inc
fi
fail=0 count=0 bad=0
for h in "$dir"/*.h; do
    name=$(basename "$h")
    count=$((count + 1))
    printf '#include <%s>\n' "$name" >"$work/one.c"
    if $CC -std=c11 -pedantic -Wall -Wextra -Werror -I"$dir" $CFLAGS_DEPS -c "$work/one.c" \
        -o "$work/one.o" 2>"$work/err"; then
        :
    else
        echo "FAIL: $name does not compile alone:"; cat "$work/err"; fail=1; bad=$((bad + 1))
    fi
done
[ $count -gt 0 ] || { echo "FAIL: no header in $dir"; exit 1; }
[ $bad -eq 0 ] && echo "ok: $count headers compile alone with -std=c11 -pedantic -Wall -Wextra -Werror"
# macros: all headers minus what the system headers they include define anyway
for h in "$dir"/*.h; do printf '#include <%s>\n' "$(basename "$h")"; done >"$work/all.c"
grep -h '^#include <[^m]' "$dir"/*.h | sort -u >"$work/sys.c"
printf '#include <mpfr.h>\n' >>"$work/sys.c"
$CC -std=c11 -dM -E -I"$dir" $CFLAGS_DEPS "$work/all.c" | sort >"$work/all.macros"
$CC -std=c11 -dM -E $CFLAGS_DEPS "$work/sys.c" | sort >"$work/sys.macros"
comm -23 "$work/all.macros" "$work/sys.macros" | awk '{print $2}' | sed 's/(.*//' \
    | grep -v '^MB_' | grep -v '^mb_' >"$work/leaks"
if [ -s "$work/leaks" ]; then
    echo "FAIL: macros outside the MB_ namespace:"; cat "$work/leaks"; fail=1
else
    echo "ok: no macro outside MB_ / mb_"
fi
exit $fail
