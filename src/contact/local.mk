# contact module: sources of libmotionbench.
libmotionbench_la_SOURCES += src/contact/clump.c
motionbenchinclude_HEADERS += src/contact/mb_clump.h
