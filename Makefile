# mpi-info: build, test, run and install the C library.
#
#   make run        build, then build and run examples/hints.c
#   make test       cargo tests, then the C suite against the shared and the static library;
#                   ends with one line "N passed, M failed" counting the C checks
#   make valgrind   the C suite under memcheck
#   make bench      this library, MPICH and Open MPI side by side (installs the peers if missing)
#   make install    PREFIX=/usr/local DESTDIR= ; make uninstall undoes it

CARGO   ?= cargo
CC      ?= cc
CXX     ?= c++
OBJCOPY ?= objcopy
PREFIX  ?= /usr/local
DESTDIR ?=
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

VERSION  := $(shell sed -n 's/^version = "\([^"]*\)"/\1/p' Cargo.toml | head -n 1)
MAJOR    := $(word 1,$(subst ., ,$(VERSION)))
MINOR    := $(word 2,$(subst ., ,$(VERSION)))
# Before 1.0 a minor release may break the ABI, so the soname carries it (as cargo-c does).
SONAME   := libmpi_info.so.$(if $(filter 0,$(MAJOR)),0.$(MINOR),$(MAJOR))
REALNAME := libmpi_info.so.$(VERSION)

OUT := build
LIB := $(OUT)/lib
# What the Rust standard library in libmpi_info.a needs from the system.
STATIC_LIBS := -lpthread -ldl -lm -lrt -lutil
TEST_CFLAGS := -std=c99 -Wall -Wextra -Werror -g -O1 -Iinclude -Itests-c
EXAMPLE_CFLAGS := -std=c99 -Wall -Wextra -Werror -O2 -Iinclude

C_TESTS := $(sort $(basename $(notdir $(wildcard tests-c/test_*.c))))
SHARED_TESTS := $(addprefix $(OUT)/tests/shared/,$(C_TESTS) pmpi_app)
STATIC_TESTS := $(addprefix $(OUT)/tests/static/,$(C_TESTS) pmpi_app)
SCRIPT_TESTS := tests-c/header_test.sh tests-c/install_test.sh
# Programs that are not run under valgrind: nomem replaces malloc, which valgrind does too.
NOMEM_TESTS := $(OUT)/tests/shared/nomem $(OUT)/tests/static/nomem

.PHONY: all lib run test c-tests valgrind bench install uninstall clean

all: lib

# cargo decides what to rebuild; the copies below change only when the library did, so the
# C programs are relinked only then.
lib:
	$(CARGO) build --release
	@mkdir -p $(LIB)
	@cmp -s target/release/libmpi_info.so $(LIB)/$(REALNAME) || { cp target/release/libmpi_info.so $(LIB)/$(REALNAME).$$$$ && mv -f $(LIB)/$(REALNAME).$$$$ $(LIB)/$(REALNAME); }
	@ln -sf $(REALNAME) $(LIB)/$(SONAME)
	@ln -sf $(SONAME) $(LIB)/libmpi_info.so
	@# The MPI_ names become weak in the archive, so a profiling tool linked ahead of it can
	@# define them and still take the PMPI_ names from it (SPEC section 8).
	@tmp=$(OUT)/libmpi_info.a.$$$$; $(OBJCOPY) --wildcard --weaken-symbol='MPI_*' target/release/libmpi_info.a $$tmp && \
	  { cmp -s $$tmp $(LIB)/libmpi_info.a || mv -f $$tmp $(LIB)/libmpi_info.a; }; rm -f $$tmp
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	     -e 's|@VERSION@|$(VERSION)|' -e 's|@STATIC_LIBS@|$(STATIC_LIBS)|' mpi-info.pc.in > $(OUT)/mpi-info.pc

$(LIB)/$(REALNAME) $(LIB)/libmpi_info.a: lib

run: lib $(OUT)/examples/hints
	$(OUT)/examples/hints --hint striping_factor=4

$(OUT)/examples/%: examples/%.c include/mpi_info.h $(LIB)/$(REALNAME)
	@mkdir -p $(@D)
	$(CC) $(EXAMPLE_CFLAGS) $< -o $@ -L$(LIB) -lmpi_info -Wl,-rpath,$(abspath $(LIB))

test: lib
	$(CARGO) test --release
	@$(MAKE) --no-print-directory c-tests

c-tests: $(SHARED_TESTS) $(STATIC_TESTS) $(NOMEM_TESTS) $(OUT)/examples/hints $(OUT)/examples/profiler
	@rm -f $(OUT)/totals
	@echo "C suite against $(LIB)/libmpi_info.so and $(LIB)/libmpi_info.a:"
	-@SUITE_TOTALS=$(OUT)/totals tests-c/run-suite.sh shared $(SHARED_TESTS) $(OUT)/tests/shared/nomem
	-@SUITE_TOTALS=$(OUT)/totals tests-c/run-suite.sh static $(STATIC_TESTS) $(OUT)/tests/static/nomem
	-@SUITE_TOTALS=$(OUT)/totals MAKE="$(MAKE)" CC="$(CC)" CXX="$(CXX)" tests-c/run-suite.sh scripts $(SCRIPT_TESTS)
	@awk '{p += $$2; f += $$3} END {printf "%d passed, %d failed\n", p, f; exit (f > 0 || NR != 3)}' $(OUT)/totals

# Every program of the suite under memcheck: any error, or any byte definitely or indirectly
# lost, fails the program.
VALGRIND := valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
valgrind: lib $(SHARED_TESTS)
	@rm -f $(OUT)/totals
	@mkdir -p $(OUT)/valgrind
	@for t in $(SHARED_TESTS); do printf '#!/bin/sh\nMPI_INFO_UNDER_VALGRIND=1 exec $(VALGRIND) %s "$$@"\n' "$(abspath .)/$$t" > $(OUT)/valgrind/$$(basename $$t); chmod +x $(OUT)/valgrind/$$(basename $$t); done
	-@SUITE_TOTALS=$(OUT)/totals tests-c/run-suite.sh memcheck $(addprefix $(OUT)/valgrind/,$(notdir $(SHARED_TESTS)))
	@awk '{p += $$2; f += $$3} END {printf "%d passed, %d failed\n", p, f; exit (f > 0 || NR != 1)}' $(OUT)/totals

# The C suite: each tests-c/test_*.c, linked once against each library.
$(OUT)/tests/shared/%: tests-c/%.c tests-c/check.h tests-c/support.h include/mpi_info.h $(LIB)/$(REALNAME)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $< -o $@ -L$(LIB) -lmpi_info -Wl,-rpath,$(abspath $(LIB)) -lpthread

$(OUT)/tests/static/%: tests-c/%.c tests-c/check.h tests-c/support.h include/mpi_info.h $(LIB)/libmpi_info.a
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $< -o $@ $(LIB)/libmpi_info.a $(STATIC_LIBS)

# Profiling interface (SPEC section 8): the tool as a shared library linked ahead of
# libmpi_info.so, and the tool's object file linked statically ahead of libmpi_info.a.
$(OUT)/tests/shared/libpmpi_tool.so: tests-c/pmpi/tool.c include/mpi_info.h $(LIB)/$(REALNAME)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared $< -o $@ -L$(LIB) -lmpi_info

$(OUT)/tests/shared/pmpi_app: tests-c/pmpi/app.c tests-c/check.h $(OUT)/tests/shared/libpmpi_tool.so $(LIB)/$(REALNAME)
	$(CC) $(TEST_CFLAGS) $< -o $@ -L$(OUT)/tests/shared -lpmpi_tool -L$(LIB) -lmpi_info \
	    -Wl,-rpath,$(abspath $(OUT)/tests/shared):$(abspath $(LIB))

$(OUT)/tests/static/pmpi_app: tests-c/pmpi/app.c tests-c/pmpi/tool.c tests-c/check.h $(LIB)/libmpi_info.a
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c tests-c/pmpi/tool.c -o $(OUT)/tests/static/pmpi_tool.o
	$(CC) $(TEST_CFLAGS) $< $(OUT)/tests/static/pmpi_tool.o -o $@ $(LIB)/libmpi_info.a $(STATIC_LIBS)

# The same benchmark source, built against this library, MPICH and Open MPI.
BENCH_CFLAGS := -std=c99 -O2 -Wall -Wextra
bench: lib
	@command -v mpicc.mpich >/dev/null && command -v mpicc.openmpi >/dev/null || { \
	    echo "installing MPICH and Open MPI (Debian packages) to compare against"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libmpich-dev mpich libopenmpi-dev openmpi-bin; }
	@command -v valgrind >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind
	@mkdir -p $(OUT)/bench
	$(CC) $(BENCH_CFLAGS) -Werror -Iinclude benches/info_bench.c -o $(OUT)/bench/info_bench \
	    -L$(LIB) -lmpi_info -Wl,-rpath,$(abspath $(LIB)) -lpthread
	mpicc.mpich $(BENCH_CFLAGS) -DBENCH_WITH_MPI benches/info_bench.c -o $(OUT)/bench/info_bench_mpich -lpthread
	mpicc.openmpi $(BENCH_CFLAGS) -DBENCH_WITH_MPI benches/info_bench.c -o $(OUT)/bench/info_bench_openmpi -lpthread
	@echo "MPICH $$(mpichversion | sed -n 's/^MPICH Version:[[:space:]]*//p'), $$(ompi_info --version | head -n 1), $$(nproc) cores: $$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	python3 benches/compare.py $(OUT)/bench/info_bench $(OUT)/bench/info_bench_mpich $(OUT)/bench/info_bench_openmpi

install: lib
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(LIB)/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(REALNAME)
	ln -sf $(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libmpi_info.so
	install -m 644 $(LIB)/libmpi_info.a $(DESTDIR)$(LIBDIR)/libmpi_info.a
	install -m 644 include/mpi_info.h $(DESTDIR)$(INCLUDEDIR)/mpi_info.h
	install -m 644 $(OUT)/mpi-info.pc $(DESTDIR)$(PKGCONFIGDIR)/mpi-info.pc

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libmpi_info.so \
	      $(DESTDIR)$(LIBDIR)/libmpi_info.a $(DESTDIR)$(INCLUDEDIR)/mpi_info.h $(DESTDIR)$(PKGCONFIGDIR)/mpi-info.pc

clean:
	rm -rf $(OUT)
	$(CARGO) clean
