# reference module: closed forms, GSL ODE and MPFR references.
libmotionbench_la_SOURCES += src/reference/reference.c
motionbenchinclude_HEADERS += src/reference/mb_reference.h
