# What make test, make valgrind, make asan and make tsan run: their suites, each one line below.
# Included last: the lines name the programs the other files build.
#
# $(call suite,RUN,LABEL,ENVIRONMENT,PROGRAMS) adds the suite LABEL to RUN (tests: make test;
# valgrind, asan, tsan): tests-c/run-suite.sh LABEL PROGRAMS, with ENVIRONMENT, prints its line
# and adds its totals to the run's. The suites run in the order of their lines; the run's last
# line, "N passed, M failed", adds up every suite of the list and fails unless each of them ran
# and none failed. Adding a suite is adding its line: nothing to count. Each RUN's target
# depends on the programs under $(OUT) that its suites name (the end of this file).
suite = $(eval RUN_SUITES_$(1) += $(2))$(eval SUITE_ENV_$(1)_$(2) := $(3))$(eval SUITE_PROGRAMS_$(1)_$(2) := $(4))

# make test: the C programs (mk/c-tests.mk) against libmpi_info and libmpi_info_abi, shared and
# static; the scripts (install, pkg-config, CMake, header and man page checks, the hosts, the
# checker, Python); the fuzz corpora; the Fortran suite; the hint report tool; the proof of the
# hint vocabulary against the MPICH, Open MPI and PnetCDF installed (tests-proof/run.sh).
C_SUITE_ENV := STRESS_SECONDS=3 STRESS_THREADS=8
SCRIPT_TESTS := tests-c/header_test.sh tests-c/install_test.sh tests-c/cmake_test.sh tests-c/man_test.sh fuzz/env_cmdline.sh \
    tests-py/run.sh tests-c/layered_test.sh tests-c/host_test.sh tests-c/local_host_test.sh tests-lint/lint_test.sh
FORTRAN_SCRIPT_TESTS := $(if $(HAVE_FC),tests-f/bindings_test.sh tests-f/host_test.sh)
$(call suite,tests,shared,$(C_SUITE_ENV),$(call in,tests/shared,$(C_PROGRAMS) unload))
$(call suite,tests,static,$(C_SUITE_ENV),$(call in,tests/static,$(C_PROGRAMS)))
$(call suite,tests,abi.so,$(C_SUITE_ENV),$(call in,tests/abi-shared,$(C_PROGRAMS) $(REPLAYS) $(ABI_ONLY) unload abi_program_generated))
$(call suite,tests,abi.a,$(C_SUITE_ENV),$(call in,tests/abi-static,$(C_PROGRAMS) $(REPLAYS) $(ABI_ONLY)))
$(call suite,tests,scripts,MAKE="$(MAKE)" CC="$(CC)" CXX="$(CXX)" FC="$(if $(HAVE_FC),$(FC))" PYTHON="$(PYTHON)",$(SCRIPT_TESTS))
$(call suite,tests,replay.so,,$(call in,tests/shared,$(REPLAYS)))
$(call suite,tests,replay.a,,$(call in,tests/static,$(REPLAYS)))
$(call suite,tests,fortran.so,FC="$(FC)",$(FORTRAN_SHARED_TESTS) $(FORTRAN_SCRIPT_TESTS))
$(call suite,tests,fortran.a,,$(FORTRAN_STATIC_TESTS))
$(call suite,tests,hintcheck,MAKE="$(MAKE)" PYTHON="$(PYTHON)",hintcheck/tests/run.sh)
$(call suite,tests,proof,CARGO="$(CARGO)" PYTHON="$(PYTHON)" OUT="$(OUT)",tests-proof/run.sh)
# What the scripts run, besides the suites' programs: the examples, the host-layer programs, the
# checker.
TEST_NEEDS := $(call in,examples,hints profiler layered $(if $(HAVE_FC),hints_f90)) $(HOST_APPS) $(HOST_OUT)/pass_back $(HOST_LAYERED) \
    $(FHOST_APPS) $(LOCAL_PROGRAMS) $(LINT)

# make valgrind: each program of VALGRIND_PROGRAMS through its wrapper (mk/check.mk): not
# nomem (valgrind replaces malloc too) nor limits; the Python ctypes test; the layered example
# alone and on the stub host (VALGRIND_NEEDS); the crate's unit tests (tools/unit-memcheck.sh).
VALGRIND_PROGRAMS := $(call in,tests/shared,$(C_TESTS) pmpi_app unload stress) $(FORTRAN_SHARED_TESTS) \
    $(call in,tests/abi-shared,$(C_TESTS) pmpi_app unload stress $(ABI_ONLY)) \
    $(HOST_VALGRIND) $(FHOST_VALGRIND) $(LOCAL_OUT)/dlopen_local
VALGRIND_NEEDS := $(HOST_LAYERED) $(OUT)/examples/layered
$(foreach program,$(VALGRIND_PROGRAMS),$(eval $(call valgrind_wrapper,$(program))))
$(call suite,valgrind,memcheck,STRESS_SECONDS=1,$(call in,valgrind,$(subst /,_,$(VALGRIND_PROGRAMS))))
$(call suite,valgrind,memcheck.py,MAKE="$(MAKE)" PYTHON="$(PYTHON)" PYTHON_RUNNER="$(VALGRIND)",tests-py/run.sh)
$(call suite,valgrind,memcheck.ex,LAYERED_RUNNER="$(VALGRIND)",tests-c/layered_test.sh)
$(call suite,valgrind,memcheck.rs,CARGO="$(CARGO)",tools/unit-memcheck.sh)

# make asan: the C programs, the fuzz corpora and the standard ABI build's own programs; make
# tsan: the threaded tests.
$(call suite,asan,asan.so,$(ASAN_ENV) $(C_SUITE_ENV),$(call in,asan/shared,$(C_PROGRAMS) $(REPLAYS)) $(call in,asan/abi-shared,$(C_PROGRAMS) $(REPLAYS) $(ABI_ONLY)))
$(call suite,asan,asan.a,$(ASAN_ENV) $(C_SUITE_ENV),$(call in,asan/static,$(C_PROGRAMS) $(REPLAYS)) $(call in,asan/abi-static,$(C_PROGRAMS) $(REPLAYS) $(ABI_ONLY)))
$(call suite,tsan,tsan.so,$(TSAN_ENV) $(C_SUITE_ENV),$(call in,tsan/shared,$(TSAN_TESTS)))
$(call suite,tsan,tsan.a,$(TSAN_ENV) $(C_SUITE_ENV),$(call in,tsan/static,$(TSAN_TESTS)))

# The rule of RUN $(2), whose target is $(1): it depends on the programs under $(OUT) that its
# suites name and on $(4); its recipe prints the heading $(3) if given, runs each suite, and ends
# with the totals line. A suite whose environment gives MAKE runs make itself: its line is a
# recursive make's ("+": it shares make -j's job slots, and runs under make -n too).
define run_rule
$(1): $(4) $(filter $(OUT)/%,$(foreach s,$(RUN_SUITES_$(2)),$(SUITE_PROGRAMS_$(2)_$(s))))
	@mkdir -p $(OUT)/$(2) && rm -f $(OUT)/$(2)/totals
	$(if $(3),@echo "$(3)")
$(foreach s,$(RUN_SUITES_$(2)),$(run_suite_line))
	@awk '{p += $$$$2; f += $$$$3} END {printf "%d passed, %d failed\n", p, f; exit (f > 0 || NR != $(words $(RUN_SUITES_$(2))))}' $(OUT)/$(2)/totals
endef
define run_suite_line

	$(if $(findstring MAKE=,$(SUITE_ENV_$(2)_$(s))),+)-@SUITE_TOTALS=$(OUT)/$(2)/totals $(SUITE_ENV_$(2)_$(s)) tests-c/run-suite.sh $(s) $(SUITE_PROGRAMS_$(2)_$(s))
endef

#: test            cargo tests, then every suite of make test; a line per suite, then "N passed, M failed" (V=1: every command)
test: test-deps lib
	@CARGO="$(CARGO)" tools/cargo-test.sh --release -p mpi-info -p mpi-info-lint
	@$(MAKE) --no-print-directory c-tests

#: c-tests         make test's suites without the cargo tests
$(eval $(call run_rule,c-tests,tests,Suites against the libraries in $(LIB):,$(TEST_NEEDS)))
#: valgrind        the C and Fortran programs, the host-layer programs, the Python ctypes test and the crate's unit tests under memcheck
$(eval $(call run_rule,valgrind,valgrind,,lib $(VALGRIND_NEEDS)))
#: asan            the C suite built with AddressSanitizer + UndefinedBehaviorSanitizer
$(eval $(call run_rule,asan,asan,C suite with ASan and UBSan against the shared libraries and the archives in $(LIB):,lib))
#: tsan            the threaded C tests built with ThreadSanitizer
$(eval $(call run_rule,tsan,tsan,threaded C tests with TSan against the shared libraries and the archives in $(LIB):,lib))
