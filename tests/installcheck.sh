#!/bin/sh
# installcheck.sh -- the installed motionbench as a user meets it (make installcheck,
# hence make distcheck).  Environment from install.mk: DESTDIR (may be empty), bindir,
# libdir, includedir, pkgdatadir, CC, MB_SRCDIR, MB_DEP_CFLAGS.
#  1. every installed header compiles alone with -std=c11 -pedantic -Wall -Wextra -Werror
#     and no macro leaks out of the MB_ namespace (tests/test_headers.sh);
#  2. the .pc file compiles and links a user program that lists the integrators;
#  3. the two example plugins (examples/) built against the installed library through
#     pkg-config run through the runner: examples/plugins-harmonic.case must pass
#     (exit 0), with the plugins named by the case file's [run] plugins key;
#  4. `motionbench run` with no argument, from a directory outside both trees, finds the
#     installed case library, and `motionbench check` with no --baseline compares the
#     report with the installed baseline: no regression (exit 0).
set -u
: "${DESTDIR:=}"
CC=${CC:-cc}
fail=0
work=$(mktemp -d "${TMPDIR:-/tmp}/mb-installcheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
say() { echo "$1: $2"; [ "$1" = ok ] || fail=1; }

# a staged install (DESTDIR) is found through these; a real one needs neither
LD_LIBRARY_PATH="$DESTDIR$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
MOTIONBENCH_DATADIR="$DESTDIR$pkgdatadir"
export LD_LIBRARY_PATH MOTIONBENCH_DATADIR
mkdir -p "$work/pc"
sed "s|^prefix=.*|prefix=$DESTDIR$(sed -n 's/^prefix=//p' "$DESTDIR$libdir/pkgconfig/motionbench.pc")|" \
    "$DESTDIR$libdir/pkgconfig/motionbench.pc" >"$work/pc/motionbench.pc"
PKG_CONFIG_PATH="$work/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
MB="$DESTDIR$bindir/motionbench"

# 1
if (cd "$work" && MB_DEP_CFLAGS="$MB_DEP_CFLAGS" CC="$CC" \
        sh "$MB_SRCDIR/tests/test_headers.sh" "$DESTDIR$includedir/motionbench"); then
    say ok "installed headers"
else
    say FAIL "installed headers"
fi

# 2
cat >"$work/user.c" <<'PROG'
#include <mb_stepper.h>
#include <stdio.h>
int main(void)
{
    int n = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++)
        n++;
    const mb_stepper_type *lf = mb_stepper_find("leapfrog");
    printf("%d integrators; leapfrog orders %d/%d\n", n, lf ? lf->order : -1,
           lf ? lf->order_rotation : -1);
    return lf != NULL && n > 5 ? 0 : 1;
}
PROG
if $CC -std=c11 -pedantic -Wall -Wextra -Werror "$work/user.c" -o "$work/user" \
        $(pkg-config --cflags --libs motionbench) && "$work/user"; then
    say ok "a user program compiled and linked through pkg-config"
else
    say FAIL "a user program through pkg-config"
fi

# 3
for p in leapfrog_dkd forest_ruth; do
    $CC -std=c11 -pedantic -Wall -Wextra -Werror -shared -fPIC -I"$MB_SRCDIR/examples" \
        "$MB_SRCDIR/examples/$p.c" -o "$work/$p.so" $(pkg-config --cflags --libs motionbench) -lm \
        || say FAIL "building examples/$p.c against the installed library"
done
cp "$MB_SRCDIR/examples/plugins-harmonic.case" "$work/"
if (cd "$work" && "$MB" run -q -o rep-plugins plugins-harmonic.case); then
    say ok "example plugins through the runner (orders 2 and 4, energy bounds)"
else
    say FAIL "example plugins through the runner"
fi

# 4
mkdir -p "$work/elsewhere"
if (cd "$work/elsewhere" && "$MB" run -q -o rep >/dev/null && "$MB" check -q rep); then
    say ok "run with no argument found the installed case library; check against the installed baseline"
else
    say FAIL "run/check of the installed case library from $work/elsewhere"
fi
"$MB" --version | grep -q 'GPLv3+' && say ok "--version" || say FAIL "--version"
exit $fail
