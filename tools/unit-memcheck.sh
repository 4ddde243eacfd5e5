#!/usr/bin/env bash
# make valgrind's Rust suite: the crate's unit tests (the safe core's, the handle table's, the
# C-string helpers') run under memcheck, which reports any read or write outside what was
# allocated and any use of uninitialised memory in the unsafe code they exercise (pair.rs,
# shared.rs, index.rs, cstr.rs, handles.rs): the checks that stable Rust can run (miri needs a
# nightly toolchain). Leaks are not checked here: some tests leak on purpose (a vocabulary made
# 'static with Box::leak); the C suites check the library's. Prints
# "unit_memcheck: N passed, M failed" for tests-c/run-suite.sh: the test harness's counts, and
# one failure more for a memcheck error.
# Usage: CARGO=cargo tools/unit-memcheck.sh
set -u
cargo=${CARGO:-cargo}
valgrind="valgrind --quiet --fair-sched=yes --error-exitcode=99 --leak-check=no"
build=$("$cargo" test --release --lib --no-run 2>&1); status=$?
binary=$(sed -n 's/^ *Executable unittests src\/lib.rs (\(.*\))$/\1/p' <<<"$build")
if [ "$status" -ne 0 ] || [ -z "$binary" ]; then
    echo "$build"
    echo "unit_memcheck: 0 passed, 1 failed"
    exit 1
fi
log=$(mktemp); trap 'rm -f "$log"' EXIT
# The unit tests that spawn the test program again (the panic hook's) run that copy natively.
$valgrind "$binary" --test-threads=2 >"$log" 2>&1; status=$?
cat "$log"
result=$(grep -E '^test result: ' "$log" | tail -n 1)
passed=$(sed -E 's/.* ([0-9]+) passed.*/\1/' <<<"$result")
failed=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$result")
[ -n "$result" ] || { passed=0; failed=0; }
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "unit_memcheck: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
