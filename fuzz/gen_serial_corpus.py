#!/usr/bin/env python3
"""Writes the seed corpus of fuzz/serial_fuzz.c to fuzz/serial_corpus/ (deterministic).

    python3 fuzz/gen_serial_corpus.py [OUTDIR]

Each seed is a candidate serialized info object (docs/mpix.md, version 1): well-formed ones
(empty, one pair, several, the longest key and value, bytes that are not UTF-8, enough pairs to
pass the library's index threshold) and one of each defect the deserializer must refuse, so the
fuzzer starts next to every decision.
"""
import os
import sys


def u32(n):
    return n.to_bytes(4, "big")


def serialize(pairs, magic=b"MPII", version=1, count=None):
    out = magic + u32(version) + u32(len(pairs) if count is None else count)
    for k, v in pairs:
        out += u32(len(k)) + k + u32(len(v)) + v
    return out


GOOD = {
    "empty": [],
    "one_pair": [(b"cb_nodes", b"4")],
    "empty_value": [(b"k", b"")],
    "romio_hints": [(b"cb_buffer_size", b"16777216"), (b"romio_cb_write", b"enable"),
                    (b"striping_factor", b"4"), (b"cb_config_list", b"*:1")],
    "longest_key": [(b"k" * 255, b"v")],
    "longest_value": [(b"v", b"x" * 1023)],
    "not_utf8": [(b"\xff\xfe key with spaces", b"\x80\x81\x01")],
    "many_pairs": [(b"key_%02d" % i, b"value_%d" % i) for i in range(20)],
}

SMALL = serialize([(b"ab", b"xyz")])
BAD = {
    "bad_truncated_header": SMALL[:11],
    "bad_truncated_value": SMALL[:-1],
    "bad_trailing_byte": SMALL + b"x",
    "bad_magic": serialize([(b"ab", b"xyz")], magic=b"MPIX"),
    "bad_version": serialize([(b"ab", b"xyz")], version=2),
    "bad_count": serialize([(b"ab", b"xyz")], count=2),
    "bad_count_huge": serialize([(b"ab", b"xyz")], count=0xFFFFFFFF),
    "bad_empty_key": serialize([(b"", b"v")]),
    "bad_key_256": serialize([(b"k" * 256, b"v")]),
    "bad_value_1024": serialize([(b"k", b"v" * 1024)]),
    "bad_nul_in_key": serialize([(b"a\0b", b"v")]),
    "bad_nul_in_value": serialize([(b"k", b"v\0")]),
    "bad_duplicate_key": serialize([(b"k", b"1"), (b"k", b"2")]),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "serial_corpus")
    os.makedirs(out, exist_ok=True)
    for name, pairs in GOOD.items():
        with open(os.path.join(out, "seed_" + name), "wb") as f:
            f.write(serialize(pairs))
    for name, data in BAD.items():
        with open(os.path.join(out, "seed_" + name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
