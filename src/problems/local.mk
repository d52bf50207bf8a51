# problems module: registered test systems.
libmotionbench_la_SOURCES += \
	src/problems/registry.c src/problems/harmonic.c
motionbenchinclude_HEADERS += src/problems/mb_problem.h
noinst_HEADERS += src/problems/problems.def
# DEM contact problems and the free clump
libmotionbench_la_SOURCES += src/problems/contact_problem.c src/problems/sphere_collision.c \
	src/problems/sphere_wall.c src/problems/sphere_settle.c src/problems/clump_free.c
noinst_HEADERS += src/problems/mb_contact_problem.h
