#!/usr/bin/env bash
# The Fortran bindings as files and symbols: include/mpi_infof.h has every constant of
# include/mpi_info.h with its value and fits both source forms; the shared library exports
# every old-style routine with its pmpi_ twin, and the C header names none of them; the
# archives' plain names are weak and their pmpi_ names strong; the modules' explicit
# interfaces turn a wrong call into a compile error (each next to the right call, which
# compiles). Run from make test after the build (needs build/lib and build/fortran).
set -u
cd "$(dirname "$0")/.."
FC=${FC:-gfortran}
passed=0; failed=0
check() { # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@" >/tmp/bindings_test.$$ 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $what"; tail -n 20 /tmp/bindings_test.$$; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp" /tmp/bindings_test.$$' EXIT
lib=build/lib; mods=build/fortran

# ---- the include file ----------------------------------------------------------------------
c_constants=$(sed -nE 's/^#define (MPI_[A-Z_]+) (-?[0-9]+)$/\1 \2/p' include/mpi_info.h | sort)
f_constants=$(sed -nE 's/^ {6}PARAMETER \((MPI_[A-Z_]+) = (-?[0-9]+)\)$/\1 \2/p' include/mpi_infof.h | sort)
check "the C header has constants" test "$(wc -l <<<"$c_constants")" -ge 15
check "mpi_infof.h: the C header's constants, same values" test "$c_constants" = "$f_constants"
check "mpi_infof.h: each PARAMETER declared INTEGER" test \
    "$(sed -nE 's/^ {6}INTEGER (MPI_[A-Z_]+)$/\1/p' include/mpi_infof.h | sort)" = "$(cut -d' ' -f1 <<<"$f_constants")"
check "mpi_infof.h: no line longer than 72 columns" sh -c "! awk 'length > 72' include/mpi_infof.h | grep -q ."
check "mpi_infof.h: comments start with ! in column 1, statements in column 7" \
    sh -c "! grep -vE '^(!.*|      [A-Z].*)$' include/mpi_infof.h | grep -q ."
printf "      PROGRAM FIXED\n      INCLUDE 'mpi_infof.h'\n      PRINT *, MPI_INFO_NULL\n      END\n" >"$tmp/fixed.f"
printf "program free\n  include 'mpi_infof.h'\n  print *, MPI_INFO_NULL\nend program\n" >"$tmp/free.f90"
check "fixed form includes it" "$FC" -std=f2018 -Wall -Werror -ffixed-form -Iinclude -fsyntax-only "$tmp/fixed.f"
check "free form includes it"  "$FC" -std=f2018 -Wall -Werror -ffree-form -Iinclude -fsyntax-only "$tmp/free.f90"

# ---- symbols -------------------------------------------------------------------------------
routines="info_create info_set info_delete info_get info_get_valuelen info_get_string info_get_nkeys
          info_get_nthkey info_dup info_free info_create_env error_string error_class"
dynamic=$(nm -D --defined-only $lib/libmpi_info.so)
archive=$(nm $lib/libmpi_info.a 2>/dev/null)
f08=$(nm $lib/libmpi_info_f08.a 2>/dev/null)
for r in $routines; do
    check "nm -D: mpi_${r}_"        grep -q " T mpi_${r}_\$" <<<"$dynamic"
    check "nm -D: pmpi_${r}_"       grep -q " T pmpi_${r}_\$" <<<"$dynamic"
    check "not in the C header: mpi_${r}_" sh -c "! grep -q 'mpi_${r}_' include/mpi_info.h"
    check "libmpi_info.a: mpi_${r}_ weak"    grep -q " W mpi_${r}_\$" <<<"$archive"
    check "libmpi_info.a: pmpi_${r}_ strong" grep -q " T pmpi_${r}_\$" <<<"$archive"
    check "libmpi_info_f08.a: mpi_${r}_f08_ weak"    grep -q " W mpi_${r}_f08_\$" <<<"$f08"
    check "libmpi_info_f08.a: pmpi_${r}_f08_ strong" grep -q " T pmpi_${r}_f08_\$" <<<"$f08"
done
check "no other lower-case mpi_ name exported" \
    test "$(grep -cE ' T p?mpi_' <<<"$dynamic")" -eq 26

# ---- explicit interfaces: a wrong call does not compile ----------------------------------
# compiles FILE: with the modules and -std=f2018 -Wall -Werror, syntax only.
compiles() { "$FC" -std=f2018 -Wall -Werror -I$mods -fsyntax-only "$1"; }
program() { # program NAME USE DECLARATIONS CALL
    printf 'program p\n  use %s\n  implicit none\n  %s\n  %s\nend program\n' "$2" "$3" "$4" >"$tmp/$1.f90"
}
program mpi_ok mpi_info "integer :: i, e" "call MPI_INFO_SET(i, 'k', 'v', e)"
program mpi_count mpi_info "integer :: i, e" "call MPI_INFO_SET(i, 'k', e)"
program mpi_type mpi_info "integer :: e; logical :: i" "call MPI_INFO_SET(i, 'k', 'v', e)"
program mpi_string mpi_info "integer :: i, e" "call MPI_INFO_SET(i, 'k', 5, e)"
check "use mpi_info: a right call compiles"          compiles "$tmp/mpi_ok.f90"
check "use mpi_info: a wrong argument count fails"   sh -c "! '$FC' -I$mods -fsyntax-only $tmp/mpi_count.f90"
check "use mpi_info: a LOGICAL handle fails"         sh -c "! '$FC' -I$mods -fsyntax-only $tmp/mpi_type.f90"
check "use mpi_info: an INTEGER key fails"           sh -c "! '$FC' -I$mods -fsyntax-only $tmp/mpi_string.f90"
program f08_ok mpi_info_f08 "type(MPI_Info) :: i; integer :: n" "call MPI_Info_get_nkeys(i, n)"
program f08_int mpi_info_f08 "integer :: i, n" "call MPI_Info_get_nkeys(i, n)"
program f08_count mpi_info_f08 "type(MPI_Info) :: i" "call MPI_Info_get_nkeys(i)"
program f08_kw mpi_info_f08 "type(MPI_Info) :: i; integer :: n, e" "call MPI_Info_get_nkeys(info=i, nkeys=n, ierror=e)"
check "use mpi_info_f08: a right call compiles"           compiles "$tmp/f08_ok.f90"
check "use mpi_info_f08: the standard's keyword names"    compiles "$tmp/f08_kw.f90"
check "use mpi_info_f08: an INTEGER handle fails"         sh -c "! '$FC' -I$mods -fsyntax-only $tmp/f08_int.f90"
check "use mpi_info_f08: a missing argument fails"        sh -c "! '$FC' -I$mods -fsyntax-only $tmp/f08_count.f90"

echo "bindings_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
