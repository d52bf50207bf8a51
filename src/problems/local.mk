# problems module: registered test systems.
libmotionbench_la_SOURCES += \
	src/problems/registry.c src/problems/harmonic.c src/problems/damped.c \
	src/problems/projectile.c src/problems/spring_pair.c src/problems/spring_chain.c \
	src/problems/cloth.c
motionbenchinclude_HEADERS += src/problems/mb_problem.h
noinst_HEADERS += src/problems/problems.def
