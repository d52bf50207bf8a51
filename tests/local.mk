# tests: one Criterion program per concept, beside the concept it tests.
check_PROGRAMS += tests/test_explicit_euler
tests_test_explicit_euler_SOURCES = tests/test_explicit_euler.c
tests_test_explicit_euler_CFLAGS = $(MB_TESTCC)
tests_test_explicit_euler_LDADD = $(MB_TESTLIBS)
tests_test_explicit_euler_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_case_file
tests_test_case_file_SOURCES = tests/test_case_file.c
tests_test_case_file_CFLAGS = $(MB_TESTCC)
tests_test_case_file_LDADD = $(MB_TESTLIBS)
tests_test_case_file_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_order_fit
tests_test_order_fit_SOURCES = tests/test_order_fit.c
tests_test_order_fit_CFLAGS = $(MB_TESTCC)
tests_test_order_fit_LDADD = $(MB_TESTLIBS)
tests_test_order_fit_LDFLAGS = $(MB_TESTLINK)
