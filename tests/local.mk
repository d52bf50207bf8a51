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
check_PROGRAMS += tests/test_metrics
tests_test_metrics_SOURCES = tests/test_metrics.c
tests_test_metrics_CFLAGS = $(MB_TESTCC)
tests_test_metrics_LDADD = $(MB_TESTLIBS)
tests_test_metrics_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_expect
tests_test_expect_SOURCES = tests/test_expect.c
tests_test_expect_CFLAGS = $(MB_TESTCC)
tests_test_expect_LDADD = $(MB_TESTLIBS)
tests_test_expect_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_case_library
tests_test_case_library_SOURCES = tests/test_case_library.c
tests_test_case_library_CFLAGS = $(MB_TESTCC)
tests_test_case_library_LDADD = $(MB_TESTLIBS)
tests_test_case_library_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_error_growth
tests_test_error_growth_SOURCES = tests/test_error_growth.c
tests_test_error_growth_CFLAGS = $(MB_TESTCC)
tests_test_error_growth_LDADD = $(MB_TESTLIBS)
tests_test_error_growth_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_runner
tests_test_runner_SOURCES = tests/test_runner.c
tests_test_runner_CFLAGS = $(MB_TESTCC)
tests_test_runner_LDADD = $(MB_TESTLIBS)
tests_test_runner_LDFLAGS = $(MB_TESTLINK)

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
TESTS += tests/test_reference_ranges.sh
EXTRA_DIST += tests/test_reference_ranges.sh
TESTS += tests/test_man_page.sh tests/test_doc_figures.sh
EXTRA_DIST += tests/test_man_page.sh tests/test_doc_figures.sh tests/mutants/catalogue tests/mutants/run.sh
TESTS += tests/test_cli_bad_args.sh tests/test_bench_odeint.sh
EXTRA_DIST += tests/test_cli_bad_args.sh tests/test_bench_odeint.sh
TESTS += tests/test_run_summary.sh
EXTRA_DIST += tests/test_run_summary.sh
TESTS += tests/test_metrics_doc.sh
TESTS += tests/test_check_formats.sh
TESTS += tests/test_plot.sh
EXTRA_DIST += tests/test_plot.sh
TESTS += tests/test_report.sh tests/test_report_screenshot.sh
EXTRA_DIST += tests/test_report.sh tests/test_report_screenshot.sh
EXTRA_DIST += tests/test_check_formats.sh
EXTRA_DIST += tests/test_metrics_doc.sh doc/metrics.md doc/results.md tests/cli_test_lib.sh

check_PROGRAMS += tests/test_bench_mpfr_twin
tests_test_bench_mpfr_twin_SOURCES = tests/test_bench_mpfr_twin.c src/cli/bench_mpfr_twin.c
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
check_PROGRAMS += tests/test_rigid_problems
tests_test_rigid_problems_SOURCES = tests/test_rigid_problems.c tests/lf_run.h
tests_test_rigid_problems_CFLAGS = $(MB_TESTCC)
tests_test_rigid_problems_LDADD = $(MB_TESTLIBS)
tests_test_rigid_problems_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_kepler
tests_test_kepler_SOURCES = tests/test_kepler.c tests/lf_run.h
tests_test_kepler_CFLAGS = $(MB_TESTCC)
tests_test_kepler_LDADD = $(MB_TESTLIBS)
tests_test_kepler_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_cundall_oscillator
tests_test_cundall_oscillator_SOURCES = tests/test_cundall_oscillator.c tests/lf_run.h
tests_test_cundall_oscillator_CFLAGS = $(MB_TESTCC)
tests_test_cundall_oscillator_LDADD = $(MB_TESTLIBS)
tests_test_cundall_oscillator_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_reference_problems
tests_test_reference_problems_SOURCES = tests/test_reference_problems.c
tests_test_reference_problems_CFLAGS = $(MB_TESTCC)
tests_test_reference_problems_LDADD = $(MB_TESTLIBS)
tests_test_reference_problems_LDFLAGS = $(MB_TESTLINK)
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
check_PROGRAMS += tests/test_cell
tests_test_cell_SOURCES = tests/test_cell.c tests/lf_run.h
tests_test_cell_CFLAGS = $(MB_TESTCC)
tests_test_cell_LDADD = $(MB_TESTLIBS)
tests_test_cell_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_locdyn
tests_test_locdyn_SOURCES = tests/test_locdyn.c
tests_test_locdyn_CFLAGS = $(MB_TESTCC)
tests_test_locdyn_LDADD = $(MB_TESTLIBS)
tests_test_locdyn_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_solfec_constraints
tests_test_solfec_constraints_SOURCES = tests/test_solfec_constraints.c
tests_test_solfec_constraints_CFLAGS = $(MB_TESTCC)
tests_test_solfec_constraints_LDADD = $(MB_TESTLIBS)
tests_test_solfec_constraints_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_solfec_rotation
tests_test_solfec_rotation_SOURCES = tests/test_solfec_rotation.c
tests_test_solfec_rotation_CFLAGS = $(MB_TESTCC)
tests_test_solfec_rotation_LDADD = $(MB_TESTLIBS)
tests_test_solfec_rotation_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_solfec_problems
tests_test_solfec_problems_SOURCES = tests/test_solfec_problems.c
tests_test_solfec_problems_CFLAGS = $(MB_TESTCC)
tests_test_solfec_problems_LDADD = $(MB_TESTLIBS)
tests_test_solfec_problems_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_consolver
tests_test_consolver_SOURCES = tests/test_consolver.c
tests_test_consolver_CFLAGS = $(MB_TESTCC)
tests_test_consolver_LDADD = $(MB_TESTLIBS)
tests_test_consolver_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_velocity_verlet
tests_test_velocity_verlet_SOURCES = tests/test_velocity_verlet.c tests/compare_test_util.h tests/test_helpers.h
tests_test_velocity_verlet_CFLAGS = $(MB_TESTCC)
tests_test_velocity_verlet_LDADD = $(MB_TESTLIBS)
tests_test_velocity_verlet_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_rk4
tests_test_rk4_SOURCES = tests/test_rk4.c tests/compare_test_util.h tests/test_helpers.h
tests_test_rk4_CFLAGS = $(MB_TESTCC)
tests_test_rk4_LDADD = $(MB_TESTLIBS)
tests_test_rk4_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_gsl_odeiv2
tests_test_gsl_odeiv2_SOURCES = tests/test_gsl_odeiv2.c tests/compare_test_util.h tests/test_helpers.h
tests_test_gsl_odeiv2_CFLAGS = $(MB_TESTCC)
tests_test_gsl_odeiv2_LDADD = $(MB_TESTLIBS)
tests_test_gsl_odeiv2_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_verlet_nosquish
tests_test_verlet_nosquish_SOURCES = tests/test_verlet_nosquish.c tests/compare_test_util.h tests/test_helpers.h
tests_test_verlet_nosquish_CFLAGS = $(MB_TESTCC)
tests_test_verlet_nosquish_LDADD = $(MB_TESTLIBS)
tests_test_verlet_nosquish_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_verlet_nosquish_lanes
tests_test_verlet_nosquish_lanes_SOURCES = tests/test_verlet_nosquish_lanes.c
tests_test_verlet_nosquish_lanes_CFLAGS = $(MB_TESTCC)
tests_test_verlet_nosquish_lanes_LDADD = $(MB_TESTLIBS)
tests_test_verlet_nosquish_lanes_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_step_contract
tests_test_step_contract_SOURCES = tests/test_step_contract.c
tests_test_step_contract_CFLAGS = $(MB_TESTCC)
tests_test_step_contract_LDADD = $(MB_TESTLIBS)
tests_test_step_contract_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_force_params
tests_test_force_params_SOURCES = tests/test_force_params.c
tests_test_force_params_CFLAGS = $(MB_TESTCC)
tests_test_force_params_LDADD = $(MB_TESTLIBS)
tests_test_force_params_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_init
tests_test_init_SOURCES = tests/test_init.c
tests_test_init_CFLAGS = $(MB_TESTCC)
tests_test_init_LDADD = $(MB_TESTLIBS)
tests_test_init_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_nominal_orders
tests_test_nominal_orders_SOURCES = tests/test_nominal_orders.c
tests_test_nominal_orders_CFLAGS = $(MB_TESTCC)
tests_test_nominal_orders_LDADD = $(MB_TESTLIBS)
tests_test_nominal_orders_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_register
tests_test_register_SOURCES = tests/test_register.c
tests_test_register_CFLAGS = $(MB_TESTCC)
tests_test_register_LDADD = $(MB_TESTLIBS)
tests_test_register_LDFLAGS = $(MB_TESTLINK)

# the installed headers compile alone and leak no macro (also run by make installcheck)
TESTS += tests/test_headers.sh
EXTRA_DIST += tests/test_headers.sh
AM_TESTS_ENVIRONMENT += MB_INSTALLED_HEADERS='$(motionbenchinclude_HEADERS)'; export MB_INSTALLED_HEADERS; \
	MB_DEP_CFLAGS='$(GSL_CFLAGS) $(MPFR_CFLAGS) $(INIH_CFLAGS) $(JANSSON_CFLAGS) $(MATHEVAL_CFLAGS)'; export MB_DEP_CFLAGS; \
	CC='$(CC)'; export CC;
TESTS += tests/test_cli_datadir.sh
EXTRA_DIST += tests/test_cli_datadir.sh
# hardening: hostile-input catalogue, fuzz harness replay and bounded smoke-fuzz
check_PROGRAMS += tests/fuzz_replay
tests_fuzz_replay_SOURCES = tests/fuzz/fuzz_case_file.c tests/fuzz/fuzz_replay_main.c
tests_fuzz_replay_CFLAGS = $(MB_TESTCC)
tests_fuzz_replay_LDADD = $(MB_TESTLIBS)
tests_fuzz_replay_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/fuzz_replay_trajectory
tests_fuzz_replay_trajectory_SOURCES = tests/fuzz/fuzz_trajectory.c tests/fuzz/fuzz_replay_main.c
tests_fuzz_replay_trajectory_CFLAGS = $(MB_TESTCC)
tests_fuzz_replay_trajectory_LDADD = $(MB_TESTLIBS)
tests_fuzz_replay_trajectory_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_hardening
tests_test_hardening_SOURCES = tests/test_hardening.c
tests_test_hardening_CFLAGS = $(MB_TESTCC)
tests_test_hardening_LDADD = $(MB_TESTLIBS)
tests_test_hardening_LDFLAGS = $(MB_TESTLINK)
TESTS += tests/test_hostile.sh tests/fuzz/smoke.sh
EXTRA_DIST += tests/test_hostile.sh tests/hostile tests/fuzz/build.sh tests/fuzz/smoke.sh tests/fuzz/lsan.supp tests/fuzz/corpus tests/fuzz/corpus-trajectory
check_PROGRAMS += tests/test_leapfrog_still
tests_test_leapfrog_still_SOURCES = tests/test_leapfrog_still.c
tests_test_leapfrog_still_CFLAGS = $(MB_TESTCC)
tests_test_leapfrog_still_LDADD = $(MB_TESTLIBS)
tests_test_leapfrog_still_LDFLAGS = $(MB_TESTLINK)
# outside integrators: the Python example adapter end to end (shell)
TESTS += tests/test_external_python.sh
EXTRA_DIST += tests/test_external_python.sh examples/python_adapter
# outside integrators: the catalogue of broken adapters (shell)
TESTS += tests/test_external_broken.sh
EXTRA_DIST += tests/test_external_broken.sh
# score: trajectories from elsewhere give the metrics of run (shell)
TESTS += tests/test_cmd_score.sh
EXTRA_DIST += tests/test_cmd_score.sh
check_PROGRAMS += tests/test_external
tests_test_external_SOURCES = tests/test_external.c
tests_test_external_CFLAGS = $(MB_TESTCC)
tests_test_external_LDADD = $(MB_TESTLIBS)
tests_test_external_LDFLAGS = $(MB_TESTLINK)

# translation code of the LAMMPS and Yade adapters (needs neither package)
TESTS += tests/test_peers_adapters.py
EXTRA_DIST += tests/test_peers_adapters.py
check_PROGRAMS += tests/test_scene
tests_test_scene_SOURCES = tests/test_scene.c tests/mb_test_scene_text.h
tests_test_scene_CFLAGS = $(MB_TESTCC)
tests_test_scene_LDADD = $(MB_TESTLIBS)
tests_test_scene_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_contact_boxes
tests_test_contact_boxes_SOURCES = tests/test_contact_boxes.c
tests_test_contact_boxes_CFLAGS = $(MB_TESTCC)
tests_test_contact_boxes_LDADD = $(MB_TESTLIBS)
tests_test_contact_boxes_LDFLAGS = $(MB_TESTLINK)
# malformed scenes end to end: exit 2, file:line message, no report written (shell)
TESTS += tests/test_scene_bad_input.sh
EXTRA_DIST += tests/test_scene_bad_input.sh
check_PROGRAMS += tests/test_scene_presets
tests_test_scene_presets_SOURCES = tests/test_scene_presets.c tests/mb_test_scene_text.h
tests_test_scene_presets_CFLAGS = $(MB_TESTCC)
tests_test_scene_presets_LDADD = $(MB_TESTLIBS)
tests_test_scene_presets_LDFLAGS = $(MB_TESTLINK)
# the smoke-fuzz builds its libFuzzer target beside the tests (tests/fuzz/smoke.sh)
clean-local: clean-fuzz
clean-fuzz:
	-rm -rf fuzz-build fuzz-build.log fuzz-finding-*
.PHONY: clean-fuzz

check_PROGRAMS += tests/test_blocktri
tests_test_blocktri_SOURCES = tests/test_blocktri.c tests/test_helpers.h
tests_test_blocktri_CFLAGS = $(MB_TESTCC)
tests_test_blocktri_LDADD = $(MB_TESTLIBS)
tests_test_blocktri_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_eval_jacobian
tests_test_eval_jacobian_SOURCES = tests/test_eval_jacobian.c tests/test_helpers.h
tests_test_eval_jacobian_CFLAGS = $(MB_TESTCC)
tests_test_eval_jacobian_LDADD = $(MB_TESTLIBS)
tests_test_eval_jacobian_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_linsys_sink
tests_test_linsys_sink_SOURCES = tests/test_linsys_sink.c tests/test_helpers.h
tests_test_linsys_sink_CFLAGS = $(MB_TESTCC)
tests_test_linsys_sink_LDADD = $(MB_TESTLIBS)
tests_test_linsys_sink_LDFLAGS = $(MB_TESTLINK)
check_PROGRAMS += tests/test_forces_eval
tests_test_forces_eval_SOURCES = tests/test_forces_eval.c
tests_test_forces_eval_CFLAGS = $(MB_TESTCC)
tests_test_forces_eval_LDADD = $(MB_TESTLIBS)
tests_test_forces_eval_LDFLAGS = $(MB_TESTLINK)

check_PROGRAMS += tests/test_leapfrog_stream
tests_test_leapfrog_stream_SOURCES = tests/test_leapfrog_stream.c
tests_test_leapfrog_stream_CFLAGS = $(MB_TESTCC)
tests_test_leapfrog_stream_LDADD = $(MB_TESTLIBS)
tests_test_leapfrog_stream_LDFLAGS = $(MB_TESTLINK)
