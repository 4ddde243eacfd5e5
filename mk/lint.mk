# mpi-info-lint (tools/mpi-info-lint, docs/hints.md): the hint checker's command, over the
# library's Rust API and the vocabulary compiled into it (data/hints.json). make builds it into
# $(OUT)/bin; make install puts it in $(BINDIR) with its man page (docs/man/mpi-info-lint.1);
# make test runs its unit tests and tests-lint/lint_test.sh (syntaxes, exit statuses, JSON, bad
# input, hostile inputs, the documentation's example hint sets, --report).
LINT := $(OUT)/bin/mpi-info-lint
LINT_MAN := docs/man/mpi-info-lint.1
#: lint            the hint checker mpi-info-lint, into build/bin (also built by make)
lint:
	$(Q)$(CARGO_BUILD)
	@mkdir -p $(OUT)/bin
	@cmp -s target/release/mpi-info-lint $(LINT) || cp target/release/mpi-info-lint $(LINT)
$(LINT): lint
#: install-lint    mpi-info-lint and its man page (part of install)
install-lint: lint
	$(call install_dirs,$(BINDIR) $(MANDIR)/man1)
	install -m 755 $(LINT) $(DESTDIR)$(BINDIR)/mpi-info-lint
	$(install_strip) $(DESTDIR)$(BINDIR)/mpi-info-lint
	install -m 644 $(LINT_MAN) $(DESTDIR)$(MANDIR)/man1/mpi-info-lint.1
#: uninstall-lint  what install-lint installed (part of uninstall)
uninstall-lint:
	rm -f $(DESTDIR)$(BINDIR)/mpi-info-lint $(DESTDIR)$(MANDIR)/man1/mpi-info-lint.1
