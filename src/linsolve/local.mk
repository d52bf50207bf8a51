# linsolve module: assembly of implicit systems and their linear solvers.
libmotionbench_la_SOURCES += src/linsolve/linsys_assemble.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_gauss.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_lu.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_csr.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_csr_blocks.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_band.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_blocktri.c
libmotionbench_la_SOURCES += src/linsolve/linsys_sink.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_gmres.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_krylov.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_bicgstab.c
libmotionbench_la_SOURCES += src/linsolve/linsolve_pcg.c
motionbenchinclude_HEADERS += src/linsolve/mb_linsolve.h
motionbenchinclude_HEADERS += src/linsolve/mb_linsys_sink.h
noinst_HEADERS += src/linsolve/linsys_assemble_source.c
noinst_HEADERS += src/linsolve/linsolve_gauss_source.c
