#!/usr/bin/env bash
# make bench-hintcheck: the time MPI_File_open + MPI_File_close take with and without
# libmpi_info_hintcheck, 20 hints, on each MPI that is installed, with 4 processes (BENCH_NP:
# "4" unless given; "2 4" for both), beside one small allreduce (what the tool's agreement check
# costs: the goal is at most that plus 50 us).
#
# hintjob bench runs, with the library preloaded, MPI_File_open+close (through the tool) and
# PMPI_File_open+close (past it) in alternation, BENCH_N (100) of each, each pair timed after a
# barrier, and prints the medians (the largest over the processes). Alternating in one process
# makes the two comparable on a shared machine, where runs minutes apart are not. It runs three
# times: preloaded with no variable set; preloaded with MPI_INFO_HINTCHECK naming a report file
# (the same open repeated: the report is written when its entry is added, not at every call);
# and without the library, which checks the method: there both sides go to the MPI, and their
# difference is the noise.
#
# Then the cost of the report at scale: hintjob opens, BENCH_OPENS (10,000) files opened and
# closed, each once, with the same 20 hints, timed whole, with 1 and 2 processes, preloaded
# without a report and with MPI_INFO_HINTCHECK set, in alternation, BENCH_RUNS (5) times each;
# the medians, their ratio (the goal: at most 1.2) and the report's size (the goal: at most
# 64 KB, whatever the number of files). Needs the library built (make hintcheck MPICC=...).
set -u
cd "$(dirname "$0")/.."
N=${BENCH_N:-100}
NPS=${BENCH_NP:-4}
OPENS=${BENCH_OPENS:-10000}
RUNS=${BENCH_RUNS:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "$(nproc) cores: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians of $N, microseconds; 'tool' = MPI_File_open+close, 'direct' = PMPI_File_open+close in the same run;"
echo "'added' = difference of the medians, 'paired' = median of the differences of adjacent pairs;"
echo "library: 'preloaded' (no variable set), 'report' (preloaded, MPI_INFO_HINTCHECK=<file>), 'none'"
printf '%-8s %3s %-10s %10s %10s %10s %10s %10s\n' MPI np library tool direct added paired allreduce
for mpi in mpich openmpi; do
    command -v "mpicc.$mpi" >/dev/null 2>&1 && command -v "mpirun.$mpi" >/dev/null 2>&1 || continue
    lib=$(pwd)/build/hintcheck/mpicc.$mpi/libmpi_info_hintcheck.so
    [ -f "$lib" ] || { echo "$lib is missing: make hintcheck MPICC=mpicc.$mpi" >&2; exit 1; }
    job=$tmp/hintjob_$mpi
    "mpicc.$mpi" -std=c99 -D_POSIX_C_SOURCE=200809L -O2 hintcheck/tests/hintjob.c -o "$job" -lpthread || exit 1
    for np in $NPS; do
        for side in preloaded report none; do
            pre=()
            if [ "$mpi" = mpich ]; then
                [ $side = none ] || pre=(-env LD_PRELOAD "$lib")
                [ $side = report ] && pre+=(-env MPI_INFO_HINTCHECK "$tmp/report.json")
                line=$(timeout 60 mpirun.mpich -np "$np" "${pre[@]}" "$job" bench "$tmp" "$N" 2>/dev/null | grep '^bench:')
            else
                [ $side = none ] || pre=(-x "LD_PRELOAD=$lib")
                [ $side = report ] && pre+=(-x "MPI_INFO_HINTCHECK=$tmp/report.json")
                line=$(timeout 60 mpirun.openmpi --oversubscribe -np "$np" "${pre[@]}" "$job" bench "$tmp" "$N" 2>/dev/null | grep '^bench:')
            fi
            # "bench: open+close X us, direct Y us, paired difference P us, allreduce Z us"
            read -r tool direct paired allreduce < <(sed -E 's/.*open\+close ([0-9.]+) us, direct ([0-9.]+) us, paired difference ([-0-9.]+) us, allreduce ([0-9.]+) us.*/\1 \2 \3 \4/' <<<"$line")
            printf '%-8s %3s %-10s %10s %10s %10s %10s %10s\n' "$mpi" "$np" "$side" "${tool:-?}" "${direct:-?}" \
                "$(awk -v a="${tool:-0}" -v b="${direct:-0}" 'BEGIN {printf "%+.1f", a - b}')" "${paired:-?}" "${allreduce:-?}"
        done
    done
done

# The median of the numbers on standard input.
median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "?"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo
echo "$OPENS distinct files opened and closed with the same 20 hints, seconds (median of $RUNS runs in alternation):"
echo "'preloaded' = no variable set, 'report' = MPI_INFO_HINTCHECK=<file>; ratio = report / preloaded"
printf '%-8s %3s %10s %10s %7s %12s\n' MPI np preloaded report ratio "report bytes"
for mpi in mpich openmpi; do
    command -v "mpicc.$mpi" >/dev/null 2>&1 && command -v "mpirun.$mpi" >/dev/null 2>&1 || continue
    lib=$(pwd)/build/hintcheck/mpicc.$mpi/libmpi_info_hintcheck.so
    job=$tmp/hintjob_$mpi
    for np in 1 2; do
        : >"$tmp/preloaded.t"; : >"$tmp/report.t"
        for ((run = 0; run < RUNS; run++)); do
            for side in preloaded report; do
                rm -f "$tmp/opens.json"
                if [ "$mpi" = mpich ]; then
                    pre=(-env LD_PRELOAD "$lib")
                    [ $side = report ] && pre+=(-env MPI_INFO_HINTCHECK "$tmp/opens.json")
                    line=$(timeout 300 mpirun.mpich -np "$np" "${pre[@]}" "$job" opens "$tmp" "$OPENS" 2>/dev/null | grep '^opens:')
                else
                    pre=(-x "LD_PRELOAD=$lib")
                    [ $side = report ] && pre+=(-x "MPI_INFO_HINTCHECK=$tmp/opens.json")
                    line=$(timeout 300 mpirun.openmpi --oversubscribe -np "$np" "${pre[@]}" "$job" opens "$tmp" "$OPENS" 2>/dev/null | grep '^opens:')
                fi
                # "opens: N opens in X s"
                sed -E 's/.* in ([0-9.]+) s.*/\1/' <<<"$line" >>"$tmp/$side.t"
                [ $side = report ] && size=$(wc -c <"$tmp/opens.json" 2>/dev/null || echo '?')
            done
        done
        p=$(median <"$tmp/preloaded.t"); r=$(median <"$tmp/report.t")
        printf '%-8s %3s %10s %10s %7s %12s\n' "$mpi" "$np" "$p" "$r" \
            "$(awk -v a="$r" -v b="$p" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "?"}')" "${size:-?}"
    done
done
