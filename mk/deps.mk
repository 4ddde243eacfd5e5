# make deps: the Debian packages the targets need, installed with apt-get (as root) when missing.
# This is the one list (.ci/run calls make deps); no other target installs anything: one that
# misses a tool says to run make deps. Each entry is COMMAND:PACKAGES (comma-separated), the
# packages installed when COMMAND is not found. cargo is not here: install a stable Rust
# toolchain (with rustfmt and clippy) with rustup; make itself, before (.ci/run does).
DEPS := cc:gcc c++:g++ gfortran:gfortran pkg-config:pkg-config objcopy:binutils \
    valgrind:valgrind cmake:cmake groff:groff-base man:man-db \
    /usr/bin/python3:python3 \
    mpicc.mpich:mpich,libmpich-dev mpirun.mpich:mpich,libmpich-dev \
    mpicc.openmpi:openmpi-bin,libopenmpi-dev mpirun.openmpi:openmpi-bin,libopenmpi-dev
# What each is for: the C and C++ compilers, gfortran (the Fortran bindings), pkg-config, cmake,
# groff and man (the install checks), objcopy (the archives' weak names), valgrind (make
# valgrind, make bench), the system's python3 (the ctypes test, the man pages), MPICH and Open
# MPI (the hintcheck suite of make test, make bench); libFuzzer, $(FUZZ_CLANG_PACKAGES) when
# $(FUZZ_CLANG) cannot link a fuzz target (make fuzz; mk/fuzz.mk).

#: deps            install the Debian packages the targets need, when missing (apt-get, as root)
deps:
	@mkdir -p $(OUT)/fuzz
	@need=; \
	for dep in $(DEPS); do command -v "$${dep%%:*}" >/dev/null 2>&1 || need="$$need $$(echo "$${dep#*:}" | tr , ' ')"; done; \
	{ $(fuzzer_probe); } || need="$$need $(FUZZ_CLANG_PACKAGES)"; \
	need=$$(printf '%s\n' $$need | sort -u | tr '\n' ' '); \
	if [ -z "$${need% }" ]; then echo "make deps: nothing to install"; exit 0; fi; \
	echo "make deps: installing (Debian packages) $$need"; \
	export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq $$need
