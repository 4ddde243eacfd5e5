# The two libraries (libmpi_info and its standard ABI build libmpi_info_abi) copied from cargo's
# output into build/lib, their pkg-config files, and the C examples (make run).

# cargo decides what to rebuild; the copies below change only when a library did, so the
# C programs are relinked only then. The library and mpi-info-lint are built by one cargo
# invocation (CARGO_BUILD), here and in make lint: built alone, the library would get other
# build-dependency features than beside the checker's (cargo unifies them per invocation), and
# the two invocations would each rebuild it in turn, and the C programs be relinked.
CARGO_BUILD = $(CARGO) build --release -p mpi-info -p mpi-info-lint
#: lib             build libmpi_info and libmpi_info_abi (shared, static) and their .pc files into build/lib
lib:
	$(Q)$(CARGO_BUILD)
	$(Q)$(CARGO) build --release --features abi --target-dir $(ABI_TARGET)
	@mkdir -p $(LIB)
	$(call copy_library,target/release,libmpi_info,$(REALNAME),$(SONAME))
	$(call copy_library,$(ABI_TARGET)/release,libmpi_info_abi,$(ABI_REALNAME),$(ABI_SONAME))
	$(call pc_file,mpi-info)
	$(call pc_file,mpi-info-abi)

# Writes $(OUT)/$(1).pc from $(1).pc.in, for the PREFIX given now (so every time lib or fortran
# runs).
pc_file = @sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@PKGDATADIR@|$(PKGDATADIR)|' \
	     -e 's|@VERSION@|$(VERSION)|' -e 's|@STATIC_LIBS@|$(STATIC_LIBS)|' $(1).pc.in > $(OUT)/$(1).pc

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

#: run             build, then build and run examples/hints.c
run: lib $(OUT)/examples/hints
	$(OUT)/examples/hints --hint striping_factor=4

$(OUT)/examples/%: examples/%.c include/mpi_info.h $(LIB)/$(REALNAME)
	@mkdir -p $(@D)
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $< -o $@ -L$(LIB) -lmpi_info -Wl,-rpath,$(abspath $(LIB))

#: clean           remove build/ and cargo's target/
clean:
	rm -rf $(OUT)
	$(CARGO) clean
