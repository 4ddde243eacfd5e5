#!/usr/bin/env bash
# `make install` into a temporary prefix, then tests-py/test_ctypes.py (Python's ctypes, the
# standard library only) against the shared library installed there, as a Python program
# would load it. Extra arguments give MPI_INFO_ENV an `argv` to report. PYTHON_RUNNER, if
# set, is put before the interpreter (make valgrind sets it to valgrind's command line).
set -u
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}; PYTHON=${PYTHON:-python3}; PYTHON_RUNNER=${PYTHON_RUNNER:-}
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
if ! $MAKE --no-print-directory install PREFIX="$stage/prefix" >"$stage/install.log" 2>&1; then
    cat "$stage/install.log"
    echo "test_ctypes: 0 passed, 1 failed"
    exit 1
fi
if [ -n "$PYTHON_RUNNER" ]; then
    # Python's own allocator confuses memcheck; fewer thread iterations, as in the C suite.
    export PYTHONMALLOC=malloc MPI_INFO_UNDER_VALGRIND=1
fi
$PYTHON_RUNNER "$PYTHON" tests-py/test_ctypes.py "$stage/prefix/lib/libmpi_info.so" --from "make test"
