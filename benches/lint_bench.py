#!/usr/bin/env python3
"""mpi-info-lint on a 10,000-line hints file, timed: the best of 5 runs, wall time of the whole
process (start, reading the vocabulary, checking, printing). Two files: 10,000 lines of real
hints (ROMIO's and OMPIO's keys in turn, one in fifty misspelled, so most keys come many times),
and the worst case, 10,000 different unknown keys (each one costs the edit distances to every
known key). Then `--vocabulary` given a 4 MiB JSON object of 358,000 members, the most a document
may be (each member name is checked against the others, by hash). Usage: lint_bench.py
PATH-TO-mpi-info-lint"""
import os
import subprocess
import sys
import tempfile
import time

HINTS = [
    ("cb_buffer_size", "16777216"), ("cb_nodes", "8"), ("romio_cb_read", "enable"),
    ("romio_cb_write", "enable"), ("romio_ds_read", "disable"), ("romio_ds_write", "disable"),
    ("striping_factor", "16"), ("striping_unit", "1048576"), ("ind_rd_buffer_size", "4194304"),
    ("ind_wr_buffer_size", "524288"), ("romio_no_indep_rw", "false"), ("cb_config_list", "*:1"),
]


def real_hints(n):
    lines = []
    for i in range(n):
        key, value = HINTS[i % len(HINTS)]
        if i % 50 == 49:
            key = key[:3] + key[4:]  # a letter dropped
        lines.append(f"{key} {value}\n")
    return "".join(lines)


def unknown_keys(n):
    return "".join(f"mylib_setting_{i:05d} {i}\n" for i in range(n))


def many_members(n):
    """A JSON object of n members, {"000000":0,...}: not a vocabulary, refused once read."""
    return "{" + ",".join(f'"{i:06x}":0' for i in range(n)) + "}"


def best_of(lint, args, runs=5, statuses=(0, 1)):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run([lint, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if result.returncode not in statuses:
            sys.exit(f"lint_bench: {lint} {' '.join(args)} exited {result.returncode}: {result.stderr.decode()}")
        best = elapsed if best is None else min(best, elapsed)
    return best * 1000


def main():
    lint = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in [("10,000 lines of real hints, 1 in 50 misspelled", real_hints(10000)),
                           ("10,000 different unknown keys", unknown_keys(10000))]:
            path = os.path.join(tmp, "hints.txt")
            with open(path, "w") as f:
                f.write(text)
            print(f"{name}\t{best_of(lint, [path]):.1f} ms")
        path = os.path.join(tmp, "vocabulary.json")
        with open(path, "w") as f:
            f.write(many_members(358000))
        size = os.path.getsize(path)
        if size > 4 << 20:
            sys.exit(f"lint_bench: the object is {size} bytes, over the 4 MiB a vocabulary may be")
        # Read whole, then refused (exit 2): it is no vocabulary.
        ms = best_of(lint, ["--vocabulary", path, "--list"], statuses=(2,))
        print(f"--vocabulary, a {size / 2**20:.1f} MiB object of 358,000 members\t{ms:.1f} ms")


if __name__ == "__main__":
    main()
