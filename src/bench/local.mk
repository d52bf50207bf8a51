# bench module: sources of libmotionbench.
# reference benchmarks (dispatched by `motionbench bench NAME`)
libmotionbench_la_SOURCES += src/bench/bench_mpfr_twin.c
noinst_HEADERS += src/bench/mb_benches_reference.h
