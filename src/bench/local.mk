# bench module: sources of libmotionbench.
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
libmotionbench_la_SOURCES += src/bench/case_scene.c
noinst_HEADERS += src/bench/mb_case_scene.h
