# make install and make uninstall, and what only they need: the man pages and the CMake package.

# One section 3 page per MPI_ and MPIX_ function, written by tools/manpages.py from the doc
# comments of include/mpi_info.h (src/capi/*.rs; the format is described in the script), the
# standard ABI build's include/mpi_info_abi.h (what it declares, and its MPI_Info) and the
# Fortran interfaces in fortran/; each PMPI_ and PMPIX_ twin gets a `.so` page naming its
# function's. make install puts them in $(MANDIR)/man3, make uninstall removes exactly the pages
# MAN_LIST names; tests-c/man_test.sh checks them (in make test).
MAN_OUT := $(OUT)/man
MAN_LIST = $(PYTHON) tools/manpages.py --list
# After lib, which regenerates the header; the script rewrites only the pages that change.
#: man             the section 3 man pages, from the header's doc comments, into build/man/man3
man: lib
	$(Q)$(PYTHON) tools/manpages.py --out $(MAN_OUT)/man3 --version $(VERSION)

# The CMake package (cmake/*.in) for find_package(mpi_info): the names of both libraries
# (libmpi_info and its standard ABI build, libmpi_info_abi) and their version,
# the archives' STATIC_LIBS the CMake way, and the library and header directories relative to
# the package's own, so that it can be staged with DESTDIR or moved.
CMAKEDIR ?= $(LIBDIR)/cmake/mpi_info
CMAKE_FILES := mpi_infoConfig.cmake mpi_infoConfigVersion.cmake
#: cmake-package   the CMake package files (find_package(mpi_info)) into build/cmake
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
INSTALL_RECORD = $(DESTDIR)$(PKGDATADIR)/installed-directories
install_dirs = tools/install-dirs.sh make $(INSTALL_RECORD) '$(DESTDIR)' $(addprefix $(DESTDIR),$(1))

# The version script for a host that bundles libmpi_info.a into a shared library of its own
# (docs/embedding.md, "Bundling the archive"): only the MPI names are exported.
MAPFILE := mpi_info.map

# Fortran's and mpi-info-lint's parts are install-fortran and install-lint (mk/fortran.mk,
# mk/lint.mk).
#: install         PREFIX=/usr/local DESTDIR= ; everything, without debug information unless DEBUG_INFO=1
install: lib cmake-package man install-fortran install-lint
	$(call install_dirs,$(LIBDIR) $(INCLUDEDIR) $(PKGCONFIGDIR) $(CMAKEDIR) $(MANDIR)/man3 $(PKGDATADIR))
	$(call install_library,libmpi_info,$(REALNAME),$(SONAME),mpi_info.h,mpi-info.pc)
	$(call install_library,libmpi_info_abi,$(ABI_REALNAME),$(ABI_SONAME),mpi_info_abi.h,mpi-info-abi.pc)
	install -m 644 $(addprefix $(OUT)/cmake/,$(CMAKE_FILES)) $(DESTDIR)$(CMAKEDIR)
	install -m 644 $(MAN_OUT)/man3/*.3 $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(MAPFILE) $(DESTDIR)$(PKGDATADIR)/$(MAPFILE)

#: uninstall       undoes install (the directories it created go too, when empty: tools/install-dirs.sh)
uninstall: uninstall-fortran uninstall-lint
	rm -f $(DESTDIR)$(PKGDATADIR)/$(MAPFILE) $(call installed_library,libmpi_info,$(REALNAME),$(SONAME),mpi_info.h,mpi-info.pc) \
	      $(call installed_library,libmpi_info_abi,$(ABI_REALNAME),$(ABI_SONAME),mpi_info_abi.h,mpi-info-abi.pc) \
	      $(addprefix $(DESTDIR)$(CMAKEDIR)/,$(CMAKE_FILES))
	pages=$$($(MAN_LIST)) && for page in $$pages; do rm -f $(DESTDIR)$(MANDIR)/man3/$$page; done
	tools/install-dirs.sh remove $(INSTALL_RECORD) '$(DESTDIR)'
	-@rmdir $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(PKGDATADIR) 2>/dev/null || true
