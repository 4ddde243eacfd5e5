#!/usr/bin/env bash
# The generated header compiles cleanly as strict C99 and as C++, its constants are constant
# expressions, and it declares every function with its PMPI_ twin.
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
         Info_serialize Info_deserialize Info_equal; do
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
echo "header_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
