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
check_PROGRAMS += tests/test_timestep
tests_test_timestep_SOURCES = tests/test_timestep.c
tests_test_timestep_CFLAGS = $(MB_TESTCC)
tests_test_timestep_LDADD = $(MB_TESTLIBS)
tests_test_timestep_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_collision
tests_test_collision_SOURCES = tests/test_collision.c
tests_test_collision_CFLAGS = $(MB_TESTCC)
tests_test_collision_LDADD = $(MB_TESTLIBS)
tests_test_collision_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_dem_problems
tests_test_dem_problems_SOURCES = tests/test_dem_problems.c
tests_test_dem_problems_CFLAGS = $(MB_TESTCC)
tests_test_dem_problems_LDADD = $(MB_TESTLIBS)
tests_test_dem_problems_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_symplectic_euler
tests_test_symplectic_euler_SOURCES = tests/test_symplectic_euler.c tests/test_helpers.h
tests_test_symplectic_euler_CFLAGS = $(MB_TESTCC)
tests_test_symplectic_euler_LDADD = $(MB_TESTLIBS)
tests_test_symplectic_euler_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_implicit_euler
tests_test_implicit_euler_SOURCES = tests/test_implicit_euler.c tests/test_helpers.h
tests_test_implicit_euler_CFLAGS = $(MB_TESTCC)
tests_test_implicit_euler_LDADD = $(MB_TESTLIBS)
tests_test_implicit_euler_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_implicit_euler_newton
tests_test_implicit_euler_newton_SOURCES = tests/test_implicit_euler_newton.c tests/test_helpers.h
tests_test_implicit_euler_newton_CFLAGS = $(MB_TESTCC)
tests_test_implicit_euler_newton_LDADD = $(MB_TESTLIBS)
tests_test_implicit_euler_newton_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_jacobians
tests_test_jacobians_SOURCES = tests/test_jacobians.c
tests_test_jacobians_CFLAGS = $(MB_TESTCC)
tests_test_jacobians_LDADD = $(MB_TESTLIBS)
tests_test_jacobians_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_linsolve
tests_test_linsolve_SOURCES = tests/test_linsolve.c
tests_test_linsolve_CFLAGS = $(MB_TESTCC)
tests_test_linsolve_LDADD = $(MB_TESTLIBS)
tests_test_linsolve_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_problems_euler
tests_test_problems_euler_SOURCES = tests/test_problems_euler.c tests/test_helpers.h
tests_test_problems_euler_CFLAGS = $(MB_TESTCC)
tests_test_problems_euler_LDADD = $(MB_TESTLIBS)
tests_test_problems_euler_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_cli_simulate
tests_test_cli_simulate_SOURCES = tests/test_cli_simulate.c
tests_test_cli_simulate_CFLAGS = $(MB_TESTCC)
tests_test_cli_simulate_LDADD = $(MB_TESTLIBS)
tests_test_cli_simulate_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_euler_order
tests_test_euler_order_SOURCES = tests/test_euler_order.c tests/test_helpers.h
tests_test_euler_order_CFLAGS = $(MB_TESTCC)
tests_test_euler_order_LDADD = $(MB_TESTLIBS)
tests_test_euler_order_LDFLAGS = $(MB_TESTLINK)
