/* tool.c - a minimal profiling tool for the PMPI test (docs/reference.md, "Profiling names").
 *
 * Defines MPI_Info_create, MPI_Info_set, MPI_Info_get and MPI_Info_free, and MPIX_Info_merge
 * (the MPIX_ family has PMPIX_ twins the same way): each counts the call and forwards it to its
 * PMPI_ (PMPIX_) twin. Everything else is left to the library.
 * pmpi_tool_count(name) returns how often the wrapper `name` was called (-1 for a name the
 * tool does not wrap). The tool prints nothing.
 *
 * Built two ways (see the Makefile): as libpmpi_tool.so linked ahead of libmpi_info.so, and
 * as an object file linked ahead of libmpi_info.a. */
#ifdef MPI_INFO_TEST_ABI
#include "mpi_info_abi.h"
#else
#include "mpi_info.h"
#endif

#include <string.h>

int pmpi_tool_count(const char *name);

static int count_create, count_set, count_get, count_free, count_merge;

static void bump(int *counter) { __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED); }

int MPI_Info_create(MPI_Info *info) {
    bump(&count_create);
    return PMPI_Info_create(info);
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value) {
    bump(&count_set);
    return PMPI_Info_set(info, key, value);
}

int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag) {
    bump(&count_get);
    return PMPI_Info_get(info, key, valuelen, value, flag);
}

int MPI_Info_free(MPI_Info *info) {
    bump(&count_free);
    return PMPI_Info_free(info);
}

int MPIX_Info_merge(MPI_Info target, MPI_Info source, int overwrite) {
    bump(&count_merge);
    return PMPIX_Info_merge(target, source, overwrite);
}

int pmpi_tool_count(const char *name) {
    if (name == NULL) return -1;
    if (strcmp(name, "MPI_Info_create") == 0) return __atomic_load_n(&count_create, __ATOMIC_RELAXED);
    if (strcmp(name, "MPI_Info_set") == 0) return __atomic_load_n(&count_set, __ATOMIC_RELAXED);
    if (strcmp(name, "MPI_Info_get") == 0) return __atomic_load_n(&count_get, __ATOMIC_RELAXED);
    if (strcmp(name, "MPI_Info_free") == 0) return __atomic_load_n(&count_free, __ATOMIC_RELAXED);
    if (strcmp(name, "MPIX_Info_merge") == 0) return __atomic_load_n(&count_merge, __ATOMIC_RELAXED);
    return -1;
}
