# mb_libraries.m4 -- the libraries motionbench requires, found through pkg-config; a
# missing one stops configure and names the Debian packages that provide it (all of them
# are installed by `./bootstrap --deps`).
#
#   MB_REQUIRE_LIBRARY(PREFIX, MODULES, WHAT, DEBIAN-PACKAGES)
#       PKG_CHECK_MODULES(PREFIX, MODULES): PREFIX_CFLAGS and PREFIX_LIBS, or an error
#       "WHAT not found: install the Debian package(s) DEBIAN-PACKAGES ...".
#   MB_REQUIRED_LIBRARIES
#       every library of the build: GSL, GNU MPFR, inih, jansson, GNU libmatheval, and
#       Criterion for make check.

# serial 1

AC_DEFUN([MB_REQUIRE_LIBRARY],
[PKG_CHECK_MODULES([$1], [$2], [],
  [AC_MSG_ERROR([$3 not found: install the Debian ]m4_if(m4_index([$4], [ ]), [-1],
                [package], [packages])[ $4 (or run ./bootstrap --deps)])])])

AC_DEFUN([MB_REQUIRED_LIBRARIES],
[MB_REQUIRE_LIBRARY([GSL], [gsl >= 2.6], [GSL >= 2.6], [libgsl-dev])
MB_REQUIRE_LIBRARY([MPFR], [mpfr >= 4.0], [GNU MPFR >= 4.0], [libmpfr-dev libgmp-dev])
MB_REQUIRE_LIBRARY([INIH], [inih], [inih], [libinih-dev])
MB_REQUIRE_LIBRARY([JANSSON], [jansson >= 2.10],
                   [jansson (JSON run descriptions of external integrators)], [libjansson-dev])
MB_REQUIRE_LIBRARY([MATHEVAL], [libmatheval],
                   [GNU libmatheval (expression forces in scenes)], [libmatheval-dev])
MB_REQUIRE_LIBRARY([CRITERION], [criterion >= 2.3], [Criterion (needed by make check)],
                   [libcriterion-dev])])
