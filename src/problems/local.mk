# problems module: registered test systems.
libmotionbench_la_SOURCES += \
	src/problems/registry.c src/problems/harmonic.c \
	src/problems/free_fall.c src/problems/spin_up.c src/problems/kepler.c \
	src/problems/free_rigid_body.c src/problems/symmetric_top.c \
	src/problems/axial_torque_top.c src/problems/cundall_oscillator.c
motionbenchinclude_HEADERS += src/problems/mb_problem.h
noinst_HEADERS += src/problems/problems.def src/problems/mb_rigid_setup.h
