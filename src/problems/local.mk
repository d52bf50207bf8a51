# problems module: registered test systems.
libmotionbench_la_SOURCES += src/problems/registry.c
libmotionbench_la_SOURCES += src/problems/harmonic.c
libmotionbench_la_SOURCES += src/problems/damped.c
libmotionbench_la_SOURCES += src/problems/projectile.c
libmotionbench_la_SOURCES += src/problems/spring_pair.c
libmotionbench_la_SOURCES += src/problems/spring_chain.c
libmotionbench_la_SOURCES += src/problems/cloth.c
libmotionbench_la_SOURCES += src/problems/free_fall.c
libmotionbench_la_SOURCES += src/problems/spin_up.c
libmotionbench_la_SOURCES += src/problems/kepler.c
libmotionbench_la_SOURCES += src/problems/free_rigid_body.c
libmotionbench_la_SOURCES += src/problems/symmetric_top.c
libmotionbench_la_SOURCES += src/problems/axial_torque_top.c
libmotionbench_la_SOURCES += src/problems/cundall_oscillator.c
motionbenchinclude_HEADERS += src/problems/mb_problem.h
noinst_HEADERS += src/problems/problems.def
noinst_HEADERS += src/problems/mb_rigid_setup.h
