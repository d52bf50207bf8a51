# bench module: sources of libmotionbench.
# reference benchmarks (dispatched by `motionbench bench NAME`)
libmotionbench_la_SOURCES += src/bench/bench_mpfr_twin.c
noinst_HEADERS += src/bench/mb_benches_reference.h
# bench module: case files, the runner, CSV reports, baseline comparison.
libmotionbench_la_SOURCES += src/bench/case_file.c
libmotionbench_la_SOURCES += src/bench/case_expect.c
libmotionbench_la_SOURCES += src/bench/case_key.c
libmotionbench_la_SOURCES += src/bench/run_one.c
libmotionbench_la_SOURCES += src/bench/runner.c
libmotionbench_la_SOURCES += src/bench/case_aggregate.c
libmotionbench_la_SOURCES += src/bench/expect_eval.c
libmotionbench_la_SOURCES += src/bench/report_csv.c
libmotionbench_la_SOURCES += src/bench/reports.c
libmotionbench_la_SOURCES += src/bench/csv_read.c
libmotionbench_la_SOURCES += src/bench/baseline.c
motionbenchinclude_HEADERS += src/bench/mb_case.h
motionbenchinclude_HEADERS += src/bench/mb_runner.h
motionbenchinclude_HEADERS += src/bench/mb_report.h
motionbenchinclude_HEADERS += src/bench/mb_baseline.h
