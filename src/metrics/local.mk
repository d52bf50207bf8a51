# metrics module: one measure per file (DESIGN 6).
libmotionbench_la_SOURCES += src/metrics/metric_table.c
libmotionbench_la_SOURCES += src/metrics/error_norms.c
libmotionbench_la_SOURCES += src/metrics/order_fit.c
libmotionbench_la_SOURCES += src/metrics/energy_track.c
libmotionbench_la_SOURCES += src/metrics/divergence.c
libmotionbench_la_SOURCES += src/metrics/work_track.c
libmotionbench_la_SOURCES += src/metrics/external_work.c
libmotionbench_la_SOURCES += src/metrics/mass_properties.c
libmotionbench_la_SOURCES += src/metrics/angmom_track.c
libmotionbench_la_SOURCES += src/metrics/rotation_track.c
libmotionbench_la_SOURCES += src/metrics/damping_track.c
libmotionbench_la_SOURCES += src/metrics/error_growth.c
motionbenchinclude_HEADERS += src/metrics/mb_metrics.h
noinst_HEADERS += src/metrics/metrics.def
libmotionbench_la_SOURCES += src/metrics/twin.c
motionbenchinclude_HEADERS += src/metrics/mb_twin.h
