# report module: reading a report directory back, plots (gnuplot) and the HTML report.
# Part of the program, not of the library: it runs gnuplot and writes documents.
src_motionbench_SOURCES += src/report/results_load.c
src_motionbench_SOURCES += src/report/plot_gnuplot.c
noinst_HEADERS += src/report/mb_results.h
noinst_HEADERS += src/report/mb_plot.h
src_motionbench_SOURCES += src/report/html_report.c
noinst_HEADERS += src/report/mb_html.h
src_motionbench_SOURCES += src/report/atlas.c
noinst_HEADERS += src/report/mb_atlas.h
