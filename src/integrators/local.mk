# integrators module: one file per scheme, the registry, dispatch.
libmotionbench_la_SOURCES += \
	src/integrators/stepper.c src/integrators/registry.c \
	src/integrators/explicit_euler.c \
	src/integrators/leapfrog.c
motionbenchinclude_HEADERS += src/integrators/mb_stepper.h src/integrators/mb_leapfrog.h
noinst_HEADERS += src/integrators/steppers.def src/integrators/mb_scheme_util.h \
	src/integrators/explicit_euler_source.c \
	src/integrators/leapfrog_source.c
