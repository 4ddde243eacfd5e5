#!/usr/bin/env bash
# The man pages (make man, tools/manpages.py): every MPI_ and MPIX_ function the shared library
# exports has a page and every PMPI_/PMPIX_ twin a `.so` page naming it; every page renders
# without a warning; each has the sections a user expects and a C synopsis that is the header's
# prototype (and the Fortran ones where the Fortran sources declare the routine); each says
# what the standard ABI build (mpi_info_abi.h, libmpi_info_abi) has of it; make install puts
# them where `man` finds them, and make uninstall removes them and nothing else.
set -u
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
passed=0; failed=0
log=$(mktemp); stage=$(mktemp -d); trap 'rm -rf "$stage" "$log"' EXIT
check() {
    local what=$1; shift
    if "$@" >"$log" 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $what"; tail -n 20 "$log"; fi
}
finish() {
    echo "man_test: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]; exit
}
for tool in groff:groff-base man:man-db nm:binutils; do
    if ! command -v "${tool%%:*}" >/dev/null 2>&1; then
        echo "${tool%%:*} is missing: install the Debian package ${tool##*:} (.ci/run does)"
        failed=$((failed + 1))
    fi
done
[ "$failed" -eq 0 ] || finish

pages=build/man/man3
check "make man" $MAKE --no-print-directory man
symbols=$(nm -D --defined-only build/lib/libmpi_info.so | awk '{print $3}' | grep -E '^P?MPIX?_' | sort)
plain=$(grep -E '^MPIX?_' <<<"$symbols")
check "the library exports MPI_ and MPIX_ functions" test "$(wc -l <<<"$plain")" -ge 20

# The page as text, and one of its sections (the lines after its heading, up to the next one).
text() { (cd build/man && groff -man -Tascii -P-c -P-b -P-u "man3/$1.3"); }
section() { text "$1" | awk -v s="$2" '/^[A-Z]/ {on = ($0 == s); next} on'; }
squeeze() { tr -s ' \n' '  ' | sed 's/^ //; s/ $//'; }
has_line() { section "$1" "$2" | grep -qE "$3"; }
# The prototype of function $1 in the header, spaces squeezed.
prototype() { grep -E "^[A-Za-z_]+ $1\(" include/mpi_info.h | squeeze; }
synopsis_has() { section "$1" SYNOPSIS | squeeze | grep -qF "$2"; }

# (1) A page for each exported name, and no page for a name the library does not export.
for s in $symbols; do
    case $s in
        P*) check "$s: a .so page naming ${s#P}'s" sh -c "test \"\$(cat $pages/$s.3)\" = '.so man3/${s#P}.3' && test -f $pages/${s#P}.3" ;;
        *) check "$s: a page" grep -q "^\.TH $s 3 " "$pages/$s.3" ;;
    esac
done
for page in "$pages"/*.3; do
    name=$(basename "$page" .3)
    check "$name.3 names an exported function" grep -qx "$name" <<<"$symbols"
done

# (2) Each page (and each .so page, from the directory man runs groff in) renders with no
# warning: groff -ww prints nothing and exits 0.
renders_clean() { (cd build/man && groff -ww -man -Tutf8 -z "man3/$1.3" 2>&1 >/dev/null | grep . && exit 1; exit "${PIPESTATUS[0]}"); }
for page in "$pages"/*.3; do
    name=$(basename "$page" .3)
    check "$name.3 renders without warnings" renders_clean "$name"
done

# (3) Sections, the NAME line with the twin, and the C synopsis: the header's prototypes of the
# function and its twin. MPIX_ functions have no Fortran binding; the others have the ones the
# Fortran sources declare.
sections_present() {
    local s
    for s in NAME SYNOPSIS PARAMETERS DESCRIPTION ERRORS "SEE ALSO"; do text "$1" | grep -qx "$s" || { echo "no $s"; return 1; }; done
}
for s in $plain; do
    check "$s: NAME SYNOPSIS PARAMETERS DESCRIPTION ERRORS SEE ALSO" sections_present "$s"
    check "$s: NAME names it and P$s" has_line "$s" NAME "^ +$s, +P$s +- "
    check "$s: C synopsis is the header's prototype" synopsis_has "$s" "$(prototype "$s")"
    check "$s: C synopsis has P$s's prototype" synopsis_has "$s" "$(prototype "P$s")"
    case $s in
        MPIX_*) check "$s: no Fortran synopsis" sh -c "! grep -qE '^\.SS \"Fortran|IERROR' $pages/$s.3" ;;
    esac
done
upper() { tr '[:lower:]' '[:upper:]'; }
for routine in $(sed -n 's/^ *procedure([a-z_]*) :: \(MPI_[A-Z_]*\),.*/\1/p' fortran/mpi_info.f90); do
    s=$(grep -ix "$routine" <<<"$plain")
    check "$routine: a page with its old-style synopsis" has_line "${s:-none}" SYNOPSIS "^ +$routine\(.*IERROR\)$"
done
for routine in $(sed -n 's/^ *procedure([a-z_]*) :: \(MPI_[A-Za-z_]*\)_f08,.*/\1/p' fortran/mpi_info_f08.f90); do
    check "$routine: a page with its mpi_info_f08 synopsis" has_line "$routine" SYNOPSIS "^ +$routine\(.*ierror\)$"
done

# (4) The standard ABI build. Its library exports no MPI_/MPIX_ name the integer one lacks (so
# each has a page), and no Fortran routine. A page of a function it exports names both headers
# with their libraries and, where the prototype has an MPI_Info, each header's typedef of it;
# a page of a function it lacks says so, without the ABI header, and its NOTES name a function
# the ABI library has instead; a page with a Fortran synopsis says those routines call
# libmpi_info.
abi_symbols=$(nm -D --defined-only build/lib/libmpi_info_abi.so | awk '{print $3}' | grep -E '^P?MPIX?_' | sort)
abi_plain=$(grep -E '^MPIX?_' <<<"$abi_symbols")
check "libmpi_info_abi exports MPI_ and MPIX_ functions" test "$(wc -l <<<"$abi_plain")" -ge 20
check "libmpi_info_abi exports no MPI_/MPIX_ name libmpi_info lacks" test -z "$(comm -13 <(echo "$symbols") <(echo "$abi_symbols"))"
check "libmpi_info_abi exports no Fortran routine" sh -c "! nm -D --defined-only build/lib/libmpi_info_abi.so | awk '{print \$3}' | grep -Eiq '^p?mpix?_.*_\$'"
int_typedef=$(grep -E '^typedef .*\bMPI_Info;$' include/mpi_info.h)
abi_typedef=$(grep -E '^typedef .*\bMPI_Info;$' include/mpi_info_abi.h)
check "the headers' MPI_Info typedefs: int, and the standard ABI's pointer" \
    test "$int_typedef" = "typedef int MPI_Info;" -a "$abi_typedef" = "typedef struct MPI_ABI_Info *MPI_Info;"
only_integer_header() { section "$1" SYNOPSIS | grep -qF '#include <mpi_info.h>' && ! section "$1" SYNOPSIS | grep -qF '#include <mpi_info_abi.h>'; }
names_abi_function() { section "$1" NOTES | squeeze | grep -qE "\b($(paste -sd'|' <<<"$abi_plain"))\b"; }
for s in $plain; do
    uses_handle=$(prototype "$s" | grep -c '\bMPI_Info\b')
    if grep -qx "$s" <<<"$abi_plain"; then
        check "$s: synopsis names mpi_info.h with -lmpi_info" synopsis_has "$s" "#include <mpi_info.h> /* -lmpi_info */"
        check "$s: synopsis names mpi_info_abi.h with -lmpi_info_abi" synopsis_has "$s" "#include <mpi_info_abi.h> /* -lmpi_info_abi, the MPI-5.0 standard ABI */"
        if [ "$uses_handle" -gt 0 ]; then
            check "$s: synopsis gives each header's MPI_Info" synopsis_has "$s" "/* -lmpi_info */ $int_typedef"
            check "$s: synopsis gives the ABI header's MPI_Info" synopsis_has "$s" "standard ABI */ $abi_typedef"
        fi
    else
        check "$s: synopsis names mpi_info.h alone" only_integer_header "$s"
        check "$s: synopsis says it is not in libmpi_info_abi" synopsis_has "$s" "Not in mpi_info_abi.h and libmpi_info_abi"
        check "$s: NOTES name what libmpi_info_abi has instead" names_abi_function "$s"
    fi
    if grep -q "^\.SS .Fortran" "$pages/$s.3"; then
        check "$s: its Fortran routines call libmpi_info" synopsis_has "$s" "The Fortran routines below call libmpi_info, never libmpi_info_abi"
    fi
done

# (5) make install PREFIX=...: every page where man finds it, MPI_Info_get and PMPI_Info_get
# among them; a page of another package is there too, to show that (6) leaves it.
prefix=$stage/prefix
mkdir -p "$prefix/share/man/man3"
echo '.so man3/MPI_Info_get.3' >"$prefix/share/man/man3/other_package.3"
check "make install" $MAKE --no-print-directory install PREFIX="$prefix"
installed_all() { local p; for p in "$pages"/*.3; do cmp "$p" "$prefix/share/man/man3/$(basename "$p")" || return 1; done; }
check "every page installed" installed_all
export MANPATH=$prefix/share/man
found() { local path; path=$(man -w "$1") && case $path in "$MANPATH/man3/$1.3" | "$MANPATH/man3/${1#P}.3") ;; *) echo "found $path"; false ;; esac; }
check "man -w MPI_Info_get finds the installed page" found MPI_Info_get
check "man -w PMPI_Info_get finds the installed page" found PMPI_Info_get
check "man -w MPIX_Info_merge finds the installed page" found MPIX_Info_merge
check "man PMPI_Info_get shows MPI_Info_get's page" sh -c "MANWIDTH=80 man -P cat PMPI_Info_get | sed 's/.\x08//g' | grep -qE '^ +MPI_Info_get, +PMPI_Info_get +- '"

# (6) make uninstall: no page left but the other package's.
check "make uninstall" $MAKE --no-print-directory uninstall PREFIX="$prefix"
check "no page left but the other package's" test "$(cd "$prefix/share/man/man3" && ls)" = other_package.3
check "man -w MPI_Info_get finds nothing" sh -c "! man -w MPI_Info_get"
check "nothing else left" sh -c "test \"\$(find $prefix -type f -o -type l)\" = $prefix/share/man/man3/other_package.3"
finish
