# install.mk -- the data the installed program needs, in pkgdatadir with the layout of the
# source tree (src/cli/datadir.c finds it there): the case library cases/ with its
# subdirectories, adapters/ when present, and the committed baseline reports/baseline/.
# Whole trees are copied so that new subdirectories need no edit here.
MB_DATA_TREES = cases adapters reports/baseline

install-data-local:
	@for d in $(MB_DATA_TREES); do \
	  if test -d "$(srcdir)/$$d"; then \
	    echo " installing $$d/ in $(DESTDIR)$(pkgdatadir)"; \
	    $(MKDIR_P) "$(DESTDIR)$(pkgdatadir)/$$d" || exit 1; \
	    (cd "$(srcdir)/$$d" && find . -type d) | while read sub; do \
	      $(MKDIR_P) "$(DESTDIR)$(pkgdatadir)/$$d/$$sub" || exit 1; \
	    done; \
	    (cd "$(srcdir)/$$d" && find . -type f) | while read f; do \
	      $(INSTALL_DATA) "$(srcdir)/$$d/$$f" "$(DESTDIR)$(pkgdatadir)/$$d/$$f" || exit 1; \
	    done; \
	  fi; \
	done

uninstall-local:
	-rm -rf "$(DESTDIR)$(pkgdatadir)/cases" "$(DESTDIR)$(pkgdatadir)/adapters" \
	  "$(DESTDIR)$(pkgdatadir)/reports"
	-rmdir "$(DESTDIR)$(pkgdatadir)"

# make installcheck: the installed program, headers, .pc file and the example plugins
# built against the installed library through pkg-config.
installcheck-local:
	MB_SRCDIR='$(abs_top_srcdir)' DESTDIR='$(DESTDIR)' prefix='$(prefix)' \
	  bindir='$(bindir)' libdir='$(libdir)' includedir='$(includedir)' \
	  pkgdatadir='$(pkgdatadir)' CC='$(CC)' \
	  MB_DEP_CFLAGS='$(GSL_CFLAGS) $(MPFR_CFLAGS) $(INIH_CFLAGS) $(JANSSON_CFLAGS) $(MATHEVAL_CFLAGS)' \
	  $(SHELL) '$(srcdir)/tests/installcheck.sh'

EXTRA_DIST += install.mk tests/installcheck.sh COPYING examples/plugins-harmonic.case \
	examples/energy_bound.py doc/plugins.md doc/install.md
