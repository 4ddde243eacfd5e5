#!/usr/bin/env python3
"""preload_extension.py - a prebuilt extension on a host with no info object, from Python.

Usage: LD_PRELOAD=PATH/TO/libmpi_info.so python3 preload_extension.py EXTENSION NAME

Opens EXTENSION (tests-c/host/preload_checks.c built with -DPRELOAD_EXTENSION, linked only
against a host library whose info functions end the process) with ctypes, RTLD_LOCAL as Python
opens extension modules, and runs its checks (preload_run), which print
"NAME: N passed, M failed". This is docs/embedding.md's preload route under Python, as with
mpi4py over the MPI Forum's mpi-abi-stubs; tests-c/local_host_test.sh runs it for both builds.
"""

import ctypes
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    extension = ctypes.CDLL(sys.argv[1])
    extension.preload_run.restype = ctypes.c_int
    extension.preload_run.argtypes = [ctypes.c_char_p]
    sys.exit(extension.preload_run(sys.argv[2].encode()))


if __name__ == "__main__":
    main()
