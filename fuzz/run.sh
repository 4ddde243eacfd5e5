#!/usr/bin/env bash
# Runs the libFuzzer target for a set time and prints a one-line summary.
#
#   fuzz/run.sh BINARY SECONDS WORKDIR [SEEDS REGRESSIONS REPLAY]
#
# The scratch corpus is WORKDIR/corpus (kept between runs); the seed directories (by default
# fuzz/corpus and fuzz/regressions, the C API target's) are read but never written, so the
# committed corpus does not churn. REPLAY names the target's replay program under
# build/tests/shared/ (by default fuzz_replay), for the message on a failure. libFuzzer's
# output goes to WORKDIR/fuzz.log; a failing input is saved under WORKDIR/artifacts/ and the
# end of the log (the harness's description of the mismatch) is printed.
set -u
bin=$1 secs=$2 work=$3
seeds=${4:-fuzz/corpus} regressions=${5:-fuzz/regressions} replay=${6:-fuzz_replay}
mkdir -p "$work/corpus" "$work/artifacts"
log=$work/fuzz.log
echo "fuzzing for ${secs} s (log: $log)"
"$bin" -max_total_time="$secs" -timeout=10 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$work/corpus" "$seeds" "$regressions" >"$log" 2>&1
status=$?
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" | sed 's/^/  /'
execs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$log" | tail -n 1)
if [ -z "$execs" ]; then
    execs=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
fi
rate=$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$log" | tail -n 1)
if [ "$status" -eq 0 ]; then
    echo "fuzz: ${execs:-0} executions (${rate:-?}/s), 0 failures"
else
    tail -n 80 "$log" | sed 's/^/  | /'
    saved=$(ls -t "$work/artifacts" 2>/dev/null | head -n 1)
    echo "fuzz: ${execs:-?} executions, 1 failure (exit $status); input saved as $work/artifacts/$saved:"
    echo "      add it to $regressions/ and replay it with build/tests/shared/$replay FILE"
fi
exit "$status"
