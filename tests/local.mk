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

check_PROGRAMS += tests/test_reference_problems
tests_test_reference_problems_SOURCES = tests/test_reference_problems.c
tests_test_reference_problems_CFLAGS = $(MB_TESTCC)
tests_test_reference_problems_LDADD = $(MB_TESTLIBS)
tests_test_reference_problems_LDFLAGS = $(MB_TESTLINK)
