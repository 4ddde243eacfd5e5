# mpi-info as the info part of another MPI layer (docs/embedding.md). examples/stub-mpi is a
# single-process MPI layer of the project's own with mpi-info inside; it is built for each style
# of its mpi.h's shared names (HOST_STYLES: enum constants, or macros with
# -DSTUB_MPI_MACRO_CONSTANTS) as build/host/<style>/libstub_mpi.so and libstub_mpi.a.
# tests-c/host/app.c is linked to it and to libmpi_info in every combination:
# build/host/app_<style>_<shared|static>_<host|library>_first, the host's library or
# mpi-info's first on the link line (the program calls both, so --as-needed keeps both);
# tests-c/host_test.sh runs them. examples/layered.c with -DLAYERED_WITH_MPI runs on the stub,
# shared and static (build/host/layered_shared, layered_static), through the checks of
# tests-c/layered_test.sh; make valgrind runs that script with each run under memcheck. Which
# of these make test and make valgrind run is in mk/suites.mk.
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

HOST_VALGRIND := $(filter %_shared_host_first %_shared_library_first,$(HOST_APPS)) $(HOST_OUT)/pass_back

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

FHOST_VALGRIND := $(filter %_shared_host_first %_shared_library_first,$(FHOST_APPS))
#: fortran-host    the Fortran programs on the stub MPI host (build/host/fortran)
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
