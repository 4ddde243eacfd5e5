# Settings every area uses: verbosity, tools, install directories, the version and sonames, the
# build directories and the C flags of the tests and examples.

# V=1 shows the commands that build (compilers, cargo) and a line per test program and per test
# binary; by default they are left out and the suites print a line each (tests-c/run-suite.sh,
# tools/cargo-test.sh), failures with their details.
V ?=
Q := $(if $(filter 1,$(V)),,@)
export SUITE_VERBOSE := $(if $(filter 1,$(V)),1)

CARGO   ?= cargo
CC      ?= cc
CXX     ?= c++
# The system's Python (Debian's runs clean under valgrind; a pyenv shim would hide the
# interpreter from it).
PYTHON  ?= $(firstword $(wildcard /usr/bin/python3) python3)
OBJCOPY ?= objcopy
# The Fortran compiler (mk/fortran.mk): gfortran unless given; without it make skips the
# Fortran parts and says so.
ifeq ($(origin FC),default)
FC := gfortran
endif
HAVE_FC := $(if $(shell command -v $(FC) 2>/dev/null),yes)

PREFIX  ?= /usr/local
DESTDIR ?=
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
PKGDATADIR ?= $(PREFIX)/share/mpi-info
MANDIR ?= $(PREFIX)/share/man
BINDIR ?= $(PREFIX)/bin

VERSION  := $(shell sed -n 's/^version = "\([^"]*\)"/\1/p' Cargo.toml | head -n 1)
MAJOR    := $(word 1,$(subst ., ,$(VERSION)))
MINOR    := $(word 2,$(subst ., ,$(VERSION)))
# Before 1.0 a minor release may break the ABI, so the soname carries it (as cargo-c does).
soname    = $(1).so.$(if $(filter 0,$(MAJOR)),0.$(MINOR),$(MAJOR))
SONAME   := $(call soname,libmpi_info)
REALNAME := libmpi_info.so.$(VERSION)
# The MPI-5.0 standard ABI build of the same sources (cargo feature abi: pointer handles,
# include/mpi_info_abi.h, no Fortran routines), in a target directory of its own.
ABI_SONAME   := $(call soname,libmpi_info_abi)
ABI_REALNAME := libmpi_info_abi.so.$(VERSION)
ABI_TARGET   := target/abi

OUT := build
LIB := $(OUT)/lib
TEST_CFLAGS := -std=c99 -Wall -Wextra -Werror -g -O1 -Iinclude -Itests-c
EXAMPLE_CFLAGS := -std=c99 -Wall -Wextra -Werror -O2 -Iinclude
comma := ,
