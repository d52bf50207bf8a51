#!/bin/sh
# installcheck.sh -- the installed motionbench as a user meets it (make installcheck,
# hence make distcheck).  Environment from install.mk: DESTDIR (may be empty), bindir,
# libdir, includedir, pkgdatadir, CC, MB_SRCDIR, MB_DEP_CFLAGS, MAKE, top_builddir.
#  1. every installed header compiles alone with -std=c11 -pedantic -Wall -Wextra -Werror
#     and no macro leaks out of the MB_ namespace (tests/test_headers.sh);
#  2. the .pc file compiles and links a user program that lists the integrators;
#  3. the two example plugins as installed (pkgdatadir/examples/) built against the
#     installed library through pkg-config run through the runner: the installed
#     examples/plugins-harmonic.case must pass (exit 0), with the plugins named by the case
#     file's [run] plugins key; the installed Python adapter example passes its case
#     (python3 present), and the installed Fortran adapter example, built from a copy as
#     its descriptor says, passes its case (gfortran present);
#  4. `motionbench run` with no argument, from a directory outside both trees, finds the
#     installed case library, and `motionbench check` with no --baseline compares the
#     report with the installed baseline: no regression (exit 0).  For a real install
#     (no DESTDIR) nothing tells the program where its data is: `run --help` must name
#     pkgdatadir itself;
#  5. a build that cannot go stale: a clean copy of the sources (make distdir) configured
#     with one prefix and built, then configured again with another prefix in the same
#     build directory without make clean, and installed: the program installed under the
#     second prefix names and uses that prefix's data, with no environment help.
set -u
: "${DESTDIR:=}"
CC=${CC:-cc}
fail=0
work=$(mktemp -d "${TMPDIR:-/tmp}/mb-installcheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
say() { echo "$1: $2"; [ "$1" = ok ] || fail=1; }

# a staged install (DESTDIR) is found through these; a real one needs neither
LD_LIBRARY_PATH="$DESTDIR$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
unset MOTIONBENCH_DATADIR
if [ -n "$DESTDIR" ]; then
    MOTIONBENCH_DATADIR="$DESTDIR$pkgdatadir"
    export MOTIONBENCH_DATADIR
fi
EX="$DESTDIR$pkgdatadir/examples"
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
    $CC -std=c11 -pedantic -Wall -Wextra -Werror -shared -fPIC -I"$EX" \
        "$EX/$p.c" -o "$work/$p.so" $(pkg-config --cflags --libs motionbench) -lm \
        || say FAIL "building the installed examples/$p.c against the installed library"
done
cp "$EX/plugins-harmonic.case" "$work/"
if (cd "$work" && "$MB" run -q -o rep-plugins plugins-harmonic.case); then
    say ok "installed example plugins through the runner (orders 2 and 4, energy bounds)"
else
    say FAIL "installed example plugins through the runner"
fi
if command -v python3 >/dev/null 2>&1; then
    cp -R "$EX/python_adapter" "$work/"
    if (cd "$work/python_adapter" && "$MB" run -q -o rep pyverlet-harmonic.case); then
        say ok "installed Python adapter example passes its case"
    else
        say FAIL "installed Python adapter example"
    fi
    [ -f "$DESTDIR$pkgdatadir/adapters/mbadapter.py" ] \
        && say ok "adapter helper mbadapter.py installed" || say FAIL "mbadapter.py not installed"
else
    echo "skip: python3 absent: the installed Python adapter example is not run"
fi
if command -v gfortran >/dev/null 2>&1; then
    cp -R "$EX/fortran_adapter" "$EX/run_txt" "$work/"
    chmod -R u+w "$work/fortran_adapter" "$work/run_txt"
    if (cd "$work/fortran_adapter" && gfortran -O2 -o fleapfrog ../run_txt/run_txt.f90 leapfrog.f90 \
        && "$MB" run -q -o rep fleapfrog-harmonic.case); then
        say ok "installed Fortran adapter example (reading run.txt) built and passes its case"
    else
        say FAIL "installed Fortran adapter example"
    fi
else
    echo "skip: gfortran absent: the installed Fortran adapter example is not run"
fi

# 4
mkdir -p "$work/elsewhere"
if (cd "$work/elsewhere" && "$MB" run -q -o rep >/dev/null && "$MB" check -q rep); then
    say ok "run with no argument found the installed case library; check against the installed baseline"
else
    say FAIL "run/check of the installed case library from $work/elsewhere"
fi
if [ -z "$DESTDIR" ]; then
    named=$(cd "$work/elsewhere" && "$MB" run --help | tr '\n' ' ' \
            | sed -n 's/.*default case library (\([^ ]*\)\/cases:.*/\1/p')
    [ "$named" = "$pkgdatadir" ] && say ok "the installed program names $pkgdatadir by itself" \
        || say FAIL "the installed program looks for its data in '$named', not $pkgdatadir"
fi
"$MB" --version | grep -q 'GPLv3+' && say ok "--version" || say FAIL "--version"

# 5
unset MOTIONBENCH_DATADIR
if ${MAKE:-make} -s -C "$top_builddir" distdir distdir="$work/src" >"$work/distdir.log" 2>&1 \
    && mkdir "$work/build" && cd "$work/build" \
    && "$work/src/configure" -q --prefix="$work/first" CC="$CC" >"$work/conf1.log" 2>&1 \
    && ${MAKE:-make} -s src/motionbench >"$work/make1.log" 2>&1 \
    && "$work/src/configure" -q --prefix="$work/second" CC="$CC" >"$work/conf2.log" 2>&1 \
    && ${MAKE:-make} -s install >"$work/make2.log" 2>&1; then
    named=$(cd "$work/elsewhere" && "$work/second/bin/motionbench" run --help | tr '\n' ' ' \
            | sed -n 's/.*default case library (\([^ ]*\)\/cases:.*/\1/p')
    cp "$work/second/share/motionbench/cases/free-fall.case" "$work/elsewhere/" 2>/dev/null
    if [ "$named" = "$work/second/share/motionbench" ] \
        && (cd "$work/elsewhere" && "$work/second/bin/motionbench" run -q -o rep2 free-fall.case) \
        && { (cd "$work/elsewhere" && "$work/second/bin/motionbench" check -q rep2) >/dev/null 2>&1
             [ $? -le 1 ]; }; then
        # check exits 2 when it cannot read the baseline of its data directory
        say ok "configured again with another prefix, no make clean: the install names and uses its own data"
    else
        say FAIL "reconfigured install looks in '$named', not $work/second/share/motionbench"
    fi
else
    for log in "$work"/*.log; do echo "--- $log"; tail -n 5 "$log"; done
    say FAIL "reconfigure-and-install build (last lines of its logs above)"
fi
exit $fail
