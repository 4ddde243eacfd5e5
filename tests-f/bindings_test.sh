#!/usr/bin/env bash
# The Fortran bindings as files and symbols: the include file include/mpi_infof.h and its two
# parts (mpi_infof_mpi2.h, mpi_infof_own.h) have every constant of include/mpi_info.h with its
# value, each once, and fit both source forms; the parts compose with a host's mpif.h as
# docs/embedding.md says; the shared library exports every old-style routine with its pmpi_ twin,
# and the C header names none of them; the archives' plain names are weak and their pmpi_ names
# strong, but for the error routines' (weak, as a host's Fortran binding defines them too); the
# modules' explicit interfaces turn a wrong call into a compile error (each next to the right
# call, which compiles). Run from make test after the build (needs build/lib and build/fortran).
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
includes="include/mpi_infof.h include/mpi_infof_mpi2.h include/mpi_infof_own.h"
# parameters FILE...: "NAME VALUE" for each PARAMETER, sorted.
parameters() { sed -nE 's/^ {6}PARAMETER \((MPI_[A-Z_]+) = (-?[0-9]+)\)$/\1 \2/p' "$@" | sort; }
c_constants=$(sed -nE 's/^#define (MPI_[A-Z_]+) (-?[0-9]+)$/\1 \2/p' include/mpi_info.h | sort)
f_constants=$(parameters $includes)
check "the C header has constants" test "$(wc -l <<<"$c_constants")" -ge 15
check "mpi_infof.h and its parts: the C header's constants, same values, each once" test "$c_constants" = "$f_constants"
check "mpi_infof.h and its parts: each PARAMETER declared INTEGER" test \
    "$(sed -nE 's/^ {6}INTEGER (MPI_[A-Z_]+)$/\1/p' $includes | sort)" = "$(cut -d' ' -f1 <<<"$f_constants")"
check "mpi_infof.h includes its two parts" test "$(grep -E '^ {6}INCLUDE' include/mpi_infof.h)" = \
    "$(printf "      INCLUDE 'mpi_infof_mpi2.h'\n      INCLUDE 'mpi_infof_own.h'")"
# The parts hold the names a host's mpif.h has or lacks (docs/embedding.md, Fortran): the own
# part the info object's names only, the MPI-2 part the names MPI-2 added.
check "mpi_infof_own.h: the info object's names only" test "$(parameters include/mpi_infof_own.h | cut -d' ' -f1 | tr '\n' ' ')" = \
    "MPI_INFO_ENV MPI_INFO_NULL MPI_MAX_INFO_KEY MPI_MAX_INFO_VAL "
check "mpi_infof_mpi2.h: the MPI-2 names" test "$(parameters include/mpi_infof_mpi2.h | cut -d' ' -f1 | tr '\n' ' ')" = \
    "MPI_ERR_INFO MPI_ERR_INFO_KEY MPI_ERR_INFO_NOKEY MPI_ERR_INFO_VALUE MPI_ERR_NO_MEM MPI_THREAD_MULTIPLE "
for f in $includes; do
    check "$f: no line longer than 72 columns" sh -c "! awk 'length > 72' $f | grep -q ."
    check "$f: comments start with ! in column 1, statements in column 7" \
        sh -c "! grep -vE '^(!.*|      [A-Z].*)$' $f | grep -q ."
done
printf "      PROGRAM FIXED\n      INCLUDE 'mpi_infof.h'\n      PRINT *, MPI_INFO_NULL, MPI_ERR_NO_MEM\n      END\n" >"$tmp/fixed.f"
printf "program free\n  include 'mpi_infof.h'\n  print *, MPI_INFO_NULL, MPI_ERR_NO_MEM\nend program\n" >"$tmp/free.f90"
check "fixed form includes it" "$FC" -std=f2018 -Wall -Werror -ffixed-form -Iinclude -fsyntax-only "$tmp/fixed.f"
check "free form includes it"  "$FC" -std=f2018 -Wall -Werror -ffree-form -Iinclude -fsyntax-only "$tmp/free.f90"

# ---- beside a host's mpif.h --------------------------------------------------------------
# An MPI-2 or later mpif.h (the stub's, without its own INCLUDE of mpi_infof_own.h) declares the
# shared names: mpi_infof.h after it is refused (Fortran has no way to skip a name declared
# already), mpi_infof_own.h after it compiles in both forms. An MPI-1 mpif.h (its names only)
# takes mpi_infof_mpi2.h and mpi_infof_own.h.
mkdir -p "$tmp/host2" "$tmp/host1"
grep -v "INCLUDE 'mpi_infof_own.h'" examples/stub-mpi/mpif.h >"$tmp/host2/mpif.h"
printf '      INTEGER %s\n      PARAMETER (%s = %s)\n' MPI_SUCCESS MPI_SUCCESS 0 MPI_ERR_ARG MPI_ERR_ARG 13 \
    MPI_ERR_OTHER MPI_ERR_OTHER 16 MPI_ERR_INTERN MPI_ERR_INTERN 17 MPI_MAX_ERROR_STRING MPI_MAX_ERROR_STRING 512 \
    MPI_ERR_COMM MPI_ERR_COMM 5 >"$tmp/host1/mpif.h"
beside() { # beside NAME FORM INCLUDE...: a program that includes mpif.h, then the INCLUDE files
    local name=$1 form=$2; shift 2
    { printf "      PROGRAM BESIDE\n      INCLUDE 'mpif.h'\n"
      for f in "$@"; do printf "      INCLUDE '%s'\n" "$f"; done
      printf "      PRINT *, MPI_SUCCESS, MPI_ERR_INFO, MPI_THREAD_MULTIPLE\n"
      printf "      PRINT *, MPI_INFO_NULL, MPI_INFO_ENV, MPI_MAX_INFO_KEY\n      END\n"; } >"$tmp/$name.$form"
}
beside own2 f mpi_infof_own.h; beside own2 f90 mpi_infof_own.h
beside whole2 f mpi_infof.h
beside own1 f mpi_infof_mpi2.h mpi_infof_own.h; beside own1 f90 mpi_infof_mpi2.h mpi_infof_own.h
fsyntax() { "$FC" -std=f2018 -Wall -Werror -Iinclude -fsyntax-only "$@"; }
check "MPI-2 mpif.h, then mpi_infof_own.h: fixed form" fsyntax -ffixed-form -I"$tmp/host2" "$tmp/own2.f"
check "MPI-2 mpif.h, then mpi_infof_own.h: free form"  fsyntax -ffree-form -I"$tmp/host2" "$tmp/own2.f90"
check "MPI-2 mpif.h, then mpi_infof.h: refused" sh -c "! '$FC' -Iinclude -I'$tmp/host2' -fsyntax-only -ffixed-form '$tmp/whole2.f'"
check "MPI-1 mpif.h, then mpi_infof_mpi2.h and mpi_infof_own.h: fixed form" fsyntax -ffixed-form -I"$tmp/host1" "$tmp/own1.f"
check "MPI-1 mpif.h, then mpi_infof_mpi2.h and mpi_infof_own.h: free form"  fsyntax -ffree-form -I"$tmp/host1" "$tmp/own1.f90"
# A host's mpi module beside use mpi_info: the shared names come from the host's module, the
# info names and routines from mpi_info's ONLY list.
cat >"$tmp/host_module.f90" <<'F90'
module mpi
   implicit none
   include 'mpif.h'
end module mpi
program with_module
   use mpi
   use mpi_info, only: MPI_INFO_NULL, MPI_MAX_INFO_VAL, MPI_Info_create, MPI_Info_get, MPI_Info_free
   implicit none
   integer :: info, ierror
   character(len=MPI_MAX_INFO_VAL) :: value
   logical :: flag
   call MPI_Info_create(info, ierror)
   if (ierror /= MPI_SUCCESS) stop 1
   call MPI_Info_get(info, 'k', len(value), value, flag, ierror)
   call MPI_Info_free(info, ierror)
   if (info /= MPI_INFO_NULL .or. ierror == MPI_ERR_INFO) stop 2
end program with_module
F90
check "a host's mpi module and use mpi_info, only: ..." "$FC" -std=f2018 -Wall -Werror -Iinclude -I"$tmp/host2" -I$mods -J"$tmp" -fsyntax-only "$tmp/host_module.f90"

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
    # A host's Fortran binding defines pmpi_error_string_ and pmpi_error_class_ too: weak here,
    # its definitions replace these in a static link instead of clashing with them.
    case $r in
        error_*) check "libmpi_info.a: pmpi_${r}_ weak"   grep -q " W pmpi_${r}_\$" <<<"$archive" ;;
        *)       check "libmpi_info.a: pmpi_${r}_ strong" grep -q " T pmpi_${r}_\$" <<<"$archive" ;;
    esac
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
