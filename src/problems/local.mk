# problems module: registered test systems.
libmotionbench_la_SOURCES += \
	src/problems/registry.c src/problems/harmonic.c
motionbenchinclude_HEADERS += src/problems/mb_problem.h
noinst_HEADERS += src/problems/problems.def
