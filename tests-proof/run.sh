#!/usr/bin/env bash
# The proof of the hint vocabulary against the implementations installed (docs/hints.md, "Proof
# against the real implementations"), a suite of make test: builds hints-proof (the model,
# tests-proof/src/main.rs) and the probe (tests-proof/probe.c) with each MPI's compiler wrapper
# (mpicc.mpich, mpicc.openmpi; with PnetCDF, pkg-config pnetcdf, on Open MPI), then runs
# tests-proof/run.py, which ends with "proof: N passed, M failed". With neither MPI, says so and
# counts nothing; without PnetCDF, its cases are skipped (said). Every job is bounded by
# `timeout` (JOB_SECONDS, default 60). PROOF_ARGS are passed to run.py (--verbose, --json FILE).
set -u
cd "$(dirname "$0")/.."
CARGO=${CARGO:-cargo}
PYTHON=${PYTHON:-python3}
OUT=${OUT:-build}
dir=$OUT/proof
mkdir -p "$dir"

mpis=()
for mpi in mpich openmpi; do
    if command -v "mpicc.$mpi" >/dev/null 2>&1 && command -v "mpirun.$mpi" >/dev/null 2>&1; then mpis+=("$mpi"); fi
done
if [ ${#mpis[@]} -eq 0 ]; then
    echo "proof: neither MPICH nor Open MPI is installed (mpicc.mpich, mpicc.openmpi): the jobs are skipped"
    echo "proof: 0 passed, 0 failed"
    exit 0
fi

# The model, in the cargo invocation that builds the library (mk/lib.mk, CARGO_BUILD) with it:
# built alone, the library would be rebuilt with other features.
if ! $CARGO build --release -q -p mpi-info -p mpi-info-lint -p hints-proof; then
    echo "proof: hints-proof does not build"
    echo "proof: 0 passed, 1 failed"
    exit 1
fi

CFLAGS="-std=c99 -D_POSIX_C_SOURCE=200809L -O1 -Wall -Wextra -Werror"
probe_mpich=
probe_openmpi=
probe_pnetcdf=
for mpi in "${mpis[@]}"; do
    extra=()
    if [ "$mpi" = openmpi ] && pkg-config --exists pnetcdf 2>/dev/null; then
        # shellcheck disable=SC2207
        extra=(-DPROBE_PNETCDF $(pkg-config --cflags pnetcdf) $(pkg-config --libs pnetcdf))
    fi
    # shellcheck disable=SC2086
    if ! "mpicc.$mpi" $CFLAGS tests-proof/probe.c -o "$dir/probe-$mpi" "${extra[@]}"; then
        echo "proof: the probe does not build with mpicc.$mpi"
        echo "proof: 0 passed, 1 failed"
        exit 1
    fi
    if [ "$mpi" = mpich ]; then probe_mpich=$dir/probe-mpich; else probe_openmpi=$dir/probe-openmpi; fi
    if [ ${#extra[@]} -gt 0 ]; then probe_pnetcdf=$dir/probe-openmpi; fi
done

# shellcheck disable=SC2086
exec "$PYTHON" tests-proof/run.py --model target/release/hints-proof --probe-mpich "$probe_mpich" \
    --probe-openmpi "$probe_openmpi" --probe-pnetcdf "$probe_pnetcdf" ${PROOF_ARGS:-}
