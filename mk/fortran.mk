# Fortran bindings (docs/reference.md, "Fortran", and docs/fortran.md). The old-style routines (mpi_info_set_,
# ...) are in the library itself (src/capi/fortran.rs). Here: the modules mpi_info and
# mpi_info_f08 (and mpi_info_constants, which both use), built with $(FC) (gfortran unless given;
# mk/config.mk), and libmpi_info_f08.a with the mpi_info_f08 procedures; the Fortran test
# programs (tests-f/), run by make test against both libraries and by make valgrind
# (mk/suites.mk); examples/hints.f90 (make run-fortran). Without $(FC), make skips all of it and
# says so; make install then installs the include files (include/mpi_infof*.h) and the module
# sources only.
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
ifeq ($(HAVE_FC),yes)
FORTRAN_SHARED_TESTS := $(addprefix $(OUT)/ftests/shared/,$(FORTRAN_TESTS))
FORTRAN_STATIC_TESTS := $(addprefix $(OUT)/ftests/static/,$(FORTRAN_TESTS))
else
FORTRAN_SHARED_TESTS :=
FORTRAN_STATIC_TESTS :=
endif

ifeq ($(HAVE_FC),yes)
#: fortran         the Fortran modules and libmpi_info_f08.a into build/fortran and build/lib (needs gfortran)
fortran: $(F08_LIB) $(FORTRAN_OUT)/mpi_info.o
	$(call pc_file,mpi-info-f08)
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
$(FORTRAN_MODS): $(FORTRAN_OUT)/mpi_info.o $(FORTRAN_OUT)/mpi_info_f08.o

# The plain names become weak, as in libmpi_info.a, so a tool linked ahead of the archive can
# define them and still take the PMPI_ names from it.
$(F08_LIB): $(F08_OBJECTS)
	@mkdir -p $(@D)
	@rm -f $@.tmp
	$(Q)ar rcs $@.tmp $^
	$(Q)$(OBJCOPY) --wildcard --weaken-symbol='mpi_*' $@.tmp && mv -f $@.tmp $@

# Test programs: $(1) shared or static, $(2) how to link the libraries. Each build has its own
# directory for the test modules (tests-f/fcheck.f90: the checks and the snapshot helper).
# Whatever compiles with -I$(FORTRAN_OUT) uses the library's modules, so depends on
# $(FORTRAN_MODS); whatever links $(2) depends on $(F08_LIB), which $(2) names (make -j).
define fortran_tests
$(OUT)/ftests/$(1)/fcheck.o: tests-f/fcheck.f90 $(FORTRAN_INCLUDES)
	@mkdir -p $$(@D)
	$(Q)$$(FC) $$(FTEST_FLAGS) -J$$(@D) -c $$< -o $$@
$(OUT)/ftests/$(1)/f_mixed_c.o: tests-f/f_mixed_c.c tests-c/check.h include/mpi_info.h
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(TEST_CFLAGS) -c $$< -o $$@
$(OUT)/ftests/$(1)/f_pmpi_tool.o: tests-f/f_pmpi_tool.f90 $(OUT)/ftests/$(1)/fcheck.o $(FORTRAN_MODS)
	$(Q)$$(FC) $$(FTEST_FLAGS) -I$(FORTRAN_OUT) -J$$(@D) -c $$< -o $$@
$(OUT)/ftests/$(1)/f_mixed: $(OUT)/ftests/$(1)/f_mixed_c.o
$(OUT)/ftests/$(1)/f_pmpi: $(OUT)/ftests/$(1)/f_pmpi_tool.o
$(OUT)/ftests/$(1)/%: tests-f/%.f90 $(OUT)/ftests/$(1)/fcheck.o $(wildcard tests-f/*.inc) $(FORTRAN_MODS) $(F08_LIB) $(LIB)/$(REALNAME) $(LIB)/libmpi_info.a
	$(Q)$$(FC) $$(FTEST_FLAGS) -I$(FORTRAN_OUT) -I$$(@D) -J$$(@D) $$< $$(filter %.o,$$^) -o $$@ $(2)
$(OUT)/ftests/$(1)/%: tests-f/%.f $(OUT)/ftests/$(1)/fcheck.o $(F08_LIB) $(LIB)/$(REALNAME) $(LIB)/libmpi_info.a
	$(Q)$$(FC) $$(FTEST_FLAGS) -ffixed-form -I$$(@D) $$< $$(filter %.o,$$^) -o $$@ $(2)
endef
$(eval $(call fortran_tests,shared,-L$(LIB) -lmpi_info_f08 -lmpi_info -Wl$(comma)-rpath$(comma)$(abspath $(LIB))))
$(eval $(call fortran_tests,static,$(F08_LIB) $(LIB)/libmpi_info.a $(STATIC_LIBS)))

#: run-fortran     build, then build and run examples/hints.f90 (needs gfortran; docs/fortran.md)
run-fortran: lib fortran $(OUT)/examples/hints_f90
	$(OUT)/examples/hints_f90 --hint striping_factor=4

$(OUT)/examples/hints_f90: examples/hints.f90 $(FORTRAN_MODS) $(F08_LIB) $(LIB)/$(REALNAME)
	@mkdir -p $(@D)
	$(Q)$(FC) -std=f2018 -Wall -Werror -O2 -I$(FORTRAN_OUT) $< -o $@ -L$(LIB) -lmpi_info_f08 -lmpi_info -Wl,-rpath,$(abspath $(LIB))

#: install-fortran the Fortran include files, module sources and (with gfortran) modules, libmpi_info_f08.a and mpi-info-f08.pc (part of install)
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

#: uninstall-fortran  what install-fortran installed (part of uninstall)
uninstall-fortran:
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(FORTRAN_INCLUDES))) $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(FORTRAN_MODS))) \
	      $(addprefix $(DESTDIR)$(FORTRANSRCDIR)/,$(notdir $(FORTRAN_SOURCES))) \
	      $(DESTDIR)$(LIBDIR)/libmpi_info_f08.a $(DESTDIR)$(PKGCONFIGDIR)/mpi-info-f08.pc
	-@rmdir $(DESTDIR)$(FORTRANSRCDIR) 2>/dev/null || true
