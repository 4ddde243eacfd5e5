#!/usr/bin/env bash
# The generated header compiles cleanly as strict C99 and as C++, its constants are constant
# expressions, and it declares every function with its PMPI_ twin. Both headers (mpi_info.h and
# mpi_info_abi.h) compose with a host MPI's mpi.h (docs/embedding.md).
set -u
cd "$(dirname "$0")/.."
CC=${CC:-cc}; CXX=${CXX:-c++}
passed=0; failed=0
check() { # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@" >/tmp/header_test.$$ 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $what"; cat /tmp/header_test.$$; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp" /tmp/header_test.$$' EXIT
cat >"$tmp/use.c" <<'C'
#include "mpi_info.h"
static MPI_Info in_a_static_initialiser = MPI_INFO_NULL;
static char key_buffer[MPI_MAX_INFO_KEY];
static char value_buffer[MPI_MAX_INFO_VAL];
int classify(int rc);
int classify(int rc) {
    switch (rc) {
    case MPI_SUCCESS: return 0;
    case MPI_ERR_INFO: return 1;
    case MPI_INFO_ENV: return 2;
    default: return (int)sizeof key_buffer + (int)sizeof value_buffer + in_a_static_initialiser;
    }
}
C
check "C99 -pedantic"  "$CC" -std=c99 -pedantic -Wall -Wextra -Werror -Iinclude -c "$tmp/use.c" -o "$tmp/c99.o"
check "C11"            "$CC" -std=c11 -Wall -Wextra -Werror -Iinclude -c "$tmp/use.c" -o "$tmp/c11.o"
cp "$tmp/use.c" "$tmp/use.cpp"
check "C++11"          "$CXX" -std=c++11 -Wall -Wextra -Werror -Iinclude -c "$tmp/use.cpp" -o "$tmp/cpp.o"
# extern "C": the C++ object must refer to the unmangled names.
cat >"$tmp/call.cpp" <<'C'
#include "mpi_info.h"
int f() { MPI_Info i; return MPI_Info_create(&i) + PMPI_Info_free(&i); }
C
check "C++ links by C names" sh -c "'$CXX' -Iinclude -c '$tmp/call.cpp' -o '$tmp/call.o' && nm '$tmp/call.o' | grep -q ' U MPI_Info_create\$' && nm '$tmp/call.o' | grep -q ' U PMPI_Info_free\$'"
for f in Info_create Info_set Info_get Info_get_valuelen Info_get_string Info_delete Info_dup Info_free \
         Info_get_nkeys Info_get_nthkey Info_create_env Info_c2f Info_f2c Info_toint Info_fromint \
         Error_string Error_class; do
    check "MPI_$f declared"  grep -Eq "^[A-Za-z_]+ MPI_$f\(" include/mpi_info.h
    check "PMPI_$f declared" grep -Eq "^[A-Za-z_]+ PMPI_$f\(" include/mpi_info.h
done
# The MPIX_ toolkit (docs/mpix.md): each function with its PMPIX_ twin, inside the marked section,
# and its constants.
for f in Info_get_bool Info_get_int Info_get_int64 Info_get_enum Info_get_nitems Info_get_item \
         Info_set_bool Info_set_int64 Info_merge Info_set_from_string Info_set_from_file \
         Info_serialize Info_deserialize Info_equal Info_error_string Info_error_class; do
    check "MPIX_$f declared in the MPIX_ section"  sh -c "sed -n '/MPIX_ functions:/,/end of the MPIX_ functions/p' include/mpi_info.h | grep -Eq '^int MPIX_$f\\('"
    check "PMPIX_$f declared in the MPIX_ section" sh -c "sed -n '/MPIX_ functions:/,/end of the MPIX_ functions/p' include/mpi_info.h | grep -Eq '^int PMPIX_$f\\('"
done
cat >"$tmp/mpix.c" <<'C'
#include "mpi_info.h"
int formats[] = {MPIX_INFO_FORMAT_LINES, MPIX_INFO_FORMAT_PAIRS, MPIX_INFO_TEXT_MAX};
int typed(MPI_Info info, int64_t *value, int *flag);
int typed(MPI_Info info, int64_t *value, int *flag) { return MPIX_Info_get_int64(info, "k", value, flag); }
C
check "MPIX_ constants and int64_t in C99" "$CC" -std=c99 -pedantic -Wall -Wextra -Werror -Iinclude -c "$tmp/mpix.c" -o "$tmp/mpix.o"
cp "$tmp/mpix.c" "$tmp/mpix.cpp"
check "MPIX_ constants and int64_t in C++11" "$CXX" -std=c++11 -Wall -Wextra -Werror -Iinclude -c "$tmp/mpix.cpp" -o "$tmp/mpixcpp.o"

# ---- Beside a host MPI's mpi.h (docs/embedding.md)
# Each name an mpi.h has too is defined once, right under its condition (the nearest #if above
# its definition): the constants every mpi.h shares unless an mpi.h of MPI-2 or later came
# first or the name is a macro, MPI_Fint unless any mpi.h came first, the info object's names
# unless the mpi.h has an info object.
condition_of() { # condition_of HEADER DEFINITION: the #if line nearest above DEFINITION, once per definition
    awk -v def="$2" 'index($0, "#if") == 1 { last = $0 } index($0, def) == 1 { print last }' "$1"
}
for header in include/mpi_info.h include/mpi_info_abi.h; do
    for name in MPI_MAX_ERROR_STRING MPI_THREAD_MULTIPLE MPI_SUCCESS MPI_ERR_ARG MPI_ERR_OTHER MPI_ERR_INTERN \
                MPI_ERR_INFO_KEY MPI_ERR_INFO_NOKEY MPI_ERR_INFO_VALUE MPI_ERR_INFO MPI_ERR_NO_MEM; do
        check "$name defined once in $header, under its condition" \
            test "$(condition_of $header "#define $name ")" = "#if !(defined(MPI_INFO_AFTER_MPI2_H) || defined($name))"
    done
    for name in MPI_MAX_INFO_KEY MPI_MAX_INFO_VAL MPI_INFO_NULL MPI_INFO_ENV; do
        check "$name defined once in $header, under its condition" \
            test "$(condition_of $header "#define $name ")" = "#if !defined($name)"
    done
done
check "MPI_Info defined once in mpi_info.h, unless MPI_INFO_NULL is" \
    test "$(condition_of include/mpi_info.h "typedef int MPI_Info;")" = "#if !defined(MPI_INFO_NULL)"
check "MPI_Info defined once in mpi_info_abi.h, unless MPI_INFO_NULL is" \
    test "$(condition_of include/mpi_info_abi.h "typedef struct MPI_ABI_Info *MPI_Info;")" = "#if !defined(MPI_INFO_NULL)"
check "MPI_Fint defined once in mpi_info.h, unless MPI_VERSION is" \
    test "$(condition_of include/mpi_info.h "typedef int MPI_Fint;")" = "#if !defined(MPI_VERSION)"
check "no MPI_Fint in mpi_info_abi.h" sh -c "! grep -q 'MPI_Fint;' include/mpi_info_abi.h"

# Host mpi.h files: the shared names (with the MPI-5.0 ABI's numbers) and names of their own,
# as macros or as enum constants.
names_mpi2="MPI_SUCCESS=0 MPI_ERR_BUFFER=1 MPI_ERR_COMM=5 MPI_ERR_ARG=13 MPI_ERR_OTHER=16 MPI_ERR_INTERN=17
    MPI_ERR_INFO_KEY=31 MPI_ERR_INFO_NOKEY=32 MPI_ERR_INFO_VALUE=33 MPI_ERR_INFO=34 MPI_ERR_IO=35 MPI_ERR_NO_MEM=39
    MPI_MAX_ERROR_STRING=512 MPI_THREAD_SINGLE=0 MPI_THREAD_MULTIPLE=4096"
names_mpi1="MPI_SUCCESS=0 MPI_ERR_BUFFER=1 MPI_ERR_COMM=5 MPI_ERR_ARG=13 MPI_ERR_OTHER=16 MPI_ERR_INTERN=17
    MPI_MAX_ERROR_STRING=512"
as_macros() { for nv in "$@"; do echo "#define ${nv%%=*} ${nv#*=}"; done; }
as_enum() { echo "#define HOST_ENUM_CONSTANTS 1"; echo "enum {"; for nv in "$@"; do echo "    ${nv%%=*} = ${nv#*=},"; done; echo "};"; }
# shellcheck disable=SC2086
{ printf '#define MPI_VERSION 5\n#define MPI_SUBVERSION 0\ntypedef int MPI_Fint;\n'; as_macros $names_mpi2; } >"$tmp/host_macro.h"
# shellcheck disable=SC2086
{ printf '#define MPI_VERSION 5\n#define MPI_SUBVERSION 0\ntypedef int MPI_Fint;\n'; as_enum $names_mpi2; } >"$tmp/host_enum.h"
# An MPI-1 mpi.h: no MPI_Fint, no info classes, no MPI_ERR_NO_MEM, no thread levels.
# shellcheck disable=SC2086
{ printf '#define MPI_VERSION 1\n#define MPI_SUBVERSION 3\n'; as_macros $names_mpi1; } >"$tmp/host_mpi1.h"
# A host that includes the header at its top, right after MPI_VERSION, and defines its names
# afterwards.
# shellcheck disable=SC2086
{ printf '#define MPI_VERSION 5\n#define MPI_SUBVERSION 0\n#include INFO_H\ntypedef int MPI_Fint;\n'; as_enum $names_mpi2; } >"$tmp/host_top.h"

# What a program on the host uses, after its mpi.h and the header: every constant with the
# ABI's value (an array of negative size otherwise), as a case label and in a static
# initialiser, the functions, and MPI_Fint where the host has it.
cat >"$tmp/on_host.c" <<'C'
#include HOST_H
#include INFO_H
#if defined(HOST_ENUM_CONSTANTS) && (defined(MPI_SUCCESS) || defined(MPI_ERR_ARG) || defined(MPI_ERR_OTHER) || \
    defined(MPI_ERR_INTERN) || defined(MPI_ERR_INFO_KEY) || defined(MPI_ERR_INFO_NOKEY) || defined(MPI_ERR_INFO_VALUE) || \
    defined(MPI_ERR_INFO) || defined(MPI_ERR_NO_MEM) || defined(MPI_MAX_ERROR_STRING) || defined(MPI_THREAD_MULTIPLE))
#error "the header defined a name over the host's enum constant"
#endif
#define ABI_VALUE(name, value) typedef char abi_value_of_##name[(name) == (value) ? 1 : -1];
ABI_VALUE(MPI_SUCCESS, 0)
ABI_VALUE(MPI_ERR_ARG, 13)
ABI_VALUE(MPI_ERR_OTHER, 16)
ABI_VALUE(MPI_ERR_INTERN, 17)
ABI_VALUE(MPI_ERR_INFO_KEY, 31)
ABI_VALUE(MPI_ERR_INFO_NOKEY, 32)
ABI_VALUE(MPI_ERR_INFO_VALUE, 33)
ABI_VALUE(MPI_ERR_INFO, 34)
ABI_VALUE(MPI_ERR_NO_MEM, 39)
ABI_VALUE(MPI_MAX_ERROR_STRING, 512)
ABI_VALUE(MPI_THREAD_MULTIPLE, 4096)
ABI_VALUE(MPI_ERR_COMM, 5)
static MPI_Info kept = MPI_INFO_NULL;
int classify(int rc);
int classify(int rc) {
    char message[MPI_MAX_ERROR_STRING];
    int length;
    switch (rc) {
    case MPI_SUCCESS: return 0;
    case MPI_ERR_ARG: return 1;
    case MPI_ERR_OTHER: return 2;
    case MPI_ERR_INTERN: return 3;
    case MPI_ERR_INFO_KEY: return 4;
    case MPI_ERR_INFO_NOKEY: return 5;
    case MPI_ERR_INFO_VALUE: return 6;
    case MPI_ERR_INFO: return 7;
    case MPI_ERR_NO_MEM: return 8;
    case MPI_ERR_COMM: return 9;
    case MPI_THREAD_MULTIPLE: return 10;
    default: return MPI_Error_string(rc, message, &length) + MPIX_Info_error_class(rc, &length) + MPI_Info_create(&kept);
    }
}
#if MPI_VERSION >= 2
MPI_Fint fortran_integer(void);
MPI_Fint fortran_integer(void) { return (MPI_Fint)MPI_ERR_INFO; }
#endif
C
cp "$tmp/on_host.c" "$tmp/on_host.cpp"
for header in mpi_info.h mpi_info_abi.h; do
    for host in macro enum mpi1 top; do
        defs=(-DHOST_H="\"host_$host.h\"" -DINFO_H="\"$header\"")
        check "$header after a $host host mpi.h, C99 -pedantic" \
            "$CC" -std=c99 -pedantic -Wall -Wextra -Werror -Iinclude -I"$tmp" "${defs[@]}" -c "$tmp/on_host.c" -o "$tmp/on_host.o"
        check "$header after a $host host mpi.h, C++11" \
            "$CXX" -std=c++11 -Wall -Wextra -Werror -Iinclude -I"$tmp" "${defs[@]}" -c "$tmp/on_host.cpp" -o "$tmp/on_host.o"
    done
done
# ---- After a real MPI-5.0 standard ABI mpi.h: MPICH's src/binding/abi/mpi_abi.h and the MPI
# Forum's mpi-abi-stubs mpi.h, copied in tests-c/abi-real (README there). Such an mpi.h has
# the info object's names and prototypes; mpi_info_abi.h after it adds the MPIX_ ones, in C99,
# C11 and C++11 with warnings as errors, and the program runs on libmpi_info_abi.
LIB=${MPI_INFO_LIB:-build/lib}
STATIC_LIBS="-lpthread -ldl -lm -lrt -lutil"
cat >"$tmp/on_abi.c" <<'C'
#include <mpi.h>
#include "mpi_info_abi.h"
#include <string.h>
#define ABI_VALUE(name, value) typedef char abi_value_of_##name[(name) == (value) ? 1 : -1];
ABI_VALUE(MPI_SUCCESS, 0)
ABI_VALUE(MPI_ERR_INFO, 34)
ABI_VALUE(MPI_MAX_INFO_KEY, 256)
ABI_VALUE(MPI_MAX_INFO_VAL, 1024)
ABI_VALUE(MPIX_INFO_FORMAT_LINES, 1)
static MPI_Info kept = MPI_INFO_NULL;
static char key[MPI_MAX_INFO_KEY];
static char value[MPI_MAX_INFO_VAL];
int main(void) {
    MPI_Info info, env = MPI_INFO_ENV;
    int flag = 0, buflen = (int)sizeof value, nkeys = 0, bad = 0;
    int64_t number = 0;
    bad += MPI_Info_create(&info) != MPI_SUCCESS;
    bad += MPI_Info_set(info, "cb_nodes", "4") != MPI_SUCCESS;
    bad += MPI_Info_get_string(info, "cb_nodes", &buflen, value, &flag) != MPI_SUCCESS || !flag || strcmp(value, "4") != 0;
    bad += MPI_Info_get_nthkey(info, 0, key) != MPI_SUCCESS || strcmp(key, "cb_nodes") != 0;
    bad += MPIX_Info_get_int64(info, "cb_nodes", &number, &flag) != MPI_SUCCESS || number != 4;
    bad += MPI_Info_get_nkeys(env, &nkeys) != MPI_SUCCESS || nkeys < 1;
    bad += MPI_Info_toint(kept) != 0x130 || MPI_Info_fromint(0x131) != MPI_INFO_ENV;
    bad += MPI_Info_free(&info) != MPI_SUCCESS || info != MPI_INFO_NULL;
    bad += MPI_Info_set(kept, "k", "v") != MPI_ERR_INFO;
    return bad;
}
C
cp "$tmp/on_abi.c" "$tmp/on_abi.cpp"
for real in mpich mpi-abi-stubs; do
    inc=(-Itests-c/abi-real/$real -Iinclude)
    for std in c99 c11; do
        check "mpi_info_abi.h after $real's standard ABI mpi.h, $std -pedantic" \
            "$CC" -std=$std -pedantic -Wall -Wextra -Werror "${inc[@]}" -c "$tmp/on_abi.c" -o "$tmp/on_abi.o"
    done
    check "mpi_info_abi.h after $real's standard ABI mpi.h, C++11 -pedantic" \
        "$CXX" -std=c++11 -pedantic -Wall -Wextra -Werror "${inc[@]}" -c "$tmp/on_abi.cpp" -o "$tmp/on_abi_cpp.o"
    check "a program on $real's standard ABI mpi.h and mpi_info_abi.h runs on libmpi_info_abi" sh -c "
        '$CC' -std=c99 -pedantic -Wall -Wextra -Werror -Itests-c/abi-real/$real -Iinclude '$tmp/on_abi.c' -o '$tmp/on_abi' \
            -L'$LIB' -lmpi_info_abi -Wl,-rpath,'$PWD/$LIB' && '$tmp/on_abi'"
done

check "mpi_info_abi.h after tests-c/abi/mpi.h (the suite's standard ABI mpi.h), C99 -pedantic" \
    "$CC" -std=c99 -pedantic -Wall -Wextra -Werror -Itests-c/abi -Iinclude -c "$tmp/on_abi.c" -o "$tmp/on_abi.o"

# ---- An mpi.h that does not compose with the header: one #error, which says what to do.
# one_error EXPECTED COMPILER ARGS...: the compilation fails with exactly one error message,
# which has EXPECTED in it.
one_error() {
    local expected=$1; shift
    if "$@" >"$tmp/errors" 2>&1; then echo "compiled"; return 1; fi
    cat "$tmp/errors"
    [ "$(grep -c 'error:' "$tmp/errors")" = 1 ] && grep 'error:' "$tmp/errors" | grep -qF "$expected"
}
printf '#include <mpi.h>\n#include INFO_H\nint main(void) { MPI_Info info; return MPI_Info_create(&info); }\n' >"$tmp/after_mpi.c"
cp "$tmp/after_mpi.c" "$tmp/after_mpi.cpp"
for real in mpich mpi-abi-stubs; do
    check "mpi_info.h after $real's standard ABI mpi.h: one #error" one_error "include mpi_info_abi.h instead" \
        "$CC" -std=c99 -pedantic -Wall -Wextra -Werror -Itests-c/abi-real/$real -Iinclude -DINFO_H='"mpi_info.h"' -c "$tmp/after_mpi.c" -o "$tmp/after_mpi.o"
done
# A full MPI's own mpi.h (Debian's MPICH and Open MPI), where installed: MPI_Info and its
# functions are that MPI's.
for full in mpich:/usr/include/x86_64-linux-gnu/mpich openmpi:/usr/lib/x86_64-linux-gnu/openmpi/include; do
    name=${full%%:*}; dir=${full#*:}
    if [ ! -f "$dir/mpi.h" ]; then echo "header_test: skipped the checks after $name's mpi.h ($dir/mpi.h is not installed)"; continue; fi
    for header in mpi_info.h mpi_info_abi.h; do
        check "$header after $name's mpi.h: one #error, C99" one_error "use that library's MPI_Info_ functions" \
            "$CC" -std=c99 -pedantic -Wall -Wextra -Werror -I"$dir" -Iinclude -DINFO_H="\"$header\"" -c "$tmp/after_mpi.c" -o "$tmp/after_mpi.o"
        check "$header after $name's mpi.h: one #error, C++11" one_error "use that library's MPI_Info_ functions" \
            "$CXX" -std=c++11 -Wall -Wextra -Werror -DMPICH_SKIP_MPICXX -DOMPI_SKIP_MPICXX -I"$dir" -Iinclude -DINFO_H="\"$header\"" \
            -c "$tmp/after_mpi.cpp" -o "$tmp/after_mpi.o"
    done
done

# ---- The link check (README.md, "Standard ABI"): a program compiled with one header links
# and runs with its own library, and fails to link with the other, shared or static, naming
# the library it needs.
printf '#include INFO_H\nint main(void) { MPI_Info info; return MPI_Info_create(&info) != MPI_SUCCESS || MPI_Info_free(&info) != MPI_SUCCESS; }\n' >"$tmp/link.c"
cp "$tmp/link.c" "$tmp/link.cpp"
for header in mpi_info mpi_info_abi; do
    symbol=${header}_h_requires_lib$header
    "$CC" -std=c99 -O2 -Wall -Wextra -Werror -Iinclude -DINFO_H="\"$header.h\"" -c "$tmp/link.c" -o "$tmp/link_$header.o"
    check "a C object compiled with $header.h at -O2 refers to $symbol" sh -c "nm '$tmp/link_$header.o' | grep -q ' U $symbol\$'"
    check "a C++ object compiled with $header.h refers to $symbol" sh -c "
        '$CXX' -std=c++11 -O2 -Wall -Wextra -Werror -Iinclude -DINFO_H='\"$header.h\"' -c '$tmp/link.cpp' -o '$tmp/link_cpp.o' &&
        nm '$tmp/link_cpp.o' | grep -q ' U $symbol\$'"
    for library in mpi_info mpi_info_abi; do
        for kind in shared static; do
            if [ $kind = shared ]; then how="-L$LIB -l$library -Wl,-rpath,$PWD/$LIB"; else how="$LIB/lib$library.a $STATIC_LIBS"; fi
            if [ $library = $header ]; then
                check "$header.h with lib$library, $kind: links and runs" sh -c "
                    '$CC' '$tmp/link_$header.o' -o '$tmp/link' $how && '$tmp/link'"
            else
                check "$header.h with lib$library, $kind: fails to link, naming $symbol" sh -c "
                    ! '$CC' '$tmp/link_$header.o' -o '$tmp/link' $how >'$tmp/link.out' 2>&1 &&
                    grep 'undefined reference' '$tmp/link.out' | grep -q '$symbol'"
            fi
        done
    done
    other=mpi_info_abi; [ $header = mpi_info_abi ] && other=mpi_info
    check "$header.h with lib$other, shared, -Wl,--gc-sections: fails to link, naming $symbol" sh -c "
        '$CC' -std=c99 -O2 -ffunction-sections -fdata-sections -Iinclude -DINFO_H='\"$header.h\"' '$tmp/link.c' -o '$tmp/link' \
            -Wl,--gc-sections -L'$LIB' -l$other >'$tmp/link.out' 2>&1; [ \$? -ne 0 ] &&
        grep 'undefined reference' '$tmp/link.out' | grep -q '$symbol'"
    check "$header.h with MPI_INFO_NO_LINK_CHECK: no reference to $symbol" sh -c "
        '$CC' -std=c99 -pedantic -Wall -Wextra -Werror -Iinclude -DMPI_INFO_NO_LINK_CHECK -DINFO_H='\"$header.h\"' -c '$tmp/link.c' -o '$tmp/nocheck.o' &&
        ! nm '$tmp/nocheck.o' | grep -q '$symbol'"
done
check "libmpi_info defines mpi_info_h_requires_libmpi_info only" sh -c "
    nm -D --defined-only '$LIB/libmpi_info.so' | grep -q ' mpi_info_h_requires_libmpi_info\$' &&
    ! nm -D --defined-only '$LIB/libmpi_info.so' | grep -q requires_libmpi_info_abi"
check "libmpi_info_abi defines mpi_info_abi_h_requires_libmpi_info_abi only" sh -c "
    nm -D --defined-only '$LIB/libmpi_info_abi.so' | grep -q ' mpi_info_abi_h_requires_libmpi_info_abi\$' &&
    ! nm -D --defined-only '$LIB/libmpi_info_abi.so' | grep -q ' mpi_info_h_requires'"
echo "header_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
