# report module: reading a report directory back, plots (gnuplot) and the HTML report.
# Part of the program, not of the library: it runs gnuplot and writes documents.
src_motionbench_SOURCES += src/report/results_load.c
noinst_HEADERS += src/report/mb_results.h
src_motionbench_SOURCES += src/report/series_rows.c
noinst_HEADERS += src/report/mb_series_rows.h
src_motionbench_SOURCES += src/report/plot_thin.c
noinst_HEADERS += src/report/mb_plot_thin.h
src_motionbench_SOURCES += src/report/plot_script.c
noinst_HEADERS += src/report/mb_plot_script.h
src_motionbench_SOURCES += src/report/reference_order.c
noinst_HEADERS += src/report/mb_reference_order.h
src_motionbench_SOURCES += src/report/plot_list.c
noinst_HEADERS += src/report/mb_plot_list.h
src_motionbench_SOURCES += src/report/plot_gnuplot.c
src_motionbench_SOURCES += src/report/plot_time.c
noinst_HEADERS += src/report/mb_plot.h
noinst_HEADERS += src/report/mb_plot_time.h
src_motionbench_SOURCES += src/report/html_summary.c
noinst_HEADERS += src/report/mb_html_summary.h
src_motionbench_SOURCES += src/report/html_report.c
noinst_HEADERS += src/report/mb_html.h
src_motionbench_SOURCES += src/report/atlas.c
noinst_HEADERS += src/report/mb_atlas.h
