# reference module: closed forms, GSL ODE and MPFR references, same-scheme twins.
libmotionbench_la_SOURCES += src/reference/reference.c \
	src/reference/closed_oscillator.c src/reference/closed_ballistic.c \
	src/reference/closed_spinup.c src/reference/closed_symtop.c \
	src/reference/closed_asymtop.c src/reference/closed_kepler.c \
	src/reference/closed_affine.c src/reference/closed_contact.c \
	src/reference/closed_pendulum.c
motionbenchinclude_HEADERS += src/reference/mb_reference.h src/reference/mb_closed.h
