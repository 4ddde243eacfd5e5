# mpi-info: build, test, run and install the C library. `make help` lists every target.
#
#   make            the libraries, the man pages, the Fortran modules and mpi-info-lint
#   make run        build, then build and run examples/hints.c
#   make test       cargo tests, then the C, Fortran, Python and script suites; a line per suite,
#                   then one line "N passed, M failed" (V=1 shows every command and program)
#   make install    PREFIX=/usr/local DESTDIR= ; make uninstall undoes it
#   make deps       the Debian packages the targets need (as root; make test runs it first as root)
#
# The rules are in mk/, one file per area:
#   mk/config.mk     settings: V, tools, install directories, version and sonames, flags
#   mk/lib.mk        the two libraries, their pkg-config files, the C examples (lib, run, clean)
#   mk/c-tests.mk    how the C test programs are built, in every build and against each library
#   mk/fortran.mk    the Fortran modules, libmpi_info_f08.a and the Fortran test programs
#   mk/host.mk       the stub MPI host and the programs that run on it (docs/embedding.md)
#   mk/lint.mk       mpi-info-lint
#   mk/hintcheck.mk  libmpi_info_hintcheck (docs/hintcheck.md)
#   mk/install.mk    the man pages, the CMake package, install and uninstall
#   mk/check.mk      valgrind, asan, tsan, stress, limits, loom
#   mk/fuzz.mk       libFuzzer (fuzz/README.md)
#   mk/bench.mk      the benchmarks (BENCHMARKS.md)
#   mk/deps.mk       make deps: the one list of Debian packages
#   mk/suites.mk     the suites of make test, valgrind, asan and tsan, one line each (last: it
#                    names the programs the other files build)
# A new tests-c/test_*.c needs no change here: every build and suite picks it up.

.DEFAULT_GOAL := all
# What the Rust standard library in libmpi_info.a needs from the system (here, not in
# mk/config.mk: tests-c/cmake_test.sh reads this line).
STATIC_LIBS := -lpthread -ldl -lm -lrt -lutil
include mk/config.mk
include mk/lib.mk
include mk/c-tests.mk
include mk/fortran.mk
include mk/host.mk
include mk/lint.mk
include mk/hintcheck.mk
include mk/install.mk
include mk/check.mk
include mk/fuzz.mk
include mk/bench.mk
include mk/deps.mk
include mk/suites.mk

#: all             the libraries (lib), the man pages (man), the Fortran modules (fortran) and mpi-info-lint (lint)
all: lib man fortran lint

# Every target, from the "#: target  what it does" line above its rule.
#: help            this list
# The files in the order they are listed in: the everyday targets first.
HELP_FILES := Makefile mk/lib.mk mk/suites.mk mk/install.mk mk/deps.mk
help:
	@echo "make TARGET [V=1] [PREFIX=...]; the targets (the comments in Makefile and mk/*.mk say more):"
	@sed -n 's/^#: /  /p' $(HELP_FILES) $(filter-out $(HELP_FILES),$(MAKEFILE_LIST))

.PHONY: all help lib run clean test c-tests valgrind stress limits asan tsan loom fortran run-fortran \
    install-fortran uninstall-fortran fortran-host lint install-lint uninstall-lint hintcheck hintcheck-core \
    install-hintcheck uninstall-hintcheck bench-hintcheck man cmake-package install uninstall fuzz-build \
    fuzz fuzz-serial fuzz-smoke bench bench-hints deps test-deps
