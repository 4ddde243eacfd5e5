#!/usr/bin/env bash
# Runs C test programs and adds up their "<name>: N passed, M failed" lines.
# A program that crashes, exits non-zero, or prints no such line counts as one failure more.
# Usage: run-suite.sh LABEL PROGRAM... ; prints "<LABEL> <passed> <failed>" to $SUITE_TOTALS
# (if set) and a line per program.
set -u
label=$1; shift
passed=0; failed=0
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
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$f" -eq 0 ]; then
        printf '  ok    %-8s %-28s %6d checks\n' "$label" "$(basename "$prog")" "$p"
    else
        printf '  FAIL  %-8s %-28s %6d passed, %d failed (exit %d)\n' "$label" "$(basename "$prog")" "$p" "$f" "$status"
        sed 's/^/        | /' "$log" | tail -n 40
    fi
done
if [ -n "${SUITE_TOTALS:-}" ]; then echo "$label $passed $failed" >>"$SUITE_TOTALS"; fi
[ "$failed" -eq 0 ]
