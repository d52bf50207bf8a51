# core module: algebra, node store, forces, energy, options, status.
libmotionbench_la_SOURCES += \
	src/core/status.c src/core/mpfr_extra.c src/core/nodes.c src/core/jacobian.c \
	src/core/forces.c src/core/force_field.c src/core/force_springs.c \
	src/core/system.c src/core/energy.c src/core/options.c
motionbenchinclude_HEADERS += \
	src/core/mb_status.h src/core/mb_vec.h src/core/mb_nodes.h src/core/mb_nodes_struct.h \
	src/core/mb_jacobian.h src/core/mb_jacobian_struct.h src/core/mb_forces.h \
	src/core/mb_system.h src/core/mb_energy.h src/core/mb_options.h src/core/mb_mpfr_extra.h \
	src/core/templates_on.h src/core/templates_off.h
# template bodies: included, never compiled on their own
noinst_HEADERS += src/core/nodes_source.c src/core/jacobian_source.c \
	src/core/force_field_source.c src/core/force_springs_source.c
# normal contact models (linear spring-dashpot, Hertz) between spheres and planes
libmotionbench_la_SOURCES += \
	src/core/contact_pairs.c src/core/force_contact_linear.c src/core/force_contact_hertz.c
motionbenchinclude_HEADERS += src/core/mb_contact.h
noinst_HEADERS += src/core/contact_set.h src/core/contact_geometry_source.c \
	src/core/force_contact_linear_source.c src/core/force_contact_hertz_source.c
# critical time-step estimates and the DynDt adapter
libmotionbench_la_SOURCES += src/core/timestep.c
motionbenchinclude_HEADERS += src/core/mb_timestep.h
