# tests: one Criterion program per concept, beside the concept it tests.
check_PROGRAMS += tests/test_explicit_euler
tests_test_explicit_euler_SOURCES = tests/test_explicit_euler.c
tests_test_explicit_euler_CFLAGS = $(MB_TESTCC)
tests_test_explicit_euler_LDADD = $(MB_TESTLIBS)
tests_test_explicit_euler_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_closed_oscillator
tests_test_closed_oscillator_SOURCES = tests/test_closed_oscillator.c
tests_test_closed_oscillator_CFLAGS = $(MB_TESTCC)
tests_test_closed_oscillator_LDADD = $(MB_TESTLIBS)
tests_test_closed_oscillator_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_closed_motion
tests_test_closed_motion_SOURCES = tests/test_closed_motion.c
tests_test_closed_motion_CFLAGS = $(MB_TESTCC)
tests_test_closed_motion_LDADD = $(MB_TESTLIBS)
tests_test_closed_motion_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_closed_tops
tests_test_closed_tops_SOURCES = tests/test_closed_tops.c
tests_test_closed_tops_CFLAGS = $(MB_TESTCC)
tests_test_closed_tops_LDADD = $(MB_TESTLIBS)
tests_test_closed_tops_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_ode_reference
tests_test_ode_reference_SOURCES = tests/test_ode_reference.c tests/ref_test_forces.h
tests_test_ode_reference_CFLAGS = $(MB_TESTCC)
tests_test_ode_reference_LDADD = $(MB_TESTLIBS)
tests_test_ode_reference_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_mpfr_reference
tests_test_mpfr_reference_SOURCES = tests/test_mpfr_reference.c tests/ref_test_forces.h
tests_test_mpfr_reference_CFLAGS = $(MB_TESTCC)
tests_test_mpfr_reference_LDADD = $(MB_TESTLIBS)
tests_test_mpfr_reference_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_twin
tests_test_twin_SOURCES = tests/test_twin.c tests/twin_test_kernels.h
tests_test_twin_CFLAGS = $(MB_TESTCC)
tests_test_twin_LDADD = $(MB_TESTLIBS)
tests_test_twin_LDFLAGS = $(MB_TESTLINK)

# the reference command end to end (shell)
TESTS += tests/test_cmd_reference.sh
EXTRA_DIST += tests/test_cmd_reference.sh

check_PROGRAMS += tests/test_bench_mpfr_twin
tests_test_bench_mpfr_twin_SOURCES = tests/test_bench_mpfr_twin.c
tests_test_bench_mpfr_twin_CFLAGS = $(MB_TESTCC)
tests_test_bench_mpfr_twin_LDADD = $(MB_TESTLIBS)
tests_test_bench_mpfr_twin_LDFLAGS = $(MB_TESTLINK)
