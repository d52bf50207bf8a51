# tests: one Criterion program per concept, beside the concept it tests.
check_PROGRAMS += tests/test_explicit_euler
tests_test_explicit_euler_SOURCES = tests/test_explicit_euler.c
tests_test_explicit_euler_CFLAGS = $(MB_TESTCC)
tests_test_explicit_euler_LDADD = $(MB_TESTLIBS)
tests_test_explicit_euler_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_leapfrog
tests_test_leapfrog_SOURCES = tests/test_leapfrog.c tests/lf_run.h
tests_test_leapfrog_CFLAGS = $(MB_TESTCC)
tests_test_leapfrog_LDADD = $(MB_TESTLIBS)
tests_test_leapfrog_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_fincham
tests_test_fincham_SOURCES = tests/test_fincham.c tests/lf_run.h
tests_test_fincham_CFLAGS = $(MB_TESTCC)
tests_test_fincham_LDADD = $(MB_TESTLIBS)
tests_test_fincham_LDFLAGS = $(MB_TESTLINK)
