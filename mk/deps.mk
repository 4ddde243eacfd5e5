# make deps: the Debian packages the targets need, installed with apt-get (as root) when missing.
# This is the one list (.ci/run calls make deps). No other target installs anything, but for
# make test, which runs make deps first when run as root (make test-deps: README's "make test on
# a fresh machine"); run as another user it names what is missing and the command that installs
# it; a target that misses a tool says to run make deps. Each entry is CHECK:PACKAGES
# (comma-separated), the packages installed when the check fails: a CHECK is a command, found or
# not on the PATH; py:MODULE, a module the system's python3 imports or not; or dpkg:PACKAGE, a
# Debian package (installed or not, by dpkg-query: libraries, which no command names), which is
# also what is installed. cargo is not here: install a stable Rust toolchain (with rustfmt and
# clippy) with rustup; make itself, before (.ci/run does).
DEPS := cc:gcc c++:g++ gfortran:gfortran pkg-config:pkg-config objcopy:binutils \
    valgrind:valgrind cmake:cmake groff:groff-base man:man-db \
    /usr/bin/python3:python3 py:jsonschema:python3-jsonschema \
    mpicc.mpich:mpich,libmpich-dev mpirun.mpich:mpich,libmpich-dev \
    mpicc.openmpi:openmpi-bin,libopenmpi-dev mpirun.openmpi:openmpi-bin,libopenmpi-dev \
    dpkg:libpnetcdf-dev dpkg:libhdf5-mpich-dev dpkg:libhdf5-openmpi-dev
# What each is for: the C and C++ compilers, gfortran (the Fortran bindings), pkg-config, cmake,
# groff and man (the install checks), objcopy (the archives' weak names), valgrind (make
# valgrind, make bench), the system's python3 (the ctypes test, the man pages) and its jsonschema
# module (the hintcheck suite validates every report against hintcheck/report.schema.json), MPICH
# and Open MPI (the hintcheck and proof suites of make test, make bench), PnetCDF (built with
# Open MPI: the proof suite, and the hintcheck suite's I/O-stack jobs) and HDF5 for each MPI (the
# I/O-stack jobs); libFuzzer, $(FUZZ_CLANG_PACKAGES)
# when $(FUZZ_CLANG) cannot link a fuzz target (make fuzz; mk/fuzz.mk).

# Sets the shell variable need to the Debian packages of DEPS that are missing, one a word.
deps_missing = need=; \
	for dep in $(DEPS); do \
	    case $$dep in \
	        py:*) check=$${dep\#py:}; /usr/bin/python3 -c "import $${check%%:*}" >/dev/null 2>&1 ;; \
	        dpkg:*) dpkg-query -W -f='$${Status}' "$${dep\#dpkg:}" 2>/dev/null | grep -q ' ok installed$$' ;; \
	        *) command -v "$${dep%%:*}" >/dev/null 2>&1 ;; \
	    esac || need="$$need $$(echo "$${dep\#\#*:}" | tr , ' ')"; \
	done

#: deps            install the Debian packages the targets need, when missing (apt-get, as root)
deps:
	@mkdir -p $(OUT)/fuzz
	@$(deps_missing); \
	{ $(fuzzer_probe); } || need="$$need $(FUZZ_CLANG_PACKAGES)"; \
	need=$$(printf '%s\n' $$need | sort -u | tr '\n' ' '); \
	if [ -z "$${need% }" ]; then echo "make deps: nothing to install"; exit 0; fi; \
	echo "make deps: installing (Debian packages) $$need"; \
	export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq $$need

#: test-deps       before make test: as root with apt-get, make deps; otherwise names the missing packages
test-deps:
	@$(deps_missing); \
	need=$$(printf '%s\n' $$need | sort -u | tr '\n' ' '); \
	if [ -z "$${need% }" ]; then exit 0; fi; \
	if [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then $(MAKE) --no-print-directory deps; \
	else echo "make test: missing Debian packages: $${need% }; the tests that need them are skipped. Install them with: sudo make deps" >&2; fi
