#!/usr/bin/env bash
# MPI_INFO_ENV under long command lines: runs the replay driver (whose start-up check compares
# MPI_INFO_ENV with docs/reference.md, "MPI_INFO_ENV and MPI_Info_create_env", for its own
# /proc/self/cmdline) with argv[0] and one argument of lengths around the 1023-character value
# limit, and prints a line per case and a total.
#
#   fuzz/env_cmdline.sh [REPLAY]     (default build/tests/shared/fuzz_replay)
#
# Part of make test. Among its cases: an argv[0] longer than 1023 characters (left out) and
# arguments whose joined length is at most 1023 but which make the whole command line longer
# than 2049 bytes; the `argv` key must be there (a `command` left out does not take `argv` with
# it).
set -u
cd "$(dirname "$0")/.."
replay=${1:-build/tests/shared/fuzz_replay}
seed=fuzz/corpus/seed_env
passed=0 failed=0
for n0 in 1 1022 1023 1024 1100 2000; do
    for n1 in 0 500 990 1023 1024; do
        arg=""
        if [ "$n1" -gt 0 ]; then
            # the seed's path padded to n1 characters with "/." (and "//" for an odd length)
            arg=fuzz/corpus
            [ $(( (n1 - ${#seed}) % 2 )) -eq 1 ] && arg=fuzz//corpus
            while [ $(( ${#arg} + 9 )) -lt "$n1" ]; do arg="$arg/."; done
            arg="$arg/seed_env"
        fi
        a0=$(head -c "$n0" /dev/zero | tr '\0' x)
        if [ -n "$arg" ]; then out=$(bash -c 'exec -a "$0" "$1" "$2"' "$a0" "$replay" "$arg" 2>&1)
        else out=$(bash -c 'exec -a "$0" "$1" "$2"' "$a0" "$replay" "$seed" 2>&1); n1=${#seed}; fi
        if grep -q '0 failed$' <<<"$out"; then
            passed=$((passed + 1)); echo "  ok    argv[0] ${n0} chars, argument ${n1} chars"
        else
            failed=$((failed + 1)); echo "  FAIL  argv[0] ${n0} chars, argument ${n1} chars"
            grep -m1 -A1 MISMATCH <<<"$out" | sed 's/^/        | /'
        fi
    done
done
echo "env_cmdline: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
