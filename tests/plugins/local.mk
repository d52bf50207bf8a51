# test plugins: the catalogue of broken plugins (tests/plugins/broken_plugin.c, one per BROKEN),
# the schemes that crash, exit or hang (tests/plugins/misbehaving_plugin.c) and the two example
# steppers built in the tree; shared objects for dlopen.
# Without shared libraries (MB_PLUGINS false) none is built, and the tests that load one
# skip: test_plugins.sh, test_plugin_isolation.sh and the hostile catalogue's plug-in
# entries, told by MB_PLUGINS=no in their environment.
AM_TESTS_ENVIRONMENT += MB_PLUGINS='@MB_PLUGINS@'; export MB_PLUGINS;
if MB_PLUGINS
MB_PLUGINLINK = -module -avoid-version -shared -rpath $(abs_builddir)
check_LTLIBRARIES += tests/plugins/broken1.la
tests_plugins_broken1_la_SOURCES = tests/plugins/broken_plugin.c
tests_plugins_broken1_la_CFLAGS = $(AM_CFLAGS) -DBROKEN=1
tests_plugins_broken1_la_LDFLAGS = $(MB_PLUGINLINK)
check_LTLIBRARIES += tests/plugins/broken2.la
tests_plugins_broken2_la_SOURCES = tests/plugins/broken_plugin.c
tests_plugins_broken2_la_CFLAGS = $(AM_CFLAGS) -DBROKEN=2
tests_plugins_broken2_la_LDFLAGS = $(MB_PLUGINLINK)
check_LTLIBRARIES += tests/plugins/broken3.la
tests_plugins_broken3_la_SOURCES = tests/plugins/broken_plugin.c
tests_plugins_broken3_la_CFLAGS = $(AM_CFLAGS) -DBROKEN=3
tests_plugins_broken3_la_LDFLAGS = $(MB_PLUGINLINK)
check_LTLIBRARIES += tests/plugins/broken4.la
tests_plugins_broken4_la_SOURCES = tests/plugins/broken_plugin.c
tests_plugins_broken4_la_CFLAGS = $(AM_CFLAGS) -DBROKEN=4
tests_plugins_broken4_la_LDFLAGS = $(MB_PLUGINLINK)
check_LTLIBRARIES += tests/plugins/broken5.la
tests_plugins_broken5_la_SOURCES = tests/plugins/broken_plugin.c
tests_plugins_broken5_la_CFLAGS = $(AM_CFLAGS) -DBROKEN=5
tests_plugins_broken5_la_LDFLAGS = $(MB_PLUGINLINK)
check_LTLIBRARIES += tests/plugins/broken6.la
tests_plugins_broken6_la_SOURCES = tests/plugins/broken_plugin.c
tests_plugins_broken6_la_CFLAGS = $(AM_CFLAGS) -DBROKEN=6
tests_plugins_broken6_la_LDFLAGS = $(MB_PLUGINLINK)
check_LTLIBRARIES += tests/plugins/broken7.la
tests_plugins_broken7_la_SOURCES = tests/plugins/broken_plugin.c
tests_plugins_broken7_la_CFLAGS = $(AM_CFLAGS) -DBROKEN=7
tests_plugins_broken7_la_LDFLAGS = $(MB_PLUGINLINK)
check_LTLIBRARIES += tests/plugins/broken8.la
tests_plugins_broken8_la_SOURCES = tests/plugins/broken_plugin.c
tests_plugins_broken8_la_CFLAGS = $(AM_CFLAGS) -DBROKEN=8
tests_plugins_broken8_la_LDFLAGS = $(MB_PLUGINLINK)
check_LTLIBRARIES += tests/plugins/broken9.la
tests_plugins_broken9_la_SOURCES = tests/plugins/broken_plugin.c
tests_plugins_broken9_la_CFLAGS = $(AM_CFLAGS) -DBROKEN=9
tests_plugins_broken9_la_LDFLAGS = $(MB_PLUGINLINK)
check_LTLIBRARIES += tests/plugins/misbehaving.la
tests_plugins_misbehaving_la_SOURCES = tests/plugins/misbehaving_plugin.c
tests_plugins_misbehaving_la_LDFLAGS = $(MB_PLUGINLINK)
tests_plugins_misbehaving_la_LIBADD = libmotionbench.la
check_LTLIBRARIES += examples/leapfrog_dkd.la
examples_leapfrog_dkd_la_SOURCES = examples/leapfrog_dkd.c examples/dkd_stage.h
examples_leapfrog_dkd_la_LDFLAGS = $(MB_PLUGINLINK)
examples_leapfrog_dkd_la_LIBADD = libmotionbench.la
check_LTLIBRARIES += examples/forest_ruth.la
examples_forest_ruth_la_SOURCES = examples/forest_ruth.c examples/dkd_stage.h
examples_forest_ruth_la_LDFLAGS = $(MB_PLUGINLINK)
examples_forest_ruth_la_LIBADD = libmotionbench.la
endif
TESTS += tests/test_plugins.sh tests/test_plugin_isolation.sh
EXTRA_DIST += tests/test_plugins.sh tests/test_plugin_isolation.sh
