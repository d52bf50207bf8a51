# tests: one Criterion program per concept, beside the concept it tests.
check_PROGRAMS += tests/test_explicit_euler
tests_test_explicit_euler_SOURCES = tests/test_explicit_euler.c
tests_test_explicit_euler_CFLAGS = $(MB_TESTCC)
tests_test_explicit_euler_LDADD = $(MB_TESTLIBS)
tests_test_explicit_euler_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_contact
tests_test_contact_SOURCES = tests/test_contact.c
tests_test_contact_CFLAGS = $(MB_TESTCC)
tests_test_contact_LDADD = $(MB_TESTLIBS)
tests_test_contact_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_clump
tests_test_clump_SOURCES = tests/test_clump.c
tests_test_clump_CFLAGS = $(MB_TESTCC)
tests_test_clump_LDADD = $(MB_TESTLIBS)
tests_test_clump_LDFLAGS = $(MB_TESTLINK)
