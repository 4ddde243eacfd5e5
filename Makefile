# mpi-info: build, test, run and install the C library.
#
#   make run        build, then build and run examples/hints.c
#   make run-fortran  the same for examples/hints.f90 (needs gfortran; see docs/fortran.md)
#   make test       cargo tests, then the C and Fortran suites against the shared and the static
#                   library, the Python ctypes test and the install, CMake, header and man-page
#                   checks; ends with one line "N passed, M failed" counting those checks. It
#                   prints a line per suite (a failing program's name and last output lines too);
#                   make test V=1 shows every command and every program's line
#   make valgrind   the C and Fortran programs and the Python ctypes test under memcheck
#   make stress     threads doing random operations for STRESS_SECONDS (60) with STRESS_THREADS (8)
#   make limits     the limits of docs/reference.md (a million objects, a million pairs), memory
#                   reported
#   make loom       model-checked concurrency tests (every interleaving, with loom)
#   make asan       the C suite built with AddressSanitizer + UndefinedBehaviorSanitizer
#   make tsan       the threaded C tests built with ThreadSanitizer
#   make fuzz       libFuzzer on the C API against a reference model, FUZZ_SECONDS (300) long;
#                   make fuzz-smoke: 60 s (installs clang-19 if missing); before it, the
#                   serialization target for half as long (SERIAL_FUZZ_SECONDS)
#   make bench      this library, its standard ABI build, MPICH and Open MPI side by side (installs
#                   the peers if missing); make bench-hints, the hint checker's costs alone;
#                   make bench-hintcheck (docs/hintcheck.md)
#   make lint       the hint checker mpi-info-lint, into build/bin (also built by make)
#   make man        the section 3 man pages, from the header's doc comments, into build/man/man3
#   make install    PREFIX=/usr/local DESTDIR= ; without debug information unless DEBUG_INFO=1;
#                   make uninstall undoes it (the directories the install created go too, when
#                   empty: tools/install-dirs.sh)

# V=1 shows the commands that build (compilers, cargo) and a line per test program and per test
# binary; by default they are left out and the suites print a line each (tests-c/run-suite.sh,
# tools/cargo-test.sh), failures with their details.
V ?=
Q := $(if $(filter 1,$(V)),,@)
export SUITE_VERBOSE := $(if $(filter 1,$(V)),1)

CARGO   ?= cargo
CC      ?= cc
CXX     ?= c++
# The system's Python (Debian's runs clean under valgrind; a pyenv shim would hide the
# interpreter from it).
PYTHON  ?= $(firstword $(wildcard /usr/bin/python3) python3)
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
soname    = $(1).so.$(if $(filter 0,$(MAJOR)),0.$(MINOR),$(MAJOR))
SONAME   := $(call soname,libmpi_info)
REALNAME := libmpi_info.so.$(VERSION)
# The MPI-5.0 standard ABI build of the same sources (cargo feature abi: pointer handles,
# include/mpi_info_abi.h, no Fortran routines), in a target directory of its own.
ABI_SONAME   := $(call soname,libmpi_info_abi)
ABI_REALNAME := libmpi_info_abi.so.$(VERSION)
ABI_TARGET   := target/abi

OUT := build
LIB := $(OUT)/lib
# What the Rust standard library in libmpi_info.a needs from the system.
STATIC_LIBS := -lpthread -ldl -lm -lrt -lutil
TEST_CFLAGS := -std=c99 -Wall -Wextra -Werror -g -O1 -Iinclude -Itests-c
EXAMPLE_CFLAGS := -std=c99 -Wall -Wextra -Werror -O2 -Iinclude

C_TESTS := $(sort $(basename $(notdir $(wildcard tests-c/test_*.c))))
SHARED_TESTS := $(addprefix $(OUT)/tests/shared/,$(C_TESTS) pmpi_app)
STATIC_TESTS := $(addprefix $(OUT)/tests/static/,$(C_TESTS) pmpi_app)
SCRIPT_TESTS := tests-c/header_test.sh tests-c/install_test.sh tests-c/cmake_test.sh tests-c/man_test.sh fuzz/env_cmdline.sh tests-py/run.sh
# tests-c/unload.c (built by c_programs below).
UNLOAD := $(OUT)/tests/shared/unload
# Programs that are not run under valgrind: nomem replaces malloc, which valgrind does too.
NOMEM_TESTS := $(OUT)/tests/shared/nomem $(OUT)/tests/static/nomem
# Scale programs, not test_*.c: tests-c/stress.c (threads doing random operations for
# STRESS_SECONDS: 3 in make test, 1 under valgrind) and tests-c/limits.c (not under valgrind).
SCALE_SHARED := $(OUT)/tests/shared/stress $(OUT)/tests/shared/limits
SCALE_STATIC := $(OUT)/tests/static/stress $(OUT)/tests/static/limits
STRESS_SECONDS ?= 60
STRESS_THREADS ?= 8

# The last line of a suite: adds up the totals file $(1) that tests-c/run-suite.sh wrote, one
# line per suite, and fails unless all $(2) suites ran and none failed.
sum_totals = awk '{p += $$2; f += $$3} END {printf "%d passed, %d failed\n", p, f; exit (f > 0 || NR != $(2))}' $(1)

.PHONY: all lib run test c-tests valgrind loom bench install uninstall clean

all: lib

# cargo decides what to rebuild; the copies below change only when a library did, so the
# C programs are relinked only then.
lib:
	$(Q)$(CARGO) build --release
	$(Q)$(CARGO) build --release --features abi --target-dir $(ABI_TARGET)
	@mkdir -p $(LIB)
	$(call copy_library,target/release,libmpi_info,$(REALNAME),$(SONAME))
	$(call copy_library,$(ABI_TARGET)/release,libmpi_info_abi,$(ABI_REALNAME),$(ABI_SONAME))
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@PKGDATADIR@|$(PKGDATADIR)|' \
	     -e 's|@VERSION@|$(VERSION)|' -e 's|@STATIC_LIBS@|$(STATIC_LIBS)|' mpi-info.pc.in > $(OUT)/mpi-info.pc
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@PKGDATADIR@|$(PKGDATADIR)|' \
	     -e 's|@VERSION@|$(VERSION)|' -e 's|@STATIC_LIBS@|$(STATIC_LIBS)|' mpi-info-abi.pc.in > $(OUT)/mpi-info-abi.pc

# Names made weak in the archives. The MPI_ and MPIX_ names (and the Fortran mpi_ names), so that
# a profiling tool linked ahead of an archive can define them and still take the PMPI_ and
# PMPIX_ names from it (docs/reference.md, "Profiling names"). The error functions' profiling
# names too, C's and Fortran's: a host MPI library defines them as well, and its definitions
# replace these instead of clashing with them (docs/embedding.md).
WEAKENED := 'MPI_*' 'MPIX_*' 'mpi_*' 'PMPI_Error_*' 'pmpi_error_*'

# Copies one build into $(LIB): $(1) cargo's output directory, $(2) the library's name, $(3)
# and $(4) the shared library's file name and soname. The archive's copy has the WEAKENED names.
define copy_library
@cmp -s $(1)/libmpi_info.so $(LIB)/$(3) || { cp $(1)/libmpi_info.so $(LIB)/$(3).$$$$ && mv -f $(LIB)/$(3).$$$$ $(LIB)/$(3); }
@ln -sf $(3) $(LIB)/$(4)
@ln -sf $(4) $(LIB)/$(2).so
@tmp=$(OUT)/$(2).a.$$$$; $(OBJCOPY) --wildcard $(addprefix --weaken-symbol=,$(WEAKENED)) $(1)/libmpi_info.a $$tmp && \
  { cmp -s $$tmp $(LIB)/$(2).a || mv -f $$tmp $(LIB)/$(2).a; }; rm -f $$tmp
endef

$(LIB)/$(REALNAME) $(LIB)/libmpi_info.a $(LIB)/$(ABI_REALNAME) $(LIB)/libmpi_info_abi.a: lib

run: lib $(OUT)/examples/hints
	$(OUT)/examples/hints --hint striping_factor=4

$(OUT)/examples/%: examples/%.c include/mpi_info.h $(LIB)/$(REALNAME)
	@mkdir -p $(@D)
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $< -o $@ -L$(LIB) -lmpi_info -Wl,-rpath,$(abspath $(LIB))

test: lib
	@CARGO="$(CARGO)" tools/cargo-test.sh --release -p mpi-info -p mpi-info-lint
	@$(MAKE) --no-print-directory c-tests

# The fuzz target replaying fuzz/corpus and fuzz/regressions (the fuzzing section below).
FUZZ_REPLAY := $(OUT)/tests/shared/fuzz_replay $(OUT)/tests/static/fuzz_replay
c-tests: $(SHARED_TESTS) $(UNLOAD) $(STATIC_TESTS) $(NOMEM_TESTS) $(SCALE_SHARED) $(SCALE_STATIC) $(FUZZ_REPLAY) $(OUT)/examples/hints $(OUT)/examples/profiler
	@rm -f $(OUT)/tests/totals
	@echo "C suite against $(LIB)/libmpi_info.so and $(LIB)/libmpi_info.a:"
	-@SUITE_TOTALS=$(OUT)/tests/totals STRESS_SECONDS=3 STRESS_THREADS=8 tests-c/run-suite.sh shared $(SHARED_TESTS) $(UNLOAD) $(OUT)/tests/shared/nomem $(SCALE_SHARED)
	-@SUITE_TOTALS=$(OUT)/tests/totals STRESS_SECONDS=3 STRESS_THREADS=8 tests-c/run-suite.sh static $(STATIC_TESTS) $(OUT)/tests/static/nomem $(SCALE_STATIC)
	@echo "C suite against $(LIB)/libmpi_info_abi.so and $(LIB)/libmpi_info_abi.a (the standard ABI build):"
	-@SUITE_TOTALS=$(OUT)/tests/totals STRESS_SECONDS=3 STRESS_THREADS=8 tests-c/run-suite.sh abi.so $(ABI_SHARED_RUN)
	-@SUITE_TOTALS=$(OUT)/tests/totals STRESS_SECONDS=3 STRESS_THREADS=8 tests-c/run-suite.sh abi.a $(ABI_STATIC_RUN)
	-@SUITE_TOTALS=$(OUT)/tests/totals MAKE="$(MAKE)" CC="$(CC)" CXX="$(CXX)" FC="$(if $(HAVE_FC),$(FC))" PYTHON="$(PYTHON)" tests-c/run-suite.sh scripts $(SCRIPT_TESTS)
	-@SUITE_TOTALS=$(OUT)/tests/totals tests-c/run-suite.sh replay.so $(OUT)/tests/shared/fuzz_replay $(OUT)/tests/shared/serial_replay
	-@SUITE_TOTALS=$(OUT)/tests/totals tests-c/run-suite.sh replay.a $(OUT)/tests/static/fuzz_replay $(OUT)/tests/static/serial_replay
	-@SUITE_TOTALS=$(OUT)/tests/totals FC="$(FC)" tests-c/run-suite.sh fortran.so $(FORTRAN_SHARED_TESTS) $(FORTRAN_SCRIPT_TESTS)
	-@SUITE_TOTALS=$(OUT)/tests/totals tests-c/run-suite.sh fortran.a $(FORTRAN_STATIC_TESTS)
	-@SUITE_TOTALS=$(OUT)/tests/totals MAKE="$(MAKE)" PYTHON="$(PYTHON)" tests-c/run-suite.sh hintcheck $(HINTCHECK_SUITE)
	@$(call sum_totals,$(OUT)/tests/totals,10)

# Every program of the suite under memcheck, the Python ctypes test (the interpreter under
# memcheck) and the runs of tests-c/layered_test.sh (examples/layered.c alone and on the host
# MPI layer): any error, or any byte definitely or indirectly lost, fails the program. Memcheck
# runs one thread at a time; --fair-sched hands its lock round in turn, so that a thread that
# never blocks (the fork test's workers) cannot keep the others (the thread that forks) waiting.
VALGRIND := valgrind --quiet --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
# VALGRIND_PROGRAMS: sections below add theirs (and make valgrind depend on them).
VALGRIND_PROGRAMS = $(SHARED_TESTS) $(UNLOAD) $(OUT)/tests/shared/stress $(FORTRAN_SHARED_TESTS)
valgrind: lib $(SHARED_TESTS) $(UNLOAD) $(OUT)/tests/shared/stress
	@mkdir -p $(OUT)/valgrind
	@rm -f $(OUT)/valgrind/totals
	@for t in $(VALGRIND_PROGRAMS); do printf '#!/bin/sh\nMPI_INFO_UNDER_VALGRIND=1 exec $(VALGRIND) %s "$$@"\n' "$(abspath .)/$$t" > $(OUT)/valgrind/$$(echo $$t | tr / _); chmod +x $(OUT)/valgrind/$$(echo $$t | tr / _); done
	-@SUITE_TOTALS=$(OUT)/valgrind/totals STRESS_SECONDS=1 tests-c/run-suite.sh memcheck $(addprefix $(OUT)/valgrind/,$(subst /,_,$(VALGRIND_PROGRAMS)))
	-@SUITE_TOTALS=$(OUT)/valgrind/totals MAKE="$(MAKE)" PYTHON="$(PYTHON)" PYTHON_RUNNER="$(VALGRIND)" tests-c/run-suite.sh memcheck.py tests-py/run.sh
	-@SUITE_TOTALS=$(OUT)/valgrind/totals LAYERED_RUNNER="$(VALGRIND)" tests-c/run-suite.sh memcheck.ex tests-c/layered_test.sh
	@$(call sum_totals,$(OUT)/valgrind/totals,3)

# The stress program for longer (STRESS_SEED=<the seed it printed> repeats each thread's
# choices), and the limits program alone.
.PHONY: stress limits
stress: lib $(OUT)/tests/shared/stress
	STRESS_SECONDS=$(STRESS_SECONDS) STRESS_THREADS=$(STRESS_THREADS) $(OUT)/tests/shared/stress

limits: lib $(OUT)/tests/shared/limits
	$(OUT)/tests/shared/limits

# The whole C suite (each tests-c/test_*.c, the PMPI tool and app, stress, limits, nomem and the
# fuzz corpus replay) built with AddressSanitizer and UndefinedBehaviorSanitizer, linked to the
# usual libraries, shared and static. Stable Rust
# cannot instrument the library itself (that takes -Zsanitizer), but the ASan runtime serves
# its malloc/posix_memalign/realloc/free (double and invalid frees, leaks) and checks the
# ranges of its memcpy/memmove/memset/strnlen/bcmp calls, which are how it reads the caller's
# strings and writes the caller's buffers. Any report ends the program with a non-zero status,
# which fails it. nomem replaces malloc, so ASan checks no heap block there (UBSan and the
# stack and global checks still apply).
ASAN_CFLAGS := $(TEST_CFLAGS) -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ASAN_PROGRAMS := $(C_TESTS) pmpi_app stress limits nomem fuzz_replay
ASAN_SHARED := $(addprefix $(OUT)/asan/shared/,$(ASAN_PROGRAMS))
ASAN_STATIC := $(addprefix $(OUT)/asan/static/,$(ASAN_PROGRAMS))
.PHONY: asan tsan
# Runs a sanitizer build's programs, shared then static, and ends with the totals line:
# $(1) the build (asan, tsan), $(2) what to call it, $(3) the sanitizer's environment, $(4) and
# $(5) the programs linked to the shared and the static library.
define sanitized_suite
@rm -f $(OUT)/$(1)/totals
@echo "$(2) against the shared libraries and the archives in $(LIB):"
-@$(3) STRESS_SECONDS=3 STRESS_THREADS=8 SUITE_TOTALS=$(OUT)/$(1)/totals tests-c/run-suite.sh $(1).so $(4)
-@$(3) STRESS_SECONDS=3 STRESS_THREADS=8 SUITE_TOTALS=$(OUT)/$(1)/totals tests-c/run-suite.sh $(1).a $(5)
@$(call sum_totals,$(OUT)/$(1)/totals,2)
endef
asan: lib $(ASAN_SHARED) $(ASAN_STATIC)
	$(call sanitized_suite,asan,C suite with ASan and UBSan,$(ASAN_ENV),$(ASAN_SHARED),$(ASAN_STATIC))

# The threaded tests (test_threads, test_mpix_threads, test_mpix_check and stress) built with
# ThreadSanitizer, against both libraries. TSan cannot see into the library (not instrumented;
# its locks are atomics and futexes), so the races it would report between the library's own
# intercepted calls are suppressed by tests-c/tsan.supp: what it checks is the C side.
TSAN_TESTS := test_threads test_mpix_threads test_mpix_check stress
TSAN_CFLAGS := $(TEST_CFLAGS) -fsanitize=thread -fno-omit-frame-pointer
TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:suppressions=$(abspath tests-c/tsan.supp)
TSAN_SHARED := $(addprefix $(OUT)/tsan/shared/,$(TSAN_TESTS))
TSAN_STATIC := $(addprefix $(OUT)/tsan/static/,$(TSAN_TESTS))
tsan: lib $(TSAN_SHARED) $(TSAN_STATIC)
	$(call sanitized_suite,tsan,threaded C tests with TSan,$(TSAN_ENV),$(TSAN_SHARED),$(TSAN_STATIC))

# How the C programs are built, once per build and library: $(1) is the directory under $(OUT)
# (tests, asan, tsan), $(2) the name of the variable with its C flags, $(3) the library
# (mpi_info; mpi_info_abi for the standard ABI build, with its header include/$(3).h), $(4)
# what the names of the programs' directories begin with (nothing; abi- for the standard ABI
# build). Each tests-c/test_*.c (and nomem, stress, limits) is linked once against each
# library, shared and static; the profiling interface (docs/reference.md, "Profiling names") as
# a tool shared library linked ahead of the shared library, and as the tool's object file linked
# ahead of the archive; the fuzz target with a plain main() that replays fuzz/corpus and
# fuzz/regressions; tests-c/unload.c, which loads the shared library only with dlopen (never
# linked to it), closes it while threads that used it live, and loads a second copy beside it.
define c_programs
$(OUT)/$(1)/$(4)shared/%: tests-c/%.c tests-c/check.h tests-c/support.h include/$(3).h $(LIB)/lib$(3).so.$(VERSION)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) $$< -o $$@ -L$(LIB) -l$(3) -Wl,-rpath,$(abspath $(LIB)) -lpthread

$(OUT)/$(1)/$(4)static/%: tests-c/%.c tests-c/check.h tests-c/support.h include/$(3).h $(LIB)/lib$(3).a
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) $$< -o $$@ $(LIB)/lib$(3).a $(STATIC_LIBS)

$(OUT)/$(1)/$(4)shared/libpmpi_tool.so: tests-c/pmpi/tool.c include/$(3).h $(LIB)/lib$(3).so.$(VERSION)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) -fPIC -shared $$< -o $$@ -L$(LIB) -l$(3)

$(OUT)/$(1)/$(4)shared/pmpi_app: tests-c/pmpi/app.c tests-c/check.h $(OUT)/$(1)/$(4)shared/libpmpi_tool.so $(LIB)/lib$(3).so.$(VERSION)
	$(Q)$$(CC) $$($(2)) $$< -o $$@ -L$(OUT)/$(1)/$(4)shared -lpmpi_tool -L$(LIB) -l$(3) \
	    -Wl,-rpath,$(abspath $(OUT)/$(1)/$(4)shared):$(abspath $(LIB))

$(OUT)/$(1)/$(4)static/pmpi_app: tests-c/pmpi/app.c tests-c/pmpi/tool.c tests-c/check.h $(LIB)/lib$(3).a
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) -c tests-c/pmpi/tool.c -o $(OUT)/$(1)/$(4)static/pmpi_tool.o
	$(Q)$$(CC) $$($(2)) $$< $(OUT)/$(1)/$(4)static/pmpi_tool.o -o $$@ $(LIB)/lib$(3).a $(STATIC_LIBS)

$(OUT)/$(1)/$(4)shared/fuzz_replay: fuzz/info_fuzz.c fuzz/replay_main.c include/$(3).h $(LIB)/lib$(3).so.$(VERSION)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) $$(FUZZ_REPLAY_DEFS) fuzz/info_fuzz.c fuzz/replay_main.c -o $$@ -L$(LIB) -l$(3) -Wl,-rpath,$(abspath $(LIB))

$(OUT)/$(1)/$(4)static/fuzz_replay: fuzz/info_fuzz.c fuzz/replay_main.c include/$(3).h $(LIB)/lib$(3).a
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) $$(FUZZ_REPLAY_DEFS) fuzz/info_fuzz.c fuzz/replay_main.c -o $$@ $(LIB)/lib$(3).a $(STATIC_LIBS)

$(OUT)/$(1)/$(4)shared/unload: tests-c/unload.c tests-c/check.h include/$(3).h $(LIB)/lib$(3).so.$(VERSION)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) -DUNLOAD_LIBRARY='"$(abspath $(LIB))/lib$(3).so"' $$< -o $$@ -ldl -lpthread
endef
$(eval $(call c_programs,tests,TEST_CFLAGS,mpi_info,))
$(eval $(call c_programs,asan,ASAN_CFLAGS,mpi_info,))
$(eval $(call c_programs,tsan,TSAN_CFLAGS,mpi_info,))
# The forged-handle probe that test_handles and abi_handles share, in each of their builds.
$(foreach build,tests asan tsan,$(addprefix $(OUT)/$(build)/,$(addsuffix /test_handles,shared static abi-shared abi-static) abi-shared/abi_handles abi-static/abi_handles)): tests-c/handle_probe.h

# Fuzzing (fuzz/README.md). fuzz/info_fuzz.c decodes its input into calls of the C API and
# checks each against a reference model. make test replays the seed corpus and the regression
# inputs through it with a plain main() (fuzz/replay_main.c), against both libraries; make fuzz
# runs libFuzzer on it for FUZZ_SECONDS. For coverage inside the library, the fuzz build links a
# copy of the static library whose Rust code carries sanitizer-coverage instrumentation (stable
# -C passes / -C llvm-args; --target keeps it off build scripts), with debug assertions and
# overflow checks on, so a panic shows as MPI_ERR_INTERN and then as a model mismatch.
# FUZZ_RUST_COVERAGE=0 links the ordinary archive instead (to compare coverage).
FUZZ_REPLAY_DEFS := -DFUZZ_REPLAY_DIRS='"$(abspath fuzz/corpus):$(abspath fuzz/regressions)"'
FUZZ_SECONDS ?= 300
FUZZ_CLANG ?= clang-19
FUZZ_CLANG_PACKAGES ?= clang-19 libclang-rt-19-dev
FUZZ_RUST_COVERAGE ?= 1
FUZZ_HOST = $(shell rustc -vV | sed -n 's/^host: //p')
FUZZ_RUSTFLAGS := -C passes=sancov-module -C llvm-args=-sanitizer-coverage-level=3 \
    -C llvm-args=-sanitizer-coverage-inline-8bit-counters -C llvm-args=-sanitizer-coverage-pc-table \
    -C llvm-args=-sanitizer-coverage-trace-compares -C debug-assertions=on -C overflow-checks=on
FUZZ_CFLAGS := -std=c99 -Wall -Wextra -Werror -g -O1 -Iinclude -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
.PHONY: fuzz fuzz-smoke fuzz-build

fuzz-build: lib
	@mkdir -p $(OUT)/fuzz
	@printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > $(OUT)/fuzz/probe.c; \
	  $(FUZZ_CLANG) -fsanitize=fuzzer $(OUT)/fuzz/probe.c -o $(OUT)/fuzz/probe 2>/dev/null || { \
	    echo "installing $(FUZZ_CLANG_PACKAGES) (Debian packages) for libFuzzer"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(FUZZ_CLANG_PACKAGES); }; \
	  rm -f $(OUT)/fuzz/probe.c $(OUT)/fuzz/probe
ifeq ($(FUZZ_RUST_COVERAGE),1)
	RUSTFLAGS="$(FUZZ_RUSTFLAGS)" $(CARGO) rustc --release --lib --crate-type staticlib --target $(FUZZ_HOST) --target-dir target/fuzz
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) fuzz/info_fuzz.c target/fuzz/$(FUZZ_HOST)/release/libmpi_info.a $(STATIC_LIBS) -o $(OUT)/fuzz/info_fuzz
else
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) fuzz/info_fuzz.c $(LIB)/libmpi_info.a $(STATIC_LIBS) -o $(OUT)/fuzz/info_fuzz
endif

fuzz: fuzz-build
	@fuzz/run.sh $(OUT)/fuzz/info_fuzz $(FUZZ_SECONDS) $(OUT)/fuzz

fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=60

# Model-checked tests of the handle table and the shared pairs: loom runs every interleaving
# of their threads (src/handles.rs, loom_tests). A separate target directory, as the cfg
# changes every crate's build.
loom:
	@mkdir -p $(OUT)
	RUSTFLAGS="--cfg loom" LOOM_LOG=loom::model=info $(CARGO) test --release --lib --target-dir target/loom loom_tests -- --test-threads=1 --nocapture \
	  > $(OUT)/loom.log 2>&1; status=$$?; \
	  sed 's/\x1b\[[0-9;]*m//g' $(OUT)/loom.log | grep -E '^test |Completed in|test result|panicked|error' | sed 's/ *INFO loom::model: */ /'; \
	  exit $$status

# The same benchmark source, built against this library, its standard ABI build (-DBENCH_ABI:
# mpi_info_abi.h, libmpi_info_abi), MPICH and Open MPI.
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
	$(CC) $(BENCH_CFLAGS) -Werror -DBENCH_ABI -Iinclude benches/info_bench.c -o $(OUT)/bench/info_bench_abi \
	    -L$(LIB) -lmpi_info_abi -Wl,-rpath,$(abspath $(LIB)) -lpthread
	mpicc.mpich $(BENCH_CFLAGS) -DBENCH_WITH_MPI benches/info_bench.c -o $(OUT)/bench/info_bench_mpich -lpthread
	mpicc.openmpi $(BENCH_CFLAGS) -DBENCH_WITH_MPI benches/info_bench.c -o $(OUT)/bench/info_bench_openmpi -lpthread
	@echo "MPICH $$(mpichversion | sed -n 's/^MPICH Version:[[:space:]]*//p'), $$(ompi_info --version | head -n 1), $$(nproc) cores: $$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	python3 benches/compare.py $(OUT)/bench/info_bench $(OUT)/bench/info_bench_abi $(OUT)/bench/info_bench_mpich $(OUT)/bench/info_bench_openmpi
	CC="$(CC)" benches/instructions.sh $(LIB) $(OUT)/bench
	@$(MAKE) --no-print-directory bench-hintcheck

# The CMake package (cmake/*.in) for find_package(mpi_info): the names of both libraries
# (libmpi_info and its standard ABI build, libmpi_info_abi) and their version,
# the archives' STATIC_LIBS the CMake way, and the library and header directories relative to
# the package's own, so that it can be staged with DESTDIR or moved.
CMAKEDIR ?= $(LIBDIR)/cmake/mpi_info
CMAKE_FILES := mpi_infoConfig.cmake mpi_infoConfigVersion.cmake
.PHONY: cmake-package
cmake-package:
	@mkdir -p $(OUT)/cmake
	@for f in $(CMAKE_FILES); do \
	  sed -e 's|@VERSION@|$(VERSION)|' -e 's|@MAJOR@|$(MAJOR)|' -e 's|@MINOR@|$(MINOR)|' \
	      -e 's|@REALNAME@|$(REALNAME)|' -e 's|@SONAME@|$(SONAME)|' -e 's|@SONAME_VERSION@|$(SONAME:libmpi_info.so.%=%)|g' \
	      -e 's|@ABI_REALNAME@|$(ABI_REALNAME)|' -e 's|@ABI_SONAME@|$(ABI_SONAME)|' \
	      -e 's|@SYSTEM_LIBS@|$(patsubst -l%,%,$(patsubst -lpthread,$${_mpi_info_threads},$(patsubst -ldl,$${CMAKE_DL_LIBS},$(STATIC_LIBS))))|' \
	      -e "s|@LIBDIR_FROM_HERE@|$$(realpath -ms --relative-to=$(CMAKEDIR) $(LIBDIR))|" \
	      -e "s|@INCLUDEDIR_FROM_HERE@|$$(realpath -ms --relative-to=$(CMAKEDIR) $(INCLUDEDIR))|" \
	      cmake/$$f.in > $(OUT)/cmake/$$f || exit 1; done

# What make install installs carries no debug information (strip --strip-debug: the symbol
# tables stay, for nm, backtraces and profilers; BENCHMARKS.md, "Size"); the build tree keeps it
# (Cargo.toml's release profile has debug = 1, for the tests, valgrind and the benchmarks), and
# make install DEBUG_INFO=1 installs it as built.
STRIP ?= strip
DEBUG_INFO ?=
install_strip = $(if $(DEBUG_INFO),@:,$(STRIP) --strip-debug)

# Installs one of the two libraries (libmpi_info, libmpi_info_abi): $(1) its name, $(2) and $(3)
# the shared library's file name and soname, $(4) its header, $(5) its pkg-config file.
# installed_library, with the same arguments, names the files that make uninstall removes.
define install_library
install -m 755 $(LIB)/$(2) $(DESTDIR)$(LIBDIR)/$(2)
$(install_strip) $(DESTDIR)$(LIBDIR)/$(2)
ln -sf $(2) $(DESTDIR)$(LIBDIR)/$(3)
ln -sf $(3) $(DESTDIR)$(LIBDIR)/$(1).so
install -m 644 $(LIB)/$(1).a $(DESTDIR)$(LIBDIR)/$(1).a
$(install_strip) $(DESTDIR)$(LIBDIR)/$(1).a
install -m 644 include/$(4) $(DESTDIR)$(INCLUDEDIR)/$(4)
install -m 644 $(OUT)/$(5) $(DESTDIR)$(PKGCONFIGDIR)/$(5)
endef
installed_library = $(addprefix $(DESTDIR)$(LIBDIR)/,$(2) $(3) $(1).so $(1).a) $(DESTDIR)$(INCLUDEDIR)/$(4) $(DESTDIR)$(PKGCONFIGDIR)/$(5)

# The directories the install creates, and only those, are listed in INSTALL_RECORD
# (tools/install-dirs.sh), and make uninstall removes them again when they are empty.
PKGDATADIR ?= $(PREFIX)/share/mpi-info
INSTALL_RECORD = $(DESTDIR)$(PKGDATADIR)/installed-directories
install_dirs = tools/install-dirs.sh make $(INSTALL_RECORD) '$(DESTDIR)' $(addprefix $(DESTDIR),$(1))

# The version script for a host that bundles libmpi_info.a into a shared library of its own
# (docs/embedding.md, "Bundling the archive"): only the MPI names are exported.
MAPFILE := mpi_info.map

install: lib cmake-package man
	$(call install_dirs,$(LIBDIR) $(INCLUDEDIR) $(PKGCONFIGDIR) $(CMAKEDIR) $(MANDIR)/man3 $(PKGDATADIR))
	$(call install_library,libmpi_info,$(REALNAME),$(SONAME),mpi_info.h,mpi-info.pc)
	$(call install_library,libmpi_info_abi,$(ABI_REALNAME),$(ABI_SONAME),mpi_info_abi.h,mpi-info-abi.pc)
	install -m 644 $(addprefix $(OUT)/cmake/,$(CMAKE_FILES)) $(DESTDIR)$(CMAKEDIR)
	install -m 644 $(MAN_OUT)/man3/*.3 $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(MAPFILE) $(DESTDIR)$(PKGDATADIR)/$(MAPFILE)

uninstall:
	rm -f $(DESTDIR)$(PKGDATADIR)/$(MAPFILE) $(call installed_library,libmpi_info,$(REALNAME),$(SONAME),mpi_info.h,mpi-info.pc) \
	      $(call installed_library,libmpi_info_abi,$(ABI_REALNAME),$(ABI_SONAME),mpi_info_abi.h,mpi-info-abi.pc) \
	      $(addprefix $(DESTDIR)$(CMAKEDIR)/,$(CMAKE_FILES))
	pages=$$($(MAN_LIST)) && for page in $$pages; do rm -f $(DESTDIR)$(MANDIR)/man3/$$page; done
	tools/install-dirs.sh remove $(INSTALL_RECORD) '$(DESTDIR)'
	-@rmdir $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(PKGDATADIR) 2>/dev/null || true

clean:
	rm -rf $(OUT)
	$(CARGO) clean

# ---------------------------------------------------------------- man pages begin
# One section 3 page per MPI_ and MPIX_ function, written by tools/manpages.py from the doc
# comments of include/mpi_info.h (src/capi/*.rs; the format is described in the script), the
# standard ABI build's include/mpi_info_abi.h (what it declares, and its MPI_Info) and the
# Fortran interfaces in fortran/; each PMPI_ and PMPIX_ twin gets a `.so` page naming its
# function's. make install puts them in $(MANDIR)/man3, make uninstall removes exactly the pages
# MAN_LIST names; tests-c/man_test.sh checks them (in make test).
MANDIR ?= $(PREFIX)/share/man
MAN_OUT := $(OUT)/man
MAN_LIST = $(PYTHON) tools/manpages.py --list
.PHONY: man
all: man
# After lib, which regenerates the header; the script rewrites only the pages that change.
man: lib
	$(Q)$(PYTHON) tools/manpages.py --out $(MAN_OUT)/man3 --version $(VERSION)
# ---------------------------------------------------------------- man pages end

# ---- Fortran bindings (docs/reference.md, "Fortran", and docs/fortran.md) ---------------------
# The old-style routines (mpi_info_set_, ...) are in the library itself (src/capi/fortran.rs).
# Here: the modules mpi_info and mpi_info_f08 (and mpi_info_constants, which both use), built
# with $(FC) (gfortran unless given), and libmpi_info_f08.a with the mpi_info_f08 procedures;
# the Fortran tests (tests-f/), run by make test against both libraries and by make valgrind;
# examples/hints.f90 (make run-fortran). Without $(FC), make skips all of it and says so; make
# install then installs the include files (include/mpi_infof*.h) and the module sources only.
ifeq ($(origin FC),default)
FC := gfortran
endif
HAVE_FC := $(if $(shell command -v $(FC) 2>/dev/null),yes)
FORTRAN_OUT := $(OUT)/fortran
# Where make install puts the module sources, for other compilers (the .mod files are gfortran's).
FORTRANSRCDIR ?= $(PREFIX)/share/mpi-info/fortran
FORTRAN_FLAGS := -std=f2018 -Wall -Wextra -Werror -O2 -g -fPIC -Iinclude
FORTRAN_SOURCES := $(wildcard fortran/*.f90)
# The include file and the two parts it includes (docs/embedding.md: beside a host's mpif.h, a
# program includes mpi_infof_own.h instead).
FORTRAN_INCLUDES := include/mpi_infof.h include/mpi_infof_mpi2.h include/mpi_infof_own.h
FORTRAN_MODS := $(addprefix $(FORTRAN_OUT)/,mpi_info_constants.mod mpi_info.mod mpi_info_f08.mod)
F08_OBJECTS := $(addprefix $(FORTRAN_OUT)/,mpi_info_f08.o mpi_info_f08_pmpi.o mpi_info_f08_mpi.o)
F08_LIB := $(LIB)/libmpi_info_f08.a
# The test programs: tests-f/f_*.f90 (and the fixed-form f_fixed.f), each linked against each
# library; f_mixed also has C functions (f_mixed_c.c), f_pmpi a profiling tool (f_pmpi_tool.f90);
# f_include and f_module share the body of their checks (exercise_old.inc).
# The test flags leave out -Wunused-parameter: a program that includes mpi_infof.h uses few of
# its constants.
FTEST_FLAGS := -std=f2018 -Wall -Wextra -Wno-unused-parameter -Werror -g -O1 -Iinclude
FORTRAN_TESTS := $(sort $(basename $(notdir $(wildcard tests-f/f_*.f90 tests-f/f_*.f))))
FORTRAN_TESTS := $(filter-out f_pmpi_tool,$(FORTRAN_TESTS))
FORTRAN_SCRIPT_TESTS := tests-f/bindings_test.sh
ifeq ($(HAVE_FC),yes)
FORTRAN_SHARED_TESTS := $(addprefix $(OUT)/ftests/shared/,$(FORTRAN_TESTS))
FORTRAN_STATIC_TESTS := $(addprefix $(OUT)/ftests/static/,$(FORTRAN_TESTS))
else
FORTRAN_SHARED_TESTS :=
FORTRAN_STATIC_TESTS :=
FORTRAN_SCRIPT_TESTS :=
endif

.PHONY: fortran run-fortran install-fortran uninstall-fortran
all: fortran
c-tests: $(FORTRAN_SHARED_TESTS) $(FORTRAN_STATIC_TESTS) $(if $(HAVE_FC),$(OUT)/examples/hints_f90)
valgrind: $(FORTRAN_SHARED_TESTS)

ifeq ($(HAVE_FC),yes)
# The .pc file is written every time, as lib writes mpi-info.pc: it names the PREFIX given now.
fortran: $(F08_LIB) $(FORTRAN_OUT)/mpi_info.o
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	     -e 's|@VERSION@|$(VERSION)|' mpi-info-f08.pc.in > $(OUT)/mpi-info-f08.pc
else
fortran:
	@echo "$(FC) not found: the Fortran modules, libmpi_info_f08.a and the Fortran tests are skipped"
endif

# Modules are made with their objects (-J puts the .mod files in $(FORTRAN_OUT)); a source that
# uses a module depends on that module's object. The mpi_info_f08 type is declared as the
# standard declares it, with a default INTEGER in a BIND(C) type, which gfortran warns about.
$(FORTRAN_OUT)/%.o: fortran/%.f90
	@mkdir -p $(@D)
	$(Q)$(FC) $(FORTRAN_FLAGS) $(if $(filter mpi_info_f08,$*),-Wno-c-binding-type) -J$(FORTRAN_OUT) -I$(FORTRAN_OUT) -c $< -o $@
$(FORTRAN_OUT)/mpi_info_constants.o: $(FORTRAN_INCLUDES)
$(FORTRAN_OUT)/mpi_info.o $(FORTRAN_OUT)/mpi_info_f08.o: $(FORTRAN_OUT)/mpi_info_constants.o
$(FORTRAN_OUT)/mpi_info_f08_pmpi.o $(FORTRAN_OUT)/mpi_info_f08_mpi.o: $(FORTRAN_OUT)/mpi_info_f08.o

# The plain names become weak, as in libmpi_info.a, so a tool linked ahead of the archive can
# define them and still take the PMPI_ names from it.
$(F08_LIB): $(F08_OBJECTS)
	@mkdir -p $(@D)
	@rm -f $@.tmp
	$(Q)ar rcs $@.tmp $^
	$(Q)$(OBJCOPY) --wildcard --weaken-symbol='mpi_*' $@.tmp && mv -f $@.tmp $@

# Test programs: $(1) shared or static, $(2) how to link the libraries. Each build has its own
# directory for the test modules (tests-f/fcheck.f90: the checks and the snapshot helper).
define fortran_tests
$(OUT)/ftests/$(1)/fcheck.o: tests-f/fcheck.f90 $(FORTRAN_INCLUDES)
	@mkdir -p $$(@D)
	$(Q)$$(FC) $$(FTEST_FLAGS) -J$$(@D) -c $$< -o $$@
$(OUT)/ftests/$(1)/f_mixed_c.o: tests-f/f_mixed_c.c tests-c/check.h include/mpi_info.h
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(TEST_CFLAGS) -c $$< -o $$@
$(OUT)/ftests/$(1)/f_pmpi_tool.o: tests-f/f_pmpi_tool.f90 $(OUT)/ftests/$(1)/fcheck.o
	$(Q)$$(FC) $$(FTEST_FLAGS) -I$(FORTRAN_OUT) -J$$(@D) -c $$< -o $$@
$(OUT)/ftests/$(1)/f_mixed: $(OUT)/ftests/$(1)/f_mixed_c.o
$(OUT)/ftests/$(1)/f_pmpi: $(OUT)/ftests/$(1)/f_pmpi_tool.o
$(OUT)/ftests/$(1)/%: tests-f/%.f90 $(OUT)/ftests/$(1)/fcheck.o $(wildcard tests-f/*.inc) $(FORTRAN_MODS) $(F08_LIB) $(LIB)/$(REALNAME) $(LIB)/libmpi_info.a
	$(Q)$$(FC) $$(FTEST_FLAGS) -I$(FORTRAN_OUT) -I$$(@D) -J$$(@D) $$< $$(filter %.o,$$^) -o $$@ $(2)
$(OUT)/ftests/$(1)/%: tests-f/%.f $(OUT)/ftests/$(1)/fcheck.o $(LIB)/$(REALNAME) $(LIB)/libmpi_info.a
	$(Q)$$(FC) $$(FTEST_FLAGS) -ffixed-form -I$$(@D) $$< $$(filter %.o,$$^) -o $$@ $(2)
endef
$(FORTRAN_MODS): $(FORTRAN_OUT)/mpi_info.o $(FORTRAN_OUT)/mpi_info_f08.o
comma := ,
$(eval $(call fortran_tests,shared,-L$(LIB) -lmpi_info_f08 -lmpi_info -Wl$(comma)-rpath$(comma)$(abspath $(LIB))))
$(eval $(call fortran_tests,static,$(F08_LIB) $(LIB)/libmpi_info.a $(STATIC_LIBS)))

run-fortran: lib fortran $(OUT)/examples/hints_f90
	$(OUT)/examples/hints_f90 --hint striping_factor=4

$(OUT)/examples/hints_f90: examples/hints.f90 $(FORTRAN_MODS) $(F08_LIB) $(LIB)/$(REALNAME)
	@mkdir -p $(@D)
	$(Q)$(FC) -std=f2018 -Wall -Werror -O2 -I$(FORTRAN_OUT) $< -o $@ -L$(LIB) -lmpi_info_f08 -lmpi_info -Wl,-rpath,$(abspath $(LIB))

install: install-fortran
uninstall: uninstall-fortran
install-fortran: lib fortran
	$(call install_dirs,$(INCLUDEDIR) $(FORTRANSRCDIR))
	install -m 644 $(FORTRAN_INCLUDES) $(DESTDIR)$(INCLUDEDIR)
	install -m 644 $(FORTRAN_SOURCES) $(DESTDIR)$(FORTRANSRCDIR)
ifeq ($(HAVE_FC),yes)
	$(call install_dirs,$(LIBDIR) $(PKGCONFIGDIR))
	install -m 644 $(FORTRAN_MODS) $(DESTDIR)$(INCLUDEDIR)
	install -m 644 $(F08_LIB) $(DESTDIR)$(LIBDIR)/libmpi_info_f08.a
	install -m 644 $(OUT)/mpi-info-f08.pc $(DESTDIR)$(PKGCONFIGDIR)/mpi-info-f08.pc
endif

uninstall-fortran:
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(FORTRAN_INCLUDES))) $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(FORTRAN_MODS))) \
	      $(addprefix $(DESTDIR)$(FORTRANSRCDIR)/,$(notdir $(FORTRAN_SOURCES))) \
	      $(DESTDIR)$(LIBDIR)/libmpi_info_f08.a $(DESTDIR)$(PKGCONFIGDIR)/mpi-info-f08.pc
	-@rmdir $(DESTDIR)$(FORTRANSRCDIR) 2>/dev/null || true
# ---- end of the Fortran bindings ----------------------------------------------------------------

# ---------------------------------------------------------------- MPIX_ toolkit begin
# The MPIX_ hint toolkit for layered libraries (src/capi/mpix.rs, docs/mpix.md). Its C tests are
# tests-c/test_mpix_*.c, picked up with the other test_*.c; they also include
# tests-c/mpix_support.h. tests-c/nomem.c runs the MPIX_ calls that allocate.
MPIX_TESTS := $(filter test_mpix_%,$(C_TESTS))
$(foreach build,tests asan tsan,$(foreach lib,shared static,$(addprefix $(OUT)/$(build)/$(lib)/,$(MPIX_TESTS)))): tests-c/mpix_support.h

# The serialization fuzz target, fuzz/serial_fuzz.c (fuzz/README.md). make test replays its seed
# corpus and regression inputs through fuzz/replay_main.c against both libraries (in the replay
# suites, after the C API target's), and so does make asan; make fuzz runs libFuzzer on it for
# SERIAL_FUZZ_SECONDS (half of FUZZ_SECONDS unless given: 150 s, 30 s in make fuzz-smoke), before
# the C API target.
SERIAL_REPLAY_DEFS := -DFUZZ_REPLAY_DIRS='"$(abspath fuzz/serial_corpus):$(abspath fuzz/serial_regressions)"'
SERIAL_REPLAY := $(OUT)/tests/shared/serial_replay $(OUT)/tests/static/serial_replay
# $(1) to $(4) as for c_programs.
define serial_replay
$(OUT)/$(1)/$(4)shared/serial_replay: fuzz/serial_fuzz.c fuzz/replay_main.c include/$(3).h $(LIB)/lib$(3).so.$(VERSION)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) $$(SERIAL_REPLAY_DEFS) fuzz/serial_fuzz.c fuzz/replay_main.c -o $$@ -L$(LIB) -l$(3) -Wl,-rpath,$(abspath $(LIB))

$(OUT)/$(1)/$(4)static/serial_replay: fuzz/serial_fuzz.c fuzz/replay_main.c include/$(3).h $(LIB)/lib$(3).a
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) $$(SERIAL_REPLAY_DEFS) fuzz/serial_fuzz.c fuzz/replay_main.c -o $$@ $(LIB)/lib$(3).a $(STATIC_LIBS)
endef
$(eval $(call serial_replay,tests,TEST_CFLAGS,mpi_info,))
$(eval $(call serial_replay,asan,ASAN_CFLAGS,mpi_info,))
ASAN_SHARED += $(OUT)/asan/shared/serial_replay
ASAN_STATIC += $(OUT)/asan/static/serial_replay
asan: $(OUT)/asan/shared/serial_replay $(OUT)/asan/static/serial_replay

SERIAL_FUZZ_SECONDS ?= $(shell expr $(FUZZ_SECONDS) / 2)
FUZZ_ARCHIVE = $(if $(filter 1,$(FUZZ_RUST_COVERAGE)),target/fuzz/$(FUZZ_HOST)/release/libmpi_info.a,$(LIB)/libmpi_info.a)
.PHONY: fuzz-serial
fuzz: fuzz-serial
fuzz-serial: fuzz-build
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) fuzz/serial_fuzz.c $(FUZZ_ARCHIVE) $(STATIC_LIBS) -o $(OUT)/fuzz/serial_fuzz
	@fuzz/run.sh $(OUT)/fuzz/serial_fuzz $(SERIAL_FUZZ_SECONDS) $(OUT)/fuzz-serial fuzz/serial_corpus fuzz/serial_regressions serial_replay

# examples/layered.c, what a layered I/O library's open does with the toolkit: built and run by
# make test (tests-c/layered_test.sh checks what it prints).
SCRIPT_TESTS += tests-c/layered_test.sh
c-tests: $(SERIAL_REPLAY) $(OUT)/examples/layered
# ---------------------------------------------------------------- MPIX_ toolkit end

# ---------------------------------------------------------------- standard ABI test suite begin
# The C suite against the standard ABI build (libmpi_info_abi): the same sources, built with
# -DMPI_INFO_TEST_ABI so that tests-c/check.h includes include/mpi_info_abi.h, linked against
# the shared library (into $(OUT)/tests/abi-shared) and against the archive
# ($(OUT)/tests/abi-static); make test runs them as the suites abi.so and abi.a, make valgrind
# the shared ones, make asan both. Tests of MPI_Info_c2f/f2c, which this library does not have,
# are left out of this build (the sources say where). Two programs are for this build only:
# tests-c/abi_handles.c (its handles: size, range, conversions, refusal of any other value, no
# dereference, and both libraries loaded in one process at once) and tests-c/abi_program.c (a
# program written against a standard ABI mpi.h: tests-c/abi/mpi.h, which the project wrote from
# the standard's published values; built a second time, as abi_program_generated, against an
# mpi.h that only includes include/mpi_info_abi.h).
ABI_TEST_CFLAGS := $(TEST_CFLAGS) -DMPI_INFO_TEST_ABI
ABI_ASAN_CFLAGS := $(ASAN_CFLAGS) -DMPI_INFO_TEST_ABI
$(eval $(call c_programs,tests,ABI_TEST_CFLAGS,mpi_info_abi,abi-))
$(eval $(call c_programs,asan,ABI_ASAN_CFLAGS,mpi_info_abi,abi-))
$(eval $(call serial_replay,tests,ABI_TEST_CFLAGS,mpi_info_abi,abi-))
$(eval $(call serial_replay,asan,ABI_ASAN_CFLAGS,mpi_info_abi,abi-))
ABI_PROGRAMS := $(C_TESTS) pmpi_app nomem stress limits fuzz_replay serial_replay abi_handles abi_program
ABI_SHARED_RUN := $(addprefix $(OUT)/tests/abi-shared/,$(ABI_PROGRAMS) unload abi_program_generated)
ABI_STATIC_RUN := $(addprefix $(OUT)/tests/abi-static/,$(ABI_PROGRAMS))
c-tests: $(ABI_SHARED_RUN) $(ABI_STATIC_RUN)
# Each program in each of its four builds (tests and asan, shared and static).
abi_builds = $(foreach build,tests asan,$(foreach lib,shared static,$(addprefix $(OUT)/$(build)/abi-$(lib)/,$(1))))
$(call abi_builds,$(MPIX_TESTS)): tests-c/mpix_support.h

# abi_handles opens both shared libraries with dlopen (which is in the C library from glibc
# 2.34 on).
ABI_HANDLES_DEFS := -DINT_LIBRARY='"$(abspath $(LIB))/libmpi_info.so"' -DABI_LIBRARY='"$(abspath $(LIB))/libmpi_info_abi.so"'
$(call abi_builds,abi_handles): ABI_TEST_CFLAGS += $(ABI_HANDLES_DEFS)
$(call abi_builds,abi_handles): ABI_ASAN_CFLAGS += $(ABI_HANDLES_DEFS)
$(call abi_builds,abi_handles): $(LIB)/$(REALNAME)

# abi_program finds <mpi.h> in tests-c/abi; abi_program_generated in a directory whose mpi.h
# includes the generated header.
$(call abi_builds,abi_program): ABI_TEST_CFLAGS += -Itests-c/abi
$(call abi_builds,abi_program): ABI_ASAN_CFLAGS += -Itests-c/abi
$(call abi_builds,abi_program): tests-c/abi/mpi.h
$(OUT)/tests/abi-header/mpi.h:
	@mkdir -p $(@D)
	@printf '#include "mpi_info_abi.h"\n' > $@
$(OUT)/tests/abi-shared/abi_program_generated: tests-c/abi_program.c tests-c/check.h tests-c/support.h include/mpi_info_abi.h $(OUT)/tests/abi-header/mpi.h $(LIB)/$(ABI_REALNAME)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ABI_TEST_CFLAGS) -I$(OUT)/tests/abi-header $< -o $@ -L$(LIB) -lmpi_info_abi -Wl,-rpath,$(abspath $(LIB))

# Under memcheck, as the int build's programs are: not nomem (valgrind replaces malloc too)
# and not limits.
ABI_VALGRIND := $(addprefix $(OUT)/tests/abi-shared/,$(C_TESTS) pmpi_app unload stress abi_handles abi_program)
VALGRIND_PROGRAMS += $(ABI_VALGRIND)
valgrind: $(ABI_VALGRIND)

# In make asan's suites, after the int build's programs.
ABI_ASAN_SHARED := $(addprefix $(OUT)/asan/abi-shared/,$(ABI_PROGRAMS))
ABI_ASAN_STATIC := $(addprefix $(OUT)/asan/abi-static/,$(ABI_PROGRAMS))
ASAN_SHARED += $(ABI_ASAN_SHARED)
ASAN_STATIC += $(ABI_ASAN_STATIC)
asan: $(ABI_ASAN_SHARED) $(ABI_ASAN_STATIC)
# ---------------------------------------------------------------- standard ABI test suite end

# ---------------------------------------------------------------- host MPI begin
# mpi-info as the info part of another MPI layer (docs/embedding.md). examples/stub-mpi is a
# single-process MPI layer of the project's own with mpi-info inside; it is built for each style
# of its mpi.h's shared names (HOST_STYLES: enum constants, or macros with
# -DSTUB_MPI_MACRO_CONSTANTS) as build/host/<style>/libstub_mpi.so and libstub_mpi.a.
# tests-c/host/app.c is linked to it and to libmpi_info in every combination:
# build/host/app_<style>_<shared|static>_<host|library>_first, the host's library or
# mpi-info's first on the link line (the program calls both, so --as-needed keeps both);
# tests-c/host_test.sh runs them. examples/layered.c with -DLAYERED_WITH_MPI runs on the stub,
# shared and static (build/host/layered_shared, layered_static), through the checks of
# tests-c/layered_test.sh; make valgrind runs that script with each run under memcheck.
HOST_OUT := $(OUT)/host
HOST_STYLES := enum macro
HOST_STYLE_FLAGS_enum :=
HOST_STYLE_FLAGS_macro := -DSTUB_MPI_MACRO_CONSTANTS
HOST_CFLAGS = -Iexamples/stub-mpi $(HOST_STYLE_FLAGS_$(1))
HOST_HEADERS := examples/stub-mpi/mpi.h include/mpi_info.h
HOST_RPATH = -Wl,-rpath,$(abspath $(HOST_OUT)/$(1)):$(abspath $(LIB))
HOST_APPS := $(foreach style,$(HOST_STYLES),$(foreach link,shared static,$(foreach first,host library,$(HOST_OUT)/app_$(style)_$(link)_$(first)_first)))
HOST_LAYERED := $(HOST_OUT)/layered_shared $(HOST_OUT)/layered_static

# $(1) the style.
define host_mpi
$(HOST_OUT)/$(1)/libstub_mpi.so: examples/stub-mpi/stub_mpi.c $(HOST_HEADERS) $(LIB)/$(REALNAME)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(EXAMPLE_CFLAGS) $(call HOST_CFLAGS,$(1)) -fPIC -shared $$< -o $$@ -L$(LIB) -lmpi_info -Wl,-rpath,$(abspath $(LIB))

$(HOST_OUT)/$(1)/libstub_mpi.a: examples/stub-mpi/stub_mpi.c $(HOST_HEADERS)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(EXAMPLE_CFLAGS) $(call HOST_CFLAGS,$(1)) -c $$< -o $(HOST_OUT)/$(1)/stub_mpi.o
	$(Q)rm -f $$@ && ar rcs $$@ $(HOST_OUT)/$(1)/stub_mpi.o

$(HOST_OUT)/app_$(1)_shared_host_first: tests-c/host/app.c tests-c/check.h $(HOST_HEADERS) $(HOST_OUT)/$(1)/libstub_mpi.so
	$(Q)$$(CC) $$(TEST_CFLAGS) $(call HOST_CFLAGS,$(1)) $$< -o $$@ -L$(HOST_OUT)/$(1) -lstub_mpi -L$(LIB) -lmpi_info $(call HOST_RPATH,$(1))

$(HOST_OUT)/app_$(1)_shared_library_first: tests-c/host/app.c tests-c/check.h $(HOST_HEADERS) $(HOST_OUT)/$(1)/libstub_mpi.so
	$(Q)$$(CC) $$(TEST_CFLAGS) $(call HOST_CFLAGS,$(1)) $$< -o $$@ -L$(LIB) -lmpi_info -L$(HOST_OUT)/$(1) -lstub_mpi $(call HOST_RPATH,$(1))

$(HOST_OUT)/app_$(1)_static_host_first: tests-c/host/app.c tests-c/check.h $(HOST_HEADERS) $(HOST_OUT)/$(1)/libstub_mpi.a $(LIB)/libmpi_info.a
	$(Q)$$(CC) $$(TEST_CFLAGS) $(call HOST_CFLAGS,$(1)) $$< -o $$@ $(HOST_OUT)/$(1)/libstub_mpi.a $(LIB)/libmpi_info.a $(STATIC_LIBS)

$(HOST_OUT)/app_$(1)_static_library_first: tests-c/host/app.c tests-c/check.h $(HOST_HEADERS) $(HOST_OUT)/$(1)/libstub_mpi.a $(LIB)/libmpi_info.a
	$(Q)$$(CC) $$(TEST_CFLAGS) $(call HOST_CFLAGS,$(1)) $$< -o $$@ $(LIB)/libmpi_info.a $(HOST_OUT)/$(1)/libstub_mpi.a $(STATIC_LIBS)
endef
$(foreach style,$(HOST_STYLES),$(eval $(call host_mpi,$(style))))

$(HOST_OUT)/layered_shared: examples/layered.c $(HOST_HEADERS) $(HOST_OUT)/enum/libstub_mpi.so
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -DLAYERED_WITH_MPI $(call HOST_CFLAGS,enum) $< -o $@ -L$(HOST_OUT)/enum -lstub_mpi -L$(LIB) -lmpi_info $(call HOST_RPATH,enum)

$(HOST_OUT)/layered_static: examples/layered.c $(HOST_HEADERS) $(HOST_OUT)/enum/libstub_mpi.a $(LIB)/libmpi_info.a
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -DLAYERED_WITH_MPI $(call HOST_CFLAGS,enum) $< -o $@ $(HOST_OUT)/enum/libstub_mpi.a $(LIB)/libmpi_info.a $(STATIC_LIBS)

# A host whose error functions pass every code back to MPI_Error_string (tests-c/host/pass_back.c):
# mpi-info first on the link line, so that it is where mpi-info passes codes on.
$(HOST_OUT)/libpass_back_host.so: tests-c/host/pass_back_host.c include/mpi_info.h $(LIB)/$(REALNAME)
	@mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) -fPIC -shared $< -o $@ -L$(LIB) -lmpi_info

$(HOST_OUT)/pass_back: tests-c/host/pass_back.c tests-c/check.h include/mpi_info.h $(HOST_OUT)/libpass_back_host.so
	$(Q)$(CC) $(TEST_CFLAGS) $< -o $@ -L$(LIB) -lmpi_info -L$(HOST_OUT) -lpass_back_host -Wl,-rpath,$(abspath $(HOST_OUT)):$(abspath $(LIB))

SCRIPT_TESTS += tests-c/host_test.sh
c-tests: $(HOST_APPS) $(HOST_OUT)/pass_back $(HOST_LAYERED)
HOST_VALGRIND := $(filter %_shared_host_first %_shared_library_first,$(HOST_APPS)) $(HOST_OUT)/pass_back
VALGRIND_PROGRAMS += $(HOST_VALGRIND)
valgrind: $(HOST_VALGRIND) $(HOST_LAYERED) $(OUT)/examples/layered

# Fortran programs on the host (docs/embedding.md, Fortran): tests-f/host/app.F90 against the
# stub's mpif.h (examples/stub-mpi/mpif.h, which includes mpi_infof_own.h at its end: style
# inside) or against a copy without that line, the program including mpi_infof_own.h after it
# (style after, -DINFO_AFTER), linked to the enum-style stub (whose library has the Fortran
# binding) and to libmpi_info, shared or static, either first:
# build/host/fortran/app_<style>_<shared|static>_<host|library>_first; tests-f/host_test.sh
# runs them (in the fortran.so suite).
ifeq ($(HAVE_FC),yes)
FHOST_OUT := $(HOST_OUT)/fortran
FHOST_FLAGS_inside := -Iexamples/stub-mpi
FHOST_FLAGS_after := -I$(FHOST_OUT)/after -DINFO_AFTER
FHOST_MPIF_inside := examples/stub-mpi/mpif.h
FHOST_MPIF_after := $(FHOST_OUT)/after/mpif.h
FHOST_APPS := $(foreach style,inside after,$(foreach link,shared static,$(foreach first,host library,$(FHOST_OUT)/app_$(style)_$(link)_$(first)_first)))
FHOST_DEPS := tests-f/host/app.F90 $(OUT)/ftests/shared/fcheck.o $(FORTRAN_INCLUDES)
FHOST_BUILD = $(FC) $(FTEST_FLAGS) $(FHOST_FLAGS_$(1)) -I$(OUT)/ftests/shared $$< $(OUT)/ftests/shared/fcheck.o -o $$@

$(FHOST_OUT)/after/mpif.h: examples/stub-mpi/mpif.h
	@mkdir -p $(@D)
	$(Q)grep -v "INCLUDE 'mpi_infof_own.h'" $< > $@

# $(1) the style.
define fortran_host
$(FHOST_OUT)/app_$(1)_shared_host_first: $(FHOST_DEPS) $(FHOST_MPIF_$(1)) $(HOST_OUT)/enum/libstub_mpi.so $(LIB)/$(REALNAME)
	@mkdir -p $$(@D)
	$(Q)$(FHOST_BUILD) -L$(HOST_OUT)/enum -lstub_mpi -L$(LIB) -lmpi_info $(call HOST_RPATH,enum)

$(FHOST_OUT)/app_$(1)_shared_library_first: $(FHOST_DEPS) $(FHOST_MPIF_$(1)) $(HOST_OUT)/enum/libstub_mpi.so $(LIB)/$(REALNAME)
	@mkdir -p $$(@D)
	$(Q)$(FHOST_BUILD) -L$(LIB) -lmpi_info -L$(HOST_OUT)/enum -lstub_mpi $(call HOST_RPATH,enum)

$(FHOST_OUT)/app_$(1)_static_host_first: $(FHOST_DEPS) $(FHOST_MPIF_$(1)) $(HOST_OUT)/enum/libstub_mpi.a $(LIB)/libmpi_info.a
	@mkdir -p $$(@D)
	$(Q)$(FHOST_BUILD) $(HOST_OUT)/enum/libstub_mpi.a $(LIB)/libmpi_info.a $(STATIC_LIBS)

$(FHOST_OUT)/app_$(1)_static_library_first: $(FHOST_DEPS) $(FHOST_MPIF_$(1)) $(HOST_OUT)/enum/libstub_mpi.a $(LIB)/libmpi_info.a
	@mkdir -p $$(@D)
	$(Q)$(FHOST_BUILD) $(LIB)/libmpi_info.a $(HOST_OUT)/enum/libstub_mpi.a $(STATIC_LIBS)
endef
$(foreach style,inside after,$(eval $(call fortran_host,$(style))))

FORTRAN_SCRIPT_TESTS += tests-f/host_test.sh
c-tests: $(FHOST_APPS)
FHOST_VALGRIND := $(filter %_shared_host_first %_shared_library_first,$(FHOST_APPS))
VALGRIND_PROGRAMS += $(FHOST_VALGRIND)
valgrind: $(FHOST_VALGRIND)
.PHONY: fortran-host
fortran-host: $(FHOST_APPS)
endif

# Hosts that mpi-info cannot reach with dlsym(RTLD_NEXT) (docs/embedding.md, "Hosts in
# private" and "The preload route"), run by tests-c/local_host_test.sh. tests-c/host/local_host.c
# is a host library with no info object, not linked to mpi-info, built as the hosts
# tests-c/host/dlopen_local.c opens with RTLD_LOCAL beside both libraries (host A and host B,
# a plain host with the MPI_ names only, and a copy of mpi-info, which defines
# MPIX_Info_error_string), and, for each build (int, abi), as a host whose info functions end
# the process, under tests-c/host/preload_checks.c as a program (preload_app_<build>) and as an
# extension that Python opens (libpreload_ext_<build>.so), each linked to that host only.
LOCAL_OUT := $(HOST_OUT)/local
LOCAL_HOST_FLAGS_a := -DLOCAL_HOST_NAME='"host A"'
LOCAL_HOST_FLAGS_b := -DLOCAL_HOST_NAME='"host B"'
LOCAL_HOST_FLAGS_plain := -DLOCAL_HOST_NAME='"plain host"' -DLOCAL_HOST_PLAIN
LOCAL_HOST_FLAGS_copy := -DLOCAL_HOST_NAME='"copy"' -DLOCAL_HOST_COPY
LOCAL_HOSTS := $(foreach variant,a b plain copy,$(LOCAL_OUT)/liblocal_host_$(variant).so)
LOCAL_DEFS := -DINT_LIBRARY='"$(abspath $(LIB))/libmpi_info.so"' -DABI_LIBRARY='"$(abspath $(LIB))/libmpi_info_abi.so"' \
    $(foreach variant,a b plain copy,-DHOST_$(shell echo $(variant) | tr a-z A-Z)='"$(abspath $(LOCAL_OUT))/liblocal_host_$(variant).so"')

$(LOCAL_OUT)/liblocal_host_%.so: tests-c/host/local_host.c include/mpi_info.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) $(LOCAL_HOST_FLAGS_$*) -fPIC -shared $< -o $@

$(LOCAL_OUT)/dlopen_local: tests-c/host/dlopen_local.c tests-c/check.h include/mpi_info.h $(LOCAL_HOSTS) $(LIB)/$(REALNAME) $(LIB)/$(ABI_REALNAME)
	$(Q)$(CC) $(TEST_CFLAGS) $(LOCAL_DEFS) $< -o $@ -ldl

PRELOAD_FLAGS_int :=
PRELOAD_FLAGS_abi := -DMPI_INFO_TEST_ABI
# $(1) the build: int or abi.
define preload_route
$(LOCAL_OUT)/libnoinfo_host_$(1).so: tests-c/host/local_host.c include/mpi_info.h include/mpi_info_abi.h
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(TEST_CFLAGS) $(PRELOAD_FLAGS_$(1)) -DLOCAL_HOST_NAME='"noinfo host"' -DLOCAL_HOST_INFO_STUBS -fPIC -shared $$< -o $$@

$(LOCAL_OUT)/preload_app_$(1): tests-c/host/preload_checks.c tests-c/check.h $(LOCAL_OUT)/libnoinfo_host_$(1).so
	$(Q)$$(CC) $$(TEST_CFLAGS) $(PRELOAD_FLAGS_$(1)) $$< -o $$@ -L$(LOCAL_OUT) -lnoinfo_host_$(1) -Wl,-rpath,$(abspath $(LOCAL_OUT))

$(LOCAL_OUT)/libpreload_ext_$(1).so: tests-c/host/preload_checks.c tests-c/check.h $(LOCAL_OUT)/libnoinfo_host_$(1).so
	$(Q)$$(CC) $$(TEST_CFLAGS) $(PRELOAD_FLAGS_$(1)) -DPRELOAD_EXTENSION -fPIC -shared $$< -o $$@ -L$(LOCAL_OUT) -lnoinfo_host_$(1) -Wl,-rpath,$(abspath $(LOCAL_OUT))
endef
$(foreach build,int abi,$(eval $(call preload_route,$(build))))
LOCAL_PROGRAMS := $(LOCAL_OUT)/dlopen_local $(foreach build,int abi,$(LOCAL_OUT)/preload_app_$(build) $(LOCAL_OUT)/libpreload_ext_$(build).so)

SCRIPT_TESTS += tests-c/local_host_test.sh
c-tests: $(LOCAL_PROGRAMS)
VALGRIND_PROGRAMS += $(LOCAL_OUT)/dlopen_local
valgrind: $(LOCAL_OUT)/dlopen_local
# ---------------------------------------------------------------- host MPI end

# ---------------------------------------------------------------- hintcheck begin
# libmpi_info_hintcheck (docs/hintcheck.md): the hint report tool for real MPI jobs, built for
# one MPI with its own compiler wrapper, MPICC (mpicc unless given): hintcheck/hintcheck.c (the
# interceptors) and the Rust core hintcheck/core, a static archive built from this crate without
# its C API (the `c-api` feature off), in a cargo invocation and target directory of its own so
# that feature unification cannot turn the C API back on. The library exports only the MPI_
# names it intercepts (hintcheck/exports.map). One build directory per MPICC:
# build/hintcheck/<mpicc>/libmpi_info_hintcheck.so.
#   make hintcheck MPICC=mpicc.mpich
#   make install-hintcheck MPICC=mpicc.openmpi PREFIX=/opt/hintcheck/openmpi   (one prefix per MPI)
#   make bench-hintcheck   MPI_File_open + MPI_File_close, 4 ranks, 20 hints, with and without it
# make test runs hintcheck/tests/run.sh (real jobs on each MPI that is installed) as its own suite.
MPICC ?= mpicc
HINTCHECK_TARGET := target/hintcheck
HINTCHECK_CORE := $(HINTCHECK_TARGET)/release/libmpi_info_hintcheck.a
HINTCHECK_DIR = $(OUT)/hintcheck/$(notdir $(MPICC))
HINTCHECK_CFLAGS := -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra -Werror -fPIC
.PHONY: hintcheck hintcheck-core install-hintcheck uninstall-hintcheck bench-hintcheck

hintcheck-core:
	$(CARGO) build --release -p mpi-info-hintcheck --target-dir $(HINTCHECK_TARGET)

hintcheck: hintcheck-core
	@mkdir -p $(HINTCHECK_DIR)
	$(MPICC) $(HINTCHECK_CFLAGS) -shared hintcheck/hintcheck.c $(HINTCHECK_CORE) -o $(HINTCHECK_DIR)/libmpi_info_hintcheck.so.tmp \
	    -Wl,--version-script=hintcheck/exports.map -Wl,--gc-sections -Wl,-z,nodelete -lpthread -ldl -lm
	@mv -f $(HINTCHECK_DIR)/libmpi_info_hintcheck.so.tmp $(HINTCHECK_DIR)/libmpi_info_hintcheck.so
	@if nm -D --defined-only $(HINTCHECK_DIR)/libmpi_info_hintcheck.so | grep -E ' (P?MPI_Info_|mpi_info_)'; then \
	    echo "libmpi_info_hintcheck.so must not export these names" >&2; exit 1; fi

install-hintcheck: hintcheck
	install -d $(DESTDIR)$(LIBDIR)
	install -m 755 $(HINTCHECK_DIR)/libmpi_info_hintcheck.so $(DESTDIR)$(LIBDIR)/libmpi_info_hintcheck.so

uninstall-hintcheck:
	rm -f $(DESTDIR)$(LIBDIR)/libmpi_info_hintcheck.so

# For each MPI installed (mpicc.mpich, mpicc.openmpi), the library built, then the jobs of
# hintcheck/bench.sh (BENCH_NP, BENCH_N).
bench-hintcheck:
	@for mpi in mpich openmpi; do \
	    if command -v mpicc.$$mpi >/dev/null; then $(MAKE) --no-print-directory hintcheck MPICC=mpicc.$$mpi >/dev/null || exit 1; fi; \
	done
	hintcheck/bench.sh

# In make test: its own suite (hintcheck), after the others.
HINTCHECK_SUITE := hintcheck/tests/run.sh
# ---------------------------------------------------------------- hintcheck end
# ---------------------------------------------------------------- hint checker begin
# mpi-info-lint (tools/mpi-info-lint, docs/hints.md): the hint checker's command, over the
# library's Rust API and the vocabulary compiled into it (data/hints.json). make builds it into
# $(OUT)/bin; make install puts it in $(BINDIR) with its man page (docs/man/mpi-info-lint.1);
# make test runs its unit tests and tests-lint/lint_test.sh (syntaxes, exit statuses, JSON, bad
# input, the documentation's example hint sets).
BINDIR ?= $(PREFIX)/bin
LINT := $(OUT)/bin/mpi-info-lint
LINT_MAN := docs/man/mpi-info-lint.1
.PHONY: lint install-lint uninstall-lint
all: lint
lint:
	$(Q)$(CARGO) build --release -p mpi-info-lint
	@mkdir -p $(OUT)/bin
	@cmp -s target/release/mpi-info-lint $(LINT) || cp target/release/mpi-info-lint $(LINT)
$(LINT): lint
c-tests: $(LINT)
SCRIPT_TESTS += tests-lint/lint_test.sh
install: install-lint
uninstall: uninstall-lint
install-lint: lint
	$(call install_dirs,$(BINDIR) $(MANDIR)/man1)
	install -m 755 $(LINT) $(DESTDIR)$(BINDIR)/mpi-info-lint
	$(install_strip) $(DESTDIR)$(BINDIR)/mpi-info-lint
	install -m 644 $(LINT_MAN) $(DESTDIR)$(MANDIR)/man1/mpi-info-lint.1
uninstall-lint:
	rm -f $(DESTDIR)$(BINDIR)/mpi-info-lint $(DESTDIR)$(MANDIR)/man1/mpi-info-lint.1
# The checker's costs (BENCHMARKS.md, "Checking hints"): MPIX_Info_check on a 20-key object
# (benches/hints_bench.c) and mpi-info-lint on 10,000-line files (benches/lint_bench.py).
.PHONY: bench-hints
bench: bench-hints
bench-hints: lib lint
	@mkdir -p $(OUT)/bench
	$(CC) $(BENCH_CFLAGS) -Werror -Iinclude benches/hints_bench.c -o $(OUT)/bench/hints_bench \
	    -L$(LIB) -lmpi_info -Wl,-rpath,$(abspath $(LIB))
	$(OUT)/bench/hints_bench
	$(PYTHON) benches/lint_bench.py $(LINT)
# ---------------------------------------------------------------- hint checker end
