# How the C test programs are built: once per build (tests, asan, tsan: the directory under
# build/ and its flags) and per library (libmpi_info, and libmpi_info_abi as abi-), each against
# the shared library and the archive. Which programs each suite runs is in mk/suites.mk.
#
# The programs. Every tests-c/test_*.c is a test program: a new file is built and run in every
# build and suite without any other change. Other programs, built by the same rules from
# tests-c/<name>.c, are added to C_PROGRAMS.
C_TESTS := $(sort $(basename $(notdir $(wildcard tests-c/test_*.c))))
# tests-c/nomem.c (every allocation failed in turn; not under valgrind, which replaces malloc
# too), tests-c/stress.c (threads doing random operations for STRESS_SECONDS: 3 in make test, 1
# under valgrind) and tests-c/limits.c (a million objects and pairs; not under valgrind), and
# the profiling interface's pmpi_app (below).
C_PROGRAMS := $(C_TESTS) pmpi_app nomem stress limits
# The fuzz targets with a plain main() that replays their corpora (fuzz/README.md).
REPLAYS := fuzz_replay serial_replay
# The standard ABI build's own programs (below).
ABI_ONLY := abi_handles abi_program
# $(call in,DIR,NAMES): the programs NAMES in $(OUT)/DIR.
in = $(addprefix $(OUT)/$(1)/,$(2))

# How the C programs are built, once per build and library: $(1) is the directory under $(OUT)
# (tests, asan, tsan), $(2) the name of the variable with its C flags, $(3) the library
# (mpi_info; mpi_info_abi for the standard ABI build, with its header include/$(3).h), $(4)
# what the names of the programs' directories begin with (nothing; abi- for the standard ABI
# build). Each tests-c/<name>.c is linked once against each library, shared and static; the
# profiling interface (docs/reference.md, "Profiling names") as a tool shared library linked
# ahead of the shared library, and as the tool's object file linked ahead of the archive; the
# fuzz targets with replay_rules; tests-c/unload.c, which loads the shared library only with
# dlopen (never linked to it), closes it while threads that used it live, and loads a second
# copy beside it.
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

$(OUT)/$(1)/$(4)shared/unload: tests-c/unload.c tests-c/check.h include/$(3).h $(LIB)/lib$(3).so.$(VERSION)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) -DUNLOAD_LIBRARY='"$(abspath $(LIB))/lib$(3).so"' $$< -o $$@ -ldl -lpthread

$(call replay_rules,$(1),$(2),$(3),$(4),fuzz_replay,fuzz/info_fuzz.c,FUZZ_REPLAY_DEFS)
$(call replay_rules,$(1),$(2),$(3),$(4),serial_replay,fuzz/serial_fuzz.c,SERIAL_REPLAY_DEFS)
endef

# A fuzz target with fuzz/replay_main.c, which replays its corpus and regression inputs: $(1) to
# $(4) as for c_programs, $(5) the program, $(6) the fuzz target's source, $(7) the variable
# naming its directories. fuzz_replay is fuzz/info_fuzz.c (the C API against a reference model),
# serial_replay fuzz/serial_fuzz.c (the serialization).
define replay_rules
$(OUT)/$(1)/$(4)shared/$(5): $(6) fuzz/replay_main.c include/$(3).h $(LIB)/lib$(3).so.$(VERSION)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) $$($(7)) $(6) fuzz/replay_main.c -o $$@ -L$(LIB) -l$(3) -Wl,-rpath,$(abspath $(LIB))

$(OUT)/$(1)/$(4)static/$(5): $(6) fuzz/replay_main.c include/$(3).h $(LIB)/lib$(3).a
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$($(2)) $$($(7)) $(6) fuzz/replay_main.c -o $$@ $(LIB)/lib$(3).a $(STATIC_LIBS)
endef
FUZZ_REPLAY_DEFS := -DFUZZ_REPLAY_DIRS='"$(abspath fuzz/corpus):$(abspath fuzz/regressions)"'
SERIAL_REPLAY_DEFS := -DFUZZ_REPLAY_DIRS='"$(abspath fuzz/serial_corpus):$(abspath fuzz/serial_regressions)"'

# The sanitizer builds (make asan, make tsan; mk/check.mk).
ASAN_CFLAGS := $(TEST_CFLAGS) -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
TSAN_CFLAGS := $(TEST_CFLAGS) -fsanitize=thread -fno-omit-frame-pointer

# The standard ABI build's programs: the same sources, built with -DMPI_INFO_TEST_ABI so that
# tests-c/check.h includes include/mpi_info_abi.h, linked against libmpi_info_abi (into
# $(OUT)/tests/abi-shared and abi-static). Tests of MPI_Info_c2f/f2c, which this library does not
# have, are left out of this build (the sources say where). Two programs are for this build only
# (ABI_ONLY): tests-c/abi_handles.c (its handles: size, range, conversions, refusal of any other
# value, no dereference, and both libraries loaded in one process at once) and
# tests-c/abi_program.c (a program written against a standard ABI mpi.h: tests-c/abi/mpi.h,
# which the project wrote from the standard's published values; built a second time, as
# abi_program_generated, against an mpi.h that only includes include/mpi_info_abi.h).
ABI_TEST_CFLAGS := $(TEST_CFLAGS) -DMPI_INFO_TEST_ABI
ABI_ASAN_CFLAGS := $(ASAN_CFLAGS) -DMPI_INFO_TEST_ABI

$(eval $(call c_programs,tests,TEST_CFLAGS,mpi_info,))
$(eval $(call c_programs,asan,ASAN_CFLAGS,mpi_info,))
$(eval $(call c_programs,tsan,TSAN_CFLAGS,mpi_info,))
$(eval $(call c_programs,tests,ABI_TEST_CFLAGS,mpi_info_abi,abi-))
$(eval $(call c_programs,asan,ABI_ASAN_CFLAGS,mpi_info_abi,abi-))

# The MPIX_ hint toolkit's tests (src/capi/mpix.rs, docs/mpix.md), tests-c/test_mpix_*.c, also
# include tests-c/mpix_support.h; tests-c/nomem.c runs the MPIX_ calls that allocate.
MPIX_TESTS := $(filter test_mpix_%,$(C_TESTS))
C_BUILD_DIRS := $(foreach build,tests asan tsan,$(build)/shared $(build)/static) $(foreach build,tests asan,$(build)/abi-shared $(build)/abi-static)
$(foreach dir,$(C_BUILD_DIRS),$(call in,$(dir),$(MPIX_TESTS))): tests-c/mpix_support.h

# Each program in each of the standard ABI build's four builds (tests and asan, shared and static).
abi_builds = $(foreach dir,$(filter %/abi-shared %/abi-static,$(C_BUILD_DIRS)),$(call in,$(dir),$(1)))

# abi_handles opens both shared libraries with dlopen (which is in the C library from glibc
# 2.34 on).
ABI_HANDLES_DEFS := -DINT_LIBRARY='"$(abspath $(LIB))/libmpi_info.so"' -DABI_LIBRARY='"$(abspath $(LIB))/libmpi_info_abi.so"'
$(call abi_builds,abi_handles): ABI_TEST_CFLAGS += $(ABI_HANDLES_DEFS)
$(call abi_builds,abi_handles): ABI_ASAN_CFLAGS += $(ABI_HANDLES_DEFS)
$(call abi_builds,abi_handles): $(LIB)/$(REALNAME)
# The forged-handle probe that test_handles and abi_handles share, in each of their builds.
$(foreach dir,$(C_BUILD_DIRS),$(call in,$(dir),test_handles)) $(call abi_builds,abi_handles): tests-c/handle_probe.h

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
