#!/usr/bin/env bash
# `make install` into a temporary prefix (with DESTDIR), then build and run examples/hints.c
# with nothing but what pkg-config says, dynamically and statically, the same for a program
# written against the standard ABI build (mpi_info_abi.h, libmpi_info_abi), and the Fortran
# programs below; then `make uninstall`, which must leave exactly what was there before: a
# header of another package in the include directory (so that directory stays), an empty
# directory that existed before (it stays too), and no file or directory of this package.
set -u
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}; CC=${CC:-cc}
passed=0; failed=0
check() {
    local what=$1; shift
    if "$@" >/tmp/install_test.$$ 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $what"; tail -n 20 /tmp/install_test.$$; fi
}
stage=$(mktemp -d); trap 'rm -rf "$stage" /tmp/install_test.$$' EXIT
prefix=/opt/mpi-info-test
root=$stage/root
# What was there before the install.
mkdir -p $root$prefix/include $root$prefix/share/man
echo '/* another package */' >$root$prefix/include/other.h
before=$(cd $root && find . | sort)
check "make install" $MAKE --no-print-directory install PREFIX=$prefix DESTDIR=$root
lib=$root$prefix/lib
check "versioned library" test -f "$(echo $lib/libmpi_info.so.*.*.*)"
check "soname link"       test -L "$(echo $lib/libmpi_info.so.*.[0-9]* | tr ' ' '\n' | grep -Ev '\.[0-9]+\.[0-9]+\.[0-9]+$' | head -n 1)"
check "dev link"          test -L $lib/libmpi_info.so
check "soname matches link" sh -c "readelf -d $lib/libmpi_info.so | grep -q \"SONAME.*\$(basename \$(readlink $lib/libmpi_info.so))\""
check "static library"    test -f $lib/libmpi_info.a
# Installed without debug information (make install DEBUG_INFO=1 keeps it: the private prefix
# below), with the symbol tables kept.
no_debug_info() { readelf -S --wide "$1" >$stage/sections && grep -q '\.symtab' $stage/sections && ! grep -Eq '\.debug_(info|line|str|abbrev|ranges|rnglists|loclists)' $stage/sections; }
check "libmpi_info.so has no debug information"     no_debug_info $lib/libmpi_info.so
check "libmpi_info.a has no debug information"      no_debug_info $lib/libmpi_info.a
check "libmpi_info_abi.so has no debug information" no_debug_info $lib/libmpi_info_abi.so
check "libmpi_info_abi.a has no debug information"  no_debug_info $lib/libmpi_info_abi.a
check "mpi-info-lint has no debug information"      no_debug_info $root$prefix/bin/mpi-info-lint
check "libmpi_info.so at most 1.1 MB (BENCHMARKS.md, Size)" test "$(stat -L -c %s $lib/libmpi_info.so)" -le 1153434
check "the archive keeps its symbol table (its PMPI_ names)" sh -c "nm $lib/libmpi_info.a 2>/dev/null | grep -q ' T PMPI_Info_create\$'"
check "the version script"  test -f $root$prefix/share/mpi-info/mpi_info.map
check "header"            test -f $root$prefix/include/mpi_info.h
check "pkg-config file"   test -f $lib/pkgconfig/mpi-info.pc
# The .pc file names the final prefix; point pkg-config at the staged tree.
export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
flags=$(pkg-config --cflags --libs mpi-info)
check "pkg-config answers" test -n "$flags"
check "build with pkg-config" sh -c "$CC -std=c99 -Wall -Werror examples/hints.c $flags -o $stage/hints"
check "run it"                env LD_LIBRARY_PATH=$lib $stage/hints
# The README's first C example, as written: it builds and runs with pkg-config's flags, and
# leads with MPI_Info_get_string, not MPI_Info_get (deprecated since MPI-4.0).
awk '/^```c$/ {on = 1; next} on && /^```$/ {exit} on' README.md >$stage/readme.c
check "README's C example uses no deprecated MPI_Info_get" sh -c "grep -q MPI_Info_get_string $stage/readme.c && ! grep -q 'MPI_Info_get(' $stage/readme.c"
check "README's C example builds with pkg-config" sh -c "$CC -std=c99 -Wall -Wextra -Werror $stage/readme.c $flags -o $stage/readme"
check "README's C example runs" sh -c "test \"\$(env LD_LIBRARY_PATH=$lib $stage/readme)\" = 'cb_buffer_size = 16777216'"
check "static build with pkg-config" sh -c "$CC -std=c99 -Wall -Werror examples/hints.c -static-libgcc $(pkg-config --cflags mpi-info) $lib/libmpi_info.a -Wl,--gc-sections $(pkg-config --static --libs-only-l mpi-info | sed 's/-lmpi_info//') -o $stage/hints_static"
check "run the static build"  sh -c "env -u LD_LIBRARY_PATH $stage/hints_static >/dev/null"
check "static build needs no libmpi_info.so" sh -c "! ldd $stage/hints_static | grep -q libmpi_info"
check "static build, as the README links it, at most 1.5 MB (BENCHMARKS.md, Size)" test "$(stat -c %s $stage/hints_static)" -le 1572864

# The standard ABI build: its own versioned library, soname link, archive, header and
# pkg-config file, installed beside libmpi_info's. The program below is written against
# mpi_info_abi.h: a handle is a pointer, and its integer form (MPI_Info_toint) converts back to
# the same handle; it fails at run time if the header or the library is the integer one (which
# would read a pointer with bits set above 32 as the integer in its low bits).
abi_real=$(echo $lib/libmpi_info_abi.so.*.*.*)
abi_soname=$(readelf -d "$abi_real" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
check "ABI: versioned library" test -f "$abi_real" -a ! -L "$abi_real"
check "ABI: soname is libmpi_info_abi.so.<ABI version>" sh -c "echo '$abi_soname' | grep -Eqx 'libmpi_info_abi\.so\.[0-9]+(\.[0-9]+)?'"
check "ABI: soname link to the versioned library" test -L "$lib/$abi_soname" -a "$(readlink "$lib/$abi_soname" 2>/dev/null)" = "$(basename "$abi_real")"
check "ABI: dev link to the soname link" test -L $lib/libmpi_info_abi.so -a "$(readlink $lib/libmpi_info_abi.so)" = "$abi_soname"
check "ABI: static library" test -f $lib/libmpi_info_abi.a
check "ABI: header, as generated" cmp include/mpi_info_abi.h $root$prefix/include/mpi_info_abi.h
check "ABI: pkg-config file" test -f $lib/pkgconfig/mpi-info-abi.pc
cat >"$stage/use_abi.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <mpi_info_abi.h>

/* The predefined handles are address constants, as in the standard ABI's mpi.h. */
static MPI_Info freed_handle = MPI_INFO_NULL;

int main(void) {
    MPI_Info info, same;
    char value[MPI_MAX_INFO_VAL];
    int flag = 0, nkeys = 0;
    /* MPI_INFO_ENV's value with a bit set above the 32 an int holds: no handle. */
    MPI_Info forged = (MPI_Info)((uintptr_t)1 << 32 | 0x131);
    if (sizeof(MPI_Info) != sizeof(void *)) return 1;
    if (MPI_Info_toint(MPI_INFO_NULL) != 0x130 || MPI_Info_fromint(0x131) != MPI_INFO_ENV) return 2;
    if (MPI_Info_toint(forged) != -1 || MPI_Info_get_nkeys(forged, &nkeys) != MPI_ERR_INFO) return 10;
    /* A pointer to the program's own memory is no handle, and is not read through. */
    if (MPI_Info_get_nkeys((MPI_Info)(void *)&freed_handle, &nkeys) != MPI_ERR_INFO) return 11;
    if (MPI_Info_create(&info) != MPI_SUCCESS) return 3;
    /* Far above the standard's predefined handles (below 0x1000). */
    if (MPI_Info_toint(info) < 1 << 20) return 12;
    same = MPI_Info_fromint(MPI_Info_toint(info));
    if (same != info) return 4;
    if (MPI_Info_set(same, "striping_factor", "4") != MPI_SUCCESS) return 5;
    if (MPI_Info_get(info, "striping_factor", MPI_MAX_INFO_VAL - 1, value, &flag) != MPI_SUCCESS) return 6;
    if (!flag || strcmp(value, "4") != 0) return 7;
    if (MPI_Info_free(&info) != MPI_SUCCESS || info != freed_handle) return 8;
    if (MPI_Info_get_nkeys(same, &nkeys) != MPI_ERR_INFO) return 9;
    printf("striping_factor=%s\n", value);
    return 0;
}
C
abiflags=$(pkg-config --cflags --libs mpi-info-abi)
check "ABI: pkg-config answers -lmpi_info_abi" sh -c "echo '$abiflags' | grep -qw -- -lmpi_info_abi"
check "ABI: build with pkg-config" sh -c "$CC -std=c99 -Wall -Wextra -Werror $stage/use_abi.c $abiflags -o $stage/use_abi"
check "ABI: run it" sh -c "test \"\$(env LD_LIBRARY_PATH=$lib $stage/use_abi)\" = striping_factor=4"
loads_abi_only() { local libs; libs=$(env LD_LIBRARY_PATH=$lib ldd "$1") && grep -qF "$abi_soname => $lib/" <<<"$libs" && ! grep -q 'libmpi_info\.so' <<<"$libs"; }
check "ABI: it loads the staged libmpi_info_abi and no libmpi_info" loads_abi_only $stage/use_abi
check "ABI: static build with pkg-config" sh -c "$CC -std=c99 -Wall -Wextra -Werror $stage/use_abi.c -static-libgcc $(pkg-config --cflags mpi-info-abi) $lib/libmpi_info_abi.a $(pkg-config --static --libs-only-l mpi-info-abi | sed 's/-lmpi_info_abi//') -o $stage/use_abi_static"
check "ABI: run the static build" sh -c "test \"\$(env -u LD_LIBRARY_PATH $stage/use_abi_static)\" = striping_factor=4"
check "ABI: static build needs no libmpi_info_abi.so" sh -c "! ldd $stage/use_abi_static | grep -q libmpi_info"
# Fortran: the include file and its parts, and the module sources always; with a Fortran compiler also the
# modules (gfortran's .mod files), libmpi_info_f08.a and mpi-info-f08.pc. A program that uses
# only mpi_info_f08 (examples/hints.f90) builds with -std=f2018 -Wall -Werror and nothing but
# pkg-config, and runs; so do an include-file program and a `use mpi_info` one with mpi-info's
# flags alone (the old-style routines are in libmpi_info itself).
FC=${FC-gfortran}   # make test sets it, empty when the build had no Fortran compiler
inc=$root$prefix/include
check "Fortran include file"  test -f $inc/mpi_infof.h
check "its parts (docs/embedding.md, Fortran)" test -f $inc/mpi_infof_mpi2.h -a -f $inc/mpi_infof_own.h
check "module sources"        test -f $root$prefix/share/mpi-info/fortran/mpi_info_f08.f90
if [ -n "$FC" ] && command -v "$FC" >/dev/null 2>&1; then
    check "modules"           test -f $inc/mpi_info.mod -a -f $inc/mpi_info_f08.mod -a -f $inc/mpi_info_constants.mod
    check "libmpi_info_f08.a" test -f $lib/libmpi_info_f08.a
    check "mpi-info-f08.pc"   test -f $lib/pkgconfig/mpi-info-f08.pc
    f08flags=$(pkg-config --cflags --libs mpi-info-f08)
    check "build hints.f90 (use mpi_info_f08) with pkg-config" sh -c "$FC -std=f2018 -Wall -Werror examples/hints.f90 $f08flags -o $stage/hints_f90"
    check "run it" sh -c "env LD_LIBRARY_PATH=$lib $stage/hints_f90 --hint a=b | grep -q '^  a  *= b\$'"
    printf "      PROGRAM OLD\n      INCLUDE 'mpi_infof.h'\n      INTEGER INFO, IERR\n      CALL MPI_INFO_CREATE(INFO, IERR)\n      CALL MPI_INFO_FREE(INFO, IERR)\n      IF (IERR .NE. MPI_SUCCESS) STOP 1\n      END\n" >$stage/old.f
    printf "program new\n  use mpi_info\n  implicit none\n  integer :: info, ierr\n  call MPI_INFO_CREATE_ENV(info, ierr)\n  call MPI_INFO_FREE(info, ierr)\n  if (ierr /= MPI_SUCCESS) stop 1\nend program\n" >$stage/new.f90
    check "build an include-file program with pkg-config" sh -c "$FC -std=f2018 -Wall -Werror $stage/old.f $flags -o $stage/old"
    check "run it" env LD_LIBRARY_PATH=$lib $stage/old
    check "build a use mpi_info program with pkg-config" sh -c "$FC -std=f2018 -Wall -Werror $stage/new.f90 $flags -o $stage/new"
    check "run it" env LD_LIBRARY_PATH=$lib $stage/new
fi
check "make uninstall" $MAKE --no-print-directory uninstall PREFIX=$prefix DESTDIR=$root
check "no file left"  sh -c "test \"\$(find $root -type f -o -type l)\" = $root$prefix/include/other.h"
check "the tree as before, every directory the install made removed" test "$(cd $root && find . | sort)" = "$before"
check "other.h kept" test -f $root$prefix/include/other.h

# A private prefix: make install PREFIX=<a temporary directory> (no DESTDIR; DEBUG_INFO=1, which
# keeps the debug information), then docs/embedding.md's commands from that prefix with only
# PKG_CONFIG_PATH set and no LD_LIBRARY_PATH: the stub example as written (its run paths, the
# host library's among them, find libmpi_info.so), and the bundling section's link (the archive
# inside the host's shared library, only the MPI names exported).
private=$stage/private; plib=$private/lib
check "install to a private prefix, DEBUG_INFO=1" $MAKE --no-print-directory install PREFIX=$private DEBUG_INFO=1
check "DEBUG_INFO=1 keeps the debug information" sh -c "readelf -S --wide $plib/libmpi_info.so | grep -q '\.debug_info'"
unset PKG_CONFIG_SYSROOT_DIR LD_LIBRARY_PATH
export PKG_CONFIG_PATH=$plib/pkgconfig
guide=$stage/guide; mkdir -p $guide; ln -s "$PWD/examples" $guide/examples
awk '/^## The example: examples\/stub-mpi/ {s = 1} s && /^```sh$/ {on = 1; next} on && /^```$/ {exit} on' docs/embedding.md >$stage/guide.sh
check "the guide's stub example found" grep -q 'layered' $stage/guide.sh
check "the guide's stub example from a private prefix, as written" sh -c "cd $guide && bash -e $stage/guide.sh >$stage/guide.out && grep -q 'broadcast copy: [0-9]* bytes, equal' $stage/guide.out && grep -q 'cb_nodes 4' $stage/guide.out"
check "its libstub_mpi.so finds the prefix's libmpi_info.so by its own run path" sh -c "ldd $guide/libstub_mpi.so | grep -q 'libmpi_info\.so.* => $plib/'"

mapfile=$(pkg-config --variable=mapfile mpi-info)
check "pkg-config names the installed version script" test "$mapfile" = $private/share/mpi-info/mpi_info.map -a -f "$mapfile"
check "mpi-info-abi names the same" test "$(pkg-config --variable=mapfile mpi-info-abi)" = "$mapfile"
mpi_names='^(P?MPIX?_|p?mpi_)'
exported() { nm -D --defined-only "$1" | awk '{print $NF}' | sort -u; }
# $1 the bundle, $2 the shared library whose names it must all export: nothing but MPI names.
only_mpi_names() {
    exported "$1" >$stage/bundle.names && test -s $stage/bundle.names || return 1
    grep -Ev "$mpi_names" $stage/bundle.names >$stage/other.names
    test ! -s $stage/other.names || { echo "$(wc -l <$stage/other.names) other names exported, e.g."; head -n 5 $stage/other.names; return 1; }
    exported "$2" | comm -23 - $stage/bundle.names >$stage/missing
    test ! -s $stage/missing || { echo "not exported:"; head -n 5 $stage/missing; return 1; }
}
static_libs=$(pkg-config --static --libs-only-l mpi-info | sed 's/-lmpi_info//')
bundle=$stage/bundle; mkdir -p $bundle
check "bundle libmpi_info.a into the stub's shared library with the version script" sh -c "$CC -std=c99 -O2 -fPIC -shared -Iexamples/stub-mpi $(pkg-config --cflags mpi-info) examples/stub-mpi/stub_mpi.c -o $bundle/libstub_mpi.so -Wl,--whole-archive $plib/libmpi_info.a -Wl,--no-whole-archive -Wl,--version-script=$mapfile -Wl,--gc-sections $static_libs"
check "it exports only the MPI names, and all of libmpi_info.so's" only_mpi_names $bundle/libstub_mpi.so $plib/libmpi_info.so
check "the stub's own MPI_Init among them" grep -qx MPI_Init $stage/bundle.names
check "layered.c on the bundle builds" sh -c "$CC -std=c99 -DLAYERED_WITH_MPI examples/layered.c -Iexamples/stub-mpi $(pkg-config --cflags mpi-info) -o $bundle/layered -L$bundle -lstub_mpi -Wl,-rpath,$bundle"
check "it runs" sh -c "ROMIO_HINTS=$stage/romio_hints; printf 'cb_nodes 4\n' >\$ROMIO_HINTS; export ROMIO_HINTS; $bundle/layered | grep -q 'broadcast copy: [0-9]* bytes, equal'"
check "it loads no libmpi_info.so" sh -c "ldd $bundle/layered | grep -q libstub_mpi && ! ldd $bundle/layered | grep -q libmpi_info"
check "bundle libmpi_info_abi.a with the version script" sh -c "echo 'int host_private(void) { return 0; }' >$bundle/host.c && $CC -fPIC -shared $bundle/host.c -o $bundle/libhost_abi.so -Wl,--whole-archive $plib/libmpi_info_abi.a -Wl,--no-whole-archive -Wl,--version-script=$mapfile -Wl,--gc-sections $static_libs"
check "it exports only the MPI names, and all of libmpi_info_abi.so's" only_mpi_names $bundle/libhost_abi.so $plib/libmpi_info_abi.so
check "the ABI program on that bundle" sh -c "$CC -std=c99 -Wall -Wextra -Werror $stage/use_abi.c $(pkg-config --cflags mpi-info-abi) -o $bundle/use_abi -L$bundle -lhost_abi -Wl,-rpath,$bundle && test \"\$($bundle/use_abi)\" = striping_factor=4"
echo "install_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
