# contact module: sources of libmotionbench.
# clumps: rigid aggregates of spheres (mass properties, principal frame, members)
libmotionbench_la_SOURCES += src/contact/clump.c
motionbenchinclude_HEADERS += src/contact/mb_clump.h
