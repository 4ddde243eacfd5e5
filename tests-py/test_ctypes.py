#!/usr/bin/env python3
"""test_ctypes.py - the C ABI of libmpi_info driven from Python through ctypes (the rules of
docs/reference.md, "Types and constants" to "Threads").

Usage: python3 test_ctypes.py PATH/TO/libmpi_info.so [extra arguments...]

Standard library only. Every exported function, MPI_ and PMPI_ name alike, is declared with
its argtypes/restype (from include/mpi_info.h) and called with bytes and
ctypes.create_string_buffer buffers. Output buffers and output ints are filled with
sentinels first, so each check sees exactly which bytes a call wrote.

Sections (all but the thread section run once with the MPI_ names and once with the PMPI_
names, which must give the same results; one section mixes the two families):
  - error strings and classes: every class of "Types and constants" has a message and is its
    own class, unknown codes and NULL outputs are MPI_ERR_ARG with outputs untouched;
  - handles and conversions: new handles are >= 4096 and distinct, c2f/f2c/toint/fromint are
    the identity (also on NULL, ENV, forged and freed values), a converted handle still works;
  - set/get/dup/free with exact values (replace, empty value, case and spaces kept, missing
    keys leave outputs untouched, dup is independent, free sets MPI_INFO_NULL, freed is dead);
  - order after set, replace, delete and set-again ("Order"), get_nthkey writes strlen+1 bytes;
  - truncation in MPI_Info_get (min(len, valuelen) chars then a NUL, nothing after);
  - MPI_Info_get_string sizing (*buflen 0 with NULL, short/exact/long buffers, missing key);
  - limits: keys of 255 bytes work, 256 (or unterminated) are MPI_ERR_INFO_KEY; values of
    1023 work, 1024 (or unterminated) are MPI_ERR_INFO_VALUE; non-UTF-8 bytes round-trip;
  - wrong arguments: every error class (bad handles 0, -1, INT_MAX, INT_MIN, freed,
    MPI_INFO_NULL; MPI_INFO_ENV where it would change; NULL keys, values and outputs; negative
    lengths and indexes; missing key on delete), left-to-right order when two are bad, and
    outputs and objects unchanged on error;
  - MPI_INFO_ENV: the pairs of "MPI_INFO_ENV and MPI_Info_create_env" for this interpreter's
    own command line
    (sys.orig_argv), read-only, its dup writable; MPI_Info_create_env with Python-built argv
    (argc 0/1/n, the 1023-character limits, non-UTF-8, spaces) and its MPI_ERR_ARG cases;
  - threads: 32 Python threads (ctypes releases the GIL during calls) each on its own object,
    then all on one shared object, with set/get/delete/dup/free loops and verified contents,
    then a check that nothing was lost.

The last line printed is "test_ctypes: N passed, M failed"; each failure is printed on its own
line before it; the exit status is 1 if M > 0.
"""

import ctypes
import os
import re
import socket
import sys
import threading
import traceback
from ctypes import POINTER, byref, c_char, c_char_p, c_int

# ---- constants (reference.md, "Types and constants") ---------------------------------------------

MPI_SUCCESS = 0
MPI_ERR_ARG = 13
MPI_ERR_OTHER = 16
MPI_ERR_INTERN = 17
MPI_ERR_INFO_KEY = 31
MPI_ERR_INFO_NOKEY = 32
MPI_ERR_INFO_VALUE = 33
MPI_ERR_INFO = 34
MPI_ERR_NO_MEM = 39
MPI_INFO_NULL = 304
MPI_INFO_ENV = 305
MPI_MAX_INFO_KEY = 256
MPI_MAX_INFO_VAL = 1024
MPI_MAX_ERROR_STRING = 512
INT_MAX = 2**31 - 1
INT_MIN = -(2**31)

KNOWN_CODES = [MPI_SUCCESS, MPI_ERR_ARG, MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_INFO_KEY,
               MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO, MPI_ERR_NO_MEM]

SENT = 0xA5                 # sentinel byte for output buffers
SENT_INT = 0x5A5A5A5A       # sentinel for output ints

P_INT = POINTER(c_int)
P_CHAR = POINTER(c_char)    # output buffers (create_string_buffer or None)

# name without prefix -> (restype, argtypes), as in include/mpi_info.h
SIGNATURES = {
    "Info_create": (c_int, [P_INT]),
    "Info_set": (c_int, [c_int, c_char_p, c_char_p]),
    "Info_delete": (c_int, [c_int, c_char_p]),
    "Info_get": (c_int, [c_int, c_char_p, c_int, P_CHAR, P_INT]),
    "Info_get_valuelen": (c_int, [c_int, c_char_p, P_INT, P_INT]),
    "Info_get_string": (c_int, [c_int, c_char_p, P_INT, P_CHAR, P_INT]),
    "Info_get_nkeys": (c_int, [c_int, P_INT]),
    "Info_get_nthkey": (c_int, [c_int, c_int, P_CHAR]),
    "Info_dup": (c_int, [c_int, P_INT]),
    "Info_free": (c_int, [P_INT]),
    "Info_create_env": (c_int, [c_int, POINTER(c_char_p), P_INT]),
    "Info_c2f": (c_int, [c_int]),
    "Info_f2c": (c_int, [c_int]),
    "Info_toint": (c_int, [c_int]),
    "Info_fromint": (c_int, [c_int]),
    "Error_string": (c_int, [c_int, P_CHAR, P_INT]),
    "Error_class": (c_int, [c_int, P_INT]),
}

# ---- check bookkeeping --------------------------------------------------------------------

_lock = threading.Lock()
_passed = 0
_failed = 0


def _short(x, limit=200):
    r = repr(x)
    return r if len(r) <= limit else r[:limit] + "...(%d chars)" % len(r)


def check(what, got, expected):
    """One check: got must equal expected exactly. Prints a line on failure."""
    global _passed, _failed
    with _lock:
        if got == expected:
            _passed += 1
            return True
        _failed += 1
        print("FAIL %s: expected %s, got %s" % (what, _short(expected), _short(got)), flush=True)
        return False


def fail(what, detail):
    """A failure that is not a comparison (an exception in a section)."""
    global _failed
    with _lock:
        _failed += 1
        print("FAIL %s: %s" % (what, detail), flush=True)


class Broken(Exception):
    """A set-up call failed: the rest of the section cannot run."""


def must(rc, what):
    if rc != MPI_SUCCESS:
        raise Broken("%s returned %d" % (what, rc))


def run_section(name, fn, *args):
    try:
        fn(*args)
    except Broken as e:
        fail(name, "set-up failed: %s" % e)
    except Exception:
        fail(name, "exception: " + traceback.format_exc().strip().replace("\n", " | "))


# ---- the library ----------------------------------------------------------------------------

class Api:
    """The exported functions of one family ("MPI_" or "PMPI_"), with ctypes signatures."""

    def __init__(self, lib, prefix):
        self.prefix = prefix
        for name, (restype, argtypes) in SIGNATURES.items():
            f = getattr(lib, prefix + name)
            f.restype = restype
            f.argtypes = argtypes
            setattr(self, name, f)

    def n(self, name):
        return self.prefix + name


# ---- buffers and small helpers ---------------------------------------------------------------

def sentbuf(n):
    """n bytes, all SENT, with no NUL anywhere."""
    return ctypes.create_string_buffer(bytes([SENT]) * n, n)


def written(data, n):
    """The raw content of an n-byte sentinel buffer after `data` was written at its start."""
    return data + bytes([SENT]) * (n - len(data))


def unterminated(data):
    """A buffer holding exactly `data` with no NUL after it."""
    return ctypes.create_string_buffer(data, len(data))


def cstr(raw):
    """The C string at the start of raw bytes (up to the first NUL)."""
    i = raw.find(b"\0")
    if i < 0:
        raise Broken("no NUL in output %s" % _short(raw))
    return raw[:i]


def create(api):
    h = c_int(SENT_INT)
    must(api.Info_create(byref(h)), api.n("Info_create"))
    return h.value


def free(api, h):
    hv = c_int(h)
    must(api.Info_free(byref(hv)), api.n("Info_free"))


def dup(api, h):
    d = c_int(SENT_INT)
    must(api.Info_dup(h, byref(d)), api.n("Info_dup"))
    return d.value


def set_(api, h, k, v):
    must(api.Info_set(h, k, v), "%s(%r, %s)" % (api.n("Info_set"), k, _short(v, 40)))


def nkeys(api, h):
    n = c_int(SENT_INT)
    must(api.Info_get_nkeys(h, byref(n)), api.n("Info_get_nkeys"))
    return n.value


def nthkey(api, h, i):
    b = sentbuf(MPI_MAX_INFO_KEY + 8)
    must(api.Info_get_nthkey(h, i, b), api.n("Info_get_nthkey"))
    return cstr(b.raw)


def value(api, h, k):
    """The value of k (None if absent), read with MPI_Info_get and a full-size buffer."""
    b = sentbuf(MPI_MAX_INFO_VAL + 8)
    flag = c_int(SENT_INT)
    must(api.Info_get(h, k, MPI_MAX_INFO_VAL - 1, b, byref(flag)), api.n("Info_get"))
    if flag.value == 0:
        return None
    if flag.value != 1:
        raise Broken("Info_get flag %d" % flag.value)
    return cstr(b.raw)


def pairs(api, h):
    """All (key, value) pairs of h, in get_nthkey order."""
    return [(k, value(api, h, k)) for k in (nthkey(api, h, i) for i in range(nkeys(api, h)))]


def make(api, items):
    h = create(api)
    for k, v in items:
        set_(api, h, k, v)
    return h


def freed_handle(api):
    h = create(api)
    free(api, h)
    return h


class Outs:
    """Output arguments filled with sentinels; changed() names those a call wrote."""

    def __init__(self, buflen=64, bufsize=64):
        self.flag = c_int(SENT_INT)
        self.len = c_int(buflen)
        self.handle = c_int(SENT_INT)
        self.buf = sentbuf(bufsize)
        self._start = self._snapshot()

    def _snapshot(self):
        return (self.flag.value, self.len.value, self.handle.value, self.buf.raw)

    def changed(self):
        names = ("flag", "len", "handle", "buf")
        return [n for n, a, b in zip(names, self._start, self._snapshot()) if a != b]


# ---- error strings and classes (reference.md, "Types and constants", "MPI_Error_string") ---------

def section_errors(api, messages):
    p = api.prefix
    for code in KNOWN_CODES:
        b = sentbuf(MPI_MAX_ERROR_STRING + 16)
        ln = c_int(SENT_INT)
        check("%sError_string(%d) rc" % (p, code), api.Error_string(code, b, byref(ln)),
              MPI_SUCCESS)
        raw = b.raw
        nul = raw.find(b"\0")
        check("%sError_string(%d) resultlen is the message length" % (p, code), ln.value, nul)
        check("%sError_string(%d) non-empty, at most 511 chars" % (p, code),
              0 < nul <= MPI_MAX_ERROR_STRING - 1, True)
        check("%sError_string(%d) nothing written after the NUL" % (p, code),
              raw[nul + 1:], bytes([SENT]) * (len(raw) - nul - 1))
        messages.setdefault(p, {})[code] = raw[:nul]
        cls = c_int(SENT_INT)
        check("%sError_class(%d) rc" % (p, code), api.Error_class(code, byref(cls)), MPI_SUCCESS)
        check("%sError_class(%d) is its own class" % (p, code), cls.value, code)
    msgs = list(messages[p].values())
    check("%sError_string messages all distinct" % p, len(set(msgs)), len(msgs))

    for code in (-1, 1, 12, 14, 35, 38, 40, 304, 4096, INT_MAX, INT_MIN):
        o = Outs()
        check("%sError_string(%d) unknown code" % (p, code),
              api.Error_string(code, o.buf, byref(o.len)), MPI_ERR_ARG)
        check("%sError_class(%d) unknown code" % (p, code),
              api.Error_class(code, byref(o.flag)), MPI_ERR_ARG)
        check("%s unknown code %d: outputs untouched" % (p, code), o.changed(), [])

    o = Outs()
    check(p + "Error_string(NULL string)", api.Error_string(MPI_ERR_INFO, None, byref(o.len)),
          MPI_ERR_ARG)
    check(p + "Error_string(NULL resultlen)", api.Error_string(MPI_ERR_INFO, o.buf, None),
          MPI_ERR_ARG)
    check(p + "Error_class(NULL class)", api.Error_class(MPI_ERR_INFO, None), MPI_ERR_ARG)
    check(p + "Error_string/class NULL outputs: the others untouched", o.changed(), [])


# ---- handles and conversions (reference.md, "Handles", "Handle conversions") ---------------------

def section_handles(api):
    p = api.prefix
    hs = [create(api) for _ in range(50)]
    check(p + "new handles distinct", len(set(hs)), len(hs))
    check(p + "new handles are >= 4096", [h for h in hs if h < 4096], [])
    dead = hs[0]
    free(api, dead)
    for name, h in [("NULL", MPI_INFO_NULL), ("ENV", MPI_INFO_ENV), ("live", hs[1]),
                    ("freed", dead), ("0", 0), ("-1", -1), ("INT_MAX", INT_MAX),
                    ("INT_MIN", INT_MIN)]:
        for fn in ("Info_c2f", "Info_f2c", "Info_toint", "Info_fromint"):
            check("%s%s(%s) is the identity" % (p, fn, name), getattr(api, fn)(h), h)
    live = hs[1]
    set_(api, live, b"conv", b"yes")
    for there, back in (("Info_c2f", "Info_f2c"), ("Info_toint", "Info_fromint")):
        h2 = getattr(api, back)(getattr(api, there)(live))
        check("%s%s/%s round trip reaches the object" % (p, there, back),
              value(api, h2, b"conv"), b"yes")
    n = c_int(SENT_INT)
    check(p + "get_nkeys on the freed handle", api.Info_get_nkeys(dead, byref(n)), MPI_ERR_INFO)
    check(p + "get_nkeys on the freed handle: output untouched", n.value, SENT_INT)
    for h in hs[1:]:
        free(api, h)


# ---- set/get/dup/free with exact values ------------------------------------------------------

def section_basic(api):
    p = api.prefix
    h = create(api)
    check(p + "new object has no keys", nkeys(api, h), 0)

    check(p + "set k1", api.Info_set(h, b"k1", b"value one"), MPI_SUCCESS)
    b = sentbuf(64)
    flag = c_int(SENT_INT)
    check(p + "get k1 rc", api.Info_get(h, b"k1", 63, b, byref(flag)), MPI_SUCCESS)
    check(p + "get k1 flag", flag.value, 1)
    check(p + "get k1 bytes (value, NUL, rest untouched)", b.raw, written(b"value one\0", 64))
    vl, flag = c_int(SENT_INT), c_int(SENT_INT)
    check(p + "get_valuelen k1 rc", api.Info_get_valuelen(h, b"k1", byref(vl), byref(flag)),
          MPI_SUCCESS)
    check(p + "get_valuelen k1 (flag, len)", (flag.value, vl.value), (1, 9))

    check(p + "replace k1 by a longer value", api.Info_set(h, b"k1", b"a much longer value"),
          MPI_SUCCESS)
    check(p + "get k1 after replace", value(api, h, b"k1"), b"a much longer value")
    check(p + "replace k1 by a shorter value", api.Info_set(h, b"k1", b"s"), MPI_SUCCESS)
    check(p + "get k1 after second replace", value(api, h, b"k1"), b"s")
    check(p + "nkeys after replaces", nkeys(api, h), 1)

    check(p + "set the empty value", api.Info_set(h, b"empty", b""), MPI_SUCCESS)
    b = sentbuf(16)
    flag = c_int(SENT_INT)
    check(p + "get empty rc", api.Info_get(h, b"empty", 15, b, byref(flag)), MPI_SUCCESS)
    check(p + "get empty: flag 1, one NUL written", (flag.value, b.raw), (1, written(b"\0", 16)))
    vl, flag = c_int(SENT_INT), c_int(SENT_INT)
    api.Info_get_valuelen(h, b"empty", byref(vl), byref(flag))
    check(p + "get_valuelen of the empty value", (flag.value, vl.value), (1, 0))

    # case-sensitive keys; spaces kept in keys and values
    set_(api, h, b"Key", b"upper")
    set_(api, h, b"key", b"lower")
    set_(api, h, b" key ", b"  spaced value  ")
    check(p + "keys are case-sensitive (Key)", value(api, h, b"Key"), b"upper")
    check(p + "keys are case-sensitive (key)", value(api, h, b"key"), b"lower")
    check(p + "spaces kept in key and value", value(api, h, b" key "), b"  spaced value  ")
    check(p + "KEY (never set) is missing", value(api, h, b"KEY"), None)

    # missing key: flag 0, outputs untouched
    o = Outs()
    check(p + "get missing rc", api.Info_get(h, b"nope", 63, o.buf, byref(o.flag)), MPI_SUCCESS)
    check(p + "get missing flag", o.flag.value, 0)
    check(p + "get missing: buffer untouched", o.changed(), ["flag"])
    o = Outs()
    check(p + "get_valuelen missing rc",
          api.Info_get_valuelen(h, b"nope", byref(o.len), byref(o.flag)), MPI_SUCCESS)
    check(p + "get_valuelen missing: flag 0, valuelen untouched",
          (o.flag.value, o.changed()), (0, ["flag"]))

    # dup: same pairs, same order, independent in both directions
    before = pairs(api, h)
    check(p + "pairs before dup", before, [(b"k1", b"s"), (b"empty", b""), (b"Key", b"upper"),
                                           (b"key", b"lower"), (b" key ", b"  spaced value  ")])
    d = c_int(SENT_INT)
    check(p + "dup rc", api.Info_dup(h, byref(d)), MPI_SUCCESS)
    check(p + "dup gives a new handle", d.value not in (h, SENT_INT, MPI_INFO_NULL, 0), True)
    check(p + "dup has the same pairs in the same order", pairs(api, d.value), before)
    set_(api, d.value, b"k1", b"changed in dup")
    set_(api, d.value, b"only_in_dup", b"x")
    check(p + "changing the dup leaves the source", pairs(api, h), before)
    set_(api, h, b"only_in_src", b"y")
    check(p + "changing the source leaves the dup", pairs(api, d.value),
          [(b"k1", b"changed in dup")] + before[1:] + [(b"only_in_dup", b"x")])

    # free: *info = MPI_INFO_NULL, the handle is dead, the other object lives on
    hv = c_int(d.value)
    check(p + "free dup rc", api.Info_free(byref(hv)), MPI_SUCCESS)
    check(p + "free sets *info to MPI_INFO_NULL", hv.value, MPI_INFO_NULL)
    check(p + "the freed dup is dead (get_nkeys)", api.Info_get_nkeys(d.value, byref(c_int())),
          MPI_ERR_INFO)
    check(p + "the source survives freeing its dup", pairs(api, h),
          before + [(b"only_in_src", b"y")])
    hv = c_int(d.value)
    check(p + "freeing it again", api.Info_free(byref(hv)), MPI_ERR_INFO)
    check(p + "freeing it again leaves *info", hv.value, d.value)

    # dup of an empty object; freeing the source leaves the dup
    e = create(api)
    e2 = dup(api, e)
    check(p + "dup of an empty object is empty", nkeys(api, e2), 0)
    free(api, e)
    set_(api, e2, b"a", b"b")
    check(p + "dup works after its source is freed", pairs(api, e2), [(b"a", b"b")])
    free(api, e2)
    free(api, h)


# ---- order (reference.md, "Order") ---------------------------------------------------------------

def keys_of(api, h):
    return [nthkey(api, h, i) for i in range(nkeys(api, h))]


def section_order(api):
    p = api.prefix
    h = make(api, [(b"a", b"1"), (b"b", b"2"), (b"c", b"3"), (b"d", b"4")])
    check(p + "order after set", keys_of(api, h), [b"a", b"b", b"c", b"d"])
    set_(api, h, b"b", b"22")
    check(p + "replace keeps the position", pairs(api, h),
          [(b"a", b"1"), (b"b", b"22"), (b"c", b"3"), (b"d", b"4")])
    check(p + "delete b", api.Info_delete(h, b"b"), MPI_SUCCESS)
    check(p + "delete shifts the later keys down", keys_of(api, h), [b"a", b"c", b"d"])
    set_(api, h, b"b", b"again")
    check(p + "a deleted key set again goes to the end", pairs(api, h),
          [(b"a", b"1"), (b"c", b"3"), (b"d", b"4"), (b"b", b"again")])
    check(p + "delete the first key", api.Info_delete(h, b"a"), MPI_SUCCESS)
    check(p + "delete the last key", api.Info_delete(h, b"b"), MPI_SUCCESS)
    check(p + "order after deleting first and last", keys_of(api, h), [b"c", b"d"])
    check(p + "deleted key is missing", value(api, h, b"a"), None)
    set_(api, h, b"e", b"5")
    d = dup(api, h)
    check(p + "dup keeps the order", keys_of(api, d), [b"c", b"d", b"e"])
    set_(api, d, b"c", b"x")
    check(p + "replace in the dup keeps the position", keys_of(api, d), [b"c", b"d", b"e"])

    # get_nthkey writes the key and a NUL, nothing more
    for i, k in enumerate([b"c", b"d", b"e"]):
        b = sentbuf(MPI_MAX_INFO_KEY + 8)
        check("%sget_nthkey(%d) rc" % (p, i), api.Info_get_nthkey(h, i, b), MPI_SUCCESS)
        check("%sget_nthkey(%d) writes strlen+1 bytes" % (p, i), b.raw,
              written(k + b"\0", len(b.raw)))

    # many keys: nthkey n is the n-th set, after deleting every third
    big = create(api)
    model = {}
    for i in range(300):
        k = b"key%03d" % i
        set_(api, big, k, b"v%d" % i)
        model[k] = b"v%d" % i
    for i in range(0, 300, 3):
        must(api.Info_delete(big, b"key%03d" % i), "delete")
        del model[b"key%03d" % i]
    check(p + "300 keys minus every third: order and values", pairs(api, big),
          list(model.items()))
    for x in (h, d, big):
        free(api, x)


# ---- truncation in MPI_Info_get (reference.md, "MPI_Info_get") -----------------------------------

def section_truncation(api):
    p = api.prefix
    v = b"abcdefghij"
    h = make(api, [(b"t", v)])
    for valuelen in list(range(0, 13)) + [100, MPI_MAX_INFO_VAL - 1, MPI_MAX_INFO_VAL]:
        size = max(valuelen + 1, 40)
        b = sentbuf(size)
        flag = c_int(SENT_INT)
        rc = api.Info_get(h, b"t", valuelen, b, byref(flag))
        check("%sget valuelen=%d rc (truncation is not an error)" % (p, valuelen), rc,
              MPI_SUCCESS)
        check("%sget valuelen=%d flag" % (p, valuelen), flag.value, 1)
        check("%sget valuelen=%d bytes written" % (p, valuelen), b.raw,
              written(v[:valuelen] + b"\0", size))
    free(api, h)


# ---- MPI_Info_get_string sizing (reference.md, "MPI_Info_get_string") ----------------------------

def section_get_string(api):
    p = api.prefix
    v = b"0123456789"      # 10 chars: needs 11 bytes
    h = make(api, [(b"s", v)])

    bl, flag = c_int(0), c_int(SENT_INT)
    check(p + "get_string *buflen 0, NULL buffer: rc",
          api.Info_get_string(h, b"s", byref(bl), None, byref(flag)), MPI_SUCCESS)
    check(p + "get_string *buflen 0: (flag, *buflen = len+1)", (flag.value, bl.value), (1, 11))

    bl, flag, b = c_int(0), c_int(SENT_INT), sentbuf(32)
    api.Info_get_string(h, b"s", byref(bl), b, byref(flag))
    check(p + "get_string *buflen 0 with a buffer: (flag, buflen, buffer untouched)",
          (flag.value, bl.value, b.raw), (1, 11, written(b"", 32)))

    for buflen in (1, 2, 4, 10, 11, 12, 32):
        bl, flag, b = c_int(buflen), c_int(SENT_INT), sentbuf(40)
        rc = api.Info_get_string(h, b"s", byref(bl), b, byref(flag))
        check("%sget_string *buflen=%d rc" % (p, buflen), rc, MPI_SUCCESS)
        check("%sget_string *buflen=%d (flag, *buflen)" % (p, buflen),
              (flag.value, bl.value), (1, 11))
        check("%sget_string *buflen=%d bytes: min(len, buflen-1) chars, NUL, nothing more"
              % (p, buflen), b.raw, written(v[:buflen - 1] + b"\0", 40))

    for start in (0, 7):
        bl, flag, b = c_int(start), c_int(SENT_INT), sentbuf(32)
        rc = api.Info_get_string(h, b"missing", byref(bl), b, byref(flag))
        check("%sget_string missing key, *buflen=%d: rc" % (p, start), rc, MPI_SUCCESS)
        check("%sget_string missing key, *buflen=%d: flag 0, *buflen and buffer untouched"
              % (p, start), (flag.value, bl.value, b.raw), (0, start, written(b"", 32)))
    bl, flag = c_int(0), c_int(SENT_INT)
    check(p + "get_string missing key, *buflen 0, NULL buffer",
          (api.Info_get_string(h, b"missing", byref(bl), None, byref(flag)), flag.value, bl.value),
          (MPI_SUCCESS, 0, 0))

    set_(api, h, b"e", b"")
    bl, flag, b = c_int(5), c_int(SENT_INT), sentbuf(8)
    api.Info_get_string(h, b"e", byref(bl), b, byref(flag))
    check(p + "get_string of the empty value: (flag, *buflen 1, just a NUL)",
          (flag.value, bl.value, b.raw), (1, 1, written(b"\0", 8)))
    free(api, h)


# ---- limits and bytes (reference.md, "Types and constants", "Strings") ---------------------------

def section_limits(api):
    p = api.prefix
    h = create(api)
    k255 = bytes((0x41 + i % 26) for i in range(255))
    k256 = k255 + b"Z"
    v1023 = bytes((0x61 + i % 26) for i in range(1023))
    v1024 = v1023 + b"z"

    check(p + "set a 255-byte key", api.Info_set(h, k255, b"long key"), MPI_SUCCESS)
    check(p + "get the 255-byte key", value(api, h, k255), b"long key")
    b = sentbuf(MPI_MAX_INFO_KEY + 8)
    check(p + "get_nthkey of the 255-byte key rc", api.Info_get_nthkey(h, 0, b), MPI_SUCCESS)
    check(p + "get_nthkey of the 255-byte key: whole, NUL, 256 bytes written", b.raw,
          written(k255 + b"\0", MPI_MAX_INFO_KEY + 8))
    b = sentbuf(MPI_MAX_INFO_KEY)
    check(p + "get_nthkey of the 255-byte key into exactly MPI_MAX_INFO_KEY bytes",
          (api.Info_get_nthkey(h, 0, b), b.raw), (MPI_SUCCESS, k255 + b"\0"))

    for name, key in (("256-byte key", k256), ("unterminated 300-byte key",
                                               unterminated(b"k" * 300))):
        check("%sset with a %s" % (p, name), api.Info_set(h, key, b"v"), MPI_ERR_INFO_KEY)
        o = Outs()
        check("%sget with a %s" % (p, name), api.Info_get(h, key, 63, o.buf, byref(o.flag)),
              MPI_ERR_INFO_KEY)
        check("%sget_valuelen with a %s" % (p, name),
              api.Info_get_valuelen(h, key, byref(o.len), byref(o.flag)), MPI_ERR_INFO_KEY)
        check("%sget_string with a %s" % (p, name),
              api.Info_get_string(h, key, byref(o.len), o.buf, byref(o.flag)), MPI_ERR_INFO_KEY)
        check("%sdelete with a %s" % (p, name), api.Info_delete(h, key), MPI_ERR_INFO_KEY)
        check("%s%s: outputs untouched" % (p, name), o.changed(), [])
    check(p + "after the bad keys the object is unchanged", pairs(api, h), [(k255, b"long key")])
    check(p + "delete the 255-byte key", api.Info_delete(h, k255), MPI_SUCCESS)

    check(p + "set a 1023-byte value", api.Info_set(h, b"v", v1023), MPI_SUCCESS)
    b, flag = sentbuf(MPI_MAX_INFO_VAL + 8), c_int(SENT_INT)
    check(p + "get the 1023-byte value with valuelen MPI_MAX_INFO_VAL",
          (api.Info_get(h, b"v", MPI_MAX_INFO_VAL, b, byref(flag)), flag.value, b.raw),
          (MPI_SUCCESS, 1, written(v1023 + b"\0", MPI_MAX_INFO_VAL + 8)))
    vl, flag = c_int(SENT_INT), c_int(SENT_INT)
    api.Info_get_valuelen(h, b"v", byref(vl), byref(flag))
    check(p + "get_valuelen of the 1023-byte value", (flag.value, vl.value), (1, 1023))
    bl, flag, b = c_int(MPI_MAX_INFO_VAL), c_int(SENT_INT), sentbuf(MPI_MAX_INFO_VAL)
    check(p + "get_string of the 1023-byte value into MPI_MAX_INFO_VAL bytes",
          (api.Info_get_string(h, b"v", byref(bl), b, byref(flag)), flag.value, bl.value, b.raw),
          (MPI_SUCCESS, 1, 1024, v1023 + b"\0"))

    for name, val in (("1024-byte value", v1024),
                      ("unterminated 1100-byte value", unterminated(b"u" * 1100))):
        check("%sset a %s (existing key)" % (p, name), api.Info_set(h, b"v", val),
              MPI_ERR_INFO_VALUE)
        check("%sset a %s (new key)" % (p, name), api.Info_set(h, b"new", val),
              MPI_ERR_INFO_VALUE)
    check(p + "after the bad values the object is unchanged", pairs(api, h), [(b"v", v1023)])

    # non-UTF-8 bytes round-trip, in keys and values
    nk = b"\xff\xfe\x80key\xc0"
    nv = b"\xc3\x28\xa0\xa1\x01\x7f\xed\xa0\x80 \xf5"
    check(p + "set non-UTF-8 key and value", api.Info_set(h, nk, nv), MPI_SUCCESS)
    check(p + "non-UTF-8 round trip via get", value(api, h, nk), nv)
    check(p + "non-UTF-8 key via get_nthkey", nthkey(api, h, 1), nk)
    bl, flag, b = c_int(64), c_int(SENT_INT), sentbuf(64)
    api.Info_get_string(h, nk, byref(bl), b, byref(flag))
    check(p + "non-UTF-8 round trip via get_string", (flag.value, bl.value, b.raw),
          (1, len(nv) + 1, written(nv + b"\0", 64)))
    check(p + "a near-miss of the non-UTF-8 key is missing", value(api, h, nk[:-1]), None)
    check(p + "delete the non-UTF-8 key", api.Info_delete(h, nk), MPI_SUCCESS)
    free(api, h)


# ---- wrong arguments (reference.md, "Handles", "Rules every function follows") -------------------

def handle_calls(api, h, o):
    """Every call taking an info handle, with valid other arguments. name -> rc."""
    hv = c_int(h)
    rcs = {
        "set": api.Info_set(h, b"k", b"v"),
        "delete": api.Info_delete(h, b"k"),
        "get": api.Info_get(h, b"k", 63, o.buf, byref(o.flag)),
        "get_valuelen": api.Info_get_valuelen(h, b"k", byref(o.len), byref(o.flag)),
        "get_string": api.Info_get_string(h, b"k", byref(o.len), o.buf, byref(o.flag)),
        "get_nkeys": api.Info_get_nkeys(h, byref(o.len)),
        "get_nthkey": api.Info_get_nthkey(h, 0, o.buf),
        "dup": api.Info_dup(h, byref(o.handle)),
        "free": api.Info_free(byref(hv)),
    }
    return rcs, hv.value


def section_bad_handles(api):
    p = api.prefix
    for name, h in [("0", 0), ("-1", -1), ("INT_MAX", INT_MAX), ("INT_MIN", INT_MIN),
                    ("freed", freed_handle(api)), ("MPI_INFO_NULL", MPI_INFO_NULL)]:
        o = Outs()
        rcs, after = handle_calls(api, h, o)
        for fn, rc in rcs.items():
            check("%sInfo_%s on handle %s" % (p, fn, name), rc, MPI_ERR_INFO)
        check("%shandle %s: outputs untouched" % (p, name), o.changed(), [])
        check("%sInfo_free on handle %s: *info untouched" % (p, name), after, h)

    # MPI_INFO_ENV is read-only: set, delete, free are MPI_ERR_INFO and change nothing
    env_before = pairs(api, MPI_INFO_ENV)
    check(p + "set on MPI_INFO_ENV", api.Info_set(MPI_INFO_ENV, b"k", b"v"), MPI_ERR_INFO)
    check(p + "set on MPI_INFO_ENV (existing key)", api.Info_set(MPI_INFO_ENV, b"soft", b"2"),
          MPI_ERR_INFO)
    check(p + "delete on MPI_INFO_ENV", api.Info_delete(MPI_INFO_ENV, b"soft"), MPI_ERR_INFO)
    hv = c_int(MPI_INFO_ENV)
    check(p + "free on MPI_INFO_ENV", api.Info_free(byref(hv)), MPI_ERR_INFO)
    check(p + "free on MPI_INFO_ENV leaves *info", hv.value, MPI_INFO_ENV)
    check(p + "MPI_INFO_ENV unchanged after the refused calls", pairs(api, MPI_INFO_ENV),
          env_before)


def section_bad_args(api):
    p = api.prefix
    h = make(api, [(b"k", b"value"), (b"k2", b"v2")])
    before = pairs(api, h)
    bad_keys = [("NULL key", None), ("empty key", b""), ("256-byte key", b"x" * 256)]

    for kname, key in bad_keys:
        o = Outs()
        check("%sset with %s" % (p, kname), api.Info_set(h, key, b"v"), MPI_ERR_INFO_KEY)
        check("%sdelete with %s" % (p, kname), api.Info_delete(h, key), MPI_ERR_INFO_KEY)
        check("%sget with %s" % (p, kname), api.Info_get(h, key, 63, o.buf, byref(o.flag)),
              MPI_ERR_INFO_KEY)
        check("%sget_valuelen with %s" % (p, kname),
              api.Info_get_valuelen(h, key, byref(o.len), byref(o.flag)), MPI_ERR_INFO_KEY)
        check("%sget_string with %s" % (p, kname),
              api.Info_get_string(h, key, byref(o.len), o.buf, byref(o.flag)), MPI_ERR_INFO_KEY)
        check("%s%s: outputs untouched" % (p, kname), o.changed(), [])

    check(p + "set with a NULL value (existing key)", api.Info_set(h, b"k", None),
          MPI_ERR_INFO_VALUE)
    check(p + "set with a NULL value (new key)", api.Info_set(h, b"new", None), MPI_ERR_INFO_VALUE)

    # output arguments NULL or lengths negative: MPI_ERR_ARG, for a present and a missing key
    for key in (b"k", b"missing"):
        kn = "(%s key)" % ("present" if key == b"k" else "missing")
        for name, call in [
            ("get valuelen -1", lambda o: api.Info_get(h, key, -1, o.buf, byref(o.flag))),
            ("get valuelen INT_MIN",
             lambda o: api.Info_get(h, key, INT_MIN, o.buf, byref(o.flag))),
            ("get NULL value", lambda o: api.Info_get(h, key, 63, None, byref(o.flag))),
            ("get NULL flag", lambda o: api.Info_get(h, key, 63, o.buf, None)),
            ("get_valuelen NULL valuelen",
             lambda o: api.Info_get_valuelen(h, key, None, byref(o.flag))),
            ("get_valuelen NULL flag", lambda o: api.Info_get_valuelen(h, key, byref(o.len), None)),
            ("get_string NULL buflen",
             lambda o: api.Info_get_string(h, key, None, o.buf, byref(o.flag))),
            ("get_string NULL value with *buflen > 0",
             lambda o: api.Info_get_string(h, key, byref(o.len), None, byref(o.flag))),
            ("get_string NULL flag",
             lambda o: api.Info_get_string(h, key, byref(o.len), o.buf, None)),
        ]:
            o = Outs()
            check("%s%s %s" % (p, name, kn), call(o), MPI_ERR_ARG)
            check("%s%s %s: outputs untouched" % (p, name, kn), o.changed(), [])
        for neg in (-1, INT_MIN):
            o = Outs(buflen=neg)
            check("%sget_string *buflen=%d %s" % (p, neg, kn),
                  api.Info_get_string(h, key, byref(o.len), o.buf, byref(o.flag)), MPI_ERR_ARG)
            check("%sget_string *buflen=%d %s: outputs untouched" % (p, neg, kn), o.changed(), [])

    check(p + "get_nkeys NULL", api.Info_get_nkeys(h, None), MPI_ERR_ARG)
    for n in (-1, 2, 3, INT_MAX, INT_MIN):
        b = sentbuf(32)
        check("%sget_nthkey n=%d of 2 keys" % (p, n), api.Info_get_nthkey(h, n, b), MPI_ERR_ARG)
        check("%sget_nthkey n=%d: buffer untouched" % (p, n), b.raw, written(b"", 32))
    check(p + "get_nthkey NULL key", api.Info_get_nthkey(h, 0, None), MPI_ERR_ARG)
    e = create(api)
    check(p + "get_nthkey n=0 of an empty object", api.Info_get_nthkey(e, 0, sentbuf(8)),
          MPI_ERR_ARG)
    free(api, e)
    check(p + "dup NULL newinfo", api.Info_dup(h, None), MPI_ERR_ARG)
    check(p + "free NULL", api.Info_free(None), MPI_ERR_ARG)
    check(p + "create NULL", api.Info_create(None), MPI_ERR_ARG)

    check(p + "delete a missing key", api.Info_delete(h, b"missing"), MPI_ERR_INFO_NOKEY)
    check(p + "delete a key differing in case", api.Info_delete(h, b"K"), MPI_ERR_INFO_NOKEY)
    check(p + "after all the errors the object is unchanged", pairs(api, h), before)

    # two bad arguments: the leftmost decides
    dead = freed_handle(api)
    k256 = b"x" * 256
    v1024 = b"y" * 1024
    o = Outs()
    for name, rc, want in [
        ("set(NULL handle, NULL key, NULL value)",
         api.Info_set(MPI_INFO_NULL, None, None), MPI_ERR_INFO),
        ("set(ENV, 256 key, 1024 value)", api.Info_set(MPI_INFO_ENV, k256, v1024), MPI_ERR_INFO),
        ("set(ok, NULL key, NULL value)", api.Info_set(h, None, None), MPI_ERR_INFO_KEY),
        ("set(ok, 256 key, 1024 value)", api.Info_set(h, k256, v1024), MPI_ERR_INFO_KEY),
        ("delete(ENV, NULL key)", api.Info_delete(MPI_INFO_ENV, None), MPI_ERR_INFO),
        ("delete(freed, missing key)", api.Info_delete(dead, b"missing"), MPI_ERR_INFO),
        ("delete(ok, empty key)", api.Info_delete(h, b""), MPI_ERR_INFO_KEY),
        ("get(freed, NULL key, -1, NULL, NULL)", api.Info_get(dead, None, -1, None, None),
         MPI_ERR_INFO),
        ("get(ok, empty key, -1, NULL, NULL)", api.Info_get(h, b"", -1, None, None),
         MPI_ERR_INFO_KEY),
        ("get(ok, missing key, -1, buf, flag)",
         api.Info_get(h, b"missing", -1, o.buf, byref(o.flag)), MPI_ERR_ARG),
        ("get_valuelen(-1, 256 key, NULL, NULL)", api.Info_get_valuelen(-1, k256, None, None),
         MPI_ERR_INFO),
        ("get_valuelen(ok, NULL key, NULL, NULL)", api.Info_get_valuelen(h, None, None, None),
         MPI_ERR_INFO_KEY),
        ("get_string(0, NULL key, NULL, NULL, NULL)",
         api.Info_get_string(0, None, None, None, None), MPI_ERR_INFO),
        ("get_string(ENV, 256 key, NULL, NULL, NULL)",
         api.Info_get_string(MPI_INFO_ENV, k256, None, None, None), MPI_ERR_INFO_KEY),
        ("get_nkeys(NULL handle, NULL)", api.Info_get_nkeys(MPI_INFO_NULL, None), MPI_ERR_INFO),
        ("get_nthkey(freed, -1, NULL)", api.Info_get_nthkey(dead, -1, None), MPI_ERR_INFO),
        ("dup(INT_MIN, NULL)", api.Info_dup(INT_MIN, None), MPI_ERR_INFO),
    ]:
        check(p + "two bad arguments: " + name, rc, want)
    check(p + "two bad arguments: outputs untouched", o.changed(), [])
    check(p + "two bad arguments: object unchanged", pairs(api, h), before)
    free(api, h)


# ---- MPI_INFO_ENV and MPI_Info_create_env (reference.md, same title) -----------------------------

def expected_env(argv, wdir):
    """The pairs docs/reference.md gives for this argv (a list of bytes) and working directory."""
    out = []

    def add(k, v):
        if len(v) <= MPI_MAX_INFO_VAL - 1:
            out.append((k, v))

    if argv:
        add(b"command", argv[0])
    if len(argv) > 1:
        add(b"argv", b" ".join(argv[1:]))
    add(b"maxprocs", b"1")
    add(b"soft", b"1")
    add(b"host", os.fsencode(socket.gethostname()))
    add(b"arch", os.fsencode(os.uname().machine))
    add(b"wdir", wdir)
    add(b"thread_level", b"MPI_THREAD_MULTIPLE")
    return out


def c_argv(args):
    """A char** for args (bytes or None), with a NULL after them as C's argv has."""
    items = list(args) + [None]
    return (c_char_p * len(items))(*items)


def create_env(api, argc, argv):
    """(rc, pairs or None, handle value) of create_env(argc, argv, &info)."""
    hv = c_int(SENT_INT)
    rc = api.Info_create_env(argc, argv, byref(hv))
    if rc != MPI_SUCCESS:
        return rc, None, hv.value
    got = pairs(api, hv.value)
    free(api, hv.value)
    return rc, got, hv.value


def section_env(api):
    p = api.prefix
    own = [os.fsencode(a) for a in sys.orig_argv]
    want = expected_env(own, os.getcwdb())
    got = pairs(api, MPI_INFO_ENV)
    check(p + "MPI_INFO_ENV pairs for this interpreter's command line", got, want)
    check(p + "MPI_INFO_ENV command is sys.orig_argv[0]", value(api, MPI_INFO_ENV, b"command"),
          own[0] if len(own[0]) < MPI_MAX_INFO_VAL else None)
    joined = b" ".join(own[1:])
    check(p + "MPI_INFO_ENV argv is ' '.join(sys.orig_argv[1:])",
          value(api, MPI_INFO_ENV, b"argv"),
          joined if len(own) > 1 and len(joined) < MPI_MAX_INFO_VAL else None)
    bl, flag, b = c_int(0), c_int(SENT_INT), None
    check(p + "get_string on MPI_INFO_ENV sizes thread_level",
          (api.Info_get_string(MPI_INFO_ENV, b"thread_level", byref(bl), b, byref(flag)),
           flag.value, bl.value), (MPI_SUCCESS, 1, len(b"MPI_THREAD_MULTIPLE") + 1))

    d = dup(api, MPI_INFO_ENV)
    check(p + "dup of MPI_INFO_ENV has its pairs", pairs(api, d), got)
    check(p + "dup of MPI_INFO_ENV is writable", api.Info_set(d, b"soft", b"2"), MPI_SUCCESS)
    check(p + "dup of MPI_INFO_ENV: delete works", api.Info_delete(d, b"maxprocs"), MPI_SUCCESS)
    check(p + "MPI_INFO_ENV unchanged by its dup's changes", pairs(api, MPI_INFO_ENV), got)
    free(api, d)

    rc, env_pairs, _ = create_env(api, len(own), c_argv(own))
    check(p + "create_env with sys.orig_argv gives MPI_INFO_ENV's pairs", (rc, env_pairs),
          (MPI_SUCCESS, got))

    cwd = os.getcwdb()
    cases = [
        ("argc 0", []),
        ("argc 1", [b"prog"]),
        ("spaces inside arguments", [b"/bin/prog", b"a b", b"c", b"  d"]),
        ("non-UTF-8 arguments", [b"\xffprog", b"\xc3\x28", b"\x80"]),
        ("empty argument", [b"prog", b"", b"x"]),
        ("command of 1023 chars", [b"c" * 1023]),
        ("command of 1024 chars (left out)", [b"c" * 1024, b"arg"]),
        ("argv joined to 1023 chars", [b"prog", b"a" * 511, b"b" * 511]),
        ("argv joined to 1024 chars (left out)", [b"prog", b"a" * 511, b"b" * 512]),
        ("one argument of 1023 chars", [b"prog", b"q" * 1023]),
    ]
    for name, args in cases:
        rc, got_pairs, _ = create_env(api, len(args), c_argv(args))
        check("%screate_env %s" % (p, name), (rc, got_pairs),
              (MPI_SUCCESS, expected_env(args, cwd)))
    rc, got_pairs, _ = create_env(api, 0, None)
    check(p + "create_env(0, NULL)", (rc, got_pairs), (MPI_SUCCESS, expected_env([], cwd)))
    rc, got_pairs, _ = create_env(api, 2, c_argv([b"p", b"x", b"not counted"]))
    check(p + "create_env reads only argc entries", (rc, got_pairs),
          (MPI_SUCCESS, expected_env([b"p", b"x"], cwd)))

    # independent new objects
    h1, h2 = c_int(SENT_INT), c_int(SENT_INT)
    argv = c_argv([b"prog", b"one"])
    must(api.Info_create_env(2, argv, byref(h1)), "create_env")
    must(api.Info_create_env(2, argv, byref(h2)), "create_env")
    check(p + "create_env gives distinct handles",
          h1.value != h2.value and MPI_INFO_ENV not in (h1.value, h2.value), True)
    set_(api, h1.value, b"argv", b"changed")
    check(p + "create_env objects are independent", value(api, h2.value, b"argv"), b"one")
    free(api, h1.value)
    free(api, h2.value)

    for name, argc, argv, with_out in [
        ("argc -1", -1, c_argv([b"p"]), True),
        ("argc INT_MIN", INT_MIN, None, True),
        ("NULL argv with argc 1", 1, None, True),
        ("NULL argv[0]", 1, c_argv([None]), True),
        ("NULL argv[1] with argc 3", 3, c_argv([b"p", None, b"x"]), True),
        ("NULL info", 1, c_argv([b"p"]), False),
        ("argc -1 and NULL info", -1, None, False),
    ]:
        hv = c_int(SENT_INT)
        rc = api.Info_create_env(argc, argv, byref(hv) if with_out else None)
        check("%screate_env %s" % (p, name), (rc, hv.value), (MPI_ERR_ARG, SENT_INT))


# ---- the two families together (reference.md, "Profiling names") ---------------------------------

def section_mixed(mpi, pmpi, messages):
    check("Error_string messages: MPI_ and PMPI_ agree", messages.get("PMPI_"),
          messages.get("MPI_"))
    h = create(mpi)
    set_(pmpi, h, b"who", b"pmpi")
    check("MPI_Info_get sees what PMPI_Info_set wrote", value(mpi, h, b"who"), b"pmpi")
    d = dup(pmpi, h)
    check("PMPI_ dup read with MPI_", pairs(mpi, d), [(b"who", b"pmpi")])
    free(mpi, d)
    check("PMPI_Info_get_nkeys on a handle freed with MPI_Info_free",
          pmpi.Info_get_nkeys(d, byref(c_int())), MPI_ERR_INFO)
    free(pmpi, h)
    check("MPI_Info_set on a handle freed with PMPI_Info_free", mpi.Info_set(h, b"a", b"b"),
          MPI_ERR_INFO)
    check("MPI_INFO_ENV: MPI_ and PMPI_ agree", pairs(pmpi, MPI_INFO_ENV),
          pairs(mpi, MPI_INFO_ENV))


# ---- threads (reference.md, "Threads") -----------------------------------------------------------

N_THREADS = 32
ITERS = 200 // (20 if os.environ.get("MPI_INFO_UNDER_VALGRIND") else 1)


def value_for(key):
    """The one value a thread ever stores under key: any copy seen can be verified."""
    return (b"<" + key + b">") * (1 + len(key) % 5)


def thread_key(t, i):
    return b"t%02d_k%04d" % (t, i)


def common_value(t, i):
    """What thread t writes to the shared key "common" in iteration i (72 bytes)."""
    return (b"t%02d-%04d;" % (t, i)) * 8


def whole_common(v):
    """The whole common_value that v starts like (v itself if v is one whole value)."""
    m = re.match(rb"t(\d\d)-(\d{4});", v or b"")
    return common_value(int(m.group(1)), int(m.group(2))) if m else b"(a common_value)"


class Worker:
    """A thread's own failure record (the first few) and the handles it created."""

    def __init__(self, api, t):
        self.api, self.t = api, t
        self.errors = []
        self.handles = []
        self.model = {}

    def expect(self, what, got, want):
        if got != want and len(self.errors) < 3:
            self.errors.append("%s: expected %s, got %s" % (what, _short(want, 80),
                                                            _short(got, 80)))

    def run(self, body):
        try:
            body()
        except Exception as e:
            self.errors.append("exception: %r" % e)


def own_object_body(w):
    api, t = w.api, w.t
    h = create(api)
    w.handles.append(h)
    for i in range(ITERS):
        k = thread_key(t, i)
        w.expect("set", api.Info_set(h, k, value_for(k)), MPI_SUCCESS)
        w.model[k] = value_for(k)
        w.expect("get %r" % k, value(api, h, k), value_for(k))
        if i % 5 == 4:                      # replace an earlier key: keeps its place
            old = thread_key(t, i - 2)
            w.expect("replace", api.Info_set(h, old, b"r" + value_for(old)), MPI_SUCCESS)
            w.model[old] = b"r" + value_for(old)
        if i % 4 == 3:                      # delete the one before
            gone = thread_key(t, i - 1)
            w.expect("delete", api.Info_delete(h, gone), MPI_SUCCESS)
            del w.model[gone]
        if i % 25 == 24:                    # dup, verify everything, change the dup, free it
            d = dup(api, h)
            w.handles.append(d)
            w.expect("dup contents", pairs(api, d), list(w.model.items()))
            set_(api, d, b"dup_only", b"x")
            w.expect("source unchanged by the dup", nkeys(api, h), len(w.model))
            dv = c_int(d)
            w.expect("free dup", (api.Info_free(byref(dv)), dv.value), (MPI_SUCCESS, MPI_INFO_NULL))
            w.expect("dup dead", api.Info_get_nkeys(d, byref(c_int())), MPI_ERR_INFO)
    w.expect("final contents", pairs(api, h), list(w.model.items()))
    w.own = h


def shared_object_body(w, shared):
    api, t = w.api, w.t
    for i in range(ITERS):
        k = thread_key(t, i)
        w.expect("set", api.Info_set(shared, k, value_for(k)), MPI_SUCCESS)
        w.model[k] = value_for(k)
        w.expect("get own key", value(api, shared, k), value_for(k))
        w.expect("set common", api.Info_set(shared, b"common", common_value(t, i)), MPI_SUCCESS)
        seen = value(api, shared, b"common")
        w.expect("common is one whole value", seen, whole_common(seen))
        w.expect("ENV from a thread", value(api, MPI_INFO_ENV, b"thread_level"),
                 b"MPI_THREAD_MULTIPLE")
        if i % 4 == 3:
            gone = thread_key(t, i - 1)
            w.expect("delete own key", api.Info_delete(shared, gone), MPI_SUCCESS)
            del w.model[gone]
            w.expect("deleted key gone", value(api, shared, gone), None)
        tmp = create(api)                   # a short-lived object on the side
        w.handles.append(tmp)
        set_(api, tmp, b"tmp", k)
        w.expect("temporary object", value(api, tmp, b"tmp"), k)
        free(api, tmp)
        w.expect("temporary object dead", api.Info_get(tmp, b"tmp", 8, sentbuf(16),
                                                        byref(c_int())), MPI_ERR_INFO)
        if i % 25 == 24:                    # a dup: own keys exact, others whole
            d = dup(api, shared)
            w.handles.append(d)
            w.expect("own keys in the dup", [value(api, d, x) for x in w.model],
                     list(w.model.values()))
            n = nkeys(api, d)
            w.expect("dup has at least the own keys", n >= len(w.model) + 1, True)
            for j in (0, n // 3, n // 2, n - 1):
                x = nthkey(api, d, j)
                got = value(api, d, x)
                want = value_for(x) if x != b"common" else whole_common(got)
                w.expect("dup key %r whole" % x, got, want)
            free(api, d)


def start_threads(api_for, body, *args):
    workers = [Worker(api_for(t), t) for t in range(N_THREADS)]
    threads = [threading.Thread(target=w.run, args=(lambda w=w: body(w, *args),))
               for w in workers]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return workers


def section_threads(mpi, pmpi):
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)             # switch threads often, so the calls interleave
    try:
        api_for = lambda t: pmpi if t % 2 else mpi
        workers = start_threads(api_for, own_object_body)
        for w in workers:
            check("threads, own objects: thread %d (%s)" % (w.t, w.api.prefix), w.errors, [])
        owns = [getattr(w, "own", None) for w in workers]
        check("threads, own objects: all objects distinct", len(set(owns)), N_THREADS)
        check("threads, own objects: nothing lost after the join",
              [pairs(mpi, h) for h in owns], [list(w.model.items()) for w in workers])
        for h in owns:
            free(mpi, h)

        shared = create(mpi)
        set_(mpi, shared, b"common", b"start")
        sworkers = start_threads(api_for, shared_object_body, shared)
        for w in sworkers:
            check("threads, shared object: thread %d (%s)" % (w.t, w.api.prefix), w.errors, [])
        final = pairs(mpi, shared)
        check("threads, shared object: 'common' stays first", final[0][0], b"common")
        check("threads, shared object: 'common' is one whole value", final[0][1],
              whole_common(final[0][1]))
        check("threads, shared object: nkeys", len(final),
              1 + sum(len(w.model) for w in sworkers))
        got = dict(final[1:])
        want = {}
        for w in sworkers:
            want.update(w.model)
        check("threads, shared object: every key and value, none lost, none extra", got, want)
        for w in sworkers:
            mine = [k for k, _ in final if k.startswith(b"t%02d_" % w.t)]
            check("threads, shared object: thread %d's keys in its own order" % w.t, mine,
                  list(w.model))
        free(mpi, shared)

        handles = [h for w in workers + sworkers for h in w.handles]
        check("threads: no handle handed out twice", len(set(handles)), len(handles))
        check("threads: every handle >= 4096", [h for h in handles if h < 4096], [])
    finally:
        sys.setswitchinterval(old)


# ---- main ------------------------------------------------------------------------------------------

def main():
    if len(sys.argv) < 2:
        print("usage: %s PATH/TO/libmpi_info.so [extra arguments...]" % sys.argv[0],
              file=sys.stderr)
        fail("arguments", "no library path given")
        return
    try:
        lib = ctypes.CDLL(os.path.abspath(sys.argv[1]))
        mpi, pmpi = Api(lib, "MPI_"), Api(lib, "PMPI_")
    except (OSError, AttributeError) as e:
        fail("loading %s" % sys.argv[1], repr(e))
        return

    messages = {}
    for api in (mpi, pmpi):
        # MPI_INFO_ENV first: its wdir is the directory at the load above, as now
        run_section(api.prefix + "env", section_env, api)
        run_section(api.prefix + "errors", section_errors, api, messages)
        run_section(api.prefix + "handles", section_handles, api)
        run_section(api.prefix + "basic", section_basic, api)
        run_section(api.prefix + "order", section_order, api)
        run_section(api.prefix + "truncation", section_truncation, api)
        run_section(api.prefix + "get_string", section_get_string, api)
        run_section(api.prefix + "limits", section_limits, api)
        run_section(api.prefix + "bad handles", section_bad_handles, api)
        run_section(api.prefix + "bad arguments", section_bad_args, api)
    run_section("mixed", section_mixed, mpi, pmpi, messages)
    run_section("threads", section_threads, mpi, pmpi)


if __name__ == "__main__":
    main()
    print("test_ctypes: %d passed, %d failed" % (_passed, _failed), flush=True)
    sys.exit(1 if _failed else 0)
