# the motionbench program: one file per command.
src_motionbench_SOURCES += src/cli/main.c src/cli/cmd_list.c src/cli/cmd_simulate.c \
	src/cli/cmd_bench.c src/cli/bench_implicit.c
noinst_HEADERS += src/cli/cli.h src/cli/benches.def
