# reference module: closed forms, GSL ODE and MPFR references, same-scheme twins.
libmotionbench_la_SOURCES += src/reference/reference.c \
	src/reference/closed_oscillator.c src/reference/closed_ballistic.c \
	src/reference/closed_spinup.c src/reference/closed_symtop.c \
	src/reference/closed_asymtop.c src/reference/closed_kepler.c \
	src/reference/closed_affine.c src/reference/closed_contact.c \
	src/reference/closed_pendulum.c \
	src/reference/ref_rhs.c src/reference/ode_reference.c src/reference/mpfr_reference.c \
	src/reference/twin.c
motionbenchinclude_HEADERS += src/reference/mb_reference.h src/reference/mb_closed.h \
	src/reference/mb_ode_reference.h src/reference/mb_mpfr_reference.h \
	src/reference/mb_ref_rhs.h src/reference/mb_twin.h
# template bodies: included, never compiled on their own
noinst_HEADERS += src/reference/ref_rhs_source.c
