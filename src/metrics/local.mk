# metrics module: one measure per file (DESIGN 6).
libmotionbench_la_SOURCES += \
	src/metrics/metric_names.c src/metrics/error_norms.c src/metrics/order_fit.c \
	src/metrics/energy_track.c src/metrics/angmom_track.c src/metrics/rotation_track.c \
	src/metrics/damping_track.c
motionbenchinclude_HEADERS += src/metrics/mb_metrics.h
