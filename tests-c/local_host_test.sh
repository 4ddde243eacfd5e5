#!/usr/bin/env bash
# mpi-info beside hosts it cannot reach with dlsym(RTLD_NEXT) (docs/embedding.md, "Hosts in
# private" and "The preload route"); the Makefile builds the programs under build/host/local.
# - tests-c/host/dlopen_local.c: both libraries and several hosts opened with RTLD_LOCAL, in C;
# - tests-py/test_local_host.py: both libraries and a host opened from Python with ctypes;
# - the preload route as the guide gives it, for each build: LD_PRELOAD=<the library> in front
#   of a program linked only against a host without an info object (preload_app_<build>), and
#   in front of Python opening an extension linked only against that host
#   (tests-py/preload_extension.py with libpreload_ext_<build>.so); and, first, that without
#   the preload the program and the extension do end in the host's info functions.
set -u
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
dir=build/host/local
lib=$PWD/build/lib
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# wrap NAME COMMAND...: a script $tmp/NAME that runs COMMAND, for tests-c/run-suite.sh.
wrap() {
    local name=$1; shift
    { echo '#!/usr/bin/env bash'; printf 'exec'; printf ' %q' "$@"; echo; } >"$tmp/$name"
    chmod +x "$tmp/$name"
    echo "$tmp/$name"
}

programs=("$dir/dlopen_local")
programs+=("$(wrap test_local_host "$PYTHON" tests-py/test_local_host.py "$lib/libmpi_info.so" "$lib/libmpi_info_abi.so" "$dir/liblocal_host_a.so")")
for build in int abi; do
    library=$lib/libmpi_info.so; [ "$build" = abi ] && library=$lib/libmpi_info_abi.so
    programs+=("$(wrap "preload_app_$build" env LD_PRELOAD="$library" "$dir/preload_app_$build")")
    programs+=("$(wrap "preload_py_$build" env LD_PRELOAD="$library" "$PYTHON" tests-py/preload_extension.py "$PWD/$dir/libpreload_ext_$build.so" "preload_py_$build")")

    # Without the preload the info calls reach the host, which ends the process.
    for run in "$dir/preload_app_$build" "$PYTHON tests-py/preload_extension.py $PWD/$dir/libpreload_ext_$build.so unloaded"; do
        if (ulimit -c 0; $run; exit) >"$tmp/log" 2>&1; then
            failed=$((failed + 1)); echo "check failed: '$run' ran to its end without mpi-info preloaded"; cat "$tmp/log"
        elif grep -q 'passed, ' "$tmp/log"; then
            failed=$((failed + 1)); echo "check failed: '$run' got past the host's info functions"; cat "$tmp/log"
        else
            passed=$((passed + 1))
        fi
    done
done

SUITE_TOTALS=$tmp/totals tests-c/run-suite.sh local "${programs[@]}"
read -r _ p f <"$tmp/totals"
passed=$((passed + p)); failed=$((failed + f))

echo "local_host_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
