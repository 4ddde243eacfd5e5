#!/usr/bin/env python3
"""Writes the seed corpus of fuzz/info_fuzz.c to fuzz/corpus/ (deterministic: same files every run).

    python3 fuzz/gen_corpus.py [OUTDIR]

Each seed is a short "program" in the harness's input format (see the comment at the top of
fuzz/info_fuzz.c and its decoders gen_handle, gen_key, gen_val, gen_int, gen_nulls): hand-written
ones that reach every call kind and every edge docs/reference.md names, then generated ones that
mix them.
The encoders below follow the decoders byte for byte; when a decoder changes, change its encoder
and run this again.
"""
import os
import random
import sys

# ---- opcodes (enum op) and the PMPI_ bit
CREATE, SET, DELETE, GET, VALUELEN, GET_STRING, NKEYS, NTHKEY, DUP, FREE, CREATE_ENV, CONVERT, \
    ERROR_STRING, ERROR_CLASS, FILL, SET2 = range(16)
PMPI = 0x10

# ---- gen_handle
def slot(i): return [i % 8]
def special(j): return [0x80 + j]          # SPECIAL_HANDLES[j]
NULLH, ENV, ZERO, MINUS1, ONE, INTMIN, INTMAX = (special(j) for j in range(7))
def stale(j=0): return [0x98 + j]            # stale[b % nstale]
def near(s, m): return [0xB0, s, m]         # a live (s even) or freed (s odd) handle, mutated by m % 11
def raw_handle(v): return [0xD8] + list((v & 0xFFFFFFFF).to_bytes(4, "big"))

# ---- gen_key (b % 13)
KNULL, KEMPTY = [0], [1]
def kdict(j): return [2, j]                 # KEY_DICT[j]
def kexisting(o, i): return [4, o, i]       # object o % (nobjs + 1) (== nobjs: MPI_INFO_ENV), pair i
def knear(o, i, m): return [6, o, i, m]
LONG_KEY_LENS = [1, 2, 3, 127, 128, 253, 254, 255, 256, 257, 511, 1023, 1024, 1025]
def krun(n, c=0): return [7, LONG_KEY_LENS.index(n), c]
UNTERM_KEY_LENS = [256, 257, 300, 1024, 1025, 2000]
def kunterm(n): return [8, UNTERM_KEY_LENS.index(n)]
def kraw(b): return [9, len(b)] + list(b)
def kfill(i): return [10, i]
def key(s): return kraw(s.encode("latin-1"))

# ---- gen_val (b % 12)
VNULL, VEMPTY = [0], [1]
def vdict(j): return [2, j]
def vexisting(o, i): return [4, o, i]
def vsamelen(o, i, m): return [5, o, i, m]
def vpm1(o, i, more): return [6, o, i, 1 if more else 0]
LONG_VAL_LENS = [0, 1, 2, 255, 256, 511, 512, 1021, 1022, 1023, 1024, 1025, 2047, 2048]
def vrun(n, c=0): return [7, LONG_VAL_LENS.index(n), c]
UNTERM_VAL_LENS = [1024, 1025, 1100, 2000, 4000, 8000]
def vunterm(n): return [9, UNTERM_VAL_LENS.index(n)]
def vraw(b): return [10, len(b)] + list(b)
def vnum(x): return [11, x]
def val(s): return vraw(s.encode("latin-1"))

# ---- gen_int (b % 24): by name
I = dict(m1=[0], intmin=[1], zero=[2], one=[3], lenm1=[4], len=[5], lenp1=[7], lenp2=[8],
         k254=[9], k255=[10], k256=[11], k1022=[12], k1023=[13], k1024=[14], k1025=[15],
         intmax=[16], intmaxm1=[17], half=[21])
def ismall(x): return [18, x]
def ineg(x): return [19, x]                 # -x - 2
def iraw(v): return [20] + list((v & 0xFFFFFFFF).to_bytes(4, "big"))
def imod(x): return [23, x]                 # x % base

# ---- gen_nulls: which output pointers are NULL (bit k: the k-th pointer)
NONE = [0]
def nulls(*ks): return [0xC0 | sum(1 << k for k in ks)]

# ---- gen_code
KNOWN = [0, 13, 16, 17, 31, 32, 33, 34, 39]
def code_known(j): return [j]               # KNOWN_CODES[j]
def code_unknown(j): return [0x90 + j]      # UNKNOWN_CODES[(0x90 + j) % 16]
def code_raw(v): return [0xF8] + list((v & 0xFFFFFFFF).to_bytes(4, "big"))

# ---- calls
def op(kind, pmpi=False): return [kind | (PMPI if pmpi else 0)]
def create(s, null=False, p=False): return op(CREATE, p) + [7 if null else (s % 8) << 3]
def set_(h, k, v, p=False): return op(SET, p) + h + k + v
def delete(h, k, p=False): return op(DELETE, p) + h + k
def get(h, k, n, nl=NONE, p=False): return op(GET, p) + h + k + n + nl
def valuelen(h, k, nl=NONE, p=False): return op(VALUELEN, p) + h + k + nl
def get_string(h, k, n, nl=NONE, p=False): return op(GET_STRING, p) + h + k + n + nl
def nkeys(h, nl=NONE, full=True, p=False): return op(NKEYS, p) + h + nl + [1 if full else 0]
def nthkey(h, n, buf=0, p=False): return op(NTHKEY, p) + h + n + [buf]   # buf: 0 full, 1 tight, 2 +1, 3 NULL
def dup(h, s, null=False, p=False): return op(DUP, p) + h + [7 if null else (s % 8) << 3]
def free_slot(s, p=False): return op(FREE, p) + [(s % 8) << 3]
def free_handle(h, p=False): return op(FREE, p) + [5] + h
def free_null(p=False): return op(FREE, p) + [7]
ARGCS = [0, 1, 1, 2, 2, 3, 4, 5, -1, -2**31, -2, 0]
def create_env(argc, args, s=0, argv_null=False, out_null=False, p=False):
    b = ARGCS.index(argc)
    a = (7 if argv_null else 0) | ((7 if out_null else 0) << 3) | ((s % 4) << 6)
    return op(CREATE_ENV, p) + [b, a] + [x for v in args for x in v]
def convert(which, h, p=False): return op(CONVERT, p) + [which] + h   # 0 c2f 1 f2c 2 toint 3 fromint
def error_string(c, nl=NONE, p=False): return op(ERROR_STRING, p) + c + nl
def error_class(c, nl=NONE, p=False): return op(ERROR_CLASS, p) + c + nl
def fill(h, count, first=0, p=False): return op(FILL, p) + h + [count - 1, first]


def seeds():
    s = {}
    A = slot(0)
    # every call kind, plainly
    s["basic_set_get"] = create(0) + set_(A, key("a"), val("1")) + get(A, key("a"), I["len"]) \
        + valuelen(A, key("a")) + get_string(A, key("a"), I["len"]) + nkeys(A) + nthkey(A, I["zero"]) \
        + delete(A, key("a")) + nkeys(A) + free_slot(0)
    s["pmpi_all"] = create(0, p=True) + set_(A, key("k"), val("v"), p=True) + get(A, key("k"), I["len"], p=True) \
        + valuelen(A, key("k"), p=True) + get_string(A, key("k"), I["lenp1"], p=True) + nkeys(A, p=True) \
        + nthkey(A, I["zero"], p=True) + dup(A, 1, p=True) + delete(A, key("k"), p=True) \
        + free_slot(1, p=True) + create_env(1, [val("prog")], 2, p=True) + convert(0, A, p=True) \
        + error_string(code_known(1), p=True) + error_class(code_known(7), p=True) + fill(A, 3, p=True)
    # order: overwrite keeps the position, delete shifts down, a deleted key set again goes last
    s["order"] = create(0) + set_(A, key("x"), val("1")) + set_(A, key("y"), val("2")) + set_(A, key("z"), val("3")) \
        + set_(A, key("x"), val("one")) + delete(A, key("y")) + set_(A, key("y"), val("two")) \
        + nthkey(A, I["zero"]) + nthkey(A, ismall(1)) + nthkey(A, ismall(2)) + nthkey(A, ismall(3)) + nkeys(A)
    s["same_length_replace"] = create(0) + set_(A, key("k"), val("abc")) + set_(A, key("k"), vsamelen(0, 0, 1)) \
        + set_(A, key("k"), vpm1(0, 0, True)) + set_(A, key("k"), vpm1(0, 0, False)) + get(A, key("k"), I["len"])
    # limits: keys of 254/255/256/257, values of 1022/1023/1024/1025, unterminated strings
    for n in (254, 255, 256, 257):
        s[f"key_len_{n}"] = create(0) + set_(A, krun(n, 0x31), val("v")) + get(A, krun(n, 0x31), I["len"]) \
            + nthkey(A, I["zero"], 1) + nthkey(A, I["zero"], 0) + delete(A, krun(n, 0x31))
    for n in (1022, 1023, 1024, 1025):
        s[f"value_len_{n}"] = create(0) + set_(A, key("v"), vrun(n, 0x12)) + get(A, key("v"), I["len"]) \
            + get(A, key("v"), I["lenm1"]) + get(A, key("v"), I["k1024"]) + get_string(A, key("v"), I["len"]) \
            + get_string(A, key("v"), I["lenp1"]) + valuelen(A, key("v"))
    s["unterminated"] = create(0) + set_(A, kunterm(256), val("v")) + set_(A, kunterm(2000), val("v")) \
        + set_(A, key("k"), vunterm(1024)) + set_(A, key("k"), vunterm(8000)) + get(A, kunterm(257), I["zero"]) \
        + delete(A, kunterm(300)) + valuelen(A, kunterm(1024)) + get_string(ENV, kunterm(256), I["zero"])
    s["empty_and_null"] = create(0) + set_(A, KEMPTY, val("v")) + set_(A, KNULL, val("v")) \
        + set_(A, key("k"), VNULL) + set_(A, key("k"), VEMPTY) + get(A, key("k"), I["zero"]) \
        + get(A, KEMPTY, I["zero"]) + delete(A, KNULL) + get_string(A, key("k"), I["zero"], nulls(1))
    # truncation rules of get and get_string
    t = create(0) + set_(A, key("t"), val("abcdef"))
    for n in ("zero", "one", "lenm1", "len", "lenp1", "lenp2", "m1", "intmin", "intmax", "half"):
        t += get(A, key("t"), I[n]) + get_string(A, key("t"), I[n])
    s["truncation"] = t + get_string(A, key("t"), I["zero"], nulls(1)) + get_string(A, key("missing"), I["one"])
    # argument order: every function with several bad arguments at once
    s["order_of_errors"] = create(0) + set_(NULLH, KNULL, VNULL) + set_(A, KNULL, VNULL) + set_(A, krun(256), vrun(1024)) \
        + set_(ENV, key("k"), val("v")) + delete(ENV, key("command")) + delete(A, key("missing")) + delete(A, KEMPTY) \
        + get(NULLH, KNULL, I["m1"], nulls(0, 1)) + get(A, KNULL, I["m1"], nulls(0, 1)) + get(A, key("missing"), I["m1"]) \
        + get(A, key("missing"), I["one"], nulls(0)) + get(A, key("missing"), I["one"], nulls(1)) \
        + valuelen(A, key("missing"), nulls(0, 1)) + valuelen(STALE_OR_NULL, KNULL, nulls(0)) \
        + get_string(A, key("missing"), I["m1"]) + get_string(A, key("missing"), I["one"], nulls(1)) \
        + get_string(A, key("missing"), I["one"], nulls(0)) + get_string(A, key("missing"), I["one"], nulls(2)) \
        + nkeys(NULLH, nulls(0)) + nkeys(A, nulls(0)) + nthkey(A, I["m1"], 3) + nthkey(A, I["zero"]) \
        + nthkey(MINUS1, I["m1"], 3) + dup(NULLH, 1, null=True) + dup(A, 1, null=True) + free_null() \
        + free_handle(ENV) + free_handle(NULLH) + free_handle(ZERO)
    # handles: forged, stale, near misses of live and freed ones
    h = create(0) + create(1) + set_(slot(1), key("b"), val("2")) + free_slot(0) + get(slot(0), key("b"), I["len"]) \
        + set_(stale(), key("k"), val("v")) + free_slot(0) + dup(stale(), 2)
    for j in range(24):
        h += nkeys(special(j), full=False)
    for m in range(11):
        h += nkeys(near(0, m), full=False) + nkeys(near(1, m), full=False)
    for v in (0, -1, 2**31 - 1, -2**31, 1 << 20, (1 << 20) + 1, 305, 304):
        h += nkeys(raw_handle(v), full=False) + free_handle(raw_handle(v))
    s["handles"] = h
    # dup: copies, order kept, independent afterwards; dup of MPI_INFO_ENV is writable
    s["dup"] = create(0) + fill(A, 12) + dup(A, 1) + set_(slot(1), kfill(3), val("changed")) + delete(A, kfill(5)) \
        + nkeys(A) + nkeys(slot(1)) + dup(ENV, 2) + set_(slot(2), key("command"), val("x")) + delete(slot(2), key("wdir")) \
        + nkeys(slot(2)) + nkeys(ENV) + dup(slot(2), 3) + free_slot(2) + nkeys(slot(3))
    # many keys (past the scan limit: the index), deletes in the middle, near misses
    s["many_keys"] = create(0) + fill(A, 24) + fill(A, 24, 24) + delete(A, kfill(10)) + delete(A, kfill(0)) \
        + delete(A, kfill(47)) + get(A, kfill(20), I["len"]) + get(A, knear(0, 5, 0), I["len"]) \
        + set_(A, kfill(10), val("back")) + nthkey(A, I["len"]) + nthkey(A, I["lenm1"]) + nthkey(A, imod(77))
    s["env"] = nkeys(ENV) + get(ENV, key("command"), I["len"]) + get(ENV, key("thread_level"), I["lenm1"]) \
        + get_string(ENV, key("wdir"), I["zero"]) + valuelen(ENV, key("maxprocs")) + nthkey(ENV, I["lenm1"]) \
        + nthkey(ENV, I["len"]) + get(ENV, kexisting(0, 4), I["len"]) + set_(ENV, key("soft"), val("2"))
    # create_env: argc 0..5, NULL argv, NULL elements, long and unterminated elements
    s["create_env"] = create_env(0, [], 0) + create_env(1, [val("cmd")], 1) + create_env(3, [val("cmd"), val("a"), val("b c")], 2) \
        + create_env(2, [vrun(1023), vrun(1023)], 3) + create_env(2, [vrun(1024), VEMPTY], 3) \
        + create_env(3, [VEMPTY, vrun(511), vrun(511)], 0) + create_env(3, [VEMPTY, vrun(512), vrun(511)], 1) \
        + create_env(2, [vunterm(1024), val("x")], 2) + create_env(1, [VNULL]) + create_env(2, [], 0, argv_null=True) \
        + create_env(0, [], 0, argv_null=True) + create_env(-1, [], 0) + create_env(-2**31, [], 0, argv_null=True) \
        + create_env(1, [val("c")], 0, out_null=True) + create_env(5, [val("a"), val("b"), val("c"), val("d"), val("e")], 1)
    e = []
    for j in range(9):
        e += error_string(code_known(j)) + error_class(code_known(j), p=True)
    for j in range(16):
        e += error_string(code_unknown(j)) + error_class(code_unknown(j))
    e += error_string(code_known(0), nulls(0)) + error_string(code_known(1), nulls(1)) + error_string(code_unknown(0), nulls(0, 1)) \
        + error_class(code_known(2), nulls(0)) + error_class(code_raw(-7)) + error_string(code_known(5), p=True)
    s["errors"] = e
    s["conversions"] = create(0) + sum((convert(w, hh) for w in range(4) for hh in (A, NULLH, ENV, MINUS1, INTMIN, raw_handle(12345))), [])
    s["non_utf8_and_spaces"] = create(0) + set_(A, kraw(b"\xff\xfe\x80"), vraw(b"\x01\xff ")) + set_(A, key(" a "), val("  ")) \
        + set_(A, key("A"), val("upper")) + set_(A, key("a"), val("lower")) + get(A, key("A"), I["len"]) \
        + get(A, kraw(b"\xff\xfe\x80"), I["len"]) + kraw_nul_seed()
    s["nthkey_buffers"] = create(0) + set_(A, krun(255), val("v")) + set_(A, key("s"), val("v")) \
        + nthkey(A, I["zero"], 1) + nthkey(A, I["zero"], 2) + nthkey(A, ismall(1), 1) + nthkey(A, I["intmax"]) + nthkey(A, I["intmin"])
    return s


STALE_OR_NULL = stale()


def kraw_nul_seed():
    # a key with a NUL inside: only the bytes before it count
    return set_(slot(0), kraw(b"ab\x00cd"), val("v")) + get(slot(0), key("ab"), I["len"])


def random_program(rng, n):
    """A program of n calls, mostly on live objects with existing keys so that calls succeed."""
    out = create(0) + create(1)
    hs = lambda: slot(rng.randrange(4)) if rng.random() < 0.85 else rng.choice(
        [ENV, NULLH, stale(), near(rng.randrange(4), rng.randrange(11)), raw_handle(rng.getrandbits(32))])
    ks = lambda: rng.choice([kdict(rng.randrange(22)), kexisting(rng.randrange(3), rng.randrange(256)), kfill(rng.randrange(64)),
                             krun(rng.choice(LONG_KEY_LENS), rng.randrange(256)), knear(rng.randrange(3), rng.randrange(256), rng.randrange(256)),
                             KNULL, KEMPTY, kunterm(rng.choice(UNTERM_KEY_LENS))])
    vs = lambda: rng.choice([vdict(rng.randrange(11)), vexisting(rng.randrange(3), rng.randrange(256)), vnum(rng.randrange(256)),
                             vrun(rng.choice(LONG_VAL_LENS), rng.randrange(256)), vsamelen(rng.randrange(3), rng.randrange(256), rng.randrange(256)),
                             VEMPTY, VNULL])
    ints = lambda: rng.choice(list(I.values()) + [ismall(rng.randrange(256)), imod(rng.randrange(256))])
    nl = lambda: NONE if rng.random() < 0.85 else nulls(rng.randrange(3))
    for _ in range(n):
        c = rng.randrange(100)
        p = rng.random() < 0.3
        if c < 22: out += set_(hs(), ks(), vs(), p)
        elif c < 32: out += get(hs(), ks(), ints(), nl(), p)
        elif c < 40: out += get_string(hs(), ks(), ints(), nl(), p)
        elif c < 46: out += valuelen(hs(), ks(), nl(), p)
        elif c < 54: out += delete(hs(), ks(), p)
        elif c < 60: out += nthkey(hs(), ints(), rng.randrange(4), p)
        elif c < 64: out += nkeys(hs(), nl(), rng.random() < 0.5, p)
        elif c < 70: out += dup(hs(), rng.randrange(4), p=p)
        elif c < 74: out += free_slot(rng.randrange(4), p) + create(rng.randrange(4), p=p)
        elif c < 82: out += fill(hs(), rng.randrange(1, 25), rng.randrange(256), p)
        elif c < 86: out += create(rng.randrange(4), p=p)
        elif c < 90:
            argc = rng.choice([0, 1, 2, 3])
            out += create_env(argc, [vs() for _ in range(argc)], rng.randrange(4), p=p)
        elif c < 94: out += error_string(code_known(rng.randrange(9)) if rng.random() < 0.7 else code_unknown(rng.randrange(16)), nl(), p)
        elif c < 97: out += error_class(code_known(rng.randrange(9)), nl(), p)
        else: out += convert(rng.randrange(4), hs(), p)
    return out


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        if f.startswith("seed_"):
            os.remove(os.path.join(outdir, f))
    all_seeds = seeds()
    rng = random.Random(20261123)
    for i in range(40):
        all_seeds[f"random_{i:02d}"] = random_program(rng, rng.randrange(8, 60))
    total = 0
    for name, prog in sorted(all_seeds.items()):
        data = bytes(prog)
        total += len(data)
        with open(os.path.join(outdir, "seed_" + name), "wb") as f:
            f.write(data)
    print(f"{len(all_seeds)} seeds, {total} bytes, in {outdir}")


if __name__ == "__main__":
    main()
