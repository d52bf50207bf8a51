# tests: one Criterion program per concept, beside the concept it tests.
# One line per test: `check_PROGRAMS += tests/test_NAME` builds tests/test_NAME.c with the
# defaults of Makefile.am (AM_CFLAGS with Criterion's flags, LDADD = $(MB_TESTLIBS),
# AM_LDFLAGS = $(MB_TESTLINK)); a test with more sources than its own adds a _SOURCES line,
# and a header shared by tests is listed once in noinst_HEADERS.
noinst_HEADERS += tests/test_helpers.h tests/lf_run.h tests/compare_test_util.h tests/problem_run.h \
	tests/ref_test_forces.h tests/twin_test_kernels.h tests/mb_test_scene_text.h tests/neighbour_brute.h tests/ref_test_types.h tests/test_files.h \
	tests/csr_test_fixture.h tests/test_program.h

# The program under test without libtool's wrapper script: the program's path and the
# library path the wrapper would set, resolved once by libtool's execute mode into
# tests/program.env and exported to every test as MB_PROGRAM and LD_LIBRARY_PATH.  The
# wrapper, a bash script run at every call, costs about 0.15 s of processor time a call,
# the program's own start 0.03 s, and the tests call the program thousands of times.  A
# test run by hand, without MB_PROGRAM, calls the wrapper (src/motionbench).
tests/program.env: src/motionbench$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests; $(LIBTOOL) --mode=execute sh -c 'printf "%s\n%s\n" "$$1" "$$LD_LIBRARY_PATH"' \
	    sh $(abs_top_builddir)/src/motionbench$(EXEEXT) > $@.tmp && mv $@.tmp $@
check_DATA = tests/program.env
CLEANFILES += tests/program.env tests/program.env.tmp
AM_TESTS_ENVIRONMENT += if test -r tests/program.env; then \
	{ read -r MB_PROGRAM; read -r LD_LIBRARY_PATH; } < tests/program.env; \
	export MB_PROGRAM LD_LIBRARY_PATH; fi;
# The test programs link without libtool's script: libtool's command for them is resolved
# once, by a dry run, into tests/testlink.memo, and tests/testlink.sh runs it with each
# program's name and objects (the same compiler command, 0.17 s of processor time, against
# 0.8 s through libtool's script).  LINK is automake's own with tests/testlink.sh in front;
# the programs and libraries with their own flags (_CFLAGS, _LDFLAGS) link through their
# own _LINK, libtool's.  When the memo is missing, stale, or was made for another command
# line (make CFLAGS=...), tests/testlink.sh runs libtool as given.  The memo is built with
# the library (make all), so that make check finds it before linking the tests.
LINK = $(SHELL) $(srcdir)/tests/testlink.sh tests/testlink.memo \
	$(LIBTOOL) $(AM_V_lt) --tag=CC $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) --mode=link \
	$(CCLD) $(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS) $(LDFLAGS) -o $@
tests/testlink.memo: libmotionbench.la Makefile $(srcdir)/tests/testlink.sh
	$(AM_V_GEN)$(MKDIR_P) tests; $(SHELL) $(srcdir)/tests/testlink.sh --memo $@ $(OBJEXT) \
	    $(LIBTOOL) --dry-run --tag=CC $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) --mode=link \
	    $(CCLD) $(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS) $(LDFLAGS) \
	    -o tests/testlink-probe tests/testlink-probe.$(OBJEXT) $(LDADD) $(LIBS)
noinst_DATA = tests/testlink.memo
CLEANFILES += tests/testlink.memo tests/testlink.memo.tmp
EXTRA_DIST += tests/testlink.sh
# python3 as the interpreter itself: a version manager's shim first on PATH (pyenv's is a
# bash script that runs `pyenv exec`) costs each start of an adapter or tool about 0.7 s of
# processor time, the interpreter alone about 0.1 s.  tests/bin/python3 links the
# interpreter that python3 names (sys.executable), so the tests run the same Python, and
# make check puts tests/bin first on PATH; without python3 there is no link.
tests/bin/python3:
	$(AM_V_GEN)rm -f $@; $(MKDIR_P) tests/bin; \
	if py=`python3 -c 'import sys; print(sys.executable)' 2>/dev/null` && test -x "$$py"; then \
	    ln -s "$$py" $@; fi
check_DATA += tests/bin/python3
CLEANFILES += tests/bin/python3
AM_TESTS_ENVIRONMENT += PATH='$(abs_top_builddir)/tests/bin':$$PATH; export PATH;
# LAMMPS, the peer of the DEM tests, is an Open MPI program: started without a launcher,
# Open MPI's singleton spawns an orted daemon and handshakes with it, about 0.04 s of
# processor time and 0.2-0.4 s of wall time a start on a loaded machine (ten starts of
# `lmp` on an empty input), and the tests start it about sixty times.  The tests run it
# as one process, which ess_singleton_isolated starts without the daemon; its runs are
# the same.
AM_TESTS_ENVIRONMENT += OMPI_MCA_ess_singleton_isolated=1; export OMPI_MCA_ess_singleton_isolated;
check_PROGRAMS += tests/test_ini_read
check_PROGRAMS += tests/test_fork
check_PROGRAMS += tests/test_index_search
check_PROGRAMS += tests/test_array_scan
check_PROGRAMS += tests/test_case_file
check_PROGRAMS += tests/test_order_fit
check_PROGRAMS += tests/test_series_stats
check_PROGRAMS += tests/test_many_body_stats
check_PROGRAMS += tests/test_metrics
check_PROGRAMS += tests/test_energy_driven
check_PROGRAMS += tests/test_expect
check_PROGRAMS += tests/test_case_library
check_PROGRAMS += tests/test_error_growth
check_PROGRAMS += tests/test_runner
check_PROGRAMS += tests/test_closed_oscillator
check_PROGRAMS += tests/test_closed_motion
check_PROGRAMS += tests/test_closed_tops
check_PROGRAMS += tests/test_ode_reference
check_PROGRAMS += tests/test_mpfr_reference
check_PROGRAMS += tests/test_twin
check_PROGRAMS += tests/test_status
check_PROGRAMS += tests/test_text_format
check_PROGRAMS += tests/test_reference_ranges

# the reference command end to end (shell)
TESTS += tests/test_cmd_reference.sh
EXTRA_DIST += tests/test_cmd_reference.sh
TESTS += tests/test_man_page.sh
TESTS += tests/test_doc_figures.sh
EXTRA_DIST += tests/test_man_page.sh tests/test_doc_figures.sh tests/mutants/catalogue tests/mutants/run.sh
TESTS += tests/test_cli_bad_args.sh
TESTS += tests/test_bench_odeint.sh
TESTS += tests/test_peer_drivers.sh
EXTRA_DIST += tests/test_cli_bad_args.sh tests/test_bench_odeint.sh tests/test_peer_drivers.sh
TESTS += tests/test_run_summary.sh
TESTS += tests/test_dem_impact_cases.sh
TESTS += tests/test_bench_dem.sh
TESTS += tests/test_bench_fincham.sh
TESTS += tests/test_granular_gas.sh
TESTS += tests/test_friction_balance.sh
EXTRA_DIST += tests/lammps_counted.sh tests/test_bench_dem.sh tests/test_bench_fincham.sh tests/test_granular_gas.sh tests/test_friction_balance.sh
EXTRA_DIST += tests/test_dem_impact_cases.sh
EXTRA_DIST += tests/test_run_summary.sh
TESTS += tests/test_metrics_doc.sh
TESTS += tests/test_check_formats.sh
TESTS += tests/test_plot.sh
EXTRA_DIST += tests/test_plot.sh
TESTS += tests/test_report.sh
TESTS += tests/test_report_screenshot.sh
EXTRA_DIST += tests/test_report.sh tests/test_report_screenshot.sh
EXTRA_DIST += tests/test_check_formats.sh
EXTRA_DIST += tests/test_metrics_doc.sh doc/metrics.md doc/results.md tests/cli_test_lib.sh
check_PROGRAMS += tests/test_bench_mpfr_twin
check_PROGRAMS += tests/test_bench_lammps
check_PROGRAMS += tests/test_bench_rounds
check_PROGRAMS += tests/test_bench_cpus
tests_test_bench_cpus_SOURCES = tests/test_bench_cpus.c src/cli/bench_cpus.c \
	src/cli/bench_util.c src/cli/cli_options.c
check_PROGRAMS += tests/test_bench_growth
tests_test_bench_growth_SOURCES = tests/test_bench_growth.c src/cli/bench_growth.c
tests_test_bench_rounds_SOURCES = tests/test_bench_rounds.c src/cli/bench_rounds.c
check_PROGRAMS += tests/test_bench_rebuild
tests_test_bench_rebuild_SOURCES = tests/test_bench_rebuild.c src/cli/bench_rebuild.c
check_PROGRAMS += tests/test_bench_blocktri
tests_test_bench_blocktri_SOURCES = tests/test_bench_blocktri.c src/cli/bench_blocktri.c
tests_test_bench_lammps_SOURCES = tests/test_bench_lammps.c src/cli/bench_lammps.c \
                                  src/cli/bench_lammps_rounds.c
tests_test_bench_mpfr_twin_SOURCES = tests/test_bench_mpfr_twin.c src/cli/bench_mpfr_twin.c \
	src/cli/cli_options.c src/cli/bench_cpus.c
check_PROGRAMS += tests/test_leapfrog
check_PROGRAMS += tests/test_fincham
check_PROGRAMS += tests/test_fincham_pairs
check_PROGRAMS += tests/test_contact
check_PROGRAMS += tests/test_contact_friction
check_PROGRAMS += tests/test_friction_work
check_PROGRAMS += tests/test_sliding_rolling
check_PROGRAMS += tests/test_impact_metrics
check_PROGRAMS += tests/test_tangential_dashpot
check_PROGRAMS += tests/test_clump
check_PROGRAMS += tests/test_timestep
check_PROGRAMS += tests/test_collision
check_PROGRAMS += tests/test_impact_reference
check_PROGRAMS += tests/test_dem_problems
check_PROGRAMS += tests/test_rigid_problems
check_PROGRAMS += tests/test_kepler
check_PROGRAMS += tests/test_cundall_oscillator
check_PROGRAMS += tests/test_reference_problems
check_PROGRAMS += tests/test_explicit_euler
check_PROGRAMS += tests/test_symplectic_euler
check_PROGRAMS += tests/test_implicit_euler
check_PROGRAMS += tests/test_implicit_euler_newton

check_PROGRAMS += tests/test_force_models
check_PROGRAMS += tests/test_metric_controls
check_PROGRAMS += tests/test_jacobians
check_PROGRAMS += tests/test_linsolve
check_PROGRAMS += tests/test_problems_euler
check_PROGRAMS += tests/test_cli_simulate
check_PROGRAMS += tests/test_memory_estimate_simulate
check_PROGRAMS += tests/test_cli_options
tests_test_cli_options_SOURCES = tests/test_cli_options.c src/cli/cli_options.c
check_PROGRAMS += tests/test_euler_order
check_PROGRAMS += tests/test_cell
check_PROGRAMS += tests/test_neighbour
check_PROGRAMS += tests/test_contact_neighbours
check_PROGRAMS += tests/test_neighbour_cell
check_PROGRAMS += tests/test_assembly
check_PROGRAMS += tests/test_closed_granular
check_PROGRAMS += tests/test_pair_lj
check_PROGRAMS += tests/test_lj_fluid
check_PROGRAMS += tests/test_locdyn
check_PROGRAMS += tests/test_solfec_constraints
check_PROGRAMS += tests/test_solfec_rotation
check_PROGRAMS += tests/test_solfec_problems
check_PROGRAMS += tests/test_consolver
check_PROGRAMS += tests/test_velocity_verlet
check_PROGRAMS += tests/test_rk4
check_PROGRAMS += tests/test_gsl_odeiv2
check_PROGRAMS += tests/test_verlet_nosquish
check_PROGRAMS += tests/test_verlet_nosquish_lanes
check_PROGRAMS += tests/test_sincos
check_PROGRAMS += tests/test_step_contract
check_PROGRAMS += tests/test_force_params
check_PROGRAMS += tests/test_init
check_PROGRAMS += tests/test_nominal_orders
check_PROGRAMS += tests/test_register
check_PROGRAMS += tests/test_run_forked

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
check_PROGRAMS += tests/fuzz_replay_trajectory
tests_fuzz_replay_trajectory_SOURCES = tests/fuzz/fuzz_trajectory.c tests/fuzz/fuzz_replay_main.c
check_PROGRAMS += tests/test_hardening
# the memory estimate of run against the peak resident set of the runner
check_PROGRAMS += tests/test_memory_estimate
TESTS += tests/test_hostile.sh
TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/test_hostile.sh tests/hostile tests/fuzz/build.sh tests/fuzz/smoke.sh tests/fuzz/replay.sh tests/fuzz/lsan.supp tests/fuzz/corpus tests/fuzz/corpus-trajectory
check_PROGRAMS += tests/test_leapfrog_still
# outside integrators: the Python example adapter end to end (shell)
TESTS += tests/test_external_python.sh
EXTRA_DIST += tests/test_external_python.sh examples/python_adapter
# outside_rows = samples: an outside gas's sampled rows alone, fed to Haff's observer (shell)
TESTS += tests/test_outside_rows.sh
EXTRA_DIST += tests/test_outside_rows.sh
# the flat run description run.txt against run.json, and the C reader (shell, Python)
TESTS += tests/test_run_flat.sh
EXTRA_DIST += tests/test_run_flat.sh tests/flat_vs_json.py examples/run_txt
# outside integrators: the Fortran example adapter reading run.txt (shell; skipped
# without gfortran)
TESTS += tests/test_external_fortran.sh
EXTRA_DIST += tests/test_external_fortran.sh examples/fortran_adapter
# the mass.* metrics against closed forms (shell)
TESTS += tests/test_mass_properties.sh
EXTRA_DIST += tests/test_mass_properties.sh
# a potential of the orientation for expression torques: the heavy top (shell)
TESTS += tests/test_scene_potential.sh
EXTRA_DIST += tests/test_scene_potential.sh
# [run] probe: the state at chosen step times in probes.csv (shell, Python)
TESTS += tests/test_probes.sh
EXTRA_DIST += tests/test_probes.sh
# simulate -i external:NAME: an outside program's trajectory as simulate writes it (shell)
TESTS += tests/test_simulate_external.sh
EXTRA_DIST += tests/test_simulate_external.sh
# the CI template of a user's repository, with its negative control (shell)
TESTS += tests/test_ci_template.sh
EXTRA_DIST += tests/test_ci_template.sh
# outside integrators: the catalogue of broken adapters (shell)
TESTS += tests/test_external_broken.sh
EXTRA_DIST += tests/test_external_broken.sh
# the atlas: doc/atlas.md regenerated from reports/atlas/ byte for byte (shell)
TESTS += tests/test_atlas.sh
EXTRA_DIST += tests/test_atlas.sh
# outside integrators of protocol 2: batches, good and hostile (shell)
TESTS += tests/test_external_batch.sh
EXTRA_DIST += tests/test_external_batch.sh
# outside integrators: the shipped adapters explain their failures (shell)
TESTS += tests/test_adapter_reasons.sh
EXTRA_DIST += tests/test_adapter_reasons.sh
# outside integrators: run.json's contacts, laws and units read by an independent reader (shell)
TESTS += tests/test_run_json.sh
EXTRA_DIST += tests/test_run_json.sh tests/run_json_check.py tests/data/run-json
# outside integrators: LAMMPS's and Yade's translation of the frictional laws (shell)
TESTS += tests/test_adapter_granular.sh
TESTS += tests/test_friction_replay.sh
EXTRA_DIST += tests/test_friction_replay.sh tests/data/friction-replay-lammps.case
EXTRA_DIST += tests/test_adapter_granular.sh tests/adapter_granular_check.py
# score: trajectories from elsewhere give the metrics of run (shell)
TESTS += tests/test_cmd_score.sh
EXTRA_DIST += tests/test_cmd_score.sh
# trajectories as NumPy .npy arrays, end to end through the Python example (shell)
TESTS += tests/test_external_npy.sh
EXTRA_DIST += tests/test_external_npy.sh
check_PROGRAMS += tests/test_external
# the .npy trajectory reader over buffers built byte by byte
check_PROGRAMS += tests/test_trajectory_npy

# translation code of the LAMMPS and Yade adapters (needs neither package)
TESTS += tests/test_peers_adapters.py
EXTRA_DIST += tests/test_peers_adapters.py
# the Siconos adapter's nonlinear forces and their Jacobians (numpy, no Siconos)
TESTS += tests/test_siconos_forces.py
EXTRA_DIST += tests/test_siconos_forces.py
check_PROGRAMS += tests/test_scene
check_PROGRAMS += tests/test_contact_boxes
# malformed scenes end to end: exit 2, file:line message, no report written (shell)
TESTS += tests/test_scene_bad_input.sh
# a settling column as scene data runs byte for byte as the granular-column problem (shell)
TESTS += tests/test_scene_assembly.sh
# the mutant runner injects catalogue lines literally (shell)
TESTS += tests/test_mutants_inject.sh
EXTRA_DIST += tests/test_mutants_inject.sh tests/mutants/inject.sh
EXTRA_DIST += tests/test_scene_assembly.sh
EXTRA_DIST += tests/test_scene_bad_input.sh
check_PROGRAMS += tests/test_scene_presets
check_PROGRAMS += tests/test_scene_assembly
# `make fuzz`: the bounded smoke-fuzz (tests/fuzz/smoke.sh), run by CI and not by make check;
# it builds its libFuzzer targets beside the tests, in fuzz-build/ (tests/fuzz/build.sh)
fuzz: tests/fuzz_replay tests/fuzz_replay_trajectory
	MB_SRCDIR='$(abs_top_srcdir)' MB_BUILDDIR='$(abs_top_builddir)' $(SHELL) $(srcdir)/tests/fuzz/smoke.sh
.PHONY: fuzz
clean-local: clean-fuzz
clean-fuzz:
	-rm -rf fuzz-build fuzz-build.log fuzz-finding-*
.PHONY: clean-fuzz
check_PROGRAMS += tests/test_blocktri
check_PROGRAMS += tests/test_block3_lanes
check_PROGRAMS += tests/test_blocktri_rows
# the same sweep with block3_rows.h's scalar form (the form built where SSE2 is absent):
# its own copy of linsolve_blocktri.c, which the program's symbols take before the library's
check_PROGRAMS += tests/test_blocktri_rows_scalar
tests_test_blocktri_rows_scalar_SOURCES = tests/test_blocktri_rows.c \
	src/linsolve/linsolve_blocktri.c
tests_test_blocktri_rows_scalar_CPPFLAGS = $(AM_CPPFLAGS) -DMB_BLOCK3_ROWS_SCALAR
check_PROGRAMS += tests/test_eval_jacobian
check_PROGRAMS += tests/test_linsys_sink
check_PROGRAMS += tests/test_csr_blocks
check_PROGRAMS += tests/test_bicgstab_sgs
check_PROGRAMS += tests/test_forces_eval
check_PROGRAMS += tests/test_springs_records
check_PROGRAMS += tests/test_leapfrog_stream
check_PROGRAMS += tests/test_sha256
TESTS += tests/test_shards.sh
EXTRA_DIST += tests/test_shards.sh
TESTS += tests/test_ref_cache.sh
EXTRA_DIST += tests/test_ref_cache.sh
TESTS += tests/test_slurm.sh
EXTRA_DIST += tests/test_slurm.sh tools/slurm/submit.sh tools/slurm/local_cluster.sh
check_PROGRAMS += tests/test_leapfrog_rot_quads
check_PROGRAMS += tests/test_dem_box
