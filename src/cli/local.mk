# the motionbench program: one file per command.
src_motionbench_SOURCES += src/cli/main.c
src_motionbench_SOURCES += src/cli/cmd_list.c
src_motionbench_SOURCES += src/cli/cmd_reference.c
src_motionbench_SOURCES += src/cli/cmd_simulate.c
src_motionbench_SOURCES += src/cli/cmd_bench.c
src_motionbench_SOURCES += src/cli/bench_implicit.c
src_motionbench_SOURCES += src/cli/cmd_run.c
src_motionbench_SOURCES += src/cli/cmd_check.c
src_motionbench_SOURCES += src/cli/run_summary.c
src_motionbench_SOURCES += src/cli/ci_log.c
src_motionbench_SOURCES += src/cli/cmd_plot.c
src_motionbench_SOURCES += src/cli/cmd_report.c
src_motionbench_SOURCES += src/cli/report_args.c
noinst_HEADERS += src/cli/cli.h
noinst_HEADERS += src/cli/run_summary.h
noinst_HEADERS += src/cli/ci_log.h
noinst_HEADERS += src/cli/benches.def
