#!/bin/sh
# instructions.sh - instructions per call of MPI_Info_get, MPI_Info_get_valuelen and
# MPI_Info_set (of a key that is there) on objects of 1 and 16 keys, counted by callgrind;
# run by make bench (BENCHMARKS.md, "Instructions per call").
#
# Usage: benches/instructions.sh [LIBDIR [OUTDIR]]   (default build/lib and build/bench)
# Builds benches/instructions.c against LIBDIR's libmpi_info into OUTDIR.
#
# Each count is (Ir(N2) - Ir(N1)) / (N2 - N1), so start-up and set-up cancel out and 200,000
# calls remain; the driver's loop (the arguments, the next key, the jump through the PLT: 16 to
# 18 instructions a call) is counted with the call. Counts do not depend on the machine's
# load. A 16-key object has a hash index whose probes depend on the process's random seed, so
# each row is the median of RUNS processes (3), followed by the lowest and highest when they
# differ.
set -eu
libdir=${1:-build/lib}
outdir=${2:-build/bench}
runs=${RUNS:-3}
n1=10000
n2=210000

mkdir -p "$outdir"
${CC:-cc} -std=c99 -O2 -Wall -Wextra -Werror -Iinclude benches/instructions.c -o "$outdir/instructions" \
    -L"$libdir" -lmpi_info -Wl,-rpath,"$(cd "$libdir" && pwd)"

# The instructions callgrind counts for N calls of CALL on an object of KEYS keys.
total() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$outdir/instructions" "$1" "$2" "$3" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo "Instructions per call (callgrind, $((n2 - n1)) calls):"
printf '%-24s %5s %12s\n' call keys instructions
for call in get get_valuelen set; do
    for keys in 1 16; do
        counts=$(for _ in $(seq "$runs"); do
            awk -v a="$(total "$call" "$keys" "$n2")" -v b="$(total "$call" "$keys" "$n1")" \
                -v n=$((n2 - n1)) 'BEGIN { printf "%.1f\n", (a - b) / n }'
        done | sort -n)
        median=$(echo "$counts" | sed -n "$(((runs + 1) / 2))p")
        low=$(echo "$counts" | head -n 1)
        high=$(echo "$counts" | tail -n 1)
        range=""
        [ "$low" = "$high" ] || range=" ($low to $high)"
        printf '%-24s %5s %12s%s\n' "MPI_Info_$call" "$keys" "$median" "$range"
    done
done
