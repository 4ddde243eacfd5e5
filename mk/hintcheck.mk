# libmpi_info_hintcheck (docs/hintcheck.md): the hint report tool for real MPI jobs, built for
# one MPI with its own compiler wrapper, MPICC (mpicc unless given): hintcheck/hintcheck.c (the
# interceptors) and the Rust core hintcheck/core, a static archive built from this crate without
# its C API (the `c-api` feature off), in a cargo invocation and target directory of its own so
# that feature unification cannot turn the C API back on. The library exports only the MPI_
# names it intercepts (hintcheck/exports.map). One build directory per MPICC:
# build/hintcheck/<mpicc>/libmpi_info_hintcheck.so. The report's JSON Schema,
# hintcheck/report.schema.json, is made from the core's report types (make hintcheck-schema;
# a unit test of the core fails while the committed file differs) and installed with the library,
# as is its man page, docs/man/libmpi_info_hintcheck.7.
#   make hintcheck MPICC=mpicc.mpich
#   make install-hintcheck MPICC=mpicc.openmpi PREFIX=/opt/hintcheck/openmpi   (one prefix per MPI)
#   make bench-hintcheck   MPI_File_open + MPI_File_close, 4 ranks, 20 hints, with and without it;
#                          10,000 opens of distinct files with and without a report, 1 and 2 ranks
# make test runs hintcheck/tests/run.sh (real jobs on each MPI that is installed) as its own suite.
MPICC ?= mpicc
HINTCHECK_TARGET := target/hintcheck
HINTCHECK_CORE := $(HINTCHECK_TARGET)/release/libmpi_info_hintcheck.a
HINTCHECK_DIR = $(OUT)/hintcheck/$(notdir $(MPICC))
HINTCHECK_CFLAGS := -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra -Werror -fPIC

#: hintcheck-core  the Rust core of libmpi_info_hintcheck (target/hintcheck)
hintcheck-core:
	$(CARGO) build --release -p mpi-info-hintcheck --target-dir $(HINTCHECK_TARGET)

#: hintcheck       libmpi_info_hintcheck.so for one MPI, MPICC=mpicc.mpich or mpicc.openmpi (docs/hintcheck.md)
hintcheck: hintcheck-core
	@mkdir -p $(HINTCHECK_DIR)
	$(MPICC) $(HINTCHECK_CFLAGS) -shared hintcheck/hintcheck.c $(HINTCHECK_CORE) -o $(HINTCHECK_DIR)/libmpi_info_hintcheck.so.tmp \
	    -Wl,--version-script=hintcheck/exports.map -Wl,--gc-sections -Wl,-z,nodelete -lpthread -ldl -lm
	@mv -f $(HINTCHECK_DIR)/libmpi_info_hintcheck.so.tmp $(HINTCHECK_DIR)/libmpi_info_hintcheck.so
	@if nm -D --defined-only $(HINTCHECK_DIR)/libmpi_info_hintcheck.so | grep -E ' (P?MPI_Info_|mpi_info_)'; then \
	    echo "libmpi_info_hintcheck.so must not export these names" >&2; exit 1; fi

#: hintcheck-schema  hintcheck/report.schema.json, the report's JSON Schema, from the core's types
hintcheck-schema:
	$(CARGO) run --release -q -p mpi-info-hintcheck --target-dir $(HINTCHECK_TARGET) --bin hintcheck-report-schema -- hintcheck/report.schema.json

HINTCHECK_MAN := docs/man/libmpi_info_hintcheck.7
#: install-hintcheck  libmpi_info_hintcheck.so for MPICC into PREFIX/lib (one prefix per MPI), the report's schema into PREFIX/share/mpi-info, the man page
install-hintcheck: hintcheck
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGDATADIR) $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(HINTCHECK_DIR)/libmpi_info_hintcheck.so $(DESTDIR)$(LIBDIR)/libmpi_info_hintcheck.so
	install -m 644 hintcheck/report.schema.json $(DESTDIR)$(PKGDATADIR)/hintcheck-report.schema.json
	install -m 644 $(HINTCHECK_MAN) $(DESTDIR)$(MANDIR)/man7/libmpi_info_hintcheck.7

#: uninstall-hintcheck  removes what install-hintcheck installed
uninstall-hintcheck:
	rm -f $(DESTDIR)$(LIBDIR)/libmpi_info_hintcheck.so $(DESTDIR)$(PKGDATADIR)/hintcheck-report.schema.json \
	    $(DESTDIR)$(MANDIR)/man7/libmpi_info_hintcheck.7
	-@rmdir $(DESTDIR)$(PKGDATADIR) 2>/dev/null || true

# For each MPI installed (mpicc.mpich, mpicc.openmpi), the library built, then the jobs of
# hintcheck/bench.sh (BENCH_NP, BENCH_N).
#: bench-hintcheck MPI_File_open + MPI_File_close with and without libmpi_info_hintcheck (part of bench)
bench-hintcheck:
	@for mpi in mpich openmpi; do \
	    if command -v mpicc.$$mpi >/dev/null; then $(MAKE) --no-print-directory hintcheck MPICC=mpicc.$$mpi >/dev/null || exit 1; fi; \
	done
	hintcheck/bench.sh
