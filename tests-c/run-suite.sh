#!/usr/bin/env bash
# Runs C test programs and adds up their "<name>: N passed, M failed" lines.
# A program that crashes, exits non-zero, or prints no such line counts as one failure more.
# Usage: run-suite.sh LABEL PROGRAM... ; prints "<LABEL> <passed> <failed>" to $SUITE_TOTALS
# (if set). On the terminal: a line per failing program, with the last 40 lines of its output,
# and then one line for the suite; with SUITE_VERBOSE=1 (make V=1), a line per program as well.
set -u
label=$1; shift
verbose=${SUITE_VERBOSE:-}
passed=0; failed=0; programs=0; failing=0
log=$(mktemp); trap 'rm -f "$log"' EXIT
for prog in "$@"; do
    "$prog" >"$log" 2>&1; status=$?
    line=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/' <<<"$line")
        f=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/' <<<"$line")
    else
        p=0; f=0
    fi
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    if [ -z "$line" ] && [ "$f" -eq 0 ]; then f=1; fi
    passed=$((passed + p)); failed=$((failed + f)); programs=$((programs + 1))
    if [ "$f" -eq 0 ]; then
        if [ "$verbose" = 1 ]; then
            printf '  ok    %-10s %-28s %6d checks\n' "$label" "$(basename "$prog")" "$p"
        fi
    else
        failing=$((failing + 1))
        printf '  FAIL  %-10s %-28s %6d passed, %d failed (exit %d)\n' "$label" "$(basename "$prog")" "$p" "$f" "$status"
        sed 's/^/        | /' "$log" | tail -n 40
    fi
done
if [ "$programs" -eq 1 ]; then noun=program; else noun=programs; fi
# The suite's line: its programs and checks (a failing program's failures counted as above).
if [ "$failed" -eq 0 ]; then
    printf '  ok    %-10s %-28s %6d checks\n' "$label" "$programs $noun" "$passed"
else
    printf '  FAIL  %-10s %-28s %6d passed, %d failed\n' "$label" "$programs $noun, $failing failing" "$passed" "$failed"
fi
if [ -n "${SUITE_TOTALS:-}" ]; then echo "$label $passed $failed" >>"$SUITE_TOTALS"; fi
[ "$failed" -eq 0 ]
