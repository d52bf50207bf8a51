# core module: algebra, node store, forces, energy, options, status.
libmotionbench_la_SOURCES += \
	src/core/status.c src/core/mpfr_extra.c src/core/nodes.c src/core/jacobian.c \
	src/core/forces.c src/core/force_field.c src/core/force_springs.c \
	src/core/system.c src/core/energy.c src/core/options.c \
	src/core/linsys_assemble.c src/core/linsolve_gauss.c src/core/linsolve_lu.c \
	src/core/linsolve_csr.c src/core/linsolve_gmres.c \
	src/core/linsolve_krylov.c src/core/linsolve_bicgstab.c src/core/linsolve_pcg.c
motionbenchinclude_HEADERS += \
	src/core/mb_status.h src/core/mb_vec.h src/core/mb_nodes.h src/core/mb_nodes_struct.h \
	src/core/mb_jacobian.h src/core/mb_jacobian_struct.h src/core/mb_forces.h \
	src/core/mb_system.h src/core/mb_energy.h src/core/mb_options.h src/core/mb_mpfr_extra.h \
	src/core/templates_on.h src/core/templates_off.h \
	src/core/mb_linsolve.h src/core/mb_linsolve_template.h
# template bodies: included, never compiled on their own
noinst_HEADERS += src/core/nodes_source.c src/core/jacobian_source.c \
	src/core/force_field_source.c src/core/force_springs_source.c \
	src/core/linsys_assemble_source.c src/core/linsolve_gauss_source.c
