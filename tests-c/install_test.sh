#!/usr/bin/env bash
# `make install` into a temporary prefix (with DESTDIR), then build and run examples/hints.c
# with nothing but what pkg-config says, dynamically and statically; then `make uninstall`.
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
check "make install" $MAKE --no-print-directory install PREFIX=$prefix DESTDIR=$root
lib=$root$prefix/lib
check "versioned library" test -f "$(echo $lib/libmpi_info.so.*.*.*)"
check "soname link"       test -L "$(echo $lib/libmpi_info.so.*.[0-9]* | tr ' ' '\n' | grep -Ev '\.[0-9]+\.[0-9]+\.[0-9]+$' | head -n 1)"
check "dev link"          test -L $lib/libmpi_info.so
check "soname matches link" sh -c "readelf -d $lib/libmpi_info.so | grep -q \"SONAME.*\$(basename \$(readlink $lib/libmpi_info.so))\""
check "static library"    test -f $lib/libmpi_info.a
check "header"            test -f $root$prefix/include/mpi_info.h
check "pkg-config file"   test -f $lib/pkgconfig/mpi-info.pc
# The .pc file names the final prefix; point pkg-config at the staged tree.
export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
flags=$(pkg-config --cflags --libs mpi-info)
check "pkg-config answers" test -n "$flags"
check "build with pkg-config" sh -c "$CC -std=c99 -Wall -Werror examples/hints.c $flags -o $stage/hints"
check "run it"                env LD_LIBRARY_PATH=$lib $stage/hints
check "static build with pkg-config" sh -c "$CC -std=c99 -Wall -Werror examples/hints.c -static-libgcc $(pkg-config --cflags mpi-info) $lib/libmpi_info.a $(pkg-config --static --libs-only-l mpi-info | sed 's/-lmpi_info//') -o $stage/hints_static"
check "run the static build"  sh -c "env -u LD_LIBRARY_PATH $stage/hints_static >/dev/null"
check "static build needs no libmpi_info.so" sh -c "! ldd $stage/hints_static | grep -q libmpi_info"
check "make uninstall" $MAKE --no-print-directory uninstall PREFIX=$prefix DESTDIR=$root
check "nothing left"   sh -c "test -z \"\$(find $root -type f -o -type l)\""
echo "install_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
