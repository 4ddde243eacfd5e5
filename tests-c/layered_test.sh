#!/usr/bin/env bash
# examples/layered.c (built by make test as build/examples/layered) does what a layered I/O
# library's open should: the system hints file (ROMIO_HINTS) under the user's hints, the
# PNETCDF_HINTS variable over them, typed reads with defaults, the hints in use (defaults
# included, every other hint kept) and a serialized copy that comes back equal. Malformed or
# missing hint sources are reported and left out whole.
#
# The same checks run on the example built with -DLAYERED_WITH_MPI on examples/stub-mpi,
# shared and static (build/host/layered_shared, layered_static; docs/embedding.md): there the
# copy travels by MPI_Bcast, and the error messages come through the host's MPI_Error_string.
# LAYERED_RUNNER, if set, is put before each run (make valgrind sets it to valgrind's command
# line).
set -u
cd "$(dirname "$0")/.."
LAYERED_RUNNER=${LAYERED_RUNNER:-}
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
# check DESCRIPTION PATTERN: the last run's output has a line matching PATTERN (grep -E, whole line).
check() {
    if grep -Eqx -- "$2" "$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $bin: $1 (no line /$2/)"; sed 's/^/  | /' "$out"; fi
}
run() { # run ENV...: runs the example with only the given variables set
    if env -i PATH="$PATH" "$@" $LAYERED_RUNNER "$bin" >"$out" 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $bin exited $?"; sed 's/^/  | /' "$out"; fi
}

layered_checks() { # the checks of one build, $bin
printf '# system hints\r\ncb_buffer_size 33554432\r\ncb_nodes\t4\nromio_cb_write enable\n\nstriping_factor 8\ncb_config_list *:1,node7:2\n' >"$tmp/hints"
run ROMIO_HINTS="$tmp/hints" PNETCDF_HINTS="romio_no_indep_rw=true; cb_nodes = 2"
check "the user's hints win over the file, the variable over both" \
    "layer uses: cb_buffer_size 8388608, cb_nodes 2, romio_cb_write disable, romio_no_indep_rw true, cb_config_list entries 2"
check "seven hints in use" "hints in use \(7\):"
check "file hints the layer does not know are kept" "  striping_factor = 8"
check "the user's own hints are kept" "  app_checkpoint_tag = step-42"
check "in canonical text" "  romio_no_indep_rw = true"
check "the broadcast copy is equal" "broadcast copy: 206 bytes, equal"

run
check "defaults without hint sources" \
    "layer uses: cb_buffer_size 8388608, cb_nodes 1, romio_cb_write disable, romio_no_indep_rw false, cb_config_list entries 0"
check "the defaults are in use" "  romio_no_indep_rw = false"
check "the broadcast copy is equal" "broadcast copy: 150 bytes, equal"

# A malformed line in the middle of the file: none of the file is used.
printf 'cb_nodes 4\nromio_cb_write\nstriping_factor 8\n' >"$tmp/bad"
run ROMIO_HINTS="$tmp/bad" PNETCDF_HINTS="cb_nodes=many;romio_no_indep_rw=maybe"
check "the malformed file is reported" "system hints file .* left out: MPI_ERR_INFO_VALUE: .*"
check "a value not of its type is ignored" "warning: hint cb_nodes ignored: its value is not of its type"
check "each bad typed value is ignored" "warning: hint romio_no_indep_rw ignored: its value is not of its type"
check "defaults for the ignored hints" \
    "layer uses: cb_buffer_size 8388608, cb_nodes 1, romio_cb_write disable, romio_no_indep_rw false, cb_config_list entries 0"
check "the value in use is reported, not the ignored one" "  cb_nodes = 1"
run ROMIO_HINTS="$tmp/missing" PNETCDF_HINTS="cb_nodes=2;no_equals"
check "a missing file is reported" "system hints file .*/missing left out: MPI_ERR_OTHER: .*"
check "a malformed variable is reported" "PNETCDF_HINTS left out: MPI_ERR_INFO_VALUE: .*"
check "and none of it is used" \
    "layer uses: cb_buffer_size 8388608, cb_nodes 1, romio_cb_write disable, romio_no_indep_rw false, cb_config_list entries 0"
}

for bin in build/examples/layered build/host/layered_shared build/host/layered_static; do
    layered_checks
done
# The MPI builds are MPI programs: they call the host's MPI_Bcast.
for bin in build/host/layered_shared build/host/layered_static; do
    if nm "$bin" | grep -Eq ' [UT] MPI_Bcast$'; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $bin does not call MPI_Bcast"; fi
done

echo "layered_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
