# the motionbench program: one file per command.
src_motionbench_SOURCES += src/cli/main.c src/cli/cmd_list.c
src_motionbench_SOURCES += src/cli/cmd_reference.c
noinst_HEADERS += src/cli/cli.h
