# The benchmarks (BENCHMARKS.md). They need MPICH, Open MPI and valgrind (make deps installs
# them); without them they stop and say so.

# The same benchmark source, built against this library, its standard ABI build (-DBENCH_ABI:
# mpi_info_abi.h, libmpi_info_abi), MPICH and Open MPI; then bench-hints and bench-hintcheck.
BENCH_CFLAGS := -std=c99 -O2 -Wall -Wextra
#: bench           this library, its standard ABI build, MPICH and Open MPI side by side; then bench-hints, bench-hintcheck
bench: lib bench-hints
	@command -v mpicc.mpich >/dev/null && command -v mpicc.openmpi >/dev/null || { \
	    echo "make bench compares with MPICH and Open MPI (mpicc.mpich, mpicc.openmpi), which are missing: run make deps (as root)" >&2; exit 1; }
	@command -v valgrind >/dev/null || { echo "make bench needs valgrind, which is missing: run make deps (as root)" >&2; exit 1; }
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

# The checker's costs (BENCHMARKS.md, "Checking hints"): MPIX_Info_check on a 20-key object
# (benches/hints_bench.c) and mpi-info-lint on 10,000-line files (benches/lint_bench.py).
#: bench-hints     the hint checker's costs alone: MPIX_Info_check and mpi-info-lint
bench-hints: lib lint
	@mkdir -p $(OUT)/bench
	$(CC) $(BENCH_CFLAGS) -Werror -Iinclude benches/hints_bench.c -o $(OUT)/bench/hints_bench \
	    -L$(LIB) -lmpi_info -Wl,-rpath,$(abspath $(LIB))
	$(OUT)/bench/hints_bench
	$(PYTHON) benches/lint_bench.py $(LINT)
