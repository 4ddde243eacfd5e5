#!/usr/bin/env bash
# A Fortran program on a host MPI layer with mpi-info inside (docs/embedding.md, Fortran):
# tests-f/host/app.F90 on examples/stub-mpi, built by make in every combination (the info
# part's names from the host's mpif.h, or from mpi_infof_own.h after an mpif.h without them;
# shared or static; the host's library or mpi-info's first on the link line). Each program
# asserts that the host's codes get the host's messages and classes through MPI_ERROR_STRING and
# MPI_ERROR_CLASS (and their PMPI_ names), mpi-info's codes mpi-info's, a code nobody owns
# MPI_ERR_ARG with nothing written, and that the info calls work. Here: each program's checks;
# that the shared programs load the two libraries in the order their names say; and that the
# dynamic linker binds the program's mpi_error_string_ and mpi_error_class_ to the library that
# comes first (the host's, or mpi-info's, which then passes the host's codes on).
set -u
cd "$(dirname "$0")/.."
dir=build/host/fortran
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { failed=$((failed + 1)); echo "check failed: $*"; }
programs=()
for style in inside after; do for link in shared static; do for first in host library; do
    programs+=("$dir/app_${style}_${link}_${first}_first")
done; done; done

SUITE_TOTALS=$tmp/totals tests-c/run-suite.sh fhost "${programs[@]}"
read -r _ p f <"$tmp/totals"
passed=$((passed + p)); failed=$((failed + f))

# needed_order PROGRAM: the libraries it needs, stub and mpi-info only, in load order.
needed_order() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(libstub_mpi\|libmpi_info\)[^]]*\].*/\1/p' | tr '\n' ' '; }
# bound_to PROGRAM SYMBOL: the library the dynamic linker binds the program's reference to.
bound_to() { LD_DEBUG=bindings LD_DEBUG_OUTPUT=$tmp/bindings "$1" >/dev/null 2>&1
    cat "$tmp"/bindings.* 2>/dev/null | sed -n "s/.*binding file [^ ]*$(basename "$1") \[0\] to \([^ ]*\) .*symbol \`$2'.*/\1/p" | head -n 1
    rm -f "$tmp"/bindings.*; }
for style in inside after; do
    for first in host library; do
        prog=$dir/app_${style}_shared_${first}_first
        want="libstub_mpi libmpi_info "; owner=libstub_mpi
        if [ "$first" = library ]; then want="libmpi_info libstub_mpi "; owner=libmpi_info; fi
        got=$(needed_order "$prog")
        if [ "$got" = "$want" ]; then passed=$((passed + 1)); else fail "$prog loads '$got', not '$want'"; fi
        for symbol in mpi_error_string_ mpi_error_class_ pmpi_error_string_; do
            got=$(bound_to "$prog" "$symbol")
            case "$got" in
                */$owner.so*) passed=$((passed + 1)) ;;
                *) fail "$prog: $symbol bound to '$got', not $owner" ;;
            esac
        done
    done
done

echo "fortran_host_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
