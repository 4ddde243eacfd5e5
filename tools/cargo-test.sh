#!/usr/bin/env bash
# make test's Rust tests: runs "$CARGO test ARGS..." and prints a line per test binary (its
# passed and ignored tests), in the form of tests-c/run-suite.sh's lines. If anything fails
# (a build or a test), cargo's whole output but the lines of the tests that passed, and the
# status of cargo. With SUITE_VERBOSE=1 (make V=1), cargo's own output, as it prints it.
set -u
cargo=${CARGO:-cargo}
if [ "${SUITE_VERBOSE:-}" = 1 ]; then
    echo "$cargo test $*"
    exec "$cargo" test "$@"
fi
log=$(mktemp); trap 'rm -f "$log"' EXIT
"$cargo" test "$@" >"$log" 2>&1; status=$?
if [ "$status" -ne 0 ]; then
    grep -v -E '^test .* \.\.\. ok$' "$log"
    echo "  FAIL  cargo test $* (exit $status)"
    exit "$status"
fi
# "Running unittests src/lib.rs (target/...)", "Running tests/x.rs (target/...)" and
# "Doc-tests mpi_info" name the binary whose "test result:" line follows.
awk '
    /^ +Running / {
        name = $2
        if (name == "unittests") { crate = $NF; sub(/^.*\//, "", crate); sub(/-[0-9a-f]+\)$/, "", crate); name = crate " " $3 }
    }
    /^ +Doc-tests / { name = "doc-tests " $2 }
    /^test result: / {
        passed = $4; ignored = $8; sub(/;/, "", passed); sub(/;/, "", ignored)
        printf "  ok    %-10s %-28s %6d tests%s\n", "cargo", name, passed, (ignored > 0 ? ", " ignored " ignored" : "")
    }' "$log"
