# reference module: closed forms, GSL ODE and MPFR references.
libmotionbench_la_SOURCES += src/reference/reference.c
motionbenchinclude_HEADERS += src/reference/mb_reference.h
# closed forms of binary normal collisions (DEM contacts)
libmotionbench_la_SOURCES += src/reference/closed_contact.c
motionbenchinclude_HEADERS += src/reference/mb_closed_contact.h
