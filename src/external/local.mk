# external module: outside integrators through the external-program protocol (doc/external.md).
libmotionbench_la_SOURCES += src/external/adapter_spec.c
libmotionbench_la_SOURCES += src/external/adapter_descriptor.c
libmotionbench_la_SOURCES += src/external/adapter_requires.c
libmotionbench_la_SOURCES += src/external/run_description.c
libmotionbench_la_SOURCES += src/external/run_flat.c
libmotionbench_la_SOURCES += src/external/adapter_process.c
libmotionbench_la_SOURCES += src/external/trajectory_read.c
libmotionbench_la_SOURCES += src/external/trajectory_npy.c
libmotionbench_la_SOURCES += src/external/trajectory_check.c
libmotionbench_la_SOURCES += src/external/external_run.c
libmotionbench_la_SOURCES += src/external/external_batch.c
libmotionbench_la_SOURCES += src/external/trajectory_sync.c
noinst_HEADERS += src/external/mb_external.h
EXTRA_DIST += doc/external.md
