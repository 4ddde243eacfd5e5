# The hardening targets: the suites under memcheck and with the sanitizers (their suites, and
# the programs these targets depend on, are in mk/suites.mk), the stress and limits programs for
# longer, and loom.

# Every program of the memcheck suite under valgrind, the Python ctypes test (the interpreter
# under memcheck) and the runs of tests-c/layered_test.sh (examples/layered.c alone and on the
# host MPI layer): any error, or any byte definitely or indirectly lost, fails the program.
# Memcheck runs one thread at a time; --fair-sched hands its lock round in turn, so that a thread
# that never blocks (the fork test's workers) cannot keep the others (the thread that forks)
# waiting. Each program runs through a wrapper script, $(OUT)/valgrind/<its path with _>.
VALGRIND := valgrind --quiet --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
# The wrapper of each program: $(OUT)/valgrind/<its path, / made _> (mk/suites.mk).
define valgrind_wrapper
$(OUT)/valgrind/$(subst /,_,$(1)): $(1) mk/check.mk
	@mkdir -p $$(@D)
	@printf '#!/bin/sh\nMPI_INFO_UNDER_VALGRIND=1 exec $$(VALGRIND) %s "$$$$@"\n' "$(abspath $(1))" > $$@ && chmod +x $$@
endef

# The stress program for longer (STRESS_SEED=<the seed it printed> repeats each thread's
# choices), and the limits program alone.
STRESS_SECONDS ?= 60
STRESS_THREADS ?= 8
#: stress          threads doing random operations for STRESS_SECONDS (60) with STRESS_THREADS (8)
stress: lib $(OUT)/tests/shared/stress
	STRESS_SECONDS=$(STRESS_SECONDS) STRESS_THREADS=$(STRESS_THREADS) $(OUT)/tests/shared/stress

#: limits          the limits of docs/reference.md (a million objects, a million pairs), memory reported
limits: lib $(OUT)/tests/shared/limits
	$(OUT)/tests/shared/limits

# The whole C suite (C_PROGRAMS, the fuzz corpus replays and the standard ABI build's own
# programs) built with AddressSanitizer and UndefinedBehaviorSanitizer, linked to the usual
# libraries, shared and static. Stable Rust cannot instrument the library itself (that takes
# -Zsanitizer), but the ASan runtime serves its malloc/posix_memalign/realloc/free (double and
# invalid frees, leaks) and checks the ranges of its memcpy/memmove/memset/strnlen/bcmp calls,
# which are how it reads the caller's strings and writes the caller's buffers. Any report ends
# the program with a non-zero status, which fails it. nomem replaces malloc, so ASan checks no
# heap block there (UBSan and the stack and global checks still apply).
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# The threaded tests built with ThreadSanitizer, against both libraries. TSan cannot see into the
# library (not instrumented; its locks are atomics and futexes), so the races it would report
# between the library's own intercepted calls are suppressed by tests-c/tsan.supp: what it checks
# is the C side.
TSAN_TESTS := test_threads test_mpix_threads test_mpix_check stress
TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:suppressions=$(abspath tests-c/tsan.supp)

# Model-checked tests of the handle table and the shared pairs: loom runs every interleaving
# of their threads (src/handles.rs, loom_tests). A separate target directory, as the cfg
# changes every crate's build.
#: loom            model-checked concurrency tests (every interleaving, with loom)
loom:
	@mkdir -p $(OUT)
	RUSTFLAGS="--cfg loom" LOOM_LOG=loom::model=info $(CARGO) test --release --lib --target-dir target/loom loom_tests -- --test-threads=1 --nocapture \
	  > $(OUT)/loom.log 2>&1; status=$$?; \
	  sed 's/\x1b\[[0-9;]*m//g' $(OUT)/loom.log | grep -E '^test |Completed in|test result|panicked|error' | sed 's/ *INFO loom::model: */ /'; \
	  exit $$status
