#!/usr/bin/env bash
# `make install` into a temporary prefix (with DESTDIR), then configure, build and run a small
# CMake project against the staged tree with find_package(mpi_info): one program linked to
# mpi_info::mpi_info, one to mpi_info::mpi_info_static, and a program written against the
# standard ABI build's header linked to mpi_info::mpi_info_abi and to
# mpi_info::mpi_info_abi_static. With a Fortran compiler (FC, which make test sets when the
# build had one), a Fortran-only project (project(... Fortran): no C, so no FindThreads) with a
# program in each binding style: the include file on mpi_info::mpi_info, use mpi_info on
# mpi_info::mpi_info_static, use mpi_info_f08 on mpi_info::mpi_info_f08 and
# mpi_info::mpi_info_f08_static. The package's paths must follow the tree it is in (the install
# prefix itself does not exist). Then `make uninstall`.
set -u
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}; CC=${CC:-cc}; FC=${FC-gfortran}
if ! command -v cmake >/dev/null 2>&1; then
    echo "cmake is not installed: this test needs it (Debian package cmake; .ci/run installs it)"
    echo "cmake_test: 0 passed, 1 failed"
    exit 1
fi
passed=0; failed=0
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
check() {
    local what=$1; shift
    if "$@" >"$stage/log" 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $what"; tail -n 20 "$stage/log"; fi
}
version=$(sed -n 's/^version = "\([^"]*\)"/\1/p' Cargo.toml | head -n 1)
major=${version%%.*}; minor=${version#*.}; minor=${minor%%.*}
prefix=/opt/mpi-info-cmake-test
root=$stage/root
check "make install" $MAKE --no-print-directory install PREFIX=$prefix DESTDIR=$root
lib=$root$prefix/lib
check "config file"  test -f $lib/cmake/mpi_info/mpi_infoConfig.cmake
check "version file" test -f $lib/cmake/mpi_info/mpi_infoConfigVersion.cmake

mkdir -p "$stage/app" "$stage/probe"
cat >"$stage/app/use.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <mpi_info.h>

int main(void) {
    MPI_Info info;
    char value[MPI_MAX_INFO_VAL];
    int flag = 0;
    if (MPI_Info_create(&info) != MPI_SUCCESS) return 1;
    if (MPI_Info_set(info, "striping_factor", "4") != MPI_SUCCESS) return 2;
    if (MPI_Info_get(info, "striping_factor", MPI_MAX_INFO_VAL - 1, value, &flag) != MPI_SUCCESS) return 3;
    if (!flag || strcmp(value, "4") != 0) return 4;
    if (MPI_Info_free(&info) != MPI_SUCCESS || info != MPI_INFO_NULL) return 5;
    printf("striping_factor=%s\n", value);
    return 0;
}
C
# The same with the standard ABI's pointer handles: it fails unless MPI_Info is a pointer whose
# integer form (MPI_Info_toint) converts back to the same handle, and unless the library reads
# the whole pointer (a pointer with a bit set above 32 is no handle, -1).
cat >"$stage/app/use_abi.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <mpi_info_abi.h>

int main(void) {
    MPI_Info info, same;
    char value[MPI_MAX_INFO_VAL];
    int flag = 0;
    if (sizeof(MPI_Info) != sizeof(void *)) return 1;
    if (MPI_Info_toint((MPI_Info)((uintptr_t)1 << 32 | 0x131)) != -1) return 8;
    if (MPI_Info_create(&info) != MPI_SUCCESS) return 2;
    same = MPI_Info_fromint(MPI_Info_toint(info));
    if (same != info || MPI_Info_toint(MPI_INFO_NULL) != 0x130) return 3;
    if (MPI_Info_set(same, "striping_factor", "4") != MPI_SUCCESS) return 4;
    if (MPI_Info_get(info, "striping_factor", MPI_MAX_INFO_VAL - 1, value, &flag) != MPI_SUCCESS) return 5;
    if (!flag || strcmp(value, "4") != 0) return 6;
    if (MPI_Info_free(&info) != MPI_SUCCESS || info != MPI_INFO_NULL) return 7;
    printf("abi striping_factor=%s\n", value);
    return 0;
}
C
cat >"$stage/app/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.13)
project(use_mpi_info C)
find_package(mpi_info $major.$minor REQUIRED)
message(STATUS "mpi_info \${mpi_info_VERSION} in \${mpi_info_DIR}")
add_executable(use_shared use.c)
target_link_libraries(use_shared PRIVATE mpi_info::mpi_info)
add_executable(use_static use.c)
target_link_libraries(use_static PRIVATE mpi_info::mpi_info_static)
add_executable(use_abi_shared use_abi.c)
target_link_libraries(use_abi_shared PRIVATE mpi_info::mpi_info_abi)
add_executable(use_abi_static use_abi.c)
target_link_libraries(use_abi_static PRIVATE mpi_info::mpi_info_abi_static)
foreach(program use_shared use_static use_abi_shared use_abi_static)
  set_target_properties(\${program} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)
  target_compile_options(\${program} PRIVATE -Wall -Wextra -Werror)
endforeach()
CMAKE
# Only the staged tree is searched: the prefix the files were installed for does not exist.
# Its output is kept in $stage/configure.log as well.
configure() { # configure SOURCE BUILD
    env CC="$CC" ${FC:+FC="$FC"} cmake -S "$1" -B "$2" -DCMAKE_PREFIX_PATH="$root$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
        >"$stage/configure.log" 2>&1
    local status=$?
    cat "$stage/configure.log"
    return $status
}
check "find_package($major.$minor) in the staged prefix" configure "$stage/app" "$stage/app/build"
check "found this version in the staged tree" grep -qxF -- "-- mpi_info $version in $lib/cmake/mpi_info" "$stage/configure.log"
check "build both programs" cmake --build "$stage/app/build" --target use_shared use_static
check "build both ABI programs" cmake --build "$stage/app/build" --target use_abi_shared use_abi_static
shared=$stage/app/build/use_shared; static=$stage/app/build/use_static
check "run the shared build"  sh -c "test \"\$(env -u LD_LIBRARY_PATH $shared)\" = striping_factor=4"
check "run the static build"  sh -c "test \"\$(env -u LD_LIBRARY_PATH $static)\" = striping_factor=4"
check "shared build loads the staged libmpi_info" sh -c "env -u LD_LIBRARY_PATH ldd $shared | grep -qF 'libmpi_info.so.$major.$minor => $lib/'"
check "static build needs no libmpi_info.so" sh -c "! ldd $static | grep -q libmpi_info"
# The system libraries the Makefile links the archive with (the thread library may be part of
# libc, as FindThreads decides) follow the archive on the static program's link line.
system_libs=$(sed -n 's/^STATIC_LIBS := //p' Makefile | sed 's/-lpthread *//')
link_line=$(cat "$stage/app/build/CMakeFiles/use_static.dir/link.txt" 2>/dev/null)
check "static link line: libmpi_info.a then $system_libs" \
    grep -qE -- "/libmpi_info\.a .*$(sed 's/ \+/ .*/g; s/^ *//; s/ *$//' <<<"$system_libs")" <<<"$link_line"

abi_shared=$stage/app/build/use_abi_shared; abi_static=$stage/app/build/use_abi_static
check "run the ABI shared build" sh -c "test \"\$(env -u LD_LIBRARY_PATH $abi_shared)\" = 'abi striping_factor=4'"
check "run the ABI static build" sh -c "test \"\$(env -u LD_LIBRARY_PATH $abi_static)\" = 'abi striping_factor=4'"
abi_loads_staged() { local libs; libs=$(env -u LD_LIBRARY_PATH ldd "$abi_shared") &&
    grep -qF "libmpi_info_abi.so.$major.$minor => $lib/" <<<"$libs" && ! grep -q 'libmpi_info\.so' <<<"$libs"; }
check "ABI shared build loads the staged libmpi_info_abi, not libmpi_info" abi_loads_staged
check "ABI static build needs no libmpi_info_abi.so" sh -c "! ldd $abi_static | grep -q libmpi_info"
abi_link_line=$(cat "$stage/app/build/CMakeFiles/use_abi_static.dir/link.txt" 2>/dev/null)
check "ABI static link line: libmpi_info_abi.a then $system_libs" \
    grep -qE -- "/libmpi_info_abi\.a .*$(sed 's/ \+/ .*/g; s/^ *//; s/ *$//' <<<"$system_libs")" <<<"$abi_link_line"

# ---- Fortran, in a project that enables Fortran alone ----------------------------------
if [ -n "$FC" ]; then
    mkdir -p "$stage/fortran"
    cat >"$stage/fortran/use_include.f90" <<'F90'
program use_include
   implicit none
   include 'mpi_infof.h'
   integer :: info, ierror
   character(len=MPI_MAX_INFO_VAL) :: value
   logical :: flag
   call MPI_INFO_CREATE(info, ierror)
   call MPI_INFO_SET(info, 'striping_factor', '4', ierror)
   call MPI_INFO_GET(info, 'striping_factor', len(value), value, flag, ierror)
   if (ierror /= MPI_SUCCESS .or. .not. flag) stop 1
   call MPI_INFO_FREE(info, ierror)
   print '(2a)', 'include striping_factor=', trim(value)
end program
F90
    { printf 'program use_module\n   use mpi_info\n'
      sed -e '1d; /^   include /d; s/include striping/module striping/' "$stage/fortran/use_include.f90"; } \
        >"$stage/fortran/use_module.f90"
    cat >"$stage/fortran/use_f08.f90" <<'F90'
program use_f08
   use mpi_info_f08
   implicit none
   type(MPI_Info) :: info
   character(len=MPI_MAX_INFO_VAL) :: value
   integer :: ierror
   logical :: flag
   call MPI_Info_create(info)
   call MPI_Info_set(info, 'striping_factor', '4')
   call MPI_Info_get(info, 'striping_factor', len(value), value, flag, ierror)
   if (ierror /= MPI_SUCCESS .or. .not. flag) stop 1
   call MPI_Info_free(info)
   if (info /= MPI_INFO_NULL) stop 2
   print '(2a)', 'f08 striping_factor=', trim(value)
end program
F90
    cat >"$stage/fortran/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.13)
project(use_mpi_info_fortran Fortran)
find_package(mpi_info $major.$minor REQUIRED)
add_executable(use_include use_include.f90)
target_link_libraries(use_include PRIVATE mpi_info::mpi_info)
add_executable(use_module use_module.f90)
target_link_libraries(use_module PRIVATE mpi_info::mpi_info_static)
add_executable(use_f08 use_f08.f90)
target_link_libraries(use_f08 PRIVATE mpi_info::mpi_info_f08)
add_executable(use_f08_static use_f08.f90)
target_link_libraries(use_f08_static PRIVATE mpi_info::mpi_info_f08_static)
foreach(program use_include use_module use_f08 use_f08_static)
  set_target_properties(\${program} PROPERTIES Fortran_MODULE_DIRECTORY \${CMAKE_BINARY_DIR}/mod_\${program})
  target_compile_options(\${program} PRIVATE -std=f2018 -Wall -Werror)
endforeach()
CMAKE
    fbuild=$stage/fortran/build
    check "Fortran-only project: find_package($major.$minor)" configure "$stage/fortran" "$fbuild"
    check "Fortran-only project: no C compiler enabled" sh -c "! grep -q '^CMAKE_C_COMPILER:' '$fbuild/CMakeCache.txt'"
    check "Fortran-only project: build the four programs" cmake --build "$fbuild"
    runs() { # runs PROGRAM OUTPUT
        test "$(env -u LD_LIBRARY_PATH "$fbuild/$1")" = "$2"; }
    check "run use_include (mpi_info::mpi_info)"           runs use_include 'include striping_factor=4'
    check "run use_module (mpi_info::mpi_info_static)"     runs use_module 'module striping_factor=4'
    check "run use_f08 (mpi_info::mpi_info_f08)"           runs use_f08 'f08 striping_factor=4'
    check "run use_f08_static (mpi_info::mpi_info_f08_static)" runs use_f08_static 'f08 striping_factor=4'
    check "use_f08 loads the staged libmpi_info" sh -c "env -u LD_LIBRARY_PATH ldd $fbuild/use_f08 | grep -qF 'libmpi_info.so.$major.$minor => $lib/'"
    check "use_module and use_f08_static need no libmpi_info.so" \
        sh -c "! ldd $fbuild/use_module | grep -q libmpi_info && ! ldd $fbuild/use_f08_static | grep -q libmpi_info"
fi

# A version the package must refuse: a newer major one, and (before 1.0, where the soname
# carries the minor version) an older minor one. The refusal names the version it found.
probe() { # probe VERSION: configure a project that requires that version
    cat >"$stage/probe/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.13)
project(probe C)
find_package(mpi_info $1 REQUIRED)
CMAKE
    rm -rf "$stage/probe/build"
    configure "$stage/probe" "$stage/probe/build"
}
refused() { # refused VERSION
    ! probe "$1" && grep -q "compatible with requested version \"$1\"" "$stage/configure.log" &&
        grep -qF "version: $version" "$stage/configure.log"
}
check "find_package($((major + 1)).0) refused" refused "$((major + 1)).0"
if [ "$major" = 0 ] && [ "$minor" -gt 0 ]; then
    check "find_package(0.$((minor - 1))) refused" refused "0.$((minor - 1))"
fi
check "find_package($version EXACT) accepted" probe "$version EXACT"
check "find_package() with no version accepted" probe ""

check "make uninstall" $MAKE --no-print-directory uninstall PREFIX=$prefix DESTDIR=$root
check "nothing left"   sh -c "test -z \"\$(find $root -type f -o -type l)\""
check "no cmake/mpi_info directory left" test ! -e $lib/cmake/mpi_info
echo "cmake_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
