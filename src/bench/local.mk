# bench module: case files, the runner, CSV reports, baseline comparison.
libmotionbench_la_SOURCES += \
	src/bench/case_file.c src/bench/case_expect.c src/bench/case_key.c
motionbenchinclude_HEADERS += src/bench/mb_case.h
libmotionbench_la_SOURCES += \
	src/bench/run_one.c src/bench/runner.c src/bench/case_aggregate.c \
	src/bench/expect_eval.c src/bench/report_csv.c src/bench/reports.c
motionbenchinclude_HEADERS += src/bench/mb_runner.h src/bench/mb_report.h
libmotionbench_la_SOURCES += src/bench/csv_read.c src/bench/baseline.c
motionbenchinclude_HEADERS += src/bench/mb_baseline.h
