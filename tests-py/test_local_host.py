#!/usr/bin/env python3
"""test_local_host.py - mpi-info's error functions beside a host library that Python loads.

Usage: python3 test_local_host.py LIBMPI_INFO LIBMPI_INFO_ABI HOST

ctypes.CDLL opens a library with RTLD_LOCAL (ctypes.DEFAULT_MODE), as Python opens every
extension module and the MPI library under it: the host (tests-c/host/local_host.c, built as
"host A") is in no scope that mpi-info's dlsym(RTLD_NEXT) searches. Both builds of mpi-info
and the host are opened that way; then, through the MPI_ and PMPI_ names of each build, the
host's codes 5 and 1005 get the host's messages and class 5, code 1000 (no one's) is
MPI_ERR_ARG with nothing written, and mpi-info's nine codes get mpi-info's messages and are
their own classes. (tests-c/local_host_test.sh runs it; tests-c/host/dlopen_local.c does the
same from C, with more hosts.)

The last line printed is "test_local_host: N passed, M failed"; the exit status is 1 if M > 0.
"""

import ctypes
import sys
from ctypes import POINTER, byref, c_char, c_int

MPI_SUCCESS = 0
MPI_ERR_ARG = 13
MPI_MAX_ERROR_STRING = 512
OWN_CODES = [0, 13, 16, 17, 31, 32, 33, 34, 39]
SENT = 0xA5
SENT_INT = 0x5A5A5A5A

passed = failed = 0


def check(what, got, want):
    global passed, failed
    if got == want:
        passed += 1
    else:
        failed += 1
        print("check failed: %s: got %r, want %r" % (what, got, want))


def declare(lib, name, argtypes):
    function = getattr(lib, name)
    function.restype = c_int
    function.argtypes = argtypes
    return function


def error_functions(lib):
    """(string, class) for the MPI_ and the PMPI_ names, and MPIX_Info_error_string."""
    string_args = [c_int, POINTER(c_char), POINTER(c_int)]
    class_args = [c_int, POINTER(c_int)]
    names = [(declare(lib, p + "Error_string", string_args), declare(lib, p + "Error_class", class_args))
             for p in ("MPI_", "PMPI_")]
    return names, declare(lib, "MPIX_Info_error_string", string_args)


def call_string(function, code):
    buf = ctypes.create_string_buffer(bytes([SENT]) * MPI_MAX_ERROR_STRING, MPI_MAX_ERROR_STRING)
    length = c_int(SENT_INT)
    rc = function(code, buf, byref(length))
    return rc, buf.raw, length.value


def call_class(function, code):
    errorclass = c_int(SENT_INT)
    rc = function(code, byref(errorclass))
    return rc, errorclass.value


def check_library(label, lib):
    pairs, own_string = error_functions(lib)
    untouched = bytes([SENT]) * MPI_MAX_ERROR_STRING
    for prefix, (string, klass) in zip(("MPI_", "PMPI_"), pairs):
        for code in (5, 1005):
            want = b"host A: error %d" % code
            rc, raw, length = call_string(string, code)
            check("%s %sError_string(%d) rc" % (label, prefix, code), rc, MPI_SUCCESS)
            check("%s %sError_string(%d) message" % (label, prefix, code), raw[:len(want) + 1], want + b"\0")
            check("%s %sError_string(%d) resultlen" % (label, prefix, code), length, len(want))
            check("%s %sError_class(%d)" % (label, prefix, code), call_class(klass, code), (MPI_SUCCESS, 5))
        rc, raw, length = call_string(string, 1000)
        check("%s %sError_string(1000)" % (label, prefix), (rc, raw == untouched, length),
              (MPI_ERR_ARG, True, SENT_INT))
        check("%s %sError_class(1000)" % (label, prefix), call_class(klass, 1000), (MPI_ERR_ARG, SENT_INT))
        for code in OWN_CODES:
            want_rc, want_raw, want_length = call_string(own_string, code)
            check("%s MPIX_Info_error_string(%d) rc" % (label, code), want_rc, MPI_SUCCESS)
            rc, raw, length = call_string(string, code)
            check("%s %sError_string(%d)" % (label, prefix, code), (rc, raw, length),
                  (MPI_SUCCESS, want_raw, want_length))
            check("%s %sError_class(%d)" % (label, prefix, code), call_class(klass, code), (MPI_SUCCESS, code))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    int_library, abi_library, host = sys.argv[1:]
    check("ctypes opens libraries with RTLD_LOCAL", ctypes.DEFAULT_MODE, ctypes.RTLD_LOCAL)
    libraries = [("libmpi_info", ctypes.CDLL(int_library)), ("libmpi_info_abi", ctypes.CDLL(abi_library))]
    ctypes.CDLL(host)
    for label, lib in libraries:
        check_library(label, lib)
    print("test_local_host: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
