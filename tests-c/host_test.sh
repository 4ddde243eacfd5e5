#!/usr/bin/env bash
# mpi-info inside a host MPI layer (docs/embedding.md): tests-c/host/app.c on
# examples/stub-mpi, built by make in every combination (mpi.h's shared names as enum constants
# or macros; shared or static; the host's library or mpi-info's first on the link line). Each
# program asserts that the host's codes get the host's messages and classes, mpi-info's codes
# mpi-info's, a code nobody owns MPI_ERR_ARG, and that the info calls work. tests-c/host/pass_back.c
# does the same for a host that passes codes back to MPI_Error_string. Here: each
# program's checks, and that the shared programs do load the two libraries in the order their
# names say (the dynamic linker's lookup order, which decides whose MPI_Error_string a program
# reaches).
set -u
cd "$(dirname "$0")/.."
dir=build/host
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
programs=()
for style in enum macro; do for link in shared static; do for first in host library; do
    programs+=("$dir/app_${style}_${link}_${first}_first")
done; done; done
programs+=("$dir/pass_back")

SUITE_TOTALS=$tmp/totals tests-c/run-suite.sh host "${programs[@]}"
read -r _ p f <"$tmp/totals"
passed=$((passed + p)); failed=$((failed + f))

# needed_order PROGRAM: the libraries it needs, stub and mpi-info only, in load order.
needed_order() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(libstub_mpi\|libmpi_info\)[^]]*\].*/\1/p' | tr '\n' ' '; }
for style in enum macro; do
    for first in host library; do
        prog=$dir/app_${style}_shared_${first}_first
        want="libstub_mpi libmpi_info "; [ "$first" = library ] && want="libmpi_info libstub_mpi "
        got=$(needed_order "$prog")
        if [ "$got" = "$want" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $prog loads '$got', not '$want'"; fi
    done
done

echo "host_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
