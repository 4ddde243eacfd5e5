#!/usr/bin/env python3
"""Runs benches/info_bench.c built four ways and prints one side-by-side table.

    compare.py OURS ABI MPICH OPENMPI

Each argument is an info_bench binary: this library (libmpi_info), its standard ABI build
(libmpi_info_abi, pointer handles), MPICH, Open MPI. Prints:
  1. nanoseconds per operation for every case and size, with short distinct keys, with the ABI
     build's time and the peers' time divided by ours, and how the ABI build's ratios spread;
  2. the same for the lookup cases with long keys that share a prefix, visited in a fixed
     shuffled order (BENCH_KEYS=prefixed in info_bench.c);
  3. for each lookup case and size, MPICH's time divided by ours with each key shape, and the
     lower of the two: what holds whatever the keys look like;
  4. throughput of 1, 2 and 4 threads, each reading its own object;
  5. instructions per operation counted by callgrind (repeatable on a noisy machine);
  6. heap bytes per pair;
  7. the MPIX_ typed reads beside a get and a parse of the same value.
Environment: BENCH_SECONDS (minimum time per measurement, default 0.2); BENCH_PROCESSES
(processes per library whose timings are combined, default 3).
"""

import os
import re
import subprocess
import sys

NAMES = ("here", "ABI", "MPICH", "Open MPI")
# The binaries built from this library's core: libmpi_info and libmpi_info_abi. Only their
# handle type differs, so the ABI column shows what pointer handles cost.
OURS = (0, 1)
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           BENCH_SECONDS=os.environ.get("BENCH_SECONDS", "0.2"))
# MPICH's and Open MPI's set scans every key, so filling one object with a million pairs takes
# hours there; their per-pair cost does not depend on the count, so they are measured smaller.
MEMORY_PAIRS = (1_000_000, 1_000_000, 20_000, 20_000)
# Processes per library whose timings are combined (best_timings).
PROCESSES = int(os.environ.get("BENCH_PROCESSES", "3"))
# The cases also measured with long keys sharing a prefix: those that look a key up.
LOOKUP_CASES = ("get_hit", "get_valuelen", "get_string", "set_overwrite", "nthkey_get")
SHAPES = {"short": None, "prefixed": ",".join(LOOKUP_CASES)}
# (case, keys, N1, N2): instructions per operation = (Ir(N2) - Ir(N1)) / (N2 - N1), which
# cancels start-up and set-up. Set-up does not cost exactly the same in two runs of this library
# (its hash seed is random per process, and filling 4096 keys probes more or less, by some
# 100,000 instructions), so at 4096 keys, where the peers' cost forces a small N, this library's
# count (and the ABI build's) uses the larger N of HERE_N.
CALLGRIND_CASES = [
    ("get_hit", 1, 1000, 11000),
    ("get_hit", 16, 1000, 11000),
    ("get_hit", 4096, 100, 1100),
    ("get_valuelen", 16, 1000, 11000),
    ("nthkey", 16, 1000, 11000),
    ("set_overwrite", 4096, 100, 1100),
    ("nthkey_get", 4096, 100, 1100),
    ("dup_free", 16, 100, 1100),
    ("dup_free", 4096, 2, 12),
    ("create_free", 0, 1000, 11000),
    ("get_int", 16, 1000, 11000),
    ("get_parse_int", 16, 1000, 11000),
    ("merge", 16, 100, 1100),
]
# Rows whose count moves with the process's random hash seed even after the subtraction: the
# probes of a 16-key index depend on the seed, so two processes of one binary differ by a few
# instructions per lookup, and by some 250 per merge, which builds a new index every time (at
# 4096 keys the probes average out). The ABI column's difference leaves them out.
SEED_DEPENDENT = {("get_hit", 16), ("get_valuelen", 16), ("get_int", 16), ("get_parse_int", 16), ("merge", 16)}
HERE_N = {
    ("get_hit", 4096): (1000, 101000),
    ("set_overwrite", 4096): (1000, 101000),
    ("nthkey_get", 4096): (1000, 101000),
    ("dup_free", 4096): (1000, 101000),
}


def run(cmd, env=ENV):
    return subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout


def timings(binary, shape):
    """{(case, keys): value} from a full run with keys of `shape` (SHAPES)."""
    env = dict(ENV, BENCH_KEYS=shape)
    if SHAPES[shape]:
        env["BENCH_CASES"] = SHAPES[shape]
    table = {}
    for line in run([binary], env).splitlines():
        case, keys, value = line.split("\t")
        table[(case, int(keys))] = float(value)
    return table


def best_timings(binaries, shape):
    """timings() of each binary, from PROCESSES runs taken in turns (here, ABI, MPICH, Open MPI,
    here, ...), keeping each case's best: the least time, or the most throughput. A process's
    address layout, random under ASLR, moves its results by up to 20% for the whole run
    (BENCHMARKS.md), so one process per library would compare layouts as much as libraries."""
    best = [{} for _ in binaries]
    for _ in range(PROCESSES):
        for table, binary in zip(best, binaries):
            for key, value in timings(binary, shape).items():
                better = max if key[0].startswith("threads") else min
                table[key] = better(table.get(key, value), value)
    return best


def time_table(results, title):
    """Prints the table and returns the ABI build's time divided by ours, case by case."""
    ours = results[0]
    print(f"## {title} (ns; lower is better; ratio = other / here)\n")
    print("| case | keys | here | ABI | ABI / here | MPICH | Open MPI | MPICH / here | Open MPI / here |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    abi_ratios = []
    for (case, keys), value in ours.items():
        if case.startswith("threads"):
            continue
        others = [r.get((case, keys)) for r in results[1:]]
        abi_ratios.append(others[0] / value)
        print(f"| {case} | {keys} | {fmt(value)} | {fmt(others[0])} | {ratio(others[0], value, 2)} | "
              f"{fmt(others[1])} | {fmt(others[2])} | {ratio(others[1], value)} | {ratio(others[2], value)} |")
    return abi_ratios


def spread(ratios):
    """The median, lowest and highest of a list of ratios, in words."""
    ordered = sorted(ratios)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return f"median {median:.2f}x, from {ordered[0]:.2f}x to {ordered[-1]:.2f}x over {len(ordered)} rows"


def instructions(binary, case, keys, n1, n2):
    totals = []
    for n in (n1, n2):
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "count", case, str(keys), str(n)],
            env=ENV, check=True, capture_output=True, text=True).stderr
        totals.append(int(re.search(r"Collected : (\d+)", out).group(1)))
    return (totals[1] - totals[0]) / (n2 - n1)


def memory(binary, pairs):
    _, count, per_pair, overhead = run([binary, "memory", str(pairs)]).split()
    return float(per_pair), float(overhead)


def fmt(x):
    if x is None:
        return "n/a"
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def ratio(peer, ours, digits=1):
    return "n/a" if peer is None or not ours else f"{peer / ours:,.{digits}f}x"


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    binaries = sys.argv[1:]
    results = best_timings(binaries, "short")
    prefixed = best_timings(binaries, "prefixed")
    ours = results[0]

    short_ratios = time_table(results, "Time per operation, short keys (hint_000012) in the order they were set")
    print()
    prefixed_ratios = time_table(prefixed, "Time per operation, keys sharing a prefix (romio_hint_key_00012) in a shuffled order")
    print(f"\nABI / here: libmpi_info_abi's time divided by libmpi_info's, short keys {spread(short_ratios)}; "
          f"prefixed keys {spread(prefixed_ratios)}.")

    print("\n## MPICH's time divided by ours, with each key shape\n")
    print("| case | keys | short keys | prefixed keys | lower of the two |")
    print("|---|---:|---:|---:|---:|")
    for case in LOOKUP_CASES:
        for keys in (1, 16, 4096):
            both = [r[2][(case, keys)] / r[0][(case, keys)] for r in (results, prefixed)]
            print(f"| {case} | {keys} | {both[0]:,.1f}x | {both[1]:,.1f}x | {min(both):,.1f}x |")

    print("\nMPICH and Open MPI have no `MPIX_` calls: their get_int, get_bool and merge rows are the same "
          "work by hand (MPI_Info_get and strtol or strcmp; get_nthkey, get, get_valuelen and set into a "
          "new object). get_parse_int is MPI_Info_get and strtol in every column.")

    print("\n## Threads, each reading its own 16-key object (million get/s; higher is better)\n")
    print("| threads | here | ABI | MPICH | Open MPI |")
    print("|---:|---:|---:|---:|---:|")
    for t in (1, 2, 4):
        row = [r.get(("threads_get_mops", t)) for r in results]
        print(f"| {t} | " + " | ".join(fmt(x) for x in row) + " |")
    scaling = [r[("threads_get_mops", 2)] / r[("threads_get_mops", 1)] for r in results]
    print("| 2 vs 1 | " + " | ".join(f"{s:.2f}x" for s in scaling) + " |")

    print("\n## Instructions per operation (callgrind; lower is better)\n")
    print("| case | keys | here | ABI | MPICH | Open MPI |")
    print("|---|---:|---:|---:|---:|---:|")
    counts = {}
    for case, keys, n1, n2 in CALLGRIND_CASES:
        row = [instructions(b, case, keys, *(HERE_N.get((case, keys), (n1, n2)) if at in OURS else (n1, n2)))
               for at, b in enumerate(binaries)]
        counts[(case, keys)] = row
        print(f"| {case} | {keys} | " + " | ".join(fmt(x) for x in row) + " |")
    differences = [row[1] - row[0] for key, row in counts.items() if key not in SEED_DEPENDENT]
    print(f"\nABI minus here: from {min(differences):+,.1f} to {max(differences):+,.1f} instructions per operation "
          "in the rows whose count does not move with the process's random hash seed (all but the 16-key rows "
          f"of {', '.join(sorted(case for case, _ in SEED_DEPENDENT))}).")

    print("\n## Heap per (key, value) pair (bytes; key 11 + value 29 = 40 bytes of text)\n")
    print("| | pairs in one object | bytes per pair | beyond key + value |")
    print("|---|---:|---:|---:|")
    overheads = []
    for name, binary, pairs in zip(NAMES, binaries, MEMORY_PAIRS):
        per_pair, overhead = memory(binary, pairs)
        overheads.append(overhead)
        print(f"| {name} | {pairs:,} | {per_pair:.1f} | {overhead:.1f} |")

    print("\n## MPIX_ typed reads here, beside a get and a parse of the same value (ns)\n")
    print("| keys | MPI_Info_get | get + strtol | MPIX_Info_get_int | MPIX_Info_get_bool | MPIX_Info_merge into a new object |")
    print("|---:|---:|---:|---:|---:|---:|")
    for keys in (16, 4096):
        row = [ours.get((case, keys)) for case in ("get_hit", "get_parse_int", "get_int", "get_bool", "merge")]
        print(f"| {keys} | " + " | ".join(fmt(x) for x in row) + " |")
    row = counts[("get_int", 16)][0], counts[("get_parse_int", 16)][0]
    print(f"\nInstructions at 16 keys: MPIX_Info_get_int {fmt(row[0])}, MPI_Info_get + strtol {fmt(row[1])}.")


if __name__ == "__main__":
    main()
